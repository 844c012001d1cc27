//! A workspace opened for a discovery in a real library: its files, records that break the
//! schema reported with file and field, a synthesis byte-identical across runs, search through
//! the library's index, and the offline computation and proof steps.

use birkhoff_engine::Theory;
use birkhoff_library::record::{Body, ConjectureRec, ConjectureStatus, TheoryRec};
use birkhoff_library::Library;
use birkhoff_research::record::HypothesisStatus;
use birkhoff_research::steps::{self, Options};
use birkhoff_research::{Error, Kind, Phase, Workspace};
use std::path::Path;
use std::time::Duration;

/// A commutative idempotent magma: `(x * x) * x = x` follows from its axioms, associativity does
/// not (the Steiner quasigroup of order 3 is a countermodel).
const THEORY: &str =
    "theory CommIdem\nfunc * : 2\naxiom idem: x * x = x\naxiom comm: x * y = y * x\n";
const NAME: &str = "Commutative Idempotent Magma";

/// A library holding the discovery and one open conjecture about it.
fn library(dir: &Path) -> Library {
    let mut lib = Library::open(dir).unwrap();
    let t = Theory::parse(THEORY, NAME).unwrap();
    let rec = TheoryRec {
        name: NAME.into(),
        text: t.to_text(),
        fingerprint: t.fingerprint().to_string(),
        origin: "test".into(),
        parents: vec![],
        discovery: true,
        notes: "kept by the test".into(),
        score: None,
        aliases: vec![],
        presentations: vec![],
    };
    let (thy, _) = lib.put(Body::Theory(rec)).unwrap();
    let c = ConjectureRec {
        theory_id: thy.id,
        theory_name: NAME.into(),
        statement: "(x * x) * x = x".into(),
        status: ConjectureStatus::Open,
        evidence: "true in every model up to size 3".into(),
        countermodel: None,
        proof: None,
        proposed_by: "offline".into(),
        claim: None,
    };
    lib.put(Body::Conjecture(c)).unwrap();
    lib
}

fn quick() -> Options {
    let mut literature = birkhoff_literature::Config::default();
    literature.offline = true;
    Options {
        per_size: Duration::from_secs(10),
        prove_base: Duration::from_secs(2),
        literature,
        cancel: None,
    }
}

#[test]
fn open_makes_the_files_and_mirrors_the_conjectures() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, fresh) = Workspace::create(&mut lib, NAME).unwrap();
    assert!(fresh);
    assert_eq!(ws.slug, "commutative-idempotent-magma");
    assert_eq!(
        ws.dir,
        dir.path().join("research/commutative-idempotent-magma")
    );
    for f in birkhoff_research::workspace::FILES {
        assert!(ws.dir.join(f).is_file(), "{f}");
    }
    let loaded = ws.load().unwrap();
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let h: Vec<_> = loaded.hypotheses().collect();
    assert_eq!(h.len(), 1);
    assert_eq!(
        (h[0].id.as_str(), h[0].statement.as_str(), h[0].status),
        ("H-001", "(x * x) * x = x", HypothesisStatus::Active)
    );
    assert!(std::fs::read_to_string(ws.dir.join("STATE.md"))
        .unwrap()
        .contains("phase: literature"));
    // Opening again changes nothing and adds no second hypothesis.
    let before = std::fs::read(ws.dir.join("SYNTHESIS.md")).unwrap();
    let (_, fresh) = Workspace::create(&mut lib, NAME).unwrap();
    assert!(!fresh);
    assert_eq!(ws.load().unwrap().hypotheses().count(), 1);
    assert_eq!(std::fs::read(ws.dir.join("SYNTHESIS.md")).unwrap(), before);
    assert!(matches!(
        Workspace::create(&mut lib, "No Such Discovery"),
        Err(Error::NoDiscovery(_))
    ));
}

/// Writes a record file by hand, as a person or another tool would.
fn write(ws: &Workspace, rel: &str, text: &str) {
    std::fs::write(ws.dir.join(rel), text).unwrap();
}

const TASK: &str = "schema_version: 1\nid: T-001\ntitle: Compare with the Steiner quasigroups\nstatus: todo\npriority: high\nlinks: [H-001]\nby: human\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n";
const LEAD: &str = "schema_version: 1\nid: L-001\ntitle: Idempotent commutative groupoids\nstatus: new\npriority: medium\nnotes: Ask about the xylophonic construction.\nby: human\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n";

