//! The offline strategist: a deterministic planner that needs no language model. It reads the
//! same situation a model would, makes real choices (which seeds to explore and discoveries to
//! deepen, which moves, what to check, what to keep, what to conjecture) and explains each one.
//! Its replies use the same `<plan>`/`<decisions>` format and go through the same validation.

use crate::llm::{Llm, LlmError, Phase, Request};
use crate::schema::{ConjectureProposal, Decisions, Exploration, Keep, Plan, Search};
use crate::situation::{Breadth, Candidate, Situation};
use birkhoff_checker::Status;
use birkhoff_engine::signature::Fixity;
use birkhoff_engine::{eval, Theory};
use birkhoff_library::statement;
use birkhoff_scorer::identify::Standing;

/// The offline strategist.
pub struct Offline;

impl Llm for Offline {
    fn describe(&self) -> String {
        "offline strategist (deterministic)".into()
    }

    fn ask(&self, req: &Request) -> Result<String, LlmError> {
        Ok(match req.phase {
            Phase::Plan => format!(
                "<plan>{}</plan>",
                serde_json::to_string(&plan(req.situation)).expect("plans serialize")
            ),
            Phase::Interpret => format!(
                "<decisions>{}</decisions>",
                serde_json::to_string(&decide(req.situation)).expect("decisions serialize")
            ),
        })
    }
}

