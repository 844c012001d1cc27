//! The canonical form itself: symbols sorted into classes by name-free invariants, classes split
//! by colour refinement, and the least encoding over the renamings that remain (see the module
//! docs of [`crate::canon`]).

use super::{
    hash_tokens, pack, push_keyed, relabel_least, AxiomSet, CanonError, CanonicalForm,
    IdentityRenaming, Renaming, Tokens, EQ, FUNC, MARKED, MAX_RENAMINGS, REL, SEP, SORT, TAG,
};
use crate::signature::Signature;
use crate::theory::Theory;
use std::hash::Hasher;

/// Buffers for computing canonical forms, one set per thread: an exploration computes forms by
/// the hundred thousand, and allocating these anew for each was a third of the time.
#[derive(Default)]
struct Canonizer {
    own: Vec<u32>,
    vars: Vec<u32>,
    keyed: Vec<Keyed>,
    finv: Invariants,
    rinv: Invariants,
    last: Vec<usize>,
    keys: Vec<u32>,
    symbols: Vec<(bool, usize, (usize, usize))>,
    order: Vec<usize>,
    head: Vec<u32>,
    buf: Vec<u32>,
    spans: Vec<(u64, usize, usize)>,
    best: Vec<u32>,
    /// The hash of `best` ([`Tokens`]), made from the hashes of its parts.
    best_hash: u64,
    funcs: Vec<u32>,
    rels: Vec<u32>,
    sorts: Vec<u32>,
    cls: Vec<Class>,
}

thread_local! {
    static CANONIZER: std::cell::RefCell<Canonizer> = std::cell::RefCell::default();
}

/// A theory's distinct axioms (up to variable names and orientation), each encoded under the
/// identity renaming with all its readings; every other renaming's encoding is a relabelling of
/// these tokens ([`relabel`]). An axiom the theory shares (the same `Arc`) with the theory of a
/// known [`AxiomSet`] is read from that set instead of being encoded again: an exploration
/// canonizes every result of a move against its parent's set, and most axioms are the parent's.
struct Readings<'a> {
    /// The known set's tokens, and the tokens of the axioms encoded here.
    bufs: [&'a [u32]; 2],
    /// The distinct axioms.
    axioms: &'a [Keyed],
}

/// One axiom's readings in [`Readings`]: the buffer, the span there of one reading or two
/// equally long ones (`start..end`), and of the least one (`end..key`), with the least one's
/// hash.
#[derive(Clone, Copy)]
struct Keyed {
    buf: usize,
    start: usize,
    end: usize,
    key: usize,
    hash: u64,
}

impl<'a> Readings<'a> {
    /// The readings of `t`'s distinct axioms; those not in `known` are encoded into `own`.
    fn of(
        t: &Theory,
        known: Option<&'a AxiomSet>,
        own: &'a mut Vec<u32>,
        vars: &mut Vec<u32>,
        keyed: &'a mut Vec<Keyed>,
    ) -> Readings<'a> {
        let id = IdentityRenaming::of(t);
        own.clear();
        keyed.clear();
        let mut cursor = 0;
        for a in &t.axioms {
            if let Some(k) = known {
                if let Some(i) = k.position_of(a, &mut cursor) {
                    let (start, end, key) = k.axioms[i];
                    keyed.push(Keyed {
                        buf: 0,
                        start,
                        end,
                        key,
                        hash: k.least_hashes[i],
                    });
                    continue;
                }
            }
            let (start, end, key) = push_keyed(a, &id.get(), own, vars);
            keyed.push(Keyed {
                buf: 1,
                start,
                end,
                key,
                hash: hash_tokens(&own[end..key]),
            });
        }
        let bufs = [known.map_or(&[][..], |k| &k.buf[..]), &own[..]];
        // The least reading of each axiom is the key that finds duplicates: equal ones are made
        // neighbours by sorting on its hash (and on itself when hashes tie).
        let least = |k: &Keyed| &bufs[k.buf][k.end..k.key];
        keyed.sort_unstable_by(|x, y| x.hash.cmp(&y.hash).then_with(|| least(x).cmp(least(y))));
        keyed.dedup_by(|x, y| x.hash == y.hash && least(x) == least(y));
        Readings {
            bufs,
            axioms: keyed,
        }
    }

    /// Distinct axiom `k`'s readings under the identity.
    fn readings(&self, k: usize) -> &'a [u32] {
        let k = self.axioms[k];
        &self.bufs[k.buf][k.start..k.end]
    }

    /// The first reading of distinct axiom `k` under the identity (for counting symbols).
    fn first(&self, k: usize) -> &'a [u32] {
        let all = self.readings(k);
        if all[0] == EQ {
            &all[..all.len() / 2]
        } else {
            all
        }
    }

    /// Appends distinct axiom `k`'s encoding under `r` to `out`.
    fn encode(&self, k: usize, r: &Renaming, out: &mut Vec<u32>) {
        relabel_least(self.readings(k), r, out);
    }
}

