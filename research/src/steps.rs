//! The deterministic steps and what every command leaves behind.
//!
//! [`refresh`] re-renders SYNTHESIS.md and STATE.md from the records and the library and brings
//! the library's index in step; every command that changes a workspace ends with it. [`run`]
//! runs one step, the routed one or one asked for:
//! - **computation**: the spectrum one size further than it is exact, through the scorer's one
//!   evaluation path (`evidence::spectrum`, every model re-checked by the evaluator); the rows
//!   are stored in the library as a spectrum record and added to COMPUTATION.md;
//! - **proof**: each active hypothesis against the checker's prover, with twice the budget of
//!   its last round; a proof is stored with its certificate (a proof record, the conjecture
//!   marked proved) and laid out as numbered steps in PROOF.md, a countermodel is stored as a
//!   model and refutes the hypothesis;
//! - **literature**: the literature agent's search (`birkhoff_literature::search`) when the
//!   network is there; its LITERATURE.md is copied in and each confirmed reference becomes a
//!   lead;
//! - **writing**: the open conjectures tried once more for a small countermodel
//!   (`birkhoff_paper::try_open_conjectures`), then OUTPUT.tex and references.bib through the
//!   paper crate (`birkhoff_paper::Paper::gather` and `write`), compiled when pdflatex is
//!   installed.
//!
//! A new workspace starts from the conjecture engine's open equations and the structure
//! statements true in every small model ([`conjecture`]); the open ones are its first hypotheses.
//!
//! Each step adds an attempt record saying what it did and how it went.

use crate::record::{
    self, Actor, Attempt, HypothesisStatus, Kind, Lead, LeadStatus, Outcome, Phase, Priority,
    Record,
};
use crate::state::{self, Facts, Route, MAX_ROUNDS};
use crate::text::md;
use crate::workspace::{Loaded, Meta, Workspace, OUTPUT};
use crate::{Error, Result};
use birkhoff_checker::{size_tuples, Budget, Status};
use birkhoff_engine::Theory;
use birkhoff_library::record::{Body, ConjectureRec, ConjectureStatus, SpectrumRec, SpectrumRow};
use birkhoff_library::Library;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The computation step counts at least to this size.
pub const MIN_TARGET: u32 = 4;

/// The budgets of a step.
#[derive(Clone, Debug)]
pub struct Options {
    /// Time for each size the computation step counts.
    pub per_size: Duration,
    /// A hypothesis's prover time in its first round; round k gets 2^k times this.
    pub prove_base: Duration,
    /// The literature agent's network settings (base URLs, offline).
    pub literature: birkhoff_literature::Config,
    /// Raised by Ctrl-C: searches stop soon and report what they have.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            per_size: Duration::from_secs(20),
            prove_base: Duration::from_secs(5),
            literature: birkhoff_literature::Config::from_env(),
            cancel: None,
        }
    }
}

/// What a step did.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The phase it ran.
    pub phase: Phase,
    /// The attempt record it added (none when nothing could run).
    pub attempt: Option<String>,
    /// How it went.
    pub outcome: Outcome,
    /// What it did, in one paragraph.
    pub summary: String,
    /// Where the route goes next.
    pub next: Route,
}

/// The largest n such that every size tuple up to n (each sort at most n) has an exact count.
pub fn exact_to(rows: &[SpectrumRow], sorts: usize) -> u32 {
    let exact: std::collections::BTreeSet<&[u32]> = rows
        .iter()
        .filter(|r| r.iso.status == Status::Exact)
        .map(|r| r.sizes.as_slice())
        .collect();
    let mut n = 0;
    while n < 64 && size_tuples(sorts, n + 1).all(|t| exact.contains(t.as_slice())) {
        n += 1;
    }
    n
}

/// The discovery's theory, parsed from its library record.
fn theory(lib: &Library, meta: &Meta) -> Result<Theory> {
    match lib.get(&meta.theory_id)?.body {
        Body::Theory(t) => Theory::parse(&t.text, &meta.discovery).map_err(|e| {
            Error::Workspace(format!(
                "{}: the stored text does not parse: {e}",
                meta.theory_id
            ))
        }),
        _ => Err(Error::Workspace(format!(
            "{} is not a theory record",
            meta.theory_id
        ))),
    }
}

