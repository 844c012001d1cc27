//! ACT studies what each new discovery's models are made of (issue 51): the structure statements
//! true in every small model are stored as the discovery's conjectures, each settled by the
//! prover, the cycle report says what was proved and which structure theorems follow, and the
//! statements left open are retested by the next cycle like every open conjecture.

use birkhoff_agent::{
    offline::Offline, report, report::CycleReport, Agent, Config, Explorer, Generated, Silent,
    Toolbox,
};
use birkhoff_engine::Theory;
use birkhoff_library::record::{Body, ConjectureStatus};
use birkhoff_library::settle::STRUCTURE;

/// Generates one candidate: semigroups in which all squares are equal (x * x = y * y), the
/// README's first discovery, whose structure theorem issue 51 states: x ↦ x * x * x is a
/// retraction onto a Boolean group, and the semigroup is an ideal extension of it.
struct SquaresEqual;

impl Explorer for SquaresEqual {
    fn moves(&self) -> Vec<String> {
        vec!["ADD".into()]
    }

    fn explore(&self, _: &[&Theory], _: &[String], _: u32) -> Result<Vec<Generated>, String> {
        let theory = Theory::parse(
            "theory SquaresEqual\nfunc * : 2\naxiom assoc: (x * y) * z = x * (y * z)\naxiom squares: x * x = y * y\n",
            "squares.bk",
        )
        .map_err(|e| e.to_string())?;
        Ok(vec![Generated {
            name: "SquaresEqual".into(),
            theory,
            origin: "ADD(squares)".into(),
            parents: vec!["semigroup".into()],
        }])
    }
}

fn agent() -> Agent<'static> {
    Agent {
        llm: &Offline,
        offline: true,
        tools: Toolbox {
            explorer: Box::new(SquaresEqual),
            // Counted without the 40 ms per size, which a loaded machine can cut short.
            per_size: std::time::Duration::from_secs(5),
            ..Toolbox::builtin()
        },
        observer: &Silent,
        interrupted: &|| false,
    }
}

fn run(agent: &Agent, lib: &mut birkhoff_library::Library, cycles: u32) {
    agent
        .run(
            lib,
            &Config {
                goal: "semigroups".into(),
                cycles,
                bases: vec![],
            },
        )
        .unwrap();
}

#[test]
fn a_new_discovery_has_its_structure_studied_proved_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = birkhoff_library::Library::open(dir.path()).unwrap();
    run(&agent(), &mut lib, 1);

    let first: CycleReport = serde_json::from_value(lib.report(1).unwrap()).unwrap();
    assert_eq!(first.discoveries.len(), 1, "{}", first.decisions.analysis);
    let d = &first.discoveries[0];
    let note = d
        .structure
        .as_ref()
        .expect("the discovery's structure was studied");
    assert_eq!(note.max_size, 4);
    assert!(note.proved >= 3, "{note:?}");
    // The proved statements read together give issue 51's theorem.
    assert!(
        note.theorems
            .iter()
            .any(|t| t.contains("Boolean group") && t.contains("ideal extension")),
        "{note:?}"
    );

    // Every statement counted is a conjecture of the discovery in the library, with the fate
    // the report gives it, and each proved one has its proof record.
    let stored: Vec<_> = lib
        .list("conjecture")
        .unwrap()
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Conjecture(c) if c.proposed_by == STRUCTURE && c.theory_id == d.id => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(stored.len(), note.proved + note.refuted + note.open);
    let proved: Vec<_> = stored
        .iter()
        .filter(|c| c.status == ConjectureStatus::Proved)
        .cloned()
        .collect();
    assert_eq!(proved.len(), note.proved);
    assert!(proved
        .iter()
        .all(|c| c.proof.as_ref().is_some_and(|p| lib.get(p).is_ok())));
    // It is placed among the classes with its symbols: strictly inside semigroups (compared
    // first: they share its associative law and have no other), the record stored with its
    // evidence.
    let placement = d.placement.as_ref().expect("the discovery was placed");
    let Body::Placement(stored_placement) = lib.get(&placement.id).unwrap().body else {
        panic!("{} is not a placement", placement.id)
    };
    assert_eq!(stored_placement.theory_id, d.id);
    assert!(
        stored_placement
            .neighbours
            .iter()
            .any(|n| n.name == "semigroup" && n.above()),
        "{placement:?}"
    );
    assert!(
        placement.above >= 1 && !placement.inside.is_empty(),
        "{placement:?}"
    );

    // The certificates replay and the countermodels are models: the library checks out.
    let backtest = birkhoff_library::backtest::run(&lib).unwrap();
    assert!(backtest.failures.is_empty(), "{:#?}", backtest.failures);
    assert_eq!(backtest.checked.get("placement"), Some(&1));

    // A later cycle's retest of a structure statement keeps its meaning and its proposer.
    let retested = &proved[0];
    let theory = Theory::parse(
        &match lib.get(&d.id).unwrap().body {
            Body::Theory(t) => t.text,
            other => panic!("{other:?}"),
        },
        &d.name,
    )
    .unwrap();
    agent()
        .tools
        .prove(
            &mut lib,
            &d.name,
            &theory,
            &d.id,
            &retested.statement,
            "offline",
            5,
        )
        .unwrap();
    let again = lib
        .list("conjecture")
        .unwrap()
        .into_iter()
        .find_map(|r| match r.body {
            Body::Conjecture(c) if c.statement == retested.statement && c.theory_id == d.id => {
                Some(c)
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(again.proposed_by, STRUCTURE);
    assert_eq!(again.claim, retested.claim);

    // The report a reader opens says it, and the call is in the tool log.
    let md = report::markdown(&first);
    assert!(md.contains("Structure: "), "{md}");
    assert!(md.contains("- Theorem: "), "{md}");
    assert!(md.contains("Placement (plc"), "{md}");
    assert!(first
        .tool_calls
        .iter()
        .any(|c| c.tool == "study_structure" && c.ok));
    assert!(first
        .tool_calls
        .iter()
        .any(|c| c.tool == "place_discovery" && c.ok));
}
