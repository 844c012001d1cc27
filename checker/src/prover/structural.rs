//! Structure statements (issue 51): what a term t(x) in one variable does in every small model
//! of a theory, stated as an algebraist would, then proved, disproved or left open.
//!
//! For each binary operation `·` and each term t(x) built from the signature (up to
//! [`Options::depth`], one per distinct behaviour on the models, smallest first), the
//! statements below are checked by the evaluator on every model given; those that hold go to the
//! prover, whose answers carry a replayed certificate or a countermodel as everywhere else.
//! Each statement is one equation in x, y and (for the nuclei) z:
//!
//! | kind | equation |
//! |---|---|
//! | t(x) is constant | t(x) = t(y) |
//! | every t(x) is idempotent | t(x)·t(x) = t(x) |
//! | every t(x) is central | t(x)·y = y·t(x) |
//! | every t(x) lies in the left, middle, right nucleus | (t(x)·y)·z = t(x)·(y·z), ... |
//! | x ↦ t(x) is a retraction | t(t(x)) = t(x) |
//! | x ↦ t(x) is an endomorphism of · | t(x·y) = t(x)·t(y) |
//! | the image {t(x)} is closed under · | t(t(x)·t(y)) = t(x)·t(y) |
//! | the image is a left ideal | t(y·t(x)) = y·t(x) |
//! | the image is a right ideal | t(t(x)·y) = t(x)·y |
//! | · is commutative on the image | t(x)·t(y) = t(y)·t(x) |
//! | squares on the image are one element | t(x)·t(x) = t(y)·t(y) |
//! | that square is an identity on the image | (t(y)·t(y))·t(x) = t(x) |
//! | every square lies in the image | t(x·x) = x·x |
//!
//! Each operation is also asked whether it is associative, (x·y)·z = x·(y·z) (the statements
//! combine into a structure theorem, [`compose`], only for semigroups), and whether it is
//! commutative.
//!
//! A pair of terms t(x), u(x) whose maps are endomorphisms of every binary operation may split
//! every model as a direct product of their images, {t(x)} × {u(x)}, through an operation ∘:
//!
//! | kind | equation |
//! |---|---|
//! | every x is the product of its images | t(x) ∘ u(x) = x |
//! | x ↦ t(x) sends every u(x) to a right identity | y ∘ t(u(x)) = y |
//! | x ↦ u(x) sends every t(x) to a left identity | u(t(x)) ∘ y = y |
//!
//! (rings with x³ = x split so as 3R × 2R, with t(x) = 3x and u(x) = −2x).
//!
//! The image statements read as written when t is a retraction (its image is then its set of
//! fixed points); for a constant term only the first three are stated. Together, a retraction
//! that is an endomorphism onto an image with one square acting as an identity is a homomorphism
//! onto a group of exponent 2 when `·` is associative: the shape of a structure theorem such as
//! "a semigroup with x² = y² is an ideal extension of a Boolean group" (issue 51).

use super::conjecture::Status;
use super::lemmas::{prove_citing, prove_from, ProvedStatement};
use super::{Options as ProverOptions, Strategy};
use crate::finder::FinderError;
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::signature::{FuncId, SortId};
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use birkhoff_engine::{canon, eval, Structure, Theory};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the statement engine may spend.
#[derive(Clone, Debug)]
pub struct Options {
    /// Deepest term t(x) (x alone has depth 0).
    pub depth: u32,
    /// Most terms t(x) considered per operation, smallest first.
    pub max_terms: usize,
    /// Time the prover may spend on each statement.
    pub per_statement: Duration,
    /// Most statements given to the prover; the rest are listed as not tried.
    pub max_proofs: usize,
    /// Most statements left open (or proved by Z3 alone) that are given to the prover a second
    /// time, citing what was proved about the same term or operation ([`lemmas`](super::lemmas)):
    /// each takes [`Options::per_statement`] again. None by default: on rings with x³ = x one
    /// such proof's certificate came to 285 MB, more than the library reads back.
    pub second_looks: usize,
    /// Set to true (Ctrl-C) to stop between statements.
    pub cancel: Option<Arc<AtomicBool>>,
    /// When the models given are every model of each size up to this one, no countermodel
    /// that small exists: the prover looks for one of the next two sizes instead.
    pub complete_up_to: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            depth: 2,
            max_terms: 12,
            per_statement: Duration::from_secs(1),
            max_proofs: 60,
            second_looks: 0,
            cancel: None,
            complete_up_to: None,
        }
    }
}

/// The kinds of statement, in the order of the module's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// t(x) = t(y).
    Constant,
    /// t(x)·t(x) = t(x).
    Idempotent,
    /// t(x)·y = y·t(x).
    Central,
    /// (t(x)·y)·z = t(x)·(y·z).
    InLeftNucleus,
    /// (y·t(x))·z = y·(t(x)·z).
    InMiddleNucleus,
    /// (y·z)·t(x) = y·(z·t(x)).
    InRightNucleus,
    /// t(t(x)) = t(x).
    Retraction,
    /// t(x·y) = t(x)·t(y).
    Endomorphism,
    /// t(t(x)·t(y)) = t(x)·t(y).
    ImageClosed,
    /// t(y·t(x)) = y·t(x).
    ImageLeftIdeal,
    /// t(t(x)·y) = t(x)·y.
    ImageRightIdeal,
    /// t(x)·t(y) = t(y)·t(x).
    ImageCommutative,
    /// t(x)·t(x) = t(y)·t(y).
    ImageSquaresConstant,
    /// (t(y)·t(y))·t(x) = t(x).
    ImageSquareIsIdentity,
    /// t(x·x) = x·x.
    ImageContainsSquares,
    /// (x·y)·z = x·(y·z): about the operation, not a term (its `term` is empty).
    Associative,
    /// x·y = y·x: about the operation, not a term.
    Commutative,
    /// t(x)·u(x) = x, for a pair of terms t and u (its partner): every element is the product
    /// of its two images.
    Complement,
    /// y·t(u(x)) = y: the map x ↦ t(x) sends every u(x) to a right identity.
    SplitRightIdentity,
    /// u(t(x))·y = y: the map x ↦ u(x) sends every t(x) to a left identity.
    SplitLeftIdentity,
}

