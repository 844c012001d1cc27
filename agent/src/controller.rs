//! The cycle controller: PLAN → EXECUTE → INTERPRET → ACT, with a report per cycle.
//!
//! A model's reply is validated; a malformed one gets one retry that explains the error, after
//! which the fault is recorded and the offline strategist decides that step. Records are written
//! as they are found (each atomically), and the cycle's report last: a cycle killed midway leaves
//! consistent records and no report, and the next run resumes at that cycle.

use crate::llm::{Llm, Phase, Request};
use crate::observe::Observer;
use crate::offline::Offline;
use crate::report::{
    markdown, CandidateSummary, CycleReport, Discovery, Fault, LiteratureNote, RunInfo, ToolCall,
};
use crate::schema::{self, Decisions, Plan, Vocabulary};
use crate::situation::{Base, Candidate, Memory, OpenConjecture, Situation};
use crate::text::MAX_REPLY;
use crate::tools::{self, LiteratureAccess, Toolbox};
use birkhoff_checker::oeis::Sequence;
use birkhoff_engine::{seeds, Theory};
use birkhoff_library::record::{merged_spectrum, Body, ConjectureStatus, Record, SpectrumRow};
use birkhoff_library::Library;
use birkhoff_scorer::identify::{standing, Known, Reference, Standing};
use rayon::prelude::*;
use serde_json::json;
use std::time::{Duration, Instant};

/// What a run is asked to do.
pub struct Config {
    /// The research goal.
    pub goal: String,
    /// Cycles in the run.
    pub cycles: u32,
    /// Preferred base structures (`--base`).
    pub bases: Vec<String>,
}

/// How a run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every cycle of the run is complete; the report numbers written.
    Complete(Vec<u64>),
    /// Ctrl-C stopped the run; the numbers of the cycles completed before it.
    Interrupted(Vec<u64>),
}

/// The agent: a model, the tools, an observer.
pub struct Agent<'a> {
    /// The model.
    pub llm: &'a dyn Llm,
    /// Whether `llm` is the offline strategist itself.
    pub offline: bool,
    /// The tools.
    pub tools: Toolbox,
    /// Live output.
    pub observer: &'a dyn Observer,
    /// Whether Ctrl-C was pressed.
    pub interrupted: &'a dyn Fn() -> bool,
}

/// A reply of the model, or of the offline strategist, and who made it.
struct Authored<T> {
    /// The reply.
    reply: T,
    /// `llm`, `offline` or `offline (fallback)`.
    by: String,
}

/// What one cycle records as its phases go, besides their results: its number, its tool calls
/// and faults, and the model's time.
struct CycleLog {
    /// The cycle's number in the library.
    number: u64,
    /// The tool calls, in order.
    calls: Vec<ToolCall>,
    /// Faults and their handling.
    faults: Vec<Fault>,
    /// Seconds spent waiting for the model: every model call of a cycle shares one budget.
    llm_seconds: f64,
    /// Whether the model failed for good this cycle, so that it is not asked again.
    llm_dead: bool,
}

impl CycleLog {
    /// The log of cycle `number`, empty.
    fn new(number: u64) -> CycleLog {
        CycleLog {
            number,
            calls: Vec::new(),
            faults: Vec::new(),
            llm_seconds: 0.0,
            llm_dead: false,
        }
    }
}

/// What EXECUTE leaves for ACT and the report, besides the results it puts in the situation.
struct Executed {
    /// Checked candidates with a model of size above 1.
    with_models: usize,
    /// The spectra novelty is measured against, by name: this cycle's candidates' and parents'
    /// from their checks, the bases' from the library.
    spectra: Vec<(String, Vec<SpectrumRow>)>,
    /// The size countermodels are searched at.
    countermodel_size: u32,
}

/// The run's key: a digest of goal, bases and length, so that a rerun of the same command
/// resumes it.
fn run_key(c: &Config) -> String {
    let mut bases = c.bases.clone();
    bases.sort();
    birkhoff_library::id::derive(
        "run",
        &format!("{}\n{}\n{}", c.goal.trim(), bases.join(","), c.cycles),
    )[4..16]
        .to_string()
}

/// Where the run starts: the first cycle index not yet complete for this run.
fn resume_index(lib: &Library, key: &str, of: u32) -> u32 {
    let last = lib
        .report_numbers()
        .ok()
        .and_then(|n| n.last().copied())
        .and_then(|n| lib.cycle_report(n).ok());
    match last.map(|r| r.run) {
        Some(run) if run.key == key && run.index < of => run.index + 1,
        _ => 1,
    }
}

