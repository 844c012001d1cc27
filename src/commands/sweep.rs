//! `birkhoff sweep`: batch spectra over many theories and sizes. Each (theory, size) result is
//! its own JSON file, written atomically, so a sweep can be killed at any moment and rerun to
//! resume; `--pieces P` splits each count into P jobs, `--shard K/N` splits the jobs across
//! machines, `--slurm FILE` writes a Slurm job array that runs every shard, and `sweep merge`
//! joins the shards and says which are missing.

use super::BudgetArgs;
use crate::output::{print_json, progress, table};
use crate::Outcome;
use anyhow::Context;
use birkhoff_checker::{
    atomic_file, classes_at_least,
    estimate::Mode,
    finder::FinderError,
    planned_tuples, sizes_label,
    sweep::{self, Job, JobResult, Shard},
    Budget, Status,
};
use birkhoff_engine::{seeds, Theory};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

// Arguments of `birkhoff sweep`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Merge the result directories of several shards into one table (TSV and JSON).
    Merge(MergeArgs),
}

// Arguments of a sweep run.
#[derive(clap::Args)]
struct RunArgs {
    /// Seed or catalogue names, theory files (Birkhoff's format, TPTP or LADR, as Mace4 reads
    /// it), directories of them (`*.bk` and `*.in` files), or discoveries' names or IDs (see
    /// --library).
    #[arg(value_name = "THEORY", required_unless_present = "all_seeds")]
    theories: Vec<String>,
    /// Sweep every seed theory as well.
    #[arg(long)]
    all_seeds: bool,
    /// Largest size (of every sort).
    #[arg(long, value_name = "N", required_unless_present = "size", value_parser = clap::value_parser!(u32).range(1..))]
    max_size: Option<u32>,
    /// Smallest size.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    min_size: u32,
    /// Only this size (of every sort): the same as --min-size N --max-size N.
    #[arg(long, value_name = "N", conflicts_with_all = ["max_size", "min_size"], value_parser = clap::value_parser!(u32).range(1..))]
    size: Option<u32>,
    /// Split every count into P pieces, each a job of its own (native engine only): the pieces
    /// of one long count then run on different machines, and `sweep merge` sums them.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pieces: Option<u64>,
    /// Directory for the result files (created if missing).
    #[arg(long, value_name = "DIR", required_unless_present = "estimate")]
    out: Option<PathBuf>,
    /// Do not count: predict each count's CPU time, classes and memory (and each piece's, with
    /// --pieces) from stratified samples of the native finder's search tree (Knuth's estimator,
    /// as Chen refined it), in seconds where the count takes minutes or hours. A prediction,
    /// never a count.
    #[arg(long, conflicts_with_all = ["shard", "slurm", "retry_inexact"])]
    estimate: bool,
    /// Stratified samples an --estimate takes per count (at least two per path of the split):
    /// more give a steadier prediction and take longer.
    #[arg(long, value_name = "N", default_value_t = 1000, requires = "estimate", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    samples: u64,
    /// Run only shard K of N: jobs whose index in the deterministic job list is K-1 modulo N.
    #[arg(long, value_name = "K/N", conflicts_with = "slurm")]
    shard: Option<Shard>,
    #[command(flatten)]
    slurm: crate::slurm::SlurmArgs,
    /// Recompute jobs whose stored counts are not exact (cut short by an earlier budget).
    #[arg(long)]
    retry_inexact: bool,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    engine: super::engine::EngineArgs,
    #[command(flatten)]
    verbose: super::engine::VerboseArgs,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

// Arguments of `birkhoff sweep merge`.
#[derive(clap::Args)]
struct MergeArgs {
    /// Result directories written by `birkhoff sweep --out`.
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// Write the merged table to PREFIX.tsv and PREFIX.json instead of printing it. Missing
    /// shards are named on stderr and make the exit code 1, the table written all the same.
    #[arg(long, value_name = "PREFIX")]
    out: Option<PathBuf>,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    match a.command {
        Some(Command::Merge(m)) => merge(m, json),
        None => sweep(a.run, json),
    }
}

/// Theories named on the command line, with directories expanded in sorted order.
fn collect_theories(args: &RunArgs) -> anyhow::Result<Vec<Theory>> {
    let mut out = Vec::new();
    if args.all_seeds {
        for s in seeds::all() {
            out.push(seeds::load(s.name)?);
        }
    }
    for arg in &args.theories {
        let path = Path::new(arg);
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read directory {arg}"))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "bk" || x == "in"))
                .collect();
            anyhow::ensure!(
                !files.is_empty(),
                "{arg}: no theory files (*.bk, *.in) in this directory"
            );
            files.sort();
            for f in files {
                out.push(Theory::from_file(&f)?);
            }
        } else {
            out.push(args.library.load(arg)?);
        }
    }
    Ok(out)
}

