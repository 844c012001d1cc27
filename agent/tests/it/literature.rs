//! Novelty uses the literature: a discovery the literature knows (a confirmed reference, an OEIS
//! sequence) scores novelty 0 with the reason, and an unconfirmed reference never counts nor
//! reaches the report.

use birkhoff_agent::engines::TenDimensions;
use birkhoff_agent::report::LiteratureNote;
use birkhoff_agent::situation::Candidate;
use birkhoff_agent::tools::{Scorer, Toolbox};
use birkhoff_engine::{seeds, Theory};
use birkhoff_literature::{Origin, Outcome, Paper, Reference, Status};

fn reference(number: &str, title: &str, status: Status) -> Reference {
    Reference { number: number.into(), paper: Paper::new(title, vec!["Ann Author".into()], Some(2001), Origin::Llm), status, found_by: "proposed".into() }
}

/// A search that confirmed one reference and not another, with no OEIS match.
fn outcome(confirmed: bool) -> Outcome {
    let confirmed = if confirmed { vec![reference("REF-001", "Cube loops", Status::Confirmed { verified: 1, endpoint: "http://127.0.0.1/arxiv".into() })] } else { vec![] };
    let unconfirmed = vec![reference("UREF-001", "The Invented Theory of Cube Loops", Status::Unconfirmed { reason: "no entry for id 2399.99999".into() })];
    Outcome { subject: "s".into(), literature_md: "LITERATURE.md".into(), sources: vec![], confirmed, unconfirmed, this_run: vec![], oeis: vec![], oeis_misses: vec![], searched: true }
}

#[test]
fn only_confirmed_references_make_a_theory_known_or_reach_the_report() {
    let note = LiteratureNote::of(&outcome(true));
    assert_eq!(note.known_because().as_deref(), Some("REF-001 Cube loops (2001)"));
    let only_invented = LiteratureNote::of(&outcome(false));
    assert_eq!(only_invented.known_because(), None, "an unconfirmed reference never counts");
    for n in [&note, &only_invented] {
        assert!(!n.line().contains("Invented") && !n.line().contains("UREF"), "{}", n.line());
    }
    assert!(only_invented.line().contains("not found in the literature"), "{}", only_invented.line());
}

#[test]
fn a_theory_known_in_the_literature_has_novelty_0() {
    // Loops of left exponent 3: not in the catalogue, so its spectrum is new.
    let t = Theory::parse(&format!("{}\naxiom cube: x * (x * x) = e", seeds::load("loop").unwrap().to_text()), "cube.bk").unwrap();
    let mut c = Candidate::new("CubeLoop".into(), t, "COMPLETE".into(), vec![]);
    Toolbox::builtin().check_models(&mut c, 5).unwrap();
    let novelty = |c: &Candidate| TenDimensions::default().score(c, &[]).unwrap().dims["novelty"];
    assert!(novelty(&c) > 0.0);
    c.in_literature = LiteratureNote::of(&outcome(true)).known_because();
    assert_eq!(novelty(&c), 0.0);
}
