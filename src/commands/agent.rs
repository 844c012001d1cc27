//! `birkhoff agent`: research cycles PLAN → EXECUTE → INTERPRET → ACT over the engine, with a
//! persistent library and a numbered report per cycle.

use super::library::LibraryArg;
use crate::output::table;
use crate::Outcome;
use birkhoff_agent::{
    offline::Offline,
    rediscovery::{tally, Tally, Watch, TOP},
    report::CycleReport,
    Agent, CliLlm, Config, Ending, LiteratureAccess, Llm, Observer, Toolbox,
};
use indicatif::ProgressBar;
use serde_json::Value;
use std::cell::RefCell;
use std::path::Path;
use std::time::{Duration, Instant};

/// Which language model plans and interprets.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum LlmKind {
    /// The Claude Code CLI (`claude`, logged in).
    Claude,
    /// The built-in deterministic strategist (no model needed).
    Offline,
    /// The program given with --llm-command.
    Command,
}

/// `--breadth`: how much the offline strategist explores each cycle.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum BreadthArg {
    /// Two bases and two moves a cycle (the default).
    Narrow,
    /// Five seeds or discoveries a cycle with the structural moves.
    Wide,
}

/// What to do when the model asked for cannot run at all.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// Let the built-in offline strategist plan and interpret instead.
    Offline,
}

/// When `agent` asks the literature about its discoveries.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum LiteratureWhen {
    /// When the network is there: a source accepts a connection at the start of the run.
    Auto,
    /// Always (answers from the library's cache when a source cannot be reached).
    On,
    /// Never.
    Off,
}

/// How long the start of a run waits to learn whether any literature source can be reached.
const REACH_WAIT: Duration = Duration::from_secs(3);

// The flags that say which model program to run and how, shared by `agent` and `research step`.
#[derive(clap::Args)]
pub struct ModelFlags {
    /// A program speaking the Claude CLI protocol (arguments as `claude --print ...`, prompt on
    /// stdin, reply on stdout), such as `/usr/local/bin/my-llm --flag`. No shell is involved.
    #[arg(long, value_name = "CMD")]
    pub llm_command: Option<String>,
    /// The model name passed with --model.
    #[arg(long, value_name = "M", default_value = "claude-opus-4-6")]
    pub model: String,
    /// The thinking effort passed with --effort.
    #[arg(long, value_name = "E", default_value = "high", value_parser = ["low", "medium", "high"])]
    pub effort: String,
}

