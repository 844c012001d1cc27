//! Is the network there? A run that searches only when it can (`agent --literature auto`) asks
//! once, before its first cycle, whether any enabled source accepts a connection. An offline
//! machine then says "not searched" at once instead of waiting out a timeout for every
//! discovery and every source.

use crate::client::{Config, Source};
use birkhoff_library::text::quote;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The first enabled source whose host accepted a TCP connection within `wait`, or why none
/// did. Nothing is sent: the connection is opened and closed. With `offline` set
/// (`BIRKHOFF_OFFLINE=1`) no connection is tried.
///
/// Each source is tried on its own thread, since name resolution cannot be given a deadline;
/// a thread still resolving when `wait` is over is left to finish on its own.
pub fn reachable(cfg: &Config, wait: Duration) -> Result<Source, String> {
    if cfg.offline {
        return Err("BIRKHOFF_OFFLINE is set".to_string());
    }
    let (tx, rx) = mpsc::channel();
    let mut tried = Vec::new();
    for s in Source::ALL {
        let sc = cfg.source(s);
        if !sc.enabled {
            continue;
        }
        tried.push(s);
        let (tx, url) = (tx.clone(), sc.base_url.clone());
        std::thread::spawn(move || {
            let _ = tx.send((s, connect(&url, wait)));
        });
    }
    drop(tx);
    if tried.is_empty() {
        return Err("every source is turned off".to_string());
    }
    let deadline = Instant::now() + wait;
    let mut failures: Vec<(Source, String)> = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match rx.recv_timeout(left) {
            Ok((s, Ok(()))) => return Ok(s),
            Ok((s, Err(why))) => failures.push((s, why)),
            Err(_) => break,
        }
    }
    Err(format!(
        "no literature source reachable: {}",
        summary(&tried, failures, wait)
    ))
}

/// The failures grouped by reason, sources in their usual order ("arXiv, OEIS: <reason>"),
/// then the sources that gave no answer in time.
fn summary(tried: &[Source], mut failures: Vec<(Source, String)>, wait: Duration) -> String {
    failures.sort();
    let mut reasons: Vec<(String, Vec<&str>)> = Vec::new();
    for (s, why) in &failures {
        match reasons.iter_mut().find(|(r, _)| r == why) {
            Some((_, names)) => names.push(s.label()),
            None => reasons.push((why.clone(), vec![s.label()])),
        }
    }
    let silent: Vec<&str> = tried
        .iter()
        .filter(|s| !failures.iter().any(|(f, _)| f == *s))
        .map(|s| s.label())
        .collect();
    let mut parts: Vec<String> = reasons
        .into_iter()
        .map(|(why, names)| format!("{}: {why}", names.join(", ")))
        .collect();
    if !silent.is_empty() {
        parts.push(format!(
            "{}: no answer within {:.0} s",
            silent.join(", "),
            wait.as_secs_f64()
        ));
    }
    parts.join("; ")
}

/// Opens and closes a TCP connection to the host and port of `base_url`.
fn connect(base_url: &str, wait: Duration) -> Result<(), String> {
    let url = reqwest::Url::parse(base_url).map_err(|e| format!("bad base URL: {e}"))?;
    let host = url.host_str().ok_or("base URL without a host")?;
    let port = url
        .port_or_known_default()
        .ok_or("base URL without a port")?;
    let addrs = (host, port)
        .to_socket_addrs()
        .map_err(|e| quote(&e.to_string()))?;
    let mut last = "no address".to_string();
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, wait) {
            Ok(_) => return Ok(()),
            Err(e) => last = quote(&e.to_string()),
        }
    }
    Err(last)
}
