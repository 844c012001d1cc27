//! The prover on known theorems and non-theorems; certificates are replayed and tampering is caught.

use birkhoff_checker::prover::certificate::{self, Direction};
use birkhoff_checker::prover::{prove, prove_with, Options, Strategy, Verdict};
use birkhoff_engine::parse::parse_formula;
use birkhoff_engine::syntax::Term;
use birkhoff_engine::{eval, seeds, Theory};
use std::time::Duration;

fn opts() -> Options {
    Options {
        max_size: 5,
        timeout: Duration::from_secs(6),
        max_enodes: 50_000,
        ..Options::default()
    }
}

fn answer(t: &Theory, goal: &str) -> Verdict {
    let g = parse_formula(&t.sig, goal, "goal").unwrap();
    let a = prove(t, &g, &opts()).unwrap();
    // Whatever the verdict, its evidence must stand on its own.
    match &a.verdict {
        Verdict::Proved { certificate } => certificate::check(t, &g, certificate).unwrap(),
        Verdict::Disproved { model, .. } => {
            assert!(eval::check(t, model).is_ok());
            assert!(eval::falsify(&t.sig, model, &g).is_some());
        }
        _ => eprintln!("{goal}: {:?}", a.attempts),
    }
    a.verdict
}

fn assert_proved(t: &Theory, goal: &str) {
    let v = answer(t, goal);
    assert!(
        matches!(v, Verdict::Proved { .. }),
        "{goal}: expected a proof, got {v:?}"
    );
}

fn assert_disproved(t: &Theory, goal: &str) -> birkhoff_engine::Structure {
    match answer(t, goal) {
        Verdict::Disproved { model, .. } => model,
        v => panic!("{goal}: expected a countermodel, got {v:?}"),
    }
}

#[test]
fn group_theorems_are_proved_with_certificates() {
    let g = seeds::load("group").unwrap();
    assert_proved(&g, "inv(inv(x)) = x");
    assert_proved(&g, "inv(x * y) = inv(y) * inv(x)");
    assert_proved(&g, "inv(e) = e");
}

#[test]
fn boolean_algebra_satisfies_de_morgan() {
    // De Morgan needs uniqueness of complements; saturation does not find that proof (measured:
    // still open after 120 s and 3·10^6 e-nodes), so Z3 decides it when built in. Z3 needs
    // 25–40 s on a quiet machine (E-matching on two associative-commutative operations), and its
    // time is heavy-tailed (it depends on the random seed of each restart): the budget is large so
    // that the test does not fail on a loaded machine; it costs time only when Z3 is slow.
    let b = seeds::load("boolean_algebra").unwrap();
    let goal = parse_formula(&b.sig, "c(x ^ y) = c(x) v c(y)", "goal").unwrap();
    let v = prove(
        &b,
        &goal,
        &Options {
            timeout: Duration::from_secs(400),
            ..opts()
        },
    )
    .unwrap()
    .verdict;
    if let Verdict::Proved { certificate } = &v {
        certificate::check(&b, &goal, certificate).unwrap();
    }
    if cfg!(feature = "z3") {
        assert!(
            matches!(v, Verdict::Proved { .. } | Verdict::ProvedByZ3 { .. }),
            "got {v:?}"
        );
    } else {
        assert!(
            matches!(v, Verdict::Proved { .. } | Verdict::Unknown),
            "got {v:?}"
        );
    }
}

fn boolean_ring() -> Theory {
    let mut r = seeds::load("ring_unital").unwrap();
    let idem = parse_formula(&r.sig, "x * x = x", "idempotent").unwrap();
    r.axioms.push(idem.into());
    r
}

