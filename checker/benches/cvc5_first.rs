//! First-model search side by side with cvc5 (docs/BENCHMARKS.md, issue 4).
//!
//! ```text
//! cargo bench -p birkhoff-checker --bench cvc5_first -- CAP THEORY:N [THEORY:N ...]
//! ```
//!
//! For each instance (a seed name or a theory file, and a size), Birkhoff's `find` path
//! (`router::first` with `--engine auto`) and cvc5 each get `CAP` seconds. cvc5 (Debian:
//! `apt-get install cvc5`) is given the theory as a user would write it for an SMT solver: one
//! uninterpreted sort per sort, the axioms as quantified formulas, and the size fixed by `n`
//! distinct elements that every element equals (`--finite-model-find`). The SMT-LIB files are
//! kept in `target/bench-results/cvc5/`. Prints one TSV line per instance: theory, n, Birkhoff's
//! answer and seconds, cvc5's answer and seconds ("timeout" at the cap).
//!
//! ```text
//! cargo bench -p birkhoff-checker --bench cvc5_first -- --write DIR THEORY:N [THEORY:N ...]
//! ```
//!
//! only writes the SMT-LIB files, as `DIR/THEORY-N.smt2` (the file's stem as given, so a script
//! knows the name), and runs nothing: `benches/run.sh side` times cvc5 on them as a whole
//! process, beside Birkhoff's engines and Mace4 (docs/BENCHMARKS.md, issue 24).

mod common;

use birkhoff_checker::{
    finder::FirstModel,
    router::{self, Engine},
    Budget,
};
use birkhoff_engine::signature::SortId;
use birkhoff_engine::syntax::{Formula, Term, VarId};
use birkhoff_engine::Theory;
use std::fmt::Write;
use std::process::Command;
use std::time::{Duration, Instant};

/// The theory with every sort of size `n`, in SMT-LIB 2 for finite model finding.
fn smtlib(t: &Theory, n: u32) -> String {
    let sig = &t.sig;
    let mut out = String::from("(set-logic UF)\n");
    for s in 0..sig.sorts.len() {
        writeln!(out, "(declare-sort S{s} 0)").unwrap();
    }
    let sorts = |args: &[SortId]| {
        args.iter()
            .map(|s| format!("S{}", s.0))
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (i, f) in sig.funcs.iter().enumerate() {
        writeln!(
            out,
            "(declare-fun f{i} ({}) S{})",
            sorts(&f.args),
            f.result.0
        )
        .unwrap();
    }
    for (i, r) in sig.rels.iter().enumerate() {
        writeln!(out, "(declare-fun r{i} ({}) Bool)", sorts(&r.args)).unwrap();
    }
    for s in 0..sig.sorts.len() {
        let elems: Vec<String> = (0..n).map(|k| format!("d{s}_{k}")).collect();
        for e in &elems {
            writeln!(out, "(declare-fun {e} () S{s})").unwrap();
        }
        if n > 1 {
            writeln!(out, "(assert (distinct {}))", elems.join(" ")).unwrap();
        }
        let cases: Vec<String> = elems.iter().map(|e| format!("(= x {e})")).collect();
        writeln!(
            out,
            "(assert (forall ((x S{s})) (or {} false)))",
            cases.join(" ")
        )
        .unwrap();
    }
    for a in &t.axioms {
        let sorted = |vs: &[VarId]| {
            vs.iter()
                .map(|v| format!("(v{} S{})", v.0, a.vars[v.0 as usize].sort.0))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let body = formula(&a.formula, &sorted);
        let free = a.free_vars();
        if free.is_empty() {
            writeln!(out, "(assert {body})").unwrap();
        } else {
            writeln!(out, "(assert (forall ({}) {body}))", sorted(&free)).unwrap();
        }
    }
    out.push_str("(check-sat)\n");
    out
}

fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => format!("v{}", v.0),
        Term::App(f, args) if args.is_empty() => format!("f{}", f.0),
        Term::App(f, args) => format!(
            "(f{} {})",
            f.0,
            args.iter().map(term).collect::<Vec<_>>().join(" ")
        ),
    }
}

