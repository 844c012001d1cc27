//! The structured replies a language model gives: a [`Plan`] inside `<plan>` tags and
//! [`Decisions`] inside `<decisions>` tags. [`parse_plan`] and [`parse_decisions`] extract and
//! validate them; every error is a message that can be sent back to the model verbatim.

use crate::text::{bound, quote};
pub use crate::tools::MAX_DEPTH;

/// The longest strategy or analysis kept, in characters.
pub const MAX_PROSE: usize = 4000;
/// The longest notes or rationale kept, in characters.
pub const MAX_NOTE: usize = 1000;
/// The longest statement accepted, in characters.
pub const MAX_STATEMENT: usize = 500;
/// The most references one kept discovery may carry.
pub const MAX_REFERENCES: usize = 5;
/// The longest reference title accepted, in characters.
pub const MAX_TITLE: usize = 300;
/// The most authors one reference may list.
pub const MAX_AUTHORS: usize = 20;
/// The longest author name accepted, in characters.
pub const MAX_AUTHOR: usize = 100;
/// The years a reference may carry (as for references written in catalogue entries).
pub const YEARS: std::ops::RangeInclusive<i32> = 1700..=2100;

pub use birkhoff_library::cycle::{
    ConjectureProposal, Decisions, Exploration, Keep, Plan, ProposedReference, Search,
};

/// A proposed reference checked against the schema's limits and the identifiers' forms, with its
/// identifiers normalized; an error the model can act on otherwise. Text with control
/// characters is refused, so that a title can neither drive a terminal nor break the line of
/// a report or LITERATURE.md it is shown on.
pub fn validated_reference(r: &ProposedReference) -> Result<ProposedReference, String> {
    use birkhoff_literature::paper::{
        is_arxiv_id, is_doi, is_zbmath_id, normalize_doi, strip_arxiv_version,
    };
    let text = |what: &str, s: &str, max: usize| {
        let n = s.chars().count();
        if s.trim().is_empty() || n > max || s.chars().any(char::is_control) {
            return Err(format!("the reference {what} `{}` must be 1 to {max} characters without control characters", quote(s)));
        }
        Ok(())
    };
    text("title", &r.title, MAX_TITLE)?;
    if r.authors.is_empty() || r.authors.len() > MAX_AUTHORS {
        return Err(format!(
            "the reference `{}` must list 1 to {MAX_AUTHORS} authors",
            quote(&r.title)
        ));
    }
    for a in &r.authors {
        text("author", a, MAX_AUTHOR)?;
    }
    if let Some(y) = r.year.filter(|y| !YEARS.contains(y)) {
        return Err(format!(
            "the reference `{}` has the year {y}: use {} to {}",
            quote(&r.title),
            YEARS.start(),
            YEARS.end()
        ));
    }
    let arxiv = r.arxiv.as_deref().map(strip_arxiv_version);
    let doi = r.doi.as_deref().map(normalize_doi);
    let zbmath = r.zbmath.as_deref().map(str::trim).map(String::from);
    let bad =
        |what: &str, id: &str, form: &str| Err(format!("`{}` is not {what} ({form})", quote(id)));
    match (&arxiv, &doi, &zbmath) {
            (Some(a), _, _) if !is_arxiv_id(a) => bad("an arXiv identifier", a, "such as 2301.12345 or math/0601001"),
            (_, Some(d), _) if !is_doi(d) => bad("a DOI", d, "such as 10.1000/xyz123"),
            (_, _, Some(z)) if !is_zbmath_id(z) => bad("a zbMATH Open document id", z, "digits, such as 1234567"),
            (None, None, None) => Err(format!("the reference `{}` has no identifier: give `arxiv`, `doi` or `zbmath`, by which it is looked up (one without cannot be verified)", quote(&r.title))),
            _ => Ok(ProposedReference { arxiv, doi, zbmath, ..r.clone() }),
        }
}

/// A proposed reference as a candidate for the literature agent's gate, proposed by the model.
pub fn reference_paper(r: &ProposedReference) -> birkhoff_literature::Paper {
    let mut p = birkhoff_literature::Paper::new(
        &r.title,
        r.authors.clone(),
        r.year,
        birkhoff_literature::Origin::Llm,
    );
    p.ids.arxiv.clone_from(&r.arxiv);
    p.ids.doi.clone_from(&r.doi);
    p.ids.zbmath.clone_from(&r.zbmath);
    p
}

