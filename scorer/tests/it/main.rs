//! The package's integration tests, as one test binary.

mod known_cases;
mod verdicts;
