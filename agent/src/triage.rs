//! Triage: every candidate a cycle generated gets its spectrum counted, cheaply, before any is
//! looked at closely; the candidates are grouped by spectrum, and the ones to check are chosen
//! one per group, so that a cycle looks at every kind of model its explorations reached rather
//! than at the first few by syntax.
//!
//! The groups are ranked by what their spectra say, not by syntax alone: within a tier, by the
//! best member's interest (the calibrated ranking the strategist keeps by, docs/SCORING.md, read
//! on the triage spectrum), so that a class the explorer's syntactic order puts late (a lattice
//! expanded by an orthocomplement has more symbols and longer laws than a lattice with one law
//! dropped) is still looked at when its models look like those of a named class.
//!
//! A group's members agree up to the plan's largest size, which does not make them one class:
//! triage chooses what to look at, and never decides what a candidate is. The members not chosen
//! this cycle stay as they were generated.

use crate::situation::{Base, Candidate};
use crate::tools::Scorer;
use birkhoff_checker::{Budget, SpectrumRow, Status};
use rayon::prelude::*;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Search nodes per size for a triage count: a count that needs more is cut short (a lower
/// bound), which still groups the candidate with others cut at the same size. A node budget, not
/// a clock, so that triage chooses the same candidates on a loaded machine.
pub const TRIAGE_NODES: u64 = 20_000;

/// Wall-clock time per size for a triage count, a backstop for searches whose nodes are slow
/// (large compiled problems); a count within [`TRIAGE_NODES`] rarely comes near it.
const TRIAGE_TIME: Duration = Duration::from_secs(2);

/// What triage did: the candidates to check, best first, and how many it looked at.
pub struct Triage {
    /// The candidates chosen for the full check, at most the plan's `check_top`.
    pub chosen: Vec<Candidate>,
    /// How many candidates were counted.
    pub counted: usize,
    /// How many different spectra they had.
    pub spectra: usize,
    /// Seconds spent counting.
    pub seconds: f64,
}

/// How a group ranks: the groups with a model above size 1 whose spectrum differs from their
/// parents' first, then those with their parent's spectrum so far, then those with no model
/// above size 1 (or none counted exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Tier {
    /// Models above size 1, and a spectrum none of the candidate's parents has.
    Differs,
    /// Models above size 1, with a parent's spectrum up to the size counted.
    AsParent,
    /// No model above size 1 counted exactly.
    Trivial,
}

/// A spectrum as a grouping key: each size tuple with its count of classes if exact. A count cut
/// short by the node budget is only "cut here": how far it got depends on how the threads shared
/// the nodes, and triage must choose the same on every run (a resumed run redoes a cycle).
type Key = Vec<(Vec<u32>, Option<u128>)>;

fn key(rows: &[SpectrumRow]) -> Key {
    rows.iter().map(|r| (r.sizes.clone(), exact(r))).collect()
}

/// The row's count of classes, if exact.
fn exact(r: &SpectrumRow) -> Option<u128> {
    (r.iso.status == Status::Exact).then_some(r.iso.value)
}

/// The candidates of each exploration, best first by the explorer's (syntactic) ranking,
/// interleaved: the first of each exploration, then the second of each, and so on; each with
/// the index of its exploration.
fn interleaved(per_exploration: Vec<Vec<Candidate>>) -> Vec<(usize, Candidate)> {
    let mut lists: Vec<std::vec::IntoIter<Candidate>> =
        per_exploration.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    loop {
        let before = out.len();
        for (e, l) in lists.iter_mut().enumerate() {
            out.extend(l.next().map(|c| (e, c)));
        }
        if out.len() == before {
            return out;
        }
    }
}

