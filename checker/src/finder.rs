//! The three ways to ask for models of one size: the first model, one model per isomorphism
//! class, and the number of labeled models. Searches run in parallel (rayon) over a split of the
//! search tree, and every model is re-checked by the engine's evaluator before it is reported.

use crate::budget::{Budget, Count, Meter, Status};
use crate::first_classes::{ClassKey, FirstClasses};
use crate::iso;
use crate::lex::{LexLeader, FIRST_MODEL_STEP_LIMIT, STEP_LIMIT};
use crate::problem::{Problem, ProblemError};
use crate::search::{Flow, Search};
use crate::skolem;
use birkhoff_engine::{eval, Structure, Theory};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Why a search could not give an answer.
#[derive(Debug, thiserror::Error)]
pub enum FinderError {
    /// The theory cannot be searched at these sizes.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// The theory cannot be encoded for an engine (for Z3: an axiom too large once expanded).
    #[error("{0}")]
    Encoding(String),
    /// The engines of `--engine both` gave different answers; neither is reported.
    #[error("the engines disagree: native says {native}; {engine} says {other}. This is a bug in Birkhoff, please report it with the theory")]
    Disagreement {
        /// The native finder's answer.
        native: String,
        /// The engine that disagrees with it (`sat` or `z3`).
        engine: &'static str,
        /// That engine's answer.
        other: String,
    },
    /// The search produced a structure the evaluator rejects: a bug in Birkhoff, never a result.
    #[error("internal error: the search produced a structure that violates {violation}; this is a bug in Birkhoff, please report it with the theory. The structure:\n{model}")]
    Unsound {
        /// What the evaluator says.
        violation: String,
        /// The structure, as JSON.
        model: String,
    },
}

/// One isomorphism class: its canonical representative and the order of its automorphism group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IsoClass {
    /// The canonical form (isomorphic models have equal forms).
    pub model: Structure,
    /// |Aut(M)|.
    pub automorphisms: u128,
}

/// Models of one size, up to isomorphism.
#[derive(Clone, Debug, Serialize)]
pub struct Enumeration {
    /// Size of each sort.
    pub sizes: Vec<u32>,
    /// Number of isomorphism classes.
    pub iso: Count,
    /// Number of labeled models: the sum of n!/|Aut| over the classes.
    pub labeled: Count,
    /// The classes, ordered by canonical form (empty unless [`Options::classes`]).
    pub classes: Vec<IsoClass>,
    /// Models the search met before removing isomorphic copies.
    pub models_met: u64,
    /// Search nodes.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Where the time went.
    pub timing: Timing,
}

impl Enumeration {
    /// An enumeration stopped before any search: nothing is known of these sizes.
    fn cut_short(sizes: &[u32], start: Instant) -> Enumeration {
        let unknown = Count::from_search(0, false);
        Enumeration {
            sizes: sizes.to_vec(),
            iso: unknown,
            labeled: unknown,
            classes: Vec::new(),
            models_met: 0,
            nodes: 0,
            elapsed: start.elapsed(),
            timing: Timing::default(),
        }
    }
}

/// Where the time of an enumeration went, in seconds. The first three are summed over threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Searching: decisions, propagation and backtracking.
    pub search: f64,
    /// Computing canonical forms and automorphism groups.
    pub canon: f64,
    /// Re-checking each new class with the evaluator.
    pub verify: f64,
    /// Merging the threads' classes and building the representatives (wall clock).
    pub merge: f64,
}

/// The answer to "is there a model of this size?".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum FirstModel {
    /// A model, checked by the evaluator.
    Found {
        /// The model.
        model: Structure,
    },
    /// The search finished without a model: there is none of this size.
    None,
    /// The budget ran out first.
    Unknown,
}

/// Search behaviour that callers and tests vary.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Use the least-number heuristic (never loses an isomorphism class).
    pub symmetry_breaking: bool,
    /// Return the representatives of the classes; counting alone skips building and sorting
    /// them (every class is re-checked by the evaluator either way).
    pub classes: bool,
    /// Which cell a first-model search branches on (counting always follows the decision order).
    pub branching: Branching,
}

/// The cell a first-model search branches on at each node ([`first`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branching {
    /// The next open cell of the decision order, with lex-leader pruning.
    DecisionOrder,
    /// The open cell with the fewest values left among those whose arguments are at most the
    /// largest mentioned element (Mace4's selection), without lex-leader pruning
    /// (`Search::fewest_values_first`).
    FewestValues,
    /// Both searches side by side: the first to decide answers. Where the theory's leading
    /// existentials add a Skolemized search beside the plain one, both follow the decision order.
    Both,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            symmetry_breaking: true,
            classes: true,
            branching: Branching::Both,
        }
    }
}

impl Options {
    /// The default options, without returning the representatives.
    pub fn counts_only() -> Self {
        Options {
            classes: false,
            ..Options::default()
        }
    }
}

/// The search below `root` after the decisions of `path`, which `split` recorded after each
/// propagated without conflict; `None` when one of them now conflicts. Propagation does not
/// always reach the same fixpoint: what it derives can depend on where the watches stand, and
/// backtracking leaves them elsewhere than a fresh replay does (a random theory with a binary
/// relation and `<->` replayed into a conflict that `split` had not seen, which panicked). A
/// conflict is still a proof that no model extends the decisions (propagation only derives
/// consequences), so the path's subtree holds no model.
pub(crate) fn replay<'p>(root: &Search<'p>, path: &[(usize, u32)]) -> Option<Search<'p>> {
    let mut s = root.clone();
    path.iter().all(|&(cell, v)| s.decide(cell, v)).then_some(s)
}

