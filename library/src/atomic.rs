//! The library's file access. Writes are atomic, by the workspace's one writer
//! ([`birkhoff_checker::atomic_file`]): a temporary file in the same directory, synced, then
//! renamed (or linked, when the target must not already exist), so a reader never sees half a
//! file, and `kill -9` at any moment leaves either the old content or the new one. Neither a
//! write nor a [`read`] goes through a symbolic link: a link planted at a file's path inside the
//! library is refused with an error naming it, so nothing outside the library is read into it or
//! written from it. Reads are bounded: a file is never read past the limit its reader gives.

use crate::{io_err, Result};
use birkhoff_checker::atomic_file;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Prefix of temporary files; readers skip them and [`clean_partial`] removes them.
pub use birkhoff_checker::atomic_file::TEMP_PREFIX;

/// The error for a symbolic link found at a path inside the library.
fn link_refused(path: &Path) -> crate::Error {
    io_err(path)(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "a symbolic link, which Birkhoff does not follow inside the library (remove it)",
    ))
}

/// Refuses a symbolic link at `path`. A write renames over the link and never through it, but a
/// planted link is refused all the same: what it stood for would be read back into the library.
fn refuse_link(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(link_refused(path)),
        _ => Ok(()),
    }
}

/// Opens the regular file at `path` for reading without following a symbolic link (`O_NOFOLLOW`)
/// and without waiting on a FIFO (`O_NONBLOCK`); `None` if there is nothing at `path`.
fn open(path: &Path) -> Result<Option<(std::fs::File, u64)>> {
    let file = match std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(link_refused(path)),
        Err(e) => return Err(io_err(path)(e)),
    };
    let meta = file.metadata().map_err(io_err(path))?;
    if !meta.is_file() {
        return Err(io_err(path)(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    Ok(Some((file, meta.len())))
}

/// The regular file at `path` if it has at most `max` bytes; `None` if there is none. A larger
/// file is an error naming it and both sizes, found from its length before any of it is read.
pub fn read(path: &Path, max: u64) -> Result<Option<Vec<u8>>> {
    let Some((file, len)) = open(path)? else {
        return Ok(None);
    };
    let too_large = |len: u64| {
        io_err(path)(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("{len} bytes, more than the limit of {max}: not read"),
        ))
    };
    if len > max {
        return Err(too_large(len));
    }
    // The file may grow while it is read: one byte more than the limit tells.
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// [`read`] as text (not UTF-8 is an error), or an empty string if there is no file.
pub fn read_text(path: &Path, max: u64) -> Result<String> {
    let bytes = read(path, max)?.unwrap_or_default();
    String::from_utf8(bytes)
        .map_err(|e| io_err(path)(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// The first `max` bytes of the regular file at `path` (all of it if it is no longer); `None` if
/// there is none. For an index, which needs a file's beginning and never the whole of a big one.
pub fn read_head(path: &Path, max: u64) -> Result<Option<Vec<u8>>> {
    let Some((file, len)) = open(path)? else {
        return Ok(None);
    };
    let mut bytes = Vec::with_capacity(len.min(max) as usize);
    file.take(max)
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    Ok(Some(bytes))
}

/// Writes `bytes` to `path`, replacing any previous content atomically; a symbolic link at
/// `path` is refused.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    refuse_link(path)?;
    atomic_file::write(path, bytes).map_err(io_err(path))
}

/// Writes `bytes` to `path` only if `path` does not exist yet; returns false (writing nothing)
/// if it does. Atomic: a hard link publishes the complete file or fails. On a file system
/// without hard links it checks and renames instead, which is safe because every writer holds
/// the library lock. A symbolic link at `path` is refused.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<bool> {
    refuse_link(path)?;
    atomic_file::write_new(path, bytes).map_err(io_err(path))
}

/// Removes temporary files left in `dir` by writers that were killed. Call it under the lock.
pub fn clean_partial(dir: &Path) -> Result<usize> {
    let mut removed = 0;
    for e in std::fs::read_dir(dir).map_err(io_err(dir))? {
        let e = e.map_err(io_err(dir))?;
        if e.file_name().to_string_lossy().starts_with(TEMP_PREFIX)
            && std::fs::remove_file(e.path()).is_ok()
        {
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_refused_and_reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "outside\n").unwrap();
        let link = dir.path().join("PROOF.md");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        for e in [
            write(&link, b"x").unwrap_err(),
            write_new(&link, b"x").unwrap_err(),
            read(&link, 100).unwrap_err(),
            read_head(&link, 100).unwrap_err(),
        ] {
            assert!(
                e.to_string()
                    .starts_with(&format!("{}: a symbolic link", link.display())),
                "{e}"
            );
        }
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "outside\n");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        // A FIFO is refused at once rather than waited on.
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path it is given.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read(&fifo, 100)
            .unwrap_err()
            .to_string()
            .contains("not a regular file"));
        let file = dir.path().join("f");
        write(&file, b"0123456789").unwrap();
        assert_eq!(read(&file, 10).unwrap().unwrap(), b"0123456789");
        assert!(read(&file, 9)
            .unwrap_err()
            .to_string()
            .ends_with("10 bytes, more than the limit of 9: not read"));
        assert_eq!(read_head(&file, 4).unwrap().unwrap(), b"0123");
        assert_eq!(read(&dir.path().join("missing"), 9).unwrap(), None);
    }
}
