//! Where a theory sits among known classes, as stored (issue 51): each class it was compared with,
//! both inclusions with their evidence (a replayed certificate per axiom, or a countermodel), and
//! the proved inclusions between those classes. The paper and the web site draw the Hasse diagram
//! from this record; `backtest` replays every certificate and evaluates every countermodel in it,
//! so a line of the diagram is never drawn on a claim the library cannot check again.

use birkhoff_checker::prover::certificate::{check, Certificate};
use birkhoff_checker::prover::placement::{goals, AxiomProof, Direction, Refutation};
use birkhoff_engine::fingerprint::canonical_axiom;
use birkhoff_engine::moves::transfer::{carried, SymbolMap};
use birkhoff_engine::{eval, Structure, Theory};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeSet;

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
    /// Classes over fewer or other symbols that a reduct of the theory was compared with: its
    /// `+` read as a group's `*`, say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reducts: Vec<ReductRec>,
    /// Proved inclusions between two reducts' classes, both read over the theory's symbols
    /// ([`ReductRec::carried`]; `lower` and `upper` are indices into `reducts`): `lower`'s axioms
    /// prove each of `upper`'s, so stating `lower` says `upper` too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reducts_between: Vec<BetweenRec>,
}

/// Whether the theory's reduct along a map of symbols lies in a class over other symbols: for a
/// ring, whether `(R, +, -, 0)` is an abelian group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReductRec {
    /// The class's name (a catalogue entry or a discovery).
    pub name: String,
    /// Its theory in Birkhoff's format: with the map, what the evidence is checked against.
    pub text: String,
    /// Each of the class's symbols and the theory's symbol it is read as.
    pub map: SymbolMap,
    /// Whether the theory implies the class's axioms carried along the map.
    pub implies: InclusionRec,
}

impl ReductRec {
    /// The class's axioms carried along the map, as a theory over `theory`'s symbols: what
    /// [`ReductRec::implies`] is about.
    pub fn carried(&self, theory: &Theory) -> Result<Theory, String> {
        let class = Theory::parse(&self.text, &self.name)
            .map_err(|e| format!("reduct class {} does not parse: {e}", self.name))?;
        self.carried_from(&class, theory)
    }

    /// [`ReductRec::carried`] for the class already parsed from [`ReductRec::text`].
    pub fn carried_from(&self, class: &Theory, theory: &Theory) -> Result<Theory, String> {
        let axioms = carried(class, theory, &self.map).ok_or_else(|| {
            format!(
                "{} does not map into {} along {:?}",
                self.name, theory.name, self.map
            )
        })?;
        Ok(Theory {
            name: class.name.clone(),
            doc: String::new(),
            meta: Default::default(),
            sig: theory.sig.clone(),
            axioms: axioms.into_iter().map(std::sync::Arc::new).collect(),
        })
    }

