//! The workspace directory `<library>/research/<slug>/`: making it for a discovery, reading and
//! validating its records, giving new records their IDs, and writing its files with the
//! library's atomic writer under the library's lock.

use crate::record::{self, Actor, Confidence, Hypothesis, HypothesisStatus, Kind, Problem, Record};
use crate::text::md;
use crate::{io_err, Error, Result};
use birkhoff_library::documents::RESEARCH_DIR;
use birkhoff_library::record::{Body, ConjectureStatus, TheoryRec};
use birkhoff_library::{atomic, lock, Library};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The files a workspace holds besides its records, in the order `status` lists them.
pub const FILES: [&str; 7] = [
    "PROBLEM.md",
    "LITERATURE.md",
    "PROOF.md",
    "COMPUTATION.md",
    "STATE.md",
    "SYNTHESIS.md",
    OUTPUT,
];

/// The paper's file (the paper crate's), written by `open` and by the writing step.
pub const OUTPUT: &str = birkhoff_paper::TEX_FILE;

/// The largest workspace file read (PROBLEM.md, PROOF.md, ...), in bytes: far more than the steps
/// write, so only a file put there by hand reaches it, and is then refused unread.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Longest workspace name.
const MAX_SLUG: usize = 60;

/// What PROBLEM.md's front matter says about the discovery.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Meta {
    /// Always [`record::SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The discovery's name in the library.
    pub discovery: String,
    /// Its theory record.
    pub theory_id: String,
    /// When the workspace was opened.
    pub created: String,
}

/// An open workspace.
#[derive(Clone, Debug)]
pub struct Workspace {
    /// The library directory it lives in.
    pub library_root: PathBuf,
    /// Its name, the directory's.
    pub slug: String,
    /// Its directory.
    pub dir: PathBuf,
}

/// The records of a workspace as read, and the problems found.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    /// Every record that parsed, sorted by kind (hypotheses, tasks, leads, attempts) and ID.
    pub records: Vec<Record>,
    /// Every fault found, sorted by file.
    pub problems: Vec<Problem>,
}

impl Loaded {
    /// The records of one kind, by ID.
    pub fn of(&self, kind: Kind) -> impl Iterator<Item = &Record> {
        self.records.iter().filter(move |r| r.kind() == kind)
    }

    /// The hypotheses, by ID.
    pub fn hypotheses(&self) -> impl Iterator<Item = &Hypothesis> {
        self.records.iter().filter_map(|r| {
            if let Record::Hypothesis(h) = r {
                Some(h)
            } else {
                None
            }
        })
    }

    /// The attempts, by ID (which is the order they were made).
    pub fn attempts(&self) -> impl Iterator<Item = &record::Attempt> {
        self.records.iter().filter_map(|r| {
            if let Record::Attempt(a) = r {
                Some(a)
            } else {
                None
            }
        })
    }
}

/// `name` as a workspace name: lower-case ASCII letters and digits, runs of anything else one
/// `-`, at most 60 characters; `None` if nothing is left.
pub fn slug_of(name: &str) -> Option<String> {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    let s: String = s.chars().take(MAX_SLUG).collect();
    let s = s.trim_end_matches('-').to_string();
    (!s.is_empty()).then_some(s)
}

/// Whether `s` is a workspace name [`slug_of`] could give (so that it can be a path).
pub fn is_slug(s: &str) -> bool {
    slug_of(s).as_deref() == Some(s)
}

/// The discovery named `name` (its record ID, its name or one of its aliases): its ID and record.
pub fn find_discovery(lib: &Library, name: &str) -> Result<(String, TheoryRec)> {
    if birkhoff_library::id::dir_of(name) == Some("theories") {
        return match lib.get(name) {
            Ok(r) => match r.body {
                Body::Theory(t) => Ok((r.id, t)),
                _ => Err(Error::NoDiscovery(crate::text::quote(name))),
            },
            Err(birkhoff_library::Error::NotFound(_)) => {
                Err(Error::NoDiscovery(crate::text::quote(name)))
            }
            Err(e) => Err(e.into()),
        };
    }
    let mut found: Vec<(String, TheoryRec)> = lib
        .list("theory")?
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Theory(t)
                if t.discovery && (t.name == name || t.aliases.iter().any(|a| a.name == name)) =>
            {
                Some((r.id, t))
            }
            _ => None,
        })
        .collect();
    // A name given first beats an alias; the list is sorted by file name, so the pick is stable.
    found.sort_by_key(|(_, t)| t.name != name);
    found
        .into_iter()
        .next()
        .ok_or_else(|| Error::NoDiscovery(crate::text::quote(name)))
}

