//! The bounds on a model's text (`quote`, `bound`, `printable`, `md`, `md_block`, `MAX_REPLY`):
//! they live in the research crate, which renders hand-edited records with the same escapes, and
//! are re-exported here under the name the agent has always used.

pub use birkhoff_research::text::*;
