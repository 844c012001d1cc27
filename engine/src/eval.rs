//! The evaluator: decides whether a finite structure satisfies a theory, by the definition of
//! truth (Tarski), quantifier by quantifier.
//!
//! It deliberately shares no code with any model search, so that it can re-check every model a
//! search reports. Keep it plain.

use crate::signature::Signature;
use crate::structure::Structure;
use crate::syntax::{Axiom, Formula, Term};
use crate::theory::Theory;
use serde::{Deserialize, Serialize};
use std::fmt;

/// An axiom that fails, with values of its (outermost universal) variables that make it false.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The failing axiom's name.
    pub axiom: String,
    /// The witnessing assignment, variable by variable.
    pub assignment: Vec<(String, u32)>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "axiom `{}` fails", self.axiom)?;
        if !self.assignment.is_empty() {
            let a: Vec<String> = self
                .assignment
                .iter()
                .map(|(v, x)| format!("{v} = {x}"))
                .collect();
            write!(f, " at {}", a.join(", "))?;
        }
        Ok(())
    }
}

struct Eval<'a> {
    sig: &'a Signature,
    s: &'a Structure,
}

impl Eval<'_> {
    fn term(&self, t: &Term, env: &[u32]) -> u32 {
        match t {
            Term::Var(v) => env[v.0 as usize],
            Term::App(f, args) => {
                let d = self.sig.func_decl(*f);
                let mut idx = 0usize;
                for (a, sort) in args.iter().zip(&d.args) {
                    idx = idx * self.s.size(*sort) as usize + self.term(a, env) as usize;
                }
                self.s.funcs[f.0 as usize][idx]
            }
        }
    }

    fn formula(&self, f: &Formula, env: &mut Vec<u32>, vars: &[crate::syntax::VarDecl]) -> bool {
        match f {
            Formula::True => true,
            Formula::False => false,
            Formula::Eq(a, b) => self.term(a, env) == self.term(b, env),
            Formula::Rel(r, args) => {
                let d = self.sig.rel_decl(*r);
                let mut idx = 0usize;
                for (a, sort) in args.iter().zip(&d.args) {
                    idx = idx * self.s.size(*sort) as usize + self.term(a, env) as usize;
                }
                self.s.rels[r.0 as usize][idx]
            }
            Formula::Not(g) => !self.formula(g, env, vars),
            Formula::And(a, b) => self.formula(a, env, vars) && self.formula(b, env, vars),
            Formula::Or(a, b) => self.formula(a, env, vars) || self.formula(b, env, vars),
            Formula::Implies(a, b) => !self.formula(a, env, vars) || self.formula(b, env, vars),
            Formula::Iff(a, b) => self.formula(a, env, vars) == self.formula(b, env, vars),
            Formula::Forall(vs, g) => self.quantify(vs, g, env, vars, true),
            Formula::Exists(vs, g) => self.quantify(vs, g, env, vars, false),
        }
    }

    /// `all vs. g` (universal) or `exists vs. g`, by trying every value of each variable.
    fn quantify(
        &self,
        vs: &[crate::syntax::VarId],
        g: &Formula,
        env: &mut Vec<u32>,
        vars: &[crate::syntax::VarDecl],
        universal: bool,
    ) -> bool {
        let Some((first, rest)) = vs.split_first() else {
            return self.formula(g, env, vars);
        };
        let slot = first.0 as usize;
        let saved = env[slot];
        let n = self.s.size(vars[slot].sort);
        let mut result = universal;
        for x in 0..n {
            env[slot] = x;
            if self.quantify(rest, g, env, vars, universal) != universal {
                result = !universal;
                break;
            }
        }
        env[slot] = saved;
        result
    }

    /// A falsifying assignment of the axiom's free variables and leading universal variables, if
    /// any; `Err(Stopped)` when `stop` says so first (asked every [`STOP_EVERY`] assignments).
    fn counterexample(
        &self,
        a: &Axiom,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Vec<(String, u32)>>, Stopped> {
        let (outer, body) = a.universal_prefix();
        let mut env = vec![0u32; a.vars.len()];
        let sizes: Vec<u32> = outer
            .iter()
            .map(|v| self.s.size(a.vars[v.0 as usize].sort))
            .collect();
        let mut tried: u64 = 0;
        loop {
            if !self.formula(body, &mut env, &a.vars) {
                return Ok(Some(
                    outer
                        .iter()
                        .map(|v| (a.vars[v.0 as usize].name.clone(), env[v.0 as usize]))
                        .collect(),
                ));
            }
            tried += 1;
            if tried.is_multiple_of(STOP_EVERY) && stop() {
                return Err(Stopped);
            }
            // Next assignment, odometer style, last variable fastest.
            let mut k = outer.len();
            loop {
                if k == 0 {
                    return Ok(None);
                }
                k -= 1;
                let slot = outer[k].0 as usize;
                env[slot] += 1;
                if env[slot] < sizes[k] {
                    break;
                }
                env[slot] = 0;
            }
        }
    }
}

