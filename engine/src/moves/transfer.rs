//! TRANSFER: carry every axiom of one theory into another along a signature map. Every symbol of
//! the source is renamed to its image, sorts follow the symbols' profiles, profiles must match,
//! and every source axiom appears in the result, so none is lost: renamed and added, or already
//! there (an axiom of the target up to variable names and orientation), and then not repeated.

use super::{finish_added, fresh_axiom_name, Derived, Move, MoveError, Provenance};
use crate::canon::{AxiomImages, AxiomSet, Renaming};
use crate::signature::{FuncId, RelId, SortId};
use crate::syntax::{Axiom, Formula, Term, VarDecl};
use crate::theory::Theory;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

/// A signature map: source symbol name → target symbol name.
pub type SymbolMap = BTreeMap<String, String>;

/// Where each source sort, function and relation goes.
struct Images {
    sorts: Vec<Option<SortId>>,
    funcs: Vec<FuncId>,
    rels: Vec<RelId>,
}

/// Resolves `map`'s names, then checks it as [`bind`] does.
fn images(source: &Theory, target: &Theory, map: &SymbolMap) -> Result<Images, MoveError> {
    let (ss, ts) = (&source.sig, &target.sig);
    let err = |m: String| Err(MoveError::Inapplicable(m));
    let image = |name: &str| {
        map.get(name).ok_or_else(|| {
            MoveError::Inapplicable(format!("the map does not say where `{name}` goes"))
        })
    };
    let mut funcs = Vec::with_capacity(ss.funcs.len());
    for d in &ss.funcs {
        let to = image(&d.name)?;
        let Some(g) = ts.func(to) else {
            return err(format!("{} has no function symbol `{to}`", target.name));
        };
        funcs.push(g);
    }
    let mut rels = Vec::with_capacity(ss.rels.len());
    for d in &ss.rels {
        let to = image(&d.name)?;
        let Some(r) = ts.rel(to) else {
            return err(format!("{} has no relation symbol `{to}`", target.name));
        };
        rels.push(r);
    }
    if let Some(k) = map.keys().find(|k| !ss.has_symbol(k)) {
        return err(format!(
            "the map names `{k}`, which {} does not declare",
            source.name
        ));
    }
    bind(source, target, funcs, rels)
}

/// The images of a map sending each source function symbol to `funcs[i]` and relation symbol to
/// `rels[i]`: arities must match, and each source sort goes to one target sort.
fn bind(
    source: &Theory,
    target: &Theory,
    funcs: Vec<FuncId>,
    rels: Vec<RelId>,
) -> Result<Images, MoveError> {
    let (ss, ts) = (&source.sig, &target.sig);
    let mut sorts: Vec<Option<SortId>> = vec![None; ss.sorts.len()];
    let mut bind_sort = |from: SortId, to: SortId| -> Result<(), MoveError> {
        match sorts[from.0 as usize] {
            Some(prev) if prev != to => Err(MoveError::Inapplicable(format!(
                "sort {} would go to both {} and {}",
                ss.sort_decl(from).name,
                ts.sort_decl(prev).name,
                ts.sort_decl(to).name
            ))),
            _ => {
                sorts[from.0 as usize] = Some(to);
                Ok(())
            }
        }
    };
    let profiles = ss.funcs.iter().zip(&funcs).map(|(d, g)| {
        (
            &d.name,
            &d.args,
            Some(d.result),
            &ts.func_decl(*g).name,
            &ts.func_decl(*g).args,
            Some(ts.func_decl(*g).result),
        )
    });
    let rel_profiles = ss.rels.iter().zip(&rels).map(|(d, r)| {
        (
            &d.name,
            &d.args,
            None,
            &ts.rel_decl(*r).name,
            &ts.rel_decl(*r).args,
            None,
        )
    });
    for (name, args, result, to, to_args, to_result) in profiles.chain(rel_profiles) {
        if args.len() != to_args.len() {
            return Err(MoveError::Inapplicable(format!(
                "`{name}` has {} arguments but `{to}` has {}",
                args.len(),
                to_args.len()
            )));
        }
        for (a, b) in args
            .iter()
            .zip(to_args)
            .chain(result.as_ref().zip(to_result.as_ref()))
        {
            bind_sort(*a, *b)?;
        }
    }
    Ok(Images { sorts, funcs, rels })
}

