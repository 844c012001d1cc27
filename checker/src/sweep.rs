//! Batch spectrum sweeps: many theories times many sizes, one result file per job, written
//! atomically so that a sweep can be killed at any moment and resumed, and split into shards.
//! A job is a whole count or one piece of a count split with [`finder::enumerate_piece`]; the
//! plan file records every job of every shard, so that [`merge`] can say which are missing.

use crate::atomic_file::{self, TEMP_PREFIX};
use crate::budget::{Budget, Count, Status};
use crate::finder::{self, FinderError, LabeledSum, Piece};
use crate::router::Engine;
use crate::spectrum::{sizes_label, TimedRow};
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One (theory, sizes) pair to compute, or one piece of it.
#[derive(Clone, Debug)]
pub struct Job {
    /// The theory.
    pub theory: Theory,
    /// Its fingerprint, part of the result's file name so that an edited theory is recomputed.
    pub fingerprint: String,
    /// Sort sizes.
    pub sizes: Vec<u32>,
    /// The piece of the enumeration this job counts; `None` for the whole count.
    pub piece: Option<Piece>,
}

impl Job {
    /// The result's file name: `NAME__SIZES__FINGERPRINT.json`, or for a piece
    /// `NAME__SIZES__FINGERPRINT__piece-K-of-P.json`.
    pub fn file_name(&self) -> String {
        let safe: String = self
            .theory
            .name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let piece = self.piece.map_or(String::new(), |p| {
            format!("__piece-{}-of-{}", p.index, p.count)
        });
        format!(
            "{safe}__{}__{}{piece}.json",
            sizes_label(&self.sizes),
            self.fingerprint
        )
    }

    /// Computes the job: the whole count with `engine`, or the piece's count with the native
    /// finder (the only engine that splits a count; the caller refuses the others); and which
    /// engine answered and why.
    pub fn run(
        &self,
        engine: Engine,
        budget: &Budget,
    ) -> Result<(TimedRow, crate::router::Choice), FinderError> {
        match self.piece {
            None => crate::spectrum::row_by(engine, &self.theory, &self.sizes, budget),
            Some(piece) => {
                finder::enumerate_piece(&self.theory, &self.sizes, budget, piece).map(|e| {
                    let choice = crate::router::Choice {
                        engine: Engine::Native,
                        reason: "a piece of a split count: only the native finder splits one"
                            .into(),
                    };
                    (TimedRow::of(&e), choice)
                })
            }
        }
    }

    /// What the job says in messages: `NAME at size N`, with `, piece K of P` for a piece.
    pub fn label(&self) -> String {
        let piece = self.piece.map_or(String::new(), |p| {
            format!(", piece {} of {}", p.index, p.count)
        });
        format!(
            "{} at size {}{piece}",
            self.theory.name,
            sizes_label(&self.sizes)
        )
    }
}

/// Whether `engine` can compute the pieces of a split count (only the native finder splits one;
/// `auto` means native for them).
pub fn splits(engine: Engine) -> bool {
    matches!(engine, Engine::Native | Engine::Auto)
}

/// What a sweep writes for each job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The theory's name.
    pub theory: String,
    /// The theory's fingerprint.
    pub fingerprint: String,
    /// The piece of the enumeration counted here (absent for a whole count, and in a merged
    /// table, where the pieces are summed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<Piece>,
    /// The spectrum row.
    #[serde(flatten)]
    pub row: TimedRow,
    /// Which engine counted it (absent in results written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Engine>,
    /// Why that engine's count ([`crate::router::Choice::reason`]), as `spectrum --json` says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_reason: Option<String>,
}

/// A shard `K/N`: this machine runs jobs whose index is `K-1` modulo `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not of the form K/N (for example 2/4)"))?;
        let (index, count): (usize, usize) = (
            k.trim()
                .parse()
                .map_err(|_| format!("`{k}` is not a number"))?,
            n.trim()
                .parse()
                .map_err(|_| format!("`{n}` is not a number"))?,
        );
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {s}: K must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether job number `i` (0-based, in the deterministic job list) is this shard's.
    pub fn owns(self, i: usize) -> bool {
        i % self.count == self.index - 1
    }
}

