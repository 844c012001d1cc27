//! The record types. Each record is one JSON file: `{"id", "created", "kind", ...fields}`. The ID
//! is derived from the fields that identify the record ([`Body::material`]), so the same theory,
//! model or conjecture found twice gets the same ID and the same file.

pub use crate::placement::PlacementRec;
pub use birkhoff_checker::SpectrumRow;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// A stored record: its ID, creation time and content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Content-derived ID such as `thy-0123456789abcdef`.
    pub id: String,
    /// Seconds since the Unix epoch when the record was first written.
    pub created: u64,
    /// The content.
    #[serde(flatten)]
    pub body: Body,
}

/// The content of a record, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Body {
    /// A theory: a seed, a candidate whose models were stored, or a named discovery.
    Theory(TheoryRec),
    /// A model spectrum of a theory.
    Spectrum(SpectrumRec),
    /// One finite model of a theory.
    Model(ModelRec),
    /// A conjecture about a theory and its fate.
    Conjecture(ConjectureRec),
    /// A proof of a conjecture, with the prover's certificate.
    Proof(ProofRec),
    /// Where a theory sits among known classes, with the evidence of each inclusion.
    Placement(PlacementRec),
}

/// Scores of a theory: the weighted total and each dimension.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The total in [0, 1] that ranks: the agent's calibrated interest (docs/SCORING.md).
    pub total: f64,
    /// Each dimension by name.
    pub dims: BTreeMap<String, f64>,
}

/// A theory record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TheoryRec {
    /// Display name (a discovery's chosen name, or the candidate's generated name).
    pub name: String,
    /// The theory in Birkhoff's format; it parses back to the theory.
    pub text: String,
    /// The engine's fingerprint of the theory (the ID is derived from it).
    pub fingerprint: String,
    /// How the theory arose: `seed`, or the moves that produced it.
    pub origin: String,
    /// IDs or names of the theories it came from.
    #[serde(default)]
    pub parents: Vec<String>,
    /// Whether it was added as a discovery (rather than stored as a checked candidate).
    #[serde(default)]
    pub discovery: bool,
    /// Free notes (for a discovery: why it was kept).
    #[serde(default)]
    pub notes: String,
    /// Its score, when one was computed.
    #[serde(default)]
    pub score: Option<Score>,
    /// Later names given to the same theory, oldest first: a record's first name stays, and a
    /// later name is kept here rather than replacing it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Alias>,
    /// Other presentations of the same class, each shown equivalent (or equal up to renaming):
    /// a theory equivalent to a stored one is added here, never as a new discovery. Not part of
    /// what identifies the record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presentations: Vec<Presentation>,
}

/// A later name of a theory already in the library.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alias {
    /// The name.
    pub name: String,
    /// The cycle (report number) that gave it.
    pub cycle: u64,
    /// Why it was given (a discovery's notes).
    #[serde(default)]
    pub notes: String,
}

/// Another presentation of a stored theory's class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Presentation {
    /// The name it came under (a candidate's name).
    pub name: String,
    /// Its text in Birkhoff's format.
    pub text: String,
    /// How it was shown to be the same class.
    pub evidence: String,
}

/// A spectrum record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpectrumRec {
    /// The theory's record ID.
    pub theory_id: String,
    /// The theory's name, for people.
    pub theory_name: String,
    /// The rows, by size: counts only, so that equal spectra get equal IDs.
    pub rows: Vec<SpectrumRow>,
}

/// A model record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelRec {
    /// The theory's record ID.
    pub theory_id: String,
    /// The theory's name, for people.
    pub theory_name: String,
    /// The structure as the engine's JSON (`Structure::to_json`).
    pub structure: Value,
}

/// What became of a conjecture, as the library stores it (`open`, `refuted`, `proved`): the
/// prover's answer ([`birkhoff_checker::prover::Verdict`]) settled by [`crate::settle`], a
/// disproof stored as refuted and anything short of a proof or disproof as open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConjectureStatus {
    /// Neither proved nor refuted.
    Open,
    /// A countermodel, checked by the evaluator, shows it false.
    Refuted,
    /// A prover proved it; the certificate is in a proof record.
    Proved,
}

/// A conjecture record. Its ID depends on the theory and the statement only, so its status can
/// be updated in place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConjectureRec {
    /// The theory's record ID.
    pub theory_id: String,
    /// The theory's name, for people.
    pub theory_name: String,
    /// The statement: a formula in Birkhoff's syntax over the theory's signature.
    pub statement: String,
    /// Its status.
    pub status: ConjectureStatus,
    /// What the status rests on, in words.
    pub evidence: String,
    /// The countermodel's record ID, when refuted.
    #[serde(default)]
    pub countermodel: Option<String>,
    /// The proof's record ID, when proved.
    #[serde(default)]
    pub proof: Option<String>,
    /// Who proposed it (`llm`, `offline`, `structure`, ...).
    pub proposed_by: String,
    /// What the statement says about the models' structure, when a structure survey proposed it
    /// (`birkhoff_checker::survey`): the paper reads these together as a structure theorem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<StructureClaim>,
}

