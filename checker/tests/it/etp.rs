//! The prover on the first implications of the ETP sample (checker/benches/data): no verdict may
//! contradict the Equational Theories Project's known truth value, and every verdict's evidence
//! must stand on its own. "unknown" is allowed (it is honest); the benchmark measures how often.

#[path = "../../benches/etp/sample.rs"]
mod sample;

use birkhoff_checker::prover::{certificate, prove, Options, Verdict};
use birkhoff_engine::eval;
use std::time::Duration;

#[test]
fn no_verdict_contradicts_etp() {
    let implications = sample::read(&sample::default_path()).unwrap();
    let opts = Options {
        timeout: Duration::from_secs(2),
        ..Options::default()
    };
    let mut decided = 0;
    for imp in implications.iter().take(20) {
        let (i, j) = imp.numbers;
        let answer = prove(&imp.theory, &imp.goal, &opts).unwrap();
        match &answer.verdict {
            Verdict::Proved { certificate } => {
                assert!(imp.holds, "E{i} => E{j} is false per ETP, yet proved");
                certificate::check(&imp.theory, &imp.goal, certificate).unwrap();
            }
            Verdict::ProvedByZ3 { .. } => {
                assert!(imp.holds, "E{i} => E{j} is false per ETP, yet proved by Z3")
            }
            Verdict::Disproved { model, .. } => {
                assert!(!imp.holds, "E{i} => E{j} holds per ETP, yet disproved");
                assert!(eval::check(&imp.theory, model).is_ok());
                assert!(eval::falsify(&imp.theory.sig, model, &imp.goal).is_some());
            }
            Verdict::Unknown => continue,
        }
        decided += 1;
    }
    // The sample must really have been read and run: these implications are not all beyond reach.
    assert!(decided > 0, "nothing decided");
}
