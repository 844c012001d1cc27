//! QUOTIENT: impose an identification between terms, passing to a subvariety: commutativity,
//! `x^n = e` for an identity `e`, or `x * y * x = x`.

use super::laws::{self, ap, ap2, equation, power, v};
use super::{binary_ops, derive, find_binary, identity_of, prov, Derived, Move, MoveError};
use crate::canon::has_axiom;
use crate::theory::Theory;

/// The identifications QUOTIENT knows.
pub const IDENTIFICATIONS: &[&str] = &["commutative", "exponent2", "exponent3", "xyx"];

/// QUOTIENT of `t` by `what` for the operation `op`: `commutative` (`x op y = y op x`),
/// `exponentN` (`x op ... op x = e`, N factors, for the identity `e` of `op`) or `xyx`
/// (`(x op y) op x = x`).
pub fn quotient(t: &Theory, what: &str, op: &str) -> Result<Derived, MoveError> {
    let (f, s) = find_binary(&t.sig, op)?;
    let a = match what {
        "commutative" => laws::comm(f, s),
        "xyx" => equation("xyx", s, ap2(f, ap2(f, v(0), v(1)), v(0)), v(0)),
        w if w.starts_with("exponent") => {
            let n: u32 = w["exponent".len()..]
                .parse()
                .ok()
                .filter(|n| *n >= 2)
                .ok_or_else(|| {
                    MoveError::Inapplicable(format!("`{w}`: write exponentN with N ≥ 2"))
                })?;
            let e = identity_of(t, f, s).ok_or_else(|| {
                MoveError::Inapplicable(format!("`{op}` has no identity in {}", t.name))
            })?;
            equation(&format!("exponent{n}"), s, power(f, n, v(0)), ap(e, vec![]))
        }
        _ => {
            return Err(MoveError::Inapplicable(format!(
                "QUOTIENT knows no identification `{what}`; known: {}",
                IDENTIFICATIONS.join(", ")
            )))
        }
    };
    // The law in the operation's own notation (`x + x = 0`, never `x^2 = 0` for an addition).
    let text = crate::print::FormulaPrinter::new(&t.sig, &a).formula(&a.formula);
    if has_axiom(t, &a) {
        return Err(MoveError::Inapplicable(format!(
            "{} already satisfies {text}",
            t.name
        )));
    }
    let p = prov(
        t,
        Move::Quotient,
        &[("identify", what), ("op", op)],
        format_args!("{} modulo {text}", t.name),
    );
    derive(t, &[], vec![], vec![a], p, format_args!("{what}({op})"))
}

/// Every identification for every binary operation.
pub fn all(t: &Theory) -> Vec<Derived> {
    let mut out = Vec::new();
    for (f, _) in binary_ops(&t.sig) {
        let name = &t.sig.func_decl(f).name;
        out.extend(
            IDENTIFICATIONS
                .iter()
                .filter_map(|w| quotient(t, w, name).ok()),
        );
    }
    out
}