impl Kind {
    /// The kinds about a term t(x), in the order they are tried.
    const ALL: [Kind; 15] = [
        Kind::Constant,
        Kind::Idempotent,
        Kind::Central,
        Kind::InLeftNucleus,
        Kind::InMiddleNucleus,
        Kind::InRightNucleus,
        Kind::Retraction,
        Kind::Endomorphism,
        Kind::ImageClosed,
        Kind::ImageLeftIdeal,
        Kind::ImageRightIdeal,
        Kind::ImageCommutative,
        Kind::ImageSquaresConstant,
        Kind::ImageSquareIsIdentity,
        Kind::ImageContainsSquares,
    ];

    /// The kinds about a pair of terms t(x), u(x), which together split every model as a direct
    /// product (with both maps endomorphisms: [`compose`]).
    const PAIR: [Kind; 3] = [
        Kind::Complement,
        Kind::SplitRightIdentity,
        Kind::SplitLeftIdentity,
    ];

    /// Whether it is about a pair of terms (its statement has a partner u(x)).
    pub fn about_pair(self) -> bool {
        Kind::PAIR.contains(&self)
    }

    /// Whether it is about the operation alone (associative, commutative), not a term: it holds
    /// of every term's statements about that operation.
    pub fn about_operation(self) -> bool {
        matches!(self, Kind::Associative | Kind::Commutative)
    }

    /// How many variables its equation has (x, y and perhaps z).
    fn variables(self) -> usize {
        match self {
            Kind::Associative
            | Kind::InLeftNucleus
            | Kind::InMiddleNucleus
            | Kind::InRightNucleus => 3,
            _ => 2,
        }
    }

    /// A short name, for citing the statement in a proof: "retraction", "endomorphism", ...
    pub fn name(self) -> &'static str {
        match self {
            Kind::Constant => "constant",
            Kind::Idempotent => "idempotent",
            Kind::Central => "central",
            Kind::InLeftNucleus => "left nucleus",
            Kind::InMiddleNucleus => "middle nucleus",
            Kind::InRightNucleus => "right nucleus",
            Kind::Retraction => "retraction",
            Kind::Endomorphism => "endomorphism",
            Kind::ImageClosed => "closed image",
            Kind::ImageLeftIdeal => "left ideal",
            Kind::ImageRightIdeal => "right ideal",
            Kind::ImageCommutative => "commutative image",
            Kind::ImageSquaresConstant => "one square",
            Kind::ImageSquareIsIdentity => "the square is an identity",
            Kind::ImageContainsSquares => "squares in the image",
            Kind::Associative => "associativity",
            Kind::Commutative => "commutativity",
            Kind::Complement => "complement",
            Kind::SplitRightIdentity => "right identity",
            Kind::SplitLeftIdentity => "left identity",
        }
    }

    /// The statement in words, its mathematics written as `n` says (the words themselves are
    /// plain ASCII, so that the paper can place them in LaTeX as they are).
    pub fn sentence(self, n: &Notation) -> String {
        let Notation {
            var: x,
            term: t,
            op,
            map,
            image,
            partner,
            ..
        } = n;
        // A one-term statement's notation has no partner; its sentence does not use it.
        let u = partner.as_deref().unwrap_or(n);
        match self {
            Kind::Constant => format!("{t} is one element, the same for every {x}"),
            Kind::Idempotent => format!("every {t} is idempotent for {op}"),
            Kind::Central => format!("every {t} is central for {op}"),
            Kind::InLeftNucleus => format!("every {t} lies in the left nucleus of {op}"),
            Kind::InMiddleNucleus => format!("every {t} lies in the middle nucleus of {op}"),
            Kind::InRightNucleus => format!("every {t} lies in the right nucleus of {op}"),
            Kind::Retraction => format!("{map} is a retraction (it fixes its image)"),
            Kind::Endomorphism => format!("{map} is an endomorphism of {op}"),
            Kind::ImageClosed => format!("the image {image} is closed under {op}"),
            Kind::ImageLeftIdeal => format!("the image {image} is a left ideal for {op}"),
            Kind::ImageRightIdeal => format!("the image {image} is a right ideal for {op}"),
            Kind::ImageCommutative => format!("{op} is commutative on the image {image}"),
            Kind::ImageSquaresConstant => {
                format!("all squares for {op} on the image {image} are one element")
            }
            Kind::ImageSquareIsIdentity => {
                format!("that square is an identity for {op} on the image {image}")
            }
            Kind::ImageContainsSquares => {
                format!("every square for {op} lies in the image {image}")
            }
            Kind::Associative => format!("{op} is associative"),
            Kind::Commutative => format!("{op} is commutative"),
            Kind::Complement => {
                format!("every {x} is the product for {op} of {t} and {}", u.term)
            }
            Kind::SplitRightIdentity => {
                format!("{map} sends every {} to a right identity for {op}", u.term)
            }
            Kind::SplitLeftIdentity => {
                format!("{} sends every {t} to a left identity for {op}", u.map)
            }
        }
    }

    /// The statement as an axiom over x, y (and z when it has three variables), for term `t`
    /// (with partner `u` for a pair kind; unused otherwise) and operation `op`: what the
    /// evaluator checks and the prover is given.
    fn axiom(self, t: &Term, u: &Term, op: FuncId) -> Axiom {
        let (lhs, rhs) = self.equation(t, u, op);
        Axiom {
            name: format!("{self:?}"),
            formula: Formula::Eq(lhs, rhs),
            vars: ["x", "y", "z"][..self.variables()]
                .iter()
                .map(|name| VarDecl {
                    name: (*name).into(),
                    sort: SortId(0),
                })
                .collect(),
            origin: None,
        }
    }

    /// The equation (left side, right side) for term `t` (in variable 0), partner `u` and
    /// operation `op`.
    fn equation(self, t: &Term, u: &Term, op: FuncId) -> (Term, Term) {
        let (x, y) = (Term::Var(VarId(0)), Term::Var(VarId(1)));
        let at = |v: &Term| substitute(t, v);
        let partner_at = |v: &Term| substitute(u, v);
        let mul = |a: Term, b: Term| Term::App(op, vec![a, b]);
        match self {
            Kind::Constant => (at(&x), at(&y)),
            Kind::Idempotent => (mul(at(&x), at(&x)), at(&x)),
            Kind::Central => (mul(at(&x), y.clone()), mul(y, at(&x))),
            Kind::InLeftNucleus => {
                let z = Term::Var(VarId(2));
                (
                    mul(mul(at(&x), y.clone()), z.clone()),
                    mul(at(&x), mul(y, z)),
                )
            }
            Kind::InMiddleNucleus => {
                let z = Term::Var(VarId(2));
                (
                    mul(mul(y.clone(), at(&x)), z.clone()),
                    mul(y, mul(at(&x), z)),
                )
            }
            Kind::InRightNucleus => {
                let z = Term::Var(VarId(2));
                (
                    mul(mul(y.clone(), z.clone()), at(&x)),
                    mul(y, mul(z, at(&x))),
                )
            }
            Kind::Retraction => (at(&at(&x)), at(&x)),
            Kind::Endomorphism => (at(&mul(x.clone(), y.clone())), mul(at(&x), at(&y))),
            Kind::ImageClosed => {
                let p = mul(at(&x), at(&y));
                (at(&p), p)
            }
            Kind::ImageLeftIdeal => {
                let p = mul(y, at(&x));
                (at(&p), p)
            }
            Kind::ImageRightIdeal => {
                let p = mul(at(&x), y);
                (at(&p), p)
            }
            Kind::ImageCommutative => (mul(at(&x), at(&y)), mul(at(&y), at(&x))),
            Kind::ImageSquaresConstant => (mul(at(&x), at(&x)), mul(at(&y), at(&y))),
            Kind::ImageSquareIsIdentity => (mul(mul(at(&y), at(&y)), at(&x)), at(&x)),
            Kind::ImageContainsSquares => {
                let p = mul(x.clone(), x);
                (at(&p), p)
            }
            Kind::Commutative => (mul(x.clone(), y.clone()), mul(y, x)),
            Kind::Associative => {
                let z = Term::Var(VarId(2));
                (mul(mul(x.clone(), y.clone()), z.clone()), mul(x, mul(y, z)))
            }
            Kind::Complement => (mul(at(&x), partner_at(&x)), x),
            Kind::SplitRightIdentity => (mul(y.clone(), at(&partner_at(&x))), y),
            Kind::SplitLeftIdentity => (mul(partner_at(&at(&x)), y.clone()), y),
        }
    }
}

