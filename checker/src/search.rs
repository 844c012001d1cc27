//! Backtracking search for models: cells are assigned one at a time in a fixed order, each
//! assignment is propagated through the ground instances that watch it, and the least-number
//! heuristic skips values that could only produce isomorphic copies.
//!
//! Propagation. Each instance of a clause watches up to two unassigned cells: the first unknown
//! cell of each of its first two undecided literals (for an equation, one on each side). When a
//! watched cell is assigned the instance is evaluated again, three-valued: it is satisfied, false
//! (a conflict), still open (it moves its watches), or unit: one literal is left, of the form
//! `f(a, b) = c` or `f(a, b) != c` with everything but one cell known, and that cell is assigned
//! `c` or loses `c` from its domain. Every change is recorded on a trail and undone on backtrack.
//!
//! Symmetry (the least-number heuristic of SEM and Mace4). Elements that no decision mentions,
//! as an argument or a value, are interchangeable: a permutation swapping two of them fixes every
//! decision, hence every assignment propagation derived from them (and from the axioms alone, at
//! the root), so the models below "this cell := u" and "this cell := u'" are isomorphic. So a cell
//! tries the mentioned elements, its own arguments and one fresh element. Counting propagated
//! assignments as mentions would be sound but weak: in an idempotent theory the root assigns
//! every `x * x` and mentions every element, which turned the heuristic off.
//! Every node that survives is then put to the lex-leader check of [`crate::lex`], which prunes
//! it when a relabelling is sure to make every model below it smaller, read cell by cell in the
//! decision order. Both keep the least model of every isomorphism class (in that reading), so no
//! class is lost; duplicates left where the check runs out of steps are removed by canonical forms.

use crate::bits::{pop_least, range_word, BitRows, RowSize};
use crate::lex::LexLeader;
use crate::problem::{FormulaCode, Literal, Problem, Symbol, TermCode};
use birkhoff_engine::Structure;

const NONE: u32 = u32::MAX;

/// [`Search::run`] calls its budget check once per this many nodes on small problems: frequent
/// enough to stop within milliseconds, rare enough to cost nothing measurable.
const CHECK_EVERY: u64 = 16;

/// From this many ground instances on, a node can propagate through so many of them (a group of
/// order 64 has 262,144 instances of associativity alone) that sixteen nodes overran a two-second
/// time limit by two seconds: there the budget is checked at every node.
const LARGE_PROBLEM: usize = 65_536;

/// What [`Search::expand`] finds at a node: the position to continue from below it, the cell it
/// branches on, and the values that survive with the stratum of each child.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// Where the search below continues in the decision order.
    pub next: usize,
    /// The cell branched on.
    pub cell: usize,
    /// The surviving values, lowest first, each with its child's stratum.
    pub alive: Vec<(u32, Stratum)>,
}

/// A coarse description of a node, for stratified sampling of the search tree: nodes alike in it
/// tend to have subtrees alike in size. After propagation: how many cells are assigned, how many
/// elements are mentioned (the fewer, the more the least-number heuristic prunes below), and the
/// sum of the values assigned (lex-leader pruning crowds the models where it stays small).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stratum {
    /// Cells assigned, by decisions or propagation.
    pub assigned: u32,
    /// Elements some assigned cell mentions, over all sorts.
    pub mentioned: u32,
    /// The sum of the values of the assigned cells.
    pub value_sum: u32,
}

/// What the caller wants after a model or a budget check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep searching.
    Continue,
    /// Stop: enough models.
    Stop,
    /// Stop: a budget ran out or the user interrupted; the search is incomplete.
    Abort,
}

#[derive(Clone, Copy, Debug)]
enum Undo {
    Assign(usize),
    /// A word of the domains and its old value ([`BitRows::remove`]).
    Domain(usize, u64),
    Watch(u32, [u32; 2]),
    /// A decision's mention of its elements (undone before the decision's `Assign`).
    Mention(usize),
}

