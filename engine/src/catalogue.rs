//! The catalogue: named classes from the literature, which recognition compares theories against.
//!
//! The catalogue is every seed (`seeds/*.bk`, the theories the explorer starts from) together with
//! the files of `catalogue/*.bk`, all embedded at build time. Each entry is a theory file whose
//! header carries (docs/THEORY_LANGUAGE.md, docs/CATALOGUE.md):
//! - `doc`: what the class is;
//! - `meta reference`: a book or paper, with its year;
//! - `meta oeis` (optional): the OEIS sequence of its spectrum up to isomorphism, with
//!   `meta oeis_shift` when the count at order n is the sequence's term n + shift;
//! - `meta implies` (optional): entries it implies, each to be proved by the prover (the
//!   catalogue's tests prove every one);
//! - `meta implies_literature` (optional): entries it implies by a theorem of the literature
//!   that the prover is not asked to repeat (such as a signature change: a group is a loop
//!   whose divisions are `x \ y = inv(x) * y`).
//!
//! Entry names are file stems (`moufang_loop`); no catalogue file has a seed's name.

use crate::error::{Error, Result};
use crate::theory::Theory;
use serde::Serialize;

/// A catalogue file's name (without `.bk`) and its text.
#[derive(Clone, Copy, Debug)]
pub struct File {
    /// The file stem, such as `bol_loop_left`.
    pub name: &'static str,
    /// The theory file's text.
    pub source: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// Where an entry's file lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// `seeds/NAME.bk`: also a starting point of the explorer.
    Seed,
    /// `catalogue/NAME.bk`.
    Catalogue,
}

/// One named class: its name, text and where it comes from.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The entry's name: its file stem.
    pub name: &'static str,
    /// The theory file's text.
    pub source: &'static str,
    /// Seed or catalogue file.
    pub origin: Origin,
}

impl Entry {
    /// The file the entry was read from, for error messages: `seeds/group.bk`.
    pub fn path(&self) -> String {
        match self.origin {
            Origin::Seed => format!("seeds/{}.bk", self.name),
            Origin::Catalogue => format!("catalogue/{}.bk", self.name),
        }
    }

    /// The entry's theory, parsed.
    pub fn theory(&self) -> Result<Theory> {
        Theory::parse(self.source, &self.path())
    }
}

/// Every entry, seeds and catalogue files together, sorted by name.
pub fn all() -> Vec<Entry> {
    let seeds = crate::seeds::all().iter().map(|s| Entry {
        name: s.name,
        source: s.source,
        origin: Origin::Seed,
    });
    let files = FILES.iter().map(|f| Entry {
        name: f.name,
        source: f.source,
        origin: Origin::Catalogue,
    });
    let mut v: Vec<Entry> = seeds.chain(files).collect();
    v.sort_by_key(|e| e.name);
    v
}

/// The lookup key of a name: lower case without `_` and `-`, so that `MoufangLoop`,
/// `moufang-loop` and `moufang_loop` are the same.
fn key(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The entry called `name` (its file stem, ignoring case and `-`/`_`).
pub fn entry(name: &str) -> Option<Entry> {
    let wanted = key(name);
    all().into_iter().find(|e| key(e.name) == wanted)
}

/// The entry called `name`, parsed. Matching ignores case and `-`/`_` and also accepts the
/// theory's own name (`BolLoopLeft` finds `bol_loop_left`).
pub fn load(name: &str) -> Result<Theory> {
    if let Some(e) = entry(name) {
        return e.theory();
    }
    let wanted = key(name);
    for e in all() {
        let t = e.theory()?;
        if key(&t.name) == wanted {
            return Ok(t);
        }
    }
    Err(Error::UnknownEntry(name.to_string()))
}

/// How an implication stated in a catalogue file is supported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Stated under `meta implies`: the catalogue's tests prove it with the prover.
    Prover,
    /// Stated under `meta implies_literature`: a theorem of the entry's references.
    Literature,
}

/// "Every model of this entry is (or gives) a model of `target`."
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Implication {
    /// The implied entry's name.
    pub target: String,
    /// How the implication is supported.
    pub basis: Basis,
}

/// What a catalogue entry's header says besides its axioms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Info {
    /// The entry's name (file stem).
    pub name: String,
    /// The theory's own name, such as `MoufangLoop`.
    pub theory: String,
    /// Seed or catalogue file.
    pub origin: Origin,
    /// The doc string.
    pub doc: String,
    /// The reference (book or paper, with year).
    pub reference: String,
    /// The OEIS A-number of the spectrum up to isomorphism, if there is one.
    pub oeis: Option<String>,
    /// The count of models of order n is the sequence's term `n + oeis_shift`.
    pub oeis_shift: i64,
    /// Stated implications to other entries.
    pub implies: Vec<Implication>,
}

