//! The README's promises, kept literally: its quick start and every command of its "Using it"
//! block run here, as written (with `birkhoff` being this build's binary), in a fresh folder that
//! holds the shipped `examples/`, and each ends with the exit code the README promises: 0 done or
//! 1 an honest incomplete answer, never 2 (an error in the input or the flags) and never a crash.
//! Nothing reaches the network: the literature agent runs offline (`BIRKHOFF_OFFLINE=1`), and
//! no `claude` is on the `PATH`.

use std::path::Path;
use std::process::Output;

const README: &str = include_str!("../../README.md");

/// Words of a shell command line: spaces separate, double quotes group, `#` after a space starts a
/// comment. (The README's commands use nothing more of the shell, except the glob in
/// `sweep merge spectra-*`, expanded by [`expand`].)
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut started) = (Vec::new(), String::new(), false, false);
    let mut prev = ' ';
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            '#' if !quoted && prev == ' ' => break,
            ' ' if !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
        prev = c;
    }
    if started {
        out.push(word);
    }
    out
}

/// The shell's expansion of `prefix*` in `dir`, sorted; the word itself when nothing matches.
fn expand(dir: &Path, word: &str) -> Vec<String> {
    let Some(prefix) = word.strip_suffix('*') else {
        return vec![word.to_string()];
    };
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(prefix))
        .collect();
    found.sort();
    if found.is_empty() {
        vec![word.to_string()]
    } else {
        found
    }
}

/// The first fenced `sh` block after `heading`, as written.
fn block_after(heading: &str) -> &'static str {
    README
        .split(heading)
        .nth(1)
        .expect("the README has the heading")
        .split("```sh\n")
        .nth(1)
        .expect("a sh block follows")
        .split("```")
        .next()
        .unwrap()
}

/// The commands of a fenced `sh` block after `heading`, without the leading `birkhoff`.
fn commands_after(heading: &str) -> Vec<Vec<String>> {
    block_after(heading)
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("birkhoff "))
        .map(words)
        .collect()
}

fn run(dir: &Path, args: &[String]) -> Output {
    run_with_path(dir, args, &dir.join("no-programs-here").into_os_string())
}

/// Runs the command with this `PATH`; `> FILE` at the end sends its standard output to the file,
/// as the shell would.
fn run_with_path(dir: &Path, args: &[String], path: &std::ffi::OsStr) -> Output {
    let (args, redirect) = match args.iter().position(|a| a == ">") {
        Some(i) => (&args[..i], args.get(i + 1)),
        None => (args, None),
    };
    let args: Vec<String> = args.iter().flat_map(|a| expand(dir, a)).collect();
    let out = crate::birkhoff_command()
        .args(&args)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap_or_else(|e| panic!("{args:?} did not run: {e}"));
    if let Some(file) = redirect {
        std::fs::write(dir.join(file), &out.stdout).unwrap();
    }
    out
}

fn copy_examples(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    std::fs::create_dir_all(to.join("examples")).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join("examples").join(e.file_name())).unwrap();
    }
}

#[test]
fn every_command_the_readme_shows_works_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    copy_examples(dir.path());
    // The quick start: `cargo run --release -- agent ...` is this binary with the same words.
    let quick = README
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let quick_args = words(
        quick
            .strip_prefix("cargo run --release -- ")
            .expect("the quick start runs the binary through cargo"),
    );
    let o = run(dir.path(), &quick_args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{quick}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let commands = commands_after("## Using it");
    assert!(
        commands.len() >= 20,
        "the README's command list was not found: {commands:?}"
    );
    for args in &commands {
        if args[0] == "serve" {
            serves_until_ctrl_c(dir.path(), args);
            continue;
        }
        let line = args.join(" ");
        let o = run(dir.path(), args);
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        if args.iter().any(|a| a == "--llm") {
            // Without `claude` installed, the README says to install it: the run says so and
            // fails, rather than quietly running offline.
            assert_ne!(o.status.code(), Some(0), "{line}: ran without claude");
            assert!(err.contains("claude"), "{line}: {err}");
            continue;
        }
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{line}: exit {:?}\n{out}\n{err}",
            o.status.code()
        );
        assert!(!err.contains("panicked"), "{line}: {err}");
        if line == "library search semigroup" {
            // The quick start's goal names semigroups: a discovery found there (stored with a
            // score) is what this search finds.
            let hits: Vec<serde_json::Value> = serde_json::from_slice(
                &run(dir.path(), &[args.clone(), vec!["--json".into()]].concat()).stdout,
            )
            .unwrap();
            assert!(
                hits.iter()
                    .any(|h| h["kind"] == "theory" && h["score"].is_number()),
                "{out}"
            );
        }
    }
}

