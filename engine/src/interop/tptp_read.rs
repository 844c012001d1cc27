//! Reading TPTP problems: the `fof`, `tff` and `cnf` forms that algebra problems use.
//!
//! Roles `axiom`, `hypothesis`, `definition`, `assumption`, `lemma`, `theorem`, `corollary`,
//! `plain` and `negated_conjecture` give axioms; `conjecture` gives the goal; `type` (in `tff`)
//! declares types and symbols. Not read, each with a located error: `include` directives (the
//! included axioms must be pasted in), `thf`/`tcf`/`tpi`, arithmetic (`$int`, numbers), distinct
//! objects (`"a"`), type quantifiers, and the other roles. Symbols that `tff` does not declare and
//! every symbol of `fof` and `cnf` get the default type `$i`; a name used with two arities, or as
//! both a function and a predicate, is an error. Free variables (`cnf`) are universal.

use crate::error::{Diagnostic, Diagnostics, Error, Result};
use crate::signature::{
    Fixity, FuncDecl, FuncId, RelDecl, RelId, Signature, SortDecl, SortId, DEFAULT_SORT,
};
use crate::syntax::{Axiom, Formula, Origin, Term, VarDecl, VarId};
use std::collections::HashMap;

/// What a file holds: the signature, the axioms and the conjectures, in the order read.
pub struct Problem {
    /// Sorts (types) and symbols, with their TPTP names.
    pub sig: Signature,
    /// The formulas with roles that state facts.
    pub axioms: Vec<Axiom>,
    /// The formulas with role `conjecture`.
    pub conjectures: Vec<Axiom>,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A lower word or single-quoted atom (unquoted).
    Atom(String),
    /// An upper word: a variable.
    Var(String),
    /// `$word` or `$$word`.
    Dollar(String),
    /// A number (read only to say that arithmetic is not supported).
    Number(String),
    /// A double-quoted distinct object.
    Distinct(String),
    /// Punctuation and connectives.
    Op(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    start: usize,
    end: usize,
}

/// Longest first, so that greedy matching works.
const OPS: &[&str] = &[
    "<=>", "<~>", "=>", "<=", "!=", "~|", "~&", "!>", "?*", "(", ")", "[", "]", ",", ".", ":", "!",
    "?", "~", "&", "|", "=", "*", ">", "@", "+", "-", "{", "}", "^", "<",
];

/// How a name is used: its profile (argument sorts, and the result sort for functions).
#[derive(Clone, Debug)]
enum Use {
    Func(FuncId),
    Rel(RelId),
}

/// A TPTP type: a sort, or `$o` (the type of formulas).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Type {
    Sort(SortId),
    Bool,
}

struct Reader<'a> {
    file: &'a str,
    src: &'a str,
    /// The source's lines, indexed when the first formula is located.
    lines: std::cell::OnceCell<crate::error::Lines>,
    pos: usize,
    sig: Signature,
    /// TPTP name of each symbol.
    symbols: HashMap<String, Use>,
    /// TPTP name of each declared type (sort); `$i` is added when first used.
    types: HashMap<String, SortId>,
    /// The variables of the formula being read, and which are in scope (innermost last).
    vars: Vec<VarDecl>,
    scope: Vec<(String, VarId)>,
    free: HashMap<String, VarId>,
    depth: usize,
    /// Whether the signature is complete: a goal read apart declares no symbol.
    closed: bool,
}

type R<T> = std::result::Result<T, Diagnostic>;

/// Deeper nesting is reported rather than risking the stack.
const MAX_DEPTH: usize = 400;

impl<'a> Reader<'a> {
    fn diag(&self, t: &Token, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::at(
            self.file,
            self.src,
            t.start,
            self.src[t.start..t.end].chars().count(),
            msg,
        )
    }

