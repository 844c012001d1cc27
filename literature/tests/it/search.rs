//! A normal search on every source, the gate's verdicts, LITERATURE.md, numbering across runs and
//! a rerun from the cache with the network off.

use crate::support::{quiet, subject};
use birkhoff_literature::testing::fixtures::{config, serve_all};
use birkhoff_literature::testing::server::{dead_base, Server};
use birkhoff_literature::{query, search, Source, Status, Store, Subject};

fn numbers(refs: &[birkhoff_literature::Reference]) -> Vec<String> {
    refs.iter()
        .map(|r| format!("{} {}", r.number, r.paper.title))
        .collect()
}

#[test]
fn a_normal_search_confirms_what_lookups_match_and_sets_the_rest_apart() {
    let server = Server::start();
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    let out = search(
        lib.path(),
        &subject(),
        config(&server.base),
        &mut |l: &str| lines.push(l.to_string()),
    )
    .unwrap();

    // One progress line per source, then the gate's.
    assert_eq!(lines.len(), 5, "{lines:#?}");
    for (line, name) in lines.iter().zip([
        "arXiv:",
        "Semantic Scholar:",
        "zbMATH Open:",
        "OEIS:",
        "verified:",
    ]) {
        assert!(line.starts_with(name), "{line}");
    }
    // 3 to 5 queries per paper source, from the name, the axioms, the related entries, "finite".
    for r in &out.sources {
        match r.source {
            Source::Oeis => assert_eq!(r.queries, 2, "iso and labeled spectra"),
            _ => assert!(
                (3..=5).contains(&r.queries),
                "{:?}: {} queries",
                r.source,
                r.queries
            ),
        }
        assert!(r.errors.is_empty(), "{:?}", r.errors);
    }

    let confirmed = numbers(&out.confirmed);
    assert_eq!(
        confirmed,
        ["REF-001 Moufang Loops of Small Order", "REF-002 On Moufang loops", "REF-003 Counting Finite Moufang Loops."],
        "arXiv (and S2, deduplicated), zbMATH by document id, S2 by paperId: first results of every query first"
    );
    let by_title = |t: &str| out.confirmed.iter().find(|r| r.paper.title == t).unwrap();
    let arxiv = by_title("Moufang Loops of Small Order");
    assert_eq!(arxiv.paper.ids.arxiv.as_deref(), Some("2101.00001"));
    assert_eq!(
        arxiv.paper.ids.s2.as_deref(),
        Some("a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"),
        "merged with the S2 hit"
    );
    match &arxiv.status {
        Status::Confirmed { endpoint, .. } => assert!(
            endpoint.contains("/arxiv/query?id_list=2101.00001%2C2399.99999"),
            "{endpoint}"
        ),
        s => panic!("{s:?}"),
    }
    let zb = by_title("On Moufang loops");
    assert_eq!(zb.paper.authors, ["Dürr, Dieter"]);
    assert_eq!(zb.paper.year, Some(1960));
    assert!(
        matches!(&zb.status, Status::Confirmed { endpoint, .. } if endpoint.ends_with("/zbmath/document/1234567"))
    );
    // Every arXiv candidate was verified in one id_list call.
    assert_eq!(server.count("id_list="), 1);

    let reasons: Vec<(String, String)> = out
        .unconfirmed
        .iter()
        .map(|r| match &r.status {
            Status::Unconfirmed { reason } => (r.paper.title.clone(), reason.clone()),
            s => panic!("{s:?}"),
        })
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:#?}");
    assert!(
        reasons
            .iter()
            .any(|(t, why)| t == "Loops with the inverse property revisited"
                && why.contains("year differs: expected 2018, the source has 2003")),
        "{reasons:#?}"
    );
    assert!(
        reasons
            .iter()
            .any(|(t, why)| t == "The Grand Theory of Moufang Loops"
                && why.contains("no entry for id 2399.99999")),
        "{reasons:#?}"
    );
    assert!(
        reasons
            .iter()
            .any(|(t, why)| t == "Moufang loops and everything"
                && why.contains("Semantic Scholar has no paper DOI:10.9999/invented")),
        "{reasons:#?}"
    );
    assert!(out
        .unconfirmed
        .iter()
        .all(|r| r.number.starts_with("UREF-")));

    // OEIS: the iso spectrum is in A057771 (checked on the terms, not taken from the search:
    // the second hit diverges after 1,1,1,2); the labeled one is a miss.
    assert_eq!(out.oeis.len(), 1, "{:?}", out.oeis);
    assert_eq!(out.oeis[0].sequence.a_number, "A057771");
    assert_eq!(out.oeis[0].position, 0);
    assert_eq!(out.oeis_misses, vec![vec![1, 3, 7, 19]]);
    assert!(out.known());
    let extended = Store::new(lib.path()).oeis_sequences();
    assert_eq!(
        extended
            .iter()
            .map(|s| s.sequence.a_number.as_str())
            .collect::<Vec<_>>(),
        ["A057771"],
        "the offline sequences are extended"
    );

    // LITERATURE.md: front matter, history, confirmed, synthesis, unconfirmed set apart.
    let md = std::fs::read_to_string(&out.literature_md).unwrap();
    assert!(md.starts_with("---\nproblem: \"test-moufang\"\ntotal_papers: 6\nconfirmed_count: 3\nunconfirmed_count: 3\nlast_search: \""), "{md}");
    assert!(
        md.contains("sources_queried: [\"arxiv\", \"semantic_scholar\", \"zbmath\", \"oeis\"]"),
        "{md}"
    );
    let sections: Vec<usize> = [
        "## Search History",
        "## Confirmed References",
        "## Synthesis",
        "## Unconfirmed References",
    ]
    .iter()
    .map(|h| md.find(h).unwrap())
    .collect();
    assert!(
        sections.windows(2).all(|w| w[0] < w[1]),
        "sections in the protocol's order"
    );
    let (confirmed_part, unconfirmed_part) = md.split_at(sections[3]);
    for r in &out.unconfirmed {
        assert!(
            !confirmed_part.contains(&r.number) && !confirmed_part.contains(&r.paper.title),
            "{} leaks above the unconfirmed section",
            r.number
        );
        assert!(unconfirmed_part.contains(&format!("### {}: {}", r.number, r.paper.title)));
    }
    assert!(
        md.contains("- **Verified:** 20"),
        "confirmed references carry a timestamp"
    );
    assert!(md.contains("[V] REF-003 states in its abstract: \"The number of Moufang loops of order n is computed for n at most 81.\""), "{md}");
    assert!(
        md.contains("[V] The iso spectrum 1,1,1,2,6 occurs in OEIS A057771"),
        "{md}"
    );
    assert!(
        md.contains("| name: Moufang loop | 1 | 3 | 1 | - | "),
        "{md}"
    );
    for line in md[sections[2]..sections[3]]
        .lines()
        .filter(|l| l.starts_with("- "))
    {
        assert!(
            ["- [V]", "- [S]", "- [~]"]
                .iter()
                .any(|m| line.starts_with(m)),
            "synthesis claim without a marker: {line}"
        );
    }
}

