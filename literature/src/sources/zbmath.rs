//! zbMATH Open's REST API: document search (`/document/_search?search_string=`) and lookup by
//! document id (`/document/{id}`). Universal algebra's literature is mostly older than arXiv;
//! this is where it is indexed.

use super::{enc, json, ParseError};
use crate::paper::{normalize_doi, Origin, Paper};
use serde_json::Value;

/// The request of a search.
pub fn search_path(query: &str, per_page: usize) -> String {
    format!(
        "/document/_search?search_string={}&page=0&results_per_page={per_page}",
        enc(query)
    )
}

/// The request looking up one document by its id.
pub fn lookup_path(id: &str) -> String {
    format!("/document/{}", enc(id))
}

/// The documents of a search response (`{"result": [...], "status": {...}}`).
pub fn parse_search(body: &str) -> Result<Vec<Paper>, ParseError> {
    let v = json(body, "zbMATH Open")?;
    match v.get("result") {
        Some(Value::Array(items)) => items.iter().map(document).collect(),
        Some(Value::Null) => Ok(Vec::new()),
        Some(doc @ Value::Object(_)) => Ok(vec![document(doc)?]),
        _ => Err(ParseError::new(
            "zbMATH Open: no `result` in the response".to_string(),
        )),
    }
}

/// The document of a lookup response (`{"result": {...}}`).
pub fn parse_document(body: &str) -> Result<Paper, ParseError> {
    let v = json(body, "zbMATH Open")?;
    match v.get("result") {
        Some(doc @ Value::Object(_)) => document(doc),
        Some(Value::Array(items)) if items.len() == 1 => document(&items[0]),
        _ => Err(ParseError::new(
            "zbMATH Open: no single document in `result`".to_string(),
        )),
    }
}

fn document(v: &Value) -> Result<Paper, ParseError> {
    let title = match v.get("title") {
        Some(Value::Object(t)) => t.get("title").and_then(Value::as_str),
        Some(Value::String(s)) => Some(s.as_str()),
        _ => None,
    }
    .ok_or_else(|| ParseError::new("zbMATH Open: a document without `title.title`".to_string()))?;
    let authors = v
        .pointer("/contributors/authors")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.get("name").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    // zbMATH gives the year as text ("1935"); some records have a number.
    let year = match v.get("year") {
        Some(Value::String(s)) => s.trim().get(..4).and_then(|y| y.parse().ok()),
        Some(Value::Number(n)) => n.as_i64().and_then(|y| i32::try_from(y).ok()),
        _ => None,
    };
    let mut p = Paper::new(title, authors, year, Origin::Zbmath);
    p.ids.zbmath = match v.get("id") {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    if p.ids.zbmath.is_none() {
        return Err(ParseError::new(format!(
            "zbMATH Open: document \"{title}\" has no `id`"
        )));
    }
    let doi = v
        .get("doi")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            v.get("links")?.as_array()?.iter().find_map(|l| {
                (l.get("type").and_then(Value::as_str) == Some("doi"))
                    .then(|| {
                        l.get("identifier")
                            .and_then(Value::as_str)
                            .map(str::to_string)
                    })
                    .flatten()
            })
        });
    p.ids.doi = doi.as_deref().map(normalize_doi);
    p.abstract_text = v
        .get("editorial_contributions")
        .and_then(Value::as_array)
        .and_then(|c| c.iter().find_map(|e| e.get("text").and_then(Value::as_str)))
        .map(crate::paper::collapse_ws);
    Ok(p)
}
