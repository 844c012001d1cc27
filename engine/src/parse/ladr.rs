//! LADR input: the formula lists of Mace4/Prover9 files and the rows of the ground-truth table.

use super::expr::POSTFIX_PRIME;
use super::{describe, Mode, PResult, Parser};
use crate::error::{Diagnostic, Diagnostics, Error, Result};
use crate::lexer::{Tok, Token};
use crate::signature::{Assoc, Fixity, Signature, SortDecl, SortId, DEFAULT_SORT};
use crate::syntax::Axiom;
use crate::theory::Theory;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A symbol with its arity, as in LADR's `*/2` notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadrSymbol {
    /// The symbol.
    pub name: String,
    /// Its number of arguments.
    pub arity: usize,
}

impl LadrSymbol {
    /// Parses a list such as `*/2; inv/1; e/0` (separated by `;` or `,`).
    pub fn parse_list(text: &str) -> std::result::Result<Vec<LadrSymbol>, String> {
        text.split([';', ','])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|item| {
                let (name, arity) = item
                    .rsplit_once('/')
                    .ok_or_else(|| format!("`{item}` is not of the form name/arity"))?;
                let arity = arity
                    .trim()
                    .parse()
                    .map_err(|_| format!("`{item}`: the arity must be a number"))?;
                Ok(LadrSymbol {
                    name: name.trim().to_string(),
                    arity,
                })
            })
            .collect()
    }
}

fn ladr_fixity(name: &str, arity: usize) -> Fixity {
    if arity == 2
        && (super::expr::LADR_INFIX.contains(&name) || crate::signature::is_symbolic(name))
    {
        Fixity::Infix {
            prec: 50,
            assoc: Assoc::None,
        }
    } else {
        Fixity::Prefix
    }
}

/// Builds a single-sorted theory from declared symbols and LADR formulas, each ending with a period,
/// as in a row of the ground-truth table: `theory_from_ladr_row("group", "*/2; inv/1; e/0", "", "...")`.
pub fn theory_from_ladr_row(
    name: &str,
    functions: &str,
    relations: &str,
    axioms: &str,
) -> Result<Theory> {
    let file = format!("<{name}>");
    let bad = |msg: String| Error::Source(Diagnostics(vec![Diagnostic::at(&file, "", 0, 1, msg)]));
    let funcs = LadrSymbol::parse_list(functions).map_err(bad)?;
    let rels = LadrSymbol::parse_list(relations).map_err(bad)?;
    let mut p = Parser::new(
        &file,
        axioms,
        Mode {
            ladr_vars: true,
            infer_symbols: false,
        },
    );
    ladr_lexer(&mut p);
    p.sig.sorts.push(SortDecl {
        name: DEFAULT_SORT.into(),
    });
    for f in funcs {
        p.declare_func(
            &f.name,
            vec![SortId(0); f.arity],
            SortId(0),
            ladr_fixity(&f.name, f.arity),
        );
    }
    for r in rels {
        p.declare_rel(
            &r.name,
            vec![SortId(0); r.arity],
            ladr_fixity(&r.name, r.arity),
        );
    }
    if let Err(d) = parse_ladr_list(&mut p, false) {
        p.errors.push(d);
    }
    finish(p, name)
}

/// Reads a LADR (Prover9/Mace4) input file: the theory of its `formulas(assumptions)` lists (also
/// `sos` and `usable`), and its goal (at most one) apart, as written. A goal is never an axiom:
/// Prover9 proves it from the assumptions, and Mace4 looks for a model of the assumptions that
/// falsifies it, which [`crate::interop::deny_conjecture`] builds on request. Symbols are
/// inferred from use; `op`, `set`, `clear` and `assign` commands are read and ignored.
pub fn parse_ladr_problem(src: &str, file: &str) -> Result<(Theory, Vec<Axiom>)> {
    let (p, goals) = read_problem(src, file);
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("mace4")
        .to_string();
    let theory = finish(p, &stem)?;
    Ok((theory, goals))
}