#[test]
fn broken_records_are_reported_with_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    let synthesis = std::fs::read(ws.dir.join("SYNTHESIS.md")).unwrap();
    // A missing field, a status that is not one of the schema's, a dangling reference, a reference
    // to the wrong kind, a date that is no date, an ID that is not the file's, an unknown field.
    write(
        &ws,
        "records/tasks/T-001.yaml",
        &TASK.replace("priority: high\n", ""),
    );
    write(
        &ws,
        "records/tasks/T-002.yaml",
        &TASK
            .replace("T-001", "T-002")
            .replace("status: todo", "status: someday"),
    );
    write(
        &ws,
        "records/tasks/T-003.yaml",
        &TASK
            .replace("T-001", "T-003")
            .replace("links: [H-001]", "blocked_on: [T-009]\nlinks: [H-001]"),
    );
    write(
        &ws,
        "records/tasks/T-004.yaml",
        &TASK
            .replace("T-001", "T-004")
            .replace("links: [H-001]", "blocked_on: [H-001]"),
    );
    write(
        &ws,
        "records/leads/L-001.yaml",
        &LEAD.replace(
            "created: 2026-01-02T03:04:05Z",
            "created: 2026-02-30T03:04:05Z",
        ),
    );
    write(&ws, "records/leads/L-002.yaml", LEAD);
    write(
        &ws,
        "records/leads/L-003.yaml",
        &LEAD
            .replace("L-001", "L-003")
            .replace("notes:", "colour: blue\nnotes:"),
    );
    let problems: Vec<String> = ws
        .load()
        .unwrap()
        .problems
        .iter()
        .map(ToString::to_string)
        .collect();
    let expect = [
        "records/leads/L-001.yaml:8:1: field `created`: `2026-02-30T03:04:05Z` is not a UTC time",
        "records/leads/L-002.yaml:2:1: field `id`: `L-001` differs from the file name `L-002.yaml`",
        "records/leads/L-003.yaml:6:1: field `colour`: unknown field `colour`",
        "records/tasks/T-001.yaml: field `priority`: missing field `priority`",
        "records/tasks/T-002.yaml:4:9: field `status`: unknown variant `someday`",
        "records/tasks/T-003.yaml:6:1: field `blocked_on[0]`: `T-009` refers to no record of this workspace",
        "records/tasks/T-004.yaml:6:1: field `blocked_on[0]`: `H-001` is a hypotheses, not a tasks",
    ];
    for e in expect {
        assert!(
            problems.iter().any(|p| p.starts_with(e)),
            "no problem starting {e:?} in\n{}",
            problems.join("\n")
        );
    }
    // L-001 (the same ID twice) is named too; nothing else.
    assert!(
        problems
            .iter()
            .any(|p| p.contains("is used by another file too")),
        "{problems:?}"
    );
    assert_eq!(problems.len(), expect.len() + 1, "{}", problems.join("\n"));
    // With problems, the synthesis is not rewritten and no step runs.
    assert!(
        matches!(steps::refresh(&mut lib, &ws), Err(Error::Invalid(p)) if p.len() == problems.len())
    );
    assert_eq!(
        std::fs::read(ws.dir.join("SYNTHESIS.md")).unwrap(),
        synthesis
    );
    assert!(matches!(
        steps::run(
            &mut lib,
            &ws,
            Some(Phase::Computation),
            &quick(),
            &mut |_| {}
        ),
        Err(Error::Invalid(_))
    ));
}

#[test]
fn synthesis_is_byte_identical_across_runs_and_follows_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    write(&ws, "records/tasks/T-001.yaml", TASK);
    write(&ws, "records/leads/L-001.yaml", LEAD);
    steps::refresh(&mut lib, &ws).unwrap();
    let first = std::fs::read(ws.dir.join("SYNTHESIS.md")).unwrap();
    let state = std::fs::read(ws.dir.join("STATE.md")).unwrap();
    // A second run, and one from a fresh library handle after the file was removed.
    steps::refresh(&mut lib, &ws).unwrap();
    assert_eq!(std::fs::read(ws.dir.join("SYNTHESIS.md")).unwrap(), first);
    std::fs::remove_file(ws.dir.join("SYNTHESIS.md")).unwrap();
    drop(lib);
    let mut lib = Library::open(dir.path()).unwrap();
    steps::refresh(&mut lib, &ws).unwrap();
    assert_eq!(std::fs::read(ws.dir.join("SYNTHESIS.md")).unwrap(), first);
    assert_eq!(std::fs::read(ws.dir.join("STATE.md")).unwrap(), state);
    let text = String::from_utf8(first.clone()).unwrap();
    assert!(
        text.contains("**T-001** [high, todo] Compare with the Steiner quasigroups"),
        "{text}"
    );
    assert!(
        text.contains("**H-001** (high confidence) (x \\* x) \\* x = x"),
        "{text}"
    );
    // Changing one record changes it.
    write(
        &ws,
        "records/tasks/T-001.yaml",
        &TASK.replace("status: todo", "status: doing"),
    );
    steps::refresh(&mut lib, &ws).unwrap();
    let changed = std::fs::read_to_string(ws.dir.join("SYNTHESIS.md")).unwrap();
    assert_ne!(changed.as_bytes(), &first[..]);
    assert!(changed.contains("**T-001** [high, doing]"), "{changed}");
}

