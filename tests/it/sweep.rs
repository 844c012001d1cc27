//! `birkhoff sweep` with one count split into pieces, shards, the Slurm script (run here by
//! bash, as Slurm would run each array task) and `sweep merge`'s account of missing shards.

use super::cli::{birkhoff, stderr, stdout};
use std::path::Path;
use std::process::Command;

/// The merged table's data lines without the seconds column.
fn counts(tsv: &str) -> Vec<String> {
    tsv.lines()
        .skip(1)
        .map(|l| l.rsplit_once('\t').unwrap().0.to_string())
        .collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_count_split_into_pieces_merges_to_the_whole_and_missing_shards_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    for k in 1..=3 {
        let o = birkhoff(&[
            "sweep",
            "loop",
            "--size",
            "6",
            "--pieces",
            "5",
            "--out",
            s(&d(&format!("part-{k}"))),
            "--shard",
            &format!("{k}/3"),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = birkhoff(&["sweep", "loop", "--size", "6", "--out", s(&d("whole"))]);
    assert!(o.status.success(), "{}", stderr(&o));
    let whole = stdout(&birkhoff(&["sweep", "merge", s(&d("whole"))]));
    assert!(whole.contains("\t6\t109\texact\t56448\texact\t"), "{whole}");
    // All three shards: the pieces sum to the whole count.
    let o = birkhoff(&[
        "sweep",
        "merge",
        s(&d("part-1")),
        s(&d("part-2")),
        s(&d("part-3")),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(counts(&stdout(&o)), counts(&whole));
    // Shards 2 and 3 missing: named, the sum a lower bound, exit 1.
    let o = birkhoff(&["sweep", "merge", s(&d("part-1"))]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("shards 2-3 of 3: no results"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("\tat_least\t"), "{}", stdout(&o));
    // A shard that lost a result (a task killed before it wrote it) redoes only that one.
    let lost = std::fs::read_dir(d("part-2"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| s(p).contains("__piece-"))
        .unwrap();
    std::fs::remove_file(&lost).unwrap();
    let o = birkhoff(&[
        "sweep",
        "merge",
        s(&d("part-1")),
        s(&d("part-2")),
        s(&d("part-3")),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("shard 2 of 3: 1 of 2 result(s) missing"),
        "{}",
        stderr(&o)
    );
    let o = birkhoff(&[
        "sweep",
        "loop",
        "--size",
        "6",
        "--pieces",
        "5",
        "--out",
        s(&d("part-2")),
        "--shard",
        "2/3",
    ]);
    assert!(
        stderr(&o).contains("1 of 2 job(s) already done"),
        "{}",
        stderr(&o)
    );
    assert!(lost.exists());
}

#[test]
fn a_piece_cut_short_is_a_lower_bound_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = birkhoff(&[
        "sweep",
        "semigroup",
        "--size",
        "5",
        "--pieces",
        "2",
        "--max-nodes",
        "20",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("only lower bounds"), "{}", stderr(&o));
    let o = birkhoff(&["sweep", "merge", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("only lower bounds"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("\texact\t"), "{}", stdout(&o));
}

#[test]
fn the_slurm_script_runs_every_shard_and_merges_to_a_local_run() {
    let dir = tempfile::tempdir().unwrap();
    let (out, script, local) = (
        dir.path().join("out"),
        dir.path().join("run.sh"),
        dir.path().join("local"),
    );
    let o = birkhoff(&[
        "sweep",
        "semigroup",
        "--size",
        "5",
        "--pieces",
        "6",
        "--out",
        s(&out),
        "--slurm",
        s(&script),
        "--slurm-tasks",
        "3",
        "--slurm-time",
        "10",
        "--slurm-mem",
        "500M",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&script).unwrap();
    for line in [
        "#SBATCH --array=1-3",
        "#SBATCH --time=10",
        "#SBATCH --mem=500M",
        "#SBATCH --requeue",
        "#SBATCH --cpus-per-task=2",
        "--shard \"${SLURM_ARRAY_TASK_ID}/3\"",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    let exec = text.lines().find(|l| l.starts_with("exec ")).unwrap();
    assert!(!exec.contains("--slurm"), "{exec}");
    assert!(out.join("sweep-plan.json").exists());
    // With --json, what was written, in JSON on stdout (the same script again).
    let o = birkhoff(&[
        "sweep",
        "semigroup",
        "--size",
        "5",
        "--pieces",
        "6",
        "--out",
        s(&out),
        "--slurm",
        s(&script),
        "--slurm-tasks",
        "3",
        "--slurm-time",
        "10",
        "--slurm-mem",
        "500M",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written: serde_json::Value =
        serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    assert_eq!(
        (written["tasks"].as_u64(), written["jobs"].as_u64()),
        (Some(3), Some(6)),
        "{written}"
    );
    assert_eq!(
        written["submit"].as_str(),
        Some(format!("sbatch {}", s(&script)).as_str()),
        "{written}"
    );
    assert!(
        written["plan"]
            .as_str()
            .unwrap()
            .ends_with("sweep-plan.json"),
        "{written}"
    );
    // Nothing has run: merge names every shard.
    let o = birkhoff(&["sweep", "merge", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("shards 1-3 of 3: no results"),
        "{}",
        stderr(&o)
    );
    // Each array task, as Slurm would start it.
    for k in ["1", "2", "3"] {
        let o = Command::new("bash")
            .arg(&script)
            .env("SLURM_ARRAY_TASK_ID", k)
            .output()
            .unwrap();
        assert!(o.status.success(), "task {k}: {}", stderr(&o));
    }
    assert!(
        birkhoff(&["sweep", "semigroup", "--size", "5", "--out", s(&local)])
            .status
            .success()
    );
    let o = birkhoff(&["sweep", "merge", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        counts(&stdout(&o)),
        counts(&stdout(&birkhoff(&["sweep", "merge", s(&local)])))
    );
    assert!(
        stdout(&o).contains("\t5\t1915\texact\t183732\texact\t"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_split_and_slurm_flags_are_errors_that_name_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for (args, flag) in [
        (vec!["--pieces", "3", "--engine", "sat"], "--pieces"),
        (vec!["--pieces", "0"], "--pieces"),
        (
            vec!["--slurm", "x.sh", "--slurm-mem", "4G; rm -rf /"],
            "--slurm-mem",
        ),
        (
            vec!["--slurm", "x.sh", "--slurm-time", "soon"],
            "--slurm-time",
        ),
        (vec!["--slurm", "x.sh", "--shard", "1/2"], "--shard"),
        (vec!["--size", "3", "--max-size", "4"], "--size"),
    ] {
        let mut all = vec!["sweep", "loop", "--out", s(&out)];
        if !args.contains(&"--max-size") {
            all.extend(["--size", "4"]);
        }
        all.extend(args.iter().copied());
        let o = birkhoff(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{all:?}: {}", stderr(&o));
    }
}

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        }
        out.push(p);
    }
    out
}

#[test]
fn the_slurm_script_quotes_hostile_paths_and_refuses_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let slurm = |cwd: &Path, out: &str, script: &Path| {
        super::birkhoff_command()
            .current_dir(cwd)
            .args([
                "sweep",
                "semigroup",
                "--size",
                "3",
                "--out",
                out,
                "--slurm",
                s(script),
            ])
            .output()
            .unwrap()
    };
    // A newline in --out or in the working directory would end a comment or #SBATCH line and
    // make `touch PWNED` a command of the script: refused, naming the path's origin.
    let script = dir.path().join("refused.sh");
    let o = slurm(dir.path(), "o\ntouch PWNED\n", &script);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--out") && stderr(&o).contains("control character"),
        "{}",
        stderr(&o)
    );
    let cwd = dir.path().join("w\ntouch PWNED\n");
    std::fs::create_dir(&cwd).unwrap();
    let o = slurm(&cwd, "out", &script);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the working directory") && stderr(&o).contains("control character"),
        "{}",
        stderr(&o)
    );
    assert!(!script.exists());
    // Quotes, spaces, `$(...)`, backquotes, `#` and `%` are quoted: the script says what it
    // does, runs the shard in the directory named, and runs nothing else.
    let cwd = dir
        .path()
        .join(r#"w it's "$(touch PWNED)" `touch PWNED` #1 %A \"#);
    std::fs::create_dir(&cwd).unwrap();
    let (out, script) = (
        r#"o 'x' "$(touch PWNED)" `touch PWNED`"#,
        cwd.join("run $(touch PWNED).sh"),
    );
    let o = slurm(&cwd, out, &script);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(
        Command::new("bash")
            .arg("-n")
            .arg(&script)
            .status()
            .unwrap()
            .success(),
        "{text}"
    );
    let o = Command::new("bash")
        .arg(&script)
        .current_dir(&cwd)
        .env("SLURM_ARRAY_TASK_ID", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{text}", stderr(&o));
    let pwned: Vec<_> = files_under(dir.path())
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "PWNED"))
        .collect();
    assert!(pwned.is_empty(), "{pwned:?} from\n{text}");
    let o = birkhoff(&["sweep", "merge", s(&cwd.join(out))]);
    assert!(
        o.status.success() && stdout(&o).contains("\t3\t"),
        "{}{}\n{text}",
        stdout(&o),
        stderr(&o)
    );
}

#[test]
fn a_second_sweep_of_a_shard_into_one_directory_is_refused_and_names_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let shard = |k: &str| {
        birkhoff(&[
            "sweep",
            "semigroup",
            "--size",
            "3",
            "--pieces",
            "2",
            "--out",
            s(&out),
            "--shard",
            k,
        ])
    };
    assert!(shard("1/2").status.success());
    // Shard 1 still running: a process of its own holds the lock (a lock held by this test's
    // own descriptor could outlive its drop in a child that another test thread is forking),
    // with the pid written as a sweep writes it, and a result is being written under a
    // temporary name.
    let lock_file = out.join(".lock-shard-1-of-2");
    let mut holder = Command::new("flock")
        .args(["--exclusive", "--no-fork"])
        .arg(&lock_file)
        .args([
            "sh",
            "-c",
            "echo 4242 > \"$0\"; echo locked; exec sleep 1000",
        ])
        .arg(&lock_file)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.take().unwrap()),
        &mut ready,
    )
    .unwrap();
    assert_eq!(ready.trim(), "locked");
    let result = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.ends_with("__piece-1-of-2.json"))
        .unwrap();
    let live = out.join(format!(".partial-4242-1-{result}"));
    std::fs::write(&live, "being written").unwrap();
    let o = shard("1/2");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "--out {}: another sweep (pid 4242) is running shard 1/2 there",
            s(&out)
        )),
        "{}",
        stderr(&o)
    );
    assert!(live.exists(), "the running sweep's file was deleted");
    // The other shard runs beside it; once the first has ended, it runs again and cleans up.
    assert!(shard("2/2").status.success());
    assert!(live.exists(), "the running sweep's file was deleted");
    holder.kill().unwrap();
    holder.wait().unwrap();
    let o = shard("1/2");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!live.exists());
}

/// `sweep --estimate` predicts instead of counting: every piece in `--json`, their classes
/// adding up to the count (exact here, where the samples walk the whole tree of each piece:
/// 109 loops of order 6), a table by default, and no result file written anywhere. Its flags
/// are checked by name.
#[test]
fn an_estimate_predicts_each_piece_and_counts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = birkhoff_in(
        dir.path(),
        &[
            "--json",
            "sweep",
            "loop",
            "--size",
            "6",
            "--pieces",
            "4",
            "--estimate",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let e = &v[0]["estimate"];
    assert_eq!(v[0]["theory"], "Loop");
    let pieces = e["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 4);
    let classes: f64 = pieces.iter().map(|p| p["classes"].as_f64().unwrap()).sum();
    assert_eq!(classes.round(), 109.0, "{e}");
    assert!(e["cpu_seconds"].as_f64().unwrap() > 0.0 && e["memory_bytes"].as_u64().unwrap() > 0);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
    let o = birkhoff_in(
        dir.path(),
        &["sweep", "quasigroup", "--size", "5", "--estimate"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(
        table.starts_with("theory") && table.contains("Quasigroup"),
        "{table}"
    );
    assert!(stderr(&o).contains("not counts"), "{}", stderr(&o));
    // The engine it predicts, and a flag that needs it.
    let o = birkhoff(&[
        "sweep",
        "loop",
        "--size",
        "6",
        "--estimate",
        "--engine",
        "sat",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--estimate"), "{}", stderr(&o));
    let o = birkhoff(&[
        "sweep",
        "loop",
        "--size",
        "6",
        "--samples",
        "10",
        "--out",
        s(&dir.path().join("x")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--estimate"), "{}", stderr(&o));
}

/// `birkhoff ARGS` run in `dir`.
fn birkhoff_in(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut c = super::birkhoff_command();
    c.current_dir(dir).args(args);
    c.output().unwrap()
}
