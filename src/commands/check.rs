//! `birkhoff check`: parse and sort-check theory files, reporting every error with its position.

use crate::output::print_json;
use crate::Outcome;
use birkhoff_engine::{Error, Theory};
use serde_json::json;
use std::path::PathBuf;

// Arguments of `birkhoff check`.
#[derive(clap::Args)]
pub struct Args {
    /// Theory files (Birkhoff's format or Mace4 input).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// Checks every file; a file with errors is an error in the input, exit code 2 as the README
/// promises (after every file's errors are reported, and the JSON printed).
pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let mut reports = Vec::new();
    let mut failed = 0usize;
    for path in &a.files {
        let report = match Theory::from_file(path) {
            Ok(t) => {
                if !json {
                    println!(
                        "{}: ok: theory {} ({} sort(s), {} symbol(s), {} axiom(s))",
                        path.display(),
                        t.name,
                        t.sig.sorts.len(),
                        t.sig.funcs.len() + t.sig.rels.len(),
                        t.axioms.len()
                    );
                }
                json!({ "file": path, "ok": true, "theory": t.name, "fingerprint": t.fingerprint().to_string(), "errors": [] })
            }
            Err(Error::Source(diags)) => {
                failed += 1;
                if !json {
                    eprintln!("{diags}");
                    eprintln!("{}: {} error(s)", path.display(), diags.0.len());
                }
                let errors: Vec<_> = diags.0.iter().map(|d| json!({ "line": d.line, "column": d.column, "message": d.message, "text": d.line_text })).collect();
                json!({ "file": path, "ok": false, "errors": errors })
            }
            Err(e) => {
                failed += 1;
                if !json {
                    eprintln!("{e}");
                }
                json!({ "file": path, "ok": false, "errors": [{ "message": e.to_string() }] })
            }
        };
        reports.push(report);
    }
    if json {
        print_json(&serde_json::Value::Array(reports));
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} file(s) have errors", a.files.len());
    }
    Ok(Outcome::Done)
}
