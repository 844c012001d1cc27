//! What a theory is: the known theory it is the same class as, or why it is new; and where it
//! sits among the known ones (the closest entries above and below it). Every comparison is
//! [`relate`] or [`implies`], the functions `birkhoff equiv` uses, on sides made by the one budget
//! rule ([`Side::for_comparison`]), so `identify`, the agent and the rediscovery benchmark give
//! the verdict `equiv` gives for the same pair.
//!
//! The spectrum comes first. Theories that are the same class through definitions have the same
//! number of models of every size, up to isomorphism and labeled, so a known theory whose counts
//! differ from the candidate's is told apart by that invariant at once, without a proof attempt;
//! most entries are told apart at size 2 or 3. A known theory's small counts (every class up to
//! [`MODEL_SIZE`]) are computed the first time a comparison needs them and kept; only the entries
//! they do not tell apart get the rest of the budget rule's counts (a size at a time, as far as
//! one is still open) and, if still open, [`relate`]'s proofs.

use birkhoff_checker::finder::FinderError;
use birkhoff_checker::prover::equivalence::{
    countermodel_under, implies, inverse, relate, same_shape, side_budget, Implication, Invariant,
    Relation, Side, Witness, COUNT_SIZE, MODEL_SIZE,
};
use birkhoff_checker::prover::Options;
use birkhoff_engine::canon::equal_up_to_renaming;
use birkhoff_engine::{Structure, Theory};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};

/// A named theory that recognition compares against.
#[derive(Clone, Debug)]
pub struct Known {
    /// Its name, as people know it (a seed's or catalogue entry's file name, a discovery's name).
    pub name: String,
    /// `seed`, `catalogue`, `discovery`, or `candidate` (one the agent met earlier in a cycle).
    pub kind: &'static str,
    /// The theory.
    pub theory: Theory,
}

impl Known {
    /// The theories shipped with Birkhoff: every catalogue entry, seeds first (a theory equal to
    /// a seed is named after the seed), each under its file name.
    pub fn builtin() -> Vec<Known> {
        use birkhoff_engine::catalogue::{all, Origin};
        let mut entries = all();
        entries.sort_by_key(|e| (e.origin != Origin::Seed, e.name));
        entries
            .into_iter()
            .filter_map(|e| {
                let kind = if e.origin == Origin::Seed {
                    "seed"
                } else {
                    "catalogue"
                };
                e.theory().ok().map(|theory| Known {
                    name: e.name.to_string(),
                    kind,
                    theory,
                })
            })
            .collect()
    }
}

/// What a comparison keeps of a known theory's [`Side`].
struct Kept {
    models: Vec<Structure>,
    counts: Vec<(Vec<u32>, u128)>,
    at_least: Vec<(Vec<u32>, u128)>,
    labeled: Vec<(Vec<u32>, u128)>,
}

impl Kept {
    fn of(side: Side) -> Kept {
        Kept {
            models: side.models,
            counts: side.counts,
            at_least: side.at_least,
            labeled: side.labeled,
        }
    }

    /// The side of `theory` with these models and counts.
    fn side<'t>(&self, theory: &'t Theory) -> Side<'t> {
        Side {
            theory,
            models: self.models.clone(),
            counts: self.counts.clone(),
            at_least: self.at_least.clone(),
            labeled: self.labeled.clone(),
        }
    }

    /// The side of `theory` with these counts and no models: enough to compare spectra.
    fn counts_of<'t>(&self, theory: &'t Theory) -> Side<'t> {
        Side {
            theory,
            models: Vec::new(),
            counts: self.counts.clone(),
            at_least: self.at_least.clone(),
            labeled: self.labeled.clone(),
        }
    }
}

/// Known theories with what comparisons need of them, each computed the first time a comparison
/// needs it and then shared by every later comparison (and thread): the small models and counts
/// (every class up to [`MODEL_SIZE`], the first part of the budget rule), the counts after it
/// ([`Side::count_next`]) as far as a comparison has needed them for the few entries the small
/// counts do not tell apart, and which entries were shown the same class as each other.
pub struct Reference {
    known: Vec<Known>,
    small: Vec<OnceLock<Kept>>,
    /// Each entry's side as far as it has been counted after [`MODEL_SIZE`]; `None` until a
    /// comparison first needs a count after it.
    further: Vec<Mutex<Option<Further>>>,
    same: Mutex<HashMap<(usize, usize), bool>>,
    cancel: Option<Arc<AtomicBool>>,
    /// Whether standings give the whole account ([`Reference::for_novelty`] says what is left
    /// out otherwise).
    full_account: bool,
}

