#!/usr/bin/env bash
# Issue 21 (docs/BENCHMARKS.md, "provers side by side"): Birkhoff, E, cvc5 and Prover9 on the same
# problems with the same wall-clock time each.
#
#   benches/provers/run.sh [etp|loops|tptp|all]     (default: all)
#
# Problem sets:
#   etp    implications between magma laws with ETP's truth values, one theory file per line of
#          ETP_SAMPLE (default: the held-out seed-7 draw, checker/benches/data/; how it is drawn
#          from ETP's public data: checker/benches/data/README.md), the first ETP_LIMIT (default
#          100) lines;
#   loops  theorems and non-theorems of loop and quasigroup theory, benches/provers/loops/*.bk
#          (theory, goal as `meta conjecture`, truth as `meta expected`; sources in its README).
#
# Every prover gets each problem through `birkhoff prove FILE --timeout T [--external NAME]`: the
# external provers read Birkhoff's own TPTP export (LADR for Prover9), exactly as
# `prove --external` writes it, and are stopped at the deadline.
#
# Environment: TIMEOUT seconds per problem (default 10); PROVERS (default
# "birkhoff eprover cvc5 prover9"); PROVER9_TARBALL, a LADR source tarball (such as
# LADR-2009-11A.tar.gz) the user supplies: it is unpacked and built under target/provers/ladr, never
# in the source tree. Without it Prover9 runs only if `prover9` is already on PATH, and is
# otherwise skipped with a message. OUT (default target/provers) receives results.tsv, one line per
# run: set, problem, expected (true/false), prover, verdict (proved/disproved/unknown/error), wall
# seconds, WRONG or ok, detail; then summary.txt (decided, wrong and median time per prover and set).
set -u
cd "$(dirname "$0")/../.."
BIN=target/release/birkhoff
TIMEOUT=${TIMEOUT:-10}
ETP_SAMPLE=${ETP_SAMPLE:-checker/benches/data/etp_implications_seed7.tsv}
ETP_LIMIT=${ETP_LIMIT:-100}
PROVERS=${PROVERS:-birkhoff eprover cvc5 prover9}
OUT=${OUT:-target/provers}
WHAT=${1:-all}
mkdir -p "$OUT"
cargo build --release --quiet --bin birkhoff || exit 2

# Prover9 from the user's tarball, built once under target/.
if [[ " $PROVERS " == *" prover9 "* ]]; then
    if [[ -n "${PROVER9_TARBALL:-}" ]]; then
        LADR=target/provers/ladr
        if [[ ! -x $LADR/LADR/bin/prover9 ]]; then
            echo "building Prover9 from $PROVER9_TARBALL in $LADR (log: $LADR/build.log)" >&2
            rm -rf "$LADR" && mkdir -p "$LADR" && tar xzf "$PROVER9_TARBALL" -C "$LADR" || exit 2
            # The tarball unpacks to one directory; LADR's makefile wants bin/ to be a directory.
            src=$(find "$LADR" -mindepth 1 -maxdepth 1 -type d | head -n 1)
            [[ $src == "$LADR/LADR" ]] || mv "$src" "$LADR/LADR"
            (cd "$LADR/LADR" && rm -f bin && mkdir bin && make all CC="gcc -Wl,--no-as-needed -fcommon") >"$LADR/build.log" 2>&1 \
                || { echo "Prover9 build failed: see $LADR/build.log" >&2; exit 2; }
        fi
        PATH="$PWD/$LADR/LADR/bin:$PATH"
    fi
    if ! command -v prover9 >/dev/null; then
        echo "Prover9 skipped: not on PATH and no PROVER9_TARBALL given (a LADR source tarball, built under target/)" >&2
        PROVERS=${PROVERS//prover9/}
    fi
fi

# run SET FILE EXPECTED PROVER: one problem, one prover; appends a line to results.tsv.
run() {
    local set=$1 file=$2 expected=$3 prover=$4
    local ext=()
    [[ $prover == birkhoff ]] || ext=(--external "$prover")
    local start end json rc
    start=$(date +%s.%N)
    # `timeout` only guards against a run that ignores its own --timeout.
    json=$(timeout --signal=KILL $((TIMEOUT + 30)) "$BIN" --json prove "$file" --timeout "$TIMEOUT" "${ext[@]}" 2>"$OUT/last.err")
    rc=$?
    end=$(date +%s.%N)
    local verdict detail
    verdict=$(jq -r '.verdict // "error"' <<<"$json" 2>/dev/null || echo error)
    case $verdict in
        proved | proved_by_z3 | proved_by_external) detail=$verdict verdict=proved ;;
        disproved | disproved_by_external) detail=$verdict verdict=disproved ;;
        unknown) detail=$(jq -r '.external.status // .unknown_because // ""' <<<"$json" | tr '\t\n' '  ') ;;
        *) detail="exit $rc: $(head -c 200 "$OUT/last.err" | tr '\t\n' '  ')" verdict=error ;;
    esac
    local mark=ok
    if [[ ($verdict == proved && $expected == false) || ($verdict == disproved && $expected == true) ]]; then
        mark=WRONG
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%.3f\t%s\t%s\n' "$set" "$(basename "${file%.p}" .bk)" "$expected" "$prover" "$verdict" \
        "$(echo "$end - $start" | bc)" "$mark" "$detail" | tee -a "$OUT/results.tsv"
}

