//! Two theories over different signatures that are the same class through definitions: the
//! richer one's extra operations are terms in the symbols it shares with the leaner one. A
//! totally symmetric quasigroup written with both divisions is one: there `x \ y` and `x / y`
//! are both `x * y`. No renaming sees this, since the signatures differ, while the spectra agree,
//! since each model of the leaner theory extends in exactly one way.
//!
//! It is shown in three proved steps, so "the same class" rests on proofs and never on agreeing
//! counts:
//! 1. the richer theory implies the leaner under a map of symbols ([`implies`]);
//! 2. each extra operation `f` of the richer theory equals a term `s` over the mapped symbols:
//!    `f(x̄) = s(x̄)` is proved from the richer theory (the term is found by trying small terms,
//!    fewest operations first, on the richer theory's small models). A constant `c` equals a
//!    term in one variable, `c = s(x)` (a Boolean group's identity is `x * x`), and then the
//!    leaner theory must prove `s(x) = s(y)`, or some of its models would have no value for `c`;
//! 3. the leaner theory's axioms, read through the map, together with those definitions prove
//!    every axiom of the richer theory.
//!
//! By 1 and 2 a model of the richer theory is determined by its reduct, which is a model of the
//! leaner; by 3 every model of the leaner theory, expanded by the definitions, is a model of the
//! richer. Reduct and expansion are inverse bijections that keep isomorphism, so the two
//! theories have the same models up to the definitions, and the same spectrum.

use super::equivalence::{
    implies, prove_goals, same_names, AxiomProof, Implication, Outcome, Relation, Side,
};
use super::Options;
use crate::finder::FinderError;
use birkhoff_engine::moves::transfer::carried;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncDecl, FuncId, Signature};
use birkhoff_engine::syntax::{Formula, Term, VarDecl, VarId};
use birkhoff_engine::{eval, Axiom, Structure, Theory};
use serde::Serialize;
use std::sync::Arc;

/// Terms tried as a definition have at most this many operations: `x * (y * x)` has two.
pub const MAX_TERM_OPERATIONS: usize = 3;

/// At most this many terms pass the small models and are neither proved nor refuted by the
/// prover, per defined symbol.
const MAX_PROVED_CANDIDATES: usize = 3;

/// At most this many terms are refuted by a countermodel per defined symbol before it is given up.
const MAX_REFUTED_CANDIDATES: usize = 12;

/// A proposed definition is tested for countermodels up to this size at least, whatever the
/// caller's prover options say: the small models it was chosen by go up to three elements.
const MIN_COUNTERMODEL_SIZE: u32 = 5;

/// At most this many terms are generated per defined symbol (many operations of high arity
/// would otherwise make thousands at three operations).
const MAX_TERMS: usize = 20_000;

/// One extra symbol of the richer theory, written in the leaner one's symbols.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Definition {
    /// The defined symbol, as the richer theory names it.
    pub symbol: String,
    /// The defining equation in the richer theory's notation, such as `x \ y = x * y`.
    pub equation: String,
}

/// Whether `rich` might be `lean` extended by definitions: both one-sorted, the same relation
/// symbols (by arity), and `lean`'s operations a proper part of `rich`'s (by arity). A cheap
/// filter before [`by_definitions`].
pub fn may_extend(rich: &Theory, lean: &Theory) -> bool {
    let arities = |t: &Theory, rels: bool| {
        let mut v: Vec<usize> = if rels {
            t.sig.rels.iter().map(|d| d.args.len()).collect()
        } else {
            t.sig.funcs.iter().map(|d| d.args.len()).collect()
        };
        v.sort_unstable();
        v
    };
    if !rich.sig.is_single_sorted()
        || !lean.sig.is_single_sorted()
        || arities(rich, true) != arities(lean, true)
    {
        return false;
    }
    let (mut r, l) = (arities(rich, false), arities(lean, false));
    if r.len() <= l.len() {
        return false;
    }
    // `l` is a sub-multiset of `r`.
    l.iter().all(|a| match r.iter().position(|b| b == a) {
        Some(i) => {
            r.remove(i);
            true
        }
        None => false,
    })
}

