//! How the `birkhoff` binary is linked on x86-64 Linux with glibc, for a faster start
//! (docs/BENCHMARKS.md, "Start-up, again"):
//!
//! * The unwinder (libgcc_eh) is linked statically, so that no command loads libgcc_s.so at
//!   start-up: its constructor alone asks the CPU for its features a dozen times, and each
//!   `cpuid` traps to the hypervisor on a virtual machine (3.6 µs here). Listed here, the static
//!   library comes before the `-lgcc_s` that std asks for, so the linker resolves every
//!   `_Unwind_*` symbol from it and, linking with `--as-needed`, leaves libgcc_s out. Panics
//!   unwind through it as before.
//! * Relative relocations are packed (DT_RELR, `-z pack-relative-relocs`): the binary's 12,000
//!   of them took 290 KB of `.rela.dyn` that ld.so read and applied one by one at every start,
//!   and now take 3 KB of bitmaps. Only when building natively against glibc 2.36 or later,
//!   whose ld.so reads them; the binary then names that need (`GLIBC_ABI_DT_RELR`), so an older
//!   glibc refuses it with that name instead of running it unrelocated.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |key: &str| std::env::var(key).unwrap_or_default();
    if var("CARGO_CFG_TARGET_ARCH") != "x86_64" || var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    println!("cargo:rustc-link-lib=static=gcc_eh");
    if var("HOST") == var("TARGET") && glibc_version().is_some_and(|v| v >= (2, 36)) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// The version of this machine's glibc, from `getconf GNU_LIBC_VERSION` ("glibc 2.36").
fn glibc_version() -> Option<(u32, u32)> {
    let out = std::process::Command::new("getconf").arg("GNU_LIBC_VERSION").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let (major, minor) = text.trim().strip_prefix("glibc ")?.split_once('.')?;
    Some((major.parse().ok()?, minor.split('.').next()?.parse().ok()?))
}
