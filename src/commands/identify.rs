//! `birkhoff identify THEORY`: what is this theory? The same class as a known theory (a seed, a
//! catalogue entry or a discovery of the library), new (told apart from each by its spectrum or
//! another class invariant), or unknown (possibly some known theories with its spectrum); the
//! verdict against each known theory is the one `birkhoff equiv` gives for the pair (one function,
//! one budget rule). Unless known, the closest known theories above it (which it implies) and
//! below it (which imply it), each implication proved and each strictness shown by a
//! countermodel where the small models show one; and its spectrum with the OEIS sequences it
//! matches (the shipped file's and those the library's literature runs found online). Exit codes:
//! 0 placed, 1 unknown, 2 error, 130 interrupted.

use super::equiv::map_text;
use crate::output::print_json;
use crate::Outcome;
use birkhoff_checker::{
    finder::{enumerate_up_to, Options as FinderOptions},
    prover::{equivalence::Implication, Options},
    Budget, SpectrumRow,
};
use birkhoff_scorer::identify::{identify, Known, Neighbour, Reference, Standing};
use std::time::Duration;

// Arguments of `birkhoff identify`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit codes: 0 placed, 1 undecided against some known theory, 2 error, 130 interrupted."
)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// Time the prover may spend on each axiom, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "2", value_parser = super::parse_seconds)]
    timeout: Duration,
    /// Compute the spectrum up to this size (each size within --spectrum-timeout).
    #[arg(long, value_name = "N", default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=12))]
    max_size: u32,
    /// Seconds for each size of the spectrum; a size cut short ends it, shown as a lower bound.
    #[arg(long, value_name = "SECONDS", default_value = "2", value_parser = super::parse_seconds)]
    spectrum_timeout: Duration,
    /// Its --library is also the one whose literature runs found OEIS sequences online.
    #[command(flatten)]
    goals: super::GoalArgs,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.goals.load(&a.theory)?;
    let cancel = Some(crate::interrupt::flag());
    let opts = Options::for_verdicts(a.timeout, cancel.clone());
    let budget = Budget {
        time: Some(a.spectrum_timeout),
        nodes: None,
        models: Some(100_000),
        cancel: cancel.clone(),
        progress: None,
    };
    let spectrum = enumerate_up_to(&t, a.max_size, &budget, FinderOptions::counts_only())?;
    let mut known = Known::builtin();
    known.extend(discoveries(&a.goals.library.path(), &a.theory)?);
    let reference = Reference::new(known, cancel);
    // Its models and counts by the budget rule every comparison uses, as `equiv` makes them.
    let side = reference.side_of(&t)?;
    let found = identify(&side, &reference, &opts)?;
    if crate::interrupt::requested() {
        return Ok(Outcome::Interrupted);
    }
    let spectrum_rows: Vec<SpectrumRow> = spectrum.iter().map(SpectrumRow::of).collect();
    // The shipped sequences and those the OEIS named in the library's earlier literature runs
    // (docs/LITERATURE.md): a sequence found online once is recognized here without the network.
    let sequences = birkhoff_literature::Store::new(&a.goals.library.path()).offline_sequences();
    let oeis = birkhoff_checker::oeis::recognise_in(&spectrum_rows, &sequences);
    if json {
        let mut v = serde_json::to_value(&found)?;
        v["summary"] = found.standing.describe().into();
        v["spectrum"] = serde_json::to_value(&spectrum_rows)?;
        v["oeis"] = serde_json::to_value(&oeis)?;
        print_json(&v);
    } else {
        println!("{}: {}", t.name, found.standing.describe());
        let points: Vec<String> = spectrum
            .iter()
            .map(|e| format!("{}:{}", birkhoff_checker::sizes_label(&e.sizes), e.iso))
            .collect();
        println!("  spectrum (iso classes by size) {}", points.join(" "));
        for m in &oeis {
            println!("  spectrum matches {}", m.describe());
        }
        for (title, list) in [
            ("above (it implies them)", &found.above),
            ("below (they imply it)", &found.below),
        ] {
            if !list.is_empty() {
                println!("  closest {title}:");
                for n in list {
                    print_neighbour(n);
                }
            }
        }
    }
    Ok(match found.standing {
        Standing::Unknown { .. } => Outcome::Negative,
        _ => Outcome::Done,
    })
}

/// The discoveries of the library at `dir` (none when it does not exist), but the one `arg`
/// names when it names a discovery (a theory is not identified as itself) and any whose text no
/// longer parses (said on stderr).
fn discoveries(dir: &std::path::Path, arg: &str) -> anyhow::Result<Vec<Known>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let lib = birkhoff_library::Library::open(dir)?;
    let itself = match birkhoff_engine::Theory::load(arg) {
        Err(birkhoff_engine::Error::UnknownSeed(_)) => {
            birkhoff_research::workspace::find_discovery(&lib, arg)
                .ok()
                .map(|(id, _)| id)
        }
        _ => None,
    };
    let mut out = Vec::new();
    for r in lib.discoveries()? {
        let birkhoff_library::record::Body::Theory(rec) = r.body else {
            continue;
        };
        if itself.as_deref() == Some(r.id.as_str()) {
            continue;
        }
        let theory = match birkhoff_engine::Theory::parse(&rec.text, &r.id) {
            Ok(t) => t,
            Err(e) => {
                eprintln!(
                    "note: discovery {} ({}) is not compared: its text does not parse: {e}",
                    rec.name, r.id
                );
                continue;
            }
        };
        out.push(Known {
            name: rec.name,
            kind: "discovery",
            theory,
        });
    }
    Ok(out)
}

fn print_neighbour(n: &Neighbour) {
    let how = match &n.implication {
        Implication::Proved { map, proofs } => format!(
            "proved ({}; symbols {})",
            birkhoff_checker::prover::equivalence::proof_counts(proofs),
            map_text(map)
        ),
        _ => "not proved".into(),
    };
    let strict = match &n.strict {
        Some(w) => format!(
            "strict: a model of {} of size {:?} violates {}'s axiom {}",
            w.model_of, w.model.sizes, w.not_model_of, w.axiom
        ),
        None => "strictness not shown".into(),
    };
    println!("    {} ({}): {how}; {strict}", n.name, n.kind);
}
