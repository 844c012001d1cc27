//! E's derivation, once the kernel has checked it link by link, transcribed as a certificate
//! (issue 52): a proof E found is then as good as one Birkhoff found, replayed by
//! [`certificate::check`] and printed, rechecked and cited like any other.
//!
//! A derivation of `$false` from a unit-equality problem is a proof by rewriting in disguise:
//! - each positive unit E derives is an equation that holds for all values of its variables, so
//!   it becomes an open [`Lemma`], proved by the chain its kernel links give (an instance of a
//!   known equation is one step using it at that instance; a superposition or rewrite of
//!   `s = t` by `l = r` at a place is the chain for `l = r`, instantiated and put in context,
//!   followed or preceded by the chain for `s = t`);
//! - each negative unit `s ≠ t` descends from the negated goal `a ≠ b` by rewrites of its sides,
//!   so it is kept as two chains, from `a` to `s` and from `b` to `t`;
//! - `$false` comes from some `u ≠ u`, whose two chains meet at `u`: the first followed by the
//!   second reversed is a chain from `a` to `b`, the goal's proof.
//!
//! Nothing here is trusted: what this module builds is replayed by the certificate checker, and
//! anything it cannot transcribe (a step Z3 checked, a clause that is not a unit, a symbol it
//! cannot place) leaves E's proof as Z3 checked it.

use super::certificate::{self, Binding, Certificate, Direction, Justification, Lemma, Step};
use super::replayed::substitute;
use super::unfolded::{self, Link, Place, Replayed, Unit};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, Signature};
use birkhoff_engine::syntax::{Axiom, Term, VarId};
use birkhoff_engine::{interop, Theory};
use std::collections::HashMap;
use std::sync::Arc;

/// Why a statement of E's derivation holds, as the check of [`super::replayed`] found it.
#[derive(Clone, Debug)]
pub(super) enum Evidence {
    /// A copy of one of the problem's axioms (a theory axiom, or the negated goal).
    Input,
    /// A copy of an earlier statement, by name, up to renaming and orientation.
    Copy(String),
    /// The kernel's chain from the statements it cites.
    Unfolded(Replayed),
}

/// One statement of E's derivation with its evidence.
#[derive(Clone, Debug)]
pub(super) struct Statement {
    /// E's name for it.
    pub name: String,
    /// The statement, over the signature E's derivation was read in.
    pub axiom: Arc<Axiom>,
    /// Why it holds.
    pub evidence: Evidence,
}

