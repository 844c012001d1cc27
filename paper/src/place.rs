//! Where a discovery sits among known classes (issue 51): [`place_discovery`] compares it with
//! every catalogue entry and every other discovery over the same symbols, both ways, and through
//! its reducts with those over other symbols (its `*` read as a semigroup's, say), and stores
//! what the prover showed, with its evidence, as the discovery's placement record
//! ([`birkhoff_library::placement`]). The paper and the web site draw the Hasse diagram from
//! that record, and `backtest` checks it again.

use crate::gather::find_theory;
use crate::structure::Study;
use crate::Result;
use birkhoff_checker::prover::placement::{implies, same_signature, Direction};
use birkhoff_engine::fingerprint::canonical_axiom;
use birkhoff_engine::moves::transfer::maps;
use birkhoff_engine::Theory;
use birkhoff_library::placement::{
    strongest, AxiomProofRec, BetweenRec, InclusionRec, NeighbourRec, PlacementRec, ReductRec,
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
/// of its axioms first, and each catalogue entry and other discovery over other symbols through
/// its reducts (and, between two reducts worth stating, which gives the other), at most
/// `study.placement_classes` of each kind within `study.placement_time`, each axiom within
/// `study.per_axiom`, and stores the placement record (replacing an earlier one). `None` when no
/// class has its symbols and none has a reduct to compare.
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
    // Each catalogue entry not hidden and each other discovery, parsed once: a neighbour when it
    // has the theory's symbols, a reduct candidate otherwise.
    let catalogue: Vec<(String, Theory, String)> = birkhoff_engine::catalogue::all()
        .into_iter()
        .filter(|e| !study.hidden.iter().any(|h| h == e.name))
        .filter_map(|e| Some((e.name.to_string(), e.theory().ok()?, e.source.to_string())))
        .collect();
    let discoveries: Vec<(String, Theory, String)> = discoveries
        .into_iter()
        .filter_map(|(name, text)| Some((name.clone(), Theory::parse(&text, &name).ok()?, text)))
        .collect();
    let classes: Vec<(String, Theory, String)> = catalogue.into_iter().chain(discoveries).collect();
    let mut reducts = reduct_candidates(&theory, &classes);
    let mut others: Vec<(String, Theory, String)> = classes
        .into_iter()
        .filter(|(_, t, _)| same_signature(&theory.sig, &t.sig) && t.fingerprint() != fingerprint)
        .collect();
    others.dedup_by(|a, b| a.0 == b.0);
    // Likeliest neighbours and reducts first, so that a short placement (the agent's) still
    // compares them: most axioms shared with the theory, then fewest not shared (its parent, with
    // one law fewer, comes first).
    let own = axioms(&theory);
    others.sort_by_cached_key(|(_, other, _)| likeness(&own, other));
    reducts.sort_by_cached_key(|c| likeness(&own, &c.carried));
    if others.is_empty() && reducts.is_empty() {
        return Ok(None);
    }
    let opts = birkhoff_checker::prover::Options {
        timeout: study.per_axiom,
        cancel: study.cancel.clone(),
        ..birkhoff_checker::prover::Options::default()
    };
    // The classes with its symbols until three fifths of the time (seventeen twentieths when it
    // has no reducts to compare), its reducts until four fifths, the order between the reducts
    // worth stating until 88 %, the order between neighbours in the rest.
    let start = Instant::now();
    let share = |percent: u32| start + study.placement_time * percent / 100;
    let past = |until: Instant| {
        Instant::now() >= until
            || study
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    let neighbours_until = share(if reducts.is_empty() { 85 } else { 60 });
    let (reducts_until, reducts_between_until, deadline) = (share(80), share(88), share(100));
    let mut compared: Vec<(NeighbourRec, &Theory)> = Vec::new();
    for (name, other, text) in others.iter().take(study.placement_classes) {
        if past(neighbours_until) {
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
    let mut reducts_compared = Vec::new();
    let mut carried_compared = Vec::new();
    for ReductCandidate { record, carried } in reducts.into_iter().take(study.placement_classes) {
        if past(reducts_until) {
            break;
        }
        let implies_it = implies(&theory, &carried, &opts)?;
        reducts_compared.push(ReductRec {
            implies: InclusionRec::of(&implies_it, &theory),
            ..record
        });
        carried_compared.push(carried);
    }
    // Between two reducts worth stating (none gives the other by its axioms or the
    // catalogue), whether one's class lies inside the other's, so that only the stronger is
    // stated: rings with x³ = x, not also alternative rings.
    let stated = strongest(&reducts_compared, &[], &theory);
    let mut reducts_between = Vec::new();
    for &i in &stated {
        for &j in &stated {
            if i == j || past(reducts_between_until) {
                continue;
            }
            if let Direction::Proved(proofs) =
                implies(&carried_compared[i], &carried_compared[j], &opts)?
            {
                reducts_between.push(BetweenRec {
                    lower: i,
                    upper: j,
                    proofs: AxiomProofRec::all(&proofs),
                });
            }
        }
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
            if i == j || a.0.above() != b.0.above() || past(deadline) {
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
        reducts: reducts_compared,
        reducts_between,
    };
    lib.put(Body::Placement(placement.clone()))?;
    Ok(Some(placement))
}

/// A theory's axioms up to variable names and orientation.
fn axioms(t: &Theory) -> HashSet<String> {
    t.axioms.iter().map(|a| canonical_axiom(t, a)).collect()
}

/// How alike `other` looks to a theory with the axioms `own`, as a sort key: most axioms shared
/// first, then fewest not shared.
fn likeness(own: &HashSet<String>, other: &Theory) -> (std::cmp::Reverse<usize>, usize) {
    let theirs = axioms(other);
    let shared = theirs.intersection(own).count();
    (std::cmp::Reverse(shared), theirs.len() - shared)
}

/// At most this many maps of one class's symbols into the theory's are tried.
const MAPS_PER_CLASS: usize = 4;

/// A class (of the catalogue or a discovery) over other symbols, read in the theory along one map
/// of its symbols.
struct ReductCandidate {
    /// The class's name, text and map; `implies` is set once compared.
    record: ReductRec,
    /// Its axioms carried along the map, over the theory's symbols.
    carried: Theory,
}

/// Every class of `classes` (name, theory, text) over symbols other than `theory`'s that has an
/// axiom and maps into `theory`'s symbols, along each such map (up to [`MAPS_PER_CLASS`]).
fn reduct_candidates(
    theory: &Theory,
    classes: &[(String, Theory, String)],
) -> Vec<ReductCandidate> {
    let mut out = Vec::new();
    for (name, class, text) in classes {
        if class.axioms.is_empty() || same_signature(&theory.sig, &class.sig) {
            continue;
        }
        for map in maps(class, theory, MAPS_PER_CLASS) {
            let record = ReductRec {
                name: name.clone(),
                text: text.clone(),
                map,
                implies: InclusionRec::Unknown,
            };
            if let Ok(carried) = record.carried_from(class, theory) {
                out.push(ReductCandidate { record, carried });
            }
        }
    }
    out
}
