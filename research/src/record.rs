//! The research records: leads, attempts, hypotheses and tasks, one YAML file each under
//! `records/<kind>/<ID>.yaml`, and their schema. A file is read with serde-saphyr into the typed
//! record (`deny_unknown_fields`, enums for every status), then [`validate`]d in Rust: the ID
//! matches the file name, dates are well formed, text is bounded and free of control
//! characters, and every reference names a record that exists. Every fault is a [`Problem`]
//! naming the file and the field (with line and column where the YAML gives them); nothing
//! here panics on what a file holds.

use crate::text::quote;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// The schema version every record states.
pub const SCHEMA_VERSION: u32 = 1;

/// Longest title of a lead or task, in characters.
pub const MAX_TITLE: usize = 200;
/// Longest hypothesis statement.
pub const MAX_STATEMENT: usize = 1000;
/// Longest summary or notes.
pub const MAX_TEXT: usize = 4000;
/// Longest item of a list (evidence, artifacts).
pub const MAX_ITEM: usize = 500;
/// Most items in a list.
pub const MAX_ITEMS: usize = 100;
/// The largest record file read, in bytes: several times what the limits above let a record hold
/// (a few hundred KB), so only a file put there by hand reaches it. A larger file is a problem of
/// the record, not read: a 4 GB file at a record path would otherwise cost 4 GB in every command.
pub const MAX_RECORD_BYTES: u64 = 4 << 20;

/// The four kinds of record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Somewhere to look: a reference, a related class, an idea.
    Lead,
    /// Something that was tried, and how it went.
    Attempt,
    /// A statement believed or suspected, with its status.
    Hypothesis,
    /// Something to do.
    Task,
}

impl Kind {
    /// Every kind, in the order files and the synthesis list them.
    pub const ALL: [Kind; 4] = [Kind::Hypothesis, Kind::Task, Kind::Lead, Kind::Attempt];

    /// The directory under `records/`.
    pub fn dir(self) -> &'static str {
        match self {
            Kind::Lead => "leads",
            Kind::Attempt => "attempts",
            Kind::Hypothesis => "hypotheses",
            Kind::Task => "tasks",
        }
    }

    /// The ID prefix: `L`, `A`, `H`, `T`.
    pub fn prefix(self) -> char {
        match self {
            Kind::Lead => 'L',
            Kind::Attempt => 'A',
            Kind::Hypothesis => 'H',
            Kind::Task => 'T',
        }
    }

    /// The kind an ID such as `H-007` belongs to, if it is well formed.
    pub fn of_id(id: &str) -> Option<Kind> {
        let (p, n) = id.split_once('-')?;
        let kind = Kind::ALL
            .into_iter()
            .find(|k| p.len() == 1 && p.starts_with(k.prefix()))?;
        (n.len() >= 3 && n.len() <= 6 && n.bytes().all(|b| b.is_ascii_digit())).then_some(kind)
    }

    /// The ID with number `n`: `H-007`.
    pub fn id(self, n: u32) -> String {
        format!("{}-{n:03}", self.prefix())
    }
}

/// The research phases, which are also what an attempt or task belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Is it known? The literature agent's search.
    Literature,
    /// The open hypotheses against the prover.
    Proof,
    /// The spectrum to larger sizes.
    Computation,
    /// The paper (OUTPUT.tex).
    Writing,
    /// Nothing left to do.
    Done,
}

impl Phase {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Literature => "literature",
            Phase::Proof => "proof",
            Phase::Computation => "computation",
            Phase::Writing => "writing",
            Phase::Done => "done",
        }
    }
}

/// How urgent a lead or task is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Most urgent (sorts first).
    High,
    /// Normal.
    Medium,
    /// Least urgent.
    Low,
}

/// A lead's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadStatus {
    /// Not looked at yet.
    New,
    /// Being looked at.
    Investigating,
    /// Looked at, worth following.
    Promising,
    /// Looked at, nothing there.
    DeadEnd,
    /// Its content is in the proof or the paper.
    Incorporated,
}

