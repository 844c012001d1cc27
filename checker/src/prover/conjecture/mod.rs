//! The conjecture engine: equations that hold in every small model of a theory, each then
//! proved, refuted or left open by the prover.
//!
//! 1. **Models**: one representative of every isomorphism class with each sort of 1 to
//!    `max_size` elements (the native finder; a search cut short makes the check "every model
//!    found", and says so).
//! 2. **Candidates** ([`candidates`]): terms up to `depth` with `vars_per_sort` variables per
//!    sort, grouped by their values in those models; each term equal to an earlier, smaller one
//!    gives a candidate equation.
//! 3. **Normal form**: variables renamed in order of first occurrence, the larger side on the
//!    left (equal sizes: the orientation whose text comes first), duplicates removed; `t = t`
//!    never arises, as the two sides are different terms.
//! 4. **Pruning** ([`rewrite::one_step`]): a candidate one rewrite away from an axiom or from a
//!    theorem proved earlier in this run is dropped as trivial (this includes instances of
//!    axioms); one rewrite away from an earlier open conjecture, it is dropped as implied by it.
//! 5. **Evidence**: the evaluator (`engine::eval`) confirms that each remaining candidate holds
//!    in every model, then the prover runs with a budget per conjecture: saturation, Z3 (when
//!    built in), countermodels larger than `max_size`. Proved conjectures carry their
//!    certificate (or the Z3 label), refuted ones their countermodel.
//!
//! Candidates are tried smallest first, so a general law is proved before its instances and
//! prunes them. Ctrl-C (the cancel flag) stops between conjectures; the report then lists what
//! was not tried and says it was interrupted.

pub mod candidates;

use super::certificate::{self, Certificate};
use super::lemmas::{prove_from, ProvedStatement};
use super::rewrite::{self, Equation};
use super::{prove_with, Attempt, Strategy, Verdict};
use crate::budget::Budget;
use crate::finder::FinderError;
use crate::spectrum::{size_tuple_count, SizeTuples};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::Signature;
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use birkhoff_engine::{eval, Structure, Theory};
use serde::Serialize;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the conjecture engine may spend.
#[derive(Clone, Debug)]
pub struct Options {
    /// Deepest term on either side (a variable or a constant has depth 0).
    pub depth: u32,
    /// Models are checked with each sort of 1 to this many elements.
    pub max_size: u32,
    /// Variables of each sort.
    pub vars_per_sort: usize,
    /// Time the prover may spend on each conjecture.
    pub per_conjecture: Duration,
    /// Countermodels are sought up to `max_size + beyond` elements per sort.
    pub beyond: u32,
    /// Most conjectures given to the prover; the rest are listed as not tried.
    pub max_conjectures: usize,
    /// Most terms built (see [`candidates::Limits`]).
    pub max_terms: usize,
    /// Most points a term is evaluated at (see [`candidates::Limits`]).
    pub max_points: usize,
    /// Time limit of the model search for each size.
    pub model_time: Duration,
    /// Set to true (Ctrl-C) to stop soon with a partial report.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Prove each conjecture as a mathematician proves a chain of lemmas: citing the ones proved
    /// before it ([`prove_from`]), by unfailing completion, saturation and E, without Z3 alone
    /// (whose word cannot be cited). What [`lemmas`] asks for.
    pub cite_proved: bool,
    /// No conjecture is given to the prover after this instant; the rest are not tried.
    pub deadline: Option<Instant>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            depth: 2,
            max_size: 4,
            vars_per_sort: 3,
            per_conjecture: Duration::from_secs(2),
            beyond: 2,
            max_conjectures: 100,
            max_terms: 100_000,
            max_points: 50_000,
            model_time: Duration::from_secs(30),
            cancel: None,
            cite_proved: false,
            deadline: None,
        }
    }
}

