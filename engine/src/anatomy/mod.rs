//! What a finite algebra is made of (issue 51): its congruences and their lattice, whether it is
//! simple, subdirectly irreducible (with its monolith) or directly decomposable (and into what),
//! the idempotents, centre and nuclei of each binary operation, and the subalgebras that its
//! elements generate. These are the tables algebraists read a variety by (UACalc, GAP's LOOPS,
//! smallsemi): by Birkhoff's subdirect representation theorem every algebra is a subdirect
//! product of subdirectly irreducible ones, so a variety's SI members are what all its models
//! are built from.
//!
//! The analysis is of algebras: one sort and operations only. A congruence is an equivalence
//! relation that every operation respects; relations have no single notion of one, so a
//! structure with relations (or several sorts) is refused ([`NotAnAlgebra`]).
//!
//! ```
//! use birkhoff_engine::{anatomy::{self, Algebra}, seeds, Structure};
//! let group = seeds::load("group").unwrap();
//! // Z_4: its one least nontrivial congruence is the cosets of {0, 2}.
//! let z4 = Structure::from_fn(&group.sig, &[4], |f, a| match f {
//!     "*" => (a[0] + a[1]) % 4,
//!     "inv" => (4 - a[0]) % 4,
//!     _ => 0,
//! }, |_, _| false);
//! let a = anatomy::analyse(&Algebra::of(&group.sig, &z4).unwrap(), anatomy::CONGRUENCE_LIMIT);
//! let i = a.irreducibility.unwrap();
//! assert!(i.subdirectly_irreducible && !i.simple);
//! assert_eq!(i.monolith.unwrap().to_string(), "{0,2}{1,3}");
//! ```

pub mod congruence;
pub mod partition;
pub mod permutation;

use crate::signature::{Signature, SortId};
use crate::structure::{tuples, Structure};
pub use congruence::Irreducibility;
pub use partition::Partition;
use permutation::{inverse, then, Permutation};
use serde::Serialize;

/// How many congruences [`analyse`] lists before it gives up on the lattice: a set with no
/// operations has a Bell number of them (4,140 on 8 elements).
pub const CONGRUENCE_LIMIT: usize = 5000;

/// The most elements for which [`analyse`] counts every subalgebra (2^n subsets are tried).
pub const SUBALGEBRA_COUNT_LIMIT: u32 = 12;

/// A structure that [`Algebra::of`] cannot read as an algebra.
#[derive(Debug, thiserror::Error)]
#[error("the structure analysis is of algebras (one sort, operations only): {0}")]
pub struct NotAnAlgebra(String);

/// One operation of an algebra: its symbol, arity and row-major table (as in [`Structure`]).
#[derive(Clone, Debug)]
pub struct Operation {
    /// The symbol as written.
    pub name: String,
    /// The number of arguments (0 for a constant).
    pub arity: usize,
    /// `table[((a1 * n) + a2) * n + ...]` is the value at `(a1, a2, ...)`.
    pub table: Vec<u32>,
}

impl Operation {
    /// Every argument tuple, in the order of the table's entries.
    pub fn argument_tuples(&self, n: u32) -> impl Iterator<Item = Vec<u32>> {
        tuples(&[n], &vec![SortId(0); self.arity])
            .collect::<Vec<_>>()
            .into_iter()
    }

    /// The value at `args`.
    pub fn value(&self, n: u32, args: &[u32]) -> u32 {
        self.table[args.iter().fold(0, |i, &a| i * n as usize + a as usize)]
    }
}

/// A finite algebra: `{0..n-1}` with operations.
#[derive(Clone, Debug)]
pub struct Algebra {
    size: u32,
    operations: Vec<Operation>,
}

impl Algebra {
    /// The algebra that model `m` of signature `sig` is; refused when the signature has
    /// relations or more than one sort.
    pub fn of(sig: &Signature, m: &Structure) -> Result<Algebra, NotAnAlgebra> {
        Algebra::check_signature(sig)?;
        Ok(Algebra {
            size: m.sizes[0],
            operations: sig
                .funcs
                .iter()
                .zip(&m.funcs)
                .map(|(f, table)| Operation {
                    name: f.name.clone(),
                    arity: f.args.len(),
                    table: table.clone(),
                })
                .collect(),
        })
    }

