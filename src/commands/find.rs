//! `birkhoff find`: the first model of a size, or a proof by exhaustion that there is none.

use super::models::Format;
use super::BudgetArgs;
use crate::output::{print_json, CHECKED_BY_EVALUATOR};
use crate::Outcome;
use birkhoff_checker::{finder::FirstModel, router, sizes_label};
use serde_json::json;

// Arguments of `birkhoff find`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// The size: `5`, or `2x3` for a theory with two sorts.
    #[arg(long, value_name = "N", value_parser = super::parse_sizes)]
    size: super::Sizes,
    /// Output format of the model.
    #[arg(long, value_enum, default_value = "table")]
    format: super::models::Format,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    engine: super::engine::EngineArgs,
    #[command(flatten)]
    goals: super::GoalArgs,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.goals.load(&a.theory)?;
    let sizes = a.size.0;
    super::check_sizes(&t, &sizes, "--size")?;
    a.format.check(&t)?;
    let label = sizes_label(&sizes);
    let found = router::first_by(a.engine.engine, &t, &sizes, &a.budget.budget());
    let router::First {
        outcome,
        nodes,
        elapsed,
        engine,
    } = super::naming_size_flag(found, &format!("--size {label}"))?;
    let engine = serde_json::to_value(engine)?;
    if json || a.format == Format::Json {
        let model = match &outcome {
            FirstModel::Found { model } => model.to_json(&t.sig),
            _ => serde_json::Value::Null,
        };
        let word = match outcome {
            FirstModel::Found { .. } => "found",
            FirstModel::None => "none",
            FirstModel::Unknown => "unknown",
        };
        let checked = matches!(outcome, FirstModel::Found { .. });
        let mut out = json!({ "theory": t.name, "sizes": sizes, "outcome": word, "model": model, "checked_by_evaluator": checked, "nodes": nodes, "engine": engine, "seconds": elapsed.as_secs_f64() });
        if let Some(note) = a.engine.cross_check() {
            out["cross_check"] = note.into();
        }
        print_json(&out);
    } else {
        match &outcome {
            FirstModel::Found { model } => {
                let engine = engine.as_str().unwrap_or("?");
                match a.format {
                    Format::Mace4 | Format::Gap => print!(
                        "{}{}",
                        a.format.comment(&format!(
                            "found by the {engine} engine; {CHECKED_BY_EVALUATOR}"
                        )),
                        a.format.model(&t.sig, model, 1)?
                    ),
                    _ => {
                        print!("{}", Format::Table.model(&t.sig, model, 1)?);
                        println!("(found by the {engine} engine; {CHECKED_BY_EVALUATOR})");
                    }
                }
            }
            FirstModel::None => println!(
                "none of size {label} (proved by the {} engine)",
                engine.as_str().unwrap_or("?")
            ),
            FirstModel::Unknown => println!(
                "unknown: the budget ran out before a model or a proof of none of size {label}"
            ),
        }
        if let Some(note) = a.engine.cross_check() {
            println!("{note}");
        }
    }
    Ok(match outcome {
        FirstModel::Unknown if crate::interrupt::requested() => Outcome::Interrupted,
        FirstModel::Unknown => Outcome::Negative,
        _ => Outcome::Done,
    })
}
