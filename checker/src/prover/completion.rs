//! Equational goals by unfailing (ordered) Knuth–Bendix completion, as in Waldmeister and Twee,
//! turned into a [`Certificate`].
//!
//! The goal's variables become fresh constants; the axioms' equations are completed under a
//! Knuth–Bendix ordering that is total on ground terms ([`greater`]): equations it orients are
//! rules, the others are used in whichever direction makes an instance smaller (ordered
//! rewriting). A given-clause loop picks the lightest waiting equation (every
//! `OLDEST_EVERY`th pick the oldest, so that every equation is picked in the end), simplifies it
//! by the active ones, drops it when trivial or an instance of an active one, moves the active
//! equations it simplifies back to the queue, and adds its critical pairs with every active
//! equation (ordered ones included). After each new equation the goal's sides are rewritten
//! further; they meet in one term exactly when the goal follows, given time, because the ordering
//! is total on ground terms.
//!
//! Critical pairs wait as their parents and position only (`Overlap`), weighed by their normal
//! form: most are never picked, and a picked one is formed again with its derivation, as in
//! Waldmeister.
//!
//! Rewriting finds the active equations that may match a term through a discrimination tree
//! ([`DiscriminationTree`]) before matching; terms are normalized innermost
//! first, and those found irreducible are remembered until the active set changes, since the
//! critical pairs of one activation share most of their subterms.
//!
//! Every equation keeps its derivation: a chain of rewrite steps by earlier equations from its
//! left side to its right side. `Expander` turns the goal's chain into certificate steps: each
//! derived equation it uses becomes one [`Lemma`] open in the equation's variables, proved once by
//! its derivation (recursively down to the axioms) and used at every instance, so a certificate
//! grows with the equations the proof needs, not with their instances. Variables of a derivation
//! that are not in its conclusion (an overlap's inner variables) may take any value of their
//! sort; they get a fixed ground term of their sort. The caller replays the result with
//! [`certificate::check`], which shares no code with this file.
//!
//! Many sorts need care in two places only, since unifying and matching well-sorted terms of one
//! sort keep sorts: a side that is a bare variable stands only for terms of its sort, and the
//! constant a free variable gets is one of its sort (each equation records its variables' sorts).

use super::certificate::{self, Binding, Certificate, Direction, Justification, Lemma, Step};
use super::discrimination::DiscriminationTree;
use super::rewrite::matches;
use super::Undecided;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, Signature, SortId};
use birkhoff_engine::syntax::{Axiom, Term, VarId};
use birkhoff_engine::Theory;
use rustc_hash::FxHashSet;
use std::cell::{Cell, RefCell};
use std::cmp::{Ordering as Cmp, Reverse};
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Most terms remembered as irreducible at once.
const IRREDUCIBLE_CACHE: usize = 1 << 20;

/// One pick in this many takes the oldest waiting equation instead of the lightest. Picking by
/// weight alone is what finds the proofs (E with a 4 : 1 mix of weight and age does not prove left
/// Moufang ⇒ right Bol in 15 s, with weight alone it does in 1.3 s); the oldest keep every
/// equation within reach however many light ones come.
const OLDEST_EVERY: usize = 32;

/// Most critical pairs waiting at once: a bound on memory (about 100 bytes each).
const WAITING_OVERLAPS: usize = 8_000_000;

/// How far completion may go.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop searching at this instant.
    pub deadline: Instant,
    /// Most equations kept (waiting, active and retired, whose derivations proofs may use).
    pub equations: usize,
    /// Most rewrite steps in the certificate, lemmas included.
    pub proof_steps: usize,
    /// Set to true to stop soon.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// One rewrite step of a derivation: equation `eq` used in `dir` at `pos`, its variables bound to
/// `sub` (terms over the deriving equation's variables).
#[derive(Clone, Debug)]
struct Use {
    eq: usize,
    dir: Direction,
    pos: Vec<usize>,
    sub: Vec<Term>,
}

/// Where an equation comes from.
#[derive(Debug)]
enum Origin {
    /// Equation `part` of axiom `axiom`; `names[i]` is the axiom's name of variable `i`.
    Axiom {
        axiom: usize,
        part: usize,
        names: Vec<String>,
    },
    /// A chain from the left side to the right side. Its variables below `vars` are the
    /// equation's; those above occur only inside the chain.
    Derived(Vec<Use>),
}

/// An equation whose variables are `0..vars`.
#[derive(Debug)]
struct Equation {
    lhs: Term,
    rhs: Term,
    vars: u32,
    /// The sort of its sides.
    sort: SortId,
    /// The sort of each variable, its own and (above `vars`) its derivation's.
    var_sorts: Vec<SortId>,
    /// Whether `lhs > rhs` in the ordering, so that it rewrites only left to right.
    oriented: bool,
    origin: Origin,
}

/// A critical pair waiting to be picked: `inner` used in direction `inner_dir` rewriting inside
/// `outer` used in direction `outer_dir`, at position `pos` of the side `outer` rewrites from.
struct Overlap {
    outer: usize,
    outer_dir: Direction,
    inner: usize,
    inner_dir: Direction,
    pos: Vec<usize>,
}

/// Something waiting to be picked.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Waiting {
    /// An equation (an axiom, or an active one that a newer one simplified).
    Equation(usize),
    /// The critical pair `pending[i]`.
    Overlap(usize),
}

/// Where an equation is in the loop.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Waiting,
    Active,
    Retired,
}

/// Adds `by` to `counts[v]` for each occurrence of variable `v` in `t`.
fn var_counts(t: &Term, counts: &mut Vec<i64>, by: i64) {
    t.for_each_var(&mut |v| {
        let i = v.0 as usize;
        if counts.len() <= i {
            counts.resize(i + 1, 0);
        }
        counts[i] += by;
    });
}

fn occurs(v: VarId, t: &Term) -> bool {
    match t {
        Term::Var(w) => *w == v,
        Term::App(_, args) => args.iter().any(|a| occurs(v, a)),
    }
}

