//! HTTP for the literature sources: configurable base URLs, each API's rate limit, one retry
//! after HTTP 429, and a cache in the library so that a rerun works offline.
//!
//! Each source has one deadline per run ([`Config::timeout`]): the time all its requests of the
//! run may take together. A source that uses it up, cannot be reached or answers 5xx is down for
//! the rest of the run, and is not asked again: a source that accepts connections and never
//! answers costs one deadline, not one per query. Redirects are followed only within the
//! source's own scheme, host and port, and no answer is read past [`MAX_BODY`] bytes.
//!
//! Faults are values ([`FetchError`]), never panics: the run goes on with the other sources and
//! says what happened in the search history.

use crate::cache::Cache;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The largest answer read from a source, in bytes. A search or lookup answer is a few hundred
/// KB at most (the OEIS's longest entries); past this the source is misbehaving, and reading on
/// would only fill memory (a 200 MB answer took 456 MB).
pub const MAX_BODY: usize = 16 << 20;

/// The most redirects followed for one request (all within the source's host).
const MAX_REDIRECTS: usize = 5;

/// The four sources.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// arXiv's Atom API.
    Arxiv,
    /// Semantic Scholar's Graph API.
    SemanticScholar,
    /// zbMATH Open's REST API.
    Zbmath,
    /// The OEIS search (JSON).
    Oeis,
}

impl Source {
    /// All sources, in the order a run queries them.
    pub const ALL: [Source; 4] = [
        Source::Arxiv,
        Source::SemanticScholar,
        Source::Zbmath,
        Source::Oeis,
    ];

    /// The name shown in progress lines and LITERATURE.md.
    pub fn label(self) -> &'static str {
        match self {
            Source::Arxiv => "arXiv",
            Source::SemanticScholar => "Semantic Scholar",
            Source::Zbmath => "zbMATH Open",
            Source::Oeis => "OEIS",
        }
    }

    /// The key used in `sources_queried` and `--json`.
    pub fn key(self) -> &'static str {
        match self {
            Source::Arxiv => "arxiv",
            Source::SemanticScholar => "semantic_scholar",
            Source::Zbmath => "zbmath",
            Source::Oeis => "oeis",
        }
    }

    /// The environment variable that overrides the base URL (for mirrors and tests).
    pub fn url_var(self) -> &'static str {
        match self {
            Source::Arxiv => "BIRKHOFF_ARXIV_URL",
            Source::SemanticScholar => "BIRKHOFF_S2_URL",
            Source::Zbmath => "BIRKHOFF_ZBMATH_URL",
            Source::Oeis => "BIRKHOFF_OEIS_URL",
        }
    }

    /// The public API's base URL.
    pub fn default_url(self) -> &'static str {
        match self {
            Source::Arxiv => "http://export.arxiv.org/api",
            Source::SemanticScholar => "https://api.semanticscholar.org/graph/v1",
            Source::Zbmath => "https://api.zbmath.org/v1",
            Source::Oeis => "https://oeis.org",
        }
    }

    /// The least time between two calls, by the API's published rules: arXiv asks for 3 s;
    /// Semantic Scholar allows one request per second with a key (the shared pool without one
    /// is throttled as a whole); zbMATH Open and the OEIS ask for moderate use, taken as 1 s.
    pub fn default_interval(self) -> Duration {
        match self {
            Source::Arxiv => Duration::from_secs(3),
            _ => Duration::from_secs(1),
        }
    }

    /// How long to wait after HTTP 429 before the one retry (the protocol: 10 s for arXiv, 5 s
    /// for Semantic Scholar; 5 s for the others).
    pub fn default_retry_wait(self) -> Duration {
        match self {
            Source::Arxiv => Duration::from_secs(10),
            _ => Duration::from_secs(5),
        }
    }
}

