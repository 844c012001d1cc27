//! `birkhoff prove`: does a theory imply a formula? Exactly one of: disproved (a countermodel the
//! evaluator confirms), proved (a certificate replayed by an independent checker), proved (Z3)
//! (Z3 found axioms ∧ ¬goal unsatisfiable: weaker evidence, it trusts the solver) or unknown
//! (with what was tried). Exit codes: 0 proved or disproved (a decided answer), 1 unknown,
//! 2 error, 130 interrupted.

use crate::output::print_json;
use crate::Outcome;
use birkhoff_checker::prover::certificate::{Certificate, Direction, Justification, Step};
use birkhoff_checker::prover::{prove, Options, Verdict};
use birkhoff_checker::sweep::write_atomic;
use birkhoff_engine::{parse::parse_formula, tables};
use std::path::PathBuf;
use std::time::Duration;

/// Proofs with more steps are summarised in text output; people do not read thousands of lines.
const LISTED_STEPS: usize = 100;

/// Arguments of `birkhoff prove`.
#[derive(clap::Args)]
#[command(after_help = "Exit codes: 0 proved or disproved, 1 unknown, 2 error, 130 interrupted.")]
pub struct Args {
    /// A seed name or a theory file.
    #[arg(value_name = "THEORY")]
    theory: String,
    /// The goal in the theory's signature, such as "x * y = y * x" (free variables are universal).
    #[arg(value_name = "GOAL")]
    goal: String,
    /// Largest countermodel size searched (per sort).
    #[arg(long, value_name = "N", default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_size: u32,
    /// Time for the whole attempt, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = super::parse_seconds)]
    timeout: Duration,
    /// Write the certificate of a proof to this file (JSON, written atomically).
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = super::load_theory(&a.theory)?;
    let goal = parse_formula(&t.sig, &a.goal, "GOAL")?;
    let opts = Options { max_size: a.max_size, timeout: a.timeout, cancel: Some(crate::interrupt::flag()), ..Options::default() };
    let answer = prove(&t, &goal, &opts)?;
    if let (Some(path), Verdict::Proved { certificate }) = (&a.certificate, &answer.verdict) {
        write_atomic(path, serde_json::to_string_pretty(certificate)?.as_bytes()).map_err(|e| anyhow::anyhow!("--certificate {}: {e}", path.display()))?;
    }
    if json {
        let mut v = serde_json::to_value(&answer)?;
        if let Verdict::Disproved { model, .. } = &answer.verdict {
            v["model"] = model.to_json(&t.sig);
        }
        v["evidence"] = answer.verdict.evidence().into();
        v["theory"] = t.name.clone().into();
        v["goal"] = a.goal.clone().into();
        print_json(&v);
    } else {
        match &answer.verdict {
            Verdict::Disproved { model, witness } => {
                let w: Vec<String> = witness.iter().map(|(x, n)| format!("{x} = {n}")).collect();
                println!("disproved: a model of {} of size {:?} where the goal fails at {}", t.name, model.sizes, w.join(", "));
                print!("{}", tables::cayley(&t.sig, model));
            }
            Verdict::Proved { certificate } => print_proof(certificate),
            Verdict::ProvedByZ3 { detail } => println!("proved (Z3): {detail}\n  evidence: {}", answer.verdict.evidence()),
            Verdict::Unknown => {
                println!("unknown");
                for at in &answer.attempts {
                    println!("  tried {:?}: {} ({:.2}s)", at.strategy, at.result, at.seconds);
                }
            }
        }
    }
    Ok(match answer.verdict {
        Verdict::Unknown if crate::interrupt::requested() => Outcome::Interrupted,
        Verdict::Unknown => Outcome::Negative,
        _ => Outcome::Done,
    })
}

/// The proof in text: a summary line, then (when short enough) every lemma and step.
fn print_proof(certificate: &Certificate) {
    let lemmas = match certificate.lemmas.len() {
        0 => String::new(),
        n => format!(" ({n} lemmas, each proved once and used as one step)"),
    };
    println!("proved: {} rewrite steps{lemmas}, each replayed by the certificate checker", certificate.total_steps());
    if certificate.total_steps() > LISTED_STEPS {
        println!("  (too many to list here: --certificate FILE or --json has every step)");
        return;
    }
    for (i, l) in certificate.lemmas.iter().enumerate() {
        println!("  lemma {i}: {}", l.text);
        print_steps(&l.steps, "    ");
    }
    if !certificate.lemmas.is_empty() {
        println!("  the goal:");
    }
    print_steps(&certificate.steps, "  ");
}

/// One line per step: what it uses, which way, where, and the term it gives.
fn print_steps(steps: &[Step], indent: &str) {
    for (i, s) in steps.iter().enumerate() {
        let dir = if s.direction == Direction::LeftToRight { "→" } else { "←" };
        let by = match &s.by {
            Justification::Axiom { axiom, .. } => axiom.clone(),
            Justification::Lemma { lemma } => format!("lemma {lemma}"),
        };
        println!("{indent}{:>3}. {by} {dir} at {:?}: {}", i + 1, s.position, s.text);
    }
}
