//! Certificates that cite statements proved before: the nested form (each citation carries its
//! own citations) and the flat one (`Certificate::flattened`: each statement once, before those
//! that use it) replay alike, the flat one stays linear where the nested one doubles, and a flat
//! list in which a citation uses itself or a later one is refused.

use birkhoff_checker::prover::certificate::{
    self, check, goal_sides, Binding, Certificate, Cited, Direction, Justification, Step,
};
use birkhoff_checker::prover::readable::{recheck, render, Layout};
use birkhoff_engine::parse::{parse_formula, parse_theory};
use birkhoff_engine::signature::FuncId;
use birkhoff_engine::syntax::Term;
use birkhoff_engine::Theory;
use std::collections::HashSet;

/// Two unary operations that agree: every f-tower equals the g-tower of the same height.
fn twins() -> Theory {
    parse_theory(
        "theory Twins\nfunc f : 1\nfunc g : 1\naxiom ax: f(x) = g(x)\n",
        "twins.bk",
    )
    .unwrap()
}

/// `op` applied `n` times to `t`.
fn tower(op: u32, n: usize, t: Term) -> Term {
    (0..n).fold(t, |t, _| Term::App(FuncId(op), vec![t]))
}

/// Statement k (from 1): f^(k+1)(x) = g^(k+1)(x).
fn statement(k: usize) -> String {
    let side = |op: &str| (0..=k).fold("x".to_string(), |t, _| format!("{op}({t})"));
    format!("{} = {}", side("f"), side("g"))
}

/// A step by `axiom` (an equation in `x`) at `position`, with x := `x`, giving `result`.
fn step(axiom: &str, x: Term, direction: Direction, position: Vec<usize>, result: Term) -> Step {
    Step {
        by: Justification::Axiom {
            axiom: axiom.into(),
            part: 0,
            substitution: vec![Binding {
                var: "x".into(),
                term: x,
            }],
        },
        direction,
        position,
        result,
        text: String::new(),
    }
}

/// Statement k's certificate in the nested form. Statement 1 is proved from the axiom; statement
/// k from statement k - 1 ("proved statement 1", at the root with x := f(c)) and, for k ≥ 3,
/// statement k - 2 ("proved statement 2", there and back at 1.1): each level reuses the names
/// of the one below, and statement k - 2 is carried twice, so the nested size grows as the
/// Fibonacci numbers.
fn nested(t: &Theory, k: usize) -> Certificate {
    let goal = parse_formula(&t.sig, &statement(k), "goal").unwrap();
    let (constants, lhs, rhs) = goal_sides(&t.sig, &goal).unwrap();
    let c = Term::App(FuncId(2), vec![]);
    let (f, g) = (0, 1);
    let mut steps = Vec::new();
    let mut cited = Vec::new();
    let cite = |j: usize| Cited {
        name: format!("proved statement {}", k - j),
        statement: statement(j),
        certificate: nested(t, j),
    };
    if k == 1 {
        let fc = tower(f, 1, c.clone());
        steps.push(step(
            "ax",
            fc.clone(),
            Direction::LeftToRight,
            vec![],
            tower(g, 1, fc),
        ));
    } else {
        if k >= 3 {
            cited.push(cite(k - 2));
            let name = "proved statement 2";
            let detour = tower(f, 2, tower(g, k - 1, c.clone()));
            steps.push(step(
                name,
                c.clone(),
                Direction::LeftToRight,
                vec![0, 0],
                detour,
            ));
            steps.push(step(
                name,
                c.clone(),
                Direction::RightToLeft,
                vec![0, 0],
                lhs.clone(),
            ));
        }
        cited.insert(0, cite(k - 1));
        let fc = tower(f, 1, c.clone());
        steps.push(step(
            "proved statement 1",
            fc.clone(),
            Direction::LeftToRight,
            vec![],
            tower(g, k, fc),
        ));
    }
    steps.push(step(
        "ax",
        c,
        Direction::LeftToRight,
        vec![0; k],
        rhs.clone(),
    ));
    Certificate {
        theory: t.name.clone(),
        goal: statement(k),
        constants,
        lhs,
        rhs,
        cited,
        lemmas: Vec::new(),
        steps,
    }
}

fn size(cert: &Certificate) -> usize {
    serde_json::to_string(cert).unwrap().len()
}