/// How [`Kind::sentence`] writes the mathematics of a statement: plain text for the terminal
/// ([`Notation::plain`]), LaTeX for the paper.
#[derive(Clone, Debug)]
pub struct Notation {
    /// The variable x.
    pub var: String,
    /// The term t(x).
    pub term: String,
    /// The operation.
    pub op: String,
    /// The map x ↦ t(x).
    pub map: String,
    /// The image {t(x)}.
    pub image: String,
    /// A letter or short formula of the argument (S, I, e, S/I).
    pub letter: fn(&str) -> String,
    /// For a statement about a pair of terms, the partner u(x)'s notation.
    pub partner: Option<Box<Notation>>,
}

impl Notation {
    /// Plain text: `x ↦ t`, `{t}`.
    pub fn plain(term: &str, op: &str) -> Notation {
        Notation {
            var: "x".into(),
            term: term.into(),
            op: op.into(),
            map: format!("x ↦ {term}"),
            image: format!("{{{term}}}"),
            letter: str::to_string,
            partner: None,
        }
    }

    /// This notation with `partner` as the second term of a pair statement.
    pub fn with_partner(self, partner: Notation) -> Notation {
        Notation {
            partner: Some(Box::new(partner)),
            ..self
        }
    }
}

/// `t` with its variable (variable 0) replaced by `v`.
fn substitute(t: &Term, v: &Term) -> Term {
    super::certificate::substitute(t, &|_| Some(v.clone())).expect("every variable has a value")
}

/// One statement: its kind, term (and partner) and operation, in words and as an equation, and
/// what the prover made of it.
#[derive(Clone, Debug, Serialize)]
pub struct Statement {
    /// The kind.
    pub kind: Kind,
    /// The term t(x), as text.
    pub term: String,
    /// The second term u(x) of a statement about a pair of terms, as text (empty otherwise).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub partner: String,
    /// The binary operation's symbol.
    pub operation: String,
    /// The statement in words.
    pub sentence: String,
    /// The equation that states it (variables x and y, universal).
    pub equation: String,
    /// The prover's answer.
    #[serde(flatten)]
    pub status: Status,
    /// Time the prover took.
    pub seconds: f64,
    /// The equation as an axiom, for the prover and the evaluator.
    #[serde(skip)]
    pub axiom: Axiom,
}

