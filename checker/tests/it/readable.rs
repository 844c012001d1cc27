//! Readable proofs: every rendering re-checks from its text alone (each step one rewrite by the
//! named axiom or lemma at the named position), long proofs are folded into short chains, and a
//! tampered rendering is rejected.

use birkhoff_checker::prover::certificate::{self, Certificate};
use birkhoff_checker::prover::readable::{
    recheck, render, Layout, ReadableProof, ReadableStep, Reason, RenderError,
};
use birkhoff_checker::prover::{prove_with, Options, Strategy, Verdict};
use birkhoff_engine::parse::parse_formula;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::syntax::{Axiom, Formula, Term};
use birkhoff_engine::{seeds, Theory};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// A certificate for `goal` from saturation alone (the strategy whose proofs are rendered).
fn certificate(t: &Theory, goal: &str) -> (Axiom, Certificate) {
    let g = parse_formula(&t.sig, goal, "goal").unwrap();
    let opts = Options {
        timeout: Duration::from_secs(60),
        max_enodes: 50_000,
        ..Options::default()
    };
    let answer = prove_with(t, &g, &opts, &[Strategy::Saturation { time_share: 100 }]).unwrap();
    let Verdict::Proved { certificate } = answer.verdict else {
        panic!("{goal}: no proof: {:?}", answer.attempts)
    };
    (g, certificate)
}

/// Renders, re-checks, and checks the layout: no chain longer than `max_chain`, no term twice in
/// a chain, every lemma used.
fn rendered(t: &Theory, g: &Axiom, cert: &Certificate, layout: &Layout) -> ReadableProof {
    let p = render(t, g, cert, layout).unwrap();
    recheck(t, g, &p).unwrap_or_else(|e| panic!("{e}\n{p}"));
    let mut used = HashSet::new();
    for chain in p.lemmas.iter().map(|l| &l.proof).chain([&p.proof]) {
        assert!(
            chain.steps.len() <= layout.max_chain,
            "a chain of {} steps:\n{p}",
            chain.steps.len()
        );
        let mut terms: HashSet<&str> = HashSet::from([chain.start.as_str()]);
        for s in &chain.steps {
            assert!(
                terms.insert(&s.term),
                "`{}` twice in one chain:\n{p}",
                s.term
            );
            if let Reason::Lemma { number } = s.by {
                used.insert(number);
            }
        }
    }
    assert_eq!(used.len(), p.lemmas.len(), "an unused lemma:\n{p}");
    p
}

#[test]
fn group_proofs_render_and_recheck() {
    let g = seeds::load("group").unwrap();
    for goal in [
        "inv(inv(x)) = x",
        "inv(x * y) = inv(y) * inv(x)",
        "inv(e) = e",
        "x * y * inv(y) = x",
    ] {
        let (goal, cert) = certificate(&g, goal);
        let p = rendered(&g, &goal, &cert, &Layout::default());
        // Detours are cut and nothing is added: never more steps than the certificate.
        assert!(p.total_steps() <= cert.total_steps(), "{p}");
        let text = p.to_string();
        assert!(
            text.contains("Theorem. ") && text.contains(" by "),
            "{text}"
        );
    }
}

#[test]
fn a_long_proof_is_folded_into_lemmas() {
    // Laid out in chains of at most 4 steps, the 26-step certificate of inv(x * y) =
    // inv(y) * inv(x) needs lemmas; they are stated about subterms or as consecutive claims.
    let g = seeds::load("group").unwrap();
    let (goal, cert) = certificate(&g, "inv(x * y) = inv(y) * inv(x)");
    let p = rendered(
        &g,
        &goal,
        &cert,
        &Layout {
            max_chain: 4,
            ..Layout::default()
        },
    );
    assert!(!p.lemmas.is_empty(), "{p}");
}

#[test]
fn a_proof_with_shared_lemmas_renders() {
    // A unital ring with x * x = x is commutative: the certificate proves shared sub-proofs as
    // lemmas; the rendering keeps each chain short and re-checks.
    let mut r = seeds::load("ring_unital").unwrap();
    r.axioms.push(
        parse_formula(&r.sig, "x * x = x", "idempotent")
            .unwrap()
            .into(),
    );
    let (goal, cert) = certificate(&r, "x * y = y * x");
    let p = rendered(&r, &goal, &cert, &Layout::default());
    assert!(!p.lemmas.is_empty());
    for max_chain in [2, 5, 30] {
        rendered(
            &r,
            &goal,
            &cert,
            &Layout {
                max_chain,
                ..Layout::default()
            },
        );
    }
}

#[test]
fn a_many_sorted_proof_renders() {
    // The theorem's variables keep their sorts when the text is parsed back.
    let c = seeds::load("category").unwrap();
    let (goal, cert) = certificate(&c, "dom(id(cod(f))) = cod(f)");
    rendered(&c, &goal, &cert, &Layout::default());
    let v = seeds::load("vector_space").unwrap();
    let (goal, cert) = certificate(&v, "vadd(smul(k1, u), v0) = u");
    let p = rendered(&v, &goal, &cert, &Layout::default());
    assert!(p.variables.iter().any(|x| x.sort == "V"), "{p:?}");
}

