//! DUALIZE: the opposite operation (`x ∘ y := y · x`), the reversed relation (`x ≥ y := y ≤ x`),
//! and the order dual of a lattice-like pair (meet and join exchanged).
//!
//! Unlike QUOTIENT, DUALIZE never adds a law: it rewrites every axiom, so the result has exactly
//! the parent's axioms, read through the dual. Its models are the parent's models with the
//! operation read backwards, so a dual is always bi-interpretable with its parent; the move is
//! interesting when the result is a different axiom set that deduplication then identifies (or not)
//! with a known theory.

use super::{binary_ops, find_binary, finish, prov, Derived, Move, MoveError};
use crate::signature::{FuncId, RelId};
use crate::syntax::{Formula, Term};
use crate::theory::Theory;

/// `t` with every axiom rewritten by `ft` and `fr`, which change only the axioms `touched` says
/// they may (the others are kept, shared with `t`, without being rebuilt).
fn rewrite(
    t: &Theory,
    tag: &str,
    p: super::Provenance,
    touched: &dyn Fn(&Formula) -> bool,
    ft: &dyn Fn(FuncId, Vec<Term>) -> Term,
    fr: &dyn Fn(RelId, Vec<Term>) -> Formula,
) -> Result<Derived, MoveError> {
    let mut d = t.clone();
    d.name = format!("{}+{tag}", t.name);
    d.doc = p.description().to_string();
    d.meta.clear();
    d.axioms = t
        .axioms
        .iter()
        .map(|a| {
            if touched(&a.formula) {
                a.map_symbols(ft, fr)
            } else {
                a.clone()
            }
        })
        .collect();
    finish(d, t.axioms.len(), p)
}

/// The opposite of `op`: every `x op y` in every axiom becomes `y op x`.
pub fn opposite(t: &Theory, op: &str) -> Result<Derived, MoveError> {
    let (f, _) = find_binary(&t.sig, op)?;
    let p = prov(
        t,
        Move::Dualize,
        &[("dual", "opposite"), ("op", op)],
        format_args!("{} with `{op}` read backwards (x ∘ y := y {op} x)", t.name),
    );
    let ft = |g: FuncId, mut args: Vec<Term>| {
        if g == f {
            args.swap(0, 1);
        }
        Term::App(g, args)
    };
    rewrite(
        t,
        &format!("op({op})"),
        p,
        &|a| a.mentions_func(f),
        &ft,
        &|r, args| Formula::Rel(r, args),
    )
}

/// The reverse of a binary relation `rel`: every `rel(x, y)` becomes `rel(y, x)`.
pub fn reverse(t: &Theory, rel: &str) -> Result<Derived, MoveError> {
    let r = t
        .sig
        .rel(rel)
        .filter(|r| t.sig.rel_decl(*r).args.len() == 2)
        .ok_or_else(|| {
            MoveError::Inapplicable(format!("no binary relation `{rel}` in {}", t.name))
        })?;
    let p = prov(
        t,
        Move::Dualize,
        &[("dual", "reverse"), ("rel", rel)],
        format_args!("{} with `{rel}` reversed", t.name),
    );
    let fr = |q: RelId, mut args: Vec<Term>| {
        if q == r {
            args.swap(0, 1);
        }
        Formula::Rel(q, args)
    };
    rewrite(
        t,
        &format!("rev({rel})"),
        p,
        &|a| a.mentions_rel(r),
        &|g, args| Term::App(g, args),
        &fr,
    )
}

/// The order dual of a lattice-like pair: `meet` and `join` exchanged in every axiom.
pub fn order_dual(t: &Theory, meet: &str, join: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, meet)?;
    let (g, s2) = find_binary(&t.sig, join)?;
    if f == g || s != s2 {
        return Err(MoveError::Inapplicable(format!(
            "`{meet}` and `{join}` must be two operations on one sort"
        )));
    }
    let p = prov(
        t,
        Move::Dualize,
        &[("dual", "order"), ("meet", meet), ("join", join)],
        format_args!(
            "the order dual of {}: `{meet}` and `{join}` exchanged",
            t.name
        ),
    );
    let ft = |h: FuncId, args| {
        Term::App(
            if h == f {
                g
            } else if h == g {
                f
            } else {
                h
            },
            args,
        )
    };
    rewrite(
        t,
        &format!("dual({meet},{join})"),
        p,
        &|a| a.mentions_func(f) || a.mentions_func(g),
        &ft,
        &|r, args| Formula::Rel(r, args),
    )
}

/// The opposite of every binary operation, the reverse of every binary relation, and the order
/// dual of every pair of operations that absorb each other.
pub fn all(t: &Theory) -> Vec<Derived> {
    let ops = binary_ops(&t.sig);
    let mut out: Vec<Derived> = ops
        .iter()
        .filter_map(|(f, _)| opposite(t, &t.sig.func_decl(*f).name).ok())
        .collect();
    out.extend(
        t.sig
            .rel_ids()
            .filter_map(|r| reverse(t, &t.sig.rel_decl(r).name).ok()),
    );
    for (i, (f, s)) in ops.iter().enumerate() {
        for (g, _) in &ops[i + 1..] {
            let absorbs = super::laws::absorption(*f, *g, *s)
                .iter()
                .all(|a| crate::canon::has_axiom(t, a));
            if absorbs {
                out.extend(
                    order_dual(t, &t.sig.func_decl(*f).name, &t.sig.func_decl(*g).name).ok(),
                );
            }
        }
    }
    out
}