/// The statements that hold in every model of `models` (which should be every model of
/// `theory` up to some size: the check is only as good as they are), each given to the prover.
/// `Err` only for an internal error: a countermodel the evaluator rejects.
pub fn statements(
    theory: &Theory,
    models: &[Structure],
    opts: &Options,
) -> Result<Vec<Statement>, FinderError> {
    let sig = &theory.sig;
    let single_sorted = sig.sorts.len() == 1 && !models.is_empty();
    let binary: Vec<FuncId> = sig
        .func_ids()
        .filter(|&f| single_sorted && sig.func_decl(f).args.len() == 2)
        .collect();
    let terms = terms(theory, models, opts);
    // No E: a structure theorem is composed of certificates (statements cite each other), and
    // before 02b27de E's proofs were not; its unit-equality proofs are now, but whether a process
    // per statement pays for these many small questions has not been measured.
    let prover = ProverOptions {
        timeout: opts.per_statement,
        cancel: opts.cancel.clone(),
        e_prover: false,
        ..ProverOptions::default()
    };
    let mut stater = Stater {
        theory,
        models,
        plan: plan(&prover, opts.complete_up_to),
        prover,
        opts,
        tried: 0,
        stated: HashMap::new(),
        made: HashSet::new(),
    };
    // The splitting first, its statements (endomorphisms included) ahead of the others in the
    // prover's budget: the strongest theorem there is, when there is one.
    let split = splitting(&mut stater, &binary, &terms)?;
    let x = Term::Var(VarId(0));
    let mut out = Vec::new();
    for &op in &binary {
        // The operation first (its term is x, unused), then each term t(x).
        let asked = std::iter::once((None, vec![Kind::Associative, Kind::Commutative]))
            .chain(terms.iter().map(|t| (Some(t), Kind::ALL.to_vec())));
        // Whether the operation is commutative (an axiom, or proved): then "central" and
        // "commutative on the image" say nothing more, and are not stated.
        let mut commutative = false;
        // Likewise an associative operation's nuclei are everything.
        let mut associative = false;
        for (t, kinds) in asked {
            let mut held = Vec::new();
            for kind in kinds {
                // A constant term's image is one element: only the first three kinds say anything.
                if held.contains(&Kind::Constant) && kind as u8 > Kind::Central as u8 {
                    break;
                }
                if commutative && matches!(kind, Kind::Central | Kind::ImageCommutative) {
                    continue;
                }
                if associative
                    && matches!(
                        kind,
                        Kind::InLeftNucleus | Kind::InMiddleNucleus | Kind::InRightNucleus
                    )
                {
                    continue;
                }
                let settled = match stater.state(kind, t.unwrap_or(&x), None, op, &[])? {
                    Held::No => continue,
                    // An axiom is not a result: not stated (compose reads it from the theory),
                    // but it settles what it implies, as a proof does.
                    Held::Axiom => true,
                    Held::Again { proved } => proved,
                    Held::Stated(s) => {
                        // Only a proof makes the statements it implies redundant.
                        let proved = matches!(s.status, Status::Proved { .. });
                        out.push(*s);
                        proved
                    }
                };
                held.push(kind);
                if settled {
                    commutative |= kind == Kind::Commutative;
                    associative |= kind == Kind::Associative;
                }
            }
        }
    }
    out.extend(split);
    second_looks(&mut stater, &mut out)?;
    Ok(out)
}

/// Gives the statements left open (or proved by Z3 alone) a second look, at most
/// [`Options::second_looks`] of them in order, each citing the statements proved about the same
/// term (for any operation) and those proved about its operation: a statement the axioms alone do
/// not give within its time may follow quickly from one proved beside it, as for a splitting.
/// A new answer is given to every statement of the same equation.
fn second_looks(stater: &mut Stater, out: &mut [Statement]) -> Result<(), FinderError> {
    let mut looked = 0;
    for i in 0..out.len() {
        if looked == stater.opts.second_looks || stater.cancelled() {
            break;
        }
        let s = &out[i];
        if !matches!(s.status, Status::Open { .. } | Status::ProvedByZ3 { .. }) {
            continue;
        }
        let cited: Vec<ProvedStatement> = out
            .iter()
            .filter(|c| {
                if c.kind.about_operation() {
                    c.operation == s.operation
                } else {
                    c.term == s.term
                }
            })
            .filter_map(|c| match &c.status {
                Status::Proved { certificate } if c.equation != s.equation => {
                    Some(ProvedStatement {
                        statement: c.equation.clone(),
                        certificate: certificate.clone(),
                    })
                }
                _ => None,
            })
            .collect();
        if cited.is_empty() {
            continue;
        }
        looked += 1;
        let t0 = Instant::now();
        let answer = prove_from(
            stater.theory,
            &s.axiom,
            &cited,
            &stater.prover,
            &stater.plan,
        )?;
        let seconds = t0.elapsed().as_secs_f64();
        let status = Status::of(answer, stater.cancelled());
        if !matches!(status, Status::Proved { .. } | Status::Disproved { .. }) {
            out[i].seconds += seconds;
            continue;
        }
        let equation = out[i].equation.clone();
        stater.stated.insert(equation.clone(), status.clone());
        for same in out.iter_mut().filter(|o| o.equation == equation) {
            same.status = status.clone();
            same.seconds += seconds;
        }
    }
    Ok(())
}

/// The statements of a splitting, for each binary operation ∘ the first pair of terms (smallest
/// first) that, in every model given, are endomorphisms of every binary operation with images
/// of two elements or more somewhere, and split each element as t(x) ∘ u(x) with t(u(x)) a
/// right and u(t(x)) a left identity: with the endomorphisms (stated with the other terms'
/// statements), every model is then the direct product of the two images ([`compose`]). A ring
/// with x³ = x splits so, as 3R × 2R.
fn splitting(
    stater: &mut Stater,
    binary: &[FuncId],
    terms: &[Term],
) -> Result<Vec<Statement>, FinderError> {
    let (sig, models) = (&stater.theory.sig, stater.models);
    let x = Term::Var(VarId(0));
    let holds = |a: &Axiom| models.iter().all(|m| eval::holds(sig, m, a));
    // A factor of one element everywhere says nothing: t(x) = x · e, u(x) = e.
    let eligible: Vec<bool> = terms
        .iter()
        .map(|t| {
            let varies = models.iter().any(|m| {
                let n = m.sizes[0];
                (1..n)
                    .any(|a| eval::term_value(sig, m, t, &[a]) != eval::term_value(sig, m, t, &[0]))
            });
            varies
                && binary
                    .iter()
                    .all(|&o| holds(&Kind::Endomorphism.axiom(t, &x, o)))
        })
        .collect();
    let mut out = Vec::new();
    for &sum in binary {
        let pair = terms.iter().enumerate().find_map(|(i, t)| {
            terms.iter().enumerate().find_map(|(j, u)| {
                let splits = i != j
                    && eligible[i]
                    && eligible[j]
                    && Kind::PAIR.iter().all(|k| holds(&k.axiom(t, u, sum)));
                splits.then_some((t, u))
            })
        });
        let Some((t, u)) = pair else { continue };
        let pair = Kind::PAIR.map(|kind| (kind, t, Some(u), sum));
        let endomorphisms = binary.iter().flat_map(|&o| {
            [
                (Kind::Endomorphism, t, None, o),
                (Kind::Endomorphism, u, None, o),
            ]
        });
        // Each statement of the splitting may cite those proved before it: the second identity
        // follows quickly from the first, not from the axioms alone. The few statements of the
        // strongest theorem there is get more time than the others.
        let mut cited: Vec<ProvedStatement> = Vec::new();
        let per_statement = stater.prover.timeout;
        stater.prover.timeout = per_statement * SPLITTING_TIME;
        for (kind, t, u, op) in pair.into_iter().chain(endomorphisms) {
            if let Held::Stated(s) = stater.state(kind, t, u, op, &cited)? {
                if let Status::Proved { certificate } = &s.status {
                    cited.push(ProvedStatement {
                        statement: s.equation.clone(),
                        certificate: certificate.clone(),
                    });
                }
                out.push(*s);
            }
        }
        stater.prover.timeout = per_statement;
    }
    Ok(out)
}

