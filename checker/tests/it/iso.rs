//! Canonical forms and automorphism groups against brute force: every permutation tuple is tried
//! (tests/common), so nothing here trusts `iso` to judge `iso`. Random structures are biased
//! towards symmetry (few distinct values, tables made invariant under a random permutation),
//! since asymmetric structures exercise little of the search tree.

use crate::common::*;
use birkhoff_checker::{
    canonical_form,
    finder::{enumerate, Options},
    isomorphic, labelled_copies, relabel, Budget, Status,
};
use birkhoff_engine::signature::{Fixity, FuncDecl, RelDecl, Signature, SortId};
use birkhoff_engine::structure::{table_index, table_len, tuples};
use birkhoff_engine::{Structure, Theory};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn theory(src: &str) -> Theory {
    Theory::parse(src, "test.bk").unwrap_or_else(|e| panic!("{src}\n{e}"))
}

/// Signatures for random structures: functions and relations of arities 0 to 3, one or two sorts.
const SIGNATURES: &[&str] = &[
    "theory Magma\nfunc * : 2",
    "theory UnaryConst\nfunc g : 1\nconst c",
    "theory Digraph\nrel R : 2\nrel P : 1",
    "theory Mixed\nfunc * : 2\nrel R : 2\nconst c",
    "theory Ternary\nfunc t : 3\nrel T : 3",
    "theory TwoSorted\nsort A, B\nfunc f : A -> B\nfunc g : B B -> A\nrel R : A B\nconst a : A",
    "theory Bipartite\nsort A, B\nrel E : A B\nfunc h : A -> A",
    "theory Action\nsort G, X\nfunc m : G G -> G\nfunc act : G X -> X\nrel Q : X X",
];

/// A signature with a nullary relation (which the theory language need not express).
fn nullary_signature() -> Signature {
    let mut sig = Signature::single_sorted();
    sig.funcs.push(FuncDecl {
        name: "g".into(),
        args: vec![SortId(0)],
        result: SortId(0),
        fixity: Fixity::Prefix,
    });
    sig.rels.push(RelDecl {
        name: "p".into(),
        args: vec![],
        fixity: Fixity::Prefix,
    });
    sig.rels.push(RelDecl {
        name: "P".into(),
        args: vec![SortId(0)],
        fixity: Fixity::Prefix,
    });
    sig
}

// ---------------------------------------------------------------------------------------------
// Random structures.
// ---------------------------------------------------------------------------------------------

/// splitmix64: a small deterministic generator driven by a proptest seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }

    fn perm(&mut self, n: u32) -> Vec<u32> {
        let mut p: Vec<u32> = (0..n).collect();
        for i in (1..n as usize).rev() {
            let j = self.below(i as u32 + 1) as usize;
            p.swap(i, j);
        }
        p
    }

    fn perms(&mut self, sizes: &[u32]) -> Vec<Vec<u32>> {
        sizes.iter().map(|&n| self.perm(n)).collect()
    }
}

/// A random structure. Function values come from a random subset of `alphabet` elements of the
/// result sort; relations have a random density among 0, 1/8, 1/2, 7/8 and 1. With `symmetric`,
/// the tables are then made invariant under a random permutation tuple (when that is possible).
fn random_structure(
    sig: &Signature,
    sizes: &[u32],
    rng: &mut Rng,
    alphabet: u32,
    symmetric: bool,
) -> Structure {
    let mut s = Structure::zeroed(sig, sizes);
    for (fi, f) in sig.funcs.iter().enumerate() {
        let m = sizes[f.result.0 as usize];
        let k = alphabet.clamp(1, m);
        let letters: Vec<u32> = rng.perm(m)[..k as usize].to_vec();
        for v in s.funcs[fi].iter_mut() {
            *v = letters[rng.below(k) as usize];
        }
    }
    for t in s.rels.iter_mut() {
        let density = [0, 1, 4, 7, 8][rng.below(5) as usize];
        for b in t.iter_mut() {
            *b = rng.below(8) < density;
        }
    }
    if symmetric {
        let g = rng.perms(sizes);
        if let Some(sym) = make_invariant(sig, &s, &g, rng) {
            debug_assert!(permute(sig, &sym, &g) == sym);
            return sym;
        }
    }
    s
}

