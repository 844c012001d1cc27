//! The field's formats: theories to and from TPTP and LADR.
//!
//! [`export`] writes a theory (and optionally a goal) as a TPTP problem (FOF for one sort, TFF for
//! several) or as LADR input for Prover9 and Mace4. [`import`] reads any of Birkhoff's format,
//! LADR and TPTP, telling them apart by their content ([`detect`]), and returns the theory with
//! its conjectures apart. An imported theory has names Birkhoff's format can print and read back
//! (`import` checks that it does), and is in [`normal form`](normalize).
//!
//! ```
//! use birkhoff_engine::{interop, seeds};
//! let group = seeds::load("group").unwrap();
//! let tptp = interop::export(&group, None, interop::Target::Tptp).unwrap();
//! assert!(tptp.contains("fof(assoc, axiom, ![X, Y, Z]: mult(mult(X, Y), Z) = mult(X, mult(Y, Z)))."));
//! let back = interop::import(&tptp, "group.p").unwrap();
//! assert_eq!(back.format, interop::Format::Tptp);
//! let same = birkhoff_engine::canon::equal_up_to_renaming(&interop::normalize(&group), &back.theory).unwrap();
//! assert!(same);
//! ```

mod dialect;
mod ladr_write;
pub mod names;
pub mod tptp_read;
mod tptp_write;

use crate::error::{Diagnostic, Diagnostics, Error, Result};
use crate::print::FormulaPrinter;
use crate::signature::{is_symbolic, Signature, DEFAULT_SORT};
use crate::syntax::{Axiom, Formula, Term, VarId};
use crate::theory::Theory;
use names::NameMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;

/// A language a theory can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Birkhoff's own `.bk` (docs/THEORY_LANGUAGE.md).
    Birkhoff,
    /// LADR input: Prover9 and Mace4 files with `formulas(...)` lists.
    Ladr,
    /// TPTP: `fof`, `tff` and `cnf` annotated formulas.
    Tptp,
}

/// A language [`export`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// TPTP FOF (one sort) or TFF (several sorts).
    Tptp,
    /// LADR's default syntax (one sort only).
    Ladr,
}

/// Prefix of the axioms that only declare a symbol (see [`export`]).
pub(crate) const DECLARATION_PREFIX: &str = "declare_";

/// The key under which an imported theory keeps its conjecture (as text of Birkhoff's format).
pub const CONJECTURE_META: &str = "conjecture";

/// The format of a theory file, from its content: TPTP if its first item (after comments) is an
/// annotated formula or an `include`, LADR if it has a `formulas(` list, Birkhoff's otherwise.
pub fn detect(src: &str) -> Format {
    let mut rest = src;
    loop {
        rest = rest.trim_start();
        if rest.starts_with('%') || rest.starts_with('#') {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            break;
        }
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let opens = rest[word.len()..].trim_start().starts_with('(');
    if opens
        && matches!(
            word.as_str(),
            "fof" | "tff" | "cnf" | "thf" | "tcf" | "tpi" | "include"
        )
    {
        Format::Tptp
    } else if crate::theory::is_mace4_input(src) {
        Format::Ladr
    } else {
        Format::Birkhoff
    }
}

/// A theory read from a file, and the conjectures the file states.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The format the file was in.
    pub format: Format,
    /// The axioms (in [`normalize`]d form for TPTP and LADR).
    pub theory: Theory,
    /// TPTP `conjecture`s or the LADR goal, as formulas over the theory's signature.
    pub conjectures: Vec<Axiom>,
}

