#!/usr/bin/env bash
# Whole-command benchmarks of issue 4 (docs/BENCHMARKS.md): iso-class spectra and first-model
# searches on the release binary, each under /usr/bin/time -v for wall time and peak memory.
#
#   benches/run.sh [spectra|first|ground_truth|all]     (default: all)
#
# Caps (seconds): SPECTRUM_CAP (default 600, the issue's 10 minutes) per spectrum size,
# FIRST_CAP (default 60) per first-model instance, GT_CAP (default 600) per ground-truth row of
# the ignored test. A cap is passed to Birkhoff as --timeout, so a capped run still reports
# "at least k" honestly; `timeout` kills a run that overshoots the cap by a minute.
# Results: one TSV line per run on stdout and in $OUT/results.tsv (default benches/results/).
set -u
cd "$(dirname "$0")/.."
BIN=target/release/birkhoff
SPECTRUM_CAP=${SPECTRUM_CAP:-600}
FIRST_CAP=${FIRST_CAP:-60}
GT_CAP=${GT_CAP:-600}
OUT=${OUT:-benches/results}
TH=benches/theories
mkdir -p "$OUT"
cargo build --release --quiet || exit 2

# measure NAME CAP COMMAND...: runs COMMAND, prints name, exit code, wall seconds, peak RSS (MiB)
# and the command's last output line.
measure() {
    local name=$1 cap=$2
    shift 2
    /usr/bin/time -v -o "$OUT/$name.time" timeout --signal=KILL $((cap + 60)) "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    local rc=$?
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$OUT/$name.time")
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$OUT/$name.time")
    local line
    line=$(tail -n 1 "$OUT/$name.out" | tr '\t' ' ')
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "$wall" "$rss" "$line" | tee -a "$OUT/results.tsv"
}

spectrum() { # NAME THEORY N
    measure "spectrum-$1-$3" "$SPECTRUM_CAP" "$BIN" --json spectrum "$2" --min-size "$3" --max-size "$3" --mode both --timeout "$SPECTRUM_CAP"
}

find_first() { # NAME THEORY N
    measure "first-$1-$3" "$FIRST_CAP" "$BIN" --json find "$2" --size "$3" --timeout "$FIRST_CAP"
}

spectra() {
    # 10x faster than Mace4 + isofilter (Mace4 figures in the issue)
    spectrum loop loop 7
    spectrum lattice lattice 7
    spectrum band band 6
    spectrum comm_semigroup comm_semigroup 6
    # out of Mace4's reach in 10 minutes
    spectrum semigroup semigroup 6
    spectrum semigroup semigroup 7
    for n in 8 9 10; do spectrum lattice lattice "$n"; done
    spectrum quasigroup quasigroup 5
    spectrum quasigroup quasigroup 6
    spectrum poset poset 7
}

first() {
    for n in $(seq 1 64); do find_first nonabelian_group $TH/nonabelian_group.bk "$n"; done
    for n in 8 16; do
        find_first moufang_loop moufang_loop "$n"
        find_first bol_loop $TH/bol_loop.bk "$n"
        find_first nonassociative_moufang_loop $TH/nonassociative_moufang_loop.bk "$n"
        find_first nonassociative_bol_loop $TH/nonassociative_bol_loop.bk "$n"
    done
    for n in $(seq 7 27); do find_first steiner $TH/steiner_quasigroup.bk "$n"; done
    for n in $(seq 7 16); do
        find_first mendelsohn $TH/mendelsohn_quasigroup.bk "$n"
        find_first sols $TH/sols.bk "$n"
    done
    for n in $(seq 2 16); do find_first distributive_nonmedial $TH/distributive_nonmedial_quasigroup.bk "$n"; done
}

ground_truth() {
    BK_GT_SECONDS=$GT_CAP cargo test -p birkhoff-checker --test ground_truth -- --ignored --nocapture larger_ground_truth_rows | tee "$OUT/ground_truth.tsv"
}

case "${1:-all}" in
    spectra) spectra ;;
    first) first ;;
    ground_truth) ground_truth ;;
    all) spectra; first; ground_truth ;;
    *) echo "usage: benches/run.sh [spectra|first|ground_truth|all]" >&2; exit 2 ;;
esac
