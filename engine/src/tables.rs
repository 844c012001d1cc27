//! Structures as text: Cayley tables for people, and Mace4's `interpretation(...)` standard form.

use crate::error::{Error, Result};
use crate::signature::Signature;
use crate::structure::{tuples, Structure};
use std::fmt::Write;

/// The structure as Cayley tables: constants as `e = 0`, unary maps as a two-row table, binary
/// symbols as square tables, others as lists of entries.
pub fn cayley(sig: &Signature, s: &Structure) -> String {
    let mut out = String::new();
    let sizes: Vec<String> = sig
        .sort_ids()
        .map(|id| format!("{} = {}", sig.sort_decl(id).name, s.size(id)))
        .collect();
    let _ = writeln!(out, "sizes: {}", sizes.join(", "));
    for f in sig.func_ids() {
        let d = sig.func_decl(f);
        let table = &s.funcs[f.0 as usize];
        let cells: Vec<String> = table.iter().map(u32::to_string).collect();
        write_table(
            &mut out,
            &d.name,
            &d.args.iter().map(|a| s.size(*a)).collect::<Vec<_>>(),
            &cells,
        );
    }
    for r in sig.rel_ids() {
        let d = sig.rel_decl(r);
        let cells: Vec<String> = s.rels[r.0 as usize]
            .iter()
            .map(|&b| if b { "1" } else { "0" }.to_string())
            .collect();
        write_table(
            &mut out,
            &d.name,
            &d.args.iter().map(|a| s.size(*a)).collect::<Vec<_>>(),
            &cells,
        );
    }
    out
}

fn write_table(out: &mut String, name: &str, dims: &[u32], cells: &[String]) {
    let w = cells.iter().map(String::len).max().unwrap_or(1).max(
        dims.iter()
            .map(|d| d.saturating_sub(1).to_string().len())
            .max()
            .unwrap_or(1),
    );
    match dims {
        [] => {
            let _ = writeln!(out, "{name} = {}", cells[0]);
        }
        [n] => {
            let _ = writeln!(out, "{name}:");
            let head: Vec<String> = (0..*n).map(|i| format!("{i:>w$}")).collect();
            let vals: Vec<String> = cells.iter().map(|c| format!("{c:>w$}")).collect();
            let lw = name.chars().count() + 3;
            let _ = writeln!(out, "  {:>lw$} | {}", "x", head.join(" "));
            let _ = writeln!(
                out,
                "  {}-+-{}",
                "-".repeat(lw),
                "-".repeat(head.join(" ").len())
            );
            let _ = writeln!(out, "  {:>lw$} | {}", format!("{name}(x)"), vals.join(" "));
        }
        [rows, cols] => {
            let _ = writeln!(out, "{name}:");
            let lw = name
                .chars()
                .count()
                .max(rows.saturating_sub(1).to_string().len());
            let head: Vec<String> = (0..*cols).map(|i| format!("{i:>w$}")).collect();
            let _ = writeln!(out, "  {:>lw$} | {}", name, head.join(" "));
            let _ = writeln!(
                out,
                "  {}-+-{}",
                "-".repeat(lw),
                "-".repeat(head.join(" ").len())
            );
            for r in 0..*rows as usize {
                let row: Vec<String> = cells[r * *cols as usize..(r + 1) * *cols as usize]
                    .iter()
                    .map(|c| format!("{c:>w$}"))
                    .collect();
                let _ = writeln!(out, "  {r:>lw$} | {}", row.join(" "));
            }
        }
        _ => {
            let _ = writeln!(out, "{name}:");
            let sorts: Vec<crate::signature::SortId> = (0..dims.len() as u32)
                .map(crate::signature::SortId)
                .collect();
            for (args, c) in tuples(dims, &sorts).zip(cells) {
                let a: Vec<String> = args.iter().map(u32::to_string).collect();
                let _ = writeln!(out, "  {name}({}) = {c}", a.join(","));
            }
        }
    }
}

