//! Open conjectures tried before a paper calls them open. An agent's run leaves a conjecture open
//! when its prover ran out of time, and such a conjecture is often false with a small
//! countermodel; a paper that lists it as open invites a referee to refute it in seconds. So
//! each open conjecture about the discovery is first evaluated in the models the library holds
//! for it, then given a short countermodel search (the prover's own, `prover::countermodel`); a
//! countermodel found is stored through [`birkhoff_library::settle`], as any disproof is, so that
//! the library, the web site and the paper all call the conjecture refuted.

use crate::gather::find_theory;
use crate::Result;
use birkhoff_checker::prover::countermodel::{self, Search};
use birkhoff_checker::prover::{Answer, Verdict};
use birkhoff_checker::Budget;
use birkhoff_engine::{eval, Structure};
use birkhoff_library::record::{Body, ConjectureStatus};
use birkhoff_library::settle::{settle, IfUndecided};
use birkhoff_library::Library;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How hard an open conjecture is tried.
#[derive(Clone, Debug)]
pub struct Trial {
    /// The largest size of the countermodel search (every sort up to it).
    pub max_size: u32,
    /// The countermodel search's time for one conjecture.
    pub time: Duration,
    /// Stops the searches early (Ctrl-C); what is not tried stays open.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Trial {
    /// Sizes up to 6 for 5 s each: the false conjectures agents leave open have had
    /// countermodels of size 6 found within seconds.
    fn default() -> Self {
        Trial {
            max_size: 6,
            time: Duration::from_secs(5),
            cancel: None,
        }
    }
}

/// What became of one open conjecture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tried {
    /// Refuted (and stored so): by a model the library held, or by the search.
    Refuted {
        /// The statement.
        statement: String,
        /// The countermodel's sizes.
        sizes: Vec<u32>,
        /// Whether the library held it already.
        in_hand: bool,
    },
    /// No countermodel found: still open, and why (the search's own words).
    StillOpen {
        /// The statement.
        statement: String,
        /// Why the search ended without one.
        why: String,
    },
}

/// Tries every open conjecture about `discovery` (a record ID, name or alias): the stored models
/// first, then a countermodel search within `trial`. Refutations are stored; the rest is left as
/// it was. A statement that no longer parses over the theory stays open, said so.
pub fn try_open_conjectures(
    lib: &mut Library,
    discovery: &str,
    trial: &Trial,
) -> Result<Vec<Tried>> {
    let (id, _, theory) = find_theory(lib, discovery)?;
    // Only what the evaluator confirms is a model refutes anything.
    let in_hand: Vec<Structure> = lib.structures_of(&id, &theory)?;
    let open: Vec<_> = lib
        .conjectures_of(&id)?
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Conjecture(c) if c.status == ConjectureStatus::Open => Some(c),
            _ => None,
        })
        .collect();
    let budget = Budget {
        cancel: trial.cancel.clone(),
        ..Budget::default()
    };
    let mut tried = Vec::with_capacity(open.len());
    for conjecture in open {
        let statement = conjecture.statement.clone();
        let goal = match birkhoff_library::statement::parse(&theory, &statement) {
            Ok(goal) => goal,
            Err(why) => {
                tried.push(Tried::StillOpen { statement, why });
                continue;
            }
        };
        let held = in_hand
            .iter()
            .find_map(|m| eval::falsify(&theory.sig, m, &goal).map(|witness| (m.clone(), witness)));
        let (found, is_in_hand) = match held {
            Some(found) => (found, true),
            None => {
                match countermodel::search(&theory, &goal, 1, trial.max_size, trial.time, &budget) {
                    Ok(Search::Found(c)) => ((c.model, c.witness), false),
                    Ok(Search::NoneUpTo) => {
                        let why = format!("no countermodel up to size {}", trial.max_size);
                        tried.push(Tried::StillOpen { statement, why });
                        continue;
                    }
                    Ok(Search::OutOfTime(why) | Search::CannotSearch(why)) => {
                        tried.push(Tried::StillOpen { statement, why });
                        continue;
                    }
                    Err(e) => {
                        let why = format!("the countermodel search failed: {e}");
                        tried.push(Tried::StillOpen { statement, why });
                        continue;
                    }
                }
            }
        };
        let (model, witness) = found;
        let sizes = model.sizes.clone();
        let answer = Answer {
            verdict: Verdict::Disproved { model, witness },
            attempts: Vec::new(),
            unknown_because: None,
        };
        settle(lib, conjecture, &theory, &goal, &answer, IfUndecided::Keep)?;
        tried.push(Tried::Refuted {
            statement,
            sizes,
            in_hand: is_in_hand,
        });
    }
    Ok(tried)
}
