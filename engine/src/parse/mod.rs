//! Parsing theory files (`.bk`), LADR formula lists and Mace4 input files into [`Theory`] values.
//!
//! One parser serves all three inputs; a `Mode` says how identifiers are resolved. Errors do not
//! stop the parse: each item that fails is reported and skipped, so that `birkhoff check` lists
//! every problem in a file at once.

mod expr;
mod ladr;
mod sorts;

pub(crate) use expr::looks_like_variable;
pub use ladr::{parse_ladr_goal, parse_ladr_problem, theory_from_ladr_row, LadrSymbol};

use crate::error::{Diagnostic, Diagnostics, Error, Result};
use crate::lexer::{LexError, Lexer, Tok, Token};
use crate::signature::{
    Assoc, Fixity, FuncDecl, RelDecl, Signature, SortDecl, SortId, DEFAULT_SORT, MAX_ARITY,
    MAX_SORTS,
};
use crate::syntax::{Axiom, Origin};
use crate::theory::Theory;
use std::collections::BTreeMap;
use std::sync::Arc;

/// How identifiers are resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode {
    /// LADR convention: identifiers starting with `u`..`z` are variables, all others symbols.
    pub ladr_vars: bool,
    /// Undeclared symbols are declared on first use, with the arity of that use (Mace4 files).
    pub infer_symbols: bool,
}

impl Mode {
    pub const NATIVE: Mode = Mode {
        ladr_vars: false,
        infer_symbols: false,
    };
}

/// Words that start an item; an error inside an item skips to the next of these.
pub(crate) const ITEM_KEYWORDS: &[&str] = &[
    "theory", "doc", "meta", "sort", "sorts", "func", "const", "rel", "axiom",
];

/// Words that can never be symbol names.
pub(crate) const RESERVED: &[&str] = &[
    "all", "exists", "true", "false", "$T", "$F", "infix", "prefix",
];

pub(crate) type PResult<T> = std::result::Result<T, Diagnostic>;

/// The state shared by item, formula and LADR parsing.
pub(crate) struct Parser<'a> {
    pub file: &'a str,
    pub src: &'a str,
    pub lex: Lexer<'a>,
    pub mode: Mode,
    pub sig: Signature,
    /// Symbolic names declared so far, for greedy lexing.
    pub ops: Vec<String>,
    pub axioms: Vec<Axiom>,
    pub errors: Vec<Diagnostic>,
    /// Where the last token read starts, so that error recovery can step back onto an item
    /// keyword that a failing item read as its offending token.
    last_start: usize,
    /// The variables of the axiom being parsed.
    pub(crate) scope: expr::Scope,
    /// Symbols whose declaration had an error: a later use of one points back at that error
    /// instead of calling the symbol undeclared.
    failed_declarations: Vec<String>,
    /// The source's lines, indexed when the first axiom is located.
    lines: std::cell::OnceCell<crate::error::Lines>,
}

impl<'a> Parser<'a> {
    pub fn new(file: &'a str, src: &'a str, mode: Mode) -> Self {
        Parser {
            file,
            src,
            lex: Lexer::new(src),
            mode,
            sig: Signature::default(),
            ops: Vec::new(),
            axioms: Vec::new(),
            errors: Vec::new(),
            last_start: 0,
            scope: Default::default(),
            failed_declarations: Vec::new(),
            lines: Default::default(),
        }
    }

    /// Runs the rest of `name`'s declaration, remembering the name if it fails.
    fn declaring(
        &mut self,
        name: &str,
        rest: impl FnOnce(&mut Self) -> PResult<()>,
    ) -> PResult<()> {
        let result = rest(self);
        if result.is_err() {
            self.failed_declarations.push(name.to_string());
        }
        result
    }

    /// Whether `name`'s declaration failed (its error is already reported where it is declared).
    pub(crate) fn declaration_failed(&self, name: &str) -> bool {
        self.failed_declarations.iter().any(|n| n == name)
    }

