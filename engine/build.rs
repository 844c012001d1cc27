//! Embeds every seed theory (`../seeds/*.bk`) into the crate, so the binary needs no data files.

use std::{env, fs, path::Path};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../seeds");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut seeds: Vec<(String, String)> = fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "bk"))
                .map(|p| {
                    println!("cargo:rerun-if-changed={}", p.display());
                    let name = p.file_stem().expect("a .bk file has a stem").to_string_lossy().into_owned();
                    let path = fs::canonicalize(&p).expect("seed path").display().to_string();
                    (name, path)
                })
                .collect()
        })
        .unwrap_or_default();
    seeds.sort();
    let mut code = String::from("/// Every seed, sorted by name.\npub static SEEDS: &[Seed] = &[\n");
    for (name, path) in seeds {
        code.push_str(&format!("    Seed {{ name: {name:?}, source: include_str!({path:?}) }},\n"));
    }
    code.push_str("];\n");
    fs::write(Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("seeds.rs"), code).expect("write seeds.rs");
}
