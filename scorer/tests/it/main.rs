//! The package's integration tests, as one test binary.

mod calibration;
mod known_cases;
mod verdicts;