/// The decision paths `depth` decisions below the node that `path` leads to, in search order;
/// `None` (and the meter stopped, so the search counts as cut short) when the time ran out
/// while splitting, since the split may then be incomplete.
fn split_below(
    root: &Search,
    path: &[(usize, u32)],
    depth: usize,
    meter: &Meter,
) -> Option<Vec<Vec<(usize, u32)>>> {
    let Some(mut s) = replay(root, path) else {
        return Some(Vec::new());
    };
    let mut out = Vec::new();
    let from = s.first_open();
    s.split(from, depth, &mut path.to_vec(), &mut out, &|| {
        meter.out_of_time()
    });
    if meter.out_of_time() {
        meter.stop();
        return None;
    }
    Some(out)
}

/// How many times [`split_paths`] splits its first path again.
const LEFTMOST_REFINEMENTS: usize = 6;

/// How deep [`split_paths`] looks below a path whose next decisions are forced (one value each)
/// before it gives up refining it.
const FORCED_DEPTH: usize = 16;

/// The decision paths of a split of the search tree into about `target` pieces, in search order;
/// `None` when the time ran out while splitting (the meter is then stopped). A function of the
/// problem and `target` alone (never of timing or threads), so every machine that splits the
/// same problem for the same target gets the same paths.
///
/// The tree is cut at the first depth that gives `target` paths (at most 8 decisions deep).
/// Lex-leader pruning keeps the least model of each class, so models crowd into the leftmost
/// subtrees (small values first): the first path of a uniform cut can hold most of the work. It
/// is split again, [`LEFTMOST_REFINEMENTS`] times, each time two decisions deeper, or deeper still
/// (up to [`FORCED_DEPTH`]) when those decisions are forced and leave one path.
pub(crate) fn split_paths(
    root: &Search,
    target: usize,
    meter: &Meter,
) -> Option<Vec<Vec<(usize, u32)>>> {
    let mut paths = vec![Vec::new()];
    for depth in 1..=8 {
        paths = split_below(root, &[], depth, meter)?;
        if paths.len() >= target {
            break;
        }
    }
    for _ in 0..LEFTMOST_REFINEMENTS {
        let Some(first) = paths.first() else { break };
        let out = refine(root, first, meter)?;
        if out.len() <= 1 {
            break;
        }
        paths.splice(0..1, out);
    }
    Some(paths)
}

/// The paths two decisions below `path`, or deeper still (up to [`FORCED_DEPTH`]) while those
/// decisions are forced and leave one path; one path as long as `path` when it is complete.
/// `None` when the time ran out.
pub(crate) fn refine(
    root: &Search,
    path: &[(usize, u32)],
    meter: &Meter,
) -> Option<Vec<Vec<(usize, u32)>>> {
    let mut out = Vec::new();
    for depth in 2..=FORCED_DEPTH {
        out = split_below(root, path, depth, meter)?;
        // One path as long as the first one: it is complete, nothing is left to split.
        if out.len() != 1 || out[0].len() == path.len() {
            break;
        }
    }
    Some(out)
}

/// How a search is cut into the pieces that [`run_split`] runs in parallel.
#[derive(Clone, Copy, Debug)]
enum Split {
    /// Enough pieces to keep this machine's threads busy: all of them are run.
    Threads,
    /// Only this piece of a split that every machine computes alike.
    Piece(Piece),
}

/// Piece `index` of `count` of a split of one enumeration, for spreading a single count over
/// several machines ([`enumerate_piece`]). The split is a function of the theory, the sizes and
/// `count`, so separate runs agree on what each piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Piece {
    /// 1-based piece number.
    pub index: usize,
    /// Number of pieces.
    pub count: usize,
}

/// Decision paths per piece that a split into pieces aims for: a piece gets every
/// `count`-th path, so each takes a share of the heavy left of the tree.
pub(crate) const PATHS_PER_PIECE: usize = 8;

/// Runs `task` on every piece of a split of the search tree, in parallel, results in tree order.
/// Returns an empty vector when propagation alone shows there is no model, or when the time
/// ran out while splitting (then the meter is stopped, so nothing empty counts as exact).
fn run_split<R: Send>(
    p: &Problem,
    opts: Options,
    meter: &Meter,
    split: Split,
    task: impl Fn(usize, &mut Search) -> R + Sync,
) -> Vec<R> {
    match root_search(p, opts, STEP_LIMIT, meter) {
        Some(root) => run_split_below(&root, meter, split, task),
        None => Vec::new(),
    }
}

/// The search at the root of `p`, every instance evaluated once ([`Search::new`]); `None` when
/// propagation alone shows there is no model, or when the time ran out while it was built (then
/// the meter is stopped, so that nothing empty counts as exact).
pub(crate) fn root_search<'p>(
    p: &'p Problem,
    opts: Options,
    lex_steps: u32,
    meter: &Meter,
) -> Option<Search<'p>> {
    let root = Search::new(p, opts.symmetry_breaking.then_some(lex_steps), &|| {
        meter.out_of_time()
    });
    if root.is_none() && meter.out_of_time() {
        meter.stop();
    }
    root
}

