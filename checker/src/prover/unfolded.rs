//! E's nested inferences, unfolded into single rewrites and replayed by Birkhoff's own kernel
//! (issue 52): a step that E prints as a superposition followed by rewrites, such as
//! `inference(rw, [inference(rw, [inference(spm, [c_0_33, c_0_27]), c_0_22]), c_0_22])`, gives
//! only its final clause. Z3, asked to prove that clause from the four statements it cites at
//! once, must find every instance itself; on one step of E's proof from Huntington's axioms it
//! took milliseconds on a quiet machine and more than 40 s on a loaded one.
//!
//! Here the chain is redone (for a single superposition too, whose instance Z3 must also find
//! itself: on a single axiom for groups it gave up on one within its share of 10 s, where the
//! kernel takes milliseconds): [`replay`] searches for the clauses E left out (the superposition's
//! unifier and each rewrite's position, in either orientation, since E's term order is not
//! known), then a small kernel independent of that search checks each link of the chain found,
//! and that E's clause is an instance of its last one. What is trusted is the kernel
//! ([`Kernel`]), about fifty lines:
//! * an **instance** of a known unit clause holds (its variables are universal);
//! * a **rewrite**: if `s = t` (or `s ≠ t`) holds and `l = r` holds, so does the clause with one
//!   occurrence of `σ(l)` replaced by `σ(r)`; the kernel finds `σ` by matching and then checks
//!   it by substituting and comparing, so a matching error cannot pass;
//! * a unit `t ≠ t` is `$false`.
//!
//! Only unit clauses (one equation or one negated equation) are unfolded, and only the rules
//! `spm`, `pm`, `rw`, `sr` (a negated equation that is an instance of an equation) and `cn`.
//! Anything else, or a chain not found within [`MAX_CANDIDATES`], leaves the step to Z3 as
//! before.

use super::certificate::replace;
use super::replayed::{resolved, substitute, unify};
use super::rewrite::matches;
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarId};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// How a statement of E's derivation was inferred, with the nesting E printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Nest {
    /// An earlier statement, by name.
    Named(String),
    /// An inference by `rule` from `parents`.
    Inference {
        /// E's name for the rule (`spm`, `rw`, `cn`, …).
        rule: String,
        /// What it was applied to.
        parents: Vec<Nest>,
    },
}

/// At most this many clauses are considered at any point of a chain's search; beyond it the
/// step is left to Z3.
pub(super) const MAX_CANDIDATES: usize = 20_000;

/// A unit clause: `sides[0] = sides[1]`, or its negation; variables universal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Unit {
    /// An equation, or a negated one.
    pub positive: bool,
    /// Its two sides.
    pub sides: [Term; 2],
}

/// One link of an unfolded chain, as the kernel checks it.
#[derive(Clone, Debug)]
pub(super) enum Link {
    /// `result` is an instance of `of`.
    Instance { of: Unit, result: Unit },
    /// `result` is `from` with one subterm rewritten by an instance of the equation `by`.
    Rewrite { from: Unit, by: Unit, result: Unit },
}

/// A clause the search reached, and the links from the named statements to it.
#[derive(Clone, Debug)]
struct Candidate {
    unit: Option<Unit>,
    links: Vec<Link>,
}

/// A chain the kernel checked: from the statements it cites to a step's clause.
#[derive(Clone, Debug)]
pub(super) struct Replayed {
    /// The links, in order; each rests on a cited statement or an earlier link's result.
    pub links: Vec<Link>,
    /// The cited statements' clauses, by name.
    pub cited: HashMap<String, Unit>,
}