    /// Whether the models of signature `sig` are algebras: one sort, no relations.
    pub fn check_signature(sig: &Signature) -> Result<(), NotAnAlgebra> {
        if sig.sorts.len() != 1 {
            return Err(NotAnAlgebra(format!("{} sorts", sig.sorts.len())));
        }
        match sig.rels.first() {
            Some(r) => Err(NotAnAlgebra(format!("relation {}", r.name))),
            None => Ok(()),
        }
    }

    /// The number of elements.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The operations, in the signature's order.
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    /// The quotient by congruence `c`: its elements are `c`'s blocks, numbered as
    /// [`Partition::labels`] numbers them.
    pub fn quotient(&self, c: &Partition) -> Algebra {
        let m = c.blocks();
        // One member of each block stands for it.
        let mut member = vec![0; m as usize];
        for (x, &b) in c.labels().iter().enumerate().rev() {
            member[b as usize] = x as u32;
        }
        let operations = self
            .operations
            .iter()
            .map(|op| Operation {
                table: op
                    .argument_tuples(m)
                    .map(|blocks| {
                        let args: Vec<u32> = blocks.iter().map(|&b| member[b as usize]).collect();
                        c.labels()[op.value(self.size, &args) as usize]
                    })
                    .collect(),
                ..op.clone()
            })
            .collect();
        Algebra {
            size: m,
            operations,
        }
    }

    /// Whether every operation respects `p`: related arguments, place by place, give related
    /// values. Checked on every pair of argument tuples, from the definition alone (the oracle
    /// for [`congruence::all`], whose closure changes one argument at a time); fit for small
    /// algebras only.
    pub fn compatible(&self, p: &Partition) -> bool {
        let n = self.size;
        self.operations.iter().all(|op| {
            let all: Vec<Vec<u32>> = op.argument_tuples(n).collect();
            all.iter().all(|s| {
                all.iter().all(|t| {
                    !s.iter().zip(t).all(|(&a, &b)| p.related(a, b))
                        || p.related(op.value(n, s), op.value(n, t))
                })
            })
        })
    }

    /// The subuniverse generated by `generators`: closed under every operation (so it holds
    /// every constant), as a membership vector.
    pub fn generated(&self, generators: &[u32]) -> Vec<bool> {
        let n = self.size;
        let mut inside = vec![false; n as usize];
        generators.iter().for_each(|&g| inside[g as usize] = true);
        loop {
            let members: Vec<u32> = (0..n).filter(|&x| inside[x as usize]).collect();
            let mut grew = false;
            for op in &self.operations {
                for args in tuples(&[members.len() as u32], &vec![SortId(0); op.arity]) {
                    let args: Vec<u32> = args.iter().map(|&i| members[i as usize]).collect();
                    let v = op.value(n, &args) as usize;
                    grew |= !std::mem::replace(&mut inside[v], true);
                }
            }
            if !grew {
                return inside;
            }
        }
    }
}

/// What one finite algebra is made of.
#[derive(Clone, Debug, Serialize)]
pub struct Anatomy {
    /// The number of elements.
    pub size: u32,
    /// Every congruence, least first; `None` when there are more than [`CONGRUENCE_LIMIT`].
    pub congruences: Option<Vec<Partition>>,
    /// What the congruence lattice says; `None` with the lattice.
    pub irreducibility: Option<Irreducibility>,
    /// For each binary operation: its idempotents, centre and nuclei.
    pub binary: Vec<BinaryParts>,
    /// The subalgebras that elements generate.
    pub subalgebras: Subalgebras,
}

/// The special elements of one binary operation `·` (sets of elements, in increasing order).
#[derive(Clone, Debug, Serialize)]
pub struct BinaryParts {
    /// The operation's symbol.
    pub operation: String,
    /// x with x·x = x.
    pub idempotents: Vec<u32>,
    /// a with a·x = x·a for every x.
    pub commutant: Vec<u32>,
    /// a with a·(x·y) = (a·x)·y for all x, y.
    pub left_nucleus: Vec<u32>,
    /// a with (x·a)·y = x·(a·y) for all x, y.
    pub middle_nucleus: Vec<u32>,
    /// a with (x·y)·a = x·(y·a) for all x, y.
    pub right_nucleus: Vec<u32>,
    /// The three nuclei's intersection.
    pub nucleus: Vec<u32>,
    /// The centre: the commutant's intersection with the nucleus (a group's centre, a loop's
    /// centre Z(Q)).
    pub centre: Vec<u32>,
    /// When the table is a Latin square (a quasigroup): the groups its translations generate.
    pub translations: Option<Translations>,
}

