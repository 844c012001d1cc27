//! A theory at fixed sort sizes, compiled for search: table cells with domains, and each axiom as
//! a clause (a disjunction of literals) instantiated at every value of its universal variables.

use birkhoff_engine::signature::{FuncId, RelId, SortId};
use birkhoff_engine::syntax::{Axiom, Formula, Term, VarId};
use birkhoff_engine::{Signature, Theory};

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

/// A term compiled against the tables, so that evaluating it walks no signature: a variable is a
/// slot of the instance's environment, an application knows its table's first cell and the size
/// of each argument's sort (the row-major strides). A relation atom compiles to the application
/// of its table too; its cells hold 0 (false) or 1 (true).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermCode {
    /// The value of environment slot `0`.
    Var(u32),
    /// The cell `base + index(args)`, each argument paired with the size of its sort.
    App {
        /// The table's first cell.
        base: u32,
        /// The arguments, each with the size of its sort.
        args: Box<[(TermCode, u32)]>,
    },
}

/// A formula compiled like [`TermCode`], for literals the search evaluates but cannot propagate.
#[derive(Clone, Debug)]
pub enum FormulaCode {
    /// Always true.
    True,
    /// Always false.
    False,
    /// `s = t`.
    Eq(TermCode, TermCode),
    /// A relation atom (its table cell).
    Atom(TermCode),
    /// Negation.
    Not(Box<FormulaCode>),
    /// `F & G`.
    And(Box<FormulaCode>, Box<FormulaCode>),
    /// `F | G`.
    Or(Box<FormulaCode>, Box<FormulaCode>),
    /// `F -> G`.
    Implies(Box<FormulaCode>, Box<FormulaCode>),
    /// `F <-> G`.
    Iff(Box<FormulaCode>, Box<FormulaCode>),
    /// A quantifier over environment slots, each with the size of its sort.
    Quantifier {
        /// `∃` if true, else `∀`.
        exists: bool,
        /// The bound environment slots, each with the size of its sort.
        vars: Box<[(u32, u32)]>,
        /// The formula quantified over.
        body: Box<FormulaCode>,
    },
}

/// A literal of a clause.
#[derive(Clone, Debug)]
pub enum Literal {
    /// `s = t` (or `s != t` when negated).
    Eq {
        /// False for `s != t`.
        positive: bool,
        /// `s`.
        left: TermCode,
        /// `t`.
        right: TermCode,
    },
    /// A relation atom (or its negation).
    Rel {
        /// False for the negation.
        positive: bool,
        /// The atom's table cell.
        atom: TermCode,
    },
    /// Anything else (quantifiers, `<->`, conjunctions under a disjunction): evaluated, not propagated.
    Complex(FormulaCode),
}

/// An axiom (or one conjunct of it) as a clause over its outer universal variables.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// Index of the axiom: in the theory, or past its end one of the implied clauses of [`crate::implied`].
    pub axiom: usize,
    /// Variables instantiated per instance (free and leading universal ones).
    pub outer: Vec<VarId>,
    /// Size of the environment: the axiom's whole variable table.
    pub env_len: usize,
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
    /// Per function symbol, the arguments in which it is injective (see `Injective`).
    pub injective: Vec<Vec<Injective>>,
    /// The memory planned for the problem and the search's state, in bytes: the estimate that
    /// `--max-memory` is checked against.
    pub planned_bytes: u128,
}

/// A function injective in one argument: a cancellation clause `f(x̄) = f(x̄[xᵢ := z]) -> xᵢ = z`
/// (stated, or derived by [`crate::implied`]), propagated by the search directly rather than
/// through its n·n' ground instances per cell. Assigning `f(x̄) = v` removes `v` from the `n − 1`
/// other cells of the line through it (the cells that differ at argument `i` only), exactly
/// what the ground instances would propagate, at the cost of a loop over the line: in a group of
/// order 32 the instances made each assignment visit 2·32 more watchers, and counting 1.5× slower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injective {
    /// How far apart two cells of the line are in the table (the product of the sizes of the
    /// arguments after `i`).
    pub stride: usize,
    /// Cells on the line: the size of argument `i`'s sort.
    pub length: u32,
    /// Which argument (`i`).
    pub arg: usize,
}

