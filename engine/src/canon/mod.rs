//! Canonical forms of theories up to renaming: of variables, of symbols and of sorts, and up to
//! the order, names and duplication of axioms (an equation is read in either direction).
//!
//! Two theories have equal [`CanonicalForm`]s exactly when one becomes the other by such a
//! renaming. The form is an exact encoding, compared in full: no hash stands in for equality.
//! It is computed by sorting the symbols into classes by name-free invariants (profile, how many
//! distinct axioms a symbol occurs in and how often), splitting the classes further by how each
//! member sits in its axioms (colour refinement), then trying every renaming that permutes
//! symbols within a class and keeping the least encoding. Refinement usually leaves one renaming.
//! When more than [`MAX_RENAMINGS`] renamings remain the theory is too symmetric to canonize this
//! way and [`canonical_form`] says so rather than guess.
//!
//! Equality here is syntactic: `x & y` and `y & x` differ, and so do different axiomatizations of
//! one class. Semantic equivalence (axioms that prove each other) is the prover's business; see
//! `derivation::Equivalence`.

mod form;
mod literal;

pub use form::{canonical_form, canonical_tokens, with_canonical_tokens};
pub use literal::{literal_hash, literally_equal, LiteralIndex};

use crate::syntax::{Axiom, Formula, Term, VarId};
use crate::theory::Theory;
use serde::Serialize;
use std::borrow::Cow;
use std::sync::Arc;

/// The largest number of symbol and sort renamings [`canonical_form`] tries.
pub const MAX_RENAMINGS: usize = 40_320;

/// A theory's canonical encoding: equal for theories equal up to renaming, different otherwise.
/// Its tokens are packed into bytes (see `pack`): an exploration keeps one form per theory it
/// reached, and most tokens are small numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct CanonicalForm(Box<[u8]>);

/// Packs tokens into bytes, injectively: each token `t`, as the number `v` whose low 5 bits are
/// its tag (`t >> 24`, or 31 with all of `t` above them when the tag is 31 or more) and whose
/// higher bits are its payload, is written in LEB128 (7 bits a byte, the high bit saying
/// "more"). The code is prefix-free, so equal packings are equal token lists.
fn pack(tokens: &[u32]) -> Box<[u8]> {
    let mut out = Vec::with_capacity(tokens.len() * 5 / 2);
    tokens.iter().for_each(|&t| packed(t, |b| out.push(b)));
    out.into_boxed_slice()
}

/// Writes one token's bytes ([`pack`]).
#[inline]
fn packed(t: u32, mut write: impl FnMut(u8)) {
    let tag = t >> 24;
    let mut v: u64 = if tag < 31 {
        u64::from(t & 0x00FF_FFFF) << 5 | u64::from(tag)
    } else {
        u64::from(t) << 5 | 31
    };
    while v >= 0x80 {
        write((v & 0x7F) as u8 | 0x80);
        v >>= 7;
    }
    write(v as u8);
}

/// Whether `bytes` is the packing of `tokens`, found out while packing them, without allocating.
fn packs_to(tokens: &[u32], bytes: &[u8]) -> bool {
    let mut at = 0;
    for &t in tokens {
        let mut same = true;
        packed(t, |b| {
            same &= bytes.get(at) == Some(&b);
            at += 1;
        });
        if !same {
            return false;
        }
    }
    at == bytes.len()
}

/// A canonical form before packing, with its hash: what a [`FormIndex`] is asked about. Most forms an exploration computes are looked up and dropped, never stored, so they
/// are packed only when they are stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tokens {
    tokens: Vec<u32>,
    /// A hash of the tokens (made by the canonizer from the hashes of the form's parts).
    hash: u64,
}

impl Tokens {
    /// The form packed, to be stored in a [`FormIndex`]. Packing is left to whoever holds a
    /// form likely to be new, which can be a worker thread rather than the one that stores it.
    pub fn packed(&self) -> PackedForm {
        PackedForm {
            hash: self.hash,
            bytes: pack(&self.tokens),
        }
    }
}

/// A hash of a token list.
fn hash_tokens(tokens: &[u32]) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    tokens.iter().for_each(|&t| h.write_u32(t));
    h.finish()
}

/// A canonical form packed into bytes (see `pack`), with the hash of its [`Tokens`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedForm {
    hash: u64,
    bytes: Box<[u8]>,
}

