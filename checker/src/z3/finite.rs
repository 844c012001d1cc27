//! A theory at fixed sort sizes as one incremental Z3 solver (logic `QF_FD`, Z3's incremental
//! SAT solver): the tables as free bit-vector and Boolean constants ([`super::encode`]), the
//! axioms expanded over the domains, and a static form of the
//! least-number heuristic so that enumeration meets few copies of each isomorphism class.
//!
//! # Symmetry breaking, and why it loses no isomorphism class
//!
//! Cells (table entries) are ordered concentrically: by their largest argument, then by table
//! order. For a function cell `c_k` whose value sort is `s`, let `m_k` be the largest element of
//! `s` mentioned so far: among the arguments of `c_1..c_k` and the values of `c_1..c_(k-1)`
//! (`-1` when none). The constraint is `value(c_k) <= m_k + 1`.
//!
//! Take any model violating it, at the first such `k`, with value `v > m_k + 1`. The
//! transposition of `v` and `m_k + 1` (both unmentioned, so both above `m_k`) fixes the cells
//! `c_1..c_k` and the values of `c_1..c_(k-1)`, so it maps the model to an isomorphic one that
//! agrees on `c_1..c_(k-1)` and has the smaller value `m_k + 1` at `c_k`. The sequence of values
//! in cell order decreases lexicographically, so repeating this ends, at an isomorphic model that
//! satisfies every constraint. Hence every isomorphism class keeps at least one model.

use super::encode::{width, Domains, EncodeError, Encoder};
use birkhoff_engine::signature::SortId;
use birkhoff_engine::structure::tuples;
use birkhoff_engine::{Structure, Theory};
use z3::ast::{Bool, BV};
use z3::{Model, Solver};

/// One table entry: a function or relation applied to elements.
struct Cell {
    /// Function (`Some(result sort)`) or relation (`None`).
    value_sort: Option<SortId>,
    /// Index of the symbol among the functions or the relations.
    symbol: usize,
    /// Position in the symbol's table.
    index: usize,
    /// The argument values with their sorts.
    args: Vec<(SortId, u32)>,
}

/// A theory at fixed sizes, asserted into a Z3 solver of the current thread's context.
pub struct FiniteProblem {
    /// The solver holding the axioms, domain and symmetry constraints, and blocking clauses.
    pub solver: Solver,
    sizes: Vec<u32>,
    template: Structure,
    cells: Vec<Cell>,
    enc: Encoder,
}

impl FiniteProblem {
    /// Encodes `t` at `sizes`. With `symmetry_breaking`, adds the constraints of the module doc.
    /// The encoding gives up (an error with `stopped` set) as soon as `stop` says so.
    pub fn new(
        t: &Theory,
        sizes: &[u32],
        symmetry_breaking: bool,
        stop: impl Fn() -> bool + 'static,
    ) -> Result<FiniteProblem, EncodeError> {
        let mut enc = Encoder::new(&t.sig, Domains::Finite(sizes.to_vec()));
        enc.stop_when(stop);
        let solver = Solver::new_for_logic("QF_FD").expect("Z3 knows the logic QF_FD");
        for a in &t.axioms {
            solver.assert(enc.axiom(a)?);
        }
        let mut cells = Vec::new();
        for (symbol, d) in t.sig.funcs.iter().enumerate() {
            for (index, args) in tuples(sizes, &d.args).enumerate() {
                cells.push(Cell {
                    value_sort: Some(d.result),
                    symbol,
                    index,
                    args: d.args.iter().copied().zip(args).collect(),
                });
            }
        }
        for (symbol, d) in t.sig.rels.iter().enumerate() {
            for (index, args) in tuples(sizes, &d.args).enumerate() {
                cells.push(Cell {
                    value_sort: None,
                    symbol,
                    index,
                    args: d.args.iter().copied().zip(args).collect(),
                });
            }
        }
        cells.sort_by_key(|c| c.args.iter().map(|a| a.1 + 1).max().unwrap_or(0));
        let p = FiniteProblem {
            solver,
            sizes: sizes.to_vec(),
            template: Structure::zeroed(&t.sig, sizes),
            cells,
            enc,
        };
        p.assert_domains();
        if symmetry_breaking {
            p.assert_least_number();
        }
        Ok(p)
    }

