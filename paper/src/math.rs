//! Formulas and terms as LaTeX math. The input is text in Birkhoff's own syntax, as the engine
//! prints it (axioms), as statements are stored (conjectures) and as proofs are rendered
//! (`readable`'s steps, which `readable::recheck` reads back): one printer for all three. The
//! text is first read back with the engine's parser and printed again with every operand that is
//! itself an infix application in brackets (`(x * y) * z`), since a reader of a paper does not
//! know Birkhoff's precedences and `x * y * z` is ambiguous in a magma; the engine's printer
//! guarantees that the bracketed text parses to the same formula, so a typeset proof step is
//! still the term that was re-checked. Then it is read with the engine's lexer and translated
//! token by token, keeping every bracket.

use crate::escape::{known_operator, math_name, math_operator};
use birkhoff_engine::lexer::{Lexer, Tok};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::syntax::Formula;
use birkhoff_engine::Signature;

/// What the printer knows of a theory's symbols: which names are function or relation symbols
/// (set upright), which are written infix (`v`, `^`), and the operator spellings to lex greedily;
/// and the signature that formulas are parsed over to bracket them.
pub struct Symbols {
    names: Vec<String>,
    infix_names: Vec<String>,
    ops: Vec<String>,
    sig: Option<Signature>,
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
            sig: Some(sig.clone()),
        }
    }

    /// No theory's symbols: for a formula quoted in prose (a name's or a note's code span),
    /// whose names are all set as variables and whose brackets are kept as written.
    pub fn without_theory() -> Symbols {
        Symbols {
            names: Vec::new(),
            infix_names: Vec::new(),
            ops: Vec::new(),
            sig: None,
        }
    }

    /// `src` (a formula, or else a term) printed again with every infix operand that is itself
    /// an infix application in brackets; `None` when it does not parse over the signature.
    fn fully_bracketed(&self, src: &str) -> Option<String> {
        let sig = self.sig.as_ref()?;
        let parse = |text: &str| birkhoff_engine::parse::parse_formula(sig, text, "paper").ok();
        let printer = |axiom| FormulaPrinter {
            bracket_operands: true,
            ..FormulaPrinter::new(sig, axiom)
        };
        if let Some(axiom) = parse(src) {
            return Some(printer(&axiom).formula(&axiom.formula));
        }
        // A term: parsed as one side of an equation.
        let axiom = parse(&format!("{src} = {src}"))?;
        match axiom.formula.without_leading_foralls() {
            Formula::Eq(t, _) => Some(printer(&axiom).term(t)),
            _ => None,
        }
    }

    /// Formula or term `src` as math-mode LaTeX (without the surrounding `$`), fully bracketed
    /// when it parses over the theory's signature. Text the lexer cannot read is typeset
    /// verbatim, escaped, rather than failing the paper.
    pub fn math(&self, src: &str) -> String {
        let bracketed = self.fully_bracketed(src);
        let src = bracketed.as_deref().unwrap_or(src);
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

    #[test]
    fn every_product_is_bracketed_so_a_magma_law_reads_one_way() {
        let t = birkhoff_engine::seeds::load("semigroup").unwrap();
        let s = Symbols::of(&t.sig);
        // `*` groups to the left in Birkhoff's grammar; a reader need not know it.
        assert_eq!(
            s.math("x * y * z = x * (y * z)"),
            "( x \\cdot y ) \\cdot z = x \\cdot ( y \\cdot z )"
        );
        // A proof step is a term, bracketed the same way.
        assert_eq!(s.math("x * y * x"), "( x \\cdot y ) \\cdot x");
        // The bracketed text is the same formula.
        let bracketed = s.fully_bracketed("x * y * x * (y * x) = x").unwrap();
        let parse = |text: &str| {
            birkhoff_engine::parse::parse_formula(&t.sig, text, "test")
                .unwrap()
                .formula
        };
        assert_eq!(parse(&bracketed), parse("x * y * x * (y * x) = x"));
        assert_eq!(bracketed, "((x * y) * x) * (y * x) = x");
    }
}
