//! The six tools the agent uses: explore, check_models, prove, score, search_library and
//! add_to_library. They call the engine, checker and library; a language model only names them
//! in its plan. The move engine, scorer and prover plug in through [`Explorer`], [`Scorer`] and
//! [`Prover`]; a tool whose engine is not built in answers with [`ToolError::NotAvailable`].

use crate::situation::{Base, Candidate, Settled, ToolStatus};
use birkhoff_checker::budget::{Budget, Status};
use birkhoff_checker::finder::{enumerate, first, FirstModel, Options};
use birkhoff_engine::{eval, tables, Theory};
use birkhoff_library::index::Hit;
use birkhoff_library::record::{Body, ConjectureRec, ConjectureStatus, ModelRec, ProofRec, Score, SpectrumRec, SpectrumRowRec, TheoryRec};
use birkhoff_library::{statement, Library};
use serde_json::Value;
use std::time::Duration;

/// Why a tool gave no result.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The engine behind the tool is not part of this build.
    #[error("{0} is not available: {1}")]
    NotAvailable(&'static str, String),
    /// The tool ran and failed.
    #[error("{0}: {1}")]
    Failed(&'static str, String),
}

/// Generates candidates from base theories by structural moves.
pub trait Explorer: Send + Sync {
    /// The move names.
    fn moves(&self) -> Vec<String>;
    /// Candidates from `bases` by `moves` up to `depth`: (name, theory, origin, parents).
    fn explore(&self, bases: &[&Theory], moves: &[String], depth: u32) -> Result<Vec<(String, Theory, String, Vec<String>)>, String>;
}

/// Scores theories.
pub trait Scorer: Send + Sync {
    /// The score of `t` given its spectrum rows.
    fn score(&self, t: &Theory, spectrum: &[SpectrumRowRec]) -> Result<Score, String>;
}

/// What a prover concluded.
pub enum ProverVerdict {
    /// Proved, with a certificate the proof checker can re-check.
    Proved {
        /// The certificate.
        certificate: Value,
    },
    /// Neither proved nor disproved within the limits.
    Unknown(String),
}

/// Proves statements from theories.
pub trait Prover: Send + Sync {
    /// The prover's name, stored with its certificates.
    fn name(&self) -> String;
    /// Tries to prove `statement` from `t`.
    fn prove(&self, t: &Theory, statement: &birkhoff_engine::Axiom, timeout: Duration) -> Result<ProverVerdict, String>;
}

/// The tools with their engines and limits.
pub struct Toolbox {
    /// The move engine, if built in.
    pub explorer: Option<Box<dyn Explorer>>,
    /// The scorer, if built in.
    pub scorer: Option<Box<dyn Scorer>>,
    /// The prover, if built in.
    pub prover: Option<Box<dyn Prover>>,
    /// Time for each size when checking models and searching countermodels.
    pub per_size: Duration,
    /// Keep at most this many model classes per size in memory.
    pub models_per_size: u64,
    /// Ctrl-C flag for the searches.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

const NOT_BUILT: &str = "its engine is not built into this version of Birkhoff";

impl Toolbox {
    /// The tools with every engine this build has.
    pub fn builtin() -> Toolbox {
        Toolbox { explorer: None, scorer: None, prover: None, per_size: Duration::from_millis(40), models_per_size: 200, cancel: None }
    }

    /// The six tools and whether each can run.
    pub fn status(&self) -> Vec<ToolStatus> {
        let t = |name, available: bool, what: &str| ToolStatus { name, available, note: if available { what.to_string() } else { NOT_BUILT.to_string() } };
        vec![
            t("explore", self.explorer.is_some(), "generate candidates from bases by moves"),
            t("check_models", true, "finite models and spectra, every model re-checked by the evaluator"),
            t("prove", true, if self.prover.is_some() { "countermodel search, then the prover" } else { "countermodel search only (no prover built in: unrefuted conjectures stay open)" }),
            t("score", self.scorer.is_some(), "the ten score dimensions"),
            t("search_library", true, "full-text search of the library"),
            t("add_to_library", true, "store a discovery with its spectrum and models"),
        ]
    }

    /// The moves the explore tool knows.
    pub fn moves(&self) -> Vec<String> {
        self.explorer.as_ref().map(|e| e.moves()).unwrap_or_default()
    }

    /// `explore`: candidates from `bases` by `moves`. With no moves the bases themselves are the
    /// candidates (origin `base`).
    pub fn explore(&self, bases: &[&Base], moves: &[String], depth: u32) -> Result<Vec<Candidate>, ToolError> {
        let blank = |name: String, theory: Theory, origin: String, parents: Vec<String>| Candidate { name, theory, origin, parents, score: None, spectrum: vec![], models: vec![], checked: false };
        if moves.is_empty() {
            return Ok(bases.iter().map(|b| blank(b.name.clone(), b.theory.clone(), "base".into(), vec![])).collect());
        }
        let explorer = self.explorer.as_ref().ok_or_else(|| ToolError::NotAvailable("explore", NOT_BUILT.into()))?;
        let theories: Vec<&Theory> = bases.iter().map(|b| &b.theory).collect();
        let found = explorer.explore(&theories, moves, depth).map_err(|e| ToolError::Failed("explore", e))?;
        Ok(found.into_iter().map(|(n, t, o, p)| blank(n, t, o, p)).collect())
    }

    fn budget(&self) -> Budget {
        Budget { time: Some(self.per_size), nodes: None, models: Some(self.models_per_size), cancel: self.cancel.clone() }
    }

    /// `check_models`: the spectrum of `c` for sizes 1..=max_size (single-sorted theories; a
    /// many-sorted theory is checked with every sort of the same size), stopping after the
    /// first size whose count is not exact. Every model passed the evaluator in the finder; it
    /// is checked once more here.
    pub fn check_models(&self, c: &mut Candidate, max_size: u32) -> Result<(), ToolError> {
        let sorts = c.theory.sig.sorts.len();
        c.spectrum.clear();
        c.models.clear();
        for n in 1..=max_size {
            let sizes = vec![n; sorts];
            let e = enumerate(&c.theory, &sizes, &self.budget(), Options::default()).map_err(|e| ToolError::Failed("check_models", e.to_string()))?;
            for class in &e.classes {
                eval::check(&c.theory, &class.model).map_err(|v| ToolError::Failed("check_models", format!("the finder reported a non-model: {v}")))?;
            }
            c.models.extend(e.classes.into_iter().map(|cl| cl.model));
            let exact = e.iso.status == Status::Exact;
            c.spectrum.push(SpectrumRowRec { sizes, iso: e.iso, labeled: e.labeled });
            if !exact {
                break;
            }
        }
        c.checked = true;
        Ok(())
    }

    /// `score`: the candidate's score.
    pub fn score(&self, c: &Candidate) -> Result<Score, ToolError> {
        let scorer = self.scorer.as_ref().ok_or_else(|| ToolError::NotAvailable("score", NOT_BUILT.into()))?;
        scorer.score(&c.theory, &c.spectrum).map_err(|e| ToolError::Failed("score", e))
    }

    /// `prove`: settles a conjecture about `t` if it can: a countermodel up to `max_size`
    /// (checked by the evaluator: a model of `t` that falsifies the statement) refutes it; else
    /// the prover, if built in, may prove it; else it stays open. The outcome is stored.
    ///
    /// `name` is the theory's name in the plan (a base or candidate name), stored with the
    /// conjecture so that later cycles can retest it.
    #[allow(clippy::too_many_arguments)]
    pub fn prove(&self, lib: &mut Library, name: &str, t: &Theory, theory_id: &str, text: &str, proposed_by: &str, max_size: u32) -> Result<Settled, ToolError> {
        let axiom = statement::parse(t, text).map_err(|e| ToolError::Failed("prove", e))?;
        let negated = statement::negated(t, &axiom);
        let mut searched = 0;
        for n in 1..=max_size {
            let sizes = vec![n; t.sig.sorts.len()];
            let (outcome, _, _) = first(&negated, &sizes, &self.budget(), Options::default()).map_err(|e| ToolError::Failed("prove", e.to_string()))?;
            match outcome {
                FirstModel::Found { model } => {
                    let genuine = eval::check(t, &model).is_ok() && !eval::holds(&t.sig, &model, &axiom);
                    if !genuine {
                        return Err(ToolError::Failed("prove", "a countermodel failed the evaluator's re-check".into()));
                    }
                    let id = store(lib, Body::Model(ModelRec { theory_id: theory_id.into(), theory_name: name.into(), structure: model.to_json(&t.sig) }))?;
                    let evidence = format!("countermodel of size {n} ({id})");
                    store_conjecture(lib, name, theory_id, text, proposed_by, ConjectureStatus::Refuted, &evidence, Some(id), None)?;
                    return Ok(Settled { theory: name.into(), statement: text.into(), proposed_by: proposed_by.into(), status: ConjectureStatus::Refuted, evidence, countermodel: Some(tables::cayley(&t.sig, &model)) });
                }
                FirstModel::None => searched = n,
                FirstModel::Unknown => break,
            }
        }
        let mut evidence = if searched > 0 { format!("no countermodel up to size {searched}") } else { "countermodel search inconclusive".to_string() };
        if let Some(p) = &self.prover {
            match p.prove(t, &axiom, self.per_size * 25).map_err(|e| ToolError::Failed("prove", e))? {
                ProverVerdict::Proved { certificate } => {
                    let cid = ConjectureRec { theory_id: theory_id.into(), theory_name: name.into(), statement: text.into(), status: ConjectureStatus::Open, evidence: String::new(), countermodel: None, proof: None, proposed_by: proposed_by.into() };
                    let cid = Body::Conjecture(cid).id();
                    let pid = store(lib, Body::Proof(ProofRec { conjecture_id: cid, theory_id: theory_id.into(), statement: text.into(), prover: p.name(), certificate }))?;
                    let evidence = format!("proved by {} ({pid})", p.name());
                    store_conjecture(lib, name, theory_id, text, proposed_by, ConjectureStatus::Proved, &evidence, None, Some(pid))?;
                    return Ok(Settled { theory: name.into(), statement: text.into(), proposed_by: proposed_by.into(), status: ConjectureStatus::Proved, evidence, countermodel: None });
                }
                ProverVerdict::Unknown(why) => evidence += &format!("; prover: {why}"),
            }
        } else {
            evidence += "; no prover built in";
        }
        store_conjecture(lib, name, theory_id, text, proposed_by, ConjectureStatus::Open, &evidence, None, None)?;
        Ok(Settled { theory: name.into(), statement: text.into(), proposed_by: proposed_by.into(), status: ConjectureStatus::Open, evidence, countermodel: None })
    }
}

fn store(lib: &mut Library, body: Body) -> Result<String, ToolError> {
    lib.put(body).map(|(r, _)| r.id).map_err(|e| ToolError::Failed("library", e.to_string()))
}

#[allow(clippy::too_many_arguments)]
fn store_conjecture(lib: &mut Library, name: &str, theory_id: &str, text: &str, by: &str, status: ConjectureStatus, evidence: &str, countermodel: Option<String>, proof: Option<String>) -> Result<(), ToolError> {
    let rec = ConjectureRec { theory_id: theory_id.into(), theory_name: name.into(), statement: text.into(), status, evidence: evidence.into(), countermodel, proof, proposed_by: by.into() };
    store(lib, Body::Conjecture(rec)).map(|_| ())
}

/// The theory record of a candidate or base (stored so that records about it can refer to it).
pub fn theory_record(name: &str, t: &Theory, origin: &str, parents: &[String], discovery: bool, notes: &str, score: Option<Score>) -> Body {
    Body::Theory(TheoryRec { name: name.into(), text: t.to_text(), fingerprint: t.fingerprint().to_string(), origin: origin.into(), parents: parents.to_vec(), discovery, notes: notes.into(), score })
}

/// Stores a theory (keeping an existing discovery's name and notes) and returns its ID.
pub fn ensure_theory(lib: &mut Library, name: &str, t: &Theory, origin: &str) -> Result<String, ToolError> {
    let id = theory_record(name, t, origin, &[], false, "", None).id();
    if lib.get(&id).is_ok() {
        return Ok(id);
    }
    store(lib, theory_record(name, t, origin, &[], false, "", None))
}

/// `search_library`.
pub fn search_library(lib: &Library, query: &str, min_score: Option<f64>) -> Result<Vec<Hit>, ToolError> {
    lib.search(query, min_score, 20).map_err(|e| ToolError::Failed("search_library", e.to_string()))
}

/// `add_to_library`: stores a discovery under `name` with its spectrum and up to three models
/// of each size; returns the theory's ID.
pub fn add_to_library(lib: &mut Library, c: &Candidate, name: &str, notes: &str) -> Result<String, ToolError> {
    let id = store(lib, theory_record(name, &c.theory, &c.origin, &c.parents, true, notes, c.score.clone()))?;
    if !c.spectrum.is_empty() {
        store(lib, Body::Spectrum(SpectrumRec { theory_id: id.clone(), theory_name: name.into(), rows: c.spectrum.clone() }))?;
    }
    let mut per_size: std::collections::BTreeMap<Vec<u32>, usize> = Default::default();
    for m in &c.models {
        let k = per_size.entry(m.sizes.clone()).or_default();
        if *k < 3 {
            *k += 1;
            store(lib, Body::Model(ModelRec { theory_id: id.clone(), theory_name: name.into(), structure: m.to_json(&c.theory.sig) }))?;
        }
    }
    Ok(id)
}
