//! The three ways to ask for models of one size: the first model, one model per isomorphism
//! class, and the number of labeled models. Searches run in parallel (rayon) over a split of the
//! search tree, and every model is re-checked by the engine's evaluator before it is reported.

use crate::budget::{Budget, Count, Meter};
use crate::iso;
use crate::problem::{Problem, ProblemError};
use crate::search::{Flow, Search};
use birkhoff_engine::{eval, Structure, Theory};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Why a search could not give an answer.
#[derive(Debug, thiserror::Error)]
pub enum FinderError {
    /// The theory cannot be searched at these sizes.
    #[error("{0}")]
    Problem(#[from] ProblemError),
    /// The theory cannot be encoded for an engine (for Z3: an axiom too large once expanded).
    #[error("{0}")]
    Encoding(String),
    /// The two engines of `--engine both` gave different answers; neither is reported.
    #[error("the engines disagree: native says {native}; z3 says {z3}. This is a bug in Birkhoff, please report it with the theory")]
    Disagreement {
        /// The native finder's answer.
        native: String,
        /// The Z3 backend's answer.
        z3: String,
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
    /// The classes, ordered by canonical form.
    pub classes: Vec<IsoClass>,
    /// Models the search met before removing isomorphic copies.
    pub models_met: u64,
    /// Search nodes.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Time spent in canonical forms, summed over threads.
    pub canon_time: Duration,
    /// Time spent re-checking models with the evaluator, summed over threads.
    pub verify_time: Duration,
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

/// Search behaviour that tests vary.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Use the least-number heuristic (never loses an isomorphism class).
    pub symmetry_breaking: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { symmetry_breaking: true }
    }
}

/// Runs `task` on every piece of a split of the search tree, in parallel, results in tree order.
/// Returns an empty vector when propagation alone shows there is no model.
fn run_split<R: Send>(p: &Problem, opts: Options, task: impl Fn(usize, &mut Search) -> R + Sync) -> Vec<R> {
    let Some(mut root) = Search::new(p, opts.symmetry_breaking) else {
        return Vec::new();
    };
    let target = rayon::current_num_threads() * 16;
    let mut paths = vec![Vec::new()];
    for depth in 1..=8 {
        let mut out = Vec::new();
        let from = root.first_open();
        root.split(from, depth, &mut Vec::new(), &mut out);
        paths = out;
        if paths.len() >= target {
            break;
        }
    }
    paths
        .into_par_iter()
        .enumerate()
        .map(|(i, path)| {
            let mut s = root.clone();
            for (cell, v) in path {
                // `split` recorded this decision after it propagated without conflict from the
                // same state; propagation is deterministic, so replaying it succeeds.
                assert!(s.decide(cell, v), "replaying a recorded decision failed");
            }
            task(i, &mut s)
        })
        .collect()
}

fn budget_check<'a>(meter: &'a Meter) -> impl FnMut(u64) -> Flow + 'a {
    move |_| if meter.charge(1024) { Flow::Continue } else { Flow::Abort }
}

pub(crate) fn verify(t: &Theory, m: &Structure) -> Result<(), FinderError> {
    eval::check(t, m).map_err(|v| FinderError::Unsound { violation: v.to_string(), model: m.to_json(&t.sig).to_string() })
}

/// A canonical form as bytes (every value is below 64), for compact hashing.
pub(crate) fn key(s: &Structure) -> Box<[u8]> {
    s.funcs.iter().flatten().map(|&v| v as u8).chain(s.rels.iter().flatten().map(|&b| b as u8)).collect()
}

fn from_key(template: &Structure, k: &[u8]) -> Structure {
    let mut s = template.clone();
    let mut it = k.iter();
    for t in s.funcs.iter_mut() {
        t.iter_mut().for_each(|v| *v = *it.next().expect("key has every entry") as u32);
    }
    for t in s.rels.iter_mut() {
        t.iter_mut().for_each(|v| *v = *it.next().expect("key has every entry") == 1);
    }
    s
}

/// The classes found by several workers (canonical keys with |Aut|), ordered by canonical form
/// and cut to the model limit. `template` is any structure of the right shape (`None`: no model).
pub(crate) fn merge_classes(template: Option<&Structure>, parts: impl IntoIterator<Item = HashMap<Box<[u8]>, u128>>, limit: Option<u64>) -> Vec<IsoClass> {
    let merged: BTreeMap<Box<[u8]>, u128> = parts.into_iter().flatten().collect();
    let mut classes: Vec<IsoClass> = match template {
        Some(tpl) => merged.into_iter().map(|(k, aut)| IsoClass { model: from_key(tpl, &k), automorphisms: aut }).collect(),
        None => Vec::new(),
    };
    if let Some(m) = limit {
        classes.truncate(m as usize);
    }
    classes
}