/// `a` and `b`, whose signatures differ, shown the same class through definitions: by
/// [`by_definitions`] when one's operations are a part of the other's (the richer one first),
/// otherwise by [`by_common_extension`] in either direction. `Ok(None)` when nothing was shown.
/// `relate` (so `equiv`) and the scorer's identification both ask this.
pub fn through_definitions(
    a: &Side,
    b: &Side,
    opts: &Options,
) -> Result<Option<Relation>, FinderError> {
    match (
        may_extend(a.theory, b.theory),
        may_extend(b.theory, a.theory),
    ) {
        (true, _) => by_definitions(a, b.theory, opts),
        (_, true) => by_definitions(b, a.theory, opts),
        _ => match by_common_extension(a, b, opts)? {
            Some(r) => Ok(Some(r)),
            None => by_common_extension(b, a, opts),
        },
    }
}

/// The name of the `i`-th of `arity` variables: x, y, z, u, v, w as people write them, or x1,
/// x2, … when there are more than six.
pub(super) fn var_name(i: usize, arity: usize) -> String {
    ["x", "y", "z", "u", "v", "w"]
        .get(i)
        .filter(|_| arity <= 6)
        .map_or_else(|| format!("x{}", i + 1), |n| n.to_string())
}

/// Shows `rich` to be `lean` extended by definitions (the module's three steps), each step
/// within `opts` per proof. `Ok(None)` when some step was not shown: the implication, a
/// definition (no small term fits the small models of `rich`, or none was proved) or an axiom of
/// `rich`. The relation is [`Relation::Defined`].
pub fn by_definitions(
    rich: &Side,
    lean: &Theory,
    opts: &Options,
) -> Result<Option<Relation>, FinderError> {
    if !may_extend(rich.theory, lean) {
        return Ok(None);
    }
    let Implication::Proved {
        map,
        proofs: mut evidence,
    } = implies(rich, lean, opts)?
    else {
        return Ok(None);
    };
    let sig = &rich.theory.sig;
    let shared: Vec<FuncId> = sig
        .func_ids()
        .filter(|&f| map.values().any(|v| *v == sig.func_decl(f).name))
        .collect();
    let extra: Vec<FuncId> = sig.func_ids().filter(|f| !shared.contains(f)).collect();
    let mut definitions = Vec::new();
    let mut defining = Vec::new();
    for f in extra {
        let Some((axiom, proof)) = define(rich, f, &shared, opts)? else {
            return Ok(None);
        };
        definitions.push(Definition {
            symbol: sig.func_decl(f).name.clone(),
            equation: FormulaPrinter::new(sig, &axiom).formula(&axiom.formula),
        });
        evidence.push(proof);
        defining.push(Arc::new(axiom));
    }
    // The leaner theory over the richer signature, then with the definitions.
    let Some(lean_axioms) = carried(lean, rich.theory, &map) else {
        return Ok(None);
    };
    let carried_lean = Theory {
        name: lean.name.clone(),
        doc: String::new(),
        meta: Default::default(),
        sig: sig.clone(),
        axioms: lean_axioms.into_iter().map(Arc::new).collect(),
    };
    // A constant defined by a term in x exists in every model of the leaner theory only if the
    // leaner theory proves that the term's value does not depend on x.
    let constant: Vec<(String, Axiom)> = defining
        .iter()
        .map(|d| &**d)
        .filter_map(well_defined)
        .collect();
    let constant_goals: Vec<(&str, Axiom)> = constant
        .iter()
        .map(|(name, a)| (name.as_str(), a.clone()))
        .collect();
    let Outcome::Proved(proofs) = prove_goals(
        &carried_lean,
        &carried_lean,
        &constant_goals,
        &same_names(rich.theory),
        opts,
    )?
    else {
        return Ok(None);
    };
    evidence.extend(proofs);
    let extended = Theory {
        name: format!("{} with definitions", lean.name),
        axioms: carried_lean
            .axioms
            .iter()
            .cloned()
            .chain(defining)
            .collect(),
        ..carried_lean
    };
    let goals: Vec<(&str, Axiom)> = rich
        .theory
        .axioms
        .iter()
        .map(|a| (a.name.as_str(), (**a).clone()))
        .collect();
    let Outcome::Proved(proofs) = prove_goals(
        &extended,
        rich.theory,
        &goals,
        &same_names(rich.theory),
        opts,
    )?
    else {
        return Ok(None);
    };
    evidence.extend(proofs);
    Ok(Some(Relation::Defined {
        rich: rich.theory.name.clone(),
        lean: lean.name.clone(),
        map,
        definitions,
        proofs: evidence,
    }))
}