impl Options {
    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The prover's plan for one conjecture. When every model up to `max_size` was checked, no
    /// countermodel that small exists, so the countermodel search starts above it.
    fn plan(&self, models_complete: bool) -> Vec<Strategy> {
        let mut plan = if self.cite_proved {
            // Completion before saturation, and E beside them in a lane of its own (each of
            // its steps transcribed as a certificate, or the answer is Z3's and not cited).
            vec![
                Strategy::Completion { time_share: 50 },
                Strategy::Saturation { time_share: 100 },
                #[cfg(feature = "z3")]
                Strategy::E { time_share: 100 },
            ]
        } else {
            vec![
                Strategy::Saturation { time_share: 50 },
                #[cfg(feature = "z3")]
                Strategy::Z3 { time_share: 50 },
            ]
        };
        let min_size = if models_complete {
            self.max_size + 1
        } else {
            1
        };
        plan.push(Strategy::Countermodel {
            min_size,
            max_size: self.max_size + self.beyond,
            time_share: 100,
        });
        plan
    }
}

/// Where the engine is, for a progress display.
pub enum Progress<'a> {
    /// A stage begins with this many steps (0: unknown).
    Stage {
        /// The stage's name.
        name: &'a str,
        /// Its number of steps, if known.
        steps: u64,
    },
    /// One step of the current stage is done.
    Step,
}

/// The models the candidates were checked against.
#[derive(Clone, Debug, Serialize)]
pub struct ModelCheck {
    /// The size tuples searched to the end.
    pub sizes: Vec<Vec<u32>>,
    /// Isomorphism classes found (all of them when `complete`).
    pub classes: usize,
    /// Whether every size up to `max_size` was searched to the end.
    pub complete: bool,
    /// Why not, when not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What became of a conjecture in this engine: the prover's answer ([`Verdict`], in its words:
/// proved, proved by Z3, disproved) or, short of one, open (what was tried) or not tried. The
/// `--json` words are `proved`, `proved_by_z3`, `refuted`, `open` and `not_tried`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Proved by a certificate that the independent checker replayed.
    Proved {
        /// The certificate.
        certificate: Certificate,
    },
    /// Z3 found the axioms and the negated conjecture unsatisfiable: weaker evidence.
    ProvedByZ3 {
        /// What Z3 reported.
        detail: String,
    },
    /// A model of the theory, larger than the ones checked, in which the conjecture fails
    /// (`refuted` in `--json`).
    #[serde(rename = "refuted")]
    Disproved {
        /// The countermodel (checked by the evaluator).
        model: Structure,
        /// Values of the variables at which it fails.
        witness: Vec<(String, u32)>,
    },
    /// The prover decided nothing within the budget.
    Open {
        /// What it tried.
        tried: Vec<Attempt>,
    },
    /// Not given to the prover (the limit on conjectures, or Ctrl-C).
    NotTried,
}

impl Status {
    /// What the prover's `answer` makes of a conjecture: "not tried" when it was `cancelled`
    /// without deciding.
    pub fn of(answer: super::Answer, cancelled: bool) -> Status {
        match answer.verdict {
            Verdict::Proved { certificate } => Status::Proved { certificate },
            Verdict::ProvedByZ3 { detail } => Status::ProvedByZ3 { detail },
            Verdict::Disproved { model, witness } => Status::Disproved { model, witness },
            Verdict::Unknown if cancelled => Status::NotTried,
            Verdict::Unknown => Status::Open {
                tried: answer.attempts,
            },
        }
    }

    /// The prover's answer this status came from ([`Status::of`] read back), for storing it
    /// (`birkhoff_library::settle`); `None` when it was not tried.
    pub fn answer(&self) -> Option<super::Answer> {
        let verdict = match self {
            Status::Proved { certificate } => Verdict::Proved {
                certificate: certificate.clone(),
            },
            Status::ProvedByZ3 { detail } => Verdict::ProvedByZ3 {
                detail: detail.clone(),
            },
            Status::Disproved { model, witness } => Verdict::Disproved {
                model: model.clone(),
                witness: witness.clone(),
            },
            Status::Open { .. } => Verdict::Unknown,
            Status::NotTried => return None,
        };
        let attempts = match self {
            Status::Open { tried } => tried.clone(),
            _ => Vec::new(),
        };
        Some(super::Answer {
            verdict,
            attempts,
            unknown_because: None,
        })
    }

