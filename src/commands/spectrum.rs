//! `birkhoff spectrum`: models per size, up to isomorphism and labeled, each with its status.

use super::BudgetArgs;
use crate::output::{print_json, progress, table};
use crate::Outcome;
use birkhoff_checker::{
    planned_tuples,
    router::{self, Compared, Engine},
    row_by, row_each, sizes_label, Count, Status, TimedRow,
};
use serde_json::json;

/// Which counts to show.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Models up to isomorphism.
    Iso,
    /// Labeled models (all tables on {0..n-1}).
    Labeled,
    /// Both.
    Both,
}

// Arguments of `birkhoff spectrum`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name, a theory file (Birkhoff's format, TPTP or LADR, as Mace4 reads
    /// it), or a discovery's name or ID (see --library).
    #[arg(value_name = "THEORY")]
    theory: String,
    /// Largest size (of every sort, for many-sorted theories).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_size: u32,
    /// Smallest size.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    min_size: u32,
    /// Which counts to show.
    #[arg(long, value_enum, default_value = "both")]
    mode: Mode,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    goals: super::GoalArgs,
    #[command(flatten)]
    engine: super::engine::EngineArgs,
    #[command(flatten)]
    verbose: super::engine::VerboseArgs,
}

/// `exact`, `at least` or `unknown`.
pub fn status_word(s: Status) -> &'static str {
    match s {
        Status::Exact => "exact",
        Status::AtLeast => "at least",
        Status::Unknown => "unknown",
    }
}

/// Counts every size. `--timeout` is one budget for the whole command: each size, and under
/// `--engine both` each engine, gets what the searches before it left.
pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    super::check_size_range(a.min_size, a.max_size)?;
    let t = a.goals.load(&a.theory)?;
    let budget = a.budget.budget();
    let left = router::shared_time(&budget);
    let tuples: Vec<Vec<u32>> = planned_tuples(t.sig.sorts.len(), a.min_size, a.max_size)
        .map_err(|e| anyhow::anyhow!("theory {}: {e}", t.name))?
        .collect();
    let bar = progress(tuples.len() as u64, &t.name);
    let mut rows: Vec<TimedRow> = Vec::new();
    // Under `--engine both`, every engine's answer per size.
    let mut each: Vec<Compared> = Vec::new();
    // Otherwise, which engine answered each size and why (under `auto`, the counting race).
    let mut chosen: Vec<router::Choice> = Vec::new();
    for sizes in &tuples {
        bar.set_message(format!("size {}", sizes_label(sizes)));
        let flag = format!("--max-size {} (at size {})", a.max_size, sizes_label(sizes));
        if a.engine.engine == Engine::Both {
            let (r, compared) = super::naming_size_flag(row_each(&t, sizes, &left()), &flag)?;
            rows.push(r);
            each.push(compared);
        } else {
            let (r, choice) =
                super::naming_size_flag(row_by(a.engine.engine, &t, sizes, &left()), &flag)?;
            let what = format!("size {}", sizes_label(sizes));
            a.verbose.tell(Some(&bar), &what, &choice, r.seconds);
            rows.push(r);
            chosen.push(choice);
        }
        bar.inc(1);
        if crate::interrupt::requested() {
            break;
        }
    }
    bar.finish_and_clear();
    let complete =
        rows.iter().all(|r| r.counts.iso.status == Status::Exact) && rows.len() == tuples.len();
    let cross_check = (a.engine.engine == Engine::Both).then(|| CrossCheck::of(&rows, &each));
    if json {
        let mut out = json!({ "theory": t.name, "fingerprint": t.fingerprint().to_string(), "rows": rows, "complete": complete });
        for (r, choice) in out["rows"]
            .as_array_mut()
            .expect("rows are a list")
            .iter_mut()
            .zip(&chosen)
        {
            r["engine"] = json!(choice.engine);
            r["engine_reason"] = choice.reason.clone().into();
        }
        if let Some(c) = &cross_check {
            for (r, compared) in out["rows"]
                .as_array_mut()
                .expect("rows are a list")
                .iter_mut()
                .zip(&each)
            {
                r["engines"] = compared.answers.iter().map(|(e, en)| json!({ "engine": e, "iso": en.iso, "labeled": en.labeled, "seconds": en.elapsed.as_secs_f64() })).collect();
                r["agreed"] = compared.agreed.into();
            }
            out["cross_check"] = json!({ "engines": c.engines, "agreed": c.agreed, "not_compared": c.not_compared, "note": c.note() });
        }
        print_json(&out);
    } else {
        // Under `--engine both` one line per engine and size, saying whether that size's exact
        // counts were compared; otherwise one line per size.
        let mut header = vec!["n"];
        if cross_check.is_some() {
            header.push("engine");
        }
        match a.mode {
            Mode::Iso => header.push("iso"),
            Mode::Labeled => header.push("labeled"),
            Mode::Both => header.extend(["iso", "labeled"]),
        }
        header.extend(["status", "seconds"]);
        if cross_check.is_some() {
            header.push("cross-check");
        }
        let line = |sizes: &[u32],
                    engine: Option<(Engine, bool)>,
                    iso: Count,
                    labeled: Count,
                    seconds: f64| {
            let mut c = vec![sizes_label(sizes)];
            c.extend(engine.map(|(e, _)| router::name(e).to_string()));
            if a.mode != Mode::Labeled {
                c.push(iso.to_string());
            }
            if a.mode != Mode::Iso {
                c.push(labeled.to_string());
            }
            c.push(status_word(iso.status).to_string());
            c.push(format!("{seconds:.2}"));
            c.extend(
                engine
                    .map(|(_, agreed)| if agreed { "agreed" } else { "not compared" }.to_string()),
            );
            c
        };
        let cells: Vec<Vec<String>> = if cross_check.is_some() {
            each.iter()
                .flat_map(|c| {
                    c.answers.iter().map(|(e, en)| {
                        line(
                            &en.sizes,
                            Some((*e, c.agreed)),
                            en.iso,
                            en.labeled,
                            en.elapsed.as_secs_f64(),
                        )
                    })
                })
                .collect()
        } else {
            rows.iter()
                .map(|r| {
                    let c = &r.counts;
                    line(&c.sizes, None, c.iso, c.labeled, r.seconds)
                })
                .collect()
        };
        println!("{}: {}", t.name, t.doc.lines().next().unwrap_or(""));
        print!("{}", table(&header, &cells));
        if let Some(c) = &cross_check {
            println!("{}", c.note());
        }
    }
    Ok(if crate::interrupt::requested() {
        Outcome::Interrupted
    } else if complete {
        Outcome::Done
    } else {
        // A count that is only a lower bound is an incomplete answer (exit code 1).
        Outcome::Negative
    })
}

