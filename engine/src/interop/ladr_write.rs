//! Theories as LADR input (Prover9 and Mace4), in LADR's default syntax: the axioms in
//! `formulas(assumptions)`, the goal in `formulas(goals)`.
//!
//! LADR has one sort and reads identifiers beginning with `u` to `z` as variables, so symbols are
//! renamed where they must be (`vadd` becomes `c_vadd`; a comment at the top lists the renamings).
//! Binary symbols of LADR's default operator table (`* + @ / \ ^ v`) are written infix, with
//! every nested infix term bracketed, as LADR's `infix` (xfx) operators require; all other
//! symbols are prefix. Each quantified variable has its own quantifier (`all x all y (...)`), as
//! Prover9 requires. A symbol no axiom mentions gets a `declare_` tautology, as in TPTP.

use super::dialect::Dialect;
use super::names::{ladr_symbol, ladr_variable, NameMap};
use super::tptp_write::{declarations, unused_symbols};
use crate::error::{Error, Result};
use crate::signature::Signature;
use crate::syntax::{Axiom, Formula, Term, VarId};
use crate::theory::Theory;
use std::fmt::Write;

/// LADR's default infix operators for terms (precedence 500, `infix`).
const INFIX: &[&str] = &["*", "+", "@", "/", "\\", "^", "v"];

/// Words LADR gives a meaning of its own.
const RESERVED: &[&str] = &[
    "all",
    "exists",
    "formulas",
    "end_of_list",
    "label",
    "assumptions",
    "goals",
    "sos",
    "usable",
    "op",
    "set",
    "clear",
    "assign",
];

struct Names {
    funcs: Vec<String>,
    rels: Vec<String>,
}

impl Names {
    fn of(sig: &Signature) -> Names {
        let mut map = NameMap::new(RESERVED);
        // Operators LADR already knows keep their names; claim them first so that no renamed
        // symbol takes one.
        let keeps: Vec<bool> = sig
            .funcs
            .iter()
            .map(|f| f.args.len() == 2 && INFIX.contains(&f.name.as_str()) && map.claim(&f.name))
            .collect();
        let funcs = sig
            .funcs
            .iter()
            .zip(keeps)
            .map(|(f, keep)| {
                if keep {
                    f.name.clone()
                } else {
                    map.fresh(&f.name, ladr_symbol)
                }
            })
            .collect();
        let rels = sig
            .rels
            .iter()
            .map(|r| map.fresh(&r.name, ladr_symbol))
            .collect();
        Names { funcs, rels }
    }
}

struct Writer<'a> {
    names: &'a Names,
    vars: Vec<String>,
}

impl<'a> Writer<'a> {
    fn new(names: &'a Names, axiom: &Axiom) -> Self {
        // `v` is an operator in LADR's default table, never a variable.
        let mut map = NameMap::new(&["v"]);
        Writer {
            names,
            vars: axiom
                .vars
                .iter()
                .map(|v| map.fresh(&v.name, ladr_variable))
                .collect(),
        }
    }

    fn is_infix(&self, t: &Term) -> bool {
        matches!(t, Term::App(f, args) if args.len() == 2 && INFIX.contains(&self.names.funcs[f.0 as usize].as_str()))
    }
}

impl Dialect for Writer<'_> {
    const TRUTH: [&'static str; 2] = ["$T", "$F"];
    const CONNECTIVES: [&'static str; 4] = ["&", "|", "->", "<->"];
    const ARGUMENT_SEPARATOR: &'static str = ",";

    fn names(&self) -> [&[String]; 3] {
        [&self.vars, &self.names.funcs, &self.names.rels]
    }

    /// Binary symbols of LADR's operator table infix, every infix operand bracketed.
    fn term(&self, out: &mut String, t: &Term) {
        match t {
            Term::App(f, args) if self.is_infix(t) => {
                for (i, a) in args.iter().enumerate() {
                    if i == 1 {
                        let _ = write!(out, " {} ", self.names.funcs[f.0 as usize]);
                    }
                    let wrap = self.is_infix(a);
                    if wrap {
                        out.push('(');
                    }
                    self.term(out, a);
                    if wrap {
                        out.push(')');
                    }
                }
            }
            _ => self.prefix_term(out, t),
        }
    }

    fn negation(&self, out: &mut String, f: &Formula) {
        // `-` binds tighter than `=`: the negated formula is always bracketed.
        out.push_str("-(");
        self.formula(out, f);
        out.push(')');
    }

    fn quantified(&self, out: &mut String, universal: bool, vs: &[VarId], body: &Formula) {
        let q = if universal { "all" } else { "exists" };
        for v in vs {
            let _ = write!(out, "{q} {} ", self.vars[v.0 as usize]);
        }
        out.push('(');
        self.formula(out, body);
        out.push(')');
    }

    /// Brackets unless it is an atom.
    fn operand(&self, out: &mut String, f: &Formula) {
        let atom = matches!(
            f,
            Formula::True | Formula::False | Formula::Eq(..) | Formula::Rel(..)
        ) || matches!(f, Formula::Not(g) if matches!(**g, Formula::Eq(..)));
        if !atom {
            out.push('(');
        }
        self.formula(out, f);
        if !atom {
            out.push(')');
        }
    }
}

/// A label LADR reads back as written: bare when it is a plain symbol name, quoted otherwise.
fn label(name: &str) -> String {
    let plain = name.starts_with(|c: char| c.is_ascii_alphabetic() && !('u'..='z').contains(&c))
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', ""))
    }
}

/// The theory (and the goal) as a LADR input file. Only single-sorted theories: LADR has one sort.
pub fn write(t: &Theory, goal: Option<&Axiom>) -> Result<String> {
    let sig = &t.sig;
    if !sig.is_single_sorted() {
        let sorts: Vec<&str> = sig.sorts.iter().map(|s| s.name.as_str()).collect();
        return Err(Error::Export(format!("LADR has one sort, and theory {} has {} ({}); export it to TPTP instead (`--to tptp` writes TFF)", t.name, sorts.len(), sorts.join(", "))));
    }
    let names = Names::of(sig);
    let mut out = String::new();
    super::header(&mut out, t, "%");
    let renamed: Vec<String> = sig
        .funcs
        .iter()
        .map(|f| &f.name)
        .zip(&names.funcs)
        .chain(sig.rels.iter().map(|r| &r.name).zip(&names.rels))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{b} is {a}"))
        .collect();
    if !renamed.is_empty() {
        let _ = writeln!(out, "% Names: {}.", renamed.join(", "));
    }
    let declarations: Vec<Axiom> = declarations(
        sig,
        unused_symbols(t, goal),
        &t.axioms.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
    );
    out.push_str("formulas(assumptions).\n");
    for a in declarations
        .iter()
        .chain(t.axioms.iter().map(|a| a.as_ref()))
    {
        let w = Writer::new(&names, a);
        let mut f = String::new();
        w.formula(&mut f, &a.formula);
        let _ = writeln!(out, "{f} # label({}).", label(&a.name));
    }
    out.push_str("end_of_list.\n");
    if let Some(g) = goal {
        let w = Writer::new(&names, g);
        let mut f = String::new();
        w.formula(&mut f, &g.formula);
        let _ = writeln!(out, "formulas(goals).\n{f} # label(goal).\nend_of_list.");
    }
    Ok(out)
}
