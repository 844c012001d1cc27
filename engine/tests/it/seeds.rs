//! The seed theories: every seed accepts known examples and rejects near misses (naming the axiom
//! that fails), small spectra computed by brute force agree with the ground-truth table, and every
//! seed carries its documentation and metadata.

use birkhoff_engine::{eval, seeds, Structure, Theory};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

// ---------------------------------------------------------------------------------------------
// Interpretations: a table-driven way to describe a finite structure for a seed's signature.
// ---------------------------------------------------------------------------------------------

type FuncImpl = Box<dyn Fn(&[u32]) -> u32>;
type RelImpl = Box<dyn Fn(&[u32]) -> bool>;

/// The sizes of the sorts (in declaration order) and an implementation of every symbol.
struct Interp {
    sizes: Vec<u32>,
    funcs: HashMap<String, FuncImpl>,
    rels: HashMap<String, RelImpl>,
}

impl Interp {
    fn new(sizes: &[u32]) -> Self {
        Interp {
            sizes: sizes.to_vec(),
            funcs: HashMap::new(),
            rels: HashMap::new(),
        }
    }

    fn func(mut self, name: &str, f: impl Fn(&[u32]) -> u32 + 'static) -> Self {
        self.funcs.insert(name.to_string(), Box::new(f));
        self
    }

    fn constant(self, name: &str, v: u32) -> Self {
        self.func(name, move |_| v)
    }

    fn unary(self, name: &str, f: impl Fn(u32) -> u32 + 'static) -> Self {
        self.func(name, move |a| f(a[0]))
    }

    fn binary(self, name: &str, f: impl Fn(u32, u32) -> u32 + 'static) -> Self {
        self.func(name, move |a| f(a[0], a[1]))
    }

    fn table(self, name: &str, t: Table) -> Self {
        self.func(name, move |a| t[a[0] as usize][a[1] as usize])
    }

    fn relation(mut self, name: &str, r: impl Fn(&[u32]) -> bool + 'static) -> Self {
        self.rels.insert(name.to_string(), Box::new(r));
        self
    }

    fn rel2(self, name: &str, r: impl Fn(u32, u32) -> bool + 'static) -> Self {
        self.relation(name, move |a| r(a[0], a[1]))
    }

    /// The structure for `th`; panics unless the interpretation gives exactly the symbols of the
    /// signature and one size per sort (so a seed with a missing or extra symbol is caught too).
    fn build(&self, th: &Theory) -> Structure {
        assert_eq!(
            self.sizes.len(),
            th.sig.sorts.len(),
            "{}: one size per sort expected",
            th.name
        );
        let fnames: BTreeSet<&str> = th.sig.funcs.iter().map(|f| f.name.as_str()).collect();
        let rnames: BTreeSet<&str> = th.sig.rels.iter().map(|r| r.name.as_str()).collect();
        let given_f: BTreeSet<&str> = self.funcs.keys().map(String::as_str).collect();
        let given_r: BTreeSet<&str> = self.rels.keys().map(String::as_str).collect();
        assert_eq!(
            fnames, given_f,
            "{}: function symbols of the seed vs. the example",
            th.name
        );
        assert_eq!(
            rnames, given_r,
            "{}: relation symbols of the seed vs. the example",
            th.name
        );
        Structure::from_fn(
            &th.sig,
            &self.sizes,
            |f: &str, a: &[u32]| (self.funcs[f])(a),
            |r: &str, a: &[u32]| (self.rels[r])(a),
        )
    }
}

type Table = Vec<Vec<u32>>;

fn load(seed: &str) -> Theory {
    if let Ok(dir) = std::env::var("BK_SEEDS_DIR") {
        return Theory::from_file(&std::path::Path::new(&dir).join(format!("{seed}.bk"))).unwrap();
    }
    seeds::load(seed).unwrap_or_else(|e| panic!("seed `{seed}` does not load:\n{e}"))
}

fn check(th: &Theory, i: &Interp) -> Result<(), eval::Violation> {
    eval::check(th, &i.build(th))
}

#[track_caller]
fn accepts(seed: &str, what: &str, i: Interp) {
    let th = load(seed);
    if let Err(v) = check(&th, &i) {
        panic!(
            "{seed} should accept {what}, but axiom `{}` fails at {:?}",
            v.axiom, v.assignment
        );
    }
}

