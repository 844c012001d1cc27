//! The web viewer in a real browser: an offline agent run's library written as a site
//! (`report html`), every page loaded by Debian's chromium, headless, from `file://`: no console
//! message or script error, the key elements present (a spectrum plot has one point per size and
//! series, a heatmap n×n cells), a screenshot in a narrow window. Names that are HTML or script
//! (`<script>…`, `"><img onerror=…>`) show as text and run nothing. `birkhoff serve` is asked
//! over HTTP with reqwest.
//!
//! Without chromium the browser test says so and passes, unless `BIRKHOFF_REQUIRE_CHROMIUM=1`
//! (set by `.ci/run`), which makes a missing browser a failure.

use birkhoff_library::record::{Body, ConjectureRec, ConjectureStatus, ModelRec, TheoryRec};
use birkhoff_library::Library;
use birkhoff_literature::paper::{Origin, Paper};
use birkhoff_literature::store::Status;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Script that must not run: it would retitle the page.
pub(crate) const SCRIPT_NAME: &str = "<script>document.title='pwned'</script>";
/// An attribute-breaking name that would add an element with a handler.
const ATTRIBUTE_NAME: &str = "\"><img src=x onerror=\"document.title='pwned'\">";

pub(crate) fn birkhoff(args: &[&str]) -> Output {
    crate::birkhoff_command()
        .args(args)
        .env("PATH", "/nonexistent")
        .output()
        .expect("the binary runs")
}

pub(crate) fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Debian's chromium, or `None` (with a message) when it is missing and not required.
fn chromium() -> Option<PathBuf> {
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var("BIRKHOFF_REQUIRE_CHROMIUM").as_deref() != Ok("1"),
            "BIRKHOFF_REQUIRE_CHROMIUM=1 but chromium is not installed (apt-get install chromium)"
        );
        eprintln!("SKIPPED: the browser test needs chromium (apt-get install chromium); set BIRKHOFF_REQUIRE_CHROMIUM=1 to make this a failure");
    }
    found
}

/// What chromium made of a page: its DOM after load, and the console messages and script
/// errors it logged.
struct Loaded {
    dom: String,
    console: Vec<String>,
}

/// Runs headless chromium with a fresh profile on `url` with `extra` flags.
fn chromium_run(exe: &Path, url: &str, extra: &[&str]) -> Output {
    let profile = tempfile::tempdir().unwrap();
    let mut args = vec![
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--v=0",
    ];
    let user_data = format!("--user-data-dir={}", profile.path().display());
    args.push(&user_data);
    args.extend(extra);
    args.push(url);
    let o = Command::new(exe)
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("chromium runs");
    assert!(o.status.success(), "chromium failed on {url}: {}", text(&o));
    o
}

fn load(exe: &Path, url: &str) -> Loaded {
    let o = chromium_run(exe, url, &["--dump-dom"]);
    let console = String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(String::from)
        .collect();
    Loaded {
        dom: String::from_utf8_lossy(&o.stdout).into_owned(),
        console,
    }
}

/// Takes a screenshot 420 pixels wide and checks it is a real picture.
fn screenshot(exe: &Path, url: &str, png: &Path) {
    chromium_run(
        exe,
        url,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=420,900",
            "--hide-scrollbars",
        ],
    );
    let bytes = std::fs::read(png).unwrap_or_else(|e| panic!("no screenshot of {url}: {e}"));
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 2000,
        "{url}: the screenshot is not a picture ({} bytes)",
        bytes.len()
    );
}

/// Every element `<tag ...>` of the DOM whose start tag contains `marker`, up to `</tag>`.
fn elements<'a>(dom: &'a str, tag: &str, marker: &str) -> Vec<&'a str> {
    let open = format!("<{tag} ");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = dom;
    while let Some(i) = rest.find(&open) {
        let from = &rest[i..];
        let head_end = from.find('>').unwrap_or(from.len());
        let end = from.find(&close).map_or(from.len(), |j| j + close.len());
        if from[..head_end].contains(marker) {
            out.push(&from[..end]);
        }
        rest = &from[open.len()..];
    }
    out
}

