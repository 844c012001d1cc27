//! Output helpers shared by the commands: JSON on stdout, aligned text tables, progress bars.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// The line printed under every model a command shows (its JSON says `"checked_by_evaluator":
/// true`): each was re-checked by the evaluator, which shares no code with the search.
pub const CHECKED_BY_EVALUATOR: &str =
    "checked by the evaluator: every axiom holds in each model shown";

/// Prints a JSON value on stdout, indented near the top ([`birkhoff_library::json`]).
pub fn print_json(v: &serde_json::Value) {
    let text = birkhoff_library::json::pretty(v).expect("JSON values always serialize");
    println!("{}", String::from_utf8_lossy(&text));
}

/// Formats rows as a table with a header, columns padded to their widest cell: numeric columns
/// (counts such as `12`, `≥7`, `?`, `0.31`) to the right, text to the left. Each cell is put on
/// one printable line first: names in the cells come from records, which may be hand-edited.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| birkhoff_agent::text::line(c, usize::MAX))
                .collect()
        })
        .collect();
    let numeric = |c: &str| {
        c.chars()
            .all(|ch| ch.is_ascii_digit() || "≥?.x-".contains(ch))
    };
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    let mut right = vec![true; header.len()];
    for r in &rows {
        for (i, c) in r.iter().enumerate().take(header.len()) {
            widths[i] = widths[i].max(c.chars().count());
            right[i] &= numeric(c);
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let padded: Vec<String> = cells
            .enumerate()
            .map(|(i, c)| {
                // `format!` pads by chars, which is what a terminal shows for these cells.
                let w = widths[i];
                if right[i] {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let mut out = line(&mut header.iter().copied());
    out.push('\n');
    for r in &rows {
        out.push_str(&line(&mut r.iter().map(String::as_str)));
        out.push('\n');
    }
    out
}

/// How often a progress line is printed when stderr is not a terminal: every
/// `BIRKHOFF_PROGRESS_SECONDS` seconds (a positive number), 10 by default.
pub const PROGRESS_SECONDS_VAR: &str = "BIRKHOFF_PROGRESS_SECONDS";

/// A progress bar on stderr for `len` steps. On a terminal it draws itself and ticks on its own,
/// so that a long step still shows the elapsed time. When stderr is not a terminal (a log file
/// on a cluster, a pipe) it prints a plain line instead, `what: pos/len message (elapsed)`,
/// every [`PROGRESS_SECONDS_VAR`] seconds until the bar is finished or dropped.
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    shown(bar)
}

/// A spinner on stderr for one long step of unknown length (`what (elapsed)`), shown like
/// [`progress`]: drawn on a terminal, a plain line every few seconds otherwise.
pub fn spinner(what: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("the template is valid"),
    );
    bar.set_message(what.to_string());
    shown(bar)
}

/// Starts showing `bar`: its own ticks on a terminal, plain lines from a thread otherwise.
fn shown(bar: ProgressBar) -> ProgressBar {
    if std::io::stderr().is_terminal() {
        bar.enable_steady_tick(Duration::from_millis(120));
    } else {
        let every = std::env::var(PROGRESS_SECONDS_VAR)
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .unwrap_or(10.0);
        let weak = bar.downgrade();
        std::thread::spawn(move || plain_progress(&weak, Duration::from_secs_f64(every)));
    }
    bar
}

/// Prints `bar`'s state as one line on stderr every `every`, until it is finished or dropped.
fn plain_progress(bar: &indicatif::WeakProgressBar, every: Duration) {
    let mut last = std::time::Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(100).min(every));
        let Some(bar) = bar.upgrade() else { return };
        if bar.is_finished() {
            return;
        }
        if last.elapsed() >= every {
            last = std::time::Instant::now();
            let mut line = bar.prefix();
            if let Some(len) = bar.length() {
                line.push_str(&format!(": {}/{len}", bar.position()));
            }
            let msg = bar.message();
            if !msg.is_empty() {
                line.push_str(&format!("{}{msg}", if line.is_empty() { "" } else { " " }));
            }
            eprintln!("{line} ({})", indicatif::HumanDuration(bar.elapsed()));
        }
    }
}