    fn skip_trivia(&mut self) -> R<()> {
        loop {
            let rest = &self.src[self.pos..];
            let Some(c) = rest.chars().next() else {
                return Ok(());
            };
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else if c == '%' {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if let Some(comment) = rest.strip_prefix("/*") {
                match comment.find("*/") {
                    Some(i) => self.pos += i + 4,
                    None => {
                        return Err(Diagnostic::at(
                            self.file,
                            self.src,
                            self.pos,
                            2,
                            "this comment is never closed with `*/`",
                        ))
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn lex(&mut self) -> R<Token> {
        self.skip_trivia()?;
        let start = self.pos;
        let rest = &self.src[start..];
        let Some(c) = rest.chars().next() else {
            return Ok(Token {
                tok: Tok::Eof,
                start,
                end: start,
            });
        };
        let word_len = |s: &str| {
            s.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .unwrap_or(s.len())
        };
        let (tok, len) = if c.is_ascii_lowercase() {
            let n = word_len(rest);
            (Tok::Atom(rest[..n].to_string()), n)
        } else if c.is_ascii_uppercase() || c == '_' {
            let n = word_len(rest);
            (Tok::Var(rest[..n].to_string()), n)
        } else if c == '$' {
            let skip = if rest.starts_with("$$") { 2 } else { 1 };
            let n = skip + word_len(&rest[skip..]);
            (Tok::Dollar(rest[..n].to_string()), n)
        } else if c.is_ascii_digit() {
            let n = rest
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '.' || ch == '/'))
                .unwrap_or(rest.len());
            (Tok::Number(rest[..n].to_string()), n)
        } else if c == '\'' || c == '"' {
            let (text, n) = self.quoted(start, c)?;
            (
                if c == '\'' {
                    Tok::Atom(text)
                } else {
                    Tok::Distinct(text)
                },
                n,
            )
        } else if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
            (Tok::Op(op), op.len())
        } else {
            return Err(Diagnostic::at(
                self.file,
                self.src,
                start,
                1,
                format!("unexpected character `{c}` in a TPTP file"),
            ));
        };
        self.pos = start + len;
        Ok(Token {
            tok,
            start,
            end: start + len,
        })
    }

    /// A quoted atom or distinct object starting at `start`: its text (with `\\` and `\'`
    /// unescaped) and length in bytes.
    fn quoted(&self, start: usize, quote: char) -> R<(String, usize)> {
        let mut text = String::new();
        let mut chars = self.src[start + 1..].char_indices();
        while let Some((i, ch)) = chars.next() {
            match ch {
                '\\' => match chars.next() {
                    Some((_, e)) => text.push(e),
                    None => break,
                },
                c if c == quote => {
                    if text.is_empty() {
                        return Err(Diagnostic::at(
                            self.file,
                            self.src,
                            start,
                            2,
                            "an empty quoted name",
                        ));
                    }
                    return Ok((text, i + 2));
                }
                '\n' => break,
                c => text.push(c),
            }
        }
        Err(Diagnostic::at(
            self.file,
            self.src,
            start,
            1,
            format!("this {quote}...{quote} is not closed on its line"),
        ))
    }

    fn next(&mut self) -> R<Token> {
        self.lex()
    }

    fn peek(&mut self) -> R<Token> {
        let pos = self.pos;
        let t = self.lex();
        self.pos = pos;
        t
    }

    fn at(&mut self, op: &str) -> R<bool> {
        Ok(matches!(self.peek()?.tok, Tok::Op(o) if o == op))
    }

    fn eat(&mut self, op: &str) -> R<bool> {
        let yes = self.at(op)?;
        if yes {
            self.next()?;
        }
        Ok(yes)
    }

    fn expect(&mut self, op: &str, what: &str) -> R<Token> {
        let t = self.next()?;
        match t.tok {
            Tok::Op(o) if o == op => Ok(t),
            _ => Err(self.diag(
                &t,
                format!("expected `{op}` {what}, found {}", describe(&t.tok)),
            )),
        }
    }

    fn origin(&self, offset: usize) -> Origin {
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

    // ---- units ----

    /// Reads every annotated formula up to the end of the file.
    fn problem(&mut self) -> R<(Vec<Axiom>, Vec<Axiom>)> {
        let (mut axioms, mut conjectures) = (Vec::new(), Vec::new());
        loop {
            let t = self.next()?;
            let lang = match &t.tok {
                Tok::Eof => return Ok((axioms, conjectures)),
                Tok::Atom(w) if matches!(w.as_str(), "fof" | "tff" | "cnf") => w.clone(),
                Tok::Atom(w) if w == "include" => {
                    return Err(self.diag(&t, "`include` directives are not read: paste the included axioms into this file"));
                }
                Tok::Atom(w) if matches!(w.as_str(), "thf" | "tcf" | "tpi" | "tfx" | "txf") => {
                    return Err(self.diag(
                        &t,
                        format!("`{w}` formulas are not read; Birkhoff reads fof, tff and cnf"),
                    ));
                }
                other => {
                    return Err(self.diag(
                        &t,
                        format!(
                            "expected `fof(`, `tff(` or `cnf(` (an annotated formula), found {}",
                            describe(other)
                        ),
                    ))
                }
            };
            self.expect("(", &format!("after `{lang}`"))?;
            let name_tok = self.next()?;
            let name = match &name_tok.tok {
                Tok::Atom(s) | Tok::Var(s) | Tok::Number(s) => s.clone(),
                other => {
                    return Err(self.diag(
                        &name_tok,
                        format!("expected the formula's name, found {}", describe(other)),
                    ))
                }
            };
            self.expect(",", "after the formula's name")?;
            let role_tok = self.next()?;
            let Tok::Atom(role) = role_tok.tok.clone() else {
                return Err(self.diag(
                    &role_tok,
                    format!(
                        "expected a role such as `axiom` or `conjecture`, found {}",
                        describe(&role_tok.tok)
                    ),
                ));
            };
            self.expect(",", "after the role")?;
            let body_start = self.peek()?.start;
            match role.as_str() {
                "type" if lang == "tff" => self.type_declaration()?,
                "type" => return Err(self.diag(&role_tok, "type declarations belong in `tff` formulas")),
                "axiom" | "hypothesis" | "definition" | "assumption" | "lemma" | "theorem" | "corollary" | "plain" | "negated_conjecture" | "conjecture" => {
                    self.start_formula();
                    let formula = self.formula()?;
                    let axiom = Axiom { name, formula, vars: std::mem::take(&mut self.vars), origin: Some(self.origin(body_start)) };
                    if role == "conjecture" {
                        conjectures.push(axiom);
                    } else {
                        axioms.push(axiom);
                    }
                }
                other => return Err(self.diag(&role_tok, format!("role `{other}` is not read (Birkhoff reads axioms, conjectures and tff type declarations)"))),
            }
            self.skip_annotations()?;
            self.expect(")", "to close the annotated formula")?;
            self.expect(".", "after the annotated formula")?;
        }
    }

    /// Skips `, source, [info]` after a formula: balanced brackets up to the closing `)`.
    fn skip_annotations(&mut self) -> R<()> {
        if !self.eat(",")? {
            return Ok(());
        }
        let mut depth = 0usize;
        loop {
            let t = self.peek()?;
            match t.tok {
                Tok::Op("(" | "[") => depth += 1,
                Tok::Op(")" | "]") if depth == 0 => return Ok(()),
                Tok::Op(")" | "]") => depth -= 1,
                Tok::Eof => return Err(self.diag(&t, "the annotated formula is not closed")),
                _ => {}
            }
            self.next()?;
        }
    }

    // ---- types ----

    fn sort_named(&mut self, t: &Token) -> R<Type> {
        match &t.tok {
            Tok::Dollar(w) if w == "$i" => Ok(Type::Sort(self.default_sort())),
            Tok::Dollar(w) if w == "$o" => Ok(Type::Bool),
            Tok::Dollar(w) if matches!(w.as_str(), "$int" | "$rat" | "$real") => Err(self.diag(t, format!("`{w}` is TPTP arithmetic, which Birkhoff does not read"))),
            Tok::Atom(w) => self.types.get(w).map(|s| Type::Sort(*s)).ok_or_else(|| self.diag(t, format!("type `{w}` is not declared (declare it first: `tff({w}_type, type, {w}: $tType).`)"))),
            other => Err(self.diag(t, format!("expected a type, found {}", describe(other)))),
        }
    }

    fn default_sort(&mut self) -> SortId {
        if let Some(s) = self.types.get("$i") {
            return *s;
        }
        let id = SortId(self.sig.sorts.len() as u32);
        self.sig.sorts.push(SortDecl { name: "$i".into() });
        self.types.insert("$i".into(), id);
        id
    }

    /// `name: $tType`, `name: type`, `name: t1 > t`, `name: (t1 * t2) > t`, optionally bracketed.
    fn type_declaration(&mut self) -> R<()> {
        let brackets = self.eat("(")?;
        let name_tok = self.next()?;
        let Tok::Atom(name) = name_tok.tok.clone() else {
            return Err(self.diag(
                &name_tok,
                format!(
                    "expected the name being typed, found {}",
                    describe(&name_tok.tok)
                ),
            ));
        };
        self.expect(":", "after the name being typed")?;
        let first = self.next()?;
        if matches!(&first.tok, Tok::Dollar(w) if w == "$tType") {
            if self.types.contains_key(&name) {
                return Err(self.diag(&name_tok, format!("type `{name}` is declared twice")));
            }
            let id = SortId(self.sig.sorts.len() as u32);
            self.sig.sorts.push(SortDecl { name: name.clone() });
            self.types.insert(name, id);
        } else {
            let mut args = Vec::new();
            let result;
            if matches!(first.tok, Tok::Op("(")) {
                loop {
                    let t = self.next()?;
                    args.push((self.sort_named(&t)?, t));
                    if !self.eat("*")? {
                        break;
                    }
                }
                self.expect(")", "to close the argument types")?;
                self.expect(">", "after the argument types")?;
                let r = self.next()?;
                result = self.sort_named(&r)?;
            } else if matches!(first.tok, Tok::Op("!>")) {
                return Err(self.diag(&first, "polymorphic types (`!>`) are not read"));
            } else {
                let ty = self.sort_named(&first)?;
                if self.eat(">")? {
                    args.push((ty, first));
                    let r = self.next()?;
                    result = self.sort_named(&r)?;
                } else {
                    result = ty;
                }
            }
            let mut arg_sorts = Vec::new();
            for (ty, t) in args {
                match ty {
                    Type::Sort(s) => arg_sorts.push(s),
                    Type::Bool => return Err(self.diag(
                        &t,
                        "an argument of type `$o` is higher-order, which Birkhoff does not read",
                    )),
                }
            }
            if self.symbols.contains_key(&name) {
                return Err(self.diag(
                    &name_tok,
                    format!("symbol `{name}` is declared twice (or used before its declaration)"),
                ));
            }
            self.declare(&name, arg_sorts, result, &name_tok)?;
        }
        if brackets {
            self.expect(")", "to close the type declaration")?;
        }
        Ok(())
    }

    /// Forgets the variables of the formula before.
    fn start_formula(&mut self) {
        self.vars.clear();
        self.depth = 0;
        self.scope.clear();
        self.free.clear();
    }

    fn declare(&mut self, name: &str, args: Vec<SortId>, result: Type, at: &Token) -> R<Use> {
        if self.closed {
            return Err(self.diag(
                at,
                format!(
                    "`{name}` with {} argument(s) is not a symbol of the problem (TPTP variables start with an upper-case letter)",
                    args.len()
                ),
            ));
        }
        if args.len() > crate::signature::MAX_ARITY {
            return Err(self.diag(
                at,
                format!(
                    "`{name}` takes {} arguments; at most {} are allowed",
                    args.len(),
                    crate::signature::MAX_ARITY
                ),
            ));
        }
        let u = match result {
            Type::Sort(s) => {
                self.sig.funcs.push(FuncDecl {
                    name: name.to_string(),
                    args,
                    result: s,
                    fixity: Fixity::Prefix,
                });
                Use::Func(FuncId(self.sig.funcs.len() as u32 - 1))
            }
            Type::Bool => {
                self.sig.rels.push(RelDecl {
                    name: name.to_string(),
                    args,
                    fixity: Fixity::Prefix,
                });
                Use::Rel(RelId(self.sig.rels.len() as u32 - 1))
            }
        };
        self.symbols.insert(name.to_string(), u.clone());
        Ok(u)
    }

    // ---- formulas ----

    fn enter(&mut self, t: &Token) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.diag(t, format!("nested more than {MAX_DEPTH} levels deep")));
        }
        Ok(())
    }

    /// A formula: unit formulas joined by one non-associative connective, or by a chain of one
    /// associative connective (`&` or `|`); mixing them needs brackets, as TPTP requires.
    fn formula(&mut self) -> R<Formula> {
        let first = self.peek()?;
        let d0 = self.depth;
        self.enter(&first)?;
        let a = self.unit()?;
        let t = self.peek()?;
        let op = match t.tok {
            Tok::Op(op @ ("&" | "|" | "=>" | "<=" | "<=>" | "<~>" | "~|" | "~&")) => op,
            _ => {
                self.depth = d0;
                return Ok(a);
            }
        };
        self.next()?;
        let b = self.unit()?;
        let mut f = match op {
            "&" => Formula::And(Box::new(a), Box::new(b)),
            "|" => Formula::Or(Box::new(a), Box::new(b)),
            "=>" => Formula::Implies(Box::new(a), Box::new(b)),
            "<=" => Formula::Implies(Box::new(b), Box::new(a)),
            "<=>" => Formula::Iff(Box::new(a), Box::new(b)),
            "<~>" => Formula::not(Formula::Iff(Box::new(a), Box::new(b))),
            "~|" => Formula::not(Formula::Or(Box::new(a), Box::new(b))),
            _ => Formula::not(Formula::And(Box::new(a), Box::new(b))),
        };
        loop {
            let t = self.peek()?;
            match t.tok {
                Tok::Op(o) if o == op && (op == "&" || op == "|") => {
                    self.next()?;
                    self.enter(&t)?;
                    let b = self.unit()?;
                    f = if op == "&" {
                        Formula::And(Box::new(f), Box::new(b))
                    } else {
                        Formula::Or(Box::new(f), Box::new(b))
                    };
                }
                Tok::Op("&" | "|" | "=>" | "<=" | "<=>" | "<~>" | "~|" | "~&") => {
                    return Err(self.diag(
                        &t,
                        format!(
                            "add brackets: TPTP does not chain `{op}` with `{}`",
                            describe(&t.tok).trim_matches('`')
                        ),
                    ));
                }
                _ => {
                    self.depth = d0;
                    return Ok(f);
                }
            }
        }
    }

    fn unit(&mut self) -> R<Formula> {
        let t = self.peek()?;
        match t.tok {
            Tok::Op("~") => {
                self.next()?;
                let d0 = self.depth;
                self.enter(&t)?;
                let f = self.unit()?;
                self.depth = d0;
                Ok(Formula::not(f))
            }
            Tok::Op(q @ ("!" | "?")) => {
                self.next()?;
                self.quantified(q == "!")
            }
            Tok::Op("!>" | "?*") => Err(self.diag(&t, "type quantifiers are not read")),
            Tok::Op("(") => {
                self.next()?;
                let f = self.formula()?;
                self.expect(
                    ")",
                    &format!("to close the `(` at {}", self.origin(t.start).line_col()),
                )?;
                Ok(f)
            }
            _ => self.atomic(),
        }
    }

    fn quantified(&mut self, universal: bool) -> R<Formula> {
        self.expect("[", "after the quantifier")?;
        let mut ids = Vec::new();
        loop {
            let t = self.next()?;
            let Tok::Var(name) = t.tok.clone() else {
                return Err(self.diag(
                    &t,
                    format!(
                        "expected a variable (a name starting with a capital letter), found {}",
                        describe(&t.tok)
                    ),
                ));
            };
            let sort =
                if self.eat(":")? {
                    let ty = self.next()?;
                    match self.sort_named(&ty)? {
                        Type::Sort(s) => s,
                        Type::Bool => return Err(self.diag(
                            &ty,
                            "a variable of type `$o` is higher-order, which Birkhoff does not read",
                        )),
                    }
                } else {
                    self.default_sort()
                };
            let id = self.new_var(&name, sort);
            ids.push((name, id));
            if !self.eat(",")? {
                break;
            }
        }
        self.expect("]", "to close the variable list")?;
        self.expect(":", "after the variable list")?;
        let depth = self.scope.len();
        self.scope.extend(ids.iter().cloned());
        let body = self.unit();
        self.scope.truncate(depth);
        let vs = ids.into_iter().map(|(_, v)| v).collect();
        let body = Box::new(body?);
        Ok(if universal {
            Formula::Forall(vs, body)
        } else {
            Formula::Exists(vs, body)
        })
    }

    /// A new variable; names are unique within an axiom, so a name bound twice gets a suffix.
    fn new_var(&mut self, name: &str, sort: SortId) -> VarId {
        let mut unique = name.to_string();
        let mut i = 2;
        while self.vars.iter().any(|v| v.name == unique) {
            unique = format!("{name}_{i}");
            i += 1;
        }
        self.vars.push(VarDecl { name: unique, sort });
        VarId(self.vars.len() as u32 - 1)
    }

    fn atomic(&mut self) -> R<Formula> {
        let t = self.peek()?;
        match &t.tok {
            Tok::Dollar(w) if w == "$true" => {
                self.next()?;
                return Ok(Formula::True);
            }
            Tok::Dollar(w) if w == "$false" => {
                self.next()?;
                return Ok(Formula::False);
            }
            _ => {}
        }
        let lhs = self.term_or_atom()?;
        let t = self.peek()?;
        let negated = match t.tok {
            Tok::Op("=") => false,
            Tok::Op("!=") => true,
            _ => {
                return match lhs {
                    Parsed::Atom(name, args, at) => self.predicate(&name, args, &at),
                    Parsed::Term(_, _, at) => Err(self.diag(
                        &at,
                        "a term stands where a formula is expected (an `=` or `!=` is missing)",
                    )),
                };
            }
        };
        self.next()?;
        let rhs = self.term_or_atom()?;
        let (l, ls, lat) = self.as_term(lhs)?;
        let (r, rs, _) = self.as_term(rhs)?;
        if ls != rs {
            return Err(self.diag(
                &lat,
                format!(
                    "the two sides of `{}` have different types, {} and {}",
                    if negated { "!=" } else { "=" },
                    self.sig.sort_decl(ls).name,
                    self.sig.sort_decl(rs).name
                ),
            ));
        }
        let eq = Formula::Eq(l, r);
        Ok(if negated { Formula::not(eq) } else { eq })
    }

    /// A name with its arguments, not yet known to be a term or a predicate, or a variable.
    fn term_or_atom(&mut self) -> R<Parsed> {
        let t = self.next()?;
        match &t.tok {
            Tok::Var(name) => {
                let v = self.variable(name);
                Ok(Parsed::Term(Term::Var(v), self.vars[v.0 as usize].sort, t))
            }
            Tok::Atom(name) => {
                let name = name.clone();
                let mut args = Vec::new();
                if self.eat("(")? {
                    let d0 = self.depth;
                    self.enter(&t)?;
                    loop {
                        let a = self.term_or_atom()?;
                        args.push(self.as_term(a)?);
                        if !self.eat(",")? {
                            break;
                        }
                    }
                    self.expect(")", "to close the argument list")?;
                    self.depth = d0;
                }
                Ok(Parsed::Atom(name, args, t))
            }
            Tok::Number(n) => Err(self.diag(
                &t,
                format!("`{n}` is a number: TPTP arithmetic is not read"),
            )),
            Tok::Distinct(_) => Err(self.diag(&t, "distinct objects (\"...\") are not read")),
            Tok::Dollar(w) => Err(self.diag(
                &t,
                format!("`{w}` is not read here (only $true and $false are)"),
            )),
            other => Err(self.diag(&t, format!("expected a term, found {}", describe(other)))),
        }
    }

    /// The variable `name` in scope, or a free (universal) one.
    fn variable(&mut self, name: &str) -> VarId {
        if let Some((_, v)) = self.scope.iter().rev().find(|(n, _)| n == name) {
            return *v;
        }
        if let Some(v) = self.free.get(name) {
            return *v;
        }
        let s = self.default_sort();
        let v = self.new_var(name, s);
        self.free.insert(name.to_string(), v);
        v
    }

    fn as_term(&mut self, p: Parsed) -> R<(Term, SortId, Token)> {
        match p {
            Parsed::Term(t, s, at) => Ok((t, s, at)),
            Parsed::Atom(name, args, at) => {
                let f = match self.symbols.get(&name).cloned() {
                    Some(Use::Func(f)) => f,
                    Some(Use::Rel(_)) => {
                        return Err(self.diag(
                            &at,
                            format!("`{name}` is a predicate, so it cannot stand inside a term"),
                        ))
                    }
                    None => {
                        let s = self.default_sort();
                        let sorts = vec![s; args.len()];
                        match self.declare(&name, sorts, Type::Sort(s), &at)? {
                            Use::Func(f) => f,
                            Use::Rel(_) => unreachable!("declared as a function"),
                        }
                    }
                };
                let d = self.sig.func_decl(f).clone();
                self.check_args(&name, &d.args, &args, &at)?;
                Ok((
                    Term::App(f, args.into_iter().map(|a| a.0).collect()),
                    d.result,
                    at,
                ))
            }
        }
    }

    fn predicate(
        &mut self,
        name: &str,
        args: Vec<(Term, SortId, Token)>,
        at: &Token,
    ) -> R<Formula> {
        let r = match self.symbols.get(name).cloned() {
            Some(Use::Rel(r)) => r,
            Some(Use::Func(_)) => {
                return Err(self.diag(
                    at,
                    format!("`{name}` is a function, so it cannot stand as a formula"),
                ))
            }
            None => {
                let s = self.default_sort();
                match self.declare(name, vec![s; args.len()], Type::Bool, at)? {
                    Use::Rel(r) => r,
                    Use::Func(_) => unreachable!("declared as a predicate"),
                }
            }
        };
        let d = self.sig.rel_decl(r).clone();
        self.check_args(name, &d.args, &args, at)?;
        Ok(Formula::Rel(r, args.into_iter().map(|a| a.0).collect()))
    }

    fn check_args(
        &self,
        name: &str,
        want: &[SortId],
        args: &[(Term, SortId, Token)],
        at: &Token,
    ) -> R<()> {
        if want.len() != args.len() {
            return Err(self.diag(
                at,
                format!(
                    "`{name}` takes {} arguments here, not {} (a name has one arity)",
                    want.len(),
                    args.len()
                ),
            ));
        }
        for (w, (_, s, t)) in want.iter().zip(args) {
            if w != s {
                return Err(self.diag(
                    t,
                    format!(
                        "`{name}` expects an argument of type {} here, but this term has type {}",
                        self.sig.sort_decl(*w).name,
                        self.sig.sort_decl(*s).name
                    ),
                ));
            }
        }
        Ok(())
    }
}

enum Parsed {
    Term(Term, SortId, Token),
    Atom(String, Vec<(Term, SortId, Token)>, Token),
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Atom(s) | Tok::Var(s) | Tok::Dollar(s) | Tok::Number(s) => format!("`{s}`"),
        Tok::Distinct(s) => format!("\"{s}\""),
        Tok::Op(s) => format!("`{s}`"),
        Tok::Eof => "the end of the file".into(),
    }
}