/// `th` must reject the example, and the violated axiom must be one of `axioms` (all of which must
/// be axioms of the seed). Where a near miss breaks exactly one axiom, `axioms` has one name.
#[track_caller]
fn rejects(seed: &str, what: &str, axioms: &[&str], i: Interp) {
    let th = load(seed);
    for a in axioms {
        assert!(th.axiom(a).is_some(), "{seed} has no axiom called `{a}`");
    }
    match check(&th, &i) {
        Ok(()) => panic!("{seed} should reject {what} (by {axioms:?}), but accepts it"),
        Err(v) => assert!(
            axioms.contains(&v.axiom.as_str()),
            "{seed} rejects {what} by `{}` at {:?}; expected one of {axioms:?}",
            v.axiom,
            v.assignment
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Tables and the standard examples.
// ---------------------------------------------------------------------------------------------

fn cayley(n: u32, f: impl Fn(u32, u32) -> u32) -> Table {
    (0..n).map(|x| (0..n).map(|y| f(x, y)).collect()).collect()
}

fn size(t: &Table) -> u32 {
    t.len() as u32
}

/// A two-sided identity of the table, if any.
fn identity_of(t: &Table) -> Option<u32> {
    let n = size(t);
    (0..n)
        .find(|&e| (0..n).all(|x| t[e as usize][x as usize] == x && t[x as usize][e as usize] == x))
}

/// For each x the first y with x * y = e = y * x (0 if there is none).
fn inverses(t: &Table, e: u32) -> Vec<u32> {
    let n = size(t);
    (0..n)
        .map(|x| {
            (0..n)
                .find(|&y| t[x as usize][y as usize] == e && t[y as usize][x as usize] == e)
                .unwrap_or(0)
        })
        .collect()
}

/// x \ y: the first z with x * z = y (0 if there is none).
fn left_division(t: &Table) -> Table {
    let n = size(t);
    cayley(n, |x, y| {
        (0..n)
            .find(|&z| t[x as usize][z as usize] == y)
            .unwrap_or(0)
    })
}

/// x / y: the first z with z * y = x (0 if there is none).
fn right_division(t: &Table) -> Table {
    let n = size(t);
    cayley(n, |x, y| {
        (0..n)
            .find(|&z| t[z as usize][y as usize] == x)
            .unwrap_or(0)
    })
}

fn magma(t: Table) -> Interp {
    Interp::new(&[size(&t)]).table("*", t)
}

/// `*` and `e` (the identity of the table, or 0 when it has none).
fn monoid(t: Table) -> Interp {
    let e = identity_of(&t).unwrap_or(0);
    magma(t).constant("e", e)
}

/// `*`, `e` and `inv`, derived from the table.
fn group(t: Table) -> Interp {
    let e = identity_of(&t).unwrap_or(0);
    let inv = inverses(&t, e);
    monoid(t).unary("inv", move |x| inv[x as usize])
}

/// `*` with both divisions derived from the table.
fn quasigroup(t: Table) -> Interp {
    let (l, r) = (left_division(&t), right_division(&t));
    magma(t).table("\\", l).table("/", r)
}

fn loop_(t: Table) -> Interp {
    let e = identity_of(&t).unwrap_or(0);
    quasigroup(t).constant("e", e)
}

/// `*` with its right division `/`.
fn rack(t: Table) -> Interp {
    let r = right_division(&t);
    magma(t).table("/", r)
}

/// `*` with both divisions.
fn latin_quandle(t: Table) -> Interp {
    let l = left_division(&t);
    rack(t).table("\\", l)
}

/// `*` and `inv`, where inv(x) is the first y with x y x = x and y x y = y.
fn inverse_semigroup(t: Table) -> Interp {
    let n = size(&t);
    let m = |a: u32, b: u32| t[a as usize][b as usize];
    let inv: Vec<u32> = (0..n)
        .map(|x| {
            (0..n)
                .find(|&y| m(m(x, y), x) == x && m(m(y, x), y) == y)
                .unwrap_or(0)
        })
        .collect();
    magma(t).unary("inv", move |x| inv[x as usize])
}

fn zn_add(n: u32) -> Table {
    cayley(n, |x, y| (x + y) % n)
}

fn zn_mul(n: u32) -> Table {
    cayley(n, |x, y| (x * y) % n)
}

/// The symmetric group S3 as permutations of {0,1,2} in lexicographic order; x * y = x o y.
fn s3() -> Table {
    let perms: Vec<[u32; 3]> = vec![
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let idx = |p: [u32; 3]| perms.iter().position(|q| *q == p).unwrap() as u32;
    cayley(6, |x, y| {
        let (p, q) = (perms[x as usize], perms[y as usize]);
        idx([p[q[0] as usize], p[q[1] as usize], p[q[2] as usize]])
    })
}

/// The Klein four-group: bitwise xor on {0,1,2,3}.
fn klein() -> Table {
    cayley(4, |x, y| x ^ y)
}

/// The full transformation monoid T2 on {0,1}: maps coded as f(0) + 2 f(1); x * y = x o y.
fn t2() -> Table {
    let ap = |f: u32, i: u32| (f >> i) & 1;
    cayley(4, |f, g| ap(f, ap(g, 0)) | (ap(f, ap(g, 1)) << 1))
}

/// The symmetric inverse monoid on {0,1}: the 7 partial bijections, composed x * y = x o y.
fn symmetric_inverse_monoid_2() -> (Table, Vec<u32>) {
    // a partial map is [f(0), f(1)] with 2 meaning undefined
    let maps: Vec<[u32; 2]> = vec![[2, 2], [0, 2], [1, 2], [2, 0], [2, 1], [0, 1], [1, 0]];
    let idx = |m: [u32; 2]| maps.iter().position(|q| *q == m).unwrap() as u32;
    let ap = |m: [u32; 2], i: u32| if i == 2 { 2 } else { m[i as usize] };
    let t = cayley(7, |x, y| {
        let (f, g) = (maps[x as usize], maps[y as usize]);
        idx([ap(f, ap(g, 0)), ap(f, ap(g, 1))])
    });
    let inv = (0..7)
        .map(|x| {
            let f = maps[x as usize];
            let mut g = [2, 2];
            for i in 0..2 {
                if f[i] != 2 {
                    g[f[i] as usize] = i as u32;
                }
            }
            idx(g)
        })
        .collect();
    (t, inv)
}

/// The 2 x 2 rectangular band {(i, j)}, (i, j)(k, l) = (i, l), coded 2i + j.
fn rectangular_band() -> Table {
    cayley(4, |a, b| (a & 2) | (b & 1))
}

/// The smallest non-associative loop used here (order 5).
fn loop5() -> Table {
    vec![
        vec![0, 1, 2, 3, 4],
        vec![1, 0, 3, 4, 2],
        vec![2, 4, 0, 1, 3],
        vec![3, 2, 4, 0, 1],
        vec![4, 3, 1, 2, 0],
    ]
}

/// Chein's Moufang loop M(S3, 2) of order 12, the smallest non-associative Moufang loop:
/// on S3 x {0,1}, (g,0)(h,0) = (gh,0), (g,0)(h,1) = (hg,1), (g,1)(h,0) = (gh^-1,1), (g,1)(h,1) = (h^-1 g,0).
fn moufang12() -> Table {
    let g = s3();
    let inv = inverses(&g, 0);
    let m = |a: u32, b: u32| g[a as usize][b as usize];
    cayley(12, |x, y| {
        let (a, i, b, j) = (x % 6, x / 6, y % 6, y / 6);
        match (i, j) {
            (0, 0) => m(a, b),
            (0, 1) => m(b, a) + 6,
            (1, 0) => m(a, inv[b as usize]) + 6,
            _ => m(inv[b as usize], a),
        }
    })
}

/// The dihedral quandle R_n: x * y = 2y - x mod n.
fn dihedral(n: u32) -> Table {
    cayley(n, |x, y| (2 * y + n - x) % n)
}

/// Multiplication in GF(4) = GF(2)[w]/(w^2 + w + 1), elements coded as bit vectors (w = 2).
fn gf4_mul(a: u32, b: u32) -> u32 {
    let mut r = 0;
    for i in 0..2 {
        if (b >> i) & 1 == 1 {
            r ^= a << i;
        }
    }
    if r & 4 != 0 {
        r ^= 0b111;
    }
    r
}

/// A ring on {0..n-1}: `+`, `*`, and `neg`, `r0` derived from `+`.
fn ring(n: u32, add: impl Fn(u32, u32) -> u32, mul: impl Fn(u32, u32) -> u32) -> Interp {
    let a = cayley(n, add);
    let m = cayley(n, mul);
    let zero = identity_of(&a).unwrap_or(0);
    let neg = inverses(&a, zero);
    Interp::new(&[n])
        .table("+", a)
        .table("*", m)
        .unary("neg", move |x| neg[x as usize])
        .constant("r0", zero)
}

/// A ring with `r1` the two-sided identity of `*` (or `one` when given).
fn unital_ring(
    n: u32,
    add: impl Fn(u32, u32) -> u32,
    mul: impl Fn(u32, u32) -> u32 + Clone,
) -> Interp {
    let one = identity_of(&cayley(n, mul.clone())).unwrap_or(0);
    ring(n, add, mul).constant("r1", one)
}

fn zn_ring(n: u32) -> Interp {
    ring(n, move |x, y| (x + y) % n, move |x, y| (x * y) % n)
}

fn zn_unital(n: u32) -> Interp {
    unital_ring(n, move |x, y| (x + y) % n, move |x, y| (x * y) % n)
}

fn gf4() -> Interp {
    unital_ring(4, |x, y| x ^ y, gf4_mul)
}

/// 2 x 2 matrices over GF(2), [[a, b], [c, d]] coded a + 2b + 4c + 8d.
fn m2_f2_mul(x: u32, y: u32) -> u32 {
    let m = |v: u32| [[v & 1, (v >> 1) & 1], [(v >> 2) & 1, (v >> 3) & 1]];
    let (a, b) = (m(x), m(y));
    let mut r = 0;
    for (i, row) in a.iter().enumerate() {
        for (j, (b0j, b1j)) in b[0].iter().zip(&b[1]).enumerate() {
            let s = (row[0] * b0j + row[1] * b1j) % 2;
            r |= s << (2 * i + j);
        }
    }
    r
}

/// The rows [a, b] over GF(2) (coded a + 2b) with (a, b)(c, d) = (ac, ad): the matrices
/// [[a, b], [0, 0]]. A non-commutative ring with a left identity (1, 0) but no right identity.
fn row_ring_mul(x: u32, y: u32) -> u32 {
    let (a, c, d) = (x & 1, y & 1, (y >> 1) & 1);
    (a * c) | ((a * d) << 1)
}

/// A lattice on {0..n-1} from its order: meet and join are greatest lower and least upper bounds
/// (0 where they do not exist).
fn lattice_from_order(n: u32, le: impl Fn(u32, u32) -> bool) -> Interp {
    let (meet, join) = meet_join(n, &le);
    Interp::new(&[n]).table("^", meet).table("v", join)
}

fn meet_join(n: u32, le: &impl Fn(u32, u32) -> bool) -> (Table, Table) {
    let glb = |x: u32, y: u32| {
        let lower: Vec<u32> = (0..n).filter(|&z| le(z, x) && le(z, y)).collect();
        lower
            .iter()
            .copied()
            .find(|&z| lower.iter().all(|&w| le(w, z)))
            .unwrap_or(0)
    };
    let lub = |x: u32, y: u32| {
        let upper: Vec<u32> = (0..n).filter(|&z| le(x, z) && le(y, z)).collect();
        upper
            .iter()
            .copied()
            .find(|&z| upper.iter().all(|&w| le(z, w)))
            .unwrap_or(0)
    };
    (cayley(n, glb), cayley(n, lub))
}

/// A Boolean algebra (or near miss) from an order: bounds, meet, join and the first complement.
fn boolean_from_order(n: u32, le: impl Fn(u32, u32) -> bool) -> Interp {
    let (meet, join) = meet_join(n, &le);
    let bot = (0..n).find(|&b| (0..n).all(|x| le(b, x))).unwrap_or(0);
    let top = (0..n).find(|&t| (0..n).all(|x| le(x, t))).unwrap_or(0);
    let comp: Vec<u32> = (0..n)
        .map(|x| {
            (0..n)
                .find(|&y| {
                    meet[x as usize][y as usize] == bot && join[x as usize][y as usize] == top
                })
                .unwrap_or(x)
        })
        .collect();
    Interp::new(&[n])
        .table("^", meet)
        .table("v", join)
        .unary("c", move |x| comp[x as usize])
        .constant("bot", bot)
        .constant("top", top)
}

/// The chain 0 < 1 < ... < n-1.
fn chain(n: u32) -> impl Fn(u32, u32) -> bool {
    move |x, y| x <= y && y < n
}

/// The pentagon N5: 0 < 1 < 2 < 4 and 0 < 3 < 4, with 3 incomparable to 1 and 2.
fn n5(x: u32, y: u32) -> bool {
    x == y || x == 0 || y == 4 || (x == 1 && y == 2)
}

/// The diamond M3: 0 < 1, 2, 3 < 4, the atoms pairwise incomparable.
fn m3(x: u32, y: u32) -> bool {
    x == y || x == 0 || y == 4
}

/// The subsets of a k-element set, ordered by inclusion (bit masks).
fn subsets(x: u32, y: u32) -> bool {
    x & y == x
}

/// Divisors of 12, {1, 2, 3, 4, 6, 12}, ordered by divisibility.
fn divisors_of_12(x: u32, y: u32) -> bool {
    const D: [u32; 6] = [1, 2, 3, 4, 6, 12];
    D[y as usize].is_multiple_of(D[x as usize])
}

// Vector spaces GF(p)^d over GF(p): vectors coded in base p.

fn digits(v: u32, p: u32, d: u32) -> Vec<u32> {
    (0..d).map(|i| (v / p.pow(i)) % p).collect()
}

fn undigits(c: &[u32], p: u32) -> u32 {
    c.iter().rev().fold(0, |acc, &x| acc * p + x)
}

/// The field GF(p) (p prime) as the scalar sort, with `+ * neg k0 k1`.
fn scalars_mod(p: u32, i: Interp) -> Interp {
    i.binary("+", move |a, b| (a + b) % p)
        .binary("*", move |a, b| (a * b) % p)
        .unary("neg", move |a| (p - a) % p)
        .constant("k0", 0)
        .constant("k1", 1)
}

/// GF(p)^d over GF(p), with scalar multiplication `smul` given explicitly.
fn space_with(p: u32, d: u32, smul: impl Fn(u32, u32) -> u32 + 'static) -> Interp {
    let q = p.pow(d);
    let vadd = move |u: u32, v: u32| {
        let (a, b) = (digits(u, p, d), digits(v, p, d));
        undigits(
            &a.iter()
                .zip(&b)
                .map(|(x, y)| (x + y) % p)
                .collect::<Vec<_>>(),
            p,
        )
    };
    let vneg = move |u: u32| {
        undigits(
            &digits(u, p, d)
                .iter()
                .map(|x| (p - x) % p)
                .collect::<Vec<_>>(),
            p,
        )
    };
    scalars_mod(p, Interp::new(&[p, q]))
        .binary("vadd", vadd)
        .unary("vneg", vneg)
        .constant("v0", 0)
        .binary("smul", smul)
}

/// GF(p)^d over GF(p) with the usual scalar multiplication.
fn space(p: u32, d: u32) -> Interp {
    space_with(p, d, move |a, v| {
        undigits(
            &digits(v, p, d)
                .iter()
                .map(|x| (a * x) % p)
                .collect::<Vec<_>>(),
            p,
        )
    })
}

/// An alternating bilinear bracket on GF(p)^d from structure constants [e_i, e_j] for i < j
/// (coded vectors); [e_j, e_i] = -[e_i, e_j] and [e_i, e_i] = 0.
fn bracket(
    p: u32,
    d: u32,
    consts: BTreeMap<(u32, u32), u32>,
) -> impl Fn(u32, u32) -> u32 + 'static {
    move |u, v| {
        let (a, b) = (digits(u, p, d), digits(v, p, d));
        let mut r = vec![0u32; d as usize];
        for (&(i, j), &c) in &consts {
            // coefficient of [e_i, e_j]: a_i b_j - a_j b_i
            let k = (a[i as usize] * b[j as usize] + p * p - a[j as usize] * b[i as usize]) % p;
            for (rk, ck) in r.iter_mut().zip(digits(c, p, d)) {
                *rk = (*rk + k * ck) % p;
            }
        }
        undigits(&r, p)
    }
}

/// A bilinear form on GF(p)^d given by its Gram matrix.
fn form(p: u32, d: u32, gram: Vec<Vec<u32>>) -> impl Fn(u32, u32) -> u32 + 'static {
    move |u, v| {
        let (a, b) = (digits(u, p, d), digits(v, p, d));
        let mut s = 0;
        for i in 0..d as usize {
            for j in 0..d as usize {
                s = (s + a[i] * gram[i][j] * b[j]) % p;
            }
        }
        s
    }
}

fn identity_gram(d: usize) -> Vec<Vec<u32>> {
    (0..d)
        .map(|i| (0..d).map(|j| (i == j) as u32).collect())
        .collect()
}

/// A category with objects {0..objs-1} and arrows {0..arrows-1} from dom, cod, identities and a
/// partial composition `then(f, g) = Some(g o f)`; comp(f, g, h) iff then(f, g) = Some(h).
fn category(
    objs: u32,
    dom: Vec<u32>,
    cod: Vec<u32>,
    id: Vec<u32>,
    then: impl Fn(u32, u32) -> Option<u32> + 'static,
) -> Interp {
    let arrows = dom.len() as u32;
    Interp::new(&[objs, arrows])
        .unary("dom", move |f| dom[f as usize])
        .unary("cod", move |f| cod[f as usize])
        .unary("id", move |a| id[a as usize])
        .relation("comp", move |a| then(a[0], a[1]) == Some(a[2]))
}

// ---------------------------------------------------------------------------------------------
// Semigroup-like seeds.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_magma() {
    // A magma has no axioms, so there is nothing it can reject: the exhaustive count below
    // (16 tables of size 2) is its test, together with these examples.
    accepts(
        "magma",
        "Z_3 under subtraction",
        magma(cayley(3, |x, y| (x + 3 - y) % 3)),
    );
    accepts("magma", "the left-zero table", magma(cayley(2, |x, _| x)));
    assert!(
        load("magma").axioms.is_empty(),
        "magma must have no axioms (no tautologies)"
    );
}

#[test]
fn seed_comm_magma() {
    accepts("comm_magma", "Z_4 under addition", magma(zn_add(4)));
    accepts(
        "comm_magma",
        "the non-associative x * y = 2x + 2y mod 3",
        magma(cayley(3, |x, y| (2 * x + 2 * y) % 3)),
    );
    rejects(
        "comm_magma",
        "Z_3 under subtraction",
        &["commutative"],
        magma(cayley(3, |x, y| (x + 3 - y) % 3)),
    );
    rejects(
        "comm_magma",
        "the left-zero table x * y = x",
        &["commutative"],
        magma(cayley(2, |x, _| x)),
    );
}

#[test]
fn seed_semigroup() {
    accepts("semigroup", "Z_5 under multiplication", magma(zn_mul(5)));
    accepts(
        "semigroup",
        "the full transformation monoid T2",
        magma(t2()),
    );
    accepts(
        "semigroup",
        "the left-zero semigroup",
        magma(cayley(3, |x, _| x)),
    );
    rejects(
        "semigroup",
        "Z_3 under subtraction",
        &["assoc"],
        magma(cayley(3, |x, y| (x + 3 - y) % 3)),
    );
    rejects(
        "semigroup",
        "x * y = 2x + 2y mod 3",
        &["assoc"],
        magma(cayley(3, |x, y| (2 * x + 2 * y) % 3)),
    );
}

#[test]
fn seed_comm_semigroup() {
    accepts(
        "comm_semigroup",
        "Z_6 under multiplication",
        magma(zn_mul(6)),
    );
    accepts(
        "comm_semigroup",
        "the chain under min",
        magma(cayley(3, |x, y| x.min(y))),
    );
    rejects(
        "comm_semigroup",
        "the left-zero semigroup",
        &["commutative"],
        magma(cayley(2, |x, _| x)),
    );
    rejects("comm_semigroup", "T2", &["commutative"], magma(t2()));
    rejects(
        "comm_semigroup",
        "x * y = 2x + 2y mod 3 (commutative, not associative)",
        &["assoc"],
        magma(cayley(3, |x, y| (2 * x + 2 * y) % 3)),
    );
}

#[test]
fn seed_monoid() {
    accepts("monoid", "T2 with the identity map", monoid(t2()));
    accepts("monoid", "Z_4 under multiplication", monoid(zn_mul(4)));
    accepts("monoid", "S3", monoid(s3()));
    // x * y = x: every element is a right identity, none is a left identity.
    rejects(
        "monoid",
        "the right-identity-only semigroup x * y = x",
        &["left_identity"],
        magma(cayley(2, |x, _| x)).constant("e", 0),
    );
    // x * y = y: every element is a left identity, none is a right identity.
    rejects(
        "monoid",
        "the left-identity-only semigroup x * y = y",
        &["right_identity"],
        magma(cayley(2, |_, y| y)).constant("e", 0),
    );
    // Z_3 under subtraction has the right identity 0, is not associative and has no left identity.
    rejects(
        "monoid",
        "Z_3 under subtraction",
        &["assoc", "left_identity"],
        magma(cayley(3, |x, y| (x + 3 - y) % 3)).constant("e", 0),
    );
}

#[test]
fn seed_comm_monoid() {
    accepts("comm_monoid", "Z_6 under multiplication", monoid(zn_mul(6)));
    accepts(
        "comm_monoid",
        "the chain under max",
        monoid(cayley(3, |x, y| x.max(y))),
    );
    rejects("comm_monoid", "T2", &["commutative"], monoid(t2()));
    rejects(
        "comm_monoid",
        "the chain under max with e = top",
        &["left_identity", "right_identity"],
        magma(cayley(3, |x, y| x.max(y))).constant("e", 2),
    );
}

#[test]
fn seed_group() {
    for n in 1..=6 {
        accepts("group", &format!("Z_{n}"), group(zn_add(n)));
    }
    accepts("group", "S3", group(s3()));
    accepts("group", "the Klein four-group", group(klein()));
    rejects(
        "group",
        "the monoid ({0,1}, *) (0 has no inverse)",
        &["left_inverse", "right_inverse"],
        group(zn_mul(2)),
    );
    rejects(
        "group",
        "T2, a monoid that is not a group",
        &["left_inverse", "right_inverse"],
        group(t2()),
    );
    rejects(
        "group",
        "the right-identity-only semigroup x * y = x",
        &["left_identity", "left_inverse", "right_inverse"],
        magma(cayley(2, |x, _| x))
            .constant("e", 0)
            .unary("inv", |x| x),
    );
    rejects(
        "group",
        "S3 with inv = identity map",
        &["left_inverse", "right_inverse"],
        monoid(s3()).unary("inv", |x| x),
    );
}

#[test]
fn seed_abelian_group() {
    accepts("abelian_group", "Z_6", group(zn_add(6)));
    accepts("abelian_group", "the Klein four-group", group(klein()));
    rejects("abelian_group", "S3", &["commutative"], group(s3()));
    rejects(
        "abelian_group",
        "Z_3 under multiplication",
        &["left_inverse", "right_inverse"],
        group(zn_mul(3)),
    );
}

#[test]
fn seed_band() {
    accepts(
        "band",
        "the left-zero semigroup",
        magma(cayley(3, |x, _| x)),
    );
    accepts(
        "band",
        "the 2 x 2 rectangular band",
        magma(rectangular_band()),
    );
    accepts(
        "band",
        "the chain under min",
        magma(cayley(4, |x, y| x.min(y))),
    );
    rejects(
        "band",
        "Z_2 under addition",
        &["idempotent"],
        magma(zn_add(2)),
    );
    rejects("band", "T2 (not idempotent)", &["idempotent"], magma(t2()));
    rejects(
        "band",
        "x * y = 2x + 2y mod 3 (idempotent, not associative)",
        &["assoc"],
        magma(cayley(3, |x, y| (2 * x + 2 * y) % 3)),
    );
}

#[test]
fn seed_semilattice() {
    accepts(
        "semilattice",
        "the chain under min",
        magma(cayley(4, |x, y| x.min(y))),
    );
    accepts(
        "semilattice",
        "subsets of {0,1} under intersection",
        magma(cayley(4, |x, y| x & y)),
    );
    rejects(
        "semilattice",
        "the left-zero band",
        &["commutative"],
        magma(cayley(2, |x, _| x)),
    );
    rejects(
        "semilattice",
        "Z_3 under multiplication",
        &["idempotent"],
        magma(zn_mul(3)),
    );
}

#[test]
fn seed_inverse_semigroup() {
    accepts(
        "inverse_semigroup",
        "S3 with group inverses",
        inverse_semigroup(s3()),
    );
    accepts(
        "inverse_semigroup",
        "the chain under min with inv = identity",
        magma(cayley(3, |x, y| x.min(y))).unary("inv", |x| x),
    );
    let (t, inv) = symmetric_inverse_monoid_2();
    accepts(
        "inverse_semigroup",
        "the symmetric inverse monoid on 2 points",
        magma(t).unary("inv", move |x| inv[x as usize]),
    );
    // The rectangular band with (i, j)' = (j, i) is a regular *-semigroup whose idempotents do not commute.
    rejects(
        "inverse_semigroup",
        "the 2 x 2 rectangular band with (i,j)' = (j,i)",
        &["idempotents_commute"],
        magma(rectangular_band()).unary("inv", |x| ((x & 1) << 1) | (x >> 1)),
    );
    rejects(
        "inverse_semigroup",
        "S3 with inv = identity map",
        &["regular", "inv_antihomomorphism"],
        magma(s3()).unary("inv", |x| x),
    );
}

// ---------------------------------------------------------------------------------------------
// Rings and fields.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_ring() {
    for n in 1..=6 {
        accepts("ring", &format!("Z_{n}"), zn_ring(n));
    }
    accepts(
        "ring",
        "Z_4 with zero multiplication",
        ring(4, |x, y| (x + y) % 4, |_, _| 0),
    );
    accepts(
        "ring",
        "the row ring [[a, b], [0, 0]] over GF(2)",
        ring(4, |x, y| x ^ y, row_ring_mul),
    );
    accepts("ring", "M2(GF(2))", ring(16, |x, y| x ^ y, m2_f2_mul));
    // x * y = x is associative and right distributive but not left distributive.
    rejects(
        "ring",
        "Z_3 with x * y = x",
        &["left_distrib"],
        ring(3, |x, y| (x + y) % 3, |x, _| x),
    );
    rejects(
        "ring",
        "Z_3 with x * y = y",
        &["right_distrib"],
        ring(3, |x, y| (x + y) % 3, |_, y| y),
    );
    // a bilinear, hence distributive, product on GF(2)^2 that is not associative: e2 * e1 = e1
    let nonassoc = |x: u32, y: u32| {
        if (x >> 1) & 1 == 1 && y & 1 == 1 {
            1
        } else {
            0
        }
    };
    rejects(
        "ring",
        "GF(2)^2 with e2 * e1 = e1, other products 0",
        &["mul_assoc"],
        ring(4, |x, y| x ^ y, nonassoc),
    );
    rejects(
        "ring",
        "Z_3 under subtraction as +",
        &["add_assoc", "add_comm", "add_left_identity"],
        ring(3, |x, y| (x + 3 - y) % 3, |_, _| 0),
    );
}

