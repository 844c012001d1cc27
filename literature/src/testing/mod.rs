//! What the tests of this crate and of the crates above it (the agent, the binary) share to run
//! the literature agent against a local server instead of the internet: the server
//! ([`server`]) and the fixtures in each API's real format with the routes that serve them
//! ([`fixtures`]). Compiled only with the `test-support` feature, which only dev-dependencies
//! turn on.

pub mod fixtures;
pub mod server;