#[test]
fn boolean_ring_is_commutative() {
    // A unital ring with x*x = x is commutative. egg's explanation of this proof is a DAG whose
    // flat chain would have ~10^8 steps (this used to overrun any timeout); the certificate
    // proves each shared sub-proof once as a lemma.
    let r = boolean_ring();
    let goal = parse_formula(&r.sig, "x * y = y * x", "goal").unwrap();
    // Without E, whose proof in 0.15 s (checked, not a certificate) would come first.
    let o = Options {
        timeout: Duration::from_secs(60),
        e_prover: false,
        ..opts()
    };
    let Verdict::Proved { certificate: cert } = prove(&r, &goal, &o).unwrap().verdict else {
        panic!("expected a proof")
    };
    assert!(certificate::check(&r, &goal, &cert).is_ok());
    assert!(!cert.lemmas.is_empty(), "this proof reuses sub-proofs");

    // Lemmas are checked like the goal: a wrong side, a forward reference, a missing lemma.
    let mut c = cert.clone();
    c.lemmas[0].rhs = c.lemmas[0].lhs.clone();
    assert!(
        certificate::check(&r, &goal, &c).is_err(),
        "a lemma whose chain ends elsewhere"
    );
    let user = cert
        .lemmas
        .iter()
        .position(|l| {
            l.steps
                .iter()
                .any(|s| matches!(s.by, certificate::Justification::Lemma { .. }))
        })
        .expect("some lemma uses another");
    let mut c = cert.clone();
    let step = c.lemmas[user]
        .steps
        .iter_mut()
        .find(|s| matches!(s.by, certificate::Justification::Lemma { .. }))
        .unwrap();
    step.by = certificate::Justification::Lemma {
        lemma: user,
        substitution: vec![],
    };
    assert!(
        certificate::check(&r, &goal, &c).is_err(),
        "a lemma used in its own proof"
    );
    let mut c = cert.clone();
    c.lemmas.pop();
    assert!(
        certificate::check(&r, &goal, &c).is_err(),
        "a lemma dropped"
    );
}

#[test]
fn semigroup_need_not_be_commutative() {
    let s = seeds::load("semigroup").unwrap();
    let m = assert_disproved(&s, "x * y = y * x");
    assert_eq!(m.sizes, vec![2]);
}

#[test]
fn quandle_need_not_be_latin() {
    // Latin: every left multiplication y -> x * y is a bijection; on a finite set, injective.
    let q = seeds::load("quandle").unwrap();
    assert_disproved(&q, "x * y = x * z -> y = z");
}