/// `serve` runs until Ctrl-C: it is started as shown but on a free port (`--port 0`: the
/// README's port may be taken on a shared machine), must serve the site `report html` wrote
/// before it, and must stop on Ctrl-C with exit code 130.
fn serves_until_ctrl_c(dir: &Path, args: &[String]) {
    use std::io::{BufRead, Read, Write};
    let mut child = crate::birkhoff_command()
        .args(args)
        .args(["--port", "0"])
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("serve printed no address: {line:?}"))
        .trim_end_matches('/')
        .to_string();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    write!(s, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut page = String::new();
    s.read_to_string(&mut page).unwrap();
    assert!(
        page.starts_with("HTTP/1.1 200") && page.contains("Research cycles"),
        "{page}"
    );
    // SAFETY: kill(2) with the pid of our own child and a valid signal number.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    assert_eq!(
        child.wait().unwrap().code(),
        Some(130),
        "serve did not stop on Ctrl-C as promised"
    );
}

/// The cluster example without a cluster: the estimate predicts every piece, the script is
/// written (with a note that the CPUs were not checked, sinfo being absent) and merge names every
/// shard missing (exit 1). Its `export` names the configuration `scripts/slurm-local.sh` writes.
#[test]
fn the_readme_cluster_commands_work_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<&str> = block_after("## On a cluster (Slurm)").lines().collect();
    assert!(
        lines[0].starts_with("scripts/slurm-local.sh start"),
        "{lines:?}"
    );
    let script = include_str!("../../scripts/slurm-local.sh");
    assert!(
        lines[1].starts_with("export SLURM_CONF=/tmp/birkhoff-slurm/slurm.conf ")
            && script.contains("dir=\"${BIRKHOFF_SLURM_DIR:-/tmp/birkhoff-slurm}\"")
            && script.contains("conf=\"$dir/slurm.conf\""),
        "{lines:?}"
    );
    let commands = commands_after("## On a cluster (Slurm)");
    assert_eq!(commands.len(), 3, "{commands:?}");
    let o = run(dir.path(), &commands[0]);
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        out.starts_with("theory") && out.contains("Loop") && out.contains(" 256 "),
        "{out}"
    );
    assert!(err.contains("not counts"), "{err}");
    let o = run(dir.path(), &commands[1]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("--slurm-cpus 1 was not checked against the cluster: sinfo is not on PATH"),
        "{err}"
    );
    let script = std::fs::read_to_string(dir.path().join("loops-8.sh")).unwrap();
    assert!(
        script.contains("#SBATCH --array=1-256") && script.contains("/256\""),
        "{script}"
    );
    let o = run(dir.path(), &commands[2]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("shards 1-256 of 256: no results"), "{err}");
}