    /// The error for a use of a symbol whose declaration failed, instead of "undeclared".
    pub(crate) fn use_of_failed_declaration(&self, t: &Token, name: &str) -> Diagnostic {
        self.diag_tok(
            t,
            format!("`{name}` is used here, but its declaration has an error (reported above)"),
        )
    }

    pub fn diag(&self, offset: usize, width: usize, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::at(self.file, self.src, offset, width, msg)
    }

    pub fn diag_tok(&self, t: &Token, msg: impl Into<String>) -> Diagnostic {
        self.diag(t.start, t.width(self.src), msg)
    }

    fn lex_err(&self, (offset, msg): LexError) -> Diagnostic {
        self.diag(offset, 1, msg)
    }

    /// The next token, consumed.
    pub fn next(&mut self) -> PResult<Token> {
        let ops: Vec<&str> = self.ops.iter().map(String::as_str).collect();
        let t = self.lex.next(&ops).map_err(|e| self.lex_err(e))?;
        self.last_start = t.start;
        Ok(t)
    }

    /// The next token, not consumed.
    pub fn peek(&mut self) -> PResult<Token> {
        let pos = self.lex.pos();
        let t = self.next();
        self.lex.seek(pos);
        t
    }

    /// The token after the next one, not consumed.
    pub fn peek2(&mut self) -> PResult<Token> {
        let pos = self.lex.pos();
        let t = self.next().and_then(|_| self.next());
        self.lex.seek(pos);
        t
    }

    pub fn at_op(&mut self, op: &str) -> bool {
        matches!(self.peek(), Ok(Token { tok: Tok::Op(ref s), .. }) if s == op)
    }

    pub fn eat_op(&mut self, op: &str) -> bool {
        let yes = self.at_op(op);
        if yes {
            let _ = self.next();
        }
        yes
    }

    pub fn expect_op(&mut self, op: &str, what: &str) -> PResult<Token> {
        let t = self.next()?;
        match &t.tok {
            Tok::Op(s) if s == op => Ok(t),
            _ => Err(self.diag_tok(
                &t,
                format!("expected `{op}` {what}, found {}", describe(&t.tok)),
            )),
        }
    }

    pub fn origin(&self, offset: usize) -> Origin {
        let (line, column) = self
            .lines
            .get_or_init(|| crate::error::Lines::new(self.src))
            .locate(self.src, offset);
        Origin {
            file: self.file.to_string(),
            line,
            column,
        }
    }

    /// Skips to the next item keyword at the start of a token (error recovery). The item that
    /// failed began at `item_start`; if its offending token was the keyword of the next item
    /// (`axiom a: (x` followed by `axiom b: ...`), parsing resumes at that keyword.
    fn recover(&mut self, item_start: usize) {
        if self.last_start > item_start {
            let pos = self.lex.pos();
            self.lex.seek(self.last_start);
            match self.next() {
                Ok(Token {
                    tok: Tok::Ident(ref s),
                    ..
                }) if ITEM_KEYWORDS.contains(&s.as_str()) => {
                    let start = self.last_start;
                    self.lex.seek(start);
                    return;
                }
                _ => self.lex.seek(pos),
            }
        }
        loop {
            let pos = self.lex.pos();
            match self.next() {
                Ok(Token { tok: Tok::Eof, .. }) => return,
                Ok(Token {
                    tok: Tok::Ident(ref s),
                    ..
                }) if ITEM_KEYWORDS.contains(&s.as_str()) => {
                    self.lex.seek(pos);
                    return;
                }
                Ok(_) => {}
                // Skip the offending character and keep going.
                Err(_) => self
                    .lex
                    .seek(pos + self.src[pos..].chars().next().map_or(1, char::len_utf8)),
            }
        }
    }