/// Reads a theory in any of the three formats ([`detect`]). A TPTP problem's conjectures and a
/// LADR file's goal are returned apart, as written (not negated), and also kept in the theory's
/// metadata under [`CONJECTURE_META`], which `birkhoff prove` reads when no goal is given.
/// Axioms that only declare a symbol (`declare_f: f(X) = f(X)`, as [`export`] writes them) are
/// dropped and the symbol kept.
pub fn import(src: &str, file: &str) -> Result<Imported> {
    let format = detect(src);
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("imported");
    match format {
        Format::Birkhoff => {
            let t = Theory::parse(src, file)?;
            let goal = t
                .meta
                .get(CONJECTURE_META)
                .map(|g| crate::parse::parse_formula(&t.sig, g, "conjecture"))
                .transpose()?;
            Ok(Imported {
                format,
                theory: t,
                conjectures: goal.into_iter().collect(),
            })
        }
        Format::Ladr => {
            let (t, goals) = crate::parse::parse_ladr_problem(src, file)?;
            let axioms = t.axioms.iter().map(|a| a.as_ref().clone()).collect();
            finish(format, t.sig.as_ref().clone(), axioms, goals, stem, file)
        }
        Format::Tptp => {
            let p = tptp_read::read(src, file)?;
            finish(format, p.sig, p.axioms, p.conjectures, stem, file)
        }
    }
}

/// Parses `goal`, a formula given beside the theory file `src` (`birkhoff prove FILE GOAL`), in
/// that file's own syntax, over the signature [`import`] gives it. A LADR file's goal is read
/// with LADR's conventions, as if it stood in the file's goals: `x * x' = e` is a theorem of
/// groups written with LADR's postfix inverse, where Birkhoff's syntax would read `x'` as a
/// second variable. A TPTP problem's goal is read as the body of an annotated formula
/// (`![X]: mult(X, inv(X)) = e`; a free variable is universal). A goal may use only the file's
/// symbols. Errors name `name`.
///
/// ```
/// use birkhoff_engine::interop;
/// let src = "formulas(assumptions).\n(x * y) * z = x * (y * z).\ne * x = x.\nx' * x = e.\nend_of_list.\n";
/// let goal = interop::parse_goal(src, "g.in", "x * x' = e", "GOAL").unwrap();
/// assert_eq!(goal.free_vars().len(), 1);
/// assert!(interop::parse_goal(src, "g.in", "a * x = x", "GOAL").is_err()); // `a` is no symbol of the file
/// ```
pub fn parse_goal(src: &str, file: &str, goal: &str, name: &str) -> Result<Axiom> {
    let imported = import(src, file)?;
    let sig = imported.theory.sig.as_ref();
    let as_written = match imported.format {
        Format::Birkhoff => return crate::parse::parse_formula(sig, goal, name),
        Format::Ladr => crate::parse::parse_ladr_goal(src, file, goal, name)?,
        Format::Tptp => tptp_read::read_goal(src, file, goal, name)?,
    };
    let mut axiom = normal_axiom(&as_written, sig.is_single_sorted());
    bk_variables(sig, &mut axiom);
    Ok(in_reading_order(&axiom))
}

/// Mace4's reading of a goal, on request only: the theory whose models are the countermodels to
/// `t`'s conjecture ([`CONJECTURE_META`]), that is `t`'s axioms and the denial of the goal's
/// universal closure. It is named `<name>_goal_denied`, so that every output that names the
/// theory says which reading was used; the conjecture leaves the metadata, since it is now an
/// axiom's negation. `None` when `t` states no conjecture.
///
/// ```
/// use birkhoff_engine::{interop, Theory};
/// let t = Theory::parse_any("formulas(assumptions).\nx * y = y * x.\nend_of_list.\nformulas(goals).\nx * x = x.\nend_of_list.\n", "c.in").unwrap();
/// assert_eq!(t.axioms.len(), 1); // the goal is not an axiom
/// let denied = interop::deny_conjecture(&t).unwrap().unwrap();
/// assert_eq!((denied.name.as_str(), denied.axioms.len()), ("c_goal_denied", 2));
/// ```
pub fn deny_conjecture(t: &Theory) -> Result<Option<Theory>> {
    let Some(text) = t.meta.get(CONJECTURE_META) else {
        return Ok(None);
    };
    let goal = crate::parse::parse_formula(&t.sig, text, "conjecture")?;
    let free = goal.free_vars();
    let closed = if free.is_empty() {
        goal.formula.clone()
    } else {
        Formula::Forall(free, Box::new(goal.formula.clone()))
    };
    let mut names = NameMap::new(&[]);
    for a in &t.axioms {
        names.claim(&a.name);
    }
    let denial = Axiom {
        name: names.fresh("goal_denied", str::to_string),
        formula: Formula::not(closed),
        ..goal
    };
    let mut denied = t.clone();
    denied.name = format!("{}_goal_denied", t.name);
    denied.meta.remove(CONJECTURE_META);
    denied.axioms.push(Arc::new(denial));
    Ok(Some(denied))
}

