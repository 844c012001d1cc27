//! `birkhoff models`: one model per isomorphism class of a given size, as tables, JSON, Mace4 or GAP.

use super::BudgetArgs;
use crate::output::{print_json, CHECKED_BY_EVALUATOR};
use crate::Outcome;
use birkhoff_checker::{router, sizes_label, Status};
use birkhoff_engine::tables;
use serde_json::json;

/// How to print models.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Cayley tables.
    Table,
    /// JSON, readable by `birkhoff eval`.
    Json,
    /// Mace4's interpformat standard form (single-sorted theories).
    Mace4,
    /// GAP records of multiplication tables, elements from 1 (for LOOPS' `LoopByCayleyTable`,
    /// `SemigroupByMultiplicationTable`, smallsemi).
    Gap,
}

impl Format {
    /// Refuses a format the theory cannot be written in, naming the flag.
    pub fn check(self, t: &birkhoff_engine::Theory) -> anyhow::Result<()> {
        anyhow::ensure!(
            self != Format::Mace4 || t.sig.is_single_sorted(),
            "--format mace4: Mace4's format has one sort, and theory {} has {}",
            t.name,
            t.sig.sorts.len()
        );
        Ok(())
    }

    /// `text` as comment lines of the format's language (`% ` for Mace4, `# ` for GAP), which
    /// LADR's tools, `birkhoff eval` and GAP's `Read` skip; unchanged for tables and JSON.
    pub fn comment(self, text: &str) -> String {
        let mark = match self {
            Format::Mace4 => "% ",
            Format::Gap => "# ",
            Format::Table | Format::Json => return text.to_string(),
        };
        text.lines().map(|l| format!("{mark}{l}\n")).collect()
    }

    /// One model in the format: Cayley tables, JSON, or the `number`-th model of a Mace4 or GAP
    /// file. `models`, `find` and `prove` (its countermodels) all print through this.
    pub fn model(
        self,
        sig: &birkhoff_engine::Signature,
        model: &birkhoff_engine::Structure,
        number: usize,
    ) -> anyhow::Result<String> {
        Ok(match self {
            Format::Table => tables::cayley(sig, model),
            Format::Json => format!("{:#}\n", model.to_json(sig)),
            Format::Mace4 => tables::to_mace4(sig, model, number)?,
            Format::Gap => tables::to_gap(sig, model, number),
        })
    }
}

// Arguments of `birkhoff models`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// The size: `5`, or `2x3` for a theory with two sorts.
    #[arg(long, value_name = "N", value_parser = super::parse_sizes)]
    size: super::Sizes,
    /// Print at most this many models (isomorphism classes).
    #[arg(long, value_name = "K")]
    limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    engine: super::engine::EngineArgs,
    #[command(flatten)]
    verbose: super::engine::VerboseArgs,
    #[command(flatten)]
    goals: super::GoalArgs,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.goals.load(&a.theory)?;
    let sizes = a.size.0;
    super::check_sizes(&t, &sizes, "--size")?;
    let format = if json { Format::Json } else { a.format };
    format.check(&t)?;
    let mut budget = a.budget.budget();
    budget.models = a.limit.or(budget.models);
    let (e, choice) = super::naming_size_flag(
        router::enumerate_by(a.engine.engine, &t, &sizes, &budget),
        &format!("--size {}", sizes_label(&sizes)),
    )?;
    a.verbose.tell(
        None,
        &format!("size {}", sizes_label(&sizes)),
        &choice,
        e.elapsed.as_secs_f64(),
    );
    let limited = a.limit.is_some_and(|k| e.classes.len() as u64 >= k);
    let complete = e.iso.status == Status::Exact;
    let shown = e.classes.len();
    match format {
        Format::Json => {
            let models: Vec<_> = e.classes.iter().map(|c| json!({ "model": c.model.to_json(&t.sig), "automorphisms": birkhoff_checker::automorphisms_label(c.automorphisms) })).collect();
            let mut out = json!({ "theory": t.name, "sizes": sizes, "iso": e.iso, "labeled": e.labeled, "complete": complete, "engine": choice.engine, "engine_reason": choice.reason, "checked_by_evaluator": true, "models": models });
            if let Some(note) = a.engine.cross_check() {
                out["cross_check"] = note.into();
            }
            print_json(&out);
        }
        Format::Mace4 | Format::Gap => {
            print!("{}", format.comment(CHECKED_BY_EVALUATOR));
            for (i, c) in e.classes.iter().enumerate() {
                print!("{}", format.model(&t.sig, &c.model, i + 1)?);
            }
        }
        Format::Table => {
            for (i, c) in e.classes.iter().enumerate() {
                println!(
                    "model {} (|Aut| = {})",
                    i + 1,
                    birkhoff_checker::automorphisms_label(c.automorphisms)
                );
                println!("{}", format.model(&t.sig, &c.model, i + 1)?);
            }
            if complete {
                println!(
                    "{shown} model(s) of size {} up to isomorphism",
                    sizes_label(&sizes)
                );
            }
            if shown > 0 {
                println!("{CHECKED_BY_EVALUATOR}");
            }
            if let Some(note) = a.engine.cross_check() {
                println!("{note}");
            }
        }
    }
    // A list cut short is an incomplete answer in every format: said on stderr, exit code 1.
    if !complete {
        let why = if limited {
            format!("--limit {} reached", a.limit.unwrap_or_default())
        } else {
            "the budget ran out".to_string()
        };
        eprintln!(
            "incomplete: {shown} model(s) of size {} shown, {why}; there may be more",
            sizes_label(&sizes)
        );
    }
    Ok(match () {
        _ if crate::interrupt::requested() => Outcome::Interrupted,
        _ if !complete => Outcome::Negative,
        _ => Outcome::Done,
    })
}