/// A certificate that `theory` proves `goal`, transcribed from the `statements` of E's
/// refutation of `problem` (the theory's axioms and the negated goal, Skolemized, as
/// [`super::replayed::refutation_problem`] writes them), read over signature `read`. The caller
/// replays it ([`certificate::check`]); an error says what could not be transcribed.
pub(super) fn certificate(
    theory: &Theory,
    goal: &Axiom,
    problem: &Theory,
    read: &Signature,
    statements: &[Statement],
) -> Result<Certificate, String> {
    let (constants, lhs, rhs) = certificate::goal_sides(&theory.sig, goal)?;
    let ext = certificate::extended_signature(&theory.sig, &constants).map_err(|e| e.0)?;
    // The problem's Skolem constants for the goal's variables come after the theory's symbols,
    // in the order of the goal's constants; the replay checks that they do.
    if problem.sig.funcs.len() != ext.funcs.len() {
        return Err("the problem has Skolem functions beyond the goal's constants".into());
    }
    let names = interop::tptp_function_names(&problem.sig);
    let symbols = read
        .funcs
        .iter()
        .map(|f| {
            names
                .iter()
                .position(|n| *n == f.name)
                .map(|i| FuncId(i as u32))
                .ok_or_else(|| format!("E's symbol `{}` is not the problem's", f.name))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let filler = ext
        .funcs
        .iter()
        .position(|f| f.args.is_empty())
        .map(|i| Term::App(FuncId(i as u32), vec![]))
        .ok_or("the signature has no constant")?;
    let mut t = Transcriber {
        theory,
        ext: &ext,
        symbols,
        filler,
        sides: [lhs.clone(), rhs.clone()],
        lemmas: Vec::new(),
        proved: HashMap::new(),
    };
    for s in statements {
        if let Some(steps) = t.statement(s)? {
            let no_variables = certificate::declaring(&ext, &[]);
            let printer = FormulaPrinter::new(&ext, &no_variables);
            let goal_text = FormulaPrinter::new(&theory.sig, goal).formula(&goal.formula);
            return Ok(Certificate {
                theory: theory.name.clone(),
                goal: goal_text,
                constants,
                lhs,
                rhs,
                cited: Vec::new(),
                lemmas: t.lemmas,
                steps: with_text(steps, &printer),
            });
        }
    }
    Err("no statement of E's derivation is `$false`".into())
}

/// A chain of rewrite steps from `start`; its steps' text is left empty until it is final.
#[derive(Clone, Debug)]
struct Chain {
    start: Term,
    steps: Vec<Step>,
}

impl Chain {
    /// No step, at `t`.
    fn at(t: Term) -> Chain {
        Chain {
            start: t,
            steps: Vec::new(),
        }
    }

    /// One step at the root from `from` to `to`, by `by` left to right.
    fn one(by: Justification, from: Term, to: Term) -> Chain {
        Chain {
            start: from,
            steps: vec![Step {
                by,
                direction: Direction::LeftToRight,
                position: Vec::new(),
                result: to,
                text: String::new(),
            }],
        }
    }

    /// Where the chain ends.
    fn end(&self) -> &Term {
        self.steps.last().map_or(&self.start, |s| &s.result)
    }

    /// The chain with `f` applied to every term it holds (its terms and its steps' values): an
    /// instance of a chain is a chain, since every step is an instance of an equation.
    fn map(&self, f: &impl Fn(&Term) -> Term) -> Chain {
        let by = |b: &Justification| match b {
            Justification::Axiom {
                axiom,
                part,
                substitution,
            } => Justification::Axiom {
                axiom: axiom.clone(),
                part: *part,
                substitution: substitution
                    .iter()
                    .map(|b| Binding {
                        var: b.var.clone(),
                        term: f(&b.term),
                    })
                    .collect(),
            },
            Justification::Lemma {
                lemma,
                substitution,
            } => Justification::Lemma {
                lemma: *lemma,
                substitution: substitution.iter().map(f).collect(),
            },
        };
        Chain {
            start: f(&self.start),
            steps: self
                .steps
                .iter()
                .map(|s| Step {
                    by: by(&s.by),
                    direction: s.direction,
                    position: s.position.clone(),
                    result: f(&s.result),
                    text: String::new(),
                })
                .collect(),
        }
    }

    /// The chain under the substitution `sigma` (variables it leaves out stay).
    fn instance(&self, sigma: &HashMap<VarId, Term>) -> Chain {
        self.map(&|t| substitute(t, sigma))
    }

    /// The same steps backwards, from the end to the start.
    fn reversed(&self) -> Chain {
        let terms: Vec<&Term> = std::iter::once(&self.start)
            .chain(self.steps.iter().map(|s| &s.result))
            .collect();
        Chain {
            start: self.end().clone(),
            steps: self
                .steps
                .iter()
                .enumerate()
                .rev()
                .map(|(i, s)| Step {
                    by: s.by.clone(),
                    direction: match s.direction {
                        Direction::LeftToRight => Direction::RightToLeft,
                        Direction::RightToLeft => Direction::LeftToRight,
                    },
                    position: s.position.clone(),
                    result: terms[i].clone(),
                    text: String::new(),
                })
                .collect(),
        }
    }

    /// The chain at `path` inside `context` (whatever `context` holds there is replaced).
    fn within(&self, context: &Term, path: &[usize]) -> Result<Chain, String> {
        let put = |t: &Term| {
            certificate::replace(context, path, t.clone())
                .ok_or_else(|| "internal: a rewrite's place does not exist".to_string())
        };
        Ok(Chain {
            start: put(&self.start)?,
            steps: self
                .steps
                .iter()
                .map(|s| {
                    Ok(Step {
                        by: s.by.clone(),
                        direction: s.direction,
                        position: path.iter().chain(&s.position).copied().collect(),
                        result: put(&s.result)?,
                        text: String::new(),
                    })
                })
                .collect::<Result<_, String>>()?,
        })
    }

    /// This chain, then `next` from where this one ends.
    fn then(mut self, next: Chain) -> Result<Chain, String> {
        if *self.end() != next.start {
            return Err("internal: two chains do not meet".into());
        }
        self.steps.extend(next.steps);
        Ok(self)
    }
}

/// What is known of a unit clause, as chains.
#[derive(Clone, Debug)]
enum Known {
    /// `s = t`: a chain from `s` to `t`.
    Equal(Chain),
    /// `s ≠ t`: chains from the goal's sides (one each, in some order) to `s` and to `t`.
    Unequal([Chain; 2]),
}

impl Known {
    /// The same for the unit with its sides swapped.
    fn swapped(self) -> Known {
        match self {
            Known::Equal(c) => Known::Equal(c.reversed()),
            Known::Unequal([a, b]) => Known::Unequal([b, a]),
        }
    }

    /// The same for an instance of the unit by `sigma`, its sides swapped when `swap` is set.
    fn instance(&self, swap: bool, sigma: &HashMap<VarId, Term>) -> Known {
        let k = match self {
            Known::Equal(c) => Known::Equal(c.instance(sigma)),
            Known::Unequal([a, b]) => Known::Unequal([a.instance(sigma), b.instance(sigma)]),
        };
        if swap {
            k.swapped()
        } else {
            k
        }
    }
}

/// The transcription under way.
struct Transcriber<'a> {
    theory: &'a Theory,
    /// The theory's signature with the goal's constants.
    ext: &'a Signature,
    /// For each function symbol of E's derivation, the same symbol of `ext`.
    symbols: Vec<FuncId>,
    /// A ground term, put for a variable a lemma's chain passes through but its sides lack.
    filler: Term,
    /// The goal's sides, the goal's variables as constants.
    sides: [Term; 2],
    lemmas: Vec<Lemma>,
    /// Each statement transcribed so far, by name: its unit over `ext`, and what is known of it.
    proved: HashMap<String, (Unit, Known)>,
}

impl Transcriber<'_> {
    /// `t` with E's symbols replaced by `ext`'s.
    fn term(&self, t: &Term) -> Term {
        match t {
            Term::Var(_) => t.clone(),
            Term::App(f, args) => Term::App(
                self.symbols[f.0 as usize],
                args.iter().map(|a| self.term(a)).collect(),
            ),
        }
    }

    /// `u` with E's symbols replaced by `ext`'s.
    fn unit(&self, u: &Unit) -> Unit {
        Unit {
            positive: u.positive,
            sides: u.sides.clone().map(|s| self.term(&s)),
        }
    }

    /// Transcribes statement `s`: the goal's chain if it is `$false`, else `None` (and `s` is
    /// known from then on).
    fn statement(&mut self, s: &Statement) -> Result<Option<Vec<Step>>, String> {
        let clause = unfolded::clause_of(&s.axiom.formula)
            .ok_or_else(|| format!("`{}` is not a unit clause", s.name))?;
        let Some(u) = clause.map(|u| self.unit(&u)) else {
            return match &s.evidence {
                Evidence::Unfolded(r) => self.refuted(r).map(Some),
                _ => Err(format!("`{}` is `$false` without a chain", s.name)),
            };
        };
        let known = match &s.evidence {
            Evidence::Input => self.input(&u)?,
            Evidence::Copy(premise) => {
                let (of, known) = self
                    .proved
                    .get(premise)
                    .ok_or_else(|| format!("`{}` copies `{premise}`, not known", s.name))?;
                let (swap, sigma) = unfolded::instance_of(of, &u)
                    .filter(|_| of.positive == u.positive)
                    .ok_or_else(|| format!("`{}` is no copy of `{premise}`", s.name))?;
                known.instance(swap, &sigma)
            }
            Evidence::Unfolded(r) => match self.unfolded(r, &u)? {
                // A derived equation is proved once, as a lemma, and used at its instances.
                Known::Equal(chain) => Known::Equal(self.lemma(&u, chain)?),
                unequal => unequal,
            },
        };
        self.proved.insert(s.name.clone(), (u, known));
        Ok(None)
    }

    /// What is known of a copy of one of the problem's axioms: an instance of an equation of a
    /// theory axiom, or the negated goal.
    fn input(&self, u: &Unit) -> Result<Known, String> {
        if !u.positive {
            let [s, t] = &u.sides;
            let [a, b] = &self.sides;
            if (s, t) != (a, b) && (s, t) != (b, a) {
                return Err("a negated equation of E's input is not the negated goal".into());
            }
            return Ok(Known::Unequal([Chain::at(s.clone()), Chain::at(t.clone())]));
        }
        for axiom in &self.theory.axioms {
            for (part, (l, r)) in certificate::equations(axiom).into_iter().enumerate() {
                let equation = Unit {
                    positive: true,
                    sides: [l.clone(), r.clone()],
                };
                let Some((swap, sigma)) = unfolded::instance_of(&equation, u) else {
                    continue;
                };
                let mut substitution: Vec<Binding> = sigma
                    .iter()
                    .map(|(v, t)| Binding {
                        var: axiom.vars[v.0 as usize].name.clone(),
                        term: t.clone(),
                    })
                    .collect();
                substitution.sort_by(|a, b| a.var.cmp(&b.var));
                let by = Justification::Axiom {
                    axiom: axiom.name.clone(),
                    part,
                    substitution,
                };
                let chain =
                    Known::Equal(Chain::one(by, substitute(l, &sigma), substitute(r, &sigma)));
                return Ok(if swap { chain.swapped() } else { chain });
            }
        }
        Err("an equation of E's input is no theory axiom's".into())
    }

    /// What the kernel's chain `r` shows of its cited statements and of every link's result.
    fn links(&self, r: &Replayed) -> Result<HashMap<Unit, Known>, String> {
        let mut known: HashMap<Unit, Known> = HashMap::new();
        for (name, cited) in &r.cited {
            let (u, k) = self
                .proved
                .get(name)
                .ok_or_else(|| format!("a chain cites `{name}`, not known"))?;
            if self.unit(cited) != *u {
                return Err(format!("`{name}` was read two ways"));
            }
            known.insert(u.clone(), k.clone());
        }
        let get = |known: &HashMap<Unit, Known>, u: &Unit| {
            known
                .get(u)
                .cloned()
                .ok_or_else(|| "internal: a link rests on a clause not known".to_string())
        };
        for link in &r.links {
            let (result, k) = match link {
                Link::Instance { of, result } => {
                    let (of, result) = (self.unit(of), self.unit(result));
                    let (swap, sigma) = unfolded::instance_of(&of, &result)
                        .ok_or("internal: an instance link is not one")?;
                    (result, get(&known, &of)?.instance(swap, &sigma))
                }
                Link::Rewrite { from, by, result } => {
                    let (from, by, result) = (self.unit(from), self.unit(by), self.unit(result));
                    let Known::Equal(equation) = get(&known, &by)? else {
                        return Err("internal: a rewrite by a negated equation".into());
                    };
                    let (swap, place) = unfolded::rewrite_of(&from, &by, &result)
                        .ok_or("internal: a rewrite link is not one")?;
                    let k = match place {
                        None => get(&known, &from)?,
                        Some(place) => rewritten(get(&known, &from)?, &from, &equation, &place)?,
                    };
                    (result, if swap { k.swapped() } else { k })
                }
            };
            known.insert(result, k);
        }
        Ok(known)
    }

    /// What the kernel's chain `r` shows of its target `unit`.
    fn unfolded(&self, r: &Replayed, unit: &Unit) -> Result<Known, String> {
        for (u, k) in &self.links(r)? {
            if u.positive != unit.positive {
                continue;
            }
            if let Some((swap, sigma)) = unfolded::instance_of(u, unit) {
                return Ok(k.instance(swap, &sigma));
            }
        }
        Err("internal: the kernel's chain does not reach its clause".into())
    }

    /// The goal's chain from the kernel's chain `r` to `$false`: the chains of some `u ≠ u` meet.
    fn refuted(&self, r: &Replayed) -> Result<Vec<Step>, String> {
        for (u, k) in &self.links(r)? {
            if let (false, Known::Unequal([a, b])) = (u.positive, k) {
                if u.sides[0] == u.sides[1] {
                    return self.goal_chain(a, b);
                }
            }
        }
        Err("internal: no chain reaches `t ≠ t`".into())
    }

    /// The goal's chain from its two chains to one `u ≠ u`: from the goal's left side to `u`,
    /// then back to its right side.
    fn goal_chain(&self, a: &Chain, b: &Chain) -> Result<Vec<Step>, String> {
        let [l, r] = &self.sides;
        let chain = if (&a.start, &b.start) == (l, r) {
            a.clone().then(b.reversed())?
        } else if (&a.start, &b.start) == (r, l) {
            b.clone().then(a.reversed())?
        } else {
            return Err("internal: a negated equation does not descend from the goal".into());
        };
        // A clause derived inside one of E's steps and used there may have a chain through
        // variables its sides lost (`x * inv(x)` rewritten to `e`): the goal's chain is ground.
        Ok(chain.map(&|t| rename(t, &[], &self.filler)).steps)
    }

    /// An open lemma for the equation `unit`, proved by `chain` (from its left side to its
    /// right); the chain that uses it at the unit's own variables.
    fn lemma(&mut self, unit: &Unit, chain: Chain) -> Result<Chain, String> {
        let [s, t] = &unit.sides;
        if chain.start != *s || chain.end() != t {
            return Err("internal: a lemma's chain does not join its sides".into());
        }
        // The sides' variables, in order of first occurrence, become the lemma's; any other the
        // chain passes through gets the filler (an instance of a chain is a chain).
        let mut order: Vec<VarId> = Vec::new();
        for side in [s, t] {
            side.for_each_var(&mut |v| {
                if !order.contains(&v) {
                    order.push(v);
                }
            });
        }
        let renumber = |t: &Term| rename(t, &order, &self.filler);
        let sort = certificate::sort_of(self.ext, &self.filler).map_err(|e| e.0)?;
        let variables = certificate::lemma_variables(self.ext, &vec![sort; order.len()]);
        let names = certificate::declaring(self.ext, &variables);
        let printer = FormulaPrinter::new(self.ext, &names);
        let own = chain.map(&renumber);
        let (lhs, rhs) = (renumber(s), renumber(t));
        self.lemmas.push(Lemma {
            variables,
            text: format!("{} = {}", printer.term(&lhs), printer.term(&rhs)),
            lhs,
            rhs,
            steps: with_text(own.steps, &printer),
        });
        let by = Justification::Lemma {
            lemma: self.lemmas.len() - 1,
            substitution: order.iter().map(|&v| Term::Var(v)).collect(),
        };
        Ok(Chain::one(by, s.clone(), t.clone()))
    }
}

