//! Literal equality: the same signature (names and order included) and the same axioms, each
//! the same formula over variables of the same sorts (variable and axiom names, axiom order and
//! duplicates aside). It implies equality up to renaming (the identity is the renaming), so a
//! theory literally equal to a known one needs no canonical form to be recognised. Most of an
//! exploration's duplicates are literal: two moves that commute (add `a`, then `b`; add `b`, then
//! `a`) build the same symbols and axioms. Literal equality is a tenth of the cost of a
//! canonical form: a hash and a structural comparison.

use super::AxiomSet;
use crate::syntax::Axiom;
use crate::theory::Theory;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A hash of what literal equality compares: the signature and the set of axioms. Literally
/// equal theories have equal hashes. The hashes of the axioms `t` shares (the same `Arc`s) with
/// the theory of `known`, and of its signature if shared too, are read from there.
pub fn literal_hash(t: &Theory, known: Option<&AxiomSet>) -> u64 {
    HASHES.with(|hashes| {
        let hashes = &mut *hashes.borrow_mut();
        hashes.clear();
        let mut cursor = 0;
        hashes.extend(t.axioms.iter().map(|a| {
            known
                .and_then(|k| k.position_of(a, &mut cursor).map(|i| k.hashes[i]))
                .unwrap_or_else(|| axiom_hash(a))
        }));
        hashes.sort_unstable();
        hashes.dedup();
        let mut h = rustc_hash::FxHasher::default();
        h.write_u64(
            known
                .filter(|k| Arc::ptr_eq(&k.sig, &t.sig))
                .map_or_else(|| signature_hash(t), |k| k.sig_hash),
        );
        hashes.hash(&mut h);
        h.finish()
    })
}

thread_local! {
    /// [`literal_hash`]'s buffer: it is asked of every move result.
    static HASHES: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The hash of what [`same_axiom`] compares.
pub(super) fn axiom_hash(a: &Axiom) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    a.formula.hash(&mut h);
    a.vars.iter().for_each(|v| v.sort.hash(&mut h));
    h.finish()
}

/// The same formula over variables of the same sorts (their names and the axiom's aside).
fn same_axiom(a: &Axiom, b: &Axiom) -> bool {
    a.formula == b.formula
        && a.vars.len() == b.vars.len()
        && a.vars.iter().zip(&b.vars).all(|(v, w)| v.sort == w.sort)
}

/// The hash of `t`'s signature.
pub(super) fn signature_hash(t: &Theory) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    t.sig.hash(&mut h);
    h.finish()
}

/// Whether `a` and `b` are literally equal (see the module docs): equal signatures, and every
/// axiom of each the same as one of the other.
pub fn literally_equal(a: &Theory, b: &Theory) -> bool {
    if !(Arc::ptr_eq(&a.sig, &b.sig) || a.sig == b.sig) {
        return false;
    }
    let (xs, ys) = (&a.axioms, &b.axioms);
    // Most axioms are the very same `Arc`s (shared with a parent, or made so by the graph), and
    // most sit at the same position in both theories: an axiom the same as the one at its
    // position in the other is in both, and only the others are looked for.
    let same = |x: &Arc<Axiom>, y: &Arc<Axiom>| Arc::ptr_eq(x, y) || same_axiom(x, y);
    // Bit `i`: the axioms at position `i` are the same (positions past 128 are looked for).
    let aligned = (0..xs.len().min(ys.len()).min(128))
        .filter(|&i| same(&xs[i], &ys[i]))
        .fold(0u128, |m, i| m | 1 << i);
    let in_other = |i: usize, x: &Arc<Axiom>, others: &[Arc<Axiom>]| {
        (i < 128 && aligned >> i & 1 == 1)
            || others.iter().any(|y| Arc::ptr_eq(x, y))
            || others.iter().any(|y| same_axiom(x, y))
    };
    xs.iter().enumerate().all(|(i, x)| in_other(i, x, ys))
        && ys.iter().enumerate().all(|(i, y)| in_other(i, y, xs))
}

/// Theories by [`literal_hash`], mapped to values: which known theory a new one literally
/// equals. The hash only chooses where to look; a theory is found only if [`literally_equal`]
/// holds.
pub struct LiteralIndex<V> {
    table: hashbrown::HashTable<(u64, V)>,
}

impl<V> Default for LiteralIndex<V> {
    fn default() -> Self {
        LiteralIndex {
            table: hashbrown::HashTable::new(),
        }
    }
}

impl<V: Copy> LiteralIndex<V> {
    /// The value of a theory literally equal to `t`, whose [`literal_hash`] is `hash`;
    /// `theory_of` gives the theory a value stands for.
    pub fn get<'t>(&self, t: &Theory, hash: u64, theory_of: impl Fn(V) -> &'t Theory) -> Option<V> {
        self.table
            .find(hash, |&(h, v)| {
                h == hash && literally_equal(t, theory_of(v))
            })
            .map(|e| e.1)
    }

    /// Records that the theory `v` stands for has literal hash `hash`.
    pub fn insert(&mut self, hash: u64, v: V) {
        self.table.insert_unique(hash, (hash, v), |e| e.0);
    }
}
