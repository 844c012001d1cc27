//! Stops a build that did not read the workspace's `.cargo/config.toml` on the target its
//! settings are for, and, with the `z3` feature, checks that the system's libz3 is installed, so
//! that a missing library is reported with the package to install instead of as a linker error.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    require_workspace_config();
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

/// On x86-64 Linux with glibc, `.cargo/config.toml` keeps libz3 out of the link (src/z3/load.rs
/// loads it on first use) and links CaDiCaL's libstdc++ statically. Cargo reads that file only
/// when it runs inside the workspace, so `cargo build --manifest-path .../Cargo.toml` started
/// elsewhere would build a binary that loads both shared libraries at start-up, silently. The
/// file's `[env]` sets `BIRKHOFF_CARGO_CONFIG`; without it the build stops here and says what to
/// do.
fn require_workspace_config() {
    println!("cargo:rerun-if-env-changed=BIRKHOFF_CARGO_CONFIG");
    let var = |key: &str| std::env::var(key).unwrap_or_default();
    let configured_target = var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if !configured_target || std::env::var_os("BIRKHOFF_CARGO_CONFIG").is_some() {
        return;
    }
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = workspace.canonicalize().unwrap_or(workspace);
    let config = workspace.join(".cargo").join("config.toml");
    eprintln!(
        "error: this build did not read {config}, which Cargo reads only when it runs inside the \
         workspace: without it the binary would link libz3 and the shared libstdc++ at start-up. \
         Run cargo from {workspace} (cd {workspace} && cargo build ...), or pass the file: \
         cargo --config {config} build ...",
        config = config.display(),
        workspace = workspace.display(),
    );
    std::process::exit(1);
}
