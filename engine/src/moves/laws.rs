//! Standard laws as axioms over a given signature: the vocabulary every move draws from.
//!
//! Each builder takes the ids of the symbols involved (which the caller has checked have the
//! right profile) and returns an axiom whose variables all have sort `s`.

use crate::signature::{FuncId, SortId};
use crate::syntax::{Axiom, Formula, Term, VarDecl, VarId};

/// Variable `i` of a law (`x`, `y`, `z`, `w`).
pub fn v(i: u32) -> Term {
    Term::Var(VarId(i))
}

/// `f(args)`.
pub fn ap(f: FuncId, args: Vec<Term>) -> Term {
    Term::App(f, args)
}

/// `f(a, b)`.
pub fn ap2(f: FuncId, a: Term, b: Term) -> Term {
    Term::App(f, vec![a, b])
}

/// The equation `l = r` as an axiom called `name`, with the variables of `l` and `r` (at most
/// four, `x y z w`) all of sort `s`.
pub fn equation(name: &str, s: SortId, l: Term, r: Term) -> Axiom {
    let mut n = 0;
    for t in [&l, &r] {
        t.for_each_var(&mut |VarId(i)| n = n.max(i + 1));
    }
    let names = ["x", "y", "z", "w"];
    let vars = (0..n)
        .map(|i| VarDecl {
            name: names[i as usize].to_string(),
            sort: s,
        })
        .collect();
    Axiom {
        name: name.to_string(),
        formula: Formula::Eq(l, r),
        vars,
        origin: None,
    }
}

/// `(x f y) f z = x f (y f z)`.
pub fn assoc(f: FuncId, s: SortId) -> Axiom {
    equation(
        "assoc",
        s,
        ap2(f, ap2(f, v(0), v(1)), v(2)),
        ap2(f, v(0), ap2(f, v(1), v(2))),
    )
}

/// `x f y = y f x`.
pub fn comm(f: FuncId, s: SortId) -> Axiom {
    equation("commutative", s, ap2(f, v(0), v(1)), ap2(f, v(1), v(0)))
}

/// `x f x = x`.
pub fn idempotent(f: FuncId, s: SortId) -> Axiom {
    equation("idempotent", s, ap2(f, v(0), v(0)), v(0))
}

/// `(x f y) f x = x f (y f x)`: flexibility, which loops need to be Moufang or commutative and
/// which alternative algebras have.
pub fn flexible(f: FuncId, s: SortId) -> Axiom {
    equation(
        "flexible",
        s,
        ap2(f, ap2(f, v(0), v(1)), v(0)),
        ap2(f, v(0), ap2(f, v(1), v(0))),
    )
}

/// `x f y = x` (`left` true) or `x f y = y`: every element a left (right) zero, the product
/// forgetting one argument.
pub fn zero_side(f: FuncId, s: SortId, left: bool) -> Axiom {
    let (name, kept) = if left {
        ("left_zero", v(0))
    } else {
        ("right_zero", v(1))
    };
    equation(name, s, ap2(f, v(0), v(1)), kept)
}

/// `(x f y) f (z f w) = (x f z) f (y f w)`: mediality (entropy), the law of affine quasigroups
/// (Toyoda-Bruck) and of medial semigroups and quandles.
pub fn medial(f: FuncId, s: SortId) -> Axiom {
    equation(
        "medial",
        s,
        ap2(f, ap2(f, v(0), v(1)), ap2(f, v(2), v(3))),
        ap2(f, ap2(f, v(0), v(2)), ap2(f, v(1), v(3))),
    )
}

/// `y f (x f y) = x`: semisymmetry, which makes a magma a quasigroup whose multiplication table
/// is invariant under cyclic shifts of `x f y = z`.
pub fn semisymmetric(f: FuncId, s: SortId) -> Axiom {
    equation("semisymmetric", s, ap2(f, v(1), ap2(f, v(0), v(1))), v(0))
}

/// `x f x = y f y`: unipotence, all squares equal.
pub fn unipotent(f: FuncId, s: SortId) -> Axiom {
    equation("unipotent", s, ap2(f, v(0), v(0)), ap2(f, v(1), v(1)))
}

/// `(x f y) f x = x f y` (`left` true) or `(x f y) f x = y f x`: left (right) regularity, the
/// laws that single out left (right) regular bands among bands.
pub fn regular_side(f: FuncId, s: SortId, left: bool) -> Axiom {
    let xyx = ap2(f, ap2(f, v(0), v(1)), v(0));
    if left {
        equation("left_regular", s, xyx, ap2(f, v(0), v(1)))
    } else {
        equation("right_regular", s, xyx, ap2(f, v(1), v(0)))
    }
}