/// The Knuth–Bendix ordering with every weight 1 and symbols ranked by arity, then by index (so
/// goal constants rank above the theory's constants): `s > t` for all values of the variables.
/// Total on distinct ground terms, which makes ordered rewriting ground-confluent in the limit.
pub fn greater(s: &Term, t: &Term) -> bool {
    let mut counts = Vec::new();
    var_counts(s, &mut counts, 1);
    var_counts(t, &mut counts, -1);
    counts.iter().all(|&c| c >= 0) && heavier(s, t)
}

/// [`greater`] once its variable condition holds for `s` and `t`; it then holds for their
/// arguments at the first difference, whose comparison decides.
fn heavier(s: &Term, t: &Term) -> bool {
    let (Term::App(f, ss), Term::App(g, ts)) = (s, t) else {
        return matches!(t, Term::Var(x) if s != t && occurs(*x, s));
    };
    match s.size().cmp(&t.size()) {
        Cmp::Greater => true,
        Cmp::Less => false,
        Cmp::Equal => match (ss.len(), f.0).cmp(&(ts.len(), g.0)) {
            Cmp::Greater => true,
            Cmp::Less => false,
            Cmp::Equal => ss
                .iter()
                .zip(ts)
                .find(|(a, b)| a != b)
                .is_some_and(|(a, b)| greater(a, b)),
        },
    }
}

/// `t` with variable `v` replaced by `sub[v]` (variables beyond `sub` by `rest(v)`).
fn instantiate<S: std::borrow::Borrow<Term>>(
    t: &Term,
    sub: &[S],
    rest: &impl Fn(VarId) -> Term,
) -> Term {
    match t {
        Term::Var(v) => sub
            .get(v.0 as usize)
            .map(|b| b.borrow().clone())
            .unwrap_or_else(|| rest(*v)),
        Term::App(f, args) => {
            Term::App(*f, args.iter().map(|a| instantiate(a, sub, rest)).collect())
        }
    }
}

/// `t` under the triangular substitution `sub`, resolved fully.
fn resolve(t: &Term, sub: &[Option<&Term>]) -> Term {
    match t {
        Term::Var(v) => match sub[v.0 as usize] {
            Some(b) => resolve(b, sub),
            None => t.clone(),
        },
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| resolve(a, sub)).collect()),
    }
}

/// Extends `sub` to a most general unifier of `a` and `b`, if there is one. Bindings are
/// subterms of `a` and `b` (a triangular substitution), so that nothing is copied.
fn unify<'t>(a: &'t Term, b: &'t Term, sub: &mut [Option<&'t Term>]) -> bool {
    match (walk(a, sub), walk(b, sub)) {
        (Term::Var(x), Term::Var(y)) if x == y => true,
        (Term::Var(x), t) | (t, Term::Var(x)) => {
            if occurs_bound(*x, t, sub) {
                return false;
            }
            sub[x.0 as usize] = Some(t);
            true
        }
        (Term::App(f, xs), Term::App(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| unify(x, y, sub))
        }
    }
}

/// `t` with bound variables at its root followed.
fn walk<'t>(mut t: &'t Term, sub: &[Option<&'t Term>]) -> &'t Term {
    while let Term::Var(v) = t {
        match sub[v.0 as usize] {
            Some(b) => t = b,
            None => break,
        }
    }
    t
}

/// Whether variable `v` occurs in `t` under `sub`.
fn occurs_bound(v: VarId, t: &Term, sub: &[Option<&Term>]) -> bool {
    match walk(t, sub) {
        Term::Var(w) => *w == v,
        Term::App(_, args) => args.iter().any(|a| occurs_bound(v, a, sub)),
    }
}

/// `f` of an empty binding table for `vars` variables, on the stack when it is small, since
/// matching runs for every rewrite tried.
fn with_bindings<'t, R>(vars: u32, f: impl FnOnce(&mut [Option<&'t Term>]) -> R) -> R {
    const ON_STACK: usize = 12;
    let vars = vars as usize;
    if vars <= ON_STACK {
        f(&mut [None; ON_STACK][..vars])
    } else {
        f(&mut vec![None; vars])
    }
}

/// The non-variable positions of `t`.
fn positions(t: &Term, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if let Term::App(_, args) = t {
        out.push(at.clone());
        for (i, a) in args.iter().enumerate() {
            at.push(i);
            positions(a, at, out);
            at.pop();
        }
    }
}

/// Whether `pattern` may match `t` as far as their root symbols tell: a cheap test before
/// [`matches`], which allocates.
fn same_root(pattern: &Term, t: &Term) -> bool {
    match (pattern, t) {
        (Term::App(f, _), Term::App(g, _)) => f == g,
        (Term::App(..), Term::Var(_)) => false,
        (Term::Var(_), _) => true,
    }
}

fn flip(d: Direction) -> Direction {
    match d {
        Direction::LeftToRight => Direction::RightToLeft,
        Direction::RightToLeft => Direction::LeftToRight,
    }
}

/// A chain read backwards.
fn reversed(chain: &[Use]) -> Vec<Use> {
    chain
        .iter()
        .rev()
        .map(|u| Use {
            dir: flip(u.dir),
            ..u.clone()
        })
        .collect()
}

/// A 64-bit hash of `t`, standing for it in the set of irreducible terms.
fn term_hash(t: &Term) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    t.hash(&mut h);
    h.finish()
}

/// What [`Completion::pick`] took.
enum Picked {
    Equation(usize),
    Overlap(Overlap),
}

/// An active equation used in one direction.
struct Rule {
    eq: usize,
    dir: Direction,
}

