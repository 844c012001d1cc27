//! Proof certificates for equational goals, and their checker.
//!
//! A certificate proves `s = t` (universally quantified) from a theory by a chain of rewrite
//! steps from `s` to `t`, where the goal's variables have become fresh constants (so the proof
//! holds for all their values). Each step names an equational axiom, the direction it is used in,
//! the substitution for the axiom's variables and the position where it applies, or it uses a
//! [`Lemma`]: an equation proved earlier in the certificate by a chain of its own. Lemmas keep
//! proofs that reuse a sub-proof many times from growing exponentially; replacing equals by equals
//! in any context is sound, so a lemma may be used at any position.
//!
//! A lemma may have variables of its own (an *open* lemma, `Term::Var(i)` for its `i`-th
//! variable): its chain treats them as arbitrary elements, matched only by themselves, so it
//! proves the equation for all their values (an equational derivation stays one under any
//! substitution), and a step uses it at an instance, giving a value for each variable. One open
//! lemma serves every instance a proof needs; ground lemmas would need a proof per instance.
//!
//! A certificate may also cite statements proved before it ([`Cited`]), each with a certificate
//! of its own: the checker replays that one first, then lets the steps use the statement as an
//! axiom, at any instance (what a mathematician does with a lemma, and what keeps a proof that
//! uses a lemma at many instances from holding a copy of its proof for each).
//!
//! [`check`] replays every step on the engine's own terms, checking sorts as it goes; it knows
//! nothing of how the chain was found (it shares no code with egg), so a proof is only as trusted
//! as this small file.

use birkhoff_engine::signature::{Fixity, FuncDecl, FuncId, Signature, SortId};
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use birkhoff_engine::Theory;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A goal variable turned into a fresh constant. In certificate terms, goal constant `i` is
/// `FuncId(n + i)` where `n` is the number of function symbols of the theory.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GoalConstant {
    /// The goal variable's name.
    pub name: String,
    /// The name of its sort.
    pub sort: String,
}

/// Which way an equation `l = r` is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Replace an instance of `l` by the same instance of `r`.
    LeftToRight,
    /// Replace an instance of `r` by the same instance of `l`.
    RightToLeft,
}

/// One value of an axiom variable in a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// The axiom variable's name.
    pub var: String,
    /// Its value: a ground term.
    pub term: Term,
}

/// The equation a step uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Justification {
    /// An instance of an equation of an axiom.
    Axiom {
        /// The axiom used.
        axiom: String,
        /// Which equation of the axiom (its conjuncts, see [`equations`]); 0 for a plain equation.
        part: usize,
        /// A value for every variable of the equation.
        substitution: Vec<Binding>,
    },
    /// A lemma of the certificate, by index; it must come before the lemma or chain using it.
    Lemma {
        /// Index into [`Certificate::lemmas`].
        lemma: usize,
        /// A value for each of the lemma's variables, in order (none for a ground lemma).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        substitution: Vec<Term>,
    },
}

/// One rewrite step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The equation used.
    #[serde(flatten)]
    pub by: Justification,
    /// How the equation is used.
    pub direction: Direction,
    /// Where it applies: argument indices (from 0) on the path from the root.
    pub position: Vec<usize>,
    /// The whole term after the step.
    pub result: Term,
    /// The result as text, for people; not checked.
    pub text: String,
}

/// An equation over the extended signature, proved by a chain of steps from `lhs` to `rhs` that
/// may use the axioms and the lemmas before it; ground, or open in its `variables`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lemma {
    /// Its variables, named and sorted as goal constants are: `Term::Var(i)` in its terms is the
    /// `i`-th, for all values of its sort (none for a ground lemma).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<GoalConstant>,
    /// The left side.
    pub lhs: Term,
    /// The right side.
    pub rhs: Term,
    /// The equation as text, for people; not checked.
    pub text: String,
    /// The chain from `lhs` to `rhs`.
    pub steps: Vec<Step>,
}

