//! The verification gate: the only way a reference becomes confirmed.
//!
//! A candidate (found by a search, proposed by a language model, written in a catalogue entry)
//! is looked up **by identifier**: arXiv `id_list` (one call for all arXiv identifiers), zbMATH
//! Open's document id, Semantic Scholar by paperId, `DOI:` or `ARXIV:` (the batch endpoint from
//! [`Config::s2_batch_from`](crate::Config::s2_batch_from) lookups on). The record the source
//! returns must have the same title after normalization, an author's last name in common and a
//! year within one ([`Paper::mismatch`]). Then, and only then, the candidate is
//! [`Verdict::Confirmed`], with the time and the URL of the lookup. A candidate without an
//! identifier, not found, with different metadata, or whose lookups all failed is
//! [`Verdict::Unconfirmed`] with the reason. The first lookup that answers (found or not found)
//! decides; a lookup that fails (timeout, 429 twice, source down, malformed answer) passes the
//! candidate to its next identifier.

use crate::client::{Client, FetchError, Response, Source};
use crate::paper::Paper;
use crate::sources::{arxiv, s2, zbmath, ParseError};

/// The gate's answer for one candidate reference: whether the paper exists as cited (not a
/// prover's answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The lookup by identifier returned this record, and it matches.
    Confirmed {
        /// The record as the source returned it, with the candidate's other identifiers (boxed:
        /// a paper is some ten times the size of the other variant).
        found: Box<Paper>,
        /// When the answer was fetched.
        verified: u64,
        /// The lookup's URL.
        endpoint: String,
    },
    /// Not verified.
    Unconfirmed {
        /// Why.
        reason: String,
    },
}

/// A lookup that failed (as opposed to one that answered "not found").
fn failure(source: Source, e: &dyn std::fmt::Display) -> String {
    format!("{}: {e}", source.label())
}

/// What one lookup said about a candidate (the paper boxed, as in [`Verdict::Confirmed`]).
enum Answer {
    Found(Box<Paper>, u64, String),
    NotFound(String),
    Failed(String),
}

