//! The library end to end: reindex equivalence, backtest catching tampering, concurrent writers,
//! and names that try to leave the library directory.

use birkhoff_checker::Count;
use birkhoff_engine::{seeds, Structure, Theory};
use birkhoff_library::cycle::{CycleReport, Decisions, Plan, RunInfo};
use birkhoff_library::record::*;
use birkhoff_library::{backtest, statement, Library};
use std::collections::BTreeMap;
use std::path::Path;

fn theory_body(t: &Theory, score: Option<f64>) -> Body {
    Body::Theory(TheoryRec {
        name: t.name.clone(),
        text: t.to_text(),
        fingerprint: t.fingerprint().to_string(),
        origin: "seed".into(),
        parents: vec![],
        discovery: false,
        notes: t.doc.clone(),
        score: score.map(|total| Score {
            total,
            dims: BTreeMap::from([("novelty".to_string(), total / 2.0)]),
        }),
        aliases: vec![],
        presentations: vec![],
    })
}

fn z_n(g: &Theory, n: u32) -> Structure {
    Structure::from_fn(
        &g.sig,
        &[n],
        |f, a| match f {
            "*" => (a[0] + a[1]) % n,
            "inv" => (n - a[0]) % n,
            _ => 0,
        },
        |_, _| false,
    )
}

/// A library with seeds, models, a spectrum and conjectures.
fn populate(lib: &mut Library) -> (String, String) {
    for (i, s) in seeds::all().iter().enumerate() {
        let t = seeds::load(s.name).unwrap();
        lib.put(theory_body(&t, (i % 3 != 0).then_some(i as f64 / 40.0)))
            .unwrap();
    }
    let g = seeds::load("group").unwrap();
    let gid = theory_body(&g, None).id();
    let mut model_id = String::new();
    for n in 1..=4 {
        let (r, _) = lib
            .put(Body::Model(ModelRec {
                theory_id: gid.clone(),
                theory_name: g.name.clone(),
                structure: z_n(&g, n).to_json(&g.sig),
            }))
            .unwrap();
        model_id = r.id;
    }
    let row = |n: u32, c: u128| SpectrumRow {
        sizes: vec![n],
        iso: Count {
            value: c,
            status: birkhoff_checker::Status::Exact,
        },
        labeled: Count {
            value: c,
            status: birkhoff_checker::Status::Exact,
        },
    };
    lib.put(Body::Spectrum(SpectrumRec {
        theory_id: gid.clone(),
        theory_name: g.name.clone(),
        rows: vec![row(1, 1), row(2, 1)],
    }))
    .unwrap();
    assert!(statement::parse(&g, "x * x = e").is_ok());
    lib.put(Body::Conjecture(ConjectureRec {
        theory_id: gid.clone(),
        theory_name: g.name.clone(),
        statement: "x * y = y * x".into(),
        status: ConjectureStatus::Open,
        evidence: "no countermodel up to size 4".into(),
        countermodel: None,
        proof: None,
        proposed_by: "offline".into(),
        claim: None,
    }))
    .unwrap();
    (gid, model_id)
}

const QUERIES: [&str; 6] = [
    "group",
    "assoc identity",
    "lattice",
    "",
    "x * y = y * x",
    "no such word",
];

fn results(lib: &Library) -> Vec<Vec<birkhoff_library::index::Hit>> {
    let mut out: Vec<_> = QUERIES
        .iter()
        .map(|q| lib.search(q, None, 100).unwrap())
        .collect();
    out.push(lib.search("", Some(0.3), 100).unwrap());
    out.push(lib.search("group", Some(0.1), 100).unwrap());
    out
}