/// A term's value so far.
#[derive(Clone, Copy)]
enum TermValue {
    Known(u32),
    /// All arguments known; this cell is not.
    Top(usize),
    /// Some argument is unknown; this is the first unknown cell met.
    Deep(usize),
}

#[derive(Clone, Copy)]
enum Truth {
    True,
    False,
    Unknown(usize),
}

impl Truth {
    fn not(self) -> Truth {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            u => u,
        }
    }
}

#[derive(Clone, Copy)]
enum Unit {
    Assign(usize, u32),
    Remove(usize, u32),
}

enum LitValue {
    True,
    False,
    Unknown { cells: [u32; 2], unit: Option<Unit> },
}

enum InstValue {
    Satisfied,
    Conflict,
    Unit(Unit, [u32; 2]),
    Open([u32; 2]),
}

/// The state of one search: a partial assignment with domains, watches and the trail.
#[derive(Clone)]
pub struct Search<'p> {
    p: &'p Problem,
    val: Vec<u32>,
    /// Each cell's domain, one row per cell.
    dom: BitRows,
    watch: Vec<[u32; 2]>,
    watchers: Vec<Vec<u32>>,
    /// Per cell, how many instances watch it (its watcher list may be longer: stale entries).
    watch_count: Vec<u32>,
    trail: Vec<Undo>,
    queue: Vec<usize>,
    mention_count: Vec<Vec<u32>>,
    /// Per sort (one row each), the elements some assigned cell mentions.
    mentioned: BitRows,
    assigned: usize,
    symmetry_breaking: bool,
    /// Whether a node branches on the open cell with the fewest values left among those whose
    /// arguments are at most the largest mentioned element (Mace4's "concentric band"), rather
    /// than the next in the decision order ([`Search::fewest_values_first`]).
    fewest_first: bool,
    /// Lex-leader pruning (with symmetry breaking on).
    lex: Option<LexLeader>,
    scratch: Vec<u32>,
    /// The values still to try at each open node of the current path, as bit sets of as many
    /// words as a domain ([`Search::push_candidates`]), deepest last.
    choices: Vec<u64>,
    /// Decisions taken so far.
    pub nodes: u64,
}

