//! The eight structural moves: functions from a theory (or two) and parameters to new theories.
//!
//! Every result is a [`Derived`] theory: it has passed [`sort_check`] (every symbol declared,
//! every argument of the right sort; for a result that extends its parent, [`finish_added`]
//! checks what the move added, the parent being well-formed already), it keeps every axiom of its
//! parent except those the move names as replaced or dropped (checked by [`derive()`]), and it
//! carries its [`Provenance`].
//! docs/MOVES.md describes each move with an example.

pub mod complete;
pub mod deform;
pub mod dualize;
pub mod expansions;
pub mod families;
pub mod generalize;
pub mod internalize;
pub mod laws;
pub mod quotient;
pub mod self_distrib;
pub mod transfer;

use crate::canon::AxiomSet;
use crate::signature::{FuncDecl, FuncId, Signature, SortId};
use crate::syntax::{Axiom, Formula, Term};
use crate::theory::Theory;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// The eight moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Move {
    /// Add a standard axiom the signature supports, with new symbols where needed.
    Complete,
    /// Weaken or twist an axiom; new parameters are declared.
    Deform,
    /// Carry axioms from one theory to another along a signature map.
    Transfer,
    /// Generalize: drop an axiom, or keep the common part of two theories.
    Abstract,
    /// The opposite operation or the reversed relation.
    Dualize,
    /// Impose an identification such as `x * x = e` or commutativity.
    Quotient,
    /// Name a derived operation, with its defining axioms.
    Internalize,
    /// Add left or right self-distributivity.
    SelfDistrib,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Move::Complete => "COMPLETE",
            Move::Deform => "DEFORM",
            Move::Transfer => "TRANSFER",
            Move::Abstract => "ABSTRACT",
            Move::Dualize => "DUALIZE",
            Move::Quotient => "QUOTIENT",
            Move::Internalize => "INTERNALIZE",
            Move::SelfDistrib => "SELF_DISTRIB",
        };
        f.write_str(s)
    }
}

/// Where a derived theory came from: the parents' names (one, or two for binary moves), the
/// move, its parameters (such as `law = identity`, `op = *`) and one line a mathematician
/// understands.
///
/// All the text is kept in one string: an exploration keeps one provenance per edge (208,667
/// at depth 2 from the seeds), and as separate strings they were a third of its memory.
/// Serialized as `{parents, move, params, description}`.
///
/// ```
/// use birkhoff_engine::moves::{Move, Provenance};
/// let p = Provenance::new(&["Semigroup"], Move::Complete, &[("law", "identity"), ("op", "*")], format_args!("Semigroup with an identity"));
/// assert_eq!(p.parents().collect::<Vec<_>>(), ["Semigroup"]);
/// assert_eq!(p.params().collect::<Vec<_>>(), [("law", "identity"), ("op", "*")]);
/// assert_eq!(p.description(), "Semigroup with an identity");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The move.
    pub mv: Move,
    /// The parents, then each parameter's name and value, then the description, one after the
    /// other.
    text: Box<str>,
    /// Where each part of `text` before the description ends (names may hold any character,
    /// so no separator would do).
    ends: Box<[u32]>,
    /// How many of those parts are parents.
    parents: u32,
}

impl Provenance {
    /// The provenance of a result of `mv` on `parents` with `params`.
    pub fn new(
        parents: &[&str],
        mv: Move,
        params: &[(&str, &str)],
        description: fmt::Arguments,
    ) -> Provenance {
        let parts = || {
            parents
                .iter()
                .copied()
                .chain(params.iter().flat_map(|(k, v)| [*k, *v]))
        };
        // Allocated once at its final size: one provenance is made per move result.
        with_formatted(description, |description| {
            let mut text =
                String::with_capacity(parts().map(str::len).sum::<usize>() + description.len());
            let mut ends = Vec::with_capacity(parents.len() + 2 * params.len());
            for part in parts() {
                text.push_str(part);
                ends.push(text.len() as u32);
            }
            text.push_str(description);
            Provenance {
                mv,
                text: text.into_boxed_str(),
                ends: ends.into_boxed_slice(),
                parents: parents.len() as u32,
            }
        })
    }

