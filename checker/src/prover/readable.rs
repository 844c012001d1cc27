//! Proofs for people: a [`Certificate`] rendered as numbered equational steps, each naming the
//! axiom or lemma it uses, the direction and the position it rewrites, with long proofs folded
//! into lemmas as a person would write them. `prove`, `library show`, the agent's cycle reports
//! and the paper writer all print proofs through [`render`].
//!
//! A certificate as found by saturation is not written for reading: egg's chains take detours
//! (`t → e * t → e * (e * t) → e * e * t → e * t`), lemmas are shared sub-proofs of any length, and
//! the main chain of a hard theorem runs to thousands of steps. [`render`] rewrites it, keeping
//! every step a single rewrite:
//! 1. lemmas used once, or proved in one step, are put back in place (positions and terms moved
//!    under the place of use);
//! 2. detours are cut: when a term recurs in a chain, the steps between are dropped;
//! 3. a chain longer than [`Layout::max_chain`] has its runs of steps inside one subterm folded
//!    into a lemma about that subterm (the run "works on the left factor", say), and if it is
//!    still too long it is cut into consecutive claims, each a lemma, until every chain fits;
//! 4. lemmas are numbered in the order a reader needs them (each before its first use), and
//!    statements that recur are proved once.
//!
//! The result is data ([`ReadableProof`], serialisable) and text (its `Display`). [`recheck`]
//! checks the rendering itself, from its text: it parses every term back with the theory's
//! parser and confirms that each step is one rewrite by the named axiom or lemma, in the named
//! direction, at the named position. It does not use the certificate, so a rendering bug cannot
//! hide behind a correct certificate.

use super::certificate::{
    self, declaring, extended_signature, replace, sort_in, subterm, Certificate, Direction,
    GoalConstant, Justification, Rejected,
};
use super::rewrite::matches;
use super::saturation::print;
use birkhoff_engine::parse::parse_formula;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, Signature, SortId};
use birkhoff_engine::syntax::{Axiom, Formula, Term};
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::time::Instant;

/// How a proof is laid out.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Longest chain of steps (the theorem's or a lemma's) before it is folded into lemmas.
    pub max_chain: usize,
    /// Shortest run of steps inside one subterm that is worth a lemma of its own.
    pub min_run: usize,
    /// Give up (with [`RenderError::Deadline`]) after this instant: rendering counts against the
    /// caller's time limit.
    pub deadline: Option<Instant>,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            max_chain: 12,
            min_run: 3,
            deadline: None,
        }
    }
}

/// Why a certificate was not rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The certificate does not replay (render only checked certificates).
    #[error("{0}")]
    Rejected(#[from] Rejected),
    /// The deadline passed first.
    #[error("the time limit was reached while rendering the proof")]
    Deadline,
}

/// What a step rewrites with.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// An axiom of the theory (its `part`-th equation when it is a conjunction, see
    /// [`certificate::equations`]).
    Axiom {
        /// The axiom's name.
        name: String,
        /// Which equation of the axiom; 0 for a plain equation.
        part: usize,
    },
    /// A lemma of this proof, numbered from 1.
    Lemma {
        /// The lemma's number.
        number: usize,
    },
}

/// One numbered step: the term it gives and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadableStep {
    /// The whole term after the step, as text in the theory's syntax.
    pub term: String,
    /// The equation used.
    pub by: Reason,
    /// Whether the equation is used from right to left.
    pub reversed: bool,
    /// Where it rewrites: argument numbers from 1 on the path from the root; empty at the root.
    pub position: Vec<usize>,
    /// The subterm it replaces, as text (for people; [`recheck`] reads `term` and `position`).
    pub rewrites: String,
}

/// A chain of steps from a first term.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// The term the chain starts from.
    pub start: String,
    /// The steps, each from the term before it.
    pub steps: Vec<ReadableStep>,
}

