//! `birkhoff research` end to end on an offline agent run's library (the web viewer test's,
//! `html::library`): a workspace opened for a discovery the agent kept and for one named with
//! markup, status and validate as data, a broken record named by file and field with exit 1,
//! SYNTHESIS.md byte-identical across runs, `library search` finding a word that is only in
//! SYNTHESIS.md and one that is only in a record, and the routed steps with the network off.

use super::html::{birkhoff, library, text, SCRIPT_NAME};
use birkhoff_library::record::Body;
use birkhoff_library::Library;
use std::path::Path;

/// The first discovery (by name) the agent kept: not the one the test stored by hand.
fn agent_discovery(lib: &str) -> String {
    let l = Library::open(Path::new(lib)).unwrap();
    let mut names: Vec<String> = l
        .list("theory")
        .unwrap()
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Theory(t) if t.discovery && t.name != SCRIPT_NAME => Some(t.name),
            _ => None,
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .next()
        .expect("the offline run keeps a discovery")
}

fn json(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(o)))
}

fn search_ids(lib: &str, word: &str) -> Vec<String> {
    let o = birkhoff(&["library", "search", word, "--library", lib, "--json"]);
    json(&o)
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn research_workspace_from_an_offline_run() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let name = agent_discovery(&lib);
    let o = birkhoff(&["research", "open", &name, "--library", &lib, "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let opened = json(&o);
    let slug = opened["slug"].as_str().unwrap().to_string();
    let ws = Path::new(&lib).join("research").join(&slug);
    for f in [
        "PROBLEM.md",
        "LITERATURE.md",
        "PROOF.md",
        "COMPUTATION.md",
        "STATE.md",
        "SYNTHESIS.md",
        "OUTPUT.tex",
    ] {
        assert!(ws.join(f).is_file(), "{f}");
    }
    assert_eq!(opened["next"]["phase"], "literature");
    // The discovery named with markup gets a workspace whose name is a plain slug, and its
    // markup is escaped wherever Markdown shows it (the front matter is YAML data, quoted as
    // YAML needs).
    let o = birkhoff(&["research", "open", SCRIPT_NAME, "--library", &lib, "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let script_slug = json(&o)["slug"].as_str().unwrap().to_string();
    assert_eq!(script_slug, "script-document-title-pwned-script");
    let script_ws = Path::new(&lib).join("research").join(&script_slug);
    for f in ["PROBLEM.md", "STATE.md", "SYNTHESIS.md"] {
        let t = std::fs::read_to_string(script_ws.join(f)).unwrap();
        let body = t
            .strip_prefix("---\n")
            .and_then(|r| r.split_once("\n---\n"))
            .map_or(t.as_str(), |(_, b)| b);
        assert!(
            !body.contains("<script>") && body.contains("\\<script\\>"),
            "{f}: {t}"
        );
    }

    // status and validate as data.
    let o = birkhoff(&["research", "status", "--library", &lib, "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let all = json(&o);
    assert_eq!(all.as_array().unwrap().len(), 2);
    let o = birkhoff(&["research", "validate", &slug, "--library", &lib, "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(json(&o)["valid"], true);

    // A task by hand, with a word found nowhere else ("marmoset" only in the record's links note
    // field is not possible: tasks have no notes, so the word goes into a lead's notes).
    std::fs::write(ws.join("records/tasks/T-001.yaml"), "schema_version: 1\nid: T-001\ntitle: Check the tables by hand\nstatus: todo\npriority: high\nby: human\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n").unwrap();
    std::fs::write(ws.join("records/leads/L-001.yaml"), "schema_version: 1\nid: L-001\ntitle: Ask the LOOPS package\nstatus: new\npriority: low\nnotes: the marmoset construction\nby: human\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n").unwrap();
    let o = birkhoff(&["research", "synthesize", &slug, "--library", &lib]);
    assert!(o.status.success(), "{}", text(&o));
    let first = std::fs::read(ws.join("SYNTHESIS.md")).unwrap();
    let o = birkhoff(&["research", "synthesize", "--library", &lib]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read(ws.join("SYNTHESIS.md")).unwrap(),
        first,
        "two runs differ"
    );
    assert!(
        String::from_utf8_lossy(&first).contains("**T-001** [high, todo] Check the tables by hand")
    );

    // library search finds a word only in SYNTHESIS.md and one only in a record.
    assert_eq!(
        search_ids(&lib, "marmoset"),
        [format!("research/{slug}/records/leads/L-001.yaml")]
    );
    assert!(search_ids(&lib, "Rendered").contains(&format!("research/{slug}/SYNTHESIS.md")));
    // library show prints a document search found; a path it did not index is no record.
    let o = birkhoff(&[
        "library",
        "show",
        &format!("research/{slug}/records/leads/L-001.yaml"),
        "--library",
        &lib,
    ]);
    assert!(
        o.status.success() && text(&o).contains("notes: the marmoset construction"),
        "{}",
        text(&o)
    );
    let o = birkhoff(&[
        "library",
        "show",
        &format!("research/{slug}/../../index.sqlite"),
        "--library",
        &lib,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));

    // A record that breaks the schema: exit 1, its file and field named; synthesize and step refuse.
    std::fs::write(ws.join("records/tasks/T-002.yaml"), "schema_version: 1\nid: T-002\ntitle: Wait\nstatus: waiting\npriority: high\nblocked_on: [T-404]\nby: human\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n").unwrap();
    let o = birkhoff(&["research", "validate", &slug, "--library", &lib]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o)
            .contains("records/tasks/T-002.yaml:4:9: field `status`: unknown variant `waiting`"),
        "{}",
        text(&o)
    );
    let o = birkhoff(&["research", "synthesize", &slug, "--library", &lib]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(std::fs::read(ws.join("SYNTHESIS.md")).unwrap(), first);
    std::fs::write(ws.join("records/tasks/T-002.yaml"), "schema_version: 1\nid: T-002\ntitle: Wait\nstatus: blocked\npriority: high\nblocked_on: [T-404]\nby: human\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n").unwrap();
    let o = birkhoff(&["research", "validate", &slug, "--library", &lib, "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let problems = &json(&o)["workspaces"][0]["problems"];
    assert_eq!(problems[0]["file"], "records/tasks/T-002.yaml");
    assert_eq!(problems[0]["field"], "blocked_on[0]");
    std::fs::remove_file(ws.join("records/tasks/T-002.yaml")).unwrap();

    // The routed step with the network off: the literature search fails and is recorded, and
    // the route moves on.
    let o = crate::birkhoff_command()
        .args(["research", "step", &slug, "--library", &lib, "--json"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let step = json(&o);
    assert_eq!(
        (step["phase"].as_str(), step["attempt"].as_str()),
        (Some("literature"), Some("A-001"))
    );
    assert_ne!(step["next"]["phase"], "literature");
    let state = std::fs::read_to_string(ws.join("STATE.md")).unwrap();
    assert!(state.contains("| A-001 | literature | failed |"), "{state}");
    assert!(std::fs::read_to_string(ws.join("SYNTHESIS.md"))
        .unwrap()
        .contains("**A-001** literature, failed"));

    // --llm claude through a program speaking the CLI protocol: its proposal adds a hypothesis
    // by the model and runs the phase it chose; a program that is not there is an error.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let model = bin.join("model");
    let reply = r#"<research>{"phase": "proof", "reason": "the commutative law", "hypotheses": [{"statement": "x * y = y * x", "confidence": "high"}]}</research>"#;
    std::fs::write(
        &model,
        format!(
            "#!/bin/sh
/bin/cat > /dev/null
echo '{reply}'
"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&model, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let llm_step = |program: &str| {
        birkhoff(&[
            "research",
            "step",
            &slug,
            "--llm",
            "claude",
            "--llm-command",
            program,
            "--prove-timeout",
            "1",
            "--library",
            &lib,
            "--json",
        ])
    };
    let o = llm_step(model.to_str().unwrap());
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
    assert!(
        text(&o).contains("chosen by llm: the commutative law"),
        "{}",
        text(&o)
    );
    assert_eq!(json(&o)["phase"], "proof");
    let h = std::fs::read_dir(ws.join("records/hypotheses"))
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
        .find(|t| t.contains("statement: x * y = y * x"));
    assert!(h.is_some_and(|t| t.contains("by: llm")));
    // A program that closes its input unread and replies a moment later, given a prompt larger
    // than a pipe holds (PROBLEM.md of 20,000 four-byte characters): its reply is still judged,
    // and the command is not killed by SIGPIPE while handing over the prompt.
    let problem = ws.join("PROBLEM.md");
    let kept = std::fs::read_to_string(&problem).unwrap();
    std::fs::write(&problem, format!("{kept}\n{}\n", "𝔽".repeat(20_000))).unwrap();
    std::fs::write(
        &model,
        format!("#!/bin/sh\nexec 0<&-\n/bin/sleep 1\necho '{reply}'\n"),
    )
    .unwrap();
    let o = llm_step(model.to_str().unwrap());
    assert!(matches!(o.status.code(), Some(0 | 1)), "{o:?}");
    assert!(
        text(&o).contains("chosen by llm: the commutative law"),
        "{}",
        text(&o)
    );
    std::fs::write(&problem, kept).unwrap();
    let o = llm_step("/nonexistent/model");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--llm-command: `/nonexistent/model` is not installed"),
        "{}",
        text(&o)
    );

    // Usage errors name what is wrong.
    let o = birkhoff(&[
        "research",
        "step",
        &slug,
        "--phase",
        "dreaming",
        "--library",
        &lib,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--phase"), "{}", text(&o));
    let o = birkhoff(&["research", "status", "no-such-workspace", "--library", &lib]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("no research workspace `no-such-workspace`"),
        "{}",
        text(&o)
    );
}
