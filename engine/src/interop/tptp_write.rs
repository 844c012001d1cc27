//! Theories as TPTP problems: FOF for one sort, TFF (typed first-order form) for several.
//!
//! Every axiom becomes an `axiom` formula, universally closed over its free variables; the goal,
//! if any, a `conjecture`. Symbols get TPTP names by [`super::names`] (`*` becomes `mult`), and a
//! comment at the top says which name stands for which symbol. FOF cannot declare a symbol, so a
//! symbol no axiom mentions gets a `declare_` axiom that is a tautology about it (`f(X) = f(X)`),
//! which [`super::import`] recognises and drops, keeping the symbol.

use super::dialect::Dialect;
use super::names::{tptp_functor, tptp_variable, NameMap};
use crate::signature::{Signature, SortId};
use crate::syntax::{Axiom, Formula, Term, VarId};
use crate::theory::Theory;
use std::fmt::Write;

/// The TPTP names of a theory's sorts and symbols.
struct Names {
    sorts: Vec<String>,
    funcs: Vec<String>,
    rels: Vec<String>,
    typed: bool,
}

impl Names {
    fn of(sig: &Signature) -> Names {
        let typed = !sig.is_single_sorted();
        // Types and symbols share one namespace, so that no prover confuses the two.
        let mut map = NameMap::new(&[]);
        let sorts = if typed {
            sig.sorts
                .iter()
                .map(|s| map.fresh(&s.name, tptp_functor))
                .collect()
        } else {
            vec!["$i".into()]
        };
        let funcs = sig
            .funcs
            .iter()
            .map(|f| map.fresh(&f.name, tptp_functor))
            .collect();
        let rels = sig
            .rels
            .iter()
            .map(|r| map.fresh(&r.name, tptp_functor))
            .collect();
        Names {
            sorts,
            funcs,
            rels,
            typed,
        }
    }
}

/// The TPTP name of each function symbol of `sig`, in order, as [`write`] names them.
pub fn function_names(sig: &Signature) -> Vec<String> {
    Names::of(sig).funcs
}

/// Writes one axiom's terms and formulas with its variables' TPTP names.
struct Writer<'a> {
    names: &'a Names,
    axiom: &'a Axiom,
    vars: Vec<String>,
}

impl Dialect for Writer<'_> {
    const TRUTH: [&'static str; 2] = ["$true", "$false"];
    const CONNECTIVES: [&'static str; 4] = ["&", "|", "=>", "<=>"];
    const ARGUMENT_SEPARATOR: &'static str = ", ";

    fn names(&self) -> [&[String]; 3] {
        [&self.vars, &self.names.funcs, &self.names.rels]
    }

    fn negation(&self, out: &mut String, f: &Formula) {
        out.push_str("~ ");
        self.unit(out, f);
    }

    fn quantified(&self, out: &mut String, universal: bool, vs: &[VarId], body: &Formula) {
        self.binder(out, if universal { '!' } else { '?' }, vs);
        self.unit(out, body);
    }

    fn operand(&self, out: &mut String, f: &Formula) {
        self.unit(out, f);
    }
}

impl<'a> Writer<'a> {
    fn new(names: &'a Names, axiom: &'a Axiom) -> Self {
        let mut map = NameMap::new(&[]);
        let vars = axiom
            .vars
            .iter()
            .map(|v| map.fresh(&v.name, tptp_variable))
            .collect();
        Writer { names, axiom, vars }
    }

    fn binder(&self, out: &mut String, quantifier: char, vs: &[VarId]) {
        out.push(quantifier);
        out.push('[');
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&self.vars[v.0 as usize]);
            if self.names.typed {
                let sort = self.axiom.vars[v.0 as usize].sort;
                let _ = write!(out, ": {}", self.names.sorts[sort.0 as usize]);
            }
        }
        out.push_str("]: ");
    }

    /// A formula in a position that takes a unit formula: anything with a binary connective
    /// or a quantifier at its top is bracketed (TPTP's quantifiers bind a unit formula, and
    /// provers differ on how far an unbracketed one reaches).
    fn unit(&self, out: &mut String, f: &Formula) {
        let wrap = matches!(
            f,
            Formula::And(..)
                | Formula::Or(..)
                | Formula::Implies(..)
                | Formula::Iff(..)
                | Formula::Forall(..)
                | Formula::Exists(..)
        );
        if wrap {
            out.push('(');
        }
        self.formula(out, f);
        if wrap {
            out.push(')');
        }
    }

    /// The axiom's formula closed over its free variables.
    fn closed(&self) -> String {
        let mut out = String::new();
        let free = self.axiom.free_vars();
        if free.is_empty() {
            self.formula(&mut out, &self.axiom.formula);
        } else {
            self.binder(&mut out, '!', &free);
            self.unit(&mut out, &self.axiom.formula);
        }
        out
    }
}

/// The [`declaration`]s of `symbols`, each named apart from the others and from `taken` (two
/// symbols such as `!` and `~~` have the same ASCII word): a second `declare_op` becomes
/// `declare_op_2`, and so on.
pub(crate) fn declarations(sig: &Signature, symbols: Vec<Symbol>, taken: &[&str]) -> Vec<Axiom> {
    let mut used: std::collections::HashSet<String> = taken.iter().map(|n| n.to_string()).collect();
    symbols
        .into_iter()
        .map(|s| {
            let mut a = declaration(sig, s);
            let base = a.name.clone();
            let mut k = 2;
            while !used.insert(a.name.clone()) {
                a.name = format!("{base}_{k}");
                k += 1;
            }
            a
        })
        .collect()
}

