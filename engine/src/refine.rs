//! Sort refinement: the finest many-sorted reading of a theory, as in Paradox's sort inference
//! (Claessen and Sörensson, 2003).
//!
//! Every argument place and result of every symbol, and every variable of every axiom, gets an
//! unknown sort. A term at an argument place has that place's sort, and the two sides of an
//! equation have the same sort. The classes of this unification split each declared sort into
//! *refined sorts*. Orthogonal Latin squares written with one sort, `x * y = z * w & x + y = z + w
//! -> x = z` beside the division laws of `*` and `+`, split into four: rows, columns, the symbols
//! of `*` and the symbols of `+`.
//!
//! # Why the models are the same
//!
//! Give every refined sort the size of the sort it splits. A structure of the original theory and
//! one of the refined theory are then the same tables, and every axiom means the same in both:
//! an equation compares two terms of one refined sort, a quantifier ranges over a variable's
//! refined sort, which has the same elements as its declared sort, and a term only ever stands at
//! places of its own refined sort. So the two theories have exactly the same models at those
//! sizes (as tables), and [`Refinement::restore`] is a relabelling of sorts only.
//!
//! What changes is the symmetry. The refined theory's isomorphisms rename each refined sort on
//! its own, so a finder that breaks the symmetry of each sort separately (the least-number
//! constraints of the SAT back end, the native finder's lex-leader order) prunes far more: the
//! rows, columns and both symbol sets of two orthogonal squares instead of one renaming of all of
//! them at once. Isomorphism classes are *not* preserved (the refined theory has more
//! isomorphisms), so refinement serves the search for one model or a proof that there is none,
//! never a count up to isomorphism.
//!
//! ```
//! use birkhoff_engine::{refine::Refinement, Theory};
//! let squares = Theory::parse("theory Q\nfunc * : 2\nfunc \\ : 2\naxiom l: x \\ (x * y) = y\naxiom r: x * (x \\ y) = y", "q.bk").unwrap();
//! let r = Refinement::of(&squares).expect("rows, columns and symbols are separate");
//! assert_eq!(r.theory.sig.sorts.len(), 3);
//! assert_eq!(r.sizes(&[5]), vec![5, 5, 5]);
//! // A group's unit, inverse and product tie everything together: nothing to refine.
//! assert!(Refinement::of(&birkhoff_engine::seeds::load("group").unwrap()).is_none());
//! ```

use crate::signature::{SortDecl, SortId, MAX_SORTS};
use crate::syntax::{Formula, Term};
use crate::{Structure, Theory};
use petgraph::unionfind::UnionFind;
use std::sync::Arc;

/// A theory read with its sorts refined (module doc), and where each refined sort came from.
#[derive(Clone, Debug)]
pub struct Refinement {
    /// The refined theory: the same symbols, axioms and names; finer sorts.
    pub theory: Theory,
    /// Per refined sort, the declared sort of the original theory that it splits.
    pub parent: Vec<SortId>,
}

/// The unknowns of the unification: symbol places first, then every axiom's variables.
struct Places {
    /// Per function symbol, the index of its first argument place; its result follows its last.
    func: Vec<usize>,
    /// Per relation symbol, the index of its first argument place.
    rel: Vec<usize>,
    /// Per axiom, the index of its first variable.
    var: Vec<usize>,
    /// Per unknown, the declared sort it belongs to.
    declared: Vec<SortId>,
}

impl Places {
    fn of(t: &Theory) -> Places {
        let mut declared = Vec::new();
        let mut next = |sorts: &mut dyn Iterator<Item = SortId>| {
            let first = declared.len();
            declared.extend(sorts);
            first
        };
        let func = t
            .sig
            .funcs
            .iter()
            .map(|f| next(&mut f.args.iter().chain([&f.result]).copied()))
            .collect();
        let rel = t
            .sig
            .rels
            .iter()
            .map(|r| next(&mut r.args.iter().copied()))
            .collect();
        let var = t
            .axioms
            .iter()
            .map(|a| next(&mut a.vars.iter().map(|v| v.sort)))
            .collect();
        Places {
            func,
            rel,
            var,
            declared,
        }
    }
}