#[test]
fn reindex_gives_the_same_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    populate(&mut lib);
    let before = results(&lib);
    assert!(before[0].iter().any(|h| h.name == "Group"));
    assert!(before[5].is_empty());
    assert!(before[6].iter().all(|h| h.score.is_some_and(|s| s >= 0.3)) && !before[6].is_empty());
    let n = lib.reindex().unwrap();
    assert_eq!(n, lib.load_all().unwrap().len());
    assert_eq!(results(&lib), before);
    // Deleting the index entirely and reopening rebuilds it from the files.
    drop(lib);
    std::fs::remove_file(dir.path().join("index.sqlite")).unwrap();
    let lib = Library::open(dir.path()).unwrap();
    assert_eq!(results(&lib), before);
    // A garbage index file is replaced, not trusted.
    drop(lib);
    std::fs::write(dir.path().join("index.sqlite"), b"not a database").unwrap();
    let lib = Library::open(dir.path()).unwrap();
    assert_eq!(results(&lib), before);
}

#[test]
fn backtest_catches_a_tampered_model() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    let (_, model_id) = populate(&mut lib);
    let clean = backtest::run(&lib).unwrap();
    assert!(clean.failures.is_empty(), "{:?}", clean.failures);
    assert_eq!(clean.checked["model"], 4);
    // Z_4 with one product changed is no longer a group.
    let path = lib.path_of(&model_id).unwrap();
    let mut rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    rec["structure"]["functions"]["*"][1][1] = serde_json::json!(3);
    std::fs::write(&path, serde_json::to_string_pretty(&rec).unwrap()).unwrap();
    let report = backtest::run(&lib).unwrap();
    let problems: Vec<&str> = report
        .failures
        .iter()
        .filter(|f| f.file.contains(&model_id))
        .map(|f| f.problem.as_str())
        .collect();
    assert!(
        problems.iter().any(|p| p.contains("not a model of Group")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("does not match its ID")),
        "{problems:?}"
    );
    // A file that is not JSON at all is a failure too, not skipped.
    std::fs::write(
        dir.path().join("models").join("mod-0000000000000000.json"),
        b"{garbage",
    )
    .unwrap();
    let report = backtest::run(&lib).unwrap();
    assert!(report.failures.iter().any(
        |f| f.file.contains("mod-0000000000000000") && f.problem.contains("not a valid record")
    ));
}

#[test]
fn a_record_linked_outside_the_library_is_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    let (_, model_id) = populate(&mut lib);
    // The record moved outside and a link left in its place: it is not read through the link.
    let path = lib.path_of(&model_id).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let moved = outside.path().join("model.json");
    std::fs::rename(&path, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &path).unwrap();
    let e = lib.get(&model_id).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("{}: a symbolic link", path.display())),
        "{e}"
    );
    assert!(lib.list("model").unwrap().iter().all(|r| r.id != model_id));
    let report = backtest::run(&lib).unwrap();
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.file.contains(&model_id) && f.problem.contains("symbolic link")),
        "{:?}",
        report.failures
    );
}

#[test]
fn a_commit_journal_linked_outside_the_library_is_not_carried_out() {
    let dir = tempfile::tempdir().unwrap();
    drop(Library::open(dir.path()).unwrap());
    // A journal outside, with a report to publish, and a link to it where a killed cycle leaves one.
    let outside = tempfile::tempdir().unwrap();
    let journal = outside.path().join("commit.json");
    std::fs::write(
        &journal,
        r#"{"number": 1, "records": [], "report": {"planted": true}, "markdown": "planted"}"#,
    )
    .unwrap();
    let link = dir.path().join("reports/commit.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&journal, &link).unwrap();
    let e = Library::open(dir.path())
        .err()
        .expect("the link is refused")
        .to_string();
    assert!(
        e.starts_with(&format!("{}: a symbolic link", link.display())),
        "{e}"
    );
    assert!(!dir.path().join("reports/cycle-0001.json").exists());
}

#[test]
fn refuted_conjecture_needs_a_real_countermodel() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    let (gid, model_id) = populate(&mut lib);
    let conj = |statement: &str| ConjectureRec {
        theory_id: gid.clone(),
        theory_name: "Group".into(),
        statement: statement.into(),
        status: ConjectureStatus::Refuted,
        evidence: "countermodel".into(),
        countermodel: Some(model_id.clone()),
        proof: None,
        proposed_by: "test".into(),
        claim: None,
    };
    // Z_4 refutes x*x = e (1+1 = 2) but not commutativity.
    lib.put(Body::Conjecture(conj("x * x = e"))).unwrap();
    assert!(backtest::run(&lib).unwrap().failures.is_empty());
    lib.put(Body::Conjecture(conj("x * y = y * x"))).unwrap();
    let report = backtest::run(&lib).unwrap();
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.problem.contains("satisfies the statement")),
        "{:?}",
        report.failures
    );
}

