//! The rediscovery benchmark: hide some catalogue entries ([`crate::tools::Toolbox::hide`]), run
//! the agent, and count how many of them the run finds again, as the theory-formation literature
//! (HR and its successors) measures discovery quality. An entry is
//! - *reached* when a theory some exploration generated is shown the same class, with proofs
//!   ([`birkhoff_scorer::identify::standing`], the verdict `equiv` gives);
//! - *kept* when a discovery in the library is the same class;
//! - *in the top 20* when one of the 20 best-scored discoveries is.
//!
//! [`Watch`] is the observer that collects what the explorations generated; [`tally`] compares
//! it and the library's discoveries with the hidden entries.

use crate::observe::Observer;
use crate::report::CycleReport;
use crate::situation::Candidate;
use birkhoff_engine::Theory;
use birkhoff_library::record::Body;
use birkhoff_library::Library;
use birkhoff_scorer::identify::{standing, Known, Reference, Standing};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;

/// How many of the best-scored discoveries count as "ranked in the top".
pub const TOP: usize = 20;

/// An observer that passes everything on to `inner` and keeps every theory the explorations
/// generated (once per canonical fingerprint, with the first cycle that generated it).
pub struct Watch<'a> {
    inner: &'a dyn Observer,
    seen: Mutex<(HashSet<String>, Vec<Generated>)>,
}

/// A theory an exploration generated.
struct Generated {
    cycle: u64,
    name: String,
    theory: Theory,
}

impl<'a> Watch<'a> {
    /// Watches a run whose live output goes to `inner`.
    pub fn new(inner: &'a dyn Observer) -> Watch<'a> {
        Watch {
            inner,
            seen: Mutex::new((HashSet::new(), Vec::new())),
        }
    }
}

impl Observer for Watch<'_> {
    fn line(&self, text: &str, event: Value) {
        self.inner.line(text, event);
    }
    fn wait_start(&self, what: &str) {
        self.inner.wait_start(what);
    }
    fn wait_end(&self) {
        self.inner.wait_end();
    }
    fn summary(&self, r: &CycleReport, number: u64, markdown: &Path) {
        self.inner.summary(r, number, markdown);
    }
    fn generated(&self, cycle: u64, candidates: &[Candidate]) {
        let mut seen = self
            .seen
            .lock()
            .expect("no thread panics holding the watch");
        let (fingerprints, all) = &mut *seen;
        for c in candidates {
            if fingerprints.insert(c.theory.fingerprint().to_string()) {
                all.push(Generated {
                    cycle,
                    name: c.name.clone(),
                    theory: c.theory.clone(),
                });
            }
        }
    }
}

/// Where a hidden entry was found again.
#[derive(Clone, Debug, Serialize)]
pub struct Sighting {
    /// The theory's name (a candidate's in its cycle, or the discovery's).
    pub name: String,
    /// The report number of the cycle that generated it, for a generated theory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<u64>,
    /// How the equivalence was shown.
    pub relation: String,
}

/// What the run did with one hidden entry.
#[derive(Clone, Debug, Serialize)]
pub struct EntryOutcome {
    /// The catalogue entry.
    pub entry: String,
    /// The first generated theory shown to be the same class.
    pub reached: Option<Sighting>,
    /// A discovery shown to be the same class.
    pub kept: Option<Sighting>,
    /// Its rank among the discoveries by score (1 = best), when one is the same class.
    pub rank: Option<usize>,
}

/// The benchmark's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Tally {
    /// One outcome per hidden entry, in the order given.
    pub entries: Vec<EntryOutcome>,
    /// How many theories the explorations generated (distinct up to renaming).
    pub generated: usize,
    /// How many discoveries the library holds.
    pub discoveries: usize,
    /// Entries reached.
    pub reached: usize,
    /// Entries kept as a discovery.
    pub kept: usize,
    /// Entries kept and ranked in the [`TOP`] discoveries.
    pub top: usize,
}