/// [`run_split`] from a root already built.
///
/// Under a budget in search nodes the tree is searched on the calling thread, in tree order (as
/// one piece under [`Split::Threads`]): where the nodes run out is then the same on every run and
/// every machine. Shared by threads, the nodes ran out wherever the threads had got to: a count
/// at size 4 gave 3 classes on one run and 2 on the next, on a loaded 2-core machine.
fn run_split_below<R: Send>(
    root: &Search,
    meter: &Meter,
    split: Split,
    task: impl Fn(usize, &mut Search) -> R + Sync,
) -> Vec<R> {
    if meter.counts_nodes() && matches!(split, Split::Threads) {
        return replay(root, &[])
            .map(|mut s| task(0, &mut s))
            .into_iter()
            .collect();
    }
    let target = match split {
        Split::Threads => rayon::current_num_threads() * 16,
        Split::Piece(piece) => piece.count * PATHS_PER_PIECE,
    };
    let Some(mut paths) = split_paths(root, target, meter) else {
        return Vec::new();
    };
    if let Split::Piece(piece) = split {
        // Every `count`-th path, so that each piece gets some of the heavy leftmost ones.
        paths = paths
            .into_iter()
            .skip(piece.index - 1)
            .step_by(piece.count)
            .collect();
    }
    // A piece not started when the time runs out is skipped: replaying it copies the root's
    // whole state, which on large problems takes longer than the time left. The meter is then
    // stopped, so that what the other pieces found counts as cut short.
    //
    // One path a task (`with_max_len(1)`): rayon's adaptive split would otherwise hand a worker
    // a run of adjacent paths to take one after the other, and since the heavy paths lie at the
    // left, the other worker, once its own were done, found nothing to steal (an `auto` count of
    // 616,831 classes ran on one core for its last half).
    if meter.counts_nodes() {
        return paths
            .iter()
            .enumerate()
            .take_while(|_| !meter.stopped())
            .filter_map(|(i, path)| Some(task(i, &mut replay(root, path)?)))
            .collect();
    }
    paths
        .into_par_iter()
        .with_max_len(1)
        .enumerate()
        .map(|(i, path)| {
            if meter.out_of_time() {
                meter.stop();
                return None;
            }
            // A path that no longer replays has no model below it: nothing to add.
            let mut s = replay(root, &path)?;
            Some(task(i, &mut s))
        })
        .collect::<Vec<Option<R>>>()
        .into_iter()
        .flatten()
        .collect()
}

fn budget_check<'a>(meter: &'a Meter) -> impl FnMut(u64) -> Flow + 'a {
    move |nodes| {
        if meter.charge(nodes) {
            Flow::Continue
        } else {
            Flow::Abort
        }
    }
}

pub(crate) fn verify(t: &Theory, m: &Structure) -> Result<(), FinderError> {
    eval::check(t, m).map_err(|v| FinderError::Unsound {
        violation: v.to_string(),
        model: m.to_json(&t.sig).to_string(),
    })
}

/// Labeled models summed over isomorphism classes, Σ n!/|Aut|, or over the pieces of a split
/// count: exact while every term and the total fit in a `u128`. Past that it is a lower bound,
/// and [`LabeledSum::count`] says so: a term too large counts as `u128::MAX`, and a class whose
/// |Aut| saturated as one copy (groups of order 36 have more than 3.4·10³⁸ labeled models; a
/// sort of 35 interchangeable elements has too many automorphisms to count).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LabeledSum {
    total: u128,
    exact: bool,
}

impl Default for LabeledSum {
    fn default() -> LabeledSum {
        LabeledSum {
            total: 0,
            exact: true,
        }
    }
}

impl LabeledSum {
    /// A labeled count already made (one piece of a split count), exact if it was.
    pub fn of(count: Count) -> LabeledSum {
        LabeledSum {
            total: count.value,
            exact: count.status == Status::Exact,
        }
    }

    /// Adds the labeled copies of a class with this many automorphisms.
    pub fn add(&mut self, sizes: &[u32], automorphisms: u128) {
        let copies = iso::labelled_copies(sizes, automorphisms);
        let at_least = if automorphisms == u128::MAX {
            1
        } else {
            u128::MAX
        };
        self.join(LabeledSum {
            total: copies.unwrap_or(at_least),
            exact: copies.is_some(),
        });
    }

    /// Adds another sum.
    pub fn join(&mut self, other: LabeledSum) {
        self.exact &= other.exact;
        self.total = self.total.checked_add(other.total).unwrap_or_else(|| {
            self.exact = false;
            u128::MAX
        });
    }

    /// The count: exact when the search `finished` and the sum is exact, else a lower bound.
    pub fn count(self, finished: bool) -> Count {
        Count::from_search(self.total, finished && self.exact)
    }
}

/// A canonical form as bytes, for compact hashing: every entry in as few bytes as the largest
/// sort needs (one up to 256 elements), big-endian, so that keys of one shape compare as their
/// tables do.
pub(crate) fn key(s: &Structure) -> Box<[u8]> {
    let width = key_width(&s.sizes);
    let mut bytes = Vec::with_capacity(
        width
            * (s.funcs.iter().map(Vec::len).sum::<usize>()
                + s.rels.iter().map(Vec::len).sum::<usize>()),
    );
    for v in s
        .funcs
        .iter()
        .flatten()
        .copied()
        .chain(s.rels.iter().flatten().map(|&b| b as u32))
    {
        bytes.extend_from_slice(&v.to_be_bytes()[4 - width..]);
    }
    bytes.into_boxed_slice()
}

/// Bytes per entry in a [`key`] of structures with these sizes.
pub(crate) fn key_width(sizes: &[u32]) -> usize {
    let largest = sizes.iter().copied().max().unwrap_or(0).saturating_sub(1);
    (4 - largest.leading_zeros() as usize / 8).max(1)
}

