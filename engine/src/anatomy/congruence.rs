//! Congruences of a finite algebra: principal ones by closure, the whole lattice as joins of
//! principal ones, and what the lattice says (simple, subdirectly irreducible, directly
//! decomposable).

use super::partition::Partition;
use super::Algebra;
use petgraph::unionfind::UnionFind;
use std::collections::BTreeSet;

/// The least congruence relating each of `pairs` (Cg(pairs)): the pairs merged, then, until
/// nothing changes, `f(.., a, ..)` merged with `f(.., b, ..)` whenever `a` and `b` are. Each
/// element is compared with its block's representative, which relates every member of a block
/// to every other through the representative.
pub fn generated(alg: &Algebra, pairs: &[(u32, u32)]) -> Partition {
    let mut uf = UnionFind::new(alg.size() as usize);
    for &(a, b) in pairs {
        uf.union(a, b);
    }
    close(alg, uf)
}

/// The least congruence containing the equivalence `uf`.
fn close(alg: &Algebra, mut uf: UnionFind<u32>) -> Partition {
    let n = alg.size();
    loop {
        let mut changed = false;
        for op in alg.operations() {
            for (index, args) in op.argument_tuples(n).enumerate() {
                for i in 0..args.len() {
                    let rep = uf.find_mut(args[i]);
                    if rep == args[i] {
                        continue;
                    }
                    let mut other = args.clone();
                    other[i] = rep;
                    changed |= uf.union(op.table[index], op.value(n, &other));
                }
            }
        }
        if !changed {
            return Partition::of(&uf);
        }
    }
}

/// Every congruence of `alg`, in increasing order of their label vectors, or `None` when there
/// are more than `limit` (a set with no operations has a Bell number of them). Each congruence
/// is a join of principal congruences, and a join of congruences (as equivalence relations) is
/// a congruence, so joining principal ones onto the least congruence reaches them all.
pub fn all(alg: &Algebra, limit: usize) -> Option<Vec<Partition>> {
    let n = alg.size();
    let principal: BTreeSet<Partition> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .map(|pair| generated(alg, &[pair]))
        .collect();
    let mut found = BTreeSet::from([Partition::discrete(n)]);
    let mut todo = vec![Partition::discrete(n)];
    while let Some(c) = todo.pop() {
        for p in &principal {
            let j = c.join(p);
            if !found.contains(&j) {
                if found.len() >= limit {
                    return None;
                }
                found.insert(j.clone());
                todo.push(j);
            }
        }
    }
    Some(found.into_iter().collect())
}

/// What the congruence lattice of an algebra says of it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Irreducibility {
    /// At least two elements, and no congruences but the least and the greatest.
    pub simple: bool,
    /// At least two elements, and one least congruence above the least (the monolith), which
    /// every other nontrivial congruence contains: the algebra is not a subdirect product of
    /// proper quotients.
    pub subdirectly_irreducible: bool,
    /// The monolith of a subdirectly irreducible algebra.
    pub monolith: Option<Partition>,
    /// At least two elements, and no pair of congruences that splits the algebra as a product
    /// of two smaller algebras.
    pub directly_indecomposable: bool,
    /// The sizes of directly indecomposable factors whose product the algebra is, largest first
    /// (one factor when it is indecomposable, none when it is trivial).
    pub factors: Vec<u32>,
}

/// Simple, subdirectly irreducible and directly indecomposable, from the lattice `congruences`
/// of `alg` (as [`all`] returns it).
pub fn irreducibility(alg: &Algebra, congruences: &[Partition]) -> Irreducibility {
    let n = alg.size();
    let nontrivial: Vec<&Partition> = congruences.iter().filter(|c| !c.is_discrete()).collect();
    // The minimal nontrivial congruences; in a finite lattice every nontrivial one lies above one.
    let atoms: Vec<&Partition> = nontrivial
        .iter()
        .copied()
        .filter(|c| !nontrivial.iter().any(|d| d != c && d.finer_than(c)))
        .collect();
    let subdirectly_irreducible = n >= 2 && atoms.len() == 1;
    let factors = factor_sizes(alg, congruences);
    Irreducibility {
        simple: n >= 2 && congruences.len() == 2,
        subdirectly_irreducible,
        monolith: subdirectly_irreducible.then(|| atoms[0].clone()),
        directly_indecomposable: n >= 2 && factors.len() == 1,
        factors,
    }
}

