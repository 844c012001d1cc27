//! Skolemization of leading existential quantifiers, for first-model search.
//!
//! An axiom `all x. exists y. F(x, y)` becomes `all x. F(x, sk(x))` with a new function `sk`.
//! A model of the new theory, with `sk` forgotten, is a model of the old one, and every model of
//! the old one extends to one of the new (choose a witness for each `x`): so the two have models
//! at exactly the same sizes, and `first` may search the new one. The witness tables are
//! ordinary cells, so the search propagates through them (`exists x y. x * y != y * x` becomes
//! `c1 * c2 != c2 * c1`, which prunes at once) instead of waiting for a whole table.
//!
//! Counting is different: the new theory has more models (one per choice of witnesses), so
//! spectra never use this.

use birkhoff_engine::signature::{Fixity, FuncDecl};
use birkhoff_engine::syntax::{Formula, Term, VarId};
use birkhoff_engine::{FuncId, Theory};
use std::collections::HashMap;

/// The theory with every leading existential quantifier of every axiom (after its universal
/// prefix) replaced by new Skolem functions, appended after the theory's own functions.
pub fn skolemize(t: &Theory) -> Theory {
    let mut out = t.clone();
    for axiom in &mut out.axioms {
        if !binders_distinct(&axiom.formula, axiom.free_vars()) {
            // A witness term `sk(x)` must not land where `x` is bound again.
            continue;
        }
        let mut universal: Vec<VarId> = Vec::new();
        let mut body = axiom.formula.clone();
        let mut witness: HashMap<VarId, Term> = HashMap::new();
        loop {
            match body {
                Formula::Forall(vs, g) => {
                    universal.extend(vs);
                    body = *g;
                }
                Formula::Exists(vs, g) => {
                    let outer: Vec<VarId> = axiom
                        .free_vars()
                        .into_iter()
                        .chain(universal.iter().copied())
                        .collect();
                    for v in vs {
                        let f = FuncId(out.sig.funcs.len() as u32);
                        std::sync::Arc::make_mut(&mut out.sig).funcs.push(FuncDecl {
                            name: format!("$sk{}", f.0),
                            args: outer
                                .iter()
                                .map(|u| axiom.vars[u.0 as usize].sort)
                                .collect(),
                            result: axiom.vars[v.0 as usize].sort,
                            fixity: Fixity::Prefix,
                        });
                        witness.insert(
                            v,
                            Term::App(f, outer.iter().map(|&u| Term::Var(u)).collect()),
                        );
                    }
                    body = *g;
                }
                _ => break,
            }
        }
        if witness.is_empty() {
            continue;
        }
        let body = substitute(&body, &witness);
        std::sync::Arc::make_mut(axiom).formula = if universal.is_empty() {
            body
        } else {
            Formula::Forall(universal, Box::new(body))
        };
    }
    out
}

fn substitute_term(t: &Term, w: &HashMap<VarId, Term>) -> Term {
    match t {
        Term::Var(v) => w.get(v).cloned().unwrap_or(Term::Var(*v)),
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| substitute_term(a, w)).collect()),
    }
}

/// `f` with the variables of `w` replaced by their terms. Binders are distinct (checked by the
/// caller), so no quantifier below rebinds a variable of `w`.
fn substitute(f: &Formula, w: &HashMap<VarId, Term>) -> Formula {
    f.map_terms(&mut |t| substitute_term(t, w))
}

/// Whether no variable is bound twice, or bound and also free, in `f`.
fn binders_distinct(f: &Formula, free: Vec<VarId>) -> bool {
    fn walk(f: &Formula, seen: &mut Vec<VarId>) -> bool {
        match f {
            Formula::True | Formula::False | Formula::Eq(..) | Formula::Rel(..) => true,
            Formula::Not(g) => walk(g, seen),
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => walk(a, seen) && walk(b, seen),
            Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
                for v in vs {
                    if seen.contains(v) {
                        return false;
                    }
                    seen.push(*v);
                }
                walk(g, seen)
            }
        }
    }
    let mut seen = free;
    walk(f, &mut seen)
}
