//! Text from a language model or a hand-edited file is data of any size and content. This module
//! bounds it, quotes it in messages, escapes it in Markdown and strips terminal control sequences
//! before it is printed, so that it cannot flood the reports, forge a report or synthesis section
//! or drive the terminal. The literature synthesis, the agent's reports and the research
//! workspace all use it (re-exported as `birkhoff_research::text` and `birkhoff_agent::text`).

/// The longest reply read from a model, in bytes; a longer one is rejected (and only this much of
/// it is kept in memory).
pub const MAX_REPLY: usize = 256 * 1024;

/// How much of a model's text an error message quotes, in characters.
const QUOTED: usize = 80;

/// `s` cut to at most `max` characters; `None` if it was not longer.
pub fn cut(s: &str, max: usize) -> Option<String> {
    s.char_indices().nth(max).map(|(i, _)| s[..i].to_string())
}

/// `s` for an error message: printable, and at most 80 characters followed by how long it was.
pub fn quote(s: &str) -> String {
    let s = printable(s);
    match cut(&s, QUOTED) {
        Some(head) => format!("{head}… ({} characters in all)", s.chars().count()),
        None => s,
    }
}

/// Cuts `field` to `max` characters if it is longer, returning the note a fault gives.
pub fn bound(name: &str, field: &mut String, max: usize) -> Option<String> {
    let head = cut(field, max)?;
    let note = format!(
        "`{name}` was {} characters, more than the limit of {max}: cut to {max}",
        field.chars().count()
    );
    *field = head;
    Some(note)
}

/// `s` without terminal control sequences (CSI and OSC escapes, other escapes) and without control
/// characters other than newline and tab: safe to print to a terminal.
pub fn printable(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates up to a final byte in @..~.
                Some('[') => {
                    for d in chars.by_ref() {
                        if ('@'..='~').contains(&d) {
                            break;
                        }
                    }
                }
                // OSC, DCS, SOS, PM, APC: a string up to BEL or ESC \.
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    while let Some(d) = chars.next() {
                        if d == '\u{7}' || (d == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// `s` on one line, for a table cell, a listing or a prompt: printable (see [`printable`]), each
/// newline and tab a space, and at most `max` characters (`…` where cut), so that a hand-edited
/// name can neither start a line of its own nor fill the screen.
pub fn line(s: &str, max: usize) -> String {
    let flat: String = printable(s)
        .chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .collect();
    match cut(&flat, max) {
        Some(head) => format!("{head}…"),
        None => flat,
    }
}

/// `s` as inline Markdown text: printable, on one line, with every character that could start
/// markup escaped, so that it reads literally and cannot open a heading, list, table cell, code
/// span, link or HTML tag.
pub fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in line(s, usize::MAX).chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~' | '!' | '&' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `s` as a Markdown block quote, one quoted line per line of `s`, each escaped as by [`md`]: its
/// lines cannot become headings or sections of the report around it.
pub fn md_block(s: &str) -> String {
    let s = printable(s);
    let lines: Vec<String> = s
        .trim_end()
        .lines()
        .map(|l| {
            if l.trim().is_empty() {
                ">".to_string()
            } else {
                format!("> {}", md(l))
            }
        })
        .collect();
    if lines.is_empty() {
        return ">".into();
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_sequences_are_stripped() {
        assert_eq!(printable("a\u{1b}[31mred\u{1b}[0m b"), "ared b");
        assert_eq!(
            printable("x\u{1b}]0;title\u{7}y\u{1b}]8;;http://e\u{1b}\\z"),
            "xyz"
        );
        assert_eq!(printable("c\u{1b}Md\r\u{8}\u{9b}e\nf\tg"), "cde\nf\tg");
    }

    #[test]
    fn a_line_is_one_printable_bounded_line() {
        assert_eq!(
            line("Name\n## Faults\tx\u{1b}]0;t\u{7}\r\u{85}\0", 80),
            "Name ## Faults x"
        );
        assert_eq!(line(&"é".repeat(300), 100), format!("{}…", "é".repeat(100)));
        assert_eq!(line("short", 100), "short");
    }

    #[test]
    fn markdown_cannot_be_forged() {
        let forged = "fine\n\n## Faults\n\nNone.\n| a | b |\n<script>`x`";
        let inline = md(forged);
        assert!(
            !inline.contains('\n')
                && inline.contains("\\#\\# Faults")
                && inline.contains("\\<script\\>")
        );
        let block = md_block(forged);
        assert!(block.lines().all(|l| l.starts_with('>')), "{block}");
        assert!(block.contains("> \\#\\# Faults"));
    }

    #[test]
    fn long_text_is_cut_and_quoted_briefly() {
        let mut s = "é".repeat(5000);
        assert_eq!(
            bound("notes", &mut s, 100).unwrap(),
            "`notes` was 5000 characters, more than the limit of 100: cut to 100"
        );
        assert_eq!(s.chars().count(), 100);
        assert_eq!(bound("notes", &mut s, 100), None);
        let q = quote(&"x".repeat(10_000_000));
        assert!(
            q.len() < 200 && q.ends_with("(10000000 characters in all)"),
            "{q}"
        );
    }
}
