//! The fixtures of `literature/tests/fixtures/` (responses in each API's format) and the routes
//! of a [`Server`] that answer with them, with the references a language model might propose:
//! one that exists in the fixtures and two it invented.

use super::server::{Reply, Server};
use crate::{Config, Origin, Paper, Source};
use std::time::Duration;

/// The text of fixture `name`.
pub fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
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

/// The environment that points `birkhoff` at `base` as [`config`] does, for tests that run the
/// binary (`Config::from_env` reads it).
pub fn environment(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("BIRKHOFF_ARXIV_URL", format!("{base}/arxiv")),
        ("BIRKHOFF_S2_URL", format!("{base}/s2")),
        ("BIRKHOFF_ZBMATH_URL", format!("{base}/zbmath")),
        ("BIRKHOFF_OEIS_URL", format!("{base}/oeis")),
        ("BIRKHOFF_LITERATURE_INTERVAL_MS", "0".into()),
        ("BIRKHOFF_LITERATURE_RETRY_MS", "10".into()),
    ]
}

/// The fixtures of a normal search on each source, and the lookups the gate makes: the loops'
/// sequence A057771 for the spectrum 1,1,1,2,6, and no OEIS match for any other.
pub fn serve_all(s: &Server) {
    s.route(
        "GET",
        "/arxiv/query",
        &["id_list="],
        vec![Reply::xml(&fixture("arxiv_idlist.xml"))],
    );
    s.route(
        "GET",
        "/arxiv/query",
        &["search_query="],
        vec![Reply::xml(&fixture("arxiv_search.xml"))],
    );
    s.route(
        "GET",
        "/s2/paper/search",
        &[],
        vec![Reply::json(&fixture("s2_search.json"))],
    );
    s.route(
        "GET",
        "/s2/paper/0000aaaa",
        &[],
        vec![Reply::json(&fixture("s2_paper_counting.json"))],
    );
    s.route(
        "GET",
        "/s2/paper/9999ffff",
        &[],
        vec![Reply::json(&fixture("s2_paper_differs.json"))],
    );
    s.route(
        "GET",
        "/s2/paper/DOI:10.9999",
        &[],
        vec![Reply::status(404, &fixture("s2_not_found.json"))],
    );
    s.route(
        "GET",
        "/zbmath/document/_search",
        &[],
        vec![Reply::json(&fixture("zbmath_search.json"))],
    );
    s.route(
        "GET",
        "/zbmath/document/1234567",
        &[],
        vec![Reply::json(&fixture("zbmath_document.json"))],
    );
    s.route(
        "GET",
        "/oeis/search",
        &["q=1,1,1,2,6"],
        vec![Reply::json(&fixture("oeis_hit.json"))],
    );
    s.route(
        "GET",
        "/oeis/search",
        &[],
        vec![Reply::json(&fixture("oeis_miss.json"))],
    );
}

/// Searches that find nothing on the three paper sources. Added before [`serve_all`] (routes
/// are tried in order), it leaves only what is proposed to be looked up, so that every confirmed
/// reference is one a proposal named.
pub fn serve_empty_searches(s: &Server) {
    s.route(
        "GET",
        "/arxiv/query",
        &["search_query="],
        vec![Reply::xml(&fixture("arxiv_empty.xml"))],
    );
    s.route(
        "GET",
        "/s2/paper/search",
        &[],
        vec![Reply::json(&fixture("s2_search_empty.json"))],
    );
    s.route(
        "GET",
        "/zbmath/document/_search",
        &[],
        vec![Reply::status(404, &fixture("zbmath_search_empty.json"))],
    );
}

/// The arXiv paper of the fixtures (`arxiv_idlist.xml`: 2101.00001) as a language model
/// remembers it: the title in other capitals, one of its two authors, its year.
pub fn recalled_arxiv() -> Paper {
    let mut p = Paper::new(
        "Moufang loops of small order",
        vec!["Alice Kernel".into()],
        Some(2021),
        Origin::Llm,
    );
    p.ids.arxiv = Some("2101.00001".into());
    p
}

/// A reference a language model "remembers": its arXiv id does not exist.
pub fn invented_arxiv() -> Paper {
    let mut p = Paper::new(
        "The Grand Theory of Moufang Loops",
        vec!["Ima Ginary".into()],
        Some(2023),
        Origin::Llm,
    );
    p.ids.arxiv = Some("2399.99999".into());
    p
}

/// Another invented reference, with a DOI no source knows.
pub fn invented_doi() -> Paper {
    let mut p = Paper::new(
        "Moufang loops and everything",
        vec!["Noah Body".into()],
        Some(2020),
        Origin::Llm,
    );
    p.ids.doi = Some("10.9999/invented".into());
    p
}
