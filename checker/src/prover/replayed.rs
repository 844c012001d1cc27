//! Proofs found by E and re-proved inference by inference with Z3 ([`prove`]): E's search, not
//! E's word.
//!
//! E decides first-order problems that neither completion nor Z3 alone decides in seconds: a
//! lattice given as an order proves meet associative in half a second, where Z3 gives up. Its
//! answer alone is evidence, never a proof ([`super::external`]). Here its derivation is read
//! back and every step of it is proved again, so that what is trusted is Z3 on one inference at a
//! time (or the rewriting kernel on one rewrite), this module's Skolemization and Birkhoff's TPTP
//! reader; not E.
//!
//! **Why a checked derivation proves the goal.**
//! 1. Birkhoff writes the problem itself ([`refutation_problem`]): the theory's axioms and the
//!    goal's negation (its free variables read as new constants), each put in negation normal
//!    form and Skolemized, so that no existential quantifier is left. A model of
//!    `theory ∧ ¬goal` expands to a model of the problem (interpret each Skolem symbol by a choice
//!    of witnesses), so if the problem has no model, neither has `theory ∧ ¬goal`.
//! 2. E refutes the problem and prints its derivation (`--proof-object`), every statement with
//!    the statements it rests on.
//! 3. Each statement is checked by Z3 with exactly the statements it cites: a statement E read
//!    from the file must follow from the problem's axiom of that name; an inference must follow
//!    from its premises (inferences nested in one statement are flattened to the named statements
//!    they rest on). Only inferences whose status E gives as `thm` (a logical consequence of the
//!    premises) are taken: a Skolemization or a definition of E's own (`esa`, `introduced`), or a
//!    premise that is not an earlier statement, rejects the derivation, and the answer is
//!    unknown. An inference on unit clauses (a superposition, possibly followed by rewrites) is
//!    first unfolded into single rewrites that Birkhoff's kernel checks (the `unfolded`
//!    module); only if no such chain is found does Z3 check it from its premises.
//! 4. A checked statement `$false` then follows from the problem's axioms, which therefore have
//!    no model: the theory proves the goal.

use super::transcribed::{Evidence, Statement};
use super::unfolded::{self, Nest};
use birkhoff_engine::canon;
use birkhoff_engine::interop::{self, tptp_read, Target};
use birkhoff_engine::signature::{Fixity, FuncDecl};
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarId};
use birkhoff_engine::Theory;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What came of asking E and checking its derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A derivation of `$false` on unit equations that the kernel checked link by link,
    /// transcribed as a certificate that [`certificate::check`](super::certificate::check)
    /// accepted.
    Certified {
        /// The certificate.
        certificate: super::certificate::Certificate,
    },
    /// A derivation of `$false` whose every step Z3 proved again (or the kernel replayed), not
    /// transcribed as a certificate.
    Proved {
        /// What was shown, in words: E's version and the number of steps checked.
        detail: String,
    },
    /// No checked derivation.
    Unknown {
        /// Why not.
        reason: String,
        /// Whether time ran out (more may decide), rather than E or the check failing for good.
        at_limit: bool,
    },
}

/// The share of the time E may search; the rest is for checking its derivation (the kernel takes
/// milliseconds a step, Z3 more on the steps it is left).
const SEARCH_SHARE: u32 = 80;

/// Whether `theory` proves `goal` (free variables universal), by a derivation E finds and Z3
/// checks step by step, all within `timeout` and `cancel`. Unknown when E is not on `PATH`, the
/// theory has more than one sort, E finds nothing in time, or any step fails its check.
pub fn prove(
    theory: &Theory,
    goal: &Axiom,
    timeout: Duration,
    cancel: Option<Arc<AtomicBool>>,
) -> Outcome {
    let start = Instant::now();
    let deadline = start + timeout;
    let for_good = |reason: String| Outcome::Unknown {
        reason,
        at_limit: false,
    };
    if !theory.sig.is_single_sorted() {
        return for_good("E's derivations are read for one sort only".into());
    }
    let problem = refutation_problem(theory, goal);
    let text = match interop::export(&problem, None, Target::Tptp) {
        Ok(text) => as_negated_conjecture(text),
        Err(e) => return for_good(format!("the problem cannot be written for E: {e}")),
    };
    let search = timeout * SEARCH_SHARE / 100;
    let output = match super::external::refute_with_e(&text, search, cancel.as_ref()) {
        Ok(super::external::Refutation::Found { output, version }) => (output, version),
        Ok(super::external::Refutation::NotFound { status, at_limit }) => {
            return Outcome::Unknown {
                reason: format!("E found no refutation ({status})"),
                at_limit,
            }
        }
        Err(e) => return for_good(e.to_string()),
    };
    let (output, version) = output;
    let steps = match derivation(&output) {
        Ok(steps) => steps,
        Err(why) => return for_good(format!("E's derivation was not taken: {why}")),
    };
    match check(&text, &steps, deadline, cancel) {
        Ok(checked) if checked.by_z3 == 0 => {
            let transcribed = super::transcribed::certificate(
                theory,
                goal,
                &problem,
                &checked.sig,
                &checked.statements,
            );
            match transcribed.map(|c| (super::certificate::check(theory, goal, &c), c)) {
                Ok((Ok(()), certificate)) => Outcome::Certified { certificate },
                // Not transcribed: E's proof stands as checked.
                _ => checked.outcome(&version, start),
            }
        }
        Ok(checked) => checked.outcome(&version, start),
        Err(Rejected { why, at_limit }) => Outcome::Unknown {
            reason: format!("E's derivation did not pass the check: {why}"),
            at_limit,
        },
    }
}

