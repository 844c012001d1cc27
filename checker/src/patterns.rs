//! Spectrum patterns as conjectures: statements about which orders have models, read off a
//! spectrum, each checked on every order whose count is exact and stated with that evidence.
//!
//! A pattern is proposed only when the exact counts support it from both sides: it must hold at
//! every exact order, and the spectrum must contain orders it allows with models and (for a
//! restriction) orders it excludes that were checked and have none. Order 1 is left out of the
//! restrictions on n (even, odd, prime powers, powers of p, residues, squares), since most
//! theories have a one-element model; the statement says "for n ≥ 2". Everything is reported
//! as open: a finite range of orders proves nothing about the orders beyond it. A model known
//! beside the counts (a countermodel to another statement, often larger) refutes every pattern
//! that excludes its order, and [`conjectures_beside`] leaves those out.

use crate::budget::Status;
use crate::spectrum::SpectrumRow;
use serde::Serialize;

/// The largest modulus of a residue pattern.
pub const MAX_MODULUS: u32 = 12;

/// A statement about the orders with models.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "pattern", rename_all = "snake_case")]
pub enum Pattern {
    /// Models only at even orders (n ≥ 2).
    OnlyEven,
    /// Models only at odd orders (n ≥ 2).
    OnlyOdd,
    /// Models only at prime-power orders (n ≥ 2).
    OnlyPrimePowers,
    /// Models only at orders that are powers of `p` (n ≥ 2).
    OnlyPowersOf {
        /// The prime.
        p: u32,
    },
    /// Exactly one model, up to isomorphism, of every order.
    ExactlyOnePerOrder,
    /// Models only at orders n ≥ 2 with n mod `modulus` in `residues`.
    Residues {
        /// The modulus, 3 to `MAX_MODULUS`.
        modulus: u32,
        /// The residues allowed, ascending.
        residues: Vec<u32>,
    },
    /// Models only at square orders (n ≥ 2).
    OnlySquares,
    /// No model of any order above `k`.
    NoneAbove {
        /// The largest order with a model.
        k: u32,
    },
}

impl Pattern {
    /// Whether a model of order `n` is consistent with the pattern: one that is not refutes it
    /// (a restriction on n ≥ 2 allows every order below 2). "Exactly one model of every order"
    /// is about counts, which one model cannot refute.
    pub fn allows(&self, n: u32) -> bool {
        let restricted = |allowed: bool| n < 2 || allowed;
        match self {
            Pattern::OnlyEven => restricted(n.is_multiple_of(2)),
            Pattern::OnlyOdd => restricted(n % 2 == 1),
            Pattern::OnlyPrimePowers => restricted(prime_base(n).is_some()),
            Pattern::OnlyPowersOf { p } => restricted(prime_base(n) == Some(*p)),
            Pattern::ExactlyOnePerOrder => true,
            Pattern::Residues { modulus, residues } => {
                restricted(residues.contains(&(n % modulus)))
            }
            Pattern::OnlySquares => restricted(is_square(n)),
            Pattern::NoneAbove { k } => n <= *k,
        }
    }
}

/// A proposed statement, with what it rests on. Always open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conjecture {
    /// The pattern.
    #[serde(flatten)]
    pub pattern: Pattern,
    /// The statement in words, with its evidence range.
    pub statement: String,
    /// Every order whose count was exact, and so was checked, ascending.
    pub checked: Vec<u32>,
    /// The orders that had models among them.
    pub with_models: Vec<u32>,
    /// Always `"open"`: a finite range is evidence, not proof.
    pub status: &'static str,
}

fn is_prime(n: u32) -> bool {
    n >= 2
        && (2..)
            .take_while(|d| d * d <= n)
            .all(|d| !n.is_multiple_of(d))
}

/// The prime p with n = p^k (k ≥ 1), if n is a prime power.
fn prime_base(n: u32) -> Option<u32> {
    let p = (2..=n).find(|d| n.is_multiple_of(*d))?;
    let mut m = n;
    while m.is_multiple_of(p) {
        m /= p;
    }
    (m == 1 && is_prime(p)).then_some(p)
}

fn is_square(n: u32) -> bool {
    let r = (n as f64).sqrt().round() as u32;
    r * r == n
}

