//! What a referee would flag in a paper (issue 55): a law that reads two ways in a magma, a
//! conjecture called open that a small model refutes, one countermodel printed again and again,
//! a silent "Related work", and Markdown backticks in the TeX. The discovery here is named and
//! noted with code spans, as the agent names discoveries; it has four open conjectures, three of
//! them false (two refuted by a model the library holds, one only by a search) and one true.

use birkhoff_engine::{Structure, Theory};
use birkhoff_library::record::{
    Body, ConjectureRec, ConjectureStatus, ModelRec, SpectrumRec, SpectrumRow,
};
use birkhoff_library::Library;
use birkhoff_literature::store::{HistoryRow, Store, SubjectState};
use birkhoff_paper::{try_open_conjectures, Paper, Trial, Tried};
use std::time::Duration;

const NAME: &str = "Semigroup with `*` unipotent";
const THEORY: &str =
    "theory T\nfunc * : 2\naxiom assoc: x * y * z = x * (y * z)\naxiom unipotent: x * x = y * y\n";

/// The library: the discovery, its two-element zero semigroup, and four open conjectures.
fn library(root: &std::path::Path) -> (Library, String) {
    let mut lib = Library::open(root).unwrap();
    let rec = crate::put_theory(
        &mut lib,
        NAME,
        THEORY,
        "adds `x * x = y * y` to `Semigroup`",
        vec![],
    );
    let theory = Theory::parse(THEORY, "t").unwrap();
    let zero = Structure::from_fn(&theory.sig, &[2], |_, _| 0, |_, _| false);
    lib.put(Body::Model(ModelRec {
        theory_id: rec.id.clone(),
        theory_name: NAME.into(),
        structure: zero.to_json(&theory.sig),
    }))
    .unwrap();
    for statement in [
        // False in the zero semigroup held: 1 * 0 = 0.
        "x * y = x",
        "x * y = y",
        // False, with no model held to show it: a search finds one of size 4.
        "x * y = y * x",
        // True (both sides are the one square, times z).
        "x * x * z = y * y * z",
    ] {
        lib.put(Body::Conjecture(ConjectureRec {
            theory_id: rec.id.clone(),
            theory_name: NAME.into(),
            statement: statement.into(),
            status: ConjectureStatus::Open,
            evidence: "unknown: the agent's prover ran out of time".into(),
            countermodel: None,
            proof: None,
            proposed_by: "test".into(),
            claim: None,
        }))
        .unwrap();
    }
    (lib, rec.id)
}

/// Sizes up to 4 keep the true conjecture's fruitless search short.
fn trial() -> Trial {
    Trial {
        max_size: 4,
        time: Duration::from_secs(10),
        cancel: None,
    }
}

#[test]
fn a_paper_a_referee_would_not_flag() {
    let dir = tempfile::tempdir().unwrap();
    let (mut lib, id) = library(&dir.path().join("lib"));

    // Open conjectures are tried first: the models held, then a short search.
    let tried = try_open_conjectures(&mut lib, NAME, &trial()).unwrap();
    let refuted: Vec<(&str, bool)> = tried
        .iter()
        .filter_map(|t| match t {
            Tried::Refuted {
                statement, in_hand, ..
            } => Some((statement.as_str(), *in_hand)),
            Tried::StillOpen { .. } => None,
        })
        .collect();
    assert_eq!(refuted.len(), 3, "{tried:?}");
    assert!(refuted.contains(&("x * y = x", true)), "{tried:?}");
    assert!(refuted.contains(&("x * y = y * x", false)), "{tried:?}");
    let paper = Paper::gather(&lib, &id).unwrap();
    let open: Vec<&str> = paper.open.iter().map(|o| o.statement.as_str()).collect();
    assert_eq!(open, ["x * x * z = y * y * z"]);
    assert_eq!(paper.refuted.len(), 3);

    let tex = paper.to_latex();
    // Every product bracketed: associativity reads one way only.
    assert!(
        tex.contains("\\(( x \\cdot y ) \\cdot z = x \\cdot ( y \\cdot z )\\)"),
        "{tex}"
    );
    assert!(
        tex.contains("( x \\cdot x ) \\cdot z = ( y \\cdot y ) \\cdot z"),
        "{tex}"
    );
    // Each countermodel typeset once: one table per distinct model shown or refuting.
    // (the structure section's subdirectly irreducible models among them).
    let mut distinct: Vec<&Structure> = paper.models.iter().map(|m| &m.structure).collect();
    let survey = paper
        .survey
        .as_ref()
        .expect("a semigroup theory is surveyed");
    let si = survey
        .sizes
        .iter()
        .flat_map(|r| &r.analysed)
        .filter(|a| a.anatomy.size > 1)
        .filter(|a| {
            a.anatomy
                .irreducibility
                .as_ref()
                .is_some_and(|i| i.subdirectly_irreducible)
        })
        .take(4);
    let mut si_shown = 0;
    for a in si {
        si_shown += 1;
        if !distinct.contains(&&a.model) {
            distinct.push(&a.model);
        }
    }
    for r in &paper.refuted {
        let s = r.countermodel.as_ref().expect("the countermodel is stored");
        if !distinct.contains(&s) {
            distinct.push(s);
        }
    }
    assert!(distinct.len() < paper.models.len() + paper.refuted.len() + si_shown);
    assert_eq!(
        tex.matches("\\begin{tabular}[t]").count(),
        distinct.len(),
        "{tex}"
    );
    assert!(tex.contains("It fails in"), "{tex}");
    // No Markdown in the TeX: the code spans are mathematics.
    assert!(!tex.contains('`'), "a backtick reached the .tex:\n{tex}");
    assert!(tex.contains("Semigroup with \\ensuremath{\\cdot} unipotent"));
    // Related work says the literature was not searched, and why.
    assert!(
        tex.contains("The literature was not searched for this theory"),
        "{tex}"
    );

    let dir = dir.path().join("paper");
    let Some(text) = crate::compiled_text(&paper, &dir, "a_paper_a_referee_would_not_flag") else {
        return;
    };
    assert!(!text.contains('`'), "{text}");
}