/// Which hidden entry `t` is the same class as, if any, and how that was shown ([`standing`],
/// as the cycles identify candidates); `unknown` and `new` count as not found.
fn same_class_as(
    t: &Theory,
    hidden: &Reference,
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Option<(String, String)> {
    // Most generated theories are told apart from every hidden entry by their small counts,
    // and then neither the rest of the budget rule (counts to size 6) nor a proof is tried.
    let side = hidden.side_of(t).ok()?;
    let opts = crate::controller::identification_options(cancel);
    match standing(&side, hidden, &opts).ok()? {
        Standing::Known { name, relation, .. } => Some((name, relation.describe())),
        _ => None,
    }
}

/// Compares what `watch` saw generated and the discoveries in `lib` with the `hidden` catalogue
/// entries. Fails only when an entry's theory does not load (a build without the catalogue).
pub fn tally(
    watch: &Watch,
    lib: &Library,
    hidden: &[String],
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<Tally, String> {
    let entries = birkhoff_engine::catalogue::all();
    let known: Vec<Known> = hidden
        .iter()
        .map(|n| {
            let e = entries
                .iter()
                .find(|e| e.name == n)
                .ok_or_else(|| format!("{n} is not a catalogue entry"))?;
            let theory = e.theory().map_err(|err| format!("{n}: {err}"))?;
            Ok(Known {
                name: n.clone(),
                kind: "catalogue",
                theory,
            })
        })
        .collect::<Result<_, String>>()?;
    // One reference for both (its entries' models and counts are computed once), the
    // discoveries first: the generated theories' pass drops entries from it.
    let mut reference = Reference::new(known, cancel.clone()).for_novelty();

    // The library's discoveries, best score first.
    let mut discoveries: Vec<(f64, String, Theory)> = lib
        .load_all()
        .map_err(|e| e.to_string())?
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Theory(t) if t.discovery => Theory::parse(&t.text, &r.id)
                .ok()
                .map(|th| (t.score.map_or(0.0, |s| s.total), t.name, th)),
            _ => None,
        })
        .collect();
    discoveries.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let kept: Vec<Option<(String, String)>> = discoveries
        .par_iter()
        .map(|(_, _, t)| same_class_as(t, &reference, cancel.clone()))
        .collect();

    let seen = watch
        .seen
        .lock()
        .expect("no thread panics holding the watch");
    let generated = &seen.1;
    // Then cycle by cycle (the watch holds them in the order generated), each entry compared only
    // until a theory reaches it: a later one could only reach it in a later cycle, and the
    // proof attempts on theories with its spectrum are the tally's cost.
    let mut reached: Vec<Option<(String, String)>> = vec![None; generated.len()];
    let mut start = 0;
    while start < generated.len() && !reference.known().is_empty() {
        let cycle = generated[start].cycle;
        let end = start
            + generated[start..]
                .iter()
                .take_while(|g| g.cycle == cycle)
                .count();
        let found: Vec<Option<(String, String)>> = generated[start..end]
            .par_iter()
            .map(|g| same_class_as(&g.theory, &reference, cancel.clone()))
            .collect();
        let names: HashSet<&String> = found.iter().flatten().map(|(n, _)| n).collect();
        reference.retain(|k| !names.contains(&k.name));
        reached[start..end].clone_from_slice(&found);
        start = end;
    }

    let outcomes: Vec<EntryOutcome> = hidden
        .iter()
        .map(|h| {
            let first_generated = generated
                .iter()
                .zip(&reached)
                .filter_map(|(g, r)| r.as_ref().filter(|(n, _)| n == h).map(|(_, how)| (g, how)))
                .min_by_key(|(g, _)| g.cycle);
            let first_kept =
                discoveries
                    .iter()
                    .zip(&kept)
                    .enumerate()
                    .find_map(|(i, ((_, name, _), r))| {
                        r.as_ref()
                            .filter(|(n, _)| n == h)
                            .map(|(_, how)| (i + 1, name, how))
                    });
            EntryOutcome {
                entry: h.clone(),
                reached: first_generated.map(|(g, how)| Sighting {
                    name: g.name.clone(),
                    cycle: Some(g.cycle),
                    relation: how.clone(),
                }),
                kept: first_kept.map(|(_, name, how)| Sighting {
                    name: name.clone(),
                    cycle: None,
                    relation: how.clone(),
                }),
                rank: first_kept.map(|(rank, _, _)| rank),
            }
        })
        .collect();
    Ok(Tally {
        generated: generated.len(),
        discoveries: discoveries.len(),
        reached: outcomes.iter().filter(|o| o.reached.is_some()).count(),
        kept: outcomes.iter().filter(|o| o.kept.is_some()).count(),
        top: outcomes
            .iter()
            .filter(|o| o.rank.is_some_and(|r| r <= TOP))
            .count(),
        entries: outcomes,
    })
}
