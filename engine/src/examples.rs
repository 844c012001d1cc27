//! Named finite structures from the literature: models of seed and catalogue classes that a
//! search for small models does not reach, such as the Heisenberg group modulo 3 (order 27,
//! exponent 3, not commutative) or the smallest nonassociative Moufang loop (order 12).
//!
//! The prover tries them before any search (`birkhoff_checker::prover::known`), so a
//! conjecture that one of them refutes, "monoids of exponent 3 are commutative", is disproved at
//! once, with a countermodel the evaluator confirms, rather than left open because the smallest
//! countermodel is beyond the sizes searched.
//!
//! Each structure is built by its construction, not typed in as a table. The tests check, with
//! the evaluator, that it is a model of its class and has every property its description claims.
//!
//! ```
//! use birkhoff_engine::{eval, examples};
//! let heisenberg = examples::all().iter().find(|x| x.name == "heisenberg_3").unwrap();
//! assert_eq!(heisenberg.model.sizes, [27]);
//! assert!(eval::check(&heisenberg.theory, &heisenberg.model).is_ok());
//! ```

use crate::structure::Structure;
use crate::Theory;
use std::sync::OnceLock;

/// A named finite structure: a model of `theory` (a seed or catalogue class).
pub struct Example {
    /// A short identifier (`heisenberg_3`).
    pub name: &'static str,
    /// What it is, in words, with its order.
    pub description: &'static str,
    /// Where the literature describes it.
    pub reference: &'static str,
    /// The class it belongs to (a seed or catalogue entry), whose signature `model` is over.
    pub theory: Theory,
    /// The structure.
    pub model: Structure,
    /// Formulas in the class's notation, each with whether it holds in `model`: what the
    /// description claims, checked by the tests.
    pub claims: &'static [(&'static str, bool)],
}

/// Every example, built once.
pub fn all() -> &'static [Example] {
    static ALL: OnceLock<Vec<Example>> = OnceLock::new();
    ALL.get_or_init(build_all)
}

/// A structure of class `class` on `0..n` whose every operation is computed from a
/// multiplication table: `*` itself, the identity `e` (the element that is one on both sides),
/// `inv` (x * inv(x) = e), and the divisions `\` (x * (x \ y) = y) and `/` ((x / y) * y = x).
/// Panics when the class has another symbol or the table lacks what a symbol needs: the
/// examples are fixed, and a test builds every one.
fn by_multiplication(class: &str, n: u32, mul: impl Fn(u32, u32) -> u32) -> (Theory, Structure) {
    let theory = crate::catalogue::load(class).expect("an example's class is shipped");
    let table: Vec<u32> = (0..n * n).map(|i| mul(i / n, i % n)).collect();
    let at = |x: u32, y: u32| table[(x * n + y) as usize];
    let solve = |f: &dyn Fn(u32) -> bool| (0..n).find(|&z| f(z)).expect("a quasigroup's table");
    let e = (0..n).find(|&e| (0..n).all(|x| at(e, x) == x && at(x, e) == x));
    let model = Structure::from_fn(
        &theory.sig,
        &[n],
        |name, a| match name {
            "*" => at(a[0], a[1]),
            "e" => e.expect("an identity"),
            "inv" => solve(&|z| at(a[0], z) == e.expect("an identity")),
            "\\" => solve(&|z| at(a[0], z) == a[1]),
            "/" => solve(&|z| at(z, a[1]) == a[0]),
            other => panic!("no operation {other} from a multiplication"),
        },
        |_, _| false,
    );
    (theory, model)
}

/// A ring of class `class` on `0..n` from its addition and multiplication, with zero `r0`, one
/// `r1` and negation computed from the tables.
fn ring(
    class: &str,
    n: u32,
    add: impl Fn(u32, u32) -> u32,
    mul: impl Fn(u32, u32) -> u32,
) -> (Theory, Structure) {
    let theory = crate::catalogue::load(class).expect("an example's class is shipped");
    let zero = (0..n)
        .find(|&z| (0..n).all(|x| add(z, x) == x))
        .expect("a zero");
    let one = (0..n).find(|&u| (0..n).all(|x| mul(u, x) == x && mul(x, u) == x));
    let model = Structure::from_fn(
        &theory.sig,
        &[n],
        |name, a| match name {
            "+" => add(a[0], a[1]),
            "*" => mul(a[0], a[1]),
            "neg" => (0..n).find(|&z| add(a[0], z) == zero).expect("a negative"),
            "r0" => zero,
            "r1" => one.expect("a one"),
            other => panic!("no ring operation {other}"),
        },
        |_, _| false,
    );
    (theory, model)
}