/// A lemma: an equation between terms in the theorem's variables and its own, with its proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadableLemma {
    /// Its number, from 1, in the order lemmas are proved.
    pub number: usize,
    /// Its own variables, with their sorts: it holds for all their values, and a step uses it at
    /// an instance, as it uses an axiom (none when it is about the theorem's variables alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<GoalConstant>,
    /// The left side.
    pub lhs: String,
    /// The right side.
    pub rhs: String,
    /// Its proof: a chain from `lhs` to `rhs` using the axioms and lemmas with smaller numbers.
    pub proof: Chain,
}

/// A proof laid out for reading: lemmas, then the theorem's own chain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadableProof {
    /// The theory's name.
    pub theory: String,
    /// The theorem's variables (arbitrary elements throughout the proof), with their sorts.
    pub variables: Vec<GoalConstant>,
    /// The theorem's left side.
    pub lhs: String,
    /// The theorem's right side.
    pub rhs: String,
    /// Statements proved before, which the steps use as axioms by name (each with a proof of
    /// its own: [`certificate::Cited`]), as (name, statement).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cited: Vec<(String, String)>,
    /// The lemmas, each proved before it is used.
    pub lemmas: Vec<ReadableLemma>,
    /// The theorem's chain from `lhs` to `rhs`.
    pub proof: Chain,
}