    /// Part `i` of the text (a parent, or a parameter's name or value).
    fn part(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    /// The parent theories' names.
    pub fn parents(&self) -> impl Iterator<Item = &str> {
        (0..self.parents as usize).map(|i| self.part(i))
    }

    /// The parameters, name and value.
    pub fn params(&self) -> impl Iterator<Item = (&str, &str)> {
        (self.parents as usize..self.ends.len())
            .step_by(2)
            .map(|i| (self.part(i), self.part(i + 1)))
    }

    /// The one-line description.
    pub fn description(&self) -> &str {
        &self.text[self.ends.last().map_or(0, |&e| e as usize)..]
    }
}

/// Calls `f` with `args` formatted, in a per-thread buffer: a string made from it can then be
/// allocated at its final size rather than grown while formatting.
fn with_formatted<R>(args: fmt::Arguments, f: impl FnOnce(&str) -> R) -> R {
    thread_local! {
        static BUFFER: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    BUFFER.with(|b| match b.try_borrow_mut() {
        Ok(mut b) => {
            b.clear();
            let _ = fmt::Write::write_fmt(&mut *b, args);
            f(&b)
        }
        // Formatting `args` itself formats something this way.
        Err(_) => f(&fmt::format(args)),
    })
}

impl Serialize for Provenance {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("Provenance", 4)?;
        out.serialize_field("parents", &self.parents().collect::<Vec<_>>())?;
        out.serialize_field("move", &self.mv)?;
        out.serialize_field("params", &self.params().collect::<Vec<_>>())?;
        out.serialize_field("description", self.description())?;
        out.end()
    }
}

/// A theory a move produced, with its provenance.
#[derive(Clone, Debug, Serialize)]
pub struct Derived {
    /// The new theory (sort-checked).
    pub theory: Theory,
    /// How it was made.
    pub provenance: Provenance,
}

/// Why a move could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The parameters do not fit the theory (a symbol that is missing or has the wrong profile).
    #[error("{0}")]
    Inapplicable(String),
    /// The result would be ill-sorted or use an undeclared symbol: a bug in the move.
    #[error("move produced an ill-formed theory: {0}")]
    IllFormed(String),
    /// The result lost axioms the move did not declare it would drop: a bug in the move.
    #[error("move dropped axioms silently: expected {expected} axioms, got {got}")]
    Dropped {
        /// How many axioms the result should have.
        expected: usize,
        /// How many it has.
        got: usize,
    },
}

/// Checks that every symbol a theory uses is declared and every term has the sort its position needs.
pub fn sort_check(t: &Theory) -> Result<(), MoveError> {
    check_from(t, (0, 0), 0)
}

/// [`sort_check`] of what lies past a well-formed part of `t`: the function and relation
/// symbols from indices `funcs_from` and `rels_from` on, the axioms from `axioms_from` on. Their profiles name
/// declared sorts, no name is used twice (if any symbol or axiom is new), and the axioms are
/// well-sorted; the part before stays well-formed in a signature that only grows.
fn check_from(
    t: &Theory,
    (funcs_from, rels_from): (usize, usize),
    axioms_from: usize,
) -> Result<(), MoveError> {
    let sig = &t.sig;
    let bad = |m: String| Err(MoveError::IllFormed(format!("{}: {m}", t.name)));
    let funcs = sig.funcs[funcs_from..]
        .iter()
        .map(|d| (&d.args, Some(d.result)));
    for d in funcs.chain(sig.rels[rels_from..].iter().map(|d| (&d.args, None))) {
        if d.0
            .iter()
            .chain(d.1.iter())
            .any(|s| s.0 as usize >= sig.sorts.len())
        {
            return bad("a symbol's profile names an undeclared sort".into());
        }
    }
    let symbols = || {
        sig.funcs
            .iter()
            .map(|d| d.name.as_str())
            .chain(sig.rels.iter().map(|d| d.name.as_str()))
    };
    let nf = sig.funcs.len();
    if let Some(n) = repeated(symbols, |p| {
        (funcs_from..nf).contains(&p) || p >= nf + rels_from
    }) {
        return bad(format!("symbol `{n}` declared twice"));
    }
    if let Some(n) = repeated(
        || t.axioms.iter().map(|a| a.name.as_str()),
        |p| p >= axioms_from,
    ) {
        return bad(format!("axiom name `{n}` used twice"));
    }
    for a in &t.axioms[axioms_from..] {
        if let Err(e) = check_formula(sig, a, &a.formula) {
            return bad(format!("axiom {}: {}", a.name, e.describe(sig)));
        }
    }
    Ok(())
}