/// How the client reaches each source.
#[derive(Clone, Debug)]
pub struct SourceConfig {
    /// Base URL without a trailing slash (`http://export.arxiv.org/api`).
    pub base_url: String,
    /// Least time between two network calls to this source.
    pub interval: Duration,
    /// Wait after HTTP 429 before the one retry.
    pub retry_wait: Duration,
    /// Whether the source is queried at all.
    pub enabled: bool,
}

/// Everything a literature run needs to know about the network.
#[derive(Clone, Debug)]
pub struct Config {
    sources: HashMap<Source, SourceConfig>,
    /// Semantic Scholar API key (`x-api-key`), from `SEMANTIC_SCHOLAR_API_KEY`.
    pub s2_api_key: Option<String>,
    /// Each source's deadline for the run: how long all its requests together may take (pacing
    /// and waits after HTTP 429 aside). A source that uses it up is down for the rest of the run.
    pub timeout: Duration,
    /// Never use the network: answer from the cache only.
    pub offline: bool,
    /// Ask the network even when the cache has the answer (the new answer replaces it).
    pub refresh: bool,
    /// From how many Semantic Scholar lookups on the batch endpoint is used instead of one GET
    /// per paper (the protocol: 10).
    pub s2_batch_from: usize,
    /// Results asked for per search query.
    pub max_results: usize,
}

impl Default for Config {
    fn default() -> Config {
        let sources = Source::ALL
            .iter()
            .map(|&s| {
                (
                    s,
                    SourceConfig {
                        base_url: s.default_url().to_string(),
                        interval: s.default_interval(),
                        retry_wait: s.default_retry_wait(),
                        enabled: true,
                    },
                )
            })
            .collect();
        Config {
            sources,
            s2_api_key: None,
            timeout: Duration::from_secs(30),
            offline: false,
            refresh: false,
            s2_batch_from: 10,
            max_results: 10,
        }
    }
}

impl Config {
    /// The defaults, then the environment: `BIRKHOFF_ARXIV_URL`, `BIRKHOFF_S2_URL`,
    /// `BIRKHOFF_ZBMATH_URL`, `BIRKHOFF_OEIS_URL` (base URLs), `SEMANTIC_SCHOLAR_API_KEY`,
    /// `BIRKHOFF_OFFLINE=1` (cache only), `BIRKHOFF_LITERATURE_INTERVAL_MS` and
    /// `BIRKHOFF_LITERATURE_RETRY_MS` (pacing, for a mirror that allows faster calls).
    pub fn from_env() -> Config {
        let mut c = Config::default();
        for s in Source::ALL {
            if let Ok(url) = std::env::var(s.url_var()) {
                if !url.trim().is_empty() {
                    c.set_base_url(s, &url);
                }
            }
        }
        c.s2_api_key = std::env::var("SEMANTIC_SCHOLAR_API_KEY")
            .ok()
            .filter(|k| !k.trim().is_empty());
        c.offline = std::env::var("BIRKHOFF_OFFLINE")
            .is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
        let ms = |var: &str| {
            std::env::var(var)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_millis)
        };
        if let Some(d) = ms("BIRKHOFF_LITERATURE_INTERVAL_MS") {
            c.set_pacing(Some(d), None);
        }
        if let Some(d) = ms("BIRKHOFF_LITERATURE_RETRY_MS") {
            c.set_pacing(None, Some(d));
        }
        c
    }

    /// One source's settings.
    pub fn source(&self, s: Source) -> &SourceConfig {
        &self.sources[&s]
    }

    /// Points a source at another server (a mirror, or a test's local server).
    pub fn set_base_url(&mut self, s: Source, url: &str) {
        if let Some(sc) = self.sources.get_mut(&s) {
            sc.base_url = url.trim().trim_end_matches('/').to_string();
        }
    }

    /// Turns a source on or off.
    pub fn set_enabled(&mut self, s: Source, on: bool) {
        if let Some(sc) = self.sources.get_mut(&s) {
            sc.enabled = on;
        }
    }

    /// Sets every source's interval between calls and wait after 429 (`None` keeps it).
    pub fn set_pacing(&mut self, interval: Option<Duration>, retry_wait: Option<Duration>) {
        for sc in self.sources.values_mut() {
            if let Some(i) = interval {
                sc.interval = i;
            }
            if let Some(w) = retry_wait {
                sc.retry_wait = w;
            }
        }
    }
}

