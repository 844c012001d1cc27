//! The derivation graph deduplicates up to renaming and keeps every parent.

use birkhoff_engine::canon::equal_up_to_renaming;
use birkhoff_engine::derivation::explore;
use birkhoff_engine::seeds;

#[test]
fn semigroup_depth_two_reaches_group_with_every_parent_kept() {
    let (g, stats) = explore(&[seeds::load("semigroup").unwrap()], 2);
    assert!(stats.generated > stats.distinct, "some results coincide");
    let group = g.find(&seeds::load("group").unwrap()).expect("Group reached at depth 2");
    assert_eq!(g.graph[group].depth, 2);
    let monoid = g.find(&seeds::load("monoid").unwrap()).expect("Monoid reached");
    assert!(g.graph.find_edge(monoid, group).is_some());
    // Commutative semigroups arise from both COMPLETE and QUOTIENT: two edges, one node.
    let cs = g.find(&seeds::load("comm_semigroup").unwrap()).unwrap();
    let parents = g.graph.edges_directed(cs, petgraph::Direction::Incoming).count();
    assert!(parents >= 2, "{parents}");
    // no two nodes are equal up to renaming
    let nodes: Vec<_> = g.graph.node_indices().collect();
    for (k, &a) in nodes.iter().enumerate().take(40) {
        for &b in &nodes[k + 1..] {
            assert!(!equal_up_to_renaming(&g.graph[a].theory, &g.graph[b].theory).unwrap());
        }
    }
    assert!(g.to_dot().contains("->"));
    assert_eq!(g.to_json()["nodes"].as_array().unwrap().len(), stats.distinct);
}
