//! What a discovery's finite models are made of, for its paper (issue 51). [`study_structure`]
//! surveys the small models ([`birkhoff_checker::survey`]) and stores the structure statements
//! true in all of them as conjectures, each settled by the prover (a replayed certificate or a
//! countermodel), so that the library, the web site and the paper agree; the paper then reads the
//! proved ones together as structure theorems ([`birkhoff_checker::prover::structural::compose`])
//! and shows the survey's table of simple and subdirectly irreducible models.

use crate::gather::find_theory;
use crate::Result;
use birkhoff_checker::prover::structural;
use birkhoff_checker::router::Engine;
use birkhoff_checker::survey::{self, Survey};
use birkhoff_checker::Budget;
use birkhoff_engine::anatomy::Algebra;
use birkhoff_engine::Theory;
use birkhoff_library::record::{ConjectureRec, StructureClaim};
use birkhoff_library::settle::settle_structure;
use birkhoff_library::Library;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How much of the models a structure study looks at, and what it may spend.
#[derive(Clone, Debug)]
pub struct Study {
    /// The largest size surveyed (every size from 1).
    pub max_size: u32,
    /// Most models analysed per size.
    pub sample: usize,
    /// Time for counting and analysing the models of every size together.
    pub time: Duration,
    /// The prover's time for each statement.
    pub per_statement: Duration,
    /// Time for placing the theory among known classes ([`crate::place_discovery`]).
    pub placement_time: Duration,
    /// The prover's time for each axiom of the placement.
    pub per_axiom: Duration,
    /// At most this many classes with the theory's symbols, and this many reducts, are compared
    /// (the likeliest first): a count, so that placing the same theory in the same library
    /// compares the same classes, whatever the machine's load. The agent bounds its placements
    /// by it (its reports are compared across resumed runs), with the time only a guard.
    pub placement_classes: usize,
    /// Catalogue entries the placement leaves out: the agent's hidden classes (`agent --hide`),
    /// which a rediscovery run must find without being shown.
    pub hidden: Vec<String>,
    /// Stops the study early (Ctrl-C): what is not tried is not stored.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Study {
    /// Sizes up to 5, 500 models each, 10 s, 1 s per statement: small models tell the structure
    /// statements apart (issue 51's example holds in every model up to order 4), and the prover
    /// settles each within a second or looks for a countermodel of the next sizes. The placement
    /// takes 30 s at most, half a second per axiom, comparing every class it reaches.
    fn default() -> Self {
        Study {
            max_size: 5,
            sample: 500,
            time: Duration::from_secs(10),
            per_statement: Duration::from_secs(1),
            placement_time: Duration::from_secs(30),
            per_axiom: Duration::from_millis(500),
            placement_classes: usize::MAX,
            hidden: Vec::new(),
            cancel: None,
        }
    }
}

/// Surveys `theory`'s models of sizes 1 to `study.max_size` within its time, with the structure
/// statements when `statements` is true; `None` for a theory that is not of algebras (several
/// sorts or relations), or when the counting fails.
pub fn survey_of(theory: &Theory, study: &Study, statements: bool) -> Option<Survey> {
    Algebra::check_signature(&theory.sig).ok()?;
    let opts = survey::Options {
        sizes: 1..=study.max_size,
        sample: study.sample,
        engine: Engine::Auto,
        statements: statements.then(|| structural::Options {
            per_statement: study.per_statement,
            cancel: study.cancel.clone(),
            ..structural::Options::default()
        }),
    };
    let budget = Budget {
        time: Some(study.time),
        cancel: study.cancel.clone(),
        ..Budget::default()
    };
    survey::survey(theory, &opts, &budget, |_| {}).ok()
}

/// Surveys `discovery` (a record ID, a name or an alias) and stores each structure statement the
/// prover tried as a conjecture ([`settle_structure`]); returns the conjectures stored (none for a
/// theory that is not of algebras).
pub fn study_structure(
    lib: &mut Library,
    discovery: &str,
    study: &Study,
) -> Result<Vec<ConjectureRec>> {
    let (id, _, theory) = find_theory(lib, discovery)?;
    let Some(found) = survey_of(&theory, study, true) else {
        return Ok(Vec::new());
    };
    Ok(settle_structure(lib, &id, &theory, &found.statements)?)
}

/// The structure theorems ([`structural::compose`]) that the `proved` claims (of structure
/// conjectures the library holds as proved) give together with what `theory`'s axioms state
/// outright ([`structural::axiom_facts`]), written in `notation`: the paper's theorems and the
/// agent's summary of a discovery are read from the same statements.
pub fn structure_theorems<'c>(
    theory: &Theory,
    proved: impl IntoIterator<Item = &'c StructureClaim>,
    notation: &dyn Fn(&str, &str) -> structural::Notation,
) -> Vec<structural::Theorem> {
    let mut facts: Vec<structural::Fact> = proved.into_iter().map(StructureClaim::fact).collect();
    facts.extend(structural::axiom_facts(theory));
    structural::compose(&facts, notation)
}