/// The completion state.
struct Completion {
    eqs: Vec<Equation>,
    state: Vec<State>,
    /// The active equations, in activation order; change them only through `set_active`.
    active: Vec<usize>,
    /// The active equations in each direction they rewrite in, by the side they rewrite from.
    index: DiscriminationTree<Rule>,
    /// Terms in normal form under the current active equations, so that the many critical pairs
    /// and goal sides that share subterms do not rewrite-test them again.
    /// (By hash: a collision can only leave an equation less simplified, and every proof is
    /// replayed anyway.)
    irreducible: RefCell<FxHashSet<u64>>,
    /// Critical pairs formed and not yet picked (`None` once picked).
    pending: Vec<Option<Overlap>>,
    /// How many of `pending` wait.
    waiting_overlaps: usize,
    /// Waiting items by weight, then age.
    lightest: BinaryHeap<Reverse<(usize, Waiting)>>,
    oldest: VecDeque<Waiting>,
    picks: usize,
    /// Pairs of equations (outer, inner) whose critical pairs are still to be formed.
    pairs: VecDeque<(usize, usize)>,
    /// Whether each symbol of the theory occurs in the goal.
    goal_symbols: Vec<bool>,
    /// The theory's signature with the goal's constants.
    sig: Signature,
    /// The least ground term of each sort in the ordering (its first constant), if it has a
    /// constant.
    least: Vec<Option<Term>>,
    /// Set when an equation could not rewrite for want of a least term of some sort: a
    /// completion that ends then proves nothing about the goal.
    unusable: Cell<bool>,
}

impl Completion {
    fn sides(&self, id: usize, dir: Direction) -> (&Term, &Term) {
        let e = &self.eqs[id];
        match dir {
            Direction::LeftToRight => (&e.lhs, &e.rhs),
            Direction::RightToLeft => (&e.rhs, &e.lhs),
        }
    }

