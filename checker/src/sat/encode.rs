//! A theory at fixed sort sizes as propositional clauses, in the spirit of Paradox (Claessen and
//! Sörensson, 2003): every function table entry is a one-hot vector of Boolean variables, every
//! relation entry one variable, and each axiom is grounded over the domains.
//!
//! # Terms
//!
//! A ground term is an element, a table cell, or a *node*: a compound term with a compound
//! argument (`(x * y) * z` at x, y, z = 0, 1, 2). A node gets its own one-hot vector `v[a]`
//! ("the term's value is `a`"), defined exactly by two clauses per choice of argument values
//! `ā` and result `a`: `args = ā ∧ f(ā) = a → v[a]` and `args = ā ∧ v[a] → f(ā) = a`. Nodes are
//! shared between instances and axioms (memoized by function and argument values), which keeps
//! the clauses of associativity at about 2n⁵ instead of the n⁶ of a flattened clause.
//!
//! The commonest literal, a compound term equal to an element (`x \ (x * y) = y`), is never a
//! node: like Paradox's flattened clauses it becomes one clause per choice of argument values,
//! `args = ā → f(ā) = b` (n³ clauses for a quasigroup's division axiom, not 2n⁴).
//!
//! # Connectives and quantifiers
//!
//! Quantifiers are expanded over the domain, connectives become Tseitin gates with
//! Plaisted–Greenbaum polarity (a gate only implies its formula where the formula occurs
//! positively, and is only implied by it where it occurs negatively). Hence, for every assignment
//! of the table variables, the clauses can be satisfied (by some assignment of the auxiliary
//! variables) exactly when the tables are a model: the models are the satisfying assignments
//! projected onto the table variables. Enumeration blocks table variables only, so counts are
//! exact. Nothing is dropped or approximated; an encoding too large for the literal limit is an
//! error, never a partial problem.
//!
//! # Redundant clauses
//!
//! Beside the axioms: the cancellation clauses of `crate::implied` (the `extra` axioms), as
//! at-most-one and exactly-one constraints on table lines, and the onto clauses of
//! [`super::onto`] for each axiom that makes a map one-to-one. Every finite model satisfies
//! both, so neither changes a model or a count.
//!
//! # Symmetry
//!
//! The static least-number constraints of [`crate::z3::finite`] (its module doc has the proof
//! that no isomorphism class is lost), on a prefix of a sequence of cells: a cell's value is at
//! most one more than the largest element of its sort mentioned before it. The proof holds for
//! any order of the cells and any prefix, so the constraints stop where they would cost more
//! than they prune.
//!
//! The order is concentric (by largest argument), after the constants and, in a theory with
//! several sorts, after some *cross lines* (`Encoding::cross_lines`). A sort whose symbols all
//! map between different sorts, like the rows or symbols of orthogonal Latin squares read with
//! refined sorts ([`birkhoff_engine::refine`]), gets nothing from concentric order: its elements
//! are all mentioned as arguments before any of its values is constrained. A cross line, the
//! cells `f(0, .., x, .., 0)` for every `x`, constrains the values of one sort while it
//! mentions only the elements of another; with the lines chained so that each varies a sort
//! already used, a pair of orthogonal squares gets the classical normal form (first columns in
//! order, the first symbol on the diagonal) instead of almost nothing.
//!
//! With [`Symmetry::Switched`] the constraints hold only under a literal, so that the solver can
//! first look for models with a prescribed automorphism ([`Encoding::invariance`]), which the
//! constraints could rule out, and take them up afterwards.

use birkhoff_engine::signature::SortId;
use birkhoff_engine::structure::tuples;
use birkhoff_engine::syntax::{Axiom, Formula, Term};
use birkhoff_engine::{Signature, Structure, Theory};
use std::collections::HashMap;

/// A literal: a nonzero DIMACS integer. Variable 1 stands for true, so [`TRUE`] and [`FALSE`]
/// are literals too and constants need no special case; the solver never sees it (a clause with
/// [`TRUE`] is not emitted, [`FALSE`] is left out of the clauses that are).
pub type Lit = i32;
/// The literal that is always true.
pub const TRUE: Lit = 1;
/// The literal that is always false.
pub const FALSE: Lit = -1;

/// Where clauses go (the solver, or a buffer in tests).
pub trait Sink {
    /// Adds one clause.
    fn clause(&mut self, lits: &[Lit]);
    /// Whether to stop building (asked every [`CLAUSES_PER_POLL`] clauses), so that no phase of
    /// the encoding outlasts a deadline: the one-hot tables and cancellation constraints of
    /// quasigroups of order 81 alone took 3 s.
    fn stopped(&self) -> bool {
        false
    }
}

/// How many clauses are emitted between two questions to [`Sink::stopped`]: few enough that the
/// loser of a race stops within a millisecond, since the winner waits for it. At 65,536 the SAT
/// side went on building for 10 ms after the native finder had found a nonabelian group of order
/// 6 in 1 ms; a question is a clock read, against the solver's work on 1,024 clauses.
pub const CLAUSES_PER_POLL: u64 = 1 << 10;

/// The most (point, value tuple) pairs for which onto clauses are built: 12⁴ for orthogonal
/// squares of order 12 is 20,736; a map of triples of order 10 (10⁶ squared) is left out.
const ONTO_LIMIT: u128 = 1 << 24;

/// The value of a ground term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Val {
    /// A known element.
    Elem(u32),
    /// An unknown value: the one-hot vector `vectors[i]` (a table cell or a node).
    Vec(u32),
}

/// A table entry as the least-number constraints see it: function (`true`) or relation, symbol,
/// index in its table, and its arguments with their sorts.
type TableEntry = (bool, usize, usize, Vec<(SortId, u32)>);

/// Which implications a polarity-aware gate needs: `POS` (gate → formula) and/or `NEG`.
const POS: u8 = 1;
const NEG: u8 = 2;
const BOTH: u8 = 3;

fn flip(pol: u8) -> u8 {
    ((pol & POS) << 1) | ((pol & NEG) >> 1)
}

/// Why an encoding was not built.
#[derive(Debug)]
pub enum EncodeError {
    /// The clauses would exceed the literal limit (the real cost of the problem at these sizes).
    TooLarge {
        /// The literals emitted when the limit was passed.
        literals: u64,
        /// The limit.
        limit: u64,
    },
    /// The stop condition said so (deadline, Ctrl-C, or another engine answered).
    Stopped,
}

