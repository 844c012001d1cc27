//! Canonical forms identify theories exactly up to renaming of sorts, symbols and variables, and
//! axiom order, names and duplicates; and nothing more.

use birkhoff_engine::canon::{
    canonical_form, canonical_tokens, equal_up_to_renaming, AxiomSet, CanonError, FormIndex,
};
use birkhoff_engine::moves::{self, transfer::Pair};
use birkhoff_engine::{seeds, Theory};

fn th(s: &str) -> Theory {
    Theory::parse(s, "t.bk").unwrap()
}

#[test]
fn renamed_reordered_duplicated_theories_are_equal() {
    let g = seeds::load("group").unwrap();
    let h = th("theory H\nfunc o : 2 infix left 60\nfunc j : 1\nconst u\naxiom a: j(b) o b = u\naxiom b: u o a = a\naxiom c: a o (b o c) = (a o b) o c\naxiom d: b = b o u\naxiom e: a o j(a) = u\naxiom f: u o b = b");
    assert!(equal_up_to_renaming(&g, &h).unwrap());
}

#[test]
fn symbols_of_one_profile_are_matched_by_their_role() {
    // Swapping the two operations of a ring is a renaming; the result is the same theory.
    let r = seeds::load("ring_unital").unwrap();
    let mut s = r.clone();
    let (p, m) = (
        s.sig.func("+").unwrap().0 as usize,
        s.sig.func("*").unwrap().0 as usize,
    );
    let sig = std::sync::Arc::make_mut(&mut s.sig);
    let name = sig.funcs[p].name.clone();
    sig.funcs[p].name = sig.funcs[m].name.clone();
    sig.funcs[m].name = name;
    s.axioms.reverse();
    assert_ne!(s.to_text(), r.to_text());
    assert!(equal_up_to_renaming(&r, &s).unwrap());
}

#[test]
fn different_theories_differ() {
    let pairs = [
        ("semigroup", "comm_semigroup"),
        ("group", "abelian_group"),
        ("monoid", "semigroup"),
        ("quandle", "rack"),
        ("lattice", "modular_lattice"),
    ];
    for (a, b) in pairs {
        assert!(
            !equal_up_to_renaming(&seeds::load(a).unwrap(), &seeds::load(b).unwrap()).unwrap(),
            "{a} {b}"
        );
    }
    // left vs right identity: same shape, mirrored
    assert!(!equal_up_to_renaming(
        &th("theory A\nfunc * : 2\nconst e\naxiom l: e * x = x"),
        &th("theory B\nfunc * : 2\nconst e\naxiom r: x * e = x")
    )
    .unwrap());
    // the variable pattern matters
    assert!(!equal_up_to_renaming(
        &th("theory A\nfunc * : 2\naxiom l: x * y = y * x"),
        &th("theory B\nfunc * : 2\naxiom r: x * y = x * x")
    )
    .unwrap());
}

#[test]
fn every_seed_has_a_form_and_seeds_are_pairwise_distinct() {
    let forms: Vec<_> = seeds::all()
        .iter()
        .map(|s| canonical_form(&seeds::load(s.name).unwrap()).unwrap())
        .collect();
    for i in 0..forms.len() {
        for j in i + 1..forms.len() {
            assert_ne!(
                forms[i],
                forms[j],
                "{} {}",
                seeds::all()[i].name,
                seeds::all()[j].name
            );
        }
    }
}

#[test]
fn too_many_interchangeable_symbols_is_an_error_not_a_guess() {
    let consts: String = (0..10).map(|i| format!("const c{i}\n")).collect();
    let t = th(&format!("theory C\nfunc * : 2\n{consts}"));
    assert!(matches!(
        canonical_form(&t),
        Err(CanonError::TooSymmetric(..))
    ));
}

