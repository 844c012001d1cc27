#!/usr/bin/env bash
# Issue 5 benchmark: Birkhoff's Z3 path against the native finder on `birkhoff models`
# (iso classes + labeled count, every model re-checked). Usage: benches/z3_vs_native.sh [BINARY]
# Prints one TSV line per case: theory, n, native seconds, z3 seconds, ratio.
set -euo pipefail
bin=${1:-target/release/birkhoff}
cases=("group 6" "group 8" "ring 4" "ring 6" "semigroup 4" "quandle 5" "lattice 5")
printf 'theory\tn\tnative_s\tz3_s\tz3/native\n'
for c in "${cases[@]}"; do
    set -- $c
    t() { local s e; s=$(date +%s.%N); "$bin" models "$1" --size "$2" --engine "$3" --json >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
    n=$(t "$1" "$2" native); z=$(t "$1" "$2" z3)
    printf '%s\t%s\t%.3f\t%.3f\t%.1f\n' "$1" "$2" "$n" "$z" "$(echo "$z / $n" | bc -l)"
done