fn from_key(template: &Structure, k: &[u8]) -> Structure {
    let mut s = template.clone();
    let width = key_width(&s.sizes);
    let mut it = k
        .chunks(width)
        .map(|bytes| bytes.iter().fold(0u32, |v, &b| v << 8 | b as u32));
    for t in s.funcs.iter_mut() {
        t.iter_mut()
            .for_each(|v| *v = it.next().expect("key has every entry"));
    }
    for t in s.rels.iter_mut() {
        t.iter_mut()
            .for_each(|v| *v = it.next().expect("key has every entry") == 1);
    }
    s
}

/// Re-checks a new class's representative with the evaluator, timed in `timing.verify`. False
/// (the error kept in `error` and the search stopped) when the evaluator rejects it.
fn checked(
    t: &Theory,
    form: &Structure,
    timing: &mut Timing,
    error: &mut Option<FinderError>,
    meter: &Meter,
) -> bool {
    let t0 = Instant::now();
    let result = verify(t, form);
    timing.verify += t0.elapsed().as_secs_f64();
    match result {
        Ok(()) => true,
        Err(e) => {
            *error = Some(e);
            meter.stop();
            false
        }
    }
}

/// Counts one more class in `counted`; stops the search once the budget's model limit is met.
fn one_more_class(counted: &AtomicU64, budget: &Budget, meter: &Meter) -> Flow {
    let total = counted.fetch_add(1, Ordering::Relaxed) + 1;
    budget.report_class();
    if budget.models.is_some_and(|m| total >= m) {
        meter.stop();
        return Flow::Stop;
    }
    Flow::Continue
}

/// What one piece of the split search found.
struct Part {
    /// The piece's place in tree order.
    index: usize,
    classes: Classes,
    /// Under a model limit, the classes in the order met (see [`FirstClasses`]).
    order: Vec<ClassKey>,
    met: u64,
    timing: Timing,
    template: Option<Structure>,
    error: Option<FinderError>,
}

/// The problem at these sizes, compiled under the budget's clock: compiling a large problem can
/// take longer than the whole time limit, so a deadline met while compiling gives the
/// enumeration cut short (`Ok(Err(_))`: nothing counted, every size "at least"), not an error.
pub(crate) fn compile_within(
    t: &Theory,
    sizes: &[u32],
    meter: &Meter,
    start: Instant,
) -> Result<Result<Problem, Enumeration>, FinderError> {
    match Problem::within(t, sizes, &|| meter.out_of_time()) {
        Err(ProblemError::Stopped) => Ok(Err(Enumeration::cut_short(sizes, start))),
        p => Ok(Ok(p?)),
    }
}

/// One representative of every isomorphism class of models with these sort sizes. Each new
/// class is re-checked by the evaluator where it is found, so a search cut short by the budget
/// still counts only checked classes, and the merge after a stop ends within a short grace.
pub fn enumerate(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    opts: Options,
) -> Result<Enumeration, FinderError> {
    let (start, meter) = (Instant::now(), Meter::new(budget));
    let p = match compile_within(t, sizes, &meter, start)? {
        Ok(p) => p,
        Err(cut_short) => return Ok(cut_short),
    };
    let limit = budget.models.map(|m| FirstClasses::new(m as usize));
    let parts = run_split(&p, opts, &meter, Split::Threads, |index, s| {
        let t_start = Instant::now();
        let mut part = Part {
            index,
            classes: Classes::default(),
            order: Vec::new(),
            met: 0,
            timing: Timing::default(),
            template: None,
            error: None,
        };
        let mut on_model = |s: &Search| {
            part.met += 1;
            let t0 = Instant::now();
            let c = iso::canonical_form(&p.sig, &s.structure());
            part.timing.canon += t0.elapsed().as_secs_f64();
            let k = key(&c.form);
            if part.classes.contains_key(&k) {
                return Flow::Continue;
            }
            if !checked(t, &c.form, &mut part.timing, &mut part.error, &meter) {
                return Flow::Stop;
            }
            part.template.get_or_insert(c.form);
            budget.report_class();
            if limit.is_some() {
                part.order.push(k.clone());
            }
            part.classes.insert(k, c.automorphisms);
            match &limit {
                Some(l) if l.can_stop(index, part.classes.len()) => Flow::Stop,
                _ => Flow::Continue,
            }
        };
        let from = s.first_open();
        let mut within_budget = budget_check(&meter);
        let mut check = |nodes| match (within_budget(nodes), &limit) {
            (Flow::Continue, Some(l)) if l.can_stop(index, 0) => Flow::Abort,
            (flow, _) => flow,
        };
        s.run(from, &mut on_model, &mut check);
        meter.charge(s.unchecked_nodes());
        // Once the search is stopped (the deadline, Ctrl-C) every piece stops, and the pieces'
        // ends have nothing left to tell the others.
        if let Some(limit) = limit.as_ref().filter(|_| !meter.stopped()) {
            limit.ended(index, part.order.clone());
        }
        part.timing.search =
            (t_start.elapsed().as_secs_f64() - part.timing.canon - part.timing.verify).max(0.0);
        part
    });
    let finished = !meter.stopped();
    let merge_start = Instant::now();
    let mut timing = Timing::default();
    let (mut met, mut template, mut maps) = (0, None, Vec::with_capacity(parts.len()));
    let mut orders = Vec::new();
    for mut part in parts {
        if let Some(e) = part.error.take() {
            return Err(e);
        }
        met += part.met;
        timing.search += part.timing.search;
        timing.canon += part.timing.canon;
        timing.verify += part.timing.verify;
        template = template.or(part.template);
        maps.push(part.classes);
        orders.push((part.index, part.order));
    }
    let mut merged = merge(maps, || !finished && meter.grace_over(budget));
    // Under a model limit, the first classes in tree order (reproducible); a search that met the
    // limit is cut short, as what it did not look at may hold more classes.
    let held = merged.len();
    // Fewer classes than the limit are all of the first ones: no need to put the pieces' orders
    // together (a million keys hashed again took two seconds after the deadline).
    let (entries, limited): (Vec<(ClassKey, u128)>, bool) = match &limit {
        Some(l) if held >= l.limit() => {
            let first = l.first(orders);
            let limited = first.len() >= l.limit();
            let entries = first
                .into_iter()
                .filter_map(|k| merged.remove_entry(&k))
                .collect();
            let left = merged.len();
            drop_in_background(merged, left);
            (entries, limited)
        }
        _ => {
            let kept = orders.iter().map(|(_, keys)| keys.len()).sum();
            drop_in_background(orders, kept);
            (merged.into_iter().collect(), false)
        }
    };
    // The limit's own copies of the keys.
    drop_in_background(limit, held);
    let finished = finished && !limited;
    let tally = |auts: &mut dyn Iterator<Item = u128>| {
        auts.fold((0u128, LabeledSum::default()), |(n, mut l), aut| {
            l.add(sizes, aut);
            (n + 1, l)
        })
    };
    let (classes, (iso, labeled)) = match (&template, opts.classes) {
        (Some(tpl), true) => {
            let mut entries = entries;
            entries.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
            let classes: Vec<IsoClass> = entries
                .into_iter()
                .map(|(k, aut)| IsoClass {
                    model: from_key(tpl, &k),
                    automorphisms: aut,
                })
                .collect();
            let counts = tally(&mut classes.iter().map(|c| c.automorphisms));
            (classes, counts)
        }
        _ => {
            let counts = tally(&mut entries.iter().map(|&(_, aut)| aut));
            let classes = entries.len();
            drop_in_background(entries, classes);
            (Vec::new(), counts)
        }
    };
    timing.merge = merge_start.elapsed().as_secs_f64();
    Ok(Enumeration {
        sizes: sizes.to_vec(),
        iso: Count::from_search(iso, finished),
        labeled: labeled.count(finished),
        classes,
        models_met: met,
        nodes: meter.nodes(),
        elapsed: start.elapsed(),
        timing,
    })
}

