//! Translating a theory into Z3 terms, over finite sorts or over uninterpreted sorts. One
//! translator serves both; they differ in what a sort, a symbol and a quantifier become:
//!
//! * **Finite** (`sizes`): an element of a sort of size `n` is a bit-vector numeral of
//!   `⌈log2 n⌉` bits (at least one). Each function or relation is uninterpreted: every table
//!   entry is its own free constant (a bit-vector, or a Boolean for a relation). An application
//!   to elements is that entry; an application to a compound argument is expanded into a lookup
//!   over the entries (`ite(t = 0, f(0,..), ite(t = 1, ...))`, Ackermann's expansion). Quantifiers
//!   are expanded into conjunctions and disjunctions over the domain. The result is quantifier-
//!   free bit-vector logic with no function symbols, which Z3 solves with its incremental SAT
//!   solver (logic `QF_FD`), much faster than with congruence closure over UF.
//! * **Uninterpreted**: sorts are Z3 uninterpreted sorts, symbols are Z3 functions, quantifiers
//!   stay quantifiers (for `prove_unsat`).

use birkhoff_engine::signature::SortId;
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarId};
use birkhoff_engine::Signature;
use std::sync::atomic::{AtomicU64, Ordering};
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{FuncDecl, Sort, Symbol};

/// Most Z3 nodes one encoding may build when quantifiers are expanded over finite domains.
pub const MAX_GROUND_NODES: u64 = 20_000_000;

/// A fresh suffix, so that every declaration of every encoding has a name no other one uses
/// (contexts are per thread and outlive one encoding).
pub fn unique_suffix() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// How sorts and quantifiers are read.
pub enum Domains {
    /// Sort `i` is `{0..sizes[i]-1}`, encoded as bit-vectors; quantifiers are expanded.
    Finite(Vec<u32>),
    /// Sorts are uninterpreted (any, possibly infinite, size); quantifiers stay quantifiers.
    Uninterpreted,
}

/// Bits needed for the values `0..n-1` (at least one).
pub fn width(n: u32) -> u32 {
    (32 - n.saturating_sub(1).leading_zeros()).max(1)
}

/// How a symbol is represented.
enum Symbols {
    /// Per symbol, one constant per table entry (row-major, as in a `Structure`).
    Tables {
        funcs: Vec<Vec<BV>>,
        rels: Vec<Vec<Bool>>,
    },
    /// Per symbol, a Z3 function declaration.
    Decls {
        sorts: Vec<Sort>,
        funcs: Vec<FuncDecl>,
        rels: Vec<FuncDecl>,
    },
}

/// A term's translation: a known element (finite domains, argument-free of unknowns) or a Z3 term.
#[derive(Clone)]
enum Val {
    Elem(u32),
    Z(Dynamic),
}

/// A signature declared in the current thread's Z3 context.
pub struct Encoder {
    symbols: Symbols,
    sig: Signature,
    domains: Domains,
    tag: u64,
    nodes: u64,
    stop: Option<Box<dyn Fn() -> bool>>,
}

/// An axiom that cannot be encoded (only ever because it is too large once expanded), or whose
/// encoding was stopped by [`Encoder::stop_when`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[error("axiom {axiom}: {reason}")]
pub struct EncodeError {
    /// The axiom's name.
    pub axiom: String,
    /// Why.
    pub reason: String,
    /// The encoding was stopped (a budget ran out), not impossible.
    pub stopped: bool,
}

/// The reason of a stopped encoding.
const STOPPED: &str = "stopped: the time limit or Ctrl-C came first";

/// How many Z3 nodes are built between two looks at [`Encoder::stop_when`]'s condition.
const STOP_EVERY: u64 = 1 << 14;

