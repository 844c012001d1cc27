//! Every kind of error in a theory file is reported at its `file:line:column`, with the line and
//! a caret under the offending text, and parsing goes on to report the later errors too.

use birkhoff_engine::{Error, Theory};

/// The diagnostics of `src` as `(line, column, message)`, or a panic if it parses.
fn errors(src: &str, file: &str) -> Vec<(usize, usize, String)> {
    match Theory::parse_any(src, file) {
        Ok(_) => panic!("expected errors in:\n{src}"),
        Err(Error::Source(ds)) => {
            ds.0.iter()
                .map(|d| (d.line, d.column, d.message.clone()))
                .collect()
        }
        Err(e) => panic!("expected located diagnostics, got {e}"),
    }
}

fn has(errs: &[(usize, usize, String)], line: usize, column: usize, words: &str) {
    assert!(
        errs.iter()
            .any(|(l, c, m)| (*l, *c) == (line, column) && m.contains(words)),
        "no error at {line}:{column} mentioning `{words}` in {errs:#?}"
    );
}

#[test]
fn syntax_errors_name_the_position() {
    let errs = errors(
        "theory T\nfunc * : 2\naxiom a: (x * y = x\naxiom b: x * * y = x\n",
        "t.bk",
    );
    assert_eq!(
        errs.len(),
        2,
        "recovery resumes at the next axiom: {errs:#?}"
    );
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
    let errs = errors(
        "theory T\nfunc f : 2\nrel R : 1\naxiom a: f(x) = x\naxiom b: R(x, x)\n",
        "t.bk",
    );
    has(&errs, 4, 10, "f");
    has(&errs, 5, 10, "R");
    assert!(
        errs.iter().all(|(_, _, m)| m.contains("argument")),
        "{errs:#?}"
    );
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
    let err = Theory::parse("theory T\nfunc * : 2\naxiom a: x * y = zz(x)\n", "t.bk")
        .unwrap_err()
        .to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("t.bk:3:18: error"), "{err}");
    assert_eq!(lines[2], "3 | axiom a: x * y = zz(x)");
    assert_eq!(lines[3], "  |                  ^^", "{err}");
}

#[test]
fn ladr_and_mace4_errors_are_located_too() {
    let src = "formulas(assumptions).\nx * y = y * x.\nx * (y = z.\nend_of_list.\n";
    let errs = errors(src, "in.mace4");
    has(
        &errs,
        3,
        8,
        "to close the `(` at line 3, column 5, found `=`",
    );
    let errs = errors("formulas(assumptions).\nx * y = y * x.\n", "open.mace4");
    assert!(
        errs.iter().any(|(_, _, m)| m.contains("end_of_list")),
        "{errs:#?}"
    );
}

#[test]
fn arity_and_sort_count_are_capped_on_every_path() {
    // An explicit sort profile counts like an arity: 22 argument sorts are refused where the 17th is.
    let profile = vec!["A"; 22].join(" ");
    let errs = errors(&format!("theory T\nsort A\nrel R : {profile}\n"), "t.bk");
    has(&errs, 3, 41, "too many argument sorts (at most 16)");
    // A use of the refused relation points back at its declaration: it is not "undeclared", and
    // nothing suggests declaring it as a function or with an arity over the cap.
    let args = vec!["x"; 22].join(",");
    let errs = errors(&format!("theory T\nsort A\nrel R : {profile}\naxiom r: R({args})\nconst c : B\naxiom s: c = c\n"), "t.bk");
    has(
        &errs,
        4,
        10,
        "`R` is used here, but its declaration has an error",
    );
    has(
        &errs,
        6,
        10,
        "`c` is used here, but its declaration has an error",
    );
    assert!(
        !errs
            .iter()
            .any(|(_, _, m)| m.contains("undeclared function")
                || m.contains("undeclared symbol")
                || m.contains("func R")),
        "{errs:#?}"
    );
    // A symbol that was never declared, applied to more arguments than the cap, says so.
    let errs = errors(&format!("theory T\nsort A\naxiom r: Q({args})\n"), "t.bk");
    has(
        &errs,
        3,
        10,
        "undeclared function symbol `Q`, applied to 22 arguments (a symbol takes at most 16)",
    );
    let errs = errors("theory T\nfunc f : 17\n", "t.bk");
    has(&errs, 2, 10, "at most 16");
    let sorts: Vec<String> = (0..17).map(|i| format!("S{i}")).collect();
    let errs = errors(&format!("theory T\nsort {}\n", sorts.join(", ")), "t.bk");
    has(&errs, 2, 76, "too many sorts (at most 16)");
    // A Mace4 file infers arities from use, and the same cap holds.
    let args = vec!["x"; 17].join(",");
    let errs = errors(
        &format!("formulas(assumptions).\nf({args}) = x.\nend_of_list.\n"),
        "t.in",
    );
    assert!(
        errs.iter().any(|(_, _, m)| m.contains("at most 16")),
        "{errs:#?}"
    );
}

#[test]
fn a_mace4_file_never_declares_a_symbol_twice() {
    // `f` is first met inside its own arguments; it was declared a second time at the top.
    let t = Theory::parse_any(
        "formulas(assumptions).\n  f(f(x,x),f(x,x)) = x.\nend_of_list.\n",
        "t.in",
    )
    .unwrap();
    assert_eq!(t.sig.funcs.len(), 1, "{}", t.to_text());
    // Used as a function inside and as a relation outside: an error, not two symbols.
    let errs = errors("formulas(assumptions).\n  P(P(x)).\nend_of_list.\n", "t.in");
    has(
        &errs,
        2,
        3,
        "used as a function inside its own arguments and as a relation",
    );
    // A declared list naming a symbol twice (a ground-truth row) is refused too.
    assert!(
        birkhoff_engine::parse::theory_from_ladr_row("r", "f/2; f/1", "", "f(x,x) = x.").is_err()
    );
}

#[test]
fn ladr_postfix_prime_and_minus_read_as_ladr_reads_them() {
    let t = Theory::parse_any(
        "formulas(assumptions).\n  x'' = x.\n  (x * y)' = x' * y'.\n  -x' = x.\nend_of_list.\n",
        "t.in",
    )
    .unwrap();
    let text = t.to_text();
    assert!(text.contains("prime(prime(x)) = x"), "{text}");
    assert!(
        text.contains("prime(x * y) = prime(x) * prime(y)"),
        "{text}"
    );
    // `-` binds tighter than `=` and looser than `'`: an equation, not a negation.
    assert!(text.contains("-prime(x) = x"), "{text}");
    // A name `prime` of the file's own stays its own.
    let t = Theory::parse_any(
        "formulas(assumptions).\n  prime(x') = x.\nend_of_list.\n",
        "t.in",
    )
    .unwrap();
    assert_eq!(t.sig.funcs.len(), 2, "{}", t.to_text());
    // One variable per LADR quantifier, and the body needs no brackets, as Prover9 reads it.
    let t = Theory::parse_any(
        "formulas(assumptions).\n  exists x exists y x*y != y*x.\n  all x all y all z x*(y*z) = (x*y)*z.\nend_of_list.\n",
        "t.in",
    )
    .unwrap();
    let text = t.to_text();
    assert!(text.contains("exists x y. x * y != y * x"), "{text}");
    assert_eq!(t.axioms[1].vars.len(), 3, "{text}");
    // Birkhoff's own format keeps primes in variable names: `x'` and `x` are two variables.
    let t = Theory::parse_any("theory T\nfunc * : 2\naxiom a: x' * x = x\n", "t.bk").unwrap();
    assert_eq!(t.axioms[0].vars.len(), 2);
}
