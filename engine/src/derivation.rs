//! The derivation graph: theories as nodes (deduplicated by [`crate::canon::canonical_form`]), moves as
//! edges. A theory reached twice keeps every parent: each derivation adds an edge. Exports DOT
//! and JSON. [`explore`] builds the graph breadth first from base theories, in parallel (rayon).
//!
//! Semantic equivalence hook: [`Equivalence`] is how a prover (checker's `prover` module, once
//! merged) can mark two distinct nodes as equivalent (their axioms prove each other within a
//! budget). The engine cannot prove anything itself, so [`Graph::mark_equivalent`] records only
//! what a caller proved; the default explore run marks nothing.

use crate::canon::{
    canonical_tokens, literal_hash, literally_equal, with_canonical_tokens, AxiomSet, FormIndex,
    LiteralIndex, PackedForm,
};
use crate::moves::transfer::{CarriedAxioms, Pair};
use crate::moves::{self, Provenance};
use crate::signature::Signature;
use crate::syntax::Axiom;
use crate::theory::Theory;
use petgraph::graph::{DiGraph, EdgeReference, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use serde::Serialize;
use std::ops::ControlFlow;
use std::sync::Arc;

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
    /// Theories and moves. A binary move's two edges (from each parent) share one provenance.
    pub graph: DiGraph<Node, Arc<Provenance>>,
    /// The nodes by canonical form.
    index: FormIndex<NodeIndex>,
    /// The nodes by literal hash: a theory literally equal to a node's (the same symbols and
    /// axioms, see [`crate::canon::literally_equal`]) is that node, without a canonical form.
    literal: LiteralIndex<NodeIndex>,
    /// Equivalences proved by a caller (see the module docs).
    pub equivalences: Vec<Equivalence>,
    /// Results that could not be canonized (too symmetric): kept as nodes unless literally equal to one.
    pub uncanonized: usize,
    /// Every axiom of a node, once: a new node's axioms are replaced by equal ones already here,
    /// so that, say, the commutativity COMPLETE adds to a thousand theories, or the axioms
    /// TRANSFER carries into them, are stored once.
    axioms: FxHashSet<Arc<Axiom>>,
    /// Every signature of a node, once, likewise: the moves that declare a symbol (an identity,
    /// a division, a named operation) give each of their results a signature of its own, and
    /// most are equal to another's.
    sigs: FxHashSet<Arc<Signature>>,
}

impl Graph {
    /// Adds a theory as a node unless an equal one (up to renaming) is there; returns its index
    /// and whether it is new.
    pub fn add(&mut self, theory: Theory, depth: usize) -> (NodeIndex, bool) {
        let literal = literal_hash(&theory, None);
        if let Some(known) = self.literally(&theory, literal) {
            return (known, false);
        }
        let form = canonical_tokens(&theory, None).ok().map(|f| f.packed());
        self.add_with_form(theory, form, literal, depth)
    }

    /// The node literally equal to `t` (whose [`literal_hash`] is `literal`), if any.
    fn literally(&self, t: &Theory, literal: u64) -> Option<NodeIndex> {
        self.literal.get(t, literal, |n| &self.graph[n].theory)
    }

    /// [`Graph::add`] for a theory literally equal to no node, with its canonical form (`None`:
    /// too symmetric to canonize, so the theory is deduplicated only literally) and literal hash
    /// already computed.
    fn add_with_form(
        &mut self,
        mut theory: Theory,
        form: Option<PackedForm>,
        literal: u64,
        depth: usize,
    ) -> (NodeIndex, bool) {
        // The index the node gets if it is new.
        let next = NodeIndex::new(self.graph.node_count());
        match form {
            Some(form) => {
                let i = self.index.get_or_insert(form, next);
                if i != next {
                    return (i, false);
                }
            }
            None => self.uncanonized += 1,
        }
        self.intern(&mut theory);
        self.literal.insert(literal, next);
        (self.graph.add_node(Node { theory, depth }), true)
    }

    /// Replaces each axiom of `theory`, and its signature, by an equal one already in the
    /// graph, or records it. What the theory already shares (with its parent) is left as it is.
    fn intern(&mut self, theory: &mut Theory) {
        for a in theory
            .axioms
            .iter_mut()
            .filter(|a| Arc::strong_count(a) == 1)
        {
            shared(&mut self.axioms, a);
        }
        if Arc::strong_count(&theory.sig) == 1 {
            shared(&mut self.sigs, &mut theory.sig);
        }
    }

