//! Everything a paper says, read from the library: the discovery's theory record, its spectrum
//! and models, its conjectures with their proofs and countermodels, where it came from, and its
//! confirmed references. Nothing is recomputed that the library holds; what is derived here
//! (OEIS matches, spectrum patterns, which models are new) is derived by the checker's own
//! functions, the ones the agent's reports use.

use crate::{Error, Result};
use birkhoff_checker::oeis;
use birkhoff_checker::prover::readable::{recheck, ReadableProof};
use birkhoff_checker::survey::Survey;
use birkhoff_engine::{Structure, Theory};
use birkhoff_library::placement::{NeighbourRec, PlacementRec, ReductRec};
use birkhoff_library::record::{
    Body, ConjectureStatus, Record, SpectrumRow, StructureClaim, TheoryRec,
};
use birkhoff_library::Library;
use birkhoff_literature::store::Reference;
use std::time::Duration;

/// How long one stored proof may take to lay out for reading (as in the web viewer); a longer
/// one is stated with its evidence and without its steps.
const PROOF_TIME: Duration = Duration::from_secs(5);

/// How many new models get their Cayley tables.
const NEW_MODELS: usize = 2;

/// How far back the derivation is followed (a chain of parents, guarded against loops).
const MAX_DERIVATION: usize = 24;

/// One step of a derivation: a theory and how it arose.
#[derive(Clone, Debug)]
pub struct Ancestor {
    /// Its name.
    pub name: String,
    /// How it arose: `seed`, a catalogue entry, or the moves that produced it.
    pub origin: String,
}

/// A model shown with its tables.
#[derive(Clone, Debug)]
pub struct ShownModel {
    /// The structure, over the discovery's signature.
    pub structure: Structure,
    /// Why it is shown, in words (the parent's axiom it violates, or that it is only small).
    pub caption: String,
}

/// A proved conjecture: a theorem.
#[derive(Clone, Debug)]
pub struct Theorem {
    /// The statement in Birkhoff's syntax.
    pub statement: String,
    /// What the proof rests on (the prover, the certificate's replay).
    pub evidence: String,
    /// The proof as numbered equational steps, re-checked from its text; or why it is not shown.
    pub proof: std::result::Result<ReadableProof, String>,
    /// What it says of the models' structure, when a structure study proposed it.
    pub claim: Option<StructureClaim>,
}

impl Theorem {
    /// Re-checks the typeset proof from its text alone (`readable::recheck`): every step one
    /// rewrite by the named axiom or lemma at the named position, the chain from the
    /// statement's left side to its right side.
    pub fn recheck(&self, theory: &Theory) -> std::result::Result<(), String> {
        let proof = self.proof.as_ref().map_err(Clone::clone)?;
        let goal = birkhoff_library::statement::parse(theory, &self.statement)?;
        recheck(theory, &goal, proof).map_err(|e| e.to_string())
    }
}

/// A refuted conjecture with its countermodel.
#[derive(Clone, Debug)]
pub struct Refuted {
    /// The statement in Birkhoff's syntax.
    pub statement: String,
    /// What the refutation rests on.
    pub evidence: String,
    /// The countermodel, when its record could be read.
    pub countermodel: Option<Structure>,
}

/// An open conjecture.
#[derive(Clone, Debug)]
pub struct Open {
    /// The statement in Birkhoff's syntax.
    pub statement: String,
    /// What it rests on.
    pub evidence: String,
}

/// Whether the literature was searched for the discovery, as the literature agent recorded it:
/// a paper that cites nothing must say whether that is because nothing was found or because
/// nobody looked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteratureSearch {
    /// No search for this theory is recorded (`birkhoff literature` was not run on it).
    NotRun,
    /// Searched: how many times, and, per source, its last answer (a number of results, or why
    /// it was skipped).
    Run {
        /// How many searches are recorded.
        searches: usize,
        /// Each source's last answer, by source key.
        answers: std::collections::BTreeMap<String, String>,
    },
    /// The literature agent's state could not be read: why.
    Unreadable(String),
}