/// `a` and `b` as one class when neither one's operations are a part of the other's, through a
/// common definitional extension. `a` has exactly one operation `f` that `b` lacks (every other
/// symbol of `a` is `b`'s, by name and arity); a term `s` over `b`'s operations under which `b`'s
/// small models satisfy `a`'s axioms gives `b` with `f(x̄) = s`, a definitional extension of `b`
/// (a new symbol defined by a term: the same models, the same spectrum) that has every operation
/// of `a`; [`by_definitions`] then shows that extension to be `a` extended by definitions. A
/// commutative semigroup with a right division and (x / y) / z = x / (y / z) is so a Boolean
/// group. The relation's `rich` names `b` with its definition of `f`.
pub fn by_common_extension(
    a: &Side,
    b: &Side,
    opts: &Options,
) -> Result<Option<Relation>, FinderError> {
    let (ta, tb) = (a.theory, b.theory);
    if !ta.sig.is_single_sorted() || !tb.sig.is_single_sorted() {
        return Ok(None);
    }
    let in_b = |name: &str, arity: usize| {
        tb.sig
            .funcs
            .iter()
            .any(|d| d.name == name && d.args.len() == arity)
    };
    let extra: Vec<&FuncDecl> = ta
        .sig
        .funcs
        .iter()
        .filter(|d| !in_b(&d.name, d.args.len()))
        .collect();
    let rels_in_b = ta.sig.rels.iter().all(|r| {
        tb.sig
            .rels
            .iter()
            .any(|q| q.name == r.name && q.args.len() == r.args.len())
    });
    let [f] = extra[..] else { return Ok(None) };
    if f.args.is_empty() || !rels_in_b || ta.sig.funcs.len() < 2 {
        return Ok(None);
    }
    let sort = tb
        .sig
        .sort_ids()
        .next()
        .expect("a single-sorted signature has its sort");
    let mut sig = (*tb.sig).clone();
    sig.funcs.push(FuncDecl {
        name: f.name.clone(),
        args: vec![sort; f.args.len()],
        result: sort,
        fixity: f.fixity,
    });
    let sig = Arc::new(sig);
    let defined = FuncId(tb.sig.funcs.len() as u32);
    let vars: Vec<VarDecl> = (0..f.args.len())
        .map(|i| VarDecl {
            name: var_name(i, f.args.len()),
            sort,
        })
        .collect();
    let lhs = Term::App(
        defined,
        (0..vars.len() as u32)
            .map(|i| Term::Var(VarId(i)))
            .collect(),
    );
    // `a`'s axioms over the extended signature (they do not depend on the term tried).
    let over_sig = Theory {
        name: tb.name.clone(),
        doc: String::new(),
        meta: Default::default(),
        sig: sig.clone(),
        axioms: tb.axioms.clone(),
    };
    let Some(goals) = carried(ta, &over_sig, &same_names(ta)) else {
        return Ok(None);
    };
    let mut tried = 0;
    for s in terms(&tb.sig, &tb.sig.func_ids().collect::<Vec<_>>(), vars.len()) {
        let models: Vec<Structure> = b
            .models
            .iter()
            .map(|m| with_defined_table(&tb.sig, m, &s, f.args.len()))
            .collect();
        if !models
            .iter()
            .all(|m| goals.iter().all(|g| eval::holds(&sig, m, g)))
        {
            continue;
        }
        let definition = Axiom {
            name: format!("definition_of_{}", f.name),
            formula: Formula::Eq(lhs.clone(), s),
            vars: vars.clone(),
            origin: None,
        };
        let equation = FormulaPrinter::new(&sig, &definition).formula(&definition.formula);
        let extended = Theory {
            name: format!("{} with `{equation}`", tb.name),
            axioms: tb
                .axioms
                .iter()
                .cloned()
                .chain([Arc::new(definition)])
                .collect(),
            ..over_sig.clone()
        };
        let side = Side::with_models(&extended, models).with_counts(b.counts.clone());
        if let Some(relation) = by_definitions(&side, ta, opts)? {
            return Ok(Some(relation));
        }
        tried += 1;
        if tried == MAX_PROVED_CANDIDATES {
            break;
        }
    }
    Ok(None)
}

