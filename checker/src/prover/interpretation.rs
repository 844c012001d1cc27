//! Two theories shown the same class through definitions in both directions (term equivalence;
//! for relations, and for operations that are no term, quantifier-free first-order definitions),
//! found from the small models and then proved. See [`by_interpretation`].
//!
//! A Boolean ring is a Boolean algebra read through `x + y := (x ^ c(y)) v (c(x) ^ y)` and
//! `x * y := x ^ y`; a strict order is a partial order read through `lt(x, y) := le(x, y) & x != y`;
//! a group written with a division is a group read through `x / y := x * inv(y)`. No renaming of
//! symbols sees these, and the spectra only say that they may be the same.
//!
//! **What is shown.** For theories `A` and `B` over one sort each: `δ` defines every symbol of
//! `A` over `B`'s symbols (an operation by a term, or by a quantifier-free formula for its graph
//! where no term will do; a constant by a term whose value `B` proves not to depend on its
//! variable; a relation by a quantifier-free formula) and `ε` every symbol of `B` over `A`'s.
//! Four sets of proved obligations, each within the caller's prover options:
//! 1. `B` proves every axiom of `A` translated by `δ`, that `δ`'s constants are constant, and
//!    that each graph `δ` gives is total and single-valued (so it is an operation's); an atom
//!    with an operation defined by a graph `G` is read as `∀v (G(ā, v) → φ[v])`;
//! 2. `A` proves every axiom of `B` translated by `ε`, and the same of `ε`'s constants and graphs;
//! 3. `A` proves `f(x̄) = δ(f)[ε]` for each operation `f` of `A` (`↔` for a relation;
//!    `δ(f)[ε]` holds of `x̄` and `f(x̄)` for a graph);
//! 4. `B` proves `g(x̄) = ε(g)[δ]` for each symbol `g` of `B`.
//!
//! By 1, reading a model `M` of `B` through `δ` gives a model `δ(M)` of `A` on the same elements;
//! by 2, likewise `ε(N)` for a model `N` of `A`. By 4, `ε(δ(M)) = M`, and by 3, `δ(ε(N)) = N`:
//! `δ` and `ε` are inverse bijections between the models of `A` and of `B` on each set. A
//! bijection between two sets carries definitions along, so `δ` and `ε` keep isomorphism: the two
//! theories are the same class read through the definitions, with the same number of models of
//! every size. Nothing here rests on the small models: they only choose what to prove.
//!
//! **How the definitions are found.** Terms (and formulas) over one signature are enumerated
//! bottom up, fewest operations first, each evaluated at once on every small model; of the terms
//! that compute the same tables on all of them only the first is kept (observational
//! equivalence), which is what makes a five-operation term such as the symmetric difference above
//! reachable. `δ` is then a backtracking search over `A`'s symbols (fewest candidates first),
//! pruned by every axiom of `A` whose symbols are all assigned, evaluated on `δ(M)` for every
//! small model `M` of `B` (one per isomorphism class suffices: definitions commute with
//! isomorphisms). Given `δ`, each symbol `g` of `B` needs an `ε(g)` that gives `g`'s table back
//! on every `δ(M)`: a table match, symbol by symbol. When `A` over `B` finds nothing, the search
//! runs the other way. A candidate the prover refutes adds its countermodel to the small models
//! and the search starts again (counterexample-guided); one left unsettled ends it, and a
//! renaming of symbols is left to `relate`, which tries renamings first. Every
//! part is capped (terms, backtracking nodes, proof attempts, a deadline of two prover timeouts
//! for the search itself and eight in all, the cancel flag), so a pair that is not the same class costs seconds and is "not shown", never
//! "different".
//!
//! **A strict inclusion.** When one side proves its half (`A`: obligations 2 and 3) and the other
//! half is left open, reading `A`'s models through `ε` is one-to-one on classes of each size. A
//! model `M` of `B` with `δ(M)` violating an axiom of `A` is then no such reading (were
//! `M = ε(N)`, then `δ(M) = N` by 3), so `B` has more models of `M`'s size: the classes differ
//! ([`Invariant::Embedding`]). Groups read as loops are Moufang loops, and the Moufang loop of
//! order 12 is no group. `δ` must use no graphs here: 3 shows a graph read back holds of `f(x̄)`,
//! not that it holds of nothing else.

use super::countermodel;
use super::equivalence::{
    prove_goals, violating_model, AxiomProof, Invariant, Outcome, Relation, Side, SmallLaws,
    Witness, MODEL_SIZE,
};
use super::Options;
use crate::budget::Budget;
use crate::finder::FinderError;
use birkhoff_engine::moves::transfer::SymbolMap;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, RelId, Signature, SortId};
use birkhoff_engine::syntax::{Formula, Term, VarDecl, VarId};
use birkhoff_engine::{eval, Axiom, Structure, Theory};
use rustc_hash::FxHashSet;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// One symbol of one theory defined in the other's symbols.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SymbolDefinition {
    /// The defined symbol, as its theory names it.
    pub symbol: String,
    /// The definition, such as `x + y = (x ^ c(y)) v (c(x) ^ y)` or `lt(x, y) <-> le(x, y) & ~x = y`.
    pub text: String,
}

/// A proved term equivalence between theories `a` and `b`.
#[derive(Clone, Debug, Serialize)]
pub struct Interpretation {
    /// `a`'s name.
    pub a: String,
    /// `b`'s name.
    pub b: String,
    /// Every symbol of `a`, defined over `b`'s symbols.
    pub a_in_b: Vec<SymbolDefinition>,
    /// Every symbol of `b`, defined over `a`'s symbols.
    pub b_in_a: Vec<SymbolDefinition>,
    /// The proofs: each theory proves the other's axioms translated, and both round trips.
    pub proofs: Vec<AxiomProof>,
}

impl Interpretation {
    /// One line saying what was shown.
    pub fn describe(&self) -> String {
        let defs = |d: &[SymbolDefinition]| {
            d.iter()
                .map(|d| format!("`{}`", d.text))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "the same class through definitions both ways: {} in {}'s symbols by {}; {} in {}'s by {} ({})",
            self.a,
            self.b,
            defs(&self.a_in_b),
            self.b,
            self.a,
            defs(&self.b_in_a),
            super::equivalence::proof_counts(&self.proofs)
        )
    }
}

/// Terms tried as definitions have at most this many operations of positive arity (constants are
/// free): the symmetric difference `(x ^ c(y)) v (c(x) ^ y)` has five.
const MAX_TERM_OPERATIONS: usize = 5;

/// Formulas tried as definitions of relations have at most this many connectives over their atoms
/// (`le(x, y) & ~x = y` has two).
const MAX_CONNECTIVES: usize = 3;

/// At most this many distinct terms (or formulas) are kept per number of variables.
const MAX_CLASSES: usize = 4000;

/// At most this many values are computed per enumeration of terms (or formulas): a term built
/// costs one value per assignment of its variables in every small model.
const MAX_WORK: usize = 20_000_000;

/// The small models used for one theory have at most this many assignments of the widest
/// symbol's arguments in all: the smallest models are kept, countermodels from the prover first.
const MAX_POSITIONS: usize = 6000;

/// At most this many nodes of the backtracking over one theory's symbols per search.
const MAX_NODES: usize = 100_000;

/// At most this many complete `δ` are tried for an `ε` per search.
const MAX_DELTAS: usize = 40;

/// At most this many candidates per symbol of `B` that give its tables back.
const MAX_INVERSES: usize = 3;

/// At most this many pairs of definitions per search go to the prover.
const MAX_PAIRS: usize = 4;

/// At most this many pairs of definitions are left unsettled by the prover before giving up:
/// the next candidates are mostly the same definitions read dually, which the prover does no
/// better on.
const MAX_UNSETTLED: usize = 1;

/// At most this many pairs of definitions are refuted (each adding a countermodel) before giving
/// up.
const MAX_REFUTED: usize = 10;

/// At most this many pairs of definitions are tried as a strict inclusion ([`embedding`]), each
/// a proof of one side's half of the obligations.
const MAX_EMBEDDINGS: usize = 2;

/// The search for definitions stops, and no new pair goes to the prover, after this many prover
/// timeouts of its own (the prover's time on the pairs it proposes not counted), and after
/// [`OVERALL_TIMEOUTS`] in all.
const DEADLINE_TIMEOUTS: u32 = 2;

/// The cap on all the time the search and the prover spend on one comparison, in prover timeouts.
const OVERALL_TIMEOUTS: u32 = 8;