impl Images {
    /// Where the images send sorts and symbols, as a [`Renaming`]; `None` when a sort has none.
    fn indices(&self) -> Option<(Vec<u32>, Vec<u32>, Vec<u32>)> {
        let sorts = self
            .sorts
            .iter()
            .map(|s| s.map(|s| s.0))
            .collect::<Option<Vec<u32>>>()?;
        Some((
            sorts,
            self.funcs.iter().map(|f| f.0).collect(),
            self.rels.iter().map(|r| r.0).collect(),
        ))
    }
}

/// For each axiom of `source`, whether its image under `im` is an axiom of the target (`target`,
/// its axioms). Errors as [`carry`] does when an axiom's variable has a sort without an image.
/// The images are compared as encodings, without building the carried axioms.
fn lands(pair: &Pair, im: &Images) -> Result<Vec<bool>, MoveError> {
    let (source, target) = (pair.source, &pair.target_axioms);
    match im.indices() {
        Some((sorts, funcs, rels)) => {
            let r = Renaming {
                sorts: &sorts,
                funcs: &funcs,
                rels: &rels,
            };
            let image = || pair.source_axioms.images(&r);
            let images = match pair.carried {
                Some(kept) => kept.images(source, im, image),
                None => Arc::new(image()),
            };
            Ok((0..source.axioms.len())
                .map(|k| target.has_image(&images, k))
                .collect())
        }
        None => source
            .axioms
            .iter()
            .map(|a| Ok(target.contains(&carry(a, im, source)?)))
            .collect(),
    }
}

/// A signature map that fits a pair ([`Pair::landings`]), with where each source axiom lands.
pub(crate) struct Landing {
    images: Images,
    /// For each axiom of the source, whether its image is an axiom of the target.
    pub(crate) landed: Vec<bool>,
}

impl Landing {
    /// The map by names, source symbol and image, in the order of the source names: as
    /// TRANSFER's and ABSTRACT's provenance show it.
    pub(crate) fn params<'a>(&self, pair: &Pair<'a>) -> Vec<(&'a str, &'a str)> {
        let mut params: Vec<_> = named(
            pair.source,
            pair.target,
            &self.images.funcs,
            &self.images.rels,
        )
        .collect();
        params.sort_unstable();
        params
    }

    /// Whether some axiom of the source does not hold in the target already: else TRANSFER
    /// along this map gives nothing.
    fn adds(&self) -> bool {
        self.landed.iter().any(|landed| !landed)
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
    /// Every map of [`maps`] that fits, worked out once for TRANSFER and ABSTRACT both.
    landings: std::cell::OnceCell<Vec<Landing>>,
    /// Where carried axioms are kept for other pairs to reuse ([`Pair::reusing`]).
    carried: Option<&'a CarriedAxioms>,
}

impl<'a> Pair<'a> {
    /// The pair of `source` and `target`, whose axioms are `source_axioms` and `target_axioms`.
    pub fn new(
        source: &'a Theory,
        source_axioms: &'a AxiomSet,
        target: &'a Theory,
        target_axioms: &'a AxiomSet,
    ) -> Pair<'a> {
        Pair {
            source,
            target,
            source_axioms,
            target_axioms,
            landings: Default::default(),
            carried: None,
        }
    }

    /// The pair, taking carried axioms from `carried` and keeping those it carries there.
    pub fn reusing(self, carried: &'a CarriedAxioms) -> Pair<'a> {
        Pair {
            carried: Some(carried),
            ..self
        }
    }

    /// The theory whose axioms are carried.
    pub(crate) fn source(&self) -> &'a Theory {
        self.source
    }

    /// The theory they are carried into.
    pub(crate) fn target(&self) -> &'a Theory {
        self.target
    }

    /// Every signature map [`maps`] lists that fits, in its order, with where the axioms land.
    pub(crate) fn landings(&self) -> &[Landing] {
        self.landings.get_or_init(|| {
            // TRANSFER moves between one-sorted theories only, as `maps` says.
            if !(self.source.sig.is_single_sorted() && self.target.sig.is_single_sorted()) {
                return Vec::new();
            }
            index_maps(self.source, self.target, MAX_MAPS)
                .into_iter()
                .filter_map(|(funcs, rels)| {
                    let images = bind(self.source, self.target, funcs, rels).ok()?;
                    let landed = lands(self, &images).ok()?;
                    Some(Landing { images, landed })
                })
                .collect()
        })
    }
}