/// `((x f y) f z) f x = ((x f z) f y) f x`: normality, the law of normal bands (strong
/// semilattices of rectangular bands).
pub fn normal(f: FuncId, s: SortId) -> Axiom {
    let side = |a: u32, b: u32| ap2(f, ap2(f, ap2(f, v(0), v(a)), v(b)), v(0));
    equation("normal", s, side(1, 2), side(2, 1))
}

/// `x f y = o`: every product is the constant `o` (null or zero multiplication).
pub fn null(f: FuncId, o: FuncId, s: SortId) -> Axiom {
    equation("null", s, ap2(f, v(0), v(1)), ap(o, vec![]))
}

/// `e f x = x` and `x f e = x`.
pub fn identity(f: FuncId, e: FuncId, s: SortId) -> [Axiom; 2] {
    let e = || ap(e, vec![]);
    [
        equation("left_identity", s, ap2(f, e(), v(0)), v(0)),
        equation("right_identity", s, ap2(f, v(0), e()), v(0)),
    ]
}

/// `inv(x) f x = e` and `x f inv(x) = e`.
pub fn inverse(f: FuncId, inv: FuncId, e: FuncId, s: SortId) -> [Axiom; 2] {
    let i = |t| ap(inv, vec![t]);
    let e = || ap(e, vec![]);
    [
        equation("left_inverse", s, ap2(f, i(v(0)), v(0)), e()),
        equation("right_inverse", s, ap2(f, v(0), i(v(0))), e()),
    ]
}

/// Right division `/` undoing right multiplication: `(x f y) / y = x` and `(x / y) f y = x`.
pub fn right_division(f: FuncId, d: FuncId, s: SortId) -> [Axiom; 2] {
    [
        equation("rdiv_after_mul", s, ap2(d, ap2(f, v(0), v(1)), v(1)), v(0)),
        equation("mul_after_rdiv", s, ap2(f, ap2(d, v(0), v(1)), v(1)), v(0)),
    ]
}

/// Left division `\` undoing left multiplication: `x \ (x f y) = y` and `x f (x \ y) = y`.
pub fn left_division(f: FuncId, d: FuncId, s: SortId) -> [Axiom; 2] {
    [
        equation("ldiv_after_mul", s, ap2(d, v(0), ap2(f, v(0), v(1))), v(1)),
        equation("mul_after_ldiv", s, ap2(f, v(0), ap2(d, v(0), v(1))), v(1)),
    ]
}

/// `x f (y g z) = (x f y) g (x f z)` and `(x g y) f z = (x f z) g (y f z)`.
pub fn distributive(f: FuncId, g: FuncId, s: SortId) -> [Axiom; 2] {
    [
        equation(
            "left_distrib",
            s,
            ap2(f, v(0), ap2(g, v(1), v(2))),
            ap2(g, ap2(f, v(0), v(1)), ap2(f, v(0), v(2))),
        ),
        equation(
            "right_distrib",
            s,
            ap2(f, ap2(g, v(0), v(1)), v(2)),
            ap2(g, ap2(f, v(0), v(2)), ap2(f, v(1), v(2))),
        ),
    ]
}

/// `x f (x g y) = x` and `x g (x f y) = x`.
pub fn absorption(f: FuncId, g: FuncId, s: SortId) -> [Axiom; 2] {
    [
        equation("absorb_1", s, ap2(f, v(0), ap2(g, v(0), v(1))), v(0)),
        equation("absorb_2", s, ap2(g, v(0), ap2(f, v(0), v(1))), v(0)),
    ]
}

/// Left self-distributivity `x f (y f z) = (x f y) f (x f z)`.
pub fn left_self_distributive(f: FuncId, s: SortId) -> Axiom {
    equation(
        "left_self_distributive",
        s,
        ap2(f, v(0), ap2(f, v(1), v(2))),
        ap2(f, ap2(f, v(0), v(1)), ap2(f, v(0), v(2))),
    )
}

/// Right self-distributivity `(x f y) f z = (x f z) f (y f z)`.
pub fn right_self_distributive(f: FuncId, s: SortId) -> Axiom {
    equation(
        "right_self_distributive",
        s,
        ap2(f, ap2(f, v(0), v(1)), v(2)),
        ap2(f, ap2(f, v(0), v(2)), ap2(f, v(1), v(2))),
    )
}

/// `x f x f ... f x` with `n ≥ 1` factors, bracketed to the left.
pub fn power(f: FuncId, n: u32, x: Term) -> Term {
    (1..n).fold(x.clone(), |acc, _| ap2(f, acc, x.clone()))
}
