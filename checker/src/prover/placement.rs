//! Where a theory sits among known classes over the same signature (issue 51): for each
//! neighbour, whether the theory implies it, is implied by it, both, or neither, each direction
//! proved (every axiom of one derived from the other, each with a replayed certificate) or
//! refuted (a model of one that violates an axiom of the other, checked by the evaluator), and
//! the Hasse diagram of the classes that are comparable with it.
//!
//! Classes are sets of models: "A implies B" is A ⊆ B, and the diagram draws B above A.

use super::{prove, Options, Verdict};
use crate::finder::FinderError;
use birkhoff_engine::{Signature, Theory};
use serde::Serialize;

/// What is known of "every model of one theory is a model of the other".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Every axiom of the other was proved.
    Proved,
    /// A model violating one of the other's axioms: (the axiom's name, the model's sizes).
    Refuted(String, Vec<u32>),
    /// Neither within the budget.
    Unknown,
}

/// One neighbour and how the theory relates to it.
#[derive(Clone, Debug, Serialize)]
pub struct Neighbour {
    /// The neighbour's name.
    pub name: String,
    /// Whether the theory implies the neighbour (its class is inside the neighbour's).
    pub implies: Direction,
    /// Whether the neighbour implies the theory.
    pub implied_by: Direction,
}

impl Neighbour {
    /// The neighbour's class strictly contains the theory's.
    pub fn above(&self) -> bool {
        self.implies == Direction::Proved && matches!(self.implied_by, Direction::Refuted(..))
    }

    /// The neighbour's class is strictly inside the theory's.
    pub fn below(&self) -> bool {
        self.implied_by == Direction::Proved && matches!(self.implies, Direction::Refuted(..))
    }

    /// The same class (each implies the other).
    pub fn same(&self) -> bool {
        self.implies == Direction::Proved && self.implied_by == Direction::Proved
    }
}

/// Whether two signatures have the same symbols (names and arities), one sort each: only then
/// does an axiom of one read as an axiom of the other.
pub fn same_signature(a: &Signature, b: &Signature) -> bool {
    let shape = |s: &Signature| {
        let mut funcs: Vec<(String, usize)> = s
            .funcs
            .iter()
            .map(|f| (f.name.clone(), f.args.len()))
            .collect();
        let mut rels: Vec<(String, usize)> = s
            .rels
            .iter()
            .map(|r| (r.name.clone(), r.args.len()))
            .collect();
        funcs.sort();
        rels.sort();
        (s.sorts.len(), funcs, rels)
    };
    a.sorts.len() == 1 && shape(a) == shape(b)
}

/// Whether every model of `from` is a model of `to` (same signature), each of `to`'s axioms
/// given to the prover under `opts`: proved when all are, refuted at the first countermodel.
pub fn implies(from: &Theory, to: &Theory, opts: &Options) -> Result<Direction, FinderError> {
    let mut all = true;
    for axiom in &to.axioms {
        // The goal must be over `from`'s signature: the same symbols, by name.
        let Ok(goal) = birkhoff_engine::parse::parse_formula(
            &from.sig,
            &birkhoff_engine::print::FormulaPrinter::new(&to.sig, axiom).formula(&axiom.formula),
            &axiom.name,
        ) else {
            return Ok(Direction::Unknown);
        };
        match prove(from, &goal, opts)?.verdict {
            Verdict::Proved { .. } => {}
            Verdict::Disproved { model, .. } => {
                return Ok(Direction::Refuted(axiom.name.clone(), model.sizes))
            }
            _ => all = false,
        }
    }
    Ok(if all {
        Direction::Proved
    } else {
        Direction::Unknown
    })
}

/// How `theory` relates to each of `others` with the same signature (the others are skipped),
/// until `deadline`: the neighbours not reached by then are left out.
pub fn place(
    theory: &Theory,
    others: &[(String, Theory)],
    opts: &Options,
    deadline: std::time::Instant,
) -> Result<Vec<Neighbour>, FinderError> {
    let mut out = Vec::new();
    for (name, other) in others {
        if !same_signature(&theory.sig, &other.sig) {
            continue;
        }
        if std::time::Instant::now() >= deadline {
            break;
        }
        out.push(Neighbour {
            name: name.clone(),
            implies: implies(theory, other, opts)?,
            implied_by: implies(other, theory, opts)?,
        });
    }
    Ok(out)
}

/// The Hasse diagram of the theory (node 0) and its strictly comparable neighbours (nodes
/// 1..=n, in the order given): the cover relations (lower, upper) among them, an edge from a
/// class to each smallest class strictly containing it. Between two neighbours on the same side,
/// containment is asked of the prover (`implies`); one not proved is not drawn, so the diagram
/// never shows a containment that was not proved, but may miss one.
pub fn hasse(
    comparable: &[(&Neighbour, &Theory)],
    opts: &Options,
) -> Result<Vec<(usize, usize)>, FinderError> {
    let n = comparable.len() + 1;
    // below[i][j]: class i strictly inside class j (proved both ways as needed).
    let mut below = vec![vec![false; n]; n];
    for (k, (nb, _)) in comparable.iter().enumerate() {
        if nb.above() {
            below[0][k + 1] = true;
        }
        if nb.below() {
            below[k + 1][0] = true;
        }
    }
    for i in 0..comparable.len() {
        for j in 0..comparable.len() {
            if i == j {
                continue;
            }
            let (a, b) = (comparable[i], comparable[j]);
            // Through the theory the order is known; otherwise ask when it could hold.
            let through = below[i + 1][0] && below[0][j + 1];
            if through
                || (a.0.above() == b.0.above()
                    && implies(a.1, b.1, opts)? == Direction::Proved
                    && implies(b.1, a.1, opts)? != Direction::Proved)
            {
                below[i + 1][j + 1] = true;
            }
        }
    }
    let mut covers = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if below[i][j] && !(0..n).any(|k| below[i][k] && below[k][j]) {
                covers.push((i, j));
            }
        }
    }
    Ok(covers)
}