/// A name that occurs more than once among `names`, looking only at the positions `new` picks
/// (in a well-formed part followed by new ones, a repeat involves a new name). Compares without
/// allocating: moves ask this of every result, for one or two new names each.
fn repeated<'a, I: Iterator<Item = &'a str>>(
    names: impl Fn() -> I,
    new: impl Fn(usize) -> bool,
) -> Option<&'a str> {
    names()
        .enumerate()
        .filter(|&(p, _)| new(p))
        .find(|&(p, n)| names().enumerate().any(|(q, m)| q != p && m == n))
        .map(|(_, n)| n)
}

/// Why an axiom is ill-sorted, told by indices: moves check every result, so the message (which
/// needs names) is written only when a check fails ([`IllSorted::describe`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum IllSorted {
    /// A variable the axiom does not declare.
    Variable(u32),
    /// An undeclared function symbol.
    Function(u32),
    /// An undeclared relation symbol.
    Relation(u32),
    /// A function (`true`) or relation symbol applied to the wrong number of arguments: its
    /// index, arity, and the number given.
    Arity(bool, u32, usize, usize),
    /// An argument of a function (`true`) or relation symbol of the wrong sort.
    ArgumentSort(bool, u32),
    /// The two sides of an equation have different sorts.
    Sides,
    /// A quantifier binds an undeclared variable.
    Bound,
}

impl IllSorted {
    /// The message, with the symbols' names from `sig`.
    pub(crate) fn describe(self, sig: &Signature) -> String {
        let name = |func: bool, i: u32| {
            if func {
                sig.funcs[i as usize].name.as_str()
            } else {
                sig.rels[i as usize].name.as_str()
            }
        };
        match self {
            IllSorted::Variable(v) => format!("undeclared variable {v}"),
            IllSorted::Function(f) => format!("undeclared function symbol {f}"),
            IllSorted::Relation(r) => format!("undeclared relation symbol {r}"),
            IllSorted::Arity(func, i, want, given) => {
                format!("`{}` takes {want} arguments, given {given}", name(func, i))
            }
            IllSorted::ArgumentSort(func, i) => {
                format!("an argument of `{}` has the wrong sort", name(func, i))
            }
            IllSorted::Sides => "the sides of an equation have different sorts".into(),
            IllSorted::Bound => "a quantifier binds an undeclared variable".into(),
        }
    }
}

/// The sort of term `t` of axiom `a`, checking that it is well-sorted.
pub(crate) fn term_sort(sig: &Signature, a: &Axiom, t: &Term) -> Result<SortId, IllSorted> {
    match t {
        Term::Var(v) => a
            .vars
            .get(v.0 as usize)
            .map(|d| d.sort)
            .ok_or(IllSorted::Variable(v.0)),
        Term::App(f, args) => {
            let d = sig
                .funcs
                .get(f.0 as usize)
                .ok_or(IllSorted::Function(f.0))?;
            check_args(sig, a, (true, f.0), &d.args, args)?;
            Ok(d.result)
        }
    }
}

/// Checks the arguments of function (`true`) or relation symbol `symbol`, of profile `want`.
fn check_args(
    sig: &Signature,
    a: &Axiom,
    symbol: (bool, u32),
    want: &[SortId],
    args: &[Term],
) -> Result<(), IllSorted> {
    if want.len() != args.len() {
        return Err(IllSorted::Arity(symbol.0, symbol.1, want.len(), args.len()));
    }
    for (w, t) in want.iter().zip(args) {
        if term_sort(sig, a, t)? != *w {
            return Err(IllSorted::ArgumentSort(symbol.0, symbol.1));
        }
    }
    Ok(())
}