/// The permutation groups of a quasigroup operation `·`, as GAP's LOOPS computes them: the
/// multiplication group Mlt, generated by every left translation L_a: x ↦ a·x and right
/// translation R_a: x ↦ x·a, and, for a loop (a two-sided identity e), the inner mapping group
/// Inn, the stabilizer of e in Mlt.
#[derive(Clone, Debug, Serialize)]
pub struct Translations {
    /// |Mlt|; `None` when it exceeds `u64::MAX` (possible from 21 elements on).
    pub multiplication_group: Option<u64>,
    /// The two-sided identity, when there is one.
    pub identity: Option<u32>,
    /// |Inn| = |Mlt| / n for a loop (Mlt is transitive: L_a sends e to a); `None` otherwise.
    pub inner_mapping_group: Option<u64>,
    /// For a loop, whether every inner mapping is an automorphism of `·` (an automorphic loop,
    /// or A-loop: every group is one): checked on Bruck's generators of Inn,
    /// L(a,b) = L_{ba}⁻¹ L_b L_a, R(a,b) = R_{ab}⁻¹ R_b R_a and T(a) = R_a⁻¹ L_a
    /// (composed right to left).
    pub automorphic: Option<bool>,
}

/// The subalgebras that small sets generate.
#[derive(Clone, Debug, Serialize)]
pub struct Subalgebras {
    /// For each element a, the size of the subalgebra ⟨a⟩ it generates.
    pub one_generated: Vec<u32>,
    /// The fewest elements that generate the whole algebra, if at most 3 do.
    pub rank: Option<u32>,
    /// How many nonempty subalgebras there are, counted up to [`SUBALGEBRA_COUNT_LIMIT`]
    /// elements.
    pub count: Option<usize>,
}

/// The anatomy of `alg`, listing at most `limit` congruences.
pub fn analyse(alg: &Algebra, limit: usize) -> Anatomy {
    let congruences = congruence::all(alg, limit);
    let irreducibility = congruences
        .as_ref()
        .map(|c| congruence::irreducibility(alg, c));
    Anatomy {
        size: alg.size(),
        irreducibility,
        congruences,
        binary: alg
            .operations()
            .iter()
            .filter(|op| op.arity == 2)
            .map(|op| binary_parts(alg.size(), op))
            .collect(),
        subalgebras: subalgebras(alg),
    }
}

fn binary_parts(n: u32, op: &Operation) -> BinaryParts {
    let m = |a: u32, b: u32| op.value(n, &[a, b]);
    let pairs = || (0..n).flat_map(move |x| (0..n).map(move |y| (x, y)));
    let those = |keep: &dyn Fn(u32) -> bool| (0..n).filter(|&a| keep(a)).collect::<Vec<u32>>();
    let left = those(&|a| pairs().all(|(x, y)| m(a, m(x, y)) == m(m(a, x), y)));
    let middle = those(&|a| pairs().all(|(x, y)| m(m(x, a), y) == m(x, m(a, y))));
    let right = those(&|a| pairs().all(|(x, y)| m(m(x, y), a) == m(x, m(y, a))));
    let commutant = those(&|a| (0..n).all(|x| m(a, x) == m(x, a)));
    let nucleus: Vec<u32> = left
        .iter()
        .copied()
        .filter(|a| middle.contains(a) && right.contains(a))
        .collect();
    let centre = nucleus
        .iter()
        .copied()
        .filter(|a| commutant.contains(a))
        .collect();
    let translations = translations(n, &m);
    BinaryParts {
        operation: op.name.clone(),
        idempotents: those(&|x| m(x, x) == x),
        commutant,
        left_nucleus: left,
        middle_nucleus: middle,
        right_nucleus: right,
        nucleus,
        centre,
        translations,
    }
}