    /// The single sort of a single-sorted theory, creating the default sort on first use.
    pub fn single_sort(&mut self, at: &Token) -> PResult<SortId> {
        match self.sig.sorts.len() {
            0 => {
                self.sig.sorts.push(SortDecl { name: DEFAULT_SORT.into() });
                Ok(SortId(0))
            }
            1 => Ok(SortId(0)),
            _ => Err(self.diag_tok(at, "this theory has several sorts: give a sort profile such as `A B -> C` instead of an arity")),
        }
    }

    pub fn declare_func(&mut self, name: &str, args: Vec<SortId>, result: SortId, fixity: Fixity) {
        if crate::signature::is_symbolic(name) && !self.ops.iter().any(|o| o == name) {
            self.ops.push(name.to_string());
        }
        self.sig.funcs.push(FuncDecl {
            name: name.to_string(),
            args,
            result,
            fixity,
        });
    }

    pub fn declare_rel(&mut self, name: &str, args: Vec<SortId>, fixity: Fixity) {
        if crate::signature::is_symbolic(name) && !self.ops.iter().any(|o| o == name) {
            self.ops.push(name.to_string());
        }
        self.sig.rels.push(RelDecl {
            name: name.to_string(),
            args,
            fixity,
        });
    }
}

/// A short description of a token for error messages.
pub(crate) fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Number(s) => format!("`{s}`"),
        Tok::Str(_) => "a string".into(),
        Tok::Op(s) => format!("`{s}`"),
        Tok::Eof => "the end of the file".into(),
    }
}

/// Parses a theory file in Birkhoff's own format.
pub fn parse_theory(src: &str, file: &str) -> Result<Theory> {
    let mut p = Parser::new(file, src, Mode::NATIVE);
    let mut name: Option<String> = None;
    let mut doc = String::new();
    let mut meta = BTreeMap::new();
    loop {
        let t = match p.next() {
            Ok(t) => t,
            Err(d) => {
                p.errors.push(d);
                let here = p.lex.pos();
                p.recover(here);
                continue;
            }
        };
        let result = match &t.tok {
            Tok::Eof => break,
            Tok::Ident(kw) => match kw.as_str() {
                "theory" => item_name(&mut p).map(|n| name = Some(n)),
                "doc" => item_string(&mut p, "after `doc`").map(|s| doc = s),
                "meta" => item_meta(&mut p).map(|(k, v)| {
                    meta.insert(k, v);
                }),
                "sort" | "sorts" => item_sorts(&mut p, &t),
                "func" => item_func(&mut p, false),
                "const" => item_func(&mut p, true),
                "rel" => item_rel(&mut p),
                "axiom" => item_axiom(&mut p, &t),
                _ => Err(p.diag_tok(&t, format!("expected an item (`theory`, `doc`, `meta`, `sort`, `func`, `const`, `rel` or `axiom`), found `{kw}`"))),
            },
            other => Err(p.diag_tok(&t, format!("expected an item (`theory`, `func`, `axiom`, ...), found {}", describe(other)))),
        };
        match result {
            Ok(()) => {
                p.eat_op(".");
            }
            Err(d) => {
                p.errors.push(d);
                p.recover(t.start);
            }
        }
    }
    if name.is_none() {
        p.errors
            .insert(0, p.diag(0, 1, "missing `theory NAME` item"));
    }
    if !p.errors.is_empty() {
        p.errors.sort_by_key(|d| (d.line, d.column));
        return Err(Error::Source(Diagnostics(p.errors)));
    }
    if p.sig.sorts.is_empty() {
        p.sig.sorts.push(SortDecl {
            name: DEFAULT_SORT.into(),
        });
    }
    // The declarations were checked one by one; this is the check every path shares.
    p.sig
        .check_well_formed()
        .map_err(|msg| Error::Source(Diagnostics(vec![p.diag(0, 1, msg)])))?;
    Ok(Theory {
        name: name.unwrap_or_default(),
        doc,
        meta,
        sig: Arc::new(p.sig),
        axioms: p.axioms.into_iter().map(Arc::new).collect(),
    })
}

