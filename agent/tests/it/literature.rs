//! Novelty uses the literature: a discovery the literature knows (a confirmed reference, an OEIS
//! sequence) scores novelty 0 with the reason, and an unconfirmed reference never counts nor
//! reaches the report. A whole cycle against the local fixture server: the model's real
//! reference is confirmed and cited, its invented one stays a UREF outside every report and
//! paper.

use crate::{WithEnv, FAKE};
use birkhoff_agent::{
    report::{CycleReport, LiteratureNote},
    Agent, Candidate, CliLlm, Config, Explorer, Generated, LiteratureAccess, Scorer, Silent,
    TenDimensions, Toolbox,
};
use birkhoff_engine::{seeds, Theory};
use birkhoff_library::Library;
use birkhoff_literature::testing::fixtures::{
    config, fixture, invented_arxiv, recalled_arxiv, serve_all, serve_empty_searches,
};
use birkhoff_literature::testing::server::{Reply, Server};
use birkhoff_literature::{Origin, Outcome, Paper, Reference, Status, Store};
use std::time::Duration;

fn reference(number: &str, title: &str, status: Status) -> Reference {
    Reference {
        number: number.into(),
        paper: Paper::new(title, vec!["Ann Author".into()], Some(2001), Origin::Llm),
        status,
        found_by: "proposed".into(),
    }
}

/// A search that confirmed one reference and not another, with no OEIS match.
fn outcome(confirmed: bool) -> Outcome {
    let confirmed = if confirmed {
        vec![reference(
            "REF-001",
            "Cube loops",
            Status::Confirmed {
                verified: 1,
                endpoint: "http://127.0.0.1/arxiv".into(),
            },
        )]
    } else {
        vec![]
    };
    let unconfirmed = vec![reference(
        "UREF-001",
        "The Invented Theory of Cube Loops",
        Status::Unconfirmed {
            reason: "no entry for id 2399.99999".into(),
        },
    )];
    Outcome {
        subject: "s".into(),
        literature_md: "LITERATURE.md".into(),
        sources: vec![],
        confirmed,
        unconfirmed,
        this_run: vec![],
        oeis: vec![],
        oeis_misses: vec![],
        searched: true,
    }
}

#[test]
fn only_confirmed_references_make_a_theory_known_or_reach_the_report() {
    let note = LiteratureNote::from(&outcome(true));
    assert_eq!(
        note.known_because().as_deref(),
        Some("REF-001 Cube loops (2001)")
    );
    let only_invented = LiteratureNote::from(&outcome(false));
    assert_eq!(
        only_invented.known_because(),
        None,
        "an unconfirmed reference never counts"
    );
    for n in [&note, &only_invented] {
        assert!(
            !n.line().contains("Invented") && !n.line().contains("UREF"),
            "{}",
            n.line()
        );
    }
    assert!(
        only_invented.line().contains("not found in the literature"),
        "{}",
        only_invented.line()
    );
    // A source's title is text, not Markdown: it cannot open a tag or a list in the report.
    let mut marked = outcome(true);
    marked.confirmed[0].paper.title = "Loops <b>of</b> *order* 3".into();
    let line = LiteratureNote::from(&marked).line();
    assert!(
        line.contains("Loops \\<b\\>of\\</b\\> \\*order\\* 3"),
        "{line}"
    );
}

#[test]
fn a_theory_known_in_the_literature_has_novelty_0() {
    // Loops of left exponent 3: not in the catalogue, so its spectrum is new.
    let t = Theory::parse(
        &format!(
            "{}\naxiom cube: x * (x * x) = e",
            seeds::load("loop").unwrap().to_text()
        ),
        "cube.bk",
    )
    .unwrap();
    let mut c = Candidate::new("CubeLoop".into(), t, "COMPLETE".into(), vec![]);
    Toolbox::builtin().check_models(&mut c, 5).unwrap();
    let novelty = |c: &Candidate| TenDimensions::default().score(c, &[]).unwrap().dims["novelty"];
    assert!(novelty(&c) > 0.0);
    c.in_literature = LiteratureNote::from(&outcome(true)).known_because();
    assert_eq!(novelty(&c), 0.0);
}

