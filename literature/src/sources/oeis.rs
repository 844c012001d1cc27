//! The OEIS search by terms, in its JSON format (`/search?q=1,1,2,5,15&fmt=json`). Older
//! servers answer `{"count", "results": [...]}`, newer ones the list itself (`null` for no hit);
//! both are read.

use super::{enc, json, ParseError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One OEIS sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    /// `A000001`.
    pub a_number: String,
    /// The sequence's name.
    pub name: String,
    /// Its terms as the OEIS lists them.
    pub terms: Vec<u64>,
    /// The index of its first term.
    pub offset: i64,
}

impl Sequence {
    /// Where `terms` occurs in the sequence as a contiguous run (its index in [`Self::terms`]),
    /// checked here rather than trusted from the search.
    pub fn position_of(&self, terms: &[u64]) -> Option<usize> {
        if terms.is_empty() || terms.len() > self.terms.len() {
            return None;
        }
        self.terms.windows(terms.len()).position(|w| w == terms)
    }
}

/// The request searching for these terms in order.
pub fn search_path(terms: &[u64]) -> String {
    let q: Vec<String> = terms.iter().map(u64::to_string).collect();
    format!("/search?q={}&fmt=json", enc(&q.join(",")))
}

/// The sequences of a search response.
pub fn parse(body: &str) -> Result<Vec<Sequence>, ParseError> {
    let v = json(body, "the OEIS")?;
    let items = match &v {
        Value::Null => return Ok(Vec::new()),
        Value::Array(a) => a,
        Value::Object(o) => match o.get("results") {
            Some(Value::Array(a)) => a,
            Some(Value::Null) | None if o.contains_key("count") => return Ok(Vec::new()),
            _ => {
                return Err(ParseError::new(
                    "the OEIS: no `results` in the response".to_string(),
                ))
            }
        },
        _ => {
            return Err(ParseError::new(
                "the OEIS: expected a list or an object".to_string(),
            ))
        }
    };
    // A sequence with a negative term counts nothing and can match no spectrum: it is left out.
    Ok(items
        .iter()
        .map(sequence)
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect())
}

fn sequence(v: &Value) -> Result<Option<Sequence>, ParseError> {
    let number = v
        .get("number")
        .and_then(Value::as_u64)
        .ok_or_else(|| ParseError::new("the OEIS: a result without `number`".to_string()))?;
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let data = v
        .get("data")
        .and_then(Value::as_str)
        .ok_or_else(|| ParseError::new(format!("the OEIS: A{number:06} without `data`")))?;
    let terms = data
        .split(',')
        .map(|t| {
            t.trim().parse::<i128>().map_err(|_| {
                ParseError::new(format!(
                    "the OEIS: A{number:06} has a term `{t}` that is not a number"
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let Ok(terms) = terms
        .into_iter()
        .map(u64::try_from)
        .collect::<Result<Vec<u64>, _>>()
    else {
        return Ok(None);
    };
    let offset = v
        .get("offset")
        .and_then(Value::as_str)
        .and_then(|o| o.split(',').next())
        .and_then(|o| o.trim().parse().ok())
        .unwrap_or(0);
    Ok(Some(Sequence {
        a_number: format!("A{number:06}"),
        name,
        terms,
        offset,
    }))
}