/// What a reply may refer to: the names and limits it is validated against.
pub struct Vocabulary<'a> {
    /// Known base structures.
    pub bases: &'a [String],
    /// Available moves.
    pub moves: &'a [String],
    /// This cycle's candidates (for decisions).
    pub candidates: &'a [String],
    /// Checks a statement about a named theory (that it parses over the theory's signature).
    pub statement: &'a dyn Fn(&str, &str) -> Result<(), String>,
}

/// The JSON between `<tag>` and `</tag>`, or a message saying what is missing.
pub fn extract<'a>(reply: &'a str, tag: &str) -> Result<&'a str, String> {
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    let start = reply.find(&open).ok_or_else(|| {
        format!("the reply has no <{tag}> tag; put the JSON between <{tag}> and </{tag}>")
    })? + open.len();
    let end = reply[start..]
        .find(&close)
        .ok_or_else(|| format!("<{tag}> is not closed by </{tag}>"))?;
    Ok(reply[start..start + end].trim())
}

/// The longest discovery name, in characters: room for a class's stem and the names of the laws
/// it adds and drops (`LoopWithLeftBolAutomorphicInverse`), which are never cut (issue 50 §4).
pub const MAX_NAME: usize = 160;

/// Whether `name` is acceptable as a discovery name.
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.len() <= MAX_NAME
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn known(what: &str, name: &str, list: &[String]) -> Result<(), String> {
    if list.iter().any(|n| n == name) {
        return Ok(());
    }
    let shown: Vec<&str> = list.iter().take(40).map(String::as_str).collect();
    Err(format!(
        "unknown {what} `{}`; known: {}",
        quote(name),
        if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join(", ")
        }
    ))
}

/// Parses and validates a plan.
pub fn parse_plan(reply: &str, v: &Vocabulary) -> Result<Plan, String> {
    let plan: Plan = serde_json::from_str(extract(reply, "plan")?)
        .map_err(|e| format!("the <plan> JSON is invalid: {e}"))?;
    if plan.explorations.is_empty() || plan.explorations.len() > 8 {
        return Err("`explorations` must have 1 to 8 entries".into());
    }
    for e in &plan.explorations {
        if e.bases.is_empty() || e.bases.len() > 4 {
            return Err("each exploration needs 1 to 4 `bases`".into());
        }
        for b in &e.bases {
            known("base structure", b, v.bases)?;
        }
        for m in &e.moves {
            known("move", m, v.moves)?;
        }
        if !(1..=MAX_DEPTH).contains(&e.depth) {
            return Err(format!(
                "`depth` {} is out of range: use 1 to {MAX_DEPTH}",
                e.depth
            ));
        }
    }
    if !(1..=50).contains(&plan.check_top) {
        return Err(format!(
            "`check_top` {} is out of range: use 1 to 50",
            plan.check_top
        ));
    }
    if !(1..=8).contains(&plan.max_size) {
        return Err(format!(
            "`max_size` {} is out of range: use 1 to 8",
            plan.max_size
        ));
    }
    if plan.prove.len() > 10 {
        return Err("at most 10 conjectures in `prove`".into());
    }
    if plan.search.len() > 5
        || plan
            .search
            .iter()
            .any(|q| q.query.len() > 200 || q.min_score.is_some_and(|x| !(0.0..=1.0).contains(&x)))
    {
        return Err(
            "`search`: at most 5 queries of at most 200 characters, `min_score` between 0 and 1"
                .into(),
        );
    }
    for c in &plan.prove {
        known("base structure", &c.theory, v.bases)?;
        statement_length(&c.statement)?;
        (v.statement)(&c.theory, &c.statement)?;
    }
    Ok(plan)
}

/// Most candidates one cycle's decisions may keep.
pub const MAX_KEEPS: usize = 10;

/// Parses and validates decisions; the references of each kept candidate come back with their
/// identifiers normalized (`validated_reference`).
pub fn parse_decisions(reply: &str, v: &Vocabulary) -> Result<Decisions, String> {
    let mut d: Decisions = serde_json::from_str(extract(reply, "decisions")?)
        .map_err(|e| format!("the <decisions> JSON is invalid: {e}"))?;
    if d.keep.len() > MAX_KEEPS || d.conjectures.len() > 10 {
        return Err(format!(
            "at most {MAX_KEEPS} entries each in `keep` and `conjectures`"
        ));
    }
    for k in &mut d.keep {
        if k.references.len() > MAX_REFERENCES {
            return Err(format!(
                "at most {MAX_REFERENCES} `references` per kept candidate"
            ));
        }
        k.references = k
            .references
            .iter()
            .map(validated_reference)
            .collect::<Result<_, _>>()?;
    }
    for k in &d.keep {
        known("candidate", &k.candidate, v.candidates)?;
        if !valid_name(&k.name) {
            return Err(format!("`{}` is not a valid discovery name: use a letter followed by letters, digits or _ (at most {MAX_NAME})", quote(&k.name)));
        }
        if v.bases.contains(&k.name) || d.keep.iter().filter(|o| o.name == k.name).count() > 1 {
            return Err(format!("`{}` is already taken (by a seed, an earlier discovery or another entry of `keep`): choose a new name", k.name));
        }
    }
    let theories: Vec<String> = v.candidates.iter().chain(v.bases).cloned().collect();
    for c in &d.conjectures {
        known("theory", &c.theory, &theories)?;
        statement_length(&c.statement)?;
        (v.statement)(&c.theory, &c.statement)?;
    }
    Ok(d)
}

