//! Subjects from what Birkhoff knows: a theory (its name, its axioms in words by the scorer's law
//! catalogue, the nearest seed, its spectrum, the references written in it), a phrase, or a
//! spectrum.

use crate::paper::{Origin, Paper};
use crate::query::{key_for_text, Subject};
use birkhoff_checker::{
    router::{self, Engine},
    Budget, Status,
};
use birkhoff_engine::Theory;
use std::time::Duration;

/// The library ID a theory has, or would have once stored (`thy-` and its fingerprint's digest):
/// a theory's literature is kept under it, so `library show` finds it.
pub fn theory_id(t: &Theory) -> String {
    birkhoff_library::id::derive("thy", &format!("theory\n{}", t.fingerprint()))
}

/// Whether a name was made by the explorer or the agent ("LoopVariant2_1", "Group+op(*)") and
/// says nothing a paper would.
pub fn is_generated_name(name: &str) -> bool {
    name.contains("Variant")
        || name.contains('+')
        || name.contains('(')
        || name.ends_with(|c: char| c.is_ascii_digit())
}

/// A theory's name in words: `MoufangLoop` → "Moufang loop", `comm_monoid` → "commutative
/// monoid".
pub fn name_in_words(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
        } else if c.is_uppercase() && !cur.is_empty() && !cur.ends_with(|p: char| p.is_uppercase())
        {
            words.push(std::mem::take(&mut cur));
            cur.push(c);
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let words: Vec<String> = words
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            let lower = w.to_lowercase();
            let full = match lower.as_str() {
                "comm" => "commutative".to_string(),
                "distrib" => "distributive".to_string(),
                _ if i > 0 && w.chars().skip(1).all(|c| c.is_lowercase()) => lower,
                _ => w,
            };
            full
        })
        .collect();
    words.join(" ")
}

/// The laws a theory's axioms are instances of, in words ("associativity", "identity", ...).
pub fn axioms_in_words(t: &Theory) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for law in birkhoff_scorer::laws::recognize_all(t)
        .into_iter()
        .flatten()
    {
        let w = law
            .trim_start_matches("left_")
            .trim_start_matches("right_")
            .trim_end_matches("_1")
            .trim_end_matches("_2")
            .replace('_', " ");
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The laws that set `t` apart from `seed` (the class it is nearest to), written as
/// algebraists write them in titles and abstracts: products by juxtaposition, `x^2` for `x x`,
/// other operations infix (`x+y`), as "x^2=y^2". An axiom is defining when the law it is (if
/// Birkhoff knows its name) is not among the seed's laws; equations only.
pub fn defining_laws(t: &Theory, seed: &Theory) -> Vec<String> {
    let theirs: Vec<&str> = birkhoff_scorer::laws::recognize_all(seed)
        .into_iter()
        .flatten()
        .collect();
    t.axioms
        .iter()
        .zip(birkhoff_scorer::laws::recognize_all(t))
        .filter(|(_, law)| law.is_none_or(|l| !theirs.contains(&l)))
        .filter_map(|(a, _)| match &a.formula {
            birkhoff_engine::syntax::Formula::Eq(l, r) => Some(format!(
                "{}={}",
                law_term(t, a, l, false),
                law_term(t, a, r, false)
            )),
            _ => None,
        })
        .collect()
}

/// `term` in the field's notation (see [`defining_laws`]); `inner` when it is an operand, which
/// then gets brackets if it is a product or infix application itself.
fn law_term(
    t: &Theory,
    a: &birkhoff_engine::Axiom,
    term: &birkhoff_engine::syntax::Term,
    inner: bool,
) -> String {
    use birkhoff_engine::syntax::Term;
    match term {
        Term::Var(v) => a.vars[v.0 as usize].name.clone(),
        Term::App(f, args) => {
            let name = &t.sig.func_decl(*f).name;
            let symbolic = !name.chars().any(char::is_alphanumeric);
            match args.as_slice() {
                [] => name.clone(),
                [x, y] if symbolic => {
                    let text = match (name.as_str(), x, y) {
                        ("*" | "·", Term::Var(_), _) if x == y => {
                            return format!("{}^2", law_term(t, a, x, true))
                        }
                        ("*" | "·", _, _) => {
                            format!("{}{}", law_term(t, a, x, true), law_term(t, a, y, true))
                        }
                        _ => format!(
                            "{}{name}{}",
                            law_term(t, a, x, true),
                            law_term(t, a, y, true)
                        ),
                    };
                    if inner {
                        format!("({text})")
                    } else {
                        text
                    }
                }
                _ => {
                    let inside: Vec<String> =
                        args.iter().map(|x| law_term(t, a, x, false)).collect();
                    format!("{name}({})", inside.join(","))
                }
            }
        }
    }
}

/// The exact iso and labeled counts of a one-sorted theory from size 1, each size given
/// `per_size` at most, up to `max_size`; it stops at the first count that is not exact. Several
/// sorts: nothing (the OEIS counts one-sorted structures).
pub fn quick_spectrum(t: &Theory, max_size: u32, per_size: Duration) -> (Vec<u64>, Vec<u64>) {
    let (mut iso, mut labeled) = (Vec::new(), Vec::new());
    if t.sig.sorts.len() != 1 {
        return (iso, labeled);
    }
    let budget = Budget {
        time: Some(per_size),
        nodes: None,
        models: Some(1_000_000),
        cancel: None,
        progress: None,
    };
    for n in 1..=max_size {
        let Ok(e) = router::count(Engine::Native, t, &[n], &budget) else {
            break;
        };
        if e.iso.status != Status::Exact || e.labeled.status != Status::Exact {
            break;
        }
        let (Ok(i), Ok(l)) = (u64::try_from(e.iso.value), u64::try_from(e.labeled.value)) else {
            break;
        };
        iso.push(i);
        labeled.push(l);
    }
    (iso, labeled)
}

/// References written in a theory's `meta reference` ("A. Author, Title, Publisher 1958; ..."),
/// as candidates for the gate. They carry no identifier, so they stay unconfirmed unless the
/// subject's searches find the same paper with one.
pub fn written_references(t: &Theory, origin: Origin) -> Vec<Paper> {
    let Some(text) = t.meta.get("reference") else {
        return Vec::new();
    };
    text.split(';')
        .filter_map(|r| {
            let parts: Vec<&str> = r.split(',').map(str::trim).collect();
            if parts.len() < 2 {
                return None;
            }
            let authors: Vec<String> = parts[0]
                .split(" and ")
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty())
                .collect();
            let year = r
                .split(|c: char| !c.is_ascii_digit())
                .filter(|w| w.len() == 4)
                .filter_map(|w| w.parse::<i32>().ok())
                .find(|y| (1700..=2100).contains(y));
            Some(Paper::new(parts[1], authors, year, origin))
        })
        .collect()
}