impl<'p> Search<'p> {
    /// A search at the root, with every instance evaluated once and the consequences propagated.
    /// Returns `None` if the root is already contradictory (no model at these sizes), or if
    /// `stop` said to stop while the instances were evaluated (the caller tells the two apart).
    /// With `symmetry` = `Some(steps)` the search breaks symmetry: the least-number heuristic, and
    /// lex-leader checks of at most `steps` steps each ([`crate::lex`]); with `None` it searches
    /// every labeled model.
    pub fn new(
        p: &'p Problem,
        symmetry: Option<u32>,
        stop: &dyn Fn() -> bool,
    ) -> Option<Search<'p>> {
        let mut s = Search {
            p,
            val: vec![NONE; p.cells.len()],
            dom: BitRows::full(p.cells.iter().map(|c| c.width)),
            watch: vec![[NONE, NONE]; p.instances()],
            watchers: vec![Vec::new(); p.cells.len()],
            watch_count: vec![0; p.cells.len()],
            trail: Vec::new(),
            queue: Vec::new(),
            mention_count: p.sizes.iter().map(|&n| vec![0; n as usize]).collect(),
            mentioned: BitRows::empty(p.sizes.iter().copied()),
            assigned: 0,
            symmetry_breaking: symmetry.is_some(),
            fewest_first: false,
            lex: symmetry.map(|limit| LexLeader::new(p, limit)),
            scratch: Vec::new(),
            choices: Vec::new(),
            nodes: 0,
        };
        if p.trivially_false {
            return None;
        }
        for inst in 0..p.instances() {
            if inst % (1 << 16) == (1 << 16) - 1 && stop() {
                return None;
            }
            if s.process(inst as u32).is_err() {
                return None;
            }
        }
        if s.propagate().is_err() {
            return None;
        }
        // The root is never undone.
        s.trail.clear();
        Some(s)
    }

    /// Every cell's value (`u32::MAX` while unassigned), by cell number.
    pub fn values(&self) -> &[u32] {
        &self.val
    }

    /// The current assignment as a structure (meaningful when every cell has a value).
    pub fn structure(&self) -> Structure {
        let p = self.p;
        let mut funcs = Vec::with_capacity(p.func_base.len());
        for (i, &base) in p.func_base.iter().enumerate() {
            let end = p
                .func_base
                .get(i + 1)
                .copied()
                .unwrap_or_else(|| p.rel_base.first().copied().unwrap_or(p.cells.len()));
            funcs.push(self.val[base..end].to_vec());
        }
        let mut rels = Vec::with_capacity(p.rel_base.len());
        for (i, &base) in p.rel_base.iter().enumerate() {
            let end = p.rel_base.get(i + 1).copied().unwrap_or(p.cells.len());
            rels.push(self.val[base..end].iter().map(|&v| v == 1).collect());
        }
        Structure {
            sizes: p.sizes.clone(),
            funcs,
            rels,
        }
    }

    // ---- evaluation -------------------------------------------------------------------------

    fn term(&self, t: &TermCode, env: &[u32]) -> TermValue {
        match t {
            TermCode::Var(v) => TermValue::Known(env[*v as usize]),
            TermCode::App { base, args } => {
                let mut idx = 0usize;
                for (a, n) in args.iter() {
                    // Most arguments are variables: read them without a call.
                    let x = match a {
                        TermCode::Var(v) => env[*v as usize],
                        _ => match self.term(a, env) {
                            TermValue::Known(x) => x,
                            TermValue::Top(c) | TermValue::Deep(c) => return TermValue::Deep(c),
                        },
                    };
                    idx = idx * *n as usize + x as usize;
                }
                let cell = *base as usize + idx;
                match self.val[cell] {
                    NONE => TermValue::Top(cell),
                    v => TermValue::Known(v),
                }
            }
        }
    }

    /// Kleene three-valued truth of a formula; `Unknown` names the first unknown cell met.
    fn formula(&self, f: &FormulaCode, env: &mut [u32]) -> Truth {
        let known = |b: bool| if b { Truth::True } else { Truth::False };
        match f {
            FormulaCode::True => Truth::True,
            FormulaCode::False => Truth::False,
            FormulaCode::Eq(a, b) => match (self.term(a, env), self.term(b, env)) {
                (TermValue::Known(x), TermValue::Known(y)) => known(x == y),
                (TermValue::Known(_), TermValue::Top(c) | TermValue::Deep(c))
                | (TermValue::Top(c) | TermValue::Deep(c), _) => Truth::Unknown(c),
            },
            FormulaCode::Atom(a) => match self.term(a, env) {
                TermValue::Known(v) => known(v == 1),
                TermValue::Top(c) | TermValue::Deep(c) => Truth::Unknown(c),
            },
            FormulaCode::Not(g) => self.formula(g, env).not(),
            FormulaCode::And(a, b) => self.junction(self.formula(a, env), b, env, false),
            FormulaCode::Or(a, b) => self.junction(self.formula(a, env), b, env, true),
            FormulaCode::Implies(a, b) => self.junction(self.formula(a, env).not(), b, env, true),
            FormulaCode::Iff(a, b) => match (self.formula(a, env), self.formula(b, env)) {
                (Truth::Unknown(c), _) | (_, Truth::Unknown(c)) => Truth::Unknown(c),
                (x, y) => known(matches!(x, Truth::True) == matches!(y, Truth::True)),
            },
            FormulaCode::Quantifier { exists, vars, body } => {
                self.quantifier(vars, body, env, *exists)
            }
        }
    }

    /// A disjunction (`or`) or conjunction of a first part's truth and a second formula.
    fn junction(&self, first: Truth, second: &FormulaCode, env: &mut [u32], or: bool) -> Truth {
        match first {
            Truth::True if or => Truth::True,
            Truth::False if !or => Truth::False,
            Truth::Unknown(c) => match self.formula(second, env) {
                Truth::True if or => Truth::True,
                Truth::False if !or => Truth::False,
                _ => Truth::Unknown(c),
            },
            _ => self.formula(second, env),
        }
    }

    fn quantifier(
        &self,
        vars: &[(u32, u32)],
        g: &FormulaCode,
        env: &mut [u32],
        exists: bool,
    ) -> Truth {
        let Some((&(slot, size), rest)) = vars.split_first() else {
            return self.formula(g, env);
        };
        let slot = slot as usize;
        let saved = env[slot];
        let mut unknown = None;
        let mut decided = None;
        for x in 0..size {
            env[slot] = x;
            match self.quantifier(rest, g, env, exists) {
                Truth::True if exists => {
                    decided = Some(Truth::True);
                    break;
                }
                Truth::False if !exists => {
                    decided = Some(Truth::False);
                    break;
                }
                Truth::Unknown(c) => unknown = unknown.or(Some(c)),
                _ => {}
            }
        }
        env[slot] = saved;
        decided
            .or(unknown.map(Truth::Unknown))
            .unwrap_or(if exists { Truth::False } else { Truth::True })
    }

    fn literal(&self, lit: &Literal, env: &mut [u32]) -> LitValue {
        match lit {
            Literal::Eq {
                positive,
                left,
                right,
            } => {
                let (l, r) = (self.term(left, env), self.term(right, env));
                let unit = |c: usize, v: u32| {
                    Some(if *positive {
                        Unit::Assign(c, v)
                    } else {
                        Unit::Remove(c, v)
                    })
                };
                match (l, r) {
                    (TermValue::Known(x), TermValue::Known(y)) => {
                        if (x == y) == *positive {
                            LitValue::True
                        } else {
                            LitValue::False
                        }
                    }
                    (TermValue::Known(x), TermValue::Top(c))
                    | (TermValue::Top(c), TermValue::Known(x)) => LitValue::Unknown {
                        cells: [c as u32, NONE],
                        unit: unit(c, x),
                    },
                    (TermValue::Known(_), TermValue::Deep(c))
                    | (TermValue::Deep(c), TermValue::Known(_)) => LitValue::Unknown {
                        cells: [c as u32, NONE],
                        unit: None,
                    },
                    (
                        TermValue::Top(a) | TermValue::Deep(a),
                        TermValue::Top(b) | TermValue::Deep(b),
                    ) => LitValue::Unknown {
                        cells: [a as u32, if a == b { NONE } else { b as u32 }],
                        unit: None,
                    },
                }
            }
            Literal::Rel { positive, atom } => match self.term(atom, env) {
                TermValue::Known(v) => {
                    if (v == 1) == *positive {
                        LitValue::True
                    } else {
                        LitValue::False
                    }
                }
                TermValue::Top(cell) => LitValue::Unknown {
                    cells: [cell as u32, NONE],
                    unit: Some(Unit::Assign(cell, *positive as u32)),
                },
                TermValue::Deep(c) => LitValue::Unknown {
                    cells: [c as u32, NONE],
                    unit: None,
                },
            },
            Literal::Complex(f) => match self.formula(f, env) {
                Truth::True => LitValue::True,
                Truth::False => LitValue::False,
                Truth::Unknown(c) => LitValue::Unknown {
                    cells: [c as u32, NONE],
                    unit: None,
                },
            },
        }
    }

    fn instance(&mut self, inst: u32) -> InstValue {
        let p = self.p;
        let c = &p.constraints[p.inst_constraint[inst as usize] as usize];
        let start = p.inst_env_start[inst as usize] as usize;
        let mut env = std::mem::take(&mut self.scratch);
        env.clear();
        env.extend_from_slice(&p.inst_env[start..start + c.env_len]);
        let mut open = 0;
        let mut cells = [NONE, NONE];
        let mut unit = None;
        let mut result = None;
        for lit in &c.literals {
            match self.literal(lit, &mut env) {
                LitValue::True => {
                    result = Some(InstValue::Satisfied);
                    break;
                }
                LitValue::False => {}
                LitValue::Unknown { cells: lc, unit: u } => {
                    open += 1;
                    unit = u;
                    for x in lc {
                        if x != NONE && !cells.contains(&x) {
                            if cells[0] == NONE {
                                cells[0] = x;
                            } else if cells[1] == NONE {
                                cells[1] = x;
                            }
                        }
                    }
                }
            }
        }
        self.scratch = env;
        result.unwrap_or(match (open, unit) {
            (0, _) => InstValue::Conflict,
            (1, Some(u)) => InstValue::Unit(u, cells),
            _ => InstValue::Open(cells),
        })
    }

    // ---- changes ----------------------------------------------------------------------------

    fn mention(&mut self, cell: usize, value: u32, delta: i32) {
        let c = &self.p.cells[cell];
        let mut touch = |sort: usize, e: u32| {
            let n = &mut self.mention_count[sort][e as usize];
            let before = *n;
            *n = (*n as i32 + delta) as u32;
            if before == 0 && *n > 0 {
                self.mentioned.insert(sort, e);
            } else if before > 0 && *n == 0 {
                self.mentioned.clear(sort, e);
            }
        };
        for (a, s) in c.args.iter().zip(&c.arg_sorts) {
            touch(s.0 as usize, *a);
        }
        if let Some(s) = c.value_sort {
            touch(s.0 as usize, value);
        }
    }

    fn assign(&mut self, cell: usize, v: u32) -> Result<(), ()> {
        if self.val[cell] != NONE {
            return if self.val[cell] == v { Ok(()) } else { Err(()) };
        }
        if !self.dom.contains(cell, v) {
            return Err(());
        }
        self.val[cell] = v;
        self.assigned += 1;
        self.trail.push(Undo::Assign(cell));
        self.queue.push(cell);
        Ok(())
    }

    /// Assigns the value of a decision (not yet propagated). Only decisions mention elements, as
    /// in Mace4 (module doc).
    fn assign_decision(&mut self, cell: usize, v: u32) -> Result<(), ()> {
        let open = self.val[cell] == NONE;
        self.assign(cell, v)?;
        if open {
            self.mention(cell, v, 1);
            self.trail.push(Undo::Mention(cell));
        }
        Ok(())
    }

    fn remove(&mut self, cell: usize, v: u32) -> Result<(), ()> {
        let Some((word, old)) = self.dom.remove(cell, v) else {
            return Ok(());
        };
        self.trail.push(Undo::Domain(word, old));
        match self.dom.size(cell) {
            RowSize::Empty => Err(()),
            RowSize::Single(w) => self.assign(cell, w),
            RowSize::Many => Ok(()),
        }
    }

    fn set_watch(&mut self, inst: u32, new: [u32; 2]) {
        let old = self.watch[inst as usize];
        if old == new {
            return;
        }
        self.trail.push(Undo::Watch(inst, old));
        self.move_watch(inst, old, new);
    }

    /// Points `inst`'s watches from `old` to `new`, keeping the watcher lists and counts.
    ///
    /// A watcher list may hold stale entries (instances that have since stopped watching the
    /// cell: removing them eagerly would cost a search) and duplicates (an instance that stops
    /// and starts watching again); propagation skips both. So that they cannot pile up over
    /// millions of nodes, a list is compacted when it grows past twice its live watchers.
    fn move_watch(&mut self, inst: u32, old: [u32; 2], new: [u32; 2]) {
        self.watch[inst as usize] = new;
        for c in old {
            if c != NONE && !new.contains(&c) {
                self.watch_count[c as usize] -= 1;
            }
        }
        for c in new {
            if c != NONE && !old.contains(&c) {
                let cell = c as usize;
                self.watch_count[cell] += 1;
                let list = &mut self.watchers[cell];
                list.push(inst);
                if list.len() > 2 * self.watch_count[cell] as usize + 16 {
                    let watch = &self.watch;
                    list.retain(|&i| watch[i as usize].contains(&c));
                    list.sort_unstable();
                    list.dedup();
                }
            }
        }
    }

    fn process(&mut self, inst: u32) -> Result<(), ()> {
        match self.instance(inst) {
            InstValue::Satisfied => self.set_watch(inst, [NONE, NONE]),
            InstValue::Conflict => return Err(()),
            InstValue::Open(cells) => self.set_watch(inst, cells),
            InstValue::Unit(Unit::Assign(c, v), _) => {
                self.assign(c, v)?;
                self.set_watch(inst, [NONE, NONE]);
            }
            InstValue::Unit(Unit::Remove(c, v), cells) => {
                self.remove(c, v)?;
                self.set_watch(inst, cells);
            }
        }
        Ok(())
    }

    /// Removes `cell`'s value from the other cells of each line through it along which its
    /// function is injective (see [`crate::problem::Injective`]); a conflict if one holds it.
    fn propagate_lines(&mut self, cell: usize) -> Result<(), ()> {
        let p = self.p;
        let Symbol::Func(f) = p.cells[cell].symbol else {
            return Ok(());
        };
        let v = self.val[cell];
        for line in &p.injective[f.0 as usize] {
            let first = cell - p.cells[cell].args[line.arg] as usize * line.stride;
            for other in (0..line.length as usize)
                .map(|k| first + k * line.stride)
                .filter(|&c| c != cell)
            {
                match self.val[other] {
                    NONE => self.remove(other, v)?,
                    w if w == v => return Err(()),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn propagate(&mut self) -> Result<(), ()> {
        while let Some(cell) = self.queue.pop() {
            if self.propagate_lines(cell).is_err() {
                self.queue.clear();
                return Err(());
            }
            let mut list = std::mem::take(&mut self.watchers[cell]);
            for i in 0..list.len() {
                let inst = list[i];
                if !self.watch[inst as usize].contains(&(cell as u32)) {
                    continue;
                }
                if self.process(inst).is_err() {
                    // The rest still watch this cell; the ones already moved come back on undo.
                    list.drain(..i);
                    list.append(&mut self.watchers[cell]);
                    self.watchers[cell] = list;
                    self.queue.clear();
                    return Err(());
                }
            }
            // Every watcher moved away from the assigned cell; undo pushes them back, so the
            // list keeps its capacity rather than growing again from nothing.
            list.clear();
            list.append(&mut self.watchers[cell]);
            self.watchers[cell] = list;
        }
        Ok(())
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("trail is longer than mark") {
                Undo::Assign(c) => {
                    self.val[c] = NONE;
                    self.assigned -= 1;
                }
                Undo::Domain(word, old) => self.dom.restore(word, old),
                Undo::Watch(inst, old) => self.move_watch(inst, self.watch[inst as usize], old),
                Undo::Mention(c) => self.mention(c, self.val[c], -1),
            }
        }
        self.queue.clear();
    }

    // ---- search -----------------------------------------------------------------------------

    fn next_cell(&self, from: usize) -> Option<usize> {
        self.p.decision_order[from..]
            .iter()
            .position(|&c| self.val[c] == NONE)
            .map(|i| from + i)
    }

    /// Pushes onto [`Search::choices`] the values worth trying for `cell`: all of its domain, or
    /// with symmetry breaking the mentioned elements, the cell's own arguments and the least
    /// element that is neither. Returns where they start.
    fn push_candidates(&mut self, cell: usize) -> usize {
        let frame = self.choices.len();
        let c = &self.p.cells[cell];
        let dom = self.dom.row(cell);
        match c.value_sort.filter(|_| self.symmetry_breaking) {
            None => self.choices.extend_from_slice(dom),
            Some(s) => {
                // A domain has as many words as the largest sort of values needs, `mentioned` as
                // the largest sort: perhaps more, but never for elements of `s`.
                let mentioned = &self.mentioned.row(s.0 as usize)[..dom.len()];
                self.choices.extend_from_slice(mentioned);
                let used = &mut self.choices[frame..];
                for (a, asort) in c.args.iter().zip(&c.arg_sorts) {
                    if *asort == s {
                        used[(a / 64) as usize] |= 1 << (a % 64);
                    }
                }
                let fresh = (0..used.len()).find_map(|w| {
                    let unused = !used[w] & range_word(c.width, w);
                    (unused != 0).then(|| (w, unused & unused.wrapping_neg()))
                });
                if let Some((w, bit)) = fresh {
                    used[w] |= bit;
                }
                used.iter_mut().zip(dom).for_each(|(u, d)| *u &= d);
            }
        }
        frame
    }

    /// Whether the lex-leader check prunes this node (see [`crate::lex`]).
    fn dominated(&mut self) -> bool {
        match &mut self.lex {
            Some(lex) => lex.dominated(&self.val),
            None => false,
        }
    }

    /// Applies a decision and its consequences; false on a conflict (the state is then restored).
    pub fn decide(&mut self, cell: usize, v: u32) -> bool {
        let mark = self.trail.len();
        if self.assign_decision(cell, v).is_ok() && self.propagate().is_ok() {
            return true;
        }
        self.undo_to(mark);
        false
    }

    /// The open decision at this node: where the search below it continues in the decision order
    /// (every cell before that is assigned), and the cell to branch on (its values come from
    /// [`Search::push_candidates`], lowest first).
    fn branches(&self, from: usize) -> Option<(usize, usize)> {
        let pos = self.next_cell(from)?;
        let first = self.p.decision_order[pos];
        if !self.fewest_first {
            return Some((pos + 1, first));
        }
        let band = self.band();
        let mut best = (self.dom.count(first), first);
        for &c in &self.p.decision_order[pos + 1..] {
            if self.p.cells[c].args.iter().any(|&a| a > band) {
                break;
            }
            if self.val[c] != NONE {
                continue;
            }
            // Ties go to the earlier cell of the decision order (the inner ring), as in Mace4.
            let values = self.dom.count(c);
            if values < best.0 {
                best = (values, c);
            }
        }
        Some((if best.1 == first { pos + 1 } else { pos }, best.1))
    }

    /// The largest element some decision mentions, in any sort.
    fn band(&self) -> u32 {
        (0..self.p.sizes.len())
            .filter_map(|s| self.mentioned.greatest(s))
            .max()
            .unwrap_or(0)
    }

    /// Branches on the open cell with the fewest values left (the earliest in the decision order
    /// among equals) among the next cells of the decision order whose arguments are all at most
    /// the largest mentioned element (Mace4's selection), and turns the lex-leader check off: it
    /// reads models in the decision order, and the least model in that reading need not be the
    /// one the least-number heuristic keeps when cells are chosen out of order. The least-number
    /// heuristic holds for any choice of cell.
    pub fn fewest_values_first(&mut self) {
        self.fewest_first = true;
        self.lex = None;
    }

    /// Depth-first search below the current node. `on_model` sees each complete assignment;
    /// `check` is called every [`Search::check_every`] nodes, with that number (the nodes to
    /// charge to the budget), and may abort.
    pub fn run(
        &mut self,
        from: usize,
        on_model: &mut dyn FnMut(&Search) -> Flow,
        check: &mut dyn FnMut(u64) -> Flow,
    ) -> Flow {
        self.nodes += 1;
        let every = self.check_every();
        if self.nodes.is_multiple_of(every) && check(every) == Flow::Abort {
            return Flow::Abort;
        }
        let Some((next, cell)) = self.branches(from) else {
            return on_model(self);
        };
        let frame = self.push_candidates(cell);
        while let Some(v) = pop_least(&mut self.choices[frame..]) {
            let mark = self.trail.len();
            if self.assign_decision(cell, v).is_ok()
                && self.propagate().is_ok()
                && !self.dominated()
            {
                let flow = self.run(next, on_model, check);
                if flow != Flow::Continue {
                    self.undo_to(mark);
                    self.choices.truncate(frame);
                    return flow;
                }
            }
            self.undo_to(mark);
        }
        self.choices.truncate(frame);
        Flow::Continue
    }

    /// This node's children as [`Search::run`] visits them: every value of the cell it branches
    /// on is tried as `run` tries it (assigned, propagated, lex-checked, undone), and those that
    /// survive are returned with the [`Stratum`] of the child they make; `None` at a complete
    /// assignment. The state is left as it was. For estimating the search before it is run.
    pub fn expand(&mut self, from: usize) -> Option<Expansion> {
        let (next, cell) = self.branches(from)?;
        let frame = self.push_candidates(cell);
        let mut alive = Vec::new();
        while let Some(v) = pop_least(&mut self.choices[frame..]) {
            let mark = self.trail.len();
            if self.assign_decision(cell, v).is_ok()
                && self.propagate().is_ok()
                && !self.dominated()
            {
                let mentioned = (0..self.p.sizes.len())
                    .map(|s| self.mentioned.count(s))
                    .sum();
                let value_sum = self.val.iter().filter(|&&x| x != NONE).sum();
                alive.push((
                    v,
                    Stratum {
                        assigned: self.assigned as u32,
                        mentioned,
                        value_sum,
                    },
                ));
            }
            self.undo_to(mark);
        }
        self.choices.truncate(frame);
        Some(Expansion { next, cell, alive })
    }

    /// The decision paths to every open node `depth` decisions below this one (and to complete
    /// assignments met on the way), in search order. Replaying each with [`Search::decide`] and
    /// searching below it covers exactly the models below this node, unless `stop` (asked at
    /// every node) said to stop: then `out` is incomplete and must not be used.
    pub fn split(
        &mut self,
        from: usize,
        depth: usize,
        path: &mut Vec<(usize, u32)>,
        out: &mut Vec<Vec<(usize, u32)>>,
        stop: &dyn Fn() -> bool,
    ) {
        if stop() {
            return;
        }
        let branches = if depth == 0 {
            None
        } else {
            self.branches(from)
        };
        let Some((next, cell)) = branches else {
            out.push(path.clone());
            return;
        };
        let frame = self.push_candidates(cell);
        while let Some(v) = pop_least(&mut self.choices[frame..]) {
            let mark = self.trail.len();
            if self.assign_decision(cell, v).is_ok()
                && self.propagate().is_ok()
                && !self.dominated()
            {
                path.push((cell, v));
                self.split(next, depth - 1, path, out, stop);
                path.pop();
            }
            self.undo_to(mark);
        }
        self.choices.truncate(frame);
    }

    /// How many nodes pass between two budget checks of [`Search::run`]: every node on large
    /// problems, where one node can take long, else `CHECK_EVERY`.
    pub fn check_every(&self) -> u64 {
        if self.p.instances() >= LARGE_PROBLEM {
            1
        } else {
            CHECK_EVERY
        }
    }

    /// The nodes searched since the last budget check (to charge when a search ends).
    pub fn unchecked_nodes(&self) -> u64 {
        self.nodes % self.check_every()
    }

    /// Position in the decision order to continue from after replaying decisions.
    pub fn first_open(&self) -> usize {
        self.next_cell(0).unwrap_or(self.p.decision_order.len())
    }
}
