#!/usr/bin/env bash
# Counting under `--engine auto` against each engine alone (issue 54), as docs/BENCHMARKS.md
# quotes it. Random LADR theories from a fixed seed, of the kinds of the differential test
# checker/tests/it/ladr_differential.rs: equational and first-order (negation, or, implies,
# iff), prefix `f(x,y)` and infix `x * y`, unary `g(x)`, `-x` and `x'`, the constant `c`. Each
# is counted at sizes 4 and 5 (`birkhoff spectrum T.in --min-size N --max-size N --json`) with
# --engine native, sat and auto, each under the same --timeout. Reports how often auto is within
# 2x of the best engine's wall time (times under MIN_SECONDS count as MIN_SECONDS: process
# start-up and scheduling noise), its worst ratio, and how many counts auto leaves inexact that
# some engine finished. Size 5 is not run for a theory no engine counted at size 4 within the
# limit (its count only grows); such a pair counts as one no engine finished.
#
#   benches/counting-auto.sh [-n THEORIES] [-f FIRST] [-t TIMEOUT] [-s SEED] [-b BIRKHOFF] [-l LIMIT] [-o DIR] [-r]
#
# THEORIES defaults to 200, TIMEOUT to 5 (seconds per run), SEED to 54, BIRKHOFF to
# target/release/birkhoff (else target/debug/birkhoff), LIMIT (a wall-clock limit on the whole
# benchmark, in seconds; theories left when it is reached are not run and the report says so) to
# 840. Runs one command at a time. Each row goes to DIR/rows.tsv (default a new temporary
# directory). With -r, nothing is counted again but the pairs of an earlier run's DIR/rows.tsv
# whose auto was slow or inexact (below). With -f, theories before index FIRST are generated
# (the same theories follow) but not run: a run cut short by LIMIT goes on from there into
# another DIR, and -r over the two rows.tsv files joined reports the whole set. Public tools
# only: bash, python3.
set -eu
n=200 first=0 timeout=5 seed=54 limit=840 out= bin= again=0
while [ $# -gt 0 ]; do
    case $1 in
        -n) n=$2; shift 2 ;;
        -f) first=$2; shift 2 ;;
        -t) timeout=$2; shift 2 ;;
        -s) seed=$2; shift 2 ;;
        -b) bin=$2; shift 2 ;;
        -l) limit=$2; shift 2 ;;
        -o) out=$2; shift 2 ;;
        -r) again=1; shift ;;
        *) echo "usage: $0 [-n THEORIES] [-f FIRST] [-t TIMEOUT] [-s SEED] [-b BIRKHOFF] [-l LIMIT] [-o DIR] [-r]" >&2; exit 2 ;;
    esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$bin" ]; then
    bin=$root/target/release/birkhoff
    [ -x "$bin" ] || bin=$root/target/debug/birkhoff
fi
[ -x "$bin" ] || { echo "no birkhoff binary at $bin: cargo build --release -p birkhoff" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out"
exec python3 - "$bin" "$n" "$timeout" "$seed" "$limit" "$out" "$again" "$first" <<'EOF'
import json, os, random, subprocess, sys, time

bin_, n, timeout, seed, limit, out, again, first = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), sys.argv[6], sys.argv[7] == "1", int(sys.argv[8])
MIN_SECONDS = 0.05
ENGINES = ["native", "sat", "auto"]
rng = random.Random(seed)

def term(depth, binary, unary, const):
    if depth == 0 or rng.random() < 0.2:
        return ("c",) if const and rng.random() < 0.15 else ("v", rng.choice("xyz"))
    if unary and rng.random() < 0.3:
        return (unary, term(depth - 1, binary, unary, const))
    return (binary, term(depth - 1, binary, unary, const), term(depth - 1, binary, unary, const))

def write(t):
    k = t[0]
    if k == "v": return t[1]
    if k == "c": return "c"
    wrap = lambda s, u, minus=False: f"({s})" if u[0] == "*" or (minus and u[0] == "-") else s
    if k == "*": return f"{wrap(write(t[1]), t[1])} * {wrap(write(t[2]), t[2])}"
    if k == "f": return f"f({write(t[1])},{write(t[2])})"
    if k == "g": return f"g({write(t[1])})"
    if k == "-": return f"-{wrap(write(t[1]), t[1])}"
    if k == "'": return f"{wrap(write(t[1]), t[1], True)}'"
    raise ValueError(k)

def atom(binary, unary, const):
    return f"{write(term(3, binary, unary, const))} = {write(term(3, binary, unary, const))}"

def theory(i):
    binary = rng.choice(["*", "f"])
    unary = rng.choice([None, None, "g", "-", "'"])
    const = rng.random() < 0.2
    first_order = i % 2 == 1
    axioms = []
    for _ in range(rng.choice([1, 2, 2])):
        a, b = atom(binary, unary, const), atom(binary, unary, const)
        if first_order:
            axioms.append(rng.choice([f"({a}) <-> ({b})", f"({a}) | ({b})", f"({a}) -> ({b})", f"-({a}) | -({b})"]))
        else:
            axioms.append(a)
    return "formulas(assumptions).\n" + "".join(f"  {a}.\n" for a in axioms) + "end_of_list.\n"

def run(path, size, engine):
    start = time.perf_counter()
    p = subprocess.run([bin_, "--json", "spectrum", path, "--min-size", str(size), "--max-size", str(size), "--engine", engine, "--timeout", timeout], capture_output=True, text=True)
    wall = time.perf_counter() - start
    try:
        row = json.loads(p.stdout)["rows"][0]
        return wall, row["iso"]["status"], row["iso"]["value"], row["labeled"]["value"], row.get("engine", engine)
    except Exception:
        return wall, "error", None, None, p.stderr.strip().splitlines()[-1:] or ["?"]