/// One representative of every isomorphism class of models with these sort sizes.
pub fn enumerate(t: &Theory, sizes: &[u32], budget: &Budget, opts: Options) -> Result<Enumeration, FinderError> {
    let start = Instant::now();
    let p = Problem::new(t, sizes)?;
    let meter = Meter::new(budget);
    let new_classes = AtomicU64::new(0);
    struct Part {
        classes: HashMap<Box<[u8]>, u128>,
        met: u64,
        canon: Duration,
        template: Option<Structure>,
    }
    let parts = run_split(&p, opts, |_, s| {
        let mut part = Part { classes: HashMap::new(), met: 0, canon: Duration::ZERO, template: None };
        let mut on_model = |s: &Search| {
            part.met += 1;
            let t0 = Instant::now();
            let c = iso::canonical_form(&p.sig, &s.structure());
            part.canon += t0.elapsed();
            let k = key(&c.form);
            if part.template.is_none() {
                part.template = Some(c.form);
            }
            if part.classes.insert(k, c.automorphisms).is_none() {
                let total = new_classes.fetch_add(1, Ordering::Relaxed) + 1;
                if budget.models.is_some_and(|m| total >= m) {
                    meter.stop();
                    return Flow::Stop;
                }
            }
            Flow::Continue
        };
        let from = s.first_open();
        s.run(from, &mut on_model, &mut budget_check(&meter));
        meter.charge(s.nodes % 1024);
        part
    });
    let finished = !meter.stopped();
    let (mut met, mut canon_time, mut template) = (0, Duration::ZERO, None);
    let mut maps = Vec::new();
    for part in parts {
        met += part.met;
        canon_time += part.canon;
        template = template.or(part.template);
        maps.push(part.classes);
    }
    let classes = merge_classes(template.as_ref(), maps, budget.models);
    let v0 = Instant::now();
    classes.par_iter().try_for_each(|c| verify(t, &c.model))?;
    let verify_time = v0.elapsed();
    let labeled: u128 = classes.iter().map(|c| iso::labelled_copies(sizes, c.automorphisms)).sum();
    Ok(Enumeration {
        sizes: sizes.to_vec(),
        iso: Count::from_search(classes.len() as u128, finished),
        labeled: Count::from_search(labeled, finished),
        classes,
        models_met: met,
        nodes: meter.nodes(),
        elapsed: start.elapsed(),
        canon_time,
        verify_time,
    })
}

/// The first model in search order, or a proof by exhaustion that there is none.
pub fn first(t: &Theory, sizes: &[u32], budget: &Budget, opts: Options) -> Result<(FirstModel, u64, Duration), FinderError> {
    let start = Instant::now();
    let p = Problem::new(t, sizes)?;
    let meter = Meter::new(budget);
    let best = AtomicUsize::new(usize::MAX);
    let found = run_split(&p, opts, |i, s| {
        let mut model = None;
        let mut on_model = |s: &Search| {
            model = Some(s.structure());
            best.fetch_min(i, Ordering::Relaxed);
            Flow::Stop
        };
        let mut meter_check = budget_check(&meter);
        // A piece after one that already has a model cannot change the answer.
        let mut check = |n| if best.load(Ordering::Relaxed) < i { Flow::Abort } else { meter_check(n) };
        let from = s.first_open();
        s.run(from, &mut on_model, &mut check);
        meter.charge(s.nodes % 1024);
        model
    });
    let nodes = meter.nodes();
    let outcome = match found.into_iter().flatten().next() {
        Some(m) => {
            verify(t, &m)?;
            FirstModel::Found { model: m }
        }
        None if meter.stopped() => FirstModel::Unknown,
        None => FirstModel::None,
    };
    Ok((outcome, nodes, start.elapsed()))
}

/// Counts labeled models by enumerating every one (no symmetry breaking), each checked by the
/// evaluator. Exponentially slower than [`enumerate`]; it exists as an independent check.
pub fn count_labeled_directly(t: &Theory, sizes: &[u32], budget: &Budget) -> Result<Count, FinderError> {
    let p = Problem::new(t, sizes)?;
    let meter = Meter::new(budget);
    let counts = run_split(&p, Options { symmetry_breaking: false }, |_, s| {
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
        meter.charge(s.nodes % 1024);
        bad.map_or(Ok(n), Err)
    });
    let total = counts.into_iter().sum::<Result<u128, FinderError>>()?;
    Ok(Count::from_search(total, !meter.stopped()))
}
