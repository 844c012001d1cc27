//! Terms, formulas and axioms over a [`Signature`](crate::Signature).

use crate::signature::{FuncId, RelId, SortId};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Index of a variable in its axiom's variable table ([`Axiom::vars`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub u32);

/// A term: a variable or a function symbol applied to terms (a constant has no arguments).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Term {
    /// A variable of the enclosing axiom.
    Var(VarId),
    /// `f(t1, ..., tn)`.
    App(FuncId, Vec<Term>),
}

/// A first-order formula with equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Formula {
    /// Always true.
    True,
    /// Always false.
    False,
    /// `s = t`.
    Eq(Term, Term),
    /// `R(t1, ..., tn)`.
    Rel(RelId, Vec<Term>),
    /// `~F`; `~(s = t)` is printed `s != t`.
    Not(Box<Formula>),
    /// `F & G`.
    And(Box<Formula>, Box<Formula>),
    /// `F | G`.
    Or(Box<Formula>, Box<Formula>),
    /// `F -> G`.
    Implies(Box<Formula>, Box<Formula>),
    /// `F <-> G`.
    Iff(Box<Formula>, Box<Formula>),
    /// `all x y. F`.
    Forall(Vec<VarId>, Box<Formula>),
    /// `exists x y. F`.
    Exists(Vec<VarId>, Box<Formula>),
}

/// A variable's name and sort. Names are unique within an axiom.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VarDecl {
    /// The name as written.
    pub name: String,
    /// The (declared or inferred) sort.
    pub sort: SortId,
}

/// Where an item came from: a file, line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Origin {
    /// File name as given to the parser.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// A named axiom. Its free variables are universally quantified.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Axiom {
    /// The axiom's name, unique within its theory.
    pub name: String,
    /// The formula as written.
    pub formula: Formula,
    /// Every variable of the formula, bound or free, indexed by [`VarId`].
    pub vars: Vec<VarDecl>,
    /// Where the axiom was read from, if it was read from text.
    #[serde(skip)]
    pub origin: Option<Origin>,
}

impl PartialEq for Axiom {
    /// Two axioms are equal when name, formula and variables agree; where they were read is ignored.
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.formula == other.formula && self.vars == other.vars
    }
}
impl Eq for Axiom {}

impl std::hash::Hash for Axiom {
    /// Hashes what [`PartialEq`] compares: name, formula and variables.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.formula.hash(state);
        self.vars.hash(state);
    }
}

impl Term {
    /// Calls `f` on every variable occurrence, left to right.
    pub fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Term::Var(v) => f(*v),
            Term::App(_, args) => args.iter().for_each(|a| a.for_each_var(f)),
        }
    }

    /// Whether the function symbol `g` occurs in the term.
    pub fn mentions(&self, g: FuncId) -> bool {
        match self {
            Term::Var(_) => false,
            Term::App(h, args) => *h == g || args.iter().any(|a| a.mentions(g)),
        }
    }

    /// Symbol and variable occurrences: the number of nodes of the term tree.
    pub fn size(&self) -> usize {
        match self {
            Term::Var(_) => 1,
            Term::App(_, args) => 1 + args.iter().map(Term::size).sum::<usize>(),
        }
    }

    /// Nesting depth: a variable or constant has depth 0.
    pub fn depth(&self) -> usize {
        match self {
            Term::Var(_) => 0,
            Term::App(_, args) => args.iter().map(|a| a.depth() + 1).max().unwrap_or(0),
        }
    }
}

impl Formula {
    /// Negation, folding `~~F` is left to the caller: this always wraps.
    #[allow(clippy::should_implement_trait)]
    pub fn not(f: Formula) -> Formula {
        Formula::Not(Box::new(f))
    }

    /// Calls `f` on every atom (an equation or a relation atom), left to right.
    pub fn for_each_atom(&self, f: &mut impl FnMut(&Formula)) {
        match self {
            Formula::True | Formula::False => {}
            Formula::Eq(..) | Formula::Rel(..) => f(self),
            Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => g.for_each_atom(f),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => {
                a.for_each_atom(f);
                b.for_each_atom(f)
            }
        }
    }

    /// Calls `f` on every term that is a direct argument of an atom.
    pub fn for_each_atom_term(&self, f: &mut impl FnMut(&Term)) {
        self.for_each_atom(&mut |atom| match atom {
            Formula::Eq(a, b) => {
                f(a);
                f(b)
            }
            Formula::Rel(_, args) => args.iter().for_each(&mut *f),
            _ => {}
        })
    }

