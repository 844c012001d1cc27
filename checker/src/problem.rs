//! A theory at fixed sort sizes, compiled for search: table cells with domains, and each axiom as
//! a clause (a disjunction of literals) instantiated at every value of its universal variables.

use birkhoff_engine::signature::{FuncId, RelId, SortId};
use birkhoff_engine::syntax::{Formula, Term, VarId};
use birkhoff_engine::{Signature, Theory};

/// Largest sort size the finder handles: a cell's domain is a 64-bit set.
pub const MAX_SORT_SIZE: u32 = 64;

/// The symbol a cell belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// A function table entry; its value is an element of the result sort.
    Func(FuncId),
    /// A relation table entry; its value is 0 (false) or 1 (true).
    Rel(RelId),
}

/// One entry of one table.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Whose table.
    pub symbol: Symbol,
    /// The argument tuple.
    pub args: Vec<u32>,
    /// Sorts of the arguments.
    pub arg_sorts: Vec<SortId>,
    /// The sort of the value, or `None` for a relation (values 0 and 1).
    pub value_sort: Option<SortId>,
    /// Number of possible values.
    pub width: u32,
}

/// A literal of a clause.
#[derive(Clone, Debug)]
pub enum Literal {
    /// `s = t` (or `s != t` when negated).
    Eq { positive: bool, left: Term, right: Term },
    /// `R(args)` (or its negation).
    Rel { positive: bool, rel: RelId, args: Vec<Term> },
    /// Anything else (quantifiers, `<->`, conjunctions under a disjunction): evaluated, not propagated.
    Complex(Formula),
}

/// An axiom (or one conjunct of it) as a clause over its outer universal variables.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// Index of the axiom in the theory.
    pub axiom: usize,
    /// Variables instantiated per instance (free and leading universal ones).
    pub outer: Vec<VarId>,
    /// Size of the environment: the axiom's whole variable table.
    pub env_len: usize,
    /// Sort of every variable of the axiom.
    pub var_sorts: Vec<SortId>,
    /// The disjuncts.
    pub literals: Vec<Literal>,
}

/// Everything the search needs to know about a theory at given sizes.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The signature.
    pub sig: Signature,
    /// Size of each sort.
    pub sizes: Vec<u32>,
    /// All cells: function tables in signature order, then relation tables.
    pub cells: Vec<Cell>,
    /// First cell of each function symbol's table.
    pub func_base: Vec<usize>,
    /// First cell of each relation symbol's table.
    pub rel_base: Vec<usize>,
    /// The clauses.
    pub constraints: Vec<Constraint>,
    /// For each instance: its constraint.
    pub inst_constraint: Vec<u32>,
    /// For each instance: the start of its environment in `inst_env`.
    pub inst_env_start: Vec<u32>,
    /// Environments of all instances, concatenated.
    pub inst_env: Vec<u32>,
    /// Cells in the order the search assigns them: by largest argument, then symbol, then table order.
    pub decision_order: Vec<usize>,
    /// Some axiom is false at these sizes whatever the tables (a ground contradiction).
    pub trivially_false: bool,
}

/// Why a theory cannot be searched at these sizes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// A sort is larger than the finder supports.
    #[error("sort sizes above {MAX_SORT_SIZE} are not supported")]
    TooLarge,
    /// Sizes do not match the sorts.
    #[error("{given} sizes given for {sorts} sorts")]
    SizeCount { given: usize, sorts: usize },
    /// A sort is empty.
    #[error("every sort needs at least one element")]
    Empty,
    /// The tables would have too many cells to search.
    #[error("the tables would have {0} cells; at most 1,000,000 are supported")]
    TooManyCells(usize),
    /// Too many ground instances to hold in memory.
    #[error("the axioms have {0} ground instances at this size; at most 50,000,000 are supported")]
    TooManyInstances(u128),
}