# One theory file per ETP implication: the magma with law i, law j as the conjecture.
etp_files() {
    local dir=$OUT/etp
    rm -rf "$dir" && mkdir -p "$dir"
    head -n "$ETP_LIMIT" "$ETP_SAMPLE" | while IFS=$'\t' read -r i j truth hyp goal; do
        printf 'theory ETP_%s_%s\nfunc * : 2\naxiom E%s: %s\nmeta conjecture "%s"\nmeta expected "%s"\n' \
            "$i" "$j" "$i" "${hyp//◇/*}" "${goal//◇/*}" "$truth" >"$dir/E${i}_E${j}.bk"
        echo "$dir/E${i}_E${j}.bk"
    done
}

bench_set() { # SET FILE...
    local set=$1 file expected prover
    shift
    # A new run of a set replaces its old lines.
    [[ -f $OUT/results.tsv ]] && { grep -v "^$set"$'\t' "$OUT/results.tsv" >"$OUT/results.tmp"; mv "$OUT/results.tmp" "$OUT/results.tsv"; }
    for file in "$@"; do
        # A theory file states its truth as `meta expected`; a TPTP problem as its Status line.
        expected=$(sed -n -e 's/^meta expected "\(.*\)"/\1/p' -e 's/^% Status *: Unsatisfiable/true/p' \
            -e 's/^% Status *: Satisfiable/false/p' "$file")
        for prover in $PROVERS; do
            run "$set" "$file" "$expected" "$prover"
        done
    done
}

# The TPTP split, converted afresh from the user's library (select.py's stdout lists every problem
# the rule considered and why one was left out).
tptp_files() {
    [[ -d ${TPTP:-} ]] || { echo "the tptp set needs TPTP=DIR, a TPTP library folder with Problems/ and Axioms/" >&2; return 2; }
    local split=${TPTP_SPLIT:-held_out}
    rm -rf "$OUT/tptp" && mkdir -p "$OUT/tptp"
    python3 benches/provers/tptp/select.py "$TPTP" "$OUT/tptp" --split "$split" >"$OUT/tptp/selection.tsv" || return 2
    ls "$OUT/tptp/$split"/*.p
}

{ date -u; uptime; lscpu | grep 'Model name'; } >"$OUT/machine.txt"
case $WHAT in
    etp) bench_set etp $(etp_files) ;;
    loops) bench_set loops benches/provers/loops/*.bk ;;
    tptp) files=$(tptp_files) || exit 2; bench_set "tptp_${TPTP_SPLIT:-held_out}" $files ;;
    all)
        bench_set etp $(etp_files) && bench_set loops benches/provers/loops/*.bk
        if [[ -n ${TPTP:-} ]]; then files=$(tptp_files) || exit 2; bench_set "tptp_${TPTP_SPLIT:-held_out}" $files; fi
        ;;
    *) echo "usage: $0 [etp|loops|tptp|all]" >&2; exit 2 ;;
esac
uptime >>"$OUT/machine.txt"
python3 benches/provers/summary.py "$OUT/results.tsv" "$TIMEOUT" | tee "$OUT/summary.txt"
