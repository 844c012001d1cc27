//! Divisions as defined symbols, so that a sort no symbol takes values in gets its symmetry
//! broken.
//!
//! The least-number constraints of [`super::encode`] order a sort's elements by the values that
//! cells take in it. A sort that is only ever an argument gets none of them, and its n! renamings
//! stay in the search. Orthogonal Latin squares written with cancellation laws, as Mace4 users
//! write them, are the case: once [`birkhoff_engine::refine`] has split rows, columns and the two
//! symbol sets apart, the columns are no symbol's values, and Euler's pair of order 6 was
//! undecided in a minute, while the same problem written with divisions was refuted in about two
//! seconds.
//!
//! # Why the answer is the same
//!
//! Let `f` cancel in its `i`-th argument: a cancellation law is stated, or one of
//! `crate::implied` follows from the axioms, and the `i`-th argument's sort has as many
//! elements as `f`'s value sort. Then in a finite model each map `xᵢ ↦ f(x̄)` (the other arguments
//! fixed) is one-to-one between two sets of one size, hence onto, so the *division*
//! `d(x̄ without xᵢ, y)`, the unique `xᵢ` with `f(x̄) = y`, is defined everywhere. The theory with
//! `d` added and its two laws,
//!
//! * `d(x̄ without xᵢ, f(x̄)) = xᵢ` and
//! * `f(x̄ with xᵢ := d(x̄ without xᵢ, y)) = y`,
//!
//! is a definitional extension at these sizes: every model of the theory extends in exactly one
//! way (the laws say that `d` is that division), every model of the extension restricts to one of
//! the theory, and the two theories' isomorphisms are the same maps. So one has a model of given
//! sizes exactly when the other has, a model found for the extension is a model of the theory once
//! `d`'s table is dropped (and the evaluator checks it against the theory), and the least-number
//! constraints, which lose no isomorphism class of the extension, lose none of the theory. `d`
//! takes values in the argument-only sort, which gives that sort a cross line.

use birkhoff_engine::signature::{Fixity, FuncDecl, FuncId, SortId};
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use birkhoff_engine::{Structure, Theory};
use std::sync::Arc;

/// The `(function, argument)` pairs in which a function of `t` cancels: its stated cancellation
/// laws, and those `crate::implied` derives for finite models.
pub fn cancellations(t: &Theory) -> Vec<(u32, usize)> {
    t.axioms
        .iter()
        .map(|a| &**a)
        .chain(&crate::implied::cancellations(t))
        .filter_map(crate::implied::cancels_at)
        .collect()
}

/// `t` with a division added for each sort, of the sizes `sizes`, that no function takes values
/// in but that some function cancels in (module doc), one division per such sort; `None` when
/// there is no such sort. `cancels` are the `(function, argument)` pairs in which a function is
/// known to cancel, as [`cancellations`] gives them. The divisions follow `t`'s own function
/// symbols, so [`restrict`] drops them.
pub fn extend(t: &Theory, cancels: &[(u32, usize)], sizes: &[u32]) -> Option<Theory> {
    let funcs = &t.sig.funcs;
    let is_value_sort = |s: SortId| funcs.iter().any(|d| d.result == s);
    let mut sig = (*t.sig).clone();
    let mut axioms = t.axioms.clone();
    let mut divided: Vec<SortId> = Vec::new();
    for &(f, i) in cancels {
        let d = &funcs[f as usize];
        let sort = d.args[i];
        if is_value_sort(sort)
            || divided.contains(&sort)
            || sizes[sort.0 as usize] != sizes[d.result.0 as usize]
        {
            continue;
        }
        divided.push(sort);
        let division = FuncId(sig.funcs.len() as u32);
        let name = (0..)
            .map(|k| format!("{}_div{}{}", d.name, i + 1, "'".repeat(k)))
            .find(|n| sig.funcs.iter().all(|g| &g.name != n))
            .expect("a free name");
        let mut args: Vec<SortId> = d.args.clone();
        args.remove(i);
        args.push(d.result);
        sig.funcs.push(FuncDecl {
            name: name.clone(),
            args,
            result: sort,
            fixity: Fixity::Prefix,
        });
        for law in laws(d, FuncId(f), i, division, &name) {
            axioms.push(Arc::new(law));
        }
    }
    if divided.is_empty() {
        return None;
    }
    Some(Theory {
        sig: Arc::new(sig),
        axioms,
        ..t.clone()
    })
}

