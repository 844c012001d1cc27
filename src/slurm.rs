//! `birkhoff sweep ... --slurm FILE`: the sweep as a Slurm job array. The script's array task K
//! runs the same `birkhoff sweep` command with `--shard K/N`; the plan file in the output
//! directory records every shard's jobs for `sweep merge`.

use anyhow::Context;
use birkhoff_checker::sweep::{self, Job, Plan};
use std::path::{Path, PathBuf};

// The flags that write and size the job array.
#[derive(clap::Args)]
pub struct SlurmArgs {
    /// Do not run: write an sbatch job-array script to FILE (one array task per shard, each
    /// running this command with `--shard $SLURM_ARRAY_TASK_ID/N`) and the plan in --out.
    #[arg(long, value_name = "FILE")]
    pub slurm: Option<PathBuf>,
    /// Array tasks (shards) of the script; by default one per job, at most 1000.
    #[arg(long, value_name = "N", requires = "slurm", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub slurm_tasks: Option<u64>,
    /// CPUs per array task (`--cpus-per-task`; the task's threads).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub slurm_cpus: u32,
    /// Memory per array task (`--mem`), as Slurm writes it: 4G, 500M.
    #[arg(long, value_name = "SIZE", default_value = "4G")]
    pub slurm_mem: String,
    /// Time limit per array task (`--time`), as Slurm writes it: MINUTES, HH:MM:SS, D-HH:MM:SS.
    #[arg(long, value_name = "TIME", default_value = "24:00:00")]
    pub slurm_time: String,
    /// Partition to submit to (`--partition`); the cluster's default if not given.
    #[arg(long, value_name = "NAME")]
    pub slurm_partition: Option<String>,
    /// Name of the job (`--job-name`).
    #[arg(long, value_name = "NAME", default_value = "birkhoff")]
    pub slurm_job_name: String,
}

/// Most array tasks written when `--slurm-tasks` is not given (Slurm's default `MaxArraySize`
/// is 1001).
const DEFAULT_MAX_TASKS: usize = 1000;

/// Checks a value that goes into an `#SBATCH` line: `allowed` characters only, not empty.
fn checked<'a>(
    flag: &str,
    value: &'a str,
    allowed: impl Fn(char) -> bool,
    example: &str,
) -> anyhow::Result<&'a str> {
    anyhow::ensure!(
        !value.is_empty() && value.chars().all(allowed),
        "{flag} `{value}`: expected something like {example}"
    );
    Ok(value)
}

/// A word quoted for the shell: inside single quotes nothing is special, so a `$(...)`, a
/// backquote or a space in a path stays part of it.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// A value quoted for an `#SBATCH` line, which sbatch reads with its own rules (a quote of
/// either kind groups, a backslash escapes the next character even inside quotes, an unquoted
/// `#` starts a comment): double quotes, with backslashes and double quotes escaped.
fn sbatch_quote(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', r"\\").replace('"', r#"\""#))
}

/// `path` as text for the script. A control character is refused, naming `what`: a newline
/// would end the comment or `#SBATCH` line it is written into and make the rest a command of the
/// script. So is a path that is not UTF-8, which would be written as another path.
fn script_path<'a>(what: &str, path: &'a Path) -> anyhow::Result<&'a str> {
    let text = path.to_str().ok_or_else(|| {
        anyhow::anyhow!(
            "{what} {}: not UTF-8, which a Slurm script cannot name",
            path.display()
        )
    })?;
    anyhow::ensure!(!text.chars().any(char::is_control), "{what} {text:?}: a control character (such as a newline) in a path written into a Slurm script could end its line and run the rest as a command; rename it");
    Ok(text)
}

/// This command's words without the `--slurm*` flags (each takes a value, as `--flag VALUE` or
/// `--flag=VALUE`) and without `--shard`, which the script adds.
fn task_words(args: impl Iterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_value = false;
    for a in args {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if a.starts_with("--slurm") || a.starts_with("--shard") {
            skip_value = !a.contains('=');
            continue;
        }
        out.push(a);
    }
    out
}

/// What `--slurm` wrote, for `--json`.
#[derive(serde::Serialize)]
pub struct Written {
    /// The sbatch script.
    pub script: std::path::PathBuf,
    /// Its array tasks (shards).
    pub tasks: usize,
    /// The sweep's jobs, spread over the tasks.
    pub jobs: usize,
    /// Where the results go, and the plan file there that `sweep merge` checks against.
    pub out: std::path::PathBuf,
    /// The plan file.
    pub plan: std::path::PathBuf,
    /// What to run next.
    pub submit: String,
    /// How to gather the results.
    pub merge: String,
}