/// The chain by which the kernel checked that `conclusion` follows from the statements `nest`
/// names (`statement` gives each by name), or `None` when no chain was found before `deadline`
/// or the kernel rejected it (then the step is Z3's to check).
pub(super) fn replay<'a>(
    nest: &Nest,
    statement: &dyn Fn(&str) -> Option<&'a Axiom>,
    conclusion: &Axiom,
    deadline: Instant,
) -> Option<Replayed> {
    let target = clause_of(&conclusion.formula)?;
    // Only a candidate of which E's clause is an instance is worth the kernel's check.
    let reaches = |c: &Candidate| match (&c.unit, &target) {
        (None, None) => true,
        (Some(u), Some(t)) => u.positive == t.positive && instance(u, t),
        _ => false,
    };
    let mut named = HashMap::new();
    let candidates = search(nest, statement, &mut named, deadline)?;
    for c in candidates.into_iter().filter(reaches) {
        if Instant::now() >= deadline {
            return None;
        }
        let mut kernel = Kernel {
            known: named.values().cloned().collect(),
            refuted: false,
        };
        if c.links.iter().all(|l| kernel.check(l)) && kernel.proves(&target) {
            return Some(Replayed {
                links: c.links,
                cited: named,
            });
        }
    }
    None
}

/// `Some(None)` for `$false`, `Some(Some(unit))` for a unit clause, `None` otherwise. Top-level
/// universal quantifiers are dropped: a clause's variables are universal anyway.
pub(super) fn clause_of(f: &Formula) -> Option<Option<Unit>> {
    match f {
        Formula::Forall(_, body) => clause_of(body),
        Formula::False => Some(None),
        Formula::Eq(s, t) => Some(Some(Unit {
            positive: true,
            sides: [s.clone(), t.clone()],
        })),
        Formula::Not(inner) => match &**inner {
            Formula::Eq(s, t) => Some(Some(Unit {
                positive: false,
                sides: [s.clone(), t.clone()],
            })),
            _ => None,
        },
        _ => None,
    }
}

/// The clauses `nest` may stand for, each with its links; `named` collects the statements it
/// cites, which the kernel takes as known.
fn search<'a>(
    nest: &Nest,
    statement: &dyn Fn(&str) -> Option<&'a Axiom>,
    named: &mut HashMap<String, Unit>,
    deadline: Instant,
) -> Option<Vec<Candidate>> {
    let unit_of = |n: &Nest, named: &mut HashMap<String, Unit>| -> Option<Vec<Candidate>> {
        search(n, statement, named, deadline)
    };
    match nest {
        Nest::Named(name) => {
            let unit = clause_of(&statement(name)?.formula)??;
            named.insert(name.clone(), unit.clone());
            Some(vec![Candidate {
                unit: Some(unit),
                links: Vec::new(),
            }])
        }
        Nest::Inference { rule, parents } => match (rule.as_str(), &parents[..]) {
            // `spm`, E's simultaneous superposition, replaces every occurrence of the unified
            // term; `pm` one.
            (rule @ ("spm" | "pm"), [a, b]) => {
                let every = rule == "spm";
                let (a, b) = (unit_of(a, named)?, unit_of(b, named)?);
                let mut out = Found::until(deadline);
                for x in &a {
                    for y in &b {
                        superpose(x, y, every, &mut out)?;
                        superpose(y, x, every, &mut out)?;
                    }
                }
                Some(out.candidates)
            }
            ("rw", [into, by]) => {
                let into = unit_of(into, named)?;
                let mut out = Found::until(deadline);
                for eq in unit_of(by, named)? {
                    let Some(eq) = eq.unit.filter(|u| u.positive) else {
                        continue;
                    };
                    for x in &into {
                        rewrite_once(x, &eq, &mut out)?;
                    }
                }
                Some(out.candidates)
            }
            // Simplify-reflect: `s ≠ t` where `s = t` is an instance of an equation is false
            // (E cites the two in either order); the kernel sees one rewrite of `s` to `t` at
            // the root, then `t ≠ t`.
            ("sr", [a, b]) => {
                let (a, b) = (unit_of(a, named)?, unit_of(b, named)?);
                let mut out = Found::until(deadline);
                for x in &a {
                    for y in &b {
                        reflect(x, y, &mut out)?;
                        reflect(y, x, &mut out)?;
                    }
                }
                Some(out.candidates)
            }
            // Clause normalization: a unit `t ≠ t` is false; anything else is kept as it is.
            ("cn", [only]) => Some(
                unit_of(only, named)?
                    .into_iter()
                    .map(|c| match &c.unit {
                        Some(u) if !u.positive && u.sides[0] == u.sides[1] => {
                            Candidate { unit: None, ..c }
                        }
                        _ => c,
                    })
                    .collect(),
            ),
            _ => None,
        },
    }
}