fn sweep(a: RunArgs, json: bool) -> anyhow::Result<Outcome> {
    let (min, max) = match a.size {
        Some(n) => (n, n),
        None => (
            a.min_size,
            a.max_size.expect("clap requires --max-size without --size"),
        ),
    };
    super::check_size_range(min, max)?;
    if a.estimate {
        return estimate(&a, min, max, json);
    }
    let out = a
        .out
        .clone()
        .expect("clap requires --out without --estimate");
    anyhow::ensure!(
        a.pieces.is_none() || sweep::splits(a.engine.engine),
        "--pieces: only the native engine splits a count (use --engine native or auto)"
    );
    let theories = collect_theories(&a)?;
    for t in &theories {
        planned_tuples(t.sig.sorts.len(), min, max)
            .map_err(|e| anyhow::anyhow!("theory {}: {e}", t.name))?;
    }
    let sizes = move |t: &Theory| {
        planned_tuples(t.sig.sorts.len(), min, max)
            .expect("checked above")
            .collect()
    };
    let all = sweep::plan(&theories, &sizes, a.pieces.map(|p| p as usize));
    std::fs::create_dir_all(&out)
        .with_context(|| format!("--out: cannot create {}", out.display()))?;
    if let Some(script) = &a.slurm.slurm {
        let written = crate::slurm::write(script, &a.slurm, &out, &all)?;
        if json {
            print_json(&serde_json::to_value(&written)?);
        }
        return Ok(Outcome::Done);
    }
    let shard = a.shard.unwrap_or(Shard { index: 1, count: 1 });
    // A second run of this shard into this directory would delete the first's files being written
    // as leftovers of an interrupted sweep. Other shards (a Slurm array's tasks) share it freely.
    let lock = out.join(format!(".lock-shard-{}-of-{}", shard.index, shard.count));
    let _lock = match birkhoff_library::lock::try_acquire(&lock) {
        Ok(Ok(guard)) => Some(guard),
        Ok(Err(holder)) => {
            let by = holder.map_or(String::new(), |pid| format!(" (pid {pid})"));
            anyhow::bail!("--out {}: another sweep{by} is running shard {}/{} there (it holds {}); wait for it to finish or choose another --out", out.display(), shard.index, shard.count, lock.display())
        }
        // Some cluster file systems have no locks (Lustre mounted without `flock`): the sweep
        // runs as it did before there were locks, and says so.
        Err(birkhoff_library::Error::Io { source, .. })
            if matches!(
                source.raw_os_error(),
                Some(libc::ENOSYS | libc::ENOLCK | libc::EOPNOTSUPP)
            ) =>
        {
            eprintln!("warning: --out {}: the file system has no locks ({source}); make sure no other run of shard {}/{} writes there", out.display(), shard.index, shard.count);
            None
        }
        Err(e) => return Err(e.into()),
    };
    let plan = sweep::Plan::new(&all, shard.count);
    // Every shard writes the same plan; once one has, the others leave it alone.
    if sweep::Plan::read(&out).ok().flatten().as_ref() != Some(&plan) {
        plan.write(&out)
            .with_context(|| format!("--out: cannot write the plan in {}", out.display()))?;
    }
    let jobs: Vec<Job> = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.owns(*i))
        .map(|(_, j)| j)
        .collect();
    let names = jobs.iter().map(Job::file_name).collect();
    let removed = sweep::clean_partial(&out, &names)
        .with_context(|| format!("--out: cannot read {}", out.display()))?;
    if removed > 0 {
        eprintln!("removed {removed} partial file(s) left by an interrupted sweep");
    }
    let stored = |job: &Job| sweep::read_result(&out.join(job.file_name())).ok();
    let pending: Vec<&Job> = jobs
        .iter()
        .filter(|j| {
            stored(j).is_none_or(|r| a.retry_inexact && r.row.counts.iso.status != Status::Exact)
        })
        .collect();
    if jobs.len() > pending.len() {
        eprintln!(
            "{} of {} job(s) already done in {}",
            jobs.len() - pending.len(),
            jobs.len(),
            out.display()
        );
    }
    let budget = a.budget.budget();
    let failures = Mutex::new(Vec::new());
    // A count that cannot finish within --max-models is refused before it starts, with what it
    // would need (magmas of order 5 ran for minutes to stop at the cap as a lower bound).
    let pending: Vec<&Job> = pending
        .into_iter()
        .filter(|job| match job.piece.is_none().then(|| classes_at_least(&job.theory, &job.sizes)).flatten() {
            Some(classes) if classes > u128::from(a.budget.max_models) => {
                failures.lock().expect("no panics while holding the lock").push(format!(
                    "{}: refused: it has at least {} isomorphism classes (its symbols that no axiom mentions give that many), more than --max-models {} lets a count keep (about {} of memory at 100 bytes a class)",
                    job.label(),
                    scientific(classes),
                    a.budget.max_models,
                    birkhoff_checker::memory_text(classes.saturating_mul(100)),
                ));
                false
            }
            _ => true,
        })
        .collect();
    let bar = progress(pending.len() as u64, "sweep");
    let running = Running::default();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        scope.spawn(|| running.show(&bar, &done));
        let result = pending
            .par_iter()
            .try_for_each(|job| sweep_job(job, &a, &budget, &out, &running, &failures, &bar));
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    })?;
    bar.finish_and_clear();
    let results: Vec<JobResult> = jobs.iter().filter_map(stored).collect();
    report(&results, json);
    let failures = failures
        .into_inner()
        .expect("no panics while holding the lock");
    for f in &failures {
        eprintln!("error: {f}");
    }
    let bounds = results
        .iter()
        .filter(|r| r.row.counts.iso.status != Status::Exact)
        .count();
    if bounds > 0 {
        eprintln!("{bounds} count(s) only lower bounds (cut short by a budget); rerun with --retry-inexact and a larger budget");
    }
    Ok(if crate::interrupt::requested() {
        Outcome::Interrupted
    } else if failures.is_empty() && bounds == 0 {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}

/// Runs one job and stores its result, or records why it has none.
fn sweep_job(
    job: &Job,
    a: &RunArgs,
    budget: &Budget,
    out: &Path,
    running: &Running,
    failures: &Mutex<Vec<String>>,
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    if crate::interrupt::requested() {
        return Ok(());
    }
    let classes = running.start(job.label());
    let answer = job.run(
        a.engine.engine,
        &Budget {
            progress: Some(classes.clone()),
            ..budget.clone()
        },
    );
    // Off the progress line before its result is stored (or its failure told).
    running.stop(&classes, bar);
    match answer {
        // A job stopped by Ctrl-C is not stored, so that the rerun computes it.
        Ok(_) if crate::interrupt::requested() => {}
        Ok((r, choice)) => {
            a.verbose.tell(Some(bar), &job.label(), &choice, r.seconds);
            let result = JobResult {
                theory: job.theory.name.clone(),
                fingerprint: job.fingerprint.clone(),
                piece: job.piece,
                row: r,
                engine: Some(choice.engine),
                engine_reason: Some(choice.reason),
            };
            let bytes = serde_json::to_vec_pretty(&result).expect("results serialize");
            let path = out.join(job.file_name());
            atomic_file::write(&path, &bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Err(e @ (FinderError::Unsound { .. } | FinderError::Disagreement { .. })) => {
            return Err(e.into())
        }
        Err(e) => failures
            .lock()
            .expect("no panics while holding the lock")
            .push(format!("{}: {e}", job.label())),
    }
    bar.inc(1);
    Ok(())
}

/// The jobs being counted now, each with the classes found so far, for the progress line: it
/// names what is running (a finished job's name, shown as if it were running, misled). The
/// line is set under the lock of the list, so a job stopped is never put back on it by a stale
/// refresh.
#[derive(Default)]
struct Running {
    jobs: Mutex<Vec<(String, Arc<AtomicU64>)>>,
}

impl Running {
    fn start(&self, label: String) -> Arc<AtomicU64> {
        let classes = Arc::new(AtomicU64::new(0));
        self.jobs
            .lock()
            .expect("no panics while holding the lock")
            .push((label, classes.clone()));
        classes
    }

    /// Takes the job off the list and the bar's message at once: the message would otherwise
    /// name it until the next refresh, after its result is stored.
    fn stop(&self, classes: &Arc<AtomicU64>, bar: &ProgressBar) {
        let mut jobs = self.jobs.lock().expect("no panics while holding the lock");
        jobs.retain(|(_, c)| !Arc::ptr_eq(c, classes));
        bar.set_message(Self::line(&jobs));
    }

    /// `Magma at size 5 (about 1234 classes so far), +1 more running`: about, since parallel
    /// workers can meet one class twice before their finds are merged. It names the job started
    /// last: a worker waiting inside one job's count takes up another job (rayon steals work),
    /// so the jobs started earlier are mostly waiting under it.
    fn line(jobs: &[(String, Arc<AtomicU64>)]) -> String {
        let Some((label, classes)) = jobs.last() else {
            return String::new();
        };
        let more = if jobs.len() > 1 {
            format!(", +{} more running", jobs.len() - 1)
        } else {
            String::new()
        };
        format!(
            "{label} (about {} classes so far){more}",
            classes.load(Ordering::Relaxed)
        )
    }

    /// Keeps the bar's message on what is running until `done`.
    fn show(&self, bar: &ProgressBar, done: &AtomicBool) {
        while !done.load(Ordering::Relaxed) {
            {
                let jobs = self.jobs.lock().expect("no panics while holding the lock");
                bar.set_message(Self::line(&jobs));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// `sweep --estimate`: each count's predicted cost, printed and never stored as a result.
fn estimate(a: &RunArgs, min: u32, max: u32, json: bool) -> anyhow::Result<Outcome> {
    anyhow::ensure!(
        sweep::splits(a.engine.engine),
        "--estimate: it predicts the native finder's count (use --engine native or auto)"
    );
    let theories = collect_theories(a)?;
    let budget = a.budget.budget();
    let mode = a.pieces.map_or(Mode::Whole, |p| Mode::Pieces(p as usize));
    let mut rows = Vec::new();
    let mut answers = Vec::new();
    let mut cut_short = false;
    for t in &theories {
        let tuples = planned_tuples(t.sig.sorts.len(), min, max)
            .map_err(|e| anyhow::anyhow!("theory {}: {e}", t.name))?;
        for sizes in tuples {
            if crate::interrupt::requested() {
                break;
            }
            let Some(e) =
                birkhoff_checker::estimate::estimate(t, &sizes, &budget, mode, a.samples)?
            else {
                cut_short = true;
                eprintln!(
                    "{} at size {}: no estimate within the budget",
                    t.name,
                    sizes_label(&sizes)
                );
                continue;
            };
            let largest = e
                .pieces
                .iter()
                .max_by(|x, y| x.cpu_seconds.total_cmp(&y.cpu_seconds));
            rows.push(vec![
                t.name.clone(),
                sizes_label(&sizes),
                a.pieces.map_or("1".into(), |p| p.to_string()),
                scientific(e.classes.round() as u128),
                duration_text(e.cpu_seconds),
                largest.map_or("-".into(), |p| {
                    format!("{} (piece {})", duration_text(p.cpu_seconds), p.index)
                }),
                birkhoff_checker::memory_text(e.memory_bytes),
                format!("{:.1}", e.elapsed.as_secs_f64()),
            ]);
            answers.push(serde_json::json!({ "theory": t.name, "estimate": e }));
        }
    }
    if json {
        print_json(&serde_json::Value::Array(answers));
    } else {
        print!(
            "{}",
            table(
                &[
                    "theory",
                    "n",
                    "pieces",
                    "classes",
                    "CPU",
                    "largest piece",
                    "memory",
                    "estimate s"
                ],
                &rows
            )
        );
        eprintln!("predictions from stratified samples of the native finder's search on this machine (CPU time summed over threads and pieces; memory of one run); not counts");
    }
    Ok(if crate::interrupt::requested() {
        Outcome::Interrupted
    } else if cut_short {
        Outcome::Negative
    } else {
        Outcome::Done
    })
}

/// `42 s`, `3.5 min`, `1.6 h`, `2.1 days`: a predicted duration at the precision it has.
fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 100.0 => format!("{s:.2} s"),
        s if s < 6000.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86_400.0),
    }
}

/// `2.5e15` for large numbers, the number itself below a million.
fn scientific(n: u128) -> String {
    if n < 1_000_000 {
        n.to_string()
    } else {
        format!("{:.1e}", n as f64)
    }
}

/// Prints results as a table or JSON.
fn report(results: &[JobResult], json: bool) {
    if json {
        print_json(&serde_json::to_value(results).expect("results serialize"));
        return;
    }
    let rows: Vec<Vec<String>> = results
        .iter()
        .map(|r| {
            vec![
                r.piece.map_or(r.theory.clone(), |p| {
                    format!("{} (piece {}/{})", r.theory, p.index, p.count)
                }),
                sizes_label(&r.row.counts.sizes),
                r.row.counts.iso.to_string(),
                r.row.counts.labeled.to_string(),
                super::spectrum::status_word(r.row.counts.iso.status).into(),
                format!("{:.2}", r.row.seconds),
            ]
        })
        .collect();
    print!(
        "{}",
        table(
            &["theory", "n", "iso", "labeled", "status", "seconds"],
            &rows
        )
    );
}

fn merge(m: MergeArgs, json: bool) -> anyhow::Result<Outcome> {
    let merged = sweep::merge(&m.dirs).map_err(anyhow::Error::msg)?;
    let rows = &merged.rows;
    match m.out {
        Some(prefix) => {
            let with_ext = |ext: &str| PathBuf::from(format!("{}.{ext}", prefix.display()));
            let (tsv, js) = (with_ext("tsv"), with_ext("json"));
            atomic_file::write(&tsv, sweep::to_tsv(rows).as_bytes())
                .with_context(|| format!("--out: cannot write {}", tsv.display()))?;
            atomic_file::write(
                &js,
                &serde_json::to_vec_pretty(rows).expect("results serialize"),
            )
            .with_context(|| format!("--out: cannot write {}", js.display()))?;
            eprintln!(
                "merged {} result(s) into {} and {}",
                rows.len(),
                tsv.display(),
                js.display()
            );
        }
        None if json => report(rows, true),
        None => print!("{}", sweep::to_tsv(rows)),
    }
    for note in &merged.notes {
        eprintln!("note: {note}");
    }
    for gap in &merged.missing {
        eprintln!("missing: {gap}");
    }
    let bounds = rows
        .iter()
        .filter(|r| r.row.counts.iso.status != Status::Exact)
        .count();
    if bounds > 0 {
        eprintln!("{bounds} count(s) in the table only lower bounds");
    }
    Ok(if merged.missing.is_empty() && bounds == 0 {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}
