//! Formulas and terms as LaTeX math. The input is text in Birkhoff's own syntax, as the engine
//! prints it (axioms), as statements are stored (conjectures) and as proofs are rendered
//! (`readable`'s steps, which `readable::recheck` reads back): one printer for all three, so a
//! typeset proof step is the very text that was re-checked. The text is read with the engine's
//! lexer and translated token by token; the engine's printer already put in exactly the brackets
//! the grammar needs, so keeping them keeps the formula's structure without a second precedence
//! table here.

use crate::escape::{known_operator, math_name, math_operator};
use birkhoff_engine::lexer::{Lexer, Tok};
use birkhoff_engine::Signature;

/// What the printer knows of a theory's symbols: which names are function or relation symbols
/// (set upright), which are written infix (`v`, `^`), and the operator spellings to lex greedily.
pub struct Symbols {
    names: Vec<String>,
    infix_names: Vec<String>,
    ops: Vec<String>,
}

impl Symbols {
    /// The symbols of `sig`.
    pub fn of(sig: &Signature) -> Symbols {
        use birkhoff_engine::signature::Fixity;
        let decls = sig
            .funcs
            .iter()
            .map(|f| (&f.name, f.fixity))
            .chain(sig.rels.iter().map(|r| (&r.name, r.fixity)));
        let (mut names, mut infix_names, mut ops) = (Vec::new(), Vec::new(), Vec::new());
        for (name, fixity) in decls {
            if name.chars().all(birkhoff_engine::lexer::is_op_char) {
                ops.push(name.clone());
            } else {
                names.push(name.clone());
                if matches!(fixity, Fixity::Infix { .. }) {
                    infix_names.push(name.clone());
                }
            }
        }
        Symbols {
            names,
            infix_names,
            ops,
        }
    }

    /// Formula or term `src` as math-mode LaTeX (without the surrounding `$`). Text the lexer
    /// cannot read is typeset verbatim, escaped, rather than failing the paper.
    pub fn math(&self, src: &str) -> String {
        let ops: Vec<&str> = self.ops.iter().map(String::as_str).collect();
        let mut lexer = Lexer::new(src);
        // `#` and `%` never start comments in a formula the library stored.
        lexer.hash_comments = false;
        let mut out: Vec<String> = Vec::new();
        let mut quantified = false;
        loop {
            let token = match lexer.next(&ops) {
                Ok(t) => t,
                Err(_) => return format!("\\texttt{{{}}}", crate::escape::text(src)),
            };
            let piece = match token.tok {
                Tok::Eof => break,
                Tok::Ident(name) => match name.as_str() {
                    "all" | "forall" => {
                        quantified = true;
                        "\\forall".to_string()
                    }
                    "exists" => {
                        quantified = true;
                        "\\exists".to_string()
                    }
                    "true" | "$T" => "\\top".to_string(),
                    "false" | "$F" => "\\bot".to_string(),
                    _ if self.infix_names.contains(&name) => known_operator(&name).map_or_else(
                        || format!("\\mathbin{{{}}}", math_name(&name, true)),
                        str::to_string,
                    ),
                    _ => math_name(&name, self.names.contains(&name)),
                },
                Tok::Number(n) => n,
                Tok::Str(s) => format!("\\text{{``{}''}}", crate::escape::text(&s)),
                Tok::Op(op) => match op.as_str() {
                    "(" | ")" => op,
                    "," => ",".to_string(),
                    "." if quantified => {
                        quantified = false;
                        ".\\;".to_string()
                    }
                    ":" => "{:}".to_string(),
                    "∀" | "∃" => {
                        quantified = true;
                        math_operator(&op)
                    }
                    _ => math_operator(&op),
                },
            };
            out.push(piece);
        }
        out.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quasigroup_axioms_read_as_mathematics() {
        let t = birkhoff_engine::Theory::parse(
            "theory Q\nfunc * : 2\nfunc \\ : 2\nfunc inv : 1\naxiom a: x \\ (x * y) = inv(y)\n",
            "q",
        )
        .unwrap();
        let s = Symbols::of(&t.sig);
        assert_eq!(
            s.math("x \\ (x * y) = inv(y)"),
            "x \\mathbin{\\backslash} ( x \\cdot y ) = \\mathrm{inv} ( y )"
        );
        assert_eq!(
            s.math("all x y. x * y != y"),
            "\\forall x y .\\; x \\cdot y \\neq y"
        );
    }
}
