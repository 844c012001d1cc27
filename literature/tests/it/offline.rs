//! An OEIS hit found online is recognized offline afterwards: the run writes the sequence to
//! the library's `literature/oeis.json`, and the offline recognizer reads it from there.

use crate::support::quiet;
use birkhoff_checker::{
    oeis::{recognise, recognise_in, Counts},
    Count, SpectrumRow, Status,
};
use birkhoff_literature::testing::fixtures::config;
use birkhoff_literature::testing::server::{Reply, Server};
use birkhoff_literature::{search, subject, Store};

/// A sequence the embedded data file does not hold, as the OEIS's JSON search answers it.
const HIT: &str = r#"[{"number": 999990, "data": "1,2,7,31,150,777,4000", "name": "Number of test structures of order n.", "keyword": "nonn", "offset": "1,2"}]"#;

fn rows(iso: &[u128]) -> Vec<SpectrumRow> {
    let exact = |value| Count {
        value,
        status: Status::Exact,
    };
    iso.iter()
        .enumerate()
        .map(|(i, &v)| SpectrumRow {
            sizes: vec![i as u32 + 1],
            iso: exact(v),
            labeled: Count {
                value: 0,
                status: Status::Unknown,
            },
        })
        .collect()
}

#[test]
fn an_oeis_hit_online_is_recognized_offline_on_the_next_run() {
    let spectrum = [1u128, 2, 7, 31, 150, 777];
    let lib = tempfile::tempdir().unwrap();
    let store = Store::new(lib.path());
    assert!(
        recognise(&rows(&spectrum)).is_empty(),
        "the embedded file does not know it"
    );
    assert!(
        recognise_in(&rows(&spectrum), &store.offline_sequences()).is_empty(),
        "nor the library before the search"
    );

    let server = Server::start();
    server.route(
        "GET",
        "/oeis/search",
        &["q=1,2,7,31,150,777"],
        vec![Reply::json(HIT)],
    );
    let terms: Vec<u64> = spectrum.iter().map(|&t| t as u64).collect();
    let out = search(
        lib.path(),
        &subject::of_spectrum(&terms),
        config(&server.base),
        &mut quiet(),
    )
    .unwrap();
    assert_eq!(
        out.oeis
            .iter()
            .map(|m| m.sequence.a_number.as_str())
            .collect::<Vec<_>>(),
        ["A999990"]
    );
    drop(server);

    // Offline (no server, no search): the library's sequences name the spectrum.
    let matches = recognise_in(
        &rows(&spectrum),
        &Store::new(lib.path()).offline_sequences(),
    );
    assert_eq!(
        matches
            .iter()
            .map(|m| (m.id.as_str(), m.shift, m.counts))
            .collect::<Vec<_>>(),
        [("A999990", 0, Counts::Unlabeled)],
        "{matches:?}"
    );
}
