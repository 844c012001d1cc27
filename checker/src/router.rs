//! Which engine answers: the native finder, Z3, a documented automatic choice, or both with a
//! cross-check. Commands call [`enumerate`] and [`first`] here instead of the engines directly.
//!
//! # The `auto` rule
//!
//! `auto` is the native finder, and Z3 when the native finder cannot take the problem at these
//! sizes (more than a million table cells or 50 million ground instances; both engines stop at
//! 64 elements per sort). With lex-leader pruning the native finder is faster than Z3 on every seed and on
//! every first-model benchmark instance measured (docs/BENCHMARKS.md, issues 4 and 5), including
//! theories with existential axioms, which it searches Skolemized. Without the `z3` feature,
//! `auto` is always native.
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
use crate::problem::ProblemError;
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

/// Runs `native`; for `auto`, falls back to `z3` when the native finder cannot take the problem.
fn native_else_z3<R>(native: impl FnOnce() -> Result<R, FinderError>, z3: impl FnOnce() -> Result<R, FinderError>) -> Result<R, FinderError> {
    match native() {
        Err(FinderError::Problem(ProblemError::TooManyCells(_) | ProblemError::TooManyInstances(_))) if cfg!(feature = "z3") => z3(),
        other => other,
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
        Engine::Auto => native_else_z3(|| enumerate(Engine::Native, t, sizes, budget), || enumerate(Engine::Z3, t, sizes, budget)),
        Engine::Both => {
            let native = enumerate(Engine::Native, t, sizes, budget)?;
            let z3 = enumerate(Engine::Z3, t, sizes, budget)?;
            compare_enumerations(&native, &z3)?;
            Ok(native)
        }
    }
}

/// [`enumerate`] for its counts alone: the native finder then does not build the classes'
/// representatives (every class is still checked by the evaluator). Comparing the engines
/// (`Both`) still compares their classes.
pub fn count(engine: Engine, t: &Theory, sizes: &[u32], budget: &Budget) -> Result<Enumeration, FinderError> {
    match engine {
        Engine::Native => finder::enumerate(t, sizes, budget, Options::counts_only()),
        Engine::Auto => native_else_z3(|| count(Engine::Native, t, sizes, budget), || enumerate(Engine::Z3, t, sizes, budget)),
        Engine::Z3 | Engine::Both => enumerate(engine, t, sizes, budget),
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
        Engine::Auto => native_else_z3(|| first(Engine::Native, t, sizes, budget), || first(Engine::Z3, t, sizes, budget)),
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
