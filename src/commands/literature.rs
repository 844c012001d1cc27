//! `birkhoff literature`: is this known? Searches arXiv, Semantic Scholar, zbMATH Open and the
//! OEIS for a theory, a phrase or a spectrum, verifies every reference, and writes LITERATURE.md
//! in the library (docs/LITERATURE.md).

use super::library::LibraryArg;
use crate::output::{print_json, table};
use crate::Outcome;
use birkhoff_agent::text::line;
use birkhoff_literature::{subject, Config, Status};
use serde_json::json;

// Arguments of `birkhoff literature`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("subject").required(true).args(["theory", "query", "spectrum"])))]
pub struct Args {
    /// A theory: a seed or catalogue name, a theory file, or a discovery's name or ID (thy-...).
    #[arg(long, value_name = "THEORY")]
    theory: Option<String>,
    /// Free text to search for.
    #[arg(long, value_name = "TEXT")]
    query: Option<String>,
    /// Counts of models of sizes 1, 2, ... to look up in the OEIS (at least 4 terms).
    #[arg(long, value_name = "N,N,...", value_delimiter = ',')]
    spectrum: Option<Vec<u64>>,
    /// Never use the network: answer from the library's cache only.
    #[arg(long)]
    offline: bool,
    /// Ask the network again even for requests the cache has answered.
    #[arg(long, conflicts_with = "offline")]
    refresh: bool,
    #[command(flatten)]
    library: LibraryArg,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let lib = a.library.open()?;
    let subject = if let Some(name) = &a.theory {
        let t = super::resolve_theory(name, Some(lib.root()))
            .map_err(|e| anyhow::anyhow!("--theory {name}: {e}"))?;
        subject::of_theory_in(&lib, &t)
    } else if let Some(q) = &a.query {
        anyhow::ensure!(
            !q.trim().is_empty(),
            "--query: give some words to search for"
        );
        subject::of_query(q)
    } else {
        let terms = a.spectrum.clone().unwrap_or_default();
        anyhow::ensure!(
            terms.len() >= birkhoff_literature::query::MIN_OEIS_TERMS,
            "--spectrum: give at least {} terms (fewer match thousands of sequences)",
            birkhoff_literature::query::MIN_OEIS_TERMS
        );
        subject::of_spectrum(&terms)
    };
    let mut config = Config::from_env();
    config.offline |= a.offline;
    config.refresh = a.refresh;
    if !json {
        eprintln!(
            "literature for {} ({})",
            line(&subject.title, usize::MAX),
            subject.key
        );
    }
    let out = birkhoff_literature::search(lib.root(), &subject, config, &mut |l: &str| {
        eprintln!("  {}", line(l, usize::MAX))
    })?;
    let complete = out.sources.iter().all(|s| s.errors.is_empty());
    if json {
        print_json(&json!({ "outcome": out, "complete": complete }));
    } else {
        let rows: Vec<Vec<String>> = out
            .confirmed
            .iter()
            .map(|r| {
                vec![
                    r.number.clone(),
                    r.paper.year.map_or("-".into(), |y| y.to_string()),
                    r.paper.authors.join(", "),
                    r.paper.title.clone(),
                ]
            })
            .collect();
        println!("confirmed references ({}):", rows.len());
        print!("{}", table(&["ref", "year", "authors", "title"], &rows));
        if !out.unconfirmed.is_empty() {
            println!("unconfirmed, not to be cited ({}):", out.unconfirmed.len());
            for r in &out.unconfirmed {
                let why = match &r.status {
                    Status::Unconfirmed { reason } => reason.as_str(),
                    Status::Confirmed { .. } => "",
                };
                // Titles and reasons come from the sources or from a language model's proposal.
                println!(
                    "  {}",
                    line(
                        &format!("{}: {} -- {why}", r.number, r.paper.title),
                        usize::MAX
                    )
                );
            }
        }
        for m in &out.oeis {
            println!(
                "OEIS: the {} spectrum {:?} occurs in {} ({})",
                m.spectrum,
                m.terms,
                m.sequence.a_number,
                line(&m.sequence.name, usize::MAX)
            );
        }
        for miss in &out.oeis_misses {
            println!("OEIS: {miss:?} is not in the OEIS");
        }
        println!("written {}", out.literature_md.display());
        if !complete {
            println!(
                "incomplete: some queries failed (see the lines above and the search history)"
            );
        }
    }
    Ok(if complete {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}
