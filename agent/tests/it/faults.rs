//! The agent against a scripted stand-in for the `claude` CLI: a good run, and every fault the
//! issue lists. In every case the run completes, the report names the fault, and nothing is
//! written outside the library.

use crate::{WithEnv, FAKE};
use birkhoff_agent::{report::CycleReport, Agent, CliLlm, Config, Ending, Silent, Toolbox};
use birkhoff_library::record::{Body, ConjectureStatus};
use birkhoff_library::{backtest, Library};
use std::path::{Path, PathBuf};
use std::time::Duration;

struct Run {
    dir: tempfile::TempDir,
    report: CycleReport,
    log: String,
}

impl Run {
    fn lib(&self) -> Library {
        Library::open(&self.dir.path().join("lib")).unwrap()
    }

    fn faults(&self) -> String {
        self.report
            .faults
            .iter()
            .map(|f| format!("{}: {} => {}\n", f.phase, f.message, f.handling))
            .collect()
    }
}

fn run(mode: &str, timeout_secs: u64) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("fake.log");
    let mut lib = Library::open(&dir.path().join("lib")).unwrap();
    let llm = CliLlm::command(
        &format!("{FAKE} --fake-mode={mode}"),
        "test-model",
        "low",
        Duration::from_secs(timeout_secs),
    )
    .unwrap();
    // The log lives beside the library; it is written by the stand-in, not by the agent.
    let agent = Agent {
        llm: &WithEnv(
            llm,
            vec![("FAKE_CLAUDE_LOG".into(), log.display().to_string())],
        ),
        offline: false,
        tools: Toolbox::builtin(),
        observer: &Silent,
        interrupted: &|| false,
    };
    let ending = agent
        .run(
            &mut lib,
            &Config {
                goal: "study groups".into(),
                cycles: 1,
                bases: vec![],
            },
        )
        .unwrap();
    assert_eq!(ending, Ending::Complete(vec![1]), "mode {mode}");
    let report: CycleReport = serde_json::from_value(lib.report(1).unwrap()).unwrap();
    assert!(lib.markdown_path(1).exists());
    // Anything written outside the library would show up beside it.
    let outside: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| *p != dir.path().join("lib") && *p != log)
        .collect();
    assert!(
        outside.is_empty(),
        "mode {mode} wrote outside the library: {outside:?}"
    );
    assert!(backtest::run(&lib).unwrap().failures.is_empty());
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    Run { dir, report, log }
}