#[test]
fn seed_ring_unital() {
    accepts("ring_unital", "Z_6", zn_unital(6));
    accepts("ring_unital", "the zero ring", zn_unital(1));
    accepts(
        "ring_unital",
        "M2(GF(2))",
        unital_ring(16, |x, y| x ^ y, m2_f2_mul),
    );
    // (1, 0) is a left identity of the row ring but not a right identity.
    rejects(
        "ring_unital",
        "the row ring with its left identity as r1",
        &["mul_right_identity"],
        ring(4, |x, y| x ^ y, row_ring_mul).constant("r1", 1),
    );
    rejects(
        "ring_unital",
        "Z_4 with zero multiplication",
        &["mul_left_identity", "mul_right_identity"],
        ring(4, |x, y| (x + y) % 4, |_, _| 0).constant("r1", 1),
    );
}

#[test]
fn seed_comm_ring() {
    accepts("comm_ring", "Z_6", zn_ring(6));
    accepts(
        "comm_ring",
        "Z_4 with zero multiplication",
        ring(4, |x, y| (x + y) % 4, |_, _| 0),
    );
    rejects(
        "comm_ring",
        "the row ring",
        &["mul_comm"],
        ring(4, |x, y| x ^ y, row_ring_mul),
    );
    rejects(
        "comm_ring",
        "M2(GF(2))",
        &["mul_comm"],
        ring(16, |x, y| x ^ y, m2_f2_mul),
    );
    rejects(
        "comm_ring",
        "Z_3 with x * y = x",
        &["left_distrib", "mul_comm"],
        ring(3, |x, y| (x + y) % 3, |x, _| x),
    );
}

