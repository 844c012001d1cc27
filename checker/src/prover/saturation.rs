//! Equational goals by equality saturation with `egg`, turned into a [`Certificate`].
//!
//! Each equation of each axiom becomes a rewrite rule in each direction whose left side binds
//! every variable of its right side. A left side that is a bare variable (`x -> x * e`) matches
//! only e-classes of the variable's sort, which an e-class analysis tracks, so that many-sorted
//! theories never build ill-sorted terms. The goal's variables become fresh
//! constants. When the goal's two sides meet in one e-class, egg's explanation is read back into
//! steps and lemmas on engine terms by [`explanation::read`]. The result is checked by
//! [`certificate::check`] before anyone calls it a proof; that is the caller's job.

use super::certificate::{self, Certificate, Direction};
use super::explanation;
use super::Undecided;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{Signature, SortId};
use birkhoff_engine::syntax::{Axiom, Term, VarId};
use birkhoff_engine::Theory;
use egg::{
    Analysis, ConditionalApplier, DidMerge, EGraph, ENodeOrVar, Id, Language, Pattern, PatternAst,
    RecExpr, Rewrite, Runner, SearchMatches, Searcher, StopReason, Subst, SymbolLang, Var,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How far saturation may go.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock limit for the search.
    pub time: Duration,
    /// When reading the proof out of egg must be done (at least `time` from the start).
    pub deadline: Instant,
    /// Most rewrite steps in a certificate, lemmas included.
    pub proof_steps: usize,
    /// Limit on e-nodes.
    pub nodes: usize,
    /// Limit on rule-application rounds.
    pub iterations: usize,
    /// Set to true to stop soon.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// The e-class analysis: the sort of every e-class, from the result sort of each symbol (by
/// [`FuncId`] of the extended signature). Rules preserve sorts, so classes never mix sorts.
struct Sorts(Vec<u32>);

impl Analysis<SymbolLang> for Sorts {
    type Data = u32;

    fn make(egraph: &mut EGraph<SymbolLang, Self>, enode: &SymbolLang) -> u32 {
        let f: Option<usize> = enode
            .op
            .as_str()
            .strip_prefix('f')
            .and_then(|s| s.parse().ok());
        // Every node comes from `pattern_text` of a well-sorted term, so the lookup succeeds;
        // an impossible sort (u32::MAX) would only make sort-guarded rules skip the class.
        f.and_then(|f| egraph.analysis.0.get(f).copied())
            .unwrap_or(u32::MAX)
    }

    fn merge(&mut self, _: &mut u32, _: u32) -> DidMerge {
        DidMerge(false, false)
    }
}

type Rule = Rewrite<SymbolLang, Sorts>;

/// When a search must stop: the stop flag, or the end of the search's time.
#[derive(Clone)]
struct Stop {
    flag: Option<Arc<AtomicBool>>,
    at: Instant,
}

impl Stop {
    fn now(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || Instant::now() >= self.at
    }
}

/// A pattern whose search of the e-graph looks at [`Stop`] between e-classes. egg checks its
/// limits only between whole rule searches, and one search can take seconds: a magma law
/// `x = y * ((x * (z * z)) * w)` gives e-classes of dozens of products each, and one search of
/// `?y * ((?x * (?z * ?z)) * ?w)` over 48 000 e-nodes took 10 s. Stopping early returns only
/// real matches, fewer of them; the runner then stops at its own time check.
struct Interruptible {
    pattern: Pattern<SymbolLang>,
    stop: Stop,
}

impl Searcher<SymbolLang, Sorts> for Interruptible {
    fn search_eclass_with_limit(
        &self,
        egraph: &EGraph<SymbolLang, Sorts>,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, SymbolLang>> {
        Searcher::<SymbolLang, Sorts>::search_eclass_with_limit(
            &self.pattern,
            egraph,
            eclass,
            limit,
        )
    }

    fn search_with_limit(
        &self,
        egraph: &EGraph<SymbolLang, Sorts>,
        mut limit: usize,
    ) -> Vec<SearchMatches<'_, SymbolLang>> {
        let classes: Vec<Id> = match self.pattern.ast.as_ref().last() {
            Some(ENodeOrVar::ENode(e)) => egraph
                .classes_for_op(&e.discriminant())
                .map_or_else(Vec::new, |ids| ids.collect()),
            _ => egraph.classes().map(|c| c.id).collect(),
        };
        let mut out = Vec::new();
        for id in classes {
            if limit == 0 || self.stop.now() {
                break;
            }
            if let Some(m) = self.search_eclass_with_limit(egraph, id, limit) {
                limit -= m.substs.len();
                out.push(m);
            }
        }
        out
    }

    fn get_pattern_ast(&self) -> Option<&PatternAst<SymbolLang>> {
        Some(&self.pattern.ast)
    }

    fn vars(&self) -> Vec<Var> {
        Searcher::<SymbolLang, Sorts>::vars(&self.pattern)
    }
}

/// A rewrite rule's origin: axiom index, equation index, direction. It is the rule's name in
/// egg (`axiom.part.direction.instance`), which is how explanations say which rule they used.
#[derive(Clone, Copy)]
pub(super) struct RuleId {
    /// Index of the axiom in the theory.
    pub axiom: usize,
    /// Which equation of the axiom.
    pub part: usize,
    direction: Direction,
}

impl RuleId {
    fn name(&self) -> String {
        let d = if self.direction == Direction::LeftToRight {
            "lr"
        } else {
            "rl"
        };
        format!("{}.{}.{d}", self.axiom, self.part)
    }

    /// Reads a rule name back.
    pub fn parse(s: &str) -> Option<RuleId> {
        let mut it = s.split('.');
        let axiom = it.next()?.parse().ok()?;
        let part = it.next()?.parse().ok()?;
        let direction = match it.next()? {
            "lr" => Direction::LeftToRight,
            "rl" => Direction::RightToLeft,
            _ => return None,
        };
        Some(RuleId {
            axiom,
            part,
            direction,
        })
    }
}

fn pattern_text(t: &Term) -> String {
    match t {
        Term::Var(v) => format!("?v{}", v.0),
        Term::App(f, args) if args.is_empty() => format!("f{}", f.0),
        Term::App(f, args) => {
            let inner: Vec<String> = args.iter().map(pattern_text).collect();
            format!("(f{} {})", f.0, inner.join(" "))
        }
    }
}

fn vars_of(t: &Term) -> Vec<VarId> {
    let mut out = Vec::new();
    t.for_each_var(&mut |v| out.push(v));
    out
}

/// Most instances of one rule direction made by filling its right side's extra variables.
const MAX_INSTANCES: usize = 64;

/// The ways to give each of `extra` a ground term of its sort, at most [`MAX_INSTANCES`].
fn fillings(axiom: &Axiom, extra: &[VarId], ground: &[(Term, SortId)]) -> Vec<Vec<(VarId, Term)>> {
    let mut out = vec![vec![]];
    for &v in extra {
        let sort = axiom.vars[v.0 as usize].sort;
        let values: Vec<&Term> = ground
            .iter()
            .filter(|(_, s)| *s == sort)
            .map(|(t, _)| t)
            .collect();
        out = out
            .into_iter()
            .flat_map(|f: Vec<(VarId, Term)>| {
                values
                    .iter()
                    .map(move |&t| [f.clone(), vec![(v, t.clone())]].concat())
            })
            .take(MAX_INSTANCES)
            .collect();
    }
    out
}

/// The rewrite rules of the theory's equations, and how many equations could not be used.
/// A variable that occurs only on the right side (`e -> inv(y) * y`) cannot be bound by
/// matching; such a direction is instantiated with each ground term of `ground` of its sort.
fn rules(theory: &Theory, ground: &[(Term, SortId)], stop: &Stop) -> (Vec<Rule>, usize) {
    let mut out = Vec::new();
    let mut unused = 0;
    for (ai, axiom) in theory.axioms.iter().enumerate() {
        for (part, (l, r)) in certificate::equations(axiom).into_iter().enumerate() {
            let mut any = false;
            for (direction, from, to) in [
                (Direction::LeftToRight, l, r),
                (Direction::RightToLeft, r, l),
            ] {
                let from_vars = vars_of(from);
                let mut extra: Vec<VarId> = vars_of(to)
                    .into_iter()
                    .filter(|v| !from_vars.contains(v))
                    .collect();
                extra.sort();
                extra.dedup();
                if from == to {
                    continue;
                }
                let Ok(pattern) = pattern_text(from).parse::<Pattern<SymbolLang>>() else {
                    continue;
                };
                for (k, filling) in fillings(axiom, &extra, ground).into_iter().enumerate() {
                    let value = |v: VarId| {
                        Some(
                            filling
                                .iter()
                                .find(|(w, _)| *w == v)
                                .map_or(Term::Var(v), |(_, t)| t.clone()),
                        )
                    };
                    let Some(to) = certificate::substitute(to, &value) else {
                        continue;
                    };
                    let Ok(applier) = pattern_text(&to).parse::<Pattern<SymbolLang>>() else {
                        continue;
                    };
                    let name = format!(
                        "{}.{k}",
                        RuleId {
                            axiom: ai,
                            part,
                            direction
                        }
                        .name()
                    );
                    let searcher = Interruptible {
                        pattern: pattern.clone(),
                        stop: stop.clone(),
                    };
                    let rule = match from {
                        Term::Var(v) => {
                            let sort = axiom.vars[v.0 as usize].sort.0;
                            let condition =
                                move |g: &mut EGraph<SymbolLang, Sorts>, id: Id, _: &Subst| {
                                    g[id].data == sort
                                };
                            Rewrite::new(name, searcher, ConditionalApplier { condition, applier })
                        }
                        _ => Rewrite::new(name, searcher, applier),
                    };
                    if let Ok(rule) = rule {
                        out.push(rule);
                        any = true;
                    }
                }
            }
            unused += usize::from(!any);
        }
    }
    (out, unused)
}

/// The ground terms available to fill extra variables: the subterms of the goal's sides and the
/// constants of the signature, each with its sort.
fn ground_terms(sig: &Signature, sides: [&Term; 2]) -> Vec<(Term, SortId)> {
    fn walk(t: &Term, out: &mut Vec<Term>) {
        if !out.contains(t) {
            out.push(t.clone());
        }
        if let Term::App(_, args) = t {
            args.iter().for_each(|a| walk(a, out));
        }
    }
    let mut terms = Vec::new();
    sides.iter().for_each(|t| walk(t, &mut terms));
    for f in sig.func_ids() {
        let c = Term::App(f, vec![]);
        if sig.func_decl(f).args.is_empty() && !terms.contains(&c) {
            terms.push(c);
        }
    }
    terms
        .into_iter()
        .filter_map(|t| certificate::sort_of(sig, &t).ok().map(|s| (t, s)))
        .collect()
}

/// A ground term of the extended signature as text.
pub fn print(sig: &Signature, t: &Term) -> String {
    FormulaPrinter::new(sig, &certificate::declaring(sig, &[])).term(t)
}

/// Tries to prove the equational `goal` from the theory's equations. `Err` says why not (for
/// the "unknown" report) and whether a limit stopped it. The certificate is not yet checked.
pub fn prove(theory: &Theory, goal: &Axiom, limits: &Limits) -> Result<Certificate, Undecided> {
    let (constants, lhs, rhs) = certificate::goal_sides(&theory.sig, goal)?;
    let sig = certificate::extended_signature(&theory.sig, &constants).map_err(|e| e.0)?;
    let goal_text = FormulaPrinter::new(&theory.sig, goal).formula(&goal.formula);
    let cert = |steps| Certificate {
        cited: Vec::new(),
        theory: theory.name.clone(),
        goal: goal_text.clone(),
        constants: constants.clone(),
        lhs: lhs.clone(),
        rhs: rhs.clone(),
        lemmas: vec![],
        steps,
    };
    if lhs == rhs {
        return Ok(cert(vec![]));
    }
    let stop = Stop {
        flag: limits.cancel.clone(),
        at: Instant::now() + limits.time,
    };
    let (rules, unused) = rules(theory, &ground_terms(&sig, [&lhs, &rhs]), &stop);
    if rules.is_empty() {
        return Err(Undecided::for_good(
            "no axiom is an equation usable as a rewrite rule",
        ));
    }
    let parse = |t: &Term| {
        pattern_text(t)
            .parse::<RecExpr<SymbolLang>>()
            .map_err(|e| format!("internal: {e}"))
    };
    let (l_expr, r_expr) = (parse(&lhs)?, parse(&rhs)?);
    let cancel = limits.cancel.clone();
    let sorts = Sorts(sig.funcs.iter().map(|f| f.result.0).collect());
    let mut runner = Runner::<SymbolLang, Sorts>::new(sorts)
        .with_explanations_enabled()
        // egg's greedy shortening of explanations is not time-bounded and cost 2 s on an e-graph
        // of 611 nodes (a unital ring with x·x = x) for a tree 3 % smaller; without it, 15 ms.
        .without_explanation_length_optimization()
        .with_time_limit(limits.time)
        .with_node_limit(limits.nodes)
        .with_iter_limit(limits.iterations)
        .with_expr(&l_expr)
        .with_expr(&r_expr)
        .with_hook(move |r| {
            if r.egraph.find(r.roots[0]) == r.egraph.find(r.roots[1]) {
                return Err("joined".into());
            }
            match &cancel {
                Some(c) if c.load(Ordering::Relaxed) => Err("interrupted".into()),
                _ => Ok(()),
            }
        })
        .run(&rules);
    let roots: Vec<Id> = runner
        .roots
        .iter()
        .map(|&id| runner.egraph.find(id))
        .collect();
    if roots[0] != roots[1] {
        return Err(match &runner.stop_reason {
            Some(StopReason::Saturated) if unused == 0 => Undecided::for_good("saturated without joining the sides: the rules cannot prove it"),
            Some(StopReason::Saturated) => Undecided::for_good(format!("saturated without joining the sides ({unused} equation(s) could not be used as rules)")),
            Some(StopReason::IterationLimit(n)) => Undecided::out_of_room(format!("iteration limit ({n}) reached")),
            Some(StopReason::NodeLimit(n)) => Undecided::out_of_room(format!("e-node limit ({n}) reached")),
            Some(StopReason::TimeLimit(s)) => Undecided::out_of_time(format!("time limit ({s:.1} s) reached")),
            Some(StopReason::Other(s)) => Undecided::for_good(s.clone()),
            None => Undecided::for_good("stopped"),
        });
    }
    let explanation = runner.explain_equivalence(&l_expr, &r_expr);
    let limits = explanation::Limits {
        max_steps: limits.proof_steps,
        deadline: limits.deadline,
    };
    // Reading a long proof can meet the deadline: with more time it would finish.
    let (steps, lemmas) = explanation::read(theory, &sig, &explanation.explanation_trees, &limits)
        .map_err(|why| {
            if Instant::now() >= limits.deadline {
                Undecided::out_of_time(why)
            } else {
                Undecided::for_good(why)
            }
        })?;
    Ok(Certificate {
        cited: Vec::new(),
        lemmas,
        ..cert(steps)
    })
}