    fn bv(&self, c: &Cell) -> BV {
        self.enc.func_entries()[c.symbol][c.index].clone()
    }

    fn boolean(&self, c: &Cell) -> Bool {
        self.enc.rel_entries()[c.symbol][c.index].clone()
    }

    /// Every function value lies in its sort (bit-vectors have 2^w values, sorts may have fewer).
    fn assert_domains(&self) {
        for c in &self.cells {
            if let Some(s) = c.value_sort {
                let n = self.sizes[s.0 as usize];
                if n < 1 << width(n) {
                    self.solver
                        .assert(self.bv(c).bvult(BV::from_u64(n as u64, width(n))));
                }
            }
        }
    }

    /// The static least-number heuristic (module doc).
    fn assert_least_number(&self) {
        let sorts = self.sizes.len();
        // Per sort: the largest argument seen so far, and the running maximum of values as a term.
        let mut max_arg: Vec<Option<u32>> = vec![None; sorts];
        let mut max_value: Vec<Option<BV>> = vec![None; sorts];
        for c in &self.cells {
            for &(s, v) in &c.args {
                let m = &mut max_arg[s.0 as usize];
                *m = Some(m.map_or(v, |m| m.max(v)));
            }
            let Some(s) = c.value_sort else { continue };
            let (si, n) = (s.0 as usize, self.sizes[s.0 as usize]);
            let w = width(n);
            let value = self.bv(c);
            let mentioned = match (&max_value[si], max_arg[si]) {
                (None, None) => None,
                (None, Some(a)) => Some(BV::from_u64(a as u64, w)),
                (Some(m), None) => Some(m.clone()),
                (Some(m), Some(a)) => {
                    let a = BV::from_u64(a as u64, w);
                    Some(m.bvugt(&a).ite(m, &a))
                }
            };
            let bound = match mentioned {
                None => value.eq(BV::from_u64(0, w)),
                Some(m) => {
                    let top = BV::from_u64(n as u64 - 1, w);
                    Bool::or(&[m.eq(&top), value.bvule(m.bvadd(BV::from_u64(1, w)))])
                }
            };
            self.solver.assert(&bound);
            max_value[si] = Some(match &max_value[si] {
                None => value,
                Some(m) => value.bvugt(m).ite(&value, m),
            });
        }
    }

    /// The structure of a model, read cell by cell.
    pub fn structure(&self, m: &Model) -> Structure {
        let mut s = self.template.clone();
        for c in &self.cells {
            match c.value_sort {
                Some(_) => {
                    s.funcs[c.symbol][c.index] = m
                        .eval(&self.bv(c), true)
                        .and_then(|b| b.as_u64())
                        .expect("a model gives every entry a numeral")
                        as u32
                }
                None => {
                    s.rels[c.symbol][c.index] = m
                        .eval(&self.boolean(c), true)
                        .and_then(|b| b.as_bool())
                        .expect("a model gives every entry a truth value")
                }
            }
        }
        s
    }

    /// Excludes exactly this structure from later answers.
    pub fn block(&self, s: &Structure) {
        let lits: Vec<Bool> = self
            .cells
            .iter()
            .map(|c| match c.value_sort {
                Some(rs) => self
                    .bv(c)
                    .eq(BV::from_u64(
                        s.funcs[c.symbol][c.index] as u64,
                        width(self.sizes[rs.0 as usize]),
                    ))
                    .not(),
                None if s.rels[c.symbol][c.index] => self.boolean(c).not(),
                None => self.boolean(c),
            })
            .collect();
        self.solver.assert(Bool::or(&lits));
    }
}
