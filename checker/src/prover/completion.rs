//! Equational goals by unfailing (ordered) Knuth–Bendix completion, as in Waldmeister and Twee,
//! turned into a [`Certificate`].
//!
//! The goal's variables become fresh constants; the axioms' equations are completed under a
//! Knuth–Bendix ordering that is total on ground terms ([`greater`]): equations it orients are
//! rules, the others are used in whichever direction makes an instance smaller (ordered
//! rewriting). A given-clause loop picks the lightest waiting equation (every fourth pick the
//! oldest, so that every equation is picked in the end), simplifies it by the active ones, drops
//! it when trivial or an instance of an active one, moves the active equations it simplifies back
//! to the queue, and adds its critical pairs with every active equation (ordered ones included).
//! After each new equation the goal's sides are rewritten further; they meet in one term exactly
//! when the goal follows, given time, because the ordering is total on ground terms.
//!
//! Rewriting looks up the active equations by the root symbol of the term and rejects most of
//! them by a fingerprint of its first positions before matching; terms are normalized innermost
//! first, and those found irreducible are remembered until the active set changes, since the
//! critical pairs of one activation share most of their subterms.
//!
//! Every equation keeps its derivation: a chain of rewrite steps by earlier equations from its
//! left side to its right side. [`Expander`] turns the goal's chain into certificate steps: each
//! use of a derived equation at a ground instance becomes a [`Lemma`] proved by the instantiated
//! derivation, recursively down to the axioms, memoized by the ground equation. Variables of a
//! derivation that are not in its conclusion (an overlap's inner variables) may take any value of
//! their sort; they get a fixed constant. The caller replays the result with
//! [`certificate::check`], which shares no code with this file. One-sorted theories only.

use super::certificate::{self, Binding, Certificate, Direction, Justification, Lemma, Step};
use super::rewrite::matches;
use super::saturation::print;
use super::Undecided;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, Signature};
use birkhoff_engine::syntax::{Axiom, Term, VarId};
use birkhoff_engine::Theory;
use std::cmp::{Ordering as Cmp, Reverse};
use std::cell::RefCell;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Most terms remembered as irreducible at once.
const IRREDUCIBLE_CACHE: usize = 1 << 20;

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
    Axiom { axiom: usize, part: usize, names: Vec<String> },
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
    /// Whether `lhs > rhs` in the ordering, so that it rewrites only left to right.
    oriented: bool,
    origin: Origin,
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
            Cmp::Equal => ss.iter().zip(ts).find(|(a, b)| a != b).is_some_and(|(a, b)| greater(a, b)),
        },
    }
}

/// `t` with variable `v` replaced by `sub[v]` (variables beyond `sub` by `rest(v)`).
fn instantiate(t: &Term, sub: &[Term], rest: &impl Fn(VarId) -> Term) -> Term {
    match t {
        Term::Var(v) => sub.get(v.0 as usize).cloned().unwrap_or_else(|| rest(*v)),
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| instantiate(a, sub, rest)).collect()),
    }
}

/// `t` under the triangular substitution `sub`, resolved fully.
fn resolve(t: &Term, sub: &[Option<Term>]) -> Term {
    match t {
        Term::Var(v) => match &sub[v.0 as usize] {
            Some(b) => resolve(b, sub),
            None => t.clone(),
        },
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| resolve(a, sub)).collect()),
    }
}

/// Extends `sub` to a most general unifier of `a` and `b`, if there is one.
fn unify(a: &Term, b: &Term, sub: &mut Vec<Option<Term>>) -> bool {
    let (a, b) = (walk(a, sub), walk(b, sub));
    match (&a, &b) {
        (Term::Var(x), Term::Var(y)) if x == y => true,
        (Term::Var(x), t) | (t, Term::Var(x)) => {
            if occurs(*x, &resolve(t, sub)) {
                return false;
            }
            sub[x.0 as usize] = Some(t.clone());
            true
        }
        (Term::App(f, xs), Term::App(g, ys)) => f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| unify(x, y, sub)),
    }
}

