//! COMPLETE: add a standard axiom the signature supports, declaring a new constant or operation
//! with its defining axioms when the law needs one (an identity element, an inverse, a division),
//! or a law of a family the literature classifies wherever the theory has that family's
//! structure ([`families`]: the identities of Bol-Moufang type, the inverse properties, ...),
//! or, for a lattice, bounds and the operations of the classes of lattices with them
//! ([`expansions`]: orthocomplements, De Morgan negations, pseudocomplements, Heyting
//! implication).

use super::{
    binary_ops, derive, find_binary, fresh_from, identity_of, new_func, prov, Derived, Move,
    MoveError,
};
use super::{expansions, families, laws};
use crate::canon::has_axiom;
use crate::syntax::Axiom;
use crate::theory::Theory;

/// The laws COMPLETE knows: the classical ones, and the one-operation laws that define the
/// standard varieties of semigroups, bands, quasigroups and magmas (zero, regular and normal
/// bands, null semigroups, medial, semisymmetric, unipotent and flexible structures).
pub const LAWS: &[&str] = &[
    "assoc",
    "commutative",
    "idempotent",
    "identity",
    "inverse",
    "left_division",
    "right_division",
    "flexible",
    "left_zero",
    "right_zero",
    "medial",
    "semisymmetric",
    "unipotent",
    "left_regular",
    "right_regular",
    "normal",
    "null",
];

/// The laws COMPLETE knows for a pair of operations.
pub const PAIR_LAWS: &[&str] = &["distributive", "absorption"];

