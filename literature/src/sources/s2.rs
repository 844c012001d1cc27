//! Semantic Scholar's Graph API: paper search, lookup by `ARXIV:`/`DOI:`/paperId, and the batch
//! endpoint (`POST /paper/batch`, one call for many lookups).

use super::{enc, json, ParseError};
use crate::paper::{normalize_doi, Origin, Paper};
use serde_json::Value;

/// The fields asked for (the protocol's list, §6).
pub const FIELDS: &str =
    "paperId,title,authors,year,abstract,externalIds,citationCount,fieldsOfStudy,url,openAccessPdf";

/// The request of a search restricted to mathematics.
pub fn search_path(query: &str, limit: usize) -> String {
    format!(
        "/paper/search?query={}&fields={FIELDS}&limit={limit}&fieldsOfStudy=Mathematics",
        enc(query)
    )
}

/// The request looking up one paper; `id` is `ARXIV:…`, `DOI:…` or a paperId.
pub fn lookup_path(id: &str) -> String {
    format!("/paper/{}?fields={FIELDS}", enc(id))
}

/// The batch request's path; its body is [`batch_body`].
pub fn batch_path() -> String {
    format!("/paper/batch?fields={FIELDS}")
}

/// The batch request's JSON body.
pub fn batch_body(ids: &[String]) -> String {
    serde_json::json!({ "ids": ids }).to_string()
}

/// The papers of a search response (`{"total", "offset", "data": [...]}`).
pub fn parse_search(body: &str) -> Result<Vec<Paper>, ParseError> {
    let v = json(body, "Semantic Scholar")?;
    let obj = v.as_object().ok_or_else(|| {
        ParseError::new("Semantic Scholar search: expected a JSON object".to_string())
    })?;
    match obj.get("data") {
        None | Some(Value::Null) => {
            // No hits: S2 leaves out `data` when `total` is 0.
            if obj.get("total").is_some() {
                Ok(Vec::new())
            } else {
                Err(ParseError::new(
                    "Semantic Scholar search: no `data` and no `total`".to_string(),
                ))
            }
        }
        Some(Value::Array(items)) => items.iter().map(paper).collect(),
        Some(_) => Err(ParseError::new(
            "Semantic Scholar search: `data` is not a list".to_string(),
        )),
    }
}

/// The paper of a lookup response (status 200).
pub fn parse_paper(body: &str) -> Result<Paper, ParseError> {
    paper(&json(body, "Semantic Scholar")?)
}

/// The answers of a batch response, one per asked id in order (`None`: not found).
pub fn parse_batch(body: &str, asked: usize) -> Result<Vec<Option<Paper>>, ParseError> {
    let v = json(body, "Semantic Scholar")?;
    let items = v.as_array().ok_or_else(|| {
        ParseError::new("Semantic Scholar batch: expected a JSON list".to_string())
    })?;
    if items.len() != asked {
        return Err(ParseError::new(format!(
            "Semantic Scholar batch: {} answers for {asked} ids",
            items.len()
        )));
    }
    items
        .iter()
        .map(|i| {
            if i.is_null() {
                Ok(None)
            } else {
                paper(i).map(Some)
            }
        })
        .collect()
}

fn paper(v: &Value) -> Result<Paper, ParseError> {
    let title = v.get("title").and_then(Value::as_str).ok_or_else(|| {
        ParseError::new("Semantic Scholar: a paper without a `title`".to_string())
    })?;
    let authors = match v.get("authors") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.get("name").and_then(Value::as_str).map(str::to_string))
            .collect(),
        None | Some(Value::Null) => Vec::new(),
        Some(_) => {
            return Err(ParseError::new(
                "Semantic Scholar: `authors` is not a list".to_string(),
            ))
        }
    };
    let year = v
        .get("year")
        .and_then(Value::as_i64)
        .and_then(|y| i32::try_from(y).ok());
    let mut p = Paper::new(title, authors, year, Origin::SemanticScholar);
    p.abstract_text = v
        .get("abstract")
        .and_then(Value::as_str)
        .map(crate::paper::collapse_ws);
    p.ids.s2 = v.get("paperId").and_then(Value::as_str).map(str::to_string);
    if let Some(ext) = v.get("externalIds").and_then(Value::as_object) {
        p.ids.arxiv = ext.get("ArXiv").and_then(Value::as_str).map(str::to_string);
        p.ids.doi = ext.get("DOI").and_then(Value::as_str).map(normalize_doi);
    }
    Ok(p)
}