/// An entry's side counted after [`MODEL_SIZE`] as far as comparisons needed, and whether the
/// budget rule stopped there (a size cut short, or [`COUNT_SIZE`] reached).
struct Further {
    kept: Kept,
    stopped: bool,
}

/// Keeps the items of `items` whose flag in `flags` (one per item, in order) is set.
fn retain_flagged<T>(items: &mut Vec<T>, flags: &[bool]) {
    let mut flags = flags.iter();
    items.retain(|_| *flags.next().expect("one flag per item"));
}

/// `lock`'s value, computed by `make` if no thread has set it yet (two threads may both compute
/// it; the first value set is kept).
fn kept<'l, 't>(
    lock: &'l OnceLock<Kept>,
    make: impl FnOnce() -> Result<Side<'t>, FinderError>,
) -> Result<&'l Kept, FinderError> {
    if let Some(k) = lock.get() {
        return Ok(k);
    }
    let k = Kept::of(make()?);
    Ok(lock.get_or_init(|| k))
}

impl Reference {
    /// A reference over `known`; its sides are made by the one budget rule, stopped by `cancel`.
    pub fn new(known: Vec<Known>, cancel: Option<Arc<AtomicBool>>) -> Reference {
        let n = known.len();
        Reference {
            known,
            small: (0..n).map(|_| OnceLock::new()).collect(),
            further: (0..n).map(|_| Mutex::new(None)).collect(),
            same: Mutex::new(HashMap::new()),
            cancel,
            full_account: true,
        }
    }

    /// The same reference for a caller that only asks whether a theory is new (the agent):
    /// a known standing does not list the other entries of the theory's class
    /// (`Standing::Known::also`), each a comparison between two known theories; and the tries to
    /// tell the entries the proofs left open apart through an inclusion stop at the first entry
    /// they leave open (one entry left open already makes the theory unknown, and a try between
    /// two known theories can take the prover's whole time), so an unknown standing may name
    /// entries that more tries would have told apart. The verdict, known, new or unknown, is the
    /// same either way.
    pub fn for_novelty(self) -> Reference {
        Reference {
            full_account: false,
            ..self
        }
    }

    /// The known theories.
    pub fn known(&self) -> &[Known] {
        &self.known
    }

    /// Adds a theory (a discovery of this run, say) to compare later theories against.
    pub fn push(&mut self, k: Known) {
        self.known.push(k);
        self.small.push(OnceLock::new());
        self.further.push(Mutex::new(None));
    }

    /// Entry `i`'s classes up to [`MODEL_SIZE`]: the first part of [`Side::for_comparison`].
    fn small(&self, i: usize) -> Result<&Kept, FinderError> {
        kept(&self.small[i], || self.side_of(&self.known[i].theory))
    }

    /// Keeps only the known theories for which `keep` holds (with what was computed of them):
    /// a caller that stops comparing with a theory once it has found it (the rediscovery tally)
    /// spends nothing more on it.
    pub fn retain(&mut self, keep: impl Fn(&Known) -> bool) {
        let kept: Vec<bool> = self.known.iter().map(&keep).collect();
        retain_flagged(&mut self.known, &kept);
        retain_flagged(&mut self.small, &kept);
        retain_flagged(&mut self.further, &kept);
        // Keyed by index, which the removal shifts.
        self.same
            .lock()
            .expect("no thread panics holding it")
            .clear();
    }

