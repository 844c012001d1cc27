//! DEFORM: replace an axiom by a weaker or twisted form. Associativity becomes flexibility, an
//! alternative law, power-associativity, the Moufang or the left Bol identity; commutativity
//! becomes q-commutativity with a new constant `q`, or commutativity up to a new automorphism `σ`;
//! any equation becomes the same equation up to a new central element `c`. Every new parameter is
//! declared in the signature, and the replaced axiom is recorded in the provenance.

use super::laws::{self, ap, ap2, equation, v};
use super::{
    binary_ops, derive, find_binary, fresh_from, new_func, prov, Derived, Move, MoveError,
};
use crate::canon::find_axiom;
use crate::signature::FuncId;
use crate::syntax::{Axiom, Formula};
use crate::theory::Theory;

/// Deformations of associativity.
pub const OF_ASSOC: &[&str] = &[
    "flexible",
    "left_alternative",
    "right_alternative",
    "power_assoc",
    "moufang",
    "left_bol",
];
/// Deformations of commutativity.
pub const OF_COMM: &[&str] = &["q_commutative", "twisted_commutative"];

/// DEFORM the associativity or commutativity of `op` in `t` into `into` (one of [`OF_ASSOC`],
/// [`OF_COMM`]).
pub fn deform(t: &Theory, op: &str, into: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, op)?;
    let is_assoc = OF_ASSOC.contains(&into);
    let old = if is_assoc {
        laws::assoc(f, s)
    } else {
        laws::comm(f, s)
    };
    let at = find_axiom(t, &old).ok_or_else(|| {
        MoveError::Inapplicable(format!(
            "{} has no {} axiom for `{op}` to deform",
            t.name,
            if is_assoc {
                "associativity"
            } else {
                "commutativity"
            }
        ))
    })?;
    deform_at(t, (f, s), op, into, at)
}

/// [`deform`] of the axiom at index `at`, the associativity or commutativity of `op` (`f`, of
/// sort `s`).
fn deform_at(
    t: &Theory,
    (f, s): (FuncId, crate::signature::SortId),
    op: &str,
    into: &str,
    at: usize,
) -> Result<Derived, MoveError> {
    let m = |a, b| ap2(f, a, b);
    let (x, y, z) = (v(0), v(1), v(2));
    let old_name = t.axioms[at].name.clone();
    let mut new_funcs = vec![];
    let next = FuncId(t.sig.funcs.len() as u32);
    let (axioms, what) = match into {
        "flexible" => (
            vec![equation(
                "flexible",
                s,
                m(m(x.clone(), y.clone()), x.clone()),
                m(x, m(y, v(0))),
            )],
            "flexible: (xy)x = x(yx)".to_string(),
        ),
        "left_alternative" => (
            vec![equation(
                "left_alternative",
                s,
                m(m(x.clone(), x.clone()), y.clone()),
                m(x.clone(), m(x, y)),
            )],
            "left alternative: (xx)y = x(xy)".into(),
        ),
        "right_alternative" => (
            vec![equation(
                "right_alternative",
                s,
                m(m(y.clone(), x.clone()), x.clone()),
                m(y, m(x.clone(), x)),
            )],
            "right alternative: (yx)x = y(xx)".into(),
        ),
        "power_assoc" => (
            vec![equation(
                "power_assoc",
                s,
                m(m(x.clone(), x.clone()), x.clone()),
                m(x.clone(), m(x.clone(), x)),
            )],
            "power-associative in degree 3: (xx)x = x(xx)".into(),
        ),
        "moufang" => (
            vec![equation(
                "moufang",
                s,
                m(m(m(x.clone(), y.clone()), x.clone()), z.clone()),
                m(x.clone(), m(y, m(x, z))),
            )],
            "Moufang: ((xy)x)z = x(y(xz))".into(),
        ),
        "left_bol" => (
            vec![equation(
                "left_bol",
                s,
                m(x.clone(), m(y.clone(), m(x.clone(), z.clone()))),
                m(m(x.clone(), m(y, x)), z),
            )],
            "left Bol: x(y(xz)) = (x(yx))z".into(),
        ),
        "q_commutative" => {
            let q = fresh_from(&t.sig, &["q", "qc"]);
            new_funcs.push(new_func(q.clone(), vec![], s));
            (
                vec![equation(
                    "q_commutative",
                    s,
                    m(x.clone(), y.clone()),
                    m(m(y, x), ap(next, vec![])),
                )],
                format!("q-commutative with a new constant {q}: xy = (yx){q}"),
            )
        }
        "twisted_commutative" => {
            // An automorphism, not just an endomorphism: declared with its inverse, so that the
            // theory stays equational and says bijective in every model, finite or not.
            let sg = fresh_from(&t.sig, &["sigma", "tw"]);
            let inv = fresh_from(&t.sig, &[&format!("{sg}_inv"), "tw_inv"]);
            new_funcs.push(new_func(sg.clone(), vec![s], s));
            new_funcs.push(new_func(inv.clone(), vec![s], s));
            let a = |t| ap(next, vec![t]);
            let b = |t| ap(FuncId(next.0 + 1), vec![t]);
            let hom = equation(
                "sigma_hom",
                s,
                a(m(x.clone(), y.clone())),
                m(a(x.clone()), a(y.clone())),
            );
            let right = equation("sigma_inverse_right", s, a(b(x.clone())), x.clone());
            let left = equation("sigma_inverse_left", s, b(a(x.clone())), x.clone());
            (
                vec![
                    hom,
                    right,
                    left,
                    equation(
                        "twisted_commutative",
                        s,
                        m(x.clone(), y.clone()),
                        a(m(y, x)),
                    ),
                ],
                format!("commutative up to a new automorphism {sg} (inverse {inv}): xy = {sg}(yx)"),
            )
        }
        _ => {
            return Err(MoveError::Inapplicable(format!(
                "DEFORM knows no `{into}`; known: {}, {}",
                OF_ASSOC.join(", "),
                OF_COMM.join(", ")
            )))
        }
    };
    let p = prov(
        t,
        Move::Deform,
        &[("op", op), ("axiom", &old_name), ("into", into)],
        format_args!("{} with `{old_name}` weakened to {what}", t.name),
    );
    derive(t, &[at], new_funcs, axioms, p, format_args!("{into}({op})"))
}