/// The cluster example as written, on the local Slurm that CI starts (`scripts/slurm-local.sh`,
/// in a directory and on ports of its own; the README's `export` points at it): the script is
/// written after sinfo's check and sbatch runs it. The whole array takes two hours on two
/// CPUs, so its first two tasks are run (`sbatch --array=1-2`, as the README says to resubmit a
/// task), and merge sums them as a local run of the same two pieces does, naming the 254 shards
/// missing (exit 1). A request for more CPUs than the node has is refused before anything is
/// written. Skipped where Slurm cannot run, unless `BIRKHOFF_REQUIRE_SLURM=1`.
#[test]
fn the_readme_cluster_example_runs_on_a_local_slurm_and_merges_to_a_local_run() {
    if !crate::slurm::slurm_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cluster = crate::slurm::Cluster::start(tmp.path().join("slurm"), 2);
    let dir = tmp.path().join("work");
    std::fs::create_dir(&dir).unwrap();
    let commands = commands_after("## On a cluster (Slurm)");
    let with_cluster = |args: &[String]| {
        let o = crate::birkhoff_command()
            .args(args)
            .current_dir(&dir)
            .env("SLURM_CONF", cluster.dir.join("slurm.conf"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        (o, err)
    };

    // More CPUs than the node has: refused, naming the flag; nothing written.
    let greedy: Vec<String> = commands[1]
        .iter()
        .map(|w| {
            if w == "1" {
                "64".to_string()
            } else {
                w.clone()
            }
        })
        .collect();
    let (o, err) = with_cluster(&greedy);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--slurm-cpus 64: no node of partition local has more than")
            && err.contains("Reason=PartitionConfig"),
        "{err}"
    );
    assert!(!dir.join("loops-8.sh").exists());

    let (o, err) = with_cluster(&commands[1]);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("not checked"), "{err}");
    let sbatch = block_after("## On a cluster (Slurm)")
        .lines()
        .find(|l| l.starts_with("sbatch "))
        .expect("the example submits with sbatch");
    let mut args = vec!["--array=1-2".to_string()];
    args.extend(words(sbatch).into_iter().skip(1));
    let submitted = cluster.run_in(&dir, "sbatch", &args);
    let job = submitted
        .split_whitespace()
        .last()
        .expect("sbatch names the job")
        .to_string();
    let states = cluster.wait(&job, 2);
    assert!(states.iter().all(|(_, s)| s == "COMPLETED"), "{states:?}");

    let (o, err) = with_cluster(&commands[2]);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("shards 3-256 of 256: no results"), "{err}");
    for shard in ["1/256", "2/256"] {
        let local = [
            "sweep", "loop", "--size", "8", "--pieces", "256", "--shard", shard, "--out", "local",
        ]
        .map(String::from);
        assert_eq!(with_cluster(&local).0.status.code(), Some(0));
    }
    let merge_local = ["sweep", "merge", "local"].map(String::from);
    let counts = |tsv: &[u8]| {
        String::from_utf8_lossy(tsv)
            .lines()
            .map(|l| l.rsplit_once('\t').unwrap().0.to_string())
            .collect::<Vec<_>>()
    };
    let merged = std::fs::read(dir.join("loops-8-table.tsv")).unwrap();
    assert_eq!(
        counts(&merged),
        counts(&with_cluster(&merge_local).0.stdout)
    );
    assert!(
        String::from_utf8_lossy(&merged).contains("\t8\t381189\tat_least\t15369334080\tat_least\t"),
        "{}",
        String::from_utf8_lossy(&merged)
    );
}

/// The external-prover examples: with the prover installed they decide (exit 0); without it,
/// they say it is not on PATH and fail with 2, as the README says.
#[test]
fn the_readme_external_prover_examples_work_or_name_the_missing_prover() {
    let dir = tempfile::tempdir().unwrap();
    let commands = commands_after("## Other provers and formats");
    assert!(
        commands.iter().any(|c| c.iter().any(|w| w == "--external")),
        "{commands:?}"
    );
    let path = std::env::var_os("PATH").unwrap_or_default();
    for args in &commands {
        let line = args.join(" ");
        let name = &args[args.iter().position(|w| w == "--external").unwrap() + 1];
        let installed = std::env::split_paths(&path).any(|d| d.join(name).is_file());
        let o = run_with_path(dir.path(), args, &path);
        let err = String::from_utf8_lossy(&o.stderr);
        if installed {
            assert_eq!(
                o.status.code(),
                Some(0),
                "{line}: {}{err}",
                String::from_utf8_lossy(&o.stdout)
            );
        } else {
            assert_eq!(o.status.code(), Some(2), "{line}: {err}");
            assert!(err.contains("not on PATH"), "{line}: {err}");
        }
    }
}

#[test]
fn the_readme_shows_two_setup_commands_first() {
    let first = README
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let lines: Vec<&str> = first.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 2, "{first}");
    assert!(
        lines[0].starts_with("cargo run --release -- agent"),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines[1], "cargo test --workspace",
        "the test command .ci/run runs"
    );
    let ci =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == lines[1]),
        ".ci/run runs the README's test command"
    );
}

