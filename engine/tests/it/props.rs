//! Property tests of the engine's text formats.
//!
//! * The parsers (Birkhoff's format, Mace4 input files, LADR rows) never panic, whatever the input:
//!   random text, token soup, mutated seeds and Mace4 files, and very deeply nested input. Every
//!   diagnostic they report points into the text, and every theory they accept prints and parses back.
//! * Printing a random theory (several sorts, constants, infix and prefix symbols of all fixities,
//!   relations, every connective, quantifiers, shadowing) and parsing it back gives the same theory.
//! * Fingerprints ignore variable names, axiom order and duplicate axioms, and see changed axioms.
//! * Canonical forms are equal exactly when a brute-force search finds a renaming of sorts and
//!   symbols that maps one theory's axioms onto the other's.

use birkhoff_engine::canon::{
    canonical_form, encode_axiom, find_axiom, IdentityRenaming, Renaming,
};
use birkhoff_engine::error::{Diagnostic, Error, SHOWN_CHARS};
use birkhoff_engine::fingerprint::canonical_axiom;
use birkhoff_engine::ground_truth;
use birkhoff_engine::parse::{parse_ladr_problem, theory_from_ladr_row};
use birkhoff_engine::signature::{
    default_binary_fixity, Assoc, Fixity, FuncDecl, RelDecl, SortDecl,
};
use birkhoff_engine::syntax::VarDecl;
use birkhoff_engine::{
    seeds, Axiom, Formula, FuncId, RelId, Signature, SortId, Term, Theory, VarId,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

/// Bounded case counts keep the file fast (set `PROPTEST_CASES` to search longer); failures are
/// not written into the source tree.
fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() {
        default.cases
    } else {
        cases
    };
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..default
    }
}

// ---------------------------------------------------------------------------------------------
// Corpora
// ---------------------------------------------------------------------------------------------

/// A Mace4 input file using the features Birkhoff reads: comments, commands, labels, a goal.
const MACE4_SAMPLE: &str = "% Groups, as in the Mace4 manual.
op(400, infix, \"*\").
assign(domain_size, 4).
assign(max_models, -1).
set(arithmetic).
clear(print_models).

formulas(assumptions).
  (x * y) * z = x * (y * z)   # label(assoc).
  e * x = x                   # label(left_identity).
  inv(x) * x = e.
  all x exists y (y * x = e).
  R(x, y) | -R(y, x).
  x != e -> x * x != x.
  $T.
end_of_list.

formulas(goals).
  x * y = y * x.
end_of_list.
";

/// One row of the ground-truth table per theory (the first, at its smallest size).
fn ground_truth_rows() -> &'static [ground_truth::Row] {
    static ROWS: OnceLock<Vec<ground_truth::Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut seen = BTreeSet::new();
        ground_truth::rows()
            .into_iter()
            .filter(|r| seen.insert(r.theory.clone()))
            .collect()
    })
}

/// Valid inputs to mutate: every seed, a Mace4 file per ground-truth row, and the Mace4 sample.
fn corpus() -> &'static [String] {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut c: Vec<String> = seeds::all().iter().map(|s| s.source.to_string()).collect();
        for r in ground_truth_rows() {
            c.push(format!(
                "formulas(assumptions).\n  {}\nend_of_list.\n",
                r.axioms.replace(". ", ".\n  ")
            ));
        }
        c.push(MACE4_SAMPLE.to_string());
        c
    })
}

fn seed_theories() -> &'static [Theory] {
    static SEEDS: OnceLock<Vec<Theory>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        seeds::all()
            .iter()
            .map(|s| seeds::load(s.name).unwrap_or_else(|e| panic!("seed {}: {e}", s.name)))
            .collect()
    })
}

/// Pieces of both formats, for token soup and for mutations.
const TOKENS: &[&str] = &[
    "theory",
    "doc",
    "meta",
    "sort",
    "sorts",
    "func",
    "const",
    "rel",
    "axiom",
    "infix",
    "prefix",
    "left",
    "right",
    "none",
    "all",
    "exists",
    "true",
    "false",
    "$T",
    "$F",
    "$",
    "x",
    "y",
    "z'",
    "a_2",
    "u",
    "e",
    "inv",
    "f",
    "U",
    "A",
    "B",
    "*",
    "+",
    "-",
    "/",
    "\\",
    "^",
    "v",
    "·",
    "∘",
    "<=",
    "<",
    "=",
    "!=",
    "≠",
    "~",
    "¬",
    "&",
    "|",
    "∧",
    "∨",
    "->",
    "→",
    "<->",
    "↔",
    "∀",
    "∃",
    "(",
    ")",
    ",",
    ":",
    ".",
    "\"",
    "\"\"\"",
    "\"text\"",
    "#",
    "%",
    "\n",
    " ",
    "\t",
    "0",
    "2",
    "60",
    "250",
    "251",
    "99999999999999999999",
    "formulas(assumptions).",
    "formulas(goals).",
    "formulas(sos).",
    "formulas(hints).",
    "end_of_list.",
    "op(",
    "assign(",
    "set(",
    "clear(",
    "# label(",
    "label(",
    "[",
    "]",
    "{",
    "}",
    ";",
    "'",
    "_",
    "é",
    "λ",
    "\r\n",
    "\r",
    "\u{0}",
    "\u{feff}",
    "\u{2028}",
];

// ---------------------------------------------------------------------------------------------
// Running every parser and checking what it says
// ---------------------------------------------------------------------------------------------

/// Checks that a diagnostic points into `src`: its line exists, it shows that line, its column is
/// on it, and its display puts the caret under that column.
fn check_diagnostic(src: &str, d: &Diagnostic) {
    let lines: Vec<&str> = src.split('\n').collect();
    assert!(
        d.line >= 1 && d.line <= lines.len(),
        "line {} of {} lines: {d}",
        d.line,
        lines.len()
    );
    let raw = lines[d.line - 1];
    // As `str::lines` does, a `\r` before the line's `\n` is not shown.
    let shown_line = if d.line < lines.len() {
        raw.strip_suffix('\r').unwrap_or(raw)
    } else {
        raw
    };
    assert!(
        d.column >= 1 && d.column <= raw.chars().count() + 1,
        "column {} of a line of {} characters",
        d.column,
        raw.chars().count()
    );
    if shown_line.chars().count() <= SHOWN_CHARS {
        assert_eq!(d.line_text, shown_line, "the diagnostic shows its own line");
        assert_eq!(d.caret, d.column - 1);
    } else {
        // A long line is cut around the column: a piece of it, marked where cut, with the
        // column's character under the caret.
        let piece = d.line_text.trim_start_matches('…').trim_end_matches('…');
        assert!(
            piece.chars().count() <= SHOWN_CHARS && shown_line.contains(piece),
            "{:?} is not a piece of the line",
            d.line_text
        );
        let under = d.line_text.chars().nth(d.caret);
        assert_eq!(
            under,
            shown_line
                .chars()
                .nth(d.column - 1)
                .or(under.filter(|&c| c == '…')),
            "the caret's character in {:?}",
            d.line_text
        );
    }
    assert!(d.width >= 1);
    let shown = d.to_string();
    let head = format!("{}:{}:{}: error: ", d.file, d.line, d.column);
    assert!(shown.starts_with(&head), "{shown:?} starts with {head:?}");
    let caret_line = shown.rsplit('\n').next().unwrap();
    let prefix = format!("{} | ", " ".repeat(d.line.to_string().len()));
    let marks = caret_line
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("caret line {caret_line:?}"));
    let indent: String = marks.chars().take_while(|&c| c != '^').collect();
    assert!(
        indent.chars().all(|c| c == ' ' || c == '\t'),
        "{caret_line:?}"
    );
    assert_eq!(
        indent.chars().count(),
        d.caret.min(d.line_text.chars().count()),
        "the caret sits under column {}:\n{shown}",
        d.column
    );
    assert_eq!(&marks[indent.len()..], "^".repeat(d.width), "{shown}");
}