/// Applies `g` `times` times to element `x`.
fn power(g: &[u32], x: u32, times: usize) -> u32 {
    (0..times).fold(x, |y, _| g[y as usize])
}

/// A structure close to `s` that has the automorphism `g`: each orbit of argument tuples under
/// `<g>` takes its values from its first tuple. `None` when some orbit of length `k` has no
/// admissible function value (an element fixed by `g^k`).
fn make_invariant(
    sig: &Signature,
    s: &Structure,
    g: &[Vec<u32>],
    rng: &mut Rng,
) -> Option<Structure> {
    let sizes = &s.sizes;
    let mut out = s.clone();
    let image = |args: &[u32], srts: &[SortId]| -> Vec<u32> {
        args.iter()
            .zip(srts)
            .map(|(&a, st)| g[st.0 as usize][a as usize])
            .collect()
    };
    for (fi, f) in sig.funcs.iter().enumerate() {
        let gr = &g[f.result.0 as usize];
        let mut done = vec![false; table_len(sizes, &f.args)];
        for t in tuples(sizes, &f.args) {
            let i0 = table_index(sizes, &f.args, &t);
            if done[i0] {
                continue;
            }
            let mut orbit = vec![t.clone()];
            loop {
                let next = image(orbit.last().expect("non-empty"), &f.args);
                if next == t {
                    break;
                }
                orbit.push(next);
            }
            let k = orbit.len();
            let mut v = s.funcs[fi][i0];
            if power(gr, v, k) != v {
                let ok: Vec<u32> = (0..gr.len() as u32)
                    .filter(|&x| power(gr, x, k) == x)
                    .collect();
                if ok.is_empty() {
                    return None;
                }
                v = ok[rng.below(ok.len() as u32) as usize];
            }
            for (j, u) in orbit.iter().enumerate() {
                let idx = table_index(sizes, &f.args, u);
                done[idx] = true;
                out.funcs[fi][idx] = power(gr, v, j);
            }
        }
    }
    for (ri, r) in sig.rels.iter().enumerate() {
        let mut done = vec![false; table_len(sizes, &r.args)];
        for t in tuples(sizes, &r.args) {
            let i0 = table_index(sizes, &r.args, &t);
            if done[i0] {
                continue;
            }
            let b = s.rels[ri][i0];
            let mut u = t.clone();
            loop {
                let idx = table_index(sizes, &r.args, &u);
                done[idx] = true;
                out.rels[ri][idx] = b;
                u = image(&u, &r.args);
                if u == t {
                    break;
                }
            }
        }
    }
    Some(out)
}

/// Changes one random table entry.
fn mutate(sig: &Signature, s: &Structure, rng: &mut Rng) -> Structure {
    let mut out = s.clone();
    let f_cells: usize = out.funcs.iter().map(Vec::len).sum();
    let r_cells: usize = out.rels.iter().map(Vec::len).sum();
    let mut k = rng.below((f_cells + r_cells) as u32) as usize;
    for (fi, t) in out.funcs.iter_mut().enumerate() {
        if k < t.len() {
            let m = s.sizes[sig.funcs[fi].result.0 as usize];
            t[k] = (t[k] + 1 + rng.below(m.max(2) - 1)) % m;
            return out;
        }
        k -= t.len();
    }
    for t in out.rels.iter_mut() {
        if k < t.len() {
            t[k] = !t[k];
            return out;
        }
        k -= t.len();
    }
    out
}

fn is_permutation(p: &[u32]) -> bool {
    let mut seen = vec![false; p.len()];
    p.iter()
        .all(|&x| (x as usize) < p.len() && !std::mem::replace(&mut seen[x as usize], true))
}

