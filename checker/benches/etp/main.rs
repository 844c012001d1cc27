//! The prover on implications between magma laws in the style of the Equational Theories Project
//! (Tao et al., 2024): each implication of a sample (default `benches/data/etp_implications.tsv`)
//! goes through `prover::prove` with a time limit, and the verdicts are compared with ETP's.
//!
//! ```text
//! cargo bench -p birkhoff-checker --bench etp -- [SAMPLE.tsv] [--timeout S] [--limit N] [--out FILE] [--plan P]
//! ```
//!
//! `--plan` replaces `Options::plan` by a list such as `cm:1-3:10,sat:30,z3:40,cm:4-6:100`.
//!
//! Prints how many were decided (proved with a replayed certificate, proved by Z3, disproved by a
//! countermodel) and how fast, which strategy decided them, and every WRONG answer: a proof of a
//! false implication or a countermodel to a true one. Exits with status 1 if there is any.
//! `--out` writes one line per implication (numbers, truth, verdict, seconds, attempts).

mod sample;

use birkhoff_checker::prover::{prove_with, Answer, Options, Strategy, Verdict};
use sample::Implication;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

struct Args {
    sample: PathBuf,
    /// Strategies to run instead of `Options::plan`, for comparing plans.
    plan: Option<Vec<Strategy>>,
    timeout: Duration,
    limit: Option<usize>,
    out: Option<PathBuf>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        sample: sample::default_path(),
        plan: None,
        timeout: Duration::from_secs(2),
        limit: None,
        out: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| it.next().ok_or(format!("{flag} needs a value"));
        match arg.as_str() {
            // cargo bench passes --bench to every bench target.
            "--bench" => {}
            "--timeout" => {
                a.timeout = value("--timeout")?
                    .parse::<f64>()
                    .ok()
                    .filter(|s| *s > 0.0)
                    .map(Duration::from_secs_f64)
                    .ok_or("--timeout: a positive number of seconds")?
            }
            "--limit" => {
                a.limit = Some(
                    value("--limit")?
                        .parse()
                        .map_err(|e| format!("--limit: {e}"))?,
                )
            }
            "--out" => a.out = Some(value("--out")?.into()),
            "--plan" => {
                a.plan = Some(
                    value("--plan")?
                        .split(',')
                        .map(strategy)
                        .collect::<Result<_, _>>()?,
                )
            }
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}")),
            path => a.sample = path.into(),
        }
    }
    Ok(a)
}

/// One strategy of `--plan`: `cm:MIN-MAX:SHARE`, `affine:MAX:SHARE`, `sat:SHARE`, `kb:SHARE`
/// (completion) or `z3:SHARE` (shares in percent of the remaining time).
fn strategy(text: &str) -> Result<Strategy, String> {
    let bad = || {
        format!("--plan: cannot read {text:?} (cm:MIN-MAX:SHARE, affine:MAX:SHARE, sat:SHARE, kb:SHARE or z3:SHARE)")
    };
    let parts: Vec<&str> = text.split(':').collect();
    let number = |s: &str| s.parse::<u8>().map_err(|_| bad());
    match parts[..] {
        ["cm", sizes, share] => {
            let (lo, hi) = sizes.split_once('-').ok_or_else(bad)?;
            Ok(Strategy::Countermodel {
                min_size: lo.parse().map_err(|_| bad())?,
                max_size: hi.parse().map_err(|_| bad())?,
                time_share: number(share)?,
            })
        }
        ["affine", max, share] => Ok(Strategy::Affine {
            max_modulus: max.parse().map_err(|_| bad())?,
            time_share: number(share)?,
        }),
        ["sat", share] => Ok(Strategy::Saturation {
            time_share: number(share)?,
        }),
        ["kb", share] => Ok(Strategy::Completion {
            time_share: number(share)?,
        }),
        #[cfg(feature = "z3")]
        ["z3", share] => Ok(Strategy::Z3 {
            time_share: number(share)?,
        }),
        _ => Err(bad()),
    }
}

/// The verdict's kind, as reported.
fn kind(v: &Verdict) -> &'static str {
    match v {
        Verdict::Proved { .. } => "proved",
        Verdict::ProvedByZ3 { .. } => "proved (Z3)",
        Verdict::Disproved { .. } => "disproved",
        Verdict::Unknown => "unknown",
    }
}

/// A decided verdict that contradicts ETP's truth value.
fn wrong(v: &Verdict, holds: bool) -> bool {
    match v {
        Verdict::Proved { .. } | Verdict::ProvedByZ3 { .. } => !holds,
        Verdict::Disproved { .. } => holds,
        Verdict::Unknown => false,
    }
}

/// The strategy that decided, in words (the last attempt of a decided answer).
fn decided_by(a: &Answer) -> String {
    match (&a.verdict, a.attempts.last()) {
        (Verdict::Unknown, _) | (_, None) => "-".into(),
        (Verdict::Disproved { model, .. }, Some(at)) => {
            let kind = if matches!(at.strategy, Strategy::Affine { .. }) {
                "affine countermodel"
            } else {
                "countermodel"
            };
            format!("{kind} of size {}", model.sizes[0])
        }
        (_, Some(at)) => format!("{:?}", at.strategy)
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string(),
    }
}