/// The number in `attr="N"` of an element's start tag.
fn attr_number(element: &str, attr: &str) -> usize {
    let key = format!("{attr}=\"");
    let at = element
        .find(&key)
        .unwrap_or_else(|| panic!("no {attr} in {}", &element[..element.len().min(200)]))
        + key.len();
    element[at..].split('"').next().unwrap().parse().unwrap()
}

/// Text as the DOM serializes it, unescaped.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Issue 55: the derivation graph as chromium built it draws each theory as one box (one
/// `<rect>` per node, no label twice) and each label whole, as its tooltip has it (not cut to
/// "SemigroupWithUnipoten…"); every discovery of the library is a box with its whole name.
fn graph_has_one_whole_box_per_theory(dom: &str, lib: &str) {
    let svg = elements(dom, "svg", "class=\"graph\"")
        .pop()
        .unwrap_or_else(|| panic!("graph.html has no graph: {dom}"));
    let between = |node: &str, open: &str, close: &str| -> String {
        let from = &node[node
            .find(open)
            .unwrap_or_else(|| panic!("no {open} in {node}"))..];
        let from = &from[from.find('>').unwrap() + 1..];
        unescape(
            &from[..from
                .find(close)
                .unwrap_or_else(|| panic!("no {close} in {node}"))],
        )
    };
    let mut nodes = elements(svg, "g", "class=\"node");
    nodes.extend(elements(svg, "a", "class=\"node"));
    assert!(!nodes.is_empty(), "no node in the graph: {svg}");
    assert_eq!(
        svg.matches("<rect ").count(),
        nodes.len(),
        "one box per node: {svg}"
    );
    let mut labels: Vec<String> = Vec::new();
    for node in &nodes {
        assert_eq!(
            node.matches("<rect ").count(),
            1,
            "one box per node: {node}"
        );
        let (label, title) = (
            between(node, "<text ", "</text>"),
            between(node, "<title>", "</title>"),
        );
        assert_eq!(label, title, "a label cut short: {node}");
        assert!(!label.ends_with('…') && !label.is_empty(), "{node}");
        assert!(!labels.contains(&label), "{label} drawn twice: {svg}");
        labels.push(label);
    }
    let l = Library::open(Path::new(lib)).unwrap();
    let discoveries: Vec<String> = l
        .list("theory")
        .unwrap()
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Theory(t) if t.discovery => Some(t.name),
            _ => None,
        })
        .collect();
    assert!(!discoveries.is_empty());
    for d in &discoveries {
        assert!(
            labels.contains(d),
            "the discovery {d} is not a box of its own: {labels:?}"
        );
    }
}

/// The ways an injected name would show in a page: an element it added, a title it changed, a
/// script blocked by the policy (a console message).
fn injected(page: &Loaded) -> Vec<String> {
    let mut found = Vec::new();
    if page.dom.matches("<script").count() != 1
        || !page
            .dom
            .contains("<script src=\"site.js\" defer=\"\"></script>")
    {
        found.push("a script element besides site.js".to_string());
    }
    // (The DOM is serialized with `<` escaped in text, so `<img` is an element; quotes in text
    // are not escaped, so an attribute's text proves nothing.)
    if page.dom.contains("<img") {
        found.push("an injected img element".to_string());
    }
    if page.dom.contains("<title>pwned</title>") {
        found.push("the title was changed by script".to_string());
    }
    found.extend(page.console.iter().cloned());
    found
}