/// What a source answered (from the network or the cache).
#[derive(Clone, Debug)]
pub struct Response {
    /// The full URL asked (for the audit trail of a verification).
    pub url: String,
    /// HTTP status: 200, or 404 for a lookup that found nothing.
    pub status: u16,
    /// The body.
    pub body: String,
    /// When it was fetched (seconds since the epoch; earlier than now if from the cache).
    pub fetched: u64,
    /// Whether it came from the cache.
    pub from_cache: bool,
    key: String,
    source: Source,
    method: &'static str,
    request_body: Option<String>,
}

/// Why a request got no usable answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FetchError {
    /// HTTP 429 twice (the one retry after waiting was refused too).
    #[error("rate limited (HTTP 429, again after waiting): {url}")]
    RateLimited {
        /// The URL.
        url: String,
    },
    /// The source's deadline for the run ran out while waiting for this answer; the source is
    /// down for the rest of the run.
    #[error("timed out: no answer within the source's {secs:.1} s for this run: {url}")]
    Timeout {
        /// The URL.
        url: String,
        /// The source's deadline for the run.
        secs: f64,
    },
    /// Not asked: the source is down for the rest of the run (an earlier request timed out, could
    /// not reach it, or got a 5xx).
    #[error("not asked: the source is down for this run ({why}): {url}")]
    Down {
        /// The URL.
        url: String,
        /// The earlier failure.
        why: String,
    },
    /// The source redirected to another host or port, or redirected too often.
    #[error("redirect refused: {url}: {message}")]
    Redirect {
        /// The URL.
        url: String,
        /// Where it pointed, and why it was not followed.
        message: String,
    },
    /// The answer is longer than [`MAX_BODY`]; what was read is dropped.
    #[error("answer longer than {limit} bytes, not read further: {url}")]
    TooLarge {
        /// The URL.
        url: String,
        /// The limit.
        limit: usize,
    },
    /// The server could not be reached (refused, unknown host, reset).
    #[error("unreachable: {url}: {message}")]
    Unreachable {
        /// The URL.
        url: String,
        /// The cause.
        message: String,
    },
    /// An HTTP error status other than 404 and 429 (a 5xx means the source is down).
    #[error("HTTP {status}: {url}")]
    Status {
        /// The URL.
        url: String,
        /// The status.
        status: u16,
    },
    /// Offline and not in the cache.
    #[error("offline and not in the cache: {url}")]
    NotCached {
        /// The URL.
        url: String,
    },
}

impl FetchError {
    /// Whether the source is down for the rest of the run after this failure: it used up its
    /// deadline, cannot be reached, or answers 5xx.
    pub fn takes_source_down(&self) -> bool {
        matches!(
            self,
            FetchError::Timeout { .. }
                | FetchError::Unreachable { .. }
                | FetchError::Status {
                    status: 500..=599,
                    ..
                }
        )
    }
}

/// The HTTP client of one literature run.
pub struct Client {
    http: reqwest::Client,
    config: Config,
    cache: Option<Cache>,
    last_call: HashMap<Source, Instant>,
    /// The time each source's requests have taken in this run, against [`Config::timeout`].
    spent: HashMap<Source, Duration>,
    /// The sources down for the rest of the run, with the failure that took each down.
    down: HashMap<Source, String>,
}

