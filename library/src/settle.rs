//! Settling a conjecture: the prover's answer ([`birkhoff_checker::prover::Answer`]) stored as a
//! conjecture record with the record its status rests on. A proof is stored with the certificate
//! the prover replayed, a disproof with its countermodel (checked once more by the evaluator
//! before it is stored), and anything else leaves the conjecture open. The agent's prove tool and
//! the research workspace's proof step both settle their conjectures here.

use crate::record::{Body, ConjectureRec, ConjectureStatus, ModelRec, ProofRec, StructureClaim};
use crate::{Error, Library, Record, Result};
use birkhoff_checker::prover::structural::Statement;
use birkhoff_checker::prover::{Answer, Verdict};
use birkhoff_engine::{eval, Axiom, Theory};

/// The prover named in the proof records stored here: the portfolio of `birkhoff prove`
/// ([`birkhoff_checker::prover::prove`]), whose certificates are replayed before they count.
pub const PROVER: &str = "birkhoff prove (certificate replayed)";

/// What an undecided answer (unknown, or Z3's unsat without a certificate) does to the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IfUndecided {
    /// The conjecture is stored as open, with what the prover tried as its evidence: a conjecture
    /// proposed now, which later attempts find in the library and retest.
    StoreOpen,
    /// Nothing is stored: the conjecture's record, if any, stays as it was (a research
    /// hypothesis keeps its own account of each round).
    Keep,
}

/// Stores `conjecture` (its theory, statement and proposer; its status, evidence, proof and
/// countermodel are set here) as `answer` settles it, `goal` being its statement parsed over
/// `theory`. Returns the conjecture as settled, stored unless the answer left it undecided under
/// [`IfUndecided::Keep`]. A countermodel that fails the evaluator's check is an error, never a
/// disproof.
///
/// A retest (a `conjecture` with no claim, of a statement the library holds already) keeps the
/// stored record's proposer and claim: only its status changes, so a structure statement proved
/// by a later attempt still reads as part of its discovery's structure theorem.
pub fn settle(
    lib: &mut Library,
    conjecture: ConjectureRec,
    theory: &Theory,
    goal: &Axiom,
    answer: &Answer,
    if_undecided: IfUndecided,
) -> Result<ConjectureRec> {
    let conjecture = match lib.get(&Body::Conjecture(conjecture.clone()).id()) {
        Ok(Record {
            body: Body::Conjecture(stored),
            ..
        }) if conjecture.claim.is_none() => ConjectureRec {
            proposed_by: stored.proposed_by,
            claim: stored.claim,
            ..conjecture
        },
        _ => conjecture,
    };
    let settled = match &answer.verdict {
        Verdict::Proved { certificate } => {
            let certificate = serde_json::to_value(certificate).expect("certificates serialize");
            let stored = lib.put(Body::Proof(ProofRec {
                // A conjecture's ID depends on its theory and statement only.
                conjecture_id: Body::Conjecture(conjecture.clone()).id(),
                theory_id: conjecture.theory_id.clone(),
                statement: conjecture.statement.clone(),
                prover: PROVER.into(),
                certificate,
            }));
            match stored {
                Ok((proof, _)) => ConjectureRec {
                    status: ConjectureStatus::Proved,
                    evidence: format!("proved, certificate replayed ({})", proof.id),
                    countermodel: None,
                    proof: Some(proof.id),
                    ..conjecture
                },
                // A proof the library cannot keep is no stored proof: the claim rests on it.
                Err(Error::Unreadable { why, .. }) => ConjectureRec {
                    evidence: format!(
                        "proved with a replayed certificate that the library cannot keep ({why}): it stays open"
                    ),
                    ..open(conjecture)
                },
                Err(e) => return Err(e),
            }
        }
        Verdict::Disproved { model, .. } => {
            if eval::check(theory, model).is_err() || eval::holds(&theory.sig, model, goal) {
                return Err(Error::FailedCheck(format!(
                    "the countermodel to `{}` failed the evaluator's re-check",
                    conjecture.statement
                )));
            }
            let (countermodel, _) = lib.put(Body::Model(ModelRec {
                theory_id: conjecture.theory_id.clone(),
                theory_name: conjecture.theory_name.clone(),
                structure: model.to_json(&theory.sig),
            }))?;
            ConjectureRec {
                status: ConjectureStatus::Refuted,
                evidence: format!(
                    "disproved by a countermodel of size {:?} ({})",
                    model.sizes, countermodel.id
                ),
                countermodel: Some(countermodel.id),
                proof: None,
                ..conjecture
            }
        }
        Verdict::ProvedByZ3 { .. } => ConjectureRec {
            evidence: "Z3 reports that it follows (unsat), without a certificate: it stays open"
                .into(),
            ..open(conjecture)
        },
        Verdict::Unknown => ConjectureRec {
            evidence: format!(
                "unknown: {}",
                answer
                    .unknown_because
                    .as_deref()
                    .unwrap_or("no strategy decided")
            ),
            ..open(conjecture)
        },
    };
    if settled.status == ConjectureStatus::Open && if_undecided == IfUndecided::Keep {
        return Ok(settled);
    }
    lib.put(Body::Conjecture(settled.clone()))?;
    Ok(settled)
}