/// Whether an encoding breaks symmetry with the least-number constraints (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// None: every labeled model is a solution, for exact labeled counts.
    Off,
    /// Always in force.
    On,
    /// In force only under the literal [`Encoding::symmetry_switch`], so that the solver can
    /// first be asked questions the constraints would rule out (models with a prescribed
    /// automorphism, [`super::automorphism`]) while the constraints are assumed for the others.
    Switched,
}

/// A theory encoded at fixed sizes: which variables hold which table entry.
pub struct Encoding {
    sig: Signature,
    /// The literal under which the least-number constraints hold ([`Symmetry::Switched`]), else
    /// [`TRUE`].
    pub symmetry_switch: Lit,
    sizes: Vec<u32>,
    /// Per function symbol, the index of its first cell in `cell_vec`.
    func_base: Vec<usize>,
    /// Per function cell, its one-hot vector in `vectors`.
    cell_vec: Vec<u32>,
    /// Per relation symbol, its first entry in `rel_lits`.
    rel_base: Vec<usize>,
    /// Per relation cell, its variable.
    rel_lits: Vec<Lit>,
    /// One-hot vectors: table cells and nodes.
    vectors: Vec<Box<[Lit]>>,
    /// The last variable used.
    next_var: i32,
    /// Nodes by function and argument values (shared between instances and axioms).
    nodes: HashMap<(u32, Box<[Val]>), Val>,
    /// Gates on ground data, with the implications built so far.
    gates: HashMap<GateKey, (Lit, u8)>,
    /// Clauses emitted.
    pub clauses: u64,
    /// Literals emitted.
    pub literals: u64,
    limit: u64,
}

/// A memoized gate on ground data, with the implications built so far.
#[derive(Clone, PartialEq, Eq, Hash)]
enum GateKey {
    /// `a = b` between two unknown values.
    Eq(u32, u32),
    /// `f(args) = b` for a known `b`.
    AppIs(u32, Box<[Val]>, u32),
    /// `r(args)` with an unknown argument.
    Atom(u32, Box<[Val]>),
}

impl Encoding {
    /// Encodes `t` (and the redundant `extra` axioms, which every model satisfies) at `sizes`
    /// into `sink`. `stop` is asked now and then; `limit` caps the literals emitted.
    pub fn new(
        t: &Theory,
        extra: &[Axiom],
        sizes: &[u32],
        symmetry: Symmetry,
        limit: u64,
        sink: &mut dyn Sink,
        stop: &dyn Fn() -> bool,
    ) -> Result<Encoding, EncodeError> {
        let sig = Signature::clone(&t.sig);
        let mut e = Encoding {
            sig,
            symmetry_switch: TRUE,
            sizes: sizes.to_vec(),
            func_base: Vec::new(),
            cell_vec: Vec::new(),
            rel_base: Vec::new(),
            rel_lits: Vec::new(),
            vectors: Vec::new(),
            next_var: 1,
            nodes: HashMap::new(),
            gates: HashMap::new(),
            clauses: 0,
            literals: 0,
            limit,
        };
        e.emit(sink, &[TRUE])?;
        if symmetry == Symmetry::Switched {
            e.symmetry_switch = e.fresh();
        }
        for f in 0..e.sig.funcs.len() {
            e.func_base.push(e.cell_vec.len());
            let d = &e.sig.funcs[f];
            let (len, width) = (
                birkhoff_engine::structure::table_len(sizes, &d.args),
                sizes[d.result.0 as usize],
            );
            for _ in 0..len {
                let v = e.one_hot(width, sink)?;
                e.cell_vec.push(v);
            }
        }
        for r in 0..e.sig.rels.len() {
            e.rel_base.push(e.rel_lits.len());
            let len = birkhoff_engine::structure::table_len(sizes, &e.sig.rels[r].args);
            for k in 0..len {
                if k % 4096 == 4095 && stop() {
                    return Err(EncodeError::Stopped);
                }
                let v = e.fresh();
                e.rel_lits.push(v);
            }
        }
        if symmetry != Symmetry::Off {
            e.least_number(sink, stop)?;
        }
        let cancels_at: Vec<Option<(u32, usize)>> = t
            .axioms
            .iter()
            .map(|a| &**a)
            .chain(extra)
            .map(crate::implied::cancels_at)
            .collect();
        let cancels: Vec<(u32, usize)> = cancels_at.iter().flatten().copied().collect();
        for (i, a) in t.axioms.iter().map(|a| &**a).chain(extra).enumerate() {
            if i % 4 == 0 && stop() {
                return Err(EncodeError::Stopped);
            }
            if i >= t.axioms.len() {
                if let Some((f, arg)) = cancels_at[i] {
                    e.injective(f, arg, sink)?;
                    continue;
                }
            }
            let mut env = vec![0u32; a.vars.len()];
            let sorts: Vec<SortId> = a.vars.iter().map(|v| v.sort).collect();
            let free = a.free_vars();
            let free_sorts: Vec<SortId> = free.iter().map(|v| sorts[v.0 as usize]).collect();
            for (k, values) in tuples(sizes, &free_sorts).enumerate() {
                if k % 1024 == 1023 && stop() {
                    return Err(EncodeError::Stopped);
                }
                for (v, x) in free.iter().zip(values) {
                    env[v.0 as usize] = x;
                }
                e.assert(&a.formula, &sorts, &mut env, sink, stop)?;
            }
            if i < t.axioms.len() {
                if let Some(map) = super::onto::injection(a, &cancels) {
                    e.onto(&map, a, sink, stop)?;
                }
            }
        }
        Ok(e)
    }