/// A tautology mentioning only `f` with all-variable arguments: `f(X, Y) = f(X, Y)`, or for a
/// relation `p(X) | ~ p(X)`; the axiom that lets FOF and LADR keep a symbol no axiom uses.
pub(crate) fn declaration(sig: &Signature, symbol: Symbol) -> Axiom {
    let args: &[SortId] = match symbol {
        Symbol::Func(f) => &sig.func_decl(f).args,
        Symbol::Rel(r) => &sig.rel_decl(r).args,
    };
    let vars: Vec<crate::syntax::VarDecl> = args
        .iter()
        .enumerate()
        .map(|(i, s)| crate::syntax::VarDecl {
            name: format!("x{}", i + 1),
            sort: *s,
        })
        .collect();
    let terms: Vec<Term> = (0..args.len() as u32)
        .map(|i| Term::Var(VarId(i)))
        .collect();
    let (name, formula) = match symbol {
        Symbol::Func(f) => {
            let t = Term::App(f, terms);
            (&sig.func_decl(f).name, Formula::Eq(t.clone(), t))
        }
        Symbol::Rel(r) => {
            let p = Formula::Rel(r, terms);
            (
                &sig.rel_decl(r).name,
                Formula::Or(Box::new(p.clone()), Box::new(Formula::not(p))),
            )
        }
    };
    Axiom {
        name: format!(
            "{}{}",
            super::DECLARATION_PREFIX,
            super::names::ascii_word(name)
        ),
        formula,
        vars,
        origin: None,
    }
}

/// A function or relation symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Symbol {
    Func(crate::signature::FuncId),
    Rel(crate::signature::RelId),
}

/// The symbols no axiom (nor the goal) mentions, in declaration order.
pub(crate) fn unused_symbols(t: &Theory, goal: Option<&Axiom>) -> Vec<Symbol> {
    let formulas: Vec<&Formula> = t
        .axioms
        .iter()
        .map(|a| &a.formula)
        .chain(goal.map(|g| &g.formula))
        .collect();
    let funcs = t
        .sig
        .func_ids()
        .filter(|f| !formulas.iter().any(|x| x.mentions_func(*f)))
        .map(Symbol::Func);
    let rels = t
        .sig
        .rel_ids()
        .filter(|r| !formulas.iter().any(|x| x.mentions_rel(*r)))
        .map(Symbol::Rel);
    funcs.chain(rels).collect()
}

/// The theory (and the goal, as a conjecture) as a TPTP problem.
pub fn write(t: &Theory, goal: Option<&Axiom>) -> String {
    let sig = &t.sig;
    let names = Names::of(sig);
    let lang = if names.typed { "tff" } else { "fof" };
    let mut out = String::new();
    super::header(&mut out, t, "%");
    let renamed: Vec<String> = sig
        .funcs
        .iter()
        .map(|f| &f.name)
        .zip(&names.funcs)
        .chain(sig.rels.iter().map(|r| &r.name).zip(&names.rels))
        .chain(if names.typed {
            sig.sorts
                .iter()
                .map(|s| &s.name)
                .zip(&names.sorts)
                .collect()
        } else {
            vec![]
        })
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{b} is {a}"))
        .collect();
    if !renamed.is_empty() {
        let _ = writeln!(out, "% Names: {}.", renamed.join(", "));
    }
    let mut labels = NameMap::new(&[]);
    if names.typed {
        for (i, s) in names.sorts.iter().enumerate() {
            let _ = writeln!(
                out,
                "tff({}, type, {s}: $tType).",
                labels.fresh(&format!("{}_type", sig.sorts[i].name), tptp_functor)
            );
        }
        let sort = |s: &SortId| names.sorts[s.0 as usize].clone();
        let profile = |args: &[SortId], result: String| match args {
            [] => result,
            [one] => format!("{} > {result}", sort(one)),
            _ => format!(
                "({}) > {result}",
                args.iter().map(sort).collect::<Vec<_>>().join(" * ")
            ),
        };
        for (i, f) in sig.funcs.iter().enumerate() {
            let _ = writeln!(
                out,
                "tff({}, type, {}: {}).",
                labels.fresh(&format!("{}_type", names.funcs[i]), tptp_functor),
                names.funcs[i],
                profile(&f.args, sort(&f.result))
            );
        }
        for (i, r) in sig.rels.iter().enumerate() {
            let _ = writeln!(
                out,
                "tff({}, type, {}: {}).",
                labels.fresh(&format!("{}_type", names.rels[i]), tptp_functor),
                names.rels[i],
                profile(&r.args, "$o".into())
            );
        }
    }
    let declarations: Vec<Axiom> = if names.typed {
        vec![]
    } else {
        declarations(
            sig,
            unused_symbols(t, goal),
            &t.axioms.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        )
    };
    for a in declarations
        .iter()
        .chain(t.axioms.iter().map(|a| a.as_ref()))
    {
        let _ = writeln!(
            out,
            "{lang}({}, axiom, {}).",
            labels.fresh(&a.name, tptp_functor),
            Writer::new(&names, a).closed()
        );
    }
    if let Some(g) = goal {
        let _ = writeln!(
            out,
            "{lang}({}, conjecture, {}).",
            labels.fresh("goal", tptp_functor),
            Writer::new(&names, g).closed()
        );
    }
    out
}
