//! With the `z3` feature, checks that the system's libz3 is installed, so that a missing library
//! is reported with the package to install instead of as a linker error.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var_os("CARGO_FEATURE_Z3").is_none() {
        return;
    }
    let dirs = [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib",
        "/usr/local/lib",
        "/opt/homebrew/lib",
        "/usr/lib64",
    ];
    let found = dirs.iter().any(|d| {
        ["libz3.so", "libz3.dylib", "libz3.a"]
            .iter()
            .any(|f| std::path::Path::new(d).join(f).exists())
    }) || std::env::var_os("Z3_LIBRARY_PATH_OVERRIDE").is_some();
    if !found {
        println!("cargo:warning=libz3 was not found: install the Debian package `libz3-dev` (apt-get install libz3-dev), or build without Z3 with `--no-default-features`");
    }
}
