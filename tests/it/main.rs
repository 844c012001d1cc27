//! End-to-end tests of the binary, as one test binary.

mod agent_cli;
mod cli;
mod identify;