    /// Whether the function symbol `g` occurs in the formula.
    pub fn mentions_func(&self, g: FuncId) -> bool {
        let mut found = false;
        self.for_each_atom_term(&mut |t| found |= t.mentions(g));
        found
    }

    /// Whether the relation symbol `r` occurs in the formula.
    pub fn mentions_rel(&self, r: RelId) -> bool {
        match self {
            Formula::True | Formula::False | Formula::Eq(..) => false,
            Formula::Rel(q, _) => *q == r,
            Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => g.mentions_rel(r),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => a.mentions_rel(r) || b.mentions_rel(r),
        }
    }

    /// The formula under its leading universal quantifiers (`all x. all y. F` gives `F`).
    pub fn without_leading_foralls(&self) -> &Formula {
        let mut f = self;
        while let Formula::Forall(_, g) = f {
            f = g;
        }
        f
    }

    /// The conjuncts of nested `&`s, left to right (`(A & B) & C` gives `A`, `B`, `C`; a formula
    /// that is not a conjunction is its own one conjunct).
    pub fn conjuncts(&self) -> Vec<&Formula> {
        fn collect<'f>(f: &'f Formula, out: &mut Vec<&'f Formula>) {
            match f {
                Formula::And(a, b) => {
                    collect(a, out);
                    collect(b, out)
                }
                _ => out.push(f),
            }
        }
        let mut out = Vec::new();
        collect(self, &mut out);
        out
    }

    /// Whether the formula is an equation `s = t` (the shape the equational prover handles).
    pub fn is_equation(&self) -> bool {
        matches!(self, Formula::Eq(..))
    }

    /// The formula rebuilt with each immediate subformula `g` replaced by `sub(g)`, left to right;
    /// atoms, `True` and `False` are cloned, and quantifiers keep their variables. This is the one
    /// place that rebuilds every connective: a rewrite handles the variants it changes and hands
    /// the rest to this, recursing through `sub`.
    ///
    /// ```
    /// use birkhoff_engine::syntax::{Formula, Term, VarId};
    /// // Swaps the sides of every equation, however deep.
    /// fn flip(f: &Formula) -> Formula {
    ///     match f {
    ///         Formula::Eq(a, b) => Formula::Eq(b.clone(), a.clone()),
    ///         _ => f.map_subformulas(flip),
    ///     }
    /// }
    /// let (x, y) = (Term::Var(VarId(0)), Term::Var(VarId(1)));
    /// let f = Formula::Forall(vec![VarId(0)], Box::new(Formula::not(Formula::Eq(x.clone(), y.clone()))));
    /// let flipped = Formula::Forall(vec![VarId(0)], Box::new(Formula::not(Formula::Eq(y, x))));
    /// assert_eq!(flip(&f), flipped);
    /// ```
    pub fn map_subformulas(&self, mut sub: impl FnMut(&Formula) -> Formula) -> Formula {
        // A connective's constructor, applied to its two operands rewritten left to right.
        let mut binary = |op: fn(Box<Formula>, Box<Formula>) -> Formula, a: &Formula, b| {
            let a = Box::new(sub(a));
            op(a, Box::new(sub(b)))
        };
        match self {
            Formula::True | Formula::False | Formula::Eq(..) | Formula::Rel(..) => self.clone(),
            Formula::And(a, b) => binary(Formula::And, a, b),
            Formula::Or(a, b) => binary(Formula::Or, a, b),
            Formula::Implies(a, b) => binary(Formula::Implies, a, b),
            Formula::Iff(a, b) => binary(Formula::Iff, a, b),
            Formula::Not(g) => Formula::Not(Box::new(sub(g))),
            Formula::Forall(vs, g) => Formula::Forall(vs.clone(), Box::new(sub(g))),
            Formula::Exists(vs, g) => Formula::Exists(vs.clone(), Box::new(sub(g))),
        }
    }

    /// The formula with every term that is a direct argument of an atom (each side of an
    /// equation, each argument of a relation atom) replaced by `term(t)`, left to right;
    /// connectives and quantifiers are kept as they are.
    ///
    /// ```
    /// use birkhoff_engine::syntax::{Formula, Term, VarId};
    /// use birkhoff_engine::signature::FuncId;
    /// // Replaces the variable x (VarId 0) by the constant e (FuncId 0) wherever it is an argument.
    /// let e = Term::App(FuncId(0), vec![]);
    /// let (x, y) = (Term::Var(VarId(0)), Term::Var(VarId(1)));
    /// let f = Formula::Or(Box::new(Formula::Eq(x.clone(), y.clone())), Box::new(Formula::True));
    /// let g = f.map_terms(&mut |t| if *t == x { e.clone() } else { t.clone() });
    /// assert_eq!(g, Formula::Or(Box::new(Formula::Eq(e, y)), Box::new(Formula::True)));
    /// ```
    pub fn map_terms(&self, term: &mut impl FnMut(&Term) -> Term) -> Formula {
        match self {
            Formula::Eq(a, b) => {
                let a = term(a);
                Formula::Eq(a, term(b))
            }
            Formula::Rel(r, args) => Formula::Rel(*r, args.iter().map(&mut *term).collect()),
            _ => self.map_subformulas(|g| g.map_terms(term)),
        }
    }

    /// The formula with every term rewritten from the bottom up by `app` (each application
    /// `f(args)` becomes `app(f, args)`, its arguments rewritten first) and every relation atom
    /// `r(args)` replaced by the formula `rel(r, args)` (its arguments rewritten). The moves that
    /// read a theory through another signature (dualize, transfer, generalize) are built on it.
    pub fn map_symbols(
        &self,
        app: &dyn Fn(FuncId, Vec<Term>) -> Term,
        rel: &dyn Fn(RelId, Vec<Term>) -> Formula,
    ) -> Formula {
        fn term(t: &Term, app: &dyn Fn(FuncId, Vec<Term>) -> Term) -> Term {
            match t {
                Term::Var(v) => Term::Var(*v),
                Term::App(g, args) => app(*g, args.iter().map(|a| term(a, app)).collect()),
            }
        }
        match self {
            Formula::Eq(..) => self.map_terms(&mut |t| term(t, app)),
            Formula::Rel(r, args) => rel(*r, args.iter().map(|a| term(a, app)).collect()),
            _ => self.map_subformulas(|g| g.map_symbols(app, rel)),
        }
    }
}

