//! libz3 loaded on first use, not at start-up.
//!
//! Linked the usual way, libz3 (and the libstdc++ it needs) is mapped and relocated before
//! `main` on every run: about 3,000 symbol lookups and 17,700 relocations, half a millisecond
//! of every `birkhoff` command, though only `--engine z3|both` and the prover's last step call
//! Z3 (docs/BENCHMARKS.md, "Where a small `find` spends its time"). On x86-64 Linux with glibc
//! the build therefore does not link it (`.cargo/config.toml` replaces z3-sys's build script),
//! and this module defines every C function z3-sys declares as a trampoline:
//!
//! * `Z3_f` jumps to the address in its slot; while the slot is empty it jumps to a stub that
//!   saves the argument registers, calls `resolve` (which `dlopen`s libz3 once and fills every
//!   slot by `dlsym`), restores them and jumps to the function itself, so the first call of
//!   each function behaves as a direct call would.
//! * The entry points of the Z3 backend call [`available`] first and turn a libz3 that cannot
//!   be loaded into an error; a call that reaches a trampoline without it, or a function this
//!   libz3 lacks (z3-sys declares functions newer than Z3 4.8.12), ends the process with a
//!   message instead of jumping to nowhere.
//!
//! Elsewhere z3-sys's build script links libz3 as usual and [`available`] is always `Ok`.

