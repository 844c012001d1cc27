//! Disproof by an affine countermodel: every function symbol read as an affine map over the
//! integers modulo `n`, `f(x₁, …, x_k) = a₁x₁ + … + a_kx_k + c`.
//!
//! The Equational Theories Project refuted many implications between magma laws with such
//! "linear" magmas (`x ◇ y = ax + by` mod n), and some of them have no countermodel of size 4 or
//! less while the finder cannot finish size 4 in time (measured: `x = y ◇ (y ◇ ((x ◇ x) ◇ y))`
//! does not imply `x = (x ◇ (y ◇ z)) ◇ (w ◇ x)`, refuted by `2x + y` mod 5). Under an affine
//! reading every term is an affine form in its variables, so an equation holds for all values
//! exactly when its two sides have the same coefficients mod n (put every variable to 0, then
//! one at a time to 1). That makes each candidate a few additions instead of a model check, and
//! all candidates up to a modulus can be tried in milliseconds. Only single-sorted theories
//! without relation symbols, whose axioms are all universally quantified conjunctions of
//! equations, and equational goals qualify. A hit is built into tables and confirmed by the
//! evaluator like any countermodel.

use super::certificate;
use super::countermodel::{confirm, Search};
use crate::finder::FinderError;
use birkhoff_engine::signature::Signature;
use birkhoff_engine::structure::tuples;
use birkhoff_engine::syntax::{Axiom, Formula, Term};
use birkhoff_engine::{Structure, Theory};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Most candidate readings tried for one modulus; larger moduli are skipped. One binary
/// operation reaches it only past modulus 40; a group's signature (six coefficients) at 7, so
/// that richer signatures do not spend their share on millions of readings.
const CANDIDATES_PER_MODULUS: u64 = 1 << 16;

/// An equation whose two sides must agree, with its number of variables.
struct Equation<'a> {
    sides: (&'a Term, &'a Term),
    vars: usize,
}

/// The axiom's equations when it is nothing but universally quantified equations joined by `&`.
fn pure_equations(axiom: &Axiom) -> Option<Vec<Equation<'_>>> {
    fn conjuncts<'a>(f: &'a Formula, out: &mut Vec<(&'a Term, &'a Term)>) -> bool {
        match f {
            Formula::Eq(l, r) => {
                out.push((l, r));
                true
            }
            Formula::And(a, b) => conjuncts(a, out) && conjuncts(b, out),
            Formula::Forall(_, g) => conjuncts(g, out),
            _ => false,
        }
    }
    let mut out = Vec::new();
    conjuncts(&axiom.formula, &mut out).then(|| {
        out.into_iter()
            .map(|sides| Equation {
                sides,
                vars: axiom.vars.len(),
            })
            .collect()
    })
}

/// An affine reading of the signature: for each function symbol its coefficients, one per
/// argument and then the constant term.
struct Reading {
    modulus: u64,
    coefficients: Vec<Vec<u64>>,
}

impl Reading {
    /// The term's affine form: a coefficient per variable (by [`VarId`] index), then the constant.
    ///
    /// [`VarId`]: birkhoff_engine::syntax::VarId
    fn form(&self, t: &Term, vars: usize) -> Vec<u64> {
        let mut out = vec![0; vars + 1];
        match t {
            Term::Var(v) => out[v.0 as usize] = 1,
            Term::App(f, args) => {
                let c = &self.coefficients[f.0 as usize];
                out[vars] = c[args.len()];
                for (a, arg) in c.iter().zip(args) {
                    for (o, x) in out.iter_mut().zip(self.form(arg, vars)) {
                        *o = (*o + a * x) % self.modulus;
                    }
                }
            }
        }
        out
    }

    fn holds(&self, e: &Equation) -> bool {
        self.form(e.sides.0, e.vars) == self.form(e.sides.1, e.vars)
    }

    /// Steps to the next reading (the coefficients read as one number in base `modulus`);
    /// false after the last.
    fn advance(&mut self) -> bool {
        for c in self.coefficients.iter_mut().flatten() {
            *c += 1;
            if *c < self.modulus {
                return true;
            }
            *c = 0;
        }
        false
    }

    /// The reading as a structure of size `modulus`.
    fn structure(&self, sig: &Signature) -> Structure {
        let n = self.modulus as u32;
        let mut s = Structure::zeroed(sig, &[n]);
        for (table, (decl, c)) in s
            .funcs
            .iter_mut()
            .zip(sig.funcs.iter().zip(&self.coefficients))
        {
            for (cell, args) in table.iter_mut().zip(tuples(&[n], &decl.args)) {
                let value = args.iter().zip(c).fold(c[args.len()], |acc, (&x, a)| {
                    (acc + a * u64::from(x)) % self.modulus
                });
                *cell = value as u32;
            }
        }
        s
    }
}

/// Looks for an affine countermodel modulo 2 to `max_modulus`, smallest first, within `time`.
/// `Err` only for an internal error (a model that fails the evaluator's check).
pub fn search(
    theory: &Theory,
    goal: &Axiom,
    max_modulus: u32,
    time: Duration,
    cancel: Option<&Arc<AtomicBool>>,
) -> Result<Search, FinderError> {
    let start = Instant::now();
    let sig = &theory.sig;
    if sig.sorts.len() != 1 || !sig.rels.is_empty() {
        return Ok(Search::CannotSearch(
            "affine readings need one sort and no relation symbols".into(),
        ));
    }
    let Some(axioms) = theory
        .axioms
        .iter()
        .map(|a| pure_equations(a))
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(Search::CannotSearch(
            "affine readings need axioms that are all equations".into(),
        ));
    };
    let axioms: Vec<Equation> = axioms.into_iter().flatten().collect();
    let goal_equation = match certificate::goal_equation(goal) {
        Ok((_, l, r)) => Equation {
            sides: (l, r),
            vars: goal.vars.len(),
        },
        Err(why) => return Ok(Search::CannotSearch(why)),
    };
    let unknowns: u32 = sig.funcs.iter().map(|f| f.args.len() as u32 + 1).sum();
    for modulus in 2..=u64::from(max_modulus) {
        if modulus
            .checked_pow(unknowns)
            .is_none_or(|n| n > CANDIDATES_PER_MODULUS)
        {
            return Ok(Search::CannotSearch(format!(
                "more than {CANDIDATES_PER_MODULUS} affine readings modulo {modulus}"
            )));
        }
        let mut reading = Reading {
            modulus,
            coefficients: sig
                .funcs
                .iter()
                .map(|f| vec![0; f.args.len() + 1])
                .collect(),
        };
        let mut tried = 0u64;
        loop {
            if axioms.iter().all(|e| reading.holds(e)) && !reading.holds(&goal_equation) {
                return confirm(theory, goal, reading.structure(sig)).map(Search::Found);
            }
            tried += 1;
            if tried.is_multiple_of(1024)
                && (start.elapsed() >= time || cancel.is_some_and(|c| c.load(Ordering::Relaxed)))
            {
                return Ok(Search::OutOfTime(format!("time ran out modulo {modulus}")));
            }
            if !reading.advance() {
                break;
            }
        }
    }
    Ok(Search::NoneUpTo)
}
