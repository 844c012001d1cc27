//! The moves reach known theories from seeds, keep every axiom they do not declare dropped, and
//! produce sort-checked results. "Reaches" here means: equal to the seed up to renaming of sorts,
//! symbols and variables and up to axiom order, names and duplicates (`canon::equal_up_to_renaming`),
//! which is a syntactic identity of axiom sets, not merely equivalence.

use birkhoff_engine::canon::{equal_up_to_renaming, has_axiom};
use birkhoff_engine::moves::{
    self, complete, deform, dualize, generalize, internalize, quotient, self_distrib, transfer,
    Move,
};
use birkhoff_engine::{seeds, Theory};

fn seed(n: &str) -> Theory {
    seeds::load(n).unwrap()
}

fn same(a: &Theory, b: &Theory) -> bool {
    equal_up_to_renaming(a, b).unwrap()
}

#[test]
fn semigroup_complete_reaches_monoid_then_group() {
    let m = complete::complete(&seed("semigroup"), "identity", "*").unwrap();
    assert_eq!(m.provenance.mv, Move::Complete);
    assert!(same(&m.theory, &seed("monoid")), "{}", m.theory.to_text());
    let g = complete::complete(&m.theory, "inverse", "*").unwrap();
    assert!(same(&g.theory, &seed("group")), "{}", g.theory.to_text());
    assert!(!same(&m.theory, &seed("group")));
    // inverses need an identity
    assert!(complete::complete(&seed("semigroup"), "inverse", "*").is_err());
}

#[test]
fn complete_one_operation_laws_reach_the_standard_varieties() {
    // Each law added to a seed gives the catalogue's class with that law, literally (up to
    // renaming): a law built wrongly (another bracketing, a swapped side) misses it.
    let entry = |n: &str| birkhoff_engine::catalogue::load(n).unwrap();
    for (base, law, class) in [
        ("loop", "flexible", "flexible_loop"),
        ("magma", "left_zero", "left_zero_semigroup"),
        ("semigroup", "medial", "medial_semigroup"),
        ("quasigroup", "medial", "medial_quasigroup"),
        ("magma", "semisymmetric", "semisymmetric_quasigroup"),
        ("quasigroup", "unipotent", "unipotent_quasigroup"),
        ("band", "left_regular", "left_regular_band"),
        ("band", "normal", "normal_band"),
        ("magma", "null", "null_semigroup"),
    ] {
        let d = complete::complete(&seed(base), law, "*")
            .unwrap_or_else(|e| panic!("{law} on {base}: {e}"));
        assert!(
            same(&d.theory, &entry(class)),
            "{base} + {law} is not {class}:\n{}",
            d.theory.to_text()
        );
    }
    // The mirror laws are other classes, and a law already there is not added again.
    let right = complete::complete(&seed("magma"), "right_zero", "*").unwrap();
    assert!(!same(&right.theory, &entry("left_zero_semigroup")));
    assert!(
        right.theory.to_text().contains("x * y = y"),
        "{}",
        right.theory.to_text()
    );
    let rr = complete::complete(&seed("band"), "right_regular", "*").unwrap();
    assert!(!same(&rr.theory, &entry("left_regular_band")));
    let null = complete::complete(&seed("magma"), "null", "*").unwrap();
    assert!(
        complete::complete(&null.theory, "null", "*").is_err(),
        "already null"
    );
    assert!(
        complete::complete(&entry("medial_quasigroup"), "medial", "*").is_err(),
        "already medial"
    );
}

