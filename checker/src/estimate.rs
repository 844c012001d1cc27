//! What a count will cost before it runs: time, classes and memory of one enumeration, whole or
//! cut into the pieces of `sweep --pieces`, predicted from samples of the native finder's own
//! search tree.
//!
//! Knuth (1975, "Estimating the efficiency of backtrack programs") follows one random path down
//! the tree and multiplies the branching factors met: an unbiased estimate of the tree's size,
//! but a skewed one where lex-leader pruning kills most paths early and a rare few carry the
//! mean (semigroups of order 7: thousands of descents found a sixth of the classes).
//! Chen's stratified sampling (1992, "Heuristic search as evidential reasoning") keeps one node
//! of each stratum per level instead of one node, carrying the weight of every node of that
//! stratum: still unbiased, and steady where nodes alike in the stratifier have subtrees alike
//! in size. The stratum is what predicts the size of a subtree here: the cells assigned after
//! propagation, the elements mentioned (the least-number heuristic), and the sum of the values
//! assigned, since the least model of a class has small values and lex-leader pruning crowds the
//! models into the subtrees where they stay small.
//!
//! The tree is first split as the count splits it (the finder's decision paths), so that each
//! piece gets its own estimate; paths the samples find heavy are split further, and the samples
//! left are shared out in proportion to the paths' estimated nodes, where the variance is. Each
//! sample times what the count does at a node (every value tried, propagated, lex-checked) and
//! at a model (the lex-leader and canonical-form work of a piece, or the canonical form of a
//! whole count), so the estimate is of CPU seconds on this machine. Samples are seeded, so the
//! nodes and classes predicted repeat exactly; the seconds are measured, and vary with the load.
//!
//! Classes are estimated as the models that are the least of their class (a full lex-leader
//! check), since each class has exactly one such member and the count always keeps it. The
//! estimate is a prediction, never a count: nothing here is reported as one.

use crate::budget::{Budget, Meter};
use crate::finder::{
    compile_within, key_width, refine, replay, root_search, split_paths, verify, FinderError,
    Options, PATHS_PER_PIECE,
};
use crate::iso;
use crate::lex::{LexLeader, STEP_LIMIT};
use crate::search::{Search, Stratum};
use birkhoff_engine::Theory;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Decision paths a whole (unsplit) count is stratified into: enough that each path's subtree is
/// a small part of the tree, few enough that every path gets samples.
const WHOLE_PATHS: usize = 64;

/// Samples each path gets in the first round, whatever the budget.
const FIRST_ROUND: u64 = 2;

/// Rounds of splitting heavy paths further, a path being heavy when its samples predict more
/// than [`HEAVY_SHARE`] of the whole tree's nodes, up to [`MAX_PATHS`] paths.
const REFINE_ROUNDS: u64 = 8;
const HEAVY_SHARE: f64 = 1.0 / 128.0;
const MAX_PATHS: usize = 4096;

/// The seed of the second round of samples (the first rounds take 0, 1, ...).
const SECOND_ROUND_SEED: u64 = 255;

/// Bytes a whole count holds per class besides its key (the automorphism count, the key's box and
/// the hash map's entry, with room for the map's growth and the merge of the threads' maps).
const BYTES_PER_CLASS_OVERHEAD: u128 = 120;

/// The predicted cost of one count.
#[derive(Clone, Debug, Serialize)]
pub struct Estimate {
    /// Size of each sort.
    pub sizes: Vec<u32>,
    /// CPU seconds of the whole count, summed over its pieces and threads.
    pub cpu_seconds: f64,
    /// Isomorphism classes.
    pub classes: f64,
    /// Models the search meets (complete assignments, isomorphic copies included).
    pub models_met: f64,
    /// Search nodes.
    pub nodes: f64,
    /// Memory one run needs at its peak, in bytes: the sum of the three below.
    pub memory_bytes: u128,
    /// This process as it stood before compiling: the program itself.
    pub program_bytes: u128,
    /// The compiled problem and the search's state (what `--max-memory` is checked against).
    pub problem_bytes: u128,
    /// The classes a whole count keeps until it has merged them (a piece keeps none).
    pub classes_bytes: u128,
    /// One estimate per piece, in piece order (empty for a whole count).
    pub pieces: Vec<PieceEstimate>,
    /// Stratified samples taken.
    pub samples: u64,
    /// Decision paths the tree was stratified into.
    pub paths: usize,
    /// Wall-clock time the estimate itself took.
    pub elapsed: Duration,
}