/// The candidates found at one node of the search, without two that differ only in the names
/// of their variables.
struct Found {
    candidates: Vec<Candidate>,
    seen: HashSet<Option<Unit>>,
    /// When the search gives up: on terms of hundreds of symbols one step's search took seconds.
    deadline: Instant,
}

impl Found {
    fn until(deadline: Instant) -> Found {
        Found {
            candidates: Vec::new(),
            seen: HashSet::new(),
            deadline,
        }
    }

    /// Adds `c` unless a variant is there; `None` when there are too many, or time is up.
    fn add(&mut self, c: Candidate) -> Option<()> {
        if self.seen.insert(c.unit.as_ref().map(canonical)) {
            if self.candidates.len() >= MAX_CANDIDATES || Instant::now() >= self.deadline {
                return None;
            }
            self.candidates.push(c);
        }
        Some(())
    }
}

/// Every superposition of the positive equation of `from` into a non-variable subterm of
/// `into`, each orientation: `σ(into[p ← r])` where `σ` unifies `l` with `into|p`, or with
/// `every`, `σ(into)` with each occurrence of `σ(l)` replaced by `σ(r)`.
fn superpose(from: &Candidate, into: &Candidate, every: bool, out: &mut Found) -> Option<()> {
    let (Some(f), Some(i)) = (&from.unit, &into.unit) else {
        return Some(());
    };
    if !f.positive {
        return Some(());
    }
    // `from`'s variables are renamed apart, after `into`'s.
    let shift = max_var(i).map_or(0, |v| v + 1);
    let f = Unit {
        positive: true,
        sides: f.sides.clone().map(|s| shifted(&s, shift)),
    };
    for (l, r) in [(&f.sides[0], &f.sides[1]), (&f.sides[1], &f.sides[0])] {
        if matches!(l, Term::Var(_)) {
            continue;
        }
        for side in 0..2 {
            for (path, sub) in positions(&i.sides[side]) {
                if matches!(sub, Term::Var(_)) {
                    continue;
                }
                let Some(sigma) = unify(l, sub) else {
                    continue;
                };
                let instance = Unit {
                    positive: i.positive,
                    sides: i.sides.clone().map(|s| resolved(&s, &sigma)),
                };
                let (old, new) = (resolved(l, &sigma), resolved(r, &sigma));
                // E's simultaneous superposition replaces the unified term throughout the
                // side it overlaps, or throughout the clause; tried in that order.
                let mut choices = vec![vec![(side, path.clone())]];
                if every {
                    let all = occurrences(&instance, &old);
                    let same_side: Vec<_> =
                        all.iter().filter(|(s, _)| *s == side).cloned().collect();
                    choices = vec![same_side, all];
                    choices.dedup();
                }
                let by = from.unit.clone()?;
                for places in choices {
                    let mut links = from.links.clone();
                    links.extend(into.links.iter().cloned());
                    links.push(Link::Instance {
                        of: i.clone(),
                        result: instance.clone(),
                    });
                    let result =
                        rewritten_in_turn(instance.clone(), &places, &new, &by, &mut links)?;
                    out.add(Candidate {
                        unit: Some(result),
                        links,
                    })?;
                }
            }
        }
    }
    Some(())
}