/// The catalogue entry whose theory is literally this one (same fingerprint), if any.
pub fn catalogue_entry(t: &Theory) -> Option<birkhoff_engine::catalogue::Info> {
    let fp = t.fingerprint();
    birkhoff_engine::catalogue::all().into_iter().find_map(|e| {
        let et = e.theory().ok()?;
        (et.fingerprint() == fp)
            .then(|| birkhoff_engine::catalogue::info_of(e.name, e.origin, &et).ok())
            .flatten()
    })
}

/// Names of the catalogue entries related to `entry`: those it implies and those implying it.
pub fn related_entries(entry: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in birkhoff_engine::catalogue::all() {
        let Ok(t) = e.theory() else { continue };
        let Ok(info) = birkhoff_engine::catalogue::info_of(e.name, e.origin, &t) else {
            continue;
        };
        if info.name == entry {
            out.extend(info.implies.iter().map(|i| i.target.clone()));
        } else if info.implies.iter().any(|i| i.target == entry) {
            out.push(info.name.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The subject of a theory. `spectrum` gives exact counts already known (from the library);
/// without them a quick spectrum (up to size 6, 2 s per size) is computed. A catalogue entry
/// (or a theory literally equal to one) is searched by the entry's name and its related entries,
/// and its written reference goes through the gate.
pub fn of_theory(t: &Theory, spectrum: Option<(Vec<u64>, Vec<u64>)>) -> Subject {
    let entry = catalogue_entry(t);
    let name = match &entry {
        Some(e) => name_in_words(&e.name),
        None => name_in_words(&t.name),
    };
    let names = if (entry.is_none() && is_generated_name(&t.name)) || name.is_empty() {
        Vec::new()
    } else {
        vec![name.clone()]
    };
    let mut related: Vec<String> = match &entry {
        Some(e) => related_entries(&e.name)
            .iter()
            .map(|r| name_in_words(r))
            .take(3)
            .collect(),
        None => Vec::new(),
    };
    let nearest = birkhoff_scorer::syntax::nearest_seed_by_laws(t).map(|(seed, _)| seed);
    if related.is_empty() {
        related.extend(nearest.map(name_in_words));
    }
    // A discovery is searched by its defining laws too, in the field's words: "semigroups
    // satisfying x^2=y^2" (issue 51), beside its laws' names.
    let (class, defining) = match (&entry, nearest) {
        (None, Some(seed)) => match birkhoff_engine::seeds::load(seed) {
            Ok(s) => (name_in_words(seed).to_lowercase(), defining_laws(t, &s)),
            Err(_) => (String::new(), Vec::new()),
        },
        _ => (String::new(), Vec::new()),
    };
    related.retain(|s| !names.iter().any(|n| n.eq_ignore_ascii_case(s)));
    let (iso, labeled) = spectrum.unwrap_or_else(|| quick_spectrum(t, 6, Duration::from_secs(2)));
    let domain = if t.sig.funcs.is_empty() {
        "logic"
    } else {
        "algebra"
    };
    Subject {
        key: theory_id(t),
        title: if names.is_empty() {
            t.name.clone()
        } else {
            format!("{} ({})", name, t.name)
        },
        names,
        axioms_in_words: axioms_in_words(t),
        class,
        defining_laws: defining,
        related,
        free_text: None,
        iso_spectrum: iso,
        labeled_spectrum: labeled,
        domain: domain.to_string(),
        proposed: written_references(t, Origin::Catalogue),
    }
}

/// The subject of a phrase.
pub fn of_query(text: &str) -> Subject {
    Subject {
        key: key_for_text("query", text),
        title: text.to_string(),
        free_text: Some(text.to_string()),
        domain: "algebra".into(),
        ..Subject::default()
    }
}

/// The subject of a spectrum (OEIS only).
pub fn of_spectrum(terms: &[u64]) -> Subject {
    let text: Vec<String> = terms.iter().map(u64::to_string).collect();
    Subject {
        key: key_for_text("spectrum", &text.join("-")),
        title: format!("the spectrum {}", text.join(", ")),
        iso_spectrum: terms.to_vec(),
        ..Subject::default()
    }
}

/// The exact spectrum stored for a theory: iso and labeled counts from size 1 on, up to the
/// first size missing or not exact, of the spectrum every view shows ([`Library::spectrum_of`]).
///
/// [`Library::spectrum_of`]: birkhoff_library::Library::spectrum_of
pub fn stored_spectrum(
    lib: &birkhoff_library::Library,
    theory_id: &str,
) -> Option<(Vec<u64>, Vec<u64>)> {
    Some(exact_counts(&lib.spectrum_of(theory_id).ok()?)).filter(|(iso, _)| !iso.is_empty())
}

/// Exact iso and labeled counts of sizes 1, 2, ... from spectrum rows, up to the first size
/// missing or not exact.
pub fn exact_counts(rows: &[birkhoff_library::SpectrumRow]) -> (Vec<u64>, Vec<u64>) {
    let (mut iso, mut labeled) = (Vec::new(), Vec::new());
    for n in 1u32.. {
        let Some(row) = rows.iter().find(|r| r.sizes == [n]) else {
            break;
        };
        if row.iso.status != Status::Exact || row.labeled.status != Status::Exact {
            break;
        }
        let (Ok(i), Ok(l)) = (
            u64::try_from(row.iso.value),
            u64::try_from(row.labeled.value),
        ) else {
            break;
        };
        iso.push(i);
        labeled.push(l);
    }
    (iso, labeled)
}

/// The subject of a theory known to a library: its stored spectrum when there is one.
pub fn of_theory_in(lib: &birkhoff_library::Library, t: &Theory) -> Subject {
    let id = theory_id(t);
    of_theory(t, stored_spectrum(lib, &id))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 51: the README's first discovery is searched as "semigroups satisfying x^2=y^2",
    /// not only by the names of its laws and its nearest seed.
    #[test]
    fn a_discovery_is_searched_by_its_defining_laws_in_the_fields_words() {
        let t = Theory::parse(
            "theory SemigroupWithXxEqYy\nfunc * : 2\naxiom assoc: (x * y) * z = x * (y * z)\naxiom sq: x * x = y * y\n",
            "t",
        )
        .unwrap();
        let subject = of_theory(&t, Some((vec![1, 2, 3], vec![1, 3, 10])));
        assert_eq!(subject.class, "semigroup");
        assert_eq!(subject.defining_laws, vec!["x^2=y^2".to_string()]);
        let groups = crate::query::groups(&subject, 5);
        let laws = groups
            .iter()
            .find(|g| g.summary.starts_with("laws: "))
            .expect("a query group of the defining laws");
        assert_eq!(laws.summary, "laws: semigroups satisfying x^2=y^2");
        // Every source is asked, the laws URL-encoded.
        assert_eq!(laws.requests.len(), 3);
        assert!(
            laws.requests
                .iter()
                .all(|(_, path)| path.contains("x%5E2%3Dy%5E2")),
            "{:?}",
            laws.requests
        );
        // Products inside products keep their brackets; other operations stay infix.
        let r = Theory::parse(
            "theory R\nfunc * : 2\nfunc + : 2\naxiom a: (x * y) * z = x * (y * z)\naxiom m: (x * y) * (x * y) = (x * x) * (y * y)\naxiom p: x * (y + z) = (x * y) + (x * z)\n",
            "r",
        )
        .unwrap();
        let semigroup = birkhoff_engine::seeds::load("semigroup").unwrap();
        assert_eq!(
            defining_laws(&r, &semigroup),
            vec![
                "(xy)(xy)=x^2y^2".to_string(),
                "x(y+z)=(xy)+(xz)".to_string()
            ]
        );
    }
}