/// How many times [`Options::per_statement`] each statement of a splitting may take: half of it
/// from the axioms alone, half citing the splitting's statements proved before it (rings with
/// x³ = x need 2.9 s for x ↦ −2x to preserve ·, against 1 s for the others).
const SPLITTING_TIME: u32 = 4;

/// Whether a statement holds in the models, and if it does, what became of it.
enum Held {
    /// It fails in some model: not stated.
    No,
    /// It is an axiom of the theory: not stated, not a result.
    Axiom,
    /// Stated, and given to the prover if the budget allowed.
    Stated(Box<Statement>),
    /// The same kind and equation stated before (the splitting states its endomorphisms
    /// first); whether it was proved.
    Again {
        /// Whether the earlier statement was proved.
        proved: bool,
    },
}

/// What stating a statement needs: the theory, the models it must hold in, the prover's
/// options and plan, and the count of statements given to the prover so far.
struct Stater<'a> {
    theory: &'a Theory,
    models: &'a [Structure],
    prover: ProverOptions,
    plan: Vec<Strategy>,
    opts: &'a Options,
    tried: usize,
    /// The equations stated so far, with the prover's answer (two kinds of statement may be
    /// one equation: for t(x) = x·x, "idempotent" and "a retraction" both read
    /// (x·x)·(x·x) = x·x).
    stated: HashMap<String, Status>,
    /// The statements made so far, by kind and equation.
    made: HashSet<(Kind, String)>,
}

impl Stater<'_> {
    /// The statement of `kind` about `t` (and partner `u`) and `op`, checked by the evaluator on
    /// every model, then given to the prover while [`Options::max_proofs`] allows, which may
    /// cite the statements `cited` ([`lemmas`](super::lemmas)).
    fn state(
        &mut self,
        kind: Kind,
        t: &Term,
        u: Option<&Term>,
        op: FuncId,
        cited: &[ProvedStatement],
    ) -> Result<Held, FinderError> {
        let sig = &self.theory.sig;
        let x = Term::Var(VarId(0));
        let axiom = kind.axiom(t, u.unwrap_or(&x), op);
        if !self.models.iter().all(|m| eval::holds(sig, m, &axiom)) {
            return Ok(Held::No);
        }
        if canon::has_axiom(self.theory, &axiom) {
            return Ok(Held::Axiom);
        }
        // Every operand bracketed: (x * y) * z, not x * y * z, which reads two ways.
        let printer = FormulaPrinter {
            bracket_operands: true,
            ..FormulaPrinter::new(sig, &axiom)
        };
        let op_name = sig.func_decl(op).name.clone();
        let term = if kind.about_operation() {
            String::new()
        } else {
            printer.term(t)
        };
        let partner = u.map(|u| printer.term(u)).unwrap_or_default();
        let mut notation = Notation::plain(&term, &op_name);
        if u.is_some() {
            notation = notation.with_partner(Notation::plain(&partner, &op_name));
        }
        let equation = printer.formula(&axiom.formula);
        let earlier = self.stated.get(&equation).cloned();
        if !self.made.insert((kind, equation.clone())) {
            let proved = matches!(earlier, Some(Status::Proved { .. }));
            return Ok(Held::Again { proved });
        }
        // What is proved is the equation as printed, read back: a certificate stored with that
        // text replays against what the text parses to (variables in order of appearance),
        // whoever reads it later.
        let axiom =
            birkhoff_engine::parse::parse_formula(sig, &equation, "statement").unwrap_or(axiom);
        let mut s = Statement {
            kind,
            sentence: kind.sentence(&notation),
            equation,
            term,
            partner,
            operation: op_name,
            status: Status::NotTried,
            seconds: 0.0,
            axiom,
        };
        if let Some(status) = earlier {
            // The same equation under another kind: the same answer, proof and all.
            s.status = status;
        } else if self.tried < self.opts.max_proofs && !self.cancelled() {
            self.tried += 1;
            let t0 = Instant::now();
            let answer = prove_citing(self.theory, &s.axiom, cited, &self.prover, &self.plan)?;
            s.seconds = t0.elapsed().as_secs_f64();
            s.status = Status::of(answer, self.cancelled());
        }
        self.stated.insert(s.equation.clone(), s.status.clone());
        Ok(Held::Stated(Box::new(s)))
    }

    /// Whether Ctrl-C asked to stop.
    fn cancelled(&self) -> bool {
        self.opts
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// The prover's plan: its own, except that when every model up to `checked` was given (each
/// statement holds in all of them), countermodels are sought only above it: first one size up,
/// briefly, then two sizes up with what is left.
fn plan(prover: &ProverOptions, checked: Option<u32>) -> Vec<Strategy> {
    let Some(checked) = checked else {
        return prover.plan();
    };
    let above = |max_size, time_share| Strategy::Countermodel {
        min_size: checked + 1,
        max_size,
        time_share,
    };
    let mut plan = vec![above(checked + 1, 20)];
    plan.extend(
        prover
            .plan()
            .into_iter()
            .filter(|s| !matches!(s, Strategy::Countermodel { .. })),
    );
    plan.push(above(checked + 2, 100));
    plan
}

/// Terms t(x) in one variable up to `opts.depth`, other than x itself, one per distinct table
/// on `models` (the smallest), at most `opts.max_terms`, smallest first.
fn terms(theory: &Theory, models: &[Structure], opts: &Options) -> Vec<Term> {
    let sig = &theory.sig;
    if sig.sorts.len() != 1 {
        return Vec::new();
    }
    let x = Term::Var(VarId(0));
    let mut layers: Vec<Term> = vec![x.clone()];
    for f in sig.func_ids().filter(|&f| sig.func_decl(f).args.is_empty()) {
        layers.push(Term::App(f, vec![]));
    }
    for _ in 0..opts.depth {
        let mut next = layers.clone();
        for f in sig.func_ids() {
            match sig.func_decl(f).args.len() {
                1 => next.extend(layers.iter().map(|a| Term::App(f, vec![a.clone()]))),
                2 => {
                    for a in &layers {
                        for b in &layers {
                            next.push(Term::App(f, vec![a.clone(), b.clone()]));
                        }
                    }
                }
                _ => {}
            }
        }
        layers = next;
        // Enough to choose from: the distinct ones are picked below.
        if layers.len() > 5000 {
            break;
        }
    }
    layers.sort_by_key(Term::size);
    let mut seen = HashSet::new();
    // x itself, and the constants (whose maps are constant), say nothing new: their tables first.
    seen.insert(table(sig, models, &x));
    layers
        .into_iter()
        .filter(mentions_x)
        .filter(|t| seen.insert(table(sig, models, t)))
        .take(opts.max_terms)
        .collect()
}

fn mentions_x(t: &Term) -> bool {
    match t {
        Term::Var(_) => true,
        Term::App(_, args) => args.iter().any(mentions_x),
    }
}

/// The values of `t` at every element of every model: equal for terms that act alike.
fn table(sig: &birkhoff_engine::Signature, models: &[Structure], t: &Term) -> Vec<u32> {
    models
        .iter()
        .flat_map(|m| (0..m.sizes[0]).map(move |x| eval::term_value(sig, m, t, &[x])))
        .collect()
}

/// A proved statement (or an axiom) as [`compose`] reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fact {
    /// The kind of statement.
    pub kind: Kind,
    /// The binary operation's symbol.
    pub operation: String,
    /// The term t(x) as printed; for an axiom ([`axiom_facts`]), the axiom's name.
    pub term: String,
    /// The partner u(x) of a statement about a pair of terms (empty otherwise).
    pub partner: String,
}

