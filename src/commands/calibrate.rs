//! `birkhoff calibrate`: the interest score's fit on the catalogue (docs/SCORING.md): its
//! held-out figures and fitted weights, and with `--write` the training table regenerated.

use crate::output::{print_json, table};
use crate::Outcome;
use birkhoff_scorer::calibration::{self, Calibration, FEATURES};
use serde_json::json;

// Arguments of `birkhoff calibrate`.
#[derive(clap::Args)]
pub struct Args {
    /// Recompute the training table (every catalogue entry and two theories one move from each,
    /// their spectra counted to size 4) and write it to FILE, such as
    /// scorer/data/calibration.tsv; then report on it.
    #[arg(long, value_name = "FILE")]
    write: Option<std::path::PathBuf>,
    /// Cross-validation folds: each fold's entries are scored by the fit without them.
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=100))]
    folds: u32,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let rows = match &a.write {
        Some(path) => {
            let spinner = crate::output::progress(1, "calibration table: counting spectra");
            let rows = calibration::table();
            spinner.finish_and_clear();
            let mut text = String::from(calibration::HEADER);
            for r in &rows {
                text.push_str(&calibration::format_row(r));
                text.push('\n');
            }
            birkhoff_checker::atomic_file::write(path, text.as_bytes())
                .map_err(|e| anyhow::anyhow!("--write {}: {e}", path.display()))?;
            // The figures are those of the table as written (six decimals), as the scorer reads it.
            calibration::parse_table(&text).map_err(anyhow::Error::msg)?
        }
        None => calibration::rows(),
    };
    let held_out = calibration::auc(&calibration::cross_validated(&rows, a.folds as usize));
    let fitted = Calibration::fit(&rows);
    let named = rows.iter().filter(|r| r.named).count();
    if json {
        let weights: serde_json::Map<String, serde_json::Value> = FEATURES
            .iter()
            .zip(fitted.weights)
            .map(|(f, w)| (f.to_string(), json!(w)))
            .collect();
        print_json(&json!({
            "rows": rows.len(), "named": named, "generated": rows.len() - named,
            "folds": a.folds, "held_out_auc": held_out,
            "training_auc": calibration::auc(&rows.iter().map(|r| (fitted.interest(&r.features), r.named)).collect::<Vec<_>>()),
            "weights": weights, "bias": fitted.bias,
        }));
    } else {
        println!(
            "{} rows: {named} named, {} generated; held-out AUC ({} folds by entry) {held_out:.3}",
            rows.len(),
            rows.len() - named,
            a.folds
        );
        let lines: Vec<Vec<String>> = FEATURES
            .iter()
            .zip(fitted.weights)
            .map(|(f, w)| vec![f.to_string(), format!("{w:+.3}")])
            .chain([vec!["(bias)".into(), format!("{:+.3}", fitted.bias)]])
            .collect();
        print!("{}", table(&["feature", "weight per s.d."], &lines));
    }
    Ok(Outcome::Done)
}
