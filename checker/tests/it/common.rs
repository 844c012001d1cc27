//! Helpers shared by the checker's integration tests: brute-force isomorphism (every tuple of
//! per-sort permutations), written independently of `birkhoff_checker::canonical_form`, and the
//! ground-truth table, and the benchmark theories of benches/theories/.
#![allow(dead_code)]

use birkhoff_engine::signature::Signature;
use birkhoff_engine::structure::{table_index, table_len, tuples};
use birkhoff_engine::Structure;
use proptest::prelude::*;

/// All permutations of `0..n`, as `p[old] = new`.
pub fn permutations(n: u32) -> Vec<Vec<u32>> {
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

/// Every tuple of per-sort permutations for these sort sizes.
pub fn perm_tuples(sizes: &[u32]) -> Vec<Vec<Vec<u32>>> {
    let mut out: Vec<Vec<Vec<u32>>> = vec![vec![]];
    for &n in sizes {
        let ps = permutations(n);
        out = out
            .into_iter()
            .flat_map(|t| {
                ps.iter()
                    .map(move |p| [t.clone(), vec![p.clone()]].concat())
            })
            .collect();
    }
    out
}

/// π(M): every element `a` of sort `s` renamed `perms[s][a]`. Written from the definition, one
/// tuple at a time, sharing nothing with `iso::relabel`.
pub fn permute(sig: &Signature, s: &Structure, perms: &[Vec<u32>]) -> Structure {
    let mut out = s.clone();
    let sizes = &s.sizes;
    for (fi, f) in sig.funcs.iter().enumerate() {
        let res = &perms[f.result.0 as usize];
        for args in tuples(sizes, &f.args) {
            let image: Vec<u32> = args
                .iter()
                .zip(&f.args)
                .map(|(&a, srt)| perms[srt.0 as usize][a as usize])
                .collect();
            let v = s.funcs[fi][table_index(sizes, &f.args, &args)];
            out.funcs[fi][table_index(sizes, &f.args, &image)] = res[v as usize];
        }
    }
    for (ri, r) in sig.rels.iter().enumerate() {
        for args in tuples(sizes, &r.args) {
            let image: Vec<u32> = args
                .iter()
                .zip(&r.args)
                .map(|(&a, srt)| perms[srt.0 as usize][a as usize])
                .collect();
            out.rels[ri][table_index(sizes, &r.args, &image)] =
                s.rels[ri][table_index(sizes, &r.args, &args)];
        }
    }
    out
}

/// Every structure of `sig` with these sort sizes.
pub fn all_structures(sig: &Signature, sizes: &[u32]) -> Vec<Structure> {
    let mut widths = Vec::new();
    for f in &sig.funcs {
        widths.extend(std::iter::repeat_n(
            sizes[f.result.0 as usize],
            table_len(sizes, &f.args),
        ));
    }
    for r in &sig.rels {
        widths.extend(std::iter::repeat_n(2, table_len(sizes, &r.args)));
    }
    let total: u64 = widths.iter().map(|&w| w as u64).product();
    assert!(total <= 1 << 20, "too many structures to try: {total}");
    let mut out = Vec::with_capacity(total as usize);
    let mut digits = vec![0u32; widths.len()];
    for _ in 0..total {
        let mut s = Structure::zeroed(sig, sizes);
        let mut k = 0;
        for t in s.funcs.iter_mut() {
            for v in t.iter_mut() {
                *v = digits[k];
                k += 1;
            }
        }
        for t in s.rels.iter_mut() {
            for v in t.iter_mut() {
                *v = digits[k] == 1;
                k += 1;
            }
        }
        out.push(s);
        for (d, w) in digits.iter_mut().zip(&widths) {
            *d += 1;
            if *d < *w {
                break;
            }
            *d = 0;
        }
    }
    out
}

/// The number of automorphisms, by trying every permutation tuple.
pub fn brute_automorphisms(sig: &Signature, s: &Structure, perms: &[Vec<Vec<u32>>]) -> u128 {
    perms.iter().filter(|p| permute(sig, s, p) == *s).count() as u128
}

/// The least image of `s` over all permutation tuples: a canonical form by brute force.
pub fn brute_canonical(sig: &Signature, s: &Structure, perms: &[Vec<Vec<u32>>]) -> Structure {
    perms
        .iter()
        .map(|p| permute(sig, s, p))
        .min()
        .expect("at least the identity")
}

/// Whether `a` and `b` are isomorphic, by trying every permutation tuple.
pub fn brute_isomorphic(
    sig: &Signature,
    a: &Structure,
    b: &Structure,
    perms: &[Vec<Vec<u32>>],
) -> bool {
    a.sizes == b.sizes && perms.iter().any(|p| permute(sig, a, p) == *b)
}

pub fn factorial(n: u32) -> u128 {
    (1..=n as u128).product()
}

pub use birkhoff_engine::ground_truth::{rows as ground_truth, Row};

/// Which symbols a random theory declares (for [`random_theory`]): a binary `f`, a unary `g`, a constant `c`, a binary
/// relation `P`. Tables stay small enough to try them all at n = 3.
#[derive(Clone, Copy, Debug)]
struct Symbols {
    f: bool,
    g: bool,
    c: bool,
    p: bool,
}

/// Symbol sets small enough for brute force at n = 3.
fn symbols() -> impl Strategy<Value = Symbols> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>())
        .prop_map(|(f, g, c, p)| Symbols { f, g, c, p })
        .prop_filter("small enough to try every table", |s| {
            let cells = 9 * s.f as i32 + 3 * s.g as i32 + s.c as i32;
            3f64.powi(cells) * 2f64.powi(9 * s.p as i32) <= 200_000.0
        })
}

