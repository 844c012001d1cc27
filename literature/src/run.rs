//! One literature run: discovery on every source, the gate, numbering, LITERATURE.md.

use crate::cache::Cache;
use crate::client::{Client, Config, FetchError, Source};
use crate::gate::{self, Verdict};
use crate::paper::{dedup, Paper};
use crate::query::{self, Subject};
use crate::sources::{arxiv, oeis, s2, zbmath, ParseError};
use crate::store::{HistoryRow, OeisMatch, Reference, Status, Store};
use birkhoff_library::cycle::LiteratureNote;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How one source fared in a run.
#[derive(Clone, Debug, Serialize)]
pub struct SourceReport {
    /// The source.
    pub source: Source,
    /// Queries asked.
    pub queries: usize,
    /// Results returned by them (before deduplication).
    pub results: usize,
    /// Answers that came from the cache.
    pub from_cache: usize,
    /// What went wrong, one line per failed query.
    pub errors: Vec<String>,
    /// Spectra answered from the offline sequences (catalogue/oeis.tsv and those the OEIS named
    /// in earlier runs), and so not asked.
    #[serde(default)]
    pub offline: usize,
    /// Whether the source used up its deadline for the run, could not be reached or answered 5xx
    /// (its other queries were skipped, and the gate did not ask it either).
    pub down: bool,
}

impl SourceReport {
    /// The progress line: "arXiv: 4 queries, 23 results (2 from the cache)" or what failed.
    pub fn line(&self) -> String {
        let mut s = format!(
            "{}: {} quer{}, {} result{}",
            self.source.label(),
            self.queries,
            if self.queries == 1 { "y" } else { "ies" },
            self.results,
            if self.results == 1 { "" } else { "s" }
        );
        if self.from_cache > 0 {
            s.push_str(&format!(" ({} from the cache)", self.from_cache));
        }
        if self.offline > 0 {
            s.push_str(&format!(
                "; {} answered from the offline sequences (catalogue/oeis.tsv), not asked",
                self.offline
            ));
        }
        if self.down {
            s.push_str("; DOWN, its other queries skipped");
        }
        if !self.errors.is_empty() {
            s.push_str(&format!(
                "; {} failed: {}",
                self.errors.len(),
                self.errors.join("; ")
            ));
        }
        s
    }
}

/// What a run found.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The subject's key.
    pub subject: String,
    /// Its LITERATURE.md.
    pub literature_md: PathBuf,
    /// Per source.
    pub sources: Vec<SourceReport>,
    /// The subject's confirmed references (all runs).
    pub confirmed: Vec<Reference>,
    /// Its unconfirmed references (all runs).
    pub unconfirmed: Vec<Reference>,
    /// Numbers given or reused in this run.
    pub this_run: Vec<String>,
    /// OEIS sequences its spectra match (all runs).
    pub oeis: Vec<OeisMatch>,
    /// Spectra searched in the OEIS without a match.
    pub oeis_misses: Vec<Vec<u64>>,
    /// Whether any source answered at all (from the network or the cache).
    pub searched: bool,
}

impl Outcome {
    /// Whether a confirmed reference or an OEIS match says the subject is known.
    pub fn known(&self) -> bool {
        !self.confirmed.is_empty() || !self.oeis.is_empty()
    }
}

/// The note a cycle report keeps of a run: its confirmed references and OEIS matches only.
impl From<&Outcome> for LiteratureNote {
    fn from(out: &Outcome) -> LiteratureNote {
        let references: Vec<String> = out
            .confirmed
            .iter()
            .map(|r| {
                format!(
                    "{} {} ({})",
                    r.number,
                    r.paper.title,
                    r.paper.year.map_or("n.d.".into(), |y| y.to_string())
                )
            })
            .collect();
        let oeis: Vec<String> = out
            .oeis
            .iter()
            .map(|m| format!("{} {}", m.sequence.a_number, m.sequence.name))
            .collect();
        let status = if !out.searched {
            "not searched (no source answered)".to_string()
        } else if references.is_empty() && oeis.is_empty() {
            "not found in the literature".to_string()
        } else {
            "known".to_string()
        };
        LiteratureNote {
            searched: out.searched,
            status,
            references,
            unconfirmed: out.unconfirmed.len(),
            oeis,
        }
    }
}

/// Everything that stops a run before it searches.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The HTTP client could not be built, or the async runtime could not start.
    #[error("{0}")]
    Setup(String),
    /// The library's literature files could not be read or written.
    #[error("{0}")]
    Store(String),
}