#[test]
fn seed_comm_ring_unital() {
    accepts("comm_ring_unital", "Z_6", zn_unital(6));
    accepts("comm_ring_unital", "GF(4)", gf4());
    accepts(
        "comm_ring_unital",
        "GF(2)[x]/(x^2)",
        unital_ring(
            4,
            |x, y| x ^ y,
            |x, y| {
                let (a, b, c, d) = (x & 1, x >> 1, y & 1, y >> 1);
                (a * c) | (((a * d + b * c) % 2) << 1)
            },
        ),
    );
    rejects(
        "comm_ring_unital",
        "M2(GF(2))",
        &["mul_comm"],
        unital_ring(16, |x, y| x ^ y, m2_f2_mul),
    );
    rejects(
        "comm_ring_unital",
        "Z_2 with zero multiplication",
        &["mul_left_identity", "mul_right_identity"],
        ring(2, |x, y| x ^ y, |_, _| 0).constant("r1", 1),
    );
}

#[test]
fn seed_field() {
    for p in [2, 3, 5, 7] {
        accepts("field", &format!("GF({p})"), zn_unital(p));
    }
    accepts("field", "GF(4)", gf4());
    rejects(
        "field",
        "Z_4 (2 has no inverse)",
        &["mul_inverse"],
        zn_unital(4),
    );
    rejects(
        "field",
        "Z_6 (a commutative unital ring, not a field)",
        &["mul_inverse"],
        zn_unital(6),
    );
    rejects(
        "field",
        "GF(2)[x]/(x^2)",
        &["mul_inverse"],
        unital_ring(
            4,
            |x, y| x ^ y,
            |x, y| {
                let (a, b, c, d) = (x & 1, x >> 1, y & 1, y >> 1);
                (a * c) | (((a * d + b * c) % 2) << 1)
            },
        ),
    );
    rejects("field", "the zero ring", &["nontrivial"], zn_unital(1));
    rejects(
        "field",
        "GF(2) x GF(2)",
        &["mul_inverse"],
        unital_ring(4, |x, y| x ^ y, |x, y| x & y),
    );
    let th = load("field");
    assert!(
        th.sig.func("inv").is_none(),
        "the field seed states the inverse law first-order, without an inv symbol"
    );
}

// ---------------------------------------------------------------------------------------------
// Lattices.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_lattice() {
    accepts(
        "lattice",
        "the 2-element lattice",
        lattice_from_order(2, chain(2)),
    );
    accepts("lattice", "the 5-chain", lattice_from_order(5, chain(5)));
    accepts("lattice", "N5", lattice_from_order(5, n5));
    accepts("lattice", "M3", lattice_from_order(5, m3));
    rejects(
        "lattice",
        "the 2-chain with min as both meet and join",
        &["absorb_meet", "absorb_join"],
        Interp::new(&[2])
            .binary("^", |x, y| x.min(y))
            .binary("v", |x, y| x.min(y)),
    );
    rejects(
        "lattice",
        "Z_2 under addition as join",
        &["absorb_meet", "absorb_join"],
        Interp::new(&[2])
            .binary("^", |x, y| x.min(y))
            .binary("v", |x, y| x ^ y),
    );
}

#[test]
fn seed_distributive_lattice() {
    accepts(
        "distributive_lattice",
        "the 4-chain",
        lattice_from_order(4, chain(4)),
    );
    accepts(
        "distributive_lattice",
        "the subsets of a 3-set",
        lattice_from_order(8, subsets),
    );
    accepts(
        "distributive_lattice",
        "the divisors of 12",
        lattice_from_order(6, divisors_of_12),
    );
    rejects(
        "distributive_lattice",
        "N5",
        &["distributive"],
        lattice_from_order(5, n5),
    );
    rejects(
        "distributive_lattice",
        "M3",
        &["distributive"],
        lattice_from_order(5, m3),
    );
}

