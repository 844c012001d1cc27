//! Discovery: what is searched for a subject. A theory gives up to six query groups (its
//! name or "known as" line, its axioms in words, its defining laws in the field's notation
//! ("semigroups satisfying x^2=y^2"), the names of related entries, its name with "finite", its
//! spectrum's terms for the OEIS); each group becomes one query per source in
//! that source's syntax, restricted to the domain's arXiv categories.

use crate::client::Source;
use crate::paper::Paper;
use crate::sources::{arxiv, oeis, s2, zbmath};
use serde::{Deserialize, Serialize};

/// What a literature run is about.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Subject {
    /// Where its LITERATURE.md and history are kept: a library ID (`thy-…`), or a key made
    /// from the query or the spectrum.
    pub key: String,
    /// The title of its LITERATURE.md.
    pub title: String,
    /// Its names: catalogue name, "known as" line, the theory's own name when it is not a
    /// generated one.
    pub names: Vec<String>,
    /// Its axioms in words ("associative", "idempotent"...), joined into one query.
    pub axioms_in_words: Vec<String>,
    /// The class it is nearest to, in words ("semigroup"), for its defining laws' query.
    #[serde(default)]
    pub class: String,
    /// The laws that set it apart from that class, in the field's notation ("x^2=y^2").
    #[serde(default)]
    pub defining_laws: Vec<String>,
    /// Names of related catalogue entries (or the nearest seed).
    pub related: Vec<String>,
    /// Free text to search (`--query`).
    pub free_text: Option<String>,
    /// Exact iso counts from size 1 (no gaps, no lower bounds).
    pub iso_spectrum: Vec<u64>,
    /// Exact labeled counts from size 1.
    pub labeled_spectrum: Vec<u64>,
    /// The domain, choosing the arXiv categories ("algebra", "logic", "combinatorics"...).
    pub domain: String,
    /// References proposed by a language model or written in a catalogue entry: they go
    /// through the same gate as anything a search finds.
    pub proposed: Vec<Paper>,
}

/// The fewest spectrum terms searched in the OEIS: fewer match thousands of sequences.
pub const MIN_OEIS_TERMS: usize = 4;

/// One query group: a summary for the search history and the request per source.
#[derive(Clone, Debug)]
pub struct Group {
    /// "name: Moufang loop".
    pub summary: String,
    /// The request path per source (relative to its base URL).
    pub requests: Vec<(Source, String)>,
    /// For an OEIS group: which spectrum and its terms.
    pub oeis_terms: Option<(String, Vec<u64>)>,
}