/// The isomorphism classes of models with these sort sizes whose least member lies in one
/// piece of a split of the search tree: summed over the pieces `1..=count` of any `count`, the
/// counts (iso and labeled) are those of [`enumerate`]. Classes are counted, not returned.
///
/// The least member of a class (its tables read cell by cell in the decision order) is the one
/// model of the class that symmetry breaking always keeps, and the pieces' decision paths cut
/// the models into disjoint sets, so it lies in exactly one piece. A piece counts a model it
/// meets only when an unbounded lex-leader check shows it is that least member; every other
/// member of its class is skipped here and counted where the least one lies, perhaps on another
/// machine. Each counted model is re-checked by the evaluator.
pub fn enumerate_piece(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    piece: Piece,
) -> Result<Enumeration, FinderError> {
    let (start, meter) = (Instant::now(), Meter::new(budget));
    let p = match compile_within(t, sizes, &meter, start)? {
        Ok(p) => p,
        Err(cut_short) => return Ok(cut_short),
    };
    let counted = AtomicU64::new(0);
    let lex = LexLeader::new(&p, u32::MAX);
    let parts = run_split(
        &p,
        Options::counts_only(),
        &meter,
        Split::Piece(piece),
        |_, s| {
            let t_start = Instant::now();
            let (mut lex, mut timing, mut met, mut classes, mut labeled, mut error) = (
                lex.clone(),
                Timing::default(),
                0u64,
                0u128,
                LabeledSum::default(),
                None,
            );
            let mut on_model = |s: &Search| {
                met += 1;
                let t0 = Instant::now();
                let least = !lex.dominated(s.values());
                timing.canon += t0.elapsed().as_secs_f64();
                if !least {
                    return Flow::Continue;
                }
                let t1 = Instant::now();
                let c = iso::canonical_form(&p.sig, &s.structure());
                timing.canon += t1.elapsed().as_secs_f64();
                if !checked(t, &c.form, &mut timing, &mut error, &meter) {
                    return Flow::Stop;
                }
                classes += 1;
                labeled.add(sizes, c.automorphisms);
                one_more_class(&counted, budget, &meter)
            };
            let from = s.first_open();
            s.run(from, &mut on_model, &mut budget_check(&meter));
            meter.charge(s.unchecked_nodes());
            timing.search =
                (t_start.elapsed().as_secs_f64() - timing.canon - timing.verify).max(0.0);
            error.map_or(Ok((classes, labeled, met, timing)), Err)
        },
    );
    let finished = !meter.stopped();
    let (mut classes, mut labeled, mut met, mut timing) =
        (0u128, LabeledSum::default(), 0u64, Timing::default());
    for part in parts {
        let (i, l, m, t) = part?;
        (classes, met) = (classes + i, met + m);
        labeled.join(l);
        timing.search += t.search;
        timing.canon += t.canon;
        timing.verify += t.verify;
    }
    Ok(Enumeration {
        sizes: sizes.to_vec(),
        iso: Count::from_search(classes, finished),
        labeled: labeled.count(finished),
        classes: Vec::new(),
        models_met: met,
        nodes: meter.nodes(),
        elapsed: start.elapsed(),
        timing,
    })
}