    /// The directions equation `id` may rewrite in.
    fn directions(&self, id: usize) -> &'static [Direction] {
        if self.eqs[id].oriented {
            &[Direction::LeftToRight]
        } else {
            &[Direction::LeftToRight, Direction::RightToLeft]
        }
    }

    fn wait(&mut self, id: usize) {
        self.state[id] = State::Waiting;
        let e = &self.eqs[id];
        self.enqueue(
            self.weight(&e.lhs, &e.rhs, e.oriented),
            Waiting::Equation(id),
        );
    }

    /// The weight that orders the waiting equations, lightest first, for `lhs = rhs` (`lhs > rhs`
    /// when `oriented`): E's conjecture-relative symbol weight. A symbol of the goal weighs 1, any
    /// other symbol or variable 10, and the sides that can be rewritten from (the left one, or
    /// both when unoriented) count one and a half times. It prefers equations about the goal's
    /// symbols: with it E proves left Moufang ⇒ RIF after 470 picks, with the plain symbol count
    /// after 5106.
    fn weight(&self, lhs: &Term, rhs: &Term, oriented: bool) -> usize {
        fn side(t: &Term, goal: &[bool]) -> usize {
            match t {
                Term::Var(_) => 10,
                Term::App(f, args) => {
                    (if goal.get(f.0 as usize).copied().unwrap_or(false) {
                        1
                    } else {
                        10
                    }) + args.iter().map(|a| side(a, goal)).sum::<usize>()
                }
            }
        }
        let (l, r) = (side(lhs, &self.goal_symbols), side(rhs, &self.goal_symbols));
        if oriented {
            3 * l + 2 * r
        } else {
            3 * (l + r)
        }
    }

    fn enqueue(&mut self, weight: usize, item: Waiting) {
        self.lightest.push(Reverse((weight, item)));
        self.oldest.push_back(item);
    }

    /// The next waiting item: the lightest, every [`OLDEST_EVERY`]th time the oldest. An overlap
    /// is taken out of `pending` as it is picked.
    fn pick(&mut self) -> Option<Picked> {
        self.picks += 1;
        loop {
            let item = if self.picks.is_multiple_of(OLDEST_EVERY) {
                self.oldest
                    .pop_front()
                    .or_else(|| self.lightest.pop().map(|Reverse((_, i))| i))
            } else {
                self.lightest
                    .pop()
                    .map(|Reverse((_, i))| i)
                    .or_else(|| self.oldest.pop_front())
            }?;
            match item {
                Waiting::Equation(id) if self.state[id] == State::Waiting => {
                    self.state[id] = State::Retired;
                    return Some(Picked::Equation(id));
                }
                Waiting::Overlap(i) => {
                    if let Some(o) = self.pending[i].take() {
                        self.waiting_overlaps -= 1;
                        return Some(Picked::Overlap(o));
                    }
                }
                Waiting::Equation(_) => {}
            }
        }
    }

    /// A rewrite step of `t` (of sort `sort`) at its root by an active equation, decreasing in
    /// the ordering: the step (its substitution filled in only when `record`) and the result.
    fn step_at_root(&self, t: &Term, sort: SortId, record: bool) -> Option<(Use, Term)> {
        self.index.find(t, |r| {
            if !self.sort_fits(r, sort) {
                return None;
            }
            self.rewrite_at_root(r.eq, r.dir, t, |sub, new| {
                let sub = if record {
                    sub.iter().map(|&b| b.clone()).collect()
                } else {
                    Vec::new()
                };
                (
                    Use {
                        eq: r.eq,
                        dir: r.dir,
                        pos: vec![],
                        sub,
                    },
                    new,
                )
            })
        })
    }

    /// `t`'s normal form, with the chain to it put on `chain` when there is one.
    /// `t` is of sort `sort`.
    fn normalize(
        &self,
        t: &Term,
        sort: SortId,
        chain: Option<&mut Vec<Use>>,
        stop: &dyn Fn() -> bool,
    ) -> Term {
        self.normalize_at(t.clone(), sort, &mut Vec::new(), chain, stop)
            .0
    }

    /// Whether rule `r` may rewrite a term of sort `sort` at its root as far as sorts tell: a
    /// side that is a bare variable matches only terms of that variable's sort.
    fn sort_fits(&self, r: &Rule, sort: SortId) -> bool {
        match self.sides(r.eq, r.dir).0 {
            Term::Var(x) => self.eqs[r.eq].var_sorts[x.0 as usize] == sort,
            Term::App(..) => true,
        }
    }

    /// The sort of argument `i` of `f`.
    fn arg_sort(&self, f: FuncId, i: usize) -> SortId {
        self.sig.funcs[f.0 as usize].args[i]
    }

    /// Whether an active equation has `l = r` (both in normal form) as an instance, in either
    /// direction. Only unoriented ones can: an oriented one would rewrite `l` or `r`.
    fn subsumed(&self, l: &Term, r: &Term, sort: SortId) -> bool {
        let instance = |rule: &Rule| {
            let (from, to) = self.sides(rule.eq, rule.dir);
            let e = &self.eqs[rule.eq];
            (!e.oriented
                && self.sort_fits(rule, sort)
                && same_root(to, r)
                && with_bindings(e.vars, |sub| matches(from, l, sub) && matches(to, r, sub)))
            .then_some(())
        };
        self.index.find(l, instance).is_some()
    }

    /// `t`, found at position `pos` of the term being normalized, rewritten innermost first: its
    /// arguments to normal form, then its root, then again the arguments of what the root step
    /// made. Steps go on `chain` with their whole position. Whether the result is a normal form
    /// (not when `stop` cut it short), which is then remembered in `irreducible`.
    fn normalize_at(
        &self,
        mut t: Term,
        sort: SortId,
        pos: &mut Vec<usize>,
        mut chain: Option<&mut Vec<Use>>,
        stop: &dyn Fn() -> bool,
    ) -> (Term, bool) {
        if self.irreducible.borrow().contains(&term_hash(&t)) {
            return (t, true);
        }
        loop {
            if let Term::App(f, args) = &mut t {
                let f = *f;
                for (i, a) in args.iter_mut().enumerate() {
                    pos.push(i);
                    let (normal, complete) = self.normalize_at(
                        std::mem::replace(a, Term::Var(VarId(0))),
                        self.arg_sort(f, i),
                        pos,
                        chain.as_deref_mut(),
                        stop,
                    );
                    pos.pop();
                    *a = normal;
                    if !complete {
                        return (t, false);
                    }
                }
            }
            let Some((mut u, new)) = self.step_at_root(&t, sort, chain.is_some()) else {
                break;
            };
            if let Some(chain) = chain.as_deref_mut() {
                u.pos = pos.clone();
                chain.push(u);
            }
            t = new;
            if stop() {
                return (t, false);
            }
        }
        let mut irreducible = self.irreducible.borrow_mut();
        // A bound on memory: the set only saves time.
        if irreducible.len() >= IRREDUCIBLE_CACHE {
            irreducible.clear();
        }
        irreducible.insert(term_hash(&t));
        (t, true)
    }

    /// Sets the active equations, re-indexing them by the sides they rewrite from and forgetting
    /// which terms were irreducible.
    fn set_active(&mut self, active: Vec<usize>) {
        self.active = active;
        let mut index = DiscriminationTree::default();
        for &id in &self.active {
            for &dir in self.directions(id) {
                index.insert(self.sides(id, dir).0, Rule { eq: id, dir });
            }
        }
        self.index = index;
        self.irreducible.get_mut().clear();
    }

    /// Adds the equation `lhs = rhs` between terms of sort `sort`, proved by `chain`, its
    /// variables renamed to `0..vars` (in order of occurrence) and its sides swapped if the right
    /// one is greater.
    fn add(&mut self, lhs: Term, rhs: Term, sort: SortId, chain: Vec<Use>) -> usize {
        let mut names: HashMap<VarId, u32> = HashMap::new();
        fn collect(t: &Term, names: &mut HashMap<VarId, u32>) {
            match t {
                Term::Var(v) => {
                    let n = names.len() as u32;
                    names.entry(*v).or_insert(n);
                }
                Term::App(_, args) => args.iter().for_each(|a| collect(a, names)),
            }
        }
        collect(&lhs, &mut names);
        collect(&rhs, &mut names);
        let vars = names.len() as u32;
        // Chain-only variables keep distinct numbers above the equation's own.
        let rename = |t: &Term| {
            instantiate(t, &[] as &[Term], &|v: VarId| {
                Term::Var(VarId(names.get(&v).copied().unwrap_or(vars + v.0)))
            })
        };
        let chain: Vec<Use> = chain
            .into_iter()
            .map(|u| Use {
                sub: u.sub.iter().map(rename).collect(),
                ..u
            })
            .collect();
        let (mut lhs, mut rhs, mut chain) = (rename(&lhs), rename(&rhs), chain);
        if greater(&rhs, &lhs) {
            std::mem::swap(&mut lhs, &mut rhs);
            chain = reversed(&chain);
        }
        let oriented = greater(&lhs, &rhs);
        let mut var_sorts = Vec::new();
        self.sorts_of_vars(&lhs, sort, &mut var_sorts);
        self.sorts_of_vars(&rhs, sort, &mut var_sorts);
        for u in &chain {
            for (k, t) in u.sub.iter().enumerate() {
                self.sorts_of_vars(t, self.eqs[u.eq].var_sorts[k], &mut var_sorts);
            }
        }
        self.eqs.push(Equation {
            lhs,
            rhs,
            vars,
            sort,
            var_sorts,
            oriented,
            origin: Origin::Derived(chain),
        });
        self.state.push(State::Retired);
        self.eqs.len() - 1
    }

    /// Records in `sorts` the sort of each variable of `t`, a term of sort `sort` (variables
    /// that do not occur keep sort 0: nothing instantiates them).
    fn sorts_of_vars(&self, t: &Term, sort: SortId, sorts: &mut Vec<SortId>) {
        match t {
            Term::Var(v) => {
                let i = v.0 as usize;
                if sorts.len() <= i {
                    sorts.resize(i + 1, SortId(0));
                }
                sorts[i] = sort;
            }
            Term::App(f, args) => args
                .iter()
                .enumerate()
                .for_each(|(i, a)| self.sorts_of_vars(a, self.arg_sort(*f, i), sorts)),
        }
    }

    /// `lhs = rhs` (proved by `chain`) with both sides rewritten to normal form and the chain
    /// extended to match; `None` when the sides meet or an active equation has it as an instance.
    fn join(
        &self,
        lhs: &Term,
        rhs: &Term,
        sort: SortId,
        chain: Vec<Use>,
        stop: &dyn Fn() -> bool,
    ) -> Option<(Term, Term, Vec<Use>)> {
        let (mut left, mut right) = (Vec::new(), Vec::new());
        let l = self.normalize(lhs, sort, Some(&mut left), stop);
        let r = self.normalize(rhs, sort, Some(&mut right), stop);
        if l == r || self.subsumed(&l, &r, sort) {
            return None;
        }
        let mut whole = reversed(&left);
        whole.extend(chain);
        whole.extend(right);
        Some((l, r, whole))
    }

    /// Equation `id` simplified by the active ones: itself when nothing changes, else a new
    /// equation, or `None` (see [`Completion::join`]).
    fn simplify(&mut self, id: usize, stop: &dyn Fn() -> bool) -> Option<usize> {
        let e = &self.eqs[id];
        let identity = Use {
            eq: id,
            dir: Direction::LeftToRight,
            pos: vec![],
            sub: (0..e.vars).map(|v| Term::Var(VarId(v))).collect(),
        };
        let sort = e.sort;
        let (l, r, chain) = self.join(&e.lhs, &e.rhs, sort, vec![identity], stop)?;
        if chain.len() == 1 {
            return Some(id);
        }
        Some(self.add(l, r, sort, chain))
    }

    /// The critical pairs of `outer` with `inner` rewriting inside it, in normal form (as far as
    /// `stop` lets), wait as overlaps unless they are trivial or an instance of an active equation.
    fn overlaps(&mut self, outer: usize, inner: usize, stop: &dyn Fn() -> bool) {
        for &outer_dir in self.directions(outer) {
            for &inner_dir in self.directions(inner) {
                let shifted = self.shifted(outer, inner, inner_dir);
                let mut places = Vec::new();
                positions(self.sides(outer, outer_dir).0, &mut Vec::new(), &mut places);
                for pos in places {
                    if pos.is_empty() && outer == inner && outer_dir == inner_dir {
                        continue;
                    }
                    let o = Overlap {
                        outer,
                        outer_dir,
                        inner,
                        inner_dir,
                        pos,
                    };
                    let Some((lhs, rhs, _)) = self.overlap(&o, &shifted, false) else {
                        continue;
                    };
                    // Critical pairs wait in normal form, so that their weight is what will be used.
                    let sort = self.eqs[outer].sort;
                    let (l, r) = (
                        self.normalize(&lhs, sort, None, stop),
                        self.normalize(&rhs, sort, None, stop),
                    );
                    if l == r || self.subsumed(&l, &r, sort) {
                        continue;
                    }
                    self.pending.push(Some(o));
                    self.waiting_overlaps += 1;
                    let weight = if greater(&r, &l) {
                        self.weight(&r, &l, true)
                    } else {
                        self.weight(&l, &r, greater(&l, &r))
                    };
                    self.enqueue(weight, Waiting::Overlap(self.pending.len() - 1));
                }
            }
        }
    }

    /// The sides of `inner` in direction `dir` with its variables renumbered above `outer`'s.
    fn shifted(&self, outer: usize, inner: usize, dir: Direction) -> (Term, Term) {
        let v1 = self.eqs[outer].vars;
        let shift =
            |t: &Term| instantiate(t, &[] as &[Term], &|v: VarId| Term::Var(VarId(v.0 + v1)));
        let (from, to) = self.sides(inner, dir);
        (shift(from), shift(to))
    }

    /// The critical pair `o` (`shifted` is its inner equation as [`Completion::shifted`] gives
    /// it): its sides and, when `record`, the chain between them; `None` when the sides do not
    /// unify there, or the overlap is redundant or trivial.
    fn overlap(
        &self,
        o: &Overlap,
        shifted: &(Term, Term),
        record: bool,
    ) -> Option<(Term, Term, Vec<Use>)> {
        let (v1, v2) = (self.eqs[o.outer].vars, self.eqs[o.inner].vars);
        let (from1, to1) = self.sides(o.outer, o.outer_dir);
        let (from2, to2) = shifted;
        let mut sub = vec![None; (v1 + v2) as usize];
        let inside = certificate::subterm(from1, &o.pos).expect("a position of the term");
        // A bare variable unifies with any term, but stands only for terms of its sort (other
        // bindings keep sorts, both terms being well sorted and of one sort).
        if let (Term::App(f, _), Term::Var(x)) = (inside, self.sides(o.inner, o.inner_dir).0) {
            if self.sig.funcs[f.0 as usize].result != self.eqs[o.inner].var_sorts[x.0 as usize] {
                return None;
            }
        }
        if !unify(inside, from2, &mut sub) {
            return None;
        }
        let apply = |t: &Term| resolve(t, &sub);
        let (big, small1, small2, big2) = (apply(from1), apply(to1), apply(to2), apply(from2));
        // Overlaps whose instance some rewrite would only make larger are redundant.
        if greater(&small1, &big) || greater(&small2, &big2) {
            return None;
        }
        let lhs = certificate::replace(&big, &o.pos, small2).expect("a position of the term");
        if lhs == small1 {
            return None;
        }
        let chain = if record {
            let values =
                |range: std::ops::Range<u32>| range.map(|v| apply(&Term::Var(VarId(v)))).collect();
            vec![
                Use {
                    eq: o.inner,
                    dir: flip(o.inner_dir),
                    pos: o.pos.clone(),
                    sub: values(v1..v1 + v2),
                },
                Use {
                    eq: o.outer,
                    dir: o.outer_dir,
                    pos: vec![],
                    sub: values(0..v1),
                },
            ]
        } else {
            Vec::new()
        };
        Some((lhs, small1, chain))
    }

    /// The picked overlap `o` as a new equation in normal form with its derivation; `None` when
    /// it is now trivial or an instance of an active equation.
    fn form(&mut self, o: &Overlap, stop: &dyn Fn() -> bool) -> Option<usize> {
        let shifted = self.shifted(o.outer, o.inner, o.inner_dir);
        let (lhs, rhs, chain) = self.overlap(o, &shifted, true)?;
        let sort = self.eqs[o.outer].sort;
        let (l, r, chain) = self.join(&lhs, &rhs, sort, chain, stop)?;
        Some(self.add(l, r, sort, chain))
    }

    /// Makes `id` active: active equations it simplifies wait again, and its pairs with the
    /// active equations (itself included) are queued for [`Completion::generate`].
    fn activate(&mut self, id: usize) {
        self.state[id] = State::Active;
        let simplified: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|&a| {
                let e = &self.eqs[a];
                self.step_by(id, &e.lhs, e.sort) || self.step_by(id, &e.rhs, e.sort)
            })
            .collect();
        let mut active: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|a| !simplified.contains(a))
            .collect();
        active.push(id);
        self.set_active(active);
        for a in simplified {
            self.wait(a);
        }
        for &a in &self.active {
            self.pairs.push_back((id, a));
            if a != id {
                self.pairs.push_back((a, id));
            }
        }
    }

    /// Forms the critical pairs of the pairs of equations queued by [`Completion::activate`];
    /// false when `stop` came first (the rest stay queued).
    fn generate(&mut self, stop: &dyn Fn() -> bool) -> bool {
        while let Some(&(outer, inner)) = self.pairs.front() {
            if stop() {
                return false;
            }
            self.overlaps(outer, inner, stop);
            self.pairs.pop_front();
        }
        true
    }

    /// Whether equation `id` rewrites some subterm of `t`.
    fn step_by(&self, id: usize, t: &Term, sort: SortId) -> bool {
        let rewrites = self.directions(id).iter().any(|&dir| {
            self.sort_fits(&Rule { eq: id, dir }, sort)
                && self.rewrite_at_root(id, dir, t, |_, _| ()).is_some()
        });
        rewrites
            || matches!(t, Term::App(f, args) if args.iter().enumerate().any(|(i, a)| self.step_by(id, a, self.arg_sort(*f, i))))
    }

    /// Equation `id` used in direction `dir` at the root of `t`, when it matches there and the
    /// step decreases in the ordering (always, for an oriented equation): `then` of the values of
    /// its variables and the result.
    fn rewrite_at_root<R>(
        &self,
        id: usize,
        dir: Direction,
        t: &Term,
        then: impl FnOnce(&[&Term], Term) -> R,
    ) -> Option<R> {
        let (from, to) = self.sides(id, dir);
        if !same_root(from, t) {
            return None;
        }
        with_bindings(self.eqs[id].vars, |sub| {
            if !matches(from, t, sub) {
                return None;
            }
            // A variable only on the side rewritten to stands for the least term of its sort, as
            // in Twee: ground confluence needs no other instance.
            let e = &self.eqs[id];
            let sub = sub.iter().enumerate().map(|(v, b)| {
                b.or_else(|| {
                    let least = self.least[e.var_sorts[v].0 as usize].as_ref();
                    if least.is_none() {
                        self.unusable.set(true);
                    }
                    least
                })
            });
            let sub = sub.collect::<Option<Vec<&Term>>>()?;
            let new = instantiate(to, &sub, &Term::Var);
            (self.eqs[id].oriented || greater(t, &new)).then(|| then(&sub, new))
        })
    }
}

