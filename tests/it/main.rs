//! End-to-end tests of the binary, as one test binary.

mod agent_cli;
mod cli;
mod html;
mod identify;
mod interop;
mod readme;
mod research;
#[path = "../../literature/tests/it/server.rs"]
#[allow(dead_code)] // the literature tests use all of it, these only part
mod lit_server;
mod literature_cli;
mod paper;
mod progress;
mod slurm;
mod sweep;