/// A statement (universally quantified, over the theory's symbols) with its own certificate,
/// which a certificate's steps may use as an axiom by `name`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cited {
    /// The name the steps use; no axiom of the theory, nor an earlier citation, has it.
    pub name: String,
    /// The statement, as the theory language writes a formula.
    pub statement: String,
    /// Its proof from the theory's axioms and the citations before it in the citing
    /// certificate's list ([`Certificate::flattened`]); or, when it has citations of its own (the
    /// nested form), from the axioms and those alone.
    pub certificate: Certificate,
}

/// A proof of an equational goal as a chain of rewrite steps from its left side to its right side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// The theory's name (informational: [`check`] is given the theory).
    pub theory: String,
    /// The goal as text (informational: [`check`] is given the goal).
    pub goal: String,
    /// The goal's variables, as fresh constants.
    pub constants: Vec<GoalConstant>,
    /// The goal's left side with the constants in place of its variables.
    pub lhs: Term,
    /// The goal's right side, likewise.
    pub rhs: Term,
    /// Statements proved before, which the steps may use as axioms by their names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cited: Vec<Cited>,
    /// Lemmas, in the order they are proved (none for most short proofs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lemmas: Vec<Lemma>,
    /// The chain from `lhs` to `rhs`.
    pub steps: Vec<Step>,
}

impl Certificate {
    /// The same proof with its citations' own citations hoisted into its list, each before the
    /// citations that use it, and each statement once. Nested, a chain of statements each citing
    /// the one before doubles at every link (a second look at rings with x³ = x once wrote
    /// 285 MB); flat, it grows by one entry. A hoisted citation keeps its name where no entry
    /// before it has that name, and otherwise becomes "proved statement k" (k its place); the
    /// steps that use it are renamed to match.
    pub fn flattened(mut self) -> Certificate {
        let mut flat = Vec::new();
        let names = hoist_all(std::mem::take(&mut self.cited), &mut flat);
        rename_citations(&mut self, &names);
        self.cited = flat;
        self
    }

    /// Rewrite steps in all, lemmas included.
    pub fn total_steps(&self) -> usize {
        self.steps.len()
            + self.lemmas.iter().map(|l| l.steps.len()).sum::<usize>()
            + self
                .cited
                .iter()
                .map(|c| c.certificate.total_steps())
                .sum::<usize>()
    }
}

/// Hoists a certificate's citations into `flat` in their order ([`hoist`]); the name each has
/// there, by its name in `list`. An entry without citations of its own may use the entries
/// before it (the flat form), so their names in `flat` are put into its steps first.
fn hoist_all(list: Vec<Cited>, flat: &mut Vec<Cited>) -> HashMap<String, String> {
    let mut names = HashMap::new();
    for mut c in list {
        if c.certificate.cited.is_empty() {
            rename_citations(&mut c.certificate, &names);
        }
        let old = c.name.clone();
        let new = hoist(c, flat);
        names.insert(old, new);
    }
    names
}

/// Puts `c` into `flat` after its own citations ([`Certificate::flattened`]), unless a statement
/// the same is there already; the name it has there.
fn hoist(c: Cited, flat: &mut Vec<Cited>) -> String {
    let Cited {
        name,
        statement,
        mut certificate,
    } = c;
    if let Some(same) = flat.iter().find(|f| f.statement == statement) {
        return same.name.clone();
    }
    let names = hoist_all(std::mem::take(&mut certificate.cited), flat);
    rename_citations(&mut certificate, &names);
    let taken = |n: &str| flat.iter().any(|f| f.name == n);
    let name = if taken(&name) {
        (flat.len() + 1..)
            .map(|k| format!("proved statement {k}"))
            .find(|n| !taken(n))
            .expect("some number is free")
    } else {
        name
    };
    flat.push(Cited {
        name: name.clone(),
        statement,
        certificate,
    });
    name
}

/// Whether a step of `cert`'s chain or lemmas uses the citation `name` (not one of its
/// citations' own steps).
pub fn cites(cert: &Certificate, name: &str) -> bool {
    cert.steps
        .iter()
        .chain(cert.lemmas.iter().flat_map(|l| &l.steps))
        .any(|s| matches!(&s.by, Justification::Axiom { axiom, .. } if axiom == name))
}

