//! Every kind of error in a theory file is reported at its `file:line:column`, with the line and
//! a caret under the offending text, and parsing goes on to report the later errors too.

use birkhoff_engine::{Error, Theory};

/// The diagnostics of `src` as `(line, column, message)`, or a panic if it parses.
fn errors(src: &str, file: &str) -> Vec<(usize, usize, String)> {
    match Theory::parse_any(src, file) {
        Ok(_) => panic!("expected errors in:\n{src}"),
        Err(Error::Source(ds)) => ds.0.iter().map(|d| (d.line, d.column, d.message.clone())).collect(),
        Err(e) => panic!("expected located diagnostics, got {e}"),
    }
}

fn has(errs: &[(usize, usize, String)], line: usize, column: usize, words: &str) {
    assert!(
        errs.iter().any(|(l, c, m)| (*l, *c) == (line, column) && m.contains(words)),
        "no error at {line}:{column} mentioning `{words}` in {errs:#?}"
    );
}

#[test]
fn syntax_errors_name_the_position() {
    let errs = errors("theory T\nfunc * : 2\naxiom a: (x * y = x\naxiom b: x * * y = x\n", "t.bk");
    assert_eq!(errs.len(), 2, "recovery resumes at the next axiom: {errs:#?}");
    has(&errs, 4, 1, "to close the `(` at line 3, column 10");
    has(&errs, 4, 14, "takes 2 arguments");
}

#[test]
fn undeclared_symbols_are_named() {
    let errs = errors("theory T\nfunc * : 2\naxiom a: g(x) * x = x\n", "t.bk");
    has(&errs, 3, 10, "undeclared function symbol `g`");
}

#[test]
fn arity_errors_say_what_was_expected() {
    let errs = errors("theory T\nfunc f : 2\nrel R : 1\naxiom a: f(x) = x\naxiom b: R(x, x)\n", "t.bk");
    has(&errs, 4, 10, "f");
    has(&errs, 5, 10, "R");
    assert!(errs.iter().all(|(_, _, m)| m.contains("argument")), "{errs:#?}");
}

#[test]
fn sort_errors_name_both_sorts() {
    let src = "theory T\nsort A, B\nfunc f : A -> B\nconst a : A\naxiom s: f(f(a)) = f(a)\n";
    let errs = errors(src, "two.bk");
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let (line, column, message) = &errs[0];
    assert_eq!((*line, *column), (5, 12), "{message}");
    assert!(message.contains('A') && message.contains('B'), "{message}");
}

#[test]
fn duplicate_declarations_are_errors() {
    let errs = errors("theory T\nfunc * : 2\nfunc * : 2\n", "t.bk");
    has(&errs, 3, 6, "declared twice");
}

#[test]
fn the_caret_sits_under_the_offending_text() {
    let err = Theory::parse("theory T\nfunc * : 2\naxiom a: x * y = zz(x)\n", "t.bk").unwrap_err().to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("t.bk:3:18: error"), "{err}");
    assert_eq!(lines[2], "3 | axiom a: x * y = zz(x)");
    assert_eq!(lines[3], "  |                  ^^", "{err}");
}

#[test]
fn ladr_and_mace4_errors_are_located_too() {
    let src = "formulas(assumptions).\nx * y = y * x.\nx * (y = z.\nend_of_list.\n";
    let errs = errors(src, "in.mace4");
    has(&errs, 3, 8, "to close the `(` at line 3, column 5, found `=`");
    let errs = errors("formulas(assumptions).\nx * y = y * x.\n", "open.mace4");
    assert!(errs.iter().any(|(_, _, m)| m.contains("end_of_list")), "{errs:#?}");
}
