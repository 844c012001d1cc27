//! ABSTRACT: generalize a theory by dropping one axiom, or form the common part of two theories
//! modulo renaming (the axioms of the first whose images under a signature map hold in the second).
//! (The module is not called `abstract`, a reserved word in Rust.)

use super::transfer::{carried, maps, MAX_MAPS};
use super::{derive, prov, Derived, Move, MoveError, Provenance};
use crate::canon::has_axiom;
use crate::theory::Theory;

/// ABSTRACT by dropping the axiom called `axiom`.
pub fn drop_axiom(t: &Theory, axiom: &str) -> Result<Derived, MoveError> {
    let at = t.axioms.iter().position(|a| a.name == axiom).ok_or_else(|| MoveError::Inapplicable(format!("{} has no axiom `{axiom}`", t.name)))?;
    let p = prov(t, Move::Abstract, &[("drop", axiom)], format!("{} without `{axiom}`", t.name));
    derive(t, &[at], vec![], vec![], p, &format!("-{axiom}"))
}

/// ABSTRACT two theories: the axioms of `a` that hold verbatim (up to variables) in `b` under the
/// signature map that keeps the most of them. Fails unless some but not all axioms are common.
pub fn common_part(a: &Theory, b: &Theory) -> Result<Derived, MoveError> {
    let best = maps(a, b, MAX_MAPS)
        .into_iter()
        .filter_map(|m| {
            let keep: Vec<bool> = carried(a, b, &m)?.iter().map(|x| has_axiom(b, x)).collect();
            Some((keep.iter().filter(|k| **k).count(), keep, m))
        })
        .max_by_key(|(n, _, _)| *n);
    let Some((n, keep, map)) = best.filter(|(n, _, _)| *n > 0 && *n < a.axioms.len()) else {
        return Err(MoveError::Inapplicable(format!("{} and {} share no proper part of {}'s axioms", a.name, b.name, a.name)));
    };
    let removed: Vec<usize> = keep.iter().enumerate().filter(|(_, k)| !**k).map(|(i, _)| i).collect();
    let p = Provenance {
        parents: vec![a.name.clone(), b.name.clone()],
        mv: Move::Abstract,
        params: map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        description: format!("what {} and {} have in common: {n} axioms of {}", a.name, b.name, a.name),
    };
    derive(a, &removed, vec![], vec![], p, &format!("common({})", b.name))
}

/// The common part of `a` and `b`, if they have one.
pub fn common_parts(a: &Theory, b: &Theory) -> Vec<Derived> {
    common_part(a, b).into_iter().collect()
}

/// Every single-axiom drop.
pub fn all(t: &Theory) -> Vec<Derived> {
    t.axioms.iter().filter_map(|a| drop_axiom(t, &a.name).ok()).collect()
}