/// Words that cannot name a symbol in Birkhoff's format.
const KEYWORDS: &[&str] = &[
    "theory", "doc", "meta", "sort", "sorts", "func", "const", "rel", "axiom", "all", "exists",
    "true", "false", "$T", "$F", "infix", "prefix",
];

/// Birkhoff's rule for an undeclared name that is a variable: one letter, then optionally digits,
/// primes or an `_` suffix.
fn looks_like_variable(name: &str) -> bool {
    let mut cs = name.chars();
    cs.next().is_some_and(char::is_alphabetic)
        && cs
            .as_str()
            .chars()
            .next()
            .is_none_or(|c| c.is_ascii_digit() || c == '\'' || c == '_')
}

/// Every parser on `src`: each may fail, none may panic; their diagnostics point into the text,
/// and a theory read from Birkhoff's format prints and parses back to itself.
fn parse_all_ways(src: &str) {
    let check = |r: Result<Theory, Error>, round_trip: bool| match r {
        Ok(t) => {
            let text = t.to_text();
            let _ = t.fingerprint();
            // LADR variables such as `xe` (or `v`, also a symbol) and symbols such as `axiom` have no spelling in Birkhoff's
            // format (a known limit of printing a Mace4 input), so those theories need not read back.
            let printable = t.axioms.iter().all(|a| {
                a.vars
                    .iter()
                    .all(|v| looks_like_variable(&v.name) && !t.sig.has_symbol(&v.name))
            }) && t
                .sig
                .funcs
                .iter()
                .map(|f| &f.name)
                .chain(t.sig.rels.iter().map(|r| &r.name))
                .all(|n| !KEYWORDS.contains(&n.as_str()));
            if round_trip && printable {
                let back = Theory::parse(&text, "printed.bk").unwrap_or_else(|e| panic!("input {src:?}\nwas read as a theory printed as\n{text}\nwhich does not parse: {e}"));
                assert_eq!(back, t, "input {src:?} printed as\n{text}");
            }
        }
        Err(Error::Source(ds)) => {
            assert!(!ds.0.is_empty(), "an error with no diagnostics");
            for d in &ds.0 {
                check_diagnostic(src, d);
            }
        }
        Err(e) => panic!("only located errors are expected from a parser, got {e}"),
    };
    check(Theory::parse(src, "fuzz.bk"), true);
    check(Theory::parse_any(src, "fuzz.in"), true);
    check(parse_ladr_problem(src, "fuzz.in").map(|(t, _)| t), true);
    check(
        theory_from_ladr_row("fuzz", "*/2; inv/1; e/0; -/1", "le/2; P/0", src),
        false,
    );
}