/// Axioms carried along signature maps, kept to be reused by other pairs. An exploration
/// carries each base's axioms into hundreds of theories, and the theories made from one seed
/// keep its symbols at the same indices: along the same indices an axiom is carried to the very
/// same axiom, which is then built once and shared (one `Arc`) by every result holding it.
/// Which of them land on axioms of a target is asked along the same indices again and again too:
/// their encodings ([`AxiomImages`]) are kept likewise.
#[derive(Default)]
pub struct CarriedAxioms {
    /// Shards (by hash) of entries: the source axiom, the images of the sorts and symbols as
    /// [`CarriedAxioms::key`] writes them, and the carried axiom, named.
    shards: [std::sync::Mutex<hashbrown::HashTable<Carried>>; 8],
    /// Entries: the source's axioms, the images of the sorts and symbols, and the axioms'
    /// encodings carried along them.
    images: std::sync::Mutex<hashbrown::HashTable<CarriedImages>>,
}

/// An entry of [`CarriedAxioms`]' axioms: hash, source axiom, key, carried axiom.
type Carried = (u64, Arc<Axiom>, Box<[u32]>, Arc<Axiom>);

/// An entry of [`CarriedAxioms`]' encodings: hash, source axioms, key, their images.
type CarriedImages = (u64, Vec<Arc<Axiom>>, Box<[u32]>, Arc<AxiomImages>);

impl CarriedAxioms {
    /// The images of the sorts, function and relation symbols, one after the other, and the
    /// prefix of the carried axioms' names: what a carried axiom depends on besides its source.
    fn key(im: &Images, prefix: &str) -> Vec<u32> {
        let sorts = im.sorts.iter().map(|s| s.map_or(u32::MAX, |s| s.0));
        let mut key: Vec<u32> = sorts
            .chain([u32::MAX])
            .chain(im.funcs.iter().map(|f| f.0))
            .chain([u32::MAX])
            .chain(im.rels.iter().map(|r| r.0))
            .chain([u32::MAX])
            .collect();
        key.extend(prefix.bytes().map(u32::from));
        key
    }

    /// The encodings of `source`'s axioms carried along `im`: those kept from an earlier call,
    /// or `image`'s, which are kept.
    fn images(
        &self,
        source: &Theory,
        im: &Images,
        image: impl FnOnce() -> AxiomImages,
    ) -> Arc<AxiomImages> {
        use std::hash::{Hash, Hasher};
        let key = Self::key(im, "");
        let mut h = rustc_hash::FxHasher::default();
        source
            .axioms
            .iter()
            .for_each(|a| std::ptr::hash(Arc::as_ptr(a), &mut h));
        key.hash(&mut h);
        let hash = h.finish();
        let same = |e: &CarriedImages| {
            e.0 == hash
                && *e.2 == *key
                && e.1.len() == source.axioms.len()
                && e.1
                    .iter()
                    .zip(&source.axioms)
                    .all(|(x, y)| Arc::ptr_eq(x, y))
        };
        if let Some(e) = self.images.lock().expect("not poisoned").find(hash, same) {
            return e.3.clone();
        }
        let images = Arc::new(image());
        let mut table = self.images.lock().expect("not poisoned");
        match table.find(hash, same) {
            Some(e) => e.3.clone(),
            None => table
                .insert_unique(
                    hash,
                    (hash, source.axioms.clone(), key.into(), images.clone()),
                    |e| e.0,
                )
                .get()
                .3
                .clone(),
        }
    }

