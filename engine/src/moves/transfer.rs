//! TRANSFER: carry every axiom of one theory into another along a signature map. Every symbol of
//! the source is renamed to its image, sorts follow the symbols' profiles, profiles must match,
//! and every source axiom appears in the result (renamed), so none is lost.

use super::dualize::map_formula;
use super::{finish_added, fresh_axiom_name, Derived, Move, MoveError, Provenance};
use crate::canon::{AxiomSet, Renaming};
use crate::signature::{FuncId, RelId, SortId};
use crate::syntax::{Axiom, Formula, Term, VarDecl};
use crate::theory::Theory;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A signature map: source symbol name → target symbol name.
pub type SymbolMap = BTreeMap<String, String>;

/// Where each source sort, function and relation goes.
struct Images {
    sorts: Vec<Option<SortId>>,
    funcs: Vec<FuncId>,
    rels: Vec<RelId>,
}

fn images(source: &Theory, target: &Theory, map: &SymbolMap) -> Result<Images, MoveError> {
    let (ss, ts) = (&source.sig, &target.sig);
    let err = |m: String| Err(MoveError::Inapplicable(m));
    let mut sorts: Vec<Option<SortId>> = vec![None; ss.sorts.len()];
    let mut bind = |from: SortId, to: SortId| -> Result<(), MoveError> {
        match sorts[from.0 as usize] {
            Some(prev) if prev != to => Err(MoveError::Inapplicable(format!("sort {} would go to both {} and {}", ss.sort_decl(from).name, ts.sort_decl(prev).name, ts.sort_decl(to).name))),
            _ => {
                sorts[from.0 as usize] = Some(to);
                Ok(())
            }
        }
    };
    let mut funcs = Vec::new();
    for d in &ss.funcs {
        let Some(to) = map.get(&d.name) else { return err(format!("the map does not say where `{}` goes", d.name)) };
        let Some(g) = ts.func(to) else { return err(format!("{} has no function symbol `{to}`", target.name)) };
        let gd = ts.func_decl(g);
        if gd.args.len() != d.args.len() {
            return err(format!("`{}` has {} arguments but `{to}` has {}", d.name, d.args.len(), gd.args.len()));
        }
        for (a, b) in d.args.iter().zip(&gd.args).chain([(&d.result, &gd.result)]) {
            bind(*a, *b)?;
        }
        funcs.push(g);
    }
    let mut rels = Vec::new();
    for d in &ss.rels {
        let Some(to) = map.get(&d.name) else { return err(format!("the map does not say where `{}` goes", d.name)) };
        let Some(r) = ts.rel(to) else { return err(format!("{} has no relation symbol `{to}`", target.name)) };
        let rd = ts.rel_decl(r);
        if rd.args.len() != d.args.len() {
            return err(format!("`{}` has {} arguments but `{to}` has {}", d.name, d.args.len(), rd.args.len()));
        }
        for (a, b) in d.args.iter().zip(&rd.args) {
            bind(*a, *b)?;
        }
        rels.push(r);
    }
    if let Some(k) = map.keys().find(|k| !ss.has_symbol(k)) {
        return err(format!("the map names `{k}`, which {} does not declare", source.name));
    }
    Ok(Images { sorts, funcs, rels })
}

impl Images {
    /// Where the images send sorts and symbols, as a [`Renaming`]; `None` when a sort has none.
    fn indices(&self) -> Option<(Vec<u32>, Vec<u32>, Vec<u32>)> {
        let sorts = self.sorts.iter().map(|s| s.map(|s| s.0)).collect::<Option<Vec<u32>>>()?;
        Some((sorts, self.funcs.iter().map(|f| f.0).collect(), self.rels.iter().map(|r| r.0).collect()))
    }
}

