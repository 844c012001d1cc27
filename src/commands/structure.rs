//! `birkhoff structure`: what the finite models of a theory are made of (issue 51), per size:
//! how many are simple, subdirectly irreducible and directly indecomposable, and for each model
//! its congruences, monolith, factors, idempotents, centre and nuclei, and subalgebras.

use super::BudgetArgs;
use crate::output::{print_json, progress, table};
use crate::Outcome;
use birkhoff_checker::prover::structural;
use birkhoff_checker::{automorphisms_label, router, Count, Status};
use birkhoff_engine::anatomy::{self, Algebra, Anatomy, SizeSummary};
use birkhoff_engine::tables;
use serde_json::json;

// Arguments of `birkhoff structure`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name, a theory file, or a discovery's name or ID (see --library).
    /// The theory must be of algebras: one sort, operations only.
    #[arg(value_name = "THEORY")]
    theory: String,
    /// Largest size.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    max_size: u32,
    /// Smallest size.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    min_size: u32,
    /// Analyse at most this many models of each size (the first in canonical order); the table
    /// then says it is a sample.
    #[arg(long, value_name = "K", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    sample: u64,
    /// Show every model analysed with its anatomy (by default only the subdirectly irreducible
    /// ones are shown).
    #[arg(long)]
    all_models: bool,
    /// Skip the structure statements (what terms t(x) do in every model: constant, central,
    /// idempotent, a retraction, an endomorphism, an image that is an ideal, ...), which are
    /// otherwise checked on every model analysed and sent to the prover.
    #[arg(long)]
    no_statements: bool,
    /// Time the prover may spend on each structure statement.
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = super::parse_seconds)]
    prove_timeout: std::time::Duration,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    goals: super::GoalArgs,
    #[command(flatten)]
    engine: super::engine::EngineArgs,
}

/// One size: its count, the anatomy of each model analysed, and the table's row.
struct SizeReport {
    size: u32,
    models: Count,
    analysed: Vec<(birkhoff_engine::Structure, u128, Anatomy)>,
    summary: SizeSummary,
}

impl SizeReport {
    /// Whether every model of this size was analysed.
    fn complete(&self) -> bool {
        self.models.status == Status::Exact && self.analysed.len() as u128 == self.models.value
    }
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    super::check_size_range(a.min_size, a.max_size)?;
    let t = a.goals.load(&a.theory)?;
    // Refuse a theory that is not of algebras before any search, naming why.
    Algebra::check_signature(&t.sig).map_err(|e| anyhow::anyhow!("theory {}: {e}", t.name))?;
    let budget = a.budget.budget();
    let left = router::shared_time(&budget);
    let bar = progress(u64::from(a.max_size - a.min_size + 1), &t.name);
    let mut reports = Vec::new();
    for size in a.min_size..=a.max_size {
        bar.set_message(format!("size {size}"));
        let flag = format!("--max-size {} (at size {size})", a.max_size);
        let (e, _) = super::naming_size_flag(
            router::enumerate_by(a.engine.engine, &t, &[size], &left()),
            &flag,
        )?;
        let analysed: Vec<_> = e
            .classes
            .into_iter()
            .take(a.sample as usize)
            .map(|c| {
                let alg = Algebra::of(&t.sig, &c.model).expect("checked above: an algebra");
                let anatomy = anatomy::analyse(&alg, anatomy::CONGRUENCE_LIMIT);
                (c.model, c.automorphisms, anatomy)
            })
            .collect();
        reports.push(SizeReport {
            size,
            models: e.iso,
            summary: SizeSummary::of(size, analysed.iter().map(|(_, _, a)| a)),
            analysed,
        });
        bar.inc(1);
        if crate::interrupt::requested() {
            break;
        }
    }
    bar.finish_and_clear();
    let complete = reports.iter().all(SizeReport::complete)
        && reports.len() as u32 == a.max_size - a.min_size + 1;
    let statements = if a.no_statements || crate::interrupt::requested() {
        Vec::new()
    } else {
        let models: Vec<birkhoff_engine::Structure> = reports
            .iter()
            .flat_map(|r| r.analysed.iter().map(|(m, _, _)| m.clone()))
            .collect();
        // Every model of every size from 1 up: no countermodel that small exists.
        let all_up_to = reports
            .iter()
            .take_while(|r| r.complete())
            .map(|r| r.size)
            .last()
            .filter(|_| a.min_size == 1);
        let opts = structural::Options {
            per_statement: a.prove_timeout,
            cancel: Some(crate::interrupt::flag()),
            complete_up_to: all_up_to,
            ..structural::Options::default()
        };
        let spinner = crate::output::spinner("structure statements");
        let found = structural::statements(&t, &models, &opts)?;
        spinner.finish_and_clear();
        found
    };
    let shown = |anatomy: &Anatomy| {
        a.all_models
            || anatomy
                .irreducibility
                .as_ref()
                .is_some_and(|i| i.subdirectly_irreducible)
    };
    if json {
        let sizes: Vec<_> = reports
            .iter()
            .map(|r| {
                let models: Vec<_> = r
                    .analysed
                    .iter()
                    .filter(|(_, _, an)| shown(an))
                    .map(|(m, aut, an)| json!({ "model": m.to_json(&t.sig), "automorphisms": automorphisms_label(*aut), "anatomy": an }))
                    .collect();
                json!({ "size": r.size, "models": r.models, "complete": r.complete(), "summary": r.summary, "shown": models })
            })
            .collect();
        print_json(
            &json!({ "theory": t.name, "sizes": sizes, "complete": complete, "checked_by_evaluator": true, "statements": statements }),
        );
    } else {
        print_text(&t, &reports, &shown);
        print_statements(&statements, complete);
    }
    Ok(match () {
        _ if crate::interrupt::requested() => Outcome::Interrupted,
        _ if !complete => Outcome::Negative,
        _ => Outcome::Done,
    })
}

