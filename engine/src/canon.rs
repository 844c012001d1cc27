//! Canonical forms of theories up to renaming: of variables, of symbols and of sorts, and up to
//! the order, names and duplication of axioms (an equation is read in either direction).
//!
//! Two theories have equal [`CanonicalForm`]s exactly when one becomes the other by such a
//! renaming. The form is an exact encoding, compared in full: no hash stands in for equality.
//! It is computed by trying every renaming that maps each symbol to one of the same profile and
//! the same name-free invariants (how many distinct axioms it occurs in, and how often), and
//! keeping the least encoding. When more than [`MAX_RENAMINGS`] renamings remain the theory is
//! too symmetric to canonize this way and [`canonical_form`] says so rather than guess.
//!
//! Equality here is syntactic: `x & y` and `y & x` differ, and so do different axiomatizations of
//! one class. Semantic equivalence (axioms that prove each other) is the prover's business; see
//! `derivation::Equivalence`.

use crate::signature::SortId;
use crate::syntax::{Axiom, Formula, Term, VarId};
use crate::theory::Theory;
use serde::Serialize;

/// The largest number of symbol and sort renamings [`canonical_form`] tries.
pub const MAX_RENAMINGS: usize = 40_320;

/// A theory's canonical encoding: equal for theories equal up to renaming, different otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct CanonicalForm(pub Vec<u32>);

/// Why a theory has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// Too many symbols of one profile to try every renaming.
    #[error("theory {0} has too many interchangeable symbols ({1} renamings) to canonize")]
    TooSymmetric(String, u128),
}

// Token tags, in the top byte of a token.
const VAR: u32 = 1 << 24;
const FUNC: u32 = 2 << 24;
const REL: u32 = 3 << 24;
const EQ: u32 = 4 << 24;
const NOT: u32 = 5 << 24;
const AND: u32 = 6 << 24;
const OR: u32 = 7 << 24;
const IMP: u32 = 8 << 24;
const IFF: u32 = 9 << 24;
const ALL: u32 = 10 << 24;
const EX: u32 = 11 << 24;
const TRUE: u32 = 12 << 24;
const FALSE: u32 = 13 << 24;
const SORT: u32 = 14 << 24;
const SEP: u32 = 15 << 24;

/// A renaming: the new index of every sort, function and relation symbol.
pub struct Renaming<'a> {
    /// New index of each sort.
    pub sorts: &'a [u32],
    /// New index of each function symbol.
    pub funcs: &'a [u32],
    /// New index of each relation symbol.
    pub rels: &'a [u32],
}

struct Enc<'a> {
    r: &'a Renaming<'a>,
    axiom: &'a Axiom,
    vars: Vec<Option<u32>>,
    out: Vec<u32>,
}

impl Enc<'_> {
    fn var(&mut self, v: VarId) {
        let next = self.vars.iter().flatten().count() as u32;
        let slot = &mut self.vars[v.0 as usize];
        let n = *slot.get_or_insert(next);
        let sort = self.r.sorts[self.axiom.vars[v.0 as usize].sort.0 as usize];
        self.out.push(VAR | n << 8 | sort);
    }
    fn term(&mut self, t: &Term) {
        match t {
            Term::Var(v) => self.var(*v),
            Term::App(f, args) => {
                self.out.push(FUNC | self.r.funcs[f.0 as usize]);
                args.iter().for_each(|a| self.term(a));
            }
        }
    }
    fn formula(&mut self, f: &Formula) {
        match f {
            Formula::True => self.out.push(TRUE),
            Formula::False => self.out.push(FALSE),
            Formula::Eq(a, b) => {
                self.out.push(EQ);
                self.term(a);
                self.term(b);
            }
            Formula::Rel(r, args) => {
                self.out.push(REL | self.r.rels[r.0 as usize]);
                args.iter().for_each(|a| self.term(a));
            }
            Formula::Not(g) => {
                self.out.push(NOT);
                self.formula(g)
            }
            Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
                self.out.push(match f {
                    Formula::And(..) => AND,
                    Formula::Or(..) => OR,
                    Formula::Implies(..) => IMP,
                    _ => IFF,
                });
                self.formula(a);
                self.formula(b)
            }
            Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
                self.out.push(if matches!(f, Formula::Forall(..)) { ALL } else { EX } | vs.len() as u32);
                vs.iter().for_each(|v| self.var(*v));
                self.formula(g)
            }
        }
    }
}

