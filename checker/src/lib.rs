//! Birkhoff's checker: finite model finding, isomorphism and model spectra.
//!
//! The pipeline is [`problem`] (compile a theory at fixed sizes into ground
//! clauses) → [`search`] (backtracking cell assignment with propagation and
//! the least-number heuristic) → [`finder`] (deduplicate by [`iso`] canonical
//! forms, re-check every model with the engine's evaluator, count; [`skolem`] witnesses for
//! first-model search) →
//! [`spectrum`] and [`sweep`] (counts per size, batch jobs on disk).
//! Every count carries a [`budget::Status`]: a count cut short is never exact.
//! A spectrum is read by [`oeis`] (which known sequences it matches, offline) and [`patterns`]
//! (open conjectures about the orders that have models).
#![warn(missing_docs)]

pub mod atomic_file;
pub(crate) mod bits;
mod blocking;
pub mod budget;
pub mod finder;
pub mod implied;
pub mod iso;
pub mod lex;
pub mod oeis;
pub mod patterns;
pub mod problem;
pub mod prover;
pub mod router;
pub mod sat;
pub mod search;
pub mod skolem;
pub mod spectrum;
pub mod sweep;
pub mod worker;
#[cfg(feature = "z3")]
pub mod z3;