impl Checked {
    /// E's proof as checked, in words.
    fn outcome(&self, version: &str, start: Instant) -> Outcome {
        Outcome::Proved {
            detail: format!(
                "{version} refuted the axioms with the negated goal; of the derivation's {} \
                 steps, {} restate their premise, Z3 proved {} from the statements each cites, \
                 and Birkhoff's rewriting kernel replayed the inferences of {} in {} single \
                 rewrites and instances ({:.2} s in all)",
                self.by_z3 + self.unfolded + self.copies,
                self.copies,
                self.by_z3,
                self.unfolded,
                self.links,
                start.elapsed().as_secs_f64()
            ),
        }
    }
}

/// `text` with the negated goal's role `negated_conjecture` in place of `axiom`: E chooses its
/// search by the problem's goal (with every formula an axiom, it did not refute a group problem
/// in 6 s that it refutes in 0.2 s given the goal). Read back, the role is an axiom's.
fn as_negated_conjecture(text: String) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        match ["fof", "tff"].iter().find_map(|l| {
            line.strip_prefix(&format!("{l}(negated_goal, axiom,"))
                .map(|rest| (l, rest))
        }) {
            Some((language, rest)) => out.push_str(&format!(
                "{language}(negated_goal, negated_conjecture,{rest}"
            )),
            None => out.push_str(line),
        }
    }
    out
}

/// The problem E is given: `theory`'s axioms and `¬goal` with the goal's free variables as new
/// constants, each in negation normal form with its existential quantifiers replaced by new
/// Skolem functions of the universal variables in scope (named `bk_skN`, after the theory's own
/// functions). Its models are models of `theory ∧ ¬goal`, and each of those expands to one of it.
pub fn refutation_problem(theory: &Theory, goal: &Axiom) -> Theory {
    let mut out = theory.clone();
    out.axioms.clear();
    let negated = Axiom {
        name: "negated_goal".into(),
        formula: Formula::Exists(
            goal.free_vars(),
            Box::new(Formula::Not(Box::new(goal.formula.clone()))),
        ),
        vars: goal.vars.clone(),
        origin: None,
    };
    let mut fresh = 0;
    for axiom in theory.axioms.iter().map(|a| a.as_ref()).chain([&negated]) {
        let universal = axiom.free_vars();
        let body = nnf(&axiom.formula, true);
        let mut skolem = Skolem {
            theory: &mut out,
            axiom,
            fresh: &mut fresh,
        };
        let formula = skolem.formula(&body, &universal, &HashMap::new());
        out.axioms.push(Arc::new(Axiom {
            name: axiom.name.clone(),
            formula,
            vars: axiom.vars.clone(),
            origin: None,
        }));
    }
    out
}

/// `f` (or `¬f` when `positive` is false) in negation normal form: negations only on atoms, no
/// implication or equivalence.
fn nnf(f: &Formula, positive: bool) -> Formula {
    let both = |a: &Formula, b: &Formula, and: bool| {
        let (a, b) = (Box::new(nnf(a, positive)), Box::new(nnf(b, positive)));
        if and == positive {
            Formula::And(a, b)
        } else {
            Formula::Or(a, b)
        }
    };
    match f {
        Formula::True | Formula::False => {
            if positive == matches!(f, Formula::True) {
                Formula::True
            } else {
                Formula::False
            }
        }
        Formula::Eq(..) | Formula::Rel(..) => {
            if positive {
                f.clone()
            } else {
                Formula::Not(Box::new(f.clone()))
            }
        }
        Formula::Not(g) => nnf(g, !positive),
        Formula::And(a, b) => both(a, b, true),
        Formula::Or(a, b) => both(a, b, false),
        Formula::Implies(a, b) => {
            let (a, b) = (nnf(a, !positive), nnf(b, positive));
            if positive {
                Formula::Or(Box::new(a), Box::new(b))
            } else {
                Formula::And(Box::new(a), Box::new(b))
            }
        }
        // a ↔ b is (¬a ∨ b) ∧ (a ∨ ¬b); its negation (a ∧ ¬b) ∨ (¬a ∧ b).
        Formula::Iff(a, b) => {
            let (pa, na) = (nnf(a, true), nnf(a, false));
            let (pb, nb) = (nnf(b, true), nnf(b, false));
            let pair = |x: Formula, y: Formula, and: bool| {
                if and {
                    Formula::And(Box::new(x), Box::new(y))
                } else {
                    Formula::Or(Box::new(x), Box::new(y))
                }
            };
            if positive {
                pair(pair(na, pb.clone(), false), pair(pa, nb, false), true)
            } else {
                pair(pair(pa.clone(), nb, true), pair(na, pb, true), false)
            }
        }
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            let universal = matches!(f, Formula::Forall(..)) == positive;
            let g = Box::new(nnf(g, positive));
            if universal {
                Formula::Forall(vs.clone(), g)
            } else {
                Formula::Exists(vs.clone(), g)
            }
        }
    }
}

/// Skolemization of one axiom in negation normal form, adding its functions to `theory`.
struct Skolem<'a> {
    theory: &'a mut Theory,
    axiom: &'a Axiom,
    /// The number of Skolem functions made so far, for their names.
    fresh: &'a mut usize,
}

