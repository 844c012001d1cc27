//! The package's integration tests, as one test binary (one link instead of one per file).

mod faults;
mod identify;
mod literature;
mod offline;
mod rediscovery;
mod research;
mod structure;

use birkhoff_agent::{offline::Offline, CliLlm, Llm, LlmError, Phase, Request};
use std::time::Duration;

/// The scripted stand-in for the `claude` CLI (agent/src/bin/fake_claude.rs).
pub const FAKE: &str = env!("CARGO_BIN_EXE_fake-claude");

/// The CLI model with environment variables (`FAKE_CLAUDE_LOG`, `FAKE_CLAUDE_REFERENCES`) set
/// per child through `/usr/bin/env` rather than in the shared process environment, so that
/// tests running in parallel can differ.
pub struct WithEnv(pub CliLlm, pub Vec<(String, String)>);

impl Llm for WithEnv {
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn ask(&self, req: &Request) -> Result<String, LlmError> {
        let program = "/usr/bin/env".to_string();
        let prefix = [
            self.1.iter().map(|(k, v)| format!("{k}={v}")).collect(),
            vec![self.0.program.clone()],
            self.0.prefix_args.clone(),
        ]
        .concat();
        CliLlm {
            program,
            prefix_args: prefix,
            model: self.0.model.clone(),
            effort: self.0.effort.clone(),
            timeout: self.0.timeout,
            cancel: None,
        }
        .ask(req)
    }
    fn budget(&self) -> Option<Duration> {
        self.0.budget()
    }
}

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