/// `a` and `b` shown the same class through definitions both ways (the module's four proved
/// obligations), or different by a strict inclusion through definitions (the module's last
/// paragraph), or `Ok(Err(why))` when neither was shown within `opts` and the caps, `why` saying
/// what was tried and where it stopped (the definitions found and the obligation left open, for
/// one). Both theories must have one sort; `a.models` and `b.models`
/// choose the candidates.
pub fn by_interpretation(
    a: &Side,
    b: &Side,
    opts: &Options,
) -> Result<Result<Relation, String>, FinderError> {
    let (ta, tb) = (a.theory, b.theory);
    if !ta.sig.is_single_sorted() || !tb.sig.is_single_sorted() {
        return Ok(Err(
            "definitions are searched for only between theories of one sort".into(),
        ));
    }
    let one_sorted = |ms: &[Structure]| -> Vec<Structure> {
        ms.iter().filter(|m| m.sizes.len() == 1).cloned().collect()
    };
    // Countermodels found by the prover, kept ahead of the sides' models.
    let mut found: [Vec<Structure>; 2] = [Vec::new(), Vec::new()];
    let given = [one_sorted(&a.models), one_sorted(&b.models)];
    let width = widest(ta).max(widest(tb)).max(1);
    let mut unsettled: HashSet<Pair> = HashSet::new();
    let mut refuted = 0;
    let mut embeddings = 0;
    let mut limits = Limits {
        deadline: Instant::now() + opts.timeout * DEADLINE_TIMEOUTS,
        cancel: opts.cancel.clone(),
    };
    let overall = Instant::now() + opts.timeout * OVERALL_TIMEOUTS;
    loop {
        let models: Vec<Vec<Structure>> = (0..2)
            .map(|i| small_models(&found[i], &given[i], width))
            .collect();
        // Terms first; operations defined by their graphs only where no terms are found (the
        // formulas in one more variable cost more, and a term is the better definition).
        let mut pairs = Vec::new();
        // Why a search stopped short, if one did: then "none found" is not "none".
        let mut cut = None;
        for graphs in [false, true] {
            let found = search(ta, &models[0], tb, &models[1], &unsettled, &limits, graphs);
            cut = cut.or(found.cut);
            pairs = found.pairs;
            if pairs.is_empty() {
                let found = search(tb, &models[1], ta, &models[0], &unsettled, &limits, graphs);
                cut = cut.or(found.cut);
                pairs = found
                    .pairs
                    .into_iter()
                    .map(|p| Pair {
                        a_in_b: p.b_in_a,
                        b_in_a: p.a_in_b,
                    })
                    .collect();
            }
            if !pairs.is_empty() {
                break;
            }
        }
        if pairs.is_empty() {
            let refutations = match refuted {
                0 => String::new(),
                n => format!(" after the prover refuted {n} candidate definition(s)"),
            };
            return Ok(Err(match cut {
                Some(Cut::Clock) => format!(
                    "the search for definitions used its time ({DEADLINE_TIMEOUTS} prover \
                     timeouts of its own){refutations}"
                ),
                Some(Cut::Caps) => format!(
                    "the search for definitions reached its limits ({MAX_NODES} nodes, \
                     {MAX_DELTAS} definitions tried, {MAX_CLASSES} terms or formulas per \
                     enumeration) without a candidate{refutations}"
                ),
                None if refuted == 0 => format!(
                    "no definitions of each theory's symbols in the other's (terms of up to \
                     {MAX_TERM_OPERATIONS} operations, formulas of up to {MAX_CONNECTIVES} \
                     connectives, operations by such formulas for their graphs) agree with both \
                     theories' small models"
                ),
                None => format!(
                    "the prover refuted {refuted} candidate definition(s) with countermodels, and \
                     no other candidates agree with the small models"
                ),
            }));
        }
        let mut refutation = None;
        for (k, pair) in pairs.into_iter().enumerate() {
            // The first candidate a search returned is tried while the comparison has time: the
            // search's own time was spent finding it (under load a search after a refutation
            // took 3.9 s of its 4), not on the prover.
            let (until, timeouts) = if k == 0 {
                (overall, OVERALL_TIMEOUTS)
            } else {
                (limits.deadline, DEADLINE_TIMEOUTS)
            };
            if limits.cancelled() || Instant::now() > until {
                return Ok(Err(format!(
                    "the search for definitions used its time ({timeouts} prover timeouts) \
                     before a candidate was proved"
                )));
            }
            let proving = Instant::now();
            // The search keeps its own time: what the prover spends on a pair (and on the
            // strict inclusion it may give) moves the deadline, up to the overall cap.
            let give_back = |limits: &mut Limits| {
                limits.deadline = (limits.deadline + proving.elapsed()).min(overall);
            };
            let opts = &pair.prover_options(opts);
            match prove_pair(ta, tb, &pair, opts)? {
                Proof::Proved(proofs) => {
                    return Ok(Ok(Relation::Interpreted(Box::new(Interpretation {
                        a: ta.name.clone(),
                        b: tb.name.clone(),
                        a_in_b: texts(ta, tb, &pair.a_in_b),
                        b_in_a: texts(tb, ta, &pair.b_in_a),
                        proofs,
                    }))))
                }
                Proof::Refuted {
                    side,
                    witness,
                    translated,
                } => {
                    // A model of one side read as the other violates an axiom: if the other
                    // side proves its half, that model shows a strict inclusion.
                    if translated && embeddings < MAX_EMBEDDINGS {
                        embeddings += 1;
                        let found = Some(witness.as_ref());
                        if let Embedded::Shown(invariant) =
                            embedding(ta, tb, &pair, side == 0, found, opts)?
                        {
                            return Ok(Ok(Relation::Different {
                                a: ta.name.clone(),
                                b: tb.name.clone(),
                                invariant,
                            }));
                        }
                    }
                    give_back(&mut limits);
                    refutation = Some((side, witness.model));
                    break;
                }
                Proof::Unsettled(open, failed) => {
                    // One side left its half open: the other may still embed in it strictly.
                    // (This ends the search, so it needs no count of its own.)
                    match embedding(ta, tb, &pair, failed == 0, None, opts)? {
                        Embedded::Shown(invariant) => {
                            return Ok(Ok(Relation::Different {
                                a: ta.name.clone(),
                                b: tb.name.clone(),
                                invariant,
                            }))
                        }
                        // A definition the small models could not tell from the right one (in
                        // groups of order 3 or less, `y * inv(x)` is `inv(x) * y`).
                        Embedded::Refuted(side, model) => {
                            give_back(&mut limits);
                            refutation = Some((side, model));
                            break;
                        }
                        Embedded::NotShown => {}
                    }
                    let found = format!(
                        "definitions were found that agree with the small models ({} in {}'s \
                         symbols by {}; {} in {}'s by {}), but {open} in the time given",
                        ta.name,
                        tb.name,
                        quoted(&texts(ta, tb, &pair.a_in_b)),
                        tb.name,
                        ta.name,
                        quoted(&texts(tb, ta, &pair.b_in_a)),
                    );
                    unsettled.insert(pair);
                    if unsettled.len() >= MAX_UNSETTLED {
                        return Ok(Err(found));
                    }
                    give_back(&mut limits);
                }
            }
        }
        if let Some((side, model)) = refutation {
            found[side].push(model);
            refuted += 1;
            if refuted >= MAX_REFUTED {
                return Ok(Err(format!(
                    "the prover refuted {refuted} candidate definitions with countermodels"
                )));
            }
        }
    }
}

/// When the search must stop: its deadline, or the caller's cancel flag.
struct Limits {
    deadline: Instant,
    cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    fn over(&self) -> bool {
        Instant::now() > self.deadline || self.cancelled()
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// The largest arity among `t`'s symbols.
fn widest(t: &Theory) -> usize {
    let funcs = t.sig.funcs.iter().map(|d| d.args.len());
    funcs
        .chain(t.sig.rels.iter().map(|d| d.args.len()))
        .max()
        .unwrap_or(0)
}

/// `found` then `given`, as long as their assignments of `width` arguments stay within
/// [`MAX_POSITIONS`] (the first is always kept).
fn small_models(found: &[Structure], given: &[Structure], width: usize) -> Vec<Structure> {
    let mut total = 0;
    let mut out = Vec::new();
    for m in found.iter().chain(given) {
        total += (m.sizes[0] as usize).pow(width as u32);
        if total > MAX_POSITIONS && !out.is_empty() {
            break;
        }
        out.push(m.clone());
    }
    out
}

/// A symbol of a signature, operations first, then relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Symbol {
    Func(FuncId),
    Rel(RelId),
}

fn symbols(sig: &Signature) -> Vec<Symbol> {
    sig.func_ids()
        .map(Symbol::Func)
        .chain(sig.rel_ids().map(Symbol::Rel))
        .collect()
}

impl Symbol {
    fn arity(self, sig: &Signature) -> usize {
        match self {
            Symbol::Func(f) => sig.func_decl(f).args.len(),
            Symbol::Rel(r) => sig.rel_decl(r).args.len(),
        }
    }

    fn name(self, sig: &Signature) -> &str {
        match self {
            Symbol::Func(f) => &sig.func_decl(f).name,
            Symbol::Rel(r) => &sig.rel_decl(r).name,
        }
    }

    /// The variables a definition of the symbol is written in: its arguments, or one variable for
    /// a constant (defined by a term whose value does not depend on it).
    fn variables(self, sig: &Signature) -> usize {
        self.arity(sig).max(1)
    }
}

/// A definition's right-hand side over the other signature, in the variables `VarId(0..k)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Body {
    Term(Term),
    Formula(Formula),
    /// An operation of `k` arguments defined by its graph: a formula free in `VarId(0..=k)`
    /// that holds exactly when the operation maps the first `k` to the last (`x \ y = z` as
    /// `x * z = y`, where no term of `*` is the division). Its bound variables, if any, are
    /// numbered after `k` (a meet as the greatest lower bound of an order).
    Graph(Formula),
}

/// Definitions both ways: every symbol of `a` over `b`'s (in [`symbols`] order), and the reverse.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Pair {
    a_in_b: Vec<Body>,
    b_in_a: Vec<Body>,
}

impl Pair {
    /// The prover's options for this pair's obligations: Z3 not asked whole goals where a graph
    /// has a quantifier of its own (a meet as a greatest lower bound), as on a lattice's axioms
    /// its E-matching on such goals took gigabytes within seconds (3.4 GB for one `identify`);
    /// E and the witnesses stay on ([`Options::z3_whole_goals`]).
    fn prover_options(&self, opts: &Options) -> Options {
        let quantified = self
            .a_in_b
            .iter()
            .chain(&self.b_in_a)
            .any(|body| matches!(body, Body::Graph(g) if !bound_variables(g).is_empty()));
        Options {
            z3_whole_goals: opts.z3_whole_goals && !quantified,
            ..opts.clone()
        }
    }