/// The predicted cost of one piece of a split count.
#[derive(Clone, Debug, Serialize)]
pub struct PieceEstimate {
    /// 1-based piece number.
    pub index: usize,
    /// CPU seconds.
    pub cpu_seconds: f64,
    /// Isomorphism classes whose least member lies in the piece.
    pub classes: f64,
    /// Search nodes.
    pub nodes: f64,
}

/// What a sample's leaf costs and counts, as the count it predicts would spend it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// [`crate::finder::enumerate`]: a canonical form for every model met, the evaluator's check
    /// for every new class.
    Whole,
    /// [`crate::finder::enumerate_piece`] with this many pieces: a full lex-leader check for every
    /// model met, a canonical form and the evaluator's check for the least member of a class.
    Pieces(usize),
}

/// Predicts the cost of counting the models of `t` with these sort sizes, in `mode`, from about
/// `samples` stratified samples, within `budget`'s time and cancel flag. `None` when the budget ran
/// out first (while compiling, splitting or in the first round): no estimate, rather than one
/// from too few samples. A problem propagation alone shows to have no model costs nothing.
pub fn estimate(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    mode: Mode,
    samples: u64,
) -> Result<Option<Estimate>, FinderError> {
    let (start, meter, program) = (Instant::now(), Meter::new(budget), resident_bytes());
    let Ok(p) = compile_within(t, sizes, &meter, start)? else {
        return Ok(None);
    };
    let opts = Options::counts_only();
    let piece_count = match mode {
        Mode::Whole => None,
        Mode::Pieces(count) => Some(count),
    };
    let nothing = |paths| Estimate {
        sizes: sizes.to_vec(),
        cpu_seconds: 0.0,
        classes: 0.0,
        models_met: 0.0,
        nodes: 0.0,
        memory_bytes: program + p.planned_bytes,
        program_bytes: program,
        problem_bytes: p.planned_bytes,
        classes_bytes: 0,
        pieces: piece_count.map_or(Vec::new(), |count| {
            (1..=count)
                .map(|index| PieceEstimate {
                    index,
                    cpu_seconds: 0.0,
                    classes: 0.0,
                    nodes: 0.0,
                })
                .collect()
        }),
        samples: 0,
        paths,
        elapsed: start.elapsed(),
    };
    let Some(root) = root_search(&p, opts, STEP_LIMIT, &meter) else {
        return Ok((!meter.stopped()).then(|| nothing(0)));
    };
    let target = piece_count.map_or(WHOLE_PATHS, |count| count * PATHS_PER_PIECE);
    let Some(mut paths) = split_paths(&root, target, &meter) else {
        return Ok(None);
    };
    if paths.is_empty() {
        return Ok(Some(nothing(0)));
    }
    let lex = LexLeader::new(&p, u32::MAX);
    // The mean of `n` samples below one path (`Ok(None)` when the time ran out), seeded by the
    // path and the round.
    let taken = AtomicU64::new(0);
    let descend = |i: usize, path: &Vec<(usize, u32)>, n: u64, round: u64| {
        // A path that no longer replays has no model below it.
        let Some(s) = replay(&root, path) else {
            return Ok(Some(Tally::default()));
        };
        let (mut lex, mut error) = (lex.clone(), None);
        let mut rng = fastrand::Rng::with_seed((i as u64) << 8 | round);
        let mut leaf = |s: &Search| match leaf_cost(t, &p.sig, mode, &mut lex, s) {
            Ok(cost) => cost,
            Err(e) => {
                error.get_or_insert(e);
                (false, 0.0)
            }
        };
        let from = s.first_open();
        let mut sum = Tally::default();
        for _ in 0..n {
            if meter.out_of_time() {
                return Ok(None);
            }
            let one = sample(&s, from, &mut rng, &mut leaf);
            taken.fetch_add(1, Ordering::Relaxed);
            if !one.merged {
                return error.map_or(Ok(Some(one)), Err);
            }
            sum += one;
        }
        error.map_or(Ok(Some(weighted(sum, 1.0 / n as f64))), Err)
    };
    let first_round = |paths: &[Vec<(usize, u32)>], round: u64| {
        paths
            .par_iter()
            .enumerate()
            .map(|(i, path)| descend(i, path, FIRST_ROUND, round))
            .collect::<Result<Option<Vec<Tally>>, FinderError>>()
    };
    let Some(mut means) = first_round(&paths, 0)? else {
        return Ok(None);
    };
    // The piece each path belongs to is that of the count's own path it lies below.
    let mut owner: Vec<usize> = (0..paths.len()).collect();
    // Paths the samples find heavy are split further: the leftmost subtrees, where symmetry
    // breaking crowds the models, would otherwise hold most of the tree in a few paths.
    for round in 1..=REFINE_ROUNDS {
        let total: f64 = means.iter().map(|m| m.nodes).sum();
        let heavy = |m: &Tally| m.nodes > total * HEAVY_SHARE;
        if paths.len() >= MAX_PATHS || !means.iter().any(heavy) {
            break;
        }
        let (mut next, mut next_owner, mut next_means, mut fresh) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for ((path, m), o) in paths.iter().zip(&means).zip(&owner) {
            let children = match heavy(m) {
                true => match refine(&root, path, &meter) {
                    Some(children) => children,
                    None => return Ok(None),
                },
                false => Vec::new(),
            };
            if children.len() <= 1 {
                next.push(path.clone());
                next_means.push(Some(*m));
                next_owner.push(*o);
            } else {
                for c in children {
                    fresh.push(next.len());
                    next.push(c);
                    next_means.push(None);
                    next_owner.push(*o);
                }
            }
        }
        let fresh_paths: Vec<Vec<(usize, u32)>> = fresh.iter().map(|&i| next[i].clone()).collect();
        let Some(found) = first_round(&fresh_paths, round)? else {
            return Ok(None);
        };
        for (&i, m) in fresh.iter().zip(found) {
            next_means[i] = Some(m);
        }
        paths = next;
        owner = next_owner;
        means = next_means
            .into_iter()
            .map(|m| m.expect("every path has samples"))
            .collect();
    }
    // The rest of the samples, in proportion to each path's estimated nodes: Neyman's allocation
    // with the spread taken as proportional to the mean, which is what makes heavy paths noisy.
    let rest = samples.saturating_sub(taken.load(Ordering::Relaxed));
    let sampled = |m: &Tally| if m.merged { m.nodes } else { 0.0 };
    let total: f64 = means.iter().map(sampled).sum();
    if rest > 0 && total > 0.0 {
        let more: Vec<u64> = means
            .iter()
            .map(|m| (rest as f64 * sampled(m) / total).round() as u64)
            .collect();
        let second: Vec<Option<Tally>> = paths
            .par_iter()
            .enumerate()
            .map(|(i, path)| match more[i] {
                0 => Ok(None),
                n => descend(i, path, n, SECOND_ROUND_SEED),
            })
            .collect::<Result<_, FinderError>>()?;
        // A path whose second round was cut short keeps its first round's mean; the others
        // average both rounds, weighted by their samples.
        for (i, s) in second.into_iter().enumerate() {
            if let Some(s) = s {
                let (a, b) = (FIRST_ROUND as f64, more[i] as f64);
                means[i] = weighted(means[i], a / (a + b));
                means[i] += weighted(s, b / (a + b));
            }
        }
    }
    let mut whole = Tally::default();
    means.iter().for_each(|m| whole += *m);
    let pieces = piece_count.map_or(Vec::new(), |count| {
        (1..=count)
            .map(|index| {
                // Piece `index` runs every `count`-th path from the `index`-th (finder's split).
                let mut sum = Tally::default();
                means
                    .iter()
                    .zip(&owner)
                    .filter(|(_, o)| *o % count == index - 1)
                    .for_each(|(m, _)| sum += *m);
                PieceEstimate {
                    index,
                    cpu_seconds: sum.seconds,
                    classes: sum.counted,
                    nodes: sum.nodes,
                }
            })
            .collect()
    });
    let per_class = (p.cells.len() * key_width(sizes)) as u128 + BYTES_PER_CLASS_OVERHEAD;
    let kept = match mode {
        Mode::Whole => (whole.counted.ceil() as u128).saturating_mul(per_class),
        Mode::Pieces(_) => 0,
    };
    Ok(Some(Estimate {
        sizes: sizes.to_vec(),
        cpu_seconds: whole.seconds,
        classes: whole.counted,
        models_met: whole.leaves,
        nodes: whole.nodes,
        memory_bytes: (program + p.planned_bytes).saturating_add(kept),
        program_bytes: program,
        problem_bytes: p.planned_bytes,
        classes_bytes: kept,
        pieces,
        samples: taken.load(Ordering::Relaxed),
        paths: paths.len(),
        elapsed: start.elapsed(),
    }))
}

