//! SYNTHESIS.md, rendered from the records alone: no model writes it, no clock or hash order
//! enters it (records are listed by ID, priorities in a fixed order, the newest attempt by
//! number), so two runs over the same records give the same bytes, and a changed record changes
//! it. Every value from a record is escaped ([`crate::text::md`]), so no record can add a
//! section.

use crate::record::{HypothesisStatus, Kind, LeadStatus, Record, TaskStatus};
use crate::text::md;
use crate::workspace::{Loaded, Meta};

/// How many attempts the synthesis lists (the newest); the rest are in records/attempts/.
pub const RECENT_ATTEMPTS: usize = 10;

/// The synthesis of `loaded` (valid records) for the discovery of `meta`.
pub fn render(meta: &Meta, loaded: &Loaded) -> String {
    let mut s = format!("# Synthesis: {}\n\n", md(&meta.discovery));
    s.push_str(&format!("Rendered by `birkhoff research synthesize` from records/ (theory `{}`). Edit the records, not this file.\n\n", meta.theory_id));
    let count = |kind: Kind| loaded.of(kind).count();
    let hyps: Vec<_> = loaded.hypotheses().collect();
    let with = |st: HypothesisStatus| hyps.iter().filter(|h| h.status == st).count();
    s.push_str("## Summary\n\n");
    s.push_str(&format!(
        "- Hypotheses: {} ({} active, {} proven, {} refuted, {} incorporated)\n",
        hyps.len(),
        with(HypothesisStatus::Active),
        with(HypothesisStatus::Proved),
        with(HypothesisStatus::Refuted),
        with(HypothesisStatus::Incorporated)
    ));
    s.push_str(&format!(
        "- Tasks: {}, leads: {}, attempts: {}\n",
        count(Kind::Task),
        count(Kind::Lead),
        count(Kind::Attempt)
    ));
    if let Some(last) = loaded.attempts().last() {
        s.push_str(&format!(
            "- Last attempt: {} ({}, {})\n",
            last.id,
            last.phase.name(),
            word(last.outcome)
        ));
    }

    s.push_str("\n## Open tasks (by priority)\n\n");
    let mut tasks: Vec<_> = loaded
        .records
        .iter()
        .filter_map(|r| {
            if let Record::Task(t) = r {
                Some(t)
            } else {
                None
            }
        })
        .filter(|t| t.status != TaskStatus::Done)
        .collect();
    // Stable sort: within a priority, by ID. Priority's order is its declaration's: high first.
    tasks.sort_by_key(|t| t.priority);
    list(
        &mut s,
        tasks.iter().map(|t| {
            let blocked = if t.blocked_on.is_empty() {
                String::new()
            } else {
                format!(" (waits for {})", t.blocked_on.join(", "))
            };
            format!(
                "**{}** [{}, {}] {}{blocked}",
                t.id,
                word(t.priority),
                word(t.status),
                md(&t.title)
            )
        }),
    );

    s.push_str("\n## Active hypotheses\n\n");
    list(
        &mut s,
        hyps.iter()
            .filter(|h| h.status == HypothesisStatus::Active)
            .map(|h| {
                let last = h
                    .evidence
                    .last()
                    .map(|e| format!(" — {}", md(e)))
                    .unwrap_or_default();
                format!(
                    "**{}** ({} confidence) {}{last}",
                    h.id,
                    word(h.confidence),
                    md(&h.statement)
                )
            }),
    );

    s.push_str("\n## Settled hypotheses\n\n");
    list(
        &mut s,
        hyps.iter()
            .filter(|h| h.status != HypothesisStatus::Active)
            .map(|h| {
                let last = h
                    .evidence
                    .last()
                    .map(|e| format!(" — {}", md(e)))
                    .unwrap_or_default();
                format!(
                    "**{}** {}: {}{last}",
                    h.id,
                    word(h.status),
                    md(&h.statement)
                )
            }),
    );

    s.push_str("\n## Leads (by priority)\n\n");
    let mut leads: Vec<_> = loaded
        .records
        .iter()
        .filter_map(|r| {
            if let Record::Lead(l) = r {
                Some(l)
            } else {
                None
            }
        })
        .filter(|l| l.status != LeadStatus::DeadEnd)
        .collect();
    leads.sort_by_key(|l| l.priority);
    list(
        &mut s,
        leads.iter().map(|l| {
            let reference = l
                .reference
                .as_deref()
                .map(|r| format!(" ({})", md(r)))
                .unwrap_or_default();
            format!(
                "**{}** [{}, {}] {}{reference}",
                l.id,
                word(l.priority),
                word(l.status),
                md(&l.title)
            )
        }),
    );

    s.push_str(&format!(
        "\n## Recent attempts (newest first, at most {RECENT_ATTEMPTS})\n\n"
    ));
    let attempts: Vec<_> = loaded.attempts().collect();
    list(
        &mut s,
        attempts.iter().rev().take(RECENT_ATTEMPTS).map(|a| {
            format!(
                "**{}** {}, {} ({}, {}): {}",
                a.id,
                a.phase.name(),
                word(a.outcome),
                word(a.by),
                a.created,
                md(&a.summary)
            )
        }),
    );
    s
}

/// A Markdown list of `items`, or "None." when there are none.
fn list(s: &mut String, items: impl Iterator<Item = String>) {
    let mut any = false;
    for item in items {
        s.push_str(&format!("- {item}\n"));
        any = true;
    }
    if !any {
        s.push_str("None.\n");
    }
}

/// A schema enum as its word in the files (`dead_end`, `high`).
fn word<T: serde::Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