/// A structure statement's meaning (issue 51): its kind, operation and term t(x) (and partner
/// u(x) for a pair), in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StructureClaim {
    /// The kind of statement.
    pub kind: birkhoff_checker::prover::structural::Kind,
    /// The binary operation's symbol.
    pub operation: String,
    /// The term t(x), as printed (empty for a statement about the operation alone).
    pub term: String,
    /// The second term u(x) of a statement about a pair of terms, as printed (empty otherwise).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub partner: String,
    /// The statement in words.
    pub sentence: String,
}

impl StructureClaim {
    /// The claim as the structure theorems read a proved statement.
    pub fn fact(&self) -> birkhoff_checker::prover::structural::Fact {
        birkhoff_checker::prover::structural::Fact {
            partner: self.partner.clone(),
            ..birkhoff_checker::prover::structural::Fact::new(
                self.kind,
                &self.operation,
                &self.term,
            )
        }
    }
}

/// A proof record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProofRec {
    /// The conjecture's record ID.
    pub conjecture_id: String,
    /// The theory's record ID.
    pub theory_id: String,
    /// The statement proved.
    pub statement: String,
    /// The prover that produced the certificate.
    pub prover: String,
    /// The certificate, in the prover's format; the proof checker re-checks it.
    pub certificate: Value,
}