impl Skolem<'_> {
    /// `f` with each existential variable replaced by a new function of the universal variables
    /// in scope (`universal`), and the variables already replaced by `witness`.
    fn formula(
        &mut self,
        f: &Formula,
        universal: &[VarId],
        witness: &HashMap<VarId, Term>,
    ) -> Formula {
        let sub = |t: &Term| substitute(t, witness);
        match f {
            Formula::True | Formula::False => f.clone(),
            Formula::Eq(..) | Formula::Rel(..) | Formula::Not(_) => f.map_terms(&mut |t| sub(t)),
            Formula::And(a, b) => Formula::And(
                Box::new(self.formula(a, universal, witness)),
                Box::new(self.formula(b, universal, witness)),
            ),
            Formula::Or(a, b) => Formula::Or(
                Box::new(self.formula(a, universal, witness)),
                Box::new(self.formula(b, universal, witness)),
            ),
            Formula::Forall(vs, g) => {
                let inner: Vec<VarId> = universal.iter().chain(vs).copied().collect();
                Formula::Forall(vs.clone(), Box::new(self.formula(g, &inner, witness)))
            }
            Formula::Exists(vs, g) => {
                let mut witness = witness.clone();
                for &v in vs {
                    let name = self.fresh_name();
                    let sig = Arc::make_mut(&mut self.theory.sig);
                    let id = birkhoff_engine::FuncId(sig.funcs.len() as u32);
                    sig.funcs.push(FuncDecl {
                        name,
                        args: universal
                            .iter()
                            .map(|u| self.axiom.vars[u.0 as usize].sort)
                            .collect(),
                        result: self.axiom.vars[v.0 as usize].sort,
                        fixity: Fixity::Prefix,
                    });
                    witness.insert(
                        v,
                        Term::App(id, universal.iter().map(|&u| Term::Var(u)).collect()),
                    );
                }
                self.formula(g, universal, &witness)
            }
            Formula::Implies(..) | Formula::Iff(..) => {
                unreachable!("negation normal form has no implication or equivalence")
            }
        }
    }

    /// `bk_skN` for the first `N` whose name no symbol of the theory has.
    fn fresh_name(&mut self) -> String {
        loop {
            let name = format!("bk_sk{}", *self.fresh);
            *self.fresh += 1;
            let sig = &self.theory.sig;
            let taken =
                sig.funcs.iter().any(|f| f.name == name) || sig.rels.iter().any(|r| r.name == name);
            if !taken {
                return name;
            }
        }
    }
}

/// `t` with the variables of `witness` replaced.
pub(super) fn substitute(t: &Term, witness: &HashMap<VarId, Term>) -> Term {
    match t {
        Term::Var(v) => witness.get(v).cloned().unwrap_or_else(|| t.clone()),
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| substitute(a, witness)).collect()),
    }
}

/// One statement of E's derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Step {
    /// `fof` or `cnf`.
    language: String,
    /// E's name for it.
    name: String,
    /// The formula, as E printed it.
    formula: String,
    /// Where it comes from.
    source: Source,
    /// How it was inferred, nested as E printed it (None for a statement read from the problem,
    /// or one citing the laws of equality).
    nest: Option<Nest>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    /// Read from the problem: the label of the problem's axiom.
    Input(String),
    /// Inferred, as a logical consequence, from these earlier statements.
    Inference(Vec<String>),
}

/// The statements of the derivation E printed between its `SZS output start` and `end` lines.
fn derivation(output: &str) -> Result<Vec<Step>, String> {
    let section = output
        .split_once("SZS output start")
        .and_then(|(_, rest)| rest.split_once('\n'))
        .map(|(_, rest)| rest)
        .and_then(|rest| rest.split_once("SZS output end").map(|(body, _)| body))
        .ok_or("no derivation between SZS output lines")?;
    let mut steps = Vec::new();
    let mut pending = String::new();
    for line in section.lines() {
        let line = line.trim();
        if pending.is_empty() && (line.is_empty() || line.starts_with('#') || line.starts_with('%'))
        {
            continue;
        }
        pending.push_str(line);
        if line.ends_with(").") && balanced(&pending) {
            steps.push(step(&pending)?);
            pending.clear();
        }
    }
    if !pending.is_empty() {
        return Err(format!("an unfinished statement: {}", clip(&pending)));
    }
    Ok(steps)
}

/// At most 80 characters of `s`, for messages.
fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// Whether the brackets of `s` (outside quotes) are balanced.
fn balanced(s: &str) -> bool {
    split_top(s, '\0').is_some()
}

/// `s` split at the occurrences of `sep` outside brackets and quotes; `None` when its brackets
/// are not balanced.
fn split_top(s: &str, sep: char) -> Option<Vec<&str>> {
    let mut depth = 0i32;
    let mut quote = false;
    let mut parts = Vec::new();
    let mut from = 0;
    for (i, c) in s.char_indices() {
        match c {
            '\'' => quote = !quote,
            _ if quote => {}
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            _ if c == sep && depth == 0 => {
                parts.push(&s[from..i]);
                from = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[from..]);
    (depth == 0 && !quote).then_some(parts)
}

/// One statement `fof(name, role, formula, source).`.
fn step(text: &str) -> Result<Step, String> {
    let bad = || format!("not a statement E prints: {}", clip(text));
    let (language, rest) = text.split_once('(').ok_or_else(bad)?;
    let inner = rest.strip_suffix(").").ok_or_else(bad)?;
    let args = split_top(inner, ',').ok_or_else(bad)?;
    if !matches!(language, "fof" | "cnf") || args.len() < 4 {
        return Err(bad());
    }
    let ann = parse_term(args[3].trim()).ok_or_else(bad)?;
    let source = annotation(&ann)?;
    Ok(Step {
        language: language.to_string(),
        name: args[0].trim().to_string(),
        formula: args[2].trim().to_string(),
        nest: matches!(source, Source::Inference(_))
            .then(|| nest_of(&ann))
            .flatten(),
        source,
    })
}

/// A TPTP annotation term: a word applied to arguments, or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ann {
    App(String, Vec<Ann>),
    List(Vec<Ann>),
}

/// The annotation term `s`, or `None` when it is not one.
fn parse_term(s: &str) -> Option<Ann> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let items = if inner.trim().is_empty() {
            Vec::new()
        } else {
            split_top(inner, ',')?
                .into_iter()
                .map(parse_term)
                .collect::<Option<_>>()?
        };
        return Some(Ann::List(items));
    }
    match s.split_once('(') {
        Some((head, rest)) => {
            let inner = rest.strip_suffix(')')?;
            let args = split_top(inner, ',')?
                .into_iter()
                .map(parse_term)
                .collect::<Option<_>>()?;
            Some(Ann::App(head.trim().to_string(), args))
        }
        None if !s.is_empty() => Some(Ann::App(s.to_string(), Vec::new())),
        None => None,
    }
}

