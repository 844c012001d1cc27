//! Structures as text: Cayley tables for people, and Mace4's `interpretation(...)` standard form.

use crate::error::{Error, Result};
use crate::signature::Signature;
use crate::structure::{tuples, Structure};
use std::fmt::Write;

/// The structure as Cayley tables: constants as `e = 0`, unary maps as a two-row table, binary
/// symbols as square tables, others as lists of entries.
pub fn cayley(sig: &Signature, s: &Structure) -> String {
    let mut out = String::new();
    let sizes: Vec<String> = sig.sort_ids().map(|id| format!("{} = {}", sig.sort_decl(id).name, s.size(id))).collect();
    let _ = writeln!(out, "sizes: {}", sizes.join(", "));
    for f in sig.func_ids() {
        let d = sig.func_decl(f);
        let table = &s.funcs[f.0 as usize];
        let cells: Vec<String> = table.iter().map(u32::to_string).collect();
        write_table(&mut out, &d.name, &d.args.iter().map(|a| s.size(*a)).collect::<Vec<_>>(), &cells);
    }
    for r in sig.rel_ids() {
        let d = sig.rel_decl(r);
        let cells: Vec<String> = s.rels[r.0 as usize].iter().map(|&b| if b { "1" } else { "0" }.to_string()).collect();
        write_table(&mut out, &d.name, &d.args.iter().map(|a| s.size(*a)).collect::<Vec<_>>(), &cells);
    }
    out
}

fn write_table(out: &mut String, name: &str, dims: &[u32], cells: &[String]) {
    let w = cells.iter().map(String::len).max().unwrap_or(1).max(dims.iter().map(|d| d.saturating_sub(1).to_string().len()).max().unwrap_or(1));
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
            let _ = writeln!(out, "  {}-+-{}", "-".repeat(lw), "-".repeat(head.join(" ").len()));
            let _ = writeln!(out, "  {:>lw$} | {}", format!("{name}(x)"), vals.join(" "));
        }
        [rows, cols] => {
            let _ = writeln!(out, "{name}:");
            let lw = name.chars().count().max(rows.saturating_sub(1).to_string().len());
            let head: Vec<String> = (0..*cols).map(|i| format!("{i:>w$}")).collect();
            let _ = writeln!(out, "  {:>lw$} | {}", name, head.join(" "));
            let _ = writeln!(out, "  {}-+-{}", "-".repeat(lw), "-".repeat(head.join(" ").len()));
            for r in 0..*rows as usize {
                let row: Vec<String> = cells[r * *cols as usize..(r + 1) * *cols as usize].iter().map(|c| format!("{c:>w$}")).collect();
                let _ = writeln!(out, "  {r:>lw$} | {}", row.join(" "));
            }
        }
        _ => {
            let _ = writeln!(out, "{name}:");
            let sorts: Vec<crate::signature::SortId> = (0..dims.len() as u32).map(crate::signature::SortId).collect();
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
        return Err(Error::Structure("Mace4's format has one sort; this theory has several".into()));
    }
    let mut items = Vec::new();
    for f in sig.func_ids() {
        let d = sig.func_decl(f);
        let vals: Vec<String> = s.funcs[f.0 as usize].iter().map(u32::to_string).collect();
        items.push(format!("    function({}, [{}])", mace4_head(&d.name, d.args.len()), vals.join(",")));
    }
    for r in sig.rel_ids() {
        let d = sig.rel_decl(r);
        let vals: Vec<&str> = s.rels[r.0 as usize].iter().map(|&b| if b { "1" } else { "0" }).collect();
        items.push(format!("    relation({}, [{}])", mace4_head(&d.name, d.args.len()), vals.join(",")));
    }
    Ok(format!("interpretation( {}, [number = {number}, seconds = 0], [\n{}\n]).\n", s.sizes[0], items.join(",\n")))
}

fn mace4_head(name: &str, arity: usize) -> String {
    if arity == 0 {
        name.to_string()
    } else {
        format!("{name}({})", vec!["_"; arity].join(","))
    }
}

