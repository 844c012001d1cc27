//! `birkhoff paper DISCOVERY|--best`: a discovery written up as a LaTeX paper (OUTPUT.tex and
//! references.bib, by `birkhoff_paper`), compiled to OUTPUT.pdf when pdflatex is on `PATH`
//! (docs/PAPER.md). Exit codes: 0 written (and compiled, or pdflatex not installed, or
//! `--no-compile`), 1 written but the compile failed (each LaTeX error printed with its line),
//! 2 an unknown discovery or a bad flag.

use super::library::LibraryArg;
use crate::output::print_json;
use crate::Outcome;
use birkhoff_paper::{Compile, Compiled, Paper, Tried};
use serde_json::json;
use std::path::PathBuf;

// Arguments of `birkhoff paper`.
#[derive(clap::Args)]
pub struct Args {
    /// The discovery: its name, an alias, or its record ID (as `library search` and
    /// `report --top` list them).
    #[arg(
        value_name = "DISCOVERY",
        required_unless_present = "best",
        conflicts_with = "best"
    )]
    discovery: Option<String>,
    /// The best-scored discovery instead: the first that `report --top` lists.
    #[arg(long)]
    best: bool,
    /// The directory to write into (created if missing). Default: the library's
    /// `papers/<name>/`.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Write OUTPUT.tex and references.bib only, without running pdflatex.
    #[arg(long)]
    no_compile: bool,
    #[command(flatten)]
    library: LibraryArg,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let mut lib = a.library.open()?;
    let discovery = match a.discovery {
        Some(d) => d,
        None => birkhoff_paper::best_discovery(&lib)?.ok_or_else(|| {
            anyhow::anyhow!(
                "--best: the library {} has no discovery yet (run `birkhoff agent` first)",
                lib.root().display()
            )
        })?,
    };
    // A conjecture is called open only after a short try at refuting it.
    let trial = birkhoff_paper::Trial {
        cancel: Some(crate::interrupt::flag()),
        ..birkhoff_paper::Trial::default()
    };
    let tried = birkhoff_paper::try_open_conjectures(&mut lib, &discovery, &trial)?;
    if !json {
        for t in &tried {
            if let Tried::Refuted {
                statement,
                sizes,
                in_hand,
            } = t
            {
                let how = if *in_hand {
                    "a stored model"
                } else {
                    "a countermodel search"
                };
                eprintln!(
                    "refuted before writing: {statement} (a countermodel of size {}, from {how})",
                    birkhoff_checker::sizes_label(sizes)
                );
            }
        }
    }
    // What the small models are made of: the structure statements true in all of them, each
    // settled by the prover and stored, so that the paper can state the proved ones as theorems.
    let study = birkhoff_paper::Study {
        cancel: Some(crate::interrupt::flag()),
        ..birkhoff_paper::Study::default()
    };
    let studied = birkhoff_paper::study_structure(&mut lib, &discovery, &study)?;
    if !json && !studied.is_empty() {
        let proved = studied
            .iter()
            .filter(|c| c.status == birkhoff_library::ConjectureStatus::Proved)
            .count();
        eprintln!(
            "structure: {} statements true in every small model, {proved} proved",
            studied.len()
        );
    }
    // Where it sits among known classes: each inclusion proved or refuted, stored with its
    // evidence, so that the paper and the web site draw the same diagram.
    let placed = birkhoff_paper::place_discovery(&mut lib, &discovery, &study)?;
    if !json {
        if let Some(p) = &placed {
            let hasse = p.hasse();
            eprintln!(
                "placement: compared with {} classes, {} strictly comparable",
                p.neighbours.len(),
                hasse.nodes.len() - 1
            );
        }
    }
    let paper = Paper::gather(&lib, &discovery)?;
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| birkhoff_paper::default_dir(lib.root(), &paper));
    let outcome = paper
        .write(
            &dir,
            if a.no_compile {
                Compile::No
            } else {
                Compile::IfInstalled
            },
        )
        .map_err(|e| anyhow::anyhow!("--out {}: {e}", dir.display()))?;
    let (status, pdf, errors) = match &outcome.compiled {
        Compiled::NotAsked => ("not compiled (--no-compile)", None, Vec::new()),
        Compiled::NoPdflatex => ("not compiled: pdflatex is not installed (Debian: texlive-latex-base texlive-latex-recommended texlive-pictures)", None, Vec::new()),
        Compiled::Pdf(p) => ("compiled", Some(p.clone()), Vec::new()),
        Compiled::Failed(errors) => ("LaTeX errors", None, errors.clone()),
    };
    if json {
        print_json(&json!({
            "discovery": paper.record.name,
            "id": paper.id,
            "tex": outcome.tex.display().to_string(),
            "bib": outcome.bib.display().to_string(),
            "pdf": pdf.as_ref().map(|p| p.display().to_string()),
            "compiled": status,
            "errors": errors,
            "theorems": paper.theorems.len(),
            "structure_statements": studied.len(),
            "refuted_before_writing": tried.iter().filter_map(|t| match t {
                Tried::Refuted { statement, .. } => Some(statement.clone()),
                Tried::StillOpen { .. } => None,
            }).collect::<Vec<_>>(),
            "references": paper.references.iter().map(|r| r.number.clone()).collect::<Vec<_>>(),
        }));
    } else {
        println!("{}", outcome.tex.display());
        println!("{}", outcome.bib.display());
        match &pdf {
            Some(p) => println!("{}", p.display()),
            None => eprintln!("{status}"),
        }
        for e in &errors {
            eprintln!("{}:{e}", outcome.tex.display());
        }
    }
    Ok(if errors.is_empty() {
        Outcome::Done
    } else {
        Outcome::Negative
    })
}