/// Tries to prove the equational `goal` from the theory's equations by completion. `Err` says
/// why not and whether a limit stopped it. The certificate is not yet checked.
pub fn prove(theory: &Theory, goal: &Axiom, limits: &Limits) -> Result<Certificate, Undecided> {
    Search::new(theory, goal)?.run(theory, goal, limits)
}

/// A completion that can be run again with more time, going on where it stopped.
pub struct Search {
    c: Completion,
    /// The goal's variables as constants, its sides, and the signature with those constants.
    constants: Vec<certificate::GoalConstant>,
    lhs: Term,
    rhs: Term,
    /// The sort of the goal's sides.
    sort: SortId,
    /// The value of variables of each sort that a derivation leaves free (`None` for a sort
    /// without ground terms).
    fillers: Vec<Option<Term>>,
    /// Each goal side rewritten so far, and the chain from the side to it.
    left: (Term, Vec<Use>),
    right: (Term, Vec<Use>),
}

impl Search {
    /// The completion of `theory`'s equations for `goal`, before its first step; `Err` when the
    /// method does not apply.
    pub fn new(theory: &Theory, goal: &Axiom) -> Result<Search, Undecided> {
        let (constants, lhs, rhs) = certificate::goal_sides(&theory.sig, goal)?;
        let sig = certificate::extended_signature(&theory.sig, &constants).map_err(|e| e.0)?;
        let sort = certificate::sort_of(&sig, &lhs).map_err(|e| e.0)?;
        let fillers = fillers(&sig);
        let mut c = Completion {
            eqs: Vec::new(),
            state: Vec::new(),
            active: Vec::new(),
            index: DiscriminationTree::default(),
            irreducible: RefCell::new(FxHashSet::default()),
            pending: Vec::new(),
            waiting_overlaps: 0,
            lightest: BinaryHeap::new(),
            oldest: VecDeque::new(),
            picks: 0,
            pairs: VecDeque::new(),
            goal_symbols: goal_symbols(theory.sig.funcs.len(), [&lhs, &rhs]),
            least: least_terms(&sig),
            sig,
            unusable: Cell::new(false),
        };
        for (axiom, ax) in theory.axioms.iter().enumerate() {
            for (part, (l, r)) in certificate::equations(ax).into_iter().enumerate() {
                let mut sub = vec![None; ax.vars.len()];
                let (mut names, mut var_sorts) = (Vec::new(), Vec::new());
                let mut rename_next = |v: VarId| {
                    if sub[v.0 as usize].is_none() {
                        sub[v.0 as usize] = Some(Term::Var(VarId(names.len() as u32)));
                        names.push(ax.vars[v.0 as usize].name.clone());
                        var_sorts.push(ax.vars[v.0 as usize].sort);
                    }
                };
                l.for_each_var(&mut rename_next);
                r.for_each_var(&mut rename_next);
                let side_sort = match l {
                    Term::Var(v) => ax.vars[v.0 as usize].sort,
                    Term::App(f, _) => theory.sig.funcs[f.0 as usize].result,
                };
                let rename = |t: &Term| {
                    certificate::substitute(t, &|v: VarId| sub[v.0 as usize].clone())
                        .expect("every variable renamed")
                };
                let (l, r) = (rename(l), rename(r));
                let oriented = greater(&l, &r);
                c.eqs.push(Equation {
                    lhs: l,
                    rhs: r,
                    vars: names.len() as u32,
                    sort: side_sort,
                    var_sorts,
                    oriented,
                    origin: Origin::Axiom { axiom, part, names },
                });
                c.state.push(State::Retired);
                c.wait(c.eqs.len() - 1);
            }
        }
        if c.eqs.is_empty() && lhs != rhs {
            return Err(Undecided::for_good(
                "not applicable: the theory has no equations",
            ));
        }
        let (left, right) = ((lhs.clone(), Vec::new()), (rhs.clone(), Vec::new()));
        Ok(Search {
            c,
            constants,
            lhs,
            rhs,
            sort,
            fillers,
            left,
            right,
        })
    }

