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
//! Cancellation from solvability. An axiom `∀ȳ ∃z. f(x̄) = y`, where `x̄` are distinct
//! variables, `z` is the `i`-th of them, `y` is not among them, and `z` has the sort of `f`'s
//! value, makes every map `z ↦ f(x̄)` onto; a map from a finite set onto itself is one-to-one,
//! so in every *finite* model `f` is injective in its `i`-th argument. Quasigroups written
//! first-order (`exists z (x * z = y)`) are the common case: the existential clause propagates
//! only when all but one of its `n` disjuncts are false, the cancellation clause at once, so
//! counting them is as fast as counting the equational form.
//!
//! Cancellation from inverses. With `f` associative, an inverse axiom `f(t, x) = e` (`t` a term
//! in `x` alone, `e` a ground term) or `∃u. f(u, x) = e`, and the identity axiom `f(e, y) = y`,
//! `f` is injective in its second argument: if `f(x, y) = f(x, z)` then
//! `y = f(e, y) = f(f(t, x), y) = f(t, f(x, y)) = f(t, f(x, z)) = … = z`. Mirrored
//! (`f(x, t) = e`, `f(y, e) = y`), in its first. Groups are the case: their axioms give neither
//! law directly, and without them the search learns that a row holds each value once only
//! when associativity closes a cycle.
//!
//! Every finite model of the theory satisfies these clauses, so adding them changes no model
//! and no count; the evaluator still checks models against the theory's own axioms.

use birkhoff_engine::signature::FuncId;
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use birkhoff_engine::Theory;

/// The cancellation clauses implied by `theory`'s axioms in its finite models, one per
/// (symbol, argument), each with a name saying where it came from.
pub fn cancellations(theory: &Theory) -> Vec<Axiom> {
    let mut out: Vec<Axiom> = Vec::new();
    let mut seen = Vec::new();
    for a in &theory.axioms {
        let body = a.formula.without_leading_foralls();
        if let Formula::Exists(bound, g) = body {
            if let ([z], Formula::Eq(l, r)) = (bound.as_slice(), &**g) {
                for (app, i) in onto_in(theory, a, l, r, *z) {
                    let Term::App(f, _) = app else {
                        unreachable!("onto_in returns applications")
                    };
                    if !seen.contains(&(*f, i)) {
                        seen.push((*f, i));
                        out.push(clause(
                            a,
                            app,
                            i,
                            format!("{}_cancellation_{}", a.name, i + 1),
                        ));
                    }
                }
            }
            continue;
        }
        let Formula::Eq(l, r) = body else { continue };
        for (side, var) in [(l, r), (r, l)] {
            let Term::Var(v) = var else { continue };
            for (app, i) in injective_in(side, *v) {
                let Term::App(f, _) = app else {
                    unreachable!("injective_in returns applications")
                };
                if seen.contains(&(*f, i)) {
                    continue;
                }
                seen.push((*f, i));
                out.push(clause(
                    a,
                    app,
                    i,
                    format!("{}_cancellation_{}", a.name, i + 1),
                ));
            }
        }
    }
    for (f, i, inverse) in cancellations_from_inverses(theory) {
        if seen.contains(&(f, i)) {
            continue;
        }
        seen.push((f, i));
        let sort = theory.sig.funcs[f.0 as usize].result;
        let vars = ["x", "y"]
            .map(|name| VarDecl {
                name: name.into(),
                sort,
            })
            .to_vec();
        let pair = Axiom {
            name: String::new(),
            formula: Formula::True,
            vars,
            origin: None,
        };
        let app = Term::App(f, vec![Term::Var(VarId(0)), Term::Var(VarId(1))]);
        out.push(clause(
            &pair,
            &app,
            i,
            format!("{}_cancellation_{}", inverse.name, i + 1),
        ));
    }
    out
}

/// The binary symbols `f` that cancellation from inverses (see the module doc) makes injective
/// in argument `i`, as `(f, i, the inverse axiom)`.
fn cancellations_from_inverses(theory: &Theory) -> Vec<(FuncId, usize, &Axiom)> {
    let bodies: Vec<(&Axiom, &Formula)> = theory
        .axioms
        .iter()
        .map(|a| (&**a, a.formula.without_leading_foralls()))
        .collect();
    let mut out = Vec::new();
    for f in theory.sig.func_ids() {
        if !bodies.iter().any(|(_, b)| associative(b, f)) {
            continue;
        }
        for side in [Side::Left, Side::Right] {
            let inverse = bodies.iter().find_map(|&(a, b)| {
                let e = inverse_of(b, f, side)?;
                bodies
                    .iter()
                    .any(|(_, b)| identity(b, f, side, e))
                    .then_some(a)
            });
            if let Some(a) = inverse {
                out.push((f, if side == Side::Left { 1 } else { 0 }, a));
            }
        }
    }
    out
}

/// Which side of `f` an inverse or identity element stands on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