/// Whether `s` satisfies the axiom; `None` if it does, else a witnessing assignment.
pub fn falsify(sig: &Signature, s: &Structure, axiom: &Axiom) -> Option<Vec<(String, u32)>> {
    unstopped(falsify_until(sig, s, axiom, &|| false))
}

/// The answer of an evaluation whose `stop` never says so.
fn unstopped<T>(answer: Result<T, Stopped>) -> T {
    answer.unwrap_or_else(|Stopped| unreachable!("an evaluation that is never stopped"))
}

/// How many assignments [`falsify_until`] tries between two questions to its `stop`.
pub const STOP_EVERY: u64 = 1 << 16;

/// An evaluation that [`falsify_until`]'s `stop` ended before it had an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// [`falsify`] for a caller with a deadline: `Err(Stopped)` when `stop` returns true, which it is
/// asked every [`STOP_EVERY`] assignments. One axiom of four variables on a structure of 81
/// elements is 43 million assignments, seconds of evaluation.
pub fn falsify_until(
    sig: &Signature,
    s: &Structure,
    axiom: &Axiom,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Vec<(String, u32)>>, Stopped> {
    Eval { sig, s }.counterexample(axiom, stop)
}

/// Checks every axiom in order and returns the first violation.
///
/// The structure must fit the signature ([`Structure::validate`]); a structure that does not is
/// reported as a violation of the pseudo-axiom `<signature>` rather than indexed out of bounds.
pub fn check(t: &Theory, s: &Structure) -> Result<(), Violation> {
    unstopped(check_until(t, s, &|| false))
}

/// [`check`] for a caller with a deadline: `Err(Stopped)` when `stop` returns true, which it is
/// asked within each axiom as [`falsify_until`] asks it.
pub fn check_until(
    t: &Theory,
    s: &Structure,
    stop: &dyn Fn() -> bool,
) -> Result<Result<(), Violation>, Stopped> {
    if let Err(e) = s.validate(&t.sig) {
        return Ok(Err(Violation {
            axiom: format!("<signature: {e}>"),
            assignment: vec![],
        }));
    }
    for a in &t.axioms {
        if let Some(assignment) = falsify_until(&t.sig, s, a, stop)? {
            return Ok(Err(Violation {
                axiom: a.name.clone(),
                assignment,
            }));
        }
    }
    Ok(Ok(()))
}

/// Every violated axiom, each with one witness.
pub fn violations(t: &Theory, s: &Structure) -> Vec<Violation> {
    if let Err(e) = s.validate(&t.sig) {
        return vec![Violation {
            axiom: format!("<signature: {e}>"),
            assignment: vec![],
        }];
    }
    t.axioms
        .iter()
        .filter_map(|a| {
            falsify(&t.sig, s, a).map(|assignment| Violation {
                axiom: a.name.clone(),
                assignment,
            })
        })
        .collect()
}

/// The value of `t` in `s` with its variables `VarId(i)` set to `env[i]`.
pub fn term_value(sig: &Signature, s: &Structure, t: &Term, env: &[u32]) -> u32 {
    Eval { sig, s }.term(t, env)
}

/// Whether a closed-or-universal formula of `axiom`'s shape holds: a convenience for one-off checks.
pub fn holds(sig: &Signature, s: &Structure, axiom: &Axiom) -> bool {
    falsify(sig, s, axiom).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`falsify_until`] asks its `stop` every [`STOP_EVERY`] assignments and gives up when told:
    /// a law that holds is evaluated at every assignment (20⁴ = 160,000 here), which is where a
    /// deadline has to reach inside one axiom (mutation: without the question it answers
    /// `Ok(None)` however soon it is told to stop).
    #[test]
    fn an_evaluation_under_a_stop_asks_it_and_gives_up_when_told() {
        let t = Theory::parse(
            "theory Z\nfunc * : 2\naxiom a: (x * y) * (z * w) = (x * y) * (z * w)\n",
            "z.bk",
        )
        .unwrap();
        let n = 20;
        let s = Structure {
            sizes: vec![n],
            funcs: vec![(0..n * n).map(|i| i % n).collect()],
            rels: vec![],
        };
        let asked = std::cell::Cell::new(0u64);
        let never = || {
            asked.set(asked.get() + 1);
            false
        };
        assert_eq!(falsify_until(&t.sig, &s, &t.axioms[0], &never), Ok(None));
        assert_eq!(asked.get(), 160_000 / STOP_EVERY);
        assert_eq!(
            falsify_until(&t.sig, &s, &t.axioms[0], &|| true),
            Err(Stopped)
        );
    }
}
