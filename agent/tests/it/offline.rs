//! The offline strategist makes real, explained choices from the situation, and its replies
//! always pass the same validation as a model's. A candidate with its parent's models is not
//! kept, and the report says why.

use super::ScriptedPlan;
use birkhoff_agent::{
    no_new_models,
    offline::{decide, plan, Offline},
    parse_decisions, parse_plan,
    report::CycleReport,
    Agent, Base, Breadth, Candidate, Config, Llm, Memory, OpenConjecture, Phase, Request, Silent,
    Situation, Toolbox, Vocabulary,
};
use birkhoff_engine::seeds;

fn situation(goal: &str) -> Situation {
    let bases = seeds::all()
        .iter()
        .map(|s| Base {
            name: s.name.to_string(),
            theory: seeds::load(s.name).unwrap(),
            spectrum: None,
            score: None,
            discovery: false,
            record: None,
        })
        .collect();
    Situation {
        goal: goal.into(),
        preferred: vec![],
        run_index: 1,
        run_of: 3,
        breadth: Breadth::Narrow,
        bases,
        moves: vec![],
        tools: Toolbox::builtin().status(),
        history: vec![],
        open_conjectures: vec![],
        plan: None,
        generated: 0,
        triaged: 0,
        spectra: 0,
        identified: 0,
        candidates: vec![],
        settled: vec![],
        found_in_library: vec![],
        hidden: vec![],
    }
}

/// `c` identified against the catalogue as the controller does before INTERPRET.
fn identified(mut c: Candidate) -> Candidate {
    use birkhoff_scorer::identify::{Known, Reference};
    let reference = Reference::new(Known::builtin(), None).for_novelty();
    let opts = birkhoff_agent::identification_options(None);
    c.standing = Some(birkhoff_agent::identify_theory(
        &c.theory, &reference, &opts,
    ));
    c
}

fn checked(name: &str, seed: &str, origin: &str) -> Candidate {
    let mut c = Candidate::new(
        name.into(),
        seeds::load(seed).unwrap(),
        origin.into(),
        vec![seed.into()],
    );
    Toolbox::builtin().check_models(&mut c, 5).unwrap();
    c
}

#[test]
fn plans_follow_the_goal_flags_and_history() {
    let s = situation("structures near lattices");
    let p = plan(&s);
    assert_eq!(p.explorations[0].bases, ["lattice"]);
    assert!(
        p.strategy.contains("the goal names: lattice"),
        "{}",
        p.strategy
    );
    // Already explored: the next cycle moves on to a related structure.
    let mut s2 = situation("structures near lattices");
    s2.history.push(Memory {
        cycle: 1,
        bases: vec!["lattice".into()],
        ..Default::default()
    });
    let p2 = plan(&s2);
    assert_ne!(p2.explorations[0].bases, ["lattice"]);
    // --base wins over the goal.
    let mut s3 = situation("structures near lattices");
    s3.preferred = vec!["rack".into()];
    assert_eq!(plan(&s3).explorations[0].bases, ["rack"]);
    // With a discovery, an even cycle exploits it at a larger size.
    let mut s4 = situation("find novel variants");
    s4.run_index = 2;
    s4.bases.push(Base {
        name: "Found".into(),
        theory: seeds::load("band").unwrap(),
        spectrum: None,
        score: None,
        discovery: true,
        record: None,
    });
    let p4 = plan(&s4);
    assert_eq!(p4.explorations[0].bases, ["Found"]);
    assert_eq!(p4.max_size, 6);
    assert!(p4.strategy.contains("exploit"));
    // Open conjectures about bases are retested.
    let mut s5 = situation("groups");
    s5.open_conjectures.push(OpenConjecture {
        theory: "moufang_loop".into(),
        statement: "x * y = y * x".into(),
        evidence: "no countermodel up to size 5".into(),
    });
    assert_eq!(plan(&s5).prove.len(), 1);
    // One whose statement does not parse over its theory (stored from a model's reply, say) is
    // not: it would make the plan itself invalid.
    s5.open_conjectures.insert(
        0,
        OpenConjecture {
            theory: "moufang_loop".into(),
            statement: "\"><img src=x>".into(),
            evidence: "proposed".into(),
        },
    );
    let p5 = plan(&s5);
    assert_eq!(
        p5.prove
            .iter()
            .map(|c| c.statement.as_str())
            .collect::<Vec<_>>(),
        ["x * y = y * x"]
    );
}

