//! `birkhoff explore`: apply the structural moves to base theories for a number of rounds,
//! deduplicate the results up to renaming, optionally check their models, and print the best
//! ones with their axioms, spectrum, scores per dimension and derivation.

use super::parse_seconds;
use crate::output::progress;
use crate::Outcome;
use anyhow::Context;
use birkhoff_checker::prover::{
    self,
    equivalence::{relate, Side},
};
use birkhoff_checker::Budget;
use birkhoff_engine::derivation::{explore_with, Event, Graph};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::Theory;
use birkhoff_scorer::spectrum::{known_spectra, KnownSpectrum};
use birkhoff_scorer::{
    gather, score, score_syntactic_all, Gathered, Policy, Scores, SpectrumRow, Weights,
};
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use rayon::prelude::*;
use serde_json::json;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

// Arguments of `birkhoff explore`.
#[derive(clap::Args)]
pub struct Args {
    /// A base theory: a seed or catalogue name, a theory file, or a discovery's name or ID (see
    /// --library); repeat the flag for several. Default: every seed.
    #[arg(long = "base", value_name = "NAME")]
    bases: Vec<String>,
    /// Rounds of moves: 1 applies every move to the bases, 2 to their results as well, ...
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=4))]
    depth: u32,
    /// Find the models of every theory reached, up to --max-size, and score on them too.
    #[arg(long)]
    check_models: bool,
    /// Largest model size checked (every sort gets this size); needs --check-models.
    #[arg(long, value_name = "N", default_value_t = 4, requires = "check_models", value_parser = clap::value_parser!(u32).range(1..=64))]
    max_size: u32,
    /// Model checking gives up on a size after this many seconds; its count is then shown as a
    /// lower bound ("≥k") and larger sizes are not searched. Short by default because explore
    /// screens many theories; raise it for more exact spectra.
    #[arg(long, value_name = "SECONDS", default_value = "0.02", value_parser = parse_seconds)]
    timeout: Duration,
    /// Model checking gives up on a size after this many isomorphism classes (a lower bound).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    max_models: u64,
    /// How many of the best theories to print.
    #[arg(long, value_name = "K", default_value_t = 10)]
    top: usize,
    /// Try to prove pairs among the best 10 equivalent (each proves the other's axioms), spending
    /// at most this many seconds per axiom; 0 skips it.
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = parse_seconds_or_zero)]
    equivalence_timeout: Duration,
    /// Write the derivation graph in Graphviz DOT to FILE.
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,
    /// Write the derivation graph as JSON to FILE: every node (id, name, depth, the theory as
    /// text), every edge (from, to, the move's provenance) and the proved equivalences.
    #[arg(long, value_name = "FILE")]
    graph: Option<PathBuf>,
    /// A JSON file of score weights by dimension name (missing ones keep their defaults).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

/// Refuses an output file whose folder does not exist before exploring rather than after, when
/// the exploration's results would be lost with the error.
fn check_output_folder(flag: &str, path: &std::path::Path) -> anyhow::Result<()> {
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    anyhow::ensure!(
        folder.is_dir(),
        "{flag}: cannot write {}: there is no folder {}",
        path.display(),
        folder.display()
    );
    Ok(())
}

/// Seconds, where 0 means "off".
fn parse_seconds_or_zero(s: &str) -> Result<Duration, String> {
    if s.trim().parse::<f64>() == Ok(0.0) {
        return Ok(Duration::ZERO);
    }
    parse_seconds(s)
}

/// One ranked theory.
struct Ranked {
    node: NodeIndex,
    scores: Scores,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let bases: Vec<Theory> = if a.bases.is_empty() {
        birkhoff_engine::seeds::all()
            .iter()
            .map(|s| birkhoff_engine::seeds::load(s.name))
            .collect::<Result<_, _>>()?
    } else {
        a.bases
            .iter()
            .map(|b| a.library.load(b).with_context(|| format!("--base {b}")))
            .collect::<anyhow::Result<_>>()?
    };
    let weights = match &a.weights {
        Some(path) => Weights::from_json(&super::read_file(path)?)
            .map_err(|e| anyhow::anyhow!("--weights {}: {e}", path.display()))?,
        None => Weights::default(),
    };
    for (flag, path) in [("--dot", &a.dot), ("--graph", &a.graph)] {
        if let Some(path) = path {
            check_output_folder(flag, path)?;
        }
    }

