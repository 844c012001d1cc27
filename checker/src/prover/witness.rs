//! Witnesses for existence statements: a goal `∀x̄ ∃ȳ φ` is proved by proving `∀x̄ φ[ȳ := t̄]`
//! for terms `t̄` in the `x̄` ([`Strategy::Witness`](super::Strategy::Witness)).
//!
//! Saturation-based provers handle an existential goal by guessing its witness while they
//! search, and on some goals never do: a lattice's join is the least upper bound of two elements
//! (the order `x ≤ y` read as `x = x ^ y`), which E does not prove in ten seconds as an
//! existence statement and proves in a tenth of a second with the witness `x v y` put in. Here
//! the witness is guessed first, from the theory's small models: every term up to
//! [`MAX_DEPTH`] over the signature and the goal's universal variables (sorts respected) is put
//! in, and only the instances that hold in every one of the theory's small models
//! (the private `small` module) are given to the prover, smallest terms first.
//!
//! **Why it is sound.** The instance implies the goal by existential introduction: in any model
//! and for any values of `x̄`, the values of `t̄` are witnesses. The instance is the goal's own
//! formula with the existential quantifier removed and its variables replaced by terms whose
//! variables are the goal's universal ones, none bound inside `φ` (each variable has its own
//! index in an axiom), so no variable is captured.

use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::SortId;
use birkhoff_engine::syntax::{Formula, Term, VarId};
use birkhoff_engine::{eval, Axiom, Structure, Theory};
use std::collections::HashMap;

/// The deepest witness term tried: `x v y` has depth 1, `x v (x ^ y)` depth 2.
pub const MAX_DEPTH: usize = 2;

/// The most terms of one sort built (smallest first); a signature with many symbols stops
/// there.
const MAX_TERMS: usize = 400;

/// The most tuples of terms evaluated in the small models.
const MAX_TRIED: usize = 4_000;

/// The most witnesses handed to the prover, each with its share of the time.
pub const MAX_WITNESSES: usize = 4;

/// A goal `∀x̄ ∃ȳ φ`: its existential variables, to be replaced by terms in its universal ones.
pub struct Existence {
    universal: Vec<VarId>,
    existential: Vec<VarId>,
}

impl Existence {
    /// The goal's existence statement, when its formula under its universal quantifiers (and
    /// its free variables, read universally) starts with `exists`.
    pub fn of(goal: &Axiom) -> Option<Existence> {
        let (universal, body) = goal.universal_prefix();
        match body {
            Formula::Exists(existential, _) => Some(Existence {
                universal,
                existential: existential.clone(),
            }),
            _ => None,
        }
    }

    /// The instances to prove, at most [`MAX_WITNESSES`], each with its witnesses in words
    /// (`j := x v y`): terms up to [`MAX_DEPTH`] for the existential variables, smallest first,
    /// whose instance holds in every one of `models`.
    pub fn instances(
        &self,
        theory: &Theory,
        goal: &Axiom,
        models: &[Structure],
    ) -> Vec<(Axiom, String)> {
        let sort = |v: VarId| goal.vars[v.0 as usize].sort;
        let mut by_sort: HashMap<SortId, Vec<Term>> = HashMap::new();
        for &v in &self.existential {
            by_sort
                .entry(sort(v))
                .or_insert_with(|| terms(theory, goal, &self.universal, sort(v)));
        }
        let choices: Vec<&[Term]> = self
            .existential
            .iter()
            .map(|v| by_sort[&sort(*v)].as_slice())
            .collect();
        let mut found = Vec::new();
        for witnesses in tuples(&choices).into_iter().take(MAX_TRIED) {
            let instance = instance(goal, &self.existential, &witnesses);
            if models
                .iter()
                .all(|m| eval::holds(&theory.sig, m, &instance))
            {
                let printer = FormulaPrinter::new(&theory.sig, goal);
                let shown = self
                    .existential
                    .iter()
                    .zip(&witnesses)
                    .map(|(v, t)| {
                        format!("{} := {}", goal.vars[v.0 as usize].name, printer.term(t))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                found.push((instance, shown));
                if found.len() == MAX_WITNESSES {
                    break;
                }
            }
        }
        found
    }
}

/// The terms of `sort` up to [`MAX_DEPTH`] in the `universal` variables and the signature's
/// symbols, shallowest first, at most [`MAX_TERMS`] of each sort.
fn terms(theory: &Theory, goal: &Axiom, universal: &[VarId], sort: SortId) -> Vec<Term> {
    let sig = &theory.sig;
    let sorts = sig.sorts.len();
    // by_depth[d][s]: the terms of depth exactly d and sort s.
    let mut by_depth: Vec<Vec<Vec<Term>>> = vec![vec![Vec::new(); sorts]];
    for &v in universal {
        by_depth[0][goal.vars[v.0 as usize].sort.0 as usize].push(Term::Var(v));
    }
    for (f, decl) in sig.funcs.iter().enumerate() {
        if decl.args.is_empty() {
            let f = birkhoff_engine::signature::FuncId(f as u32);
            by_depth[0][decl.result.0 as usize].push(Term::App(f, Vec::new()));
        }
    }
    for depth in 1..=MAX_DEPTH {
        let mut level = vec![Vec::new(); sorts];
        for (f, decl) in sig.funcs.iter().enumerate() {
            if decl.args.is_empty() || level[decl.result.0 as usize].len() >= MAX_TERMS {
                continue;
            }
            let f = birkhoff_engine::signature::FuncId(f as u32);
            // Arguments of any lower depth, at least one of depth `depth - 1`.
            let below = |s: SortId| -> Vec<(usize, &Term)> {
                by_depth
                    .iter()
                    .enumerate()
                    .flat_map(|(d, level)| level[s.0 as usize].iter().map(move |t| (d, t)))
                    .collect()
            };
            let args: Vec<Vec<(usize, &Term)>> = decl.args.iter().map(|&s| below(s)).collect();
            let arg_slices: Vec<&[(usize, &Term)]> = args.iter().map(Vec::as_slice).collect();
            for combo in tuples(&arg_slices) {
                if combo.iter().all(|(d, _)| *d + 1 < depth) {
                    continue;
                }
                let target = &mut level[decl.result.0 as usize];
                if target.len() >= MAX_TERMS {
                    break;
                }
                target.push(Term::App(
                    f,
                    combo.into_iter().map(|(_, t)| t.clone()).collect(),
                ));
            }
        }
        by_depth.push(level);
    }
    by_depth
        .into_iter()
        .flat_map(|mut level| std::mem::take(&mut level[sort.0 as usize]))
        .take(MAX_TERMS)
        .collect()
}

/// Every tuple with one element from each of `choices`, in lexicographic order of the choices
/// (so with one existential variable, the terms smallest first), at most [`MAX_TRIED`] of them.
fn tuples<T: Clone>(choices: &[&[T]]) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = vec![Vec::new()];
    for options in choices {
        let mut next = Vec::new();
        'grow: for prefix in &out {
            for o in options.iter() {
                if next.len() == MAX_TRIED {
                    break 'grow;
                }
                let mut tuple = prefix.clone();
                tuple.push(o.clone());
                next.push(tuple);
            }
        }
        out = next;
    }
    out
}

