//! The cycle report: a JSON record ([`CycleReport`]) and its Markdown rendering, with spectra as
//! small bar charts and models as Cayley tables.

use crate::schema::{Decisions, Plan};
use crate::situation::Settled;
use crate::text::{md, md_block};
use birkhoff_library::record::{Score, SpectrumRowRec};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt::Write;

/// Which run a cycle belongs to, so that a rerun can resume it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// A digest of the goal, bases and cycle count.
    pub key: String,
    /// This cycle's position in the run, from 1.
    pub index: u32,
    /// The run's length.
    pub of: u32,
}

/// One tool call and its outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ToolCall {
    /// The tool.
    pub tool: String,
    /// Its parameters.
    pub params: Value,
    /// Whether it succeeded.
    pub ok: bool,
    /// What it returned, or its error.
    pub summary: String,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// A candidate as reported.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CandidateSummary {
    /// Its name in the cycle.
    pub name: String,
    /// How it arose.
    pub origin: String,
    /// What it came from.
    pub parents: Vec<String>,
    /// Its score.
    pub score: Option<Score>,
    /// Its spectrum.
    pub spectrum: Vec<SpectrumRowRec>,
    /// Its axioms (theory text).
    pub axioms: String,
    /// A small model as Cayley tables.
    pub cayley: Option<String>,
    /// Why it shows nothing new compared with its parent, when that is so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as_parent: Option<String>,
    /// What it is: "known as ...", "new because ..." or "unknown whether ...".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing: Option<String>,
    /// The OEIS sequences its spectrum matches (the shipped data file, offline).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub oeis: Vec<String>,
    /// What its spectrum suggests about the orders with models, as open conjectures with their
    /// evidence range.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patterns: Vec<String>,
}

/// A discovery added to the library.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Discovery {
    /// Its library ID.
    pub id: String,
    /// Its new name.
    pub name: String,
    /// Why it was kept.
    pub notes: String,
    /// The candidate.
    pub candidate: CandidateSummary,
    /// The theory's first name, when it was already in the library under another: `name` was
    /// then recorded as an alias.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<String>,
    /// Is it known? Confirmed references and OEIS matches only.
    #[serde(default)]
    pub literature: LiteratureNote,
}
/// What the literature said about a discovery. Only confirmed references (REF-NNN, verified by a
/// lookup by identifier) are listed; unconfirmed ones are only counted.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LiteratureNote {
    /// Whether any source answered (from the network or the library's cache).
    pub searched: bool,
    /// "known", "not found", or "not searched (...)".
    pub status: String,
    /// Confirmed references: `REF-001 Title (2021)`.
    pub references: Vec<String>,
    /// How many candidates stayed unconfirmed (never cited).
    pub unconfirmed: usize,
    /// OEIS sequences the spectrum matches: `A057771 Number of loops...`.
    pub oeis: Vec<String>,
}

impl LiteratureNote {
    /// The note when no search was made, with the reason.
    pub fn not_searched(why: &str) -> LiteratureNote {
        LiteratureNote {
            status: format!("not searched ({why})"),
            ..LiteratureNote::default()
        }
    }

    /// The note of a literature run: its confirmed references and OEIS matches only.
    pub fn of(out: &birkhoff_literature::Outcome) -> LiteratureNote {
        let references: Vec<String> = out
            .confirmed
            .iter()
            .map(|r| {
                format!(
                    "{} {} ({})",
                    r.number,
                    r.paper.title,
                    r.paper.year.map_or("n.d.".into(), |y| y.to_string())
                )
            })
            .collect();
        let oeis: Vec<String> = out
            .oeis
            .iter()
            .map(|m| format!("{} {}", m.sequence.a_number, m.sequence.name))
            .collect();
        let status = if !out.searched {
            "not searched (no source answered)".to_string()
        } else if references.is_empty() && oeis.is_empty() {
            "not found in the literature".to_string()
        } else {
            "known".to_string()
        };
        LiteratureNote {
            searched: out.searched,
            status,
            references,
            unconfirmed: out.unconfirmed.len(),
            oeis,
        }
    }

    /// Why the literature knows the theory, from confirmed references and OEIS matches only
    /// (an unconfirmed reference never counts); `None` when it does not.
    pub fn known_because(&self) -> Option<String> {
        let known: Vec<String> = self.references.iter().chain(&self.oeis).cloned().collect();
        (!known.is_empty()).then(|| known.join("; "))
    }

    /// One line for the report, its text escaped: titles and names come from the sources.
    pub fn line(&self) -> String {
        let list = |v: &[String]| v.iter().map(|x| md(x)).collect::<Vec<_>>().join("; ");
        let mut s = format!("**Literature:** {}", md(&self.status));
        if !self.references.is_empty() {
            s += &format!("; {}", list(&self.references));
        }
        if self.searched {
            s += &format!(
                "; OEIS: {}",
                if self.oeis.is_empty() {
                    "no match".to_string()
                } else {
                    list(&self.oeis)
                }
            );
        }
        if self.unconfirmed > 0 {
            s += &format!(" ({} unconfirmed reference(s) not cited)", self.unconfirmed);
        }
        s
    }
}

