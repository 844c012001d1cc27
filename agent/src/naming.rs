//! Names that say what a theory is: its parent with the laws it adds and drops, "Loop with
//! x / y = y / x", never a counter such as `Variant2_1`, and never cut short (issue 50 §4).

use crate::situation::{Candidate, Situation};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::syntax::{Formula, Term, VarId};
use birkhoff_engine::{Axiom, Signature, Theory};

/// An axiom as a name reads it.
#[derive(Clone, Debug)]
struct PrintedAxiom {
    /// The law's word in a discovery name: its name, with the operation it is about where the
    /// theory has another it could be about (`FlexibleMul` in a ring).
    word: String,
    /// The law spelled out ([`spelled`]), for when words do not tell two theories apart.
    spelled: String,
    /// The axiom's own name.
    name: String,
    /// Its formula as printed: what two theories' axioms are compared by.
    formula: String,
}

/// Each axiom of `t` as a name reads it.
fn printed(t: &Theory) -> Vec<PrintedAxiom> {
    t.axioms
        .iter()
        .map(|a| PrintedAxiom {
            word: law_word(&t.sig, a),
            spelled: spelled(&t.sig, &a.formula, a),
            name: a.name.clone(),
            formula: FormulaPrinter::new(&t.sig, a).formula(&a.formula),
        })
        .collect()
}

/// An operation symbol as a word in a name: its letters (`inv` → `Inv`), or the word a symbol is
/// read as (`*` → `Mul`, `\` → `Ldiv`).
fn op_word(symbol: &str) -> String {
    match symbol {
        "*" => "Mul".into(),
        "+" => "Add".into(),
        "\\" => "Ldiv".into(),
        "/" => "Rdiv".into(),
        "^" => "Meet".into(),
        "-" => "Minus".into(),
        "'" => "Prime".into(),
        s if s.chars().any(|c| c.is_ascii_alphanumeric()) => camel(s),
        _ => "Op".into(),
    }
}

/// `a`'s word in a discovery name: its name in CamelCase, followed by the operation it is about
/// when it mentions one operation with arguments, other than the multiplication `*` (which a law
/// is read about unless it says otherwise), and the theory declares another operation of the
/// same arity, which the same name could be about: a ring's `flexible` for `*` is `Flexible`, for
/// `+` `FlexibleAdd`; a lattice's for `^` `FlexibleMeet`. Not when the name ends with it already.
fn law_word(sig: &Signature, a: &Axiom) -> String {
    let ops: Vec<usize> = (0..sig.funcs.len())
        .filter(|&i| {
            !sig.funcs[i].args.is_empty()
                && a.formula
                    .mentions_func(birkhoff_engine::signature::FuncId(i as u32))
        })
        .collect();
    let word = camel(&a.name);
    match ops.as_slice() {
        [only]
            if sig.funcs[*only].name != "*"
                && sig
                    .funcs
                    .iter()
                    .enumerate()
                    .any(|(j, g)| j != *only && g.args.len() == sig.funcs[*only].args.len()) =>
        {
            let op = op_word(&sig.funcs[*only].name);
            if word.ends_with(&op) {
                word
            } else {
                word + &op
            }
        }
        _ => word,
    }
}

/// A formula spelled out as a word, operations first (Polish notation, which needs no brackets):
/// `x * (y * x) = (x * y) * x` is `MulXMulYXIsMulMulXYX`. Two different formulas over the same
/// symbols are spelled differently, so a name built from these words tells theories apart that
/// the laws' own names do not.
fn spelled(sig: &Signature, f: &Formula, a: &Axiom) -> String {
    // A variable as a word: its name in `a`, capitalised.
    fn var(a: &Axiom, v: VarId) -> String {
        camel(a.vars.get(v.0 as usize).map_or("v", |d| d.name.as_str()))
    }
    fn term(sig: &Signature, t: &Term, a: &Axiom, out: &mut String) {
        match t {
            Term::Var(v) => out.push_str(&var(a, *v)),
            Term::App(g, args) => {
                out.push_str(&op_word(&sig.funcs[g.0 as usize].name));
                for x in args {
                    term(sig, x, a, out);
                }
            }
        }
    }
    let mut out = String::new();
    let pair = |word: &str, l: &Formula, r: &Formula, out: &mut String| {
        out.push_str(word);
        out.push_str(&spelled(sig, l, a));
        out.push_str(&spelled(sig, r, a));
    };
    match f {
        Formula::True => out.push_str("True"),
        Formula::False => out.push_str("False"),
        Formula::Eq(l, r) => {
            term(sig, l, a, &mut out);
            out.push_str("Is");
            term(sig, r, a, &mut out);
        }
        Formula::Rel(r, args) => {
            out.push_str(&op_word(&sig.rels[r.0 as usize].name));
            for x in args {
                term(sig, x, a, &mut out);
            }
        }
        Formula::Not(g) => {
            out.push_str("Not");
            out.push_str(&spelled(sig, g, a));
        }
        Formula::And(l, r) => pair("And", l, r, &mut out),
        Formula::Or(l, r) => pair("Or", l, r, &mut out),
        Formula::Implies(l, r) => pair("If", l, r, &mut out),
        Formula::Iff(l, r) => pair("Iff", l, r, &mut out),
        Formula::Forall(_, g) => out.push_str(&spelled(sig, g, a)),
        Formula::Exists(vs, g) => {
            out.push_str("Exists");
            for v in vs {
                out.push_str(&var(a, *v));
            }
            out.push_str(&spelled(sig, g, a));
        }
    }
    out
}