#[test]
fn complete_reaches_the_classes_of_the_literature_families() {
    // Laws of the families (moves::families) added one after another to a seed give the
    // catalogue's class, literally (up to renaming): a word or bracketing built wrongly misses it.
    let entry = |n: &str| birkhoff_engine::catalogue::load(n).unwrap();
    let moufang = seed("moufang_loop");
    for (base, laws, class) in [
        ("loop", &["left_bol"][..], entry("left_bol_loop")),
        ("loop", &["right_bol"], entry("right_bol_loop")),
        ("loop", &["moufang"], moufang.clone()),
        ("loop", &["c_identity"], entry("c_loop")),
        ("loop", &["extra"], entry("extra_loop")),
        (
            "loop",
            &["left_inverse_property"],
            entry("left_inverse_property_loop"),
        ),
        (
            "loop",
            &["right_inverse_property"],
            entry("right_inverse_property_loop"),
        ),
        (
            "loop",
            &["left_inverse_property", "right_inverse_property"],
            entry("inverse_property_loop"),
        ),
        (
            "loop",
            &[
                "left_inverse_property",
                "right_inverse_property",
                "automorphic_inverse",
            ],
            entry("aip_loop"),
        ),
        (
            "loop",
            &["left_bol", "automorphic_inverse"],
            entry("bruck_loop"),
        ),
        ("rack", &["involutory"], entry("involutory_rack")),
        ("quandle", &["involutory"], entry("involutory_quandle")),
        (
            "quandle",
            &["two_reductive"],
            entry("two_reductive_quandle"),
        ),
    ] {
        let mut t = seed(base);
        for law in laws {
            t = complete::complete(&t, law, "*")
                .unwrap_or_else(|e| panic!("{law} on {}: {e}", t.name))
                .theory;
        }
        assert!(
            same(&t, &class),
            "{base} + {laws:?} is not {}:\n{}",
            class.name,
            t.to_text()
        );
    }
    // Every identity of Bol-Moufang type is offered to a loop, and no two are the same law.
    let lp = seed("loop");
    let (mul, s) = moves::find_binary(&lp.sig, "*").unwrap();
    let names: Vec<String> = moves::families::bol_moufang(mul, s)
        .into_iter()
        .map(|l| l.axiom.name)
        .collect();
    let family: Vec<_> = complete::all(&lp)
        .into_iter()
        .filter(|d| {
            d.provenance
                .params()
                .any(|(k, v)| k == "law" && names.iter().any(|n| n == v))
        })
        .collect();
    assert_eq!(family.len(), 60);
    for (i, a) in family.iter().enumerate() {
        let law = a.theory.axioms.last().unwrap();
        for b in &family[i + 1..] {
            assert!(!has_axiom(&b.theory, law), "{} twice", law.name);
        }
    }
    // A law the theory has is not offered again, and an associative operation gets none of them.
    assert!(complete::complete(&moufang, "moufang", "*").is_err());
    assert!(complete::complete(&moufang, "left_bol", "*").is_ok());
    assert!(complete::complete(&seed("group"), "left_bol", "*").is_err());
    assert!(complete::complete(&seed("quasigroup"), "extra", "*").is_ok());
    // Clifford semigroups are reached from inverse semigroups, modular lattices from lattices.
    assert!(complete::complete(&seed("inverse_semigroup"), "inv_commutes", "*").is_ok());
    assert!(complete::complete(&seed("lattice"), "modular", "^").is_ok());
}

