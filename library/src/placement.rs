//! Where a theory sits among known classes, as stored (issue 51): each class it was compared with,
//! both inclusions with their evidence (a replayed certificate per axiom, or a countermodel), and
//! the proved inclusions between those classes. The paper and the web site draw the Hasse diagram
//! from this record; `backtest` replays every certificate and evaluates every countermodel in it,
//! so a line of the diagram is never drawn on a claim the library cannot check again.

use birkhoff_checker::prover::certificate::{check, Certificate};
use birkhoff_checker::prover::placement::{goals, AxiomProof, Direction, Refutation};
use birkhoff_engine::{eval, Structure, Theory};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The placement record of one theory. Its ID depends on the theory alone, so placing it again
/// replaces the record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementRec {
    /// The theory's record ID.
    pub theory_id: String,
    /// The theory's name, for people.
    pub theory_name: String,
    /// Every class compared, in the order compared.
    pub neighbours: Vec<NeighbourRec>,
    /// Proved inclusions between two neighbours on the same side of the theory (`lower` inside
    /// `upper`, indices into `neighbours`), asked only where they could give a cover.
    #[serde(default)]
    pub between: Vec<BetweenRec>,
    /// Classes with the same symbols not compared for lack of time.
    #[serde(default)]
    pub not_reached: usize,
}

/// One class compared with the theory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NeighbourRec {
    /// Its name (a catalogue entry or a discovery).
    pub name: String,
    /// Its theory in Birkhoff's format: the evidence is checked against it.
    pub text: String,
    /// Whether the theory's class lies inside this one.
    pub implies: InclusionRec,
    /// Whether this class lies inside the theory's.
    pub implied_by: InclusionRec,
}

/// A proved inclusion between two neighbours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BetweenRec {
    /// The smaller class (an index into the neighbours).
    pub lower: usize,
    /// The larger class.
    pub upper: usize,
    /// One proof per axiom of the larger class.
    pub proofs: Vec<AxiomProofRec>,
}

/// What is known of one inclusion, with its evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum InclusionRec {
    /// Every axiom of the larger class proved from the smaller's.
    Proved {
        /// One per axiom, in the larger class's order.
        proofs: Vec<AxiomProofRec>,
    },
    /// A model of the smaller class violating an axiom of the larger.
    Refuted {
        /// The axiom's name.
        axiom: String,
        /// The axiom over the smaller class's signature.
        statement: String,
        /// The model as the engine's JSON (`Structure::to_json`).
        model: Value,
    },
    /// Neither within the time.
    Unknown,
}

/// One axiom proved, with its certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AxiomProofRec {
    /// The axiom over the smaller class's signature.
    pub statement: String,
    /// The certificate, replayed by `backtest`.
    pub certificate: Value,
}

impl AxiomProofRec {
    fn of(p: &AxiomProof) -> AxiomProofRec {
        AxiomProofRec {
            statement: p.statement.clone(),
            certificate: serde_json::to_value(&p.certificate).expect("certificates serialize"),
        }
    }

    /// Each proof of `proofs` as stored.
    pub fn all(proofs: &[AxiomProof]) -> Vec<AxiomProofRec> {
        proofs.iter().map(AxiomProofRec::of).collect()
    }
}

impl InclusionRec {
    /// The prover's evidence as stored; `smaller` is the theory whose model a refutation is.
    pub fn of(d: &Direction, smaller: &Theory) -> InclusionRec {
        match d {
            Direction::Proved(proofs) => InclusionRec::Proved {
                proofs: AxiomProofRec::all(proofs),
            },
            Direction::Refuted(Refutation {
                axiom,
                statement,
                model,
            }) => InclusionRec::Refuted {
                axiom: axiom.clone(),
                statement: statement.clone(),
                model: model.to_json(&smaller.sig),
            },
            Direction::Unknown => InclusionRec::Unknown,
        }
    }

