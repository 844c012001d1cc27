//! `birkhoff research step --llm claude`: a language model reads a workspace (STATE.md,
//! SYNTHESIS.md, PROBLEM.md) and proposes the next phase and new hypotheses, tasks and leads as
//! JSON inside `<research>` tags. The reply is data: parsed, checked against the schema's names
//! and bounds (unknown fields and phases refused, at most [`MAX_NEW`] records of each kind,
//! every statement parsed over the discovery's signature, text cut to the records' limits and
//! stripped of control characters), with one retry that explains the error. A reply that fails
//! twice, or no reply, falls back to the deterministic router (`birkhoff_research::steps`), and
//! the fallback is said. The chosen phase then runs as the offline step does; only the choice
//! and the new records come from the model.

use crate::llm::cli::CliLlm;
use crate::text::{bound, printable, quote};
use birkhoff_engine::Theory;
use birkhoff_library::record::Body;
use birkhoff_library::Library;
use birkhoff_research::record::{
    self, Actor, Confidence, Hypothesis, HypothesisStatus, Kind, Lead, LeadStatus, Phase, Priority,
    Record, Task, TaskStatus,
};
use birkhoff_research::steps::{self, Options, Report};
use birkhoff_research::{Error, Workspace};
use serde::Deserialize;

/// Most new records of each kind one reply may add.
pub const MAX_NEW: usize = 5;

/// How much of each workspace file the prompt quotes, in characters.
const MAX_FILE: usize = 20_000;

/// A new hypothesis the model proposes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewHypothesis {
    /// A formula over the discovery's signature.
    pub statement: String,
    /// How strongly the model believes it.
    pub confidence: Confidence,
    /// Why.
    #[serde(default)]
    pub notes: String,
}

/// A new task the model proposes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTask {
    /// What to do.
    pub title: String,
    /// How urgent.
    pub priority: Priority,
    /// The phase it serves.
    #[serde(default)]
    pub phase: Option<Phase>,
}

/// A new lead the model proposes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewLead {
    /// What it is.
    pub title: String,
    /// How urgent.
    pub priority: Priority,
    /// Notes (a model's references are unverified: they go here, never into `reference`).
    #[serde(default)]
    pub notes: String,
}

/// The model's reply, inside `<research>` tags.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proposal {
    /// The next phase: literature, proof, computation or writing.
    pub phase: Phase,
    /// Why, in a sentence.
    pub reason: String,
    /// New hypotheses.
    #[serde(default)]
    pub hypotheses: Vec<NewHypothesis>,
    /// New tasks.
    #[serde(default)]
    pub tasks: Vec<NewTask>,
    /// New leads.
    #[serde(default)]
    pub leads: Vec<NewLead>,
}

/// What the model-chosen step did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Outcome {
    /// The step's report.
    pub report: Report,
    /// `llm`, or `offline` when the router decided after the model failed.
    pub chosen_by: String,
    /// The model's reason, or why it fell back.
    pub why: String,
    /// The IDs of the records the model added.
    pub added: Vec<String>,
    /// Every cut, refusal or failure on the way.
    pub faults: Vec<String>,
}

/// The system prompt.
const SYSTEM: &str = "You steer a research workspace about one finite algebraic structure. Read the state, the synthesis and the problem. Choose the next phase (literature, proof, computation or writing) and propose at most 5 new hypotheses (equations in Birkhoff's syntax over the theory's signature, such as `x * y = y * x`), at most 5 tasks and at most 5 leads. Reply with one JSON object inside <research></research> tags: {\"phase\": ..., \"reason\": ..., \"hypotheses\": [{\"statement\": ..., \"confidence\": \"low|medium|high\", \"notes\": ...}], \"tasks\": [{\"title\": ..., \"priority\": \"low|medium|high\", \"phase\": ...}], \"leads\": [{\"title\": ..., \"priority\": ..., \"notes\": ...}]}. No other fields.";

/// Parses and checks a reply against `theory`; the error is a message for the model's retry.
/// Text is made printable and cut to the records' limits, each cut a fault.
pub fn parse(reply: &str, theory: &Theory, faults: &mut Vec<String>) -> Result<Proposal, String> {
    let body = reply
        .split_once("<research>")
        .and_then(|(_, r)| r.split_once("</research>"))
        .map(|(b, _)| b)
        .ok_or("no <research>...</research> block in the reply")?;
    let mut p: Proposal = serde_json::from_str(body.trim())
        .map_err(|e| format!("the <research> block is not the JSON asked for: {e}"))?;
    if p.phase == Phase::Done {
        return Err(
            "`done` is not a step; choose literature, proof, computation or writing".into(),
        );
    }
    for (what, n) in [
        ("hypotheses", p.hypotheses.len()),
        ("tasks", p.tasks.len()),
        ("leads", p.leads.len()),
    ] {
        if n > MAX_NEW {
            return Err(format!("{n} {what}; at most {MAX_NEW}"));
        }
    }
    for (i, h) in p.hypotheses.iter().enumerate() {
        birkhoff_library::statement::parse(theory, &h.statement).map_err(|e| {
            format!(
                "hypotheses[{i}].statement `{}`: {}",
                quote(&h.statement),
                quote(&e)
            )
        })?;
    }
    // Titles are one line; every text printable and within the record's limit.
    let mut clean = |name: String, field: &mut String, max: usize, one_line: bool| {
        let mut t = printable(field);
        if one_line {
            t = t.replace(['\n', '\t'], " ");
        }
        *field = t.trim().to_string();
        faults.extend(bound(&name, field, max));
    };
    clean("reason".into(), &mut p.reason, record::MAX_ITEM, true);
    for (i, h) in p.hypotheses.iter_mut().enumerate() {
        clean(
            format!("hypotheses[{i}].notes"),
            &mut h.notes,
            record::MAX_TEXT,
            false,
        );
    }
    for (i, t) in p.tasks.iter_mut().enumerate() {
        clean(
            format!("tasks[{i}].title"),
            &mut t.title,
            record::MAX_TITLE,
            true,
        );
        if t.title.is_empty() {
            return Err(format!("tasks[{i}].title is empty"));
        }
    }
    for (i, l) in p.leads.iter_mut().enumerate() {
        clean(
            format!("leads[{i}].title"),
            &mut l.title,
            record::MAX_TITLE,
            true,
        );
        clean(
            format!("leads[{i}].notes"),
            &mut l.notes,
            record::MAX_TEXT,
            false,
        );
        if l.title.is_empty() {
            return Err(format!("leads[{i}].title is empty"));
        }
    }
    Ok(p)
}

