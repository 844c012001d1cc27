//! The calibrated interest score: its training table is the one `birkhoff calibrate --write`
//! makes from today's catalogue, its fit separates the named classes from the generated ones on
//! entries it never saw, a hidden entry is left out of the fit, and unlinked theories rank low.

use birkhoff_engine::{catalogue, Theory};
use birkhoff_scorer::calibration::{
    self, auc, cross_validated, features, format_row, linkage, ranked_interest, rows, Calibration,
};

#[test]
fn the_table_is_the_one_the_catalogue_gives_today() {
    let table = rows();
    let mut entries: Vec<String> = table.iter().map(|r| r.entry.clone()).collect();
    entries.dedup();
    let catalogue: Vec<String> = catalogue::all()
        .iter()
        .map(|e| e.name.to_string())
        .collect();
    assert_eq!(
        entries, catalogue,
        "the table's entries are not the catalogue's: run `birkhoff calibrate --write scorer/data/calibration.tsv`"
    );
    assert!(table.iter().all(|r| r.named
        == (r.theory
            == table
                .iter()
                .find(|n| n.entry == r.entry && n.named)
                .unwrap()
                .theory)));
    // Every 12th entry's rows, computed again, are the table's lines.
    let named = calibration::named_fingerprints();
    for e in catalogue::all().iter().step_by(12) {
        let again: Vec<String> = calibration::rows_of(e, &named)
            .iter()
            .map(format_row)
            .collect();
        let stored: Vec<String> = table
            .iter()
            .filter(|r| r.entry == e.name)
            .map(format_row)
            .collect();
        assert_eq!(again, stored, "{}: the table is stale", e.name);
    }
}

#[test]
fn the_fit_separates_named_classes_from_generated_ones_on_entries_it_never_saw() {
    let table = rows();
    let named = table.iter().filter(|r| r.named).count();
    assert!(
        named > 150 && table.len() > 3 * named,
        "{named} of {}",
        table.len()
    );
    let held_out = auc(&cross_validated(&table, 5));
    assert!(held_out > 0.75, "held-out AUC {held_out:.3}");
    // Shuffling the labels leaves nothing to learn: the held-out AUC falls to chance.
    let mut shuffled = table.clone();
    let labels: Vec<bool> = shuffled.iter().map(|r| r.named).collect();
    for (i, r) in shuffled.iter_mut().enumerate() {
        r.named = labels[(i * 7919) % labels.len()];
    }
    let chance = auc(&cross_validated(&shuffled, 5));
    assert!(
        (chance - 0.5).abs() < 0.12,
        "shuffled labels: AUC {chance:.3}"
    );
}

#[test]
fn a_hidden_entry_is_left_out_of_the_fit() {
    let hidden = vec!["moufang_loop".to_string()];
    let without: Vec<_> = rows()
        .into_iter()
        .filter(|r| r.entry != "moufang_loop")
        .collect();
    assert_eq!(Calibration::fitted(&hidden), Calibration::fit(&without));
    assert_ne!(Calibration::fitted(&hidden), Calibration::fitted(&[]));
}

fn parse(text: &str) -> Theory {
    Theory::parse(text, "test.bk").unwrap()
}

#[test]
fn axioms_that_never_relate_two_operations_rank_low() {
    let ring = catalogue::load("ring").unwrap();
    assert_eq!(linkage(&ring), 1.0);
    // The ring's additive group beside a multiplication no axiom relates to it.
    let split = parse(
        "theory Split\nfunc + : 2 infix\nfunc - : 1\nfunc 0 : 0\nfunc * : 2 infix\n\
         axiom assoc: (x + y) + z = x + (y + z)\naxiom comm: x + y = y + x\n\
         axiom zero: x + 0 = x\naxiom neg: x + -(x) = 0\naxiom mul: (x * y) * z = x * (y * z)\n",
    );
    assert_eq!(linkage(&split), 0.75);
    let unused = parse("theory U\nfunc * : 2 infix\nfunc c : 0\naxiom comm: x * y = y * x\n");
    assert_eq!(linkage(&unused), 0.5, "a constant no axiom mentions");
    // A linked theory ranks by its interest; the split one keeps (3/4)² of its own.
    let cal = Calibration::fitted(&[]);
    let own = |t: &Theory| cal.interest(&features(t, None));
    assert_eq!(ranked_interest(&cal, &ring, None), own(&ring));
    let ranked = ranked_interest(&cal, &split, None);
    assert!((ranked - 0.5625 * own(&split)).abs() < 1e-12, "{ranked}");
}
