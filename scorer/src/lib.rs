//! Birkhoff's scorer: ten dimensions, each in `[0, 1]`, by which candidate theories are ranked.
//! docs/SCORING.md defines each one and says why it measures interest.
//!
//! The model-based dimensions read only iso-class spectra with their status, never labeled
//! counts; a dimension that could not be measured (no models computed, no conjecture run) is
//! `None` and left out of the total, whose weights are renormalised over what was measured.
//!
//! ```
//! use birkhoff_scorer::{score, Evidence, Weights};
//! let group = birkhoff_engine::seeds::load("group").unwrap();
//! let scores = score(&Evidence::syntactic(&group), &Weights::default());
//! assert!(scores.naturality.unwrap() > 0.9);
//! assert!(scores.richness.is_none()); // no models were computed
//! ```
#![warn(missing_docs)]

pub mod calibration;
pub mod evidence;
pub mod identify;
pub mod independence;
pub mod laws;
mod models;
pub mod spectrum;
pub mod syntax;

pub use birkhoff_checker::SpectrumRow;
pub use evidence::{gather, ConjectureSummary, Evidence, Gathered, Policy};
pub use spectrum::KnownSpectrum;

use birkhoff_engine::{Axiom, Theory};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use syntax::AxiomFacts;

/// The ten dimensions, in the order they are reported.
pub const DIMENSIONS: [&str; 10] = [
    "non_triviality",
    "richness",
    "novelty",
    "economy",
    "independence",
    "naturality",
    "connections",
    "structure",
    "conjecture_yield",
    "selectivity",
];

/// A candidate's scores: each dimension in `[0, 1]` or `None` if it was not measured, and the
/// weighted total over the measured ones.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    /// Models with more than one element exist (at one size: 1/2, at several: 1).
    pub non_triviality: Option<f64>,
    /// How many models there are, on a log scale.
    pub richness: Option<f64>,
    /// Distance of the spectrum from the parents' and the known theories'.
    pub novelty: Option<f64>,
    /// Brevity of the axioms.
    pub economy: Option<f64>,
    /// Share of axioms shown independent by a countermodel.
    pub independence: Option<f64>,
    /// Share of axioms that are standard laws, and their plainness.
    pub naturality: Option<f64>,
    /// Closeness to a known theory, by laws and by spectrum.
    pub connections: Option<f64>,
    /// Non-commutative witnesses and symmetric models among the representatives.
    pub structure: Option<f64>,
    /// Theorems and open conjectures the conjecture engine found.
    pub conjecture_yield: Option<f64>,
    /// Models at some sizes and provably none at others.
    pub selectivity: Option<f64>,
    /// The weighted mean of the measured dimensions.
    pub total: f64,
}

impl Scores {
    /// The dimensions as `(name, value)` pairs, in [`DIMENSIONS`] order.
    pub fn dimensions(&self) -> [(&'static str, Option<f64>); 10] {
        let v = [
            self.non_triviality,
            self.richness,
            self.novelty,
            self.economy,
            self.independence,
            self.naturality,
            self.connections,
            self.structure,
            self.conjecture_yield,
            self.selectivity,
        ];
        std::array::from_fn(|i| (DIMENSIONS[i], v[i]))
    }

    /// The value of a dimension by name (`total` included).
    pub fn get(&self, name: &str) -> Option<f64> {
        if name == "total" {
            return Some(self.total);
        }
        self.dimensions()
            .into_iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v)
    }
}

/// How much each dimension counts in the total. The defaults (see docs/SCORING.md) give the
/// model-based dimensions, which measure what the theory's models are like, two thirds of the
/// weight, and the syntactic ones a third.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Weight of non-triviality.
    pub non_triviality: f64,
    /// Weight of richness.
    pub richness: f64,
    /// Weight of novelty.
    pub novelty: f64,
    /// Weight of economy.
    pub economy: f64,
    /// Weight of independence.
    pub independence: f64,
    /// Weight of naturality.
    pub naturality: f64,
    /// Weight of connections.
    pub connections: f64,
    /// Weight of structural richness.
    pub structure: f64,
    /// Weight of conjecture yield.
    pub conjecture_yield: f64,
    /// Weight of selectivity.
    pub selectivity: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            non_triviality: 0.12,
            richness: 0.12,
            novelty: 0.16,
            economy: 0.08,
            independence: 0.10,
            naturality: 0.10,
            connections: 0.06,
            structure: 0.10,
            conjecture_yield: 0.08,
            selectivity: 0.08,
        }
    }
}

