//! The package's integration tests, as one test binary.

mod ids;
mod store;
