//! Spectra recognised offline: the OEIS sequences that count algebraic and combinatorial
//! structures (`catalogue/oeis.tsv`, embedded at build time) and matching a spectrum against them.
//!
//! A spectrum matches a sequence at a shift `s` when the count of models of every order n that was
//! computed exactly equals the sequence's term n + s, wherever the file has that term, and at
//! least [`MIN_NONTRIVIAL`] of the compared terms are non-trivial (2 or more): a run of 0s and 1s
//! says too little to name a sequence. Counts up to isomorphism are compared with the sequences
//! that count unlabeled structures, labeled counts with those that count labeled ones. A lower
//! bound (a count cut short) above the sequence's term rules the match out; below it, it is not
//! evidence either way. Only single-sorted spectra are compared.
//!
//! The file's format is described in docs/CATALOGUE.md: one sequence a line, tab-separated
//! `A-number, name, offset, unlabeled|labeled, terms` (comma-separated), `#` comments.

use crate::budget::Status;
use crate::spectrum::SpectrumRow;
use serde::Serialize;
use std::sync::OnceLock;

/// The data file's text.
pub const DATA: &str = include_str!("../../catalogue/oeis.tsv");

/// The fewest terms of 2 or more that a match must compare.
pub const MIN_NONTRIVIAL: usize = 5;

/// The shifts tried: the count at order n is compared with the term n + shift.
pub const SHIFTS: std::ops::RangeInclusive<i64> = -2..=2;

/// What a sequence counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Counts {
    /// Structures up to isomorphism (or anything that is not a labeled count).
    Unlabeled,
    /// Structures on the labeled set {1..n}.
    Labeled,
}

/// One sequence of the data file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sequence {
    /// The A-number, such as `A000001`.
    pub id: String,
    /// The OEIS name, shortened where long.
    pub name: String,
    /// The index of the first term.
    pub offset: i64,
    /// Whether the terms count labeled structures.
    pub counts: Counts,
    /// The terms, from the offset on.
    pub terms: Vec<u128>,
}

impl Sequence {
    /// The term of index `i`, if the file has it.
    pub fn term(&self, i: i64) -> Option<u128> {
        let k = i.checked_sub(self.offset)?;
        usize::try_from(k)
            .ok()
            .and_then(|k| self.terms.get(k).copied())
    }
}

/// Parses the data file's format; errors name the line.
pub fn parse(text: &str) -> Result<Vec<Sequence>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| format!("catalogue/oeis.tsv:{}: {why}", i + 1);
        let f: Vec<&str> = line.split('\t').collect();
        let [id, name, offset, counts, terms] = f[..] else {
            return Err(at(format!(
                "expected 5 tab-separated fields, found {}",
                f.len()
            )));
        };
        if !(id.len() == 7 && id.starts_with('A') && id[1..].chars().all(|c| c.is_ascii_digit())) {
            return Err(at(format!("`{id}` is not an A-number")));
        }
        let offset: i64 = offset
            .trim()
            .parse()
            .map_err(|_| at(format!("offset `{offset}` is not an integer")))?;
        let counts = match counts.trim() {
            "unlabeled" => Counts::Unlabeled,
            "labeled" => Counts::Labeled,
            other => return Err(at(format!("`{other}` should be `unlabeled` or `labeled`"))),
        };
        let terms = terms
            .split(',')
            .map(|t| {
                t.trim()
                    .parse::<u128>()
                    .map_err(|_| at(format!("term `{}` is not a non-negative integer", t.trim())))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if name.trim().is_empty() {
            return Err(at("the name is empty".into()));
        }
        out.push(Sequence {
            id: id.to_string(),
            name: name.trim().to_string(),
            offset,
            counts,
            terms,
        });
    }
    Ok(out)
}

/// Every sequence of the embedded data file, in file order.
pub fn sequences() -> &'static [Sequence] {
    static SEQUENCES: OnceLock<Vec<Sequence>> = OnceLock::new();
    // The file is part of the build and a test parses it, so a parse error is a bug.
    SEQUENCES.get_or_init(|| {
        parse(DATA).unwrap_or_else(|e| panic!("the embedded OEIS data does not parse: {e}"))
    })
}

/// The sequence with this A-number.
pub fn get(id: &str) -> Option<&'static Sequence> {
    sequences().iter().find(|s| s.id == id)
}