#[test]
fn complete_reaches_nonassociative_rings_semidistributive_lattices_and_short_semigroup_identities()
{
    let entry = |n: &str| birkhoff_engine::catalogue::load(n).unwrap();
    let add = |t: &Theory, law: &str, op: &str| {
        complete::complete(t, law, op)
            .unwrap_or_else(|e| panic!("{law} on {}: {e}", t.name))
            .theory
    };
    // Alternative rings: a ring's associativity weakened to the left alternative law, then the
    // right alternative law of the ring family.
    let left = deform::deform(&seed("ring"), "*", "left_alternative")
        .unwrap()
        .theory;
    let alternative = add(&left, "right_alternative", "*");
    assert!(
        same(&alternative, &entry("alternative_ring")),
        "{}",
        alternative.to_text()
    );
    // The family is offered to a multiplication over an abelian group only: not to `+`, and not
    // to a quasigroup's operation.
    assert!(complete::complete(&left, "jacobi", "+").is_err());
    assert!(complete::complete(&seed("quasigroup"), "jacobi", "*").is_err());
    // The alternative laws say nothing in an associative ring; x·x = 0 and Jacobi do.
    assert!(complete::complete(&seed("ring"), "left_alternative", "*").is_err());
    let jacobi = add(&add(&seed("ring"), "alternating", "*"), "jacobi", "*");
    assert!(
        jacobi
            .to_text()
            .contains("x * (y * z) + y * (z * x) + z * (x * y) = r0"),
        "{}",
        jacobi.to_text()
    );
    // Lie rings from a flexible ring: x·x = 0 and Jacobi, one after the other (flexibility stays
    // as a redundant axiom; the catalogue's lie_ring without it is a proper subset).
    let flexible = deform::deform(&seed("ring"), "*", "flexible")
        .unwrap()
        .theory;
    let lie = add(&add(&flexible, "alternating", "*"), "jacobi", "*");
    for a in &entry("lie_ring").axioms {
        assert!(has_axiom(&lie, a), "{} missing:\n{}", a.name, lie.to_text());
    }
    // Jordan rings: commutativity from the vocabulary, the Jordan identity from the family.
    let jordan = add(&add(&flexible, "commutative", "*"), "jordan", "*");
    for a in &entry("jordan_ring").axioms {
        assert!(
            has_axiom(&jordan, a),
            "{} missing:\n{}",
            a.name,
            jordan.to_text()
        );
    }
    // Semidistributive lattices: a quasi-identity on each side.
    let sd = add(&seed("lattice"), "meet_semidistributive", "^");
    assert!(
        sd.to_text()
            .contains("x ^ y = x ^ z -> x ^ y = x ^ (y v z)"),
        "{}",
        sd.to_text()
    );
    assert!(complete::complete(&seed("lattice"), "join_semidistributive", "^").is_ok());
    // Short semigroup identities: x = xyx makes a semigroup a rectangular band; each identity
    // is offered once, up to renaming and sides, and none that the vocabulary has.
    let rect = add(&seed("semigroup"), "x_is_xyx", "*");
    assert!(
        same(&rect, &entry("rectangular_band")),
        "{}",
        rect.to_text()
    );
    let (mul, s) = moves::find_binary(&seed("semigroup").sig, "*").unwrap();
    let ids = moves::families::semigroup_identities(mul, s);
    let names: Vec<&str> = ids.iter().map(|l| l.axiom.name.as_str()).collect();
    for expected in [
        "x_is_xyx",
        "xy_is_xzy",
        "xy_is_xxy",
        "xy_is_yz",
        "xx_is_xxx",
    ] {
        assert!(names.contains(&expected), "{expected} missing: {names:?}");
    }
    for vocabulary in ["xy_is_yx", "x_is_xx", "xx_is_yy", "xy_is_xyx"] {
        assert!(
            !names.contains(&vocabulary),
            "{vocabulary} is COMPLETE's own"
        );
    }
    for not_offered in [
        "y_is_yxy",
        "xyx_is_x",
        "yx_is_xy",
        "xz_is_xyz",
        "x_is_y",
        "x_is_yz",
    ] {
        assert!(
            !names.contains(&not_offered),
            "{not_offered}: not canonical, or trivial"
        );
    }
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            let [ta, tb] = [a, b].map(|l| {
                let mut t = seed("semigroup");
                t.axioms.push(std::sync::Arc::new(l.axiom.clone()));
                t
            });
            assert!(
                !same(&ta, &tb),
                "{} and {} are one law",
                a.axiom.name,
                b.axiom.name
            );
        }
    }
    // Only for a lone associative operation: not for a ring's or a lattice's.
    assert!(complete::complete(&seed("ring"), "x_is_xyx", "*").is_err());
    assert!(complete::complete(&seed("lattice"), "x_is_xyx", "^").is_err());
    assert!(complete::complete(&seed("group"), "xx_is_xxx", "*").is_ok());
    assert!(
        complete::complete(&seed("band"), "xyz_is_xzy", "*").is_err(),
        "length 6"
    );
    assert!(
        complete::complete(&seed("band"), "xy_is_xyx", "*").is_err(),
        "vocabulary"
    );
    assert!(
        complete::complete(&seed("band"), "xz_is_xyz", "*").is_err(),
        "not canonical"
    );
    assert!(complete::complete(&seed("band"), "xy_is_xzy", "*").is_ok());
    assert!(
        complete::complete(&seed("semilattice"), "xy_is_xzy", "*").is_err(),
        "a semilattice's subvarieties are trivial"
    );
}

