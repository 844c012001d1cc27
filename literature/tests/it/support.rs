//! The scenario most tests share: a subject "Moufang loop" and fixtures for it on every source.

use crate::server::{Reply, Server};
use birkhoff_literature::{Config, Origin, Paper, Source, Subject};
use std::time::Duration;

pub fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every source pointed at `base` + `/arxiv`, `/s2`, `/zbmath`, `/oeis`, with no pacing (the
/// local server has no rate limit) and short waits.
pub fn config(base: &str) -> Config {
    let mut c = Config::default();
    c.set_base_url(Source::Arxiv, &format!("{base}/arxiv"));
    c.set_base_url(Source::SemanticScholar, &format!("{base}/s2"));
    c.set_base_url(Source::Zbmath, &format!("{base}/zbmath"));
    c.set_base_url(Source::Oeis, &format!("{base}/oeis"));
    c.set_pacing(Some(Duration::ZERO), Some(Duration::from_millis(20)));
    c.timeout = Duration::from_secs(5);
    c
}

/// The fixtures of a normal search on each source, and the lookups the gate makes.
pub fn serve_all(s: &Server) {
    s.route("GET", "/arxiv/query", &["id_list="], vec![Reply::xml(&fixture("arxiv_idlist.xml"))]);
    s.route("GET", "/arxiv/query", &["search_query="], vec![Reply::xml(&fixture("arxiv_search.xml"))]);
    s.route("GET", "/s2/paper/search", &[], vec![Reply::json(&fixture("s2_search.json"))]);
    s.route("GET", "/s2/paper/0000aaaa", &[], vec![Reply::json(&fixture("s2_paper_counting.json"))]);
    s.route("GET", "/s2/paper/9999ffff", &[], vec![Reply::json(&fixture("s2_paper_differs.json"))]);
    s.route("GET", "/s2/paper/DOI:10.9999", &[], vec![Reply::status(404, &fixture("s2_not_found.json"))]);
    s.route("GET", "/zbmath/document/_search", &[], vec![Reply::json(&fixture("zbmath_search.json"))]);
    s.route("GET", "/zbmath/document/1234567", &[], vec![Reply::json(&fixture("zbmath_document.json"))]);
    s.route("GET", "/oeis/search", &["q=1,1,1,2,6"], vec![Reply::json(&fixture("oeis_hit.json"))]);
    s.route("GET", "/oeis/search", &["q=1,3,7,19"], vec![Reply::json(&fixture("oeis_miss.json"))]);
}

/// A reference a language model "remembers": its arXiv id does not exist.
pub fn invented_arxiv() -> Paper {
    let mut p = Paper::new("The Grand Theory of Moufang Loops", vec!["Ima Ginary".into()], Some(2023), Origin::Llm);
    p.ids.arxiv = Some("2399.99999".into());
    p
}

/// Another invented reference, with a DOI no source knows.
pub fn invented_doi() -> Paper {
    let mut p = Paper::new("Moufang loops and everything", vec!["Noah Body".into()], Some(2020), Origin::Llm);
    p.ids.doi = Some("10.9999/invented".into());
    p
}

pub fn subject() -> Subject {
    Subject {
        key: "test-moufang".into(),
        title: "Moufang loops".into(),
        names: vec!["Moufang loop".into()],
        axioms_in_words: vec!["Moufang identity".into(), "identity element".into(), "division".into()],
        related: vec!["Bol loop".into(), "group".into()],
        iso_spectrum: vec![1, 1, 1, 2, 6],
        labeled_spectrum: vec![1, 3, 7, 19],
        domain: "algebra".into(),
        proposed: vec![invented_arxiv(), invented_doi()],
        ..Subject::default()
    }
}

pub fn quiet() -> impl FnMut(&str) {
    |_: &str| {}
}