impl ReadableProof {
    /// Steps in all, lemmas included.
    pub fn total_steps(&self) -> usize {
        self.proof.steps.len()
            + self
                .lemmas
                .iter()
                .map(|l| l.proof.steps.len())
                .sum::<usize>()
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering.

/// A step while the proof is rearranged: terms are ground terms of the extended signature.
#[derive(Clone, Debug)]
struct WorkStep {
    by: WorkReason,
    dir: Direction,
    pos: Vec<usize>,
    result: Term,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum WorkReason {
    Axiom {
        name: String,
        part: usize,
    },
    /// Index into [`Work::chains`], and a value for each of that chain's variables.
    Lemma(usize, Vec<Term>),
}

/// An equation with its chain, over its variables `vars` (`Term::Var(i)` is the `i`-th; none
/// for the theorem and ground lemmas). The theorem is one of them.
#[derive(Clone, Debug)]
struct WorkChain {
    vars: Vec<GoalConstant>,
    lhs: Term,
    rhs: Term,
    steps: Vec<WorkStep>,
}

impl WorkChain {
    /// The term before step `k`.
    fn before(&self, k: usize) -> &Term {
        if k == 0 {
            &self.lhs
        } else {
            &self.steps[k - 1].result
        }
    }
}

struct Work {
    chains: Vec<WorkChain>,
    /// Lemma statements already made, so that one proved twice is proved once.
    known: HashMap<(Vec<GoalConstant>, Term, Term), usize>,
    layout: Layout,
}

impl Work {
    fn check_time(&self) -> Result<(), RenderError> {
        match self.layout.deadline {
            Some(d) if Instant::now() >= d => Err(RenderError::Deadline),
            _ => Ok(()),
        }
    }

    /// How often each chain is used as a lemma step.
    fn uses(&self) -> Vec<usize> {
        let mut n = vec![0; self.chains.len()];
        for c in &self.chains {
            for s in &c.steps {
                if let WorkReason::Lemma(j, _) = s.by {
                    n[j] += 1;
                }
            }
        }
        n
    }

    /// Step 1: lemmas used once or proved in one step are put back where they are used.
    /// `order` lists chains so that a lemma comes before every chain using it (certificate order).
    fn inline(&mut self, order: &[usize]) -> Result<(), RenderError> {
        let uses = self.uses();
        let inlinable: Vec<bool> = self
            .chains
            .iter()
            .zip(&uses)
            .map(|(c, &n)| n == 1 || c.steps.len() == 1)
            .collect();
        for &c in order {
            self.check_time()?;
            if !self.chains[c]
                .steps
                .iter()
                .any(|s| matches!(s.by, WorkReason::Lemma(j, _) if inlinable[j]))
            {
                continue;
            }
            let old = std::mem::take(&mut self.chains[c].steps);
            let mut current = self.chains[c].lhs.clone();
            let mut steps = Vec::with_capacity(old.len());
            for (i, s) in old.into_iter().enumerate() {
                if i % 16 == 15 {
                    self.check_time()?;
                }
                match s.by {
                    WorkReason::Lemma(j, ref values) if inlinable[j] => {
                        let lemma = &self.chains[j];
                        // An open lemma's steps, at the instance it is used at.
                        let at_use = |t: &Term| {
                            certificate::substitute(t, &|v| values.get(v.0 as usize).cloned())
                                .ok_or_else(|| Rejected("a lemma used without a value".into()))
                        };
                        let inner: Vec<&WorkStep> = match s.dir {
                            Direction::LeftToRight => lemma.steps.iter().collect(),
                            Direction::RightToLeft => lemma.steps.iter().rev().collect(),
                        };
                        // Read backwards, a chain's k-th step leads to the term before it.
                        for (k, t) in inner.iter().enumerate() {
                            let target = at_use(match s.dir {
                                Direction::LeftToRight => &t.result,
                                Direction::RightToLeft => lemma.before(lemma.steps.len() - 1 - k),
                            })?;
                            let dir = match s.dir {
                                Direction::LeftToRight => t.dir,
                                Direction::RightToLeft => flip(t.dir),
                            };
                            let pos: Vec<usize> = s.pos.iter().chain(&t.pos).copied().collect();
                            current = replace(&current, &s.pos, target).ok_or_else(|| {
                                Rejected("a lemma step at a missing position".into())
                            })?;
                            let by = match &t.by {
                                WorkReason::Lemma(i, inner) => WorkReason::Lemma(
                                    *i,
                                    inner.iter().map(at_use).collect::<Result<_, _>>()?,
                                ),
                                axiom => axiom.clone(),
                            };
                            steps.push(WorkStep {
                                by,
                                dir,
                                pos,
                                result: current.clone(),
                            });
                        }
                    }
                    _ => {
                        current = s.result.clone();
                        steps.push(s);
                    }
                }
            }
            self.chains[c].steps = steps;
        }
        Ok(())
    }

    /// Step 2: when a term recurs in a chain, the steps between its occurrences are dropped.
    fn cut_detours(&mut self, c: usize) -> Result<(), RenderError> {
        let deadline = self.layout.deadline;
        let chain = &mut self.chains[c];
        let mut seen: HashMap<Term, usize> = HashMap::from([(chain.lhs.clone(), 0)]);
        let mut kept: Vec<WorkStep> = Vec::with_capacity(chain.steps.len());
        for (i, s) in std::mem::take(&mut chain.steps).into_iter().enumerate() {
            // Steps can hold terms of thousands of symbols, each hashed here: look at the clock
            // every few steps, not once per chain.
            if i % 16 == 15 && deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(RenderError::Deadline);
            }
            if let Some(&k) = seen.get(&s.result) {
                for dropped in kept.drain(k..) {
                    seen.remove(&dropped.result);
                }
                continue;
            }
            seen.insert(s.result.clone(), kept.len() + 1);
            kept.push(s);
        }
        chain.steps = kept;
        Ok(())
    }

    /// A lemma `lhs = rhs` over the variables `vars` proved by `steps`, or the same statement
    /// proved before.
    fn lemma(
        &mut self,
        vars: Vec<GoalConstant>,
        lhs: Term,
        rhs: Term,
        steps: Vec<WorkStep>,
    ) -> usize {
        let key = (vars, lhs, rhs);
        if let Some(&i) = self.known.get(&key) {
            return i;
        }
        let (vars, lhs, rhs) = key.clone();
        self.chains.push(WorkChain {
            vars,
            lhs,
            rhs,
            steps,
        });
        let i = self.chains.len() - 1;
        self.known.insert(key, i);
        i
    }

    /// A step by a lemma folded out of chain `c`: the lemma has `c`'s variables, and the step
    /// uses it with each for itself.
    fn folded_use(&self, c: usize, lemma: usize, pos: Vec<usize>, result: Term) -> WorkStep {
        let identity = (0..self.chains[c].vars.len() as u32)
            .map(|i| Term::Var(birkhoff_engine::syntax::VarId(i)))
            .collect();
        WorkStep {
            by: WorkReason::Lemma(lemma, identity),
            dir: Direction::LeftToRight,
            pos,
            result,
        }
    }

    /// Step 3: folds a long chain into lemmas; the lemmas it uses are pushed on `todo` to be
    /// folded too (a chain is folded once: see [`render`]).
    fn fold(&mut self, c: usize, todo: &mut Vec<usize>) -> Result<(), RenderError> {
        if self.chains[c].steps.len() <= self.layout.max_chain {
            return Ok(());
        }
        self.fold_runs(c, todo)?;
        while self.chains[c].steps.len() > self.layout.max_chain {
            self.check_time()?;
            self.split(c, todo);
        }
        Ok(())
    }

    /// Runs of at least `min_run` consecutive steps below one position become one lemma step
    /// about the subterm there (a run is extended while its steps share a position prefix).
    fn fold_runs(&mut self, c: usize, todo: &mut Vec<usize>) -> Result<(), RenderError> {
        let steps = std::mem::take(&mut self.chains[c].steps);
        let lhs = self.chains[c].lhs.clone();
        let mut out: Vec<WorkStep> = Vec::with_capacity(steps.len());
        let mut i = 0;
        while i < steps.len() {
            self.check_time()?;
            let mut prefix: &[usize] = &steps[i].pos;
            let mut j = i + 1;
            while j < steps.len() {
                let common = common_prefix(prefix, &steps[j].pos);
                if common == 0 {
                    break;
                }
                prefix = &prefix[..common];
                j += 1;
            }
            // A run that is the whole chain is the chain itself: nothing to fold.
            if prefix.is_empty() || j - i < self.layout.min_run || (i == 0 && j == steps.len()) {
                out.push(steps[i].clone());
                i += 1;
                continue;
            }
            let before = if i == 0 { &lhs } else { &steps[i - 1].result };
            let at = |t: &Term| {
                subterm(t, prefix).cloned().ok_or_else(|| {
                    RenderError::Rejected(Rejected("a step at a missing position".into()))
                })
            };
            let inner: Vec<WorkStep> = steps[i..j]
                .iter()
                .map(|s| {
                    Ok(WorkStep {
                        by: s.by.clone(),
                        dir: s.dir,
                        pos: s.pos[prefix.len()..].to_vec(),
                        result: at(&s.result)?,
                    })
                })
                .collect::<Result<_, RenderError>>()?;
            let (l, r) = (at(before)?, at(&steps[j - 1].result)?);
            let lemma = self.lemma(self.chains[c].vars.clone(), l, r, inner);
            todo.push(lemma);
            out.push(self.folded_use(c, lemma, prefix.to_vec(), steps[j - 1].result.clone()));
            i = j;
        }
        self.chains[c].steps = out;
        Ok(())
    }

    /// Cuts a chain into consecutive claims of at most `max_chain` steps each, every claim a
    /// lemma used at the root.
    fn split(&mut self, c: usize, todo: &mut Vec<usize>) {
        let steps = std::mem::take(&mut self.chains[c].steps);
        let parts = steps.len().div_ceil(self.layout.max_chain);
        let size = steps.len().div_ceil(parts);
        let mut from = self.chains[c].lhs.clone();
        let mut out = Vec::with_capacity(parts);
        for part in steps.chunks(size) {
            let to = part[part.len() - 1].result.clone();
            let step = if part.len() == 1 {
                part[0].clone()
            } else {
                let lemma =
                    self.lemma(self.chains[c].vars.clone(), from, to.clone(), part.to_vec());
                todo.push(lemma);
                self.folded_use(c, lemma, vec![], to.clone())
            };
            out.push(step);
            from = to;
        }
        self.chains[c].steps = out;
    }

    /// Step 4: the lemmas the theorem needs, each after the lemmas it uses.
    fn reading_order(&self, main: usize) -> Vec<usize> {
        let mut order = Vec::new();
        let mut state = vec![0u8; self.chains.len()]; // 0 new, 1 open, 2 done
        let mut stack = vec![(main, 0usize)];
        state[main] = 1;
        while let Some((c, k)) = stack.pop() {
            if let Some(s) = self.chains[c].steps.get(k) {
                stack.push((c, k + 1));
                if let WorkReason::Lemma(j, _) = s.by {
                    if state[j] == 0 {
                        state[j] = 1;
                        stack.push((j, 0));
                    }
                }
            } else {
                state[c] = 2;
                if c != main {
                    order.push(c);
                }
            }
        }
        order
    }
}

fn flip(d: Direction) -> Direction {
    match d {
        Direction::LeftToRight => Direction::RightToLeft,
        Direction::RightToLeft => Direction::LeftToRight,
    }
}

fn common_prefix(a: &[usize], b: &[usize]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Renders a certificate for reading (see the module doc). The certificate is checked first
/// ([`certificate::check`]), so only a valid proof is ever shown as one.
pub fn render(
    theory: &Theory,
    goal: &Axiom,
    cert: &Certificate,
    layout: &Layout,
) -> Result<ReadableProof, RenderError> {
    // The renderer trusts the certificate's positions and lemmas: it is replayed first.
    if !certificate::check_before(theory, goal, cert, layout.deadline)? {
        return Err(RenderError::Deadline);
    }
    let ext = extended_signature(&theory.sig, &cert.constants)?;
    let step = |s: &certificate::Step| WorkStep {
        by: match &s.by {
            Justification::Axiom { axiom, part, .. } => WorkReason::Axiom {
                name: axiom.clone(),
                part: *part,
            },
            Justification::Lemma {
                lemma,
                substitution,
            } => WorkReason::Lemma(*lemma, substitution.clone()),
        },
        dir: s.direction,
        pos: s.position.clone(),
        result: s.result.clone(),
    };
    let mut chains: Vec<WorkChain> = cert
        .lemmas
        .iter()
        .map(|l| WorkChain {
            vars: l.variables.clone(),
            lhs: l.lhs.clone(),
            rhs: l.rhs.clone(),
            steps: l.steps.iter().map(step).collect(),
        })
        .collect();
    let main = chains.len();
    chains.push(WorkChain {
        vars: Vec::new(),
        lhs: cert.lhs.clone(),
        rhs: cert.rhs.clone(),
        steps: cert.steps.iter().map(step).collect(),
    });
    let known = chains[..main]
        .iter()
        .enumerate()
        .map(|(i, c)| ((c.vars.clone(), c.lhs.clone(), c.rhs.clone()), i))
        .collect();
    let mut work = Work {
        chains,
        known,
        layout: *layout,
    };
    let order: Vec<usize> = (0..=main).collect();
    work.inline(&order)?;
    for c in 0..=main {
        work.cut_detours(c)?;
    }
    // Only what the theorem still uses is folded and shown.
    let mut todo: Vec<usize> = work.reading_order(main);
    todo.push(main);
    let mut folded = vec![false; work.chains.len()];
    while let Some(c) = todo.pop() {
        folded.resize(work.chains.len(), false);
        if std::mem::replace(&mut folded[c], true) {
            continue;
        }
        work.check_time()?;
        work.fold(c, &mut todo)?;
    }
    let order = work.reading_order(main);
    let number: HashMap<usize, usize> =
        order.iter().enumerate().map(|(k, &c)| (c, k + 1)).collect();
    let chain = |c: &WorkChain| -> Result<Chain, RenderError> {
        work.check_time()?;
        let names = declaring(&ext, &c.vars);
        let printer = FormulaPrinter::new(&ext, &names);
        let text = |t: &Term| printer.term(t);
        let steps = c
            .steps
            .iter()
            .enumerate()
            .map(|(k, s)| ReadableStep {
                term: text(&s.result),
                by: match &s.by {
                    WorkReason::Axiom { name, part } => Reason::Axiom {
                        name: name.clone(),
                        part: *part,
                    },
                    WorkReason::Lemma(j, _) => Reason::Lemma { number: number[j] },
                },
                reversed: s.dir == Direction::RightToLeft,
                position: s.pos.iter().map(|i| i + 1).collect(),
                rewrites: subterm(c.before(k), &s.pos).map(text).unwrap_or_default(),
            })
            .collect();
        Ok(Chain {
            start: text(&c.lhs),
            steps,
        })
    };
    let lemmas = order
        .iter()
        .map(|&c| {
            let w = &work.chains[c];
            let proof = chain(w)?;
            let names = declaring(&ext, &w.vars);
            let printer = FormulaPrinter::new(&ext, &names);
            Ok(ReadableLemma {
                number: number[&c],
                variables: w.vars.clone(),
                lhs: printer.term(&w.lhs),
                rhs: printer.term(&w.rhs),
                proof,
            })
        })
        .collect::<Result<_, RenderError>>()?;
    let m = &work.chains[main];
    Ok(ReadableProof {
        theory: cert.theory.clone(),
        variables: cert.constants.clone(),
        lhs: print(&ext, &m.lhs),
        rhs: print(&ext, &m.rhs),
        // Those the steps use: a flattened certificate also lists what they rest on.
        cited: cert
            .cited
            .iter()
            .filter(|c| certificate::cites(cert, &c.name))
            .map(|c| (c.name.clone(), c.statement.clone()))
            .collect(),
        lemmas,
        proof: chain(m)?,
    })
}

// ---------------------------------------------------------------------------------------------
// Text.

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Axiom { name, part: 0 } => write!(f, "{name}"),
            Reason::Axiom { name, part } => write!(f, "{name} (equation {})", part + 1),
            Reason::Lemma { number } => write!(f, "Lemma {number}"),
        }
    }
}