impl Problem {
    /// Compiles `theory` for structures whose sorts have these sizes.
    pub fn new(theory: &Theory, sizes: &[u32]) -> Result<Problem, ProblemError> {
        let sig = Signature::clone(&theory.sig);
        check_sizes(&sig, sizes)?;
        let mut cells = Vec::new();
        let mut func_base = Vec::new();
        let mut rel_base = Vec::new();
        let total: u128 = sig.funcs.iter().map(|f| f.args.iter().map(|s| sizes[s.0 as usize] as u128).product::<u128>()).sum::<u128>()
            + sig.rels.iter().map(|r| r.args.iter().map(|s| sizes[s.0 as usize] as u128).product::<u128>()).sum::<u128>();
        if total > 1_000_000 {
            return Err(ProblemError::TooManyCells(total as usize));
        }
        for f in sig.func_ids() {
            let d = sig.func_decl(f);
            func_base.push(cells.len());
            for args in birkhoff_engine::structure::tuples(sizes, &d.args) {
                cells.push(Cell { symbol: Symbol::Func(f), args, arg_sorts: d.args.clone(), value_sort: Some(d.result), width: sizes[d.result.0 as usize] });
            }
        }
        for r in sig.rel_ids() {
            let d = sig.rel_decl(r);
            rel_base.push(cells.len());
            for args in birkhoff_engine::structure::tuples(sizes, &d.args) {
                cells.push(Cell { symbol: Symbol::Rel(r), args, arg_sorts: d.args.clone(), value_sort: None, width: 2 });
            }
        }
        let mut decision_order: Vec<usize> = (0..cells.len()).collect();
        // Concentric order (as in Mace4 and SEM): cells over small elements first, so that the
        // least-number heuristic meets few mentioned elements early.
        decision_order.sort_by_key(|&c| (cells[c].args.iter().max().map_or(0, |m| m + 1), c));

        let mut constraints = Vec::new();
        for (i, a) in theory.axioms.iter().enumerate() {
            let mut outer: Vec<VarId> = a.free_vars();
            let mut body = &a.formula;
            while let Formula::Forall(vs, g) = body {
                outer.extend(vs.iter().copied());
                body = g;
            }
            let mut conjuncts = Vec::new();
            split_conjunction(body, &mut conjuncts);
            for c in conjuncts {
                let mut literals = Vec::new();
                if clause_literals(&c, true, &mut literals) {
                    constraints.push(Constraint { axiom: i, outer: outer.clone(), env_len: a.vars.len(), var_sorts: a.vars.iter().map(|v| v.sort).collect(), literals });
                }
            }
        }
        let mut trivially_false = false;
        let mut count: u128 = 0;
        for c in &constraints {
            let vars = &theory.axioms[c.axiom].vars;
            count += c.outer.iter().map(|v| sizes[vars[v.0 as usize].sort.0 as usize] as u128).product::<u128>();
            trivially_false |= c.literals.is_empty();
        }
        if count > 50_000_000 {
            return Err(ProblemError::TooManyInstances(count));
        }
        let mut inst_constraint = Vec::with_capacity(count as usize);
        let mut inst_env_start = Vec::with_capacity(count as usize);
        let mut inst_env = Vec::new();
        for (ci, c) in constraints.iter().enumerate() {
            let vars = &theory.axioms[c.axiom].vars;
            let outer_sorts: Vec<SortId> = c.outer.iter().map(|v| vars[v.0 as usize].sort).collect();
            for values in birkhoff_engine::structure::tuples(sizes, &outer_sorts) {
                inst_constraint.push(ci as u32);
                inst_env_start.push(inst_env.len() as u32);
                let mut env = vec![0u32; c.env_len];
                for (v, x) in c.outer.iter().zip(values) {
                    env[v.0 as usize] = x;
                }
                inst_env.extend(env);
            }
        }
        Ok(Problem { sig, sizes: sizes.to_vec(), cells, func_base, rel_base, constraints, inst_constraint, inst_env_start, inst_env, decision_order, trivially_false })
    }

    /// Number of ground instances.
    pub fn instances(&self) -> usize {
        self.inst_constraint.len()
    }

    /// The cell of `f(args)`.
    pub fn func_cell(&self, f: FuncId, args_index: usize) -> usize {
        self.func_base[f.0 as usize] + args_index
    }
}

/// Checks that `sizes` gives one size per sort, each between 1 and [`MAX_SORT_SIZE`].
pub fn check_sizes(sig: &Signature, sizes: &[u32]) -> Result<(), ProblemError> {
    if sizes.len() != sig.sorts.len() {
        return Err(ProblemError::SizeCount { given: sizes.len(), sorts: sig.sorts.len() });
    }
    if sizes.contains(&0) {
        return Err(ProblemError::Empty);
    }
    if sizes.iter().any(|&n| n > MAX_SORT_SIZE) {
        return Err(ProblemError::TooLarge);
    }
    Ok(())
}

/// `A & B` at the top of a clause body becomes two clauses.
fn split_conjunction(f: &Formula, out: &mut Vec<Formula>) {
    match f {
        Formula::And(a, b) => {
            split_conjunction(a, out);
            split_conjunction(b, out)
        }
        Formula::Not(g) => match &**g {
            Formula::Or(a, b) => {
                split_conjunction(&Formula::not((**a).clone()), out);
                split_conjunction(&Formula::not((**b).clone()), out)
            }
            Formula::Implies(a, b) => {
                split_conjunction(a, out);
                split_conjunction(&Formula::not((**b).clone()), out)
            }
            Formula::Not(h) => split_conjunction(h, out),
            _ => out.push(f.clone()),
        },
        Formula::True => {}
        _ => out.push(f.clone()),
    }
}

/// Adds the literals of `f` (negated when `!positive`) as a disjunction. Returns false if the
/// disjunction is trivially true (then the clause is dropped: it constrains nothing).
fn clause_literals(f: &Formula, positive: bool, out: &mut Vec<Literal>) -> bool {
    match (f, positive) {
        (Formula::True, true) | (Formula::False, false) => false,
        (Formula::False, true) | (Formula::True, false) => true,
        // `t = t` is true and `t != t` false whatever the tables.
        (Formula::Eq(l, r), true) if l == r => false,
        (Formula::Eq(l, r), false) if l == r => true,
        (Formula::Eq(l, r), _) => {
            out.push(Literal::Eq { positive, left: l.clone(), right: r.clone() });
            true
        }
        (Formula::Rel(r, args), _) => {
            out.push(Literal::Rel { positive, rel: *r, args: args.clone() });
            true
        }
        (Formula::Not(g), _) => clause_literals(g, !positive, out),
        (Formula::Or(a, b), true) => clause_literals(a, true, out) && clause_literals(b, true, out),
        (Formula::Implies(a, b), true) => clause_literals(a, false, out) && clause_literals(b, true, out),
        (Formula::And(a, b), false) => clause_literals(a, false, out) && clause_literals(b, false, out),
        _ => {
            out.push(Literal::Complex(if positive { f.clone() } else { Formula::not(f.clone()) }));
            true
        }
    }
}
