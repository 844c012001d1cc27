//! Birkhoff's viewer: the library as a static web site (`birkhoff report html`) and a small
//! local server for it (`birkhoff serve`).
//!
//! The site needs no server and no network: plain HTML pages with one stylesheet and one small
//! script ([`ASSETS`]), linked by relative paths so that they work from `file://` as well. Every
//! text that reaches a page goes through one escape function (`escape::esc`), and every page
//! carries a Content-Security-Policy that allows scripts only from the site's own file and none
//! inline, so that even a missed escape could not run a model's text as script.
//!
//! [`Site::load`] reads the library once (reports, records, rendered proofs, references);
//! `pages` renders it; [`write()`] writes the pages, each atomically; [`serve`] serves a written
//! site on 127.0.0.1.
#![warn(missing_docs)]

mod escape;
mod heatmap;
mod pages;
pub mod serve;
mod svg;

use birkhoff_checker::prover::readable::ReadableProof;
use birkhoff_library::cycle::CycleReport;
use birkhoff_library::record::{Body, Record, TheoryRec};
use birkhoff_library::{atomic, Library, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where `birkhoff report html` writes when `--out` is not given, inside the library directory.
pub const SITE_DIR: &str = "site";

/// The files every site has besides its pages: the stylesheet and the sorting/filtering script.
pub const ASSETS: [(&str, &str); 2] = [
    ("style.css", include_str!("../assets/style.css")),
    ("site.js", include_str!("../assets/site.js")),
];

/// How long one stored proof may take to lay out for reading; a longer one is shown as a
/// reference to its record.
const PROOF_TIME: Duration = Duration::from_secs(2);

/// Everything a site is made from, read once from the library.
pub struct Site {
    /// The cycle reports by number; one that does not read as a cycle report keeps the reason.
    pub reports: Vec<(u64, std::result::Result<CycleReport, String>)>,
    /// Every readable record, by ID, with a well-formed ID (only these become file names).
    pub records: BTreeMap<String, Record>,
    /// Stored proofs laid out as numbered steps, by proof ID (or why not).
    pub proofs: BTreeMap<String, std::result::Result<ReadableProof, String>>,
    /// The literature agent's numbered references (empty if it never ran), or why they could
    /// not be read.
    pub references: std::result::Result<birkhoff_literature::store::State, String>,
}

impl Site {
    /// Reads the library: its reports, its records (those whose ID is well formed), its proofs
    /// laid out for reading, and the literature agent's references.
    pub fn load(lib: &Library) -> Result<Site> {
        let mut reports = Vec::new();
        for n in lib.report_numbers()? {
            let report = lib.cycle_report(n).map_err(|e| e.to_string());
            reports.push((n, report));
        }
        let records: BTreeMap<String, Record> = lib
            .load_all()?
            .into_iter()
            .filter(|r| birkhoff_library::id::dir_of(&r.id).is_some())
            .map(|r| (r.id.clone(), r))
            .collect();
        let proofs = records
            .values()
            .filter_map(|r| match &r.body {
                Body::Proof(p) => Some((r.id.clone(), lib.readable_proof(p, PROOF_TIME))),
                _ => None,
            })
            .collect();
        let references = birkhoff_literature::store::Store::new(lib.root()).load();
        Ok(Site {
            reports,
            records,
            proofs,
            references,
        })
    }

    /// The discoveries: theory records added as discoveries, by ID.
    pub fn discoveries(&self) -> impl Iterator<Item = (&Record, &TheoryRec)> {
        self.records.values().filter_map(|r| match &r.body {
            Body::Theory(t) if t.discovery => Some((r, t)),
            _ => None,
        })
    }

    /// The reports that read as cycle reports.
    pub fn cycles(&self) -> impl Iterator<Item = &CycleReport> {
        self.reports.iter().filter_map(|(_, r)| r.as_ref().ok())
    }
}

/// The list of files the last `write` made in a site folder, so the next one can remove the
/// pages that no longer exist (and never a file it did not make).
pub const MANIFEST: &str = "site-files.json";

/// Writes the site for `lib` into `out` (created if missing): every page, the stylesheet and
/// the script, each file atomically (a reader never sees half a page). Pages an earlier write
/// made that this one does not (a discovery now shown under another record, a site written from
/// another library) are removed, as listed in [`MANIFEST`]; other files in `out` are left alone.
/// Returns the files written, pages first.
pub fn write(lib: &Library, out: &Path) -> Result<Vec<PathBuf>> {
    let site = Site::load(lib)?;
    let io = |path: &Path, source| birkhoff_library::Error::Io {
        path: path.display().to_string(),
        source,
    };
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    atomic::clean_partial(out)?;
    let mut written = Vec::new();
    let mut files: Vec<String> = Vec::new();
    let pages = pages::all(&site);
    for (file, text) in pages
        .iter()
        .map(|p| (p.file.as_str(), p.html.as_str()))
        .chain(ASSETS)
    {
        let path = out.join(file);
        atomic::write(&path, text.as_bytes())?;
        written.push(path);
        files.push(file.to_string());
    }
    let manifest = out.join(MANIFEST);
    let before: Vec<String> = std::fs::read(&manifest)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    // Only plain file names from the manifest: a manifest edited by hand cannot reach outside `out`.
    for stale in before
        .iter()
        .filter(|f| !files.contains(f) && is_plain_file_name(f))
    {
        match std::fs::remove_file(out.join(stale)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(io(&out.join(stale), e))
            }
            _ => {}
        }
    }
    files.sort();
    atomic::write(
        &manifest,
        &serde_json::to_vec_pretty(&files).expect("a list of names serializes"),
    )?;
    Ok(written)
}

/// A name with no path in it: `cycle-0001.html` is one, `../notes.txt` is not.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}
