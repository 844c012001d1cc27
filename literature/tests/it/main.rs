//! The literature crate's integration tests: every source against a local server on 127.0.0.1
//! serving fixtures in the APIs' formats (tests/fixtures/). No test touches the internet.

mod faults;
mod gate;
mod offline;
mod parse;
mod reach;
mod search;
mod support;