/// How many proof rounds each hypothesis has had.
fn rounds(loaded: &Loaded) -> BTreeMap<&str, u32> {
    let mut out = BTreeMap::new();
    for a in loaded.attempts().filter(|a| a.phase == Phase::Proof) {
        for h in &a.hypotheses {
            *out.entry(h.as_str()).or_insert(0) += 1;
        }
    }
    out
}

/// At most this many of the conjecture engine's equations become hypotheses of a new workspace.
pub const SEEDED_CONJECTURES: usize = 10;

/// Runs the conjecture engine on the discovery's models up to size 4 (the scorer's settings:
/// terms of depth 2, a quarter second each, at most ten) and stores the equations it could not
/// settle as open conjectures, which the workspace then mirrors as hypotheses. What it proved or
/// refuted in that quarter second is routine and not kept. Then studies the discovery's
/// structure ([`birkhoff_paper::study_structure`], sizes to 4, half a second per statement),
/// which stores every structure statement it tried, proved, refuted or open. Returns how many
/// open conjectures were stored.
pub fn conjecture(lib: &mut Library, meta: &Meta) -> Result<usize> {
    use birkhoff_checker::prover::conjecture::{
        conjecture as guess, Options as GuessOptions, Status as GuessStatus,
    };
    let t = theory(lib, meta)?;
    let budget = Budget::default();
    let opts = GuessOptions {
        max_size: 4,
        ..birkhoff_scorer::evidence::conjecture_options(&budget)
    };
    let report = match guess(&t, &opts, &mut |_| {}) {
        Ok(r) => r,
        // A theory whose terms the engine cannot evaluate has no conjectures to give.
        Err(birkhoff_checker::finder::FinderError::Encoding(_)) => return Ok(0),
        Err(e) => return Err(Error::Step(format!("conjectures: {e}"))),
    };
    let mut stored = 0;
    // The engine lists the smallest equations first; the first SEEDED_CONJECTURES it left
    // unsettled are enough to start on (each costs prover time in every proof round).
    let unsettled = report.conjectures.iter().filter(|c| {
        matches!(
            c.status,
            GuessStatus::Open { .. } | GuessStatus::NotTried | GuessStatus::ProvedByZ3 { .. }
        )
    });
    for c in unsettled.take(SEEDED_CONJECTURES) {
        let evidence = format!(
            "true in every model up to size {}; the prover: {}",
            opts.max_size,
            c.status.evidence()
        );
        let rec = ConjectureRec {
            theory_id: meta.theory_id.clone(),
            theory_name: meta.discovery.clone(),
            statement: c.equation.clone(),
            status: ConjectureStatus::Open,
            evidence,
            countermodel: None,
            proof: None,
            proposed_by: "conjecture engine".into(),
            claim: None,
        };
        // A conjecture the library holds already keeps its record (and its status).
        if lib.get(&Body::Conjecture(rec.clone()).id()).is_err() {
            lib.put(Body::Conjecture(rec))?;
            stored += 1;
        }
    }
    // What the models are made of (issue 51): the structure statements true in every small
    // model, each settled by the prover and stored with its meaning; the paper reads the proved
    // ones as a structure theorem, and those left open become hypotheses like the engine's.
    let study = birkhoff_paper::Study {
        max_size: 4,
        per_statement: Duration::from_millis(500),
        ..birkhoff_paper::Study::default()
    };
    let structure = birkhoff_paper::study_structure(lib, &meta.theory_id, &study)
        .map_err(|e| Error::Step(format!("structure: {e}")))?;
    // Where it sits among known classes, for the paper the workspace writes.
    birkhoff_paper::place_discovery(lib, &meta.theory_id, &study)
        .map_err(|e| Error::Step(format!("placement: {e}")))?;
    stored += structure
        .iter()
        .filter(|c| c.status == ConjectureStatus::Open)
        .count();
    Ok(stored)
}