/// The structure in Mace4's standard `interpformat` (single-sorted only).
pub fn to_mace4(sig: &Signature, s: &Structure, number: usize) -> Result<String> {
    if !sig.is_single_sorted() {
        return Err(Error::Structure(
            "Mace4's format has one sort; this theory has several".into(),
        ));
    }
    let mut items = Vec::new();
    for f in sig.func_ids() {
        let d = sig.func_decl(f);
        let vals: Vec<String> = s.funcs[f.0 as usize].iter().map(u32::to_string).collect();
        items.push(format!(
            "    function({}, [{}])",
            mace4_head(&d.name, d.args.len()),
            vals.join(",")
        ));
    }
    for r in sig.rel_ids() {
        let d = sig.rel_decl(r);
        let vals: Vec<&str> = s.rels[r.0 as usize]
            .iter()
            .map(|&b| if b { "1" } else { "0" })
            .collect();
        items.push(format!(
            "    relation({}, [{}])",
            mace4_head(&d.name, d.args.len()),
            vals.join(",")
        ));
    }
    Ok(format!(
        "interpretation( {}, [number = {number}, seconds = 0], [\n{}\n]).\n",
        s.sizes[0],
        items.join(",\n")
    ))
}

fn mace4_head(name: &str, arity: usize) -> String {
    if arity == 0 {
        name.to_string()
    } else {
        format!("{name}({})", vec!["_"; arity].join(","))
    }
}

/// Reads every `interpretation(...)` in a text (Mace4 or interpformat output) as structures of
/// `sig`, strictly: each interpretation gives every symbol of `sig` once, with the arity the
/// signature declares and a table of exactly size^arity values in range, in Mace4's own syntax.
/// A symbol the signature does not have is an error, except Mace4's Skolem symbols (`c1`, `f2`,
/// ...: its names for the witnesses of existential quantifiers), which are skipped after the
/// same checks. Between interpretations only blank lines and `%` comments may stand, except in
/// Mace4's whole output (told by its banner), whose report lines are passed over unless they
/// hold a fragment of an interpretation. Errors name `file:line:column`.
pub fn from_mace4(sig: &Signature, text: &str, file: &str) -> Result<Vec<Structure>> {
    if !sig.is_single_sorted() {
        return Err(Error::Structure(
            "Mace4's format has one sort; this theory has several".into(),
        ));
    }
    let report = text
        .lines()
        .any(|l| l.starts_with("=====") && l.contains(" Mace4 "));
    let mut reader = Mace4Reader {
        text,
        at: 0,
        file,
        report,
    };
    let mut out = Vec::new();
    while let Some(start) = reader.next_interpretation()? {
        reader.at = start;
        out.push(reader.interpretation(sig)?);
    }
    if out.is_empty() {
        return Err(Error::Structure(format!(
            "{file}: no Mace4 `interpretation(` found"
        )));
    }
    Ok(out)
}

/// A cursor over Mace4 interpretations that knows its line and column for errors.
struct Mace4Reader<'a> {
    text: &'a str,
    at: usize,
    file: &'a str,
    /// Whether the text is Mace4's whole output, with its report between the interpretations.
    report: bool,
}

/// Characters that end a symbol's name in an interpretation.
const MACE4_PUNCTUATION: &[char] = &['(', ')', '[', ']', ','];

