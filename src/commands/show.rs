//! `birkhoff show`: a theory, printed in Birkhoff's format (which parses back to it).

use crate::output::print_json;
use crate::Outcome;
use birkhoff_engine::print::FormulaPrinter;
use serde_json::json;

// Arguments of `birkhoff show`.
#[derive(clap::Args)]
pub struct Args {
    /// A seed or catalogue name (see `birkhoff seeds`), a theory file (Birkhoff's format, TPTP or
    /// LADR), or a discovery's name or ID (see --library).
    #[arg(value_name = "NAME|FILE")]
    theory: String,
    #[command(flatten)]
    library: super::TheoryLibrary,
}

pub fn run(a: Args, json: bool) -> anyhow::Result<Outcome> {
    let t = a.library.load(&a.theory)?;
    if json {
        let axioms: Vec<_> = t.axioms.iter().map(|ax| json!({ "name": ax.name, "formula": FormulaPrinter::new(&t.sig, ax).formula(&ax.formula) })).collect();
        let sorts: Vec<&str> = t.sig.sorts.iter().map(|s| s.name.as_str()).collect();
        print_json(&json!({
            "name": t.name,
            "doc": t.doc,
            "meta": t.meta,
            "sorts": sorts,
            "symbols": super::seeds::signature_summary(&t),
            "axioms": axioms,
            "fingerprint": t.fingerprint().to_string(),
            "text": t.to_text(),
        }));
    } else {
        print!("{}", t.to_text());
    }
    Ok(Outcome::Done)
}
