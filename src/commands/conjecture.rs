//! `birkhoff conjecture`: equations that hold in every small model of a theory, each proved
//! (with a replayed certificate, or by Z3 as weaker evidence), refuted by a larger countermodel,
//! or left open. Exit codes: 0 done, 1 incomplete (a search cut short or conjectures not tried),
//! 2 error, 130 interrupted (the partial report is printed).

use crate::output::{print_json, progress, table};
use crate::Outcome;
use birkhoff_checker::prover::conjecture::{conjecture, Options, Progress, Report, Status};
use indicatif::ProgressBar;
use std::time::Duration;

// Arguments of `birkhoff conjecture`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 done, 1 incomplete (a search cut short, conjectures not tried), 2 error, 130 interrupted."
)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// Deepest term on either side of an equation (a variable or a constant has depth 0).
    #[arg(long, value_name = "D", default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=4))]
    depth: u32,
    /// Conjectures must hold in every model with each sort of 1 to N elements.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=16))]
    max_size: u32,
    /// Time the prover may spend on each conjecture, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "2", value_parser = super::parse_seconds)]
    timeout: Duration,
    /// Variables of each sort that terms may use.
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=6))]
    vars: u32,
    /// Give at most this many conjectures to the prover (smallest first); the rest are listed
    /// as not tried.
    #[arg(long, value_name = "K", default_value_t = 100)]
    max_conjectures: usize,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.library.load(&a.theory)?;
    let opts = Options {
        depth: a.depth,
        max_size: a.max_size,
        vars_per_sort: a.vars as usize,
        per_conjecture: a.timeout,
        max_conjectures: a.max_conjectures,
        cancel: Some(crate::interrupt::flag()),
        ..Options::default()
    };
    let mut bar: Option<ProgressBar> = None;
    let report = conjecture(&t, &opts, &mut |p| match p {
        Progress::Stage { name, steps } => {
            if let Some(b) = bar.take() {
                b.finish_and_clear();
            }
            bar = Some(progress(steps, name));
        }
        Progress::Step => {
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if json {
        let mut v = serde_json::to_value(&report)?;
        for (c, out) in report
            .conjectures
            .iter()
            .zip(v["conjectures"].as_array_mut().into_iter().flatten())
        {
            out["evidence"] = c.status.evidence().into();
            if let Status::Disproved { model, .. } = &c.status {
                out["model"] = model.to_json(&t.sig);
                out["checked_by_evaluator"] = true.into();
            }
        }
        print_json(&v);
    } else {
        print_text(&report);
    }
    let incomplete =
        !report.models.complete || !report.terms_complete || report.counts.not_tried > 0;
    Ok(match () {
        _ if report.interrupted => Outcome::Interrupted,
        _ if incomplete => Outcome::Negative,
        _ => Outcome::Done,
    })
}

fn print_text(r: &Report) {
    let models = if r.models.complete {
        "every model"
    } else {
        "every model found"
    };
    println!(
        "{}: equations of depth ≤ {} true in {models} up to size {} ({} classes)",
        r.theory, r.depth, r.max_size, r.models.classes
    );
    if let Some(note) = &r.models.note {
        println!("  note: {note}");
    }
    let terms = if r.terms_complete { "" } else { ", cut short" };
    println!(
        "  {} terms in {} classes{terms}; {} candidate equations, {} trivial (one rewrite from an axiom or a theorem), {} implied by an open conjecture",
        r.terms, r.classes, r.candidates, r.trivial, r.implied_by_open
    );
    let rows: Vec<Vec<String>> = r
        .conjectures
        .iter()
        .enumerate()
        .map(|(i, c)| {
            vec![
                (i + 1).to_string(),
                c.status.name().into(),
                c.equation.clone(),
                c.status.evidence(),
            ]
        })
        .collect();
    if !rows.is_empty() {
        print!(
            "{}",
            table(&["#", "status", "conjecture", "evidence"], &rows)
        );
    }
    let n = r.counts;
    if n.refuted > 0 {
        println!("every countermodel was checked by the evaluator: the axioms hold and the conjecture fails");
    }
    println!(
        "proved {} (+{} by Z3), refuted {} ({} by a countermodel found earlier), open {}, not tried {}{}",
        n.proved,
        n.proved_by_z3,
        n.refuted,
        r.refuted_by_earlier,
        n.open,
        n.not_tried,
        if r.interrupted { " (interrupted)" } else { "" }
    );
}
