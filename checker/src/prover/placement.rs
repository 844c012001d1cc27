//! Whether one class of algebras lies inside another over the same signature (issue 51): every
//! axiom of the larger class derived from the smaller one's axioms, each with a replayed
//! certificate, or a model of the smaller class, checked by the evaluator, that violates an axiom
//! of the larger one. The evidence is returned whole, so that it can be stored and checked again
//! (the library's placement records); the Hasse diagram is drawn from stored evidence.
//!
//! Classes are sets of models: "A implies B" is A ⊆ B.

use super::certificate::Certificate;
use super::{prove, Options, Verdict};
use crate::finder::FinderError;
use birkhoff_engine::{Axiom, Signature, Structure, Theory};

/// What is known of "every model of one theory is a model of the other", with its evidence.
#[derive(Clone, Debug, PartialEq)]
pub enum Direction {
    /// Every axiom of the other was proved: one replayed proof per axiom, in the other's order.
    Proved(Vec<AxiomProof>),
    /// A model of the one that violates an axiom of the other.
    Refuted(Refutation),
    /// Neither within the budget.
    Unknown,
}

/// One axiom of the larger class, proved from the smaller class's axioms.
#[derive(Clone, Debug, PartialEq)]
pub struct AxiomProof {
    /// The axiom as a formula over the smaller class's signature (Birkhoff's syntax).
    pub statement: String,
    /// The certificate the checker replayed.
    pub certificate: Certificate,
}

/// A model of the smaller class violating one axiom of the larger.
#[derive(Clone, Debug, PartialEq)]
pub struct Refutation {
    /// The violated axiom's name in the larger class.
    pub axiom: String,
    /// The axiom as a formula over the smaller class's signature.
    pub statement: String,
    /// The model, checked by the evaluator.
    pub model: Structure,
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

/// Each axiom of `to` as a goal over `from`'s signature, with its name and its text (the same
/// symbols, by name): `None` for an axiom that does not read over `from`.
pub fn goals(from: &Theory, to: &Theory) -> Vec<(String, String, Option<Axiom>)> {
    to.axioms
        .iter()
        .map(|axiom| {
            let text =
                birkhoff_engine::print::FormulaPrinter::new(&to.sig, axiom).formula(&axiom.formula);
            let goal = birkhoff_engine::parse::parse_formula(&from.sig, &text, &axiom.name).ok();
            (axiom.name.clone(), text, goal)
        })
        .collect()
}

/// Whether every model of `from` is a model of `to` (same signature), each of `to`'s axioms
/// given to the prover under `opts`: proved when all are (each by a replayed certificate; Z3's
/// word alone is not enough), refuted at the first countermodel.
pub fn implies(from: &Theory, to: &Theory, opts: &Options) -> Result<Direction, FinderError> {
    let mut proofs = Vec::new();
    let mut all = true;
    for (axiom, statement, goal) in goals(from, to) {
        let Some(goal) = goal else {
            return Ok(Direction::Unknown);
        };
        match prove(from, &goal, opts)?.verdict {
            Verdict::Proved { certificate } => proofs.push(AxiomProof {
                statement,
                certificate,
            }),
            Verdict::Disproved { model, .. } => {
                return Ok(Direction::Refuted(Refutation {
                    axiom,
                    statement,
                    model,
                }))
            }
            _ => all = false,
        }
    }
    Ok(if all {
        Direction::Proved(proofs)
    } else {
        Direction::Unknown
    })
}