    let (mut g, stats) = explore_streaming(&bases, a.depth as usize, json);
    if crate::interrupt::requested() {
        return Ok(Outcome::Interrupted);
    }
    let nodes: Vec<NodeIndex> = g.graph.node_indices().collect();
    let checked: Vec<Gathered> = if a.check_models {
        check_all(&g, &nodes, &a)?
    } else {
        Vec::new()
    };
    if crate::interrupt::requested() {
        return Ok(Outcome::Interrupted);
    }

    // Score every theory reached (not the bases), best first.
    let derived: Vec<NodeIndex> = nodes
        .iter()
        .copied()
        .filter(|&i| g.graph[i].depth > 0)
        .collect();
    let scores: Vec<Scores> = if a.check_models {
        let known = known_spectra();
        derived
            .par_iter()
            .map(|&i| score_node(&g, &checked, &known, &weights, i))
            .collect()
    } else {
        let theories: Vec<&Theory> = derived.iter().map(|&i| &g.graph[i].theory).collect();
        score_syntactic_all(&theories, &weights).collect()
    };
    let mut ranked: Vec<Ranked> = derived
        .into_iter()
        .zip(scores)
        .map(|(node, scores)| Ranked { node, scores })
        .collect();
    ranked.sort_by(|x, y| {
        y.scores.total.total_cmp(&x.scores.total).then_with(|| {
            g.graph[x.node]
                .theory
                .name
                .cmp(&g.graph[y.node].theory.name)
        })
    });
    ranked.truncate(a.top);

    if !a.equivalence_timeout.is_zero() {
        mark_equivalences(&mut g, &ranked, &checked, a.equivalence_timeout)?;
    }
    if let Some(path) = &a.dot {
        birkhoff_checker::atomic_file::write(path, g.to_dot().as_bytes())
            .with_context(|| format!("--dot: cannot write {}", path.display()))?;
    }
    if let Some(path) = &a.graph {
        birkhoff_checker::atomic_file::write(path, g.to_json().to_string().as_bytes())
            .with_context(|| format!("--graph: cannot write {}", path.display()))?;
    }

    let checked_one = |i: NodeIndex| checked.get(i.index());
    if json {
        for (rank, r) in ranked.iter().enumerate() {
            let t = &g.graph[r.node].theory;
            let spectrum = checked_one(r.node).map(|c| &c.spectrum);
            let equivalent: Vec<_> = g
                .equivalences
                .iter()
                .filter(|e| e.nodes.0 == r.node.index() || e.nodes.1 == r.node.index())
                .collect();
            println!(
                "{}",
                json!({"event": "top", "rank": rank + 1, "id": r.node.index(), "name": t.name, "depth": g.graph[r.node].depth, "text": t.to_text(),
                       "spectrum": spectrum, "scores": r.scores, "derivation": derivation(&g, r.node), "equivalences": equivalent})
            );
        }
        println!(
            "{}",
            json!({"event": "done", "generated": stats.generated, "distinct": stats.distinct, "edges": g.graph.edge_count(), "uncanonized": g.uncanonized, "equivalences": g.equivalences.len()})
        );
    } else {
        println!(
            "{} generated, {} distinct up to renaming, {} derivations (edges)",
            stats.generated,
            stats.distinct,
            g.graph.edge_count()
        );
        for (rank, r) in ranked.iter().enumerate() {
            print_ranked(&g, rank + 1, r, checked_one(r.node));
        }
    }
    Ok(Outcome::Done)
}

