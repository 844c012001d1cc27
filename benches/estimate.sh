#!/usr/bin/env bash
# Issue 53: `sweep --estimate` against the count it predicts (docs/BENCHMARKS.md, "Issue 53").
#
#   benches/estimate.sh [THEORY SIZE]...
#
# For each count, one after the other: the estimate (`--estimate --engine native`), then the
# count itself (`--engine native --out DIR`), both under /usr/bin/time; prints predicted and
# measured CPU (user + system), classes and memory, and the ratios. Defaults: the issue's
# validation counts that fit in minutes (loops 7, quasigroups 6, semigroups 7) and three held
# out (monoids 7, commutative semigroups 8, bands 7). Loops of order 8 take 1.6 CPU-hours: run
# `sweep loop --size 8 --pieces 256 --estimate` and the count by hand. The binary is the release
# build; BIN overrides it. Results go under $OUT (default target/bench-estimate/).
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/birkhoff}
OUT=${OUT:-target/bench-estimate}
mkdir -p "$OUT"
[ "$BIN" != target/release/birkhoff ] || cargo build --release --quiet
if [ $# -eq 0 ]; then
    set -- loop 7 quasigroup 6 semigroup 7 monoid 7 comm_semigroup 8 band 7
fi
while [ $# -ge 2 ]; do
    theory=$1 size=$2
    shift 2
    name="$OUT/$theory-$size"
    /usr/bin/time -f "%e %U %S %M" -o "$name.est.time" "$BIN" --json sweep "$theory" --size "$size" --estimate --engine native >"$name.est.json" 2>/dev/null
    rm -rf "$name.out"
    /usr/bin/time -f "%e %U %S %M" -o "$name.count.time" "$BIN" --json sweep "$theory" --size "$size" --engine native --out "$name.out" >"$name.count.json" 2>/dev/null
    python3 - "$name" "$theory" "$size" <<'PY'
import json, sys
name, theory, size = sys.argv[1:]
e = json.load(open(name + ".est.json"))[0]["estimate"]
c = json.load(open(name + ".count.json"))[0]
est_wall = open(name + ".est.time").read().split()[0]
wall, user, system, peak_kb = open(name + ".count.time").read().split()
cpu = float(user) + float(system)
classes = c["iso"]["value"]
print(f"{theory} {size}: predicted {e['cpu_seconds']:.1f} s CPU, {e['classes']:.0f} classes, "
      f"{e['memory_bytes'] / 2**20:.0f} MB | measured {cpu:.1f} s CPU ({float(wall):.1f} s wall), "
      f"{classes} classes, {int(peak_kb) / 1024:.0f} MB | measured/predicted: time "
      f"{cpu / e['cpu_seconds']:.2f}, classes {classes / max(e['classes'], 1):.2f} | estimate took {est_wall} s")
PY
done