    /// `a` carried as `key` says ([`CarriedAxioms::key`]): the axiom kept from an earlier call,
    /// or `carry`'s, which is kept.
    fn get_or_carry(
        &self,
        a: &Arc<Axiom>,
        key: &[u32],
        carry: impl FnOnce() -> Result<Axiom, MoveError>,
    ) -> Result<Arc<Axiom>, MoveError> {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        std::ptr::hash(Arc::as_ptr(a), &mut h);
        key.hash(&mut h);
        let hash = h.finish();
        let shard = &self.shards[(hash >> 61) as usize];
        let same = |e: &Carried| e.0 == hash && Arc::ptr_eq(&e.1, a) && *e.2 == *key;
        if let Some(e) = shard.lock().expect("not poisoned").find(hash, same) {
            return Ok(e.3.clone());
        }
        let carried = Arc::new(carry()?);
        let mut table = shard.lock().expect("not poisoned");
        // Another thread may have carried it meanwhile: keep one.
        Ok(match table.find(hash, same) {
            Some(e) => e.3.clone(),
            None => table
                .insert_unique(hash, (hash, a.clone(), key.into(), carried.clone()), |e| {
                    e.0
                })
                .get()
                .3
                .clone(),
        })
    }
}

fn carry(a: &Axiom, im: &Images, source: &Theory) -> Result<Axiom, MoveError> {
    let vars = a
        .vars
        .iter()
        .map(|d| {
            let sort = im.sorts[d.sort.0 as usize].ok_or_else(|| {
                MoveError::Inapplicable(format!(
                    "the map does not say where sort {} goes",
                    source.sig.sort_decl(d.sort).name
                ))
            })?;
            Ok(VarDecl {
                name: d.name.clone(),
                sort,
            })
        })
        .collect::<Result<_, MoveError>>()?;
    let formula = a.formula.map_symbols(
        &|f, args| Term::App(im.funcs[f.0 as usize], args),
        &|r, args| Formula::Rel(im.rels[r.0 as usize], args),
    );
    Ok(Axiom {
        name: a.name.clone(),
        formula,
        vars,
        origin: None,
    })
}

/// TRANSFER every axiom of `source` into `target` along `map`.
pub fn transfer(source: &Theory, target: &Theory, map: &SymbolMap) -> Result<Derived, MoveError> {
    let (source_axioms, target_axioms) = (AxiomSet::of(source), AxiomSet::of(target));
    let pair = Pair::new(source, &source_axioms, target, &target_axioms);
    let images = images(source, target, map)?;
    let landed = lands(&pair, &images)?;
    let landing = Landing { images, landed };
    if !landing.adds() {
        return Err(MoveError::Inapplicable(format!(
            "{} already has every axiom of {} under this map",
            target.name, source.name
        )));
    }
    transfer_along(&pair, &landing, &axiom_prefix(source))
}

/// What the names of `source`'s carried axioms start with. Axiom names must stay names: a source
/// made by moves is called e.g. `Quasigroup+comm(*)`, whose words give `quasigroup_comm`.
fn axiom_prefix(source: &Theory) -> String {
    let mut prefix = String::with_capacity(source.name.len() + 2);
    for word in source
        .name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if prefix.is_empty() && !word.starts_with(|c: char| c.is_ascii_alphabetic()) {
            prefix.push_str("t_");
        } else if !prefix.is_empty() {
            prefix.push('_');
        }
        prefix.extend(word.chars().map(|c| c.to_ascii_lowercase()));
    }
    if prefix.is_empty() {
        prefix.push_str("t_");
    }
    prefix
}

