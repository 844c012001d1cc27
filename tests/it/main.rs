//! End-to-end tests of the binary, as one test binary.

mod agent_cli;
mod budget_cli;
mod cli;
mod counting_auto;
mod html;
mod identify;
mod interop;
mod ladr_goals;
mod literature_cli;
mod one_spectrum;
mod paper;
mod progress;
mod readme;
mod research;
mod slurm;
mod structure;
mod sweep;
mod verdicts;

/// The binary under test, kept off the network (`BIRKHOFF_OFFLINE=1`): `agent` does not probe
/// the literature sources and literature runs answer from the library's cache only. Tests that
/// serve the sources on 127.0.0.1 build their own command with the sources' environment.
pub fn birkhoff_command() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_birkhoff"));
    c.env("BIRKHOFF_OFFLINE", "1");
    c
}
