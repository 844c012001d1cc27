//! A discovery must be new for a stated reason: candidates are identified against the seeds,
//! earlier discoveries and better-ranked candidates before ACT; a presentation of a known class is
//! never kept as a discovery, and one the model insists on keeping becomes another presentation
//! of the stored record.

use birkhoff_agent::{
    offline::Offline, report::CycleReport, Agent, Config, Explorer, Generated, Llm, Phase, Request,
    Silent, Toolbox,
};
use birkhoff_engine::{seeds, Theory};
use birkhoff_library::record::Body;

/// Loops with (x * x) * (x * x) = e (not in the catalogue, and told apart from every entry by
/// their spectrum: 1, 1, 0, 2, 2) in two presentations (the second adds a law that follows), and
/// the quasigroup seed with its symbols renamed. (Loops of left exponent 3, x * (x * x) = e, would
/// not do: their spectrum is the elementary abelian 3-groups' as far as it is counted, 1, 0, 1,
/// 0, 0, so they stay unknown.) (Left symmetric quasigroups, x * (x * y) = y, would not do: they are the commutative
/// quasigroups with left division as the operation, a parastrophe.)
struct Presentations;

/// `theory`, named `name`, as COMPLETE generated it from `parent`.
fn completed(name: &str, theory: Theory, parent: &str) -> Generated {
    Generated {
        name: name.into(),
        theory,
        origin: "COMPLETE".into(),
        parents: vec![parent.into()],
    }
}

pub(crate) fn with(seed: &str, extra: &str) -> Theory {
    Theory::parse(
        &format!("{}\n{extra}", seeds::load(seed).unwrap().to_text()),
        "candidate.bk",
    )
    .unwrap()
}

impl Explorer for Presentations {
    fn moves(&self) -> Vec<String> {
        vec!["COMPLETE".into()]
    }

    fn explore(&self, _: &[&Theory], _: &[String], _: u32) -> Result<Vec<Generated>, String> {
        let renamed = Theory::parse("theory Q\nfunc o : 2\nfunc l : 2\nfunc r : 2\naxiom a: l(x, o(x, y)) = y\naxiom b: o(x, l(x, y)) = y\naxiom c: r(o(x, y), y) = x\naxiom d: o(r(x, y), y) = x\n", "q.bk").unwrap();
        Ok(vec![
            completed("SqA", with("loop", "axiom fourth: (x * x) * (x * x) = e"), "loop"),
            completed(
                "SqB",
                with(
                    "loop",
                    "axiom fourth: (x * x) * (x * x) = e\naxiom fourth_e: e * ((x * x) * (x * x)) = e",
                ),
                "loop",
            ),
            completed("QuasigroupAgain", renamed, "quasigroup"),
        ])
    }
}