/// Symbols that no name-free invariant tells apart, in an order fixed by the invariants.
#[derive(Clone, Copy)]
struct Class {
    /// The span of the keys buffer ([`classes`]) holding the key every member shares: kind,
    /// profile with the sorts renamed, and occurrence invariants (written into the encoding's
    /// signature part).
    key: (usize, usize),
    /// Whether the members are relation symbols (else function symbols).
    rel: bool,
    /// The span of the order buffer ([`classes`]) holding the members' indices.
    members: (usize, usize),
}

impl Class {
    fn len(&self) -> usize {
        self.members.1 - self.members.0
    }
}

/// Groups symbols by class key: classes in key order (function symbols first), members in
/// index order. Keys are written into `keys`, members class by class into `order`, classes into
/// `out`.
fn classes(
    sig: &Signature,
    sorts: &[u32],
    (finv, rinv): (&Invariants, &Invariants),
    keys: &mut Vec<u32>,
    symbols: &mut Vec<(bool, usize, (usize, usize))>,
    order: &mut Vec<usize>,
    out: &mut Vec<Class>,
) {
    keys.clear();
    symbols.clear();
    let funcs = sig
        .funcs
        .iter()
        .map(|d| (&d.args, Some(d.result)))
        .zip(finv)
        .map(|(p, i)| (false, p, i))
        .enumerate();
    let rels = sig
        .rels
        .iter()
        .map(|d| (&d.args, None))
        .zip(rinv)
        .map(|(p, i)| (true, p, i))
        .enumerate();
    for (index, (rel, (args, result), inv)) in funcs.chain(rels) {
        let start = keys.len();
        keys.extend([
            u32::from(rel),
            result.map_or(0, |s| sorts[s.0 as usize]),
            inv.0,
            inv.1,
            args.len() as u32,
        ]);
        keys.extend(args.iter().map(|s| sorts[s.0 as usize]));
        symbols.push((rel, index, (start, keys.len())));
    }
    let key = |k: (usize, usize)| &keys[k.0..k.1];
    // Stable: members stay in index order.
    symbols.sort_by(|a, b| key(a.2).cmp(key(b.2)));
    order.clear();
    out.clear();
    for &(rel, i, k) in symbols.iter() {
        order.push(i);
        match out.last_mut() {
            Some(c) if key(c.key) == key(k) => c.members.1 += 1,
            _ => out.push(Class {
                key: k,
                rel,
                members: (order.len() - 1, order.len()),
            }),
        }
    }
}

/// Each symbol's position under `classes`: the index of its class among those of its kind.
fn class_indices(
    classes: &[Class],
    order: &[usize],
    nfuncs: usize,
    nrels: usize,
) -> (Vec<u32>, Vec<u32>) {
    let (mut funcs, mut rels) = (vec![0u32; nfuncs], vec![0u32; nrels]);
    let (mut nf, mut nr) = (0, 0);
    for c in classes {
        let (target, next) = if c.rel {
            (&mut rels, &mut nr)
        } else {
            (&mut funcs, &mut nf)
        };
        order[c.members.0..c.members.1]
            .iter()
            .for_each(|&s| target[s] = *next);
        *next += 1;
    }
    (funcs, rels)
}

