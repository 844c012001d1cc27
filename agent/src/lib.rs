//! Birkhoff's research agent: the PLAN → EXECUTE → INTERPRET → ACT cycle controller
//! ([`Agent`]), its six tools ([`Toolbox`]) and the engines behind them, its language models
//! ([`Llm`], [`CliLlm`], and the offline strategist [`offline`]), the reply schema
//! ([`parse_plan`], [`parse_decisions`]), prompts and cycle reports ([`report`]), the comparison
//! of a candidate with its parent ([`no_new_models`]), and the bounds on a model's text
//! ([`text`]).
#![warn(missing_docs)]

// The public modules are namespaces whose items read with the module's name: the offline
// strategist's `offline::plan` and `offline::decide` stand beside the model's, and
// `rediscovery::tally`, `report::markdown`, `research::step` and `text::line` would say little
// at the root. Everything else is private and re-exported below.
pub mod offline;
pub mod rediscovery;
pub mod report;
pub mod research;
pub mod text;

mod controller;
mod engines;
mod llm;
mod naming;
mod observe;
mod parent;
mod prompt;
mod schema;
mod situation;
mod tools;
mod triage;

pub use controller::{identification_options, identify_theory, Agent, Config, Ending};
pub use engines::TenDimensions;
pub use llm::cli::CliLlm;
pub use llm::{Llm, LlmError, Phase, Request};
pub use observe::{Observer, Silent};
pub use parent::no_new_models;
pub use schema::{parse_decisions, parse_plan, valid_name, Vocabulary, MAX_KEEPS};
pub use situation::{Base, Breadth, Candidate, Memory, OpenConjecture, Situation};
pub use tools::{Explorer, Generated, LiteratureAccess, Scorer, Toolbox};