/// The prompt: the workspace's STATE.md, SYNTHESIS.md and PROBLEM.md, each cut to its limit.
fn prompt(ws: &Workspace) -> Result<String, Error> {
    let mut s = String::from("PHASE: RESEARCH\n");
    for f in ["STATE.md", "SYNTHESIS.md", "PROBLEM.md"] {
        let text = ws.read(f)?;
        let text = crate::text::cut(&text, MAX_FILE).unwrap_or(text);
        s.push_str(&format!("\n===== {f} =====\n{text}\n"));
    }
    Ok(s)
}

/// One step of `ws` with `model` choosing, as the module says.
pub fn step(
    model: &CliLlm,
    lib: &mut Library,
    ws: &Workspace,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Outcome, Error> {
    let loaded = ws.load()?;
    if !loaded.problems.is_empty() {
        return Err(Error::Invalid(loaded.problems));
    }
    let meta = ws.meta()?;
    let theory = match lib.get(&meta.theory_id)?.body {
        Body::Theory(t) => Theory::parse(&t.text, &meta.discovery)
            .map_err(|e| Error::Workspace(format!("{}: {e}", meta.theory_id)))?,
        _ => {
            return Err(Error::Workspace(format!(
                "{} is not a theory record",
                meta.theory_id
            )))
        }
    };
    let mut faults = Vec::new();
    let mut text = prompt(ws)?;
    let mut proposal = None;
    for attempt in 0..2 {
        progress(&format!(
            "asking {} for the next step{}",
            model.program,
            if attempt > 0 { " (retry)" } else { "" }
        ));
        let reply = match model.ask_text(SYSTEM, &text, None) {
            Ok(r) => r,
            Err(e) => {
                faults.push(format!("no reply: {e}"));
                break;
            }
        };
        match parse(&reply, &theory, &mut faults) {
            Ok(p) => {
                proposal = Some(p);
                break;
            }
            Err(e) => {
                faults.push(format!("reply rejected: {e}"));
                text.push_str(&format!("\n\nYour previous reply was rejected: {e}\nReply again with a valid <research> block.\n"));
            }
        }
    }
    let Some(p) = proposal else {
        progress("the model gave no usable reply: the deterministic router decides");
        let report = steps::run(lib, ws, None, opts, progress)?;
        return Ok(Outcome {
            report,
            chosen_by: "offline".into(),
            why: faults.last().cloned().unwrap_or_default(),
            added: vec![],
            faults,
        });
    };
    let mut added = Vec::new();
    let now = birkhoff_research::now();
    for h in p.hypotheses {
        let r = ws.add(Kind::Hypothesis, |id| {
            Record::Hypothesis(Hypothesis {
                schema_version: record::SCHEMA_VERSION,
                id,
                statement: h.statement,
                status: HypothesisStatus::Active,
                confidence: h.confidence,
                conjecture: None,
                evidence: vec![],
                notes: h.notes,
                by: Actor::Llm,
                created: now.clone(),
                updated: now.clone(),
            })
        })?;
        added.push(r.id().to_string());
    }
    for t in p.tasks {
        let r = ws.add(Kind::Task, |id| {
            Record::Task(Task {
                schema_version: record::SCHEMA_VERSION,
                id,
                title: t.title,
                status: TaskStatus::Todo,
                priority: t.priority,
                phase: t.phase,
                blocked_on: vec![],
                links: vec![],
                by: Actor::Llm,
                created: now.clone(),
                updated: now.clone(),
            })
        })?;
        added.push(r.id().to_string());
    }
    for l in p.leads {
        let r = ws.add(Kind::Lead, |id| {
            Record::Lead(Lead {
                schema_version: record::SCHEMA_VERSION,
                id,
                title: l.title,
                status: LeadStatus::New,
                priority: l.priority,
                reference: None,
                notes: l.notes,
                by: Actor::Llm,
                created: now.clone(),
                updated: now.clone(),
            })
        })?;
        added.push(r.id().to_string());
    }
    progress(&format!(
        "the model chose {} ({}) and added {}",
        p.phase.name(),
        p.reason,
        if added.is_empty() {
            "no records".to_string()
        } else {
            added.join(", ")
        }
    ));
    let report = steps::run(lib, ws, Some(p.phase), opts, progress)?;
    Ok(Outcome {
        report,
        chosen_by: "llm".into(),
        why: p.reason,
        added,
        faults,
    })
}