/// Renames the citations `cert`'s steps and lemmas use, by `names`.
fn rename_citations(cert: &mut Certificate, names: &HashMap<String, String>) {
    let steps = cert
        .steps
        .iter_mut()
        .chain(cert.lemmas.iter_mut().flat_map(|l| &mut l.steps));
    for step in steps {
        if let Justification::Axiom { axiom, .. } = &mut step.by {
            if let Some(new) = names.get(axiom.as_str()) {
                axiom.clone_from(new);
            }
        }
    }
}

/// Why a certificate is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("certificate rejected: {0}")]
pub struct Rejected(pub String);

fn reject<T>(msg: impl Into<String>) -> Result<T, Rejected> {
    Err(Rejected(msg.into()))
}

/// The equations an axiom asserts for all values of its variables: after its leading universal
/// quantifiers, the conjuncts (nested `&`) that are equations. Other conjuncts are left out,
/// which is sound: a conjunction implies each conjunct.
pub fn equations(axiom: &Axiom) -> Vec<(&Term, &Term)> {
    let conjuncts = axiom.formula.without_leading_foralls().conjuncts();
    conjuncts
        .into_iter()
        .filter_map(|f| {
            if let Formula::Eq(l, r) = f {
                Some((l, r))
            } else {
                None
            }
        })
        .collect()
}

/// The goal's universal variables (free ones, then leading `all`) and its equation, or why the
/// goal is not a universally quantified equation.
pub fn goal_equation(goal: &Axiom) -> Result<(Vec<VarId>, &Term, &Term), String> {
    let (vars, body) = goal.universal_prefix();
    match body {
        Formula::Eq(l, r) => Ok((vars, l, r)),
        _ => Err("the goal is not an equation (s = t, possibly under `all`)".into()),
    }
}

/// Names for lemma variables of sorts `sorts`: `x1`, `x2`, … skipping the names of `sig`'s
/// symbols (goal constants included), so that a lemma's text reads back in the theory's syntax.
pub fn lemma_variables(sig: &Signature, sorts: &[SortId]) -> Vec<GoalConstant> {
    let taken = |name: &str| sig.funcs.iter().any(|f| f.name == name);
    let mut names = (1..).map(|i| format!("x{i}")).filter(|n| !taken(n));
    sorts
        .iter()
        .map(|&s| GoalConstant {
            name: names.next().expect("an unbounded supply of names"),
            sort: sig.sort_decl(s).name.clone(),
        })
        .collect()
}

/// An axiom that only declares `vars` (their sorts named in `sig`): what a printer needs to
/// write terms over them, an open lemma's. (A sort `sig` lacks is given as its first: the
/// printer writes names only, and a checked certificate's sorts exist.)
pub fn declaring(sig: &Signature, vars: &[GoalConstant]) -> Axiom {
    Axiom {
        name: String::new(),
        formula: Formula::True,
        vars: vars
            .iter()
            .map(|v| VarDecl {
                name: v.name.clone(),
                sort: sig.sort(&v.sort).unwrap_or(SortId(0)),
            })
            .collect(),
        origin: None,
    }
}

/// The theory's signature extended by the goal constants.
pub fn extended_signature(
    sig: &Signature,
    constants: &[GoalConstant],
) -> Result<Signature, Rejected> {
    let mut ext = sig.clone();
    for c in constants {
        let Some(sort) = sig.sort(&c.sort) else {
            return reject(format!(
                "goal constant `{}` has unknown sort `{}`",
                c.name, c.sort
            ));
        };
        ext.funcs.push(FuncDecl {
            name: c.name.clone(),
            args: vec![],
            result: sort,
            fixity: Fixity::Prefix,
        });
    }
    Ok(ext)
}

