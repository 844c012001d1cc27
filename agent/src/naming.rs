//! Names that say what a theory is: its parent with the laws it adds and drops, "Loop with
//! x / y = y / x", never a counter such as `Variant2_1`.

use crate::situation::{Candidate, Situation};
use birkhoff_engine::print::FormulaPrinter;
use birkhoff_engine::Theory;

/// An axiom's name and its formula as printed.
type PrintedAxiom = (String, String);

/// Each axiom of `t` with its formula as printed.
fn printed(t: &Theory) -> Vec<PrintedAxiom> {
    t.axioms
        .iter()
        .map(|a| {
            (
                a.name.clone(),
                FormulaPrinter::new(&t.sig, a).formula(&a.formula),
            )
        })
        .collect()
}

/// `left_alternative` → `LeftAlternative`: the letters and digits of a name, each run capitalised.
fn camel(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
        .collect()
}

/// The seeds and catalogue entries with their axioms as printed, parsed once.
fn known() -> &'static [(Theory, Vec<PrintedAxiom>)] {
    static KNOWN: std::sync::OnceLock<Vec<(Theory, Vec<PrintedAxiom>)>> =
        std::sync::OnceLock::new();
    KNOWN.get_or_init(|| {
        birkhoff_engine::catalogue::all()
            .iter()
            .filter_map(|e| e.theory().ok())
            .map(|t| {
                let p = printed(&t);
                (t, p)
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
        && theirs.iter().all(|(_, f)| own.iter().any(|(_, g)| g == f))
}

/// Whether `t` is a `k` as its axioms read: it declares `k`'s symbols and has all of `k`'s
/// axioms, as printed (a goal's "semigroups" asks for theories that are semigroups).
pub fn is_a(t: &Theory, k: &Theory) -> bool {
    has_axioms_of(t, &printed(t), k, &printed(k))
}

/// The known theory (seed or catalogue entry) with the most axioms, every one of which `t` has
/// (as printed), over symbols `t` declares: the class `t` is most plainly that class with laws
/// added. `None` when no known theory with an axiom fits.
fn nearest_known(t: &Theory, own: &[PrintedAxiom]) -> Option<&'static Theory> {
    known()
        .iter()
        .filter(|(k, p)| !p.is_empty() && has_axioms_of(t, own, k, p))
        .max_by_key(|(_, p)| p.len())
        .map(|(k, _)| k)
}

/// The discovery name and the title of `c`: the parent it came from (a base of the situation),
/// or the nearest seed or catalogue entry whose axioms it has when that takes fewer changes or
/// there is no parent, and the laws it adds or drops,
/// compared as printed formulas. The name is a valid discovery name
/// (a letter, then letters and digits, at most 64); the title reads as a phrase.
pub fn name(c: &Candidate, s: &Situation) -> (String, String) {
    let own = printed(&c.theory);
    // A base is named as the library names it: an earlier discovery by its discovery name, not
    // by the name of the candidate it was (`Semigroup+unipotent(*)+-assoc`, whose `+` and `-`
    // the name could not keep).
    let base = c
        .parents
        .iter()
        .find_map(|p| s.bases.iter().find(|b| b.name == *p || b.theory.name == *p))
        .map(|b| (&b.theory, b.name.as_str()));
    let known = nearest_known(&c.theory, &own).map(|k| (k, k.name.as_str()));
    // The laws added to and dropped from a stem, compared as printed.
    let diff = |p: &Theory| -> (Vec<&PrintedAxiom>, Vec<PrintedAxiom>) {
        let theirs = printed(p);
        (
            own.iter()
                .filter(|(_, f)| !theirs.iter().any(|(_, g)| g == f))
                .collect(),
            theirs
                .into_iter()
                .filter(|(_, g)| !own.iter().any(|(_, f)| f == g))
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
    let mut name = camel(stem);
    if !added.is_empty() {
        title += &format!(
            " with {}",
            added
                .iter()
                .map(|(_, f)| f.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        );
        name += &format!(
            "With{}",
            added.iter().map(|(n, _)| camel(n)).collect::<String>()
        );
    }
    if !dropped.is_empty() {
        title += &format!(
            " without {}",
            dropped
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        name += &format!(
            "Without{}",
            dropped.iter().map(|(n, _)| camel(n)).collect::<String>()
        );
    }
    if added.is_empty() && dropped.is_empty() {
        title += &format!(" ({})", c.origin);
        name += "Variant";
    }
    if !name.starts_with(|ch: char| ch.is_ascii_alphabetic()) {
        name = format!("T{name}");
    }
    (shorten(&name, MAX_NAME), title)
}

/// The longest name [`name`] gives, leaving room for a suffix that tells two apart.
const MAX_NAME: usize = 56;

/// `name` cut to at most `max` characters between its CamelCase words, never inside one (issue
/// 55: `…WithXyxWithoutUnipoten`), and without a dangling `With`, `Without` or `And`. A single
/// word longer than `max` is cut at `max`: the name must stay short, and nothing else is left.
fn shorten(name: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_string();
    }
    let b = name.as_bytes();
    // Where each CamelCase word starts: an upper-case letter after a lower-case letter or a
    // digit, or a digit after a letter.
    let starts: Vec<usize> = (1..b.len())
        .filter(|&i| {
            (b[i].is_ascii_uppercase()
                && (b[i - 1].is_ascii_lowercase() || b[i - 1].is_ascii_digit()))
                || (b[i].is_ascii_digit() && b[i - 1].is_ascii_alphabetic())
        })
        .collect();
    let mut cut = starts
        .iter()
        .copied()
        .filter(|&i| i <= max)
        .collect::<Vec<_>>();
    while let Some(&end) = cut.last() {
        let start = cut.iter().rev().nth(1).copied().unwrap_or(0);
        if ["With", "Without", "And"].contains(&&name[start..end]) && start > 0 {
            cut.pop();
        } else {
            return name[..end].to_string();
        }
    }
    let end = (0..=max)
        .rev()
        .find(|&i| name.is_char_boundary(i))
        .unwrap_or(0);
    name[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn names_are_cut_between_words_only() {
        let long = "SemigroupWithUnipotentWithXyxWithoutUnipotentWithoutAssoc";
        assert_eq!(long.len(), 57);
        let short = shorten(long, 56);
        assert_eq!(short, "SemigroupWithUnipotentWithXyxWithoutUnipotent");
        let short = shorten(long, 44);
        assert_eq!(
            short, "SemigroupWithUnipotentWithXyx",
            "no dangling Without"
        );
        assert_eq!(shorten("LoopWithAssoc", 56), "LoopWithAssoc");
        assert_eq!(
            shorten("Abcdefghij", 4),
            "Abcd",
            "one long word: cut, nothing else is left"
        );
        assert_eq!(shorten("Magma2WithX", 8), "Magma2", "a digit run is a word");
    }
}
