//! `reachable`: whether the network is there, asked before a run that searches only when it can.

use birkhoff_literature::testing::fixtures::config;
use birkhoff_literature::testing::server::{dead_base, Server};
use birkhoff_literature::{reachable, Source};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(3);

#[test]
fn a_source_that_accepts_a_connection_is_reachable_without_a_request() {
    let server = Server::start();
    let dead = dead_base();
    let mut cfg = config(&dead);
    cfg.set_base_url(Source::Zbmath, &format!("{}/zbmath", server.base));
    assert_eq!(reachable(&cfg, WAIT), Ok(Source::Zbmath));
    assert!(
        server.requests().is_empty(),
        "the probe connects and sends nothing"
    );
}

#[test]
fn no_source_reachable_says_why_for_each() {
    let mut cfg = config(&dead_base());
    cfg.set_enabled(Source::Oeis, false);
    let why = reachable(&cfg, WAIT).unwrap_err();
    assert!(
        why.starts_with("no literature source reachable: arXiv, Semantic Scholar, zbMATH Open: "),
        "{why}"
    );
    assert!(
        !why.contains("OEIS"),
        "a source turned off is not tried: {why}"
    );
}

#[test]
fn offline_tries_no_connection() {
    let server = Server::start();
    let mut cfg = config(&server.base);
    cfg.offline = true;
    assert_eq!(
        reachable(&cfg, WAIT),
        Err("BIRKHOFF_OFFLINE is set".to_string())
    );
    for s in Source::ALL {
        cfg.set_enabled(s, false);
    }
    cfg.offline = false;
    assert_eq!(
        reachable(&cfg, WAIT),
        Err("every source is turned off".to_string())
    );
}