/// `goal` with its leading `exists` removed and each of `existential` replaced by its witness.
fn instance(goal: &Axiom, existential: &[VarId], witnesses: &[Term]) -> Axiom {
    fn replace(t: &Term, by: &HashMap<VarId, &Term>) -> Term {
        match t {
            Term::Var(v) => by.get(v).map_or_else(|| t.clone(), |w| (*w).clone()),
            Term::App(f, args) => Term::App(*f, args.iter().map(|a| replace(a, by)).collect()),
        }
    }
    fn under_foralls(f: &Formula, by: &HashMap<VarId, &Term>) -> Formula {
        match f {
            Formula::Forall(vs, g) => Formula::Forall(vs.clone(), Box::new(under_foralls(g, by))),
            Formula::Exists(_, body) => body.map_terms(&mut |t| replace(t, by)),
            other => other.clone(),
        }
    }
    let by: HashMap<VarId, &Term> = existential.iter().copied().zip(witnesses).collect();
    Axiom {
        name: goal.name.clone(),
        formula: under_foralls(&goal.formula, &by),
        vars: goal.vars.clone(),
        origin: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_engine::parse::parse_formula;

    fn lattice() -> Theory {
        birkhoff_engine::seeds::load("lattice").unwrap()
    }

    /// The least upper bound's witness is the join, the first term found that holds in the small
    /// lattices; the meet, the first term of the other kind, fails in the two-element chain.
    #[test]
    fn the_join_is_the_witness_of_the_least_upper_bound() {
        let t = lattice();
        let goal = parse_formula(
            &t.sig,
            "exists j. x = x ^ j & y = y ^ j & (all z. x = x ^ z & y = y ^ z -> j = j ^ z)",
            "joins",
        )
        .unwrap();
        let existence = Existence::of(&goal).expect("an existence statement");
        let far = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let models = super::super::small::models(&t, far, None).unwrap();
        assert!(models.len() >= 4, "{} small lattices", models.len());
        let found = existence.instances(&t, &goal, &models);
        let shown: Vec<&str> = found.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(shown.first(), Some(&"j := x v y"), "{shown:?}");
        assert!(!shown.contains(&"j := x ^ y"), "{shown:?}");
        // Every instance holds in every small model, and has no existential left.
        for (instance, _) in &found {
            assert!(models.iter().all(|m| eval::holds(&t.sig, m, instance)));
            assert!(Existence::of(instance).is_none());
        }
    }

    /// A goal without a leading `exists` is no existence statement; nor is one whose `exists`
    /// is under a connective.
    #[test]
    fn only_a_leading_exists_is_an_existence_statement() {
        let t = lattice();
        let plain = parse_formula(&t.sig, "x ^ y = y ^ x", "g").unwrap();
        assert!(Existence::of(&plain).is_none());
        let nested = parse_formula(&t.sig, "x = x | (exists j. x = j)", "g").unwrap();
        assert!(Existence::of(&nested).is_none());
        let under_all = parse_formula(&t.sig, "all x. exists j. x = x ^ j", "g").unwrap();
        assert!(Existence::of(&under_all).is_some());
    }
}
