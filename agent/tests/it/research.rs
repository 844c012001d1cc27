//! `research step --llm claude` against the scripted stand-in: a good proposal adds the model's
//! records (text made printable) and runs the phase it chose; a formula that does not parse or
//! garbage is refused twice and the deterministic router decides instead.

use birkhoff_agent::{research, CliLlm};
use birkhoff_engine::Theory;
use birkhoff_library::record::{Body, TheoryRec};
use birkhoff_library::Library;
use birkhoff_research::record::{Actor, HypothesisStatus};
use birkhoff_research::steps::Options;
use birkhoff_research::{Phase, Record, Workspace};
use std::time::Duration;

const FAKE: &str = env!("CARGO_BIN_EXE_fake-claude");

/// A workspace for a commutative idempotent magma, in a fresh library.
fn workspace(dir: &std::path::Path) -> (Library, Workspace) {
    let mut lib = Library::open(dir).unwrap();
    let t = Theory::parse(
        "theory CommIdem\nfunc * : 2\naxiom idem: x * x = x\naxiom comm: x * y = y * x\n",
        "CI",
    )
    .unwrap();
    lib.put(Body::Theory(TheoryRec {
        name: "CI".into(),
        text: t.to_text(),
        fingerprint: t.fingerprint().to_string(),
        origin: "test".into(),
        parents: vec![],
        discovery: true,
        notes: String::new(),
        score: None,
        aliases: vec![],
        presentations: vec![],
    }))
    .unwrap();
    let (ws, _) = Workspace::create(&mut lib, "CI").unwrap();
    (lib, ws)
}

fn options() -> Options {
    let mut literature = birkhoff_literature::Config::default();
    literature.offline = true;
    Options {
        per_size: Duration::from_secs(10),
        prove_base: Duration::from_secs(2),
        literature,
        cancel: None,
    }
}

fn model(mode: &str) -> CliLlm {
    CliLlm::command(
        &format!("{FAKE} --fake-mode={mode}"),
        "test-model",
        "low",
        Duration::from_secs(30),
    )
    .unwrap()
}

#[test]
fn a_good_proposal_adds_records_and_runs_the_chosen_phase() {
    let dir = tempfile::tempdir().unwrap();
    let (mut lib, ws) = workspace(dir.path());
    let out = research::step(&model("good"), &mut lib, &ws, &options(), &mut |_| {}).unwrap();
    assert_eq!(
        (out.chosen_by.as_str(), out.report.phase),
        ("llm", Phase::Proof),
        "{out:?}"
    );
    let loaded = ws.load().unwrap();
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    // The model's hypothesis was proved by the proof step it chose (the literature, routed
    // first by the offline router, was skipped: the model decides).
    let h = loaded
        .hypotheses()
        .find(|h| h.statement == "x * y = y * x")
        .unwrap();
    assert_eq!(
        (h.by, h.status),
        (Actor::Llm, HypothesisStatus::Proved),
        "{h:?}"
    );
    let task = loaded
        .records
        .iter()
        .find_map(|r| {
            if let Record::Task(t) = r {
                Some(t)
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(
        task.title, "Scripted task",
        "the terminal escape is stripped"
    );
    assert_eq!(out.added.len(), 3, "{out:?}");
    assert!(std::fs::read_to_string(ws.dir.join("SYNTHESIS.md"))
        .unwrap()
        .contains("Ask about Steiner quasigroups"));
}

#[test]
fn bad_replies_are_refused_and_the_router_decides() {
    for mode in ["badformula", "garbage"] {
        let dir = tempfile::tempdir().unwrap();
        let (mut lib, ws) = workspace(dir.path());
        let out = research::step(&model(mode), &mut lib, &ws, &options(), &mut |_| {}).unwrap();
        assert_eq!(out.chosen_by, "offline", "{mode}: {out:?}");
        assert_eq!(
            out.faults.len(),
            2,
            "{mode}: one refusal per try: {:?}",
            out.faults
        );
        assert!(out.added.is_empty());
        // The router's choice for a new workspace: the literature.
        assert_eq!(out.report.phase, Phase::Literature, "{mode}");
        if mode == "badformula" {
            assert!(
                out.faults[0].contains("hypotheses[0].statement `x +++ y`"),
                "{:?}",
                out.faults
            );
        }
    }
}
