//! `birkhoff prove`: does a theory imply a formula? Exactly one of: disproved (a countermodel the
//! evaluator confirms), proved (a certificate replayed by an independent checker), proved (Z3)
//! (Z3 found axioms ∧ ¬goal unsatisfiable: weaker evidence, it trusts the solver) or unknown
//! (with what was tried). Exit codes: 0 proved or disproved (a decided answer), 1 unknown,
//! 2 error, 130 interrupted.

use super::models::Format;
use crate::output::print_json;
use crate::Outcome;
use birkhoff_checker::atomic_file;
use birkhoff_checker::prover::external as ext;
use birkhoff_checker::prover::readable::{render, Layout};
use birkhoff_checker::prover::{prove, Options, Verdict};
use birkhoff_engine::parse::parse_formula;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Certificates with more steps are not rendered: people do not read thousands of steps, and
/// `--certificate FILE` has them all.
const RENDERED_STEPS: usize = 2_000;

// Arguments of `birkhoff prove`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 proved or disproved, 1 unknown, 2 error (with --external: the prover is not on PATH or failed), 130 interrupted."
)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// The goal in the theory's signature, such as "x * y = y * x" (free variables are universal),
    /// in the syntax of the theory's file: LADR's for a LADR file (variables start with u to z,
    /// `x'` is its postfix operator, as in "x * x' = e"), TPTP's for a TPTP file (as the body of
    /// an annotated formula: "![X]: mult(X, inv(X)) = e"), Birkhoff's otherwise. Without it, the
    /// theory's own conjecture: a TPTP file's `conjecture` or `meta conjecture` in Birkhoff's
    /// format (as `birkhoff import` writes a LADR file's goal).
    #[arg(value_name = "GOAL")]
    goal: Option<String>,
    /// Largest countermodel size searched (per sort). Sizes grow 1, 2, 3, ... while the time
    /// lasts (the smallest countermodels of some false statements have 7 to 12 elements: a
    /// nonassociative Moufang loop, 12), so this is only a bound to set when larger ones are not
    /// wanted.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_size: u32,
    /// Time for the whole attempt, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = super::parse_seconds)]
    timeout: Duration,
    /// Write the full certificate of a proof to this file (compact JSON, written atomically);
    /// `--json` gives only its size and the readable proof.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Ask this prover instead of Birkhoff's own: eprover, cvc5, or vampire or prover9 when on
    /// PATH. It gets Birkhoff's TPTP (LADR for prover9) export of the theory and goal and
    /// --timeout; its answer is reported as external evidence (prover, version, SZS status),
    /// never as a certificate. A timeout is unknown.
    #[arg(long, value_name = "NAME")]
    external: Option<String>,
    /// How to print a countermodel: Cayley tables, JSON (as --json), or a Mace4 or GAP model as
    /// `models` and `find` print them; in the last two, every other line of the answer is a
    /// comment of that language, so the output can be read as it is.
    #[arg(long, value_enum, default_value = "table")]
    format: super::models::Format,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    // The whole command, output included, keeps to --timeout: what the prover leaves goes to
    // writing the certificate and rendering the proof.
    let deadline = Instant::now() + a.timeout;
    let t = a.library.load(&a.theory)?;
    let (goal_text, goal) = match (
        &a.goal,
        t.meta.get(birkhoff_engine::interop::CONJECTURE_META),
    ) {
        (Some(g), _) => (g.clone(), super::parse_goal(&a.theory, &t, g, "GOAL")?),
        (None, Some(g)) => (g.clone(), parse_formula(&t.sig, g, "GOAL")?),
        (None, None) => anyhow::bail!(
            "theory {} states no conjecture: give the GOAL to prove, such as \"x * y = y * x\"",
            t.name
        ),
    };
    a.format.check(&t)?;
    let json = json || a.format == Format::Json;
    if let Some(name) = &a.external {
        return external(&t, &goal, name, &goal_text, a.timeout, json);
    }
    // The prover ends a tenth early (at most a second): a proof found at its deadline still has
    // a certificate to write (tens of megabytes for a long one) and a proof to render, and the
    // whole command keeps to --timeout.
    let reserve = (a.timeout / 10).min(Duration::from_secs(1));
    let prover_time = deadline
        .saturating_duration_since(Instant::now())
        .saturating_sub(reserve);
    let opts = Options {
        max_size: a.max_size,
        // --max-size bounds what the user wants shown, named structures included.
        named_structures: a.max_size,
        timeout: prover_time,
        cancel: Some(crate::interrupt::flag()),
        // One question: the laws of Boolean algebras (or rings) are worth proving for it.
        normal_forms: true,
        ..Options::default()
    };
    let answer = prove(&t, &goal, &opts)?;
    if let (Some(path), Verdict::Proved { certificate }) = (&a.certificate, &answer.verdict) {
        // Compact JSON: pretty-printing nests every term's indentation (173 MB against 13 MB for
        // a 17 377-step certificate).
        atomic_file::write(path, &serde_json::to_vec(certificate)?)
            .map_err(|e| anyhow::anyhow!("--certificate {}: {e}", path.display()))?;
    }
    let readable = match &answer.verdict {
        Verdict::Proved { certificate } if certificate.total_steps() <= RENDERED_STEPS => {
            // Rendering ends early too, leaving time to print what it made.
            Some(render(
                &t,
                &goal,
                certificate,
                &Layout {
                    deadline: Some(deadline - reserve / 2),
                    ..Layout::default()
                },
            ))
        }
        _ => None,
    };
    if json {
        // The verdict without the certificate (which can be hundreds of megabytes as JSON):
        // its size, the readable proof, and where the full certificate went.
        let mut v = serde_json::json!({ "verdict": verdict_name(&answer.verdict), "attempts": answer.attempts, "unknown_because": answer.unknown_because });
        match &answer.verdict {
            Verdict::Disproved { model, witness } => {
                v["model"] = model.to_json(&t.sig);
                v["checked_by_evaluator"] = true.into();
                v["witness"] = serde_json::to_value(witness)?;
            }
            Verdict::Proved { certificate } => {
                v["steps"] = certificate.total_steps().into();
                v["lemmas"] = certificate.lemmas.len().into();
                match &readable {
                    Some(Ok(p)) => v["proof"] = serde_json::to_value(p)?,
                    Some(Err(e)) => v["proof_not_shown"] = e.to_string().into(),
                    None => {
                        v["proof_not_shown"] = format!("more than {RENDERED_STEPS} steps").into()
                    }
                }
                if let Some(path) = &a.certificate {
                    v["certificate"] = path.display().to_string().into();
                }
            }
            Verdict::ProvedByZ3 { detail } => v["detail"] = detail.clone().into(),
            Verdict::Unknown => {}
        }
        v["evidence"] = answer.verdict.evidence().into();
        v["theory"] = t.name.clone().into();
        v["goal"] = goal_text.clone().into();
        print_json(&v);
    } else {
        // The answer in words; with --format mace4 or gap, as comments around the model.
        let mut text = String::new();
        let mut model_text = String::new();
        match &answer.verdict {
            Verdict::Disproved { model, witness } => {
                let w: Vec<String> = witness.iter().map(|(x, n)| format!("{x} = {n}")).collect();
                let _ = writeln!(
                    text,
                    "disproved: a model of {} of size {:?} where the goal fails at {}",
                    t.name,
                    model.sizes,
                    w.join(", ")
                );
                model_text = a.format.model(&t.sig, model, 1)?;
                if a.format == Format::Table {
                    text += &std::mem::take(&mut model_text);
                }
                let _ = writeln!(text, "checked by the evaluator: every axiom holds and the goal fails at that assignment");
            }
            Verdict::Proved { certificate } => {
                let lemmas = match certificate.lemmas.len() {
                    0 => String::new(),
                    n => format!(" ({n} lemmas)"),
                };
                let _ = writeln!(text, "proved: a certificate of {} rewrite steps{lemmas}, replayed by the certificate checker", certificate.total_steps());
                match &readable {
                    Some(Ok(p)) => text += &p.to_string(),
                    Some(Err(e)) => {
                        let _ = writeln!(
                            text,
                            "  (proof not shown: {e}; --certificate FILE writes it)"
                        );
                    }
                    None => {
                        let _ = writeln!(text, "  (more than {RENDERED_STEPS} steps, not shown: --certificate FILE writes them)");
                    }
                }
            }
            Verdict::ProvedByZ3 { detail } => {
                let _ = writeln!(
                    text,
                    "proved (Z3): {detail}\n  evidence: {}",
                    answer.verdict.evidence()
                );
            }
            Verdict::Unknown => {
                let _ = writeln!(
                    text,
                    "unknown{}",
                    answer
                        .unknown_because
                        .as_deref()
                        .map_or(String::new(), |w| format!(": {w}"))
                );
                for at in &answer.attempts {
                    let _ = writeln!(
                        text,
                        "  tried {:?}: {} ({:.2}s)",
                        at.strategy, at.result, at.seconds
                    );
                }
            }
        }
        print!("{}{model_text}", a.format.comment(&text));
    }
    Ok(match answer.verdict {
        Verdict::Unknown if crate::interrupt::requested() => Outcome::Interrupted,
        Verdict::Unknown => Outcome::Negative,
        _ => Outcome::Done,
    })
}

