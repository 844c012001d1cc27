//! HTTP for the literature sources: configurable base URLs, each API's rate limit, one retry
//! after HTTP 429 or a timeout, and a cache in the library so that a rerun works offline.
//!
//! Faults are values ([`FetchError`]), never panics: the run goes on with the other sources and
//! says what happened in the search history.

use crate::cache::Cache;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The four sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
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
    pub const ALL: [Source; 4] = [Source::Arxiv, Source::SemanticScholar, Source::Zbmath, Source::Oeis];

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
    /// Time limit of one request.
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
        c.s2_api_key = std::env::var("SEMANTIC_SCHOLAR_API_KEY").ok().filter(|k| !k.trim().is_empty());
        c.offline = std::env::var("BIRKHOFF_OFFLINE").is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"));
        let ms = |var: &str| std::env::var(var).ok().and_then(|v| v.trim().parse::<u64>().ok()).map(Duration::from_millis);
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
    /// No answer within the time limit, twice.
    #[error("timed out after {secs:.1} s (twice): {url}")]
    Timeout {
        /// The URL.
        url: String,
        /// The limit.
        secs: f64,
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

/// The HTTP client of one literature run.
pub struct Client {
    http: reqwest::Client,
    config: Config,
    cache: Option<Cache>,
    last_call: HashMap<Source, Instant>,
}

impl Client {
    /// A client with this configuration, caching in `cache` (none: nothing is cached).
    pub fn new(config: Config, cache: Option<Cache>) -> Result<Client, String> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .user_agent(concat!("birkhoff/", env!("CARGO_PKG_VERSION"), " (literature agent)"))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(Client { http, config, cache, last_call: HashMap::new() })
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
    pub async fn post_json(&mut self, source: Source, rel: &str, body: String) -> Result<Response, FetchError> {
        self.request(source, "POST", rel, Some(body)).await
    }

    /// Keeps a response in the cache. Called once the body has been parsed, so that a
    /// malformed answer is never replayed from the cache.
    pub fn remember(&self, r: &Response) {
        if let (Some(cache), false) = (&self.cache, r.from_cache) {
            cache.put(&r.key, r.source, r.method, &r.url, r.request_body.as_deref(), r.status, &r.body, r.fetched);
        }
    }

    async fn request(&mut self, source: Source, method: &'static str, rel: &str, body: Option<String>) -> Result<Response, FetchError> {
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
        let mut rate_limited_once = false;
        let mut timed_out_once = false;
        loop {
            self.pace(source).await;
            let mut req = if method == "POST" { self.http.post(&url) } else { self.http.get(&url) };
            if let Some(b) = &body {
                req = req.header("content-type", "application/json").body(b.clone());
            }
            if source == Source::SemanticScholar {
                if let Some(k) = &self.config.s2_api_key {
                    req = req.header("x-api-key", k);
                }
            }
            // A timeout (sending or reading the body) is retried once; any other failure ends it.
            let secs = self.config.timeout.as_secs_f64();
            let mut failed = |e: reqwest::Error, url: &str| {
                if e.is_timeout() && !timed_out_once {
                    timed_out_once = true;
                    None
                } else if e.is_timeout() {
                    Some(FetchError::Timeout { url: url.to_string(), secs })
                } else {
                    Some(FetchError::Unreachable { url: url.to_string(), message: error_chain(&e) })
                }
            };
            let sent = req.send().await;
            self.last_call.insert(source, Instant::now());
            let resp = match sent {
                Ok(r) => r,
                Err(e) => match failed(e, &url) {
                    None => continue,
                    Some(err) => return Err(err),
                },
            };
            let status = resp.status().as_u16();
            if status == 429 {
                if rate_limited_once {
                    return Err(FetchError::RateLimited { url });
                }
                rate_limited_once = true;
                let wait = retry_after(&resp).unwrap_or(self.config.source(source).retry_wait);
                tokio::time::sleep(wait).await;
                continue;
            }
            if status != 200 && status != 404 {
                return Err(FetchError::Status { url, status });
            }
            let text = match resp.text().await {
                Ok(t) => t,
                Err(e) => match failed(e, &url) {
                    None => continue,
                    Some(err) => return Err(err),
                },
            };
            return Ok(Response {
                url,
                status,
                body: text,
                fetched: birkhoff_library::time::now(),
                from_cache: false,
                key,
                source,
                method,
                request_body: body,
            });
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

/// A server's `Retry-After` in seconds, if it gives one and it is reasonable (at most a minute:
/// a longer wait is better recorded as a skip than spent idle).
fn retry_after(resp: &reqwest::Response) -> Option<Duration> {
    let secs: u64 = resp.headers().get("retry-after")?.to_str().ok()?.trim().parse().ok()?;
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
