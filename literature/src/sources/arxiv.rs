//! arXiv's Atom API: search (`search_query`) and lookup by identifier (`id_list`, one call for
//! every arXiv candidate). Responses are Atom 1.0, read with quick-xml.

use super::{enc, ParseError};
use crate::paper::{normalize_doi, strip_arxiv_version, Origin, Paper};
use quick_xml::events::Event;
use quick_xml::Reader;

/// The request of a search: `query` in arXiv's syntax (`ti:`, `abs:`, `cat:`, `AND`, `OR`).
pub fn search_path(query: &str, max_results: usize) -> String {
    format!("/query?search_query={}&start=0&max_results={max_results}&sortBy=relevance&sortOrder=descending", enc(query))
}

/// The request looking up these identifiers at once.
pub fn id_list_path(ids: &[String]) -> String {
    format!(
        "/query?id_list={}&max_results={}",
        enc(&ids.join(",")),
        ids.len()
    )
}

/// The arXiv categories of a domain, primary first (the protocol's map, §5).
pub fn categories(domain: &str) -> &'static [&'static str] {
    match domain {
        "algebra" => &[
            "math.RA", "math.GR", "math.AC", "math.RT", "math.CT", "math.QA",
        ],
        "logic" => &["math.LO", "math.CT", "math.GN"],
        "combinatorics" => &["math.CO", "math.PR", "math.RT"],
        "number-theory" => &["math.NT", "math.AG", "math.CO"],
        "topology" => &["math.AT", "math.GN", "math.GT", "math.DG", "math.KT"],
        "category-theory" => &["math.CT", "math.LO", "math.RA"],
        _ => &["math.RA", "math.GR", "math.LO", "math.CO"],
    }
}

/// Quotes a phrase for arXiv's query syntax (quotes inside are dropped).
pub fn phrase(words: &str) -> String {
    format!(
        "\"{}\"",
        words
            .replace('"', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// The entries of an Atom feed. An error entry (arXiv reports a bad query as an entry whose id
/// is under `/api/errors`) is a parse error with arXiv's message.
pub fn parse(xml: &str) -> Result<Vec<Paper>, ParseError> {
    let mut reader = Reader::from_str(xml);
    reader.config_mut().trim_text(false);
    let mut papers = Vec::new();
    let mut path: Vec<String> = Vec::new();
    let mut cur: Option<Entry> = None;
    let mut text = String::new();
    let mut saw_feed = false;
    loop {
        let ev = reader.read_event().map_err(|e| {
            ParseError::new(format!(
                "malformed XML at byte {}: {e}",
                reader.error_position()
            ))
        })?;
        match ev {
            Event::Start(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                if path.is_empty() {
                    if local(&name) != "feed" {
                        return Err(ParseError::new(format!(
                            "not an Atom feed: the root element is <{name}>"
                        )));
                    }
                    saw_feed = true;
                }
                if local(&name) == "entry" && path.len() == 1 {
                    cur = Some(Entry::default());
                }
                path.push(name);
                text.clear();
            }
            Event::Empty(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                if path.is_empty() {
                    return Err(ParseError::new(format!(
                        "not an Atom feed: the root element is <{name}/>"
                    )));
                }
            }
            Event::Text(t) => {
                let s = t
                    .xml_content()
                    .map_err(|e| ParseError::new(format!("bad text: {e}")))?;
                text.push_str(&s);
            }
            Event::CData(t) => {
                let s = t
                    .decode()
                    .map_err(|e| ParseError::new(format!("bad CDATA: {e}")))?;
                text.push_str(&s);
            }
            Event::GeneralRef(r) => {
                if let Some(c) = r
                    .resolve_char_ref()
                    .map_err(|e| ParseError::new(format!("bad character reference: {e}")))?
                {
                    text.push(c);
                } else {
                    let name = r
                        .decode()
                        .map_err(|e| ParseError::new(format!("bad entity: {e}")))?;
                    text.push(match name.as_ref() {
                        "amp" => '&',
                        "lt" => '<',
                        "gt" => '>',
                        "quot" => '"',
                        "apos" => '\'',
                        other => return Err(ParseError::new(format!("unknown entity &{other};"))),
                    });
                }
            }
            Event::End(_) => {
                let name = path.pop().unwrap_or_default();
                if let Some(entry) = cur.as_mut() {
                    let parent = path
                        .last()
                        .map(|p| local(p).to_string())
                        .unwrap_or_default();
                    let value = text.trim().to_string();
                    match (parent.as_str(), name.as_str()) {
                        ("entry", n) if local(n) == "id" => entry.id = value,
                        ("entry", n) if local(n) == "title" => entry.title = value,
                        ("entry", n) if local(n) == "summary" => entry.summary = value,
                        ("entry", n) if local(n) == "published" => entry.published = value,
                        ("entry", "arxiv:doi") => entry.doi = Some(value),
                        ("author", n) if local(n) == "name" => entry.authors.push(value),
                        _ => {}
                    }
                }
                if local(&name) == "entry" && path.len() == 1 {
                    if let Some(entry) = cur.take() {
                        papers.push(entry.into_paper()?);
                    }
                }
                text.clear();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_feed {
        return Err(ParseError::new("empty response: no Atom feed".to_string()));
    }
    if !path.is_empty() {
        return Err(ParseError::new(format!(
            "malformed XML: <{}> is not closed",
            path.join("> <")
        )));
    }
    Ok(papers)
}

fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

#[derive(Default)]
struct Entry {
    id: String,
    title: String,
    summary: String,
    published: String,
    doi: Option<String>,
    authors: Vec<String>,
}

impl Entry {
    fn into_paper(self) -> Result<Paper, ParseError> {
        if self.id.contains("/api/errors") {
            return Err(ParseError::new(format!(
                "arXiv reports an error: {}",
                self.summary
            )));
        }
        let raw = self.id.split("/abs/").nth(1).ok_or_else(|| {
            ParseError::new(format!(
                "entry id `{}` is not an arXiv abstract URL",
                self.id
            ))
        })?;
        if self.title.is_empty() {
            return Err(ParseError::new(format!("entry {raw} has no title")));
        }
        let year = self.published.get(..4).and_then(|y| y.parse().ok());
        let mut p = Paper::new(&self.title, self.authors, year, Origin::Arxiv);
        p.ids.arxiv = Some(strip_arxiv_version(raw));
        p.ids.doi = self.doi.as_deref().map(normalize_doi);
        if !self.summary.is_empty() {
            p.abstract_text = Some(crate::paper::collapse_ws(&self.summary));
        }
        Ok(p)
    }
}
