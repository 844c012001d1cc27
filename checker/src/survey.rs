//! A structure survey (issue 51): a theory's models of each size, what each is made of
//! ([`birkhoff_engine::anatomy`]: congruences, simple, subdirectly irreducible, factors, ...),
//! the structure statements true in all of them, each proved or refuted
//! ([`crate::prover::structural`]), and the structure theorems they give together.
//! `birkhoff structure` prints one; the paper and the agent store its statements in the library.

use crate::budget::{Budget, Count, Status};
use crate::finder::FinderError;
use crate::prover::structural::{self, Theorem};
use crate::router::{self, Engine};
use birkhoff_engine::anatomy::{self, Algebra, Anatomy, NotAnAlgebra, SizeSummary};
use birkhoff_engine::{Structure, Theory};
use std::ops::RangeInclusive;
use std::sync::atomic::Ordering;

/// What a survey looks at and may spend.
#[derive(Clone, Debug)]
pub struct Options {
    /// The sizes.
    pub sizes: RangeInclusive<u32>,
    /// Most models analysed per size: the first ones in canonical order.
    pub sample: usize,
    /// The counting engine.
    pub engine: Engine,
    /// The structure statements' options; `None` for no statements.
    pub statements: Option<structural::Options>,
}

/// One model and its anatomy.
#[derive(Clone, Debug)]
pub struct Analysed {
    /// The model (a canonical form; checked by the evaluator).
    pub model: Structure,
    /// Its automorphism group's order.
    pub automorphisms: u128,
    /// What it is made of.
    pub anatomy: Anatomy,
}

/// One size: its count, the models analysed, and their summary.
#[derive(Clone, Debug)]
pub struct SizeReport {
    /// The size.
    pub size: u32,
    /// How many models it has, up to isomorphism.
    pub models: Count,
    /// The models analysed.
    pub analysed: Vec<Analysed>,
    /// How many of them are simple, subdirectly irreducible, directly indecomposable.
    pub summary: SizeSummary,
}

impl SizeReport {
    /// Whether every model of this size was analysed.
    pub fn complete(&self) -> bool {
        self.models.status == Status::Exact && self.analysed.len() as u128 == self.models.value
    }
}

/// A survey's result.
#[derive(Clone, Debug)]
pub struct Survey {
    /// Each size surveyed, in order (fewer than asked when stopped by Ctrl-C).
    pub sizes: Vec<SizeReport>,
    /// The structure statements true in every model analysed, with the prover's answers.
    pub statements: Vec<structural::Statement>,
    /// The structure theorems that the proved statements give ([`structural::compose`]).
    pub theorems: Vec<Theorem>,
}

/// "Every model is a product of subdirectly irreducible ones from this list", as far as the
/// survey saw ([`Survey::semisimple`]).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Semisimple {
    /// Every model of every size from 1 to this was analysed.
    pub up_to: u32,
    /// The subdirectly irreducible models among them: (size, simple), one entry per model.
    pub irreducible: Vec<(u32, bool)>,
}

impl Survey {
    /// The largest n such that every model of every size from 1 to n was analysed.
    pub fn complete_up_to(&self) -> Option<u32> {
        let mut last = None;
        for (r, n) in self.sizes.iter().zip(1..) {
            if r.size != n || !r.complete() {
                break;
            }
            last = Some(n);
        }
        last
    }

    /// For an equational `theory`: when every directly indecomposable model of every size up to
    /// [`Survey::complete_up_to`] is subdirectly irreducible, every model of those sizes is a
    /// direct product of the subdirectly irreducible ones listed. (A finite algebra is a product
    /// of directly indecomposable quotients of itself, which are models of an equational theory
    /// and no larger; so each is in the list.) `None` otherwise: an indecomposable model that is
    /// not SI, or a theory with non-equational axioms, whose quotients need not be models.
    pub fn semisimple(&self, theory: &Theory) -> Option<Semisimple> {
        let equational = theory
            .axioms
            .iter()
            .all(|a| matches!(a.formula, birkhoff_engine::syntax::Formula::Eq(..)));
        let up_to = self.complete_up_to().filter(|&n| n >= 2 && equational)?;
        let sizes = &self.sizes[..up_to as usize];
        sizes
            .iter()
            .all(|r| {
                r.summary.lattice_too_large == 0
                    && r.summary.directly_indecomposable == r.summary.subdirectly_irreducible
            })
            .then(|| Semisimple {
                up_to,
                irreducible: sizes
                    .iter()
                    .flat_map(|r| &r.analysed)
                    .filter_map(|a| {
                        let i = a.anatomy.irreducibility.as_ref()?;
                        i.subdirectly_irreducible
                            .then_some((a.anatomy.size, i.simple))
                    })
                    .collect(),
            })
    }
}

/// Why a survey could not be made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The theory is not of algebras (one sort, operations only).
    #[error(transparent)]
    NotAnAlgebra(#[from] NotAnAlgebra),
    /// Counting the models of one size failed.
    #[error("at size {size}: {error}")]
    Count {
        /// The size.
        size: u32,
        /// The counting engine's error.
        error: FinderError,
    },
    /// The statements' prover failed (a countermodel the evaluator rejected).
    #[error(transparent)]
    Statements(FinderError),
}

/// Surveys `theory` within `budget` (one deadline for every size; the budget's cancel flag stops
/// it between sizes and between statements). `on_size` is called after each size.
pub fn survey(
    theory: &Theory,
    opts: &Options,
    budget: &Budget,
    mut on_size: impl FnMut(&SizeReport),
) -> Result<Survey, Error> {
    Algebra::check_signature(&theory.sig)?;
    let cancelled = || {
        budget
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    let left = router::shared_time(budget);
    let mut sizes = Vec::new();
    for size in opts.sizes.clone() {
        let (e, _) = router::enumerate_by(opts.engine, theory, &[size], &left())
            .map_err(|error| Error::Count { size, error })?;
        let analysed: Vec<Analysed> = e
            .classes
            .into_iter()
            .take(opts.sample)
            .map(|c| {
                let alg = Algebra::of(&theory.sig, &c.model).expect("checked above: an algebra");
                Analysed {
                    anatomy: anatomy::analyse(&alg, anatomy::CONGRUENCE_LIMIT),
                    model: c.model,
                    automorphisms: c.automorphisms,
                }
            })
            .collect();
        let report = SizeReport {
            size,
            models: e.iso,
            summary: SizeSummary::of(size, analysed.iter().map(|a| &a.anatomy)),
            analysed,
        };
        on_size(&report);
        sizes.push(report);
        if cancelled() {
            break;
        }
    }
    let mut survey = Survey {
        sizes,
        statements: Vec::new(),
        theorems: Vec::new(),
    };
    if let Some(statement_opts) = opts.statements.as_ref().filter(|_| !cancelled()) {
        let models: Vec<Structure> = survey
            .sizes
            .iter()
            .flat_map(|r| r.analysed.iter().map(|a| a.model.clone()))
            .collect();
        let statement_opts = structural::Options {
            // Every model of every size from 1 up: no countermodel that small exists.
            complete_up_to: survey.complete_up_to(),
            cancel: statement_opts
                .cancel
                .clone()
                .or_else(|| budget.cancel.clone()),
            ..statement_opts.clone()
        };
        survey.statements =
            structural::statements(theory, &models, &statement_opts).map_err(Error::Statements)?;
        let mut facts = structural::proved(&survey.statements);
        facts.extend(structural::axiom_facts(theory));
        survey.theorems = structural::compose(&facts, &structural::Notation::plain);
    }
    Ok(survey)
}
