//! Stable, content-derived record IDs: a kind prefix and the first 16 hex digits of the SHA-256
//! of the record's identifying content. IDs are the only names ever turned into paths, and they
//! are validated first, so nothing read from a record or a language model can name a file
//! outside the library.

use sha2::{Digest, Sha256};

/// The record kinds, their ID prefixes and their directories.
pub const KINDS: [(&str, &str, &str); 6] = [
    ("theory", "thy", "theories"),
    ("spectrum", "spc", "spectra"),
    ("model", "mod", "models"),
    ("conjecture", "cnj", "conjectures"),
    ("proof", "prf", "proofs"),
    ("placement", "plc", "placements"),
];

/// The ID of a record of this kind prefix whose identifying content is `material`.
pub fn derive(prefix: &str, material: &str) -> String {
    let digest = Sha256::digest(material.as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}-{hex}")
}

/// The directory of the kind an ID belongs to, if the ID is well formed.
pub fn dir_of(id: &str) -> Option<&'static str> {
    let (prefix, hex) = id.split_once('-')?;
    let valid_hex = hex.len() == 16
        && hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    KINDS
        .iter()
        .find(|(_, p, _)| *p == prefix)
        .filter(|_| valid_hex)
        .map(|(_, _, d)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_validated() {
        let a = derive("thy", "x");
        assert_eq!(a, derive("thy", "x"));
        assert_ne!(a, derive("thy", "y"));
        assert_eq!(dir_of(&a), Some("theories"));
        for bad in [
            "../../etc/passwd",
            "thy-../../etc/pass",
            "thy-0123456789ABCDEF",
            "xyz-0123456789abcdef",
            "thy-0123",
            "",
        ] {
            assert_eq!(dir_of(bad), None, "{bad}");
        }
    }
}