impl LiteratureSearch {
    /// What the literature agent recorded for subject `id`.
    fn of(state: &birkhoff_literature::store::State, id: &str) -> LiteratureSearch {
        let Some(subject) = state.subjects.get(id).filter(|s| !s.history.is_empty()) else {
            return LiteratureSearch::NotRun;
        };
        let mut answers = std::collections::BTreeMap::new();
        for row in &subject.history {
            answers.extend(row.results.clone());
        }
        LiteratureSearch::Run {
            searches: subject.history.len(),
            answers,
        }
    }
}

/// Where the discovery sits among the catalogue's classes and the library's other discoveries
/// over the same signature (issue 51), as its placement record stores it
/// ([`crate::place_discovery`]): each neighbour compared both ways, and the Hasse diagram of
/// those strictly comparable with it.
#[derive(Clone, Debug)]
pub struct Placement {
    /// Every neighbour compared, in the order compared.
    pub neighbours: Vec<NeighbourRec>,
    /// The diagram's nodes: the discovery first, then the neighbours strictly above or below it.
    pub nodes: Vec<String>,
    /// The diagram's edges (lower, upper), indices into `nodes`: cover relations, each proved.
    pub covers: Vec<(usize, usize)>,
    /// Each node's level, larger classes higher.
    pub levels: Vec<usize>,
    /// Neighbours with the same signature not compared for lack of time.
    pub not_reached: usize,
    /// The classes over other symbols a reduct of it was proved to lie in, the strongest only
    /// ([`PlacementRec::strongest_reducts`]).
    pub reducts: Vec<ReductRec>,
}

/// The stored placement of the theory `id` (`theory`), if it was placed.
fn placement(lib: &Library, id: &str, theory: &Theory) -> Option<Placement> {
    let Ok(Record {
        body: Body::Placement(p),
        ..
    }) = lib.get(&PlacementRec::id_for(id))
    else {
        return None;
    };
    let hasse = p.hasse();
    Some(Placement {
        levels: hasse.levels(),
        nodes: hasse.nodes,
        covers: hasse.covers,
        not_reached: p.not_reached,
        reducts: p.strongest_reducts(theory).into_iter().cloned().collect(),
        neighbours: p.neighbours,
    })
}

/// What a paper is written from.
#[derive(Clone, Debug)]
pub struct Paper {
    /// The discovery's record ID.
    pub id: String,
    /// The discovery's record.
    pub record: TheoryRec,
    /// The theory, parsed from the record.
    pub theory: Theory,
    /// From the discovery back to a seed or catalogue entry: the discovery first.
    pub derivation: Vec<Ancestor>,
    /// The stored spectrum ([`Library::spectrum_of`]), empty if none was stored.
    pub spectrum: Vec<SpectrumRow>,
    /// OEIS sequences the spectrum matches (the shipped data file, offline).
    pub oeis: Vec<oeis::Match>,
    /// What the spectrum suggests about the orders with models: open conjectures.
    pub patterns: Vec<birkhoff_checker::Conjecture>,
    /// The smallest models that are not models of the parent (or, failing that, the smallest
    /// models, captioned so).
    pub models: Vec<ShownModel>,
    /// What the small models are made of (simple, subdirectly irreducible, indecomposable), for
    /// a theory of algebras ([`crate::structure::survey_of`], without statements).
    pub survey: Option<Survey>,
    /// Where it sits among known classes over its signature; `None` when nothing could be
    /// compared.
    pub placement: Option<Placement>,
    /// Proved conjectures.
    pub theorems: Vec<Theorem>,
    /// Refuted conjectures.
    pub refuted: Vec<Refuted>,
    /// Open conjectures.
    pub open: Vec<Open>,
    /// The catalogue entries (seeds included) the derivation starts from, and those they are
    /// stated to imply: the known classes this discovery sits among.
    pub related: Vec<birkhoff_engine::catalogue::Info>,
    /// Confirmed references only (REF-NNN): the only ones a paper may cite.
    pub references: Vec<Reference>,
    /// Whether the literature was searched at all.
    pub literature: LiteratureSearch,
    /// What could not be included, and why (said in the paper too).
    pub omissions: Vec<String>,
}

