//! Names made of TeX's special characters and of unicode (Greek, accents, symbols, an emoji)
//! compile: every library text reaches the paper through the one escape function. Mutation
//! check: dropping any one special's escape from `escape::text` makes this test fail.

use birkhoff_engine::{Structure, Theory};
use birkhoff_library::record::{Alias, Body, ConjectureRec, ConjectureStatus, ModelRec, SpectrumRec, SpectrumRowRec, TheoryRec};
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
    let rec = crate::put_theory(&mut lib, NASTY, THEORY, &format!("kept because {NASTY}"), vec![format!("parent {NASTY}")]);
    let Body::Theory(mut t) = rec.body.clone() else { unreachable!() };
    t.aliases.push(Alias { name: format!("alias {NASTY}"), cycle: 2, notes: NASTY.into() });
    lib.put(Body::Theory(TheoryRec { ..t })).unwrap();
    let theory = Theory::parse(THEORY, "t").unwrap();
    // Z/2 with ∘ as addition and the identity as ινβ_ü: a model (associative, an involution).
    let model = Structure::from_fn(&theory.sig, &[2], |f, a| if f == "∘" { (a[0] + a[1]) % 2 } else { a[0] }, |_, _| false);
    let (m, _) = lib.put(Body::Model(ModelRec { theory_id: rec.id.clone(), theory_name: NASTY.into(), structure: model.to_json(&theory.sig) })).unwrap();
    let exact = |v| birkhoff_checker::budget::Count { value: v, status: birkhoff_checker::budget::Status::Exact };
    let rows = vec![SpectrumRowRec { sizes: vec![1], iso: exact(1), labeled: exact(1) }, SpectrumRowRec { sizes: vec![2], iso: exact(3), labeled: exact(5) }];
    lib.put(Body::Spectrum(SpectrumRec { theory_id: rec.id.clone(), theory_name: NASTY.into(), rows })).unwrap();
    let conjecture = |statement: &str, status, countermodel| ConjectureRec { theory_id: rec.id.clone(), theory_name: NASTY.into(), statement: statement.into(), status, evidence: NASTY.into(), countermodel, proof: None, proposed_by: NASTY.into() };
    lib.put(Body::Conjecture(conjecture(NASTY, ConjectureStatus::Open, None))).unwrap();
    lib.put(Body::Conjecture(conjecture("x ∘ x = x", ConjectureStatus::Refuted, Some(m.id.clone())))).unwrap();

    let paper = Paper::gather(&lib, NASTY).unwrap();
    let tex = paper.to_latex();
    assert!(!tex.contains(NASTY), "the name reached the .tex unescaped");
    if !crate::pdflatex_or_skip("names_with_every_special_and_unicode_compile") {
        return;
    }
    let out = paper.write(&dir.path().join("paper"), Compile::IfInstalled).unwrap();
    let pdf = match out.compiled {
        Compiled::Pdf(p) => p,
        other => panic!("the paper with nasty names did not compile: {other:?}\n{tex}"),
    };
    let text = crate::pdf_text(&pdf);
    // Each special shows as itself (the name is in the title, the definition and the captions).
    for shown in ["& 100% #1 $x$ \\ {y} ~^", "_ü", "[U+1F600]", "alias"] {
        assert!(text.contains(shown), "`{shown}` is not in the PDF's text:\n{text}");
    }
}
