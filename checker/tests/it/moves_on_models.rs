//! The moves mean on models what docs/MOVES.md says they mean. The engine's tests check the
//! moves on syntax (sort checks, no axiom lost, known theories reached); these check them on the
//! small models of every unary move result of every seed, found by the native finder and judged
//! by the evaluator:
//! - COMPLETE, QUOTIENT, SELF_DISTRIB and INTERNALIZE only add: every model of the result, read
//!   in the parent's signature, is a model of the parent.
//! - ABSTRACT and DEFORM only weaken: every model of the parent is a model of the result, read in
//!   the result's signature. A parameter DEFORM declares takes its neutral value there: the
//!   automorphism σ (and its inverse) the identity map; the constant `q` or `c` some element, which
//!   exists when the operation has an identity in the parent (the identity itself).
//! - DUALIZE and INTERNALIZE change no model's shape: a result has as many models of each size, up
//!   to isomorphism, as its parent (the opposite structure; the definitional expansion).
//! - TRANSFER adds to its target, and ABSTRACT's common part of two theories weakens the first.

use birkhoff_checker::{
    finder::{self, Options},
    size_tuples, Budget, Status,
};
use birkhoff_engine::moves::{self, Derived, Move};
use birkhoff_engine::{eval, seeds, Structure, Theory};
use std::collections::HashMap;

/// The models of `t` at every size tuple up to 4 elements per sort (2 for several sorts), with
/// whether each size's list is complete (a size whose search is cut short still gives models).
/// Run sequentially: a panic on a pool thread would lose its message to the test's capture.
fn models(t: &Theory) -> Vec<(Vec<u32>, Vec<Structure>, bool)> {
    let max = if t.sig.sorts.len() == 1 { 4 } else { 2 };
    let budget = Budget {
        nodes: Some(300_000),
        models: Some(4_000),
        ..Budget::default()
    };
    size_tuples(t.sig.sorts.len(), max)
        .map(|sizes| {
            let e = finder::enumerate(t, &sizes, &budget, Options::default())
                .unwrap_or_else(|err| panic!("{}: {err}", t.name));
            let exact = e.iso.status == Status::Exact;
            (
                sizes,
                e.classes.into_iter().map(|c| c.model).collect(),
                exact,
            )
        })
        .collect()
}

/// `m`, a structure for `from`, read as a structure for `to`: each symbol of `to` means what the
/// symbol of the same name means in `m`; `extra` gives the value of a symbol `from` lacks.
fn read_as(
    from: &Theory,
    m: &Structure,
    to: &Theory,
    extra: &dyn Fn(&str, &[u32]) -> u32,
) -> Structure {
    let sizes: Vec<u32> = to
        .sig
        .sorts
        .iter()
        .map(|s| {
            m.sizes[from
                .sig
                .sort(&s.name)
                .unwrap_or_else(|| panic!("{} lacks sort {}", from.name, s.name))
                .0 as usize]
        })
        .collect();
    let func = |name: &str, args: &[u32]| {
        from.sig
            .func(name)
            .map_or_else(|| extra(name, args), |f| m.apply(&from.sig, f, args))
    };
    let rel = |name: &str, args: &[u32]| {
        m.holds(
            &from.sig,
            from.sig
                .rel(name)
                .unwrap_or_else(|| panic!("{} lacks relation {name}", from.name)),
            args,
        )
    };
    Structure::from_fn(&to.sig, &sizes, func, rel)
}

fn no_extra(name: &str, _: &[u32]) -> u32 {
    panic!("no value for the new symbol {name}")
}

/// Every model of `stronger`, read in `weaker`'s signature, is a model of `weaker`. Returns the
/// number of models checked.
fn implies(stronger: &Theory, weaker: &Theory, what: &str) -> usize {
    let mut checked = 0;
    for (_, ms, _) in models(stronger) {
        for m in ms {
            let read = read_as(stronger, &m, weaker, &no_extra);
            if let Err(v) = eval::check(weaker, &read) {
                panic!(
                    "{what}: a model of {} is not a model of {}: {v}\n{}",
                    stronger.name,
                    weaker.name,
                    m.to_json(&stronger.sig)
                );
            }
            checked += 1;
        }
    }
    checked
}