/// Finds the discovery by record ID, name or alias ([`find`]) and parses its theory.
pub(crate) fn find_theory(lib: &Library, discovery: &str) -> Result<(String, TheoryRec, Theory)> {
    let (id, record) = find(lib, discovery)?;
    let theory = Theory::parse(&record.text, &record.name).map_err(|e| Error::BadTheory {
        id: id.clone(),
        message: e.to_string(),
    })?;
    Ok((id, record, theory))
}

/// Finds the discovery by record ID, name or alias (a discovery first when names repeat).
fn find(lib: &Library, discovery: &str) -> Result<(String, TheoryRec)> {
    if birkhoff_library::id::dir_of(discovery).is_some() {
        return match lib.get(discovery) {
            Ok(Record {
                id,
                body: Body::Theory(t),
                ..
            }) => Ok((id, t)),
            Ok(r) => Err(Error::NotATheory {
                id: discovery.to_string(),
                kind: r.body.kind().to_string(),
            }),
            Err(birkhoff_library::Error::NotFound(_)) => {
                Err(Error::NotFound(discovery.to_string()))
            }
            Err(e) => Err(e.into()),
        };
    }
    let mut theories: Vec<(String, TheoryRec)> = lib
        .list("theory")?
        .into_iter()
        .filter_map(|r| {
            if let Body::Theory(t) = r.body {
                Some((r.id, t))
            } else {
                None
            }
        })
        .collect();
    theories.sort_by_key(|(_, t)| !t.discovery);
    let named = |(_, t): &&(String, TheoryRec)| t.name == discovery;
    let aliased = |(_, t): &&(String, TheoryRec)| t.aliases.iter().any(|a| a.name == discovery);
    theories
        .iter()
        .find(named)
        .or_else(|| theories.iter().find(aliased))
        .cloned()
        .ok_or_else(|| Error::NotFound(discovery.to_string()))
}

/// The best-scored discovery's record ID: the highest total score, unscored discoveries last,
/// ties by name, which is the order `birkhoff report --top` lists them in. `None` when the
/// library has no discovery.
pub fn best_discovery(lib: &Library) -> Result<Option<String>> {
    let score = |r: &Record| match &r.body {
        Body::Theory(t) => t.score.as_ref().map(|s| s.total),
        _ => None,
    };
    let mut found = lib.discoveries()?;
    birkhoff_library::record::rank(&mut found, score);
    Ok(found.into_iter().next().map(|r| r.id))
}

/// A theory the library or the engine knows by `name`: a stored theory's record (by name,
/// alias, the name in its text, or ID), else a seed or catalogue entry. Returns its name,
/// origin, parents and text-parsed theory.
fn resolve(
    theories: &[(String, TheoryRec, Option<Theory>)],
    name: &str,
) -> Option<(Ancestor, Vec<String>, Theory)> {
    let stored = theories.iter().find(|(id, t, parsed)| {
        id == name
            || t.name == name
            || t.aliases.iter().any(|a| a.name == name)
            || parsed.as_ref().is_some_and(|p| p.name == name)
    });
    if let Some((_, t, Some(theory))) = stored {
        return Some((
            Ancestor {
                name: t.name.clone(),
                origin: t.origin.clone(),
            },
            t.parents.clone(),
            theory.clone(),
        ));
    }
    // Seeds and catalogue entries by name only: a name from a record never becomes a path.
    if let Ok(t) = birkhoff_engine::seeds::load(name) {
        return Some((
            Ancestor {
                name: name.to_string(),
                origin: "seed".into(),
            },
            Vec::new(),
            t,
        ));
    }
    let entry = birkhoff_engine::catalogue::entry(name)?;
    let t = entry.theory().ok()?;
    Some((
        Ancestor {
            name: name.to_string(),
            origin: "catalogue entry".into(),
        },
        Vec::new(),
        t,
    ))
}

