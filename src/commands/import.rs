//! `birkhoff import`: a TPTP or LADR file (or a `.bk` one), recognised by its content, printed in
//! Birkhoff's format.

use crate::output::print_json;
use crate::Outcome;
use birkhoff_engine::interop;
use birkhoff_engine::print::FormulaPrinter;
use serde_json::json;
use std::path::PathBuf;

// Arguments of `birkhoff import`.
#[derive(clap::Args)]
#[command(
    after_help = "The format is told by the content: TPTP (fof, tff, cnf), LADR (formulas(...) lists) or Birkhoff's own.\nA TPTP conjecture or LADR goal is kept as `meta conjecture`, which `birkhoff prove FILE` proves when no goal is given."
)]
pub struct Args {
    /// The file to read.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let src = super::read_file(&a.file)?;
    let imported = interop::import(&src, &a.file.display().to_string())?;
    let t = &imported.theory;
    if json {
        let conjectures: Vec<_> = imported.conjectures.iter().map(|c| json!({ "name": c.name, "formula": FormulaPrinter::new(&t.sig, c).formula(&c.formula) })).collect();
        let sorts: Vec<&str> = t.sig.sorts.iter().map(|s| s.name.as_str()).collect();
        print_json(&json!({
            "file": a.file,
            "format": imported.format,
            "theory": t.name,
            "sorts": sorts,
            "symbols": super::seeds::signature_summary(t),
            "axioms": t.axioms.len(),
            "conjectures": conjectures,
            "text": t.to_text(),
        }));
    } else {
        print!("{}", t.to_text());
    }
    Ok(Outcome::Done)
}
