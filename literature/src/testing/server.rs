//! A local HTTP/1.1 server on 127.0.0.1 serving fixtures, standing in for the four APIs. Routes
//! match a method, a path prefix and substrings of the decoded request target; each route
//! answers its replies in turn (the last one repeats), optionally after a delay. Every request is
//! logged, so tests can count what reached the "network". Routes are tried in the order they were
//! added: a specific route goes before a catch-all for the same prefix. [`Silent`] stands in for a
//! source that accepts connections and never answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One answer.
#[derive(Clone)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The body, sent as it is.
    pub body: String,
    /// The `Content-Type` header.
    pub content_type: &'static str,
    /// How long to wait before answering (a timeout test's slow source).
    pub delay: Duration,
    /// A `Location` header (a redirect).
    pub location: Option<String>,
}

impl Reply {
    /// HTTP 200 with this body and content type.
    pub fn ok(body: &str, content_type: &'static str) -> Reply {
        Reply {
            status: 200,
            body: body.to_string(),
            content_type,
            delay: Duration::ZERO,
            location: None,
        }
    }
    /// HTTP 200 with an Atom body (arXiv).
    pub fn xml(body: &str) -> Reply {
        Reply::ok(body, "application/atom+xml; charset=utf-8")
    }
    /// HTTP 200 with a JSON body.
    pub fn json(body: &str) -> Reply {
        Reply::ok(body, "application/json")
    }
    /// Another status (404, 429, 503...) with a JSON content type.
    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            body: body.to_string(),
            content_type: "application/json",
            delay: Duration::ZERO,
            location: None,
        }
    }
    /// HTTP 302 to `location`.
    pub fn redirect(location: &str) -> Reply {
        Reply {
            location: Some(location.to_string()),
            ..Reply::status(302, "")
        }
    }
    /// The same reply after `delay`.
    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

struct Route {
    method: &'static str,
    prefix: String,
    contains: Vec<String>,
    replies: Vec<Reply>,
    served: usize,
}

/// The running server; it stops accepting when dropped.
pub struct Server {
    /// `http://127.0.0.1:PORT`, the base the sources' URLs are made from.
    pub base: String,
    routes: Arc<Mutex<Vec<Route>>>,
    log: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// Binds a free port on 127.0.0.1 and serves it from a thread until dropped.
    pub fn start() -> Server {
        let routes: Arc<Mutex<Vec<Route>>> = Arc::default();
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let (r, l) = (routes.clone(), log.clone());
        let (base, stop) = listen(move |stream| {
            let (r, l) = (r.clone(), l.clone());
            std::thread::spawn(move || handle(stream, &r, &l));
        });
        Server {
            base,
            routes,
            log,
            stop,
        }
    }

    /// Adds a route: `method`, a path prefix (`/arxiv/query`), substrings of the decoded target.
    pub fn route(
        &self,
        method: &'static str,
        prefix: &str,
        contains: &[&str],
        replies: Vec<Reply>,
    ) {
        self.routes.lock().unwrap().push(Route {
            method,
            prefix: prefix.to_string(),
            contains: contains.iter().map(|s| s.to_string()).collect(),
            replies,
            served: 0,
        });
    }

    /// Every request so far: `METHOD decoded-target`.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// How many requests so far contain `needle`.
    pub fn count(&self, needle: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.contains(needle))
            .count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Percent-decoding of a request target ('+' is a space), for matching only.
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(v) => {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn handle(mut stream: TcpStream, routes: &Mutex<Vec<Route>>, log: &Mutex<Vec<String>>) {
    let _ = stream.set_nonblocking(false);
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = decode(parts.next().unwrap_or(""));
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    let body = String::from_utf8_lossy(&body).into_owned();
    log.lock()
        .unwrap()
        .push(format!("{method} {target} {body}").trim_end().to_string());
    let reply = {
        let mut rs = routes.lock().unwrap();
        let found = rs.iter_mut().find(|r| {
            r.method == method
                && target.starts_with(&r.prefix)
                && r.contains
                    .iter()
                    .all(|c| target.contains(c.as_str()) || body.contains(c.as_str()))
        });
        match found {
            Some(r) => {
                let reply = r.replies[r.served.min(r.replies.len() - 1)].clone();
                r.served += 1;
                reply
            }
            None => Reply::status(404, "{\"error\":\"no fixture for this request\"}"),
        }
    };
    std::thread::sleep(reply.delay);
    let reason = match reply.status {
        200 => "OK",
        404 => "Not Found",
        429 => "Too Many Requests",
        503 => "Service Unavailable",
        _ => "Status",
    };
    let location = reply
        .location
        .map_or(String::new(), |l| format!("Location: {l}\r\n"));
    let head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{location}Connection: close\r\n\r\n",
        reply.status,
        reply.content_type,
        reply.body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(reply.body.as_bytes());
    let _ = stream.flush();
}

/// Binds a free port on 127.0.0.1 and hands each connection to `accept`, on a thread, until the
/// flag returned with the base URL is set.
fn listen(mut accept: impl FnMut(TcpStream) + Send + 'static) -> (String, Arc<AtomicBool>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let base = format!("http://{}", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    std::thread::spawn(move || {
        while !s.load(Ordering::Relaxed) {
            match listener.accept() {
                Ok((stream, _)) => accept(stream),
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    (base, stop)
}

/// A port on 127.0.0.1 where nothing listens (bound, then released): a source that is down.
pub fn dead_base() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    format!("http://{addr}")
}

/// A listener on 127.0.0.1 that accepts connections, reads nothing and never answers: a source
/// that hangs. It counts the connections it accepted, so that a test can tell whether a source
/// was asked again; it holds them open until dropped.
pub struct Silent {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    accepted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Silent {
    /// Binds a free port on 127.0.0.1 and accepts on it from a thread until dropped.
    pub fn start() -> Silent {
        let accepted = Arc::new(AtomicUsize::new(0));
        let a = accepted.clone();
        let mut open = Vec::new();
        let (base, stop) = listen(move |stream| {
            a.fetch_add(1, Ordering::SeqCst);
            open.push(stream);
        });
        Silent {
            base,
            accepted,
            stop,
        }
    }

    /// How many connections were accepted so far.
    pub fn accepted(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }
}

impl Drop for Silent {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