/// The two laws defining `division` as the division of `f` (declared `d`) in argument `i`.
fn laws(d: &FuncDecl, f: FuncId, i: usize, division: FuncId, name: &str) -> [Axiom; 2] {
    // Variables x1..xn for f's arguments, then y for its value.
    let mut vars: Vec<VarDecl> = d
        .args
        .iter()
        .enumerate()
        .map(|(k, &sort)| VarDecl {
            name: format!("x{}", k + 1),
            sort,
        })
        .collect();
    vars.push(VarDecl {
        name: "y".into(),
        sort: d.result,
    });
    let x = |k: usize| Term::Var(VarId(k as u32));
    let y = Term::Var(VarId(d.args.len() as u32));
    let others = |last: Term| -> Term {
        let mut args: Vec<Term> = (0..d.args.len()).filter(|&k| k != i).map(x).collect();
        args.push(last);
        Term::App(division, args)
    };
    let applied = Term::App(f, (0..d.args.len()).map(x).collect());
    let after = Formula::Eq(others(applied), x(i));
    let substituted = (0..d.args.len())
        .map(|k| if k == i { others(y.clone()) } else { x(k) })
        .collect();
    let before = Formula::Eq(Term::App(f, substituted), y);
    let axiom = |suffix: &str, formula: Formula| Axiom {
        name: format!("{name}_{suffix}"),
        formula,
        vars: vars.clone(),
        origin: None,
    };
    [axiom("after", after), axiom("before", before)]
}

/// A model of an extension by [`extend`] as a structure of the theory extended: the divisions'
/// tables dropped.
pub fn restrict(mut model: Structure, t: &Theory) -> Structure {
    model.funcs.truncate(t.sig.funcs.len());
    model
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_engine::eval;

    fn squares() -> Theory {
        let text = "theory S\nsort R, C, A, B\nfunc * : R C -> A\nfunc + : R C -> B\n\
                    axiom c1: x * y = x * z -> y = z\naxiom c2: x + y = x + z -> y = z\n\
                    axiom r1: y * x = z * x -> y = z\naxiom r2: y + x = z + x -> y = z";
        Theory::parse(text, "s.bk").unwrap()
    }

    #[test]
    fn the_argument_only_sort_gets_one_division_with_its_laws() {
        let t = squares();
        let cancels = cancellations(&t);
        assert_eq!(cancels.len(), 4, "{cancels:?}");
        let e = extend(&t, &cancels, &[3, 3, 3, 3]).expect("columns and rows are argument-only");
        // Rows and columns are both argument-only: one division each.
        assert_eq!(e.sig.funcs.len(), 4);
        assert_eq!(e.axioms.len(), t.axioms.len() + 4);
        // The laws hold in a model exactly when the new table is the division: the cyclic
        // squares x + y and x + 2y (mod 3), with their divisions, satisfy every axiom.
        let sizes = vec![3, 3, 3, 3];
        let mut m = Structure::zeroed(&e.sig, &sizes);
        for r in 0..3u32 {
            for c in 0..3u32 {
                m.funcs[0][(r * 3 + c) as usize] = (r + c) % 3;
                m.funcs[1][(r * 3 + c) as usize] = (r + 2 * c) % 3;
            }
        }
        for (k, d) in e.sig.funcs.iter().enumerate().skip(2) {
            // Divisions of * (the first sort found for each argument-only sort).
            assert_eq!(d.result.0 as usize, if k == 2 { 1 } else { 0 }, "{d:?}");
            for a in 0..3u32 {
                for s in 0..3u32 {
                    m.funcs[k][(a * 3 + s) as usize] = (s + 3 - a) % 3;
                }
            }
        }
        assert!(
            eval::check(&e, &m).is_ok(),
            "the divisions satisfy their laws"
        );
        m.funcs[2][0] = 1;
        assert!(
            eval::check(&e, &m).is_err(),
            "a wrong division table breaks a law"
        );
        let r = restrict(m, &t);
        assert_eq!(r.funcs.len(), 2);
        assert!(eval::check(&t, &r).is_ok());
    }

    #[test]
    fn nothing_is_added_where_every_sort_is_a_value_sort_or_sizes_differ() {
        let group = birkhoff_engine::seeds::load("quasigroup").unwrap();
        // The product cancels on both sides, and each division in its second argument.
        let cancels = cancellations(&group);
        assert_eq!(cancels.len(), 4, "{cancels:?}");
        assert!(extend(&group, &cancels, &[4]).is_none());
        let t = squares();
        let cancels = cancellations(&t);
        // Rows and columns smaller than the symbols: a one-to-one map need not be onto.
        assert!(extend(&t, &cancels, &[2, 2, 3, 3]).is_none());
    }
}