#[test]
fn forms_read_from_a_parents_encodings_are_the_forms_themselves() {
    // An exploration canonizes a move's results against their parent's encoded axioms; every
    // result of every move on every seed (into every seed, for the binary ones) must get the
    // form computed from scratch, including results that share no axiom with the "parent".
    let seeds: Vec<Theory> = seeds::all()
        .iter()
        .map(|s| seeds::load(s.name).unwrap())
        .collect();
    let sets: Vec<AxiomSet> = seeds.iter().map(AxiomSet::of).collect();
    let mut checked = 0;
    for (t, set) in seeds.iter().zip(&sets) {
        let binary = seeds
            .iter()
            .zip(&sets)
            .flat_map(|(b, b_set)| moves::binary_moves_of(&Pair::new(b, b_set, t, set)));
        for d in moves::unary_moves(t).into_iter().chain(binary) {
            assert_eq!(
                canonical_tokens(&d.theory, Some(set)),
                canonical_tokens(&d.theory, None),
                "{}",
                d.theory.name
            );
            checked += 1;
        }
        assert_eq!(
            canonical_tokens(&seeds[0], Some(set)),
            canonical_tokens(&seeds[0], None)
        );
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn a_form_index_finds_exactly_the_forms_stored() {
    // Stored packed, asked unpacked: every seed's form is found after it is stored, and only then.
    let forms: Vec<_> = seeds::all()
        .iter()
        .map(|s| canonical_tokens(&seeds::load(s.name).unwrap(), None).unwrap())
        .collect();
    let mut index = FormIndex::default();
    for (i, f) in forms.iter().enumerate() {
        assert_eq!(index.get(f), None, "{}", seeds::all()[i].name);
        assert_eq!(index.get_or_insert(f.packed(), i), i);
        assert_eq!(index.get_or_insert(f.packed(), i + 1000), i);
    }
    for (i, f) in forms.iter().enumerate() {
        assert_eq!(index.get(f), Some(i));
    }
    assert_eq!(index.len(), forms.len());
}

#[test]
fn literal_equality_ignores_names_and_order_but_not_symbols() {
    use birkhoff_engine::canon::{literal_hash, literally_equal};
    let a =
        th("theory A\nfunc * : 2\nconst e\naxiom assoc: (x*y)*z = x*(y*z)\naxiom left: e * x = x");
    let b = th("theory B\nfunc * : 2\nconst e\naxiom l: e * y = y\naxiom a: (u*v)*w = u*(v*w)\naxiom l2: e * z = z");
    assert!(literally_equal(&a, &b) && literally_equal(&b, &a));
    assert_eq!(literal_hash(&a, None), literal_hash(&b, None));
    let unequal = [
        // another symbol name, order of declarations, formula, variable pattern, one axiom fewer,
        // one axiom more (the others at the same positions)
        "theory C\nfunc o : 2 infix left 60\nconst e\naxiom assoc: (x o y) o z = x o (y o z)\naxiom left: e o x = x",
        "theory C\nconst e\nfunc * : 2\naxiom assoc: (x*y)*z = x*(y*z)\naxiom left: e * x = x",
        "theory C\nfunc * : 2\nconst e\naxiom assoc: (x*y)*z = x*(y*z)\naxiom right: x * e = x",
        "theory C\nfunc * : 2\nconst e\naxiom assoc: (x*y)*z = x*(y*x)\naxiom left: e * x = x",
        "theory C\nfunc * : 2\nconst e\naxiom assoc: (x*y)*z = x*(y*z)",
        "theory C\nfunc * : 2\nconst e\naxiom assoc: (x*y)*z = x*(y*z)\naxiom left: e * x = x\naxiom right: x * e = x",
    ];
    for c in unequal.map(th) {
        assert!(
            !literally_equal(&a, &c) && !literally_equal(&c, &a),
            "{}",
            c.to_text()
        );
    }
}

#[test]
fn literally_equal_move_results_have_one_form_and_hashes_read_from_a_parent_are_their_own() {
    use birkhoff_engine::canon::{literal_hash, literally_equal};
    use std::collections::HashMap;
    let seeds: Vec<Theory> = seeds::all()
        .iter()
        .map(|s| seeds::load(s.name).unwrap())
        .collect();
    let sets: Vec<AxiomSet> = seeds.iter().map(AxiomSet::of).collect();
    let mut by_hash: HashMap<u64, Vec<Theory>> = HashMap::new();
    for (t, set) in seeds.iter().zip(&sets) {
        let binary = seeds
            .iter()
            .zip(&sets)
            .flat_map(|(b, b_set)| moves::binary_moves_of(&Pair::new(b, b_set, t, set)));
        for d in moves::unary_moves(t).into_iter().chain(binary) {
            let h = literal_hash(&d.theory, Some(set));
            assert_eq!(h, literal_hash(&d.theory, None), "{}", d.theory.name);
            by_hash.entry(h).or_default().push(d.theory);
        }
    }
    let mut pairs = 0;
    for group in by_hash.values() {
        for (i, a) in group.iter().enumerate() {
            for b in &group[i + 1..] {
                if literally_equal(a, b) {
                    assert_eq!(
                        canonical_form(a),
                        canonical_form(b),
                        "{} {}",
                        a.name,
                        b.name
                    );
                    pairs += 1;
                }
            }
        }
    }
    assert!(pairs > 100, "{pairs}");
}
