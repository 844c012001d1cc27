//! The Claude Code CLI protocol: `claude --print --model M --effort E --output-format text
//! --tools "" --no-session-persistence --system-prompt S`, the prompt on stdin, the reply on
//! stdout, `CLAUDECODE` unset so that it can run inside a Claude Code session. `--llm-command`
//! runs another program with the same arguments and protocol.

use super::{Llm, LlmError, Request};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

/// A model reached through a command-line program.
pub struct CliLlm {
    /// The program (`claude`, or the `--llm-command` program).
    pub program: String,
    /// Arguments given before the protocol's own (from `--llm-command "prog arg..."`).
    pub prefix_args: Vec<String>,
    /// `--model`.
    pub model: String,
    /// `--effort`.
    pub effort: String,
    /// How long to wait for one reply.
    pub timeout: Duration,
    /// Set (by Ctrl-C) to stop waiting; the program is then killed.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl CliLlm {
    /// The Claude Code CLI.
    pub fn claude(model: &str, effort: &str, timeout: Duration) -> CliLlm {
        CliLlm { program: "claude".into(), prefix_args: vec![], model: model.into(), effort: effort.into(), timeout, cancel: None }
    }

    /// A program given as `PROGRAM [ARGS...]` (split at whitespace; no shell is involved).
    pub fn command(command_line: &str, model: &str, effort: &str, timeout: Duration) -> Result<CliLlm, String> {
        let mut words = command_line.split_whitespace().map(String::from);
        let program = words.next().ok_or("the command is empty")?;
        Ok(CliLlm { program, prefix_args: words.collect(), model: model.into(), effort: effort.into(), timeout, cancel: None })
    }

    /// The arguments of one call.
    pub fn args(&self, system: &str) -> Vec<String> {
        let protocol = ["--print", "--model", &self.model, "--effort", &self.effort, "--output-format", "text", "--tools", "", "--no-session-persistence", "--system-prompt", system];
        self.prefix_args.iter().cloned().chain(protocol.iter().map(|s| s.to_string())).collect()
    }

    async fn call(&self, system: &str, prompt: &str) -> Result<String, LlmError> {
        let mut child = tokio::process::Command::new(&self.program)
            .args(self.args(system))
            .env_remove("CLAUDECODE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| LlmError::Spawn { program: self.program.clone(), source })?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let prompt = prompt.as_bytes().to_vec();
        // The prompt is written while the output is read, so that neither side can block on a
        // full pipe. A program that exits without reading its input is judged by its output.
        let write = async move {
            let _ = stdin.write_all(&prompt).await;
            drop(stdin);
        };
        let writer = tokio::spawn(write);
        let out = child.wait_with_output().await;
        writer.abort();
        let out = out.map_err(|e| LlmError::Io(self.program.clone(), e))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let not_logged_in = |s: &str| s.to_ascii_lowercase().contains("not logged in");
        if not_logged_in(&stderr) || (not_logged_in(&stdout) && !stdout.contains("</")) {
            return Err(LlmError::NotLoggedIn(self.program.clone()));
        }
        if !out.status.success() {
            let tail: String = stderr.trim().chars().rev().take(400).collect::<Vec<_>>().into_iter().rev().collect();
            return Err(LlmError::Exit { program: self.program.clone(), status: out.status.to_string(), stderr: tail });
        }
        Ok(stdout)
    }
}

impl Llm for CliLlm {
    fn describe(&self) -> String {
        format!("{} (model {}, effort {})", self.program, self.model, self.effort)
    }

    fn ask(&self, req: &Request) -> Result<String, LlmError> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| LlmError::Io(self.program.clone(), e))?;
        rt.block_on(async {
            let deadline = tokio::time::Instant::now() + self.timeout;
            let mut call = std::pin::pin!(self.call(req.system, req.prompt));
            // Wait in short slices so that Ctrl-C is noticed; dropping the call kills the program.
            loop {
                if let Ok(r) = tokio::time::timeout(Duration::from_millis(100), &mut call).await {
                    return r;
                }
                if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::SeqCst)) {
                    return Err(LlmError::Interrupted(self.program.clone()));
                }
                if tokio::time::Instant::now() >= deadline {
                    return Err(LlmError::Timeout(self.program.clone(), self.timeout.as_secs()));
                }
            }
        })
    }
}