impl Workspace {
    /// The workspace `slug` of the library at `library_root`, which must exist.
    pub fn open(library_root: &Path, slug: &str) -> Result<Workspace> {
        let dir = library_root.join(RESEARCH_DIR).join(slug);
        if !is_slug(slug) || !dir.join("PROBLEM.md").is_file() {
            return Err(Error::NoWorkspace(crate::text::quote(slug)));
        }
        Ok(Workspace {
            library_root: library_root.to_path_buf(),
            slug: slug.to_string(),
            dir,
        })
    }

    /// Every workspace of the library, by name.
    pub fn all(library_root: &Path) -> Result<Vec<Workspace>> {
        let root = library_root.join(RESEARCH_DIR);
        let entries = match std::fs::read_dir(&root) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_err(&root)(e)),
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        names.sort();
        Ok(names
            .iter()
            .filter_map(|n| Workspace::open(library_root, n).ok())
            .collect())
    }

    /// Makes (or completes) the workspace of the discovery `name`: its directory and files,
    /// and a hypothesis for each of the library's conjectures about it that no hypothesis
    /// mirrors yet. A new workspace first asks the conjecture engine for equations true in the
    /// discovery's small models, so that the proof step has something to try. Files already there are left as they are, so opening twice changes
    /// nothing. Returns the workspace and whether it was new.
    pub fn create(lib: &mut Library, name: &str) -> Result<(Workspace, bool)> {
        let (theory_id, theory) = find_discovery(lib, name)?;
        let slug = slug_of(&theory.name).unwrap_or_else(|| theory_id.clone());
        let dir = lib.root().join(RESEARCH_DIR).join(&slug);
        let ws = Workspace {
            library_root: lib.root().to_path_buf(),
            slug,
            dir,
        };
        let fresh = !ws.dir.join("PROBLEM.md").exists();
        if !fresh {
            let meta = ws.meta()?;
            if meta.theory_id != theory_id {
                return Err(Error::Workspace(format!(
                    "{} belongs to {} ({}), not to {theory_id}",
                    ws.dir.display(),
                    meta.discovery,
                    meta.theory_id
                )));
            }
        }
        for sub in Kind::ALL {
            let d = ws.dir.join("records").join(sub.dir());
            std::fs::create_dir_all(&d).map_err(io_err(&d))?;
        }
        let meta = Meta {
            schema_version: record::SCHEMA_VERSION,
            discovery: theory.name.clone(),
            theory_id: theory_id.clone(),
            created: crate::now(),
        };
        ws.write_missing("PROBLEM.md", &problem_md(lib, &meta, &theory)?)?;
        ws.write_missing("LITERATURE.md", "# Literature\n\nNot searched yet: the literature step (`birkhoff research step`) runs Birkhoff's literature agent when the network is there and puts its LITERATURE.md here.\n")?;
        ws.write_missing("PROOF.md", "# Proofs\n\nEach proof step tries the active hypotheses with the prover and adds the proofs it finds here, as numbered equational steps checked from their text.\n")?;
        ws.write_missing("COMPUTATION.md", "# Computation\n\nEach computation step counts the models to a larger size and adds its table here.\n")?;
        if fresh {
            crate::steps::conjecture(lib, &meta)?;
        }
        ws.import_conjectures(lib, &theory_id)?;
        if !ws.dir.join(OUTPUT).exists() {
            // The paper as the library has it now; the writing step rewrites it after the others.
            crate::steps::write_paper(lib, &ws, &meta, birkhoff_paper::Compile::No)?;
        }
        crate::steps::refresh(lib, &ws)?;
        Ok((ws, fresh))
    }

    /// PROBLEM.md's front matter.
    pub fn meta(&self) -> Result<Meta> {
        let path = self.dir.join("PROBLEM.md");
        let text = atomic::read_text(&path, MAX_FILE_BYTES)?;
        let front = text
            .strip_prefix("---\n")
            .and_then(|rest| rest.split_once("\n---\n"))
            .map(|(f, _)| f);
        let front = front.ok_or_else(|| {
            Error::Workspace(format!(
                "{}: no front matter (a block between --- lines at the top)",
                path.display()
            ))
        })?;
        serde_saphyr::from_str::<Meta>(front).map_err(|e| {
            Error::Workspace(format!(
                "{}: front matter: {}",
                path.display(),
                e.to_string().lines().next().unwrap_or("")
            ))
        })
    }

    /// Reads every record and validates it; never fails on a bad record (that is a problem in
    /// the result), only when a directory cannot be read.
    pub fn load(&self) -> Result<Loaded> {
        let mut parsed: Vec<(String, String, String, Record)> = Vec::new();
        let mut problems = Vec::new();
        let records = self.dir.join("records");
        for kind in Kind::ALL {
            let d = records.join(kind.dir());
            for path in yaml_files(&d)? {
                let file = format!(
                    "records/{}/{}",
                    kind.dir(),
                    path.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                );
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let text = match atomic::read(&path, record::MAX_RECORD_BYTES)
                    .map(|b| String::from_utf8(b.unwrap_or_default()))
                {
                    Ok(Ok(t)) => t,
                    Ok(Err(e)) => {
                        problems.push(Problem {
                            file,
                            field: "-".into(),
                            line: None,
                            column: None,
                            message: format!("cannot be read: {e}"),
                        });
                        continue;
                    }
                    Err(e) => {
                        problems.push(Problem {
                            file,
                            field: "-".into(),
                            line: None,
                            column: None,
                            message: format!("cannot be read: {e}"),
                        });
                        continue;
                    }
                };
                match Record::parse(kind, &file, &text) {
                    Ok(r) => parsed.push((file, stem, text, r)),
                    Err(p) => problems.push(p),
                }
            }
        }
        let ids: BTreeSet<String> = parsed
            .iter()
            .map(|(_, _, _, r)| r.id().to_string())
            .collect();
        let mut seen = BTreeSet::new();
        for (file, stem, text, r) in &parsed {
            problems.extend(record::validate(r, file, text, stem, &ids));
            if !seen.insert(r.id().to_string()) {
                problems.push(Problem::at(
                    file,
                    text,
                    "id",
                    format!("`{}` is used by another file too", r.id()),
                ));
            }
        }
        problems.sort();
        let mut records: Vec<Record> = parsed.into_iter().map(|(_, _, _, r)| r).collect();
        records.sort_by(|a, b| {
            a.kind()
                .cmp(&b.kind())
                .then_with(|| id_order(a.id()).cmp(&id_order(b.id())))
        });
        Ok(Loaded { records, problems })
    }

    /// Stores a new record of `kind`: `make` gets its ID, the next number of that kind. Numbers
    /// are never reused: the highest ever given is kept in `records/<kind>/.last`, and the
    /// number is taken under the library's lock.
    pub fn add(&self, kind: Kind, make: impl FnOnce(String) -> Record) -> Result<Record> {
        let _guard = lock::acquire(&self.library_root)?;
        let d = self.dir.join("records").join(kind.dir());
        std::fs::create_dir_all(&d).map_err(io_err(&d))?;
        let last_path = d.join(".last");
        let last: u32 = atomic::read_text(&last_path, 64)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        let highest = yaml_files(&d)?
            .iter()
            .filter_map(|p| {
                p.file_stem()?
                    .to_str()
                    .and_then(|s| s.split_once('-'))
                    .and_then(|(_, n)| n.parse::<u32>().ok())
            })
            .max()
            .unwrap_or(0);
        let n = last.max(highest) + 1;
        let rec = make(kind.id(n));
        if rec.kind() != kind || rec.id() != kind.id(n) {
            return Err(Error::Workspace(format!(
                "internal: a new {} record must have ID {}",
                kind.dir(),
                kind.id(n)
            )));
        }
        atomic::write(&last_path, format!("{n}\n").as_bytes())?;
        if !atomic::write_new(&self.record_path(&rec), rec.to_yaml().as_bytes())? {
            return Err(Error::Workspace(format!(
                "{} exists already",
                self.record_path(&rec).display()
            )));
        }
        Ok(rec)
    }

    /// Rewrites an existing record's file (a status changed).
    pub fn update(&self, rec: &Record) -> Result<()> {
        let _guard = lock::acquire(&self.library_root)?;
        atomic::write(&self.record_path(rec), rec.to_yaml().as_bytes())?;
        Ok(())
    }

    fn record_path(&self, rec: &Record) -> PathBuf {
        self.dir
            .join("records")
            .join(rec.kind().dir())
            .join(format!("{}.yaml", rec.id()))
    }

    /// Writes `name` (one of [`FILES`] or [`OUTPUT`]) atomically, under the lock.
    pub fn write(&self, name: &str, text: &str) -> Result<()> {
        let _guard = lock::acquire(&self.library_root)?;
        atomic::write(&self.dir.join(name), text.as_bytes())?;
        Ok(())
    }

    /// Reads `name`; an empty string if it is missing. A symbolic link or a file larger than
    /// [`MAX_FILE_BYTES`] is an error naming it.
    pub fn read(&self, name: &str) -> Result<String> {
        Ok(atomic::read_text(&self.dir.join(name), MAX_FILE_BYTES)?)
    }

    /// Adds `section` at the end of `name` (the cumulative files: each run one more section).
    pub fn append(&self, name: &str, section: &str) -> Result<()> {
        let _guard = lock::acquire(&self.library_root)?;
        let path = self.dir.join(name);
        // Never through a link: a PROOF.md linked to a file outside the library would copy it in.
        let mut text = atomic::read_text(&path, MAX_FILE_BYTES)?;
        if !text.is_empty() && !text.ends_with("\n\n") {
            text.push_str(if text.ends_with('\n') { "\n" } else { "\n\n" });
        }
        text.push_str(section);
        atomic::write(&path, text.as_bytes())?;
        Ok(())
    }

    fn write_missing(&self, name: &str, text: &str) -> Result<()> {
        let _guard = lock::acquire(&self.library_root)?;
        atomic::write_new(&self.dir.join(name), text.as_bytes())?;
        Ok(())
    }

    /// A hypothesis for each of the library's conjectures about `theory_id` not mirrored yet.
    fn import_conjectures(&self, lib: &Library, theory_id: &str) -> Result<()> {
        let loaded = self.load()?;
        let mirrored: BTreeSet<String> = loaded
            .hypotheses()
            .filter_map(|h| h.conjecture.clone())
            .collect();
        for r in lib.list("conjecture")? {
            let Body::Conjecture(c) = &r.body else {
                continue;
            };
            if c.theory_id != theory_id || mirrored.contains(&r.id) {
                continue;
            }
            let (status, confidence) = match c.status {
                ConjectureStatus::Open => (HypothesisStatus::Active, Confidence::High),
                ConjectureStatus::Refuted => (HypothesisStatus::Refuted, Confidence::High),
                ConjectureStatus::Proved => (HypothesisStatus::Proved, Confidence::High),
            };
            let now = crate::now();
            let evidence = if c.evidence.trim().is_empty() {
                vec![]
            } else {
                vec![crate::text::cut(&c.evidence, record::MAX_ITEM)
                    .unwrap_or_else(|| c.evidence.clone())]
            };
            self.add(Kind::Hypothesis, |id| {
                Record::Hypothesis(Hypothesis {
                    schema_version: record::SCHEMA_VERSION,
                    id,
                    statement: c.statement.clone(),
                    status,
                    confidence,
                    conjecture: Some(r.id.clone()),
                    evidence,
                    notes: format!(
                        "From the library's conjecture {} (proposed by {}).",
                        r.id, c.proposed_by
                    ),
                    by: Actor::Offline,
                    created: now.clone(),
                    updated: now.clone(),
                })
            })?;
        }
        Ok(())
    }
}