    /// The evidence, in a few words.
    pub fn evidence(&self) -> String {
        match self {
            Status::Proved { certificate } => format!(
                "certificate of {} steps, replayed",
                certificate.total_steps()
            ),
            Status::ProvedByZ3 { .. } => {
                "Z3 unsat (trusts the solver; weaker than a certificate)".into()
            }
            Status::Disproved { model, .. } => format!("countermodel of size {:?}", model.sizes),
            Status::Open { .. } => "none within the budget".into(),
            Status::NotTried => "not tried".into(),
        }
    }

    /// A short name: proved, proved (Z3), refuted, open, not tried.
    pub fn name(&self) -> &'static str {
        match self {
            Status::Proved { .. } => "proved",
            Status::ProvedByZ3 { .. } => "proved (Z3)",
            Status::Disproved { .. } => "refuted",
            Status::Open { .. } => "open",
            Status::NotTried => "not tried",
        }
    }
}

/// One conjecture: an equation true in every model checked, and what the prover made of it.
#[derive(Clone, Debug, Serialize)]
pub struct Conjecture {
    /// The equation as text.
    pub equation: String,
    /// Its left side (the larger).
    pub lhs: Term,
    /// Its right side.
    pub rhs: Term,
    /// Its variables (all universal).
    pub vars: Vec<VarDecl>,
    /// Symbols and variables on both sides.
    pub size: usize,
    /// The outcome.
    #[serde(flatten)]
    pub status: Status,
    /// Time the prover took.
    pub seconds: f64,
}

impl Conjecture {
    /// The conjecture as an axiom (its variables universal), for the prover and the evaluator.
    pub fn axiom(&self, name: &str) -> Axiom {
        Axiom {
            name: name.into(),
            formula: Formula::Eq(self.lhs.clone(), self.rhs.clone()),
            vars: self.vars.clone(),
            origin: None,
        }
    }
}

/// How many conjectures ended each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Proved with a replayed certificate.
    pub proved: usize,
    /// Proved by Z3.
    pub proved_by_z3: usize,
    /// Refuted by a countermodel.
    pub refuted: usize,
    /// Open.
    pub open: usize,
    /// Not tried.
    pub not_tried: usize,
}

/// The conjecture engine's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The theory's name.
    pub theory: String,
    /// The term depth.
    pub depth: u32,
    /// The largest model size checked.
    pub max_size: u32,
    /// The models checked.
    pub models: ModelCheck,
    /// Terms built.
    pub terms: usize,
    /// Distinct term values (classes).
    pub classes: usize,
    /// Whether every term up to the depth was built.
    pub terms_complete: bool,
    /// Distinct candidate equations (up to renaming and symmetry).
    pub candidates: usize,
    /// Candidates dropped as one rewrite away from an axiom or an earlier theorem.
    pub trivial: usize,
    /// Candidates dropped as one rewrite away from an earlier open conjecture.
    pub implied_by_open: usize,
    /// Conjectures refuted by a countermodel already found for an earlier one (no prover run).
    pub refuted_by_earlier: usize,
    /// The conjectures kept, smallest first.
    pub conjectures: Vec<Conjecture>,
    /// How many ended each way.
    pub counts: Counts,
    /// Whether Ctrl-C cut the run short.
    pub interrupted: bool,
}

