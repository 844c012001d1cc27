//! The offline strategist makes real, explained choices from the situation, and its replies
//! always pass the same validation as a model's.

use birkhoff_agent::llm::{Llm, Phase, Request};
use birkhoff_agent::offline::{decide, plan, Offline};
use birkhoff_agent::schema::{parse_decisions, parse_plan, Vocabulary};
use birkhoff_agent::situation::{Base, Candidate, Memory, OpenConjecture, Situation};
use birkhoff_agent::tools::Toolbox;
use birkhoff_engine::seeds;

fn situation(goal: &str) -> Situation {
    let bases = seeds::all().iter().map(|s| Base { name: s.name.to_string(), theory: seeds::load(s.name).unwrap(), spectrum: None, score: None, discovery: false }).collect();
    Situation { goal: goal.into(), preferred: vec![], run_index: 1, run_of: 3, bases, moves: vec![], tools: Toolbox::builtin().status(), history: vec![], open_conjectures: vec![], plan: None, generated: 0, candidates: vec![], settled: vec![], found_in_library: vec![] }
}

fn checked(name: &str, seed: &str, origin: &str) -> Candidate {
    let mut c = Candidate { name: name.into(), theory: seeds::load(seed).unwrap(), origin: origin.into(), parents: vec![seed.into()], score: None, spectrum: vec![], models: vec![], checked: false };
    Toolbox::builtin().check_models(&mut c, 5).unwrap();
    c
}

#[test]
fn plans_follow_the_goal_flags_and_history() {
    let s = situation("structures near lattices");
    let p = plan(&s);
    assert_eq!(p.explorations[0].bases, ["lattice"]);
    assert!(p.strategy.contains("the goal names: lattice"), "{}", p.strategy);
    // Already explored: the next cycle moves on to a related structure.
    let mut s2 = situation("structures near lattices");
    s2.history.push(Memory { cycle: 1, bases: vec!["lattice".into()], ..Default::default() });
    let p2 = plan(&s2);
    assert_ne!(p2.explorations[0].bases, ["lattice"]);
    // --base wins over the goal.
    let mut s3 = situation("structures near lattices");
    s3.preferred = vec!["rack".into()];
    assert_eq!(plan(&s3).explorations[0].bases, ["rack"]);
    // With a discovery, an even cycle exploits it at a larger size.
    let mut s4 = situation("find novel variants");
    s4.run_index = 2;
    s4.bases.push(Base { name: "Found".into(), theory: seeds::load("band").unwrap(), spectrum: None, score: None, discovery: true });
    let p4 = plan(&s4);
    assert_eq!(p4.explorations[0].bases, ["Found"]);
    assert_eq!(p4.max_size, 6);
    assert!(p4.strategy.contains("exploit"));
    // Open conjectures about bases are retested.
    let mut s5 = situation("groups");
    s5.open_conjectures.push(OpenConjecture { theory: "moufang_loop".into(), statement: "x * y = y * x".into(), evidence: "no countermodel up to size 5".into() });
    assert_eq!(plan(&s5).prove.len(), 1);
}

#[test]
fn decisions_keep_new_structures_and_conjecture_what_small_models_show() {
    let mut s = situation("loops");
    let mut idem = checked("Idem_z", "magma", "ADD(idempotent)");
    idem.theory = birkhoff_engine::Theory::parse("theory IdemMagma\nfunc * : 2\naxiom idem: x * x = x", "t.bk").unwrap();
    Toolbox::builtin().check_models(&mut idem, 3).unwrap();
    s.candidates = vec![checked("moufang_loop", "moufang_loop", "base"), checked("Band_x", "band", "DROP(comm)"), checked("Group_y", "group", "TEST"), idem];
    let d = decide(&s);
    // The one new theory with models above size 1 is kept, under a valid new name.
    assert_eq!(d.keep.len(), 1, "{:?}", d.keep);
    assert_eq!(d.keep[0].candidate, "Idem_z");
    assert!(birkhoff_agent::schema::valid_name(&d.keep[0].name));
    // Base structures (and theories equal to a base) are never kept as discoveries.
    assert!(d.keep.iter().all(|k| k.candidate != "moufang_loop" && k.candidate != "Group_y" && k.candidate != "Band_x"), "{:?}", d.keep);
    // Moufang loops up to size 5 are all commutative and associative (the first non-commutative
    // one has 6 elements): both are conjectured, commutativity of groups is not an axiom either.
    let statements: Vec<String> = d.conjectures.iter().map(|c| format!("[{}] {}", c.theory, c.statement)).collect();
    assert!(statements.iter().any(|c| c.starts_with("[moufang_loop]") && c.contains("(y * x)")), "{statements:?}");
    assert!(d.analysis.contains("no scores are available"));
}

#[test]
fn offline_replies_pass_validation() {
    let mut s = situation("explore broadly");
    s.candidates = vec![checked("moufang_loop", "moufang_loop", "base")];
    let (b, c) = (s.base_names(), s.candidate_names());
    let statement = |theory: &str, text: &str| s.check_statement(theory, text);
    let v = Vocabulary { bases: &b, moves: &s.moves, candidates: &c, statement: &statement };
    for phase in [Phase::Plan, Phase::Interpret] {
        let text = Offline.ask(&Request { phase, system: "", prompt: "", situation: &s }).unwrap();
        match phase {
            Phase::Plan => assert!(parse_plan(&text, &v).is_ok(), "{text}"),
            Phase::Interpret => assert!(parse_decisions(&text, &v).is_ok(), "{text}"),
        }
    }
}