/// The lattice of an order on `0..n` given by `leq`, with meet `^` and join `v` as the greatest
/// lower and least upper bounds.
fn lattice(n: u32, leq: impl Fn(u32, u32) -> bool) -> (Theory, Structure) {
    let theory = crate::catalogue::load("lattice").expect("the lattice seed");
    // The bound of x and y that lies above (or below) every other bound.
    let bound = |x: u32, y: u32, below: bool| {
        let under = |a: u32, b: u32| if below { leq(a, b) } else { leq(b, a) };
        let bounds: Vec<u32> = (0..n).filter(|&z| under(z, x) && under(z, y)).collect();
        *bounds
            .iter()
            .find(|&&z| bounds.iter().all(|&w| under(w, z)))
            .expect("a lattice order")
    };
    let model = Structure::from_fn(
        &theory.sig,
        &[n],
        |name, a| match name {
            "^" => bound(a[0], a[1], true),
            "v" => bound(a[0], a[1], false),
            other => panic!("no lattice operation {other}"),
        },
        |_, _| false,
    );
    (theory, model)
}

/// The permutations of `0..degree` that `generators` generate, the identity first, then in the
/// order a breadth-first closure meets them; composition `p ∘ q` (apply q, then p).
fn permutation_group(degree: usize, generators: &[&[usize]]) -> Vec<Vec<usize>> {
    let mut group = vec![(0..degree).collect::<Vec<_>>()];
    let mut next = 0;
    while next < group.len() {
        for g in generators {
            let p: Vec<usize> = (0..degree).map(|i| g[group[next][i]]).collect();
            if !group.contains(&p) {
                group.push(p);
            }
        }
        next += 1;
    }
    group
}

/// The index in `elements` of the composition of the `a`th and `b`th maps (apply b, then a).
fn compose(elements: &[Vec<usize>], a: u32, b: u32) -> u32 {
    let (p, q) = (&elements[a as usize], &elements[b as usize]);
    let r: Vec<usize> = q.iter().map(|&i| p[i]).collect();
    elements
        .iter()
        .position(|x| *x == r)
        .expect("closed under composition") as u32
}

/// A group given by permutations, as a model of the `group` seed.
fn permutations(degree: usize, generators: &[&[usize]]) -> (Theory, Structure) {
    let g = permutation_group(degree, generators);
    by_multiplication("group", g.len() as u32, |a, b| compose(&g, a, b))
}

/// The quaternion units ±1, ±i, ±j, ±k as 4·sign + unit (unit 0 = 1, 1 = i, 2 = j, 3 = k).
fn quaternion(a: u32, b: u32) -> u32 {
    let (sa, ua, sb, ub) = (a / 4, a % 4, b / 4, b % 4);
    let (sign, unit) = match (ua, ub) {
        (0, u) | (u, 0) => (0, u),
        (u, v) if u == v => (1, 0),
        // i j = k, j k = i, k i = j; the other order negates.
        (u, v) => (u32::from(v != u % 3 + 1), 6 - u - v),
    };
    4 * ((sa + sb + sign) % 2) + unit
}

/// The commutative Moufang loop of order 81 and exponent 3 on (Z/3)⁴ (Bol, Bruck):
/// x ∘ y = (x₁+y₁, x₂+y₂, x₃+y₃, x₄+y₄ + (x₃−y₃)(x₁y₂−x₂y₁)).
fn commutative_moufang_81(x: u32, y: u32) -> u32 {
    let digits = |v: u32| [v % 3, v / 3 % 3, v / 9 % 3, v / 27];
    let (a, b) = (digits(x), digits(y));
    let twist = (3 + a[2] - b[2]) * (9 + a[0] * b[1] - a[1] * b[0]);
    let c = [
        (a[0] + b[0]) % 3,
        (a[1] + b[1]) % 3,
        (a[2] + b[2]) % 3,
        (a[3] + b[3] + twist) % 3,
    ];
    c[0] + 3 * c[1] + 9 * c[2] + 27 * c[3]
}

/// The 2 × 2 matrices over GF(2) as 4 bits (a b; c d) ↦ a + 2b + 4c + 8d.
fn matrix_2x2_f2(x: u32, y: u32) -> u32 {
    let m = |v: u32| [v & 1, v >> 1 & 1, v >> 2 & 1, v >> 3 & 1];
    let (a, b) = (m(x), m(y));
    let e = |i: usize, j: usize| (a[2 * i] * b[j] + a[2 * i + 1] * b[2 + j]) % 2;
    e(0, 0) | e(0, 1) << 1 | e(1, 0) << 2 | e(1, 1) << 3
}

/// GF(4) as polynomials over GF(2) modulo t² + t + 1, in 2 bits.
fn gf4(x: u32, y: u32) -> u32 {
    let mut p = 0;
    for i in 0..2 {
        if y >> i & 1 == 1 {
            p ^= x << i;
        }
    }
    if p & 4 != 0 {
        p ^= 0b111;
    }
    p
}

