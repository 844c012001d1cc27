//! The pages: one layout ([`layout`]) around each page's body. Pages are flat in the site's
//! directory (`index.html`, `cycle-0001.html`, `thy-….html`, `conjectures.html`, `graph.html`,
//! `references.html`), so every link is a plain relative file name.

use crate::escape::esc;
use crate::{heatmap, svg, Site};
use birkhoff_checker::prover::readable::{for_all, Chain, ReadableProof};
use birkhoff_checker::sizes_label;
use birkhoff_library::cycle::{
    CandidateSummary, CycleReport, LiteratureNote, PlacementNote, Settled, StructureNote,
};
use birkhoff_library::placement::{InclusionRec, PlacementRec, Relation};
use birkhoff_library::record::{
    merged_spectrum, Body, ConjectureRec, ConjectureStatus, ModelRec, Record, Score, TheoryRec,
};
use birkhoff_library::time::format_utc;
use birkhoff_literature::store::Status;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One page of the site.
pub struct Page {
    /// Its file name in the site's directory.
    pub file: String,
    /// Its HTML.
    pub html: String,
}

/// The policy every page carries: nothing from elsewhere, scripts and styles only from the
/// site's own files, nothing inline.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

/// How many models of one theory a page shows as tables.
const MODELS_SHOWN: usize = 4;

/// The site's navigation.
const NAV: [(&str, &str); 5] = [
    ("index.html", "Cycles"),
    ("discoveries.html", "Discoveries"),
    ("conjectures.html", "Conjectures"),
    ("graph.html", "Derivations"),
    ("references.html", "References"),
];

/// A whole page: head (charset, viewport, the policy, stylesheet, script), navigation, the
/// title as heading, the body.
pub fn layout(title: &str, body: &str) -> String {
    let nav: String = NAV
        .iter()
        .map(|(href, label)| format!("<a href=\"{href}\">{label}</a>"))
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\"><meta name=\"referrer\" content=\"no-referrer\"><title>{t} · Birkhoff</title><link rel=\"stylesheet\" href=\"style.css\"><script src=\"site.js\" defer></script></head>\n<body><header><nav>{nav}</nav></header><main><h1>{t}</h1>\n{body}\n</main><footer><p class=\"muted\">Written by <code>birkhoff report html</code> from the library's files.</p></footer></body></html>\n",
        t = esc(title)
    )
}

/// Every page of the site.
pub fn all(site: &Site) -> Vec<Page> {
    let mut pages = vec![
        Page {
            file: "index.html".into(),
            html: index(site),
        },
        Page {
            file: "discoveries.html".into(),
            html: discoveries(site),
        },
        Page {
            file: "conjectures.html".into(),
            html: conjectures(site),
        },
        Page {
            file: "graph.html".into(),
            html: graph(site),
        },
        Page {
            file: "references.html".into(),
            html: references(site),
        },
    ];
    pages.extend(site.cycles().map(|r| Page {
        file: cycle_file(r.cycle),
        html: cycle(site, r),
    }));
    pages.extend(site.discoveries().map(|(rec, t)| Page {
        file: format!("{}.html", rec.id),
        html: discovery(site, rec, t),
    }));
    pages
}

/// The page of cycle `n`.
pub fn cycle_file(n: u64) -> String {
    format!("cycle-{n:04}.html")
}

/// A link to a theory's page when it is a discovery (by ID or by name), else its name as text.
fn theory_link(site: &Site, id_or_name: &str) -> String {
    let found = site.records.get(id_or_name).and_then(|r| match &r.body {
        Body::Theory(t) => Some((r, t)),
        _ => None,
    });
    match found {
        Some((r, t)) if t.discovery => {
            format!("<a href=\"{}.html\">{}</a>", esc(&r.id), esc(&t.name))
        }
        Some((_, t)) => esc(&t.name),
        None => match site
            .discoveries()
            .find(|(_, t)| t.name == id_or_name || t.aliases.iter().any(|a| a.name == id_or_name))
        {
            Some((r, t)) => format!("<a href=\"{}.html\">{}</a>", esc(&r.id), esc(&t.name)),
            None => esc(id_or_name),
        },
    }
}

/// A score as its total with each dimension in a tooltip.
fn score_text(s: &Option<Score>) -> String {
    match s {
        Some(s) => format!(
            "<span title=\"{}\">{:.3}</span>",
            esc(&s
                .dims
                .iter()
                .map(|(k, v)| format!("{k} {v:.2}"))
                .collect::<Vec<_>>()
                .join(", ")),
            s.total
        ),
        None => "<span class=\"muted\">not scored</span>".into(),
    }
}