fn clean(s: &str) -> String {
    // Query text carries no LaTeX or syntax characters of the sources' query languages.
    s.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The query groups of a subject, 3 to 5 per paper source when the subject has a name.
pub fn groups(subject: &Subject, max_results: usize) -> Vec<Group> {
    let cats = arxiv::categories(if subject.domain.is_empty() {
        "algebra"
    } else {
        &subject.domain
    });
    let cat_clause = format!(
        "({})",
        cats.iter()
            .map(|c| format!("cat:{c}"))
            .collect::<Vec<_>>()
            .join(" OR ")
    );
    let paper_group = |summary: String, arxiv_q: String, text: &str| Group {
        summary,
        requests: vec![
            (Source::Arxiv, arxiv::search_path(&arxiv_q, max_results)),
            (Source::SemanticScholar, s2::search_path(text, max_results)),
            (Source::Zbmath, zbmath::search_path(text, max_results)),
        ],
        oeis_terms: None,
    };
    let mut out = Vec::new();
    let mut seen = Vec::new();
    let mut push = |g: Group, out: &mut Vec<Group>| {
        if !seen.contains(&g.summary) {
            seen.push(g.summary.clone());
            out.push(g);
        }
    };
    if let Some(q) = subject
        .free_text
        .as_deref()
        .map(clean)
        .filter(|q| !q.is_empty())
    {
        push(
            paper_group(
                format!("query: {q}"),
                format!("all:{} AND {cat_clause}", arxiv::phrase(&q)),
                &q,
            ),
            &mut out,
        );
        let words: Vec<&str> = q.split_whitespace().collect();
        if words.len() > 1 {
            let any = words
                .iter()
                .map(|w| format!("abs:{w}"))
                .collect::<Vec<_>>()
                .join(" AND ");
            push(
                paper_group(format!("words: {q}"), format!("{any} AND {cat_clause}"), &q),
                &mut out,
            );
        }
    }
    for name in subject
        .names
        .iter()
        .map(|n| clean(n))
        .filter(|n| !n.is_empty())
        .take(2)
    {
        push(
            paper_group(
                format!("name: {name}"),
                format!("ti:{} AND {cat_clause}", arxiv::phrase(&name)),
                &name,
            ),
            &mut out,
        );
    }
    let words = clean(&subject.axioms_in_words.join(" "));
    if !words.is_empty() {
        let noun = subject.names.first().map(|n| clean(n)).unwrap_or_default();
        let text = if noun.is_empty() {
            words.clone()
        } else {
            format!("{words} {noun}")
        };
        let terms = words
            .split_whitespace()
            .map(|w| format!("abs:{w}"))
            .collect::<Vec<_>>()
            .join(" AND ");
        push(
            paper_group(
                format!("axioms: {words}"),
                format!("{terms} AND {cat_clause}"),
                &text,
            ),
            &mut out,
        );
    }
    // The defining laws in the field's words: "semigroups satisfying x^2=y^2". The laws keep
    // their notation (every source's request is URL-encoded); quotes are the only character
    // taken out, since arXiv's phrases are quoted.
    let class = clean(&subject.class);
    if !class.is_empty() && !subject.defining_laws.is_empty() {
        let laws: Vec<String> = subject
            .defining_laws
            .iter()
            .map(|l| l.replace('"', "").split_whitespace().collect())
            .collect();
        let text = format!("{class}s satisfying {}", laws.join(" and "));
        let arxiv_laws = laws
            .iter()
            .map(|l| format!("abs:{}", arxiv::phrase(l)))
            .collect::<Vec<_>>()
            .join(" AND ");
        push(
            paper_group(
                format!("laws: {text}"),
                format!(
                    "abs:{} AND {arxiv_laws} AND {cat_clause}",
                    arxiv::phrase(&class)
                ),
                &text,
            ),
            &mut out,
        );
    }
    let related = clean(&subject.related.join(" "));
    if !related.is_empty() {
        let any = subject
            .related
            .iter()
            .map(|r| format!("ti:{}", arxiv::phrase(&clean(r))))
            .collect::<Vec<_>>()
            .join(" OR ");
        push(
            paper_group(
                format!("related: {}", subject.related.join(", ")),
                format!("({any}) AND {cat_clause}"),
                &related,
            ),
            &mut out,
        );
    }
    if let Some(name) = subject
        .names
        .first()
        .map(|n| clean(n))
        .filter(|n| !n.is_empty())
    {
        push(
            paper_group(
                format!("finite: {name}"),
                format!(
                    "ti:{} AND abs:finite AND {cat_clause}",
                    arxiv::phrase(&name)
                ),
                &format!("finite {name}s enumeration"),
            ),
            &mut out,
        );
    }
    for (which, spectrum) in [
        ("iso", &subject.iso_spectrum),
        ("labeled", &subject.labeled_spectrum),
    ] {
        if spectrum.len() >= MIN_OEIS_TERMS {
            let terms = spectrum.clone();
            let q: Vec<String> = terms.iter().map(u64::to_string).collect();
            push(
                Group {
                    summary: format!("spectrum ({which}): {}", q.join(",")),
                    requests: vec![(Source::Oeis, oeis::search_path(&terms))],
                    oeis_terms: Some((which.to_string(), terms)),
                },
                &mut out,
            );
        }
    }
    out
}

/// A subject key for free text: `query-` and the text's words (at most 60 characters), safe as a
/// directory name.
pub fn key_for_text(prefix: &str, text: &str) -> String {
    let slug: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let slug: String = slug.chars().take(60).collect();
    format!(
        "{prefix}-{}",
        if slug.is_empty() {
            "empty".to_string()
        } else {
            slug
        }
    )
}
