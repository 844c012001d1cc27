//! `birkhoff structure` (issue 51): the table of a variety, per size, from the command line.

use crate::birkhoff_command;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = birkhoff_command().args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// Boolean algebras: one subdirectly irreducible model, the two-element one, which is simple;
/// the algebras of order 4 and 8 are products of it. `--json` says so per size and shows the SI
/// model with its congruences; the text table says the same.
#[test]
fn boolean_algebras_have_one_subdirectly_irreducible_model() {
    let (code, out, err) = run(&["--json", "structure", "boolean_algebra", "--max-size", "8"]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["complete"], true);
    let sizes = v["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 8);
    for s in sizes {
        let (n, summary) = (s["size"].as_u64().unwrap(), &s["summary"]);
        let si = u64::from(n == 2);
        assert_eq!(summary["subdirectly_irreducible"], si, "{s}");
        assert_eq!(summary["simple"], si, "{s}");
        assert_eq!(s["shown"].as_array().unwrap().len() as u64, si, "{s}");
    }
    let two = &sizes[1]["shown"][0]["anatomy"];
    assert_eq!(two["congruences"].as_array().unwrap().len(), 2, "{two}");
    assert_eq!(
        two["irreducibility"]["monolith"],
        serde_json::json!([[0, 1]])
    );
    let eight = &sizes[7];
    assert_eq!(eight["summary"]["analysed"], 1);
    let (code, text, _) = run(&[
        "structure",
        "boolean_algebra",
        "--max-size",
        "8",
        "--all-models",
    ]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("a product of indecomposables of sizes 2 × 2 × 2"),
        "{text}"
    );
    assert!(text.contains("simple; 2 congruences"), "{text}");
}

/// A sample is said to be one, and the command then exits 1 (an incomplete answer); a theory
/// with relations is refused before any search, naming the relation (exit 2).
#[test]
fn samples_and_relations_are_named() {
    let (code, out, _) = run(&[
        "structure",
        "semigroup",
        "--min-size",
        "3",
        "--max-size",
        "3",
        "--sample",
        "5",
    ]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("size 3: 5 of 24 models analysed"), "{out}");
    let (code, _, err) = run(&["structure", "poset", "--max-size", "3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("relation") && err.contains("algebras"),
        "{err}"
    );
}

/// A quasigroup operation's multiplication and inner mapping groups, as GAP's LOOPS reports
/// them: the groups of order 6 are Z6 (|Mlt| = 6, Inn trivial) and S3 (|Mlt| = 36 = 6²/|Z|,
/// |Inn| = 6, the inner automorphisms), both automorphic; in the text and in `--json`.
#[test]
fn groups_show_their_multiplication_groups() {
    let args = [
        "structure",
        "group",
        "--min-size",
        "6",
        "--max-size",
        "6",
        "--all-models",
        "--no-statements",
    ];
    let (code, text, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    for orders in ["|Mlt| = 6, |Inn| = 1", "|Mlt| = 36, |Inn| = 6"] {
        assert!(
            text.contains(&format!("{orders} (every inner mapping an automorphism)")),
            "{orders}: {text}"
        );
    }
    let (code, out, err) = run(&[&["--json"], &args[..]].concat());
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut orders: Vec<u64> = v["sizes"][0]["shown"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["anatomy"]["binary"][0]["translations"]["multiplication_group"]
                .as_u64()
                .unwrap()
        })
        .collect();
    orders.sort_unstable();
    assert_eq!(orders, [6, 36]);
}