    /// The onto clauses of a one-to-one map ([`super::onto`]): when its domain and codomain
    /// have the same size, every tuple of values is taken at some point of the domain. A point
    /// whose terms are not all cells or known gets a variable implying its values. Skipped,
    /// which is still sound, when the pairs of points and values exceed [`ONTO_LIMIT`].
    fn onto(
        &mut self,
        map: &super::onto::Injection,
        a: &Axiom,
        sink: &mut dyn Sink,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), EncodeError> {
        let sort_of = |t: &Term| match t {
            Term::Var(v) => a.vars[v.0 as usize].sort,
            Term::App(f, _) => self.sig.funcs[f.0 as usize].result,
        };
        let (point_sorts, value_sorts): (Vec<SortId>, Vec<SortId>) = (
            map.vars.iter().map(|v| a.vars[v.0 as usize].sort).collect(),
            map.terms.iter().map(sort_of).collect(),
        );
        let count = |sorts: &[SortId]| {
            sorts
                .iter()
                .map(|&s| self.width(s) as u128)
                .product::<u128>()
        };
        let points = count(&point_sorts);
        if points != count(&value_sorts) || points * points > ONTO_LIMIT {
            return Ok(());
        }
        let sizes = self.sizes.clone();
        let mut env = vec![0u32; a.vars.len()];
        let mut values_at = Vec::new();
        for point in tuples(&sizes, &point_sorts) {
            for (v, x) in map.vars.iter().zip(point) {
                env[v.0 as usize] = x;
            }
            values_at.push(
                map.terms
                    .iter()
                    .map(|t| self.term(t, &env, sink))
                    .collect::<Result<Vec<Val>, _>>()?,
            );
        }
        for (k, wanted) in tuples(&sizes, &value_sorts).enumerate() {
            if k % 64 == 63 && stop() {
                return Err(EncodeError::Stopped);
            }
            let mut somewhere = Vec::new();
            for values in &values_at {
                let lits: Vec<Lit> = values
                    .iter()
                    .zip(&wanted)
                    .map(|(&v, &b)| self.is(v, b))
                    .filter(|&l| l != TRUE)
                    .collect();
                match lits[..] {
                    _ if lits.contains(&FALSE) => {}
                    [] => somewhere.push(TRUE),
                    [l] => somewhere.push(l),
                    _ => {
                        let here = self.fresh();
                        for &l in &lits {
                            self.emit(sink, &[-here, l])?;
                        }
                        somewhere.push(here);
                    }
                }
            }
            self.emit(sink, &somewhere)?;
        }
        Ok(())
    }

    fn fresh(&mut self) -> Lit {
        self.next_var += 1;
        self.next_var
    }

    /// Number of variables used.
    pub fn variables(&self) -> i32 {
        self.next_var
    }

    fn emit(&mut self, sink: &mut dyn Sink, lits: &[Lit]) -> Result<(), EncodeError> {
        if lits.contains(&TRUE) {
            return Ok(());
        }
        let kept: Vec<Lit> = lits.iter().copied().filter(|&l| l != FALSE).collect();
        self.clauses += 1;
        self.literals += kept.len() as u64;
        if self.literals > self.limit {
            return Err(EncodeError::TooLarge {
                literals: self.literals,
                limit: self.limit,
            });
        }
        if self.clauses.is_multiple_of(CLAUSES_PER_POLL) && sink.stopped() {
            return Err(EncodeError::Stopped);
        }
        sink.clause(&kept);
        Ok(())
    }

    /// A new one-hot vector of `width` variables (exactly one true), as a `vectors` index.
    fn one_hot(&mut self, width: u32, sink: &mut dyn Sink) -> Result<u32, EncodeError> {
        let lits: Box<[Lit]> = if width == 1 {
            Box::new([TRUE])
        } else {
            (0..width).map(|_| self.fresh()).collect()
        };
        if width > 1 {
            self.emit(sink, &lits)?;
            self.at_most_one(&lits, sink)?;
        }
        self.vectors.push(lits);
        Ok(self.vectors.len() as u32 - 1)
    }

    /// At most one of `lits` is true: pairwise for a few, else Sinz's sequential counter.
    fn at_most_one(&mut self, lits: &[Lit], sink: &mut dyn Sink) -> Result<(), EncodeError> {
        if lits.len() <= 8 {
            for i in 0..lits.len() {
                for j in i + 1..lits.len() {
                    self.emit(sink, &[-lits[i], -lits[j]])?;
                }
            }
            return Ok(());
        }
        // s_i = "some of x_0..x_i is true".
        let mut prev = lits[0];
        for &x in &lits[1..lits.len() - 1] {
            let s = self.fresh();
            self.emit(sink, &[-prev, s])?;
            self.emit(sink, &[-x, s])?;
            self.emit(sink, &[-x, -prev])?;
            prev = s;
        }
        self.emit(sink, &[-lits[lits.len() - 1], -prev])
    }

    /// `f` is injective in argument `arg` (a cancellation clause of [`crate::implied`]): in each
    /// line of the table along `arg`, every value occurs at most once, and, when the line is as
    /// long as the value sort, exactly once (an injective map of a finite set onto one of the
    /// same size is onto). About 3n³ literals for a binary table, where the clause
    /// `f(x, y) = f(x, z) -> y = z` grounded as written costs 3n⁴.
    fn injective(&mut self, f: u32, arg: usize, sink: &mut dyn Sink) -> Result<(), EncodeError> {
        let d = self.sig.funcs[f as usize].clone();
        let (len, width) = (self.width(d.args[arg]), self.width(d.result));
        let mut others = d.args.clone();
        others.remove(arg);
        for rest in tuples(&self.sizes.clone(), &others) {
            let cells: Vec<Val> = (0..len)
                .map(|v| {
                    let mut args = rest.clone();
                    args.insert(arg, v);
                    Val::Vec(self.cell_vec[self.func_base[f as usize] + self.index(&d.args, &args)])
                })
                .collect();
            for a in 0..width {
                let lits: Vec<Lit> = cells.iter().map(|&c| self.is(c, a)).collect();
                self.at_most_one(&lits, sink)?;
                if len == width {
                    self.emit(sink, &lits)?;
                }
            }
        }
        Ok(())
    }

    fn width(&self, s: SortId) -> u32 {
        self.sizes[s.0 as usize]
    }

    /// The index of `args` in a table whose arguments have these sorts (row-major).
    fn index(&self, sorts: &[SortId], args: &[u32]) -> usize {
        sorts.iter().zip(args).fold(0usize, |i, (s, &a)| {
            i * self.width(*s) as usize + a as usize
        })
    }

    /// The literal "this value is `a`".
    fn is(&self, v: Val, a: u32) -> Lit {
        match v {
            Val::Elem(b) if a == b => TRUE,
            Val::Elem(_) => FALSE,
            Val::Vec(i) => self.vectors[i as usize][a as usize],
        }
    }

