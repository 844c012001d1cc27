//! Printing terms, formulas and theories in Birkhoff's format, with as few brackets as the grammar
//! allows and no fewer: printing and parsing back gives the same theory.

use crate::signature::{is_symbolic, Assoc, Fixity, Signature, DEFAULT_SORT};
use crate::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use crate::theory::Theory;
use std::fmt::Write;

/// Prints terms and formulas of one axiom; `var_name` chooses how variables are written.
pub struct FormulaPrinter<'a> {
    /// The signature the symbols come from.
    pub sig: &'a Signature,
    /// The axiom's variable table.
    pub vars: &'a [VarDecl],
    /// Whether quantified variables carry their sort (`all x:V.`); needed in many-sorted theories.
    pub annotate_sorts: bool,
    /// Overrides variable names (the fingerprint numbers them by first occurrence).
    pub rename: Option<&'a dyn Fn(VarId) -> String>,
    /// Brackets every infix operand that is itself an infix application, whatever the
    /// precedences: `(x * y) * z`, for readers who do not know the grammar's (a paper).
    pub bracket_operands: bool,
}

/// Binding levels of formulas, loosest first.
const IFF: u8 = 1;
const IMPLIES: u8 = 2;
const OR: u8 = 3;
const AND: u8 = 4;
const UNARY: u8 = 5;
const ATOM: u8 = 6;

fn level(f: &Formula) -> u8 {
    match f {
        Formula::Iff(..) => IFF,
        Formula::Implies(..) => IMPLIES,
        Formula::Or(..) => OR,
        Formula::And(..) => AND,
        Formula::Not(g) if matches!(**g, Formula::Eq(..)) => ATOM,
        Formula::Not(_) | Formula::Forall(..) | Formula::Exists(..) => UNARY,
        _ => ATOM,
    }
}

impl<'a> FormulaPrinter<'a> {
    /// A printer for the axiom's own variable names.
    pub fn new(sig: &'a Signature, axiom: &'a Axiom) -> Self {
        FormulaPrinter {
            sig,
            vars: &axiom.vars,
            annotate_sorts: !sig.is_single_sorted(),
            rename: None,
            bracket_operands: false,
        }
    }

    fn var(&self, v: VarId) -> String {
        match self.rename {
            Some(r) => r(v),
            // A variable the table does not declare (a term read from a malformed certificate)
            // is printed by its index, never a panic.
            None => self
                .vars
                .get(v.0 as usize)
                .map_or_else(|| format!("_{}", v.0), |d| d.name.clone()),
        }
    }

    /// A term as text.
    pub fn term(&self, t: &Term) -> String {
        let mut s = String::new();
        self.write_term(&mut s, t);
        s
    }

    fn infix(&self, t: &Term) -> Option<(u8, Assoc)> {
        match t {
            Term::App(f, args) if args.len() == 2 => match self.sig.func_decl(*f).fixity {
                Fixity::Infix { prec, assoc } => Some((prec, assoc)),
                Fixity::Prefix => None,
            },
            _ => None,
        }
    }

    fn write_term(&self, out: &mut String, t: &Term) {
        match t {
            Term::Var(v) => out.push_str(&self.var(*v)),
            Term::App(f, args) => {
                let d = self.sig.func_decl(*f);
                if let (Some((prec, assoc)), [l, r]) = (self.infix(t), args.as_slice()) {
                    // An operand of equal precedence stays bare only where the parser groups it
                    // that way: on the left if the operand's own symbol is left associative (the
                    // parser stops its right operand before this symbol), on the right if this
                    // symbol is right associative.
                    let wrap_l = self.infix(l).is_some_and(|(p, a)| {
                        self.bracket_operands || p < prec || (p == prec && a != Assoc::Left)
                    });
                    let wrap_r = self.infix(r).is_some_and(|(p, _)| {
                        self.bracket_operands || p < prec || (p == prec && assoc != Assoc::Right)
                    });
                    self.write_wrapped(out, l, wrap_l);
                    let _ = write!(out, " {} ", d.name);
                    self.write_wrapped(out, r, wrap_r);
                } else if args.len() == 1 && is_symbolic(&d.name) {
                    let simple = matches!(&args[0], Term::Var(_))
                        || self.infix(&args[0]).is_none()
                            && !matches!(&args[0], Term::App(g, a) if a.len() == 1 && is_symbolic(&self.sig.func_decl(*g).name));
                    prefix(out, &d.name, |out| {
                        self.write_wrapped(out, &args[0], !simple)
                    });
                } else {
                    out.push_str(&d.name);
                    if !args.is_empty() {
                        out.push('(');
                        for (i, a) in args.iter().enumerate() {
                            if i > 0 {
                                out.push_str(", ");
                            }
                            self.write_term(out, a);
                        }
                        out.push(')');
                    }
                }
            }
        }
    }

