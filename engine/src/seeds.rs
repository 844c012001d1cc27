//! The seed theories, embedded from `seeds/*.bk` at build time.

use crate::error::{Error, Result};
use crate::theory::Theory;

/// A seed theory's file name (without `.bk`) and its text.
#[derive(Clone, Copy, Debug)]
pub struct Seed {
    /// The seed's name: its file stem, such as `abelian_group`.
    pub name: &'static str,
    /// The theory file's text.
    pub source: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/seeds.rs"));

/// Every seed, sorted by name.
pub fn all() -> &'static [Seed] {
    SEEDS
}

/// The seed called `name`, parsed. Matching ignores case and `-`/`_`, and also accepts the
/// theory's own name (`AbelianGroup` finds `abelian_group`).
pub fn load(name: &str) -> Result<Theory> {
    let key = |s: &str| {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let wanted = key(name);
    let seed = SEEDS
        .iter()
        .find(|s| key(s.name) == wanted)
        .ok_or_else(|| Error::UnknownSeed(name.to_string()))?;
    Theory::parse(seed.source, &format!("seeds/{}.bk", seed.name))
}