/// `H-007` before `H-010` before `H-1000`: by number, then by text for malformed IDs.
fn id_order(id: &str) -> (u64, String) {
    (
        id.split_once('-')
            .and_then(|(_, n)| n.parse().ok())
            .unwrap_or(u64::MAX),
        id.to_string(),
    )
}

/// The `.yaml` files of a directory, sorted; a missing directory has none.
fn yaml_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err(dir)(e)),
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "yaml")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(atomic::TEMP_PREFIX))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// PROBLEM.md: the front matter, the theory, what the library knows of it, the goals.
fn problem_md(lib: &Library, meta: &Meta, t: &TheoryRec) -> Result<String> {
    let front = serde_saphyr::to_string(meta)
        .map_err(|e| Error::Workspace(format!("PROBLEM.md front matter: {e}")))?;
    let mut s = format!(
        "---\n{}---\n\n# Problem: {}\n\n",
        if front.ends_with('\n') {
            front
        } else {
            front + "\n"
        },
        md(&t.name)
    );
    s.push_str(&format!("What is known about {}, what can be proved about it, and how many models does it have? The library's record is `{}`.\n\n", md(&t.name), meta.theory_id));
    s.push_str("## The theory\n\n```\n");
    s.push_str(t.text.trim_end());
    s.push_str("\n```\n\n## What the library knows\n\n");
    s.push_str(&format!("- Origin: {}\n", md(&t.origin)));
    if !t.parents.is_empty() {
        s.push_str(&format!("- Parents: {}\n", md(&t.parents.join(", "))));
    }
    if let Some(score) = &t.score {
        s.push_str(&format!("- Score: {:.3}\n", score.total));
    }
    if !t.notes.trim().is_empty() {
        s.push_str(&format!("- Why it was kept: {}\n", md(&t.notes)));
    }
    let spectrum = lib.spectrum_of(&meta.theory_id)?;
    if !spectrum.is_empty() {
        let cells: Vec<String> = spectrum
            .iter()
            .map(|r| format!("{:?}: {}", r.sizes, r.iso))
            .collect();
        s.push_str(&format!(
            "- Models up to isomorphism: {}\n",
            cells.join(", ")
        ));
    }
    s.push_str("\n## Goals\n\n- Search the literature: is it known? (literature)\n- Settle the active hypotheses (proof)\n");
    s.push_str(&format!(
        "- Count the models to size {} (computation)\n- Write it up as OUTPUT.tex (writing)\n",
        crate::state::TARGET_SIZE
    ));
    Ok(s)
}