impl Agent<'_> {
    /// INTERPRET's question for a new discovery: is it known? Asked only when the run may use the
    /// network ([`LiteratureAccess::On`]); the note keeps confirmed references and OEIS matches only. The
    /// references the model proposed for it join the catalogue's as candidates of the same gate:
    /// only those a lookup by identifier confirms are ever cited. A source that failed (timed
    /// out, down, refused) is a fault of the cycle: the note then rests on the other sources.
    fn literature(
        &self,
        lib: &Library,
        c: &Candidate,
        proposed: &[schema::ProposedReference],
        faults: &mut Vec<Fault>,
    ) -> LiteratureNote {
        let cfg = match &self.tools.literature {
            LiteratureAccess::On(cfg) => cfg,
            LiteratureAccess::Off(why) => return LiteratureNote::not_searched(why),
        };
        let spectrum = birkhoff_literature::subject::exact_counts(&c.spectrum);
        let mut subject = birkhoff_literature::subject::of_theory(&c.theory, Some(spectrum));
        subject
            .proposed
            .extend(proposed.iter().map(schema::reference_paper));
        let mut progress = |line: &str| {
            self.observer.line(
                &format!("  literature: {line}"),
                json!({"event": "literature", "line": line}),
            )
        };
        let fault = |message: String, handling: &str| Fault {
            phase: "act".into(),
            message: format!("literature search for {}: {message}", c.name),
            handling: handling.into(),
        };
        match birkhoff_literature::search(lib.root(), &subject, cfg.clone(), &mut progress) {
            Ok(out) => {
                for r in out.sources.iter().filter(|r| !r.errors.is_empty()) {
                    faults.push(fault(r.line(), if r.down { "the source was not asked again in this search; the literature note rests on the other sources" } else { "its failed queries were skipped; the literature note rests on the rest" }));
                }
                LiteratureNote::from(&out)
            }
            Err(e) => {
                faults.push(fault(
                    e.to_string(),
                    "not searched: the discovery is kept without a literature note",
                ));
                LiteratureNote::not_searched(&e.to_string())
            }
        }
    }

    /// Runs (or resumes) the cycles of `cfg`.
    pub fn run(&self, lib: &mut Library, cfg: &Config) -> Result<Ending, String> {
        restore_markdown(lib);
        let key = run_key(cfg);
        let start = resume_index(lib, &key, cfg.cycles);
        if start > 1 {
            self.observer.line(
                &format!("Resuming run {key} at cycle {start} of {}", cfg.cycles),
                json!({"event": "resume", "run": key, "index": start}),
            );
        }
        let mut written = Vec::new();
        for index in start..=cfg.cycles {
            // One unit of writes per cycle: the cycle's records are held until its report
            // commits them with it; a cycle cut short (Ctrl-C, an error) leaves nothing behind.
            lib.begin();
            let outcome = self.cycle(
                lib,
                cfg,
                RunInfo {
                    key: key.clone(),
                    index,
                    of: cfg.cycles,
                },
            );
            lib.discard();
            match outcome? {
                Some(n) => written.push(n),
                None => return Ok(Ending::Interrupted(written)),
            }
        }
        Ok(Ending::Complete(written))
    }

    fn situation(&self, lib: &Library, cfg: &Config, run: &RunInfo) -> Situation {
        let mut bases: Vec<Base> = seeds::all()
            .iter()
            .filter_map(|s| seeds::load(s.name).ok().map(|t| (s.name.to_string(), t)))
            .map(|(name, theory)| Base {
                name,
                theory,
                spectrum: None,
                score: None,
                discovery: false,
                record: None,
            })
            .collect();
        let records = lib.load_all().unwrap_or_default();
        // Fingerprints computed once each (bases) or read from the records (stored theories),
        // so that matching records to bases stays linear as the library grows.
        let mut fingerprints: Vec<String> = bases
            .iter()
            .map(|b| b.theory.fingerprint().to_string())
            .collect();
        let mut stored: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
        for r in &records {
            if let Body::Theory(t) = &r.body {
                stored.insert(&r.id, &t.fingerprint);
                match fingerprints.iter().position(|f| *f == t.fingerprint) {
                    Some(i) => bases[i].score = bases[i].score.clone().or(t.score.clone()),
                    None if t.discovery && !bases.iter().any(|b| b.name == t.name) => {
                        if let Ok(theory) = Theory::parse(&t.text, &r.id) {
                            bases.push(Base {
                                name: t.name.clone(),
                                theory,
                                spectrum: None,
                                score: t.score.clone(),
                                discovery: true,
                                record: Some(r.id.clone()),
                            });
                            fingerprints.push(t.fingerprint.clone());
                        }
                    }
                    None => {}
                }
            }
        }
        let spectra: Vec<&Record> = records
            .iter()
            .filter(|r| matches!(r.body, Body::Spectrum(_)))
            .collect();
        for (theory_id, fp) in &stored {
            if let Some(i) = fingerprints.iter().position(|f| f == fp) {
                let spectrum = merged_spectrum(spectra.iter().copied(), theory_id);
                bases[i].spectrum = Some(spectrum).filter(|rows| !rows.is_empty());
            }
        }
        let open_conjectures = records
            .iter()
            .filter_map(|r| match &r.body {
                Body::Conjecture(c) if c.status == ConjectureStatus::Open => Some(OpenConjecture {
                    theory: c.theory_name.clone(),
                    statement: c.statement.clone(),
                    evidence: c.evidence.clone(),
                }),
                _ => None,
            })
            .take(10)
            .collect();
        let numbers = lib.report_numbers().unwrap_or_default();
        let history = numbers
            .iter()
            .rev()
            .take(5)
            .rev()
            .filter_map(|n| lib.cycle_report(*n).ok())
            .map(|r| memory(&r))
            .collect();
        Situation {
            goal: cfg.goal.clone(),
            preferred: cfg.bases.clone(),
            run_index: run.index,
            run_of: run.of,
            breadth: self.tools.breadth,
            bases,
            moves: self.tools.moves(),
            tools: self.tools.status(),
            history,
            open_conjectures,
            plan: None,
            generated: 0,
            triaged: 0,
            spectra: 0,
            identified: 0,
            candidates: vec![],
            settled: vec![],
            found_in_library: vec![],
            hidden: self.tools.hidden.clone(),
        }
    }

    /// Asks for a reply and validates it: one retry with the error explained, then the offline
    /// strategist. Returns the value and who produced it; an error only if the offline
    /// strategist's own reply were invalid (a bug).
    ///
    /// Every model call of a cycle shares one budget (`--llm-timeout`): the time spent waiting
    /// for the model, `log.llm_seconds`, counts against it (the tools' own time does not); once
    /// it is used up, the model is not asked again this cycle. A reply longer than [`MAX_REPLY`]
    /// is invalid; a valid one has its free text cut to the schema's limits, each cut a fault.
    /// `parse` checks the reply against the situation's vocabulary.
    fn decide<T: schema::Bounded>(
        &self,
        phase: Phase,
        s: &Situation,
        log: &mut CycleLog,
        parse: impl Fn(&str, &Vocabulary) -> Result<T, String>,
    ) -> Result<Authored<T>, String> {
        let name = match phase {
            Phase::Plan => "plan",
            Phase::Interpret => "interpret",
        };
        let (bases, candidates) = (s.base_names(), s.candidate_names());
        let statement = |theory: &str, text: &str| s.check_statement(theory, text);
        let vocabulary = Vocabulary {
            bases: &bases,
            moves: &s.moves,
            candidates: &candidates,
            statement: &statement,
        };
        let parse = |reply: &str| parse(reply, &vocabulary);
        let system = crate::prompt::system(phase);
        let mut prompt = crate::prompt::user(phase, s);
        if !self.offline && !log.llm_dead {
            for attempt in 1..=2 {
                let budget = self.llm.budget();
                let left =
                    budget.map(|b| b.saturating_sub(Duration::from_secs_f64(log.llm_seconds)));
                if left.is_some_and(|l| l.is_zero()) {
                    let secs = budget.map_or(0, |b| b.as_secs());
                    log.faults.push(Fault {
                        phase: name.into(),
                        message: format!(
                            "the model's time for this cycle ({secs} s, --llm-timeout) is used up"
                        ),
                        handling: "the offline strategist decided this step".into(),
                    });
                    break;
                }
                self.observer
                    .wait_start(&format!("Asking {} ({name})", self.llm.describe()));
                let t0 = Instant::now();
                let deadline = left.map(|l| t0 + l);
                let reply = self.llm.ask(&Request {
                    phase,
                    system: &system,
                    prompt: &prompt,
                    situation: s,
                    deadline,
                });
                log.llm_seconds += t0.elapsed().as_secs_f64();
                self.observer.wait_end();
                match reply {
                    Err(e) => {
                        let permanent = e.is_permanent();
                        log.llm_dead = permanent;
                        log.faults.push(Fault {
                            phase: name.into(),
                            message: e.to_string(),
                            handling: format!(
                                "the offline strategist decided this step{}",
                                if permanent {
                                    "; the model is skipped for the rest of the run"
                                } else {
                                    ""
                                }
                            ),
                        });
                        self.observer.line(
                            &format!("! {name}: {e}"),
                            json!({"event": "fault", "phase": name, "message": e.to_string()}),
                        );
                        break;
                    }
                    Ok(text) => match too_long(&text).and_then(|()| parse(&text)) {
                        Ok(mut v) => {
                            for note in v.bound() {
                                log.faults.push(Fault {
                                    phase: name.into(),
                                    message: note,
                                    handling: "the rest of that field was dropped".into(),
                                });
                            }
                            self.observer.line(&format!("Model replied ({:.0}s, {} lines)", t0.elapsed().as_secs_f64(), text.lines().count()), json!({"event": "llm_reply", "phase": name, "seconds": t0.elapsed().as_secs_f64(), "lines": text.lines().count()}));
                            return Ok(Authored {
                                reply: v,
                                by: "llm".into(),
                            });
                        }
                        Err(err) => {
                            let handling = if attempt == 1 {
                                "asked the model again, explaining the error"
                            } else {
                                "the offline strategist decided this step"
                            };
                            log.faults.push(Fault {
                                phase: name.into(),
                                message: format!("invalid reply (attempt {attempt}): {err}"),
                                handling: handling.into(),
                            });
                            self.observer.line(
                                &format!("! {name}: invalid reply: {err}"),
                                json!({"event": "fault", "phase": name, "message": err}),
                            );
                            prompt = format!("{}\n\nYour previous reply was rejected: {err}\nReply again, correcting this.\n", crate::prompt::user(phase, s));
                        }
                    },
                }
            }
        } else if !self.offline {
            log.faults.push(Fault {
                phase: name.into(),
                message: "the model is unavailable (see the earlier fault)".into(),
                handling: "the offline strategist decided this step".into(),
            });
        }
        let text = Offline
            .ask(&Request {
                phase,
                system: &system,
                prompt: &prompt,
                situation: s,
                deadline: None,
            })
            .map_err(|e| e.to_string())?;
        let v = parse(&text).map_err(|e| {
            format!("internal error: the offline strategist's {name} reply is invalid: {e}")
        })?;
        Ok(Authored {
            reply: v,
            by: if self.offline {
                "offline".into()
            } else {
                "offline (fallback)".into()
            },
        })
    }

    fn call<T>(
        &self,
        calls: &mut Vec<ToolCall>,
        tool: &str,
        params: serde_json::Value,
        f: impl FnOnce() -> Result<T, tools::ToolError>,
        summary: impl Fn(&T) -> String,
    ) -> Option<T> {
        let t0 = Instant::now();
        let r = f();
        let (ok, text) = match &r {
            Ok(v) => (true, summary(v)),
            Err(e) => (false, e.to_string()),
        };
        // The structure a call is about, so that the live lines can be told apart.
        let about = params["signature_id"].as_str().map_or(String::new(), |n| {
            format!(
                " [{n}]{}",
                if params["role"] == "parent" {
                    " (parent)"
                } else {
                    ""
                }
            )
        });
        self.observer.line(
            &format!("  {} {tool}{about}: {text}", if ok { "·" } else { "!" }),
            json!({"event": "tool", "tool": tool, "params": params, "ok": ok, "summary": text}),
        );
        calls.push(ToolCall {
            tool: tool.into(),
            params,
            ok,
            summary: text,
            seconds: t0.elapsed().as_secs_f64(),
        });
        r.ok()
    }

    /// Records a tool call that already ran (in parallel with others) and took `seconds`.
    fn record<T>(
        &self,
        calls: &mut Vec<ToolCall>,
        tool: &str,
        params: serde_json::Value,
        result: Result<T, tools::ToolError>,
        seconds: f64,
        summary: impl Fn(&T) -> String,
    ) -> Option<T> {
        let v = self.call(calls, tool, params, || result, summary);
        if let Some(last) = calls.last_mut() {
            last.seconds = seconds;
        }
        v
    }

    /// One cycle: PLAN, EXECUTE, INTERPRET and ACT, then its report; `None` if interrupted
    /// before the report was written.
    fn cycle(&self, lib: &mut Library, cfg: &Config, run: RunInfo) -> Result<Option<u64>, String> {
        let t0 = Instant::now();
        let started = birkhoff_library::time::now();
        let next = lib
            .report_numbers()
            .map_err(|e| e.to_string())?
            .last()
            .copied()
            .unwrap_or(0)
            + 1;
        self.observer.line(
            &format!(
                "──────── Cycle {next} ({}/{} of this run) ────────",
                run.index, run.of
            ),
            json!({"event": "cycle_start", "cycle": next, "index": run.index, "of": run.of}),
        );
        self.observer.line(
            &format!("Goal: {}", cfg.goal),
            json!({"event": "goal", "goal": cfg.goal}),
        );
        let mut log = CycleLog::new(next);
        let mut s = self.situation(lib, cfg, &run);
        let Some(plan) = self.plan(&s, &mut log)? else {
            return Ok(None);
        };
        let Some(executed) = self.execute(lib, &mut s, &plan, &mut log) else {
            return Ok(None);
        };
        let Some(decided) = self.interpret(&s, &mut log)? else {
            return Ok(None);
        };
        // The offline sequences with those the OEIS named in earlier runs (literature/oeis.json),
        // as they were before ACT's literature searches.
        let sequences = birkhoff_literature::Store::new(lib.root()).offline_sequences();
        let Some(discoveries) = self.act(lib, &mut s, &executed, &decided, &sequences, &mut log)
        else {
            return Ok(None);
        };
        let report = CycleReport {
            cycle: 0,
            run,
            goal: cfg.goal.clone(),
            llm: if self.offline {
                self.llm.describe()
            } else {
                format!("{} (offline strategist as fallback)", self.llm.describe())
            },
            started,
            seconds: t0.elapsed().as_secs_f64(),
            llm_seconds: log.llm_seconds,
            plan: plan.reply,
            plan_by: plan.by,
            tool_calls: log.calls,
            generated: s.generated,
            triaged: s.triaged,
            spectra: s.spectra,
            identified: s.identified,
            checked: s.candidates.len(),
            with_models: executed.with_models,
            top: s
                .candidates
                .iter()
                .take(10)
                .map(|c| summary(c, &sequences))
                .collect(),
            discoveries,
            conjectures: s.settled,
            decisions: decided.reply,
            decisions_by: decided.by,
            faults: log.faults,
        };
        let n = lib
            .add_report(&report, markdown)
            .map_err(|e| e.to_string())?;
        let md = lib.markdown_path(n);
        self.observer.summary(&report, n, &md);
        Ok(Some(n))
    }

    /// PLAN: the plan for this cycle and who made it; `None` if interrupted.
    fn plan(&self, s: &Situation, log: &mut CycleLog) -> Result<Option<Authored<Plan>>, String> {
        self.observer
            .line("PLAN", json!({"event": "phase", "phase": "plan"}));
        let plan = self.decide(Phase::Plan, s, log, schema::parse_plan)?;
        if (self.interrupted)() {
            return Ok(None);
        }
        self.observer.line(
            &format!("Strategy: {}", plan.reply.strategy),
            json!({"event": "plan", "by": plan.by, "plan": plan.reply}),
        );
        Ok(Some(plan))
    }

    /// EXECUTE: the plan's explorations, their candidates checked, scored and identified, the
    /// conjectures it names settled and its library searches run, all into the situation; `None`
    /// if interrupted.
    fn execute(
        &self,
        lib: &mut Library,
        s: &mut Situation,
        planned: &Authored<Plan>,
        log: &mut CycleLog,
    ) -> Option<Executed> {
        let (plan, plan_by) = (&planned.reply, &planned.by);
        self.observer
            .line("EXECUTE", json!({"event": "phase", "phase": "execute"}));
        let mut candidates: Vec<Candidate> = Vec::new();
        // Fingerprints of the candidates kept, computed once each: explorations from related
        // bases yield hundreds of candidates, and comparing fingerprints pairwise cost seconds.
        let mut seen = std::collections::HashSet::new();
        let mut per_exploration: Vec<Vec<Candidate>> = Vec::new();
        for e in &plan.explorations {
            let bases: Vec<&Base> = e
                .bases
                .iter()
                .filter_map(|n| s.bases.iter().find(|b| &b.name == n))
                .collect();
            let params = json!({"base_structures": e.bases, "moves": e.moves, "depth": e.depth});
            let found = self.call(
                &mut log.calls,
                "explore",
                params,
                || self.tools.explore(&bases, &e.moves, e.depth),
                |v: &Vec<Candidate>| {
                    if e.moves.is_empty() {
                        format!("no moves: the {} base(s) themselves", v.len())
                    } else {
                        format!("{} candidate(s)", v.len())
                    }
                },
            );
            let found = found.unwrap_or_else(|| {
                self.observer.line("  the plan's bases themselves are checked instead", json!({"event": "note", "message": "explore failed: checking the bases themselves"}));
                self.tools.explore(&bases, &[], 1).unwrap_or_default()
            });
            per_exploration.push(
                found
                    .into_iter()
                    .filter(|c| seen.insert(c.theory.fingerprint()))
                    .collect(),
            );
        }
        s.generated = per_exploration.iter().map(Vec::len).sum();
        for found in &per_exploration {
            self.observer.generated(log.number, found);
        }
        // Every candidate is counted cheaply first, and those to check are chosen one per spectrum.
        let triage = crate::triage::choose(
            per_exploration,
            &s.bases,
            plan.check_top,
            plan.max_size,
            self.tools.scorer.as_ref(),
            self.tools.cancel.clone(),
        );
        self.observer.line(&format!("Triage: {} candidate(s) counted up to size {}, {} different spectra ({:.2}s)", triage.counted, plan.max_size, triage.spectra, triage.seconds), json!({"event": "triage", "counted": triage.counted, "spectra": triage.spectra, "seconds": triage.seconds}));
        s.triaged = triage.counted;
        s.spectra = triage.spectra;
        candidates.extend(triage.chosen);
        // The bases the candidates came from are checked with them: a candidate with its
        // parent's models is no discovery, and novelty is measured against the parent's spectrum.
        let parents = parents_to_check(&s.bases, &candidates);
        let count = candidates.len();
        self.observer.line(&format!("Checking models for {count} candidate(s) and {} parent(s) (sizes 1-{})...", parents.len(), plan.max_size), json!({"event": "check_start", "candidates": count, "parents": parents.len(), "max_size": plan.max_size}));
        candidates.extend(parents);
        let t_check = Instant::now();
        let toolbox = &self.tools;
        let checked =
            timed_in_parallel(&mut candidates, |c| toolbox.check_models(c, plan.max_size));
        for (i, (c, (r, secs))) in candidates.iter().zip(checked).enumerate() {
            let mut params =
                json!({"signature_id": c.name, "min_size": 1, "max_size": plan.max_size});
            if i >= count {
                params["role"] = "parent".into();
            }
            self.record(&mut log.calls, "check_models", params, r, secs, |_| {
                format!("spectrum {}", crate::prompt::spectrum_counts(&c.spectrum))
            });
        }
        let parents = candidates.split_off(count);
        let check_secs = t_check.elapsed().as_secs_f64();
        let verdicts: Vec<Option<String>> = (0..candidates.len())
            .into_par_iter()
            .map(|i| same_as_a_parent(&candidates, i, &parents))
            .collect();
        for (c, verdict) in candidates.iter_mut().zip(verdicts) {
            c.same_as_parent = verdict;
        }
        // Parents' spectra, for novelty: from this cycle's checks or from the library.
        let spectra: Vec<(String, Vec<SpectrumRow>)> = candidates
            .iter()
            .chain(&parents)
            .map(|c| (c.name.clone(), c.spectrum.clone()))
            .chain(
                s.bases
                    .iter()
                    .filter_map(|b| b.spectrum.clone().map(|sp| (b.name.clone(), sp))),
            )
            .collect();
        let scores = timed_in_parallel(&mut candidates, |c| {
            let parents = parent_spectra(c, &spectra);
            c.parent_spectrum = parents.first().cloned();
            toolbox.score(c, &parents)
        });
        for (c, (r, secs)) in candidates.iter_mut().zip(scores) {
            let params = json!({"signature_id": c.name});
            c.score = self.record(&mut log.calls, "score", params, r, secs, |sc| {
                format!("{:.3}", sc.total)
            });
        }
        if (self.interrupted)() {
            return None;
        }
        // Countermodels are searched one size beyond the models checked: every size up to
        // max_size was already enumerated, so a conjecture true there needs a larger test.
        let countermodel_size = (plan.max_size + 1).min(8);
        for p in &plan.prove {
            let Some(b) = s.bases.iter().find(|b| b.name == p.theory) else {
                continue;
            };
            let params = json!({"signature_id": p.theory, "conjecture": p.statement});
            let theory = b.theory.clone();
            let settled = self.call(
                &mut log.calls,
                "prove",
                params,
                || {
                    let id = tools::ensure_theory(lib, &p.theory, &theory, "base")?;
                    self.tools.prove(
                        lib,
                        &p.theory,
                        &theory,
                        &id,
                        &p.statement,
                        plan_by,
                        countermodel_size,
                    )
                },
                |st| format!("{:?}: {}", st.status, st.evidence),
            );
            s.settled.extend(settled);
        }
        for q in &plan.search {
            let params = json!({"query": q.query, "min_score": q.min_score});
            let hits = self.call(
                &mut log.calls,
                "search_library",
                params,
                || tools::search_library(lib, &q.query, q.min_score),
                |h| format!("{} result(s)", h.len()),
            );
            let shown = hits
                .unwrap_or_default()
                .iter()
                .take(10)
                .map(|h| {
                    format!(
                        "{} {} {}{}",
                        h.id,
                        h.kind,
                        h.name,
                        h.score.map_or(String::new(), |x| format!(" {x:.3}"))
                    )
                })
                .collect();
            s.found_in_library.push((q.query.clone(), shown));
        }
        rank(&mut candidates);
        let t_identify = Instant::now();
        let identified = identify_candidates(&s.bases, &mut candidates, &self.tools);
        s.identified = identified;
        self.observer.line(&format!("Identified {identified} candidate(s) against the seeds, the catalogue and earlier discoveries ({:.2}s)", t_identify.elapsed().as_secs_f64()), json!({"event": "identified", "candidates": identified, "seconds": t_identify.elapsed().as_secs_f64()}));
        // A candidate shown to be a seed, catalogue entry or discovery has novelty 0: it is scored again from what
        // was gathered (no new search).
        for c in candidates.iter_mut().filter(|c| {
            matches!(&c.standing, Some(Standing::Known { kind, .. }) if *kind != "candidate")
                && c.score.is_some()
        }) {
            rescore(toolbox, c, &spectra);
        }
        for c in candidates.iter().filter(|c| c.standing.is_some()) {
            let what = c
                .standing
                .as_ref()
                .map(|st| st.describe())
                .unwrap_or_default();
            log.calls.push(crate::report::ToolCall {
                tool: "identify".into(),
                params: json!({"signature_id": c.name}),
                ok: true,
                summary: what,
                seconds: 0.0,
            });
        }
        let with_models = candidates
            .iter()
            .filter(|c| {
                c.spectrum
                    .iter()
                    .any(|r| r.iso.value > 0 && r.sizes.iter().any(|&n| n > 1))
            })
            .count();
        self.observer.line(&format!("Model check: {with_models} of {} with models above size 1 ({check_secs:.2}s)", candidates.len()), json!({"event": "check_done", "with_models": with_models, "checked": candidates.len(), "seconds": check_secs}));
        s.candidates = candidates;
        s.plan = Some(plan.clone());
        refusals(&log.calls, 0, "execute", &mut log.faults);
        Some(Executed {
            with_models,
            spectra,
            countermodel_size,
        })
    }

    /// INTERPRET: the decisions on this cycle's results and who made them; `None` if interrupted.
    fn interpret(
        &self,
        s: &Situation,
        log: &mut CycleLog,
    ) -> Result<Option<Authored<Decisions>>, String> {
        self.observer
            .line("INTERPRET", json!({"event": "phase", "phase": "interpret"}));
        let decided = self.decide(Phase::Interpret, s, log, schema::parse_decisions)?;
        self.observer.line(
            &format!("Analysis: {}", decided.reply.analysis),
            json!({"event": "decisions", "by": decided.by, "decisions": decided.reply}),
        );
        if (self.interrupted)() {
            return Ok(None);
        }
        Ok(Some(decided))
    }

    /// ACT: the decisions carried out: the kept candidates added to the library and the proposed
    /// conjectures settled (into the situation); the discoveries, or `None` if interrupted.
    fn act(
        &self,
        lib: &mut Library,
        s: &mut Situation,
        executed: &Executed,
        decided: &Authored<Decisions>,
        sequences: &[Sequence],
        log: &mut CycleLog,
    ) -> Option<Vec<Discovery>> {
        self.observer
            .line("ACT", json!({"event": "phase", "phase": "act"}));
        let from = log.calls.len();
        let (decisions, decisions_by) = (&decided.reply, &decided.by);
        let (toolbox, spectra) = (&self.tools, &executed.spectra);
        let countermodel_size = executed.countermodel_size;
        let mut discoveries: Vec<Discovery> = Vec::new();
        for k in &decisions.keep {
            let Some(c) = s.candidates.iter().find(|c| c.name == k.candidate) else {
                continue;
            };
            // The candidates kept before this one (itself aside: keeping it again adds an alias).
            let standing = c.standing.clone();
            let params = json!({"signature_id": k.candidate, "name": k.name, "notes": k.notes});
            // A discovery must be new for a stated reason; a theory known to be an earlier
            // discovery (or one kept this cycle) becomes another presentation of it.
            let twin = match &standing {
                Some(Standing::Known {
                    name,
                    kind: "discovery",
                    relation,
                    ..
                }) => s
                    .bases
                    .iter()
                    .find(|b| &b.name == name)
                    .and_then(|b| b.record.clone())
                    .map(|id| (id, relation.describe())),
                Some(Standing::Known {
                    name,
                    kind: "candidate",
                    relation,
                    ..
                }) => discoveries
                    .iter()
                    .find(|d| &d.candidate.name == name)
                    .map(|d| (d.id.clone(), relation.describe())),
                _ => None,
            };
            // The same theory as stored (not another presentation) is a re-keep: add_to_library
            // keeps its first name and records the new one as an alias.
            let same_record = |id: &str| {
                tools::theory_record(&k.name, &c.theory, &c.origin, &c.parents, true, "", None)
                    .is_ok_and(|r| r.id() == id)
            };
            let twin = twin.filter(|(id, _)| !same_record(id));
            let rekeep = matches!(&standing, Some(Standing::Known { name, kind: "discovery", .. }) if s.bases.iter().any(|b| &b.name == name && b.record.as_deref().is_some_and(same_record)));
            if let Some((id, evidence)) = twin {
                let params = json!({"signature_id": k.candidate, "presentation_of": id});
                self.call(
                    &mut log.calls,
                    "add_to_library",
                    params,
                    || tools::add_presentation(lib, &id, c, &evidence),
                    |id| format!("another presentation of {id}, not a new discovery"),
                );
                continue;
            }
            let reason = match &standing {
                _ if rekeep => Ok("it is already stored as this discovery".to_string()),
                Some(Standing::New { reason }) => Ok(reason.clone()),
                Some(Standing::Known {
                    name,
                    kind: "candidate",
                    ..
                }) => Ok(format!(
                    "it is the same class as candidate {name}, which was not kept"
                )),
                Some(other) => Err(other.describe()),
                None => Err(
                    "it was not identified (no model above size 1, or its parent's models)".into(),
                ),
            };
            let reason = match reason {
                Ok(r) => r,
                Err(why) => {
                    log.faults.push(Fault {
                        phase: "act".into(),
                        message: format!("`{}` was not kept as {}: {why}", k.candidate, k.name),
                        handling:
                            "not stored as a discovery: a discovery must be new for a stated reason"
                                .into(),
                    });
                    continue;
                }
            };
            // Asked before storing: a theory the literature knows (confirmed references or an OEIS
            // sequence) is stored with novelty 0 and the reason in its notes.
            let literature = self.literature(lib, c, &k.references, &mut log.faults);
            let known = literature.known_because().map(|why| {
                let mut known = c.clone();
                known.in_literature = Some(why);
                rescore(toolbox, &mut known, spectra);
                known
            });
            let c = known.as_ref().unwrap_or(c);
            let notes = match &c.in_literature {
                Some(why) => format!(
                    "{} New because {reason}, but known in the literature ({why}): novelty 0.",
                    k.notes
                ),
                None => format!("{} New because {reason}.", k.notes),
            };
            if let Some(added) = self.call(
                &mut log.calls,
                "add_to_library",
                params,
                || tools::add_to_library(lib, c, &k.name, &notes, log.number),
                |a| a.summary(&k.name),
            ) {
                let alias = added
                    .first_name
                    .as_ref()
                    .map_or(String::new(), |f| format!(", an alias of {f}"));
                self.observer.line(&format!("+ Discovery: {} (from {}, score {}{alias})", k.name, c.name, crate::prompt::score_line(&c.score)), json!({"event": "discovery", "name": k.name, "id": added.id, "alias_of": added.first_name}));
                // What is new: a smallest model that is not its parent's, when there is one.
                let mut shown = summary(c, sequences);
                let parent = c.parents.iter().find_map(|p| {
                    s.bases
                        .iter()
                        .find(|b| b.name == *p || b.theory.name == *p)
                        .map(|b| &b.theory)
                        .or_else(|| {
                            s.candidates
                                .iter()
                                .find(|d| d.name == *p || d.theory.name == *p)
                                .map(|d| &d.theory)
                        })
                });
                if let Some(t) = parent.and_then(|p| crate::parent::new_model(c, p)) {
                    shown.cayley = Some(t);
                }
                // What its models are made of: statements left open here are retested by later
                // cycles (they are the library's open conjectures), the proved ones are its paper's.
                let structure = if added.first_name.is_none() {
                    let params = json!({"signature_id": k.candidate, "discovery": added.id});
                    self.call(
                        &mut log.calls,
                        "study_structure",
                        params,
                        || toolbox.study_structure(lib, &added.id, &c.theory),
                        |note| note.as_ref().map_or("not studied".into(), |n| n.summary()),
                    )
                    .flatten()
                } else {
                    None
                };
                // Where it sits among the known classes, after the structure study so that the
                // placement may cite the library as it then is.
                let placement = if added.first_name.is_none() {
                    let params = json!({"signature_id": k.candidate, "discovery": added.id});
                    self.call(
                        &mut log.calls,
                        "place_discovery",
                        params,
                        || toolbox.place_discovery(lib, &added.id, &c.theory),
                        |note| {
                            note.as_ref()
                                .map_or("no class with its symbols".into(), |n| n.summary())
                        },
                    )
                    .flatten()
                } else {
                    None
                };
                discoveries.push(Discovery {
                    id: added.id,
                    name: k.name.clone(),
                    notes,
                    candidate: shown,
                    alias_of: added.first_name,
                    literature,
                    structure,
                    placement,
                });
            }
        }
        let by = if decisions_by == "llm" {
            "llm"
        } else {
            "offline"
        };
        for p in &decisions.conjectures {
            if s.settled.iter().any(|t| {
                t.theory == p.theory
                    && t.statement
                        .split_whitespace()
                        .eq(p.statement.split_whitespace())
            }) {
                continue; // already tested this cycle
            }
            let theory = s
                .candidates
                .iter()
                .find(|c| c.name == p.theory)
                .map(|c| (c.theory.clone(), c.origin.clone()))
                .or_else(|| {
                    s.bases
                        .iter()
                        .find(|b| b.name == p.theory)
                        .map(|b| (b.theory.clone(), "base".to_string()))
                });
            let Some((theory, origin)) = theory else {
                continue;
            };
            let params = json!({"signature_id": p.theory, "conjecture": p.statement});
            let settled = self.call(
                &mut log.calls,
                "prove",
                params,
                || {
                    let id = tools::ensure_theory(lib, &p.theory, &theory, &origin)?;
                    self.tools.prove(
                        lib,
                        &p.theory,
                        &theory,
                        &id,
                        &p.statement,
                        by,
                        countermodel_size,
                    )
                },
                |st| format!("{:?}: {}", st.status, st.evidence),
            );
            if let Some(st) = settled {
                self.observer.line(&format!("? Conjecture: [{}] {} — {:?}", st.theory, st.statement, st.status), json!({"event": "conjecture", "theory": st.theory, "statement": st.statement, "status": st.status}));
                s.settled.push(st);
            }
        }
        // A countermodel found above is a model of its theory, often of an order the counts
        // did not reach: the spectrum patterns it refutes are not reported open.
        for d in &mut discoveries {
            if let Some(c) = s.candidates.iter().find(|c| c.name == d.candidate.name) {
                d.candidate.patterns = patterns_beside_models(lib, &d.id, c);
            }
        }
        if (self.interrupted)() {
            return None;
        }
        refusals(&log.calls, from, "act", &mut log.faults);
        Some(discoveries)
    }
}

