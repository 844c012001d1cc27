//! A theory's small models, the evidence that guesses are checked against before the prover is
//! asked: the Boolean kit's laws ([`super::boolean`]) and the witnesses of existence statements
//! ([`super::witness`]).
//!
//! **Only whole sizes.** The models are those of every size up to [`SIZE`] that was enumerated
//! to the end; a size the search stopped in is left out with the sizes above it. A partial size
//! would hold whichever classes the search met first, which can differ from run to run (the
//! search is parallel), and a guess checked against it could then hold on one run and not on
//! the next. Nothing here affects soundness, as the guesses are proved afterwards; it affects
//! which guesses are tried, and so whether two runs give the same answer.
//!
//! **Found once.** The prover asks for the same theory's models once per obligation (an
//! interpretation has dozens), so the sets found within the node budget alone are kept for the
//! process, [`CACHED`] theories at most. A set cut short by the time limit or a cancel is not
//! kept: another call with more time may find more.

use crate::budget::{Budget, Status};
use crate::finder::{enumerate_up_to, FinderError, Options as FinderOptions};
use birkhoff_engine::{Structure, Theory};
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The largest size searched.
const SIZE: u32 = 4;

/// The search nodes for each size: the same on every run, so that the sizes found whole are.
const NODES: u64 = 20_000;

/// How many theories' models are kept.
const CACHED: usize = 16;

/// The theories' models kept, by the theory's text (signature and axioms), newest last.
static CACHE: Mutex<VecDeque<(String, Arc<Vec<Structure>>)>> = Mutex::new(VecDeque::new());

/// The models of `theory` of every size up to [`SIZE`] enumerated whole within [`NODES`] nodes
/// a size, one per isomorphism class, found before `deadline` (each size gets the time left) or
/// `cancel`.
pub fn models(
    theory: &Theory,
    deadline: Instant,
    cancel: Option<Arc<AtomicBool>>,
) -> Result<Arc<Vec<Structure>>, FinderError> {
    let key = theory.to_text();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = cache.iter().position(|(k, _)| *k == key) {
        let hit = cache.remove(i).expect("a position in the cache");
        let models = Arc::clone(&hit.1);
        cache.push_back(hit);
        return Ok(models);
    }
    drop(cache);
    let budget = Budget {
        nodes: Some(NODES),
        time: Some(deadline.saturating_duration_since(Instant::now())),
        cancel,
        ..Budget::default()
    };
    let sizes = enumerate_up_to(theory, SIZE, &budget, FinderOptions::default())?;
    // The node budget is the same on every run; the clock and a cancel are not.
    let by_nodes_alone = sizes
        .iter()
        .all(|e| e.iso.status == Status::Exact || e.nodes >= NODES);
    let models: Arc<Vec<Structure>> = Arc::new(
        sizes
            .into_iter()
            .take_while(|e| e.iso.status == Status::Exact)
            .flat_map(|e| e.classes)
            .map(|c| c.model)
            .collect(),
    );
    if by_nodes_alone {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if !cache.iter().any(|(k, _)| *k == key) {
            if cache.len() == CACHED {
                cache.pop_front();
            }
            cache.push_back((key, Arc::clone(&models)));
        }
    }
    Ok(models)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The seed `name` under a name of this test's own: the cache is the process's, and another
    /// test may have put the seed itself in it.
    fn renamed_seed(name: &str, test: &str) -> Theory {
        let mut t = birkhoff_engine::seeds::load(name).unwrap();
        t.name = format!("{}For{test}", t.name);
        t
    }

    /// Every lattice up to four elements (1, 1, 1, 2 of them), found whole, and the same set
    /// again from the cache.
    #[test]
    fn the_small_lattices_are_found_whole_and_kept() {
        let t = renamed_seed("lattice", "FoundWhole");
        let far = Instant::now() + Duration::from_secs(60);
        let first = models(&t, far, None).unwrap();
        assert_eq!(first.len(), 5, "{} small lattices", first.len());
        let again = models(&t, far, None).unwrap();
        assert!(Arc::ptr_eq(&first, &again), "not taken from the cache");
    }

    /// A search out of time finds no whole size, gives no models, and is not kept: a later call
    /// with time finds them.
    #[test]
    fn a_search_out_of_time_gives_no_partial_size_and_is_not_kept() {
        let t = renamed_seed("quasigroup", "OutOfTime");
        let none = models(&t, Instant::now(), None).unwrap();
        assert!(none.is_empty(), "{} models without time", none.len());
        let found = models(&t, Instant::now() + Duration::from_secs(60), None).unwrap();
        assert!(!found.is_empty());
    }
}
