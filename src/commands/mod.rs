//! One module per subcommand, plus the arguments and helpers they share.

pub mod agent;
pub mod backtest;
pub mod calibrate;
pub mod catalogue;
pub mod check;
pub mod conjecture;
pub mod engine;
pub mod equiv;
pub mod eval;
pub mod explore;
pub mod export;
pub mod find;
pub mod identify;
pub mod import;
pub mod library;
pub mod literature;
pub mod models;
pub mod paper;
pub mod prove;
pub mod report;
pub mod research;
pub mod score;
pub mod seeds;
pub mod serve;
pub mod show;
pub mod spectrum;
pub mod structure;
pub mod sweep;

use anyhow::{bail, Context};
use birkhoff_checker::{finder::FinderError, Budget};
use birkhoff_engine::Theory;
use std::time::Duration;

// Limits shared by every command that searches.
#[derive(clap::Args, Clone)]
pub struct BudgetArgs {
    /// Give up on each size after this many seconds (`spectrum`: on the whole command, its sizes
    /// and engines sharing one budget); its counts are then reported as "at least k" (or
    /// unknown), never as exact.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Give up on each size after this many search nodes.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Give up on each size after this many isomorphism classes. Every class is kept in memory
    /// (about 100 bytes each for small tables), so this bounds memory; raise it for larger runs.
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub max_models: u64,
    /// The most memory one size may need, such as `8G` or `512M`: a size whose estimated cost is
    /// larger is refused before anything is built. By default nine tenths of the memory the
    /// machine has available.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub max_memory: Option<u64>,
}

impl BudgetArgs {
    /// The budget these flags describe, stopped by Ctrl-C as well. `--max-memory` is set for the
    /// whole process here, before any search starts.
    pub fn budget(&self) -> Budget {
        if let Some(bytes) = self.max_memory {
            birkhoff_checker::set_memory_limit(bytes);
        }
        Budget {
            time: self.timeout,
            nodes: self.max_nodes,
            models: Some(self.max_models),
            cancel: Some(crate::interrupt::flag()),
            progress: None,
        }
    }
}

/// A number of bytes: `4096`, `512K`, `512M`, `8G` (powers of 1024; a trailing `B` or `iB` is
/// allowed).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim().trim_end_matches(['B', 'b']).trim_end_matches('i');
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 10),
        Some((i, 'M' | 'm')) => (&t[..i], 20),
        Some((i, 'G' | 'g')) => (&t[..i], 30),
        Some((i, 'T' | 't')) => (&t[..i], 40),
        _ => (t, 0),
    };
    let v: f64 = digits.trim().parse().map_err(|_| {
        format!("`{s}` is not an amount of memory: write `8G`, `512M` or a number of bytes")
    })?;
    let bytes = v * f64::from(1u32 << 10).powi(shift / 10);
    if !(bytes.is_finite() && (1.0..1e19).contains(&bytes)) {
        return Err(format!("`{s}`: the memory limit must be at least one byte"));
    }
    Ok(bytes as u64)
}

/// A positive number of seconds, for the time-limit flags.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!(
            "`{s}`: the time limit must be a positive number of seconds"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// One size per sort, in declaration order.
#[derive(Clone, Debug)]
pub struct Sizes(pub Vec<u32>);