/// One candidate: commutative loops with (x * x) * (x * x) = e, from the loop seed: not in the
/// catalogue, and told apart from every entry by its spectrum, 1, 1, 0, 2, 0, 3 (so new; commutative
/// loops of exponent 3 would not do: their spectrum is the elementary abelian 3-groups' as far as it
/// is counted, and they stay unknown). Commutative, because the stand-in conjectures commutativity
/// of what it keeps: an axiom is proved at once.
struct SquareLoops;

impl Explorer for SquareLoops {
    fn moves(&self) -> Vec<String> {
        vec!["COMPLETE".into()]
    }

    fn explore(&self, _: &[&Theory], _: &[String], _: u32) -> Result<Vec<Generated>, String> {
        Ok(vec![Generated {
            name: "SquareLoop".into(),
            theory: crate::identify::with(
                "loop",
                "axiom fourth: (x * x) * (x * x) = e\naxiom comm: x * y = y * x",
            ),
            origin: "COMPLETE".into(),
            parents: vec!["loop".into()],
        }])
    }
}

/// A paper in the reply schema's `references` form, as the model would write it.
fn proposed(p: &Paper) -> serde_json::Value {
    serde_json::json!({"title": p.title, "authors": p.authors, "year": p.year, "arxiv": p.ids.arxiv})
}

/// The invariant end to end: the model (the `claude` stand-in) keeps the candidate with one
/// real reference (the fixtures' arXiv 2101.00001, as remembered) and one invented (arXiv
/// 2399.99999, which the arXiv fixture lacks). The paper searches find nothing, so a confirmed
/// reference can only come from the model's proposal passing the gate. Mutation-checked: a gate
/// that confirms a candidate its lookup did not find, or a controller that drops the model's
/// references, fails this test.
/// One cycle of the `claude` stand-in keeping SquareLoop with the model's real and invented
/// references, the literature asked as `literature` says: the library's folder, the library and
/// the cycle's report.
fn cycle(literature: birkhoff_literature::Config) -> (tempfile::TempDir, Library, CycleReport) {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(&dir.path().join("lib")).unwrap();
    let references =
        serde_json::to_string(&[proposed(&recalled_arxiv()), proposed(&invented_arxiv())]).unwrap();
    let cli = CliLlm::command(
        &format!("{FAKE} --fake-mode=good"),
        "test-model",
        "low",
        Duration::from_secs(60),
    )
    .unwrap();
    let llm = WithEnv(cli, vec![("FAKE_CLAUDE_REFERENCES".into(), references)]);
    let tools = Toolbox {
        explorer: Box::new(SquareLoops),
        per_size: Duration::from_secs(5),
        literature: LiteratureAccess::On(literature),
        ..Toolbox::builtin()
    };
    let agent = Agent {
        llm: &llm,
        offline: false,
        tools,
        observer: &Silent,
        interrupted: &|| false,
    };
    agent
        .run(
            &mut lib,
            &Config {
                goal: "loops".into(),
                cycles: 1,
                bases: vec![],
            },
        )
        .unwrap();
    let report: CycleReport = serde_json::from_value(lib.report(1).unwrap()).unwrap();
    (dir, lib, report)
}