/// Every job for `theories` at `sizes`, in a deterministic order (by theory name, then sizes,
/// then piece); with `pieces`, every count is split into that many pieces, each a job.
pub fn plan(
    theories: &[Theory],
    sizes: &dyn Fn(&Theory) -> Vec<Vec<u32>>,
    pieces: Option<usize>,
) -> Vec<Job> {
    let mut jobs: Vec<Job> = theories
        .iter()
        .flat_map(|t| {
            let fp = t.fingerprint().to_string();
            sizes(t).into_iter().map(move |s| Job {
                theory: t.clone(),
                fingerprint: fp.clone(),
                sizes: s,
                piece: None,
            })
        })
        .collect();
    jobs.sort_by(|a, b| {
        (
            &a.theory.name,
            &a.fingerprint,
            a.sizes.iter().sum::<u32>(),
            &a.sizes,
        )
            .cmp(&(
                &b.theory.name,
                &b.fingerprint,
                b.sizes.iter().sum::<u32>(),
                &b.sizes,
            ))
    });
    match pieces {
        Some(count) => jobs
            .into_iter()
            .flat_map(|j| {
                (1..=count).map(move |index| Job {
                    piece: Some(Piece { index, count }),
                    ..j.clone()
                })
            })
            .collect(),
        None => jobs,
    }
}

/// The name of the plan file a sweep writes in its output directory.
pub const PLAN_FILE: &str = "sweep-plan.json";

/// What a sweep is to produce, over all its shards: job `i` of `jobs` (a result file name) is
/// shard `i % shards + 1`'s. Every shard writes the same plan, so any output directory says
/// what the whole sweep needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// Number of shards.
    pub shards: usize,
    /// Every job's result file name, in job order.
    pub jobs: Vec<String>,
}

impl Plan {
    /// The plan of `jobs` (the whole list) split into `shards`.
    pub fn new(jobs: &[Job], shards: usize) -> Plan {
        Plan {
            shards,
            jobs: jobs.iter().map(Job::file_name).collect(),
        }
    }

    /// Writes the plan into `dir`, atomically.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        atomic_file::write(
            &dir.join(PLAN_FILE),
            &serde_json::to_vec_pretty(self).expect("plans serialize"),
        )
    }

    /// The plan in `dir`, `None` when there is none (a sweep from before plans were written).
    pub fn read(dir: &Path) -> Result<Option<Plan>, String> {
        let path = dir.join(PLAN_FILE);
        match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {e}", path.display())),
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{}: not a sweep plan: {e}", path.display())),
        }
    }
}

/// Removes the temporary files that a killed sweep left behind in `dir` for the results named
/// `names` (this shard's): other shards may be writing theirs into the same directory.
pub fn clean_partial(dir: &Path, names: &BTreeSet<String>) -> std::io::Result<usize> {
    let mut n = 0;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(TEMP_PREFIX) else {
            continue;
        };
        // `PID-NANOS.COUNTER-NAME` (`atomic_file`), or `PID-NAME` from before the writer's
        // nanoseconds were added.
        let mut parts = rest.splitn(3, '-');
        let (_, second, third) = (parts.next(), parts.next(), parts.next());
        if second.is_some_and(|s| names.contains(s)) || third.is_some_and(|t| names.contains(t)) {
            std::fs::remove_file(e.path())?;
            n += 1;
        }
    }
    Ok(n)
}

/// Whether the job's result is already in `dir` (and readable).
pub fn done(dir: &Path, job: &Job) -> bool {
    read_result(&dir.join(job.file_name())).is_ok()
}

/// Reads one result file.
pub fn read_result(path: &Path) -> Result<JobResult, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a sweep result: {e}", path.display()))
}

/// A merged sweep: the table and what keeps it from being whole.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// One row per theory and sizes, the pieces of a split count summed, ordered by theory,
    /// fingerprint and sizes. A row with pieces missing or cut short is a lower bound.
    pub rows: Vec<JobResult>,
    /// Planned results that are missing or only lower bounds, one line per shard; empty when
    /// the sweep is whole.
    pub missing: Vec<String>,
    /// Remarks that change nothing in the table (a lower bound superseded by an exact count).
    pub notes: Vec<String>,
}

/// Result identity: theory, fingerprint, total size, sizes, piece.
type Key = (String, String, u32, Vec<u32>, Option<Piece>);

fn key_of(r: &JobResult) -> Key {
    (
        r.theory.clone(),
        r.fingerprint.clone(),
        r.row.counts.sizes.iter().sum(),
        r.row.counts.sizes.clone(),
        r.piece,
    )
}