/// Canonical forms, packed, mapped to values. It is asked with unpacked [`Tokens`]
/// and compares the stored bytes with their packing as it goes: no form is packed to be looked
/// up, and equality is exact (the hash only chooses where to look).
pub struct FormIndex<V> {
    table: hashbrown::HashTable<(u64, Box<[u8]>, V)>,
}

impl<V> Default for FormIndex<V> {
    fn default() -> Self {
        FormIndex {
            table: hashbrown::HashTable::new(),
        }
    }
}

impl<V: Copy> FormIndex<V> {
    /// The value of the form `t`, if it is here.
    pub fn get(&self, t: &Tokens) -> Option<V> {
        self.table
            .find(t.hash, |(h, bytes, _)| {
                *h == t.hash && packs_to(&t.tokens, bytes)
            })
            .map(|e| e.2)
    }

    /// The value of the form `f`: the one here, or `v`, which is stored with it.
    pub fn get_or_insert(&mut self, f: PackedForm, v: V) -> V {
        match self.table.entry(
            f.hash,
            |(h, bytes, _)| *h == f.hash && *bytes == f.bytes,
            |e| e.0,
        ) {
            hashbrown::hash_table::Entry::Occupied(known) => known.get().2,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                slot.insert((f.hash, f.bytes, v));
                v
            }
        }
    }

    /// How many forms are here.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether no form is here.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

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

/// The index a symbol gets while classes are refined, to mark the one symbol being looked at.
const MARKED: u32 = (1 << 24) - 1;
/// A variable not numbered yet.
const UNSEEN: u32 = u32::MAX;

struct Enc<'a> {
    r: &'a Renaming<'a>,
    axiom: &'a Axiom,
    /// Each variable's number by first occurrence, or [`UNSEEN`].
    vars: &'a mut Vec<u32>,
    seen: u32,
    out: &'a mut Vec<u32>,
}

impl Enc<'_> {
    fn var(&mut self, v: VarId) {
        let slot = &mut self.vars[v.0 as usize];
        if *slot == UNSEEN {
            *slot = self.seen;
            self.seen += 1;
        }
        let sort = self.r.sorts[self.axiom.vars[v.0 as usize].sort.0 as usize];
        self.out.push(VAR | *slot << 8 | sort);
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
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => {
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
                self.out.push(
                    if matches!(f, Formula::Forall(..)) {
                        ALL
                    } else {
                        EX
                    } | vs.len() as u32,
                );
                vs.iter().for_each(|v| self.var(*v));
                self.formula(g)
            }
        }
    }
}

/// One axiom's encoding under a renaming: variables numbered by first occurrence, and a top-level
/// equation read in whichever direction encodes first.
pub fn encode_axiom(a: &Axiom, r: &Renaming) -> Vec<u32> {
    let mut out = Vec::new();
    encode_axiom_into(a, r, &mut out, &mut Vec::new());
    out
}

/// [`encode_axiom`] appended to `out`, with `vars` as scratch space: the canonical-form loops
/// encode many axioms into one buffer without allocating for each.
fn encode_axiom_into(a: &Axiom, r: &Renaming, out: &mut Vec<u32>, vars: &mut Vec<u32>) {
    let start = out.len();
    encode_readings(a, r, out, vars);
    keep_least_reading(out, start);
}

/// Appends an axiom's readings under `r` to `out`: a top-level equation both ways (`l = r`, then
/// `r = l`, equally long), any other formula once.
fn encode_readings(a: &Axiom, r: &Renaming, out: &mut Vec<u32>, vars: &mut Vec<u32>) {
    let enc = |out: &mut Vec<u32>, vars: &mut Vec<u32>, f: &mut dyn FnMut(&mut Enc)| {
        vars.clear();
        vars.resize(a.vars.len(), UNSEEN);
        f(&mut Enc {
            r,
            axiom: a,
            vars,
            seen: 0,
            out,
        });
    };
    match &a.formula {
        Formula::Eq(l, rt) => {
            for (x, y) in [(l, rt), (rt, l)] {
                enc(out, vars, &mut |e: &mut Enc| {
                    e.out.push(EQ);
                    e.term(x);
                    e.term(y)
                });
            }
        }
        f => enc(out, vars, &mut |e: &mut Enc| e.formula(f)),
    }
}

