//! The dimensions read off a theory's iso-class spectrum: non-triviality, richness, novelty and
//! selectivity. They use only counts up to isomorphism, and respect each count's status: a lower
//! bound is used as a lower bound, and only exact counts are ever compared for equality.

use birkhoff_checker::{Count, SpectrumRow, Status};
use serde::{Deserialize, Serialize};

/// An exact row of a one-sorted spectrum whose labeled count is not known here (a lower bound
/// of 0): a published count up to isomorphism.
pub fn exact(n: u32, iso: u128) -> SpectrumRow {
    SpectrumRow {
        sizes: vec![n],
        iso: Count {
            value: iso,
            status: Status::Exact,
        },
        labeled: Count {
            value: 0,
            status: Status::AtLeast,
        },
    }
}

/// More than one element somewhere: a model here would not be trivial.
fn nontrivial(p: &SpectrumRow) -> bool {
    p.sizes.iter().any(|&n| n >= 2)
}

fn exact_value(p: &SpectrumRow) -> Option<u128> {
    (p.iso.status == Status::Exact).then_some(p.iso.value)
}

/// A named theory whose spectrum is known, to compare against.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KnownSpectrum {
    /// The theory's name.
    pub name: String,
    /// Its spectrum (exact points only are used).
    pub points: Vec<SpectrumRow>,
}

/// The spectra of the ground-truth table shipped with Birkhoff (tests/data/ground_truth.tsv):
/// exact, published counts for the classical theories, the default reference for novelty.
pub fn ground_truth_spectra() -> Vec<KnownSpectrum> {
    let mut out: Vec<KnownSpectrum> = Vec::new();
    for row in birkhoff_engine::ground_truth::rows() {
        let Some(iso) = row.iso else { continue };
        let mut point = exact(row.n, iso);
        if let Some(labeled) = row.labeled {
            point.labeled = Count {
                value: labeled,
                status: Status::Exact,
            };
        }
        match out.iter_mut().find(|k| k.name == row.theory) {
            Some(k) => k.points.push(point),
            None => out.push(KnownSpectrum {
                name: row.theory,
                points: vec![point],
            }),
        }
    }
    out
}

/// The spectra of the catalogue's named theories whose entry names an OEIS sequence of
/// isomorphism classes: the sequence's terms (from the shipped data file) at orders 1 to 12,
/// under the entry's name. With [`ground_truth_spectra`], what novelty compares against.
pub fn catalogue_spectra() -> Vec<KnownSpectrum> {
    let Ok(entries) = birkhoff_engine::catalogue::entries() else {
        return Vec::new();
    };
    entries
        .into_iter()
        .filter_map(|(info, _)| {
            let seq = birkhoff_checker::oeis::get(info.oeis.as_deref()?)?;
            if seq.counts != birkhoff_checker::oeis::Counts::Unlabeled {
                return None;
            }
            let points: Vec<SpectrumRow> = (1..=12u32)
                .filter_map(|n| {
                    seq.term(i64::from(n) + info.oeis_shift)
                        .map(|iso| exact(n, iso))
                })
                .collect();
            (!points.is_empty()).then_some(KnownSpectrum {
                name: info.name,
                points,
            })
        })
        .collect()
}

/// Every spectrum novelty compares against: the ground-truth table and the catalogue.
pub fn known_spectra() -> Vec<KnownSpectrum> {
    known_spectra_without(&[])
}

/// [`known_spectra`] but for the catalogue entries named in `hidden` (the rediscovery benchmark
/// hides them to see whether they are found again). The ground-truth table is never hidden: it
/// counts structures, and a spectrum it holds is known whatever the catalogue says.
pub fn known_spectra_without(hidden: &[String]) -> Vec<KnownSpectrum> {
    let mut known = ground_truth_spectra();
    known.extend(
        catalogue_spectra()
            .into_iter()
            .filter(|k| !hidden.contains(&k.name)),
    );
    known
}

/// Non-triviality: 0 if no model with more than one element was found, 1/2 if such models
/// exist at one size, 1 if at two sizes or more. A theory whose only models are trivial says
/// nothing about structure; one with models at several sizes describes a family.
pub fn non_triviality(points: &[SpectrumRow]) -> f64 {
    match points
        .iter()
        .filter(|p| nontrivial(p) && p.iso.value > 0)
        .count()
    {
        0 => 0.0,
        1 => 0.5,
        _ => 1.0,
    }
}

