//! `birkhoff backtest`: re-verify everything in the library and report what no longer holds.

use super::library::LibraryArg;
use crate::output::{print_json, table};
use crate::Outcome;
use birkhoff_library::backtest;

// Arguments of `birkhoff backtest`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    library: LibraryArg,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let lib = a.library.open()?;
    let report = backtest::run(&lib)?;
    if json {
        print_json(&serde_json::to_value(&report)?);
    } else {
        let rows: Vec<Vec<String>> = report
            .checked
            .iter()
            .map(|(k, n)| vec![k.clone(), n.to_string()])
            .collect();
        print!("{}", table(&["kind", "checked"], &rows));
        for f in &report.failures {
            println!("FAIL {}: {}", f.file, f.problem);
        }
        println!("{} failure(s)", report.failures.len());
    }
    Ok(if report.failures.is_empty() {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}
