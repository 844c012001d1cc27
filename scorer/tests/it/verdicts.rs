//! The differential test of verdicts (issue 49): pairs of theories whose relation is known from
//! the literature (`tests/data/verdicts/pairs.yaml`, each with its reference) against the two
//! functions that say what a theory is, [`relate`] (`birkhoff equiv`) and [`standing`]
//! (`birkhoff identify`, the agent's novelty) on sides made by the one budget rule
//! ([`Side::for_comparison`]) with `equiv`'s default prover timeout.
//!
//! A wrong verdict is a bug: "same" for a pair the literature separates, or "different" for a
//! pair it proves the same class; so is "different" resting on a size below the one where the
//! literature says the counts first differ, and so are opposite verdicts of the two functions.
//! An unknown is honest. So is one function deciding a pair the other leaves unknown: the budgets
//! are wall-clock time, so on a loaded machine a proof or a count can fit once and not the other
//! time; both are recorded with the unknowns. The test prints every pair's verdicts and every
//! unknown's reason, and keeps their number bounded.

use birkhoff_checker::prover::equivalence::{relate, Invariant, Relation, Side};
use birkhoff_checker::prover::Options;
use birkhoff_engine::Theory;
use birkhoff_scorer::identify::{standing, Known, Reference, Standing};
use rayon::prelude::*;
use serde::Deserialize;
use std::path::PathBuf;
use std::time::Duration;

/// At most this many verdicts (two per pair) of the pairs CI runs may be unknown: 6 of 120 in
/// the run that set it (7 Dec, with existence statements proved through witnesses, which decided
/// lattices as bare orders: the least upper bound is `x v y`), each unknown saying where it
/// stopped: Sheffer's algebras (meet's associativity through the stroke), Robbins's (that
/// `x v n(x)` does not depend on `x`, which is the Robbins problem) and lattices as orders with
/// named operations (the join's associativity from the order axioms takes about the two
/// seconds). The counts are budgeted in search nodes, so they are the same on every run; only a
/// proof's time limit can make a pair unknown on a loaded machine, and two more are allowed for
/// that.
const MAX_UNKNOWN: usize = 8;

/// The same for the slow pairs: all 8 of their verdicts unknown on 7 Dec (Huntington against
/// Robbins, the Robbins problem; Sheffer's single axiom; C-loops against Moufang loops, neither
/// included in the other, whose counts first differ at order 10, beyond those counted; and
/// commutative Moufang loops by (xx)(yz) = (xy)(xz), whose `identify` verdict "same" was lost
/// when the definition search began to try a first candidate past its own deadline, e569b68;
/// 7 of 8 without that rule, twice). Here the test guards against wrong and opposite verdicts
/// only.
const MAX_UNKNOWN_SLOW: usize = 8;

/// One pair of `pairs.yaml`; the file's header says what each field means.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Pair {
    a: String,
    b: String,
    expect: Expect,
    family: Family,
    reference: String,
    through: Option<String>,
    differ_at: Option<u32>,
    separated: Option<String>,
    #[serde(default)]
    slow: bool,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
enum Expect {
    Same,
    Different,
}

/// The families issue 49 asks the pairs to cover.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
enum Family {
    AcrossSignatures,
    SameSignature,
    Mirror,
    AgreeSmall,
    DifferSmall,
}

/// What one function said about a pair.
#[derive(Clone, Debug)]
enum Verdict {
    Same,
    /// Different, with the size the invariant rests on when the function says it in a type
    /// (a standing says it in words).
    Different {
        at: Option<u32>,
    },
    Unknown {
        reason: String,
    },
}

impl Verdict {
    fn word(&self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Different { .. } => "different",
            Verdict::Unknown { .. } => "unknown",
        }
    }

    /// Whether the verdict contradicts the literature's answer.
    fn contradicts(&self, expect: Expect) -> bool {
        matches!(
            (self, expect),
            (Verdict::Same, Expect::Different) | (Verdict::Different { .. }, Expect::Same)
        )
    }
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/verdicts")
}

