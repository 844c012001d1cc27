//! The lex-leader check against its definition: a relabelling π prunes a partial table when,
//! reading cells in the decision order, π(M) and M agree up to some cell where π(M) is smaller,
//! with everything compared already assigned. Here every π is tried; the check searches π.

use birkhoff_checker::{LexLeader, Problem};
use birkhoff_engine::Theory;
use proptest::prelude::*;

const NONE: u32 = u32::MAX;

/// The definition, by trying every relabelling (one sort).
fn brute_dominated(p: &Problem, val: &[u32]) -> bool {
    let n = p.sizes[0];
    crate::common::permutations(n).iter().any(|pi| {
        let mut sigma = vec![0; n as usize];
        for (a, &b) in pi.iter().enumerate() {
            sigma[b as usize] = a as u32;
        }
        for &cell in &p.decision_order {
            let c = &p.cells[cell];
            let x = val[cell];
            let image = p
                .cells
                .iter()
                .position(|d| {
                    d.symbol == c.symbol
                        && d.args
                            .iter()
                            .zip(&c.args)
                            .all(|(u, w)| *u == sigma[*w as usize])
                })
                .unwrap();
            let v = val[image];
            if x == NONE || v == NONE {
                return false;
            }
            let y = if c.value_sort.is_some() {
                pi[v as usize]
            } else {
                v
            };
            if y != x {
                return y < x;
            }
        }
        false
    })
}

proptest! {
    /// Random partial tables on 2 to 5 elements (a binary and a unary function, a constant and
    /// a binary relation): the check agrees with trying every π.
    #[test]
    fn agrees_with_every_permutation(n in 2u32..=5, seed in any::<u64>(), holes in 0u32..6) {
        let t = Theory::parse("theory T\nfunc * : 2\nfunc i : 1\nconst e\nrel R : 2", "t.bk").unwrap();
        let p = Problem::new(&t, &[n]).unwrap();
        let mut x = seed | 1;
        let mut next = || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x };
        let val: Vec<u32> = p.cells.iter().map(|c| if next() % 8 < holes as u64 { NONE } else { (next() % c.width as u64) as u32 }).collect();
        let mut lex = LexLeader::new(&p, u32::MAX);
        prop_assert_eq!(lex.dominated(&val), brute_dominated(&p, &val), "tables {:?}", val);
    }
}