/// Every isomorphism class with each sort of 1 to `max_size` elements.
fn models(
    theory: &Theory,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<(Vec<Structure>, ModelCheck), FinderError> {
    let tuples = SizeTuples::between(theory.sig.sorts.len(), 1, opts.max_size);
    progress(Progress::Stage {
        name: "models",
        steps: size_tuple_count(theory.sig.sorts.len(), 1, opts.max_size).min(u64::MAX as u128)
            as u64,
    });
    let budget = Budget {
        time: Some(opts.model_time),
        cancel: opts.cancel.clone(),
        ..Budget::default()
    };
    let mut out = Vec::new();
    let mut check = ModelCheck {
        sizes: Vec::new(),
        classes: 0,
        complete: true,
        note: None,
    };
    for sizes in tuples {
        let e = match crate::router::enumerate(crate::router::Engine::Auto, theory, &sizes, &budget)
        {
            Ok(e) => e,
            Err(e @ (FinderError::Problem(_) | FinderError::Encoding(_))) => {
                check.note = Some(format!("no engine can search sizes {sizes:?}: {e}"));
                check.complete = false;
                break;
            }
            Err(e) => return Err(e),
        };
        out.extend(e.classes.into_iter().map(|c| c.model));
        progress(Progress::Step);
        if e.iso.status != crate::budget::Status::Exact {
            check.note = Some(format!("the search at sizes {sizes:?} was cut short"));
            check.complete = false;
            break;
        }
        check.sizes.push(sizes);
    }
    check.classes = out.len();
    Ok((out, check))
}

fn term_size(t: &Term) -> usize {
    match t {
        Term::Var(_) => 1,
        Term::App(_, args) => 1 + args.iter().map(term_size).sum::<usize>(),
    }
}

/// `(l, r)` with variables renamed in order of first occurrence, and their declarations.
fn renamed(sig: &Signature, vars: &[VarDecl], l: &Term, r: &Term) -> (Term, Term, Vec<VarDecl>) {
    let mut order: Vec<VarId> = Vec::new();
    for t in [l, r] {
        t.for_each_var(&mut |v| {
            if !order.contains(&v) {
                order.push(v);
            }
        });
    }
    let decls: Vec<VarDecl> = order
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let sort = vars[v.0 as usize].sort;
            let nth = order[..i]
                .iter()
                .filter(|w| vars[w.0 as usize].sort == sort)
                .count();
            VarDecl {
                name: candidates::var_name(sig, sort, nth),
                sort,
            }
        })
        .collect();
    let value = |v: VarId| {
        order
            .iter()
            .position(|&w| w == v)
            .map(|i| Term::Var(VarId(i as u32)))
    };
    let sub = |t: &Term| certificate::substitute(t, &value).expect("every variable was numbered");
    (sub(l), sub(r), decls)
}

/// The normal form of a candidate: renamed, the larger side left; for equal sizes, the
/// orientation whose text comes first.
fn normal_form(sig: &Signature, vars: &[VarDecl], l: &Term, r: &Term) -> Conjecture {
    let make = |l: &Term, r: &Term| {
        let (lhs, rhs, vars) = renamed(sig, vars, l, r);
        let mut c = Conjecture {
            equation: String::new(),
            size: term_size(&lhs) + term_size(&rhs),
            lhs,
            rhs,
            vars,
            status: Status::NotTried,
            seconds: 0.0,
        };
        let a = c.axiom("");
        c.equation = FormulaPrinter::new(sig, &a).formula(&a.formula);
        c
    };
    let (a, b) = (make(l, r), make(r, l));
    match term_size(l).cmp(&term_size(r)) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal if b.equation < a.equation => b,
        std::cmp::Ordering::Equal => a,
    }
}

