//! The Mace4 interpretation reader is strict: a file it accepts says exactly what it read.
//!
//! Random structures (a binary and a unary operation, a constant and a binary relation, sizes 1
//! to 4) are printed in Mace4's format, then mutated (a character deleted, inserted, replaced or
//! swapped, a line deleted or repeated). Whenever the reader accepts a mutated text, the oracle
//! prints what it read and compares it with the text, both reduced to their tokens: without
//! white space, comments and the attribute list (`number = 1, ...`), items in sorted order. So
//! an accepted text holds no table, value, head or bracket the reader passed over: a lenient
//! reader, which skipped an empty value (`0,,1`), took the values but not the arity of a head
//! (`*(_)` for a binary operation) or ignored an unknown symbol, fails it.

use birkhoff_engine::signature::{default_binary_fixity, Fixity, FuncDecl, RelDecl, SortDecl};
use birkhoff_engine::structure::Structure;
use birkhoff_engine::tables::{from_mace4, to_mace4};
use birkhoff_engine::{Signature, SortId};
use proptest::prelude::*;

fn signature() -> Signature {
    let u = SortId(0);
    let mut sig = Signature::default();
    sig.sorts.push(SortDecl { name: "U".into() });
    sig.funcs.push(FuncDecl {
        name: "*".into(),
        args: vec![u, u],
        result: u,
        fixity: default_binary_fixity("*"),
    });
    sig.funcs.push(FuncDecl {
        name: "inv".into(),
        args: vec![u],
        result: u,
        fixity: Fixity::Prefix,
    });
    sig.funcs.push(FuncDecl {
        name: "e".into(),
        args: vec![],
        result: u,
        fixity: Fixity::Prefix,
    });
    sig.rels.push(RelDecl {
        name: "R".into(),
        args: vec![u, u],
        fixity: Fixity::Prefix,
    });
    sig
}

fn structure() -> impl Strategy<Value = Structure> {
    (1u32..=4).prop_flat_map(|n| {
        let cells = |k: u32| proptest::collection::vec(0..n, n.pow(k) as usize);
        (
            cells(2),
            cells(1),
            0..n,
            proptest::collection::vec(any::<bool>(), (n * n) as usize),
        )
            .prop_map(move |(mult, inv, e, rel)| Structure {
                sizes: vec![n],
                funcs: vec![mult, inv, vec![e]],
                rels: vec![rel],
            })
    })
}

/// The tokens of an interpretation list, for comparison: comments and white space dropped, each
/// attribute list emptied, and the items of each interpretation sorted.
fn tokens(text: &str) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .map(|l| l.split('%').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    compact
        .split("interpretation(")
        .skip(1)
        .map(|one| {
            // `N,[attributes],[items]).`
            let (size, rest) = one.split_once(",[").unwrap_or((one, ""));
            let items = rest.split_once("],[").map_or(rest, |(_, items)| items);
            let mut parts: Vec<String> = items.split("),").map(str::to_string).collect();
            parts.sort();
            parts.insert(0, size.to_string());
            parts
        })
        .collect()
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize),
    Insert(usize, char),
    Replace(usize, char),
    Swap(usize),
    DeleteLine(usize),
    RepeatLine(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let char = proptest::sample::select(vec![
        '0', '1', '2', '3', '9', ',', '(', ')', '[', ']', '_', ' ', '.', '*', 'e', 'f', 'c', '%',
        '\n',
    ]);
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), char.clone()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        (any::<usize>(), char).prop_map(|(i, c)| Mutation::Replace(i, c)),
        any::<usize>().prop_map(Mutation::Swap),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::RepeatLine),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    match *m {
        Mutation::Delete(i) => {
            chars.remove(i % chars.len());
        }
        Mutation::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
        Mutation::Replace(i, c) => {
            let i = i % chars.len();
            chars[i] = c;
        }
        Mutation::Swap(i) => {
            let i = i % (chars.len() - 1);
            chars.swap(i, i + 1);
        }
        Mutation::DeleteLine(i) => {
            lines.remove(i % lines.len());
            return lines.concat();
        }
        Mutation::RepeatLine(i) => {
            let i = i % lines.len();
            lines.insert(i, lines[i]);
            return lines.concat();
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn an_accepted_interpretation_is_exactly_what_was_read(s in structure(), t in structure(), ms in proptest::collection::vec(mutation(), 1..3)) {
        let sig = signature();
        let text = format!("% two models\n{}{}", to_mace4(&sig, &s, 1).unwrap(), to_mace4(&sig, &t, 2).unwrap());
        prop_assert_eq!(from_mace4(&sig, &text, "models.out").unwrap(), vec![s, t]);
        let mutated = ms.iter().fold(text, |acc, m| apply(&acc, m));
        if let Ok(read) = from_mace4(&sig, &mutated, "models.out") {
            let printed: String = read.iter().map(|r| to_mace4(&sig, r, 1).unwrap()).collect();
            prop_assert_eq!(tokens(&mutated), tokens(&printed), "accepted:\n{}\nread as:\n{}", mutated, printed);
        }
    }
}

/// Each kind of malformed interpretation is an error at its line and column.
#[test]
fn malformed_interpretations_are_located_errors() {
    let sig = signature();
    let good = "interpretation( 2, [number = 1, seconds = 0], [\n    function(*(_,_), [0,1,1,0]),\n    function(inv(_), [0,1]),\n    function(e, [0]),\n    relation(R(_,_), [1,0,0,1])\n]).\n";
    assert_eq!(from_mace4(&sig, good, "m.out").unwrap().len(), 1);
    let cases = [
        (
            "function(*(_), [0,1,1,0])",
            "function(*(_,_), [0,1,1,0])",
            "m.out:2:14: `*` has arity 2 in the theory, not 1",
        ),
        (
            "function(inv(_), [0,,1])",
            "function(inv(_), [0,1])",
            "m.out:3:25: expected a number",
        ),
        (
            "function(e, [2])",
            "function(e, [0])",
            "m.out:4:18: `e`: the value 2 is not an element 0 to 1",
        ),
        (
            "function(g(_), [0,1]),\n    function(e, [0])",
            "function(e, [0])",
            "m.out:4:14: `g` is not a function of the theory",
        ),
        (
            "relation(R(_,_), [1,0,0])",
            "relation(R(_,_), [1,0,0,1])",
            "m.out:5:23: `R` of arity 2 needs 4 values at size 2, found 3",
        ),
        (
            "",
            "    function(e, [0]),\n",
            "this interpretation gives no table for `e`",
        ),
        (
            "function(inv(_), [0,1]),\n    function(inv(_), [1,0])",
            "function(inv(_), [0,1])",
            "m.out:4:5: `inv` is given twice",
        ),
    ];
    for (bad, replaced, message) in cases {
        let text = good.replacen(replaced, bad, 1);
        assert_ne!(text, good, "{replaced}");
        let err = from_mace4(&sig, &text, "m.out").unwrap_err().to_string();
        assert!(err.contains(message), "{bad}: {err}");
    }
    let err = from_mace4(
        &sig,
        &format!(
            "interpretaton( 2, [], [\n{}",
            &good[good.find('[').unwrap()..]
        ),
        "m.out",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("m.out:"), "{err}");
    // Mace4's Skolem symbols are skipped, after the same checks.
    let skolem = good.replacen(
        "function(e, [0])",
        "function(e, [0]),\n    function(c1, [1])",
        1,
    );
    assert_eq!(from_mace4(&sig, &skolem, "m.out").unwrap().len(), 1);
}