/// Counts every candidate's spectrum up to `max_size` within the triage budget (in parallel,
/// stopping early on `cancel`), groups them by spectrum, and chooses at most `check_top` to
/// check: one from each group in turn, then a second from each, and so on. The groups are
/// ranked by [`Tier`]; within a tier, the explorations take turns (a group is its best member's
/// exploration's), so that one base with many spectra does not crowd out the others, and each
/// exploration's groups come by their best member's interest under `scorer` on the triage
/// spectrum (ties by the explorations' order). `bases` give the parents' spectra.
pub fn choose(
    per_exploration: Vec<Vec<Candidate>>,
    bases: &[Base],
    check_top: usize,
    max_size: u32,
    scorer: &dyn Scorer,
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Triage {
    let start = Instant::now();
    let (exploration, candidates): (Vec<usize>, Vec<Candidate>) =
        interleaved(per_exploration).into_iter().unzip();
    let budget = Budget {
        time: Some(TRIAGE_TIME),
        nodes: Some(TRIAGE_NODES),
        cancel,
        ..Budget::default()
    };
    let spectra: Vec<Option<Vec<SpectrumRow>>> = candidates
        .par_iter()
        .map(|c| birkhoff_scorer::evidence::counts(&c.theory, max_size, &budget).ok())
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    let interest: Vec<f64> = candidates
        .par_iter()
        .zip(&spectra)
        .map(|(c, rows)| scorer.interest(&c.theory, rows.as_deref()))
        .collect();
    let parent_keys = |c: &Candidate| -> Vec<Key> {
        c.parents
            .iter()
            .filter_map(|p| bases.iter().find(|b| b.name == *p || b.theory.name == *p))
            .filter_map(|b| b.spectrum.as_ref())
            .map(|rows| {
                let upto: Vec<SpectrumRow> = rows
                    .iter()
                    .filter(|r| r.sizes.iter().all(|&n| n <= max_size))
                    .cloned()
                    .collect();
                key(&upto)
            })
            .collect()
    };
    // Groups in order of their best member, each with its tier and members' indices.
    let mut groups: Vec<(Tier, Vec<usize>)> = Vec::new();
    let mut index: HashMap<Option<Key>, usize> = HashMap::new();
    for (i, (c, rows)) in candidates.iter().zip(&spectra).enumerate() {
        let k = rows.as_deref().map(key);
        let g = *index.entry(k.clone()).or_insert_with(|| {
            let nontrivial = rows.as_deref().is_some_and(|rows| {
                rows.iter()
                    .any(|r| exact(r).is_some_and(|n| n > 0) && r.sizes.iter().any(|&n| n > 1))
            });
            let tier = match &k {
                _ if !nontrivial => Tier::Trivial,
                Some(k) if parent_keys(c).contains(k) => Tier::AsParent,
                _ => Tier::Differs,
            };
            groups.push((tier, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(i);
    }
    let distinct = groups.len();
    // Members best first by interest; stable, so ties keep the explorations' order.
    let by_interest = |a: &usize, b: &usize| interest[*b].total_cmp(&interest[*a]);
    for (_, members) in &mut groups {
        members.sort_by(by_interest);
    }
    groups.sort_by(|(ta, a), (tb, b)| ta.cmp(tb).then_with(|| by_interest(&a[0], &b[0])));
    // The explorations take turns within a tier: a group's turn is its place among its
    // exploration's groups of that tier.
    let mut seen: HashMap<(Tier, usize), usize> = HashMap::new();
    let turn: Vec<usize> = groups
        .iter()
        .map(|(tier, m)| {
            let n = seen.entry((*tier, exploration[m[0]])).or_default();
            *n += 1;
            *n
        })
        .collect();
    let mut ranked: Vec<(usize, (Tier, Vec<usize>))> = turn.into_iter().zip(groups).collect();
    // Stable: within a turn, groups stay best first by interest.
    ranked.sort_by_key(|(turn, (tier, _))| (*tier, *turn));
    let groups: Vec<(Tier, Vec<usize>)> = ranked.into_iter().map(|(_, g)| g).collect();
    let mut order = Vec::new();
    for round in 0.. {
        let before = order.len();
        order.extend(groups.iter().filter_map(|(_, m)| m.get(round).copied()));
        if order.len() == before || order.len() >= check_top {
            break;
        }
    }
    order.truncate(check_top);
    let mut slots: Vec<Option<Candidate>> = candidates.into_iter().map(Some).collect();
    let chosen = order.into_iter().filter_map(|i| slots[i].take()).collect();
    Triage {
        chosen,
        counted: spectra.len(),
        spectra: distinct,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::TenDimensions;
    use birkhoff_engine::{seeds, Theory};

    fn candidate(name: &str, t: Theory, parent: &str) -> Candidate {
        Candidate::new(name.into(), t, "test".into(), vec![parent.into()])
    }

    fn parse(text: &str) -> Theory {
        Theory::parse(text, "test.bk").unwrap()
    }

    #[test]
    fn one_candidate_per_spectrum_is_chosen_first_and_the_parents_spectrum_and_trivial_ones_last() {
        let semigroup = seeds::load("semigroup").unwrap();
        let comm = seeds::load("comm_semigroup").unwrap();
        let trivial = parse("theory T\nfunc * : 2\naxiom all_equal: x = y\n");
        // The parent, a base whose stored spectrum is the semigroups' up to size 3.
        let (rows, _) =
            birkhoff_scorer::evidence::spectrum(&semigroup, 3, &Budget::default()).unwrap();
        let base = Base {
            name: "semigroup".into(),
            theory: semigroup.clone(),
            spectrum: Some(rows),
            score: None,
            discovery: false,
            record: None,
        };
        // The explorer's order: the parent's spectrum first, then two commutative ones (one
        // spectrum), then a trivial one.
        let per_exploration = vec![vec![
            candidate("same", semigroup.clone(), "semigroup"),
            candidate("comm1", comm.clone(), "semigroup"),
            candidate("comm2", comm.clone(), "semigroup"),
            candidate("trivial", trivial, "semigroup"),
        ]];
        let chosen = |top: usize| {
            let t = choose(
                per_exploration.clone(),
                std::slice::from_ref(&base),
                top,
                3,
                &TenDimensions::default(),
                None,
            );
            assert_eq!((t.counted, t.spectra), (4, 3));
            t.chosen.into_iter().map(|c| c.name).collect::<Vec<_>>()
        };
        assert_eq!(chosen(1), ["comm1"]);
        assert_eq!(chosen(3), ["comm1", "same", "trivial"]);
        assert_eq!(chosen(10), ["comm1", "same", "trivial", "comm2"]);
    }

    #[test]
    fn within_a_tier_the_groups_are_ranked_by_interest_not_by_the_explorers_order() {
        let magma = seeds::load("magma").unwrap();
        let base = Base {
            name: "magma".into(),
            theory: magma,
            spectrum: None,
            score: None,
            discovery: false,
            record: None,
        };
        // The explorer puts a magma with a long law of no known family first (hundreds of
        // models of order 4, no associative operation); bands, a class people name (few models,
        // associative), come second. Both have spectra of their own.
        let odd = parse("theory Odd\nfunc * : 2\naxiom odd: x * (y * (x * z)) = (z * y) * x\n");
        let band = parse(
            "theory B\nfunc * : 2\naxiom assoc: (x * y) * z = x * (y * z)\naxiom idem: x * x = x\n",
        );
        let scorer = TenDimensions::default();
        let per_exploration = vec![vec![
            candidate("odd", odd.clone(), "magma"),
            candidate("band", band.clone(), "magma"),
        ]];
        let t = choose(per_exploration, &[base], 1, 4, &scorer, None);
        assert_eq!(t.spectra, 2);
        let chosen: Vec<String> = t.chosen.into_iter().map(|c| c.name).collect();
        assert_eq!(chosen, ["band"]);
    }
}