impl Encoder {
    /// Declares the sorts and symbols of `sig` with names unique to this encoder.
    pub fn new(sig: &Signature, domains: Domains) -> Encoder {
        let tag = unique_suffix();
        let symbols = match &domains {
            Domains::Finite(sizes) => {
                let entries = |kind: &'static str, i: usize, args: &[SortId]| {
                    (0..birkhoff_engine::structure::table_len(sizes, args))
                        .map(move |k| format!("{kind}{i}_{k}!{tag}"))
                };
                Symbols::Tables {
                    funcs: sig
                        .funcs
                        .iter()
                        .enumerate()
                        .map(|(i, f)| {
                            entries("f", i, &f.args)
                                .map(|n| BV::new_const(n, width(sizes[f.result.0 as usize])))
                                .collect()
                        })
                        .collect(),
                    rels: sig
                        .rels
                        .iter()
                        .enumerate()
                        .map(|(i, r)| entries("r", i, &r.args).map(Bool::new_const).collect())
                        .collect(),
                }
            }
            Domains::Uninterpreted => {
                let sorts: Vec<Sort> = sig
                    .sorts
                    .iter()
                    .map(|s| Sort::uninterpreted(Symbol::String(format!("{}!{tag}", s.name))))
                    .collect();
                let decl = |kind: &str, i: usize, args: &[SortId], range: &Sort| {
                    let dom: Vec<&Sort> = args.iter().map(|s| &sorts[s.0 as usize]).collect();
                    FuncDecl::new(format!("{kind}{i}!{tag}"), &dom, range)
                };
                let funcs = sig
                    .funcs
                    .iter()
                    .enumerate()
                    .map(|(i, f)| decl("f", i, &f.args, &sorts[f.result.0 as usize]))
                    .collect();
                let rels = sig
                    .rels
                    .iter()
                    .enumerate()
                    .map(|(i, r)| decl("r", i, &r.args, &Sort::bool()))
                    .collect();
                Symbols::Decls { sorts, funcs, rels }
            }
        };
        Encoder {
            symbols,
            sig: sig.clone(),
            domains,
            tag,
            nodes: 0,
            stop: None,
        }
    }

    /// The table entries of each function symbol (finite domains only).
    pub fn func_entries(&self) -> &[Vec<BV>] {
        match &self.symbols {
            Symbols::Tables { funcs, .. } => funcs,
            Symbols::Decls { .. } => panic!("table entries exist only over finite domains"),
        }
    }

    /// The table entries of each relation symbol (finite domains only).
    pub fn rel_entries(&self) -> &[Vec<Bool>] {
        match &self.symbols {
            Symbols::Tables { rels, .. } => rels,
            Symbols::Decls { .. } => panic!("table entries exist only over finite domains"),
        }
    }

    fn sizes(&self) -> &[u32] {
        match &self.domains {
            Domains::Finite(sizes) => sizes,
            Domains::Uninterpreted => panic!("sizes exist only over finite domains"),
        }
    }

    /// `v` as a bit-vector numeral of sort `s`.
    fn numeral(&self, s: SortId, v: u32) -> BV {
        BV::from_u64(v as u64, width(self.sizes()[s.0 as usize]))
    }

    fn to_z3(&self, v: &Val, s: SortId) -> Dynamic {
        match v {
            Val::Elem(e) => Dynamic::from_ast(&self.numeral(s, *e)),
            Val::Z(z) => z.clone(),
        }
    }

    /// The entry of a table (`entries`, row-major over `arg_sorts`) at `args`; compound
    /// arguments are expanded into an `ite` over their possible values.
    fn lookup<T: Ast + Clone>(&self, entries: &[T], arg_sorts: &[SortId], args: &[Val]) -> T {
        let sizes = self.sizes();
        let Some(i) = args.iter().position(|a| matches!(a, Val::Z(_))) else {
            let known: Vec<u32> = args
                .iter()
                .map(|a| {
                    if let Val::Elem(e) = a {
                        *e
                    } else {
                        unreachable!()
                    }
                })
                .collect();
            return entries[birkhoff_engine::structure::table_index(sizes, arg_sorts, &known)]
                .clone();
        };
        let Val::Z(z) = &args[i] else { unreachable!() };
        let z = z.as_bv().expect("finite elements are bit-vectors");
        let n = sizes[arg_sorts[i].0 as usize];
        let mut with = args.to_vec();
        with[i] = Val::Elem(n - 1);
        let mut acc = self.lookup(entries, arg_sorts, &with);
        for e in (0..n - 1).rev() {
            with[i] = Val::Elem(e);
            acc = z
                .eq(self.numeral(arg_sorts[i], e))
                .ite(&self.lookup(entries, arg_sorts, &with), &acc);
        }
        acc
    }

    /// Makes the encoding stop with a [`EncodeError::stopped`] error when `stop` says so (asked
    /// every few thousand nodes): expanding the quantifiers of a large instance can take longer
    /// than a budget allows, and comes before the first check.
    pub fn stop_when(&mut self, stop: impl Fn() -> bool + 'static) {
        self.stop = Some(Box::new(stop));
    }

    /// The axiom as a Z3 formula, its free variables universally quantified.
    pub fn axiom(&mut self, a: &Axiom) -> Result<Bool, EncodeError> {
        let free = a.free_vars();
        let closed = if free.is_empty() {
            a.formula.clone()
        } else {
            Formula::Forall(free, Box::new(a.formula.clone()))
        };
        let mut env: Vec<Option<Val>> = vec![None; a.vars.len()];
        self.formula(a, &closed, &mut env)
            .map_err(|reason| EncodeError {
                axiom: a.name.clone(),
                stopped: reason == STOPPED,
                reason,
            })
    }

    fn charge(&mut self) -> Result<(), String> {
        self.nodes += 1;
        if self.nodes > MAX_GROUND_NODES {
            return Err(format!("expanding the quantifiers over these sizes needs more than {MAX_GROUND_NODES} Z3 nodes"));
        }
        if self.nodes.is_multiple_of(STOP_EVERY) && self.stop.as_ref().is_some_and(|stop| stop()) {
            return Err(STOPPED.into());
        }
        Ok(())
    }

    fn term(&mut self, t: &Term, env: &[Option<Val>]) -> Result<Val, String> {
        self.charge()?;
        match t {
            Term::Var(v) => Ok(env[v.0 as usize]
                .clone()
                .expect("every variable is bound before use: axioms are closed")),
            Term::App(f, args) => {
                let args: Vec<Val> = args
                    .iter()
                    .map(|a| self.term(a, env))
                    .collect::<Result<_, _>>()?;
                let d = self.sig.func_decl(*f);
                Ok(match &self.symbols {
                    Symbols::Tables { funcs, .. } => {
                        let bv = self.lookup(&funcs[f.0 as usize], &d.args, &args);
                        Val::Z(Dynamic::from_ast(&bv))
                    }
                    Symbols::Decls { funcs, .. } => {
                        Val::Z(self.apply(&funcs[f.0 as usize], &d.args, &args))
                    }
                })
            }
        }
    }

    fn apply(&self, decl: &FuncDecl, sorts: &[SortId], args: &[Val]) -> Dynamic {
        let args: Vec<Dynamic> = args
            .iter()
            .zip(sorts)
            .map(|(a, s)| self.to_z3(a, *s))
            .collect();
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        decl.apply(&refs)
    }

    fn formula(
        &mut self,
        a: &Axiom,
        f: &Formula,
        env: &mut Vec<Option<Val>>,
    ) -> Result<Bool, String> {
        self.charge()?;
        Ok(match f {
            Formula::True => Bool::from_bool(true),
            Formula::False => Bool::from_bool(false),
            Formula::Eq(l, r) => {
                let (l, r) = (self.term(l, env)?, self.term(r, env)?);
                match (&l, &r) {
                    (Val::Elem(x), Val::Elem(y)) => Bool::from_bool(x == y),
                    _ => {
                        let s = term_sort(&self.sig, &a.vars, f);
                        self.to_z3(&l, s).eq(self.to_z3(&r, s))
                    }
                }
            }
            Formula::Rel(r, args) => {
                let args: Vec<Val> = args
                    .iter()
                    .map(|t| self.term(t, env))
                    .collect::<Result<_, _>>()?;
                let d = self.sig.rel_decl(*r);
                match &self.symbols {
                    Symbols::Tables { rels, .. } => {
                        self.lookup(&rels[r.0 as usize], &d.args, &args)
                    }
                    Symbols::Decls { rels, .. } => self
                        .apply(&rels[r.0 as usize], &d.args, &args)
                        .as_bool()
                        .expect("relations have range Bool"),
                }
            }
            Formula::Not(g) => self.formula(a, g, env)?.not(),
            Formula::And(l, r) => Bool::and(&[self.formula(a, l, env)?, self.formula(a, r, env)?]),
            Formula::Or(l, r) => Bool::or(&[self.formula(a, l, env)?, self.formula(a, r, env)?]),
            Formula::Implies(l, r) => self.formula(a, l, env)?.implies(self.formula(a, r, env)?),
            Formula::Iff(l, r) => self.formula(a, l, env)?.iff(self.formula(a, r, env)?),
            Formula::Forall(vs, g) => self.quantifier(a, true, vs, g, env)?,
            Formula::Exists(vs, g) => self.quantifier(a, false, vs, g, env)?,
        })
    }

    fn quantifier(
        &mut self,
        a: &Axiom,
        all: bool,
        vs: &[VarId],
        body: &Formula,
        env: &mut Vec<Option<Val>>,
    ) -> Result<Bool, String> {
        let saved: Vec<Option<Val>> = vs.iter().map(|v| env[v.0 as usize].clone()).collect();
        let result = match &self.domains {
            Domains::Finite(sizes) => {
                let sorts: Vec<SortId> = vs.iter().map(|v| a.vars[v.0 as usize].sort).collect();
                let mut parts = Vec::new();
                for values in birkhoff_engine::structure::tuples(sizes, &sorts).collect::<Vec<_>>()
                {
                    for (v, x) in vs.iter().zip(values) {
                        env[v.0 as usize] = Some(Val::Elem(x));
                    }
                    parts.push(self.formula(a, body, env)?);
                }
                if all {
                    Bool::and(&parts)
                } else {
                    Bool::or(&parts)
                }
            }
            Domains::Uninterpreted => {
                let Symbols::Decls { sorts, .. } = &self.symbols else {
                    unreachable!("uninterpreted domains use declarations")
                };
                let consts: Vec<Dynamic> = vs
                    .iter()
                    .map(|v| {
                        let d = &a.vars[v.0 as usize];
                        Dynamic::new_const(
                            format!("{}!{}!{}", d.name, v.0, self.tag),
                            &sorts[d.sort.0 as usize],
                        )
                    })
                    .collect();
                for (v, c) in vs.iter().zip(&consts) {
                    env[v.0 as usize] = Some(Val::Z(c.clone()));
                }
                let inner = self.formula(a, body, env)?;
                let bounds: Vec<&dyn Ast> = consts.iter().map(|c| c as &dyn Ast).collect();
                if all {
                    z3::ast::forall_const(&bounds, &[], &inner)
                } else {
                    z3::ast::exists_const(&bounds, &[], &inner)
                }
            }
        };
        for (v, old) in vs.iter().zip(saved) {
            env[v.0 as usize] = old;
        }
        Ok(result)
    }
}

/// The sort of the sides of the equation `f` (a variable's declared sort, or a result sort).
fn term_sort(sig: &Signature, vars: &[birkhoff_engine::syntax::VarDecl], f: &Formula) -> SortId {
    let Formula::Eq(l, _) = f else {
        unreachable!("called on equations")
    };
    match l {
        Term::Var(v) => vars[v.0 as usize].sort,
        Term::App(g, _) => sig.func_decl(*g).result,
    }
}
