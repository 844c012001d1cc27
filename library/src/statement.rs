//! Conjecture statements: a formula in Birkhoff's syntax over a theory's signature, parsed by
//! the engine's own parser and refused if it would change the signature.

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
    let src = format!("{}\naxiom birkhoff_statement_: {s}\n", t.to_text());
    let parsed = Theory::parse(&src, "<statement>")
        .map_err(|e| format!("`{s}` does not parse over {}'s signature: {e}", t.name))?;
    if parsed.sig != t.sig || parsed.axioms.len() != t.axioms.len() + 1 {
        return Err(format!(
            "`{s}` is not a single formula over {}'s signature",
            t.name
        ));
    }
    Ok(parsed
        .axioms
        .into_iter()
        .next_back()
        .map(std::sync::Arc::unwrap_or_clone)
        .expect("one more axiom than the theory"))
}

/// The theory extended by the negation of `statement`: its models are exactly the
/// countermodels of the statement.
pub fn negated(t: &Theory, statement: &Axiom) -> Theory {
    let mut out = t.clone();
    let mut neg = statement.clone();
    neg.name = "negated_conjecture".into();
    neg.formula = birkhoff_engine::Formula::Not(Box::new(universal_closure(&neg)));
    out.axioms.push(neg.into());
    out
}

/// The axiom's formula with its free variables universally bound.
fn universal_closure(a: &Axiom) -> birkhoff_engine::Formula {
    let free = a.free_vars();
    if free.is_empty() {
        a.formula.clone()
    } else {
        birkhoff_engine::Formula::Forall(free, Box::new(a.formula.clone()))
    }
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
