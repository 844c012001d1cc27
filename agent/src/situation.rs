//! What the agent knows at a phase: the goal, the base structures with their axioms and spectra,
//! the moves and tools available, earlier cycles, open conjectures, and this cycle's results.
//! Prompts are rendered from it ([`crate::prompt`]) and the offline strategist reads it directly.

use crate::schema::Plan;
use birkhoff_checker::finder::IsoClass;
use birkhoff_engine::Theory;
pub use birkhoff_library::cycle::Settled;
use birkhoff_library::record::{Score, SpectrumRow};
use serde::{Deserialize, Serialize};

/// A structure the agent may explore from: a seed or an earlier discovery.
#[derive(Clone, Debug)]
pub struct Base {
    /// The name plans use (a seed's file name, or the discovery's name).
    pub name: String,
    /// The theory.
    pub theory: Theory,
    /// Its stored spectrum, if the library has one.
    pub spectrum: Option<Vec<SpectrumRow>>,
    /// Its score, if known.
    pub score: Option<Score>,
    /// Whether it is a discovery of an earlier cycle.
    pub discovery: bool,
    /// Its library record's ID, when it is stored (discoveries are).
    pub record: Option<String>,
}

/// A candidate of this cycle and what was learnt about it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// A unique name within the cycle.
    pub name: String,
    /// The theory.
    pub theory: Theory,
    /// How it arose (`base` or the moves applied).
    pub origin: String,
    /// Names of the structures it came from.
    pub parents: Vec<String>,
    /// Its score, when the scorer ran.
    pub score: Option<Score>,
    /// Its spectrum rows, by size (empty until checked).
    pub spectrum: Vec<SpectrumRow>,
    /// Every isomorphism class found, smallest sizes first (each passed the evaluator).
    pub models: Vec<IsoClass>,
    /// Each axiom's independence, as `check_models` gathered it.
    pub independence: Option<Vec<birkhoff_scorer::independence::AxiomIndependence>>,
    /// Whether models were checked.
    pub checked: bool,
    /// Why it shows nothing new compared with a parent (see [`crate::parent::no_new_models`]),
    /// when that is so.
    pub same_as_parent: Option<String>,
    /// The spectrum of the parent it came from (the first of its parents checked this cycle or
    /// stored in the library), against which a goal's "few models" or "many models" is judged.
    pub parent_spectrum: Option<Vec<SpectrumRow>>,
    /// What it is, against the seeds, the catalogue, earlier discoveries and the better-ranked
    /// candidates of this cycle ([`birkhoff_scorer::identify::standing`]); `None` when it was not
    /// identified (not checked, no model above size 1, or its parent's models).
    pub standing: Option<birkhoff_scorer::identify::Standing>,
    /// Why the literature knows it (confirmed references, OEIS sequences:
    /// [`crate::report::LiteratureNote::known_because`]) when a search said so; its novelty is
    /// then 0, as for a theory identified with a known one.
    pub in_literature: Option<String>,
}

impl Candidate {
    /// A candidate not yet checked.
    pub fn new(name: String, theory: Theory, origin: String, parents: Vec<String>) -> Candidate {
        Candidate {
            name,
            theory,
            origin,
            parents,
            score: None,
            spectrum: vec![],
            models: vec![],
            independence: None,
            checked: false,
            same_as_parent: None,
            parent_spectrum: None,
            standing: None,
            in_literature: None,
        }
    }

    /// Sizes (single-sorted: the size; else the product) with at least one model.
    pub fn sizes_with_models(&self) -> Vec<String> {
        self.spectrum
            .iter()
            .filter(|r| r.iso.value > 0)
            .map(|r| birkhoff_checker::sizes_label(&r.sizes))
            .collect()
    }
}

/// What one earlier cycle did, as remembered from its report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// The cycle's number.
    pub cycle: u64,
    /// Its strategy.
    pub strategy: String,
    /// Base structures explored.
    pub bases: Vec<String>,
    /// Moves used.
    pub moves: Vec<String>,
    /// Discoveries kept.
    pub kept: Vec<String>,
    /// Conjectures and their fate, as `[theory] statement: status`.
    pub conjectures: Vec<String>,
}