impl fmt::Display for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "        {}", self.start)?;
        for (k, s) in self.steps.iter().enumerate() {
            let dir = if s.reversed { " (right to left)" } else { "" };
            let at = match s.position.as_slice() {
                [] => "at the root".to_string(),
                p => format!(
                    "at {}",
                    p.iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(".")
                ),
            };
            writeln!(f, "  {:>3}. = {}", k + 1, s.term)?;
            writeln!(
                f,
                "          by {}{dir}, {at}, rewriting {}",
                s.by, s.rewrites
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for ReadableProof {
    /// Lemmas first, each with its proof, then the theorem's; every step on two lines: the term
    /// it gives, then the equation used and where. Positions are argument numbers from the root
    /// (`2.1`: the first argument of the second argument).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, statement) in &self.cited {
            writeln!(f, "Cited, proved before: {name}: {statement}")?;
        }
        for l in &self.lemmas {
            writeln!(
                f,
                "Lemma {}. {}{} = {}",
                l.number,
                for_all(&l.variables),
                l.lhs,
                l.rhs
            )?;
            write!(f, "{}", l.proof)?;
        }
        writeln!(f, "Theorem. {} = {}", self.lhs, self.rhs)?;
        write!(f, "{}", self.proof)
    }
}

/// "For all x1, x2: " before an open lemma's statement; nothing before a ground one.
pub fn for_all(variables: &[GoalConstant]) -> String {
    if variables.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = variables.iter().map(|v| v.name.as_str()).collect();
    format!("For all {}: ", names.join(", "))
}