/// A fault: something that went wrong and how it was handled.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Fault {
    /// `plan`, `interpret`, `execute` or `act`.
    pub phase: String,
    /// What went wrong.
    pub message: String,
    /// What was done about it.
    pub handling: String,
}

/// A conjecture's line in the report, with its countermodel's tables or its proof's steps.
pub fn settled_md(c: &Settled) -> String {
    let mut out = format!(
        "- \\[{}\\] {} — **{:?}** ({}; proposed by {})\n",
        md(&c.theory),
        md(&c.statement),
        c.status,
        md(&c.evidence),
        md(&c.proposed_by)
    );
    for block in [&c.countermodel, &c.proof].into_iter().flatten() {
        let _ = writeln!(out, "\n```text\n{block}```");
    }
    out
}

/// Everything about one cycle.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CycleReport {
    /// The cycle's number in the library (from 1, never reused).
    pub cycle: u64,
    /// The run it belongs to.
    pub run: RunInfo,
    /// The goal.
    pub goal: String,
    /// The language model used.
    pub llm: String,
    /// Start time, seconds since the Unix epoch.
    pub started: u64,
    /// Duration in seconds.
    pub seconds: f64,
    /// Seconds spent waiting for the language model.
    pub llm_seconds: f64,
    /// The plan carried out.
    pub plan: Plan,
    /// Who made the plan (`llm`, `offline`, `offline (fallback)`).
    pub plan_by: String,
    /// The tool calls, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Candidates generated.
    pub generated: usize,
    /// Candidates model-checked.
    pub checked: usize,
    /// Checked candidates with a model of size above 1.
    pub with_models: usize,
    /// The best candidates (at most 10).
    pub top: Vec<CandidateSummary>,
    /// Discoveries added.
    pub discoveries: Vec<Discovery>,
    /// Conjectures tested and their fate.
    pub conjectures: Vec<Settled>,
    /// The decisions carried out.
    pub decisions: Decisions,
    /// Who made the decisions.
    pub decisions_by: String,
    /// Faults and their handling.
    pub faults: Vec<Fault>,
}

/// A spectrum as a small bar chart, one line per size: `  3 | ████ 4`.
pub fn bars(rows: &[SpectrumRowRec]) -> String {
    let max = rows.iter().map(|r| r.iso.value).max().unwrap_or(0).max(1);
    let mut out = String::new();
    for r in rows {
        let width = if r.iso.value == 0 {
            0
        } else {
            1 + (r.iso.value.min(max) * 29 / max) as usize
        };
        let _ = writeln!(
            out,
            "  {:>5} | {} {}",
            birkhoff_checker::spectrum::sizes_label(&r.sizes),
            "█".repeat(width),
            r.iso
        );
    }
    out
}

/// Tools called once per candidate, summed up in the Markdown's log (failures still listed).
const ROUTINE: [&str; 3] = ["check_models", "score", "identify"];

/// How many of the top candidates the Markdown shows in full, so that a cycle report stays
/// readable (about 200 lines at the default settings).
const TOP_IN_MARKDOWN: usize = 3;

/// A candidate in Markdown; `model` shows its small model as Cayley tables too.
fn candidate_md(out: &mut String, c: &CandidateSummary, model: bool) {
    let _ = writeln!(
        out,
        "- Origin: {}{}",
        md(&c.origin),
        if c.parents.is_empty() {
            String::new()
        } else {
            format!(" (from {})", md(&c.parents.join(", ")))
        }
    );
    let _ = writeln!(out, "- Score: {}", crate::prompt::score_line(&c.score));
    if let Some(why) = &c.same_as_parent {
        let _ = writeln!(out, "- Not a discovery: {}", md(why));
    }
    if let Some(what) = &c.standing {
        let _ = writeln!(out, "- What it is: {}", md(what));
    }
    let _ = writeln!(out, "\n```text\n{}```", c.axioms);
    if !c.spectrum.is_empty() {
        let _ = writeln!(
            out,
            "\nSpectrum (models up to isomorphism; ≥k: search cut short):\n\n```text\n{}```",
            bars(&c.spectrum)
        );
    }
    if model {
        for m in &c.oeis {
            let _ = writeln!(out, "\n- Spectrum matches {}", md(m));
        }
        for p in &c.patterns {
            let _ = writeln!(out, "- Conjecture (open) from the spectrum: {}", md(p));
        }
    }
    if let Some(t) = c.cayley.as_ref().filter(|_| model) {
        let _ = writeln!(out, "\nA small model:\n\n```text\n{t}```");
    }
}