#[test]
fn a_flattened_certificate_replays_and_stays_linear_where_the_nested_one_doubles() {
    let t = twins();
    let k = 16;
    let goal = parse_formula(&t.sig, &statement(k), "goal").unwrap();
    let deep = nested(&t, k);
    check(&t, &goal, &deep).expect("the nested form replays");
    let flat = deep.clone().flattened();
    check(&t, &goal, &flat).expect("the flat form replays");
    // Statements 1 to k - 1, once each, none with citations of its own.
    assert_eq!(flat.cited.len(), k - 1);
    assert!(flat.cited.iter().all(|c| c.certificate.cited.is_empty()));
    let statements: HashSet<&str> = flat.cited.iter().map(|c| c.statement.as_str()).collect();
    assert_eq!(statements.len(), k - 1);
    assert!(
        size(&deep) > 50 * size(&flat),
        "nested {} bytes, flat {}",
        size(&deep),
        size(&flat)
    );
    // Flattening a flat certificate changes nothing.
    assert_eq!(flat.clone().flattened(), flat);
    // A reader is shown the two statements the chain uses, not what they rest on.
    let readable = render(&t, &goal, &flat, &Layout::default()).unwrap();
    assert_eq!(readable.cited.len(), 2, "{readable}");
    recheck(&t, &goal, &readable).unwrap();
}

#[test]
fn a_flat_citation_may_use_only_the_citations_before_it() {
    let t = twins();
    let k = 6;
    let goal = parse_formula(&t.sig, &statement(k), "goal").unwrap();
    let flat = nested(&t, k).flattened();
    check(&t, &goal, &flat).unwrap();
    // Every entry but the first uses the one before it: out of order, none replays.
    let mut reversed = flat.clone();
    reversed.cited.reverse();
    assert!(check(&t, &goal, &reversed).is_err());
    // An entry that uses itself.
    let mut circular = flat.clone();
    let own = circular.cited[2].name.clone();
    for s in &mut circular.cited[2].certificate.steps {
        if let Justification::Axiom { axiom, .. } = &mut s.by {
            if axiom != "ax" {
                axiom.clone_from(&own);
            }
        }
    }
    assert!(check(&t, &goal, &circular).is_err());
    // A false statement in the list, f(x) = x, cited under the name of a true one.
    let mut forged = flat.clone();
    forged.cited[0].statement = "f(x) = x".into();
    assert!(check(&t, &goal, &forged).is_err());
    // A statement the chain does not use is not cited to a reader.
    assert!(!certificate::cites(&flat, &flat.cited[0].name));
}

#[test]
fn a_flat_list_cited_inside_another_certificate_is_hoisted_with_its_names() {
    let t = twins();
    let k = 5;
    let inner = nested(&t, k).flattened();
    let first = inner.cited[0].name.clone();
    // The outer certificate proves statement k + 1 from statement k (whose certificate is the
    // flat one), and first cites, under the name the flat list gives statement 1, an unrelated
    // statement: hoisting must rename statement 1 and what uses it, or the list no longer replays.
    let reversed = parse_formula(&t.sig, "g(x) = f(x)", "goal").unwrap();
    let (constants, lhs, rhs) = goal_sides(&t.sig, &reversed).unwrap();
    let c = Term::App(FuncId(2), vec![]);
    let unrelated = Cited {
        name: first.clone(),
        statement: "g(x) = f(x)".into(),
        certificate: Certificate {
            theory: t.name.clone(),
            goal: "g(x) = f(x)".into(),
            constants,
            lhs,
            rhs: rhs.clone(),
            cited: Vec::new(),
            lemmas: Vec::new(),
            steps: vec![step("ax", c.clone(), Direction::RightToLeft, vec![], rhs)],
        },
    };
    let goal = parse_formula(&t.sig, &statement(k + 1), "goal").unwrap();
    let (constants, lhs, rhs) = goal_sides(&t.sig, &goal).unwrap();
    let fc = tower(0, 1, c.clone());
    let outer = Certificate {
        theory: t.name.clone(),
        goal: statement(k + 1),
        constants,
        lhs,
        rhs: rhs.clone(),
        cited: vec![
            unrelated,
            Cited {
                name: "statement k".into(),
                statement: statement(k),
                certificate: inner,
            },
        ],
        lemmas: Vec::new(),
        steps: vec![
            step(
                "statement k",
                fc.clone(),
                Direction::LeftToRight,
                vec![],
                tower(1, k + 1, fc),
            ),
            step("ax", c, Direction::LeftToRight, vec![0; k + 1], rhs),
        ],
    };
    check(&t, &goal, &outer).expect("the nested form replays");
    let flat = outer.flattened();
    assert!(flat.cited.iter().all(|c| c.certificate.cited.is_empty()));
    check(&t, &goal, &flat).expect("the hoisted list replays");
}