    /// Every choice of values for `args` (sorts `sorts`): the known ones fixed, the unknown ones
    /// over their sort, each with the literals saying that the arguments take those values.
    fn choices(&self, args: &[Val], sorts: &[SortId]) -> Vec<(Vec<u32>, Vec<Lit>)> {
        let mut out = vec![(Vec::new(), Vec::new())];
        for (v, s) in args.iter().zip(sorts) {
            out = match *v {
                Val::Elem(a) => out
                    .into_iter()
                    .map(|(mut vals, lits)| {
                        vals.push(a);
                        (vals, lits)
                    })
                    .collect(),
                Val::Vec(_) => out
                    .into_iter()
                    .flat_map(|(vals, lits)| {
                        (0..self.width(*s))
                            .map(move |a| {
                                let mut vals = vals.clone();
                                let mut lits = lits.clone();
                                vals.push(a);
                                lits.push(-self.is(*v, a));
                                (vals, lits)
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect(),
            };
        }
        out
    }

    fn term(&mut self, t: &Term, env: &[u32], sink: &mut dyn Sink) -> Result<Val, EncodeError> {
        match t {
            Term::Var(v) => Ok(Val::Elem(env[v.0 as usize])),
            Term::App(f, args) => {
                let vals = args
                    .iter()
                    .map(|a| self.term(a, env, sink))
                    .collect::<Result<Box<[Val]>, _>>()?;
                self.app(f.0, vals, sink)
            }
        }
    }

    /// The value of `f(vals)`: its cell when every argument is known, else a node (module doc).
    fn app(&mut self, f: u32, vals: Box<[Val]>, sink: &mut dyn Sink) -> Result<Val, EncodeError> {
        let d = self.sig.funcs[f as usize].clone();
        if let Some(known) = vals
            .iter()
            .map(|v| if let Val::Elem(a) = v { Some(*a) } else { None })
            .collect::<Option<Vec<u32>>>()
        {
            let cell = self.func_base[f as usize] + self.index(&d.args, &known);
            return Ok(Val::Vec(self.cell_vec[cell]));
        }
        if let Some(&v) = self.nodes.get(&(f, vals.clone())) {
            return Ok(v);
        }
        let width = self.width(d.result);
        let node = self.one_hot(width, sink)?;
        for (args, mut lits) in self.choices(&vals, &d.args) {
            let cell =
                Val::Vec(self.cell_vec[self.func_base[f as usize] + self.index(&d.args, &args)]);
            for a in 0..width {
                let (c, n) = (self.is(cell, a), self.is(Val::Vec(node), a));
                lits.extend([-c, n]);
                self.emit(sink, &lits)?;
                let k = lits.len();
                lits[k - 2] = c;
                lits[k - 1] = -n;
                self.emit(sink, &lits)?;
                lits.truncate(k - 2);
            }
        }
        self.nodes.insert((f, vals), Val::Vec(node));
        Ok(Val::Vec(node))
    }

    /// A gate for `key`, with the implications `pol` asks for (those built before are reused).
    fn gate(&mut self, key: GateKey, pol: u8, sink: &mut dyn Sink) -> Result<Lit, EncodeError> {
        let (g, have) = match self.gates.get(&key) {
            Some(&(g, have)) => (g, have),
            None => (self.fresh(), 0),
        };
        let need = pol & !have;
        if need != 0 {
            self.gates.insert(key.clone(), (g, have | need));
            match &key {
                GateKey::Eq(a, b) => {
                    for x in 0..self.vectors[*a as usize].len() as u32 {
                        let (l, r) = (self.is(Val::Vec(*a), x), self.is(Val::Vec(*b), x));
                        if need & POS != 0 {
                            self.emit(sink, &[-g, -l, r])?;
                        }
                        if need & NEG != 0 {
                            self.emit(sink, &[g, -l, -r])?;
                        }
                    }
                }
                GateKey::AppIs(f, vals, b) => {
                    let d = self.sig.funcs[*f as usize].clone();
                    let base = self.func_base[*f as usize];
                    for (args, lits) in self.choices(vals, &d.args) {
                        let c = self.is(
                            Val::Vec(self.cell_vec[base + self.index(&d.args, &args)]),
                            *b,
                        );
                        self.implications(g, c, lits, need, sink)?;
                    }
                }
                GateKey::Atom(r, vals) => {
                    let d = self.sig.rels[*r as usize].clone();
                    let base = self.rel_base[*r as usize];
                    for (args, lits) in self.choices(vals, &d.args) {
                        let c = self.rel_lits[base + self.index(&d.args, &args)];
                        self.implications(g, c, lits, need, sink)?;
                    }
                }
            }
        }
        Ok(g)
    }

    /// Under the argument values that `lits` (negated) describe, the gate `g` stands for the table
    /// literal `c`: `g → c` when `need` has `POS`, `c → g` when it has `NEG`.
    fn implications(
        &mut self,
        g: Lit,
        c: Lit,
        mut lits: Vec<Lit>,
        need: u8,
        sink: &mut dyn Sink,
    ) -> Result<(), EncodeError> {
        if need & POS != 0 {
            lits.extend([-g, c]);
            self.emit(sink, &lits)?;
            lits.truncate(lits.len() - 2);
        }
        if need & NEG != 0 {
            lits.extend([g, -c]);
            self.emit(sink, &lits)?;
        }
        Ok(())
    }

    /// A literal for `left = right` valid in polarity `pol` (module doc).
    fn equation(
        &mut self,
        left: &Term,
        right: &Term,
        env: &[u32],
        pol: u8,
        sink: &mut dyn Sink,
    ) -> Result<Lit, EncodeError> {
        // A compound side equal to a known element is a flattened gate, without a node for it.
        for (side, other) in [(left, right), (right, left)] {
            if let (Term::App(f, args), Term::Var(v)) = (side, other) {
                let vals = args
                    .iter()
                    .map(|a| self.term(a, env, sink))
                    .collect::<Result<Box<[Val]>, _>>()?;
                let b = env[v.0 as usize];
                if vals.iter().all(|v| matches!(v, Val::Elem(_))) {
                    let cell = self.app(f.0, vals, sink)?;
                    return Ok(self.is(cell, b));
                }
                return self.gate(GateKey::AppIs(f.0, vals, b), pol, sink);
            }
        }
        let (l, r) = (self.term(left, env, sink)?, self.term(right, env, sink)?);
        match (l, r) {
            (Val::Elem(a), Val::Elem(b)) => Ok(if a == b { TRUE } else { FALSE }),
            (Val::Elem(a), v) | (v, Val::Elem(a)) => Ok(self.is(v, a)),
            (Val::Vec(a), Val::Vec(b)) if a == b => Ok(TRUE),
            (Val::Vec(a), Val::Vec(b)) => self.gate(GateKey::Eq(a.min(b), a.max(b)), pol, sink),
        }
    }

    fn atom(
        &mut self,
        r: u32,
        args: &[Term],
        env: &[u32],
        pol: u8,
        sink: &mut dyn Sink,
    ) -> Result<Lit, EncodeError> {
        let vals = args
            .iter()
            .map(|a| self.term(a, env, sink))
            .collect::<Result<Box<[Val]>, _>>()?;
        match vals
            .iter()
            .map(|v| if let Val::Elem(a) = v { Some(*a) } else { None })
            .collect::<Option<Vec<u32>>>()
        {
            Some(known) => {
                let sorts = self.sig.rels[r as usize].args.clone();
                Ok(self.rel_lits[self.rel_base[r as usize] + self.index(&sorts, &known)])
            }
            None => self.gate(GateKey::Atom(r, vals), pol, sink),
        }
    }

    /// The conjuncts (`walk.conj`) or disjuncts of `f` (of `¬f` if `negated`), with quantifiers
    /// of the same kind expanded, pushed to `out` as literals valid in polarity `walk.pol`.
    fn parts(
        &mut self,
        f: &Formula,
        negated: bool,
        env: &mut Vec<u32>,
        out: &mut Vec<Lit>,
        walk: &mut PartsWalk<'_>,
    ) -> Result<(), EncodeError> {
        let conj = walk.conj;
        // Under negation a conjunction reads as a disjunction and vice versa.
        let and_like = |is_and: bool| is_and != negated;
        match f {
            Formula::Not(g) => self.parts(g, !negated, env, out, walk),
            Formula::And(a, b) | Formula::Or(a, b)
                if and_like(matches!(f, Formula::And(..))) == conj =>
            {
                self.parts(a, negated, env, out, walk)?;
                self.parts(b, negated, env, out, walk)
            }
            Formula::Implies(a, b) if conj == negated => {
                // a -> b is ¬a ∨ b; negated, it is a ∧ ¬b.
                self.parts(a, !negated, env, out, walk)?;
                self.parts(b, negated, env, out, walk)
            }
            Formula::Forall(vs, g) | Formula::Exists(vs, g)
                if and_like(matches!(f, Formula::Forall(..))) == conj =>
            {
                let vsorts: Vec<SortId> = vs.iter().map(|v| walk.sorts[v.0 as usize]).collect();
                let saved: Vec<u32> = vs.iter().map(|v| env[v.0 as usize]).collect();
                for (k, values) in tuples(&self.sizes.clone(), &vsorts).enumerate() {
                    if k % 4096 == 4095 && (walk.stop)() {
                        return Err(EncodeError::Stopped);
                    }
                    for (v, x) in vs.iter().zip(values) {
                        env[v.0 as usize] = x;
                    }
                    self.parts(g, negated, env, out, walk)?;
                }
                for (v, x) in vs.iter().zip(saved) {
                    env[v.0 as usize] = x;
                }
                Ok(())
            }
            _ => {
                let pol = if negated { flip(walk.pol) } else { walk.pol };
                let l = self.formula(f, walk.sorts, env, pol, walk.sink, walk.stop)?;
                out.push(if negated { -l } else { l });
                Ok(())
            }
        }
    }

    /// A literal for `f` at `env`, valid in polarity `pol`: with `POS` it implies `f`, with `NEG`
    /// `f` implies it.
    fn formula(
        &mut self,
        f: &Formula,
        sorts: &[SortId],
        env: &mut Vec<u32>,
        pol: u8,
        sink: &mut dyn Sink,
        stop: &dyn Fn() -> bool,
    ) -> Result<Lit, EncodeError> {
        match f {
            Formula::True => Ok(TRUE),
            Formula::False => Ok(FALSE),
            Formula::Eq(a, b) => self.equation(a, b, env, pol, sink),
            Formula::Rel(r, args) => self.atom(r.0, args, env, pol, sink),
            Formula::Not(g) => Ok(-self.formula(g, sorts, env, flip(pol), sink, stop)?),
            Formula::Iff(a, b) => {
                let (x, y) = (
                    self.formula(a, sorts, env, BOTH, sink, stop)?,
                    self.formula(b, sorts, env, BOTH, sink, stop)?,
                );
                let g = self.fresh();
                if pol & POS != 0 {
                    self.emit(sink, &[-g, -x, y])?;
                    self.emit(sink, &[-g, x, -y])?;
                }
                if pol & NEG != 0 {
                    self.emit(sink, &[g, x, y])?;
                    self.emit(sink, &[g, -x, -y])?;
                }
                Ok(g)
            }
            _ => {
                // A conjunction-like formula (And, Forall) or a disjunction-like one (Or, Implies, Exists).
                let conj = matches!(f, Formula::And(..) | Formula::Forall(..));
                let mut lits = Vec::new();
                let mut walk = PartsWalk {
                    conj,
                    pol,
                    sorts,
                    sink,
                    stop,
                };
                self.parts(f, false, env, &mut lits, &mut walk)?;
                self.gate_of(conj, &lits, pol, sink)
            }
        }
    }

    /// A Tseitin gate for the conjunction (`conj`) or disjunction of `lits`.
    fn gate_of(
        &mut self,
        conj: bool,
        lits: &[Lit],
        pol: u8,
        sink: &mut dyn Sink,
    ) -> Result<Lit, EncodeError> {
        let (absorbing, neutral) = if conj { (FALSE, TRUE) } else { (TRUE, FALSE) };
        if lits.contains(&absorbing) {
            return Ok(absorbing);
        }
        let kept: Vec<Lit> = lits.iter().copied().filter(|&l| l != neutral).collect();
        match kept.len() {
            0 => return Ok(neutral),
            1 => return Ok(kept[0]),
            _ => {}
        }
        // A disjunction is the negated conjunction of the negations.
        let (kept, pol) = if conj {
            (kept, pol)
        } else {
            (kept.iter().map(|l| -l).collect(), flip(pol))
        };
        let g = self.fresh();
        if pol & POS != 0 {
            for &l in &kept {
                self.emit(sink, &[-g, l])?;
            }
        }
        if pol & NEG != 0 {
            let mut c: Vec<Lit> = kept.iter().map(|l| -l).collect();
            c.push(g);
            self.emit(sink, &c)?;
        }
        Ok(if conj { g } else { -g })
    }

    /// Asserts `f` at `env`: conjunctions become separate clauses, a disjunction one clause.
    fn assert(
        &mut self,
        f: &Formula,
        sorts: &[SortId],
        env: &mut Vec<u32>,
        sink: &mut dyn Sink,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), EncodeError> {
        let mut conjuncts = Vec::new();
        self.top_conjuncts(f, false, &mut conjuncts);
        for (g, negated) in conjuncts {
            match g {
                Formula::Forall(vs, body) if !negated => {
                    let vsorts: Vec<SortId> = vs.iter().map(|v| sorts[v.0 as usize]).collect();
                    for (k, values) in tuples(&self.sizes.clone(), &vsorts).enumerate() {
                        if k % 1024 == 1023 && stop() {
                            return Err(EncodeError::Stopped);
                        }
                        for (v, x) in vs.iter().zip(values) {
                            env[v.0 as usize] = x;
                        }
                        self.assert(body, sorts, env, sink, stop)?;
                    }
                }
                Formula::Exists(vs, body) if negated => {
                    let vsorts: Vec<SortId> = vs.iter().map(|v| sorts[v.0 as usize]).collect();
                    for values in tuples(&self.sizes.clone(), &vsorts) {
                        for (v, x) in vs.iter().zip(values) {
                            env[v.0 as usize] = x;
                        }
                        self.assert(&Formula::Not(body.clone()), sorts, env, sink, stop)?;
                    }
                }
                _ => {
                    let mut lits = Vec::new();
                    let mut walk = PartsWalk {
                        conj: false,
                        pol: POS,
                        sorts,
                        sink,
                        stop,
                    };
                    self.parts(g, negated, env, &mut lits, &mut walk)?;
                    self.emit(sink, &lits)?;
                }
            }
        }
        Ok(())
    }

    /// The top-level conjuncts of `f` (each with whether it is negated), not expanding quantifiers.
    fn top_conjuncts<'f>(&self, f: &'f Formula, negated: bool, out: &mut Vec<(&'f Formula, bool)>) {
        match f {
            Formula::And(a, b) if !negated => {
                self.top_conjuncts(a, false, out);
                self.top_conjuncts(b, false, out)
            }
            Formula::Or(a, b) if negated => {
                self.top_conjuncts(a, true, out);
                self.top_conjuncts(b, true, out)
            }
            Formula::Implies(a, b) if negated => {
                self.top_conjuncts(a, false, out);
                self.top_conjuncts(b, true, out)
            }
            Formula::Not(g) => self.top_conjuncts(g, !negated, out),
            Formula::True if !negated => {}
            Formula::False if negated => {}
            _ => out.push((f, negated)),
        }
    }

    /// The cells of the least-number constraints, in order (module doc): the constants, the
    /// cells of the [`Encoding::cross_lines`], then every other cell in concentric order.
    fn symmetry_order(&self, stop: &dyn Fn() -> bool) -> Result<Vec<TableEntry>, EncodeError> {
        let mut cells = self.concentric(stop)?;
        let lines = self.cross_lines();
        if lines.is_empty() {
            return Ok(cells);
        }
        let mut first = Vec::new();
        for (f, p) in lines {
            let d = &self.sig.funcs[f];
            for x in 0..self.sizes[d.args[p].0 as usize] {
                let args: Vec<(SortId, u32)> = d
                    .args
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| (s, if i == p { x } else { 0 }))
                    .collect();
                let values: Vec<u32> = args.iter().map(|a| a.1).collect();
                first.push((true, f, self.index(&d.args, &values), args));
            }
        }
        let in_lines: std::collections::HashSet<(usize, usize)> =
            first.iter().map(|l| (l.1, l.2)).collect();
        cells.retain(|c| !(c.0 && in_lines.contains(&(c.1, c.2))));
        let constants = cells.iter().take_while(|c| c.3.is_empty()).count();
        cells.splice(constants..constants, first);
        Ok(cells)
    }

    /// The cross lines of the least-number order (module doc), each as (function, varying
    /// argument): `f(0, .., x, .., 0)` for every `x`, where the argument's sort differs from the
    /// result's. Each line takes a result sort that no earlier line has touched. It varies a
    /// sort already touched when it can; otherwise it gives up a sort whose symmetry concentric
    /// order could not break anyway (no function maps that sort into itself), never one it could.
    fn cross_lines(&self) -> Vec<(usize, usize)> {
        let sorts = self.sizes.len();
        if sorts < 2 {
            return Vec::new();
        }
        let self_broken: Vec<bool> = (0..sorts)
            .map(|s| {
                self.sig
                    .funcs
                    .iter()
                    .any(|d| d.result.0 as usize == s && d.args.iter().any(|a| a.0 as usize == s))
            })
            .collect();
        let mut touched = vec![false; sorts];
        let mut lines = Vec::new();
        loop {
            let candidates = || {
                self.sig
                    .funcs
                    .iter()
                    .enumerate()
                    .flat_map(|(f, d)| {
                        d.args
                            .iter()
                            .enumerate()
                            .map(move |(p, q)| (f, p, d.result.0 as usize, q.0 as usize))
                    })
                    .filter(|&(_, _, s, q)| s != q && !touched[s])
            };
            let pick = candidates()
                .find(|&(.., q)| touched[q])
                .or_else(|| candidates().find(|&(.., q)| !self_broken[q]));
            let Some((f, p, s, q)) = pick else { break };
            touched[s] = true;
            touched[q] = true;
            lines.push((f, p));
        }
        lines
    }

    /// Cells in concentric order: by largest argument (+1, 0 for constants), then symbol and
    /// table order, functions before relations; each as (function?, symbol, index, args).
    fn concentric(&self, stop: &dyn Fn() -> bool) -> Result<Vec<TableEntry>, EncodeError> {
        let mut cells = Vec::new();
        let symbols = self
            .sig
            .funcs
            .iter()
            .map(|d| (true, &d.args))
            .enumerate()
            .chain(self.sig.rels.iter().map(|d| (false, &d.args)).enumerate());
        for (symbol, (is_func, args)) in symbols {
            for (i, values) in tuples(&self.sizes, args).enumerate() {
                if cells.len() % 4096 == 4095 && stop() {
                    return Err(EncodeError::Stopped);
                }
                cells.push((
                    is_func,
                    symbol,
                    i,
                    args.iter().copied().zip(values).collect::<Vec<_>>(),
                ));
            }
        }
        cells.sort_by_key(|c| c.3.iter().map(|a| a.1 + 1).max().unwrap_or(0));
        Ok(cells)
    }

    /// The least-number constraints (module doc) on the cells in [`Encoding::symmetry_order`], while they can
    /// still prune: `mentioned[s][j]` is a literal for "some element ≥ j of sort `s` has been
    /// mentioned (as an argument or a value) before this cell".
    fn least_number(
        &mut self,
        sink: &mut dyn Sink,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), EncodeError> {
        // Past this many constraint literals, the rest of the cells go without (still sound).
        const BUDGET: u64 = 2_000_000;
        let start = self.literals;
        let mut mentioned: Vec<Vec<Lit>> = self
            .sizes
            .iter()
            .map(|&n| vec![FALSE; n as usize + 1])
            .collect();
        for (is_func, sym, index, args) in self.symmetry_order(stop)? {
            if self.literals - start > BUDGET {
                break;
            }
            for &(s, a) in &args {
                mentioned[s.0 as usize][..=a as usize].fill(TRUE);
            }
            if !is_func {
                continue;
            }
            let s = self.sig.funcs[sym].result;
            let n = self.width(s) as usize;
            let cell = Val::Vec(self.cell_vec[self.func_base[sym] + index]);
            let m = mentioned[s.0 as usize].clone();
            // value a ≥ 1 needs some mentioned element ≥ a - 1.
            for a in 1..n {
                if m[a - 1] != TRUE {
                    self.emit(
                        sink,
                        &[-self.symmetry_switch, -self.is(cell, a as u32), m[a - 1]],
                    )?;
                }
            }
            if m[n - 1] == TRUE {
                continue;
            }
            // mentioned'[j] ⟺ mentioned[j] ∨ value ≥ j, built from the top down.
            let mut next = vec![FALSE; n + 1];
            for j in (0..n).rev() {
                if m[j] == TRUE {
                    next[j] = TRUE;
                    continue;
                }
                let g = self.fresh();
                let x = self.is(cell, j as u32);
                self.emit(sink, &[-m[j], g])?;
                self.emit(sink, &[-x, g])?;
                self.emit(sink, &[-next[j + 1], g])?;
                self.emit(sink, &[-g, m[j], x, next[j + 1]])?;
                next[j] = g;
            }
            mentioned[s.0 as usize] = next;
        }
        Ok(())
    }

    /// The clauses saying that `perm` (per sort, the image of each element) is an automorphism
    /// of the tables, each with the literal `-guard` so that they hold only under `guard`: for
    /// every cell, `f(ā) = a → f(perm ā) = perm a` (a relation entry likewise). Following an
    /// orbit of `perm` round gives the converse, so the tables commute with `perm`. A constant's
    /// value is thereby a fixed point.
    pub fn invariance(&self, perm: &[Vec<u32>], guard: Lit, out: &mut dyn FnMut(&[Lit])) {
        // As in `emit`: TRUE and FALSE are not the solver's to know (variable 1 is never fixed).
        let mut out = |lits: &[Lit]| {
            if !lits.contains(&TRUE) {
                out(&lits
                    .iter()
                    .copied()
                    .filter(|&l| l != FALSE)
                    .collect::<Vec<Lit>>());
            }
        };
        let image = |sorts: &[SortId], args: &[u32]| -> Vec<u32> {
            sorts
                .iter()
                .zip(args)
                .map(|(s, &a)| perm[s.0 as usize][a as usize])
                .collect()
        };
        for (f, d) in self.sig.funcs.iter().enumerate() {
            let base = self.func_base[f];
            let result = &perm[d.result.0 as usize];
            for (i, args) in tuples(&self.sizes, &d.args).enumerate() {
                let (from, to) = (
                    Val::Vec(self.cell_vec[base + i]),
                    Val::Vec(self.cell_vec[base + self.index(&d.args, &image(&d.args, &args))]),
                );
                for a in 0..self.width(d.result) {
                    if from != to || result[a as usize] != a {
                        out(&[-guard, -self.is(from, a), self.is(to, result[a as usize])]);
                    }
                }
            }
        }
        for (r, d) in self.sig.rels.iter().enumerate() {
            let base = self.rel_base[r];
            for (i, args) in tuples(&self.sizes, &d.args).enumerate() {
                let to = base + self.index(&d.args, &image(&d.args, &args));
                if to != base + i {
                    out(&[-guard, -self.rel_lits[base + i], self.rel_lits[to]]);
                }
            }
        }
    }

    /// The literals of every table entry, for blocking a structure: per function cell its value
    /// literal in `s`, per relation cell its literal as `s` has it.
    pub fn literals_of(&self, s: &Structure) -> Vec<Lit> {
        let mut out = Vec::new();
        for (f, table) in s.funcs.iter().enumerate() {
            for (i, &v) in table.iter().enumerate() {
                out.push(self.is(Val::Vec(self.cell_vec[self.func_base[f] + i]), v));
            }
        }
        for (r, table) in s.rels.iter().enumerate() {
            for (i, &b) in table.iter().enumerate() {
                let l = self.rel_lits[self.rel_base[r] + i];
                out.push(if b { l } else { -l });
            }
        }
        out
    }

    /// The structure a satisfying assignment describes (`value(l)`: is literal `l` true).
    pub fn structure(&self, value: &dyn Fn(Lit) -> bool) -> Structure {
        let mut s = Structure::zeroed(&self.sig, &self.sizes);
        for (f, table) in s.funcs.iter_mut().enumerate() {
            for (i, v) in table.iter_mut().enumerate() {
                let lits = &self.vectors[self.cell_vec[self.func_base[f] + i] as usize];
                *v = lits.iter().position(|&l| value(l)).unwrap_or(0) as u32;
            }
        }
        for (r, table) in s.rels.iter_mut().enumerate() {
            for (i, b) in table.iter_mut().enumerate() {
                *b = value(self.rel_lits[self.rel_base[r] + i]);
            }
        }
        s
    }
}

/// About how many literals [`Encoding::new`] would emit (within a small factor), computed from
/// the shapes of the axioms alone so that a hopeless size is refused at once instead of after
/// minutes of encoding: the tables' one-hot vectors, each node (a compound term with a compound
/// argument) once per assignment of its variables, and each atom once per instance of its axiom.
pub fn estimate(t: &Theory, extra: &[Axiom], sizes: &[u32]) -> u128 {
    let size = |s: SortId| sizes[s.0 as usize] as u128;
    let mut total: u128 = 0;
    for d in &t.sig.funcs {
        let cells: u128 = d.args.iter().map(|&s| size(s)).product();
        total = total.saturating_add(cells.saturating_mul(size(d.result)).saturating_mul(3));
    }
    for a in t.axioms.iter().map(|a| &**a).chain(extra) {
        let cost = Cost {
            sig: &t.sig,
            size: &size,
            var_sort: &|v: u32| a.vars[v as usize].sort,
        };
        let instances: u128 = a.vars.iter().map(|v| size(v.sort)).product();
        let (mut atoms, mut nodes) = (0u128, 0u128);
        cost.formula(&a.formula, &mut atoms, &mut nodes);
        total = total
            .saturating_add(instances.saturating_mul(atoms.max(1)))
            .saturating_add(nodes);
    }
    total
}

/// About how many bytes building the encoding and the solver's copy of it takes at its peak,
/// within a small factor, before anything is built: a base, each function cell's one-hot
/// variables (with their share of the symmetry-breaking ladders), each relation cell's
/// variable and its entry in the symmetry order (a word per argument), and each literal of
/// [`estimate`]. The constants are peak resident sizes measured on this encoder with CaDiCaL
/// (magmas of order 30 and 60, groups of order 20, one 10- to 13-ary relation at size 3), taken
/// on the high side: a relation of arity 16 at size 3 (43 million cells) needed more than 6 GB,
/// which a literal count alone did not see.
pub fn memory_estimate(t: &Theory, extra: &[Axiom], sizes: &[u32]) -> u128 {
    const BASE: u128 = 40 << 20;
    const PER_FUNCTION_VARIABLE: u128 = 1_300;
    const PER_RELATION_CELL: u128 = 300;
    const PER_ARGUMENT: u128 = 16;
    const PER_LITERAL: u128 = 45;
    let size = |s: SortId| sizes[s.0 as usize] as u128;
    let mut bytes = BASE;
    for d in &t.sig.funcs {
        let cells: u128 = d.args.iter().map(|&s| size(s)).product();
        bytes = bytes.saturating_add(
            cells
                .saturating_mul(size(d.result))
                .saturating_mul(PER_FUNCTION_VARIABLE),
        );
    }
    for d in &t.sig.rels {
        let cells: u128 = d.args.iter().map(|&s| size(s)).product();
        bytes = bytes.saturating_add(
            cells.saturating_mul(PER_RELATION_CELL + PER_ARGUMENT * d.args.len() as u128),
        );
    }
    bytes.saturating_add(estimate(t, extra, sizes).saturating_mul(PER_LITERAL))
}

/// What stays the same through one [`Encoding::parts`] walk: whether it collects conjuncts or
/// disjuncts, the polarity their literals must be valid in, the sorts of the formula's variables,
/// and the encoding's sink and stop test.
struct PartsWalk<'w> {
    conj: bool,
    pol: u8,
    sorts: &'w [SortId],
    sink: &'w mut dyn Sink,
    stop: &'w dyn Fn() -> bool,
}

/// What [`estimate`] reads an axiom with.
struct Cost<'a> {
    sig: &'a Signature,
    size: &'a dyn Fn(SortId) -> u128,
    var_sort: &'a dyn Fn(u32) -> SortId,
}

impl Cost<'_> {
    fn formula(&self, f: &Formula, atoms: &mut u128, nodes: &mut u128) {
        match f {
            Formula::True | Formula::False => {}
            Formula::Eq(a, b) => match (a, b) {
                // A compound side equal to a variable is flattened (no node): a clause of k + 2
                // literals per choice of its k compound arguments' values.
                (Term::App(_, args), Term::Var(_)) | (Term::Var(_), Term::App(_, args)) => {
                    args.iter().for_each(|x| self.term(x, nodes));
                    let widths = self.compound_widths(args);
                    *atoms = atoms.saturating_add(
                        widths.iter().product::<u128>() * (widths.len() as u128 + 2),
                    );
                }
                _ => {
                    *atoms += 1;
                    self.term(a, nodes);
                    self.term(b, nodes);
                }
            },
            Formula::Rel(_, args) => {
                *atoms += 1;
                args.iter().for_each(|a| self.term(a, nodes));
            }
            Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => {
                self.formula(g, atoms, nodes)
            }
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => {
                self.formula(a, atoms, nodes);
                self.formula(b, atoms, nodes)
            }
        }
    }