    /// [`Graph::intern`] without recording: what the parallel part of [`explore_with`]
    /// can do before the merge, which then hashes only what it has not seen before.
    fn reuse_interned(&self, theory: &mut Theory) {
        for a in theory
            .axioms
            .iter_mut()
            .filter(|a| Arc::strong_count(a) == 1)
        {
            if let Some(known) = self.axioms.get(&**a) {
                *a = known.clone();
            }
        }
        if Arc::strong_count(&theory.sig) == 1 {
            if let Some(known) = self.sigs.get(&*theory.sig) {
                theory.sig = known.clone();
            }
        }
    }

    /// The node of a theory equal (up to renaming) to `t`, if any. A theory too symmetric to
    /// canonize is found when it is literally equal to a node, as [`explore`] finds it.
    pub fn find(&self, t: &Theory) -> Option<NodeIndex> {
        self.literally(t, literal_hash(t, None)).or_else(|| {
            canonical_tokens(t, None)
                .ok()
                .and_then(|f| self.index.get(&f))
        })
    }

    /// The derivations of node `i` (its incoming edges, loops aside) in the order they were
    /// found. The first is the move that made the node: its result is the theory stored, while
    /// later derivations may reach it only up to renaming. A binary move's two edges (from the
    /// base, then from the frontier theory) follow each other and share one provenance.
    pub fn derivations(&self, i: NodeIndex) -> Vec<EdgeReference<'_, Arc<Provenance>>> {
        let mut edges: Vec<_> = self
            .graph
            .edges_directed(i, Direction::Incoming)
            .filter(|e| e.source() != i)
            .collect();
        edges.sort_by_key(|e| e.id());
        edges
    }

    /// How many theories were first reached at `depth` (the new theories of that round).
    pub fn count_at_depth(&self, depth: usize) -> usize {
        self.graph
            .node_weights()
            .filter(|n| n.depth == depth)
            .count()
    }

    /// Records a prover-established equivalence between two nodes.
    pub fn mark_equivalent(&mut self, a: NodeIndex, b: NodeIndex, evidence: String) {
        self.equivalences.push(Equivalence {
            nodes: (a.index(), b.index()),
            evidence,
        });
    }

    /// The graph in Graphviz DOT.
    pub fn to_dot(&self) -> String {
        let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = String::from("digraph derivations {\n  rankdir=LR;\n");
        for i in self.graph.node_indices() {
            out.push_str(&format!(
                "  n{} [label=\"{}\"];\n",
                i.index(),
                esc(&self.graph[i].theory.name)
            ));
        }
        for e in self.graph.edge_indices() {
            let (a, b) = self.graph.edge_endpoints(e).expect("edge exists");
            let p = &self.graph[e];
            out.push_str(&format!(
                "  n{} -> n{} [label=\"{}\", tooltip=\"{}\"];\n",
                a.index(),
                b.index(),
                p.mv,
                esc(p.description())
            ));
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
        let edges: Vec<_> = self
            .graph
            .edge_indices()
            .map(|e| {
                let (a, b) = self.graph.edge_endpoints(e).expect("edge exists");
                serde_json::json!({"from": a.index(), "to": b.index(), "provenance": self.graph[e]})
            })
            .collect();
        serde_json::json!({"nodes": nodes, "edges": edges, "equivalences": self.equivalences})
    }
}

/// Replaces `x` by the equal value in `pool`, or records it there.
fn shared<T: Eq + std::hash::Hash>(pool: &mut FxHashSet<Arc<T>>, x: &mut Arc<T>) {
    match pool.get(&**x) {
        Some(known) => *x = known.clone(),
        None => {
            pool.insert(x.clone());
        }
    }
}

/// Statistics of an exploration.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Move results generated (before deduplication).
    pub generated: usize,
    /// Distinct theories (nodes), bases included.
    pub distinct: usize,
    /// The caller stopped the exploration before it finished.
    pub stopped: bool,
}

/// What [`explore_with`] reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// A round starts: `parents` theories will have the moves applied.
    Round {
        /// The round (1 for moves on the bases).
        round: usize,
        /// Theories in this round's frontier.
        parents: usize,
    },
    /// The moves of one more parent of the current round are merged.
    ParentDone,
    /// A theory not seen before (up to renaming) became a node.
    New(NodeIndex),
}

/// Frontier theories whose moves are generated in parallel before one merge; it bounds how many
/// move results (most of them duplicates) are alive at once.
const CHUNK: usize = 16;

