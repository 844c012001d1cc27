//! A typeset proof re-checks: every step the paper shows is one rewrite by the axiom or lemma it
//! names, read back from the proof's text by `readable::recheck`. Mutation check: a step
//! changed (its term, or the axiom it names) no longer re-checks, and a proof that does not
//! re-check is not typeset.

use birkhoff_checker::prover::{prove, Options, Verdict};
use birkhoff_library::record::{Body, ConjectureRec, ConjectureStatus, ProofRec};
use birkhoff_library::Library;
use birkhoff_paper::Paper;

/// A group discovery with `inv(x * y) = inv(y) * inv(x)` proved (a proof with lemmas) and
/// stored as the agent stores it.
fn library_with_a_proof(dir: &std::path::Path) -> Library {
    let mut lib = Library::open(&dir.join("lib")).unwrap();
    let group = birkhoff_engine::seeds::load("group").unwrap();
    let rec = crate::put_theory(
        &mut lib,
        "Group again",
        &group.to_text(),
        "a test discovery",
        vec!["group".into()],
    );
    for statement in ["inv(inv(x)) = x", "inv(x * y) = inv(y) * inv(x)"] {
        let goal = birkhoff_library::statement::parse(&group, statement).unwrap();
        let answer = prove(
            &group,
            &goal,
            &Options {
                z3: false,
                timeout: std::time::Duration::from_secs(20),
                ..Options::default()
            },
        )
        .unwrap();
        let Verdict::Proved { certificate } = answer.verdict else {
            panic!("{statement} not proved: {:?}", answer.verdict)
        };
        let conjecture = |status, proof| ConjectureRec {
            theory_id: rec.id.clone(),
            theory_name: "Group again".into(),
            statement: statement.into(),
            status,
            evidence: "proved by saturation".into(),
            countermodel: None,
            proof,
            proposed_by: "test".into(),
            claim: None,
        };
        let conjecture_id = Body::Conjecture(conjecture(ConjectureStatus::Open, None)).id();
        let (proof, _) = lib
            .put(Body::Proof(ProofRec {
                conjecture_id,
                theory_id: rec.id.clone(),
                statement: statement.into(),
                prover: "equality saturation".into(),
                certificate: serde_json::to_value(&certificate).unwrap(),
            }))
            .unwrap();
        lib.put(Body::Conjecture(conjecture(
            ConjectureStatus::Proved,
            Some(proof.id),
        )))
        .unwrap();
    }
    lib
}

#[test]
fn the_typeset_proofs_recheck_and_a_broken_step_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library_with_a_proof(dir.path());
    let paper = Paper::gather(&lib, "Group again").unwrap();
    assert_eq!(paper.theorems.len(), 2);
    let tex = paper.to_latex();
    // Derived from the group seed: that catalogue entry is named as related.
    assert!(
        paper.related.iter().any(|i| i.name == "group")
            && tex.contains("Related catalogue entries"),
        "{:?}",
        paper.related.iter().map(|i| &i.name).collect::<Vec<_>>()
    );
    let sym = birkhoff_paper::math::Symbols::of(&paper.theory.sig);
    for t in &paper.theorems {
        let proof = t
            .proof
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: no proof typeset: {e}", t.statement));
        assert!(proof.total_steps() >= 2, "{proof}");
        t.recheck(&paper.theory)
            .unwrap_or_else(|e| panic!("{}: {e}", t.statement));
        // What is typeset is what was re-checked: every step's term, as math, is in the paper.
        for step in proof
            .proof
            .steps
            .iter()
            .chain(proof.lemmas.iter().flat_map(|l| &l.proof.steps))
        {
            assert!(
                tex.contains(&sym.math(&step.term)),
                "step `{}` is not in the paper",
                step.term
            );
        }

        // Mutations: each must be caught.
        let mut wrong_term = t.clone();
        let p = wrong_term.proof.as_mut().unwrap();
        let chain = if p.proof.steps.len() >= 2 {
            &mut p.proof
        } else {
            &mut p.lemmas[0].proof
        };
        chain.steps[0].term = chain.steps[1].term.clone();
        assert!(
            wrong_term.recheck(&paper.theory).is_err(),
            "a step that skips ahead re-checked"
        );

        let mut wrong_axiom = t.clone();
        let p = wrong_axiom.proof.as_mut().unwrap();
        let step = p.proof.steps.iter_mut().chain(p.lemmas.iter_mut().flat_map(|l| l.proof.steps.iter_mut())).find(|s| matches!(&s.by, birkhoff_checker::prover::readable::Reason::Axiom { name, .. } if name != "assoc")).expect("a step by an axiom other than assoc");
        step.by = birkhoff_checker::prover::readable::Reason::Axiom {
            name: "assoc".into(),
            part: 0,
        };
        assert!(
            wrong_axiom.recheck(&paper.theory).is_err(),
            "a step naming the wrong axiom re-checked"
        );
    }
    let Some(text) = crate::compiled_text(
        &paper,
        &dir.path().join("paper"),
        "the_typeset_proofs_recheck_and_a_broken_step_does_not",
    ) else {
        return;
    };
    assert!(
        text.contains("Theorem 2")
            && text.contains("by axiom left_inverse")
            && text.contains("Lemma 1."),
        "{text}"
    );
}
