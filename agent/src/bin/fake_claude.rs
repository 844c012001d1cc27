//! A scripted stand-in for the `claude` CLI, used by tests only. It speaks the same protocol
//! (arguments as `claude --print ...`, prompt on stdin, reply on stdout) and behaves as
//! `FAKE_CLAUDE_MODE` (or a first argument `--fake-mode=MODE`) says: `good`, `malformed`, `unknown`, `hang`, `exit`, `notloggedin`,
//! `garbage`, `traversal`, `badformula`, `fix` (bad first reply, good after the error is explained),
//! `forge` (a huge strategy with a terminal escape; a 10 MB discovery name, then an analysis that
//! fakes report sections), `grandchild` (a good reply, leaving a child that holds the output
//! open), `hang_grandchild` (starts a child, then never replies), `hang_setsid` (starts a
//! grandchild in a session of its own, as `setsid sleep 1000 &`, then never replies).
//! A prompt starting `PHASE: RESEARCH` (the research step) gets a `<research>` proposal in mode
//! `good`, one with a formula that does not parse in `badformula`, and garbage otherwise.
//! With `FAKE_CLAUDE_LOG=FILE` it appends its arguments and whether `CLAUDECODE` was set. With
//! `FAKE_CLAUDE_REFERENCES=JSON` (an array in the `references` schema) the candidate it keeps
//! carries those references, as a model that remembers papers would propose them.

use std::io::{Read, Write};

