//! First-order matching and one-step rewriting on engine terms. The explanation reader uses
//! matching to recover each step's substitution; the conjecture engine uses [`one_step`] to drop
//! conjectures that a single rewrite with a known equation proves.

use birkhoff_engine::signature::{Signature, SortId};
use birkhoff_engine::syntax::{Term, VarDecl};

/// Extends `sub` (indexed by the pattern's variables) so that `pattern` under it is `t`; false
/// if it cannot. Variables of `t` are rigid: they match only themselves. The bindings borrow
/// subterms of `t`, so a failed match allocates nothing.
pub fn matches<'t>(pattern: &Term, t: &'t Term, sub: &mut [Option<&'t Term>]) -> bool {
    match (pattern, t) {
        (Term::Var(v), _) => match sub[v.0 as usize] {
            Some(bound) => bound == t,
            None => {
                sub[v.0 as usize] = Some(t);
                true
            }
        },
        (Term::App(f, ps), Term::App(g, ts)) => {
            f == g && ps.len() == ts.len() && ps.iter().zip(ts).all(|(p, t)| matches(p, t, sub))
        }
        _ => false,
    }
}

/// A known equation `lhs = rhs` with its variables, usable in both directions.
pub struct Equation<'a> {
    /// The left side.
    pub lhs: &'a Term,
    /// The right side.
    pub rhs: &'a Term,
    /// The equation's variable table.
    pub vars: &'a [VarDecl],
}

/// The sort of a term whose variables are declared in `vars`.
fn sort_of(sig: &Signature, vars: &[VarDecl], t: &Term) -> SortId {
    match t {
        Term::Var(v) => vars[v.0 as usize].sort,
        Term::App(f, _) => sig.func_decl(*f).result,
    }
}

/// Whether `s` becomes `t` by rewriting one subterm with an instance of one of `equations`, in
/// either direction. The variables of `s` and `t` (declared in `vars`) are rigid, as in a proof
/// of `∀ vars. s = t`; every binding must respect sorts (which matters for a bare variable side).
pub fn one_step(
    sig: &Signature,
    vars: &[VarDecl],
    s: &Term,
    t: &Term,
    equations: &[Equation],
) -> bool {
    // A single rewrite changes one subterm, so it happens at an ancestor of (or at) the deepest
    // position below which all the differences lie.
    let mut path = Vec::new();
    let (mut a, mut b) = (s, t);
    while let (Term::App(f, xs), Term::App(g, ys)) = (a, b) {
        if f != g {
            break;
        }
        let differing: Vec<usize> = (0..xs.len()).filter(|&i| xs[i] != ys[i]).collect();
        if differing.len() != 1 {
            break;
        }
        path.push((a, b));
        (a, b) = (&xs[differing[0]], &ys[differing[0]]);
    }
    path.push((a, b));
    path.iter().any(|&(x, y)| {
        equations.iter().any(|e| {
            [(e.lhs, e.rhs), (e.rhs, e.lhs)]
                .into_iter()
                .any(|(from, to)| {
                    let mut sub = vec![None; e.vars.len()];
                    matches(from, x, &mut sub)
                        && matches(to, y, &mut sub)
                        && sub.iter().enumerate().all(|(i, b)| {
                            b.as_ref()
                                .is_none_or(|b| sort_of(sig, vars, b) == e.vars[i].sort)
                        })
                })
        })
    })
}
