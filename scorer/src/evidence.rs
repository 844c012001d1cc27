//! What a score is computed from, and how to gather it: the spectrum and representatives from
//! the native finder, countermodels for independence, conjecture counts from the conjecture
//! engine (`birkhoff_checker::prover::conjecture`) run on those representatives.

use crate::independence::{self, AxiomIndependence};
use crate::spectrum::{KnownSpectrum, Point};
use birkhoff_checker::budget::{Budget, Status};
use birkhoff_checker::prover::conjecture::{conjecture_with_models, ModelCheck, Options as ConjectureOptions, Report};
use birkhoff_checker::finder::{enumerate, FinderError, IsoClass, Options};
use birkhoff_checker::spectrum::size_tuples;
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How many conjectures the conjecture engine proved, left open and refuted for a theory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConjectureSummary {
    /// Proved with a checked certificate (or by Z3).
    pub proved: u32,
    /// True in every model checked, not proved.
    pub open: u32,
    /// Refuted by a countermodel.
    pub refuted: u32,
}

impl ConjectureSummary {
    /// The counts of a conjecture report: proofs by certificate and by Z3 both count as proved;
    /// conjectures not tried count nowhere.
    pub fn of(report: &Report) -> ConjectureSummary {
        let n = report.counts;
        let count = |k: usize| u32::try_from(k).unwrap_or(u32::MAX);
        ConjectureSummary { proved: count(n.proved + n.proved_by_z3), open: count(n.open), refuted: count(n.refuted) }
    }

    /// Conjecture yield: `1 − exp(−(proved + open/2)/3)`. Each non-trivial theorem is a reason to
    /// study the theory; an open conjecture counts half, being only evidence. Refuted guesses
    /// count nothing.
    pub fn yield_score(self) -> f64 {
        1.0 - (-(f64::from(self.proved) + 0.5 * f64::from(self.open)) / 3.0).exp()
    }
}

/// Everything a score reads, borrowed. Fields that were not measured are `None` (or empty), and
/// the dimensions that need them are then reported as not measured.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    /// The candidate.
    pub theory: &'a Theory,
    /// Its iso-class spectrum.
    pub spectrum: Option<&'a [Point]>,
    /// Representatives of its iso classes (at the sizes where they were kept).
    pub classes: Option<&'a [IsoClass]>,
    /// Countermodel results for each axiom.
    pub independence: Option<&'a [AxiomIndependence]>,
    /// Conjecture counts.
    pub conjectures: Option<ConjectureSummary>,
    /// The parents' spectra, for novelty.
    pub parents: &'a [Vec<Point>],
    /// Known spectra (the ground truth, the library), for novelty and connections.
    pub known: &'a [KnownSpectrum],
}

impl<'a> Evidence<'a> {
    /// Evidence from the axioms alone: the syntactic dimensions only.
    pub fn syntactic(theory: &'a Theory) -> Evidence<'a> {
        Evidence { theory, spectrum: None, classes: None, independence: None, conjectures: None, parents: &[], known: &[] }
    }
}

/// Evidence gathered by [`gather`], owned.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Gathered {
    /// The iso-class spectrum up to the size limit.
    pub spectrum: Vec<Point>,
    /// Representatives at the sizes up to `classes_up_to`.
    pub classes: Vec<IsoClass>,
    /// Independence of each axiom.
    pub independence: Vec<AxiomIndependence>,
    /// The conjecture engine's counts (see [`conjecture_options`]); `None` if it could not run.
    pub conjectures: Option<ConjectureSummary>,
}

impl Gathered {
    /// Borrows this as evidence for `theory`.
    pub fn evidence<'a>(&'a self, theory: &'a Theory, parents: &'a [Vec<Point>], known: &'a [KnownSpectrum]) -> Evidence<'a> {
        Evidence { theory, spectrum: Some(&self.spectrum), classes: Some(&self.classes), independence: Some(&self.independence), conjectures: self.conjectures, parents, known }
    }
}

/// Largest model size the conjecture engine checks when scoring.
const CONJECTURE_SIZE: u32 = 4;

/// The conjecture engine's settings for scoring: terms of depth 2, a quarter second per
/// conjecture and at most ten conjectures, so that it adds at most a few seconds to a score.
pub fn conjecture_options(budget: &Budget) -> ConjectureOptions {
    ConjectureOptions { depth: 2, per_conjecture: Duration::from_millis(250), beyond: 1, max_conjectures: 10, max_terms: 20_000, cancel: budget.cancel.clone(), ..ConjectureOptions::default() }
}

/// Computes the spectrum of `t` up to `max_size` (per sort) and looks for independence
/// countermodels up to `independence_size`, each size within `budget`. Representatives are kept
/// for sizes whose classes the budget's model limit allows; a size cut short keeps its count as
/// a lower bound. The conjecture engine then runs on the representatives of sizes up to
/// `CONJECTURE_SIZE` with [`conjecture_options`].
pub fn gather(t: &Theory, max_size: u32, independence_size: u32, budget: &Budget) -> Result<Gathered, FinderError> {
    let mut out = Gathered::default();
    let mut check = ModelCheck { sizes: Vec::new(), classes: 0, complete: true, note: None };
    let mut small = Vec::new();
    for sizes in size_tuples(t.sig.sorts.len(), max_size) {
        let e = enumerate(t, &sizes, budget, Options::default())?;
        if sizes.iter().all(|&n| n <= CONJECTURE_SIZE) {
            check.complete &= e.iso.status == Status::Exact;
            small.extend(e.classes.iter().map(|c| c.model.clone()));
            check.sizes.push(sizes.clone());
        }
        out.spectrum.push(Point { sizes, iso: e.iso });
        out.classes.extend(e.classes);
    }
    out.independence = independence::check(t, independence_size, budget)?;
    let opts = ConjectureOptions { max_size: max_size.min(CONJECTURE_SIZE), ..conjecture_options(budget) };
    out.conjectures = match conjecture_with_models(t, small, check, &opts, &mut |_| {}) {
        Ok(r) if !r.interrupted => Some(ConjectureSummary::of(&r)),
        // Interrupted, or terms it cannot evaluate (too large a model): not measured.
        Ok(_) | Err(FinderError::Encoding(_)) => None,
        Err(e) => return Err(e),
    };
    Ok(out)
}
