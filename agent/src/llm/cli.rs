//! The Claude Code CLI protocol: `claude --print --model M --effort E --output-format text
//! --tools "" --no-session-persistence --system-prompt S`, the prompt on stdin, the reply on
//! stdout, `CLAUDECODE` unset so that it can run inside a Claude Code session. `--llm-command`
//! runs another program with the same arguments and protocol.

use super::tree::Tree;
use super::{Llm, LlmError, Request};
use crate::text::MAX_REPLY;
use std::cell::RefCell;
use std::io::{Seek, Write};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::AsyncReadExt;

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
    /// How long all of one cycle's calls may take together (`--llm-timeout`); also the limit of a
    /// call made without a cycle deadline.
    pub timeout: Duration,
    /// Set (by Ctrl-C) to stop waiting; the program is then killed.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl CliLlm {
    /// The Claude Code CLI.
    pub fn claude(model: &str, effort: &str, timeout: Duration) -> CliLlm {
        CliLlm {
            program: "claude".into(),
            prefix_args: vec![],
            model: model.into(),
            effort: effort.into(),
            timeout,
            cancel: None,
        }
    }

    /// A program given as `PROGRAM [ARGS...]` (split at whitespace; no shell is involved).
    pub fn command(
        command_line: &str,
        model: &str,
        effort: &str,
        timeout: Duration,
    ) -> Result<CliLlm, String> {
        let mut words = command_line.split_whitespace().map(String::from);
        let program = words.next().ok_or("the command is empty")?;
        Ok(CliLlm {
            program,
            prefix_args: words.collect(),
            model: model.into(),
            effort: effort.into(),
            timeout,
            cancel: None,
        })
    }

    /// The arguments of one call.
    pub fn args(&self, system: &str) -> Vec<String> {
        let protocol = [
            "--print",
            "--model",
            &self.model,
            "--effort",
            &self.effort,
            "--output-format",
            "text",
            "--tools",
            "",
            "--no-session-persistence",
            "--system-prompt",
            system,
        ];
        self.prefix_args
            .iter()
            .cloned()
            .chain(protocol.iter().map(|s| s.to_string()))
            .collect()
    }

    async fn call(
        &self,
        system: &str,
        prompt: &str,
        tree: &RefCell<Tree>,
    ) -> Result<String, LlmError> {
        let mut child = tokio::process::Command::new(&self.program)
            .args(self.args(system))
            .env_remove("CLAUDECODE")
            .stdin(Stdio::from(
                prompt_file(prompt).map_err(|e| LlmError::Io(self.program.clone(), e))?,
            ))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Its own process group, so that whatever it starts can be found and stopped with it.
            .process_group(0)
            .spawn()
            .map_err(|source| LlmError::Spawn {
                program: self.program.clone(),
                source,
            })?;
        if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
            *tree.borrow_mut() = Tree::of(pid);
        }
        let (out, err) = (
            Arc::new(Mutex::new(Vec::new())),
            Arc::new(Mutex::new(Vec::new())),
        );
        let readers = [
            tokio::spawn(read_capped(
                child.stdout.take().expect("stdout is piped"),
                out.clone(),
                MAX_REPLY + 1,
            )),
            tokio::spawn(read_capped(
                child.stderr.take().expect("stderr is piped"),
                err.clone(),
                64 * 1024,
            )),
        ];
        let status = child.wait().await;
        // The reply is complete when the program exits. Anything it left running (which may hold
        // the pipes open) is stopped, and the pipes are drained for a moment at most, so that a
        // lingering grandchild cannot turn a reply into no reply.
        tree.take().kill();
        for r in readers {
            if tokio::time::timeout(Duration::from_secs(2), &mut Box::pin(r))
                .await
                .is_err()
            {
                break;
            }
        }
        let status = status.map_err(|e| LlmError::Io(self.program.clone(), e))?;
        let text = |b: &Arc<Mutex<Vec<u8>>>| {
            String::from_utf8_lossy(&b.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
        };
        let (stdout, stderr) = (text(&out), crate::text::printable(&text(&err)));
        let not_logged_in = |s: &str| s.to_ascii_lowercase().contains("not logged in");
        if not_logged_in(&stderr) || (not_logged_in(&stdout) && !stdout.contains("</")) {
            return Err(LlmError::NotLoggedIn(self.program.clone()));
        }
        if !status.success() {
            let tail: String = stderr
                .trim()
                .chars()
                .rev()
                .take(400)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            return Err(LlmError::Exit {
                program: self.program.clone(),
                status: status.to_string(),
                stderr: tail,
            });
        }
        Ok(stdout)
    }
}

