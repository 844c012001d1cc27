#!/bin/sh
# Time of one agent cycle outside the language model, with 20 candidates checked to size 6.
#
# A scripted model (no waiting) plans 20 structures in 5 explorations of 4 bases (moves are
# used when the explore tool offers them: MOVES="A,B" names them), check_top 20, max_size 6;
# the cycle's report gives its duration and the time spent waiting for the model.
# Usage: benches/agent_cycle.sh [CYCLES]   (builds the release binary first)
set -eu
# Cargo reads the build settings of .cargo/config.toml only inside the workspace.
cd "$(dirname "$0")/.."
cycles=${1:-3}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/birkhoff
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
moves=${MOVES:-}
quoted=$(printf '%s' "$moves" | sed 's/[^,][^,]*/"&"/g')
cat > "$work/llm.sh" <<SCRIPT
#!/bin/sh
p=\$(cat)
case "\$p" in
PHASE:\ PLAN*) echo '<plan>{"strategy": "benchmark", "check_top": 20, "max_size": 6, "explorations": [
 {"bases": ["group", "monoid", "semigroup", "quasigroup"], "moves": [$quoted]},
 {"bases": ["loop", "band", "semilattice", "lattice"], "moves": [$quoted]},
 {"bases": ["comm_monoid", "comm_semigroup", "abelian_group", "inverse_semigroup"], "moves": [$quoted]},
 {"bases": ["quandle", "rack", "latin_quandle", "moufang_loop"], "moves": [$quoted]},
 {"bases": ["distributive_lattice", "modular_lattice", "boolean_algebra", "poset"], "moves": [$quoted]}]}</plan>';;
*) echo '<decisions>{"analysis": "benchmark", "keep": [], "conjectures": []}</decisions>';;
esac
SCRIPT
chmod +x "$work/llm.sh"
"$bin" agent --cycles "$cycles" --goal benchmark --library "$work/lib" --llm-command "$work/llm.sh" --literature off --json > "$work/events.jsonl"
for f in "$work"/lib/reports/cycle-*.json; do
  python3 - "$f" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
calls = r['tool_calls']
seconds = lambda tool: sum(t['seconds'] for t in calls if t['tool'] == tool)
print(f"cycle {r['cycle']}: {r['checked']} candidates checked to size {r['plan']['max_size']}, "
      f"{r['seconds'] - r['llm_seconds']:.3f} s outside the model ({r['seconds']:.3f} s total); "
      f"sums over the parallel calls: check_models (candidates and parents) {seconds('check_models'):.3f} s, score {seconds('score'):.3f} s")
if r['cycle'] == 1:
    scores = {t['params']['signature_id']: t['seconds'] for t in calls if t['tool'] == 'score'}
    for t in calls:
        if t['tool'] == 'check_models':
            name = t['params']['signature_id']
            print(f"  {name:>22} {t['summary']}  check {t['seconds']:.3f} s, score {scores.get(name, 0):.3f} s")
PY
done
