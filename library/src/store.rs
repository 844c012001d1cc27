//! The library directory: opening it, reading and writing records, listing them.

use crate::id::{dir_of, KINDS};
use crate::index::{Hit, Index};
use crate::record::{Body, Record};
use crate::{atomic, io_err, lock, Error, Result};
use birkhoff_engine::{Structure, Theory};
use std::path::{Path, PathBuf};

/// The largest record file read or written, in bytes: far above the records Birkhoff writes
/// (certificates cite by a flat list, so a chain of citations grows by one entry per link), so
/// a file put there by hand is a bad record, not read, and a record this large is refused
/// before it is written, never left on disk unreadable (`unreadable`).
pub const MAX_RECORD_BYTES: u64 = 256 << 20;

/// The library directory used when `--library` is not given: `$BIRKHOFF_LIBRARY`, or
/// `./birkhoff-library`.
pub fn default_dir() -> PathBuf {
    std::env::var_os("BIRKHOFF_LIBRARY")
        .map_or_else(|| PathBuf::from("birkhoff-library"), PathBuf::from)
}

/// An open library: its directory and its index.
pub struct Library {
    root: PathBuf,
    index: Index,
    /// Records put since [`Library::begin`], by ID in the order first put: held in memory until
    /// [`Library::add_report`] commits them with a report, or [`Library::discard`] drops them.
    pub(crate) staged: Option<Vec<Record>>,
}

/// What `put` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Put {
    /// A new record file was written.
    Created,
    /// The record existed and was replaced by the new content.
    Updated,
    /// The record existed with this content (or is immutable); nothing was written.
    Unchanged,
}

impl Library {
    /// Opens (creating if needed) the library at `root`, removes temporary files left by killed
    /// writers, and brings the index in step with the files.
    pub fn open(root: &Path) -> Result<Library> {
        std::fs::create_dir_all(root).map_err(io_err(root))?;
        let _guard = lock::acquire(root)?;
        for (_, _, dir) in KINDS
            .iter()
            .copied()
            .chain([("report", "", crate::reports::DIR)])
        {
            let d = root.join(dir);
            std::fs::create_dir_all(&d).map_err(io_err(&d))?;
            atomic::clean_partial(&d)?;
        }
        let mut lib = Library {
            root: root.to_path_buf(),
            index: Index::open(&root.join("index.sqlite"))?,
            staged: None,
        };
        // A commit cut short by a kill is finished before anything reads the files.
        lib.finish_commit()?;
        let records = lib.load_all()?;
        lib.index.sync(&records)?;
        lib.index.sync_documents(&crate::documents::scan(root)?)?;
        Ok(lib)
    }

    /// The library directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file of a record, if `id` is a well-formed ID.
    pub fn path_of(&self, id: &str) -> Result<PathBuf> {
        let dir = dir_of(id).ok_or_else(|| Error::BadId(id.to_string()))?;
        Ok(self.root.join(dir).join(format!("{id}.json")))
    }

    /// Stores a record. Theories and conjectures are updated in place when their content
    /// changes (their IDs depend only on what identifies them); other kinds are immutable.
    /// Between [`Library::begin`] and the next report, the record is held in memory instead.
    pub fn put(&mut self, body: Body) -> Result<(Record, Put)> {
        if self.staged.is_some() {
            return self.stage(body);
        }
        let _guard = lock::acquire(&self.root)?;
        let rec = Record::new(body);
        let old = self.on_disk(&rec.id)?;
        self.write_record(rec, old)
    }