/// The prompt as a file in memory, read from its start: the program's stdin. Not a pipe, because
/// this process dies of SIGPIPE (as a Unix tool does, for `| head`): writing into a pipe whose
/// reader exited without reading (a program that ignores its input, or one that failed to start
/// its shell) would kill the whole command instead of letting the program be judged by its reply.
fn prompt_file(prompt: &str) -> std::io::Result<std::fs::File> {
    // SAFETY: a constant NUL-terminated name; the flags are valid.
    let fd = unsafe { libc::memfd_create(c"birkhoff-prompt".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is owned by nothing else.
    let mut file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(fd) };
    file.write_all(prompt.as_bytes())?;
    file.rewind()?;
    Ok(file)
}

/// Reads `from` to its end, keeping the first `cap` bytes in `into` and dropping the rest (still
/// reading it, so that the writer never blocks on a full pipe).
async fn read_capped(
    mut from: impl tokio::io::AsyncRead + Unpin,
    into: Arc<Mutex<Vec<u8>>>,
    cap: usize,
) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = from.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let mut kept = into.lock().unwrap_or_else(|e| e.into_inner());
        let room = cap.saturating_sub(kept.len()).min(n);
        kept.extend_from_slice(&buf[..room]);
    }
}

impl Llm for CliLlm {
    fn describe(&self) -> String {
        format!(
            "{} (model {}, effort {})",
            self.program, self.model, self.effort
        )
    }

    fn ask(&self, req: &Request) -> Result<String, LlmError> {
        self.ask_text(req.system, req.prompt, req.deadline)
    }

    fn budget(&self) -> Option<Duration> {
        Some(self.timeout)
    }
}

impl CliLlm {
    /// One call with a system prompt and a prompt, outside a cycle (the research step asks
    /// this way): the same process handling, limits and Ctrl-C as [`Llm::ask`].
    pub fn ask_text(
        &self,
        system: &str,
        prompt: &str,
        deadline: Option<Instant>,
    ) -> Result<String, LlmError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LlmError::Io(self.program.clone(), e))?;
        let tree = RefCell::new(Tree::default());
        let result = rt.block_on(async {
            // The cycle's deadline when there is one, else this call's own.
            let deadline = tokio::time::Instant::from_std(
                deadline.unwrap_or_else(|| Instant::now() + self.timeout),
            );
            let mut call = std::pin::pin!(self.call(system, prompt, &tree));
            // Wait in short slices so that Ctrl-C is noticed, and what the program starts is seen
            // (a process that leaves its group is found through its parent while it runs).
            loop {
                if let Ok(r) = tokio::time::timeout(Duration::from_millis(100), &mut call).await {
                    return r;
                }
                tree.borrow().scan();
                if self
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::SeqCst))
                {
                    return Err(LlmError::Interrupted(self.program.clone()));
                }
                if tokio::time::Instant::now() >= deadline {
                    return Err(LlmError::Timeout(
                        self.program.clone(),
                        self.timeout.as_secs(),
                    ));
                }
            }
        });
        // On a timeout or Ctrl-C everything it started goes, not only the program.
        tree.take().kill();
        result
    }
}
