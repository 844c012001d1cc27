//! Identities of Boolean algebras and Boolean rings proved by normal forms, with certificates.
//!
//! Two Boolean terms are equal in every Boolean algebra exactly when they have the same full
//! disjunctive normal form: the join of the minterms (one literal for each variable) where they
//! are true. In a Boolean ring the normal form is the sum of distinct monomials, each a product
//! of distinct variables (Zhegalkin's polynomial). So an identity is proved by rewriting each
//! side to its normal form and meeting in the middle; every rewrite is an instance of a *law*
//! (double complement, De Morgan, distributivity, the laws of 0 and 1, commutativity and
//! associativity, idempotence, x ∧ (¬x ∧ z) = 0, the split x = (x ∧ y) ∨ (x ∧ ¬y); in a ring
//! x + x = 0 and −x = x), each proved first from the theory's own axioms by the prover, with a
//! certificate. The proof is a [`Certificate`] that cites the laws it uses, and it is returned
//! only once the kernel has replayed it ([`certificate::check_before`]).
//!
//! This is what a superposition prover finds hard: the symmetric difference
//! (x ∧ ¬y) ∨ (¬x ∧ y) is associative in every Boolean algebra (the addition of the Boolean ring
//! Stone's definitions give), but neither E in 100 s nor Birkhoff's own lanes prove it from a
//! Boolean algebra's axioms; the normal forms do in milliseconds, once the laws are proved.
//!
//! The theory need not be written as Boolean algebras or rings are: any single-sorted theory
//! with two binary operations, a unary one and two constants of which one kind's laws can be
//! proved qualifies ([`Kit::find`]); which kind, and which symbols play which operation, is
//! found by trying them, and a wrong guess is refuted by a countermodel of its first laws.

use super::certificate::{self, Binding, Certificate, Cited, Direction, Step};
use super::lemmas::{prove_citing, ProvedStatement};
use super::rewrite::matches;
use super::{Options, Verdict};
use crate::finder::FinderError;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, SortId};
use birkhoff_engine::syntax::{Formula, Term, VarDecl, VarId};
use birkhoff_engine::{eval, Axiom, Theory};
use std::time::Instant;

/// Which of the two presentations of the same class a theory's kit is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A Boolean algebra: ∧, ∨, ¬, 0, 1. Normal form: the join of the minterms where a term is
    /// true.
    Algebra,
    /// A Boolean ring: ·, +, −, 0, 1. Normal form: the sum of distinct monomials (Zhegalkin's
    /// polynomial), each a product of distinct variables.
    Ring,
}

/// The symbols that play the Boolean operations in a theory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roles {
    /// ∧ in a Boolean algebra, · in a Boolean ring.
    pub times: FuncId,
    /// ∨ in a Boolean algebra, + in a Boolean ring.
    pub plus: FuncId,
    /// ¬ in a Boolean algebra, − in a Boolean ring.
    pub unary: FuncId,
    /// 0.
    pub zero: FuncId,
    /// 1.
    pub one: FuncId,
}

impl Roles {
    fn all(&self) -> [FuncId; 5] {
        [self.times, self.plus, self.unary, self.zero, self.one]
    }
}

/// The laws the normal forms rewrite with. Each kind proves its own, in the order of
/// [`Kind::laws`] (the first refute a wrong guess of the roles at once, in a two-element model).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Law {
    ComplementMeet,
    ComplementJoin,
    TimesComm,
    PlusComm,
    TimesAssoc,
    PlusAssoc,
    TimesIdem,
    JoinIdem,
    TimesZero,
    TimesZeroLeft,
    TimesOne,
    TimesOneLeft,
    PlusZero,
    PlusZeroLeft,
    JoinTop,
    JoinTopLeft,
    DoubleComplement,
    DeMorganMeet,
    DeMorganJoin,
    ComplementBottom,
    ComplementTop,
    DistributeLeft,
    DistributeRight,
    TimesLeftComm,
    PlusLeftComm,
    TimesLeftIdem,
    JoinLeftIdem,
    MeetLeftComplement,
    Split,
    PlusSelf,
    PlusLeftSelf,
    NegationIsIdentity,
}

