//! Expansions of lattices by the constants and operations the literature classifies: COMPLETE
//! declares the new symbols with their defining laws, for every pair of operations that absorb
//! each other (a lattice, the first operation read as the meet, so `x ≤ y` when `x ∧ y = x`).
//!
//! - **Bounds** (`bounds`): a least element `bot` (`x ∨ bot = x`) and a greatest `top`
//!   (`x ∧ top = x`) (G. Birkhoff, *Lattice Theory*, AMS 1967, Ch. I.4; B. A. Davey,
//!   H. A. Priestley, *Introduction to Lattices and Order*, Cambridge 2002, Ch. 2).
//! - **Orthocomplement** (`orthocomplement`): an order-reversing involution `c` with
//!   `x ∧ c(x) = bot` and `x ∨ c(x) = top`, written `c(c(x)) = x` and `c(x ∨ y) = c(x) ∧ c(y)`
//!   (ortholattices: Birkhoff, Ch. I.13; G. Kalmbach, *Orthomodular Lattices*, Academic Press
//!   1983, Ch. 1).
//! - **De Morgan negation** (`de_morgan_negation`): an involution `c` with
//!   `c(x ∧ y) = c(x) ∨ c(y)`, and no complement laws (R. Balbes, P. Dwinger, *Distributive
//!   Lattices*, Missouri 1974, Ch. XI; J. A. Kalman, *Lattices with involution*, Trans. AMS 87
//!   (1958) 485–491). With distributivity, De Morgan algebras.
//! - **Pseudocomplement** (`pseudocomplement`): a unary `pc`, the largest element meeting `x` in
//!   `bot`, by the equations `x ∧ pc(x ∧ y) = x ∧ pc(y)`, `x ∧ pc(bot) = x`,
//!   `pc(pc(bot)) = bot` (p-algebras: Balbes and Dwinger, Ch. VIII; H. P. Sankappanavar,
//!   *Heyting algebras with dual pseudocomplementation*, Pacific J. Math. 117 (1985)).
//! - **Relative pseudocomplement** (`relative_pseudocomplement`): a binary `imp`, `x → y` the
//!   largest `z` with `x ∧ z ≤ y`, by the equations `x → x = top`, `x ∧ (x → y) = x ∧ y`,
//!   `y ∧ (x → y) = y`, `x → (y ∧ z) = (x → y) ∧ (x → z)`: Heyting algebras (S. Burris,
//!   H. P. Sankappanavar, *A Course in Universal Algebra*, Springer 1981, §II.1, Ex. 5;
//!   H. Rasiowa, R. Sikorski, *The Mathematics of Metamathematics*, 1963, Ch. IV).
//!
//! An operation needs the bounds: a lattice without them gets them in the same step, as the
//! definitions of these classes state them (an ortholattice is a bounded lattice with an
//! orthocomplementation). The laws these operations in turn support (orthomodularity, Kleene's
//! law, Stone's identity) are in [`super::families`]. As there, which expansion applies is read
//! off the theory's axioms, never off a catalogue entry.

use super::laws::{ap, ap2, equation, v};
use super::{binary_ops, constants, fresh_from, new_func, unary_ops};
use crate::canon::has_axiom;
use crate::signature::{FuncDecl, FuncId, SortId};
use crate::syntax::Axiom;
use crate::theory::Theory;

/// The expansions, by the name COMPLETE takes.
pub const EXPANSIONS: &[&str] = &[
    "bounds",
    "orthocomplement",
    "de_morgan_negation",
    "pseudocomplement",
    "relative_pseudocomplement",
];

/// An expansion of a theory: the symbols declared, the laws added, and what it is in words.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// Its name, one of [`EXPANSIONS`].
    pub name: &'static str,
    /// The new symbols, declared after the theory's own in this order.
    pub funcs: Vec<FuncDecl>,
    /// The laws, over the theory's symbols and the new ones.
    pub axioms: Vec<Axiom>,
    /// What the expansion is, for the provenance.
    pub description: String,
}

/// A lattice in `t`: a meet, its join (the two absorb each other, the meet the first declared),
/// their sort, and the bounds when `t` has them.
#[derive(Clone, Copy, Debug)]
pub struct LatticeOps {
    /// The meet.
    pub meet: FuncId,
    /// The join.
    pub join: FuncId,
    /// Their sort.
    pub sort: SortId,
    /// The least and greatest elements (`x ∨ bot = x`, `x ∧ top = x`), when declared.
    pub bounds: Option<(FuncId, FuncId)>,
}