#[test]
fn a_whole_cycle_cites_the_models_real_reference_and_never_its_invented_one() {
    let server = Server::start();
    serve_empty_searches(&server);
    server.route(
        "GET",
        "/oeis/search",
        &["q=1,1,0,2"],
        vec![Reply::json(&fixture("oeis_hit_square_loops.json"))],
    );
    serve_all(&server);
    let (dir, lib, report) = cycle(config(&server.base));

    let faults: Vec<&str> = report.faults.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(report.decisions_by, "llm", "{faults:?}");
    let [d] = report.discoveries.as_slice() else {
        panic!(
            "one discovery expected: {faults:?}\n{}",
            report.decisions.analysis
        )
    };
    assert_eq!(d.candidate.name, "SquareLoop");
    // Known, by the model's real reference as the source records it, and by the OEIS.
    let note = &d.literature;
    assert_eq!(note.status, "known");
    assert_eq!(
        note.references,
        ["REF-001 Moufang Loops of Small Order (2021)"]
    );
    assert_eq!(note.oeis.len(), 1, "{:?}", note.oeis);
    assert!(note.oeis[0].starts_with("A999001 "), "{:?}", note.oeis);
    assert!(
        note.unconfirmed >= 1,
        "the invented reference is counted, not cited"
    );
    assert!(
        server.count("id_list=") >= 1
            && server
                .requests()
                .iter()
                .any(|r| r.contains("id_list=") && r.contains("2399.99999")),
        "the invented one was looked up: {:?}",
        server.requests()
    );
    // Novelty uses it.
    assert_eq!(d.candidate.score.as_ref().unwrap().dims["novelty"], 0.0);
    assert!(
        d.notes.contains(
            "known in the literature (REF-001 Moufang Loops of Small Order (2021); A999001"
        ),
        "{}",
        d.notes
    );
    // The invented reference is a UREF with the reason, in the literature store only.
    let state = Store::new(lib.root()).load().unwrap();
    let invented = state
        .references
        .values()
        .find(|r| r.paper.title == invented_arxiv().title)
        .expect("numbered");
    assert!(invented.number.starts_with("UREF-"), "{}", invented.number);
    assert!(
        matches!(&invented.status, Status::Unconfirmed { reason } if reason.contains("no entry for id 2399.99999")),
        "{:?}",
        invented.status
    );
    assert_eq!(invented.paper.origins, [Origin::Llm]);

    let paper = birkhoff_paper::Paper::gather(&lib, &d.id).unwrap();
    let written = paper
        .write(&dir.path().join("paper"), birkhoff_paper::Compile::No)
        .unwrap();
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap();
    let bib = read(&written.bib);
    assert!(
        bib.contains("Moufang Loops of Small Order"),
        "the paper cites the confirmed reference:\n{bib}"
    );
    let outputs = [
        ("report JSON", lib.report(1).unwrap().to_string()),
        ("report Markdown", read(&lib.markdown_path(1))),
        ("paper", read(&written.tex)),
        ("bibliography", bib),
    ];
    for (what, text) in outputs {
        for trace in ["Grand Theory", "Ginary", "2399.99999", &invented.number] {
            assert!(
                !text.contains(trace),
                "the invented reference reached the {what} ({trace})"
            );
        }
    }
}

/// A source that accepts connections and never answers costs the cycle one deadline, is asked
/// once, and is a fault of the cycle's report; the other sources still confirm the model's real
/// reference.
#[test]
fn a_source_that_never_answers_is_a_fault_of_the_cycle() {
    let server = Server::start();
    serve_empty_searches(&server);
    serve_all(&server);
    let hanging = birkhoff_literature::testing::server::Silent::start();
    let mut cfg = config(&server.base);
    cfg.set_base_url(
        birkhoff_literature::Source::Zbmath,
        &format!("{}/zbmath", hanging.base),
    );
    cfg.timeout = Duration::from_millis(500);
    let (_dir, _lib, report) = cycle(cfg);
    assert_eq!(
        hanging.accepted(),
        1,
        "asked once, then down for the rest of the search"
    );
    let faults: Vec<String> = report
        .faults
        .iter()
        .map(|f| format!("{}: {} => {}", f.phase, f.message, f.handling))
        .collect();
    let timed_out = faults
        .iter()
        .filter(|f| {
            f.contains("literature search for SquareLoop: zbMATH Open: 1 query, 0 results; DOWN")
                && f.contains("timed out")
        })
        .count();
    assert_eq!(timed_out, 1, "{faults:#?}");
    let [d] = report.discoveries.as_slice() else {
        panic!("one discovery expected: {faults:?}")
    };
    assert_eq!(
        d.literature.references,
        ["REF-001 Moufang Loops of Small Order (2021)"],
        "{faults:#?}"
    );
}
