//! What a theory is: the known theory it equals or is equivalent to, or why it is new; and where
//! it sits among the known ones (the closest entries above and below it). Every comparison is
//! [`relate`] or [`implies`], the functions `birkhoff equiv` uses, so `identify`, the scorer's
//! novelty, the library and the agent all agree on what "known" means.

use birkhoff_checker::prover::equivalence::{
    countermodel_under, implies, inverse, relate, same_shape, side_budget, Implication, Relation,
    Side, Witness,
};
use birkhoff_checker::prover::Options;
use birkhoff_checker::{finder::FinderError, prover::definitions::through_definitions, Budget};
use birkhoff_engine::{Structure, Theory};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::OnceLock;

/// A named theory that recognition compares against.
#[derive(Clone, Debug)]
pub struct Known {
    /// Its name, as people know it (a seed's or catalogue entry's file name, a discovery's name).
    pub name: String,
    /// `seed`, `catalogue` or `discovery`.
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

/// Largest size of the models kept per known theory to refute comparisons quickly.
const MODEL_SIZE: u32 = 3;

/// Known theories with their small models, each computed the first time a comparison needs it
/// and then shared by every later comparison (and thread).
pub struct Reference {
    known: Vec<Known>,
    models: Vec<OnceLock<SmallModels>>,
    budget: Budget,
}

/// What a comparison keeps of a known theory's [`Side`]: its models up to [`MODEL_SIZE`] and its
/// exact class counts.
struct SmallModels {
    models: Vec<Structure>,
    counts: Vec<(Vec<u32>, u128)>,
}

impl Reference {
    /// A reference over `known`; model searches run within [`side_budget`] per size.
    pub fn new(
        known: Vec<Known>,
        cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Reference {
        let models = known.iter().map(|_| OnceLock::new()).collect();
        Reference {
            known,
            models,
            budget: side_budget(cancel),
        }
    }

    /// The known theories.
    pub fn known(&self) -> &[Known] {
        &self.known
    }

    /// Adds a theory (a discovery of this run, say) to compare later theories against.
    pub fn push(&mut self, k: Known) {
        self.known.push(k);
        self.models.push(OnceLock::new());
    }

    fn side(&self, i: usize) -> Result<Side<'_>, FinderError> {
        let t = &self.known[i].theory;
        if let Some(kept) = self.models[i].get() {
            return Ok(Side::with_models(t, kept.models.clone()).with_counts(kept.counts.clone()));
        }
        let side = Side::new(t, MODEL_SIZE, &self.budget)?;
        let _ = self.models[i].set(SmallModels {
            models: side.models.clone(),
            counts: side.counts.clone(),
        });
        Ok(side)
    }
}

/// Where a theory stands against the known theories.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "standing", rename_all = "snake_case")]
pub enum Standing {
    /// Equal or equivalent to a known theory.
    Known {
        /// The known theory's name.
        name: String,
        /// `seed`, `catalogue` or `discovery`.
        kind: &'static str,
        /// How it was shown.
        relation: Relation,
    },
    /// Shown different from every known theory whose signature has its shape.
    New {
        /// Why, in words.
        reason: String,
    },
    /// Equivalence with some known theories was neither shown nor refuted.
    Unknown {
        /// Those theories.
        names: Vec<String>,
        /// The first reason given.
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
            } => format!("known as {name} ({kind}): {}", relation.describe()),
            Standing::New { reason } => format!("new because {reason}"),
            Standing::Unknown { names, reason } => {
                format!("unknown whether it is {} ({reason})", names.join(" or "))
            }
        }
    }
}

/// Compares `t` with every known theory of the same shape ([`relate`]), in parallel; the first
/// known theory (in the reference's order) of the same class settles it.
pub fn standing(t: &Side, reference: &Reference, opts: &Options) -> Result<Standing, FinderError> {
    let candidates: Vec<usize> = (0..reference.known.len())
        .filter(|&i| same_shape(t.theory, &reference.known[i].theory))
        .collect();
    let relations: Vec<Relation> = candidates
        .par_iter()
        .map(|&i| relate(t, &reference.side(i)?, opts))
        .collect::<Result<_, _>>()?;
    let mut unknown = Vec::new();
    let mut reason = None;
    for (&i, r) in candidates.iter().zip(relations) {
        let k = &reference.known[i];
        match r {
            r if r.same_class() => {
                return Ok(Standing::Known {
                    name: k.name.clone(),
                    kind: k.kind,
                    relation: r,
                })
            }
            Relation::Unknown { reason: why } => {
                unknown.push(k.name.clone());
                reason.get_or_insert(why);
            }
            _ => {}
        }
    }
    if let Some((i, relation)) = defined_as(t, reference, opts)? {
        let k = &reference.known[i];
        return Ok(Standing::Known {
            name: k.name.clone(),
            kind: k.kind,
            relation,
        });
    }
    if reason.is_none() {
        if let Some((c, d)) = twin_constants(t) {
            // A constant equal to another in every model is likely defined by it (`one = e`):
            // the theory may be a known one with an extra name, which no comparison of
            // signatures of the same shape can see. Not shown new, then.
            return Ok(Standing::Unknown { names: vec![], reason: format!("`{c}` equals `{d}` in every model found: it may be a known theory with one constant defined as another (no known theory was shown the same class through definitions)") });
        }
    }
    Ok(match reason {
        Some(reason) => Standing::Unknown {
            names: unknown,
            reason,
        },
        None if candidates.is_empty() => Standing::New {
            reason: format!(
                "no known theory ({} compared) has its signature",
                reference.known.len()
            ),
        },
        None => {
            let swaps = if opts.swaps {
                " (and none shown the same class with operations' arguments swapped: mirror images, parastrophes)"
            } else {
                " (mirror images and parastrophes not compared)"
            };
            Standing::New { reason: format!("it differs from each of the {} known theories with its signature, each shown by a model of one that is not a model of the other under every renaming of symbols{swaps}; and none with symbols added or removed was shown the same class through definitions", candidates.len()) }
        }
    })
}