/// What the router reads from this workspace and its library.
pub fn facts(lib: &Library, ws: &Workspace, loaded: &Loaded) -> Result<Facts> {
    let meta = ws.meta()?;
    let sorts = theory(lib, &meta)?.sig.sorts.len();
    let rounds = rounds(loaded);
    let active: Vec<_> = loaded
        .hypotheses()
        .filter(|h| h.status == HypothesisStatus::Active)
        .collect();
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(Facts {
        literature_attempts: count(
            loaded
                .attempts()
                .filter(|a| a.phase == Phase::Literature)
                .count(),
        ),
        active_hypotheses: count(active.len()),
        hypotheses_to_try: count(
            active
                .iter()
                .filter(|h| rounds.get(h.id.as_str()).copied().unwrap_or(0) < MAX_ROUNDS)
                .count(),
        ),
        exact_to: exact_to(&lib.spectrum_of(&meta.theory_id)?, sorts),
        failed_computations: count(
            loaded
                .attempts()
                .filter(|a| a.phase == Phase::Computation && a.outcome == Outcome::Failed)
                .count(),
        ),
        // OUTPUT.tex is current when it exists and no step has gathered evidence since it was
        // written: `open` writes it before any attempt, the writing step after the others.
        output_written: ws.dir.join(OUTPUT).is_file()
            && loaded
                .attempts()
                .last()
                .is_none_or(|a| a.phase == Phase::Writing),
    })
}

/// Re-renders SYNTHESIS.md (only from valid records: with problems it is left as it was and the
/// problems are returned) and STATE.md, and syncs the library's index. Returns the route.
pub fn refresh(lib: &mut Library, ws: &Workspace) -> Result<Route> {
    let loaded = ws.load()?;
    let meta = ws.meta()?;
    let f = facts(lib, ws, &loaded)?;
    let r = state::route(&f);
    let history: Vec<(String, Phase, String, String)> = loaded
        .attempts()
        .map(|a| (a.id.clone(), a.phase, word(a.outcome), a.summary.clone()))
        .collect();
    ws.write(
        "STATE.md",
        &state::render(&meta.discovery, &f, &r, &history),
    )?;
    let result = if loaded.problems.is_empty() {
        ws.write("SYNTHESIS.md", &crate::synth::render(&meta, &loaded))?;
        Ok(r)
    } else {
        Err(Error::Invalid(loaded.problems))
    };
    lib.sync_documents()?;
    result
}

/// Runs one step: `phase`, or the routed one. The workspace's records must be valid.
pub fn run(
    lib: &mut Library,
    ws: &Workspace,
    phase: Option<Phase>,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let loaded = ws.load()?;
    if !loaded.problems.is_empty() {
        return Err(Error::Invalid(loaded.problems));
    }
    let phase = match phase {
        Some(p) => p,
        None => state::route(&facts(lib, ws, &loaded)?).phase,
    };
    let meta = ws.meta()?;
    let done = match phase {
        Phase::Computation => Some(computation(lib, ws, &meta, &loaded, opts, progress)?),
        Phase::Proof => Some(proof(lib, ws, &meta, &loaded, opts, progress)?),
        Phase::Literature => Some(literature(lib, ws, &meta, &loaded, opts, progress)?),
        Phase::Writing => Some(writing(
            lib,
            ws,
            &meta,
            birkhoff_paper::Compile::IfInstalled,
            opts,
            progress,
        )?),
        Phase::Done => None,
    };
    let (attempt, outcome, summary) = match done {
        Some(a) => (Some(a.id.clone()), a.outcome, a.summary),
        None => (
            None,
            Outcome::Success,
            "nothing to do: the route is done".into(),
        ),
    };
    let next = refresh(lib, ws)?;
    Ok(Report {
        phase,
        attempt,
        outcome,
        summary,
        next,
    })
}