impl Weights {
    /// Reads weights from JSON; missing dimensions keep their defaults, unknown names and
    /// negative weights are errors.
    pub fn from_json(text: &str) -> Result<Weights, String> {
        let w: Weights = serde_json::from_str(text)
            .map_err(|e| format!("bad weights: {e} (dimensions: {})", DIMENSIONS.join(", ")))?;
        if let Some((name, _)) = w
            .as_array()
            .into_iter()
            .find(|(_, v)| !(v.is_finite() && *v >= 0.0))
        {
            return Err(format!(
                "bad weights: `{name}` must be a non-negative number"
            ));
        }
        Ok(w)
    }

    fn as_array(&self) -> [(&'static str, f64); 10] {
        let v = [
            self.non_triviality,
            self.richness,
            self.novelty,
            self.economy,
            self.independence,
            self.naturality,
            self.connections,
            self.structure,
            self.conjecture_yield,
            self.selectivity,
        ];
        std::array::from_fn(|i| (DIMENSIONS[i], v[i]))
    }
}

/// Scores a candidate from its evidence.
pub fn score(e: &Evidence, w: &Weights) -> Scores {
    score_with_facts(e, w, &AxiomFacts::all(e.theory))
}

/// The syntactic scores ([`Evidence::syntactic`]) of many theories, computed in parallel as
/// they are consumed, in order (`collect` keeps it). The theories of an exploration share most
/// of their axioms (the same `Arc`s), and a shared axiom's facts are worked out once per run of
/// theories rather than once per theory that has it.
pub fn score_syntactic_all<'a>(
    theories: &'a [&'a Theory],
    w: &'a Weights,
) -> impl ParallelIterator<Item = Scores> + 'a {
    // Theories next to each other (an exploration's, made from one parent) share the most, so a
    // memo per run of them keeps nearly all the sharing in little memory.
    const RUN: usize = 2048;
    theories.par_chunks(RUN).flat_map_iter(move |run| {
        // Keys are addresses of axioms the borrowed theories keep alive for this whole call.
        let mut memo: FxHashMap<*const Axiom, AxiomFacts> = FxHashMap::default();
        run.iter().map(move |t| {
            let facts: Vec<AxiomFacts> = t
                .axioms
                .iter()
                .map(|a| {
                    *memo
                        .entry(Arc::as_ptr(a))
                        .or_insert_with(|| AxiomFacts::of(a))
                })
                .collect();
            score_with_facts(&Evidence::syntactic(t), w, &facts)
        })
    })
}

/// [`score`], with the facts of the theory's axioms (in order) already read.
fn score_with_facts(e: &Evidence, w: &Weights, facts: &[AxiomFacts]) -> Scores {
    let points = e.spectrum;
    let connections = {
        let by_laws = syntax::nearest_seed_of(facts).map_or(0.0, |(_, overlap)| overlap);
        match points {
            Some(p) => {
                0.5 * by_laws
                    + 0.5 * f64::from(u8::from(spectrum::spectrum_match(p, e.known).is_some()))
            }
            None => by_laws,
        }
    };
    let mut s = Scores {
        non_triviality: points.map(spectrum::non_triviality),
        richness: points.map(spectrum::richness),
        novelty: if e.known_as.is_some() {
            Some(0.0)
        } else {
            points.and_then(|p| spectrum::novelty(p, e.parents, e.known))
        },
        economy: Some(syntax::economy_of(facts)),
        independence: e.independence.map(independence::score),
        naturality: Some(syntax::naturality_of(facts)),
        connections: Some(connections),
        structure: e
            .classes
            .map(|c| models::structural_richness(&e.theory.sig, c)),
        conjecture_yield: e.conjectures.map(ConjectureSummary::yield_score),
        selectivity: points.map(spectrum::selectivity),
        total: 0.0,
    };
    let (mut sum, mut weight) = (0.0, 0.0);
    for ((_, value), (_, wi)) in s.dimensions().into_iter().zip(w.as_array()) {
        if let Some(v) = value {
            sum += wi * v;
            weight += wi;
        }
    }
    s.total = if weight > 0.0 { sum / weight } else { 0.0 };
    s
}
