#!/bin/sh
# The rediscovery benchmark (issue 19 §7, docs/BENCHMARKS.md): hide catalogue entries from
# identification and novelty, run the offline agent from the seeds, and count the hidden entries
# reached (a generated theory shown to be the same class), kept as a discovery, and ranked in the
# top 20 discoveries.
#
#   benches/rediscovery.sh [CYCLES] [GOAL]      (default: 20 cycles, "Explore broadly")
#   LIST=loops_quasigroups benches/rediscovery.sh   (a list of benches/rediscovery/; default:
#                                                    developers, the first list)
#   HIDDEN=a,b,c benches/rediscovery.sh         (any entries, instead of a list)
#   BIN=path benches/rediscovery.sh             (a binary already built, instead of building)
#   KEEP=dir benches/rediscovery.sh             (keep the run's library and events in dir, a new
#                                                directory, to read afterwards)
#
# The lists (issue 50): developers (the first one, written with the move vocabulary),
# loops_quasigroups (the one the law families were tuned on), semigroups_bands and
# lattices_rings (held out). Each names 20 catalogue classes; a '#' line is a comment.
#
# Builds the release binary first; the library is a fresh temporary directory, so nothing
# found by earlier runs counts as known.
set -eu
cd "$(dirname "$0")/.."
cycles=${1:-20}
goal=${2:-Explore broadly}
list=${LIST:-developers}
if [ -z "${HIDDEN:-}" ]; then
    [ -f "benches/rediscovery/$list.txt" ] || { echo "no list benches/rediscovery/$list.txt" >&2; exit 2; }
    HIDDEN=$(grep -v '^#' "benches/rediscovery/$list.txt" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
fi
hidden=$HIDDEN
if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
    BIN=${CARGO_TARGET_DIR:-target}/release/birkhoff
fi
bin=$BIN
if [ -n "${KEEP:-}" ]; then
    mkdir "$KEEP"
    work=$KEEP
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
start=$(date +%s)
"$bin" agent --cycles "$cycles" --goal "$goal" --llm offline --breadth wide --hide "$hidden" --literature off --library "$work/lib" --json > "$work/events.jsonl" || true
end=$(date +%s)
python3 - "$work/events.jsonl" "$cycles" "$((end - start))" <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
tally = next((e['tally'] for e in events if e.get('event') == 'rediscovery'), None)
if tally is None:
    sys.exit('no rediscovery tally: the run did not complete')
print(f"{sys.argv[2]} offline cycles in {sys.argv[3]} s; {tally['generated']} theories generated, {tally['discoveries']} discoveries")
print("| hidden entry | reached (cycle: candidate) | kept as | rank |")
print("|---|---|---|---|")
for e in tally['entries']:
    r = e['reached']
    reached = f"{r['cycle']}: `{r['name']}`" if r else "–"
    kept = f"`{e['kept']['name']}`" if e['kept'] else "–"
    print(f"| {e['entry']} | {reached} | {kept} | {e['rank'] or '–'} |")
n = len(tally['entries'])
print(f"\nreached {tally['reached']}/{n}, kept {tally['kept']}/{n}, in the top 20 {tally['top']}/{n}")
PY
