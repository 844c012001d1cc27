//! Offline OEIS recognition: the data file against the audited ground truth, and matching
//! (shifts, the five non-trivial terms, exact counts only, labeled against labeled).

use crate::common::ground_truth;
use birkhoff_checker::{
    oeis::{self, Counts},
    Count, SpectrumRow, Status,
};
use birkhoff_engine::seeds;
use std::collections::{BTreeMap, BTreeSet};

fn row(n: u32, iso: Count, labeled: Count) -> SpectrumRow {
    SpectrumRow {
        sizes: vec![n],
        iso,
        labeled,
    }
}

fn exact(v: u128) -> Count {
    Count {
        value: v,
        status: Status::Exact,
    }
}

const UNKNOWN: Count = Count {
    value: 0,
    status: Status::Unknown,
};

/// A spectrum with these exact iso counts at orders 1, 2, ... and no labeled counts.
fn iso_spectrum(counts: &[u128]) -> Vec<SpectrumRow> {
    counts
        .iter()
        .enumerate()
        .map(|(i, &v)| row(i as u32 + 1, exact(v), UNKNOWN))
        .collect()
}

/// The ground truth's iso counts of one theory, orders 1, 2, ... while they are known.
fn truth(theory: &str) -> Vec<u128> {
    let mut rows: Vec<(u32, u128)> = ground_truth()
        .into_iter()
        .filter(|r| r.theory == theory)
        .filter_map(|r| r.iso.map(|v| (r.n, v)))
        .collect();
    rows.sort();
    rows.iter()
        .enumerate()
        .take_while(|(i, (n, _))| *n == *i as u32 + 1)
        .map(|(_, (_, v))| *v)
        .collect()
}

#[test]
fn the_data_file_parses_and_is_large_enough() {
    let seqs = oeis::parse(oeis::DATA).unwrap();
    let ids: BTreeSet<&str> = seqs.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids.len(), seqs.len(), "an A-number appears twice");
    assert!(
        seqs.len() >= 300,
        "{} sequences; the issue asks for at least 300",
        seqs.len()
    );
    for s in &seqs {
        assert!(s.terms.len() >= 5, "{}: fewer than five terms", s.id);
    }
}

#[test]
fn parse_errors_name_the_line() {
    let err = oeis::parse("# comment\nA000001\tGroups\t0\tunlabeled\t0,1,x\n").unwrap_err();
    assert!(err.contains(":2:") && err.contains("`x`"), "{err}");
    let err = oeis::parse("A01\tx\t0\tunlabeled\t1\n").unwrap_err();
    assert!(err.contains(":1:") && err.contains("A-number"), "{err}");
    let err = oeis::parse("A000001\tx\t0\tiso\t1\n").unwrap_err();
    assert!(err.contains("unlabeled"), "{err}");
    let err = oeis::parse("A000001\tx\t0\n").unwrap_err();
    assert!(err.contains("5 tab-separated"), "{err}");
}

