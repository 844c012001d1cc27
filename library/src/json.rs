//! JSON for people and for files: indented near the top, compact below.
//!
//! serde_json's pretty printer indents every level, so a value nested n deep carries n indents
//! on each of its lines. A certificate's terms nest as deep as they are large: the structure
//! statements of rings with x³ = x came to 519 MB pretty and 27 MB compact. Records and `--json`
//! output are indented to [`INDENTED`] levels, which is every field a person reads, and written
//! compact below that; both are the same JSON value.

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// The deepest level indented: a record's body, its statements, a statement's fields.
pub const INDENTED: usize = 6;

/// `value` as JSON, indented by two spaces to [`INDENTED`] levels and compact below.
pub fn pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Shallow::default());
    value.serialize(&mut ser)?;
    Ok(out)
}

/// serde_json's pretty formatter, cut off below [`INDENTED`] levels.
#[derive(Default)]
struct Shallow {
    /// The level of the array or object being written (1 for the outermost).
    depth: usize,
    /// Whether the array or object being written has a value yet.
    has_value: bool,
}

impl Shallow {
    fn indented(&self) -> bool {
        self.depth <= INDENTED
    }

    fn newline<W: ?Sized + Write>(w: &mut W, depth: usize) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        if self.has_value && self.indented() {
            Self::newline(w, self.depth - 1)?;
        }
        self.depth -= 1;
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.indented() {
            Self::newline(w, self.depth)?;
        }
        Ok(())
    }
}

impl Formatter for Shallow {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.indented() { b": " } else { b":" })
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn shallow_values_print_as_serde_json_prints_them() {
        let v = json!({"a": [1, 2, {"b": []}], "c": {}, "d": "x\"y", "e": [[1], {"f": null}]});
        assert_eq!(
            String::from_utf8(pretty(&v).unwrap()).unwrap(),
            serde_json::to_string_pretty(&v).unwrap()
        );
    }

    #[test]
    fn deep_values_are_compact_below_the_indented_levels_and_read_back_the_same() {
        // A term 30 deep, as a certificate writes one.
        let mut term = json!({"App": [4, []]});
        for _ in 0..30 {
            term = json!({"App": [0, [term.clone(), {"App": [5, []]}]]});
        }
        let v = json!({"statements": [{"certificate": {"steps": [{"result": term}]}}]});
        let text = String::from_utf8(pretty(&v).unwrap()).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
        let deepest_indent = text
            .lines()
            .map(|l| l.len() - l.trim_start().len())
            .max()
            .unwrap();
        assert_eq!(deepest_indent, 2 * INDENTED, "{text}");
        let full = serde_json::to_string_pretty(&v).unwrap();
        assert!(
            text.len() * 10 < full.len(),
            "{} against {}",
            text.len(),
            full.len()
        );
    }
}