/// The most candidates one run verifies (the protocol designs for 10-20 per search); the first
/// results of every query come first. Proposed references are always verified.
pub const MAX_CANDIDATES: usize = 20;

/// Searches the literature for `subject`, verifies what it finds, numbers the references in the
/// library at `library_root` and writes LITERATURE.md. `progress` gets one line per source.
pub fn search(
    library_root: &Path,
    subject: &Subject,
    config: Config,
    progress: &mut dyn FnMut(&str),
) -> Result<Outcome, Error> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Setup(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(search_async(library_root, subject, config, progress))
}

/// [`search`] inside a running tokio runtime.
pub async fn search_async(
    library_root: &Path,
    subject: &Subject,
    config: Config,
    progress: &mut dyn FnMut(&str),
) -> Result<Outcome, Error> {
    let max = config.max_results;
    let mut client =
        Client::new(config, Some(Cache::in_library(library_root))).map_err(Error::Setup)?;
    let groups = query::groups(subject, max);
    let mut rows: Vec<HistoryRow> = groups
        .iter()
        .map(|g| HistoryRow {
            date: birkhoff_library::time::now(),
            summary: g.summary.clone(),
            results: BTreeMap::new(),
            new_confirmed: 0,
        })
        .collect();
    // (group index, rank in its answer, paper): the candidates in discovery order.
    let mut found: Vec<(usize, usize, Paper)> = Vec::new();
    let mut oeis_found: Vec<OeisMatch> = Vec::new();
    let mut oeis_misses: Vec<Vec<u64>> = Vec::new();
    let mut reports = Vec::new();
    // Spectra are answered from the offline sequences first (catalogue/oeis.tsv and those the
    // OEIS named in earlier runs): a group they answer is not asked of the OEIS.
    let offline = Store::new(library_root).offline_sequences();
    let mut answered_offline: Vec<usize> = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        let Some((which, terms)) = &g.oeis_terms else {
            continue;
        };
        let hits = offline_matches(&offline, which, terms);
        if !hits.is_empty() {
            rows[gi].results.insert(
                Source::Oeis.key().to_string(),
                format!("{} (offline file, not asked)", hits.len()),
            );
            oeis_found.extend(hits);
            answered_offline.push(gi);
        }
    }
    for source in Source::ALL {
        let offline_here = if source == Source::Oeis {
            answered_offline.len()
        } else {
            0
        };
        let mut rep = SourceReport {
            source,
            queries: 0,
            results: 0,
            from_cache: 0,
            errors: Vec::new(),
            offline: offline_here,
            down: false,
        };
        let wanted: Vec<(usize, &String)> = groups
            .iter()
            .enumerate()
            .filter(|(gi, _)| !answered_offline.contains(gi))
            .flat_map(|(gi, g)| {
                g.requests
                    .iter()
                    .filter(|(s, _)| *s == source)
                    .map(move |(_, p)| (gi, p))
            })
            .collect();
        if wanted.is_empty() && offline_here == 0 {
            continue;
        }
        if !client.config().source(source).enabled {
            for (gi, _) in &wanted {
                rows[*gi]
                    .results
                    .insert(source.key().to_string(), "switched off".to_string());
            }
            if offline_here > 0 {
                progress(&rep.line());
                reports.push(rep);
            }
            continue;
        }
        for (gi, path) in wanted {
            if rep.down {
                rows[gi]
                    .results
                    .insert(source.key().to_string(), "skipped: source down".to_string());
                continue;
            }
            rep.queries += 1;
            let cell = match client.get(source, path).await {
                Err(e) => {
                    rep.down = e.takes_source_down();
                    rep.errors.push(e.to_string());
                    describe(&e)
                }
                Ok(resp) => {
                    let parsed: Result<Parsed, ParseError> = if resp.status == 404 {
                        // zbMATH answers a search without hits with 404 and an empty result.
                        Ok(Parsed::Papers(Vec::new()))
                    } else {
                        match source {
                            Source::Arxiv => arxiv::parse(&resp.body).map(Parsed::Papers),
                            Source::SemanticScholar => {
                                s2::parse_search(&resp.body).map(Parsed::Papers)
                            }
                            Source::Zbmath => zbmath::parse_search(&resp.body).map(Parsed::Papers),
                            Source::Oeis => oeis::parse(&resp.body).map(Parsed::Sequences),
                        }
                    };
                    match parsed {
                        Err(e) => {
                            rep.errors
                                .push(format!("malformed response from {}: {e}", resp.url));
                            "malformed response".to_string()
                        }
                        Ok(p) => {
                            client.remember(&resp);
                            if resp.from_cache {
                                rep.from_cache += 1;
                            }
                            let n = match p {
                                Parsed::Papers(papers) => {
                                    let n = papers.len();
                                    found.extend(
                                        papers
                                            .into_iter()
                                            .enumerate()
                                            .map(|(rank, p)| (gi, rank, p)),
                                    );
                                    n
                                }
                                Parsed::Sequences(seqs) => {
                                    let n = seqs.len();
                                    if let Some((which, terms)) = &groups[gi].oeis_terms {
                                        let hits: Vec<OeisMatch> = seqs
                                            .into_iter()
                                            .filter_map(|s| {
                                                s.position_of(terms).map(|position| OeisMatch {
                                                    sequence: s,
                                                    spectrum: which.clone(),
                                                    terms: terms.clone(),
                                                    position,
                                                })
                                            })
                                            .collect();
                                        if hits.is_empty() {
                                            oeis_misses.push(terms.clone());
                                        }
                                        oeis_found.extend(hits);
                                    }
                                    n
                                }
                            };
                            rep.results += n;
                            if resp.from_cache {
                                format!("{n} (cached)")
                            } else {
                                n.to_string()
                            }
                        }
                    }
                }
            };
            rows[gi].results.insert(source.key().to_string(), cell);
        }
        progress(&rep.line());
        reports.push(rep);
    }

    // Candidates: the first results of every query first, deduplicated across sources, capped;
    // then everything proposed.
    found.sort_by_key(|(gi, rank, _)| (*rank, *gi));
    let mut origin_group: Vec<(Paper, String, Option<usize>)> = Vec::new();
    for p in dedup(found.iter().map(|(_, _, p)| p.clone()).collect()) {
        let gi = found
            .iter()
            .find(|(_, _, q)| q.same_as(&p) || q.ids == p.ids)
            .map(|(gi, _, _)| *gi);
        let by = gi.map_or_else(String::new, |g| groups[g].summary.clone());
        origin_group.push((p, by, gi));
    }
    origin_group.truncate(MAX_CANDIDATES);
    for p in &subject.proposed {
        let by = format!(
            "proposed ({})",
            p.origins
                .iter()
                .map(|o| o.label())
                .collect::<Vec<_>>()
                .join(", ")
        );
        origin_group.push((p.clone(), by, None));
    }
    if !subject.proposed.is_empty() {
        rows.push(HistoryRow {
            date: birkhoff_library::time::now(),
            summary: format!(
                "{} proposed reference(s), looked up by identifier",
                subject.proposed.len()
            ),
            results: BTreeMap::new(),
            new_confirmed: 0,
        });
    }
    let candidates: Vec<Paper> = origin_group.iter().map(|(p, _, _)| p.clone()).collect();
    let verdicts = gate::verify(&mut client, &candidates).await;
    progress(&format!(
        "verified: {} of {} candidates confirmed by a lookup by identifier",
        verdicts
            .iter()
            .filter(|v| matches!(v, Verdict::Confirmed { .. }))
            .count(),
        verdicts.len()
    ));

    let searched = reports
        .iter()
        .any(|r| r.results > 0 || r.offline > 0 || r.errors.len() < r.queries);
    let store = Store::new(library_root);
    let key = subject.key.clone();
    let proposed_row = (!subject.proposed.is_empty()).then(|| rows.len() - 1);
    let (state, this_run) = store
        .update(|state| {
            let mut numbers = Vec::new();
            for ((paper, by, gi), verdict) in origin_group.into_iter().zip(verdicts) {
                let (paper, status) = match verdict {
                    Verdict::Confirmed {
                        found,
                        verified,
                        endpoint,
                    } => (*found, Status::Confirmed { verified, endpoint }),
                    Verdict::Unconfirmed { reason } => (paper, Status::Unconfirmed { reason }),
                };
                let confirmed = matches!(status, Status::Confirmed { .. });
                let n = state.number(paper, status, &by);
                if state.attach(&key, &n) && confirmed {
                    if let Some(row) = gi.or(proposed_row).and_then(|g| rows.get_mut(g)) {
                        row.new_confirmed += 1;
                    }
                }
                numbers.push(n);
            }
            let subj = state.subjects.entry(key.clone()).or_default();
            subj.title.clone_from(&subject.title);
            subj.history.extend(rows);
            for m in &oeis_found {
                if !subj
                    .oeis
                    .iter()
                    .any(|o| o.sequence.a_number == m.sequence.a_number && o.spectrum == m.spectrum)
                {
                    subj.oeis.push(m.clone());
                }
            }
            for miss in &oeis_misses {
                if !subj.oeis_misses.contains(miss) && !subj.oeis.iter().any(|o| &o.terms == miss) {
                    subj.oeis_misses.push(miss.clone());
                }
            }
            for r in &reports {
                if !subj.sources_queried.iter().any(|k| k == r.source.key()) {
                    subj.sources_queried.push(r.source.key().to_string());
                }
            }
            subj.last_search = birkhoff_library::time::now();
            numbers
        })
        .map_err(Error::Store)?;
    let md = crate::synth::render(&state, &key);
    let literature_md = store.write_literature_md(&key, &md).map_err(Error::Store)?;
    store.extend_oeis(&oeis_found).map_err(Error::Store)?;
    let subj = state.subjects.get(&key).cloned().unwrap_or_default();
    let refs = state.of_subject(&key);
    Ok(Outcome {
        subject: key.clone(),
        literature_md,
        sources: reports,
        confirmed: refs
            .iter()
            .filter(|r| r.is_confirmed())
            .map(|r| (*r).clone())
            .collect(),
        unconfirmed: refs
            .iter()
            .filter(|r| !r.is_confirmed())
            .map(|r| (*r).clone())
            .collect(),
        this_run,
        oeis: subj.oeis,
        oeis_misses: subj.oeis_misses,
        searched,
    })
}

