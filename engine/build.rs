//! Embeds every seed theory (`../seeds/*.bk`) and every catalogue entry (`../catalogue/*.bk`) into
//! the crate, so the binary needs no data files.

use std::{env, fs, path::Path};

/// The `.bk` files of `dir` as (file stem, absolute path), sorted by stem.
fn theory_files(dir: &Path) -> Vec<(String, String)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<(String, String)> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "bk"))
                .map(|p| {
                    println!("cargo:rerun-if-changed={}", p.display());
                    let name = p
                        .file_stem()
                        .expect("a .bk file has a stem")
                        .to_string_lossy()
                        .into_owned();
                    let path = fs::canonicalize(&p)
                        .expect("theory file path")
                        .display()
                        .to_string();
                    (name, path)
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Rust source for a static array `name` of `ty { name, source }` items, one per file.
fn table(doc: &str, name: &str, ty: &str, files: &[(String, String)]) -> String {
    let mut code = format!("/// {doc}\npub static {name}: &[{ty}] = &[\n");
    for (stem, path) in files {
        code.push_str(&format!(
            "    {ty} {{ name: {stem:?}, source: include_str!({path:?}) }},\n"
        ));
    }
    code.push_str("];\n");
    code
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).to_path_buf();
    let seeds = theory_files(&root.join("seeds"));
    fs::write(
        out.join("seeds.rs"),
        table("Every seed, sorted by name.", "SEEDS", "Seed", &seeds),
    )
    .expect("write seeds.rs");
    let catalogue = theory_files(&root.join("catalogue"));
    fs::write(
        out.join("catalogue.rs"),
        table(
            "Every catalogue file, sorted by name.",
            "FILES",
            "File",
            &catalogue,
        ),
    )
    .expect("write catalogue.rs");
}
