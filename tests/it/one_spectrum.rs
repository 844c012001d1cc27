//! One spectrum for one discovery: with two spectrum records of different rows, the paper, the
//! web page, the literature subject and the agent's prompt all show the spectrum
//! `Library::spectrum_of` gives (per size the most informative count), read from what each
//! renders. Each view used to choose by a rule of its own (the latest record, the longest exact
//! prefix, the first or the last record by ID), and each of those shows something else here.

use birkhoff_agent::{
    offline::Offline, Agent, Config, Llm, LlmError, Phase, Request, Silent, Toolbox,
};
use birkhoff_checker::{Count, Status};
use birkhoff_engine::Theory;
use birkhoff_library::record::{Body, SpectrumRec, SpectrumRow, TheoryRec};
use birkhoff_library::Library;
use std::sync::Mutex;

const NAME: &str = "Twirl";
const TEXT: &str =
    "theory Twirl\nfunc * : 2\naxiom idem: x * x = x\naxiom twist: (x * y) * x = y\n";

fn row(n: u32, iso: u128, status: Status) -> SpectrumRow {
    SpectrumRow {
        sizes: vec![n],
        iso: Count { value: iso, status },
        labeled: Count {
            value: iso * 2,
            status,
        },
    }
}

/// A library with the discovery and two spectra of it: one exact to size 3 with a bound at 4,
/// one exact at 1, 2 and 4. Together they are exact to size 4.
fn library(dir: &std::path::Path) -> (Library, String, Theory) {
    let mut lib = Library::open(dir).unwrap();
    let t = Theory::parse(TEXT, "test").unwrap();
    let (rec, _) = lib
        .put(Body::Theory(TheoryRec {
            name: NAME.into(),
            text: t.to_text(),
            fingerprint: t.fingerprint().to_string(),
            origin: "seed".into(),
            parents: vec![],
            discovery: true,
            notes: "kept for the test".into(),
            score: None,
            aliases: vec![],
            presentations: vec![],
        }))
        .unwrap();
    for rows in [
        vec![
            row(1, 1, Status::Exact),
            row(2, 1, Status::Exact),
            row(3, 2, Status::Exact),
            row(4, 5, Status::AtLeast),
        ],
        vec![
            row(1, 1, Status::Exact),
            row(2, 1, Status::Exact),
            row(4, 7, Status::Exact),
        ],
    ] {
        lib.put(Body::Spectrum(SpectrumRec {
            theory_id: rec.id.clone(),
            theory_name: NAME.into(),
            rows,
        }))
        .unwrap();
    }
    (lib, rec.id, t)
}

/// `(size, models up to isomorphism)` pairs, as text.
type Shown = Vec<(String, String)>;

/// The rows of the paper's spectrum table: `n & iso & labeled & status \\`.
fn in_paper(lib: &Library, id: &str) -> Shown {
    let tex = birkhoff_paper::Paper::gather(lib, id).unwrap().to_latex();
    let table = tex
        .split("$n$ & iso & labeled & status")
        .nth(1)
        .and_then(|t| t.split("\\bottomrule").next())
        .unwrap_or_else(|| panic!("no spectrum table in the paper:\n{tex}"));
    table
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('&').map(str::trim).collect();
            (cells.len() == 4).then(|| (cells[0].to_string(), cells[1].to_string()))
        })
        .collect()
}

/// The isomorphism-class points of the spectrum plot on the discovery's page.
fn on_web_page(lib: &Library, id: &str, out: &std::path::Path) -> Shown {
    birkhoff_viewer::write(lib, out).unwrap();
    let html = std::fs::read_to_string(out.join(format!("{id}.html"))).unwrap();
    let attr = |tag: &str, name: &str| {
        tag.split(&format!("{name}=\""))
            .nth(1)
            .and_then(|v| v.split('"').next())
            .map(str::to_string)
    };
    html.split('<')
        .filter(|tag| tag.contains("class=\"point iso"))
        .map(|tag| {
            (
                attr(tag, "data-size").unwrap(),
                attr(tag, "data-count").unwrap(),
            )
        })
        .collect()
}

/// The literature subject's spectrum (exact counts from size 1 on).
fn in_literature_subject(lib: &Library, t: &Theory) -> Shown {
    birkhoff_literature::subject::of_theory_in(lib, t)
        .iso_spectrum
        .iter()
        .enumerate()
        .map(|(i, v)| ((i + 1).to_string(), v.to_string()))
        .collect()
}

/// Records the PLAN prompt and answers as the offline strategist.
struct Recording(Mutex<Option<String>>);

impl Llm for Recording {
    fn describe(&self) -> String {
        "recording".into()
    }
    fn ask(&self, req: &Request) -> Result<String, LlmError> {
        if req.phase == Phase::Plan {
            *self.0.lock().unwrap() = Some(req.prompt.to_string());
        }
        Offline.ask(req)
    }
}

/// The discovery's `spectrum:` line in the agent's PLAN prompt (`1:1 2:1 ...`); the cycle stops
/// once the prompt is written.
fn in_agent_prompt(lib: &mut Library) -> Shown {
    let llm = Recording(Mutex::new(None));
    let agent = Agent {
        llm: &llm,
        offline: false,
        tools: Toolbox::builtin(),
        observer: &Silent,
        interrupted: &|| llm.0.lock().unwrap().is_some(),
    };
    let config = Config {
        goal: "study the discovery".into(),
        cycles: 1,
        bases: vec![],
    };
    let _ = agent.run(lib, &config);
    let prompt = llm
        .0
        .lock()
        .unwrap()
        .clone()
        .expect("the PLAN prompt was written");
    let section = prompt
        .split(&format!("### {NAME} (discovery)"))
        .nth(1)
        .unwrap_or_else(|| panic!("the discovery is not a base:\n{prompt}"));
    let line = section
        .lines()
        .find_map(|l| l.trim().strip_prefix("spectrum: "))
        .unwrap_or_else(|| panic!("no spectrum line for the discovery:\n{section}"));
    line.split("  (")
        .next()
        .unwrap()
        .split(' ')
        .map(|p| {
            let (size, count) = p.split_once(':').unwrap();
            (size.to_string(), count.to_string())
        })
        .collect()
}

#[test]
fn paper_web_page_literature_and_prompt_show_one_spectrum() {
    let dir = tempfile::tempdir().unwrap();
    let (mut lib, id, theory) = library(&dir.path().join("lib"));
    let merged: Shown = lib
        .spectrum_of(&id)
        .unwrap()
        .iter()
        .map(|r| (r.sizes[0].to_string(), r.iso.to_string()))
        .collect();
    let pair = |n: &str, c: &str| (n.to_string(), c.to_string());
    assert_eq!(
        merged,
        [
            pair("1", "1"),
            pair("2", "1"),
            pair("3", "2"),
            pair("4", "7")
        ]
    );
    assert_eq!(in_paper(&lib, &id), merged, "the paper");
    assert_eq!(
        on_web_page(&lib, &id, &dir.path().join("site")),
        merged,
        "the web page"
    );
    assert_eq!(
        in_literature_subject(&lib, &theory),
        merged,
        "the literature subject"
    );
    assert_eq!(in_agent_prompt(&mut lib), merged, "the agent's prompt");
}
