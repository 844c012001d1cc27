//! The SAT back end's clauses as DIMACS files, and CaDiCaL's time on them through the `cadical`
//! crate, so that another solver can be timed on exactly the same formulas (docs/BENCHMARKS.md,
//! issue 24: the choice of solver).
//!
//! ```text
//! cargo bench -p birkhoff-checker --bench sat_dimacs -- CAP DIR THEORY:N [THEORY:N ...]
//! ```
//!
//! For each instance the clauses [`sat::first`](birkhoff_checker::sat::first) would give the
//! solver (the theory, the cancellations it implies, least-number symmetry breaking) are written
//! to `DIR/STEM-N.cnf`, then solved in this process by the crate's CaDiCaL with `CAP` seconds.
//! Prints one TSV line per instance: the file, variables, clauses, the answer (sat, unsat,
//! unknown) and the solving seconds (encoding not included).

mod common;

use birkhoff_checker::sat::encode::{Encoding, Lit, Sink, Symmetry};
use std::io::Write;
use std::time::{Duration, Instant};

/// Clauses kept in memory, to be written and solved.
#[derive(Default)]
struct Clauses(Vec<Vec<Lit>>);

impl Sink for Clauses {
    fn clause(&mut self, lits: &[Lit]) {
        self.0.push(lits.to_vec());
    }
}

/// Stops CaDiCaL at a deadline.
struct Deadline(Instant);

impl cadical::Callbacks for Deadline {
    fn terminate(&mut self) -> bool {
        Instant::now() >= self.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [cap, dir, instances @ ..] = args.as_slice() else {
        eprintln!("usage: cargo bench -p birkhoff-checker --bench sat_dimacs -- CAP DIR THEORY:N [THEORY:N ...]");
        std::process::exit(2);
    };
    let cap = Duration::from_secs_f64(cap.parse().expect("CAP is seconds"));
    std::fs::create_dir_all(dir).expect("create the output folder");
    println!("file\tvariables\tclauses\tcadical\tseconds");
    for inst in instances {
        let (t, n, stem) = common::instance(inst);
        let sizes = vec![n; t.sig.sorts.len()];
        let mut clauses = Clauses::default();
        Encoding::new(
            &t,
            &birkhoff_checker::cancellations(&t),
            &sizes,
            Symmetry::On,
            u64::MAX,
            &mut clauses,
            &|| false,
        )
        .unwrap_or_else(|e| panic!("{inst}: {e:?}"));
        let vars = clauses
            .0
            .iter()
            .flatten()
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0);
        let file = format!("{dir}/{stem}-{n}.cnf");
        let mut out =
            std::io::BufWriter::new(std::fs::File::create(&file).expect("create the DIMACS file"));
        writeln!(out, "p cnf {vars} {}", clauses.0.len()).unwrap();
        for c in &clauses.0 {
            for l in c {
                write!(out, "{l} ").unwrap();
            }
            writeln!(out, "0").unwrap();
        }
        out.flush().expect("write the DIMACS file");
        let start = Instant::now();
        let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
        for c in &clauses.0 {
            solver.add_clause(c.iter().copied());
        }
        solver.set_callbacks(Some(Deadline(start + cap)));
        let answer = match solver.solve() {
            Some(true) => "sat",
            Some(false) => "unsat",
            None => "unknown",
        };
        println!(
            "{file}\t{vars}\t{}\t{answer}\t{:.2}",
            clauses.0.len(),
            start.elapsed().as_secs_f64()
        );
    }
}