impl Refinement {
    /// The refinement of `t`, or `None` when no declared sort splits (or when the refined sorts
    /// would exceed [`MAX_SORTS`]).
    pub fn of(t: &Theory) -> Option<Refinement> {
        let places = Places::of(t);
        let mut classes = UnionFind::<usize>::new(places.declared.len());
        for (a, axiom) in t.axioms.iter().enumerate() {
            axiom
                .formula
                .for_each_atom(&mut |atom| unify_atom(atom, places.var[a], &places, &mut classes));
        }
        // Every declared sort keeps its own index as its first class (even when nothing uses
        // it); further classes of a sort are numbered in order of first appearance.
        let mut parent: Vec<SortId> = t.sig.sort_ids().collect();
        let mut has_first_class = vec![false; t.sig.sorts.len()];
        let mut class_of_root = std::collections::HashMap::new();
        let mut refined = vec![SortId(0); places.declared.len()];
        for (u, &s) in places.declared.iter().enumerate() {
            let root = classes.find(u);
            let class = *class_of_root.entry(root).or_insert_with(|| {
                if !std::mem::replace(&mut has_first_class[s.0 as usize], true) {
                    return s.0 as usize;
                }
                parent.push(s);
                parent.len() - 1
            });
            refined[u] = SortId(class as u32);
        }
        if parent.len() == t.sig.sorts.len() || parent.len() > MAX_SORTS {
            return None;
        }
        let mut sig = (*t.sig).clone();
        let mut copies = vec![0usize; t.sig.sorts.len()];
        for s in &parent[t.sig.sorts.len()..] {
            copies[s.0 as usize] += 1;
            // `#` starts a comment in every input language, so no declared sort has this name.
            sig.sorts.push(SortDecl {
                name: format!("{}#{}", t.sig.sort_decl(*s).name, copies[s.0 as usize]),
            });
        }
        for (f, d) in sig.funcs.iter_mut().enumerate() {
            for (i, s) in d.args.iter_mut().enumerate() {
                *s = refined[places.func[f] + i];
            }
            d.result = refined[places.func[f] + d.args.len()];
        }
        for (r, d) in sig.rels.iter_mut().enumerate() {
            for (i, s) in d.args.iter_mut().enumerate() {
                *s = refined[places.rel[r] + i];
            }
        }
        let axioms = t
            .axioms
            .iter()
            .enumerate()
            .map(|(a, axiom)| {
                let mut axiom = (**axiom).clone();
                for (i, v) in axiom.vars.iter_mut().enumerate() {
                    v.sort = refined[places.var[a] + i];
                }
                Arc::new(axiom)
            })
            .collect();
        let theory = Theory {
            sig: Arc::new(sig),
            axioms,
            ..t.clone()
        };
        Some(Refinement { theory, parent })
    }

    /// The sizes of the refined sorts, given those of the declared sorts: each refined sort is as
    /// large as the sort it splits.
    pub fn sizes(&self, declared: &[u32]) -> Vec<u32> {
        self.parent.iter().map(|s| declared[s.0 as usize]).collect()
    }

    /// A model of the refined theory at [`Refinement::sizes`]`(declared)` as a structure of the
    /// original theory: the same tables (module doc).
    pub fn restore(&self, model: Structure, declared: &[u32]) -> Structure {
        Structure {
            sizes: declared.to_vec(),
            ..model
        }
    }
}

/// The unknown of a term's sort, after unifying its arguments with their places.
fn unify_term(t: &Term, vars: usize, places: &Places, classes: &mut UnionFind<usize>) -> usize {
    match t {
        Term::Var(v) => vars + v.0 as usize,
        Term::App(f, args) => {
            let base = places.func[f.0 as usize];
            unify_args(args, base, vars, places, classes);
            base + args.len()
        }
    }
}

/// Unifies each argument's sort with its place, the places numbered from `base`.
fn unify_args(
    args: &[Term],
    base: usize,
    vars: usize,
    places: &Places,
    classes: &mut UnionFind<usize>,
) {
    for (i, a) in args.iter().enumerate() {
        let u = unify_term(a, vars, places, classes);
        classes.union(u, base + i);
    }
}

/// Unifies the sorts an equation or relation atom relates.
fn unify_atom(atom: &Formula, vars: usize, places: &Places, classes: &mut UnionFind<usize>) {
    match atom {
        Formula::Eq(a, b) => {
            let (a, b) = (
                unify_term(a, vars, places, classes),
                unify_term(b, vars, places, classes),
            );
            classes.union(a, b);
        }
        Formula::Rel(r, args) => unify_args(args, places.rel[r.0 as usize], vars, places, classes),
        _ => {}
    }
}