/// DEFORM weakens: every model of the parent, with the new parameters at a neutral value, is a
/// model of the result. Returns the number of models checked (0 when no neutral value is known).
fn deform_weakens(parent: &Theory, d: &Derived) -> usize {
    let param = |k: &str| {
        d.provenance
            .params()
            .find(|p| p.0 == k)
            .map(|p| p.1.to_string())
    };
    let (op, into) = (
        param("op").expect("DEFORM names its operation"),
        param("into").expect("DEFORM names its kind"),
    );
    // The new constants, each with the index of its sort in the parent.
    let new = d
        .theory
        .sig
        .funcs
        .iter()
        .filter(|f| parent.sig.func(&f.name).is_none());
    let (constants, sorts): (Vec<&str>, Vec<usize>) = new
        .filter(|f| f.args.is_empty())
        .map(|f| {
            (
                f.name.as_str(),
                parent
                    .sig
                    .sort(&d.theory.sig.sorts[f.result.0 as usize].name)
                    .unwrap()
                    .0 as usize,
            )
        })
        .unzip();
    if !constants.is_empty() {
        let f = parent
            .sig
            .func(&op)
            .expect("the deformed operation is the parent's");
        let s = parent.sig.func_decl(f).result;
        if moves::identity_of(parent, f, s).is_none() {
            return 0;
        }
    }
    let mut checked = 0;
    for (_, ms, _) in models(parent) {
        for m in ms {
            let radix: Vec<u32> = sorts.iter().map(|&s| m.sizes[s]).collect();
            // σ and its inverse are the identity map; the constants try every tuple of elements.
            let fits = (0..radix.iter().product::<u32>()).any(|code| {
                let value =
                    |name: &str, args: &[u32]| match constants.iter().position(|c| *c == name) {
                        Some(i) => code / radix[..i].iter().product::<u32>() % radix[i],
                        None => args[0],
                    };
                eval::check(&d.theory, &read_as(parent, &m, &d.theory, &value)).is_ok()
            });
            assert!(fits, "DEFORM {into}({op}): a model of {} has no parameter value making it a model of {}\n{}", parent.name, d.theory.name, m.to_json(&parent.sig));
            checked += 1;
        }
    }
    checked
}

/// DUALIZE and INTERNALIZE: the same number of models up to isomorphism at every size both
/// count exactly. Returns the number of sizes compared.
fn same_spectrum(parent: &Theory, d: &Derived) -> usize {
    let (a, b) = (models(parent), models(&d.theory));
    let mut compared = 0;
    for ((sizes, ma, exact_a), (_, mb, exact_b)) in a.iter().zip(&b) {
        if *exact_a && *exact_b {
            assert_eq!(
                ma.len(),
                mb.len(),
                "{} ({}) has {} models of size {sizes:?}, its parent {} has {}",
                d.theory.name,
                d.provenance.description(),
                mb.len(),
                parent.name,
                ma.len()
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn every_unary_move_result_of_every_seed_means_what_its_move_says() {
    let bases: Vec<Theory> = seeds::all()
        .iter()
        .map(|s| seeds::load(s.name).unwrap())
        .collect();
    // Per move: results, models checked, and sizes compared for the spectrum-preserving ones.
    let mut per_move: HashMap<Move, (usize, usize, usize)> = HashMap::new();
    for (parent, d) in bases
        .iter()
        .flat_map(|t| moves::unary_moves(t).into_iter().map(move |d| (t, d)))
    {
        let what = format!("{} {}", d.provenance.mv, d.provenance.description());
        let (models, sizes) = match d.provenance.mv {
            Move::Complete | Move::Quotient | Move::SelfDistrib => {
                (implies(&d.theory, parent, &what), 0)
            }
            Move::Internalize => (implies(&d.theory, parent, &what), same_spectrum(parent, &d)),
            Move::Dualize => (0, same_spectrum(parent, &d)),
            Move::Abstract => (implies(parent, &d.theory, &what), 0),
            Move::Deform => (deform_weakens(parent, &d), 0),
            Move::Transfer => unreachable!("TRANSFER is binary"),
        };
        let e = per_move.entry(d.provenance.mv).or_default();
        *e = (e.0 + 1, e.1 + models, e.2 + sizes);
    }
    eprintln!("results, models checked, sizes compared: {per_move:?}");
    // Not vacuous: every move was checked on many models (or sizes).
    for mv in [
        Move::Complete,
        Move::Quotient,
        Move::SelfDistrib,
        Move::Internalize,
        Move::Abstract,
        Move::Deform,
    ] {
        assert!(
            per_move[&mv].1 >= 50,
            "{mv} checked on only {} models",
            per_move[&mv].1
        );
    }
    for mv in [Move::Dualize, Move::Internalize] {
        assert!(
            per_move[&mv].2 >= 30,
            "{mv} compared at only {} sizes",
            per_move[&mv].2
        );
    }
}

#[test]
fn transfer_adds_to_its_target_and_the_common_part_weakens_its_source() {
    let names = [
        "semigroup",
        "monoid",
        "group",
        "abelian_group",
        "quasigroup",
        "loop",
        "semilattice",
        "lattice",
        "quandle",
        "band",
    ];
    let bases: Vec<Theory> = names.iter().map(|n| seeds::load(n).unwrap()).collect();
    let (mut transfers, mut commons) = (0, 0);
    for (source, target) in bases.iter().flat_map(|a| {
        bases
            .iter()
            .filter(move |b| b.name != a.name)
            .map(move |b| (a, b))
    }) {
        for d in moves::binary_moves(source, target) {
            let what = format!("{} {}", d.provenance.mv, d.provenance.description());
            match d.provenance.mv {
                Move::Transfer => transfers += implies(&d.theory, target, &what),
                Move::Abstract => commons += implies(source, &d.theory, &what),
                other => panic!("{other} is not a binary move"),
            }
        }
    }
    assert!(
        transfers >= 50 && commons >= 50,
        "checked {transfers} TRANSFER models and {commons} common-part models"
    );
}