fn word<T: Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Adds the attempt record of a step.
fn attempt(
    ws: &Workspace,
    phase: Phase,
    outcome: Outcome,
    summary: String,
    budget: String,
    hypotheses: Vec<String>,
    artifacts: Vec<String>,
) -> Result<Attempt> {
    let created = crate::now();
    // Within the schema's bounds, so that a step never writes a record validate would refuse.
    let summary = crate::text::cut(&summary, record::MAX_TEXT).unwrap_or(summary);
    let budget = crate::text::cut(&budget, record::MAX_ITEM).unwrap_or(budget);
    let artifacts: Vec<String> = artifacts.into_iter().take(record::MAX_ITEMS).collect();
    let hypotheses: Vec<String> = hypotheses.into_iter().take(record::MAX_ITEMS).collect();
    let rec = ws.add(Kind::Attempt, |id| {
        Record::Attempt(Attempt {
            schema_version: record::SCHEMA_VERSION,
            id,
            phase,
            outcome,
            summary,
            budget,
            hypotheses,
            artifacts,
            by: Actor::Offline,
            created,
        })
    })?;
    match rec {
        Record::Attempt(a) => Ok(a),
        _ => Err(Error::Workspace(
            "internal: an attempt record expected".into(),
        )),
    }
}

/// Writes OUTPUT.tex (and references.bib) into the workspace through the paper crate: the
/// discovery as the library now holds it, its proofs, countermodels, spectrum and confirmed
/// references. Used by `open` (no compile) and by the writing step (compiled when pdflatex is
/// installed).
pub fn write_paper(
    lib: &Library,
    ws: &Workspace,
    meta: &Meta,
    compile: birkhoff_paper::Compile,
) -> Result<birkhoff_paper::Outcome> {
    let paper = birkhoff_paper::Paper::gather(lib, &meta.theory_id)
        .map_err(|e| Error::Step(format!("writing: {e}")))?;
    let _guard = birkhoff_library::lock::acquire(&ws.library_root)?;
    paper
        .write(&ws.dir, compile)
        .map_err(|e| Error::Step(format!("writing: {e}")))
}