impl Client {
    /// A client with this configuration, caching in `cache` (none: nothing is cached).
    pub fn new(config: Config, cache: Option<Cache>) -> Result<Client, String> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::custom(same_origin_only))
            .user_agent(concat!(
                "birkhoff/",
                env!("CARGO_PKG_VERSION"),
                " (literature agent)"
            ))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(Client {
            http,
            config,
            cache,
            last_call: HashMap::new(),
            spent: HashMap::new(),
            down: HashMap::new(),
        })
    }

    /// Whether `source` is down for the rest of this run (see [`FetchError::takes_source_down`]).
    pub fn is_down(&self, source: Source) -> bool {
        self.down.contains_key(&source)
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The full URL of a request relative to a source's base.
    pub fn url(&self, source: Source, rel: &str) -> String {
        format!("{}{}", self.config.source(source).base_url, rel)
    }

    /// GET `rel` (path and query, starting with `/`) from `source`.
    pub async fn get(&mut self, source: Source, rel: &str) -> Result<Response, FetchError> {
        self.request(source, "GET", rel, None).await
    }

    /// POST a JSON body to `rel` on `source`.
    pub async fn post_json(
        &mut self,
        source: Source,
        rel: &str,
        body: String,
    ) -> Result<Response, FetchError> {
        self.request(source, "POST", rel, Some(body)).await
    }

    /// Keeps a response in the cache. Called once the body has been parsed, so that a
    /// malformed answer is never replayed from the cache.
    pub fn remember(&self, r: &Response) {
        if let (Some(cache), false) = (&self.cache, r.from_cache) {
            cache.put(
                &r.key,
                r.source,
                r.method,
                &r.url,
                r.request_body.as_deref(),
                r.status,
                &r.body,
                r.fetched,
            );
        }
    }

    async fn request(
        &mut self,
        source: Source,
        method: &'static str,
        rel: &str,
        body: Option<String>,
    ) -> Result<Response, FetchError> {
        let url = self.url(source, rel);
        // The cache is keyed by the request relative to the base URL, so that a rerun against
        // a mirror (or with the network off) finds what an earlier run fetched.
        let key = Cache::key(source, method, rel, body.as_deref());
        if !self.config.refresh || self.config.offline {
            if let Some(hit) = self.cache.as_ref().and_then(|c| c.get(&key)) {
                return Ok(Response {
                    url,
                    status: hit.status,
                    body: hit.body,
                    fetched: hit.fetched,
                    from_cache: true,
                    key,
                    source,
                    method,
                    request_body: body,
                });
            }
        }
        if self.config.offline {
            return Err(FetchError::NotCached { url });
        }
        if let Some(why) = self.down.get(&source) {
            return Err(FetchError::Down {
                url,
                why: why.clone(),
            });
        }
        let result = self.fetch(source, method, &url, body.as_deref()).await;
        if let Err(e) = &result {
            if e.takes_source_down() {
                self.down.insert(source, e.to_string());
            }
        }
        let (status, text) = result?;
        Ok(Response {
            url,
            status,
            body: text,
            fetched: birkhoff_library::time::now(),
            from_cache: false,
            key,
            source,
            method,
            request_body: body,
        })
    }

    /// Asks the network: the status (200 or 404) and the body, retrying once after HTTP 429.
    /// Every call's sending and reading counts against the source's deadline for the run.
    async fn fetch(
        &mut self,
        source: Source,
        method: &'static str,
        url: &str,
        body: Option<&str>,
    ) -> Result<(u16, String), FetchError> {
        let mut rate_limited_once = false;
        loop {
            self.pace(source).await;
            let mut req = if method == "POST" {
                self.http.post(url)
            } else {
                self.http.get(url)
            };
            if let Some(b) = body {
                req = req
                    .header("content-type", "application/json")
                    .body(b.to_string());
            }
            if source == Source::SemanticScholar {
                if let Some(k) = &self.config.s2_api_key {
                    req = req.header("x-api-key", k);
                }
            }
            let left = self
                .config
                .timeout
                .saturating_sub(self.spent.get(&source).copied().unwrap_or_default());
            let started = Instant::now();
            let answer = tokio::time::timeout(left, send_and_read(req, url)).await;
            *self.spent.entry(source).or_default() += started.elapsed();
            self.last_call.insert(source, Instant::now());
            let (status, retry_wait, text) = match answer {
                Err(_) => {
                    return Err(FetchError::Timeout {
                        url: url.to_string(),
                        secs: self.config.timeout.as_secs_f64(),
                    })
                }
                Ok(answer) => answer?,
            };
            if status == 429 {
                if rate_limited_once {
                    return Err(FetchError::RateLimited {
                        url: url.to_string(),
                    });
                }
                rate_limited_once = true;
                tokio::time::sleep(retry_wait.unwrap_or(self.config.source(source).retry_wait))
                    .await;
                continue;
            }
            if status != 200 && status != 404 {
                return Err(FetchError::Status {
                    url: url.to_string(),
                    status,
                });
            }
            return Ok((status, text));
        }
    }

    /// Waits until the source's interval since its last network call has passed.
    async fn pace(&self, source: Source) {
        if let Some(last) = self.last_call.get(&source) {
            let due = *last + self.config.source(source).interval;
            let now = Instant::now();
            if due > now {
                tokio::time::sleep(due - now).await;
            }
        }
    }
}