/// Issue 55: `cargo install` without `--locked` ignores Cargo.lock (newer dependencies, a rebuild
/// of minutes), so every `cargo install` of this repository the README shows passes `--locked`.
#[test]
fn the_readme_installs_with_the_lock_file() {
    let installs: Vec<&str> = README
        .match_indices("cargo install ")
        .map(|(i, _)| README[i..].split('`').next().unwrap())
        .filter(|c| c.contains("--path"))
        .collect();
    assert!(
        !installs.is_empty(),
        "the README says how to install birkhoff"
    );
    for c in installs {
        assert!(
            c.split_whitespace().any(|w| w == "--locked"),
            "`{c}` ignores Cargo.lock: add --locked"
        );
    }
}

/// The set-up paragraph after the quick start (up to "## Using it"), its lines joined by spaces.
fn setup_paragraph() -> String {
    let after = README
        .split("## Using it")
        .next()
        .unwrap()
        .split("```sh\n")
        .nth(1)
        .expect("the quick start's block")
        .split_once("```")
        .expect("the block ends")
        .1;
    after.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The number written just before the first `suffix` in `text` (`about 6 minutes`: 6).
fn number_before(text: &str, suffix: &str) -> f64 {
    let (before, _) = text
        .split_once(suffix)
        .unwrap_or_else(|| panic!("`{suffix}` not found in: {text}"));
    let word = before.rsplit(' ').next().unwrap();
    word.parse()
        .unwrap_or_else(|_| panic!("no number before `{suffix}` (found `{word}`) in: {text}"))
}

/// A row of docs/BENCHMARKS.md's issue 55 table of clean release builds: its wall time in
/// minutes and its peak memory in GiB.
fn measured_build(row: &str) -> (f64, f64) {
    let benchmarks = include_str!("../../docs/BENCHMARKS.md");
    let line = benchmarks
        .lines()
        .find(|l| l.starts_with(&format!("| {row} |")))
        .unwrap_or_else(|| panic!("docs/BENCHMARKS.md has no build row `{row}`"));
    let cells: Vec<&str> = line.split('|').map(str::trim).collect();
    let wall: Vec<f64> = cells[2]
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let [min, sec] = wall[..] else {
        panic!("wall time `{}` is not `M min S s`", cells[2])
    };
    let gib = cells[4]
        .strip_suffix(" GiB")
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("peak memory `{}` is not `N GiB`", cells[4]));
    (min + sec / 60.0, gib)
}

/// The `[section]` of Cargo.toml as `key = value` pairs (comments and blank lines dropped,
/// strings in double quotes).
fn cargo_toml_section(section: &str) -> Vec<(String, String)> {
    let manifest = include_str!("../../Cargo.toml");
    let header = format!("[{section}]");
    manifest
        .lines()
        .skip_while(|l| l.trim() != header)
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter_map(|l| {
            let (k, v) = l.split('#').next()?.split_once('=')?;
            Some((k.trim().to_string(), v.trim().replace('\'', "\"")))
        })
        .collect()
}