/// Parses `goal`, a formula given apart from the LADR file `src` (`birkhoff prove FILE GOAL`), as
/// that file would read it in its goals: variables start with `u` to `z`, `x'` is the postfix
/// operator, and every symbol is one the file uses (none is inferred from the goal). Errors name
/// `name` with the goal's line and column. Symbols keep their places, so the axiom is over the
/// signature of [`parse_ladr_problem`]'s theory.
pub fn parse_ladr_goal(src: &str, file: &str, goal: &str, name: &str) -> Result<Axiom> {
    let (mut p, _) = read_problem(src, file);
    if !p.errors.is_empty() {
        return Err(Error::Source(Diagnostics(p.errors)));
    }
    p.file = name;
    p.src = goal;
    p.lex = crate::lexer::Lexer::new(goal);
    ladr_lexer(&mut p);
    p.lines = Default::default();
    p.mode.infer_symbols = false;
    p.axioms.clear();
    // A goal may be written as in the file's list, with its period.
    p.whole_formula(name, Some("."))
}

/// The parser after reading the LADR file `src`, with the goals apart; errors are in the parser.
fn read_problem<'a>(src: &'a str, file: &'a str) -> (Parser<'a>, Vec<Axiom>) {
    let mut p = Parser::new(
        file,
        src,
        Mode {
            ladr_vars: true,
            infer_symbols: true,
        },
    );
    ladr_lexer(&mut p);
    p.sig.sorts.push(SortDecl {
        name: DEFAULT_SORT.into(),
    });
    let mut goals = Vec::new();
    loop {
        let t = match p.next() {
            Ok(t) => t,
            Err(d) => {
                p.errors.push(d);
                break;
            }
        };
        let step = match &t.tok {
            Tok::Eof => break,
            Tok::Ident(w) if w == "formulas" => formulas_block(&mut p, &mut goals),
            Tok::Ident(w) if matches!(w.as_str(), "op" | "set" | "clear" | "assign" | "redeclare") => skip_command(&mut p),
            Tok::Ident(w) if w == "if" => skip_if_block(&mut p),
            other => Err(p.diag_tok(&t, format!("expected `formulas(assumptions).` or a command such as `assign(...)`, found {}", describe(other)))),
        };
        if let Err(d) = step {
            p.errors.push(d);
            break;
        }
    }
    (p, goals)
}

/// LADR's lexical conventions: `#` introduces attributes, `'` is the postfix operator.
fn ladr_lexer(p: &mut Parser) {
    p.lex.hash_comments = false;
    p.lex.postfix_prime = true;
}

/// The name LADR's postfix `'` gets in the theory: `prime`, or `prime2`, `prime3`, ... when the
/// file uses that name too. While parsing it is called `'`, a name no LADR identifier can have.
fn name_postfix_prime(sig: &mut Signature) {
    let Some(f) = sig.func(POSTFIX_PRIME) else {
        return;
    };
    let name = std::iter::once("prime".to_string())
        .chain((2..).map(|i| format!("prime{i}")))
        .find(|n| !sig.has_symbol(n))
        .expect("some name is free");
    sig.funcs[f.0 as usize].name = name;
}

fn finish(mut p: Parser, name: &str) -> Result<Theory> {
    if let Err(msg) = p.sig.check_well_formed() {
        p.errors.push(Diagnostic::at(p.file, "", 0, 1, msg));
    }
    if !p.errors.is_empty() {
        return Err(Error::Source(Diagnostics(p.errors)));
    }
    name_postfix_prime(&mut p.sig);
    Ok(Theory {
        name: name.to_string(),
        doc: String::new(),
        meta: BTreeMap::new(),
        sig: Arc::new(p.sig),
        axioms: p.axioms.into_iter().map(Arc::new).collect(),
    })
}

fn skip_command(p: &mut Parser) -> PResult<()> {
    p.expect_op("(", "after the command")?;
    let mut depth = 1;
    while depth > 0 {
        let t = p.next()?;
        match &t.tok {
            Tok::Op(s) if s == "(" => depth += 1,
            Tok::Op(s) if s == ")" => depth -= 1,
            Tok::Eof => return Err(p.diag_tok(&t, "unclosed `(` in this command")),
            _ => {}
        }
    }
    p.expect_op(".", "after the command")?;
    Ok(())
}

