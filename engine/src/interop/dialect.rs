//! What the TPTP and LADR writers share: a formula is written the same way in both, connective
//! by connective; a [`Dialect`] supplies the words and how terms, negations and quantifiers look.

use crate::signature::{FuncId, RelId};
use crate::syntax::{Formula, Term, VarId};

/// One output language's way of writing formulas.
pub(crate) trait Dialect {
    /// `true` and `false`.
    const TRUTH: [&'static str; 2];
    /// And, or, implies, if and only if.
    const CONNECTIVES: [&'static str; 4];
    /// Between the arguments of an application.
    const ARGUMENT_SEPARATOR: &'static str;

    /// The names of the axiom's variables and of the function and relation symbols, by index.
    fn names(&self) -> [&[String]; 3];

    /// The name of a variable of the axiom being written.
    fn variable(&self, v: VarId) -> &str {
        &self.names()[0][v.0 as usize]
    }
    /// The name of a function symbol.
    fn function(&self, f: FuncId) -> &str {
        &self.names()[1][f.0 as usize]
    }
    /// The name of a relation symbol.
    fn relation(&self, r: RelId) -> &str {
        &self.names()[2][r.0 as usize]
    }
    /// Writes `~F` for an `F` that is not an equation.
    fn negation(&self, out: &mut String, f: &Formula);
    /// Writes a quantified formula.
    fn quantified(&self, out: &mut String, universal: bool, vs: &[VarId], body: &Formula);
    /// Writes a formula standing as an operand of a binary connective, bracketed as needed.
    fn operand(&self, out: &mut String, f: &Formula);

    /// Writes a term; by default every application is prefix, `f(x, y)`.
    fn term(&self, out: &mut String, t: &Term) {
        self.prefix_term(out, t)
    }

    /// Writes a variable, or an application as `f(t1, t2)`, its arguments by [`Dialect::term`].
    fn prefix_term(&self, out: &mut String, t: &Term) {
        match t {
            Term::Var(v) => out.push_str(self.variable(*v)),
            Term::App(f, args) => {
                out.push_str(self.function(*f));
                self.args(out, args);
            }
        }
    }

    /// Writes `(t1, t2)` after a symbol (nothing for a constant).
    fn args(&self, out: &mut String, args: &[Term]) {
        if args.is_empty() {
            return;
        }
        out.push('(');
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                out.push_str(Self::ARGUMENT_SEPARATOR);
            }
            self.term(out, a);
        }
        out.push(')');
    }

    /// Writes a formula.
    fn formula(&self, out: &mut String, f: &Formula) {
        match f {
            Formula::True => out.push_str(Self::TRUTH[0]),
            Formula::False => out.push_str(Self::TRUTH[1]),
            Formula::Eq(a, b) => {
                self.term(out, a);
                out.push_str(" = ");
                self.term(out, b);
            }
            Formula::Not(g) => match &**g {
                Formula::Eq(a, b) => {
                    self.term(out, a);
                    out.push_str(" != ");
                    self.term(out, b);
                }
                g => self.negation(out, g),
            },
            Formula::Rel(r, args) => {
                out.push_str(self.relation(*r));
                self.args(out, args);
            }
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => {
                let op = match f {
                    Formula::And(..) => Self::CONNECTIVES[0],
                    Formula::Or(..) => Self::CONNECTIVES[1],
                    Formula::Implies(..) => Self::CONNECTIVES[2],
                    _ => Self::CONNECTIVES[3],
                };
                self.operand(out, a);
                out.push(' ');
                out.push_str(op);
                out.push(' ');
                self.operand(out, b);
            }
            Formula::Forall(vs, g) => self.quantified(out, true, vs, g),
            Formula::Exists(vs, g) => self.quantified(out, false, vs, g),
        }
    }
}
