//! Helpers shared by the checker's integration tests: brute-force isomorphism (every tuple of
//! per-sort permutations), written independently of `birkhoff_checker::iso`, and the
//! ground-truth table.
#![allow(dead_code)]

use birkhoff_engine::signature::Signature;
use birkhoff_engine::structure::{table_index, tuples};
use birkhoff_engine::Structure;

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
        out = out.into_iter().flat_map(|t| ps.iter().map(move |p| [t.clone(), vec![p.clone()]].concat())).collect();
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
            let image: Vec<u32> = args.iter().zip(&f.args).map(|(&a, srt)| perms[srt.0 as usize][a as usize]).collect();
            let v = s.funcs[fi][table_index(sizes, &f.args, &args)];
            out.funcs[fi][table_index(sizes, &f.args, &image)] = res[v as usize];
        }
    }
    for (ri, r) in sig.rels.iter().enumerate() {
        for args in tuples(sizes, &r.args) {
            let image: Vec<u32> = args.iter().zip(&r.args).map(|(&a, srt)| perms[srt.0 as usize][a as usize]).collect();
            out.rels[ri][table_index(sizes, &r.args, &image)] = s.rels[ri][table_index(sizes, &r.args, &args)];
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
    perms.iter().map(|p| permute(sig, s, p)).min().expect("at least the identity")
}

/// Whether `a` and `b` are isomorphic, by trying every permutation tuple.
pub fn brute_isomorphic(sig: &Signature, a: &Structure, b: &Structure, perms: &[Vec<Vec<u32>>]) -> bool {
    a.sizes == b.sizes && perms.iter().any(|p| permute(sig, a, p) == *b)
}

pub fn factorial(n: u32) -> u128 {
    (1..=n as u128).product()
}

/// One row of tests/data/ground_truth.tsv.
#[derive(Clone, Debug)]
pub struct Row {
    pub theory: String,
    pub n: u32,
    pub iso: Option<u128>,
    pub labeled: Option<u128>,
    pub functions: String,
    pub relations: String,
    pub axioms: String,
}

/// Every row of the ground-truth table, in file order.
pub fn ground_truth() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/ground_truth.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut rows = Vec::new();
    let mut header: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let Some(h) = &header else {
            header = Some(cols.iter().map(|c| c.to_string()).collect());
            continue;
        };
        let col = |name: &str| -> &str {
            let i = h.iter().position(|c| c == name).unwrap_or_else(|| panic!("ground truth has no column `{name}`"));
            cols.get(i).copied().unwrap_or("").trim()
        };
        let num = |s: &str| if s.is_empty() { None } else { Some(s.parse::<u128>().unwrap_or_else(|e| panic!("bad number `{s}` in `{line}`: {e}"))) };
        rows.push(Row {
            theory: col("theory").to_string(),
            n: col("n").parse().unwrap_or_else(|e| panic!("bad size in `{line}`: {e}")),
            iso: num(col("iso")),
            labeled: num(col("labeled")),
            functions: col("functions").to_string(),
            relations: col("relations").to_string(),
            axioms: col("axioms").to_string(),
        });
    }
    assert!(!rows.is_empty(), "the ground-truth table has no rows");
    rows
}
