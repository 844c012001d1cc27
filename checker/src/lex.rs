//! Lex-leader pruning: a partial assignment is abandoned when some relabelling of the elements
//! is sure to turn every model below it into a lexicographically smaller model.
//!
//! Read the tables as one word, cell by cell in the search's (fixed) decision order. A
//! relabelling π (one permutation per sort) maps a model M to π(M), with
//! `π(M)(π a, π b) = π(M(a, b))`. Of every isomorphism class only the lexicographically least
//! member needs to be found; the others are pruned. Below a node, assigned cells keep their
//! values, so if the cells that decide the comparison are already assigned, the comparison holds
//! for every completion: when `π(M) < M` is decided, the whole subtree holds no least member.
//!
//! Deciding "is there such a π?" is itself a small search over π, built from its inverse
//! σ = π⁻¹ one element at a time: position k of the word compares `M(d)` with
//! `π(M(σ(d)))`. An argument whose σ-image is still open is a branch (every free image is
//! tried). A value v whose π-image is open never is: with the comparison equal so far, the
//! smallest element still free as a π-image decides it (below `M(d)`: a smaller image exists;
//! above: this branch can only give larger images; equal: π(v) must be that element).
//!
//! The pruning keeps the least member of every class, so it never loses a class and combines
//! with the least-number heuristic, which only skips values that a transposition of two fresh
//! elements would make smaller at the cell being decided. The search over π is capped
//! ([`STEP_LIMIT`]): a check that runs out prunes nothing, which is always sound, and the model
//! is then deduplicated by its canonical form. The cap matters for very symmetric tables: the
//! search over π walks their automorphisms (all n! of them for the discrete equivalence
//! relation), which the canonical forms prune and this check does not. Below the cap the check on
//! a complete table is exact, so most enumerations meet each class once.

use crate::bits::BitRows;
use crate::problem::Problem;

const NONE: u32 = u32::MAX;

/// Most σ-extensions one check may try when every model is wanted (counting); beyond it the
/// node is kept (large, symmetric partial tables would otherwise cost more than the pruning
/// saves).
pub const STEP_LIMIT: u32 = 2_000;

/// Most σ-extensions one check may try when one model is wanted. A pruned subtree saves work
/// only if the search would otherwise have exhausted it without a model, so a check is worth
/// less than when counting, where every subtree is exhausted. Measured on the first-model
/// instances of docs/BENCHMARKS.md ("Smaller lex-leader checks for a first model"): at 200
/// rather than 2,000 the native finder finds or exhausts Steiner quasigroups of order 13 and 14
/// and Bol loops of order 16 2.6–4× faster and groups of order 64 about 2× faster, and the
/// worst loss measured is 17 % (distributive nonmedial quasigroups of order 12); counting at 200
/// would be 1.5–2.4× slower (lattices of order 11, groups of order 32).
pub const FIRST_MODEL_STEP_LIMIT: u32 = 200;

/// One position of the word: a cell with what relabelling needs to know about it.
#[derive(Clone, Debug)]
struct Position {
    /// The cell.
    cell: u32,
    /// First cell of its symbol's table.
    base: u32,
    /// Range of its arguments in `LexLeader::args`.
    args: (u32, u32),
    /// Sort of its value, or `NONE` for a relation (0 and 1 are not relabelled).
    value_sort: u32,
}

/// An argument: its element, its sort and its stride in the row-major table.
#[derive(Clone, Copy, Debug)]
struct Arg {
    elem: u32,
    sort: u32,
    stride: u32,
}

/// The precomputed word order and the scratch of the search over π.
#[derive(Clone, Debug)]
pub struct LexLeader {
    positions: Vec<Position>,
    args: Vec<Arg>,
    /// σ(a) per sort, `NONE` if open.
    sigma: Vec<Vec<u32>>,
    /// π(v) per sort, `NONE` if open.
    pi: Vec<Vec<u32>>,
    /// Per sort (one row each), the elements a with σ(a) open (equally: not yet a π-image).
    open_domain: BitRows,
    /// Per sort, the elements v with π(v) open (not yet a σ-image).
    open_image: BitRows,
    /// The images still to try at each open branch of the current check, as bit sets of as many
    /// words as a row of `open_image`, deepest last.
    choices: Vec<u64>,
    /// Undo log of the current check: (sort, a) pairs whose σ was set.
    set: Vec<(u32, u32)>,
    steps: u32,
    /// Most steps of the current check.
    limit: u32,
}

