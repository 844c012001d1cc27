//! `birkhoff research`: a discovery's research workspace (docs/RESEARCH.md): open it, see its
//! state, validate and synthesize its records, run its next step.

use super::library::LibraryArg;
use crate::output::{print_json, table};
use crate::Outcome;
use birkhoff_agent::CliLlm;
use birkhoff_library::Library;
use birkhoff_research::record::Outcome as StepOutcome;
use birkhoff_research::steps::{self, Options};
use birkhoff_research::{Error, Kind, Phase, Problem, Workspace};
use serde_json::json;

// Arguments of `birkhoff research`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    library: LibraryArg,
}

// These doc comments are the commands' --help text, which clap prints as written: `<library>` is a
// placeholder there, not an HTML tag, and escaping it for rustdoc would show in the help.
#[allow(rustdoc::invalid_html_tags)]
#[derive(clap::Subcommand)]
enum Command {
    /// Make the workspace <library>/research/<slug>/ of a discovery (PROBLEM.md, LITERATURE.md,
    /// PROOF.md, COMPUTATION.md, STATE.md, SYNTHESIS.md and records/), with a hypothesis for
    /// each of the library's conjectures about it. Opening again completes what is missing.
    #[command(group(clap::ArgGroup::new("which").required(true).args(["discovery", "best"])))]
    Open {
        /// The discovery: its name, an alias, or its record ID (thy-...).
        #[arg(value_name = "DISCOVERY")]
        discovery: Option<String>,
        /// The discovery `report --top` lists first (the best scored), as `paper --best` picks it.
        #[arg(long)]
        best: bool,
    },
    /// The state of one workspace, or of all: the next step and why, and the records.
    Status {
        /// The workspace's name (its directory under <library>/research/); all when left out.
        #[arg(value_name = "SLUG")]
        slug: Option<String>,
    },
    /// Check every record against the schema; exit 1 listing each problem with its file and field.
    Validate {
        /// The workspace's name; all when left out.
        #[arg(value_name = "SLUG")]
        slug: Option<String>,
    },
    /// Rewrite SYNTHESIS.md and STATE.md from the records (deterministic: the same records give
    /// the same bytes); exit 1 if a record breaks the schema.
    Synthesize {
        /// The workspace's name; all when left out.
        #[arg(value_name = "SLUG")]
        slug: Option<String>,
    },
    /// Run the next step STATE.md routes to (or --phase): literature, proof, computation or
    /// writing. Exit 1 when the step settled nothing or could not run.
    Step {
        /// The workspace's name; may be left out when the library has only one.
        #[arg(value_name = "SLUG")]
        slug: Option<String>,
        /// Run this phase instead of the routed one.
        #[arg(long, value_name = "PHASE", value_parser = parse_phase)]
        phase: Option<Phase>,
        /// Who chooses the step: `offline` (the deterministic router) or `claude` (the model
        /// proposes the phase and new hypotheses, tasks and leads; a bad reply, twice, leaves
        /// the choice to the router).
        #[arg(long, value_name = "LLM", default_value = "offline", value_parser = ["offline", "claude"])]
        llm: String,
        /// With --llm claude: which program, model and effort.
        #[command(flatten)]
        model: super::agent::ModelFlags,
        /// With --llm claude: seconds the model may take, retry included.
        #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
        llm_timeout: u64,
        /// Computation: seconds for each size counted.
        #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds, default_value = "20")]
        per_size: std::time::Duration,
        /// Proof: a hypothesis's prover time in its first round (doubled each later round).
        #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds, default_value = "5")]
        prove_timeout: std::time::Duration,
        /// Literature: never use the network, answer from the library's cache only.
        #[arg(long)]
        offline: bool,
    },
}

fn parse_phase(s: &str) -> Result<Phase, String> {
    [
        Phase::Literature,
        Phase::Proof,
        Phase::Computation,
        Phase::Writing,
    ]
    .into_iter()
    .find(|p| p.name() == s)
    .ok_or_else(|| format!("`{s}` is not a phase (literature, proof, computation, writing)"))
}