/// Whether libz3 can be used: loads it on the first call. The error says why not (dlerror's
/// message, with the library names tried).
pub fn available() -> Result<(), String> {
    imp::available()
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu")))]
mod imp {
    pub fn available() -> Result<(), String> {
        Ok(())
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu"))]
mod imp {
    use std::ffi::CStr;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::OnceLock;

    /// The library names tried, in order: the soname of Z3 4.x, then the development link.
    const LIBRARIES: [&CStr; 2] = [c"libz3.so.4", c"libz3.so"];

    /// Defines, for each name, a slot index (`Function::Z3_f as usize`), the trampoline `Z3_f`,
    /// and [`NAMES`], the names in slot order separated by NULs (one string: no relocations at
    /// start-up, unlike a table of pointers).
    macro_rules! trampolines {
        ($($name:ident),* $(,)?) => {
            #[allow(non_camel_case_types, dead_code)]
            #[repr(usize)]
            enum Function { $($name),* }

            /// Every trampolined name, in slot order, each followed by a NUL.
            const NAMES: &str = concat!($(stringify!($name), "\0"),*);

            /// How many functions there are.
            const COUNT: usize = [$(stringify!($name)),*].len();

            $(
                // The slot is read with a plain load: an aligned 8-byte load is atomic on x86-64,
                // and `resolve` fills every slot before any stub jumps through one.
                std::arch::global_asm!(
                    concat!(".globl ", stringify!($name)),
                    concat!(".type ", stringify!($name), ",@function"),
                    concat!(stringify!($name), ":"),
                    "mov r11, qword ptr [rip + {slots} + {offset}]",
                    "test r11, r11",
                    "jz 2f",
                    "jmp r11",
                    "2:",
                    "mov r11d, {index}",
                    "jmp birkhoff_z3_lazy",
                    concat!(".size ", stringify!($name), ", . - ", stringify!($name)),
                    slots = sym SLOTS,
                    offset = const (Function::$name as usize) * 8,
                    index = const Function::$name as usize,
                );
            )*
        };
    }

    include!("load_names.rs");

    /// The address of each function, 0 until [`resolve`] has run.
    static SLOTS: [AtomicUsize; COUNT] = [const { AtomicUsize::new(0) }; COUNT];

    /// What loading libz3 gave: `Ok` with the names this libz3 lacks, or dlerror's message.
    static LOADED: OnceLock<Result<Vec<&'static str>, String>> = OnceLock::new();

    pub fn available() -> Result<(), String> {
        load().as_ref().map(|_| ()).map_err(Clone::clone)
    }

    fn load() -> &'static Result<Vec<&'static str>, String> {
        LOADED.get_or_init(|| {
            let mut errors = Vec::new();
            for library in LIBRARIES {
                // SAFETY: dlopen reads a NUL-terminated name; libz3's initializers run here, once.
                let handle =
                    unsafe { libc::dlopen(library.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
                if handle.is_null() {
                    errors.push(last_dl_error());
                    continue;
                }
                let mut missing = Vec::new();
                for (slot, name) in SLOTS
                    .iter()
                    .zip(NAMES.as_bytes().split_inclusive(|&b| b == 0))
                {
                    let name = CStr::from_bytes_with_nul(name).expect("each name ends in its NUL");
                    // SAFETY: the handle is open and the name NUL-terminated.
                    let address = match unsafe { libc::dlsym(handle, name.as_ptr()) } as usize {
                        0 => {
                            missing.push(name.to_str().expect("the names are ASCII"));
                            absent as *const () as usize
                        }
                        found => found,
                    };
                    slot.store(address, Ordering::Release);
                }
                return Ok(missing);
            }
            Err(format!(
                "cannot load libz3 (Debian: apt install libz3-4): {}",
                errors.join("; ")
            ))
        })
    }

    /// dlerror's message for the last failed call.
    fn last_dl_error() -> String {
        // SAFETY: dlerror returns null or a NUL-terminated message valid until the next dl call
        // on this thread, copied at once.
        let message = unsafe { libc::dlerror() };
        if message.is_null() {
            "unknown dlopen error".into()
        } else {
            unsafe { CStr::from_ptr(message) }
                .to_string_lossy()
                .into_owned()
        }
    }

    /// Called by the lazy stub with the slot index of the function called first: loads libz3,
    /// or ends the process when it cannot be loaded, since the C caller expects the function to
    /// run.
    extern "C" fn resolve(index: usize) {
        if let Err(e) = load() {
            eprintln!("error: the Z3 engine was called but {e}");
            std::process::abort();
        }
        debug_assert!(SLOTS[index].load(Ordering::Acquire) != 0);
    }

    /// Where the slot of a function this libz3 lacks points.
    extern "C" fn absent() {
        let missing = match load() {
            Ok(missing) => missing.join(", "),
            Err(_) => String::new(),
        };
        eprintln!("error: Birkhoff called a Z3 function that this libz3 lacks (it lacks: {missing}); Z3 4.8.12 or later is needed");
        std::process::abort();
    }

    // The lazy stub, `birkhoff_z3_lazy` (global, for the trampolines may land in other codegen
    // units, and hidden): entered by a jump from a trampoline whose slot was empty, with the slot index
    // in r11 and the C caller's arguments in place. It keeps every register that can carry an
    // argument (rdi, rsi, rdx, rcx, r8, r9; rax for variadic calls; xmm0-7), calls `resolve`,
    // restores them and jumps to the function, which returns straight to the C caller.
    // Alignment: entered with rsp = 8 mod 16 (the caller's return address); eight pushes and
    // 136 bytes make it 0 mod 16 at the call, as the System V ABI requires.
    std::arch::global_asm!(
        ".globl birkhoff_z3_lazy",
        ".hidden birkhoff_z3_lazy",
        ".type birkhoff_z3_lazy,@function",
        ".p2align 4",
        "birkhoff_z3_lazy:",
        "push r11",
        "push rdi",
        "push rsi",
        "push rdx",
        "push rcx",
        "push r8",
        "push r9",
        "push rax",
        "sub rsp, 136",
        "movdqu [rsp], xmm0",
        "movdqu [rsp + 16], xmm1",
        "movdqu [rsp + 32], xmm2",
        "movdqu [rsp + 48], xmm3",
        "movdqu [rsp + 64], xmm4",
        "movdqu [rsp + 80], xmm5",
        "movdqu [rsp + 96], xmm6",
        "movdqu [rsp + 112], xmm7",
        "mov rdi, r11",
        "call {resolve}",
        "movdqu xmm0, [rsp]",
        "movdqu xmm1, [rsp + 16]",
        "movdqu xmm2, [rsp + 32]",
        "movdqu xmm3, [rsp + 48]",
        "movdqu xmm4, [rsp + 64]",
        "movdqu xmm5, [rsp + 80]",
        "movdqu xmm6, [rsp + 96]",
        "movdqu xmm7, [rsp + 112]",
        "add rsp, 136",
        "pop rax",
        "pop r9",
        "pop r8",
        "pop rcx",
        "pop rdx",
        "pop rsi",
        "pop rdi",
        "pop r11",
        "lea r10, [rip + {slots}]",
        "jmp qword ptr [r10 + r11 * 8]",
        ".size birkhoff_z3_lazy, . - birkhoff_z3_lazy",
        resolve = sym resolve,
        slots = sym SLOTS,
    );
}

#[cfg(test)]
mod tests {
    /// A first call through a trampoline loads libz3 and reaches the real function: Z3's
    /// version, asked of the library itself, is 4.8 or later.
    #[test]
    fn a_first_call_reaches_libz3() {
        assert_eq!(super::available(), Ok(()));
        let version = z3::full_version();
        let major_minor: Vec<u32> = version
            .trim_start_matches("Z3 ")
            .split('.')
            .take(2)
            .map(|n| n.parse().expect("a number"))
            .collect();
        assert!(major_minor >= vec![4, 8], "{version}");
    }
}