/// [`transfer`] along a map that fits the pair and [`Landing::adds`] something, with the
/// carried axioms' name prefix ([`axiom_prefix`]) worked out.
fn transfer_along(pair: &Pair, landing: &Landing, prefix: &str) -> Result<Derived, MoveError> {
    let (source, target) = (pair.source, pair.target);
    let new = source
        .axioms
        .iter()
        .zip(&landing.landed)
        .filter(|(_, landed)| !**landed);
    // Each carried axiom is named after its source, with the source's prefix.
    let key = pair
        .carried
        .map(|_| CarriedAxioms::key(&landing.images, prefix));
    let carried: Vec<Arc<Axiom>> = new
        .map(|(a, _)| {
            let carry = || {
                carry(a, &landing.images, source).map(|c| Axiom {
                    name: format!("{prefix}_{}", a.name),
                    ..c
                })
            };
            match (pair.carried, &key) {
                (Some(kept), Some(key)) => kept.get_or_carry(a, key, carry),
                _ => carry().map(Arc::new),
            }
        })
        .collect::<Result<_, _>>()?;
    let params = landing.params(pair);
    // The map as `a↦b, c↦d` in the description and `a↦b,c↦d` in the name, each string
    // allocated once (one is made per result).
    let map_len: usize = params
        .iter()
        .map(|(k, v)| k.len() + '↦'.len_utf8() + v.len() + 2)
        .sum();
    let (mut name, mut description) = (
        String::with_capacity(target.name.len() + source.name.len() + map_len + 3),
        String::with_capacity(target.name.len() + source.name.len() + map_len + 64),
    );
    for (s, words) in [
        (&mut name, ["+", "["]),
        (
            &mut description,
            [" with the axioms of ", " carried along "],
        ),
    ] {
        s.extend([
            target.name.as_str(),
            words[0],
            source.name.as_str(),
            words[1],
        ]);
    }
    for (i, (k, v)) in params.iter().enumerate() {
        if i > 0 {
            name.push(',');
            description.push_str(", ");
        }
        for s in [&mut name, &mut description] {
            s.extend([*k, "↦", *v]);
        }
    }
    name.push(']');
    if let n @ 1.. = source.axioms.len() - carried.len() {
        let _ = write!(description, " ({n} of them already held)");
    }
    let p = Provenance::new(
        &[&target.name, &source.name],
        Move::Transfer,
        &params,
        format_args!("{description}"),
    );
    let mut t = Theory {
        name,
        doc: description,
        meta: Default::default(),
        sig: target.sig.clone(),
        axioms: Vec::with_capacity(target.axioms.len() + carried.len()),
    };
    t.axioms.extend(target.axioms.iter().cloned());
    let expected = target.axioms.len() + carried.len();
    for a in carried {
        // A name the target (or an axiom carried before) already uses is made fresh.
        let a = match t.axiom(&a.name) {
            None => a,
            Some(_) => Arc::new(Axiom {
                name: fresh_axiom_name(&t, a.name.clone()),
                ..Axiom::clone(&a)
            }),
        };
        t.axioms.push(a);
    }
    finish_added(t, &target.sig, target.axioms.len(), expected, p)
}

/// Every injective map of `source`'s symbols into `target`'s symbols of the same arity (both
/// single-sorted), at most `limit` of them, in a fixed order: the maps TRANSFER moves along.
pub fn maps(source: &Theory, target: &Theory, limit: usize) -> Vec<SymbolMap> {
    if !(source.sig.is_single_sorted() && target.sig.is_single_sorted()) {
        return Vec::new();
    }
    maps_across_sorts(source, target, limit)
}

/// [`maps`] for theories with any number of sorts: every injective map of `source`'s symbols
/// into `target`'s of the same arity that reads each sort of `source` as one sort of `target`,
/// distinct sorts as distinct sorts (so a many-sorted theory is matched with a copy whose sorts
/// and symbols are renamed), at most `limit`, in a fixed order.
pub fn maps_across_sorts(source: &Theory, target: &Theory, limit: usize) -> Vec<SymbolMap> {
    index_maps(source, target, limit)
        .iter()
        .map(|(funcs, rels)| {
            named(source, target, funcs, rels)
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The map sending `source`'s function symbol `i` to `target`'s `funcs[i]` and relation symbol
/// `i` to `rels[i]`, by names: each source name with its image's.
fn named<'a: 'b, 'b>(
    source: &'a Theory,
    target: &'a Theory,
    funcs: &'b [FuncId],
    rels: &'b [RelId],
) -> impl Iterator<Item = (&'a str, &'a str)> + 'b {
    let (ss, ts) = (&source.sig, &target.sig);
    let f = ss
        .funcs
        .iter()
        .zip(funcs)
        .map(|(d, g)| (d.name.as_str(), ts.func_decl(*g).name.as_str()));
    f.chain(
        ss.rels
            .iter()
            .zip(rels)
            .map(|(d, r)| (d.name.as_str(), ts.rel_decl(*r).name.as_str())),
    )
}

/// [`maps`] as indices: the image of each function symbol, and of each relation symbol.
fn index_maps(source: &Theory, target: &Theory, limit: usize) -> Vec<(Vec<FuncId>, Vec<RelId>)> {
    if source.sig.sorts.len() != target.sig.sorts.len() {
        return Vec::new();
    }
    // Symbols as (argument sorts, result sort for a function), functions first; a map picks a
    // target index for each.
    let kinds = |t: &Theory| -> Vec<(Vec<SortId>, Option<SortId>)> {
        t.sig
            .funcs
            .iter()
            .map(|d| (d.args.clone(), Some(d.result)))
            .chain(t.sig.rels.iter().map(|d| (d.args.clone(), None)))
            .collect()
    };
    let (from, to) = (kinds(source), kinds(target));
    let nf = (source.sig.funcs.len(), target.sig.funcs.len());
    let mut search = MapSearch {
        from: &from,
        to: &to,
        nf,
        limit,
        cur: Vec::new(),
        sorts: vec![None; source.sig.sorts.len()],
        out: Vec::new(),
    };
    search.go(0);
    search.out
}

/// The backtracking search of [`index_maps`]: symbol `i` of `from` goes to an unused symbol of
/// `to` of the same kind whose sorts agree with the sort map so far (`sorts[s]` is the target
/// sort of source sort `s`, one-to-one).
struct MapSearch<'a> {
    from: &'a [(Vec<SortId>, Option<SortId>)],
    to: &'a [(Vec<SortId>, Option<SortId>)],
    nf: (usize, usize),
    limit: usize,
    cur: Vec<usize>,
    sorts: Vec<Option<SortId>>,
    out: Vec<(Vec<FuncId>, Vec<RelId>)>,
}

