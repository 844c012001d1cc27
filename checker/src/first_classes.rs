//! The model limit made reproducible. A search stopped by a limit of `L` classes keeps the first
//! `L` classes met in the order of the whole search tree, whichever thread met them first: a
//! stored spectrum or set of models cut by the limit is then the same on every run, so that a run
//! resumed after a kill writes what the uninterrupted one wrote.
//!
//! The pieces of a split search are in tree order, and each meets its classes in its own tree
//! order, so the classes of the pieces in turn, each class at its first appearance, are the
//! classes of the whole tree in order. A piece stops on its own once it has `L` classes (nothing
//! after them can be among the first `L` from it); and once the pieces `0..=k` have all ended and
//! hold `L` classes between them, every piece after `k` stops, as nothing it meets can be kept.

use rustc_hash::FxHashSet;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The canonical key of a class (its canonical form's tables).
pub(crate) type ClassKey = Box<[u8]>;

/// Where the pieces of one search stand against the model limit.
pub(crate) struct FirstClasses {
    limit: usize,
    /// The pieces after this index stop: the ones up to it hold the first `limit` classes.
    last_needed: AtomicUsize,
    ended: Mutex<Ended>,
}

/// The pieces that have ended and not yet joined the prefix, and the prefix's classes.
#[derive(Default)]
struct Ended {
    waiting: BTreeMap<usize, Vec<ClassKey>>,
    /// The first piece not in the prefix yet.
    next: usize,
    prefix: FxHashSet<ClassKey>,
}

impl FirstClasses {
    /// The pieces of a search limited to `limit` classes.
    pub(crate) fn new(limit: usize) -> FirstClasses {
        FirstClasses {
            limit,
            last_needed: AtomicUsize::new(usize::MAX),
            ended: Mutex::new(Ended::default()),
        }
    }

    /// The number of classes kept at most.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Whether piece `index`, holding `own` classes, can stop: it has the limit's worth itself,
    /// or the pieces before it already hold them.
    pub(crate) fn can_stop(&self, index: usize, own: usize) -> bool {
        own >= self.limit || index > self.last_needed.load(Ordering::Relaxed)
    }

    /// Piece `index` has ended (run out, or stopped by [`FirstClasses::can_stop`]) with these
    /// classes in the order met. A piece that never ran (its path no longer replays: it has no
    /// model) is never reported, and the pieces after it then stop only on their own limit, which
    /// costs time and changes nothing kept.
    pub(crate) fn ended(&self, index: usize, classes: Vec<ClassKey>) {
        let mut e = self.ended.lock().unwrap_or_else(|p| p.into_inner());
        e.waiting.insert(index, classes);
        while e.prefix.len() < self.limit {
            let next = e.next;
            let Some(classes) = e.waiting.remove(&next) else {
                return;
            };
            e.prefix.extend(classes);
            e.next += 1;
            if e.prefix.len() >= self.limit {
                self.last_needed.store(next, Ordering::Relaxed);
            }
        }
    }

    /// The first `limit` classes of the pieces in tree order, each at its first appearance;
    /// `pieces` gives each piece's index and its classes in the order met.
    pub(crate) fn first(&self, mut pieces: Vec<(usize, Vec<ClassKey>)>) -> Vec<ClassKey> {
        pieces.sort_by_key(|(i, _)| *i);
        let mut seen = FxHashSet::default();
        let mut first = Vec::new();
        for key in pieces.into_iter().flat_map(|(_, keys)| keys) {
            if first.len() == self.limit {
                break;
            }
            if seen.insert(key.clone()) {
                first.push(key);
            }
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(ks: &[u8]) -> Vec<ClassKey> {
        ks.iter().map(|&k| vec![k].into_boxed_slice()).collect()
    }

    #[test]
    fn pieces_after_a_prefix_holding_the_limit_stop_and_the_first_classes_are_in_tree_order() {
        let f = FirstClasses::new(3);
        assert!(!f.can_stop(2, 1));
        assert!(f.can_stop(2, 3), "a piece with the limit's worth stops");
        // Piece 1 ends first; with piece 0 still running, nothing after it may stop.
        f.ended(1, keys(&[7, 8]));
        assert!(!f.can_stop(2, 0));
        // Piece 0 ends: 0 and 1 hold {5, 7, 8}, three classes (7 appears in both).
        f.ended(0, keys(&[5, 7]));
        assert!(f.can_stop(2, 0) && !f.can_stop(1, 0));
        let first = f.first(vec![
            (2, keys(&[1, 2])),
            (1, keys(&[7, 8])),
            (0, keys(&[5, 7])),
        ]);
        assert_eq!(first, keys(&[5, 7, 8]));
        // A later piece that alone holds the limit's worth stops nothing while an earlier one
        // runs: the earlier one's classes come first.
        let f = FirstClasses::new(2);
        f.ended(1, keys(&[7, 8]));
        assert!(!f.can_stop(2, 0) && !f.can_stop(0, 1));
    }
}