impl Axiom {
    /// The axiom with its formula rewritten by [`Formula::map_symbols`]; an axiom the maps leave
    /// unchanged stays shared (the same `Arc`), so a derived theory shares it with its parent.
    pub fn map_symbols(
        self: &Arc<Axiom>,
        app: &dyn Fn(FuncId, Vec<Term>) -> Term,
        rel: &dyn Fn(RelId, Vec<Term>) -> Formula,
    ) -> Arc<Axiom> {
        let formula = self.formula.map_symbols(app, rel);
        if formula == self.formula {
            return self.clone();
        }
        Arc::new(Axiom {
            name: self.name.clone(),
            formula,
            vars: self.vars.clone(),
            origin: None,
        })
    }

    /// The variables that occur free (not under a quantifier binding them), in order of first occurrence.
    pub fn free_vars(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        collect_free(&self.formula, &mut Vec::new(), &mut out);
        out
    }

    /// The axiom's universal variables, the free ones first and then those of its leading
    /// `all`s, with the formula under those quantifiers: what a ground instance assigns, and what
    /// it is an instance of.
    ///
    /// ```
    /// let t = birkhoff_engine::Theory::parse("theory T\nfunc * : 2\naxiom c: all y. (x * y = y * x)", "t.bk").unwrap();
    /// let (vars, body) = t.axioms[0].universal_prefix();
    /// assert_eq!(vars.iter().map(|v| t.axioms[0].vars[v.0 as usize].name.as_str()).collect::<Vec<_>>(), ["x", "y"]);
    /// assert!(body.is_equation());
    /// ```
    pub fn universal_prefix(&self) -> (Vec<VarId>, &Formula) {
        let mut vars = self.free_vars();
        let mut body = &self.formula;
        while let Formula::Forall(vs, g) = body {
            vars.extend(vs.iter().copied());
            body = g;
        }
        (vars, body)
    }
}

fn collect_free(f: &Formula, bound: &mut Vec<VarId>, out: &mut Vec<VarId>) {
    let term = |t: &Term, bound: &Vec<VarId>, out: &mut Vec<VarId>| {
        t.for_each_var(&mut |v| {
            if !bound.contains(&v) && !out.contains(&v) {
                out.push(v)
            }
        })
    };
    match f {
        Formula::True | Formula::False => {}
        Formula::Eq(a, b) => {
            term(a, bound, out);
            term(b, bound, out)
        }
        Formula::Rel(_, args) => args.iter().for_each(|a| term(a, bound, out)),
        Formula::Not(g) => collect_free(g, bound, out),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            collect_free(a, bound, out);
            collect_free(b, bound, out)
        }
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            let n = bound.len();
            bound.extend(vs.iter().copied());
            collect_free(g, bound, out);
            bound.truncate(n)
        }
    }
}
