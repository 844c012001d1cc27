#!/usr/bin/env bash
# Whole-command benchmarks of issue 4 (docs/BENCHMARKS.md): iso-class spectra and first-model
# searches on the release binary, each under /usr/bin/time -v for wall time and peak memory.
#
#   benches/run.sh [spectra|first|ground_truth|all]     (default: all)
#   benches/run.sh side [named|mace4-style|first|NAME:THEORY:N ...]  (issues 24, 53; not in `all`)
#
# Caps (seconds): SPECTRUM_CAP (default 600, the issue's 10 minutes) per spectrum size,
# FIRST_CAP (default 60) per first-model instance, GT_CAP (default 600) per ground-truth row of
# the ignored test. A cap is passed to Birkhoff as --timeout, so a capped run still reports
# "at least k" honestly; `timeout` kills a run that overshoots the cap by a minute.
# Results: one TSV line per run on stdout and in $OUT/results.tsv (default target/bench-results/).
#
# `side` (issue 24) runs each first-model instance five ways, each capped at SIDE_CAP seconds
# (default 60): `find --engine native`, `--engine sat`, `--engine auto` (the race of the two),
# cvc5 1.x on the SMT-LIB of the checker's cvc5_first bench, and Mace4 on `birkhoff export --to
# ladr`. Mace4 is built under target/ from a LADR source tarball the user supplies,
# MACE4_TARBALL=path/LADR-2009-11A.tar.gz (none is shipped), or taken as a binary, MACE4=path;
# with neither it is skipped, and said so. One line per instance in $OUT/side.tsv: the instance,
# then per tool its answer (found, none, unknown, or error) and wall seconds, and for the race
# the engine that answered. `named` is the issue's list, `mace4-style` issue 53's four instances
# written as Mace4 users write them, `first` the 128 instances above.
# SIDE_TOOLS (default "native sat auto cvc5 mace4") picks some of the five; the rest read "skipped".
set -u
cd "$(dirname "$0")/.."
BIN=target/release/birkhoff
SPECTRUM_CAP=${SPECTRUM_CAP:-600}
FIRST_CAP=${FIRST_CAP:-60}
GT_CAP=${GT_CAP:-600}
OUT=${OUT:-target/bench-results}
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
    MEASURED_RC=$rc
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$OUT/$name.time")
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$OUT/$name.time")
    MEASURED_WALL=$wall
    local line
    line=$(tail -n 1 "$OUT/$name.out" | tr '\t' ' ')
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "$wall" "$rss" "$line" | tee -a "$OUT/results.tsv"
}

spectrum() { # NAME THEORY N
    measure "spectrum-$1-$3" "$SPECTRUM_CAP" "$BIN" --json spectrum "$2" --min-size "$3" --max-size "$3" --mode both --timeout "$SPECTRUM_CAP"
}

find_first() { # NAME THEORY N
    # `side first` collects the instances (NAME:THEORY:N) to run them five ways
    if [ "${FIRST_MODE:-}" = collect ]; then COLLECTED+=("$1:$2:$3"); return; fi
    measure "first-$1-$3" "$FIRST_CAP" "$BIN" --json find "$2" --size "$3" --timeout "$FIRST_CAP"
}

# side_tool TOOL: whether SIDE_TOOLS (default: all five) names TOOL.
side_tool() {
    case " ${SIDE_TOOLS:-native sat auto cvc5 mace4} " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# side_by_side NAME THEORY N: the five tools on one instance (`side` in the header).
side_by_side() {
    local name=$1 theory=$2 n=$3 row="$1\t$3" e answer engine
    for e in native sat auto; do
        if ! side_tool "$e"; then
            row="$row\tskipped\t-"
            [ "$e" = auto ] && row="$row\t-"
            continue
        fi
        measure "side-$name-$n-$e" "$SIDE_CAP" "$BIN" --json find "$theory" --size "$n" --engine "$e" --timeout "$SIDE_CAP"
        answer=$(jq -r '.outcome // empty' "$OUT/side-$name-$n-$e.out" 2>/dev/null)
        engine=$(jq -r '.engine // empty' "$OUT/side-$name-$n-$e.out" 2>/dev/null)
        row="$row\t${answer:-error}\t$MEASURED_WALL"
        [ "$e" = auto ] && row="$row\t${engine:--}"
    done
    # cvc5: the bench's SMT-LIB file, written by `side` before the runs; it stops itself at the cap.
    local stem
    stem=$(basename "$theory")
    local smt="$OUT/side-smt2/${stem%.*}-$n.smt2"
    if side_tool cvc5 && command -v cvc5 >/dev/null && [ -f "$smt" ]; then
        measure "side-$name-$n-cvc5" "$SIDE_CAP" cvc5 --finite-model-find --tlimit=$((SIDE_CAP * 1000)) "$smt"
        case $(head -n 1 "$OUT/side-$name-$n-cvc5.out") in
            sat) answer=found ;; unsat) answer=none ;; unknown | '') answer=unknown ;; *) answer=error ;;
        esac
        row="$row\t$answer\t$MEASURED_WALL"
    else
        row="$row\tskipped\t-"
    fi
    # Mace4: what `export --to ladr` writes (a LADR file as it is), at exactly this size,
    # stopping at the first model. Its -t counts CPU seconds, so on a busy machine its wall time
    # passes the cap.
    if side_tool mace4 && [ -n "$MACE4" ]; then
        case $theory in
            *.in) cp "$theory" "$OUT/side-$name-$n.in" ;;
            *) "$BIN" export "$theory" --to ladr >"$OUT/side-$name-$n.in" ;;
        esac
        measure "side-$name-$n-mace4" "$SIDE_CAP" "$MACE4" -n "$n" -N "$n" -m 1 -t "$SIDE_CAP" -f "$OUT/side-$name-$n.in"
        case $(grep -o 'exit ([a-z_]*)' "$OUT/side-$name-$n-mace4.out" | tail -n 1) in
            "exit (max_models)") answer=found ;; "exit (exhausted)") answer=none ;;
            "exit (max_seconds)" | "exit (max_sec_no)") answer=unknown ;; *) answer=error ;;
        esac
        row="$row\t$answer\t$MEASURED_WALL"
    else
        row="$row\tskipped\t-"
    fi
    printf "$row\n" | tee -a "$OUT/side.tsv"
}