impl Kind {
    /// The laws a kit of this kind proves, in order.
    fn laws(self) -> &'static [Law] {
        match self {
            Kind::Algebra => &[
                Law::ComplementMeet,
                Law::ComplementJoin,
                Law::TimesComm,
                Law::PlusComm,
                Law::TimesAssoc,
                Law::PlusAssoc,
                Law::TimesIdem,
                Law::JoinIdem,
                Law::TimesZero,
                Law::TimesZeroLeft,
                Law::TimesOne,
                Law::TimesOneLeft,
                Law::PlusZero,
                Law::PlusZeroLeft,
                Law::JoinTop,
                Law::JoinTopLeft,
                Law::DoubleComplement,
                Law::DeMorganMeet,
                Law::DeMorganJoin,
                Law::ComplementBottom,
                Law::ComplementTop,
                Law::DistributeLeft,
                Law::DistributeRight,
                Law::TimesLeftComm,
                Law::PlusLeftComm,
                Law::TimesLeftIdem,
                Law::JoinLeftIdem,
                Law::MeetLeftComplement,
                Law::Split,
            ],
            Kind::Ring => &[
                Law::PlusSelf,
                Law::TimesIdem,
                Law::NegationIsIdentity,
                Law::TimesComm,
                Law::PlusComm,
                Law::TimesAssoc,
                Law::PlusAssoc,
                Law::TimesZero,
                Law::TimesZeroLeft,
                Law::TimesOne,
                Law::TimesOneLeft,
                Law::PlusZero,
                Law::PlusZeroLeft,
                Law::DistributeLeft,
                Law::DistributeRight,
                Law::TimesLeftComm,
                Law::PlusLeftComm,
                Law::TimesLeftIdem,
                Law::PlusLeftSelf,
            ],
        }
    }
}

impl Law {
    /// The law as a statement over `theory`'s signature, its variables named apart from the
    /// symbols.
    fn written(self, theory: &Theory, roles: &Roles) -> Axiom {
        let sort = SortId(0);
        let names = certificate::lemma_variables(&theory.sig, &[sort; 3]);
        let (lhs, rhs) = self.equation(roles);
        Axiom {
            name: String::new(),
            formula: Formula::Eq(lhs, rhs),
            vars: names
                .into_iter()
                .map(|v| VarDecl { name: v.name, sort })
                .collect(),
            origin: None,
        }
    }