#[test]
fn seed_modular_lattice() {
    accepts("modular_lattice", "M3", lattice_from_order(5, m3));
    accepts(
        "modular_lattice",
        "the subsets of a 2-set",
        lattice_from_order(4, subsets),
    );
    accepts(
        "modular_lattice",
        "the 3-chain",
        lattice_from_order(3, chain(3)),
    );
    rejects(
        "modular_lattice",
        "N5",
        &["modular"],
        lattice_from_order(5, n5),
    );
}

#[test]
fn seed_boolean_algebra() {
    accepts(
        "boolean_algebra",
        "the 1-element algebra",
        boolean_from_order(1, chain(1)),
    );
    accepts(
        "boolean_algebra",
        "the 2-element algebra",
        boolean_from_order(2, chain(2)),
    );
    accepts(
        "boolean_algebra",
        "the subsets of a 2-set",
        boolean_from_order(4, subsets),
    );
    accepts(
        "boolean_algebra",
        "the subsets of a 3-set",
        boolean_from_order(8, subsets),
    );
    // M3 and N5 are complemented but not distributive.
    rejects(
        "boolean_algebra",
        "M3 with complements",
        &["distributive"],
        boolean_from_order(5, m3),
    );
    rejects(
        "boolean_algebra",
        "N5 with complements",
        &["distributive"],
        boolean_from_order(5, n5),
    );
    // the 3-chain is distributive but its middle element has no complement
    rejects(
        "boolean_algebra",
        "the 3-chain",
        &["complement_meet", "complement_join"],
        boolean_from_order(3, chain(3)),
    );
    rejects(
        "boolean_algebra",
        "the subsets of a 2-set with bot and top swapped",
        &[
            "bot_least",
            "top_greatest",
            "complement_meet",
            "complement_join",
        ],
        boolean_from_order(4, subsets)
            .constant("bot", 3)
            .constant("top", 0),
    );
}

// ---------------------------------------------------------------------------------------------
// Quasigroups, loops, racks, quandles.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_quasigroup() {
    accepts(
        "quasigroup",
        "Z_3 under subtraction",
        quasigroup(cayley(3, |x, y| (x + 3 - y) % 3)),
    );
    accepts("quasigroup", "S3", quasigroup(s3()));
    accepts(
        "quasigroup",
        "the dihedral quandle R_5",
        quasigroup(dihedral(5)),
    );
    rejects(
        "quasigroup",
        "Z_3 under multiplication (not a Latin square)",
        &[
            "ldiv_after_mul",
            "mul_after_ldiv",
            "rdiv_after_mul",
            "mul_after_rdiv",
        ],
        quasigroup(zn_mul(3)),
    );
    // x * y = x - y has left division x \ y = x - y and right division x / y = x + y; swap them.
    rejects(
        "quasigroup",
        "Z_3 under subtraction with the right division used as left division",
        &["ldiv_after_mul", "mul_after_ldiv"],
        magma(cayley(3, |x, y| (x + 3 - y) % 3))
            .binary("\\", |x, y| (x + y) % 3)
            .binary("/", |x, y| (x + y) % 3),
    );
}

#[test]
fn seed_loop() {
    accepts("loop", "Z_4", loop_(zn_add(4)));
    accepts("loop", "a non-associative loop of order 5", loop_(loop5()));
    accepts("loop", "the Moufang loop M(S3, 2)", loop_(moufang12()));
    // 0 is a right identity of x - y but not a left identity
    rejects(
        "loop",
        "Z_3 under subtraction with e = 0",
        &["left_identity"],
        quasigroup(cayley(3, |x, y| (x + 3 - y) % 3)).constant("e", 0),
    );
    rejects(
        "loop",
        "Z_3 under multiplication",
        &[
            "ldiv_after_mul",
            "mul_after_ldiv",
            "rdiv_after_mul",
            "mul_after_rdiv",
        ],
        loop_(zn_mul(3)),
    );
}

#[test]
fn seed_moufang_loop() {
    accepts("moufang_loop", "S3", loop_(s3()));
    accepts("moufang_loop", "the Klein four-group", loop_(klein()));
    accepts(
        "moufang_loop",
        "M(S3, 2), the smallest non-associative Moufang loop",
        loop_(moufang12()),
    );
    rejects(
        "moufang_loop",
        "a non-associative loop of order 5",
        &["moufang"],
        loop_(loop5()),
    );
    rejects(
        "moufang_loop",
        "Z_3 under subtraction with e = 0",
        &["left_identity", "moufang"],
        quasigroup(cayley(3, |x, y| (x + 3 - y) % 3)).constant("e", 0),
    );
}

#[test]
fn seed_rack() {
    // x * y = s(x) for a permutation s: a rack that is not a quandle.
    accepts(
        "rack",
        "the permutation rack x * y = x + 1 mod 3",
        rack(cayley(3, |x, _| (x + 1) % 3)),
    );
    accepts("rack", "the dihedral quandle R_3", rack(dihedral(3)));
    accepts("rack", "the trivial quandle", rack(cayley(3, |x, _| x)));
    rejects(
        "rack",
        "x * y = y (right multiplications not bijective)",
        &["rdiv_after_mul", "mul_after_rdiv"],
        rack(cayley(3, |_, y| y)),
    );
    rejects(
        "rack",
        "Z_3 under addition (not self-distributive)",
        &["right_self_distributive"],
        rack(zn_add(3)),
    );
}

/// Conjugation in S3, x * y = y^-1 x y: a quandle of order 6 that is not Latin.
fn conjugation_s3() -> Table {
    let g = s3();
    let inv = inverses(&g, 0);
    let m = |a: u32, b: u32| g[a as usize][b as usize];
    cayley(6, |x, y| m(m(inv[y as usize], x), y))
}

#[test]
fn seed_quandle() {
    accepts("quandle", "the dihedral quandle R_3", rack(dihedral(3)));
    accepts(
        "quandle",
        "the dihedral quandle R_4 (not Latin)",
        rack(dihedral(4)),
    );
    accepts(
        "quandle",
        "the trivial quandle (not Latin)",
        rack(cayley(3, |x, _| x)),
    );
    accepts(
        "quandle",
        "the conjugation quandle of S3 (not Latin)",
        rack(conjugation_s3()),
    );
    rejects(
        "quandle",
        "the permutation rack x * y = x + 1 mod 3",
        &["idempotent"],
        rack(cayley(3, |x, _| (x + 1) % 3)),
    );
    rejects(
        "quandle",
        "x * y = y (right multiplications not bijective)",
        &["rdiv_after_mul", "mul_after_rdiv"],
        rack(cayley(3, |_, y| y)),
    );
}

#[test]
fn seed_latin_quandle() {
    accepts(
        "latin_quandle",
        "the dihedral quandle R_3",
        latin_quandle(dihedral(3)),
    );
    accepts(
        "latin_quandle",
        "the dihedral quandle R_5",
        latin_quandle(dihedral(5)),
    );
    // the Alexander quandle x * y = w x + w^2 y on GF(4)
    accepts(
        "latin_quandle",
        "the Alexander quandle on GF(4)",
        latin_quandle(cayley(4, |x, y| gf4_mul(2, x) ^ gf4_mul(3, y))),
    );
    rejects(
        "latin_quandle",
        "the dihedral quandle R_4 (a non-Latin quandle)",
        &["ldiv_after_mul", "mul_after_ldiv"],
        latin_quandle(dihedral(4)),
    );
    rejects(
        "latin_quandle",
        "the trivial quandle on 2 elements",
        &["ldiv_after_mul", "mul_after_ldiv"],
        latin_quandle(cayley(2, |x, _| x)),
    );
    rejects(
        "latin_quandle",
        "the conjugation quandle of S3",
        &["ldiv_after_mul", "mul_after_ldiv"],
        latin_quandle(conjugation_s3()),
    );
}

// ---------------------------------------------------------------------------------------------
// Relational seeds.
// ---------------------------------------------------------------------------------------------

fn order(n: u32, le: impl Fn(u32, u32) -> bool + 'static) -> Interp {
    Interp::new(&[n]).rel2("le", le)
}

#[test]
fn seed_poset() {
    accepts("poset", "the 3-chain", order(3, chain(3)));
    accepts("poset", "an antichain", order(3, |x, y| x == y));
    accepts("poset", "the divisors of 12", order(6, divisors_of_12));
    rejects(
        "poset",
        "a preorder that is not antisymmetric",
        &["antisymmetric"],
        order(2, |_, _| true),
    );
    rejects(
        "poset",
        "0 <= 1 <= 2 without 0 <= 2",
        &["transitive"],
        order(3, |x, y| x == y || y == x + 1),
    );
    rejects(
        "poset",
        "the strict order <",
        &["reflexive"],
        order(3, |x, y| x < y),
    );
}

#[test]
fn seed_equivalence_relation() {
    let eq = |n: u32, r: fn(u32, u32) -> bool| Interp::new(&[n]).rel2("E", r);
    accepts(
        "equivalence_relation",
        "congruence mod 2",
        eq(5, |x, y| x % 2 == y % 2),
    );
    accepts("equivalence_relation", "equality", eq(3, |x, y| x == y));
    accepts(
        "equivalence_relation",
        "the full relation",
        eq(3, |_, _| true),
    );
    rejects(
        "equivalence_relation",
        "<= on a chain",
        &["symmetric"],
        eq(3, |x, y| x <= y),
    );
    rejects(
        "equivalence_relation",
        "|x - y| <= 1",
        &["transitive"],
        eq(3, |x, y| x.abs_diff(y) <= 1),
    );
    rejects(
        "equivalence_relation",
        "the empty relation",
        &["reflexive"],
        eq(2, |_, _| false),
    );
}

