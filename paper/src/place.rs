//! Where a discovery sits among known classes (issue 51): [`place_discovery`] compares it with
//! every catalogue entry and every other discovery over the same symbols, both ways, and stores
//! what the prover showed, with its evidence, as the discovery's placement record
//! ([`birkhoff_library::placement`]). The paper and the web site draw the Hasse diagram from
//! that record, and `backtest` checks it again.

use crate::gather::find_theory;
use crate::structure::Study;
use crate::Result;
use birkhoff_checker::prover::placement::{implies, same_signature, Direction};
use birkhoff_engine::fingerprint::canonical_axiom;
use birkhoff_engine::Theory;
use birkhoff_library::placement::{
    AxiomProofRec, BetweenRec, InclusionRec, NeighbourRec, PlacementRec,
};
use birkhoff_library::record::Body;
use birkhoff_library::Library;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Most neighbours strictly comparable with the discovery whose inclusions among themselves are
/// asked (the first compared): the diagram's other nodes.
const PLACEMENT_DRAWN: usize = 8;

/// Compares `discovery` (a record ID, a name or an alias) with every catalogue entry (but those
/// of `study.hidden`) and every other discovery in `lib` that has its symbols, those sharing most
/// of its axioms first, within `study.placement_time`, each axiom within `study.per_axiom`, and
/// stores the placement record (replacing an earlier one). `None` when no class has its symbols.
pub fn place_discovery(
    lib: &mut Library,
    discovery: &str,
    study: &Study,
) -> Result<Option<PlacementRec>> {
    let (id, record, theory) = find_theory(lib, discovery)?;
    let fingerprint = theory.fingerprint();
    let discoveries: Vec<(String, String)> = lib
        .list("theory")?
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Theory(t) if t.discovery && r.id != id => Some((t.name, t.text)),
            _ => None,
        })
        .collect();
    let mut others: Vec<(String, Theory, String)> = birkhoff_engine::catalogue::all()
        .into_iter()
        .filter(|e| !study.hidden.iter().any(|h| h == e.name))
        .filter_map(|e| Some((e.name.to_string(), e.theory().ok()?, e.source.to_string())))
        .chain(discoveries.into_iter().filter_map(|(name, text)| {
            Some((name.clone(), Theory::parse(&text, &name).ok()?, text))
        }))
        .filter(|(_, t, _)| same_signature(&theory.sig, &t.sig) && t.fingerprint() != fingerprint)
        .collect();
    others.dedup_by(|a, b| a.0 == b.0);
    if others.is_empty() {
        return Ok(None);
    }
    // Likeliest neighbours first, so that a short placement time (the agent's) still compares
    // them: most axioms shared with the theory, then fewest not shared (its parent, with one
    // law fewer, comes first).
    let axioms = |t: &Theory| -> HashSet<String> {
        t.axioms.iter().map(|a| canonical_axiom(t, a)).collect()
    };
    let own = axioms(&theory);
    others.sort_by_cached_key(|(_, other, _)| {
        let theirs = axioms(other);
        let shared = theirs.intersection(&own).count();
        (std::cmp::Reverse(shared), theirs.len() - shared)
    });
    let opts = birkhoff_checker::prover::Options {
        timeout: study.per_axiom,
        cancel: study.cancel.clone(),
        ..birkhoff_checker::prover::Options::default()
    };
    let deadline = Instant::now() + study.placement_time;
    let stopped = || {
        Instant::now() >= deadline
            || study
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    let mut compared: Vec<(NeighbourRec, &Theory)> = Vec::new();
    for (name, other, text) in &others {
        if stopped() {
            break;
        }
        let implies_it = implies(&theory, other, &opts)?;
        let implied_by = implies(other, &theory, &opts)?;
        compared.push((
            NeighbourRec {
                name: name.clone(),
                text: text.clone(),
                implies: InclusionRec::of(&implies_it, &theory),
                implied_by: InclusionRec::of(&implied_by, other),
            },
            other,
        ));
    }
    // Between two neighbours on the same side, the order is asked of the prover where it could
    // give a cover (through the theory it is known already).
    let drawn: Vec<usize> = (0..compared.len())
        .filter(|&k| compared[k].0.above() || compared[k].0.below())
        .take(PLACEMENT_DRAWN)
        .collect();
    let mut between = Vec::new();
    for &i in &drawn {
        for &j in &drawn {
            let (a, b) = (&compared[i], &compared[j]);
            if i == j || a.0.above() != b.0.above() || stopped() {
                continue;
            }
            if let Direction::Proved(proofs) = implies(a.1, b.1, &opts)? {
                between.push(BetweenRec {
                    lower: i,
                    upper: j,
                    proofs: AxiomProofRec::all(&proofs),
                });
            }
        }
    }
    let placement = PlacementRec {
        theory_id: id,
        theory_name: record.name,
        not_reached: others.len() - compared.len(),
        neighbours: compared.into_iter().map(|(n, _)| n).collect(),
        between,
    };
    lib.put(Body::Placement(placement.clone()))?;
    Ok(Some(placement))
}
