//! Birkhoff's engine: the theory language and what it means.
//!
//! A [`Theory`] is a many-sorted first-order theory with equality: a [`Signature`] and named
//! axioms. Theories are read from Birkhoff's own format ([`Theory::parse`]), from LADR formula
//! lists and from Mace4 input files ([`parse`]), printed back ([`Theory::to_text`]) and
//! fingerprinted ([`Theory::fingerprint`]). A [`Structure`] interprets each sort as `{0..n-1}`;
//! [`eval::check`] decides whether it satisfies a theory. The evaluator is the judge of every
//! model that any other part of Birkhoff reports.
//!
//! ```
//! use birkhoff_engine::{seeds, eval, Structure};
//! let group = seeds::load("group").unwrap();
//! // Z_3 under addition.
//! let z3 = Structure::from_fn(&group.sig, &[3], |f, a| match f {
//!     "*" => (a[0] + a[1]) % 3,
//!     "inv" => (3 - a[0]) % 3,
//!     _ => 0, // e
//! }, |_, _| false);
//! assert!(eval::check(&group, &z3).is_ok());
//! ```
#![warn(missing_docs)]

pub mod anatomy;
pub mod canon;
pub mod catalogue;
pub mod derivation;
pub mod error;
pub mod eval;
pub mod examples;
pub mod fingerprint;
pub mod ground_truth;
pub mod interop;
pub mod lexer;
pub mod moves;
pub mod parse;
pub mod print;
pub mod refine;
pub mod seeds;
pub mod signature;
pub mod structure;
pub mod syntax;
pub mod tables;
mod theory;

pub use error::{Diagnostic, Diagnostics, Error, Result};
pub use fingerprint::Fingerprint;
pub use signature::{FuncId, RelId, Signature, SortId};
pub use structure::Structure;
pub use syntax::{Axiom, Formula, Term, VarId};
pub use theory::Theory;