/// Where a statement comes from, by its annotation: `file(_, label)`, or an inference of status
/// `thm` whose premises (through nested inferences) are named statements.
fn annotation(a: &Ann) -> Result<Source, String> {
    match a {
        Ann::App(head, args) if head == "file" && args.len() == 2 => match &args[1] {
            Ann::App(label, none) if none.is_empty() => {
                Ok(Source::Input(label.trim_matches('\'').to_string()))
            }
            _ => Err("a file annotation without a label".into()),
        },
        Ann::App(head, _) if head == "inference" => {
            let mut premises = Vec::new();
            premises_of(a, &mut premises)?;
            Ok(Source::Inference(premises))
        }
        Ann::App(head, _) => Err(format!("a statement of E's own making (`{head}`)")),
        Ann::List(_) => Err("a list where a source was expected".into()),
    }
}

/// The named statements an inference rests on, through nested inferences, each of status `thm`.
fn premises_of(a: &Ann, out: &mut Vec<String>) -> Result<(), String> {
    match a {
        Ann::App(head, args) if head == "inference" && args.len() == 3 => {
            let rule = match &args[0] {
                Ann::App(rule, _) => rule.as_str(),
                Ann::List(_) => "?",
            };
            let Ann::List(info) = &args[1] else {
                return Err(format!("the inference `{rule}` has no status list"));
            };
            let thm = Ann::App("status".into(), vec![Ann::App("thm".into(), vec![])]);
            if !info.contains(&thm) {
                return Err(format!(
                    "the inference `{rule}` is not a logical consequence of its premises (its \
                     status is not thm)"
                ));
            }
            let Ann::List(parents) = &args[2] else {
                return Err(format!("the inference `{rule}` has no list of premises"));
            };
            parents.iter().try_for_each(|p| premises_of(p, out))
        }
        Ann::App(name, args) if args.is_empty() => {
            out.push(name.clone());
            Ok(())
        }
        // The laws of equality, which Z3 knows.
        Ann::App(head, args)
            if head == "theory" && args == &[Ann::App("equality".into(), Vec::new())] =>
        {
            Ok(())
        }
        Ann::App(head, _) => Err(format!("a premise of E's own making (`{head}`)")),
        Ann::List(_) => Err("a list where a premise was expected".into()),
    }
}

/// An inference annotation as a [`Nest`]: its rules and the statements they cite, as nested
/// as E printed them; None when it cites the laws of equality (no statement).
fn nest_of(a: &Ann) -> Option<Nest> {
    match a {
        Ann::App(head, args) if head == "inference" && args.len() == 3 => {
            let (Ann::App(rule, _), Ann::List(parents)) = (&args[0], &args[2]) else {
                return None;
            };
            Some(Nest::Inference {
                rule: rule.clone(),
                parents: parents.iter().map(nest_of).collect::<Option<_>>()?,
            })
        }
        Ann::App(name, args) if args.is_empty() => Some(Nest::Named(name.clone())),
        _ => None,
    }
}

/// Why a derivation was not taken.
#[derive(Debug)]
struct Rejected {
    why: String,
    at_limit: bool,
}

/// How the steps of a derivation were checked.
#[derive(Debug)]
struct Checked {
    /// The signature the statements were read in.
    sig: Arc<birkhoff_engine::Signature>,
    /// The statements, each with the evidence found for it (Z3's steps are left out).
    statements: Vec<Statement>,
    /// Steps Z3 proved from the statements each cites.
    by_z3: usize,
    /// Steps of nested inferences unfolded and replayed by the rewriting kernel
    /// ([`unfolded::replay`]).
    unfolded: usize,
    /// The kernel's links in those steps.
    links: usize,
    /// Steps that are their one premise (an axiom of the problem, or an earlier statement) with
    /// its variables renamed.
    copies: usize,
}

