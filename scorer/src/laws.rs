//! A catalogue of the laws a mathematician recognises on sight (associativity, identities,
//! distributivity, self-distributivity, the division laws, the order axioms...) and a matcher
//! that tells which axioms of a theory are instances of them, up to renaming of symbols and
//! variables and the two orientations of an equation.

use birkhoff_engine::signature::{FuncId, RelId};
use birkhoff_engine::syntax::{Formula, Term, VarId};
use birkhoff_engine::{Axiom, Theory};
use std::sync::OnceLock;

/// The catalogue, as a theory: each axiom is a law, named by the law. Symbols are placeholders:
/// `*` and `+` any two distinct binary operations, `i` a unary one, `e` and `o` constants, `\`
/// and `/` the divisions, `R` a binary relation.
const CATALOGUE: &str = r#"
theory Laws
func * : 2
func + : 2
func \ : 2
func / : 2
func i : 1
const e
const o
rel R : 2
axiom associativity: (x * y) * z = x * (y * z)
axiom commutativity: x * y = y * x
axiom idempotence: x * x = x
axiom left_identity: e * x = x
axiom right_identity: x * e = x
axiom left_inverse: i(x) * x = e
axiom right_inverse: x * i(x) = e
axiom left_zero: e * x = e
axiom right_zero: x * e = e
axiom left_distributivity: x * (y + z) = (x * y) + (x * z)
axiom right_distributivity: (y + z) * x = (y * x) + (z * x)
axiom absorption: x * (x + y) = x
axiom absorption_swapped: (x + y) * x = x
axiom left_self_distributivity: x * (y * z) = (x * y) * (x * z)
axiom right_self_distributivity: (y * z) * x = (y * x) * (z * x)
axiom flexibility: (x * y) * x = x * (y * x)
axiom left_alternativity: (x * x) * y = x * (x * y)
axiom right_alternativity: (y * x) * x = y * (x * x)
axiom mediality: (x * y) * (z * u) = (x * z) * (y * u)
axiom left_division_1: x \ (x * y) = y
axiom left_division_2: x * (x \ y) = y
axiom right_division_1: (y * x) / x = y
axiom right_division_2: (y / x) * x = y
axiom left_moufang: z * (x * (z * y)) = ((z * x) * z) * y
axiom right_moufang: ((x * z) * y) * z = x * ((z * y) * z)
axiom left_bol: x * (y * (x * z)) = (x * (y * x)) * z
axiom right_bol: ((z * x) * y) * x = z * ((x * y) * x)
axiom involution: i(i(x)) = x
axiom antihomomorphism: i(x * y) = i(y) * i(x)
axiom homomorphism: i(x * y) = i(x) * i(y)
axiom exponent_two: x * x = e
axiom complement: x * i(x) = o
axiom distinct_constants: e != o
axiom reflexivity: R(x, x)
axiom irreflexivity: ~R(x, x)
axiom symmetry: R(x, y) -> R(y, x)
axiom antisymmetry: R(x, y) & R(y, x) -> x = y
axiom transitivity: R(x, y) & R(y, z) -> R(x, z)
axiom totality: R(x, y) | R(y, x)
axiom inverse_semigroup: x * (i(x) * x) = x
axiom left_cancellation: x * y = x * z -> y = z
axiom right_cancellation: y * x = z * x -> y = z
axiom invertibility: x = o | x * i(x) = e
"#;

/// The catalogue's laws, each with its [`size`].
fn catalogue() -> &'static [(std::sync::Arc<Axiom>, usize)] {
    static LAWS: OnceLock<Vec<(std::sync::Arc<Axiom>, usize)>> = OnceLock::new();
    LAWS.get_or_init(|| {
        let laws = Theory::parse(CATALOGUE, "laws catalogue")
            .expect("the law catalogue parses")
            .axioms;
        laws.into_iter()
            .map(|a| {
                let n = size(&a.formula);
                (a, n)
            })
            .collect()
    })
}

/// Nodes of a formula, universal quantifiers not counted: a formula can only match a law of the
/// same size, so most pairs are ruled out without matching.
fn size(f: &Formula) -> usize {
    match f {
        Formula::True | Formula::False => 1,
        Formula::Eq(a, b) => 1 + a.size() + b.size(),
        Formula::Rel(_, args) => 1 + args.iter().map(Term::size).sum::<usize>(),
        Formula::Not(g) => 1 + size(g),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            1 + size(a) + size(b)
        }
        Formula::Forall(_, g) => size(g),
        Formula::Exists(vs, g) => 1 + vs.len() + size(g),
    }
}

/// How many laws the catalogue has: a [`LawId`] is below this.
pub fn catalogue_len() -> usize {
    catalogue().len()
}

/// A catalogued law, by its position in the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LawId(pub u16);

impl LawId {
    /// The law's name, such as `associativity`.
    pub fn name(self) -> &'static str {
        catalogue()[usize::from(self.0)].0.name.as_str()
    }
}

/// The catalogued law `axiom` is an instance of (up to renaming), if any.
pub fn recognize_id(axiom: &Axiom) -> Option<LawId> {
    let n = size(&axiom.formula);
    catalogue()
        .iter()
        .position(|(law, m)| *m == n && Matcher::default().formula(&law.formula, &axiom.formula))
        .map(|i| LawId(i as u16))
}