impl Fact {
    /// The fact of `kind` about `op` and the term `t` alone.
    pub fn new(kind: Kind, op: &str, t: &str) -> Fact {
        Fact {
            kind,
            operation: op.into(),
            term: t.into(),
            partner: String::new(),
        }
    }

    /// Whether this fact is the statement of `kind` about `op`, `t` and `partner`: a statement
    /// about the operation alone (or an axiom) matches any term.
    fn is(&self, kind: Kind, op: &str, t: &str, partner: &str) -> bool {
        self.kind == kind
            && self.operation == op
            && (kind.about_operation() || (self.term == t && self.partner == partner))
    }

    /// Whether this fact is the statement `wanted` (a theorem's part, say): the same kind and
    /// operation, and for a statement about terms, the same term and partner.
    pub fn answers(&self, wanted: &Fact) -> bool {
        self.is(
            wanted.kind,
            &wanted.operation,
            &wanted.term,
            &wanted.partner,
        )
    }
}

/// A structure theorem: proved statements read together ([`compose`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Theorem {
    /// The binary operation's symbol.
    pub operation: String,
    /// The term t(x).
    pub term: String,
    /// The theorem, for every model S, in words.
    pub sentence: String,
    /// The proved statements (or axioms) it rests on, in the order the argument uses them.
    pub parts: Vec<Fact>,
    /// How the parts give the theorem, in words: its proof, given the parts.
    pub argument: String,
}

impl Theorem {
    /// The theorem about `op` and `t` resting on statements of these kinds about them.
    fn of(op: &str, t: &str, sentence: String, parts: Vec<Kind>, argument: String) -> Theorem {
        Theorem {
            operation: op.into(),
            term: t.into(),
            sentence,
            parts: parts.into_iter().map(|k| Fact::new(k, op, t)).collect(),
            argument,
        }
    }
}