/// An empty cycle report whose goal names its writer.
fn report_by(writer: u32) -> CycleReport {
    CycleReport {
        cycle: 0,
        run: RunInfo {
            key: "test".into(),
            index: 1,
            of: 1,
        },
        goal: format!("writer {writer}"),
        llm: "none".into(),
        started: 0,
        seconds: 0.0,
        llm_seconds: 0.0,
        plan: Plan {
            strategy: String::new(),
            explorations: Vec::new(),
            check_top: 1,
            max_size: 1,
            prove: Vec::new(),
            search: Vec::new(),
        },
        plan_by: "test".into(),
        tool_calls: Vec::new(),
        generated: 0,
        triaged: 0,
        spectra: 0,
        identified: 0,
        checked: 0,
        with_models: 0,
        top: Vec::new(),
        discoveries: Vec::new(),
        conjectures: Vec::new(),
        decisions: Decisions {
            analysis: String::new(),
            keep: Vec::new(),
            conjectures: Vec::new(),
        },
        decisions_by: "test".into(),
        faults: Vec::new(),
    }
}

#[test]
fn concurrent_writers_do_not_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    Library::open(dir.path()).unwrap();
    let g = seeds::load("group").unwrap();
    let gid = theory_body(&g, None).id();
    std::thread::scope(|s| {
        for w in 0..4u32 {
            let (root, g, gid) = (dir.path(), &g, &gid);
            s.spawn(move || {
                let mut lib = Library::open(root).unwrap();
                lib.put(theory_body(g, Some(0.5))).unwrap();
                for n in 1..=6 {
                    lib.put(Body::Model(ModelRec {
                        theory_id: gid.clone(),
                        theory_name: "Group".into(),
                        structure: z_n(g, n).to_json(&g.sig),
                    }))
                    .unwrap();
                    lib.add_report(&report_by(w), |r| format!("# Cycle {}\n", r.cycle))
                        .unwrap();
                }
            });
        }
    });
    let mut lib = Library::open(dir.path()).unwrap();
    assert_eq!(lib.list("model").unwrap().len(), 6);
    assert_eq!(
        lib.report_numbers().unwrap(),
        (1..=24).collect::<Vec<u64>>()
    );
    for n in 1..=24 {
        assert_eq!(lib.report(n).unwrap()["cycle"], n);
        assert!(lib.markdown_path(n).exists());
    }
    assert!(backtest::run(&lib).unwrap().failures.is_empty());
    let before = results(&lib);
    lib.reindex().unwrap();
    assert_eq!(results(&lib), before);
    let leftovers: Vec<_> = walk(dir.path())
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(".partial-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn names_never_escape_the_library() {
    let outer = tempfile::tempdir().unwrap();
    let root = outer.path().join("lib");
    let mut lib = Library::open(&root).unwrap();
    for bad in [
        "../../etc/passwd",
        "/etc/passwd",
        "thy-../../../x",
        "..",
        "thy-0123456789abcdeg",
    ] {
        assert!(
            matches!(lib.get(bad), Err(birkhoff_library::Error::BadId(_))),
            "{bad}"
        );
    }
    let mut t = seeds::load("magma").unwrap();
    t.name = "../../etc/passwd".into();
    let (rec, _) = lib.put(theory_body(&t, None)).unwrap();
    assert_eq!(lib.get(&rec.id).unwrap().body.name(), "../../etc/passwd");
    assert!(lib.path_of(&rec.id).unwrap().starts_with(&root));
    let outside: Vec<_> = walk(outer.path())
        .into_iter()
        .filter(|p| !p.starts_with(&root))
        .collect();
    assert!(outside.is_empty(), "{outside:?}");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn research_documents_are_searched_synced_and_reindexed() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("research/some-loop");
    std::fs::create_dir_all(ws.join("records/leads")).unwrap();
    std::fs::write(
        ws.join("SYNTHESIS.md"),
        "# Synthesis\nzanzibarword appears here only\n",
    )
    .unwrap();
    std::fs::write(
        ws.join("records/leads/L-001.yaml"),
        "id: L-001\ntitle: quokkaword\n",
    )
    .unwrap();
    // Neither a file outside records/<kind>/ nor a scratch file is indexed.
    std::fs::write(ws.join("NOTES.md"), "wombatword\n").unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    let ids = |lib: &Library, q: &str| {
        lib.search(q, None, 10)
            .unwrap()
            .into_iter()
            .map(|h| (h.id, h.kind))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ids(&lib, "zanzibarword"),
        [(
            "research/some-loop/SYNTHESIS.md".to_string(),
            "research".to_string()
        )]
    );
    assert_eq!(
        ids(&lib, "quokkaword"),
        [(
            "research/some-loop/records/leads/L-001.yaml".to_string(),
            "research".to_string()
        )]
    );
    assert!(ids(&lib, "wombatword").is_empty());
    // A scored search never returns documents, which have no score.
    assert!(lib
        .search("zanzibarword", Some(0.0), 10)
        .unwrap()
        .is_empty());
    // An edit reaches the index when the writer syncs; a removed file leaves it.
    std::fs::write(
        ws.join("SYNTHESIS.md"),
        "# Synthesis\nnow it says capybaraword\n",
    )
    .unwrap();
    std::fs::remove_file(ws.join("records/leads/L-001.yaml")).unwrap();
    lib.sync_documents().unwrap();
    assert!(ids(&lib, "zanzibarword").is_empty() && ids(&lib, "quokkaword").is_empty());
    assert_eq!(ids(&lib, "capybaraword").len(), 1);
    let before = ids(&lib, "");
    lib.reindex().unwrap();
    assert_eq!(ids(&lib, ""), before);
    assert!(lib.stats().unwrap().contains(&("research".to_string(), 1)));
}

