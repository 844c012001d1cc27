//! egg's explanation of an equality, read back into certificate steps and lemmas.
//!
//! egg explains why two terms are equal as a tree of proofs: a sequence of terms, each one rule
//! application (at the root) away from the last or equal to it, where each term carries one
//! sub-proof per argument (congruence). Sub-proofs are shared through `Rc`, so the tree is really a DAG.
//! Flattening it into one chain of whole terms, as egg's `make_flat_explanation` does, repeats a
//! shared sub-proof at every use, and the chain can grow exponentially: for a unital ring with
//! x·x = x and the goal x·y = y·x we measured a DAG of about 2 900 nodes whose flat chain would
//! have about 1.5·10⁸ steps (minutes to build, unbounded by any time limit). Here every shared
//! sub-proof becomes one [`Lemma`], proved once and used as a single step wherever it recurs, so
//! the certificate grows linearly with the DAG; reading stops at a step limit and a deadline.

use super::certificate::{self, Binding, Direction, Justification, Lemma, Step};
use super::rewrite::matches;
use super::saturation::{print, RuleId};
use birkhoff_engine::signature::{FuncId, Signature};
use birkhoff_engine::syntax::Term;
use birkhoff_engine::Theory;
use egg::{SymbolLang, TreeTerm};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

type Tree = Rc<TreeTerm<SymbolLang>>;

/// A tree node's identity: egg shares sub-proofs by `Rc`, so the pointer is the node.
fn key(t: &Tree) -> *const TreeTerm<SymbolLang> {
    Rc::as_ptr(t)
}

/// Where reading must stop.
pub struct Limits {
    /// Most steps in all (lemmas included).
    pub max_steps: usize,
    /// Give up after this instant.
    pub deadline: Instant,
}

/// One end of a proof.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum End {
    First,
    Last,
}

/// Reads one explanation; holds the lemmas made so far.
struct Reader<'a> {
    theory: &'a Theory,
    sig: &'a Signature,
    limits: &'a Limits,
    /// How many times each node occurs as a sub-proof element.
    uses: HashMap<*const TreeTerm<SymbolLang>, usize>,
    /// Each node's terms at either end of its proof, once computed.
    ends: HashMap<(*const TreeTerm<SymbolLang>, End), Term>,
    lemma_of: HashMap<*const TreeTerm<SymbolLang>, usize>,
    lemmas: Vec<Lemma>,
    steps: usize,
}

/// The steps of the explanation `trees` (a proof from its first term to its last), and the
/// lemmas they use. `Err` says why not: a limit, or an explanation this reader cannot follow.
pub fn read(
    theory: &Theory,
    sig: &Signature,
    trees: &[Tree],
    limits: &Limits,
) -> Result<(Vec<Step>, Vec<Lemma>), String> {
    let mut r = Reader {
        theory,
        sig,
        limits,
        uses: HashMap::new(),
        ends: HashMap::new(),
        lemma_of: HashMap::new(),
        lemmas: Vec::new(),
        steps: 0,
    };
    trees.iter().for_each(|t| r.count_uses(t));
    let Some(start) = trees.first() else {
        return Err("internal: empty explanation".into());
    };
    let mut whole = r.first_term(start)?;
    let mut steps = Vec::new();
    r.chain(trees, &mut whole, &mut Vec::new(), &mut steps)?;
    Ok((steps, r.lemmas))
}

