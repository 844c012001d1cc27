//! Candidate equations: the terms over a signature up to a depth, grouped by their values in a
//! set of finite models.
//!
//! A term's *fingerprint* is its value at every point, a point being one of the models together
//! with an assignment of elements to the variables. Two terms with the same fingerprint are equal
//! in every one of the models under every assignment. The first term met with a fingerprint (the
//! smallest: terms are built by increasing size) represents its class, and every later term with
//! that fingerprint gives the candidate `term = representative`.
//!
//! Terms are built from representatives only, as QuickSpec does (Claessen, Smallbone, Hughes,
//! "QuickSpec: guessing formal specifications using testing", TAP 2010): a term with a
//! non-representative subterm equals, in the models, the one built from the representative, so
//! the equations it would give follow from smaller candidates by congruence. The enumeration
//! thus grows with the number of classes, not the number of terms.

use birkhoff_engine::signature::{FuncId, Signature, SortId};
use birkhoff_engine::syntax::{Term, VarDecl, VarId};
use birkhoff_engine::Structure;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// How far the enumeration goes.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest term (a variable or a constant has depth 0).
    pub depth: u32,
    /// Variables of each sort.
    pub vars_per_sort: usize,
    /// Most terms built, representatives and others.
    pub max_terms: usize,
    /// Most points (model × assignment) a fingerprint may have.
    pub max_points: usize,
}

/// Candidate equations and how they were found.
#[derive(Clone, Debug)]
pub struct Candidates {
    /// The variables the terms use.
    pub vars: Vec<VarDecl>,
    /// `(term, representative)` pairs, equal at every point, in the order the terms were built
    /// (by size); the representative was built first.
    pub equations: Vec<(Term, Term)>,
    /// Terms built.
    pub terms: usize,
    /// Distinct fingerprints met.
    pub classes: usize,
    /// Whether every term up to the depth was built (false when a limit or `stop` cut it short).
    pub complete: bool,
}

/// Names for the variables of one sort.
const LETTERS: [&str; 6] = ["x", "y", "z", "w", "u", "v"];

/// The name of the `i`-th variable of `sort`; the sort's name is added when there are several.
pub fn var_name(sig: &Signature, sort: SortId, i: usize) -> String {
    let base = LETTERS
        .get(i)
        .map_or_else(|| format!("x{i}"), |s| s.to_string());
    if sig.sorts.len() == 1 {
        base
    } else {
        format!("{base}_{}", sig.sort_decl(sort).name.to_lowercase())
    }
}

/// The points: for each model, the offset of its first point and the number of assignments.
struct Points<'a> {
    models: &'a [Structure],
    vars: &'a [VarDecl],
    ranges: Vec<(usize, usize)>,
    len: usize,
}

impl<'a> Points<'a> {
    fn new(models: &'a [Structure], vars: &'a [VarDecl], max: usize) -> Result<Points<'a>, String> {
        let mut ranges = Vec::with_capacity(models.len());
        let mut len = 0usize;
        for m in models {
            if m.sizes.iter().any(|&n| n > u8::MAX as u32 + 1) {
                return Err(format!(
                    "models of size {:?} are too large for fingerprints (at most 256 elements)",
                    m.sizes
                ));
            }
            let count = vars.iter().try_fold(1usize, |acc, v| {
                acc.checked_mul(m.sizes[v.sort.0 as usize] as usize)
            });
            let Some(count) = count.filter(|c| len + c <= max) else {
                return Err(format!("the models and variables give more than {max} points to evaluate terms at; lower the size or the number of variables"));
            };
            ranges.push((len, count));
            len += count;
        }
        Ok(Points {
            models,
            vars,
            ranges,
            len,
        })
    }

    /// The value of variable `v` at every point: the assignments of a model in mixed radix,
    /// the first variable most significant.
    fn variable(&self, v: usize) -> Vec<u8> {
        let mut out = vec![0; self.len];
        for (m, &(start, count)) in self.models.iter().zip(&self.ranges) {
            let size = |w: &VarDecl| m.sizes[w.sort.0 as usize] as usize;
            let stride: usize = self.vars[v + 1..].iter().map(size).product();
            let n = size(&self.vars[v]);
            for p in 0..count {
                out[start + p] = ((p / stride) % n) as u8;
            }
        }
        out
    }

    /// The value of `f` applied to arguments with these values, at every point.
    fn apply(&self, sig: &Signature, f: FuncId, args: &[&[u8]]) -> Vec<u8> {
        let d = sig.func_decl(f);
        let mut out = vec![0; self.len];
        for (m, &(start, count)) in self.models.iter().zip(&self.ranges) {
            let table = &m.funcs[f.0 as usize];
            for p in start..start + count {
                let index = d.args.iter().zip(args).fold(0usize, |acc, (s, a)| {
                    acc * m.sizes[s.0 as usize] as usize + a[p] as usize
                });
                out[p] = table[index] as u8;
            }
        }
        out
    }
}

/// A class representative.
struct Rep {
    term: Term,
    depth: u32,
    values: Vec<u8>,
}

