//! `birkhoff seeds`: the embedded seed theories and their signatures.

use crate::output::{print_json, table};
use crate::Outcome;
use birkhoff_engine::{seeds, Theory};
use serde_json::json;

// Arguments of `birkhoff seeds`.
#[derive(clap::Args)]
pub struct Args {}

/// The symbols of a theory, one profile each, such as `* : U U -> U`.
pub fn signature_summary(t: &Theory) -> Vec<String> {
    t.sig
        .func_ids()
        .map(|f| t.sig.func_profile(f))
        .chain(t.sig.rel_ids().map(|r| t.sig.rel_profile(r)))
        .collect()
}

pub fn run(_: Args, json: bool) -> anyhow::Result<Outcome> {
    let mut rows = Vec::new();
    let mut out = Vec::new();
    for seed in seeds::all() {
        let t = seeds::load(seed.name)?;
        let sig = signature_summary(&t);
        let sorts: Vec<&str> = t.sig.sorts.iter().map(|s| s.name.as_str()).collect();
        let oeis = t.meta.get("oeis").cloned().unwrap_or_default();
        out.push(json!({ "seed": seed.name, "theory": t.name, "sorts": sorts, "symbols": sig, "axioms": t.axioms.len(), "oeis": oeis }));
        rows.push(vec![
            seed.name.to_string(),
            sorts.join(","),
            sig.join("; "),
            t.axioms.len().to_string(),
            oeis,
        ]);
    }
    if json {
        print_json(&serde_json::Value::Array(out));
    } else {
        print!(
            "{}",
            table(&["seed", "sorts", "symbols", "axioms", "oeis"], &rows)
        );
    }
    Ok(Outcome::Done)
}