impl Reader<'_> {
    fn count_uses(&mut self, t: &Tree) {
        let n = self.uses.entry(key(t)).or_insert(0);
        *n += 1;
        if *n == 1 {
            t.child_proofs
                .iter()
                .flatten()
                .for_each(|c| self.count_uses(c));
        }
    }

    fn symbol(t: &Tree) -> Result<FuncId, String> {
        t.node
            .op
            .as_str()
            .strip_prefix('f')
            .and_then(|s| s.parse().ok())
            .map(FuncId)
            .ok_or_else(|| "internal: unreadable explanation term".into())
    }

    /// The term a node's proof starts from.
    fn first_term(&mut self, t: &Tree) -> Result<Term, String> {
        self.end_term(t, End::First)
    }

    /// The term a node's proof ends at.
    fn last_term(&mut self, t: &Tree) -> Result<Term, String> {
        self.end_term(t, End::Last)
    }

    /// A node's term at one end of its proof: its symbol over that end of each argument's proof.
    fn end_term(&mut self, t: &Tree, end: End) -> Result<Term, String> {
        if let Some(term) = self.ends.get(&(key(t), end)) {
            return Ok(term.clone());
        }
        let mut args = Vec::with_capacity(t.child_proofs.len());
        for proof in &t.child_proofs {
            let child = match end {
                End::First => proof.first(),
                End::Last => proof.last(),
            };
            args.push(self.end_term(child.ok_or("internal: empty sub-proof")?, end)?);
        }
        let term = Term::App(Self::symbol(t)?, args);
        self.ends.insert((key(t), end), term.clone());
        Ok(term)
    }

    /// Records one step: `whole` becomes `whole` with `new` at `at`.
    fn push(
        &mut self,
        by: Justification,
        direction: Direction,
        at: &[usize],
        new: Term,
        whole: &mut Term,
        out: &mut Vec<Step>,
    ) -> Result<(), String> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(format!(
                "egg joined the sides, but its proof has more than {} steps",
                self.limits.max_steps
            ));
        }
        if Instant::now() > self.limits.deadline {
            return Err("egg joined the sides, but time ran out while reading its proof".into());
        }
        *whole = certificate::replace(whole, at, new)
            .ok_or("internal: explanation position does not exist")?;
        out.push(Step {
            by,
            direction,
            position: at.to_vec(),
            result: whole.clone(),
            text: print(self.sig, whole),
        });
        Ok(())
    }

    /// The steps of a proof sequence applied at `at` inside `whole`, whose subterm there is the
    /// sequence's first term.
    fn chain(
        &mut self,
        seq: &[Tree],
        whole: &mut Term,
        at: &mut Vec<usize>,
        out: &mut Vec<Step>,
    ) -> Result<(), String> {
        for (k, t) in seq.iter().enumerate() {
            let rule = t.forward_rule.or(t.backward_rule);
            match (k, rule) {
                (0, None) => {}
                (0, Some(_)) => return Err("internal: an explanation starts with a rewrite".into()),
                // A node without a rule continues the proof by congruence from where the last
                // one ended (egg merges the two terms when it flattens).
                (_, None) => {
                    if self.last_term(&seq[k - 1])? != self.first_term(t)? {
                        return Err("internal: explanation step without a rewrite".into());
                    }
                }
                (_, Some(rule)) => {
                    let old = self.last_term(&seq[k - 1])?;
                    let new = self.first_term(t)?;
                    let rule = RuleId::parse(rule.as_str())
                        .ok_or("internal: unknown rule in explanation")?;
                    let (by, direction) = self
                        .axiom_step(rule, &old, &new)
                        .ok_or("internal: explanation step does not match its rule")?;
                    self.push(by, direction, at, new, whole, out)?;
                }
            }
            self.congruence(t, whole, at, out)?;
        }
        Ok(())
    }

    /// The steps from a node's first term to its last, argument by argument; a node used more
    /// than once becomes a lemma, used here in one step.
    fn congruence(
        &mut self,
        t: &Tree,
        whole: &mut Term,
        at: &mut Vec<usize>,
        out: &mut Vec<Step>,
    ) -> Result<(), String> {
        let last = self.last_term(t)?;
        if self.first_term(t)? == last {
            return Ok(());
        }
        if self.uses[&key(t)] > 1 {
            let lemma = self.lemma(t)?;
            return self.push(
                Justification::Lemma {
                    lemma,
                    substitution: Vec::new(),
                },
                Direction::LeftToRight,
                at,
                last,
                whole,
                out,
            );
        }
        for (i, proof) in t.child_proofs.iter().enumerate() {
            at.push(i);
            self.chain(proof, whole, at, out)?;
            at.pop();
        }
        Ok(())
    }

    /// The index of the lemma "first term = last term" of `t`, proving it the first time.
    fn lemma(&mut self, t: &Tree) -> Result<usize, String> {
        if let Some(&i) = self.lemma_of.get(&key(t)) {
            return Ok(i);
        }
        let (lhs, rhs) = (self.first_term(t)?, self.last_term(t)?);
        let mut whole = lhs.clone();
        let mut steps = Vec::new();
        for (i, proof) in t.child_proofs.iter().enumerate() {
            self.chain(proof, &mut whole, &mut vec![i], &mut steps)?;
        }
        let text = format!("{} = {}", print(self.sig, &lhs), print(self.sig, &rhs));
        self.lemmas.push(Lemma {
            variables: Vec::new(),
            lhs,
            rhs,
            text,
            steps,
        });
        self.lemma_of.insert(key(t), self.lemmas.len() - 1);
        Ok(self.lemmas.len() - 1)
    }

    /// The axiom step of `rule` taking `old` to `new` (at the root of both), in whichever
    /// direction matches, with its substitution recovered by matching.
    fn axiom_step(
        &self,
        rule: RuleId,
        old: &Term,
        new: &Term,
    ) -> Option<(Justification, Direction)> {
        let axiom = &self.theory.axioms[rule.axiom];
        let &(l, r) = certificate::equations(axiom).get(rule.part)?;
        for (direction, from, to) in [
            (Direction::LeftToRight, l, r),
            (Direction::RightToLeft, r, l),
        ] {
            let mut sub = vec![None; axiom.vars.len()];
            if matches(from, old, &mut sub) && matches(to, new, &mut sub) {
                let substitution = axiom
                    .vars
                    .iter()
                    .zip(sub)
                    .filter_map(|(d, t)| {
                        t.map(|term| Binding {
                            var: d.name.clone(),
                            term: term.clone(),
                        })
                    })
                    .collect();
                return Some((
                    Justification::Axiom {
                        axiom: axiom.name.clone(),
                        part: rule.part,
                        substitution,
                    },
                    direction,
                ));
            }
        }
        None
    }
}