/// The report as Markdown. Every text that came from a model (or from the user) is escaped, and
/// prose is block-quoted, so that it reads literally and cannot add or fake a section.
pub fn markdown(r: &CycleReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Research Cycle {}\n", r.cycle);
    let _ = writeln!(out, "**Goal:** {}  ", md(&r.goal));
    let _ = writeln!(
        out,
        "**Run:** cycle {} of {} (run {})  ",
        r.run.index, r.run.of, r.run.key
    );
    let _ = writeln!(
        out,
        "**Started:** {} UTC  ",
        birkhoff_library::time::format_utc(r.started)
    );
    let _ = writeln!(
        out,
        "**Duration:** {:.1}s ({:.1}s waiting for the model)  ",
        r.seconds, r.llm_seconds
    );
    let _ = writeln!(out, "**Model:** {}\n", md(&r.llm));
    let _ = writeln!(out, "## Statistics\n- Candidates generated: {}\n- Candidates checked: {}\n- With models above size 1: {}\n- Discoveries added: {}\n- Conjectures tested: {}\n- Faults: {}\n", r.generated, r.checked, r.with_models, r.discoveries.len(), r.conjectures.len(), r.faults.len());
    // Discoveries first: they are what a reader opens the report for; the tool log comes last.
    let _ = writeln!(out, "## Discoveries\n");
    if r.discoveries.is_empty() {
        let _ = writeln!(out, "None.\n");
    }
    for d in &r.discoveries {
        let _ = writeln!(
            out,
            "### {} ({})\n\nFrom candidate {}. {}\n",
            md(&d.name),
            md(&d.id),
            md(&d.candidate.name),
            md(&d.notes)
        );
        if let Some(first) = &d.alias_of {
            let _ = writeln!(out, "Already in the library as **{}**, which stays its name; {} is recorded as an alias.\n", md(first), md(&d.name));
        }
        let _ = writeln!(out, "{}\n", d.literature.line());
        candidate_md(&mut out, &d.candidate, true);
        out.push('\n');
    }
    let _ = writeln!(out, "## Conjectures\n");
    if r.conjectures.is_empty() {
        let _ = writeln!(out, "None.\n");
    }
    for c in &r.conjectures {
        out += &settled_md(c);
    }
    let _ = writeln!(
        out,
        "\n## Decisions (by {})\n\n{}\n",
        r.decisions_by,
        md_block(&r.decisions.analysis)
    );
    for k in &r.decisions.keep {
        let _ = writeln!(
            out,
            "- Keep {} as **{}**: {}",
            md(&k.candidate),
            md(&k.name),
            md(&k.notes)
        );
    }
    for c in &r.decisions.conjectures {
        let _ = writeln!(
            out,
            "- Conjecture \\[{}\\] {}: {}",
            md(&c.theory),
            md(&c.statement),
            md(&c.rationale)
        );
    }
    let _ = writeln!(out, "\n## Faults\n");
    if r.faults.is_empty() {
        let _ = writeln!(out, "None.");
    }
    for f in &r.faults {
        let _ = writeln!(
            out,
            "- **{}**: {} — {}",
            md(&f.phase),
            md(&f.message),
            md(&f.handling)
        );
    }
    let _ = writeln!(out, "\n## Top candidates\n");
    if r.top.is_empty() {
        let _ = writeln!(out, "None.");
    }
    // The best few in full; the JSON report has all of them.
    for c in r.top.iter().take(TOP_IN_MARKDOWN) {
        let _ = writeln!(out, "### {}\n", md(&c.name));
        candidate_md(&mut out, c, false);
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "## Plan (by {})\n\n{}\n",
        r.plan_by,
        md_block(&r.plan.strategy)
    );
    for e in &r.plan.explorations {
        let _ = writeln!(
            out,
            "- Explore {} with {} at depth {}",
            md(&e.bases.join(", ")),
            if e.moves.is_empty() {
                "no moves (the bases themselves)".into()
            } else {
                md(&e.moves.join(", "))
            },
            e.depth
        );
    }
    let _ = writeln!(
        out,
        "- Check the best {} candidates up to size {}\n",
        r.plan.check_top, r.plan.max_size
    );
    // The routine calls (one per candidate) are summed up; the JSON report lists each.
    let _ = writeln!(out, "## What ran\n");
    for tool in ROUTINE {
        let calls: Vec<&ToolCall> = r.tool_calls.iter().filter(|t| t.tool == *tool).collect();
        if !calls.is_empty() {
            let failed = calls.iter().filter(|t| !t.ok).count();
            let _ = writeln!(
                out,
                "- {tool}: {} call(s), {failed} failed, {:.2}s in all",
                calls.len(),
                calls.iter().map(|t| t.seconds).sum::<f64>()
            );
        }
    }
    let _ = writeln!(
        out,
        "\n| tool | parameters | ok | result | seconds |\n|---|---|---|---|---|"
    );
    for t in r
        .tool_calls
        .iter()
        .filter(|t| !t.ok || !ROUTINE.contains(&t.tool.as_str()))
    {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} |",
            md(&t.tool),
            md(&t.params.to_string()),
            if t.ok { "yes" } else { "NO" },
            md(&t.summary),
            t.seconds
        );
    }
    out
}