/// What is known of `from` rewritten by `equation` (the chain for the equation a rewrite link
/// used) at `place`.
fn rewritten(from: Known, unit: &Unit, equation: &Chain, place: &Place) -> Result<Known, String> {
    // The rewrite itself: the equation's chain at its instance, the way it was used, in context.
    let used = equation.instance(&place.sigma);
    let used = if place.forward { used } else { used.reversed() };
    let old = &unit.sides[place.side];
    let rewrite = used.within(old, &place.path)?;
    if rewrite.start != *old {
        return Err("internal: a rewrite does not start at its clause".into());
    }
    Ok(match (from, place.side) {
        // The new left side: back to the old one, then the old chain.
        (Known::Equal(chain), 0) => Known::Equal(rewrite.reversed().then(chain)?),
        (Known::Equal(chain), _) => Known::Equal(chain.then(rewrite)?),
        (Known::Unequal(mut chains), side) => {
            chains[side] = chains[side].clone().then(rewrite)?;
            Known::Unequal(chains)
        }
    })
}

/// `t` with variable `order[i]` renamed `i`, and any other replaced by `filler`.
fn rename(t: &Term, order: &[VarId], filler: &Term) -> Term {
    match t {
        Term::Var(v) => match order.iter().position(|w| w == v) {
            Some(i) => Term::Var(VarId(i as u32)),
            None => filler.clone(),
        },
        Term::App(f, args) => {
            Term::App(*f, args.iter().map(|a| rename(a, order, filler)).collect())
        }
    }
}

