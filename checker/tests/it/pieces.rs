//! One enumeration split into pieces (`finder::enumerate_piece`): for any number of pieces the
//! pieces' counts, iso and labeled, sum to the one-machine count, and each piece is the same
//! whatever the number of threads that computes it.

use birkhoff_checker::{
    finder::{enumerate, enumerate_piece, Options, Piece},
    Budget, Count, Status,
};
use birkhoff_engine::{seeds, Theory};

/// The pieces' counts summed, iso and labeled, each piece checked exact.
fn summed(t: &Theory, n: u32, count: usize) -> (u128, u128) {
    (1..=count).fold((0, 0), |(iso, labeled), index| {
        let e = enumerate_piece(t, &[n], &Budget::default(), Piece { index, count })
            .expect("the piece is searched");
        assert_eq!(
            (e.iso.status, e.labeled.status),
            (Status::Exact, Status::Exact),
            "{} of order {n}, piece {index}/{count}",
            t.name
        );
        (iso + e.iso.value, labeled + e.labeled.value)
    })
}

/// For each count of pieces, the sum equals the one-machine count, which is `known` (iso).
fn pieces_sum_to_whole(theory: &str, n: u32, known: u128, counts: &[usize]) {
    let t = seeds::load(theory).expect("a seed");
    let whole = enumerate(&t, &[n], &Budget::default(), Options::counts_only())
        .expect("the enumeration runs");
    assert_eq!(
        whole.iso,
        Count {
            value: known,
            status: Status::Exact
        },
        "{theory} of order {n}, one machine"
    );
    for &count in counts {
        assert_eq!(
            summed(&t, n, count),
            (whole.iso.value, whole.labeled.value),
            "{theory} of order {n} in {count} pieces (iso, labeled)"
        );
    }
}

/// For each count of pieces, the sum equals the published counts `known` (iso, labeled), which
/// are the one-machine counts (tests/data/ground_truth.tsv); larger sizes, where one more
/// enumeration on one machine would double the test's time.
fn pieces_sum_to_known(theory: &str, n: u32, known: (u128, u128), counts: &[usize]) {
    let t = seeds::load(theory).expect("a seed");
    for &count in counts {
        assert_eq!(
            summed(&t, n, count),
            known,
            "{theory} of order {n} in {count} pieces (iso, labeled)"
        );
    }
}

#[test]
fn quasigroups_of_order_5() {
    pieces_sum_to_whole("quasigroup", 5, 1_411, &[1, 2, 3, 7, 16, 64]);
}

#[test]
fn quasigroups_of_order_6() {
    pieces_sum_to_known("quasigroup", 6, (1_130_531, 812_851_200), &[16]);
}

#[test]
fn semigroups_of_order_5() {
    pieces_sum_to_whole("semigroup", 5, 1_915, &[1, 2, 3, 7, 16, 64]);
}

#[test]
fn semigroups_of_order_6() {
    pieces_sum_to_known("semigroup", 6, (28_634, 17_061_118), &[7, 64]);
}

#[test]
fn loops_of_order_7() {
    pieces_sum_to_known("loop", 7, (23_746, 118_594_560), &[3, 64]);
}

#[test]
fn a_piece_does_not_depend_on_the_thread_count() {
    let t = seeds::load("loop").expect("a seed");
    let budget = Budget::default();
    for index in [1, 2, 5] {
        let piece = Piece { index, count: 7 };
        let here = enumerate_piece(&t, &[6], &budget, piece).expect("the piece is searched");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        let alone = pool
            .install(|| enumerate_piece(&t, &[6], &budget, piece))
            .expect("the piece is searched");
        assert_eq!(
            (here.iso, here.labeled, here.nodes),
            (alone.iso, alone.labeled, alone.nodes),
            "piece {index}/7"
        );
    }
}

#[test]
fn a_piece_cut_short_is_never_exact() {
    let t = seeds::load("semigroup").expect("a seed");
    let budget = Budget {
        nodes: Some(50),
        ..Budget::default()
    };
    let e = enumerate_piece(&t, &[6], &budget, Piece { index: 1, count: 4 })
        .expect("the piece is searched");
    assert_ne!(e.iso.status, Status::Exact);
    assert_ne!(e.labeled.status, Status::Exact);
}
