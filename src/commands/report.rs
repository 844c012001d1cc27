//! `birkhoff report`: view cycle reports (`--cycle latest|N`, `list`), the best discoveries
//! (`--top K --sort-by score|novelty|date|DIMENSION`), and the whole library as a static web
//! site (`html --out DIR`, written by `birkhoff_viewer`).

use super::library::LibraryArg;
use crate::output::{print_json, table};
use crate::Outcome;
use anyhow::bail;
use birkhoff_agent::report::{markdown, CycleReport};
use birkhoff_library::record::{Body, Record};
use serde_json::json;
use std::path::PathBuf;

// Arguments of `birkhoff report`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Show one cycle's report: `latest` or its number.
    #[arg(long, value_name = "latest|N", conflicts_with = "top")]
    cycle: Option<String>,
    /// List the K best discoveries.
    #[arg(long, value_name = "K")]
    top: Option<usize>,
    /// Order for --top: score, novelty, date, or any score dimension.
    #[arg(long, value_name = "KEY", default_value = "score", requires = "top")]
    sort_by: String,
    #[command(flatten)]
    library: LibraryArg,
}

#[derive(clap::Subcommand)]
enum Command {
    /// List the cycle reports.
    List,
    /// Write the library as a static web site (no server, no network needed): the cycles, a
    /// page per cycle and per discovery, conjectures, derivations, references.
    Html {
        /// The site's directory (created if missing). Default: the library's `site/`.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let lib = a.library.open()?;
    match a.command {
        Some(Command::List) => return list(&lib, json),
        Some(Command::Html { out }) => return html(&lib, out, json),
        None => {}
    }
    if let Some(k) = a.top {
        return top(&lib, k, &a.sort_by, json);
    }
    let numbers = lib.report_numbers()?;
    let n = match a.cycle.as_deref().unwrap_or("latest") {
        "latest" => match numbers.last() {
            Some(n) => *n,
            None => bail!(
                "no reports yet in {} (run `birkhoff agent` first)",
                lib.root().display()
            ),
        },
        s => s.parse::<u64>().map_err(|_| {
            anyhow::anyhow!("--cycle: `{s}` is neither `latest` nor a cycle number")
        })?,
    };
    anyhow::ensure!(
        numbers.contains(&n),
        "--cycle {n}: no such report (reports: {})",
        if numbers.is_empty() {
            "none".into()
        } else {
            format!("1 to {}", numbers.last().unwrap_or(&0))
        }
    );
    if json {
        print_json(&lib.report(n)?);
    } else {
        let r = lib.cycle_report(n)?;
        // The Markdown without its code fences reads well in a terminal.
        let text: String = markdown(&r)
            .lines()
            .filter(|l| *l != "```text" && *l != "```")
            .map(|l| format!("{l}\n"))
            .collect();
        print!("{}", birkhoff_agent::text::printable(&text));
    }
    Ok(Outcome::Done)
}

fn list(lib: &birkhoff_library::Library, json: bool) -> anyhow::Result<Outcome> {
    let reports: Vec<CycleReport> = lib
        .report_numbers()?
        .into_iter()
        .filter_map(|n| lib.cycle_report(n).ok())
        .collect();
    if json {
        print_json(&json!(reports.iter().map(|r| json!({"cycle": r.cycle, "started": r.started, "goal": r.goal, "llm": r.llm, "discoveries": r.discoveries.len(), "conjectures": r.conjectures.len(), "faults": r.faults.len()})).collect::<Vec<_>>()));
    } else {
        let rows: Vec<Vec<String>> = reports
            .iter()
            .map(|r| {
                vec![
                    r.cycle.to_string(),
                    birkhoff_library::time::format_utc(r.started),
                    format!("{:.1}", r.seconds),
                    r.discoveries.len().to_string(),
                    r.conjectures.len().to_string(),
                    r.faults.len().to_string(),
                    r.goal.chars().take(50).collect(),
                ]
            })
            .collect();
        print!(
            "{}",
            table(
                &[
                    "cycle",
                    "started (UTC)",
                    "seconds",
                    "discoveries",
                    "conjectures",
                    "faults",
                    "goal"
                ],
                &rows
            )
        );
    }
    Ok(Outcome::Done)
}

/// Writes the site and says where: the number of pages and how to open them, or (`--json`) every
/// file written.
fn html(
    lib: &birkhoff_library::Library,
    out: Option<PathBuf>,
    json: bool,
) -> anyhow::Result<Outcome> {
    let out = out.unwrap_or_else(|| lib.root().join(birkhoff_viewer::SITE_DIR));
    let files = birkhoff_viewer::write(lib, &out)
        .map_err(|e| anyhow::anyhow!("--out {}: {e}", out.display()))?;
    let pages: Vec<String> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|x| x == "html"))
        .map(|f| f.display().to_string())
        .collect();
    if json {
        print_json(
            &json!({"dir": out.display().to_string(), "pages": pages, "files": files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>()}),
        );
    } else {
        println!(
            "wrote {} pages to {}: open {} in a browser, or run `birkhoff serve --dir {}`",
            pages.len(),
            out.display(),
            out.join("index.html").display(),
            out.display()
        );
    }
    Ok(Outcome::Done)
}

/// The sort key of a discovery: its total score, a score dimension, or its date.
fn key(r: &Record, by: &str) -> Option<f64> {
    let Body::Theory(t) = &r.body else {
        return None;
    };
    match by {
        "date" => Some(r.created as f64),
        "score" => t.score.as_ref().map(|s| s.total),
        dim => t.score.as_ref().and_then(|s| s.dims.get(dim).copied()),
    }
}

fn top(lib: &birkhoff_library::Library, k: usize, by: &str, json: bool) -> anyhow::Result<Outcome> {
    let mut found = lib.discoveries()?;
    let dims: std::collections::BTreeSet<String> = found
        .iter()
        .filter_map(|r| {
            if let Body::Theory(t) = &r.body {
                t.score.as_ref()
            } else {
                None
            }
        })
        .flat_map(|s| s.dims.keys().cloned())
        .collect();
    // A dimension by its exact name, or the one dimension whose name contains the word
    // (`novelty` finds `spectrum_novelty`).
    let containing: Vec<&String> = dims.iter().filter(|d| d.contains(by)).collect();
    let by: &str = match by {
        "score" | "date" => by,
        _ if dims.contains(by) => by,
        _ if containing.len() == 1 => containing[0].as_str(),
        "novelty" if dims.is_empty() => by,
        _ => bail!(
            "--sort-by {by}: use score, date{}",
            dims.iter().map(|d| format!(", {d}")).collect::<String>()
        ),
    };
    // Highest first; records without the key last; ties by name.
    birkhoff_library::record::rank(&mut found, |r| key(r, by));
    found.truncate(k);
    if json {
        print_json(&serde_json::to_value(&found)?);
        return Ok(Outcome::Done);
    }
    let rows: Vec<Vec<String>> = found
        .iter()
        .map(|r| {
            let shown = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.3}"));
            vec![
                r.body.name(),
                r.id.clone(),
                shown(key(r, "score")),
                if by == "score" || by == "date" {
                    "-".into()
                } else {
                    shown(key(r, by))
                },
                birkhoff_library::time::format_utc(r.created),
            ]
        })
        .collect();
    let col = if by == "score" || by == "date" {
        "-"
    } else {
        by
    };
    print!(
        "{}",
        table(&["discovery", "id", "score", col, "added (UTC)"], &rows)
    );
    Ok(Outcome::Done)
}