/// For each axiom of `source`, whether its image under `im` is an axiom of the target (`target`,
/// its axioms). Errors as [`carry`] does when an axiom's variable has a sort without an image.
/// The images are compared as encodings, without building the carried axioms.
fn lands(pair: &Pair, im: &Images) -> Result<Vec<bool>, MoveError> {
    let (source, target) = (pair.source, &pair.target_axioms);
    match im.indices() {
        Some((sorts, funcs, rels)) => {
            let r = Renaming { sorts: &sorts, funcs: &funcs, rels: &rels };
            Ok((0..source.axioms.len()).map(|k| target.has_image(pair.source_axioms, k, &r)).collect())
        }
        None => source.axioms.iter().map(|a| Ok(target.contains(&carry(a, im, source)?))).collect(),
    }
}

/// A source and a target theory with the axioms of both encoded ([`AxiomSet::of`]), for every
/// signature map between them that TRANSFER and ABSTRACT's common part try. An exploration
/// encodes each theory once and pairs it with every other.
pub struct Pair<'a> {
    source: &'a Theory,
    target: &'a Theory,
    source_axioms: &'a AxiomSet,
    target_axioms: &'a AxiomSet,
}

impl<'a> Pair<'a> {
    /// The pair of `source` and `target`, whose axioms are `source_axioms` and `target_axioms`.
    pub fn new(source: &'a Theory, source_axioms: &'a AxiomSet, target: &'a Theory, target_axioms: &'a AxiomSet) -> Pair<'a> {
        Pair { source, target, source_axioms, target_axioms }
    }

    /// The theory whose axioms are carried.
    pub(crate) fn source(&self) -> &'a Theory {
        self.source
    }

    /// The theory they are carried into.
    pub(crate) fn target(&self) -> &'a Theory {
        self.target
    }
}

/// For each axiom of the source, whether its image under `map` is an axiom of the target;
/// `None` when the map does not fit. ABSTRACT's common part keeps these.
pub(crate) fn kept(pair: &Pair, map: &SymbolMap) -> Option<Vec<bool>> {
    lands(pair, &images(pair.source, pair.target, map).ok()?).ok()
}

fn carry(a: &Axiom, im: &Images, source: &Theory) -> Result<Axiom, MoveError> {
    let vars = a
        .vars
        .iter()
        .map(|d| {
            let sort = im.sorts[d.sort.0 as usize].ok_or_else(|| MoveError::Inapplicable(format!("the map does not say where sort {} goes", source.sig.sort_decl(d.sort).name)))?;
            Ok(VarDecl { name: d.name.clone(), sort })
        })
        .collect::<Result<_, MoveError>>()?;
    let formula = map_formula(&a.formula, &|f, args| Term::App(im.funcs[f.0 as usize], args), &|r, args| Formula::Rel(im.rels[r.0 as usize], args));
    Ok(Axiom { name: a.name.clone(), formula, vars, origin: None })
}

/// TRANSFER every axiom of `source` into `target` along `map`.
pub fn transfer(source: &Theory, target: &Theory, map: &SymbolMap) -> Result<Derived, MoveError> {
    transfer_into(&Pair::new(source, &AxiomSet::of(source), target, &AxiomSet::of(target)), map, &axiom_prefix(source))
}

/// What the names of `source`'s carried axioms start with. Axiom names must stay names: a source
/// made by moves is called e.g. `Quasigroup+comm(*)`, whose words give `quasigroup_comm`.
fn axiom_prefix(source: &Theory) -> String {
    let words: Vec<String> = source.name.to_lowercase().split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect();
    match words.join("_") {
        joined if joined.starts_with(|c: char| c.is_ascii_alphabetic()) => joined,
        joined => format!("t_{joined}"),
    }
}

