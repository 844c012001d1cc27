//! `birkhoff eval`: is this structure a model? Names each violated axiom with a witness.

use crate::output::print_json;
use crate::Outcome;
use anyhow::Context;
use birkhoff_engine::{eval, tables, Structure, Theory};
use serde_json::json;
use std::path::PathBuf;

// Arguments of `birkhoff eval`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// The structure: JSON (`{"sizes": {"U": 3}, "functions": {"*": [[...]]}, ...}`, as
    /// `birkhoff models --format json` writes) or Mace4 `interpretation(...)` terms; a file with
    /// several interpretations is checked one by one.
    #[arg(value_name = "STRUCTURE")]
    structure: PathBuf,
    #[command(flatten)]
    goals: super::GoalArgs,
}

/// The structures in a file, in JSON (one object or an array) or Mace4 format.
pub fn read_structures(t: &Theory, path: &std::path::Path) -> anyhow::Result<Vec<Structure>> {
    let text = super::read_file(path)?;
    let trimmed = text.trim_start();
    let structures = if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let v = birkhoff_engine::structure::parse_json_strict(&text)
            .map_err(|e| anyhow::anyhow!("{}: not valid JSON: {e}", path.display()))?;
        // `birkhoff models --json` writes `{"models": [{"model": .., "automorphisms": ..}, ..]}`.
        let items = match v {
            serde_json::Value::Array(items) => items,
            serde_json::Value::Object(ref o) if o.get("models").is_some_and(|m| m.is_array()) => {
                o["models"].as_array().cloned().unwrap_or_default()
            }
            one => vec![one],
        };
        let structures = items
            .iter()
            .map(|item| Structure::from_json(&t.sig, item.get("model").unwrap_or(item)))
            .collect::<Result<Vec<_>, _>>();
        structures
            .with_context(|| format!("{}: not a structure for theory {}", path.display(), t.name))?
    } else {
        // The reader's errors name the file, line and column themselves.
        tables::from_mace4(&t.sig, &text, &path.display().to_string())
            .with_context(|| format!("not a structure for theory {}", t.name))?
    };
    anyhow::ensure!(
        !structures.is_empty(),
        "{}: no structure found (expected JSON or Mace4 `interpretation(...)`)",
        path.display()
    );
    Ok(structures)
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.goals.load(&a.theory)?;
    let structures = read_structures(&t, &a.structure)?;
    let mut all_models = true;
    let mut reports = Vec::new();
    for (i, s) in structures.iter().enumerate() {
        let violations = eval::violations(&t, s);
        all_models &= violations.is_empty();
        let label = if structures.len() > 1 {
            format!("structure {}: ", i + 1)
        } else {
            String::new()
        };
        if !json {
            if violations.is_empty() {
                println!("{label}a model of {}", t.name);
            } else {
                println!("{label}not a model of {}:", t.name);
                for v in &violations {
                    println!("  {v}");
                }
            }
        }
        let witnesses: Vec<_> = violations.iter().map(|v| json!({ "axiom": v.axiom, "assignment": v.assignment.iter().map(|(x, n)| (x.clone(), json!(n))).collect::<serde_json::Map<String, serde_json::Value>>() })).collect();
        reports.push(json!({ "model": violations.is_empty(), "violations": witnesses }));
    }
    if json {
        print_json(&json!({ "theory": t.name, "structures": reports }));
    }
    Ok(if all_models {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}