/// `t` with bound variables at its root followed.
fn walk(t: &Term, sub: &[Option<Term>]) -> Term {
    let mut t = t.clone();
    while let Term::Var(v) = t {
        match &sub[v.0 as usize] {
            Some(b) => t = b.clone(),
            None => break,
        }
    }
    t
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
    chain.iter().rev().map(|u| Use { dir: flip(u.dir), ..u.clone() }).collect()
}

/// The symbols at a term's first positions (the root, its first two arguments and theirs): a
/// pattern can match a term only where every symbol it has there is the term's (fingerprint
/// indexing, as in E), a test that needs no allocation, unlike [`matches`].
#[derive(Clone, Copy)]
struct Fingerprint([u32; 7]);

impl Fingerprint {
    /// In a pattern: any term may stand here (a variable, or below one).
    const ANY: u32 = 0;
    /// In a term: no symbol here (a variable, or below one).
    const NONE: u32 = u32::MAX;

    fn build(t: &Term, empty: u32) -> Fingerprint {
        let code = |t: Option<&Term>| match t {
            Some(Term::App(f, _)) => f.0 + 1,
            _ => empty,
        };
        fn arg(t: Option<&Term>, i: usize) -> Option<&Term> {
            match t {
                Some(Term::App(_, args)) => args.get(i),
                _ => None,
            }
        }
        let (a, b) = (arg(Some(t), 0), arg(Some(t), 1));
        Fingerprint([code(Some(t)), code(a), code(b), code(arg(a, 0)), code(arg(a, 1)), code(arg(b, 0)), code(arg(b, 1))])
    }

    fn of_pattern(t: &Term) -> Fingerprint {
        Self::build(t, Self::ANY)
    }

    fn of_term(t: &Term) -> Fingerprint {
        Self::build(t, Self::NONE)
    }

    /// Whether a pattern with this fingerprint may match a term with `term`'s.
    fn admits(&self, term: &Fingerprint) -> bool {
        self.0.iter().zip(&term.0).all(|(&p, &t)| p == Self::ANY || p == t)
    }
}

/// A 64-bit hash of `t`, standing for it in the set of irreducible terms.
fn term_hash(t: &Term) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// An active equation used in one direction, with its left side's fingerprint.
struct Rule {
    eq: usize,
    dir: Direction,
    print: Fingerprint,
}