impl LexLeader {
    /// The word order of `p` (its decision order) and empty scratch, for checks of at most
    /// `limit` steps each.
    pub fn new(p: &Problem, limit: u32) -> LexLeader {
        let mut positions = Vec::with_capacity(p.decision_order.len());
        let mut args = Vec::new();
        for &cell in &p.decision_order {
            let c = &p.cells[cell];
            let start = args.len() as u32;
            let mut stride = 1u32;
            let mut offset = 0u32;
            let mut these: Vec<Arg> = Vec::with_capacity(c.args.len());
            for (a, s) in c.args.iter().zip(&c.arg_sorts).rev() {
                these.push(Arg {
                    elem: *a,
                    sort: s.0,
                    stride,
                });
                offset += a * stride;
                stride *= p.sizes[s.0 as usize];
            }
            these.reverse();
            args.extend(these);
            positions.push(Position {
                cell: cell as u32,
                base: cell as u32 - offset,
                args: (start, args.len() as u32),
                value_sort: c.value_sort.map_or(NONE, |s| s.0),
            });
        }
        LexLeader {
            positions,
            args,
            sigma: p.sizes.iter().map(|&n| vec![NONE; n as usize]).collect(),
            pi: p.sizes.iter().map(|&n| vec![NONE; n as usize]).collect(),
            open_domain: BitRows::full(p.sizes.iter().copied()),
            open_image: BitRows::full(p.sizes.iter().copied()),
            choices: Vec::new(),
            set: Vec::new(),
            steps: 0,
            limit,
        }
    }

    /// Whether some relabelling maps every completion of the assignment `val` (`u32::MAX` for an
    /// unassigned cell) to a lexicographically smaller model. `false` may also mean the check ran
    /// out of steps (the limit given to [`LexLeader::new`]).
    pub fn dominated(&mut self, val: &[u32]) -> bool {
        self.steps = 0;
        self.search(val, 0)
    }

    fn bind(&mut self, sort: u32, a: u32, v: u32) {
        let s = sort as usize;
        self.sigma[s][a as usize] = v;
        self.pi[s][v as usize] = a;
        self.open_domain.clear(s, a);
        self.open_image.clear(s, v);
        self.set.push((sort, a));
    }

    fn undo_to(&mut self, mark: usize) {
        while self.set.len() > mark {
            let (sort, a) = self.set.pop().expect("longer than mark");
            let s = sort as usize;
            let v = self.sigma[s][a as usize];
            self.sigma[s][a as usize] = NONE;
            self.pi[s][v as usize] = NONE;
            self.open_domain.insert(s, a);
            self.open_image.insert(s, v);
        }
    }

    /// Compares from position `k` under the current partial σ; true when a smaller image is
    /// certain. Leaves σ as it found it.
    fn search(&mut self, val: &[u32], k: usize) -> bool {
        let mark = self.set.len();
        let found = self.compare(val, k);
        self.undo_to(mark);
        found
    }

    fn compare(&mut self, val: &[u32], from: usize) -> bool {
        for k in from..self.positions.len() {
            let pos = &self.positions[k];
            let x = val[pos.cell as usize];
            if x == NONE {
                return false;
            }
            let mut image = pos.base;
            for i in pos.args.0..pos.args.1 {
                let Arg { elem, sort, stride } = self.args[i as usize];
                let b = self.sigma[sort as usize][elem as usize];
                if b == NONE {
                    return self.branch(val, k, sort, elem);
                }
                image += b * stride;
            }
            let v = val[image as usize];
            if v == NONE {
                return false;
            }
            let y = match pos.value_sort {
                NONE => v,
                sort => {
                    let s = sort as usize;
                    match self.pi[s][v as usize] {
                        NONE => {
                            // Some element is open: π(v) is, so v is no σ-image yet.
                            let least = self.open_domain.next_from(s, 0).unwrap_or(NONE);
                            if least != x {
                                return least < x;
                            }
                            self.bind(sort, least, v);
                            least
                        }
                        y => y,
                    }
                }
            };
            if y != x {
                return y < x;
            }
        }
        false
    }

    /// Tries every open image for σ(a) and compares again from position `k`.
    fn branch(&mut self, val: &[u32], k: usize, sort: u32, a: u32) -> bool {
        let frame = self.choices.len();
        self.choices
            .extend_from_slice(self.open_image.row(sort as usize));
        let mut found = false;
        while let Some(b) = crate::bits::pop_least(&mut self.choices[frame..]) {
            if self.steps >= self.limit {
                break;
            }
            self.steps += 1;
            self.bind(sort, a, b);
            found = self.search(val, k);
            self.undo_to(self.set.len() - 1);
            if found {
                break;
            }
        }
        self.choices.truncate(frame);
        found
    }
}