#[test]
fn group_quotient_commutativity_reaches_abelian_group() {
    let a = quotient::quotient(&seed("group"), "commutative", "*").unwrap();
    assert!(same(&a.theory, &seed("abelian_group")));
    assert!(
        quotient::quotient(&a.theory, "commutative", "*").is_err(),
        "already commutative"
    );
    let e2 = quotient::quotient(&seed("group"), "exponent2", "*").unwrap();
    assert!(
        e2.theory.to_text().contains("x * x = e"),
        "{}",
        e2.theory.to_text()
    );
}

#[test]
fn magma_self_distrib_complete_reaches_quandle() {
    let sd = self_distrib::self_distrib(&seed("magma"), "*", "right").unwrap();
    let idem = complete::complete(&sd.theory, "idempotent", "*").unwrap();
    let q = complete::complete(&idem.theory, "right_division", "*").unwrap();
    assert!(same(&q.theory, &seed("quandle")), "{}", q.theory.to_text());
    // without idempotence, a rack
    let r = complete::complete(&sd.theory, "right_division", "*").unwrap();
    assert!(same(&r.theory, &seed("rack")));
    assert!(!same(&r.theory, &seed("quandle")));
}

#[test]
fn lattice_dualize_is_lattice_up_to_renaming() {
    let l = seed("lattice");
    let d = dualize::order_dual(&l, "^", "v").unwrap();
    assert_eq!(d.provenance.mv, Move::Dualize);
    assert!(same(&d.theory, &l));
    // The opposite of `^` is a lattice too, but only modulo commutativity (`(y v x) ^ x = x`):
    // that is equivalence, which the prover decides, not equality up to renaming.
    assert!(!same(&dualize::opposite(&l, "^").unwrap().theory, &l));
    // Associativity is its own opposite.
    assert!(same(
        &dualize::opposite(&seed("semigroup"), "*").unwrap().theory,
        &seed("semigroup")
    ));
}

#[test]
fn dualize_differs_from_quotient() {
    // The opposite of a left-identity magma is a right-identity magma: same number of axioms, none added.
    let t = Theory::parse("theory L\nfunc * : 2\nconst e\naxiom li: e * x = x", "l.bk").unwrap();
    let d = dualize::opposite(&t, "*").unwrap();
    assert_eq!(d.theory.axioms.len(), 1);
    assert!(
        d.theory.to_text().contains("x * e = x"),
        "{}",
        d.theory.to_text()
    );
    assert!(!same(&d.theory, &t));
    let r = Theory::parse("theory R\nfunc * : 2\nconst e\naxiom ri: x * e = x", "r.bk").unwrap();
    assert!(same(&d.theory, &r));
    for q in quotient::all(&t) {
        assert!(
            !same(&q.theory, &d.theory),
            "QUOTIENT {} equals DUALIZE",
            q.provenance.description()
        );
    }
    // Reversing `le` twice gives the poset back; once gives the same axioms with the conjuncts
    // of antisymmetry and transitivity in the other order, which equality up to renaming does
    // not identify (it does not reorder `&`).
    let p = seed("poset");
    let r = dualize::reverse(&p, "le").unwrap().theory;
    assert!(same(&dualize::reverse(&r, "le").unwrap().theory, &p));
}

#[test]
fn deform_declares_parameters_and_records_the_replaced_axiom() {
    let g = seed("group");
    let f = deform::deform(&g, "*", "moufang").unwrap();
    assert_eq!(f.theory.axioms.len(), g.axioms.len());
    assert!(f.theory.axiom("assoc").is_none());
    assert!(f.provenance.params().any(|p| p == ("axiom", "assoc")));
    let q = deform::deform(&seed("abelian_group"), "*", "q_commutative").unwrap();
    assert!(q.theory.sig.func("q").is_some(), "q is declared");
    assert!(
        Theory::parse(&q.theory.to_text(), "q.bk").is_ok(),
        "{}",
        q.theory.to_text()
    );
    // Commutative up to an automorphism: σ is declared with its inverse, so it is a bijection.
    let tw = deform::deform(&seed("abelian_group"), "*", "twisted_commutative").unwrap();
    let text = tw.theory.to_text();
    assert!(
        seed("abelian_group").axiom("commutative").is_some()
            && tw.theory.axiom("commutative").is_none(),
        "{text}"
    );
    for law in [
        "x * y = sigma(y * x)",
        "sigma(x * y) = sigma(x) * sigma(y)",
        "sigma(sigma_inv(x)) = x",
        "sigma_inv(sigma(x)) = x",
    ] {
        assert!(text.contains(law), "{law} missing from\n{text}");
    }
    let c = deform::up_to_central(&g, "left_inverse", "*").unwrap();
    assert!(c.theory.sig.func("c").is_some());
    assert!(
        deform::deform(&seed("magma"), "*", "flexible").is_err(),
        "nothing to deform"
    );
    // Moufang loop from loop: the loop has no assoc to deform, but TRANSFER of the Moufang law works.
}