/// Checks every step of `steps` against `problem` (the TPTP text E was given), within
/// `deadline`: a step of nested inferences on unit clauses by unfolding it into single rewrites
/// that Birkhoff's kernel checks ([`unfolded::replay`]), when that finds the chain; every other
/// step by Z3 from the statements it cites. The steps' tally when one of them is `$false`.
fn check(
    problem: &str,
    steps: &[Step],
    deadline: Instant,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<Checked, Rejected> {
    let rejected = |why: String| Rejected {
        why,
        at_limit: false,
    };
    // The problem's axioms, then E's statements, read together so that they share one signature.
    let inputs = tptp_read::read(problem, "the problem")
        .map_err(|e| rejected(format!("the problem cannot be read back: {e}")))?
        .axioms
        .len();
    let mut text = problem.to_string();
    for (i, s) in steps.iter().enumerate() {
        text.push_str(&format!("\n{}(e{i}, plain, {}).", s.language, s.formula));
    }
    let read = tptp_read::read(&text, "E's derivation")
        .map_err(|e| rejected(format!("it cannot be read: {e}")))?;
    let sig = Arc::new(read.sig);
    let formulas: Vec<Arc<Axiom>> = read.axioms.into_iter().map(Arc::new).collect();
    if formulas.len() != inputs + steps.len() {
        return Err(rejected("its statements were not all read".into()));
    }
    let (given, derived) = formulas.split_at(inputs);
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut checks: Vec<crate::z3::prove::Step> = Vec::new();
    // For each of `checks`, the step of `steps` it checks.
    let mut checked_step: Vec<usize> = Vec::new();
    let (mut unfolded, mut links, mut copies) = (0, 0, 0);
    let mut statements = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        // Another lane's answer (or Ctrl-C) ends the check at once: the portfolio waits for
        // every lane, and a long derivation held a settled answer back to the deadline.
        if cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(rejected("stopped before it was checked".into()));
        }
        // The kernel's search for a chain takes up to milliseconds a step, on large terms more.
        if Instant::now() >= deadline {
            return Err(Rejected {
                why: format!("time ran out at step {} of {}", i + 1, steps.len()),
                at_limit: true,
            });
        }
        let replayed = s
            .nest
            .as_ref()
            .filter(|n| s.language == "cnf" && matches!(n, Nest::Inference { .. }))
            .and_then(|n| {
                let statement = |name: &str| index.get(name).map(|&j| derived[j].as_ref());
                unfolded::replay(n, &statement, &derived[i], step_deadline(deadline))
            });
        let statement = |evidence| Statement {
            name: s.name.clone(),
            axiom: derived[i].clone(),
            evidence,
        };
        if let Some(r) = replayed {
            unfolded += 1;
            links += r.links.len().max(1);
            statements.push(statement(Evidence::Unfolded(r)));
            index.insert(&s.name, i);
            continue;
        }
        let premises: Vec<Arc<Axiom>> = match &s.source {
            Source::Input(label) => {
                let axiom = given.iter().find(|a| &a.name == label).ok_or_else(|| {
                    rejected(format!("`{}` cites no axiom of the problem", s.name))
                })?;
                vec![axiom.clone()]
            }
            Source::Inference(names) => names
                .iter()
                .map(|n| {
                    index
                        .get(n.as_str())
                        .map(|&j| derived[j].clone())
                        .ok_or_else(|| {
                            rejected(format!("`{}` cites `{n}`, no earlier statement", s.name))
                        })
                })
                .collect::<Result<_, _>>()?,
        };
        // A renaming of one premise's variables, or its clause form (E's copy of an input,
        // `variable_rename`, `split_conjunct` of one conjunct, `fof_simplification` of a negated
        // equation): no solver needed (Z3 gave up on one single axiom for groups, of 30
        // symbols, in seconds).
        if let [premise] = &premises[..] {
            if same_clause(premise, &derived[i]) {
                copies += 1;
                statements.push(statement(match &s.source {
                    Source::Input(_) => Evidence::Input,
                    Source::Inference(names) => Evidence::Copy(names[0].clone()),
                }));
                index.insert(&s.name, i);
                continue;
            }
        }
        checks.push(crate::z3::prove::Step {
            hints: overlaps(&premises),
            premises,
            conclusion: derived[i].clone(),
        });
        checked_step.push(i);
        index.insert(&s.name, i);
    }
    if !derived.iter().any(|d| d.formula == Formula::False) {
        return Err(rejected("no step derives $false".into()));
    }
    let left = deadline.saturating_duration_since(Instant::now());
    let by_z3 = checks.len();
    let checked = Checked {
        sig: sig.clone(),
        statements,
        by_z3,
        unfolded,
        links,
        copies,
    };
    // Every step replayed by the kernel or a renaming: no solver to start (and none to stop).
    if checks.is_empty() {
        return Ok(checked);
    }
    match crate::z3::prove_each(&sig, checks, left, cancel) {
        Ok(None) => Ok(checked),
        Ok(Some(failure)) => Err(Rejected {
            why: match failure.step.and_then(|k| checked_step.get(k)) {
                Some(&i) => format!(
                    "Z3 did not prove `{}` from its premises: {}",
                    steps[i].name, failure.reason
                ),
                None => failure.reason,
            },
            at_limit: failure.at_limit,
        }),
        Err(e) => Err(rejected(format!("a step cannot be encoded: {e}"))),
    }
}

/// When the kernel's search for one step's chain gives up and leaves the step to Z3: a quarter of
/// the time left, at least [`STEP_SEARCH`]. (A rewrite chain of E's on terms of a hundred
/// symbols, GRP411-1 of TPTP, took the kernel's search 7 s; Z3 may settle it sooner.)
fn step_deadline(deadline: Instant) -> Instant {
    let now = Instant::now();
    let quarter = deadline.saturating_duration_since(now) / 4;
    deadline.min(now + quarter.max(STEP_SEARCH))
}

/// The least time the kernel's search has for one step (see [`step_deadline`]).
const STEP_SEARCH: Duration = Duration::from_millis(250);

/// Whether `a` and `b` state the same clause: equal up to the names of their variables (one
/// for one) and the orientation of an equation ([`canon::equal_up_to_variables`]), leading
/// universal quantifiers left out on both sides, since a formula's free variables are universal
/// (a clause's): `all x. F(x)` is the clause `F(x)`.
fn same_clause(a: &Axiom, b: &Axiom) -> bool {
    let body = |a: &Axiom| {
        let mut f = &a.formula;
        while let Formula::Forall(_, inner) = f {
            f = inner;
        }
        Axiom {
            name: String::new(),
            formula: f.clone(),
            vars: a.vars.clone(),
            origin: None,
        }
    };
    canon::equal_up_to_variables(&body(a), &body(b))
}

/// At most this many overlap instances are added to one step's premises.
const MAX_OVERLAPS: usize = 64;

