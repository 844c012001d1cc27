//! Terms and formulas, with name resolution and sort inference for the variables of one axiom.

use super::sorts::{SortRef, SortUnifier};
use super::{describe, PResult, Parser};
use crate::lexer::{Tok, Token};
use crate::signature::{Assoc, Fixity, FuncId, RelId, SortId};
use crate::syntax::{Axiom, Formula, Term, VarDecl, VarId};
use std::collections::HashMap;

/// Deeper nesting than this is reported instead of risking the stack. Every bracket, quantifier,
/// negation and argument list counts one level, and so does every operator of a chain such as
/// `a & b & c` or `x * y * z`, so that no syntax tree the parser builds is deeper than about twice this.
const MAX_DEPTH: usize = 200;

/// LADR's postfix operator, `x'` (a unary function; the theory calls it `prime`).
pub(crate) const POSTFIX_PRIME: &str = "'";

/// LADR's built-in infix operators, all of one precedence and without associativity.
pub(crate) const LADR_INFIX: &[&str] = &["*", "+", "^", "v", "/", "\\", "@"];

#[derive(Clone, Debug)]
struct VarInfo {
    name: String,
    class: usize,
    first: usize,
}

/// Variables of the axiom being parsed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    vars: Vec<VarInfo>,
    free: HashMap<String, VarId>,
    bound: Vec<(String, VarId)>,
    sorts: SortUnifier,
    depth: usize,
}

/// A term with its sort and source span.
struct Typed {
    term: Term,
    sort: SortRef,
    start: usize,
    end: usize,
}

struct Snapshot {
    pos: usize,
    scope: Scope,
    sig: crate::signature::Signature,
    ops: usize,
}

/// Whether an undeclared name may be taken for a variable in Birkhoff's own format: one letter,
/// optionally followed by digits, primes or an `_` suffix (`x`, `y1`, `z'`, `a_2`).
pub(crate) fn looks_like_variable(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let rest = chars.as_str();
    first.is_alphabetic()
        && (rest.is_empty()
            || rest.starts_with(|c: char| c.is_ascii_digit() || c == '\'' || c == '_'))
}

fn tok_name(t: &Tok) -> Option<&str> {
    match t {
        Tok::Ident(s) | Tok::Op(s) | Tok::Number(s) => Some(s),
        _ => None,
    }
}

