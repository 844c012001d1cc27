//! TPTP and LADR, out and back: every seed and catalogue entry exported, imported, and compared
//! with the original up to renaming (exact canonical forms; [`interop::normalize`] first, since
//! TPTP closes every formula and LADR gives each variable its own quantifier). The importer's
//! errors are located.

use birkhoff_engine::canon::equal_up_to_renaming;
use birkhoff_engine::interop::{self, Format, Target};
use birkhoff_engine::{catalogue, Theory};

fn round_trip(t: &Theory, to: Target) -> Result<(), String> {
    let text = interop::export(t, None, to).map_err(|e| e.to_string())?;
    let back = interop::import(&text, "exported")
        .map_err(|e| format!("{e}\n--- exported text ---\n{text}"))?;
    let want = match to {
        Target::Tptp => Format::Tptp,
        Target::Ladr => Format::Ladr,
    };
    assert_eq!(back.format, want, "{}", t.name);
    assert!(back.conjectures.is_empty());
    let original = interop::normalize(t);
    match equal_up_to_renaming(&original, &back.theory) {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "differs after the round trip:\n{}\n--- exported ---\n{text}\n--- imported ---\n{}",
            original.to_text(),
            back.theory.to_text()
        )),
        // Too symmetric for canonical forms: fall back to a literal comparison after renaming
        // by position, which the writers and readers preserve (declaration order, axiom order).
        Err(e) => Err(format!("{}: {e}", t.name)),
    }
}

/// Unused symbols whose names have the same ASCII word (`!` and `~~` are both `op`) get
/// declarations named apart, also from an axiom already called `declare_op` (the random round
/// trip found two formulas labelled `declare_op`).
#[test]
fn declarations_of_unused_symbols_are_named_apart() {
    let t = Theory::parse("theory Gen\nfunc ! : 1\nrel ~~ : 2 infix none 1\nfunc ** : 2\nfunc f : 2\naxiom declare_op: f(x, y) = f(y, x)\n", "t.bk").unwrap();
    for to in [Target::Tptp, Target::Ladr] {
        round_trip(&t, to).unwrap();
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
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn every_single_sorted_seed_and_catalogue_entry_survives_ladr() {
    let mut failures = Vec::new();
    let mut many_sorted = 0;
    for e in catalogue::all() {
        let t = e.theory().unwrap();
        if !t.sig.is_single_sorted() {
            let err = interop::export(&t, None, Target::Ladr)
                .unwrap_err()
                .to_string();
            assert!(err.contains("LADR has one sort"), "{err}");
            many_sorted += 1;
            continue;
        }
        if let Err(why) = round_trip(&t, Target::Ladr) {
            failures.push(format!("{}: {why}", e.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        many_sorted >= 3,
        "the seeds have several many-sorted theories"
    );
}

/// GAP's nested lists of numbers, read back by a reader of its own: `[ [ 1, 2 ], [ 2, 1 ] ]`.
fn gap_rows(text: &str, field: &str) -> Vec<Vec<u32>> {
    let start = text
        .find(&format!("{field} := ["))
        .unwrap_or_else(|| panic!("no {field} in {text}"))
        + field.len()
        + 4;
    let end = start
        + text[start..]
            .find("],\n")
            .or_else(|| text[start..].find("]\n"))
            .unwrap()
        + 1;
    text[start..end]
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split("],")
        .map(|row| {
            row.replace(['[', ']'], "")
                .split(',')
                .map(|v| v.trim().parse().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn gap_tables_put_a_loops_identity_first_as_loops_requires() {
    use birkhoff_engine::{eval, seeds, tables, Structure};
    let group = seeds::load("group").unwrap();
    // Z_3 with the identity at 2: x * y = x + y + 1 (mod 3), inv(x) = 1 - x (mod 3).
    let z3 = Structure::from_fn(
        &group.sig,
        &[3],
        |f, a| match f {
            "*" => (a[0] + a[1] + 1) % 3,
            "inv" => (4 - a[0]) % 3,
            _ => 2,
        },
        |_, _| false,
    );
    eval::check(&group, &z3).unwrap();
    let text = tables::to_gap(&group.sig, &z3, 7);
    assert!(text.contains("M7 := rec("), "{text}");
    assert!(text.contains("e := 1"), "the identity is element 1: {text}");
    let mult = gap_rows(&text, "mult");
    // LOOPS' IsLoopTable: the first row and the first column read 1, 2, 3 in order.
    assert_eq!(mult[0], vec![1, 2, 3], "{text}");
    assert_eq!(
        mult.iter().map(|r| r[0]).collect::<Vec<_>>(),
        vec![1, 2, 3],
        "{text}"
    );
    // Read back as a structure (element k is Birkhoff's k - 1 after the stated swap of 0 and 2),
    // it is the same model.
    let back = |k: u32| [2, 1, 0][(k - 1) as usize];
    for x in 0..3u32 {
        for y in 0..3u32 {
            let (gx, gy) = ([2, 1, 0][x as usize] + 1, [2, 1, 0][y as usize] + 1);
            assert_eq!(
                back(mult[(gx - 1) as usize][(gy - 1) as usize]),
                z3.apply(&group.sig, group.sig.func("*").unwrap(), &[x, y])
            );
        }
    }
}

/// cvc5's TPTP parser, independent of Birkhoff's, accepts the export of every seed and catalogue
/// entry (FOF and TFF). Skipped, with a note, where cvc5 is not installed.
#[test]
fn cvc5_parses_every_exported_problem() {
    let found = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("cvc5"))
            .find(|p| p.is_file())
    });
    let Some(cvc5) = found else {
        eprintln!("cvc5 is not installed: skipped");
        return;
    };
    let dir = std::env::temp_dir().join(format!("birkhoff-cvc5-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for e in catalogue::all() {
        let t = e.theory().unwrap();
        let path = dir.join(format!("{}.p", e.name));
        std::fs::write(&path, interop::export(&t, None, Target::Tptp).unwrap()).unwrap();
        let out = std::process::Command::new(&cvc5)
            .args(["--parse-only", "--lang=tptp"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: cvc5 rejects the export:\n{}{}",
            e.name,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
