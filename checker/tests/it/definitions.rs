//! Equivalence through definitions (`prover::definitions`): a theory with extra operations that
//! are terms in its others is the leaner theory's class; each of the three proved steps is
//! needed, and a step that fails leaves the answer "not shown".

use birkhoff_checker::{
    prover::{
        definitions::{by_common_extension, by_definitions, may_extend},
        equivalence::{Relation, Side},
        Options,
    },
    Budget,
};
use birkhoff_engine::Theory;
use std::time::Duration;

const DIVISIONS: &str = "func * : 2\nfunc \\ : 2\nfunc / : 2\naxiom a: x \\ (x * y) = y\naxiom b: x * (x \\ y) = y\naxiom c: x * y / y = x\naxiom d: x / y * y = x\n";

/// Groups with an inverse and an identity.
const GROUP: &str = "func * : 2\nfunc inv : 1\nconst e\naxiom a: (x * y) * z = x * (y * z)\naxiom l: e * x = x\naxiom r: x * e = x\naxiom li: inv(x) * x = e\naxiom ri: x * inv(x) = e\n";

fn theory(name: &str, body: &str) -> Theory {
    Theory::parse(&format!("theory {name}\n{body}"), "test.bk").unwrap()
}

fn side(t: &Theory) -> Side<'_> {
    Side::new(
        t,
        3,
        &Budget {
            time: Some(Duration::from_secs(5)),
            nodes: None,
            models: None,
            cancel: None,
            progress: None,
        },
    )
    .unwrap()
}

fn opts() -> Options {
    Options {
        timeout: Duration::from_secs(5),
        max_size: 4,
        z3: false,
        ..Options::default()
    }
}

/// Totally symmetric quasigroups written with both divisions, which both equal `*`.
fn with_divisions() -> Theory {
    theory("WithDivisions", &format!("{DIVISIONS}axiom e: x / y = y / x\naxiom f: x \\ (x / y) = y\naxiom h: x * y = y * x\n"))
}

#[test]
fn totally_symmetric_quasigroups_with_divisions_are_totally_symmetric_quasigroups() {
    let rich = with_divisions();
    let lean = theory(
        "TSQ",
        "func * : 2\naxiom c: x * y = y * x\naxiom s: x * (x * y) = y\n",
    );
    assert!(may_extend(&rich, &lean) && !may_extend(&lean, &rich));
    let s = side(&rich);
    let Some(Relation::Defined {
        rich: r,
        lean: l,
        definitions,
        proofs,
        ..
    }) = by_definitions(&s, &lean, &opts()).unwrap()
    else {
        panic!("not shown the same class")
    };
    assert_eq!((r.as_str(), l.as_str()), ("WithDivisions", "TSQ"));
    let equations: Vec<&str> = definitions.iter().map(|d| d.equation.as_str()).collect();
    assert_eq!(equations, ["x \\ y = x * y", "x / y = x * y"]);
    // Two axioms of TSQ, two definitions, seven axioms of the richer theory.
    assert_eq!(proofs.len(), 2 + 2 + 7, "{proofs:?}");
    assert!(
        proofs
            .iter()
            .all(|p| p.evidence == "shared" || p.evidence == "certificate"),
        "{proofs:?}"
    );
    // Each definition is proved in the richer theory, not only seen in its small models.
    let defs: Vec<_> = proofs
        .iter()
        .filter(|p| p.axiom.starts_with("definition_of_"))
        .collect();
    assert!(
        defs.len() == 2
            && defs
                .iter()
                .all(|p| p.by == "WithDivisions" && p.evidence == "certificate" && p.steps > 0),
        "{proofs:?}"
    );
}

#[test]
fn definitions_that_hold_do_not_make_a_weaker_theory_the_same_class() {
    // The richer theory implies commutative magmas and defines both divisions as `*`, but a
    // commutative magma with those definitions is not a totally symmetric quasigroup: the third
    // step fails (x * (x * y) = y does not follow), so nothing is shown.
    let rich = with_divisions();
    let commutative = theory("CommutativeMagma", "func * : 2\naxiom c: x * y = y * x\n");
    assert!(by_definitions(&side(&rich), &commutative, &opts())
        .unwrap()
        .is_none());
    // Quasigroups' divisions are no terms in `*`: no definition, nothing shown.
    let quasigroup = theory("Quasigroup", DIVISIONS);
    let magma = theory("Magma", "func * : 2\n");
    assert!(by_definitions(&side(&quasigroup), &magma, &opts())
        .unwrap()
        .is_none());
    // A theory that does not imply the leaner one is not its class either.
    let idempotent = theory("Idempotent", "func * : 2\naxiom i: x * x = x\n");
    assert!(by_definitions(&side(&rich), &idempotent, &opts())
        .unwrap()
        .is_none());
}

#[test]
fn only_richer_one_sorted_signatures_may_extend() {
    let group = theory("G", "func * : 2\nfunc inv : 1\nconst e\n");
    let monoid = theory("M", "func * : 2\nconst e\n");
    let rel = theory("R", "func * : 2\nfunc inv : 1\nconst e\nrel <= : 2\n");
    assert!(
        may_extend(&group, &monoid) && !may_extend(&monoid, &group) && !may_extend(&group, &group)
    );
    assert!(!may_extend(&rel, &monoid), "relations must correspond");
    let sorted = Theory::parse(
        "theory S\nsort A\nsort B\nfunc f : A -> B\nfunc g : A -> B\n",
        "s.bk",
    )
    .unwrap();
    let lean = Theory::parse("theory S\nsort A\nsort B\nfunc f : A -> B\n", "s.bk").unwrap();
    assert!(!may_extend(&sorted, &lean), "one-sorted theories only");
}