/// Reads every `interpretation(...)` in a text (Mace4 or interpformat output) as structures of `sig`.
/// Symbols the signature does not have (Skolem functions, say) are ignored; missing ones are an error.
pub fn from_mace4(sig: &Signature, text: &str) -> Result<Vec<Structure>> {
    if !sig.is_single_sorted() {
        return Err(Error::Structure("Mace4's format has one sort; this theory has several".into()));
    }
    let err = |m: String| Error::Structure(format!("Mace4 interpretation: {m}"));
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("interpretation(") {
        rest = &rest[at + "interpretation(".len()..];
        let comma = rest.find(',').ok_or_else(|| err("missing the domain size".into()))?;
        let n: u32 = rest[..comma].trim().parse().map_err(|_| err(format!("bad domain size `{}`", rest[..comma].trim())))?;
        if n == 0 {
            return Err(err("the domain size must be at least 1".into()));
        }
        // Each table is the value list given, once its length is checked, so that a large domain
        // size with short lists is an error rather than a huge allocation.
        let expected = |arity: usize| (n as usize).checked_pow(arity as u32).ok_or_else(|| err(format!("domain size {n} is too large")));
        let mut funcs: Vec<Option<Vec<u32>>> = vec![None; sig.funcs.len()];
        let mut rels: Vec<Option<Vec<bool>>> = vec![None; sig.rels.len()];
        let end = rest.find("]).").ok_or_else(|| err("missing the closing `]).`".into()))?;
        let body = &rest[..end + 1];
        rest = &rest[end + 3..];
        for (kind, rel) in [("function(", false), ("relation(", true)] {
            let mut b = body;
            while let Some(i) = b.find(kind) {
                b = &b[i + kind.len()..];
                let open = b.find('[').ok_or_else(|| err(format!("`{kind}` without a value list")))?;
                let head = b[..open].trim().trim_end_matches(',').trim();
                let name = head.split('(').next().unwrap_or(head).trim();
                let close = b[open..].find(']').ok_or_else(|| err("unclosed value list".into()))? + open;
                let vals: Vec<u32> = b[open + 1..close]
                    .split(',')
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(|v| v.parse().map_err(|_| err(format!("`{name}`: bad value `{v}`"))))
                    .collect::<Result<_>>()?;
                b = &b[close..];
                if rel {
                    let Some(r) = sig.rel(name) else { continue };
                    let len = expected(sig.rel_decl(r).args.len())?;
                    if vals.len() != len || vals.iter().any(|&v| v > 1) {
                        return Err(err(format!("relation `{name}` needs {len} values, each 0 or 1")));
                    }
                    if rels[r.0 as usize].is_some() {
                        return Err(err(format!("relation `{name}` is given twice")));
                    }
                    rels[r.0 as usize] = Some(vals.iter().map(|&v| v == 1).collect());
                } else {
                    let Some(f) = sig.func(name) else { continue };
                    let len = expected(sig.func_decl(f).args.len())?;
                    if vals.len() != len {
                        return Err(err(format!("`{name}` needs {len} values, found {}", vals.len())));
                    }
                    if funcs[f.0 as usize].is_some() {
                        return Err(err(format!("`{name}` is given twice")));
                    }
                    funcs[f.0 as usize] = Some(vals);
                }
            }
        }
        if let Some(i) = funcs.iter().position(Option::is_none) {
            return Err(err(format!("no table for `{}`", sig.funcs[i].name)));
        }
        if let Some(i) = rels.iter().position(Option::is_none) {
            return Err(err(format!("no table for relation `{}`", sig.rels[i].name)));
        }
        let s = Structure { sizes: vec![n], funcs: funcs.into_iter().flatten().collect(), rels: rels.into_iter().flatten().collect() };
        s.validate(sig)?;
        out.push(s);
    }
    if out.is_empty() {
        return Err(err("no `interpretation(` found".into()));
    }
    Ok(out)
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
    let element = |sort: crate::signature::SortId, v: u32| if sort.0 == 0 { relabel[v as usize] + 1 } else { v + 1 };
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
        let text = gap_nested(s, &d.args, &relabel, &|i| element(d.result, table[i]).to_string());
        fields.push(format!("{} := {text}", names.fresh(&d.name, crate::interop::names::gap_identifier)));
    }
    for r in sig.rel_ids() {
        let d = sig.rel_decl(r);
        let table = &s.rels[r.0 as usize];
        let text = gap_nested(s, &d.args, &relabel, &|i| if table[i] { "true" } else { "false" }.to_string());
        fields.push(format!("{} := {text}", names.fresh(&d.name, crate::interop::names::gap_identifier)));
    }
    let mut out = String::new();
    let moved: Vec<String> = relabel.iter().enumerate().filter(|(a, b)| *a as u32 != **b).map(|(a, b)| format!("{a} is {}", b + 1)).collect();
    if moved.is_empty() {
        let _ = writeln!(out, "# model {number}: element k is Birkhoff's k - 1");
    } else {
        let _ = writeln!(out, "# model {number}: element k is Birkhoff's k - 1, except that Birkhoff's {} (so that the identity is element 1, as LOOPS needs)", moved.join(" and "));
    }
    let _ = writeln!(out, "M{number} := rec(\n  {}\n);", fields.join(",\n  "));
    out
}

/// GAP's keywords, which cannot name a record component unquoted.
const GAP_KEYWORDS: &[&str] = &["and", "atomic", "break", "continue", "do", "elif", "else", "end", "false", "fi", "for", "function", "if", "in", "local", "mod", "not", "od", "or", "readonly", "readwrite", "rec", "repeat", "return", "then", "true", "until", "while", "quit", "QUIT", "IsBound", "Unbind", "TryNextMethod", "Info", "Assert"];

/// Where each element of sort 0 goes: the identity of the first binary operation (if any) to 0.
fn gap_relabelling(sig: &Signature, s: &Structure) -> Vec<u32> {
    let n = s.sizes[0];
    let mut perm: Vec<u32> = (0..n).collect();
    if !sig.is_single_sorted() {
        return perm;
    }
    let Some(f) = sig.func_ids().find(|f| sig.func_decl(*f).args.len() == 2) else { return perm };
    let table = &s.funcs[f.0 as usize];
    let at = |x: u32, y: u32| table[(x * n + y) as usize];
    if let Some(e) = (0..n).find(|&e| (0..n).all(|x| at(e, x) == x && at(x, e) == x)) {
        perm.swap(0, e as usize);
    }
    perm
}

/// A table as GAP lists nested once per argument, entries from `cell` (given the flat index).
fn gap_nested(s: &Structure, args: &[crate::signature::SortId], relabel: &[u32], cell: &dyn Fn(usize) -> String) -> String {
    fn go(s: &Structure, args: &[crate::signature::SortId], relabel: &[u32], cell: &dyn Fn(usize) -> String, prefix: &mut Vec<u32>) -> String {
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
