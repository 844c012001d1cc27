#!/usr/bin/env python3
"""Draws a reproducible sample of implications between magma laws from the Equational Theories
Project's public outcome table (https://github.com/teorth/equational_theories, Apache-2.0).

Usage: etp_sample.py OUTCOMES_JSON EQUATIONS_TXT SEED COUNT > sample.tsv

OUTCOMES_JSON is data/2024-11-10-outcomes.json.zip of that repository, unzipped: a 4694 x 4694
table whose entry [i][j] says whether equation i+1 implies equation j+1. EQUATIONS_TXT is
data/equations.txt (equation k on line k). Pairs (i, j) with i != j are drawn uniformly with
replacement from the whole table (random.Random(SEED).randrange), so the mix of true and false,
easy and hard, is the table's; the rare entries that are only conjectures or unknown in that
table (190 of 22 million) are redrawn. Each output line is
    i <TAB> j <TAB> true|false <TAB> equation i <TAB> equation j
in ETP's syntax (◇ for the operation).
"""
import json
import random
import sys


def main():
    outcomes_path, equations_path, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    table = json.load(open(outcomes_path, encoding="utf-8"))["outcomes"]
    equations = [line.strip() for line in open(equations_path, encoding="utf-8")]
    n = len(equations)
    assert len(table) == n, "the table and the equation list disagree on the number of laws"
    rng = random.Random(seed)
    drawn = 0
    while drawn < count:
        i, j = rng.randrange(n), rng.randrange(n)
        outcome = table[i][j]
        if i == j or not outcome.endswith(("proof_true", "proof_false")):
            continue
        truth = "true" if outcome.endswith("true") else "false"
        print(f"{i + 1}\t{j + 1}\t{truth}\t{equations[i]}\t{equations[j]}")
        drawn += 1


if __name__ == "__main__":
    main()