// ---------------------------------------------------------------------------------------------
// Mutations
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, text: String },
    Replace { at: usize, len: usize, text: String },
    DeleteWord(usize),
    DuplicateWord(usize),
    SwapWords(usize, usize),
    ReplaceWord(usize, String),
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Byte spans of the whitespace-separated words of `s`.
fn words(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
        match (c.is_whitespace(), start) {
            (true, Some(st)) => {
                out.push((st, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

impl Mutation {
    fn apply(&self, s: &mut String) {
        let range = |s: &str, at: usize, len: usize| {
            let a = floor_boundary(s, at % (s.len() + 1));
            (a, floor_boundary(s, a.saturating_add(len)))
        };
        let word = |s: &str, i: usize| {
            let w = words(s);
            (!w.is_empty()).then(|| w[i % w.len()])
        };
        match self {
            Mutation::Delete { at, len } => {
                let (a, b) = range(s, *at, *len);
                s.replace_range(a..b, "");
            }
            Mutation::Insert { at, text } => {
                let (a, _) = range(s, *at, 0);
                s.insert_str(a, text);
            }
            Mutation::Replace { at, len, text } => {
                let (a, b) = range(s, *at, *len);
                s.replace_range(a..b, text);
            }
            Mutation::DeleteWord(i) => {
                if let Some((a, b)) = word(s, *i) {
                    s.replace_range(a..b, "");
                }
            }
            Mutation::DuplicateWord(i) => {
                if let Some((a, b)) = word(s, *i) {
                    let w = s[a..b].to_string();
                    s.insert_str(b, &format!(" {w}"));
                }
            }
            Mutation::SwapWords(i, j) => {
                let w = words(s);
                if w.len() >= 2 {
                    let (x, y) = (w[i % w.len()], w[j % w.len()]);
                    let (first, second) = if x.0 <= y.0 { (x, y) } else { (y, x) };
                    if first != second {
                        let (t1, t2) = (
                            s[first.0..first.1].to_string(),
                            s[second.0..second.1].to_string(),
                        );
                        s.replace_range(second.0..second.1, &t1);
                        s.replace_range(first.0..first.1, &t2);
                    }
                }
            }
            Mutation::ReplaceWord(i, text) => {
                if let Some((a, b)) = word(s, *i) {
                    s.replace_range(a..b, text);
                }
            }
        }
    }
}

fn snippet() -> impl Strategy<Value = String> {
    prop_oneof![3 => select(TOKENS).prop_map(String::from), 1 => "\\PC{0,6}", 1 => ".{0,3}"]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..24usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), snippet()).prop_map(|(at, text)| Mutation::Insert { at, text }),
        (any::<usize>(), 1..8usize, snippet()).prop_map(|(at, len, text)| Mutation::Replace {
            at,
            len,
            text
        }),
        any::<usize>().prop_map(Mutation::DeleteWord),
        any::<usize>().prop_map(Mutation::DuplicateWord),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapWords(i, j)),
        (any::<usize>(), snippet()).prop_map(|(i, t)| Mutation::ReplaceWord(i, t)),
    ]
}

fn token_soup() -> impl Strategy<Value = String> {
    vec((select(TOKENS), select(&["", " ", " ", "\n"][..])), 0..60)
        .prop_map(|ts| ts.into_iter().flat_map(|(t, sep)| [t, sep]).collect())
}

/// A line too long to show whole (a generated file's) is shown cut around the error, at the
/// start, middle and end of the line, by every parser; its location stays exact.
#[test]
fn a_long_line_is_shown_cut_around_the_error() {
    let long = "f(x) = x & ".repeat(100);
    let name = "q".repeat(5000);
    for src in [
        format!("theory T\nfunc f : 1\naxiom a: f({name}) = x\n"),
        format!("theory T\nfunc f : 1\naxiom a: @ {long}f(x) = x\n"),
        format!("theory T\nfunc f : 1\naxiom a: {long}@ f(x) = x\n"),
        format!("theory T\nfunc f : 1\naxiom a: {long}f(x) = x @"),
        format!("f(x) = x & {long}@ & f(x) = x."),
    ] {
        parse_all_ways(&src);
        let Err(Error::Source(ds)) = Theory::parse_any(&src, "long.bk") else {
            panic!("no error in {src}")
        };
        let shown = ds.to_string();
        assert!(
            shown.lines().all(|l| l.chars().count() <= SHOWN_CHARS + 40),
            "{shown}"
        );
        assert!(ds.0.iter().any(|d| d.line_text.contains('…')), "{shown}");
        assert!(shown.len() < 2_000, "{shown}");
    }
}

#[test]
fn every_corpus_entry_parses_unmutated() {
    for (i, src) in corpus().iter().enumerate() {
        Theory::parse_any(src, "corpus.in")
            .unwrap_or_else(|e| panic!("corpus entry {i}:\n{src}\n{e}"));
        parse_all_ways(src);
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn parsers_survive_random_text(src in prop_oneof!["\\PC{0,200}", ".{0,100}", vec(any::<u8>(), 0..200).prop_map(|b| String::from_utf8_lossy(&b).into_owned())]) {
        parse_all_ways(&src);
    }

    #[test]
    fn parsers_survive_token_soup(src in token_soup()) {
        parse_all_ways(&src);
    }

    #[test]
    fn parsers_survive_token_soup_after_a_header(body in token_soup(), mace4 in any::<bool>()) {
        let src = if mace4 { format!("formulas(assumptions).\n{body}\nend_of_list.\n") } else { format!("theory T\nfunc * : 2\nconst e\nrel le : 2\naxiom a: {body}") };
        parse_all_ways(&src);
    }
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn parsers_survive_mutated_seeds_and_mace4_files(which in any::<prop::sample::Index>(), mutations in vec(mutation(), 1..6)) {
        let mut src = which.get(corpus()).clone();
        for m in &mutations {
            m.apply(&mut src);
        }
        parse_all_ways(&src);
    }
}

// ---------------------------------------------------------------------------------------------
// Deep nesting
// ---------------------------------------------------------------------------------------------

/// Inputs nested far deeper than anyone writes: each must give an error (or a theory), not overflow the stack.
#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 10_000;
    let native = |body: String| {
        format!("theory Deep\nfunc * : 2\nfunc - : 1\nfunc f : 1\nconst e\nrel le : 2\naxiom deep: {body}\n")
    };
    let mace4 = |body: String| format!("formulas(assumptions).\n{body}.\nend_of_list.\n");
    let bodies = [
        "(".repeat(n),
        format!("{}x = x{}", "(".repeat(n), ")".repeat(n)),
        format!("x = {}x{}", "(".repeat(n), ")".repeat(n)),
        format!("{}x = x", "~".repeat(n)),
        format!("{}x = x", "~(".repeat(n)),
        format!("{}x = x", "all x. ".repeat(n)),
        format!("{}x = x", "exists x ".repeat(n)),
        format!("{}x = x", "x = x -> ".repeat(n)),
        format!("{}x = x", "x = x <-> (".repeat(n)),
        format!("{}x = x", "x = x & ".repeat(n)),
        format!("{}x = x", "x = x | ".repeat(n)),
        format!("x = {}x", "-".repeat(n)),
        format!("x = {}x", "x * ".repeat(n)),
        format!("x = {}x{}", "x * (".repeat(n), ")".repeat(n)),
        format!("x = {}x{}", "f(".repeat(n), ")".repeat(n)),
        format!("le({}x{}, x)", "f(".repeat(n), ")".repeat(n)),
        format!("x = {}", "f(".repeat(n)),
    ];
    for body in &bodies {
        for src in [native(body.clone()), mace4(body.clone())] {
            parse_all_ways(&src);
            if let Err(Error::Source(ds)) = Theory::parse_any(&src, "deep.bk") {
                assert!(!ds.0.is_empty());
            }
        }
    }
    // Commands and attributes of Mace4 files, and the item level, are read without recursion.
    for src in [
        format!(
            "op({}.\nformulas(assumptions).\nx = x.\nend_of_list.\n",
            "(".repeat(n)
        ),
        format!(
            "formulas(assumptions).\nx = x # label({}.\nend_of_list.\n",
            "(".repeat(n)
        ),
        format!("theory T\n{}", "axiom: x = x\n".repeat(2_000)),
        format!("theory T\n{}", ")".repeat(n)),
    ] {
        parse_all_ways(&src);
    }
    // The limit names the place it is reached.
    let err = Theory::parse(&native(format!("{}x = x", "~".repeat(n))), "deep.bk")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("deep.bk:7:212: error: nested more than 200 levels deep"),
        "{}",
        err.lines().next().unwrap()
    );
}

/// Nesting and chains well within the limit parse, print and parse back.
#[test]
fn moderate_nesting_round_trips() {
    let n = 60;
    for body in [
        format!("{}x = x{}", "(".repeat(n), ")".repeat(n)),
        format!("x = {}x{}", "f(".repeat(n), ")".repeat(n)),
        format!("{}x = x", "~".repeat(n)),
        format!("{}x = x", "x = x -> ".repeat(n)),
        format!("{}x = x", "x = x & ".repeat(150)),
        format!("x = {}x", "x * ".repeat(150)),
        format!("x = {}x", "-".repeat(n)),
    ] {
        let src = format!("theory T\nfunc * : 2\nfunc - : 1\nfunc f : 1\naxiom a: {body}\n");
        let t = Theory::parse(&src, "t.bk").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Theory::parse(&t.to_text(), "printed.bk").unwrap(), t);
    }
}

// ---------------------------------------------------------------------------------------------
// Random theories
// ---------------------------------------------------------------------------------------------

/// The generator's source of choices. Proptest draws the tape; an exhausted tape reads as zeros,
/// and choice 0 is always the simplest option, so shrinking the tape shrinks the theory.
struct Tape<'a> {
    data: &'a [u32],
    pos: usize,
}

impl Tape<'_> {
    fn pick(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let v = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        v as usize % n
    }

    fn one_of<'x>(&mut self, xs: &[&'x str]) -> &'x str {
        xs[self.pick(xs.len())]
    }
}

