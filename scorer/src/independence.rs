//! Independence of axioms: for each axiom, a countermodel — a model of the other axioms in which
//! it fails — shows that it does not follow from them. The countermodel comes from the native
//! finder, which re-checks it with the evaluator against the other axioms and the negated one.

use birkhoff_checker::{
    finder::{first, FinderError, FirstModel, Options},
    size_tuples, Budget,
};
use birkhoff_engine::syntax::Formula;
use birkhoff_engine::{Axiom, Theory};
use serde::Serialize;

/// What the search learned about one axiom.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AxiomIndependence {
    /// A countermodel of these sizes exists: the axiom is independent of the others.
    Independent {
        /// The axiom.
        axiom: String,
        /// Sizes of the countermodel.
        sizes: Vec<u32>,
    },
    /// No countermodel up to the size limit (or within the budget): it may follow from the others.
    NotShown {
        /// The axiom.
        axiom: String,
    },
}

/// Looks for a countermodel to each axiom up to `max_size` elements per sort, with `budget` for
/// each size.
pub fn check(
    t: &Theory,
    max_size: u32,
    budget: &Budget,
) -> Result<Vec<AxiomIndependence>, FinderError> {
    let mut out = Vec::new();
    for (i, axiom) in t.axioms.iter().enumerate() {
        let mut others = t.clone();
        let mut negated = Axiom::clone(&others.axioms.remove(i));
        let free = negated.free_vars();
        let closed = if free.is_empty() {
            negated.formula.clone()
        } else {
            Formula::Forall(free, Box::new(negated.formula.clone()))
        };
        negated.formula = Formula::not(closed);
        others.axioms.push(negated.into());
        let mut found = None;
        for sizes in size_tuples(t.sig.sorts.len(), max_size) {
            if let (FirstModel::Found { .. }, _, _) =
                first(&others, &sizes, budget, Options::default())?
            {
                found = Some(sizes);
                break;
            }
        }
        out.push(match found {
            Some(sizes) => AxiomIndependence::Independent {
                axiom: axiom.name.clone(),
                sizes,
            },
            None => AxiomIndependence::NotShown {
                axiom: axiom.name.clone(),
            },
        });
    }
    Ok(out)
}

/// The independence dimension: the share of axioms shown independent (1 for no axioms: nothing
/// is redundant). A redundant axiom can never be shown independent, so it lowers the score.
pub fn score(results: &[AxiomIndependence]) -> f64 {
    if results.is_empty() {
        return 1.0;
    }
    results
        .iter()
        .filter(|r| matches!(r, AxiomIndependence::Independent { .. }))
        .count() as f64
        / results.len() as f64
}