/// The offline strategist, except that it interprets with the decisions given (a JSON object).
struct Keeps(&'static str);

impl Llm for Keeps {
    fn describe(&self) -> String {
        "scripted".into()
    }
    fn ask(&self, req: &Request) -> Result<String, birkhoff_agent::LlmError> {
        match req.phase {
            Phase::Plan => Offline.ask(req),
            Phase::Interpret => Ok(format!("<decisions>{}</decisions>", self.0)),
        }
    }
}

/// Keeps `SqB`, whatever it is.
const KEEPS_SQB: Keeps = Keeps(
    r#"{"analysis": "keep SqB", "keep": [{"candidate": "SqB", "name": "SquareLoopAgain", "notes": "insisted"}], "conjectures": []}"#,
);

/// One cycle of `llm` (the offline strategist's when `offline`) on what `explorer` generates,
/// into `lib`; its report.
fn one_cycle(
    lib: &mut birkhoff_library::Library,
    llm: &dyn Llm,
    offline: bool,
    explorer: Box<dyn Explorer>,
    goal: &str,
) -> CycleReport {
    let agent = Agent {
        llm,
        offline,
        tools: Toolbox {
            explorer,
            per_size: std::time::Duration::from_secs(5),
            ..Toolbox::builtin()
        },
        observer: &Silent,
        interrupted: &|| false,
    };
    agent
        .run(
            lib,
            &Config {
                goal: goal.into(),
                cycles: 1,
                bases: vec![],
            },
        )
        .unwrap();
    let last = *lib.report_numbers().unwrap().last().unwrap();
    serde_json::from_value(lib.report(last).unwrap()).unwrap()
}

fn tools() -> Toolbox {
    Toolbox {
        explorer: Box::new(Presentations),
        per_size: std::time::Duration::from_secs(5),
        ..Toolbox::builtin()
    }
}

fn discoveries(lib: &birkhoff_library::Library) -> Vec<birkhoff_library::record::TheoryRec> {
    lib.list("theory")
        .unwrap()
        .into_iter()
        .filter_map(|r| match r.body {
            Body::Theory(t) if t.discovery => Some(t),
            _ => None,
        })
        .collect()
}

#[test]
fn presentations_of_known_classes_are_never_kept_as_discoveries() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = birkhoff_library::Library::open(dir.path()).unwrap();
    let offline = Agent {
        llm: &Offline,
        offline: true,
        tools: tools(),
        observer: &Silent,
        interrupted: &|| false,
    };
    offline
        .run(
            &mut lib,
            &Config {
                goal: "quasigroups".into(),
                cycles: 2,
                bases: vec![],
            },
        )
        .unwrap();

    let first: CycleReport = serde_json::from_value(lib.report(1).unwrap()).unwrap();
    let kept: Vec<&str> = first
        .discoveries
        .iter()
        .map(|d| d.candidate.name.as_str())
        .collect();
    assert_eq!(kept, ["SqA"], "{}", first.decisions.analysis);
    let name = first.discoveries[0].name.clone();
    assert!(
        name.starts_with("LoopWithFourth"),
        "named by what it is: {name}"
    );
    assert!(
        first.discoveries[0].notes.contains("New because"),
        "{}",
        first.discoveries[0].notes
    );
    let a = &first.decisions.analysis;
    assert!(
        a.contains("SqB (known as SqA (candidate): equivalent"),
        "{a}"
    );
    assert!(
        a.contains("QuasigroupAgain (known as quasigroup (seed): equal up to renaming"),
        "{a}"
    );

    // The next cycle meets both presentations again: each is the discovery, nothing is kept.
    let second: CycleReport = serde_json::from_value(lib.report(2).unwrap()).unwrap();
    assert!(
        second.discoveries.is_empty(),
        "{}",
        second.decisions.analysis
    );
    assert!(
        second
            .decisions
            .analysis
            .contains(&format!("SqB (known as {name} (discovery): equivalent")),
        "{}",
        second.decisions.analysis
    );
    assert_eq!(discoveries(&lib).len(), 1);

    // A model that keeps SqB anyway adds a presentation to the record, not a discovery.
    let scripted = Agent {
        llm: &KEEPS_SQB,
        offline: false,
        tools: tools(),
        observer: &Silent,
        interrupted: &|| false,
    };
    scripted
        .run(
            &mut lib,
            &Config {
                goal: "quasigroups again".into(),
                cycles: 1,
                bases: vec![],
            },
        )
        .unwrap();
    let third: CycleReport = serde_json::from_value(lib.report(3).unwrap()).unwrap();
    assert!(third.discoveries.is_empty());
    assert!(
        third
            .tool_calls
            .iter()
            .any(|t| t.tool == "add_to_library" && t.summary.contains("another presentation")),
        "{:?}",
        third
            .tool_calls
            .iter()
            .map(|t| &t.summary)
            .collect::<Vec<_>>()
    );
    let stored = discoveries(&lib);
    assert_eq!(stored.len(), 1);
    assert_eq!(
        stored[0]
            .presentations
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["SqB"]
    );
}

/// Two known classes in disguise: commutative quasigroups read through their right division
/// (`x / y = y / x`: a parastrophe) and totally symmetric quasigroups written with both
/// divisions (which equal `*`). An offline run kept each as new before swapped arguments and
/// definitions were compared.
struct Disguises;

impl Explorer for Disguises {
    fn moves(&self) -> Vec<String> {
        vec!["COMPLETE".into()]
    }

    fn explore(&self, _: &[&Theory], _: &[String], _: u32) -> Result<Vec<Generated>, String> {
        let g = |name: &str, extra: &str| Generated {
            name: name.into(),
            theory: with("quasigroup", extra),
            origin: "COMPLETE".into(),
            parents: vec!["quasigroup".into()],
        };
        Ok(vec![
            g("RightDivisionCommutative", "axiom c: x / y = y / x"),
            g(
                "DivisionsCommute",
                "axiom c: x / y = y / x\naxiom f: x \\ (x / y) = y\naxiom h: x * y = y * x",
            ),
        ])
    }
}