#[test]
fn the_default_breadth_keeps_a_cycle_narrow_and_wide_widens_it() {
    // A run's cost is set by --breadth: by default two bases and the best 20 candidates a
    // cycle, as many as five bases and 50 candidates when the run asks for a wide one.
    assert_eq!(Toolbox::builtin().breadth, Breadth::Narrow);
    let mut s = situation("Explore broadly");
    s.moves = Toolbox::builtin().moves();
    let narrow = plan(&s);
    assert!(
        narrow.explorations.len() <= 2 && narrow.explorations.iter().all(|e| e.moves.len() <= 2),
        "{:?}",
        narrow.explorations
    );
    assert_eq!(narrow.check_top, 20);
    s.breadth = Breadth::Wide;
    let wide = plan(&s);
    assert_eq!(wide.explorations.len(), 5, "{:?}", wide.explorations);
    assert_eq!(wide.check_top, 50);
}

#[test]
fn a_broad_run_visits_every_seed_and_completes_each_base() {
    // Twenty cycles of a goal naming no structure, each seeing the last five plans as a run
    // does: every seed is explored, and every exploration applies COMPLETE.
    let mut s = situation("Explore broadly");
    s.breadth = Breadth::Wide;
    s.moves = Toolbox::builtin().moves();
    let mut visited = std::collections::BTreeSet::new();
    for i in 1..=20 {
        s.run_index = i;
        let p = plan(&s);
        assert!(
            p.explorations.len() >= 4,
            "cycle {i} explores {} base(s)",
            p.explorations.len()
        );
        assert!(
            p.explorations
                .iter()
                .all(|e| e.moves.iter().any(|m| m == "COMPLETE")),
            "cycle {i}: {:?}",
            p.explorations
        );
        let bases: Vec<String> = p
            .explorations
            .iter()
            .flat_map(|e| e.bases.clone())
            .collect();
        visited.extend(bases.iter().cloned());
        s.history.push(Memory {
            cycle: i as u64,
            bases,
            moves: p.explorations[0].moves.clone(),
            ..Default::default()
        });
        if s.history.len() > 5 {
            s.history.remove(0);
        }
    }
    let missed: Vec<&str> = seeds::all()
        .iter()
        .map(|x| x.name)
        .filter(|n| !visited.contains(*n))
        .collect();
    assert!(missed.is_empty(), "never explored: {missed:?}");
}

#[test]
fn decisions_keep_new_structures_and_conjecture_what_small_models_show() {
    let mut s = situation("Explore broadly");
    let mut idem = checked("Idem_z", "magma", "ADD(idempotent)");
    idem.theory = birkhoff_engine::Theory::parse(
        "theory LeftInvolutoryMagma\nfunc * : 2\naxiom left_involutory: x * (x * y) = y",
        "t.bk",
    )
    .unwrap();
    Toolbox::builtin().check_models(&mut idem, 3).unwrap();
    s.candidates = vec![
        checked("moufang_loop", "moufang_loop", "base"),
        checked("Band_x", "band", "DROP(comm)"),
        checked("Group_y", "group", "TEST"),
        identified(idem),
    ];
    let d = decide(&s);
    // The one new theory with models above size 1 is kept, under a valid new name.
    assert_eq!(d.keep.len(), 1, "{:?}", d.keep);
    assert_eq!(d.keep[0].candidate, "Idem_z");
    assert!(birkhoff_agent::valid_name(&d.keep[0].name));
    // Base structures (and theories equal to a base) are never kept as discoveries.
    assert!(
        d.keep.iter().all(|k| k.candidate != "moufang_loop"
            && k.candidate != "Group_y"
            && k.candidate != "Band_x"),
        "{:?}",
        d.keep
    );
    // Moufang loops up to size 5 are all commutative and associative (the first non-commutative
    // one has 6 elements), but Chein's Moufang loop of order 12 is neither: neither is
    // conjectured. What the small models show of the others is.
    let statements: Vec<String> = d
        .conjectures
        .iter()
        .map(|c| format!("[{}] {}", c.theory, c.statement))
        .collect();
    assert!(!statements.is_empty());
    assert!(
        !statements
            .iter()
            .any(|c| c.starts_with("[moufang_loop]")
                && (c.contains("(y * x)") || c.contains("(y * z)"))),
        "{statements:?}"
    );
    assert!(d.analysis.contains("no scores are available"));
}