/// The multiplication and inner mapping groups of `m` on `{0..n-1}` when its table is a Latin
/// square.
fn translations(n: u32, m: &dyn Fn(u32, u32) -> u32) -> Option<Translations> {
    let left: Vec<Permutation> = (0..n).map(|a| (0..n).map(|x| m(a, x)).collect()).collect();
    let right: Vec<Permutation> = (0..n).map(|a| (0..n).map(|x| m(x, a)).collect()).collect();
    let bijective = |p: &Permutation| {
        let mut seen = vec![false; n as usize];
        p.iter()
            .all(|&y| !std::mem::replace(&mut seen[y as usize], true))
    };
    if !left.iter().chain(&right).all(bijective) {
        return None;
    }
    let generators: Vec<Permutation> = left.iter().chain(&right).cloned().collect();
    let multiplication_group = permutation::order(n as usize, &generators);
    let identity = (0..n).find(|&e| (0..n).all(|x| m(e, x) == x && m(x, e) == x));
    let inner_mapping_group = identity.and(multiplication_group.map(|o| o / u64::from(n)));
    let automorphic = identity.map(|_| {
        let l = |a: u32| &left[a as usize];
        let r = |a: u32| &right[a as usize];
        // Each inner mapping as "apply these in turn" (then), so L(a,b) = L_{ba}⁻¹ L_b L_a is L_a,
        // then L_b, then L_{ba}⁻¹.
        let mut inner: Vec<Permutation> = Vec::new();
        for a in 0..n {
            inner.push(then(l(a), &inverse(r(a))));
            for b in 0..n {
                inner.push(then(&then(l(a), l(b)), &inverse(l(m(b, a)))));
                inner.push(then(&then(r(a), r(b)), &inverse(r(m(a, b)))));
            }
        }
        inner.iter().all(|f| {
            (0..n).all(|x| (0..n).all(|y| f[m(x, y) as usize] == m(f[x as usize], f[y as usize])))
        })
    });
    Some(Translations {
        multiplication_group,
        identity,
        inner_mapping_group,
        automorphic,
    })
}

fn subalgebras(alg: &Algebra) -> Subalgebras {
    let n = alg.size();
    let size_of = |gens: &[u32]| alg.generated(gens).iter().filter(|&&b| b).count() as u32;
    let one_generated: Vec<u32> = (0..n).map(|a| size_of(&[a])).collect();
    let whole = |gens: &[u32]| size_of(gens) == n;
    let rank = if whole(&[]) {
        Some(0)
    } else if one_generated.contains(&n) {
        Some(1)
    } else if (0..n).any(|a| (a + 1..n).any(|b| whole(&[a, b]))) {
        Some(2)
    } else if (0..n).any(|a| (a + 1..n).any(|b| (b + 1..n).any(|c| whole(&[a, b, c])))) {
        Some(3)
    } else {
        None
    };
    let count = (n <= SUBALGEBRA_COUNT_LIMIT).then(|| {
        (1u32..1 << n)
            .filter(|set| {
                let members: Vec<u32> = (0..n).filter(|x| set >> x & 1 == 1).collect();
                alg.generated(&members).iter().filter(|&&b| b).count() == members.len()
            })
            .count()
    });
    Subalgebras {
        one_generated,
        rank,
        count,
    }
}

/// How many of the models of one size are simple, subdirectly irreducible and directly
/// indecomposable: the classical table of a variety.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SizeSummary {
    /// The size.
    pub size: u32,
    /// Models analysed.
    pub analysed: usize,
    /// Of those, simple.
    pub simple: usize,
    /// Of those, subdirectly irreducible.
    pub subdirectly_irreducible: usize,
    /// Of those, directly indecomposable.
    pub directly_indecomposable: usize,
    /// Of those, with more than [`CONGRUENCE_LIMIT`] congruences (counted in none of the above).
    pub lattice_too_large: usize,
}

impl SizeSummary {
    /// The table's row for models of size `size`, from their anatomies.
    pub fn of<'a>(size: u32, anatomies: impl IntoIterator<Item = &'a Anatomy>) -> SizeSummary {
        let mut row = SizeSummary {
            size,
            ..SizeSummary::default()
        };
        for a in anatomies {
            row.analysed += 1;
            match &a.irreducibility {
                Some(i) => {
                    row.simple += usize::from(i.simple);
                    row.subdirectly_irreducible += usize::from(i.subdirectly_irreducible);
                    row.directly_indecomposable += usize::from(i.directly_indecomposable);
                }
                None => row.lattice_too_large += 1,
            }
        }
        row
    }
}
