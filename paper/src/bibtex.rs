//! references.bib: one BibTeX entry per confirmed reference (REF-NNN), keyed by its number, so
//! that the paper's `\cite{REF-001}` works with BibTeX too. Unconfirmed references (UREF) never
//! reach the paper: [`crate::Paper::gather`] keeps only what `State::citable` returns.

use crate::escape::text;
use crate::Paper;
use birkhoff_literature::paper::Ids;
use std::fmt::Write;

/// A reference's identifiers in words (`doi:10.1000/x, arXiv:2301.12345, zbMATH 1234567`), or
/// `None` when it has none.
pub fn identifiers(ids: &Ids) -> Option<String> {
    let parts: Vec<String> = [
        ids.doi.as_ref().map(|d| format!("doi:{d}")),
        ids.arxiv.as_ref().map(|a| format!("arXiv:{a}")),
        ids.zbmath.as_ref().map(|z| format!("zbMATH {z}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A reference's citation key: its number (`REF-001`) with anything but ASCII letters, digits
/// and `-` dropped. The number is read from a file a user can edit, and a key is used raw by
/// `\cite`, `\bibitem` and BibTeX.
pub fn key(number: &str) -> String {
    let k: String = number
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    if k.is_empty() {
        "REF".into()
    } else {
        k
    }
}

/// Text for a BibTeX field: LaTeX-escaped (BibTeX passes it to LaTeX as it is), with braces as
/// `\textbraceleft{}` and `\textbraceright{}`: BibTeX counts every brace, escaped or not, so a
/// title with one `{` escaped as `\{` would unbalance the entry.
fn bib_text(s: &str) -> String {
    text(s)
        .replace("\\{", "\\textbraceleft{}")
        .replace("\\}", "\\textbraceright{}")
}

/// A BibTeX field value: [`bib_text`] inside braces.
fn field(s: &str) -> String {
    format!("{{{}}}", bib_text(s))
}

impl Paper {
    /// The bibliography as BibTeX: confirmed references only, each keyed by its REF number.
    pub fn to_bibtex(&self) -> String {
        // The ID, not the name, in the header: outside entries BibTeX reads `@` as a new entry.
        let mut out = format!(
            "% Confirmed references of discovery {}, written by `birkhoff paper`.\n",
            self.id
        );
        for r in &self.references {
            let p = &r.paper;
            let kind = if p.ids.arxiv.is_some() && p.ids.doi.is_none() {
                "misc"
            } else {
                "article"
            };
            let _ = writeln!(out, "\n@{kind}{{{},", key(&r.number));
            let _ = writeln!(out, "  title = {},", field(&p.title));
            if !p.authors.is_empty() {
                // BibTeX separates authors with `and`; a name is escaped on its own.
                let _ = writeln!(
                    out,
                    "  author = {{{}}},",
                    p.authors
                        .iter()
                        .map(|a| bib_text(a))
                        .collect::<Vec<_>>()
                        .join(" and ")
                );
            }
            if let Some(y) = p.year {
                let _ = writeln!(out, "  year = {{{y}}},");
            }
            if let Some(d) = &p.ids.doi {
                let _ = writeln!(out, "  doi = {},", field(d));
            }
            if let Some(a) = &p.ids.arxiv {
                let _ = writeln!(
                    out,
                    "  eprint = {},\n  archivePrefix = {{arXiv}},",
                    field(a)
                );
            }
            if let Some(z) = &p.ids.zbmath {
                let _ = writeln!(out, "  note = {{zbMATH {}}},", bib_text(z));
            }
            out.push_str("}\n");
        }
        out
    }
}
