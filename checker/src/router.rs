//! Which engine answers: the native finder, Z3, a documented automatic choice, or both with a
//! cross-check. Commands call [`enumerate`] and [`first`] here instead of the engines directly.
//!
//! # The `auto` rule
//!
//! `auto` picks the native finder, except for a first-model question (`find`) on a theory with
//! an existential quantifier at a size of 6 or more, which goes to Z3: the native finder only
//! evaluates such axioms on complete assignments (it cannot propagate them), whereas Z3 reasons
//! about the expanded disjunctions directly. Enumeration and counting always go to the native
//! finder, which is at least ten times faster on the seeds (docs/BENCHMARKS.md, Issue 5). Without
//! the `z3` feature, `auto` is always native.
//!
//! # `both`
//!
//! Runs both engines and compares what each finished: exact counts must be equal and their sets
//! of isomorphism classes (canonical forms with |Aut|) identical; a count cut short by a budget
//! must not exceed an exact one, and its classes must be among the exact one's. A first-model
//! question fails the check when one engine finds a model and the other proves there is none.
//! Any disagreement is [`FinderError::Disagreement`], carrying both answers. When they agree
//! the native answer is returned.

use crate::budget::{Budget, Status};
use crate::finder::{self, Enumeration, FinderError, FirstModel, Options};
use birkhoff_engine::syntax::Formula;
use birkhoff_engine::Theory;
use std::time::Duration;

/// An engine choice, as given by `--engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// Birkhoff's own finder.
    Native,
    /// The Z3 backend.
    Z3,
    /// Chosen per theory and size by the rule in the module doc.
    Auto,
    /// Both, compared; a disagreement is an error.
    Both,
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        match s {
            "native" => Ok(Engine::Native),
            "z3" => Ok(Engine::Z3),
            "auto" => Ok(Engine::Auto),
            "both" => Ok(Engine::Both),
            _ => Err(format!("`{s}` is not an engine: use native, z3, auto or both")),
        }
    }
}

/// What a question asks for, as far as the `auto` rule cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// One model.
    First,
    /// Every isomorphism class (and the counts).
    Enumerate,
}

/// Whether `f` (true when `positive`, else false) asserts an existential: an `exists` in positive
/// position or an `all` in negative position.
fn has_exists(f: &Formula, positive: bool) -> bool {
    match f {
        Formula::Exists(_, g) => positive || has_exists(g, positive),
        Formula::Forall(_, g) => !positive || has_exists(g, positive),
        Formula::Not(g) => has_exists(g, !positive),
        Formula::And(a, b) | Formula::Or(a, b) => has_exists(a, positive) || has_exists(b, positive),
        Formula::Implies(a, b) => has_exists(a, !positive) || has_exists(b, positive),
        Formula::Iff(a, b) => [a, b].iter().any(|g| has_exists(g, true) || has_exists(g, false)),
        _ => false,
    }
}

/// The engine `auto` picks for this question (the module doc states the rule).
pub fn auto(t: &Theory, sizes: &[u32], q: Question) -> Engine {
    let existential = t.axioms.iter().any(|a| has_exists(&a.formula, true));
    if cfg!(feature = "z3") && q == Question::First && existential && sizes.iter().any(|&n| n >= 6) {
        Engine::Z3
    } else {
        Engine::Native
    }
}

#[cfg(not(feature = "z3"))]
fn no_z3() -> FinderError {
    FinderError::Encoding("this birkhoff was built without Z3 (cargo feature `z3`, which needs the Debian package libz3-dev); use --engine native".into())
}

/// Models of one size up to isomorphism, from the chosen engine(s).
pub fn enumerate(engine: Engine, t: &Theory, sizes: &[u32], budget: &Budget) -> Result<Enumeration, FinderError> {
    match engine {
        Engine::Native => finder::enumerate(t, sizes, budget, Options::default()),
        #[cfg(feature = "z3")]
        Engine::Z3 => crate::z3::enumerate(t, sizes, budget),
        #[cfg(not(feature = "z3"))]
        Engine::Z3 => Err(no_z3()),
        Engine::Auto => enumerate(auto(t, sizes, Question::Enumerate), t, sizes, budget),
        Engine::Both => {
            let native = enumerate(Engine::Native, t, sizes, budget)?;
            let z3 = enumerate(Engine::Z3, t, sizes, budget)?;
            compare_enumerations(&native, &z3)?;
            Ok(native)
        }
    }
}

/// The first model of one size, from the chosen engine(s).
pub fn first(engine: Engine, t: &Theory, sizes: &[u32], budget: &Budget) -> Result<(FirstModel, u64, Duration), FinderError> {
    match engine {
        Engine::Native => finder::first(t, sizes, budget, Options::default()),
        #[cfg(feature = "z3")]
        Engine::Z3 => crate::z3::first(t, sizes, budget),
        #[cfg(not(feature = "z3"))]
        Engine::Z3 => Err(no_z3()),
        Engine::Auto => first(auto(t, sizes, Question::First), t, sizes, budget),
        Engine::Both => {
            let native = first(Engine::Native, t, sizes, budget)?;
            let z3 = first(Engine::Z3, t, sizes, budget)?;
            let word = |f: &FirstModel| match f {
                FirstModel::Found { .. } => "a model",
                FirstModel::None => "no model (search finished)",
                FirstModel::Unknown => "unknown",
            };
            if matches!((&native.0, &z3.0), (FirstModel::Found { .. }, FirstModel::None) | (FirstModel::None, FirstModel::Found { .. })) {
                return Err(FinderError::Disagreement { native: word(&native.0).into(), z3: word(&z3.0).into() });
            }
            Ok(native)
        }
    }
}

fn summary(e: &Enumeration) -> String {
    format!("iso {}, labeled {}", e.iso, e.labeled)
}

/// Checks two answers to the same enumeration against each other (module doc, `both`).
pub fn compare_enumerations(native: &Enumeration, z3: &Enumeration) -> Result<(), FinderError> {
    let disagree = |why: &str| Err(FinderError::Disagreement { native: format!("{} ({why})", summary(native)), z3: summary(z3) });
    let exact = |e: &Enumeration| e.iso.status == Status::Exact;
    let contains = |big: &Enumeration, small: &Enumeration| small.classes.iter().all(|c| big.classes.contains(c));
    match (exact(native), exact(z3)) {
        (true, true) if native.iso != z3.iso || native.labeled != z3.labeled => disagree("counts differ"),
        (true, true) if native.classes != z3.classes => disagree("the isomorphism classes differ"),
        (true, false) if z3.iso.value > native.iso.value || !contains(native, z3) => disagree("z3's partial answer has a class native's exact one lacks"),
        (false, true) if native.iso.value > z3.iso.value || !contains(z3, native) => disagree("native's partial answer has a class z3's exact one lacks"),
        _ => Ok(()),
    }
}