    /// Whether each symbol is defined as a distinct symbol of the other theory applied to its
    /// variables in order, both ways, as many each way: a renaming of symbols, which
    /// [`super::equivalence::relate`] tries before definitions, with the same prover options.
    fn is_renaming(&self) -> bool {
        let plain = |args: &[Term]| {
            args.iter()
                .enumerate()
                .all(|(i, a)| *a == Term::Var(VarId(i as u32)))
        };
        let heads = |defs: &[Body]| -> Option<HashSet<Symbol>> {
            defs.iter()
                .map(|body| match body {
                    Body::Term(Term::App(f, args)) if plain(args) => Some(Symbol::Func(*f)),
                    Body::Formula(Formula::Rel(r, args)) if plain(args) => Some(Symbol::Rel(*r)),
                    _ => None,
                })
                .collect()
        };
        let n = self.a_in_b.len();
        n == self.b_in_a.len()
            && heads(&self.a_in_b).is_some_and(|h| h.len() == n)
            && heads(&self.b_in_a).is_some_and(|h| h.len() == n)
    }
}

/// Every assignment of `k` variables in each of some one-sorted structures, the last variable
/// fastest: a vector of values over the grid is, structure by structure, a table.
struct Grid {
    /// The structure of each position.
    structure: Vec<u32>,
    /// The value of each variable at each position.
    args: Vec<Vec<u32>>,
    /// Where each structure's positions start, and the end.
    starts: Vec<usize>,
}

fn grid(structures: &[Structure], k: usize) -> Grid {
    let mut g = Grid {
        structure: Vec::new(),
        args: vec![Vec::new(); k],
        starts: Vec::new(),
    };
    for (i, m) in structures.iter().enumerate() {
        g.starts.push(g.structure.len());
        let n = m.sizes[0] as usize;
        for index in 0..n.pow(k as u32) {
            g.structure.push(i as u32);
            let mut rest = index;
            for v in (0..k).rev() {
                g.args[v].push((rest % n) as u32);
                rest /= n;
            }
        }
    }
    g.starts.push(g.structure.len());
    g
}

impl Grid {
    /// The segment of `values` that belongs to structure `i`.
    fn segment<'v, V>(&self, values: &'v [V], i: usize) -> &'v [V] {
        &values[self.starts[i]..self.starts[i + 1]]
    }
}

/// The tables of a candidate whose values on the grid are `values`, one per structure of the `n`,
/// when they begin with `prefix`; `None` when a structure's table differs, found before any table
/// is built (most candidates differ in the first structure). A constant's table is its one
/// value, and only where the term is constant.
fn fitting_tables<V: Copy + Into<u32>>(
    grid: &Grid,
    n: usize,
    values: &[V],
    prefix: &[Vec<u32>],
    constant: bool,
) -> Option<Vec<Vec<u32>>> {
    let table = |i: usize| -> Option<&[V]> {
        let segment = grid.segment(values, i);
        if !constant {
            Some(segment)
        } else {
            let first: u32 = segment[0].into();
            segment
                .iter()
                .all(|&v| v.into() == first)
                .then(|| &segment[..1])
        }
    };
    let fits = (0..n).zip(prefix).all(|(i, p)| {
        table(i)
            .is_some_and(|t| t.len() == p.len() && t.iter().zip(p).all(|(&v, &q)| v.into() == q))
    });
    if !fits {
        return None;
    }
    (0..n)
        .map(|i| Some(table(i)?.iter().map(|&v| v.into()).collect()))
        .collect()
}

/// The entry of a table over `n` elements at the argument values `args`.
fn entry(n: u32, args: impl Iterator<Item = u32>) -> usize {
    args.fold(0, |acc, a| acc * n as usize + a as usize)
}

/// Terms over `sig` in the grid's variables, one per distinct vector of values on `structures`,
/// fewest operations first, each with its values and its number of operations; and whether the
/// enumeration stopped at [`MAX_WORK`] or [`MAX_CLASSES`] before its last term.
fn term_classes(
    sig: &Signature,
    structures: &[Structure],
    g: &Grid,
) -> (Vec<(Term, Vec<u32>, usize)>, bool) {
    let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
    let mut out: Vec<(Term, Vec<u32>, usize)> = Vec::new();
    let mut levels: Vec<Vec<usize>> = vec![Vec::new()];
    let leaves = (0..g.args.len())
        .map(|v| (Term::Var(VarId(v as u32)), g.args[v].clone()))
        .chain(
            sig.func_ids()
                .filter(|&f| sig.func_decl(f).args.is_empty())
                .map(|c| {
                    let values = g
                        .structure
                        .iter()
                        .map(|&i| structures[i as usize].funcs[c.0 as usize][0])
                        .collect();
                    (Term::App(c, vec![]), values)
                }),
        );
    for (t, values) in leaves {
        if seen.insert(values.clone()) {
            levels[0].push(out.len());
            out.push((t, values, 0));
        }
    }
    let ops: Vec<FuncId> = sig
        .func_ids()
        .filter(|&f| !sig.func_decl(f).args.is_empty())
        .collect();
    let mut work = 0;
    for n in 1..=MAX_TERM_OPERATIONS {
        let mut level = Vec::new();
        for &f in &ops {
            let arity = sig.func_decl(f).args.len();
            for split in compositions(n - 1, arity) {
                let parts: Vec<&[usize]> = split.iter().map(|&s| levels[s].as_slice()).collect();
                if parts.iter().any(|p| p.is_empty()) {
                    continue;
                }
                let mut choice = vec![0; arity];
                loop {
                    work += g.structure.len();
                    if work > MAX_WORK || out.len() >= MAX_CLASSES {
                        return (out, true);
                    }
                    let children: Vec<usize> =
                        choice.iter().zip(&parts).map(|(&c, p)| p[c]).collect();
                    let values: Vec<u32> = (0..g.structure.len())
                        .map(|p| {
                            let m = &structures[g.structure[p] as usize];
                            let at = entry(m.sizes[0], children.iter().map(|&c| out[c].1[p]));
                            m.funcs[f.0 as usize][at]
                        })
                        .collect();
                    if !seen.contains(&values) {
                        seen.insert(values.clone());
                        let args = children.iter().map(|&c| out[c].0.clone()).collect();
                        level.push(out.len());
                        out.push((Term::App(f, args), values, n));
                    }
                    // The next choice of children, the last fastest.
                    let Some(i) = (0..arity).rev().find(|&i| choice[i] + 1 < parts[i].len()) else {
                        break;
                    };
                    choice[i] += 1;
                    choice[i + 1..].iter_mut().for_each(|c| *c = 0);
                }
            }
        }
        levels.push(level);
    }
    (out, false)
}

/// Formulas, each with its truth values on the grid.
type FormulaClasses = Vec<(Formula, Vec<bool>)>;

/// Quantifier-free formulas over `sig` in the grid's variables, one per distinct vector of truth
/// values on `structures`, fewest connectives first. The atoms are equalities between variables,
/// relations applied to variables, and equalities between `terms` of at most one operation; and
/// whether the enumeration stopped at [`MAX_WORK`] or [`MAX_CLASSES`] before its last formula.
fn formula_classes(
    sig: &Signature,
    structures: &[Structure],
    g: &Grid,
    terms: &[(Term, Vec<u32>, usize)],
) -> (FormulaClasses, bool) {
    let k = g.args.len();
    let mut atoms: Vec<(Formula, Vec<bool>)> = Vec::new();
    let small: Vec<&(Term, Vec<u32>, usize)> = terms.iter().filter(|t| t.2 <= 1).collect();
    for (i, s) in small.iter().enumerate() {
        for t in &small[i + 1..] {
            let values = s.1.iter().zip(&t.1).map(|(x, y)| x == y).collect();
            atoms.push((Formula::Eq(s.0.clone(), t.0.clone()), values));
        }
    }
    for r in sig.rel_ids() {
        let arity = sig.rel_decl(r).args.len();
        for tuple in 0..k.pow(arity as u32) {
            let vars: Vec<usize> = (0..arity)
                .map(|j| tuple / k.pow((arity - 1 - j) as u32) % k)
                .collect();
            let values = (0..g.structure.len())
                .map(|p| {
                    let m = &structures[g.structure[p] as usize];
                    m.rels[r.0 as usize][entry(m.sizes[0], vars.iter().map(|&v| g.args[v][p]))]
                })
                .collect();
            let args = vars.iter().map(|&v| Term::Var(VarId(v as u32))).collect();
            atoms.push((Formula::Rel(r, args), values));
        }
    }
    let mut seen: FxHashSet<Vec<bool>> = FxHashSet::default();
    let mut out: Vec<(Formula, Vec<bool>)> = Vec::new();
    let mut levels: Vec<Vec<usize>> = vec![Vec::new()];
    for (f, values) in atoms {
        if seen.insert(values.clone()) {
            levels[0].push(out.len());
            out.push((f, values));
        }
    }
    let mut work = 0;
    let mut capped = false;
    for n in 1..=MAX_CONNECTIVES {
        // The formulas of `n` connectives in a fixed order (negations, then the conjunction and
        // disjunction of each pair), each kept if its values are new and built only then: most
        // are not new.
        let mut level = Vec::new();
        let mut keep = |values: Vec<bool>,
                        build: &dyn Fn(&FormulaClasses) -> Formula,
                        out: &mut FormulaClasses| {
            if out.len() < MAX_CLASSES && !seen.contains(&values) {
                seen.insert(values.clone());
                level.push(out.len());
                out.push((build(out), values));
            }
        };
        for &i in &levels[n - 1] {
            let values = out[i].1.iter().map(|v| !v).collect();
            keep(
                values,
                &|out| Formula::Not(Box::new(out[i].0.clone())),
                &mut out,
            );
        }
        for left in 0..n {
            let right = n - 1 - left;
            if left > right {
                break;
            }
            for (x, &i) in levels[left].iter().enumerate() {
                let from = if left == right { x + 1 } else { 0 };
                for &j in &levels[right][from..] {
                    work += 2 * g.structure.len();
                    if work > MAX_WORK {
                        capped = true;
                        break;
                    }
                    let pair =
                        |out: &FormulaClasses, join: fn(Box<Formula>, Box<Formula>) -> Formula| {
                            join(Box::new(out[i].0.clone()), Box::new(out[j].0.clone()))
                        };
                    let (p, q) = (&out[i].1, &out[j].1);
                    let and = p.iter().zip(q).map(|(a, b)| *a && *b).collect();
                    let or = p.iter().zip(q).map(|(a, b)| *a || *b).collect();
                    keep(and, &|out| pair(out, Formula::And), &mut out);
                    keep(or, &|out| pair(out, Formula::Or), &mut out);
                }
            }
        }
        if out.len() >= MAX_CLASSES {
            return (out, true);
        }
        levels.push(level);
    }
    (out, capped)
}

