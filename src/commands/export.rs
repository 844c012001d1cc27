//! `birkhoff export`: a theory (and a goal) in another prover's language, TPTP or LADR.

use crate::output::print_json;
use crate::Outcome;
use birkhoff_engine::interop::{self, Target, CONJECTURE_META};
use birkhoff_engine::parse::parse_formula;
use serde_json::json;

/// The languages `export` writes.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum To {
    /// TPTP: FOF for one sort, TFF for several; the goal as a conjecture.
    Tptp,
    /// LADR's default syntax (Prover9, Mace4); one sort only.
    Ladr,
}

// Arguments of `birkhoff export`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name, a theory file (any format `import` reads), or a discovery's
    /// name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// The language to write.
    #[arg(long, value_enum)]
    to: To,
    /// A goal in the theory's signature, written as the conjecture (TPTP) or goal (LADR). It is
    /// read in the syntax of the theory's file (LADR's for a LADR file, as `prove`'s GOAL).
    /// Without it, the theory's own conjecture (`meta conjecture`, as `import` keeps one), if any.
    #[arg(long, value_name = "FORMULA")]
    goal: Option<String>,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.library.load(&a.theory)?;
    let goal = match (&a.goal, t.meta.get(CONJECTURE_META)) {
        (Some(g), _) => Some(super::parse_goal(&a.theory, &t, g, "--goal")?),
        (None, Some(g)) => Some(parse_formula(&t.sig, g, "meta conjecture")?),
        (None, None) => None,
    };
    let to = match a.to {
        To::Tptp => Target::Tptp,
        To::Ladr => Target::Ladr,
    };
    let text = interop::export(&t, goal.as_ref(), to)?;
    if json {
        let lang = match a.to {
            To::Tptp if t.sig.is_single_sorted() => "tptp-fof",
            To::Tptp => "tptp-tff",
            To::Ladr => "ladr",
        };
        print_json(
            &json!({ "theory": t.name, "language": lang, "has_goal": goal.is_some(), "text": text }),
        );
    } else {
        print!("{text}");
    }
    Ok(Outcome::Done)
}