    /// Goes on until the goal's sides meet or `limits` stop it. `theory` and `goal` must be those
    /// the search was made for.
    pub fn run(
        &mut self,
        theory: &Theory,
        goal: &Axiom,
        limits: &Limits,
    ) -> Result<Certificate, Undecided> {
        let stop = || {
            Instant::now() >= limits.deadline
                || limits
                    .cancel
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed))
        };
        let c = &mut self.c;
        let (left, right) = (&mut self.left, &mut self.right);
        loop {
            if left.0 == right.0 {
                let mut chain = left.1.clone();
                chain.extend(reversed(&right.1));
                let mut x = Expander {
                    theory,
                    sig: &c.sig,
                    eqs: &c.eqs,
                    fillers: &self.fillers,
                    lemma_of: HashMap::new(),
                    lemmas: Vec::new(),
                    steps: 0,
                    limits,
                };
                let (steps, _) = x
                    .chain(
                        &self.lhs,
                        &chain,
                        &[],
                        &[],
                        &certificate::declaring(&c.sig, &[]),
                    )
                    .map_err(|why| {
                        if stop() {
                            Undecided::out_of_time(why)
                        } else {
                            Undecided::out_of_room(why)
                        }
                    })?;
                let goal_text = FormulaPrinter::new(&theory.sig, goal).formula(&goal.formula);
                return Ok(Certificate {
                    cited: Vec::new(),
                    theory: theory.name.clone(),
                    goal: goal_text,
                    constants: self.constants.clone(),
                    lhs: self.lhs.clone(),
                    rhs: self.rhs.clone(),
                    lemmas: x.lemmas,
                    steps,
                });
            }
            if stop() || !c.generate(&stop) {
                let cancelled = limits
                    .cancel
                    .as_ref()
                    .is_some_and(|f| f.load(Ordering::Relaxed));
                // Ctrl-C, or in the prover's portfolio the other lane's answer.
                let why = if cancelled {
                    "was stopped before its time limit"
                } else {
                    "stopped at its time limit"
                };
                return Err(Undecided::out_of_time(format!(
                    "completion {why} with {} active equation(s) of {}",
                    c.active.len(),
                    c.eqs.len()
                )));
            }
            if c.eqs.len() > limits.equations {
                return Err(Undecided::out_of_room(format!(
                    "completion reached its limit of {} equations",
                    limits.equations
                )));
            }
            if c.waiting_overlaps > WAITING_OVERLAPS {
                return Err(Undecided::out_of_room(format!(
                    "completion reached its limit of {WAITING_OVERLAPS} waiting critical pairs"
                )));
            }
            let formed = match c.pick() {
                None if c.unusable.get() => return Err(Undecided::for_good(format!("completion finished ({} equations) without joining the sides, but some could not rewrite (a sort without constants), so the goal may still follow", c.active.len()))),
                None => return Err(Undecided::for_good(format!("completion finished ({} equations) without joining the sides: the goal does not follow from the equational axioms", c.active.len()))),
                Some(Picked::Equation(id)) => c.simplify(id, &stop),
                Some(Picked::Overlap(o)) => c.form(&o, &stop),
            };
            let Some(id) = formed else { continue };
            c.activate(id);
            left.0 = c.normalize(&left.0, self.sort, Some(&mut left.1), &stop);
            right.0 = c.normalize(&right.0, self.sort, Some(&mut right.1), &stop);
        }
    }
}

