//! Every row of the ground-truth table parses as a LADR theory with the declared symbols.

use birkhoff_engine::parse::theory_from_ladr_row;
use birkhoff_engine::Theory;

fn rows() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/ground_truth.tsv"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("theory\t"))
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

#[test]
fn every_row_parses_and_round_trips() {
    let mut seen = std::collections::BTreeSet::new();
    for r in rows() {
        if !seen.insert(r[0].clone()) {
            continue;
        }
        let t = theory_from_ladr_row(&r[0], &r[7], &r[8], &r[9])
            .unwrap_or_else(|e| panic!("row {}: {e}", r[0]));
        let dots = r[9].matches(". ").count() + usize::from(r[9].trim_end().ends_with('.'));
        assert_eq!(
            t.axioms.len(),
            dots,
            "row {}: every formula becomes an axiom",
            r[0]
        );
        let text = t.to_text();
        let back = Theory::parse(&text, "printed").unwrap_or_else(|e| {
            panic!("row {} printed as\n{text}\ndoes not parse back: {e}", r[0])
        });
        assert_eq!(
            back, t,
            "row {}: printing and parsing back gives the same theory",
            r[0]
        );
        assert_eq!(back.fingerprint(), t.fingerprint());
    }
    assert_eq!(seen.len(), 27, "the table covers 27 theories");
}
