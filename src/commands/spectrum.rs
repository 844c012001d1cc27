//! `birkhoff spectrum`: models per size, up to isomorphism and labeled, each with its status.

use super::BudgetArgs;
use crate::output::{print_json, progress, table};
use crate::Outcome;
use birkhoff_checker::budget::Status;
use birkhoff_checker::spectrum::{planned_tuples, row, sizes_label, SpectrumRow};
use serde_json::json;

/// Which counts to show.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Models up to isomorphism.
    Iso,
    /// Labeled models (all tables on {0..n-1}).
    Labeled,
    /// Both.
    Both,
}

// Arguments of `birkhoff spectrum`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed name or a theory file (Birkhoff's format or Mace4 input).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// Largest size (of every sort, for many-sorted theories).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_size: u32,
    /// Smallest size.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    min_size: u32,
    /// Which counts to show.
    #[arg(long, value_enum, default_value = "both")]
    mode: Mode,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    goals: super::GoalArgs,
    #[command(flatten)]
    engine: super::engine::EngineArgs,
}

/// `exact`, `at least` or `unknown`.
pub fn status_word(s: Status) -> &'static str {
    match s {
        Status::Exact => "exact",
        Status::AtLeast => "at least",
        Status::Unknown => "unknown",
    }
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    anyhow::ensure!(a.min_size <= a.max_size, "--min-size {} is larger than --max-size {}", a.min_size, a.max_size);
    let t = a.goals.load(&a.theory)?;
    let budget = a.budget.budget();
    let tuples: Vec<Vec<u32>> = planned_tuples(t.sig.sorts.len(), a.min_size, a.max_size).map_err(|e| anyhow::anyhow!("theory {}: {e}", t.name))?.collect();
    let bar = progress(tuples.len() as u64, &t.name);
    let mut rows: Vec<SpectrumRow> = Vec::new();
    for sizes in &tuples {
        bar.set_message(format!("size {}", sizes_label(sizes)));
        rows.push(super::naming_size_flag(row(a.engine.engine, &t, sizes, &budget), &format!("--max-size {} (at size {})", a.max_size, sizes_label(sizes)))?);
        bar.inc(1);
        if crate::interrupt::requested() {
            break;
        }
    }
    bar.finish_and_clear();
    let complete = rows.iter().all(|r| r.iso.status == Status::Exact) && rows.len() == tuples.len();
    if json {
        let mut out = json!({ "theory": t.name, "fingerprint": t.fingerprint().to_string(), "rows": rows, "complete": complete });
        if let Some(note) = a.engine.cross_check() {
            out["cross_check"] = note.into();
        }
        print_json(&out);
    } else {
        let header: Vec<&str> = match a.mode {
            Mode::Iso => vec!["n", "iso", "status", "seconds"],
            Mode::Labeled => vec!["n", "labeled", "status", "seconds"],
            Mode::Both => vec!["n", "iso", "labeled", "status", "seconds"],
        };
        let cells: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                let mut c = vec![sizes_label(&r.sizes)];
                if a.mode != Mode::Labeled {
                    c.push(r.iso.to_string());
                }
                if a.mode != Mode::Iso {
                    c.push(r.labeled.to_string());
                }
                c.push(status_word(r.iso.status).to_string());
                c.push(format!("{:.2}", r.seconds));
                c
            })
            .collect();
        println!("{}: {}", t.name, t.doc.lines().next().unwrap_or(""));
        print!("{}", table(&header, &cells));
        if let Some(note) = a.engine.cross_check() {
            println!("{note}");
        }
    }
    Ok(if crate::interrupt::requested() {
        Outcome::Interrupted
    } else if complete {
        Outcome::Done
    } else {
        // A count that is only a lower bound is an incomplete answer (exit code 1).
        Outcome::Negative
    })
}
