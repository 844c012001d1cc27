//! What the first-model benches share: reading an instance argument.

use birkhoff_engine::Theory;

/// An instance argument `THEORY:N` (a seed name or a theory file, and a size): the theory, the
/// size, and a name for the files written about it (the file's stem, or the seed's name), so that
/// a script that passed the argument knows the file names.
pub fn instance(arg: &str) -> (Theory, u32, String) {
    let (name, n) = arg.rsplit_once(':').expect("an instance is THEORY:N");
    let n: u32 = n.parse().expect("N is a size");
    let t = Theory::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let stem = std::path::Path::new(name)
        .file_stem()
        .map_or(name.into(), |s| s.to_string_lossy().into_owned());
    (t, n, stem)
}