#[test]
fn internalize_is_a_definitional_extension() {
    let g = seed("group");
    let c = internalize::internalize(&g, "conjugation", "*").unwrap();
    assert_eq!(c.theory.axioms.len(), g.axioms.len() + 1);
    assert!(
        c.theory.to_text().contains("conj(x, y) = inv(y) * x * y"),
        "{}",
        c.theory.to_text()
    );
    assert!(internalize::internalize(&seed("semigroup"), "commutator", "*").is_err());
    assert!(internalize::internalize(&seed("loop"), "associator", "*").is_ok());
}

#[test]
fn transfer_renames_every_axiom_and_loses_none() {
    let sl = seed("semilattice");
    let l = Theory::parse("theory TwoOps\nfunc ^ : 2 infix left 40\nfunc v : 2 infix left 35\naxiom absorb: x ^ (x v y) = x", "t.bk").unwrap();
    let map = [("*".to_string(), "v".to_string())].into_iter().collect();
    let t = transfer::transfer(&sl, &l, &map).unwrap();
    assert_eq!(t.theory.axioms.len(), 1 + sl.axioms.len());
    assert!(
        t.theory.to_text().contains("x v x = x"),
        "{}",
        t.theory.to_text()
    );
    assert_eq!(t.provenance.parents().count(), 2);
    // A source made by moves has a name like `Semilattice+idempotent(*)`; the carried axioms
    // still get names the parser reads back.
    let mut made = sl.clone();
    made.name = "Semilattice+idempotent(*)".into();
    let t = transfer::transfer(&made, &l, &map).unwrap();
    Theory::parse(&t.theory.to_text(), "t.bk")
        .unwrap_or_else(|e| panic!("{e}\n{}", t.theory.to_text()));
    assert!(
        t.theory
            .axiom("semilattice_idempotent_idempotent")
            .is_some(),
        "{}",
        t.theory.to_text()
    );
    let bad = [("*".to_string(), "nope".to_string())]
        .into_iter()
        .collect();
    assert!(transfer::transfer(&sl, &l, &bad).is_err());
    // arity mismatch is refused
    let g = seed("group");
    let m = [("*", "*"), ("inv", "*"), ("e", "e")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert!(transfer::transfer(&g, &seed("monoid"), &m).is_err());
}

#[test]
fn abstract_drops_and_finds_common_parts() {
    let g = seed("group");
    let d = generalize::drop_axiom(&g, "right_inverse").unwrap();
    assert_eq!(d.theory.axioms.len(), g.axioms.len() - 1);
    let c = generalize::common_part(&seed("semilattice"), &seed("band")).unwrap();
    assert!(same(&c.theory, &seed("band")));
    assert_eq!(c.provenance.parents().count(), 2);
    assert!(
        generalize::common_part(&seed("monoid"), &seed("band")).is_err(),
        "e has no image in Band"
    );
    // Dropping a defining axiom drops the symbol it defined: the reduct, not a free symbol.
    let sg = seed("semigroup");
    let with_sq = internalize::internalize(&sg, "square", "*").unwrap().theory;
    let def = with_sq
        .axioms
        .iter()
        .find(|a| !sg.axioms.iter().any(|b| b.name == a.name))
        .unwrap()
        .name
        .clone();
    let back = generalize::drop_axiom(&with_sq, &def).unwrap();
    assert!(same(&back.theory, &sg), "{}", back.theory.to_text());
    assert!(
        back.provenance
            .description()
            .contains("no other axiom mentions"),
        "{}",
        back.provenance.description()
    );
    // The common part loses the symbols only its lost axioms mentioned: idempotent magmas, not
    // idempotent magmas with a free operation `\` (which an agent run kept as a discovery).
    let a = Theory::parse(
        "theory A\nfunc * : 2\nfunc \\ : 2\naxiom i: x * x = x\naxiom l: x \\ (x * y) = y\n",
        "a.bk",
    )
    .unwrap();
    let b = Theory::parse(
        "theory B\nfunc * : 2\nfunc \\ : 2\naxiom i: x * x = x\n",
        "b.bk",
    )
    .unwrap();
    let c = generalize::common_part(&a, &b).unwrap();
    assert_eq!(
        c.theory
            .sig
            .funcs
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>(),
        ["*"],
        "{}",
        c.theory.to_text()
    );
    assert!(
        c.provenance
            .description()
            .contains("without `\\`, which no kept axiom mentions"),
        "{}",
        c.provenance.description()
    );
    // Symbols still used elsewhere stay: dropping associativity from a monoid keeps `e`.
    let m = generalize::drop_axiom(&seed("monoid"), "assoc")
        .unwrap()
        .theory;
    assert_eq!(m.sig.funcs.len(), seed("monoid").sig.funcs.len());
}

#[test]
fn every_move_on_every_seed_is_sort_checked_and_reparses() {
    for s in seeds::all() {
        let t = seeds::load(s.name).unwrap();
        for d in moves::unary_moves(&t) {
            moves::sort_check(&d.theory).unwrap();
            let back = Theory::parse(&d.theory.to_text(), "d.bk").unwrap_or_else(|e| {
                panic!(
                    "{}: {e}\n{}",
                    d.provenance.description(),
                    d.theory.to_text()
                )
            });
            assert!(same(&back, &d.theory), "{}", d.provenance.description());
            assert!(!d.provenance.description().is_empty());
        }
    }
}

/// The sort check names what is wrong: a symbol applied to too few arguments, a variable the
/// axiom does not declare, sides of different sorts.
#[test]
fn sort_check_names_the_ill_sorted_part() {
    use birkhoff_engine::syntax::{Formula, Term, VarId};
    use std::sync::Arc;
    let t = Theory::parse("theory T\nsort a\nsort b\nfunc * : a a -> a\nfunc f : a -> b\naxiom comm: all x:a y:a. x * y = y * x", "t.bk").unwrap();
    assert!(moves::sort_check(&t).is_ok());
    let star = t.sig.func("*").unwrap();
    let f = t.sig.func("f").unwrap();
    let x = || Term::Var(VarId(0));
    let cases = [
        (
            Formula::Eq(Term::App(star, vec![x()]), x()),
            "`*` takes 2 arguments, given 1",
        ),
        (
            Formula::Eq(Term::Var(VarId(7)), x()),
            "undeclared variable 7",
        ),
        (
            Formula::Eq(Term::App(f, vec![x()]), x()),
            "the sides of an equation have different sorts",
        ),
        (
            Formula::Eq(
                Term::App(f, vec![Term::App(f, vec![x()])]),
                Term::App(f, vec![x()]),
            ),
            "an argument of `f` has the wrong sort",
        ),
    ];
    for (formula, message) in cases {
        let mut bad = t.clone();
        Arc::make_mut(&mut bad.axioms[0]).formula = formula;
        let err = moves::sort_check(&bad).unwrap_err().to_string();
        assert!(err.contains(&format!("axiom comm: {message}")), "{err}");
    }
}

/// Axioms carried once and kept for other pairs (as an exploration does) give the very results
/// carried anew, and are shared between results: here, TRANSFER from each seed into the seeds and
/// their COMPLETE results (which keep the seed's symbols at the same indices). A carried axiom
/// whose name the target already uses is renamed in that result alone.
#[test]
fn carried_axioms_kept_for_reuse_give_the_results_carried_anew() {
    use birkhoff_engine::canon::AxiomSet;
    use std::sync::Arc;
    let bases: Vec<Theory> = ["semilattice", "group", "quandle", "ring"]
        .iter()
        .map(|n| seed(n))
        .collect();
    let mut targets: Vec<Theory> = ["semigroup", "lattice", "magma", "ring"]
        .iter()
        .map(|n| seed(n))
        .collect();
    targets.extend(
        targets
            .clone()
            .iter()
            .flat_map(complete::all)
            .map(|d| d.theory),
    );
    // A target already holding an axiom called as a carried one will be.
    let mut clash = seed("semigroup");
    clash.name = "Clash".into();
    Arc::make_mut(&mut clash.axioms[0]).name = "semilattice_idempotent".into();
    targets.push(clash);
    let kept = transfer::CarriedAxioms::default();
    let (mut results, mut shared) = (0, 0);
    for b in &bases {
        let b_set = AxiomSet::of(b);
        let mut seen: Vec<Arc<birkhoff_engine::Axiom>> = Vec::new();
        for t in &targets {
            let t_set = AxiomSet::of(t);
            let anew = transfer::all_into(&transfer::Pair::new(b, &b_set, t, &t_set));
            let reused =
                transfer::all_into(&transfer::Pair::new(b, &b_set, t, &t_set).reusing(&kept));
            assert_eq!(anew.len(), reused.len(), "{} into {}", b.name, t.name);
            for (x, y) in anew.iter().zip(&reused) {
                assert_eq!(x.theory.to_text(), y.theory.to_text());
                assert_eq!(x.provenance, y.provenance);
                let carried = &y.theory.axioms[t.axioms.len()..];
                shared += carried
                    .iter()
                    .filter(|a| seen.iter().any(|s| Arc::ptr_eq(s, a)))
                    .count();
                seen.extend(carried.iter().cloned());
                results += 1;
            }
        }
    }
    assert!(
        results > 100 && shared > results,
        "{results} results, {shared} carried axioms shared"
    );
    let clashed = transfer::all_into(
        &transfer::Pair::new(
            &bases[0],
            &AxiomSet::of(&bases[0]),
            targets.last().unwrap(),
            &AxiomSet::of(targets.last().unwrap()),
        )
        .reusing(&kept),
    );
    assert!(
        clashed
            .iter()
            .any(|d| d.theory.axiom("semilattice_idempotent2").is_some()),
        "{}",
        clashed[0].theory.to_text()
    );
}

/// TRANSFER and ABSTRACT's common part compare carried axioms as relabelled encodings; building
/// each carried axiom and asking `has_axiom` must give the same results, for every pair of seeds.
#[test]
fn carried_axioms_read_as_encodings_agree_with_building_them() {
    let all: Vec<Theory> = seeds::all().iter().map(|s| seed(s.name)).collect();
    for a in &all {
        for b in &all {
            // Per signature map: which of a's axioms hold in b, built the long way.
            let kept: Vec<Vec<bool>> = transfer::maps(a, b, transfer::MAX_MAPS)
                .iter()
                .filter_map(|m| {
                    Some(
                        transfer::carried(a, b, m)?
                            .iter()
                            .map(|x| has_axiom(b, x))
                            .collect(),
                    )
                })
                .collect();
            let transfers = kept.iter().filter(|k| !k.iter().all(|x| *x)).count();
            assert_eq!(
                transfer::all(a, b).len(),
                transfers,
                "TRANSFER {} into {}",
                a.name,
                b.name
            );
            let most = kept
                .iter()
                .map(|k| k.iter().filter(|x| **x).count())
                .max()
                .filter(|n| *n > 0 && *n < a.axioms.len());
            let common = generalize::common_part(a, b)
                .ok()
                .map(|d| d.theory.axioms.len());
            assert_eq!(common, most, "common part of {} and {}", a.name, b.name);
        }
    }
}

#[test]
fn provenance_reads_back_whatever_its_names_hold() {
    use birkhoff_engine::moves::{Move, Provenance};
    // Theory names may be quoted strings, and operator symbols any non-punctuation characters:
    // control characters, empty names and separators of every kind come back as they went in.
    let parents = ["A\u{1}B", "", "C,D"];
    let params = [("\u{1}", "x\u{0}y"), ("", ""), ("op", "*")];
    let p = Provenance::new(
        &parents,
        Move::Transfer,
        &params,
        format_args!("with {}\u{1}", "axioms"),
    );
    assert_eq!(p.parents().collect::<Vec<_>>(), parents);
    assert_eq!(p.params().collect::<Vec<_>>(), params);
    assert_eq!(p.description(), "with axioms\u{1}");
    let none = Provenance::new(&[], Move::Abstract, &[], format_args!(""));
    assert_eq!(
        (
            none.parents().count(),
            none.params().count(),
            none.description()
        ),
        (0, 0, "")
    );
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["parents"][0], "A\u{1}B");
    assert_eq!(json["params"][0][1], "x\u{0}y");
    assert_eq!(json["move"], "TRANSFER");
}