/// A magma with one law, checked to size 3, as identification leaves a class no known theory
/// was shown to be: new.
fn new_magma_law(name: &str, law: &str) -> Candidate {
    let mut c = checked(name, "magma", "COMPLETE");
    c.theory = birkhoff_engine::Theory::parse(
        &format!("theory {name}\nfunc * : 2\naxiom law: {law}"),
        "t.bk",
    )
    .unwrap();
    // Counted without the 40 ms per size, which a loaded machine can cut short.
    patient().check_models(&mut c, 3).unwrap();
    c.standing = Some(birkhoff_scorer::identify::Standing::New {
        reason: "no known theory has its signature".into(),
    });
    c
}

#[test]
fn a_wide_cycle_keeps_every_candidate_shown_new_and_a_narrow_one_the_best_two() {
    // Eleven laws with models of two or three elements, none a seed's.
    let laws = [
        "x * (x * y) = y",
        "(y * x) * x = y",
        "x * (y * x) = y",
        "(x * y) * x = x",
        "x * (y * x) = x",
        "x * (x * y) = x * y",
        "(x * y) * y = x * y",
        "x * (y * y) = x",
        "(x * x) * y = y",
        "x * (y * z) = x * z",
        "(x * y) * z = y * z",
    ];
    let candidates: Vec<_> = laws
        .iter()
        .enumerate()
        .map(|(i, law)| new_magma_law(&format!("New_{i}"), law))
        .collect();
    let mut s = situation("Explore broadly");
    s.candidates = candidates;
    assert_eq!(decide(&s).keep.len(), 2);
    s.breadth = Breadth::Wide;
    let kept: Vec<String> = decide(&s).keep.into_iter().map(|k| k.candidate).collect();
    assert_eq!(kept.len(), birkhoff_agent::MAX_KEEPS, "{kept:?}");
    // And the reply says so within what the decisions' schema allows.
    let (b, c) = (s.base_names(), s.candidate_names());
    let statement = |theory: &str, text: &str| s.check_statement(theory, text);
    let v = Vocabulary {
        bases: &b,
        moves: &s.moves,
        candidates: &c,
        statement: &statement,
    };
    let text = Offline
        .ask(&Request {
            phase: Phase::Interpret,
            system: "",
            prompt: "",
            situation: &s,
            deadline: None,
        })
        .unwrap();
    assert_eq!(
        parse_decisions(&text, &v).map(|d| d.keep.len()),
        Ok(birkhoff_agent::MAX_KEEPS),
        "{text}"
    );
}

#[test]
fn offline_replies_pass_validation() {
    let mut s = situation("explore broadly");
    s.candidates = vec![checked("moufang_loop", "moufang_loop", "base")];
    // An open conjecture in the library whose statement does not parse stays out of the plan.
    s.open_conjectures.push(OpenConjecture {
        theory: "moufang_loop".into(),
        statement: "\"><img src=x>".into(),
        evidence: "proposed".into(),
    });
    let (b, c) = (s.base_names(), s.candidate_names());
    let statement = |theory: &str, text: &str| s.check_statement(theory, text);
    let v = Vocabulary {
        bases: &b,
        moves: &s.moves,
        candidates: &c,
        statement: &statement,
    };
    for phase in [Phase::Plan, Phase::Interpret] {
        let text = Offline
            .ask(&Request {
                phase,
                system: "",
                prompt: "",
                situation: &s,
                deadline: None,
            })
            .unwrap();
        match phase {
            Phase::Plan => assert!(parse_plan(&text, &v).is_ok(), "{text}"),
            Phase::Interpret => assert!(parse_decisions(&text, &v).is_ok(), "{text}"),
        }
    }
}