fn check_formula(sig: &Signature, a: &Axiom, f: &Formula) -> Result<(), IllSorted> {
    match f {
        Formula::True | Formula::False => Ok(()),
        Formula::Eq(l, r) => {
            if term_sort(sig, a, l)? != term_sort(sig, a, r)? {
                return Err(IllSorted::Sides);
            }
            Ok(())
        }
        Formula::Rel(r, args) => {
            let d = sig.rels.get(r.0 as usize).ok_or(IllSorted::Relation(r.0))?;
            check_args(sig, a, (false, r.0), &d.args, args)
        }
        Formula::Not(g) => check_formula(sig, a, g),
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            if vs.iter().any(|v| v.0 as usize >= a.vars.len()) {
                return Err(IllSorted::Bound);
            }
            check_formula(sig, a, g)
        }
        Formula::And(x, y) | Formula::Or(x, y) | Formula::Implies(x, y) | Formula::Iff(x, y) => {
            check_formula(sig, a, x)?;
            check_formula(sig, a, y)
        }
    }
}

/// Builds a derived theory: the parent with `removed` axioms (by index) taken out, the symbols
/// `new_funcs` declared and `added` axioms appended (renamed apart from existing names), then
/// sort-checked and counted so that nothing is dropped silently. The result is named `parent+tag`.
pub fn derive(
    parent: &Theory,
    removed: &[usize],
    new_funcs: Vec<FuncDecl>,
    added: Vec<Axiom>,
    prov: Provenance,
    tag: fmt::Arguments,
) -> Result<Derived, MoveError> {
    let mut t = Theory {
        name: with_formatted(format_args!("{}+{tag}", parent.name), str::to_string),
        doc: prov.description().to_string(),
        meta: Default::default(),
        sig: parent.sig.clone(),
        axioms: parent
            .axioms
            .iter()
            .enumerate()
            .filter(|(i, _)| !removed.contains(i))
            .map(|(_, a)| a.clone())
            .collect(),
    };
    if !new_funcs.is_empty() {
        Arc::make_mut(&mut t.sig).funcs.extend(new_funcs);
    }
    let expected = parent.axioms.len() - removed.len() + added.len();
    let kept = t.axioms.len();
    for mut a in added {
        a.name = fresh_axiom_name(&t, std::mem::take(&mut a.name));
        t.axioms.push(Arc::new(a));
    }
    finish_added(t, &parent.sig, kept, expected, prov)
}

/// Sort-checks `t`, checks it has `expected` axioms, and attaches the provenance.
pub fn finish(
    theory: Theory,
    expected: usize,
    provenance: Provenance,
) -> Result<Derived, MoveError> {
    sort_check(&theory)?;
    counted(theory, expected, provenance)
}

/// [`finish`] for a theory that is a well-formed parent plus what a move added: the symbols
/// past those of `parent` (the parent's signature, which `theory`'s extends) and the axioms from
/// index `axioms_from` on. Only those are checked: the parent's symbols and axioms stay
/// well-formed in a signature that only grows. (Parents are well-formed: the parser checks what
/// it reads, and every move result is checked.)
pub fn finish_added(
    theory: Theory,
    parent: &Signature,
    axioms_from: usize,
    expected: usize,
    provenance: Provenance,
) -> Result<Derived, MoveError> {
    debug_assert!(
        sort_check(&Theory {
            axioms: theory.axioms[..axioms_from].to_vec(),
            ..theory.clone()
        })
        .is_ok(),
        "the parent of {} is ill-formed",
        theory.name
    );
    check_from(
        &theory,
        (parent.funcs.len(), parent.rels.len()),
        axioms_from,
    )?;
    counted(theory, expected, provenance)
}

fn counted(theory: Theory, expected: usize, provenance: Provenance) -> Result<Derived, MoveError> {
    if theory.axioms.len() != expected {
        return Err(MoveError::Dropped {
            expected,
            got: theory.axioms.len(),
        });
    }
    Ok(Derived { theory, provenance })
}

/// `base`, or `base2`, `base3`, ... : an axiom name `t` does not use yet. `base` itself is
/// returned when it is free (the usual case), without allocating.
pub fn fresh_axiom_name(t: &Theory, base: String) -> String {
    if t.axiom(&base).is_none() {
        return base;
    }
    (2..)
        .map(|i| format!("{base}{i}"))
        .find(|n| t.axiom(n).is_none())
        .expect("some name is free")
}