/// [`transfer`], with the axioms of both theories already encoded and the carried axioms'
/// name prefix ([`axiom_prefix`]) worked out.
fn transfer_into(pair: &Pair, map: &SymbolMap, prefix: &str) -> Result<Derived, MoveError> {
    let (source, target) = (pair.source, pair.target);
    let im = images(source, target, map)?;
    if lands(pair, &im)?.into_iter().all(|landed| landed) {
        return Err(MoveError::Inapplicable(format!("{} already has every axiom of {} under this map", target.name, source.name)));
    }
    let carried: Vec<Axiom> = source.axioms.iter().map(|a| carry(a, &im, source)).collect::<Result<_, _>>()?;
    let shown: Vec<String> = map.iter().map(|(k, v)| format!("{k}↦{v}")).collect();
    let p = Provenance {
        parents: vec![target.name.clone(), source.name.clone()],
        mv: Move::Transfer,
        params: map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        description: format!("{} with the axioms of {} carried along {}", target.name, source.name, shown.join(", ")),
    };
    let mut t = Theory {
        name: format!("{}+{}[{}]", target.name, source.name, shown.join(",")),
        doc: p.description.clone(),
        meta: Default::default(),
        sig: target.sig.clone(),
        axioms: Vec::with_capacity(target.axioms.len() + carried.len()),
    };
    t.axioms.extend(target.axioms.iter().cloned());
    let expected = target.axioms.len() + carried.len();
    for mut a in carried {
        a.name = fresh_axiom_name(&t, &format!("{prefix}_{}", a.name));
        t.axioms.push(Arc::new(a));
    }
    finish_added(t, target.sig.funcs.len(), target.axioms.len(), expected, p)
}

/// Every injective map of `source`'s symbols into `target`'s symbols of the same arity (both
/// single-sorted), at most `limit` of them, in a fixed order.
pub fn maps(source: &Theory, target: &Theory, limit: usize) -> Vec<SymbolMap> {
    if !(source.sig.is_single_sorted() && target.sig.is_single_sorted()) {
        return Vec::new();
    }
    let from: Vec<(String, usize, bool)> = source.sig.funcs.iter().map(|d| (d.name.clone(), d.args.len(), true)).chain(source.sig.rels.iter().map(|d| (d.name.clone(), d.args.len(), false))).collect();
    let to: Vec<(String, usize, bool)> = target.sig.funcs.iter().map(|d| (d.name.clone(), d.args.len(), true)).chain(target.sig.rels.iter().map(|d| (d.name.clone(), d.args.len(), false))).collect();
    let mut out = Vec::new();
    let mut cur: Vec<usize> = Vec::new();
    fn go(i: usize, from: &[(String, usize, bool)], to: &[(String, usize, bool)], cur: &mut Vec<usize>, out: &mut Vec<SymbolMap>, limit: usize) {
        if out.len() >= limit {
            return;
        }
        if i == from.len() {
            out.push(cur.iter().enumerate().map(|(k, &j)| (from[k].0.clone(), to[j].0.clone())).collect());
            return;
        }
        for j in 0..to.len() {
            if !cur.contains(&j) && to[j].1 == from[i].1 && to[j].2 == from[i].2 {
                cur.push(j);
                go(i + 1, from, to, cur, out, limit);
                cur.pop();
            }
        }
    }
    go(0, &from, &to, &mut cur, &mut out, limit);
    out
}

/// The most signature maps [`all`] tries for one pair of theories.
pub const MAX_MAPS: usize = 24;

/// TRANSFER along every map [`maps`] finds.
pub fn all(source: &Theory, target: &Theory) -> Vec<Derived> {
    all_into(&Pair::new(source, &AxiomSet::of(source), target, &AxiomSet::of(target)))
}

/// [`all`], with the axioms of both theories already encoded.
pub fn all_into(pair: &Pair) -> Vec<Derived> {
    if pair.source.axioms.is_empty() {
        return Vec::new();
    }
    let prefix = axiom_prefix(pair.source);
    maps(pair.source, pair.target, MAX_MAPS).iter().filter_map(|m| transfer_into(pair, m, &prefix).ok()).collect()
}

/// Where `source`'s axioms land in `target` under `map` (for ABSTRACT's common part and for
/// comparing theories over one signature); `None` when the map does not fit.
pub fn carried(source: &Theory, target: &Theory, map: &SymbolMap) -> Option<Vec<Axiom>> {
    let im = images(source, target, map).ok()?;
    source.axioms.iter().map(|a| carry(a, &im, source).ok()).collect()
}