/// Every result file in these directories, the pieces of each split count summed, checked
/// against the plans the directories hold (every shard writes the whole sweep's plan): each
/// planned result must be present and exact, else [`Merged::missing`] says which shards lack
/// what. Results for the same job found in several directories must agree; a disagreement
/// between exact counts, or an exact count below a lower bound, is an error.
pub fn merge(dirs: &[PathBuf]) -> Result<Merged, String> {
    let mut merged = Merged::default();
    let mut plans: Vec<Plan> = Vec::new();
    let mut found: BTreeMap<Key, (JobResult, PathBuf)> = BTreeMap::new();
    let mut files: BTreeSet<String> = BTreeSet::new();
    for dir in dirs {
        match Plan::read(dir)? {
            Some(plan) if !plans.contains(&plan) => plans.push(plan),
            Some(_) => {}
            None => merged.notes.push(format!(
                "{} has no {PLAN_FILE}: which of its sweep's results are missing cannot be told",
                dir.display()
            )),
        }
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.starts_with(TEMP_PREFIX) || !name.ends_with(".json") || name == PLAN_FILE {
                continue;
            }
            let r = read_result(&path)?;
            let key = key_of(&r);
            if let Some((prev, prev_path)) = found.get(&key) {
                let (exact, bound) = match (
                    prev.row.counts.iso.status == Status::Exact,
                    r.row.counts.iso.status == Status::Exact,
                ) {
                    (true, false) => (prev, r.row.counts.iso),
                    (false, true) => (&r, prev.row.counts.iso),
                    _ if (prev.row.counts.iso, prev.row.counts.labeled)
                        != (r.row.counts.iso, r.row.counts.labeled)
                        && prev.row.counts.iso.status == Status::Exact =>
                    {
                        return Err(format!(
                            "{}: {} disagrees with {} ({} vs {})",
                            path.display(),
                            label(&r),
                            prev_path.display(),
                            r.row.counts.iso,
                            prev.row.counts.iso
                        ));
                    }
                    // Two lower bounds, or the same exact count twice: keep the larger.
                    _ if r.row.counts.iso.value > prev.row.counts.iso.value => {
                        (&r, prev.row.counts.iso)
                    }
                    _ => continue,
                };
                if exact.row.counts.iso.status == Status::Exact
                    && exact.row.counts.iso.value < bound.value
                {
                    return Err(format!(
                        "{}: {} is exactly {}, but {} says at least {}",
                        path.display(),
                        label(exact),
                        exact.row.counts.iso,
                        prev_path.display(),
                        bound.value
                    ));
                }
                if exact.row.counts.iso.status == Status::Exact {
                    merged.notes.push(format!(
                        "{}: the lower bound {bound} is superseded by the exact count {}",
                        label(exact),
                        exact.row.counts.iso
                    ));
                }
                if std::ptr::eq(exact, prev) {
                    continue;
                }
            }
            files.insert(name);
            found.insert(key, (r, path));
        }
    }
    for plan in &plans {
        merged.missing.extend(plan_gaps(plan, &files, &found));
    }
    merged.rows = sum_pieces(found.into_values().map(|(r, _)| r));
    Ok(merged)
}

/// What a result is, in messages: `NAME at size N`, with the piece.
fn label(r: &JobResult) -> String {
    let piece = r.piece.map_or(String::new(), |p| {
        format!(", piece {} of {}", p.index, p.count)
    });
    format!(
        "{} at size {}{piece}",
        r.theory,
        sizes_label(&r.row.counts.sizes)
    )
}

