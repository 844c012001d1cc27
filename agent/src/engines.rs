//! The engines behind the tools that other crates provide: the ten-dimension scorer and the
//! structural moves.

use crate::situation::Candidate;
use crate::tools::Scorer;
use birkhoff_library::record::Score;
use birkhoff_scorer::calibration::{self, Calibration};
use birkhoff_scorer::{
    score, spectrum::known_spectra_without, Evidence, KnownSpectrum, SpectrumRow, Weights,
};
use std::collections::BTreeMap;

/// The scorer crate's ten dimensions, with default weights and the ground-truth and catalogue
/// spectra as the known theories, and the total the calibrated interest (docs/SCORING.md). It
/// reads what `check_models` gathered under [`birkhoff_scorer::Policy::agent`], the one
/// evaluation path `score` and `explore` use too.
pub struct TenDimensions {
    weights: Weights,
    known: Vec<KnownSpectrum>,
    calibration: Calibration,
}

impl Default for TenDimensions {
    fn default() -> Self {
        TenDimensions::hiding(&[])
    }
}

impl TenDimensions {
    /// The scorer with the catalogue entries named in `hidden` left out of the known spectra and
    /// out of the calibration's fit.
    pub fn hiding(hidden: &[String]) -> Self {
        TenDimensions {
            weights: Weights::default(),
            known: known_spectra_without(hidden),
            calibration: Calibration::fitted(hidden),
        }
    }
}

impl Scorer for TenDimensions {
    fn score(&self, c: &Candidate, parents: &[Vec<SpectrumRow>]) -> Result<Score, String> {
        // Shown equivalent to a seed, catalogue entry or discovery, or known in the literature:
        // nothing new, whatever the spectrum says.
        let known_as = match &c.standing {
            Some(birkhoff_scorer::identify::Standing::Known { name, kind, .. })
                if *kind != "candidate" =>
            {
                Some(name.as_str())
            }
            _ => c.in_literature.as_deref(),
        };
        let evidence = Evidence {
            theory: &c.theory,
            spectrum: c.checked.then_some(&c.spectrum[..]),
            classes: c.checked.then_some(&c.models[..]),
            independence: c.independence.as_deref(),
            conjectures: None,
            parents,
            known: &self.known,
            known_as,
        };
        let s = score(&evidence, &self.weights);
        let mut dims: BTreeMap<String, f64> = s
            .dimensions()
            .into_iter()
            .filter_map(|(name, v)| v.map(|v| (name.to_string(), v)))
            .collect();
        // The total ranks by the calibrated interest (docs/SCORING.md). Whether a class is new is
        // not its business: the strategist keeps only what identification showed new.
        let interest = self.interest(&c.theory, c.checked.then_some(&c.spectrum[..]));
        dims.insert("interest".into(), interest);
        dims.insert("linkage".into(), calibration::linkage(&c.theory));
        Ok(Score {
            total: interest,
            dims,
        })
    }

    fn interest(&self, t: &birkhoff_engine::Theory, spectrum: Option<&[SpectrumRow]>) -> f64 {
        calibration::ranked_interest(&self.calibration, t, spectrum)
    }
}

/// The engine's eight structural moves (`birkhoff_engine::moves`), explored breadth first with
/// deduplication up to renaming (`birkhoff_engine::derivation`). Candidates come best first by
/// the scorer's syntactic dimensions, the only ones known before models are checked.
pub struct StructuralMoves;

/// The moves' names, as plans spell them.
const MOVE_NAMES: [&str; 8] = [
    "COMPLETE",
    "DEFORM",
    "TRANSFER",
    "ABSTRACT",
    "DUALIZE",
    "QUOTIENT",
    "INTERNALIZE",
    "SELF_DISTRIB",
];

impl crate::tools::Explorer for StructuralMoves {
    fn moves(&self) -> Vec<String> {
        MOVE_NAMES.iter().map(|m| m.to_string()).collect()
    }

    fn explore(
        &self,
        bases: &[&birkhoff_engine::Theory],
        moves: &[String],
        depth: u32,
    ) -> Result<Vec<crate::tools::Generated>, String> {
        use birkhoff_engine::derivation;
        use petgraph::visit::EdgeRef;
        if depth > crate::tools::MAX_DEPTH {
            // Depth 3 from even one base yields tens of thousands of theories: more than a cycle
            // can check. Refuse rather than silently exploring less.
            return Err(format!(
                "depth {depth} is too large for one cycle: use 1 to {}",
                crate::tools::MAX_DEPTH
            ));
        }
        let bases: Vec<birkhoff_engine::Theory> = bases.iter().map(|t| (*t).clone()).collect();
        let (g, _) = derivation::explore(&bases, depth as usize);
        let mut out = Vec::new();
        for node in g.graph.node_indices().filter(|&i| g.graph[i].depth > 0) {
            // The first derivation by a requested move: the move that made the node, when it was
            // requested, whose description fits the theory as stored (later ones may reach it up
            // to renaming only).
            let Some(edge) = g
                .derivations(node)
                .into_iter()
                .find(|e| moves.iter().any(|m| *m == e.weight().mv.to_string()))
            else {
                continue;
            };
            let theory = g.graph[node].theory.clone();
            let parents = g
                .graph
                .edges_directed(node, petgraph::Direction::Incoming)
                .filter(|e| e.source() != node)
                .map(|e| g.graph[e.source()].theory.name.clone())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            out.push(crate::tools::Generated {
                name: theory.name.clone(),
                origin: format!("{}: {}", edge.weight().mv, edge.weight().description()),
                parents,
                theory,
            });
        }
        let weights = Weights::default();
        let mut scored: Vec<(f64, crate::tools::Generated)> = out
            .into_iter()
            .map(|g| (score(&Evidence::syntactic(&g.theory), &weights).total, g))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
        Ok(scored.into_iter().map(|(_, g)| g).collect())
    }
}