    /// The law as an equation over `Var(0)`, `Var(1)`, `Var(2)`.
    fn equation(self, r: &Roles) -> (Term, Term) {
        let m = |a: Term, b: Term| Term::App(r.times, vec![a, b]);
        let j = |a: Term, b: Term| Term::App(r.plus, vec![a, b]);
        let c = |a: Term| Term::App(r.unary, vec![a]);
        let (o, i) = (Term::App(r.zero, vec![]), Term::App(r.one, vec![]));
        let [x, y, z] = [0, 1, 2].map(|k| Term::Var(VarId(k)));
        match self {
            Law::ComplementMeet => (m(x.clone(), c(x)), o),
            Law::ComplementJoin => (j(x.clone(), c(x)), i),
            Law::TimesComm => (m(x.clone(), y.clone()), m(y, x)),
            Law::PlusComm => (j(x.clone(), y.clone()), j(y, x)),
            Law::TimesAssoc => (m(m(x.clone(), y.clone()), z.clone()), m(x, m(y, z))),
            Law::PlusAssoc => (j(j(x.clone(), y.clone()), z.clone()), j(x, j(y, z))),
            Law::TimesIdem => (m(x.clone(), x.clone()), x),
            Law::JoinIdem => (j(x.clone(), x.clone()), x),
            Law::TimesZero => (m(x, o.clone()), o),
            Law::TimesZeroLeft => (m(o.clone(), x), o),
            Law::TimesOne => (m(x.clone(), i), x),
            Law::TimesOneLeft => (m(i, x.clone()), x),
            Law::PlusZero => (j(x.clone(), o), x),
            Law::PlusZeroLeft => (j(o, x.clone()), x),
            Law::JoinTop => (j(x, i.clone()), i),
            Law::JoinTopLeft => (j(i.clone(), x), i),
            Law::DoubleComplement => (c(c(x.clone())), x),
            Law::DeMorganMeet => (c(m(x.clone(), y.clone())), j(c(x), c(y))),
            Law::DeMorganJoin => (c(j(x.clone(), y.clone())), m(c(x), c(y))),
            Law::ComplementBottom => (c(o), i),
            Law::ComplementTop => (c(i), o),
            Law::DistributeLeft => (
                m(x.clone(), j(y.clone(), z.clone())),
                j(m(x.clone(), y), m(x, z)),
            ),
            Law::DistributeRight => (
                m(j(x.clone(), y.clone()), z.clone()),
                j(m(x, z.clone()), m(y, z)),
            ),
            Law::TimesLeftComm => (m(x.clone(), m(y.clone(), z.clone())), m(y, m(x, z))),
            Law::PlusLeftComm => (j(x.clone(), j(y.clone(), z.clone())), j(y, j(x, z))),
            Law::TimesLeftIdem => (m(x.clone(), m(x.clone(), y.clone())), m(x, y)),
            Law::JoinLeftIdem => (j(x.clone(), j(x.clone(), y.clone())), j(x, y)),
            Law::MeetLeftComplement => (m(x.clone(), m(c(x), y)), o),
            Law::Split => (j(m(x.clone(), y.clone()), m(x.clone(), c(y))), x),
            Law::PlusSelf => (j(x.clone(), x), o),
            Law::PlusLeftSelf => (j(x.clone(), j(x, y.clone())), y),
            Law::NegationIsIdentity => (c(x.clone()), x),
        }
    }
}

/// A proved law as the checker reads it: its statement parsed over the theory's signature.
#[derive(Clone, Debug)]
struct ProvedLaw {
    /// The name the proofs cite it by.
    name: String,
    lhs: Term,
    rhs: Term,
    /// The statement's variables, by [`VarId`].
    vars: Vec<VarDecl>,
}

/// The laws proved from one theory for one kind and choice of [`Roles`]: what [`prove`]
/// rewrites with.
#[derive(Clone, Debug)]
pub struct Kit {
    /// Boolean algebra or Boolean ring.
    pub kind: Kind,
    /// Which symbols play which part.
    pub roles: Roles,
    laws: Vec<(Law, ProvedLaw)>,
    cited: Vec<Cited>,
}

/// The most guesses of the roles tried (a theory with many symbols of each arity is no Boolean
/// algebra in disguise that this module would find anyway).
const MAX_GUESSES: usize = 24;