/// One axiom's encoding under a renaming: variables numbered by first occurrence, and a top-level
/// equation read in whichever direction encodes first.
pub fn encode_axiom(a: &Axiom, r: &Renaming) -> Vec<u32> {
    let run = |f: &Formula| {
        let mut e = Enc { r, axiom: a, vars: vec![None; a.vars.len()], out: Vec::new() };
        e.formula(f);
        e.out
    };
    match &a.formula {
        Formula::Eq(l, rt) => run(&a.formula).min(run(&Formula::Eq(rt.clone(), l.clone()))),
        f => run(f),
    }
}

fn identity(n: usize) -> Vec<u32> {
    (0..n as u32).collect()
}

/// The identity renaming of a theory's signature (owned).
pub struct IdentityRenaming(Vec<u32>, Vec<u32>, Vec<u32>);

impl IdentityRenaming {
    /// The identity on `t`'s sorts and symbols.
    pub fn of(t: &Theory) -> Self {
        IdentityRenaming(identity(t.sig.sorts.len()), identity(t.sig.funcs.len()), identity(t.sig.rels.len()))
    }
    /// As a [`Renaming`].
    pub fn get(&self) -> Renaming<'_> {
        Renaming { sorts: &self.0, funcs: &self.1, rels: &self.2 }
    }
}

/// Whether two axioms of the same signature are equal up to variable names and orientation.
pub fn same_axiom(t: &Theory, a: &Axiom, b: &Axiom) -> bool {
    let id = IdentityRenaming::of(t);
    encode_axiom(a, &id.get()) == encode_axiom(b, &id.get())
}

/// Whether `t` already has an axiom equal to `a` up to variable names and orientation.
pub fn has_axiom(t: &Theory, a: &Axiom) -> bool {
    let id = IdentityRenaming::of(t);
    let want = encode_axiom(a, &id.get());
    t.axioms.iter().any(|b| encode_axiom(b, &id.get()) == want)
}

/// Symbol occurrence invariants that do not depend on names: per symbol, the number of distinct
/// axioms it occurs in and its total number of occurrences.
fn invariants(t: &Theory, distinct: &[&Axiom]) -> (Vec<(u32, u32)>, Vec<(u32, u32)>) {
    let mut f = vec![(0u32, 0u32); t.sig.funcs.len()];
    let mut r = vec![(0u32, 0u32); t.sig.rels.len()];
    for a in distinct {
        let mut fc = vec![0u32; f.len()];
        let mut rc = vec![0u32; r.len()];
        count(&a.formula, &mut fc, &mut rc);
        for (i, c) in fc.into_iter().enumerate().filter(|(_, c)| *c > 0) {
            f[i].0 += 1;
            f[i].1 += c;
        }
        for (i, c) in rc.into_iter().enumerate().filter(|(_, c)| *c > 0) {
            r[i].0 += 1;
            r[i].1 += c;
        }
    }
    (f, r)
}

fn count(f: &Formula, fc: &mut [u32], rc: &mut [u32]) {
    fn term(t: &Term, fc: &mut [u32]) {
        if let Term::App(g, args) = t {
            fc[g.0 as usize] += 1;
            args.iter().for_each(|a| term(a, fc));
        }
    }
    match f {
        Formula::True | Formula::False => {}
        Formula::Eq(a, b) => {
            term(a, fc);
            term(b, fc)
        }
        Formula::Rel(r, args) => {
            rc[r.0 as usize] += 1;
            args.iter().for_each(|a| term(a, fc))
        }
        Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => count(g, fc, rc),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            count(a, fc, rc);
            count(b, fc, rc)
        }
    }
}

/// All permutations of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

fn factorial(n: usize) -> u128 {
    (1..=n as u128).product()
}

/// A symbol's class key under a sort renaming: kind, renamed profile and invariants.
type ClassKey = (u32, Vec<u32>, u32, (u32, u32));

