//! Issue 5 benchmark: Birkhoff's Z3 path and its native finder against the plain Z3 encoding of
//! the system Birkhoff replaces: uninterpreted functions over the integers, each table entry
//! guarded to `0..n`, quantifiers expanded over `0..n`, and every labeled model blocked entry by
//! entry (no symmetry breaking, no isomorphism test). Run with
//! `cargo bench -p birkhoff-checker --bench z3_baseline [-- SECONDS]` (the limit per run,
//! default 120); it prints one TSV row per case. Not a test: it asserts nothing but agreement.

use birkhoff_checker::{finder, z3 as bz3, Budget};
use birkhoff_engine::signature::SortId;
use birkhoff_engine::structure::tuples;
use birkhoff_engine::syntax::{Formula, Term, VarId};
use birkhoff_engine::{seeds, Theory};
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Int};
use z3::{FuncDecl, SatResult, Solver, Sort};

/// The old encoding of a one-sorted theory at size `n`.
struct Plain {
    n: i64,
    funcs: Vec<FuncDecl>,
    rels: Vec<FuncDecl>,
}

impl Plain {
    fn new(t: &Theory, n: u32) -> Plain {
        let int = Sort::int();
        let decl =
            |name: &str, arity: usize, range: &Sort| FuncDecl::new(name, &vec![&int; arity], range);
        Plain {
            n: n as i64,
            funcs: t
                .sig
                .funcs
                .iter()
                .map(|f| decl(&f.name, f.args.len(), &int))
                .collect(),
            rels: t
                .sig
                .rels
                .iter()
                .map(|r| decl(&r.name, r.args.len(), &Sort::bool()))
                .collect(),
        }
    }

    /// `0 <= x < n`, asserted for every table entry.
    fn in_range(&self, x: &Int) -> Bool {
        Bool::and(&[x.ge(Int::from_i64(0)), x.lt(Int::from_i64(self.n))])
    }

    fn term(&self, t: &Term, env: &[i64]) -> Int {
        match t {
            Term::Var(v) => Int::from_i64(env[v.0 as usize]),
            Term::App(f, args) => {
                let args: Vec<Int> = args.iter().map(|a| self.term(a, env)).collect();
                let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
                self.funcs[f.0 as usize]
                    .apply(&refs)
                    .as_int()
                    .expect("functions return integers")
            }
        }
    }

    /// A quantifier expanded over the integers `0..n`.
    fn expanded(&self, universal: bool, vs: &[VarId], g: &Formula, env: &mut Vec<i64>) -> Bool {
        let Some((first, rest)) = vs.split_first() else {
            return self.formula(g, env);
        };
        let parts: Vec<Bool> = (0..self.n)
            .map(|x| {
                env[first.0 as usize] = x;
                self.expanded(universal, rest, g, env)
            })
            .collect();
        if universal {
            Bool::and(&parts)
        } else {
            Bool::or(&parts)
        }
    }

    fn formula(&self, f: &Formula, env: &mut Vec<i64>) -> Bool {
        match f {
            Formula::True => Bool::from_bool(true),
            Formula::False => Bool::from_bool(false),
            Formula::Eq(a, b) => self.term(a, env).eq(self.term(b, env)),
            Formula::Rel(r, args) => {
                let args: Vec<Int> = args.iter().map(|a| self.term(a, env)).collect();
                let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
                self.rels[r.0 as usize]
                    .apply(&refs)
                    .as_bool()
                    .expect("relations are Boolean")
            }
            Formula::Not(g) => self.formula(g, env).not(),
            Formula::And(a, b) => Bool::and(&[self.formula(a, env), self.formula(b, env)]),
            Formula::Or(a, b) => Bool::or(&[self.formula(a, env), self.formula(b, env)]),
            Formula::Implies(a, b) => self.formula(a, env).implies(self.formula(b, env)),
            Formula::Iff(a, b) => self.formula(a, env).iff(self.formula(b, env)),
            Formula::Forall(vs, g) => self.expanded(true, vs, g, env),
            Formula::Exists(vs, g) => self.expanded(false, vs, g, env),
        }
    }

    /// Every table entry as a ground term.
    fn cells(&self, t: &Theory) -> Vec<Int> {
        let n = self.n as u32;
        let mut out = Vec::new();
        for (f, d) in self.funcs.iter().zip(&t.sig.funcs) {
            for args in tuples(&[n], &vec![SortId(0); d.args.len()]) {
                let args: Vec<Int> = args.iter().map(|&a| Int::from_i64(a as i64)).collect();
                let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
                out.push(f.apply(&refs).as_int().expect("functions return integers"));
            }
        }
        out
    }

    /// Counts the labeled models by blocking each one, within `limit`; `None` if it ran out.
    fn count_labeled(&self, t: &Theory, limit: Duration) -> Option<u64> {
        let solver = Solver::new();
        let mut params = z3::Params::new();
        params.set_u32("timeout", limit.as_millis() as u32);
        solver.set_params(&params);
        for a in &t.axioms {
            solver.assert(self.expanded(
                true,
                &a.free_vars(),
                &a.formula,
                &mut vec![0; a.vars.len()],
            ));
        }
        let cells = self.cells(t);
        for c in &cells {
            solver.assert(self.in_range(c));
        }
        let start = Instant::now();
        let mut count = 0;
        loop {
            if start.elapsed() > limit {
                return None;
            }
            match solver.check() {
                SatResult::Sat => {}
                SatResult::Unsat => return Some(count),
                SatResult::Unknown => return None,
            }
            let m = solver.get_model().expect("sat gives a model");
            let differs: Vec<Bool> = cells
                .iter()
                .map(|c| c.eq(m.eval(c, true).expect("a value")).not())
                .collect();
            solver.assert(Bool::or(&differs));
            count += 1;
        }
    }
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64())
}

fn main() {
    let limit = Duration::from_secs_f64(
        std::env::args()
            .skip(1)
            .find_map(|a| a.parse().ok())
            .unwrap_or(120.0),
    );
    let cases = [
        ("group", 6),
        ("ring", 6),
        ("group", 8),
        ("group", 10),
        ("ring", 8),
        ("lattice", 6),
        ("quasigroup", 5),
    ];
    println!("theory\tn\tplain_int_labeled\tplain_int_s\tbirkhoff_z3_iso\tbirkhoff_z3_s\tnative_iso\tnative_s");
    for (name, n) in cases {
        let t = seeds::load(name).expect("a seed");
        let (plain, plain_s) = timed(|| Plain::new(&t, n).count_labeled(&t, limit));
        let budget = Budget {
            time: Some(limit),
            ..Budget::default()
        };
        let (z, z_s) = timed(|| bz3::enumerate(&t, &[n], &budget).expect("Z3 enumerates"));
        let (native, native_s) = timed(|| {
            finder::enumerate(&t, &[n], &budget, finder::Options::default())
                .expect("the finder enumerates")
        });
        if let Some(p) = plain {
            if z.labeled.status == birkhoff_checker::Status::Exact {
                assert_eq!(
                    z.labeled.value, p as u128,
                    "{name} {n}: labeled counts disagree"
                );
            }
        }
        let plain = plain.map_or(format!("> {} s", limit.as_secs()), |p| p.to_string());
        println!(
            "{name}\t{n}\t{plain}\t{plain_s:.2}\t{}\t{z_s:.2}\t{}\t{native_s:.3}",
            z.iso, native.iso
        );
    }
}
