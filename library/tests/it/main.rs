//! The package's integration tests, as one test binary.

mod store;
