//! Proving a goal from statements proved before, as a mathematician cites a lemma, with a
//! certificate that still replays from the axioms alone.
//!
//! The goal is given to the prover with each earlier statement added as an axiom. A certificate
//! found that way keeps the statements it uses as citations ([`Cited`]), each with its own
//! certificate; the checker replays those first and then lets the steps use the statements as
//! axioms ([`certificate::check`]). If the whole does not replay, the goal stays unproved.
//!
//! This is how rings with x³ = x get the second half of their splitting: 3(−2x) + y = y is
//! beyond the prover within seconds, but follows in under one from y + −(3x + 3x) = y, proved
//! just before it.

use super::certificate::{self, Certificate, Cited};
use super::{prove_with, Answer, Options, Strategy, Verdict};
use crate::finder::FinderError;
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::Theory;
use std::time::Instant;

/// A statement proved before, with the certificate that proves it from the theory's axioms.
#[derive(Clone, Debug)]
pub struct ProvedStatement {
    /// The statement as the theory language writes it (it parses to what was proved).
    pub statement: String,
    /// Its replayed certificate.
    pub certificate: Certificate,
}

/// [`prove_with`] on `goal`, then, if that gives no certificate, [`prove_from`] the `earlier`
/// statements, each run with half of `opts.timeout` (extra axioms change the search: a goal the
/// axioms alone give quickly may be lost with them). A proof comes with a certificate that
/// replays from `theory`'s axioms, the statements it cites included, checked before the
/// deadline; a countermodel (a model of more axioms) is one of `theory` too.
pub fn prove_citing(
    theory: &Theory,
    goal: &Axiom,
    earlier: &[ProvedStatement],
    opts: &Options,
    plan: &[Strategy],
) -> Result<Answer, FinderError> {
    if earlier.is_empty() {
        return prove_with(theory, goal, opts, plan);
    }
    let half = Options {
        timeout: opts.timeout / 2,
        ..opts.clone()
    };
    let alone = prove_with(theory, goal, &half, plan)?;
    // Z3's word is weaker than a certificate: citing may still give one.
    if !matches!(alone.verdict, Verdict::Unknown | Verdict::ProvedByZ3 { .. }) {
        return Ok(alone);
    }
    let answer = prove_from(theory, goal, earlier, &half, plan)?;
    Ok(match answer.verdict {
        Verdict::Unknown => alone,
        _ => answer,
    })
}

/// [`prove_with`] on `goal` with the `earlier` statements as axioms, within `opts.timeout`: a
/// proof keeps the statements it uses as citations, each with its certificate, and is returned
/// only if the whole replays from `theory`'s axioms before the deadline (otherwise the answer is
/// unknown, as when a cited statement does not read over `theory`'s signature); a countermodel is
/// a model of `theory` too.
pub fn prove_from(
    theory: &Theory,
    goal: &Axiom,
    earlier: &[ProvedStatement],
    opts: &Options,
    plan: &[Strategy],
) -> Result<Answer, FinderError> {
    let deadline = Instant::now() + opts.timeout;
    let cited: Vec<Cited> = earlier
        .iter()
        .enumerate()
        .map(|(i, p)| Cited {
            name: format!("proved statement {}", i + 1),
            statement: p.statement.clone(),
            certificate: p.certificate.clone(),
        })
        .collect();
    // The statements as the checker reads them.
    let named = cited.iter().map(|c| (&*c.name, &*c.statement));
    let extended = match certificate::with_citations(theory, named) {
        Ok(extended) => extended,
        Err(e) => {
            return Ok(Answer {
                verdict: Verdict::Unknown,
                attempts: Vec::new(),
                unknown_because: Some(format!("the cited statements do not read: {}", e.0)),
            })
        }
    };
    let mut answer = prove_with(&extended, goal, opts, plan)?;
    if let Verdict::Proved { certificate } = &answer.verdict {
        let certificate = Certificate {
            cited: used(certificate, cited),
            ..certificate.clone()
        }
        .flattened();
        let replayed =
            certificate::check_before(theory, goal, &certificate, Some(deadline)) == Ok(true);
        answer.verdict = if replayed {
            Verdict::Proved { certificate }
        } else {
            // Never claimed on a certificate that does not replay in time.
            Verdict::Unknown
        };
    }
    Ok(answer)
}

/// The citations `cert`'s steps use, in their order (a later statement may not be needed).
fn used(cert: &Certificate, cited: Vec<Cited>) -> Vec<Cited> {
    cited
        .into_iter()
        .filter(|c| certificate::cites(cert, &c.name))
        .collect()
}
