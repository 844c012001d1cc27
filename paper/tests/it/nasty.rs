//! Names made of TeX's special characters and of unicode (Greek, accents, symbols, an emoji)
//! compile: every library text reaches the paper through the one escape function. Mutation
//! check: dropping any one special's escape from `escape::text` makes this test fail.

use birkhoff_engine::{Structure, Theory};
use birkhoff_library::record::{
    Alias, Body, ConjectureRec, ConjectureStatus, ModelRec, SpectrumRec, SpectrumRow, TheoryRec,
};
use birkhoff_library::Library;
use birkhoff_paper::{Compile, Compiled, Paper};

/// Every character TeX treats specially, Greek omicrons in a Latin word, an accent, a symbol
/// Birkhoff prints, and a character no font here has.
pub const NASTY: &str = "Lοοp_ü∘ & 100% #1 $x$ \\ {y} ~^ 😀";

const THEORY: &str = "theory T\nfunc ∘ : 2\nfunc ινβ_ü : 1\naxiom assoc_ü: (x ∘ y) ∘ z = x ∘ (y ∘ z)\naxiom ινβ_law: ινβ_ü(ινβ_ü(x)) = x\n";

#[test]
fn names_with_every_special_and_unicode_compile() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(&dir.path().join("lib")).unwrap();
    let rec = crate::put_theory(
        &mut lib,
        NASTY,
        THEORY,
        &format!("kept because {NASTY}"),
        vec![format!("parent {NASTY}")],
    );
    let Body::Theory(mut t) = rec.body.clone() else {
        unreachable!()
    };
    t.aliases.push(Alias {
        name: format!("alias {NASTY}"),
        cycle: 2,
        notes: NASTY.into(),
    });
    lib.put(Body::Theory(TheoryRec { ..t })).unwrap();
    let theory = Theory::parse(THEORY, "t").unwrap();
    // Z/2 with ∘ as addition and the identity as ινβ_ü: a model (associative, an involution).
    let model = Structure::from_fn(
        &theory.sig,
        &[2],
        |f, a| if f == "∘" { (a[0] + a[1]) % 2 } else { a[0] },
        |_, _| false,
    );
    let (m, _) = lib
        .put(Body::Model(ModelRec {
            theory_id: rec.id.clone(),
            theory_name: NASTY.into(),
            structure: model.to_json(&theory.sig),
        }))
        .unwrap();
    let exact = |v| birkhoff_checker::Count {
        value: v,
        status: birkhoff_checker::Status::Exact,
    };
    let rows = vec![
        SpectrumRow {
            sizes: vec![1],
            iso: exact(1),
            labeled: exact(1),
        },
        SpectrumRow {
            sizes: vec![2],
            iso: exact(3),
            labeled: exact(5),
        },
    ];
    lib.put(Body::Spectrum(SpectrumRec {
        theory_id: rec.id.clone(),
        theory_name: NASTY.into(),
        rows,
    }))
    .unwrap();
    let conjecture = |statement: &str, status, countermodel| ConjectureRec {
        theory_id: rec.id.clone(),
        theory_name: NASTY.into(),
        statement: statement.into(),
        status,
        evidence: NASTY.into(),
        countermodel,
        proof: None,
        proposed_by: NASTY.into(),
        claim: None,
    };
    lib.put(Body::Conjecture(conjecture(
        NASTY,
        ConjectureStatus::Open,
        None,
    )))
    .unwrap();
    // A statement of only blanks is an empty formula, which `$…$` would turn into `$$`.
    lib.put(Body::Conjecture(conjecture(
        " \t ",
        ConjectureStatus::Open,
        None,
    )))
    .unwrap();
    lib.put(Body::Conjecture(conjecture(
        "x ∘ x = x",
        ConjectureStatus::Refuted,
        Some(m.id.clone()),
    )))
    .unwrap();

    let paper = Paper::gather(&lib, NASTY).unwrap();
    let tex = paper.to_latex();
    assert!(!tex.contains(NASTY), "the name reached the .tex unescaped");
    if !crate::pdflatex_or_skip("names_with_every_special_and_unicode_compile") {
        return;
    }
    let out = paper
        .write(&dir.path().join("paper"), Compile::IfInstalled)
        .unwrap();
    let pdf = match out.compiled {
        Compiled::Pdf(p) => p,
        other => panic!("the paper with nasty names did not compile: {other:?}\n{tex}"),
    };
    let text = crate::pdf_text(&pdf);
    // Each special shows as itself (the name is in the title, the definition and the captions).
    for shown in ["& 100% #1 $x$ \\ {y} ~^", "_ü", "[U+1F600]", "alias"] {
        assert!(
            text.contains(shown),
            "`{shown}` is not in the PDF's text:\n{text}"
        );
    }
}

/// Many strings of random characters (every printable ASCII character, control characters,
/// Latin letters with accents, Greek, Cyrillic, CJK, combining marks, math symbols, emoji), each
/// through the escape function as text and through the formula printer as mathematics, in one
/// document: pdflatex accepts all of it.
#[test]
fn random_text_and_formulas_always_compile() {
    let pool: Vec<char> = (0x20u32..0x7f)
        .chain(0x00..0x20)
        .chain(0xa0..0x180)
        .chain(0x370..0x3d0)
        .chain(0x400..0x460)
        .chain(0x300..0x310)
        .chain([
            0x2200, 0x2218, 0x2227, 0x2192, 0x21a6, 0x2264, 0x4e2d, 0x6587, 0x1f600, 0x1d400,
            0xfeff, 0x200b,
        ])
        .filter_map(char::from_u32)
        .collect();
    // A small linear congruential generator: the same strings on every run.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % n
    };
    let theory = Theory::parse(THEORY, "t").unwrap();
    let sym = birkhoff_paper::math::Symbols::of(&theory.sig);
    let mut body = String::new();
    for _ in 0..300 {
        let len = 1 + next(24);
        let s: String = (0..len).map(|_| pool[next(pool.len())]).collect();
        body += &format!(
            "{}\\par \\({}\\)\\par\n",
            birkhoff_paper::escape::text(&s),
            sym.math(&s)
        );
    }
    let tex = format!("\\documentclass{{article}}\n\\usepackage[utf8]{{inputenc}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{textcomp,amsmath,amssymb}}\n\\begin{{document}}\n{body}\\end{{document}}\n");
    if !crate::pdflatex_or_skip("random_text_and_formulas_always_compile") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("random.tex"), &tex).unwrap();
    match birkhoff_paper::compile::pdflatex(dir.path(), "random.tex") {
        Compiled::Pdf(_) => {}
        Compiled::Failed(errors) => {
            let lines: Vec<&str> = tex.lines().collect();
            let at: Vec<String> = errors
                .iter()
                .map(|e| {
                    format!(
                        "{e}: {}",
                        e.line.and_then(|l| lines.get(l - 1)).unwrap_or(&"")
                    )
                })
                .collect();
            panic!("random text broke the compile:\n{}", at.join("\n"));
        }
        other => panic!("{other:?}"),
    }
}
