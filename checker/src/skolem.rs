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
//!
//! The way back, [`unskolemize`]: a constant that occurs only in ground axioms is a witness the
//! user named, as Mace4 users write "some two elements do not commute" (`a * b != b * a`). Those
//! axioms become one existential over the witnesses, `exists x y. x * y != y * x`, and the
//! constants leave the signature. The two theories have models at the same sizes for the same
//! reason as above, so `first` searches the existential form, which it races against its own
//! Skolemization (the constants again), and [`Unskolemized::restore`] picks witnesses for a model
//! found. Which search wins varies: a nonabelian group of order 64 with the constants alone was
//! not found in 60 s, and with the existential, whose plain search finds the first group of its
//! order and is done, in half a second.

use birkhoff_engine::signature::{Fixity, FuncDecl, Signature, SortId};
use birkhoff_engine::structure::tuples;
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use birkhoff_engine::{eval, FuncId, Structure, Theory};
use std::collections::HashMap;
use std::sync::Arc;

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

/// A theory whose witness constants were turned back into an existential ([`unskolemize`]).
pub struct Unskolemized {
    /// The theory without the witnesses: its ground axioms that name them replaced by one
    /// existential axiom over them.
    pub theory: Theory,
    /// The witness constants, as symbols of the theory it came from.
    witnesses: Vec<FuncId>,
    /// The other symbols, in order: symbol `i` of [`Unskolemized::theory`] is `kept[i]`.
    kept: Vec<FuncId>,
    /// The ground axioms replaced, which the witnesses' values must satisfy.
    ground: Vec<Arc<Axiom>>,
    sig: Arc<Signature>,
}

/// `t` with its witness constants, those that occur in ground axioms only, turned back into an
/// existential (module doc); `None` when it has none.
pub fn unskolemize(t: &Theory) -> Option<Unskolemized> {
    let witnesses: Vec<FuncId> = (0..t.sig.funcs.len())
        .map(|f| FuncId(f as u32))
        .filter(|&c| t.sig.funcs[c.0 as usize].args.is_empty())
        .filter(|&c| {
            let mut mentioning = t.axioms.iter().filter(|a| a.formula.mentions_func(c));
            let first = mentioning.next();
            first.is_some()
                && first
                    .into_iter()
                    .chain(mentioning)
                    .all(|a| a.vars.is_empty())
        })
        .collect();
    if witnesses.is_empty() {
        return None;
    }
    let (ground, rest): (Vec<Arc<Axiom>>, Vec<Arc<Axiom>>) = t
        .axioms
        .iter()
        .cloned()
        .partition(|a| witnesses.iter().any(|&c| a.formula.mentions_func(c)));
    // The witnesses leave the signature: a constant in no axiom would still be branched on by a
    // search that exhausts its sizes, multiplying its tree by the constant's values.
    let kept: Vec<FuncId> = (0..t.sig.funcs.len())
        .map(|f| FuncId(f as u32))
        .filter(|f| !witnesses.contains(f))
        .collect();
    let renumber =
        |f: FuncId| FuncId(kept.iter().position(|&k| k == f).expect("a kept symbol") as u32);
    // Each witness becomes the variable of its place in `witnesses`, every other symbol its new
    // number.
    let app = |f: FuncId, args: Vec<Term>| match witnesses.iter().position(|&c| c == f) {
        Some(k) => Term::Var(VarId(k as u32)),
        None => Term::App(renumber(f), args),
    };
    let rel = |r, args| Formula::Rel(r, args);
    let body = ground
        .iter()
        .map(|a| a.formula.map_symbols(&app, &rel))
        .reduce(|l, r| Formula::And(Box::new(l), Box::new(r)))
        .expect("every witness occurs in some axiom");
    let mut axioms: Vec<Arc<Axiom>> = rest.iter().map(|a| a.map_symbols(&app, &rel)).collect();
    axioms.push(Arc::new(Axiom {
        name: ground
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join("_"),
        formula: Formula::Exists(
            (0..witnesses.len()).map(|k| VarId(k as u32)).collect(),
            Box::new(body),
        ),
        vars: witnesses
            .iter()
            .map(|&c| VarDecl {
                name: t.sig.funcs[c.0 as usize].name.clone(),
                sort: t.sig.funcs[c.0 as usize].result,
            })
            .collect(),
        origin: None,
    }));
    let mut sig = (*t.sig).clone();
    sig.funcs = kept
        .iter()
        .map(|f| t.sig.funcs[f.0 as usize].clone())
        .collect();
    Some(Unskolemized {
        theory: Theory {
            sig: Arc::new(sig),
            axioms,
            ..t.clone()
        },
        witnesses,
        kept,
        ground,
        sig: t.sig.clone(),
    })
}

impl Unskolemized {
    /// How many tuples of values the witnesses have at these sizes (saturating): what
    /// [`Unskolemized::restore`] may have to try, and the instances of the existential.
    pub fn witness_tuples(&self, sizes: &[u32]) -> u128 {
        self.witness_sorts()
            .iter()
            .map(|s| u128::from(sizes[s.0 as usize]))
            .fold(1, u128::saturating_mul)
    }