/// A candidate definition of one symbol: its body and its table in each structure it was
/// evaluated on.
#[derive(Clone)]
struct Candidate {
    body: Body,
    tables: Vec<Vec<u32>>,
}

/// The distinct terms and formulas over `over` on `structures`, enumerated once per number of
/// variables.
struct Catalogue<'s> {
    over: &'s Signature,
    /// Whether operations get definitions by their graphs too.
    graphs: bool,
    structures: &'s [Structure],
    grids: HashMap<usize, Grid>,
    terms: HashMap<usize, Vec<(Term, Vec<u32>, usize)>>,
    formulas: HashMap<usize, Vec<(Formula, Vec<bool>)>>,
    /// Whether an enumeration stopped at its caps: then a symbol without candidates may still
    /// have a definition of the sizes searched.
    capped: bool,
}

impl<'s> Catalogue<'s> {
    fn new(over: &'s Signature, structures: &'s [Structure], graphs: bool) -> Self {
        Catalogue {
            over,
            graphs,
            structures,
            grids: HashMap::new(),
            terms: HashMap::new(),
            formulas: HashMap::new(),
            capped: false,
        }
    }

    fn grid(&mut self, k: usize) -> &Grid {
        let structures = self.structures;
        self.grids.entry(k).or_insert_with(|| grid(structures, k))
    }

    fn terms(&mut self, k: usize) -> &[(Term, Vec<u32>, usize)] {
        if !self.terms.contains_key(&k) {
            self.grid(k);
            let (t, capped) = term_classes(self.over, self.structures, &self.grids[&k]);
            self.capped |= capped;
            self.terms.insert(k, t);
        }
        &self.terms[&k]
    }

    fn formulas(&mut self, k: usize) -> &[(Formula, Vec<bool>)] {
        if !self.formulas.contains_key(&k) {
            self.terms(k);
            let (f, capped) =
                formula_classes(self.over, self.structures, &self.grids[&k], &self.terms[&k]);
            self.capped |= capped;
            self.formulas.insert(k, f);
        }
        &self.formulas[&k]
    }

    /// Every candidate definition of `symbol` (of `sig`): a term or formula in its variables; for
    /// a constant, a term in one variable with one value in each structure. Terms come first,
    /// then graphs whose tables no term has.
    fn candidates(&mut self, sig: &Signature, symbol: Symbol) -> Vec<Candidate> {
        self.fitting(sig, symbol, &[], usize::MAX)
    }

    /// The first `limit` of [`Catalogue::candidates`] whose tables in the first structures are
    /// `prefix`, found without building the others' tables (most candidates do not fit).
    fn fitting(
        &mut self,
        sig: &Signature,
        symbol: Symbol,
        prefix: &[Vec<u32>],
        limit: usize,
    ) -> Vec<Candidate> {
        let k = symbol.variables(sig);
        self.grid(k);
        let n = self.structures.len();
        let constant = matches!(symbol, Symbol::Func(_)) && symbol.arity(sig) == 0;
        match symbol {
            Symbol::Rel(_) => {
                self.formulas(k);
                let grid = &self.grids[&k];
                self.formulas[&k]
                    .iter()
                    .filter_map(|(f, values)| {
                        Some(Candidate {
                            body: Body::Formula(f.clone()),
                            tables: fitting_tables(grid, n, values, prefix, false)?,
                        })
                    })
                    .take(limit)
                    .collect()
            }
            Symbol::Func(_) => {
                self.terms(k);
                let grid = &self.grids[&k];
                let mut out: Vec<Candidate> = self.terms[&k]
                    .iter()
                    .filter_map(|(t, values, _)| {
                        Some(Candidate {
                            body: Body::Term(t.clone()),
                            tables: fitting_tables(grid, n, values, prefix, constant)?,
                        })
                    })
                    .take(limit)
                    .collect();
                if self.graphs && !constant && out.len() < limit {
                    let by_terms: FxHashSet<Vec<Vec<u32>>> =
                        out.iter().map(|c| c.tables.clone()).collect();
                    let room = limit - out.len();
                    out.extend(
                        self.graphs(k, prefix)
                            .into_iter()
                            .filter(|c| !by_terms.contains(&c.tables))
                            .take(room),
                    );
                }
                out
            }
        }
    }

    /// The formulas in `k + 1` variables that are, on every structure, the graph of an operation
    /// of `k` arguments (one last value for each first `k`), with that operation's tables, those
    /// tables beginning with `prefix`.
    fn graphs(&mut self, k: usize, prefix: &[Vec<u32>]) -> Vec<Candidate> {
        self.formulas(k + 1);
        let grid = &self.grids[&(k + 1)];
        let mut out = Vec::new();
        'formulas: for (f, values) in &self.formulas[&(k + 1)] {
            let mut tables = Vec::with_capacity(self.structures.len());
            for (i, m) in self.structures.iter().enumerate() {
                // The last variable runs fastest: each run of `n` values is one argument tuple.
                let want = prefix.get(i);
                let mut table = Vec::new();
                for run in grid.segment(values, i).chunks(m.sizes[0] as usize) {
                    let mut holds = run.iter().enumerate().filter(|(_, v)| **v);
                    match (holds.next(), holds.next()) {
                        (Some((z, _)), None) if want.is_none_or(|w| w[table.len()] == z as u32) => {
                            table.push(z as u32)
                        }
                        _ => continue 'formulas,
                    }
                }
                tables.push(table);
            }
            out.push(Candidate {
                body: Body::Graph(f.clone()),
                tables,
            });
        }
        out.extend(self.extremal_graphs(k, prefix));
        out
    }

    /// The graphs, on every structure, of operations of `k` arguments that give the greatest
    /// (or least) element under a binary relation `r` of those satisfying a quantifier-free
    /// condition `C`: `C(x̄, z) ∧ ∀w (C(x̄, w) → r(w, z))` (`r(z, w)` for the least). A lattice's
    /// meet is the greatest lower bound of its order (`C` = `z ≤ x ∧ z ≤ y`) and its join the
    /// least upper bound; no quantifier-free formula in the order defines either.
    fn extremal_graphs(&mut self, k: usize, prefix: &[Vec<u32>]) -> Vec<Candidate> {
        let over = self.over;
        let orders: Vec<RelId> = over
            .rel_ids()
            .filter(|&r| over.rel_decl(r).args.len() == 2)
            .collect();
        if orders.is_empty() {
            return Vec::new();
        }
        self.formulas(k + 1);
        let grid = &self.grids[&(k + 1)];
        let (z, w) = (VarId(k as u32), VarId(k as u32 + 1));
        let mut seen: HashSet<Vec<Vec<u32>>> = HashSet::new();
        let mut out = Vec::new();
        let mut work = 0;
        for (condition, values) in &self.formulas[&(k + 1)] {
            for &r in &orders {
                'polarity: for greatest in [true, false] {
                    let mut tables = Vec::with_capacity(self.structures.len());
                    for (i, m) in self.structures.iter().enumerate() {
                        let n = m.sizes[0] as usize;
                        let holds = |a: usize, b: usize| m.rels[r.0 as usize][a * n + b];
                        let mut table = Vec::new();
                        for run in grid.segment(values, i).chunks(n) {
                            work += n * n;
                            if work > MAX_WORK {
                                self.capped = true;
                                return out;
                            }
                            let meets = |c: usize| {
                                run.iter().enumerate().filter(|(_, v)| **v).all(|(d, _)| {
                                    if greatest {
                                        holds(d, c)
                                    } else {
                                        holds(c, d)
                                    }
                                })
                            };
                            let mut extremal = (0..n).filter(|&c| run[c] && meets(c));
                            match (extremal.next(), extremal.next()) {
                                (Some(c), None)
                                    if prefix.get(i).is_none_or(|w| w[table.len()] == c as u32) =>
                                {
                                    table.push(c as u32)
                                }
                                _ => continue 'polarity,
                            }
                        }
                        tables.push(table);
                    }
                    if !seen.insert(tables.clone()) {
                        continue;
                    }
                    let at_w =
                        condition.map_terms(&mut |t| replace_term(t, &Term::Var(z), &Term::Var(w)));
                    let (lower, upper) = if greatest { (w, z) } else { (z, w) };
                    let bound = Formula::Rel(r, vec![Term::Var(lower), Term::Var(upper)]);
                    let graph = Formula::And(
                        Box::new(condition.clone()),
                        Box::new(Formula::Forall(
                            vec![w],
                            Box::new(Formula::Implies(Box::new(at_w), Box::new(bound))),
                        )),
                    );
                    out.push(Candidate {
                        body: Body::Graph(graph),
                        tables,
                    });
                }
            }
        }
        out
    }
}

