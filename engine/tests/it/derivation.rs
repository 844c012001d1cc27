//! The derivation graph deduplicates up to renaming and keeps every parent.

use birkhoff_engine::canon::equal_up_to_renaming;
use birkhoff_engine::derivation::explore;
use birkhoff_engine::seeds;

#[test]
fn semigroup_depth_two_reaches_group_with_every_parent_kept() {
    let (g, stats) = explore(&[seeds::load("semigroup").unwrap()], 2);
    assert!(stats.generated > stats.distinct, "some results coincide");
    let group = g
        .find(&seeds::load("group").unwrap())
        .expect("Group reached at depth 2");
    assert_eq!(g.graph[group].depth, 2);
    let monoid = g
        .find(&seeds::load("monoid").unwrap())
        .expect("Monoid reached");
    assert!(g.graph.find_edge(monoid, group).is_some());
    // Commutative semigroups arise from both COMPLETE and QUOTIENT: two edges, one node.
    let cs = g.find(&seeds::load("comm_semigroup").unwrap()).unwrap();
    let parents = g
        .graph
        .edges_directed(cs, petgraph::Direction::Incoming)
        .count();
    assert!(parents >= 2, "{parents}");
    // no two nodes are equal up to renaming
    let nodes: Vec<_> = g.graph.node_indices().collect();
    for (k, &a) in nodes.iter().enumerate().take(40) {
        for &b in &nodes[k + 1..] {
            assert!(!equal_up_to_renaming(&g.graph[a].theory, &g.graph[b].theory).unwrap());
        }
    }
    assert!(g.to_dot().contains("->"));
    assert_eq!(
        g.to_json()["nodes"].as_array().unwrap().len(),
        stats.distinct
    );
}

#[test]
fn every_result_lands_on_the_node_of_its_canonical_form() {
    // A reference exploration by canonical forms alone: the graph (which finds most duplicates
    // literally, without a form) must have the same nodes, and its edges must be exactly one from
    // each parent (and from the base, for a binary move) to the node of each result's form.
    use birkhoff_engine::canon::canonical_form;
    use birkhoff_engine::moves;
    use petgraph::visit::EdgeRef;
    use std::collections::HashMap;
    let bases: Vec<_> = ["semigroup", "quandle", "lattice"]
        .iter()
        .map(|s| seeds::load(s).unwrap())
        .collect();
    let (g, stats) = explore(&bases, 2);
    let form_of: HashMap<_, _> = g
        .graph
        .node_indices()
        .map(|n| (canonical_form(&g.graph[n].theory).unwrap(), n))
        .collect();
    assert_eq!(
        form_of.len(),
        g.graph.node_count(),
        "two nodes share a form"
    );
    let base_nodes: Vec<_> = bases.iter().map(|b| g.find(b).unwrap()).collect();
    let mut expected = Vec::new();
    for parent in g.graph.node_indices().filter(|&n| g.graph[n].depth < 2) {
        let t = &g.graph[parent].theory;
        for d in moves::unary_moves(t) {
            expected.push((parent, form_of[&canonical_form(&d.theory).unwrap()]));
        }
        for (b, &bn) in bases.iter().zip(&base_nodes) {
            for d in moves::binary_moves(b, t) {
                let child = form_of[&canonical_form(&d.theory).unwrap()];
                expected.push((parent, child));
                if bn != parent {
                    expected.push((bn, child));
                }
            }
        }
    }
    let mut found: Vec<_> = g
        .graph
        .edge_references()
        .map(|e| (e.source(), e.target()))
        .collect();
    found.sort();
    expected.sort();
    assert_eq!(found, expected);
    assert!(stats.generated < expected.len());
}

/// An exploration stopped by its caller ends after the parent being merged: the graph holds
/// that parent's results and everything merged before, and is a prefix of the full exploration
/// (the same nodes, in the same order, as far as it goes).
#[test]
fn a_stopped_exploration_keeps_what_was_merged() {
    use birkhoff_engine::derivation::{explore_with, Event};
    use std::ops::ControlFlow;
    let bases: Vec<_> = ["semigroup", "group", "lattice"]
        .iter()
        .map(|n| seeds::load(n).unwrap())
        .collect();
    let (full, _) = explore(&bases, 2);
    let (mut new, mut parents_done, mut new_at_stop) = (0, 0, 0);
    let (g, stats) = explore_with(&bases, 2, |_, e| {
        match e {
            Event::New(_) => new += 1,
            Event::ParentDone => parents_done += 1,
            Event::Round { .. } => {}
        }
        // Stop at the 400th new theory: the rest of its parent's results are still merged.
        if new == 400 && new_at_stop == 0 {
            new_at_stop = new;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    assert!(stats.stopped && new_at_stop == 400);
    assert_eq!(g.graph.node_count(), bases.len() + new);
    assert!(
        new >= 400 && g.graph.node_count() < full.graph.node_count(),
        "{new} new of {}",
        full.graph.node_count()
    );
    assert_eq!(stats.distinct, g.graph.node_count());
    for i in g.graph.node_indices() {
        assert_eq!(g.graph[i].theory.to_text(), full.graph[i].theory.to_text());
    }
    assert!(parents_done > 0);
}

/// A theory too symmetric to canonize (nine constants nothing tells apart) is still a node,
/// deduplicated and found when it comes again literally; a renamed copy cannot be recognised
/// without a canonical form, and is not claimed to be.
#[test]
fn a_theory_too_symmetric_to_canonize_is_found_literally() {
    use birkhoff_engine::derivation::Graph;
    use birkhoff_engine::Theory;
    let text = |prefix: &str| {
        let constants: String = (0..9).map(|i| format!("const {prefix}{i}\n")).collect();
        format!("theory Nine\nfunc * : 2\n{constants}axiom comm: x * y = y * x")
    };
    let t = Theory::parse(&text("a"), "nine.bk").unwrap();
    assert!(birkhoff_engine::canon::canonical_form(&t).is_err());
    let mut g = Graph::default();
    let (node, new) = g.add(t.clone(), 0);
    assert!(new && g.uncanonized == 1);
    assert_eq!(g.add(t.clone(), 0), (node, false));
    assert_eq!(g.find(&t), Some(node));
    let renamed = Theory::parse(&text("b"), "nine.bk").unwrap();
    assert_eq!(g.find(&renamed), None);
}