/// The enumeration's state.
struct Growth {
    reps: Vec<Rep>,
    /// Representatives by sort and a hash of their fingerprint (collisions share a list).
    classes: HashMap<(SortId, u64), Vec<usize>>,
    /// Representatives of each sort by term size (index: size).
    by_size: Vec<Vec<Vec<usize>>>,
    equations: Vec<(Term, Term)>,
    terms: usize,
}

impl Growth {
    /// Files a new term: a candidate equation if its class exists, else a new representative.
    fn add(&mut self, term: Term, sort: SortId, size: usize, depth: u32, values: Vec<u8>) {
        self.terms += 1;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        values.hash(&mut h);
        let same = self.classes.entry((sort, h.finish())).or_default();
        if let Some(&r) = same.iter().find(|&&r| self.reps[r].values == values) {
            self.equations.push((term, self.reps[r].term.clone()));
            return;
        }
        same.push(self.reps.len());
        self.by_size[sort.0 as usize][size].push(self.reps.len());
        self.reps.push(Rep {
            term,
            depth,
            values,
        });
    }
}

/// Ways to write `total` as `parts` positive sizes, in order.
fn compositions(total: usize, parts: usize) -> Vec<Vec<usize>> {
    if parts == 0 {
        return if total == 0 { vec![vec![]] } else { vec![] };
    }
    (1..=total.saturating_sub(parts - 1))
        .flat_map(|first| {
            compositions(total - first, parts - 1)
                .into_iter()
                .map(move |rest| [vec![first], rest].concat())
        })
        .collect()
}

/// Every choice of one index below each of `lens`, the last varying fastest.
fn choices(lens: Vec<usize>) -> impl Iterator<Item = Vec<usize>> {
    let mut next = (!lens.contains(&0)).then(|| vec![0; lens.len()]);
    std::iter::from_fn(move || {
        let current = next.clone()?;
        let mut c = current.clone();
        next = (0..c.len()).rev().find(|&i| c[i] + 1 < lens[i]).map(|i| {
            c[i] += 1;
            c[i + 1..].iter_mut().for_each(|x| *x = 0);
            c
        });
        Some(current)
    })
}

/// Builds the terms up to `limits.depth` from representatives and returns the candidate
/// equations. `stop` is polled now and then (Ctrl-C, a deadline). `Err` when the points are too
/// many to evaluate.
pub fn find(
    sig: &Signature,
    models: &[Structure],
    limits: &Limits,
    stop: &dyn Fn() -> bool,
) -> Result<Candidates, String> {
    let vars: Vec<VarDecl> = sig
        .sort_ids()
        .flat_map(|s| (0..limits.vars_per_sort).map(move |i| (s, i)))
        .map(|(s, i)| VarDecl {
            name: var_name(sig, s, i),
            sort: s,
        })
        .collect();
    let points = Points::new(models, &vars, limits.max_points)?;
    let max_arity = sig.funcs.iter().map(|f| f.args.len()).max().unwrap_or(0);
    let max_size = (0..limits.depth).fold(1usize, |m, _| 1 + max_arity * m);
    let mut g = Growth {
        reps: Vec::new(),
        classes: HashMap::new(),
        by_size: vec![vec![Vec::new(); max_size + 1]; sig.sorts.len()],
        equations: Vec::new(),
        terms: 0,
    };
    for (i, v) in vars.iter().enumerate() {
        g.add(Term::Var(VarId(i as u32)), v.sort, 1, 0, points.variable(i));
    }
    for f in sig.func_ids().filter(|&f| sig.func_decl(f).args.is_empty()) {
        g.add(
            Term::App(f, vec![]),
            sig.func_decl(f).result,
            1,
            0,
            points.apply(sig, f, &[]),
        );
    }
    let cut_short =
        |g: &Growth| g.terms >= limits.max_terms || (g.terms.is_multiple_of(256) && stop());
    for size in 2..=max_size {
        for f in sig.func_ids() {
            let d = sig.func_decl(f);
            for parts in compositions(size - 1, d.args.len()) {
                // Arguments are smaller than `size`, so these lists do not grow while we add.
                let lists: Vec<Vec<usize>> = d
                    .args
                    .iter()
                    .zip(&parts)
                    .map(|(s, &k)| g.by_size[s.0 as usize][k].clone())
                    .collect();
                for choice in choices(lists.iter().map(Vec::len).collect()) {
                    let args: Vec<&Rep> = choice
                        .iter()
                        .zip(&lists)
                        .map(|(&c, l)| &g.reps[l[c]])
                        .collect();
                    let depth = 1 + args.iter().map(|a| a.depth).max().unwrap_or(0);
                    if depth > limits.depth {
                        continue;
                    }
                    let values = points.apply(
                        sig,
                        f,
                        &args.iter().map(|a| a.values.as_slice()).collect::<Vec<_>>(),
                    );
                    let term = Term::App(f, args.iter().map(|a| a.term.clone()).collect());
                    g.add(term, d.result, size, depth, values);
                    if cut_short(&g) {
                        return Ok(Candidates {
                            vars,
                            equations: g.equations,
                            terms: g.terms,
                            classes: g.reps.len(),
                            complete: false,
                        });
                    }
                }
            }
        }
    }
    Ok(Candidates {
        vars,
        equations: g.equations,
        terms: g.terms,
        classes: g.reps.len(),
        complete: true,
    })
}