// Arguments of `birkhoff agent`.
#[derive(clap::Args)]
pub struct Args {
    /// Ask arXiv, Semantic Scholar, zbMATH Open and the OEIS whether each new discovery is known
    /// (docs/LITERATURE.md). `auto` does when a source can be reached at the start of the run
    /// (never with BIRKHOFF_OFFLINE=1); `--literature` alone means `on`. A discovery not asked
    /// about is reported as "not searched", with the reason.
    #[arg(long, value_name = "WHEN", value_enum, default_value = "auto", num_args = 0..=1, default_missing_value = "on")]
    literature: LiteratureWhen,
    /// Research cycles in this run. Rerunning the same command after an interruption resumes
    /// the run; after a complete run it starts a new one.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    cycles: u32,
    /// The research goal, in words.
    #[arg(long, value_name = "TEXT", default_value = "Explore broadly")]
    goal: String,
    /// A structure to start from (a seed name such as `group`, or a discovery's name);
    /// repeatable.
    #[arg(long = "base", value_name = "NAME")]
    bases: Vec<String>,
    /// Which model plans and interprets. Default: `command` if --llm-command is given, else
    /// `claude` if a `claude` program is on PATH, else `offline`.
    #[arg(long, value_enum)]
    llm: Option<LlmKind>,
    #[command(flatten)]
    model: ModelFlags,
    /// Seconds the model may take in one cycle, over all its calls (plan, interpretation,
    /// retries). When they are up, its program and everything it started are stopped and the
    /// offline strategist decides the rest of the cycle; each is a fault in the report.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    llm_timeout: u64,
    /// When the model's program (`claude`, or the --llm-command program) is not installed: without
    /// this flag the command stops with an error; with `--fallback offline` the offline strategist
    /// runs instead.
    #[arg(long, value_enum, value_name = "WHAT")]
    fallback: Option<Fallback>,
    /// Milliseconds of search per model size when checking models and countermodels.
    #[arg(long, value_name = "MS", default_value_t = 40, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    check_ms: u64,
    /// The rediscovery benchmark: hide these catalogue entries (comma-separated or repeated) from
    /// identification and novelty, and at the end say which of them the run found again:
    /// reached (a generated theory is the same class), kept as a discovery, ranked in the top 20.
    /// Use a fresh --library: earlier discoveries count as known. See benches/rediscovery.sh.
    #[arg(long, value_name = "ENTRY", value_delimiter = ',')]
    hide: Vec<String>,
    /// How much the offline strategist explores each cycle: `narrow` (two bases and two moves,
    /// the best 20 candidates checked; about half a minute a cycle) or `wide` (five seeds or
    /// discoveries with the structural moves, 50 checked, 24 identified; slower, the rediscovery
    /// benchmark's). See docs/AGENT.md.
    #[arg(long, value_enum, value_name = "B", default_value = "narrow")]
    breadth: BreadthArg,
    #[command(flatten)]
    library: LibraryArg,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let kind = a.llm.unwrap_or(if a.model.llm_command.is_some() {
        LlmKind::Command
    } else if on_path("claude") {
        LlmKind::Claude
    } else {
        LlmKind::Offline
    });
    let program = match kind {
        LlmKind::Claude => Some("claude".to_string()),
        LlmKind::Command => a
            .model
            .llm_command
            .as_deref()
            .and_then(|c| c.split_whitespace().next())
            .map(String::from),
        LlmKind::Offline => None,
    };
    // A model that cannot run is said once, here, and never quietly replaced.
    let kind = match program {
        Some(p) if !installed(&p) => {
            let flag = if kind == LlmKind::Claude {
                "--llm claude"
            } else {
                "--llm-command"
            };
            anyhow::ensure!(a.fallback == Some(Fallback::Offline), "{flag}: `{p}` is not installed (not found{}); install it (docs/AGENT.md), or add --fallback offline to let the offline strategist run", if p.contains('/') { "" } else { " on PATH" });
            eprintln!("`{p}` is not installed; --fallback offline: the offline strategist plans and interprets");
            LlmKind::Offline
        }
        _ => kind,
    };
    let timeout = Duration::from_secs(a.llm_timeout);
    let llm: Box<dyn Llm> = match kind {
        LlmKind::Offline => Box::new(Offline),
        LlmKind::Claude => Box::new(CliLlm {
            cancel: Some(crate::interrupt::flag()),
            ..CliLlm::claude(&a.model.model, &a.model.effort, timeout)
        }),
        LlmKind::Command => {
            let cmd = a
                .model
                .llm_command
                .as_deref()
                .ok_or_else(|| anyhow::anyhow!("--llm command needs --llm-command CMD"))?;
            let llm = CliLlm::command(cmd, &a.model.model, &a.model.effort, timeout)
                .map_err(|e| anyhow::anyhow!("--llm-command: {e}"))?;
            Box::new(CliLlm {
                cancel: Some(crate::interrupt::flag()),
                ..llm
            })
        }
    };
    anyhow::ensure!(!a.goal.trim().is_empty(), "--goal: the goal is empty");
    let mut lib = a.library.open()?;
    for b in &a.bases {
        let known = birkhoff_engine::seeds::load(b).is_ok()
            || lib
                .list("theory")
                .is_ok_and(|ts| ts.iter().any(|r| r.body.name() == *b));
        anyhow::ensure!(
            known,
            "--base {b}: no seed or discovery of that name (see `birkhoff seeds`)"
        );
    }
    let bases: Vec<String> = a.bases.iter().map(|b| seed_name(b)).collect();
    let mut tools = Toolbox::builtin();
    tools.per_size = Duration::from_millis(a.check_ms);
    tools.breadth = match a.breadth {
        BreadthArg::Narrow => birkhoff_agent::Breadth::Narrow,
        BreadthArg::Wide => birkhoff_agent::Breadth::Wide,
    };
    tools.cancel = Some(crate::interrupt::flag());
    tools.literature = literature_access(a.literature);
    tools
        .hide(&a.hide)
        .map_err(|e| anyhow::anyhow!("--hide: {e}"))?;
    let live = Live::new(json);
    let watch = Watch::new(&live);
    let observer: &dyn Observer = if a.hide.is_empty() { &live } else { &watch };
    observer.line(
        &format!("Model: {}", llm.describe()),
        serde_json::json!({"event": "model", "model": llm.describe()}),
    );
    let (searched, why) = match &tools.literature {
        LiteratureAccess::On(_) => (true, "each new discovery is looked up".to_string()),
        LiteratureAccess::Off(why) => (false, format!("not searched ({why})")),
    };
    observer.line(
        &format!("Literature: {why}"),
        serde_json::json!({"event": "literature_access", "searched": searched, "why": why}),
    );
    let interrupted = crate::interrupt::requested;
    let agent = Agent {
        llm: llm.as_ref(),
        offline: kind == LlmKind::Offline,
        tools,
        observer,
        interrupted: &interrupted,
    };
    let ending = agent
        .run(
            &mut lib,
            &Config {
                goal: a.goal.clone(),
                cycles: a.cycles,
                bases,
            },
        )
        .map_err(anyhow::Error::msg)?;
    if !a.hide.is_empty() && matches!(ending, Ending::Complete(_)) {
        let t = tally(&watch, &lib, &a.hide, Some(crate::interrupt::flag()))
            .map_err(anyhow::Error::msg)?;
        print_tally(&t, json);
    }
    Ok(match ending {
        Ending::Complete(_) => Outcome::Done,
        Ending::Interrupted(_) => Outcome::Interrupted,
    })
}