/// Instances of a step's premises that Z3's instantiation does not find by itself: for each two
/// clause premises (renamed apart) where a side of an equation of one unifies with a subterm of
/// the other, or an atom of one with an atom of the same relation in the other, both premises
/// under the most general unifier. A superposition rewrites away the term where its premises
/// overlap, so the conclusion does not mention it, and Z3's E-matching, which instantiates with
/// the terms present, misses that instance (E's proof that `x v x = x` from Huntington's axioms
/// has such a step that Z3 alone did not settle in seconds). Instances of premises follow from
/// them, so adding them changes nothing but Z3's time.
fn overlaps(premises: &[Arc<Axiom>]) -> Vec<Arc<Axiom>> {
    let clauses: Vec<&Arc<Axiom>> = premises.iter().filter(|a| is_clause(&a.formula)).collect();
    let mut out = Vec::new();
    for a in &clauses {
        for b in &clauses {
            // `a`'s variables follow `b`'s in the instance's table.
            let shift = b.vars.len() as u32;
            let a_formula = a.formula.map_terms(&mut |t| shifted(t, shift));
            let mut a_atoms = Vec::new();
            atoms(&a_formula, &mut a_atoms);
            let mut b_atoms = Vec::new();
            atoms(&b.formula, &mut b_atoms);
            let mut b_terms = Vec::new();
            for atom in &b_atoms {
                atom.map_terms(&mut |t| {
                    subterms(t, &mut b_terms);
                    t.clone()
                });
            }
            let mut unifiers = Vec::new();
            for atom in &a_atoms {
                match atom {
                    Formula::Eq(l, r) => {
                        for side in [l, r] {
                            if matches!(side, Term::Var(_)) {
                                continue;
                            }
                            unifiers.extend(b_terms.iter().filter_map(|u| unify(side, u)));
                        }
                    }
                    Formula::Rel(rel, args) => {
                        for other in &b_atoms {
                            if let Formula::Rel(rel2, args2) = other {
                                if rel == rel2 {
                                    let pair = |x: &[Term]| {
                                        Term::App(birkhoff_engine::FuncId(u32::MAX), x.to_vec())
                                    };
                                    unifiers.extend(unify(&pair(args), &pair(args2)));
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            for sigma in unifiers {
                if out.len() >= MAX_OVERLAPS {
                    return out;
                }
                let mut vars = b.vars.clone();
                vars.extend(a.vars.iter().cloned().map(|mut v| {
                    v.name = format!("{}_{}", v.name, out.len());
                    v
                }));
                let instance = |f: &Formula| f.map_terms(&mut |t| resolved(t, &sigma));
                for formula in [instance(&a_formula), instance(&b.formula)] {
                    out.push(Arc::new(Axiom {
                        name: "overlap instance".into(),
                        formula,
                        vars: vars.clone(),
                        origin: None,
                    }));
                }
            }
        }
    }
    out
}

/// Whether `f` is a clause: literals joined by `|`, without quantifiers.
fn is_clause(f: &Formula) -> bool {
    match f {
        Formula::Or(a, b) => is_clause(a) && is_clause(b),
        Formula::Not(a) => matches!(**a, Formula::Eq(..) | Formula::Rel(..)),
        Formula::Eq(..) | Formula::Rel(..) | Formula::True | Formula::False => true,
        _ => false,
    }
}

/// The atoms of a clause.
fn atoms(f: &Formula, out: &mut Vec<Formula>) {
    match f {
        Formula::Or(a, b) => {
            atoms(a, out);
            atoms(b, out);
        }
        Formula::Not(a) => atoms(a, out),
        Formula::Eq(..) | Formula::Rel(..) => out.push(f.clone()),
        _ => {}
    }
}

/// The subterms of `t` that are not variables.
fn subterms(t: &Term, out: &mut Vec<Term>) {
    if let Term::App(_, args) = t {
        out.push(t.clone());
        args.iter().for_each(|a| subterms(a, out));
    }
}

/// `t` with each variable `VarId(i)` renamed `VarId(i + shift)`.
fn shifted(t: &Term, shift: u32) -> Term {
    match t {
        Term::Var(v) => Term::Var(VarId(v.0 + shift)),
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| shifted(a, shift)).collect()),
    }
}

/// `t` under the substitution `sigma` (applied until no bound variable is left).
pub(super) fn resolved(t: &Term, sigma: &HashMap<VarId, Term>) -> Term {
    match t {
        Term::Var(v) => match sigma.get(v) {
            Some(u) => resolved(u, sigma),
            None => t.clone(),
        },
        Term::App(f, args) => Term::App(*f, args.iter().map(|a| resolved(a, sigma)).collect()),
    }
}

/// A most general unifier of `s` and `t`, as a triangular substitution.
pub(super) fn unify(s: &Term, t: &Term) -> Option<HashMap<VarId, Term>> {
    let mut sigma = HashMap::new();
    let mut pending = vec![(s.clone(), t.clone())];
    while let Some((a, b)) = pending.pop() {
        let (a, b) = (resolved(&a, &sigma), resolved(&b, &sigma));
        match (a, b) {
            (Term::Var(x), Term::Var(y)) if x == y => {}
            (Term::Var(x), other) | (other, Term::Var(x)) => {
                if occurs_in(&other, x) {
                    return None;
                }
                sigma.insert(x, other);
            }
            (Term::App(f, xs), Term::App(g, ys)) => {
                if f != g || xs.len() != ys.len() {
                    return None;
                }
                pending.extend(xs.into_iter().zip(ys));
            }
        }
    }
    Some(sigma)
}

/// Whether the variable `v` occurs in `t`.
fn occurs_in(t: &Term, v: VarId) -> bool {
    match t {
        Term::Var(w) => *w == v,
        Term::App(_, args) => args.iter().any(|a| occurs_in(a, v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_and_their_premises_are_read_from_es_derivation() {
        let out = "# Proof found!\n# SZS status Unsatisfiable\n# SZS output start CNFRefutation\n\
            fof(reflexive, axiom, ![X1]:le(X1,X1), file('/tmp/p.p', reflexive)).\n\
            cnf(c_0_1, plain, (le(X1,X1)), inference(split_conjunct,[status(thm)],[inference(variable_rename,[status(thm)],[reflexive])])).\n\
            cnf(c_0_2, plain, ($false), inference(sr,[status(thm)],[c_0_1, c_0_0])).\n\
            # SZS output end CNFRefutation\n";
        let steps = derivation(out).unwrap();
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[0].source, Source::Input("reflexive".into()));
        assert_eq!(steps[1].source, Source::Inference(vec!["reflexive".into()]));
        assert_eq!(
            steps[2].source,
            Source::Inference(vec!["c_0_1".into(), "c_0_0".into()])
        );
        assert_eq!(steps[2].formula, "($false)");
        // The laws of equality are cited as a theory, not a statement.
        let eq = out.replace("[c_0_1, c_0_0]", "[c_0_1, theory(equality)]");
        assert_eq!(
            derivation(&eq).unwrap()[2].source,
            Source::Inference(vec!["c_0_1".into()])
        );
        // A Skolemization is not a logical consequence: the derivation is not taken.
        let esa = out.replace("status(thm)],[c_0_1", "status(esa)],[c_0_1");
        assert!(derivation(&esa)
            .unwrap_err()
            .contains("not a logical consequence"));
        // Nor is a definition E introduces.
        let def = out.replace(
            "inference(sr,[status(thm)],[c_0_1, c_0_0])",
            "introduced(definition)",
        );
        assert!(derivation(&def).unwrap_err().contains("E's own making"));
    }

    /// A lattice as an order, with meet and join named: E proves meet associative where neither
    /// completion (no equations) nor Z3 alone does in seconds.
    const ORDER_LATTICE: &str = "theory OrderLattice\nrel le : 2\nfunc ^ : 2 infix left 40\nfunc v : 2 infix left 35\naxiom reflexive: le(x, x)\naxiom antisymmetric: le(x, y) & le(y, x) -> x = y\naxiom transitive: le(x, y) & le(y, z) -> le(x, z)\naxiom meet_lower: le(x ^ y, x) & le(x ^ y, y)\naxiom meet_greatest: le(z, x) & le(z, y) -> le(z, x ^ y)\naxiom join_upper: le(x, x v y) & le(y, x v y)\naxiom join_least: le(x, z) & le(y, z) -> le(x v y, z)\n";

    fn e_installed() -> bool {
        let yes = super::super::external::find_on_path("eprover").is_some();
        if !yes {
            eprintln!("eprover is not installed: the check of its derivations is not exercised");
        }
        yes
    }

    #[test]
    fn es_derivation_proves_a_theorem_and_a_tampered_step_is_rejected() {
        if !e_installed() {
            return;
        }
        let t = Theory::parse(ORDER_LATTICE, "o.bk").unwrap();
        let goal =
            birkhoff_engine::parse::parse_formula(&t.sig, "(x ^ y) ^ z = x ^ (y ^ z)", "goal")
                .unwrap();
        let limit = Duration::from_secs(30);
        let outcome = prove(&t, &goal, limit, None);
        assert!(matches!(outcome, Outcome::Proved { .. }), "{outcome:?}");
        // The same derivation with one inferred clause made stronger than its premises give
        // (every two elements equal) must fail its check.
        let text = interop::export(&refutation_problem(&t, &goal), None, Target::Tptp).unwrap();
        let super::super::external::Refutation::Found { output, .. } =
            super::super::external::refute_with_e(&text, limit, None).unwrap()
        else {
            panic!("E refutes the problem");
        };
        let mut steps = derivation(&output).unwrap();
        let forged = steps
            .iter()
            .position(|s| {
                s.language == "cnf" && matches!(&s.source, Source::Inference(p) if p.len() > 1)
            })
            .expect("an inference from two premises");
        let deadline = Instant::now() + limit;
        let checked = check(&text, &steps, deadline, None).expect("E's derivation passes");
        assert_eq!(
            checked.by_z3 + checked.unfolded + checked.copies,
            steps.len()
        );
        steps[forged].formula = "(X1=X2)".into();
        // Z3 does not find the forged step's countermodel among the quantified premises in time:
        // it is rejected as not proved, which is all the check promises.
        let forged_check = check(&text, &steps, Instant::now() + Duration::from_secs(3), None);
        assert!(forged_check.is_err());
        // A non-theorem (lattices need not be distributive) is never proved.
        let goal = birkhoff_engine::parse::parse_formula(
            &t.sig,
            "x ^ (y v z) = (x ^ y) v (x ^ z)",
            "goal",
        )
        .unwrap();
        let outcome = prove(&t, &goal, Duration::from_secs(3), None);
        assert!(matches!(outcome, Outcome::Unknown { .. }), "{outcome:?}");
    }

    /// E's proof that `x + x = x` from Huntington's axioms has 18 steps of nested inferences
    /// (a superposition then rewrites, printed as one clause). Each is replayed by the rewriting
    /// kernel, one rewrite at a time; Z3 proves the rest. One of those steps Z3 alone did not
    /// prove in 40 s on a loaded machine. A nested step made stronger than its chain gives is
    /// not replayed, and Z3, left with it, does not prove it.
    #[test]
    fn huntingtons_derivation_passes_with_its_nested_steps_replayed_by_the_kernel() {
        let problem = "fof(comm, axiom, ![X,Y]: p(X,Y) = p(Y,X)).\n\
            fof(assoc, axiom, ![X,Y,Z]: p(p(X,Y),Z) = p(X,p(Y,Z))).\n\
            fof(hunt, axiom, ![X,Y]: p(n(p(n(X),Y)),n(p(n(X),n(Y)))) = X).\n\
            fof(negated_goal, axiom, p(a,a) != a).\n";
        let output = include_str!("../../tests/data/e_huntington_derivation.txt");
        let mut steps = derivation(output).unwrap();
        let nested = steps
            .iter()
            .filter(|s| {
                s.nest.as_ref().is_some_and(|n| match n {
                    Nest::Inference { parents, .. } => {
                        parents.iter().any(|p| matches!(p, Nest::Inference { .. }))
                    }
                    Nest::Named(_) => false,
                })
            })
            .count();
        assert_eq!(nested, 18);
        let deadline = || Instant::now() + Duration::from_secs(60);
        let checked =
            check(problem, &steps, deadline(), None).unwrap_or_else(|r| panic!("{}", r.why));
        // The single inferences on unit clauses are the kernel's too: Z3 is left the rest.
        assert!(checked.unfolded > nested, "{checked:?}");
        assert_eq!(
            checked.by_z3 + checked.unfolded + checked.copies,
            steps.len()
        );
        // c_0_40 claimed as `... = X2` in place of `... = n(X2)` (false in a Boolean algebra).
        let forged = steps.iter().position(|s| s.name == "c_0_40").unwrap();
        steps[forged].formula = steps[forged].formula.replace("=n(X2)", "=X2");
        assert!(
            steps[forged].formula.ends_with("=X2)"),
            "{}",
            steps[forged].formula
        );
        let short = Instant::now() + Duration::from_secs(10);
        let rejected = check(problem, &steps, short, None).unwrap_err();
        assert!(rejected.why.contains("c_0_40"), "{}", rejected.why);
    }

    /// A derivation whose every step is a renaming or a kernel replay leaves Z3 nothing: it
    /// passes without starting a solver. Stopped (another lane has answered), the check ends
    /// before its first step and says so. (With the lane already stopped, Z3's worker once
    /// answered "interrupted at step 0" of none, and the report indexed past the end.)
    #[test]
    fn a_derivation_without_steps_for_z3_passes_and_a_stopped_check_ends_at_once() {
        let problem = "fof(ax, axiom, ![X]: f(X) = X).\nfof(negated_goal, axiom, f(a) != a).\n";
        let out = "# SZS output start CNFRefutation\n\
            fof(ax, axiom, ![X1]:f(X1)=X1, file('/tmp/p.p', ax)).\n\
            fof(negated_goal, axiom, f(a)!=a, file('/tmp/p.p', negated_goal)).\n\
            fof(c_0_2, plain, ![X2]:f(X2)=X2, inference(variable_rename,[status(thm)],[ax])).\n\
            cnf(c_0_3, plain, (f(X1)=X1), inference(split_conjunct,[status(thm)],[c_0_2])).\n\
            cnf(c_0_4, negated_conjecture, (f(a)!=a), inference(fof_simplification,[status(thm)],[negated_goal])).\n\
            cnf(c_0_5, negated_conjecture, ($false), inference(cn,[status(thm)],[inference(rw,[status(thm)],[c_0_4, c_0_3])])).\n\
            # SZS output end CNFRefutation\n";
        let steps = derivation(out).unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let running = Arc::new(AtomicBool::new(false));
        let checked =
            check(problem, &steps, deadline, Some(running)).unwrap_or_else(|r| panic!("{}", r.why));
        assert_eq!((checked.by_z3, checked.copies, checked.unfolded), (0, 5, 1));
        let stopped = Arc::new(AtomicBool::new(true));
        let rejected = check(problem, &steps, deadline, Some(stopped)).unwrap_err();
        assert!(rejected.why.contains("stopped"), "{}", rejected.why);
    }

    #[test]
    fn an_input_copied_is_the_axiom_with_its_variables_renamed_one_for_one() {
        let t = Theory::parse("theory T\nfunc p : 2\nfunc n : 1\n", "t.bk").unwrap();
        let read = |f: &str| birkhoff_engine::parse::parse_formula(&t.sig, f, "f").unwrap();
        let comm = read("all x y. p(x, y) = p(y, x)");
        assert!(same_clause(&comm, &read("all b a. p(b, a) = p(a, b)")));
        assert!(!same_clause(&comm, &read("all x. p(x, x) = p(x, x)")));
        assert!(!same_clause(
            &read("all x. p(x, x) = p(x, x)"),
            &read("all x y. p(x, y) = p(x, y)")
        ));
        assert!(!same_clause(&comm, &read("all x y. p(x, y) = p(x, y)")));
        assert!(!same_clause(&comm, &read("all x y. n(p(x, y)) = p(y, x)")));
        // Free variables too, one for one both ways: the axiom p(z, z) = n(z) does not give
        // p(x, y) = n(x), nor does the converse count as a copy.
        let (diagonal, two) = (read("p(z, z) = n(z)"), read("p(x, y) = n(x)"));
        assert!(!same_clause(&diagonal, &two));
        assert!(!same_clause(&two, &diagonal));
        assert!(same_clause(&diagonal, &read("p(w, w) = n(w)")));
        // A clause is its universal closure.
        assert!(same_clause(&comm, &read("p(a, b) = p(b, a)")));
        assert!(!same_clause(&comm, &read("p(a, b) = p(a, b)")));
    }

    #[test]
    fn the_negated_goal_is_marked_for_e_and_read_back_as_an_axiom() {
        let g = birkhoff_engine::seeds::load("group").unwrap();
        let goal = birkhoff_engine::parse::parse_formula(&g.sig, "x * y = y * x", "goal").unwrap();
        let text = interop::export(&refutation_problem(&g, &goal), None, Target::Tptp).unwrap();
        let marked = as_negated_conjecture(text.clone());
        assert_eq!(marked.matches("negated_conjecture").count(), 1, "{marked}");
        let (plain, read) = (
            tptp_read::read(&text, "p").unwrap(),
            tptp_read::read(&marked, "p").unwrap(),
        );
        assert_eq!(plain.axioms, read.axioms);
        assert!(read.conjectures.is_empty());
    }

    #[test]
    fn the_problem_is_skolemized_in_negation_normal_form() {
        let t = Theory::parse(
            "theory T\nrel le : 2\naxiom meets: exists m. le(m, x) & (all z. le(z, x) -> le(z, m))\n",
            "t.bk",
        )
        .unwrap();
        let goal =
            birkhoff_engine::parse::parse_formula(&t.sig, "exists y. le(x, y)", "goal").unwrap();
        let p = refutation_problem(&t, &goal);
        let text = interop::export(&p, None, Target::Tptp).unwrap();
        // The witness of `meets` depends on x; the goal's x is a constant, and the negated
        // existential is a universal: no existential quantifier is left.
        assert!(text.contains("bk_sk0(X)"), "{text}");
        assert!(text.contains("bk_sk1"), "{text}");
        assert!(!text.contains('?'), "{text}");
    }
}