const CONSTANTS: &[&str] = &["e", "c0", "one", "bot", "k_1"];
const UNARY: &[&str] = &["inv", "g", "neg", "s'"];
const SYMBOLIC_UNARY: &[&str] = &["-", "!"];
const SYMBOLIC_BINARY: &[&str] = &[
    "*", "+", "/", "\\", "·", "∘", "⊕", "@", "**", "^", "-", "<>",
];
const ALNUM_BINARY: &[&str] = &["mul", "h", "meet", "v", "pair"];
const TERNARY: &[&str] = &["t3", "maj"];
const SYMBOLIC_RELATIONS: &[&str] = &["<=", "<", "≤", "⊆", "~~"];
const ALNUM_RELATIONS: &[&str] = &["le", "R", "E2", "Q", "P", "flag"];
/// Variable names: none is a symbol name above.
const VAR_NAMES: &[&str] = &["x", "y", "z", "u", "w", "x1", "y2", "z'", "w_1", "a", "b'"];

fn gen_fixity(t: &mut Tape, name: &str) -> Fixity {
    match t.pick(4) {
        0 => default_binary_fixity(name),
        1 => Fixity::Prefix,
        _ => Fixity::Infix {
            prec: [35, 40, 50, 60, 70, 1, 250][t.pick(7)],
            assoc: [Assoc::Left, Assoc::Right, Assoc::None][t.pick(3)],
        },
    }
}

fn gen_signature(t: &mut Tape) -> Signature {
    let nsorts = 1 + t.pick(3);
    let sort_names: Vec<&str> = match nsorts {
        1 => vec![t.one_of(&["U", "S"])],
        n => [&["A", "B", "C"][..], &["Obj", "Arr", "Val"][..]][t.pick(2)][..n].to_vec(),
    };
    let mut sig = Signature {
        sorts: sort_names
            .iter()
            .map(|n| SortDecl {
                name: n.to_string(),
            })
            .collect(),
        ..Default::default()
    };
    let sort = |t: &mut Tape| SortId(t.pick(nsorts) as u32);
    for _ in 0..1 + t.pick(6) {
        let arity = [0, 2, 1, 2, 3][t.pick(5)];
        let name = match arity {
            0 => t.one_of(CONSTANTS),
            1 if t.pick(3) == 1 => t.one_of(SYMBOLIC_UNARY),
            1 => t.one_of(UNARY),
            2 if t.pick(3) != 1 => t.one_of(SYMBOLIC_BINARY),
            2 => t.one_of(ALNUM_BINARY),
            _ => t.one_of(TERNARY),
        };
        if sig.has_symbol(name) {
            continue;
        }
        let args: Vec<SortId> = (0..arity).map(|_| sort(t)).collect();
        let result = sort(t);
        let fixity = if arity == 2 {
            gen_fixity(t, name)
        } else {
            Fixity::Prefix
        };
        sig.funcs.push(FuncDecl {
            name: name.to_string(),
            args,
            result,
            fixity,
        });
    }
    for _ in 0..t.pick(4) {
        let arity = t.pick(4);
        let name = if arity == 2 && t.pick(2) == 0 {
            t.one_of(SYMBOLIC_RELATIONS)
        } else {
            t.one_of(ALNUM_RELATIONS)
        };
        if sig.has_symbol(name) {
            continue;
        }
        let args: Vec<SortId> = (0..arity).map(|_| sort(t)).collect();
        let fixity = if arity == 2 {
            gen_fixity(t, name)
        } else {
            Fixity::Prefix
        };
        sig.rels.push(RelDecl {
            name: name.to_string(),
            args,
            fixity,
        });
    }
    sig
}

/// Builds one axiom's formula. Variable ids are provisional (one per binder and per free name);
/// [`renumber`] then numbers them in the order the parser meets them.
struct FormulaGen<'s, 't, 'd> {
    sig: &'s Signature,
    t: &'t mut Tape<'d>,
    vars: Vec<VarDecl>,
    /// Binders in scope, innermost last.
    bound: Vec<(String, VarId)>,
    free: Vec<(String, VarId)>,
}

impl FormulaGen<'_, '_, '_> {
    /// What each name in use denotes here: the innermost binder, else the free variable.
    fn visible(&self) -> Vec<VarId> {
        let mut names: Vec<&str> = self
            .bound
            .iter()
            .chain(&self.free)
            .map(|(n, _)| n.as_str())
            .collect();
        names.sort();
        names.dedup();
        names
            .iter()
            .map(|n| {
                self.bound
                    .iter()
                    .rev()
                    .chain(&self.free)
                    .find(|(m, _)| m == n)
                    .unwrap()
                    .1
            })
            .collect()
    }

    fn new_var(&mut self, name: String, sort: SortId) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(VarDecl { name, sort });
        id
    }

    fn var(&mut self, sort: SortId) -> VarId {
        let cands: Vec<VarId> = self
            .visible()
            .into_iter()
            .filter(|v| self.vars[v.0 as usize].sort == sort)
            .collect();
        let k = self.t.pick(cands.len() + 1);
        if k < cands.len() {
            return cands[k];
        }
        let taken = |n: &str| self.bound.iter().chain(&self.free).any(|(m, _)| m == n);
        let fresh: Vec<&str> = VAR_NAMES.iter().copied().filter(|n| !taken(n)).collect();
        let name = if fresh.is_empty() {
            format!("x{}", 100 + self.vars.len())
        } else {
            fresh[self.t.pick(fresh.len())].to_string()
        };
        let id = self.new_var(name.clone(), sort);
        self.free.push((name, id));
        id
    }

    fn term(&mut self, sort: SortId, depth: usize) -> Term {
        let sig = self.sig;
        let fs: Vec<FuncId> = sig
            .func_ids()
            .filter(|&f| {
                sig.func_decl(f).result == sort && (depth > 0 || sig.func_decl(f).args.is_empty())
            })
            .collect();
        let k = self.t.pick(fs.len() + 1);
        if k == 0 {
            return Term::Var(self.var(sort));
        }
        let f = fs[k - 1];
        let args = sig
            .func_decl(f)
            .args
            .iter()
            .map(|&s| self.term(s, depth.saturating_sub(1)))
            .collect();
        Term::App(f, args)
    }

    fn formula(&mut self, depth: usize) -> Formula {
        let sig = self.sig;
        let sort = |g: &mut Self| SortId(g.t.pick(sig.sorts.len()) as u32);
        let tdepth = 1 + self.t.pick(3);
        let k = if depth == 0 {
            self.t.pick(4)
        } else {
            self.t.pick(13)
        };
        let sub = |g: &mut Self| Box::new(g.formula(depth - 1));
        match k {
            0 | 11 => {
                let s = sort(self);
                Formula::Eq(self.term(s, tdepth), self.term(s, tdepth))
            }
            1 | 12 if !sig.rels.is_empty() => {
                let r = birkhoff_engine::RelId(self.t.pick(sig.rels.len()) as u32);
                let args = sig
                    .rel_decl(r)
                    .args
                    .iter()
                    .map(|&s| self.term(s, tdepth))
                    .collect();
                Formula::Rel(r, args)
            }
            1 | 12 => Formula::True,
            2 => [Formula::True, Formula::False][self.t.pick(2)].clone(),
            3 => {
                let s = sort(self);
                Formula::not(Formula::Eq(self.term(s, tdepth), self.term(s, tdepth)))
            }
            4 => Formula::Not(sub(self)),
            5 => Formula::And(sub(self), sub(self)),
            6 => Formula::Or(sub(self), sub(self)),
            7 => Formula::Implies(sub(self), sub(self)),
            8 => Formula::Iff(sub(self), sub(self)),
            _ => {
                let mut ids = Vec::new();
                let mut names: Vec<&str> = Vec::new();
                for _ in 0..1 + self.t.pick(3) {
                    let fresh: Vec<&str> = VAR_NAMES
                        .iter()
                        .copied()
                        .filter(|n| !names.contains(n))
                        .collect();
                    let name = fresh[self.t.pick(fresh.len())];
                    names.push(name);
                    let s = sort(self);
                    ids.push(self.new_var(name.to_string(), s));
                }
                let depth_before = self.bound.len();
                self.bound
                    .extend(names.iter().map(|n| n.to_string()).zip(ids.iter().copied()));
                let body = sub(self);
                self.bound.truncate(depth_before);
                if k == 9 || k == 10 {
                    Formula::Forall(ids, body)
                } else {
                    Formula::Exists(ids, body)
                }
            }
        }
    }
}