#[test]
fn seed_linear_order() {
    accepts("linear_order", "the 4-chain", order(4, chain(4)));
    accepts(
        "linear_order",
        "the reversed 3-chain",
        order(3, |x, y| x >= y),
    );
    rejects(
        "linear_order",
        "the antichain on 2 elements",
        &["total"],
        order(2, |x, y| x == y),
    );
    rejects(
        "linear_order",
        "the subsets of a 2-set",
        &["total"],
        order(4, subsets),
    );
    rejects(
        "linear_order",
        "the full relation on 2 elements",
        &["antisymmetric"],
        order(2, |_, _| true),
    );
}

// ---------------------------------------------------------------------------------------------
// Two-sorted seeds: vector spaces, Lie algebras, inner product spaces, categories.
// ---------------------------------------------------------------------------------------------

#[test]
fn seed_vector_space() {
    accepts("vector_space", "GF(2)^2 over GF(2)", space(2, 2));
    accepts("vector_space", "GF(3)^2 over GF(3)", space(3, 2));
    accepts("vector_space", "the zero space over GF(2)", space(2, 0));
    accepts("vector_space", "GF(5) over itself", space(5, 1));
    // GF(4) over itself, with a v = a^2 v: a twist by the Frobenius automorphism is still a vector space
    let gf4_line = |smul: fn(u32, u32) -> u32| {
        Interp::new(&[4, 4])
            .binary("+", |a, b| a ^ b)
            .binary("*", gf4_mul)
            .unary("neg", |a| a)
            .constant("k0", 0)
            .constant("k1", 1)
            .binary("vadd", |u, v| u ^ v)
            .unary("vneg", |u| u)
            .constant("v0", 0)
            .binary("smul", smul)
    };
    accepts("vector_space", "GF(4) over itself", gf4_line(gf4_mul));
    accepts(
        "vector_space",
        "GF(4) over itself, twisted by Frobenius",
        gf4_line(|a, v| gf4_mul(gf4_mul(a, a), v)),
    );
    // a v = a^3 v is multiplicative in a but not additive
    rejects(
        "vector_space",
        "GF(4) with a v = a^3 v",
        &["add_smul"],
        gf4_line(|a, v| gf4_mul(gf4_mul(gf4_mul(a, a), a), v)),
    );
    rejects(
        "vector_space",
        "GF(2)^2 with a v = v",
        &["add_smul"],
        space_with(2, 2, |_, v| v),
    );
    rejects(
        "vector_space",
        "GF(2)^2 with a v = 0",
        &["one_smul"],
        space_with(2, 2, |_, _| 0),
    );
    // Z_4 is a commutative ring, not a field: Z_4 as a module over itself is not a vector space
    let z4_module = Interp::new(&[4, 4])
        .binary("+", |a, b| (a + b) % 4)
        .binary("*", |a, b| (a * b) % 4)
        .unary("neg", |a| (4 - a) % 4)
        .constant("k0", 0)
        .constant("k1", 1)
        .binary("vadd", |u, v| (u + v) % 4)
        .unary("vneg", |u| (4 - u) % 4)
        .constant("v0", 0)
        .binary("smul", |a, v| (a * v) % 4);
    rejects(
        "vector_space",
        "Z_4 as a module over Z_4",
        &["mul_inverse"],
        z4_module,
    );
    let th = load("vector_space");
    assert_eq!(th.sig.sorts.len(), 2);
}

fn lie(p: u32, d: u32, br: impl Fn(u32, u32) -> u32 + 'static) -> Interp {
    space(p, d).binary("br", br)
}

#[test]
fn seed_lie_algebra() {
    accepts(
        "lie_algebra",
        "the abelian Lie algebra GF(2)^2",
        lie(2, 2, |_, _| 0),
    );
    // [e1, e2] = e1: the non-abelian 2-dimensional Lie algebra, over GF(3)
    accepts(
        "lie_algebra",
        "the non-abelian 2-dim Lie algebra over GF(3)",
        lie(3, 2, bracket(3, 2, BTreeMap::from([((0, 1), 1)]))),
    );
    // the cross product on GF(3)^3: [e1,e2] = e3, [e1,e3] = -e2, [e2,e3] = e1
    let e = |i: u32| 3u32.pow(i);
    let cross = bracket(
        3,
        3,
        BTreeMap::from([((0, 1), e(2)), ((0, 2), 2 * e(1)), ((1, 2), e(0))]),
    );
    accepts(
        "lie_algebra",
        "GF(3)^3 with the cross product",
        lie(3, 3, cross),
    );
    // In characteristic 2 a symmetric bracket is anticommutative but need not be alternating:
    // [u, v] = u1 v1 e2 is bilinear and satisfies Jacobi, yet [e1, e1] = e2.
    rejects(
        "lie_algebra",
        "GF(2)^2 with [u,v] = u1 v1 e2",
        &["alternating"],
        lie(2, 2, |u, v| ((u & 1) * (v & 1)) << 1),
    );
    // alternating and bilinear but not Jacobi: [e1,e3] = e1, [e2,e3] = e3, [e1,e2] = 0 over GF(2)
    rejects(
        "lie_algebra",
        "an alternating bracket on GF(2)^3 violating Jacobi",
        &["jacobi"],
        lie(
            2,
            3,
            bracket(2, 3, BTreeMap::from([((0, 2), 1), ((1, 2), 4)])),
        ),
    );
    // over GF(2), [u, v] = e1 exactly when u, v are nonzero and distinct is det(u, v) e1: a Lie algebra
    accepts(
        "lie_algebra",
        "the non-abelian 2-dim Lie algebra over GF(2)",
        lie(2, 2, |u, v| u32::from(u != 0 && v != 0 && u != v)),
    );
    // [e1, e2] = e1 and every other bracket 0 (not even [e1 + e2, e2]): alternating, not bilinear
    rejects(
        "lie_algebra",
        "GF(2)^2 with only [e1, e2] = e1 nonzero",
        &["br_add_left", "br_add_right"],
        lie(2, 2, |u, v| u32::from(u == 1 && v == 2)),
    );
}

fn inner(p: u32, d: u32, f: impl Fn(u32, u32) -> u32 + 'static) -> Interp {
    space(p, d).binary("form", f)
}

#[test]
fn seed_inner_product_space() {
    accepts(
        "inner_product_space",
        "GF(3) with <u,v> = uv",
        inner(3, 1, form(3, 1, identity_gram(1))),
    );
    accepts(
        "inner_product_space",
        "GF(2) with <u,v> = uv",
        inner(2, 1, form(2, 1, identity_gram(1))),
    );
    // -1 is not a square mod 3, so x^2 + y^2 = 0 only for x = y = 0
    accepts(
        "inner_product_space",
        "GF(3)^2 with the dot product",
        inner(3, 2, form(3, 2, identity_gram(2))),
    );
    // -2 is not a square mod 5, so x^2 + 2y^2 is anisotropic
    accepts(
        "inner_product_space",
        "GF(5)^2 with x1 y1 + 2 x2 y2",
        inner(5, 2, form(5, 2, vec![vec![1, 0], vec![0, 2]])),
    );
    accepts(
        "inner_product_space",
        "the zero space over GF(3)",
        inner(3, 0, |_, _| 0),
    );
    // Chevalley-Warning: (1,1,1).(1,1,1) = 3 = 0 in GF(3)
    rejects(
        "inner_product_space",
        "GF(3)^3 with the dot product",
        &["anisotropic"],
        inner(3, 3, form(3, 3, identity_gram(3))),
    );
    rejects(
        "inner_product_space",
        "GF(2)^2 with the dot product",
        &["anisotropic"],
        inner(2, 2, form(2, 2, identity_gram(2))),
    );
    // -1 = 2^2 is a square mod 5: (1,2).(1,2) = 5 = 0
    rejects(
        "inner_product_space",
        "GF(5)^2 with the dot product",
        &["anisotropic"],
        inner(5, 2, form(5, 2, identity_gram(2))),
    );
    // the dot product plus the alternating form u1 v2 - u2 v1: anisotropic and bilinear, not symmetric
    rejects(
        "inner_product_space",
        "a non-symmetric anisotropic form on GF(3)^2",
        &["form_symmetric"],
        inner(3, 2, form(3, 2, vec![vec![1, 1], vec![2, 1]])),
    );
    rejects(
        "inner_product_space",
        "the zero form on GF(3)",
        &["anisotropic"],
        inner(3, 1, |_, _| 0),
    );
    // <u, v> = 1 for all u, v: symmetric, anisotropic, not additive
    rejects(
        "inner_product_space",
        "the constant form 1 on GF(3)",
        &[
            "form_add_left",
            "form_add_right",
            "form_smul_left",
            "form_smul_right",
        ],
        inner(3, 1, |_, _| 1),
    );
}

