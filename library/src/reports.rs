//! Cycle reports: `reports/cycle-0001.json` (the record, written first) and `cycle-0001.md` (its
//! rendering). Numbers continue from the highest existing one and a report file is never
//! overwritten: the JSON is published with a no-replace link under the library lock.

use crate::{atomic, io_err, lock, Library, Result};
use serde_json::Value;
use std::path::PathBuf;

/// The reports' directory inside the library.
pub const DIR: &str = "reports";

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
            .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_prefix("cycle-")?.strip_suffix(".json")?.parse().ok()))
            .collect();
        out.sort_unstable();
        Ok(out)
    }

    /// Report `n` as JSON.
    pub fn report(&self, n: u64) -> Result<Value> {
        let (json, _) = paths(self, n);
        let text = std::fs::read_to_string(&json).map_err(io_err(&json))?;
        serde_json::from_str(&text).map_err(|e| crate::Error::BadRecord { path: json.display().to_string(), message: e.to_string() })
    }

    /// The Markdown file of report `n` (which may be missing if a run was killed right after
    /// writing the JSON; [`Library::write_markdown`] restores it).
    pub fn markdown_path(&self, n: u64) -> PathBuf {
        paths(self, n).1
    }

    /// Writes a new report under the next free number and returns the number. `render` receives
    /// the number and returns the JSON and the Markdown.
    pub fn add_report(&mut self, render: impl Fn(u64) -> (Value, String)) -> Result<u64> {
        let _guard = lock::acquire(self.root())?;
        let mut n = self.report_numbers()?.last().copied().unwrap_or(0) + 1;
        loop {
            let (json, markdown) = render(n);
            let (jpath, _) = paths(self, n);
            let mut bytes = serde_json::to_vec_pretty(&json).expect("JSON values serialize");
            bytes.push(b'\n');
            if atomic::write_new(&jpath, &bytes)? {
                self.write_markdown(n, &markdown)?;
                return Ok(n);
            }
            n += 1;
        }
    }

    /// Writes the Markdown of report `n` (its derived rendering).
    pub fn write_markdown(&self, n: u64, markdown: &str) -> Result<()> {
        atomic::write(&paths(self, n).1, markdown.as_bytes())
    }
}