/// Explores from `bases` for `depth` rounds: every unary move on every theory of the frontier,
/// and TRANSFER / ABSTRACT's common part between each frontier theory and each base. Results are
/// deduplicated up to renaming; every derivation is an edge. A round's new theories are the nodes
/// of its depth ([`Graph::count_at_depth`]).
pub fn explore(bases: &[Theory], depth: usize) -> (Graph, Stats) {
    explore_with(bases, depth, |_, _| ControlFlow::Continue(()))
}

/// [`explore`], reporting every round, merged parent and new theory to `on_event` as it happens
/// (for progress bars and streamed output). Moves and canonical forms run in parallel on rayon;
/// merging is sequential and in frontier order, so the graph does not depend on the thread count.
/// When `on_event` breaks (Ctrl-C, say), the exploration stops after the parent being merged,
/// and the graph holds everything merged so far ([`Stats::stopped`]).
///
/// Each chunk of the frontier goes through three steps: its moves (`moves_of`, which need no
/// graph), looking their results up (`prepare`, in parallel, against the graph as the previous
/// chunk left it), and the merge (on the calling thread). The next chunk's moves run on the pool
/// while a chunk is merged.
pub fn explore_with(
    bases: &[Theory],
    depth: usize,
    mut on_event: impl FnMut(&Graph, Event) -> ControlFlow<()>,
) -> (Graph, Stats) {
    let mut g = Graph::default();
    let mut stats = Stats::default();
    let base_nodes: Vec<NodeIndex> = bases.iter().map(|b| g.add(b.clone(), 0).0).collect();
    // Each base is paired with every frontier theory: its axioms are encoded once.
    let base_axioms: Vec<AxiomSet> = bases.iter().map(AxiomSet::of).collect();
    // The bases' axioms carried into frontier theories, shared by the results holding them.
    let carried = CarriedAxioms::default();
    let bases = Bases {
        theories: bases,
        axioms: &base_axioms,
        nodes: &base_nodes,
        carried: &carried,
    };
    // The moves of `parents` (copies of frontier theories, so that the graph may grow meanwhile).
    let moves = |parents: Vec<Theory>| -> Vec<Moved> {
        parents.par_iter().map(|t| moves_of(t, &bases)).collect()
    };
    let mut frontier = base_nodes.clone();
    frontier.sort();
    frontier.dedup();
    'rounds: for round in 1..=depth {
        if on_event(
            &g,
            Event::Round {
                round,
                parents: frontier.len(),
            },
        )
        .is_break()
        {
            stats.stopped = true;
            break;
        }
        let mut next = Vec::new();
        let parents = |g: &Graph, chunk: Option<&[NodeIndex]>| {
            chunk
                .unwrap_or_default()
                .iter()
                .map(|&i| g.graph[i].theory.clone())
                .collect::<Vec<_>>()
        };
        let mut moved = moves(parents(&g, frontier.chunks(CHUNK).next()));
        let mut chunks = frontier.chunks(CHUNK).peekable();
        while let Some(chunk) = chunks.next() {
            let results: Vec<Vec<Result>> = std::mem::take(&mut moved)
                .into_par_iter()
                .map(|m| prepare(&g, m))
                .collect();
            let upcoming = parents(&g, chunks.peek().copied());
            let mut upcoming_moved = Vec::new();
            let stopped = rayon::in_place_scope(|s| {
                s.spawn(|_| upcoming_moved = moves(upcoming));
                merge(
                    &mut g,
                    chunk,
                    results,
                    round,
                    &mut stats,
                    &mut next,
                    &mut on_event,
                )
            });
            if stopped {
                stats.stopped = true;
                break 'rounds;
            }
            moved = upcoming_moved;
        }
        frontier = next;
    }
    stats.distinct = g.graph.node_count();
    (g, stats)
}

/// What the moves of every frontier theory pair it with: the bases, their encoded axioms, their
/// nodes, and the axioms carried from them so far.
struct Bases<'a> {
    theories: &'a [Theory],
    axioms: &'a [AxiomSet],
    nodes: &'a [NodeIndex],
    carried: &'a CarriedAxioms,
}

