//! Conjecture statements: a formula in Birkhoff's syntax over a theory's signature, parsed by
//! the engine's own parser, which refuses a symbol the signature does not declare.

use birkhoff_engine::{Axiom, Theory};

/// Parses `statement` as a formula over `t`'s signature. Errors are messages for people (or a
/// language model) and name the problem.
pub fn parse(t: &Theory, statement: &str) -> Result<Axiom, String> {
    let s = statement.trim();
    if s.is_empty() {
        return Err("the statement is empty".into());
    }
    if s.contains(['\n', '\r', '#', '%']) || s.len() > 2000 {
        return Err(
            "a statement is one formula on one line (no comments), at most 2000 characters".into(),
        );
    }
    birkhoff_engine::parse::parse_formula(&t.sig, s, "statement")
        .map_err(|e| format!("`{s}` does not parse over {}'s signature: {e}", t.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        let g = birkhoff_engine::seeds::load("group").unwrap();
        assert!(parse(&g, "x * y = y * x").is_ok());
        assert!(parse(&g, "x + y = y").is_err());
        assert!(parse(&g, "x = x\nfunc f : 1").is_err());
        assert!(parse(&g, "").is_err());
    }
}