/// Sizes as `5` (one sort) or `2x3` / `2,3` (one size per sort, in declaration order).
pub fn parse_sizes(s: &str) -> Result<Sizes, String> {
    let sizes: Vec<u32> = s
        .split(['x', ','])
        .map(|p| {
            p.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{s}` is not a size: write `5`, or `2x3` for several sorts"))
        })
        .collect::<Result<_, _>>()?;
    if sizes.contains(&0) {
        return Err(format!("`{s}`: every size must be at least 1"));
    }
    Ok(Sizes(sizes))
}

/// What every command's THEORY argument may be, tried in this order: a theory file (Birkhoff's
/// format, TPTP or LADR), a seed name, a catalogue entry's name, or a discovery of the library
/// at `library` (else at the default library, `$BIRKHOFF_LIBRARY` or `./birkhoff-library`, when
/// it exists) named by its name, one of its aliases or its ID (`thy-...`). The library is read,
/// never created. A file's goal or conjecture is never one of its axioms: it is kept as `meta
/// conjecture`, for `prove`. When nothing matches, the error names every kind tried.
pub fn resolve_theory(arg: &str, library: Option<&std::path::Path>) -> anyhow::Result<Theory> {
    let unknown = match Theory::load(arg) {
        Err(e @ birkhoff_engine::Error::UnknownSeed(_)) => e,
        other => return other.map_err(anyhow::Error::new),
    };
    let dir = library.map_or_else(birkhoff_library::default_dir, std::path::Path::to_path_buf);
    if !dir.is_dir() {
        let given = if library.is_some() {
            "--library"
        } else {
            "the default library"
        };
        bail!("{unknown}; no theory file is called `{arg}` either; and {given} {} does not exist to look for a discovery of that name or ID (give --library DIR)", dir.display());
    }
    let lib = birkhoff_library::Library::open(&dir)
        .map_err(|e| anyhow::anyhow!("--library {}: {e}", dir.display()))?;
    match birkhoff_research::workspace::find_discovery(&lib, arg) {
        // Named as the library names it: the text keeps the candidate's name (`Semigroup+unipotent(*)`).
        Ok((id, rec)) => {
            let mut t = Theory::parse(&rec.text, &id).map_err(|e| {
                anyhow::anyhow!("`{arg}` ({id} in the library {}): {e}", dir.display())
            })?;
            t.name = rec.name;
            Ok(t)
        }
        Err(birkhoff_research::Error::NoDiscovery(_)) => {
            bail!("{unknown}; no theory file is called `{arg}` either; nor is it the name, alias or ID of a discovery of the library {} (`birkhoff report --top 10` lists them)", dir.display())
        }
        Err(e) => Err(anyhow::anyhow!("--library {}: {e}", dir.display())),
    }
}

// The library a THEORY argument may name a discovery of (see `resolve_theory`). A plain
// comment: a doc comment here would become the help of the commands that flatten it.
#[derive(clap::Args, Clone, Default)]
pub struct TheoryLibrary {
    /// The library whose discoveries THEORY may name, by name, alias or ID (read, never
    /// created). Default: $BIRKHOFF_LIBRARY, else ./birkhoff-library when it exists.
    #[arg(long = "library", value_name = "DIR")]
    pub library: Option<std::path::PathBuf>,
}

impl TheoryLibrary {
    /// The theory `arg` names (see [`resolve_theory`]).
    pub fn load(&self, arg: &str) -> anyhow::Result<Theory> {
        resolve_theory(arg, self.library.as_deref())
    }

    /// The library's directory, which may not exist.
    pub fn path(&self) -> std::path::PathBuf {
        self.library
            .clone()
            .unwrap_or_else(birkhoff_library::default_dir)
    }
}

// How a command that looks at models reads its THEORY: which library a discovery's name is
// looked up in, and what becomes of a file's goal.
#[derive(clap::Args, Clone)]
pub struct GoalArgs {
    /// Read the file's goal (a LADR goal, a TPTP conjecture) as Mace4 does: its denial is added
    /// to the assumptions, so the models are countermodels to the goal, and the theory is named
    /// NAME_goal_denied in the output. Without it the goal is set aside (stderr says so).
    #[arg(long)]
    pub mace4_goals: bool,
    #[command(flatten)]
    pub library: TheoryLibrary,
}

impl GoalArgs {
    /// The theory whose models the command looks at: the assumptions alone, or with
    /// `--mace4-goals` the assumptions and the goal's denial. Either way a theory that states a
    /// goal gets a line on stderr saying what became of it, since a user who wrote a goal may
    /// expect either reading.
    pub fn load(&self, name_or_path: &str) -> anyhow::Result<Theory> {
        let t = self.library.load(name_or_path)?;
        let Some(goal) = t.meta.get(birkhoff_engine::interop::CONJECTURE_META) else {
            if self.mace4_goals {
                bail!("--mace4-goals: {name_or_path} states no goal to deny");
            }
            return Ok(t);
        };
        let goal = birkhoff_library::text::quote(goal);
        if !self.mace4_goals {
            eprintln!("note: the goal of {name_or_path} ({goal}) is set aside: these are the models of its assumptions (`prove` proves the goal; --mace4-goals reads it as Mace4 does)");
            return Ok(t);
        }
        let denied =
            birkhoff_engine::interop::deny_conjecture(&t)?.expect("the theory states a goal");
        eprintln!("note: --mace4-goals: the goal of {name_or_path} ({goal}) is denied and added to the assumptions, so these are countermodels to it (theory {})", denied.name);
        Ok(denied)
    }
}

/// A goal given on the command line for the THEORY argument `arg`, which was loaded as `t`: in
/// the syntax of the theory's file when `arg` is one (LADR's conventions for a LADR file, where
/// `x'` is the postfix operator and not a variable), in Birkhoff's otherwise. `name` (the
/// argument or the flag) names it in errors.
pub fn parse_goal(
    arg: &str,
    t: &Theory,
    goal: &str,
    name: &str,
) -> anyhow::Result<birkhoff_engine::syntax::Axiom> {
    let path = std::path::Path::new(arg);
    if path.is_file() {
        let src = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        return Ok(birkhoff_engine::interop::parse_goal(&src, arg, goal, name)?);
    }
    Ok(birkhoff_engine::parse::parse_formula(&t.sig, goal, name)?)
}

/// Checks that `--min-size` is at most `--max-size`, naming both flags.
pub fn check_size_range(min: u32, max: u32) -> anyhow::Result<()> {
    anyhow::ensure!(
        min <= max,
        "--min-size {min} is larger than --max-size {max}"
    );
    Ok(())
}

/// Checks that `sizes` gives one size per sort of `t`, each at least 1. There is no fixed upper
/// bound: the engines refuse what they cannot encode (the native finder above 64 elements, the
/// SAT back end past its literal limit), and `--engine auto` passes such sizes to SAT.
pub fn check_sizes(t: &Theory, sizes: &[u32], flag: &str) -> anyhow::Result<()> {
    let sorts = t.sig.sorts.len();
    if sizes.len() != sorts {
        let names: Vec<&str> = t.sig.sorts.iter().map(|s| s.name.as_str()).collect();
        bail!(
            "{flag}: theory {} has {sorts} sort(s) ({}), so give {sorts} size(s) such as `{}`",
            t.name,
            names.join(", "),
            vec!["3"; sorts].join("x")
        );
    }
    if sizes.contains(&0) {
        bail!("{flag}: every sort has at least 1 element");
    }
    Ok(())
}

/// An engine's answer, with a refusal of the size (no engine can take it, or the one chosen
/// cannot) turned into a flag error: `flag` names the flag and its value, such as `--size 81`.
pub fn naming_size_flag<T>(r: Result<T, FinderError>, flag: &str) -> anyhow::Result<T> {
    r.map_err(|e| match e {
        FinderError::Problem(_) | FinderError::Encoding(_) => anyhow::anyhow!("{flag}: {e}"),
        e => e.into(),
    })
}

/// Reads a whole file, naming it in the error.
pub fn read_file(path: &std::path::Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}
