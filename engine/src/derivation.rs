//! The derivation graph: theories as nodes (deduplicated by [`canon::canonical_form`]), moves as
//! edges. A theory reached twice keeps every parent: each derivation adds an edge. Exports DOT
//! and JSON. [`explore`] builds the graph breadth first from base theories, in parallel (rayon).
//!
//! Semantic equivalence hook: [`Equivalence`] is how a prover (checker's `prover` module, once
//! merged) can mark two distinct nodes as equivalent (their axioms prove each other within a
//! budget). The engine cannot prove anything itself, so [`Graph::mark_equivalent`] records only
//! what a caller proved; the default explore run marks nothing.

use crate::canon::{canonical_form, CanonicalForm};
use crate::moves::{self, Derived, Provenance};
use crate::theory::Theory;
use petgraph::graph::{DiGraph, NodeIndex};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// A node: a theory and the depth at which it was first reached.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// The theory (named after its first derivation).
    pub theory: Theory,
    /// Moves from a base theory on the shortest derivation found.
    pub depth: usize,
}

/// A semantic equivalence between two nodes established by a prover, with how it was shown.
#[derive(Clone, Debug, Serialize)]
pub struct Equivalence {
    /// The two nodes' indices.
    pub nodes: (usize, usize),
    /// The prover's justification (for example, "each axiom proved within 1000 steps").
    pub evidence: String,
}

/// The derivation graph.
#[derive(Default)]
pub struct Graph {
    /// Theories and moves.
    pub graph: DiGraph<Node, Provenance>,
    index: HashMap<CanonicalForm, NodeIndex>,
    /// Equivalences proved by a caller (see the module docs).
    pub equivalences: Vec<Equivalence>,
    /// Results that could not be canonized (too symmetric) and were kept undeduplicated.
    pub uncanonized: usize,
}

impl Graph {
    /// Adds a theory as a node unless an equal one (up to renaming) is there; returns its index
    /// and whether it is new.
    pub fn add(&mut self, theory: Theory, depth: usize) -> (NodeIndex, bool) {
        match canonical_form(&theory) {
            Ok(form) => {
                if let Some(&i) = self.index.get(&form) {
                    return (i, false);
                }
                let i = self.graph.add_node(Node { theory, depth });
                self.index.insert(form, i);
                (i, true)
            }
            Err(_) => {
                self.uncanonized += 1;
                (self.graph.add_node(Node { theory, depth }), true)
            }
        }
    }

    /// The node of a theory equal (up to renaming) to `t`, if any.
    pub fn find(&self, t: &Theory) -> Option<NodeIndex> {
        canonical_form(t).ok().and_then(|f| self.index.get(&f).copied())
    }

    /// Records a prover-established equivalence between two nodes.
    pub fn mark_equivalent(&mut self, a: NodeIndex, b: NodeIndex, evidence: String) {
        self.equivalences.push(Equivalence { nodes: (a.index(), b.index()), evidence });
    }

    /// The graph in Graphviz DOT.
    pub fn to_dot(&self) -> String {
        let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = String::from("digraph derivations {\n  rankdir=LR;\n");
        for i in self.graph.node_indices() {
            out.push_str(&format!("  n{} [label=\"{}\"];\n", i.index(), esc(&self.graph[i].theory.name)));
        }
        for e in self.graph.edge_indices() {
            let (a, b) = self.graph.edge_endpoints(e).expect("edge exists");
            let p = &self.graph[e];
            out.push_str(&format!("  n{} -> n{} [label=\"{}\", tooltip=\"{}\"];\n", a.index(), b.index(), p.mv, esc(&p.description)));
        }
        out.push_str("}\n");
        out
    }

    /// The graph as JSON: nodes (name, depth, axioms as text), edges (from, to, provenance).
    pub fn to_json(&self) -> serde_json::Value {
        let nodes: Vec<_> = self.graph.node_indices().map(|i| {
            let n = &self.graph[i];
            serde_json::json!({"id": i.index(), "name": n.theory.name, "depth": n.depth, "text": n.theory.to_text()})
        }).collect();
        let edges: Vec<_> = self.graph.edge_indices().map(|e| {
            let (a, b) = self.graph.edge_endpoints(e).expect("edge exists");
            serde_json::json!({"from": a.index(), "to": b.index(), "provenance": self.graph[e]})
        }).collect();
        serde_json::json!({"nodes": nodes, "edges": edges, "equivalences": self.equivalences})
    }
}

/// Statistics of an exploration.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Move results generated (before deduplication).
    pub generated: usize,
    /// Distinct theories (nodes), bases included.
    pub distinct: usize,
}

/// Explores from `bases` for `depth` rounds: every unary move on every theory of the frontier,
/// and TRANSFER / ABSTRACT's common part between each frontier theory and each base. Results are
/// deduplicated up to renaming; every derivation is an edge. `on_round` is called after each round
/// with the number of new theories.
pub fn explore(bases: &[Theory], depth: usize, mut on_round: impl FnMut(usize, usize)) -> (Graph, Stats) {
    let mut g = Graph::default();
    let mut stats = Stats::default();
    let base_nodes: Vec<NodeIndex> = bases.iter().map(|b| g.add(b.clone(), 0).0).collect();
    let mut frontier = base_nodes.clone();
    frontier.sort();
    frontier.dedup();
    for round in 1..=depth {
        let theories: Vec<(NodeIndex, Theory)> = frontier.iter().map(|&i| (i, g.graph[i].theory.clone())).collect();
        let results: Vec<(NodeIndex, Vec<(Derived, Option<NodeIndex>)>)> = theories
            .par_iter()
            .map(|(i, t)| {
                let mut out: Vec<(Derived, Option<NodeIndex>)> = moves::unary_moves(t).into_iter().map(|d| (d, None)).collect();
                for (b, bi) in bases.iter().zip(&base_nodes) {
                    out.extend(moves::binary_moves(b, t).into_iter().map(|d| (d, Some(*bi))));
                }
                (*i, out)
            })
            .collect();
        let mut next = Vec::new();
        for (parent, ds) in results {
            for (d, other) in ds {
                stats.generated += 1;
                let (child, new) = g.add(d.theory, round);
                if new {
                    next.push(child);
                }
                // Every parent gets an edge, including a move that gives back its own parent
                // (up to renaming), which is recorded as a loop.
                if let Some(o) = other.filter(|o| *o != parent) {
                    g.graph.add_edge(o, child, d.provenance.clone());
                }
                g.graph.add_edge(parent, child, d.provenance);
            }
        }
        on_round(round, next.len());
        frontier = next;
    }
    stats.distinct = g.graph.node_count();
    (g, stats)
}