/// The tools with time enough for every count up to size 6 to finish, so that comparisons do
/// not depend on the machine's load.
fn patient() -> Toolbox {
    Toolbox {
        per_size: std::time::Duration::from_secs(20),
        ..Toolbox::builtin()
    }
}

/// `base` with more symbols and axioms, checked up to `max_size`, named as the explore tool
/// names a move's result, with `parent` as its parent.
fn extended(name: &str, base: &str, parent: &str, extra: &str, max_size: u32) -> Candidate {
    let text = format!("{}\n{extra}", seeds::load(base).unwrap().to_text());
    let theory = birkhoff_engine::Theory::parse(&text, "candidate.bk").unwrap();
    let mut c = Candidate::new(name.into(), theory, "COMPLETE".into(), vec![parent.into()]);
    patient().check_models(&mut c, max_size).unwrap();
    c
}

fn checked_to(name: &str, seed: &str, max_size: u32) -> Candidate {
    let mut c = Candidate::new(
        name.into(),
        seeds::load(seed).unwrap(),
        "base".into(),
        vec![],
    );
    patient().check_models(&mut c, max_size).unwrap();
    c
}

#[test]
fn a_candidate_is_compared_with_its_parents_models() {
    let group = checked_to("Group", "group", 6);
    // Every group satisfies the left alternative law: nothing new.
    let alternative = extended(
        "Group+left_alternative(*)",
        "group",
        "Group",
        "axiom left_alternative: (x * x) * y = x * (x * y)",
        6,
    );
    let why = no_new_models(&alternative, &group).expect("every group is left alternative");
    assert!(
        why.contains("sizes 1, 2, 3, 4, 5, 6 (exact counts)")
            && why.contains("models of Group found satisfy its axioms"),
        "{why}"
    );
    // Commutativity: every group up to size 5 is abelian, so to size 5 nothing tells them apart;
    // the non-abelian group of order 6 does.
    let commutative = |n| {
        extended(
            "Group+commutative(*)",
            "group",
            "Group",
            "axiom comm: x * y = y * x",
            n,
        )
    };
    assert!(no_new_models(&commutative(5), &checked_to("Group", "group", 5)).is_some());
    assert_eq!(no_new_models(&commutative(6), &group), None);
    // New symbols: every loop has exactly one left division, so a second one adds nothing; a new
    // constant without axioms can be any element, which gives new models.
    let lp = checked_to("Loop", "loop", 4);
    let ldiv = extended(
        "Loop+left_division(*)",
        "loop",
        "Loop",
        "func ldiv : 2\naxiom a: x * ldiv(x, y) = y\naxiom b: ldiv(x, x * y) = y",
        4,
    );
    let why = no_new_models(&ldiv, &lp).expect("a loop's left division is unique");
    assert!(
        why.contains("extends to the new symbols ldiv in exactly one way"),
        "{why}"
    );
    let pointed = extended("Loop+c", "loop", "Loop", "const c", 4);
    assert_eq!(no_new_models(&pointed, &lp), None);
    // New constants that each finite model has exactly one way: the bounds of a lattice. The
    // class is not the lattices' (an unbounded lattice has none), so the candidate goes on to
    // identification rather than being set aside here.
    let lattice = checked_to("Lattice", "lattice", 4);
    let bounded = extended(
        "Lattice+bounds(^)",
        "lattice",
        "Lattice",
        "const bot\nconst top\naxiom least: x v bot = x\naxiom greatest: x ^ top = x",
        4,
    );
    assert_eq!(
        bounded.spectrum.iter().map(|r| r.iso).collect::<Vec<_>>(),
        lattice.spectrum.iter().map(|r| r.iso).collect::<Vec<_>>()
    );
    assert_eq!(no_new_models(&bounded, &lattice), None);
    // Unchecked candidates are never judged.
    let mut unchecked = alternative.clone();
    unchecked.checked = false;
    assert_eq!(no_new_models(&unchecked, &group), None);
}