/// `out[start..]` holds one axiom's readings ([`encode_readings`]); keeps only the least.
fn keep_least_reading(out: &mut Vec<u32>, start: usize) {
    if out.get(start) != Some(&EQ) {
        return;
    }
    // Both directions have one token per node, so the halves are equally long.
    let mid = start + (out.len() - start) / 2;
    if out[mid..] < out[start..mid] {
        out.copy_within(mid.., start);
    }
    out.truncate(mid);
}

/// Low bits of a variable token: its sort (there are at most 8 sorts when a canonical form
/// exists: more allow over [`MAX_RENAMINGS`] sort renamings).
const SORT_BITS: u32 = 0xFF;
const TAG: u32 = 0xFF << 24;

/// Appends `tokens`, an encoding under the identity renaming, as it reads under `r`: the tokens
/// of symbols and variable sorts renamed, everything else (variable numbers by first occurrence
/// included) unchanged. Equal to encoding the axiom under `r`, without walking its tree again.
fn relabel(tokens: &[u32], r: &Renaming, out: &mut Vec<u32>) {
    out.extend(tokens.iter().map(|&t| relabelled(t, r)));
}

/// One token of [`relabel`].
#[inline]
fn relabelled(t: u32, r: &Renaming) -> u32 {
    match t & TAG {
        VAR => (t & !SORT_BITS) | r.sorts[(t & SORT_BITS) as usize],
        FUNC => FUNC | r.funcs[(t & !TAG) as usize],
        REL => REL | r.rels[(t & !TAG) as usize],
        _ => t,
    }
}

/// [`relabel`] of an axiom's readings ([`encode_readings`] under the identity), then
/// [`keep_least_reading`]: the least reading under `r`. The two readings of an equation are
/// compared as they read under `r` token by token, which usually settles within a few tokens,
/// and only the lesser is written.
fn relabel_least(tokens: &[u32], r: &Renaming, out: &mut Vec<u32>) {
    let reading = if tokens.first() == Some(&EQ) {
        let (first, second) = tokens.split_at(tokens.len() / 2);
        // The readings are equally long: the first token that differs decides.
        let differ = first
            .iter()
            .zip(second)
            .map(|(&a, &b)| (relabelled(a, r), relabelled(b, r)))
            .find(|(a, b)| a != b);
        match differ {
            Some((a, b)) if b < a => second,
            _ => first,
        }
    } else {
        tokens
    };
    relabel(reading, r, out);
}

/// `0, 1, 2, ...`: identity renamings of up to this many sorts or symbols borrow from it.
static IDENTITY: [u32; 256] = {
    let mut a = [0; 256];
    let mut i = 0;
    while i < 256 {
        a[i] = i as u32;
        i += 1;
    }
    a
};

fn identity(n: usize) -> Cow<'static, [u32]> {
    match IDENTITY.get(..n) {
        Some(prefix) => Cow::Borrowed(prefix),
        None => Cow::Owned((0..n as u32).collect()),
    }
}

/// The identity renaming of a theory's signature (owned).
pub struct IdentityRenaming(
    Cow<'static, [u32]>,
    Cow<'static, [u32]>,
    Cow<'static, [u32]>,
);

impl IdentityRenaming {
    /// The identity on `t`'s sorts and symbols.
    pub fn of(t: &Theory) -> Self {
        IdentityRenaming(
            identity(t.sig.sorts.len()),
            identity(t.sig.funcs.len()),
            identity(t.sig.rels.len()),
        )
    }
    /// As a [`Renaming`].
    pub fn get(&self) -> Renaming<'_> {
        Renaming {
            sorts: &self.0,
            funcs: &self.1,
            rels: &self.2,
        }
    }
}

/// Whether `t` already has an axiom equal to `a` up to variable names and orientation.
pub fn has_axiom(t: &Theory, a: &Axiom) -> bool {
    find_axiom(t, a).is_some()
}

/// The first axiom of `t` equal to `a` up to variable names and orientation, by index.
pub fn find_axiom(t: &Theory, a: &Axiom) -> Option<usize> {
    VARIABLE_MAPS.with(|maps| {
        let (ab, ba) = &mut *maps.borrow_mut();
        t.axioms
            .iter()
            .position(|b| same_up_to_variables(a, b, ab, ba))
    })
}

