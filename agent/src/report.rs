//! The cycle report's Markdown rendering, with spectra as small bar charts and models as Cayley
//! tables. The report itself ([`CycleReport`]) is a library type, so that its readers need no
//! agent.

use crate::text::{md, md_block};
use birkhoff_library::cycle::Settled;
pub use birkhoff_library::cycle::{
    CandidateSummary, CycleReport, Discovery, Fault, LiteratureNote, RunInfo, ToolCall,
};
use birkhoff_library::record::SpectrumRow;
use std::fmt::Write;

/// A conjecture's line in the report, with its countermodel's tables or its proof's steps.
pub fn settled_md(c: &Settled) -> String {
    let mut out = format!(
        "- \\[{}\\] {} — **{:?}** ({}; proposed by {})\n",
        md(&c.theory),
        md(&c.statement),
        c.status,
        md(&c.evidence),
        md(&c.proposed_by)
    );
    for block in [&c.countermodel, &c.proof].into_iter().flatten() {
        let _ = writeln!(out, "\n```text\n{block}```");
    }
    out
}

/// A spectrum as a small bar chart, one line per size: `  3 | ████ 4`.
pub fn bars(rows: &[SpectrumRow]) -> String {
    let max = rows.iter().map(|r| r.iso.value).max().unwrap_or(0).max(1);
    let mut out = String::new();
    for r in rows {
        let width = if r.iso.value == 0 {
            0
        } else {
            1 + (r.iso.value.min(max) * 29 / max) as usize
        };
        let _ = writeln!(
            out,
            "  {:>5} | {} {}",
            birkhoff_checker::sizes_label(&r.sizes),
            "█".repeat(width),
            r.iso
        );
    }
    out
}

/// Tools called once per candidate, summed up in the Markdown's log (failures still listed).
const ROUTINE: [&str; 3] = ["check_models", "score", "identify"];

/// How many of the top candidates the Markdown shows in full, so that a cycle report stays
/// readable (about 200 lines at the default settings).
const TOP_IN_MARKDOWN: usize = 3;

/// A candidate in Markdown; `model` shows its small model as Cayley tables too.
fn candidate_md(out: &mut String, c: &CandidateSummary, model: bool) {
    let _ = writeln!(
        out,
        "- Origin: {}{}",
        md(&c.origin),
        if c.parents.is_empty() {
            String::new()
        } else {
            format!(" (from {})", md(&c.parents.join(", ")))
        }
    );
    let _ = writeln!(out, "- Score: {}", crate::prompt::score_line(&c.score));
    if let Some(why) = &c.same_as_parent {
        let _ = writeln!(out, "- Not a discovery: {}", md(why));
    }
    if let Some(what) = &c.standing {
        let _ = writeln!(out, "- What it is: {}", md(what));
    }
    let _ = writeln!(out, "\n```text\n{}```", c.axioms);
    if !c.spectrum.is_empty() {
        let _ = writeln!(
            out,
            "\nSpectrum (models up to isomorphism; ≥k: search cut short):\n\n```text\n{}```",
            bars(&c.spectrum)
        );
    }
    if model {
        for m in &c.oeis {
            let _ = writeln!(out, "\n- Spectrum matches {}", md(m));
        }
        for p in &c.patterns {
            let _ = writeln!(out, "- Conjecture (open) from the spectrum: {}", md(p));
        }
    }
    if let Some(t) = c.cayley.as_ref().filter(|_| model) {
        let _ = writeln!(out, "\nA small model:\n\n```text\n{t}```");
    }
}

