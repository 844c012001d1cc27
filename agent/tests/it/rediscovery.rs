//! The rediscovery benchmark's measure: a hidden catalogue entry is out of identification and
//! novelty, so a run that generates it again can keep it, and the tally finds it.

use super::ScriptedPlan;
use birkhoff_agent::{
    rediscovery::{tally, Watch},
    Agent, Config, Silent, Toolbox,
};

/// Plans one exploration of magmas by COMPLETE (which adds a two-sided identity among other
/// laws); the offline strategist interprets.
const COMPLETE_MAGMAS: ScriptedPlan = ScriptedPlan(
    r#"{"strategy": "magmas completed", "explorations": [{"bases": ["magma"], "moves": ["COMPLETE"], "depth": 1}], "check_top": 8, "max_size": 3}"#,
);

/// Runs one cycle of [`COMPLETE_MAGMAS`] with `hidden` hidden and tallies `watched`; with
/// the cycle's analysis, which says what was kept and why.
fn run(hidden: &[&str], watched: &[&str]) -> (birkhoff_agent::rediscovery::Tally, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = birkhoff_library::Library::open(dir.path()).unwrap();
    let mut tools = Toolbox {
        per_size: std::time::Duration::from_secs(20),
        ..Toolbox::builtin()
    };
    let hidden: Vec<String> = hidden.iter().map(|s| s.to_string()).collect();
    tools.hide(&hidden).unwrap();
    let watch = Watch::new(&Silent);
    let agent = Agent {
        llm: &COMPLETE_MAGMAS,
        offline: false,
        tools,
        observer: &watch,
        interrupted: &|| false,
    };
    agent
        .run(
            &mut lib,
            &Config {
                goal: "study magmas".into(),
                cycles: 1,
                bases: vec![],
            },
        )
        .unwrap();
    let watched: Vec<String> = watched.iter().map(|s| s.to_string()).collect();
    let report: birkhoff_agent::report::CycleReport =
        serde_json::from_value(lib.report(1).unwrap()).unwrap();
    (
        tally(&watch, &lib, &watched, None).unwrap(),
        report.decisions.analysis,
    )
}

#[test]
fn a_hidden_entry_is_reached_and_kept_and_a_known_one_is_not_kept() {
    // Hidden: unital magmas are generated again, shown new and kept.
    let (t, why) = run(&["unital_magma"], &["unital_magma"]);
    let e = &t.entries[0];
    let reached = e
        .reached
        .as_ref()
        .expect("COMPLETE on magmas adds an identity");
    assert_eq!(reached.cycle, Some(1));
    assert!(e.kept.is_some(), "{t:?}\n{why}");
    assert_eq!((t.reached, t.kept, t.top), (1, 1, 1));
    // Not hidden: the same run identifies it as the catalogue's entry and keeps nothing
    // equivalent to it.
    let (t, why) = run(&[], &["unital_magma"]);
    assert!(
        t.entries[0].reached.is_some() && t.entries[0].kept.is_none(),
        "{t:?}\n{why}"
    );
}

#[test]
fn only_catalogue_entries_can_be_hidden() {
    let mut tools = Toolbox::builtin();
    assert!(tools
        .hide(&["group".into()])
        .unwrap_err()
        .contains("is a seed"));
    assert!(tools
        .hide(&["no_such_class".into()])
        .unwrap_err()
        .contains("not a catalogue entry"));
    assert!(tools.hide(&["boolean_group".into()]).is_ok());
}