impl Kit {
    /// The laws proved from `theory` (single-sorted) for the first kind and guess of the roles
    /// whose laws are all proved with certificates, all guesses within `opts.timeout` in all;
    /// `None` when none is.
    pub fn find(theory: &Theory, opts: &Options) -> Result<Option<Kit>, FinderError> {
        if theory.sig.sorts.len() != 1 {
            return Ok(None);
        }
        let of_arity = |n: usize| -> Vec<FuncId> {
            (0..theory.sig.funcs.len() as u32)
                .map(FuncId)
                .filter(|&f| theory.sig.func_decl(f).args.len() == n)
                .collect()
        };
        let (binary, unary, constants) = (of_arity(2), of_arity(1), of_arity(0));
        let mut guesses = Vec::new();
        for &times in &binary {
            for &plus in binary.iter().filter(|&&j| j != times) {
                for &unary in &unary {
                    for &zero in &constants {
                        for &one in constants.iter().filter(|&&t| t != zero) {
                            for kind in [Kind::Algebra, Kind::Ring] {
                                let roles = Roles {
                                    times,
                                    plus,
                                    unary,
                                    zero,
                                    one,
                                };
                                guesses.push((kind, roles));
                            }
                        }
                    }
                }
            }
        }
        let deadline = Instant::now() + opts.timeout;
        // A guess whose laws fail in a small model is no Boolean algebra or ring: dropped
        // before the prover is asked (a wrong guess would otherwise cost a proof attempt).
        let small = super::small::models(theory, deadline, opts.cancel.clone())?;
        let holds = |kind: Kind, roles: &Roles| {
            kind.laws().iter().all(|law| {
                let written = law.written(theory, roles);
                small.iter().all(|m| eval::holds(&theory.sig, m, &written))
            })
        };
        guesses.retain(|(kind, roles)| holds(*kind, roles));
        for (kind, roles) in guesses.into_iter().take(MAX_GUESSES) {
            if opts
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            {
                return Ok(None);
            }
            if let Some(kit) = Kit::for_roles(theory, kind, roles, opts, deadline)? {
                return Ok(Some(kit));
            }
        }
        Ok(None)
    }

    /// The laws of `kind` for `roles`, each proved citing those before it; `None` at the first
    /// one not proved with a certificate before `deadline`.
    fn for_roles(
        theory: &Theory,
        kind: Kind,
        roles: Roles,
        opts: &Options,
        deadline: Instant,
    ) -> Result<Option<Kit>, FinderError> {
        let mut earlier: Vec<ProvedStatement> = Vec::new();
        let (mut laws, mut cited) = (Vec::new(), Vec::new());
        for (k, &law) in kind.laws().iter().enumerate() {
            let written = law.written(theory, &roles);
            let statement = FormulaPrinter::new(&theory.sig, &written).formula(&written.formula);
            let name = format!("Boolean law {}", k + 1);
            let Ok(goal) = birkhoff_engine::parse::parse_formula(&theory.sig, &statement, &name)
            else {
                return Ok(None);
            };
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            let opts = Options {
                timeout: left.min(opts.timeout),
                ..opts.clone()
            };
            let answer = prove_citing(theory, &goal, &earlier, &opts, &opts.plan())?;
            let Verdict::Proved { certificate } = answer.verdict else {
                return Ok(None);
            };
            let Formula::Eq(l, r) = goal.formula.without_leading_foralls() else {
                return Ok(None);
            };
            let proved = ProvedLaw {
                name: name.clone(),
                lhs: l.clone(),
                rhs: r.clone(),
                vars: goal.vars.clone(),
            };
            laws.push((law, proved));
            cited.push(Cited {
                name,
                statement: statement.clone(),
                certificate: certificate.clone(),
            });
            earlier.push(ProvedStatement {
                statement,
                certificate,
            });
        }
        Ok(Some(Kit {
            kind,
            roles,
            laws,
            cited,
        }))
    }

    fn law(&self, law: Law) -> Option<&ProvedLaw> {
        self.laws.iter().find(|(l, _)| *l == law).map(|(_, p)| p)
    }
}

/// The most rewrite steps taken to bring one side to its normal form.
const MAX_STEPS: usize = 50_000;

/// The most variables a goal may have: its normal form has up to 2ⁿ minterms of n literals.
const MAX_VARIABLES: usize = 6;