#[test]
fn numbering_continues_across_runs_and_subjects() {
    let server = Server::start();
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let first = search(lib.path(), &subject(), config(&server.base), &mut quiet()).unwrap();
    // The same subject again: the same numbers, nothing renumbered or added.
    let again = search(lib.path(), &subject(), config(&server.base), &mut quiet()).unwrap();
    assert_eq!(numbers(&first.confirmed), numbers(&again.confirmed));
    assert_eq!(numbers(&first.unconfirmed), numbers(&again.unconfirmed));
    // Another subject: a paper already confirmed keeps its number; new ones continue after 003.
    let mut other = Subject {
        key: "test-other".into(),
        title: "Other".into(),
        free_text: Some("Moufang".into()),
        ..Subject::default()
    };
    let mut fresh = birkhoff_literature::Paper::new(
        "A fourth invented paper",
        vec!["Zed Zero".into()],
        Some(2001),
        birkhoff_literature::Origin::Llm,
    );
    fresh.ids.arxiv = Some("2399.00004".into());
    other.proposed = vec![fresh];
    let out = search(lib.path(), &other, config(&server.base), &mut quiet()).unwrap();
    let conf = numbers(&out.confirmed);
    assert!(
        conf.contains(&"REF-001 Moufang Loops of Small Order".to_string()),
        "{conf:?}"
    );
    let state = Store::new(lib.path()).load().unwrap();
    assert_eq!(state.last_ref, 3, "no paper was confirmed twice");
    assert_eq!(
        state.last_uref, 4,
        "the new unconfirmed reference is UREF-004, after the three of the first subject"
    );
    assert!(
        numbers(&out.unconfirmed).contains(&"UREF-004 A fourth invented paper".to_string()),
        "{:?}",
        numbers(&out.unconfirmed)
    );
}

