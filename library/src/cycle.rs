//! What one research cycle did, as its report records it: the [`CycleReport`], with the plan it
//! carried out, the decisions it made (the language model's replies, [`Plan`] and [`Decisions`]),
//! its tool calls, candidates, discoveries, settled conjectures and faults.
//!
//! The agent writes a report ([`crate::Library::add_report`]) and the viewer, the `report`
//! command and the agent's next cycles read it ([`crate::Library::cycle_report`]); the types live
//! here, below all of them, so that a reader of reports needs no agent. The field names and the
//! optional fields' `serde` attributes are the stored JSON's (whose keys are sorted: see
//! [`crate::Library::add_report`]): changing one changes every report written after it.

use crate::placement::{PlacementRec, Relation};
use crate::record::{ConjectureStatus, Score, SpectrumRow};
use crate::text::md;
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// Candidates whose spectra triage counted (0 in reports from before triage).
    #[serde(default)]
    pub triaged: usize,
    /// Different spectra among the candidates triaged.
    #[serde(default)]
    pub spectra: usize,
    /// Candidates identified against the known theories (0 in reports from before triage).
    #[serde(default)]
    pub identified: usize,
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

/// The PLAN phase's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// The strategy in words (shown live and in the report).
    pub strategy: String,
    /// Explorations to run.
    pub explorations: Vec<Exploration>,
    /// How many of the best candidates to model-check, 1 to 50.
    pub check_top: usize,
    /// Largest model size to check, 1 to 8.
    pub max_size: u32,
    /// Conjectures about known theories to settle this cycle.
    #[serde(default)]
    pub prove: Vec<ConjectureProposal>,
    /// Library searches whose results are shown with this cycle's results.
    #[serde(default)]
    pub search: Vec<Search>,
}

/// One exploration: apply moves to base structures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exploration {
    /// Base structure names (seeds or earlier discoveries).
    pub bases: Vec<String>,
    /// Move names; empty checks the bases themselves.
    #[serde(default)]
    pub moves: Vec<String>,
    /// How many moves deep, from 1 (the agent bounds it).
    #[serde(default = "one")]
    pub depth: u32,
}

fn one() -> u32 {
    1
}

/// A conjecture to test: a formula over a theory's signature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConjectureProposal {
    /// The theory: a candidate of this cycle or a base structure, by name.
    pub theory: String,
    /// The statement in Birkhoff's syntax, such as `x * y = y * x`.
    pub statement: String,
    /// Why it might hold.
    #[serde(default)]
    pub rationale: String,
}

/// A library search (the `search_library` tool).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Search {
    /// Words that must all occur.
    pub query: String,
    /// Only theories scored at least this.
    #[serde(default)]
    pub min_score: Option<f64>,
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
    pub spectrum: Vec<SpectrumRow>,
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
    /// What its small models are made of, as ACT studied it (issue 51); `None` in reports
    /// written before the study, or when it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<StructureNote>,
    /// Where it sits among the known classes with its symbols, as ACT placed it (issue 51);
    /// `None` in reports written before the placement, or when it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<PlacementNote>,
}

/// What a discovery's small models are made of: the structure statements true in every model
/// up to a size, each stored as a conjecture of the discovery and settled by the prover (the open
/// ones are retested in later cycles like every open conjecture), and the structure theorems the
/// proved ones give.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StructureNote {
    /// The largest size surveyed.
    pub max_size: u32,
    /// Statements proved, each with a replayed certificate.
    pub proved: usize,
    /// Statements refuted by a larger countermodel the evaluator checked.
    pub refuted: usize,
    /// Statements left open.
    pub open: usize,
    /// The structure theorems the proved statements give, in words ("for every model S, ...").
    pub theorems: Vec<String>,
    /// Why nothing was surveyed, when nothing was (a theory with relations or several sorts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_surveyed: Option<String>,
}

impl StructureNote {
    /// One line: what was surveyed and the statements' fates, or why nothing was.
    pub fn summary(&self) -> String {
        if let Some(why) = &self.not_surveyed {
            return format!("not surveyed ({why})");
        }
        let theorems = match self.theorems.len() {
            0 => String::new(),
            1 => "; 1 structure theorem".to_string(),
            n => format!("; {n} structure theorems"),
        };
        format!(
            "{} structure statements true in every model up to size {}: {} proved, {} refuted at a larger size, {} open{theorems}",
            self.proved + self.refuted + self.open,
            self.max_size,
            self.proved,
            self.refuted,
            self.open
        )
    }
}

/// Where a discovery sits among the known classes with its symbols, read from its stored
/// placement record ([`PlacementRec`], whose every certificate and countermodel `backtest`
/// checks again): its nearest neighbours in the Hasse diagram, which shows only proved
/// containments, and how the other comparisons ended.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlacementNote {
    /// The placement record's ID.
    pub id: String,
    /// Classes compared (catalogue entries and earlier discoveries with the same symbols).
    pub compared: usize,
    /// The smallest classes compared that strictly contain it: its covers above.
    pub inside: Vec<String>,
    /// How many classes compared strictly contain it.
    pub above: usize,
    /// The largest classes compared that it strictly contains: its covers below.
    pub contains: Vec<String>,
    /// How many classes compared it strictly contains.
    pub below: usize,
    /// Classes compared that are the same class (each proves the other's axioms).
    pub same: Vec<String>,
    /// Classes with a model of each violating the other's axioms.
    pub incomparable: usize,
    /// Classes with an inclusion neither proved nor refuted in the time.
    pub undecided: usize,
    /// Classes with its symbols not compared for lack of time.
    pub not_reached: usize,
    /// The strongest classes over other symbols that a reduct of it was proved to lie in, each
    /// with the map ("abelian_group along * ↦ +, e ↦ r0, inv ↦ neg").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reducts: Vec<String>,
}

