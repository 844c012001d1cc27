//! Language models behind one trait. [`cli::CliLlm`] runs the Claude Code CLI (or any program
//! speaking its protocol); [`crate::offline::Offline`] is the built-in deterministic strategist.
//! A model only ever returns text; the controller parses it, and never executes it.

pub mod cli;
pub mod tree;

use crate::situation::Situation;

/// Which phase a request belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Design the cycle: reply with `<plan>`.
    Plan,
    /// Read the results: reply with `<decisions>`.
    Interpret,
}

/// One request: the prompts for a text model and the same facts, structured, for the offline
/// strategist.
pub struct Request<'a> {
    /// The phase.
    pub phase: Phase,
    /// The system prompt.
    pub system: &'a str,
    /// The user prompt (sent on stdin).
    pub prompt: &'a str,
    /// What the prompt was rendered from.
    pub situation: &'a Situation,
    /// When the cycle's time for the model ends (`--llm-timeout`); `None` for no cycle deadline.
    pub deadline: Option<std::time::Instant>,
}

/// Why a model gave no reply.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The program could not be started.
    #[error("cannot start `{program}`: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The program said it is not logged in.
    #[error("`{0}` is not logged in (run `claude` once and log in, or use --llm offline)")]
    NotLoggedIn(String),
    /// The program exited with an error.
    #[error("`{program}` exited with {status}: {stderr}")]
    Exit {
        /// The program.
        program: String,
        /// Its exit status.
        status: String,
        /// The end of its error output.
        stderr: String,
    },
    /// No reply within the time limit; the program and everything it started were killed.
    #[error("no reply from `{0}` within the cycle's {1} s (--llm-timeout); the program and everything it started were stopped")]
    Timeout(String, u64),
    /// Ctrl-C stopped the wait; the program was stopped.
    #[error("interrupted while waiting for `{0}`; the program was stopped")]
    Interrupted(String),
    /// Input or output with the program failed.
    #[error("talking to `{0}` failed: {1}")]
    Io(String, std::io::Error),
}

impl LlmError {
    /// Whether later calls are pointless (the model cannot be reached at all).
    pub fn is_permanent(&self) -> bool {
        matches!(self, LlmError::Spawn { .. } | LlmError::NotLoggedIn(_))
    }
}

/// A language model (or the offline stand-in for one).
pub trait Llm {
    /// How the model is named in logs and reports, such as `claude (opus, effort high)`.
    fn describe(&self) -> String;
    /// The reply to one request.
    fn ask(&self, req: &Request) -> Result<String, LlmError>;
    /// How long all of one cycle's calls may take together, if the model is limited.
    fn budget(&self) -> Option<std::time::Duration> {
        None
    }
}