fn print_text(
    t: &birkhoff_engine::Theory,
    reports: &[SizeReport],
    shown: &dyn Fn(&Anatomy) -> bool,
) {
    println!(
        "{}: the models of each size and what they are made of (congruences of all operations)",
        t.name
    );
    let rows: Vec<Vec<String>> = reports
        .iter()
        .map(|r| {
            let s = &r.summary;
            vec![
                r.size.to_string(),
                r.models.to_string(),
                s.analysed.to_string(),
                s.simple.to_string(),
                s.subdirectly_irreducible.to_string(),
                s.directly_indecomposable.to_string(),
            ]
        })
        .collect();
    print!(
        "{}",
        table(
            &["n", "models", "analysed", "simple", "SI", "indecomposable"],
            &rows
        )
    );
    for r in reports {
        if !r.complete() {
            println!(
                "size {}: {} of {} models analysed, the first in canonical order: a sample, not the whole size",
                r.size,
                r.analysed.len(),
                r.models
            );
        }
        let too_large = r.summary.lattice_too_large;
        if too_large > 0 {
            println!(
                "size {}: {too_large} model(s) with more than {} congruences, counted in no column",
                r.size,
                anatomy::CONGRUENCE_LIMIT
            );
        }
    }
    for r in reports {
        for (i, (m, aut, an)) in r.analysed.iter().enumerate() {
            if !shown(an) {
                continue;
            }
            println!(
                "\nsize {}, model {} (|Aut| = {}): {}",
                r.size,
                i + 1,
                automorphisms_label(*aut),
                describe(an)
            );
            print!("{}", tables::cayley(&t.sig, m));
        }
    }
    println!(
        "\nevery model was checked by the evaluator; every congruence respects all operations"
    );
}

/// One model's anatomy in a few lines.
fn describe(an: &Anatomy) -> String {
    let mut out = Vec::new();
    match (&an.congruences, &an.irreducibility) {
        (Some(c), Some(i)) => {
            let kind = if i.simple {
                "simple".to_string()
            } else if let Some(m) = &i.monolith {
                format!("subdirectly irreducible, monolith {m}")
            } else if i.factors.len() > 1 {
                let sizes: Vec<String> = i.factors.iter().map(u32::to_string).collect();
                format!(
                    "a product of indecomposables of sizes {}",
                    sizes.join(" × ")
                )
            } else if an.size < 2 {
                "trivial".to_string()
            } else {
                "directly indecomposable, a subdirect product of proper quotients".to_string()
            };
            out.push(format!("{kind}; {} congruences", c.len()));
        }
        _ => out.push(format!(
            "more than {} congruences (not listed)",
            anatomy::CONGRUENCE_LIMIT
        )),
    }
    let set = |s: &[u32]| {
        let items: Vec<String> = s.iter().map(u32::to_string).collect();
        format!("{{{}}}", items.join(","))
    };
    for b in &an.binary {
        out.push(format!(
            "{}: idempotents {}, centre {}, nucleus {}",
            b.operation,
            set(&b.idempotents),
            set(&b.centre),
            set(&b.nucleus)
        ));
    }
    let s = &an.subalgebras;
    out.push(format!(
        "generated by {}{}",
        s.rank
            .map_or("more than 3 elements".to_string(), |r| format!(
                "{r} element(s)"
            )),
        s.count
            .map_or(String::new(), |c| format!("; {c} nonempty subalgebras"))
    ));
    out.join("\n  ")
}

/// The structure statements, each with the prover's answer and its evidence.
fn print_statements(statements: &[structural::Statement], complete: bool) {
    if statements.is_empty() {
        return;
    }
    let models = if complete {
        "every model of the sizes above"
    } else {
        "every model analysed (a sample: see above)"
    };
    println!("\nStructure statements true in {models}, with the prover's answer:");
    for s in statements {
        println!(
            "  {}: {}  [{}]; {}",
            s.status.name(),
            s.sentence,
            s.equation,
            s.status.evidence()
        );
    }
}