#[test]
fn a_tampered_rendering_is_rejected() {
    let g = seeds::load("group").unwrap();
    let (goal, cert) = certificate(&g, "inv(x * y) = inv(y) * inv(x)");
    let p = rendered(
        &g,
        &goal,
        &cert,
        &Layout {
            max_chain: 6,
            ..Layout::default()
        },
    );
    assert!(!p.lemmas.is_empty());
    let axiom_step = p
        .proof
        .steps
        .iter()
        .chain(p.lemmas.iter().flat_map(|l| &l.proof.steps))
        .position(|s| matches!(s.by, Reason::Axiom { .. }))
        .unwrap();
    // Every field a reader relies on is checked: each edit below must be caught.
    type Edit = Box<dyn Fn(&mut ReadableProof)>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "another axiom named",
            Box::new(move |p| {
                let s = nth_step(p, axiom_step);
                let Reason::Axiom { name, .. } = &mut s.by else {
                    unreachable!()
                };
                *name = if name == "assoc" {
                    "left_identity".into()
                } else {
                    "assoc".into()
                };
            }),
        ),
        (
            "the direction flipped",
            Box::new(move |p| nth_step(p, axiom_step).reversed ^= true),
        ),
        (
            "the position moved",
            Box::new(move |p| nth_step(p, axiom_step).position.push(1)),
        ),
        (
            "a term changed",
            Box::new(move |p| {
                let s = nth_step(p, axiom_step);
                s.term = format!("inv({})", s.term);
            }),
        ),
        (
            "a step dropped",
            Box::new(|p| {
                p.proof.steps.remove(0);
            }),
        ),
        (
            "a lemma's statement changed",
            Box::new(|p| p.lemmas[0].rhs = p.lemmas[0].lhs.clone()),
        ),
        (
            "a lemma used before it is proved",
            Box::new(|p| {
                let last = p.lemmas.len();
                p.lemmas[last - 1].proof.steps[0].by = Reason::Lemma { number: last };
            }),
        ),
        (
            "the theorem changed",
            Box::new(|p| p.rhs = format!("inv({})", p.rhs)),
        ),
        (
            "a variable renamed",
            Box::new(|p| p.variables[0].name = "w".into()),
        ),
    ];
    for (what, edit) in edits {
        let mut q = p.clone();
        edit(&mut q);
        assert!(recheck(&g, &goal, &q).is_err(), "{what} was accepted:\n{q}");
    }

    // A step that rewrites as stated but also changes the term elsewhere is caught at that step
    // (not only at the next one, which then starts from a wrong term).
    let chains = || p.lemmas.iter().map(|l| &l.proof).chain([&p.proof]);
    let (c, k) = chains()
        .enumerate()
        .find_map(|(c, ch)| {
            ch.steps
                .iter()
                .position(|s| !s.position.is_empty() && s.term.contains(" * "))
                .map(|k| (c, k))
        })
        .expect("a step below the root");
    let mut q = p.clone();
    let chain = if c < q.lemmas.len() {
        &mut q.lemmas[c].proof
    } else {
        &mut q.proof
    };
    let s = &mut chain.steps[k];
    let t = parse_formula(&g.sig, &format!("{0} = {0}", s.term), "t").unwrap();
    let Formula::Eq(Term::App(f, args), _) = &t.formula else {
        panic!("{}", s.term)
    };
    let mut args = args.clone();
    let other = if s.position[0] == 1 {
        args.len() - 1
    } else {
        0
    };
    args[other] = Term::App(g.sig.func("inv").unwrap(), vec![args[other].clone()]);
    s.term = FormulaPrinter::new(&g.sig, &t).term(&Term::App(*f, args));
    let e = recheck(&g, &goal, &q).unwrap_err().to_string();
    assert!(
        e.contains(&format!("step {}: the term changes outside", k + 1)),
        "{e}"
    );
}

/// The `k`-th step, counting the theorem's chain first, then the lemmas'.
fn nth_step(p: &mut ReadableProof, k: usize) -> &mut ReadableStep {
    p.proof
        .steps
        .iter_mut()
        .chain(p.lemmas.iter_mut().flat_map(|l| &mut l.proof.steps))
        .nth(k)
        .unwrap()
}

#[test]
fn rendering_stops_at_its_deadline() {
    let g = seeds::load("group").unwrap();
    let (goal, cert) = certificate(&g, "inv(x * y) = inv(y) * inv(x)");
    let past = Layout {
        deadline: Some(Instant::now() - Duration::from_millis(1)),
        ..Layout::default()
    };
    assert_eq!(render(&g, &goal, &cert, &past), Err(RenderError::Deadline));
    // The replay that rendering starts with stops there too, before its first lemma.
    assert_eq!(
        certificate::check_before(&g, &goal, &cert, past.deadline),
        Ok(false)
    );
    assert_eq!(certificate::check_before(&g, &goal, &cert, None), Ok(true));
    // Only a replayed certificate is rendered.
    let mut bad = cert.clone();
    bad.steps.pop();
    assert!(matches!(
        render(&g, &goal, &bad, &Layout::default()),
        Err(RenderError::Rejected(_))
    ));
    assert!(certificate::check(&g, &goal, &cert).is_ok());
}
