//! Structural richness, read off the isomorphism-class representatives: do the models have
//! non-commutative operations, and do they have symmetry (non-trivial automorphisms)?

use birkhoff_checker::finder::IsoClass;
use birkhoff_engine::{Signature, Structure};

/// Whether some binary operation with both arguments in one sort fails to commute in `m`.
fn non_commutative(sig: &Signature, m: &Structure) -> Option<bool> {
    let binary: Vec<_> = sig
        .func_ids()
        .filter(|&f| matches!(sig.func_decl(f).args.as_slice(), [a, b] if a == b))
        .collect();
    if binary.is_empty() {
        return None;
    }
    Some(binary.iter().any(|&f| {
        let n = m.size(sig.func_decl(f).args[0]);
        (0..n).any(|x| (0..n).any(|y| m.apply(sig, f, &[x, y]) != m.apply(sig, f, &[y, x])))
    }))
}

/// Structural richness: over the representatives with more than one element, the mean of
/// (a) the share with a non-commutative binary operation (when the signature has one) and
/// (b) the share with a non-trivial automorphism. 0 when there is no such representative.
/// Non-commutative witnesses and symmetric models are where the theory's structure shows; a
/// theory whose models are all commutative and rigid is structurally thin.
pub fn structural_richness(sig: &Signature, classes: &[IsoClass]) -> f64 {
    let nontrivial: Vec<&IsoClass> = classes
        .iter()
        .filter(|c| c.model.sizes.iter().any(|&n| n >= 2))
        .collect();
    if nontrivial.is_empty() {
        return 0.0;
    }
    let n = nontrivial.len() as f64;
    let symmetric = nontrivial.iter().filter(|c| c.automorphisms > 1).count() as f64 / n;
    let witnesses: Vec<bool> = nontrivial
        .iter()
        .filter_map(|c| non_commutative(sig, &c.model))
        .collect();
    if witnesses.is_empty() {
        symmetric
    } else {
        let noncomm = witnesses.iter().filter(|&&w| w).count() as f64 / witnesses.len() as f64;
        0.5 * noncomm + 0.5 * symmetric
    }
}
