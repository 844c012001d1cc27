//! Links the unwinder (libgcc_eh) into the binary on x86-64 Linux with glibc, so that no
//! `birkhoff` command loads libgcc_s.so at start-up: its constructor alone asks the CPU for its
//! features a dozen times, and each `cpuid` traps to the hypervisor on a virtual machine
//! (3.6 µs here). Listed here, the static library comes before the `-lgcc_s` that std asks
//! for, so the linker resolves every `_Unwind_*` symbol from it and, linking with
//! `--as-needed`, leaves libgcc_s out. Panics unwind through it as before.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |key: &str| std::env::var(key).unwrap_or_default();
    if var("CARGO_CFG_TARGET_ARCH") != "x86_64"
        || var("CARGO_CFG_TARGET_OS") != "linux"
        || var("CARGO_CFG_TARGET_ENV") != "gnu"
    {
        return;
    }
    println!("cargo:rustc-link-lib=static=gcc_eh");
}