    fn write_wrapped(&self, out: &mut String, t: &Term, wrap: bool) {
        if wrap {
            out.push('(');
        }
        self.write_term(out, t);
        if wrap {
            out.push(')');
        }
    }

    /// A formula as text.
    pub fn formula(&self, f: &Formula) -> String {
        let mut s = String::new();
        self.write_formula(&mut s, f);
        s
    }

    fn write_sub(&self, out: &mut String, f: &Formula, wrap: bool) {
        // A quantifier's body reaches as far right as it can, so one inside an operand is bracketed.
        let wrap = wrap || matches!(f, Formula::Forall(..) | Formula::Exists(..));
        if wrap {
            out.push('(');
        }
        self.write_formula(out, f);
        if wrap {
            out.push(')');
        }
    }

    fn write_formula(&self, out: &mut String, f: &Formula) {
        match f {
            Formula::True => out.push_str("true"),
            Formula::False => out.push_str("false"),
            Formula::Eq(a, b) => {
                self.write_term(out, a);
                out.push_str(" = ");
                self.write_term(out, b);
            }
            Formula::Not(g) if matches!(**g, Formula::Eq(..)) => {
                let Formula::Eq(a, b) = &**g else {
                    unreachable!()
                };
                self.write_term(out, a);
                out.push_str(" != ");
                self.write_term(out, b);
            }
            Formula::Rel(r, args) => {
                let d = self.sig.rel_decl(*r);
                match (d.fixity, args.as_slice()) {
                    (Fixity::Infix { .. }, [a, b]) => {
                        self.write_term(out, a);
                        let _ = write!(out, " {} ", d.name);
                        self.write_term(out, b);
                    }
                    _ => {
                        out.push_str(&d.name);
                        if !args.is_empty() {
                            out.push('(');
                            for (i, a) in args.iter().enumerate() {
                                if i > 0 {
                                    out.push_str(", ");
                                }
                                self.write_term(out, a);
                            }
                            out.push(')');
                        }
                    }
                }
            }
            Formula::Not(g) => {
                prefix(out, "~", |out| self.write_sub(out, g, level(g) < UNARY));
            }
            Formula::And(a, b) => self.binary(out, a, b, AND, "&", false),
            Formula::Or(a, b) => self.binary(out, a, b, OR, "|", false),
            Formula::Implies(a, b) => self.binary(out, a, b, IMPLIES, "->", true),
            Formula::Iff(a, b) => {
                self.write_sub(out, a, level(a) <= IFF);
                out.push_str(" <-> ");
                self.write_sub(out, b, level(b) <= IFF);
            }
            Formula::Forall(vs, body) | Formula::Exists(vs, body) => {
                out.push_str(if matches!(f, Formula::Forall(..)) {
                    "all"
                } else {
                    "exists"
                });
                for v in vs {
                    out.push(' ');
                    out.push_str(&self.var(*v));
                    if self.annotate_sorts {
                        let _ = write!(
                            out,
                            ":{}",
                            self.sig.sort_decl(self.vars[v.0 as usize].sort).name
                        );
                    }
                }
                out.push_str(". ");
                self.write_formula(out, body);
            }
        }
    }

    fn binary(
        &self,
        out: &mut String,
        a: &Formula,
        b: &Formula,
        lvl: u8,
        op: &str,
        right_assoc: bool,
    ) {
        let (wrap_a, wrap_b) = if right_assoc {
            (level(a) <= lvl, level(b) < lvl)
        } else {
            (level(a) < lvl, level(b) <= lvl)
        };
        self.write_sub(out, a, wrap_a);
        let _ = write!(out, " {op} ");
        self.write_sub(out, b, wrap_b);
    }
}