/// `m` with one more table: the operation of `arity` arguments whose value is the term `s`.
fn with_defined_table(sig: &Signature, m: &Structure, s: &Term, arity: usize) -> Structure {
    let n = m.sizes[0];
    let mut table = Vec::with_capacity((n as usize).pow(arity as u32));
    let mut env = vec![0u32; arity];
    loop {
        table.push(eval::term_value(sig, m, s, &env));
        // The next argument tuple, the last argument fastest (the tables' order).
        let Some(i) = (0..arity).rev().find(|&i| env[i] + 1 < n) else {
            break;
        };
        env[i] += 1;
        env[i + 1..].iter_mut().for_each(|v| *v = 0);
    }
    let mut out = m.clone();
    out.funcs.push(table);
    out
}

/// The defining equation `f(x1, …, xk) = s` of `rich`'s operation `f` by a term `s` over
/// `shared`, with its proof: the terms that hold in every small model of `rich`, fewest
/// operations first, go to the prover until one is proved. A term the prover refutes does not
/// use up one of the [`MAX_PROVED_CANDIDATES`] attempts: its countermodel joins the small models,
/// so the terms after it that fail there too are passed over without a proof attempt. (A class
/// with no models of some small sizes, such as commutative distributive quasigroups, which have
/// only odd orders, has few small models, and many wrong terms hold in all of them.)
fn define(
    rich: &Side,
    f: FuncId,
    shared: &[FuncId],
    opts: &Options,
) -> Result<Option<(Axiom, AxiomProof)>, FinderError> {
    let sig = &rich.theory.sig;
    let decl = sig.func_decl(f);
    // A constant is defined by a term in one variable (the identity of a Boolean group is x * x).
    let vars: Vec<VarDecl> = (0..decl.args.len().max(1))
        .map(|i| VarDecl {
            name: var_name(i, decl.args.len()),
            sort: decl.args.get(i).copied().unwrap_or(decl.result),
        })
        .collect();
    let lhs = Term::App(
        f,
        (0..decl.args.len() as u32)
            .map(|i| Term::Var(VarId(i)))
            .collect(),
    );
    let name = format!("definition_of_{}", decl.name);
    // Countermodels are looked for one size beyond the small models at least.
    let opts = Options {
        max_size: opts.max_size.max(MIN_COUNTERMODEL_SIZE),
        ..opts.clone()
    };
    let mut countermodels = Vec::new();
    let (mut unsettled, mut refuted) = (0, 0);
    for s in terms(sig, shared, vars.len()) {
        let axiom = Axiom {
            name: name.clone(),
            formula: Formula::Eq(lhs.clone(), s),
            vars: vars.clone(),
            origin: None,
        };
        if !rich
            .models
            .iter()
            .chain(&countermodels)
            .all(|m| eval::holds(sig, m, &axiom))
        {
            continue;
        }
        match prove_goals(
            rich.theory,
            rich.theory,
            &[(name.as_str(), axiom.clone())],
            &same_names(rich.theory),
            &opts,
        )? {
            Outcome::Proved(mut proof) => return Ok(Some((axiom, proof.remove(0)))),
            Outcome::Refuted(witness) => {
                countermodels.push(witness.model);
                refuted += 1;
            }
            Outcome::Unknown(_) => unsettled += 1,
        }
        if unsettled == MAX_PROVED_CANDIDATES || refuted == MAX_REFUTED_CANDIDATES {
            break;
        }
    }
    Ok(None)
}