/// The report as Markdown. Every text that came from a model (or from the user) is escaped, and
/// prose is block-quoted, so that it reads literally and cannot add or fake a section.
pub fn markdown(r: &CycleReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Research Cycle {}\n", r.cycle);
    let _ = writeln!(out, "**Goal:** {}  ", md(&r.goal));
    let _ = writeln!(
        out,
        "**Run:** cycle {} of {} (run {})  ",
        r.run.index, r.run.of, r.run.key
    );
    let _ = writeln!(
        out,
        "**Started:** {} UTC  ",
        birkhoff_library::time::format_utc(r.started)
    );
    let _ = writeln!(
        out,
        "**Duration:** {:.1}s ({:.1}s waiting for the model)  ",
        r.seconds, r.llm_seconds
    );
    let _ = writeln!(out, "**Model:** {}\n", md(&r.llm));
    let _ = writeln!(out, "## Statistics\n- Candidates generated: {}\n- Candidates triaged (spectra counted): {} with {} different spectra\n- Candidates checked: {}\n- With models above size 1: {}\n- Candidates identified: {}\n- Discoveries added: {}\n- Conjectures tested: {}\n- Faults: {}\n", r.generated, r.triaged, r.spectra, r.checked, r.with_models, r.identified, r.discoveries.len(), r.conjectures.len(), r.faults.len());
    // Discoveries first: they are what a reader opens the report for; the tool log comes last.
    let _ = writeln!(out, "## Discoveries\n");
    if r.discoveries.is_empty() {
        let _ = writeln!(out, "None.\n");
    }
    for d in &r.discoveries {
        let _ = writeln!(
            out,
            "### {} ({})\n\nFrom candidate {}. {}\n",
            md(&d.name),
            md(&d.id),
            md(&d.candidate.name),
            md(&d.notes)
        );
        if let Some(first) = &d.alias_of {
            let _ = writeln!(out, "Already in the library as **{}**, which stays its name; {} is recorded as an alias.\n", md(first), md(&d.name));
        }
        let _ = writeln!(out, "{}\n", d.literature.line());
        if let Some(n) = &d.structure {
            let _ = writeln!(out, "Structure: {}.\n", md(&n.summary()));
            for t in &n.theorems {
                let _ = writeln!(out, "- Theorem: {}", md(t));
            }
            if !n.theorems.is_empty() {
                out.push('\n');
            }
        }
        if let Some(p) = &d.placement {
            let _ = writeln!(out, "Placement ({}): {}.\n", md(&p.id), md(&p.summary()));
        }
        candidate_md(&mut out, &d.candidate, true);
        out.push('\n');
    }
    let _ = writeln!(out, "## Conjectures\n");
    if r.conjectures.is_empty() {
        let _ = writeln!(out, "None.\n");
    }
    for c in &r.conjectures {
        out += &settled_md(c);
    }
    let _ = writeln!(
        out,
        "\n## Decisions (by {})\n\n{}\n",
        r.decisions_by,
        md_block(&r.decisions.analysis)
    );
    for k in &r.decisions.keep {
        let _ = writeln!(
            out,
            "- Keep {} as **{}**: {}",
            md(&k.candidate),
            md(&k.name),
            md(&k.notes)
        );
    }
    for c in &r.decisions.conjectures {
        let _ = writeln!(
            out,
            "- Conjecture \\[{}\\] {}: {}",
            md(&c.theory),
            md(&c.statement),
            md(&c.rationale)
        );
    }
    let _ = writeln!(out, "\n## Faults\n");
    if r.faults.is_empty() {
        let _ = writeln!(out, "None.");
    }
    for f in &r.faults {
        let _ = writeln!(
            out,
            "- **{}**: {} — {}",
            md(&f.phase),
            md(&f.message),
            md(&f.handling)
        );
    }
    let _ = writeln!(out, "\n## Top candidates\n");
    if r.top.is_empty() {
        let _ = writeln!(out, "None.");
    }
    // The best few in full; the JSON report has all of them.
    for c in r.top.iter().take(TOP_IN_MARKDOWN) {
        let _ = writeln!(out, "### {}\n", md(&c.name));
        candidate_md(&mut out, c, false);
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "## Plan (by {})\n\n{}\n",
        r.plan_by,
        md_block(&r.plan.strategy)
    );
    for e in &r.plan.explorations {
        let _ = writeln!(
            out,
            "- Explore {} with {} at depth {}",
            md(&e.bases.join(", ")),
            if e.moves.is_empty() {
                "no moves (the bases themselves)".into()
            } else {
                md(&e.moves.join(", "))
            },
            e.depth
        );
    }
    let _ = writeln!(
        out,
        "- Check the best {} candidates up to size {}\n",
        r.plan.check_top, r.plan.max_size
    );
    // The routine calls (one per candidate) are summed up; the JSON report lists each.
    let _ = writeln!(out, "## What ran\n");
    for tool in ROUTINE {
        let calls: Vec<&ToolCall> = r.tool_calls.iter().filter(|t| t.tool == *tool).collect();
        if !calls.is_empty() {
            let failed = calls.iter().filter(|t| !t.ok).count();
            let _ = writeln!(
                out,
                "- {tool}: {} call(s), {failed} failed, {:.2}s in all",
                calls.len(),
                calls.iter().map(|t| t.seconds).sum::<f64>()
            );
        }
    }
    let _ = writeln!(
        out,
        "\n| tool | parameters | ok | result | seconds |\n|---|---|---|---|---|"
    );
    for t in r
        .tool_calls
        .iter()
        .filter(|t| !t.ok || !ROUTINE.contains(&t.tool.as_str()))
    {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} |",
            md(&t.tool),
            md(&t.params.to_string()),
            if t.ok { "yes" } else { "NO" },
            md(&t.summary),
            t.seconds
        );
    }
    out
}
