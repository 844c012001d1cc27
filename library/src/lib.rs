//! Birkhoff's library: the persistent store of theories, spectra and discoveries (files as the
//! source of truth, SQLite as the index) and the reports written from it.
//!
//! Not built yet: the library and agent issue fills this crate.
