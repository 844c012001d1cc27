//! The cost estimate of a count (`estimate::estimate`, `sweep --estimate`) against the counts it
//! predicts: exact where the samples walk the whole tree, close where they merge nodes, per
//! piece as the pieces count, and nothing when the budget ends first.

use birkhoff_checker::{
    estimate::{estimate, Estimate, Mode},
    finder::{enumerate, enumerate_piece, Options, Piece},
    Budget,
};
use birkhoff_engine::seeds;
use std::time::Duration;

fn estimated(theory: &str, n: u32, mode: Mode, samples: u64) -> Estimate {
    let t = seeds::load(theory).expect("a seed");
    estimate(&t, &[n], &Budget::default(), mode, samples)
        .expect("the estimate runs")
        .expect("no budget to run out")
}

fn counted(theory: &str, n: u32) -> (u128, u64) {
    let t = seeds::load(theory).expect("a seed");
    let e = enumerate(&t, &[n], &Budget::default(), Options::counts_only()).expect("counted");
    (e.iso.value, e.nodes)
}

/// Where the trees are small enough that no stratum ever stands for two nodes, the samples walk
/// every node: the classes predicted are the count, to the unit.
#[test]
fn small_trees_are_predicted_exactly() {
    for (theory, n) in [("group", 8), ("lattice", 7), ("boolean_algebra", 4)] {
        let e = estimated(theory, n, Mode::Whole, 1000);
        let (classes, _) = counted(theory, n);
        assert_eq!(e.classes, classes as f64, "{theory} of order {n}");
        assert_eq!(
            e.models_met, e.classes,
            "{theory}: one least model per class"
        );
    }
}

/// Where the samples do merge nodes (the trees of semigroups and quasigroups of order 5), the
/// prediction is close to the count: stratified sampling is unbiased, and with many samples
/// its spread is small. A sample that kept one node of each stratum without the stratum's weight
/// predicts a small fraction of these classes.
#[test]
fn merged_samples_predict_the_count_closely() {
    for (theory, n) in [("semigroup", 5), ("quasigroup", 5)] {
        let e = estimated(theory, n, Mode::Whole, 20_000);
        let (classes, nodes) = counted(theory, n);
        let ratio = e.classes / classes as f64;
        assert!(
            (0.95..=1.05).contains(&ratio),
            "{theory} of order {n}: predicted {} classes, counted {classes}",
            e.classes
        );
        // The count's nodes include the split's own paths, which the estimate starts below.
        let node_ratio = e.nodes / nodes as f64;
        assert!(
            (0.5..=1.1).contains(&node_ratio),
            "{theory} of order {n}: predicted {} nodes, counted {nodes}",
            e.nodes
        );
        assert!(e.cpu_seconds > 0.0 && e.memory_bytes > 0);
    }
}

/// With `--pieces P` each piece gets its own prediction, in piece order, and they add up to the
/// whole; pieces the samples walk whole are predicted exactly, piece by piece.
#[test]
fn each_piece_is_predicted_as_it_counts() {
    let (theory, n, count) = ("loop", 6, 4);
    let e = estimated(theory, n, Mode::Pieces(count), 1000);
    assert_eq!(
        e.pieces.iter().map(|p| p.index).collect::<Vec<_>>(),
        (1..=count).collect::<Vec<_>>()
    );
    let summed: f64 = e.pieces.iter().map(|p| p.classes).sum();
    assert!((summed - e.classes).abs() < 1e-6);
    let t = seeds::load(theory).expect("a seed");
    for p in &e.pieces {
        let real = enumerate_piece(
            &t,
            &[n],
            &Budget::default(),
            Piece {
                index: p.index,
                count,
            },
        )
        .expect("the piece is counted");
        assert_eq!(
            p.classes, real.iso.value as f64,
            "piece {}/{count}",
            p.index
        );
    }
}

/// A whole count keeps its classes in memory until it merges them, a piece keeps none: the
/// whole count's prediction holds at least its classes' keys (25 cells of a byte each for a
/// quasigroup of order 5), and the total is the sum of its parts.
#[test]
fn memory_counts_the_classes_a_whole_count_keeps() {
    let whole = estimated("quasigroup", 5, Mode::Whole, 2000);
    let piece = estimated("quasigroup", 5, Mode::Pieces(2), 2000);
    assert!(whole.classes_bytes >= (whole.classes * 25.0) as u128);
    assert_eq!(piece.classes_bytes, 0);
    for e in [&whole, &piece] {
        assert!(e.program_bytes > 0 && e.problem_bytes > 0);
        assert_eq!(
            e.memory_bytes,
            e.program_bytes + e.problem_bytes + e.classes_bytes
        );
    }
}

/// No model at this size: no class predicted (the samples walk the whole small tree). A budget that ends before
/// the first round of samples gives no estimate rather than one from too few.
#[test]
fn no_models_predict_no_class_and_a_spent_budget_gives_no_estimate() {
    // No field has six elements.
    let e = estimated("field", 6, Mode::Whole, 1000);
    assert_eq!((e.classes, e.models_met), (0.0, 0.0));
    let t = seeds::load("quasigroup").expect("a seed");
    let budget = Budget {
        time: Some(Duration::from_micros(1)),
        ..Budget::default()
    };
    let none = estimate(&t, &[6], &budget, Mode::Whole, 1000).expect("no error");
    assert!(none.is_none(), "an estimate from a spent budget: {none:?}");
}