impl Origin {
    fn line_col(&self) -> String {
        format!("line {}, column {}", self.line, self.column)
    }
}

/// Reads `goal`, a formula given apart from the TPTP problem `src` (`birkhoff prove FILE GOAL`),
/// as the body of one of its annotated formulas: TPTP's syntax (`![X]: ...`; a free variable is
/// universal, as in `cnf`), over the symbols the problem uses, with their places in [`read`]'s
/// signature. A symbol the problem does not use is an error, as any other located at `name`.
pub fn read_goal(src: &str, file: &str, goal: &str, name: &str) -> Result<Axiom> {
    let mut r = reader(src, file);
    r.problem()
        .map_err(|d| Error::Source(Diagnostics(vec![d])))?;
    (r.file, r.src, r.pos, r.lines) = (name, goal, 0, Default::default());
    r.closed = true;
    r.start_formula();
    let parsed = r.formula().and_then(|formula| {
        let t = r.next()?;
        match t.tok {
            Tok::Eof => Ok(formula),
            _ => Err(r.diag(
                &t,
                format!(
                    "expected the end of the formula, found {}",
                    describe(&t.tok)
                ),
            )),
        }
    });
    let formula = parsed.map_err(|d| Error::Source(Diagnostics(vec![d])))?;
    Ok(Axiom {
        name: name.to_string(),
        formula,
        vars: std::mem::take(&mut r.vars),
        origin: None,
    })
}

/// Reads a TPTP problem. Its sorts keep their TPTP names (`$i` for the default type); symbols
/// keep theirs. Errors are located at `file:line:column`.
pub fn read(src: &str, file: &str) -> Result<Problem> {
    let mut r = reader(src, file);
    let (axioms, conjectures) = r
        .problem()
        .map_err(|d| Error::Source(Diagnostics(vec![d])))?;
    if r.sig.sorts.is_empty() {
        r.sig.sorts.push(SortDecl {
            name: DEFAULT_SORT.into(),
        });
    }
    Ok(Problem {
        sig: r.sig,
        axioms,
        conjectures,
    })
}

/// A reader at the start of `src`.
fn reader<'a>(src: &'a str, file: &'a str) -> Reader<'a> {
    Reader {
        file,
        src,
        lines: Default::default(),
        pos: 0,
        sig: Signature::default(),
        symbols: HashMap::new(),
        types: HashMap::new(),
        vars: Vec::new(),
        scope: Vec::new(),
        free: HashMap::new(),
        depth: 0,
        closed: false,
    }
}
