//! The state machine that routes a workspace's next step (the orchestration pattern's STATE.md,
//! adapted to Birkhoff). The router never does mathematics: it reads counts from the records
//! and the library ([`Facts`]) and [`route`]s, a pure function, to one [`Phase`]:
//!
//! 1. **literature** while no literature search was attempted;
//! 2. **proof** while some active hypothesis has been tried fewer than [`MAX_ROUNDS`] times
//!    (each try doubles its budget);
//! 3. **computation** while the spectrum is exact only below [`TARGET_SIZE`] and fewer than
//!    [`MAX_ROUNDS`] computation steps failed to extend it;
//! 4. **writing** while OUTPUT.tex is not written or a step ran after it was;
//! 5. **done**.
//!
//! The caps keep loops bounded (the pattern's "at most three rounds per pair"): a hypothesis the
//! prover cannot settle in three rounds, or a size it cannot count, leaves the route.

use crate::record::Phase;
use crate::text::md;
use serde::Serialize;

/// How many times one hypothesis is tried, and how many computation steps may fail in a row.
pub const MAX_ROUNDS: u32 = 3;

/// The size up to which the computation step extends the spectrum.
pub const TARGET_SIZE: u32 = 6;

/// What the router reads: counts, never mathematics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Facts {
    /// Literature steps attempted (whatever their outcome: one with the network down counts,
    /// so an offline workspace moves on; `research step --phase literature` searches again).
    pub literature_attempts: u32,
    /// Hypotheses whose status is active.
    pub active_hypotheses: u32,
    /// Active hypotheses tried fewer than `MAX_ROUNDS` times.
    pub hypotheses_to_try: u32,
    /// The largest n such that every size up to n has an exact count (0: none).
    pub exact_to: u32,
    /// Computation steps that did not extend `exact_to`.
    pub failed_computations: u32,
    /// Whether OUTPUT.tex exists and no step has run since it was written.
    pub output_written: bool,
}

/// The router's verdict: the next phase and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Route {
    /// The next step.
    pub phase: Phase,
    /// Why, in one sentence.
    pub reason: String,
}

/// The next step for a workspace in state `f`.
pub fn route(f: &Facts) -> Route {
    let (phase, reason) = if f.literature_attempts == 0 {
        (
            Phase::Literature,
            "the literature has not been searched yet".to_string(),
        )
    } else if f.hypotheses_to_try > 0 {
        (
            Phase::Proof,
            format!(
                "{} of {} active hypotheses have had fewer than {MAX_ROUNDS} proof rounds",
                f.hypotheses_to_try, f.active_hypotheses
            ),
        )
    } else if f.exact_to < TARGET_SIZE && f.failed_computations < MAX_ROUNDS {
        (
            Phase::Computation,
            format!(
                "the spectrum is exact only to size {} (the target is {TARGET_SIZE})",
                f.exact_to
            ),
        )
    } else if !f.output_written {
        (
            Phase::Writing,
            "the evidence is gathered and OUTPUT.tex is not written".to_string(),
        )
    } else {
        (
            Phase::Done,
            "OUTPUT.tex is written and no step is left within the caps".to_string(),
        )
    };
    Route { phase, reason }
}