    /// The record with `id` as stored in its file, if there is one.
    pub(crate) fn on_disk(&self, id: &str) -> Result<Option<Record>> {
        match self.read(&self.path_of(id)?) {
            Ok(old) => Ok(Some(old)),
            Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// What `put` would leave for `rec`, given the record `old` already there: `None` if nothing
    /// changes (the same content, or an immutable kind), else the record to write (keeping the
    /// first creation time).
    fn merged(mut rec: Record, old: Option<&Record>) -> (Option<Record>, Put) {
        match old {
            None => (Some(rec), Put::Created),
            Some(old)
                if !matches!(rec.body, Body::Theory(_) | Body::Conjecture(_))
                    || old.body == rec.body =>
            {
                (None, Put::Unchanged)
            }
            Some(old) => {
                rec.created = old.created;
                (Some(rec), Put::Updated)
            }
        }
    }

    /// Writes `rec` over `old` (its file's content, if any) as `put` does. Call it under the lock.
    pub(crate) fn write_record(
        &mut self,
        rec: Record,
        old: Option<Record>,
    ) -> Result<(Record, Put)> {
        let path = self.path_of(&rec.id)?;
        let (new, outcome) = Self::merged(rec, old.as_ref());
        let Some(rec) = new else {
            return Ok((old.expect("unchanged means present"), outcome));
        };
        let bytes = to_bytes(&rec);
        if let Some(why) = unreadable(&bytes) {
            return Err(Error::Unreadable { id: rec.id, why });
        }
        if outcome == Put::Created {
            if !atomic::write_new(&path, &bytes)? {
                // Another process wrote it between our read and our write: theirs stands.
                return Ok((self.read(&path)?, Put::Unchanged));
            }
        } else {
            atomic::write(&path, &bytes)?;
        }
        self.index.upsert(&rec)?;
        Ok((rec, outcome))
    }

    /// `put` while staging: the outcome is judged against the staged record or the file, and
    /// nothing is written.
    fn stage(&mut self, body: Body) -> Result<(Record, Put)> {
        let rec = Record::new(body);
        let staged = self
            .staged
            .as_ref()
            .and_then(|s| s.iter().position(|r| r.id == rec.id));
        let old = match staged {
            Some(i) => self.staged.as_ref().map(|s| s[i].clone()),
            None => self.on_disk(&rec.id)?,
        };
        let (new, outcome) = Self::merged(rec, old.as_ref());
        let Some(rec) = new else {
            return Ok((old.expect("unchanged means present"), outcome));
        };
        let list = self.staged.as_mut().expect("staging");
        match staged {
            Some(i) => list[i] = rec.clone(),
            None => list.push(rec.clone()),
        }
        Ok((rec, outcome))
    }

    /// Starts holding writes: every `put` from now on is kept in memory (and seen by `get`, not
    /// by `list`, `load_all` or `search`) until [`Library::add_report`] writes them together with
    /// the report, or [`Library::discard`] drops them. A research cycle is one such unit, so
    /// that a cycle cut short leaves nothing behind.
    pub fn begin(&mut self) {
        self.staged.get_or_insert_with(Vec::new);
    }

    /// Drops the records held since [`Library::begin`] and stops holding writes; returns how
    /// many were dropped.
    pub fn discard(&mut self) -> usize {
        self.staged.take().map_or(0, |s| s.len())
    }

    /// The record with this ID.
    pub fn get(&self, id: &str) -> Result<Record> {
        if let Some(r) = self
            .staged
            .as_ref()
            .and_then(|s| s.iter().find(|r| r.id == id))
        {
            return Ok(r.clone());
        }
        let path = self.path_of(id)?;
        self.read(&path).map_err(|e| match e {
            Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                Error::NotFound(id.to_string())
            }
            e => e,
        })
    }

    fn read(&self, path: &Path) -> Result<Record> {
        let text = atomic::read(path, MAX_RECORD_BYTES)?
            .ok_or_else(|| io_err(path)(std::io::ErrorKind::NotFound.into()))?;
        serde_json::from_slice(&text).map_err(|e| Error::BadRecord {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Every record file of one kind directory (`theories`, ...), sorted by file name; files
    /// that are not valid records are returned as errors, not skipped.
    pub fn scan(&self, dir: &str) -> Result<Vec<(PathBuf, Result<Record>)>> {
        let d = self.root.join(dir);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&d)
            .map_err(io_err(&d))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && !p
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(atomic::TEMP_PREFIX))
            })
            .collect();
        paths.sort();
        Ok(paths
            .into_iter()
            .map(|p| (p.clone(), self.read(&p)))
            .collect())
    }