/// `left_alternative` → `LeftAlternative`: the letters and digits of a name, each run capitalised.
fn camel(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
        .collect()
}

/// A seed or catalogue entry: its name, its theory, and its axioms as printed.
type KnownTheory = (&'static str, Theory, Vec<PrintedAxiom>);

/// The seeds and catalogue entries with their axioms as printed, parsed once.
fn known() -> &'static [KnownTheory] {
    static KNOWN: std::sync::OnceLock<Vec<KnownTheory>> = std::sync::OnceLock::new();
    KNOWN.get_or_init(|| {
        birkhoff_engine::catalogue::all()
            .iter()
            .filter_map(|e| e.theory().ok().map(|t| (e.name, t)))
            .map(|(name, t)| {
                let p = printed(&t);
                (name, t, p)
            })
            .collect()
    })
}

/// Whether `t` declares `k`'s symbols and has every axiom of `k`, as printed (`own` is `t`'s
/// axioms as printed): `t` is plainly `k` with laws added.
fn has_axioms_of(t: &Theory, own: &[PrintedAxiom], k: &Theory, theirs: &[PrintedAxiom]) -> bool {
    k.sig.funcs.iter().all(|f| t.sig.func(&f.name).is_some())
        && k.sig
            .rels
            .iter()
            .all(|r| t.sig.rels.iter().any(|q| q.name == r.name))
        && theirs
            .iter()
            .all(|a| own.iter().any(|b| b.formula == a.formula))
}

/// Whether `t` is a `k` as its axioms read: it declares `k`'s symbols and has all of `k`'s
/// axioms, as printed (a goal's "semigroups" asks for theories that are semigroups).
pub fn is_a(t: &Theory, k: &Theory) -> bool {
    has_axioms_of(t, &printed(t), k, &printed(k))
}

/// The known theory (seed or catalogue entry, not one of the `hidden`) with the most axioms,
/// every one of which `t` has (as printed), over symbols `t` declares: the class `t` is most
/// plainly that class with laws added. `None` when no known theory with an axiom fits. A hidden
/// entry would give its name away to the class it is hidden to be found as.
fn nearest_known(t: &Theory, own: &[PrintedAxiom], hidden: &[String]) -> Option<&'static Theory> {
    known()
        .iter()
        .filter(|(name, k, p)| {
            !p.is_empty() && !hidden.iter().any(|h| h == name) && has_axioms_of(t, own, k, p)
        })
        .max_by_key(|(_, _, p)| p.len())
        .map(|(_, k, _)| k)
}

/// A candidate's discovery name and title ([`name`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naming {
    /// The discovery name: a letter, then letters and digits, at most
    /// [`crate::schema::MAX_NAME`].
    pub name: String,
    /// The title, which reads as a phrase: "quasigroup with x * y * x = x * (y * x)".
    pub title: String,
}