/// `$false` from the negated equation of `x` when the equation of `eq` has it as an instance
/// (either way round), by a rewrite of its first side at the root to its second.
fn reflect(x: &Candidate, eq: &Candidate, out: &mut Found) -> Option<()> {
    let (Some(u), Some(e)) = (&x.unit, &eq.unit) else {
        return Some(());
    };
    if u.positive || !e.positive {
        return Some(());
    }
    let reflected = Unit {
        positive: true,
        sides: u.sides.clone(),
    };
    if !instance(e, &reflected) {
        return Some(());
    }
    let t = &u.sides[1];
    let mut links = eq.links.clone();
    links.extend(x.links.iter().cloned());
    links.push(Link::Rewrite {
        from: u.clone(),
        by: e.clone(),
        result: Unit {
            positive: false,
            sides: [t.clone(), t.clone()],
        },
    });
    out.add(Candidate { unit: None, links })
}

/// Every rewrite of one subterm of `x` by an instance of `eq`, each orientation whose right
/// side has no variable the left lacks.
fn rewrite_once(x: &Candidate, eq: &Unit, out: &mut Found) -> Option<()> {
    let Some(u) = &x.unit else {
        return Some(());
    };
    let width = max_var(eq).map_or(0, |v| v as usize + 1);
    for (l, r) in [(&eq.sides[0], &eq.sides[1]), (&eq.sides[1], &eq.sides[0])] {
        if matches!(l, Term::Var(_)) || !vars(r).is_subset(&vars(l)) {
            continue;
        }
        for side in 0..2 {
            for (path, sub) in positions(&u.sides[side]) {
                let mut binding = vec![None; width];
                if !matches(l, sub, &mut binding) {
                    continue;
                }
                let new = substitute(r, &substitution(&binding));
                // E rewrites a shared term once for all its occurrences, or one of them.
                let every = occurrences(u, sub);
                let one = vec![(side, path)];
                for places in [one, every] {
                    let mut links = x.links.clone();
                    let result = rewritten_in_turn(u.clone(), &places, &new, eq, &mut links)?;
                    out.add(Candidate {
                        unit: Some(result),
                        links,
                    })?;
                }
            }
        }
    }
    Some(())
}

/// `u` with the subterm at each of `places` (disjoint) replaced by `new`, one at a time: a
/// rewrite link by `by` for each is added to `links`; the last result (None if a place does
/// not exist: places come from `positions`, so they do).
fn rewritten_in_turn(
    u: Unit,
    places: &[(usize, Vec<usize>)],
    new: &Term,
    by: &Unit,
    links: &mut Vec<Link>,
) -> Option<Unit> {
    let mut current = u;
    for (side, path) in places {
        let mut sides = current.sides.clone();
        sides[*side] = replace(&sides[*side], path, new.clone())?;
        let next = Unit {
            positive: current.positive,
            sides,
        };
        links.push(Link::Rewrite {
            from: current,
            by: by.clone(),
            result: next.clone(),
        });
        current = next;
    }
    Some(current)
}

/// The places (side, path) where `old` occurs in `u`; they are disjoint, since no term occurs
/// inside itself.
fn occurrences(u: &Unit, old: &Term) -> Vec<(usize, Vec<usize>)> {
    (0..2)
        .flat_map(|side| {
            positions(&u.sides[side])
                .into_iter()
                .filter(|(_, t)| *t == old)
                .map(move |(path, _)| (side, path))
        })
        .collect()
}

/// The kernel: what is known so far (the cited statements, then each checked link's result).
struct Kernel {
    known: Vec<Unit>,
    /// Whether a known unit is `t ≠ t`.
    refuted: bool,
}

impl Kernel {
    /// Whether `link` is sound and rests on what is known; if so its result becomes known.
    fn check(&mut self, link: &Link) -> bool {
        let ok = match link {
            Link::Instance { of, result } => {
                self.known.contains(of) && of.positive == result.positive && instance(of, result)
            }
            Link::Rewrite { from, by, result } => {
                self.known.contains(from)
                    && self.known.contains(by)
                    && by.positive
                    && from.positive == result.positive
                    && one_rewrite(from, by, result)
            }
        };
        if ok {
            let result = match link {
                Link::Instance { result, .. } | Link::Rewrite { result, .. } => result,
            };
            self.refuted |= !result.positive && result.sides[0] == result.sides[1];
            self.known.push(result.clone());
        }
        ok
    }