    /// `theory`'s side for [`standing`] against this reference: the first part of the budget
    /// rule (every class up to [`MODEL_SIZE`]), which [`standing`] counts further, a size at a
    /// time, only as far as the entries it leaves open need. The counts after [`MODEL_SIZE`]
    /// cost most of a comparison (up to 300,000 search nodes a size), and most theories an
    /// agent cycle identifies are told apart from every entry by size 4.
    pub fn side_of<'t>(&self, theory: &'t Theory) -> Result<Side<'t>, FinderError> {
        Side::new(theory, MODEL_SIZE, &side_budget(self.cancel.clone()))
    }

    /// The entries with as many sorts as `t`: the only ones a comparison can tell apart from it.
    fn comparable(&self, t: &Theory) -> Vec<usize> {
        let sorts = t.sig.sorts.len();
        (0..self.known.len())
            .filter(|&i| self.known[i].theory.sig.sorts.len() == sorts)
            .collect()
    }

    /// What tells `t` apart from entry `i` by the counts of entry `i`'s small models, if
    /// anything: the first step of [`standing`].
    fn small_difference(&self, t: &Side, i: usize) -> Result<Option<Invariant>, FinderError> {
        Ok(t.spectrum_difference(&self.small(i)?.counts_of(&self.known[i].theory)))
    }

    /// Entry `i`'s side by the whole budget rule ([`Side::for_comparison`]).
    fn full(&self, i: usize) -> Result<Side<'_>, FinderError> {
        self.counted_to(i, COUNT_SIZE)
    }

    /// Entry `i`'s side counted by the budget rule up to size `n`, or as far as the rule goes
    /// when it stops before (a size cut short). Counting one entry is done by one thread at a
    /// time, each size once.
    fn counted_to(&self, i: usize, n: u32) -> Result<Side<'_>, FinderError> {
        let t = &self.known[i].theory;
        let mut further = self.further[i].lock().expect("no thread panics holding it");
        let f = match further.as_mut() {
            Some(f) => f,
            None => further.insert(Further {
                kept: Kept::of(self.small(i)?.side(t)),
                stopped: false,
            }),
        };
        if !f.stopped && (f.kept.counts.len() as u32) < n {
            let mut side = f.kept.side(t);
            while (side.counts.len() as u32) < n {
                if !side.count_next(self.cancel.clone())? {
                    f.stopped = true;
                    break;
                }
            }
            f.kept = Kept::of(side);
        }
        Ok(f.kept.side(t))
    }

    /// Entry `i`'s side with its small models, for implications.
    fn side(&self, i: usize) -> Result<Side<'_>, FinderError> {
        Ok(self.small(i)?.side(&self.known[i].theory))
    }

    /// Whether [`relate`] shows entries `i` and `j` the same class (kept for later questions).
    fn same_class(&self, i: usize, j: usize, opts: &Options) -> Result<bool, FinderError> {
        let key = (i.min(j), i.max(j));
        let cached = self
            .same
            .lock()
            .expect("no thread panics holding it")
            .get(&key)
            .copied();
        if let Some(same) = cached {
            return Ok(same);
        }
        let same = relate(&self.full(key.0)?, &self.full(key.1)?, opts)?.same_class();
        self.same
            .lock()
            .expect("no thread panics holding it")
            .insert(key, same);
        Ok(same)
    }
}

/// Where a theory stands against the known theories.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "standing", rename_all = "snake_case")]
pub enum Standing {
    /// The same class as a known theory, with the proofs.
    Known {
        /// The known theory's name.
        name: String,
        /// `seed`, `catalogue`, `discovery` or `candidate`.
        kind: &'static str,
        /// How it was shown.
        relation: Relation,
        /// Other known theories with the same spectrum that [`relate`] showed the same class as
        /// that one, so the same class as this theory too.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        also: Vec<String>,
    },
    /// Told apart from every known theory (with as many sorts) by a class invariant.
    New {
        /// Why, in words: the invariant and the size for each known theory.
        reason: String,
    },
    /// Some known theories have its spectrum as far as it was counted, and none of them was
    /// proved the same class or told apart.
    Unknown {
        /// Those theories.
        names: Vec<String>,
        /// What was compared and tried.
        reason: String,
    },
}

