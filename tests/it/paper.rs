//! `birkhoff paper` on discoveries of an offline agent run (the web viewer test's library,
//! `html::library`): the paper compiles, and the PDF's text holds the discovery's axioms, its
//! spectrum's numbers and its theorems' statements; the proofs it typesets re-check; a
//! discovery named with markup compiles too; an unknown discovery is an error (2), not a panic.
//!
//! Without pdflatex the paper is still written (and the test says so) unless
//! `BIRKHOFF_REQUIRE_PDFLATEX=1` (set by `.ci/run`), which makes a missing pdflatex a failure.

use birkhoff_library::record::{Body, ConjectureStatus};
use birkhoff_library::Library;
use std::path::Path;
use std::process::{Command, Output};

/// The binary with the caller's `PATH`, so that it finds pdflatex.
fn birkhoff(args: &[&str]) -> Output {
    crate::birkhoff_command()
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Whether pdflatex and pdftotext are installed (a failure when required and missing).
fn pdflatex() -> bool {
    let have = |p: &str| Command::new(p).arg("-v").output().is_ok();
    let found = have("pdflatex") && have("pdftotext");
    if !found {
        assert!(
            std::env::var("BIRKHOFF_REQUIRE_PDFLATEX").as_deref() != Ok("1"),
            "BIRKHOFF_REQUIRE_PDFLATEX=1 but pdflatex or pdftotext is missing"
        );
        eprintln!("SKIPPED (compiling): needs pdflatex and pdftotext; set BIRKHOFF_REQUIRE_PDFLATEX=1 to make this a failure");
    }
    found
}

/// A formula as pdftotext shows it, without spaces: `*` is typeset as a centred dot.
fn as_typeset(formula: &str) -> String {
    formula.replace('*', "·").split_whitespace().collect()
}

#[test]
fn the_paper_of_an_offline_discovery_compiles_with_its_axioms_spectrum_and_theorems() {
    let dir = tempfile::tempdir().unwrap();
    let lib = crate::html::library(dir.path());
    // That library's semigroup run proves conjectures about candidates it does not keep; an
    // offline run on rings proves some about the discoveries it keeps.
    let rings = dir.path().join("rings").to_str().unwrap().to_string();
    let o = birkhoff(&[
        "agent",
        "--llm",
        "offline",
        "--cycles",
        "3",
        "--goal",
        "rings with few models",
        "--library",
        &rings,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let l = Library::open(Path::new(&rings)).unwrap();
    // The discovery with a proved conjecture (the offline run proves one).
    let proved: Vec<String> = l
        .list("conjecture")
        .unwrap()
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Conjecture(c) if c.status == ConjectureStatus::Proved => Some(c.theory_id),
            _ => None,
        })
        .collect();
    let discovery = l
        .list("theory")
        .unwrap()
        .into_iter()
        .find(|r| matches!(&r.body, Body::Theory(t) if t.discovery) && proved.contains(&r.id))
        .expect("the offline run proved a conjecture about a discovery");
    let paper = birkhoff_paper::Paper::gather(&l, &discovery.id).unwrap();
    assert!(!paper.theorems.is_empty() && !paper.spectrum.is_empty());
    // Every proof the paper typesets re-checks from its text.
    for t in &paper.theorems {
        t.proof
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: no proof typeset: {e}", t.statement));
        t.recheck(&paper.theory)
            .unwrap_or_else(|e| panic!("{}: {e}", t.statement));
    }
    drop(l);

    let out = dir.path().join("paper");
    let o = birkhoff(&[
        "paper",
        &paper.record.name,
        "--library",
        &rings,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(out.join("OUTPUT.tex").is_file() && out.join("references.bib").is_file());
    // The placement the paper shows is stored with its evidence, which `backtest` checks again,
    // and the discovery's web page shows it from the same record.
    let placement = birkhoff_library::placement::PlacementRec::id_for(&discovery.id);
    assert!(
        Path::new(&rings)
            .join("placements")
            .join(format!("{placement}.json"))
            .is_file(),
        "{}",
        text(&o)
    );
    let checked = birkhoff(&["backtest", "--library", &rings, "--json"]);
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked));
    let site = dir.path().join("site");
    let written = birkhoff(&[
        "report",
        "html",
        "--library",
        &rings,
        "--out",
        site.to_str().unwrap(),
    ]);
    assert_eq!(written.status.code(), Some(0), "{}", text(&written));
    let page = std::fs::read_to_string(site.join(format!("{}.html", discovery.id))).unwrap();
    assert!(page.contains("<h2>Among known classes</h2>"), "{page}");
    if !pdflatex() {
        assert!(
            text(&o).contains("pdflatex is not installed"),
            "{}",
            text(&o)
        );
        return;
    }
    let pdf = out.join("OUTPUT.pdf");
    assert!(pdf.is_file(), "{}", text(&o));
    let pdftotext = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let words = String::from_utf8_lossy(&pdftotext.stdout).into_owned();
    let flat: String = words.split_whitespace().collect();
    // Formulas are typeset with every operand bracketed.
    let bracketed = |a: &birkhoff_engine::Axiom| {
        birkhoff_engine::print::FormulaPrinter {
            bracket_operands: true,
            ..birkhoff_engine::print::FormulaPrinter::new(&paper.theory.sig, a)
        }
        .formula(&a.formula)
    };
    for a in &paper.theory.axioms {
        let formula = bracketed(a);
        assert!(
            flat.contains(&as_typeset(&formula)),
            "axiom {} `{formula}` is not in the PDF:\n{words}",
            a.name
        );
    }
    for row in &paper.spectrum {
        for n in [row.iso.value, row.labeled.value] {
            assert!(
                words.split_whitespace().any(|w| w == n.to_string()),
                "the count {n} is not in the PDF:\n{words}"
            );
        }
    }
    for t in &paper.theorems {
        let goal = birkhoff_library::statement::parse(&paper.theory, &t.statement).unwrap();
        assert!(
            flat.contains(&as_typeset(&bracketed(&goal))),
            "theorem `{}` is not in the PDF:\n{words}",
            t.statement
        );
    }

    // The discovery named with script (and its conjecture named with markup) compiles too.
    let o = birkhoff(&[
        "paper",
        crate::html::SCRIPT_NAME,
        "--library",
        &lib,
        "--out",
        dir.path().join("script").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["compiled"], "compiled", "{report}");
    // An unknown discovery is an error that says what to do, not a panic.
    let o = birkhoff(&[
        "paper",
        "NoSuchDiscovery",
        "--library",
        &lib,
        "--no-compile",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("no discovery called `NoSuchDiscovery`"),
        "{}",
        text(&o)
    );
    // Neither a discovery nor --best, and --best in a library without discoveries: errors too.
    let o = birkhoff(&["paper", "--library", &lib]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("<DISCOVERY>"), "{}", text(&o));
    let empty = dir.path().join("empty");
    let o = birkhoff(&["paper", "--best", "--library", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--best: the library") && text(&o).contains("has no discovery"),
        "{}",
        text(&o)
    );
}

/// A stand-in for pdflatex on `PATH`, which writes its log, aux and PDF files where it runs, as
/// pdflatex does (through any link there), and puts the mode and path of that directory in the PDF.
fn fake_pdflatex(bin: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(bin).unwrap();
    let script = bin.join("pdflatex");
    let body = r#"#!/bin/sh
[ "$1" = -version ] && exit 0
for a; do tex=$a; done
job=${tex%.tex}
for a; do case $a in -jobname=*) job=${a#-jobname=};; esac; done
echo "log of $job" > "$job.log"
echo "aux of $job" > "$job.aux"
printf '%%PDF fake, built in mode %s at %s\n' "$(stat -c %a .)" "$PWD" > "$job.pdf"
"#;
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_paper_compiles_in_a_private_directory_and_only_its_pdf_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lib");
    let mut lib = Library::open(&root).unwrap();
    let t = birkhoff_engine::seeds::load("group").unwrap();
    let rec = birkhoff_library::record::TheoryRec {
        name: "Planted".into(),
        text: t.to_text(),
        fingerprint: t.fingerprint().to_string(),
        origin: "test".into(),
        parents: vec![],
        discovery: true,
        notes: String::new(),
        score: None,
        aliases: vec![],
        presentations: vec![],
    };
    lib.put(Body::Theory(rec)).unwrap();
    drop(lib);
    // Links planted in the paper's folder, to a file outside the library, under every name
    // pdflatex writes there (the old job name and the plain one).
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "not pdflatex's\n").unwrap();
    let folder = root.join("papers/planted");
    std::fs::create_dir_all(&folder).unwrap();
    let planted = [
        "OUTPUT.partial.log",
        "OUTPUT.partial.aux",
        "OUTPUT.partial.pdf",
        "OUTPUT.log",
        "OUTPUT.aux",
    ];
    for name in planted {
        std::os::unix::fs::symlink(&victim, folder.join(name)).unwrap();
    }
    let bin = dir.path().join("bin");
    fake_pdflatex(&bin);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = crate::birkhoff_command()
        .args(["paper", "Planted", "--library", root.to_str().unwrap()])
        .env("PATH", path)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "not pdflatex's\n",
        "pdflatex wrote through a planted link"
    );
    let pdf = std::fs::read_to_string(folder.join("OUTPUT.pdf")).unwrap();
    assert!(
        pdf.starts_with("%PDF fake, built in mode 700 at ")
            && !pdf.contains(folder.to_str().unwrap()),
        "{pdf}"
    );
    // Only the results are left: no log or aux file beside the links planted.
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !planted.contains(&n.as_str()))
        .collect();
    names.sort();
    assert_eq!(names, ["OUTPUT.pdf", "OUTPUT.tex", "references.bib"]);
}

/// Issue 55: `birkhoff paper` tries each open conjecture before calling it open. A discovery
/// with a false conjecture left open (commutativity of semigroups: a two-element left-zero
/// semigroup refutes it, and no model of it is stored) gets a paper that reports it refuted
/// before writing and lists it under the refuted laws, not the open conjectures.
#[test]
fn the_paper_command_refutes_a_false_open_conjecture_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("lib");
    let mut lib = Library::open(&root).unwrap();
    let semigroup = "theory T\nfunc * : 2\naxiom assoc: x * y * z = x * (y * z)\n";
    let t = birkhoff_engine::Theory::parse(semigroup, "t").unwrap();
    let (rec, _) = lib
        .put(Body::Theory(birkhoff_library::record::TheoryRec {
            name: "PlantedSemigroup".into(),
            text: t.to_text(),
            fingerprint: t.fingerprint().to_string(),
            origin: "test".into(),
            parents: vec![],
            discovery: true,
            notes: String::new(),
            score: None,
            aliases: vec![],
            presentations: vec![],
        }))
        .unwrap();
    lib.put(Body::Conjecture(birkhoff_library::record::ConjectureRec {
        theory_id: rec.id.clone(),
        theory_name: "PlantedSemigroup".into(),
        statement: "x * y = y * x".into(),
        status: ConjectureStatus::Open,
        evidence: "unknown: the agent's prover ran out of time".into(),
        countermodel: None,
        proof: None,
        proposed_by: "test".into(),
        claim: None,
    }))
    .unwrap();
    drop(lib);

    let out = dir.path().join("paper");
    let o = birkhoff(&[
        "paper",
        &rec.id,
        "--library",
        root.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-compile",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        report["refuted_before_writing"],
        serde_json::json!(["x * y = y * x"]),
        "{report}"
    );
    let tex = std::fs::read_to_string(out.join("OUTPUT.tex")).unwrap();
    let section = |name: &str| {
        tex.split(&format!("\\section{{{name}}}"))
            .nth(1)
            .unwrap_or_else(|| panic!("no section {name}:\n{tex}"))
            .split("\\section{")
            .next()
            .unwrap()
            .to_string()
    };
    let open = section("Open conjectures");
    assert!(
        !open.contains("\\begin{conjecture}") && !open.contains("y \\cdot x"),
        "the refuted conjecture is still listed as open:\n{open}"
    );
    let refuted = section("Refuted laws");
    assert!(
        refuted.contains("\\begin{remark}") && refuted.contains("y \\cdot x"),
        "the refuted conjecture is not among the refuted laws:\n{refuted}"
    );
    // The library holds the refutation too (beside the structure statements the paper studied).
    let lib = Library::open(&root).unwrap();
    let statuses: Vec<ConjectureStatus> = lib
        .conjectures_of(&rec.id)
        .unwrap()
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Conjecture(c) if c.proposed_by == "test" => Some(c.status),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, [ConjectureStatus::Refuted], "{statuses:?}");
}
