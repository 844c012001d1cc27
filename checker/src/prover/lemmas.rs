//! Proving a goal from statements proved before, as a mathematician cites a lemma, with a
//! certificate that still replays from the axioms alone.
//!
//! The goal is given to the prover with each earlier statement added as an axiom. A certificate
//! found that way cites them as axioms; each such step is rewritten to cite a lemma of the
//! certificate instead, proved by the earlier statement's own certificate with its goal
//! constants replaced by the step's instance (replacing equals by equals is sound in any
//! context, so an instance of a proof is a proof of the instance). The rewritten certificate is
//! checked against the theory alone ([`certificate::check`]); if it does not replay, the goal
//! stays unproved.
//!
//! This is how rings with x³ = x get the second half of their splitting: 3(−2x) + y = y is
//! beyond the prover within seconds, but follows in under one from y + −(3x + 3x) = y, proved
//! just before it.

use super::certificate::{self, Certificate, Justification, Lemma, Step};
use super::saturation::print;
use super::{prove_with, Answer, Options, Strategy, Verdict, PROOF_STEPS};
use crate::finder::FinderError;
use birkhoff_engine::signature::{FuncId, Signature};
use birkhoff_engine::syntax::{Axiom, Term};
use birkhoff_engine::Theory;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// The longest proof (in rewrite steps, lemmas included) that is cited: each instance a
/// certificate uses is a copy of it, and a certificate holds at most [`PROOF_STEPS`].
const CITED_STEPS: usize = 5_000;

/// A statement proved before, with the certificate that proves it from the theory's axioms.
#[derive(Clone, Debug)]
pub struct ProvedStatement {
    /// The statement, as it was given to the prover.
    pub axiom: Axiom,
    /// Its replayed certificate.
    pub certificate: Certificate,
}

/// [`prove_with`] on `goal`, then, if that gives no certificate, again with the `earlier` statements
/// as lemmas, each run with half of `opts.timeout` (extra axioms change the search: a goal the
/// axioms alone give quickly may be lost with them). A proof comes with a certificate over
/// `theory`'s axioms alone, checked; a countermodel (a model of more axioms) is one of `theory`
/// too.
pub fn prove_citing(
    theory: &Theory,
    goal: &Axiom,
    earlier: &[ProvedStatement],
    opts: &Options,
    plan: &[Strategy],
) -> Result<Answer, FinderError> {
    // Each citation becomes a copy of the cited proof: only short ones are cited.
    let earlier: Vec<&ProvedStatement> = earlier
        .iter()
        .filter(|p| p.certificate.total_steps() <= CITED_STEPS)
        .collect();
    if earlier.is_empty() {
        return prove_with(theory, goal, opts, plan);
    }
    let half = Options {
        timeout: opts.timeout / 2,
        ..opts.clone()
    };
    let deadline = Instant::now() + opts.timeout;
    let alone = prove_with(theory, goal, &half, plan)?;
    // Z3's word is weaker than a certificate: citing may still give one.
    if !matches!(alone.verdict, Verdict::Unknown | Verdict::ProvedByZ3 { .. }) {
        return Ok(alone);
    }
    let opts = &half;
    let names: Vec<String> = (0..earlier.len())
        .map(|i| format!("proved statement {}", i + 1))
        .collect();
    let mut extended = theory.clone();
    extended
        .axioms
        .extend(earlier.iter().zip(&names).map(|(p, name)| {
            Arc::new(Axiom {
                name: name.clone(),
                ..p.axiom.clone()
            })
        }));
    let mut answer = prove_with(&extended, goal, opts, plan)?;
    if let Verdict::Proved { certificate } = &answer.verdict {
        let cited: HashMap<&str, &ProvedStatement> = names
            .iter()
            .map(String::as_str)
            .zip(earlier.iter().copied())
            .collect();
        let replayed = |c: &Certificate| {
            certificate::check_before(theory, goal, c, Some(deadline)) == Ok(true)
        };
        answer.verdict = match inline(theory, certificate, &cited, deadline) {
            Some(c) if replayed(&c) => Verdict::Proved { certificate: c },
            // Never claimed on a certificate that does not replay from the axioms in time.
            _ => Verdict::Unknown,
        };
        if matches!(answer.verdict, Verdict::Unknown) {
            answer.unknown_because =
                Some("a proof citing earlier statements did not replay from the axioms".into());
        }
    }
    Ok(match answer.verdict {
        Verdict::Unknown => alone,
        _ => answer,
    })
}