impl Paper {
    /// Reads everything about `discovery` (a record ID, a name or an alias) from `lib`.
    pub fn gather(lib: &Library, discovery: &str) -> Result<Paper> {
        let (id, record, theory) = find_theory(lib, discovery)?;
        let records = lib.load_all()?;
        let theories: Vec<(String, TheoryRec, Option<Theory>)> = records
            .iter()
            .filter_map(|r| match &r.body {
                Body::Theory(t) => Some((
                    r.id.clone(),
                    t.clone(),
                    Theory::parse(&t.text, &t.name).ok(),
                )),
                _ => None,
            })
            .collect();
        let mut omissions = Vec::new();

        // Where it came from: parents followed back to a seed or a catalogue entry.
        let mut derivation = vec![Ancestor {
            name: record.name.clone(),
            origin: record.origin.clone(),
        }];
        let mut parent_theory = None;
        let mut next = record.parents.first().cloned();
        while let Some(name) = next.take() {
            if derivation.len() > MAX_DERIVATION
                || derivation.iter().skip(1).any(|a| a.name == name)
            {
                break;
            }
            match resolve(&theories, &name) {
                Some((ancestor, parents, t)) => {
                    parent_theory.get_or_insert(t);
                    derivation.push(ancestor);
                    next = parents.first().cloned();
                }
                None => {
                    // Only the direct parent's models are compared with the discovery's.
                    let direct = derivation.len() == 1;
                    derivation.push(Ancestor {
                        name: name.clone(),
                        origin: "not in the library".into(),
                    });
                    if direct {
                        omissions.push(format!("the parent {name} is not in the library, so its models could not be compared"));
                    }
                }
            }
        }

        // Every count stored for the theory, by the rule every view shares.
        let spectrum = lib.spectrum_of(&id)?;
        if spectrum.is_empty() {
            omissions.push("no spectrum of this theory is stored".into());
        }
        // With the sequences the OEIS named in earlier literature runs.
        let oeis = oeis::recognise_in(
            &spectrum,
            &birkhoff_literature::Store::new(lib.root()).offline_sequences(),
        );
        let mut stored_models: Vec<Structure> = lib.structures_of(&id, &theory)?;
        // A stored model (a countermodel to another statement, often larger than the orders
        // counted) refutes the patterns that exclude its order.
        let orders: Vec<u32> = stored_models
            .iter()
            .filter(|m| m.sizes.len() == 1)
            .map(|m| m.sizes[0])
            .collect();
        let patterns = birkhoff_checker::conjectures_beside(&spectrum, &orders);
        stored_models.sort_by(|a, b| {
            (a.sizes.iter().sum::<u32>(), &a.sizes).cmp(&(b.sizes.iter().sum::<u32>(), &b.sizes))
        });
        let models = new_models(
            &theory,
            stored_models,
            parent_theory.as_ref(),
            &derivation,
            &mut omissions,
        );

        let (mut theorems, mut refuted, mut open) = (Vec::new(), Vec::new(), Vec::new());
        for r in &lib.conjectures_of(&id)? {
            let Body::Conjecture(c) = &r.body else {
                continue;
            };
            match c.status {
                ConjectureStatus::Proved => {
                    let proof = match c.proof.as_deref().map(|p| lib.get(p)) {
                        Some(Ok(Record {
                            body: Body::Proof(p),
                            ..
                        })) => lib.readable_proof(&p, PROOF_TIME),
                        Some(Ok(_)) => Err("its proof record is not a proof".to_string()),
                        Some(Err(e)) => Err(format!("its proof record could not be read: {e}")),
                        None => Err(
                            "no certificate was stored (the prover gave evidence, not a proof)"
                                .to_string(),
                        ),
                    };
                    let mut t = Theorem {
                        statement: c.statement.clone(),
                        evidence: c.evidence.clone(),
                        proof,
                        claim: c.claim.clone(),
                    };
                    // Only a proof that re-checks from its own text is typeset.
                    if let Err(why) = t.recheck(&theory) {
                        if t.proof.is_ok() {
                            t.proof = Err(format!("the laid-out proof did not re-check: {why}"));
                        }
                    }
                    theorems.push(t);
                }
                ConjectureStatus::Refuted => {
                    let countermodel = c.countermodel.as_deref().and_then(|m| match lib.get(m) {
                        Ok(Record {
                            body: Body::Model(m),
                            ..
                        }) => Structure::from_json(&theory.sig, &m.structure).ok(),
                        _ => None,
                    });
                    refuted.push(Refuted {
                        statement: c.statement.clone(),
                        evidence: c.evidence.clone(),
                        countermodel,
                    });
                }
                ConjectureStatus::Open => open.push(Open {
                    statement: c.statement.clone(),
                    evidence: c.evidence.clone(),
                }),
            }
        }

        let (references, literature) =
            match birkhoff_literature::store::Store::new(lib.root()).load() {
                Ok(state) => (
                    state.citable(&id).into_iter().cloned().collect(),
                    LiteratureSearch::of(&state, &id),
                ),
                Err(e) => {
                    omissions.push(format!(
                        "the literature agent's references could not be read: {e}"
                    ));
                    (Vec::new(), LiteratureSearch::Unreadable(e))
                }
            };
        let related = related_entries(&derivation);
        let survey =
            crate::structure::survey_of(&theory, &crate::structure::Study::default(), false);
        let placement = placement(lib, &id, &theory);
        Ok(Paper {
            id,
            record,
            theory,
            derivation,
            spectrum,
            oeis,
            patterns,
            models,
            survey,
            placement,
            theorems,
            refuted,
            open,
            related,
            references,
            literature,
            omissions,
        })
    }
}