/// STATE.md: the verdict in front matter (for tools) and in words, the facts it read, the
/// history of attempts, and the rules. Made from its arguments only, so it is the same for the
/// same records and library.
pub fn render(
    name: &str,
    f: &Facts,
    r: &Route,
    history: &[(String, Phase, String, String)],
) -> String {
    let mut s = format!(
        "---\nschema_version: 1\nphase: {}\nreason: {}\n---\n\n",
        r.phase.name(),
        serde_json::to_string(&r.reason).unwrap_or_default()
    );
    s.push_str(&format!(
        "# State: {}\n\nNext step: **{}**, because {}.\n\n",
        md(name),
        r.phase.name(),
        r.reason
    ));
    s.push_str("## What the route read\n\n| fact | value |\n|---|---|\n");
    let rows = [
        (
            "literature steps attempted",
            f.literature_attempts.to_string(),
        ),
        ("active hypotheses", f.active_hypotheses.to_string()),
        (
            &*format!("active hypotheses tried fewer than {MAX_ROUNDS} times"),
            f.hypotheses_to_try.to_string(),
        ),
        ("spectrum exact through size", f.exact_to.to_string()),
        (
            "computation steps that did not extend it",
            f.failed_computations.to_string(),
        ),
        ("OUTPUT.tex written", yes(f.output_written).into()),
    ];
    for (k, v) in rows {
        s.push_str(&format!("| {k} | {v} |\n"));
    }
    s.push_str("\n## History\n\n");
    if history.is_empty() {
        s.push_str("No step has run yet.\n");
    } else {
        s.push_str("| attempt | phase | outcome | summary |\n|---|---|---|---|\n");
        for (id, phase, outcome, summary) in history {
            s.push_str(&format!(
                "| {id} | {} | {outcome} | {} |\n",
                phase.name(),
                md(summary)
            ));
        }
    }
    s.push_str(&format!(
        "\n## Transitions\n\nliterature (until one search is attempted) → proof (while an active hypothesis has had fewer than {MAX_ROUNDS} rounds, each with twice the budget of the last) → computation (while the spectrum is exact only below size {TARGET_SIZE} and fewer than {MAX_ROUNDS} steps failed to extend it) → writing (until OUTPUT.tex exists) → done. A new hypothesis or a failed search sends the route back; `birkhoff research step SLUG --phase P` runs a phase out of turn.\n"
    ));
    s
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workspace with everything done except what each test leaves open.
    fn finished() -> Facts {
        Facts {
            literature_attempts: 1,
            active_hypotheses: 0,
            hypotheses_to_try: 0,
            exact_to: TARGET_SIZE,
            failed_computations: 0,
            output_written: true,
        }
    }

    #[test]
    fn a_new_workspace_starts_with_the_literature() {
        let f = Facts {
            literature_attempts: 0,
            active_hypotheses: 2,
            hypotheses_to_try: 2,
            exact_to: 3,
            ..Facts::default()
        };
        assert_eq!(route(&f).phase, Phase::Literature);
    }

    #[test]
    fn after_the_literature_open_hypotheses_go_to_the_prover() {
        let f = Facts {
            active_hypotheses: 2,
            hypotheses_to_try: 1,
            exact_to: 3,
            ..finished()
        };
        let r = route(&f);
        assert_eq!(r.phase, Phase::Proof);
        assert!(r.reason.contains("1 of 2"), "{}", r.reason);
    }

    #[test]
    fn hypotheses_tried_three_times_leave_the_route_to_computation() {
        let f = Facts {
            active_hypotheses: 2,
            hypotheses_to_try: 0,
            exact_to: 3,
            ..finished()
        };
        let r = route(&f);
        assert_eq!(r.phase, Phase::Computation);
        assert!(r.reason.contains("size 3"), "{}", r.reason);
    }

    #[test]
    fn computation_stops_at_the_target_or_after_three_failures() {
        assert_eq!(
            route(&Facts {
                exact_to: TARGET_SIZE - 1,
                ..finished()
            })
            .phase,
            Phase::Computation
        );
        assert_eq!(
            route(&Facts {
                exact_to: TARGET_SIZE - 1,
                failed_computations: MAX_ROUNDS - 1,
                ..finished()
            })
            .phase,
            Phase::Computation
        );
        assert_eq!(
            route(&Facts {
                exact_to: TARGET_SIZE - 1,
                failed_computations: MAX_ROUNDS,
                ..finished()
            })
            .phase,
            Phase::Done
        );
        assert_eq!(
            route(&Facts {
                exact_to: TARGET_SIZE,
                ..finished()
            })
            .phase,
            Phase::Done
        );
    }

    #[test]
    fn then_writing() {
        assert_eq!(
            route(&Facts {
                output_written: false,
                ..finished()
            })
            .phase,
            Phase::Writing
        );
    }

    #[test]
    fn a_finished_workspace_is_done_until_a_new_hypothesis_sends_it_back() {
        assert_eq!(route(&finished()).phase, Phase::Done);
        assert_eq!(
            route(&Facts {
                active_hypotheses: 1,
                hypotheses_to_try: 1,
                ..finished()
            })
            .phase,
            Phase::Proof
        );
    }

    #[test]
    fn state_md_is_a_function_of_its_inputs() {
        let f = Facts {
            exact_to: 4,
            ..finished()
        };
        let r = route(&f);
        let h = vec![(
            "A-001".to_string(),
            Phase::Literature,
            "failed".to_string(),
            "no network | *all* sources down".to_string(),
        )];
        let a = render("Loop <b>", &f, &r, &h);
        assert_eq!(a, render("Loop <b>", &f, &r, &h));
        assert!(
            a.starts_with("---\nschema_version: 1\nphase: computation\n"),
            "{a}"
        );
        assert!(
            a.contains("Loop \\<b\\>") && a.contains("no network \\| \\*all\\* sources down"),
            "{a}"
        );
    }
}