/// The partition a job goes to and the most CPUs any one of its nodes has, from the lines of
/// `sinfo -h -N -o "%P %c"` (a node's partition, `*` marking the default, and its CPUs): the
/// partition asked for, else the default one. `None` when sinfo lists no node of it.
fn largest_node(sinfo: &str, partition: Option<&str>) -> Option<(String, u32)> {
    let mut found: Option<(String, u32)> = None;
    for line in sinfo.lines() {
        let Some((name, cpus)) = line.split_once(' ') else {
            continue;
        };
        let (name, default) = match name.strip_suffix('*') {
            Some(n) => (n, true),
            None => (name, false),
        };
        let wanted = partition.map_or(default, |p| p == name);
        let Ok(cpus) = cpus.trim().parse::<u32>() else {
            continue;
        };
        if wanted && found.as_ref().is_none_or(|(_, most)| cpus > *most) {
            found = Some((name.to_string(), cpus));
        }
    }
    found
}

/// Checks `--slurm-cpus` against the cluster when `sinfo` can read it: a task asking for more
/// CPUs than any node of its partition has is accepted by sbatch and then pends forever
/// (`Reason=PartitionConfig`), so it is refused here, naming the flag. Where sinfo is missing
/// or cannot reach a cluster, the check is skipped, and said so.
fn check_cpus(a: &SlurmArgs) -> anyhow::Result<()> {
    let mut sinfo = std::process::Command::new("sinfo");
    sinfo.args(["-h", "-N", "-o", "%P %c"]);
    let skipped = |why: &str| {
        eprintln!(
            "note: --slurm-cpus {} was not checked against the cluster: {why}",
            a.slurm_cpus
        )
    };
    let o = match sinfo.output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            skipped("sinfo is not on PATH here");
            return Ok(());
        }
        Err(e) => {
            skipped(&format!("sinfo did not run ({e})"));
            return Ok(());
        }
    };
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        let first = err.lines().next().unwrap_or("no message").trim();
        skipped(&format!(
            "sinfo failed ({first}); is SLURM_CONF set for this cluster?"
        ));
        return Ok(());
    }
    let listed = String::from_utf8_lossy(&o.stdout);
    let Some((partition, most)) = largest_node(&listed, a.slurm_partition.as_deref()) else {
        let which = a
            .slurm_partition
            .as_deref()
            .map_or("the default partition".to_string(), |p| {
                format!("partition {p}")
            });
        skipped(&format!("sinfo lists no node of {which}"));
        return Ok(());
    };
    anyhow::ensure!(
        a.slurm_cpus <= most,
        "--slurm-cpus {}: no node of partition {partition} has more than {most} CPU(s) (sinfo), so every task would pend forever (Reason=PartitionConfig); ask for at most --slurm-cpus {most}",
        a.slurm_cpus
    );
    Ok(())
}

