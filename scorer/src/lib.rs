//! Birkhoff's scorer: the ten score dimensions by which candidate theories are ranked.
//!
//! Not built yet: the scoring issue fills this crate. It sits above the checker (scores are
//! computed from model spectra) and below the library, and depends on nothing higher.