/// The function and relation symbols an axiom mentions.
fn mentioned(f: &Formula) -> HashSet<Symbol> {
    fn term(t: &Term, out: &mut HashSet<Symbol>) {
        if let Term::App(f, args) = t {
            out.insert(Symbol::Func(*f));
            args.iter().for_each(|a| term(a, out));
        }
    }
    fn formula(f: &Formula, out: &mut HashSet<Symbol>) {
        match f {
            Formula::True | Formula::False => {}
            Formula::Eq(s, t) => {
                term(s, out);
                term(t, out);
            }
            Formula::Rel(r, args) => {
                out.insert(Symbol::Rel(*r));
                args.iter().for_each(|a| term(a, out));
            }
            Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => formula(g, out),
            Formula::And(g, h)
            | Formula::Or(g, h)
            | Formula::Implies(g, h)
            | Formula::Iff(g, h) => {
                formula(g, out);
                formula(h, out);
            }
        }
    }
    let mut out = HashSet::new();
    formula(f, &mut out);
    out
}

/// Installs a candidate's table for `symbol` in `m`.
fn install(m: &mut Structure, symbol: Symbol, table: &[u32]) {
    match symbol {
        Symbol::Func(f) => m.funcs[f.0 as usize] = table.to_vec(),
        Symbol::Rel(r) => m.rels[r.0 as usize] = table.iter().map(|&v| v == 1).collect(),
    }
}

/// What one [`search`] found.
struct Found {
    pairs: Vec<Pair>,
    /// Why the search stopped before it had looked at every candidate, if it did.
    cut: Option<Cut>,
}

/// Why a [`search`] stopped before it had looked at every candidate, recorded when it stops (the
/// clock read later could have passed since a search cut by its caps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    /// Its deadline passed, or it was cancelled.
    Clock,
    /// Its caps: nodes, definitions tried, or the terms and formulas enumerated.
    Caps,
}

/// Up to [`MAX_PAIRS`] pairs of definitions not in `skip`: `defined`'s symbols over `over`'s,
/// chosen on `over_models` (operations by their graphs too when `graphs`) and pruned by
/// `defined`'s axioms, each with `over`'s symbols back
/// over `defined`'s, which give `over_models` back and whose readings of `defined_models`
/// satisfy `over`'s axioms. Results are in `defined`-first order (`a_in_b` is `defined` over
/// `over`).
fn search(
    defined: &Theory,
    defined_models: &[Structure],
    over: &Theory,
    over_models: &[Structure],
    skip: &HashSet<Pair>,
    limits: &Limits,
    graphs: bool,
) -> Found {
    let dsig = &defined.sig;
    let mut catalogue = Catalogue::new(&over.sig, over_models, graphs);
    let syms = symbols(dsig);
    let mut candidates: Vec<Vec<Candidate>> = Vec::with_capacity(syms.len());
    for &s in &syms {
        let alone: Vec<&Axiom> = defined
            .axioms
            .iter()
            .filter(|a| mentioned(&a.formula).iter().all(|t| *t == s))
            .map(|a| &**a)
            .collect();
        let kept: Vec<Candidate> = catalogue
            .candidates(dsig, s)
            .into_iter()
            .filter(|c| {
                over_models.iter().enumerate().all(|(i, m)| {
                    let mut d = Structure::zeroed(dsig, &m.sizes);
                    install(&mut d, s, &c.tables[i]);
                    alone.iter().all(|a| eval::holds(dsig, &d, a))
                })
            })
            .collect();
        candidates.push(kept);
    }
    let mut order: Vec<usize> = (0..syms.len()).collect();
    order.sort_by_key(|&i| candidates[i].len());
    // The axioms to check once the symbol at each depth is assigned: those whose symbols are all
    // assigned by then, and not before.
    let depth_of: HashMap<Symbol, usize> = order
        .iter()
        .enumerate()
        .map(|(d, &i)| (syms[i], d))
        .collect();
    let mut due: Vec<Vec<&Axiom>> = vec![Vec::new(); order.len()];
    for a in &defined.axioms {
        let last = mentioned(&a.formula)
            .iter()
            .filter_map(|s| depth_of.get(s))
            .max()
            .copied();
        if let Some(d) = last {
            due[d].push(a);
        }
    }
    let mut state = Backtrack {
        defined,
        over,
        defined_models,
        over_models,
        syms: &syms,
        candidates: &candidates,
        order: &order,
        due: &due,
        chosen: vec![0; syms.len()],
        readings: over_models
            .iter()
            .map(|m| Structure::zeroed(dsig, &m.sizes))
            .collect(),
        nodes: 0,
        deltas: 0,
        skip,
        out: Vec::new(),
        limits,
        graphs,
        cut: None,
    };
    state.assign(0);
    Found {
        cut: state.cut.or(catalogue.capped.then_some(Cut::Caps)),
        pairs: state.out,
    }
}

/// The backtracking over `defined`'s symbols of [`search`].
struct Backtrack<'s> {
    defined: &'s Theory,
    over: &'s Theory,
    defined_models: &'s [Structure],
    over_models: &'s [Structure],
    syms: &'s [Symbol],
    candidates: &'s [Vec<Candidate>],
    order: &'s [usize],
    due: &'s [Vec<&'s Axiom>],
    /// The candidate chosen for each symbol (by index in `syms`).
    chosen: Vec<usize>,
    /// `over_models` read through the definitions chosen so far.
    readings: Vec<Structure>,
    nodes: usize,
    deltas: usize,
    skip: &'s HashSet<Pair>,
    out: Vec<Pair>,
    limits: &'s Limits,
    /// Whether operations may be defined by their graphs ([`Body::Graph`]).
    graphs: bool,
    /// Why the search was cut short, the first reason met.
    cut: Option<Cut>,
}

impl Backtrack<'_> {
    /// Whether the search is over: it has its pairs, or it is cut short (and says so in `cut`).
    fn done(&mut self) -> bool {
        if self.out.len() >= MAX_PAIRS {
            return true;
        }
        if self.cut.is_none() {
            self.cut = if self.limits.over() {
                Some(Cut::Clock)
            } else if self.nodes >= MAX_NODES || self.deltas >= MAX_DELTAS {
                Some(Cut::Caps)
            } else {
                None
            };
        }
        self.cut.is_some()
    }

    fn assign(&mut self, depth: usize) {
        if depth == self.order.len() {
            self.deltas += 1;
            self.inverses();
            return;
        }
        let i = self.order[depth];
        let s = self.syms[i];
        let dsig = &self.defined.sig;
        for c in 0..self.candidates[i].len() {
            if self.done() {
                return;
            }
            self.nodes += 1;
            for (m, table) in self.readings.iter_mut().zip(&self.candidates[i][c].tables) {
                install(m, s, table);
            }
            let fits = self
                .readings
                .iter()
                .all(|m| self.due[depth].iter().all(|a| eval::holds(dsig, m, a)));
            if fits {
                self.chosen[i] = c;
                self.assign(depth + 1);
            }
        }
    }

    /// For the complete `δ` chosen: `over`'s symbols defined back over `defined`'s.
    fn inverses(&mut self) {
        let (dsig, osig) = (&self.defined.sig, &self.over.sig);
        let delta: Vec<Body> = (0..self.syms.len())
            .map(|i| self.candidates[i][self.chosen[i]].body.clone())
            .collect();
        // The readings of `over_models`, then `defined`'s own models.
        let structures: Vec<Structure> = self
            .readings
            .iter()
            .chain(self.defined_models)
            .cloned()
            .collect();
        let mut catalogue = Catalogue::new(dsig, &structures, self.graphs);
        let back_syms = symbols(osig);
        let mut options: Vec<Vec<Candidate>> = Vec::new();
        for &g in &back_syms {
            let target: Vec<Vec<u32>> = self
                .over_models
                .iter()
                .map(|m| match g {
                    Symbol::Func(f) => m.funcs[f.0 as usize].clone(),
                    Symbol::Rel(r) => m.rels[r.0 as usize].iter().map(|&v| u32::from(v)).collect(),
                })
                .collect();
            let fitting = catalogue.fitting(osig, g, &target, MAX_INVERSES);
            if fitting.is_empty() {
                if catalogue.capped {
                    self.cut.get_or_insert(Cut::Caps);
                }
                return;
            }
            options.push(fitting);
        }
        // Combinations of the inverses whose readings of `defined`'s models satisfy `over`'s
        // axioms (the proofs decide the rest).
        let first = self.over_models.len();
        let mut choice = vec![0; back_syms.len()];
        loop {
            if self.done() {
                return;
            }
            let fits = self.defined_models.iter().enumerate().all(|(j, n)| {
                let mut m = Structure::zeroed(osig, &n.sizes);
                for (k, &g) in back_syms.iter().enumerate() {
                    install(&mut m, g, &options[k][choice[k]].tables[first + j]);
                }
                eval::check(self.over, &m).is_ok()
            });
            if fits {
                let pair = Pair {
                    a_in_b: delta.clone(),
                    b_in_a: (0..back_syms.len())
                        .map(|k| options[k][choice[k]].body.clone())
                        .collect(),
                };
                if !pair.is_renaming() && !self.skip.contains(&pair) && !self.out.contains(&pair) {
                    self.out.push(pair);
                }
            }
            let Some(k) = (0..choice.len())
                .rev()
                .find(|&k| choice[k] + 1 < options[k].len())
            else {
                return;
            };
            choice[k] += 1;
            choice[k + 1..].iter_mut().for_each(|c| *c = 0);
        }
    }
}

/// `body` with its variables `VarId(i)` replaced by `args[i]`.
fn substitute(body: &Term, args: &[Term]) -> Term {
    match body {
        Term::Var(v) => args[v.0 as usize].clone(),
        Term::App(f, xs) => Term::App(*f, xs.iter().map(|x| substitute(x, args)).collect()),
    }
}

