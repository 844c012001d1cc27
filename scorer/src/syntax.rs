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
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            1 + formula_size(a) + formula_size(b)
        }
    }
}

/// What the syntactic dimensions read from one axiom: its catalogued law, its size (symbols,
/// variables and connectives) and its plainness. An exploration's theories share most of their
/// axioms, so [`crate::score_syntactic_all`] reads each shared axiom once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxiomFacts {
    /// The catalogued law the axiom is an instance of, if any.
    pub law: Option<LawId>,
    /// Symbol, variable and connective occurrences.
    pub size: u32,
    /// 1 with at most three variables and terms of depth at most three, halved for each
    /// variable or level beyond (a power of two, so exact in `f32`).
    pub plainness: f32,
}

impl AxiomFacts {
    /// The facts of `a`.
    pub fn of(a: &Axiom) -> AxiomFacts {
        AxiomFacts {
            law: laws::recognize_id(a),
            size: formula_size(&a.formula) as u32,
            plainness: plainness(a),
        }
    }

    /// The facts of every axiom of `t`, in order.
    pub fn all(t: &Theory) -> Vec<AxiomFacts> {
        t.axioms.iter().map(|a| AxiomFacts::of(a)).collect()
    }
}

/// Economy: `exp(−S/60)` where `S` counts every symbol, variable and connective in the axioms.
/// The group axioms (S = 28) score 0.63; an empty theory 1. Short definitions are preferred,
/// because a law that needs many symbols is usually a consequence or a special case.
pub fn economy(t: &Theory) -> f64 {
    economy_of(&AxiomFacts::all(t))
}

/// [`economy`] from the axioms' facts.
pub fn economy_of(facts: &[AxiomFacts]) -> f64 {
    let s: f64 = facts.iter().map(|f| f64::from(f.size)).sum();
    (-s / 60.0).exp()
}

fn plainness(a: &Axiom) -> f32 {
    let mut depth = 0;
    a.formula
        .for_each_atom_term(&mut |t| depth = depth.max(t.depth()));
    let excess = a.vars.len().saturating_sub(3) + depth.saturating_sub(3);
    0.5f32.powi(excess as i32)
}

/// Naturality: `0.7·L + 0.3·P`, where `L` is the share of axioms that are instances of a
/// catalogued standard law (associativity, identities, distributivity, self-distributivity,
/// divisions, order axioms...: see [`laws`]) and `P` the mean plainness of the axioms
/// ([`AxiomFacts::plainness`]). A theory without axioms scores 0: there is nothing natural about
/// saying nothing.
pub fn naturality(t: &Theory) -> f64 {
    naturality_of(&AxiomFacts::all(t))
}

/// Core: 1 when the axioms give the theory one of the cores that the classified families are
/// built on, 0 otherwise: an associative operation (semigroups, groups, lattices, rings), both
/// laws of a left or of a right division (quasigroups, loops, racks), or a transitive relation
/// (orders). Laws are recognised up to renaming ([`laws`]), so a core axiomatized some other way
/// (by a single axiom that implies associativity) is not seen. Magmas with weak laws only, such
/// as a flexible unital magma, have none: the families people classify rarely do.
pub fn core(t: &Theory) -> f64 {
    let found: Vec<&str> = t.axioms.iter().filter_map(|a| laws::recognize(a)).collect();
    let count = |of: &[&str]| found.iter().filter(|law| of.contains(law)).count();
    // x \ (x * y) = y and x * (x \ y) = y are one law up to renaming (the two operations
    // swapped), so both are recognised as the first: a whole division is two of the pair.
    let core = count(&["associativity", "transitivity"]) > 0
        || count(&["left_division_1", "left_division_2"]) >= 2
        || count(&["right_division_1", "right_division_2"]) >= 2;
    f64::from(u8::from(core))
}

/// The catalogued law of each axiom of `t`, in order.
pub fn recognize(t: &Theory) -> Vec<Option<LawId>> {
    t.axioms.iter().map(|a| laws::recognize_id(a)).collect()
}

/// [`naturality`] from the axioms' facts.
pub fn naturality_of(facts: &[AxiomFacts]) -> f64 {
    if facts.is_empty() {
        return 0.0;
    }
    let n = facts.len() as f64;
    let recognised = facts.iter().filter(|f| f.law.is_some()).count() as f64;
    let plain: f64 = facts.iter().map(|f| f64::from(f.plainness)).sum();
    0.7 * recognised / n + 0.3 * plain / n
}