/// What `--engine both` established over the sizes it counted.
struct CrossCheck {
    /// The engines that ran.
    engines: Vec<&'static str>,
    /// The sizes whose exact counts were compared and agreed.
    agreed: Vec<String>,
    /// The sizes where a count was cut short: checked for contradictions, but not compared.
    not_compared: Vec<String>,
}

impl CrossCheck {
    fn of(rows: &[TimedRow], each: &[Compared]) -> CrossCheck {
        let engines = each
            .first()
            .map(|c| c.answers.iter().map(|(e, _)| router::name(*e)).collect())
            .unwrap_or_default();
        let (agreed, not_compared): (Vec<_>, Vec<_>) =
            rows.iter().zip(each).partition(|(_, c)| c.agreed);
        let labels = |v: Vec<(&TimedRow, &Compared)>| {
            v.into_iter()
                .map(|(r, _)| sizes_label(&r.counts.sizes))
                .collect()
        };
        CrossCheck {
            engines,
            agreed: labels(agreed),
            not_compared: labels(not_compared),
        }
    }

    /// "native, sat and z3 ran; their exact counts agreed at n = 1, 2, 3; nothing was compared at
    /// n = 4 (...)". "Agreed" is said of exact counts alone.
    fn note(&self) -> String {
        let ran = match self.engines.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => "no engine".to_string(),
        };
        let mut s = format!("--engine both: {ran} ran");
        if !self.agreed.is_empty() {
            s += &format!(
                "; their exact counts agreed at n = {}",
                self.agreed.join(", ")
            );
        }
        if !self.not_compared.is_empty() {
            s += &format!("; nothing was compared at n = {} (a count cut short is only a lower bound, checked not to contradict the others)", self.not_compared.join(", "));
        }
        s
    }
}