#[test]
fn a_rerun_with_the_network_off_answers_from_the_cache() {
    let server = Server::start();
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let online = search(lib.path(), &subject(), config(&server.base), &mut quiet()).unwrap();
    let asked = server.requests().len();
    drop(server);

    // Every source now points at a port where nothing listens, and the client is told so.
    let dead = dead_base();
    let mut cfg = config(&dead);
    cfg.offline = true;
    let mut lines = Vec::new();
    let offline = search(lib.path(), &subject(), cfg, &mut |l: &str| {
        lines.push(l.to_string())
    })
    .unwrap();
    assert_eq!(numbers(&online.confirmed), numbers(&offline.confirmed));
    assert_eq!(numbers(&online.unconfirmed), numbers(&offline.unconfirmed));
    assert!(
        offline
            .sources
            .iter()
            .all(|r| r.errors.is_empty() && r.from_cache == r.queries),
        "{lines:#?}"
    );
    assert!(lines[0].contains("from the cache"), "{lines:#?}");

    // Without the offline flag too: the cache answers before the network is tried.
    let cached = search(lib.path(), &subject(), config(&dead), &mut quiet()).unwrap();
    assert_eq!(numbers(&online.confirmed), numbers(&cached.confirmed));
    assert!(asked > 0);

    // A subject never searched, offline: nothing is invented, and the run says what it could not do.
    let mut cfg = config(&dead);
    cfg.offline = true;
    let never = Subject {
        key: "test-never".into(),
        title: "Never".into(),
        free_text: Some("quandles".into()),
        ..Subject::default()
    };
    let out = search(lib.path(), &never, cfg, &mut quiet()).unwrap();
    assert!(!out.searched && out.confirmed.is_empty() && out.unconfirmed.is_empty());
    assert!(out.sources.iter().all(|r| r
        .errors
        .iter()
        .all(|e| e.contains("offline and not in the cache"))));
}

#[test]
fn queries_follow_the_sources_syntax() {
    let groups = query::groups(&subject(), 10);
    let summaries: Vec<&str> = groups.iter().map(|g| g.summary.as_str()).collect();
    assert_eq!(
        summaries,
        [
            "name: Moufang loop",
            "axioms: Moufang identity identity element division",
            "related: Bol loop, group",
            "finite: Moufang loop",
            "spectrum (iso): 1,1,1,2,6",
            "spectrum (labeled): 1,3,7,19"
        ]
    );
    let arxiv = &groups[0]
        .requests
        .iter()
        .find(|(s, _)| *s == Source::Arxiv)
        .unwrap()
        .1;
    assert_eq!(birkhoff_literature::testing::server::decode(arxiv), "/query?search_query=ti:\"Moufang loop\" AND (cat:math.RA OR cat:math.GR OR cat:math.AC OR cat:math.RT OR cat:math.CT OR cat:math.QA)&start=0&max_results=10&sortBy=relevance&sortOrder=descending");
    let s2 = &groups[0]
        .requests
        .iter()
        .find(|(s, _)| *s == Source::SemanticScholar)
        .unwrap()
        .1;
    assert!(s2.starts_with("/paper/search?query=Moufang%20loop&fields=paperId,title,authors,year,abstract,externalIds"), "{s2}");
    assert!(s2.ends_with("&limit=10&fieldsOfStudy=Mathematics"));
    // Too few terms for the OEIS: not searched.
    let short = Subject {
        iso_spectrum: vec![1, 1, 2],
        ..subject()
    };
    assert!(query::groups(&short, 10)
        .iter()
        .all(|g| !g.summary.starts_with("spectrum (iso)")));
}

#[test]
fn a_sources_text_cannot_forge_markup_in_literature_md() {
    // A confirmed paper whose abstract (from the search and from the lookup by identifier)
    // carries a tag, a link, a table cell, a heading and emphasis.
    const FORGED: &str =
        "<script>alert(1)</script> | ### REF-999: Forged [click](http://evil.example) **bold**";
    let plain = "The number of Moufang loops of order n is computed for n at most 81.";
    let forge = |name: &str| {
        birkhoff_literature::testing::fixtures::fixture(name)
            .replace(plain, &format!("{plain} {FORGED}"))
    };
    let server = Server::start();
    server.route(
        "GET",
        "/s2/paper/search",
        &[],
        vec![birkhoff_literature::testing::server::Reply::json(&forge(
            "s2_search.json",
        ))],
    );
    server.route(
        "GET",
        "/s2/paper/0000aaaa",
        &[],
        vec![birkhoff_literature::testing::server::Reply::json(&forge(
            "s2_paper_counting.json",
        ))],
    );
    serve_all(&server);
    let lib = tempfile::tempdir().unwrap();
    let out = search(lib.path(), &subject(), config(&server.base), &mut quiet()).unwrap();
    assert!(
        out.confirmed.iter().any(|r| r
            .paper
            .abstract_text
            .as_deref()
            .is_some_and(|a| a.contains(FORGED))),
        "the fixture reached the record"
    );
    let md = std::fs::read_to_string(&out.literature_md).unwrap();
    assert!(md.contains(r"\<script\>alert(1)\</script\> \| \#\#\# REF-999: Forged \[click\](http://evil.example) \*\*bold\*\*"), "{md}");
    for raw in ["<script>", "[click]", "**bold**", "| ###"] {
        assert!(
            !md.contains(raw),
            "`{raw}` reached LITERATURE.md unescaped:\n{md}"
        );
    }
}
