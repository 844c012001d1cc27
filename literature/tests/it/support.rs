//! The scenario most tests share: a subject "Moufang loop" and fixtures for it on every source
//! (`birkhoff_literature::testing`, shared with the agent's and the binary's tests).

use birkhoff_literature::testing::fixtures::{invented_arxiv, invented_doi};
use birkhoff_literature::Subject;

pub fn subject() -> Subject {
    Subject {
        key: "test-moufang".into(),
        title: "Moufang loops".into(),
        names: vec!["Moufang loop".into()],
        axioms_in_words: vec![
            "Moufang identity".into(),
            "identity element".into(),
            "division".into(),
        ],
        related: vec!["Bol loop".into(), "group".into()],
        iso_spectrum: vec![1, 1, 1, 2, 6],
        labeled_spectrum: vec![1, 3, 7, 19],
        domain: "algebra".into(),
        proposed: vec![invented_arxiv(), invented_doi()],
        ..Subject::default()
    }
}

pub fn quiet() -> impl FnMut(&str) {
    |_: &str| {}
}