/// Whether `a` and `b` are equal up to variable names (one for one, sort to sort) and the
/// orientation of a top-level equation.
pub fn equal_up_to_variables(a: &Axiom, b: &Axiom) -> bool {
    VARIABLE_MAPS.with(|maps| {
        let (ab, ba) = &mut *maps.borrow_mut();
        same_up_to_variables(a, b, ab, ba)
    })
}

thread_local! {
    /// [`find_axiom`]'s scratch space: moves ask it of every law they might add.
    static VARIABLE_MAPS: std::cell::RefCell<(Vec<u32>, Vec<u32>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Whether `a` and `b` are equal up to variable names and the orientation of a top-level
/// equation, which is when their encodings under one renaming are equal; decided by walking both
/// trees at once, which stops at the first difference (usually the first symbol). `ab` and `ba`
/// are scratch space for the variable bijection.
fn same_up_to_variables(a: &Axiom, b: &Axiom, ab: &mut Vec<u32>, ba: &mut Vec<u32>) -> bool {
    let mut matcher = |f: &dyn Fn(&mut VarMatch) -> bool| {
        ab.clear();
        ab.resize(a.vars.len(), UNSEEN);
        ba.clear();
        ba.resize(b.vars.len(), UNSEEN);
        f(&mut VarMatch { a, b, ab, ba })
    };
    // Terms whose head symbols differ cannot match: most pairs asked about differ there, and are
    // told apart before any variable table is set up.
    let head = |t: &Term| match t {
        Term::Var(_) => None,
        Term::App(f, _) => Some(*f),
    };
    match (&a.formula, &b.formula) {
        (Formula::Eq(l, r), Formula::Eq(l2, r2)) => {
            (head(l) == head(l2)
                && head(r) == head(r2)
                && matcher(&|m| m.term(l, l2) && m.term(r, r2)))
                || (head(l) == head(r2)
                    && head(r) == head(l2)
                    && matcher(&|m| m.term(l, r2) && m.term(r, l2)))
        }
        (f, g) => {
            std::mem::discriminant(f) == std::mem::discriminant(g) && matcher(&|m| m.formula(f, g))
        }
    }
}

/// Two axioms walked side by side, their variables bound one to one (and sort to equal sort) as
/// they first occur: the same correspondence as numbering them by first occurrence.
struct VarMatch<'a> {
    a: &'a Axiom,
    b: &'a Axiom,
    /// Each variable of `a`'s partner in `b`, or [`UNSEEN`]; `ba` the other way.
    ab: &'a mut Vec<u32>,
    ba: &'a mut Vec<u32>,
}

impl VarMatch<'_> {
    fn var(&mut self, v: VarId, w: VarId) -> bool {
        let (v, w) = (v.0 as usize, w.0 as usize);
        if self.a.vars[v].sort != self.b.vars[w].sort {
            return false;
        }
        match (self.ab[v], self.ba[w]) {
            (UNSEEN, UNSEEN) => {
                self.ab[v] = w as u32;
                self.ba[w] = v as u32;
                true
            }
            (x, y) => x == w as u32 && y == v as u32,
        }
    }

    fn term(&mut self, s: &Term, t: &Term) -> bool {
        match (s, t) {
            (Term::Var(v), Term::Var(w)) => self.var(*v, *w),
            (Term::App(f, xs), Term::App(g, ys)) => f == g && self.terms(xs, ys),
            _ => false,
        }
    }

    fn terms(&mut self, xs: &[Term], ys: &[Term]) -> bool {
        xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.term(x, y))
    }

    fn formula(&mut self, f: &Formula, g: &Formula) -> bool {
        use Formula::*;
        match (f, g) {
            (True, True) | (False, False) => true,
            (Eq(a, b), Eq(c, d)) => self.term(a, c) && self.term(b, d),
            (Rel(r, xs), Rel(s, ys)) => r == s && self.terms(xs, ys),
            (Not(x), Not(y)) => self.formula(x, y),
            (And(a, b), And(c, d))
            | (Or(a, b), Or(c, d))
            | (Implies(a, b), Implies(c, d))
            | (Iff(a, b), Iff(c, d)) => self.formula(a, c) && self.formula(b, d),
            (Forall(vs, x), Forall(ws, y)) | (Exists(vs, x), Exists(ws, y)) => {
                vs.len() == ws.len()
                    && vs.iter().zip(ws).all(|(v, w)| self.var(*v, *w))
                    && self.formula(x, y)
            }
            _ => false,
        }
    }
}