// ---------------------------------------------------------------------------------------------
// Re-checking a rendering from its text.

/// Checks a rendered proof from its text alone: every term parses in the theory's syntax, the
/// theorem's chain runs from `goal`'s left side to its right side, every lemma's chain from its
/// left side to its right side, and every step is exactly one rewrite by the named axiom
/// equation or earlier lemma, in the named direction, at the named position, with a well-sorted
/// instance. The theorem's variables are arbitrary elements: they match only themselves.
pub fn recheck(theory: &Theory, goal: &Axiom, proof: &ReadableProof) -> Result<(), Rejected> {
    let (constants, goal_lhs, goal_rhs) =
        certificate::goal_sides(&theory.sig, goal).map_err(Rejected)?;
    if proof.variables != constants {
        return Err(Rejected("the proof's variables are not the goal's".into()));
    }
    // The statements it cites are axioms here (the rendering is checked, not their proofs: the
    // certificate's check replays those).
    let with_cited;
    let theory = if proof.cited.is_empty() {
        theory
    } else {
        let named = proof.cited.iter().map(|(n, s)| (n.as_str(), s.as_str()));
        with_cited = certificate::with_citations(theory, named)?;
        &with_cited
    };
    let ext = extended_signature(&theory.sig, &proof.variables)?;
    let reader = TermReader {
        theory,
        ext: &ext,
        variables: &proof.variables,
    };
    let mut lemmas: Vec<ReadLemma> = Vec::with_capacity(proof.lemmas.len());
    for (i, l) in proof.lemmas.iter().enumerate() {
        let what = format!("Lemma {}", l.number);
        if l.number != i + 1 {
            return Err(Rejected(format!(
                "{what}: lemmas must be numbered 1, 2, ... in order"
            )));
        }
        let mut sorts = Vec::with_capacity(l.variables.len());
        for (k, v) in l.variables.iter().enumerate() {
            let clash = proof.variables.iter().chain(&l.variables[..k]);
            if clash.into_iter().any(|w| w.name == v.name) {
                return Err(Rejected(format!(
                    "{what}: the variable `{}` is named twice",
                    v.name
                )));
            }
            sorts
                .push(ext.sort(&v.sort).ok_or_else(|| {
                    Rejected(format!("{what}: `{}` has an unknown sort", v.name))
                })?);
        }
        let read = |t: &str| reader.read(t, &l.variables, &what);
        let (lhs, rhs) = (read(&l.lhs)?, read(&l.rhs)?);
        let own = ChainVariables {
            names: &l.variables,
            sorts: &sorts,
        };
        recheck_chain(theory, &reader, &lemmas, own, &lhs, &rhs, &l.proof, &what)?;
        lemmas.push(ReadLemma { lhs, rhs, sorts });
    }
    let (lhs, rhs) = (
        reader.read(&proof.lhs, &[], "the theorem")?,
        reader.read(&proof.rhs, &[], "the theorem")?,
    );
    if lhs != goal_lhs || rhs != goal_rhs {
        return Err(Rejected("the theorem stated is not the goal".into()));
    }
    let none = ChainVariables {
        names: &[],
        sorts: &[],
    };
    recheck_chain(
        theory,
        &reader,
        &lemmas,
        none,
        &lhs,
        &rhs,
        &proof.proof,
        "the theorem",
    )
}