/// A proof of `goal` (an equation over the kit's roles and the goal's variables) by normal
/// forms, replayed by the kernel before `deadline`; `None` when the goal is not an identity of
/// Boolean algebras, uses other symbols, is too large, or the time ran out.
pub fn prove(theory: &Theory, goal: &Axiom, kit: &Kit, deadline: Instant) -> Option<Certificate> {
    let (constants, lhs, rhs) = certificate::goal_sides(&theory.sig, goal).ok()?;
    let n = theory.sig.funcs.len() as u32;
    let r = kit.roles;
    // Only the roles and the goal's variables: another symbol is no Boolean operation.
    let boolean = |f: FuncId| f.0 >= n || r.all().contains(&f);
    if !symbols_within(&lhs, &boolean) || !symbols_within(&rhs, &boolean) {
        return None;
    }
    let mut atoms = Vec::new();
    collect_atoms(&lhs, &r, &mut atoms);
    collect_atoms(&rhs, &r, &mut atoms);
    atoms.sort_by_key(|a| key(a, &r));
    atoms.dedup();
    if atoms.len() > MAX_VARIABLES {
        return None;
    }
    let ext = certificate::extended_signature(&theory.sig, &constants).ok()?;
    let no_vars = certificate::declaring(&theory.sig, &[]);
    let printer = FormulaPrinter::new(&ext, &no_vars);
    let normal = |t: Term| {
        let mut w = Rewriter {
            kit,
            current: t,
            steps: Vec::new(),
            printer: &printer,
            deadline,
        };
        w.normal_form(&atoms)?;
        Some((w.current, w.steps))
    };
    let (left_end, left) = normal(lhs.clone())?;
    let (right_end, right) = normal(rhs.clone())?;
    if left_end != right_end {
        return None;
    }
    let mut steps = left;
    // The right side's chain backwards: from the normal form to the right side.
    let mut before: Vec<Term> = std::iter::once(rhs.clone())
        .chain(right.iter().map(|s| s.result.clone()))
        .collect();
    before.pop();
    for (s, result) in right.into_iter().rev().zip(before.into_iter().rev()) {
        steps.push(Step {
            direction: match s.direction {
                Direction::LeftToRight => Direction::RightToLeft,
                Direction::RightToLeft => Direction::LeftToRight,
            },
            text: printer.term(&result),
            result,
            ..s
        });
    }
    let mut cert = Certificate {
        theory: theory.name.clone(),
        goal: FormulaPrinter::new(&theory.sig, goal).formula(&goal.formula),
        constants: constants.clone(),
        lhs,
        rhs,
        cited: Vec::new(),
        lemmas: Vec::new(),
        steps,
    };
    cert.cited = kit
        .cited
        .iter()
        .filter(|c| certificate::cites(&cert, &c.name))
        .cloned()
        .collect();
    let cert = cert.flattened();
    (certificate::check_before(theory, goal, &cert, Some(deadline)) == Ok(true)).then_some(cert)
}

fn symbols_within(t: &Term, ok: &impl Fn(FuncId) -> bool) -> bool {
    match t {
        Term::Var(_) => false,
        Term::App(f, args) => ok(*f) && args.iter().all(|a| symbols_within(a, ok)),
    }
}

/// Whether `t`'s head is none of the Boolean operations: a variable of the normal form.
fn is_atom(t: &Term, r: &Roles) -> bool {
    match t {
        Term::App(f, _) => !r.all().contains(f),
        Term::Var(_) => true,
    }
}

fn collect_atoms(t: &Term, r: &Roles, out: &mut Vec<Term>) {
    if is_atom(t, r) {
        out.push(t.clone());
    } else if let Term::App(_, args) = t {
        for a in args {
            collect_atoms(a, r, out);
        }
    }
}

/// The order the normal forms sort by: literals by their variable, a variable before its
/// complement (so that x and ¬x meet), and products and sums as the lists of their items.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Literal(String, bool),
    List(bool, Vec<Key>),
    Other(String),
}

fn key(t: &Term, r: &Roles) -> Key {
    match t {
        _ if is_atom(t, r) => Key::Literal(format!("{t:?}"), false),
        Term::App(f, args) if *f == r.unary && is_atom(&args[0], r) => {
            Key::Literal(format!("{:?}", args[0]), true)
        }
        Term::App(f, _) if *f == r.times || *f == r.plus => {
            let mut items = Vec::new();
            flatten(t, *f, &mut items);
            Key::List(*f == r.plus, items.into_iter().map(|i| key(i, r)).collect())
        }
        _ => Key::Other(format!("{t:?}")),
    }
}

