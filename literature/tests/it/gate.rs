//! The gate's comparison and its verdicts, and that nothing unverified can be cited.

use birkhoff_literature::gate::{verify, Verdict};
use birkhoff_literature::paper::{last_name, normalize_title};
use birkhoff_literature::testing::fixtures::{config, fixture, invented_arxiv};
use birkhoff_literature::testing::server::{Reply, Server};
use birkhoff_literature::{search, Origin, Paper, Subject};

fn paper(title: &str, authors: &[&str], year: i32) -> Paper {
    Paper::new(
        title,
        authors.iter().map(|a| a.to_string()).collect(),
        Some(year),
        Origin::User,
    )
}

#[test]
fn titles_authors_and_years_compare_as_the_protocol_says() {
    assert_eq!(
        normalize_title("On the  Structure of $n$-Quasigroups."),
        normalize_title("on the structure of n quasigroups")
    );
    assert_eq!(
        normalize_title("Über \\emph{Moufang} loops"),
        "uber moufang loops"
    );
    assert_eq!(last_name("Dürr, Dieter"), "durr");
    assert_eq!(last_name("D. Durr"), last_name("Dürr, Dieter"));
    let claimed = paper("Moufang loops of small order", &["Alice Kernel"], 2021);
    assert_eq!(
        claimed.mismatch(&paper(
            "Moufang Loops of Small Order.",
            &["Kernel, A.", "B. Nucleus"],
            2022
        )),
        None
    );
    let why = |found: Paper| claimed.mismatch(&found).unwrap();
    assert!(why(paper(
        "Moufang loops of large order",
        &["Alice Kernel"],
        2021
    ))
    .starts_with("title differs"));
    assert!(why(paper(
        "Moufang loops of small order",
        &["Alice Colonel"],
        2021
    ))
    .starts_with("no author last name in common"));
    assert!(why(paper(
        "Moufang loops of small order",
        &["Alice Kernel"],
        2023
    ))
    .starts_with("year differs"));
    assert!(why(paper("Moufang loops of small order", &[], 2021))
        .starts_with("no author last name in common"));
}

fn verdicts(server: &Server, candidates: &[Paper]) -> Vec<Verdict> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut client = birkhoff_literature::client::Client::new(config(&server.base), None).unwrap();
    rt.block_on(verify(&mut client, candidates))
}

#[test]
fn only_a_matching_lookup_by_identifier_confirms() {
    let server = Server::start();
    birkhoff_literature::testing::fixtures::serve_all(&server);
    let mut real = paper("Moufang loops of small order", &["Bob Nucleus"], 2021);
    real.ids.arxiv = Some("2101.00001".into());
    // Right identifier, wrong metadata: a language model's garbled memory of a real paper.
    let mut garbled = paper("Moufang loops of small order", &["Carl Invented"], 2021);
    garbled.ids.arxiv = Some("2101.00001".into());
    let no_id = paper("Moufang loops of small order", &["Alice Kernel"], 2021);
    let v = verdicts(&server, &[real, garbled, no_id, invented_arxiv()]);
    assert!(
        matches!(&v[0], Verdict::Confirmed { found, .. } if found.authors == ["Alice Kernel", "Bob Nucleus"]),
        "{:?}",
        v[0]
    );
    assert!(
        matches!(&v[1], Verdict::Unconfirmed { reason } if reason.contains("no author last name in common")),
        "{:?}",
        v[1]
    );
    assert!(
        matches!(&v[2], Verdict::Unconfirmed { reason } if reason.starts_with("no identifier")),
        "{:?}",
        v[2]
    );
    assert!(
        matches!(&v[3], Verdict::Unconfirmed { reason } if reason.contains("no entry for id 2399.99999")),
        "{:?}",
        v[3]
    );
}

#[test]
fn semantic_scholar_batch_lookup_from_the_threshold_on() {
    let server = Server::start();
    let batch = format!("[{}, null]", fixture("s2_paper_counting.json"));
    server.route(
        "POST",
        "/s2/paper/batch",
        &["DOI:10.1000/test.2"],
        vec![Reply::json(&batch)],
    );
    let mut a = paper("Counting finite Moufang loops", &["Carol Center"], 2015);
    a.ids.doi = Some("10.1000/test.2".into());
    let mut b = paper("Moufang loops and everything", &["Noah Body"], 2020);
    b.ids.doi = Some("10.9999/invented".into());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut cfg = config(&server.base);
    cfg.s2_batch_from = 2;
    let mut client = birkhoff_literature::client::Client::new(cfg, None).unwrap();
    let v = rt.block_on(verify(&mut client, &[a, b]));
    assert_eq!(
        server.count("POST /s2/paper/batch"),
        1,
        "{:?}",
        server.requests()
    );
    assert!(
        matches!(&v[0], Verdict::Confirmed { endpoint, .. } if endpoint.contains("/s2/paper/batch")),
        "{:?}",
        v[0]
    );
    assert!(
        matches!(&v[1], Verdict::Unconfirmed { reason } if reason.contains("Semantic Scholar has no paper DOI:10.9999/invented")),
        "{:?}",
        v[1]
    );
}

#[test]
fn an_api_error_leaves_a_candidate_unconfirmed_pending() {
    let server = Server::start();
    server.route(
        "GET",
        "/arxiv/query",
        &["id_list="],
        vec![Reply::status(429, "slow down")],
    );
    server.route("GET", "/s2/paper/", &[], vec![Reply::status(503, "down")]);
    let mut c = paper("Moufang loops of small order", &["Bob Nucleus"], 2021);
    c.ids.arxiv = Some("2101.00001".into());
    let v = verdicts(&server, &[c]);
    assert!(
        matches!(&v[0], Verdict::Unconfirmed { reason } if reason.starts_with("API error -- verification pending") && reason.contains("429") && reason.contains("HTTP 503")),
        "{:?}",
        v[0]
    );
}

/// The invariant: what a report may cite is confirmed, whatever was proposed. Breaking the gate
/// (confirming without a lookup, or on a mismatch) makes this fail.
#[test]
fn an_unverified_reference_can_never_be_cited() {
    let server = Server::start();
    birkhoff_literature::testing::fixtures::serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let mut garbled = invented_arxiv();
    garbled.ids.arxiv = Some("2101.00001".into());
    let subject = Subject {
        key: "test-cite".into(),
        title: "cite".into(),
        free_text: Some("Moufang".into()),
        proposed: vec![invented_arxiv(), garbled],
        ..Subject::default()
    };
    search(lib.path(), &subject, config(&server.base), &mut |_| {}).unwrap();
    let citable = birkhoff_literature::citable(lib.path(), "test-cite").unwrap();
    assert!(!citable.is_empty());
    for r in &citable {
        assert!(r.number.starts_with("REF-") && r.is_confirmed());
        assert_ne!(
            r.paper.title, "The Grand Theory of Moufang Loops",
            "an invented reference became citable as {}",
            r.number
        );
        assert!(!r.paper.authors.contains(&"Ima Ginary".to_string()));
    }
}