/// Richness: `1 − exp(−R/5)` with `R = Σ ln(1 + a_n)` over the nontrivial sizes, `a_n` the iso
/// count (a lower bound counts as its value). Groups to size 6 score about 0.58, magmas to size 3
/// nearly 1, a theory with only a one-element model 0. The logarithm keeps a single explosive
/// size from drowning the others.
pub fn richness(points: &[SpectrumRow]) -> f64 {
    let r: f64 = points
        .iter()
        .filter(|p| nontrivial(p))
        .map(|p| (1.0 + p.iso.value as f64).ln())
        .sum();
    1.0 - (-r / 5.0).exp()
}

/// Tightness: how few models the theory has at the largest size where it has any above one
/// element: `1 − min(1, ln(1 + a) / ln(1001))`, with `a` the largest iso count among the rows of
/// that size; a count cut short counts as a thousand or more (0), and a theory with no model
/// above one element scores 0. The catalogue's classes are mostly tight (two loops of order 4,
/// 46 bands) where the theories one deletion from them are close to free magmas (thousands of
/// order 4): a few models at a small size is where a classification begins.
pub fn tightness(points: &[SpectrumRow]) -> f64 {
    let with_models: Vec<&SpectrumRow> = points
        .iter()
        .filter(|p| nontrivial(p) && p.iso.value > 0)
        .collect();
    let Some(largest) = with_models
        .iter()
        .map(|p| p.sizes.iter().sum::<u32>())
        .max()
    else {
        return 0.0;
    };
    let most = with_models
        .iter()
        .filter(|p| p.sizes.iter().sum::<u32>() == largest)
        .map(|p| exact_value(p))
        .try_fold(0u128, |most, v| v.map(|v| most.max(v)));
    match most {
        Some(a) => 1.0 - ((1.0 + a as f64).ln() / 1001f64.ln()).min(1.0),
        None => 0.0,
    }
}

/// The distance between two spectra: `1 − exp(−mean |ln(1+a_n) − ln(1+b_n)|)` over the sizes
/// where both are exact, or where a lower bound already exceeds the other's exact value (the
/// difference is then certain, and the bound is used). `None` if no size can be compared.
pub fn distance(a: &[SpectrumRow], b: &[SpectrumRow]) -> Option<f64> {
    let mut diffs = Vec::new();
    for p in a.iter().filter(|p| nontrivial(p)) {
        let Some(q) = b.iter().find(|q| q.sizes == p.sizes) else {
            continue;
        };
        let certain = match (exact_value(p), exact_value(q)) {
            (Some(x), Some(y)) => Some((x, y)),
            (None, Some(y)) if p.iso.value > y => Some((p.iso.value, y)),
            (Some(x), None) if q.iso.value > x => Some((x, q.iso.value)),
            _ => None,
        };
        if let Some((x, y)) = certain {
            diffs.push(((1.0 + x as f64).ln() - (1.0 + y as f64).ln()).abs());
        }
    }
    (!diffs.is_empty()).then(|| 1.0 - (-(diffs.iter().sum::<f64>() / diffs.len() as f64)).exp())
}

/// Novelty: the distance to the nearest spectrum among the parents and the known theories.
/// 0 means the spectrum equals one already known wherever both were measured; `None` if
/// nothing could be compared (no shared exact sizes).
pub fn novelty(
    points: &[SpectrumRow],
    parents: &[Vec<SpectrumRow>],
    known: &[KnownSpectrum],
) -> Option<f64> {
    parents
        .iter()
        .map(Vec::as_slice)
        .chain(known.iter().map(|k| k.points.as_slice()))
        .filter_map(|other| distance(points, other))
        .min_by(f64::total_cmp)
}

/// The known theory whose spectrum agrees exactly with `points` on at least two nontrivial
/// sizes, all of them with models, and disagrees nowhere: a hint that the theories are related.
pub fn spectrum_match<'k>(
    points: &[SpectrumRow],
    known: &'k [KnownSpectrum],
) -> Option<&'k KnownSpectrum> {
    agreeing(points, known, 2)
}

