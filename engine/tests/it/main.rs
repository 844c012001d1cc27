//! The package's integration tests, as one test binary (one link instead of one per file).

mod canon;
mod catalogue;
mod derivation;
mod diagnostics;
mod examples;
mod ground_truth_rows;
mod interop;
mod mace4_models;
mod moves;
mod props;
mod seeds;
