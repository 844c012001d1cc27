//! End-to-end tests of `birkhoff agent`, `report`, `library` and `backtest`: an offline run on a
//! fresh library, resuming after `kill -9`, the Claude CLI protocol through `PATH`, sorting of
//! `report --top`, and backtest on a tampered file and on a tampered proof certificate.

use birkhoff_library::record::{Body, ConjectureRec, ConjectureStatus, ProofRec, Score, TheoryRec};
use birkhoff_library::Library;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn birkhoff(args: &[&str]) -> Output {
    crate::birkhoff_command()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

fn lib_arg(dir: &Path) -> String {
    dir.join("lib").to_str().unwrap().to_string()
}

#[test]
fn offline_run_report_search_and_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_arg(dir.path());
    // With no `claude` on PATH the offline strategist is the default.
    let o = crate::birkhoff_command()
        .args([
            "agent",
            "--cycles",
            "2",
            "--goal",
            "Find novel semigroup variants",
            "--library",
            &lib,
        ])
        .env("PATH", dir.path().join("no-programs-here"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    for part in [
        "Model: offline strategist",
        "PLAN",
        "EXECUTE",
        "INTERPRET",
        "ACT",
        "Cycle 1 complete",
        "Cycle 2 complete",
        "· check_models [",
        "(parent)",
    ] {
        assert!(out.contains(part), "live output lacks {part}:\n{out}");
    }
    let o = birkhoff(&["report", "--cycle", "latest", "--library", &lib]);
    assert!(
        o.status.success() && text(&o).contains("# Research Cycle 2") && text(&o).contains("█"),
        "{}",
        text(&o)
    );
    let o = birkhoff(&["report", "list", "--library", &lib]);
    assert!(text(&o).lines().count() >= 3, "{}", text(&o));
    let o = birkhoff(&["report", "--cycle", "7", "--library", &lib]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--cycle 7"));
    // The run kept a discovery (a semigroup variant that no known theory was shown to be), and
    // searching the library for its name finds it and its records.
    let o = birkhoff(&["report", "--top", "1", "--library", &lib, "--json"]);
    let top: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let kept = top[0]["name"]
        .as_str()
        .unwrap_or_else(|| panic!("the run kept no discovery: {}", text(&o)))
        .to_string();
    let o = birkhoff(&["library", "search", &kept, "--library", &lib, "--json"]);
    let hits: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        hits.as_array()
            .unwrap()
            .iter()
            .any(|h| h["kind"] == "theory" && h["name"] == kept.as_str()),
        "{}",
        text(&o)
    );
    for h in hits.as_array().unwrap() {
        let o = birkhoff(&[
            "library",
            "show",
            h["id"].as_str().unwrap(),
            "--library",
            &lib,
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let o = birkhoff(&["library", "stats", "--library", &lib, "--json"]);
    let stats: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(stats["reports"], 2);
    let o = birkhoff(&["backtest", "--library", &lib]);
    assert!(o.status.success(), "{}", text(&o));
    // The run is complete, so the same command starts a new run; numbering continues, and
    // nothing is lost: every record is still there, every report unchanged.
    let snapshot = |kind: &str| -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(Path::new(&lib).join(kind))
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        files.sort();
        files
    };
    let kinds = ["theories", "spectra", "models", "conjectures", "proofs"];
    let (records, reports): (Vec<_>, _) = (
        kinds.iter().flat_map(|k| snapshot(k)).collect(),
        snapshot("reports"),
    );
    let o = birkhoff(&[
        "agent",
        "--llm",
        "offline",
        "--cycles",
        "1",
        "--goal",
        "Find novel loop variants",
        "--library",
        &lib,
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSONL"))
        .collect();
    assert!(events
        .iter()
        .any(|e| e["event"] == "cycle_complete" && e["cycle"] == 3));
    assert!(
        records.iter().all(|(p, _)| p.exists()),
        "a record disappeared"
    );
    let after = snapshot("reports");
    assert!(
        reports.iter().all(|r| after.contains(r)),
        "an earlier report changed"
    );
    assert_eq!(
        after.len(),
        reports.len() + 2,
        "one report (JSON and Markdown) more"
    );
    // Nothing outside the library directory.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("lib")]);
}

/// Stops an agent run with `signal` while the model is interpreting the run's second cycle, then
/// checks that the library is consistent and that a rerun resumes at that cycle.
fn stop_mid_cycle_then_rerun(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_arg(dir.path());
    let marker = dir.path().join("interpreting");
    // Replies garbage (the offline strategist then decides), except that the interpretation of
    // the run's second cycle hangs after leaving a marker, so that the agent can be stopped there.
    let llm = script(
        dir.path(),
        "llm.sh",
        &format!("p=$(cat)\ncase \"$p\" in *'PHASE: INTERPRET'*'Cycle 2 of'*) echo $$ > {m}.tmp; mv {m}.tmp {m}; exec sleep 30;; esac\necho garbage", m = marker.display()),
    );
    // Semigroups: cycles that keep discoveries and settle conjectures in seconds, so that a
    // stop finds records of every kind written (quasigroups took a minute a run, in proofs that
    // stay unknown, which this test is not about).
    let args = [
        "agent",
        "--cycles",
        "3",
        "--goal",
        "study semigroups",
        "--library",
        &lib,
    ];
    let mut child = crate::birkhoff_command()
        .args(args)
        .args(["--llm-command", llm.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !marker.exists() {
        assert!(
            // A generous bound: the first cycle takes a few seconds alone, more under load.
            t0.elapsed() < Duration::from_secs(300),
            "the agent never reached cycle 2's interpretation"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let status = child.wait().unwrap();
    let sleeper = std::fs::read_to_string(&marker).unwrap();
    if signal == "-INT" {
        assert_eq!(status.code(), Some(130));
        // Ctrl-C stops the model's program too.
        let alive = || {
            std::fs::read_to_string(format!("/proc/{}/stat", sleeper.trim()))
                .is_ok_and(|st| !st.contains(") Z "))
        };
        let t1 = Instant::now();
        while alive() {
            assert!(
                t1.elapsed() < Duration::from_secs(10),
                "the model's program still runs"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    } else {
        let _ = Command::new("kill").args(["-9", sleeper.trim()]).status();
    }
    let l = Library::open(Path::new(&lib)).unwrap();
    assert_eq!(l.report_numbers().unwrap(), vec![1]);
    drop(l);
    let o = birkhoff(&["backtest", "--library", &lib]);
    assert!(
        o.status.success(),
        "a record is corrupt after {signal}: {}",
        text(&o)
    );
    // The rerun (offline this time) resumes the run at its second cycle.
    let o = birkhoff(&[&args[..], &["--llm", "offline"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Resuming run"), "{}", text(&o));
    let l = Library::open(Path::new(&lib)).unwrap();
    assert_eq!(l.report_numbers().unwrap(), vec![1, 2, 3]);
    let indices: Vec<u64> = (1..=3)
        .map(|n| l.report(n).unwrap()["run"]["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indices, vec![1, 2, 3]);
    let o = birkhoff(&["backtest", "--library", &lib]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn kill_9_mid_cycle_then_rerun_resumes() {
    stop_mid_cycle_then_rerun("-9");
}

#[test]
fn ctrl_c_mid_cycle_stops_cleanly_and_rerun_resumes() {
    stop_mid_cycle_then_rerun("-INT");
}

#[test]
fn claude_is_called_through_path_with_the_cli_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = dir.path().join("args.log");
    script(&bin, "claude", &format!("cat > /dev/null\nfor a in \"$@\"; do echo \"[$a]\" >> {l}; done\necho \"CLAUDECODE=${{CLAUDECODE:-unset}}\" >> {l}\necho 'Not logged in · Please run /login'\nexit 1", l = log.display()));
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = crate::birkhoff_command()
        .args([
            "agent",
            "--llm",
            "claude",
            "--model",
            "sonnet",
            "--effort",
            "medium",
            "--goal",
            "study groups",
            "--library",
            &lib_arg(dir.path()),
        ])
        .env("PATH", path)
        .env("CLAUDECODE", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("not logged in"), "{}", text(&o));
    let logged = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = logged.lines().collect();
    assert_eq!(
        &lines[..11],
        [
            "[--print]",
            "[--model]",
            "[sonnet]",
            "[--effort]",
            "[medium]",
            "[--output-format]",
            "[text]",
            "[--tools]",
            "[]",
            "[--no-session-persistence]",
            "[--system-prompt]"
        ]
    );
    assert_eq!(lines.last(), Some(&"CLAUDECODE=unset"));
    let o = birkhoff(&["report", "--library", &lib_arg(dir.path())]);
    assert!(
        text(&o).contains("not logged in"),
        "the report names the fault: {}",
        text(&o)
    );
}

#[test]
fn records_are_printed_without_terminal_control_sequences() {
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_arg(dir.path());
    let mut l = Library::open(Path::new(&lib)).unwrap();
    // A model's or a hand-edited name and notes: clear screen, a window title, BEL, NUL, C1 codes.
    let hostile = "Evil\u{1b}[2J\u{1b}]0;pwned\u{7}\u{7}\0\u{9b}31m\u{85}Name\nsecond line";
    let t = birkhoff_engine::seeds::load("group").unwrap();
    let (rec, _) = l
        .put(Body::Theory(TheoryRec {
            name: hostile.into(),
            text: t.to_text(),
            fingerprint: t.fingerprint().to_string(),
            origin: hostile.into(),
            parents: vec![],
            discovery: true,
            notes: hostile.into(),
            score: None,
            aliases: vec![],
            presentations: vec![],
        }))
        .unwrap();
    drop(l);
    for args in [
        vec!["library", "show", rec.id.as_str()],
        vec!["library", "search", "Evil"],
        vec!["report", "--top", "5"],
    ] {
        let o = birkhoff(&[&args[..], &["--library", &lib]].concat());
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        let out = text(&o);
        assert!(
            out.contains("EvilName") || out.contains("Evil31mName"),
            "{args:?}: {out}"
        );
        assert!(
            !out.chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "{args:?}: {out:?}"
        );
    }
}

#[test]
fn report_top_sorts_by_the_key_asked() {
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_arg(dir.path());
    let mut l = Library::open(Path::new(&lib)).unwrap();
    for (seed, total, novelty) in [
        ("group", 0.9, 0.1),
        ("monoid", 0.5, 0.8),
        ("band", 0.2, 0.5),
    ] {
        let t = birkhoff_engine::seeds::load(seed).unwrap();
        let dims = [
            ("novelty".to_string(), novelty),
            ("richness".to_string(), 1.0 - novelty),
        ]
        .into_iter()
        .collect();
        l.put(Body::Theory(TheoryRec {
            name: format!("D_{seed}"),
            text: t.to_text(),
            fingerprint: t.fingerprint().to_string(),
            origin: "test".into(),
            parents: vec![],
            discovery: true,
            notes: String::new(),
            score: Some(Score { total, dims }),
            aliases: vec![],
            presentations: vec![],
        }))
        .unwrap();
    }
    drop(l);
    let order = |key: &str| -> Vec<String> {
        let o = birkhoff(&["report", "--top", "2", "--sort-by", key, "--library", &lib]);
        assert!(o.status.success(), "{}", text(&o));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    assert_eq!(order("score"), ["D_group", "D_monoid"]);
    assert_eq!(order("novelty"), ["D_monoid", "D_band"]);
    assert_eq!(order("richness"), ["D_group", "D_band"]);
    assert_eq!(
        order("rich"),
        ["D_group", "D_band"],
        "a unique part of a dimension's name selects it"
    );
    let o = birkhoff(&[
        "report",
        "--top",
        "2",
        "--sort-by",
        "shininess",
        "--library",
        &lib,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--sort-by shininess"));
    // Reindex keeps search results; a tampered record makes backtest fail.
    let before = birkhoff(&["library", "search", "identity", "--library", &lib, "--json"]).stdout;
    assert!(birkhoff(&["library", "reindex", "--library", &lib])
        .status
        .success());
    assert_eq!(
        birkhoff(&["library", "search", "identity", "--library", &lib, "--json"]).stdout,
        before
    );
    let theories = Path::new(&lib).join("theories");
    let file = std::fs::read_dir(&theories)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let tampered = std::fs::read_to_string(&file)
        .unwrap()
        .replace("axiom assoc", "axiom assoc: x = x\naxiom was_assoc");
    std::fs::write(&file, tampered).unwrap();
    let o = birkhoff(&["backtest", "--library", &lib]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("FAIL"));
}

#[test]
fn backtest_replays_stored_certificates_and_catches_a_tampered_step() {
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_arg(dir.path());
    // A real certificate from the prover: inv(inv(x)) = x in groups. Which lane proves it first
    // depends on the machine's load: saturation's chain of 11 steps, or E's derivation as two
    // lemmas and one step citing them; the edit below breaks either.
    let cert_file = dir.path().join("cert.json");
    let o = birkhoff(&[
        "prove",
        "group",
        "inv(inv(x)) = x",
        "--certificate",
        cert_file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let certificate: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cert_file).unwrap()).unwrap();
    assert!(
        certificate["steps"]
            .as_array()
            .is_some_and(|s| !s.is_empty()),
        "the proof this test edits: {certificate}"
    );
    // Stored as the agent stores a proved conjecture.
    let mut l = Library::open(Path::new(&lib)).unwrap();
    let g = birkhoff_engine::seeds::load("group").unwrap();
    let (theory, _) = l
        .put(Body::Theory(TheoryRec {
            name: "group".into(),
            text: g.to_text(),
            fingerprint: g.fingerprint().to_string(),
            origin: "base".into(),
            parents: vec![],
            discovery: false,
            notes: String::new(),
            score: None,
            aliases: vec![],
            presentations: vec![],
        }))
        .unwrap();
    let statement = "inv(inv(x)) = x";
    let conjecture = |status, proof| ConjectureRec {
        theory_id: theory.id.clone(),
        theory_name: "group".into(),
        statement: statement.into(),
        status,
        evidence: "proved".into(),
        countermodel: None,
        proof,
        proposed_by: "test".into(),
        claim: None,
    };
    let conjecture_id = Body::Conjecture(conjecture(ConjectureStatus::Open, None)).id();
    let (proof, _) = l
        .put(Body::Proof(ProofRec {
            conjecture_id,
            theory_id: theory.id.clone(),
            statement: statement.into(),
            prover: "equality saturation".into(),
            certificate,
        }))
        .unwrap();
    l.put(Body::Conjecture(conjecture(
        ConjectureStatus::Proved,
        Some(proof.id.clone()),
    )))
    .unwrap();
    let path = l.path_of(&proof.id).unwrap();
    drop(l);
    let backtest = || {
        let o = birkhoff(&["backtest", "--library", &lib, "--json"]);
        let report: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)));
        (o.status.code(), report)
    };
    // The genuine certificate is replayed and accepted.
    let (code, report) = backtest();
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report["checked"]["proof"], 1);
    assert_eq!(report["failures"], serde_json::json!([]));
    // `library show` gives the stored proof as numbered steps.
    let o = birkhoff(&["library", "show", &proof.id, "--library", &lib]);
    assert!(
        o.status.success()
            && text(&o).contains("Theorem. inv(inv(x)) = x")
            && text(&o).contains("  1. = "),
        "{}",
        text(&o)
    );
    // The first step now claims to reach inv(t) where its rewrite reaches t: no rewrite does both.
    let mut rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let inv = rec["certificate"]["lhs"]["App"][0].clone();
    let reached = rec["certificate"]["steps"][0]["result"].clone();
    rec["certificate"]["steps"][0]["result"] = serde_json::json!({ "App": [inv, [reached]] });
    std::fs::write(&path, serde_json::to_string_pretty(&rec).unwrap()).unwrap();
    let (code, report) = backtest();
    assert_eq!(code, Some(1), "{report}");
    // Only replaying the certificate can say this; an unchecked certificate would not be a failure.
    let rejected = report["failures"].as_array().unwrap().iter().any(|f| {
        f["file"].as_str().unwrap().contains(&proof.id)
            && f["problem"]
                .as_str()
                .unwrap()
                .starts_with("certificate rejected")
    });
    assert!(rejected, "{report}");
}

/// A scripted model for the kill trials: cycle 1 explores Semigroup by COMPLETE (checking 30
/// candidates: most of COMPLETE's laws give classes the catalogue knows), cycle 2 by DEFORM,
/// sizes up to 3 (every count exact, so that runs are repeatable); it keeps the two best
/// candidates under names of its own and conjectures commutativity of the best (refuted by a
/// countermodel, so that no prover time limit is involved). Names already taken are rejected by
/// the schema, so a rerun that saw a cut-short cycle's discoveries would decide differently.
const SCRIPTED_MODEL: &str = r#"p=$(cat)
case "$p" in *'Cycle 1 of'*) c=1; m=COMPLETE; k=30;; *) c=2; m=DEFORM; k=5;; esac
case "$p" in
*'PHASE: PLAN'*)
  echo "<plan>{\"strategy\": \"scripted\", \"explorations\": [{\"bases\": [\"semigroup\"], \"moves\": [\"$m\"], \"depth\": 1}], \"check_top\": $k, \"max_size\": 3, \"prove\": [{\"theory\": \"group\", \"statement\": \"x * x = e\"}]}</plan>";;
*)
  new=$(printf '%s\n' "$p" | awk '/^### Candidate [0-9]+: /{sub(/^### Candidate [0-9]+: /,""); c=$0} /^    what it is: new because/{print c}')
  c1=$(printf '%s\n' "$new" | sed -n 1p)
  c2=$(printf '%s\n' "$new" | sed -n 2p)
  echo "<decisions>{\"analysis\": \"scripted\", \"keep\": [{\"candidate\": \"$c1\", \"name\": \"Kept${c}a\", \"notes\": \"first\"}, {\"candidate\": \"$c2\", \"name\": \"Kept${c}b\", \"notes\": \"second\"}, {\"candidate\": \"$c1\", \"name\": \"Kept${c}again\", \"notes\": \"the same again\"}], \"conjectures\": [{\"theory\": \"$c1\", \"statement\": \"x * y = y * x\"}]}</decisions>";;
esac"#;

/// The library's records and reports, without what differs between two equal runs (creation
/// times and durations); also every file name, so that leftovers show.
fn library_contents(
    lib: &Path,
) -> (
    std::collections::BTreeMap<String, serde_json::Value>,
    Vec<String>,
) {
    let mut contents = std::collections::BTreeMap::new();
    let mut names = Vec::new();
    for dir in [
        "theories",
        "spectra",
        "models",
        "conjectures",
        "proofs",
        "reports",
    ] {
        for e in std::fs::read_dir(lib.join(dir)).unwrap() {
            let path = e.unwrap().path();
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            names.push(name.clone());
            if path.extension().is_some_and(|x| x == "json") {
                let mut v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                let o = v.as_object_mut().unwrap();
                for key in ["created", "started", "seconds", "llm_seconds"] {
                    o.remove(key);
                }
                for call in o
                    .get_mut("tool_calls")
                    .and_then(|c| c.as_array_mut())
                    .into_iter()
                    .flatten()
                {
                    call.as_object_mut().unwrap().remove("seconds");
                }
                verdicts_only(&mut v);
                contents.insert(name, v);
            }
        }
    }
    names.sort();
    (contents, names)
}

/// Every "known as X (kind): how" in `v` cut to "known as X (kind)". The verdict is compared;
/// the evidence after it may take another path in a resumed run, since which proof lands first
/// within a prover's time limit depends on the machine's load (a swap of arguments proved in one
/// run, the same definitions found by the general search in the other).
fn verdicts_only(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) => {
            if let Some(at) = s.find("known as ") {
                if let Some(end) = s[at..].find("): ") {
                    s.truncate(at + end + 1);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(verdicts_only),
        serde_json::Value::Object(o) => o.values_mut().for_each(verdicts_only),
        _ => {}
    }
}

/// Files in the library's record and report folders (temporary ones included).
fn files_written(lib: &Path) -> usize {
    [
        "theories",
        "spectra",
        "models",
        "conjectures",
        "proofs",
        "reports",
    ]
    .iter()
    .map(|d| std::fs::read_dir(lib.join(d)).map_or(0, |r| r.count()))
    .sum()
}

#[test]
fn a_run_killed_at_random_points_resumes_to_the_uninterrupted_library() {
    let dir = tempfile::tempdir().unwrap();
    let llm = script(dir.path(), "llm.sh", SCRIPTED_MODEL);
    let run = |lib: &Path| {
        let mut c = crate::birkhoff_command();
        c.args([
            "agent",
            "--cycles",
            "2",
            "--goal",
            "kill trials",
            "--check-ms",
            "60000",
            "--llm-command",
            llm.to_str().unwrap(),
            "--library",
            lib.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        c
    };
    let reference = dir.path().join("reference");
    let t0 = Instant::now();
    assert!(run(&reference).status().unwrap().success());
    let duration = t0.elapsed();
    let (expected, expected_names) = library_contents(&reference);
    let total_files = files_written(&reference);
    // The scripted run keeps a theory twice, under a second name: the first name stays, the
    // second is an alias with its cycle, and the reply says so.
    let kept: Vec<&serde_json::Value> = expected
        .values()
        .filter(|v| v["kind"] == "theory" && v["discovery"] == true)
        .collect();
    assert!(
        kept.iter().any(|t| t["name"] == "Kept1a"
            && t["aliases"][0]["name"] == "Kept1again"
            && t["aliases"][0]["cycle"] == 1),
        "{kept:?}"
    );
    assert!(
        !kept.iter().any(|t| t["name"] == "Kept1again"),
        "the first name was replaced: {kept:?}"
    );
    let report1 = &expected["reports/cycle-0001.json"];
    assert_eq!(report1["faults"], serde_json::json!([]), "{report1}");
    assert!(
        report1["tool_calls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["summary"]
                .as_str()
                .unwrap()
                .contains("already in the library as `Kept1a`; `Kept1again` is kept as an alias")),
        "{report1}"
    );
    // (Kept1b may be a mirror image of Kept1a, and then another presentation of it.)
    assert!(
        report1["discoveries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["name"] == "Kept1again" && d["alias_of"] == "Kept1a"),
        "{report1}"
    );
    // A seeded generator, printed so that a failing trial can be replayed.
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("kill trials seed {seed}");
    let mut next = move |below: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % below.max(1)
    };
    for trial in 0..20 {
        let lib = dir.path().join(format!("trial-{trial}"));
        let mut child = run(&lib).spawn().unwrap();
        // Half the trials stop the run at a random moment, half once a random number of its files
        // exist, so that kills also land among the writes, which take little of the run's time.
        let (by_time, at_files) = (trial % 2 == 0, 1 + next(total_files as u64) as usize);
        let deadline = Instant::now() + Duration::from_micros(next(duration.as_micros() as u64));
        let started = Instant::now();
        let finished = loop {
            if child.try_wait().unwrap().is_some() {
                break true;
            }
            if (by_time && Instant::now() >= deadline)
                || (!by_time && files_written(&lib) >= at_files)
            {
                break false;
            }
            // A hang, not a slow run: the guard grows with the uninterrupted run's time, which a
            // loaded machine stretches for every run alike.
            assert!(
                started.elapsed() < Duration::from_secs(60).max(duration * 3),
                "trial {trial}: the run did not finish"
            );
            std::thread::sleep(Duration::from_micros(200));
        };
        if !finished {
            child.kill().unwrap();
        }
        child.wait().unwrap();
        // Opening the library finishes a commit cut short; a run whose last report is there is
        // complete, and rerunning it would start a new one.
        let done = Library::open(&lib).is_ok_and(|l| l.report_numbers().unwrap().len() == 2);
        if !done {
            let o = run(&lib)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            assert!(o.status.success(), "trial {trial}: {}", text(&o));
        }
        let (got, names) = library_contents(&lib);
        let (missing, extra): (Vec<_>, Vec<_>) = (
            expected_names
                .iter()
                .filter(|n| !names.contains(n))
                .collect(),
            names
                .iter()
                .filter(|n| !expected_names.contains(n))
                .collect(),
        );
        assert!(
            missing.is_empty() && extra.is_empty(),
            "trial {trial} (killed {}): missing {missing:?}, extra {extra:?}",
            if by_time { "by time" } else { "by files" }
        );
        for (name, v) in &expected {
            assert_eq!(&got[name], v, "trial {trial}: {name} differs");
        }
    }
}

#[test]
fn llm_claude_without_claude_installed_stops_unless_the_fallback_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_arg(dir.path());
    let agent = |extra: &[&str]| {
        crate::birkhoff_command()
            .args([
                "agent",
                "--llm",
                "claude",
                "--goal",
                "study groups",
                "--library",
                &lib,
            ])
            .args(extra)
            .env("PATH", dir.path().join("no-programs-here"))
            .output()
            .unwrap()
    };
    let o = agent(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        text(&o).matches("`claude` is not installed").count(),
        1,
        "said once: {}",
        text(&o)
    );
    assert!(text(&o).contains("--fallback offline"), "{}", text(&o));
    assert!(
        !Path::new(&lib).join("reports").exists()
            || Library::open(Path::new(&lib))
                .unwrap()
                .report_numbers()
                .unwrap()
                .is_empty(),
        "no cycle ran"
    );
    // With the fallback asked for, the offline strategist runs, and it is said once.
    let o = agent(&["--fallback", "offline"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        text(&o).matches("`claude` is not installed").count(),
        1,
        "{}",
        text(&o)
    );
    let l = Library::open(Path::new(&lib)).unwrap();
    let report = l.report(1).unwrap();
    assert_eq!(report["plan_by"], "offline", "{report}");
    assert_eq!(report["faults"], serde_json::json!([]));
    // A --llm-command program that does not exist is refused the same way.
    let o = crate::birkhoff_command()
        .args([
            "agent",
            "--llm-command",
            "/no/such/model",
            "--goal",
            "study groups",
            "--library",
            &lib,
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("`/no/such/model` is not installed"),
        "{}",
        text(&o)
    );
}
