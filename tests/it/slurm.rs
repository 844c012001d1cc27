//! A real Slurm: `scripts/slurm-local.sh` starts munge, slurmctld and slurmd on this machine, a
//! 4-task job array from `birkhoff sweep --slurm` runs there with one task failing once (its
//! result file blocked), then killed by Slurm while it runs; requeued, it redoes only its
//! unfinished piece, and `sweep merge` gives what a local run gives. The cluster is started as
//! root, through `sudo -n` when the test is not root (the jobs then run as the test's user).
//! Skipped, with a message, where Slurm is not installed or neither root nor passwordless sudo
//! is at hand, unless `BIRKHOFF_REQUIRE_SLURM=1` (which `.ci/run` always sets).

use super::cli::{birkhoff, stderr, stdout};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/slurm-local.sh");

/// The local cluster, stopped when dropped.
pub struct Cluster {
    /// Its directory: slurm.conf, state, logs.
    pub dir: PathBuf,
    port: u16,
}

impl Cluster {
    /// Starts a cluster in `dir`, on a port of its own (`offset` apart from other tests').
    pub fn start(dir: PathBuf, offset: u16) -> Cluster {
        let cluster = Cluster {
            dir,
            port: 20000 + (std::process::id() % 20000) as u16 + offset,
        };
        let o = cluster.script("start");
        assert!(
            o.status.success(),
            "slurm-local.sh start: {}{}",
            stdout(&o),
            stderr(&o)
        );
        cluster
    }

    /// Runs `scripts/slurm-local.sh action` as root: directly when the test is root, else
    /// through `sudo -n` (which keeps no environment but what `env` sets).
    fn script(&self, action: &str) -> std::process::Output {
        as_root("env")
            .arg(format!("BIRKHOFF_SLURM_DIR={}", self.dir.display()))
            .arg(format!("BIRKHOFF_SLURM_PORT={}", self.port))
            .args(["bash", SCRIPT, action])
            .output()
            .unwrap()
    }

    /// A Slurm client command against this cluster.
    pub fn run(&self, program: &str, args: &[&str]) -> String {
        self.run_in(Path::new("."), program, args)
    }

    /// A Slurm client command against this cluster, run in `dir`.
    pub fn run_in(&self, dir: &Path, program: &str, args: &[impl AsRef<OsStr>]) -> String {
        let o = Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("SLURM_CONF", self.dir.join("slurm.conf"))
            .output()
            .unwrap();
        let shown: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
        assert!(o.status.success(), "{program} {shown:?}: {}", stderr(&o));
        stdout(&o)
    }

    /// The state of each task of array job `job`, by task number.
    fn states(&self, job: &str) -> Vec<(u32, String)> {
        let text = self.run("scontrol", &["show", "job", job]);
        let mut out = Vec::new();
        let mut task = None;
        for word in text.split_whitespace() {
            if let Some(t) = word.strip_prefix("ArrayTaskId=") {
                task = t.parse().ok();
            }
            if let (Some(state), Some(t)) = (word.strip_prefix("JobState="), task) {
                out.push((t, state.to_string()));
            }
        }
        out.sort();
        out
    }