    /// Adds the literals of the nodes in `t`: one node per assignment of its variables, each with
    /// two clauses of k + 2 literals per choice of its k compound arguments' values and result.
    fn term(&self, t: &Term, nodes: &mut u128) {
        let Term::App(f, args) = t else { return };
        args.iter().for_each(|a| self.term(a, nodes));
        let widths = self.compound_widths(args);
        if widths.is_empty() {
            return;
        }
        let mut vars = Vec::new();
        collect_vars(t, &mut vars);
        vars.sort_unstable();
        vars.dedup();
        let assignments: u128 = vars
            .iter()
            .map(|&v| (self.size)((self.var_sort)(v)))
            .product();
        let per_node = widths.iter().product::<u128>()
            * (self.size)(self.sig.funcs[f.0 as usize].result)
            * 2
            * (widths.len() as u128 + 2);
        *nodes = nodes.saturating_add(assignments.saturating_mul(per_node));
    }
}

impl Cost<'_> {
    /// The sizes of the result sorts of the compound terms among `args`.
    fn compound_widths(&self, args: &[Term]) -> Vec<u128> {
        args.iter()
            .filter_map(|a| {
                if let Term::App(g, _) = a {
                    Some((self.size)(self.sig.funcs[g.0 as usize].result))
                } else {
                    None
                }
            })
            .collect()
    }
}

fn collect_vars(t: &Term, out: &mut Vec<u32>) {
    match t {
        Term::Var(v) => out.push(v.0),
        Term::App(_, args) => args.iter().for_each(|a| collect_vars(a, out)),
    }
}
