//! Stored records keep their IDs and their JSON: a fixed library of every kind is built, and each
//! record's ID and a digest of its stored body are compared with those recorded when the test was
//! written. A change to how a record (or a spectrum row inside it) serializes changes them, and
//! would orphan every library already on disk.

use birkhoff_checker::{Count, Status};
use birkhoff_engine::{Structure, Theory};
use birkhoff_library::record::*;
use birkhoff_library::{id, Library};
use std::collections::BTreeMap;

const MAGMA: &str = "theory CommMagma\nfunc * : 2\naxiom comm: x * y = y * x\n";
const TWO_SORTS: &str = "theory Action\nsort G, X\nfunc act : G X -> X\n";

fn theory(text: &str, discovery: bool) -> (Theory, Body) {
    let t = Theory::parse(text, "test").unwrap();
    let body = Body::Theory(TheoryRec {
        name: t.name.clone(),
        text: t.to_text(),
        fingerprint: t.fingerprint().to_string(),
        origin: "seed".into(),
        parents: vec!["Magma".into()],
        discovery,
        notes: "kept for the test".into(),
        score: Some(Score {
            total: 0.625,
            dims: BTreeMap::from([("novelty".to_string(), 0.5)]),
        }),
        aliases: vec![Alias {
            name: "Later".into(),
            cycle: 3,
            notes: "renamed".into(),
        }],
        presentations: vec![],
    });
    (t, body)
}

fn count(value: u128, status: Status) -> Count {
    Count { value, status }
}

fn row(sizes: &[u32], iso: Count, labeled: Count) -> SpectrumRow {
    SpectrumRow {
        sizes: sizes.to_vec(),
        iso,
        labeled,
    }
}

/// One record of every kind, with spectra holding exact, bounded and unknown counts, a count too
/// large for a JSON number, and a two-sorted row.
fn build(lib: &mut Library) {
    let (magma, magma_body) = theory(MAGMA, true);
    let (_, action_body) = theory(TWO_SORTS, false);
    let magma_id = magma_body.id();
    let action_id = action_body.id();
    lib.put(magma_body).unwrap();
    lib.put(action_body).unwrap();
    let exact = |n| count(n, Status::Exact);
    lib.put(Body::Spectrum(SpectrumRec {
        theory_id: magma_id.clone(),
        theory_name: magma.name.clone(),
        rows: vec![
            row(&[1], exact(1), exact(1)),
            row(&[2], exact(4), exact(8)),
            row(&[3], count(100, Status::AtLeast), count(0, Status::Unknown)),
            row(&[9], exact(u128::MAX - 7), exact(u128::MAX)),
        ],
    }))
    .unwrap();
    lib.put(Body::Spectrum(SpectrumRec {
        theory_id: magma_id.clone(),
        theory_name: magma.name.clone(),
        rows: vec![row(&[1], exact(1), exact(1))],
    }))
    .unwrap();
    lib.put(Body::Spectrum(SpectrumRec {
        theory_id: action_id,
        theory_name: "Action".into(),
        rows: vec![
            row(&[1, 2], exact(1), exact(1)),
            row(&[2, 1], exact(3), exact(4)),
        ],
    }))
    .unwrap();
    let model = Structure::from_fn(&magma.sig, &[2], |_, a| a[0].max(a[1]), |_, _| false);
    let (model_rec, _) = lib
        .put(Body::Model(ModelRec {
            theory_id: magma_id.clone(),
            theory_name: magma.name.clone(),
            structure: model.to_json(&magma.sig),
        }))
        .unwrap();
    let (refuted, _) = lib
        .put(Body::Conjecture(ConjectureRec {
            theory_id: magma_id.clone(),
            theory_name: magma.name.clone(),
            statement: "(x * y) * z = x * (y * z)".into(),
            status: ConjectureStatus::Refuted,
            evidence: "a countermodel of size 2".into(),
            countermodel: Some(model_rec.id),
            proof: None,
            proposed_by: "offline".into(),
            claim: None,
        }))
        .unwrap();
    lib.put(Body::Proof(ProofRec {
        conjecture_id: refuted.id,
        theory_id: magma_id.clone(),
        statement: "x * y = y * x".into(),
        prover: "test".into(),
        certificate: serde_json::json!({"steps": [1, 2, 3]}),
    }))
    .unwrap();
    lib.put(Body::Conjecture(ConjectureRec {
        theory_id: magma_id,
        theory_name: magma.name,
        statement: "x * x = x".into(),
        status: ConjectureStatus::Open,
        evidence: String::new(),
        countermodel: None,
        proof: None,
        proposed_by: "llm".into(),
        claim: None,
    }))
    .unwrap();
}

/// Each record's ID and the digest of its stored body (everything but the creation time).
fn fingerprints(lib: &Library) -> Vec<(String, String)> {
    lib.load_all()
        .unwrap()
        .into_iter()
        .map(|r| {
            let body = serde_json::to_string(&r.body).unwrap();
            (r.id, id::derive("body", &body))
        })
        .collect()
}

#[test]
fn stored_records_keep_their_ids_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut lib = Library::open(dir.path()).unwrap();
    build(&mut lib);
    let got = fingerprints(&lib);
    // Recorded before the stored row type `SpectrumRowRec` gave way to `SpectrumRow` (issue 48).
    let want = [
        ("cnj-106baab25e59fbe8", "body-b2821bf37a83dfd5"),
        ("cnj-54f964b335c63612", "body-6000ac85d91b01fe"),
        ("mod-8d6c9f0f29ed2aa1", "body-412051327ee251e5"),
        ("prf-6d33d5ed3bf28527", "body-8d981e9dd9e9e52a"),
        ("spc-62dacab360f38a25", "body-702ef1cdc4cbf88f"),
        ("spc-b97f0217dbd90d5d", "body-4586196403e01508"),
        ("spc-bb41b6682a2f629d", "body-46d2bebe69828d5c"),
        ("thy-49c894023d429250", "body-ae441aa993fd7b47"),
        ("thy-590c3fc5760dd8b5", "body-aed65713924cb52a"),
    ]
    .map(|(rec_id, body)| (rec_id.to_string(), body.to_string()));
    assert_eq!(got, want);
}