fn writing(
    lib: &mut Library,
    ws: &Workspace,
    meta: &Meta,
    compile: birkhoff_paper::Compile,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Attempt> {
    use birkhoff_paper::{Compiled, Tried};
    // The paper calls a conjecture open only after a short try at refuting it.
    let trial = birkhoff_paper::Trial {
        cancel: opts.cancel.clone(),
        ..birkhoff_paper::Trial::default()
    };
    let tried = birkhoff_paper::try_open_conjectures(lib, &meta.theory_id, &trial)
        .map_err(|e| Error::Step(format!("writing: {e}")))?;
    for t in &tried {
        if let Tried::Refuted {
            statement, sizes, ..
        } = t
        {
            progress(&format!(
                "writing: {statement} refuted by a countermodel of size {}",
                birkhoff_checker::sizes_label(sizes)
            ));
        }
    }
    progress(&format!("writing: OUTPUT.tex for {}", meta.discovery));
    let out = write_paper(lib, ws, meta, compile)?;
    let (outcome, how) = match &out.compiled {
        Compiled::Pdf(_) => (Outcome::Success, "compiled to OUTPUT.pdf".to_string()),
        Compiled::NotAsked => (Outcome::Success, "not compiled".to_string()),
        Compiled::NoPdflatex => (
            Outcome::Success,
            "not compiled: pdflatex is not installed".to_string(),
        ),
        Compiled::Failed(errors) => (
            Outcome::Partial,
            format!(
                "pdflatex failed: {}",
                errors
                    .iter()
                    .take(3)
                    .map(|e| format!("{e:?}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ),
    };
    let summary = format!("OUTPUT.tex and references.bib written from the library; {how}");
    progress(&format!("writing: {summary}"));
    attempt(
        ws,
        Phase::Writing,
        outcome,
        summary,
        "the paper crate's gather and write".into(),
        vec![],
        vec![OUTPUT.to_string(), birkhoff_paper::BIB_FILE.to_string()],
    )
}

fn computation(
    lib: &mut Library,
    ws: &Workspace,
    meta: &Meta,
    loaded: &Loaded,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Attempt> {
    let t = theory(lib, meta)?;
    let sorts = t.sig.sorts.len();
    let before = exact_to(&lib.spectrum_of(&meta.theory_id)?, sorts);
    // One size further than the spectrum is exact, and at least MIN_TARGET: a workspace opened
    // before any spectrum was stored would otherwise climb one trivial size per step.
    let target = (before + 1).max(MIN_TARGET);
    progress(&format!(
        "computation: the spectrum of {} to size {target} ({} s per size)",
        meta.discovery,
        opts.per_size.as_secs_f64()
    ));
    let budget = Budget {
        time: Some(opts.per_size),
        nodes: None,
        models: Some(10_000_000),
        cancel: opts.cancel.clone(),
        progress: None,
    };
    let (rows, _) = birkhoff_scorer::evidence::spectrum(&t, target, &budget)
        .map_err(|e| Error::Step(format!("computation: {e}")))?;
    let (rec, _) = lib.put(Body::Spectrum(SpectrumRec {
        theory_id: meta.theory_id.clone(),
        theory_name: meta.discovery.clone(),
        rows: rows.clone(),
    }))?;
    let after = exact_to(&lib.spectrum_of(&meta.theory_id)?, sorts);
    let outcome = if after >= target {
        Outcome::Success
    } else {
        Outcome::Failed
    };
    let summary = if after > before {
        format!(
            "spectrum exact through size {after} (was {before}), stored as {}",
            rec.id
        )
    } else {
        format!("size {target} could not be counted exactly within the budget; exact through size {before} as before")
    };
    let round = loaded
        .attempts()
        .filter(|a| a.phase == Phase::Computation)
        .count()
        + 1;
    let budget_words = format!(
        "spectrum to size {target}, {} s per size",
        opts.per_size.as_secs_f64()
    );
    let a = attempt(
        ws,
        Phase::Computation,
        outcome,
        summary.clone(),
        budget_words.clone(),
        vec![],
        vec![rec.id.clone()],
    )?;
    let mut s = format!(
        "## Computation {round} ({}): the spectrum to size {target}\n\n",
        a.id
    );
    s.push_str(&format!("Budget: {budget_words}. Counted by the scorer's evaluation path (`evidence::spectrum`), every model re-checked by the evaluator; stored as `{}`.\n\n", rec.id));
    s.push_str("| sizes | models up to isomorphism | labeled models |\n|---|---|---|\n");
    for r in &rows {
        s.push_str(&format!(
            "| {} | {} | {} |\n",
            r.sizes
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("x"),
            r.iso,
            r.labeled
        ));
    }
    s.push_str(&format!("\nResult: {summary}.\n"));
    let all = lib.spectrum_of(&meta.theory_id)?;
    for m in birkhoff_checker::oeis::recognise(&all) {
        s.push_str(&format!("\nThe counts agree with OEIS {} ({}) on {} nontrivial orders (offline recognition, `catalogue/oeis.tsv`).\n", m.id, md(&m.name), m.nontrivial));
    }
    ws.append("COMPUTATION.md", &s)?;
    progress(&format!("computation: {summary}"));
    Ok(a)
}

/// What one hypothesis's proof round came to.
struct Tried {
    id: String,
    decided: bool,
    artifact: Option<String>,
    section: String,
}

fn proof(
    lib: &mut Library,
    ws: &Workspace,
    meta: &Meta,
    loaded: &Loaded,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Attempt> {
    use birkhoff_checker::prover::readable::{render, Layout};
    use birkhoff_checker::prover::{prove, Options as ProverOptions, Verdict};
    use birkhoff_library::settle::{settle, IfUndecided};
    let t = theory(lib, meta)?;
    let rounds = rounds(loaded);
    let todo: Vec<_> = loaded
        .hypotheses()
        .filter(|h| {
            h.status == HypothesisStatus::Active
                && rounds.get(h.id.as_str()).copied().unwrap_or(0) < MAX_ROUNDS
        })
        .cloned()
        .collect();
    let mut tried: Vec<Tried> = Vec::new();
    let mut budgets = Vec::new();
    for mut h in todo {
        // After Ctrl-C the hypotheses not reached are not tried (nor counted as tried).
        if opts
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            break;
        }
        let round = rounds.get(h.id.as_str()).copied().unwrap_or(0);
        let timeout = opts.prove_base * 2u32.pow(round);
        budgets.push(format!("{} {} s", h.id, timeout.as_secs_f64()));
        progress(&format!(
            "proof: {} `{}` (round {}, {} s)",
            h.id,
            crate::text::quote(&h.statement),
            round + 1,
            timeout.as_secs_f64()
        ));
        let note = |s: &str| format!("round {}: {s}", round + 1);
        let goal = match birkhoff_library::statement::parse(&t, &h.statement) {
            Ok(g) => g,
            Err(e) => {
                h.evidence.push(
                    crate::text::cut(&note(&e), record::MAX_ITEM).unwrap_or_else(|| note(&e)),
                );
                tried.push(Tried {
                    id: h.id.clone(),
                    decided: false,
                    artifact: None,
                    section: String::new(),
                });
                h.updated = crate::now();
                ws.update(&Record::Hypothesis(h))?;
                continue;
            }
        };
        let answer = prove(
            &t,
            &goal,
            &ProverOptions {
                timeout,
                cancel: opts.cancel.clone(),
                ..ProverOptions::default()
            },
        )
        .map_err(|e| Error::Step(format!("proof of {}: {e}", h.id)))?;
        // Ctrl-C stops the prover inside a hypothesis; an answer cut short that way is no
        // round of it (the next run tries it again with the same budget).
        if matches!(answer.verdict, Verdict::Unknown)
            && opts
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            budgets.pop();
            break;
        }
        let conjecture = ConjectureRec {
            theory_id: meta.theory_id.clone(),
            theory_name: meta.discovery.clone(),
            statement: h.statement.clone(),
            status: ConjectureStatus::Open,
            evidence: String::new(),
            countermodel: None,
            proof: None,
            proposed_by: "research".into(),
            claim: None,
        };
        let cid = h
            .conjecture
            .clone()
            .unwrap_or_else(|| Body::Conjecture(conjecture.clone()).id());
        // A conjecture the library holds keeps its proposer and claim (`settle`).
        let settled = settle(lib, conjecture, &t, &goal, &answer, IfUndecided::Keep)?;
        let (decided, artifact, section) = match (&answer.verdict, &settled) {
            (
                Verdict::Proved { certificate },
                ConjectureRec {
                    proof: Some(proof), ..
                },
            ) => {
                h.status = HypothesisStatus::Proved;
                let layout = Layout {
                    deadline: Some(std::time::Instant::now() + timeout),
                    ..Layout::default()
                };
                let steps = match render(&t, &goal, certificate, &layout) {
                    Ok(p) => format!("```\n{p}```\n"),
                    Err(e) => format!("The proof could not be laid out as steps ({}); its certificate is in `{proof}`.\n", md(&e.to_string())),
                };
                let section = format!("## {}: {}\n\nProved in round {} ({} s), certificate replayed by the independent checker and stored as `{proof}`.\n\n{steps}", h.id, md(&h.statement), round + 1, timeout.as_secs_f64());
                (true, Some(proof.clone()), section)
            }
            (
                Verdict::Disproved { model, .. },
                ConjectureRec {
                    countermodel: Some(countermodel),
                    ..
                },
            ) => {
                h.status = HypothesisStatus::Refuted;
                let table = birkhoff_engine::tables::cayley(&t.sig, model);
                let section = format!("## {}: {} is false\n\nA countermodel, checked by the evaluator (`{countermodel}`):\n\n```\n{}\n```\n", h.id, md(&h.statement), table.trim_end());
                (true, Some(countermodel.clone()), section)
            }
            _ => (false, None, String::new()),
        };
        let evidence = settled.evidence;
        h.conjecture = Some(cid);
        h.evidence.push(
            crate::text::cut(&note(&evidence), record::MAX_ITEM).unwrap_or_else(|| note(&evidence)),
        );
        h.updated = crate::now();
        tried.push(Tried {
            id: h.id.clone(),
            decided,
            artifact,
            section,
        });
        ws.update(&Record::Hypothesis(h))?;
    }
    let decided = tried.iter().filter(|t| t.decided).count();
    let outcome = match decided {
        0 => Outcome::Failed,
        d if d == tried.len() => Outcome::Success,
        _ => Outcome::Partial,
    };
    let summary = if tried.is_empty() {
        "no active hypothesis left to try".to_string()
    } else {
        format!("{decided} of {} hypotheses settled", tried.len())
    };
    // One countermodel often refutes several hypotheses: each artifact is listed once.
    let mut artifacts: Vec<String> = Vec::new();
    for a in tried.iter().filter_map(|t| t.artifact.clone()) {
        if !artifacts.contains(&a) {
            artifacts.push(a);
        }
    }
    let a = attempt(
        ws,
        Phase::Proof,
        outcome,
        summary.clone(),
        budgets.join(", "),
        tried.iter().map(|t| t.id.clone()).collect(),
        artifacts,
    )?;
    for t in tried.iter().filter(|t| !t.section.is_empty()) {
        ws.append("PROOF.md", &format!("{}\n(attempt {})\n", t.section, a.id))?;
    }
    progress(&format!("proof: {summary}"));
    Ok(a)
}

fn literature(
    lib: &mut Library,
    ws: &Workspace,
    meta: &Meta,
    loaded: &Loaded,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Attempt> {
    let t = theory(lib, meta)?;
    let subject = birkhoff_literature::subject::of_theory_in(lib, &t);
    progress(&format!(
        "literature: searching for {} ({})",
        subject.title, subject.key
    ));
    let out = match birkhoff_literature::search(
        lib.root(),
        &subject,
        opts.literature.clone(),
        &mut |l: &str| progress(&format!("  {l}")),
    ) {
        Ok(o) => o,
        Err(e) => {
            let summary = format!("the literature search could not run: {e}");
            progress(&summary);
            return attempt(
                ws,
                Phase::Literature,
                Outcome::Failed,
                summary,
                String::new(),
                vec![],
                vec![],
            );
        }
    };
    let reached = out
        .sources
        .iter()
        .any(|s| !s.down && s.errors.len() < s.queries.max(1));
    if let Ok(text) =
        birkhoff_library::atomic::read_text(&out.literature_md, crate::workspace::MAX_FILE_BYTES)
    {
        ws.write("LITERATURE.md", &text)?;
    }
    // Each confirmed reference not yet a lead becomes one.
    let known: std::collections::BTreeSet<String> = loaded
        .records
        .iter()
        .filter_map(|r| {
            if let Record::Lead(l) = r {
                l.reference.clone()
            } else {
                None
            }
        })
        .collect();
    let mut artifacts = Vec::new();
    for r in out.confirmed.iter().filter(|r| !known.contains(&r.number)) {
        let now = crate::now();
        let title = crate::text::cut(&r.paper.title, record::MAX_TITLE)
            .unwrap_or_else(|| r.paper.title.clone());
        let notes = format!(
            "{} ({}), confirmed by the literature agent's gate.",
            r.paper.authors.join(", "),
            r.paper.year.map_or("no year".into(), |y| y.to_string())
        );
        let lead = ws.add(Kind::Lead, |id| {
            Record::Lead(Lead {
                schema_version: record::SCHEMA_VERSION,
                id,
                title,
                status: LeadStatus::New,
                priority: Priority::Medium,
                reference: Some(r.number.clone()),
                notes: crate::text::cut(&notes, record::MAX_TEXT).unwrap_or(notes),
                by: Actor::Offline,
                created: now.clone(),
                updated: now,
            })
        })?;
        artifacts.push(lead.id().to_string());
    }
    let (outcome, summary) = if !reached {
        (Outcome::Failed, "no literature source could be reached (no network?); run `birkhoff research step SLUG --phase literature` when it is there".to_string())
    } else {
        let complete = out.sources.iter().all(|s| s.errors.is_empty());
        let oeis = if out.oeis.is_empty() {
            String::new()
        } else {
            format!(
                ", the spectrum in the OEIS as {}",
                out.oeis
                    .iter()
                    .map(|m| m.sequence.a_number.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        (
            if complete {
                Outcome::Success
            } else {
                Outcome::Partial
            },
            format!(
                "{} confirmed and {} unconfirmed references{oeis}; {} new leads",
                out.confirmed.len(),
                out.unconfirmed.len(),
                artifacts.len()
            ),
        )
    };
    progress(&format!("literature: {summary}"));
    let c = &opts.literature;
    let sources = birkhoff_literature::Source::ALL
        .iter()
        .filter(|s| c.source(**s).enabled)
        .count();
    let budget = format!(
        "{sources} sources, {} s per request{}",
        c.timeout.as_secs_f64(),
        if c.offline { ", cache only" } else { "" }
    );
    attempt(
        ws,
        Phase::Literature,
        outcome,
        summary,
        budget,
        vec![],
        artifacts,
    )
}