/// Renames sorts and symbols into names Birkhoff's format declares and reads back: a TPTP
/// `$i` becomes `U` (or `i` beside other types), a keyword such as `sort` gets a suffix, and a
/// name no declaration can hold becomes a word (`'a b'` becomes `ab`). Binary symbols get the
/// default fixity of their new name.
fn bk_signature(sig: &mut Signature) {
    let mut reserved: Vec<&str> = crate::parse::ITEM_KEYWORDS.to_vec();
    reserved.extend(crate::parse::RESERVED);
    let mut map = NameMap::new(&reserved);
    let single = sig.is_single_sorted();
    for s in &mut sig.sorts {
        s.name = if single && map.claim(DEFAULT_SORT) {
            DEFAULT_SORT.to_string()
        } else {
            map.fresh(s.name.trim_start_matches('$'), bk_identifier)
        };
    }
    let keep = |name: &str| {
        bk_identifier(name) == name
            || is_symbolic(name)
                && (!crate::lexer::BUILTIN_OPS.contains(&name) || name == "-")
                && !name.contains([
                    '(', ')', ',', ':', '.', '"', '#', '%', '[', ']', '{', '}', ';',
                ])
    };
    let mut rename = |name: &mut String, args: usize, fixity: &mut crate::signature::Fixity| {
        if !(keep(name) && map.claim(name)) {
            *name = map.fresh(name, bk_identifier);
        }
        if args == 2 {
            *fixity = crate::signature::default_binary_fixity(name);
        }
    };
    for f in &mut sig.funcs {
        rename(&mut f.name, f.args.len(), &mut f.fixity);
    }
    for r in &mut sig.rels {
        rename(&mut r.name, r.args.len(), &mut r.fixity);
    }
}

/// Axiom names of Birkhoff's format (identifiers), distinct.
fn bk_labels<'a>(axioms: impl Iterator<Item = &'a mut Axiom>) {
    let mut labels = NameMap::new(&[]);
    for a in axioms {
        a.name = labels.fresh(&a.name, |n| {
            let w = bk_identifier(n);
            if w.starts_with(|c: char| c.is_ascii_alphabetic()) {
                w
            } else {
                format!("ax{w}")
            }
        });
    }
}

/// A name of Birkhoff's format: letters, digits, `_` and `'`, starting with a letter or `_`.
fn bk_identifier(name: &str) -> String {
    let w = names::ascii_word(name);
    if w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        w
    } else {
        format!("s{w}")
    }
}

/// Gives the axiom's variables names Birkhoff's format reads as variables and as no symbol.
fn bk_variables(sig: &Signature, a: &mut Axiom) {
    let mut map = NameMap::new(&[]);
    for s in sig
        .funcs
        .iter()
        .map(|f| &f.name)
        .chain(sig.rels.iter().map(|r| &r.name))
    {
        map.claim(s);
    }
    let names: Vec<String> = a.vars.iter().map(|v| v.name.clone()).collect();
    let plain: Vec<bool> = names
        .iter()
        .map(|n| crate::parse::looks_like_variable(n) && map.claim(n))
        .collect();
    for (v, ok) in a.vars.iter_mut().zip(plain) {
        if !ok {
            v.name = map.fresh(&v.name, |n| {
                let first = n.chars().find(|c| c.is_ascii_alphabetic()).unwrap_or('x');
                first.to_string()
            });
        }
    }
}

