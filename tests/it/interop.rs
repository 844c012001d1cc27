//! TPTP and LADR in and out, end to end: the TPTP fixtures of `tests/fixtures/tptp/` (written for
//! Birkhoff in the algebra domains) imported and counted at sizes 2 to 4 against known counts
//! (`expected.tsv`, from the ground truth), against the SAT engine's labeled count (an encoding
//! that shares no code with the native finder) and, where the tables are few, against brute force
//! over every structure judged by the evaluator; `import`, `export` and `--format gap` through
//! the binary; and the importer's errors, located at `file:line:column`.

use birkhoff_checker::{
    router::{self, Engine},
    sat, Budget, Status,
};
use birkhoff_engine::interop::{self, Target};
use birkhoff_engine::structure::{table_len, Structure};
use birkhoff_engine::{eval, Theory};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tptp")
}

fn import(file: &str) -> interop::Imported {
    let path = fixtures().join(file);
    let src = std::fs::read_to_string(&path).unwrap();
    interop::import(&src, &path.display().to_string()).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The rows of `expected.tsv`: counts (file, sizes, iso, labeled) and conjecture verdicts.
struct Expected {
    counts: Vec<(String, Vec<u32>, u128, Option<u128>)>,
    conjectures: Vec<(String, String)>,
}

fn expected() -> Expected {
    let text = std::fs::read_to_string(fixtures().join("expected.tsv")).unwrap();
    let mut e = Expected {
        counts: vec![],
        conjectures: vec![],
    };
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols[1] == "conjecture" {
            e.conjectures.push((cols[0].into(), cols[2].into()));
        } else {
            let sizes = cols[1].split('x').map(|s| s.parse().unwrap()).collect();
            e.counts.push((
                cols[0].into(),
                sizes,
                cols[2].parse().unwrap(),
                cols[3].parse().ok(),
            ));
        }
    }
    e
}