    /// The map as people write it: `* ↦ +, e ↦ 0`.
    pub fn map_text(&self) -> String {
        self.map
            .iter()
            .map(|(from, to)| format!("{from} ↦ {to}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
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

/// A proved inclusion between two neighbours (or two reducts, in
/// [`PlacementRec::reducts_between`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BetweenRec {
    /// The smaller class (an index into the neighbours, or the reducts).
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

    /// The proved reducts worth stating (`theory` is the record's theory): every proved one but
    /// those another proved one gives: because its carried axioms include theirs, by the
    /// catalogue's stated implications (`meta implies`, followed through) along the same map, or
    /// by a proved inclusion ([`PlacementRec::reducts_between`]), so that a ring's `+` is said to
    /// be an abelian group, not also a group and a monoid. Of two that give each other, the first
    /// is stated.
    pub fn strongest_reducts(&self, theory: &Theory) -> Vec<&ReductRec> {
        strongest(&self.reducts, &self.reducts_between, theory)
            .into_iter()
            .map(|i| &self.reducts[i])
            .collect()
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
        for r in &self.reducts {
            let class = r.carried(theory)?;
            r.implies.check(theory, &class).map_err(|e| {
                format!(
                    "{} inside {} along {}: {e}",
                    theory.name,
                    r.name,
                    r.map_text()
                )
            })?;
        }
        for b in &self.between {
            let (Some(lower), Some(upper)) = (parsed.get(b.lower), parsed.get(b.upper)) else {
                return Err(format!("no neighbours {} and {}", b.lower, b.upper));
            };
            check_proofs(lower, upper, &b.proofs)
                .map_err(|e| format!("{} inside {}: {e}", lower.name, upper.name))?;
        }
        for b in &self.reducts_between {
            let (Some(lower), Some(upper)) = (self.reducts.get(b.lower), self.reducts.get(b.upper))
            else {
                return Err(format!("no reducts {} and {}", b.lower, b.upper));
            };
            check_proofs(&lower.carried(theory)?, &upper.carried(theory)?, &b.proofs).map_err(
                |e| {
                    format!(
                        "{} along {} inside {} along {}: {e}",
                        lower.name,
                        lower.map_text(),
                        upper.name,
                        upper.map_text()
                    )
                },
            )?;
        }
        Ok(())
    }
}

/// The indices of [`PlacementRec::strongest_reducts`] among `reducts`, with the proved
/// inclusions `between` them.
pub fn strongest(reducts: &[ReductRec], between: &[BetweenRec], theory: &Theory) -> Vec<usize> {
    let proved: Vec<usize> = (0..reducts.len())
        .filter(|&i| reducts[i].implies.proved())
        .collect();
    let stated = |name: &str| -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        let mut todo = vec![name.to_string()];
        while let Some(n) = todo.pop() {
            let Some(info) = birkhoff_engine::catalogue::entry(&n)
                .and_then(|e| birkhoff_engine::catalogue::info(&e).ok())
            else {
                continue;
            };
            for i in info.implies {
                if !seen.contains(&i.target) {
                    seen.push(i.target.clone());
                    todo.push(i.target);
                }
            }
        }
        seen
    };
    let axioms = |r: &ReductRec| -> BTreeSet<String> {
        r.carried(theory)
            .map(|t| t.axioms.iter().map(|a| canonical_axiom(&t, a)).collect())
            .unwrap_or_default()
    };
    let facts: Vec<(Vec<String>, BTreeSet<String>)> = proved
        .iter()
        .map(|&i| (stated(&reducts[i].name), axioms(&reducts[i])))
        .collect();
    let inside = |lower: usize, upper: usize| {
        between
            .iter()
            .any(|b| b.lower == proved[lower] && b.upper == proved[upper])
    };
    // Whether the j-th proved reduct gives the i-th (and is stated in its place).
    let gives = |j: usize, i: usize| {
        let (r, s) = (&reducts[proved[i]], &reducts[proved[j]]);
        let along = r.map.iter().all(|(k, v)| s.map.get(k) == Some(v));
        let includes =
            facts[j].1.is_superset(&facts[i].1) && (facts[j].1.len() > facts[i].1.len() || j < i);
        let catalogue = along && s.name != r.name && facts[j].0.contains(&r.name);
        let proof = inside(j, i) && (!inside(i, j) || j < i);
        j != i && (includes || catalogue || proof)
    };
    (0..proved.len())
        .filter(|&i| !(0..proved.len()).any(|j| gives(j, i)))
        .map(|i| proved[i])
        .collect()
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
            reducts: Vec::new(),
            reducts_between: Vec::new(),
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
            reducts: Vec::new(),
            reducts_between: Vec::new(),
        };
        let theory = Theory::parse("theory T\nfunc * : 2\n", "t.bk").unwrap();
        let note = crate::cycle::PlacementNote::of(&p, &theory);
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

    /// A ring's `+` read as a group's `*`: the carried axioms are the ring's additive ones, and
    /// of the group, abelian group and monoid proved along it only the abelian group is stated;
    /// a map that does not fit is an error, not a vacuous reduct.
    #[test]
    fn reducts_carry_the_class_along_the_map_and_the_strongest_are_stated() {
        let ring = birkhoff_engine::catalogue::load("ring").unwrap();
        let reduct = |name: &str, symbols: &[(&str, &str)]| ReductRec {
            name: name.into(),
            text: birkhoff_engine::catalogue::entry(name)
                .unwrap()
                .source
                .to_string(),
            map: symbols
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            implies: proved(),
        };
        let additive = [("*", "+"), ("inv", "neg"), ("e", "r0")];
        let group = reduct("group", &additive);
        let carried = group.carried(&ring).unwrap();
        assert_eq!(carried.axioms.len(), 5);
        assert!(goals(&ring, &carried)
            .iter()
            .any(|(_, text, _)| text == "neg(x) + x = r0"));
        assert_eq!(group.map_text(), "* ↦ +, e ↦ r0, inv ↦ neg");
        let bad = reduct("group", &[("*", "neg"), ("inv", "+"), ("e", "r0")]);
        assert!(bad.carried(&ring).is_err());

        let mut p = PlacementRec {
            theory_id: "thy-0".into(),
            theory_name: "Ring".into(),
            neighbours: Vec::new(),
            between: Vec::new(),
            not_reached: 0,
            reducts: vec![
                reduct("monoid", &[("*", "+"), ("e", "r0")]),
                group,
                reduct("abelian_group", &additive),
                reduct("semigroup", &[("*", "*")]),
            ],
            reducts_between: Vec::new(),
        };
        let names = |p: &PlacementRec| -> Vec<String> {
            p.strongest_reducts(&ring)
                .iter()
                .map(|r| format!("{} along {}", r.name, r.map_text()))
                .collect()
        };
        assert_eq!(
            names(&p),
            [
                "abelian_group along * ↦ +, e ↦ r0, inv ↦ neg",
                "semigroup along * ↦ *"
            ]
        );
        // A stored proof between two stated reducts leaves the one that gives the other (made up
        // here: the abelian group along + giving the semigroup along *); with proofs both ways,
        // the first.
        let inside = |lower: usize, upper: usize| BetweenRec {
            lower,
            upper,
            proofs: Vec::new(),
        };
        p.reducts_between.push(inside(2, 3));
        assert_eq!(names(&p), ["abelian_group along * ↦ +, e ↦ r0, inv ↦ neg"]);
        p.reducts_between.push(inside(3, 2));
        assert_eq!(names(&p), ["abelian_group along * ↦ +, e ↦ r0, inv ↦ neg"]);
        p.reducts_between.clear();
        // Unproved, the abelian group gives way to the group.
        p.reducts[2].implies = InclusionRec::Unknown;
        assert_eq!(names(&p)[0], "group along * ↦ +, e ↦ r0, inv ↦ neg");
    }
}