impl LatticeOps {
    /// Every pair of operations of `t` that absorb each other with `meet` the first.
    pub fn with_meet(t: &Theory, meet: FuncId) -> Vec<LatticeOps> {
        let sort = t.sig.func_decl(meet).result;
        binary_ops(&t.sig)
            .into_iter()
            .filter(|&(join, s)| {
                s == sort
                    && meet < join
                    && super::laws::absorption(meet, join, s)
                        .iter()
                        .all(|a| has_axiom(t, a))
            })
            .map(|(join, _)| {
                let mut ops = LatticeOps {
                    meet,
                    join,
                    sort,
                    bounds: None,
                };
                let of_sort: Vec<FuncId> = constants(&t.sig)
                    .into_iter()
                    .filter(|&(_, s)| s == sort)
                    .map(|(c, _)| c)
                    .collect();
                let least = of_sort
                    .iter()
                    .find(|&&c| has_axiom(t, &ops.least(c)))
                    .copied();
                let greatest = of_sort
                    .iter()
                    .find(|&&c| has_axiom(t, &ops.greatest(c)))
                    .copied();
                ops.bounds = least.zip(greatest);
                ops
            })
            .collect()
    }

    /// `x ∨ bot = x`.
    fn least(&self, bot: FuncId) -> Axiom {
        let s = self.sort;
        equation("bot_least", s, ap2(self.join, v(0), ap(bot, vec![])), v(0))
    }

    /// `x ∧ top = x`.
    fn greatest(&self, top: FuncId) -> Axiom {
        let s = self.sort;
        equation(
            "top_greatest",
            s,
            ap2(self.meet, v(0), ap(top, vec![])),
            v(0),
        )
    }

    /// The orthocomplement laws for `c`.
    pub fn orthocomplement(&self, c: FuncId, (bot, top): (FuncId, FuncId)) -> Vec<Axiom> {
        let (m, j, s) = (self.meet, self.join, self.sort);
        let cx = || ap(c, vec![v(0)]);
        vec![
            equation("ortho_involution", s, ap(c, vec![cx()]), v(0)),
            equation("ortho_meet", s, ap2(m, v(0), cx()), ap(bot, vec![])),
            equation("ortho_join", s, ap2(j, v(0), cx()), ap(top, vec![])),
            equation(
                "ortho_de_morgan",
                s,
                ap(c, vec![ap2(j, v(0), v(1))]),
                ap2(m, cx(), ap(c, vec![v(1)])),
            ),
        ]
    }

    /// The De Morgan negation laws for `c`.
    pub fn de_morgan_negation(&self, c: FuncId) -> Vec<Axiom> {
        let (m, j, s) = (self.meet, self.join, self.sort);
        vec![
            equation("involution", s, ap(c, vec![ap(c, vec![v(0)])]), v(0)),
            equation(
                "de_morgan",
                s,
                ap(c, vec![ap2(m, v(0), v(1))]),
                ap2(j, ap(c, vec![v(0)]), ap(c, vec![v(1)])),
            ),
        ]
    }

    /// The pseudocomplement laws for `p`.
    pub fn pseudocomplement(&self, p: FuncId, (bot, _): (FuncId, FuncId)) -> Vec<Axiom> {
        let (m, s) = (self.meet, self.sort);
        let o = || ap(bot, vec![]);
        vec![
            equation(
                "pseudo_meet",
                s,
                ap2(m, v(0), ap(p, vec![ap2(m, v(0), v(1))])),
                ap2(m, v(0), ap(p, vec![v(1)])),
            ),
            equation("pseudo_bot", s, ap2(m, v(0), ap(p, vec![o()])), v(0)),
            equation("pseudo_top", s, ap(p, vec![ap(p, vec![o()])]), o()),
        ]
    }

    /// The relative pseudocomplement (Heyting implication) laws for `i`.
    pub fn relative_pseudocomplement(&self, i: FuncId, (_, top): (FuncId, FuncId)) -> Vec<Axiom> {
        let (m, s) = (self.meet, self.sort);
        let imp = |a, b| ap2(i, a, b);
        vec![
            equation("imp_self", s, imp(v(0), v(0)), ap(top, vec![])),
            equation(
                "imp_meet",
                s,
                ap2(m, v(0), imp(v(0), v(1))),
                ap2(m, v(0), v(1)),
            ),
            equation("imp_absorb", s, ap2(m, v(1), imp(v(0), v(1))), v(1)),
            equation(
                "imp_distrib",
                s,
                imp(v(0), ap2(m, v(1), v(2))),
                ap2(m, imp(v(0), v(1)), imp(v(0), v(2))),
            ),
        ]
    }
}

