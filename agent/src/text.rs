//! The bounds on a model's text (`quote`, `bound`, `printable`, `md`, `md_block`, `MAX_REPLY`):
//! they live in the library crate, which the literature synthesis and the research workspace
//! use too, and are re-exported here under the name the agent has always used.

pub use birkhoff_library::text::*;