#[test]
fn a_definition_is_found_past_wrong_terms_that_only_larger_models_refute() {
    // Commutative distributive quasigroups have models of odd order only, and at orders 1 and 3
    // (x * y = -(x + y) mod 3) the wrong terms x * y, y * x and x / y all equal x \ y. Each is
    // refuted at order 5, beyond the small models and beyond these options' max_size of 4, and
    // the right one, y / x, is proved: commutative racks are this class.
    let rich = theory(
        "CommutativeDistributiveQuasigroup",
        &format!("{DIVISIONS}axiom h: x * y = y * x\naxiom r: (y * z) * x = (y * x) * (z * x)\n"),
    );
    let lean = theory("CommutativeRack", "func * : 2\nfunc / : 2\naxiom rsd: x * y * z = x * z * (y * z)\naxiom a: x * y / y = x\naxiom b: x / y * y = x\naxiom c: x * y = y * x\n");
    assert!(side(&rich).models.iter().all(|m| m.sizes[0] <= 3));
    let Some(Relation::Defined { definitions, .. }) =
        by_definitions(&side(&rich), &lean, &opts()).unwrap()
    else {
        panic!("not shown the same class")
    };
    let equations: Vec<&str> = definitions.iter().map(|d| d.equation.as_str()).collect();
    assert_eq!(equations, ["x \\ y = y / x"]);
}

#[test]
fn a_constant_is_defined_by_a_term_whose_value_the_leaner_theory_proves_constant() {
    // Semigroups with y * (x * y) = x are Boolean groups: inv(x) = x and e = x * x, and the
    // semigroup axioms prove x * x = y * y, so every such semigroup has the identity.
    let rich = theory("BooleanGroup", &format!("{GROUP}axiom two: x * x = e\n"));
    let lean = theory(
        "SemisymmetricSemigroup",
        "func * : 2\naxiom a: (x * y) * z = x * (y * z)\naxiom s: y * (x * y) = x\n",
    );
    let Some(Relation::Defined {
        definitions,
        proofs,
        ..
    }) = by_definitions(&side(&rich), &lean, &opts()).unwrap()
    else {
        panic!("not shown the same class")
    };
    let equations: Vec<&str> = definitions.iter().map(|d| d.equation.as_str()).collect();
    assert_eq!(equations, ["inv(x) = x", "e = x * x"]);
    assert!(
        proofs
            .iter()
            .any(|p| p.axiom == "definition_of_e_is_constant"
                && p.by == "SemisymmetricSemigroup"
                && p.evidence == "certificate"),
        "{proofs:?}"
    );

    // A constant map f(x) = c defines c = f(x), and idempotent maps (f(f(x)) = f(x)) with that
    // definition are constant maps; but an idempotent map need not be constant, so the constant
    // does not exist in every model of the leaner theory and nothing is shown.
    let constant_map = theory("ConstantMap", "func f : 1\nconst c\naxiom k: f(x) = c\n");
    let idempotent_map = theory("IdempotentMap", "func f : 1\naxiom i: f(f(x)) = f(x)\n");
    assert!(
        by_definitions(&side(&constant_map), &idempotent_map, &opts())
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_common_extension_by_definitions_relates_theories_that_each_have_a_symbol_the_other_lacks() {
    // Commutative semigroups with a right division and (x / y) / z = x / (y / z) have `/` and
    // no inverse or identity; Boolean groups have those and no `/`. With x / y = x * y the Boolean
    // groups have every operation of the other theory, which then defines inv(x) = x, e = x * x.
    let boolean_group = theory("BooleanGroup", &format!("{GROUP}axiom two: x * x = e\n"));
    let divided = theory("Divided", "func * : 2\nfunc / : 2\naxiom a: (x * y) * z = x * (y * z)\naxiom c: x * y / y = x\naxiom d: x / y * y = x\naxiom s: x / y / z = x / (y / z)\naxiom k: x * y = y * x\n");
    let (b, d) = (side(&boolean_group), side(&divided));
    assert!(!may_extend(&boolean_group, &divided) && !may_extend(&divided, &boolean_group));
    let Some(Relation::Defined {
        rich, definitions, ..
    }) = by_common_extension(&d, &b, &opts()).unwrap()
    else {
        panic!("not shown the same class")
    };
    assert_eq!(rich, "BooleanGroup with `x / y = x * y`");
    let equations: Vec<&str> = definitions.iter().map(|d| d.equation.as_str()).collect();
    assert_eq!(equations, ["inv(x) = x", "e = x * x"]);
    // Without commutativity and the law of `/`, these are left groups (a left zero semigroup
    // times a group): groups with x / y = x * inv(y) satisfy their axioms, but the definitions
    // e = x / x and inv(x) = e / x do not make every left group a group.
    let left_group = theory("LeftGroup", "func * : 2\nfunc / : 2\naxiom a: (x * y) * z = x * (y * z)\naxiom c: x * y / y = x\naxiom d: x / y * y = x\n");
    let group = theory("Group", GROUP);
    assert!(
        by_common_extension(&side(&left_group), &side(&group), &opts())
            .unwrap()
            .is_none()
    );
}
