//! `birkhoff library`: search, show, stats and reindex of the persistent library.

use crate::output::{print_json, table};
use crate::Outcome;
use birkhoff_agent::report::bars;
use birkhoff_engine::{tables, Structure, Theory};
use birkhoff_library::record::Body;
use birkhoff_library::Library;
use serde_json::json;
use std::path::PathBuf;

// The `--library DIR` flag shared by every command that uses the library.
#[derive(clap::Args, Clone)]
pub struct LibraryArg {
    /// The library directory (created if missing). Default: $BIRKHOFF_LIBRARY, else
    /// ./birkhoff-library.
    #[arg(long = "library", value_name = "DIR", global = true)]
    pub dir: Option<PathBuf>,
}

impl LibraryArg {
    /// The library's directory, which may not exist yet.
    pub fn path(&self) -> PathBuf {
        self.dir
            .clone()
            .unwrap_or_else(birkhoff_library::default_dir)
    }

    /// Opens the library, naming the flag if it cannot be opened.
    pub fn open(&self) -> anyhow::Result<Library> {
        let dir = self.path();
        Library::open(&dir).map_err(|e| anyhow::anyhow!("--library {}: {e}", dir.display()))
    }
}

// Arguments of `birkhoff library`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    library: LibraryArg,
}

// These doc comments are the commands' --help text, which clap prints as written: `<slug>` is a
// placeholder there, not an HTML tag, and escaping it for rustdoc would show in the help.
#[allow(rustdoc::invalid_html_tags)]
#[derive(clap::Subcommand)]
enum Command {
    /// Full-text search: records containing every word of QUERY, best match first.
    Search {
        /// Words to look for (an empty query lists everything).
        #[arg(value_name = "QUERY")]
        query: String,
        /// Keep only theories whose score is at least this.
        #[arg(long, value_name = "X")]
        min_score: Option<f64>,
        /// At most this many results.
        #[arg(long, value_name = "N", default_value_t = 50)]
        limit: usize,
    },
    /// Print one record: theories with their axioms and scores, models as Cayley tables; or a
    /// research document search found, by its path.
    Show {
        /// The record's ID, such as thy-0123456789abcdef, or a research document's path as
        /// search lists it (research/<slug>/SYNTHESIS.md).
        #[arg(value_name = "ID")]
        id: String,
    },
    /// Count the records of each kind and the reports.
    Stats,
    /// Rebuild the SQLite index from the record files.
    Reindex,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let mut lib = a.library.open()?;
    match a.command {
        Command::Search {
            query,
            min_score,
            limit,
        } => {
            if let Some(x) = min_score {
                anyhow::ensure!(x.is_finite(), "--min-score: `{x}` is not a number");
            }
            let hits = lib.search(&query, min_score, limit)?;
            if json {
                print_json(&serde_json::to_value(&hits)?);
            } else {
                let rows: Vec<Vec<String>> = hits
                    .iter()
                    .map(|h| {
                        vec![
                            h.id.clone(),
                            h.kind.clone(),
                            h.score.map_or("-".into(), |s| format!("{s:.3}")),
                            h.name.clone(),
                        ]
                    })
                    .collect();
                print!("{}", table(&["id", "kind", "score", "name"], &rows));
                eprintln!("{} result(s)", hits.len());
            }
            Ok(if hits.is_empty() {
                Outcome::Negative
            } else {
                Outcome::Done
            })
        }
        Command::Show { id } => {
            // A research document found by search is shown by its path, if it is one the index
            // holds (so no path can lead out of the library).
            if let Some(doc) = birkhoff_library::documents::scan(lib.root())?
                .into_iter()
                .find(|d| d.path == id)
            {
                if json {
                    print_json(
                        &json!({ "id": doc.path, "kind": doc.kind, "name": doc.title, "text": doc.text }),
                    );
                } else {
                    print!("{}", birkhoff_agent::text::printable(&doc.text));
                }
                return Ok(Outcome::Done);
            }
            let rec = lib.get(&id).map_err(|e| anyhow::anyhow!("ID {id}: {e}"))?;
            // A theory's references, as the literature agent numbered them (docs/LITERATURE.md).
            let refs = match &rec.body {
                Body::Theory(_) => birkhoff_literature::Store::new(lib.root())
                    .load()
                    .map_err(|e| anyhow::anyhow!("{e}"))?
                    .of_subject(&rec.id)
                    .into_iter()
                    .cloned()
                    .collect(),
                _ => Vec::new(),
            };
            if json {
                let mut v = serde_json::to_value(&rec)?;
                if matches!(rec.body, Body::Theory(_)) {
                    v["references"] = serde_json::to_value(&refs)?;
                }
                print_json(&v);
            } else {
                // Names, notes and statements are hand-edited or a language model's (docs/AGENT.md).
                print!(
                    "{}",
                    birkhoff_agent::text::printable(&render(&lib, &rec.body))
                );
                if matches!(rec.body, Body::Theory(_)) {
                    print!("{}", references(&refs));
                }
            }
            Ok(Outcome::Done)
        }
        Command::Stats => {
            let counts = lib.stats()?;
            let reports = lib.report_numbers()?.len();
            if json {
                let m: serde_json::Map<String, serde_json::Value> =
                    counts.iter().map(|(k, n)| (k.clone(), json!(n))).collect();
                print_json(
                    &json!({ "library": lib.root().display().to_string(), "records": m, "reports": reports }),
                );
            } else {
                println!("library {}", lib.root().display());
                let mut rows: Vec<Vec<String>> = counts
                    .iter()
                    .map(|(k, n)| vec![k.clone(), n.to_string()])
                    .collect();
                rows.push(vec!["report".into(), reports.to_string()]);
                print!("{}", table(&["kind", "count"], &rows));
            }
            Ok(Outcome::Done)
        }
        Command::Reindex => {
            let n = lib.reindex()?;
            if json {
                print_json(&json!({ "indexed": n }));
            } else {
                println!("indexed {n} record(s) from {}", lib.root().display());
            }
            Ok(Outcome::Done)
        }
    }
}