/// Splits classes until no axiom tells their members apart (colour refinement, as in nauty).
/// A member's signature is the sorted list of encodings of the axioms it occurs in, with every
/// symbol written as its class and the member itself marked. Everything it reads is free of
/// names, and split classes keep their place and are ordered by signature, so isomorphic
/// theories get corresponding classes; only the symbols still interchangeable after this need
/// to be permuted. Members are rearranged within their class's span of `order`.
fn refine(
    classes: &mut Vec<Class>,
    order: &mut [usize],
    sorts: &[u32],
    readings: &Readings,
    nf: usize,
    nr: usize,
) {
    if classes.iter().all(|c| c.len() == 1) {
        return;
    }
    let occurs = occurrences(readings, nf, nr);
    loop {
        if classes.iter().all(|c| c.len() == 1) {
            return;
        }
        let (mut funcs, mut rels) = class_indices(classes, order, nf, nr);
        let mut split = false;
        let mut next = Vec::with_capacity(classes.len());
        // One member's axiom encodings, and their spans there.
        let (mut encodings, mut spans) = (Vec::new(), Vec::new());
        for &c in classes.iter() {
            if c.len() == 1 {
                next.push(c);
                continue;
            }
            let mut signed: Vec<(Vec<u32>, usize)> = order[c.members.0..c.members.1]
                .iter()
                .map(|&s| {
                    let (marked, axioms) = if c.rel {
                        (&mut rels[s], &occurs.rels[s])
                    } else {
                        (&mut funcs[s], &occurs.funcs[s])
                    };
                    let class = std::mem::replace(marked, MARKED);
                    let renaming = Renaming {
                        sorts,
                        funcs: &funcs,
                        rels: &rels,
                    };
                    encodings.clear();
                    spans.clear();
                    for &a in axioms {
                        let start = encodings.len();
                        readings.encode(a, &renaming, &mut encodings);
                        spans.push((start, encodings.len()));
                    }
                    spans.sort_by(|x: &(usize, usize), y| {
                        encodings[x.0..x.1].cmp(&encodings[y.0..y.1])
                    });
                    // The sorted encodings, each followed by SEP (no encoding contains it), so
                    // that equal signatures are equal lists.
                    let signature = spans
                        .iter()
                        .flat_map(|sp| encodings[sp.0..sp.1].iter().chain([&SEP]))
                        .copied()
                        .collect();
                    if c.rel {
                        rels[s] = class
                    } else {
                        funcs[s] = class
                    }
                    (signature, s)
                })
                .collect();
            // By signature, then by index within a new class.
            signed.sort();
            let mut start = c.members.0;
            for (j, (signature, s)) in signed.iter().enumerate() {
                order[c.members.0 + j] = *s;
                if j + 1 == signed.len() || signed[j + 1].0 != *signature {
                    next.push(Class {
                        members: (start, c.members.0 + j + 1),
                        ..c
                    });
                    start = c.members.0 + j + 1;
                }
            }
            split |= next.last().is_some_and(|n| n.members.0 != c.members.0);
        }
        *classes = next;
        if !split {
            return;
        }
    }
}

/// For each function and relation symbol, the distinct axioms it occurs in.
struct Occurrences {
    funcs: Vec<Vec<usize>>,
    rels: Vec<Vec<usize>>,
}

/// Calls `f` with the symbol of each function and relation token of distinct axiom `k`'s
/// first reading under the identity: one call per occurrence.
fn for_each_symbol(readings: &Readings, k: usize, mut f: impl FnMut(bool, usize)) {
    for &token in readings.first(k) {
        match token & TAG {
            FUNC => f(false, (token & !TAG) as usize),
            REL => f(true, (token & !TAG) as usize),
            _ => {}
        }
    }
}

/// Per symbol: the number of distinct axioms it occurs in, and its number of occurrences.
type Invariants = Vec<(u32, u32)>;

/// Symbol occurrence invariants that do not depend on names, for the function symbols (into
/// `finv`) and for the relation symbols (into `rinv`); `last` is scratch space.
fn invariants(
    sig: &Signature,
    readings: &Readings,
    finv: &mut Invariants,
    rinv: &mut Invariants,
    last: &mut Vec<usize>,
) {
    let nf = sig.funcs.len();
    finv.clear();
    finv.resize(nf, (0, 0));
    rinv.clear();
    rinv.resize(sig.rels.len(), (0, 0));
    // The axiom that last counted each symbol (functions, then relations), so that each axiom
    // counts once per symbol.
    last.clear();
    last.resize(nf + sig.rels.len(), usize::MAX);
    for k in 0..readings.axioms.len() {
        for_each_symbol(readings, k, |rel, s| {
            let (i, l) = if rel {
                (&mut rinv[s], &mut last[nf + s])
            } else {
                (&mut finv[s], &mut last[s])
            };
            i.1 += 1;
            if *l != k {
                *l = k;
                i.0 += 1;
            }
        });
    }
}

