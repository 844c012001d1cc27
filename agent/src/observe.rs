//! Live output: the controller reports lines, waits and cycle summaries to an [`Observer`]; the
//! command line prints them with a timer (or as JSONL events), tests collect them.

use crate::report::CycleReport;
use crate::situation::Candidate;
use serde_json::Value;
use std::path::Path;

/// Receives the controller's live output.
pub trait Observer {
    /// A line of progress, with the same content as a JSON event.
    fn line(&self, text: &str, event: Value);
    /// A wait for the language model begins (show a spinner with a timer).
    fn wait_start(&self, what: &str);
    /// The wait is over.
    fn wait_end(&self);
    /// A cycle is complete and its report is written.
    fn summary(&self, r: &CycleReport, number: u64, markdown: &Path);
    /// The candidates one exploration of cycle `cycle` generated, before any is checked (the
    /// rediscovery benchmark watches them; other observers ignore them).
    fn generated(&self, _cycle: u64, _candidates: &[Candidate]) {}
}

/// An observer that prints nothing.
pub struct Silent;

impl Observer for Silent {
    fn line(&self, _: &str, _: Value) {}
    fn wait_start(&self, _: &str) {}
    fn wait_end(&self) {}
    fn summary(&self, _: &CycleReport, _: u64, _: &Path) {}
}
