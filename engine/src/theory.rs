//! Theories: a signature, named axioms, a doc string and metadata.

use crate::error::{Error, Result};
use crate::signature::Signature;
use crate::syntax::Axiom;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A many-sorted first-order theory with equality.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Theory {
    /// The theory's name, such as `Group`.
    pub name: String,
    /// What the theory is, in a sentence or two.
    pub doc: String,
    /// Free metadata: `reference`, `oeis`, `ground_truth`, ...
    pub meta: BTreeMap<String, String>,
    /// Sorts and symbols, shared like the axioms: most moves keep their parent's signature.
    pub sig: Arc<Signature>,
    /// The axioms, in order. They are shared (`Arc`): a theory derived by a move keeps its
    /// parent's axioms without copying them, which is what keeps an exploration's memory small.
    pub axioms: Vec<Arc<Axiom>>,
}

impl Theory {
    /// Parses a theory in Birkhoff's own format (see docs/THEORY_LANGUAGE.md).
    ///
    /// ```
    /// let t = birkhoff_engine::Theory::parse("theory Sg\nfunc * : 2\naxiom assoc: (x*y)*z = x*(y*z)", "sg.bk").unwrap();
    /// assert_eq!(t.axioms[0].name, "assoc");
    /// ```
    pub fn parse(src: &str, file: &str) -> Result<Theory> {
        crate::parse::parse_theory(src, file)
    }

    /// Parses any format, told by the content ([`crate::interop::detect`]): a TPTP problem or a
    /// LADR (Prover9/Mace4) input file, recognised by `formulas(`, whose conjecture or goal is
    /// kept as `meta conjecture` and never made an axiom (see [`crate::interop::import`]), or
    /// Birkhoff's own format.
    pub fn parse_any(src: &str, file: &str) -> Result<Theory> {
        match crate::interop::detect(src) {
            crate::interop::Format::Tptp | crate::interop::Format::Ladr => {
                crate::interop::import(src, file).map(|i| i.theory)
            }
            crate::interop::Format::Birkhoff => Theory::parse(src, file),
        }
    }

    /// Reads a theory file in either format.
    pub fn from_file(path: &std::path::Path) -> Result<Theory> {
        let src = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        Theory::parse_any(&src, &path.display().to_string())
    }

    /// A seed name (`group`), a catalogue entry's name (`moufang_loop`, `bol_loop_left`) or a
    /// path to a theory file. Seeds are tried before the rest of the catalogue.
    pub fn load(name_or_path: &str) -> Result<Theory> {
        let path = std::path::Path::new(name_or_path);
        if path.exists() && path.is_file() {
            return Theory::from_file(path);
        }
        let found = match crate::seeds::load(name_or_path) {
            Err(Error::UnknownSeed(name)) => match crate::catalogue::entry(name_or_path) {
                Some(entry) => entry.theory(),
                None => Err(Error::UnknownSeed(name)),
            },
            other => other,
        };
        match found {
            Err(Error::UnknownSeed(_)) if name_or_path.contains(['/', '.']) => Err(Error::Io {
                path: name_or_path.to_string(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such file (nor a seed or catalogue entry of that name)",
                ),
            }),
            other => other,
        }
    }

    /// The axiom called `name`.
    pub fn axiom(&self, name: &str) -> Option<&Axiom> {
        self.axioms.iter().find(|a| a.name == name).map(Arc::as_ref)
    }

    /// The theory in Birkhoff's format; [`Theory::parse`] reads it back to an equal theory.
    pub fn to_text(&self) -> String {
        crate::print::theory_to_text(self)
    }

    /// A fingerprint that ignores variable names, axiom order, duplicate axioms and axiom names.
    pub fn fingerprint(&self) -> crate::fingerprint::Fingerprint {
        crate::fingerprint::Fingerprint::of(self)
    }
}

/// Whether a text looks like Mace4/Prover9 input rather than a Birkhoff theory file.
pub fn is_mace4_input(src: &str) -> bool {
    src.lines()
        .map(str::trim)
        .any(|l| l.starts_with("formulas(") || l.starts_with("formulas ("))
}