/// A random formula over the declared symbols.
fn formula(sy: Symbols) -> impl Strategy<Value = String> {
    let var = prop::sample::select(vec!["x", "y", "z"]).prop_map(String::from);
    let term = var.prop_recursive(2, 8, 2, move |inner| {
        let mut options: Vec<BoxedStrategy<String>> = vec![inner.clone().boxed()];
        if sy.c {
            options.push(Just("c".to_string()).boxed());
        }
        if sy.g {
            options.push(inner.clone().prop_map(|a| format!("g({a})")).boxed());
        }
        if sy.f {
            options.push(
                (inner.clone(), inner)
                    .prop_map(|(a, b)| format!("f({a}, {b})"))
                    .boxed(),
            );
        }
        prop::strategy::Union::new(options)
    });
    let mut atoms: Vec<BoxedStrategy<String>> = vec![
        (term.clone(), term.clone())
            .prop_map(|(a, b)| format!("{a} = {b}"))
            .boxed(),
        (term.clone(), term.clone())
            .prop_map(|(a, b)| format!("{a} != {b}"))
            .boxed(),
    ];
    if sy.p {
        atoms.push(
            (term.clone(), term)
                .prop_map(|(a, b)| format!("P({a}, {b})"))
                .boxed(),
        );
    }
    prop::strategy::Union::new(atoms).prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} | {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} -> {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} <-> {b})")),
            inner.clone().prop_map(|a| format!("(exists y. {a})")),
            inner.prop_map(|a| format!("~({a})")),
        ]
    })
}

/// A random small theory: some of `f`, `g`, `c`, `P` and one or two random axioms.
pub fn random_theory() -> impl Strategy<Value = String> {
    symbols()
        .prop_flat_map(|sy| (Just(sy), prop::collection::vec(formula(sy), 1..3)))
        .prop_map(|(sy, axioms)| {
            let mut text = String::from("theory Random\n");
            for (on, decl) in [
                (sy.f, "func f : 2\n"),
                (sy.g, "func g : 1\n"),
                (sy.c, "const c\n"),
                (sy.p, "rel P : 2\n"),
            ] {
                if on {
                    text.push_str(decl);
                }
            }
            for (i, a) in axioms.iter().enumerate() {
                text.push_str(&format!("axiom a{i}: {a}\n"));
            }
            text
        })
}

/// The theory of `file` in benches/theories/.
pub fn bench_theory(file: &str) -> birkhoff_engine::Theory {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../benches/theories")
        .join(file);
    birkhoff_engine::Theory::from_file(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Whether E (`eprover`) is on the path, for the tests whose proofs come from its lane of the
/// portfolio: without it they are skipped with a line that says so, unless `BIRKHOFF_REQUIRE_E=1`
/// (set by `.ci/run`), which makes a missing E a failure.
pub fn has_e(test: &str) -> bool {
    if birkhoff_checker::prover::external::find_on_path("eprover").is_some() {
        return true;
    }
    assert!(
        std::env::var("BIRKHOFF_REQUIRE_E").as_deref() != Ok("1"),
        "BIRKHOFF_REQUIRE_E=1 but eprover is not installed (Debian: apt-get install eprover)"
    );
    eprintln!("SKIPPED {test}: needs eprover; set BIRKHOFF_REQUIRE_E=1 to make this a failure");
    false
}