impl MapSearch<'_> {
    fn go(&mut self, i: usize) {
        if self.out.len() >= self.limit {
            return;
        }
        if i == self.from.len() {
            let funcs = self.cur[..self.nf.0]
                .iter()
                .map(|&j| FuncId(j as u32))
                .collect();
            let rels = self.cur[self.nf.0..]
                .iter()
                .map(|&j| RelId((j - self.nf.1) as u32))
                .collect();
            self.out.push((funcs, rels));
            return;
        }
        let (args, result) = &self.from[i];
        for j in 0..self.to.len() {
            let (targs, tresult) = &self.to[j];
            if self.cur.contains(&j)
                || targs.len() != args.len()
                || result.is_some() != tresult.is_some()
            {
                continue;
            }
            let saved = self.sorts.clone();
            let pairs = args.iter().zip(targs).chain(result.iter().zip(tresult));
            let mut fits = true;
            for (s, t) in pairs {
                match self.sorts[s.0 as usize] {
                    Some(prev) => fits &= prev == *t,
                    None if self.sorts.contains(&Some(*t)) => fits = false,
                    None => self.sorts[s.0 as usize] = Some(*t),
                }
            }
            if fits {
                self.cur.push(j);
                self.go(i + 1);
                self.cur.pop();
            }
            self.sorts = saved;
        }
    }
}

/// The most signature maps [`all`] tries for one pair of theories.
pub const MAX_MAPS: usize = 24;

/// TRANSFER along every map [`maps`] finds.
pub fn all(source: &Theory, target: &Theory) -> Vec<Derived> {
    all_into(&Pair::new(
        source,
        &AxiomSet::of(source),
        target,
        &AxiomSet::of(target),
    ))
}

/// [`all`], with the axioms of both theories already encoded.
pub fn all_into(pair: &Pair) -> Vec<Derived> {
    // Maps under which every axiom already holds give nothing; the prefix is named only once a
    // map gives something.
    let mut landings = pair.landings().iter().filter(|l| l.adds()).peekable();
    if pair.source.axioms.is_empty() || landings.peek().is_none() {
        return Vec::new();
    }
    let prefix = axiom_prefix(pair.source);
    landings
        .filter_map(|l| transfer_along(pair, l, &prefix).ok())
        .collect()
}

/// Where `source`'s axioms land in `target` under `map` (for ABSTRACT's common part and for
/// comparing theories over one signature); `None` when the map does not fit.
pub fn carried(source: &Theory, target: &Theory, map: &SymbolMap) -> Option<Vec<Axiom>> {
    let im = images(source, target, map).ok()?;
    source
        .axioms
        .iter()
        .map(|a| carry(a, &im, source).ok())
        .collect()
}