/// DEFORM an equation `l = r` (the axiom `axiom`) into `l = r op c` for a new constant `c` that
/// is central for `op` (`c op x = x op c`): the law holds up to a central element.
pub fn up_to_central(t: &Theory, axiom: &str, op: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, op)?;
    let at = t
        .axioms
        .iter()
        .position(|a| a.name == axiom)
        .ok_or_else(|| MoveError::Inapplicable(format!("{} has no axiom `{axiom}`", t.name)))?;
    let a = &t.axioms[at];
    let Formula::Eq(l, r) = &a.formula else {
        return Err(MoveError::Inapplicable(format!(
            "`{axiom}` is not an equation"
        )));
    };
    if super::term_sort(&t.sig, a, l).map_err(|e| MoveError::IllFormed(e.describe(&t.sig)))? != s {
        return Err(MoveError::Inapplicable(format!(
            "`{axiom}` is not an equation between terms of the sort of `{op}`"
        )));
    }
    let c = FuncId(t.sig.funcs.len() as u32);
    let cname = fresh_from(&t.sig, &["c", "central"]);
    let mut twisted = Axiom::clone(a);
    twisted.formula = Formula::Eq(l.clone(), ap2(f, r.clone(), ap(c, vec![])));
    twisted.origin = None;
    let central = equation(
        "central",
        s,
        ap2(f, ap(c, vec![]), v(0)),
        ap2(f, v(0), ap(c, vec![])),
    );
    let p = prov(
        t,
        Move::Deform,
        &[("axiom", axiom), ("op", op), ("into", "up_to_central")],
        format_args!(
            "{} with `{axiom}` holding up to a new central element {cname}",
            t.name
        ),
    );
    derive(
        t,
        &[at],
        vec![new_func(cname, vec![], s)],
        vec![twisted, central],
        p,
        format_args!("central({axiom})"),
    )
}

/// Every deformation of associativity and commutativity of every binary operation. Each law is
/// looked for once per operation, not once per deformation of it.
pub fn all(t: &Theory) -> Vec<Derived> {
    let mut out = Vec::new();
    for (f, s) in binary_ops(&t.sig) {
        let name = &t.sig.func_decl(f).name;
        for (intos, old) in [(OF_ASSOC, laws::assoc(f, s)), (OF_COMM, laws::comm(f, s))] {
            if let Some(at) = find_axiom(t, &old) {
                out.extend(
                    intos
                        .iter()
                        .filter_map(|into| deform_at(t, (f, s), name, into, at).ok()),
                );
            }
        }
    }
    out
}