/// `steps` with their results written out by `printer`, for people.
fn with_text(steps: Vec<Step>, printer: &FormulaPrinter) -> Vec<Step> {
    steps
        .into_iter()
        .map(|s| Step {
            text: printer.term(&s.result),
            ..s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::replayed::{prove, Outcome};
    use super::*;
    use birkhoff_engine::parse::parse_formula;
    use std::time::Duration;

    const GROUP: &str = "theory G\nfunc * : 2 infix left 50\nfunc inv : 1\nconst e\n\
        axiom assoc: (x * y) * z = x * (y * z)\naxiom left_id: e * x = x\n\
        axiom left_inv: inv(x) * x = e\n";

    /// Huntington's axioms for Boolean algebras: `x + x = x` is a theorem Birkhoff's own
    /// searches do not reach in a minute, and E proves in a tenth of a second.
    const HUNTINGTON: &str = "theory H\nfunc + : 2 infix left 50\nfunc n : 1\n\
        axiom comm: x + y = y + x\naxiom assoc: (x + y) + z = x + (y + z)\n\
        axiom hunt: n(n(x) + y) + n(n(x) + n(y)) = x\n";

    fn e_installed() -> bool {
        let yes = super::super::external::find_on_path("eprover").is_some();
        if !yes {
            eprintln!("eprover is not installed: the transcription of its proofs is not exercised");
        }
        yes
    }

    /// E's proof of `goal`, which must come transcribed.
    fn certified(theory: &str, goal: &str) -> (Theory, Axiom, Certificate) {
        let t = Theory::parse(theory, "t.bk").unwrap();
        let g = parse_formula(&t.sig, goal, "goal").unwrap();
        match prove(&t, &g, Duration::from_secs(30), None) {
            Outcome::Certified { certificate } => (t, g, certificate),
            other => panic!("{goal}: not certified: {other:?}"),
        }
    }

    #[test]
    fn es_unit_derivations_become_certificates_the_checker_replays() {
        if !e_installed() {
            return;
        }
        for (theory, goal) in [
            (GROUP, "x * inv(x) = e"),
            (GROUP, "x * e = x"),
            (GROUP, "inv(x * y) = inv(y) * inv(x)"),
            (HUNTINGTON, "x + x = x"),
        ] {
            let (t, g, cert) = certified(theory, goal);
            assert_eq!(certificate::check(&t, &g, &cert), Ok(()), "{goal}");
            // Each derived equation is proved once, as a lemma the later ones use.
            assert!(cert.lemmas.iter().all(|l| !l.steps.is_empty()), "{goal}");
            // The certificate proves this goal only: not another one of the same signature.
            let other = parse_formula(&t.sig, "x = y", "other").unwrap();
            assert!(certificate::check(&t, &other, &cert).is_err(), "{goal}");
        }
    }

    /// GRP452-1 of TPTP: a single axiom for groups in division, a ground goal. E's derivation
    /// rewrites `x / x` to a clause without `x` inside one step and uses it there: the goal's
    /// chain passes through a variable its clauses lost, which must be made ground.
    #[test]
    fn a_ground_goal_from_a_single_axiom_is_certified() {
        if !e_installed() {
            return;
        }
        let problem = "fof(single_axiom, axiom, ! [A,B,C] : (divide(divide(divide(A,A),\
            divide(A,divide(B,divide(divide(divide(A,A),A),C)))),C) = B)).\n\
            fof(multiply, axiom, ! [A,B,C] : (multiply(A,B) = divide(A,divide(divide(C,C),B)))).\n\
            fof(inverse, axiom, ! [A,B] : (inverse(A) = divide(divide(B,B),A))).\n\
            fof(goal, conjecture, multiply(multiply(inverse(b2),b2),a2) = a2).\n";
        let imported = interop::import(problem, "GRP452-1.p").unwrap();
        let (t, g) = (imported.theory, &imported.conjectures[0]);
        match prove(&t, g, Duration::from_secs(30), None) {
            Outcome::Certified { certificate } => {
                assert_eq!(certificate::check(&t, g, &certificate), Ok(()))
            }
            other => panic!("not certified: {other:?}"),
        }
    }

    #[test]
    fn a_derived_equation_with_a_step_undone_is_refused() {
        if !e_installed() {
            return;
        }
        let (t, g, mut cert) = certified(HUNTINGTON, "x + x = x");
        let lemma = cert
            .lemmas
            .iter()
            .position(|l| l.steps.len() > 1)
            .expect("a lemma of several steps");
        cert.lemmas[lemma].steps.pop();
        assert!(certificate::check(&t, &g, &cert).is_err());
    }

    #[test]
    fn a_derivation_that_is_not_on_unit_equations_stays_a_checked_proof() {
        if !e_installed() {
            return;
        }
        // A lattice given as an order: E's derivation resolves clauses, which no chain of
        // rewrites states; its proof is Z3's check, as before.
        let t = Theory::parse(
            "theory OrderLattice\nrel le : 2\nfunc ^ : 2 infix left 40\n\
             axiom reflexive: le(x, x)\naxiom antisymmetric: le(x, y) & le(y, x) -> x = y\n\
             axiom transitive: le(x, y) & le(y, z) -> le(x, z)\n\
             axiom meet_lower: le(x ^ y, x) & le(x ^ y, y)\n\
             axiom meet_greatest: le(z, x) & le(z, y) -> le(z, x ^ y)\n",
            "o.bk",
        )
        .unwrap();
        let g = parse_formula(&t.sig, "x ^ y = y ^ x", "goal").unwrap();
        let outcome = prove(&t, &g, Duration::from_secs(30), None);
        assert!(matches!(outcome, Outcome::Proved { .. }), "{outcome:?}");
    }
}