/// The fewest terms of 2 or more with which the offline sequences answer a spectrum: a run of
/// 0s and 1s (1,0,1,0) fits many sequences of the file, so it is asked of the OEIS instead.
const MIN_OFFLINE_NONTRIVIAL: usize = 3;

/// The offline sequences that `terms` (counts of sizes 1, 2, ..., `which` is "iso" or
/// "labeled") match term for term at their own indices: the count of size n is the term a(n),
/// as the sequence's offset places it, and every term given is in the file. Iso counts are
/// compared with sequences of unlabeled structures, labeled counts with labeled ones.
fn offline_matches(
    sequences: &[birkhoff_checker::oeis::Sequence],
    which: &str,
    terms: &[u64],
) -> Vec<OeisMatch> {
    use birkhoff_checker::oeis::Counts;
    let counts = if which == "labeled" {
        Counts::Labeled
    } else {
        Counts::Unlabeled
    };
    sequences
        .iter()
        .filter(|_| terms.iter().filter(|&&t| t >= 2).count() >= MIN_OFFLINE_NONTRIVIAL)
        .filter(|s| s.counts == counts && s.offset <= 1)
        .filter(|s| {
            terms
                .iter()
                .enumerate()
                .all(|(i, &t)| s.term(i as i64 + 1) == Some(u128::from(t)))
        })
        .map(|s| OeisMatch {
            sequence: oeis::Sequence {
                a_number: s.id.clone(),
                name: s.name.clone(),
                terms: s
                    .terms
                    .iter()
                    .map_while(|&t| u64::try_from(t).ok())
                    .collect(),
                offset: s.offset,
            },
            spectrum: which.to_string(),
            terms: terms.to_vec(),
            position: usize::try_from(1 - s.offset).unwrap_or(0),
        })
        .collect()
}

enum Parsed {
    Papers(Vec<Paper>),
    Sequences(Vec<oeis::Sequence>),
}

/// The search-history cell for a failed query.
fn describe(e: &FetchError) -> String {
    match e {
        FetchError::RateLimited { .. } => "skipped: rate limited (HTTP 429 twice)".to_string(),
        FetchError::Timeout { .. } => "skipped: timed out".to_string(),
        FetchError::Unreachable { .. } => "skipped: source unreachable".to_string(),
        FetchError::Down { .. } => "skipped: source down".to_string(),
        FetchError::Redirect { .. } => "skipped: redirect refused".to_string(),
        FetchError::TooLarge { .. } => "skipped: answer too large".to_string(),
        FetchError::Status { status, .. } => format!("skipped: HTTP {status}"),
        FetchError::NotCached { .. } => "not searched: offline, not cached".to_string(),
    }
}

/// The references a report may cite for a subject: confirmed ones only, read from the library.
pub fn citable(library_root: &Path, key: &str) -> Result<Vec<Reference>, Error> {
    let state = Store::new(library_root).load().map_err(Error::Store)?;
    Ok(state.citable(key).into_iter().cloned().collect())
}