    /// Proved.
    pub fn proved(&self) -> bool {
        matches!(self, InclusionRec::Proved { .. })
    }

    /// Refuted.
    pub fn refuted(&self) -> bool {
        matches!(self, InclusionRec::Refuted { .. })
    }

    /// The refuting model's sizes, from its JSON (empty unless refuted).
    pub fn model_sizes(&self) -> Vec<u32> {
        match self {
            InclusionRec::Refuted { model, .. } => model
                .get("sizes")
                .and_then(Value::as_object)
                .map(|m| {
                    m.values()
                        .filter_map(|v| v.as_u64().map(|n| n as u32))
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Checks the evidence again: `smaller ⊆ larger` proved means a certificate replayed for
    /// each of `larger`'s axioms, refuted a model of `smaller` that violates the statement.
    pub fn check(&self, smaller: &Theory, larger: &Theory) -> Result<(), String> {
        match self {
            InclusionRec::Proved { proofs } => check_proofs(smaller, larger, proofs),
            InclusionRec::Refuted {
                statement, model, ..
            } => {
                let goal = crate::statement::parse(smaller, statement)?;
                let s = Structure::from_json(&smaller.sig, model)
                    .map_err(|e| format!("not a structure for {}: {e}", smaller.name))?;
                eval::check(smaller, &s)
                    .map_err(|v| format!("not a model of {}: {v}", smaller.name))?;
                if eval::holds(&smaller.sig, &s, &goal) {
                    return Err(format!("the countermodel satisfies `{statement}`"));
                }
                // The statement must be one of the larger class's axioms, else the model shows
                // nothing about the inclusion.
                if !goals(smaller, larger)
                    .iter()
                    .any(|(_, text, _)| text == statement)
                {
                    return Err(format!("`{statement}` is not an axiom of {}", larger.name));
                }
                Ok(())
            }
            InclusionRec::Unknown => Ok(()),
        }
    }
}

/// Replays one certificate per axiom of `larger`, each against that axiom read over `smaller`.
fn check_proofs(smaller: &Theory, larger: &Theory, proofs: &[AxiomProofRec]) -> Result<(), String> {
    let axioms = goals(smaller, larger);
    if axioms.len() != proofs.len() {
        return Err(format!(
            "{} proofs for the {} axioms of {}",
            proofs.len(),
            axioms.len(),
            larger.name
        ));
    }
    for ((_, text, _), p) in axioms.iter().zip(proofs) {
        if *text != p.statement {
            return Err(format!(
                "a proof of `{}` where `{text}` is due",
                p.statement
            ));
        }
        let goal = crate::statement::parse(smaller, &p.statement)?;
        let certificate: Certificate = serde_json::from_value(p.certificate.clone())
            .map_err(|e| format!("not a certificate: {e}"))?;
        check(smaller, &goal, &certificate)
            .map_err(|r| format!("certificate of `{}` rejected: {r:?}", p.statement))?;
    }
    Ok(())
}

/// How a neighbour's class relates to the theory's, as far as the evidence shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// Each implies the other.
    Same,
    /// The neighbour's class strictly contains the theory's.
    Above,
    /// The neighbour's class lies strictly inside the theory's.
    Below,
    /// A model of each violates an axiom of the other.
    Incomparable,
    /// Not decided within the time (some direction neither proved nor refuted).
    Undecided,
}

impl NeighbourRec {
    /// The relation the evidence shows.
    pub fn relation(&self) -> Relation {
        if self.same() {
            Relation::Same
        } else if self.above() {
            Relation::Above
        } else if self.below() {
            Relation::Below
        } else if self.implies.refuted() && self.implied_by.refuted() {
            Relation::Incomparable
        } else {
            Relation::Undecided
        }
    }

    /// The neighbour's class strictly contains the theory's.
    pub fn above(&self) -> bool {
        self.implies.proved() && self.implied_by.refuted()
    }

    /// The neighbour's class is strictly inside the theory's.
    pub fn below(&self) -> bool {
        self.implied_by.proved() && self.implies.refuted()
    }

    /// The same class (each implies the other).
    pub fn same(&self) -> bool {
        self.implies.proved() && self.implied_by.proved()
    }
}

/// A Hasse diagram: nodes by name, the theory first, and the covers (lower, upper) between them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hasse {
    /// The theory, then each neighbour strictly above or below it, in the order compared.
    pub nodes: Vec<String>,
    /// Each cover relation, proved: an edge from a class to each smallest class strictly
    /// containing it.
    pub covers: Vec<(usize, usize)>,
}

impl Hasse {
    /// Each node's level: the longest chain of covers below it (0 for a minimal class), so that
    /// a drawing puts larger classes higher.
    pub fn levels(&self) -> Vec<usize> {
        let mut level = vec![0usize; self.nodes.len()];
        for _ in 0..self.nodes.len() {
            for &(lo, hi) in &self.covers {
                level[hi] = level[hi].max(level[lo] + 1);
            }
        }
        level
    }
}

impl PlacementRec {
    /// What a placement's ID is derived from: its theory alone.
    pub fn material(theory_id: &str) -> String {
        format!("placement\n{theory_id}")
    }

    /// The record ID of the placement of the theory `theory_id`.
    pub fn id_for(theory_id: &str) -> String {
        crate::id::derive("plc", &PlacementRec::material(theory_id))
    }

    /// The Hasse diagram of the theory and its strictly comparable neighbours. Between two
    /// neighbours on the same side, the order is a stored proof ([`PlacementRec::between`]) whose
    /// converse is not proved; one not proved is not drawn, so the diagram never shows a
    /// containment that was not proved, but may miss one.
    pub fn hasse(&self) -> Hasse {
        let drawn: Vec<usize> = (0..self.neighbours.len())
            .filter(|&k| self.neighbours[k].above() || self.neighbours[k].below())
            .collect();
        let n = drawn.len() + 1;
        let at = |k: usize| drawn.iter().position(|&d| d == k).map(|p| p + 1);
        // below[i][j]: class i strictly inside class j.
        let mut below = vec![vec![false; n]; n];
        for (p, &k) in drawn.iter().enumerate() {
            below[0][p + 1] = self.neighbours[k].above();
            below[p + 1][0] = self.neighbours[k].below();
        }
        let proved =
            |lo: usize, hi: usize| self.between.iter().any(|b| b.lower == lo && b.upper == hi);
        for &i in &drawn {
            for &j in &drawn {
                let (Some(a), Some(b)) = (at(i), at(j)) else {
                    continue;
                };
                // Through the theory the order is known; otherwise it was asked of the prover.
                if i != j && ((below[a][0] && below[0][b]) || (proved(i, j) && !proved(j, i))) {
                    below[a][b] = true;
                }
            }
        }
        let mut covers = Vec::new();
        for i in 0..n {
            for j in 0..n {
                if below[i][j] && !(0..n).any(|k| below[i][k] && below[k][j]) {
                    covers.push((i, j));
                }
            }
        }
        let mut nodes = vec![self.theory_name.clone()];
        nodes.extend(drawn.iter().map(|&k| self.neighbours[k].name.clone()));
        Hasse { nodes, covers }
    }

    /// Checks every piece of evidence again against `theory` (the record's theory) and each
    /// neighbour's text.
    pub fn check(&self, theory: &Theory) -> Result<(), String> {
        let parsed: Vec<Theory> = self
            .neighbours
            .iter()
            .map(|n| {
                Theory::parse(&n.text, &n.name)
                    .map_err(|e| format!("neighbour {} does not parse: {e}", n.name))
            })
            .collect::<Result<_, _>>()?;
        for (n, other) in self.neighbours.iter().zip(&parsed) {
            n.implies
                .check(theory, other)
                .map_err(|e| format!("{} inside {}: {e}", theory.name, n.name))?;
            n.implied_by
                .check(other, theory)
                .map_err(|e| format!("{} inside {}: {e}", n.name, theory.name))?;
        }
        for b in &self.between {
            let (Some(lower), Some(upper)) = (parsed.get(b.lower), parsed.get(b.upper)) else {
                return Err(format!("no neighbours {} and {}", b.lower, b.upper));
            };
            check_proofs(lower, upper, &b.proofs)
                .map_err(|e| format!("{} inside {}: {e}", lower.name, upper.name))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbour(name: &str, implies: InclusionRec, implied_by: InclusionRec) -> NeighbourRec {
        NeighbourRec {
            name: name.into(),
            text: String::new(),
            implies,
            implied_by,
        }
    }

    fn proved() -> InclusionRec {
        InclusionRec::Proved { proofs: Vec::new() }
    }

    fn refuted() -> InclusionRec {
        InclusionRec::Refuted {
            axiom: "a".into(),
            statement: String::new(),
            model: Value::Null,
        }
    }

    /// A chain T < semigroup < magma, and a band beside it: T is joined to semigroup only, and
    /// semigroup to magma only where that inclusion is stored as proved.
    #[test]
    fn covers_follow_proved_inclusions_only() {
        let mut p = PlacementRec {
            theory_id: "thy-0".into(),
            theory_name: "T".into(),
            neighbours: vec![
                neighbour("magma", proved(), refuted()),
                neighbour("semigroup", proved(), refuted()),
                neighbour("band", refuted(), refuted()),
            ],
            between: Vec::new(),
            not_reached: 0,
        };
        // Without the semigroup ⊆ magma proof both are covers of T.
        let h = p.hasse();
        assert_eq!(h.nodes, ["T", "magma", "semigroup"]);
        assert_eq!(h.covers, [(0, 1), (0, 2)]);
        p.between.push(BetweenRec {
            lower: 1,
            upper: 0,
            proofs: Vec::new(),
        });
        let h = p.hasse();
        assert_eq!(h.covers, [(0, 2), (2, 1)]);
        assert_eq!(h.levels(), [0, 2, 1]);
        let relations: Vec<Relation> = p.neighbours.iter().map(NeighbourRec::relation).collect();
        assert_eq!(
            relations,
            [Relation::Above, Relation::Above, Relation::Incomparable]
        );
    }

    /// The cycle report's note names the nearest classes only: T inside semigroup inside magma
    /// lists semigroup (of two above), the null semigroup below, and counts the rest.
    #[test]
    fn the_cycle_note_names_the_covers_and_counts_the_rest() {
        let p = PlacementRec {
            theory_id: "thy-0".into(),
            theory_name: "T".into(),
            neighbours: vec![
                neighbour("magma", proved(), refuted()),
                neighbour("semigroup", proved(), refuted()),
                neighbour("band", refuted(), refuted()),
                neighbour("null_semigroup", refuted(), proved()),
                neighbour("monoid", InclusionRec::Unknown, refuted()),
            ],
            between: vec![BetweenRec {
                lower: 1,
                upper: 0,
                proofs: Vec::new(),
            }],
            not_reached: 3,
        };
        let note = crate::cycle::PlacementNote::of(&p);
        assert_eq!(note.id, PlacementRec::id_for("thy-0"));
        assert_eq!(note.inside, ["semigroup"]);
        assert_eq!((note.above, note.below), (2, 1));
        assert_eq!(note.contains, ["null_semigroup"]);
        assert_eq!((note.incomparable, note.undecided), (1, 1));
        assert_eq!(
            note.summary(),
            "among 8 classes with its symbols: strictly inside semigroup (nearest of 2 above); \
             strictly contains null_semigroup (nearest of 1 below); incomparable with 1; \
             undecided against 1; 3 not compared in the time"
        );
    }
}