/// The strongest structure theorem that the `proved` statements give for each operation, in
/// the order the operations first appear, and the direct decompositions they give. Only proved
/// statements (and axioms) may be given: the theorem is as true as they are.
///
/// The steps, each needing the previous one's parts: x ↦ t(x) is a retraction and an
/// endomorphism, so its image I is a retract; I is a left and right ideal; · is associative,
/// the squares of I are one element e and e is a left identity of I, so I is a group of
/// exponent 2; every square lies in I, so S is an ideal extension of that group by a semigroup
/// in which every square is zero (the Rees quotient S/I).
///
/// ```
/// use birkhoff_checker::prover::structural::{compose, Fact, Kind, Notation};
/// let proved: Vec<Fact> = [Kind::Retraction, Kind::Endomorphism]
///     .into_iter()
///     .map(|k| Fact::new(k, "*", "x * x * x"))
///     .collect();
/// let theorems = compose(&proved, &Notation::plain);
/// assert_eq!(theorems.len(), 1);
/// assert!(theorems[0].sentence.contains("retract"));
/// ```
pub fn compose(proved: &[Fact], notation: &dyn Fn(&str, &str) -> Notation) -> Vec<Theorem> {
    let mut operations: Vec<&str> = Vec::new();
    for f in proved {
        if !operations.contains(&f.operation.as_str()) {
            operations.push(&f.operation);
        }
    }
    let has = |op: &str, term: &str, kind: Kind| proved.iter().any(|f| f.is(kind, op, term, ""));
    let mut out = Vec::new();
    for &op in &operations {
        let mut terms: Vec<&str> = Vec::new();
        for f in proved {
            if f.operation == op && !f.kind.about_operation() && !terms.contains(&f.term.as_str()) {
                terms.push(&f.term);
            }
        }
        // The strongest theorem of any term; the smallest term on a tie (terms come smallest first).
        let best = terms
            .iter()
            .flat_map(|t| {
                let (n, has) = (notation(t, op), |k| has(op, t, k));
                [theorem(op, t, &n, &has), centre(op, t, &n, &has)]
            })
            .flatten()
            .fold(None::<Theorem>, |best, th| match best {
                Some(b) if b.parts.len() >= th.parts.len() => Some(b),
                _ => Some(th),
            });
        out.extend(best);
        for f in proved {
            if f.kind == Kind::Complement && f.operation == op {
                out.extend(split(
                    proved,
                    &operations,
                    op,
                    &f.term,
                    &f.partner,
                    notation,
                ));
            }
        }
    }
    out
}

/// The direct decomposition S ≅ A × B, A = {t(x)} and B = {u(x)}, that a proved splitting of
/// `sum` gives ([`Kind::PAIR`], both maps endomorphisms of `sum`), as an isomorphism for every
/// operation of `operations` that both maps are proved to preserve; with what is proved of
/// each image (idempotent, commutative, one square).
fn split(
    proved: &[Fact],
    operations: &[&str],
    sum: &str,
    t: &str,
    u: &str,
    notation: &dyn Fn(&str, &str) -> Notation,
) -> Option<Theorem> {
    use Kind::*;
    let has = |kind: Kind, op: &str, t: &str, partner: &str| {
        proved.iter().any(|f| f.is(kind, op, t, partner))
    };
    let preserved: Vec<&str> = operations
        .iter()
        .copied()
        .filter(|&o| has(Endomorphism, o, t, "") && has(Endomorphism, o, u, ""))
        .collect();
    if !preserved.contains(&sum) || !Kind::PAIR.iter().all(|&k| has(k, sum, t, u)) {
        return None;
    }
    let mut parts: Vec<Fact> = Kind::PAIR
        .iter()
        .map(|&k| Fact {
            partner: u.into(),
            ..Fact::new(k, sum, t)
        })
        .collect();
    for &o in &preserved {
        parts.extend([Fact::new(Endomorphism, o, t), Fact::new(Endomorphism, o, u)]);
    }
    let (n, p) = (notation(t, sum), notation(u, sum));
    let l = |s: &str| (n.letter)(s);
    let (big_s, big_a, big_b, a, b) = (l("S"), l("A"), l("B"), l("a"), l("b"));
    let ops: Vec<String> = preserved.iter().map(|&o| notation(t, o).op).collect();
    let ops = ops.join(" and ");
    let o = &n.op;
    let mut sentence = format!(
        "The maps {} and {} together, sending each element to the pair of its images, are an isomorphism of {big_s} onto the direct product of the images {big_a} = {} and {big_b} = {} for {ops}, whose inverse sends a pair ({a}, {b}) to {a} {o} {b}",
        n.map, p.map, n.image, p.image
    );
    // What is proved of each image holds in that factor.
    for (term, letter) in [(t, &big_a), (u, &big_b)] {
        for &op in operations {
            let nt = notation(term, op);
            for (kind, says) in [
                (
                    Idempotent,
                    format!("every element of {letter} is idempotent for {}", nt.op),
                ),
                (
                    ImageCommutative,
                    format!("{} is commutative on {letter}", nt.op),
                ),
                (
                    ImageSquaresConstant,
                    format!(
                        "the squares for {} of the elements of {letter} are one element",
                        nt.op
                    ),
                ),
            ] {
                if has(kind, op, term, "") {
                    sentence += &format!("; {says}");
                    parts.push(Fact::new(kind, op, term));
                }
            }
        }
    }
    let argument = format!(
        "Every element is the product for {o} of its two images (complement), so it is determined by the pair of its images: the map to the product is one-to-one. Both maps preserve {ops} (endomorphisms), so each image is closed under {ops} and the map is a homomorphism. Each map fixes its image: {} applied to an element written as the product of its images gives its image times the value of {} at the second image, a right identity (right identity); likewise {} fixes {big_b}, the value of {} at an element of {big_a} being a left identity (left identity). So for {a} in {big_a} and {b} in {big_b}, {} sends {a} {o} {b} to {a} and {} sends it to {b}: the map is onto, with the inverse stated. What is stated of each factor is a statement proved of its elements.",
        n.map, n.map, p.map, p.map, n.map, p.map
    );
    Some(Theorem {
        operation: sum.into(),
        term: t.into(),
        sentence: sentence + ".",
        parts,
        argument,
    })
}

