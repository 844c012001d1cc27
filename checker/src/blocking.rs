//! Enumeration by blocking, written once for the engines that meet models one by one (SAT, Z3):
//! ask the solver for a model, re-check it with the evaluator, count its isomorphism class by
//! its [`crate::iso`] canonical form, and exclude it (for a new class of a small size, its whole
//! orbit) before asking again. Each engine supplies only a [`BlockingSolver`].

use crate::budget::{Budget, Count, Meter};
use crate::finder::{key, verify, Enumeration, FinderError, IsoClass, LabeledSum, Timing};
use crate::iso;
use birkhoff_engine::{Structure, Theory};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Largest number of relabelings tried to block a new class's whole orbit (sizes up to 6 for
/// one sort; lattices n = 6 with Z3: over 60 s with single blocking, 7.3 s with orbits); beyond
/// it only the model met is blocked (5,040 clauses per class at size 7 were not tried).
pub(crate) const ORBIT_LIMIT: u64 = 720;

/// A solver holding a theory at fixed sizes, to which models can be excluded one at a time.
pub(crate) trait BlockingSolver {
    /// `Some(true)` with a model (read it with [`BlockingSolver::model`] before blocking),
    /// `Some(false)` when none is left, `None` when stopped (deadline, Ctrl-C, a race decided).
    fn solve(&mut self) -> Option<bool>;

    /// The model of the last `Some(true)`.
    fn model(&self) -> Structure;

    /// Excludes exactly this structure from later answers.
    fn block(&mut self, s: &Structure);
}

/// One representative of every isomorphism class of `t` at `sizes`, by enumeration with
/// blocking clauses. `solver` is `None` when building it was stopped (and `meter` stopped with
/// it); `start` is when the engine began, encoding included. The `nodes` of the result count
/// solver calls (one per model met, plus the last).
pub(crate) fn enumerate(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    meter: &Meter,
    mut solver: Option<impl BlockingSolver>,
    start: Instant,
) -> Result<Enumeration, FinderError> {
    let mut classes: BTreeMap<Box<[u8]>, (Structure, u128)> = BTreeMap::new();
    let (mut met, mut canon_time, mut verify_time) = (0u64, Duration::ZERO, Duration::ZERO);
    while let Some(solver) = &mut solver {
        if !meter.charge(1) {
            break;
        }
        match solver.solve() {
            Some(true) => {}
            Some(false) => break,
            None => {
                meter.stop();
                break;
            }
        }
        let m = solver.model();
        met += 1;
        let v0 = Instant::now();
        verify(t, &m)?;
        verify_time += v0.elapsed();
        let c0 = Instant::now();
        let c = iso::canonical_form(&t.sig, &m);
        canon_time += c0.elapsed();
        let k = key(&c.form);
        let new_class = !classes.contains_key(&k);
        // A new class's whole orbit is blocked when it is small, so the solver meets each class
        // about once (semigroups n = 4 with Z3: 2,331 models met for 188 classes with single
        // blocking); no class is lost, since every blocked model is isomorphic to one counted.
        match new_class
            .then(|| iso::orbit(&t.sig, &m, ORBIT_LIMIT))
            .flatten()
        {
            Some(copies) => copies.iter().for_each(|c| solver.block(c)),
            None => solver.block(&m),
        }
        if new_class {
            classes.insert(k, (c.form, c.automorphisms));
            budget.report_class();
            if budget.models.is_some_and(|lim| classes.len() as u64 >= lim) {
                meter.stop();
                break;
            }
        }
    }
    let finished = !meter.stopped();
    // Ordered by canonical form, as the map's keys are.
    let classes: Vec<IsoClass> = classes
        .into_values()
        .map(|(model, automorphisms)| IsoClass {
            model,
            automorphisms,
        })
        .collect();
    let mut labeled = LabeledSum::default();
    classes
        .iter()
        .for_each(|c| labeled.add(sizes, c.automorphisms));
    Ok(Enumeration {
        sizes: sizes.to_vec(),
        iso: Count::from_search(classes.len() as u128, finished),
        labeled: labeled.count(finished),
        classes,
        models_met: met,
        nodes: meter.nodes(),
        elapsed: start.elapsed(),
        timing: Timing {
            search: 0.0,
            canon: canon_time.as_secs_f64(),
            verify: verify_time.as_secs_f64(),
            merge: 0.0,
        },
    })
}

/// Counts the labeled models of `t` in `solver` (built without symmetry breaking) by blocking
/// every one, each re-checked by the evaluator: an independent check of [`enumerate`]'s
/// Σ n!/|Aut|, for tests. The count is exact when the solver runs out of models.
pub(crate) fn count_every_model(
    t: &Theory,
    solver: &mut impl BlockingSolver,
) -> Result<Count, FinderError> {
    let mut n: u128 = 0;
    loop {
        match solver.solve() {
            Some(true) => {}
            Some(false) => return Ok(Count::from_search(n, true)),
            None => return Ok(Count::from_search(n, false)),
        }
        let m = solver.model();
        verify(t, &m)?;
        solver.block(&m);
        n += 1;
    }
}