/// Merges a chunk's prepared results into the graph, parent by parent in frontier order,
/// collecting new nodes into `next`. Returns whether `on_event` asked to stop.
fn merge(
    g: &mut Graph,
    chunk: &[NodeIndex],
    results: Vec<Vec<Result>>,
    round: usize,
    stats: &mut Stats,
    next: &mut Vec<NodeIndex>,
    on_event: &mut impl FnMut(&Graph, Event) -> ControlFlow<()>,
) -> bool {
    // The node each result of the parent being merged went to.
    let mut went = Vec::new();
    for (&parent, rs) in chunk.iter().zip(results) {
        went.clear();
        let mut stopped = false;
        for r in rs {
            stats.generated += 1;
            let (child, new) = match r.found {
                Found::Node(known) => (known, false),
                Found::Sibling(j) => (went[j], false),
                Found::New(theory, form, literal) => g.add_with_form(theory, form, literal, round),
            };
            went.push(child);
            // Every parent gets an edge, including a move that gives back its own parent (up to
            // renaming), which is recorded as a loop.
            let provenance = r.provenance;
            if let Some(o) = r.other.filter(|o| *o != parent) {
                g.graph.add_edge(o, child, provenance.clone());
            }
            g.graph.add_edge(parent, child, provenance);
            if new {
                next.push(child);
                stopped |= on_event(g, Event::New(child)).is_break();
            }
        }
        if on_event(g, Event::ParentDone).is_break() || stopped {
            return true;
        }
    }
    false
}

/// A frontier theory's move results (unary, and binary with each base), made without looking
/// at the graph, each with the base of a binary move and its literal hash; and the theory's
/// encoded axioms, which its results share.
struct Moved {
    axioms: AxiomSet,
    results: Vec<(moves::Derived, Option<NodeIndex>, u64)>,
}

/// The moves of `t` ([`Moved`]).
fn moves_of(t: &Theory, bases: &Bases) -> Moved {
    let axioms = AxiomSet::of(t);
    let unary = moves::unary_moves(t);
    // Room for the unary results and about as many binary ones, so that the vector of results
    // (moved whole on each growth) rarely grows.
    let mut results = Vec::with_capacity(2 * unary.len());
    let unary = unary.into_iter().map(|d| (d, None));
    let pairs = bases.theories.iter().zip(bases.axioms).zip(bases.nodes);
    let binary = pairs.flat_map(|((b, b_axioms), bi)| {
        moves::binary_moves_of(&Pair::new(b, b_axioms, t, &axioms).reusing(bases.carried))
            .into_iter()
            .map(|d| (d, Some(*bi)))
    });
    for (d, other) in unary.chain(binary) {
        let literal = literal_hash(&d.theory, Some(&axioms));
        results.push((d, other, literal));
    }
    Moved { axioms, results }
}

/// A parent's move results, each looked up in the graph as it stood when the chunk started, and
/// among the parent's earlier results. A duplicate is dropped here, in the thread that found it,
/// and only where it went is sent to the merge.
fn prepare(g: &Graph, m: Moved) -> Vec<Result> {
    let t_axioms = &m.axioms;
    let mut out: Vec<Result> = Vec::with_capacity(m.results.len());
    for (d, other, literal) in m.results {
        // Most duplicates are found literally, without a canonical form.
        let earlier = |same: &dyn Fn(&Theory, &Option<PackedForm>, u64) -> bool| {
            out.iter()
                .position(|r| matches!(&r.found, Found::New(e, f, l) if same(e, f, *l)))
        };
        let found = if let Some(known) = g.literally(&d.theory, literal) {
            Found::Node(known)
        } else if let Some(j) = earlier(&|e, _, l| l == literal && literally_equal(&d.theory, e)) {
            Found::Sibling(j)
        } else {
            // The form is packed only when the graph does not have it (it is likely new).
            match with_canonical_tokens(&d.theory, Some(t_axioms), |f| {
                g.index.get(f).ok_or_else(|| f.packed())
            }) {
                Ok(Ok(known)) => Found::Node(known),
                form => {
                    let form = form.ok().and_then(std::result::Result::err);
                    match earlier(&|_, f, _| form.is_some() && *f == form) {
                        Some(j) => Found::Sibling(j),
                        None => {
                            let mut theory = d.theory;
                            g.reuse_interned(&mut theory);
                            Found::New(theory, form, literal)
                        }
                    }
                }
            }
        };
        out.push(Result {
            found,
            provenance: Arc::new(d.provenance),
            other,
        });
    }
    out
}

/// One move result, prepared in the parallel part.
struct Result {
    found: Found,
    /// Made here rather than in the merge, which is sequential.
    provenance: Arc<Provenance>,
    /// The base theory of a binary move.
    other: Option<NodeIndex>,
}

/// Where a move result goes, as far as the parallel part can tell.
enum Found {
    /// A node of the graph.
    Node(NodeIndex),
    /// Where an earlier result of the same parent goes (its index among the parent's results):
    /// the two are equal.
    Sibling(usize),
    /// A theory the graph did not have when the chunk started, with its canonical form (`None`
    /// when it is too symmetric to canonize) and literal hash.
    New(Theory, Option<PackedForm>, u64),
}
