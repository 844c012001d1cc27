//! `birkhoff equiv A B`: are two theories the same class of structures? The same class (equal
//! canonical forms, or definitions both ways with every obligation proved: a renaming, swapped
//! arguments, terms or formulas), different (a class invariant differs: the number of models of
//! some size up to isomorphism, counted or shown by a strict inclusion), or unknown (what was
//! tried, and up to which size the spectra agree). docs/CATALOGUE.md says what each verdict
//! means. Exit codes: 0 decided, 1 unknown, 2 error, 130 interrupted.

use crate::output::print_json;
use crate::Outcome;
use birkhoff_checker::prover::equivalence::{relate, Invariant, Relation, Side, Witness};
use birkhoff_checker::prover::Options;
use birkhoff_engine::{eval, tables, Theory};
use std::time::Duration;

// Arguments of `birkhoff equiv`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 equal, equivalent or different, 1 unknown, 2 error, 130 interrupted."
)]
pub struct Args {
    /// The first theory: a seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "A")]
    a: String,
    /// The second theory.
    #[arg(value_name = "B")]
    b: String,
    /// Time the prover may spend on each proof obligation, in seconds (`identify` has the same
    /// default, so the two commands give one verdict).
    #[arg(long, value_name = "SECONDS", default_value = "2", value_parser = super::parse_seconds)]
    timeout: Duration,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let (ta, tb) = (a.library.load(&a.a)?, a.library.load(&a.b)?);
    let opts = Options::for_verdicts(a.timeout, Some(crate::interrupt::flag()));
    let relation = relate(
        &Side::for_comparison(&ta, opts.cancel.clone())?,
        &Side::for_comparison(&tb, opts.cancel.clone())?,
        &opts,
    )?;
    if json {
        let mut v = serde_json::to_value(&relation)?;
        v["a"] = ta.name.clone().into();
        v["b"] = tb.name.clone().into();
        v["summary"] = relation.describe().into();
        v["same_class"] = relation.same_class().into();
        if let Relation::Different {
            invariant: Invariant::Inclusion { witness, .. } | Invariant::Embedding { witness, .. },
            ..
        } = &relation
        {
            v["invariant"]["witness"]["model"] = witness_json(witness, &ta, &tb);
        }
        print_json(&v);
    } else {
        println!("{} and {}: {}", ta.name, tb.name, relation.describe());
        match &relation {
            Relation::Equivalent { map, proofs } => {
                println!(
                    "  renaming ({}'s symbols as {}'s): {}",
                    tb.name,
                    ta.name,
                    map_text(map)
                );
                for p in proofs {
                    println!(
                        "  {} proves {}: {}{}",
                        p.by,
                        p.axiom,
                        p.evidence,
                        if p.steps > 0 {
                            format!(" ({} steps)", p.steps)
                        } else {
                            String::new()
                        }
                    );
                }
            }
            Relation::Different {
                invariant:
                    Invariant::Inclusion { witness, .. } | Invariant::Embedding { witness, .. },
                ..
            } => print_witness(witness, &ta, &tb),
            _ => {}
        }
    }
    Ok(match relation {
        Relation::Unknown { .. } if crate::interrupt::requested() => Outcome::Interrupted,
        Relation::Unknown { .. } => Outcome::Negative,
        _ => Outcome::Done,
    })
}

/// The theory (of `a`, `b`) that the witness is a model of: the one the evaluator accepts it for.
pub fn owner<'t>(w: &Witness, a: &'t Theory, b: &'t Theory) -> &'t Theory {
    if eval::check(a, &w.model).is_ok() {
        a
    } else {
        b
    }
}

/// The witness's model as JSON over its theory's signature.
pub fn witness_json(w: &Witness, a: &Theory, b: &Theory) -> serde_json::Value {
    w.model.to_json(&owner(w, a, b).sig)
}

/// `+ ↦ *, z ↦ e`.
pub fn map_text(map: &birkhoff_engine::moves::transfer::SymbolMap) -> String {
    map.iter()
        .map(|(k, v)| format!("{k} ↦ {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The countermodel as Cayley tables with where the axiom fails.
pub fn print_witness(w: &Witness, a: &Theory, b: &Theory) {
    let at: Vec<String> = w
        .assignment
        .iter()
        .map(|(x, n)| format!("{x} = {n}"))
        .collect();
    // An empty map: the other theory's symbols are read through the definitions described.
    let reading = if w.map.is_empty() {
        "through the definitions".to_string()
    } else {
        format!("as {}", map_text(&w.map))
    };
    println!(
        "  a model of {} (reading {}'s symbols {reading}) where {}'s axiom {} fails at {}:",
        w.model_of,
        w.not_model_of,
        w.not_model_of,
        w.axiom,
        at.join(", ")
    );
    for line in tables::cayley(&owner(w, a, b).sig, &w.model).lines() {
        println!("    {line}");
    }
}