/// A reply too long to read is invalid, with a message the model can act on.
fn too_long(text: &str) -> Result<(), String> {
    if text.len() > MAX_REPLY {
        return Err(format!(
            "the reply has more than {MAX_REPLY} bytes: reply more briefly"
        ));
    }
    Ok(())
}

/// Every tool call from `calls[from..]` that failed or was refused becomes a fault of `phase`:
/// a refusal is never silent.
fn refusals(calls: &[ToolCall], from: usize, phase: &str, faults: &mut Vec<Fault>) {
    for c in calls[from..].iter().filter(|c| !c.ok) {
        let handling = match c.tool.as_str() {
            "explore" => "the exploration's bases themselves were checked instead",
            "add_to_library" => "the discovery was not stored",
            _ => "the cycle went on without this result",
        };
        faults.push(Fault {
            phase: phase.into(),
            message: format!("{} ({}): {}", c.tool, c.params, c.summary),
            handling: handling.into(),
        });
    }
}

/// The prover's settings for asking whether a candidate is a known class: `equiv`'s and
/// `identify`'s ([`birkhoff_checker::prover::Options::for_verdicts`]) at their default
/// `--timeout` of two seconds per question, so that the agent gives their verdict for the same
/// pair.
pub fn identification_options(
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> birkhoff_checker::prover::Options {
    birkhoff_checker::prover::Options::for_verdicts(std::time::Duration::from_secs(2), cancel)
}

/// What identification compares candidates with: the seeds and catalogue entries (but those
/// the rediscovery benchmark hides) and the discoveries of earlier cycles.
fn known_theories(bases: &[Base], tools: &Toolbox) -> Vec<Known> {
    let mut known: Vec<Known> = Known::builtin()
        .into_iter()
        .filter(|k| !tools.hidden.contains(&k.name))
        .collect();
    known.extend(bases.iter().filter(|b| b.discovery).map(|b| Known {
        name: b.name.clone(),
        kind: "discovery",
        theory: b.theory.clone(),
    }));
    known
}

/// What `theory` is with respect to `reference` ([`standing`]), on its side by the budget rule
/// every comparison uses ([`Reference::side_of`], not the cycle's own models and counts), so that
/// the verdict is the one `equiv` and `identify` give. A search that fails leaves it unknown,
/// saying why.
pub fn identify_theory(
    theory: &birkhoff_engine::Theory,
    reference: &Reference,
    opts: &birkhoff_checker::prover::Options,
) -> Standing {
    reference
        .side_of(theory)
        .and_then(|side| standing(&side, reference, opts))
        .unwrap_or_else(|e| Standing::Unknown {
            names: vec![],
            reason: e.to_string(),
        })
}

/// At most this many candidates are identified per cycle, best ranked first: identification
/// asks the prover about each (up to seconds for one whose equivalence stays open), while
/// checking models and scoring take milliseconds, so a wide cycle checks and scores every
/// candidate it takes and identifies the best.
pub const IDENTIFY_TOP: usize = 24;

/// Identifies, best ranked first, the [`IDENTIFY_TOP`] best checked candidates with a model
/// above size 1 that are not their parent in other words ([`standing`]): the same class as a
/// seed, a catalogue entry, an earlier discovery or a better-ranked candidate of this cycle; new
/// (told apart from each by a class invariant); or unknown. Only a new one may be kept; the others
/// keep no standing (and so are not kept). Returns how many.
fn identify_candidates(bases: &[Base], candidates: &mut [Candidate], tools: &Toolbox) -> usize {
    let cancel = tools.cancel.clone();
    let opts = identification_options(cancel.clone());
    let mut reference = Reference::new(known_theories(bases, tools), cancel.clone()).for_novelty();
    let mut count = 0;
    for c in candidates.iter_mut() {
        let nontrivial = c
            .spectrum
            .iter()
            .any(|r| r.iso.value > 0 && r.sizes.iter().any(|&n| n > 1));
        if !c.checked || !nontrivial || c.same_as_parent.is_some() {
            continue;
        }
        if count == IDENTIFY_TOP {
            break;
        }
        let st = identify_theory(&c.theory, &reference, &opts);
        if let Standing::New { .. } = st {
            reference.push(Known {
                name: c.name.clone(),
                kind: "candidate",
                theory: c.theory.clone(),
            });
        }
        c.standing = Some(st);
        count += 1;
    }
    count
}

/// The bases the candidates came from that are not candidates themselves, ready to be checked.
/// Parents are named as the explore tool names them (a theory's name) or as plans do (a base's).
fn parents_to_check(bases: &[Base], candidates: &[Candidate]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for p in candidates.iter().flat_map(|c| &c.parents) {
        let known = candidates
            .iter()
            .chain(&out)
            .any(|d| d.name == *p || d.theory.name == *p);
        if let (false, Some(b)) = (
            known,
            bases.iter().find(|b| b.name == *p || b.theory.name == *p),
        ) {
            out.push(Candidate::new(
                p.clone(),
                b.theory.clone(),
                "base".into(),
                vec![],
            ));
        }
    }
    out
}

/// Why candidate `i` shows nothing new compared with one of its parents (another candidate of
/// this cycle, or a parent checked with them), if it does not.
fn same_as_a_parent(candidates: &[Candidate], i: usize, parents: &[Candidate]) -> Option<String> {
    let c = &candidates[i];
    let others = candidates
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != i)
        .map(|(_, d)| d)
        .chain(parents);
    let named: Vec<&Candidate> = others
        .filter(|d| {
            c.parents
                .iter()
                .any(|p| d.name == *p || d.theory.name == *p)
        })
        .collect();
    named
        .into_iter()
        .find_map(|d| crate::parent::no_new_models(c, d))
}