/// Calls `f` on every binder list and variable occurrence, in the order they are written.
fn walk_vars(f: &Formula, visit: &mut impl FnMut(VarId)) {
    fn term(t: &Term, visit: &mut impl FnMut(VarId)) {
        t.for_each_var(visit)
    }
    match f {
        Formula::True | Formula::False => {}
        Formula::Eq(a, b) => {
            term(a, visit);
            term(b, visit)
        }
        Formula::Rel(_, args) => args.iter().for_each(|a| term(a, visit)),
        Formula::Not(g) => walk_vars(g, visit),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            walk_vars(a, visit);
            walk_vars(b, visit)
        }
        Formula::Forall(vs, g) | Formula::Exists(vs, g) => {
            vs.iter().for_each(|v| visit(*v));
            walk_vars(g, visit)
        }
    }
}

/// The formula with every variable id replaced by `map(id)`.
fn map_vars(f: &Formula, map: &impl Fn(VarId) -> VarId) -> Formula {
    map_ids(f, map, &|g| g, &|r| r)
}

/// `f` with every variable, function symbol and relation symbol replaced by its image.
fn map_ids(
    f: &Formula,
    var: &impl Fn(VarId) -> VarId,
    func: &impl Fn(FuncId) -> FuncId,
    rel: &impl Fn(RelId) -> RelId,
) -> Formula {
    let term = |t: &Term| map_term(t, var, func);
    let b = |g: &Formula| Box::new(map_ids(g, var, func, rel));
    match f {
        Formula::Eq(x, y) => Formula::Eq(term(x), term(y)),
        Formula::Rel(r, args) => Formula::Rel(rel(*r), args.iter().map(term).collect()),
        Formula::Forall(vs, g) => Formula::Forall(vs.iter().map(|v| var(*v)).collect(), b(g)),
        Formula::Exists(vs, g) => Formula::Exists(vs.iter().map(|v| var(*v)).collect(), b(g)),
        _ => f.map_subformulas(|g| map_ids(g, var, func, rel)),
    }
}

fn map_term(t: &Term, var: &impl Fn(VarId) -> VarId, func: &impl Fn(FuncId) -> FuncId) -> Term {
    match t {
        Term::Var(v) => Term::Var(var(*v)),
        Term::App(f, args) => Term::App(
            func(*f),
            args.iter().map(|a| map_term(a, var, func)).collect(),
        ),
    }
}

/// Numbers the variables in the order they are written, as the parser does.
fn renumber(f: &Formula, vars: &[VarDecl]) -> (Formula, Vec<VarDecl>) {
    let mut order: Vec<VarId> = Vec::new();
    walk_vars(f, &mut |v| {
        if !order.contains(&v) {
            order.push(v)
        }
    });
    let index: HashMap<VarId, VarId> = order
        .iter()
        .enumerate()
        .map(|(i, v)| (*v, VarId(i as u32)))
        .collect();
    (
        map_vars(f, &|v| index[&v]),
        order.iter().map(|v| vars[v.0 as usize].clone()).collect(),
    )
}

/// Free variables whose sort the parser cannot infer: those never an argument of a symbol, nor
/// equated (perhaps through other variables) with a term of known sort. Bound ones carry their sort.
fn loose_free_vars(axiom: &Axiom) -> Vec<VarId> {
    let free = axiom.free_vars();
    let mut known: BTreeSet<VarId> = (0..axiom.vars.len() as u32)
        .map(VarId)
        .filter(|v| !free.contains(v))
        .collect();
    let mut links = Vec::new();
    fn anchor_args(t: &Term, known: &mut BTreeSet<VarId>) {
        if let Term::App(_, args) = t {
            for a in args {
                if let Term::Var(v) = a {
                    known.insert(*v);
                }
                anchor_args(a, known);
            }
        }
    }
    fn scan(f: &Formula, known: &mut BTreeSet<VarId>, links: &mut Vec<(VarId, VarId)>) {
        match f {
            Formula::Eq(a, b) => {
                anchor_args(a, known);
                anchor_args(b, known);
                match (a, b) {
                    (Term::Var(x), Term::Var(y)) => links.push((*x, *y)),
                    (Term::Var(x), _) | (_, Term::Var(x)) => {
                        known.insert(*x);
                    }
                    _ => {}
                }
            }
            Formula::Rel(_, args) => {
                for a in args {
                    if let Term::Var(v) = a {
                        known.insert(*v);
                    }
                    anchor_args(a, known);
                }
            }
            Formula::True | Formula::False => {}
            Formula::Not(g) | Formula::Forall(_, g) | Formula::Exists(_, g) => {
                scan(g, known, links)
            }
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => {
                scan(a, known, links);
                scan(b, known, links)
            }
        }
    }
    scan(&axiom.formula, &mut known, &mut links);
    loop {
        let before = known.len();
        for (x, y) in &links {
            if known.contains(x) || known.contains(y) {
                known.insert(*x);
                known.insert(*y);
            }
        }
        if known.len() == before {
            break;
        }
    }
    free.into_iter().filter(|v| !known.contains(v)).collect()
}

fn gen_axiom(sig: &Signature, t: &mut Tape, name: String) -> Axiom {
    let (formula, vars) = {
        let mut g = FormulaGen {
            sig,
            t,
            vars: Vec::new(),
            bound: Vec::new(),
            free: Vec::new(),
        };
        let depth = g.t.pick(5);
        let f = g.formula(depth);
        (f, g.vars)
    };
    let mut axiom = Axiom {
        name,
        formula,
        vars,
        origin: None,
    };
    if !sig.is_single_sorted() {
        let loose = loose_free_vars(&axiom);
        if !loose.is_empty() {
            axiom.formula = Formula::Forall(loose, Box::new(axiom.formula));
        }
    }
    let (formula, vars) = renumber(&axiom.formula, &axiom.vars);
    Axiom {
        formula,
        vars,
        ..axiom
    }
}