impl Standing {
    /// "known as X (...)", "new because ..." or "unknown: ...".
    pub fn describe(&self) -> String {
        match self {
            Standing::Known {
                name,
                kind,
                relation,
                also,
            } => {
                let also = if also.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; hence also {}, shown the same class as {name}",
                        also.join(", ")
                    )
                };
                format!("known as {name} ({kind}): {}{also}", relation.describe())
            }
            Standing::New { reason } => format!("new because {reason}"),
            Standing::Unknown { names, reason } if names.is_empty() => format!("unknown: {reason}"),
            Standing::Unknown { names, reason } => {
                format!("unknown: possibly {} ({reason})", names.join(" or "))
            }
        }
    }
}

/// At most this many names are listed for one size in a "new" standing's reason.
const NAMES_SHOWN: usize = 6;

/// Compares `t` (a side made by [`Side::for_comparison`] or [`Reference::side_of`]) with every
/// known theory with as many sorts, spectrum first: an entry whose small counts differ from
/// `t`'s is told apart by that invariant; then, for the others, the counts after
/// [`MODEL_SIZE`] a size at a time on both sides; the entries still open go to [`relate`]
/// (entries of its shape first, a few at a time in parallel, stopping after the group in which
/// one is shown the same class), which tries proofs. The first entry so shown settles it (with
/// the entries compared so far that are shown the same class as that one: chaining); the theory is new only when
/// every entry is told apart by an invariant, directly or as the same class as an entry told
/// apart by an inclusion; otherwise it is unknown, naming the entries it may be. A search cut
/// short never makes it new: it leaves an entry not told apart.
pub fn standing(t: &Side, reference: &Reference, opts: &Options) -> Result<Standing, FinderError> {
    let comparable = reference.comparable(t.theory);
    // The invariant first, for every entry: cheap, and most entries are told apart here.
    let small: Vec<Option<Invariant>> = comparable
        .par_iter()
        .map(|&i| reference.small_difference(t, i))
        .collect::<Result<_, FinderError>>()?;
    let mut apart: Vec<(usize, Invariant)> = Vec::new();
    let mut rest: Vec<usize> = Vec::new();
    for (&i, invariant) in comparable.iter().zip(small) {
        match invariant {
            Some(invariant) => apart.push((i, invariant)),
            None => rest.push(i),
        }
    }
    rest.sort_by_key(|&i| !same_shape(t.theory, &reference.known[i].theory));
    // A known theory equal to `t` up to renaming is its class, whatever else is compared: it is
    // the strongest relation there is, and [`relate`] says it before reading any count.
    let equal = rest.iter().copied().find(|&i| {
        matches!(
            equal_up_to_renaming(t.theory, &reference.known[i].theory),
            Ok(true)
        )
    });
    // Then the counts after MODEL_SIZE, a size at a time on both sides, before any proof: the
    // entries a size tells apart need neither a larger size nor [`relate`], whose first step
    // would find the same invariant at the same (smallest) size.
    let mut t = t.clone();
    for n in MODEL_SIZE + 1..=COUNT_SIZE {
        let exact = t.counts.len() as u32;
        if rest.is_empty() || equal.is_some() || exact + 1 < n {
            // Nothing left to tell apart, or the rule stopped for `t` before size n.
            break;
        }
        if exact + 1 == n {
            // A count cut short still has its lower bound to compare.
            t.count_next(reference.cancel.clone())?;
        }
        let at_n: Vec<Option<Invariant>> = rest
            .par_iter()
            .map(|&i| Ok(t.spectrum_difference(&reference.counted_to(i, n)?)))
            .collect::<Result<_, FinderError>>()?;
        let mut still = Vec::new();
        for (i, invariant) in rest.into_iter().zip(at_n) {
            match invariant {
                Some(invariant) => apart.push((i, invariant)),
                None => still.push(i),
            }
        }
        rest = still;
    }
    let t = &t;
    // Then proofs, entries with the candidate's shape first (sorted so above: a renaming is the
    // likeliest reading), a few at a time in parallel, stopping after the first group in which
    // one is shown the same class: the rest would only cost proof attempts. Each pass groups
    // the entries still open when it starts (groups made before the counts told most entries
    // apart were mostly of one entry, so the proofs ran one at a time), and a group's answers
    // are read in its order, so the answer does not depend on which thread finishes first. The
    // groups first get a share of the prover's time, then the entries left open the whole time:
    // a proof of the same class is mostly quick where there is one, while an entry that stays
    // unknown takes the whole time, and held up the entries after it and the one beside it (a
    // Moufang loop of exponent 2 waited 26 s on the Steiner loops; the Boolean groups took
    // 0.5 s).
    let first_look = Options {
        timeout: opts.timeout / FIRST_LOOK_SHARE,
        ..opts.clone()
    };
    let mut open: Vec<(usize, String)> = Vec::new();
    let mut same = equal.map(|i| (i, Relation::Equal));
    for (budget, whole) in [(&first_look, false), (opts, true)] {
        let to_prove: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|i| !apart.iter().any(|(j, _)| j == i))
            .collect();
        for group in to_prove.chunks(rayon::current_num_threads().max(1)) {
            if same.is_some() {
                break;
            }
            let related: Vec<Relation> = group
                .par_iter()
                .map(|&i| relate(t, &reference.full(i)?, budget))
                .collect::<Result<_, FinderError>>()?;
            for (&i, r) in group.iter().zip(related) {
                match r {
                    Relation::Different { invariant, .. } => apart.push((i, invariant)),
                    r if r.same_class() => {
                        same.get_or_insert((i, r));
                    }
                    Relation::Unknown { reason } if whole => open.push((i, reason)),
                    r if whole => open.push((i, r.describe())),
                    _ => {}
                }
            }
        }
    }
    if let Some((i, relation)) = same {
        // Chaining: the other entries with the candidate's spectrum (those compared and left
        // open, and those not compared after the first same class) that are the same class as
        // entry `i` are the candidate's class too.
        let others: Vec<usize> = if reference.full_account {
            let decided: Vec<usize> = apart.iter().map(|(j, _)| *j).collect();
            rest.iter()
                .copied()
                .filter(|&j| j != i && !decided.contains(&j))
                .collect()
        } else {
            Vec::new()
        };
        let shown: Vec<bool> = others
            .par_iter()
            .map(|&j| reference.same_class(i, j, opts))
            .collect::<Result<_, FinderError>>()?;
        let also: Vec<String> = others
            .iter()
            .zip(shown)
            .filter(|(_, same)| *same)
            .map(|(&j, _)| reference.known[j].name.clone())
            .collect();
        let k = &reference.known[i];
        return Ok(Standing::Known {
            name: k.name.clone(),
            kind: k.kind,
            relation,
            also,
        });
    }
    // A difference carries over to the same class: an entry left open that is shown the same
    // class as one told apart by an inclusion is told apart too (were the theory the same class
    // as the one, it would be as the other). An inclusion or a constant no term gives only:
    // entries told apart by their counts have counts that the open ones, agreeing with the
    // theory's, do not share. The tries for one open entry run in parallel, the first in order
    // that succeeds kept.
    let by_inclusion: Vec<usize> = apart
        .iter()
        .filter(|(_, inv)| {
            matches!(
                inv,
                Invariant::Inclusion { .. }
                    | Invariant::Embedding { .. }
                    | Invariant::NoConstantTerm { .. }
            )
        })
        .map(|(i, _)| *i)
        .collect();
    let mut through: Vec<(usize, usize)> = Vec::new();
    let mut still_open = Vec::new();
    for (j, why) in open {
        let shown = if still_open.is_empty() || reference.full_account {
            by_inclusion
                .par_iter()
                .copied()
                .find_first(|&i| reference.same_class(i, j, opts).unwrap_or(false))
        } else {
            None
        };
        match shown {
            Some(i) => through.push((j, i)),
            None => still_open.push((j, why)),
        }
    }
    let open = still_open;
    if let Some((_, first_reason)) = open.first() {
        let names: Vec<String> = open
            .iter()
            .map(|(i, _)| reference.known[*i].name.clone())
            .collect();
        let agree = open
            .iter()
            .filter_map(|(i, _)| {
                let k = reference.full(*i).ok()?;
                t.agreeing_sizes(&k).last().cloned()
            })
            .min();
        let counted = match agree {
            Some(n) => format!(
                "the same number of models of every size up to {}",
                label(&n)
            ),
            None => "no size counted exactly on both sides".into(),
        };
        return Ok(Standing::Unknown {
            reason: format!(
                "{counted}; not proved the same class or told apart by an invariant ({}: {first_reason})",
                names[0]
            ),
            names,
        });
    }
    Ok(Standing::New {
        reason: new_because(
            reference,
            &apart,
            &through,
            reference.known.len() - comparable.len(),
        ),
    })
}