impl Body {
    /// The record kind (`theory`, `model`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Theory(_) => "theory",
            Body::Spectrum(_) => "spectrum",
            Body::Model(_) => "model",
            Body::Conjecture(_) => "conjecture",
            Body::Proof(_) => "proof",
            Body::Placement(_) => "placement",
        }
    }

    /// The identifying content from which the ID is derived.
    pub fn material(&self) -> String {
        match self {
            Body::Theory(t) => format!("theory\n{}", t.fingerprint),
            Body::Spectrum(s) => format!(
                "spectrum\n{}\n{}",
                s.theory_id,
                serde_json::to_string(&s.rows).expect("rows serialize")
            ),
            Body::Model(m) => format!("model\n{}\n{}", m.theory_id, m.structure),
            Body::Conjecture(c) => format!(
                "conjecture\n{}\n{}",
                c.theory_id,
                c.statement.split_whitespace().collect::<Vec<_>>().join(" ")
            ),
            Body::Proof(p) => format!("proof\n{}\n{}", p.conjecture_id, p.certificate),
            Body::Placement(p) => PlacementRec::material(&p.theory_id),
        }
    }

    /// The ID this content gets.
    pub fn id(&self) -> String {
        let prefix = crate::id::KINDS
            .iter()
            .find(|(k, _, _)| *k == self.kind())
            .expect("every kind is listed")
            .1;
        crate::id::derive(prefix, &self.material())
    }

    /// The record ID of the theory this record belongs to (none for a theory).
    pub fn theory_id(&self) -> Option<&str> {
        match self {
            Body::Theory(_) => None,
            Body::Spectrum(s) => Some(&s.theory_id),
            Body::Model(m) => Some(&m.theory_id),
            Body::Conjecture(c) => Some(&c.theory_id),
            Body::Proof(p) => Some(&p.theory_id),
            Body::Placement(p) => Some(&p.theory_id),
        }
    }

    /// A short name for listings.
    pub fn name(&self) -> String {
        match self {
            Body::Theory(t) => t.name.clone(),
            Body::Spectrum(s) => format!("spectrum of {}", s.theory_name),
            Body::Model(m) => format!("model of {} ({})", m.theory_name, sizes_of(&m.structure)),
            Body::Conjecture(c) => format!("[{}] {}", c.theory_name, c.statement),
            Body::Proof(p) => format!("proof of {}", p.statement),
            Body::Placement(p) => format!("placement of {}", p.theory_name),
        }
    }

    /// The score used by `--min-score` (theories only).
    pub fn score(&self) -> Option<f64> {
        match self {
            Body::Theory(t) => t.score.as_ref().map(|s| s.total),
            _ => None,
        }
    }

    /// The words a search matches against.
    pub fn search_text(&self) -> String {
        match self {
            Body::Theory(t) => format!(
                "{}\n{}\n{}\n{}\n{}{}",
                t.text,
                t.origin,
                t.parents.join(" "),
                t.notes,
                if t.discovery {
                    "discovery"
                } else {
                    "candidate"
                },
                t.aliases
                    .iter()
                    .map(|a| format!("\n{} {}", a.name, a.notes))
                    .collect::<String>()
            ),
            Body::Spectrum(s) => s
                .rows
                .iter()
                .map(|r| format!("{:?} {} {}", r.sizes, r.iso, r.labeled))
                .collect::<Vec<_>>()
                .join("\n"),
            Body::Model(m) => m.structure.to_string(),
            Body::Conjecture(c) => format!(
                "{} {:?} {} {}",
                c.statement, c.status, c.evidence, c.proposed_by
            ),
            Body::Proof(p) => format!("{} {}", p.statement, p.prover),
            Body::Placement(p) => p
                .neighbours
                .iter()
                .map(|n| n.name.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// `3` or `2x3`, from a structure's JSON `sizes` map.
fn sizes_of(structure: &Value) -> String {
    structure
        .get("sizes")
        .and_then(Value::as_object)
        .map(|m| {
            m.values()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join("x")
        })
        .unwrap_or_default()
}

impl Record {
    /// A new record for `body`, created now, with its derived ID.
    pub fn new(body: Body) -> Record {
        Record {
            id: body.id(),
            created: crate::time::now(),
            body,
        }
    }
}

/// Sorts `records` highest `key` first, those without it last, ties by name: the order of
/// `report --top` and of `paper --best`.
pub fn rank(records: &mut [Record], key: impl Fn(&Record) -> Option<f64>) {
    records.sort_by(|a, b| {
        match (key(a), key(b)) {
            (Some(x), Some(y)) => y.total_cmp(&x),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        }
        .then_with(|| a.body.name().cmp(&b.body.name()))
    });
}

/// The spectrum of theory `theory_id` that every view shows, merged from its spectrum records
/// among `records`: for each size tuple, the most informative count any record holds (an exact
/// count over a lower bound, for the isomorphism classes first and then the labeled models; then
/// the larger bound), ties going to the later record (by creation time, then ID); the rows in
/// the order spectra are counted (total size, then lexicographically).
///
/// Why this rule: each stored row is a checked fact about one size, so a reader expects to see
/// everything known at each size whichever computation found it. Showing one record (the latest
/// or the longest) would hide an exact count that another record holds, for example when a
/// quick recount to size 4 follows a long count to size 7.
pub fn merged_spectrum<'a>(
    records: impl IntoIterator<Item = &'a Record>,
    theory_id: &str,
) -> Vec<SpectrumRow> {
    use birkhoff_checker::Status;
    let mut spectra: Vec<&Record> = records
        .into_iter()
        .filter(|r| matches!(&r.body, Body::Spectrum(s) if s.theory_id == theory_id))
        .collect();
    spectra.sort_by(|a, b| (a.created, &a.id).cmp(&(b.created, &b.id)));
    let information = |r: &SpectrumRow| {
        (
            r.iso.status == Status::Exact,
            r.labeled.status == Status::Exact,
            r.iso.value,
            r.labeled.value,
        )
    };
    let mut best: BTreeMap<(u64, Vec<u32>), &SpectrumRow> = BTreeMap::new();
    for rec in spectra {
        let Body::Spectrum(s) = &rec.body else {
            continue;
        };
        for row in &s.rows {
            let total = row.sizes.iter().map(|&n| u64::from(n)).sum();
            let slot = best.entry((total, row.sizes.clone())).or_insert(row);
            if information(row) >= information(slot) {
                *slot = row;
            }
        }
    }
    best.into_values().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use birkhoff_checker::{Count, Status};

    fn spectrum(id: &str, created: u64, theory: &str, rows: &[(&[u32], Count)]) -> Record {
        Record {
            id: id.into(),
            created,
            body: Body::Spectrum(SpectrumRec {
                theory_id: theory.into(),
                theory_name: theory.into(),
                rows: rows
                    .iter()
                    .map(|(sizes, iso)| SpectrumRow {
                        sizes: sizes.to_vec(),
                        iso: *iso,
                        labeled: Count {
                            value: 0,
                            status: Status::Unknown,
                        },
                    })
                    .collect(),
            }),
        }
    }

    #[test]
    fn the_merged_spectrum_keeps_the_most_informative_count_of_each_size() {
        let exact = |value| Count {
            value,
            status: Status::Exact,
        };
        let at_least = |value| Count {
            value,
            status: Status::AtLeast,
        };
        let records = [
            // Later, but only bounds where the earlier record is exact.
            spectrum(
                "spc-b",
                2,
                "thy-a",
                &[(&[1, 2], at_least(9)), (&[2, 1], at_least(3))],
            ),
            spectrum(
                "spc-a",
                1,
                "thy-a",
                &[(&[1, 2], exact(4)), (&[2, 1], at_least(2))],
            ),
            spectrum(
                "spc-c",
                3,
                "thy-a",
                &[(&[1, 3], exact(7)), (&[1, 1], exact(1))],
            ),
            // Another theory's spectrum is not mixed in.
            spectrum("spc-d", 4, "thy-b", &[(&[1, 1], exact(5))]),
        ];
        // By total size, then lexicographically: [2, 1] before [1, 3].
        let merged = merged_spectrum(&records, "thy-a");
        let shown: Vec<(Vec<u32>, Count)> = merged.into_iter().map(|r| (r.sizes, r.iso)).collect();
        assert_eq!(
            shown,
            [
                (vec![1, 1], exact(1)),
                (vec![1, 2], exact(4)),
                (vec![2, 1], at_least(3)),
                (vec![1, 3], exact(7)),
            ]
        );
        assert!(merged_spectrum(&records, "thy-none").is_empty());
    }
}