/// For a definition `c = s(x)` of a constant: the equation `s(x) = s(y)`, named, which the leaner
/// theory must prove for every one of its models to have the constant. `None` for a definition of
/// an operation with arguments, which every model has.
fn well_defined(definition: &Axiom) -> Option<(String, Axiom)> {
    let Formula::Eq(Term::App(_, args), s) = &definition.formula else {
        return None;
    };
    if !args.is_empty() || definition.vars.len() != 1 {
        return None;
    }
    // s in y instead of x: s has the one variable x (VarId 0).
    fn shifted(t: &Term) -> Term {
        match t {
            Term::Var(v) => Term::Var(VarId(v.0 + 1)),
            Term::App(f, args) => Term::App(*f, args.iter().map(shifted).collect()),
        }
    }
    let other = shifted(s);
    let x = &definition.vars[0];
    let vars = vec![
        x.clone(),
        VarDecl {
            name: if x.name == "y" {
                "z".into()
            } else {
                "y".into()
            },
            sort: x.sort,
        },
    ];
    let name = format!("{}_is_constant", definition.name);
    Some((
        name.clone(),
        Axiom {
            name,
            formula: Formula::Eq(s.clone(), other),
            vars,
            origin: None,
        },
    ))
}

/// Every term over the operations `ops` and the variables `x1 … x{vars}` with at most
/// [`MAX_TERM_OPERATIONS`] operations of positive arity (constants are free), fewest operations
/// first; at most [`MAX_TERMS`].
fn terms(sig: &Signature, ops: &[FuncId], vars: usize) -> Vec<Term> {
    let arity = |f: FuncId| sig.func_decl(f).args.len();
    // by_size[n]: the terms with exactly n operations of positive arity.
    let mut by_size: Vec<Vec<Term>> = vec![(0..vars as u32)
        .map(|i| Term::Var(VarId(i)))
        .chain(
            ops.iter()
                .filter(|&&f| arity(f) == 0)
                .map(|&f| Term::App(f, vec![])),
        )
        .collect()];
    let mut total = by_size[0].len();
    for n in 1..=MAX_TERM_OPERATIONS {
        let mut level = Vec::new();
        for &f in ops.iter().filter(|&&f| arity(f) > 0) {
            for split in compositions(n - 1, arity(f)) {
                let mut partial: Vec<Vec<Term>> = vec![Vec::new()];
                for &part in &split {
                    partial = partial
                        .into_iter()
                        .flat_map(|args| {
                            by_size[part]
                                .iter()
                                .map(move |t| [args.clone(), vec![t.clone()]].concat())
                        })
                        .collect();
                    if partial.len() > MAX_TERMS {
                        partial.truncate(MAX_TERMS);
                    }
                }
                level.extend(partial.into_iter().map(|args| Term::App(f, args)));
                if total + level.len() >= MAX_TERMS {
                    level.truncate(MAX_TERMS - total);
                    by_size.push(level);
                    return by_size.concat();
                }
            }
        }
        total += level.len();
        by_size.push(level);
    }
    by_size.concat()
}

/// Every way to write `n` as an ordered sum of `parts` numbers ≥ 0.
pub(super) fn compositions(n: usize, parts: usize) -> Vec<Vec<usize>> {
    if parts == 0 {
        return if n == 0 { vec![vec![]] } else { vec![] };
    }
    (0..=n)
        .flat_map(|first| {
            compositions(n - first, parts - 1)
                .into_iter()
                .map(move |rest| [vec![first], rest].concat())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compositions_count_as_binomials() {
        // Ordered sums of n into k parts: C(n + k - 1, k - 1).
        assert_eq!(compositions(2, 2), vec![vec![0, 2], vec![1, 1], vec![2, 0]]);
        assert_eq!(compositions(3, 3).len(), 10);
        assert_eq!(compositions(0, 0), vec![Vec::<usize>::new()]);
        assert!(compositions(1, 0).is_empty());
    }

    #[test]
    fn terms_with_one_binary_operation_and_two_variables_are_counted_by_catalan_numbers() {
        let t = Theory::parse("theory M\nfunc * : 2\n", "m.bk").unwrap();
        let ops: Vec<FuncId> = t.sig.func_ids().collect();
        // n operations: Catalan(n) shapes with 2^(n+1) leaves: 2 + 4 + 16 + 80.
        assert_eq!(terms(&t.sig, &ops, 2).len(), 102);
        let c = Theory::parse("theory M\nfunc * : 2\nfunc e : 0\n", "m.bk").unwrap();
        let ops: Vec<FuncId> = c.sig.func_ids().collect();
        // Leaves x1 and e: 2 + 4 + 16 + 80 again, with e free of charge.
        assert_eq!(terms(&c.sig, &ops, 1).len(), 102);
    }
}
