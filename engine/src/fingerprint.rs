//! Fingerprints of theories: equal for theories that differ only by variable names, axiom names,
//! the order of axioms or duplicated axioms.

use crate::print::FormulaPrinter;
use crate::syntax::{Axiom, Formula, Term, VarId};
use crate::theory::Theory;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// A 64-bit digest, shown as 16 hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Fingerprint(pub u64);

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Fingerprint {
    /// The fingerprint of a theory: a digest of its signature and of its set of canonical axioms.
    pub fn of(t: &Theory) -> Fingerprint {
        let mut axioms: Vec<String> = t.axioms.iter().map(|a| canonical_axiom(t, a)).collect();
        axioms.sort();
        axioms.dedup();
        let mut h = Sha256::new();
        h.update(canonical_signature(t).as_bytes());
        for a in &axioms {
            h.update(b"\n");
            h.update(a.as_bytes());
        }
        let digest = h.finalize();
        Fingerprint(u64::from_be_bytes(
            digest[..8].try_into().expect("sha256 has 32 bytes"),
        ))
    }
}

/// Sorts and symbols with their profiles; fixity is notation, not meaning, so it is left out.
fn canonical_signature(t: &Theory) -> String {
    let sig = &t.sig;
    let mut s = String::new();
    for d in &sig.sorts {
        s.push_str(&format!("sort {};", d.name));
    }
    for f in sig.func_ids() {
        s.push_str(&format!("func {};", sig.func_profile(f)));
    }
    for r in sig.rel_ids() {
        s.push_str(&format!("rel {};", sig.rel_profile(r)));
    }
    s
}

/// The axiom with variables renamed `_0, _1, ...` by first occurrence, and a top-level equation
/// oriented whichever way prints first, so that `e * x = x` and `x = e * x` agree.
pub fn canonical_axiom(t: &Theory, a: &Axiom) -> String {
    let text = |f: &Formula| {
        let order = occurrence_order(f);
        let name = |v: VarId| {
            format!(
                "_{}",
                order.iter().position(|w| *w == v).unwrap_or(usize::MAX)
            )
        };
        let mut p = FormulaPrinter::new(&t.sig, a);
        p.annotate_sorts = true;
        p.rename = Some(&name);
        let sorts: Vec<String> = order
            .iter()
            .map(|v| t.sig.sort_decl(a.vars[v.0 as usize].sort).name.clone())
            .collect();
        format!("{} :: {}", p.formula(f), sorts.join(","))
    };
    match &a.formula {
        Formula::Eq(l, r) => text(&a.formula).min(text(&Formula::Eq(r.clone(), l.clone()))),
        f => text(f),
    }
}

/// Variables in order of first occurrence, binders included.
fn occurrence_order(f: &Formula) -> Vec<VarId> {
    let mut out = Vec::new();
    visit(f, &mut out);
    out
}

fn visit(f: &Formula, out: &mut Vec<VarId>) {
    let term = |t: &Term, out: &mut Vec<VarId>| {
        t.for_each_var(&mut |v| {
            if !out.contains(&v) {
                out.push(v)
            }
        })
    };
    match f {
        Formula::True | Formula::False => {}
        Formula::Eq(a, b) => {
            term(a, out);
            term(b, out)
        }
        Formula::Rel(_, args) => args.iter().for_each(|a| term(a, out)),
        Formula::Not(g) => visit(g, out),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            visit(a, out);
            visit(b, out)
        }
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            for v in vs {
                if !out.contains(v) {
                    out.push(*v)
                }
            }
            visit(g, out)
        }
    }
}
