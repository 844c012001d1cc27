//! What the literature agent remembers, in the library directory:
//! `literature/references.json` holds every reference ever numbered (REF-NNN confirmed,
//! UREF-NNN unconfirmed; numbering continues across runs and never resets) and, per subject
//! (a theory, a query, a spectrum), its search history and the numbers of its references.
//! `literature/<subject>/LITERATURE.md` is written from it after every run.
//! `literature/oeis.json` collects the OEIS sequences found online, extending the offline
//! sequence file.
//!
//! Every change happens under the library's lock and is written atomically.

use crate::paper::Paper;
use crate::sources::oeis::Sequence;
use birkhoff_library::{atomic, lock};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The directory under the library root.
pub const DIR: &str = "literature";

/// Whether a reference passed the gate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Looked up by identifier, and title, an author and the year matched.
    Confirmed {
        /// When the lookup's answer was fetched (seconds since the epoch).
        verified: u64,
        /// The URL of the lookup (the audit trail: anyone can ask it again).
        endpoint: String,
    },
    /// Not verified, with the reason.
    Unconfirmed {
        /// Why not.
        reason: String,
    },
}

/// One numbered reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// `REF-001` or `UREF-001`.
    pub number: String,
    /// The metadata: a confirmed reference's is what the lookup returned.
    pub paper: Paper,
    /// Confirmed or not, and why.
    #[serde(flatten)]
    pub status: Status,
    /// Which query found it, or who proposed it.
    pub found_by: String,
}

impl Reference {
    /// Whether it is confirmed (only these may be cited).
    pub fn is_confirmed(&self) -> bool {
        matches!(self.status, Status::Confirmed { .. })
    }
}

/// One line of a subject's search history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryRow {
    /// When (seconds since the epoch).
    pub date: u64,
    /// The query group ("name: Moufang loop", "spectrum: 1,1,1,2,6,109").
    pub summary: String,
    /// Per source key: the number of results, or what went wrong ("skipped: rate limited").
    pub results: BTreeMap<String, String>,
    /// Confirmed references new to this subject that this query found.
    pub new_confirmed: usize,
}

/// An OEIS sequence that matched a subject's spectrum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OeisMatch {
    /// The sequence.
    pub sequence: Sequence,
    /// Which spectrum matched ("iso" or "labeled").
    pub spectrum: String,
    /// The terms searched for.
    pub terms: Vec<u64>,
    /// Where they start in the sequence's list of terms.
    pub position: usize,
}

/// One sequence of `literature/oeis.json`: found online, with the spectrum it matched, which
/// tells the offline recognizer whether it counts labeled structures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoundSequence {
    /// The sequence as the OEIS gave it.
    #[serde(flatten)]
    pub sequence: Sequence,
    /// "iso" or "labeled"; files written before this field hold iso matches only.
    #[serde(default = "iso")]
    pub spectrum: String,
}

fn iso() -> String {
    "iso".into()
}

impl FoundSequence {
    /// In the offline recognizer's form.
    pub fn offline(&self) -> birkhoff_checker::oeis::Sequence {
        use birkhoff_checker::oeis::Counts;
        let s = &self.sequence;
        let counts = if self.spectrum == "labeled" {
            Counts::Labeled
        } else {
            Counts::Unlabeled
        };
        birkhoff_checker::oeis::Sequence {
            id: s.a_number.clone(),
            name: s.name.clone(),
            offset: s.offset,
            counts,
            terms: s.terms.iter().map(|&t| u128::from(t)).collect(),
        }
    }
}

/// What is known about one subject.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubjectState {
    /// The title shown in LITERATURE.md.
    pub title: String,
    /// Every search made for it.
    pub history: Vec<HistoryRow>,
    /// Its references' numbers, in the order found.
    pub references: Vec<String>,
    /// OEIS sequences its spectra match.
    #[serde(default)]
    pub oeis: Vec<OeisMatch>,
    /// Spectra searched in the OEIS without a match.
    #[serde(default)]
    pub oeis_misses: Vec<Vec<u64>>,
    /// Sources queried at least once.
    pub sources_queried: Vec<String>,
    /// Last search (seconds since the epoch).
    pub last_search: u64,
}

/// The whole literature state of a library.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The last REF number given (0: none yet).
    pub last_ref: u32,
    /// The last UREF number given.
    pub last_uref: u32,
    /// Every reference, by number.
    pub references: BTreeMap<String, Reference>,
    /// Per subject key.
    pub subjects: BTreeMap<String, SubjectState>,
}

impl State {
    /// The reference with this number.
    pub fn get(&self, number: &str) -> Option<&Reference> {
        self.references.get(number)
    }

    /// A subject's references.
    pub fn of_subject(&self, key: &str) -> Vec<&Reference> {
        self.subjects.get(key).map_or_else(Vec::new, |s| {
            s.references
                .iter()
                .filter_map(|n| self.references.get(n))
                .collect()
        })
    }

    /// A subject's confirmed references: the only ones a report or a paper may cite.
    pub fn citable(&self, key: &str) -> Vec<&Reference> {
        self.of_subject(key)
            .into_iter()
            .filter(|r| r.is_confirmed())
            .collect()
    }

