//! Long commands report progress when stderr is not a terminal (a cluster's log file): a plain
//! line every `BIRKHOFF_PROGRESS_SECONDS` seconds.

use super::cli::stderr;

#[test]
fn a_long_sweep_prints_plain_progress_lines_into_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    // Quasigroups of order 8 are far out of reach: the sweep runs until its 3-second budget ends.
    let o = crate::birkhoff_command()
        .args(["sweep", "quasigroup", "--size", "8", "--timeout", "3", "--out", dir.path().join("out").to_str().unwrap()])
        .env("BIRKHOFF_PROGRESS_SECONDS", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "a count cut short: {}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("sweep: 0/1")).collect();
    assert!(!lines.is_empty(), "no progress line in:\n{err}");
    assert!(lines.iter().all(|l| l.ends_with("seconds)") || l.ends_with("second)")), "{lines:?}");
    assert!(!err.contains('\u{1b}'), "no terminal control sequences in a pipe: {err}");
}