/// [`enumerate`] at sizes 1, 2, ... up to `max` (every sort the same size), each within
/// `budget`. The walk stops after the first size cut short: its count is a lower bound, and
/// the counts of larger sizes searched after it would be lower bounds of lower bounds.
pub fn enumerate_up_to(
    t: &Theory,
    max: u32,
    budget: &Budget,
    opts: Options,
) -> Result<Vec<Enumeration>, FinderError> {
    let mut out: Vec<Enumeration> = Vec::new();
    for n in 1..=max {
        let e = enumerate(t, &vec![n; t.sig.sorts.len()], budget, opts)?;
        let exact = e.iso.status == Status::Exact;
        out.push(e);
        if !exact {
            break;
        }
    }
    Ok(out)
}

/// Isomorphism classes by canonical key, with the order of each one's automorphism group. Fx
/// hashing: SipHash took a tenth of a count's time on a million classes, and the keys are
/// canonical forms, not input anyone could choose to collide.
type Classes = FxHashMap<ClassKey, u128>;

/// The union of the pieces' classes. `give_up` is asked now and then; when it says so the
/// union so far is returned (a lower bound, for a search that was cut short anyway), and what
/// was not merged is freed in the background.
fn merge(mut maps: Vec<Classes>, give_up: impl Fn() -> bool) -> Classes {
    let Some(largest) = (0..maps.len()).max_by_key(|&i| maps[i].len()) else {
        return Classes::default();
    };
    let mut merged = maps.swap_remove(largest);
    let mut rest = maps.into_iter();
    while let Some(m) = rest.next() {
        let mut entries = m.into_iter().enumerate();
        let stopped = give_up()
            || entries.by_ref().any(|(i, (k, aut))| {
                merged.insert(k, aut);
                i % 65536 == 65535 && give_up()
            });
        if stopped {
            let left = entries.len() + rest.as_slice().iter().map(Classes::len).sum::<usize>();
            drop_in_background((entries, rest), left);
            break;
        }
    }
    merged
}

/// Drops `value`, which holds `classes` class keys, on a thread of its own when they are many:
/// freeing a million keys that the search's threads allocated took a second on the calling
/// thread, after the deadline (`spectrum --timeout 5` answered in 8 s). Fewer are dropped here,
/// as is everything when no thread can start.
fn drop_in_background<T: Send + 'static>(value: T, classes: usize) {
    if classes >= BACKGROUND_DROP {
        let _ = std::thread::Builder::new()
            .name("birkhoff-drop".into())
            .spawn(move || drop(value));
    }
}

/// The fewest class keys [`drop_in_background`] frees on a thread of its own (a few
/// milliseconds' work).
const BACKGROUND_DROP: usize = 1 << 16;

/// The first model in search order, or a proof by exhaustion that there is none.
///
/// A theory with leading existential quantifiers is searched twice at once, as written and
/// Skolemized (see `skolem`): witnesses help to find models, the plain theory is often quicker
/// to exhaust. Both searches are sound and complete; the first to decide wins and stops the
/// other, so the answer (model or none) never depends on the race, though which model is shown
/// may. Witnesses are dropped from the model before it is checked against `t` itself. On a
/// single thread the searches take turns instead (`by_turns`). Constants that occur only in
/// ground axioms are first turned back into an existential (`skolem::unskolemize`), so that a
/// theory written with named witnesses gets both searches too.
pub fn first(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    opts: Options,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    first_on(t, sizes, budget, opts, false)
}

/// [`first`] on the calling thread alone, starting no thread (not even rayon's global pool):
/// the searches take turns. For a first look at a question that may be over before threads would
/// have started.
pub fn first_on_this_thread(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    opts: Options,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    first_on(t, sizes, budget, opts, true)
}

/// The most tuples of values that named witnesses may have for their constants to be searched as
/// an existential (`skolem::unskolemize`): as many as that existential has ground instances, and
/// as many as finding the witnesses of a model may try. Four witnesses of order 81 (43 million,
/// the distributive nonmedial quasigroup) pass; ten pairwise distinct constants of order 10
/// (10¹⁰) took 43 s to restore, and are searched as written.
const MOST_WITNESS_TUPLES: u128 = 50_000_000;

/// [`first`], on this thread alone when `this_thread_only` or when rayon has one thread.
fn first_on(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
    opts: Options,
    this_thread_only: bool,
) -> Result<(FirstModel, u64, Duration), FinderError> {
    if let Some(u) =
        skolem::unskolemize(t).filter(|u| u.witness_tuples(sizes) <= MOST_WITNESS_TUPLES)
    {
        let (outcome, nodes, elapsed) = first_on(&u.theory, sizes, budget, opts, this_thread_only)?;
        let outcome = match outcome {
            FirstModel::Found { model } => {
                let model = u
                    .restore(model)
                    .expect("a model of the existential has witnesses (checked by first_on)");
                verify(t, &model)?;
                FirstModel::Found { model }
            }
            other => other,
        };
        return Ok((outcome, nodes, elapsed));
    }
    let start = Instant::now();
    let meter = Meter::new(budget);
    let stop = || meter.out_of_time();
    let plain = match Problem::within(t, sizes, &stop) {
        Err(ProblemError::Stopped) => return Ok((FirstModel::Unknown, 0, start.elapsed())),
        p => p?,
    };
    let skolemized = skolem::skolemize(t);
    // Without leading existentials there is nothing to add; witness tables too large to compile
    // (or not compiled in time) leave the plain search alone.
    let witnessed = if skolemized.sig.funcs.len() > t.sig.funcs.len() {
        Problem::within(&skolemized, sizes, &stop).ok()
    } else {
        None
    };
    // With witnesses, two searches already share the threads; four made the distributive
    // nonmedial quasigroup of order 81 take 290 s instead of 35, and three (the witnessed one
    // also fewest values first) made a nonabelian group of order 39 take 27 s instead of 11.
    let opts = match (&witnessed, opts.branching) {
        (Some(_), Branching::Both) => Options {
            branching: Branching::DecisionOrder,
            ..opts
        },
        _ => opts,
    };
    let settled = AtomicBool::new(false);
    let outcome = if this_thread_only || rayon::current_num_threads() == 1 {
        let problems: Vec<&Problem> = witnessed.iter().chain([&plain]).collect();
        by_turns(&problems, t, opts, &meter, &settled)
    } else {
        match &witnessed {
            None => first_in(&plain, t, opts, &meter, &settled),
            Some(w) => either(rayon::join(
                || first_in(w, t, opts, &meter, &settled),
                || first_in(&plain, t, opts, &meter, &settled),
            )),
        }
    };
    if let FirstModel::Found { model } = &outcome {
        verify(t, model)?;
    }
    Ok((outcome, meter.nodes(), start.elapsed()))
}

