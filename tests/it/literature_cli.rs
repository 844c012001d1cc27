//! `birkhoff literature` and `library show` end to end, against a local server on 127.0.0.1
//! serving the literature crate's fixtures (the sources' base URLs come from the environment).

use birkhoff_literature::testing::fixtures::{environment, serve_all as serve};
use birkhoff_literature::testing::server::{dead_base, Server};
use std::process::{Command, Output};

fn birkhoff(base: &str, lib: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_birkhoff"))
        .args(args)
        .args(["--library", lib])
        .envs(environment(base))
        .env_remove("BIRKHOFF_OFFLINE")
        .env_remove("SEMANTIC_SCHOLAR_API_KEY")
        .output()
        .expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn literature_query_spectrum_and_offline_rerun() {
    let server = Server::start();
    serve(&server);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().to_str().unwrap();

    let o = birkhoff(
        &server.base,
        lib,
        &["literature", "--query", "Moufang loop"],
    );
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
    for source in ["arXiv:", "Semantic Scholar:", "zbMATH Open:"] {
        assert!(
            err.lines().any(|l| l.trim_start().starts_with(source)),
            "a progress line per source: {err}"
        );
    }
    assert!(
        out.contains("REF-001") && out.contains("Moufang Loops of Small Order"),
        "{out}"
    );
    assert!(
        out.contains("unconfirmed, not to be cited (1):") && out.contains("year differs"),
        "{out}"
    );
    assert!(
        out.contains("literature/query-moufang-loop/LITERATURE.md"),
        "{out}"
    );

    let o = birkhoff(
        &server.base,
        lib,
        &["literature", "--spectrum", "1,1,1,2,6", "--json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"]["oeis"][0]["sequence"]["a_number"], "A057771");
    assert_eq!(v["complete"], true);
    // Not in the offline file (1,3,7,19 would be: A001372, mappings), so the OEIS is asked.
    let o = birkhoff(
        &server.base,
        lib,
        &["literature", "--spectrum", "1,3,7,20", "--json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["outcome"]["oeis_misses"][0],
        serde_json::json!([1, 3, 7, 20])
    );

    // The network off: the same answer from the library's cache; numbers unchanged.
    drop(server);
    let dead = dead_base();
    let o = birkhoff(
        &dead,
        lib,
        &[
            "literature",
            "--query",
            "Moufang loop",
            "--offline",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let numbers: Vec<&str> = v["outcome"]["confirmed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["number"].as_str().unwrap())
        .collect();
    assert_eq!(numbers, ["REF-001", "REF-002", "REF-003"]);
    // Nothing cached for a new phrase: incomplete (exit 1), and it says so.
    let o = birkhoff(
        &dead,
        lib,
        &["literature", "--query", "medial quandles", "--offline"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("offline and not in the cache"),
        "{}",
        text(&o.stderr)
    );
}

/// Issue 55: offline, a spectrum in the shipped catalogue/oeis.tsv is answered from the file
/// (the loops' A057771), not reported incomplete for want of a cached OEIS answer; a spectrum
/// the file does not hold still says that nothing was searched.
#[test]
fn offline_spectrum_is_answered_from_the_shipped_sequences() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().to_str().unwrap();
    let o = crate::birkhoff_command()
        .args([
            "literature",
            "--spectrum",
            "1,1,1,2,6,109",
            "--library",
            lib,
        ])
        .output()
        .unwrap();
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
    assert!(out.contains("occurs in A057771"), "{out}\n{err}");
    assert!(err.contains("offline sequences"), "{err}");
    let o = crate::birkhoff_command()
        .args([
            "literature",
            "--spectrum",
            "1,1,1,2,6,110",
            "--library",
            lib,
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    assert!(!text(&o.stdout).contains("A057771"), "{}", text(&o.stdout));
}

#[test]
fn bad_flags_name_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().to_str().unwrap();
    let base = dead_base();
    let o = birkhoff(&base, lib, &["literature", "--spectrum", "1,2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--spectrum: give at least 4 terms"),
        "{}",
        text(&o.stderr)
    );
    let o = birkhoff(&base, lib, &["literature", "--theory", "no_such_theory"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--theory no_such_theory"),
        "{}",
        text(&o.stderr)
    );
    let o = birkhoff(&base, lib, &["literature"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "one of --theory, --query, --spectrum is required"
    );
}

#[test]
fn library_show_lists_a_theorys_references() {
    let server = Server::start();
    serve(&server);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().to_str().unwrap();
    // A stored theory: the seed MoufangLoop.
    let t = birkhoff_engine::Theory::load("moufang_loop").unwrap();
    let body: birkhoff_library::Body = serde_json::from_value(serde_json::json!({
        "kind": "theory", "name": t.name, "text": birkhoff_engine::print::theory_to_text(&t),
        "fingerprint": t.fingerprint().to_string(), "origin": "seed"
    }))
    .unwrap();
    let (rec, _) = birkhoff_library::Library::open(dir.path())
        .unwrap()
        .put(body)
        .unwrap();
    let o = birkhoff(&server.base, lib, &["library", "show", &rec.id]);
    assert!(
        text(&o.stdout).contains("references: not searched"),
        "{}",
        text(&o.stdout)
    );

    let o = birkhoff(
        &server.base,
        lib,
        &["literature", "--theory", &rec.id, "--json"],
    );
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stderr)));
    assert_eq!(
        v["outcome"]["subject"],
        rec.id.as_str(),
        "kept under the theory's library ID"
    );
    let o = birkhoff(&server.base, lib, &["library", "show", &rec.id]);
    let out = text(&o.stdout);
    assert!(
        out.contains(
            "references:\n  REF-001 Moufang Loops of Small Order (2021), Alice Kernel, Bob Nucleus"
        ),
        "{out}"
    );
    // The seed's written references have no identifier: listed, but never as citable.
    assert!(
        out.contains("-- unconfirmed, not to be cited: no identifier"),
        "{out}"
    );
    let o = birkhoff(&server.base, lib, &["library", "show", &rec.id, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["references"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["number"] == "REF-001" && r["status"] == "confirmed"));
}

/// The agent asks for each new discovery's literature when a source can be reached (the default,
/// `--literature auto`), and its report cites confirmed references only: the fixtures'
/// unconfirmed paper (metadata that differs) and the unconfirmed references never reach it.
/// With `--literature off`, or with no source reachable, nothing is asked and the report says why.
#[test]
fn agent_reports_each_discoverys_literature_citing_confirmed_references_only() {
    let server = Server::start();
    serve(&server);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().to_str().unwrap();
    let o = birkhoff(
        &server.base,
        lib,
        &[
            "agent",
            "--llm",
            "offline",
            "--cycles",
            "1",
            "--goal",
            "Find novel semigroup variants",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("Literature: each new discovery is looked up"),
        "{}",
        text(&o.stdout)
    );
    let md = std::fs::read_to_string(dir.path().join("reports/cycle-0001.md")).unwrap();
    let notes: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("**Literature:**"))
        .collect();
    assert!(!notes.is_empty(), "a literature line per discovery:\n{md}");
    for n in &notes {
        assert!(n.starts_with("**Literature:** known; REF-"), "{n}");
    }
    assert!(
        !md.contains("Loops with the inverse property revisited"),
        "an unconfirmed reference reached the report"
    );
    assert!(
        !md.contains("UREF-"),
        "an unconfirmed reference reached the report"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("reports/cycle-0001.json")).unwrap(),
    )
    .unwrap();
    for d in json["discoveries"].as_array().unwrap() {
        for r in d["literature"]["references"].as_array().unwrap() {
            assert!(r.as_str().unwrap().starts_with("REF-"), "{r}");
        }
    }

    // --literature off: not searched, and no request reaches a source.
    let asked = server.requests().len();
    let report = |base: &str, flags: &[&str]| {
        let dir = tempfile::tempdir().unwrap();
        let args = [
            &[
                "agent",
                "--llm",
                "offline",
                "--cycles",
                "1",
                "--goal",
                "Find novel semigroup variants",
            ],
            flags,
        ]
        .concat();
        let o = birkhoff(base, dir.path().to_str().unwrap(), &args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        (
            text(&o.stdout),
            std::fs::read_to_string(dir.path().join("reports/cycle-0001.md")).unwrap(),
        )
    };
    let (out, md) = report(&server.base, &["--literature", "off"]);
    assert!(
        out.contains("Literature: not searched (--literature off)"),
        "{out}"
    );
    assert!(
        md.contains("**Literature:** not searched (--literature off)"),
        "{md}"
    );
    assert_eq!(server.requests().len(), asked);

    // The default with no source reachable: said once at the start, and in each discovery's line.
    let dead = dead_base();
    let (out, md) = report(&dead, &[]);
    let offline = "not searched (offline: no literature source reachable: arXiv, Semantic Scholar, zbMATH Open, OEIS: ";
    assert!(out.contains(&format!("Literature: {offline}")), "{out}");
    assert!(md.contains(&format!("**Literature:** {offline}")), "{md}");
    // `--literature` alone asks even so, and says that no source answered.
    let (_, md) = report(&dead, &["--literature"]);
    assert!(
        md.contains("**Literature:** not searched (no source answered)"),
        "{md}"
    );
}

/// `research step --phase literature` with the network there (the fixture server): the
/// literature agent's LITERATURE.md is copied into the workspace, each confirmed reference
/// becomes a lead, and the route moves on.
#[test]
fn research_literature_step_searches_and_makes_leads() {
    use birkhoff_library::record::{Body, TheoryRec};
    let server = Server::start();
    serve(&server);
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().to_str().unwrap();
    {
        let mut l = birkhoff_library::Library::open(dir.path()).unwrap();
        let t = birkhoff_engine::Theory::parse(
            "theory MoufangLike\nfunc * : 2\naxiom idem: x * x = x\n",
            "MoufangLike",
        )
        .unwrap();
        l.put(Body::Theory(TheoryRec {
            name: "MoufangLike".into(),
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
    }
    let o = birkhoff(&server.base, lib, &["research", "open", "MoufangLike"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let o = birkhoff(
        &server.base,
        lib,
        &[
            "research",
            "step",
            "moufanglike",
            "--phase",
            "literature",
            "--json",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let step: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(step["phase"], "literature");
    assert_ne!(step["next"]["phase"], "literature");
    let ws = dir.path().join("research/moufanglike");
    assert!(std::fs::read_to_string(ws.join("LITERATURE.md"))
        .unwrap()
        .contains("Moufang Loops of Small Order"));
    let lead = std::fs::read_to_string(ws.join("records/leads/L-001.yaml")).unwrap();
    assert!(
        lead.contains("title: Moufang Loops of Small Order") && lead.contains("reference: REF-"),
        "{lead}"
    );
    let o = birkhoff(&server.base, lib, &["research", "validate", "moufanglike"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
}