/// Every file name in `dir` and its subdirectories (the library is two levels deep).
fn names_within(dir: &Path) -> Vec<String> {
    let entries = |d: &Path| {
        std::fs::read_dir(d)
            .map(|r| r.flatten().map(|e| e.path()).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    entries(dir)
        .into_iter()
        .flat_map(|p| {
            std::iter::once(p.clone())
                .chain(entries(&p))
                .chain(entries(&p).into_iter().flat_map(|q| entries(&q)))
        })
        .map(|p| p.display().to_string())
        .collect()
}

#[test]
fn a_good_cycle() {
    std::env::set_var("CLAUDECODE", "1");
    let r = run("good", 60);
    assert!(r.report.faults.is_empty(), "{}", r.faults());
    assert_eq!(
        (r.report.plan_by.as_str(), r.report.decisions_by.as_str()),
        ("llm", "llm")
    );
    assert_eq!(r.report.plan.strategy, "Scripted: groups with one move");
    // The protocol: exact flags, the system prompt as an argument, CLAUDECODE unset.
    let first = r.log.lines().next().unwrap();
    let (args, env) = first.split_once('\t').unwrap();
    let args: Vec<String> = serde_json::from_str(args).unwrap();
    assert_eq!(
        &args[..11],
        [
            "--print",
            "--model",
            "test-model",
            "--effort",
            "low",
            "--output-format",
            "text",
            "--tools",
            "",
            "--no-session-persistence",
            "--system-prompt"
        ]
    );
    assert!(args[11].contains("<plan>"));
    assert_eq!(env, "CLAUDECODE=false");
    // The plan's conjecture x*x = e is refuted by a group of order 3, stored and re-checked.
    let c = r
        .report
        .conjectures
        .iter()
        .find(|c| c.statement == "x * x = e")
        .unwrap();
    assert_eq!(c.status, ConjectureStatus::Refuted);
    assert!(c.countermodel.as_deref().unwrap().contains("*"));
    // The decision keeps the first candidate under the model's name.
    assert_eq!(r.report.discoveries.len(), 1);
    let lib = r.lib();
    let found = lib.search("ScriptedFind", None, 10).unwrap();
    assert!(
        found
            .iter()
            .any(|h| h.kind == "theory" && h.name == "ScriptedFind"),
        "{found:?}"
    );
    assert!(lib.list("model").unwrap().len() >= 2);
    assert!(lib
        .list("conjecture")
        .unwrap()
        .iter()
        .any(|r| matches!(&r.body, Body::Conjecture(c) if c.status == ConjectureStatus::Refuted)));
    let md = std::fs::read_to_string(lib.markdown_path(1)).unwrap();
    for part in [
        "## Plan (by llm)",
        "## What ran",
        "## Discoveries",
        "ScriptedFind",
        "## Conjectures",
        "Refuted",
        "## Decisions (by llm)",
        "## Faults",
        "axiom assoc",
    ] {
        assert!(md.contains(part), "report lacks {part}:\n{md}");
    }
}

/// A fault in both phases, handled by one retry and then the offline strategist.
fn assert_fallback(r: &Run, needle: &str) {
    assert_eq!(r.report.plan_by, "offline (fallback)", "{}", r.faults());
    assert_eq!(
        r.report.decisions_by,
        "offline (fallback)",
        "{}",
        r.faults()
    );
    assert!(
        r.faults().contains(needle),
        "no `{needle}` in faults:\n{}",
        r.faults()
    );
    let md = std::fs::read_to_string(r.lib().markdown_path(1)).unwrap();
    assert!(
        md.contains(&birkhoff_agent::text::md(needle)),
        "the Markdown report does not name the fault `{needle}`"
    );
}

#[test]
fn malformed_json_is_retried_then_replaced() {
    let r = run("malformed", 60);
    assert_fallback(&r, "JSON is invalid");
    assert_eq!(
        r.report.faults.iter().filter(|f| f.phase == "plan").count(),
        2
    );
    assert!(r.report.faults[0]
        .handling
        .contains("asked the model again"));
    assert_eq!(r.log.lines().count(), 4, "one retry per phase");
}

#[test]
fn a_fixed_reply_after_the_retry_is_used() {
    let r = run("fix", 60);
    assert_eq!(
        (r.report.plan_by.as_str(), r.report.decisions_by.as_str()),
        ("llm", "llm")
    );
    assert_eq!(r.report.faults.len(), 2, "{}", r.faults());
}

#[test]
fn unknown_names_are_rejected_with_a_message() {
    let r = run("unknown", 60);
    assert_fallback(&r, "unknown base structure `Hypergroupoid`");
    assert!(
        r.faults().contains("unknown candidate `NoSuchCandidate`"),
        "{}",
        r.faults()
    );
}

#[test]
fn a_reply_that_never_ends_times_out() {
    let r = run("hang", 1);
    assert_fallback(&r, "no reply from");
}

#[test]
fn non_zero_exit_is_a_fault() {
    let r = run("exit", 60);
    assert_fallback(&r, "internal error 42");
}

#[test]
fn not_logged_in_is_reported_and_the_model_skipped() {
    let r = run("notloggedin", 60);
    assert_fallback(&r, "not logged in");
    assert!(r.faults().contains("the model is unavailable"));
    assert_eq!(
        r.log.lines().count(),
        1,
        "no further calls after `Not logged in`"
    );
}

#[test]
fn garbage_is_a_fault() {
    let r = run("garbage", 60);
    assert_fallback(&r, "<plan>");
}

#[test]
fn path_traversal_names_are_rejected() {
    let r = run("traversal", 60);
    assert_fallback(&r, "unknown base structure `../../etc/passwd`");
    assert!(
        r.faults()
            .contains("`../../etc/passwd` is not a valid discovery name"),
        "{}",
        r.faults()
    );
    assert!(!names_within(r.dir.path())
        .iter()
        .any(|p| p.contains("passwd")));
    assert!(names_within(r.dir.path())
        .iter()
        .any(|p| p.ends_with("cycle-0001.md")));
}

#[test]
fn a_statement_that_does_not_parse_is_rejected_with_the_parser_message() {
    let r = run("badformula", 60);
    assert_eq!(r.report.plan_by, "llm");
    assert_eq!(r.report.decisions_by, "offline (fallback)");
    assert!(r.faults().contains("does not parse over"), "{}", r.faults());
}

#[test]
fn text_from_the_model_is_bounded_and_escaped() {
    let r = run("forge", 60);
    assert_eq!(
        (r.report.plan_by.as_str(), r.report.decisions_by.as_str()),
        ("llm", "llm"),
        "{}",
        r.faults()
    );
    // The 100,000-character strategy is cut, and the fault says so.
    assert!(
        r.faults()
            .contains("`strategy` was 100004 characters, more than the limit of 4000: cut to 4000"),
        "{}",
        r.faults()
    );
    assert_eq!(r.report.plan.strategy.chars().count(), 4000);
    // The 10 MB name makes the reply too long: a fault, then the retry; nothing copies it.
    assert!(
        r.faults().contains("more than 262144 bytes"),
        "{}",
        r.faults()
    );
    assert!(r.faults().len() < 2000, "{}", r.faults().len());
    let md = std::fs::read_to_string(r.lib().markdown_path(1)).unwrap();
    let json = std::fs::read_to_string(r.lib().root().join("reports/cycle-0001.json")).unwrap();
    assert!(
        md.len() < 100_000 && json.len() < 100_000,
        "reports of {} and {} bytes",
        md.len(),
        json.len()
    );
    // The analysis's fake sections stay inside it: one title, one Faults section, and that
    // section lists the real faults.
    assert!(r.report.decisions.analysis.contains("## Faults"));
    assert_eq!(
        md.lines().filter(|l| l.starts_with("# ")).count(),
        1,
        "{md}"
    );
    let faults_at = md.lines().position(|l| l == "## Faults").unwrap();
    assert_eq!(
        md.lines().filter(|l| l.starts_with("## Faults")).count(),
        1,
        "{md}"
    );
    assert!(
        md.lines()
            .skip(faults_at + 1)
            .find(|l| !l.is_empty())
            .is_some_and(|l| l.starts_with("- **plan**")),
        "{md}"
    );
    assert!(
        !md.contains('\u{1b}'),
        "an escape sequence reached the Markdown"
    );
}

/// Whether the process `pid` is gone (or a zombie), waiting up to 5 s for it.
fn gone(pid: &str) -> bool {
    let t0 = std::time::Instant::now();
    while t0.elapsed() < Duration::from_secs(5) {
        if std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map_or(true, |st| st.contains(") Z "))
        {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn grandchildren(log: &str) -> Vec<&str> {
    log.lines()
        .filter_map(|l| l.strip_prefix("grandchild "))
        .collect()
}

#[test]
fn a_lingering_grandchild_does_not_turn_a_reply_into_no_reply() {
    let r = run("grandchild", 20);
    assert!(r.report.faults.is_empty(), "{}", r.faults());
    assert_eq!(
        (r.report.plan_by.as_str(), r.report.decisions_by.as_str()),
        ("llm", "llm")
    );
    let left = grandchildren(&r.log);
    assert_eq!(left.len(), 2, "{}", r.log);
    assert!(
        left.iter().all(|p| gone(p)),
        "the model's children outlived its reply"
    );
}

#[test]
fn a_timeout_stops_the_process_group_and_a_cycle_has_one_deadline() {
    let r = run("hang_grandchild", 1);
    assert!(r.faults().contains("plan: no reply from"), "{}", r.faults());
    // The cycle's time is used up by the plan: the interpretation does not ask the model again.
    assert!(
        r.faults()
            .contains("interpret: the model's time for this cycle (1 s, --llm-timeout) is used up"),
        "{}",
        r.faults()
    );
    assert_eq!(
        r.log
            .lines()
            .filter(|l| !l.starts_with("grandchild"))
            .count(),
        1,
        "{}",
        r.log
    );
    let left = grandchildren(&r.log);
    assert_eq!(left.len(), 1, "{}", r.log);
    assert!(gone(left[0]), "the model's child survived the timeout");
}

/// A grandchild that leaves the model's process group and session (`setsid sleep 1000 &`) is
/// stopped with the program on a timeout: it is found through its parent while the program runs.
#[test]
fn a_timeout_stops_a_grandchild_in_a_session_of_its_own() {
    let r = run("hang_setsid", 1);
    assert!(r.faults().contains("plan: no reply from"), "{}", r.faults());
    let left = grandchildren(&r.log);
    assert_eq!(left.len(), 1, "{}", r.log);
    let session = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|st| {
                st.rsplit(')')
                    .next()?
                    .split_whitespace()
                    .nth(3)
                    .map(String::from)
            })
    };
    assert!(
        gone(left[0]),
        "the model's grandchild in session {:?} survived the timeout",
        session(left[0])
    );
}

/// An explore engine that refuses every request.
struct Refusing;

impl birkhoff_agent::Explorer for Refusing {
    fn moves(&self) -> Vec<String> {
        vec!["COMPLETE".into()]
    }
    fn explore(
        &self,
        _: &[&birkhoff_engine::Theory],
        _: &[String],
        _: u32,
    ) -> Result<Vec<birkhoff_agent::Generated>, String> {
        Err("refused by the test".into())
    }
}

#[test]
fn a_refused_tool_call_is_a_fault() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(&dir.path().join("lib")).unwrap();
    let tools = Toolbox {
        explorer: Box::new(Refusing),
        ..Toolbox::builtin()
    };
    let agent = Agent {
        llm: &birkhoff_agent::offline::Offline,
        offline: true,
        tools,
        observer: &Silent,
        interrupted: &|| false,
    };
    agent
        .run(
            &mut lib,
            &Config {
                goal: "study groups".into(),
                cycles: 1,
                bases: vec![],
            },
        )
        .unwrap();
    let report: CycleReport = serde_json::from_value(lib.report(1).unwrap()).unwrap();
    let f = report
        .faults
        .iter()
        .find(|f| f.message.contains("refused by the test"))
        .unwrap_or_else(|| panic!("{:?}", report.faults));
    assert_eq!(f.phase, "execute");
    assert!(
        f.message.starts_with("explore") && f.handling.contains("bases themselves"),
        "{f:?}"
    );
}
