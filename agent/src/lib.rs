//! Birkhoff's research agent: the PLAN → EXECUTE → INTERPRET → ACT cycle controller
//! ([`controller`]), its six tools ([`tools`]) and the engines behind them ([`engines`]), its language models ([`llm`], and the offline
//! strategist [`offline`]), the reply schema ([`schema`]), prompts ([`prompt`]) and cycle reports
//! ([`report`]), the comparison of a candidate with its parent ([`parent`]), and the bounds on a model's text
//! ([`text`]).
#![warn(missing_docs)]

pub mod controller;
pub mod engines;
pub mod llm;
pub mod naming;
pub mod observe;
pub mod offline;
pub mod parent;
pub mod prompt;
pub mod rediscovery;
pub mod report;
pub mod research;
pub mod schema;
pub mod situation;
pub mod text;
pub mod tools;
