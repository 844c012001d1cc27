//! The package's integration tests, as one test binary (one link instead of one per file).

mod automorphism;
mod bench_theories;
mod budgets;
mod catalogue;
mod common;
mod completion;
mod conjecture;
mod engines_agree;
mod etp;
mod external;
mod ground_truth;
mod implied;
mod interpretation;
mod iso;
mod ladr_differential;
mod lex;
mod moves_on_models;
mod oeis;
mod oracle;
mod patterns;
mod pieces;
mod prover;
mod readable;
mod refine;
mod sat;
mod z3_backend;
