#!/usr/bin/env bash
# Two whole commands timed in turn (A B A B ...), as docs/BENCHMARKS.md quotes them: the median
# wall time of each and the median of the pair-by-pair ratios A/B, which holds when a shared
# machine's speed drifts during the runs. Public tools only: bash 5, sort, awk.
#
#   benches/ab.sh [-n RUNS] [-s] 'COMMAND A' 'COMMAND B'
#
# Each command is one string split into words as a shell splits them (no quoting, no shell
# involved) and run directly, its output thrown away; with -s each is run by `sh -c` instead
# (for `rm -rf DIR && ...`; the shell's start-up then counts in both). The clock is bash's
# microsecond EPOCHREALTIME around fork, exec and wait. One warm-up run of each is not counted.
# RUNS defaults to 10.
set -eu
runs=10 shell=
while [ $# -gt 2 ]; do
    case $1 in
        -n) runs=$2; shift 2 ;;
        -s) shell=1; shift ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "usage: $0 [-n RUNS] [-s] 'COMMAND A' 'COMMAND B'" >&2; exit 2; }

# The wall time of one run of a command, in seconds.
wall() {
    local words start end
    if [ -n "$shell" ]; then words=(sh -c "$1"); else read -ra words <<<"$1"; fi
    start=$EPOCHREALTIME
    "${words[@]}" >/dev/null 2>&1 || true
    end=$EPOCHREALTIME
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f\n", e - s }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

wall "$1" >/dev/null
wall "$2" >/dev/null
a=() b=() r=()
for _ in $(seq "$runs"); do
    x=$(wall "$1")
    y=$(wall "$2")
    a+=("$x") b+=("$y")
    r+=("$(awk -v x="$x" -v y="$y" 'BEGIN { print (y > 0) ? x / y : "inf" }')")
done
echo "A median wall s: $(printf '%s\n' "${a[@]}" | median)   ($1)"
echo "B median wall s: $(printf '%s\n' "${b[@]}" | median)   ($2)"
echo "A/B median ratio: $(printf '%s\n' "${r[@]}" | grep -v inf | median)   ($runs pairs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores)"