/// For each function and relation symbol, the distinct axioms it occurs in (in order).
fn occurrences(readings: &Readings, nf: usize, nr: usize) -> Occurrences {
    let mut occurs = [vec![Vec::new(); nf], vec![Vec::new(); nr]];
    for k in 0..readings.axioms.len() {
        for_each_symbol(readings, k, |rel, s| {
            let list: &mut Vec<usize> = &mut occurs[usize::from(rel)][s];
            if list.last() != Some(&k) {
                list.push(k);
            }
        });
    }
    let [funcs, rels] = occurs;
    Occurrences { funcs, rels }
}

/// Sorts the axioms' encodings under one renaming (spans of `buf`, each with the hash of its
/// tokens) into the order the form lists them: by hash, then by tokens. Any order fixed by the
/// encodings alone makes the form canonical; this one settles nearly every comparison with one
/// number instead of comparing encodings token by token. (No two are equal: distinct axioms stay
/// distinct under a renaming.)
fn in_form_order(buf: &[u32], spans: &mut [(u64, usize, usize)]) {
    spans.sort_unstable_by(|x, y| {
        x.0.cmp(&y.0)
            .then_with(|| buf[x.1..x.2].cmp(&buf[y.1..y.2]))
    });
}

/// All permutations of `0..n`, listed once per `n` and kept: a form asks for them for its sorts
/// and for every class of symbols, and `n` is at most 8 (9! exceeds [`MAX_RENAMINGS`]).
fn permutations(n: usize) -> &'static [Vec<usize>] {
    static LISTS: [std::sync::OnceLock<Vec<Vec<usize>>>; 9] =
        [const { std::sync::OnceLock::new() }; 9];
    LISTS[n].get_or_init(|| match n {
        0 => vec![vec![]],
        _ => permutations(n - 1)
            .iter()
            .flat_map(|p| {
                (0..=p.len()).map(move |i| {
                    let mut q = p.clone();
                    q.insert(i, n - 1);
                    q
                })
            })
            .collect(),
    })
}

fn factorial(n: usize) -> u128 {
    (1..=n as u128).product()
}

/// The canonical form of `t`, or an error when it has too many interchangeable symbols.
pub fn canonical_form(t: &Theory) -> Result<CanonicalForm, CanonError> {
    with_canonical_tokens(t, None, |f| CanonicalForm(pack(&f.tokens)))
}

/// [`canonical_form`] unpacked, to be looked up in a [`FormIndex`](super::FormIndex). When `t`
/// shares axioms (the same `Arc`s) with the theory `known` was made of, their encodings are
/// taken from `known`, not computed again: this is how an exploration canonizes a move's
/// results against their parent. The form is the same either way.
pub fn canonical_tokens(t: &Theory, known: Option<&AxiomSet>) -> Result<Tokens, CanonError> {
    with_canonical_tokens(t, known, Tokens::clone)
}

/// [`canonical_tokens`] handed to `f` rather than returned: the form is built in a per-thread
/// buffer, and a caller that only looks it up (most forms an exploration computes are of
/// duplicates) allocates nothing for it.
pub fn with_canonical_tokens<R>(
    t: &Theory,
    known: Option<&AxiomSet>,
    f: impl FnOnce(&Tokens) -> R,
) -> Result<R, CanonError> {
    let tokens = CANONIZER.with(|c| {
        let c = &mut *c.borrow_mut();
        canonize(t, known, c).map(|()| (std::mem::take(&mut c.best), c.best_hash))
    })?;
    let mut tokens = Tokens {
        tokens: tokens.0,
        hash: tokens.1,
    };
    let r = f(&tokens);
    CANONIZER.with(|c| c.borrow_mut().best = std::mem::take(&mut tokens.tokens));
    Ok(r)
}