/// The least ground term of each sort of `sig` in [`greater`]'s ordering: its first constant.
fn least_terms(sig: &Signature) -> Vec<Option<Term>> {
    let mut least: Vec<Option<Term>> = vec![None; sig.sorts.len()];
    for (i, f) in sig.funcs.iter().enumerate().rev() {
        if f.args.is_empty() {
            least[f.result.0 as usize] = Some(Term::App(FuncId(i as u32), vec![]));
        }
    }
    least
}

/// A ground term of each sort of `sig`, `None` for a sort that has none: the last constant of
/// the sort (a goal constant if there is one), else the first function applied to terms of its
/// argument sorts.
fn fillers(sig: &Signature) -> Vec<Option<Term>> {
    let mut fillers: Vec<Option<Term>> = vec![None; sig.sorts.len()];
    for (i, f) in sig.funcs.iter().enumerate() {
        if f.args.is_empty() {
            fillers[f.result.0 as usize] = Some(Term::App(FuncId(i as u32), vec![]));
        }
    }
    loop {
        let found = sig.funcs.iter().enumerate().find_map(|(i, f)| {
            let args: Option<Vec<Term>> = f
                .args
                .iter()
                .map(|s| fillers[s.0 as usize].clone())
                .collect();
            fillers[f.result.0 as usize].is_none().then_some(())?;
            Some((f.result, Term::App(FuncId(i as u32), args?)))
        });
        match found {
            Some((sort, t)) => fillers[sort.0 as usize] = Some(t),
            None => return fillers,
        }
    }
}