/// A sortable table: header cells (a `num` class right-aligns a column) and rows of cells
/// already in HTML; `filterable` lets the page's search box hide rows.
fn table(class: &str, header: &[&str], rows: &[Vec<String>]) -> String {
    let numeric = |h: &str| {
        matches!(
            h,
            "cycle"
                | "seconds"
                | "discoveries"
                | "conjectures"
                | "faults"
                | "score"
                | "checked"
                | "candidates"
        )
    };
    let mut out = format!("<div class=\"scroll\"><table class=\"{class}\"><thead><tr>");
    for h in header {
        let _ = write!(
            out,
            "<th scope=\"col\"{}>{}</th>",
            if numeric(h) { " class=\"num\"" } else { "" },
            esc(h)
        );
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for (h, cell) in header.iter().zip(row) {
            let _ = write!(
                out,
                "<td{}>{cell}</td>",
                if numeric(h) { " class=\"num\"" } else { "" }
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

/// The search box of a page with filterable tables.
fn filter_box(what: &str) -> String {
    format!("<p><label for=\"filter\">Filter {what}: </label><input type=\"search\" id=\"filter\" placeholder=\"words to look for\"> <span class=\"muted\"><span id=\"shown\"></span></span></p>")
}

fn index(site: &Site) -> String {
    let mut body = format!(
        "<p>{} cycle report(s), {} discoveries, {} conjecture(s). Click a column's heading to sort by it.</p>",
        site.reports.len(),
        site.discoveries().count(),
        site.records.values().filter(|r| matches!(r.body, Body::Conjecture(_))).count()
    );
    body += &filter_box("cycles");
    let rows: Vec<Vec<String>> = site
        .reports
        .iter()
        .map(|(n, r)| match r {
            Ok(r) => vec![
                format!("<a href=\"{}\">{n}</a>", cycle_file(*n)),
                esc(&format_utc(r.started)),
                format!("{:.1}", r.seconds),
                esc(&r.goal),
                esc(&r.llm),
                r.discoveries.len().to_string(),
                r.conjectures.len().to_string(),
                r.faults.len().to_string(),
            ],
            Err(why) => vec![
                n.to_string(),
                String::new(),
                String::new(),
                format!("<span class=\"unverified\">unreadable: {}</span>", esc(why)),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ],
        })
        .collect();
    body += &table(
        "sortable filterable cycles",
        &[
            "cycle",
            "started (UTC)",
            "seconds",
            "goal",
            "model",
            "discoveries",
            "conjectures",
            "faults",
        ],
        &rows,
    );
    if site.reports.is_empty() {
        body += "<p>No cycle reports yet: <code>birkhoff agent</code> writes them.</p>";
    }
    layout("Research cycles", &body)
}

fn discoveries(site: &Site) -> String {
    let mut body = filter_box("discoveries");
    let rows: Vec<Vec<String>> = site
        .discoveries()
        .map(|(r, t)| {
            vec![
                format!("<a href=\"{}.html\">{}</a>", esc(&r.id), esc(&t.name)),
                format!("<code>{}</code>", esc(&r.id)),
                score_text(&t.score),
                esc(&t.origin),
                esc(&format_utc(r.created)),
            ]
        })
        .collect();
    body += &table(
        "sortable filterable discoveries",
        &["discovery", "id", "score", "origin", "added (UTC)"],
        &rows,
    );
    layout("Discoveries", &body)
}

/// A paragraph of text from a report, line breaks kept.
fn prose(s: &str) -> String {
    format!("<p class=\"prose\">{}</p>", esc(s).replace('\n', "<br>"))
}

/// A candidate's facts: origin, score, standing, axioms, spectrum plot, OEIS and patterns.
fn candidate(site: &Site, c: &CandidateSummary) -> String {
    let parents = if c.parents.is_empty() {
        String::new()
    } else {
        format!(
            " (from {})",
            c.parents
                .iter()
                .map(|p| theory_link(site, p))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut out = format!(
        "<ul><li>Origin: {}{parents}</li><li>Score: {}</li>",
        esc(&c.origin),
        score_text(&c.score)
    );
    if let Some(why) = &c.same_as_parent {
        let _ = write!(out, "<li>Not a discovery: {}</li>", esc(why));
    }
    if let Some(what) = &c.standing {
        let _ = write!(out, "<li>What it is: {}</li>", esc(what));
    }
    for p in &c.patterns {
        let _ = write!(
            out,
            "<li>Open conjecture from the spectrum: {}</li>",
            esc(p)
        );
    }
    out.push_str("</ul>");
    let _ = write!(out, "<pre class=\"axioms\">{}</pre>", esc(&c.axioms));
    if !c.spectrum.is_empty() {
        out += &svg::spectrum(&c.spectrum);
    }
    out
}

/// A literature note: confirmed references cited, unconfirmed ones only counted.
/// What ACT found of a discovery's small models: the statements' fates and the structure
/// theorems the proved ones give.
fn structure_note(note: &StructureNote) -> String {
    let mut out = format!(
        "<p><strong>Structure:</strong> {}.</p>",
        esc(&note.summary())
    );
    if !note.theorems.is_empty() {
        let items: Vec<String> = note
            .theorems
            .iter()
            .map(|t| format!("<li>Theorem: {}</li>", esc(t)))
            .collect();
        let _ = write!(out, "<ul>{}</ul>", items.join(""));
    }
    out
}

/// Where ACT placed a discovery: its nearest classes on each side and how the other comparisons
/// ended (the discovery's page draws the whole placement).
fn placement_note(note: &PlacementNote) -> String {
    format!(
        "<p><strong>Placement</strong> ({}): {}.</p>",
        esc(&note.id),
        esc(&note.summary())
    )
}

fn literature(note: &LiteratureNote) -> String {
    let mut out = format!("<p><strong>Literature:</strong> {}", esc(&note.status));
    if !note.references.is_empty() {
        let _ = write!(
            out,
            "; <span class=\"verified\">confirmed:</span> {}",
            note.references
                .iter()
                .map(|r| esc(r))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    if !note.oeis.is_empty() {
        let _ = write!(
            out,
            "; OEIS: {}",
            note.oeis
                .iter()
                .map(|r| esc(r))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    if note.unconfirmed > 0 {
        let _ = write!(
            out,
            " <span class=\"unverified\">({} unconfirmed reference(s), not cited)</span>",
            note.unconfirmed
        );
    }
    out.push_str("</p>");
    out
}

/// The conjecture record a reported conjecture was stored as, found by theory name and
/// statement.
fn conjecture_record<'a>(
    site: &'a Site,
    theory: &str,
    statement: &str,
) -> Option<(&'a Record, &'a ConjectureRec)> {
    site.records.values().find_map(|r| match &r.body {
        Body::Conjecture(c) if c.theory_name == theory && c.statement == statement => Some((r, c)),
        _ => None,
    })
}

/// The class of a status.
fn status_html(s: ConjectureStatus) -> String {
    let word = format!("{s:?}").to_lowercase();
    format!("<span class=\"status-{word}\">{word}</span>")
}

/// A conjecture as reported in a cycle: status and evidence, and a link to its full entry (proof
/// steps, countermodel tables) when it was stored; otherwise the report's own text of them.
fn settled(site: &Site, c: &Settled) -> String {
    let mut out = format!(
        "<li class=\"conjecture\">[{}] <code>{}</code>: {} ({}; proposed by {})",
        theory_link(site, &c.theory),
        esc(&c.statement),
        status_html(c.status),
        esc(&c.evidence),
        esc(&c.proposed_by)
    );
    match conjecture_record(site, &c.theory, &c.statement) {
        Some((r, _)) => {
            let _ = write!(
                out,
                " <a href=\"conjectures.html#{}\">proof or countermodel</a>",
                esc(&r.id)
            );
        }
        None => {
            for block in [&c.countermodel, &c.proof].into_iter().flatten() {
                let _ = write!(out, "<pre>{}</pre>", esc(block));
            }
        }
    }
    out.push_str("</li>");
    out
}

fn cycle(site: &Site, r: &CycleReport) -> String {
    let mut body = format!(
        "<dl class=\"facts\"><dt>Goal</dt><dd>{}</dd><dt>Run</dt><dd>cycle {} of {} (run <code>{}</code>)</dd><dt>Started</dt><dd>{} UTC</dd><dt>Duration</dt><dd>{:.1} s ({:.1} s waiting for the model)</dd><dt>Model</dt><dd>{}</dd></dl>",
        esc(&r.goal),
        r.run.index,
        r.run.of,
        esc(&r.run.key),
        esc(&format_utc(r.started)),
        r.seconds,
        r.llm_seconds,
        esc(&r.llm)
    );
    let _ = write!(body, "<h2>Statistics</h2><ul><li>Candidates generated: {}</li><li>Triaged (spectra counted): {}, with {} different spectra</li><li>Checked: {}</li><li>With models above size 1: {}</li><li>Identified: {}</li><li>Discoveries: {}</li><li>Conjectures: {}</li><li>Faults: {}</li></ul>", r.generated, r.triaged, r.spectra, r.checked, r.with_models, r.identified, r.discoveries.len(), r.conjectures.len(), r.faults.len());
    body += "<h2>Discoveries</h2>";
    if r.discoveries.is_empty() {
        body += "<p>None.</p>";
    }
    for d in &r.discoveries {
        let _ = write!(
            body,
            "<section class=\"discovery\"><h3>{} <code>{}</code></h3>",
            theory_link(site, &d.id),
            esc(&d.id)
        );
        let _ = write!(
            body,
            "<p>From candidate {}.</p>{}",
            esc(&d.candidate.name),
            prose(&d.notes)
        );
        if let Some(first) = &d.alias_of {
            let _ = write!(body, "<p>Already in the library as <strong>{}</strong>, which stays its name; {} is recorded as an alias.</p>", esc(first), esc(&d.name));
        }
        body += &literature(&d.literature);
        if let Some(n) = &d.structure {
            body += &structure_note(n);
        }
        if let Some(p) = &d.placement {
            body += &placement_note(p);
        }
        body += &candidate(site, &d.candidate);
        body += "</section>";
    }
    body += "<h2>Conjectures</h2>";
    if r.conjectures.is_empty() {
        body += "<p>None.</p>";
    } else {
        let _ = write!(
            body,
            "<ul>{}</ul>",
            r.conjectures
                .iter()
                .map(|c| settled(site, c))
                .collect::<String>()
        );
    }
    let _ = write!(
        body,
        "<h2>Decisions (by {})</h2>{}<ul>",
        esc(&r.decisions_by),
        prose(&r.decisions.analysis)
    );
    for k in &r.decisions.keep {
        let _ = write!(
            body,
            "<li>Keep {} as <strong>{}</strong>: {}</li>",
            esc(&k.candidate),
            esc(&k.name),
            esc(&k.notes)
        );
    }
    for c in &r.decisions.conjectures {
        let _ = write!(
            body,
            "<li>Conjecture [{}] <code>{}</code>: {}</li>",
            esc(&c.theory),
            esc(&c.statement),
            esc(&c.rationale)
        );
    }
    body += "</ul><h2>Faults</h2>";
    if r.faults.is_empty() {
        body += "<p>None.</p>";
    } else {
        let rows: Vec<Vec<String>> = r
            .faults
            .iter()
            .map(|f| vec![esc(&f.phase), esc(&f.message), esc(&f.handling)])
            .collect();
        body += &table(
            "sortable faults",
            &["phase", "what went wrong", "what was done"],
            &rows,
        );
    }
    body += "<h2>Top candidates</h2>";
    if r.top.is_empty() {
        body += "<p>None.</p>";
    }
    for c in &r.top {
        let _ = write!(
            body,
            "<details class=\"candidate\"><summary>{} · score {}</summary>{}</details>",
            esc(&c.name),
            score_text(&c.score),
            candidate(site, c)
        );
    }
    let _ = write!(
        body,
        "<h2>Plan (by {})</h2>{}<ul>",
        esc(&r.plan_by),
        prose(&r.plan.strategy)
    );
    for e in &r.plan.explorations {
        let moves = if e.moves.is_empty() {
            "no moves (the bases themselves)".to_string()
        } else {
            e.moves.join(", ")
        };
        let _ = write!(
            body,
            "<li>Explore {} with {} at depth {}</li>",
            e.bases
                .iter()
                .map(|b| theory_link(site, b))
                .collect::<Vec<_>>()
                .join(", "),
            esc(&moves),
            e.depth
        );
    }
    let _ = write!(
        body,
        "<li>Check the best {} candidates up to size {}</li></ul>",
        r.plan.check_top, r.plan.max_size
    );
    body += "<h2>What ran</h2>";
    let rows: Vec<Vec<String>> = r
        .tool_calls
        .iter()
        .map(|t| {
            vec![
                esc(&t.tool),
                format!("<code>{}</code>", esc(&t.params.to_string())),
                if t.ok {
                    "yes".into()
                } else {
                    "<strong>NO</strong>".into()
                },
                esc(&t.summary),
                format!("{:.2}", t.seconds),
            ]
        })
        .collect();
    body += &table(
        "sortable tools",
        &["tool", "parameters", "ok", "result", "seconds"],
        &rows,
    );
    layout(&format!("Research cycle {}", r.cycle), &body)
}

/// The models stored for a theory, smallest first but the one-element ones last (a one-element
/// model shows nothing), ties by ID.
fn models_of<'a>(site: &'a Site, theory_id: &str) -> Vec<(&'a Record, &'a ModelRec)> {
    let mut models: Vec<(&Record, &ModelRec)> = site
        .records
        .values()
        .filter_map(|r| match &r.body {
            Body::Model(m) if m.theory_id == theory_id => Some((r, m)),
            _ => None,
        })
        .collect();
    let elements = |m: &ModelRec| {
        m.structure
            .get("sizes")
            .and_then(|s| s.as_object())
            .map_or(0, |s| s.values().filter_map(|n| n.as_u64()).sum::<u64>())
    };
    models.sort_by_key(|(r, m)| (elements(m) <= 1, elements(m), r.id.clone()));
    models
}

fn discovery(site: &Site, rec: &Record, t: &TheoryRec) -> String {
    let parents = if t.parents.is_empty() {
        "none".to_string()
    } else {
        t.parents
            .iter()
            .map(|p| theory_link(site, p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let cycles: Vec<String> = site
        .cycles()
        .filter(|r| r.discoveries.iter().any(|d| d.id == rec.id))
        .map(|r| format!("<a href=\"{}\">{}</a>", cycle_file(r.cycle), r.cycle))
        .collect();
    let mut body = format!(
        "<dl class=\"facts\"><dt>ID</dt><dd><code>{}</code></dd><dt>Added</dt><dd>{} UTC</dd><dt>Origin</dt><dd>{}</dd><dt>Parents</dt><dd>{parents}</dd><dt>Score</dt><dd>{}</dd><dt>Cycles</dt><dd>{}</dd></dl>{}",
        esc(&rec.id),
        esc(&format_utc(rec.created)),
        esc(&t.origin),
        score_text(&t.score),
        if cycles.is_empty() { "none".into() } else { cycles.join(", ") },
        prose(&t.notes)
    );
    for a in &t.aliases {
        let _ = write!(
            body,
            "<p>Also named <strong>{}</strong> in cycle <a href=\"{}\">{}</a>: {}</p>",
            esc(&a.name),
            cycle_file(a.cycle),
            a.cycle,
            esc(&a.notes)
        );
    }
    let _ = write!(
        body,
        "<h2>Axioms</h2><pre class=\"axioms\">{}</pre>",
        esc(&t.text)
    );
    for p in &t.presentations {
        let _ = write!(
            body,
            "<details><summary>Another presentation: {}</summary><p>{}</p><pre>{}</pre></details>",
            esc(&p.name),
            esc(&p.evidence),
            esc(&p.text)
        );
    }
    let spectrum = merged_spectrum(site.records.values(), &rec.id);
    let reported = site
        .cycles()
        .flat_map(|r| r.discoveries.iter())
        .filter(|d| d.id == rec.id)
        .last();
    // The stored spectrum, or for a discovery stored without one, the one its cycle reported.
    let spectrum = match reported {
        Some(d) if spectrum.is_empty() => d.candidate.spectrum.clone(),
        _ => spectrum,
    };
    if !spectrum.is_empty() {
        let _ = write!(body, "<h2>Spectrum</h2>{}", svg::spectrum(&spectrum));
    }
    if let Some(d) = reported {
        body += "<h2>Standing</h2>";
        body += &d
            .candidate
            .standing
            .as_deref()
            .map(prose)
            .unwrap_or_default();
        body += &literature(&d.literature);
    }
    body += &placement(site, &rec.id, t);
    let models = models_of(site, &rec.id);
    let _ = write!(
        body,
        "<h2>Models</h2><p>{} stored model(s){}.</p>",
        models.len(),
        if models.len() > MODELS_SHOWN {
            format!(", {MODELS_SHOWN} shown, smallest first (one-element models last)")
        } else {
            String::new()
        }
    );
    for (r, m) in models.iter().take(MODELS_SHOWN) {
        let _ = write!(
            body,
            "<h3><code>{}</code></h3>{}",
            esc(&r.id),
            heatmap::structure(&m.structure)
        );
    }
    let about: Vec<(&Record, &ConjectureRec)> = site
        .records
        .values()
        .filter_map(|r| match &r.body {
            Body::Conjecture(c) if c.theory_id == rec.id => Some((r, c)),
            _ => None,
        })
        .collect();
    if !about.is_empty() {
        let _ = write!(
            body,
            "<h2>Conjectures</h2><ul>{}</ul>",
            about
                .iter()
                .map(|(r, c)| format!(
                    "<li><a href=\"conjectures.html#{}\"><code>{}</code></a>: {}</li>",
                    esc(&r.id),
                    esc(&c.statement),
                    status_html(c.status)
                ))
                .collect::<String>()
        );
    }
    layout(&t.name, &body)
}

/// Where the theory `theory_id` sits among known classes, from its placement record (written by
/// `birkhoff paper` and research workspaces; empty when it was never placed): each class compared
/// and what the evidence shows, and the Hasse diagram of those strictly comparable, larger classes
/// higher, every line a proved inclusion (`backtest` replays each certificate).
fn placement(site: &Site, theory_id: &str, t: &TheoryRec) -> String {
    let Some(Body::Placement(p)) = site
        .records
        .get(&PlacementRec::id_for(theory_id))
        .map(|r| &r.body)
    else {
        return String::new();
    };
    // The classes over other symbols a reduct lies in, the strongest proved only.
    let reducts = match birkhoff_engine::Theory::parse(&t.text, &t.name) {
        Ok(theory) => p
            .strongest_reducts(&theory)
            .iter()
            .map(|r| {
                let map: Vec<String> = r
                    .map
                    .iter()
                    .map(|(from, to)| {
                        format!("<code>{}</code> as <code>{}</code>", esc(to), esc(from))
                    })
                    .collect();
                format!(
                    "<li>reading {}, every model is one of {} (each axiom proved)</li>",
                    map.join(", "),
                    theory_link(site, &r.name)
                )
            })
            .collect::<Vec<_>>(),
        Err(_) => Vec::new(),
    };
    let reducts = if reducts.is_empty() {
        String::new()
    } else {
        format!(
            "<p>Classes over other symbols that contain a reduct of it, the strongest found:</p><ul class=\"reducts\">{}</ul>",
            reducts.join("")
        )
    };
    let violated = |d: &InclusionRec| match d {
        InclusionRec::Refuted { axiom, .. } => format!(
            " (a model of size {} violates its axiom <code>{}</code>)",
            sizes_label(&d.model_sizes()),
            esc(axiom)
        ),
        _ => String::new(),
    };
    let rows: Vec<Vec<String>> = p
        .neighbours
        .iter()
        .map(|n| {
            let what = match n.relation() {
                Relation::Same => "the same class: each implies the other".to_string(),
                Relation::Above => format!("contains it, strictly{}", violated(&n.implied_by)),
                Relation::Below => format!("lies inside it, strictly{}", violated(&n.implies)),
                Relation::Incomparable => {
                    "incomparable: a model of each violates an axiom of the other".into()
                }
                Relation::Undecided => "not decided in the time given".into(),
            };
            vec![theory_link(site, &n.name), what]
        })
        .collect();
    let mut out = format!(
        "<h2>Among known classes</h2><p>Each class with the same symbols compared both ways: an inclusion is proved when every axiom of the larger class was derived (certificates replayed), and refuted by a model of one class, checked by the evaluator, that violates an axiom of the other.{}</p>{}",
        if p.not_reached > 0 {
            format!(" {} more were not compared for lack of time.", p.not_reached)
        } else {
            String::new()
        },
        table("placement", &["Class", "Relation"], &rows)
    );
    let hasse = p.hasse();
    if hasse.nodes.len() > 1 {
        let levels = hasse.levels();
        let top = levels.iter().copied().max().unwrap_or(0);
        let nodes: Vec<svg::Node> = hasse
            .nodes
            .iter()
            .zip(&levels)
            .enumerate()
            .map(|(i, (name, level))| svg::Node {
                label: name.clone(),
                href: if i == 0 {
                    None
                } else {
                    site.discoveries()
                        .find(|(_, t)| &t.name == name)
                        .map(|(r, _)| format!("{}.html", r.id))
                },
                layer: top - level,
            })
            .collect();
        // An arrow from each class down to each largest class it strictly contains.
        let edges: Vec<(usize, usize, String)> = hasse
            .covers
            .iter()
            .map(|&(lo, hi)| {
                let label = format!("{} contains {}: proved", hasse.nodes[hi], hasse.nodes[lo]);
                (hi, lo, label)
            })
            .collect();
        let _ = write!(
            out,
            "<p>The classes strictly comparable with it, larger classes higher; an arrow runs from a class to each largest class it strictly contains among those shown, and every arrow is a proved inclusion (one not proved is not drawn).</p><div class=\"scroll placement\">{}</div>",
            svg::layered("Hasse diagram of the classes comparable with it", &nodes, &edges)
        );
    }
    out + &reducts
}

/// A chain of rewriting steps as a numbered list.
fn chain(c: &Chain) -> String {
    let mut out = format!("<p><code>{}</code></p><ol class=\"proof\">", esc(&c.start));
    for s in &c.steps {
        let at = if s.position.is_empty() {
            "at the root".to_string()
        } else {
            format!(
                "at {}",
                s.position
                    .iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(".")
            )
        };
        let _ = write!(
            out,
            "<li>= {}<br><span class=\"muted\">by {}{}, {at}, rewriting {}</span></li>",
            esc(&s.term),
            esc(&s.by.to_string()),
            if s.reversed { " (right to left)" } else { "" },
            esc(&s.rewrites)
        );
    }
    out.push_str("</ol>");
    out
}

/// A proof: its lemmas, then the theorem, each as numbered steps.
fn proof(p: &ReadableProof) -> String {
    let mut out = String::from("<div class=\"proof\">");
    for l in &p.lemmas {
        let _ = write!(
            out,
            "<p><strong>Lemma {}.</strong> {}<code>{} = {}</code></p>{}",
            l.number,
            esc(&for_all(&l.variables)),
            esc(&l.lhs),
            esc(&l.rhs),
            chain(&l.proof)
        );
    }
    let _ = write!(
        out,
        "<p><strong>Theorem.</strong> <code>{} = {}</code></p>{}</div>",
        esc(&p.lhs),
        esc(&p.rhs),
        chain(&p.proof)
    );
    out
}

fn conjectures(site: &Site) -> String {
    let mut by_theory: BTreeMap<&str, Vec<(&Record, &ConjectureRec)>> = BTreeMap::new();
    for r in site.records.values() {
        if let Body::Conjecture(c) = &r.body {
            by_theory
                .entry(c.theory_id.as_str())
                .or_default()
                .push((r, c));
        }
    }
    let mut body = String::from("<p>Every stored conjecture with its status: proofs as numbered rewriting steps (replayed from their certificates), refutations with their countermodels' tables.</p>");
    if by_theory.is_empty() {
        body += "<p>None yet.</p>";
    }
    for (theory_id, list) in by_theory {
        let _ = write!(body, "<h2>{}</h2>", theory_link(site, theory_id));
        for (r, c) in list {
            let _ = write!(body, "<section class=\"conjecture\" id=\"{}\"><h3><code>{}</code></h3><p>{}: {} (proposed by {})</p>", esc(&r.id), esc(&c.statement), status_html(c.status), esc(&c.evidence), esc(&c.proposed_by));
            if let Some(m) = c
                .countermodel
                .as_deref()
                .and_then(|id| site.records.get(id))
            {
                if let Body::Model(m) = &m.body {
                    let _ = write!(
                        body,
                        "<p>Countermodel:</p>{}",
                        heatmap::structure(&m.structure)
                    );
                }
            }
            if let Some(id) = &c.proof {
                match site.proofs.get(id) {
                    Some(Ok(p)) => body += &proof(p),
                    Some(Err(why)) => {
                        let _ = write!(
                            body,
                            "<p class=\"note\">Proof <code>{}</code> not laid out: {}</p>",
                            esc(id),
                            esc(why)
                        );
                    }
                    None => {
                        let _ = write!(
                            body,
                            "<p class=\"note\">Proof <code>{}</code> is not in the library.</p>",
                            esc(id)
                        );
                    }
                }
            }
            body += "</section>";
        }
    }
    layout("Conjectures", &body)
}

/// The depth of a theory in the derivation graph: 0 without known parents, else one more than
/// its deepest parent (a loop in the records counts as no parent).
fn depth(
    site: &Site,
    key: &str,
    seen: &mut Vec<String>,
    memo: &mut BTreeMap<String, usize>,
) -> usize {
    if let Some(d) = memo.get(key) {
        return *d;
    }
    if seen.iter().any(|s| s == key) {
        return 0;
    }
    seen.push(key.to_string());
    let parents = match site.records.get(key).map(|r| &r.body) {
        Some(Body::Theory(t)) => t.parents.iter().map(|p| theory_key(site, p)).collect(),
        _ => Vec::new(),
    };
    let d = parents
        .iter()
        .map(|p| depth(site, p, seen, memo) + 1)
        .max()
        .unwrap_or(0);
    seen.pop();
    memo.insert(key.to_string(), d);
    d
}

/// The graph's key of a theory that a record names as a parent: its record ID, also when the
/// parent is named by its name, an alias or the name its theory text declares (the agent writes
/// the candidate's name, `Semigroup+unipotent(*)`, as the parent of what came from it; issue 55:
/// such a parent was drawn as a second, unlinked box beside the discovery it is); a name no
/// record has stays a name (a seed).
fn theory_key(site: &Site, id_or_name: &str) -> String {
    if site.records.contains_key(id_or_name) {
        return id_or_name.to_string();
    }
    let declared = |text: &str| {
        text.lines()
            .next()
            .and_then(|l| l.trim().strip_prefix("theory "))
            .map(|n| n.trim().trim_matches('"').to_string())
    };
    let named = |r: &&Record| matches!(&r.body, Body::Theory(t) if t.name == id_or_name || t.aliases.iter().any(|a| a.name == id_or_name) || declared(&t.text).as_deref() == Some(id_or_name));
    let by_name = |discovery: bool| {
        site.records
            .values()
            .filter(named)
            .find(|r| matches!(&r.body, Body::Theory(t) if t.discovery == discovery))
    };
    by_name(true)
        .or_else(|| by_name(false))
        .map_or_else(|| id_or_name.to_string(), |r| r.id.clone())
}

fn graph(site: &Site) -> String {
    // The discoveries and everything they came from, by record ID or (for seeds) by name.
    let mut keys: Vec<String> = Vec::new();
    let mut todo: Vec<String> = site.discoveries().map(|(r, _)| r.id.clone()).collect();
    while let Some(k) = todo.pop() {
        if keys.contains(&k) {
            continue;
        }
        if let Some(Body::Theory(t)) = site.records.get(&k).map(|r| &r.body) {
            todo.extend(t.parents.iter().map(|p| theory_key(site, p)));
        }
        keys.push(k);
    }
    let mut memo = BTreeMap::new();
    // By layer, then by label: the order of the boxes in each row.
    let mut entries: Vec<(usize, String, Option<String>, String)> = keys
        .into_iter()
        .map(|k| {
            let layer = depth(site, &k, &mut Vec::new(), &mut memo);
            match site.records.get(&k).map(|r| &r.body) {
                Some(Body::Theory(t)) => (
                    layer,
                    t.name.clone(),
                    t.discovery.then(|| format!("{k}.html")),
                    k,
                ),
                _ => (layer, k.clone(), None, k),
            }
        })
        .collect();
    entries.sort();
    let position: BTreeMap<&str, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.3.as_str(), i))
        .collect();
    let mut edges = Vec::new();
    for (_, _, _, k) in &entries {
        if let Some(Body::Theory(t)) = site.records.get(k).map(|r| &r.body) {
            for p in t.parents.iter().map(|p| theory_key(site, p)) {
                if let (Some(&from), Some(&to)) =
                    (position.get(p.as_str()), position.get(k.as_str()))
                {
                    edges.push((from, to, t.origin.clone()));
                }
            }
        }
    }
    let nodes: Vec<svg::Node> = entries
        .iter()
        .map(|(layer, label, href, _)| svg::Node {
            label: label.clone(),
            href: href.clone(),
            layer: *layer,
        })
        .collect();
    let body = if nodes.is_empty() {
        "<p>No discoveries yet.</p>".to_string()
    } else {
        format!("<p>Each discovery below what it came from; a box links to its page, an arrow's tooltip names the moves.</p><div class=\"scroll\">{}</div>", svg::layered("derivation graph", &nodes, &edges))
    };
    layout("Derivations", &body)
}

fn references(site: &Site) -> String {
    let mut body = String::from("<p>References found by the literature agent (<code>birkhoff literature</code>, <code>agent --literature</code>). Only confirmed ones, verified by a lookup by identifier, are ever cited; unconfirmed ones are listed apart with the reason.</p>");
    match &site.references {
        Err(why) => {
            let _ = write!(
                body,
                "<p class=\"unverified\">The references could not be read: {}</p>",
                esc(why)
            );
        }
        Ok(state) => {
            let row = |r: &birkhoff_literature::store::Reference, last: String| {
                let ids = serde_json::to_value(&r.paper.ids)
                    .ok()
                    .and_then(|v| v.as_object().cloned())
                    .unwrap_or_default();
                let ids: Vec<String> = ids
                    .iter()
                    .filter_map(|(k, v)| v.as_str().map(|v| format!("{k}: {v}")))
                    .collect();
                vec![
                    esc(&r.number),
                    esc(&r.paper.title),
                    esc(&r.paper.authors.join(", ")),
                    r.paper.year.map_or("n.d.".into(), |y| y.to_string()),
                    esc(&ids.join("; ")),
                    last,
                ]
            };
            let (confirmed, unconfirmed): (Vec<_>, Vec<_>) =
                state.references.values().partition(|r| r.is_confirmed());
            let confirmed: Vec<Vec<String>> = confirmed.iter().map(|r| row(r, match &r.status { Status::Confirmed { verified, endpoint } => format!("<span class=\"verified\">verified</span> {} UTC by <code>{}</code>", esc(&format_utc(*verified)), esc(endpoint)), Status::Unconfirmed { .. } => String::new() })).collect();
            let unconfirmed: Vec<Vec<String>> = unconfirmed
                .iter()
                .map(|r| {
                    row(
                        r,
                        match &r.status {
                            Status::Unconfirmed { reason } => format!(
                                "<span class=\"unverified\">unconfirmed</span>: {}",
                                esc(reason)
                            ),
                            Status::Confirmed { .. } => String::new(),
                        },
                    )
                })
                .collect();
            let header = [
                "number",
                "title",
                "authors",
                "year",
                "identifiers",
                "status",
            ];
            let _ = write!(
                body,
                "<h2>Confirmed</h2>{}",
                if confirmed.is_empty() {
                    "<p>None.</p>".to_string()
                } else {
                    table("sortable references confirmed", &header, &confirmed)
                }
            );
            let _ = write!(
                body,
                "<h2>Unconfirmed (never cited)</h2>{}",
                if unconfirmed.is_empty() {
                    "<p>None.</p>".to_string()
                } else {
                    table("sortable references unconfirmed", &header, &unconfirmed)
                }
            );
        }
    }
    body += "<h2>By discovery</h2>";
    let notes: Vec<String> = site
        .cycles()
        .flat_map(|r| r.discoveries.iter().map(move |d| (r.cycle, d)))
        .map(|(n, d)| {
            format!(
                "<li>{} (cycle <a href=\"{}\">{n}</a>): {}</li>",
                theory_link(site, &d.id),
                cycle_file(n),
                literature(&d.literature)
            )
        })
        .collect();
    body += &if notes.is_empty() {
        "<p>No discoveries yet.</p>".to_string()
    } else {
        format!("<ul>{}</ul>", notes.join(""))
    };
    layout("References", &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theory(id: &str, name: &str, parents: &[&str]) -> (String, Record) {
        let text = format!("theory \"{}\"\nfunc * : 2\n", name.replace("With", "+"));
        let t = TheoryRec {
            name: name.into(),
            text,
            fingerprint: String::new(),
            origin: "add law".into(),
            parents: parents.iter().map(|p| p.to_string()).collect(),
            discovery: true,
            notes: String::new(),
            score: None,
            aliases: vec![],
            presentations: vec![],
        };
        (
            id.to_string(),
            Record {
                id: id.to_string(),
                created: 0,
                body: Body::Theory(t),
            },
        )
    }

    /// Issue 55: a parent named by its name, by its ID or by its theory's declared name (the
    /// candidate's, as the agent writes parents) is one box, linked to its children.
    #[test]
    fn the_graph_draws_one_theory_as_one_box() {
        let records = [
            theory(
                "thy-000000000000000a",
                "SemigroupWithUnipotent",
                &["semigroup"],
            ),
            theory(
                "thy-000000000000000b",
                "SemigroupWithUnipotentWithXyx",
                &["SemigroupWithUnipotent"],
            ),
            theory(
                "thy-000000000000000c",
                "SemigroupWithUnipotentWithoutAssoc",
                &["thy-000000000000000a"],
            ),
            theory(
                "thy-000000000000000d",
                "SemigroupWithUnipotentWithCommutative",
                &["Semigroup+Unipotent"],
            ),
        ];
        let site = Site {
            reports: Vec::new(),
            records: records.into_iter().collect(),
            proofs: BTreeMap::new(),
            references: Ok(Default::default()),
        };
        let html = graph(&site);
        assert_eq!(
            html.matches(">SemigroupWithUnipotent</text>").count(),
            1,
            "{html}"
        );
        assert_eq!(
            html.matches("<rect ").count(),
            5,
            "semigroup and the four discoveries: {html}"
        );
        assert_eq!(html.matches("<line class=\"edge\"").count(), 4, "{html}");
    }

    /// Issue 51: a cycle's discovery shows what ACT found of its models, the theorems escaped.
    #[test]
    fn a_discovery_shows_its_structure_statements_and_theorems_escaped() {
        let note = StructureNote {
            max_size: 4,
            proved: 2,
            refuted: 1,
            open: 0,
            theorems: vec!["x ↦ x * x is <b>a retraction</b>".into()],
            not_surveyed: None,
        };
        let html = structure_note(&note);
        assert!(
            html.contains("3 structure statements true in every model up to size 4: 2 proved, 1 refuted at a larger size, 0 open; 1 structure theorem"),
            "{html}"
        );
        assert!(
            html.contains("<li>Theorem: x ↦ x * x is &lt;b&gt;a retraction&lt;/b&gt;</li>"),
            "{html}"
        );
    }

    /// Issue 51: a cycle's discovery shows where ACT placed it, the class names escaped.
    #[test]
    fn a_discovery_shows_its_placement_escaped() {
        let note = PlacementNote {
            id: "plc-0000000000000001".into(),
            compared: 3,
            inside: vec!["semi<group>".into()],
            above: 2,
            incomparable: 1,
            ..PlacementNote::default()
        };
        let html = placement_note(&note);
        assert!(
            html.contains("(plc-0000000000000001): among 3 classes with its symbols: strictly inside semi&lt;group&gt; (nearest of 2 above); incomparable with 1.</p>"),
            "{html}"
        );
    }

    /// Issue 51: a discovery's page shows where it sits among known classes, from its placement
    /// record: a row per class compared, and the Hasse diagram drawn from the proved covers only,
    /// a neighbour that is a discovery linked to its page.
    #[test]
    fn a_placed_discovery_shows_its_neighbours_and_their_hasse_diagram() {
        use birkhoff_library::placement::{BetweenRec, NeighbourRec};
        let (id, rec) = theory("thy-000000000000000a", "SquaresEqual", &["semigroup"]);
        let other = theory("thy-000000000000000b", "OtherDiscovery", &["semigroup"]);
        let proved = || InclusionRec::Proved { proofs: Vec::new() };
        let refuted = |axiom: &str| InclusionRec::Refuted {
            axiom: axiom.into(),
            statement: String::new(),
            model: serde_json::json!({"sizes": {"S": 2}}),
        };
        let neighbour = |name: &str, implies, implied_by| NeighbourRec {
            name: name.into(),
            text: String::new(),
            implies,
            implied_by,
        };
        let placement = PlacementRec {
            theory_id: id.clone(),
            theory_name: "SquaresEqual".into(),
            neighbours: vec![
                neighbour("magma", proved(), refuted("squares")),
                neighbour("semigroup", proved(), refuted("squares")),
                neighbour("band", refuted("idem"), refuted("squares")),
                neighbour("OtherDiscovery", refuted("x"), proved()),
            ],
            between: vec![BetweenRec {
                lower: 1,
                upper: 0,
                proofs: Vec::new(),
            }],
            not_reached: 2,
            // Its * read as a commutative magma's, proved (in this made-up record); and as a
            // semilattice's, refuted, which is not listed.
            reducts: ["comm_magma", "semilattice"]
                .into_iter()
                .zip([proved(), refuted("idem")])
                .map(|(name, implies)| birkhoff_library::placement::ReductRec {
                    name: name.into(),
                    text: birkhoff_engine::catalogue::entry(name)
                        .unwrap()
                        .source
                        .into(),
                    map: [("*".to_string(), "*".to_string())].into_iter().collect(),
                    implies,
                })
                .collect(),
            reducts_between: Vec::new(),
        };
        let placed = Record {
            id: PlacementRec::id_for(&id),
            created: 0,
            body: Body::Placement(placement),
        };
        let site = Site {
            reports: Vec::new(),
            records: [
                (id.clone(), rec.clone()),
                other,
                (placed.id.clone(), placed),
            ]
            .into_iter()
            .collect(),
            proofs: BTreeMap::new(),
            references: Ok(Default::default()),
        };
        let Body::Theory(t) = &rec.body else {
            unreachable!()
        };
        let html = discovery(&site, &rec, t);
        let section = &html[html
            .find("<h2>Among known classes</h2>")
            .expect("a section")..];
        assert!(section.contains("2 more were not compared"), "{section}");
        assert!(
            section.contains(
                "contains it, strictly (a model of size 2 violates its axiom <code>squares</code>)"
            ),
            "{section}"
        );
        assert!(section.contains("incomparable"), "{section}");
        assert!(
            section.contains("<ul class=\"reducts\"><li>reading <code>*</code> as <code>*</code>, every model is one of"),
            "{section}"
        );
        assert_eq!(
            section.matches("every model is one of").count(),
            1,
            "{section}"
        );
        assert!(section.contains("aria-label=\"Hasse diagram"), "{section}");
        // Four boxes (band is not comparable), three covers: OtherDiscovery < SquaresEqual <
        // semigroup < magma; magma is not joined to SquaresEqual directly.
        assert_eq!(section.matches("<rect ").count(), 4, "{section}");
        assert_eq!(
            section.matches("<line class=\"edge\"").count(),
            3,
            "{section}"
        );
        assert!(section.contains("<title>semigroup contains SquaresEqual: proved</title>"));
        assert!(
            !section.contains("magma contains SquaresEqual"),
            "{section}"
        );
        // The neighbour that is a discovery links to its page.
        assert!(
            section.contains("href=\"thy-000000000000000b.html\""),
            "{section}"
        );
        // Without a placement record there is no section.
        let bare = Site {
            records: [(id.clone(), rec.clone())].into_iter().collect(),
            ..site
        };
        assert!(!discovery(&bare, &rec, t).contains("Among known classes"));
    }
}
