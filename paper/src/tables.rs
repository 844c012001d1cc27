//! A finite structure as LaTeX Cayley tables (booktabs): constants as `e = 0`, unary maps as a
//! two-row table, binary symbols as square tables, other arities as lists of entries. The
//! engine's `tables::cayley` writes the same tables as plain text; this is its typeset form.

use crate::escape::{math_name, math_operator};
use birkhoff_engine::structure::tuples;
use birkhoff_engine::{Signature, Structure};
use std::fmt::Write;

/// Tables wider than this many columns are listed entry by entry: a page holds about
/// 16 narrow columns.
const MAX_COLUMNS: u32 = 16;

/// The symbol as math: operators as their symbols, names upright.
fn symbol(name: &str) -> String {
    if name.chars().all(birkhoff_engine::lexer::is_op_char) {
        math_operator(name)
    } else {
        math_name(name, true)
    }
}

/// Every table of `s`, one after another, each in its own small `tabular`.
pub fn cayley(sig: &Signature, s: &Structure) -> String {
    let mut out = String::new();
    if !sig.is_single_sorted() {
        let sizes: Vec<String> = sig
            .sort_ids()
            .map(|id| {
                format!(
                    "|{}| = {}",
                    math_name(&sig.sort_decl(id).name, true),
                    s.size(id)
                )
            })
            .collect();
        let _ = writeln!(out, "Sizes: ${}$.\\par", sizes.join(",\\ "));
    }
    let mut constants = Vec::new();
    for f in sig.func_ids() {
        let d = sig.func_decl(f);
        let dims: Vec<u32> = d.args.iter().map(|a| s.size(*a)).collect();
        let cells: Vec<String> = s.funcs[f.0 as usize].iter().map(u32::to_string).collect();
        if dims.is_empty() {
            constants.push(format!(
                "{} = {}",
                symbol(&d.name),
                cells.first().map_or("?", String::as_str)
            ));
        } else {
            table(&mut out, &d.name, &s.sizes, (&dims, &d.args), &cells);
        }
    }
    for r in sig.rel_ids() {
        let d = sig.rel_decl(r);
        let dims: Vec<u32> = d.args.iter().map(|a| s.size(*a)).collect();
        let cells: Vec<String> = s.rels[r.0 as usize]
            .iter()
            .map(|&b| if b { "1" } else { "0" }.to_string())
            .collect();
        table(&mut out, &d.name, &s.sizes, (&dims, &d.args), &cells);
    }
    if !constants.is_empty() {
        let _ = writeln!(out, "\\quad ${}$", constants.join(",\\quad "));
    }
    out
}

fn table(
    out: &mut String,
    name: &str,
    all_sizes: &[u32],
    (dims, args): (&[u32], &[birkhoff_engine::SortId]),
    cells: &[String],
) {
    let sym = symbol(name);
    match dims {
        [n] if *n <= MAX_COLUMNS => {
            let head: Vec<String> = (0..*n).map(|i| i.to_string()).collect();
            let _ = writeln!(
                out,
                "\\quad\\begin{{tabular}}[t]{{c|{}}}\\toprule",
                "c".repeat(*n as usize)
            );
            let _ = writeln!(out, "$x$ & {} \\\\\\midrule", head.join(" & "));
            let _ = writeln!(
                out,
                "${sym}(x)$ & {} \\\\\\bottomrule\n\\end{{tabular}}",
                cells.join(" & ")
            );
        }
        [rows, cols] if *cols <= MAX_COLUMNS => {
            let head: Vec<String> = (0..*cols).map(|i| i.to_string()).collect();
            let _ = writeln!(
                out,
                "\\quad\\begin{{tabular}}[t]{{c|{}}}\\toprule",
                "c".repeat(*cols as usize)
            );
            let _ = writeln!(out, "${sym}$ & {} \\\\\\midrule", head.join(" & "));
            for r in 0..*rows as usize {
                let _ = writeln!(
                    out,
                    "{r} & {} \\\\",
                    cells[r * *cols as usize..(r + 1) * *cols as usize].join(" & ")
                );
            }
            let _ = writeln!(out, "\\bottomrule\n\\end{{tabular}}");
        }
        _ => {
            // Higher arities (and very wide tables) as a list of argument tuples and values.
            let entries: Vec<String> = tuples(all_sizes, args)
                .zip(cells)
                .map(|(t, v)| {
                    format!(
                        "{sym}({}) = {v}",
                        t.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "\\par\\noindent ${}$\\par",
                entries.join(",\\allowbreak\\ ")
            );
        }
    }
}