#[test]
fn related_work_says_when_no_source_answered_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let (lib, id) = library(&dir.path().join("lib"));
    let answers = |answer: &str| SubjectState {
        history: vec![HistoryRow {
            date: 1,
            summary: "name".into(),
            results: [("arxiv".to_string(), answer.to_string())].into(),
            new_confirmed: 0,
        }],
        ..SubjectState::default()
    };
    let store = Store::new(lib.root());
    store
        .update(|s| {
            s.subjects
                .insert(id.clone(), answers("skipped: source unreachable"))
        })
        .unwrap();
    let tex = Paper::gather(&lib, &id).unwrap().to_latex();
    assert!(
        tex.contains("tried to search for this theory once, but no source answered: arxiv (skipped: source unreachable)"),
        "{tex}"
    );
    store
        .update(|s| s.subjects.insert(id.clone(), answers("3")))
        .unwrap();
    let tex = Paper::gather(&lib, &id).unwrap().to_latex();
    assert!(
        tex.contains("searched for this theory once (last answers: arxiv (3)) and no reference was confirmed"),
        "{tex}"
    );
}

/// Loops with x / y = y / x counted to order 5 have models at orders 1, 2 and 4 only, which
/// suggests "models only at orders that are powers of 2"; a model of order 6 in the library (as
/// a countermodel to their commutativity is) refutes it, so the paper does not call it open.
#[test]
fn a_spectrum_pattern_a_stored_model_refutes_is_not_called_open() {
    const LOOP: &str = "theory L\nfunc * : 2\nfunc \\ : 2\nfunc / : 2\nconst e\naxiom a: x \\ (x * y) = y\naxiom b: x * (x \\ y) = y\naxiom c: x * y / y = x\naxiom d: x / y * y = x\naxiom l: e * x = x\naxiom r: x * e = x\naxiom comm_rdiv: x / y = y / x\n";
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    let rec = crate::put_theory(
        &mut lib,
        "LoopWithCommutativeRdiv",
        LOOP,
        "adds x / y = y / x to Loop",
        vec![],
    );
    let exact = |value| birkhoff_checker::Count {
        value,
        status: birkhoff_checker::Status::Exact,
    };
    let rows = [1, 1, 0, 1, 0]
        .iter()
        .enumerate()
        .map(|(i, &n)| SpectrumRow {
            sizes: vec![i as u32 + 1],
            iso: exact(n),
            labeled: birkhoff_checker::Count {
                value: 0,
                status: birkhoff_checker::Status::Unknown,
            },
        })
        .collect();
    lib.put(Body::Spectrum(SpectrumRec {
        theory_id: rec.id.clone(),
        theory_name: rec.id.clone(),
        rows,
    }))
    .unwrap();
    let powers_of_two = |lib: &Library| {
        Paper::gather(lib, &rec.id)
            .unwrap()
            .patterns
            .iter()
            .any(|p| p.pattern == birkhoff_checker::Pattern::OnlyPowersOf { p: 2 })
    };
    assert!(powers_of_two(&lib), "the counts alone suggest it");
    // A loop of order 6 with x / y = y / x (found by `birkhoff find --size 6`), in which
    // x \ y = x * y; x / y is the z with z * y = x.
    let mul = [
        [0, 1, 2, 3, 4, 5],
        [1, 0, 3, 2, 5, 4],
        [2, 4, 0, 5, 1, 3],
        [3, 5, 4, 0, 2, 1],
        [4, 3, 5, 1, 0, 2],
        [5, 2, 1, 4, 3, 0],
    ];
    let rdiv = |x: usize, y: usize| (0..6).find(|&z| mul[z][y] == x as u32).unwrap();
    let theory = Theory::parse(LOOP, "t").unwrap();
    let six = Structure::from_fn(
        &theory.sig,
        &[6],
        |f, a| match f {
            "e" => 0,
            "/" => rdiv(a[0] as usize, a[1] as usize) as u32,
            _ => mul[a[0] as usize][a[1] as usize],
        },
        |_, _| false,
    );
    birkhoff_engine::eval::check(&theory, &six).expect("a model");
    lib.put(Body::Model(ModelRec {
        theory_id: rec.id.clone(),
        theory_name: rec.id.clone(),
        structure: six.to_json(&theory.sig),
    }))
    .unwrap();
    assert!(!powers_of_two(&lib), "refuted by the model of order 6");
}