/// The variables `f`'s quantifiers bind, outermost first (with repeats).
fn bound_variables(f: &Formula) -> Vec<VarId> {
    fn binders(f: &Formula, out: &mut Vec<VarId>) {
        match f {
            Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
                out.extend(vs.iter().copied());
                binders(g, out);
            }
            Formula::Not(g) => binders(g, out),
            Formula::And(g, h)
            | Formula::Or(g, h)
            | Formula::Implies(g, h)
            | Formula::Iff(g, h) => {
                binders(g, out);
                binders(h, out);
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    binders(f, &mut out);
    out
}

/// A graph (free in `VarId(0..values.len())`, its bound variables numbered after them) at
/// `values`: each bound variable renamed to a fresh one numbered from `next`, so that none
/// captures a variable of `values`.
fn instantiate(graph: &Formula, values: &[Term], next: &mut u32) -> Formula {
    fn rename(t: &Term, values: &[Term], fresh: &HashMap<VarId, VarId>) -> Term {
        match t {
            Term::Var(v) => fresh
                .get(v)
                .map_or_else(|| values[v.0 as usize].clone(), |w| Term::Var(*w)),
            Term::App(f, args) => {
                Term::App(*f, args.iter().map(|a| rename(a, values, fresh)).collect())
            }
        }
    }
    fn walk(f: &Formula, values: &[Term], fresh: &HashMap<VarId, VarId>) -> Formula {
        match f {
            Formula::Eq(..) | Formula::Rel(..) => f.map_terms(&mut |t| rename(t, values, fresh)),
            Formula::Forall(vs, g) => Formula::Forall(
                vs.iter().map(|v| fresh[v]).collect(),
                Box::new(walk(g, values, fresh)),
            ),
            Formula::Exists(vs, g) => Formula::Exists(
                vs.iter().map(|v| fresh[v]).collect(),
                Box::new(walk(g, values, fresh)),
            ),
            _ => f.map_subformulas(|g| walk(g, values, fresh)),
        }
    }
    let mut fresh = HashMap::new();
    for v in bound_variables(graph) {
        fresh.entry(v).or_insert_with(|| {
            *next += 1;
            VarId(*next - 1)
        });
    }
    walk(graph, values, &fresh)
}

/// Terms and formulas over one signature read through definitions of its symbols over another.
struct Translation<'d> {
    syms: Vec<Symbol>,
    defs: &'d [Body],
    /// The variable a constant defined by a term in one variable gets (any value does: the
    /// defining theory proves that the term's value does not depend on it).
    fresh: VarId,
}

impl Translation<'_> {
    fn body(&self, s: Symbol) -> &Body {
        &self.defs[self
            .syms
            .iter()
            .position(|t| *t == s)
            .expect("a defined symbol")]
    }

    /// `g` applied to `args` (already translated), replaced by its definition.
    fn app(&self, g: FuncId, args: Vec<Term>) -> Term {
        let args = if args.is_empty() {
            vec![Term::Var(self.fresh)]
        } else {
            args
        };
        match self.body(Symbol::Func(g)) {
            Body::Term(t) => substitute(t, &args),
            Body::Formula(_) => unreachable!("operations are defined by terms"),
            Body::Graph(_) => unreachable!("operations defined by graphs are flattened first"),
        }
    }

    /// The innermost leftmost application in `t` of an operation defined by its graph.
    fn graph_app<'t>(&self, t: &'t Term) -> Option<&'t Term> {
        let Term::App(g, args) = t else { return None };
        args.iter()
            .find_map(|a| self.graph_app(a))
            .or_else(|| matches!(self.body(Symbol::Func(*g)), Body::Graph(_)).then_some(t))
    }

    /// [`Translation::formula`], an operation defined by its graph `G` read through it: an atom
    /// `φ[g(ā)]` becomes `∀v (G(ā, v) → φ[v])`, `v` a fresh variable numbered from `next` (the
    /// graph is that of an operation, which the definition's own obligations prove).
    fn formula_flat(&self, f: &Formula, next: &mut u32) -> Formula {
        let rec = |g: &Formula, next: &mut u32| Box::new(self.formula_flat(g, next));
        match f {
            Formula::True | Formula::False => f.clone(),
            Formula::Eq(..) | Formula::Rel(..) => self.atom_flat(f, next),
            Formula::Not(g) => Formula::Not(rec(g, next)),
            Formula::And(g, h) => Formula::And(rec(g, next), rec(h, next)),
            Formula::Or(g, h) => Formula::Or(rec(g, next), rec(h, next)),
            Formula::Implies(g, h) => Formula::Implies(rec(g, next), rec(h, next)),
            Formula::Iff(g, h) => Formula::Iff(rec(g, next), rec(h, next)),
            Formula::Forall(vs, g) => Formula::Forall(vs.clone(), rec(g, next)),
            Formula::Exists(vs, g) => Formula::Exists(vs.clone(), rec(g, next)),
        }
    }

    fn atom_flat(&self, atom: &Formula, next: &mut u32) -> Formula {
        let mut found = None;
        atom.for_each_atom_term(&mut |t| {
            if found.is_none() {
                found = self.graph_app(t).cloned();
            }
        });
        let Some(app) = found else {
            return self.formula(atom);
        };
        let Term::App(g, args) = &app else {
            unreachable!("an application")
        };
        let Body::Graph(graph) = self.body(Symbol::Func(*g)) else {
            unreachable!("defined by its graph")
        };
        let id = VarId(*next);
        let v = Term::Var(id);
        *next += 1;
        let mut values: Vec<Term> = args.iter().map(|a| self.term(a)).collect();
        values.push(v.clone());
        let graph = instantiate(graph, &values, next);
        let rest = atom.map_terms(&mut |t| replace_term(t, &app, &v));
        Formula::Forall(
            vec![id],
            Box::new(Formula::Implies(
                Box::new(graph),
                Box::new(self.atom_flat(&rest, next)),
            )),
        )
    }

    fn term(&self, t: &Term) -> Term {
        match t {
            Term::Var(v) => Term::Var(*v),
            Term::App(g, args) => self.app(*g, args.iter().map(|a| self.term(a)).collect()),
        }
    }

    fn formula(&self, f: &Formula) -> Formula {
        let rel = |r: RelId, args: Vec<Term>| match self.body(Symbol::Rel(r)) {
            Body::Formula(g) => g.map_terms(&mut |t| substitute(t, &args)),
            Body::Term(_) | Body::Graph(_) => unreachable!("relations are defined by formulas"),
        };
        f.map_symbols(&|g, args| self.app(g, args), &rel)
    }
}

/// `t` with every occurrence of `from` replaced by `to`.
fn replace_term(t: &Term, from: &Term, to: &Term) -> Term {
    if t == from {
        return to.clone();
    }
    match t {
        Term::Var(_) => t.clone(),
        Term::App(f, args) => {
            Term::App(*f, args.iter().map(|a| replace_term(a, from, to)).collect())
        }
    }
}

/// The largest variable number in `f`, free or bound.
fn max_var(f: &Formula) -> Option<u32> {
    let mut top = None;
    f.for_each_atom_term(&mut |t| t.for_each_var(&mut |v| top = top.max(Some(v.0))));
    top.max(bound_variables(f).into_iter().map(|v| v.0).max())
}

/// Whether `v` occurs in `t`.
fn in_term(t: &Term, v: VarId) -> bool {
    match t {
        Term::Var(w) => *w == v,
        Term::App(_, args) => args.iter().any(|a| in_term(a, v)),
    }
}

/// Whether `v` occurs in `f`.
fn occurs(f: &Formula, v: VarId) -> bool {
    let mut found = false;
    f.map_terms(&mut |t| {
        found |= in_term(t, v);
        t.clone()
    });
    found
}

/// An axiom named `name` with the formula `f` over `vars`, and one more variable if a
/// constant's definition put `fresh` in it.
fn goal(name: String, f: Formula, mut vars: Vec<VarDecl>, fresh: VarId) -> Axiom {
    // The fresh variable when it occurs, and those that reading operations through their graphs
    // added after it ([`Translation::formula_flat`]), each declared in order.
    let last = max_var(&f).map_or(0, |m| m + 1);
    let wanted = if occurs(&f, fresh) {
        last.max(fresh.0 + 1)
    } else {
        last
    };
    while (vars.len() as u32) < wanted {
        let taken = |n: &str| vars.iter().any(|v| v.name == n);
        let name = (0..)
            .map(|i| format!("w{i}"))
            .find(|n| !taken(n))
            .expect("a free name");
        vars.push(VarDecl {
            name,
            sort: SortId(0),
        });
    }
    Axiom {
        name,
        formula: f,
        vars,
        origin: None,
    }
}

/// The variables `x, y, …` of a definition in `k` of them.
fn plain_vars(k: usize) -> Vec<VarDecl> {
    (0..k)
        .map(|i| VarDecl {
            name: var_name(i, k),
            sort: SortId(0),
        })
        .collect()
}

