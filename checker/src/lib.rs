//! Birkhoff's checker: finite model finding, isomorphism and model spectra.
pub mod problem;
pub mod search;