/// How an attempt ended: how much of a step's work got done (not whether a statement holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It did what it set out to do.
    Success,
    /// Some of it.
    Partial,
    /// None of it.
    Failed,
}

/// Who made an attempt or a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The deterministic steps (`research step --llm offline`).
    Offline,
    /// A language model through the agent (`--llm claude`).
    Llm,
    /// A person editing the files.
    Human,
}

/// A hypothesis's state in the workspace: the library's
/// [`birkhoff_library::record::ConjectureStatus`] (open, refuted, proved) plus the workspace's
/// own `Incorporated`. Not the prover's answer ([`birkhoff_checker::prover::Verdict`]), which a
/// proof step turns into one of these. The stored words are `active`, `refuted`, `proven` and
/// `incorporated`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HypothesisStatus {
    /// Neither proved nor refuted: the proof step tries it.
    Active,
    /// A countermodel, checked by the evaluator, shows it false.
    Refuted,
    /// Proved with a replayed certificate (stored as `proven`, the word of the first workspaces).
    #[serde(rename = "proven")]
    Proved,
    /// Set aside or folded into another statement.
    Incorporated,
}

/// How strongly a hypothesis is believed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// True in every model checked, say.
    High,
    /// Some evidence.
    Medium,
    /// A guess.
    Low,
}

/// A task's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Not started.
    Todo,
    /// Under way.
    Doing,
    /// Waiting on the tasks in `blocked_on`.
    Blocked,
    /// Finished.
    Done,
}

/// A lead: somewhere to look.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lead {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `L-001`, ...
    pub id: String,
    /// What it is, in one line.
    pub title: String,
    /// Its state.
    pub status: LeadStatus,
    /// How urgent.
    pub priority: Priority,
    /// A literature reference number (`REF-001`, `UREF-002`) or a URL, if it has one.
    #[serde(default)]
    pub reference: Option<String>,
    /// Free notes.
    #[serde(default)]
    pub notes: String,
    /// Who added it.
    pub by: Actor,
    /// When it was added (`YYYY-MM-DDTHH:MM:SSZ`).
    pub created: String,
    /// When it last changed.
    pub updated: String,
}

/// An attempt: something tried, and how it went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `A-001`, ...
    pub id: String,
    /// Which phase it belongs to.
    pub phase: Phase,
    /// How it ended.
    pub outcome: Outcome,
    /// What was done and found.
    pub summary: String,
    /// The budget it had, in words (`spectrum to size 6, 20 s per size`).
    #[serde(default)]
    pub budget: String,
    /// The hypotheses it worked on.
    #[serde(default)]
    pub hypotheses: Vec<String>,
    /// What it left: library record IDs, files.
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Who made it.
    pub by: Actor,
    /// When.
    pub created: String,
}

/// A hypothesis: a statement, in Birkhoff's syntax over the discovery's signature when the
/// prover is to try it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hypothesis {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `H-001`, ...
    pub id: String,
    /// The statement.
    pub statement: String,
    /// Its state.
    pub status: HypothesisStatus,
    /// How strongly it is believed.
    pub confidence: Confidence,
    /// The library's conjecture record (`cnj-...`) it mirrors, if any.
    #[serde(default)]
    pub conjecture: Option<String>,
    /// What supports or settles it, one line each, oldest first.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// Free notes.
    #[serde(default)]
    pub notes: String,
    /// Who added it.
    pub by: Actor,
    /// When it was added.
    pub created: String,
    /// When it last changed.
    pub updated: String,
}