/// The goals for `over` (the theory `defs` are written in) that make the definitions `defs` of
/// `defined`'s symbols a reading of `over`'s models as `defined`'s: each constant defined by a
/// term in a variable does not depend on it, and each axiom of `defined` holds translated.
fn translated_axioms(defined: &Theory, defs: &[Body]) -> Vec<Axiom> {
    let syms = symbols(&defined.sig);
    let constants = syms
        .iter()
        .zip(defs)
        .filter_map(|(s, body)| match (s, body) {
            (Symbol::Func(f), Body::Term(t))
                if defined.sig.func_decl(*f).args.is_empty() && in_term(t, VarId(0)) =>
            {
                let other = substitute(t, &[Term::Var(VarId(1))]);
                let name = format!("{} is constant", s.name(&defined.sig));
                Some(goal(
                    name,
                    Formula::Eq(t.clone(), other),
                    plain_vars(2),
                    VarId(2),
                ))
            }
            _ => None,
        });
    // An operation defined by its graph: the graph is that of an operation, total and
    // single-valued.
    let graphs = syms.iter().zip(defs).flat_map(|(s, body)| match body {
        Body::Graph(g) => {
            let k = s.arity(&defined.sig) as u32;
            let name = s.name(&defined.sig);
            // The graph at x̄ and each of two values, its bound variables numbered after them.
            let mut next = k + 2;
            let mut at = |value: u32| {
                let mut values: Vec<Term> = (0..k).map(|i| Term::Var(VarId(i))).collect();
                values.push(Term::Var(VarId(value)));
                instantiate(g, &values, &mut next)
            };
            let (first, second) = (at(k), at(k + 1));
            let total = Formula::Exists(vec![VarId(k)], Box::new(first.clone()));
            let single = Formula::Implies(
                Box::new(Formula::And(Box::new(first), Box::new(second))),
                Box::new(Formula::Eq(Term::Var(VarId(k)), Term::Var(VarId(k + 1)))),
            );
            let vars = |n: u32| plain_vars(n as usize);
            vec![
                goal(format!("{name} is total"), total, vars(k + 1), VarId(k + 1)),
                goal(
                    format!("{name} is single-valued"),
                    single,
                    vars(k + 2),
                    VarId(k + 2),
                ),
            ]
        }
        _ => Vec::new(),
    });
    let axioms = defined.axioms.iter().map(|a| {
        let fresh = VarId(a.vars.len() as u32);
        let translation = Translation {
            syms: syms.clone(),
            defs,
            fresh,
        };
        let name = format!("{} (translated)", a.name);
        let mut next = fresh.0 + 1;
        let f = translation.formula_flat(&a.formula, &mut next);
        goal(name, f, a.vars.clone(), fresh)
    });
    constants.chain(graphs).chain(axioms).collect()
}

/// The goals for `own` that reading its symbols through `there` (over `other`'s symbols) and
/// back through `back` gives each one again: `f(x̄) = there(f)[back]`, or `↔` for a relation.
fn round_trips(own: &Theory, other: &Theory, there: &[Body], back: &[Body]) -> Vec<Axiom> {
    symbols(&own.sig)
        .into_iter()
        .zip(there)
        .map(|(s, body)| {
            let k = s.arity(&own.sig);
            // A constant's definition is in one variable, which the goal leaves free (`fresh`).
            let fresh = VarId(k as u32);
            let back = Translation {
                syms: symbols(&other.sig),
                defs: back,
                fresh,
            };
            let args: Vec<Term> = (0..k as u32).map(|i| Term::Var(VarId(i))).collect();
            // Variables of the reading through graphs come after the fresh one and `value`.
            let value = Term::Var(VarId(k as u32 + 1));
            let mut next = k as u32 + 2;
            let f = match (s, body) {
                // f(x̄) = t read back: `value = t` read back, `value` then f(x̄).
                (Symbol::Func(f), Body::Term(t)) => {
                    let read = back.formula_flat(&Formula::Eq(value.clone(), t.clone()), &mut next);
                    read.map_terms(&mut |u| replace_term(u, &value, &Term::App(f, args.clone())))
                }
                // The graph read back holds of x̄ and f(x̄).
                (Symbol::Func(f), Body::Graph(g)) => {
                    let mut at: Vec<Term> = args.clone();
                    at.push(value.clone());
                    let g = instantiate(g, &at, &mut next);
                    let read = back.formula_flat(&g, &mut next);
                    read.map_terms(&mut |u| replace_term(u, &value, &Term::App(f, args.clone())))
                }
                (Symbol::Rel(r), Body::Formula(g)) => Formula::Iff(
                    Box::new(Formula::Rel(r, args)),
                    Box::new(back.formula_flat(g, &mut next)),
                ),
                _ => unreachable!("operations by terms or graphs, relations by formulas"),
            };
            let name = format!("{} round trip", s.name(&own.sig));
            goal(name, f, plain_vars(k), fresh)
        })
        .collect()
}

/// Goals as [`prove_goals`] and [`violating_model`] take them, each with its name.
fn named(goals: &[Axiom]) -> Vec<(&str, Axiom)> {
    goals.iter().map(|g| (g.name.as_str(), g.clone())).collect()
}

/// What became of one pair of definitions.
enum Proof {
    Proved(Vec<AxiomProof>),
    /// A countermodel, of `a` (0) or of `b` (1), to an obligation: to one of the other side's
    /// axioms translated (or a constant's or graph's obligation) when `translated`, else to a
    /// round trip.
    Refuted {
        side: usize,
        witness: Box<Witness>,
        translated: bool,
    },
    /// Neither proved nor refuted: which obligation, in words, and the side (`a` 0, `b` 1) that
    /// was to prove it.
    Unsettled(String, usize),
}

/// The module's four obligations for `pair`, in order; stops at the first not proved.
fn prove_pair(a: &Theory, b: &Theory, pair: &Pair, opts: &Options) -> Result<Proof, FinderError> {
    let no_map = SymbolMap::new();
    let steps = [
        (1, b, a, translated_axioms(a, &pair.a_in_b)),
        (0, a, b, translated_axioms(b, &pair.b_in_a)),
        (0, a, b, round_trips(a, b, &pair.a_in_b, &pair.b_in_a)),
        (1, b, a, round_trips(b, a, &pair.b_in_a, &pair.a_in_b)),
    ];
    // A wrong definition that fits the small models usually fails on a model just above them
    // (a meet that is the minimum of a chain, on the diamond of four elements): looked for first,
    // in half a timeout, before any proof spends a whole one on an obligation that holds.
    let count: usize = steps.iter().map(|s| s.3.len()).sum();
    let each = opts.timeout / 2 / count.max(1) as u32;
    let budget = Budget {
        cancel: opts.cancel.clone(),
        ..Budget::default()
    };
    let lo = MODEL_SIZE + 1;
    for (step, (side, prover, other, goals)) in steps.iter().enumerate() {
        for g in goals {
            let search = countermodel::search(prover, g, lo, lo + 1, each, &budget)?;
            if let countermodel::Search::Found(c) = search {
                return Ok(Proof::Refuted {
                    side: *side,
                    witness: Box::new(Witness {
                        model_of: prover.name.clone(),
                        not_model_of: other.name.clone(),
                        axiom: g.name.clone(),
                        model: c.model,
                        assignment: c.witness,
                        map: no_map.clone(),
                    }),
                    translated: step < 2,
                });
            }
        }
    }
    let mut proofs = Vec::new();
    for (step, (side, prover, other, goals)) in steps.into_iter().enumerate() {
        let goals = named(&goals);
        match prove_goals(prover, other, &goals, &no_map, SmallLaws::Cite, opts)? {
            Outcome::Proved(p) => proofs.extend(p),
            Outcome::Refuted(witness) => {
                return Ok(Proof::Refuted {
                    side,
                    witness,
                    translated: step < 2,
                })
            }
            Outcome::Unknown(why) => return Ok(Proof::Unsettled(why, side)),
        }
    }
    Ok(Proof::Proved(proofs))
}

/// What [`embedding`] showed.
enum Embedded {
    /// A strict inclusion.
    Shown(Invariant),
    /// A countermodel to one of the stronger side's obligations, a model of `a` (0) or `b` (1):
    /// the definitions are wrong, and the model joins the small ones.
    Refuted(usize, Structure),
    /// Neither.
    NotShown,
}

/// The strict inclusion a pair of definitions gives when `stronger` (`a`, or `b` when
/// `stronger_is_b`) proves its half of the obligations, 2 and 3 of the module's list for `a`
/// (the other's axioms translated, its own round trips), and a model of the other theory violates
/// an axiom of `stronger` translated: `found` (the prover's countermodel to that obligation), or
/// one found by [`super::equivalence::violating_model`].
/// Reading `stronger`'s models through the definitions is then one-to-one on classes of each
/// size and misses that model: [`Invariant::Embedding`]. Only where `stronger`'s symbols are
/// defined by terms and formulas: a graph read back is shown total but not single-valued on the
/// readings, so a model that violates it could still be one.
fn embedding(
    a: &Theory,
    b: &Theory,
    pair: &Pair,
    stronger_is_b: bool,
    found: Option<&Witness>,
    opts: &Options,
) -> Result<Embedded, FinderError> {
    let (stronger, weaker, there, back) = if stronger_is_b {
        (b, a, &pair.a_in_b, &pair.b_in_a)
    } else {
        (a, b, &pair.b_in_a, &pair.a_in_b)
    };
    if back.iter().any(|body| matches!(body, Body::Graph(_))) {
        return Ok(Embedded::NotShown);
    }
    let no_map = SymbolMap::new();
    let mut proofs = Vec::new();
    for goals in [
        translated_axioms(weaker, there),
        round_trips(stronger, weaker, back, there),
    ] {
        let goals = named(&goals);
        match prove_goals(stronger, weaker, &goals, &no_map, SmallLaws::Cite, opts)? {
            Outcome::Proved(p) => proofs.extend(p),
            Outcome::Refuted(w) => {
                return Ok(Embedded::Refuted(usize::from(stronger_is_b), w.model))
            }
            Outcome::Unknown(_) => return Ok(Embedded::NotShown),
        }
    }
    let (axiom, model, assignment) = match found {
        Some(w) => (w.axiom.clone(), w.model.clone(), w.assignment.clone()),
        None => {
            let violated = translated_axioms(stronger, back);
            match violating_model(weaker, &named(&violated), opts)? {
                Some(v) => (v.axiom.to_string(), v.model, v.assignment),
                None => return Ok(Embedded::NotShown),
            }
        }
    };
    Ok(Embedded::Shown(Invariant::Embedding {
        stronger: stronger.name.clone(),
        weaker: weaker.name.clone(),
        weaker_in_stronger: texts(weaker, stronger, there),
        stronger_in_weaker: texts(stronger, weaker, back),
        proofs,
        witness: Box::new(Witness {
            model_of: weaker.name.clone(),
            not_model_of: stronger.name.clone(),
            axiom,
            model,
            assignment,
            map: SymbolMap::new(),
        }),
    }))
}