/// The proposer named in the conjectures a structure survey stores ([`settle_structure`]).
pub const STRUCTURE: &str = "structure";

/// Stores each structure statement of `statements` that the prover tried as a conjecture of the
/// theory `theory_id` (`theory` parsed), settled by its answer ([`settle`]; one left undecided is
/// stored open), with its meaning as a [`StructureClaim`]. Returns the conjectures stored.
pub fn settle_structure(
    lib: &mut Library,
    theory_id: &str,
    theory: &Theory,
    statements: &[Statement],
) -> Result<Vec<ConjectureRec>> {
    let mut out = Vec::new();
    for s in statements {
        let Some(answer) = s.status.answer() else {
            continue;
        };
        let conjecture = ConjectureRec {
            theory_id: theory_id.into(),
            theory_name: theory.name.clone(),
            statement: s.equation.clone(),
            status: ConjectureStatus::Open,
            evidence: String::new(),
            countermodel: None,
            proof: None,
            proposed_by: STRUCTURE.into(),
            claim: Some(StructureClaim {
                kind: s.kind,
                operation: s.operation.clone(),
                term: s.term.clone(),
                partner: s.partner.clone(),
                sentence: s.sentence.clone(),
            }),
        };
        out.push(settle(
            lib,
            conjecture,
            theory,
            &s.axiom,
            &answer,
            IfUndecided::StoreOpen,
        )?);
    }
    Ok(out)
}

