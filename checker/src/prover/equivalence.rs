//! Semantic equivalence of two theories over one signature: each proves every axiom of the
//! other. Syntactic canonical forms cannot see that, say, a group given by left axioms and one
//! given by right axioms are the same class; `explore` uses this to mark such pairs in the
//! derivation graph.

use super::{prove, Options, Verdict};
use crate::finder::FinderError;
use birkhoff_engine::canon::has_axiom;
use birkhoff_engine::moves::transfer::{carried, SymbolMap};
use birkhoff_engine::Theory;

/// The identity map on `t`'s symbol names.
fn same_names(t: &Theory) -> SymbolMap {
    t.sig.funcs.iter().map(|d| &d.name).chain(t.sig.rels.iter().map(|d| &d.name)).map(|n| (n.clone(), n.clone())).collect()
}

/// Whether `a` and `b` are equivalent: both declare the same symbols (matched by name, with the
/// same profiles) and every axiom of each is proved from the other by [`prove`] within `opts`
/// (an axiom the other already has, up to variable names, needs no proof). Returns the evidence
/// when they are; `None` when the signatures differ or some axiom was not proved (disproved or
/// unknown: equivalence is then not established, which is not a claim that they differ).
pub fn equivalent(a: &Theory, b: &Theory, opts: &Options) -> Result<Option<String>, FinderError> {
    let (names_a, names_b) = (same_names(a), same_names(b));
    if names_a != names_b {
        return Ok(None);
    }
    let (Some(b_in_a), Some(a_in_b)) = (carried(b, a, &names_b), carried(a, b, &names_a)) else {
        return Ok(None);
    };
    let (mut certified, mut by_z3) = (0, 0);
    for (theory, goals) in [(a, &b_in_a), (b, &a_in_b)] {
        for goal in goals.iter().filter(|g| !has_axiom(theory, g)) {
            match prove(theory, goal, opts)?.verdict {
                Verdict::Proved { .. } => certified += 1,
                Verdict::ProvedByZ3 { .. } => by_z3 += 1,
                Verdict::Disproved { .. } | Verdict::Unknown => return Ok(None),
            }
        }
    }
    let z3 = if by_z3 > 0 { format!(", {by_z3} by Z3 (weaker evidence)") } else { String::new() };
    Ok(Some(format!("each proves the other's axioms: {certified} proofs with replayed certificates{z3}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn th(src: &str) -> Theory {
        Theory::parse(src, "t.bk").unwrap()
    }

    #[test]
    fn commutative_monoids_with_a_left_or_a_right_identity_are_equivalent_but_not_semigroups() {
        let opts = Options { timeout: Duration::from_secs(5), ..Options::default() };
        let left = th("theory L\nfunc * : 2\nconst e\naxiom a: (x*y)*z = x*(y*z)\naxiom c: x*y = y*x\naxiom l: e*x = x");
        let right = th("theory R\nfunc * : 2\nconst e\naxiom a: (x*y)*z = x*(y*z)\naxiom c: x*y = y*x\naxiom r: x*e = x");
        let evidence = equivalent(&left, &right, &opts).unwrap();
        assert!(evidence.is_some_and(|e| e.contains("2 proofs with replayed certificates")), "commutativity turns one identity law into the other");
        let semigroup = th("theory S\nfunc * : 2\nconst e\naxiom a: (x*y)*z = x*(y*z)\naxiom c: x*y = y*x");
        assert_eq!(equivalent(&left, &semigroup, &opts).unwrap(), None, "the identity law does not follow");
        let other = th("theory O\nfunc + : 2\nconst e\naxiom a: (x+y)+z = x+(y+z)");
        assert_eq!(equivalent(&left, &other, &opts).unwrap(), None, "different signatures");
    }
}