/// Runs the conjecture engine on `theory`. `Err` only for internal errors (a model or a
/// candidate that the evaluator contradicts) and theories the finder cannot take at all.
pub fn conjecture(
    theory: &Theory,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Report, FinderError> {
    let (models, model_check) = models(theory, opts, progress)?;
    conjecture_with_models(theory, models, model_check, opts, progress)
}

/// Points (assignments of the variables) one model gives a fingerprint.
fn points(m: &Structure, vars_per_sort: usize) -> usize {
    m.sizes
        .iter()
        .map(|&n| (n as usize).saturating_pow(vars_per_sort as u32))
        .fold(1, usize::saturating_mul)
}

/// [`conjecture`] on models already found (every isomorphism class of the sizes in `check`,
/// when it says complete), as the scorer has them. When the models give more than
/// `opts.max_points` points, the largest sizes are left out, and the check says so.
pub fn conjecture_with_models(
    theory: &Theory,
    mut models: Vec<Structure>,
    mut model_check: ModelCheck,
    opts: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Report, FinderError> {
    let sig = &theory.sig;
    models.sort_by_key(|m| (m.sizes.iter().sum::<u32>(), m.sizes.clone()));
    while models
        .iter()
        .map(|m| points(m, opts.vars_per_sort))
        .fold(0, usize::saturating_add)
        > opts.max_points
    {
        let largest = models.last().map(|m| m.sizes.clone()).unwrap_or_default();
        models.retain(|m| m.sizes != largest);
        model_check.sizes.retain(|s| *s != largest);
        model_check.complete = false;
        model_check.note = Some(format!("models of sizes {largest:?} and up were left out: too many points to evaluate terms at"));
    }
    model_check.classes = models.len();
    progress(Progress::Stage {
        name: "terms",
        steps: 0,
    });
    let limits = candidates::Limits {
        depth: opts.depth,
        vars_per_sort: opts.vars_per_sort,
        max_terms: opts.max_terms,
        max_points: opts.max_points,
    };
    let found = candidates::find(sig, &models, &limits, &|| opts.cancelled())
        .map_err(FinderError::Encoding)?;
    let mut seen = HashSet::new();
    let mut todo: Vec<Conjecture> = found
        .equations
        .iter()
        .map(|(l, r)| normal_form(sig, &found.vars, l, r))
        .filter(|c| seen.insert((c.lhs.clone(), c.rhs.clone())))
        .collect();
    todo.sort_by(|a, b| (a.size, &a.equation).cmp(&(b.size, &b.equation)));
    let mut report = Report {
        theory: theory.name.clone(),
        depth: opts.depth,
        max_size: opts.max_size,
        models: model_check,
        terms: found.terms,
        classes: found.classes,
        terms_complete: found.complete,
        candidates: todo.len(),
        trivial: 0,
        implied_by_open: 0,
        refuted_by_earlier: 0,
        conjectures: Vec::new(),
        counts: Counts::default(),
        interrupted: false,
    };
    let axioms: Vec<(Term, Term, Vec<VarDecl>)> = theory
        .axioms
        .iter()
        .flat_map(|a| {
            certificate::equations(a)
                .into_iter()
                .map(|(l, r)| (l.clone(), r.clone(), a.vars.clone()))
        })
        .collect();
    let plan = opts.plan(report.models.complete);
    let prover = super::Options {
        timeout: opts.per_conjecture,
        cancel: opts.cancel.clone(),
        ..super::Options::default()
    };
    progress(Progress::Stage {
        name: "proving",
        steps: todo.len() as u64,
    });
    let mut tried = 0;
    // Countermodels found so far: one refutes many conjectures (`conjecture group --depth 2` met
    // 26 refutations with 3 distinct countermodels, each found again at 1.5 s), so they are tried
    // first, by the evaluator, before the prover runs.
    let mut countermodels: Vec<Structure> = Vec::new();
    for mut c in todo {
        progress(Progress::Step);
        if one_rewrite_from(sig, &c, &axioms, &report.conjectures, |s| {
            matches!(s, Status::Proved { .. } | Status::ProvedByZ3 { .. })
        }) {
            report.trivial += 1;
            continue;
        }
        if one_rewrite_from(sig, &c, &[], &report.conjectures, |s| {
            matches!(s, Status::Open { .. })
        }) {
            report.implied_by_open += 1;
            continue;
        }
        let goal = c.axiom("conjecture");
        if let Some(m) = models.iter().find(|m| !eval::holds(sig, m, &goal)) {
            return Err(FinderError::Unsound { violation: format!("nothing: the conjecture engine's fingerprints say `{}` holds, but the evaluator finds it false", c.equation), model: m.to_json(sig).to_string() });
        }
        if opts.cancelled() {
            report.interrupted = true;
        }
        let known = countermodels
            .iter()
            .find_map(|m| eval::falsify(sig, m, &goal).map(|witness| (m.clone(), witness)));
        if let Some((model, witness)) = known {
            report.refuted_by_earlier += 1;
            c.status = Status::Disproved { model, witness };
        } else if !report.interrupted && tried < opts.max_conjectures && !opts.past_deadline() {
            tried += 1;
            let t0 = Instant::now();
            let prover = super::Options {
                timeout: opts.deadline.map_or(prover.timeout, |d| {
                    prover.timeout.min(d.saturating_duration_since(t0))
                }),
                ..prover.clone()
            };
            let answer = if opts.cite_proved {
                prove_from(theory, &goal, &proved(&report.conjectures), &prover, &plan)?
            } else {
                prove_with(theory, &goal, &prover, &plan)?
            };
            c.seconds = t0.elapsed().as_secs_f64();
            c.status = Status::of(answer, opts.cancelled());
            if let Status::Disproved { model, .. } = &c.status {
                countermodels.push(model.clone());
            }
        }
        report.conjectures.push(c);
    }
    report.interrupted |= opts.cancelled();
    report.counts = counts(&report.conjectures);
    Ok(report)
}

/// The conjectures of `kept` proved with a certificate, as statements a later proof may cite.
fn proved(kept: &[Conjecture]) -> Vec<ProvedStatement> {
    kept.iter()
        .filter_map(|c| match &c.status {
            Status::Proved { certificate } => Some(ProvedStatement {
                statement: c.equation.clone(),
                certificate: certificate.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// Lemmas for proofs about `theory`, as a mathematician first works out the small laws of a
/// presentation: the equations of depth at most 2 in two variables that hold in its models of
/// up to four elements, smallest first, each proved citing those before it, all within `time`
/// (models included). The proved ones, with their certificates; an empty list when none is.
///
/// Huntington's distributivity, x ∧ (y ∨ z) = (x ∧ y) ∨ (x ∧ z) read through
/// x ∧ y = n(n(x) ∨ n(y)), took the prover 8.9 s from his three axioms and 0.8 s once
/// n(n(x)) = x, x ∨ x = x and x ∨ n(x) = y ∨ n(y) were axioms (a development build, one run
/// each); this finds and proves those three.
pub fn lemmas(
    theory: &Theory,
    time: Duration,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<Vec<ProvedStatement>, FinderError> {
    let started = Instant::now();
    let opts = Options {
        depth: 2,
        max_size: LEMMA_MODEL_SIZE,
        vars_per_sort: 2,
        per_conjecture: time / LEMMA_SHARE,
        beyond: 1,
        max_terms: 20_000,
        model_time: time / 4,
        cancel,
        cite_proved: true,
        deadline: Some(started + time),
        ..Options::default()
    };
    let report = conjecture(theory, &opts, &mut |_| {})?;
    Ok(proved(&report.conjectures))
}

/// The largest models [`lemmas`] reads its equations from.
const LEMMA_MODEL_SIZE: u32 = 4;

/// The most of [`lemmas`]'s time that one conjecture may take, as a fraction (one in this many):
/// most small laws are proved in a fraction of that, and a false one is refuted by a model
/// just above the ones read.
const LEMMA_SHARE: u32 = 4;

/// Whether `c` is one rewrite away from one of `axioms` or from a conjecture of `kept` whose
/// status passes `accept`.
fn one_rewrite_from(
    sig: &Signature,
    c: &Conjecture,
    axioms: &[(Term, Term, Vec<VarDecl>)],
    kept: &[Conjecture],
    accept: fn(&Status) -> bool,
) -> bool {
    let from_axioms = axioms
        .iter()
        .map(|(lhs, rhs, vars)| Equation { lhs, rhs, vars });
    let from_kept = kept.iter().filter(|k| accept(&k.status)).map(|k| Equation {
        lhs: &k.lhs,
        rhs: &k.rhs,
        vars: &k.vars,
    });
    rewrite::one_step(
        sig,
        &c.vars,
        &c.lhs,
        &c.rhs,
        &from_axioms.chain(from_kept).collect::<Vec<_>>(),
    )
}

fn counts(cs: &[Conjecture]) -> Counts {
    let mut n = Counts::default();
    for c in cs {
        match c.status {
            Status::Proved { .. } => n.proved += 1,
            Status::ProvedByZ3 { .. } => n.proved_by_z3 += 1,
            Status::Disproved { .. } => n.refuted += 1,
            Status::Open { .. } => n.open += 1,
            Status::NotTried => n.not_tried += 1,
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::Status;
    use birkhoff_engine::Structure;

    #[test]
    fn a_disproved_conjecture_keeps_its_json_word() {
        let group = birkhoff_engine::seeds::load("group").unwrap();
        let model = Structure::from_fn(&group.sig, &[1], |_, _| 0, |_, _| false);
        let status = Status::Disproved {
            model,
            witness: vec![],
        };
        assert_eq!(serde_json::to_value(&status).unwrap()["status"], "refuted");
    }
}