/// The goal's sides with the goal constants in place of its variables, and the constants.
pub fn goal_sides(
    sig: &Signature,
    goal: &Axiom,
) -> Result<(Vec<GoalConstant>, Term, Term), String> {
    let (vars, l, r) = goal_equation(goal)?;
    let n = sig.funcs.len() as u32;
    let constants = vars.iter().map(|v| {
        let d = &goal.vars[v.0 as usize];
        GoalConstant {
            name: d.name.clone(),
            sort: sig.sort_decl(d.sort).name.clone(),
        }
    });
    let value = |v: VarId| {
        vars.iter()
            .position(|&w| w == v)
            .map(|i| Term::App(FuncId(n + i as u32), vec![]))
    };
    Ok((
        constants.collect(),
        substitute(l, &value).ok_or("goal variable missing")?,
        substitute(r, &value).ok_or("goal variable missing")?,
    ))
}

/// `t` with every variable replaced by its value; `None` if a variable has none.
pub fn substitute(t: &Term, value: &impl Fn(VarId) -> Option<Term>) -> Option<Term> {
    match t {
        Term::Var(v) => value(*v),
        Term::App(f, args) => Some(Term::App(
            *f,
            args.iter()
                .map(|a| substitute(a, value))
                .collect::<Option<_>>()?,
        )),
    }
}

/// The subterm at `position`, if the position exists.
pub fn subterm<'a>(t: &'a Term, position: &[usize]) -> Option<&'a Term> {
    match position.split_first() {
        None => Some(t),
        Some((&i, rest)) => match t {
            Term::App(_, args) => subterm(args.get(i)?, rest),
            Term::Var(_) => None,
        },
    }
}

/// `t` with the subterm at `position` replaced by `new`; `None` if the position does not exist.
pub fn replace(t: &Term, position: &[usize], new: Term) -> Option<Term> {
    match position.split_first() {
        None => Some(new),
        Some((&i, rest)) => match t {
            Term::App(f, args) if i < args.len() => {
                let mut args = args.clone();
                args[i] = replace(&args[i], rest, new)?;
                Some(Term::App(*f, args))
            }
            _ => None,
        },
    }
}

/// The sort of a ground, well-sorted term of `sig`.
pub fn sort_of(sig: &Signature, t: &Term) -> Result<SortId, Rejected> {
    sort_in(sig, &[], t)
}

/// The sort of a well-sorted term of `sig` whose variables are those of `vars` (`Term::Var(i)`
/// has sort `vars[i]`): an open lemma's terms.
pub fn sort_in(sig: &Signature, vars: &[SortId], t: &Term) -> Result<SortId, Rejected> {
    match t {
        Term::Var(v) => match vars.get(v.0 as usize) {
            Some(&s) => Ok(s),
            None => reject("a certificate term contains a variable that is not a lemma's"),
        },
        Term::App(f, args) => {
            let Some(d) = sig.funcs.get(f.0 as usize) else {
                return reject(format!("unknown function symbol #{}", f.0));
            };
            if d.args.len() != args.len() {
                return reject(format!(
                    "`{}` takes {} argument(s), given {}",
                    d.name,
                    d.args.len(),
                    args.len()
                ));
            }
            for (a, &s) in args.iter().zip(&d.args) {
                if sort_in(sig, vars, a)? != s {
                    return reject(format!("an argument of `{}` has the wrong sort", d.name));
                }
            }
            Ok(d.result)
        }
    }
}

/// What a chain may use: the theory's axioms (over the extended signature `ext`) and the lemmas
/// proved before it, each with its variables' sorts.
struct Proved<'a> {
    theory: &'a Theory,
    ext: &'a Signature,
    lemmas: &'a [Lemma],
    lemma_sorts: &'a [Vec<SortId>],
}