/// COMPLETE with `law` for the binary operation `op`.
///
/// `identity` declares a new constant `e` with `e op x = x = x op e`; `inverse` needs an identity
/// and declares a unary `inv` with `inv(x) op x = e = x op inv(x)`; the divisions declare `/` or
/// `\` with the two axioms that make right or left multiplication bijective.
pub fn complete(t: &Theory, law: &str, op: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, op)?;
    let not_new = || MoveError::Inapplicable(format!("{} already has {law} for `{op}`", t.name));
    let single = |a: Axiom, what: &str| -> Result<Derived, MoveError> {
        if has_axiom(t, &a) {
            return Err(not_new());
        }
        let p = prov(
            t,
            Move::Complete,
            &[("law", law), ("op", op)],
            format_args!("{} with `{op}` {what}", t.name),
        );
        derive(t, &[], vec![], vec![a], p, format_args!("{law}({op})"))
    };
    match law {
        "assoc" => single(laws::assoc(f, s), "associative"),
        "commutative" => single(laws::comm(f, s), "commutative"),
        "idempotent" => single(laws::idempotent(f, s), "idempotent (x = x·x)"),
        "flexible" => single(laws::flexible(f, s), "flexible ((x·y)·x = x·(y·x))"),
        "left_zero" | "right_zero" => {
            let left = law == "left_zero";
            single(
                laws::zero_side(f, s, left),
                if left {
                    "left zero (x·y = x)"
                } else {
                    "right zero (x·y = y)"
                },
            )
        }
        "medial" => single(laws::medial(f, s), "medial ((x·y)·(z·w) = (x·z)·(y·w))"),
        "semisymmetric" => single(laws::semisymmetric(f, s), "semisymmetric (y·(x·y) = x)"),
        "unipotent" => single(laws::unipotent(f, s), "unipotent (x·x = y·y)"),
        "left_regular" | "right_regular" => {
            let left = law == "left_regular";
            single(
                laws::regular_side(f, s, left),
                if left {
                    "left regular ((x·y)·x = x·y)"
                } else {
                    "right regular ((x·y)·x = y·x)"
                },
            )
        }
        "normal" => single(laws::normal(f, s), "normal (((x·y)·z)·x = ((x·z)·y)·x)"),
        "null" => {
            if super::constants(&t.sig)
                .iter()
                .any(|&(c, cs)| cs == s && has_axiom(t, &laws::null(f, c, s)))
            {
                return Err(not_new());
            }
            // The constant product gets a name, so that the class is the null semigroups' with
            // their zero, not a theory one definition short of it.
            let name = fresh_from(&t.sig, &["z0", "zero"]);
            let o = crate::signature::FuncId(t.sig.funcs.len() as u32);
            let p = prov(
                t,
                Move::Complete,
                &[("law", law), ("op", op)],
                format_args!(
                    "{} with every product by `{op}` equal to a new constant `{name}`",
                    t.name
                ),
            );
            derive(
                t,
                &[],
                vec![new_func(name, vec![], s)],
                vec![laws::null(f, o, s)],
                p,
                format_args!("null({op})"),
            )
        }
        "identity" => {
            if identity_of(t, f, s).is_some() {
                return Err(not_new());
            }
            let name = fresh_from(&t.sig, &["e", "one", "unit"]);
            let e = crate::signature::FuncId(t.sig.funcs.len() as u32);
            let p = prov(
                t,
                Move::Complete,
                &[("law", law), ("op", op)],
                format_args!("{} with a two-sided identity `{name}` for `{op}`", t.name),
            );
            derive(
                t,
                &[],
                vec![new_func(name, vec![], s)],
                laws::identity(f, e, s).to_vec(),
                p,
                format_args!("identity({op})"),
            )
        }
        "inverse" => {
            let e = identity_of(t, f, s).ok_or_else(|| {
                MoveError::Inapplicable(format!(
                    "`{op}` has no identity in {}, so inverses are undefined",
                    t.name
                ))
            })?;
            let has_inverse = super::unary_ops(&t.sig)
                .iter()
                .any(|(i, _)| laws::inverse(f, *i, e, s).iter().all(|a| has_axiom(t, a)));
            if has_inverse {
                return Err(not_new());
            }
            let name = fresh_from(&t.sig, &["inv", "inverse"]);
            let i = crate::signature::FuncId(t.sig.funcs.len() as u32);
            let ename = &t.sig.func_decl(e).name;
            let p = prov(
                t,
                Move::Complete,
                &[("law", law), ("op", op)],
                format_args!(
                    "{} with two-sided inverses `{name}(x)` for `{op}` with respect to `{ename}`",
                    t.name
                ),
            );
            derive(
                t,
                &[],
                vec![new_func(name, vec![s], s)],
                laws::inverse(f, i, e, s).to_vec(),
                p,
                format_args!("inverse({op})"),
            )
        }
        "right_division" | "left_division" => {
            let right = law == "right_division";
            let name = if right {
                fresh_from(&t.sig, &["/", "rdiv"])
            } else {
                fresh_from(&t.sig, &["\\", "ldiv"])
            };
            let d = crate::signature::FuncId(t.sig.funcs.len() as u32);
            let axioms = if right {
                laws::right_division(f, d, s)
            } else {
                laws::left_division(f, d, s)
            };
            let side = if right { "right" } else { "left" };
            let p = prov(t, Move::Complete, &[("law", law), ("op", op)], format_args!("{} with {side} multiplications by `{op}` bijective, inverted by a new `{name}`", t.name));
            derive(
                t,
                &[],
                vec![new_func(name, vec![s, s], s)],
                axioms.to_vec(),
                p,
                format_args!("{law}({op})"),
            )
        }
        _ if expansions::EXPANSIONS.contains(&law) => {
            let found = expansions::LatticeOps::with_meet(t, f)
                .iter()
                .flat_map(|ops| expansions::expansions(t, ops))
                .find(|x| x.name == law);
            match found {
                Some(x) => complete_expansion(t, x, op),
                None => Err(MoveError::Inapplicable(format!(
                    "{} has no lattice with meet `{op}` that lacks {law} (engine::moves::expansions)",
                    t.name
                ))),
            }
        }
        _ => {
            let family = families::laws_for(t, f, s);
            let Some(found) = family.into_iter().find(|l| l.axiom.name == law) else {
                return Err(MoveError::Inapplicable(format!(
                    "COMPLETE knows no law `{law}` for `{op}` in {}; known: {}, and the laws of \
                     the families that apply (Bol-Moufang, inverse properties, racks, lattices, \
                     nonassociative rings, semigroup identities, inverse semigroups: \
                     engine::moves::families)",
                    t.name,
                    LAWS.join(", ")
                )));
            };
            complete_family(t, found, op)
        }
    }
}