/// The sizes, `2` or `2×2` for two sorts.
fn label(sizes: &[u32]) -> String {
    sizes
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join("×")
}

/// Why a theory told apart from every comparable known theory (`apart`) is new: for each size,
/// the entries whose number of models of that size differs; then the entries told apart by
/// another invariant; then the entries told apart as the same class as one of those (`through`:
/// the entry, and the one it is the same class as); then the entries with another number of
/// sorts (`other_sorts` of them).
fn new_because(
    reference: &Reference,
    apart: &[(usize, Invariant)],
    through: &[(usize, usize)],
    other_sorts: usize,
) -> String {
    // By size, and at each size the numbers of classes before those of labeled models.
    let mut by_size: BTreeMap<(Vec<u32>, bool), Vec<&str>> = BTreeMap::new();
    let mut other = Vec::new();
    for (i, invariant) in apart {
        let name = reference.known[*i].name.as_str();
        match invariant {
            Invariant::Spectrum { sizes, .. } => by_size
                .entry((sizes.clone(), false))
                .or_default()
                .push(name),
            Invariant::Labeled { sizes, .. } => {
                by_size.entry((sizes.clone(), true)).or_default().push(name)
            }
            _ => other.push(format!("from {name}: {}", invariant.describe("it", name))),
        }
    }
    let mut parts: Vec<String> = by_size
        .iter()
        .map(|((sizes, labeled), names)| {
            let shown = names
                .iter()
                .take(NAMES_SHOWN)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            let more = match names.len().saturating_sub(NAMES_SHOWN) {
                0 => String::new(),
                k => format!(" and {k} more"),
            };
            format!(
                "at size {}{} from {} ({shown}{more})",
                label(sizes),
                if *labeled { " in labeled models" } else { "" },
                names.len()
            )
        })
        .collect();
    parts.extend(other);
    parts.extend(through.iter().map(|&(j, i)| {
        format!(
            "from {}: shown the same class as {}, told apart above",
            reference.known[j].name, reference.known[i].name
        )
    }));
    let mut reason = format!(
        "its spectrum differs from that of every seed, catalogue entry and earlier discovery with as many sorts ({} compared), and the same class through any definitions would have the same spectrum: {}",
        apart.len() + through.len(),
        parts.join("; ")
    );
    if apart.is_empty() {
        reason = "no known theory has as many sorts".into();
    }
    if other_sorts > 0 {
        reason.push_str(&format!(
            " (not compared: {other_sorts} known theor{} with another number of sorts, classes of another kind of structure)",
            if other_sorts == 1 { "y" } else { "ies" }
        ));
    }
    reason
}