fn item_name(p: &mut Parser) -> PResult<String> {
    let t = p.next()?;
    match &t.tok {
        Tok::Ident(s) | Tok::Str(s) => Ok(s.clone()),
        other => Err(p.diag_tok(
            &t,
            format!("expected the theory's name, found {}", describe(other)),
        )),
    }
}

fn item_string(p: &mut Parser, what: &str) -> PResult<String> {
    let t = p.next()?;
    match &t.tok {
        Tok::Str(s) => Ok(s.clone()),
        other => Err(p.diag_tok(
            &t,
            format!(
                "expected a string in double quotes {what}, found {}",
                describe(other)
            ),
        )),
    }
}

fn item_meta(p: &mut Parser) -> PResult<(String, String)> {
    let t = p.next()?;
    let Tok::Ident(key) = t.tok else {
        return Err(p.diag_tok(
            &t,
            format!(
                "expected a key after `meta` (such as `reference`), found {}",
                describe(&t.tok)
            ),
        ));
    };
    let value = item_string(p, &format!("after `meta {key}`"))?;
    Ok((key, value))
}

fn item_sorts(p: &mut Parser, kw: &Token) -> PResult<()> {
    if !p.sig.funcs.is_empty() || !p.sig.rels.is_empty() || !p.axioms.is_empty() {
        return Err(p.diag_tok(kw, "declare sorts before any function, relation or axiom"));
    }
    loop {
        let t = p.next()?;
        let Tok::Ident(name) = &t.tok else {
            return Err(p.diag_tok(
                &t,
                format!("expected a sort name, found {}", describe(&t.tok)),
            ));
        };
        if p.sig.sort(name).is_some() {
            return Err(p.diag_tok(&t, format!("sort `{name}` is declared twice")));
        }
        if p.sig.sorts.len() == MAX_SORTS {
            return Err(p.diag_tok(&t, format!("too many sorts (at most {MAX_SORTS})")));
        }
        p.sig.sorts.push(SortDecl { name: name.clone() });
        if !p.eat_op(",") {
            return Ok(());
        }
    }
}

/// Reads the name being declared and checks that it is free.
fn declared_name(p: &mut Parser) -> PResult<(String, Token)> {
    let t = p
        .lex
        .next_declared_name()
        .map_err(|(o, m)| p.diag(o, 1, m))?;
    let name = match &t.tok {
        Tok::Ident(s) | Tok::Op(s) | Tok::Number(s) => s.clone(),
        other => {
            return Err(p.diag_tok(
                &t,
                format!("expected a symbol name, found {}", describe(other)),
            ))
        }
    };
    if matches!(name.as_str(), "(" | ")" | "," | ":" | ".")
        || crate::lexer::BUILTIN_OPS.contains(&name.as_str()) && name != "-"
    {
        return Err(p.diag_tok(
            &t,
            format!("`{name}` is built into the language and cannot be declared"),
        ));
    }
    if RESERVED.contains(&name.as_str()) || ITEM_KEYWORDS.contains(&name.as_str()) {
        return Err(p.diag_tok(
            &t,
            format!("`{name}` is a keyword and cannot be a symbol name"),
        ));
    }
    if p.sig.has_symbol(&name) {
        return Err(p.diag_tok(&t, format!("symbol `{name}` is declared twice")));
    }
    // The default sort is implicit, so its name stays free for a symbol (a Mace4 constant `U`).
    if p.sig.sort(&name).is_some() && !(p.sig.is_single_sorted() && name == DEFAULT_SORT) {
        return Err(p.diag_tok(&t, format!("`{name}` is already the name of a sort")));
    }
    Ok((name, t))
}

fn sort_name(p: &mut Parser, t: &Token) -> PResult<SortId> {
    match &t.tok {
        Tok::Ident(s) => p
            .sig
            .sort(s)
            .ok_or_else(|| p.diag_tok(t, format!("undeclared sort `{s}`"))),
        other => Err(p.diag_tok(
            t,
            format!("expected a sort name, found {}", describe(other)),
        )),
    }
}