/// The smallest stored models that are not models of the parent, each captioned with the
/// parent's axiom it violates; when there are none, the smallest models, captioned so.
fn new_models(
    theory: &Theory,
    mut models: Vec<Structure>,
    parent: Option<&Theory>,
    derivation: &[Ancestor],
    omissions: &mut Vec<String>,
) -> Vec<ShownModel> {
    let mut shown = Vec::new();
    if let Some(parent) = parent {
        let parent_name = derivation
            .get(1)
            .map_or(parent.name.as_str(), |a| a.name.as_str());
        // Each call finds the first model given that violates the parent: take it, look on.
        while shown.len() < NEW_MODELS {
            let Some(w) = birkhoff_checker::prover::equivalence::new_model_against(
                theory,
                models.clone(),
                parent,
            ) else {
                break;
            };
            models.retain(|m| *m != w.model);
            let at: Vec<String> = w
                .assignment
                .iter()
                .map(|(x, n)| format!("{x} = {n}"))
                .collect();
            shown.push(ShownModel {
                caption: format!(
                    "New: not a model of {parent_name}, whose axiom {} fails at {}.",
                    w.axiom,
                    at.join(", ")
                ),
                structure: w.model,
            });
        }
    }
    if shown.is_empty() && !models.is_empty() {
        let why = match parent {
            Some(_) => "every stored model is also a model of the theory it came from (it adds laws), so the smallest models above size 1 are shown",
            None => "the theory it came from is not known here, so the smallest models above size 1 are shown",
        };
        omissions.push(why.to_string());
        // A one-element model is a model of every equational theory: it shows nothing.
        let nontrivial: Vec<Structure> = models
            .iter()
            .filter(|m| m.sizes.iter().any(|&n| n > 1))
            .cloned()
            .collect();
        let pool = if nontrivial.is_empty() {
            models
        } else {
            nontrivial
        };
        shown = pool
            .into_iter()
            .take(NEW_MODELS)
            .map(|structure| ShownModel {
                structure,
                caption: "one of the smallest models stored.".into(),
            })
            .collect();
    }
    shown
}

/// The catalogue entries among the derivation's ancestors, then the entries they are stated to
/// imply, each once.
fn related_entries(derivation: &[Ancestor]) -> Vec<birkhoff_engine::catalogue::Info> {
    use birkhoff_engine::catalogue::{entry, info};
    let info_of = |name: &str| entry(name).and_then(|e| info(&e).ok());
    let mut out: Vec<birkhoff_engine::catalogue::Info> = derivation
        .iter()
        .skip(1)
        .filter_map(|a| info_of(&a.name))
        .collect();
    let implied: Vec<String> = out
        .iter()
        .flat_map(|i| i.implies.iter().map(|m| m.target.clone()))
        .collect();
    out.extend(implied.iter().filter_map(|n| info_of(n)));
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|i| seen.insert(i.name.clone()));
    out
}
