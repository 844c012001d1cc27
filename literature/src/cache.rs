//! The response cache: one JSON file per request under `<library>/literature/cache/`, named by
//! a digest of the request relative to the source's base URL. Files are written atomically by
//! the library's writer; a file that does not read back is ignored (and refetched).

use crate::client::Source;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The cache directory of a library.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

/// One cached answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// The source asked.
    pub source: Source,
    /// `GET` or `POST`.
    pub method: String,
    /// The URL asked the first time.
    pub url: String,
    /// The POST body, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_body: Option<String>,
    /// HTTP status (200 or 404).
    pub status: u16,
    /// The response body.
    pub body: String,
    /// When it was fetched (seconds since the epoch).
    pub fetched: u64,
}

impl Cache {
    /// The cache of the library at `library_root` (the directory is created on first write).
    pub fn in_library(library_root: &Path) -> Cache {
        Cache {
            dir: library_root.join(crate::store::DIR).join("cache"),
        }
    }

    /// The key of a request: source, method, path and query relative to the base URL, body.
    pub fn key(source: Source, method: &str, rel: &str, body: Option<&str>) -> String {
        let mut h = Sha256::new();
        for part in [source.key(), method, rel, body.unwrap_or("")] {
            h.update(part.as_bytes());
            h.update([0u8]);
        }
        h.finalize()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The cached answer to a request, if there is one that reads back.
    pub fn get(&self, key: &str) -> Option<Entry> {
        let bytes = std::fs::read(self.path(key)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Stores an answer. A failure to write is not an error of the run (the answer was used);
    /// the next run simply asks the network again.
    #[allow(clippy::too_many_arguments)]
    pub fn put(
        &self,
        key: &str,
        source: Source,
        method: &str,
        url: &str,
        request_body: Option<&str>,
        status: u16,
        body: &str,
        fetched: u64,
    ) {
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let entry = Entry {
            source,
            method: method.to_string(),
            url: url.to_string(),
            request_body: request_body.map(str::to_string),
            status,
            body: body.to_string(),
            fetched,
        };
        if let Ok(bytes) = serde_json::to_vec_pretty(&entry) {
            let _ = birkhoff_library::atomic::write(&self.path(key), &bytes);
        }
    }

    /// How many answers are cached.
    pub fn len(&self) -> usize {
        std::fs::read_dir(&self.dir).map_or(0, |d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .count()
        })
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