/// The completion state.
struct Completion {
    eqs: Vec<Equation>,
    state: Vec<State>,
    /// The active equations, in activation order; change them only through `set_active`.
    active: Vec<usize>,
    /// The active equations and directions that rewrite from a side with this root symbol.
    by_root: HashMap<FuncId, Vec<Rule>>,
    /// Those that rewrite from a bare variable (an unoriented `x = t`).
    var_rooted: Vec<Rule>,
    /// Terms in normal form under the current active equations, so that the many critical pairs
    /// and goal sides that share subterms do not rewrite-test them again.
    /// (By hash: a collision can only leave an equation less simplified, and every proof is
    /// replayed anyway.)
    irreducible: RefCell<HashSet<u64>>,
    lightest: BinaryHeap<Reverse<(usize, usize)>>,
    oldest: VecDeque<usize>,
    picks: usize,
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
        if self.eqs[id].oriented { &[Direction::LeftToRight] } else { &[Direction::LeftToRight, Direction::RightToLeft] }
    }

    fn wait(&mut self, id: usize) {
        self.state[id] = State::Waiting;
        let e = &self.eqs[id];
        self.lightest.push(Reverse((e.lhs.size() + e.rhs.size(), id)));
        self.oldest.push_back(id);
    }

    /// The next waiting equation: the lightest, every fourth time the oldest.
    fn pick(&mut self) -> Option<usize> {
        self.picks += 1;
        loop {
            let id = if self.picks % 4 == 0 { self.oldest.pop_front().or_else(|| self.lightest.pop().map(|Reverse((_, id))| id)) } else { self.lightest.pop().map(|Reverse((_, id))| id).or_else(|| self.oldest.pop_front()) }?;
            if self.state[id] == State::Waiting {
                self.state[id] = State::Retired;
                return Some(id);
            }
        }
    }

    /// A rewrite step of `t` at its root by an active equation, decreasing in the ordering.
    fn step_at_root(&self, t: &Term) -> Option<(Use, Term)> {
        let candidates = match t {
            Term::App(f, _) => self.by_root.get(f).map(Vec::as_slice).unwrap_or(&[]),
            Term::Var(_) => &[],
        };
        let print = Fingerprint::of_term(t);
        candidates.iter().chain(&self.var_rooted).filter(|r| r.print.admits(&print)).find_map(|r| {
            self.rewrite_at_root(r.eq, r.dir, t).map(|(sub, new)| (Use { eq: r.eq, dir: r.dir, pos: vec![], sub }, new))
        })
    }

    /// `t`'s normal form and the chain to it.
    fn normalize(&self, t: &Term, chain: &mut Vec<Use>, stop: &dyn Fn() -> bool) -> Term {
        self.normalize_at(t.clone(), &mut Vec::new(), chain, stop).0
    }

    /// `t`, found at position `pos` of the term being normalized, rewritten innermost first: its
    /// arguments to normal form, then its root, then again the arguments of what the root step
    /// made. Steps go on `chain` with their whole position. Whether the result is a normal form
    /// (not when `stop` cut it short), which is then remembered in `irreducible`.
    fn normalize_at(&self, mut t: Term, pos: &mut Vec<usize>, chain: &mut Vec<Use>, stop: &dyn Fn() -> bool) -> (Term, bool) {
        if self.irreducible.borrow().contains(&term_hash(&t)) {
            return (t, true);
        }
        loop {
            if let Term::App(_, args) = &mut t {
                for (i, a) in args.iter_mut().enumerate() {
                    pos.push(i);
                    let (normal, complete) = self.normalize_at(std::mem::replace(a, Term::Var(VarId(0))), pos, chain, stop);
                    pos.pop();
                    *a = normal;
                    if !complete {
                        return (t, false);
                    }
                }
            }
            let Some((mut u, new)) = self.step_at_root(&t) else { break };
            u.pos = pos.clone();
            chain.push(u);
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

    /// Sets the active equations, re-indexing them by the root symbols of the sides they rewrite
    /// from and forgetting which terms were irreducible.
    fn set_active(&mut self, active: Vec<usize>) {
        self.active = active;
        self.by_root.clear();
        self.var_rooted.clear();
        for &id in &self.active {
            for &dir in self.directions(id) {
                let from = self.sides(id, dir).0;
                let rule = Rule { eq: id, dir, print: Fingerprint::of_pattern(from) };
                match from {
                    Term::App(f, _) => self.by_root.entry(*f).or_default().push(rule),
                    Term::Var(_) => self.var_rooted.push(rule),
                }
            }
        }
        self.irreducible.get_mut().clear();
    }

    /// Adds the equation `lhs = rhs` proved by `chain`, its variables renamed to `0..vars`
    /// (in order of occurrence) and its sides swapped if the right one is greater.
    fn add(&mut self, lhs: Term, rhs: Term, chain: Vec<Use>) -> usize {
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
        let rename = |t: &Term| instantiate(t, &[], &|v: VarId| Term::Var(VarId(names.get(&v).copied().unwrap_or(vars + v.0))));
        let chain: Vec<Use> = chain.into_iter().map(|u| Use { sub: u.sub.iter().map(rename).collect(), ..u }).collect();
        let (mut lhs, mut rhs, mut chain) = (rename(&lhs), rename(&rhs), chain);
        if greater(&rhs, &lhs) {
            std::mem::swap(&mut lhs, &mut rhs);
            chain = reversed(&chain);
        }
        let oriented = greater(&lhs, &rhs);
        self.eqs.push(Equation { lhs, rhs, vars, oriented, origin: Origin::Derived(chain) });
        self.state.push(State::Retired);
        self.eqs.len() - 1
    }

    /// `lhs = rhs` (proved by `chain`) with both sides rewritten to normal form and the chain
    /// extended to match; `None` when the sides meet or an active equation has it as an instance.
    fn join(&self, lhs: &Term, rhs: &Term, chain: Vec<Use>, stop: &dyn Fn() -> bool) -> Option<(Term, Term, Vec<Use>)> {
        let (mut left, mut right) = (Vec::new(), Vec::new());
        let l = self.normalize(lhs, &mut left, stop);
        let r = self.normalize(rhs, &mut right, stop);
        if l == r {
            return None;
        }
        let subsumed = self.active.iter().any(|&a| {
            [Direction::LeftToRight, Direction::RightToLeft].into_iter().any(|dir| {
                let (from, to) = self.sides(a, dir);
                same_root(from, &l) && same_root(to, &r) && {
                    let mut sub = vec![None; self.eqs[a].vars as usize];
                    matches(from, &l, &mut sub) && matches(to, &r, &mut sub)
                }
            })
        });
        if subsumed {
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
        let identity = Use { eq: id, dir: Direction::LeftToRight, pos: vec![], sub: (0..e.vars).map(|v| Term::Var(VarId(v))).collect() };
        let (l, r, chain) = self.join(&e.lhs, &e.rhs, vec![identity], stop)?;
        if chain.len() == 1 {
            return Some(id);
        }
        Some(self.add(l, r, chain))
    }

    /// The critical pairs of `outer` with `inner` rewriting inside it, added as waiting equations.
    fn overlaps(&mut self, outer: usize, inner: usize, stop: &dyn Fn() -> bool) {
        let (v1, v2) = (self.eqs[outer].vars, self.eqs[inner].vars);
        let shift = |t: &Term| instantiate(t, &[], &|v: VarId| Term::Var(VarId(v.0 + v1)));
        for &d1 in self.directions(outer) {
            for &d2 in self.directions(inner) {
                let (from1, to1) = self.sides(outer, d1);
                let (from1, to1) = (from1.clone(), to1.clone());
                let (from2, to2) = self.sides(inner, d2);
                let (from2, to2) = (shift(from2), shift(to2));
                let mut at = Vec::new();
                let mut places = Vec::new();
                positions(&from1, &mut at, &mut places);
                for p in places {
                    if stop() {
                        return;
                    }
                    if p.is_empty() && outer == inner && d1 == d2 {
                        continue;
                    }
                    let mut sub = vec![None; (v1 + v2) as usize];
                    let inside = certificate::subterm(&from1, &p).expect("a position of the term");
                    if !unify(inside, &from2, &mut sub) {
                        continue;
                    }
                    let apply = |t: &Term| resolve(t, &sub);
                    let (big, small1, small2, big2) = (apply(&from1), apply(&to1), apply(&to2), apply(&from2));
                    // Overlaps whose instance some rewrite would only make larger are redundant.
                    if greater(&small1, &big) || greater(&small2, &big2) {
                        continue;
                    }
                    let lhs = certificate::replace(&big, &p, small2).expect("a position of the term");
                    if lhs == small1 {
                        continue;
                    }
                    let values = |range: std::ops::Range<u32>| range.map(|v| apply(&Term::Var(VarId(v)))).collect();
                    let chain = vec![Use { eq: inner, dir: flip(d2), pos: p, sub: values(v1..v1 + v2) }, Use { eq: outer, dir: d1, pos: vec![], sub: values(0..v1) }];
                    // Critical pairs wait in normal form, so that their weight is what will be used.
                    if let Some((l, r, chain)) = self.join(&lhs, &small1, chain, stop) {
                        let id = self.add(l, r, chain);
                        self.wait(id);
                    }
                }
            }
        }
    }

    /// Makes `id` active: active equations it simplifies wait again, and its critical pairs wait.
    fn activate(&mut self, id: usize, stop: &dyn Fn() -> bool) {
        self.state[id] = State::Active;
        let simplified: Vec<usize> = self.active.iter().copied().filter(|&a| {
            let e = &self.eqs[a];
            self.step_by(id, &e.lhs) || self.step_by(id, &e.rhs)
        }).collect();
        let mut active: Vec<usize> = self.active.iter().copied().filter(|a| !simplified.contains(a)).collect();
        active.push(id);
        self.set_active(active);
        for a in simplified {
            self.wait(a);
        }
        for a in self.active.clone() {
            self.overlaps(id, a, stop);
            if a != id {
                self.overlaps(a, id, stop);
            }
        }
    }

    /// Whether equation `id` rewrites some subterm of `t`.
    fn step_by(&self, id: usize, t: &Term) -> bool {
        let rewrites = self.directions(id).iter().any(|&dir| self.rewrite_at_root(id, dir, t).is_some());
        rewrites || matches!(t, Term::App(_, args) if args.iter().any(|a| self.step_by(id, a)))
    }

    /// Equation `id` used in direction `dir` at the root of `t`, when it matches there and the
    /// step decreases in the ordering (always, for an oriented equation): the values of its
    /// variables and the result.
    fn rewrite_at_root(&self, id: usize, dir: Direction, t: &Term) -> Option<(Vec<Term>, Term)> {
        let (from, to) = self.sides(id, dir);
        if !same_root(from, t) {
            return None;
        }
        let mut sub = vec![None; self.eqs[id].vars as usize];
        if !matches(from, t, &mut sub) {
            return None;
        }
        let sub = sub.into_iter().map(|b| b.cloned()).collect::<Option<Vec<Term>>>()?;
        let new = instantiate(to, &sub, &Term::Var);
        (self.eqs[id].oriented || greater(t, &new)).then_some((sub, new))
    }
}

/// Tries to prove the equational `goal` from the theory's equations by completion. `Err` says
/// why not and whether a limit stopped it. The certificate is not yet checked.
pub fn prove(theory: &Theory, goal: &Axiom, limits: &Limits) -> Result<Certificate, Undecided> {
    if theory.sig.sorts.len() > 1 {
        return Err(Undecided::for_good("not applicable: completion takes one-sorted theories only"));
    }
    let (constants, lhs, rhs) = certificate::goal_sides(&theory.sig, goal)?;
    let sig = certificate::extended_signature(&theory.sig, &constants).map_err(|e| e.0)?;
    let goal_text = FormulaPrinter::new(&theory.sig, goal).formula(&goal.formula);
    let cert = |steps, lemmas| Certificate { theory: theory.name.clone(), goal: goal_text.clone(), constants: constants.clone(), lhs: lhs.clone(), rhs: rhs.clone(), lemmas, steps };
    if lhs == rhs {
        return Ok(cert(vec![], vec![]));
    }
    // Variables a derivation leaves free take this value: the last constant (a goal constant if any).
    let Some(filler) = sig.funcs.iter().rposition(|f| f.args.is_empty()).map(|i| Term::App(FuncId(i as u32), vec![])) else {
        return Err(Undecided::for_good("not applicable: no constant to instantiate proofs with"));
    };
    let mut c = Completion { eqs: Vec::new(), state: Vec::new(), active: Vec::new(), by_root: HashMap::new(), var_rooted: Vec::new(), irreducible: RefCell::new(HashSet::new()), lightest: BinaryHeap::new(), oldest: VecDeque::new(), picks: 0 };
    for (axiom, ax) in theory.axioms.iter().enumerate() {
        for (part, (l, r)) in certificate::equations(ax).into_iter().enumerate() {
            let mut sub = vec![None; ax.vars.len()];
            let mut names = Vec::new();
            let mut rename_next = |v: VarId| {
                if sub[v.0 as usize].is_none() {
                    sub[v.0 as usize] = Some(Term::Var(VarId(names.len() as u32)));
                    names.push(ax.vars[v.0 as usize].name.clone());
                }
            };
            l.for_each_var(&mut rename_next);
            r.for_each_var(&mut rename_next);
            let rename = |t: &Term| certificate::substitute(t, &|v: VarId| sub[v.0 as usize].clone()).expect("every variable renamed");
            let (l, r) = (rename(l), rename(r));
            let oriented = greater(&l, &r);
            c.eqs.push(Equation { lhs: l, rhs: r, vars: names.len() as u32, oriented, origin: Origin::Axiom { axiom, part, names } });
            c.state.push(State::Retired);
            c.wait(c.eqs.len() - 1);
        }
    }
    if c.eqs.is_empty() {
        return Err(Undecided::for_good("not applicable: the theory has no equations"));
    }
    let stop = || Instant::now() >= limits.deadline || limits.cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed));
    let (mut left, mut right) = ((lhs.clone(), Vec::new()), (rhs.clone(), Vec::new()));
    loop {
        if stop() {
            return Err(Undecided::out_of_time(format!("completion stopped at its time limit with {} active equation(s) of {}", c.active.len(), c.eqs.len())));
        }
        if c.eqs.len() > limits.equations {
            return Err(Undecided::out_of_room(format!("completion reached its limit of {} equations", limits.equations)));
        }
        let Some(id) = c.pick() else {
            return Err(Undecided::for_good(format!("completion finished ({} equations) without joining the sides: the goal does not follow", c.active.len())));
        };
        let Some(id) = c.simplify(id, &stop) else { continue };
        c.activate(id, &stop);
        left.0 = c.normalize(&left.0, &mut left.1, &stop);
        right.0 = c.normalize(&right.0, &mut right.1, &stop);
        if left.0 == right.0 {
            let mut chain = left.1;
            chain.extend(reversed(&right.1));
            let mut x = Expander { theory, sig: &sig, eqs: &c.eqs, filler, lemma_of: HashMap::new(), lemmas: Vec::new(), steps: 0, limits };
            let (steps, _) = x.chain(&lhs, &chain, &[]).map_err(|why| if stop() { Undecided::out_of_time(why) } else { Undecided::out_of_room(why) })?;
            return Ok(cert(steps, x.lemmas));
        }
    }
}