fn build_all() -> Vec<Example> {
    let s3 = permutation_group(3, &[&[1, 0, 2], &[1, 2, 0]]);
    let s3_inverse = |g: u32| (0..6).find(|&h| compose(&s3, g, h) == 0).expect("a group");
    let mut all = Vec::new();
    let mut add = |name, description, reference, (theory, model), claims| {
        all.push(Example {
            name,
            description,
            reference,
            theory,
            model,
            claims,
        })
    };
    add(
        "symmetric_3",
        "the symmetric group S₃ (order 6), the smallest group that is not commutative",
        "D. S. Dummit, R. M. Foote, Abstract Algebra, 3rd ed., Wiley 2004, §1.3",
        permutations(3, &[&[1, 0, 2], &[1, 2, 0]]),
        &[("x * y = y * x", false)],
    );
    add(
        "dihedral_4",
        "the dihedral group of order 8, the symmetries of a square",
        "D. S. Dummit, R. M. Foote, Abstract Algebra, 3rd ed., Wiley 2004, §1.2",
        permutations(4, &[&[1, 2, 3, 0], &[0, 3, 2, 1]]),
        &[
            ("x * y = y * x", false),
            ("x * x * x * x = e", true),
            ("x * x * y = y * x * x", true),
        ],
    );
    add(
        "quaternion_8",
        "the quaternion group Q₈ = {±1, ±i, ±j, ±k} (order 8): not commutative, with one element of order 2",
        "D. S. Dummit, R. M. Foote, Abstract Algebra, 3rd ed., Wiley 2004, §1.5",
        by_multiplication("group", 8, quaternion),
        &[
            ("x * y = y * x", false),
            ("x * x * x * x = e", true),
            ("x * x = e -> x * y = y * x", true),
            ("x * x * y = y * x * x", true),
        ],
    );
    add(
        "alternating_4",
        "the alternating group A₄ (order 12), of even permutations of four points",
        "D. S. Dummit, R. M. Foote, Abstract Algebra, 3rd ed., Wiley 2004, §3.5",
        permutations(4, &[&[1, 2, 0, 3], &[0, 2, 3, 1]]),
        &[
            ("x * y = y * x", false),
            ("x * x * x * x * x * x = e", true),
        ],
    );
    add(
        "heisenberg_3",
        "the Heisenberg group modulo 3, upper unitriangular 3 × 3 matrices over Z/3 (order 27): exponent 3, not commutative",
        "D. S. Dummit, R. M. Foote, Abstract Algebra, 3rd ed., Wiley 2004, §4.5, exercise 11; the smallest nonabelian group of exponent 3",
        by_multiplication("group", 27, |x, y| {
            let (a, b, c) = (x / 9, x / 3 % 3, x % 3);
            let (d, e, f) = (y / 9, y / 3 % 3, y % 3);
            (a + d) % 3 * 9 + (b + e) % 3 * 3 + (c + f + a * e) % 3
        }),
        &[("x * y = y * x", false), ("x * (x * x) = e", true)],
    );
    add(
        "moufang_12",
        "the smallest nonassociative Moufang loop, Chein's M(S₃, 2) (order 12)",
        "O. Chein, Moufang loops of small order I, Trans. Amer. Math. Soc. 188 (1974) 31-51",
        by_multiplication("moufang_loop", 12, |x, y| {
            let (g, i, h, j) = (x % 6, x / 6, y % 6, y / 6);
            match (i, j) {
                (0, 0) => compose(&s3, g, h),
                (0, _) => 6 + compose(&s3, h, g),
                (_, 0) => 6 + compose(&s3, g, s3_inverse(h)),
                _ => compose(&s3, s3_inverse(h), g),
            }
        }),
        &[
            ("(x * y) * z = x * (y * z)", false),
            ("x * y = y * x", false),
            ("(x * y) * (z * x) = (x * (y * z)) * x", true),
        ],
    );
    add(
        "steiner_loop_10",
        "the Steiner loop of the affine plane of order 3 (order 10): a point times another is the third point of their line, a point times itself the identity; a C-loop, commutative, not Moufang",
        "J. D. Phillips, P. Vojtechovsky, C-loops: extensions and constructions, J. Algebra Appl. 5 (2006) 33-56; H. O. Pflugfelder, Quasigroups and Loops: Introduction, Heldermann 1990, Ch. V",
        // 0 is the identity, 1 + 3a + b the point (a, b) of the plane over Z/3, whose lines are
        // the triples with p + q + r = 0.
        by_multiplication("c_loop", 10, |x, y| match (x, y) {
            (0, y) => y,
            (x, 0) => x,
            (x, y) if x == y => 0,
            (x, y) => {
                let (p, q) = (x - 1, y - 1);
                let third = |i: u32, j: u32| (6 - i - j) % 3;
                1 + 3 * third(p / 3, q / 3) + third(p % 3, q % 3)
            }
        }),
        &[
            ("(x * y) * (z * x) = (x * (y * z)) * x", false),
            ("x * y = y * x", true),
            ("x * x = e", true),
        ],
    );
    add(
        "commutative_moufang_81",
        "the commutative Moufang loop of order 81 and exponent 3 on (Z/3)⁴, the smallest nonassociative commutative Moufang loop",
        "R. H. Bruck, A Survey of Binary Systems, Springer 1958, VIII.2; G. Bol, Gewebe und Gruppen, Math. Ann. 114 (1937) 414-431",
        by_multiplication("commutative_moufang_loop", 81, commutative_moufang_81),
        &[("(x * y) * z = x * (y * z)", false), ("x * (x * x) = e", true)],
    );
    add(
        "distributive_nonmedial_81",
        "the distributive quasigroup x ∘ y = (x y)⁻¹ on the commutative Moufang loop of order 81 (Fischer, Belousov): distributive, not medial",
        "V. D. Belousov, Foundations of the Theory of Quasigroups and Loops, Nauka 1967; B. Fischer, Distributive Quasigruppen endlicher Ordnung, Math. Z. 83 (1964) 267-303",
        by_multiplication("distributive_quasigroup", 81, |x, y| {
            let xy = commutative_moufang_81(x, y);
            commutative_moufang_81(xy, xy)
        }),
        &[
            ("(x * y) * (z * w) = (x * z) * (y * w)", false),
            ("x * x = x", true),
            ("x * y = y * x", true),
        ],
    );
    add(
        "full_transformations_3",
        "the full transformation monoid T₃ of all maps of a 3-element set to itself (order 27)",
        "J. M. Howie, Fundamentals of Semigroup Theory, Oxford University Press 1995, §1.1",
        {
            let maps: Vec<Vec<usize>> = (0..27).map(|v| vec![v % 3, v / 3 % 3, v / 9]).collect();
            by_multiplication("monoid", 27, |a, b| compose(&maps, a, b))
        },
        &[("x * y = y * x", false), ("x * x = x", false)],
    );
    add(
        "brandt_2",
        "the Brandt semigroup B₂ = {e₁₁, e₁₂, e₂₁, e₂₂, 0} of 2 × 2 matrix units with zero (order 5)",
        "J. M. Howie, Fundamentals of Semigroup Theory, Oxford University Press 1995, §5.1",
        by_multiplication("semigroup", 5, |x, y| {
            // e_ij as 2i + j for i, j in 0..2; 4 is zero.
            if x == 4 || y == 4 || x % 2 != y / 2 {
                4
            } else {
                x / 2 * 2 + y % 2
            }
        }),
        &[
            ("x * y * x = x", false),
            ("x * x * x = x * x", true),
            ("x * y = y * x", false),
        ],
    );
    add(
        "pentagon",
        "the pentagon N₅, the smallest lattice that is not modular",
        "B. A. Davey, H. A. Priestley, Introduction to Lattices and Order, 2nd ed., Cambridge University Press 2002, §4.10",
        // 0 < a < c < 1 and 0 < b < 1: 0 = 0, a = 1, b = 2, c = 3, 1 = 4.
        lattice(5, |x, y| {
            x == y || x == 0 || y == 4 || (x == 1 && y == 3)
        }),
        &[("x ^ (y v (x ^ z)) = (x ^ y) v (x ^ z)", false)],
    );
    add(
        "diamond",
        "the diamond M₃, the smallest modular lattice that is not distributive",
        "B. A. Davey, H. A. Priestley, Introduction to Lattices and Order, 2nd ed., Cambridge University Press 2002, §4.10",
        lattice(5, |x, y| x == y || x == 0 || y == 4),
        &[
            ("x ^ (y v (x ^ z)) = (x ^ y) v (x ^ z)", true),
            ("x ^ (y v z) = (x ^ y) v (x ^ z)", false),
        ],
    );
    add(
        "matrices_2_f2",
        "the ring of 2 × 2 matrices over GF(2) (order 16), the smallest simple ring that is not commutative",
        "T. Y. Lam, A First Course in Noncommutative Rings, 2nd ed., Springer 2001, §3",
        ring("ring_unital", 16, |x, y| x ^ y, matrix_2x2_f2),
        &[("x * y = y * x", false), ("x + x = r0", true)],
    );
    add(
        "gf_4",
        "the field GF(4) with four elements",
        "R. Lidl, H. Niederreiter, Finite Fields, 2nd ed., Cambridge University Press 1997, ch. 2",
        ring("field", 4, |x, y| x ^ y, gf4),
        &[("x * x * x * x = x", true), ("x * x = x", false)],
    );
    all
}
