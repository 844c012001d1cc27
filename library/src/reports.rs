//! Cycle reports: `reports/cycle-0001.json` (the record, written first) and `cycle-0001.md` (its
//! rendering). Numbers continue from the highest existing one and a report file is never
//! overwritten: the JSON is published with a no-replace link under the library lock.
//!
//! A report commits the records held since [`Library::begin`] with it, as one unit: under the
//! lock, the records, the report and its number are first written to one journal file
//! (`reports/commit.json`, atomically), then to their own files, and the journal is removed. A
//! process killed on the way leaves the journal, and the next [`Library::open`] (or commit)
//! finishes the job; killed before the journal, it leaves nothing of the unit.

use crate::cycle::CycleReport;
use crate::record::Record;
use crate::{atomic, io_err, lock, Library, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;

/// The reports' directory inside the library.
pub const DIR: &str = "reports";

/// The journal of a commit in progress, inside [`DIR`].
const JOURNAL: &str = "commit.json";

/// One unit of writes: the records and the report that says what they are.
#[derive(Serialize, Deserialize)]
struct Commit {
    /// The report's number.
    number: u64,
    /// The records, each as it is to be stored.
    records: Vec<Record>,
    /// The report, its `cycle` already the number.
    report: CycleReport,
    /// Its Markdown.
    markdown: String,
}

/// The two files of report `n`.
fn paths(lib: &Library, n: u64) -> (PathBuf, PathBuf) {
    let base = lib.root().join(DIR).join(format!("cycle-{n:04}"));
    (base.with_extension("json"), base.with_extension("md"))
}

impl Library {
    /// Numbers of the complete reports (those whose JSON exists), ascending.
    pub fn report_numbers(&self) -> Result<Vec<u64>> {
        let dir = self.root().join(DIR);
        let mut out: Vec<u64> = std::fs::read_dir(&dir)
            .map_err(io_err(&dir))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                e.file_name().to_str().and_then(|n| {
                    n.strip_prefix("cycle-")?
                        .strip_suffix(".json")?
                        .parse()
                        .ok()
                })
            })
            .collect();
        out.sort_unstable();
        Ok(out)
    }

    /// Report `n` as JSON, as stored (what `birkhoff report --json` prints).
    pub fn report(&self, n: u64) -> Result<Value> {
        let (json, _) = paths(self, n);
        let text = atomic::read(&json, crate::store::MAX_RECORD_BYTES)?
            .ok_or_else(|| io_err(&json)(std::io::ErrorKind::NotFound.into()))?;
        serde_json::from_slice(&text).map_err(|e| crate::Error::BadRecord {
            path: json.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Report `n`: [`Library::report`] read as a cycle report.
    pub fn cycle_report(&self, n: u64) -> Result<CycleReport> {
        serde_json::from_value(self.report(n)?).map_err(|e| crate::Error::BadRecord {
            path: paths(self, n).0.display().to_string(),
            message: format!("not a cycle report: {e}"),
        })
    }

    /// The Markdown file of report `n` (which may be missing if a run was killed right after
    /// writing the JSON; [`Library::write_markdown`] restores it).
    pub fn markdown_path(&self, n: u64) -> PathBuf {
        paths(self, n).1
    }

    /// Writes `report` under the next free number (which becomes its `cycle`), together with the
    /// records held since [`Library::begin`] (which stops holding), as one unit; returns the
    /// number. `markdown` renders the numbered report. The JSON file has its object keys sorted,
    /// as every report has been stored.
    pub fn add_report(
        &mut self,
        report: &CycleReport,
        markdown: impl Fn(&CycleReport) -> String,
    ) -> Result<u64> {
        let _guard = lock::acquire(self.root())?;
        // Another process's unit cut short is finished first, so that its number stays its own.
        self.finish_commit()?;
        let number = self.report_numbers()?.last().copied().unwrap_or(0) + 1;
        let report = CycleReport {
            cycle: number,
            ..report.clone()
        };
        let commit = Commit {
            number,
            records: self.staged.take().unwrap_or_default(),
            markdown: markdown(&report),
            report,
        };
        let journal = self.root().join(DIR).join(JOURNAL);
        atomic::write(
            &journal,
            &serde_json::to_vec(&commit).expect("commits serialize"),
        )?;
        self.finish_commit()?;
        Ok(number)
    }

    /// Carries out the commit in the journal, if there is one, and removes the journal. Each
    /// step can be repeated (a record already written is left as it is), so a commit cut short
    /// at any point is finished by running this again. Call it under the lock.
    pub(crate) fn finish_commit(&mut self) -> Result<()> {
        let journal = self.root().join(DIR).join(JOURNAL);
        // Its records are copied into the library: never from a file a link points to.
        let Some(text) = atomic::read(&journal, crate::store::MAX_RECORD_BYTES)? else {
            return Ok(());
        };
        let commit: Commit =
            serde_json::from_slice(&text).map_err(|e| crate::Error::BadRecord {
                path: journal.display().to_string(),
                message: e.to_string(),
            })?;
        for rec in commit.records {
            let old = self.on_disk(&rec.id)?;
            self.write_record(rec, old)?;
        }
        let (jpath, _) = paths(self, commit.number);
        // Through a JSON value, whose objects keep their keys sorted: the order every report has
        // been stored in.
        let report = serde_json::to_value(&commit.report).expect("reports serialize");
        let mut bytes = crate::json::pretty(&report).expect("JSON values serialize");
        bytes.push(b'\n');
        atomic::write_new(&jpath, &bytes)?;
        self.write_markdown(commit.number, &commit.markdown)?;
        std::fs::remove_file(&journal).map_err(io_err(&journal))?;
        Ok(())
    }

    /// Writes the Markdown of report `n` (its derived rendering).
    pub fn write_markdown(&self, n: u64, markdown: &str) -> Result<()> {
        atomic::write(&paths(self, n).1, markdown.as_bytes())
    }
}