#[test]
fn parastrophes_and_definitional_extensions_of_known_classes_are_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = birkhoff_library::Library::open(dir.path()).unwrap();
    let report = one_cycle(&mut lib, &Offline, true, Box::new(Disguises), "quasigroups");
    assert!(
        report.discoveries.is_empty(),
        "{}",
        report.decisions.analysis
    );
    assert!(discoveries(&lib).is_empty());
    // Both are known at identification, before the strategist decides: the definitional
    // extension through definitions, the parastrophe through swapped arguments. Nothing the
    // strategist wanted to keep was refused.
    assert!(report.decisions.analysis.contains("DivisionsCommute (known as totally_symmetric_quasigroup (catalogue): the same class through definitions"), "{}", report.decisions.analysis);
    assert!(report.decisions.analysis.contains("RightDivisionCommutative (known as commutative_quasigroup (catalogue): the same class with the arguments of"), "{}", report.decisions.analysis);
    assert!(report.faults.is_empty(), "{:?}", report.faults);
}

/// The three known classes an agent run kept as discoveries (issue 49): quandles with a
/// commutative right division (the commutative distributive quasigroups, with x \ y = y / x),
/// posets without transitivity (reflexive antisymmetric relations: oriented graphs with the
/// diagonal added, the same class through definitions) and quasigroups with a commutative left
/// division (commutative quasigroups read through `\`, a parastrophe).
struct KeptBefore;

impl Explorer for KeptBefore {
    fn moves(&self) -> Vec<String> {
        vec!["COMPLETE".into()]
    }

    fn explore(&self, _: &[&Theory], _: &[String], _: u32) -> Result<Vec<Generated>, String> {
        let poset = seeds::load("poset").unwrap().to_text();
        Ok(vec![
            completed(
                "QuandleWithCommutative",
                with("quandle", "axiom c: x / y = y / x"),
                "quandle",
            ),
            completed(
                "PosetWithoutTransitive",
                Theory::parse(
                    &poset.replace("axiom transitive:", "# transitive:"),
                    "candidate.bk",
                )
                .unwrap(),
                "poset",
            ),
            completed(
                "QuasigroupWithCommutative",
                with("quasigroup", "axiom c: x \\ y = y \\ x"),
                "quasigroup",
            ),
        ])
    }
}

#[test]
fn the_known_classes_a_run_kept_are_not_new_on_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = birkhoff_library::Library::open(dir.path()).unwrap();
    let keeps_all = Keeps(
        r#"{"analysis": "keep them all", "keep": [{"candidate": "QuandleWithCommutative", "name": "A", "notes": "insisted"}, {"candidate": "PosetWithoutTransitive", "name": "B", "notes": "insisted"}, {"candidate": "QuasigroupWithCommutative", "name": "C", "notes": "insisted"}], "conjectures": []}"#,
    );
    let report = one_cycle(
        &mut lib,
        &keeps_all,
        false,
        Box::new(KeptBefore),
        "quandles, posets and quasigroups",
    );
    assert!(report.discoveries.is_empty(), "{:?}", report.faults);
    assert!(discoveries(&lib).is_empty());
    let standing = |name: &str| {
        report
            .tool_calls
            .iter()
            .find(|t| t.tool == "identify" && t.params["signature_id"] == name)
            .map(|t| t.summary.clone())
            .unwrap_or_else(|| panic!("{name} was identified"))
    };
    for (name, known_as) in [
        (
            "QuandleWithCommutative",
            "commutative_distributive_quasigroup",
        ),
        ("QuasigroupWithCommutative", "commutative_quasigroup"),
    ] {
        let said = standing(name);
        assert!(
            said.starts_with(&format!("known as {known_as} ")),
            "{name}: {said}"
        );
    }
    // Without definitions of a relation by a formula it stays unknown, never new.
    let said = standing("PosetWithoutTransitive");
    assert!(!said.starts_with("new"), "{said}");
    // The strategist's wish to keep each was refused, saying why.
    for name in [
        "QuandleWithCommutative",
        "PosetWithoutTransitive",
        "QuasigroupWithCommutative",
    ] {
        assert!(
            report
                .faults
                .iter()
                .any(|f| f.message.starts_with(&format!("`{name}` was not kept"))),
            "{name}: {:?}",
            report.faults
        );
    }
}