/// Why a theory cannot be searched at these sizes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// Sizes do not match the sorts.
    #[error("{given} sizes given for {sorts} sorts")]
    SizeCount {
        /// How many sizes were given.
        given: usize,
        /// How many sorts the theory has.
        sorts: usize,
    },
    /// A sort is empty.
    #[error("every sort needs at least one element")]
    Empty,
    /// The tables would have too many cells to search.
    #[error("the tables would have {0} cells; at most 1,000,000 are supported")]
    TooManyCells(usize),
    /// Too many ground instances to hold in memory.
    #[error("the axioms have {0} ground instances at this size; at most 50,000,000 are supported")]
    TooManyInstances(u128),
    /// The compiled problem and the search's state would not fit in memory.
    #[error("the problem would need about {} of memory at this size, more than the {} allowed (--max-memory; by default nine tenths of the memory available)", crate::budget::memory_text(*needed), crate::budget::memory_text(*limit))]
    TooMuchMemory {
        /// The estimate, in bytes.
        needed: u128,
        /// [`crate::budget::memory_limit`], in bytes.
        limit: u128,
    },
    /// The time limit passed (or Ctrl-C came) while the problem was being built.
    #[error("the time ran out while the problem was being built")]
    Stopped,
}

/// How many instances are compiled between two looks at the caller's stop condition.
const STOP_CHECK_INSTANCES: usize = 1 << 16;

impl Problem {
    /// Compiles `theory` for structures whose sorts have these sizes.
    pub fn new(theory: &Theory, sizes: &[u32]) -> Result<Problem, ProblemError> {
        Problem::within(theory, sizes, &|| false)
    }