/// A known theory next to the identified one, with the proof of the implication and what shows
/// it strict.
#[derive(Clone, Debug, Serialize)]
pub struct Neighbour {
    /// The known theory's name.
    pub name: String,
    /// `seed`, `catalogue` or `discovery`.
    pub kind: &'static str,
    /// The proved implication (from the stronger theory to the weaker).
    pub implication: Implication,
    /// A model of the weaker theory that is not a model of the stronger, when one was found
    /// among the small models (signatures of the same shape only).
    pub strict: Option<Box<Witness>>,
}

/// The answer of [`identify`].
#[derive(Clone, Debug, Serialize)]
pub struct Identification {
    /// The theory's name.
    pub theory: String,
    /// Equal or equivalent to a known theory, new, or unknown.
    pub standing: Standing,
    /// The closest known theories it implies (weaker than it: its models are theirs).
    pub above: Vec<Neighbour>,
    /// The closest known theories that imply it (stronger: their models are its).
    pub below: Vec<Neighbour>,
}

/// The implications that place a theory among its neighbours get this fraction of the verdict's
/// prover time per obligation: where a theory sits is not its verdict, and the implications
/// between neighbours are mostly short proofs, while the many that do not hold and that no small
/// model refutes would each take the whole time (35 of them for loops of left exponent 3).
pub const NEIGHBOUR_SHARE: u32 = 4;

