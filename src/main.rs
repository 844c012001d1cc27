//! The `birkhoff` command line: a thin layer over the library crates. Each subcommand lives in
//! its own module under `commands/`; this file only parses arguments and maps outcomes to exit
//! codes.

// The process starts at the C `main` below, not through Rust's runtime: see `process`.
#![cfg_attr(not(test), no_main)]

mod commands;
mod interrupt;
mod output;
mod process;
mod slurm;

use clap::{Parser, Subcommand};

/// mimalloc instead of the system allocator: exploration builds and drops millions of small
/// terms and strings, and glibc's malloc spent about 40% of `explore`'s time on them
/// (docs/BENCHMARKS.md, issue 6). Built without transparent huge pages (see Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Birkhoff discovers finite algebraic structures: it reads first-order theories, finds and
/// counts their finite models, and checks structures against them.
#[derive(Parser)]
#[command(name = "birkhoff", version, about, long_about = None, propagate_version = true)]
struct Cli {
    /// Machine-readable JSON on stdout instead of tables.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

/// Each subcommand's arguments are built only when it is the one run (`defer`): building all
/// 25 took half a millisecond of every run, more than a small `find` spends searching. A deferred
/// build applies the argument struct's doc comment after the variant's, so those structs carry
/// plain `//` comments and the variant's doc below stays the subcommand's description (a test
/// compares each `--help` with the list of commands).
#[derive(Subcommand)]
#[command(defer = true)]
enum Command {
    /// List the seed theories with their signatures.
    Seeds(commands::seeds::Args),
    /// Print a theory (a seed or catalogue name, a theory file, or a discovery's name or ID).
    Show(commands::show::Args),
    /// Write a theory (and a goal) as a TPTP problem or LADR input.
    Export(commands::export::Args),
    /// Read a TPTP, LADR or Birkhoff file (told by its content) and print it in Birkhoff's format.
    Import(commands::import::Args),
    /// Parse and sort-check theory files, reporting every error.
    Check(commands::check::Args),
    /// Say whether a structure (JSON or Mace4 format) is a model of a theory.
    Eval(commands::eval::Args),
    /// Count the models of each size, up to isomorphism and labeled.
    Spectrum(commands::spectrum::Args),
    /// Print the models of one size, one per isomorphism class.
    Models(commands::models::Args),
    /// Find one model of a given size, or show that there is none.
    Find(commands::find::Args),
    /// What the models are made of: congruences, simple and subdirectly irreducible models, factors.
    Structure(commands::structure::Args),
    /// Prove or disprove a formula from a theory, with a checkable certificate or countermodel.
    Prove(commands::prove::Args),
    /// Guess equations from the small models of a theory and prove, refute or leave them open.
    Conjecture(commands::conjecture::Args),
    /// Are two theories the same class up to renaming: equal, equivalent, different or unknown?
    Equiv(commands::equiv::Args),
    /// What is this theory: the known theory it is, or the closest ones above and below it.
    Identify(commands::identify::Args),
    /// The catalogue of named classes: list them, or show one (docs/CATALOGUE.md).
    Catalogue(commands::catalogue::Args),
    /// Score a theory on the ten dimensions (docs/SCORING.md).
    Score(commands::score::Args),
    /// The interest score's fit on the catalogue: held-out figures, weights, training table.
    Calibrate(commands::calibrate::Args),
    /// Apply the structural moves (docs/MOVES.md) for some rounds and rank what they reach.
    Explore(commands::explore::Args),
    /// Batch spectrum sweep: many theories times many sizes, resumable, shardable.
    Sweep(Box<commands::sweep::Args>),
    /// The persistent library: search, show, stats, reindex.
    Library(commands::library::Args),
    /// Is this known? Search arXiv, Semantic Scholar, zbMATH Open and the OEIS; verify every reference.
    Literature(commands::literature::Args),
    /// A discovery's research workspace: open, status, validate, synthesize, step (docs/RESEARCH.md).
    Research(commands::research::Args),
    /// Re-verify every stored model, countermodel and certificate; exit 1 if any fails.
    Backtest(commands::backtest::Args),
    /// Research agent: cycles of PLAN, EXECUTE, INTERPRET, ACT with a report per cycle.
    Agent(commands::agent::Args),
    /// View cycle reports and the best discoveries, or write them as a web site (`report html`).
    Report(commands::report::Args),
    /// Serve the web site of `report html` on 127.0.0.1 for a local browser.
    Serve(commands::serve::Args),
    /// Write a discovery up as a LaTeX paper, compiled to PDF when pdflatex is installed.
    Paper(commands::paper::Args),
}

/// How a command ended, beyond success.
pub enum Outcome {
    /// The command did what was asked.
    Done,
    /// The answer is negative (for example: not a model) or incomplete; exit code 1.
    Negative,
    /// Ctrl-C stopped the command; what was finished is kept. Exit code 130.
    Interrupted,
}

/// The process's entry point, called by the C library's start with the arguments (which std
/// has already read, as it does before any `main`).
#[cfg_attr(not(test), unsafe(no_mangle))]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    process::run_to_exit(run)
}

/// Parses the arguments, runs the command and returns the exit code the README promises.
fn run() -> u8 {
    let cli = Cli::parse();
    let json = cli.json;
    let result = match cli.command {
        Command::Seeds(a) => commands::seeds::run(a, json),
        Command::Show(a) => commands::show::run(a, json),
        Command::Export(a) => commands::export::run(a, json),
        Command::Import(a) => commands::import::run(a, json),
        Command::Check(a) => commands::check::run(a, json),
        Command::Eval(a) => commands::eval::run(a, json),
        Command::Spectrum(a) => commands::spectrum::run(a, json),
        Command::Models(a) => commands::models::run(a, json),
        Command::Find(a) => commands::find::run(a, json),
        Command::Structure(a) => commands::structure::run(a, json),
        Command::Prove(a) => commands::prove::run(a, json),
        Command::Conjecture(a) => commands::conjecture::run(a, json),
        Command::Equiv(a) => commands::equiv::run(a, json),
        Command::Identify(a) => commands::identify::run(a, json),
        Command::Catalogue(a) => commands::catalogue::run(a, json),
        Command::Score(a) => commands::score::run(a, json),
        Command::Calibrate(a) => commands::calibrate::run(a, json),
        Command::Explore(a) => commands::explore::run(a, json),
        Command::Sweep(a) => commands::sweep::run(*a, json),
        Command::Library(a) => commands::library::run(a, json),
        Command::Literature(a) => commands::literature::run(a, json),
        Command::Research(a) => commands::research::run(a, json),
        Command::Backtest(a) => commands::backtest::run(a, json),
        Command::Agent(a) => commands::agent::run(a, json),
        Command::Report(a) => commands::report::run(a, json),
        Command::Serve(a) => commands::serve::run(a, json),
        Command::Paper(a) => commands::paper::run(a, json),
    };
    match result {
        Ok(Outcome::Done) => 0,
        Ok(Outcome::Negative) => 1,
        Ok(Outcome::Interrupted) => {
            eprintln!("interrupted: finished results are kept; rerun to continue");
            130
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            2
        }
    }
}