/// Every ground-truth row whose sequence is in the data file agrees with it: the file's terms
/// are cross-checked against counts reproduced independently (tests/data/ground_truth.tsv). The
/// shift is the one stated by the seed that claims the row.
#[test]
fn the_data_file_agrees_with_the_ground_truth() {
    let mut shift: BTreeMap<String, i64> = BTreeMap::new();
    for s in seeds::all() {
        let t = seeds::load(s.name).unwrap();
        let k = t.meta.get("oeis_shift").map_or(0, |v| v.parse().unwrap());
        for r in t
            .meta
            .get("ground_truth")
            .map(|g| {
                g.split(',')
                    .map(|x| x.trim().to_string())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
        {
            shift.insert(r, k);
        }
    }
    let mut compared = 0;
    for r in ground_truth() {
        // The column starts with the A-number, sometimes followed by a remark.
        let id = r.oeis_iso.get(..7).unwrap_or("");
        let (Some(iso), Some(seq)) = (r.iso, oeis::get(id)) else {
            continue;
        };
        let i = i64::from(r.n) + shift.get(&r.theory).copied().unwrap_or(0);
        if let Some(t) = seq.term(i) {
            assert_eq!(
                t, iso,
                "{} n={}: {} has {t} at index {i}, the ground truth {iso}",
                r.theory, r.n, seq.id
            );
            compared += 1;
        }
    }
    assert!(
        compared >= 150,
        "only {compared} ground-truth terms compared"
    );
}

#[test]
fn groups_lattices_and_semilattices_are_recognised_with_their_shifts() {
    let groups = iso_spectrum(&truth("group"));
    assert!(groups.len() >= 12);
    let m = oeis::recognise(&groups);
    assert!(
        m.iter()
            .any(|m| m.id == "A000001" && m.shift == 0 && m.counts == Counts::Unlabeled),
        "{m:?}"
    );
    assert!(
        !m.iter().any(|m| m.id == "A000688"),
        "abelian groups differ at order 6: {m:?}"
    );

    let lattices = oeis::recognise(&iso_spectrum(&truth("lattice")));
    assert!(
        lattices.iter().any(|m| m.id == "A006966" && m.shift == 0),
        "{lattices:?}"
    );
    let semilattices = oeis::recognise(&iso_spectrum(&truth("semilattice")));
    let hit = semilattices
        .iter()
        .find(|m| m.id == "A006966")
        .unwrap_or_else(|| panic!("{semilattices:?}"));
    assert_eq!(
        hit.shift, 1,
        "semilattices of order n are lattices of order n + 1"
    );
    assert!(hit.describe().contains("a(n+1)"), "{}", hit.describe());
}

#[test]
fn one_wrong_exact_term_rules_a_match_out() {
    let mut counts = truth("group");
    counts[7] = 4; // five groups of order 8, not four
    assert!(!oeis::recognise(&iso_spectrum(&counts))
        .iter()
        .any(|m| m.id == "A000001"));
}

#[test]
fn fewer_than_five_nontrivial_terms_name_nothing() {
    // Groups of orders 1..=8 have four terms of 2 or more: 2, 2, 5 ... and 1s.
    let counts = truth("group");
    let few = iso_spectrum(&counts[..8]);
    assert!(oeis::recognise(&few).iter().all(|m| m.id != "A000001"));
    let enough = iso_spectrum(&counts[..10]);
    assert!(oeis::recognise(&enough).iter().any(|m| m.id == "A000001"));
}

#[test]
fn lower_bounds_are_not_exact_terms() {
    let counts = truth("group");
    let mut rows = iso_spectrum(&counts[..12]);
    // A count cut short below the truth says nothing against the match...
    rows.push(row(
        13,
        Count {
            value: 0,
            status: Status::Unknown,
        },
        UNKNOWN,
    ));
    rows.push(row(
        16,
        Count {
            value: 10,
            status: Status::AtLeast,
        },
        UNKNOWN,
    ));
    assert!(oeis::recognise(&rows)
        .iter()
        .any(|m| m.id == "A000001" && !m.orders.contains(&16)));
    // ...but a lower bound above the term rules it out.
    rows.push(row(
        14,
        Count {
            value: 3,
            status: Status::AtLeast,
        },
        UNKNOWN,
    ));
    assert!(!oeis::recognise(&rows).iter().any(|m| m.id == "A000001"));
}

#[test]
fn labeled_counts_are_matched_with_labeled_sequences_only() {
    // Equivalence relations: iso counts are the partition numbers, labeled counts the Bell numbers.
    let rows: Vec<SpectrumRow> = ground_truth()
        .into_iter()
        .filter(|r| r.theory == "equivalence")
        .map(|r| row(r.n, exact(r.iso.unwrap()), r.labeled.map_or(UNKNOWN, exact)))
        .collect();
    let m = oeis::recognise(&rows);
    assert!(
        m.iter()
            .any(|m| m.id == "A000041" && m.counts == Counts::Unlabeled && m.shift == 0),
        "{m:?}"
    );
    assert!(
        m.iter()
            .any(|m| m.id == "A000110" && m.counts == Counts::Labeled && m.shift == 0),
        "{m:?}"
    );
    // The Bell numbers are labeled counts: iso counts equal to them are not reported as a match.
    let bell = iso_spectrum(&[1, 2, 5, 15, 52, 203, 877]);
    assert!(!oeis::recognise(&bell).iter().any(|m| m.id == "A000110"));
}