/// Checks what holds for any structure: the labelling is a permutation tuple that maps `s` onto
/// its form, `relabel` agrees with the definition, and the form is its own canonical form.
fn check_canonical_basics(sig: &Signature, s: &Structure) -> birkhoff_checker::Canonical {
    let c = canonical_form(sig, s);
    assert_eq!(c.labelling.len(), s.sizes.len());
    for (p, &n) in c.labelling.iter().zip(&s.sizes) {
        assert_eq!(p.len(), n as usize);
        assert!(is_permutation(p), "labelling {p:?} is not a permutation");
    }
    assert_eq!(
        relabel(sig, s, &c.labelling),
        c.form,
        "relabelling by the labelling must give the form"
    );
    assert_eq!(
        permute(sig, s, &c.labelling),
        c.form,
        "birkhoff_checker::relabel disagrees with the definition of relabelling"
    );
    let again = canonical_form(sig, &c.form);
    assert_eq!(
        again.form, c.form,
        "the canonical form of a canonical form is itself"
    );
    assert_eq!(again.automorphisms, c.automorphisms);
    assert!(c.automorphisms >= 1);
    c
}

fn sizes_strategy(max_single: u32, max_each: u32) -> impl Strategy<Value = (usize, Vec<u32>)> {
    (0..SIGNATURES.len()).prop_flat_map(move |i| {
        let sorts = if SIGNATURES[i].contains("sort ") {
            2
        } else {
            1
        };
        let max = if sorts == 1 { max_single } else { max_each };
        (Just(i), prop::collection::vec(1..=max, sorts))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// canonical_form(π(M)) = canonical_form(M) for random π, up to 9 elements per sort.
    #[test]
    fn canonical_form_is_invariant_under_relabelling(
        (sig_index, sizes) in sizes_strategy(9, 6),
        seed in any::<u64>(),
        alphabet in 1u32..=9,
        symmetric in any::<bool>(),
    ) {
        let sig = theory(SIGNATURES[sig_index]).sig;
        let mut rng = Rng(seed);
        let s = random_structure(&sig, &sizes, &mut rng, alphabet, symmetric);
        let c = check_canonical_basics(&sig, &s);
        for _ in 0..3 {
            let pi = rng.perms(&sizes);
            let r = relabel(&sig, &s, &pi);
            prop_assert_eq!(&r, &permute(&sig, &s, &pi), "birkhoff_checker::relabel disagrees with the definition");
            let cr = canonical_form(&sig, &r);
            prop_assert_eq!(&cr.form, &c.form, "relabelled structure got another form; sig {}, sizes {:?}", SIGNATURES[sig_index], sizes);
            prop_assert_eq!(cr.automorphisms, c.automorphisms);
            prop_assert!(isomorphic(&sig, &s, &r));
        }
    }

    /// |Aut|, isomorphism and orbits against trying every permutation tuple (at most 6! of them).
    #[test]
    fn automorphisms_and_isomorphism_agree_with_brute_force(
        (sig_index, sizes) in sizes_strategy(6, 4),
        seed in any::<u64>(),
        alphabet in 1u32..=6,
        symmetric in any::<bool>(),
        mutations in 0usize..3,
    ) {
        let sig = theory(SIGNATURES[sig_index]).sig;
        prop_assume!(sizes.iter().map(|&n| factorial(n)).product::<u128>() <= 720);
        let perms = perm_tuples(&sizes);
        let mut rng = Rng(seed);
        let a = random_structure(&sig, &sizes, &mut rng, alphabet, symmetric);
        let ca = check_canonical_basics(&sig, &a);
        prop_assert_eq!(ca.automorphisms, brute_automorphisms(&sig, &a, &perms), "|Aut| of {:?}, sig {}", a, SIGNATURES[sig_index]);
        // The orbit (which Z3 enumeration blocks) is every relabelling, each once.
        let orbit: BTreeSet<Structure> = perms.iter().map(|p| relabel(&sig, &a, p)).collect();
        let listed = birkhoff_checker::orbit(&sig, &a, 720).expect("at most 720 relabellings");
        prop_assert_eq!(Some(listed.len() as u128), labelled_copies(&sizes, ca.automorphisms));
        prop_assert_eq!(listed.into_iter().collect::<BTreeSet<_>>(), orbit);
        let tries = sizes.iter().map(|&n| factorial(n)).product::<u128>() as u64;
        prop_assert!(birkhoff_checker::orbit(&sig, &a, tries - 1).is_none(), "more relabellings than the limit");
        // A relabelled copy with a few entries changed: sometimes still isomorphic, mostly not.
        let mut b = relabel(&sig, &a, &rng.perms(&sizes));
        for _ in 0..mutations {
            b = mutate(&sig, &b, &mut rng);
        }
        let cb = canonical_form(&sig, &b);
        let truth = brute_isomorphic(&sig, &a, &b, &perms);
        prop_assert_eq!(ca.form == cb.form, truth, "forms equal vs. isomorphic for\n{:?}\n{:?}", a, b);
        prop_assert_eq!(isomorphic(&sig, &a, &b), truth);
        prop_assert_eq!(cb.automorphisms, brute_automorphisms(&sig, &b, &perms));
    }
}

// ---------------------------------------------------------------------------------------------
// Exhaustive checks: every structure of small signatures and sizes.
// ---------------------------------------------------------------------------------------------

/// Canonises every structure of the signature at these sizes and compares with brute force:
/// equal forms exactly for brute-force-isomorphic structures, |Aut| by counting, and
/// Σ over classes of Π n_i! / |Aut| = the number of structures. Returns the number of classes.
fn exhaustive(sig: &Signature, sizes: &[u32]) -> usize {
    let perms = perm_tuples(sizes);
    let all = all_structures(sig, sizes);
    let mut form_to_brute: BTreeMap<Structure, Structure> = BTreeMap::new();
    let mut brute_to_form: BTreeMap<Structure, (Structure, u128)> = BTreeMap::new();
    for s in &all {
        let c = canonical_form(sig, s);
        assert_eq!(
            relabel(sig, s, &c.labelling),
            c.form,
            "labelling vs. form of {s:?}"
        );
        let images: Vec<Structure> = perms.iter().map(|p| permute(sig, s, p)).collect();
        let aut = images.iter().filter(|m| *m == s).count() as u128;
        assert_eq!(c.automorphisms, aut, "|Aut| of {s:?} at sizes {sizes:?}");
        let brute = images.into_iter().min().expect("identity");
        match form_to_brute.get(&c.form) {
            Some(b) => assert_eq!(
                *b, brute,
                "non-isomorphic structures share the form {:?}",
                c.form
            ),
            None => {
                form_to_brute.insert(c.form.clone(), brute.clone());
            }
        }
        match brute_to_form.get(&brute) {
            Some((f, _)) => assert_eq!(
                *f, c.form,
                "isomorphic structures got different forms (class of {brute:?})"
            ),
            None => {
                brute_to_form.insert(brute, (c.form, aut));
            }
        }
    }
    assert_eq!(form_to_brute.len(), brute_to_form.len());
    let labeled: u128 = brute_to_form
        .values()
        .map(|(_, aut)| labelled_copies(sizes, *aut).expect("small sizes"))
        .sum();
    assert_eq!(
        labeled,
        all.len() as u128,
        "Σ Π n_i!/|Aut| over the classes at sizes {sizes:?}"
    );
    brute_to_form.len()
}

#[test]
fn every_unary_function_up_to_5_points() {
    // A001372: mappings of an n-set into itself up to isomorphism.
    let sig = theory("theory F\nfunc g : 1").sig;
    let expected = [1, 3, 7, 19, 47];
    for n in 1..=5u32 {
        assert_eq!(
            exhaustive(&sig, &[n]),
            expected[n as usize - 1],
            "functional digraphs on {n} points"
        );
    }
}

#[test]
fn every_binary_relation_up_to_4_points() {
    // A000595: binary relations on n unlabeled points.
    let sig = theory("theory R\nrel R : 2").sig;
    let expected = [2, 10, 104, 3044];
    for n in 1..=4u32 {
        assert_eq!(
            exhaustive(&sig, &[n]),
            expected[n as usize - 1],
            "binary relations on {n} points"
        );
    }
}

#[test]
fn every_magma_up_to_3_points() {
    // A001329: magmas up to isomorphism.
    let sig = theory("theory M\nfunc * : 2").sig;
    let expected = [1, 10, 3330];
    for n in 1..=3u32 {
        assert_eq!(
            exhaustive(&sig, &[n]),
            expected[n as usize - 1],
            "magmas on {n} points"
        );
    }
}

#[test]
fn every_small_structure_with_constants_and_unary_symbols() {
    let sig = theory("theory S\nfunc g : 1\nrel P : 1\nconst c").sig;
    for n in 1..=4 {
        exhaustive(&sig, &[n]);
    }
    let sig = nullary_signature();
    for n in 1..=4 {
        exhaustive(&sig, &[n]);
    }
    let sig = theory("theory T\nrel T : 3").sig;
    for n in 1..=2 {
        exhaustive(&sig, &[n]);
    }
    let sig = theory("theory U\nfunc t : 3").sig;
    exhaustive(&sig, &[2]);
}

#[test]
fn every_small_two_sorted_structure() {
    // Maps A -> B and B -> A.
    let sig = theory("theory Maps\nsort A, B\nfunc f : A -> B\nfunc g : B -> A").sig;
    for sizes in [[1, 1], [1, 3], [2, 2], [2, 3], [3, 2], [3, 3], [2, 4]] {
        exhaustive(&sig, &sizes);
    }
    // Bipartite graphs between A and B: up to isomorphism preserving the sides, an m x n 0/1
    // matrix up to row and column permutations (A028657: 2x2 -> 7, 2x3 -> 13, 3x3 -> 36, 3x4 -> 87).
    let sig = theory("theory Bip\nsort A, B\nrel E : A B").sig;
    assert_eq!(exhaustive(&sig, &[2, 2]), 7);
    assert_eq!(exhaustive(&sig, &[2, 3]), 13);
    assert_eq!(exhaustive(&sig, &[3, 3]), 36);
    assert_eq!(exhaustive(&sig, &[3, 4]), 87);
    // Constants of each sort, a binary function across sorts, a relation on one sort.
    let sig =
        theory("theory Mix\nsort A, B\nconst a : A\nconst b : B\nfunc m : A B -> A\nrel Q : B").sig;
    for sizes in [[1, 2], [2, 1], [2, 2], [3, 1], [2, 3]] {
        exhaustive(&sig, &sizes);
    }
}

// ---------------------------------------------------------------------------------------------
// Structures with known automorphism groups, including ones refinement cannot split.
// ---------------------------------------------------------------------------------------------

fn graph(n: u32, adjacent: impl Fn(u32, u32) -> bool) -> (Signature, Structure) {
    let sig = theory("theory Graph\nrel E : 2").sig;
    let s = Structure::from_fn(
        &sig,
        &[n],
        |_, _| 0,
        |_, a| a[0] != a[1] && adjacent(a[0], a[1]),
    );
    (Signature::clone(&sig), s)
}

/// Checks |Aut| and that random relabellings keep the form.
#[track_caller]
fn known(sig: &Signature, s: &Structure, aut: u128, what: &str) -> Structure {
    let c = check_canonical_basics(sig, s);
    assert_eq!(c.automorphisms, aut, "|Aut| of {what}");
    let mut rng = Rng(aut as u64 ^ 0x5eed);
    for _ in 0..5 {
        let r = relabel(sig, s, &rng.perms(&s.sizes));
        let cr = canonical_form(sig, &r);
        assert_eq!(cr.form, c.form, "a relabelled {what} got another form");
        assert_eq!(cr.automorphisms, aut);
    }
    c.form
}

#[test]
fn regular_graphs_with_known_automorphism_groups() {
    // Petersen graph: 2-subsets of {0..4}, adjacent when disjoint. |Aut| = 5! = 120.
    let pairs: Vec<(u32, u32)> = (0..5)
        .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
        .collect();
    let (sig, s) = graph(10, |x, y| {
        let (p, q) = (pairs[x as usize], pairs[y as usize]);
        p.0 != q.0 && p.0 != q.1 && p.1 != q.0 && p.1 != q.1
    });
    known(&sig, &s, 120, "the Petersen graph");
    for n in [3u32, 4, 5, 8, 11] {
        let (sig, s) = graph(n, |x, y| (x + 1) % n == y || (y + 1) % n == x);
        known(&sig, &s, 2 * n as u128, &format!("the cycle C{n}"));
    }
    let (sig, s) = graph(6, |x, y| (x < 3) != (y < 3));
    known(&sig, &s, 72, "K_{3,3}");
    let (sig, s) = graph(8, |x, y| (x ^ y).count_ones() == 1);
    known(&sig, &s, 48, "the 3-cube");
    let squares = [1u32, 3, 4, 9, 10, 12];
    let (sig, s) = graph(13, |x, y| squares.contains(&((x + 13 - y) % 13)));
    known(&sig, &s, 78, "the Paley graph on 13 vertices");
    let (sig, s) = graph(7, |_, _| true);
    known(&sig, &s, 5040, "K7");
    let (sig, s) = graph(7, |_, _| false);
    known(&sig, &s, 5040, "the empty graph on 7 vertices");
}

#[test]
fn strongly_regular_graphs_with_equal_parameters_are_told_apart() {
    // Both are srg(16, 6, 2, 2), so colour refinement alone never splits a cell of either.
    let rook = |x: u32, y: u32| x / 4 == y / 4 || x % 4 == y % 4;
    let shrikhande = |x: u32, y: u32| {
        let d = ((x / 4 + 4 - y / 4) % 4, (x % 4 + 4 - y % 4) % 4);
        matches!(d, (1, 0) | (3, 0) | (0, 1) | (0, 3) | (1, 1) | (3, 3))
    };
    let (sig, r) = graph(16, rook);
    let (_, s) = graph(16, shrikhande);
    let fr = known(&sig, &r, 1152, "the 4x4 rook's graph");
    let fs = known(&sig, &s, 192, "the Shrikhande graph");
    assert_ne!(
        fr, fs,
        "the rook's graph and the Shrikhande graph are not isomorphic"
    );
    assert!(!isomorphic(&sig, &r, &s));
    // Two triangles and a hexagon: both 2-regular on 6 vertices.
    let (sig, t) = graph(6, |x, y| x / 3 == y / 3);
    let (_, h) = graph(6, |x, y| (x + 1) % 6 == y || (y + 1) % 6 == x);
    let ft = known(&sig, &t, 72, "two triangles");
    let fh = known(&sig, &h, 12, "the hexagon");
    assert_ne!(ft, fh);
}

fn group(
    n: u32,
    mul: impl Fn(u32, u32) -> u32,
    inv: impl Fn(u32) -> u32,
) -> (Signature, Structure) {
    let sig = theory("theory Group\nfunc * : 2\nfunc inv : 1\nconst e").sig;
    let s = Structure::from_fn(
        &sig,
        &[n],
        |f, a| match f {
            "*" => mul(a[0], a[1]),
            "inv" => inv(a[0]),
            _ => 0,
        },
        |_, _| false,
    );
    (Signature::clone(&sig), s)
}

fn euler_phi(n: u32) -> u128 {
    (1..=n)
        .filter(|k| {
            (1..=*k)
                .filter(|d| k.is_multiple_of(*d) && n.is_multiple_of(*d))
                .max()
                == Some(1)
        })
        .count() as u128
}

#[test]
fn groups_with_known_automorphism_groups() {
    for n in [1u32, 2, 5, 6, 8, 9, 12] {
        let (sig, s) = group(n, |x, y| (x + y) % n, |x| (n - x) % n);
        known(&sig, &s, euler_phi(n), &format!("Z{n}"));
    }
    // Elementary abelian 2-groups: Aut = GL(k, 2).
    for (k, gl) in [(2u32, 6u128), (3, 168), (4, 20160)] {
        let (sig, s) = group(1 << k, |x, y| x ^ y, |x| x);
        known(&sig, &s, gl, &format!("Z2^{k}"));
    }
    // S3 as permutations of {0,1,2}, numbered by their position in a list.
    let perms = permutations(3);
    let idx = |p: &Vec<u32>| perms.iter().position(|q| q == p).expect("a permutation") as u32;
    let compose = |a: u32, b: u32| {
        idx(&(0..3)
            .map(|i| perms[a as usize][perms[b as usize][i] as usize])
            .collect())
    };
    let id = idx(&vec![0, 1, 2]);
    let inverse = |a: u32| (0..6).find(|&b| compose(a, b) == id).expect("inverse");
    // Renumber so that the identity is element 0 (the constant e is 0 in `group`).
    let to = |x: u32| {
        if x == id {
            0
        } else if x == 0 {
            id
        } else {
            x
        }
    };
    let (sig, s) = group(6, |x, y| to(compose(to(x), to(y))), |x| to(inverse(to(x))));
    known(&sig, &s, 6, "S3");
    // Quaternion group Q8: elements ±1, ±i, ±j, ±k as (sign, unit) with unit 0..3 = 1, i, j, k.
    let q_mul = |a: u32, b: u32| {
        let (sa, ua, sb, ub) = (a / 4, a % 4, b / 4, b % 4);
        let (s, u) = match (ua, ub) {
            (0, u) | (u, 0) => (0, u),
            (x, y) if x == y => (1, 0),
            (1, 2) => (0, 3),
            (2, 3) => (0, 1),
            (3, 1) => (0, 2),
            (2, 1) => (1, 3),
            (3, 2) => (1, 1),
            (1, 3) => (1, 2),
            _ => unreachable!(),
        };
        ((sa + sb + s) % 2) * 4 + u
    };
    let q_inv = |a: u32| (0..8).find(|&b| q_mul(a, b) == 0).expect("inverse");
    let (sig, s) = group(8, q_mul, q_inv);
    known(&sig, &s, 24, "Q8");
    // Dihedral group of order 8: rotations r^k = k, reflections s r^k = 4 + k.
    let d_mul = |a: u32, b: u32| match (a / 4, b / 4) {
        (0, 0) => (a + b) % 4,
        (0, 1) => 4 + (b % 4 + 4 - a) % 4,
        (1, 0) => 4 + (a % 4 + b) % 4,
        _ => (b % 4 + 4 - a % 4) % 4,
    };
    let d_inv = |a: u32| (0..8).find(|&b| d_mul(a, b) == 0).expect("inverse");
    let (sig, s) = group(8, d_mul, d_inv);
    known(&sig, &s, 8, "D4");
}

#[test]
fn large_automorphism_groups_are_counted_and_saturate() {
    // The constant magma x * y = 0 on 20 points: Aut fixes 0 and permutes the rest.
    let sig = theory("theory M\nfunc * : 2").sig;
    let s = Structure::zeroed(&sig, &[20]);
    known(&sig, &s, factorial(19), "the constant magma on 20 points");
    // The empty relation on 34 points: 34! < 2^128.
    let sig = theory("theory R\nrel R : 2").sig;
    let s = Structure::zeroed(&sig, &[34]);
    assert_eq!(canonical_form(&sig, &s).automorphisms, factorial(34));
    // 35! > 2^128: the order saturates.
    let s = Structure::zeroed(&sig, &[35]);
    assert_eq!(canonical_form(&sig, &s).automorphisms, u128::MAX);
    // Two sorts: a complete bipartite relation between 5 and 7 points.
    let sig = theory("theory Bip\nsort A, B\nrel E : A B").sig;
    let s = Structure::from_fn(&sig, &[5, 7], |_, _| 0, |_, _| true);
    known(&sig, &s, factorial(5) * factorial(7), "K_{5,7} with sides");
    // A constant map A -> B: Aut = |A|! (|B|-1)!.
    let sig = theory("theory Map\nsort A, B\nfunc f : A -> B").sig;
    let s = Structure::zeroed(&sig, &[6, 5]);
    known(
        &sig,
        &s,
        factorial(6) * factorial(4),
        "a constant map from 6 to 5 points",
    );
}

#[test]
fn isomorphic_needs_equal_sizes() {
    let sig = theory("theory R\nrel R : 2").sig;
    assert!(!isomorphic(
        &sig,
        &Structure::zeroed(&sig, &[2]),
        &Structure::zeroed(&sig, &[3])
    ));
    assert!(isomorphic(
        &sig,
        &Structure::zeroed(&sig, &[3]),
        &Structure::zeroed(&sig, &[3])
    ));
}

// ---------------------------------------------------------------------------------------------
// Magmas through the finder, and labelled_copies.
// ---------------------------------------------------------------------------------------------

#[test]
fn magmas_through_the_finder() {
    let t = theory("theory Magma\nfunc * : 2");
    let perms = perm_tuples(&[3]);
    for (n, iso_count, labeled) in [(1u32, 1u128, 1u128), (2, 10, 16), (3, 3330, 19683)] {
        for symmetry_breaking in [true, false] {
            let e = enumerate(
                &t,
                &[n],
                &Budget::default(),
                Options {
                    symmetry_breaking,
                    ..Options::default()
                },
            )
            .unwrap();
            assert_eq!(
                (e.iso.value, e.iso.status),
                (iso_count, Status::Exact),
                "magmas of size {n} up to isomorphism"
            );
            assert_eq!(
                (e.labeled.value, e.labeled.status),
                (labeled, Status::Exact),
                "labeled magmas of size {n}"
            );
            if n == 3 {
                // The representatives are pairwise non-isomorphic and carry the right |Aut|.
                let brute: BTreeSet<Structure> = e
                    .classes
                    .iter()
                    .map(|c| brute_canonical(&t.sig, &c.model, &perms))
                    .collect();
                assert_eq!(brute.len(), e.classes.len());
                for c in &e.classes {
                    assert_eq!(
                        c.automorphisms,
                        brute_automorphisms(&t.sig, &c.model, &perms)
                    );
                }
            }
        }
    }
}

#[test]
fn labelled_copies_is_the_product_of_factorials_over_aut() {
    for sizes in [
        vec![1],
        vec![3],
        vec![5],
        vec![2, 3],
        vec![4, 1],
        vec![3, 3, 2],
    ] {
        let total: u128 = sizes.iter().map(|&n| factorial(n)).product();
        for aut in (1..=total).filter(|d| total.is_multiple_of(*d)) {
            assert_eq!(
                labelled_copies(&sizes, aut),
                Some(total / aut),
                "sizes {sizes:?}, |Aut| = {aut}"
            );
        }
    }
    // Products of factorials beyond u128 with a quotient that fits.
    assert_eq!(labelled_copies(&[34], factorial(34)), Some(1));
    assert_eq!(
        labelled_copies(&[30, 30], factorial(30)),
        Some(factorial(30))
    );
    let falling: u128 = (21..=40).product();
    assert_eq!(
        labelled_copies(&[40], factorial(20) * factorial(10)),
        Some(falling / factorial(10))
    );
    assert_eq!(
        labelled_copies(&[20, 20], factorial(20)),
        Some(factorial(20))
    );
    // A quotient beyond u128, or a group order that saturated, cannot be told.
    assert_eq!(labelled_copies(&[40], 1), None);
    assert_eq!(labelled_copies(&[100], u128::MAX), None);
}

#[test]
#[should_panic]
fn labelled_copies_rejects_a_non_divisor() {
    labelled_copies(&[3], 4);
}

#[test]
#[should_panic]
fn labelled_copies_rejects_zero() {
    labelled_copies(&[3], 0);
}

#[test]
#[should_panic]
fn labelled_copies_rejects_a_prime_above_the_sizes() {
    labelled_copies(&[4, 4], 7);
}
