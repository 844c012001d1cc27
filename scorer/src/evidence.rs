//! What a score is computed from, and how to gather it: the spectrum and representatives from
//! the native finder, countermodels for independence, conjecture counts from the caller.

use crate::independence::{self, AxiomIndependence};
use crate::spectrum::{KnownSpectrum, Point};
use birkhoff_checker::budget::Budget;
use birkhoff_checker::finder::{enumerate, FinderError, IsoClass, Options};
use birkhoff_checker::spectrum::size_tuples;
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};

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
}

impl Gathered {
    /// Borrows this as evidence for `theory`.
    pub fn evidence<'a>(&'a self, theory: &'a Theory, parents: &'a [Vec<Point>], known: &'a [KnownSpectrum]) -> Evidence<'a> {
        Evidence { theory, spectrum: Some(&self.spectrum), classes: Some(&self.classes), independence: Some(&self.independence), conjectures: None, parents, known }
    }
}

/// Computes the spectrum of `t` up to `max_size` (per sort) and looks for independence
/// countermodels up to `independence_size`, each size within `budget`. Representatives are kept
/// for sizes whose classes the budget's model limit allows; a size cut short keeps its count as
/// a lower bound.
pub fn gather(t: &Theory, max_size: u32, independence_size: u32, budget: &Budget) -> Result<Gathered, FinderError> {
    let mut out = Gathered::default();
    for sizes in size_tuples(t.sig.sorts.len(), max_size) {
        let e = enumerate(t, &sizes, budget, Options::default())?;
        out.spectrum.push(Point { sizes, iso: e.iso });
        out.classes.extend(e.classes);
    }
    out.independence = independence::check(t, independence_size, budget)?;
    Ok(out)
}