/// Runs `f` on every candidate in parallel (rayon), with each call's wall-clock seconds, in the
/// candidates' order.
fn timed_in_parallel<T: Send>(
    candidates: &mut [Candidate],
    f: impl Fn(&mut Candidate) -> T + Sync,
) -> Vec<(T, f64)> {
    candidates
        .par_iter_mut()
        .map(|c| {
            let t = Instant::now();
            let r = f(c);
            (r, t.elapsed().as_secs_f64())
        })
        .collect()
}

/// Scores `c` again from what was gathered (no new search), after its standing or its
/// literature changed; the old score stays if the scorer fails.
fn rescore(toolbox: &Toolbox, c: &mut Candidate, spectra: &[(String, Vec<SpectrumRow>)]) {
    c.score = toolbox
        .score(c, &parent_spectra(c, spectra))
        .ok()
        .or(c.score.take());
}

/// The spectra of `c`'s parents among `spectra` (name, rows), in the order of its parents; a
/// parent without a spectrum there is left out.
fn parent_spectra(c: &Candidate, spectra: &[(String, Vec<SpectrumRow>)]) -> Vec<Vec<SpectrumRow>> {
    c.parents
        .iter()
        .filter_map(|p| {
            spectra
                .iter()
                .find(|(n, _)| n == p)
                .map(|(_, sp)| sp.clone())
        })
        .collect()
}