/// Every structure of the signature at these sizes, by brute force, counted when the evaluator
/// accepts it; `None` when there are more than 2^16 of them.
fn brute_force_labeled(t: &Theory, sizes: &[u32]) -> Option<u128> {
    let sig = &t.sig;
    // One digit per table cell: (cell's table, its radix).
    let mut digits: Vec<(bool, usize, u32)> = Vec::new();
    for (i, f) in sig.funcs.iter().enumerate() {
        for _ in 0..table_len(sizes, &f.args) {
            digits.push((true, i, sizes[f.result.0 as usize]));
        }
    }
    for (i, r) in sig.rels.iter().enumerate() {
        for _ in 0..table_len(sizes, &r.args) {
            digits.push((false, i, 2));
        }
    }
    let total: f64 = digits.iter().map(|d| d.2 as f64).product();
    if total > 65_536.0 {
        return None;
    }
    let mut s = Structure::zeroed(sig, sizes);
    let mut values = vec![0u32; digits.len()];
    let mut count = 0;
    loop {
        let (mut fi, mut ri) = (vec![0usize; sig.funcs.len()], vec![0usize; sig.rels.len()]);
        for (&(func, i, _), &v) in digits.iter().zip(&values) {
            if func {
                s.funcs[i][fi[i]] = v;
                fi[i] += 1;
            } else {
                s.rels[i][ri[i]] = v == 1;
                ri[i] += 1;
            }
        }
        if eval::check(t, &s).is_ok() {
            count += 1;
        }
        // The next assignment, as a mixed-radix counter.
        let mut k = 0;
        loop {
            if k == values.len() {
                return Some(count);
            }
            values[k] += 1;
            if values[k] < digits[k].2 {
                break;
            }
            values[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn tptp_fixtures_have_the_known_numbers_of_models() {
    let e = expected();
    let files: std::collections::BTreeSet<&str> = e.counts.iter().map(|c| c.0.as_str()).collect();
    assert!(files.len() >= 12, "at least 12 fixtures: {files:?}");
    let on_disk = std::fs::read_dir(fixtures())
        .unwrap()
        .filter_map(|d| d.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".p"))
        .count();
    assert_eq!(
        on_disk,
        files.len(),
        "every fixture has its counts in expected.tsv"
    );
    let mut brute_checked = 0;
    for (file, sizes, iso, labeled) in &e.counts {
        let t = import(file).theory;
        let budget = Budget::default();
        let found = router::enumerate(Engine::Native, &t, sizes, &budget).unwrap();
        assert_eq!(found.iso.status, Status::Exact, "{file} at {sizes:?}");
        assert_eq!(
            found.iso.value, *iso,
            "{file}: models up to isomorphism at {sizes:?}"
        );
        if let Some(l) = labeled {
            assert_eq!(
                found.labeled.value, *l,
                "{file}: labeled models at {sizes:?}"
            );
        }
        // The SAT engine counts labeled models directly, without symmetry breaking.
        let direct = sat::count_labeled_directly(&t, sizes, &budget).unwrap();
        assert_eq!(
            direct.value, found.labeled.value,
            "{file}: SAT's labeled count at {sizes:?}"
        );
        if let Some(b) = brute_force_labeled(&t, sizes) {
            assert_eq!(b, found.labeled.value, "{file}: brute force at {sizes:?}");
            brute_checked += 1;
        }
    }
    assert!(
        brute_checked >= 5,
        "brute force reached only {brute_checked} rows"
    );
}

#[test]
fn tptp_fixtures_survive_export_and_import() {
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".p") {
            continue;
        }
        let first = import(&name);
        assert_eq!(first.format, interop::Format::Tptp);
        let goal = first.conjectures.first();
        for to in [Target::Tptp, Target::Ladr] {
            if to == Target::Ladr && !first.theory.sig.is_single_sorted() {
                continue;
            }
            let text = interop::export(&first.theory, goal, to).unwrap();
            let back =
                interop::import(&text, &name).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            assert!(
                birkhoff_engine::canon::equal_up_to_renaming(&first.theory, &back.theory).unwrap(),
                "{name} changed through {to:?}:\n{text}"
            );
            assert_eq!(
                back.conjectures.len(),
                goal.iter().count(),
                "{name}: the conjecture through {to:?}"
            );
        }
    }
}

/// The body of the one conjecture of a TPTP file, as written: what follows `conjecture,` up to
/// the `)` that closes the annotated formula.
fn conjecture_body(text: &str) -> Option<String> {
    let start = text.find("conjecture,")? + "conjecture,".len();
    let mut depth = 0usize;
    for (i, c) in text[start..].char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' if depth > 0 => depth -= 1,
            ')' => return Some(text[start..start + i].trim().to_string()),
            _ => {}
        }
    }
    None
}

/// A goal given on the command line for a TPTP file is read in TPTP's syntax, as the body of an
/// annotated formula: each fixture's conjecture, given as GOAL, is exported as the same
/// conjecture and gets the verdict of `prove FILE`. Lower-case names are the file's symbols, so
/// a goal written in Birkhoff's syntax is an error that says how TPTP writes variables.
#[test]
fn a_goal_given_for_a_tptp_file_is_read_in_tptp_syntax() {
    let mut read = 0;
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if text.matches("conjecture,").count() != 1 || text.contains("/*") {
            continue;
        }
        let body = conjecture_body(&text).unwrap();
        let file = path.to_str().unwrap();
        let export = |extra: &[&str]| {
            let mut args = vec!["export", file, "--to", "tptp"];
            args.extend(extra);
            let o = birkhoff(&args);
            assert!(o.status.success(), "{file} {extra:?}: {o:?}");
            o.stdout
        };
        assert_eq!(
            String::from_utf8(export(&["--goal", &body])).unwrap(),
            String::from_utf8(export(&[])).unwrap(),
            "{file}: GOAL {body}"
        );
        let verdict = |goal: Option<&str>| {
            let mut args = vec!["prove", file, "--json", "--timeout", "5"];
            args.extend(goal);
            let o = birkhoff(&args);
            let v: serde_json::Value =
                serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{file}: {e}: {o:?}"));
            v["verdict"].as_str().unwrap().starts_with("dis")
        };
        assert_eq!(verdict(Some(&body)), verdict(None), "{file}: GOAL {body}");
        read += 1;
    }
    assert!(read >= 8, "only {read} fixtures have one conjecture");
    let groups = fixtures().join("group_fof.p");
    let groups = groups.to_str().unwrap();
    let o = birkhoff(&["prove", groups, "x = y"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("GOAL:1:1") && err.contains("TPTP variables start with an upper-case letter"),
        "{err}"
    );
}

