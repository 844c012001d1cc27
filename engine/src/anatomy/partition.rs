//! Partitions of `{0..n-1}`: the equivalence relations that congruences are.

use petgraph::unionfind::UnionFind;
use serde::{Serialize, Serializer};

/// A partition of `{0..n-1}`: each element's block, blocks numbered in the order of their least
/// elements, so that two partitions are equal exactly when their vectors are.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Partition(Vec<u32>);

impl Partition {
    /// The partition into singletons (the least congruence, Δ).
    pub fn discrete(n: u32) -> Partition {
        Partition((0..n).collect())
    }

    /// The partition with one block (the greatest congruence, ∇).
    pub fn total(n: u32) -> Partition {
        Partition(vec![0; n as usize])
    }

    /// The partition that a union-find structure over `{0..n-1}` describes.
    pub(crate) fn of(blocks: &UnionFind<u32>) -> Partition {
        let mut number = vec![u32::MAX; blocks.len()];
        let mut next = 0;
        Partition(
            (0..blocks.len() as u32)
                .map(|x| {
                    let root = blocks.find(x) as usize;
                    if number[root] == u32::MAX {
                        number[root] = next;
                        next += 1;
                    }
                    number[root]
                })
                .collect(),
        )
    }

    /// The partition with these block labels, which must already be numbered in order of least
    /// elements (a restricted growth string).
    pub(crate) fn from_labels(labels: Vec<u32>) -> Partition {
        debug_assert_eq!(
            Partition::of(&Partition(labels.clone()).to_union_find()).0,
            labels
        );
        Partition(labels)
    }

    /// A union-find structure holding this partition, to merge more blocks into.
    pub(crate) fn to_union_find(&self) -> UnionFind<u32> {
        let mut uf = UnionFind::new(self.0.len());
        self.merge_into(&mut uf);
        uf
    }

    /// Merges this partition's blocks into `uf`: each element with its block's least one.
    fn merge_into(&self, uf: &mut UnionFind<u32>) {
        let mut first = vec![u32::MAX; self.0.len()];
        for (x, &b) in self.0.iter().enumerate() {
            match first[b as usize] {
                u32::MAX => first[b as usize] = x as u32,
                y => {
                    uf.union(x as u32, y);
                }
            }
        }
    }

    /// The block of each element, numbered from 0 in order of least elements.
    pub fn labels(&self) -> &[u32] {
        &self.0
    }

    /// The number of elements partitioned.
    pub fn len(&self) -> u32 {
        self.0.len() as u32
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of blocks (the size of the quotient).
    pub fn blocks(&self) -> u32 {
        self.0.iter().max().map_or(0, |m| m + 1)
    }

    /// Whether `a` and `b` lie in one block.
    pub fn related(&self, a: u32, b: u32) -> bool {
        self.0[a as usize] == self.0[b as usize]
    }

    /// Whether this is the partition into singletons.
    pub fn is_discrete(&self) -> bool {
        self.blocks() == self.len()
    }

    /// Whether this partition has at most one block.
    pub fn is_total(&self) -> bool {
        self.blocks() <= 1
    }

    /// Whether every block of `self` lies inside a block of `other` (`self ⊆ other` as relations).
    pub fn finer_than(&self, other: &Partition) -> bool {
        let mut image = vec![u32::MAX; self.0.len()];
        self.0.iter().zip(&other.0).all(|(&b, &o)| {
            let seen = &mut image[b as usize];
            if *seen == u32::MAX {
                *seen = o;
            }
            *seen == o
        })
    }

    /// The least partition coarser than both (the join of equivalence relations).
    pub fn join(&self, other: &Partition) -> Partition {
        let mut uf = self.to_union_find();
        other.merge_into(&mut uf);
        Partition::of(&uf)
    }

    /// The greatest partition finer than both (blocks are intersections of blocks).
    pub fn meet(&self, other: &Partition) -> Partition {
        let mut number = std::collections::HashMap::new();
        Partition(
            self.0
                .iter()
                .zip(&other.0)
                .map(|pair| {
                    let next = number.len() as u32;
                    *number.entry(pair).or_insert(next)
                })
                .collect(),
        )
    }

    /// Whether `self ∘ other` relates every pair: each block of `self` meets each block of
    /// `other`. With a trivial meet, such a pair of congruences splits an algebra as the
    /// product of its two quotients.
    pub fn permutes_to_total(&self, other: &Partition) -> bool {
        let (a, b) = (self.blocks() as usize, other.blocks() as usize);
        let mut met = vec![false; a * b];
        for (&x, &y) in self.0.iter().zip(&other.0) {
            met[x as usize * b + y as usize] = true;
        }
        met.into_iter().all(|m| m)
    }

    /// The blocks, each in increasing order, in the order of their least elements.
    pub fn classes(&self) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new(); self.blocks() as usize];
        for (x, &b) in self.0.iter().enumerate() {
            out[b as usize].push(x as u32);
        }
        out
    }
}

/// Written as its blocks: `{0,1}{2}{3}`, singletons included.
impl std::fmt::Display for Partition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for class in self.classes() {
            let items: Vec<String> = class.iter().map(u32::to_string).collect();
            write!(f, "{{{}}}", items.join(","))?;
        }
        Ok(())
    }
}

/// Serialized as its blocks, a list of lists of elements.
impl Serialize for Partition {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.classes().serialize(s)
    }
}