/// Best first: by score when scored, else by the number of sizes above 1 with models.
fn rank(c: &mut [Candidate]) {
    let key = |c: &Candidate| {
        (
            c.score.as_ref().map_or(-1.0, |s| s.total),
            c.spectrum
                .iter()
                .filter(|r| r.iso.value > 0 && r.sizes.iter().any(|&n| n > 1))
                .count(),
        )
    };
    c.sort_by(|a, b| {
        key(b)
            .0
            .total_cmp(&key(a).0)
            .then(key(b).1.cmp(&key(a).1))
            .then(a.name.cmp(&b.name))
    });
}

fn summary(c: &Candidate, sequences: &[birkhoff_checker::oeis::Sequence]) -> CandidateSummary {
    let oeis = birkhoff_checker::oeis::recognise_in(&c.spectrum, sequences)
        .iter()
        .map(|m| m.describe())
        .collect();
    let patterns = birkhoff_checker::conjectures(&c.spectrum)
        .into_iter()
        .map(|p| p.statement)
        .collect();
    CandidateSummary {
        name: c.name.clone(),
        origin: c.origin.clone(),
        parents: c.parents.clone(),
        score: c.score.clone(),
        spectrum: c.spectrum.clone(),
        axioms: crate::prompt::axioms(&c.theory),
        cayley: crate::prompt::small_model(c),
        same_as_parent: c.same_as_parent.clone(),
        standing: c.standing.as_ref().map(|st| st.describe()),
        oeis,
        patterns,
    }
}

