//! `backtest`: re-verifies everything stored. Every file must be a valid record whose ID matches
//! its content; every model must satisfy its theory by the engine's evaluator; every refuted
//! conjecture's countermodel must satisfy the theory and falsify the statement; every proof
//! certificate is replayed by the checker's certificate checker
//! ([`birkhoff_checker::prover::certificate::check`]), those of placements included, and every
//! placement's countermodel is evaluated ([`crate::placement`]).

use crate::id::KINDS;
use crate::record::{Body, ConjectureRec, ConjectureStatus, ModelRec, ProofRec, Record};
use crate::{statement, Library, Result};
use birkhoff_checker::prover::certificate::{check, Certificate};
use birkhoff_engine::{eval, Structure, Theory};
use serde::Serialize;
use std::collections::BTreeMap;

/// One problem found, or one item that could not be checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// The file concerned, relative to the library.
    pub file: String,
    /// What is wrong.
    pub problem: String,
}

/// The outcome of a backtest.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// Records checked, by kind.
    pub checked: BTreeMap<String, usize>,
    /// Things that no longer hold.
    pub failures: Vec<Finding>,
}

/// Runs the backtest over the whole library.
pub fn run(lib: &Library) -> Result<Report> {
    let mut report = Report::default();
    let mut records: Vec<(String, Record)> = Vec::new();
    for (kind, _, dir) in KINDS {
        for (path, rec) in lib.scan(dir)? {
            let file = path
                .strip_prefix(lib.root())
                .unwrap_or(&path)
                .display()
                .to_string();
            *report.checked.entry(kind.to_string()).or_default() += 1;
            match rec {
                Err(e) => report.failures.push(Finding {
                    file,
                    problem: e.to_string(),
                }),
                Ok(r) => {
                    let stem = path
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    if r.id != stem || r.body.id() != r.id {
                        report.failures.push(Finding {
                            file: file.clone(),
                            problem: format!(
                                "content does not match its ID {} (edited after it was written)",
                                r.id
                            ),
                        });
                    }
                    records.push((file, r));
                }
            }
        }
    }
    let by_id: BTreeMap<&str, &Record> = records.iter().map(|(_, r)| (r.id.as_str(), r)).collect();
    let theory = |id: &str| -> std::result::Result<Theory, String> {
        match by_id.get(id).map(|r| &r.body) {
            Some(Body::Theory(t)) => {
                Theory::parse(&t.text, id).map_err(|e| format!("theory {id} does not parse: {e}"))
            }
            _ => Err(format!("its theory {id} is not in the library")),
        }
    };
    for (file, r) in &records {
        let problem = match &r.body {
            Body::Theory(t) => Theory::parse(&t.text, &r.id)
                .map_err(|e| format!("does not parse: {e}"))
                .and_then(|th| {
                    let fp = th.fingerprint().to_string();
                    if fp == t.fingerprint {
                        Ok(())
                    } else {
                        Err(format!(
                            "fingerprint {} does not match its text ({fp})",
                            t.fingerprint
                        ))
                    }
                }),
            Body::Model(m) => theory(&m.theory_id).and_then(|t| check_model(&t, m)),
            Body::Spectrum(s) => theory(&s.theory_id).map(|_| ()),
            Body::Conjecture(c) => {
                theory(&c.theory_id).and_then(|t| check_conjecture(&t, c, &by_id))
            }
            Body::Proof(p) => theory(&p.theory_id).and_then(|t| check_proof(&t, p)),
            Body::Placement(p) => theory(&p.theory_id).and_then(|t| p.check(&t)),
        };
        if let Err(problem) = problem {
            report.failures.push(Finding {
                file: file.clone(),
                problem,
            });
        }
    }
    Ok(report)
}

fn check_model(t: &Theory, m: &ModelRec) -> std::result::Result<(), String> {
    let s = Structure::from_json(&t.sig, &m.structure)
        .map_err(|e| format!("not a structure for {}: {e}", t.name))?;
    eval::check(t, &s).map_err(|v| format!("not a model of {}: {v}", t.name))
}

/// Replays the certificate of `p` against its statement over `t`.
fn check_proof(t: &Theory, p: &ProofRec) -> std::result::Result<(), String> {
    let replay = || {
        let goal = statement::parse(t, &p.statement)?;
        let certificate: Certificate = serde_json::from_value(p.certificate.clone())
            .map_err(|e| format!("not a certificate: {e}"))?;
        check(t, &goal, &certificate).map_err(|r| format!("{r:?}"))
    };
    replay().map_err(|e| format!("certificate rejected: {e}"))
}

fn check_conjecture(
    t: &Theory,
    c: &ConjectureRec,
    by_id: &BTreeMap<&str, &Record>,
) -> std::result::Result<(), String> {
    let axiom = statement::parse(t, &c.statement)?;
    match c.status {
        ConjectureStatus::Open => Ok(()),
        ConjectureStatus::Refuted => {
            let id = c
                .countermodel
                .as_deref()
                .ok_or("refuted, but names no countermodel")?;
            let Some(Body::Model(m)) = by_id.get(id).map(|r| &r.body) else {
                return Err(format!("its countermodel {id} is not in the library"));
            };
            check_model(t, m)?;
            let s = Structure::from_json(&t.sig, &m.structure).map_err(|e| e.to_string())?;
            if eval::holds(&t.sig, &s, &axiom) {
                return Err(format!("its countermodel {id} satisfies the statement"));
            }
            Ok(())
        }
        ConjectureStatus::Proved => match c.proof.as_deref() {
            Some(id) if by_id.contains_key(id) => Ok(()),
            Some(id) => Err(format!("its proof {id} is not in the library")),
            None => Err("proved, but names no proof".into()),
        },
    }
}