/// `standing`, unless it is new while the spectrum `rows` agrees with a known spectrum on at
/// least three nontrivial sizes with models and disagrees nowhere ([`crate::spectrum::agreeing`]):
/// then it is unknown. Two theories can be the same class
/// under definitions that are not a renaming of symbols (a loop written with its right division
/// as the operation is a quasigroup in which `/` has an identity), which no comparison by
/// renaming sees; an equal spectrum is the sign of it, so such a theory is not called new.
pub fn unless_spectrum_known(
    standing: Standing,
    rows: &[birkhoff_checker::SpectrumRow],
    known: &[crate::KnownSpectrum],
) -> Standing {
    match (&standing, crate::spectrum::agreeing(rows, known, 3)) {
        (Standing::New { .. }, Some(k)) => Standing::Unknown { names: vec![k.name.clone()], reason: format!("its spectrum agrees with {}'s at every order compared, and neither a renaming nor definitions of extra operations as terms showed them the same class", k.name) },
        _ => standing,
    }
}

/// The first known theory (in the reference's order) whose signature differs from `t`'s and
/// that is the same class as `t` through definitions ([`through_definitions`]: extra operations
/// proved equal to terms in the other's symbols). Tried only where both sides' exact small
/// counts agree at two sizes or more, as they must for such a pair; that keeps the proofs to the
/// few plausible pairs.
fn defined_as(
    t: &Side,
    reference: &Reference,
    opts: &Options,
) -> Result<Option<(usize, Relation)>, FinderError> {
    let candidates: Vec<usize> = (0..reference.known.len())
        .filter(|&i| !same_shape(t.theory, &reference.known[i].theory))
        .collect();
    let found: Vec<Option<(usize, Relation)>> = candidates
        .par_iter()
        .map(|&i| {
            let k = reference.side(i)?;
            if !t.counts_agree(&k, 2) {
                return Ok(None);
            }
            Ok(through_definitions(t, &k, opts)?.map(|r| (i, r)))
        })
        .collect::<Result<_, FinderError>>()?;
    Ok(found.into_iter().flatten().next())
}

/// Two constants of one sort that have the same value in every model of `t.models`, when there
/// is a model with more than one element (in a one-element model every two constants agree).
fn twin_constants(t: &Side) -> Option<(String, String)> {
    let sig = &t.theory.sig;
    let constants: Vec<_> = sig
        .func_ids()
        .filter(|&f| sig.func_decl(f).args.is_empty())
        .collect();
    if !t.models.iter().any(|m| m.sizes.iter().any(|&n| n > 1)) {
        return None;
    }
    for (i, &c) in constants.iter().enumerate() {
        for &d in &constants[i + 1..] {
            let (dc, dd) = (sig.func_decl(c), sig.func_decl(d));
            if dc.result == dd.result
                && t.models
                    .iter()
                    .all(|m| m.funcs[c.0 as usize] == m.funcs[d.0 as usize])
            {
                return Some((dd.name.clone(), dc.name.clone()));
            }
        }
    }
    None
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

/// Places `t` among the known theories: its [`standing`], then (unless it is known) every known
/// theory it provably implies and every one provably implying it, keeping the closest: an entry
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
    let n = reference.known.len();
    let proved = |imp: &Implication| matches!(imp, Implication::Proved { .. });
    // Above: t ⇒ K. Below: K ⇒ t.
    let above: Vec<(usize, Implication)> = (0..n)
        .into_par_iter()
        .map(|i| Ok((i, implies(t, &reference.known[i].theory, opts)?)))
        .collect::<Result<Vec<_>, FinderError>>()?
        .into_iter()
        .filter(|(_, imp)| proved(imp))
        .collect();
    let below: Vec<(usize, Implication)> = (0..n)
        .into_par_iter()
        .map(|i| Ok((i, implies(&reference.side(i)?, t.theory, opts)?)))
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