#[test]
fn a_law_whose_smallest_countermodel_has_five_elements() {
    // Every group of order at most 5 is abelian; the smallest non-abelian group is S_3. The plan
    // looks at every size above 3 right after the first saturation, before Z3 (it used to try
    // sizes of 6 and more last, after saturation and Z3 had used about 90 % of the budget), and
    // sizes 4 and 5 are quickly ruled out for groups, so S_3 comes early. The budget stays
    // 30 s: the early look gets a tenth of it, and with the other test suites on two cores 10 s
    // (1 s for that look) left the answer unknown in a clean-clone CI run.
    let g = seeds::load("group").unwrap();
    let o = Options {
        max_size: 6,
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let plan = o.plan();
    let first = |p: &dyn Fn(&Strategy) -> bool| plan.iter().position(p);
    let size_six = first(&|s| matches!(s, Strategy::Countermodel { min_size, max_size, .. } if *min_size <= 6 && 6 <= *max_size)).unwrap();
    let saturation = first(&|s| matches!(s, Strategy::Saturation { .. })).unwrap();
    assert!(
        size_six < plan.len() - 1 && saturation < size_six,
        "{plan:?}"
    );
    #[cfg(feature = "z3")]
    assert!(
        size_six < first(&|s| matches!(s, Strategy::Z3 { .. })).unwrap(),
        "{plan:?}"
    );
    let goal = parse_formula(&g.sig, "x * y = y * x", "goal").unwrap();
    match prove(&g, &goal, &o).unwrap().verdict {
        Verdict::Disproved { model, .. } => {
            assert_eq!(model.sizes, vec![6]);
            assert!(
                eval::check(&g, &model).is_ok() && eval::falsify(&g.sig, &model, &goal).is_some()
            );
        }
        v => panic!("expected S_3, got {v:?}"),
    }
}

#[test]
fn an_affine_magma_refutes_what_small_countermodels_miss() {
    // ETP's E704 does not imply E1879; x * y = 2x + y (mod 5) shows it. The finder does not
    // finish size 4 of this problem within seconds.
    let mut t = seeds::load("magma").unwrap();
    t.axioms.push(
        parse_formula(&t.sig, "x = y * (y * ((x * x) * y))", "E704")
            .unwrap()
            .into(),
    );
    let goal = parse_formula(&t.sig, "x = (x * (y * z)) * (w * x)", "E1879").unwrap();
    let plan = [Strategy::Affine {
        max_modulus: 10,
        time_share: 100,
    }];
    match prove_with(&t, &goal, &opts(), &plan).unwrap().verdict {
        Verdict::Disproved { model, .. } => {
            assert_eq!(model.sizes, vec![5]);
            assert!(
                eval::check(&t, &model).is_ok() && eval::falsify(&t.sig, &model, &goal).is_some()
            );
        }
        v => panic!("expected an affine countermodel, got {v:?}"),
    }
    // A theorem has no affine countermodel, and the strategy says so instead of deciding.
    let theorem = parse_formula(&t.sig, "x = y * (y * ((x * x) * y))", "E704 itself").unwrap();
    assert!(matches!(
        prove_with(&t, &theorem, &opts(), &plan).unwrap().verdict,
        Verdict::Unknown
    ));
}

#[test]
fn tampered_certificates_are_rejected() {
    let g = seeds::load("group").unwrap();
    let goal = parse_formula(&g.sig, "inv(inv(x)) = x", "goal").unwrap();
    let Verdict::Proved { certificate: cert } = prove(&g, &goal, &opts()).unwrap().verdict else {
        panic!("no proof")
    };
    assert!(certificate::check(&g, &goal, &cert).is_ok());
    assert!(!cert.steps.is_empty());

    let mut c = cert.clone();
    c.steps.pop();
    assert!(
        certificate::check(&g, &goal, &c).is_err(),
        "a chain cut short"
    );

    let mut c = cert.clone();
    c.steps[0].direction = match c.steps[0].direction {
        Direction::LeftToRight => Direction::RightToLeft,
        Direction::RightToLeft => Direction::LeftToRight,
    };
    assert!(
        certificate::check(&g, &goal, &c).is_err(),
        "a step turned round"
    );

    let certificate::Justification::Axiom {
        axiom: first_axiom, ..
    } = cert.steps[0].by.clone()
    else {
        panic!("a short proof needs no lemma")
    };
    let mut c = cert.clone();
    c.steps[0].by = certificate::Justification::Axiom {
        axiom: "assoc".into(),
        part: 0,
        substitution: vec![],
    };
    assert!(
        certificate::check(&g, &goal, &c).is_err() || first_axiom == "assoc",
        "a wrong axiom"
    );

    let mut c = cert.clone();
    c.steps[0].by = certificate::Justification::Lemma {
        lemma: 0,
        substitution: vec![],
    };
    assert!(
        certificate::check(&g, &goal, &c).is_err(),
        "a lemma that does not exist"
    );

    let mut c = cert.clone();
    c.steps[0].position.push(7);
    assert!(
        certificate::check(&g, &goal, &c).is_err(),
        "a position that does not exist"
    );

    let mut c = cert.clone();
    c.rhs = Term::App(g.sig.func("e").unwrap(), vec![]);
    assert!(
        certificate::check(&g, &goal, &c).is_err(),
        "a different goal"
    );

    // A certificate for one goal is not one for another.
    let other = parse_formula(&g.sig, "inv(inv(x)) = e", "goal").unwrap();
    assert!(certificate::check(&g, &other, &cert).is_err());

    // Without the axioms it uses, the chain does not replay.
    let mut weaker = g.clone();
    weaker.axioms.retain(|a| a.name != first_axiom);
    assert!(certificate::check(&weaker, &goal, &cert).is_err());

    // And it survives a JSON round trip.
    let json = serde_json::to_string(&cert).unwrap();
    let back: certificate::Certificate = serde_json::from_str(&json).unwrap();
    assert!(certificate::check(&g, &goal, &back).is_ok());
}

#[test]
fn non_equational_goals_are_proved_by_z3_or_disproved() {
    let g = seeds::load("group").unwrap();
    // x*y = e -> y = inv(x) is true but not an equation: saturation cannot take it; Z3 proves it
    // (weaker evidence, labelled so); without Z3 the answer is "unknown", never a disproof.
    let v = answer(&g, "x * y = e -> y = inv(x)");
    if cfg!(feature = "z3") {
        assert!(matches!(v, Verdict::ProvedByZ3 { .. }), "got {v:?}");
        assert!(v.evidence().contains("weaker"));
    } else {
        assert!(matches!(v, Verdict::Unknown), "got {v:?}");
    }
    // An existential goal Z3 cannot decide within the budget: "unknown", never a disproof.
    let v = answer(&g, "all x. exists y. y * x = e & x * y = e");
    assert!(
        matches!(v, Verdict::ProvedByZ3 { .. } | Verdict::Unknown),
        "got {v:?}"
    );
    assert_disproved(&g, "exists x. x != e");
    // A false first-order goal is never proved by Z3: a semigroup need not have an identity.
    let s = seeds::load("semigroup").unwrap();
    assert_disproved(&s, "exists e. all x. e * x = x");
}

#[test]
fn many_sorted_goals_are_handled() {
    let t = Theory::parse("theory Act\nsort G\nsort X\nfunc * : G G -> G\nfunc act : G X -> X\nconst e : G\naxiom unit: all x:X. act(e, x) = x\naxiom compat: all g:G h:G x:X. act(g * h, x) = act(g, act(h, x))\naxiom left_id: all g:G. e * g = g", "act.bk").unwrap();
    assert_proved(&t, "all x:X. act(e * e, x) = x");
    assert_disproved(&t, "all g:G x:X. act(g, x) = x");
}

#[test]
fn saturation_stopped_at_its_e_node_limit_is_retried_larger_until_the_deadline() {
    // Left Moufang loops are right Bol: a proof egg does not find within 2 000 e-nodes.
    let t = Theory::parse(
        &format!(
            "{}\naxiom left_moufang: x * (y * (x * z)) = ((x * y) * x) * z",
            seeds::load("loop").unwrap().to_text()
        ),
        "t.bk",
    )
    .unwrap();
    let g = parse_formula(&t.sig, "((x * y) * z) * y = x * ((y * z) * y)", "goal").unwrap();
    let opts = Options {
        timeout: Duration::from_secs(3),
        max_enodes: 2_000,
        ..Options::default()
    };
    let a = prove_with(&t, &g, &opts, &[Strategy::Saturation { time_share: 10 }]).unwrap();
    let runs = a
        .attempts
        .iter()
        .filter(|at| matches!(at.strategy, Strategy::Saturation { .. }))
        .count();
    assert!(
        runs > 1,
        "the first saturation stopped at 2 000 e-nodes; it must run again larger: {:?}",
        a.attempts
    );
    assert!(
        a.attempts
            .iter()
            .any(|at| at.result.contains("retry 1, e-node limit 8000")),
        "{:?}",
        a.attempts
    );
    match &a.verdict {
        Verdict::Proved { certificate } => certificate::check(&t, &g, certificate).unwrap(),
        Verdict::Unknown => assert!(
            a.unknown_because
                .as_deref()
                .is_some_and(|w| w.contains("time limit") || w.contains("finished for good")),
            "{a:?}"
        ),
        other => panic!("a theorem: {other:?}"),
    }
}

#[test]
fn unknown_says_when_every_strategy_finished_for_good() {
    // Commutativity alone saturates at once and cannot give associativity; no countermodel has
    // one element. Nothing is left to try long before the deadline.
    let t = Theory::parse("theory C\nfunc * : 2\naxiom c: x * y = y * x\n", "c.bk").unwrap();
    let g = parse_formula(&t.sig, "(x * y) * z = x * (y * z)", "goal").unwrap();
    let opts = Options {
        timeout: Duration::from_secs(60),
        ..Options::default()
    };
    let a = prove_with(
        &t,
        &g,
        &opts,
        &[
            Strategy::Saturation { time_share: 50 },
            Strategy::Countermodel {
                min_size: 1,
                max_size: 1,
                time_share: 100,
            },
        ],
    )
    .unwrap();
    assert!(matches!(a.verdict, Verdict::Unknown));
    assert_eq!(a.attempts.len(), 2, "nothing is retried: {:?}", a.attempts);
    assert!(
        a.unknown_because
            .as_deref()
            .is_some_and(|w| w.starts_with("every strategy finished for good")),
        "{a:?}"
    );
}

#[test]
fn monoids_of_exponent_3_are_refuted_by_the_heisenberg_group_of_order_27() {
    // The smallest noncommutative monoid of exponent 3 has 27 elements, beyond any size the
    // searches reach in time; the named structures of the literature have it.
    let mut t = seeds::load("monoid").unwrap();
    t.axioms.push(
        parse_formula(&t.sig, "x * (x * x) = e", "cube")
            .unwrap()
            .into(),
    );
    let goal = parse_formula(&t.sig, "x * y = y * x", "goal").unwrap();
    let a = prove(&t, &goal, &opts()).unwrap();
    match &a.verdict {
        Verdict::Disproved { model, witness } => {
            assert_eq!(model.sizes, [27]);
            assert!(eval::check(&t, model).is_ok());
            assert!(eval::falsify(&t.sig, model, &goal).is_some() && !witness.is_empty());
        }
        v => panic!("expected the Heisenberg group, got {v:?}"),
    }
    let decided = a.attempts.last().unwrap();
    assert!(matches!(decided.strategy, Strategy::Known { .. }));
    assert!(decided.result.contains("Heisenberg"), "{}", decided.result);
}

#[test]
fn the_countermodel_lane_runs_beside_a_proof_search_that_takes_all_the_time() {
    // Completion on Moufang loops with associativity as its goal goes on until its deadline: the
    // smallest nonassociative Moufang loop has 12 elements. Run one after the other, the
    // countermodel search after completion would get no time; side by side, it finds that loop
    // while completion runs, and its answer stops completion.
    let t = seeds::load("moufang_loop").unwrap();
    let g = parse_formula(&t.sig, "(x * y) * z = x * (y * z)", "goal").unwrap();
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let plan = [
        Strategy::Completion { time_share: 100 },
        Strategy::Countermodel {
            min_size: 1,
            max_size: 12,
            time_share: 100,
        },
    ];
    let a = prove_with(&t, &g, &opts, &plan).unwrap();
    match &a.verdict {
        Verdict::Disproved { model, .. } => {
            assert_eq!(model.sizes, [12]);
            assert!(eval::check(&t, model).is_ok());
            assert!(eval::falsify(&t.sig, model, &g).is_some());
        }
        other => panic!(
            "expected the Moufang loop of order 12, got {other:?}: {:?}",
            a.attempts
        ),
    }
    // Both ran, completion stopped by the countermodel rather than by its clock; the deciding
    // attempt is listed last.
    assert_eq!(a.attempts.len(), 2, "{:?}", a.attempts);
    assert!(matches!(
        a.attempts[0].strategy,
        Strategy::Completion { .. }
    ));
    assert!(
        a.attempts[0]
            .result
            .contains("was stopped before its time limit"),
        "{:?}",
        a.attempts
    );
    assert!(matches!(
        a.attempts[1].strategy,
        Strategy::Countermodel { .. }
    ));
}

/// An existence statement is proved through a witness guessed from the small models
/// (`Strategy::Witness`): a lattice's least upper bound of two elements, under the order
/// `x = x ^ y`, is their join, which the answer names; neither E nor Z3 proves the statement as
/// it stands in seconds. The witness plan alone (without E and Z3 on the statement itself) still
/// proves it, and an existence statement that fails in a small lattice is disproved, never
/// proved through a witness.
#[cfg(feature = "z3")]
#[test]
fn existence_statements_are_proved_through_a_witness_from_the_small_models() {
    let lattice = seeds::load("lattice").unwrap();
    let least_upper_bound = parse_formula(
        &lattice.sig,
        "exists j. x = x ^ j & y = y ^ j & (all z. x = x ^ z & y = y ^ z -> j = j ^ z)",
        "joins",
    )
    .unwrap();
    let o = Options {
        timeout: Duration::from_secs(10),
        ..Options::default()
    };
    let a = prove_with(
        &lattice,
        &least_upper_bound,
        &o,
        &[Strategy::Witness { time_share: 100 }],
    )
    .unwrap();
    match &a.verdict {
        Verdict::ProvedByZ3 { detail } => assert!(
            detail.contains("witness j := x v y") || detail.contains("witness j := y v x"),
            "{detail}"
        ),
        other => panic!("{other:?} after {:?}", a.attempts),
    }
    // x is below y for some j only when x ≤ y: false in the two-element lattice.
    assert!(matches!(
        answer(&lattice, "exists j. x = j ^ y"),
        Verdict::Disproved { .. }
    ));
    let no_witness = parse_formula(&lattice.sig, "exists j. x = j ^ y", "g").unwrap();
    let a = prove_with(
        &lattice,
        &no_witness,
        &o,
        &[Strategy::Witness { time_share: 100 }],
    )
    .unwrap();
    assert!(matches!(a.verdict, Verdict::Unknown), "{:?}", a.verdict);
    assert!(
        a.attempts[0]
            .result
            .contains("no term up to depth 2 is a witness"),
        "{:?}",
        a.attempts
    );
}
