//! Atomic file writes: a temporary file in the same directory, synced, then renamed (or linked,
//! when the target must not already exist). A reader never sees half a file, and `kill -9` at any
//! moment leaves either the old content or the new one.

use crate::{io_err, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Prefix of temporary files; readers skip them and [`clean_partial`] removes them.
pub const TEMP_PREFIX: &str = ".partial-";

fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let unique = format!("{TEMP_PREFIX}{}-{}-{name}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
    path.with_file_name(unique)
}

fn write_synced(tmp: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::File::create(tmp).map_err(io_err(tmp))?;
    f.write_all(bytes).map_err(io_err(tmp))?;
    f.sync_all().map_err(io_err(tmp))
}

fn sync_dir(path: &Path) {
    // Making the rename durable is best effort: some file systems refuse to open directories.
    if let Some(dir) = path.parent() {
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

/// Writes `bytes` to `path`, replacing any previous content atomically.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_path(path);
    write_synced(&tmp, bytes)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err(path)(e)
    })?;
    sync_dir(path);
    Ok(())
}

/// Writes `bytes` to `path` only if `path` does not exist yet; returns false (writing nothing)
/// if it does. Atomic: a hard link publishes the complete file or fails. On a file system
/// without hard links it checks and renames instead, which is safe because every writer holds
/// the library lock.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<bool> {
    let tmp = temp_path(path);
    write_synced(&tmp, bytes)?;
    let published = match std::fs::hard_link(&tmp, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(_) if path.exists() => Ok(false),
        Err(_) => std::fs::rename(&tmp, path).map(|()| true).map_err(io_err(path)),
    };
    let _ = std::fs::remove_file(&tmp);
    if published? {
        sync_dir(path);
        return Ok(true);
    }
    Ok(false)
}

/// Removes temporary files left in `dir` by writers that were killed. Call it under the lock.
pub fn clean_partial(dir: &Path) -> Result<usize> {
    let mut removed = 0;
    for e in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let e = e.map_err(io_err(dir))?;
        if e.file_name().to_string_lossy().starts_with(TEMP_PREFIX) && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}