#[test]
fn seed_category() {
    // one object, one arrow
    accepts(
        "category",
        "the terminal category",
        category(1, vec![0], vec![0], vec![0], |_, _| Some(0)),
    );
    // the arrow category 0 -> 1: arrows id0 = 0, id1 = 1, f = 2
    let arrow = || {
        category(2, vec![0, 1, 0], vec![0, 1, 1], vec![0, 1], |f, g| {
            match (f, g) {
                (0, 0) => Some(0),
                (1, 1) => Some(1),
                (0, 2) => Some(2),
                (2, 1) => Some(2),
                _ => None,
            }
        })
    };
    accepts("category", "the arrow category", arrow());
    // the group Z_3 as a one-object category
    accepts(
        "category",
        "Z_3 as a one-object category",
        category(1, vec![0; 3], vec![0; 3], vec![0], |f, g| Some((f + g) % 3)),
    );
    // the chain 0 < 1 < 2 as a category: arrows are the pairs i <= j, coded i * 3 + j
    let pairs: Vec<(u32, u32)> = (0..3).flat_map(|i| (i..3).map(move |j| (i, j))).collect();
    let code = pairs.clone();
    let chain_cat = category(
        3,
        pairs.iter().map(|p| p.0).collect(),
        pairs.iter().map(|p| p.1).collect(),
        (0..3)
            .map(|i| pairs.iter().position(|p| *p == (i, i)).unwrap() as u32)
            .collect(),
        move |f, g| {
            let ((a, b), (c, d)) = (code[f as usize], code[g as usize]);
            (b == c).then(|| code.iter().position(|p| *p == (a, d)).unwrap() as u32)
        },
    );
    accepts("category", "the 3-chain as a category", chain_cat);

    // The indiscrete category on 2 objects (one arrow a -> b for every a, b, coded 2a + b), but
    // composing every pair f, g to the arrow dom(f) -> cod(g): total composition.
    rejects(
        "category",
        "a total composition on non-composable pairs",
        &["comp_composable"],
        category(2, vec![0, 0, 1, 1], vec![0, 1, 0, 1], vec![0, 3], |f, g| {
            Some((f & 2) | (g & 1))
        }),
    );
    // The arrow category with the composite of id1 then id0 left undefined is fine; leaving out a
    // composable pair is not.
    rejects(
        "category",
        "the arrow category without f o id0",
        &["comp_total", "unit_dom"],
        category(2, vec![0, 1, 0], vec![0, 1, 1], vec![0, 1], |f, g| {
            match (f, g) {
                (0, 0) => Some(0),
                (1, 1) => Some(1),
                (2, 1) => Some(2),
                _ => None,
            }
        }),
    );
    // a unital but non-associative composition on one object
    let nonassoc = [vec![0, 1, 2], vec![1, 0, 0], vec![2, 0, 0]];
    rejects(
        "category",
        "one object with a non-associative unital composition",
        &["assoc"],
        category(1, vec![0; 3], vec![0; 3], vec![0], move |f, g| {
            Some(nonassoc[f as usize][g as usize])
        }),
    );
    // Z_2 with the wrong identity
    rejects(
        "category",
        "Z_2 as a one-object category with id = 1",
        &["unit_dom", "unit_cod"],
        category(1, vec![0; 2], vec![0; 2], vec![1], |f, g| Some((f + g) % 2)),
    );
    // the identity of object 1 declared with domain 0
    rejects(
        "category",
        "the arrow category with id(1) = f",
        &["id_dom", "unit_dom", "unit_cod"],
        category(2, vec![0, 1, 0], vec![0, 1, 1], vec![0, 2], |f, g| {
            match (f, g) {
                (0, 0) => Some(0),
                (1, 1) => Some(1),
                (0, 2) => Some(2),
                (2, 1) => Some(2),
                _ => None,
            }
        }),
    );
    // the composite of id0 then f given the wrong codomain
    rejects(
        "category",
        "a composite with the wrong codomain",
        &["comp_cod", "unit_dom", "assoc"],
        category(2, vec![0, 1, 0], vec![0, 1, 1], vec![0, 1], |f, g| {
            match (f, g) {
                (0, 0) | (0, 2) => Some(0),
                (1, 1) => Some(1),
                (2, 1) => Some(2),
                _ => None,
            }
        }),
    );
    let th = load("category");
    assert_eq!(th.sig.sorts.len(), 2);
    assert!(th.sig.rel("comp").is_some(), "composition is a relation");
    assert!(
        th.sig.func("comp").is_none(),
        "composition is never a total function"
    );
}

// ---------------------------------------------------------------------------------------------
// Spectra by brute force against the ground-truth table.
// ---------------------------------------------------------------------------------------------

/// (iso, labeled) counts per (row name, n) from tests/data/ground_truth.tsv.
type KnownCounts = HashMap<(String, u32), (Option<u64>, Option<u64>)>;

fn ground_truth() -> &'static KnownCounts {
    static GT: std::sync::OnceLock<KnownCounts> = std::sync::OnceLock::new();
    GT.get_or_init(read_ground_truth)
}

fn read_ground_truth() -> KnownCounts {
    let small = |count: Option<u128>| count.and_then(|c| u64::try_from(c).ok());
    birkhoff_engine::ground_truth::rows()
        .into_iter()
        .map(|r| ((r.theory, r.n), (small(r.iso), small(r.labeled))))
        .collect()
}

fn ground_truth_rows() -> BTreeSet<String> {
    ground_truth()
        .keys()
        .map(|(name, _)| name.clone())
        .collect()
}