    /// Whether `target` (`None` for `$false`) follows: an instance of a known unit (either way
    /// round), or `$false` from a known `t ≠ t`.
    fn proves(&self, target: &Option<Unit>) -> bool {
        match target {
            None => self.refuted,
            Some(t) => self
                .known
                .iter()
                .any(|k| k.positive == t.positive && instance(k, t)),
        }
    }
}

/// Whether `result` is an instance of `of`, either way round (`s = t` is `t = s`).
fn instance(of: &Unit, result: &Unit) -> bool {
    instance_of(of, result).is_some()
}

/// How `result` is an instance of `of`: whether its sides come swapped, and the substitution.
pub(super) fn instance_of(of: &Unit, result: &Unit) -> Option<(bool, HashMap<VarId, Term>)> {
    let [s, t] = &result.sides;
    [(s, t), (t, s)]
        .iter()
        .enumerate()
        .find_map(|(swapped, (s, t))| {
            let sigma = checked_match(&of.sides[0], &of.sides[1], s, t)?;
            Some((swapped == 1, sigma))
        })
}

/// Some `σ` that makes `σ(l)` equal to `s` and `σ(r)` to `t`: found by matching, then
/// confirmed by substituting and comparing.
fn checked_match(l: &Term, r: &Term, s: &Term, t: &Term) -> Option<HashMap<VarId, Term>> {
    let width = [l, r]
        .iter()
        .filter_map(|x| vars(x).into_iter().map(|v| v.0 as usize + 1).max())
        .max()
        .unwrap_or(0);
    let mut binding = vec![None; width];
    if !(matches(l, s, &mut binding) && matches(r, t, &mut binding)) {
        return None;
    }
    let sigma = substitution(&binding);
    (substitute(l, &sigma) == *s && substitute(r, &sigma) == *t).then_some(sigma)
}

/// A matcher's bindings ([`matches`]) as a substitution.
fn substitution(binding: &[Option<&Term>]) -> HashMap<VarId, Term> {
    binding
        .iter()
        .enumerate()
        .filter_map(|(v, t)| Some((VarId(v as u32), (*t)?.clone())))
        .collect()
}

/// Whether `result` is `from` (either way round) with one subterm `σ(l)` replaced by `σ(r)`,
/// where `l = r` is `by` either way round.
fn one_rewrite(from: &Unit, by: &Unit, result: &Unit) -> bool {
    rewrite_of(from, by, result).is_some()
}

/// Where one rewrite by `by` changed a unit: in which side, at which path, which way `by` was
/// used and at which instance.
#[derive(Clone, Debug)]
pub(super) struct Place {
    /// The side of the rewritten unit (0 or 1).
    pub side: usize,
    /// The path to the rewritten subterm within that side.
    pub path: Vec<usize>,
    /// Whether `by`'s first side was replaced by its second (else the reverse).
    pub forward: bool,
    /// The instance of `by`.
    pub sigma: HashMap<VarId, Term>,
}

/// How `result` is `from` with one subterm `σ(l)` replaced by `σ(r)`, where `l = r` is `by`
/// either way round: whether `result`'s sides come swapped, and the place (`None` when nothing
/// changed).
pub(super) fn rewrite_of(from: &Unit, by: &Unit, result: &Unit) -> Option<(bool, Option<Place>)> {
    let [a, b] = &result.sides;
    [(a, b), (b, a)]
        .iter()
        .enumerate()
        .find_map(|(swapped, &(a, b))| {
            let [f0, f1] = &from.sides;
            let at = |side: usize, before: &Term, after: &Term| {
                let place = rewritten_at_one_place(before, by, after, Vec::new())?;
                Some(place.map(|(path, forward, sigma)| Place {
                    side,
                    path,
                    forward,
                    sigma,
                }))
            };
            let place = (f1 == b)
                .then(|| at(0, f0, a))
                .flatten()
                .or_else(|| (f0 == a).then(|| at(1, f1, b)).flatten())?;
            Some((swapped == 1, place))
        })
}

