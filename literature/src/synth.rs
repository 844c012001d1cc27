//! LITERATURE.md in the protocol's schema: YAML front matter, the search history, the confirmed
//! references, a synthesis whose every claim carries \[V\] (cited from a verified record), \[S\]
//! (derived from verified premises) or \[~\] (speculative), and the unconfirmed references set
//! apart. Only confirmed references appear in the synthesis.

use crate::client::Source;
use crate::store::{Reference, State, Status};
use birkhoff_library::text::md;
use std::fmt::Write;

/// `YYYY-MM-DDTHH:MM:SSZ` (ISO 8601, UTC).
pub fn iso(secs: u64) -> String {
    format!(
        "{}:{:02}Z",
        birkhoff_library::time::format_utc(secs).replace(' ', "T"),
        secs % 60
    )
}

fn yaml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// The first sentence of an abstract (at most 300 characters).
fn first_sentence(s: &str) -> String {
    let end = s.find(". ").map_or(s.len(), |i| i + 1);
    let cut: String = s[..end].chars().take(300).collect();
    if cut.len() < s[..end].len() {
        format!("{cut}...")
    } else {
        cut
    }
}

/// Renders a subject's LITERATURE.md from the state. Every text from outside (titles, authors,
/// abstracts, queries, the sources' messages, OEIS names) is escaped by [`md`], so that a
/// source's record cannot open a section, a table cell or a tag of the document.
pub fn render(state: &State, key: &str) -> String {
    let subject = state.subjects.get(key).cloned().unwrap_or_default();
    let refs = state.of_subject(key);
    let confirmed: Vec<&Reference> = refs.iter().copied().filter(|r| r.is_confirmed()).collect();
    let unconfirmed: Vec<&Reference> = refs.iter().copied().filter(|r| !r.is_confirmed()).collect();
    let mut s = String::new();
    let sources: Vec<String> = subject
        .sources_queried
        .iter()
        .map(|k| yaml_str(k))
        .collect();
    let _ = writeln!(s, "---");
    let _ = writeln!(s, "problem: {}", yaml_str(key));
    let _ = writeln!(s, "total_papers: {}", refs.len());
    let _ = writeln!(s, "confirmed_count: {}", confirmed.len());
    let _ = writeln!(s, "unconfirmed_count: {}", unconfirmed.len());
    let _ = writeln!(
        s,
        "last_search: {}",
        yaml_str(&if subject.last_search == 0 {
            String::new()
        } else {
            iso(subject.last_search)
        })
    );
    let _ = writeln!(s, "sources_queried: [{}]", sources.join(", "));
    let _ = writeln!(s, "---\n");
    let _ = writeln!(s, "# Literature: {}\n", md(&subject.title));

    let _ = writeln!(s, "## Search History\n");
    let _ = writeln!(s, "| Date | Query Summary | arXiv Results | S2 Results | zbMATH Results | OEIS Results | New Confirmed |");
    let _ = writeln!(s, "|------|---------------|---------------|------------|----------------|--------------|---------------|");
    for row in &subject.history {
        let cell = |src: Source| md(row.results.get(src.key()).map_or("-", String::as_str));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            &iso(row.date)[..10],
            md(&row.summary),
            cell(Source::Arxiv),
            cell(Source::SemanticScholar),
            cell(Source::Zbmath),
            cell(Source::Oeis),
            row.new_confirmed
        );
    }

    let _ = writeln!(s, "\n## Confirmed References\n");
    if confirmed.is_empty() {
        let _ = writeln!(s, "None yet.");
    }
    for r in &confirmed {
        let p = &r.paper;
        head(&mut s, r);
        if let Some(a) = &p.ids.arxiv {
            let _ = writeln!(s, "- **arXiv ID:** {}", md(a));
        }
        if let Some(d) = &p.ids.doi {
            let _ = writeln!(s, "- **DOI:** {}", md(d));
        }
        if let Some(z) = &p.ids.zbmath {
            let _ = writeln!(s, "- **zbMATH:** {}", md(z));
        }
        let _ = writeln!(
            s,
            "- **Abstract:** {}",
            md(p.abstract_text
                .as_deref()
                .unwrap_or("(none given by the source)"))
        );
        let _ = writeln!(
            s,
            "- **Relevance:** [S] found by the search \"{}\".",
            md(&r.found_by)
        );
        let _ = writeln!(
            s,
            "- **Key Results:** [~] not extracted automatically; see the abstract."
        );
        let _ = writeln!(
            s,
            "- **Confidence:** [V] for the metadata above, [S] for the relevance"
        );
        if let Status::Confirmed { verified, endpoint } = &r.status {
            let _ = writeln!(s, "- **Verified:** {} via {}", iso(*verified), md(endpoint));
        }
        let _ = writeln!(s);
    }

    let _ = writeln!(s, "## Synthesis\n");
    let _ = writeln!(s, "### Applicable Theorems\n");
    let with_abstract: Vec<&&Reference> = confirmed
        .iter()
        .filter(|r| r.paper.abstract_text.is_some())
        .collect();
    if with_abstract.is_empty() {
        let _ = writeln!(
            s,
            "- [~] No confirmed reference with an abstract to cite a statement from."
        );
    }
    for r in with_abstract {
        let _ = writeln!(
            s,
            "- [V] {} states in its abstract: \"{}\"",
            r.number,
            md(&first_sentence(
                r.paper.abstract_text.as_deref().unwrap_or_default()
            ))
        );
    }
    let _ = writeln!(s, "\n### Technique Connections\n");
    if confirmed.is_empty() {
        let _ = writeln!(s, "- [~] None: no confirmed reference.");
    }
    for r in &confirmed {
        let _ = writeln!(s, "- [S] {} ({}) was found by \"{}\" and verified by identifier: it treats the subject under that description.", r.number, md(&r.paper.title), md(&r.found_by));
    }
    let _ = writeln!(s, "\n### Gaps in Literature\n");
    for m in &subject.oeis {
        let _ = writeln!(
            s,
            "- [V] The {} spectrum {} occurs in OEIS {} ({}), from its term {}.",
            m.spectrum,
            join(&m.terms),
            md(&m.sequence.a_number),
            md(&m.sequence.name),
            m.position + 1
        );
    }
    for miss in &subject.oeis_misses {
        let _ = writeln!(s, "- [~] The spectrum {} is not in the OEIS: possibly not studied as a counting sequence.", join(miss));
    }
    let failed: Vec<String> = subject
        .history
        .iter()
        .flat_map(|row| {
            row.results
                .iter()
                .filter(|(_, v)| !v.starts_with(|c: char| c.is_ascii_digit()) && v.as_str() != "-")
                .map(move |(k, v)| format!("{k} on \"{}\": {v}", row.summary))
        })
        .collect();
    for f in &failed {
        let _ = writeln!(s, "- [~] Not searched fully: {}", md(f));
    }
    if confirmed.is_empty() {
        let _ = writeln!(
            s,
            "- [~] No confirmed reference: the subject may be unstudied, or the queries missed it."
        );
    }
    let _ = writeln!(s, "\n### Suggested Reading Order\n");
    let mut order = confirmed.clone();
    order.sort_by_key(|r| (r.paper.year.unwrap_or(i32::MAX), r.number.clone()));
    if order.is_empty() {
        let _ = writeln!(s, "Nothing to read yet.");
    }
    for (i, r) in order.iter().enumerate() {
        let _ = writeln!(
            s,
            "{}. {} ({}) {}",
            i + 1,
            r.number,
            r.paper.year.map_or("n.d.".to_string(), |y| y.to_string()),
            md(&r.paper.title)
        );
    }

    let _ = writeln!(s, "\n## Unconfirmed References\n");
    let _ = writeln!(
        s,
        "> Not verified by a lookup by identifier. Never cite these as established references.\n"
    );
    if unconfirmed.is_empty() {
        let _ = writeln!(s, "None.");
    }
    for r in &unconfirmed {
        head(&mut s, r);
        if let Status::Unconfirmed { reason } = &r.status {
            let _ = writeln!(s, "- **Reason:** {}", md(reason));
        }
        let _ = writeln!(s, "- **Relevance:** [~] found by \"{}\"", md(&r.found_by));
        let _ = writeln!(
            s,
            "- **Status:** Unconfirmed -- do not cite as established reference\n"
        );
    }
    s
}

/// A reference's heading and the lines both sections share: authors, year, source.
fn head(s: &mut String, r: &Reference) {
    let p = &r.paper;
    let _ = writeln!(s, "### {}: {}", r.number, md(&p.title));
    let _ = writeln!(s, "- **Authors:** {}", md(&p.authors.join(", ")));
    let _ = writeln!(
        s,
        "- **Year:** {}",
        p.year.map_or("unknown".to_string(), |y| y.to_string())
    );
    let _ = writeln!(
        s,
        "- **Source:** {}",
        p.origins
            .iter()
            .map(|o| o.label())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}