/// "1-9" or "1-6, 8" for a list of orders.
fn ranges(orders: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < orders.len() {
        let mut j = i;
        while j + 1 < orders.len() && orders[j + 1] == orders[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            orders[i].to_string()
        } else {
            format!("{}-{}", orders[i], orders[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// The orders of a single-sorted spectrum whose iso count is exact, with the count.
fn exact(rows: &[SpectrumRow]) -> Vec<(u32, u128)> {
    let mut v: Vec<(u32, u128)> = rows
        .iter()
        .filter(|r| r.sizes.len() == 1 && r.iso.status == Status::Exact)
        .map(|r| (r.sizes[0], r.iso.value))
        .collect();
    v.sort_unstable();
    v.dedup_by_key(|(n, _)| *n);
    v
}

/// A restriction on n ≥ 2 is supported when it holds at every exact order ≥ 2 with models, at
/// least two such orders exist, and some exact order ≥ 2 it excludes has no model.
fn restriction(exact: &[(u32, u128)], allowed: impl Fn(u32) -> bool) -> bool {
    let big: Vec<&(u32, u128)> = exact.iter().filter(|(n, _)| *n >= 2).collect();
    let with: Vec<u32> = big
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(n, _)| *n)
        .collect();
    with.len() >= 2
        && with.iter().all(|&n| allowed(n))
        && big.iter().any(|&&(n, c)| c == 0 && !allowed(n))
}

/// The residues mod m of the orders ≥ 2 with models, when they are a proper subset that is
/// witnessed from both sides: every allowed residue occurs among the orders with models, every
/// excluded residue among the exact orders without.
fn residue_set(exact: &[(u32, u128)], m: u32) -> Option<Vec<u32>> {
    let big: Vec<&(u32, u128)> = exact.iter().filter(|(n, _)| *n >= 2).collect();
    let mut allowed: Vec<u32> = big
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(n, _)| n % m)
        .collect();
    allowed.sort_unstable();
    allowed.dedup();
    if allowed.is_empty() || allowed.len() == m as usize {
        return None;
    }
    let excluded_seen = (0..m)
        .filter(|r| !allowed.contains(r))
        .all(|r| big.iter().any(|&&(n, c)| c == 0 && n % m == r));
    excluded_seen.then_some(allowed)
}

/// [`conjectures`] without those a model in hand refutes: `orders` are the orders of models of
/// the theory known beside the counts (countermodels to other statements, larger than the
/// orders counted), each confirmed a model by the evaluator. Loops with x / y = y / x counted to
/// order 5 have models at orders 1, 2 and 4 only, but a countermodel to their commutativity has
/// order 6: "models only at orders that are powers of 2" is then false, not open.
///
/// ```
/// use birkhoff_checker::{conjectures_beside, Count, Pattern, SpectrumRow, Status};
/// let rows: Vec<SpectrumRow> = [1u128, 1, 0, 1, 0].iter().enumerate().map(|(i, &v)| SpectrumRow {
///     sizes: vec![i as u32 + 1],
///     iso: Count { value: v, status: Status::Exact },
///     labeled: Count { value: 0, status: Status::Unknown },
/// }).collect();
/// let powers = |found: &[birkhoff_checker::Conjecture]| {
///     found.iter().any(|c| c.pattern == Pattern::OnlyPowersOf { p: 2 })
/// };
/// assert!(powers(&conjectures_beside(&rows, &[])));
/// assert!(!powers(&conjectures_beside(&rows, &[6])));
/// ```
pub fn conjectures_beside(rows: &[SpectrumRow], orders: &[u32]) -> Vec<Conjecture> {
    let mut found = conjectures(rows);
    found.retain(|c| orders.iter().all(|&n| c.pattern.allows(n)));
    found
}

/// Every pattern the spectrum's exact counts support, as open conjectures. A pattern implied by
/// a more specific one that also holds is left out (powers of 2 imply even orders and prime
/// powers; a residue pattern that is the lift of one for a divisor of its modulus adds nothing).
///
/// ```
/// use birkhoff_checker::{conjectures, Count, Pattern, SpectrumRow, Status};
/// // Loops with x / y = y / x, orders 1..=9: 1, 1, 0, 1, 0, 1, 0, 7, 0.
/// let rows: Vec<SpectrumRow> = [1u128, 1, 0, 1, 0, 1, 0, 7, 0].iter().enumerate().map(|(i, &v)| SpectrumRow {
///     sizes: vec![i as u32 + 1],
///     iso: Count { value: v, status: Status::Exact },
///     labeled: Count { value: 0, status: Status::Unknown },
/// }).collect();
/// let found = conjectures(&rows);
/// assert!(found.iter().any(|c| c.pattern == Pattern::OnlyEven));
/// assert!(found.iter().all(|c| c.status == "open"));
/// ```
pub fn conjectures(rows: &[SpectrumRow]) -> Vec<Conjecture> {
    let exact = exact(rows);
    let checked: Vec<u32> = exact.iter().map(|(n, _)| *n).collect();
    let with_models: Vec<u32> = exact
        .iter()
        .filter(|(_, c)| *c > 0)
        .map(|(n, _)| *n)
        .collect();
    let evidence = format!("checked at every exact order: {}", ranges(&checked));
    let mut out = Vec::new();
    let mut push = |pattern: Pattern, what: String| {
        out.push(Conjecture {
            pattern,
            statement: format!("{what} ({evidence})"),
            checked: checked.clone(),
            with_models: with_models.clone(),
            status: "open",
        });
    };
    if checked.is_empty() {
        return out;
    }

    if exact.len() >= 3 && exact.iter().all(|(_, c)| *c == 1) {
        push(
            Pattern::ExactlyOnePerOrder,
            "exactly one model up to isomorphism of every order".into(),
        );
    }
    // No model above k: the largest order with a model, and at least two exact orders above it,
    // every one of them up to the last checked order exact and empty.
    let k = with_models.last().copied().unwrap_or(0);
    let above: Vec<u32> = checked.iter().copied().filter(|&n| n > k).collect();
    let last = *checked.last().expect("not empty");
    if above.len() >= 2 && above.len() as u32 == last - k {
        let what = if k == 0 {
            "no finite model at all".to_string()
        } else {
            format!("no model of any order above {k}")
        };
        push(Pattern::NoneAbove { k }, what);
    }
    // Powers of a single prime, then prime powers (skipped when a single prime explains it).
    let base = with_models
        .iter()
        .filter(|&&n| n >= 2)
        .map(|&n| prime_base(n))
        .collect::<Option<Vec<u32>>>();
    let single_prime = base
        .as_ref()
        .and_then(|b| b.first().filter(|p| b.iter().all(|q| q == *p)).copied());
    let single = single_prime.filter(|&p| restriction(&exact, |n| prime_base(n) == Some(p)));
    let powers_of_two = single == Some(2);
    if let Some(p) = single {
        push(
            Pattern::OnlyPowersOf { p },
            format!("models only at orders that are powers of {p} (n ≥ 2)"),
        );
    }
    if single.is_none() && restriction(&exact, |n| prime_base(n).is_some()) {
        push(
            Pattern::OnlyPrimePowers,
            "models only at prime-power orders (n ≥ 2)".into(),
        );
    }
    if !powers_of_two && restriction(&exact, |n| n % 2 == 0) {
        push(
            Pattern::OnlyEven,
            "models only at even orders (n ≥ 2)".into(),
        );
    }
    if restriction(&exact, |n| n % 2 == 1) {
        push(Pattern::OnlyOdd, "models only at odd orders (n ≥ 2)".into());
    }
    if restriction(&exact, is_square) {
        push(
            Pattern::OnlySquares,
            "models only at square orders (n ≥ 2)".into(),
        );
    }
    // Residues: report m only when no proper divisor d > 1 of m gives the same set of orders.
    let mut sets: Vec<(u32, Vec<u32>)> = Vec::new();
    for m in 2..=MAX_MODULUS {
        if let Some(res) = residue_set(&exact, m) {
            sets.push((m, res));
        }
    }
    for (m, res) in &sets {
        let lifted = sets.iter().any(|(d, r)| {
            d < m && m % d == 0 && (0..*m).all(|x| res.contains(&x) == r.contains(&(x % d)))
        });
        if *m == 2 || lifted {
            continue; // m = 2 is "only even" / "only odd" above.
        }
        let list = res
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" or ");
        push(
            Pattern::Residues {
                modulus: *m,
                residues: res.clone(),
            },
            format!("models only at orders n ≡ {list} (mod {m}) (n ≥ 2)"),
        );
    }
    out
}