fn pairs() -> Vec<Pair> {
    let path = data_dir().join("pairs.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let pairs: Vec<Pair> =
        serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for p in &pairs {
        let name = format!("{} / {}", p.a, p.b);
        assert!(!p.reference.trim().is_empty(), "{name}: no reference");
        match p.expect {
            Expect::Same => assert!(
                p.through.is_some() && p.differ_at.is_none(),
                "{name}: a pair of one class says through what definitions, and differs nowhere"
            ),
            Expect::Different => assert!(
                p.separated.is_some() && p.through.is_none(),
                "{name}: a pair of two classes says what separates them (and where the counts first differ, if they do)"
            ),
        }
    }
    pairs
}

/// A seed or catalogue name, or a theory file of the data directory.
fn theory(name: &str) -> Theory {
    let path = data_dir().join(name);
    let arg = if name.ends_with(".bk") {
        path.to_str().unwrap()
    } else {
        name
    };
    Theory::load(arg).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `birkhoff equiv`'s prover options.
fn equiv_options() -> Options {
    Options::for_verdicts(Duration::from_secs(2), None)
}

/// The size a "different" rests on where the literature's `differ_at` (the least size at which
/// the numbers of models up to isomorphism differ) bounds it: where those numbers differ, or the
/// size of the model of the weaker theory that the stronger one excludes (which has more classes
/// there). Not for labeled models, whose numbers may differ at a smaller size.
fn invariant_size(invariant: &Invariant) -> Option<u32> {
    match invariant {
        Invariant::Spectrum { sizes, .. } => Some(sizes[0]),
        Invariant::Inclusion { witness, .. } | Invariant::Embedding { witness, .. } => {
            Some(witness.model.sizes[0])
        }
        Invariant::Labeled { .. } | Invariant::NoConstantTerm { .. } => None,
    }
}

fn of_relation(r: &Relation) -> Verdict {
    match r {
        r if r.same_class() => Verdict::Same,
        Relation::Different { invariant, .. } => Verdict::Different {
            at: invariant_size(invariant),
        },
        r => Verdict::Unknown {
            reason: r.describe(),
        },
    }
}

fn of_standing(s: &Standing) -> Verdict {
    match s {
        Standing::Known { .. } => Verdict::Same,
        // Against a reference holding `b` alone, "new" says that an invariant tells the two
        // apart.
        Standing::New { .. } => Verdict::Different { at: None },
        Standing::Unknown { reason, .. } => Verdict::Unknown {
            reason: reason.clone(),
        },
    }
}

/// Both functions' verdicts on one pair.
struct Judged {
    relation: Verdict,
    standing: Verdict,
}

fn judge(p: &Pair) -> Judged {
    let (a, b) = (theory(&p.a), theory(&p.b));
    let opts = equiv_options();
    let side_a = Side::for_comparison(&a, None).unwrap();
    let side_b = Side::for_comparison(&b, None).unwrap();
    let relation = of_relation(&relate(&side_a, &side_b, &opts).unwrap());
    let reference = Reference::new(
        vec![Known {
            name: p.b.clone(),
            kind: "catalogue",
            theory: b.clone(),
        }],
        None,
    );
    let standing = of_standing(&standing(&side_a, &reference, &opts).unwrap());
    Judged { relation, standing }
}

#[test]
fn equiv_and_identify_give_no_wrong_or_opposite_verdict_on_pairs_from_the_literature() {
    let pairs = pairs();
    assert!(pairs.len() >= 40, "issue 49 asks for 40 pairs at least");
    let quick: Vec<&Pair> = pairs.iter().filter(|p| !p.slow).collect();
    assert!(quick.len() >= 40, "CI runs 40 pairs at least");
    for family in [
        Family::AcrossSignatures,
        Family::SameSignature,
        Family::Mirror,
        Family::AgreeSmall,
        Family::DifferSmall,
    ] {
        assert!(
            quick.iter().any(|p| p.family == family),
            "CI runs no pair of the family {family:?}"
        );
    }
    check(&quick, MAX_UNKNOWN);
}

/// The pairs whose proofs or separations lie beyond the budget rule (`slow: true`): each function
/// spends its whole budget on them, minutes in all. Run with `--ignored`.
#[test]
#[ignore]
fn equiv_and_identify_give_no_wrong_or_opposite_verdict_on_the_slow_pairs() {
    let pairs = pairs();
    check(
        &pairs.iter().filter(|p| p.slow).collect::<Vec<_>>(),
        MAX_UNKNOWN_SLOW,
    );
}

/// Judges `pairs` in parallel and fails on a wrong verdict, on opposite verdicts of the two
/// functions, or on more than `max_unknown` unknown verdicts; prints every pair's verdicts and
/// every unknown's reason.
fn check(pairs: &[&Pair], max_unknown: usize) {
    let judged: Vec<Judged> = pairs.par_iter().map(|p| judge(p)).collect();
    let mut wrong = Vec::new();
    let mut unknown = Vec::new();
    println!("pair: expected, relate, standing");
    for (p, j) in pairs.iter().zip(&judged) {
        let name = format!("{} / {}", p.a, p.b);
        println!(
            "  {name}: {:?}, {}, {}",
            p.expect,
            j.relation.word(),
            j.standing.word()
        );
        for (function, v) in [("relate", &j.relation), ("standing", &j.standing)] {
            if v.contradicts(p.expect) {
                wrong.push(format!(
                    "{name}: {function} says {v:?}, the literature {:?} ({})",
                    p.expect, p.reference
                ));
            }
            if let Verdict::Different { at: Some(at) } = v {
                match p.differ_at {
                    Some(first) if *at < first => wrong.push(format!("{name}: {function} separates them at size {at}, where the literature says the counts agree (they first differ at {first}: {})", p.reference)),
                    None => wrong.push(format!("{name}: {function} separates them at size {at}, where the literature says the counts agree at every size ({})", p.reference)),
                    Some(_) => {}
                }
            }
        }
        // Opposite verdicts are a contradiction whatever the literature says. One verdict and
        // one unknown is what the wall-clock budgets allow (a proof or count found just in time
        // once and not the other time, on a loaded machine): recorded with the unknowns.
        let words = [j.relation.word(), j.standing.word()];
        if words.contains(&"same") && words.contains(&"different") {
            wrong.push(format!(
                "{name}: relate says {:?}, standing {:?}",
                j.relation, j.standing
            ));
        }
        for (function, v) in [("relate", &j.relation), ("standing", &j.standing)] {
            if let Verdict::Unknown { reason } = v {
                unknown.push(format!(
                    "{name} ({:?}, {:?}), {function}: {reason}",
                    p.expect, p.family
                ));
            }
        }
    }
    println!("{} unknown verdict(s):", unknown.len());
    for u in &unknown {
        println!("  {u}");
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
    // Without E, the proofs from its lane are unknowns: the bound is the one with E, checked
    // only where E is installed or required (`BIRKHOFF_REQUIRE_E=1`, set by `.ci/run`).
    let with_e = birkhoff_checker::prover::external::find_on_path("eprover").is_some();
    if !with_e && std::env::var("BIRKHOFF_REQUIRE_E").as_deref() != Ok("1") {
        eprintln!(
            "eprover is not installed: {} unknowns, the bound of {max_unknown} not checked; set \
             BIRKHOFF_REQUIRE_E=1 to make this a failure",
            unknown.len()
        );
        return;
    }
    assert!(with_e, "BIRKHOFF_REQUIRE_E=1 but eprover is not installed");
    assert!(
        unknown.len() <= max_unknown,
        "{} unknown verdicts, more than the {max_unknown} of the last run:\n{}",
        unknown.len(),
        unknown.join("\n")
    );
}

/// Left Bol loops are told apart from groups in the loop's symbols by an inclusion (a Bol loop
/// that is not associative), and from groups with an inverse either by the difference carried
/// over to the same class (groups with an inverse are groups as loops through definitions) or
/// directly, by the definitions that read every group as a Bol loop and back. Both have the
/// groups' numbers of models up to order 7.
#[test]
fn left_bol_loops_are_new_against_groups_in_either_signature() {
    let known = ["group", "group_as_loop"]
        .map(|n| Known {
            name: n.into(),
            kind: "catalogue",
            theory: theory(n),
        })
        .to_vec();
    let bol = theory("left_bol_loop");
    let side = Side::for_comparison(&bol, None).unwrap();
    let s = standing(&side, &Reference::new(known, None), &equiv_options()).unwrap();
    let Standing::New { reason } = &s else {
        panic!("a Bol loop of order 8 is not associative: {s:?}")
    };
    assert!(
        reason.contains("from group: shown the same class as group_as_loop")
            || reason.contains("from group: Group read through"),
        "{reason}"
    );
    assert!(reason.contains("from group_as_loop: "), "{reason}");
}

/// Exponent-3 groups and elementary abelian 3-groups have the same numbers of models below order
/// 27; the second is proved to imply the first, and the Heisenberg group modulo 3 (a named
/// structure of order 27, beyond the sizes searched) is an exponent-3 group that is not abelian:
/// different, by a strict inclusion at order 27 (under a renaming, or through the definitions
/// found from the small models, `inv(x) = x * x` both ways), where the literature says they
/// first differ.
#[test]
fn exponent_three_groups_are_told_from_elementary_abelian_ones_at_order_27() {
    let (a, b) = (
        theory("exponent_three_group"),
        theory("elementary_abelian_three_group"),
    );
    let (a, b) = (
        Side::for_comparison(&a, None).unwrap(),
        Side::for_comparison(&b, None).unwrap(),
    );
    let r = relate(&a, &b, &equiv_options()).unwrap();
    let Relation::Different { invariant, .. } = &r else {
        panic!("told apart at order 27: {r:?}")
    };
    let (Invariant::Inclusion { witness, .. } | Invariant::Embedding { witness, .. }) = invariant
    else {
        panic!("by a strict inclusion: {invariant:?}")
    };
    assert_eq!(witness.model.sizes, [27]);
    assert!(witness.axiom.starts_with("commutative"), "{witness:?}");
}
