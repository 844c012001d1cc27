"""Summary of benches/provers/run.sh's results.tsv: per problem set and prover, how many problems
were decided (proved or disproved), how many answers were wrong, and the median and 90th-percentile
wall times.

    python3 benches/provers/summary.py RESULTS.tsv TIMEOUT
"""
import statistics
import sys


def percentile(xs, q):
    """The q-quantile by the nearest rank: the smallest value with at least q of the values at
    or below it."""
    xs = sorted(xs)
    return xs[max(0, -(-int(q * 100) * len(xs) // 100) - 1)]


def main():
    path, timeout = sys.argv[1], float(sys.argv[2])
    rows = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8") if line.strip()]
    groups = {}
    for row in rows:
        groups.setdefault((row[0], row[3]), []).append(row)
    print(f"time per problem: {timeout:g} s wall; median over all problems, an unknown counted at its time")
    print("set\tprover\tproblems\tdecided\tproved (true)\tdisproved (false)\twrong\tunknown\terrors\tmedian s\tmedian s (decided)\tp90 s (decided)")
    for (problem_set, prover), rs in sorted(groups.items()):
        decided = [r for r in rs if r[4] in ("proved", "disproved")]
        # An answer after the time is not counted as decided (`prove` keeps to its timeout, so
        # this allows only process start-up and exit).
        late = [r for r in decided if float(r[5]) > timeout + 1]
        decided = [r for r in decided if r not in late]
        proved = sum(1 for r in decided if r[4] == "proved" and r[2] == "true")
        disproved = sum(1 for r in decided if r[4] == "disproved" and r[2] == "false")
        wrong = sum(1 for r in rs if r[6] == "WRONG")
        errors = sum(1 for r in rs if r[4] == "error")
        times = [float(r[5]) for r in rs]
        dtimes = [float(r[5]) for r in decided]
        med_d = f"{statistics.median(dtimes):.3f}" if dtimes else "-"
        p90_d = f"{percentile(dtimes, 0.9):.3f}" if dtimes else "-"
        print(f"{problem_set}\t{prover}\t{len(rs)}\t{len(decided)}\t{proved}\t{disproved}\t{wrong}\t"
              f"{len(rs) - len(decided) - errors}\t{errors}\t{statistics.median(times):.3f}\t{med_d}\t{p90_d}")
    for r in rows:
        if r[6] == "WRONG":
            print(f"WRONG: {r[0]} {r[1]}: expected {r[2]}, {r[3]} says {r[4]} ({r[7]})")


main()
