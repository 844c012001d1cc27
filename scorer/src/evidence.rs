//! What a score is computed from, and the one way to gather it: the spectrum and
//! representatives from the counting router's `auto` engine (`birkhoff_checker::router`: the
//! native finder and SAT race under a time limit; the native finder alone under a node budget), countermodels for independence, conjecture counts from
//! the conjecture engine (`birkhoff_checker::prover::conjecture`) run on those representatives.
//! `score`, `explore` and the agent all gather through [`gather`] with a named [`Policy`], so one
//! theory under one policy gets one score.

use crate::independence::{self, AxiomIndependence};
use crate::spectrum::KnownSpectrum;
use birkhoff_checker::prover::conjecture::{
    conjecture_with_models, ModelCheck, Options as ConjectureOptions, Report,
};
use birkhoff_checker::{
    finder::{FinderError, IsoClass},
    router::{self, Engine},
    Budget, Status,
};
use birkhoff_checker::{size_tuples, SpectrumRow};
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How many conjectures the conjecture engine proved, left open and refuted for a theory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConjectureSummary {
    /// Proved with a checked certificate (or by Z3).
    pub proved: u32,
    /// True in every model checked, not proved.
    pub open: u32,
    /// Refuted by a countermodel.
    pub refuted: u32,
}

impl ConjectureSummary {
    /// The counts of a conjecture report: proofs by certificate and by Z3 both count as proved;
    /// conjectures not tried count nowhere.
    pub fn of(report: &Report) -> ConjectureSummary {
        let n = report.counts;
        let count = |k: usize| u32::try_from(k).unwrap_or(u32::MAX);
        ConjectureSummary {
            proved: count(n.proved + n.proved_by_z3),
            open: count(n.open),
            refuted: count(n.refuted),
        }
    }

    /// Conjecture yield: `1 − exp(−(proved + open/2)/3)`. Each non-trivial theorem is a reason to
    /// study the theory; an open conjecture counts half, being only evidence. Refuted guesses
    /// count nothing.
    pub fn yield_score(self) -> f64 {
        1.0 - (-(f64::from(self.proved) + 0.5 * f64::from(self.open)) / 3.0).exp()
    }
}

/// Everything a score reads, borrowed. Fields that were not measured are `None` (or empty), and
/// the dimensions that need them are then reported as not measured.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    /// The candidate.
    pub theory: &'a Theory,
    /// Its iso-class spectrum.
    pub spectrum: Option<&'a [SpectrumRow]>,
    /// Representatives of its iso classes (at the sizes where they were kept).
    pub classes: Option<&'a [IsoClass]>,
    /// Countermodel results for each axiom.
    pub independence: Option<&'a [AxiomIndependence]>,
    /// Conjecture counts.
    pub conjectures: Option<ConjectureSummary>,
    /// The parents' spectra, for novelty.
    pub parents: &'a [Vec<SpectrumRow>],
    /// Known spectra (the ground truth, the library), for novelty and connections.
    pub known: &'a [KnownSpectrum],
    /// The known theory it was shown equivalent to (by [`crate::identify`]), if any: its
    /// novelty is then 0, whatever its spectrum.
    pub known_as: Option<&'a str>,
}

impl<'a> Evidence<'a> {
    /// Evidence from the axioms alone: the syntactic dimensions only.
    pub fn syntactic(theory: &'a Theory) -> Evidence<'a> {
        Evidence {
            theory,
            spectrum: None,
            classes: None,
            independence: None,
            conjectures: None,
            parents: &[],
            known: &[],
            known_as: None,
        }
    }
}

/// Evidence gathered by [`gather`], owned.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Gathered {
    /// The spectrum up to the size limit (see [`spectrum`] for which sizes).
    pub spectrum: Vec<SpectrumRow>,
    /// Representatives at the sizes up to `classes_up_to`.
    pub classes: Vec<IsoClass>,
    /// Independence of each axiom (`None` when the policy does not look for countermodels).
    pub independence: Option<Vec<AxiomIndependence>>,
    /// The conjecture engine's counts (see [`conjecture_options`]); `None` if it could not run.
    pub conjectures: Option<ConjectureSummary>,
}

impl Gathered {
    /// Borrows this as evidence for `theory`.
    pub fn evidence<'a>(
        &'a self,
        theory: &'a Theory,
        parents: &'a [Vec<SpectrumRow>],
        known: &'a [KnownSpectrum],
    ) -> Evidence<'a> {
        Evidence {
            theory,
            spectrum: Some(&self.spectrum),
            classes: Some(&self.classes),
            independence: self.independence.as_deref(),
            conjectures: self.conjectures,
            parents,
            known,
            known_as: None,
        }
    }
}

/// Largest model size the conjecture engine checks when scoring.
const CONJECTURE_SIZE: u32 = 4;

/// The conjecture engine's settings for scoring: terms of depth 2, a quarter second per
/// conjecture and at most ten conjectures, so that it adds at most a few seconds to a score.
pub fn conjecture_options(budget: &Budget) -> ConjectureOptions {
    ConjectureOptions {
        depth: 2,
        per_conjecture: Duration::from_millis(250),
        beyond: 1,
        max_conjectures: 10,
        max_terms: 20_000,
        cancel: budget.cancel.clone(),
        ..ConjectureOptions::default()
    }
}

