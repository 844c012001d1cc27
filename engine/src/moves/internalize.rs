//! INTERNALIZE: name a derived operation, adding a symbol and the axiom that defines it as a term
//! of the old signature. The result is a definitional extension: its models are exactly the
//! parent's models with the new operation computed from the old ones.

use super::laws::{ap, ap2, equation, v};
use super::{
    binary_ops, derive, find_binary, fresh_from, identity_of, new_func, prov, unary_ops, Derived,
    Move, MoveError,
};
use crate::canon::has_axiom;
use crate::signature::{FuncId, SortId};
use crate::syntax::Term;
use crate::theory::Theory;

/// The derived operations INTERNALIZE knows.
pub const DERIVED: &[&str] = &[
    "square",
    "commutator",
    "conjugation",
    "left_division",
    "right_division",
    "associator",
];

/// The inverse operation of `f` in `t`: a unary `inv` with both inverse axioms for an identity.
fn inverse_of(t: &Theory, f: FuncId, s: SortId) -> Option<FuncId> {
    let e = identity_of(t, f, s)?;
    unary_ops(&t.sig).into_iter().map(|(i, _)| i).find(|&i| {
        super::laws::inverse(f, i, e, s)
            .iter()
            .all(|a| has_axiom(t, a))
    })
}

/// A left division of `f` in `t`: a binary `d` with both left-division axioms.
fn left_division_of(t: &Theory, f: FuncId, s: SortId) -> Option<FuncId> {
    binary_ops(&t.sig).into_iter().map(|(d, _)| d).find(|&d| {
        d != f
            && super::laws::left_division(f, d, s)
                .iter()
                .all(|a| has_axiom(t, a))
    })
}

/// INTERNALIZE the derived operation `what` of `op`:
/// `square` (`sq(x) = x op x`), and, given inverses `inv`, `commutator` (`[x, y] = x⁻¹y⁻¹xy`),
/// `conjugation` (`x ▷ y = y⁻¹xy`), `left_division` (`x \ y = x⁻¹y`), `right_division`
/// (`x / y = xy⁻¹`); given a left division `\`, `associator` (`a(x,y,z) = (x(yz)) \ ((xy)z)`).
pub fn internalize(t: &Theory, what: &str, op: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, op)?;
    let m = |a, b| ap2(f, a, b);
    let new = FuncId(t.sig.funcs.len() as u32);
    let need_inv = || {
        inverse_of(t, f, s).ok_or_else(|| {
            MoveError::Inapplicable(format!("`{op}` has no inverse operation in {}", t.name))
        })
    };
    let (names, arity, definiens, text): (&[&str], usize, Term, &str) = match what {
        "square" => (&["sq", "square"], 1, m(v(0), v(0)), "x ↦ x·x"),
        "commutator" => {
            let i = need_inv()?;
            let inv = |x| ap(i, vec![x]);
            (
                &["comm", "commutator"],
                2,
                m(m(m(inv(v(0)), inv(v(1))), v(0)), v(1)),
                "the commutator [x, y] = x⁻¹y⁻¹xy",
            )
        }
        "conjugation" => {
            let i = need_inv()?;
            (
                &["conj", "conjugation"],
                2,
                m(m(ap(i, vec![v(1)]), v(0)), v(1)),
                "conjugation x ▷ y = y⁻¹xy",
            )
        }
        "left_division" => {
            let i = need_inv()?;
            (
                &["\\", "ldiv"],
                2,
                m(ap(i, vec![v(0)]), v(1)),
                "left division x \\ y = x⁻¹y",
            )
        }
        "right_division" => {
            let i = need_inv()?;
            (
                &["/", "rdiv"],
                2,
                m(v(0), ap(i, vec![v(1)])),
                "right division x / y = xy⁻¹",
            )
        }
        "associator" => {
            let d = left_division_of(t, f, s).ok_or_else(|| {
                MoveError::Inapplicable(format!("`{op}` has no left division in {}", t.name))
            })?;
            (
                &["associator", "asc"],
                3,
                ap2(d, m(v(0), m(v(1), v(2))), m(m(v(0), v(1)), v(2))),
                "the associator a(x,y,z) = (x(yz)) \\ ((xy)z)",
            )
        }
        _ => {
            return Err(MoveError::Inapplicable(format!(
                "INTERNALIZE knows no `{what}`; known: {}",
                DERIVED.join(", ")
            )))
        }
    };
    let name = fresh_from(&t.sig, names);
    let def = equation(
        &format!("def_{what}"),
        s,
        ap(new, (0..arity as u32).map(v).collect()),
        definiens,
    );
    let p = prov(
        t,
        Move::Internalize,
        &[("derived", what), ("op", op)],
        format_args!("{} with {text} named `{name}`", t.name),
    );
    derive(
        t,
        &[],
        vec![new_func(name, vec![s; arity], s)],
        vec![def],
        p,
        format_args!("{what}({op})"),
    )
}

/// Every derived operation the theory supports, for every binary operation.
pub fn all(t: &Theory) -> Vec<Derived> {
    let mut out = Vec::new();
    for (f, _) in binary_ops(&t.sig) {
        let name = &t.sig.func_decl(f).name;
        out.extend(DERIVED.iter().filter_map(|w| internalize(t, w, name).ok()));
    }
    out
}