    /// Waits until task `task` of `job` is in `state`.
    fn wait_until(&self, job: &str, task: u32, state: &str) {
        let start = Instant::now();
        while !self
            .states(job)
            .iter()
            .any(|(t, s)| *t == task && s == state)
        {
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "task {task} of job {job} never {state}: {:?}; logs in {}",
                self.states(job),
                self.dir.display()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Waits until every task of `job` is over (none pending or running) and returns the states.
    pub fn wait(&self, job: &str, tasks: usize) -> Vec<(u32, String)> {
        let start = Instant::now();
        loop {
            let states = self.states(job);
            if states.len() == tasks
                && states.iter().all(|(_, s)| {
                    !matches!(
                        s.as_str(),
                        "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING" | "REQUEUED"
                    )
                })
            {
                return states;
            }
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "job {job} still not done: {states:?}; logs in {}",
                self.dir.display()
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.script("stop");
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| stdout(&o).trim() == "0")
}

/// `program` run as root: itself when the test is root, else through `sudo -n` (with sudo's
/// `PATH`, which has the daemons in /usr/sbin where a user's may not).
fn as_root(program: &str) -> Command {
    if is_root() {
        Command::new(program)
    } else {
        let mut sudo = Command::new("sudo");
        sudo.args(["-n", program]);
        sudo
    }
}

/// Whether the local cluster can be started here (as root, or with passwordless sudo); panics
/// instead of skipping under `BIRKHOFF_REQUIRE_SLURM=1`.
pub fn slurm_available() -> bool {
    let root = as_root("true").output().is_ok_and(|o| o.status.success());
    let installed = root
        && as_root("sh")
            .args(["-c", "command -v slurmctld && command -v munged"])
            .output()
            .is_ok_and(|o| o.status.success());
    if installed {
        return true;
    }
    let why = if root {
        "slurmctld or munged is not installed (apt-get install slurm-wlm munge)"
    } else {
        "it needs root or passwordless sudo (slurmd starts jobs as their users)"
    };
    assert!(
        std::env::var("BIRKHOFF_REQUIRE_SLURM").as_deref() != Ok("1"),
        "BIRKHOFF_REQUIRE_SLURM=1, but {why}"
    );
    eprintln!("skipped: the local Slurm test, because {why}");
    false
}

#[test]
fn a_job_array_on_a_local_slurm_with_a_failed_then_killed_task_requeued_merges_to_a_local_run() {
    if !slurm_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cluster = Cluster::start(tmp.path().join("slurm"), 0);
    let (out, script, local) = (
        tmp.path().join("out"),
        tmp.path().join("run.sh"),
        tmp.path().join("local"),
    );
    let p = |p: &Path| p.to_str().unwrap().to_string();
    let o = birkhoff(&[
        "sweep",
        "loop",
        "--size",
        "7",
        "--pieces",
        "8",
        "--out",
        &p(&out),
        "--slurm",
        &p(&script),
        "--slurm-tasks",
        "4",
        "--slurm-cpus",
        "1",
        "--slurm-mem",
        "500M",
        "--slurm-time",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Task 2 runs pieces 2 and 6, in that order on its one thread; block piece 6's result file
    // with a directory, so that the task fails after storing piece 2.
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sweep-plan.json")).unwrap())
            .unwrap();
    let blocked = out.join(plan["jobs"][5].as_str().unwrap());
    assert!(
        blocked.to_str().unwrap().contains("piece-6-of-8"),
        "{}",
        blocked.display()
    );
    std::fs::create_dir_all(blocked.join("in-the-way")).unwrap();

    let job = cluster
        .run("sbatch", &["--parsable", &p(&script)])
        .trim()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let states = cluster.wait(&job, 4);
    let state = |t: u32| {
        states
            .iter()
            .find(|(k, _)| *k == t)
            .map(|(_, s)| s.as_str())
    };
    assert_eq!(state(2), Some("FAILED"), "{states:?}");
    for t in [1, 3, 4] {
        assert_eq!(state(t), Some("COMPLETED"), "{states:?}");
    }
    std::fs::remove_dir_all(&blocked).unwrap();
    let missing_one = || {
        let o = birkhoff(&["sweep", "merge", &p(&out)]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("shard 2 of 4: 1 of 2 result(s) missing"),
            "{}",
            stderr(&o)
        );
    };
    missing_one();

    // Requeue it with a named pipe where piece 6's result goes: reading it to see whether the
    // piece is done blocks, so the task cannot finish before it is killed, with SIGKILL from
    // Slurm while it runs. A killed task leaves what it had stored and nothing half-written.
    let task = format!("{job}_2");
    let fifo = Command::new("mkfifo").arg(&blocked).status().unwrap();
    assert!(fifo.success(), "mkfifo {}", blocked.display());
    cluster.run("scontrol", &["requeue", &task]);
    cluster.wait_until(&job, 2, "RUNNING");
    cluster.run("scancel", &["--signal=KILL", &task]);
    let states = cluster.wait(&job, 4);
    assert!(
        states.iter().any(|(t, s)| *t == 2 && s != "COMPLETED"),
        "the killed task completed: {states:?}"
    );
    std::fs::remove_file(&blocked).unwrap();
    missing_one();

    // Requeue the killed task: it skips piece 2 and computes piece 6.
    cluster.run("scontrol", &["requeue", &task]);
    let states = cluster.wait(&job, 4);
    assert!(states.iter().all(|(_, s)| s == "COMPLETED"), "{states:?}");
    let log = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|f| f.to_str().unwrap().ends_with("_2.log"))
        .expect("task 2's log");
    let log = std::fs::read_to_string(log).unwrap();
    assert!(log.contains("1 of 2 job(s) already done"), "{log}");

    let o = birkhoff(&["sweep", "merge", &p(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        birkhoff(&["sweep", "loop", "--size", "7", "--out", &p(&local)])
            .status
            .success()
    );
    let counts = |tsv: &str| {
        tsv.lines()
            .map(|l| l.rsplit_once('\t').unwrap().0.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        counts(&stdout(&o)),
        counts(&stdout(&birkhoff(&["sweep", "merge", &p(&local)])))
    );
    assert!(
        stdout(&o).contains("\t7\t23746\texact\t118594560\texact\t"),
        "{}",
        stdout(&o)
    );
}