/// The spectrum patterns of candidate `c` (stored as `id`) that no model of it in the library
/// refutes: each model the evaluator confirms, of an order a pattern excludes, refutes it.
fn patterns_beside_models(lib: &Library, id: &str, c: &Candidate) -> Vec<String> {
    let orders: Vec<u32> = lib
        .structures_of(id, &c.theory)
        .unwrap_or_default()
        .iter()
        .filter(|m| m.sizes.len() == 1)
        .map(|m| m.sizes[0])
        .collect();
    birkhoff_checker::conjectures_beside(&c.spectrum, &orders)
        .into_iter()
        .map(|p| p.statement)
        .collect()
}

/// What a report says about its cycle, for the next cycles' prompts.
fn memory(r: &CycleReport) -> Memory {
    Memory {
        cycle: r.cycle,
        strategy: r.plan.strategy.clone(),
        bases: r
            .plan
            .explorations
            .iter()
            .flat_map(|e| e.bases.clone())
            .collect(),
        moves: r
            .plan
            .explorations
            .iter()
            .flat_map(|e| e.moves.clone())
            .collect(),
        kept: r.discoveries.iter().map(|d| d.name.clone()).collect(),
        conjectures: r
            .conjectures
            .iter()
            .map(|c| format!("[{}] {}: {:?}", c.theory, c.statement, c.status))
            .collect(),
    }
}

/// Rewrites the Markdown of any report whose JSON was written but whose Markdown was not (a run
/// killed between the two).
fn restore_markdown(lib: &Library) {
    for n in lib.report_numbers().unwrap_or_default() {
        if !lib.markdown_path(n).exists() {
            if let Ok(r) = lib.cycle_report(n) {
                let _ = lib.write_markdown(n, &markdown(&r));
            }
        }
    }
}