fn gen_theory(tape: &[u32]) -> Theory {
    let mut t = Tape { data: tape, pos: 0 };
    let sig = gen_signature(&mut t);
    let name = t
        .one_of(&["Gen", "Gen_2", "Two words", "Ünïcode"])
        .to_string();
    let doc = t
        .one_of(&[
            "",
            "A doc string.",
            "Two\nlines.",
            "Says \"hi\"",
            "\"Quoted\" first",
            "Ends with a quote \"q\"",
        ])
        .to_string();
    let mut meta = BTreeMap::new();
    if t.pick(2) == 1 {
        meta.insert(
            "note".to_string(),
            t.one_of(&["a note", "x = \"y\"", "über"]).to_string(),
        );
    }
    let mut axioms: Vec<Axiom> = Vec::new();
    for i in 0..1 + t.pick(4) {
        let base = t.one_of(&["ax", "all", "theory", "x", "left_identity"]);
        let name = if axioms.iter().any(|a| a.name == base) {
            format!("{base}_{i}")
        } else {
            base.to_string()
        };
        axioms.push(gen_axiom(&sig, &mut t, name));
    }
    Theory {
        name,
        doc,
        meta,
        sig: sig.into(),
        axioms: axioms.into_iter().map(Into::into).collect(),
    }
}

fn tape() -> impl Strategy<Value = Vec<u32>> {
    vec(any::<u32>(), 0..400)
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn random_theories_print_and_parse_back(tape in tape()) {
        let th = gen_theory(&tape);
        let text = th.to_text();
        let back = Theory::parse(&text, "printed.bk").map_err(|e| TestCaseError::fail(format!("printed as\n{text}\ndoes not parse:\n{e}")))?;
        prop_assert_eq!(&back.sig, &th.sig, "signature, printed as\n{}", text);
        prop_assert_eq!(&back.axioms, &th.axioms, "axioms, printed as\n{}", text);
        prop_assert_eq!(&back, &th, "printed as\n{}", text);
        prop_assert_eq!(back.to_text(), text);
        prop_assert_eq!(back.fingerprint(), th.fingerprint());
    }
}

#[test]
fn every_seed_prints_and_parses_back() {
    for (seed, th) in seeds::all().iter().zip(seed_theories()) {
        let text = th.to_text();
        let back = Theory::parse(&text, "printed.bk").unwrap_or_else(|e| {
            panic!("seed {} printed as\n{text}\ndoes not parse: {e}", seed.name)
        });
        assert_eq!(&back, th, "seed {} printed as\n{text}", seed.name);
        assert_eq!(
            back.to_text(),
            text,
            "seed {}: printing is stable",
            seed.name
        );
        assert_eq!(back.fingerprint(), th.fingerprint());
    }
}

// ---------------------------------------------------------------------------------------------
// Fingerprints
// ---------------------------------------------------------------------------------------------

/// A seed (by index) or a random theory.
fn some_theory(which: usize, tape: &[u32]) -> Theory {
    let seeds = seed_theories();
    if which < seeds.len() {
        seeds[which].clone()
    } else {
        gen_theory(tape)
    }
}

fn permutation(n: usize, keys: &[u32]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by_key(|&i| (keys.get(i).copied().unwrap_or(0), i));
    idx
}

/// Gives every variable a new, distinct name.
fn rename_vars(th: &Theory) -> Theory {
    let mut th = th.clone();
    for a in th.axioms.iter_mut().map(std::sync::Arc::make_mut) {
        for (i, v) in a.vars.iter_mut().enumerate() {
            v.name = format!("x_{}", i * 7 + 3);
        }
    }
    th
}

/// Renumbers the variables of every axiom (permuting each variable table), keeping the meaning.
fn permute_var_ids(th: &Theory, keys: &[u32]) -> Theory {
    let mut th = th.clone();
    for a in th.axioms.iter_mut().map(std::sync::Arc::make_mut) {
        let perm = permutation(a.vars.len(), keys); // new position i holds old variable perm[i]
        let mut new_of_old = vec![VarId(0); perm.len()];
        for (new, &old) in perm.iter().enumerate() {
            new_of_old[old] = VarId(new as u32);
        }
        a.formula = map_vars(&a.formula, &|v| new_of_old[v.0 as usize]);
        a.vars = perm.iter().map(|&old| a.vars[old].clone()).collect();
    }
    th
}

/// Ways to change one axiom's meaning.
fn change_axiom(sig: &Signature, a: &Axiom, t: &mut Tape) -> Formula {
    // Applications in the formula, each with its path, and symbols with the same profile.
    fn apps(t: &Term, out: &mut Vec<Term>) {
        if let Term::App(_, args) = t {
            out.push(t.clone());
            args.iter().for_each(|a| apps(a, out));
        }
    }
    let mut all = Vec::new();
    a.formula.for_each_atom_term(&mut |t| apps(t, &mut all));
    let same_profile = |f: FuncId| -> Vec<FuncId> {
        let d = sig.func_decl(f);
        sig.func_ids()
            .filter(|&g| {
                g != f && sig.func_decl(g).args == d.args && sig.func_decl(g).result == d.result
            })
            .collect()
    };
    let swappable: Vec<(Term, FuncId)> = all
        .iter()
        .flat_map(|term| match term {
            Term::App(f, _) => same_profile(*f)
                .into_iter()
                .map(|g| (term.clone(), g))
                .collect::<Vec<_>>(),
            Term::Var(_) => vec![],
        })
        .collect();
    let flippable: Vec<Term> = all.iter().filter(|t| matches!(t, Term::App(f, args) if args.len() == 2 && args[0] != args[1] && sig.func_decl(*f).args[0] == sig.func_decl(*f).args[1])).cloned().collect();
    match t.pick(3) {
        1 if !swappable.is_empty() => {
            let (old, g) = swappable[t.pick(swappable.len())].clone();
            let Term::App(_, args) = &old else {
                unreachable!()
            };
            replace_term(&a.formula, &old, &Term::App(g, args.clone()))
        }
        2 if !flippable.is_empty() => {
            let old = flippable[t.pick(flippable.len())].clone();
            let Term::App(f, args) = &old else {
                unreachable!()
            };
            replace_term(
                &a.formula,
                &old,
                &Term::App(*f, vec![args[1].clone(), args[0].clone()]),
            )
        }
        _ => Formula::not(a.formula.clone()),
    }
}

/// The formula with the first occurrence of `old` replaced by `new`.
fn replace_term(f: &Formula, old: &Term, new: &Term) -> Formula {
    fn term(t: &Term, old: &Term, new: &Term, done: &mut bool) -> Term {
        if !*done && t == old {
            *done = true;
            return new.clone();
        }
        match t {
            Term::Var(_) => t.clone(),
            Term::App(f, args) => {
                Term::App(*f, args.iter().map(|a| term(a, old, new, done)).collect())
            }
        }
    }
    let mut done = false;
    f.map_terms(&mut |t| term(t, old, new, &mut done))
}