/// A task: something to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `T-001`, ...
    pub id: String,
    /// What to do, in one line.
    pub title: String,
    /// Its state.
    pub status: TaskStatus,
    /// How urgent.
    pub priority: Priority,
    /// The phase it serves, if one.
    #[serde(default)]
    pub phase: Option<Phase>,
    /// Tasks it waits for.
    #[serde(default)]
    pub blocked_on: Vec<String>,
    /// Other records it concerns (leads, hypotheses, attempts).
    #[serde(default)]
    pub links: Vec<String>,
    /// Who added it.
    pub by: Actor,
    /// When it was added.
    pub created: String,
    /// When it last changed.
    pub updated: String,
}

/// One record of any kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// A lead.
    Lead(Lead),
    /// An attempt.
    Attempt(Attempt),
    /// A hypothesis.
    Hypothesis(Hypothesis),
    /// A task.
    Task(Task),
}

impl Record {
    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Record::Lead(_) => Kind::Lead,
            Record::Attempt(_) => Kind::Attempt,
            Record::Hypothesis(_) => Kind::Hypothesis,
            Record::Task(_) => Kind::Task,
        }
    }

    /// Its ID.
    pub fn id(&self) -> &str {
        match self {
            Record::Lead(r) => &r.id,
            Record::Attempt(r) => &r.id,
            Record::Hypothesis(r) => &r.id,
            Record::Task(r) => &r.id,
        }
    }

    /// The record as YAML (serde-saphyr), ending in a newline: what its file holds.
    pub fn to_yaml(&self) -> String {
        let text = match self {
            Record::Lead(r) => serde_saphyr::to_string(r),
            Record::Attempt(r) => serde_saphyr::to_string(r),
            Record::Hypothesis(r) => serde_saphyr::to_string(r),
            Record::Task(r) => serde_saphyr::to_string(r),
        };
        // Plain structs of strings, numbers, enums and lists always serialize.
        let mut text = text.unwrap_or_default();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }

    /// Reads a record of `kind` from YAML `text`; `file` names it in problems.
    pub fn parse(kind: Kind, file: &str, text: &str) -> Result<Record, Problem> {
        fn de<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, Problem> {
            serde_saphyr::from_str::<T>(text).map_err(|e| Problem::from_yaml(file, text, &e))
        }
        Ok(match kind {
            Kind::Lead => Record::Lead(de(file, text)?),
            Kind::Attempt => Record::Attempt(de(file, text)?),
            Kind::Hypothesis => Record::Hypothesis(de(file, text)?),
            Kind::Task => Record::Task(de(file, text)?),
        })
    }
}

/// One fault in a record file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Problem {
    /// The file, relative to the workspace (`records/hypotheses/H-001.yaml`).
    pub file: String,
    /// The field (`status`, `blocked_on[1]`), or `-` when the file as a whole is wrong.
    pub field: String,
    /// The line (1-based), when known.
    pub line: Option<u64>,
    /// The column (1-based), when known.
    pub column: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": field `{}`: {}", self.field, self.message)
    }
}

impl Problem {
    /// A problem with `field` of `file`, placed at the field's line when `text` has it as a
    /// top-level key.
    pub fn at(file: &str, text: &str, field: &str, message: impl Into<String>) -> Problem {
        let key = field.split(['[', '.']).next().unwrap_or(field);
        let line = text
            .lines()
            .position(|l| {
                l.strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start().starts_with(':'))
            })
            .map(|i| i as u64 + 1);
        Problem {
            file: file.into(),
            field: field.into(),
            line,
            column: line.map(|_| 1),
            message: message.into(),
        }
    }

    /// A parse error as a problem: serde's messages name a missing or unknown field; otherwise
    /// the field is the top-level key at or above the error's line.
    fn from_yaml(file: &str, text: &str, e: &serde_saphyr::Error) -> Problem {
        let full = e.to_string();
        let first = full.lines().next().unwrap_or("not valid YAML").trim();
        // serde-saphyr says "error: line L column C: what"; the place is given apart.
        let message = first.strip_prefix("error: ").unwrap_or(first);
        let message = message
            .strip_prefix("line ")
            .and_then(|m| m.split_once(": "))
            .map_or(message, |(_, m)| m)
            .to_string();
        let loc = e.location();
        let (mut line, mut column) = (
            loc.map(|l| l.line()).filter(|&l| l > 0),
            loc.map(|l| l.column()).filter(|&c| c > 0),
        );
        let missing = full.contains("missing field `");
        if missing {
            // The parser points at the end of the mapping, which is not where the field is.
            (line, column) = (None, None);
        }
        let named = ["missing field `", "unknown field `"].iter().find_map(|p| {
            full.split_once(p)
                .and_then(|(_, rest)| rest.split_once('`'))
                .map(|(f, _)| f.to_string())
        });
        let field = named
            .or_else(|| line.and_then(|l| key_above(text, l)))
            .unwrap_or_else(|| "-".into());
        Problem {
            file: file.into(),
            field,
            line,
            column,
            message,
        }
    }
}