/// A lemma as read back: its sides over its variables, of sorts `sorts`.
struct ReadLemma {
    lhs: Term,
    rhs: Term,
    sorts: Vec<SortId>,
}

/// The variables a chain's terms keep (an open lemma's), with their sorts.
#[derive(Clone, Copy)]
struct ChainVariables<'a> {
    names: &'a [GoalConstant],
    sorts: &'a [SortId],
}

/// Parses rendered terms back into ground terms of the extended signature.
struct TermReader<'a> {
    theory: &'a Theory,
    ext: &'a Signature,
    variables: &'a [GoalConstant],
}

impl TermReader<'_> {
    /// `text` as a term in which the theorem's variables are its constants and `own` (an open
    /// lemma's variables) are `Term::Var(i)`.
    fn read(&self, text: &str, own: &[GoalConstant], what: &str) -> Result<Term, Rejected> {
        // Quantified with their sorts, the theorem's variables parse as variables of known sort;
        // they then become the extended signature's constants.
        let binders: Vec<String> = self
            .variables
            .iter()
            .chain(own)
            .map(|v| format!("{}:{}", v.name, v.sort))
            .collect();
        let src = if binders.is_empty() {
            format!("{text} = {text}")
        } else {
            format!("all {}. ({text} = {text})", binders.join(" "))
        };
        let axiom = parse_formula(&self.theory.sig, &src, what)
            .map_err(|e| Rejected(format!("{what}: `{text}` does not parse: {e}")))?;
        let Formula::Eq(t, _) = axiom.formula.without_leading_foralls() else {
            return Err(Rejected(format!("{what}: `{text}` is not a term")));
        };
        let n = self.theory.sig.funcs.len() as u32;
        let value = |v: birkhoff_engine::syntax::VarId| {
            let name = &axiom.vars[v.0 as usize].name;
            let constant = self.variables.iter().position(|c| &c.name == name);
            let constant = constant.map(|i| Term::App(FuncId(n + i as u32), vec![]));
            let var = || own.iter().position(|c| &c.name == name);
            constant.or_else(|| var().map(|i| Term::Var(birkhoff_engine::syntax::VarId(i as u32))))
        };
        let t = certificate::substitute(t, &value).ok_or_else(|| {
            Rejected(format!(
                "{what}: `{text}` has a variable that is neither the theorem's nor the lemma's"
            ))
        })?;
        let sorts: Vec<SortId> = own.iter().filter_map(|v| self.ext.sort(&v.sort)).collect();
        sort_in(self.ext, &sorts, &t)?;
        Ok(t)
    }
}