fn which_theory() -> impl Strategy<Value = usize> {
    // Seeds and random theories, about equally often.
    0..2 * seeds::all().len()
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn fingerprint_ignores_variable_names_axiom_order_and_duplicates(which in which_theory(), tape in tape(), keys in vec(any::<u32>(), 0..40), dup in any::<prop::sample::Index>()) {
        let th = some_theory(which, &tape);
        let fp = th.fingerprint();

        let renamed = rename_vars(&th);
        prop_assert_eq!(renamed.fingerprint(), fp, "renamed variables");
        prop_assert_eq!(Theory::parse(&renamed.to_text(), "renamed.bk").unwrap().fingerprint(), fp, "renamed variables, printed and read");

        prop_assert_eq!(permute_var_ids(&th, &keys).fingerprint(), fp, "renumbered variables");

        let mut reordered = th.clone();
        reordered.axioms = permutation(th.axioms.len(), &keys).into_iter().map(|i| th.axioms[i].clone()).collect();
        prop_assert_eq!(reordered.fingerprint(), fp, "reordered axioms");
        prop_assert_eq!(Theory::parse(&reordered.to_text(), "reordered.bk").unwrap().fingerprint(), fp, "reordered axioms, printed and read");

        if !th.axioms.is_empty() {
            let mut duplicated = th.clone();
            let mut copy = birkhoff_engine::Axiom::clone(&**dup.get(&th.axioms));
            copy.name = format!("{}_again", copy.name);
            duplicated.axioms.insert(dup.index(th.axioms.len() + 1), copy.into());
            prop_assert_eq!(duplicated.fingerprint(), fp, "a duplicated axiom");
            prop_assert_eq!(rename_vars(&duplicated).fingerprint(), fp, "a duplicated axiom, renamed");
        }
    }

    #[test]
    fn fingerprint_sees_a_changed_axiom(which in which_theory(), tape in tape(), change in vec(any::<u32>(), 0..8), at in any::<prop::sample::Index>()) {
        let th = some_theory(which, &tape);
        prop_assume!(!th.axioms.is_empty(), "the magma seed has no axiom to change");
        let fp = th.fingerprint();
        let i = at.index(th.axioms.len());
        let mut changed = th.clone();
        std::sync::Arc::make_mut(&mut changed.axioms[i]).formula = change_axiom(&th.sig, &th.axioms[i], &mut Tape { data: &change, pos: 0 });
        // The claim holds when the set of canonical axioms really differs.
        let canon = |t: &Theory| t.axioms.iter().map(|a| canonical_axiom(t, a)).collect::<BTreeSet<_>>();
        prop_assume!(canon(&changed) != canon(&th));
        prop_assert_ne!(changed.fingerprint(), fp, "axiom {} changed to {}", th.axioms[i].name, changed.to_text());

        // Adding a symbol, even an unused one, changes the signature and so the fingerprint.
        let mut bigger = th.clone();
        std::sync::Arc::make_mut(&mut bigger.sig).funcs.push(FuncDecl { name: "fresh_constant".into(), args: vec![], result: SortId(0), fixity: Fixity::Prefix });
        prop_assert_ne!(bigger.fingerprint(), fp);
    }
}

/// A few concrete cases, so that the properties above are known to bite.
#[test]
fn fingerprint_examples() {
    let group = seeds::load("group").unwrap();
    let fp = group.fingerprint();
    let variant = Theory::parse(
        "theory G2\nfunc * : 2\nfunc inv : 1\nconst e\n\
         axiom r_inv: y * inv(y) = e\naxiom assoc: (a * b) * c = a * (b * c)\naxiom l_inv: inv(z) * z = e\n\
         axiom again: (u * v) * w = u * (v * w)\naxiom l_id: x = e * x\naxiom r_id: x * e = x\n",
        "g2.bk",
    )
    .unwrap();
    assert_eq!(
        variant.fingerprint(),
        fp,
        "renamed, reordered, duplicated, an equation turned round"
    );
    let mut changed = group.clone();
    let left_identity = changed
        .axioms
        .iter()
        .position(|a| a.name == "left_identity")
        .unwrap();
    std::sync::Arc::make_mut(&mut changed.axioms[left_identity]).formula =
        Formula::not(changed.axioms[left_identity].formula.clone());
    assert_ne!(changed.fingerprint(), fp);
    let abelian = seeds::load("abelian_group").unwrap();
    assert_ne!(abelian.fingerprint(), fp, "one more axiom");
}

// ---------------------------------------------------------------------------------------------
// Canonical forms
// ---------------------------------------------------------------------------------------------

/// `th` with its sorts, function symbols and relation symbols renumbered by permutations drawn
/// from `keys` (names travel with their symbols), and its axioms shuffled.
fn permute_symbols(th: &Theory, keys: &[u32]) -> Theory {
    let inverse = |p: &[usize]| {
        let mut inv = vec![0u32; p.len()];
        p.iter()
            .enumerate()
            .for_each(|(new, &old)| inv[old] = new as u32);
        inv
    };
    let (sp, fp, rp) = (
        permutation(th.sig.sorts.len(), keys),
        permutation(th.sig.funcs.len(), &keys[keys.len().min(3)..]),
        permutation(th.sig.rels.len(), &keys[keys.len().min(7)..]),
    );
    let (si, fi, ri) = (inverse(&sp), inverse(&fp), inverse(&rp));
    let sort = |s: SortId| SortId(si[s.0 as usize]);
    let mut out = th.clone();
    let sig = std::sync::Arc::make_mut(&mut out.sig);
    sig.sorts = sp.iter().map(|&i| th.sig.sorts[i].clone()).collect();
    sig.funcs = fp.iter().map(|&i| th.sig.funcs[i].clone()).collect();
    sig.rels = rp.iter().map(|&i| th.sig.rels[i].clone()).collect();
    for d in &mut sig.funcs {
        d.args = d.args.iter().map(|&s| sort(s)).collect();
        d.result = sort(d.result);
    }
    for d in &mut sig.rels {
        d.args = d.args.iter().map(|&s| sort(s)).collect();
    }
    out.axioms = permutation(th.axioms.len(), &keys[keys.len().min(5)..])
        .into_iter()
        .map(|i| th.axioms[i].clone())
        .collect();
    for a in out.axioms.iter_mut().map(std::sync::Arc::make_mut) {
        a.formula = map_ids(&a.formula, &|v| v, &|f| FuncId(fi[f.0 as usize]), &|r| {
            RelId(ri[r.0 as usize])
        });
        a.vars.iter_mut().for_each(|v| v.sort = sort(v.sort));
    }
    out
}