/// Groups symbols (indices) by class key, classes in key order; returns the groups and the keys.
fn classes(keys: Vec<ClassKey>) -> Vec<(ClassKey, Vec<usize>)> {
    let mut groups: std::collections::BTreeMap<ClassKey, Vec<usize>> = Default::default();
    for (i, k) in keys.into_iter().enumerate() {
        groups.entry(k).or_default().push(i);
    }
    groups.into_iter().collect()
}

/// The canonical form of `t`, or an error when it has too many interchangeable symbols.
pub fn canonical_form(t: &Theory) -> Result<CanonicalForm, CanonError> {
    let id = IdentityRenaming::of(t);
    // Distinct axioms (duplicates up to variable names dropped), a name-free notion.
    let mut seen = std::collections::HashSet::new();
    let distinct: Vec<&Axiom> = t.axioms.iter().filter(|a| seen.insert(encode_axiom(a, &id.get()))).collect();
    let (finv, rinv) = invariants(t, &distinct);
    let sig = &t.sig;
    let sort_perms = permutations(sig.sorts.len());
    let mut best: Option<Vec<u32>> = None;
    for sp in &sort_perms {
        let sorts: Vec<u32> = sp.iter().map(|&i| i as u32).collect();
        let sorts_of = |ids: &[SortId]| ids.iter().map(|s| sorts[s.0 as usize]).collect::<Vec<u32>>();
        let fkeys = sig.funcs.iter().enumerate().map(|(i, d)| (0, sorts_of(&d.args), sorts[d.result.0 as usize], finv[i])).collect();
        let rkeys = sig.rels.iter().enumerate().map(|(i, d)| (1, sorts_of(&d.args), 0, rinv[i])).collect();
        let (fcl, rcl) = (classes(fkeys), classes(rkeys));
        let total: u128 = factorial(sig.sorts.len()) * fcl.iter().chain(&rcl).map(|(_, m)| factorial(m.len())).product::<u128>();
        if total > MAX_RENAMINGS as u128 {
            return Err(CanonError::TooSymmetric(t.name.clone(), total));
        }
        // The signature part: class keys with their sizes.
        let mut head = vec![SORT | sig.sorts.len() as u32];
        for (k, m) in fcl.iter().chain(&rcl) {
            head.extend([SEP | k.0, m.len() as u32, k.2, k.3 .0, k.3 .1]);
            head.extend(&k.1);
        }
        // Every combination of permutations within classes.
        let groups: Vec<&Vec<usize>> = fcl.iter().chain(&rcl).map(|(_, m)| m).collect();
        let perms: Vec<Vec<Vec<usize>>> = groups.iter().map(|g| permutations(g.len())).collect();
        let mut choice = vec![0usize; groups.len()];
        loop {
            let mut funcs = vec![0u32; sig.funcs.len()];
            let mut rels = vec![0u32; sig.rels.len()];
            let mut next = 0u32;
            for (gi, g) in groups.iter().enumerate() {
                if gi == fcl.len() {
                    next = 0;
                }
                let p = &perms[gi][choice[gi]];
                for (j, &sym) in g.iter().enumerate() {
                    let target = if gi < fcl.len() { &mut funcs } else { &mut rels };
                    target[sym] = next + p[j] as u32;
                }
                next += g.len() as u32;
            }
            let r = Renaming { sorts: &sorts, funcs: &funcs, rels: &rels };
            let mut axs: Vec<Vec<u32>> = distinct.iter().map(|a| encode_axiom(a, &r)).collect();
            axs.sort();
            axs.dedup();
            let mut enc = head.clone();
            for a in axs {
                enc.push(SEP);
                enc.extend(a);
            }
            if best.as_ref().is_none_or(|b| enc < *b) {
                best = Some(enc);
            }
            // Advance the mixed-radix counter.
            let mut i = 0;
            while i < choice.len() {
                choice[i] += 1;
                if choice[i] < perms[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
            if i == choice.len() {
                break;
            }
        }
    }
    Ok(CanonicalForm(best.expect("at least one renaming")))
}

/// Whether two theories are equal up to renaming (sorts, symbols, variables) and axiom order.
pub fn equal_up_to_renaming(a: &Theory, b: &Theory) -> Result<bool, CanonError> {
    Ok(canonical_form(a)? == canonical_form(b)?)
}
