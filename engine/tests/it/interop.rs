//! TPTP and LADR, out and back: every seed and catalogue entry exported, imported, and compared
//! with the original up to renaming (exact canonical forms; [`interop::normalize`] first, since
//! TPTP closes every formula and LADR gives each variable its own quantifier). The importer's
//! errors are located.

use birkhoff_engine::canon::equal_up_to_renaming;
use birkhoff_engine::interop::{self, Format, Target};
use birkhoff_engine::{catalogue, Theory};

fn round_trip(t: &Theory, to: Target) -> Result<(), String> {
    let text = interop::export(t, None, to).map_err(|e| e.to_string())?;
    let back = interop::import(&text, "exported").map_err(|e| format!("{e}\n--- exported text ---\n{text}"))?;
    let want = match to {
        Target::Tptp => Format::Tptp,
        Target::Ladr => Format::Ladr,
    };
    assert_eq!(back.format, want, "{}", t.name);
    assert!(back.conjectures.is_empty());
    let original = interop::normalize(t);
    match equal_up_to_renaming(&original, &back.theory) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!("differs after the round trip:\n{}\n--- exported ---\n{text}\n--- imported ---\n{}", original.to_text(), back.theory.to_text())),
        // Too symmetric for canonical forms: fall back to a literal comparison after renaming
        // by position, which the writers and readers preserve (declaration order, axiom order).
        Err(e) => Err(format!("{}: {e}", t.name)),
    }
}

#[test]
fn every_seed_and_catalogue_entry_survives_tptp() {
    let mut failures = Vec::new();
    for e in catalogue::all() {
        let t = e.theory().unwrap();
        if let Err(why) = round_trip(&t, Target::Tptp) {
            failures.push(format!("{}: {why}", e.name));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn every_single_sorted_seed_and_catalogue_entry_survives_ladr() {
    let mut failures = Vec::new();
    let mut many_sorted = 0;
    for e in catalogue::all() {
        let t = e.theory().unwrap();
        if !t.sig.is_single_sorted() {
            let err = interop::export(&t, None, Target::Ladr).unwrap_err().to_string();
            assert!(err.contains("LADR has one sort"), "{err}");
            many_sorted += 1;
            continue;
        }
        if let Err(why) = round_trip(&t, Target::Ladr) {
            failures.push(format!("{}: {why}", e.name));
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
    assert!(many_sorted >= 3, "the seeds have several many-sorted theories");
}
