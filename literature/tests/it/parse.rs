//! The parsers on the fixtures, on arXiv's error feed, and on every truncation of each fixture
//! (an error or a result, never a panic).

use birkhoff_literature::sources::{arxiv, oeis, s2, zbmath};
use birkhoff_literature::testing::fixtures::fixture;

#[test]
fn arxiv_atom_entries() {
    let papers = arxiv::parse(&fixture("arxiv_search.xml")).unwrap();
    assert_eq!(papers.len(), 1);
    let p = &papers[0];
    assert_eq!(
        p.title, "Moufang Loops of Small Order",
        "whitespace across lines collapsed"
    );
    assert_eq!(p.authors, ["Alice Kernel", "Bob Nucleus"]);
    assert_eq!(p.year, Some(2021));
    assert_eq!(
        p.ids.arxiv.as_deref(),
        Some("2101.00001"),
        "version stripped"
    );
    assert_eq!(p.ids.doi.as_deref(), Some("10.1000/test.1"));
    assert!(
        p.abstract_text
            .as_deref()
            .unwrap()
            .contains("order $n < 12$ is listed & described."),
        "entities resolved"
    );
    assert!(arxiv::parse(&fixture("arxiv_empty.xml"))
        .unwrap()
        .is_empty());
    let err = arxiv::parse(&fixture("arxiv_error.xml")).unwrap_err();
    assert!(
        err.0.contains("incorrect id format for 1234.12345"),
        "{err}"
    );
    assert!(
        arxiv::parse("<html><body>Service unavailable</body></html>")
            .unwrap_err()
            .0
            .contains("not an Atom feed")
    );
    assert!(arxiv::parse("").is_err());
}

#[test]
fn semantic_scholar_zbmath_and_oeis_formats() {
    let s = s2::parse_search(&fixture("s2_search.json")).unwrap();
    assert_eq!(s.len(), 3);
    assert_eq!(s[0].ids.arxiv.as_deref(), Some("2101.00001"));
    assert_eq!(s[1].ids.doi.as_deref(), Some("10.1000/test.2"));
    assert_eq!(s[2].abstract_text, None);
    assert!(s2::parse_search(&fixture("s2_search_empty.json"))
        .unwrap()
        .is_empty());
    assert_eq!(
        s2::parse_paper(&fixture("s2_paper_differs.json"))
            .unwrap()
            .year,
        Some(2003)
    );
    let z = zbmath::parse_search(&fixture("zbmath_search.json")).unwrap();
    assert_eq!(
        (
            z[0].title.as_str(),
            z[0].year,
            z[0].ids.zbmath.as_deref(),
            z[0].ids.doi.as_deref()
        ),
        (
            "On Moufang loops",
            Some(1960),
            Some("1234567"),
            Some("10.1000/old.3")
        )
    );
    assert_eq!(
        zbmath::parse_document(&fixture("zbmath_document.json")).unwrap(),
        z[0]
    );
    for hit in ["oeis_hit.json", "oeis_hit_legacy.json"] {
        let seqs = oeis::parse(&fixture(hit)).unwrap();
        assert_eq!(seqs[0].a_number, "A057771");
        assert_eq!(seqs[0].offset, 1);
        assert_eq!(seqs[0].position_of(&[1, 1, 1, 2, 6]), Some(0));
        assert_eq!(seqs[0].position_of(&[2, 6, 109]), Some(3));
    }
    assert_eq!(
        oeis::parse(&fixture("oeis_hit.json")).unwrap()[1].position_of(&[1, 1, 1, 2, 6]),
        None
    );
    assert!(oeis::parse(&fixture("oeis_miss.json")).unwrap().is_empty());
    assert!(oeis::parse(&fixture("oeis_miss_legacy.json"))
        .unwrap()
        .is_empty());
    // A sequence with negative terms counts nothing: left out, not an error.
    assert!(
        oeis::parse(r#"[{"number": 1, "data": "1,-1,2", "name": "signed"}]"#)
            .unwrap()
            .is_empty()
    );
    assert!(oeis::parse(r#"[{"number": 1, "data": "1,x", "name": "bad"}]"#).is_err());
}

#[test]
fn every_truncation_is_an_answer_or_an_error_never_a_panic() {
    /// A fixture file and whether its parser accepts a text.
    type Case = (&'static str, fn(&str) -> bool);
    let cases: [Case; 6] = [
        ("arxiv_search.xml", |s| arxiv::parse(s).is_ok()),
        ("s2_search.json", |s| s2::parse_search(s).is_ok()),
        ("s2_paper_counting.json", |s| s2::parse_paper(s).is_ok()),
        ("zbmath_search.json", |s| zbmath::parse_search(s).is_ok()),
        ("zbmath_document.json", |s| {
            zbmath::parse_document(s).is_ok()
        }),
        ("oeis_hit_legacy.json", |s| oeis::parse(s).is_ok()),
    ];
    for (name, parse) in cases {
        let text = fixture(name);
        // Every cut that loses more than trailing whitespace.
        let cuts: Vec<usize> = (0..text.len())
            .filter(|&i| text.is_char_boundary(i) && !text[i..].trim().is_empty())
            .collect();
        let ok = cuts.iter().filter(|&&i| parse(&text[..i])).count();
        // JSON cut short never parses; XML cut short inside the feed is an error too.
        assert_eq!(ok, 0, "{name}: a truncated answer was accepted");
        assert!(parse(&text), "{name}");
    }
}

/// The forms a proposed identifier must have before it is sent to a source (it goes into a
/// request's path or query).
#[test]
fn identifier_forms() {
    use birkhoff_literature::paper::{is_arxiv_id, is_doi, is_zbmath_id};
    for ok in [
        "2101.00001",
        "0704.0001",
        "math/0601001",
        "math.GR/0601001",
        "hep-th/9901001",
    ] {
        assert!(is_arxiv_id(ok), "{ok}");
    }
    for bad in [
        "2101.001",
        "21010.0001",
        "2101.00001v2",
        "math/060100",
        "Math/0601001",
        "math.gr/0601001",
        "../0601001",
        "2101.0000a",
        "",
    ] {
        assert!(!is_arxiv_id(bad), "{bad}");
    }
    assert!(is_doi("10.1000/test.1") && is_doi("10.1007/978-3-642-01234-5_6"));
    for bad in [
        "11.1000/x",
        "10./x",
        "10.1000/",
        "10.1000/a b",
        "10.1000",
        "10.10a0/x",
        &format!("10.1000/{}", "x".repeat(200)),
    ] {
        assert!(!is_doi(bad), "{bad}");
    }
    assert!(
        is_zbmath_id("1234567")
            && !is_zbmath_id("")
            && !is_zbmath_id("12345678901")
            && !is_zbmath_id("0123.45678")
    );
}