    /// Numbers a paper: an existing reference to the same paper keeps its number (a confirmed
    /// one stays confirmed; an unconfirmed one is replaced by a new REF once confirmed, and
    /// otherwise updated with the new reason); anything else gets the next number, which is never
    /// one given before.
    pub fn number(&mut self, paper: Paper, status: Status, found_by: &str) -> String {
        let confirmed = matches!(status, Status::Confirmed { .. });
        let same = |r: &Reference| r.paper.same_as(&paper) || shares_identifier(&r.paper, &paper);
        if let Some(r) = self
            .references
            .values()
            .find(|r| r.is_confirmed() && same(r))
        {
            return r.number.clone();
        }
        if !confirmed {
            if let Some(r) = self
                .references
                .values_mut()
                .find(|r| !r.is_confirmed() && same(r))
            {
                r.status = status;
                return r.number.clone();
            }
        }
        let number = if confirmed {
            self.last_ref += 1;
            format!("REF-{:03}", self.last_ref)
        } else {
            self.last_uref += 1;
            format!("UREF-{:03}", self.last_uref)
        };
        self.references.insert(
            number.clone(),
            Reference {
                number: number.clone(),
                paper,
                status,
                found_by: found_by.to_string(),
            },
        );
        number
    }

    /// Adds a reference to a subject; an unconfirmed reference to the same paper that it had is
    /// dropped from the subject (the reference itself stays numbered). Returns whether it is
    /// new to the subject.
    pub fn attach(&mut self, key: &str, number: &str) -> bool {
        let Some(new) = self.references.get(number).cloned() else {
            return false;
        };
        let refs = &self.references;
        let subject = self.subjects.entry(key.to_string()).or_default();
        if subject.references.iter().any(|n| n == number) {
            return false;
        }
        if new.is_confirmed() {
            subject.references.retain(|n| {
                refs.get(n)
                    .is_none_or(|r| r.is_confirmed() || !r.paper.same_as(&new.paper))
            });
        }
        subject.references.push(number.to_string());
        true
    }
}

fn shares_identifier(a: &Paper, b: &Paper) -> bool {
    let eq = |x: &Option<String>, y: &Option<String>| x.is_some() && x == y;
    eq(&a.ids.arxiv, &b.ids.arxiv) || eq(&a.ids.doi, &b.ids.doi) || eq(&a.ids.zbmath, &b.ids.zbmath)
}

/// The literature part of a library directory.
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The store of the library at `library_root`.
    pub fn new(library_root: &Path) -> Store {
        Store {
            root: library_root.to_path_buf(),
        }
    }

    fn dir(&self) -> PathBuf {
        self.root.join(DIR)
    }

    fn state_path(&self) -> PathBuf {
        self.dir().join("references.json")
    }

    /// The file of a subject's LITERATURE.md.
    pub fn literature_md(&self, key: &str) -> PathBuf {
        self.dir().join(key).join("LITERATURE.md")
    }

    /// Reads the state (empty if nothing was searched yet).
    pub fn load(&self) -> Result<State, String> {
        let path = self.state_path();
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| format!("{}: not a valid literature state: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Reads the state, lets `change` modify it, and writes it back, all under the library's
    /// lock, so that two runs never give the same number twice.
    pub fn update<T>(&self, change: impl FnOnce(&mut State) -> T) -> Result<(State, T), String> {
        std::fs::create_dir_all(self.dir())
            .map_err(|e| format!("{}: {e}", self.dir().display()))?;
        let _guard = lock::acquire(&self.root).map_err(|e| e.to_string())?;
        let mut state = self.load()?;
        let out = change(&mut state);
        let bytes = serde_json::to_vec_pretty(&state).map_err(|e| e.to_string())?;
        atomic::write(&self.state_path(), &bytes).map_err(|e| e.to_string())?;
        Ok((state, out))
    }

    /// Writes a subject's LITERATURE.md.
    pub fn write_literature_md(&self, key: &str, text: &str) -> Result<PathBuf, String> {
        let path = self.literature_md(key);
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.dir());
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        atomic::write(&path, text.as_bytes()).map_err(|e| e.to_string())?;
        Ok(path)
    }

    /// The OEIS sequences found online so far (the extension of the offline sequence file).
    pub fn oeis_sequences(&self) -> Vec<FoundSequence> {
        std::fs::read(self.dir().join("oeis.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// The offline recognizer's sequences: the embedded data file and, after it, those found
    /// online ([`Self::oeis_sequences`]) that it lacks, so that a spectrum the OEIS named once
    /// is recognized on every later run, network or not.
    pub fn offline_sequences(&self) -> Vec<birkhoff_checker::oeis::Sequence> {
        let embedded = birkhoff_checker::oeis::sequences();
        let found = self
            .oeis_sequences()
            .into_iter()
            .filter(|f| !embedded.iter().any(|e| e.id == f.sequence.a_number))
            .map(|f| f.offline());
        embedded.iter().cloned().chain(found).collect()
    }

    /// Adds the sequences of OEIS matches to `literature/oeis.json` (by A-number, each once).
    pub fn extend_oeis(&self, found: &[OeisMatch]) -> Result<(), String> {
        if found.is_empty() {
            return Ok(());
        }
        std::fs::create_dir_all(self.dir())
            .map_err(|e| format!("{}: {e}", self.dir().display()))?;
        let _guard = lock::acquire(&self.root).map_err(|e| e.to_string())?;
        let mut all = self.oeis_sequences();
        for m in found {
            if !all
                .iter()
                .any(|t| t.sequence.a_number == m.sequence.a_number)
            {
                all.push(FoundSequence {
                    sequence: m.sequence.clone(),
                    spectrum: m.spectrum.clone(),
                });
            }
        }
        all.sort_by(|a, b| a.sequence.a_number.cmp(&b.sequence.a_number));
        let bytes = serde_json::to_vec_pretty(&all).map_err(|e| e.to_string())?;
        atomic::write(&self.dir().join("oeis.json"), &bytes).map_err(|e| e.to_string())
    }
}
