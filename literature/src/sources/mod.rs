//! The four sources' request paths and response formats. Each parser takes the body as text and
//! returns papers (or sequences) or a [`ParseError`] saying what is wrong; none panics on any
//! input.

pub mod arxiv;
pub mod oeis;
pub mod s2;
pub mod zbmath;

/// A response that is not in the source's documented format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

impl ParseError {
    /// A parse error with this message.
    pub fn new(message: String) -> ParseError {
        ParseError(message)
    }
}

/// Percent-encodes a query parameter's value (RFC 3986 unreserved characters stay).
pub fn enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Parses JSON, naming the source in the error.
pub(crate) fn json(body: &str, what: &str) -> Result<serde_json::Value, ParseError> {
    serde_json::from_str(body)
        .map_err(|e| ParseError::new(format!("malformed JSON from {what}: {e}")))
}