/// The axiom with its variables numbered as Birkhoff's parser numbers them: in the order they
/// are met reading the formula left to right (a quantifier's variables where it stands).
fn in_reading_order(a: &Axiom) -> Axiom {
    fn var(order: &mut Vec<VarId>, v: VarId) -> VarId {
        let i = order.iter().position(|w| *w == v).unwrap_or_else(|| {
            order.push(v);
            order.len() - 1
        });
        VarId(i as u32)
    }
    fn term(order: &mut Vec<VarId>, t: &Term) -> Term {
        match t {
            Term::Var(v) => Term::Var(var(order, *v)),
            Term::App(f, args) => Term::App(*f, args.iter().map(|a| term(order, a)).collect()),
        }
    }
    fn formula(order: &mut Vec<VarId>, f: &Formula) -> Formula {
        match f {
            Formula::Eq(..) | Formula::Rel(..) => f.map_terms(&mut |t| term(order, t)),
            // A quantifier's variables are numbered before its body's.
            Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
                let vs: Vec<VarId> = vs.iter().map(|v| var(order, *v)).collect();
                let body = Box::new(formula(order, g));
                if matches!(f, Formula::Forall(..)) {
                    Formula::Forall(vs, body)
                } else {
                    Formula::Exists(vs, body)
                }
            }
            _ => f.map_subformulas(|g| formula(order, g)),
        }
    }
    let mut order = Vec::new();
    let f = formula(&mut order, &a.formula);
    // A variable the formula no longer mentions (bound by a dropped outer quantifier that bound
    // nothing) is dropped: domains are never empty, so it changed nothing.
    let vars = order.iter().map(|v| a.vars[v.0 as usize].clone()).collect();
    Axiom {
        formula: f,
        vars,
        ..a.clone()
    }
}

/// What every format's import ends with: names of Birkhoff's format, declarations dropped,
/// formulas normalised, the conjecture kept in the metadata, and a check that Birkhoff's format
/// prints the result and reads it back as the same theory.
fn finish(
    format: Format,
    sig: Signature,
    axioms: Vec<Axiom>,
    conjectures: Vec<Axiom>,
    name: &str,
    file: &str,
) -> Result<Imported> {
    let mut sig = sig;
    bk_signature(&mut sig);
    let single = sig.is_single_sorted();
    let mut axioms: Vec<Axiom> = axioms
        .iter()
        .map(|a| normal_axiom(a, single))
        .filter(|a| !is_declaration(a))
        .collect();
    let mut conjectures: Vec<Axiom> = conjectures
        .iter()
        .map(|a| normal_axiom(a, single))
        .collect();
    bk_labels(axioms.iter_mut().chain(conjectures.iter_mut()));
    for a in axioms.iter_mut().chain(conjectures.iter_mut()) {
        bk_variables(&sig, a);
        *a = in_reading_order(a);
    }
    let mut meta = BTreeMap::new();
    if let Some(text) = conjecture_text(&sig, &conjectures) {
        meta.insert(CONJECTURE_META.to_string(), text);
    }
    sig.check_well_formed()
        .map_err(|m| Error::Source(Diagnostics(vec![Diagnostic::at(file, "", 0, 1, m)])))?;
    let theory = Theory {
        name: bk_identifier(name),
        doc: String::new(),
        meta,
        sig: Arc::new(sig),
        axioms: axioms.into_iter().map(Arc::new).collect(),
    };
    let text = theory.to_text();
    match Theory::parse(&text, file) {
        Ok(back) if crate::canon::literally_equal(&back, &theory) && back.meta == theory.meta => Ok(Imported { format, theory, conjectures }),
        Ok(_) => Err(Error::Export(format!("{file}: the imported theory does not print as itself in Birkhoff's format (a bug; please report it with the file)"))),
        Err(e) => Err(Error::Export(format!("{file}: the imported theory does not read back in Birkhoff's format (a bug; please report it with the file):\n{e}"))),
    }
}

/// The conjectures as one formula of Birkhoff's format: several are one conjunction, each closed
/// over its own variables.
fn conjecture_text(sig: &Signature, conjectures: &[Axiom]) -> Option<String> {
    match conjectures {
        [] => None,
        [one] => Some(FormulaPrinter::new(sig, one).formula(&one.formula)),
        many => {
            let parts: Vec<String> = many
                .iter()
                .map(|c| {
                    let free = c.free_vars();
                    let f = if free.is_empty() {
                        c.formula.clone()
                    } else {
                        Formula::Forall(free, Box::new(c.formula.clone()))
                    };
                    format!("({})", FormulaPrinter::new(sig, c).formula(&f))
                })
                .collect();
            Some(parts.join(" & "))
        }
    }
}