/// The first known theory whose spectrum agrees exactly with `points` on at least `sizes`
/// nontrivial sizes with models and disagrees at no size where both are exact.
pub fn agreeing<'k>(
    points: &[SpectrumRow],
    known: &'k [KnownSpectrum],
    sizes: usize,
) -> Option<&'k KnownSpectrum> {
    known.iter().find(|k| {
        let mut agree = 0;
        for p in points.iter().filter(|p| nontrivial(p)) {
            let (Some(x), Some(y)) = (
                exact_value(p),
                k.points
                    .iter()
                    .find(|q| q.sizes == p.sizes)
                    .and_then(exact_value),
            ) else {
                continue;
            };
            if x != y {
                return false;
            }
            agree += usize::from(x > 0);
        }
        agree >= sizes
    })
}

/// Selectivity: the theory has models at some sizes and provably none at others (exact zeros),
/// as fields (prime powers) and Steiner systems (1, 3 mod 6) do. With `P` sizes ≥ 2 with models
/// and `Z` sizes ≥ 2 with exactly none, it is `4·P·Z / (P + Z)²`: 1 when they balance, 0 when
/// either is empty. Such arithmetic conditions on the size are a classic mark of structure.
pub fn selectivity(points: &[SpectrumRow]) -> f64 {
    let rows = points.iter().filter(|p| nontrivial(p));
    let (mut with, mut without) = (0.0f64, 0.0f64);
    for p in rows {
        match exact_value(p) {
            Some(0) => without += 1.0,
            _ if p.iso.value > 0 => with += 1.0,
            _ => {}
        }
    }
    if with == 0.0 || without == 0.0 {
        0.0
    } else {
        4.0 * with * without / ((with + without) * (with + without))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spectrum(counts: &[u128]) -> Vec<SpectrumRow> {
        counts
            .iter()
            .enumerate()
            .map(|(i, &c)| exact(i as u32 + 1, c))
            .collect()
    }

    #[test]
    fn the_ground_truth_table_is_read() {
        let known = ground_truth_spectra();
        let groups = known.iter().find(|k| k.name == "group").unwrap();
        assert_eq!(
            groups
                .points
                .iter()
                .find(|p| p.sizes == [8])
                .unwrap()
                .iso
                .value,
            5
        );
    }

    #[test]
    fn a_known_spectrum_has_no_novelty_and_matches() {
        let groups = spectrum(&[1, 1, 1, 2, 1, 2]);
        let known = ground_truth_spectra();
        assert_eq!(novelty(&groups, &[], &known), Some(0.0));
        assert!(spectrum_match(&groups, &known).is_some());
        let odd = spectrum(&[1, 7, 0, 3]);
        assert!(novelty(&odd, &[], &known).unwrap() > 0.1);
    }

    #[test]
    fn lower_bounds_are_compared_only_where_the_difference_is_certain() {
        let bound = |v| {
            vec![SpectrumRow {
                sizes: vec![2],
                iso: Count {
                    value: v,
                    status: Status::AtLeast,
                },
                labeled: Count {
                    value: v,
                    status: Status::AtLeast,
                },
            }]
        };
        let exact = vec![exact(2, 3)];
        assert_eq!(distance(&bound(2), &exact), None);
        assert!(distance(&bound(5), &exact).unwrap() > 0.0);
    }

    #[test]
    fn selectivity_needs_both_gaps_and_models() {
        assert_eq!(
            selectivity(&spectrum(&[1, 1, 1, 1, 1, 0])),
            4.0 * 4.0 / 25.0
        );
        assert_eq!(selectivity(&spectrum(&[1, 1, 2, 1])), 0.0);
        assert_eq!(selectivity(&spectrum(&[1, 0, 0])), 0.0);
    }

    #[test]
    fn tightness_reads_the_largest_size_with_models_and_a_count_cut_short_as_many() {
        // Loops to order 4 (2 of order 4) are tight; magmas of order 3 (3,330) are not.
        let loops = tightness(&spectrum(&[1, 1, 1, 2]));
        assert!((loops - (1.0 - 3f64.ln() / 1001f64.ln())).abs() < 1e-12);
        assert_eq!(tightness(&spectrum(&[1, 10, 3330])), 0.0);
        // The largest size with models decides, not the last size counted.
        assert_eq!(
            tightness(&spectrum(&[1, 2, 0])),
            tightness(&spectrum(&[1, 2]))
        );
        // Only trivial models: nothing to be tight about.
        assert_eq!(tightness(&spectrum(&[1, 0, 0])), 0.0);
        let mut cut = spectrum(&[1, 1, 1, 2]);
        cut[3].iso.status = Status::AtLeast;
        assert_eq!(tightness(&cut), 0.0);
    }
}
