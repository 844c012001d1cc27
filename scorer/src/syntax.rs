//! The dimensions read off the axioms alone: economy, naturality, and the law half of
//! connections. They need no models, so exploration can rank candidates by them before any
//! search runs.

use crate::laws::{self, LawId};
use birkhoff_engine::syntax::{Formula, Term};
use birkhoff_engine::{Axiom, Theory};
use std::sync::OnceLock;

/// Symbol, variable and connective occurrences in a formula.
fn formula_size(f: &Formula) -> usize {
    match f {
        Formula::True | Formula::False => 1,
        Formula::Eq(a, b) => a.size() + b.size(),
        Formula::Rel(_, args) => 1 + args.iter().map(Term::size).sum::<usize>(),
        Formula::Not(g) => 1 + formula_size(g),
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => vs.len() + formula_size(g),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => 1 + formula_size(a) + formula_size(b),
    }
}

/// Economy: `exp(−S/60)` where `S` counts every symbol, variable and connective in the axioms.
/// The group axioms (S = 28) score 0.63; an empty theory 1. Short definitions are preferred,
/// because a law that needs many symbols is usually a consequence or a special case.
pub fn economy(t: &Theory) -> f64 {
    let s: usize = t.axioms.iter().map(|a| formula_size(&a.formula)).sum();
    (-(s as f64) / 60.0).exp()
}

/// How plain one axiom is: 1 with at most three variables and terms of depth at most three,
/// halved for each variable or level beyond.
fn plainness(a: &Axiom) -> f64 {
    let mut depth = 0;
    a.formula.for_each_atom_term(&mut |t| depth = depth.max(t.depth()));
    let excess = a.vars.len().saturating_sub(3) + depth.saturating_sub(3);
    0.5f64.powi(excess as i32)
}

/// Naturality: `0.7·L + 0.3·P`, where `L` is the share of axioms that are instances of a
/// catalogued standard law (associativity, identities, distributivity, self-distributivity,
/// divisions, order axioms...: see [`laws`]) and `P` the mean plainness of the axioms. A theory
/// without axioms scores 0: there is nothing natural about saying nothing.
pub fn naturality(t: &Theory) -> f64 {
    naturality_of(t, &recognize(t))
}

/// The catalogued law of each axiom of `t`, in order: what [`naturality_of`] and
/// [`nearest_seed_of`] read, computed once per theory.
pub fn recognize(t: &Theory) -> Vec<Option<LawId>> {
    t.axioms.iter().map(|a| laws::recognize_id(a)).collect()
}

/// [`naturality`] with the axioms' laws already recognised (`laws[i]` for axiom `i`).
pub fn naturality_of(t: &Theory, laws: &[Option<LawId>]) -> f64 {
    if t.axioms.is_empty() {
        return 0.0;
    }
    let n = t.axioms.len() as f64;
    let recognised = laws.iter().filter(|l| l.is_some()).count() as f64;
    let plain: f64 = t.axioms.iter().map(|a| plainness(a)).sum();
    0.7 * recognised / n + 0.3 * plain / n
}

/// The catalogued laws of a theory with multiplicity: entry `i` counts the axioms that are
/// instances of law `i` of the catalogue.
fn law_counts(laws: &[Option<LawId>]) -> Vec<u32> {
    let mut out = vec![0; laws::catalogue_len()];
    laws.iter().flatten().for_each(|l| out[l.0] += 1);
    out
}

/// The seed theories' law counts, computed once.
fn seed_profiles() -> &'static [(String, Vec<u32>)] {
    static PROFILES: OnceLock<Vec<(String, Vec<u32>)>> = OnceLock::new();
    PROFILES.get_or_init(|| {
        birkhoff_engine::seeds::all().iter().filter_map(|s| birkhoff_engine::seeds::load(s.name).ok()).map(|t| (t.name.clone(), law_counts(&recognize(&t)))).collect()
    })
}

/// The seed whose catalogued laws overlap most with `t`'s (Jaccard index of the multisets), and
/// that overlap. A candidate built from associativity and an identity is close to Monoid.
pub fn nearest_seed_by_laws(t: &Theory) -> Option<(&'static str, f64)> {
    nearest_seed_of(&recognize(t))
}

/// [`nearest_seed_by_laws`] with the axioms' laws already recognised.
pub fn nearest_seed_of(laws: &[Option<LawId>]) -> Option<(&'static str, f64)> {
    if laws.iter().all(Option::is_none) {
        return None;
    }
    let mine = law_counts(laws);
    seed_profiles()
        .iter()
        .map(|(name, theirs)| {
            let (inter, union) = mine.iter().zip(theirs).fold((0, 0), |(i, u), (&a, &b)| (i + a.min(b), u + a.max(b)));
            (name.as_str(), f64::from(inter) / f64::from(union))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_axioms_are_natural_and_recognised() {
        let g = birkhoff_engine::seeds::load("group").unwrap();
        assert!(naturality(&g) > 0.95, "{}", naturality(&g));
        let (seed, overlap) = nearest_seed_by_laws(&g).unwrap();
        assert_eq!((seed, overlap), ("Group", 1.0));
        assert!((economy(&g) - (-28.0f64 / 60.0).exp()).abs() < 1e-9);
    }
}
