//! The engines behind the tools that other crates provide: the ten-dimension scorer. The move
//! engine and the prover plug in here the same way when they are built in.

use crate::situation::Candidate;
use crate::tools::Scorer;
use birkhoff_checker::budget::Budget;
use birkhoff_library::record::{Score, SpectrumRowRec};
use birkhoff_scorer::{independence, score, spectrum::ground_truth_spectra, Evidence, KnownSpectrum, Point, Weights};

/// The scorer crate's ten dimensions, with default weights and the ground-truth spectra as the
/// known theories.
pub struct TenDimensions {
    weights: Weights,
    known: Vec<KnownSpectrum>,
    /// Largest size searched for independence countermodels.
    independence_size: u32,
}

impl Default for TenDimensions {
    fn default() -> Self {
        TenDimensions { weights: Weights::default(), known: ground_truth_spectra(), independence_size: 3 }
    }
}

fn points(rows: &[SpectrumRowRec]) -> Vec<Point> {
    rows.iter().map(|r| Point { sizes: r.sizes.clone(), iso: r.iso }).collect()
}

impl Scorer for TenDimensions {
    fn score(&self, c: &Candidate, parents: &[Vec<SpectrumRowRec>], budget: &Budget) -> Result<Score, String> {
        let spectrum = points(&c.spectrum);
        let parents: Vec<Vec<Point>> = parents.iter().map(|p| points(p)).collect();
        let independence = independence::check(&c.theory, self.independence_size, budget).map_err(|e| e.to_string())?;
        let evidence = Evidence { theory: &c.theory, spectrum: c.checked.then_some(&spectrum[..]), classes: c.checked.then_some(&c.models[..]), independence: Some(&independence), conjectures: None, parents: &parents, known: &self.known };
        let s = score(&evidence, &self.weights);
        let dims = s.dimensions().into_iter().filter_map(|(name, v)| v.map(|v| (name.to_string(), v))).collect();
        Ok(Score { total: s.total, dims })
    }
}