/// A theory's axioms up to variable names and orientation, encoded once, for the many
/// membership questions TRANSFER and ABSTRACT's common part ask of one theory (one per axiom
/// of the other theory and signature map). [`AxiomSet::images`] reads the set's axioms through
/// a renaming by relabelling their tokens, without building the renamed axioms.
pub struct AxiomSet {
    /// Every axiom's readings and then its least reading, in the theory's order.
    buf: Vec<u32>,
    /// Per axiom: `buf[start..end]` its readings, `buf[end..key]` its least reading.
    axioms: Vec<(usize, usize, usize)>,
    /// The least readings, sorted and without repeats: `(end, key)` spans of `buf`.
    sorted: Vec<(usize, usize)>,
    /// The identity on the theory's signature, for [`AxiomSet::contains`].
    id: IdentityRenaming,
    /// The theory's axioms themselves, to recognise them in theories that share them.
    shared: Vec<Arc<Axiom>>,
    /// Per axiom: its hash for [`literal_hash`].
    hashes: Vec<u64>,
    /// Per axiom: the hash of its least reading ([`hash_tokens`]), for canonical forms.
    least_hashes: Vec<u64>,
    /// The theory's signature and its hash, for [`literal_hash`].
    sig: Arc<crate::signature::Signature>,
    sig_hash: u64,
}

impl AxiomSet {
    /// The axioms of `t`.
    pub fn of(t: &Theory) -> AxiomSet {
        let id = IdentityRenaming::of(t);
        let (buf, axioms) = encode_keyed(t, &id.get());
        let mut sorted: Vec<(usize, usize)> =
            axioms.iter().map(|&(_, end, key)| (end, key)).collect();
        sort_spans(&buf, &mut sorted);
        let hashes = t.axioms.iter().map(|a| literal::axiom_hash(a)).collect();
        let least_hashes = axioms
            .iter()
            .map(|&(_, end, key)| hash_tokens(&buf[end..key]))
            .collect();
        AxiomSet {
            buf,
            axioms,
            sorted,
            id,
            shared: t.axioms.clone(),
            hashes,
            least_hashes,
            sig: t.sig.clone(),
            sig_hash: literal::signature_hash(t),
        }
    }

    /// The index of `a` (this very `Arc`) among the theory's axioms, looked for from `*cursor`
    /// on and then from the start; `*cursor` moves past it. Moves keep their parent's axioms in
    /// order, so the search from the previous find usually succeeds at once.
    fn position_of(&self, a: &Arc<Axiom>, cursor: &mut usize) -> Option<usize> {
        let from = (*cursor).min(self.shared.len());
        let i = (from..self.shared.len())
            .chain(0..from)
            .find(|&i| Arc::ptr_eq(&self.shared[i], a))?;
        *cursor = i + 1;
        Some(i)
    }

    fn has_encoding(&self, want: &[u32]) -> bool {
        self.sorted
            .binary_search_by(|s| self.buf[s.0..s.1].cmp(want))
            .is_ok()
    }

    /// Whether the set has `a`, an axiom over the theory's own signature ([`has_axiom`]).
    pub fn contains(&self, a: &Axiom) -> bool {
        let mut want = Vec::new();
        encode_axiom_into(a, &self.id.get(), &mut want, &mut Vec::new());
        self.has_encoding(&want)
    }

    /// Each axiom of the set with its symbols and sorts renamed by `r` (into another theory's),
    /// as [`AxiomSet::has_image`] asks the other theory's set about it.
    pub fn images(&self, r: &Renaming) -> AxiomImages {
        let mut out = AxiomImages {
            tokens: Vec::with_capacity(self.buf.len() / 3),
            ends: Vec::with_capacity(self.axioms.len()),
        };
        for &(start, end, _) in &self.axioms {
            relabel_least(&self.buf[start..end], r, &mut out.tokens);
            out.ends.push(out.tokens.len());
        }
        out
    }

    /// Whether the set has axiom `k` of `images` (made by another set's [`AxiomSet::images`]).
    pub fn has_image(&self, images: &AxiomImages, k: usize) -> bool {
        let start = if k == 0 { 0 } else { images.ends[k - 1] };
        self.has_encoding(&images.tokens[start..images.ends[k]])
    }
}