#[test]
fn the_strategist_does_not_keep_a_candidate_with_its_parents_models_and_says_why() {
    let group = checked_to("Group", "group", 6);
    let mut alternative = extended(
        "Group+left_alternative(*)",
        "group",
        "Group",
        "axiom left_alternative: (x * x) * y = x * (x * y)",
        6,
    );
    alternative.same_as_parent = no_new_models(&alternative, &group);
    let mut exponent3 = extended(
        "Group+exponent5(*)",
        "group",
        "Group",
        "axiom quint: (((x * x) * x) * x) * x = e",
        6,
    );
    exponent3.same_as_parent = no_new_models(&exponent3, &group);
    let mut s = situation("study groups");
    s.candidates = vec![alternative, identified(exponent3)];
    let d = decide(&s);
    let kept: Vec<&str> = d.keep.iter().map(|k| k.candidate.as_str()).collect();
    assert_eq!(kept, ["Group+exponent5(*)"], "{}", d.analysis);
    assert!(d.analysis.contains("rejected as not new: Group+left_alternative(*) (no new models: its spectrum equals that of its parent Group"), "{}", d.analysis);
}

/// Plans one exploration of groups by COMPLETE; the offline strategist interprets.
const COMPLETE_GROUPS: ScriptedPlan = ScriptedPlan(
    r#"{"strategy": "groups completed", "explorations": [{"bases": ["group"], "moves": ["COMPLETE"], "depth": 1}], "check_top": 50, "max_size": 6}"#,
);

#[test]
fn a_cycle_checks_the_parent_and_reports_candidates_that_are_not_new() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = birkhoff_library::Library::open(dir.path()).unwrap();
    let agent = Agent {
        llm: &COMPLETE_GROUPS,
        offline: false,
        tools: patient(),
        observer: &Silent,
        interrupted: &|| false,
    };
    agent
        .run(
            &mut lib,
            &Config {
                goal: "study groups".into(),
                cycles: 1,
                bases: vec![],
            },
        )
        .unwrap();
    let report: CycleReport = serde_json::from_value(lib.report(1).unwrap()).unwrap();
    // The parent was checked alongside the candidates.
    assert!(report.tool_calls.iter().any(|t| t.tool == "check_models"
        && t.params["signature_id"] == "Group"
        && t.params["role"] == "parent"));
    // A group has exactly one left division: COMPLETE's Group+left_division(*) adds nothing.
    let why = "Group+left_division(*) (no new models: its spectrum equals that of its parent Group at sizes 1, 2, 3, 4, 5, 6 (exact counts), and each model of Group there extends to the new symbols \\ in exactly one way)";
    assert!(
        report.decisions.analysis.contains(why),
        "{}",
        report.decisions.analysis
    );
    assert!(
        report
            .discoveries
            .iter()
            .all(|d| d.candidate.same_as_parent.is_none()),
        "{:?}",
        report.discoveries
    );
    let markdown = std::fs::read_to_string(lib.markdown_path(1)).unwrap();
    // As written in the report: escaped Markdown.
    assert!(markdown.contains("rejected as not new: "));
    assert!(markdown.contains(&birkhoff_agent::text::md(why)));
}

/// `c` as identification leaves a class no known theory was shown to be, with `parent`'s
/// spectrum as the controller gives it.
fn new_with_parent(mut c: Candidate, parent: &Candidate) -> Candidate {
    c.standing = Some(birkhoff_scorer::identify::Standing::New {
        reason: "told apart from every known theory".into(),
    });
    c.parent_spectrum = Some(parent.spectrum.clone());
    c
}