/// The top-level key on line `line` (1-based) or the nearest line above it that has one.
fn key_above(text: &str, line: u64) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let last = usize::try_from(line).ok()?.min(lines.len());
    lines[..last].iter().rev().find_map(|l| {
        let starts = l
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        l.split_once(':')
            .filter(|_| starts)
            .map(|(k, _)| k.trim().to_string())
    })
}

/// Whether `s` is `YYYY-MM-DDTHH:MM:SSZ` naming a real instant (months of their length, leap
/// years counted).
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return false;
    }
    let num = |r: std::ops::Range<usize>| {
        s.get(r)
            .filter(|d| d.bytes().all(|c| c.is_ascii_digit()))
            .and_then(|d| d.parse::<u32>().ok())
    };
    let (Some(y), Some(m), Some(d), Some(h), Some(mi), Some(se)) = (
        num(0..4),
        num(5..7),
        num(8..10),
        num(11..13),
        num(14..16),
        num(17..19),
    ) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d) && h < 24 && mi < 60 && se < 60
}

/// Checks one parsed record against the schema. `ids` holds every record ID of the workspace
/// (for references); `stem` is the file's name without `.yaml`.
pub fn validate(
    rec: &Record,
    file: &str,
    text: &str,
    stem: &str,
    ids: &BTreeSet<String>,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut p = |field: &str, message: String| out.push(Problem::at(file, text, field, message));
    let kind = rec.kind();
    let (version, created, updated) = match rec {
        Record::Lead(r) => (r.schema_version, &r.created, Some(&r.updated)),
        Record::Attempt(r) => (r.schema_version, &r.created, None),
        Record::Hypothesis(r) => (r.schema_version, &r.created, Some(&r.updated)),
        Record::Task(r) => (r.schema_version, &r.created, Some(&r.updated)),
    };
    if version != SCHEMA_VERSION {
        p(
            "schema_version",
            format!("is {version}; this Birkhoff reads version {SCHEMA_VERSION}"),
        );
    }
    let id = rec.id();
    if Kind::of_id(id) != Some(kind) {
        p(
            "id",
            format!(
                "`{}` is not a {} ID (like `{}`)",
                quote(id),
                kind.dir(),
                kind.id(1)
            ),
        );
    } else if id != stem {
        p(
            "id",
            format!("`{id}` differs from the file name `{stem}.yaml`"),
        );
    }
    for (field, value) in [("created", Some(created)), ("updated", updated)] {
        if let Some(v) = value {
            if !is_timestamp(v) {
                p(
                    field,
                    format!("`{}` is not a UTC time like 2026-01-31T09:30:00Z", quote(v)),
                );
            }
        }
    }
    if let Some(u) = updated {
        if is_timestamp(u) && is_timestamp(created) && u < created {
            p("updated", format!("{u} is before created ({created})"));
        }
    }
    let mut text_field = |field: &str, value: &str, max: usize, required: bool| {
        if required && value.trim().is_empty() {
            p(field, "is empty".into());
        }
        if value.chars().count() > max {
            p(
                field,
                format!("has {} characters; at most {max}", value.chars().count()),
            );
        }
        if value
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
        {
            p(field, "holds a control character".into());
        }
    };
    match rec {
        Record::Lead(r) => {
            text_field("title", &r.title, MAX_TITLE, true);
            text_field("notes", &r.notes, MAX_TEXT, false);
            if let Some(x) = &r.reference {
                text_field("reference", x, MAX_ITEM, true);
            }
        }
        Record::Attempt(r) => {
            text_field("summary", &r.summary, MAX_TEXT, true);
            text_field("budget", &r.budget, MAX_ITEM, false);
            for (i, a) in r.artifacts.iter().enumerate() {
                text_field(&format!("artifacts[{i}]"), a, MAX_ITEM, true);
            }
        }
        Record::Hypothesis(r) => {
            text_field("statement", &r.statement, MAX_STATEMENT, true);
            text_field("notes", &r.notes, MAX_TEXT, false);
            for (i, e) in r.evidence.iter().enumerate() {
                text_field(&format!("evidence[{i}]"), e, MAX_ITEM, true);
            }
        }
        Record::Task(r) => text_field("title", &r.title, MAX_TITLE, true),
    }
    let lists: Vec<(&str, &Vec<String>)> = match rec {
        Record::Attempt(r) => vec![("hypotheses", &r.hypotheses), ("artifacts", &r.artifacts)],
        Record::Hypothesis(r) => vec![("evidence", &r.evidence)],
        Record::Task(r) => vec![("blocked_on", &r.blocked_on), ("links", &r.links)],
        Record::Lead(_) => vec![],
    };
    for (field, list) in lists {
        if list.len() > MAX_ITEMS {
            p(
                field,
                format!("has {} items; at most {MAX_ITEMS}", list.len()),
            );
        }
    }
    // References: each must name a record of the right kind that exists.
    let refs: Vec<(&str, &Vec<String>, Option<Kind>)> = match rec {
        Record::Attempt(r) => vec![("hypotheses", &r.hypotheses, Some(Kind::Hypothesis))],
        Record::Task(r) => vec![
            ("blocked_on", &r.blocked_on, Some(Kind::Task)),
            ("links", &r.links, None),
        ],
        _ => vec![],
    };
    for (field, list, want) in refs {
        for (i, target) in list.iter().enumerate() {
            let field = format!("{field}[{i}]");
            match Kind::of_id(target) {
                Some(k) if want.is_some_and(|w| w != k) => p(
                    &field,
                    format!(
                        "`{target}` is a {}, not a {}",
                        k.dir(),
                        want.map_or("", |w| w.dir())
                    ),
                ),
                Some(_) if !ids.contains(target) => p(
                    &field,
                    format!("`{target}` refers to no record of this workspace"),
                ),
                Some(_) => {}
                None => p(&field, format!("`{}` is not a record ID", quote(target))),
            }
        }
    }
    if let Record::Task(t) = rec {
        if t.blocked_on.iter().any(|b| b == &t.id) {
            p("blocked_on", "a task cannot wait for itself".into());
        }
    }
    if let Record::Hypothesis(h) = rec {
        if let Some(c) = &h.conjecture {
            if birkhoff_library::id::dir_of(c) != Some("conjectures") {
                p(
                    "conjecture",
                    format!("`{}` is not a conjecture record ID (cnj-...)", quote(c)),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::HypothesisStatus;

    #[test]
    fn hypothesis_statuses_keep_their_stored_words() {
        let statuses = [
            HypothesisStatus::Active,
            HypothesisStatus::Refuted,
            HypothesisStatus::Proved,
            HypothesisStatus::Incorporated,
        ];
        let words: Vec<serde_json::Value> = statuses
            .iter()
            .map(|s| serde_json::to_value(s).unwrap())
            .collect();
        assert_eq!(words, ["active", "refuted", "proven", "incorporated"]);
    }
}