    /// [`Problem::new`], giving up with [`ProblemError::Stopped`] soon after `stop` says so (a
    /// time limit or Ctrl-C): compiling tens of millions of instances takes seconds.
    pub fn within(
        theory: &Theory,
        sizes: &[u32],
        stop: &dyn Fn() -> bool,
    ) -> Result<Problem, ProblemError> {
        let sig = Signature::clone(&theory.sig);
        check_sizes(&sig, sizes)?;
        let mut cells = Vec::new();
        let mut func_base = Vec::new();
        let mut rel_base = Vec::new();
        let total: u128 = sig
            .funcs
            .iter()
            .map(|f| {
                f.args
                    .iter()
                    .map(|s| sizes[s.0 as usize] as u128)
                    .product::<u128>()
            })
            .sum::<u128>()
            + sig
                .rels
                .iter()
                .map(|r| {
                    r.args
                        .iter()
                        .map(|s| sizes[s.0 as usize] as u128)
                        .product::<u128>()
                })
                .sum::<u128>();
        if total > 1_000_000 {
            return Err(ProblemError::TooManyCells(total as usize));
        }
        for f in sig.func_ids() {
            let d = sig.func_decl(f);
            func_base.push(cells.len());
            for args in birkhoff_engine::structure::tuples(sizes, &d.args) {
                cells.push(Cell {
                    symbol: Symbol::Func(f),
                    args,
                    arg_sorts: d.args.clone(),
                    value_sort: Some(d.result),
                    width: sizes[d.result.0 as usize],
                });
            }
        }
        for r in sig.rel_ids() {
            let d = sig.rel_decl(r);
            rel_base.push(cells.len());
            for args in birkhoff_engine::structure::tuples(sizes, &d.args) {
                cells.push(Cell {
                    symbol: Symbol::Rel(r),
                    args,
                    arg_sorts: d.args.clone(),
                    value_sort: None,
                    width: 2,
                });
            }
        }
        let mut decision_order: Vec<usize> = (0..cells.len()).collect();
        // Concentric order (as in Mace4 and SEM): cells over small elements first, so that the
        // least-number heuristic meets few mentioned elements early.
        decision_order.sort_by_key(|&c| (cells[c].args.iter().max().map_or(0, |m| m + 1), c));

        // The theory's axioms, then redundant clauses that propagate better (see `implied`).
        // Cancellation clauses become lines of the search rather than ground instances.
        let implied = crate::implied::cancellations(theory);
        let axioms: Vec<&Axiom> = theory.axioms.iter().map(|a| &**a).chain(&implied).collect();
        let mut injective: Vec<Vec<Injective>> = vec![Vec::new(); sig.funcs.len()];
        let mut constraints = Vec::new();
        for (i, a) in axioms.iter().enumerate() {
            if let Some((f, arg)) = crate::implied::cancels_at(a) {
                let sorts = &sig.funcs[f as usize].args;
                let line = Injective {
                    stride: sorts[arg + 1..]
                        .iter()
                        .map(|s| sizes[s.0 as usize] as usize)
                        .product(),
                    length: sizes[sorts[arg].0 as usize],
                    arg,
                };
                if !injective[f as usize].contains(&line) {
                    injective[f as usize].push(line);
                }
                continue;
            }
            let (outer, body) = a.universal_prefix();
            let mut conjuncts = Vec::new();
            split_conjunction(body, &mut conjuncts);
            let var_sorts: Vec<SortId> = a.vars.iter().map(|v| v.sort).collect();
            let compiler = Compiler {
                sig: &sig,
                sizes,
                func_base: &func_base,
                rel_base: &rel_base,
                var_sorts: &var_sorts,
            };
            for c in conjuncts {
                let mut literals = Vec::new();
                if compiler.clause(&c, true, &mut literals) {
                    constraints.push(Constraint {
                        axiom: i,
                        outer: outer.clone(),
                        env_len: a.vars.len(),
                        literals,
                    });
                }
            }
        }
        let mut trivially_false = false;
        let mut count: u128 = 0;
        for c in &constraints {
            let vars = &axioms[c.axiom].vars;
            count += c
                .outer
                .iter()
                .map(|v| sizes[vars[v.0 as usize].sort.0 as usize] as u128)
                .product::<u128>();
            trivially_false |= c.literals.is_empty();
        }
        if count > 50_000_000 {
            return Err(ProblemError::TooManyInstances(count));
        }
        // Per instance: its constraint and environment in the problem (8 bytes and 4 per
        // variable), and its watches in the search's root and in each working copy (about 24 bytes
        // each, three copies); per cell, its declaration and domain. Measured: a medial magma of
        // order 64 (16.8 million instances of 4 variables) peaks at 1.7 GB. Domains of sorts above
        // 64 elements take a word per 64 elements (`crate::bits`), in the root and each copy.
        let env_words: u128 = constraints
            .iter()
            .map(|c| {
                let vars = &axioms[c.axiom].vars;
                c.outer
                    .iter()
                    .map(|v| sizes[vars[v.0 as usize].sort.0 as usize] as u128)
                    .product::<u128>()
                    * c.env_len as u128
            })
            .sum();
        let domain_words = sizes
            .iter()
            .map(|&n| crate::bits::words_for(n))
            .max()
            .unwrap_or(1) as u128;
        let bytes = count * 80 + env_words * 4 + total * (200 + 32 * domain_words);
        let limit = u128::from(crate::budget::memory_limit());
        if bytes > limit {
            return Err(ProblemError::TooMuchMemory {
                needed: bytes,
                limit,
            });
        }
        let mut inst_constraint = Vec::with_capacity(count as usize);
        let mut inst_env_start = Vec::with_capacity(count as usize);
        let mut inst_env = Vec::new();
        for (ci, c) in constraints.iter().enumerate() {
            let vars = &axioms[c.axiom].vars;
            let outer_sorts: Vec<SortId> =
                c.outer.iter().map(|v| vars[v.0 as usize].sort).collect();
            for values in birkhoff_engine::structure::tuples(sizes, &outer_sorts) {
                if inst_constraint.len() % STOP_CHECK_INSTANCES == STOP_CHECK_INSTANCES - 1
                    && stop()
                {
                    return Err(ProblemError::Stopped);
                }
                inst_constraint.push(ci as u32);
                inst_env_start.push(inst_env.len() as u32);
                let mut env = vec![0u32; c.env_len];
                for (v, x) in c.outer.iter().zip(values) {
                    env[v.0 as usize] = x;
                }
                inst_env.extend(env);
            }
        }
        Ok(Problem {
            sig,
            sizes: sizes.to_vec(),
            cells,
            func_base,
            rel_base,
            constraints,
            inst_constraint,
            inst_env_start,
            inst_env,
            decision_order,
            trivially_false,
            injective,
            planned_bytes: bytes,
        })
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

/// Checks that `sizes` gives one size per sort, each at least 1. There is no upper bound: what a
/// size costs (cells, instances, memory) is checked when the problem is built.
pub fn check_sizes(sig: &Signature, sizes: &[u32]) -> Result<(), ProblemError> {
    if sizes.len() != sig.sorts.len() {
        return Err(ProblemError::SizeCount {
            given: sizes.len(),
            sorts: sig.sorts.len(),
        });
    }
    if sizes.contains(&0) {
        return Err(ProblemError::Empty);
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

/// What compiling an axiom's terms needs: where each table starts, and the sorts' sizes.
struct Compiler<'a> {
    sig: &'a Signature,
    sizes: &'a [u32],
    func_base: &'a [usize],
    rel_base: &'a [usize],
    var_sorts: &'a [SortId],
}

impl Compiler<'_> {
    fn size(&self, s: SortId) -> u32 {
        self.sizes[s.0 as usize]
    }

    fn term(&self, t: &Term) -> TermCode {
        match t {
            Term::Var(v) => TermCode::Var(v.0),
            Term::App(f, args) => self.table(
                self.func_base[f.0 as usize],
                args,
                &self.sig.funcs[f.0 as usize].args,
            ),
        }
    }

    fn table(&self, base: usize, args: &[Term], sorts: &[SortId]) -> TermCode {
        TermCode::App {
            base: base as u32,
            args: args
                .iter()
                .zip(sorts)
                .map(|(a, &s)| (self.term(a), self.size(s)))
                .collect(),
        }
    }

    fn atom(&self, r: RelId, args: &[Term]) -> TermCode {
        self.table(
            self.rel_base[r.0 as usize],
            args,
            &self.sig.rels[r.0 as usize].args,
        )
    }

    fn formula(&self, f: &Formula) -> FormulaCode {
        let boxed = |g: &Formula| Box::new(self.formula(g));
        match f {
            Formula::True => FormulaCode::True,
            Formula::False => FormulaCode::False,
            Formula::Eq(a, b) => FormulaCode::Eq(self.term(a), self.term(b)),
            Formula::Rel(r, args) => FormulaCode::Atom(self.atom(*r, args)),
            Formula::Not(g) => FormulaCode::Not(boxed(g)),
            Formula::And(a, b) => FormulaCode::And(boxed(a), boxed(b)),
            Formula::Or(a, b) => FormulaCode::Or(boxed(a), boxed(b)),
            Formula::Implies(a, b) => FormulaCode::Implies(boxed(a), boxed(b)),
            Formula::Iff(a, b) => FormulaCode::Iff(boxed(a), boxed(b)),
            Formula::Forall(vs, g) | Formula::Exists(vs, g) => FormulaCode::Quantifier {
                exists: matches!(f, Formula::Exists(..)),
                vars: vs
                    .iter()
                    .map(|v| (v.0, self.size(self.var_sorts[v.0 as usize])))
                    .collect(),
                body: boxed(g),
            },
        }
    }

    /// Adds the literals of `f` (negated when `!positive`) as a disjunction. Returns false if
    /// the disjunction is trivially true (then the clause is dropped: it constrains nothing).
    fn clause(&self, f: &Formula, positive: bool, out: &mut Vec<Literal>) -> bool {
        match (f, positive) {
            (Formula::True, true) | (Formula::False, false) => false,
            (Formula::False, true) | (Formula::True, false) => true,
            // `t = t` is true and `t != t` false whatever the tables.
            (Formula::Eq(l, r), true) if l == r => false,
            (Formula::Eq(l, r), false) if l == r => true,
            (Formula::Eq(l, r), _) => {
                out.push(Literal::Eq {
                    positive,
                    left: self.term(l),
                    right: self.term(r),
                });
                true
            }
            (Formula::Rel(r, args), _) => {
                out.push(Literal::Rel {
                    positive,
                    atom: self.atom(*r, args),
                });
                true
            }
            (Formula::Not(g), _) => self.clause(g, !positive, out),
            (Formula::Or(a, b), true) => self.clause(a, true, out) && self.clause(b, true, out),
            (Formula::Implies(a, b), true) => {
                self.clause(a, false, out) && self.clause(b, true, out)
            }
            (Formula::And(a, b), false) => self.clause(a, false, out) && self.clause(b, false, out),
            _ => {
                let code = self.formula(f);
                out.push(Literal::Complex(if positive {
                    code
                } else {
                    FormulaCode::Not(Box::new(code))
                }));
                true
            }
        }
    }
}