/// Runs the exploration with a progress bar per round; with `json`, streams one JSON line per
/// round and per new theory as they are found. Ctrl-C stops it after the current parent.
fn explore_streaming(
    bases: &[Theory],
    depth: usize,
    json: bool,
) -> (Graph, birkhoff_engine::derivation::Stats) {
    let mut bar: Option<indicatif::ProgressBar> = None;
    let finish = |bar: &mut Option<indicatif::ProgressBar>, g: &Graph, round: usize| {
        if let Some(b) = bar.take() {
            b.finish_and_clear();
            if !json {
                println!("round {round}: {} new theories", g.count_at_depth(round));
            }
        }
    };
    let mut round = 0;
    let out = explore_with(bases, depth, |g, e| {
        match e {
            Event::Round { round: r, parents } => {
                finish(&mut bar, g, round);
                round = r;
                bar = Some(progress(parents as u64, &format!("round {r}")));
                if json {
                    println!(
                        "{}",
                        json!({"event": "round", "round": r, "parents": parents})
                    );
                }
            }
            Event::ParentDone => {
                if let Some(b) = &bar {
                    b.inc(1);
                }
            }
            Event::New(i) => {
                if json {
                    let n = &g.graph[i];
                    println!(
                        "{}",
                        json!({"event": "theory", "id": i.index(), "name": n.theory.name, "depth": n.depth, "derivation": derivation(g, i)})
                    );
                }
            }
        }
        if crate::interrupt::requested() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    finish(&mut bar, &out.0, round);
    out
}

/// The spectrum of every node, in parallel, with a progress bar: gathered as the `explore`
/// policy says ([`Policy::explore`]: the spectrum to `--max-size`, each size within the per-size
/// budget), the same way `score` and the agent gather.
fn check_all(g: &Graph, nodes: &[NodeIndex], a: &Args) -> anyhow::Result<Vec<Gathered>> {
    let budget = Budget {
        time: Some(a.timeout),
        nodes: None,
        models: Some(a.max_models),
        cancel: Some(crate::interrupt::flag()),
        progress: None,
    };
    let policy = Policy::explore(a.max_size);
    let bar = progress(nodes.len() as u64, "checking models");
    let out = nodes
        .par_iter()
        .map(|&i| {
            let t = &g.graph[i].theory;
            let c = gather(t, &policy, &budget)
                .with_context(|| format!("checking the models of {}", t.name))?;
            bar.inc(1);
            Ok(c)
        })
        .collect();
    bar.finish_and_clear();
    out
}

/// The scores of node `i`, whose models were checked: from its axioms, spectrum and models
/// (novelty compares its spectrum with its parents' and the known ones).
fn score_node(
    g: &Graph,
    checked: &[Gathered],
    known: &[KnownSpectrum],
    weights: &Weights,
    i: NodeIndex,
) -> Scores {
    let t = &g.graph[i].theory;
    let c = &checked[i.index()];
    let parents: Vec<Vec<SpectrumRow>> = parents(g, i)
        .map(|j| checked[j.index()].spectrum.clone())
        .collect();
    let e = c.evidence(t, &parents, known);
    score(&e, weights)
}

/// The distinct parents of node `i` (sources of its incoming edges other than itself).
fn parents(g: &Graph, i: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
    let mut seen = std::collections::BTreeSet::new();
    g.graph
        .edges_directed(i, Direction::Incoming)
        .map(|e| e.source())
        .filter(move |&j| j != i && seen.insert(j))
}

/// The moves that made node `i` from a base, first move first: each step goes back along the
/// move whose result became the node ([`Graph::derivations`]). That derivation is a shortest
/// one (rounds run breadth first), and the only one guaranteed to give the node's theory as
/// shown: others may reach it up to renaming only (the opposite of a lattice's `v` gives the
/// node the opposite of `^` made). A binary move steps back to the frontier theory it was
/// applied to (the deeper parent), whose own derivation comes before it, not to the base.
fn derivation(g: &Graph, mut i: NodeIndex) -> Vec<serde_json::Value> {
    let mut steps = Vec::new();
    while g.graph[i].depth > 0 {
        let made = g.derivations(i);
        let Some(first) = made.first() else { break };
        let e = made
            .iter()
            .filter(|e| Arc::ptr_eq(e.weight(), first.weight()))
            .max_by_key(|e| (g.graph[e.source()].depth, std::cmp::Reverse(e.id())))
            .unwrap_or(first);
        let p = e.weight();
        steps.push(json!({"move": p.mv.to_string(), "from": g.graph[e.source()].theory.name, "description": p.description()}));
        i = e.source();
    }
    steps.reverse();
    steps
}

/// How many of the best theories are compared pairwise for equivalence (at most 45 pairs).
const EQUIVALENCE_RANKS: usize = 10;

/// Marks pairs among the top theories as equivalent when [`relate`] shows them the same class up
/// to renaming (the function `equiv` and `identify` use), reading their checked models first. With
/// checked models only pairs whose spectra agree are tried (different exact counts already prove
/// them different).
fn mark_equivalences(
    g: &mut Graph,
    ranked: &[Ranked],
    checked: &[Gathered],
    per_axiom: Duration,
) -> anyhow::Result<()> {
    let opts = prover::Options {
        timeout: per_axiom,
        max_size: 3,
        cancel: Some(crate::interrupt::flag()),
        // Equivalences, whose axioms mostly hold: the named structures would only cost time.
        named_structures: 0,
        ..prover::Options::default()
    };
    let spectrum = |i: NodeIndex| {
        checked
            .get(i.index())
            .map(|c| c.spectrum.iter().map(|p| p.iso).collect::<Vec<_>>())
    };
    let best = &ranked[..ranked.len().min(EQUIVALENCE_RANKS)];
    let pairs: Vec<(NodeIndex, NodeIndex)> = best
        .iter()
        .enumerate()
        .flat_map(|(k, x)| best[k + 1..].iter().map(move |y| (x.node, y.node)))
        .filter(|&(x, y)| spectrum(x) == spectrum(y))
        .collect();
    if pairs.is_empty() {
        return Ok(());
    }
    let bar = progress(pairs.len() as u64, "equivalences");
    let found: Vec<(NodeIndex, NodeIndex, String)> = pairs
        .par_iter()
        .map(|&(x, y)| {
            let side = |i: NodeIndex| {
                Side::with_models(
                    &g.graph[i].theory,
                    checked
                        .get(i.index())
                        .map(|c| c.classes.iter().map(|k| k.model.clone()).collect())
                        .unwrap_or_default(),
                )
            };
            let r = relate(&side(x), &side(y), &opts);
            bar.inc(1);
            r.map(|r| r.same_class().then(|| (x, y, r.describe())))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    bar.finish_and_clear();
    for (x, y, evidence) in found {
        g.mark_equivalent(x, y, evidence);
    }
    Ok(())
}

/// Prints one ranked theory: name, score, derivation, axioms, spectrum, scores per dimension.
fn print_ranked(g: &Graph, rank: usize, r: &Ranked, checked: Option<&Gathered>) {
    let t = &g.graph[r.node].theory;
    println!(
        "\n#{rank}  {}  score {:.3}  (depth {})",
        t.name, r.scores.total, g.graph[r.node].depth
    );
    for step in derivation(g, r.node) {
        println!(
            "  {} from {}: {}",
            step["move"].as_str().unwrap_or(""),
            step["from"].as_str().unwrap_or(""),
            step["description"].as_str().unwrap_or("")
        );
    }
    for ax in &t.axioms {
        let p = FormulaPrinter::new(&t.sig, ax);
        println!("  axiom {}: {}", ax.name, p.formula(&ax.formula));
    }
    if let Some(c) = checked {
        let points: Vec<String> = c
            .spectrum
            .iter()
            .map(|p| format!("{}:{}", birkhoff_checker::sizes_label(&p.sizes), p.iso))
            .collect();
        println!("  spectrum (iso classes by size) {}", points.join(" "));
    }
    for e in g
        .equivalences
        .iter()
        .filter(|e| e.nodes.0 == r.node.index() || e.nodes.1 == r.node.index())
    {
        let other = if e.nodes.0 == r.node.index() {
            e.nodes.1
        } else {
            e.nodes.0
        };
        println!(
            "  equivalent to {}: {}",
            g.graph[NodeIndex::new(other)].theory.name,
            e.evidence
        );
    }
    let dims = r.scores.dimensions();
    let measured: Vec<String> = dims
        .iter()
        .filter_map(|(name, v)| v.map(|v| format!("{name} {v:.2}")))
        .collect();
    let unmeasured: Vec<&str> = dims
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(name, _)| *name)
        .collect();
    println!("  scores: {}", measured.join(", "));
    if !unmeasured.is_empty() {
        println!("  not measured: {}", unmeasured.join(", "));
    }
}