fn permutations(n: u32) -> Vec<Vec<u32>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..n as usize {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// The least image of the operation tables and relations under a relabelling of the elements.
fn canonical(n: u32, perms: &[Vec<u32>], ops: &[&Table], rels: &[&Vec<Vec<bool>>]) -> Vec<u32> {
    let mut best: Option<Vec<u32>> = None;
    for p in perms {
        let mut img = Vec::new();
        for t in ops {
            let mut u = vec![vec![0; n as usize]; n as usize];
            for x in 0..n as usize {
                for y in 0..n as usize {
                    u[p[x] as usize][p[y] as usize] = p[t[x][y] as usize];
                }
            }
            img.extend(u.into_iter().flatten());
        }
        for r in rels {
            let mut u = vec![vec![false; n as usize]; n as usize];
            for x in 0..n as usize {
                for y in 0..n as usize {
                    u[p[x] as usize][p[y] as usize] = r[x][y];
                }
            }
            img.extend(u.into_iter().flatten().map(u32::from));
        }
        if best.as_ref().is_none_or(|b| img < *b) {
            best = Some(img);
        }
    }
    best.unwrap()
}

fn all_tables(n: u32) -> Vec<Table> {
    let cells = (n * n) as usize;
    let total = (n as u64).pow(cells as u32);
    (0..total)
        .map(|mut k| {
            let mut t = vec![vec![0; n as usize]; n as usize];
            for c in 0..cells {
                t[c / n as usize][c % n as usize] = (k % n as u64) as u32;
                k /= n as u64;
            }
            t
        })
        .collect()
}

/// Counts (iso, labeled) models of `seed` among the structures built from every table of size n.
fn count_by_table(seed: &str, n: u32, build: fn(Table) -> Interp) -> (u64, u64) {
    let th = load(seed);
    let perms = permutations(n);
    let mut classes = HashSet::new();
    let mut labeled = 0;
    for t in all_tables(n) {
        if check(&th, &build(t.clone())).is_ok() {
            labeled += 1;
            classes.insert(canonical(n, &perms, &[&t], &[]));
        }
    }
    (classes.len() as u64, labeled)
}

/// Compares a brute-force count with the ground truth (where it has the number) or `expected`.
#[track_caller]
fn expect_counts(
    seed: &str,
    row: Option<&str>,
    n: u32,
    got: (u64, u64),
    expected_iso: Option<u64>,
) {
    let gt = row.and_then(|r| ground_truth().get(&(r.to_string(), n)).copied());
    if let Some((iso, labeled)) = gt {
        if let Some(iso) = iso {
            assert_eq!(
                got.0, iso,
                "{seed}: models of size {n} up to isomorphism (ground truth)"
            );
        }
        if let Some(labeled) = labeled {
            assert_eq!(
                got.1, labeled,
                "{seed}: labeled models of size {n} (ground truth)"
            );
        }
    }
    if let Some(iso) = expected_iso {
        assert_eq!(got.0, iso, "{seed}: models of size {n} up to isomorphism");
    }
    assert!(
        gt.is_some() || expected_iso.is_some(),
        "{seed}: nothing to compare with at size {n}"
    );
}

#[test]
fn spectra_of_one_operation_seeds() {
    type Case = (
        &'static str,
        Option<&'static str>,
        fn(Table) -> Interp,
        u32,
        &'static [u64],
    );
    // (seed, ground-truth row, builder, largest n, iso counts for n = 1.. when the row has none)
    let cases: &[Case] = &[
        ("magma", Some("magma"), magma, 2, &[]),
        ("comm_magma", Some("comm_magma"), magma, 3, &[]),
        ("semigroup", Some("semigroup"), magma, 3, &[]),
        ("comm_semigroup", Some("comm_semigroup"), magma, 3, &[]),
        ("band", Some("band"), magma, 3, &[]),
        ("semilattice", Some("semilattice"), magma, 3, &[]),
        ("monoid", Some("monoid"), monoid, 3, &[]),
        ("comm_monoid", None, monoid, 3, &[1, 2, 5]),
        ("group", Some("group"), group, 3, &[]),
        ("abelian_group", Some("abelian_group"), group, 3, &[]),
        (
            "inverse_semigroup",
            Some("inverse_semigroup"),
            inverse_semigroup,
            3,
            &[],
        ),
        ("quasigroup", Some("quasigroup"), quasigroup, 3, &[]),
        ("loop", Some("loop"), loop_, 3, &[]),
        ("moufang_loop", Some("moufang_loop"), loop_, 3, &[]),
        ("rack", Some("rack"), rack, 3, &[]),
        ("quandle", Some("quandle"), rack, 3, &[]),
        (
            "latin_quandle",
            Some("latin_quandle"),
            latin_quandle,
            3,
            &[],
        ),
    ];
    for &(seed, row, build, max_n, iso) in cases {
        for n in 1..=max_n {
            let got = count_by_table(seed, n, build);
            expect_counts(seed, row, n, got, iso.get(n as usize - 1).copied());
        }
    }
}

/// All binary relations on n elements, as boolean matrices.
fn all_relations(n: u32) -> Vec<Vec<Vec<bool>>> {
    let cells = (n * n) as usize;
    (0..1u64 << cells)
        .map(|k| {
            (0..n as usize)
                .map(|x| {
                    (0..n as usize)
                        .map(|y| (k >> (x * n as usize + y)) & 1 == 1)
                        .collect()
                })
                .collect()
        })
        .collect()
}

#[test]
fn spectra_of_relational_seeds() {
    /// A seed, its relation symbol, its row of the ground-truth table, the largest size
    /// checked, and iso counts from size 1 checked besides the table's.
    type Case<'a> = (&'a str, &'a str, Option<&'a str>, u32, &'a [u64]);
    let cases: &[Case] = &[
        ("poset", "le", Some("poset"), 4, &[]),
        ("equivalence_relation", "E", Some("equivalence"), 4, &[]),
        ("linear_order", "le", None, 4, &[1, 1, 1, 1]),
    ];
    for &(seed, sym, row, max_n, iso) in cases {
        let th = load(seed);
        for n in 1..=max_n {
            let perms = permutations(n);
            let mut classes = HashSet::new();
            let mut labeled = 0;
            for r in all_relations(n) {
                let m = r.clone();
                let i = Interp::new(&[n]).rel2(sym, move |x, y| m[x as usize][y as usize]);
                if check(&th, &i).is_ok() {
                    labeled += 1;
                    classes.insert(canonical(n, &perms, &[], &[&r]));
                }
            }
            if seed == "linear_order" {
                assert_eq!(
                    labeled,
                    (1..=n as u64).product::<u64>(),
                    "linear orders: n! labeled"
                );
            }
            expect_counts(
                seed,
                row,
                n,
                (classes.len() as u64, labeled),
                iso.get(n as usize - 1).copied(),
            );
        }
    }
}

/// All partial orders on n elements, enumerated natively.
fn all_partial_orders(n: u32) -> Vec<Vec<Vec<bool>>> {
    let n = n as usize;
    let off: Vec<(usize, usize)> = (0..n)
        .flat_map(|x| (0..n).filter(move |&y| y != x).map(move |y| (x, y)))
        .collect();
    let mut out = Vec::new();
    for k in 0..1u64 << off.len() {
        let mut r = vec![vec![false; n]; n];
        for (x, row) in r.iter_mut().enumerate() {
            row[x] = true;
        }
        for (b, &(x, y)) in off.iter().enumerate() {
            r[x][y] = (k >> b) & 1 == 1;
        }
        let antisym = (0..n).all(|x| (0..n).all(|y| x == y || !(r[x][y] && r[y][x])));
        let trans =
            (0..n).all(|x| (0..n).all(|y| (0..n).all(|z| !(r[x][y] && r[y][z]) || r[x][z])));
        if antisym && trans {
            out.push(r);
        }
    }
    out
}

#[test]
fn spectra_of_lattice_seeds() {
    // Every lattice is determined by its order, so building meet and join from every partial order
    // finds every lattice; the structures are told apart by their operation tables (complement and
    // bounds are determined by meet and join).
    let cases: &[(&str, &str)] = &[
        ("lattice", "lattice"),
        ("distributive_lattice", "distributive_lattice"),
        ("modular_lattice", "modular_lattice"),
        ("boolean_algebra", "boolean_algebra"),
    ];
    for n in 1..=5u32 {
        let perms = permutations(n);
        let orders = all_partial_orders(n);
        for &(seed, row) in cases {
            let th = load(seed);
            let mut classes = HashSet::new();
            let mut labeled = HashSet::new();
            for r in &orders {
                let m = r.clone();
                let le = move |x: u32, y: u32| m[x as usize][y as usize];
                let (meet, join) = meet_join(n, &le);
                let i = if seed == "boolean_algebra" {
                    boolean_from_order(n, le)
                } else {
                    lattice_from_order(n, le)
                };
                if check(&th, &i).is_ok() {
                    classes.insert(canonical(n, &perms, &[&meet, &join], &[]));
                    labeled.insert((meet, join));
                }
            }
            expect_counts(
                seed,
                Some(row),
                n,
                (classes.len() as u64, labeled.len() as u64),
                None,
            );
        }
    }
}

#[test]
fn spectra_of_ring_seeds() {
    // Every + table that is an abelian group, with every * table: n <= 3.
    let cases: &[(&str, &str, bool)] = &[
        ("ring", "ring", false),
        ("ring_unital", "ring_unital", true),
        ("comm_ring", "comm_ring", false),
        ("comm_ring_unital", "comm_ring_unital", true),
        ("field", "field", true),
    ];
    for n in 1..=3u32 {
        let perms = permutations(n);
        let tables = all_tables(n);
        let adds: Vec<&Table> = tables
            .iter()
            .filter(|a| {
                let Some(z) = identity_of(a) else {
                    return false;
                };
                let m = |x: u32, y: u32| a[x as usize][y as usize];
                (0..n).all(|x| {
                    (0..n).all(|y| {
                        m(x, y) == m(y, x) && (0..n).all(|w| m(m(x, y), w) == m(x, m(y, w)))
                    })
                }) && (0..n).all(|x| (0..n).any(|y| m(x, y) == z))
            })
            .collect();
        for &(seed, row, unital) in cases {
            let th = load(seed);
            let mut classes = HashSet::new();
            for a in &adds {
                for m in &tables {
                    let (a2, m2) = ((*a).clone(), m.clone());
                    let i = if unital {
                        unital_ring(
                            n,
                            move |x, y| a2[x as usize][y as usize],
                            move |x, y| m2[x as usize][y as usize],
                        )
                    } else {
                        ring(
                            n,
                            move |x, y| a2[x as usize][y as usize],
                            move |x, y| m2[x as usize][y as usize],
                        )
                    };
                    if check(&th, &i).is_ok() {
                        classes.insert(canonical(n, &perms, &[*a, m], &[]));
                    }
                }
            }
            // the labeled column of the ground truth has no ring rows; compare the iso counts
            let gt = ground_truth()[&(row.to_string(), n)];
            assert_eq!(
                Some(classes.len() as u64),
                gt.0,
                "{seed}: rings of size {n} up to isomorphism"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Metadata.
// ---------------------------------------------------------------------------------------------

fn snake_to_camel(s: &str) -> String {
    s.split('_')
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect()
}

#[test]
fn there_are_enough_seeds_and_all_load() {
    let all = seeds::all();
    assert!(all.len() >= 32, "only {} seeds", all.len());
    for s in all {
        let th = load(s.name);
        assert_eq!(
            th.name,
            snake_to_camel(s.name),
            "theory name vs. file stem {}",
            s.name
        );
    }
    // the embedded seeds are exactly the files in seeds/
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../seeds");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "bk").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    on_disk.sort();
    let mut embedded: Vec<String> = all.iter().map(|s| s.name.to_string()).collect();
    embedded.sort();
    assert_eq!(on_disk, embedded);
}

#[test]
fn every_ground_truth_row_maps_to_exactly_one_seed() {
    let rows = ground_truth_rows();
    assert!(!rows.is_empty());
    let mut claimed: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for s in seeds::all() {
        let th = load(s.name);
        if let Some(gt) = th.meta.get("ground_truth") {
            for r in gt.split(',').map(str::trim).filter(|r| !r.is_empty()) {
                assert!(
                    rows.contains(r),
                    "seed {} claims ground-truth row `{r}`, which the table does not have",
                    s.name
                );
                claimed.entry(r.to_string()).or_default().push(s.name);
            }
        }
    }
    for r in &rows {
        match claimed.get(r).map(Vec::as_slice) {
            Some([_]) => {}
            Some(many) => panic!("ground-truth row `{r}` is claimed by several seeds: {many:?}"),
            None => panic!("no seed covers ground-truth row `{r}`"),
        }
    }
}

#[test]
fn every_seed_has_doc_reference_and_oeis() {
    for s in seeds::all() {
        let th = load(s.name);
        assert!(
            th.doc.trim().len() >= 40,
            "{}: the doc string should explain the structure",
            s.name
        );
        let reference = th.meta.get("reference").map(String::as_str).unwrap_or("");
        assert!(
            reference.trim().len() >= 20,
            "{}: meta reference is missing",
            s.name
        );
        if th.sig.is_single_sorted() {
            let oeis = th
                .meta
                .get("oeis")
                .unwrap_or_else(|| panic!("{}: meta oeis is missing", s.name));
            assert!(
                oeis.len() == 7
                    && oeis.starts_with('A')
                    && oeis[1..].chars().all(|c| c.is_ascii_digit()),
                "{}: meta oeis `{oeis}` is not an A-number",
                s.name
            );
        }
        for a in &th.axioms {
            let auto = a
                .name
                .strip_prefix("ax")
                .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()));
            assert!(
                !auto,
                "{}: axiom `{}` should have a descriptive name",
                s.name, a.name
            );
        }
    }
}

#[test]
fn inner_product_space_doc_explains_anisotropy() {
    let doc = load("inner_product_space").doc;
    for needle in ["anisotrop", "first-order", "Chevalley", "Warning", "2"] {
        assert!(
            doc.contains(needle),
            "the inner product space doc should mention `{needle}`"
        );
    }
}