#[test]
fn the_goal_decides_what_is_kept_not_only_the_order() {
    let semigroup = checked_to("semigroup", "semigroup", 4);
    // Semigroups with x² = y²: 1, 2, 3, 7 models, against the semigroups' 1, 5, 24, 188.
    let squares = new_with_parent(
        extended(
            "Semigroup+squares(*)",
            "semigroup",
            "semigroup",
            "axiom squares: x * x = y * y",
            4,
        ),
        &semigroup,
    );
    // The same law without associativity: a magma, with more models than the semigroups.
    let mut magma = Candidate::new(
        "Semigroup+squares(*)+-assoc".into(),
        birkhoff_engine::Theory::parse(
            "theory M\nfunc * : 2\naxiom squares: x * x = y * y",
            "t.bk",
        )
        .unwrap(),
        "DROP(assoc)".into(),
        vec!["semigroup".into()],
    );
    patient().check_models(&mut magma, 3).unwrap();
    let magma = new_with_parent(magma, &semigroup);
    let kept = |goal: &str| {
        let mut s = situation(goal);
        s.candidates = vec![squares.clone(), magma.clone()];
        let d = decide(&s);
        (
            d.keep.into_iter().map(|k| k.candidate).collect::<Vec<_>>(),
            d.analysis,
        )
    };
    // With no structure named and no wish, both are new and both are kept.
    let (both, why) = kept("Explore broadly");
    assert_eq!(both.len(), 2, "{why}");
    // Semigroups with few models: the magma is no semigroup.
    let (few, why) = kept("semigroups with few models");
    assert_eq!(few, ["Semigroup+squares(*)"], "{why}");
    assert!(
        why.contains("set aside 1 that the goal does not ask for: Semigroup+squares(*)+-assoc (not a Semigroup)"),
        "{why}"
    );
    // Few models without a structure named: the magma has more models than its parent.
    let (few, why) = kept("few models");
    assert_eq!(few, ["Semigroup+squares(*)"], "{why}");
    assert!(why.contains("(not few models: "), "{why}");
    // Many models: the semigroups with x² = y² keep 7 of the semigroups' 188 of order 4.
    let (many, why) = kept("semigroups with many models");
    assert!(many.is_empty(), "{why}");
    assert!(
        why.contains(
            "Semigroup+squares(*) (not many models: 7 model(s) of order 4, its parent 188)"
        ),
        "{why}"
    );
    // Only even orders: x² = y² semigroups have models of orders 2, 3 and 4.
    let (even, why) = kept("semigroups of even orders");
    assert!(even.is_empty(), "{why}");
    assert!(why.contains("(not only even orders)"), "{why}");
}

#[test]
fn discovery_names_are_never_reused() {
    // An earlier run kept something else as GroupWithQuint: the new discovery gets a new name.
    let mut s = situation("study groups");
    s.bases.push(Base {
        name: "GroupWithQuint".into(),
        theory: seeds::load("band").unwrap(),
        spectrum: None,
        score: None,
        discovery: true,
        record: None,
    });
    s.candidates = vec![identified(extended(
        "Group+exponent5(*)",
        "group",
        "group",
        "axiom quint: (((x * x) * x) * x) * x = e",
        5,
    ))];
    let d = decide(&s);
    // Not numbered: the law is spelled out, operations first.
    assert_eq!(
        d.keep.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        ["GroupWithMulMulMulMulXXXXXIsE"],
        "{}",
        d.analysis
    );
    // With that name taken too, it is not kept rather than numbered or cut.
    let mut taken = s.bases[0].clone();
    taken.name = "GroupWithMulMulMulMulXXXXXIsE".into();
    s.bases.push(taken);
    let d = decide(&s);
    assert!(d.keep.is_empty(), "{}", d.analysis);
    assert!(
        d.analysis
            .contains("every name that says what it is is taken"),
        "{}",
        d.analysis
    );
}

#[test]
fn a_candidate_is_named_from_the_named_class_it_is_with_the_fewest_changes() {
    // Made from monoids by dropping associativity and adding flexibility: two changes from its
    // parent, one from the catalogue's unital magmas.
    let theory = birkhoff_engine::Theory::parse(
        "theory \"Monoid+flexible(*)-assoc\"\nfunc * : 2\nconst e\n\
         axiom left_identity: e * x = x\naxiom right_identity: x * e = x\n\
         axiom flexible: (x * y) * x = x * (y * x)\n",
        "t.bk",
    )
    .unwrap();
    let mut c = Candidate::new(
        "Monoid+flexible(*)-assoc".into(),
        theory,
        "DEFORM".into(),
        vec!["monoid".into()],
    );
    Toolbox::builtin().check_models(&mut c, 3).unwrap();
    c.standing = Some(birkhoff_scorer::identify::Standing::New {
        reason: "no known theory has its signature".into(),
    });
    // A goal naming no structure: one naming monoids would keep monoids only.
    let mut s = situation("Explore broadly");
    s.candidates = vec![c];
    let d = decide(&s);
    assert_eq!(
        d.keep.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        ["UnitalMagmaWithFlexible"],
        "{}",
        d.analysis
    );
    assert!(
        d.keep[0]
            .notes
            .starts_with("UnitalMagma with x * y * x = x * (y * x)"),
        "{}",
        d.keep[0].notes
    );
    // With unital magmas hidden (the rediscovery benchmark), the name does not give them away:
    // it comes from the parent.
    s.hidden = vec!["unital_magma".into()];
    let d = decide(&s);
    assert_eq!(
        d.keep.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        ["MonoidWithFlexibleWithoutAssoc"],
        "{}",
        d.analysis
    );
}