/// `conjecture` as open, with no evidence yet.
fn open(conjecture: ConjectureRec) -> ConjectureRec {
    ConjectureRec {
        status: ConjectureStatus::Open,
        evidence: String::new(),
        countermodel: None,
        proof: None,
        ..conjecture
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_checker::prover::{prove, Options};
    use birkhoff_engine::Structure;

    fn conjecture(statement: &str) -> ConjectureRec {
        ConjectureRec {
            theory_id: "thy-0000000000000000".into(),
            theory_name: "group".into(),
            statement: statement.into(),
            status: ConjectureStatus::Open,
            evidence: String::new(),
            countermodel: None,
            proof: None,
            proposed_by: "test".into(),
            claim: None,
        }
    }

    /// Settles `statement` about groups by the prover's answer.
    fn settle_in(lib: &mut Library, statement: &str, if_undecided: IfUndecided) -> ConjectureRec {
        let group = birkhoff_engine::seeds::load("group").unwrap();
        let goal = crate::statement::parse(&group, statement).unwrap();
        let answer = prove(&group, &goal, &Options::default()).unwrap();
        settle(
            lib,
            conjecture(statement),
            &group,
            &goal,
            &answer,
            if_undecided,
        )
        .unwrap()
    }

    #[test]
    fn a_proof_and_a_countermodel_are_stored_with_the_conjecture() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open(dir.path()).unwrap();
        let proved = settle_in(&mut lib, "inv(inv(x)) = x", IfUndecided::Keep);
        assert_eq!(
            proved.status,
            ConjectureStatus::Proved,
            "{}",
            proved.evidence
        );
        let Body::Proof(p) = lib.get(proved.proof.as_deref().unwrap()).unwrap().body else {
            panic!("not a proof")
        };
        assert_eq!(p.conjecture_id, Body::Conjecture(proved.clone()).id());
        let disproved = settle_in(&mut lib, "x * y = y * x", IfUndecided::Keep);
        assert_eq!(disproved.status, ConjectureStatus::Refuted);
        let model = lib.get(disproved.countermodel.as_deref().unwrap()).unwrap();
        assert!(matches!(model.body, Body::Model(_)));
        for c in [&proved, &disproved] {
            let stored = lib.get(&Body::Conjecture(c.clone()).id()).unwrap().body;
            assert_eq!(stored, Body::Conjecture(c.clone()));
        }
    }

    #[test]
    fn a_countermodel_the_evaluator_rejects_is_not_stored() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open(dir.path()).unwrap();
        let group = birkhoff_engine::seeds::load("group").unwrap();
        let goal = crate::statement::parse(&group, "x * y = y * x").unwrap();
        // The trivial group is commutative: no countermodel.
        let model = Structure::from_fn(&group.sig, &[1], |_, _| 0, |_, _| false);
        let answer = Answer {
            verdict: Verdict::Disproved {
                model,
                witness: vec![],
            },
            attempts: vec![],
            unknown_because: None,
        };
        let c = conjecture("x * y = y * x");
        let e = settle(&mut lib, c, &group, &goal, &answer, IfUndecided::StoreOpen);
        assert!(matches!(e, Err(Error::FailedCheck(_))), "{e:?}");
        assert!(lib.load_all().unwrap().is_empty());
    }

    #[test]
    fn a_proof_the_library_cannot_keep_leaves_the_conjecture_open() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open(dir.path()).unwrap();
        let group = birkhoff_engine::seeds::load("group").unwrap();
        let goal = crate::statement::parse(&group, "x * e = x").unwrap();
        let Verdict::Proved { mut certificate } =
            prove(&group, &goal, &Options::default()).unwrap().verdict
        else {
            panic!("x * e = x is an axiom's consequence")
        };
        // A side nested deeper than the library's JSON reader goes.
        for _ in 0..100 {
            certificate.lhs = birkhoff_engine::syntax::Term::App(
                birkhoff_engine::signature::FuncId(1),
                vec![certificate.lhs],
            );
        }
        let answer = Answer {
            verdict: Verdict::Proved { certificate },
            attempts: vec![],
            unknown_because: None,
        };
        let c = conjecture("x * e = x");
        let settled = settle(&mut lib, c, &group, &goal, &answer, IfUndecided::StoreOpen).unwrap();
        assert_eq!(settled.status, ConjectureStatus::Open);
        assert!(
            settled.evidence.contains("cannot keep"),
            "{}",
            settled.evidence
        );
        let stored = lib.load_all().unwrap();
        assert_eq!(stored.len(), 1, "the open conjecture alone: {stored:?}");
        assert!(matches!(stored[0].body, Body::Conjecture(_)));
    }

    #[test]
    fn an_undecided_conjecture_is_stored_open_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open(dir.path()).unwrap();
        let group = birkhoff_engine::seeds::load("group").unwrap();
        let goal = crate::statement::parse(&group, "x * x = x").unwrap();
        let answer = Answer {
            verdict: Verdict::Unknown,
            attempts: vec![],
            unknown_because: Some("the deadline came".into()),
        };
        let kept = settle(
            &mut lib,
            conjecture("x * x = x"),
            &group,
            &goal,
            &answer,
            IfUndecided::Keep,
        )
        .unwrap();
        assert_eq!(kept.status, ConjectureStatus::Open);
        assert!(lib.load_all().unwrap().is_empty());
        let stored = settle(
            &mut lib,
            conjecture("x * x = x"),
            &group,
            &goal,
            &answer,
            IfUndecided::StoreOpen,
        )
        .unwrap();
        assert_eq!(stored.evidence, "unknown: the deadline came");
        assert_eq!(lib.load_all().unwrap().len(), 1);
    }

    #[test]
    fn a_retest_keeps_the_stored_proposer_and_claim() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open(dir.path()).unwrap();
        let claim = StructureClaim {
            kind: birkhoff_checker::prover::structural::Kind::Central,
            operation: "*".into(),
            term: "e".into(),
            partner: String::new(),
            sentence: "every e is central for *".into(),
        };
        lib.put(Body::Conjecture(ConjectureRec {
            proposed_by: STRUCTURE.into(),
            claim: Some(claim.clone()),
            ..conjecture("e * x = x * e")
        }))
        .unwrap();
        let retested = settle_in(&mut lib, "e * x = x * e", IfUndecided::StoreOpen);
        assert_eq!(retested.status, ConjectureStatus::Proved);
        assert_eq!(retested.proposed_by, STRUCTURE);
        assert_eq!(retested.claim, Some(claim));
        let stored = lib.get(&Body::Conjecture(retested.clone()).id()).unwrap();
        assert_eq!(stored.body, Body::Conjecture(retested));
    }
}