#[allow(clippy::too_many_arguments)]
fn recheck_chain(
    theory: &Theory,
    reader: &TermReader,
    lemmas: &[ReadLemma],
    own: ChainVariables,
    lhs: &Term,
    rhs: &Term,
    chain: &Chain,
    what: &str,
) -> Result<(), Rejected> {
    let sort = |t: &Term| sort_in(reader.ext, own.sorts, t);
    let start = reader.read(&chain.start, own.names, what)?;
    if start != *lhs {
        return Err(Rejected(format!(
            "{what}: the chain does not start at the left side"
        )));
    }
    if sort(lhs)? != sort(rhs)? {
        return Err(Rejected(format!(
            "{what}: the two sides have different sorts"
        )));
    }
    let mut current = start;
    for (k, s) in chain.steps.iter().enumerate() {
        let at = |msg: &str| Rejected(format!("{what}, step {}: {msg}", k + 1));
        let next = reader.read(&s.term, own.names, what)?;
        let pos: Vec<usize> = s
            .position
            .iter()
            .map(|&i| i.checked_sub(1).ok_or_else(|| at("positions count from 1")))
            .collect::<Result<_, _>>()?;
        let (Some(old), Some(new)) = (subterm(&current, &pos), subterm(&next, &pos)) else {
            return Err(at("the position does not exist"));
        };
        if replace(&current, &pos, new.clone()).as_ref() != Some(&next) {
            return Err(at("the term changes outside the stated position"));
        }
        let one_rewrite = match &s.by {
            Reason::Axiom { name, part } => {
                let axiom = theory
                    .axiom(name)
                    .ok_or_else(|| at(&format!("no axiom `{name}`")))?;
                let eqs = certificate::equations(axiom);
                let &(l, r) = eqs
                    .get(*part)
                    .ok_or_else(|| at(&format!("axiom `{name}` has no equation {}", part + 1)))?;
                let (from, to) = if s.reversed { (r, l) } else { (l, r) };
                let sorts: Vec<SortId> = axiom.vars.iter().map(|v| v.sort).collect();
                one_instance(from, to, &sorts, old, new, &sort)
            }
            Reason::Lemma { number } => {
                let l = number
                    .checked_sub(1)
                    .and_then(|i| lemmas.get(i))
                    .ok_or_else(|| at(&format!("Lemma {number} is not proved before this step")))?;
                let (from, to) = if s.reversed {
                    (&l.rhs, &l.lhs)
                } else {
                    (&l.lhs, &l.rhs)
                };
                one_instance(from, to, &l.sorts, old, new, &sort)
            }
        };
        if !one_rewrite {
            return Err(at(&format!(
                "this is not one rewrite by {}{}",
                s.by,
                if s.reversed { " (right to left)" } else { "" }
            )));
        }
        current = next;
    }
    if current != *rhs {
        return Err(Rejected(format!(
            "{what}: the chain does not end at the right side"
        )));
    }
    Ok(())
}

/// Whether `old → new` is an instance of `from → to` (over variables of sorts `sorts`) with
/// values of the right sorts, `sort` giving a value's sort.
fn one_instance(
    from: &Term,
    to: &Term,
    sorts: &[SortId],
    old: &Term,
    new: &Term,
    sort: &impl Fn(&Term) -> Result<SortId, Rejected>,
) -> bool {
    let mut sub = vec![None; sorts.len()];
    matches(from, old, &mut sub)
        && matches(to, new, &mut sub)
        && sub
            .iter()
            .zip(sorts)
            .all(|(b, &s)| b.as_ref().is_none_or(|b| sort(b).is_ok_and(|t| t == s)))
}
