//! Spectrum patterns, on spectra the finder computes and on hand-made ones: each proposed only
//! when every exact order supports it, and never from counts that were cut short.

use crate::catalogue::{quick_spectrum, quick_spectrum_to};
use birkhoff_checker::{conjectures, Count, Pattern, SpectrumRow, Status};
use birkhoff_engine::catalogue;

fn rows(counts: &[Option<u128>]) -> Vec<SpectrumRow> {
    counts
        .iter()
        .enumerate()
        .map(|(i, c)| SpectrumRow {
            sizes: vec![i as u32 + 1],
            iso: c.map_or(
                Count {
                    value: 0,
                    status: Status::Unknown,
                },
                |v| Count {
                    value: v,
                    status: Status::Exact,
                },
            ),
            labeled: Count {
                value: 0,
                status: Status::Unknown,
            },
        })
        .collect()
}

fn exact(counts: &[u128]) -> Vec<SpectrumRow> {
    rows(&counts.iter().map(|&c| Some(c)).collect::<Vec<_>>())
}

fn patterns(rows: &[SpectrumRow]) -> Vec<Pattern> {
    conjectures(rows).into_iter().map(|c| c.pattern).collect()
}

#[test]
fn the_issue_example_has_models_only_at_even_orders() {
    // Loops with x / y = y / x, orders 1..=9 (issue 19).
    let found = conjectures(&exact(&[1, 1, 0, 1, 0, 1, 0, 7, 0]));
    let even = found
        .iter()
        .find(|c| c.pattern == Pattern::OnlyEven)
        .expect("only even orders");
    assert_eq!(even.status, "open");
    assert!(even.statement.contains("1-9"), "{}", even.statement);
    assert!(!found
        .iter()
        .any(|c| c.pattern == Pattern::OnlyOdd || c.pattern == Pattern::ExactlyOnePerOrder));
    // One model of odd order 9 and the pattern is gone.
    assert!(!patterns(&exact(&[1, 1, 0, 1, 0, 1, 0, 7, 1])).contains(&Pattern::OnlyEven));
}

#[test]
fn counts_cut_short_are_not_evidence() {
    // Order 9 was not counted exactly: the statement rests on 1-8 and says so.
    let found = conjectures(&rows(&[
        Some(1),
        Some(1),
        Some(0),
        Some(1),
        Some(0),
        Some(1),
        Some(0),
        Some(7),
        None,
    ]));
    let even = found
        .iter()
        .find(|c| c.pattern == Pattern::OnlyEven)
        .unwrap();
    assert_eq!(even.checked, (1..=8).collect::<Vec<u32>>());
    assert!(even.statement.contains("1-8"), "{}", even.statement);
    // No exact zero at an excluded order: nothing is claimed.
    assert!(patterns(&rows(&[Some(1), Some(2), None, Some(2), None, Some(3)])).is_empty());
}

#[test]
fn steiner_quasigroups_live_at_orders_one_and_three_mod_six() {
    let rows = quick_spectrum_to(&catalogue::load("steiner_quasigroup").unwrap(), 10);
    assert!(
        rows.len() >= 9 && rows.iter().all(|r| r.iso.status == Status::Exact),
        "{rows:?}"
    );
    let found = patterns(&rows);
    assert!(
        found.contains(&Pattern::Residues {
            modulus: 6,
            residues: vec![1, 3]
        }),
        "{found:?}"
    );
    assert!(found.contains(&Pattern::OnlyOdd), "{found:?}");
    // 12 = 2 * 6 gives the same orders as 6: not repeated.
    assert!(
        !found
            .iter()
            .any(|p| matches!(p, Pattern::Residues { modulus: 12, .. })),
        "{found:?}"
    );
}

#[test]
fn boolean_groups_have_one_model_of_each_power_of_two() {
    let rows = quick_spectrum(&catalogue::load("boolean_group").unwrap());
    let found = patterns(&rows);
    assert!(found.contains(&Pattern::OnlyPowersOf { p: 2 }), "{found:?}");
    // Implied by powers of 2, so not stated again.
    assert!(
        !found.contains(&Pattern::OnlyEven) && !found.contains(&Pattern::OnlyPrimePowers),
        "{found:?}"
    );
}

#[test]
fn fields_have_prime_power_orders() {
    let found = patterns(&exact(&[0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0]));
    assert!(found.contains(&Pattern::OnlyPrimePowers), "{found:?}");
    assert!(
        !found
            .iter()
            .any(|p| matches!(p, Pattern::OnlyPowersOf { .. })),
        "{found:?}"
    );
}

#[test]
fn one_model_per_order_squares_and_none_above() {
    let left_zero = quick_spectrum(&catalogue::load("left_zero_semigroup").unwrap());
    assert!(patterns(&left_zero).contains(&Pattern::ExactlyOnePerOrder));
    assert!(!patterns(&exact(&[1, 1, 2, 1])).contains(&Pattern::ExactlyOnePerOrder));

    let squares = patterns(&exact(&[1, 0, 0, 2, 0, 0, 0, 0, 3, 0]));
    assert!(squares.contains(&Pattern::OnlySquares), "{squares:?}");

    let small = patterns(&exact(&[1, 3, 0, 0, 0]));
    assert!(small.contains(&Pattern::NoneAbove { k: 2 }), "{small:?}");
    // One empty order above the last model is too little to say anything.
    assert!(!patterns(&exact(&[1, 3, 2, 0]))
        .iter()
        .any(|p| matches!(p, Pattern::NoneAbove { .. })));
    // A gap in the exact orders above k breaks the claim.
    assert!(
        !patterns(&rows(&[Some(1), Some(3), Some(0), None, Some(0)]))
            .iter()
            .any(|p| matches!(p, Pattern::NoneAbove { .. }))
    );
}

/// `Pattern::allows` against the patterns' own support rule: a pattern proposed from counts
/// stays proposed when an exact count of one model at a larger order is added exactly when it
/// allows that order. Spectra of 0, 1 or 2 models at orders 1 to 8, from a fixed seed; the
/// orders added lie above the counted ones, with the orders between left uncounted.
#[test]
fn a_model_of_a_larger_order_refutes_exactly_the_patterns_that_exclude_it() {
    use birkhoff_checker::conjectures_beside;
    let mut state: u64 = 0x5eed_0051;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let mut compared = 0;
    let mut refuted = 0;
    for _ in 0..3000 {
        let len = 3 + next(6) as usize;
        let counts: Vec<Option<u128>> = (0..len)
            .map(|i| Some(if i == 0 { 1 } else { next(3) as u128 }))
            .collect();
        let base = rows(&counts);
        let proposed = conjectures(&base);
        for n in len as u32 + 1..=len as u32 + 6 {
            let mut extended = counts.clone();
            extended.resize(n as usize - 1, None);
            extended.push(Some(1));
            let kept = patterns(&rows(&extended));
            let beside: Vec<Pattern> = conjectures_beside(&base, &[n])
                .into_iter()
                .map(|c| c.pattern)
                .collect();
            for c in &proposed {
                compared += 1;
                let allowed = c.pattern.allows(n);
                refuted += usize::from(!allowed);
                assert_eq!(
                    allowed,
                    kept.contains(&c.pattern),
                    "{:?} at order {n} after counts {counts:?}",
                    c.pattern
                );
                assert_eq!(allowed, beside.contains(&c.pattern));
            }
        }
    }
    // Both answers occur often enough to mean something.
    assert!(
        compared > 1000 && refuted > 100,
        "{compared} compared, {refuted} refuted"
    );
}