/// Words of the goal, lower case.
fn goal_words(goal: &str) -> Vec<String> {
    goal.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Bases the goal names: a base matches if its name (or its theory's name), without `_`, or its
/// last word, appears in the goal, in singular or plural.
fn bases_in_goal(s: &Situation) -> Vec<String> {
    let words = goal_words(&s.goal);
    let said = |w: &str| {
        words
            .iter()
            .any(|g| g == w || g.strip_suffix('s') == Some(w) || g.strip_suffix("es") == Some(w))
    };
    s.bases
        .iter()
        .filter(|b| {
            let n = b.name.to_lowercase();
            said(&n.replace('_', ""))
                || said(&b.theory.name.to_lowercase())
                || n.split('_').next_back().is_some_and(|last| {
                    n.contains('_') && said(last) && said(n.split('_').next().unwrap_or(""))
                })
        })
        .map(|b| b.name.clone())
        .collect()
}

/// `pool` followed by the other bases that share function or relation symbols with it, most
/// similar first (Jaccard index of the symbol sets), so that later cycles move to neighbours;
/// when `close`, only those sharing more than half of the symbols (a goal's loops lead to
/// quasigroups and Moufang loops, not to every structure with a multiplication).
fn with_related(s: &Situation, pool: Vec<String>, close: bool) -> Vec<String> {
    let symbols = |t: &Theory| -> std::collections::BTreeSet<String> {
        t.sig
            .funcs
            .iter()
            .map(|f| f.name.clone())
            .chain(t.sig.rels.iter().map(|r| r.name.clone()))
            .collect()
    };
    let wanted: std::collections::BTreeSet<String> = s
        .bases
        .iter()
        .filter(|b| pool.contains(&b.name))
        .flat_map(|b| symbols(&b.theory))
        .collect();
    let mut related: Vec<(u64, &String)> = s
        .bases
        .iter()
        .filter(|b| !pool.contains(&b.name))
        .filter_map(|b| {
            let own = symbols(&b.theory);
            let shared = own.intersection(&wanted).count() as u64;
            let union = own.union(&wanted).count().max(1) as u64;
            let related = if close {
                2 * shared > union
            } else {
                shared > 0
            };
            related.then_some((u64::MAX - shared * 1_000_000 / union, &b.name))
        })
        .collect();
    related.sort();
    pool.iter()
        .cloned()
        .chain(related.into_iter().map(|(_, n)| n.clone()))
        .collect()
}

/// Seeds explored each cycle when the goal asks for something new (one fewer otherwise, for a
/// second discovery): a 20-cycle run then visits every seed family, not two bases over and over.
const SEED_SLOTS: usize = 5;

/// Moves applied in every exploration: the ones that add or twist a law (a subvariety or a
/// deformation of the base), the route to most named classes.
const STRUCTURAL: [&str; 4] = ["COMPLETE", "QUOTIENT", "DEFORM", "SELF_DISTRIB"];

/// Candidates checked per cycle: the schema's limit. Checking models is cheap (a fraction of a
/// second for all of them); identification, the costly step, takes only the best of them
/// ([`crate::controller::IDENTIFY_TOP`]).
const CHECK_TOP: usize = 50;

/// Whether the goal asks for something new ("novel", "new", "variants", "find"...).
fn wants_new(s: &Situation) -> bool {
    goal_words(&s.goal).iter().any(|w| {
        [
            "novel", "new", "variant", "variants", "broadly", "explore", "find",
        ]
        .contains(&w.as_str())
    })
}

/// `discoveries` best score first (ties by name).
fn best_first(mut discoveries: Vec<&crate::situation::Base>) -> Vec<&crate::situation::Base> {
    discoveries.sort_by(|a, b| {
        b.score
            .as_ref()
            .map_or(0.0, |x| x.total)
            .total_cmp(&a.score.as_ref().map_or(0.0, |x| x.total))
            .then(a.name.cmp(&b.name))
    });
    discoveries
}

/// The structures to explore before their neighbours, with the reason in `why`: the bases given
/// with `--base`, else those the goal names, else the classical structures (`classical_why`
/// saying how they are visited); and whether it was the last (the goal names no structure).
fn chosen_structures(
    s: &Situation,
    why: &mut Vec<String>,
    classical_why: &str,
) -> (Vec<String>, bool) {
    let names = s.base_names();
    let from_flags: Vec<String> = s
        .preferred
        .iter()
        .filter(|p| names.contains(p))
        .cloned()
        .collect();
    let from_goal = bases_in_goal(s);
    if !from_flags.is_empty() {
        why.push(format!(
            "explore from the bases given with --base: {}",
            from_flags.join(", ")
        ));
        (from_flags, false)
    } else if !from_goal.is_empty() {
        why.push(format!(
            "explore the structures the goal names: {}",
            from_goal.join(", ")
        ));
        (from_goal, false)
    } else {
        let classical = [
            "group",
            "monoid",
            "quasigroup",
            "loop",
            "semigroup",
            "lattice",
            "ring",
            "band",
        ];
        why.push(format!("the goal names no structure: {classical_why}"));
        (
            classical
                .iter()
                .map(|d| d.to_string())
                .filter(|d| names.contains(d))
                .collect(),
            true,
        )
    }
}

/// The seed bases in the order a run visits them: those given with `--base`, else those the goal
/// names, else the classical structures; each followed by the seeds sharing their symbols (most
/// of them, for `--base` and the goal's structures: [`with_related`]), and,
/// without `--base` or a structure in the goal, by every other seed, so that every seed family
/// is reached. Discoveries are deepened in slots of their own ([`plan`]).
fn seed_pool(s: &Situation, why: &mut Vec<String>) -> Vec<String> {
    let names: Vec<String> = s
        .bases
        .iter()
        .filter(|b| !b.discovery)
        .map(|b| b.name.clone())
        .collect();
    let (pool, everything) = chosen_structures(
        s,
        why,
        "explore classical ones, then every other seed, in turn",
    );
    let mut pool: Vec<String> = with_related(s, pool, !everything)
        .into_iter()
        .filter(|b| names.contains(b) || s.preferred.contains(b))
        .collect();
    why.push("then structures sharing their symbols".into());
    if everything {
        pool.extend(
            names
                .into_iter()
                .filter(|n| !pool.contains(n))
                .collect::<Vec<_>>(),
        );
    }
    pool
}

/// The plan for this cycle, with its reasons in `strategy`: `plan_narrow` or, when the run asks
/// for it (`agent --breadth wide`), `plan_wide`.
pub fn plan(s: &Situation) -> Plan {
    match s.breadth {
        Breadth::Narrow => plan_narrow(s),
        Breadth::Wide => plan_wide(s),
    }
}

/// Candidates checked per cycle by a narrow plan.
const NARROW_CHECK_TOP: usize = 20;

/// The narrow plan, the default: two bases a cycle (the best discoveries on even cycles, or when
/// the goal does not ask for something new; otherwise the least explored structures of the goal,
/// the `--base` flags or the classical ones), the two least used moves, one or two moves deep,
/// and the best [`NARROW_CHECK_TOP`] candidates checked. A cycle takes about half a minute.
fn plan_narrow(s: &Situation) -> Plan {
    let mut why = Vec::new();
    let names = s.base_names();
    let explored: Vec<&String> = s.history.iter().flat_map(|h| &h.bases).collect();
    let discoveries = best_first(s.bases.iter().filter(|b| b.discovery).collect());
    // Exploit when there are discoveries and this is an even-numbered cycle of the run (or the
    // goal does not ask for novelty); explore otherwise.
    let exploit = !discoveries.is_empty() && (s.run_index.is_multiple_of(2) || !wants_new(s));
    let mut bases: Vec<String> = Vec::new();
    if exploit {
        bases.extend(discoveries.iter().take(2).map(|b| b.name.clone()));
        why.push(format!(
            "exploit: deepen the best discoveries so far ({})",
            bases.join(", ")
        ));
    } else {
        let (pool, _) = chosen_structures(
            s,
            &mut why,
            "explore classical ones in turn, least explored first",
        );
        let pool = with_related(s, pool, false);
        why.push("then structures sharing their symbols".into());
        // Least explored first, then in the pool's order.
        let mut ranked: Vec<(usize, usize, String)> = pool
            .into_iter()
            .enumerate()
            .map(|(i, b)| (explored.iter().filter(|e| **e == &b).count(), i, b))
            .collect();
        ranked.sort();
        bases.extend(ranked.into_iter().take(2).map(|(_, _, b)| b));
    }
    if bases.is_empty() {
        bases.push(names.first().cloned().unwrap_or_default());
    }
    // Moves: rotate through those not yet used, two per exploration.
    let used: Vec<&String> = s.history.iter().flat_map(|h| &h.moves).collect();
    let mut moves: Vec<String> = s.moves.clone();
    moves.sort_by_key(|m| used.iter().filter(|u| **u == m).count());
    let moves: Vec<String> = moves.into_iter().take(2).collect();
    if s.moves.is_empty() {
        why.push("no moves are available, so the bases themselves are checked".into());
    } else {
        why.push(format!("moves {} (least used so far)", moves.join(", ")));
    }
    let depth = if exploit || s.moves.is_empty() {
        1
    } else {
        1 + (s.run_index + 1) % 2
    };
    finish_plan(s, why, &bases, &moves, depth, exploit, NARROW_CHECK_TOP)
}

/// The wide plan (`agent --breadth wide`, the rediscovery benchmark's): every cycle explores
/// several seeds from [`seed_pool`] (least explored in the recent cycles first, then in a
/// rotation that moves on with the cycle's index) and deepens the best
/// discoveries not yet deepened; each exploration applies the [`STRUCTURAL`] moves and one
/// more, in turn. A goal asking for something new gets more seeds and fewer discoveries.
fn plan_wide(s: &Situation) -> Plan {
    let mut why = Vec::new();
    let names = s.base_names();
    let explored: Vec<&String> = s.history.iter().flat_map(|h| &h.bases).collect();
    let times = |b: &String| explored.iter().filter(|e| **e == b).count();
    let wants_new = wants_new(s);
    // Discoveries not deepened in the recent cycles, best first: deepening one again would give
    // the same candidates.
    let discoveries = best_first(
        s.bases
            .iter()
            .filter(|b| b.discovery && times(&b.name) == 0)
            .collect(),
    );
    let deepen: Vec<String> = discoveries
        .iter()
        .take(if wants_new { 1 } else { 2 })
        .map(|b| b.name.clone())
        .collect();
    if !deepen.is_empty() {
        why.push(format!(
            "exploit: deepen the best discoveries not yet deepened ({})",
            deepen.join(", ")
        ));
    }
    let pool = seed_pool(s, &mut why);
    let slots = if wants_new || deepen.len() < 2 {
        SEED_SLOTS
    } else {
        SEED_SLOTS - 1
    };
    // Least explored in the recent cycles first; among equals, a rotation starting further on
    // each cycle, so that a long run goes round the whole pool.
    let offset = (s.run_index as usize).saturating_sub(1) * slots;
    let mut ranked: Vec<(usize, usize, String)> = pool
        .iter()
        .enumerate()
        .map(|(i, b)| {
            (
                times(b),
                (i + pool.len() - offset % pool.len().max(1)) % pool.len().max(1),
                b.clone(),
            )
        })
        .collect();
    ranked.sort();
    let seeds: Vec<String> = ranked.into_iter().take(slots).map(|(_, _, b)| b).collect();
    why.push(format!(
        "this cycle: {} (least explored recently, in rotation)",
        seeds.join(", ")
    ));
    let mut bases: Vec<String> = deepen.into_iter().chain(seeds).collect();
    if bases.is_empty() {
        bases.push(names.first().cloned().unwrap_or_default());
    }
    // Moves: the structural ones every time, and the least used of the others.
    let used: Vec<&String> = s.history.iter().flat_map(|h| &h.moves).collect();
    let mut others: Vec<String> = s
        .moves
        .iter()
        .filter(|m| !STRUCTURAL.contains(&m.as_str()))
        .cloned()
        .collect();
    others.sort_by_key(|m| used.iter().filter(|u| **u == m).count());
    let moves: Vec<String> = s
        .moves
        .iter()
        .filter(|m| STRUCTURAL.contains(&m.as_str()))
        .cloned()
        .chain(others.into_iter().take(1))
        .collect();
    if s.moves.is_empty() {
        why.push("no moves are available, so the bases themselves are checked".into());
    } else {
        why.push(format!(
            "moves {} (the structural moves, and the least used other)",
            moves.join(", ")
        ));
    }
    let exploit = s
        .bases
        .iter()
        .any(|b| b.discovery && bases.contains(&b.name));
    finish_plan(s, why, &bases, &moves, 1, exploit, CHECK_TOP)
}

/// The rest of a plan once its bases and moves are chosen: the sizes to check (6 when deepening
/// a discovery or when the goal asks about spectra, else 5), the open conjectures to retest and
/// the library searches, with the reasons in `why`.
fn finish_plan(
    s: &Situation,
    mut why: Vec<String>,
    bases: &[String],
    moves: &[String],
    depth: u32,
    exploit: bool,
    check_top: usize,
) -> Plan {
    let names = s.base_names();
    let words = goal_words(&s.goal);
    let max_size = if exploit
        || words
            .iter()
            .any(|w| ["spectrum", "spectra", "prime", "size", "sizes"].contains(&w.as_str()))
    {
        6
    } else {
        5
    };
    why.push(format!(
        "check the best {check_top} candidates up to size {max_size}"
    ));
    let prove: Vec<ConjectureProposal> = s
        .open_conjectures
        .iter()
        // A stored statement that does not parse (one a model proposed, say) is not retested.
        .filter(|c| {
            names.contains(&c.theory)
                && searched_up_to(&c.evidence) < max_size + 1
                && s.check_statement(&c.theory, &c.statement).is_ok()
        })
        .take(3)
        .map(|c| ConjectureProposal {
            theory: c.theory.clone(),
            statement: c.statement.clone(),
            rationale: format!(
                "still open ({}); retest up to size {}",
                c.evidence,
                max_size + 1
            ),
        })
        .collect();
    if !prove.is_empty() {
        why.push(format!(
            "retest {} open conjecture(s) at larger sizes",
            prove.len()
        ));
    }
    let explorations = bases
        .iter()
        .map(|b| Exploration {
            bases: vec![b.clone()],
            moves: moves.to_vec(),
            depth,
        })
        .collect();
    // Look up what the library already holds about the bases, to judge novelty.
    let search: Vec<Search> = bases
        .iter()
        .take(2)
        .map(|b| Search {
            query: b.replace('_', " "),
            min_score: None,
        })
        .collect();
    why.push(format!(
        "search the library for {}",
        search
            .iter()
            .map(|q| format!("`{}`", q.query))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Plan {
        strategy: format!("Offline strategist: {}.", why.join("; ")),
        explorations,
        check_top,
        max_size,
        prove,
        search,
    }
}

/// The size up to which an open conjecture's evidence says countermodels were searched.
fn searched_up_to(evidence: &str) -> u32 {
    evidence
        .split("up to size ")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .unwrap_or(0)
}

/// How strongly a checked candidate's spectrum speaks for it when there is no score: the number
/// of sizes above 1 with models, then the number of models.
fn spectrum_signal(c: &Candidate) -> (usize, u128) {
    let sizes = c
        .spectrum
        .iter()
        .filter(|r| r.iso.value > 0 && r.sizes.iter().any(|&n| n > 1))
        .count();
    (sizes, c.spectrum.iter().map(|r| r.iso.value).sum())
}

/// Properties worth conjecturing, as statements: for a binary symbol, commutativity,
/// idempotence and associativity, and for each constant that it is a left or right identity or
/// every square; for a unary symbol, that it is an involution.
fn properties(t: &Theory) -> Vec<(String, String)> {
    if !t.sig.is_single_sorted() {
        return vec![];
    }
    let mut out = Vec::new();
    for f in t.sig.func_ids() {
        let d = t.sig.func_decl(f);
        let app = |a: &str, b: &str| match d.fixity {
            Fixity::Infix { .. } => format!("({a} {} {b})", d.name),
            _ => format!("{}({a}, {b})", d.name),
        };
        match d.args.len() {
            2 => {
                let op = |what: &str| format!("`{}` is {what}", d.name);
                out.push((
                    format!("{} = {}", app("x", "y"), app("y", "x")),
                    op("commutative"),
                ));
                out.push((format!("{} = x", app("x", "x")), op("idempotent")));
                out.push((
                    format!(
                        "{} = {}",
                        app(&app("x", "y"), "z"),
                        app("x", &app("y", "z"))
                    ),
                    op("associative"),
                ));
                // A constant that is an identity or every square for this operation: a loop's
                // divisions (e \ x = x, x / x = e) and exponents (x * x = e) are found so.
                for c in t
                    .sig
                    .func_ids()
                    .map(|c| t.sig.func_decl(c))
                    .filter(|c| c.args.is_empty())
                {
                    out.push((
                        format!("{} = x", app(&c.name, "x")),
                        format!("`{}` is a left identity for `{}`", c.name, d.name),
                    ));
                    out.push((
                        format!("{} = x", app("x", &c.name)),
                        format!("`{}` is a right identity for `{}`", c.name, d.name),
                    ));
                    out.push((
                        format!("{} = {}", app("x", "x"), c.name),
                        format!("every square under `{}` is `{}`", d.name, c.name),
                    ));
                }
            }
            1 => out.push((
                format!("{0}({0}(x)) = x", d.name),
                format!("`{}` is an involution", d.name),
            )),
            _ => {}
        }
    }
    out
}

/// Conjectures about `c`: properties that hold in every model found (at least one of size 2 or
/// more) but are not axioms.
fn conjectures_for(c: &Candidate) -> Vec<ConjectureProposal> {
    let nontrivial = c
        .models
        .iter()
        .filter(|m| m.model.sizes.iter().any(|&n| n > 1))
        .count();
    if nontrivial == 0 {
        return vec![];
    }
    let largest = c
        .spectrum
        .iter()
        .filter(|r| r.iso.value > 0)
        .map(|r| birkhoff_checker::sizes_label(&r.sizes))
        .next_back()
        .unwrap_or_default();
    properties(&c.theory)
        .into_iter()
        .filter_map(|(text, what)| {
            let axiom = statement::parse(&c.theory, &text).ok()?;
            let mut with = c.theory.clone();
            with.axioms.push(axiom.clone().into());
            let already_axiom = with.fingerprint() == c.theory.fingerprint();
            let holds = c
                .models
                .iter()
                .all(|m| eval::holds(&c.theory.sig, &m.model, &axiom));
            // What a named structure of the literature refutes is no conjecture (monoids of
            // exponent 3 are not commutative: the Heisenberg group of order 27). No clock: the
            // search is bounded by the examples, so the decisions stay a function of the situation.
            let refuted = || {
                let never = std::time::Instant::now() + std::time::Duration::from_secs(86_400);
                birkhoff_checker::prover::known::search(&c.theory, &axiom, u32::MAX, never, None)
                    .is_ok_and(|found| found.is_some())
            };
            (holds && !already_axiom && !refuted()).then(|| ConjectureProposal {
                theory: c.name.clone(),
                statement: text,
                rationale: format!(
                    "{what} in all {} models found, up to size {largest}, though no axiom says so",
                    c.models.len()
                ),
            })
        })
        .collect()
}

/// At most this many candidates shown new are kept per cycle, best ranked first: two, or as many
/// as a cycle's decisions may keep ([`crate::schema::MAX_KEEPS`]) in a wide cycle. A wide cycle
/// explores five seeds at once and often shows eight classes new; a class it does not keep is
/// not generated again until the rotation comes back to its seed, so a survey keeps what it has
/// shown new (the rediscovery benchmark, docs/BENCHMARKS.md).
fn keep_at_most(s: &Situation) -> usize {
    match s.breadth {
        Breadth::Narrow => 2,
        Breadth::Wide => crate::schema::MAX_KEEPS,
    }
}

/// The decisions on this cycle's results, with reasons in `analysis`.
pub fn decide(s: &Situation) -> Decisions {
    let mut why = Vec::new();
    let scored = s.candidates.iter().any(|c| c.score.is_some());
    let novel = |c: &&Candidate| {
        c.origin != "base"
            && !s
                .bases
                .iter()
                .any(|b| b.theory.fingerprint() == c.theory.fingerprint())
    };
    let mut ranked: Vec<&Candidate> = s
        .candidates
        .iter()
        .filter(|c| c.checked)
        .filter(novel)
        .filter(|c| spectrum_signal(c).0 > 0)
        .collect();
    let words = goal_words(&s.goal);
    let wishes = spectrum_wishes(&words);
    if scored {
        ranked.retain(|c| c.score.as_ref().is_some_and(|x| x.total >= 0.3));
        let key = |c: &Candidate| {
            c.score.as_ref().map_or(0.0, |x| x.total)
                + wishes.iter().map(|w| w.bonus(c)).sum::<f64>()
        };
        ranked.sort_by(|a, b| key(b).total_cmp(&key(a)).then(a.name.cmp(&b.name)));
        why.push(
            "ranked the new candidates with non-trivial models by score (threshold 0.3)".into(),
        );
        if !wishes.is_empty() {
            why.push(format!(
                "weighted by what the goal asks of the spectrum ({})",
                wishes
                    .iter()
                    .map(|w| w.describe())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    } else {
        ranked.sort_by(|a, b| {
            spectrum_signal(b)
                .cmp(&spectrum_signal(a))
                .then(a.name.cmp(&b.name))
        });
        why.push("no scores are available: ranked the new candidates by their spectra (sizes above 1 with models, then model count)".into());
    }
    // A candidate with its parent's models is its parent in other words, not a discovery.
    let (unchanged, ranked): (Vec<&Candidate>, Vec<&Candidate>) =
        ranked.into_iter().partition(|c| c.same_as_parent.is_some());
    let shown: Vec<String> = unchanged
        .iter()
        .take(5)
        .map(|c| {
            format!(
                "{} ({})",
                c.name,
                c.same_as_parent.as_deref().unwrap_or_default()
            )
        })
        .collect();
    if !shown.is_empty() {
        let more = unchanged.len() - shown.len();
        why.push(format!(
            "rejected as not new: {}{}",
            shown.join("; "),
            if more > 0 {
                format!("; and {more} more with no new models")
            } else {
                String::new()
            }
        ));
    }
    // A discovery must be new for a stated reason: known classes and undecided ones are not kept.
    let (new, ranked): (Vec<&Candidate>, Vec<&Candidate>) = ranked
        .into_iter()
        .partition(|c| matches!(c.standing, Some(Standing::New { .. })));
    let shown: Vec<String> = ranked
        .iter()
        .take(5)
        .map(|c| {
            format!(
                "{} ({})",
                c.name,
                c.standing
                    .as_ref()
                    .map_or("not identified".to_string(), |st| st.describe())
            )
        })
        .collect();
    if !shown.is_empty() {
        let more = ranked.len() - shown.len();
        why.push(format!(
            "not kept, not shown new: {}{}",
            shown.join("; "),
            if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            }
        ));
    }
    // The goal decides what may be kept, not only the order: a class of the structures it names,
    // whose spectrum does what it asks.
    let named = bases_in_goal(s);
    let subjects: Vec<&Theory> = s
        .bases
        .iter()
        .filter(|b| named.contains(&b.name))
        .map(|b| &b.theory)
        .collect();
    let (ranked, aside): (Vec<&Candidate>, Vec<(&Candidate, String)>) =
        new.into_iter()
            .fold((Vec::new(), Vec::new()), |(mut on, mut aside), c| {
                match unmet_goal(c, &subjects, &wishes) {
                    Some(reason) => aside.push((c, reason)),
                    None => on.push(c),
                }
                (on, aside)
            });
    if !aside.is_empty() {
        why.push(format!(
            "set aside {} that the goal does not ask for: {}{}",
            aside.len(),
            aside
                .iter()
                .take(3)
                .map(|(c, reason)| format!("{} ({reason})", c.name))
                .collect::<Vec<_>>()
                .join("; "),
            if aside.len() > 3 { "; ..." } else { "" }
        ));
    }
    let mut keep: Vec<Keep> = Vec::new();
    let mut unnamed = Vec::new();
    for c in ranked.iter().take(keep_at_most(s)) {
        // Two theories under one name would shadow each other: a name a base (a seed or an
        // earlier discovery, of this run or another) or an earlier keep has is taken.
        let taken =
            |n: &str| s.bases.iter().any(|b| b.name == n) || keep.iter().any(|k| k.name == n);
        let Some(crate::naming::Naming { name, title }) = crate::naming::name(c, s, &taken) else {
            unnamed.push(c.name.clone());
            continue;
        };
        // No references: the offline strategist knows no literature; the literature agent's own
        // searches still run for what it keeps.
        keep.push(Keep {
            candidate: c.name.clone(),
            name,
            notes: format!(
                "{title}: origin {}; models at sizes {}; score {}.",
                c.origin,
                c.sizes_with_models().join(","),
                crate::prompt::score_line(&c.score)
            ),
            references: Vec::new(),
        });
    }
    if !unnamed.is_empty() {
        why.push(format!(
            "not kept, since every name that says what it is is taken or too long: {}",
            unnamed.join(", ")
        ));
    }
    if keep.is_empty() {
        why.push("nothing new with non-trivial models: keep nothing".into());
    } else {
        why.push(format!(
            "keep {}",
            keep.iter()
                .map(|k| format!("{} as {}", k.candidate, k.name))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    // Conjecture about the kept candidates first, then the best checked ones.
    let mut sources: Vec<&Candidate> = ranked.iter().take(keep_at_most(s)).copied().collect();
    let first: Vec<String> = sources.iter().map(|c| c.name.clone()).collect();
    sources.extend(
        s.candidates
            .iter()
            .filter(|c| c.checked && !first.contains(&c.name)),
    );
    let conjectures: Vec<ConjectureProposal> = sources
        .iter()
        .flat_map(|c| conjectures_for(c))
        .take(3)
        .collect();
    if conjectures.is_empty() {
        why.push(
            "no property holds in every model found without being an axiom: no conjecture".into(),
        );
    } else {
        why.push(format!(
            "conjecture {} (true in every model found; countermodel search and prover decide)",
            conjectures
                .iter()
                .map(|c| format!("[{}] {}", c.theory, c.statement))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    Decisions {
        analysis: format!("Offline strategist: {}.", why.join("; ")),
        keep,
        conjectures,
    }
}

/// Why the goal does not ask for `c`, or `None` when it may be kept: when the goal names
/// structures (`subjects`, the bases of `bases_in_goal`), `c` must be one of them, having every
/// axiom of one as printed ("semigroups with few models" keeps no magma); and it must meet each
/// spectrum wish the goal states ([`Wish::unmet`]). A wish that cannot be judged (no count to
/// compare) sets nothing aside.
fn unmet_goal(c: &Candidate, subjects: &[&Theory], wishes: &[Wish]) -> Option<String> {
    if !subjects.is_empty() && !subjects.iter().any(|k| crate::naming::is_a(&c.theory, k)) {
        return Some(format!(
            "not {}",
            subjects
                .iter()
                .map(|k| format!("a {}", k.name))
                .collect::<Vec<_>>()
                .join(" or ")
        ));
    }
    wishes.iter().find_map(|w| w.unmet(c))
}

/// What the goal asks of a spectrum, in the words docs/AGENT.md lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wish {
    /// "few models": fewer models rank higher.
    Few,
    /// "many models", "rich": more models rank higher.
    Many,
    /// "even orders": models only at even sizes above 1.
    Even,
    /// "odd orders": models only at odd sizes.
    Odd,
    /// "unique", "a unique model", "one model": at most one model of each size.
    Unique,
}

impl Wish {
    fn describe(self) -> &'static str {
        match self {
            Wish::Few => "few models",
            Wish::Many => "many models",
            Wish::Even => "only even orders",
            Wish::Odd => "only odd orders",
            Wish::Unique => "a unique model per order",
        }
    }

    /// Why `c`'s spectrum does not do what the wish asks, or `None` when it does or cannot be
    /// judged. "Few models" and "many models" compare with the parent `c` came from, at the
    /// largest size above 1 where both counts are exact: few is at most half the parent's
    /// models, many at least half (a law that leaves most models, or a law dropped). The other
    /// wishes read the sizes with models.
    fn unmet(self, c: &Candidate) -> Option<String> {
        let with = sizes_with_models(c);
        let fails = match self {
            Wish::Few | Wish::Many => {
                let (n, own, parent) = against_parent(c)?;
                let few = 2 * own <= parent;
                if (self == Wish::Few) == few {
                    return None;
                }
                return Some(format!(
                    "{}: {own} model(s) of order {n}, its parent {parent}",
                    if few {
                        "not many models"
                    } else {
                        "not few models"
                    }
                ));
            }
            Wish::Even => with.iter().any(|&(n, _)| n % 2 == 1),
            Wish::Odd => with.iter().any(|&(n, _)| n % 2 == 0),
            Wish::Unique => with.iter().any(|&(_, k)| k > 1),
        };
        (fails && !with.is_empty()).then(|| format!("not {}", self.describe()))
    }

    /// Added to a candidate's score when ranking: at most 0.3, so that a wish reorders close
    /// candidates without keeping a poor one.
    fn bonus(self, c: &Candidate) -> f64 {
        let with = sizes_with_models(c);
        let total: f64 = with.iter().map(|(_, k)| (1.0 + *k as f64).ln()).sum();
        let all =
            |f: &dyn Fn(u32, u128) -> bool| !with.is_empty() && with.iter().all(|&(n, k)| f(n, k));
        match self {
            Wish::Few => 0.3 * (-total / 5.0).exp(),
            Wish::Many => 0.3 * (1.0 - (-total / 5.0).exp()),
            Wish::Even => {
                if all(&|n, _| n % 2 == 0) {
                    0.3
                } else {
                    0.0
                }
            }
            Wish::Odd => {
                if all(&|n, _| n % 2 == 1) {
                    0.3
                } else {
                    0.0
                }
            }
            Wish::Unique => {
                if all(&|_, k| k == 1) {
                    0.3
                } else {
                    0.0
                }
            }
        }
    }
}

/// The sizes above 1 with models of a one-sorted candidate, with their counts up to
/// isomorphism.
fn sizes_with_models(c: &Candidate) -> Vec<(u32, u128)> {
    c.spectrum
        .iter()
        .filter(|r| r.sizes.len() == 1 && r.sizes[0] > 1 && r.iso.value > 0)
        .map(|r| (r.sizes[0], r.iso.value))
        .collect()
}

/// The largest size above 1 at which `c`'s count and its parent's are both exact, with the two
/// counts.
fn against_parent(c: &Candidate) -> Option<(u32, u128, u128)> {
    let parent = c.parent_spectrum.as_ref()?;
    c.spectrum
        .iter()
        .filter(|r| r.sizes.len() == 1 && r.sizes[0] > 1 && r.iso.status == Status::Exact)
        .filter_map(|r| {
            let p = parent
                .iter()
                .find(|p| p.sizes == r.sizes && p.iso.status == Status::Exact)?;
            Some((r.sizes[0], r.iso.value, p.iso.value))
        })
        .max_by_key(|&(n, _, _)| n)
}

/// The spectrum wishes the goal's words express.
fn spectrum_wishes(words: &[String]) -> Vec<Wish> {
    let has = |w: &str| words.iter().any(|g| g == w);
    let near = |a: &str, b: &str| words.windows(2).any(|p| p[0] == a && p[1].starts_with(b));
    let mut out = Vec::new();
    if near("few", "model") || has("fewest") || has("sparse") {
        out.push(Wish::Few);
    }
    if near("many", "model") || has("rich") {
        out.push(Wish::Many);
    }
    if near("even", "order") || near("even", "size") {
        out.push(Wish::Even);
    }
    if near("odd", "order") || near("odd", "size") {
        out.push(Wish::Odd);
    }
    if has("unique") || near("one", "model") {
        out.push(Wish::Unique);
    }
    out
}
