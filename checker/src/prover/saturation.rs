//! Equational goals by equality saturation with `egg`, turned into a [`Certificate`].
//!
//! Each equation of each axiom becomes a rewrite rule in each direction whose left side binds
//! every variable of its right side. A left side that is a bare variable (`x -> x * e`) matches
//! only e-classes of the variable's sort, which an e-class analysis tracks, so that many-sorted
//! theories never build ill-sorted terms. The goal's variables become fresh
//! constants. When the goal's two sides meet in one e-class, egg's explanation (a sequence of
//! terms, each one rewrite away from the last) is read back into engine terms, and each step's
//! substitution is recovered by matching. The result is checked by [`certificate::check`] before
//! anyone calls it a proof; that is the caller's job.

use super::certificate::{self, Binding, Certificate, Direction, Step};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, Signature, SortId};
use birkhoff_engine::syntax::{Axiom, Term, VarId};
use birkhoff_engine::Theory;
use egg::{Analysis, ConditionalApplier, DidMerge, EGraph, FlatTerm, Id, Pattern, RecExpr, Rewrite, Runner, StopReason, Subst, SymbolLang};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How far saturation may go.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock limit.
    pub time: Duration,
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
        let f: Option<usize> = enode.op.as_str().strip_prefix('f').and_then(|s| s.parse().ok());
        // Every node comes from `pattern_text` of a well-sorted term, so the lookup succeeds;
        // an impossible sort (u32::MAX) would only make sort-guarded rules skip the class.
        f.and_then(|f| egraph.analysis.0.get(f).copied()).unwrap_or(u32::MAX)
    }

    fn merge(&mut self, _: &mut u32, _: u32) -> DidMerge {
        DidMerge(false, false)
    }
}

type Rule = Rewrite<SymbolLang, Sorts>;

/// A rewrite rule's origin: axiom index, equation index, direction.
#[derive(Clone, Copy)]
struct RuleId {
    axiom: usize,
    part: usize,
    direction: Direction,
}

impl RuleId {
    fn name(&self) -> String {
        let d = if self.direction == Direction::LeftToRight { "lr" } else { "rl" };
        format!("{}.{}.{d}", self.axiom, self.part)
    }

    fn parse(s: &str) -> Option<RuleId> {
        let mut it = s.split('.');
        let axiom = it.next()?.parse().ok()?;
        let part = it.next()?.parse().ok()?;
        let direction = match it.next()? {
            "lr" => Direction::LeftToRight,
            "rl" => Direction::RightToLeft,
            _ => return None,
        };
        Some(RuleId { axiom, part, direction })
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
        let values: Vec<&Term> = ground.iter().filter(|(_, s)| *s == sort).map(|(t, _)| t).collect();
        out = out.into_iter().flat_map(|f: Vec<(VarId, Term)>| values.iter().map(move |&t| [f.clone(), vec![(v, t.clone())]].concat())).take(MAX_INSTANCES).collect();
    }
    out
}

