//! The catalogue against Birkhoff's own computations: every entry with an OEIS number has the
//! spectrum that sequence gives at every order the finder counts exactly within a small budget,
//! and every implication a file states under `meta implies` is proved by the prover.

use birkhoff_checker::{
    finder::{enumerate, Options},
    oeis,
    prover::{self, Verdict},
    Budget, SpectrumRow, Status,
};
use birkhoff_engine::catalogue::{self, Basis};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::Theory;
use std::time::{Duration, Instant};

/// Search nodes per order, and models (isomorphism classes) per order: together a few hundredths
/// of a second for most entries. A count cut short is not compared (it is not exact), so the
/// budget decides how far each comparison reaches, never whether it passes.
const NODES: u64 = 20_000;
/// After an order with more models than this, the next is not tried (it would cost seconds).
const GROWN: u128 = 100;
/// See [`NODES`]: classes are what costs (each is canonized and re-checked by the evaluator).
const MODELS: u64 = 3500;
/// The largest order tried.
const MAX_ORDER: u32 = 8;

/// The spectrum at orders 1, 2, ... up to [`MAX_ORDER`] or the first order the budget cuts short.
pub fn quick_spectrum(t: &Theory) -> Vec<SpectrumRow> {
    quick_spectrum_to(t, MAX_ORDER)
}

/// [`quick_spectrum`] up to order `max`.
pub fn quick_spectrum_to(t: &Theory, max: u32) -> Vec<SpectrumRow> {
    let mut rows = Vec::new();
    for n in 1..=max {
        let budget = Budget {
            nodes: Some(NODES),
            models: Some(MODELS),
            ..Budget::default()
        };
        let e = enumerate(t, &[n], &budget, Options::counts_only())
            .unwrap_or_else(|e| panic!("{} n={n}: {e}", t.name));
        let exact = e.iso.status == Status::Exact;
        rows.push(SpectrumRow {
            sizes: vec![n],
            iso: e.iso,
            labeled: e.labeled,
        });
        // The next order has many times more models than this one: stop while it is cheap.
        if !exact || e.iso.value > GROWN {
            break;
        }
    }
    rows
}

#[test]
fn every_oeis_number_matches_the_computed_spectrum() {
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (info, theory) in catalogue::entries().unwrap() {
        let Some(id) = &info.oeis else { continue };
        let Some(seq) = oeis::get(id) else {
            failures.push(format!("{}: {id} is not in catalogue/oeis.tsv", info.name));
            continue;
        };
        let rows = quick_spectrum(&theory);
        match oeis::compare(&rows, seq, info.oeis_shift) {
            None => failures.push(format!(
                "{}: the spectrum {:?} disagrees with {id} at shift {}",
                info.name,
                rows.iter().map(|r| r.iso.to_string()).collect::<Vec<_>>(),
                info.oeis_shift
            )),
            Some((orders, _)) if orders.len() < 3 => failures.push(format!(
                "{}: only orders {orders:?} compared with {id}; too few to check",
                info.name
            )),
            Some(_) => checked += 1,
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        checked >= 30,
        "only {checked} entries were compared with their sequence"
    );
    eprintln!(
        "{checked} entries compared with their OEIS sequence in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn a_wrong_shift_or_number_is_caught() {
    // Semilattices of order n are lattices of order n + 1: shift 1 agrees, shift 0 does not.
    let semilattice = catalogue::load("semilattice").unwrap();
    let rows = quick_spectrum(&semilattice);
    let lattices = oeis::get("A006966").unwrap();
    assert!(oeis::compare(&rows, lattices, 1).is_some());
    assert!(oeis::compare(&rows, lattices, 0).is_none());
    // Groups are not abelian groups (they differ at order 6).
    let groups = quick_spectrum(&catalogue::load("group").unwrap());
    assert!(oeis::compare(&groups, oeis::get("A000001").unwrap(), 0).is_some());
    assert!(oeis::compare(&groups, oeis::get("A000688").unwrap(), 0).is_none());
}

/// A formula as text over its theory's signature.
fn text(t: &Theory, a: &birkhoff_engine::Axiom) -> String {
    FormulaPrinter::new(&t.sig, a).formula(&a.formula)
}

#[test]
fn every_stated_implication_is_proved() {
    let start = Instant::now();
    let opts = prover::Options {
        timeout: Duration::from_secs(8),
        max_size: 4,
        ..prover::Options::default()
    };
    let mut failures = Vec::new();
    let (mut implications, mut proofs) = (0, 0);
    for (info, source) in catalogue::entries().unwrap() {
        for imp in info.implies.iter().filter(|i| i.basis == Basis::Prover) {
            implications += 1;
            let target = catalogue::load(&imp.target).unwrap();
            let goals = match catalogue::axioms_over(&source, &target) {
                Ok(g) => g,
                Err(e) => {
                    failures.push(format!(
                        "{} -> {}: {e} (state it under implies_literature)",
                        info.name, imp.target
                    ));
                    continue;
                }
            };
            let own: Vec<String> = source.axioms.iter().map(|a| text(&source, a)).collect();
            for goal in goals {
                if own.contains(&text(&source, &goal)) {
                    continue; // one of the source's own axioms
                }
                proofs += 1;
                let answer = prover::prove(&source, &goal, &opts).unwrap();
                match answer.verdict {
                    Verdict::Proved { .. } | Verdict::ProvedByZ3 { .. } => {}
                    Verdict::Disproved { model, .. } => failures.push(format!(
                        "{} -> {}: axiom {} is FALSE in a model of size {:?}",
                        info.name, imp.target, goal.name, model.sizes
                    )),
                    Verdict::Unknown => failures.push(format!(
                        "{} -> {}: axiom {} not proved in {:?}",
                        info.name, imp.target, goal.name, opts.timeout
                    )),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        implications >= 30,
        "only {implications} implications stated for the prover"
    );
    eprintln!(
        "{implications} implications ({proofs} axioms needing a proof) in {:.2} s",
        start.elapsed().as_secs_f64()
    );
}
