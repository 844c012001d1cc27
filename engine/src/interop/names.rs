//! Symbol names in other languages. Birkhoff's symbols may be operators (`*`, `\`, `≤`) or start
//! with a capital; TPTP, LADR and GAP each allow a narrower set of names. Every writer maps the
//! theory's names through one [`NameMap`], which keeps readable words (`*` becomes `mult`) and
//! never gives two symbols one name.

use std::collections::HashSet;

/// Readable words for the operator symbols in use across the seeds and the catalogue, and for
/// common mathematical ones. An operator not listed becomes `op`.
const WORDS: &[(&str, &str)] = &[
    ("*", "mult"),
    ("·", "mult"),
    ("+", "plus"),
    ("-", "minus"),
    ("/", "rdiv"),
    ("\\", "ldiv"),
    ("^", "meet"),
    ("∧", "meet"),
    ("⊓", "meet"),
    ("∨", "join"),
    ("⊔", "join"),
    ("∘", "comp"),
    ("⊕", "oplus"),
    ("⊗", "otimes"),
    ("@", "at"),
    ("<=", "leq"),
    ("≤", "leq"),
    ("<", "lt"),
    (">=", "geq"),
    ("≥", "geq"),
    (">", "gt"),
    ("~", "tilde"),
    ("'", "prime"),
    ("**", "pow"),
];

/// The word for an operator symbol, or `None` for a name made of letters.
pub fn word_for(symbol: &str) -> Option<&'static str> {
    WORDS
        .iter()
        .find(|(s, _)| *s == symbol)
        .map(|(_, w)| *w)
        .or_else(|| crate::signature::is_symbolic(symbol).then_some("op"))
}

/// Assigns each name of a theory a name of the target language, one at a time, never the same
/// twice and never one of `reserved`.
pub struct NameMap {
    taken: HashSet<String>,
}

impl NameMap {
    /// A map for a language whose keywords (and names already used) are `reserved`.
    pub fn new(reserved: &[&str]) -> Self {
        NameMap {
            taken: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Reserves `name` exactly as it is, if it is free; `false` if it was taken.
    pub fn claim(&mut self, name: &str) -> bool {
        self.taken.insert(name.to_string())
    }

    /// A fresh name built from `name` by `shape` (which must return a legal name of the target
    /// language for any input): `shape(name)`, or that with `_2`, `_3`, ... when taken.
    pub fn fresh(&mut self, name: &str, shape: impl Fn(&str) -> String) -> String {
        let base = shape(name);
        let mut candidate = base.clone();
        let mut i = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{base}_{i}");
            i += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }
}

/// `name` with every character that is not an ASCII letter, digit or `_` dropped, operator
/// symbols replaced by their word; never empty.
pub fn ascii_word(name: &str) -> String {
    if let Some(w) = word_for(name) {
        return w.to_string();
    }
    let mut out: String = name
        .chars()
        .map(|c| if c == '\'' { 'p' } else { c })
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if out.is_empty() {
        out.push_str("sym");
    }
    out
}

/// `name` as an ASCII word whose first letter has the given case (lowered or raised if it is a
/// letter, else `prefix` put in front).
fn cased(name: &str, upper: bool, prefix: &str) -> String {
    let w = ascii_word(name);
    let mut chars = w.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => {
            let c = if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            };
            c.to_string() + chars.as_str()
        }
        _ => format!("{prefix}{w}"),
    }
}

/// A TPTP functor or type name (`lower_word`: a lower-case letter, then letters, digits, `_`).
pub fn tptp_functor(name: &str) -> String {
    cased(name, false, "f")
}

/// A TPTP variable name (`upper_word`: a capital letter, then letters, digits, `_`).
pub fn tptp_variable(name: &str) -> String {
    cased(name, true, "X")
}

/// A LADR symbol name: a letter other than `u` to `z` (which begin variables) first.
pub fn ladr_symbol(name: &str) -> String {
    let w = ascii_word(name);
    match w.chars().next() {
        Some(c) if c.is_ascii_alphabetic() && !('u'..='z').contains(&c) => w,
        _ => format!("c_{w}"),
    }
}

/// A LADR variable name: it must begin with `u` to `z`.
pub fn ladr_variable(name: &str) -> String {
    let w = ascii_word(name);
    match w.chars().next() {
        Some(c) if ('u'..='z').contains(&c) => w,
        _ => format!("x_{w}"),
    }
}

/// A GAP identifier: letters, digits and `_`, not starting with a digit.
pub fn gap_identifier(name: &str) -> String {
    let w = ascii_word(name);
    if w.starts_with(|c: char| c.is_ascii_digit()) {
        format!("s{w}")
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_each_language_and_stay_distinct() {
        assert_eq!(tptp_functor("*"), "mult");
        assert_eq!(tptp_functor("E"), "e");
        assert_eq!(tptp_functor("2x"), "f2x");
        assert_eq!(tptp_variable("x1"), "X1");
        assert_eq!(tptp_variable("z'"), "Zp");
        assert_eq!(ladr_symbol("vadd"), "c_vadd");
        assert_eq!(ladr_symbol("inv"), "inv");
        assert_eq!(ladr_variable("a"), "x_a");
        assert_eq!(gap_identifier("\\"), "ldiv");
        let mut m = NameMap::new(&["e"]);
        assert_eq!(m.fresh("E", tptp_functor), "e_2");
        assert_eq!(m.fresh("*", tptp_functor), "mult");
        assert_eq!(m.fresh("·", tptp_functor), "mult_2");
    }
}