/// `base`, or `base2`, ... : a symbol name `sig` does not use yet.
pub fn fresh_symbol(sig: &Signature, base: &str) -> String {
    (1..)
        .map(|i| {
            if i == 1 {
                base.to_string()
            } else {
                format!("{base}{i}")
            }
        })
        .find(|n| !sig.has_symbol(n))
        .expect("some name is free")
}

/// The first of `names` that `sig` does not use, else a fresh variant of the last one.
pub fn fresh_from(sig: &Signature, names: &[&str]) -> String {
    names
        .iter()
        .find(|n| !sig.has_symbol(n))
        .map(|n| n.to_string())
        .unwrap_or_else(|| fresh_symbol(sig, names[names.len() - 1]))
}

/// The function symbols `f : s s -> s` (binary operations on one sort), with their sort.
pub fn binary_ops(sig: &Signature) -> Vec<(FuncId, SortId)> {
    sig.func_ids()
        .filter_map(|f| homogeneous(sig, f, 2))
        .collect()
}

/// The constants, with their sort.
pub fn constants(sig: &Signature) -> Vec<(FuncId, SortId)> {
    sig.func_ids()
        .filter_map(|f| homogeneous(sig, f, 0))
        .collect()
}

/// The unary operations `s -> s`, with their sort.
pub fn unary_ops(sig: &Signature) -> Vec<(FuncId, SortId)> {
    sig.func_ids()
        .filter_map(|f| homogeneous(sig, f, 1))
        .collect()
}

fn homogeneous(sig: &Signature, f: FuncId, arity: usize) -> Option<(FuncId, SortId)> {
    let d = sig.func_decl(f);
    (d.args.len() == arity && d.args.iter().all(|s| *s == d.result)).then_some((f, d.result))
}

/// The binary operation called `name`, or an error naming it.
pub fn find_binary(sig: &Signature, name: &str) -> Result<(FuncId, SortId), MoveError> {
    sig.func(name)
        .and_then(|f| homogeneous(sig, f, 2))
        .ok_or_else(|| {
            MoveError::Inapplicable(format!("no binary operation `{name}` of profile s s -> s"))
        })
}

/// A new function symbol declaration with default notation.
pub fn new_func(name: String, args: Vec<SortId>, result: SortId) -> FuncDecl {
    let fixity = crate::signature::default_binary_fixity(&name);
    FuncDecl {
        name,
        args,
        result,
        fixity,
    }
}

/// A constant `c` of sort `s` such that `f` has identity `c` in `t` (both identity axioms present).
pub fn identity_of(t: &Theory, f: FuncId, s: SortId) -> Option<FuncId> {
    constants(&t.sig)
        .into_iter()
        .filter(|(_, cs)| *cs == s)
        .map(|(c, _)| c)
        .find(|&c| {
            laws::identity(f, c, s)
                .iter()
                .all(|a| crate::canon::has_axiom(t, a))
        })
}

/// Provenance with one parent.
pub fn prov(
    parent: &Theory,
    mv: Move,
    params: &[(&str, &str)],
    description: fmt::Arguments,
) -> Provenance {
    Provenance::new(&[&parent.name], mv, params, description)
}

/// Every result of every unary move with its default parameters, in a fixed order. Binary moves
/// (TRANSFER, and ABSTRACT's common part) take a second theory: see [`binary_moves`].
pub fn unary_moves(t: &Theory) -> Vec<Derived> {
    let mut out = Vec::new();
    out.extend(complete::all(t));
    out.extend(deform::all(t));
    out.extend(generalize::all(t));
    out.extend(dualize::all(t));
    out.extend(quotient::all(t));
    out.extend(internalize::all(t));
    out.extend(self_distrib::all(t));
    out
}

/// Every result of the binary moves from `source` into `target`: TRANSFER of each axiom set
/// along each signature map, and ABSTRACT's common part.
pub fn binary_moves(source: &Theory, target: &Theory) -> Vec<Derived> {
    binary_moves_of(&transfer::Pair::new(
        source,
        &AxiomSet::of(source),
        target,
        &AxiomSet::of(target),
    ))
}

/// [`binary_moves`] from a pair's source into its target, their axioms already encoded.
pub fn binary_moves_of(pair: &transfer::Pair) -> Vec<Derived> {
    let mut out = transfer::all_into(pair);
    out.extend(generalize::common_part_with(pair).and_then(Result::ok));
    out
}