/// The seed theories' catalogued laws, indexed by law: a theory has a few laws and the
/// catalogue many, so [`nearest_seed_of`] visits only the seeds that share one of them.
struct SeedLaws {
    /// Each seed's name and number of catalogued axioms (laws with multiplicity).
    seeds: Vec<(String, u32)>,
    /// For each law of the catalogue, the seeds having it: the seed's index, and how many of
    /// its axioms are instances of the law.
    by_law: Vec<Vec<(usize, u32)>>,
}

/// The seed theories' laws, computed once.
fn seed_laws() -> &'static SeedLaws {
    static LAWS: OnceLock<SeedLaws> = OnceLock::new();
    LAWS.get_or_init(|| {
        let mut out = SeedLaws {
            seeds: Vec::new(),
            by_law: vec![Vec::new(); laws::catalogue_len()],
        };
        for t in birkhoff_engine::seeds::all()
            .iter()
            .filter_map(|s| birkhoff_engine::seeds::load(s.name).ok())
        {
            let seed = out.seeds.len();
            let mut total = 0;
            for law in recognize(&t).into_iter().flatten() {
                let having = &mut out.by_law[usize::from(law.0)];
                match having.last_mut() {
                    Some((s, count)) if *s == seed => *count += 1,
                    _ => having.push((seed, 1)),
                }
                total += 1;
            }
            out.seeds.push((t.name, total));
        }
        out
    })
}

/// The seed whose catalogued laws overlap most with `t`'s (Jaccard index of the multisets), and
/// that overlap. A candidate built from associativity and an identity is close to Monoid.
pub fn nearest_seed_by_laws(t: &Theory) -> Option<(&'static str, f64)> {
    nearest_seed_of(&AxiomFacts::all(t))
}

/// [`nearest_seed_by_laws`] from the axioms' facts.
pub fn nearest_seed_of(facts: &[AxiomFacts]) -> Option<(&'static str, f64)> {
    if facts.iter().all(|f| f.law.is_none()) {
        return None;
    }
    // The intersection (of multisets) with each seed, summed over the seeds sharing a law;
    // the union is the two totals less the intersection.
    let mut mine: Vec<usize> = facts
        .iter()
        .filter_map(|f| f.law.map(|l| usize::from(l.0)))
        .collect();
    mine.sort_unstable();
    let total = mine.len() as u32;
    let known = seed_laws();
    let mut inter = vec![0u32; known.seeds.len()];
    for run in mine.chunk_by(|a, b| a == b) {
        for &(seed, theirs) in &known.by_law[run[0]] {
            inter[seed] += (run.len() as u32).min(theirs);
        }
    }
    // The last seed of greatest overlap; a seed sharing no law overlaps 0.
    let mut best = (known.seeds.len().checked_sub(1)?, 0.0);
    for (seed, &i) in inter.iter().enumerate().filter(|(_, i)| **i > 0) {
        let overlap = f64::from(i) / f64::from(total + known.seeds[seed].1 - i);
        if overlap >= best.1 {
            best = (seed, overlap);
        }
    }
    Some((known.seeds[best.0].0.as_str(), best.1))
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

    #[test]
    fn a_core_is_an_associative_operation_a_whole_division_or_a_transitive_relation() {
        let load = |s: &str| birkhoff_engine::seeds::load(s).unwrap();
        for has in ["semigroup", "loop", "poset", "lattice"] {
            assert_eq!(core(&load(has)), 1.0, "{has}");
        }
        let magma = |axioms: &str| {
            Theory::parse(
                &format!("theory M\nfunc * : 2\nfunc \\ : 2\n{axioms}"),
                "m.bk",
            )
            .unwrap()
        };
        // One division law of the two, or weak laws only, is no core.
        assert_eq!(core(&magma("axiom l: x \\ (x * y) = y\n")), 0.0);
        assert_eq!(core(&magma("axiom f: (x * y) * x = x * (y * x)\n")), 0.0);
        assert_eq!(
            core(&magma(
                "axiom l: x \\ (x * y) = y\naxiom m: x * (x \\ y) = y\n"
            )),
            1.0
        );
    }
}