/// A library with an offline agent run whose goal is script, plus a discovery and a conjecture
/// named with markup (stored directly, as a model's reply could name them). The research tests
/// (tests/it/research.rs) open workspaces in it too.
pub(crate) fn library(dir: &Path) -> String {
    let lib = dir.join("lib").to_str().unwrap().to_string();
    let goal = format!("semigroups with few models {SCRIPT_NAME}");
    let o = birkhoff(&[
        "agent",
        "--llm",
        "offline",
        "--cycles",
        "3",
        "--goal",
        &goal,
        "--library",
        &lib,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let mut l = Library::open(Path::new(&lib)).unwrap();
    let theory = "theory Magma\nfunc * : 2\naxiom idem: x * x = x\n";
    let (rec, _) = l
        .put(Body::Theory(TheoryRec {
            name: SCRIPT_NAME.into(),
            text: theory.into(),
            fingerprint: "x".into(),
            origin: ATTRIBUTE_NAME.into(),
            parents: vec![ATTRIBUTE_NAME.into()],
            discovery: true,
            notes: ATTRIBUTE_NAME.into(),
            score: None,
            aliases: vec![],
            presentations: vec![],
        }))
        .unwrap();
    l.put(Body::Conjecture(ConjectureRec {
        theory_id: rec.id.clone(),
        theory_name: SCRIPT_NAME.into(),
        statement: ATTRIBUTE_NAME.into(),
        status: ConjectureStatus::Open,
        evidence: SCRIPT_NAME.into(),
        countermodel: None,
        proof: None,
        proposed_by: "llm".into(),
        claim: None,
    }))
    .unwrap();
    // A refuted conjecture, its countermodel a 2-element idempotent magma that is not commutative.
    let structure = serde_json::json!({"sizes": {"S": 2}, "functions": {"*": [[0, 0], [1, 1]]}, "relations": {}});
    let (model, _) = l
        .put(Body::Model(ModelRec {
            theory_id: rec.id.clone(),
            theory_name: SCRIPT_NAME.into(),
            structure,
        }))
        .unwrap();
    l.put(Body::Conjecture(ConjectureRec {
        theory_id: rec.id.clone(),
        theory_name: SCRIPT_NAME.into(),
        statement: "x * y = y * x".into(),
        status: ConjectureStatus::Refuted,
        evidence: "a countermodel of size 2".into(),
        countermodel: Some(model.id),
        proof: None,
        proposed_by: "offline".into(),
        claim: None,
    }))
    .unwrap();
    // The literature agent's references: one confirmed, one unconfirmed whose title is markup.
    let store = birkhoff_literature::store::Store::new(Path::new(&lib));
    store
        .update(|s| {
            s.number(
                Paper::new(
                    "Quasigroups and loops: introduction",
                    vec!["H. O. Pflugfelder".into()],
                    Some(1990),
                    Origin::Zbmath,
                ),
                Status::Confirmed {
                    verified: 1_700_000_000,
                    endpoint: "https://api.zbmath.org/v1/document/1".into(),
                },
                "test",
            );
            s.number(
                Paper::new(SCRIPT_NAME, vec![ATTRIBUTE_NAME.into()], None, Origin::Llm),
                Status::Unconfirmed {
                    reason: "no record has this identifier".into(),
                },
                "llm",
            );
        })
        .unwrap();
    lib
}

#[test]
fn every_page_loads_cleanly_in_chromium_and_runs_no_injected_script() {
    let Some(exe) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let site = dir.path().join("site");
    let o = birkhoff(&[
        "report",
        "html",
        "--library",
        &lib,
        "--out",
        site.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let written: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let pages: Vec<PathBuf> = written["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| PathBuf::from(p.as_str().unwrap()))
        .collect();
    let names: Vec<String> = pages
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in [
        "index.html",
        "discoveries.html",
        "conjectures.html",
        "graph.html",
        "references.html",
        "cycle-0001.html",
        "cycle-0002.html",
        "cycle-0003.html",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    assert!(
        names.iter().any(|n| n.starts_with("thy-")),
        "no discovery page: {names:?}"
    );

    // The checks catch what they look for: a page with a script error, and one with the names
    // pasted in unescaped, under the same policy.
    let head = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'self'\"><title>t</title><script src=\"site.js\" defer></script>";
    std::fs::write(site.join("broken.js"), "undefinedFunction();\n").unwrap();
    std::fs::write(
        site.join("broken.html"),
        format!("{head}<script src=\"broken.js\"></script></head><body></body></html>"),
    )
    .unwrap();
    let broken = load(
        &exe,
        &format!("file://{}", site.join("broken.html").display()),
    );
    assert!(
        broken
            .console
            .iter()
            .any(|l| l.contains("undefinedFunction")),
        "a script error is not seen: {:?}",
        broken.console
    );
    std::fs::write(site.join("unescaped.html"), format!("{head}</head><body><h1>{SCRIPT_NAME}</h1><p title=\"{ATTRIBUTE_NAME}\"></p></body></html>")).unwrap();
    let unescaped = load(
        &exe,
        &format!("file://{}", site.join("unescaped.html").display()),
    );
    assert!(
        injected(&unescaped).len() >= 3,
        "unescaped names are not seen: {:?}",
        injected(&unescaped)
    );
    std::fs::write(
        site.join("no-policy.html"),
        format!(
            "<!DOCTYPE html><html><head><title>t</title></head><body>{SCRIPT_NAME}</body></html>"
        ),
    )
    .unwrap();
    assert!(
        load(
            &exe,
            &format!("file://{}", site.join("no-policy.html").display())
        )
        .dom
        .contains("<title>pwned</title>"),
        "a script that ran is not seen"
    );

    let shots = dir.path().join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let (mut plots, mut heatmaps) = (0, 0);
    for (page, name) in pages.iter().zip(&names) {
        let url = format!("file://{}", page.display());
        let loaded = load(&exe, &url);
        assert!(
            loaded.console.is_empty(),
            "{name}: console messages: {:?}",
            loaded.console
        );
        assert!(
            injected(&loaded).is_empty(),
            "{name}: {:?}",
            injected(&loaded)
        );
        assert!(
            loaded.dom.contains("<h1>")
                && loaded.dom.contains("<nav>")
                && loaded
                    .dom
                    .contains("http-equiv=\"Content-Security-Policy\""),
            "{name}: {}",
            loaded.dom
        );
        for plot in elements(&loaded.dom, "svg", "class=\"spectrum\"") {
            let sizes = plot.matches("class=\"size\"").count();
            assert!(sizes > 0, "{name}: a plot without sizes");
            assert_eq!(
                plot.matches("<circle class=\"point iso").count(),
                sizes,
                "{name}: one iso point per size: {plot}"
            );
            assert_eq!(
                plot.matches("<rect class=\"point labeled").count(),
                sizes,
                "{name}: one labeled point per size: {plot}"
            );
            plots += 1;
        }
        for table in elements(&loaded.dom, "table", "class=\"heatmap\"") {
            let (rows, cols) = (
                attr_number(table, "data-rows"),
                attr_number(table, "data-cols"),
            );
            assert_eq!(rows, cols, "{name}: a one-sorted table is square");
            assert_eq!(
                table.matches("<td class=\"cell").count(),
                rows * cols,
                "{name}: n×n cells: {table}"
            );
            heatmaps += 1;
        }
        if name == "graph.html" {
            graph_has_one_whole_box_per_theory(&loaded.dom, &lib);
        }
        screenshot(&exe, &url, &shots.join(name.replace(".html", ".png")));
    }
    assert!(
        plots > 0 && heatmaps > 0,
        "no spectrum plot ({plots}) or no heatmap ({heatmaps}) in the whole site"
    );
    let conjectures = std::fs::read_to_string(site.join("conjectures.html")).unwrap();
    assert!(
        conjectures.contains("<p>Countermodel:</p><div class=\"model\">")
            && conjectures.contains("data-rows=\"2\" data-cols=\"2\""),
        "the refuted conjecture's countermodel: {conjectures}"
    );
    assert!(
        conjectures.contains("<ol class=\"proof\">"),
        "a proved conjecture's steps: {conjectures}"
    );
    // An unconfirmed reference is never shown among the confirmed ones.
    let references = std::fs::read_to_string(site.join("references.html")).unwrap();
    let (confirmed, unconfirmed) = references
        .split_once("<h2>Unconfirmed")
        .expect("the unconfirmed references apart");
    assert!(
        confirmed.contains("REF-001")
            && confirmed.contains("Pflugfelder")
            && !confirmed.contains("UREF-001"),
        "{references}"
    );
    assert!(
        unconfirmed.contains("UREF-001")
            && unconfirmed.contains("class=\"unverified\"")
            && !unconfirmed.contains("class=\"verified\""),
        "{references}"
    );

    // The names are shown, as text.
    let discovery = pages
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|h| {
            h.contains("<h1>&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;</h1>")
        })
        .expect("the discovery named with script has its page");
    assert!(
        discovery.contains("&quot;&gt;&lt;img src=x onerror="),
        "{discovery}"
    );
    // The script sorts and filters: opened filtered on a word no row has, every cycle row is hidden.
    let index = site.join("index.html");
    let filtered = load(
        &exe,
        &format!("file://{}#filter=no-such-word", index.display()),
    );
    let cycles = elements(&filtered.dom, "table", "cycles")
        .pop()
        .expect("the cycle table");
    assert_eq!(cycles.matches("<tr hidden=\"\">").count(), 3, "{cycles}");
    assert!(filtered.console.is_empty(), "{:?}", filtered.console);
    // Opened sorted by a column, both ways: the rows come in that order, and the header says so.
    for (order, first) in [("descending", "3"), ("ascending", "1")] {
        let sorted = load(
            &exe,
            &format!("file://{}#sort=cycle&order={order}", index.display()),
        );
        let cycles = elements(&sorted.dom, "table", "cycles")
            .pop()
            .expect("the cycle table");
        assert!(
            cycles.contains(&format!("aria-sort=\"{order}\"")),
            "{cycles}"
        );
        let first_cell = cycles
            .split("<tbody>")
            .nth(1)
            .and_then(|b| b.split("<td class=\"num\">").nth(1))
            .expect("a first row");
        assert_eq!(cell_text(first_cell), first, "{order}: {cycles}");
    }
    let discoveries = site.join("discoveries.html");
    let sorted = load(
        &exe,
        &format!(
            "file://{}#sort=score&order=descending",
            discoveries.display()
        ),
    );
    let table = elements(&sorted.dom, "table", "discoveries")
        .pop()
        .expect("the discovery table");
    // Scores from the highest, then the discoveries not scored.
    let cells: Vec<String> = table
        .split("<td class=\"num\">")
        .skip(1)
        .map(cell_text)
        .collect();
    let scores: Vec<f64> = cells.iter().map_while(|c| c.parse().ok()).collect();
    assert!(
        scores.len() >= 2 && scores.windows(2).all(|w| w[0] >= w[1]),
        "scores not in descending order: {cells:?}"
    );
    assert!(
        cells[scores.len()..].iter().all(|c| c == "not scored"),
        "{cells:?}"
    );
    assert!(sorted.console.is_empty(), "{:?}", sorted.console);
}

/// The text of the table cell `html` starts with, tags left out.
fn cell_text(html: &str) -> String {
    let cell = html.split("</td>").next().unwrap_or_default();
    let mut in_tag = false;
    let text: String = cell
        .chars()
        .filter(|&c| {
            let keep = !in_tag && c != '<';
            in_tag = (in_tag || c == '<') && c != '>';
            keep
        })
        .collect();
    text.trim().to_string()
}

/// One HTTP exchange over a raw socket (for what an HTTP client would normalize away).
fn raw_get(addr: &str, target: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET {target} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_serves_the_site_on_localhost_and_stops_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    let lib_s = lib.to_str().unwrap();
    let o = birkhoff(&["serve", "--library", lib_s, "--port", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--library") && text(&o).contains("report html"),
        "{}",
        text(&o)
    );
    let o = birkhoff(&["report", "html", "--library", lib_s]);
    assert!(o.status.success(), "{}", text(&o));
    std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
    let mut child = crate::birkhoff_command()
        .args(["serve", "--library", lib_s, "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let client = reqwest::blocking::Client::new();
    let get = |path: &str| client.get(format!("{url}{path}")).send().unwrap();
    let index = get("");
    assert_eq!(index.status(), 200);
    assert_eq!(index.headers()["content-type"], "text/html; charset=utf-8");
    assert!(index.text().unwrap().contains("Research cycles"));
    for (path, ctype) in [
        ("style.css", "text/css; charset=utf-8"),
        ("site.js", "text/javascript; charset=utf-8"),
        ("conjectures.html", "text/html; charset=utf-8"),
    ] {
        let r = get(path);
        assert_eq!(
            (
                r.status().as_u16(),
                r.headers()["content-type"].to_str().unwrap()
            ),
            (200, ctype),
            "{path}"
        );
    }
    assert_eq!(get("nothing-here.html").status(), 404);
    assert_eq!(get("..%2fsecret.txt").status(), 403);
    assert!(
        raw_get(&addr, "/../secret.txt").starts_with("HTTP/1.1 403"),
        "path traversal"
    );
    assert_eq!(client.post(&url).send().unwrap().status(), 405);
    // Ctrl-C: the server stops and says it was interrupted (exit code 130).
    // SAFETY: kill(2) with the pid of our own child and a valid signal number.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
}

/// A library holding one discovery named `name`, at `dir`.
fn library_with_discovery(dir: &Path, name: &str) -> String {
    let mut l = Library::open(dir).unwrap();
    let theory = "theory Magma\nfunc * : 2\naxiom idem: x * x = x\n";
    l.put(Body::Theory(TheoryRec {
        name: name.into(),
        text: theory.into(),
        fingerprint: name.into(),
        origin: "test".into(),
        parents: vec![],
        discovery: true,
        notes: String::new(),
        score: None,
        aliases: vec![],
        presentations: vec![],
    }))
    .unwrap();
    dir.to_str().unwrap().to_string()
}

#[test]
fn a_rewritten_site_drops_the_pages_it_no_longer_has_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let site_s = site.to_str().unwrap();
    let pages = |o: &Output| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                Path::new(p.as_str().unwrap())
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    let first = library_with_discovery(&dir.path().join("one"), "First");
    let o = birkhoff(&[
        "report",
        "html",
        "--library",
        &first,
        "--out",
        site_s,
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let old_page = pages(&o)
        .into_iter()
        .find(|p| p.starts_with("thy-"))
        .expect("the discovery's page");
    // A file of the user's in the folder, and a manifest entry that points outside it.
    std::fs::write(site.join("notes.txt"), "mine").unwrap();
    std::fs::write(dir.path().join("outside.html"), "not the site's").unwrap();
    let manifest = site.join("site-files.json");
    let mut listed: Vec<String> =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    assert!(listed.contains(&old_page), "{listed:?}");
    listed.push("../outside.html".into());
    std::fs::write(&manifest, serde_json::to_vec(&listed).unwrap()).unwrap();

    let second = library_with_discovery(&dir.path().join("two"), "Second");
    let o = birkhoff(&[
        "report",
        "html",
        "--library",
        &second,
        "--out",
        site_s,
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let new_page = pages(&o)
        .into_iter()
        .find(|p| p.starts_with("thy-"))
        .expect("the discovery's page");
    assert_ne!(new_page, old_page);
    assert!(
        !site.join(&old_page).exists(),
        "the first library's discovery page is still there"
    );
    assert!(site.join(&new_page).exists() && site.join("index.html").exists());
    assert!(
        site.join("notes.txt").exists() && dir.path().join("outside.html").exists(),
        "a file the site did not make was removed"
    );
}
