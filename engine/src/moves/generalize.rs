//! ABSTRACT: generalize a theory by dropping one axiom, or form the common part of two theories
//! modulo renaming (the axioms of the first whose images under a signature map hold in the second).
//! (The module is not called `abstract`, a reserved word in Rust.)

use super::transfer::Pair;
use super::{derive, finish, prov, Derived, Move, MoveError, Provenance};
use crate::canon::AxiomSet;
use crate::signature::{FuncId, RelId};
use crate::syntax::{Formula, Term};
use crate::theory::Theory;

/// ABSTRACT by dropping the axiom called `axiom`. A symbol that only this axiom mentioned (say
/// the `sq` of `sq(x) = x·x`) is dropped with it: the result is the reduct to the symbols the
/// remaining axioms speak about, not the old theory with a symbol left free to mean anything.
/// The description names every symbol dropped this way.
pub fn drop_axiom(t: &Theory, axiom: &str) -> Result<Derived, MoveError> {
    let at = t
        .axioms
        .iter()
        .position(|a| a.name == axiom)
        .ok_or_else(|| MoveError::Inapplicable(format!("{} has no axiom `{axiom}`", t.name)))?;
    let orphans = Orphans::of(t, &[at]);
    let description = match orphans.names.len() {
        0 => format!("{} without `{axiom}`", t.name),
        _ => format!(
            "{} without `{axiom}`, and without {}, which no other axiom mentions",
            t.name,
            orphans.names.join(", ")
        ),
    };
    let p = prov(
        t,
        Move::Abstract,
        &[("drop", axiom)],
        format_args!("{description}"),
    );
    orphans.removed_from(derive(
        t,
        &[at],
        vec![],
        vec![],
        p,
        format_args!("-{axiom}"),
    )?)
}

/// The symbols that only some removed axioms mention: a theory that loses those axioms loses
/// the symbols too, so that it is the reduct to what its axioms speak about and not the old
/// signature with symbols left free to mean anything (a free operation multiplies the models
/// without describing anything).
struct Orphans {
    funcs: Vec<FuncId>,
    rels: Vec<RelId>,
    /// Their names, in backquotes.
    names: Vec<String>,
}

impl Orphans {
    /// The symbols of `t` that the axioms at `removed` mention and no other axiom does.
    fn of(t: &Theory, removed: &[usize]) -> Orphans {
        let (gone, kept): (Vec<_>, Vec<_>) = t
            .axioms
            .iter()
            .enumerate()
            .partition(|(i, _)| removed.contains(i));
        let funcs: Vec<FuncId> = t
            .sig
            .func_ids()
            .filter(|&f| {
                gone.iter().any(|(_, a)| a.formula.mentions_func(f))
                    && !kept.iter().any(|(_, a)| a.formula.mentions_func(f))
            })
            .collect();
        let rels: Vec<RelId> = t
            .sig
            .rel_ids()
            .filter(|&r| {
                gone.iter().any(|(_, a)| a.formula.mentions_rel(r))
                    && !kept.iter().any(|(_, a)| a.formula.mentions_rel(r))
            })
            .collect();
        let names = funcs
            .iter()
            .map(|&f| format!("`{}`", t.sig.func_decl(f).name))
            .chain(
                rels.iter()
                    .map(|&r| format!("`{}`", t.sig.rel_decl(r).name)),
            )
            .collect();
        Orphans { funcs, rels, names }
    }

    /// `d` (derived by removing those axioms) without the orphaned symbols.
    fn removed_from(&self, d: Derived) -> Result<Derived, MoveError> {
        if self.names.is_empty() {
            return Ok(d);
        }
        let expected = d.theory.axioms.len();
        finish(
            remove_symbols(d.theory, &self.funcs, &self.rels),
            expected,
            d.provenance,
        )
    }
}

/// `t` without the given symbols, which no axiom may mention; the others are renumbered.
fn remove_symbols(mut t: Theory, funcs: &[FuncId], rels: &[RelId]) -> Theory {
    let renumber = |n: usize, gone: &dyn Fn(u32) -> bool| {
        let mut next = 0;
        (0..n as u32)
            .map(|i| {
                if gone(i) {
                    u32::MAX
                } else {
                    next += 1;
                    next - 1
                }
            })
            .collect::<Vec<u32>>()
    };
    let new_func = renumber(t.sig.funcs.len(), &|i| funcs.contains(&FuncId(i)));
    let new_rel = renumber(t.sig.rels.len(), &|i| rels.contains(&RelId(i)));
    let sig = std::sync::Arc::make_mut(&mut t.sig);
    sig.funcs = std::mem::take(&mut sig.funcs)
        .into_iter()
        .zip(&new_func)
        .filter(|(_, n)| **n != u32::MAX)
        .map(|(d, _)| d)
        .collect();
    sig.rels = std::mem::take(&mut sig.rels)
        .into_iter()
        .zip(&new_rel)
        .filter(|(_, n)| **n != u32::MAX)
        .map(|(d, _)| d)
        .collect();
    t.axioms = t
        .axioms
        .iter()
        .map(|a| {
            a.map_symbols(
                &|f, args| Term::App(FuncId(new_func[f.0 as usize]), args),
                &|r, args| Formula::Rel(RelId(new_rel[r.0 as usize]), args),
            )
        })
        .collect();
    t
}

/// ABSTRACT two theories: the axioms of `a` that hold verbatim (up to variables) in `b` under the
/// signature map that keeps the most of them. Fails unless some but not all axioms are common.
pub fn common_part(a: &Theory, b: &Theory) -> Result<Derived, MoveError> {
    common_part_with(&Pair::new(a, &AxiomSet::of(a), b, &AxiomSet::of(b))).unwrap_or_else(|| {
        Err(MoveError::Inapplicable(format!(
            "{} and {} share no proper part of {}'s axioms",
            a.name, b.name, a.name
        )))
    })
}

/// [`common_part`] of a pair's source and target, with their axioms already encoded; `None`
/// (rather than an error message nobody reads: an exploration asks this of every pair) when
/// they share no proper part of the source's axioms.
pub fn common_part_with(pair: &Pair) -> Option<Result<Derived, MoveError>> {
    let (a, b) = (pair.source(), pair.target());
    // The last of the maps keeping the most, as `max_by_key` picks.
    let best = pair
        .landings()
        .iter()
        .map(|l| (l.landed.iter().filter(|k| **k).count(), l))
        .max_by_key(|(n, _)| *n);
    let (n, landing) = best.filter(|(n, _)| *n > 0 && *n < a.axioms.len())?;
    let removed: Vec<usize> = landing
        .landed
        .iter()
        .enumerate()
        .filter(|(_, k)| !**k)
        .map(|(i, _)| i)
        .collect();
    let orphans = Orphans::of(a, &removed);
    let without = if orphans.names.is_empty() {
        String::new()
    } else {
        format!(
            ", without {}, which no kept axiom mentions",
            orphans.names.join(", ")
        )
    };
    let p = Provenance::new(
        &[&a.name, &b.name],
        Move::Abstract,
        &landing.params(pair),
        format_args!(
            "what {} and {} have in common: {n} axioms of {}{without}",
            a.name, b.name, a.name
        ),
    );
    Some(
        derive(
            a,
            &removed,
            vec![],
            vec![],
            p,
            format_args!("common({})", b.name),
        )
        .and_then(|d| orphans.removed_from(d)),
    )
}

/// Every single-axiom drop.
pub fn all(t: &Theory) -> Vec<Derived> {
    t.axioms
        .iter()
        .filter_map(|a| drop_axiom(t, &a.name).ok())
        .collect()
}
