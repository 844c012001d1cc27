//! The research workspace end to end, as one test binary.

mod workspace;