/// A comma-separated list of names; empty items are dropped.
fn names(list: Option<&String>) -> Vec<String> {
    list.map(|s| {
        s.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    })
    .unwrap_or_default()
}

/// Reads an entry's header. Fails (naming the file) when `oeis_shift` is not an integer.
pub fn info(entry: &Entry) -> Result<Info> {
    let t = entry.theory()?;
    info_of(entry.name, entry.origin, &t)
        .map_err(|why| Error::Catalogue(format!("{}: {why}", entry.path())))
}

/// [`info`] for an already parsed theory.
pub fn info_of(name: &str, origin: Origin, t: &Theory) -> std::result::Result<Info, String> {
    let oeis_shift = match t.meta.get("oeis_shift") {
        None => 0,
        Some(s) => s
            .trim()
            .parse()
            .map_err(|_| format!("meta oeis_shift `{s}` is not an integer"))?,
    };
    let mut implies: Vec<Implication> = names(t.meta.get("implies"))
        .into_iter()
        .map(|target| Implication {
            target,
            basis: Basis::Prover,
        })
        .collect();
    implies.extend(
        names(t.meta.get("implies_literature"))
            .into_iter()
            .map(|target| Implication {
                target,
                basis: Basis::Literature,
            }),
    );
    Ok(Info {
        name: name.to_string(),
        theory: t.name.clone(),
        origin,
        doc: t.doc.clone(),
        reference: t.meta.get("reference").cloned().unwrap_or_default(),
        oeis: t
            .meta
            .get("oeis")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty()),
        oeis_shift,
        implies,
    })
}

/// Every entry with its header and theory, sorted by name. Fails on the first file that does not
/// parse (the catalogue's tests keep every file parsing).
pub fn entries() -> Result<Vec<(Info, Theory)>> {
    all()
        .into_iter()
        .map(|e| {
            let t = e.theory()?;
            let i = info_of(e.name, e.origin, &t)
                .map_err(|why| Error::Catalogue(format!("{}: {why}", e.path())))?;
            Ok((i, t))
        })
        .collect()
}

/// `target`'s axioms restated over `source`'s signature, so that the prover can ask whether
/// `source` implies each of them (the question behind every `meta implies`). Each keeps its name.
/// Fails, saying which symbol, when `target` uses a symbol that `source` lacks or declares with
/// another profile: then the implication is not a matter of axioms alone (a group is a loop only
/// once its divisions are defined), and a catalogue file states it under `implies_literature`.
pub fn axioms_over(source: &Theory, target: &Theory) -> Result<Vec<crate::syntax::Axiom>> {
    let (s, t) = (&source.sig, &target.sig);
    let mismatch = |what: String| {
        Error::Catalogue(format!(
            "{} cannot state the axioms of {}: {what}",
            source.name, target.name
        ))
    };
    for f in t.func_ids() {
        let name = &t.func_decl(f).name;
        match s.func(name) {
            Some(g)
                if s.func_profile(g) == t.func_profile(f)
                    && s.func_decl(g).fixity == t.func_decl(f).fixity => {}
            Some(g) => {
                return Err(mismatch(format!(
                    "`{}` against `{}` (or another fixity)",
                    t.func_profile(f),
                    s.func_profile(g)
                )))
            }
            None => return Err(mismatch(format!("no symbol `{name}`"))),
        }
    }
    for r in t.rel_ids() {
        let name = &t.rel_decl(r).name;
        match s.rel(name) {
            Some(q)
                if s.rel_profile(q) == t.rel_profile(r)
                    && s.rel_decl(q).fixity == t.rel_decl(r).fixity => {}
            Some(q) => {
                return Err(mismatch(format!(
                    "`{}` against `{}` (or another fixity)",
                    t.rel_profile(r),
                    s.rel_profile(q)
                )))
            }
            None => return Err(mismatch(format!("no relation `{name}`"))),
        }
    }
    // Printing with the target's signature and reading back with the source's: the printer's
    // output parses to the same formula (print.rs), and the symbols have the same profiles.
    let mut text = source.to_text();
    for (i, a) in target.axioms.iter().enumerate() {
        text.push_str(&format!(
            "axiom goal_{i}_{}: {}\n",
            source.axioms.len(),
            crate::print::FormulaPrinter::new(t, a).formula(&a.formula)
        ));
    }
    let parsed = Theory::parse(
        &text,
        &format!("{} with the axioms of {}", source.name, target.name),
    )?;
    Ok(parsed.axioms[source.axioms.len()..]
        .iter()
        .zip(&target.axioms)
        .map(|(a, orig)| crate::syntax::Axiom {
            name: orig.name.clone(),
            ..a.as_ref().clone()
        })
        .collect())
}