/// The oracle: some renaming of `a`'s sorts and symbols makes its signature `b`'s (profiles in
/// index order) and its set of axioms `b`'s, up to variable names and orientation. Tries every
/// permutation, so only for small signatures.
fn renaming_exists(a: &Theory, b: &Theory) -> bool {
    fn perms(n: usize) -> Vec<Vec<u32>> {
        if n == 0 {
            return vec![vec![]];
        }
        perms(n - 1)
            .into_iter()
            .flat_map(|p| {
                (0..n).map(move |i| {
                    let mut q = p.clone();
                    q.insert(i, (n - 1) as u32);
                    q
                })
            })
            .collect()
    }
    if (a.sig.sorts.len(), a.sig.funcs.len(), a.sig.rels.len())
        != (b.sig.sorts.len(), b.sig.funcs.len(), b.sig.rels.len())
    {
        return false;
    }
    let id = IdentityRenaming::of(b);
    let target: BTreeSet<Vec<u32>> = b
        .axioms
        .iter()
        .map(|x| encode_axiom(x, &id.get()))
        .collect();
    for s in perms(a.sig.sorts.len()) {
        for f in perms(a.sig.funcs.len()) {
            let profile_ok = a.sig.funcs.iter().enumerate().all(|(i, d)| {
                let e = &b.sig.funcs[f[i] as usize];
                e.args.len() == d.args.len()
                    && e.args
                        .iter()
                        .zip(&d.args)
                        .all(|(x, y)| x.0 == s[y.0 as usize])
                    && e.result.0 == s[d.result.0 as usize]
            });
            if !profile_ok {
                continue;
            }
            for r in perms(a.sig.rels.len()) {
                let rels_ok = a.sig.rels.iter().enumerate().all(|(i, d)| {
                    let e = &b.sig.rels[r[i] as usize];
                    e.args.len() == d.args.len()
                        && e.args
                            .iter()
                            .zip(&d.args)
                            .all(|(x, y)| x.0 == s[y.0 as usize])
                });
                let renaming = Renaming {
                    sorts: &s,
                    funcs: &f,
                    rels: &r,
                };
                if rels_ok
                    && a.axioms
                        .iter()
                        .map(|x| encode_axiom(x, &renaming))
                        .collect::<BTreeSet<_>>()
                        == target
                {
                    return true;
                }
            }
        }
    }
    false
}

proptest! {
    #![proptest_config(config(150))]

    #[test]
    fn canonical_forms_agree_with_a_brute_force_renaming_search(tape in tape(), keys in vec(any::<u32>(), 12..40), change in vec(any::<u32>(), 0..8), at in any::<prop::sample::Index>(), alter in any::<bool>()) {
        let th = gen_theory(&tape);
        prop_assume!(th.sig.funcs.len() <= 6 && th.sig.rels.len() <= 3 && th.sig.sorts.len() <= 3);
        let mut other = permute_symbols(&th, &keys);
        if alter && !other.axioms.is_empty() {
            let i = at.index(other.axioms.len());
            std::sync::Arc::make_mut(&mut other.axioms[i]).formula = change_axiom(&other.sig, &other.axioms[i], &mut Tape { data: &change, pos: 0 });
        }
        let (Ok(fa), Ok(fb)) = (canonical_form(&th), canonical_form(&other)) else {
            // Too symmetric to canonize: then both are, as the renaming count is an invariant.
            prop_assert!(canonical_form(&th).is_err() && (alter || canonical_form(&other).is_err()));
            return Ok(());
        };
        prop_assert_eq!(fa == fb, renaming_exists(&th, &other), "{}\nvs\n{}", th.to_text(), other.to_text());
        if !alter {
            prop_assert_eq!(fa, fb);
        }
    }
}

/// `a` with its variables numbered backwards (the same axiom up to variable names).
fn reverse_vars(a: &Axiom) -> Axiom {
    let n = a.vars.len() as u32;
    Axiom {
        name: a.name.clone(),
        formula: map_vars(&a.formula, &|v| VarId(n - 1 - v.0)),
        vars: a.vars.iter().rev().cloned().collect(),
        origin: None,
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// `find_axiom` walks two axioms side by side instead of encoding them; it must find exactly
    /// the axioms whose encodings agree (variables renamed, equations turned around, or changed).
    #[test]
    fn axioms_are_found_exactly_when_their_encodings_agree(tape in tape(), change in vec(any::<u32>(), 0..8), at in any::<prop::sample::Index>()) {
        let th = gen_theory(&tape);
        let id = IdentityRenaming::of(&th);
        let enc = |a: &Axiom| encode_axiom(a, &id.get());
        let mut probes: Vec<Axiom> = th.axioms.iter().map(|a| reverse_vars(a)).collect();
        for a in &th.axioms {
            if let Formula::Eq(l, r) = &a.formula {
                probes.push(Axiom { formula: Formula::Eq(r.clone(), l.clone()), ..Axiom::clone(a) });
            }
        }
        let i = at.index(th.axioms.len());
        probes.push(Axiom { formula: change_axiom(&th.sig, &th.axioms[i], &mut Tape { data: &change, pos: 0 }), ..Axiom::clone(&th.axioms[i]) });
        for p in &probes {
            prop_assert_eq!(find_axiom(&th, p), th.axioms.iter().position(|b| enc(b) == enc(p)), "{:?}\nin\n{}", p, th.to_text());
        }
    }
}

/// Refinement must not merge what differs: two operations of one profile whose roles differ only
/// in how they sit together in one axiom.
#[test]
fn refinement_keeps_roles_apart() {
    let parse = |s: &str| Theory::parse(s, "t.bk").unwrap();
    let a = parse("theory A\nfunc f : 2\nfunc g : 2\naxiom x: f(g(x, y), z) = g(f(x, y), z)\naxiom c: f(x, y) = f(y, x)");
    let b = parse("theory B\nfunc f : 2\nfunc g : 2\naxiom x: f(g(x, y), z) = g(f(x, y), z)\naxiom c: g(x, y) = g(y, x)");
    let c = parse("theory C\nfunc g : 2\nfunc f : 2\naxiom x: g(f(x, y), z) = f(g(x, y), z)\naxiom c: g(x, y) = g(y, x)");
    assert_eq!(
        canonical_form(&a).unwrap() == canonical_form(&b).unwrap(),
        renaming_exists(&a, &b)
    );
    assert_eq!(canonical_form(&a).unwrap(), canonical_form(&c).unwrap());
    assert!(renaming_exists(&a, &c));
}

proptest! {
    #![proptest_config(config(300))]

    /// Random theories (every connective, nested and bound variables, relations, several sorts,
    /// operator and Unicode names) out to TPTP and LADR and back: equal up to renaming to the
    /// original in normal form. Canonical forms of theories too symmetric to canonize are skipped.
    #[test]
    fn random_theories_survive_tptp_and_ladr(tape in tape()) {
        use birkhoff_engine::interop::{self, Target};
        let th = gen_theory(&tape);
        let original = interop::normalize(&th);
        for to in [Target::Tptp, Target::Ladr] {
            if to == Target::Ladr && !th.sig.is_single_sorted() {
                continue;
            }
            let text = interop::export(&th, None, to).unwrap();
            let back = interop::import(&text, "random").map_err(|e| TestCaseError::fail(format!("{}\n--- exported ---\n{text}\n--- from ---\n{}", e, th.to_text())))?;
            if let Ok(same) = birkhoff_engine::canon::equal_up_to_renaming(&original, &back.theory) {
                prop_assert!(same, "{:?} changed the theory:\n{}\n--- exported ---\n{}\n--- imported ---\n{}", to, original.to_text(), text, back.theory.to_text());
            }
        }
    }
}
