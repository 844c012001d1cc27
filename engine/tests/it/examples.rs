//! The named structures of `birkhoff_engine::examples` are what their descriptions say: each is
//! a model of its class, by the evaluator, and every property it claims holds or fails as
//! claimed; the orders are the literature's.

use birkhoff_engine::parse::parse_formula;
use birkhoff_engine::{eval, examples};

#[test]
fn every_example_is_a_model_of_its_class_with_the_properties_it_claims() {
    let all = examples::all();
    for x in all {
        x.model.validate(&x.theory.sig).unwrap();
        if let Err(v) = eval::check(&x.theory, &x.model) {
            panic!("{} is not a model of {}: {v:?}", x.name, x.theory.name);
        }
        assert!(!x.claims.is_empty(), "{}: nothing claimed", x.name);
        for &(claim, holds) in x.claims {
            let f = parse_formula(&x.theory.sig, claim, "claim").unwrap();
            assert_eq!(
                eval::holds(&x.theory.sig, &x.model, &f),
                holds,
                "{}: {claim}",
                x.name
            );
        }
    }
    // The orders the descriptions give.
    let order = |name: &str| all.iter().find(|x| x.name == name).unwrap().model.sizes[0];
    for (name, n) in [
        ("symmetric_3", 6),
        ("dihedral_4", 8),
        ("quaternion_8", 8),
        ("alternating_4", 12),
        ("heisenberg_3", 27),
        ("moufang_12", 12),
        ("commutative_moufang_81", 81),
        ("distributive_nonmedial_81", 81),
        ("full_transformations_3", 27),
        ("brandt_2", 5),
        ("pentagon", 5),
        ("diamond", 5),
        ("matrices_2_f2", 16),
        ("gf_4", 4),
    ] {
        assert_eq!(order(name), n, "{name}");
    }
    let mut names: Vec<&str> = all.iter().map(|x| x.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all.len(), "names are unique");
}