/// `--external NAME`: the other prover's answer as evidence. Exit codes as for Birkhoff's own
/// answers: 0 proved or disproved, 1 unknown (a timeout included), 2 the prover is missing or
/// failed to run, 130 interrupted.
fn external(
    t: &birkhoff_engine::Theory,
    goal: &birkhoff_engine::Axiom,
    name: &str,
    goal_text: &str,
    timeout: Duration,
    json: bool,
) -> anyhow::Result<Outcome> {
    let prover = ext::Prover::named(name).ok_or_else(|| {
        anyhow::anyhow!(
            "--external {name}: {}",
            ext::ExternalError::Unknown(name.to_string())
        )
    })?;
    let evidence = ext::ask(prover, t, goal, timeout, Some(&crate::interrupt::flag()))
        .map_err(|e| anyhow::anyhow!("--external {name}: {e}"))?;
    let (verdict, word) = match evidence.claim {
        ext::Claim::Proved => ("proved_by_external", "proved"),
        ext::Claim::Disproved => ("disproved_by_external", "disproved"),
        ext::Claim::Unknown => ("unknown", "unknown"),
        ext::Claim::ContradictoryAxioms => (
            "contradictory_axioms_by_external",
            "unknown: the axioms are contradictory, so the goal follows vacuously",
        ),
    };
    let note =
        "external evidence: the prover's answer is reported, not checked; it is not a certificate";
    if json {
        print_json(
            &serde_json::json!({ "verdict": verdict, "external": evidence, "evidence": note, "theory": t.name, "goal": goal_text }),
        );
    } else {
        println!(
            "{word} (external: {} says SZS status {} in {:.2}s)",
            evidence.version, evidence.status, evidence.seconds
        );
        println!("  {note}");
    }
    Ok(match evidence.claim {
        _ if evidence.status == "Interrupted" => Outcome::Interrupted,
        ext::Claim::Unknown | ext::Claim::ContradictoryAxioms => Outcome::Negative,
        _ => Outcome::Done,
    })
}

/// The verdict's name in `--json`, as the prover's answer serialises it.
fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Disproved { .. } => "disproved",
        Verdict::Proved { .. } => "proved",
        Verdict::ProvedByZ3 { .. } => "proved_by_z3",
        Verdict::Unknown => "unknown",
    }
}