/// The workspaces named by an optional SLUG argument.
fn chosen(lib: &Library, slug: Option<&str>) -> anyhow::Result<Vec<Workspace>> {
    match slug {
        Some(s) => Ok(vec![
            Workspace::open(lib.root(), s).map_err(|e| anyhow::anyhow!("SLUG {s}: {e}"))?
        ]),
        None => Ok(Workspace::all(lib.root())?),
    }
}

fn print_problems(problems: &[Problem]) {
    for p in problems {
        println!("  {}", birkhoff_research::text::printable(&p.to_string()));
    }
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let mut lib = a.library.open()?;
    match a.command {
        Command::Open { discovery, best } => {
            let discovery = match discovery {
                Some(d) => d,
                None => {
                    debug_assert!(best, "clap requires DISCOVERY or --best");
                    birkhoff_paper::best_discovery(&lib)?.ok_or_else(|| {
                        anyhow::anyhow!(
                            "--best: the library has no discovery yet (run `birkhoff agent` first)"
                        )
                    })?
                }
            };
            let (ws, fresh) = Workspace::create(&mut lib, &discovery).map_err(|e| {
                anyhow::anyhow!(
                    "DISCOVERY {}: {e}",
                    birkhoff_research::text::quote(&discovery)
                )
            })?;
            let route = steps::refresh(&mut lib, &ws)?;
            if json {
                print_json(
                    &json!({ "slug": ws.slug, "dir": ws.dir, "created": fresh, "next": route }),
                );
            } else {
                println!(
                    "{} {}",
                    if fresh { "opened" } else { "already open:" },
                    ws.dir.display()
                );
                println!("next step: {} ({})", route.phase.name(), route.reason);
            }
            Ok(Outcome::Done)
        }
        Command::Status { slug } => {
            let mut out = Vec::new();
            for ws in chosen(&lib, slug.as_deref())? {
                let loaded = ws.load()?;
                let meta = ws.meta()?;
                let route = birkhoff_research::route(&steps::facts(&lib, &ws, &loaded)?);
                let counts: serde_json::Map<String, serde_json::Value> = Kind::ALL
                    .iter()
                    .map(|k| (k.dir().to_string(), json!(loaded.of(*k).count())))
                    .collect();
                let files: Vec<&str> = birkhoff_research::workspace::FILES
                    .iter()
                    .copied()
                    .filter(|f| ws.dir.join(f).is_file())
                    .collect();
                out.push(json!({ "slug": ws.slug, "discovery": meta.discovery, "theory_id": meta.theory_id, "next": route, "records": counts, "problems": loaded.problems.len(), "files": files }));
            }
            if json {
                print_json(&json!(out));
            } else if out.is_empty() {
                println!("no research workspace yet: `birkhoff research open DISCOVERY` makes one");
            } else {
                let rows: Vec<Vec<String>> = out
                    .iter()
                    .map(|w| {
                        let n = |k: &str| w["records"][k].to_string();
                        vec![
                            w["slug"].as_str().unwrap_or("").into(),
                            w["next"]["phase"].as_str().unwrap_or("").into(),
                            n("hypotheses"),
                            n("tasks"),
                            n("leads"),
                            n("attempts"),
                            w["problems"].to_string(),
                        ]
                    })
                    .collect();
                print!(
                    "{}",
                    table(
                        &[
                            "workspace",
                            "next",
                            "hypotheses",
                            "tasks",
                            "leads",
                            "attempts",
                            "problems"
                        ],
                        &rows
                    )
                );
                for w in &out {
                    println!(
                        "{}: {}",
                        w["slug"].as_str().unwrap_or(""),
                        w["next"]["reason"].as_str().unwrap_or("")
                    );
                }
            }
            Ok(Outcome::Done)
        }
        Command::Validate { slug } => {
            let mut all = Vec::new();
            for ws in chosen(&lib, slug.as_deref())? {
                all.push((ws.slug.clone(), ws.load()?.problems));
            }
            let bad: usize = all.iter().map(|(_, p)| p.len()).sum();
            if json {
                print_json(
                    &json!({ "valid": bad == 0, "workspaces": all.iter().map(|(s, p)| json!({ "slug": s, "problems": p })).collect::<Vec<_>>() }),
                );
            } else {
                for (s, p) in &all {
                    println!(
                        "{s}: {}",
                        if p.is_empty() {
                            "valid".to_string()
                        } else {
                            format!("{} problem(s)", p.len())
                        }
                    );
                    print_problems(p);
                }
            }
            Ok(if bad == 0 {
                Outcome::Done
            } else {
                Outcome::Negative
            })
        }
        Command::Synthesize { slug } => {
            let mut failed = false;
            for ws in chosen(&lib, slug.as_deref())? {
                match steps::refresh(&mut lib, &ws) {
                    Ok(_) if !json => println!("written {}", ws.dir.join("SYNTHESIS.md").display()),
                    Ok(_) => {}
                    Err(Error::Invalid(p)) => {
                        failed = true;
                        eprintln!(
                            "{}: SYNTHESIS.md left as it was: {} record problem(s)",
                            ws.slug,
                            p.len()
                        );
                        print_problems(&p);
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            Ok(if failed {
                Outcome::Negative
            } else {
                Outcome::Done
            })
        }
        Command::Step {
            slug,
            phase,
            llm,
            model: flags,
            llm_timeout,
            per_size,
            prove_timeout,
            offline,
        } => {
            let ws = match slug {
                Some(slug) => Workspace::open(lib.root(), &slug)
                    .map_err(|e| anyhow::anyhow!("SLUG {slug}: {e}"))?,
                None => {
                    let mut all = Workspace::all(lib.root())?;
                    anyhow::ensure!(all.len() == 1, "SLUG: the library has {} research workspaces; name one (`birkhoff research status` lists them)", all.len());
                    all.remove(0)
                }
            };
            let mut literature = birkhoff_literature::Config::from_env();
            literature.offline |= offline;
            let opts = Options {
                per_size,
                prove_base: prove_timeout,
                literature,
                cancel: Some(crate::interrupt::flag()),
            };
            let mut progress =
                |line: &str| eprintln!("{}", birkhoff_research::text::printable(line));
            let chosen = if llm == "claude" {
                anyhow::ensure!(
                    phase.is_none(),
                    "--phase: with --llm claude the model chooses the phase; leave one of them out"
                );
                let timeout = std::time::Duration::from_secs(llm_timeout);
                let model = match &flags.llm_command {
                    Some(cmd) => CliLlm::command(cmd, &flags.model, &flags.effort, timeout)
                        .map_err(|e| anyhow::anyhow!("--llm-command: {e}"))?,
                    None => CliLlm::claude(&flags.model, &flags.effort, timeout),
                };
                let flag = if flags.llm_command.is_some() {
                    "--llm-command"
                } else {
                    "--llm claude"
                };
                anyhow::ensure!(super::agent::installed(&model.program), "{flag}: `{}` is not installed; install it (docs/AGENT.md) or use --llm offline", model.program);
                let model = CliLlm {
                    cancel: Some(crate::interrupt::flag()),
                    ..model
                };
                birkhoff_agent::research::step(&model, &mut lib, &ws, &opts, &mut progress).map(
                    |o| {
                        for f in &o.faults {
                            eprintln!("fault: {}", birkhoff_research::text::printable(f));
                        }
                        eprintln!(
                            "chosen by {}: {}",
                            o.chosen_by,
                            birkhoff_research::text::printable(&o.why)
                        );
                        o.report
                    },
                )
            } else {
                steps::run(&mut lib, &ws, phase, &opts, &mut progress)
            };
            let report = match chosen {
                Ok(r) => r,
                Err(Error::Invalid(p)) => {
                    eprintln!("{}: no step runs while records break the schema:", ws.slug);
                    print_problems(&p);
                    return Ok(Outcome::Negative);
                }
                Err(e) => return Err(e.into()),
            };
            if json {
                print_json(&serde_json::to_value(&report)?);
            } else {
                println!(
                    "{} step{}: {}",
                    report.phase.name(),
                    report
                        .attempt
                        .as_ref()
                        .map(|a| format!(" ({a})"))
                        .unwrap_or_default(),
                    birkhoff_research::text::printable(&report.summary)
                );
                println!(
                    "next step: {} ({})",
                    report.next.phase.name(),
                    report.next.reason
                );
            }
            if crate::interrupt::requested() {
                return Ok(Outcome::Interrupted);
            }
            Ok(if report.outcome == StepOutcome::Failed {
                Outcome::Negative
            } else {
                Outcome::Done
            })
        }
    }
}