/// COMPLETE with `found`, a law of a family that applies to `op` in `t`
/// ([`families::laws_for`]), unless `t` has it already.
fn complete_family(t: &Theory, found: families::FamilyLaw, op: &str) -> Result<Derived, MoveError> {
    let law = found.axiom.name.clone();
    if has_axiom(t, &found.axiom) {
        return Err(MoveError::Inapplicable(format!(
            "{} already has {law} for `{op}`",
            t.name
        )));
    }
    let printed =
        crate::print::FormulaPrinter::new(&t.sig, &found.axiom).formula(&found.axiom.formula);
    let p = prov(
        t,
        Move::Complete,
        &[("law", &law), ("op", op)],
        format_args!(
            "{} with `{op}` satisfying {} ({printed})",
            t.name, found.description
        ),
    );
    derive(
        t,
        &[],
        vec![],
        vec![found.axiom],
        p,
        format_args!("{law}({op})"),
    )
}

/// COMPLETE with `x`, an expansion of a lattice with meet `op` ([`expansions::expansions`]).
fn complete_expansion(
    t: &Theory,
    x: expansions::Expansion,
    op: &str,
) -> Result<Derived, MoveError> {
    let p = prov(
        t,
        Move::Complete,
        &[("law", x.name), ("op", op)],
        format_args!("{} with {}", t.name, x.description),
    );
    derive(
        t,
        &[],
        x.funcs,
        x.axioms,
        p,
        format_args!("{}({op})", x.name),
    )
}

/// COMPLETE with a law relating two operations: `distributive` (`op` over `other`, both sides)
/// or `absorption` (`x op (x other y) = x` and `x other (x op y) = x`).
pub fn complete_pair(t: &Theory, law: &str, op: &str, other: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, op)?;
    let (g, s2) = find_binary(&t.sig, other)?;
    if s != s2 || f == g {
        return Err(MoveError::Inapplicable(format!(
            "`{op}` and `{other}` must be two operations on one sort"
        )));
    }
    let (axioms, what) = match law {
        "distributive" => (
            laws::distributive(f, g, s),
            format!("`{op}` distributing over `{other}` on both sides"),
        ),
        "absorption" => (
            laws::absorption(f, g, s),
            format!("`{op}` and `{other}` absorbing each other"),
        ),
        _ => {
            return Err(MoveError::Inapplicable(format!(
                "COMPLETE knows no law `{law}` for two operations; known: {}",
                PAIR_LAWS.join(", ")
            )))
        }
    };
    let new: Vec<Axiom> = axioms.into_iter().filter(|a| !has_axiom(t, a)).collect();
    if new.is_empty() {
        return Err(MoveError::Inapplicable(format!(
            "{} already has {law} for `{op}`, `{other}`",
            t.name
        )));
    }
    let p = prov(
        t,
        Move::Complete,
        &[("law", law), ("op", op), ("other", other)],
        format_args!("{} with {what}", t.name),
    );
    derive(t, &[], vec![], new, p, format_args!("{law}({op},{other})"))
}

/// Every COMPLETE result for every operation (and ordered pair of operations) of `t`.
pub fn all(t: &Theory) -> Vec<Derived> {
    let ops = binary_ops(&t.sig);
    let mut out = Vec::new();
    for (f, _) in &ops {
        let name = &t.sig.func_decl(*f).name;
        out.extend(LAWS.iter().filter_map(|law| complete(t, law, name).ok()));
        out.extend(
            families::laws_for(t, *f, t.sig.func_decl(*f).result)
                .into_iter()
                .filter_map(|l| complete_family(t, l, name).ok()),
        );
        for lattice in expansions::LatticeOps::with_meet(t, *f) {
            out.extend(
                expansions::expansions(t, &lattice)
                    .into_iter()
                    .filter_map(|x| complete_expansion(t, x, name).ok()),
            );
        }
        for (g, _) in &ops {
            let other = &t.sig.func_decl(*g).name;
            out.extend(
                PAIR_LAWS
                    .iter()
                    .filter(|l| **l != "absorption" || f < g)
                    .filter_map(|law| complete_pair(t, law, name, other).ok()),
            );
        }
    }
    out
}
