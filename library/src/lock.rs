//! The library's write lock: an exclusive advisory lock on `<library>/.lock`, so that several
//! runs on one library take turns at every write and never interleave half-done updates. The same
//! lock on another file ([`try_acquire`]) keeps two sweeps out of each other's output directory.

use crate::{io_err, Result};
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

/// Holds the lock until dropped.
pub struct Guard {
    file: File,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Opens (or creates) the lock file `path`.
fn open(path: &Path) -> Result<File> {
    File::options()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(io_err(path))
}

/// Blocks until this process holds the library's lock. The operating system releases it if the
/// process dies, so `kill -9` never leaves a stale lock.
pub fn acquire(root: &Path) -> Result<Guard> {
    let path = root.join(".lock");
    let file = open(&path)?;
    file.lock().map_err(io_err(&path))?;
    Ok(Guard { file })
}

/// Takes the exclusive lock on the file `path` (created if missing) if no other process holds
/// it, and writes this process's id into the file, for the message of the next one that tries.
/// `Ok(Err(holder))` when another process holds it: the id it wrote, if it has yet. For runs that
/// should not wait for each other (two sweeps into one directory), where [`acquire`] waits.
pub fn try_acquire(path: &Path) -> Result<std::result::Result<Guard, Option<u32>>> {
    let mut file = open(path)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            return Ok(Err(text.trim().parse().ok()));
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(io_err(path)(e)),
    }
    file.set_len(0)
        .and_then(|()| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
        .map_err(io_err(path))?;
    Ok(Ok(Guard { file }))
}
