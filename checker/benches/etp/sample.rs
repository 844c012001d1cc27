//! Implications between magma laws with their known truth, as drawn by `data/etp_sample.py` from
//! the Equational Theories Project's outcome table: one per line,
//! `i <TAB> j <TAB> true|false <TAB> law i <TAB> law j`, in ETP's syntax (`◇` for the operation).
//! Shared by the `etp` bench and the `etp` test.

use birkhoff_engine::parse::parse_formula;
use birkhoff_engine::syntax::Axiom;
use birkhoff_engine::{seeds, Theory};

/// One implication "law `hypothesis` implies law `goal`" and whether it holds, per ETP.
pub struct Implication {
    /// ETP's equation numbers, `(i, j)` for `Ei ⇒ Ej`.
    pub numbers: (u32, u32),
    /// ETP's verdict.
    pub holds: bool,
    /// The magma theory whose one axiom is law `i`.
    pub theory: Theory,
    /// Law `j`.
    pub goal: Axiom,
}

/// Law text in ETP's syntax, rewritten for Birkhoff's magma seed (`◇` becomes `*`).
fn birkhoff_syntax(law: &str) -> String {
    law.replace('◇', "*")
}

/// Reads a sample file; errors name the line.
pub fn read(path: &std::path::Path) -> Result<Vec<Implication>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let magma = seeds::load("magma").map_err(|e| e.to_string())?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(k, line)| {
            let at = |what: String| format!("{}:{}: {what}", path.display(), k + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            let [i, j, truth, hypothesis, goal] = fields[..] else {
                return Err(at(format!(
                    "expected 5 tab-separated fields, found {}",
                    fields.len()
                )));
            };
            let number = |s: &str| {
                s.parse::<u32>()
                    .map_err(|e| at(format!("equation number {s:?}: {e}")))
            };
            let holds = match truth {
                "true" => true,
                "false" => false,
                other => {
                    return Err(at(format!(
                        "truth value must be true or false, found {other:?}"
                    )))
                }
            };
            let law = |text: &str, name: &str| {
                parse_formula(&magma.sig, &birkhoff_syntax(text), name)
                    .map_err(|e| at(e.to_string()))
            };
            let mut theory = magma.clone();
            theory.name = format!("Magma with E{i}");
            theory
                .axioms
                .push(law(hypothesis, &format!("E{i}"))?.into());
            Ok(Implication {
                numbers: (number(i)?, number(j)?),
                holds,
                theory,
                goal: law(goal, &format!("E{j}"))?,
            })
        })
        .collect()
}

/// Where the committed sample lives.
pub fn default_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/etp_implications.tsv")
}
