//! The `--engine` flag shared by `spectrum`, `models`, `find` and `sweep`, and the `--verbose`
//! flag of the three that count; the choice itself is made in `birkhoff_checker::router`.

use birkhoff_checker::router::{self, Engine};

// Which engine answers.
#[derive(clap::Args, Clone, Copy)]
pub struct EngineArgs {
    /// native: Birkhoff's finder; sat: the SAT back end (CaDiCaL); z3: the Z3 backend; auto:
    /// chosen per theory and size, `find` races native and sat (see docs/ARCHITECTURE.md,
    /// router); both: run every engine, within one time limit they share, and fail on any
    /// disagreement.
    #[arg(long, value_name = "ENGINE", default_value = "auto", value_parser = parse_engine)]
    pub engine: Engine,
}

// Whether a counting command says which engine answered each count.
#[derive(clap::Args, Clone, Copy)]
pub struct VerboseArgs {
    /// Say on stderr, for each count, which engine answered and why (under `auto`, what the
    /// race between the native finder and SAT showed).
    #[arg(short, long)]
    pub verbose: bool,
}

impl VerboseArgs {
    /// Under `--verbose`, the line on stderr saying which engine answered the count of `what`
    /// (such as `size 5`) and why; printed above `bar`, the command's progress bar if it has one,
    /// which would otherwise draw over it.
    pub fn tell(
        &self,
        bar: Option<&indicatif::ProgressBar>,
        what: &str,
        choice: &router::Choice,
        seconds: f64,
    ) {
        if !self.verbose {
            return;
        }
        let say = || {
            eprintln!(
                "{what}: {} answered in {seconds:.3} s ({})",
                router::name(choice.engine),
                choice.reason
            )
        };
        match bar {
            Some(bar) => bar.suspend(say),
            None => say(),
        }
    }
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse()
}

impl EngineArgs {
    /// What to say of an answer under `--engine both`: every engine built in ran and none
    /// contradicted it (a contradiction is an error, never an answer). It does not say they
    /// agreed: an engine cut short by the budget confirms nothing (`spectrum` says, per size,
    /// which counts were compared).
    pub fn cross_check(&self) -> Option<&'static str> {
        (self.engine == Engine::Both).then_some("every engine built in (native, SAT and, with the z3 feature, Z3) ran within one time limit and none contradicted this answer; an engine cut short confirms nothing")
    }
}
