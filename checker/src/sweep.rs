//! Batch spectrum sweeps: many theories times many sizes, one result file per job, written
//! atomically so that a sweep can be killed at any moment and resumed, and split into shards.

use crate::spectrum::{sizes_label, SpectrumRow};
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One (theory, sizes) pair to compute.
#[derive(Clone, Debug)]
pub struct Job {
    /// The theory.
    pub theory: Theory,
    /// Its fingerprint, part of the result's file name so that an edited theory is recomputed.
    pub fingerprint: String,
    /// Sort sizes.
    pub sizes: Vec<u32>,
}

impl Job {
    /// The result's file name: `NAME__SIZES__FINGERPRINT.json`.
    pub fn file_name(&self) -> String {
        let safe: String = self.theory.name.chars().map(|c| if c.is_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
        format!("{safe}__{}__{}.json", sizes_label(&self.sizes), self.fingerprint)
    }
}

/// What a sweep writes for each job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The theory's name.
    pub theory: String,
    /// The theory's fingerprint.
    pub fingerprint: String,
    /// The spectrum row.
    #[serde(flatten)]
    pub row: SpectrumRow,
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
        let (k, n) = s.split_once('/').ok_or_else(|| format!("`{s}` is not of the form K/N (for example 2/4)"))?;
        let (index, count): (usize, usize) = (k.trim().parse().map_err(|_| format!("`{k}` is not a number"))?, n.trim().parse().map_err(|_| format!("`{n}` is not a number"))?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {s}: K must be between 1 and N"));
        }
        Ok(Shard { index, count })
    }
}

/// The jobs for `theories` at `sizes`, in a deterministic order (by theory name, then sizes),
/// restricted to one shard if given.
pub fn plan(theories: &[Theory], sizes: &dyn Fn(&Theory) -> Vec<Vec<u32>>, shard: Option<Shard>) -> Vec<Job> {
    let mut jobs: Vec<Job> = theories
        .iter()
        .flat_map(|t| {
            let fp = t.fingerprint().to_string();
            sizes(t).into_iter().map(move |s| Job { theory: t.clone(), fingerprint: fp.clone(), sizes: s })
        })
        .collect();
    jobs.sort_by(|a, b| (&a.theory.name, &a.fingerprint, a.sizes.iter().sum::<u32>(), &a.sizes).cmp(&(&b.theory.name, &b.fingerprint, b.sizes.iter().sum::<u32>(), &b.sizes)));
    match shard {
        Some(sh) => jobs.into_iter().enumerate().filter(|(i, _)| i % sh.count == sh.index - 1).map(|(_, j)| j).collect(),
        None => jobs,
    }
}

/// Prefix of files being written; they are ignored by readers and removed by the next sweep.
pub const TEMP_PREFIX: &str = ".partial-";

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed to disk,
/// then renamed over the target. A reader sees the old file or the whole new one, never part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(format!("{TEMP_PREFIX}{}-{name}", std::process::id()));
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)
}

/// Removes temporary files a killed sweep left behind in `dir`.
pub fn clean_partial(dir: &Path) -> std::io::Result<usize> {
    let mut n = 0;
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        if e.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
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

/// Every result file in these directories, sorted by theory, fingerprint and sizes. Results for
/// the same job found in several directories must agree; a disagreement is an error.
pub fn merge(dirs: &[PathBuf]) -> Result<Vec<JobResult>, String> {
    let mut all: std::collections::BTreeMap<(String, String, u32, Vec<u32>), JobResult> = Default::default();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name.starts_with(TEMP_PREFIX) || !name.ends_with(".json") {
                continue;
            }
            let r = read_result(&path)?;
            let key = (r.theory.clone(), r.fingerprint.clone(), r.row.sizes.iter().sum(), r.row.sizes.clone());
            if let Some(prev) = all.get(&key) {
                if (prev.row.iso, prev.row.labeled) != (r.row.iso, r.row.labeled) && prev.row.iso.status == r.row.iso.status {
                    return Err(format!("{}: {} at size {} disagrees with an earlier shard ({} vs {})", path.display(), r.theory, sizes_label(&r.row.sizes), r.row.iso, prev.row.iso));
                }
                // Prefer the more complete answer.
                if prev.row.iso.status == crate::budget::Status::Exact {
                    continue;
                }
            }
            all.insert(key, r);
        }
    }
    Ok(all.into_values().collect())
}

/// The merged table as TSV with a header line.
pub fn to_tsv(rows: &[JobResult]) -> String {
    let mut out = String::from("theory\tfingerprint\tsizes\tiso\tiso_status\tlabeled\tlabeled_status\tseconds\n");
    for r in rows {
        let st = |s: crate::budget::Status| serde_json::to_value(s).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\n",
            r.theory,
            r.fingerprint,
            sizes_label(&r.row.sizes),
            r.row.iso.value,
            st(r.row.iso.status),
            r.row.labeled.value,
            st(r.row.labeled.status),
            r.row.seconds
        ));
    }
    out
}