/// Expands derivations at ground instances into certificate steps and lemmas.
struct Expander<'a> {
    theory: &'a Theory,
    sig: &'a Signature,
    eqs: &'a [Equation],
    filler: Term,
    /// Lemma index of each ground equation proved so far.
    lemma_of: HashMap<(Term, Term), usize>,
    lemmas: Vec<Lemma>,
    steps: usize,
    limits: &'a Limits,
}

impl Expander<'_> {
    /// The certificate steps of `chain` from `start` with the chain's variables `vals` (the rest
    /// get the filler), and the term they end at.
    fn chain(&mut self, start: &Term, chain: &[Use], vals: &[Term]) -> Result<(Vec<Step>, Term), String> {
        let mut current = start.clone();
        let mut out = Vec::with_capacity(chain.len());
        for u in chain {
            self.steps += 1;
            if self.steps > self.limits.proof_steps {
                return Err(format!("completion joined the sides, but its proof has more than {} steps", self.limits.proof_steps));
            }
            if Instant::now() >= self.limits.deadline {
                return Err("completion joined the sides, but time ran out while writing its proof".into());
            }
            let sub: Vec<Term> = u.sub.iter().map(|t| instantiate(t, vals, &|_| self.filler.clone())).collect();
            let e = &self.eqs[u.eq];
            let (l, r) = (instantiate(&e.lhs, &sub, &|_| self.filler.clone()), instantiate(&e.rhs, &sub, &|_| self.filler.clone()));
            let by = match &e.origin {
                Origin::Axiom { axiom, part, names } => Justification::Axiom {
                    axiom: self.theory.axioms[*axiom].name.clone(),
                    part: *part,
                    substitution: names.iter().zip(&sub).map(|(var, term)| Binding { var: var.clone(), term: term.clone() }).collect(),
                },
                Origin::Derived(proof) => Justification::Lemma { lemma: self.lemma(proof, &sub, l.clone(), r.clone())? },
            };
            let to = if u.dir == Direction::LeftToRight { r } else { l };
            current = certificate::replace(&current, &u.pos, to).ok_or("internal: a derivation's position does not exist")?;
            out.push(Step { by, direction: u.dir, position: u.pos.clone(), result: current.clone(), text: print(self.sig, &current) });
        }
        Ok((out, current))
    }

    /// The index of the lemma `lhs = rhs`, proved by `proof` at `vals` the first time.
    fn lemma(&mut self, proof: &[Use], vals: &[Term], lhs: Term, rhs: Term) -> Result<usize, String> {
        if let Some(&i) = self.lemma_of.get(&(lhs.clone(), rhs.clone())) {
            return Ok(i);
        }
        let (steps, end) = self.chain(&lhs, proof, vals)?;
        if end != rhs {
            return Err("internal: a derivation does not end at its equation's right side".into());
        }
        let text = format!("{} = {}", print(self.sig, &lhs), print(self.sig, &rhs));
        self.lemmas.push(Lemma { lhs: lhs.clone(), rhs: rhs.clone(), text, steps });
        self.lemma_of.insert((lhs, rhs), self.lemmas.len() - 1);
        Ok(self.lemmas.len() - 1)
    }
}
