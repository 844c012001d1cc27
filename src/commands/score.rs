//! `birkhoff score`: the ten score dimensions of a theory, from its spectrum, representatives,
//! independence countermodels and axioms.

use super::BudgetArgs;
use crate::output::{print_json, table};
use crate::Outcome;
use anyhow::Context;
use birkhoff_checker::{sizes_label, Status};
use birkhoff_scorer::calibration::{self, Calibration};
use birkhoff_scorer::spectrum::known_spectra;
use birkhoff_scorer::{gather, score, Evidence, Policy, Weights};
use serde_json::json;

// Arguments of `birkhoff score`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// Compute the spectrum up to this size (of every sort); 0 scores the axioms alone.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=64))]
    max_size: u32,
    /// Look for independence countermodels up to this size; 0 leaves independence out (as
    /// `explore` does).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=64))]
    independence_size: u32,
    /// Do not run the conjecture engine (as `explore` and the agent do not).
    #[arg(long)]
    no_conjectures: bool,
    /// A theory it came from (named as THEORY is; repeatable): novelty compares the spectrum with
    /// each parent's, computed the same way, as `explore` and the agent do.
    #[arg(long, value_name = "THEORY")]
    parent: Vec<String>,
    /// A JSON file of weights by dimension name (missing ones keep their defaults).
    #[arg(long, value_name = "FILE")]
    weights: Option<std::path::PathBuf>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.library.load(&a.theory)?;
    let weights = match &a.weights {
        Some(path) => Weights::from_json(&super::read_file(path)?)
            .map_err(|e| anyhow::anyhow!("--weights {}: {e}", path.display()))?,
        None => Weights::default(),
    };
    let known = known_spectra();
    let policy = Policy {
        conjectures: !a.no_conjectures,
        ..Policy::score(a.max_size, a.independence_size)
    };
    let budget = a.budget.budget();
    let gathered = if a.max_size > 0 {
        let spinner = crate::output::progress(
            1,
            &format!(
                "{}: spectrum to {}, independence and conjectures",
                t.name, a.max_size
            ),
        );
        let g = gather(&t, &policy, &budget)?;
        spinner.finish_and_clear();
        Some(g)
    } else {
        None
    };
    let mut parents = Vec::new();
    for p in &a.parent {
        let parent = a.library.load(p).with_context(|| format!("--parent {p}"))?;
        if a.max_size > 0 {
            parents.push(birkhoff_scorer::evidence::spectrum(&parent, a.max_size, &budget)?.0);
        }
    }
    if crate::interrupt::requested() {
        return Ok(Outcome::Interrupted);
    }
    let evidence = match &gathered {
        Some(g) => g.evidence(&t, &parents, &known),
        None => Evidence::syntactic(&t),
    };
    let scores = score(&evidence, &weights);
    // What the agent ranks by: the fit on the catalogue (docs/SCORING.md, `birkhoff calibrate`).
    let interest = calibration::ranked_interest(
        &Calibration::fitted(&[]),
        &t,
        gathered.as_ref().map(|g| &g.spectrum[..]),
    );
    let exact = gathered
        .as_ref()
        .is_none_or(|g| g.spectrum.iter().all(|p| p.iso.status == Status::Exact));
    if json {
        print_json(
            &json!({ "theory": t.name, "policy": policy, "scores": scores, "interest": interest, "weights": weights, "evidence": gathered, "spectrum_exact": exact }),
        );
    } else {
        if let Some(g) = &gathered {
            let spectrum: Vec<String> = g
                .spectrum
                .iter()
                .map(|p| format!("{}:{}", sizes_label(&p.sizes), p.iso))
                .collect();
            println!("{}  spectrum (iso) {}", t.name, spectrum.join(" "));
        }
        let rows: Vec<Vec<String>> = scores
            .dimensions()
            .iter()
            .map(|(name, v)| {
                vec![
                    name.to_string(),
                    v.map_or("not measured".into(), |v| format!("{v:.3}")),
                ]
            })
            .collect();
        print!("{}", table(&["dimension", "score"], &rows));
        println!("total {:.3}", scores.total);
        println!("interest {interest:.3} (calibrated on the catalogue, as the agent ranks)");
    }
    Ok(if exact {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}