fn flatten<'t>(t: &'t Term, op: FuncId, out: &mut Vec<&'t Term>) {
    match t {
        Term::App(f, args) if *f == op => {
            flatten(&args[0], op, out);
            flatten(&args[1], op, out);
        }
        _ => out.push(t),
    }
}

/// Whether a rule applies wherever its side matches, or only where it puts two items of a list
/// in order ([`Rewriter::swap_sorts`]: commutativity, which would otherwise undo itself).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Guard {
    Always,
    Lowers,
}

type Rule = (Law, Direction, Guard);

const FORWARD: Direction = Direction::LeftToRight;

/// Complements pushed down to the variables.
const NEGATION_NORMAL: &[Rule] = &[
    (Law::DoubleComplement, FORWARD, Guard::Always),
    (Law::DeMorganMeet, FORWARD, Guard::Always),
    (Law::DeMorganJoin, FORWARD, Guard::Always),
    (Law::ComplementBottom, FORWARD, Guard::Always),
    (Law::ComplementTop, FORWARD, Guard::Always),
];

/// The laws of 0 and 1 that both kinds have.
const BOUNDS: [Rule; 6] = [
    (Law::TimesZero, FORWARD, Guard::Always),
    (Law::TimesZeroLeft, FORWARD, Guard::Always),
    (Law::TimesOne, FORWARD, Guard::Always),
    (Law::TimesOneLeft, FORWARD, Guard::Always),
    (Law::PlusZero, FORWARD, Guard::Always),
    (Law::PlusZeroLeft, FORWARD, Guard::Always),
];

const ASSOCIATE: [Rule; 2] = [
    (Law::TimesAssoc, FORWARD, Guard::Always),
    (Law::PlusAssoc, FORWARD, Guard::Always),
];

/// The bounds' laws of `kind`: a Boolean algebra's 1 absorbs joins too.
fn bounds(kind: Kind) -> Vec<Rule> {
    let mut rules = BOUNDS.to_vec();
    if kind == Kind::Algebra {
        rules.extend([
            (Law::JoinTop, FORWARD, Guard::Always),
            (Law::JoinTopLeft, FORWARD, Guard::Always),
        ]);
    }
    rules
}

/// Products distributed over sums, both associated to the right: a sum of products.
fn distributed(kind: Kind) -> Vec<Rule> {
    let mut rules = bounds(kind);
    rules.extend([
        (Law::DistributeLeft, FORWARD, Guard::Always),
        (Law::DistributeRight, FORWARD, Guard::Always),
    ]);
    rules.extend(ASSOCIATE);
    rules
}

/// Each product's items sorted and repeats dropped (x·x = x in both kinds), and in a Boolean
/// algebra a meet with x and ¬x made 0.
fn sorted_products(kind: Kind) -> Vec<Rule> {
    let mut rules = bounds(kind);
    rules.extend(ASSOCIATE);
    rules.extend([
        (Law::TimesIdem, FORWARD, Guard::Always),
        (Law::TimesLeftIdem, FORWARD, Guard::Always),
    ]);
    if kind == Kind::Algebra {
        rules.extend([
            (Law::ComplementMeet, FORWARD, Guard::Always),
            (Law::MeetLeftComplement, FORWARD, Guard::Always),
        ]);
    }
    rules.extend([
        (Law::TimesLeftComm, FORWARD, Guard::Lowers),
        (Law::TimesComm, FORWARD, Guard::Lowers),
    ]);
    rules
}

/// The sum's items sorted: repeats dropped in a Boolean algebra (x ∨ x = x), cancelled in pairs
/// in a Boolean ring (x + x = 0).
fn sorted_sum(kind: Kind) -> Vec<Rule> {
    let mut rules = bounds(kind);
    rules.push((Law::PlusAssoc, FORWARD, Guard::Always));
    rules.extend(match kind {
        Kind::Algebra => [
            (Law::JoinIdem, FORWARD, Guard::Always),
            (Law::JoinLeftIdem, FORWARD, Guard::Always),
        ],
        Kind::Ring => [
            (Law::PlusSelf, FORWARD, Guard::Always),
            (Law::PlusLeftSelf, FORWARD, Guard::Always),
        ],
    });
    rules.extend([
        (Law::PlusLeftComm, FORWARD, Guard::Lowers),
        (Law::PlusComm, FORWARD, Guard::Lowers),
    ]);
    rules
}