/// Whether `body` is `f(f(x, y), z) = f(x, f(y, z))` (either way round) with distinct variables.
fn associative(body: &Formula, f: FuncId) -> bool {
    let Formula::Eq(l, r) = body else {
        return false;
    };
    [(l, r), (r, l)].into_iter().any(|(a, b)| {
        match (grouped(a, f, Side::Left), grouped(b, f, Side::Right)) {
            (Some(v), Some(w)) => v == w && v[0] != v[1] && v[1] != v[2] && v[0] != v[2],
            _ => false,
        }
    })
}

/// `[x, y, z]` when `t` is `f(f(x, y), z)` (`side` = `Left`) or `f(x, f(y, z))` (`Right`).
fn grouped(t: &Term, f: FuncId, side: Side) -> Option<[VarId; 3]> {
    let pair = |t: &Term| match t {
        Term::App(g, args) if *g == f && args.len() == 2 => {
            Some([args[0].clone(), args[1].clone()])
        }
        _ => None,
    };
    let var = |t: &Term| if let Term::Var(v) = t { Some(*v) } else { None };
    let [a, b] = pair(t)?;
    match side {
        Side::Left => {
            let [x, y] = pair(&a)?;
            Some([var(&x)?, var(&y)?, var(&b)?])
        }
        Side::Right => {
            let [y, z] = pair(&b)?;
            Some([var(&a)?, var(&y)?, var(&z)?])
        }
    }
}

/// The ground term `e` when `body` says that every `x` has an inverse on `side` of `f`:
/// `f(t, x) = e` for `Side::Left` (`f(x, t) = e` for `Side::Right`), `t` mentioning no variable
/// but `x`, either way round; or the same under `∃u` with `u` for `t`.
fn inverse_of(body: &Formula, f: FuncId, side: Side) -> Option<&Term> {
    let (eq, witness) = match body {
        Formula::Exists(bound, g) => match (bound.as_slice(), &**g) {
            ([u], eq @ Formula::Eq(..)) => (eq, Some(*u)),
            _ => return None,
        },
        eq => (eq, None),
    };
    let Formula::Eq(l, r) = eq else { return None };
    [(l, r), (r, l)].into_iter().find_map(|(app, e)| {
        let Term::App(g, args) = app else { return None };
        if *g != f || args.len() != 2 || !ground(e) {
            return None;
        }
        let (t, x) = if side == Side::Left {
            (&args[0], &args[1])
        } else {
            (&args[1], &args[0])
        };
        let Term::Var(x) = x else { return None };
        let inverse = match witness {
            Some(u) => *t == Term::Var(u) && u != *x,
            None => {
                let mut only_x = true;
                t.for_each_var(&mut |v| only_x &= v == *x);
                only_x
            }
        };
        inverse.then_some(e)
    })
}

/// Whether `body` says that the ground term `e` is an identity on `side` of `f`: `f(e, y) = y`
/// for `Side::Left` (`f(y, e) = y` for `Side::Right`), either way round.
fn identity(body: &Formula, f: FuncId, side: Side, e: &Term) -> bool {
    let Formula::Eq(l, r) = body else {
        return false;
    };
    [(l, r), (r, l)].into_iter().any(|(app, y)| {
        let (Term::App(g, args), Term::Var(y)) = (app, y) else {
            return false;
        };
        let (unit, other) = if side == Side::Left {
            (args.first(), args.get(1))
        } else {
            (args.get(1), args.first())
        };
        *g == f && args.len() == 2 && unit == Some(e) && other == Some(&Term::Var(*y))
    })
}

fn ground(t: &Term) -> bool {
    let mut none = true;
    t.for_each_var(&mut |_| none = false);
    none
}

