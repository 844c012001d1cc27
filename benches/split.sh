#!/usr/bin/env bash
# Issue 22: how even is the split of one enumeration into pieces (`sweep --pieces P`), and what
# does splitting cost? (docs/BENCHMARKS.md, "Issue 22".)
#
#   benches/split.sh evenness [THEORY SIZE]   # max/mean and min/mean search nodes per piece, P = 16, 64, 256
#   benches/split.sh time [THEORY SIZE]       # wall time, 16 pieces in one process against 1 piece (benches/ab.sh)
#
# Defaults: loop 7, then semigroup 7. Work per piece is counted in search nodes (deterministic,
# unlike seconds on a shared machine); every piece's file also records its seconds. The binary
# is the release build; BIN overrides it. Results go under $OUT (default target/bench-split/).
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/birkhoff}
OUT=${OUT:-target/bench-split}
mkdir -p "$OUT"
[ -n "${BIN_BUILT:-}" ] || [ "$BIN" != target/release/birkhoff ] || cargo build --release --quiet

points() { if [ $# -ge 2 ]; then echo "$1 $2"; else printf 'loop 7\nsemigroup 7\n'; fi; }

evenness() {
    points "$@" | while read -r theory size; do
        for p in 16 64 256; do
            dir="$OUT/$theory-$size-p$p"
            rm -rf "$dir"
            "$BIN" sweep "$theory" --size "$size" --pieces "$p" --out "$dir" >/dev/null 2>&1 || { echo "$theory $size: the sweep failed" >&2; exit 1; }
            # One "nodes" line per piece file (the row is flattened into the file's top level).
            cat "$dir"/*__piece-*.json | awk -v t="$theory" -v n="$size" -v p="$p" '
                /"nodes":/ { gsub(/[^0-9]/, "", $2); v = $2 + 0; s += v; k++; if (v > mx) mx = v; if (k == 1 || v < mn) mn = v }
                END { m = s / k; printf "%s\t%s\tpieces %d\tnodes %d\tmax/mean %.2f\tmin/mean %.3f\n", t, n, p, s, mx / m, mn / m }'
        done
    done
}

timing() {
    points "$@" | while read -r theory size; do
        d="$OUT/time-$theory-$size"
        # A sweep resumes from what its directory holds: each run starts from an empty one.
        benches/ab.sh -n 3 -s "rm -rf $d-16 && exec $BIN sweep $theory --size $size --pieces 16 --out $d-16" \
            "rm -rf $d-1 && exec $BIN sweep $theory --size $size --pieces 1 --out $d-1"
    done
}

case "${1:-}" in
    evenness) shift; evenness "$@" ;;
    time) shift; timing "$@" ;;
    *) echo "usage: $0 evenness|time [THEORY SIZE]" >&2; exit 2 ;;
esac
