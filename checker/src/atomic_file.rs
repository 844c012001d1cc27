//! The workspace's one atomic file writer: a temporary file in the same directory, synced, then
//! renamed over the target (or linked, when the target must not already exist), and the
//! directory synced, so a reader never sees half a file and `kill -9` at any moment leaves either
//! the old content or the new one. A rename replaces a symbolic link at the target and never
//! writes through it; the library refuses such a link outright (`birkhoff_library::atomic`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Prefix of files being written; readers skip them, and the sweep and the library remove the
/// ones a killed writer left.
pub const TEMP_PREFIX: &str = ".partial-";

/// `.partial-PID-NANOS.COUNTER-NAME` beside `path`: the counter makes it unique within the
/// process, the process ID and the clock's nanoseconds across the shards that write into one
/// shared directory (a cluster's file system), so no writer writes through another's file. The
/// second `-`-separated field has no `-`, so the sweep finds `NAME` as the third.
fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    path.with_file_name(format!(
        "{TEMP_PREFIX}{}-{nanos}.{}-{name}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Writes `bytes` to a new temporary file beside `path`, synced to disk, and returns its path.
fn write_temp(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let tmp = temp_path(path);
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
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
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = write_temp(path, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    sync_dir(path);
    Ok(())
}

/// Writes `bytes` to `path` only if `path` does not exist yet; returns false (writing nothing)
/// if it does. Atomic: a hard link publishes the complete file or fails. On a file system
/// without hard links it checks and renames instead, which is safe only while every writer of
/// `path` holds one lock (the library's).
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    let tmp = write_temp(path, bytes)?;
    let published = match std::fs::hard_link(&tmp, path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(_) if path.exists() => Ok(false),
        Err(_) => std::fs::rename(&tmp, path).map(|()| true),
    };
    let _ = std::fs::remove_file(&tmp);
    if published? {
        sync_dir(path);
        return Ok(true);
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn writes_publish_whole_files_and_a_killed_writers_temporary_is_found_by_its_name() {
        let dir = std::env::temp_dir().join(format!("birkhoff-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("job.json");
        write(&path, b"old").unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(!write_new(&path, b"other").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(write_new(&dir.join("fresh.json"), b"fresh").unwrap());
        let names = |dir: &Path| -> BTreeSet<String> {
            std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(
            names(&dir),
            ["fresh.json", "job.json"].map(String::from).into()
        );
        // What a writer killed between writing and renaming leaves: the sweep removes it as
        // this shard's (its result named third), and nothing else.
        let left = temp_path(&path);
        std::fs::write(&left, b"half").unwrap();
        let ours = BTreeSet::from(["job.json".to_string()]);
        assert_eq!(crate::sweep::clean_partial(&dir, &ours).unwrap(), 1);
        assert_eq!(
            names(&dir),
            ["fresh.json", "job.json"].map(String::from).into()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