/// `--literature` as the run's access: the sources from the environment, asked always, never,
/// or (auto) when one of them accepts a connection now.
fn literature_access(when: LiteratureWhen) -> LiteratureAccess {
    let cfg = birkhoff_literature::Config::from_env();
    match when {
        LiteratureWhen::On => LiteratureAccess::On(cfg),
        LiteratureWhen::Off => LiteratureAccess::Off("--literature off".into()),
        LiteratureWhen::Auto => match birkhoff_literature::reachable(&cfg, REACH_WAIT) {
            Ok(_) => LiteratureAccess::On(cfg),
            Err(why) => LiteratureAccess::Off(format!("offline: {why}")),
        },
    }
}

/// The rediscovery figures: one row per hidden entry, then the totals.
fn print_tally(t: &Tally, json: bool) {
    if json {
        println!(
            "{}",
            serde_json::json!({"event": "rediscovery", "tally": t})
        );
        return;
    }
    let rows: Vec<Vec<String>> = t
        .entries
        .iter()
        .map(|e| {
            let reached = e.reached.as_ref().map_or("-".to_string(), |s| {
                format!("cycle {}: {}", s.cycle.unwrap_or(0), s.name)
            });
            let kept = e.kept.as_ref().map_or("-".to_string(), |s| s.name.clone());
            vec![
                e.entry.clone(),
                reached,
                kept,
                e.rank.map_or("-".to_string(), |r| r.to_string()),
            ]
        })
        .collect();
    println!(
        "\nRediscovery of {} hidden catalogue entries ({} theories generated, {} discoveries):",
        t.entries.len(),
        t.generated,
        t.discoveries
    );
    print!("{}", table(&["entry", "reached", "kept as", "rank"], &rows));
    println!(
        "reached {}/{n}, kept {}/{n}, in the top {TOP} {}/{n}",
        t.reached,
        t.kept,
        t.top,
        n = t.entries.len()
    );
}