/// The equation `(from, to)` a step of a chain over variables of sorts `vars` rewrites with, in
/// its direction, as terms over those variables.
fn step_equation(
    proved: &Proved,
    vars: &[SortId],
    step: &Step,
    at: &impl Fn(String) -> Rejected,
) -> Result<(Term, Term), Rejected> {
    let (l, r) = match &step.by {
        Justification::Axiom {
            axiom: name,
            part,
            substitution,
        } => {
            let axiom = proved
                .theory
                .axiom(name)
                .ok_or_else(|| at(format!("no axiom `{name}`")))?;
            let eqs = equations(axiom);
            let &(l, r) = eqs
                .get(*part)
                .ok_or_else(|| at(format!("axiom `{name}` has no equation #{part}")))?;
            let mut values: Vec<Option<Term>> = vec![None; axiom.vars.len()];
            for b in substitution {
                let Some(i) = axiom.vars.iter().position(|d| d.name == b.var) else {
                    return Err(at(format!("axiom `{name}` has no variable `{}`", b.var)));
                };
                let sort = sort_in(proved.ext, vars, &b.term).map_err(|e| at(e.0))?;
                if sort != axiom.vars[i].sort {
                    return Err(at(format!("the value of `{}` has the wrong sort", b.var)));
                }
                if values[i].replace(b.term.clone()).is_some() {
                    return Err(at(format!("variable `{}` is bound twice", b.var)));
                }
            }
            let value = |v: VarId| values[v.0 as usize].clone();
            let missing =
                || at("the substitution leaves a variable of the equation without a value".into());
            (
                substitute(l, &value).ok_or_else(missing)?,
                substitute(r, &value).ok_or_else(missing)?,
            )
        }
        Justification::Lemma {
            lemma,
            substitution,
        } => {
            let (Some(l), Some(sorts)) =
                (proved.lemmas.get(*lemma), proved.lemma_sorts.get(*lemma))
            else {
                return Err(at(format!("lemma {lemma} is not (yet) proved here")));
            };
            if substitution.len() != sorts.len() {
                return Err(at(format!(
                    "lemma {lemma} has {} variable(s), given {} value(s)",
                    sorts.len(),
                    substitution.len()
                )));
            }
            for (value, &sort) in substitution.iter().zip(sorts) {
                if sort_in(proved.ext, vars, value).map_err(|e| at(e.0))? != sort {
                    return Err(at(format!("a value for lemma {lemma} has the wrong sort")));
                }
            }
            let value = |v: VarId| substitution.get(v.0 as usize).cloned();
            let missing = || at(format!("lemma {lemma} has a variable it does not declare"));
            (
                substitute(&l.lhs, &value).ok_or_else(missing)?,
                substitute(&l.rhs, &value).ok_or_else(missing)?,
            )
        }
    };
    Ok(match step.direction {
        Direction::LeftToRight => (l, r),
        Direction::RightToLeft => (r, l),
    })
}

/// Replays a chain from `from` to `to` over variables of sorts `vars` (those of the lemma it
/// proves; none for the goal's chain), using what `proved` holds; `what` names it in messages.
fn replay_chain(
    proved: &Proved,
    vars: &[SortId],
    from: &Term,
    to: &Term,
    steps: &[Step],
    what: &str,
) -> Result<(), Rejected> {
    let sort = |t| sort_in(proved.ext, vars, t).map_err(|e| Rejected(format!("{what}: {}", e.0)));
    if sort(from)? != sort(to)? {
        return reject(format!("{what}: the two sides have different sorts"));
    }
    let mut current = from.clone();
    for (k, step) in steps.iter().enumerate() {
        let at = |msg: String| Rejected(format!("{what}, step {}: {msg}", k + 1));
        let (old, new) = step_equation(proved, vars, step, &at)?;
        if subterm(&current, &step.position) != Some(&old) {
            return Err(at(
                "the equation's side does not occur at the stated position".into(),
            ));
        }
        let next =
            replace(&current, &step.position, new).ok_or_else(|| at("bad position".into()))?;
        if next != step.result {
            return Err(at("the stated result differs from the replayed one".into()));
        }
        current = next;
    }
    if current != *to {
        return reject(format!("{what}: the chain does not end at the right side"));
    }
    Ok(())
}