/// The discovery name and the title of `c`: the parent it came from (a base of the situation),
/// or the nearest seed or catalogue entry whose axioms it has when that takes fewer changes or
/// there is no parent, and the laws it adds or drops, compared as printed formulas.
///
/// The laws are named by their names ([`law_word`]: `LoopWithLeftBolAutomorphicInverse`). When
/// `taken` says another theory has that name already (a base, or a candidate kept before), the
/// laws are spelled out instead ([`spelled`]), which no other theory's name can equal. The name
/// is never cut short and never numbered: `None` when even the spelled name is taken or is
/// longer than [`crate::schema::MAX_NAME`], and then the candidate is not kept under a name.
pub fn name(c: &Candidate, s: &Situation, taken: &dyn Fn(&str) -> bool) -> Option<Naming> {
    let own = printed(&c.theory);
    // A base is named as the library names it: an earlier discovery by its discovery name, not
    // by the name of the candidate it was (`Semigroup+unipotent(*)+-assoc`, whose `+` and `-`
    // the name could not keep).
    let base = c
        .parents
        .iter()
        .find_map(|p| s.bases.iter().find(|b| b.name == *p || b.theory.name == *p))
        .map(|b| (&b.theory, b.name.as_str()));
    let known = nearest_known(&c.theory, &own, &s.hidden).map(|k| (k, k.name.as_str()));
    // The laws added to and dropped from a stem, compared as printed.
    let diff = |p: &Theory| -> (Vec<PrintedAxiom>, Vec<PrintedAxiom>) {
        let theirs = printed(p);
        (
            own.iter()
                .filter(|a| !theirs.iter().any(|b| b.formula == a.formula))
                .cloned()
                .collect(),
            theirs
                .into_iter()
                .filter(|b| !own.iter().any(|a| a.formula == b.formula))
                .collect(),
        )
    };
    let changes = |p: &Theory| {
        let (a, d) = diff(p);
        a.len() + d.len()
    };
    // A named class that the theory is with fewer changes than its parent is the plainer stem: a
    // monoid with flexibility and without associativity is a unital magma with flexibility.
    let parent = match (base, known) {
        (Some(b), Some(k)) if changes(k.0) < changes(b.0) => Some(k),
        (b, k) => b.or(k),
    };
    let (added, dropped) = match parent {
        Some((p, _)) => diff(p),
        None => (Vec::new(), Vec::new()),
    };
    let stem = parent.map_or(c.theory.name.as_str(), |(_, name)| name);
    let mut title = stem.to_string();
    if !added.is_empty() {
        let laws: Vec<&str> = added.iter().map(|a| a.formula.as_str()).collect();
        title += &format!(" with {}", laws.join(" and "));
    }
    if !dropped.is_empty() {
        let laws: Vec<&str> = dropped.iter().map(|a| a.name.as_str()).collect();
        title += &format!(" without {}", laws.join(", "));
    }
    if added.is_empty() && dropped.is_empty() {
        title += &format!(" ({})", c.origin);
    }
    // The name from the laws' words, or, when that is taken, from the laws spelled out.
    let named = |word: fn(&PrintedAxiom) -> &str| {
        let mut name = camel(stem);
        if !added.is_empty() {
            name += "With";
            name.extend(added.iter().map(word));
        }
        if !dropped.is_empty() {
            name += "Without";
            name.extend(dropped.iter().map(word));
        }
        if added.is_empty() && dropped.is_empty() {
            name += "Variant";
        }
        if !name.starts_with(|ch: char| ch.is_ascii_alphabetic()) {
            name = format!("T{name}");
        }
        name
    };
    [named(|a| &a.word), named(|a| &a.spelled)]
        .into_iter()
        .find(|n| n.len() <= crate::schema::MAX_NAME && !taken(n))
        .map(|name| Naming { name, title })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axiom(t: &Theory, name: &str) -> Axiom {
        (**t.axioms.iter().find(|a| a.name == name).unwrap()).clone()
    }

    /// A law is named by its own name, with its operation when that is not `*` and the theory has
    /// another binary one; spelled out, two bracketings of one word differ.
    #[test]
    fn laws_are_named_by_their_operation_and_spelled_without_brackets() {
        let t = Theory::parse(
            "theory T\nfunc * : 2\nfunc + : 2\nfunc inv : 1\naxiom flexible: x * y * x = x * (y * x)\naxiom comm_add: x + y = y + x\naxiom inv_inv: inv(inv(x)) = x\naxiom distrib: x * (y + z) = x * y + x * z\n",
            "t",
        )
        .unwrap();
        assert_eq!(
            law_word(&t.sig, &axiom(&t, "flexible")),
            "Flexible",
            "`*` is the default"
        );
        let mut plus = axiom(&t, "flexible");
        plus.formula = plus.formula.map_symbols(
            &|f, args| Term::App(birkhoff_engine::FuncId(1 - f.0), args),
            &Formula::Rel,
        );
        assert_eq!(law_word(&t.sig, &plus), "FlexibleAdd");
        assert_eq!(
            law_word(&t.sig, &axiom(&t, "comm_add")),
            "CommAdd",
            "said once"
        );
        assert_eq!(
            law_word(&t.sig, &axiom(&t, "inv_inv")),
            "InvInv",
            "the only unary one"
        );
        assert_eq!(
            law_word(&t.sig, &axiom(&t, "distrib")),
            "Distrib",
            "two operations"
        );
        let a = axiom(&t, "flexible");
        assert_eq!(spelled(&t.sig, &a.formula, &a), "MulMulXYXIsMulXMulYX");
        let s = Theory::parse(
            "theory S\nfunc * : 2\naxiom flexible: x * y * x = x * (y * x)\n",
            "s",
        )
        .unwrap();
        assert_eq!(law_word(&s.sig, &axiom(&s, "flexible")), "Flexible");
    }
}
