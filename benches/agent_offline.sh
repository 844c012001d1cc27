#!/bin/sh
# One offline agent run in a fresh library, as a user starts it: the offline strategist, the
# literature off (no network here), CYCLES cycles on GOAL. Prints each cycle's time and how many
# candidates it checked and identified, from the cycle reports.
#
# Usage: benches/agent_offline.sh [BIN] [CYCLES] [GOAL]
#   BIN     the birkhoff binary (default: target/release/birkhoff, built first)
#   CYCLES  default 2
#   GOAL    default "study quasigroups"
# To compare two builds, time this script with each binary in turn, interleaved.
set -eu
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
    cargo build --release --quiet
    bin=${CARGO_TARGET_DIR:-target}/release/birkhoff
fi
cycles=${2:-2}
goal=${3:-study quasigroups}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" agent --llm offline --literature off --cycles "$cycles" --goal "$goal" \
    --library "$work/lib" > /dev/null
for f in "$work"/lib/reports/cycle-*.json; do
    python3 - "$f" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"cycle {r['cycle']}: {r['seconds']:.1f} s, {r['checked']} checked, "
      f"{r['identified']} identified, {len(r['discoveries'])} kept")
PY
done
