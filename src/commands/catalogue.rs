//! `birkhoff catalogue`: the named classes recognition compares against (docs/CATALOGUE.md):
//! `list` every entry with its OEIS number, `show NAME` one entry's header, its sequence's first
//! terms and its theory.

use crate::output::{print_json, table};
use crate::Outcome;
use birkhoff_checker::oeis;
use birkhoff_engine::catalogue::{self, Basis, Info, Origin};
use serde_json::json;

// Arguments of `birkhoff catalogue`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Every entry: name, theory, seed or catalogue file, OEIS number, implications.
    List {
        /// Keep only entries whose name, theory name or doc string contains this (any case).
        #[arg(long, value_name = "WORD")]
        filter: Option<String>,
    },
    /// One entry: doc string, reference, OEIS sequence, implications and the theory's text.
    Show {
        /// The entry's name (its file stem, such as left_bol_loop) or its theory's name.
        #[arg(value_name = "NAME")]
        name: String,
    },
}

fn origin(o: Origin) -> &'static str {
    match o {
        Origin::Seed => "seed",
        Origin::Catalogue => "catalogue",
    }
}

/// `A006966 (shift 1)` or `A000001` or empty.
fn oeis_label(i: &Info) -> String {
    match (&i.oeis, i.oeis_shift) {
        (None, _) => String::new(),
        (Some(id), 0) => id.clone(),
        (Some(id), s) => format!("{id} (shift {s})"),
    }
}

fn implications(i: &Info, basis: Basis) -> Vec<String> {
    i.implies
        .iter()
        .filter(|m| m.basis == basis)
        .map(|m| m.target.clone())
        .collect()
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    match a.command {
        Command::List { filter } => list(filter, json),
        Command::Show { name } => show(&name, json),
    }
}

fn list(filter: Option<String>, json: bool) -> anyhow::Result<Outcome> {
    let word = filter.map(|f| f.to_lowercase());
    let entries: Vec<Info> = catalogue::entries()?
        .into_iter()
        .map(|(i, _)| i)
        .filter(|i| {
            word.as_ref().is_none_or(|w| {
                [&i.name, &i.theory, &i.doc]
                    .iter()
                    .any(|s| s.to_lowercase().contains(w.as_str()))
            })
        })
        .collect();
    if json {
        print_json(&serde_json::to_value(&entries)?);
    } else {
        let rows: Vec<Vec<String>> = entries
            .iter()
            .map(|i| {
                vec![
                    i.name.clone(),
                    i.theory.clone(),
                    origin(i.origin).into(),
                    oeis_label(i),
                    implications(i, Basis::Prover).join(", "),
                ]
            })
            .collect();
        print!(
            "{}",
            table(
                &["entry", "theory", "from", "oeis", "implies (proved)"],
                &rows
            )
        );
        println!("{} entries", entries.len());
    }
    Ok(Outcome::Done)
}

fn show(name: &str, json: bool) -> anyhow::Result<Outcome> {
    let entry = catalogue::entry(name).or_else(|| {
        // The theory's own name (LeftBolLoop) finds its entry too.
        let t = catalogue::load(name).ok()?;
        catalogue::all()
            .into_iter()
            .find(|e| e.theory().is_ok_and(|u| u.name == t.name))
    });
    let Some(entry) = entry else {
        return Err(birkhoff_engine::Error::UnknownEntry(name.to_string()).into());
    };
    let info = catalogue::info(&entry)?;
    let theory = entry.theory()?;
    let seq = info.oeis.as_deref().and_then(oeis::get);
    if json {
        let sequence = seq.map(|s| json!({"id": s.id, "name": s.name, "offset": s.offset, "counts": s.counts, "terms": s.terms.iter().take(20).map(|t| t.to_string()).collect::<Vec<_>>()}));
        print_json(
            &json!({"entry": info, "file": entry.path(), "sequence": sequence, "text": theory.to_text()}),
        );
        return Ok(Outcome::Done);
    }
    println!("{} ({}, {})", info.name, info.theory, entry.path());
    println!("{}", info.doc);
    println!("reference: {}", info.reference);
    if let Some(s) = seq {
        let terms: Vec<String> = s.terms.iter().take(15).map(u128::to_string).collect();
        let shift = if info.oeis_shift == 0 {
            String::new()
        } else {
            format!("; models of order n = a(n{:+})", info.oeis_shift)
        };
        println!(
            "oeis: {} {} (from a({})): {}{shift}",
            s.id,
            s.name,
            s.offset,
            terms.join(", ")
        );
    }
    for (basis, what) in [
        (Basis::Prover, "implies (proved by the tests)"),
        (Basis::Literature, "implies (literature)"),
    ] {
        let list = implications(&info, basis);
        if !list.is_empty() {
            println!("{what}: {}", list.join(", "));
        }
    }
    println!();
    print!("{}", theory.to_text());
    Ok(Outcome::Done)
}
