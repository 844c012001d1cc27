//! One-to-one maps that are therefore onto.
//!
//! An axiom `t₁(x̄) = t₁(ȳ) & … & tₘ(x̄) = tₘ(ȳ) -> xⱼ = yⱼ`, where `ȳ` renames the distinct
//! variables `x̄`, says that the values of the terms determine `xⱼ`. Orthogonal Latin squares
//! are the common case: `x * y = z * w & x + y = z + w -> x = z` (and, for a self-orthogonal
//! square, `x * y = z * w & y * x = w * z -> x = z`). When every other variable of `x̄` is then
//! determined too, by a term `f(…, xᵢ, …)` whose other arguments are determined and where `f`
//! cancels in that argument (a cancellation clause of `crate::implied`), the map
//! `x̄ ↦ (t₁(x̄), …, tₘ(x̄))` is one-to-one. Between finite sets of the same size a one-to-one
//! map is onto: every tuple of values is taken at some `x̄`.
//!
//! The axiom as written only forbids two points with the same values, so a solver learns that a
//! pair of symbols is still missing only when every place for it is taken. The onto clauses
//! ("the pair `(a, b)` occurs somewhere") propagate as soon as one place is left, which is how
//! the Latin constraints of each square already work. Every finite model satisfies them, so they
//! change no model and no count.

use birkhoff_engine::syntax::{Axiom, Formula, Term, VarId};
use std::collections::HashMap;

/// A map made one-to-one by an axiom: `terms` over the variables `vars` (the axiom's `x̄`).
#[derive(Debug, PartialEq)]
pub struct Injection {
    /// The terms `t₁(x̄) … tₘ(x̄)`.
    pub terms: Vec<Term>,
    /// The variables `x̄`, in the order they first occur.
    pub vars: Vec<VarId>,
}

/// The injection axiom `a` states, given the `(symbol, argument)` pairs in which a function is
/// known to cancel; `None` when `a` has another shape or leaves a variable undetermined.
pub fn injection(a: &Axiom, cancels: &[(u32, usize)]) -> Option<Injection> {
    let Formula::Implies(ante, concl) = a.formula.without_leading_foralls() else {
        return None;
    };
    let equations = ante
        .conjuncts()
        .into_iter()
        .map(|f| {
            if let Formula::Eq(l, r) = f {
                Some((l, r))
            } else {
                None
            }
        })
        .collect::<Option<Vec<_>>>()?;
    let goals = concl
        .conjuncts()
        .into_iter()
        .map(|f| {
            if let Formula::Eq(Term::Var(u), Term::Var(v)) = f {
                Some((*u, *v))
            } else {
                None
            }
        })
        .collect::<Option<Vec<_>>>()?;
    let (first, rest) = equations.split_first()?;
    // The side of the first equation that holds x̄ fixes the renaming; try both.
    for (l0, r0) in [(first.0, first.1), (first.1, first.0)] {
        let mut renaming = Renaming::default();
        if !renaming.extend(l0, r0) {
            continue;
        }
        let mut terms = vec![l0.clone()];
        let oriented = rest.iter().all(|&(l, r)| {
            for (x_side, y_side) in [(l, r), (r, l)] {
                let mut tried = renaming.clone();
                if tried.extend(x_side, y_side) {
                    renaming = tried;
                    terms.push(x_side.clone());
                    return true;
                }
            }
            false
        });
        if !oriented
            || renaming
                .forward
                .keys()
                .any(|x| renaming.backward.contains_key(x))
        {
            continue;
        }
        let mut known: Vec<VarId> = Vec::new();
        for &(u, v) in &goals {
            match (renaming.forward.get(&u), renaming.forward.get(&v)) {
                (Some(&y), _) if y == v => known.push(u),
                (_, Some(&y)) if y == u => known.push(v),
                _ => return None,
            }
        }
        let vars = renaming.order.clone();
        // Each round, a term f(…) whose arguments are variables, all known but one at an
        // argument where f cancels, determines that one too.
        loop {
            let before = known.len();
            for t in &terms {
                let Term::App(f, args) = t else { continue };
                let Some(args) = args
                    .iter()
                    .map(|t| if let Term::Var(v) = t { Some(*v) } else { None })
                    .collect::<Option<Vec<_>>>()
                else {
                    continue;
                };
                let unknown: Vec<usize> = (0..args.len())
                    .filter(|&i| !known.contains(&args[i]))
                    .collect();
                if let [i] = unknown[..] {
                    if args.iter().filter(|&&v| v == args[i]).count() == 1
                        && cancels.contains(&(f.0, i))
                    {
                        known.push(args[i]);
                    }
                }
            }
            if known.len() == before {
                break;
            }
        }
        return vars
            .iter()
            .all(|v| known.contains(v))
            .then_some(Injection { terms, vars });
    }
    None
}

/// A one-to-one renaming of variables `x ↦ y`, built by matching terms.
#[derive(Clone, Default)]
struct Renaming {
    forward: HashMap<VarId, VarId>,
    backward: HashMap<VarId, VarId>,
    /// The renamed variables in the order met.
    order: Vec<VarId>,
}

impl Renaming {
    /// Extends the renaming so that it maps `x_side` to `y_side`; false (and partly extended)
    /// when no consistent extension exists, so callers extend a copy.
    fn extend(&mut self, x_side: &Term, y_side: &Term) -> bool {
        match (x_side, y_side) {
            (Term::Var(x), Term::Var(y)) => {
                if x == y {
                    return false;
                }
                match (self.forward.get(x), self.backward.get(y)) {
                    (Some(b), _) if b != y => false,
                    (_, Some(a)) if a != x => false,
                    (Some(_), Some(_)) => true,
                    _ => {
                        self.forward.insert(*x, *y);
                        self.backward.insert(*y, *x);
                        self.order.push(*x);
                        true
                    }
                }
            }
            (Term::App(f, xs), Term::App(g, ys)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.extend(x, y))
            }
            _ => false,
        }
    }
}