/// What to gather for a score. The three commands that score use these named policies; the
/// spectrum rule ([`spectrum`]) is the same for all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Policy {
    /// Who uses it: `score`, `explore` or `agent`.
    pub name: &'static str,
    /// The spectrum is computed up to this size (of every sort).
    pub max_size: u32,
    /// Independence countermodels are looked for up to this size; 0 leaves independence out.
    pub independence_size: u32,
    /// Whether the conjecture engine runs on the small models.
    pub conjectures: bool,
}

impl Policy {
    /// `birkhoff score`: everything, the conjecture engine included.
    pub fn score(max_size: u32, independence_size: u32) -> Policy {
        Policy {
            name: "score",
            max_size,
            independence_size,
            conjectures: true,
        }
    }

    /// `birkhoff explore`, which checks every theory it reaches: the spectrum only.
    pub fn explore(max_size: u32) -> Policy {
        Policy {
            name: "explore",
            max_size,
            independence_size: 0,
            conjectures: false,
        }
    }

    /// The agent's `check_models` and `score` tools: the spectrum and independence up to size 3.
    pub fn agent(max_size: u32) -> Policy {
        Policy {
            name: "agent",
            max_size,
            independence_size: 3,
            conjectures: false,
        }
    }
}

/// The spectrum of `t` up to `max_size` per sort, each size tuple within `budget`, and the
/// representatives the budget's model limit allows. Size tuples come in order of total size; a
/// tuple at least as large in every sort as one whose count was cut short is not searched (its
/// count would be a lower bound found after a search that already ran out), so for one sort the
/// walk stops after the first size cut short.
pub fn spectrum(
    t: &Theory,
    max_size: u32,
    budget: &Budget,
) -> Result<(Vec<SpectrumRow>, Vec<IsoClass>), FinderError> {
    let mut classes = Vec::new();
    let rows = walk(t, max_size, budget, |sizes| {
        let mut e = router::enumerate(Engine::Auto, t, sizes, budget)?;
        classes.append(&mut e.classes);
        Ok(e)
    })?;
    Ok((rows, classes))
}

/// [`spectrum`]'s counts alone, without representatives (every class is still checked by the
/// evaluator): what triage computes for every candidate of a cycle.
pub fn counts(t: &Theory, max_size: u32, budget: &Budget) -> Result<Vec<SpectrumRow>, FinderError> {
    walk(t, max_size, budget, |sizes| {
        router::count(Engine::Auto, t, sizes, budget)
    })
}

/// The walk of [`spectrum`] over the size tuples, `count` enumerating one.
fn walk(
    t: &Theory,
    max_size: u32,
    budget: &Budget,
    mut count: impl FnMut(&[u32]) -> Result<birkhoff_checker::finder::Enumeration, FinderError>,
) -> Result<Vec<SpectrumRow>, FinderError> {
    let mut rows = Vec::new();
    let mut cut: Vec<Vec<u32>> = Vec::new();
    for sizes in size_tuples(t.sig.sorts.len(), max_size) {
        if cut
            .iter()
            .any(|c| c.iter().zip(&sizes).all(|(a, b)| b >= a))
        {
            continue;
        }
        let e = count(&sizes)?;
        if e.iso.status != Status::Exact {
            cut.push(sizes.clone());
        }
        rows.push(SpectrumRow::of(&e));
        if budget
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            break;
        }
    }
    Ok(rows)
}

/// Gathers what `policy` asks for: the [`spectrum`], then independence countermodels up to
/// `policy.independence_size`, then (if asked) the conjecture engine on the representatives of
/// sizes up to `CONJECTURE_SIZE` with [`conjecture_options`].
pub fn gather(t: &Theory, policy: &Policy, budget: &Budget) -> Result<Gathered, FinderError> {
    let (spectrum, classes) = spectrum(t, policy.max_size, budget)?;
    let independence = if policy.independence_size > 0 {
        Some(independence::check(t, policy.independence_size, budget)?)
    } else {
        None
    };
    let conjectures = if policy.conjectures {
        conjectures(t, &spectrum, &classes, policy.max_size, budget)?
    } else {
        None
    };
    Ok(Gathered {
        spectrum,
        classes,
        independence,
        conjectures,
    })
}

/// The conjecture engine's counts on the representatives of the sizes up to `CONJECTURE_SIZE`;
/// `None` when it was interrupted or cannot evaluate its terms (not measured).
fn conjectures(
    t: &Theory,
    rows: &[SpectrumRow],
    classes: &[IsoClass],
    max_size: u32,
    budget: &Budget,
) -> Result<Option<ConjectureSummary>, FinderError> {
    let small = |sizes: &[u32]| sizes.iter().all(|&n| n <= CONJECTURE_SIZE);
    let rows: Vec<&SpectrumRow> = rows.iter().filter(|r| small(&r.sizes)).collect();
    let check = ModelCheck {
        sizes: rows.iter().map(|r| r.sizes.clone()).collect(),
        classes: 0,
        complete: rows.iter().all(|r| r.iso.status == Status::Exact),
        note: None,
    };
    let models = classes
        .iter()
        .filter(|c| small(&c.model.sizes))
        .map(|c| c.model.clone())
        .collect();
    let opts = ConjectureOptions {
        max_size: max_size.min(CONJECTURE_SIZE),
        ..conjecture_options(budget)
    };
    match conjecture_with_models(t, models, check, &opts, &mut |_| {}) {
        Ok(r) if !r.interrupted => Ok(Some(ConjectureSummary::of(&r))),
        Ok(_) | Err(FinderError::Encoding(_)) => Ok(None),
        Err(e) => Err(e),
    }
}