#[test]
fn library_search_finds_the_synthesis_and_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    write(&ws, "records/leads/L-001.yaml", LEAD);
    steps::refresh(&mut lib, &ws).unwrap();
    let ids = |lib: &Library, q: &str| {
        lib.search(q, None, 20)
            .unwrap()
            .into_iter()
            .map(|h| h.id)
            .collect::<Vec<_>>()
    };
    // "xylophonic" is only in the lead's notes, which the synthesis leaves out; "Rendered" only in
    // the synthesis's header.
    let lead = format!("research/{}/records/leads/L-001.yaml", ws.slug);
    let synthesis = format!("research/{}/SYNTHESIS.md", ws.slug);
    assert_eq!(ids(&lib, "xylophonic"), std::slice::from_ref(&lead));
    assert_eq!(ids(&lib, "Rendered"), [synthesis]);
    // A fresh handle finds them as well (the index lives in the library's SQLite file).
    drop(lib);
    let lib = Library::open(dir.path()).unwrap();
    assert_eq!(ids(&lib, "xylophonic"), [lead]);
}

#[test]
fn the_computation_step_extends_the_spectrum_and_records_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    let report = steps::run(
        &mut lib,
        &ws,
        Some(Phase::Computation),
        &quick(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(
        (report.phase, report.attempt.as_deref()),
        (Phase::Computation, Some("A-001"))
    );
    let loaded = ws.load().unwrap();
    let a = loaded.attempts().next().unwrap();
    assert_eq!(
        a.outcome,
        birkhoff_research::record::Outcome::Success,
        "{}",
        a.summary
    );
    assert!(
        a.summary
            .starts_with("spectrum exact through size 4 (was 0)"),
        "{}",
        a.summary
    );
    let meta = ws.meta().unwrap();
    let rows = lib.spectrum_of(&meta.theory_id).unwrap();
    assert_eq!(steps::exact_to(&rows, 1), 4);
    // Labeled commutative idempotent magmas: each of the n(n-1)/2 products off the diagonal is
    // free, n^(n(n-1)/2) in all.
    let labeled: Vec<u128> = rows.iter().map(|r| r.labeled.value).collect();
    assert_eq!(labeled, [1, 2, 27, 4096]);
    assert_eq!(a.artifacts.len(), 1);
    assert!(lib.get(&a.artifacts[0]).is_ok());
    let comp = std::fs::read_to_string(ws.dir.join("COMPUTATION.md")).unwrap();
    assert!(
        comp.contains("## Computation 1 (A-001): the spectrum to size 4")
            && comp.contains("| 4 | 192 | 4096 |"),
        "{comp}"
    );
    let state = std::fs::read_to_string(ws.dir.join("STATE.md")).unwrap();
    assert!(
        state.contains("| spectrum exact through size | 4 |")
            && state.contains("| A-001 | computation | success |"),
        "{state}"
    );
}

#[test]
fn the_proof_step_proves_and_refutes_and_stores_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    write(&ws, "records/hypotheses/H-002.yaml", "schema_version: 1\nid: H-002\nstatement: x * (y * z) = (x * y) * z\nstatus: active\nconfidence: low\nby: human\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n");
    let report = steps::run(&mut lib, &ws, Some(Phase::Proof), &quick(), &mut |_| {}).unwrap();
    assert_eq!(
        report.outcome,
        birkhoff_research::record::Outcome::Success,
        "{}",
        report.summary
    );
    let loaded = ws.load().unwrap();
    let h: Vec<_> = loaded.hypotheses().collect();
    assert_eq!(
        (h[0].status, h[1].status),
        (HypothesisStatus::Proved, HypothesisStatus::Refuted)
    );
    let a = loaded.attempts().next().unwrap();
    assert_eq!(a.hypotheses, ["H-001", "H-002"]);
    // The proof is stored with its certificate and the conjecture marked proved; the refutation
    // left a model and a refuted conjecture.
    let proof = a
        .artifacts
        .iter()
        .find(|id| id.starts_with("prf-"))
        .unwrap();
    let Body::Proof(p) = lib.get(proof).unwrap().body else {
        panic!("not a proof")
    };
    assert_eq!(p.statement, "(x * x) * x = x");
    let Body::Conjecture(c) = lib.get(&p.conjecture_id).unwrap().body else {
        panic!("not a conjecture")
    };
    assert_eq!(
        (c.status, c.proof.as_deref(), c.proposed_by.as_str()),
        (ConjectureStatus::Proved, Some(proof.as_str()), "offline")
    );
    assert!(a.artifacts.iter().any(|id| id.starts_with("mod-")));
    let text = std::fs::read_to_string(ws.dir.join("PROOF.md")).unwrap();
    assert!(
        text.contains("## H-001: (x \\* x) \\* x = x")
            && text.contains("## H-002: x \\* (y \\* z) = (x \\* y) \\* z is false"),
        "{text}"
    );
    // Nothing is left for the prover, so (with no literature searched yet) the route says literature.
    assert_eq!(report.next.phase, Phase::Literature);
}