    /// Every readable record, sorted by ID. Unreadable files are skipped here (backtest reports
    /// them).
    pub fn load_all(&self) -> Result<Vec<Record>> {
        let mut out = Vec::new();
        for (_, _, dir) in KINDS {
            out.extend(self.scan(dir)?.into_iter().filter_map(|(_, r)| r.ok()));
        }
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    /// Records of one kind (`theory`, `model`, ...).
    pub fn list(&self, kind: &str) -> Result<Vec<Record>> {
        let dir = KINDS
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map(|(_, _, d)| *d)
            .ok_or_else(|| Error::BadId(kind.to_string()))?;
        Ok(self
            .scan(dir)?
            .into_iter()
            .filter_map(|(_, r)| r.ok())
            .collect())
    }

    /// The discoveries: theory records kept as discoveries, in no particular order (see
    /// [`crate::record::rank`]).
    pub fn discoveries(&self) -> Result<Vec<Record>> {
        Ok(self
            .list("theory")?
            .into_iter()
            .filter(|r| matches!(&r.body, crate::record::Body::Theory(t) if t.discovery))
            .collect())
    }

    /// The spectrum of the theory with record ID `theory_id`, merged from all its stored
    /// spectrum records by the one rule every view uses ([`crate::record::merged_spectrum`]: per
    /// size, the most informative count); empty when none is stored.
    pub fn spectrum_of(&self, theory_id: &str) -> Result<Vec<crate::record::SpectrumRow>> {
        Ok(crate::record::merged_spectrum(
            &self.list("spectrum")?,
            theory_id,
        ))
    }

    /// The model records of the theory with record ID `theory_id`, sorted by ID.
    pub fn models_of(&self, theory_id: &str) -> Result<Vec<Record>> {
        self.of_theory("model", theory_id)
    }

    /// The stored models of the theory with record ID `theory_id` read over `theory`'s
    /// signature, in ID order: only those the evaluator confirms are models of `theory`, since
    /// what is shown or refuted with a model rests on that check, not on the record.
    pub fn structures_of(&self, theory_id: &str, theory: &Theory) -> Result<Vec<Structure>> {
        Ok(self
            .models_of(theory_id)?
            .iter()
            .filter_map(|r| match &r.body {
                Body::Model(m) => Structure::from_json(&theory.sig, &m.structure).ok(),
                _ => None,
            })
            .filter(|m| birkhoff_engine::eval::check(theory, m).is_ok())
            .collect())
    }

    /// The conjecture records about the theory with record ID `theory_id`, sorted by ID.
    pub fn conjectures_of(&self, theory_id: &str) -> Result<Vec<Record>> {
        self.of_theory("conjecture", theory_id)
    }

    /// The records of `kind` that belong to the theory `theory_id`, sorted by ID.
    fn of_theory(&self, kind: &str, theory_id: &str) -> Result<Vec<Record>> {
        let mut out = self.list(kind)?;
        out.retain(|r| r.body.theory_id() == Some(theory_id));
        Ok(out)
    }

    /// Full-text search over the index. Words in `query` must all occur (any order); an empty
    /// query matches everything. `min_score` keeps only scored theories at or above it.
    pub fn search(&self, query: &str, min_score: Option<f64>, limit: usize) -> Result<Vec<Hit>> {
        self.index.search(query, min_score, limit)
    }

    /// Counts of records by kind, from the index.
    pub fn stats(&self) -> Result<Vec<(String, u64)>> {
        self.index.counts()
    }

    /// Drops the index and rebuilds it from the files (records and documents); returns the
    /// number of records.
    pub fn reindex(&mut self) -> Result<usize> {
        let _guard = lock::acquire(&self.root)?;
        let records = self.load_all()?;
        self.index
            .rebuild(&records, &crate::documents::scan(&self.root)?)?;
        Ok(records.len())
    }

    /// Brings the index's text documents ([`crate::documents`]) in step with their files; a
    /// writer of such documents calls it after writing, as `put` keeps records in step.
    pub fn sync_documents(&mut self) -> Result<()> {
        let docs = crate::documents::scan(&self.root)?;
        self.index.sync_documents(&docs)
    }
}

/// Why `bytes` (a record as [`to_bytes`] writes it) would not read back, if it would not: what
/// is written is read first, so that nothing on disk is unreadable.
fn unreadable(bytes: &[u8]) -> Option<String> {
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Some(format!(
            "{} bytes, more than the {MAX_RECORD_BYTES} read",
            bytes.len()
        ));
    }
    serde_json::from_slice::<Record>(bytes)
        .err()
        .map(|e| e.to_string())
}

fn to_bytes(rec: &Record) -> Vec<u8> {
    let mut v = crate::json::pretty(rec).expect("records serialize");
    v.push(b'\n');
    v
}

impl Library {
    /// A stored proof as numbered equational steps: its certificate replayed against the stored
    /// theory and laid out for reading within `time` (an error says why it could not be).
    pub fn readable_proof(
        &self,
        p: &crate::record::ProofRec,
        time: std::time::Duration,
    ) -> std::result::Result<birkhoff_checker::prover::readable::ReadableProof, String> {
        use birkhoff_checker::prover::certificate::Certificate;
        use birkhoff_checker::prover::readable::{render, Layout};
        let theory = match self.get(&p.theory_id).map_err(|e| e.to_string())?.body {
            Body::Theory(t) => {
                birkhoff_engine::Theory::parse(&t.text, &p.theory_id).map_err(|e| e.to_string())?
            }
            _ => return Err(format!("{} is not a theory", p.theory_id)),
        };
        let goal = crate::statement::parse(&theory, &p.statement)?;
        let cert: Certificate = serde_json::from_value(p.certificate.clone())
            .map_err(|e| format!("not a certificate: {e}"))?;
        let layout = Layout {
            deadline: Some(std::time::Instant::now() + time),
            ..Layout::default()
        };
        render(&theory, &goal, &cert, &layout).map_err(|e| e.to_string())
    }
}
