//! The library's write lock: an exclusive advisory lock on `<library>/.lock`, so that several
//! runs on one library take turns at every write and never interleave half-done updates.

use crate::{io_err, Result};
use std::fs::File;
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

/// Blocks until this process holds the library's lock. The operating system releases it if the
/// process dies, so `kill -9` never leaves a stale lock.
pub fn acquire(root: &Path) -> Result<Guard> {
    let path = root.join(".lock");
    let file = File::options().create(true).truncate(false).write(true).open(&path).map_err(io_err(&path))?;
    file.lock().map_err(io_err(&path))?;
    Ok(Guard { file })
}