    fn witness_sorts(&self) -> Vec<SortId> {
        self.witnesses
            .iter()
            .map(|c| self.sig.funcs[c.0 as usize].result)
            .collect()
    }

    /// A model of [`Unskolemized::theory`] as a model of the theory it came from: the witnesses
    /// take the first values (in lexicographic order) that satisfy the ground axioms replaced.
    /// `None` when there are none, which a model of the existential never lacks. It may try
    /// [`Unskolemized::witness_tuples`] tuples: the caller bounds them.
    pub fn restore(&self, found: Structure) -> Option<Structure> {
        let mut model = Structure::zeroed(&self.sig, &found.sizes);
        model.rels = found.rels;
        for (table, &f) in found.funcs.into_iter().zip(&self.kept) {
            model.funcs[f.0 as usize] = table;
        }
        for values in tuples(&model.sizes, &self.witness_sorts()) {
            for (c, v) in self.witnesses.iter().zip(values) {
                model.funcs[c.0 as usize][0] = v;
            }
            if self
                .ground
                .iter()
                .all(|a| eval::holds(&self.sig, &model, a))
            {
                return Some(model);
            }
        }
        None
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Nonabelian groups as Mace4 users write them: `e` is used by axioms with variables, so it
    /// stays a constant; `a` and `b` occur only in the ground axiom and become its existential.
    fn nonabelian() -> Theory {
        Theory::parse_any(
            "formulas(assumptions).\n(x*y)*z = x*(y*z).\ne*x = x.\nx'*x = e.\na*b != b*a.\nend_of_list.\n",
            "g.in",
        )
        .unwrap()
    }

    #[test]
    fn only_constants_of_ground_axioms_are_witnesses() {
        let t = nonabelian();
        let u = unskolemize(&t).expect("a and b are witnesses");
        let names: Vec<&str> = u
            .witnesses
            .iter()
            .map(|c| t.sig.funcs[c.0 as usize].name.as_str())
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(u.theory.axioms.len(), t.axioms.len());
        let last = u.theory.axioms.last().unwrap();
        assert!(
            matches!(&last.formula, Formula::Exists(vs, _) if vs.len() == 2),
            "{:?}",
            last.formula
        );
        let names: Vec<&str> = u.theory.sig.funcs.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["*", "e", "prime"]);
        // The axioms name the symbols by their new numbers: the theory prints and reads back.
        let text = u.theory.to_text();
        assert!(text.contains("exists a b. a * b != b * a"), "{text}");
        Theory::parse(&text, "u.bk").unwrap();
        // Two witnesses of order 6: 36 tuples of values to try.
        assert_eq!(u.witness_tuples(&[6]), 36);
        // Nothing left to undo the second time.
        assert!(unskolemize(&u.theory).is_none());
        assert!(unskolemize(&birkhoff_engine::seeds::load("group").unwrap()).is_none());
    }

    #[test]
    fn restore_picks_witnesses_that_satisfy_the_ground_axioms() {
        let t = nonabelian();
        let u = unskolemize(&t).unwrap();
        // S3 as permutations of {0, 1, 2}: 0 the identity, 1 and 2 the rotations, 3 to 5 the
        // reflections; the first noncommuting pair in lexicographic order is (1, 3).
        let perms: [[u32; 3]; 6] = [
            [0, 1, 2],
            [1, 2, 0],
            [2, 0, 1],
            [0, 2, 1],
            [2, 1, 0],
            [1, 0, 2],
        ];
        let index = |p: [u32; 3]| perms.iter().position(|q| *q == p).unwrap() as u32;
        let mut m = Structure::zeroed(&u.theory.sig, &[6]);
        let (mul, prime) = (
            u.theory
                .sig
                .funcs
                .iter()
                .position(|d| d.name == "*")
                .unwrap(),
            u.theory
                .sig
                .funcs
                .iter()
                .position(|d| d.name == "prime")
                .unwrap(),
        );
        for (i, p) in perms.iter().enumerate() {
            for (j, q) in perms.iter().enumerate() {
                // (p * q)(k) = p(q(k)).
                m.funcs[mul][i * 6 + j] =
                    index([p[q[0] as usize], p[q[1] as usize], p[q[2] as usize]]);
            }
            let mut inverse = [0u32; 3];
            for k in 0..3 {
                inverse[p[k] as usize] = k as u32;
            }
            m.funcs[prime][i] = index(inverse);
        }
        assert!(
            eval::check(&u.theory, &m).is_ok(),
            "S3 has noncommuting elements"
        );
        let r = u.restore(m.clone()).expect("witnesses exist");
        assert!(eval::check(&t, &r).is_ok());
        let (a, b) = (u.witnesses[0].0 as usize, u.witnesses[1].0 as usize);
        assert_eq!((r.funcs[a][0], r.funcs[b][0]), (1, 3));
        // In the cyclic group of order 6 no pair fails to commute: no witnesses.
        for i in 0..6u32 {
            for j in 0..6u32 {
                m.funcs[mul][(i * 6 + j) as usize] = (i + j) % 6;
            }
            m.funcs[prime][i as usize] = (6 - i) % 6;
        }
        assert!(u.restore(m).is_none());
    }
}