/// The rewrite rules of the theory's equations, and how many equations could not be used.
/// A variable that occurs only on the right side (`e -> inv(y) * y`) cannot be bound by
/// matching; such a direction is instantiated with each ground term of `ground` of its sort.
fn rules(theory: &Theory, ground: &[(Term, SortId)]) -> (Vec<Rule>, usize) {
    let mut out = Vec::new();
    let mut unused = 0;
    for (ai, axiom) in theory.axioms.iter().enumerate() {
        for (part, (l, r)) in certificate::equations(axiom).into_iter().enumerate() {
            let mut any = false;
            for (direction, from, to) in [(Direction::LeftToRight, l, r), (Direction::RightToLeft, r, l)] {
                let from_vars = vars_of(from);
                let mut extra: Vec<VarId> = vars_of(to).into_iter().filter(|v| !from_vars.contains(v)).collect();
                extra.sort();
                extra.dedup();
                if from == to {
                    continue;
                }
                let Ok(searcher) = pattern_text(from).parse::<Pattern<SymbolLang>>() else { continue };
                for (k, filling) in fillings(axiom, &extra, ground).into_iter().enumerate() {
                    let value = |v: VarId| Some(filling.iter().find(|(w, _)| *w == v).map_or(Term::Var(v), |(_, t)| t.clone()));
                    let Some(to) = certificate::substitute(to, &value) else { continue };
                    let Ok(applier) = pattern_text(&to).parse::<Pattern<SymbolLang>>() else { continue };
                    let name = format!("{}.{k}", RuleId { axiom: ai, part, direction }.name());
                    let rule = match from {
                        Term::Var(v) => {
                            let sort = axiom.vars[v.0 as usize].sort.0;
                            let condition = move |g: &mut EGraph<SymbolLang, Sorts>, id: Id, _: &Subst| g[id].data == sort;
                            Rewrite::new(name, searcher.clone(), ConditionalApplier { condition, applier })
                        }
                        _ => Rewrite::new(name, searcher.clone(), applier),
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
    terms.into_iter().filter_map(|t| certificate::sort_of(sig, &t).ok().map(|s| (t, s))).collect()
}

fn from_flat(t: &FlatTerm<SymbolLang>) -> Option<Term> {
    let f: u32 = t.node.op.as_str().strip_prefix('f')?.parse().ok()?;
    Some(Term::App(FuncId(f), t.children.iter().map(from_flat).collect::<Option<_>>()?))
}

/// The position of the one rewrite recorded in a flat term, and its rule. (Which way egg applied
/// it does not matter: [`step`] finds the direction by matching.)
fn rewrite_site(t: &FlatTerm<SymbolLang>, path: &mut Vec<usize>) -> Option<(Vec<usize>, String)> {
    if let Some(r) = t.forward_rule.or(t.backward_rule) {
        return Some((path.clone(), r.to_string()));
    }
    for (i, c) in t.children.iter().enumerate() {
        path.push(i);
        let found = rewrite_site(c, path);
        path.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Extends `sub` so that `pattern` under it is `t`; false if it cannot.
fn matches(pattern: &Term, t: &Term, sub: &mut Vec<Option<Term>>) -> bool {
    match (pattern, t) {
        (Term::Var(v), _) => match &sub[v.0 as usize] {
            Some(bound) => bound == t,
            None => {
                sub[v.0 as usize] = Some(t.clone());
                true
            }
        },
        (Term::App(f, ps), Term::App(g, ts)) => f == g && ps.len() == ts.len() && ps.iter().zip(ts).all(|(p, t)| matches(p, t, sub)),
        _ => false,
    }
}

/// The step from `prev` to `next` by the equation of `rule` at `position`, in whichever
/// direction matches.
fn step(theory: &Theory, sig: &Signature, rule: RuleId, position: Vec<usize>, prev: &Term, next: &Term) -> Option<Step> {
    let axiom = &theory.axioms[rule.axiom];
    let &(l, r) = certificate::equations(axiom).get(rule.part)?;
    let (old, new) = (certificate::subterm(prev, &position)?, certificate::subterm(next, &position)?);
    for (direction, from, to) in [(Direction::LeftToRight, l, r), (Direction::RightToLeft, r, l)] {
        let mut sub = vec![None; axiom.vars.len()];
        if matches(from, old, &mut sub) && matches(to, new, &mut sub) {
            let substitution = axiom.vars.iter().zip(sub).filter_map(|(d, t)| t.map(|term| Binding { var: d.name.clone(), term })).collect();
            return Some(Step { axiom: axiom.name.clone(), part: rule.part, direction, position, substitution, result: next.clone(), text: print(sig, next) });
        }
    }
    None
}

/// A ground term of the extended signature as text.
pub fn print(sig: &Signature, t: &Term) -> String {
    let empty = Axiom { name: String::new(), formula: birkhoff_engine::Formula::True, vars: vec![], origin: None };
    FormulaPrinter::new(sig, &empty).term(t)
}

/// Tries to prove the equational `goal` from the theory's equations. `Err` says why not (for
/// the "unknown" report). The certificate is not yet checked.
pub fn prove(theory: &Theory, goal: &Axiom, limits: &Limits) -> Result<Certificate, String> {
    let (constants, lhs, rhs) = certificate::goal_sides(&theory.sig, goal)?;
    let sig = certificate::extended_signature(&theory.sig, &constants).map_err(|e| e.0)?;
    let goal_text = FormulaPrinter::new(&theory.sig, goal).formula(&goal.formula);
    let cert = |steps| Certificate { theory: theory.name.clone(), goal: goal_text.clone(), constants: constants.clone(), lhs: lhs.clone(), rhs: rhs.clone(), steps };
    if lhs == rhs {
        return Ok(cert(vec![]));
    }
    let (rules, unused) = rules(theory, &ground_terms(&sig, [&lhs, &rhs]));
    if rules.is_empty() {
        return Err("no axiom is an equation usable as a rewrite rule".into());
    }
    let parse = |t: &Term| pattern_text(t).parse::<RecExpr<SymbolLang>>().map_err(|e| format!("internal: {e}"));
    let (l_expr, r_expr) = (parse(&lhs)?, parse(&rhs)?);
    let cancel = limits.cancel.clone();
    let sorts = Sorts(sig.funcs.iter().map(|f| f.result.0).collect());
    let mut runner = Runner::<SymbolLang, Sorts>::new(sorts)
        .with_explanations_enabled()
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
    let roots: Vec<Id> = runner.roots.iter().map(|&id| runner.egraph.find(id)).collect();
    if roots[0] != roots[1] {
        let why = match &runner.stop_reason {
            Some(StopReason::Saturated) if unused == 0 => "saturated without joining the sides: the rules cannot prove it".to_string(),
            Some(StopReason::Saturated) => format!("saturated without joining the sides ({unused} equation(s) could not be used as rules)"),
            Some(StopReason::IterationLimit(n)) => format!("iteration limit ({n}) reached"),
            Some(StopReason::NodeLimit(n)) => format!("e-node limit ({n}) reached"),
            Some(StopReason::TimeLimit(s)) => format!("time limit ({s:.1} s) reached"),
            Some(StopReason::Other(s)) => s.clone(),
            None => "stopped".into(),
        };
        return Err(why);
    }
    let mut explanation = runner.explain_equivalence(&l_expr, &r_expr);
    let flat = explanation.make_flat_explanation().clone();
    let terms: Vec<Term> = flat.iter().map(from_flat).collect::<Option<_>>().ok_or("internal: unreadable explanation term")?;
    let mut steps = Vec::with_capacity(flat.len().saturating_sub(1));
    for k in 1..flat.len() {
        let (position, name) = rewrite_site(&flat[k], &mut Vec::new()).ok_or("internal: explanation step without a rewrite")?;
        let rule = RuleId::parse(&name).ok_or("internal: unknown rule in explanation")?;
        steps.push(step(theory, &sig, rule, position, &terms[k - 1], &terms[k]).ok_or("internal: explanation step does not match its rule")?);
    }
    Ok(cert(steps))
}