/// This process's resident memory in bytes (Linux's `/proc/self/statm`; 0 where it cannot be read).
fn resident_bytes() -> u128 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u128>().ok());
    // SAFETY: sysconf only reads a configuration value.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages.map_or(0, |n| n * u128::try_from(page).unwrap_or(4096))
}

/// What the count does with one model it meets, timed: whether the model is the least of its
/// class (a class counted), and the seconds the count would spend on it.
fn leaf_cost(
    t: &Theory,
    sig: &birkhoff_engine::Signature,
    mode: Mode,
    lex: &mut LexLeader,
    s: &Search,
) -> Result<(bool, f64), FinderError> {
    let t0 = Instant::now();
    let least = !lex.dominated(s.values());
    // A whole count does not run the full lex-leader check: it tells classes apart by their
    // canonical forms, so the check's time is not its cost.
    let check = match mode {
        Mode::Whole => t0.elapsed().as_secs_f64(),
        Mode::Pieces(_) => 0.0,
    };
    let canonical = match mode {
        Mode::Whole => true,
        Mode::Pieces(_) => least,
    };
    if canonical {
        let c = iso::canonical_form(sig, &s.structure());
        if least {
            // The count checks each new class with the evaluator: the estimate pays the same,
            // and a model the evaluator rejects is the same bug here as there.
            verify(t, &c.form)?;
        }
    }
    Ok((least, t0.elapsed().as_secs_f64() - check))
}