struct Run {
    implication: usize,
    answer: Answer,
    seconds: f64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn tally(items: impl Iterator<Item = String>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for item in items {
        match counts.iter_mut().find(|(k, _)| *k == item) {
            Some((_, n)) => *n += 1,
            None => counts.push((item, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counts
}

fn report(sample: &[Implication], runs: &[Run], timeout: Duration) -> (String, usize) {
    let n = runs.len();
    let mut s = String::new();
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    let in_time = runs
        .iter()
        .filter(|r| {
            !matches!(r.answer.verdict, Verdict::Unknown) && r.seconds <= timeout.as_secs_f64()
        })
        .count();
    let holds = runs.iter().filter(|r| sample[r.implication].holds).count();
    let _ = writeln!(
        s,
        "{n} implications ({holds} true, {} false per ETP), time limit {:.1} s each",
        n - holds,
        timeout.as_secs_f64()
    );
    let _ = writeln!(
        s,
        "decided within the limit: {in_time} ({:.1} %)",
        pct(in_time)
    );
    for (k, c) in tally(runs.iter().map(|r| {
        format!(
            "{} ({})",
            kind(&r.answer.verdict),
            if sample[r.implication].holds {
                "true"
            } else {
                "false"
            }
        )
    })) {
        let _ = writeln!(s, "  {k}: {c} ({:.1} %)", pct(c));
    }
    let _ = writeln!(s, "decided by:");
    for (k, c) in tally(
        runs.iter()
            .filter(|r| !matches!(r.answer.verdict, Verdict::Unknown))
            .map(|r| decided_by(&r.answer)),
    ) {
        let _ = writeln!(s, "  {k}: {c}");
    }
    let mut times: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
    times.sort_by(f64::total_cmp);
    if !times.is_empty() {
        let _ = writeln!(s, "wall time per implication: median {:.3} s, p90 {:.3} s, p95 {:.3} s, p99 {:.3} s, max {:.3} s, total {:.1} s",
            percentile(&times, 0.5), percentile(&times, 0.9), percentile(&times, 0.95), percentile(&times, 0.99), times[n - 1], times.iter().sum::<f64>());
    }
    let wrong: Vec<&Run> = runs
        .iter()
        .filter(|r| wrong(&r.answer.verdict, sample[r.implication].holds))
        .collect();
    let _ = writeln!(s, "WRONG answers: {}", wrong.len());
    for r in &wrong {
        let imp = &sample[r.implication];
        let _ = writeln!(
            s,
            "  E{} => E{}: ETP says {}, the prover says {}: {:?}",
            imp.numbers.0,
            imp.numbers.1,
            imp.holds,
            kind(&r.answer.verdict),
            r.answer.attempts
        );
    }
    (s, wrong.len())
}

fn line(imp: &Implication, r: &Run) -> String {
    let attempts: Vec<String> = r
        .answer
        .attempts
        .iter()
        .map(|a| format!("{:?}: {} ({:.3} s)", a.strategy, a.result, a.seconds))
        .collect();
    format!(
        "{}\t{}\t{}\t{}\t{:.3}\t{}\n",
        imp.numbers.0,
        imp.numbers.1,
        imp.holds,
        kind(&r.answer.verdict),
        r.seconds,
        attempts.join("; ")
    )
}

fn main() {
    let a = args().unwrap_or_else(|e| {
        eprintln!("etp: {e}");
        std::process::exit(2)
    });
    let mut sample = sample::read(&a.sample).unwrap_or_else(|e| {
        eprintln!("etp: {e}");
        std::process::exit(2)
    });
    sample.truncate(a.limit.unwrap_or(usize::MAX));
    let opts = Options {
        timeout: a.timeout,
        ..Options::default()
    };
    let plan = a.plan.clone().unwrap_or_else(|| opts.plan());
    let mut runs = Vec::new();
    let mut lines = String::new();
    for (k, imp) in sample.iter().enumerate() {
        let t0 = Instant::now();
        let answer = prove_with(&imp.theory, &imp.goal, &opts, &plan).unwrap_or_else(|e| {
            eprintln!(
                "etp: E{} => E{}: internal error {e}",
                imp.numbers.0, imp.numbers.1
            );
            std::process::exit(2)
        });
        let run = Run {
            implication: k,
            answer,
            seconds: t0.elapsed().as_secs_f64(),
        };
        if matches!(run.answer.verdict, Verdict::Unknown) || wrong(&run.answer.verdict, imp.holds) {
            eprintln!(
                "[{}/{}] E{} => E{} ({}): {} in {:.2} s",
                k + 1,
                sample.len(),
                imp.numbers.0,
                imp.numbers.1,
                imp.holds,
                kind(&run.answer.verdict),
                run.seconds
            );
        }
        lines.push_str(&line(imp, &run));
        runs.push(run);
    }
    if let Some(out) = &a.out {
        let tmp = out.with_extension("tmp");
        if let Err(e) = std::fs::write(&tmp, &lines).and_then(|()| std::fs::rename(&tmp, out)) {
            eprintln!("etp: --out {}: {e}", out.display());
            std::process::exit(2)
        }
    }
    let (text, wrong) = report(&sample, &runs, a.timeout);
    print!("{text}");
    std::process::exit(i32::from(wrong > 0));
}