/// Whether `program` can be run: an executable file at that path when it names one, else in a
/// directory of PATH.
pub(crate) fn installed(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if program.contains('/') {
        return std::fs::metadata(program)
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    }
    on_path(program)
}

/// Whether an executable file called `program` is in a directory of PATH.
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            std::fs::metadata(d.join(program))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// A seed's canonical file name (`AbelianGroup` → `abelian_group`); other names unchanged.
fn seed_name(name: &str) -> String {
    let key = |s: &str| {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    birkhoff_engine::seeds::all()
        .iter()
        .find(|s| {
            key(s.name) == key(name)
                || birkhoff_engine::seeds::load(s.name).is_ok_and(|t| key(&t.name) == key(name))
        })
        .map_or_else(|| name.to_string(), |s| s.name.to_string())
}

/// Prints progress: timestamped lines and a spinner with a timer during model calls, or JSONL
/// events with `--json`.
struct Live {
    json: bool,
    start: Instant,
    spinner: RefCell<Option<ProgressBar>>,
}

impl Live {
    fn new(json: bool) -> Live {
        Live {
            json,
            start: Instant::now(),
            spinner: RefCell::new(None),
        }
    }

    fn stamp(&self) -> String {
        let s = self.start.elapsed().as_secs();
        if s < 60 {
            format!("[{s:>5}s]")
        } else {
            format!("[{:>2}m{:02}s]", s / 60, s % 60)
        }
    }
}

impl Observer for Live {
    fn line(&self, text: &str, mut event: Value) {
        // A model's text may hold terminal control sequences; none reaches the terminal.
        let text = &birkhoff_agent::text::printable(text);
        if self.json {
            event["t"] = serde_json::json!(self.start.elapsed().as_secs_f64());
            println!("{event}");
        } else {
            let stamp = self.stamp();
            let text = text.replace('\n', &format!("\n{}", " ".repeat(stamp.len() + 1)));
            match self.spinner.borrow().as_ref() {
                Some(sp) => sp.println(format!("{stamp} {text}")),
                None => println!("{stamp} {text}"),
            }
        }
    }

    fn wait_start(&self, what: &str) {
        let what = &birkhoff_agent::text::printable(what);
        self.line(
            &format!("{what}..."),
            serde_json::json!({"event": "llm_call", "what": what}),
        );
        *self.spinner.borrow_mut() = Some(crate::output::spinner(what));
    }

    fn wait_end(&self) {
        if let Some(sp) = self.spinner.borrow_mut().take() {
            sp.finish_and_clear();
        }
    }

    fn summary(&self, r: &CycleReport, number: u64, markdown: &Path) {
        if self.json {
            println!(
                "{}",
                serde_json::json!({"event": "cycle_complete", "cycle": number, "report": markdown.display().to_string(), "seconds": r.seconds, "generated": r.generated, "with_models": r.with_models, "discoveries": r.discoveries.len(), "conjectures": r.conjectures.len(), "faults": r.faults.len()})
            );
            return;
        }
        let rows = vec![
            vec![
                "duration".to_string(),
                format!("{:.1}s ({:.1}s model)", r.seconds, r.llm_seconds),
            ],
            vec![
                "candidates".into(),
                format!("{} generated, {} checked", r.generated, r.checked),
            ],
            vec!["with models".into(), r.with_models.to_string()],
            vec!["discoveries".into(), r.discoveries.len().to_string()],
            vec!["conjectures".into(), r.conjectures.len().to_string()],
            vec!["faults".into(), r.faults.len().to_string()],
            vec!["report".into(), markdown.display().to_string()],
        ];
        println!(
            "\nCycle {number} complete\n{}",
            table(&["", ""], &rows)
                .lines()
                .skip(1)
                .map(|l| format!("  {l}\n"))
                .collect::<String>()
        );
    }
}