/// A spectrum's match with a sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Match {
    /// The A-number.
    pub id: String,
    /// The sequence's name.
    pub name: String,
    /// Which counts of the spectrum matched: iso against unlabeled, labeled against labeled.
    pub counts: Counts,
    /// The count at order n is the term n + shift.
    pub shift: i64,
    /// The orders compared (each exact, each with a term in the file).
    pub orders: Vec<u32>,
    /// How many compared terms were 2 or more.
    pub nontrivial: usize,
}

impl Match {
    /// In words: `A006966 (Number of lattices on n unlabeled nodes), iso count at n = a(n+1), 8 orders 1-8`.
    pub fn describe(&self) -> String {
        let at = match self.shift {
            0 => "a(n)".to_string(),
            s if s > 0 => format!("a(n+{s})"),
            s => format!("a(n{s})"),
        };
        let which = match self.counts {
            Counts::Unlabeled => "iso",
            Counts::Labeled => "labeled",
        };
        let range = match (self.orders.first(), self.orders.last()) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            _ => String::new(),
        };
        format!(
            "{} ({}): {which} count at order n = {at}, on {} orders {range}",
            self.id,
            self.name,
            self.orders.len()
        )
    }
}

/// The single-sorted rows of a spectrum as (order, count) with their status, iso or labeled.
fn counts_of(rows: &[SpectrumRow], counts: Counts) -> Vec<(u32, u128, Status)> {
    rows.iter()
        .filter(|r| r.sizes.len() == 1)
        .map(|r| {
            let c = match counts {
                Counts::Unlabeled => r.iso,
                Counts::Labeled => r.labeled,
            };
            (r.sizes[0], c.value, c.status)
        })
        .collect()
}

/// Compares a spectrum's counts (iso or labeled, as `seq` counts) with `seq` at `shift`: the
/// orders compared and how many terms were non-trivial, or `None` when a term disagrees (an
/// exact count differs, or a lower bound exceeds the term) or an exact count of 2 or more falls
/// before the sequence's first term.
pub fn compare(rows: &[SpectrumRow], seq: &Sequence, shift: i64) -> Option<(Vec<u32>, usize)> {
    let mut orders = Vec::new();
    let mut nontrivial = 0;
    for (n, value, status) in counts_of(rows, seq.counts) {
        let i = i64::from(n) + shift;
        match (seq.term(i), status) {
            (Some(t), Status::Exact) if t == value => {
                orders.push(n);
                nontrivial += usize::from(t >= 2);
            }
            (Some(_), Status::Exact) => return None,
            (Some(t), Status::AtLeast) if value > t => return None,
            // A count of 0 or 1 before the sequence starts is no evidence against it: many
            // sequences begin at the first order with something to count.
            (None, Status::Exact) if i < seq.offset && value >= 2 => return None,
            _ => {}
        }
    }
    Some((orders, nontrivial))
}

/// Every sequence of `sequences` that the spectrum matches, at every shift in [`SHIFTS`]:
/// iso counts against unlabeled sequences, labeled counts against labeled ones. Sorted with
/// unshifted matches first, then by the number of orders compared (most first).
pub fn recognise_in(rows: &[SpectrumRow], sequences: &[Sequence]) -> Vec<Match> {
    let mut out = Vec::new();
    for seq in sequences {
        for shift in SHIFTS {
            if let Some((orders, nontrivial)) = compare(rows, seq, shift) {
                if nontrivial >= MIN_NONTRIVIAL {
                    out.push(Match {
                        id: seq.id.clone(),
                        name: seq.name.clone(),
                        counts: seq.counts,
                        shift,
                        orders,
                        nontrivial,
                    });
                }
            }
        }
    }
    out.sort_by_key(|m| {
        (
            m.shift != 0,
            m.shift.abs(),
            std::cmp::Reverse(m.orders.len()),
            m.id.clone(),
        )
    });
    out
}

/// [`recognise_in`] against the embedded data file.
///
/// ```
/// use birkhoff_checker::{Count, SpectrumRow, Status};
/// // Groups of orders 1..=8: 1, 1, 1, 2, 1, 2, 1, 5 (labeled counts unknown here).
/// let rows: Vec<SpectrumRow> = [1u128, 1, 1, 2, 1, 2, 1, 5].iter().enumerate().map(|(i, &v)| SpectrumRow {
///     sizes: vec![i as u32 + 1],
///     iso: Count { value: v, status: Status::Exact },
///     labeled: Count { value: 0, status: Status::Unknown },
/// }).collect();
/// // Four non-trivial terms only: too few to name a sequence.
/// assert!(birkhoff_checker::oeis::recognise(&rows).is_empty());
/// ```
pub fn recognise(rows: &[SpectrumRow]) -> Vec<Match> {
    recognise_in(rows, sequences())
}