/// Skips `if(Prover9). ... end_if.` or `if(Mace4). ... end_if.`, as the Prover9-Mace4 GUI saves
/// each program's options: options only, which Birkhoff reads and ignores like any command.
fn skip_if_block(p: &mut Parser) -> PResult<()> {
    skip_command(p)?;
    loop {
        let t = p.next()?;
        match &t.tok {
            Tok::Ident(w) if w == "end_if" => return p.expect_op(".", "after `end_if`").map(drop),
            Tok::Ident(w) if matches!(w.as_str(), "op" | "set" | "clear" | "assign" | "redeclare") => skip_command(p)?,
            Tok::Eof => return Err(p.diag_tok(&t, "missing `end_if.` for this `if(...)` block")),
            other => return Err(p.diag_tok(&t, format!("expected an option such as `assign(...)` or `end_if.` in an `if(...)` block, found {}", describe(other)))),
        }
    }
}

fn formulas_block(p: &mut Parser, goals: &mut Vec<Axiom>) -> PResult<()> {
    p.expect_op("(", "after `formulas`")?;
    let t = p.next()?;
    let list = match &t.tok {
        Tok::Ident(s) => s.clone(),
        other => {
            return Err(p.diag_tok(
                &t,
                format!(
                    "expected a list name such as `assumptions`, found {}",
                    describe(other)
                ),
            ))
        }
    };
    p.expect_op(")", "after the list name")?;
    p.expect_op(".", "after `formulas(...)`")?;
    match list.as_str() {
        "assumptions" | "sos" | "usable" => parse_ladr_list(p, true),
        "goals" => {
            let before = p.axioms.len();
            parse_ladr_list(p, true)?;
            goals.extend(p.axioms.drain(before..));
            if goals.len() > 1 {
                return Err(p.diag_tok(&t, "Birkhoff reads at most one goal (Mace4 would look for a model that falsifies it)"));
            }
            Ok(())
        }
        other => Err(p.diag_tok(
            &t,
            format!("`formulas({other})` is not a list Birkhoff reads (use assumptions or goals)"),
        )),
    }
}

/// Parses formulas, each ending with `.`, up to `end_of_list.` (when `delimited`) or the end of input.
pub(crate) fn parse_ladr_list(p: &mut Parser, delimited: bool) -> PResult<()> {
    loop {
        let t = p.peek()?;
        match &t.tok {
            Tok::Eof if delimited => return Err(p.diag_tok(&t, "missing `end_of_list.`")),
            Tok::Eof => return Ok(()),
            Tok::Ident(w) if w == "end_of_list" => {
                p.next()?;
                p.expect_op(".", "after `end_of_list`")?;
                return Ok(());
            }
            _ => {}
        }
        let index = p.axioms.len() + 1;
        let mut axiom = p.axiom_formula(format!("ax{index}"))?;
        if let Some(label) = attributes(p)? {
            axiom.name = label;
        }
        if p.axioms.iter().any(|a| a.name == axiom.name) {
            return Err(p.diag_tok(&t, format!("two formulas are labelled `{}`", axiom.name)));
        }
        axiom.origin = Some(p.origin(t.start));
        p.axioms.push(axiom);
        p.expect_op(".", "at the end of the formula")?;
    }
}

/// Reads `# label(name) # other(...)` after a formula and returns the label, if any.
fn attributes(p: &mut Parser) -> PResult<Option<String>> {
    let mut label = None;
    while p.eat_op("#") {
        let t: Token = p.next()?;
        let Tok::Ident(attr) = &t.tok else {
            return Err(p.diag_tok(
                &t,
                format!(
                    "expected an attribute such as `label(name)` after `#`, found {}",
                    describe(&t.tok)
                ),
            ));
        };
        p.expect_op("(", "after the attribute's name")?;
        let v = p.next()?;
        if attr == "label" {
            label = match &v.tok {
                Tok::Ident(s) | Tok::Str(s) | Tok::Number(s) => Some(s.clone()),
                other => {
                    return Err(
                        p.diag_tok(&v, format!("expected a label, found {}", describe(other)))
                    )
                }
            };
        }
        let mut depth = 1;
        if matches!(&v.tok, Tok::Op(s) if s == "(") {
            depth += 1;
        }
        while depth > 0 {
            let t = p.next()?;
            match &t.tok {
                Tok::Op(s) if s == "(" => depth += 1,
                Tok::Op(s) if s == ")" => depth -= 1,
                Tok::Eof => return Err(p.diag_tok(&t, "unclosed attribute")),
                _ => {}
            }
        }
    }
    Ok(label)
}