/// How `after` is `before` (at `path` in its side) with one subterm rewritten by `by`: the
/// subterm's path, whether `by` was used forward, and its instance; `Some(None)` when the two
/// are equal. The rewritten subterm lies on the path down to where the two terms differ; each
/// place on that path is tried.
#[allow(clippy::type_complexity)]
fn rewritten_at_one_place(
    before: &Term,
    by: &Unit,
    after: &Term,
    path: Vec<usize>,
) -> Option<Option<(Vec<usize>, bool, HashMap<VarId, Term>)>> {
    if before == after {
        return Some(None);
    }
    let [l, r] = &by.sides;
    if let Some(sigma) = checked_match(l, r, before, after) {
        return Some(Some((path, true, sigma)));
    }
    if let Some(sigma) = checked_match(r, l, before, after) {
        return Some(Some((path, false, sigma)));
    }
    match (before, after) {
        (Term::App(f, xs), Term::App(g, ys)) if f == g && xs.len() == ys.len() => {
            let mut differing = xs.iter().zip(ys).enumerate().filter(|(_, (x, y))| x != y);
            match (differing.next(), differing.next()) {
                (Some((i, (x, y))), None) => {
                    let mut path = path;
                    path.push(i);
                    rewritten_at_one_place(x, by, y, path)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Each subterm of `t` with its path (argument indices from the root), `t` itself first.
fn positions(t: &Term) -> Vec<(Vec<usize>, &Term)> {
    let mut out = Vec::new();
    let mut stack = vec![(Vec::new(), t)];
    while let Some((path, t)) = stack.pop() {
        if let Term::App(_, args) = t {
            for (i, a) in args.iter().enumerate().rev() {
                let mut p = path.clone();
                p.push(i);
                stack.push((p, a));
            }
        }
        out.push((path, t));
    }
    out
}

/// `t` with each variable `VarId(i)` renamed `VarId(i + shift)`.
fn shifted(t: &Term, shift: u32) -> Term {
    match t {
        Term::Var(v) => Term::Var(VarId(v.0 + shift)),
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| shifted(a, shift)).collect()),
    }
}

/// The variables of `t`.
fn vars(t: &Term) -> HashSet<VarId> {
    let mut out = HashSet::new();
    t.for_each_var(&mut |v| {
        out.insert(v);
    });
    out
}

/// The largest variable id of `u`, if it has variables.
fn max_var(u: &Unit) -> Option<u32> {
    u.sides.iter().flat_map(vars).map(|v| v.0).max()
}

/// `u` with its variables renumbered by first occurrence, sides in the smaller order: two
/// units that differ only in variable names, or in which side is written first, are equal.
fn canonical(u: &Unit) -> Unit {
    let renamed = |[s, t]: [&Term; 2]| {
        let mut names = HashMap::new();
        let sides = [s, t].map(|x| renumbered(x, &mut names));
        Unit {
            positive: u.positive,
            sides,
        }
    };
    let a = renamed([&u.sides[0], &u.sides[1]]);
    let b = renamed([&u.sides[1], &u.sides[0]]);
    if format!("{:?}", a.sides) <= format!("{:?}", b.sides) {
        a
    } else {
        b
    }
}

/// `t` with its variables renamed `0, 1, …` in order of first occurrence, continuing `names`.
fn renumbered(t: &Term, names: &mut HashMap<VarId, VarId>) -> Term {
    match t {
        Term::Var(v) => {
            let next = VarId(names.len() as u32);
            Term::Var(*names.entry(*v).or_insert(next))
        }
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| renumbered(a, names)).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_engine::interop::tptp_read;

    /// Statements of E's proof that `x + x = x` from Huntington's axioms, as E printed them.
    const HUNTINGTON: &str = "\
        cnf(c_0_6, plain, (p(p(X1,X2),X3)=p(X1,p(X2,X3)))).\n\
        cnf(c_0_7, plain, (p(X1,X2)=p(X2,X1))).\n\
        cnf(c_0_9, plain, (p(X1,p(X2,X3))=p(X2,p(X3,X1)))).\n\
        cnf(c_0_10, plain, (p(n(p(n(X1),X2)),n(p(n(X1),n(X2))))=X1)).\n\
        cnf(c_0_11, plain, (p(X1,p(X2,X3))=p(X3,p(X2,X1)))).\n\
        cnf(c_0_14, plain, (p(n(p(n(X1),X2)),p(X3,n(p(n(X1),n(X2)))))=p(X3,X1))).\n\
        cnf(c_0_41, plain, (p(a,a)!=a)).\n\
        cnf(c_0_42, plain, (p(X1,X1)=X1)).\n\
        cnf(c_0_43, plain, ($false)).\n";

    fn named(n: &str) -> Nest {
        Nest::Named(n.into())
    }

    fn by(rule: &str, parents: Vec<Nest>) -> Nest {
        Nest::Inference {
            rule: rule.into(),
            parents,
        }
    }

    /// The statements of `text` by name, and the one named `name`'s replay from `nest`.
    fn replayed(text: &str, nest: &Nest, name: &str) -> Option<usize> {
        let problem = tptp_read::read(text, "e.p").unwrap();
        let by_name: HashMap<String, Axiom> = problem
            .axioms
            .into_iter()
            .map(|a| (a.name.clone(), a))
            .collect();
        let statement = |n: &str| by_name.get(n);
        replay(
            nest,
            &statement,
            &by_name[name],
            Instant::now() + std::time::Duration::from_secs(60),
        )
        .map(|r| r.links.len().max(1))
    }

    #[test]
    fn a_superposition_then_a_rewrite_is_replayed_and_checked() {
        // c_0_14: rw(spm(c_0_9, c_0_10), c_0_11); E prints no clause between.
        let nest = by(
            "rw",
            vec![
                by("spm", vec![named("c_0_9"), named("c_0_10")]),
                named("c_0_11"),
            ],
        );
        let links = replayed(HUNTINGTON, &nest, "c_0_14").expect("the chain is found");
        // An instance, at least one rewrite for the superposition, one for rw.
        assert!(links >= 3, "{links}");
        // The same chain does not give a clause it does not prove (X3 and X1 swapped on the
        // right).
        let forged = HUNTINGTON.replace("=p(X3,X1))).", "=p(X1,X3))).");
        assert_eq!(replayed(&forged, &nest, "c_0_14"), None);
        // Nor does another chain: rewriting with commutativity in place of c_0_11.
        let other = by(
            "rw",
            vec![
                by("spm", vec![named("c_0_9"), named("c_0_10")]),
                named("c_0_6"),
            ],
        );
        assert_eq!(replayed(HUNTINGTON, &other, "c_0_14"), None);
    }

    #[test]
    fn a_rewrite_into_a_negated_goal_refutes_it() {
        // c_0_43: cn(rw(c_0_41, c_0_42)): p(a,a) != a becomes a != a, which is false.
        let nest = by("cn", vec![by("rw", vec![named("c_0_41"), named("c_0_42")])]);
        assert!(replayed(HUNTINGTON, &nest, "c_0_43").is_some());
        // Without the rewrite nothing is false.
        let nest = by("cn", vec![named("c_0_41")]);
        assert_eq!(replayed(HUNTINGTON, &nest, "c_0_43"), None);
        // Simplify-reflect: p(a,a) != a is an instance of p(X1,X1) = X1 negated.
        let nest = by("sr", vec![named("c_0_41"), named("c_0_42")]);
        assert!(replayed(HUNTINGTON, &nest, "c_0_43").is_some());
        // E cites the two either way round.
        let nest = by("sr", vec![named("c_0_42"), named("c_0_41")]);
        assert!(replayed(HUNTINGTON, &nest, "c_0_43").is_some());
        // Not by an equation of which it is no instance (commutativity).
        let nest = by("sr", vec![named("c_0_41"), named("c_0_7")]);
        assert_eq!(replayed(HUNTINGTON, &nest, "c_0_43"), None);
        // A rule the kernel does not know leaves the step to Z3.
        let nest = by("ef", vec![named("c_0_41"), named("c_0_42")]);
        assert_eq!(replayed(HUNTINGTON, &nest, "c_0_43"), None);
    }

    /// GRP707-1 of TPTP: E's simultaneous superposition of `ld(X,unit) = X(XX)` into c_0_28
    /// replaces the unified term in the side it overlaps only (the other side has it too).
    #[test]
    fn a_simultaneous_superposition_may_stay_in_one_side() {
        let text = "cnf(c_0_21, plain, (mult(X1,mult(X1,mult(X1,X1)))=unit)).\n\
            cnf(c_0_23, plain, (ld(X1,unit)=mult(X1,mult(X1,X1)))).\n\
            cnf(c_0_28, plain, (mult(mult(X1,mult(X1,X2)),X2)=mult(X1,mult(X1,mult(X2,X2))))).\n\
            cnf(c_0_33, plain, (mult(ld(X1,unit),X1)=unit)).\n";
        let nest = by(
            "rw",
            vec![
                by("spm", vec![named("c_0_28"), named("c_0_23")]),
                named("c_0_21"),
            ],
        );
        assert!(replayed(text, &nest, "c_0_33").is_some());
        // What no superposition and rewrite of these gives is not replayed.
        let forged = text.replace("(mult(ld(X1,unit),X1)=unit)", "(mult(X1,ld(X1,unit))=unit)");
        assert_eq!(replayed(&forged, &nest, "c_0_33"), None);
    }

    /// The kernel's own checks, whatever a search proposes.
    #[test]
    fn the_kernel_takes_only_instances_and_single_rewrites_of_what_is_known() {
        let problem = tptp_read::read(
            "cnf(comm, plain, p(X1,X2)=p(X2,X1)).\n\
             cnf(fact, plain, p(n(a),p(b,c))=a).\n\
             cnf(one, plain, p(n(a),p(c,b))=a).\n\
             cnf(two, plain, p(p(c,b),n(a))=a).\n\
             cnf(inst, plain, p(a,X1)=p(X1,a)).\n\
             cnf(bad, plain, p(a,X1)=p(X2,a)).\n",
            "k.p",
        )
        .unwrap();
        let unit = |name: &str| {
            let a = problem.axioms.iter().find(|a| a.name == name).unwrap();
            clause_of(&a.formula).unwrap().unwrap()
        };
        let (comm, fact) = (unit("comm"), unit("fact"));
        // One rewrite with commutativity, at an inner place.
        assert!(one_rewrite(&fact, &comm, &unit("one")));
        // Two are not one.
        assert!(!one_rewrite(&fact, &comm, &unit("two")));
        assert!(instance(&comm, &unit("inst")));
        assert!(!instance(&comm, &unit("bad")));
        // A link must rest on what is known.
        let mut kernel = Kernel {
            known: vec![comm.clone()],
            refuted: false,
        };
        let link = Link::Rewrite {
            from: fact.clone(),
            by: comm.clone(),
            result: unit("one"),
        };
        assert!(!kernel.check(&link));
        kernel.known.push(fact.clone());
        // Nor does a link whose result is not what it claims, though it rests on what is known.
        let two_at_once = Link::Rewrite {
            from: fact,
            by: comm.clone(),
            result: unit("two"),
        };
        assert!(!kernel.check(&two_at_once));
        let not_an_instance = Link::Instance {
            of: comm.clone(),
            result: unit("bad"),
        };
        assert!(!kernel.check(&not_an_instance));
        assert!(kernel.check(&link));
        assert!(kernel.proves(&Some(unit("one"))));
        assert!(!kernel.proves(&Some(unit("two"))));
        assert!(!kernel.proves(&None));
    }
}