/// Whether each of the `symbols` first function symbols occurs in one of the goal's sides.
fn goal_symbols(symbols: usize, sides: [&Term; 2]) -> Vec<bool> {
    fn mark(t: &Term, occurs: &mut [bool]) {
        if let Term::App(f, args) = t {
            if let Some(o) = occurs.get_mut(f.0 as usize) {
                *o = true;
            }
            args.iter().for_each(|a| mark(a, occurs));
        }
    }
    let mut occurs = vec![false; symbols];
    sides.into_iter().for_each(|t| mark(t, &mut occurs));
    occurs
}

/// Expands derivations into certificate steps and lemmas: each derived equation a proof uses
/// becomes one open lemma, proved once by its derivation and used at every instance.
struct Expander<'a> {
    theory: &'a Theory,
    sig: &'a Signature,
    eqs: &'a [Equation],
    fillers: &'a [Option<Term>],
    /// The lemma proving each derived equation used so far, by the equation's index.
    lemma_of: HashMap<usize, usize>,
    lemmas: Vec<Lemma>,
    steps: usize,
    limits: &'a Limits,
}

impl Expander<'_> {
    /// A value for variable `v` of a derivation whose variables have sorts `sorts`: the filler of
    /// its sort. (Left a variable when the sort has no ground term: the replay then rejects the
    /// proof.)
    fn filler(&self, v: VarId, sorts: &[SortId]) -> Term {
        sorts
            .get(v.0 as usize)
            .and_then(|s| self.fillers.get(s.0 as usize).cloned().flatten())
            .unwrap_or(Term::Var(v))
    }

    /// The certificate steps of `chain` from `start` with the chain's variables `vals` (the rest
    /// get the filler of their sort in `sorts`), and the term they end at; `names` declares the
    /// variables the terms keep (an open lemma's), for the steps' text.
    fn chain(
        &mut self,
        start: &Term,
        chain: &[Use],
        vals: &[Term],
        sorts: &[SortId],
        names: &Axiom,
    ) -> Result<(Vec<Step>, Term), String> {
        let printer = FormulaPrinter::new(self.sig, names);
        let mut current = start.clone();
        let mut out = Vec::with_capacity(chain.len());
        for u in chain {
            self.steps += 1;
            if self.steps > self.limits.proof_steps {
                return Err(format!(
                    "completion joined the sides, but its proof has more than {} steps",
                    self.limits.proof_steps
                ));
            }
            if Instant::now() >= self.limits.deadline {
                return Err(
                    "completion joined the sides, but time ran out while writing its proof".into(),
                );
            }
            let sub: Vec<Term> = u
                .sub
                .iter()
                .map(|t| instantiate(t, vals, &|v| self.filler(v, sorts)))
                .collect();
            let e = &self.eqs[u.eq];
            let value = |v: VarId| self.filler(v, &e.var_sorts);
            let (l, r) = (
                instantiate(&e.lhs, &sub, &value),
                instantiate(&e.rhs, &sub, &value),
            );
            let by = match &e.origin {
                Origin::Axiom { axiom, part, names } => Justification::Axiom {
                    axiom: self.theory.axioms[*axiom].name.clone(),
                    part: *part,
                    substitution: names
                        .iter()
                        .zip(&sub)
                        .map(|(var, term)| Binding {
                            var: var.clone(),
                            term: term.clone(),
                        })
                        .collect(),
                },
                Origin::Derived(_) => Justification::Lemma {
                    substitution: (0..e.vars)
                        .map(|i| instantiate(&Term::Var(VarId(i)), &sub, &value))
                        .collect(),
                    lemma: self.lemma(u.eq)?,
                },
            };
            let to = if u.dir == Direction::LeftToRight {
                r
            } else {
                l
            };
            current = certificate::replace(&current, &u.pos, to)
                .ok_or("internal: a derivation's position does not exist")?;
            out.push(Step {
                by,
                direction: u.dir,
                position: u.pos.clone(),
                result: current.clone(),
                text: printer.term(&current),
            });
        }
        Ok((out, current))
    }

    /// The index of the open lemma stating derived equation `eq` for all values of its
    /// variables, proved by its derivation the first time.
    fn lemma(&mut self, eq: usize) -> Result<usize, String> {
        if let Some(&i) = self.lemma_of.get(&eq) {
            return Ok(i);
        }
        let e = &self.eqs[eq];
        let Origin::Derived(proof) = &e.origin else {
            return Err("internal: an axiom's equation taken for a derived one".into());
        };
        let own = &e.var_sorts[..e.vars as usize];
        let variables = certificate::lemma_variables(self.sig, own);
        let names = certificate::declaring(self.sig, &variables);
        let identity: Vec<Term> = (0..e.vars).map(|i| Term::Var(VarId(i))).collect();
        let (steps, end) = self.chain(&e.lhs, proof, &identity, &e.var_sorts, &names)?;
        if end != e.rhs {
            return Err("internal: a derivation does not end at its equation's right side".into());
        }
        let printer = FormulaPrinter::new(self.sig, &names);
        self.lemmas.push(Lemma {
            variables,
            lhs: e.lhs.clone(),
            rhs: e.rhs.clone(),
            text: format!("{} = {}", printer.term(&e.lhs), printer.term(&e.rhs)),
            steps,
        });
        self.lemma_of.insert(eq, self.lemmas.len() - 1);
        Ok(self.lemmas.len() - 1)
    }
}
