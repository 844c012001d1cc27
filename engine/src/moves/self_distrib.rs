//! SELF_DISTRIB: add left or right self-distributivity of a binary operation, the route from
//! magmas to shelves, racks and quandles.

use super::laws;
use super::{binary_ops, derive, find_binary, prov, Derived, Move, MoveError};
use crate::canon::has_axiom;
use crate::theory::Theory;

/// SELF_DISTRIB on `op`, `side` being `left` (`x op (y op z) = (x op y) op (x op z)`) or
/// `right` (`(x op y) op z = (x op z) op (y op z)`).
pub fn self_distrib(t: &Theory, op: &str, side: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, op)?;
    let a = match side {
        "left" => laws::left_self_distributive(f, s),
        "right" => laws::right_self_distributive(f, s),
        _ => {
            return Err(MoveError::Inapplicable(format!(
                "SELF_DISTRIB side must be `left` or `right`, not `{side}`"
            )))
        }
    };
    if has_axiom(t, &a) {
        return Err(MoveError::Inapplicable(format!(
            "{} is already {side} self-distributive for `{op}`",
            t.name
        )));
    }
    let p = prov(
        t,
        Move::SelfDistrib,
        &[("op", op), ("side", side)],
        format_args!("{} with `{op}` {side} self-distributive", t.name),
    );
    derive(t, &[], vec![], vec![a], p, format_args!("{side}_sd({op})"))
}

/// Both sides for every binary operation.
pub fn all(t: &Theory) -> Vec<Derived> {
    let mut out = Vec::new();
    for (f, _) in binary_ops(&t.sig) {
        let name = &t.sig.func_decl(f).name;
        out.extend(
            ["left", "right"]
                .iter()
                .filter_map(|side| self_distrib(t, name, side).ok()),
        );
    }
    out
}