fn formula(f: &Formula, sorted: &dyn Fn(&[VarId]) -> String) -> String {
    let two = |op: &str, a: &Formula, b: &Formula| {
        format!("({op} {} {})", formula(a, sorted), formula(b, sorted))
    };
    match f {
        Formula::True => "true".into(),
        Formula::False => "false".into(),
        Formula::Eq(a, b) => format!("(= {} {})", term(a), term(b)),
        Formula::Rel(r, args) if args.is_empty() => format!("r{}", r.0),
        Formula::Rel(r, args) => format!(
            "(r{} {})",
            r.0,
            args.iter().map(term).collect::<Vec<_>>().join(" ")
        ),
        Formula::Not(g) => format!("(not {})", formula(g, sorted)),
        Formula::And(a, b) => two("and", a, b),
        Formula::Or(a, b) => two("or", a, b),
        Formula::Implies(a, b) => two("=>", a, b),
        Formula::Iff(a, b) => two("=", a, b),
        Formula::Forall(vs, g) => format!("(forall ({}) {})", sorted(vs), formula(g, sorted)),
        Formula::Exists(vs, g) => format!("(exists ({}) {})", sorted(vs), formula(g, sorted)),
    }
}

fn birkhoff(t: &Theory, n: u32, cap: Duration) -> (String, f64) {
    let start = Instant::now();
    let sizes = vec![n; t.sig.sorts.len()];
    let answer = match router::first(
        Engine::Auto,
        t,
        &sizes,
        &Budget {
            time: Some(cap),
            ..Budget::default()
        },
    ) {
        Ok((FirstModel::Found { .. }, _, _)) => "model".to_string(),
        Ok((FirstModel::None, _, _)) => "none".to_string(),
        Ok((FirstModel::Unknown, _, _)) => "unknown".to_string(),
        Err(e) => format!("error: {e}"),
    };
    (answer, start.elapsed().as_secs_f64())
}

fn cvc5(file: &str, cap: Duration) -> (String, f64) {
    let start = Instant::now();
    let tlimit = format!("--tlimit={}", cap.as_millis());
    let answer = match Command::new("cvc5")
        .args(["--finite-model-find", &tlimit, file])
        .output()
    {
        Ok(o) => match String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
        {
            "sat" => "model".to_string(),
            "unsat" => "none".to_string(),
            "" | "unknown" => "timeout".to_string(),
            other => other.to_string(),
        },
        Err(e) => format!("cvc5 not run: {e}"),
    };
    (answer, start.elapsed().as_secs_f64())
}

/// `--write DIR THEORY:N ...`: the SMT-LIB files only, named by the theory argument's file stem.
fn write_only(dir: &str, instances: &[String]) {
    std::fs::create_dir_all(dir).expect("create the output folder");
    for inst in instances {
        let (t, n, stem) = common::instance(inst);
        let file = format!("{dir}/{stem}-{n}.smt2");
        std::fs::write(&file, smtlib(&t, n)).expect("write the SMT-LIB file");
        println!("{file}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if let [flag, dir, instances @ ..] = args.as_slice() {
        if flag == "--write" {
            return write_only(dir, instances);
        }
    }
    let Some((cap, instances)) = args.split_first() else {
        eprintln!("usage: cargo bench -p birkhoff-checker --bench cvc5_first -- CAP THEORY:N [THEORY:N ...]");
        std::process::exit(2);
    };
    let cap = Duration::from_secs_f64(cap.parse().expect("CAP is seconds"));
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/bench-results/cvc5");
    std::fs::create_dir_all(dir).expect("create the output folder");
    println!("theory\tn\tbirkhoff\tseconds\tcvc5\tseconds");
    for inst in instances {
        let (t, n, _) = common::instance(inst);
        let file = format!("{dir}/{}-{n}.smt2", t.name);
        std::fs::write(&file, smtlib(&t, n)).expect("write the SMT-LIB file");
        let (b, bt) = birkhoff(&t, n, cap);
        let (c, ct) = cvc5(&file, cap);
        println!("{}\t{n}\t{b}\t{bt:.2}\t{c}\t{ct:.2}", t.name);
    }
}