/// The axioms of one theory carried into another along a renaming, encoded
/// ([`AxiomSet::images`]): TRANSFER asks whether each lands on an axiom of the target.
pub struct AxiomImages {
    /// Each axiom's least reading, one after the other.
    tokens: Vec<u32>,
    /// Where each axiom's reading ends.
    ends: Vec<usize>,
}

/// Every axiom of `t` encoded under `r`: its readings, then its least reading, one after the
/// other in one buffer; per axiom `(start, end, key)`: readings `start..end`, least `end..key`.
fn encode_keyed(t: &Theory, r: &Renaming) -> (Vec<u32>, Vec<(usize, usize, usize)>) {
    let (mut buf, mut vars) = (Vec::new(), Vec::new());
    let keyed = t
        .axioms
        .iter()
        .map(|a| push_keyed(a, r, &mut buf, &mut vars))
        .collect();
    (buf, keyed)
}

/// Appends `a`'s readings under `r` to `buf`, then its least reading; returns `(start, end,
/// key)`: readings `start..end`, least `end..key`. `vars` is scratch space.
fn push_keyed(
    a: &Axiom,
    r: &Renaming,
    buf: &mut Vec<u32>,
    vars: &mut Vec<u32>,
) -> (usize, usize, usize) {
    let start = buf.len();
    encode_readings(a, r, buf, vars);
    let end = buf.len();
    buf.extend_from_within(start..end);
    keep_least_reading(buf, end);
    (start, end, buf.len())
}

/// Sorts spans of `buf` by their contents, dropping repeats.
fn sort_spans(buf: &[u32], spans: &mut Vec<(usize, usize)>) {
    spans.sort_unstable_by(|x, y| buf[x.0..x.1].cmp(&buf[y.0..y.1]));
    spans.dedup_by(|x, y| buf[x.0..x.1] == buf[y.0..y.1]);
}

/// Whether two theories are equal up to renaming (sorts, symbols, variables) and axiom order.
pub fn equal_up_to_renaming(a: &Theory, b: &Theory) -> Result<bool, CanonError> {
    Ok(canonical_form(a)? == canonical_form(b)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads [`pack`]'s bytes back into tokens; `None` if they are not a whole packing.
    fn unpack(mut bytes: &[u8]) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let (mut v, mut shift) = (0u64, 0);
            loop {
                let (&b, rest) = bytes.split_first()?;
                bytes = rest;
                v |= u64::from(b & 0x7F) << shift;
                shift += 7;
                if b < 0x80 {
                    break;
                }
            }
            let tag = (v & 31) as u32;
            out.push(if tag < 31 {
                (v >> 5) as u32 | tag << 24
            } else {
                (v >> 5) as u32
            });
        }
        Some(out)
    }

    #[test]
    fn packing_reads_back_so_it_is_injective() {
        let tokens = [
            0,
            1,
            127,
            128,
            0x00FF_FFFF,
            VAR,
            VAR | 3 << 8 | 2,
            FUNC | MARKED,
            SEP,
            SEP | 1,
            30 << 24 | 5,
            31 << 24,
            u32::MAX,
            1 << 31,
        ];
        for t in tokens {
            assert_eq!(unpack(&pack(&[t])), Some(vec![t]), "{t:#x}");
        }
        assert_eq!(unpack(&pack(&tokens)), Some(tokens.to_vec()));
    }

    #[test]
    fn packed_forms_are_compared_token_by_token_exactly() {
        let tokens = [VAR | 3 << 8, FUNC | 2, 0x00FF_FFFF, SEP, u32::MAX];
        let bytes = pack(&tokens);
        assert!(packs_to(&tokens, &bytes));
        assert!(!packs_to(&tokens[..4], &bytes), "a prefix");
        assert!(
            !packs_to(&[&tokens[..], &[0]].concat(), &bytes),
            "an extension"
        );
        assert!(
            !packs_to(
                &[VAR | 3 << 8, FUNC | 3, 0x00FF_FFFF, SEP, u32::MAX],
                &bytes
            ),
            "one token changed"
        );
        assert!(!packs_to(&tokens, &bytes[..bytes.len() - 1]));
    }
}