/// The theorem that the statements proved of `op` and `t` (`has`) give, if any, its
/// mathematics written as `n` says.
fn theorem(op: &str, t: &str, n: &Notation, has: &dyn Fn(Kind) -> bool) -> Option<Theorem> {
    use Kind::*;
    if !(has(Retraction) && has(Endomorphism)) {
        return None;
    }
    let l = |s: &str| (n.letter)(s);
    let (map, image, o) = (&n.map, &n.image, &n.op);
    let (big_s, big_i, a, y) = (l("S"), l("I"), l("a"), l("y"));
    let mut parts = vec![Retraction, Endomorphism];
    let mut sentence = format!(
        "The map {map} is a retraction of {big_s} onto its image {big_i} = {image} and a homomorphism for {o}: {big_i} is a retract of {big_s}"
    );
    let mut argument = format!(
        "The map fixes each element of its image (retraction), so it maps {big_s} onto {big_i} and fixes {big_i}; it preserves {o} (endomorphism), so {big_i} is closed under {o} and the map is a homomorphism onto it."
    );
    if !(has(ImageLeftIdeal) && has(ImageRightIdeal)) {
        return Some(Theorem::of(op, t, sentence + ".", parts, argument));
    }
    parts.extend([ImageLeftIdeal, ImageRightIdeal]);
    sentence += &format!(" and an ideal of {big_s}");
    argument += &format!(
        " Every product of {y} in {big_s} with {a} in {big_i}, on either side, is fixed by the map, so lies in {big_i}: {big_i} is an ideal."
    );
    if has(Associative) && has(ImageSquaresConstant) && has(ImageSquareIsIdentity) {
        parts.extend([Associative, ImageSquaresConstant, ImageSquareIsIdentity]);
        let e = l("e");
        sentence += &format!(
            "; with {o}, {big_i} is a group of exponent 2 (a Boolean group, so abelian) whose identity {e} is the square of each of its elements"
        );
        argument += &format!(
            " The squares of the elements of {big_i} are one element {e}, which lies in {big_i} since {big_i} is closed, and {e} is a left identity of {big_i}, so every element of {big_i} is its own left inverse. An associative operation with a left identity and left inverses is a group, here one in which every element has order at most 2; such a group is abelian, since the square of a product is {e} as well."
        );
        if has(ImageContainsSquares) {
            parts.push(ImageContainsSquares);
            sentence += &format!(
                "; {big_s} is an ideal extension of the Boolean group {big_i} by the Rees quotient {}, a semigroup with zero in which every square is zero",
                l("S/I")
            );
            argument += &format!(
                " Every square lies in {big_i}, so in the Rees quotient {} ({big_i} collapsed to one element, its zero) every square is zero: {big_s} is an ideal extension of {big_i} by it.",
                l("S/I")
            );
        }
    }
    Some(Theorem::of(op, t, sentence + ".", parts, argument))
}

/// The theorem that every t(x) lies in the nucleus (it associates with every pair), or in the
/// centre (it also commutes with every element, by a statement or because the operation is
/// commutative; the nuclei are everything for an associative operation), and, when the map
/// preserves the operation, that x ↦ t(x) is an endomorphism into the centre whose image is a
/// commutative semigroup of central elements (commutative C-loops: x ↦ x·x).
fn centre(op: &str, t: &str, n: &Notation, has: &dyn Fn(Kind) -> bool) -> Option<Theorem> {
    use Kind::*;
    let nuclei = [InLeftNucleus, InMiddleNucleus, InRightNucleus];
    let in_nucleus = nuclei.iter().all(|&k| has(k));
    // A commutative operation makes every element commute with all; only its nuclei then say
    // which are central (for an associative one, all are: nothing to state).
    let central = has(Central) || (has(Commutative) && in_nucleus && !has(Associative));
    let (big_s, o) = ((n.letter)("S"), &n.op);
    if in_nucleus && !central {
        return Some(Theorem::of(op, t, format!(
                "Every {} lies in the nucleus of {big_s} for {o}: it associates with every pair of elements, in each of the three positions.",
                n.term
            ), nuclei.to_vec(), "The nucleus is the intersection of the left, middle and right nuclei, and each statement puts the element in one of them.".into()));
    }
    if !central || !(has(Associative) || in_nucleus) {
        return None;
    }
    let mut parts = Vec::new();
    let mut argument = if has(Central) {
        parts.push(Central);
        format!(
            "Each {} commutes with every element of {big_s} (central)",
            n.term
        )
    } else {
        parts.push(Commutative);
        format!(
            "{o} is commutative, so each {} commutes with every element of {big_s},",
            n.term
        )
    };
    if has(Associative) {
        parts.push(Associative);
        argument += &format!(" and {o} is associative");
    } else {
        parts.extend(nuclei);
        argument += " and lies in the left, middle and right nuclei";
    }
    argument += ", so it lies in the centre, the elements that commute and associate with all.";
    let mut sentence = format!(
        "Every {} lies in the centre of {big_s} for {o}: it commutes with every element and associates with every pair",
        n.term
    );
    if has(Endomorphism) {
        parts.push(Endomorphism);
        let big_i = (n.letter)("I");
        sentence += &format!(
            "; the map {} is an endomorphism of {big_s} into its centre, whose image {big_i} = {} is closed under {o}: with {o}, {big_i} is a commutative semigroup of central elements",
            n.map, n.image
        );
        argument += &format!(
            " The map preserves {o} (endomorphism), so it is a homomorphism into the centre, and its image {big_i} is closed under {o}: a product of two images is the image of the product. Central elements commute and associate with all, so {o} on {big_i} is commutative and associative."
        );
    }
    Some(Theorem::of(op, t, sentence + ".", parts, argument))
}

/// The facts about each binary operation that are axioms of `theory` (associativity,
/// commutativity), as [`compose`] takes them, with the axiom's name in place of a term: the
/// statements do not restate axioms, and a structure theorem may rest on them.
pub fn axiom_facts(theory: &Theory) -> Vec<Fact> {
    let sig = &theory.sig;
    let mut out = Vec::new();
    if sig.sorts.len() != 1 {
        return out;
    }
    let x = Term::Var(VarId(0));
    for op in sig.func_ids().filter(|&f| sig.func_decl(f).args.len() == 2) {
        for kind in [Kind::Associative, Kind::Commutative] {
            if let Some(i) = canon::find_axiom(theory, &kind.axiom(&x, &x, op)) {
                let op = &sig.func_decl(op).name;
                out.push(Fact::new(kind, op, &theory.axioms[i].name));
            }
        }
    }
    out
}

/// The statements of `found` that were proved with a replayed certificate, as [`compose`] takes
/// them.
pub fn proved(found: &[Statement]) -> Vec<Fact> {
    found
        .iter()
        .filter(|s| matches!(s.status, Status::Proved { .. }))
        .map(|s| Fact {
            partner: s.partner.clone(),
            ..Fact::new(s.kind, &s.operation, &s.term)
        })
        .collect()
}
