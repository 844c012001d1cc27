//! Redundant clauses that the search propagates better than the axioms they follow from.
//!
//! Cancellation. An axiom `C[f(x̄)] = xᵢ`, where `x̄` are distinct variables and the context `C`
//! mentions no variable of `x̄` but the others, makes `f` injective in its `i`-th argument:
//! if `f(x̄) = f(x̄[xᵢ := z])` then `xᵢ = C[f(x̄)] = C[f(x̄[xᵢ := z])] = z`. Quasigroups and loops
//! written with divisions (`x \ (x * y) = y`) are the common case. The axiom itself propagates
//! only once `x * y` is known, and then only into the division table; the cancellation clause
//! `f(x̄) = f(x̄') -> xᵢ = z` removes the value from every other cell of the row at once, as the
//! cancellation laws do when a theory states them directly.
//!
//! Every model of the theory satisfies these clauses, so adding them changes no model and no
//! count; the evaluator still checks models against the theory's own axioms.

use birkhoff_engine::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use birkhoff_engine::Theory;

/// The cancellation clauses implied by `theory`'s axioms, one per (symbol, argument), each with
/// a name saying where it came from.
pub fn cancellations(theory: &Theory) -> Vec<Axiom> {
    let mut out: Vec<Axiom> = Vec::new();
    let mut seen = Vec::new();
    for a in &theory.axioms {
        let mut body = &a.formula;
        while let Formula::Forall(_, g) = body {
            body = g;
        }
        let Formula::Eq(l, r) = body else { continue };
        for (side, var) in [(l, r), (r, l)] {
            let Term::Var(v) = var else { continue };
            for (app, i) in injective_in(side, *v) {
                let Term::App(f, _) = app else { unreachable!("injective_in returns applications") };
                if seen.contains(&(*f, i)) {
                    continue;
                }
                seen.push((*f, i));
                out.push(clause(a, app, i, format!("{}_cancellation_{}", a.name, i + 1)));
            }
        }
    }
    out
}

/// The applications `f(x̄)` in `side` (distinct variables, `v` the `i`-th of them) such that
/// `side` with them replaced by a hole mentions no variable outside `x̄ \ {v}`.
fn injective_in(side: &Term, v: VarId) -> Vec<(&Term, usize)> {
    let mut apps = Vec::new();
    collect_apps(side, &mut apps);
    apps.into_iter()
        .filter(|app| *app != side)
        .filter_map(|app| {
            let Term::App(_, args) = app else { return None };
            let vars: Vec<VarId> = args.iter().map(|t| if let Term::Var(x) = t { Some(*x) } else { None }).collect::<Option<_>>()?;
            if (1..vars.len()).any(|k| vars[..k].contains(&vars[k])) {
                return None;
            }
            let i = vars.iter().position(|x| *x == v)?;
            let mut outside = false;
            context_vars(side, app, &mut |x| outside |= x == v || !vars.contains(&x));
            (!outside).then_some((app, i))
        })
        .collect()
}

fn collect_apps<'t>(t: &'t Term, out: &mut Vec<&'t Term>) {
    if let Term::App(_, args) = t {
        out.push(t);
        args.iter().for_each(|a| collect_apps(a, out));
    }
}

/// Calls `f` on every variable of `t` outside the occurrences of `hole`.
fn context_vars(t: &Term, hole: &Term, f: &mut impl FnMut(VarId)) {
    if t == hole {
        return;
    }
    match t {
        Term::Var(x) => f(*x),
        Term::App(_, args) => args.iter().for_each(|a| context_vars(a, hole, f)),
    }
}

/// `f(x̄) = f(x̄[xᵢ := z]) -> xᵢ = z`, over `axiom`'s variables and a fresh `z`.
fn clause(axiom: &Axiom, app: &Term, i: usize, name: String) -> Axiom {
    let Term::App(f, args) = app else { unreachable!("an application") };
    let Term::Var(xi) = args[i] else { unreachable!("arguments are variables") };
    let mut vars = axiom.vars.clone();
    let z = VarId(vars.len() as u32);
    let fresh = (0..).map(|k| format!("z{k}")).find(|n| vars.iter().all(|d| &d.name != n)).expect("a free name");
    vars.push(VarDecl { name: fresh, sort: vars[xi.0 as usize].sort });
    let mut other = args.clone();
    other[i] = Term::Var(z);
    let formula = Formula::Implies(Box::new(Formula::Eq(app.clone(), Term::App(*f, other))), Box::new(Formula::Eq(Term::Var(xi), Term::Var(z))));
    Axiom { name, formula, vars, origin: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_engine::{eval, seeds};

    fn names(t: &Theory) -> Vec<String> {
        cancellations(t).into_iter().map(|a| a.name).collect()
    }

    #[test]
    fn divisions_give_both_cancellations_of_each_table() {
        let t = seeds::load("loop").unwrap();
        assert_eq!(names(&t), ["ldiv_after_mul_cancellation_2", "mul_after_ldiv_cancellation_2", "rdiv_after_mul_cancellation_1", "mul_after_rdiv_cancellation_1"]);
    }

    #[test]
    fn no_cancellation_where_the_context_needs_the_variable() {
        // x * (x * y) = y: the context `x * _` is fine (f = *, i = 2) ...
        let t = Theory::parse("theory T\nfunc * : 2\naxiom a: x * (x * y) = y", "t.bk").unwrap();
        assert_eq!(names(&t), ["a_cancellation_2"]);
        // ... but in y * (x * y) = y it mentions y itself, and x * x = x has no such term.
        let t = Theory::parse("theory T\nfunc * : 2\naxiom a: y * (x * y) = y\naxiom b: x * x = x", "t.bk").unwrap();
        assert!(names(&t).is_empty());
    }

    #[test]
    fn the_clauses_hold_in_every_model() {
        let t = seeds::load("quasigroup").unwrap();
        let with: Theory = Theory { axioms: cancellations(&t).into_iter().map(Into::into).collect(), ..t.clone() };
        let e = crate::finder::enumerate(&t, &[4], &Default::default(), crate::finder::Options::default()).unwrap();
        for c in &e.classes {
            assert!(eval::check(&with, &c.model).is_ok());
        }
    }
}