/// An open conjecture from the library.
#[derive(Clone, Debug)]
pub struct OpenConjecture {
    /// The theory's name.
    pub theory: String,
    /// The statement.
    pub statement: String,
    /// What is known.
    pub evidence: String,
}

/// Whether a tool can run in this build.
#[derive(Clone, Debug, Serialize)]
pub struct ToolStatus {
    /// The tool.
    pub name: &'static str,
    /// Whether it is available.
    pub available: bool,
    /// What it does, or why it is not available.
    pub note: String,
}

/// How much one cycle of the offline strategist explores ([`crate::offline::plan`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Breadth {
    /// Two bases and two moves a cycle, the best 20 candidates checked, two kept: about half a
    /// minute a cycle in a release build.
    #[default]
    Narrow,
    /// Five seeds or discoveries a cycle, with the structural moves and one more, the best 50
    /// checked, 24 identified, three kept: wider and slower (the rediscovery benchmark's).
    Wide,
}

/// Everything a phase is decided from.
#[derive(Clone, Debug)]
pub struct Situation {
    /// The research goal.
    pub goal: String,
    /// Bases named with `--base`, preferred by the planner.
    pub preferred: Vec<String>,
    /// This cycle's position in the run (1-based) and the run's length.
    pub run_index: u32,
    /// The run's length in cycles.
    pub run_of: u32,
    /// How much the offline strategist explores each cycle (`agent --breadth`).
    pub breadth: Breadth,
    /// Structures to explore from.
    pub bases: Vec<Base>,
    /// Moves the explore tool knows.
    pub moves: Vec<String>,
    /// The six tools and their availability.
    pub tools: Vec<ToolStatus>,
    /// Earlier cycles, oldest first.
    pub history: Vec<Memory>,
    /// Open conjectures from the library.
    pub open_conjectures: Vec<OpenConjecture>,
    /// The plan being carried out (interpret phase).
    pub plan: Option<Plan>,
    /// Candidates generated this cycle.
    pub generated: usize,
    /// Candidates whose spectra triage counted this cycle (`triage.rs`).
    pub triaged: usize,
    /// Different spectra among them.
    pub spectra: usize,
    /// Candidates identified against the known theories this cycle.
    pub identified: usize,
    /// Candidates checked this cycle, best first (interpret phase).
    pub candidates: Vec<Candidate>,
    /// Conjectures from the plan, already tested (interpret phase).
    pub settled: Vec<Settled>,
    /// The plan's library searches and what they found (`id kind name score`).
    pub found_in_library: Vec<(String, Vec<String>)>,
    /// The catalogue entries hidden from this run (the rediscovery benchmark's `--hide`): names
    /// are not made from them either.
    pub hidden: Vec<String>,
}

impl Situation {
    /// Names of the bases, as plans must spell them.
    pub fn base_names(&self) -> Vec<String> {
        self.bases.iter().map(|b| b.name.clone()).collect()
    }

    /// Names of this cycle's candidates.
    pub fn candidate_names(&self) -> Vec<String> {
        self.candidates.iter().map(|c| c.name.clone()).collect()
    }

    /// Checks that `text` parses as a statement over the named base's or candidate's signature.
    pub fn check_statement(&self, theory: &str, text: &str) -> Result<(), String> {
        let named = self
            .bases
            .iter()
            .map(|b| (&b.name, &b.theory))
            .chain(self.candidates.iter().map(|c| (&c.name, &c.theory)))
            .find(|(n, _)| *n == theory);
        match named {
            Some((_, t)) => birkhoff_library::statement::parse(t, text).map(|_| ()),
            None => Err(format!("unknown theory `{theory}`")),
        }
    }

    /// Whether a tool is available.
    pub fn has_tool(&self, name: &str) -> bool {
        self.tools.iter().any(|t| t.name == name && t.available)
    }
}