/// `cert` with every step that cites one of `cited` (by axiom name) turned into a step by a
/// certificate lemma: that statement's certificate at the step's instance, once for each
/// instance. `None` if a step's instance is not one the statement's certificate proves, or if
/// the certificate would exceed [`PROOF_STEPS`] (each instance is a copy of a proof), or
/// `deadline` passes.
fn inline(
    theory: &Theory,
    cert: &Certificate,
    cited: &HashMap<&str, &ProvedStatement>,
    deadline: Instant,
) -> Option<Certificate> {
    let n = theory.sig.funcs.len() as u32;
    let sig = certificate::extended_signature(&theory.sig, &cert.constants).ok()?;
    let mut lemmas: Vec<Lemma> = Vec::new();
    // Where each of `cert`'s own lemmas went.
    let mut moved: Vec<usize> = Vec::new();
    // The lemma proving each instance already inlined, by statement and values.
    let mut instances: HashMap<(String, Vec<Term>), usize> = HashMap::new();
    let mut total = cert.total_steps();
    let mut chain =
        |steps: &[Step], lemmas: &mut Vec<Lemma>, moved: &[usize]| -> Option<Vec<Step>> {
            steps
                .iter()
                .map(|step| {
                    let by = match &step.by {
                        Justification::Lemma { lemma } => Justification::Lemma {
                            lemma: *moved.get(*lemma)?,
                        },
                        Justification::Axiom {
                            axiom,
                            substitution,
                            ..
                        } => match cited.get(axiom.as_str()) {
                            None => step.by.clone(),
                            Some(p) => {
                                let value: HashMap<&str, &Term> = substitution
                                    .iter()
                                    .map(|b| (b.var.as_str(), &b.term))
                                    .collect();
                                let at: Vec<Term> = p
                                    .certificate
                                    .constants
                                    .iter()
                                    .map(|c| value.get(c.name.as_str()).map(|t| (*t).clone()))
                                    .collect::<Option<_>>()?;
                                let lemma = match instances.entry((axiom.clone(), at)) {
                                    Entry::Occupied(e) => *e.get(),
                                    Entry::Vacant(e) => {
                                        total += p.certificate.total_steps();
                                        if total > PROOF_STEPS || Instant::now() > deadline {
                                            return None;
                                        }
                                        let at = &e.key().1;
                                        let lemma = instance(&sig, &p.certificate, n, at, lemmas);
                                        *e.insert(lemma)
                                    }
                                };
                                Justification::Lemma { lemma }
                            }
                        },
                    };
                    Some(Step { by, ..step.clone() })
                })
                .collect()
        };
    for l in &cert.lemmas {
        let steps = chain(&l.steps, &mut lemmas, &moved)?;
        moved.push(lemmas.len());
        lemmas.push(Lemma { steps, ..l.clone() });
    }
    let steps = chain(&cert.steps, &mut lemmas, &moved)?;
    Some(Certificate {
        lemmas,
        steps,
        ..cert.clone()
    })
}

/// Appends to `lemmas` the lemmas of `proof` and its goal, with goal constant i (`FuncId(n + i)`)
/// replaced by `at[i]`, their text printed over `sig`; returns the index of the goal's lemma.
fn instance(
    sig: &Signature,
    proof: &Certificate,
    n: u32,
    at: &[Term],
    lemmas: &mut Vec<Lemma>,
) -> usize {
    let offset = lemmas.len();
    let put = |t: &Term| put_values(t, n, at);
    let equation = |l: &Term, r: &Term| format!("{} = {}", print(sig, l), print(sig, r));
    let steps = |steps: &[Step]| -> Vec<Step> {
        steps
            .iter()
            .map(|s| Step {
                by: match &s.by {
                    Justification::Lemma { lemma } => Justification::Lemma {
                        lemma: lemma + offset,
                    },
                    Justification::Axiom {
                        axiom,
                        part,
                        substitution,
                    } => Justification::Axiom {
                        axiom: axiom.clone(),
                        part: *part,
                        substitution: substitution
                            .iter()
                            .map(|b| certificate::Binding {
                                var: b.var.clone(),
                                term: put(&b.term),
                            })
                            .collect(),
                    },
                },
                direction: s.direction,
                position: s.position.clone(),
                text: print(sig, &put(&s.result)),
                result: put(&s.result),
            })
            .collect()
    };
    for l in &proof.lemmas {
        let (lhs, rhs) = (put(&l.lhs), put(&l.rhs));
        lemmas.push(Lemma {
            text: equation(&lhs, &rhs),
            lhs,
            rhs,
            steps: steps(&l.steps),
        });
    }
    let (lhs, rhs) = (put(&proof.lhs), put(&proof.rhs));
    lemmas.push(Lemma {
        text: equation(&lhs, &rhs),
        lhs,
        rhs,
        steps: steps(&proof.steps),
    });
    lemmas.len() - 1
}

/// `t` with each goal constant `FuncId(n + i)` replaced by `at[i]` (all at once: the values may
/// hold other goal constants of their own).
fn put_values(t: &Term, n: u32, at: &[Term]) -> Term {
    match t {
        Term::App(FuncId(f), args) if args.is_empty() && *f >= n => at
            .get((f - n) as usize)
            .cloned()
            .unwrap_or_else(|| t.clone()),
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| put_values(a, n, at)).collect()),
        Term::Var(_) => t.clone(),
    }
}