/// Whether an axiom is one of [`export`]'s declarations: named `declare_...` and a tautology
/// `t = t` or `p | ~p` (under a universal quantifier, in a many-sorted theory).
fn is_declaration(a: &Axiom) -> bool {
    a.name.starts_with(DECLARATION_PREFIX)
        && match a.formula.without_leading_foralls() {
            Formula::Eq(l, r) => l == r,
            Formula::Or(p, q) => matches!(&**q, Formula::Not(n) if **n == **p),
            _ => false,
        }
}

/// The theory with each axiom in normal form: a quantifier directly under one of the same kind
/// merged into it (`all x. all y. F` is `all x y. F`), then, in a one-sorted theory, a universal
/// quantifier around the whole axiom dropped (its variables are free, and free variables are
/// universal), and in a many-sorted one the free variables bound by one around the whole axiom
/// instead (so that each variable's sort is written, which Birkhoff's format cannot always infer).
/// This changes how axioms are written, never what they mean; TPTP closes every formula and LADR
/// gives each variable its own quantifier, so a round trip compares normal forms.
pub fn normalize(t: &Theory) -> Theory {
    let single = t.sig.is_single_sorted();
    let mut out = t.clone();
    out.axioms = t
        .axioms
        .iter()
        .map(|a| Arc::new(normal_axiom(a, single)))
        .collect();
    out
}

fn normal_axiom(a: &Axiom, single_sorted: bool) -> Axiom {
    let merged = Axiom {
        formula: merge_quantifiers(&a.formula),
        ..a.clone()
    };
    let formula = if single_sorted {
        let mut f = merged.formula;
        while let Formula::Forall(_, body) = f {
            f = *body;
        }
        f
    } else {
        let free = merged.free_vars();
        match merged.formula {
            f if free.is_empty() => f,
            Formula::Forall(vs, body) => {
                Formula::Forall(free.into_iter().chain(vs).collect(), body)
            }
            f => Formula::Forall(free, Box::new(f)),
        }
    };
    Axiom {
        formula,
        ..a.clone()
    }
}

fn merge_quantifiers(f: &Formula) -> Formula {
    match f {
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            let universal = matches!(f, Formula::Forall(..));
            let mut vs = vs.clone();
            let mut body = merge_quantifiers(g);
            loop {
                match body {
                    Formula::Forall(ws, inner) if universal => {
                        vs.extend(ws);
                        body = *inner;
                    }
                    Formula::Exists(ws, inner) if !universal => {
                        vs.extend(ws);
                        body = *inner;
                    }
                    other => {
                        body = other;
                        break;
                    }
                }
            }
            if universal {
                Formula::Forall(vs, Box::new(body))
            } else {
                Formula::Exists(vs, Box::new(body))
            }
        }
        _ => f.map_subformulas(merge_quantifiers),
    }
}

/// Writes the theory, and the goal if there is one, in `to`. FOF and LADR cannot declare a
/// symbol, so a symbol no axiom mentions is kept by an axiom `declare_f` that is a tautology
/// about it (`f(X) = f(X)`), which [`import`] drops again. LADR has one sort: a many-sorted
/// theory is an error there (TPTP writes it as TFF).
pub fn export(t: &Theory, goal: Option<&Axiom>, to: Target) -> Result<String> {
    match to {
        Target::Tptp => Ok(tptp_write::write(t, goal)),
        Target::Ladr => ladr_write::write(t, goal),
    }
}

/// The name [`export`] gives each function symbol of `sig` in TPTP, in order: a prover's output
/// read back names the symbols so.
pub fn tptp_function_names(sig: &Signature) -> Vec<String> {
    tptp_write::function_names(sig)
}

/// The comment lines that open an exported file: the theory's name and doc string.
fn header(out: &mut String, t: &Theory, comment: &str) {
    let _ = writeln!(
        out,
        "{comment} {}, written by Birkhoff {}.",
        t.name,
        env!("CARGO_PKG_VERSION")
    );
    for line in t.doc.lines().filter(|l| !l.trim().is_empty()) {
        let _ = writeln!(out, "{comment} {}", line.trim());
    }
    if let Some(r) = t.meta.get("reference") {
        let _ = writeln!(out, "{comment} Reference: {r}");
    }
}