/// Writes the job-array script to `script` and the plan of `jobs` (the whole sweep) in `out`,
/// after checking `--slurm-cpus` against the cluster where sinfo can read it.
pub fn write(script: &Path, a: &SlurmArgs, out: &Path, jobs: &[Job]) -> anyhow::Result<Written> {
    check_cpus(a)?;
    let mem = checked(
        "--slurm-mem",
        &a.slurm_mem,
        |c| c.is_ascii_digit() || "KMGTkmgt".contains(c),
        "4G or 500M",
    )?;
    let time = checked(
        "--slurm-time",
        &a.slurm_time,
        |c| c.is_ascii_digit() || c == ':' || c == '-',
        "24:00:00 or 2-00:00:00",
    )?;
    let name_char = |c: char| c.is_ascii_alphanumeric() || "_.-".contains(c);
    let job_name = checked(
        "--slurm-job-name",
        &a.slurm_job_name,
        name_char,
        "birkhoff-loops",
    )?;
    let partition = a
        .slurm_partition
        .as_deref()
        .map(|p| checked("--slurm-partition", p, name_char, "compute"))
        .transpose()?;
    anyhow::ensure!(!jobs.is_empty(), "--slurm: the sweep has no jobs");
    let tasks = a
        .slurm_tasks
        .map_or(jobs.len().min(DEFAULT_MAX_TASKS), |n| n as usize)
        .min(jobs.len());
    let exe = std::env::current_exe().context("cannot tell where the birkhoff binary is")?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let out_abs = out
        .canonicalize()
        .with_context(|| format!("--out: {}", out.display()))?;
    // Every path written into the script is checked and quoted: none can end its line.
    let (exe_text, cwd_text) = (
        script_path("the birkhoff binary", &exe)?,
        script_path("the working directory", &cwd)?,
    );
    let (script_text, out_text) = (
        script_path("--slurm", script)?,
        script_path("--out", &out_abs)?,
    );
    let plan = out_abs.join(sweep::PLAN_FILE);
    Plan::new(jobs, tasks)
        .write(out)
        .with_context(|| format!("--out: cannot write the plan in {}", out.display()))?;
    let words: Vec<String> = std::iter::once(exe_text.to_string())
        .chain(task_words(std::env::args().skip(1)))
        .map(|w| quote(&w))
        .collect();
    // In the log file's name `%` starts one of Slurm's patterns (%A, %a); `%%` is a `%`.
    let log = format!("{}/slurm-%A_%a.log", out_text.replace('%', "%%"));
    let mut text = format!(
        "#!/bin/bash\n\
         # A Birkhoff sweep as a Slurm job array, written by `birkhoff sweep --slurm`: array task K\n\
         # runs shard K of {tasks} ({jobs} job(s) in all, listed in {plan}).\n\
         # Submit: sbatch {script}\n\
         # Then:   birkhoff sweep merge {out}   (names missing shards, sums the pieces)\n\
         # A task that failed or ran out of time: scontrol requeue JOBID_K, or sbatch --array=K {script};\n\
         # the rerun skips the jobs it finished and redoes the others.\n\
         #SBATCH --job-name={job_name}\n\
         #SBATCH --array=1-{tasks}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --mem={mem}\n\
         #SBATCH --time={time}\n\
         #SBATCH --requeue\n\
         #SBATCH --open-mode=append\n\
         #SBATCH --chdir={cwd}\n\
         #SBATCH --output={log}\n",
        jobs = jobs.len(),
        plan = quote(&format!("{out_text}/{}", sweep::PLAN_FILE)),
        script = quote(script_text),
        out = quote(out_text),
        cpus = a.slurm_cpus,
        cwd = sbatch_quote(cwd_text),
        log = sbatch_quote(&log),
    );
    if let Some(p) = partition {
        text.push_str(&format!("#SBATCH --partition={p}\n"));
    }
    text.push_str(&format!(
        "set -eu\nexport RAYON_NUM_THREADS=\"${{SLURM_CPUS_PER_TASK:-{cpus}}}\"\nexec {} --shard \"${{SLURM_ARRAY_TASK_ID}}/{tasks}\"\n",
        words.join(" "),
        cpus = a.slurm_cpus
    ));
    birkhoff_checker::atomic_file::write(script, text.as_bytes())
        .with_context(|| format!("--slurm: cannot write {}", script.display()))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755))
        .with_context(|| format!("--slurm: cannot make {} executable", script.display()))?;
    let written = Written {
        script: script.to_path_buf(),
        tasks,
        jobs: jobs.len(),
        plan,
        out: out_abs,
        submit: format!("sbatch {}", script.display()),
        merge: format!("birkhoff sweep merge {}", out.display()),
    };
    eprintln!(
        "wrote {}: {tasks} array task(s) for {} job(s); submit it with `{}`, then `{}`",
        script.display(),
        jobs.len(),
        written.submit,
        written.merge
    );
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_command_drops_the_slurm_flags_and_the_shard() {
        let args = [
            "sweep",
            "loop",
            "--size",
            "8",
            "--slurm",
            "x.sh",
            "--slurm-mem=8G",
            "--pieces",
            "256",
            "--shard",
            "1/2",
            "--slurm-tasks",
            "64",
            "--out",
            "o",
        ];
        assert_eq!(
            task_words(args.iter().map(|s| s.to_string())),
            ["sweep", "loop", "--size", "8", "--pieces", "256", "--out", "o"]
        );
        assert_eq!(quote("it's"), r"'it'\''s'");
    }

    /// One argument of an `#SBATCH` line read back as sbatch reads it (`_get_argument` in
    /// Slurm's src/sbatch/opt.c): quotes group, a backslash escapes, an unquoted space or `#` ends.
    fn sbatch_reads(line: &str) -> String {
        let (mut out, mut quoted, mut chars) = (String::new(), None, line.chars());
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('\\', _) => out.extend(chars.next()),
                (c, Some(q)) if c == q => quoted = None,
                ('"' | '\'', None) => quoted = Some(c),
                (' ' | '#', None) => break,
                (c, _) => out.push(c),
            }
        }
        out
    }

    #[test]
    fn the_largest_node_is_of_the_partition_asked_for_else_of_the_default() {
        let sinfo = "local* 2\nlocal* 4\nbig 64\nbig x\n";
        assert_eq!(largest_node(sinfo, None), Some(("local".into(), 4)));
        assert_eq!(largest_node(sinfo, Some("big")), Some(("big".into(), 64)));
        assert_eq!(largest_node(sinfo, Some("gpu")), None);
        assert_eq!(largest_node("", None), None);
    }

    #[test]
    fn hostile_paths_are_refused_or_quoted() {
        for hostile in [
            "o\ntouch PWNED\n",
            "a\rb",
            "tab\there",
            "esc\u{1b}[2J",
            "nul\0",
        ] {
            let e = script_path("--out", Path::new(hostile))
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("--out ") && e.contains("control character"),
                "{e}"
            );
        }
        for value in [
            "/tmp/$(touch PWNED)/`touch PWNED`",
            "/tmp/it's \"quoted\" # not a comment",
            r"/tmp/back\slash\",
            "/tmp/sp ace",
        ] {
            assert_eq!(script_path("--out", Path::new(value)).unwrap(), value);
            assert_eq!(
                sbatch_reads(&sbatch_quote(value)),
                value,
                "{}",
                sbatch_quote(value)
            );
        }
    }
}