/// Writes a prefix operator and its operand, with a space between them if the operand begins with
/// an operator character, so that the two never read as one symbol (`~ ~~(x, y)` for a relation `~~`).
fn prefix(out: &mut String, op: &str, operand: impl FnOnce(&mut String)) {
    out.push_str(op);
    let start = out.len();
    operand(out);
    if out[start..].starts_with(crate::lexer::is_op_char) {
        out.insert(start, ' ');
    }
}

/// A string literal for `s` (which cannot contain `"""`: the language has no escapes).
fn quoted(s: &str) -> String {
    if s.contains('\n') || s.contains('"') {
        // The reader trims the text, so a space may keep a final `"` apart from the closing `"""`.
        let pad = if s.ends_with('"') { " " } else { "" };
        format!("\"\"\"{s}{pad}\"\"\"")
    } else {
        format!("\"{s}\"")
    }
}

fn fixity_suffix(name: &str, fixity: Fixity) -> String {
    let default = crate::signature::default_binary_fixity(name);
    match fixity {
        f if f == default => String::new(),
        Fixity::Prefix => " prefix".into(),
        Fixity::Infix { prec, assoc } => {
            let assoc = match assoc {
                Assoc::Left => "left",
                Assoc::Right => "right",
                Assoc::None => "none",
            };
            format!(" infix {assoc} {prec}")
        }
    }
}

/// The theory in Birkhoff's format.
pub fn theory_to_text(t: &Theory) -> String {
    let sig = &t.sig;
    let mut out = String::new();
    let plain_name = !t.name.is_empty()
        && t.name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && t.name.starts_with(char::is_alphabetic);
    let _ = writeln!(
        out,
        "theory {}",
        if plain_name {
            t.name.clone()
        } else {
            quoted(&t.name)
        }
    );
    if !t.doc.is_empty() {
        let _ = writeln!(out, "doc {}", quoted(&t.doc));
    }
    for (k, v) in &t.meta {
        let _ = writeln!(out, "meta {k} {}", quoted(v));
    }
    let single = sig.is_single_sorted();
    if !(single && sig.sorts[0].name == DEFAULT_SORT) {
        let names: Vec<&str> = sig.sorts.iter().map(|s| s.name.as_str()).collect();
        let _ = writeln!(out, "sort {}", names.join(", "));
    }
    let sorts = |ids: &[crate::signature::SortId]| {
        ids.iter()
            .map(|s| sig.sort_decl(*s).name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    for d in &sig.funcs {
        let fix = if d.args.len() == 2 {
            fixity_suffix(&d.name, d.fixity)
        } else {
            String::new()
        };
        let _ = match (d.args.len(), single) {
            (0, true) => writeln!(out, "const {}", d.name),
            (0, false) => writeln!(out, "const {} : {}", d.name, sig.sort_decl(d.result).name),
            (n, true) => writeln!(out, "func {} : {n}{fix}", d.name),
            (_, false) => writeln!(
                out,
                "func {} : {} -> {}{fix}",
                d.name,
                sorts(&d.args),
                sig.sort_decl(d.result).name
            ),
        };
    }
    for d in &sig.rels {
        let fix = if d.args.len() == 2 {
            fixity_suffix(&d.name, d.fixity)
        } else {
            String::new()
        };
        let _ = if single || d.args.is_empty() {
            writeln!(out, "rel {} : {}{fix}", d.name, d.args.len())
        } else {
            writeln!(out, "rel {} : {}{fix}", d.name, sorts(&d.args))
        };
    }
    for a in &t.axioms {
        let _ = writeln!(
            out,
            "axiom {}: {}",
            a.name,
            FormulaPrinter::new(sig, a).formula(&a.formula)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::FormulaPrinter;
    use crate::syntax::{Term, VarId};
    use crate::Theory;

    /// A variable the table lacks is printed by its index (it once indexed out of bounds).
    #[test]
    fn an_undeclared_variable_prints_by_its_index() {
        let t = Theory::parse("theory T\nfunc f : 1\naxiom a: f(x) = x\n", "t.bk").unwrap();
        let a = &t.axioms[0];
        let f = t.sig.func("f").unwrap();
        let term = Term::App(f, vec![Term::Var(VarId(7))]);
        assert_eq!(FormulaPrinter::new(&t.sig, a).term(&term), "f(_7)");
    }
}
