//! `birkhoff structure`: what the finite models of a theory are made of (issue 51), per size:
//! how many are simple, subdirectly irreducible and directly indecomposable, and for each model
//! its congruences, monolith, factors, idempotents, centre and nuclei, the multiplication and
//! inner mapping groups of a quasigroup operation, and subalgebras.

use super::BudgetArgs;
use crate::output::{print_json, progress, table};
use crate::Outcome;
use birkhoff_checker::automorphisms_label;
use birkhoff_checker::prover::structural;
use birkhoff_checker::survey::{self, SizeReport};
use birkhoff_engine::anatomy::{self, Anatomy};
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
    /// Give at most this many statements left open a second look, each citing the statements
    /// proved about the same term or operation (its certificate carries them and replays from
    /// the axioms alone); each takes --prove-timeout again.
    #[arg(long, value_name = "N", default_value_t = 0)]
    second_looks: usize,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    goals: super::GoalArgs,
    #[command(flatten)]
    engine: super::engine::EngineArgs,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    super::check_size_range(a.min_size, a.max_size)?;
    let t = a.goals.load(&a.theory)?;
    let opts = survey::Options {
        sizes: a.min_size..=a.max_size,
        sample: usize::try_from(a.sample).unwrap_or(usize::MAX),
        engine: a.engine.engine,
        statements: (!a.no_statements).then(|| structural::Options {
            per_statement: a.prove_timeout,
            second_looks: a.second_looks,
            ..structural::Options::default()
        }),
    };
    let budget = a.budget.budget();
    let bar = progress(u64::from(a.max_size - a.min_size + 1), &t.name);
    let found = survey::survey(&t, &opts, &budget, |r| {
        bar.set_message(format!("size {} done", r.size));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let found = match found {
        // Refuse a theory that is not of algebras, naming why.
        Err(survey::Error::NotAnAlgebra(e)) => anyhow::bail!("theory {}: {e}", t.name),
        Err(survey::Error::Count { size, error }) => {
            let flag = format!("--max-size {} (at size {size})", a.max_size);
            return super::naming_size_flag(Err(error), &flag);
        }
        Err(survey::Error::Statements(e)) => return Err(e.into()),
        Ok(found) => found,
    };
    let reports = &found.sizes;
    let semisimple = found.semisimple(&t);
    let complete = reports.iter().all(SizeReport::complete)
        && reports.len() as u32 == a.max_size - a.min_size + 1;
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
                    .filter(|m| shown(&m.anatomy))
                    .map(|m| json!({ "model": m.model.to_json(&t.sig), "automorphisms": automorphisms_label(m.automorphisms), "anatomy": m.anatomy }))
                    .collect();
                json!({ "size": r.size, "models": r.models, "complete": r.complete(), "summary": r.summary, "shown": models })
            })
            .collect();
        print_json(
            &json!({ "theory": t.name, "sizes": sizes, "complete": complete, "checked_by_evaluator": true, "semisimple": semisimple, "statements": found.statements, "theorems": found.theorems }),
        );
    } else {
        print_text(&t, reports, &shown);
        if let Some(s) = &semisimple {
            println!("\n{}", semisimple_line(s));
        }
        print_statements(&found.statements, complete);
        print_theorems(&found.theorems);
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
        for (i, m) in r.analysed.iter().enumerate() {
            if !shown(&m.anatomy) {
                continue;
            }
            println!(
                "\nsize {}, model {} (|Aut| = {}): {}",
                r.size,
                i + 1,
                automorphisms_label(m.automorphisms),
                describe(&m.anatomy)
            );
            print!("{}", tables::cayley(&t.sig, &m.model));
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
            "{}: idempotents {}, centre {}, nucleus {}{}",
            b.operation,
            set(&b.idempotents),
            set(&b.centre),
            set(&b.nucleus),
            b.translations.as_ref().map_or(String::new(), translations)
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

/// A quasigroup operation's permutation groups, as GAP's LOOPS names them.
fn translations(t: &anatomy::Translations) -> String {
    let order = |o: Option<u64>| o.map_or("more than 2^64".to_string(), |o| o.to_string());
    let mut s = format!("; |Mlt| = {}", order(t.multiplication_group));
    if t.identity.is_some() {
        s += &format!(", |Inn| = {}", order(t.inner_mapping_group));
        if t.automorphic == Some(true) {
            s += " (every inner mapping an automorphism)";
        }
    }
    s
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

/// The structure theorems the proved statements give, each with its argument.
fn print_theorems(theorems: &[structural::Theorem]) {
    for th in theorems {
        println!(
            "\nStructure theorem (for {}): in every model S, {}",
            th.operation,
            lower_first(&th.sentence)
        );
        println!("  Proof, from the statements proved above: {}", th.argument);
    }
}

/// `s` with its first letter in lower case, to follow a colon.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_lowercase().chain(chars).collect())
}

/// "Every model up to size n is a product of these SI models", in words.
fn semisimple_line(s: &survey::Semisimple) -> String {
    let models: Vec<String> = s
        .irreducible
        .iter()
        .map(|(size, simple)| format!("size {size}{}", if *simple { " (simple)" } else { "" }))
        .collect();
    format!(
        "Every model of size at most {} is a direct product of subdirectly irreducible models, which are those of {}: every directly indecomposable model up to that size is subdirectly irreducible.",
        s.up_to,
        models.join(", ")
    )
}