#[test]
fn a_discovery_built_on_an_earlier_one_is_named_after_its_discovery_name() {
    // The earlier discovery's theory keeps the candidate name it had, whose `+` and `-` a name
    // cannot hold: `Semigroup+unipotent(*)+-assoc` read as a name would be "SemigroupUnipotentAssoc",
    // a semigroup it no longer is.
    let parse = |text: &str| birkhoff_engine::Theory::parse(text, "t.bk").unwrap();
    let earlier =
        "theory \"Semigroup+unipotent(*)+-assoc\"\nfunc * : 2\naxiom unipotent: x * x = y * y\n";
    let mut s = situation("Explore broadly");
    s.bases.push(Base {
        name: "SemigroupUnipotentWithoutAssoc".into(),
        theory: parse(earlier),
        spectrum: None,
        score: None,
        discovery: true,
        record: None,
    });
    // Told apart from every known theory by its spectrum (1, 2, 17, 1012); with commutativity
    // instead, its counts would agree with the commutative unital magmas' as far as they are
    // counted, and it would stay unknown.
    let theory = parse(&format!(
        "{earlier}axiom flexible: x * (y * x) = (x * y) * x\n"
    ));
    let mut c = Candidate::new(
        "Semigroup+unipotent(*)+-assoc+flexible(*)".into(),
        theory,
        "QUOTIENT".into(),
        vec!["SemigroupUnipotentWithoutAssoc".into()],
    );
    patient().check_models(&mut c, 4).unwrap();
    s.candidates = vec![identified(c)];
    let d = decide(&s);
    assert_eq!(
        d.keep.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        ["SemigroupUnipotentWithoutAssocWithFlexible"],
        "{}",
        d.analysis
    );
}

#[test]
fn a_proved_conjecture_carries_its_readable_proof_into_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = birkhoff_library::Library::open(&dir.path().join("lib")).unwrap();
    let g = seeds::load("group").unwrap();
    let settled = Toolbox::builtin()
        .prove(
            &mut lib,
            "group",
            &g,
            "thy-0000000000000000",
            "inv(inv(x)) = x",
            "test",
            2,
        )
        .unwrap();
    let proof = settled
        .proof
        .clone()
        .unwrap_or_else(|| panic!("no proof: {}", settled.evidence));
    assert!(
        proof.contains("Theorem. inv(inv(x)) = x") && proof.contains("by left_inverse"),
        "{proof}"
    );
    let md = birkhoff_agent::report::settled_md(&settled);
    assert!(md.contains(&proof), "{md}");
}

#[test]
fn a_property_a_named_structure_refutes_is_not_conjectured() {
    // Monoids of exponent 3 are commutative up to size 5 (the cyclic group of order 3 and the
    // trivial monoid), but the Heisenberg group modulo 3 (order 27) is one that is not.
    let cube = extended(
        "Monoid+cube(*)",
        "monoid",
        "monoid",
        "axiom cube: x * (x * x) = e",
        5,
    );
    // Every model found is commutative, so without the named structures it would be proposed.
    let comm =
        birkhoff_engine::parse::parse_formula(&cube.theory.sig, "x * y = y * x", "c").unwrap();
    assert!(cube.models.iter().all(|m| birkhoff_engine::eval::holds(
        &cube.theory.sig,
        &m.model,
        &comm
    )));
    let mut s = situation("Explore broadly");
    s.candidates = vec![cube];
    let statements: Vec<String> = decide(&s)
        .conjectures
        .into_iter()
        .map(|c| c.statement)
        .collect();
    assert!(
        !statements.contains(&"(x * y) = (y * x)".to_string()),
        "{statements:?}"
    );
}