/// Sends a request and reads its answer: the status, the server's `Retry-After`, and the body of
/// a 200 or 404 (up to [`MAX_BODY`] bytes; a longer one is an error, not read further).
async fn send_and_read(
    req: reqwest::RequestBuilder,
    url: &str,
) -> Result<(u16, Option<Duration>, String), FetchError> {
    let failed = |e: reqwest::Error| {
        let message = error_chain(&e);
        if e.is_redirect() {
            FetchError::Redirect {
                url: url.to_string(),
                message,
            }
        } else {
            FetchError::Unreachable {
                url: url.to_string(),
                message,
            }
        }
    };
    let mut resp = req.send().await.map_err(failed)?;
    let status = resp.status().as_u16();
    if status != 200 && status != 404 {
        return Ok((status, retry_after(&resp), String::new()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(failed)? {
        if body.len() + chunk.len() > MAX_BODY {
            return Err(FetchError::TooLarge {
                url: url.to_string(),
                limit: MAX_BODY,
            });
        }
        body.extend_from_slice(&chunk);
    }
    Ok((status, None, String::from_utf8_lossy(&body).into_owned()))
}

/// The redirect policy: follow a redirect only to the scheme, host and port of the URL first
/// asked, at most [`MAX_REDIRECTS`] times. A source's answer must come from the source: a
/// redirect elsewhere could make the client ask any host (a local service, another port).
fn same_origin_only(attempt: reqwest::redirect::Attempt) -> reqwest::redirect::Action {
    let origin = |u: &reqwest::Url| {
        (
            u.scheme().to_string(),
            u.host_str().map(str::to_ascii_lowercase),
            u.port_or_known_default(),
        )
    };
    let first = attempt.previous().first().map(origin);
    let to = attempt.url().to_string();
    if attempt.previous().len() > MAX_REDIRECTS {
        attempt.error(format!(
            "more than {MAX_REDIRECTS} redirects (the last to {to})"
        ))
    } else if first.is_some_and(|f| f == origin(attempt.url())) {
        attempt.follow()
    } else {
        attempt.error(format!("redirected to {to}, outside the source's host"))
    }
}

/// A server's `Retry-After` in seconds, if it gives one and it is reasonable (at most a minute:
/// a longer wait is better recorded as a skip than spent idle).
fn retry_after(resp: &reqwest::Response) -> Option<Duration> {
    let secs: u64 = resp
        .headers()
        .get("retry-after")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    (secs <= 60).then(|| Duration::from_secs(secs))
}

/// An error with its causes ("error sending request: ... Connection refused").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let t = c.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        cur = c.source();
    }
    s
}