/// The name of the catalogued law `axiom` is an instance of (up to renaming), if any.
pub fn recognize(axiom: &Axiom) -> Option<&'static str> {
    recognize_id(axiom).map(LawId::name)
}

/// The recognised law of each axiom of `t`, in order.
pub fn recognize_all(t: &Theory) -> Vec<Option<&'static str>> {
    t.axioms.iter().map(|a| recognize(a)).collect()
}

/// A partial renaming from the catalogue's symbols and variables to a theory's, kept injective.
/// The maps are short association lists that only grow, so a failed branch is undone by
/// truncating them to their earlier lengths (no copies).
#[derive(Default)]
struct Matcher {
    funcs: Vec<(FuncId, FuncId)>,
    rels: Vec<(RelId, RelId)>,
    vars: Vec<(VarId, VarId)>,
}

/// Inserts `k ↦ v` into an injective association list; false if it clashes with what is there.
fn bind<K: Eq + Copy, V: Eq + Copy>(map: &mut Vec<(K, V)>, k: K, v: V) -> bool {
    match map.iter().find(|(a, _)| *a == k) {
        Some((_, old)) => *old == v,
        None if map.iter().any(|(_, x)| *x == v) => false,
        None => {
            map.push((k, v));
            true
        }
    }
}

impl Matcher {
    /// The lengths of the maps, to undo a failed branch with [`Matcher::undo`].
    fn mark(&self) -> (usize, usize, usize) {
        (self.funcs.len(), self.rels.len(), self.vars.len())
    }

    fn undo(&mut self, (f, r, v): (usize, usize, usize)) {
        self.funcs.truncate(f);
        self.rels.truncate(r);
        self.vars.truncate(v);
    }

    /// Does `pattern` match `f`, extending the renaming? On failure the renaming is unchanged.
    fn formula(&mut self, pattern: &Formula, f: &Formula) -> bool {
        let saved = self.mark();
        let ok = self.formula_inner(pattern, f);
        if !ok {
            self.undo(saved);
        }
        ok
    }

    fn formula_inner(&mut self, p: &Formula, f: &Formula) -> bool {
        use Formula::*;
        match (p, f) {
            (True, True) | (False, False) => true,
            (Eq(a, b), Eq(c, d)) => self.pair(a, b, c, d) || self.pair(a, b, d, c),
            (Rel(r, xs), Rel(s, ys)) => {
                xs.len() == ys.len()
                    && bind(&mut self.rels, *r, *s)
                    && xs.iter().zip(ys).all(|(x, y)| self.term(x, y))
            }
            (Not(a), Not(b)) => self.formula(a, b),
            (And(a, b), And(c, d)) | (Or(a, b), Or(c, d)) | (Iff(a, b), Iff(c, d)) => {
                self.both(a, b, c, d) || self.both(a, b, d, c)
            }
            (Implies(a, b), Implies(c, d)) => self.both(a, b, c, d),
            // A law is stated without quantifiers; a universally closed axiom matches its body.
            (p, Forall(_, body)) => self.formula(p, body),
            _ => false,
        }
    }

    fn both(&mut self, a: &Formula, b: &Formula, c: &Formula, d: &Formula) -> bool {
        let saved = self.mark();
        if self.formula(a, c) && self.formula(b, d) {
            return true;
        }
        self.undo(saved);
        false
    }

    fn pair(&mut self, a: &Term, b: &Term, c: &Term, d: &Term) -> bool {
        let saved = self.mark();
        if self.term(a, c) && self.term(b, d) {
            return true;
        }
        self.undo(saved);
        false
    }

    fn term(&mut self, p: &Term, t: &Term) -> bool {
        match (p, t) {
            (Term::Var(x), Term::Var(y)) => bind(&mut self.vars, *x, *y),
            (Term::App(f, xs), Term::App(g, ys)) => {
                xs.len() == ys.len()
                    && bind(&mut self.funcs, *f, *g)
                    && xs.iter().zip(ys).all(|(x, y)| self.term(x, y))
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laws_of(src: &str) -> Vec<Option<&'static str>> {
        recognize_all(&Theory::parse(src, "t").unwrap())
    }

    #[test]
    fn recognises_laws_up_to_renaming_and_orientation() {
        let got = laws_of("theory T\nfunc · : 2\nconst one\naxiom a: a · (b · c) = (a · b) · c\naxiom b: w = one · w\naxiom c: x · y = x\n");
        assert_eq!(
            got,
            vec![Some("associativity"), Some("left_identity"), None]
        );
    }

    #[test]
    fn distinct_placeholders_need_distinct_symbols() {
        // x * (y * z) = (x * y) + (x * z) is not distributivity: * and + must differ.
        let got = laws_of("theory T\nfunc * : 2\naxiom a: x * (y * z) = (x * y) * (x * z)\n");
        assert_eq!(got, vec![Some("left_self_distributivity")]);
    }

    #[test]
    fn relations_and_quantified_axioms() {
        let got = laws_of(
            "theory T\nrel <= : 2\naxiom r: all x. x <= x\naxiom t: x <= y & y <= z -> x <= z\n",
        );
        assert_eq!(got, vec![Some("reflexivity"), Some("transitivity")]);
    }
}
