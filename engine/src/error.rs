//! Errors of the engine crate, and located diagnostics for source text.

use std::fmt;

/// One problem in a source text, located at `file:line:column`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// File name as given to the parser.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong, in words a user can act on.
    pub message: String,
    /// The offending line, for display: whole when it has at most [`SHOWN_CHARS`] characters,
    /// else that many around the column, with `…` where it was cut (a generated file's line of
    /// 200 KB is not printed whole).
    pub line_text: String,
    /// Where in `line_text` (in characters) the column falls, so the caret goes under it.
    pub caret: usize,
    /// How many characters to underline (at least 1, at most what `line_text` shows from the caret).
    pub width: usize,
}

/// The most characters of a line a [`Diagnostic`] shows.
pub const SHOWN_CHARS: usize = 160;

/// How many characters before the column a cut line keeps.
const SHOWN_BEFORE: usize = 60;

impl Diagnostic {
    /// A diagnostic for the `width` characters at byte offset `offset` of `src`.
    pub fn at(
        file: &str,
        src: &str,
        offset: usize,
        width: usize,
        message: impl Into<String>,
    ) -> Self {
        let offset = offset.min(src.len());
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = src[line_start..offset].chars().count() + 1;
        let whole = src[line_start..].lines().next().unwrap_or("");
        let length = whole.chars().count();
        let (line_text, caret) = if length <= SHOWN_CHARS {
            (whole.to_string(), column - 1)
        } else {
            let from = (column - 1)
                .saturating_sub(SHOWN_BEFORE)
                .min(length - SHOWN_CHARS);
            let cut_before = from > 0;
            let cut_after = from + SHOWN_CHARS < length;
            let kept: String = whole.chars().skip(from).take(SHOWN_CHARS).collect();
            let text = format!(
                "{}{kept}{}",
                if cut_before { "…" } else { "" },
                if cut_after { "…" } else { "" }
            );
            (text, column - 1 - from + usize::from(cut_before))
        };
        let visible = line_text.chars().count().saturating_sub(caret).max(1);
        Diagnostic {
            file: file.to_string(),
            line,
            column,
            message: shorten_quotes(&message.into()),
            line_text,
            caret,
            width: width.clamp(1, visible),
        }
    }
}

/// The line starts of a source text, so that a parser can locate every axiom it reads in
/// logarithmic time: counting the newlines from the start for each one made reading 10,000
/// axioms quadratic (30 s).
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// Indexes `src`'s lines.
    pub fn new(src: &str) -> Lines {
        Lines {
            starts: std::iter::once(0)
                .chain(src.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        }
    }

    /// The 1-based line and column (in characters, as [`Diagnostic::at`] counts them) of byte
    /// `offset` of `src`, the text this index was made from.
    pub fn locate(&self, src: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(src.len());
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        (line, src[start..offset].chars().count() + 1)
    }
}

/// The most characters of a `quoted` piece of the input that a message shows.
const QUOTED_CHARS: usize = 40;

/// `message` with every `quoted` piece of the input longer than [`QUOTED_CHARS`] cut to that
/// many characters and `…`: messages quote names from the file, and a name can be 10,000
/// characters long.
fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    for (i, piece) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd pieces are inside backticks (an unpaired last one is left as it is).
        if i % 2 == 1 && piece.chars().count() > QUOTED_CHARS {
            out.extend(piece.chars().take(QUOTED_CHARS));
            out.push('…');
        } else {
            out.push_str(piece);
        }
    }
    out
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let num = self.line.to_string();
        let pad = " ".repeat(num.len());
        writeln!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )?;
        writeln!(f, "{pad} |")?;
        writeln!(f, "{num} | {}", self.line_text)?;
        let indent: String = self
            .line_text
            .chars()
            .take(self.caret)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "{pad} | {indent}{}", "^".repeat(self.width))
    }
}

/// Every problem found in one source text, in order of position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Errors of the engine crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The text of a theory or structure has errors; each is located.
    #[error("{0}")]
    Source(Diagnostics),
    /// No seed has this name.
    #[error("no seed theory or catalogue entry is called `{0}` (run `birkhoff seeds` or `birkhoff catalogue list` for the lists)")]
    UnknownSeed(String),
    /// No catalogue entry has this name.
    #[error("no catalogue entry is called `{0}` (run `birkhoff catalogue list` for the list)")]
    UnknownEntry(String),
    /// A catalogue file's header is malformed.
    #[error("{0}")]
    Catalogue(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A theory cannot be written in the format asked for (or read back from it).
    #[error("{0}")]
    Export(String),
    /// A structure does not fit the signature it is meant for.
    #[error("structure does not fit the signature: {0}")]
    Structure(String),
}

/// Result with the engine's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::{Diagnostic, Lines};

    /// [`Lines`] locates every offset as [`Diagnostic::at`] does, which counts from the start.
    #[test]
    fn lines_locate_as_diagnostics_do() {
        for src in [
            "",
            "a",
            "\n",
            "ab\ncd\n\né\tf\n",
            "x\n\n\ny = z\n  axiom a: é = b\nlast",
        ] {
            let lines = Lines::new(src);
            for offset in (0..=src.len() + 2).filter(|&i| i > src.len() || src.is_char_boundary(i))
            {
                let d = Diagnostic::at("f", src, offset, 1, "");
                assert_eq!(
                    lines.locate(src, offset),
                    (d.line, d.column),
                    "{src:?} at {offset}"
                );
            }
        }
    }
}