/// A theory's references: confirmed ones (citable), then unconfirmed ones set apart.
fn references(refs: &[birkhoff_literature::Reference]) -> String {
    if refs.is_empty() {
        return "references: not searched (`birkhoff literature --theory ID`)\n".to_string();
    }
    let mut out = String::from("references:\n");
    for r in refs.iter().filter(|r| r.is_confirmed()) {
        out += &format!(
            "  {} {} ({}), {}\n",
            r.number,
            r.paper.title,
            r.paper.year.map_or("n.d.".into(), |y| y.to_string()),
            r.paper.authors.join(", ")
        );
    }
    for r in refs.iter().filter(|r| !r.is_confirmed()) {
        if let birkhoff_literature::Status::Unconfirmed { reason } = &r.status {
            out += &format!(
                "  {} {} -- unconfirmed, not to be cited: {reason}\n",
                r.number, r.paper.title
            );
        }
    }
    // Titles, authors and reasons come from the sources or from a language model's proposal.
    birkhoff_agent::text::printable(&out)
}

/// A record for people: theories as text with scores, models as Cayley tables.
fn render(lib: &Library, body: &Body) -> String {
    match body {
        Body::Theory(t) => {
            let mut out = format!(
                "{}{}\norigin: {}\n",
                if t.discovery { "discovery: " } else { "" },
                t.name,
                t.origin
            );
            if let Some(s) = &t.score {
                out += &format!(
                    "score: {:.3} ({})\n",
                    s.total,
                    s.dims
                        .iter()
                        .map(|(k, v)| format!("{k} {v:.2}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            if !t.notes.is_empty() {
                out += &format!("notes: {}\n", t.notes);
            }
            out += &format!("\n{}", t.text);
            let id = body.id();
            let spectrum = lib.spectrum_of(&id).unwrap_or_default();
            if !spectrum.is_empty() {
                // Merged from every spectrum record of the theory, as every view shows it.
                out += &format!("\nspectrum, models up to isomorphism:\n{}", bars(&spectrum));
            }
            let models = lib.models_of(&id).unwrap_or_default().len();
            out + &format!(
                "\n{models} stored model(s); `birkhoff library search {}` lists them\n",
                t.name
            )
        }
        Body::Spectrum(sp) => format!(
            "spectrum of {} ({}), models up to isomorphism:\n{}",
            sp.theory_name,
            sp.theory_id,
            bars(&sp.rows)
        ),
        Body::Model(m) => {
            let theory = lib.get(&m.theory_id).ok().and_then(|r| match r.body {
                Body::Theory(t) => Theory::parse(&t.text, &m.theory_id).ok(),
                _ => None,
            });
            let tables = theory.and_then(|t| {
                Structure::from_json(&t.sig, &m.structure)
                    .ok()
                    .map(|s| tables::cayley(&t.sig, &s))
            });
            format!(
                "model of {} ({})\n{}",
                m.theory_name,
                m.theory_id,
                tables.unwrap_or_else(|| format!("{:#}\n", m.structure))
            )
        }
        Body::Proof(p) => match lib.readable_proof(p, std::time::Duration::from_secs(5)) {
            Ok(text) => format!(
                "proof of {} ({}) by {}\n{text}",
                p.statement, p.theory_id, p.prover
            ),
            Err(why) => format!(
                "proof of {} ({}) by {} (not rendered: {why})\n{}\n",
                p.statement,
                p.theory_id,
                p.prover,
                serde_json::to_string(&p.certificate).unwrap_or_default()
            ),
        },
        other => format!(
            "{}\n{}\n",
            other.name(),
            serde_json::to_string_pretty(other).unwrap_or_default()
        ),
    }
}