fn birkhoff(args: &[&str]) -> Output {
    crate::birkhoff_command()
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn import_prints_a_theory_that_every_command_reads() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = fixtures().join("group_fof.p");
    let o = birkhoff(&["import", fixture.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bk = String::from_utf8(o.stdout).unwrap();
    assert!(
        bk.contains("meta conjecture \"inv(mult(X, Y)) = mult(inv(Y), inv(X))\""),
        "{bk}"
    );
    let path = dir.path().join("group.bk");
    std::fs::write(&path, &bk).unwrap();
    assert!(birkhoff(&["check", path.to_str().unwrap()])
        .status
        .success());
    // The TPTP file itself is a theory file for every command, and its conjecture is the goal
    // `prove` takes when none is given.
    let o = birkhoff(&[
        "spectrum",
        fixture.to_str().unwrap(),
        "--max-size",
        "4",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["rows"][3]["iso"]["value"], 2, "{v}");
    let o = birkhoff(&["prove", fixture.to_str().unwrap(), "--timeout", "20"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("proved"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&birkhoff(&["import", fixture.to_str().unwrap(), "--json"]).stdout)
            .unwrap();
    assert_eq!(v["format"], "tptp");
    assert_eq!(v["conjectures"][0]["name"], "inverse_of_product");
}

#[test]
fn export_writes_fof_tff_and_ladr_and_refuses_what_ladr_cannot_say() {
    let fof = String::from_utf8(
        birkhoff(&[
            "export",
            "group",
            "--to",
            "tptp",
            "--goal",
            "inv(inv(x)) = x",
        ])
        .stdout,
    )
    .unwrap();
    assert!(
        fof.contains("fof(assoc, axiom, ![X, Y, Z]: mult(mult(X, Y), Z) = mult(X, mult(Y, Z)))."),
        "{fof}"
    );
    assert!(
        fof.contains("fof(goal, conjecture, ![X]: inv(inv(X)) = X)."),
        "{fof}"
    );
    let tff =
        String::from_utf8(birkhoff(&["export", "vector_space", "--to", "tptp"]).stdout).unwrap();
    assert!(
        tff.contains("tff(smul_type, type, smul: (k * v) > v)."),
        "{tff}"
    );
    let ladr = String::from_utf8(birkhoff(&["export", "loop", "--to", "ladr"]).stdout).unwrap();
    assert!(
        ladr.contains("formulas(assumptions).\nx \\ (x * y) = y # label(ldiv_after_mul)."),
        "{ladr}"
    );
    let o = birkhoff(&["export", "vector_space", "--to", "ladr"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("LADR has one sort"));
}

#[test]
fn gap_tables_are_one_based_with_the_identity_first() {
    let o = birkhoff(&["models", "group", "--size", "3", "--format", "gap"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains(
            "M1 := rec(\n  size := 3,\n  mult := [ [ 1, 2, 3 ], [ 2, 3, 1 ], [ 3, 1, 2 ] ],"
        ),
        "{text}"
    );
    let o = birkhoff(&["find", "quasigroup", "--size", "3", "--format", "gap"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("M1 := rec("));
}

/// `prove --format gap` prints a countermodel as `models` and `find` do, and the rest of the
/// answer as GAP comments, so GAP can `Read` the whole output.
#[test]
fn prove_prints_its_countermodel_for_gap() {
    let o = birkhoff(&[
        "prove",
        "semigroup",
        "x * y = y * x",
        "--format",
        "gap",
        "--timeout",
        "20",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let (comments, record) = text.split_once("M1 := rec(").expect("a GAP record");
    assert!(comments.lines().all(|l| l.starts_with("# ")), "{text}");
    assert!(
        comments.contains("# disproved: a model of Semigroup of size [2]")
            && comments.contains("# checked by the evaluator"),
        "{text}"
    );
    assert!(
        record.contains("size := 2,") && record.contains("mult := [ [ "),
        "{text}"
    );
    // A proof has no model: every line is a comment.
    let o = birkhoff(&[
        "prove",
        "group",
        "inv(inv(x)) = x",
        "--format",
        "gap",
        "--timeout",
        "20",
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        o.status.success()
            && text.starts_with("# proved")
            && text.lines().all(|l| l.starts_with("# ")),
        "{text}"
    );
}

/// Bad TPTP input: each an error naming the file, line and column, never a panic.
#[test]
fn tptp_errors_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            "include('Axioms/GRP004-0.ax').\n",
            "1:1",
            "`include` directives are not read",
        ),
        (
            "fof(a, axiom, f(X) = X).\nfof(b, axiom, f(X, Y) = X).\n",
            "2:15",
            "takes 1 arguments here, not 2",
        ),
        (
            "fof(a, axiom, ![X]: p(X) & q(X) | r(X)).\n",
            "1:33",
            "add brackets",
        ),
        ("fof(a, axiom, X = 1).\n", "1:19", "TPTP arithmetic"),
        (
            "fof(a, axiom, p(X)).\nfof(b, axiom, f(p(X)) = X).\n",
            "2:17",
            "is a predicate",
        ),
        (
            "tff(a, type, f: (t * t) > t).\n",
            "1:18",
            "type `t` is not declared",
        ),
        ("thf(a, axiom, p).\n", "1:1", "`thf` formulas are not read"),
        (
            "fof(a, question, p).\n",
            "1:8",
            "role `question` is not read",
        ),
        ("fof(a, axiom, p(X)\n", "2:1", "expected `)`"),
        ("fof(a, axiom, 'unclosed).\n", "1:15", "not closed"),
    ];
    for (i, (text, at, message)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.p"));
        std::fs::write(&path, text).unwrap();
        let o = birkhoff(&["import", path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{text}: {err}");
        assert!(
            err.contains(&format!("bad{i}.p:{at}: error:")),
            "{text}: expected the error at {at}: {err}"
        );
        assert!(err.contains(message), "{text}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// E reads the fixtures itself, an independent TPTP parser: on each fixture's conjecture, its
/// answer on the file as written and on Birkhoff's export of the imported theory must agree
/// where both are decided, and neither may claim a conjecture that is not a theorem. Skipped
/// (with a note) where E is not installed.
#[test]
fn e_agrees_on_the_fixtures_as_written_and_as_imported() {
    use birkhoff_checker::prover::external::{
        ask, claim_of, find_on_path, szs_status, Claim, Prover,
    };
    let Some(eprover) = find_on_path("eprover") else {
        eprintln!("eprover is not installed: skipped");
        return;
    };
    let mut decided = 0;
    for (file, verdict) in expected().conjectures {
        let path = fixtures().join(&file);
        let out = Command::new(&eprover)
            .args(["--auto", "--tstp-format", "-s", "--cpu-limit=5"])
            .arg(&path)
            .output()
            .unwrap();
        let raw = claim_of(&szs_status(&String::from_utf8_lossy(&out.stdout)).unwrap_or_default());
        let imported = import(&file);
        let goal = &imported.conjectures[0];
        let ours = ask(
            Prover::E,
            &imported.theory,
            goal,
            std::time::Duration::from_secs(5),
            None,
        )
        .unwrap()
        .claim;
        if raw != Claim::Unknown && ours != Claim::Unknown {
            assert_eq!(
                raw, ours,
                "{file}: E on the file and on Birkhoff's export disagree"
            );
            decided += 1;
        }
        if verdict != "theorem" {
            assert_ne!(
                raw,
                Claim::Proved,
                "{file}: E proves a non-theorem as written"
            );
            assert_ne!(
                ours,
                Claim::Proved,
                "{file}: E proves a non-theorem from Birkhoff's export"
            );
        }
        if verdict == "theorem" {
            assert_ne!(ours, Claim::Disproved, "{file}");
        }
    }
    assert!(decided >= 8, "E decided only {decided} fixtures both ways");
}
