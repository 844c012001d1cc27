//! The package's integration tests, as one test binary (one link instead of one per file).

mod faults;
mod identify;
mod literature;
mod offline;
mod rediscovery;
mod research;

use birkhoff_agent::llm::{Llm, LlmError, Phase, Request};
use birkhoff_agent::offline::Offline;

/// A scripted model: it plans with the given `<plan>` JSON every cycle and lets the offline
/// strategist interpret.
pub struct ScriptedPlan(pub &'static str);

impl Llm for ScriptedPlan {
    fn describe(&self) -> String {
        "scripted planner".into()
    }
    fn ask(&self, req: &Request) -> Result<String, LlmError> {
        match req.phase {
            Phase::Plan => Ok(format!("<plan>{}</plan>", self.0)),
            Phase::Interpret => Offline.ask(req),
        }
    }
}