/// [`standing`]'s first look at every entry still open gets this fraction of the prover's time
/// per obligation ([`Options::timeout`]), before the entries it leaves open get the whole time.
pub const FIRST_LOOK_SHARE: u32 = 8;

/// Places `t` among the known theories: its [`standing`], then (unless it is known) every known
/// theory with as many sorts that it provably implies and every one provably implying it, each
/// proof attempt within [`NEIGHBOUR_SHARE`] of `opts.timeout`, keeping the closest: an entry
/// above is dropped when another entry above provably lies between them, and likewise below.
pub fn identify(
    t: &Side,
    reference: &Reference,
    opts: &Options,
) -> Result<Identification, FinderError> {
    let standing = standing(t, reference, opts)?;
    let mut out = Identification {
        theory: t.theory.name.clone(),
        standing,
        above: Vec::new(),
        below: Vec::new(),
    };
    if let Standing::Known { .. } = out.standing {
        return Ok(out);
    }
    let opts = &Options {
        timeout: opts.timeout / NEIGHBOUR_SHARE,
        ..opts.clone()
    };
    let sorts = t.theory.sig.sorts.len();
    let comparable: Vec<usize> = (0..reference.known.len())
        .filter(|&i| reference.known[i].theory.sig.sorts.len() == sorts)
        .collect();
    let proved = |imp: &Implication| matches!(imp, Implication::Proved { .. });
    // Above: t ⇒ K. Below: K ⇒ t.
    let above: Vec<(usize, Implication)> = comparable
        .par_iter()
        .map(|&i| Ok((i, implies(t, &reference.known[i].theory, opts)?)))
        .collect::<Result<Vec<_>, FinderError>>()?
        .into_iter()
        .filter(|(_, imp)| proved(imp))
        .collect();
    let below: Vec<(usize, Implication)> = comparable
        .par_iter()
        .map(|&i| Ok((i, implies(&reference.side(i)?, t.theory, opts)?)))
        .collect::<Result<Vec<_>, FinderError>>()?
        .into_iter()
        .filter(|(_, imp)| proved(imp))
        .collect();
    out.above = closest(t, reference, opts, &above, true)?;
    out.below = closest(t, reference, opts, &below, false)?;
    Ok(out)
}

/// The entries of `found` (proved implications t ⇒ K when `above`, K ⇒ t otherwise) that no
/// other entry of `found` provably lies between t and, with a strictness witness where the small
/// models give one. K2 lies between t and K1 above when K2 ⇒ K1 but not K1 ⇒ K2; below, when
/// K1 ⇒ K2 but not K2 ⇒ K1.
fn closest(
    t: &Side,
    reference: &Reference,
    opts: &Options,
    found: &[(usize, Implication)],
    above: bool,
) -> Result<Vec<Neighbour>, FinderError> {
    let proved = |imp: &Implication| matches!(imp, Implication::Proved { .. });
    let strictly = |stronger: usize, weaker: usize| -> Result<bool, FinderError> {
        Ok(proved(&implies(
            &reference.side(stronger)?,
            &reference.known[weaker].theory,
            opts,
        )?) && !proved(&implies(
            &reference.side(weaker)?,
            &reference.known[stronger].theory,
            opts,
        )?))
    };
    let mut out = Vec::new();
    'entries: for (i, imp) in found {
        for (j, _) in found.iter().filter(|(j, _)| j != i) {
            if if above {
                strictly(*j, *i)?
            } else {
                strictly(*i, *j)?
            } {
                continue 'entries;
            }
        }
        let k = &reference.known[*i];
        // Strict: a model of the weaker side that the stronger side's axioms reject.
        let strict = match imp {
            Implication::Proved { map, .. } if same_shape(t.theory, &k.theory) => {
                if above {
                    countermodel_under(&reference.side(*i)?, t.theory, &inverse(map))
                } else {
                    countermodel_under(t, &k.theory, &inverse(map))
                }
            }
            _ => None,
        };
        out.push(Neighbour {
            name: k.name.clone(),
            kind: k.kind,
            implication: imp.clone(),
            strict,
        });
    }
    Ok(out)
}
