//! Limits on a search (time, nodes, models, Ctrl-C) and the honesty of the counts they produce.

use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How far a search may go. The default is unlimited.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Wall-clock limit for one size.
    pub time: Option<Duration>,
    /// Limit on search nodes (decisions) for one size.
    pub nodes: Option<u64>,
    /// Stop after this many models (isomorphism classes in iso mode).
    pub models: Option<u64>,
    /// Set to true (by a Ctrl-C handler, say) to stop every search soon.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Where a counting search adds each isomorphism class as it finds it, for progress lines
    /// (never for the count itself: classes found by parallel workers are merged afterwards).
    pub progress: Option<Arc<AtomicU64>>,
}

/// The memory limit in bytes: `--max-memory`, or the default once computed; 0 before either.
static MEMORY_LIMIT: AtomicU64 = AtomicU64::new(0);

/// Sets the most memory one compiled problem or encoding may plan for (`--max-memory`).
pub fn set_memory_limit(bytes: u64) {
    MEMORY_LIMIT.store(bytes.max(1), Ordering::Relaxed);
}

/// The most memory, in bytes, that the engines may plan for one problem at one size: the value
/// of [`set_memory_limit`], else nine tenths of what the machine has available (the kernel's
/// `MemAvailable`, and the cgroup's `memory.max` where it is lower) when first asked, else 4 GiB.
/// Each engine estimates what a size will cost before building anything, and refuses a size
/// whose estimate is past this: building it would be killed by the kernel, or abort, after
/// minutes.
pub fn memory_limit() -> u64 {
    match MEMORY_LIMIT.load(Ordering::Relaxed) {
        0 => {
            let default = available_memory().map_or(4 << 30, |a| a / 10 * 9).max(1);
            let _ = MEMORY_LIMIT.compare_exchange(0, default, Ordering::Relaxed, Ordering::Relaxed);
            MEMORY_LIMIT.load(Ordering::Relaxed)
        }
        set => set,
    }
}

/// What this process may still allocate: the kernel's estimate of available memory, bounded
/// by the cgroup's limit less its current use.
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let mut available = kib * 1024;
    let cgroup = |name: &str| {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{name}"))
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    if let (Some(max), Some(current)) = (cgroup("memory.max"), cgroup("memory.current")) {
        available = available.min(max.saturating_sub(current));
    }
    Some(available)
}

/// `bytes` for a message: `512 MiB`, `6.3 GiB`.
pub fn memory_text(bytes: u128) -> String {
    let gib = bytes as f64 / f64::from(1u32 << 30);
    match bytes {
        b if b < 1 << 30 => format!("{} MiB", b >> 20),
        b if b < 1 << 40 => format!("{gib:.1} GiB"),
        _ => format!("{:.1e} GiB", gib),
    }
}

impl Budget {
    /// Whether the caller has set [`Budget::cancel`]: a loop over many quick searches asks
    /// before each one, since a search that ends at once may never look.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Adds one isomorphism class to [`Budget::progress`], if a progress counter is given.
    pub fn report_class(&self) {
        if let Some(progress) = &self.progress {
            progress.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Whether a count is the whole truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The search finished: the count is exact.
    Exact,
    /// The search stopped early: at least this many.
    AtLeast,
    /// The search stopped early and found nothing: no information.
    Unknown,
}

/// A number of models with its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// The number found (a lower bound unless `status` is exact).
    #[serde(with = "u128_as_string_if_large")]
    pub value: u128,
    /// Whether it is exact.
    pub status: Status,
}

impl Count {
    /// The count a search produced: exact if it finished, else a lower bound (or unknown if zero).
    pub fn from_search(value: u128, finished: bool) -> Count {
        let status = match (finished, value) {
            (true, _) => Status::Exact,
            (false, 0) => Status::Unknown,
            (false, _) => Status::AtLeast,
        };
        Count { value, status }
    }
}

impl std::fmt::Display for Count {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.status {
            Status::Exact => write!(f, "{}", self.value),
            Status::AtLeast => write!(f, "≥{}", self.value),
            Status::Unknown => write!(f, "?"),
        }
    }
}

/// JSON numbers lose precision past 2^53: larger counts are written as strings.
mod u128_as_string_if_large {
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        if *v < (1u128 << 53) {
            s.serialize_u64(*v as u64)
        } else {
            s.serialize_str(&v.to_string())
        }
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum N {
            Num(u64),
            Str(String),
        }
        match N::deserialize(d)? {
            N::Num(n) => Ok(n as u128),
            N::Str(s) => s.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// A budget being spent by several workers at once.
pub(crate) struct Meter {
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    nodes: AtomicU64,
    cancel: Option<Arc<AtomicBool>>,
    stopped: AtomicBool,
}

impl Meter {
    pub fn new(b: &Budget) -> Meter {
        Meter {
            deadline: b.time.map(|t| Instant::now() + t),
            max_nodes: b.nodes,
            nodes: AtomicU64::new(0),
            cancel: b.cancel.clone(),
            stopped: AtomicBool::new(false),
        }
    }

    /// Records `delta` more nodes; false when the budget is spent (from now on, for every worker).
    pub fn charge(&self, delta: u64) -> bool {
        let total = self.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        let over = self.max_nodes.is_some_and(|m| total > m) || self.out_of_time();
        if over {
            self.stopped.store(true, Ordering::Relaxed);
        }
        !self.stopped.load(Ordering::Relaxed)
    }

    /// Whether the budget is in search nodes: then the search must be the same on every run.
    pub fn counts_nodes(&self) -> bool {
        self.max_nodes.is_some()
    }

    /// Whether the deadline has passed or the user cancelled (nodes are not counted).
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.cancelled()
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Whether work after a stopped search (merging partial results) must end now: on Ctrl-C,
    /// or once the time limit is overrun by its grace (a twentieth of the limit, at most 1 s).
    /// Without a time limit, merging always finishes.
    pub fn grace_over(&self, budget: &Budget) -> bool {
        let late = match (self.deadline, budget.time) {
            (Some(d), Some(t)) => Instant::now() >= d + (t / 20).min(Duration::from_secs(1)),
            _ => false,
        };
        late || self.cancelled()
    }

    /// Whether some worker found the budget spent.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Marks the search as stopped early (for model limits).
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed)
    }

    /// Nodes charged so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}