/// `(f, i)` when `a` is a cancellation clause `f(x̄) = f(x̄[xᵢ := z]) -> xᵢ = z` as
/// [`cancellations`] writes them (distinct variables, the two applications differing at `i` only).
pub fn cancels_at(a: &Axiom) -> Option<(u32, usize)> {
    let Formula::Implies(l, r) = &a.formula else {
        return None;
    };
    let (Formula::Eq(Term::App(f, xs), Term::App(g, ys)), Formula::Eq(Term::Var(xi), Term::Var(z))) =
        (&**l, &**r)
    else {
        return None;
    };
    let vars = |ts: &[Term]| {
        ts.iter()
            .map(|t| if let Term::Var(v) = t { Some(*v) } else { None })
            .collect::<Option<Vec<_>>>()
    };
    let (xs, ys) = (vars(xs)?, vars(ys)?);
    let i = xs.iter().position(|v| v == xi)?;
    let distinct = (0..xs.len()).all(|k| !xs[..k].contains(&xs[k])) && !xs.contains(z);
    let differ_at_i_only = xs.len() == ys.len()
        && (0..xs.len()).all(|k| if k == i { ys[k] == *z } else { ys[k] == xs[k] });
    (f == g && distinct && differ_at_i_only).then_some((f.0, i))
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
            let vars: Vec<VarId> = args
                .iter()
                .map(|t| if let Term::Var(x) = t { Some(*x) } else { None })
                .collect::<Option<_>>()?;
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

/// For `∃z. l = r`: the side `f(x̄)` (distinct variables, `z` the `i`-th, `z` of `f`'s value
/// sort) whose other side is a variable `y` bound outside (not `z`, not among `x̄`), as
/// `(f(x̄), i)`. At most one, in a list for the caller's loop.
fn onto_in<'t>(
    theory: &Theory,
    axiom: &Axiom,
    l: &'t Term,
    r: &'t Term,
    z: VarId,
) -> Vec<(&'t Term, usize)> {
    [(l, r), (r, l)]
        .into_iter()
        .filter_map(|(app, other)| {
            let (Term::App(f, args), Term::Var(y)) = (app, other) else {
                return None;
            };
            let vars: Vec<VarId> = args
                .iter()
                .map(|t| if let Term::Var(x) = t { Some(*x) } else { None })
                .collect::<Option<_>>()?;
            if (1..vars.len()).any(|k| vars[..k].contains(&vars[k])) || *y == z || vars.contains(y)
            {
                return None;
            }
            let i = vars.iter().position(|x| *x == z)?;
            let value_sort = theory.sig.funcs.get(f.0 as usize)?.result;
            (axiom.vars.get(z.0 as usize)?.sort == value_sort).then_some((app, i))
        })
        .take(1)
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
    let Term::App(f, args) = app else {
        unreachable!("an application")
    };
    let Term::Var(xi) = args[i] else {
        unreachable!("arguments are variables")
    };
    let mut vars = axiom.vars.clone();
    let z = VarId(vars.len() as u32);
    let fresh = (0..)
        .map(|k| format!("z{k}"))
        .find(|n| vars.iter().all(|d| &d.name != n))
        .expect("a free name");
    vars.push(VarDecl {
        name: fresh,
        sort: vars[xi.0 as usize].sort,
    });
    let mut other = args.clone();
    other[i] = Term::Var(z);
    let formula = Formula::Implies(
        Box::new(Formula::Eq(app.clone(), Term::App(*f, other))),
        Box::new(Formula::Eq(Term::Var(xi), Term::Var(z))),
    );
    Axiom {
        name,
        formula,
        vars,
        origin: None,
    }
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
        assert_eq!(
            names(&t),
            [
                "ldiv_after_mul_cancellation_2",
                "mul_after_ldiv_cancellation_2",
                "rdiv_after_mul_cancellation_1",
                "mul_after_rdiv_cancellation_1"
            ]
        );
    }

    #[test]
    fn no_cancellation_where_the_context_needs_the_variable() {
        // x * (x * y) = y: the context `x * _` is fine (f = *, i = 2) ...
        let t = Theory::parse("theory T\nfunc * : 2\naxiom a: x * (x * y) = y", "t.bk").unwrap();
        assert_eq!(names(&t), ["a_cancellation_2"]);
        // ... but in y * (x * y) = y it mentions y itself, and x * x = x has no such term.
        let t = Theory::parse(
            "theory T\nfunc * : 2\naxiom a: y * (x * y) = y\naxiom b: x * x = x",
            "t.bk",
        )
        .unwrap();
        assert!(names(&t).is_empty());
    }

    #[test]
    fn solvability_gives_cancellation_in_finite_models() {
        let t = Theory::parse("theory T\nfunc * : 2\naxiom left: exists z (x * z = y)\naxiom right: exists z (y = z * x)", "t.bk").unwrap();
        assert_eq!(names(&t), ["left_cancellation_2", "right_cancellation_1"]);
        // Not when the solution's sort is not the value's (a map between two sorts may be onto
        // without being one-to-one) or when `y` is the unknown itself; yes for a map of B onto B.
        let t = Theory::parse("theory T\nsort A, B\nfunc f : A B -> B\naxiom onto: exists a:A (f(a, b) = c)\naxiom self: exists z:B (f(a, z) = z)\naxiom onto_b: exists z:B (f(a, z) = c)", "t.bk");
        let t = t.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(names(&t), ["onto_b_cancellation_2"]);
        // Not when `y` is an argument: `x * z = x` for some z says nothing about the row's other values.
        let t = Theory::parse(
            "theory T\nfunc * : 2\naxiom a: exists z (x * z = x)",
            "t.bk",
        )
        .unwrap();
        assert!(names(&t).is_empty());
    }

    #[test]
    fn the_clauses_hold_in_every_model() {
        let t = seeds::load("quasigroup").unwrap();
        let with: Theory = Theory {
            axioms: cancellations(&t).into_iter().map(Into::into).collect(),
            ..t.clone()
        };
        let e = crate::finder::enumerate(
            &t,
            &[4],
            &Default::default(),
            crate::finder::Options::default(),
        )
        .unwrap();
        for c in &e.classes {
            assert!(eval::check(&with, &c.model).is_ok());
        }
    }
}