/// Issue 55: the README states what the first build costs, as measured (docs/BENCHMARKS.md: the
/// wall time and peak memory of a clean release build, fat LTO as shipped), names the thin-LTO
/// fallback for machines with less memory with its own measured cost, and says what building
/// and running the tests costs. The profiles those figures were measured with are kept: fat LTO
/// in one codegen unit for release, line tables only for dev (which the test profile inherits).
#[test]
fn the_readme_states_the_first_builds_measured_cost_and_the_profiles_are_kept() {
    let setup = setup_paragraph();
    // The first build, fat LTO as shipped.
    let first = setup
        .split_once("The first command builds Birkhoff")
        .unwrap_or_else(|| {
            panic!("the set-up paragraph says what the first command builds: {setup}")
        })
        .1;
    let (minutes, memory) = (
        number_before(first, " minutes from a clean checkout"),
        number_before(first, " GB of memory for the final optimized link"),
    );
    let (wall, peak) = measured_build("fat LTO, 1 codegen unit (shipped)");
    assert!(
        (minutes - wall).abs() <= 0.5 && (memory - peak).abs() <= 0.051,
        "the README says {minutes} minutes and {memory} GB; docs/BENCHMARKS.md measured {wall:.2} min and {peak} GiB"
    );
    // The fallback for less memory: thin LTO in 16 codegen units, with its measured cost.
    let fallback = "`CARGO_PROFILE_RELEASE_LTO=thin CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16`";
    let thin = first
        .split_once(fallback)
        .unwrap_or_else(|| {
            panic!("the set-up paragraph names the thin-LTO fallback {fallback}: {setup}")
        })
        .1;
    let (minutes, memory) = (number_before(thin, " minutes,"), number_before(thin, " GB"));
    let (wall, peak) = measured_build("thin LTO, 16 codegen units");
    assert!(
        (minutes - wall).abs() <= 0.5 && (memory - peak).abs() <= 0.051,
        "the README says {minutes} minutes and {memory} GB for thin LTO; docs/BENCHMARKS.md measured {wall:.2} min and {peak} GiB"
    );
    assert!(thin.contains("docs/BENCHMARKS.md"), "{setup}");
    // The tests: building and running them.
    let tests = setup
        .split_once("The second runs every test")
        .unwrap_or_else(|| panic!("the set-up paragraph says what the test command costs: {setup}"))
        .1;
    assert!(
        number_before(tests, " minutes from a clean checkout") > 0.0
            && tests.contains(" to build and ")
            && tests.contains(" to run"),
        "{setup}"
    );

    let release = cargo_toml_section("profile.release");
    for kept in [("lto", "\"fat\""), ("codegen-units", "1")] {
        assert!(
            release
                .iter()
                .any(|(k, v)| (k.as_str(), v.as_str()) == kept),
            "[profile.release] lost {} = {} (the README's figures are of that build): {release:?}",
            kept.0,
            kept.1
        );
    }
    let dev = cargo_toml_section("profile.dev");
    assert!(
        dev.iter()
            .any(|(k, v)| k == "debug" && v == "\"line-tables-only\""),
        "[profile.dev] lost debug = \"line-tables-only\": {dev:?}"
    );
    // The test profile inherits dev's debug info, and adds none.
    let test = cargo_toml_section("profile.test");
    assert!(
        test.iter().all(|(k, _)| k != "debug" && k != "inherits"),
        "[profile.test] sets its own debug info or base: {test:?}"
    );
}

/// "From agent to a PDF": exactly three commands, run as written in a fresh folder with the
/// caller's `PATH` (so pdflatex is found when installed): each exits 0, and the paper of the
/// discovery the second lists first is where the README says, compiled when pdflatex is there.
#[test]
fn the_readme_goes_from_agent_to_a_pdf_in_three_commands() {
    let dir = tempfile::tempdir().unwrap();
    let commands = commands_after("## From agent to a PDF");
    assert_eq!(commands.len(), 3, "{commands:?}");
    assert_eq!(
        (commands[0][0].as_str(), commands[2][0].as_str()),
        ("agent", "paper")
    );
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut outputs = Vec::new();
    for args in &commands {
        let o = run_with_path(dir.path(), args, &path);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        outputs.push(String::from_utf8_lossy(&o.stdout).into_owned());
    }
    // `--best` wrote the paper of the discovery `report --top` listed first.
    let listed = &outputs[1];
    let first = listed
        .lines()
        .find(|l| l.contains(" thy-"))
        .unwrap_or_else(|| panic!("report --top listed no discovery: {listed}"));
    let (name, id) = (
        first.split_whitespace().next().unwrap(),
        first
            .split_whitespace()
            .find(|w| w.starts_with("thy-"))
            .unwrap(),
    );
    let paper = dir
        .path()
        .join("birkhoff-library")
        .join("papers")
        .join(birkhoff_paper::slug(name, id));
    assert!(
        paper.join("OUTPUT.tex").is_file() && paper.join("references.bib").is_file(),
        "no paper in {}: report listed\n{listed}paper wrote\n{}",
        paper.display(),
        outputs[2]
    );
    let pdflatex = std::env::split_paths(&path).any(|d| d.join("pdflatex").is_file());
    assert!(
        !pdflatex || paper.join("OUTPUT.pdf").is_file(),
        "pdflatex is installed but no PDF was written"
    );
}