# The issue's named instances (issue 24), as NAME:THEORY:N.
NAMED="steiner:$TH/steiner_quasigroup.bk:19 steiner:$TH/steiner_quasigroup.bk:21 steiner:$TH/steiner_quasigroup.bk:27
mendelsohn:$TH/mendelsohn_quasigroup.bk:12 mendelsohn:$TH/mendelsohn_quasigroup.bk:16
nonassociative_moufang_loop:$TH/nonassociative_moufang_loop.bk:16
sols:$TH/sols.bk:8 sols:$TH/sols.bk:10 sols:$TH/sols.bk:12
orthogonal_latin_squares:$TH/orthogonal_latin_squares.bk:6 orthogonal_latin_squares:$TH/orthogonal_latin_squares.bk:10
nonabelian_group:$TH/nonabelian_group.bk:60 nonabelian_group:$TH/nonabelian_group.bk:64
distributive_nonmedial:$TH/distributive_nonmedial_quasigroup.bk:81"

# Issue 53's four instances as Mace4 users write them (benches/mace4-style/: cancellation laws,
# one-sided group axioms, named witnesses), as NAME:THEORY:N.
M4=benches/mace4-style
MACE4_STYLE="orthogonal_latin_squares:$M4/orthogonal_latin_squares.in:6
nonabelian_group:$M4/nonabelian_group.in:64
distributive_nonmedial:$M4/distributive_nonmedial_quasigroup.in:27 distributive_nonmedial:$M4/distributive_nonmedial_quasigroup.in:81
distributive_nonmedial_divisions:$M4/distributive_nonmedial_quasigroup_divisions.in:27 distributive_nonmedial_divisions:$M4/distributive_nonmedial_quasigroup_divisions.in:81"

# Mace4: a binary given as MACE4, or one built from MACE4_TARBALL under target/ (once).
mace4_binary() {
    MACE4=${MACE4:-}
    if [ -n "$MACE4" ] || [ -z "${MACE4_TARBALL:-}" ]; then
        [ -z "$MACE4" ] && echo "Mace4 skipped: set MACE4_TARBALL=path/to/LADR-2009-11A.tar.gz (or MACE4=binary)" >&2
        return
    fi
    local dir=target/ladr
    if [ ! -x "$dir/LADR/bin/mace4" ]; then
        echo "building Mace4 from $MACE4_TARBALL in $dir" >&2
        rm -rf "$dir" && mkdir -p "$dir" && tar xzf "$MACE4_TARBALL" -C "$dir" || exit 2
        local src
        src=$(dirname "$(find "$dir" -maxdepth 3 -name Makefile -path '*/LADR*/Makefile' | head -n 1)")
        # The 2009 tarball ships a stray file named bin; -fcommon and --no-as-needed let its C
        # (tentative definitions, `round` from libm) build with current gcc.
        (cd "$src" && rm -f bin && mkdir -p bin && make all CC="gcc -Wl,--no-as-needed -fcommon" >build.log 2>&1) || { echo "Mace4 build failed: $src/build.log" >&2; exit 2; }
        [ "$src" = "$dir/LADR" ] || ln -sfn "$(realpath "$src")" "$dir/LADR"
    fi
    MACE4=$dir/LADR/bin/mace4
}

side() {
    SIDE_CAP=${SIDE_CAP:-60}
    mace4_binary
    local insts=() i name theory n
    case "${1:-named}" in
        named) insts=($NAMED) ;;
        mace4-style) insts=($MACE4_STYLE) ;;
        first) COLLECTED=(); FIRST_MODE=collect first; insts=("${COLLECTED[@]}") ;;
        *) insts=("$@") ;;
    esac
    # every instance's SMT-LIB file, THEORY_STEM-N.smt2, written before any run is timed
    # (cargo runs a bench in its package's folder: files are given by absolute paths)
    if side_tool cvc5; then
        local files=()
        for i in "${insts[@]}"; do
            IFS=: read -r name theory n <<<"$i"
            [ -f "$theory" ] && theory=$PWD/$theory
            files+=("$theory:$n")
        done
        cargo bench -p birkhoff-checker --bench cvc5_first --quiet -- --write "$(realpath "$OUT")/side-smt2" "${files[@]}" >/dev/null || exit 2
    fi
    {
        printf 'instance\tn\tnative\ts\tsat\ts\trace\ts\trace engine\tcvc5\ts\tmace4\ts\n'
        echo "# $(date -u '+%F %T UTC'), SIDE_CAP=$SIDE_CAP, $(uptime | sed 's/.*load/load/')"
    } | tee -a "$OUT/side.tsv"
    for i in "${insts[@]}"; do
        IFS=: read -r name theory n <<<"$i"
        side_by_side "$name" "$theory" "$n"
    done
    echo "# done $(date -u '+%F %T UTC'), $(uptime | sed 's/.*load/load/')" | tee -a "$OUT/side.tsv"
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
    side) shift; side "$@" ;;
    all) spectra; first; ground_truth ;;
    *) echo "usage: benches/run.sh [spectra|first|ground_truth|all] | side [named|mace4-style|first|NAME:THEORY:N ...]" >&2; exit 2 ;;
esac