/// Definitions as a list in backquotes: `` `x * y = x ^ y`, `c = bot` ``.
pub(super) fn quoted(defs: &[SymbolDefinition]) -> String {
    let each: Vec<String> = defs.iter().map(|d| format!("`{}`", d.text)).collect();
    each.join(", ")
}

/// The definitions `defs` of `defined`'s symbols over `over`'s, as text.
fn texts(defined: &Theory, over: &Theory, defs: &[Body]) -> Vec<SymbolDefinition> {
    symbols(&defined.sig)
        .into_iter()
        .zip(defs)
        .map(|(s, body)| {
            let k = s.arity(&defined.sig);
            // The definition's variables, for the printers.
            let holder = Axiom {
                name: String::new(),
                formula: Formula::True,
                vars: plain_vars(s.variables(&defined.sig)),
                origin: None,
            };
            let printer = |sig| FormulaPrinter::new(sig, &holder);
            let args: Vec<Term> = (0..k as u32).map(|i| Term::Var(VarId(i))).collect();
            let text = match (s, body) {
                (Symbol::Func(f), Body::Term(t)) => format!(
                    "{} = {}",
                    printer(&defined.sig).term(&Term::App(f, args)),
                    printer(&over.sig).term(t)
                ),
                (Symbol::Rel(r), Body::Formula(g)) => format!(
                    "{} <-> {}",
                    printer(&defined.sig).formula(&Formula::Rel(r, args)),
                    printer(&over.sig).formula(g)
                ),
                (Symbol::Func(f), Body::Graph(g)) => {
                    // The value and the graph's bound variables after the arguments.
                    let with_value = Axiom {
                        vars: plain_vars(max_var(g).map_or(0, |m| m as usize + 1).max(k + 1)),
                        ..holder.clone()
                    };
                    let p = |sig| FormulaPrinter::new(sig, &with_value);
                    let value = Term::Var(VarId(k as u32));
                    format!(
                        "{} <-> {}",
                        p(&defined.sig).formula(&Formula::Eq(Term::App(f, args), value)),
                        p(&over.sig).formula(g)
                    )
                }
                _ => unreachable!("operations by terms or graphs, relations by formulas"),
            };
            SymbolDefinition {
                symbol: s.name(&defined.sig).to_string(),
                text,
            }
        })
        .collect()
}

/// The name of the `i`-th of `arity` variables: x, y, z, u, v, w as people write them, or x1,
/// x2, … when there are more than six.
fn var_name(i: usize, arity: usize) -> String {
    ["x", "y", "z", "u", "v", "w"]
        .get(i)
        .filter(|_| arity <= 6)
        .map_or_else(|| format!("x{}", i + 1), |n| n.to_string())
}

/// Every way to write `n` as an ordered sum of `parts` numbers ≥ 0.
fn compositions(n: usize, parts: usize) -> Vec<Vec<usize>> {
    if parts == 0 {
        return if n == 0 { vec![vec![]] } else { vec![] };
    }
    (0..=n)
        .flat_map(|first| {
            compositions(n - first, parts - 1)
                .into_iter()
                .map(move |rest| [vec![first], rest].concat())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn models(t: &Theory) -> Vec<Structure> {
        Side::for_comparison(t, None).unwrap().models
    }

    fn first_pair(a: &Theory, b: &Theory) -> (Vec<String>, Vec<String>) {
        let limits = Limits {
            deadline: Instant::now() + std::time::Duration::from_secs(60),
            cancel: None,
        };
        let pairs = search(
            a,
            &models(a),
            b,
            &models(b),
            &HashSet::new(),
            &limits,
            false,
        )
        .pairs;
        let text = |t: &Theory, o: &Theory, defs: &[Body]| -> Vec<String> {
            texts(t, o, defs).into_iter().map(|d| d.text).collect()
        };
        (text(a, b, &pairs[0].a_in_b), text(b, a, &pairs[0].b_in_a))
    }

    /// "No candidates agree" is said only of a search that looked at them all: one stopped by
    /// its clock says it was cut short.
    #[test]
    fn a_search_stopped_by_its_clock_says_it_was_cut_short() {
        let search_with = |a: &Theory, b: &Theory, deadline: Instant| {
            let limits = Limits {
                deadline,
                cancel: None,
            };
            // The smallest models are enough to have candidates.
            let far = Instant::now() + std::time::Duration::from_secs(60);
            let few = |t: &Theory| super::super::small::models(t, far, None).unwrap().to_vec();
            search(a, &few(a), b, &few(b), &HashSet::new(), &limits, true)
        };
        let quasigroup = birkhoff_engine::seeds::load("quasigroup").unwrap();
        let cancellative = Theory::parse(
            "theory CancellativeMagma\nfunc * : 2\naxiom l: x * y = x * z -> y = z\n\
             axiom r: y * x = z * x -> y = z\n",
            "c.bk",
        )
        .unwrap();
        let found = search_with(&cancellative, &quasigroup, Instant::now());
        assert!(found.pairs.is_empty() && found.cut == Some(Cut::Clock));
        // No term in `f` and `x` is constant beyond one element: nothing to find, all looked at.
        let pointed = Theory::parse("theory Pointed\nconst c\n", "p.bk").unwrap();
        let identity =
            Theory::parse("theory Identity\nfunc f : 1\naxiom id: f(x) = x\n", "i.bk").unwrap();
        let found = search_with(
            &pointed,
            &identity,
            Instant::now() + std::time::Duration::from_secs(60),
        );
        assert!(found.pairs.is_empty() && found.cut.is_none());
    }

    /// A symbol without candidates may still have a definition when the enumeration stopped at
    /// its caps: the terms and formulas say whether they did.
    #[test]
    fn enumerations_say_when_they_stop_at_their_caps() {
        let magma = Theory::parse("theory Magma\nfunc * : 2\n", "m.bk").unwrap();
        let with_table = |n: u32, table: Vec<u32>| {
            let mut m = Structure::zeroed(&magma.sig, &[n]);
            m.funcs[0] = table;
            m
        };
        // A table of no pattern: many term functions of three variables, past the caps.
        let table = vec![
            2, 1, 3, 0, 0, 4, 0, 2, 4, 0, 4, 1, 0, 0, 3, 3, 0, 1, 0, 4, 3, 0, 4, 0, 1,
        ];
        let wide = [with_table(5, table)];
        let trivial = [with_table(1, vec![0])];
        for (structures, capped) in [(&wide, true), (&trivial, false)] {
            let g = grid(structures, 3);
            let (terms, terms_capped) = term_classes(&magma.sig, structures, &g);
            assert_eq!(terms_capped, capped, "{} terms", terms.len());
            let (formulas, formulas_capped) = formula_classes(&magma.sig, structures, &g, &terms);
            assert_eq!(formulas_capped, capped, "{} formulas", formulas.len());
        }
    }

    #[test]
    fn compositions_count_as_binomials() {
        // Ordered sums of n into k parts: C(n + k - 1, k - 1).
        assert_eq!(compositions(2, 2), vec![vec![0, 2], vec![1, 1], vec![2, 0]]);
        assert_eq!(compositions(3, 3).len(), 10);
        assert_eq!(compositions(0, 0), vec![Vec::<usize>::new()]);
        assert!(compositions(1, 0).is_empty());
    }

    /// The definitions are found from the small models alone; proving them is the prover's part.
    #[test]
    fn boolean_rings_and_lattices_as_orders_get_their_definitions_from_the_small_models() {
        let ring = birkhoff_engine::catalogue::all()
            .into_iter()
            .find(|e| e.name == "boolean_ring")
            .unwrap()
            .theory()
            .unwrap();
        let algebra = birkhoff_engine::seeds::load("boolean_algebra").unwrap();
        assert_eq!(
            first_pair(&ring, &algebra),
            (
                [
                    "x + y = (x v y) ^ c(x ^ y)",
                    "x * y = x ^ y",
                    "neg(x) = x",
                    "r0 = bot",
                    "r1 = top"
                ]
                .map(String::from)
                .to_vec(),
                [
                    "x ^ y = x * y",
                    "x v y = x + (y + x * y)",
                    "c(x) = x + r1",
                    "bot = r0",
                    "top = r1"
                ]
                .map(String::from)
                .to_vec()
            )
        );
        let order = Theory::parse("theory OrderLattice\nrel le : 2\nfunc ^ : 2 infix left 40\nfunc v : 2 infix left 35\naxiom reflexive: le(x, x)\naxiom antisymmetric: le(x, y) & le(y, x) -> x = y\naxiom transitive: le(x, y) & le(y, z) -> le(x, z)\naxiom meet_lower: le(x ^ y, x) & le(x ^ y, y)\naxiom meet_greatest: le(z, x) & le(z, y) -> le(z, x ^ y)\naxiom join_upper: le(x, x v y) & le(y, x v y)\naxiom join_least: le(x, z) & le(y, z) -> le(x v y, z)\n", "o.bk").unwrap();
        let lattice = birkhoff_engine::seeds::load("lattice").unwrap();
        assert_eq!(
            first_pair(&order, &lattice),
            (
                ["x ^ y = x ^ y", "x v y = x v y", "le(x, y) <-> x = x ^ y"]
                    .map(String::from)
                    .to_vec(),
                ["x ^ y = x ^ y", "x v y = x v y"]
                    .map(String::from)
                    .to_vec()
            )
        );
    }
}
