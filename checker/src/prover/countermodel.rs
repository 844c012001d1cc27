//! Disproof by countermodel: a finite model of the theory in which the goal fails, found by the
//! first-model race of `find` (the native finder beside the SAT back end, [`crate::router`]) and
//! confirmed by the evaluator.
//!
//! The goal's universal variables become fresh constants and its body, negated, becomes one more
//! axiom; the race looks for a model of that extended theory, size by size. A model found is cut
//! back to the theory's signature and re-checked by `engine::eval` on the theory and on the goal
//! before it is reported.

use crate::budget::Budget;
use crate::finder::{FinderError, FirstModel};
use crate::router::{self, Engine};
use crate::spectrum::SizeTuples;
use birkhoff_engine::signature::{Fixity, FuncDecl, FuncId};
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarId};
use birkhoff_engine::{eval, Structure, Theory};
use serde::Serialize;
use std::time::{Duration, Instant};

/// A model of the theory that violates the goal, checked by the evaluator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Countermodel {
    /// The model (over the theory's signature).
    pub model: Structure,
    /// Values of the goal's universal variables at which it fails.
    pub witness: Vec<(String, u32)>,
}

/// What a countermodel search came to.
pub enum Search {
    /// A confirmed countermodel.
    Found(Countermodel),
    /// No countermodel at any of the sizes tried (each searched to the end).
    NoneUpTo,
    /// The time ran out (or Ctrl-C came) before the search was done: why. More time may find one.
    OutOfTime(String),
    /// The theory or goal is outside what this search can take: why. More time would not help.
    CannotSearch(String),
}

fn replace_vars(t: &Term, consts: &[(VarId, FuncId)]) -> Term {
    match t {
        Term::Var(v) => match consts.iter().find(|(w, _)| w == v) {
            Some(&(_, c)) => Term::App(c, vec![]),
            None => t.clone(),
        },
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| replace_vars(a, consts)).collect()),
    }
}

fn replace_in(f: &Formula, consts: &[(VarId, FuncId)]) -> Formula {
    f.map_terms(&mut |t| replace_vars(t, consts))
}

/// The theory plus fresh constants for the goal's universal variables and the negated goal body.
pub fn negated_goal_theory(theory: &Theory, goal: &Axiom) -> Theory {
    let (outer, body) = goal.universal_prefix();
    let mut ext = theory.clone();
    let mut consts = Vec::new();
    for v in outer {
        let d = &goal.vars[v.0 as usize];
        consts.push((v, FuncId(ext.sig.funcs.len() as u32)));
        std::sync::Arc::make_mut(&mut ext.sig).funcs.push(FuncDecl {
            name: format!("goal.{}", d.name),
            args: vec![],
            result: d.sort,
            fixity: Fixity::Prefix,
        });
    }
    let name = (0..)
        .map(|i| format!("negated_goal{i}"))
        .find(|n| theory.axiom(n).is_none())
        .expect("some name is free");
    ext.axioms.push(
        Axiom {
            name,
            formula: Formula::not(replace_in(body, &consts)),
            vars: goal.vars.clone(),
            origin: None,
        }
        .into(),
    );
    ext
}

/// Looks for a countermodel with every sort between `lo` and `hi` elements, within `time`.
/// `Err` only for an internal error (a model that fails the evaluator's check).
pub fn search(
    theory: &Theory,
    goal: &Axiom,
    lo: u32,
    hi: u32,
    time: Duration,
    budget: &Budget,
) -> Result<Search, FinderError> {
    let start = Instant::now();
    let ext = negated_goal_theory(theory, goal);
    for sizes in SizeTuples::between(theory.sig.sorts.len(), lo, hi) {
        // Most sizes are ruled out in a millisecond or two without the finder looking at the
        // cancel flag, so a lane told to stop would otherwise run on through dozens of sizes.
        if budget.cancelled() {
            return Ok(Search::OutOfTime(format!("stopped before sizes {sizes:?}")));
        }
        let Some(left) = time.checked_sub(start.elapsed()).filter(|d| !d.is_zero()) else {
            return Ok(Search::OutOfTime(format!(
                "time ran out before sizes {sizes:?}"
            )));
        };
        let b = Budget {
            time: Some(left),
            ..budget.clone()
        };
        let outcome = match router::first_as_written(Engine::Auto, &ext, &sizes, &b) {
            Ok(first) => first.outcome,
            Err(FinderError::Problem(e)) => {
                return Ok(Search::CannotSearch(format!(
                    "the finder cannot search sizes {sizes:?}: {e}"
                )))
            }
            Err(e) => return Err(e),
        };
        match outcome {
            FirstModel::Found { model } => return confirm(theory, goal, model).map(Search::Found),
            FirstModel::None => {}
            FirstModel::Unknown => {
                return Ok(Search::OutOfTime(format!(
                    "time ran out at sizes {sizes:?}"
                )))
            }
        }
    }
    Ok(Search::NoneUpTo)
}

/// Cuts the model of the extended theory back to the theory's signature and checks it.
pub(super) fn confirm(
    theory: &Theory,
    goal: &Axiom,
    mut model: Structure,
) -> Result<Countermodel, FinderError> {
    model.funcs.truncate(theory.sig.funcs.len());
    let unsound = |what: String| FinderError::Unsound {
        violation: what,
        model: model.to_json(&theory.sig).to_string(),
    };
    if let Err(v) = eval::check(theory, &model) {
        return Err(unsound(format!("{v} (in a countermodel)")));
    }
    match eval::falsify(&theory.sig, &model, goal) {
        Some(witness) => Ok(Countermodel { model, witness }),
        None => Err(unsound(
            "nothing: the goal holds in the claimed countermodel".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_engine::parse::parse_formula;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// A lane stopped because another decided must not run on through the sizes: here every
    /// size is ruled out at once (the goal holds in every left-zero band), so without the check
    /// before each size the search would go through all thirty and say none was found.
    #[test]
    fn a_cancelled_search_stops_before_the_next_size() {
        let text = "theory LeftZero\nfunc * : 2\naxiom left_zero: x * y = x\n";
        let t = Theory::parse(text, "left_zero.bk").unwrap();
        let goal = parse_formula(&t.sig, "(x * y) * z = x * (y * z)", "goal").unwrap();
        let run = |cancel: bool| {
            let budget = Budget {
                cancel: Some(Arc::new(AtomicBool::new(cancel))),
                ..Budget::default()
            };
            search(&t, &goal, 1, 30, Duration::from_secs(3600), &budget).unwrap()
        };
        assert!(matches!(run(false), Search::NoneUpTo));
        match run(true) {
            Search::OutOfTime(why) => assert_eq!(why, "stopped before sizes [1]"),
            _ => panic!("a cancelled search went on"),
        }
    }
}