/// A term rewritten step by step, each step an instance of a proved law.
struct Rewriter<'a> {
    kit: &'a Kit,
    current: Term,
    steps: Vec<Step>,
    printer: &'a FormulaPrinter<'a>,
    deadline: Instant,
}

impl Rewriter<'_> {
    /// Rewrites to the normal form of the kit's kind over `atoms` (sorted by [`key`]); `None`
    /// when the steps or the time ran out.
    fn normal_form(&mut self, atoms: &[Term]) -> Option<()> {
        let kind = self.kit.kind;
        match kind {
            Kind::Algebra => self.exhaust(NEGATION_NORMAL)?,
            Kind::Ring => self.exhaust(&[(Law::NegationIsIdentity, FORWARD, Guard::Always)])?,
        }
        self.exhaust(&distributed(kind))?;
        let (products, sum) = (sorted_products(kind), sorted_sum(kind));
        if kind == Kind::Ring {
            self.exhaust(&products)?;
            return self.exhaust(&sum);
        }
        let r = self.kit.roles;
        if self.current == Term::App(r.one, vec![]) {
            // 1 = x ∨ ¬x, for the first variable, when there is one.
            if let Some(x) = atoms.first() {
                self.apply(
                    Law::ComplementJoin,
                    Direction::RightToLeft,
                    &[],
                    std::slice::from_ref(x),
                )?;
            }
        }
        self.exhaust(&products)?;
        self.exhaust(&sum)?;
        // Each minterm given every variable, one variable at a time, m = (m ∧ y) ∨ (m ∧ ¬y),
        // the repeats dropped after each (so the join never holds more than 2ⁿ minterms).
        for y in atoms {
            while let Some(at) = self.first_minterm_without(y) {
                self.apply(
                    Law::Split,
                    Direction::RightToLeft,
                    &at,
                    std::slice::from_ref(y),
                )?;
                self.exhaust(&products)?;
            }
            self.exhaust(&sum)?;
        }
        Some(())
    }

    /// The position of the first minterm of the current join that lacks the variable `y`.
    fn first_minterm_without(&self, y: &Term) -> Option<Vec<usize>> {
        let r = self.kit.roles;
        if self.current == Term::App(r.zero, vec![]) {
            return None;
        }
        let mut at = Vec::new();
        let mut t = &self.current;
        loop {
            let (minterm, rest) = match t {
                Term::App(f, args) if *f == r.plus => (&args[0], Some(&args[1])),
                _ => (t, None),
            };
            let mut literals = Vec::new();
            flatten(minterm, r.times, &mut literals);
            let has = literals
                .iter()
                .any(|l| *l == y || matches!(l, Term::App(f, a) if *f == r.unary && a[0] == *y));
            if !has {
                if rest.is_some() {
                    at.push(0);
                }
                return Some(at);
            }
            t = rest?;
            at.push(1);
        }
    }

    /// Rewrites with `rules` until none applies, outermost first.
    fn exhaust(&mut self, rules: &[Rule]) -> Option<()> {
        while let Some((at, law, direction)) = self.redex(&self.current, &mut Vec::new(), rules) {
            self.apply(law, direction, &at, &[])?;
        }
        Some(())
    }

    /// The first position (outermost, leftmost) and rule of `rules` that applies in `t`.
    fn redex(
        &self,
        t: &Term,
        at: &mut Vec<usize>,
        rules: &[Rule],
    ) -> Option<(Vec<usize>, Law, Direction)> {
        for &(law, direction, guard) in rules {
            if self.instance(law, direction, t, &[]).is_some()
                && (guard == Guard::Always || self.swap_sorts(t))
            {
                return Some((at.clone(), law, direction));
            }
        }
        let Term::App(_, args) = t else { return None };
        for (i, a) in args.iter().enumerate() {
            at.push(i);
            let found = self.redex(a, at, rules);
            at.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Whether swapping the first two items of the list `t` (an operation applied to `x` and
    /// `y`, or to `x` and the same operation applied to `y` and more) puts them in order: both
    /// are items (not lists of the same operation, which associativity flattens first) and
    /// `y`'s [`Key`] is below `x`'s.
    fn swap_sorts(&self, t: &Term) -> bool {
        let Term::App(op, args) = t else { return false };
        let head = |u: &Term| matches!(u, Term::App(f, _) if f == op);
        let x = &args[0];
        let y = match &args[1] {
            Term::App(f, rest) if f == op => &rest[0],
            y => y,
        };
        let r = &self.kit.roles;
        !head(x) && !head(y) && key(y, r) < key(x, r)
    }

    /// What `law` used in `direction` makes of `t`, the values of the variables its other side
    /// alone has given by `extra` in order; `None` when it does not match.
    fn instance(&self, law: Law, direction: Direction, t: &Term, extra: &[Term]) -> Option<Term> {
        self.bindings(law, direction, t, extra).map(|(new, _)| new)
    }

    /// [`Rewriter::instance`], and the law's variables' values as a step names them.
    fn bindings(
        &self,
        law: Law,
        direction: Direction,
        t: &Term,
        extra: &[Term],
    ) -> Option<(Term, Vec<Binding>)> {
        let p = self.kit.law(law)?;
        let (from, to) = match direction {
            Direction::LeftToRight => (&p.lhs, &p.rhs),
            Direction::RightToLeft => (&p.rhs, &p.lhs),
        };
        let mut sub: Vec<Option<&Term>> = vec![None; p.vars.len()];
        if !matches(from, t, &mut sub) {
            return None;
        }
        let mut values: Vec<Option<Term>> = sub.into_iter().map(|v| v.cloned()).collect();
        let mut extra = extra.iter();
        // The variables the matched side lacks, in order of their ids.
        let mut occurs = vec![false; p.vars.len()];
        mark(to, &mut occurs);
        for (i, v) in values.iter_mut().enumerate() {
            if v.is_none() && occurs[i] {
                *v = Some(extra.next()?.clone());
            }
        }
        let new = certificate::substitute(to, &|v: VarId| values[v.0 as usize].clone())?;
        let bindings = values
            .into_iter()
            .enumerate()
            .filter_map(|(i, v)| {
                v.map(|term| Binding {
                    var: p.vars[i].name.clone(),
                    term,
                })
            })
            .collect();
        Some((new, bindings))
    }

    /// One step: `law` in `direction` at position `at`, the variables only its other side has
    /// given by `extra`; `None` when it does not apply or the steps or the time ran out.
    fn apply(
        &mut self,
        law: Law,
        direction: Direction,
        at: &[usize],
        extra: &[Term],
    ) -> Option<()> {
        if self.steps.len() >= MAX_STEPS || Instant::now() >= self.deadline {
            return None;
        }
        let target = certificate::subterm(&self.current, at)?;
        let (new, substitution) = self.bindings(law, direction, target, extra)?;
        self.current = certificate::replace(&self.current, at, new)?;
        self.steps.push(Step {
            by: certificate::Justification::Axiom {
                axiom: self.kit.law(law)?.name.clone(),
                part: 0,
                substitution,
            },
            direction,
            position: at.to_vec(),
            result: self.current.clone(),
            text: self.printer.term(&self.current),
        });
        Some(())
    }
}

fn mark(t: &Term, occurs: &mut [bool]) {
    match t {
        Term::Var(v) => occurs[v.0 as usize] = true,
        Term::App(_, args) => args.iter().for_each(|a| mark(a, occurs)),
    }
}