/// Runs every candidate through the gate, in order.
pub async fn verify(client: &mut Client, candidates: &[Paper]) -> Vec<Verdict> {
    let mut decided: Vec<Option<Verdict>> = vec![None; candidates.len()];
    let mut failures: Vec<Vec<String>> = vec![Vec::new(); candidates.len()];
    let mut record = |i: usize, answer: Answer, decided: &mut Vec<Option<Verdict>>| match answer {
        Answer::Found(found, verified, endpoint) => {
            decided[i] = Some(match candidates[i].mismatch(&found) {
                None => {
                    let mut f = found;
                    f.absorb(&candidates[i]);
                    Verdict::Confirmed {
                        found: f,
                        verified,
                        endpoint,
                    }
                }
                Some(why) => Verdict::Unconfirmed {
                    reason: format!("metadata differs at {endpoint}: {why}"),
                },
            });
        }
        Answer::NotFound(reason) => decided[i] = Some(Verdict::Unconfirmed { reason }),
        Answer::Failed(reason) => failures[i].push(reason),
    };

    // arXiv: one id_list call for every candidate with an arXiv identifier.
    let with_arxiv: Vec<usize> = (0..candidates.len())
        .filter(|&i| candidates[i].ids.arxiv.is_some())
        .collect();
    if !with_arxiv.is_empty() && client.config().source(Source::Arxiv).enabled {
        let ids: Vec<String> = with_arxiv
            .iter()
            .filter_map(|&i| candidates[i].ids.arxiv.clone())
            .collect();
        let path = arxiv::id_list_path(&ids);
        match fetch_parse(client, Source::Arxiv, &path, arxiv::parse).await {
            Ok((resp, papers)) => {
                for &i in &with_arxiv {
                    let id = candidates[i].ids.arxiv.as_deref().unwrap_or_default();
                    let answer = match papers.iter().find(|p| p.ids.arxiv.as_deref() == Some(id)) {
                        Some(p) => {
                            Answer::Found(Box::new(p.clone()), resp.fetched, resp.url.clone())
                        }
                        None => Answer::NotFound(format!(
                            "arXiv API returned no entry for id {id} ({})",
                            resp.url
                        )),
                    };
                    record(i, answer, &mut decided);
                }
            }
            Err(why) => with_arxiv
                .iter()
                .for_each(|&i| record(i, Answer::Failed(why.clone()), &mut decided)),
        }
    }

    // zbMATH Open: one lookup per document id.
    if client.config().source(Source::Zbmath).enabled {
        for i in 0..candidates.len() {
            let Some(id) = candidates[i].ids.zbmath.clone() else {
                continue;
            };
            if decided[i].is_some() {
                continue;
            }
            let answer = lookup(
                client,
                Source::Zbmath,
                &zbmath::lookup_path(&id),
                zbmath::parse_document,
                &format!("zbMATH Open has no document {id}"),
            )
            .await;
            record(i, answer, &mut decided);
        }
    }

    // Semantic Scholar: by paperId, DOI or arXiv id; the batch endpoint for many.
    let s2_ids: Vec<(usize, String)> = (0..candidates.len())
        .filter(|&i| decided[i].is_none())
        .filter_map(|i| {
            let ids = &candidates[i].ids;
            let id = ids
                .s2
                .clone()
                .or_else(|| ids.doi.as_ref().map(|d| format!("DOI:{d}")))
                .or_else(|| ids.arxiv.as_ref().map(|a| format!("ARXIV:{a}")));
            id.map(|id| (i, id))
        })
        .collect();
    if !s2_ids.is_empty() && client.config().source(Source::SemanticScholar).enabled {
        if s2_ids.len() >= client.config().s2_batch_from {
            let ids: Vec<String> = s2_ids.iter().map(|(_, id)| id.clone()).collect();
            let path = s2::batch_path();
            let parsed = match fetch(
                client,
                Source::SemanticScholar,
                &path,
                Some(s2::batch_body(&ids)),
            )
            .await
            {
                Ok(resp) => match s2::parse_batch(&resp.body, ids.len()) {
                    Ok(found) => {
                        client.remember(&resp);
                        Ok((resp, found))
                    }
                    Err(e) => Err(failure(Source::SemanticScholar, &e)),
                },
                Err(e) => Err(e),
            };
            match parsed {
                Ok((resp, found)) => {
                    for ((i, id), f) in s2_ids.iter().zip(found) {
                        let answer = match f {
                            Some(p) => {
                                let endpoint = format!("{} (ids: {id})", resp.url);
                                Answer::Found(Box::new(p), resp.fetched, endpoint)
                            }
                            None => Answer::NotFound(format!(
                                "Semantic Scholar has no paper {id} ({})",
                                resp.url
                            )),
                        };
                        record(*i, answer, &mut decided);
                    }
                }
                Err(why) => s2_ids
                    .iter()
                    .for_each(|(i, _)| record(*i, Answer::Failed(why.clone()), &mut decided)),
            }
        } else {
            for (i, id) in &s2_ids {
                let answer = lookup(
                    client,
                    Source::SemanticScholar,
                    &s2::lookup_path(id),
                    s2::parse_paper,
                    &format!("Semantic Scholar has no paper {id}"),
                )
                .await;
                record(*i, answer, &mut decided);
            }
        }
    }

    decided
        .into_iter()
        .zip(failures)
        .zip(candidates)
        .map(|((d, fails), c)| {
            d.unwrap_or_else(|| {
                let reason = if c.ids.is_empty() {
                    "no identifier (arXiv id, DOI, zbMATH document id or Semantic Scholar paperId) to look it up by".to_string()
                } else if fails.is_empty() {
                    "every source that could look it up is switched off -- verification pending".to_string()
                } else {
                    format!("API error -- verification pending ({})", fails.join("; "))
                };
                Verdict::Unconfirmed { reason }
            })
        })
        .collect()
}

/// One lookup by identifier: 404 is "not found" (`missing` says what), a parsed record is found.
async fn lookup(
    client: &mut Client,
    source: Source,
    path: &str,
    parse: fn(&str) -> Result<Paper, ParseError>,
    missing: &str,
) -> Answer {
    match fetch(client, source, path, None).await {
        Ok(resp) if resp.status == 404 => {
            client.remember(&resp);
            Answer::NotFound(format!("{missing} ({})", resp.url))
        }
        Ok(resp) => match parse(&resp.body) {
            Ok(p) => {
                client.remember(&resp);
                Answer::Found(Box::new(p), resp.fetched, resp.url.clone())
            }
            Err(e) => Answer::Failed(failure(source, &e)),
        },
        Err(e) => Answer::Failed(e),
    }
}

/// A request whose failure is told as text naming the source.
async fn fetch(
    client: &mut Client,
    source: Source,
    path: &str,
    body: Option<String>,
) -> Result<Response, String> {
    let r = match body {
        Some(b) => client.post_json(source, path, b).await,
        None => client.get(source, path).await,
    };
    r.map_err(|e: FetchError| failure(source, &e))
}

/// A request and its parse; the answer is cached only when it parses.
pub(crate) async fn fetch_parse<T>(
    client: &mut Client,
    source: Source,
    path: &str,
    parse: impl Fn(&str) -> Result<T, ParseError>,
) -> Result<(Response, T), String> {
    let resp = fetch(client, source, path, None).await?;
    if resp.status == 404 {
        return Err(failure(source, &format!("HTTP 404: {}", resp.url)));
    }
    match parse(&resp.body) {
        Ok(v) => {
            client.remember(&resp);
            Ok((resp, v))
        }
        Err(e) => Err(failure(
            source,
            &format!("malformed response from {}: {e}", resp.url),
        )),
    }
}
