//! Output helpers shared by the commands: JSON on stdout, aligned text tables, progress bars.

use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;

/// The line printed under every model a command shows (its JSON says `"checked_by_evaluator":
/// true`): each was re-checked by the evaluator, which shares no code with the search.
pub const CHECKED_BY_EVALUATOR: &str = "checked by the evaluator: every axiom holds in each model shown";

/// Prints a JSON value on stdout, pretty.
pub fn print_json(v: &serde_json::Value) {
    println!("{}", serde_json::to_string_pretty(v).expect("JSON values always serialize"));
}

/// Formats rows as a table with a header, columns padded to their widest cell: numeric columns
/// (counts such as `12`, `≥7`, `?`, `0.31`) to the right, text to the left.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let numeric = |c: &str| c.chars().all(|ch| ch.is_ascii_digit() || "≥?.x-".contains(ch));
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    let mut right = vec![true; header.len()];
    for r in rows {
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
                if right[i] { format!("{c:>w$}") } else { format!("{c:<w$}") }
            })
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let mut out = line(&mut header.iter().copied());
    out.push('\n');
    for r in rows {
        out.push_str(&line(&mut r.iter().map(String::as_str)));
        out.push('\n');
    }
    out
}

/// A progress bar on stderr for `len` steps. It draws only when stderr is a terminal, and ticks
/// on its own so that a long step still shows the elapsed time.
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}