/// `theory` with each cited statement (name, statement) as an axiom of that name, read as the
/// checker reads a citation; a name that an axiom or an earlier citation has is refused. Their
/// proofs are not checked here ([`check`] replays them).
pub fn with_citations<'a>(
    theory: &Theory,
    cited: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Theory, Rejected> {
    let mut with = theory.clone();
    for (name, statement) in cited {
        if with.axioms.iter().any(|a| a.name == name) {
            return reject(format!("the citation `{name}` reuses a name"));
        }
        let axiom = birkhoff_engine::parse::parse_formula(&theory.sig, statement, name)
            .map_err(|e| Rejected(format!("the citation `{name}`: {e}")))?;
        with.axioms.push(std::sync::Arc::new(axiom));
    }
    Ok(with)
}

/// Accepts the certificate only if it proves `goal` from `theory`: its sides are the goal's sides
/// with fresh constants for the goal's variables, every lemma (ground, or open in its variables)
/// is proved by a chain using only the axioms and earlier lemmas, every step is a well-sorted
/// instance of an equational axiom or a lemma at an existing position, and the goal's chain ends
/// at its right side.
pub fn check(theory: &Theory, goal: &Axiom, cert: &Certificate) -> Result<(), Rejected> {
    check_before(theory, goal, cert, None).map(drop)
}

/// [`check`], giving up with `Ok(false)` when `deadline` has passed before a lemma is replayed:
/// a certificate of a thousand steps over large terms takes a good part of a second.
pub fn check_before(
    theory: &Theory,
    goal: &Axiom,
    cert: &Certificate,
    deadline: Option<std::time::Instant>,
) -> Result<bool, Rejected> {
    // Each citation is replayed first, from the axioms and the citations before it (or, in the
    // nested form, from the axioms and its own citations); then it is an axiom like the others.
    let with_cited;
    let theory = if cert.cited.is_empty() {
        theory
    } else {
        let named = cert.cited.iter().map(|c| (&*c.name, &*c.statement));
        with_cited = with_citations(theory, named)?;
        // The axioms and the citations replayed so far.
        let mut earlier = theory.clone();
        let statements = &with_cited.axioms[theory.axioms.len()..];
        for (c, statement) in cert.cited.iter().zip(statements) {
            let from = if c.certificate.cited.is_empty() {
                &earlier
            } else {
                theory
            };
            if !check_before(from, statement, &c.certificate, deadline)? {
                return Ok(false);
            }
            earlier.axioms.push(statement.clone());
        }
        &with_cited
    };
    let (constants, lhs, rhs) = goal_sides(&theory.sig, goal).map_err(Rejected)?;
    if cert.constants != constants {
        return reject("the goal constants do not match the goal's variables");
    }
    if cert.lhs != lhs || cert.rhs != rhs {
        return reject("the certificate's sides are not the goal's sides");
    }
    let ext = extended_signature(&theory.sig, &cert.constants)?;
    let past = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let lemma_sorts = cert
        .lemmas
        .iter()
        .enumerate()
        .map(|(i, l)| {
            l.variables
                .iter()
                .map(|v| {
                    ext.sort(&v.sort).ok_or_else(|| {
                        Rejected(format!(
                            "lemma {i}: variable `{}` has unknown sort `{}`",
                            v.name, v.sort
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    for (i, lemma) in cert.lemmas.iter().enumerate() {
        if past() {
            return Ok(false);
        }
        let proved = Proved {
            theory,
            ext: &ext,
            lemmas: &cert.lemmas[..i],
            lemma_sorts: &lemma_sorts[..i],
        };
        replay_chain(
            &proved,
            &lemma_sorts[i],
            &lemma.lhs,
            &lemma.rhs,
            &lemma.steps,
            &format!("lemma {i}"),
        )?;
    }
    if past() {
        return Ok(false);
    }
    let proved = Proved {
        theory,
        ext: &ext,
        lemmas: &cert.lemmas,
        lemma_sorts: &lemma_sorts,
    };
    replay_chain(&proved, &[], &lhs, &rhs, &cert.steps, "the goal").map(|()| true)
}