fn main() {
    let mut prompt = String::new();
    let _ = std::io::stdin().read_to_string(&mut prompt);
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // A first argument `--fake-mode=MODE` (from `--llm-command "fake-claude --fake-mode=MODE"`)
    // overrides the environment, so that tests running in parallel can differ.
    let from_arg = args
        .first()
        .and_then(|a| a.strip_prefix("--fake-mode="))
        .map(String::from);
    if from_arg.is_some() {
        args.remove(0);
    }
    if let Ok(log) = std::env::var("FAKE_CLAUDE_LOG") {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            let _ = writeln!(
                f,
                "{}\tCLAUDECODE={}",
                serde_json::to_string(&args).unwrap_or_default(),
                std::env::var_os("CLAUDECODE").is_some()
            );
        }
    }
    let mode = from_arg
        .or_else(|| std::env::var("FAKE_CLAUDE_MODE").ok())
        .unwrap_or_else(|| "good".into());
    if prompt.starts_with("PHASE: RESEARCH") {
        // `research step --llm claude`: a proposal (with a terminal escape in a title, which must
        // not reach the files), a formula that does not parse, or garbage.
        let good = "Next: <research>{\"phase\": \"proof\", \"reason\": \"scripted: try commutativity\", \"hypotheses\": [{\"statement\": \"x * y = y * x\", \"confidence\": \"high\", \"notes\": \"scripted\"}], \"tasks\": [{\"title\": \"Scripted \\u001b[31mtask\", \"priority\": \"high\", \"phase\": \"proof\"}], \"leads\": [{\"title\": \"Ask about Steiner quasigroups\", \"priority\": \"low\"}]}</research>";
        let reply = match mode.as_str() {
            "good" => good.to_string(),
            "badformula" => good.replace("x * y = y * x", "x +++ y"),
            _ => "\u{1}}}{{<research> not json </research>".to_string(),
        };
        print!("{reply}");
        return;
    }
    let plan_phase = prompt.starts_with("PHASE: PLAN");
    let retry = prompt.contains("Your previous reply was rejected");
    let line_after = |key: &str| {
        prompt
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .map(str::trim)
            .unwrap_or("")
            .to_string()
    };
    // The first two moves offered (COMPLETE and DEFORM): DEFORM of groups makes candidates shown new.
    let first_move = line_after("Moves available:")
        .split(", ")
        .filter(|m| !m.is_empty() && !m.starts_with("none"))
        .take(2)
        .map(|m| format!("\"{m}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let good_plan = format!(
        r#"I will look at groups. <plan>{{"strategy": "Scripted: groups with one move", "explorations": [{{"bases": ["group"], "moves": [{first_move}], "depth": 1}}], "check_top": 20, "max_size": 4, "prove": [{{"theory": "group", "statement": "x * x = e", "rationale": "scripted"}}]}}</plan>"#
    );
    // The first candidate shown new (ACT keeps nothing else), else the first.
    let names: Vec<&str> = prompt
        .lines()
        .filter_map(|l| {
            l.strip_prefix("### Candidate ")
                .and_then(|r| r.split_once(": "))
                .map(|(_, n)| n.trim())
        })
        .collect();
    let mut current = "";
    let mut new = None;
    for l in prompt.lines() {
        if let Some((_, n)) = l
            .strip_prefix("### Candidate ")
            .and_then(|r| r.split_once(": "))
        {
            current = n.trim();
        } else if l.trim_start().starts_with("what it is: new because") && new.is_none() {
            new = Some(current);
        }
    }
    let candidate = new.or(names.first().copied()).unwrap_or("").to_string();
    let references = std::env::var("FAKE_CLAUDE_REFERENCES").unwrap_or_else(|_| "[]".into());
    let good_decisions = format!(
        r#"Analysis. <decisions>{{"analysis": "Scripted analysis", "keep": [{{"candidate": "{candidate}", "name": "ScriptedFind", "notes": "kept by the script", "references": {references}}}], "conjectures": [{{"theory": "{candidate}", "statement": "x * y = y * x", "rationale": "scripted"}}]}}</decisions>"#
    );
    let good = if plan_phase {
        good_plan
    } else {
        good_decisions
    };
    // A child of this program that outlives it, holding its output open; its pid goes to the log.
    let grandchild = || {
        // Never waited for: outliving this program is the child's purpose (tests/it/faults.rs
        // checks that the agent stops it with the model's process group).
        #[allow(clippy::zombie_processes)]
        let child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep runs");
        if let Ok(log) = std::env::var("FAKE_CLAUDE_LOG") {
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
            {
                let _ = writeln!(f, "grandchild {}", child.id());
            }
        }
    };
    let reply = match mode.as_str() {
        "good" => good,
        "grandchild" => {
            grandchild();
            good
        }
        "hang_grandchild" => {
            grandchild();
            std::thread::sleep(std::time::Duration::from_secs(3600));
            String::new()
        }
        "forge" if plan_phase => good.replace(
            "Scripted: groups with one move",
            &format!("\\u001b[2J{}", "S".repeat(100_000)),
        ),
        "forge" if !retry => good.replace("ScriptedFind", &"N".repeat(10_000_000)),
        "forge" => good.replace(
            "Scripted analysis",
            "fine\\n\\n## Faults\\n\\nNone.\\n\\n# Research Cycle 99\\n",
        ),
        "fix" if retry => good,
        "fix" | "malformed" => {
            if plan_phase {
                "<plan>{\"strategy\": \"oops\", \"explorations\": [</plan>".into()
            } else {
                "<decisions>{\"analysis\": 1,}</decisions>".into()
            }
        }
        "unknown" if plan_phase => good.replace("\"group\"", "\"Hypergroupoid\""),
        "unknown" => good.replace(
            &format!("\"candidate\": \"{candidate}\""),
            "\"candidate\": \"NoSuchCandidate\"",
        ),
        "traversal" if plan_phase => good.replace("\"group\"", "\"../../etc/passwd\""),
        "traversal" => good.replace("ScriptedFind", "../../etc/passwd").replace(
            &format!("\"theory\": \"{candidate}\""),
            "\"theory\": \"../../../tmp/x\"",
        ),
        "badformula" => good.replace("x * y = y * x", "x +++ y"),
        "garbage" => "\u{1}\u{2}}}}{{<<plan>>>> 💥 lorem ipsum </decisions>".into(),
        "hang" => {
            std::thread::sleep(std::time::Duration::from_secs(3600));
            String::new()
        }
        "hang_setsid" => {
            // Out of this program's process group and session; the shell logs its own pid, which
            // `exec` gives to sleep, whether or not setsid(1) had to fork.
            let _ = std::process::Command::new("setsid")
                .args([
                    "sh",
                    "-c",
                    "echo \"grandchild $$\" >> \"$FAKE_CLAUDE_LOG\"; exec sleep 1000",
                ])
                .spawn();
            std::thread::sleep(std::time::Duration::from_secs(3600));
            String::new()
        }
        "exit" => {
            eprintln!("fatal: internal error 42");
            std::process::exit(3);
        }
        "notloggedin" => {
            println!("Not logged in · Please run /login");
            std::process::exit(1);
        }
        other => format!("unknown FAKE_CLAUDE_MODE {other}"),
    };
    print!("{reply}");
}
