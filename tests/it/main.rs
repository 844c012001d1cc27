//! End-to-end tests of the binary, as one test binary.

mod agent_cli;
mod cli;
mod html;
mod identify;
mod interop;
mod readme;
mod research;
mod literature_cli;
mod paper;
mod progress;
mod slurm;
mod sweep;