/// A pair of proper nontrivial congruences θ, φ with θ ∧ φ = Δ and θ ∘ φ = ∇, which make `alg`
/// isomorphic to `alg/θ × alg/φ` (the map x ↦ (x/θ, x/φ) is then a bijective homomorphism).
pub fn splitting(congruences: &[Partition]) -> Option<(Partition, Partition)> {
    let proper: Vec<&Partition> = congruences
        .iter()
        .filter(|c| !c.is_discrete() && !c.is_total())
        .collect();
    proper.iter().enumerate().find_map(|(i, theta)| {
        proper[i + 1..].iter().find_map(|phi| {
            (theta.meet(phi).is_discrete() && theta.permutes_to_total(phi))
                .then(|| ((*theta).clone(), (*phi).clone()))
        })
    })
}

/// The sizes of a decomposition of `alg` into directly indecomposable factors, largest first:
/// split by [`splitting`] and split each quotient again.
fn factor_sizes(alg: &Algebra, congruences: &[Partition]) -> Vec<u32> {
    if alg.size() < 2 {
        return Vec::new();
    }
    let Some((theta, phi)) = splitting(congruences) else {
        return vec![alg.size()];
    };
    let mut sizes = Vec::new();
    for c in [theta, phi] {
        let q = alg.quotient(&c);
        // The quotient's congruences correspond to those of `alg` above `c` (the correspondence
        // theorem): the list is never longer than `alg`'s.
        let lattice = all(&q, congruences.len()).unwrap_or_default();
        sizes.extend(factor_sizes(&q, &lattice));
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// Every congruence of `alg` found by testing every partition of its elements: the oracle the
/// tests compare [`all`] with, usable up to about 8 elements (4,140 partitions).
pub fn brute_force(alg: &Algebra) -> Vec<Partition> {
    let n = alg.size() as usize;
    let mut out = Vec::new();
    // Restricted growth strings: labels[i] <= 1 + max(labels[..i]).
    let mut labels = vec![0u32; n];
    loop {
        let p = Partition::from_labels(labels.clone());
        if alg.compatible(&p) {
            out.push(p);
        }
        // The next restricted growth string, or the end.
        let mut i = n;
        loop {
            if i <= 1 {
                out.sort();
                return out;
            }
            i -= 1;
            let max_before = labels[..i].iter().copied().max().unwrap_or(0);
            if labels[i] <= max_before {
                labels[i] += 1;
                labels[i + 1..].iter_mut().for_each(|l| *l = 0);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anatomy::Algebra;
    use crate::{seeds, Structure};

    /// Z_n under addition, with negation and zero.
    fn cyclic(n: u32) -> (crate::Theory, Structure) {
        let g = seeds::load("group").unwrap();
        let m = Structure::from_fn(
            &g.sig,
            &[n],
            |f, a| match f {
                "*" => (a[0] + a[1]) % n,
                "inv" => (n - a[0]) % n,
                _ => 0,
            },
            |_, _| false,
        );
        (g, m)
    }

    /// The congruences of Z_n are its subgroups' cosets, one per divisor of n; Z_6 is Z_2 × Z_3
    /// and Z_4 is subdirectly irreducible with monolith {0,2}{1,3}.
    #[test]
    fn cyclic_groups() {
        for n in 1..=8u32 {
            let (g, m) = cyclic(n);
            let alg = Algebra::of(&g.sig, &m).unwrap();
            let lattice = all(&alg, 1000).unwrap();
            assert_eq!(lattice, brute_force(&alg), "Z_{n}");
            assert_eq!(
                lattice.len(),
                (1..=n).filter(|d| n % d == 0).count(),
                "Z_{n}"
            );
        }
        let (g, m) = cyclic(6);
        let alg = Algebra::of(&g.sig, &m).unwrap();
        let i = irreducibility(&alg, &all(&alg, 1000).unwrap());
        assert!(!i.subdirectly_irreducible && !i.directly_indecomposable);
        assert_eq!(i.factors, vec![3, 2]);
        let (g, m) = cyclic(4);
        let alg = Algebra::of(&g.sig, &m).unwrap();
        let i = irreducibility(&alg, &all(&alg, 1000).unwrap());
        assert!(i.subdirectly_irreducible && !i.simple && i.directly_indecomposable);
        assert_eq!(i.monolith.unwrap().to_string(), "{0,2}{1,3}");
    }
}