impl Mace4Reader<'_> {
    fn error_at(&self, at: usize, message: impl std::fmt::Display) -> Error {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before
            .rfind('\n')
            .map_or(before, |i| &before[i + 1..])
            .chars()
            .count()
            + 1;
        Error::Structure(format!("{}:{line}:{column}: {message}", self.file))
    }

    /// The offset of the next `interpretation(` outside a `%` comment, after checking that the
    /// text before it holds no piece of an interpretation (a mangled one would otherwise be
    /// passed over unread) and, outside Mace4's report, nothing but comments.
    fn next_interpretation(&mut self) -> Result<Option<usize>> {
        let mut offset = self.at;
        for line in self.text[self.at..].split_inclusive('\n') {
            let code = line.split('%').next().unwrap_or("");
            if let Some(i) = code.find("interpretation(") {
                if let Some(j) = code[..i]
                    .find(|c: char| !c.is_whitespace())
                    .filter(|_| !self.report)
                {
                    return Err(self.error_at(
                        offset + j,
                        "only `%` comments may stand between interpretations",
                    ));
                }
                return Ok(Some(offset + i));
            }
            for word in ["interpretation", "function(", "relation("] {
                if let Some(i) = code.find(word) {
                    return Err(self.error_at(
                        offset + i,
                        format!("`{word}` outside an `interpretation(...)` term"),
                    ));
                }
            }
            if let Some(i) = code
                .find(|c: char| !c.is_whitespace())
                .filter(|_| !self.report)
            {
                return Err(self.error_at(
                    offset + i,
                    "only `%` comments may stand between interpretations",
                ));
            }
            offset += line.len();
        }
        Ok(None)
    }

    fn skip_blank(&mut self) {
        loop {
            let rest = &self.text[self.at..];
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with('%') {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
        }
    }

    fn expect(&mut self, what: &str) -> Result<()> {
        self.skip_blank();
        if self.text[self.at..].starts_with(what) {
            self.at += what.len();
            Ok(())
        } else {
            Err(self.error_at(
                self.at,
                format!("expected `{what}`, found {}", self.found()),
            ))
        }
    }

    fn eat(&mut self, what: &str) -> bool {
        self.skip_blank();
        let yes = self.text[self.at..].starts_with(what);
        if yes {
            self.at += what.len();
        }
        yes
    }

    fn found(&self) -> String {
        match self.text[self.at..].chars().next() {
            None => "the end of the file".into(),
            Some(_) => format!(
                "`{}`",
                self.text[self.at..]
                    .chars()
                    .take(12)
                    .collect::<String>()
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
            ),
        }
    }

    fn number(&mut self) -> Result<(u64, usize)> {
        self.skip_blank();
        let start = self.at;
        let digits = self.text[start..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.text.len() - start);
        if digits == 0 {
            return Err(self.error_at(start, format!("expected a number, found {}", self.found())));
        }
        self.at += digits;
        // Mace4 writes no leading zeros: `00` is a mangled value, not 0.
        if digits > 1 && self.text[start..].starts_with('0') {
            return Err(self.error_at(
                start,
                format!(
                    "`{}` is not a number as Mace4 writes one",
                    &self.text[start..self.at]
                ),
            ));
        }
        let n = self.text[start..self.at]
            .parse()
            .map_err(|_| self.error_at(start, "number too large"))?;
        Ok((n, start))
    }

    /// `interpretation( N, [attributes], [ item, ... ]).`
    fn interpretation(&mut self, sig: &Signature) -> Result<Structure> {
        self.expect("interpretation(")?;
        let (n, at) = self.number()?;
        if n == 0 {
            return Err(self.error_at(at, "the domain size must be at least 1"));
        }
        let n = u32::try_from(n)
            .map_err(|_| self.error_at(at, format!("domain size {n} is too large")))?;
        self.expect(",")?;
        self.expect("[")?;
        // Attributes such as `number = 1, seconds = 0`: words and `%` comments, no brackets.
        loop {
            self.skip_blank();
            match self.text[self.at..].chars().next() {
                Some(']') => break,
                Some('[' | '(' | ')') => {
                    return Err(self.error_at(self.at, "unexpected bracket in the attribute list"))
                }
                Some(c) => self.at += c.len_utf8(),
                None => return Err(self.error_at(self.at, "unclosed attribute list")),
            }
        }
        self.at += 1;
        self.expect(",")?;
        self.expect("[")?;
        let mut funcs: Vec<Option<Vec<u32>>> = vec![None; sig.funcs.len()];
        let mut rels: Vec<Option<Vec<bool>>> = vec![None; sig.rels.len()];
        loop {
            self.item(sig, n, &mut funcs, &mut rels)?;
            if !self.eat(",") {
                break;
            }
        }
        self.expect("]")?;
        self.expect(")")?;
        self.expect(".")?;
        let missing = |name: &str, arity: usize| {
            self.error_at(self.at, format!("this interpretation gives no table for `{name}` (arity {arity}), a symbol of the theory"))
        };
        if let Some(i) = funcs.iter().position(Option::is_none) {
            return Err(missing(&sig.funcs[i].name, sig.funcs[i].args.len()));
        }
        if let Some(i) = rels.iter().position(Option::is_none) {
            return Err(missing(&sig.rels[i].name, sig.rels[i].args.len()));
        }
        let s = Structure {
            sizes: vec![n],
            funcs: funcs.into_iter().flatten().collect(),
            rels: rels.into_iter().flatten().collect(),
        };
        s.validate(sig)?;
        Ok(s)
    }

    /// `function(NAME(_,...,_), [v, ...])` or `relation(...)`, checked against the signature.
    fn item(
        &mut self,
        sig: &Signature,
        n: u32,
        funcs: &mut [Option<Vec<u32>>],
        rels: &mut [Option<Vec<bool>>],
    ) -> Result<()> {
        self.skip_blank();
        let start = self.at;
        let relation = if self.eat("function(") {
            false
        } else if self.eat("relation(") {
            true
        } else {
            return Err(self.error_at(
                start,
                format!(
                    "expected `function(` or `relation(`, found {}",
                    self.found()
                ),
            ));
        };
        self.skip_blank();
        let name_at = self.at;
        let len = self.text[self.at..]
            .find(|c: char| c.is_whitespace() || MACE4_PUNCTUATION.contains(&c))
            .unwrap_or(self.text.len() - self.at);
        let name = &self.text[self.at..self.at + len];
        if name.is_empty() {
            return Err(self.error_at(
                name_at,
                format!("expected a symbol's name, found {}", self.found()),
            ));
        }
        self.at += len;
        let mut arity = 0;
        if self.eat("(") {
            loop {
                self.expect("_")?;
                arity += 1;
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        let kind = if relation { "relation" } else { "function" };
        let declared = if relation {
            sig.rel(name)
                .map(|r| (r.0 as usize, sig.rel_decl(r).args.len()))
        } else {
            sig.func(name)
                .map(|f| (f.0 as usize, sig.func_decl(f).args.len()))
        };
        // `None` for a Mace4 Skolem symbol, read and checked like the others, then dropped.
        let index = match declared {
            Some((index, declared_arity)) if declared_arity == arity => Some(index),
            Some((_, declared_arity)) => {
                return Err(self.error_at(
                    name_at,
                    format!("`{name}` has arity {declared_arity} in the theory, not {arity}"),
                ))
            }
            None if is_mace4_skolem(name) => None,
            None => {
                return Err(
                    self.error_at(name_at, format!("`{name}` is not a {kind} of the theory"))
                )
            }
        };
        self.expect(",")?;
        self.expect("[")?;
        let values_at = self.at;
        let mut values = Vec::new();
        if !self.eat("]") {
            loop {
                let (v, at) = self.number()?;
                let bound = if relation { 2 } else { u64::from(n) };
                if v >= bound {
                    let range = if relation {
                        "0 or 1".to_string()
                    } else {
                        format!("an element 0 to {}", n - 1)
                    };
                    return Err(
                        self.error_at(at, format!("`{name}`: the value {v} is not {range}"))
                    );
                }
                values.push(v as u32);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("]")?;
        }
        self.expect(")")?;
        let cells = (n as usize).checked_pow(arity as u32).ok_or_else(|| {
            self.error_at(
                name_at,
                format!("`{name}`: a table of {n}^{arity} values is too large"),
            )
        })?;
        if values.len() != cells {
            return Err(self.error_at(
                values_at,
                format!(
                    "`{name}` of arity {arity} needs {cells} values at size {n}, found {}",
                    values.len()
                ),
            ));
        }
        let Some(index) = index else { return Ok(()) };
        let twice = if relation {
            rels[index]
                .replace(values.iter().map(|&v| v == 1).collect())
                .is_some()
        } else {
            funcs[index].replace(values).is_some()
        };
        if twice {
            return Err(self.error_at(start, format!("`{name}` is given twice")));
        }
        Ok(())
    }
}

/// Mace4's names for Skolem symbols: `c` or `f` followed by a number.
fn is_mace4_skolem(name: &str) -> bool {
    name.len() > 1 && name.starts_with(['c', 'f']) && name[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The structure for GAP: a record `M<number> := rec( size := n, ... );` with each symbol's table
/// under its name made a GAP identifier (`*` is `mult`), elements numbered from 1. A binary
/// operation is a multiplication table, a list of rows, as `LoopByCayleyTable`,
/// `QuasigroupByCayleyTable` (LOOPS) and `SemigroupByMultiplicationTable` (GAP, smallsemi) take
/// it; a unary one the list of images; a constant its element; a relation nested lists of
/// `true`/`false`; an n-ary symbol lists nested n deep. LOOPS wants a loop's identity to be
/// element 1, so in a one-sorted structure whose first binary operation has a two-sided
/// identity, that element and Birkhoff's 0 swap places (an isomorphic copy; a comment says so).
pub fn to_gap(sig: &Signature, s: &Structure, number: usize) -> String {
    let relabel = gap_relabelling(sig, s);
    let element = |sort: crate::signature::SortId, v: u32| {
        if sort.0 == 0 {
            relabel[v as usize] + 1
        } else {
            v + 1
        }
    };
    let mut names = crate::interop::names::NameMap::new(GAP_KEYWORDS);
    names.claim("size");
    names.claim("sizes");
    let mut fields = Vec::new();
    if sig.is_single_sorted() {
        fields.push(format!("size := {}", s.sizes[0]));
    } else {
        let sizes: Vec<String> = s.sizes.iter().map(u32::to_string).collect();
        fields.push(format!("sizes := [ {} ]", sizes.join(", ")));
    }
    for f in sig.func_ids() {
        let d = sig.func_decl(f);
        let table = &s.funcs[f.0 as usize];
        let text = gap_nested(s, &d.args, &relabel, &|i| {
            element(d.result, table[i]).to_string()
        });
        fields.push(format!(
            "{} := {text}",
            names.fresh(&d.name, crate::interop::names::gap_identifier)
        ));
    }
    for r in sig.rel_ids() {
        let d = sig.rel_decl(r);
        let table = &s.rels[r.0 as usize];
        let text = gap_nested(s, &d.args, &relabel, &|i| {
            if table[i] { "true" } else { "false" }.to_string()
        });
        fields.push(format!(
            "{} := {text}",
            names.fresh(&d.name, crate::interop::names::gap_identifier)
        ));
    }
    let mut out = String::new();
    let moved: Vec<String> = relabel
        .iter()
        .enumerate()
        .filter(|(a, b)| *a as u32 != **b)
        .map(|(a, b)| format!("{a} is {}", b + 1))
        .collect();
    if moved.is_empty() {
        let _ = writeln!(out, "# model {number}: element k is Birkhoff's k - 1");
    } else {
        let _ = writeln!(out, "# model {number}: element k is Birkhoff's k - 1, except that Birkhoff's {} (so that the identity is element 1, as LOOPS needs)", moved.join(" and "));
    }
    let _ = writeln!(out, "M{number} := rec(\n  {}\n);", fields.join(",\n  "));
    out
}

/// GAP's keywords, which cannot name a record component unquoted.
const GAP_KEYWORDS: &[&str] = &[
    "and",
    "atomic",
    "break",
    "continue",
    "do",
    "elif",
    "else",
    "end",
    "false",
    "fi",
    "for",
    "function",
    "if",
    "in",
    "local",
    "mod",
    "not",
    "od",
    "or",
    "readonly",
    "readwrite",
    "rec",
    "repeat",
    "return",
    "then",
    "true",
    "until",
    "while",
    "quit",
    "QUIT",
    "IsBound",
    "Unbind",
    "TryNextMethod",
    "Info",
    "Assert",
];

/// Where each element of sort 0 goes: the identity of the first binary operation (if any) to 0.
fn gap_relabelling(sig: &Signature, s: &Structure) -> Vec<u32> {
    let n = s.sizes[0];
    let mut perm: Vec<u32> = (0..n).collect();
    if !sig.is_single_sorted() {
        return perm;
    }
    let Some(f) = sig.func_ids().find(|f| sig.func_decl(*f).args.len() == 2) else {
        return perm;
    };
    let table = &s.funcs[f.0 as usize];
    let at = |x: u32, y: u32| table[(x * n + y) as usize];
    if let Some(e) = (0..n).find(|&e| (0..n).all(|x| at(e, x) == x && at(x, e) == x)) {
        perm.swap(0, e as usize);
    }
    perm
}

/// A table as GAP lists nested once per argument, entries from `cell` (given the flat index).
fn gap_nested(
    s: &Structure,
    args: &[crate::signature::SortId],
    relabel: &[u32],
    cell: &dyn Fn(usize) -> String,
) -> String {
    fn go(
        s: &Structure,
        args: &[crate::signature::SortId],
        relabel: &[u32],
        cell: &dyn Fn(usize) -> String,
        prefix: &mut Vec<u32>,
    ) -> String {
        if prefix.len() == args.len() {
            return cell(crate::structure::table_index(&s.sizes, args, prefix));
        }
        let sort = args[prefix.len()];
        let n = s.size(sort);
        // Position p of the GAP list holds Birkhoff's element whose new label is p.
        let mut inverse = vec![0; n as usize];
        for v in 0..n {
            let label = if sort.0 == 0 { relabel[v as usize] } else { v };
            inverse[label as usize] = v;
        }
        let items: Vec<String> = inverse
            .iter()
            .map(|&v| {
                prefix.push(v);
                let t = go(s, args, relabel, cell, prefix);
                prefix.pop();
                t
            })
            .collect();
        format!("[ {} ]", items.join(", "))
    }
    go(s, args, relabel, cell, &mut Vec::new())
}