impl Parser<'_> {
    /// Parses one formula as an axiom called `name`, inferring the sorts of its variables.
    pub(crate) fn axiom_formula(&mut self, name: String) -> PResult<Axiom> {
        self.scope = Scope::default();
        let formula = self.formula()?;
        let mut vars = Vec::with_capacity(self.scope.vars.len());
        for v in self.scope.vars.clone() {
            let sort = self
                .scope
                .sorts
                .resolve(SortRef::Unknown(v.class))
                .or(self.sig.is_single_sorted().then_some(SortId(0)));
            let Some(sort) = sort else {
                return Err(self.diag(v.first, v.name.chars().count(), format!("cannot infer the sort of variable `{}`: bind it with a sort, as in `all {}:SORT. ...`", v.name, v.name)));
            };
            vars.push(VarDecl { name: v.name, sort });
        }
        Ok(Axiom {
            name,
            formula,
            vars,
            origin: None,
        })
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            pos: self.lex.pos(),
            scope: self.scope.clone(),
            sig: self.sig.clone(),
            ops: self.ops.len(),
        }
    }

    fn restore(&mut self, s: Snapshot) {
        self.lex.seek(s.pos);
        self.scope = s.scope;
        self.sig = s.sig;
        self.ops.truncate(s.ops);
    }

    fn enter(&mut self, at: &Token) -> PResult<()> {
        self.scope.depth += 1;
        if self.scope.depth > MAX_DEPTH {
            return Err(self.diag_tok(at, format!("nested more than {MAX_DEPTH} levels deep (each bracket, quantifier, negation and chained operator adds a level)")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.scope.depth -= 1;
    }

    fn is_connective(&self, t: &Tok, words: &[&str]) -> bool {
        matches!(tok_name(t), Some(s) if words.contains(&s) && !self.sig.has_symbol(s))
    }

    /// A formula at the loosest level: `F <-> G`.
    pub(crate) fn formula(&mut self) -> PResult<Formula> {
        let t = self.peek()?;
        self.enter(&t)?;
        let f = self.iff();
        self.leave();
        f
    }

    fn iff(&mut self) -> PResult<Formula> {
        let a = self.implication()?;
        let t = self.peek()?;
        if !self.is_connective(&t.tok, &["<->", "↔"]) {
            return Ok(a);
        }
        self.next()?;
        let b = self.implication()?;
        let t2 = self.peek()?;
        if self.is_connective(&t2.tok, &["<->", "↔"]) {
            return Err(self.diag_tok(&t2, "`A <-> B <-> C` is ambiguous: add brackets"));
        }
        Ok(Formula::Iff(Box::new(a), Box::new(b)))
    }

    fn implication(&mut self) -> PResult<Formula> {
        let a = self.disjunction()?;
        let t = self.peek()?;
        if !self.is_connective(&t.tok, &["->", "→"]) {
            return Ok(a);
        }
        self.next()?;
        self.enter(&t)?;
        let b = self.implication();
        self.leave();
        Ok(Formula::Implies(Box::new(a), Box::new(b?)))
    }

    fn disjunction(&mut self) -> PResult<Formula> {
        let depth = self.scope.depth;
        let mut a = self.conjunction()?;
        loop {
            let t = self.peek()?;
            if !self.is_connective(&t.tok, &["|", "∨"]) {
                self.scope.depth = depth;
                return Ok(a);
            }
            self.next()?;
            // Each link of the chain nests the tree one level deeper.
            self.enter(&t)?;
            let b = self.conjunction()?;
            a = Formula::Or(Box::new(a), Box::new(b));
        }
    }

    fn conjunction(&mut self) -> PResult<Formula> {
        let depth = self.scope.depth;
        let mut a = self.unary()?;
        loop {
            let t = self.peek()?;
            if !self.is_connective(&t.tok, &["&", "∧"]) {
                self.scope.depth = depth;
                return Ok(a);
            }
            self.next()?;
            self.enter(&t)?;
            let b = self.unary()?;
            a = Formula::And(Box::new(a), Box::new(b));
        }
    }

    fn unary(&mut self) -> PResult<Formula> {
        let t = self.peek()?;
        if self.mode.ladr_vars && tok_name(&t.tok) == Some("-") {
            return self.ladr_minus();
        }
        if self.is_connective(&t.tok, &["~", "¬", "-"]) {
            self.next()?;
            self.enter(&t)?;
            let f = self.unary();
            self.leave();
            return Ok(Formula::not(f?));
        }
        match &t.tok {
            Tok::Ident(w) if w == "all" || w == "exists" => self.quantifier(),
            Tok::Op(w) if w == "∀" || w == "∃" => self.quantifier(),
            Tok::Op(p) if p == "(" => {
                let snap = self.snapshot();
                let as_atom = self.atom();
                let e1 = match as_atom {
                    Ok(f) => return Ok(f),
                    Err(e) => e,
                };
                self.restore(snap);
                let open = self.next()?;
                let inner = self
                    .formula()
                    .and_then(|f| self.close_bracket(&open).map(|_| f));
                // Report whichever reading got further: that is where the real mistake is.
                inner.map_err(|e2| {
                    if (e1.line, e1.column) > (e2.line, e2.column) {
                        e1
                    } else {
                        e2
                    }
                })
            }
            _ => self.atom(),
        }
    }

    /// LADR's `-`: a prefix operator that binds tighter than `=`, so `-x = y` is `(-x) = y`,
    /// and a negation only where what follows is not an equation (`-P(x)`, `-(x = y)`).
    fn ladr_minus(&mut self) -> PResult<Formula> {
        let snap = self.snapshot();
        let as_term = match self.atom() {
            Ok(f) => return Ok(f),
            Err(e) => e,
        };
        self.restore(snap);
        let t = self.next()?;
        self.enter(&t)?;
        let negated = self.unary();
        self.leave();
        // Report whichever reading got further: that is where the real mistake is.
        negated.map(Formula::not).map_err(|e| {
            if (as_term.line, as_term.column) > (e.line, e.column) {
                as_term
            } else {
                e
            }
        })
    }

    fn quantifier(&mut self) -> PResult<Formula> {
        let kw = self.next()?;
        let universal = matches!(tok_name(&kw.tok), Some("all" | "∀"));
        let mut ids: Vec<VarId> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        loop {
            let t = self.peek()?;
            let Tok::Ident(name) = &t.tok else { break };
            // In LADR a quantifier binds one variable: `exists x exists y x * y != y * x` is two
            // quantifiers and an equation, and `all x y (F)` applies `y` (Prover9 reads both so).
            if self.mode.ladr_vars && !ids.is_empty() {
                break;
            }
            let after = self.peek2()?;
            // `all x (F)`: a name before `(` is a binder if it is the first or looks like a variable;
            // otherwise it is a function or relation applied at the start of the body (`all x P(x)`).
            let applied = matches!(&after.tok, Tok::Op(p) if p == "(")
                && !ids.is_empty()
                && !self.is_variable_name(name);
            if self.sig.has_symbol(name)
                || matches!(name.as_str(), "all" | "exists" | "true" | "false")
                || names.contains(name)
                || applied
            {
                break;
            }
            self.next()?;
            let mut known = self.sig.is_single_sorted().then_some(SortId(0));
            if matches!(&after.tok, Tok::Op(p) if p == ":") {
                self.next()?;
                let st = self.next()?;
                known = match &st.tok {
                    Tok::Ident(s) => Some(
                        self.sig
                            .sort(s)
                            .ok_or_else(|| self.diag_tok(&st, format!("undeclared sort `{s}`")))?,
                    ),
                    other => {
                        return Err(self.diag_tok(
                            &st,
                            format!("expected a sort after `:`, found {}", describe(other)),
                        ))
                    }
                };
            }
            let class = self.scope.sorts.fresh(known);
            let id = VarId(self.scope.vars.len() as u32);
            self.scope.vars.push(VarInfo {
                name: name.clone(),
                class,
                first: t.start,
            });
            ids.push(id);
            names.push(name.clone());
        }
        if ids.is_empty() {
            let t = self.peek()?;
            return Err(self.diag_tok(
                &t,
                format!(
                    "expected a variable after `{}`, found {}",
                    tok_name(&kw.tok).unwrap_or(""),
                    describe(&t.tok)
                ),
            ));
        }
        self.eat_op(".");
        let depth = self.scope.bound.len();
        self.scope
            .bound
            .extend(names.into_iter().zip(ids.iter().copied()));
        let body = self.formula();
        self.scope.bound.truncate(depth);
        let body = Box::new(body?);
        Ok(if universal {
            Formula::Forall(ids, body)
        } else {
            Formula::Exists(ids, body)
        })
    }

    fn atom(&mut self) -> PResult<Formula> {
        let t = self.peek()?;
        match tok_name(&t.tok) {
            Some("true" | "$T") => {
                self.next()?;
                return Ok(Formula::True);
            }
            Some("false" | "$F") => {
                self.next()?;
                return Ok(Formula::False);
            }
            _ => {}
        }
        if let Some(name) = tok_name(&t.tok) {
            if let Some(r) = self.sig.rel(name) {
                let d = self.sig.rel_decl(r).clone();
                if d.args.len() != 2
                    || d.fixity == Fixity::Prefix
                    || matches!(self.peek2()?.tok, Tok::Op(ref p) if p == "(")
                {
                    self.next()?;
                    let args = if d.args.is_empty() {
                        vec![]
                    } else {
                        self.arguments(&t)?
                    };
                    return self.relation(r, args, &t);
                }
            }
            if self.mode.infer_symbols
                && matches!(t.tok, Tok::Ident(_))
                && !self.is_variable_name(name)
                && !self.sig.has_symbol(name)
            {
                let after = self.peek2()?;
                if matches!(after.tok, Tok::Op(ref p) if p == "(") {
                    return self.inferred_atom(t);
                }
                // A name that a connective, `#`, `.` or `)` follows is a propositional atom.
                if matches!(after.tok, Tok::Eof)
                    || matches!(&after.tok, Tok::Op(p) if matches!(p.as_str(), "." | ")" | "|" | "&" | "->" | "<->" | "<-" | "#"))
                {
                    let name = name.to_string();
                    self.next()?;
                    self.declare_rel(&name, vec![], Fixity::Prefix);
                    return Ok(Formula::Rel(RelId(self.sig.rels.len() as u32 - 1), vec![]));
                }
            }
        }
        let lhs = self.term(0)?;
        self.comparison(lhs)
    }

    /// In a Mace4 file, `f(x, y)` at the start of an atom is a function if `=` or an operator follows, else a relation.
    fn inferred_atom(&mut self, t: Token) -> PResult<Formula> {
        let name = tok_name(&t.tok).unwrap_or_default().to_string();
        self.next()?;
        let args = self.arguments(&t)?;
        let next = self.peek()?;
        let is_term = matches!(tok_name(&next.tok), Some("=" | "!=" | "≠" | "'"))
            || self.infix_func(&next)?.is_some();
        // The arguments may already have used the name (`f(f(x,x),x) = x` declares `f` inside):
        // that declaration stands, and a second one would make two symbols of one name.
        if is_term {
            let f = match self.sig.func(&name) {
                Some(f) => f,
                None => {
                    let s = self.single_sort(&t)?;
                    self.declare_func(&name, vec![s; args.len()], s, Fixity::Prefix);
                    FuncId(self.sig.funcs.len() as u32 - 1)
                }
            };
            let lhs = self.apply(f, args, &t)?;
            let lhs = self.postfix_tail(lhs)?;
            let lhs = self.infix_tail(lhs, 0)?;
            self.comparison(lhs)
        } else {
            if self.sig.func(&name).is_some() {
                return Err(self.diag_tok(&t, format!("`{name}` is used as a function inside its own arguments and as a relation here")));
            }
            let s = self.single_sort(&t)?;
            self.declare_rel(&name, vec![s; args.len()], Fixity::Prefix);
            let r = RelId(self.sig.rels.len() as u32 - 1);
            self.relation(r, args, &t)
        }
    }

    fn relation(&mut self, r: RelId, args: Vec<Typed>, at: &Token) -> PResult<Formula> {
        let d = self.sig.rel_decl(r).clone();
        if args.len() != d.args.len() {
            return Err(self.diag_tok(
                at,
                format!(
                    "relation `{}` takes {} arguments, not {}",
                    d.name,
                    d.args.len(),
                    args.len()
                ),
            ));
        }
        for (a, s) in args.iter().zip(&d.args) {
            self.expect_sort(a, *s, &d.name)?;
        }
        Ok(Formula::Rel(r, args.into_iter().map(|a| a.term).collect()))
    }

    fn comparison(&mut self, lhs: Typed) -> PResult<Formula> {
        let t = self.next()?;
        let name = tok_name(&t.tok).unwrap_or_default().to_string();
        if matches!(t.tok, Tok::Op(_)) && matches!(name.as_str(), "=" | "!=" | "≠") {
            let rhs = self.term(0)?;
            if let Err((a, b)) = self.scope.sorts.unify(lhs.sort, rhs.sort) {
                let (a, b) = (&self.sig.sort_decl(a).name, &self.sig.sort_decl(b).name);
                return Err(self.diag_tok(
                    &t,
                    format!("the two sides of `{name}` have different sorts, {a} and {b}"),
                ));
            }
            let eq = Formula::Eq(lhs.term, rhs.term);
            return Ok(if name == "=" { eq } else { Formula::not(eq) });
        }
        if let Some(r) = self.sig.rel(&name) {
            if self.sig.rel_decl(r).args.len() == 2
                && matches!(self.sig.rel_decl(r).fixity, Fixity::Infix { .. })
            {
                let rhs = self.term(0)?;
                return self.relation(r, vec![lhs, rhs], &t);
            }
        }
        Err(self.diag_tok(
            &t,
            format!(
                "expected `=`, `!=` or a relation after this term, found {}",
                describe(&t.tok)
            ),
        ))
    }

    fn is_variable_name(&self, name: &str) -> bool {
        if self.mode.ladr_vars {
            name.starts_with(|c: char| ('u'..='z').contains(&c))
        } else {
            looks_like_variable(name)
        }
    }

    /// The binary infix function symbol this token denotes, if any (declaring it in a Mace4 file).
    fn infix_func(&mut self, t: &Token) -> PResult<Option<(FuncId, u8, Assoc)>> {
        let Some(name) = tok_name(&t.tok) else {
            return Ok(None);
        };
        if matches!(t.tok, Tok::Number(_)) {
            return Ok(None);
        }
        if let Some(f) = self.sig.func(name) {
            let d = self.sig.func_decl(f);
            if let (2, Fixity::Infix { prec, assoc }) = (d.args.len(), d.fixity) {
                return Ok(Some((f, prec, assoc)));
            }
            return Ok(None);
        }
        if self.mode.infer_symbols && LADR_INFIX.contains(&name) && !self.sig.has_symbol(name) {
            let s = self.single_sort(t)?;
            let name = name.to_string();
            self.declare_func(
                &name,
                vec![s, s],
                s,
                Fixity::Infix {
                    prec: 50,
                    assoc: Assoc::None,
                },
            );
            return Ok(Some((
                FuncId(self.sig.funcs.len() as u32 - 1),
                50,
                Assoc::None,
            )));
        }
        Ok(None)
    }

    /// A term whose infix operators bind at least as tightly as `min_prec`.
    fn term(&mut self, min_prec: u8) -> PResult<Typed> {
        let t = self.peek()?;
        self.enter(&t)?;
        let lhs = self.primary();
        let out = lhs.and_then(|lhs| self.infix_tail(lhs, min_prec));
        self.leave();
        out
    }

    fn infix_tail(&mut self, mut lhs: Typed, min_prec: u8) -> PResult<Typed> {
        let depth = self.scope.depth;
        loop {
            let t = self.peek()?;
            let Some((f, prec, assoc)) = self
                .infix_func(&t)?
                .filter(|(_, prec, _)| *prec >= min_prec)
            else {
                self.scope.depth = depth;
                return Ok(lhs);
            };
            self.next()?;
            // Each link of a chain such as `x * y * z` nests the tree one level deeper.
            self.enter(&t)?;
            let rhs_min = if assoc == Assoc::Right {
                prec
            } else {
                prec.saturating_add(1)
            };
            let rhs = self.term(rhs_min)?;
            lhs = self.apply(f, vec![lhs, rhs], &t)?;
            if assoc == Assoc::None {
                let t2 = self.peek()?;
                if let Some((_, p2, _)) = self.infix_func(&t2)? {
                    if p2 == prec {
                        return Err(self.diag_tok(
                            &t2,
                            format!(
                                "`{}` here is ambiguous: add brackets",
                                tok_name(&t2.tok).unwrap_or_default()
                            ),
                        ));
                    }
                }
            }
        }
    }

    fn arguments(&mut self, at: &Token) -> PResult<Vec<Typed>> {
        self.expect_op(
            "(",
            &format!("after `{}`", tok_name(&at.tok).unwrap_or_default()),
        )?;
        let mut args = vec![self.term(0)?];
        while self.eat_op(",") {
            args.push(self.term(0)?);
        }
        self.expect_op(")", "to close the argument list")?;
        Ok(args)
    }

    /// Reads the `)` that closes `open`; the error says where the unclosed bracket is.
    fn close_bracket(&mut self, open: &Token) -> PResult<Token> {
        let at = self.origin(open.start);
        self.expect_op(
            ")",
            &format!("to close the `(` at line {}, column {}", at.line, at.column),
        )
    }

    /// A primary term with LADR's postfix `'` applied as often as it follows: it binds tighter
    /// than every prefix and infix operator (`-x'` is `-(x')`, `x * y'` is `x * (y')`).
    fn primary(&mut self) -> PResult<Typed> {
        let term = self.primary_without_postfix()?;
        self.postfix_tail(term)
    }

    fn postfix_tail(&mut self, mut term: Typed) -> PResult<Typed> {
        if !self.lex.postfix_prime {
            return Ok(term);
        }
        let depth = self.scope.depth;
        while self.at_op(POSTFIX_PRIME) {
            let t = self.next()?;
            self.enter(&t)?;
            let f = match self.sig.func(POSTFIX_PRIME) {
                Some(f) => f,
                None if self.mode.infer_symbols => {
                    let s = self.single_sort(&t)?;
                    self.declare_func(POSTFIX_PRIME, vec![s], s, Fixity::Prefix);
                    FuncId(self.sig.funcs.len() as u32 - 1)
                }
                None => {
                    return Err(
                        self.diag_tok(&t, "postfix `'` is not declared (declare it as `'/1`)")
                    )
                }
            };
            term = self.apply(f, vec![term], &t)?;
        }
        self.scope.depth = depth;
        Ok(term)
    }

    fn primary_without_postfix(&mut self) -> PResult<Typed> {
        let t = self.next()?;
        let name = match &t.tok {
            Tok::Op(p) if p == "(" => {
                let mut inner = self.term(0)?;
                let close = self.close_bracket(&t)?;
                (inner.start, inner.end) = (t.start, close.end);
                return Ok(inner);
            }
            Tok::Ident(s) | Tok::Number(s) => s.clone(),
            Tok::Op(s) if self.prefix_unary(s) => {
                let f = self.sig.func(s).expect("prefix_unary found or declared it");
                self.enter(&t)?;
                let arg = self.primary();
                self.leave();
                return self.apply(f, vec![arg?], &t);
            }
            Tok::Op(s) if self.sig.func(s).is_some() => s.clone(),
            other => {
                return Err(self.diag_tok(&t, format!("expected a term, found {}", describe(other))))
            }
        };
        if self.at_op("(") {
            let args = self.arguments(&t)?;
            let f = match self.sig.func(&name) {
                Some(f) => f,
                None if self.sig.rel(&name).is_some() => return Err(self.diag_tok(&t, format!("`{name}` is a relation, so it cannot stand inside a term"))),
                None if self.declaration_failed(&name) => return Err(self.use_of_failed_declaration(&t, &name)),
                None if self.mode.infer_symbols => {
                    let s = self.single_sort(&t)?;
                    self.declare_func(&name, vec![s; args.len()], s, Fixity::Prefix);
                    FuncId(self.sig.funcs.len() as u32 - 1)
                }
                None if args.len() > crate::signature::MAX_ARITY => {
                    return Err(self.diag_tok(&t, format!("undeclared function symbol `{name}`, applied to {} arguments (a symbol takes at most {})", args.len(), crate::signature::MAX_ARITY)))
                }
                None => return Err(self.diag_tok(&t, format!("undeclared function symbol `{name}` (declare it with `func {name} : {}`)", args.len()))),
            };
            return self.apply(f, args, &t);
        }
        self.name_term(&name, &t)
    }

    /// Whether an operator token is a unary prefix function symbol (declaring `-` in a Mace4 file).
    fn prefix_unary(&mut self, s: &str) -> bool {
        if let Some(f) = self.sig.func(s) {
            return self.sig.func_decl(f).args.len() == 1;
        }
        if self.mode.infer_symbols && s == "-" && self.sig.sorts.len() == 1 {
            self.declare_func("-", vec![SortId(0)], SortId(0), Fixity::Prefix);
            return true;
        }
        false
    }

    /// A name without arguments: a bound or free variable, or a constant.
    fn name_term(&mut self, name: &str, t: &Token) -> PResult<Typed> {
        let span = |term, sort| Typed {
            term,
            sort,
            start: t.start,
            end: t.end,
        };
        if let Some((_, v)) = self.scope.bound.iter().rev().find(|(n, _)| n == name) {
            let class = self.scope.vars[v.0 as usize].class;
            return Ok(span(Term::Var(*v), SortRef::Unknown(class)));
        }
        if let Some(f) = self.sig.func(name) {
            let d = self.sig.func_decl(f);
            if !d.args.is_empty() {
                return Err(self.diag_tok(
                    t,
                    format!(
                        "`{name}` takes {} arguments: write `{name}(...)`",
                        d.args.len()
                    ),
                ));
            }
            return Ok(span(Term::App(f, vec![]), SortRef::Known(d.result)));
        }
        if self.sig.rel(name).is_some() {
            return Err(self.diag_tok(
                t,
                format!("`{name}` is a relation, so it cannot stand inside a term"),
            ));
        }
        if let Some(v) = self.scope.free.get(name) {
            let class = self.scope.vars[v.0 as usize].class;
            return Ok(span(Term::Var(*v), SortRef::Unknown(class)));
        }
        if self.declaration_failed(name) {
            return Err(self.use_of_failed_declaration(t, name));
        }
        if matches!(t.tok, Tok::Ident(_)) && self.is_variable_name(name) {
            let known = self.sig.is_single_sorted().then_some(SortId(0));
            let class = self.scope.sorts.fresh(known);
            let v = VarId(self.scope.vars.len() as u32);
            self.scope.vars.push(VarInfo {
                name: name.to_string(),
                class,
                first: t.start,
            });
            self.scope.free.insert(name.to_string(), v);
            return Ok(span(Term::Var(v), SortRef::Unknown(class)));
        }
        if self.mode.infer_symbols {
            let s = self.single_sort(t)?;
            self.declare_func(name, vec![], s, Fixity::Prefix);
            let f = FuncId(self.sig.funcs.len() as u32 - 1);
            return Ok(span(Term::App(f, vec![]), SortRef::Known(s)));
        }
        if !self.mode.ladr_vars && super::ITEM_KEYWORDS.contains(&name) {
            // The formula ended early and the next item begins: let error recovery resume there.
            self.lex.seek(t.start);
            return Err(self.diag_tok(
                t,
                format!("the formula is incomplete: expected a term before the next item `{name}`"),
            ));
        }
        Err(self.diag_tok(t, if self.mode.ladr_vars {
            format!("undeclared constant `{name}` (in LADR formulas only names starting with u to z are variables)")
        } else {
            format!("undeclared symbol `{name}`: declare it (`const {name}`), or use a variable name such as x, y1 or z'")
        }))
    }

    fn expect_sort(&mut self, arg: &Typed, want: SortId, symbol: &str) -> PResult<()> {
        self.scope
            .sorts
            .unify(arg.sort, SortRef::Known(want))
            .map_err(|(w, found)| {
                let (w, found) = if w == want { (w, found) } else { (found, w) };
                self.diag(
                    arg.start,
                    self.src[arg.start..arg.end].chars().count(),
                    format!(
                        "`{symbol}` expects an argument of sort {} here, but this term has sort {}",
                        self.sig.sort_decl(w).name,
                        self.sig.sort_decl(found).name
                    ),
                )
            })
    }

    fn apply(&mut self, f: FuncId, args: Vec<Typed>, at: &Token) -> PResult<Typed> {
        let d = self.sig.func_decl(f).clone();
        if args.len() != d.args.len() {
            return Err(self.diag_tok(
                at,
                format!(
                    "`{}` takes {} arguments, not {}",
                    d.name,
                    d.args.len(),
                    args.len()
                ),
            ));
        }
        for (a, s) in args.iter().zip(&d.args) {
            self.expect_sort(a, *s, &d.name)?;
        }
        let start = args.first().map_or(at.start, |a| a.start.min(at.start));
        let end = args.last().map_or(at.end, |a| a.end.max(at.end));
        Ok(Typed {
            term: Term::App(f, args.into_iter().map(|a| a.term).collect()),
            sort: SortRef::Known(d.result),
            start,
            end,
        })
    }
}