/// `: 2`, `: A B -> C`, `: -> C`, `: C` (the last two only for functions).
fn profile(p: &mut Parser, for_func: bool) -> PResult<(Vec<SortId>, Option<SortId>)> {
    p.expect_op(
        ":",
        "and a profile (an arity such as `2`, or sorts such as `A B -> C`)",
    )?;
    let t = p.peek()?;
    if let Tok::Number(n) = &t.tok {
        p.next()?;
        let arity: usize = n
            .parse()
            .map_err(|_| p.diag_tok(&t, "arity is too large"))?;
        if arity > MAX_ARITY {
            return Err(p.diag_tok(&t, format!("arity is too large (at most {MAX_ARITY})")));
        }
        if arity == 0 && !for_func {
            // A propositional constant needs no sort, so `rel P : 0` is fine with several sorts too.
            return Ok((vec![], None));
        }
        let s = p.single_sort(&t)?;
        return Ok((vec![s; arity], for_func.then_some(s)));
    }
    let mut args = Vec::new();
    while let Tok::Ident(s) = &p.peek()?.tok {
        if matches!(s.as_str(), "infix" | "prefix") || ITEM_KEYWORDS.contains(&s.as_str()) {
            break;
        }
        let t = p.next()?;
        if args.len() == MAX_ARITY {
            return Err(p.diag_tok(&t, format!("too many argument sorts (at most {MAX_ARITY})")));
        }
        args.push(sort_name(p, &t)?);
    }
    if p.at_op("->") {
        let arrow = p.next()?;
        if !for_func {
            return Err(p.diag_tok(&arrow, "a relation has no result sort: write `rel R : A B`"));
        }
        let t = p.next()?;
        let result = sort_name(p, &t)?;
        return Ok((args, Some(result)));
    }
    if for_func {
        // `const c : A` or `func c : A`: a constant of sort A.
        return match args.as_slice() {
            [one] => Ok((vec![], Some(*one))),
            _ => Err(p.diag_tok(
                &t,
                "expected a profile such as `A B -> C` (or an arity such as `2`)",
            )),
        };
    }
    if args.is_empty() {
        return Err(p.diag_tok(
            &t,
            "expected the relation's argument sorts (or an arity such as `2`)",
        ));
    }
    Ok((args, None))
}

/// `infix [left|right|none] [PREC]` or `prefix`, for a symbol of the given arity.
fn fixity(p: &mut Parser, name: &str, arity: usize) -> PResult<Fixity> {
    let t = p.peek()?;
    let word = match &t.tok {
        Tok::Ident(w) if w == "infix" || w == "prefix" => w.clone(),
        _ => {
            return Ok(if arity == 2 {
                crate::signature::default_binary_fixity(name)
            } else {
                Fixity::Prefix
            })
        }
    };
    p.next()?;
    if arity != 2 {
        return Err(p.diag_tok(
            &t,
            format!("only binary symbols can be `{word}`; `{name}` takes {arity} arguments"),
        ));
    }
    if word == "prefix" {
        return Ok(Fixity::Prefix);
    }
    let mut assoc = Assoc::Left;
    if let Tok::Ident(a) = &p.peek()?.tok {
        let found = match a.as_str() {
            "left" => Some(Assoc::Left),
            "right" => Some(Assoc::Right),
            "none" => Some(Assoc::None),
            _ => None,
        };
        if let Some(found) = found {
            p.next()?;
            assoc = found;
        }
    }
    let mut prec = crate::signature::default_precedence(name);
    let pt = p.peek()?;
    if let Tok::Number(n) = &pt.tok {
        p.next()?;
        prec = n
            .parse()
            .ok()
            .filter(|v| (1..=250).contains(v))
            .ok_or_else(|| p.diag_tok(&pt, "precedence must be a number from 1 to 250"))?;
    }
    Ok(Fixity::Infix { prec, assoc })
}