/// How many nodes [`first_in`] searches from the root on one thread before it splits the tree.
/// Most first models that the native finder finds at all lie within a few hundred nodes of the
/// root (groups, loops, distributive quasigroups of every size benchmarked), and splitting a large
/// problem costs more than that: on a Moufang loop of order 16 the split alone explored nodes for
/// 0.18 s and the pieces' copies of the root another 0.2 s of CPU, where the model was 115 nodes
/// from the root.
const PROBE_NODES: u64 = 512;

/// How long the pieces before the one that found a model may go on looking for an earlier one.
/// The first model in search order is shown when they finish in time, which small problems
/// always do; without a bound, a piece exhausting a large subtree held a model in hand until the
/// deadline (`find group --size 40`: found early, answered after the whole 20 s timeout).
const EARLIER_MODEL_GRACE: Duration = Duration::from_millis(500);

/// One first-model search of `p` (a compilation of `t`, perhaps with witness functions after
/// `t`'s own). It gives up, answering `Unknown`, when the budget runs out or another search has
/// `settled` the question; when it decides, it sets `settled`.
///
/// By default two searches of the same tree run side by side ([`Branching::Both`]), each
/// complete on its own: the decision order with lex-leader pruning, which exhausts symmetric
/// problems fastest (no nonabelian group of order 23, its witnesses as constants: about 7,000
/// nodes against 50,000), and Mace4's fewest-values-first, which finds designs where the fixed
/// order wanders (Steiner quasigroups of order 19: about 5,000 nodes against unknown after a
/// million; none of order 16: about 9,600).
fn first_in(
    p: &Problem,
    t: &Theory,
    opts: Options,
    meter: &Meter,
    settled: &AtomicBool,
) -> FirstModel {
    match first_model_roots(p, opts, meter) {
        Err(outcome) => settle(outcome, settled),
        Ok(roots) => match &roots[..] {
            [root] => first_from(root, t, meter, settled),
            [fewest_first, root] => either(rayon::join(
                || first_from(fewest_first, t, meter, settled),
                || first_from(root, t, meter, settled),
            )),
            _ => unreachable!("one or two ways of branching"),
        },
    }
}

/// The roots of the first-model searches of `p` that `opts.branching` asks for: fewest values
/// first before the decision order. `Err` when the root itself decides: `None` (propagation
/// alone meets a conflict) or `Unknown` (the budget ran out while building it).
fn first_model_roots<'p>(
    p: &'p Problem,
    opts: Options,
    meter: &Meter,
) -> Result<Vec<Search<'p>>, FirstModel> {
    let Some(root) = root_search(p, opts, FIRST_MODEL_STEP_LIMIT, meter) else {
        return Err(if meter.stopped() {
            FirstModel::Unknown
        } else {
            FirstModel::None
        });
    };
    let fewest_first = || {
        let mut s = root.clone();
        s.fewest_values_first();
        s
    };
    Ok(match opts.branching {
        Branching::DecisionOrder => vec![root],
        Branching::FewestValues => vec![fewest_first()],
        Branching::Both => vec![fewest_first(), root],
    })
}

/// [`first_in`] on a single thread, for every problem in `problems` (compilations of `t`): the
/// searches take turns, each from its root for twice as many nodes as its last turn, until one
/// decides or the budget runs out.
///
/// `rayon::join` on one thread runs its second search only after the first has ended, which may
/// be never: the nonassociative Moufang loop of order 16, found after 354 nodes of the plain
/// search, was unknown after 10 s of the Skolemized one. Starting each turn afresh repeats work,
/// but the turns double: when one of two searches decides after n nodes, the two have searched
/// fewer than 7n nodes in all.
fn by_turns(
    problems: &[&Problem],
    t: &Theory,
    opts: Options,
    meter: &Meter,
    settled: &AtomicBool,
) -> FirstModel {
    let mut roots = Vec::new();
    for p in problems {
        match first_model_roots(p, opts, meter) {
            Ok(r) => roots.extend(r),
            Err(outcome) => return outcome,
        }
    }
    // A single search needs no turns.
    let mut turn = if roots.len() > 1 {
        PROBE_NODES
    } else {
        u64::MAX
    };
    loop {
        for root in &roots {
            let mut s = root.clone();
            let mut searched = 0;
            match first_below(&mut s, t, meter, settled, &mut |nodes| {
                searched += nodes;
                searched >= turn
            }) {
                (Some(model), _) => return FirstModel::Found { model },
                (None, Flow::Continue) => return FirstModel::None,
                (None, _) if meter.stopped() => return FirstModel::Unknown,
                (None, _) => {}
            }
        }
        turn = turn.saturating_mul(2);
    }
}

