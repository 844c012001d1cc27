//! Long commands report progress when stderr is not a terminal (a cluster's log file): a plain
//! line every `BIRKHOFF_PROGRESS_SECONDS` seconds.

use super::cli::stderr;

#[test]
fn a_long_sweep_prints_plain_progress_lines_into_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    // Quasigroups of order 8 are far out of reach: the sweep runs until its 3-second budget ends.
    let o = crate::birkhoff_command()
        .args([
            "sweep",
            "quasigroup",
            "--size",
            "8",
            "--timeout",
            "3",
            "--out",
            dir.path().join("out").to_str().unwrap(),
        ])
        .env("BIRKHOFF_PROGRESS_SECONDS", "1")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "a count cut short: {}",
        stderr(&o)
    );
    let err = stderr(&o);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("sweep: 0/1"))
        .collect();
    assert!(!lines.is_empty(), "no progress line in:\n{err}");
    assert!(
        lines
            .iter()
            .all(|l| l.ends_with("seconds)") || l.ends_with("second)")),
        "{lines:?}"
    );
    assert!(
        !err.contains('\u{1b}'),
        "no terminal control sequences in a pipe: {err}"
    );
}

/// The progress line names the job being counted now, with the classes found so far (it named
/// the last finished job, size 1, for the whole of a size-5 count), and never a job whose result
/// is already stored; a count that cannot be kept under --max-models is refused before it
/// starts, with what it would need.
#[test]
fn a_sweeps_progress_names_what_is_running_and_hopeless_counts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = crate::birkhoff_command()
        .args([
            "sweep",
            "comm_magma",
            "magma",
            "--max-size",
            "5",
            "--timeout",
            "3",
            "--verbose",
            "--out",
            out.to_str().unwrap(),
        ])
        // Often, so that lines fall between one job's end and the next job's start.
        .env("BIRKHOFF_PROGRESS_SECONDS", "0.05")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let running: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("sweep: ") && l.contains("CommMagma at size 5 (about "))
        .collect();
    assert!(
        !running.is_empty(),
        "no progress line names the count of size 5:\n{err}"
    );
    assert!(
        running
            .iter()
            .any(|l| !l.contains("(about 0 classes so far)")),
        "{running:?}"
    );
    // Under --verbose, `LABEL: ENGINE answered in ...` is printed when a job's count is over,
    // before its result is stored: no progress line after it names that job as running
    // (`sweep: 3/8 LABEL (about N classes so far)...`).
    let mut finished: Vec<&str> = Vec::new();
    for l in err.lines() {
        if let Some((label, _)) = l
            .split_once(": ")
            .filter(|(_, rest)| rest.contains(" answered in "))
        {
            finished.push(label);
        } else if let Some(named) = l
            .strip_prefix("sweep: ")
            .and_then(|rest| rest.split_once(' '))
            .and_then(|(_, rest)| rest.split_once(" (about "))
            .map(|(label, _)| label)
        {
            assert!(
                !finished.contains(&named),
                "`{l}` names {named} as running after its count was over:\n{err}"
            );
        }
    }
    assert!(
        ["CommMagma at size 4", "Magma at size 3"]
            .iter()
            .all(|j| finished.contains(j)),
        "{finished:?}\n{err}"
    );
    for n in [4, 5] {
        assert!(
            err.contains(&format!("Magma at size {n}: refused: it has at least "))
                && err.contains("more than --max-models 10000000"),
            "{err}"
        );
    }
    let stored: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && n.contains("agma"))
        .collect();
    assert!(
        stored.iter().any(|n| n.starts_with("Magma__3__")),
        "{stored:?}"
    );
    assert!(
        !stored
            .iter()
            .any(|n| n.starts_with("Magma__4__") || n.starts_with("Magma__5__")),
        "{stored:?}"
    );
}