/// Writes `t`'s form into `c.best`.
fn canonize(t: &Theory, known: Option<&AxiomSet>, c: &mut Canonizer) -> Result<(), CanonError> {
    let sig = &t.sig;
    // Checked before the sort permutations are listed: 12 sorts would be 479,001,600 of them.
    if factorial(sig.sorts.len()) > MAX_RENAMINGS as u128 {
        return Err(CanonError::TooSymmetric(
            t.name.clone(),
            factorial(sig.sorts.len()),
        ));
    }
    {
        let Canonizer {
            own,
            vars,
            keyed,
            finv,
            rinv,
            last,
            keys,
            symbols,
            order,
            head,
            buf,
            spans,
            best,
            best_hash,
            funcs,
            rels,
            sorts,
            cls,
        } = c;
        // Distinct axioms (duplicates up to variable names dropped), a name-free notion. Their
        // order does not matter: everything below sorts what it reads from them.
        let readings = Readings::of(t, known, own, vars, keyed);
        invariants(sig, &readings, finv, rinv, last);
        funcs.clear();
        funcs.resize(sig.funcs.len(), 0);
        rels.clear();
        rels.resize(sig.rels.len(), 0);
        best.clear();
        for sp in permutations(sig.sorts.len()) {
            sorts.clear();
            sorts.extend(sp.iter().map(|&i| i as u32));
            classes(sig, sorts, (finv, rinv), keys, symbols, order, cls);
            refine(
                cls,
                order,
                sorts,
                &readings,
                sig.funcs.len(),
                sig.rels.len(),
            );
            let total: u128 = factorial(sig.sorts.len())
                * cls.iter().map(|c| factorial(c.len())).product::<u128>();
            if total > MAX_RENAMINGS as u128 {
                return Err(CanonError::TooSymmetric(t.name.clone(), total));
            }
            // The signature part: class keys with their sizes.
            head.clear();
            head.push(SORT | sig.sorts.len() as u32);
            for c in cls.iter() {
                head.extend([SEP, c.len() as u32]);
                head.extend_from_slice(&keys[c.key.0..c.key.1]);
            }
            // Every combination of permutations within the classes of more than one symbol
            // (after refinement there are usually none, and this loop runs once).
            let perms: Vec<&[Vec<usize>]> = cls
                .iter()
                .filter(|c| c.len() > 1)
                .map(|c| permutations(c.len()))
                .collect();
            let mut choice = vec![0usize; perms.len()];
            loop {
                let (mut nf, mut nr) = (0u32, 0u32);
                let mut movable = 0;
                for c in cls.iter() {
                    let (target, next) = if c.rel {
                        (&mut *rels, &mut nr)
                    } else {
                        (&mut *funcs, &mut nf)
                    };
                    let members = &order[c.members.0..c.members.1];
                    if let [sym] = members {
                        target[*sym] = *next;
                    } else {
                        let p = &perms[movable][choice[movable]];
                        movable += 1;
                        for (j, &sym) in members.iter().enumerate() {
                            target[sym] = *next + p[j] as u32;
                        }
                    }
                    *next += c.len() as u32;
                }
                let r = Renaming { sorts, funcs, rels };
                buf.clear();
                spans.clear();
                for k in 0..readings.axioms.len() {
                    let start = buf.len();
                    readings.encode(k, &r, buf);
                    spans.push((hash_tokens(&buf[start..]), start, buf.len()));
                }
                in_form_order(buf, spans);
                let tokens = || {
                    head.iter()
                        .chain(
                            spans
                                .iter()
                                .flat_map(|s| std::iter::once(&SEP).chain(&buf[s.1..s.2])),
                        )
                        .copied()
                };
                if best.is_empty() || tokens().cmp(best.iter().copied()).is_lt() {
                    best.clear();
                    best.extend_from_slice(head);
                    for s in spans.iter() {
                        best.push(SEP);
                        best.extend_from_slice(&buf[s.1..s.2]);
                    }
                    // A function of the tokens, as its parts are: the head's hash, then the
                    // axioms' in order. (A form splits into head and axioms in one way only:
                    // after a SEP, a class's size is an untagged number, while an axiom's
                    // encoding starts with a tagged token.)
                    let mut h = rustc_hash::FxHasher::default();
                    h.write_u64(hash_tokens(head));
                    spans.iter().for_each(|s| h.write_u64(s.0));
                    *best_hash = h.finish();
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
        Ok(())
    }
}