/// The sums of a search below one node, as estimated by [`sample`]: each an unbiased estimate of
/// the same quantity over the subtree.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tally {
    /// Search nodes, complete assignments included (as [`Search::run`] counts them).
    nodes: f64,
    /// CPU seconds: values tried at the nodes, and the count's work at its models.
    seconds: f64,
    /// Complete assignments (models met).
    leaves: f64,
    /// Models that are the least of their class: the classes.
    counted: f64,
    /// Whether some stratum stood for several nodes. A sample where none did walked the whole
    /// subtree, and its sums are exact: more samples there would only repeat it.
    merged: bool,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.nodes += o.nodes;
        self.seconds += o.seconds;
        self.leaves += o.leaves;
        self.counted += o.counted;
        self.merged |= o.merged;
    }
}

/// One stratified sample of the search below `start` (Chen 1992, "Heuristic search as
/// evidential reasoning"; Knuth's descent is the case of one stratum per child). Level by level,
/// the children of the sampled nodes are grouped by [`Stratum`], and each group goes on as one
/// member, drawn with probability proportional to the weights, carrying the group's whole weight.
/// Unbiased, and with far less spread than a single descent where alike nodes have alike
/// subtrees. Each node costs what [`Search::run`] spends there (timed); `leaf` says whether a
/// complete assignment is counted and what the count spends on it.
fn sample(
    start: &Search,
    from: usize,
    rng: &mut fastrand::Rng,
    leaf: &mut dyn FnMut(&Search) -> (bool, f64),
) -> Tally {
    let mut level: Vec<(Search, usize, f64)> = vec![(start.clone(), from, 1.0)];
    let mut sum = Tally::default();
    while !level.is_empty() {
        // Per stratum: the member drawn so far (its parent and value) and the group's weight.
        let mut groups: BTreeMap<Stratum, (usize, u32, f64)> = BTreeMap::new();
        let mut branched = Vec::with_capacity(level.len());
        for (k, (s, from, w)) in level.iter_mut().enumerate() {
            sum.nodes += *w;
            let t0 = Instant::now();
            let Some(e) = s.expand(*from) else {
                let (counted, seconds) = leaf(s);
                sum.seconds += *w * seconds;
                sum.leaves += *w;
                sum.counted += *w * f64::from(u8::from(counted));
                branched.push((0, 0));
                continue;
            };
            sum.seconds += *w * t0.elapsed().as_secs_f64();
            branched.push((e.cell, e.next));
            for (v, stratum) in e.alive {
                let group = groups.entry(stratum).or_insert((k, v, 0.0));
                sum.merged |= group.2 > 0.0;
                group.2 += *w;
                if rng.f64() * group.2 < *w {
                    (group.0, group.1) = (k, v);
                }
            }
        }
        level = groups
            .into_values()
            .filter_map(|(k, v, w)| {
                let (cell, next) = branched[k];
                let mut child = level[k].0.clone();
                // The same state and decision propagate as the try in `expand` did; should they
                // not, that subtree goes unestimated rather than wrong.
                child.decide(cell, v).then_some((child, next, w))
            })
            .collect();
    }
    sum
}

/// Every sum of `p` multiplied by `w` (`1/n` for the mean of `n` samples).
fn weighted(p: Tally, w: f64) -> Tally {
    Tally {
        nodes: p.nodes * w,
        seconds: p.seconds * w,
        leaves: p.leaves * w,
        counted: p.counted * w,
        merged: p.merged,
    }
}