/// The lattice expansions reach the classes of lattices with bounds and an operation, literally
/// (up to renaming), in one step from the seed lattices, and their laws one step further; a
/// chain and a reduced ring are laws of their families.
#[test]
fn complete_reaches_bounded_ortho_de_morgan_heyting_and_chain_lattices_and_reduced_rings() {
    let entry = |n: &str| birkhoff_engine::catalogue::load(n).unwrap();
    let add = |t: &Theory, law: &str, op: &str| {
        complete::complete(t, law, op)
            .unwrap_or_else(|e| panic!("{law} on {}: {e}", t.name))
            .theory
    };
    let lattice = seed("lattice");
    let reached = [
        (add(&lattice, "bounds", "^"), "bounded_lattice"),
        (add(&lattice, "orthocomplement", "^"), "ortholattice"),
        (
            add(&add(&lattice, "orthocomplement", "^"), "orthomodular", "^"),
            "orthomodular_lattice",
        ),
        (
            add(&seed("distributive_lattice"), "de_morgan_negation", "^"),
            "de_morgan_algebra",
        ),
        (
            add(&lattice, "relative_pseudocomplement", "^"),
            "heyting_algebra",
        ),
        (add(&lattice, "total", "^"), "chain_lattice"),
        (add(&seed("ring"), "reduced", "*"), "reduced_ring"),
    ];
    for (t, name) in &reached {
        assert!(same(t, &entry(name)), "not {name}:\n{}", t.to_text());
    }
    // Bounds are declared once: a bounded lattice gets an operation over its own bounds.
    let bounded = add(&lattice, "bounds", "^");
    assert!(complete::complete(&bounded, "bounds", "^").is_err());
    assert!(same(
        &add(&bounded, "orthocomplement", "^"),
        &entry("ortholattice")
    ));
    // A Boolean algebra's complement is not given a second negation, nor orthomodularity (its
    // complement is not written as an involution); it may still get an implication.
    let boolean = seed("boolean_algebra");
    for law in ["orthocomplement", "de_morgan_negation", "pseudocomplement"] {
        assert!(complete::complete(&boolean, law, "^").is_err(), "{law}");
    }
    assert!(complete::complete(&boolean, "relative_pseudocomplement", "^").is_ok());
    // Kleene's law for a De Morgan negation, Stone's identity for a pseudocomplement, and
    // neither for an operation without its laws.
    let de_morgan = add(&seed("distributive_lattice"), "de_morgan_negation", "^");
    assert!(add(&de_morgan, "kleene", "^")
        .to_text()
        .contains("x ^ c(x) v (y v c(y)) = y v c(y)"));
    let p = add(&seed("distributive_lattice"), "pseudocomplement", "^");
    assert!(complete::complete(&p, "stone", "^").is_ok());
    assert!(complete::complete(&p, "kleene", "^").is_err());
    assert!(complete::complete(&lattice, "stone", "^").is_err());
    // Not for a pair that does not absorb: a ring's two operations.
    assert!(complete::complete(&seed("ring"), "bounds", "*").is_err());
    // Every expansion is among COMPLETE's results, so the agent's exploration makes it.
    let all: Vec<String> = complete::all(&lattice)
        .into_iter()
        .map(|d| d.theory.name)
        .collect();
    for law in birkhoff_engine::moves::expansions::EXPANSIONS {
        assert!(all.iter().any(|n| n.contains(law)), "{law}: {all:?}");
    }
}
