//! Faults: HTTP 429 (once, twice), a timeout, a source that never answers, a redirect to another
//! port, an oversized answer, malformed XML and JSON, a source that is down. Each run completes
//! with the other sources and records what happened.

use crate::support::{quiet, subject};
use birkhoff_literature::client::MAX_BODY;
use birkhoff_literature::testing::fixtures::{config, fixture, serve_all};
use birkhoff_literature::testing::server::{dead_base, Reply, Server, Silent};
use birkhoff_literature::{search, Origin, Paper, Source, Store, Subject};
use std::time::Duration;

fn arxiv_only(key: &str) -> Subject {
    Subject {
        key: key.into(),
        title: key.into(),
        free_text: Some("Moufang loop".into()),
        ..Subject::default()
    }
}

fn history_cells(lib: &std::path::Path, key: &str, source: Source) -> Vec<String> {
    let state = Store::new(lib).load().unwrap();
    state.subjects[key]
        .history
        .iter()
        .filter_map(|r| r.results.get(source.key()).cloned())
        .collect()
}

#[test]
fn http_429_then_success_waits_and_retries_once() {
    let server = Server::start();
    server.route(
        "GET",
        "/arxiv/query",
        &["search_query="],
        vec![
            Reply::status(429, "Rate exceeded."),
            Reply::xml(&fixture("arxiv_search.xml")),
        ],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let out = search(
        lib.path(),
        &arxiv_only("t429"),
        config(&server.base),
        &mut quiet(),
    )
    .unwrap();
    let arxiv = out
        .sources
        .iter()
        .find(|r| r.source == Source::Arxiv)
        .unwrap();
    assert!(arxiv.errors.is_empty(), "{:?}", arxiv.errors);
    assert_eq!(
        server.count("search_query=all:"),
        2,
        "asked twice: 429, then the answer"
    );
    assert!(out
        .confirmed
        .iter()
        .any(|r| r.paper.ids.arxiv.as_deref() == Some("2101.00001")));
}

#[test]
fn http_429_twice_is_recorded_as_a_skip_and_the_run_completes() {
    let server = Server::start();
    server.route(
        "GET",
        "/arxiv/query",
        &["search_query="],
        vec![Reply::status(429, "Rate exceeded.")],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let out = search(
        lib.path(),
        &arxiv_only("t429x2"),
        config(&server.base),
        &mut quiet(),
    )
    .unwrap();
    let arxiv = out
        .sources
        .iter()
        .find(|r| r.source == Source::Arxiv)
        .unwrap();
    assert!(
        arxiv
            .errors
            .iter()
            .all(|e| e.contains("rate limited (HTTP 429, again after waiting)")),
        "{:?}",
        arxiv.errors
    );
    assert_eq!(arxiv.errors.len(), arxiv.queries);
    assert_eq!(
        server.count("search_query="),
        2 * arxiv.queries,
        "one retry per query, no more"
    );
    assert!(history_cells(lib.path(), "t429x2", Source::Arxiv)
        .iter()
        .all(|c| c == "skipped: rate limited (HTTP 429 twice)"));
    // The other sources still found and confirmed their papers.
    assert!(out
        .confirmed
        .iter()
        .any(|r| r.paper.title == "Counting Finite Moufang Loops."));
    let md = std::fs::read_to_string(&out.literature_md).unwrap();
    assert!(md.contains("- [~] Not searched fully: arxiv on \"query: Moufang loop\": skipped: rate limited (HTTP 429 twice)"), "{md}");
}

#[test]
fn a_timeout_is_a_skip_not_a_hang() {
    let server = Server::start();
    server.route(
        "GET",
        "/zbmath/document/_search",
        &[],
        vec![Reply::json(&fixture("zbmath_search.json")).after(Duration::from_millis(1500))],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let mut cfg = config(&server.base);
    cfg.timeout = Duration::from_millis(300);
    let out = search(lib.path(), &arxiv_only("ttimeout"), cfg, &mut quiet()).unwrap();
    let zb = out
        .sources
        .iter()
        .find(|r| r.source == Source::Zbmath)
        .unwrap();
    assert!(
        !zb.errors.is_empty() && zb.errors.iter().all(|e| e.contains("timed out")),
        "{:?}",
        zb.errors
    );
    // The first timeout takes the source down for the rest of the run.
    let cells = history_cells(lib.path(), "ttimeout", Source::Zbmath);
    assert_eq!(cells[0], "skipped: timed out");
    assert!(
        cells[1..].iter().all(|c| c == "skipped: source down"),
        "{cells:?}"
    );
    assert!(
        out.confirmed
            .iter()
            .any(|r| r.paper.ids.arxiv.as_deref() == Some("2101.00001")),
        "the other sources carry on"
    );
}

/// A source that accepts connections and never answers costs one deadline for the whole run, not
/// one (or two) per query: after its first request times out it is down, and neither its other
/// queries nor the gate's lookup of a proposed zbMATH document connect to it again.
#[test]
fn a_source_that_never_answers_costs_one_deadline_and_is_down_for_the_run() {
    let server = Server::start();
    serve_all(&server);
    let silent = Silent::start();
    let lib = tempfile::tempdir().unwrap();
    let mut cfg = config(&server.base);
    cfg.set_base_url(Source::Zbmath, &format!("{}/zbmath", silent.base));
    cfg.timeout = Duration::from_millis(500);
    let mut subject = subject();
    let mut on_zbmath = Paper::new(
        "On Moufang loops",
        vec!["Carl Commutator".into()],
        Some(2001),
        Origin::Llm,
    );
    on_zbmath.ids.zbmath = Some("1234567".into());
    subject.proposed.push(on_zbmath);
    let out = search(lib.path(), &subject, cfg, &mut quiet()).unwrap();
    assert_eq!(
        silent.accepted(),
        1,
        "one request to the silent source, then it is down"
    );
    let zb = out
        .sources
        .iter()
        .find(|r| r.source == Source::Zbmath)
        .unwrap();
    assert!(zb.down && zb.queries == 1 && zb.errors.len() == 1, "{zb:?}");
    assert!(
        zb.errors[0].contains("timed out: no answer within the source's 0.5 s for this run"),
        "{:?}",
        zb.errors
    );
    let cells = history_cells(lib.path(), "test-moufang", Source::Zbmath);
    assert!(
        cells.len() > 1,
        "the subject asks zbMATH more than once: {cells:?}"
    );
    assert_eq!(cells[0], "skipped: timed out");
    assert!(
        cells[1..].iter().all(|c| c == "skipped: source down"),
        "{cells:?}"
    );
    assert!(
        out.confirmed
            .iter()
            .any(|r| r.paper.ids.arxiv.as_deref() == Some("2101.00001")),
        "the other sources carry on"
    );
}

/// The deadline is the source's for the whole run, shared by its queries: a source answering
/// each in 0.6 s answers the first within its 1 s and times out on the second.
#[test]
fn a_sources_queries_share_its_deadline() {
    let server = Server::start();
    server.route(
        "GET",
        "/zbmath/document/_search",
        &[],
        vec![Reply::json(&fixture("zbmath_search.json")).after(Duration::from_millis(600))],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let mut cfg = config(&server.base);
    cfg.timeout = Duration::from_millis(1000);
    search(lib.path(), &subject(), cfg, &mut quiet()).unwrap();
    let cells = history_cells(lib.path(), "test-moufang", Source::Zbmath);
    assert!(
        cells[0].parse::<usize>().is_ok(),
        "the first query is answered: {cells:?}"
    );
    assert_eq!(cells[1], "skipped: timed out", "{cells:?}");
    assert!(
        cells[2..].iter().all(|c| c == "skipped: source down"),
        "{cells:?}"
    );
}

/// A redirect is followed within the source's own scheme, host and port only: a redirect to
/// another port on the same machine reaches nothing there.
#[test]
fn a_redirect_is_followed_only_within_the_source() {
    let elsewhere = Server::start();
    serve_all(&elsewhere);
    let server = Server::start();
    server.route(
        "GET",
        "/arxiv/query",
        &["search_query="],
        vec![Reply::redirect(&format!(
            "{}/arxiv/query?search_query=all:x",
            elsewhere.base
        ))],
    );
    server.route(
        "GET",
        "/s2/paper/search",
        &[],
        vec![Reply::redirect(&format!(
            "{}/moved/s2/paper/search?query=x",
            server.base
        ))],
    );
    server.route(
        "GET",
        "/moved/s2/paper/search",
        &[],
        vec![Reply::json(&fixture("s2_search.json"))],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let out = search(
        lib.path(),
        &arxiv_only("tredirect"),
        config(&server.base),
        &mut quiet(),
    )
    .unwrap();
    assert_eq!(
        elsewhere.requests(),
        Vec::<String>::new(),
        "nothing reached the other port"
    );
    let arxiv = out
        .sources
        .iter()
        .find(|r| r.source == Source::Arxiv)
        .unwrap();
    assert!(
        !arxiv.errors.is_empty()
            && arxiv
                .errors
                .iter()
                .all(|e| e.contains("redirect refused") && e.contains("outside the source's host")),
        "{:?}",
        arxiv.errors
    );
    assert!(history_cells(lib.path(), "tredirect", Source::Arxiv)
        .iter()
        .all(|c| c == "skipped: redirect refused"));
    let s2 = out
        .sources
        .iter()
        .find(|r| r.source == Source::SemanticScholar)
        .unwrap();
    assert!(
        s2.errors.is_empty() && s2.results > 0,
        "a redirect within the source is followed: {s2:?}"
    );
    assert!(server.count("GET /s2/paper/search") >= 1);
    assert_eq!(
        server.count("GET /moved/s2/paper/search"),
        server.count("GET /s2/paper/search"),
        "{:#?}",
        server.requests()
    );
}

/// An answer longer than `MAX_BODY` is an error, not read on into memory.
#[test]
fn an_oversized_answer_is_refused() {
    let server = Server::start();
    server.route(
        "GET",
        "/zbmath/document/_search",
        &[],
        vec![Reply::json(&" ".repeat(MAX_BODY + 1))],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let out = search(
        lib.path(),
        &arxiv_only("toversized"),
        config(&server.base),
        &mut quiet(),
    )
    .unwrap();
    let zb = out
        .sources
        .iter()
        .find(|r| r.source == Source::Zbmath)
        .unwrap();
    assert!(
        !zb.errors.is_empty()
            && zb
                .errors
                .iter()
                .all(|e| e.contains(&format!("answer longer than {MAX_BODY} bytes"))),
        "{:?}",
        zb.errors
    );
    assert!(history_cells(lib.path(), "toversized", Source::Zbmath)
        .iter()
        .all(|c| c == "skipped: answer too large"));
}

#[test]
fn malformed_xml_and_json_are_reported_never_cached_never_a_panic() {
    let server = Server::start();
    server.route(
        "GET",
        "/arxiv/query",
        &["search_query="],
        vec![Reply::xml(&fixture("malformed.xml"))],
    );
    server.route(
        "GET",
        "/s2/paper/search",
        &[],
        vec![Reply::json(&fixture("malformed.json"))],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let out = search(
        lib.path(),
        &arxiv_only("tmalformed"),
        config(&server.base),
        &mut quiet(),
    )
    .unwrap();
    for (source, what) in [
        (Source::Arxiv, "malformed XML"),
        (Source::SemanticScholar, "malformed JSON"),
    ] {
        let r = out.sources.iter().find(|r| r.source == source).unwrap();
        assert!(
            !r.errors.is_empty() && r.errors.iter().all(|e| e.contains(what)),
            "{source:?}: {:?}",
            r.errors
        );
        assert!(history_cells(lib.path(), "tmalformed", source)
            .iter()
            .all(|c| c == "malformed response"));
    }
    assert!(
        out.confirmed
            .iter()
            .any(|r| r.paper.title == "On Moufang loops"),
        "zbMATH still answered"
    );
    // Not cached: offline, the malformed answers are not replayed but reported as not cached.
    let mut cfg = config(&server.base);
    cfg.offline = true;
    let again = search(lib.path(), &arxiv_only("tmalformed"), cfg, &mut quiet()).unwrap();
    let r = again
        .sources
        .iter()
        .find(|r| r.source == Source::Arxiv)
        .unwrap();
    assert!(
        r.errors
            .iter()
            .all(|e| e.contains("offline and not in the cache")),
        "{:?}",
        r.errors
    );
}

#[test]
fn one_source_down_the_run_completes_with_the_others_and_says_so() {
    let server = Server::start();
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let mut cfg = config(&server.base);
    cfg.set_base_url(Source::Zbmath, &dead_base());
    let mut lines = Vec::new();
    let out = search(lib.path(), &subject(), cfg, &mut |l: &str| {
        lines.push(l.to_string())
    })
    .unwrap();
    let zb = out
        .sources
        .iter()
        .find(|r| r.source == Source::Zbmath)
        .unwrap();
    assert!(
        zb.down && zb.queries == 1,
        "one failed call marks it down: {zb:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("zbMATH Open: 1 query, 0 results; DOWN")),
        "{lines:#?}"
    );
    let cells = history_cells(lib.path(), "test-moufang", Source::Zbmath);
    assert_eq!(cells[0], "skipped: source unreachable");
    assert!(
        cells[1..].iter().all(|c| c == "skipped: source down"),
        "{cells:?}"
    );
    // arXiv and Semantic Scholar confirmed theirs; zbMATH's paper was never a candidate.
    assert_eq!(out.confirmed.len(), 2, "{:?}", out.confirmed);
    assert!(out.searched);

    // A source answering 503 is down too.
    let server2 = Server::start();
    server2.route(
        "GET",
        "/s2/",
        &[],
        vec![Reply::status(
            503,
            "{\"message\": \"Internal Server Error\"}",
        )],
    );
    serve_all(&server2);
    let lib2 = tempfile::tempdir().unwrap();
    let out = search(
        lib2.path(),
        &arxiv_only("t503"),
        config(&server2.base),
        &mut quiet(),
    )
    .unwrap();
    let s2 = out
        .sources
        .iter()
        .find(|r| r.source == Source::SemanticScholar)
        .unwrap();
    assert!(s2.down && s2.errors[0].contains("HTTP 503"), "{s2:?}");
}
