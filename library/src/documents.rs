//! Text documents that other parts of Birkhoff keep inside the library directory and want found
//! by `library search`: today a research workspace's synthesis and its records
//! (`research/<slug>/SYNTHESIS.md`, `research/<slug>/records/<kind>/<ID>.yaml`). The library
//! indexes them as plain text, by path, and knows nothing of their schema; the files stay the
//! truth and the index is refreshed from them like the records' (on open, on reindex, and when
//! the writer calls [`crate::Library::sync_documents`]).

use crate::{io_err, Result};
use std::path::Path;

/// The directory under the library that holds research workspaces.
pub const RESEARCH_DIR: &str = "research";

/// Documents larger than this are indexed by their first this-many bytes: a search index is
/// for finding a file, not for holding it.
pub const MAX_INDEXED_BYTES: usize = 256 * 1024;

/// One indexed text document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Its path relative to the library directory, with `/` separators; also its ID in search
    /// results.
    pub path: String,
    /// Its kind in search results (`research`).
    pub kind: String,
    /// A short title for listings: the workspace and the file's name.
    pub title: String,
    /// Its text (at most [`MAX_INDEXED_BYTES`]).
    pub text: String,
}

/// Every document to index under `root`, sorted by path: each workspace's `SYNTHESIS.md` and
/// each `records/<kind>/*.yaml`. Symbolic links are not followed (nothing outside the library
/// is read), temporary files of the atomic writer are skipped, and a file that is not UTF-8 is
/// indexed lossily rather than dropped.
pub fn scan(root: &Path) -> Result<Vec<Document>> {
    let mut out = Vec::new();
    let research = root.join(RESEARCH_DIR);
    for slug in real_entries(&research, true)? {
        let Some(name) = slug.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        let synthesis = slug.join("SYNTHESIS.md");
        if is_file(&synthesis) {
            out.push(read(root, &synthesis, format!("{name}: synthesis"))?);
        }
        for kind in real_entries(&slug.join("records"), true)? {
            for file in real_entries(&kind, false)? {
                if file.extension().is_some_and(|x| x == "yaml") {
                    let stem = file
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    out.push(read(root, &file, format!("{name}: {stem}"))?);
                }
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn is_file(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_file())
}

/// The directories (`dirs`) or regular files of `dir`, sorted, without symbolic links and
/// temporary files; a missing directory has none.
fn real_entries(dir: &Path, dirs: bool) -> Result<Vec<std::path::PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err(dir)(e)),
    };
    let mut out = Vec::new();
    for e in entries {
        let e = e.map_err(io_err(dir))?;
        let Ok(t) = e.file_type() else { continue };
        let temp = e
            .file_name()
            .to_string_lossy()
            .starts_with(crate::atomic::TEMP_PREFIX);
        if !temp && if dirs { t.is_dir() } else { t.is_file() } {
            out.push(e.path());
        }
    }
    out.sort();
    Ok(out)
}

fn read(root: &Path, file: &Path, title: String) -> Result<Document> {
    // Only the indexed beginning is read: a 1 GB file here must not cost 1 GB on every open.
    let cut = crate::atomic::read_head(file, MAX_INDEXED_BYTES as u64)?.unwrap_or_default();
    let rel = file.strip_prefix(root).unwrap_or(file);
    let path = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    Ok(Document {
        path,
        kind: "research".into(),
        title,
        text: String::from_utf8_lossy(&cut).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The process's peak resident memory, in KiB.
    fn peak_kib() -> i64 {
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: getrusage only writes the struct it is given.
        assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) }, 0);
        usage.ru_maxrss
    }

    #[test]
    fn a_huge_file_at_a_record_path_is_indexed_by_its_beginning_only() {
        let dir = tempfile::tempdir().unwrap();
        let leads = dir.path().join("research/w/records/leads");
        std::fs::create_dir_all(&leads).unwrap();
        // 1 GiB, sparse: it costs no disk, but reading it whole would cost 1 GiB of memory.
        std::fs::File::create(leads.join("L-001.yaml"))
            .unwrap()
            .set_len(1 << 30)
            .unwrap();
        let before = peak_kib();
        let docs = scan(dir.path()).unwrap();
        assert_eq!(
            docs.iter().map(|d| d.text.len()).collect::<Vec<_>>(),
            [MAX_INDEXED_BYTES]
        );
        let grown = peak_kib() - before;
        assert!(
            grown < 256 << 10,
            "scanning grew the peak memory by {grown} KiB"
        );
    }
}