/// A statement too long to be worth parsing (its parse errors would quote it) is refused.
fn statement_length(statement: &str) -> Result<(), String> {
    let n = statement.chars().count();
    if n > MAX_STATEMENT {
        return Err(format!(
            "the statement `{}` is {n} characters long: at most {MAX_STATEMENT}",
            quote(statement)
        ));
    }
    Ok(())
}

/// A reply whose free-text fields are cut to their limits.
pub trait Bounded {
    /// Cuts every free-text field longer than its limit, and says which were cut.
    fn bound(&mut self) -> Vec<String>;
}

impl Bounded for Plan {
    fn bound(&mut self) -> Vec<String> {
        let mut notes: Vec<String> = bound("strategy", &mut self.strategy, MAX_PROSE)
            .into_iter()
            .collect();
        notes.extend(
            self.prove
                .iter_mut()
                .filter_map(|c| bound("rationale", &mut c.rationale, MAX_NOTE)),
        );
        notes
    }
}

impl Bounded for Decisions {
    fn bound(&mut self) -> Vec<String> {
        let mut notes: Vec<String> = bound("analysis", &mut self.analysis, MAX_PROSE)
            .into_iter()
            .collect();
        notes.extend(
            self.keep
                .iter_mut()
                .filter_map(|k| bound("notes", &mut k.notes, MAX_NOTE)),
        );
        notes.extend(
            self.conjectures
                .iter_mut()
                .filter_map(|c| bound("rationale", &mut c.rationale, MAX_NOTE)),
        );
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab<'a>(b: &'a [String], m: &'a [String], c: &'a [String]) -> Vocabulary<'a> {
        Vocabulary {
            bases: b,
            moves: m,
            candidates: c,
            statement: &|_, st| {
                if st.contains('+') {
                    Err(format!("`{st}` does not parse"))
                } else {
                    Ok(())
                }
            },
        }
    }

    #[test]
    fn plans_are_validated() {
        let (b, m, c) = (vec!["group".to_string()], vec!["DROP".to_string()], vec![]);
        let v = vocab(&b, &m, &c);
        let good = r#"thinking... <plan>{"strategy": "s", "explorations": [{"bases": ["group"], "moves": ["DROP"], "depth": 1}], "check_top": 5, "max_size": 4}</plan>"#;
        assert_eq!(parse_plan(good, &v).unwrap().check_top, 5);
        assert!(
            parse_plan(&good.replace("\"group\"]", "\"../../etc/passwd\"]"), &v)
                .unwrap_err()
                .contains("unknown base structure `../../etc/passwd`")
        );
        assert!(parse_plan(&good.replace("DROP\"]", "FLY\"]"), &v)
            .unwrap_err()
            .contains("unknown move `FLY`"));
        assert!(
            parse_plan(&good.replace("\"depth\": 1", "\"depth\": 9"), &v)
                .unwrap_err()
                .contains("depth")
        );
        // The prompt's limit is the explore tool's: a depth the tool refuses is refused here.
        assert!(parse_plan(
            &good.replace("\"depth\": 1", &format!("\"depth\": {}", MAX_DEPTH + 1)),
            &v
        )
        .unwrap_err()
        .contains("depth"));
        assert!(crate::prompt::system(crate::llm::Phase::Plan)
            .contains(&format!("depth 1-{MAX_DEPTH}")));
        let long = "x".repeat(10_000_000);
        let e = parse_plan(&good.replace("\"group\"]", &format!("\"{long}\"]")), &v).unwrap_err();
        assert!(
            e.len() < 2000 && e.contains("10000000 characters"),
            "{}",
            &e[..200]
        );
        assert!(parse_plan(
            &good.replace("\"check_top\"", "\"extra\": 1, \"check_top\""),
            &v
        )
        .unwrap_err()
        .contains("unknown field"));
        assert!(parse_plan("no tags", &v)
            .unwrap_err()
            .contains("no <plan> tag"));
        assert!(parse_plan("<plan>{not json</plan>", &v)
            .unwrap_err()
            .contains("invalid"));
    }

    #[test]
    fn decisions_are_validated() {
        let (b, m, c) = (
            vec!["group".to_string()],
            vec![],
            vec!["Group_drop(assoc)".to_string()],
        );
        let v = vocab(&b, &m, &c);
        let good = r#"<decisions>{"analysis": "a", "keep": [{"candidate": "Group_drop(assoc)", "name": "Neat", "notes": "n"}], "conjectures": [{"theory": "group", "statement": "x * y = y * x"}]}</decisions>"#;
        assert_eq!(parse_decisions(good, &v).unwrap().keep[0].name, "Neat");
        assert!(
            parse_decisions(&good.replace("\"Neat\"", "\"../../etc/passwd\""), &v)
                .unwrap_err()
                .contains("not a valid discovery name")
        );
        assert!(parse_decisions(&good.replace("\"Neat\"", "\"group\""), &v)
            .unwrap_err()
            .contains("already taken"));
        assert!(parse_decisions(
            &good.replace("\"theory\": \"group\"", "\"theory\": \"Nope\""),
            &v
        )
        .unwrap_err()
        .contains("unknown theory"));
        assert!(
            parse_decisions(&good.replace("x * y = y * x", "x + y = y"), &v)
                .unwrap_err()
                .contains("does not parse")
        );
    }

    #[test]
    fn proposed_references_are_parsed_strictly_and_never_stored() {
        let (b, m, c) = (vec!["group".to_string()], vec![], vec!["Cand".to_string()]);
        let v = vocab(&b, &m, &c);
        let reference = r#"{"title": "Moufang loops of small order", "authors": ["Alice Kernel"], "year": 2021, "arxiv": "2101.00001v2", "doi": "https://doi.org/10.1000/TEST.1"}"#;
        let with = |refs: &str| {
            format!(
                r#"<decisions>{{"analysis": "a", "keep": [{{"candidate": "Cand", "name": "Neat", "references": [{refs}]}}]}}</decisions>"#
            )
        };
        let d = parse_decisions(&with(reference), &v).unwrap();
        let r = &d.keep[0].references[0];
        // Identifiers normalized as the sources give them: no version, the DOI lower-cased.
        assert_eq!(
            (r.arxiv.as_deref(), r.doi.as_deref()),
            (Some("2101.00001"), Some("10.1000/test.1"))
        );
        let p = reference_paper(r);
        assert_eq!(
            (p.origins.as_slice(), p.ids.arxiv.as_deref()),
            (&[birkhoff_literature::Origin::Llm][..], Some("2101.00001"))
        );
        let refused = |from: &str, to: &str| {
            parse_decisions(&with(&reference.replace(from, to)), &v).unwrap_err()
        };
        assert!(refused("2101.00001v2", "../../etc/passwd").contains("not an arXiv identifier"));
        assert!(refused("https://doi.org/10.1000/TEST.1", "10.1000/a b").contains("not a DOI"));
        assert!(refused(
            r#""doi": "https://doi.org/10.1000/TEST.1""#,
            r#""zbmath": "12x""#
        )
        .contains("not a zbMATH Open document id"));
        assert!(refused(
            r#", "arxiv": "2101.00001v2", "doi": "https://doi.org/10.1000/TEST.1""#,
            ""
        )
        .contains("has no identifier"));
        assert!(refused("Moufang loops", "Moufang\\u001b[2J loops")
            .contains("without control characters"));
        assert!(
            refused("Moufang loops of small order", &"M".repeat(MAX_TITLE + 1))
                .contains("1 to 300 characters")
        );
        assert!(refused(r#"["Alice Kernel"]"#, "[]").contains("1 to 20 authors"));
        assert!(refused("2021", "3021").contains("year 3021"));
        assert!(refused("\"year\"", "\"volume\": 1, \"year\"").contains("unknown field"));
        let six = [reference; MAX_REFERENCES + 1].join(", ");
        assert!(parse_decisions(&with(&six), &v)
            .unwrap_err()
            .contains("at most 5 `references`"));
        // Stored decisions (the report's) carry no unverified reference.
        assert!(!serde_json::to_string(&d).unwrap().contains("Moufang"));
        // The prompt states the field and the limits the parser holds the model to.
        let system = crate::prompt::system(crate::llm::Phase::Interpret);
        assert!(
            system.contains("\"references\": [{\"title\"")
                && system.contains(&format!("at most {MAX_REFERENCES} per kept candidate")),
            "{system}"
        );
    }
}
