//! Sort inference for the variables of one axiom: a union-find over sort unknowns.

use crate::signature::SortId;

/// The sort of a parsed term: known, or the unknown sort of a variable class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SortRef {
    Known(SortId),
    Unknown(usize),
}

/// Equivalence classes of sort unknowns, each possibly resolved to a sort.
#[derive(Clone, Debug, Default)]
pub(crate) struct SortUnifier {
    parent: Vec<usize>,
    value: Vec<Option<SortId>>,
}

impl SortUnifier {
    /// A new unknown, optionally already known.
    pub fn fresh(&mut self, known: Option<SortId>) -> usize {
        self.parent.push(self.parent.len());
        self.value.push(known);
        self.parent.len() - 1
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// The resolved sort of a reference, if any.
    pub fn resolve(&mut self, r: SortRef) -> Option<SortId> {
        match r {
            SortRef::Known(s) => Some(s),
            SortRef::Unknown(i) => {
                let root = self.find(i);
                self.value[root]
            }
        }
    }

    /// Makes two sorts equal; on a clash returns the two sorts that differ.
    pub fn unify(&mut self, a: SortRef, b: SortRef) -> Result<(), (SortId, SortId)> {
        match (a, b) {
            (SortRef::Known(x), SortRef::Known(y)) => {
                if x == y {
                    Ok(())
                } else {
                    Err((x, y))
                }
            }
            (SortRef::Unknown(i), SortRef::Known(s)) | (SortRef::Known(s), SortRef::Unknown(i)) => {
                let root = self.find(i);
                match self.value[root] {
                    Some(v) if v != s => Err((s, v)),
                    _ => {
                        self.value[root] = Some(s);
                        Ok(())
                    }
                }
            }
            (SortRef::Unknown(i), SortRef::Unknown(j)) => {
                let (ri, rj) = (self.find(i), self.find(j));
                if ri == rj {
                    return Ok(());
                }
                match (self.value[ri], self.value[rj]) {
                    (Some(x), Some(y)) if x != y => Err((x, y)),
                    (vi, vj) => {
                        self.parent[ri] = rj;
                        self.value[rj] = vj.or(vi);
                        Ok(())
                    }
                }
            }
        }
    }
}
