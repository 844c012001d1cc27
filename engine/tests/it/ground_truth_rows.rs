//! Every row of the ground-truth table parses as a LADR theory with the declared symbols.

use birkhoff_engine::ground_truth::rows;
use birkhoff_engine::parse::theory_from_ladr_row;
use birkhoff_engine::Theory;

#[test]
fn every_row_parses_and_round_trips() {
    let mut seen = std::collections::BTreeSet::new();
    for r in rows() {
        if !seen.insert(r.theory.clone()) {
            continue;
        }
        let t = theory_from_ladr_row(&r.theory, &r.functions, &r.relations, &r.axioms)
            .unwrap_or_else(|e| panic!("row {}: {e}", r.theory));
        let dots = r.axioms.matches(". ").count() + usize::from(r.axioms.trim_end().ends_with('.'));
        assert_eq!(
            t.axioms.len(),
            dots,
            "row {}: every formula becomes an axiom",
            r.theory
        );
        let text = t.to_text();
        let back = Theory::parse(&text, "printed").unwrap_or_else(|e| {
            panic!(
                "row {} printed as\n{text}\ndoes not parse back: {e}",
                r.theory
            )
        });
        assert_eq!(
            back, t,
            "row {}: printing and parsing back gives the same theory",
            r.theory
        );
        assert_eq!(back.fingerprint(), t.fingerprint());
    }
    assert_eq!(seen.len(), 27, "the table covers 27 theories");
}