/// One line per shard of `plan` that lacks results or holds lower bounds; runs of shards with
/// no result at all are named together ("shards 2-4 of 4: no results").
fn plan_gaps(
    plan: &Plan,
    files: &BTreeSet<String>,
    found: &BTreeMap<Key, (JobResult, PathBuf)>,
) -> Vec<String> {
    let inexact: BTreeSet<String> = found
        .values()
        .filter(|(r, _)| r.row.counts.iso.status != Status::Exact)
        .filter_map(|(_, p)| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    let n = plan.shards.max(1);
    let mut lines = Vec::new();
    let mut empty_run: Option<(usize, usize)> = None;
    let flush = |run: &mut Option<(usize, usize)>, lines: &mut Vec<String>| {
        if let Some((a, b)) = run.take() {
            let shards = if a == b {
                format!("shard {a}")
            } else {
                format!("shards {a}-{b}")
            };
            lines.push(format!("{shards} of {n}: no results (never started, or their output directories were not given)"));
        }
    };
    for shard in 1..=n {
        let mine: Vec<&String> = plan
            .jobs
            .iter()
            .enumerate()
            .filter(|(i, _)| i % n == shard - 1)
            .map(|(_, f)| f)
            .collect();
        let absent: Vec<&String> = mine
            .iter()
            .copied()
            .filter(|f| !files.contains(*f))
            .collect();
        let bounds: Vec<&String> = mine
            .iter()
            .copied()
            .filter(|f| inexact.contains(*f))
            .collect();
        if !mine.is_empty() && absent.len() == mine.len() {
            empty_run = Some(empty_run.map_or((shard, shard), |(a, _)| (a, shard)));
            continue;
        }
        flush(&mut empty_run, &mut lines);
        let names = |fs: &[&String]| {
            let shown: Vec<&str> = fs
                .iter()
                .take(3)
                .map(|f| f.trim_end_matches(".json"))
                .collect();
            format!(
                "{}{}",
                shown.join(", "),
                if fs.len() > 3 { ", ..." } else { "" }
            )
        };
        if !absent.is_empty() {
            lines.push(format!(
                "shard {shard} of {n}: {} of {} result(s) missing (unfinished: rerun it): {}",
                absent.len(),
                mine.len(),
                names(&absent)
            ));
        }
        if !bounds.is_empty() {
            lines.push(format!("shard {shard} of {n}: {} result(s) only lower bounds (cut short by a budget: rerun it with --retry-inexact): {}", bounds.len(), names(&bounds)));
        }
    }
    flush(&mut empty_run, &mut lines);
    lines
}

/// A count being summed: the sum so far, how many pieces it holds, whether all iso counts were
/// exact, and the labeled counts' sum (which can pass a u128: groups of order 36).
type PartialSum = (JobResult, usize, bool, LabeledSum);

/// One row per theory, fingerprint and sizes: whole counts as they are, the pieces of a split
/// count summed (exact only when every piece is there and exact). When both a whole count and a
/// split one are there, an exact one is kept.
fn sum_pieces(results: impl Iterator<Item = JobResult>) -> Vec<JobResult> {
    let mut groups: BTreeMap<(String, String, u32, Vec<u32>, usize), PartialSum> = BTreeMap::new();
    for r in results {
        let key = (
            r.theory.clone(),
            r.fingerprint.clone(),
            r.row.counts.sizes.iter().sum(),
            r.row.counts.sizes.clone(),
            r.piece.map_or(0, |p| p.count),
        );
        let iso_exact = r.row.counts.iso.status == Status::Exact;
        match groups.get_mut(&key) {
            None => {
                let labeled = LabeledSum::of(r.row.counts.labeled);
                groups.insert(key, (JobResult { piece: None, ..r }, 1, iso_exact, labeled));
            }
            Some((sum, pieces, all_iso_exact, labeled)) => {
                let row = &mut sum.row;
                row.counts.iso.value += r.row.counts.iso.value;
                labeled.join(LabeledSum::of(r.row.counts.labeled));
                row.seconds += r.row.seconds;
                row.nodes += r.row.nodes;
                row.timing.search += r.row.timing.search;
                row.timing.canon += r.row.timing.canon;
                row.timing.verify += r.row.timing.verify;
                *pieces += 1;
                *all_iso_exact &= iso_exact;
            }
        }
    }
    let mut rows: BTreeMap<(String, String, u32, Vec<u32>), JobResult> = BTreeMap::new();
    for ((theory, fp, total, sizes, count), (mut r, pieces, all_iso_exact, labeled)) in groups {
        if count > 0 {
            let whole = all_iso_exact && pieces == count;
            r.row.counts.iso = Count::from_search(r.row.counts.iso.value, whole);
            r.row.counts.labeled = labeled.count(whole);
        }
        let slot = rows
            .entry((theory, fp, total, sizes))
            .or_insert_with(|| r.clone());
        if slot.row.counts.iso.status != Status::Exact
            && (r.row.counts.iso.status == Status::Exact
                || r.row.counts.iso.value > slot.row.counts.iso.value)
        {
            *slot = r;
        }
    }
    rows.into_values().collect()
}

/// The merged table as TSV with a header line.
pub fn to_tsv(rows: &[JobResult]) -> String {
    let mut out = String::from(
        "theory\tfingerprint\tsizes\tiso\tiso_status\tlabeled\tlabeled_status\tseconds\n",
    );
    for r in rows {
        let st = |s: crate::budget::Status| {
            serde_json::to_value(s)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default()
        };
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\n",
            r.theory,
            r.fingerprint,
            sizes_label(&r.row.counts.sizes),
            r.row.counts.iso.value,
            st(r.row.counts.iso.status),
            r.row.counts.labeled.value,
            st(r.row.counts.labeled.status),
            r.row.seconds
        ));
    }
    out
}