#[test]
fn a_report_is_stored_with_its_keys_sorted_as_reports_always_were() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    let n = lib
        .add_report(&report_by(1), |r| format!("# Cycle {}\n", r.cycle))
        .unwrap();
    let json = dir.path().join(format!("reports/cycle-{n:04}.json"));
    let text = std::fs::read_to_string(json).unwrap();
    // The top-level keys (indented by two spaces), in the file's order.
    let keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  \""))
        .filter_map(|l| l.split('"').next())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!((keys.len(), &keys), (22, &sorted));
    assert_eq!(lib.cycle_report(n).unwrap().goal, "writer 1");
}

/// A record that would not read back (here a certificate nested deeper than the JSON reader
/// goes) is refused with its reason, and nothing is written: the library still reads whole.
#[test]
fn a_record_that_would_not_read_back_is_refused_before_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    let (magma_id, _) = populate(&mut lib);
    let before = lib.list("proof").unwrap().len();
    let mut deep = serde_json::json!("x");
    for _ in 0..200 {
        deep = serde_json::json!({ "App": [0, [deep]] });
    }
    let body = |certificate| {
        Body::Proof(ProofRec {
            conjecture_id: "cnj-0123456789abcdef".into(),
            theory_id: magma_id.clone(),
            statement: "x * y = y * x".into(),
            prover: "test".into(),
            certificate,
        })
    };
    let e = lib.put(body(deep)).unwrap_err();
    assert!(
        matches!(&e, birkhoff_library::Error::Unreadable { .. })
            && e.to_string().contains("read back"),
        "{e}"
    );
    assert_eq!(lib.list("proof").unwrap().len(), before);
    let report = backtest::run(&lib).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    // The same record, shallow, is stored.
    lib.put(body(serde_json::json!({"steps": [1, 2, 3]})))
        .unwrap();
    assert_eq!(lib.list("proof").unwrap().len(), before + 1);
}
