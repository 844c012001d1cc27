//! Only confirmed references (REF-NNN) are cited: an unconfirmed one (UREF) attached to the same
//! discovery appears nowhere in the .tex, the .bib or the PDF's text.

use birkhoff_library::Library;
use birkhoff_literature::paper::{Origin, Paper as Reference};
use birkhoff_literature::store::{Status, Store};
use birkhoff_paper::{Compile, Compiled, Paper};

const CONFIRMED: &str = "Quasigroups and loops: introduction";
const NASTY_TITLE: &str = "Loops {with} 100% & $x$ _ \\ } ü";
const UNCONFIRMED: &str = "Zyzzyva loops that nobody wrote about";

#[test]
fn an_unconfirmed_reference_never_appears() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(&dir.path().join("lib")).unwrap();
    let rec = crate::put_theory(
        &mut lib,
        "Idempotent magma",
        "theory M\nfunc * : 2\naxiom idem: x * x = x\n",
        "a test discovery",
        vec!["magma".into()],
    );
    // Numbered and attached to the discovery through the literature agent's own store.
    Store::new(lib.root())
        .update(|s| {
            let mut paper = Reference::new(
                CONFIRMED,
                vec!["H. O. Pflugfelder".into()],
                Some(1990),
                Origin::Zbmath,
            );
            paper.ids.zbmath = Some("0715.20043".into());
            let confirmed = s.number(
                paper,
                Status::Confirmed {
                    verified: 1_700_000_000,
                    endpoint: "https://api.zbmath.org/v1/document/0715.20043".into(),
                },
                "test",
            );
            let unconfirmed = s.number(
                Reference::new(
                    UNCONFIRMED,
                    vec!["A. Nobody".into()],
                    Some(2024),
                    Origin::Llm,
                ),
                Status::Unconfirmed {
                    reason: "no record has this identifier".into(),
                },
                "llm",
            );
            assert!(s.attach(&rec.id, &confirmed) && s.attach(&rec.id, &unconfirmed));
            // A confirmed title made of what TeX and BibTeX treat specially.
            let nasty = s.number(
                Reference::new(
                    NASTY_TITLE,
                    vec!["Ü. {Brace} O'Neil".into()],
                    None,
                    Origin::Arxiv,
                ),
                Status::Confirmed {
                    verified: 1_700_000_000,
                    endpoint: "https://export.arxiv.org/api/query?id_list=1".into(),
                },
                "test",
            );
            assert!(s.attach(&rec.id, &nasty));
        })
        .unwrap();
    let paper = Paper::gather(&lib, "Idempotent magma").unwrap();
    let (tex, bib) = (paper.to_latex(), paper.to_bibtex());
    assert!(
        tex.contains(CONFIRMED)
            && tex.contains("\\cite{REF-001,REF-002}")
            && tex.contains("\\bibitem{REF-001}"),
        "{tex}"
    );
    assert!(
        bib.contains("@article{REF-001,") && bib.contains(CONFIRMED),
        "{bib}"
    );
    for (what, text) in [("tex", &tex), ("bib", &bib)] {
        assert!(
            !text.contains(UNCONFIRMED) && !text.contains("UREF") && !text.contains("Nobody"),
            "the unconfirmed reference is in the {what}:\n{text}"
        );
    }
    if !crate::pdflatex_or_skip("an_unconfirmed_reference_never_appears") {
        return;
    }
    let out = paper
        .write(&dir.path().join("paper"), Compile::IfInstalled)
        .unwrap();
    let Compiled::Pdf(pdf) = out.compiled else {
        panic!("did not compile: {:?}", out.compiled)
    };
    let text = crate::pdf_text(&pdf);
    assert!(
        text.contains("Quasigroups and loops: introduction") && text.contains("[1]"),
        "the confirmed reference is not cited:\n{text}"
    );
    assert!(
        !text.contains("Zyzzyva") && !text.contains("Nobody"),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&out.bib).unwrap(), bib);
    // references.bib works with BibTeX too: every entry, the nasty one included, typeset.
    let bibdir = dir.path().join("bibtex");
    std::fs::create_dir_all(&bibdir).unwrap();
    std::fs::copy(&out.bib, bibdir.join("references.bib")).unwrap();
    std::fs::write(bibdir.join("main.tex"), "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n\\usepackage{textcomp}\n\\begin{document}\n\\nocite{*}\n\\bibliographystyle{plain}\n\\bibliography{references}\n\\end{document}\n").unwrap();
    for (program, arg) in [
        ("pdflatex", "-interaction=nonstopmode"),
        ("bibtex", "main"),
        ("pdflatex", "-interaction=nonstopmode"),
    ] {
        let args: Vec<&str> = if program == "bibtex" {
            vec![arg]
        } else {
            vec![arg, "-halt-on-error", "main.tex"]
        };
        let o = std::process::Command::new(program)
            .args(&args)
            .current_dir(&bibdir)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{program}: {}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    let text = crate::pdf_text(&bibdir.join("main.pdf"));
    assert!(
        text.contains("Quasigroups and loops") && text.contains("100% & $x$ _ \\ }"),
        "{text}"
    );
}
