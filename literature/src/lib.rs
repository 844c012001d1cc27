//! Birkhoff's literature agent: is this known?
//!
//! For a subject (a theory, a free query, a spectrum) it builds queries for arXiv, Semantic
//! Scholar, zbMATH Open and the OEIS ([`query`]), asks them over HTTP with each API's rate limit,
//! one retry after HTTP 429, one deadline per source per run, and a cache in the library
//! ([`client`], `cache`),
//! reads their formats ([`sources`]), and sends every candidate through the verification gate
//! ([`gate`]): a reference is confirmed (`REF-NNN`) only after a lookup by identifier returned a
//! record with the same title, an author in common and a year within one. Everything else is
//! `UREF-NNN` with the reason. Numbers never reset ([`store`]); LITERATURE.md follows the
//! literature protocol's schema ([`synth`]). Only confirmed references can be cited downstream
//! ([`store::State::citable`]).
//!
//! With the `test-support` feature, `testing` holds the local server and fixtures the tests of
//! this crate and of the crates above it share.
//!
//! docs/LITERATURE.md explains the gate and the sources.
#![warn(missing_docs)]

mod cache;
pub mod client;
pub mod gate;
pub mod paper;
pub mod query;
mod reach;
mod run;
pub mod sources;
pub mod store;
pub mod subject;
pub mod synth;
#[cfg(feature = "test-support")]
pub mod testing;

pub use client::{Config, Source};
pub use paper::{Origin, Paper};
pub use query::Subject;
pub use reach::reachable;
pub use run::{citable, search, search_async, Error, Outcome, SourceReport};
pub use store::{Reference, State, Status, Store};