began = time.time()
results, done, skipped = [], 0, 0
if again:
    # An earlier run's rows; a theory with a size-4 row and no size-5 row had size 5 skipped.
    lines = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "rows.tsv"))][1:]
    for c in lines:
        i, size = int(c[0][1:]), int(c[1])
        r = {e: (float(c[2 + 3 * k]), c[3 + 3 * k], c[4 + 3 * k], None, c[-1]) for k, e in enumerate(ENGINES)}
        results.append((i, size, r, {e: r[e][1] == "exact" for e in ENGINES}))
    ids = {(i, s) for i, s, _, _ in results}
    for i in sorted({i for i, _ in ids}):
        if (i, 5) not in ids:
            skipped += 1
            results.append((i, 5, {e: (0.0, "skipped", None, None, "-") for e in ENGINES}, {e: False for e in ENGINES}))
    done, n = len({i for i, _ in ids}), len({i for i, _ in ids})
rows = open(os.path.join(out, "rows.tsv" if not again else "rows-again.tsv"), "w")
rows.write("theory\tsize\t" + "\t".join(f"{e}_seconds\t{e}_status\t{e}_iso" for e in ENGINES) + "\tauto_engine\n")
for i in range(n):
    text = theory(i)
    if again or i < first or time.time() - began > limit:
        continue
    path = os.path.join(out, f"t{i:03}.in")
    open(path, "w").write(text)
    done += 1
    for size in (4, 5):
        if size == 5 and results and results[-1][0] == i and not any(results[-1][3].values()):
            # No engine finished size 4: size 5 is not run and counts as undecided.
            skipped += 1
            results.append((i, size, {e: (0.0, "skipped", None, None, "-") for e in ENGINES}, {e: False for e in ENGINES}))
            continue
        r = {e: run(path, size, e) for e in ENGINES}
        exact = {e: r[e][1] == "exact" for e in ENGINES}
        counts = {(r[e][2], r[e][3]) for e in ENGINES if exact[e]}
        if len(counts) > 1:
            print(f"t{i:03} size {size}: exact counts differ: {r}", file=sys.stderr)
        results.append((i, size, r, exact))
        rows.write(f"t{i:03}\t{size}\t" + "\t".join(f"{r[e][0]:.3f}\t{r[e][1]}\t{r[e][2]}" for e in ENGINES) + f"\t{r['auto'][4]}\n")
        rows.flush()

ratio = lambda r, x: max(r["auto"][0], MIN_SECONDS) / min(max(r[e][0], MIN_SECONDS) for e in ("native", "sat") if x[e])

def report(results, heading):
    decided = [(i, s, r, x) for (i, s, r, x) in results if x["native"] or x["sat"]]
    ratios = [(ratio(r, x), i, s) for (i, s, r, x) in decided if x["auto"]]
    within = sum(1 for q, _, _ in ratios if q <= 2.0)
    inexact = [(i, s) for (i, s, r, x) in decided if not x["auto"]]
    worst = max(ratios) if ratios else (float("nan"), None, None)
    slowest = sorted(ratios, reverse=True)[:5]
    print(heading)
    print(f"  pairs some engine counted exactly: {len(decided)}; no engine finished: {len(results) - len(decided)} (of which {skipped} size-5 pairs not run since no engine finished size 4)")
    print(f"  native exact: {sum(x['native'] for _, _, _, x in results)}, sat exact: {sum(x['sat'] for _, _, _, x in results)}, auto exact: {sum(x['auto'] for _, _, _, x in results)}")
    print(f"  auto within 2x of the best engine (times floored at {MIN_SECONDS} s): {within} of {len(decided)} ({100.0 * within / max(len(decided), 1):.1f} %)")
    print(f"  auto's worst ratio: {worst[0]:.2f} (t{worst[1]:03} size {worst[2]})" if ratios else "  auto's worst ratio: -")
    print("  auto's five worst: " + ", ".join(f"t{i:03}@{s} {q:.2f}" for q, i, s in slowest))
    print(f"  counts auto leaves inexact that some engine finished: {len(inexact)}" + (" (" + ", ".join(f"t{i:03}@{s}" for i, s in inexact) + ")" if inexact else ""))
    return [(i, s) for (i, s, r, x) in decided if not x["auto"] or ratio(r, x) > 2.0]

print(f"binary: {bin_}; seed {seed}; --timeout {timeout}; results in {out}")
print(f"theories run: {done} of {n} (limit {limit:.0f} s; {time.time() - began:.0f} s taken); (theory, size) pairs: {len(results)}")
suspects = report(results, "one run of each engine per pair:")
# A shared machine's load comes and goes: each pair where auto was more than 2x the best, or
# inexact where an engine finished, is run twice more with every engine, and the median wall
# time of the three runs (an exact count if any run finished) is reported as well.
def median3(runs):
    t = sorted(w for w, *_ in runs)[1]
    st = "exact" if any(r[1] == "exact" for r in runs) else runs[0][1]
    return (t, st) + tuple(runs[0][2:])
rechecked = []
for (i, s, r, x) in results:
    if (i, s) in suspects:
        path = os.path.join(out, f"t{i:03}.in")
        r = {e: median3([r[e], run(path, s, e), run(path, s, e)]) for e in ENGINES}
        x = {e: r[e][1] == "exact" for e in ENGINES}
    rechecked.append((i, s, r, x))
report(rechecked, f"after rerunning those {len(suspects)} pairs twice more (median of 3 runs per engine):")
EOF