fn item_func(p: &mut Parser, constant: bool) -> PResult<()> {
    let (name, at) = declared_name(p)?;
    p.declaring(&name, |p| {
        let (args, result) = if constant && !p.at_op(":") {
            (vec![], p.single_sort(&at)?)
        } else {
            let (args, result) = profile(p, true)?;
            (args, result.expect("function profiles have a result"))
        };
        if constant && !args.is_empty() {
            return Err(p.diag_tok(
                &at,
                format!("`const {name}` takes no arguments; declare it with `func`"),
            ));
        }
        let fix = fixity(p, &name, args.len())?;
        p.declare_func(&name, args, result, fix);
        Ok(())
    })
}

fn item_rel(p: &mut Parser) -> PResult<()> {
    let (name, _) = declared_name(p)?;
    p.declaring(&name, |p| {
        let (args, _) = profile(p, false)?;
        let fix = fixity(p, &name, args.len())?;
        p.declare_rel(&name, args, fix);
        Ok(())
    })
}

fn item_axiom(p: &mut Parser, kw: &Token) -> PResult<()> {
    let t = p.peek()?;
    let name = match &t.tok {
        Tok::Ident(n) if !matches!(p.peek2()?.tok, Tok::Op(ref c) if c != ":") => {
            p.next()?;
            p.expect_op(":", "after the axiom's name")?;
            n.clone()
        }
        Tok::Op(c) if c == ":" => {
            p.next()?;
            format!("ax{}", p.axioms.len() + 1)
        }
        _ => return Err(p.diag_tok(&t, "expected `NAME:` or `:` after `axiom`")),
    };
    if p.axioms.iter().any(|a| a.name == name) {
        return Err(p.diag_tok(&t, format!("axiom `{name}` is named twice")));
    }
    if p.sig.sorts.is_empty() {
        p.sig.sorts.push(SortDecl {
            name: DEFAULT_SORT.into(),
        });
    }
    let mut axiom = p.axiom_formula(name)?;
    axiom.origin = Some(p.origin(kw.start));
    p.axioms.push(axiom);
    Ok(())
}

/// Parses one formula over an existing signature, as an axiom called `name` (its free variables
/// are universally quantified). Every symbol must be declared in `sig`; the whole text must be one
/// formula. Used for goals: `birkhoff prove group "inv(inv(x)) = x"`.
///
/// ```
/// let g = birkhoff_engine::seeds::load("group").unwrap();
/// let goal = birkhoff_engine::parse::parse_formula(&g.sig, "inv(inv(x)) = x", "goal").unwrap();
/// assert!(goal.formula.is_equation());
/// assert!(birkhoff_engine::parse::parse_formula(&g.sig, "f(x) = x", "goal").is_err());
/// ```
pub fn parse_formula(sig: &Signature, src: &str, name: &str) -> Result<Axiom> {
    let mut p = Parser::new(name, src, Mode::NATIVE);
    p.sig = sig.clone();
    let symbolic = sig
        .funcs
        .iter()
        .map(|f| &f.name)
        .chain(sig.rels.iter().map(|r| &r.name));
    p.ops = symbolic
        .filter(|n| crate::signature::is_symbolic(n))
        .cloned()
        .collect();
    p.whole_formula(name, None)
}

impl Parser<'_> {
    /// The source as one formula called `name` and nothing after it but `terminator`, if given
    /// and present (LADR ends a formula with a period): how a goal given apart is read.
    pub(crate) fn whole_formula(&mut self, name: &str, terminator: Option<&str>) -> Result<Axiom> {
        let result = self.axiom_formula(name.to_string()).and_then(|axiom| {
            if let Some(op) = terminator {
                self.eat_op(op);
            }
            let t = self.next()?;
            match t.tok {
                Tok::Eof => Ok(axiom),
                ref other => Err(self.diag_tok(
                    &t,
                    format!("expected the end of the formula, found {}", describe(other)),
                )),
            }
        });
        result.map_err(|d| Error::Source(Diagnostics(vec![d])))
    }
}