#[test]
fn open_writes_the_paper_and_the_writing_step_rewrites_it_after_the_other_steps() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    let tex = std::fs::read_to_string(ws.dir.join("OUTPUT.tex")).unwrap();
    assert!(
        tex.contains("\\documentclass") && tex.contains("Commutative Idempotent Magma"),
        "{tex}"
    );
    // A proof step ran after it: the route ends with writing, which rewrites it with the proof.
    steps::run(&mut lib, &ws, Some(Phase::Proof), &quick(), &mut |_| {}).unwrap();
    let loaded = ws.load().unwrap();
    assert!(!steps::facts(&lib, &ws, &loaded).unwrap().output_written);
    let report = steps::run(&mut lib, &ws, Some(Phase::Writing), &quick(), &mut |_| {}).unwrap();
    assert_eq!(
        (report.phase, report.outcome),
        (Phase::Writing, birkhoff_research::record::Outcome::Success),
        "{}",
        report.summary
    );
    let loaded = ws.load().unwrap();
    assert!(steps::facts(&lib, &ws, &loaded).unwrap().output_written);
    assert!(ws.dir.join("references.bib").is_file());
    let after = std::fs::read_to_string(ws.dir.join("OUTPUT.tex")).unwrap();
    assert_ne!(
        after, tex,
        "the proof found since is in the rewritten paper"
    );
}

#[test]
fn the_routed_step_searches_the_literature_first_and_moves_on_without_a_network() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    let report = steps::run(&mut lib, &ws, None, &quick(), &mut |_| {}).unwrap();
    assert_eq!(report.phase, Phase::Literature);
    assert_eq!(
        report.outcome,
        birkhoff_research::record::Outcome::Failed,
        "{}",
        report.summary
    );
    assert_eq!(report.next.phase, Phase::Proof, "{:?}", report.next);
    assert_eq!(ws.load().unwrap().of(Kind::Attempt).count(), 1);
}

#[test]
fn ctrl_c_inside_a_proof_leaves_the_hypothesis_untried() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    let before = ws
        .load()
        .unwrap()
        .hypotheses()
        .next()
        .unwrap()
        .evidence
        .clone();
    // Ctrl-C as the prover starts on H-001: the prover sees the flag and stops at once.
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opts = Options {
        cancel: Some(cancel.clone()),
        ..quick()
    };
    let _ = steps::run(&mut lib, &ws, Some(Phase::Proof), &opts, &mut |line| {
        if line.starts_with("proof: H-001") {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let loaded = ws.load().unwrap();
    let h = loaded.hypotheses().next().unwrap();
    assert_eq!(h.status, HypothesisStatus::Active);
    assert_eq!(
        h.evidence, before,
        "an interrupted proof is no round of the hypothesis"
    );
    assert!(
        loaded.attempts().all(|a| a.hypotheses.is_empty()),
        "{:?}",
        loaded.attempts().map(|a| &a.hypotheses).collect::<Vec<_>>()
    );
}

#[test]
fn a_linked_file_is_refused_and_an_oversized_record_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = library(dir.path());
    let (ws, _) = Workspace::create(&mut lib, NAME).unwrap();
    // PROOF.md planted as a link to a file outside the library: the proof step would read it to
    // add its section and copy it into the library.
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "SECRET from outside\n").unwrap();
    let proof = ws.dir.join("PROOF.md");
    std::fs::remove_file(&proof).unwrap();
    std::os::unix::fs::symlink(&secret, &proof).unwrap();
    let e = steps::run(&mut lib, &ws, Some(Phase::Proof), &quick(), &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&proof.display().to_string()) && e.contains("symbolic link"),
        "{e}"
    );
    assert!(std::fs::symlink_metadata(&proof)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(&secret).unwrap(),
        "SECRET from outside\n"
    );
    assert!(matches!(ws.read("PROOF.md"), Err(Error::Library(_))));
    // A record larger than the cap is a problem of its file, found from its length, not read.
    let big = std::fs::File::create(ws.dir.join("records/leads/L-009.yaml")).unwrap();
    big.set_len(4 << 30).unwrap();
    let problems: Vec<String> = ws
        .load()
        .unwrap()
        .problems
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("records/leads/L-009.yaml")
                && p.contains(&format!(
                    "{} bytes, more than the limit of {}",
                    4u64 << 30,
                    birkhoff_research::record::MAX_RECORD_BYTES
                ))),
        "{problems:?}"
    );
}
