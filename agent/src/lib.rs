//! Birkhoff's research agent: the PLAN → EXECUTE → INTERPRET → ACT cycle controller, its LLM
//! clients, and the literature and LaTeX writers.
//!
//! Not built yet: the agent issue fills this crate.