/// The answer of two complete searches of the same question run side by side: a model if either
/// found one, "none" if either exhausted its tree.
fn either(answers: (FirstModel, FirstModel)) -> FirstModel {
    match answers {
        (found @ FirstModel::Found { .. }, _) | (_, found @ FirstModel::Found { .. }) => found,
        (FirstModel::None, _) | (_, FirstModel::None) => FirstModel::None,
        _ => FirstModel::Unknown,
    }
}

/// [`first_in`] below `root`, in the order `root` branches in.
///
/// It first searches from the root alone for [`PROBE_NODES`] nodes, then splits the rest of the
/// tree over the threads. Both find the first model in search order, so the probe changes when
/// the answer comes, not what it is; only when the pieces before a found model run past
/// [`EARLIER_MODEL_GRACE`] is a later model shown.
fn first_from(root: &Search, t: &Theory, meter: &Meter, settled: &AtomicBool) -> FirstModel {
    let mut probe = root.clone();
    let mut probe_nodes = 0;
    match first_below(&mut probe, t, meter, settled, &mut |nodes| {
        probe_nodes += nodes;
        probe_nodes >= PROBE_NODES
    }) {
        (Some(model), _) => return settle(FirstModel::Found { model }, settled),
        (None, Flow::Continue) => return settle(FirstModel::None, settled),
        (None, _) if meter.stopped() || settled.load(Ordering::Relaxed) => {
            return FirstModel::Unknown
        }
        (None, _) => {}
    }
    let best = AtomicUsize::new(usize::MAX);
    let found_at = std::sync::OnceLock::new();
    let gave_up = AtomicBool::new(false);
    let found = run_split_below(root, meter, Split::Threads, |i, s| {
        // A piece after one that already has a model cannot change the answer; one before it
        // may look for an earlier model for a while.
        let (model, flow) = first_below(s, t, meter, settled, &mut |_| {
            best.load(Ordering::Relaxed) < i
                || found_at
                    .get()
                    .is_some_and(|at: &Instant| at.elapsed() > EARLIER_MODEL_GRACE)
        });
        if model.is_some() {
            found_at.get_or_init(Instant::now);
            best.fetch_min(i, Ordering::Relaxed);
        } else if flow == Flow::Abort && best.load(Ordering::Relaxed) >= i {
            gave_up.store(true, Ordering::Relaxed);
        }
        model
    });
    let outcome = match found.into_iter().flatten().next() {
        Some(model) => FirstModel::Found { model },
        None if gave_up.load(Ordering::Relaxed) || meter.stopped() => FirstModel::Unknown,
        None => FirstModel::None,
    };
    settle(outcome, settled)
}

/// Marks the question `settled` when `outcome` decides it, so that a search racing this one
/// stops.
fn settle(outcome: FirstModel, settled: &AtomicBool) -> FirstModel {
    if outcome != FirstModel::Unknown {
        settled.store(true, Ordering::Relaxed);
    }
    outcome
}

/// The first model below `s` (witness tables dropped), and how the search ended: `Continue` when
/// it exhausted the subtree, `Stop` at a model, `Abort` when the budget ran out, another search
/// `settled` the question, or `enough` (given the nodes searched since it was last asked) said
/// to stop.
fn first_below(
    s: &mut Search,
    t: &Theory,
    meter: &Meter,
    settled: &AtomicBool,
    enough: &mut dyn FnMut(u64) -> bool,
) -> (Option<Structure>, Flow) {
    let mut model = None;
    let mut on_model = |s: &Search| {
        let mut m = s.structure();
        m.funcs.truncate(t.sig.funcs.len());
        model = Some(m);
        Flow::Stop
    };
    let mut check = |nodes| {
        if !meter.charge(nodes) || settled.load(Ordering::Relaxed) || enough(nodes) {
            Flow::Abort
        } else {
            Flow::Continue
        }
    };
    let from = s.first_open();
    let flow = s.run(from, &mut on_model, &mut check);
    meter.charge(s.unchecked_nodes());
    (model, flow)
}

/// Counts labeled models by enumerating every one (no symmetry breaking), each checked by the
/// evaluator. Exponentially slower than [`enumerate`]; it exists as an independent check.
pub fn count_labeled_directly(
    t: &Theory,
    sizes: &[u32],
    budget: &Budget,
) -> Result<Count, FinderError> {
    let meter = Meter::new(budget);
    let p = match Problem::within(t, sizes, &|| meter.out_of_time()) {
        Err(ProblemError::Stopped) => return Ok(Count::from_search(0, false)),
        p => p?,
    };
    let counts = run_split(
        &p,
        Options {
            symmetry_breaking: false,
            classes: false,
            ..Options::default()
        },
        &meter,
        Split::Threads,
        |_, s| {
            let mut n: u128 = 0;
            let mut bad = None;
            let mut on_model = |s: &Search| {
                let m = s.structure();
                if let Err(e) = verify(t, &m) {
                    bad = Some(e);
                    return Flow::Stop;
                }
                n += 1;
                Flow::Continue
            };
            let from = s.first_open();
            s.run(from, &mut on_model, &mut budget_check(&meter));
            meter.charge(s.unchecked_nodes());
            bad.map_or(Ok(n), Err)
        },
    );
    let total = counts.into_iter().sum::<Result<u128, FinderError>>()?;
    Ok(Count::from_search(total, !meter.stopped()))
}