/// Every expansion of the lattice `ops` in `t` that `t` does not have already: the bounds if it
/// has none, and each operation (with the bounds if it has none) unless an operation of `t`
/// satisfies its laws already.
pub fn expansions(t: &Theory, ops: &LatticeOps) -> Vec<Expansion> {
    let s = ops.sort;
    let next = t.sig.funcs.len() as u32;
    // The new operation's id, after the bounds when they are new too.
    let (bounds, bound_decls, bound_laws, op_id) = match ops.bounds {
        Some(b) => (b, vec![], vec![], FuncId(next)),
        None => {
            let (bot, top) = (FuncId(next), FuncId(next + 1));
            let names = fresh_names(t, &[&["bot", "zero_l"], &["top", "one_l"]]);
            (
                (bot, top),
                vec![
                    new_func(names[0].clone(), vec![], s),
                    new_func(names[1].clone(), vec![], s),
                ],
                vec![ops.least(bot), ops.greatest(top)],
                FuncId(next + 2),
            )
        }
    };
    let mut out = Vec::new();
    // The bounds are an expansion of their own, and go with each operation, when they are new.
    let bounded_words = match &bound_decls[..] {
        [bot, top] => {
            let words = format!(
                "a least element `{}` and a greatest `{}`",
                bot.name, top.name
            );
            out.push(Expansion {
                name: "bounds",
                funcs: bound_decls.clone(),
                axioms: bound_laws.clone(),
                description: words.clone(),
            });
            format!(", with {words}")
        }
        _ => String::new(),
    };
    // A lattice with one of these unary operations already is not given another.
    let has_unary = !operations_of(t, ops).is_empty();
    type Laws = fn(&LatticeOps, FuncId, (FuncId, FuncId)) -> Vec<Axiom>;
    let operations: [(&'static str, &[&str], usize, Laws, &str); 4] = [
        (
            "orthocomplement",
            &["c", "oc"],
            1,
            LatticeOps::orthocomplement,
            "an orthocomplement",
        ),
        (
            "de_morgan_negation",
            &["c", "neg_l"],
            1,
            |o, c, _| o.de_morgan_negation(c),
            "a De Morgan negation (an order-reversing involution)",
        ),
        (
            "pseudocomplement",
            &["pc", "pseudo"],
            1,
            LatticeOps::pseudocomplement,
            "a pseudocomplement",
        ),
        (
            "relative_pseudocomplement",
            &["imp", "rpc"],
            2,
            LatticeOps::relative_pseudocomplement,
            "a relative pseudocomplement (Heyting implication)",
        ),
    ];
    for (name, names, arity, laws, what) in operations {
        let existing = if arity == 1 {
            has_unary
        } else {
            binary_ops(&t.sig)
                .into_iter()
                .any(|(f, fs)| fs == s && laws(ops, f, bounds).iter().all(|a| has_axiom(t, a)))
        };
        if existing {
            continue;
        }
        let symbol = fresh_names(t, &[names]).remove(0);
        let mut funcs = bound_decls.clone();
        funcs.push(new_func(symbol.clone(), vec![s; arity], s));
        let mut axioms = bound_laws.clone();
        axioms.extend(laws(ops, op_id, bounds));
        out.push(Expansion {
            name,
            funcs,
            axioms,
            description: format!("{what} `{symbol}`{bounded_words}"),
        });
    }
    out
}

/// For each list of names, [`fresh_from`] it: a name that neither `t` nor an earlier list uses.
fn fresh_names(t: &Theory, lists: &[&[&str]]) -> Vec<String> {
    let mut sig = (*t.sig).clone();
    lists
        .iter()
        .map(|names| {
            let name = fresh_from(&sig, names);
            // Declared, so that the next list's name differs from it.
            sig.funcs.push(new_func(name.clone(), vec![], SortId(0)));
            name
        })
        .collect()
}

/// The unary operations of `t` on `ops`' sort that are orthocomplements, De Morgan negations,
/// pseudocomplements or complements (`x ∧ c(x) = bot`, `x ∨ c(x) = top`) of the bounded lattice
/// `ops`, by kind (for the laws of [`super::families`], which has none for complements alone).
pub fn operations_of(t: &Theory, ops: &LatticeOps) -> Vec<(&'static str, FuncId)> {
    let Some(bounds) = ops.bounds else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (c, s) in unary_ops(&t.sig) {
        if s != ops.sort {
            continue;
        }
        let holds = |laws: &[Axiom]| laws.iter().all(|a| has_axiom(t, a));
        let ortho = ops.orthocomplement(c, bounds);
        if holds(&ortho) {
            out.push(("orthocomplement", c));
        } else if holds(&ops.de_morgan_negation(c)) {
            out.push(("de_morgan_negation", c));
        } else if holds(&ortho[1..3]) {
            // Complements alone (a Boolean algebra's): no family law, but no second negation.
            out.push(("complement", c));
        }
        if holds(&ops.pseudocomplement(c, bounds)) {
            out.push(("pseudocomplement", c));
        }
    }
    out
}
