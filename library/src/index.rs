//! The SQLite index: one row per record plus an FTS5 table of its words, and one row per text
//! document ([`crate::documents`]: a research workspace's synthesis and records) whose words go
//! into the same FTS5 table under the document's path. It is derived data: [`Index::sync`] and
//! [`Index::sync_documents`] bring it in step with the files when the library is opened, every
//! write updates it, and [`Index::rebuild`] recreates it from scratch.

use crate::documents::Document;
use crate::record::Record;
use crate::Result;
use rusqlite::{params, Connection};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// A search result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// The record's ID (for a document, its path in the library).
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Its score (theories with a score only).
    pub score: Option<f64>,
}

/// The two tables whose rows carry words.
#[derive(Clone, Copy)]
enum Table {
    Records,
    Documents,
}

/// The open index.
pub struct Index {
    db: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS records(id TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, score REAL, created INTEGER NOT NULL, body TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(id UNINDEXED, name, text);
CREATE TABLE IF NOT EXISTS documents(path TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL);
";

impl Index {
    /// Opens or creates the index file. A file that is not a usable index is replaced (it is
    /// derived data; the caller then fills it from the files).
    pub fn open(path: &Path) -> Result<Index> {
        let attempt = || -> Result<Connection> {
            let db = Connection::open(path)?;
            db.busy_timeout(Duration::from_secs(30))?;
            // The index is derived data, rebuilt from the files on open, so it needs to stay
            // consistent but not durable: a write-ahead log without a sync at every commit
            // survives kill -9 and power loss uncorrupted, and costs one fsync less per record
            // (each record's file is still synced).
            db.pragma_update(None, "journal_mode", "WAL")?;
            db.pragma_update(None, "synchronous", "NORMAL")?;
            db.execute_batch(SCHEMA)?;
            Ok(db)
        };
        let db = match attempt() {
            Ok(db) => db,
            Err(_) => {
                // With the file go its log and shared-memory files, which belong to it.
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.as_os_str().to_owned();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
                attempt()?
            }
        };
        Ok(Index { db })
    }

    /// Inserts or replaces one record.
    pub fn upsert(&mut self, r: &Record) -> Result<()> {
        let tx = self.db.transaction()?;
        write_row(&tx, r)?;
        tx.commit()?;
        Ok(())
    }

    /// Makes the index hold exactly `records`: adds what is missing, replaces what changed,
    /// removes what is gone.
    pub fn sync(&mut self, records: &[Record]) -> Result<()> {
        let rows: Vec<(&str, String)> = records
            .iter()
            .map(|r| (r.id.as_str(), body_of(r)))
            .collect();
        self.sync_table(Table::Records, &rows, |tx, i| write_row(tx, &records[i]))
    }

    /// Makes the index hold exactly `docs` among documents: adds what is missing, replaces
    /// what changed, removes what is gone. Records are not touched.
    pub fn sync_documents(&mut self, docs: &[Document]) -> Result<()> {
        let rows: Vec<(&str, String)> = docs
            .iter()
            .map(|d| (d.path.as_str(), d.text.clone()))
            .collect();
        self.sync_table(Table::Documents, &rows, |tx, i| {
            write_document(tx, &docs[i])
        })
    }

    /// The one sync of both tables: `rows` are (key, stored body) in the order of the items
    /// `write(tx, i)` writes; rows whose body differs are rewritten, keys no longer there removed
    /// with their words.
    fn sync_table(
        &mut self,
        table: Table,
        rows: &[(&str, String)],
        write: impl Fn(&rusqlite::Transaction, usize) -> Result<()>,
    ) -> Result<()> {
        let (select, delete) = match table {
            Table::Records => (
                "SELECT id, body FROM records",
                "DELETE FROM records WHERE id = ?1",
            ),
            Table::Documents => (
                "SELECT path, body FROM documents",
                "DELETE FROM documents WHERE path = ?1",
            ),
        };
        let tx = self.db.transaction()?;
        let mut stored: HashMap<String, String> = {
            let mut st = tx.prepare(select)?;
            let rows = st.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        for (i, (key, body)) in rows.iter().enumerate() {
            if stored.remove(*key).as_deref() != Some(body.as_str()) {
                write(&tx, i)?;
            }
        }
        for gone in stored.keys() {
            tx.execute(delete, params![gone])?;
            tx.execute("DELETE FROM words WHERE id = ?1", params![gone])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Empties the index and fills it from `records` and `docs`.
    pub fn rebuild(&mut self, records: &[Record], docs: &[Document]) -> Result<()> {
        let tx = self.db.transaction()?;
        tx.execute_batch("DELETE FROM records; DELETE FROM words; DELETE FROM documents;")?;
        for r in records {
            write_row(&tx, r)?;
        }
        for d in docs {
            write_document(&tx, d)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Records and documents matching every word of `query` (all of them for an empty query),
    /// best match first, ties by ID; with `min_score`, only theories scored at least that.
    pub fn search(&self, query: &str, min_score: Option<f64>, limit: usize) -> Result<Vec<Hit>> {
        let words: Vec<String> = query
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .map(|w| format!("\"{w}\""))
            .collect();
        let limit = limit.min(i64::MAX as usize) as i64;
        let hit = |row: &rusqlite::Row| {
            Ok(Hit {
                id: row.get(0)?,
                kind: row.get(1)?,
                name: row.get(2)?,
                score: row.get(3)?,
            })
        };
        let hits = if words.is_empty() {
            let mut st = self.db.prepare("SELECT id, kind, name, score FROM (SELECT id, kind, name, score FROM records UNION ALL SELECT path, kind, title, NULL FROM documents) \
                 WHERE (?1 IS NULL OR score >= ?1) ORDER BY score IS NULL, score DESC, id LIMIT ?2")?;
            let rows = st
                .query_map(params![min_score, limit], hit)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            rows
        } else {
            let mut st = self.db.prepare(
                "SELECT words.id, COALESCE(r.kind, d.kind), COALESCE(r.name, d.title), r.score FROM words \
                 LEFT JOIN records r ON r.id = words.id LEFT JOIN documents d ON d.path = words.id \
                 WHERE words MATCH ?1 AND (r.id IS NOT NULL OR d.path IS NOT NULL) AND (?2 IS NULL OR r.score >= ?2) \
                 ORDER BY bm25(words), words.id LIMIT ?3",
            )?;
            let rows = st
                .query_map(params![words.join(" "), min_score, limit], hit)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            rows
        };
        Ok(hits)
    }

    /// Number of records (and indexed documents) of each kind, sorted by kind.
    pub fn counts(&self) -> Result<Vec<(String, u64)>> {
        let mut st = self.db.prepare("SELECT kind, COUNT(*) FROM (SELECT kind FROM records UNION ALL SELECT kind FROM documents) GROUP BY kind ORDER BY kind")?;
        let rows = st.query_map([], |row| Ok((row.get(0)?, row.get::<_, i64>(1)? as u64)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

fn body_of(r: &Record) -> String {
    serde_json::to_string(r).expect("records serialize")
}

fn write_row(tx: &rusqlite::Transaction, r: &Record) -> Result<()> {
    tx.execute(
        "INSERT OR REPLACE INTO records(id, kind, name, score, created, body) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![r.id, r.body.kind(), r.body.name(), r.body.score(), r.created as i64, body_of(r)],
    )?;
    tx.execute("DELETE FROM words WHERE id = ?1", params![r.id])?;
    tx.execute(
        "INSERT INTO words(id, name, text) VALUES (?1, ?2, ?3)",
        params![r.id, r.body.name(), r.body.search_text()],
    )?;
    Ok(())
}

fn write_document(tx: &rusqlite::Transaction, d: &Document) -> Result<()> {
    tx.execute(
        "INSERT OR REPLACE INTO documents(path, kind, title, body) VALUES (?1, ?2, ?3, ?4)",
        params![d.path, d.kind, d.title, d.text],
    )?;
    tx.execute("DELETE FROM words WHERE id = ?1", params![d.path])?;
    tx.execute(
        "INSERT INTO words(id, name, text) VALUES (?1, ?2, ?3)",
        params![d.path, d.title, d.text],
    )?;
    Ok(())
}
