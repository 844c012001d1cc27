//! The package's integration tests, as one test binary (one link instead of one per file).

mod faults;
mod identify;
mod offline;