impl PlacementNote {
    /// The note of the stored placement `rec` of `theory`.
    pub fn of(rec: &PlacementRec, theory: &Theory) -> PlacementNote {
        let hasse = rec.hasse();
        let covers = |up: bool| -> Vec<String> {
            hasse
                .covers
                .iter()
                .filter_map(|&(lo, hi)| match (up, lo, hi) {
                    (true, 0, hi) => Some(hasse.nodes[hi].clone()),
                    (false, lo, 0) => Some(hasse.nodes[lo].clone()),
                    _ => None,
                })
                .collect()
        };
        let with = |r: Relation| rec.neighbours.iter().filter(move |n| n.relation() == r);
        PlacementNote {
            id: PlacementRec::id_for(&rec.theory_id),
            compared: rec.neighbours.len(),
            inside: covers(true),
            above: with(Relation::Above).count(),
            contains: covers(false),
            below: with(Relation::Below).count(),
            same: with(Relation::Same).map(|n| n.name.clone()).collect(),
            incomparable: with(Relation::Incomparable).count(),
            undecided: with(Relation::Undecided).count(),
            not_reached: rec.not_reached,
            reducts: rec
                .strongest_reducts(theory)
                .iter()
                .map(|r| format!("{} along {}", r.name, r.map_text()))
                .collect(),
        }
    }

    /// One line: the nearest classes on each side and how the other comparisons ended.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.inside.is_empty() {
            parts.push(format!(
                "strictly inside {} (nearest of {} above)",
                self.inside.join(", "),
                self.above
            ));
        }
        if !self.contains.is_empty() {
            parts.push(format!(
                "strictly contains {} (nearest of {} below)",
                self.contains.join(", "),
                self.below
            ));
        }
        if !self.same.is_empty() {
            parts.push(format!("the same class as {}", self.same.join(", ")));
        }
        if self.incomparable > 0 {
            parts.push(format!("incomparable with {}", self.incomparable));
        }
        if self.undecided > 0 {
            parts.push(format!("undecided against {}", self.undecided));
        }
        if self.not_reached > 0 {
            parts.push(format!("{} not compared in the time", self.not_reached));
        }
        if !self.reducts.is_empty() {
            parts.push(format!("a reduct lies in {}", self.reducts.join("; ")));
        }
        if parts.is_empty() {
            parts.push("no class placed".into());
        }
        format!(
            "among {} classes with its symbols: {}",
            self.compared + self.not_reached,
            parts.join("; ")
        )
    }
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

/// A conjecture tested this cycle.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settled {
    /// The theory's name.
    pub theory: String,
    /// The statement.
    pub statement: String,
    /// Who proposed it.
    pub proposed_by: String,
    /// Its fate.
    pub status: ConjectureStatus,
    /// What the fate rests on.
    pub evidence: String,
    /// The countermodel as Cayley tables, when refuted.
    pub countermodel: Option<String>,
    /// The proof as numbered equational steps, when proved and short enough to render.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
}

/// The INTERPRET phase's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decisions {
    /// The analysis in words.
    pub analysis: String,
    /// Discoveries to add.
    #[serde(default)]
    pub keep: Vec<Keep>,
    /// Conjectures to test.
    #[serde(default)]
    pub conjectures: Vec<ConjectureProposal>,
}

/// A candidate to add to the library.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keep {
    /// The candidate's name as listed in the results.
    pub candidate: String,
    /// The name to give the discovery: a letter, then letters, digits or `_` (the agent's schema bounds its length).
    pub name: String,
    /// Why it is kept.
    #[serde(default)]
    pub notes: String,
    /// Papers the model believes already describe this theory. They are never trusted: with
    /// `--literature` each is looked up by identifier and becomes a confirmed reference only if
    /// the record found matches (docs/LITERATURE.md). Never serialized, so that no report (which
    /// stores the decisions) can show one unverified; what the gate made of each is kept in the
    /// library's literature store.
    #[serde(default, skip_serializing)]
    pub references: Vec<ProposedReference>,
}

/// A reference a model proposes for a discovery: what it remembers of a paper, with at least one
/// identifier to look the paper up by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProposedReference {
    /// The title.
    pub title: String,
    /// The authors, as "First Last" or "Last, First"; at least one.
    pub authors: Vec<String>,
    /// The year of publication.
    #[serde(default)]
    pub year: Option<i32>,
    /// The arXiv identifier (`2301.12345`, `math/0601001`; a version suffix is dropped).
    #[serde(default)]
    pub arxiv: Option<String>,
    /// The DOI (`10.1000/xyz`, with or without `https://doi.org/`).
    #[serde(default)]
    pub doi: Option<String>,
    /// The zbMATH Open document id (digits).
    #[serde(default)]
    pub zbmath: Option<String>,
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
