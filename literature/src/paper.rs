//! Papers as the sources describe them, and the comparisons the gate and deduplication make:
//! normalized titles, authors' last names, years within one.

use serde::{Deserialize, Serialize};

/// Where a paper's metadata came from, or who proposed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The arXiv API.
    Arxiv,
    /// The Semantic Scholar Graph API.
    SemanticScholar,
    /// The zbMATH Open API.
    Zbmath,
    /// A language model's reply (never trusted: it goes through the gate like any candidate).
    Llm,
    /// A reference written in a catalogue entry.
    Catalogue,
    /// A reference given by the user.
    User,
}

impl Origin {
    /// The name used in LITERATURE.md and in `--json`.
    pub fn label(self) -> &'static str {
        match self {
            Origin::Arxiv => "arXiv",
            Origin::SemanticScholar => "Semantic Scholar",
            Origin::Zbmath => "zbMATH Open",
            Origin::Llm => "proposed by the language model",
            Origin::Catalogue => "catalogue entry",
            Origin::User => "given by the user",
        }
    }
}

/// A paper's identifiers; any of them lets the gate look the paper up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ids {
    /// arXiv identifier without version (`2301.12345`, `math/0601001`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arxiv: Option<String>,
    /// DOI, lower-cased, without `https://doi.org/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// Semantic Scholar paperId.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub s2: Option<String>,
    /// zbMATH Open document id (the number, as text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zbmath: Option<String>,
}

impl Ids {
    /// Whether no identifier is known.
    pub fn is_empty(&self) -> bool {
        self.arxiv.is_none() && self.doi.is_none() && self.s2.is_none() && self.zbmath.is_none()
    }

    /// Fills in the identifiers `other` knows and `self` does not.
    pub fn merge(&mut self, other: &Ids) {
        for (mine, theirs) in [
            (&mut self.arxiv, &other.arxiv),
            (&mut self.doi, &other.doi),
            (&mut self.s2, &other.s2),
            (&mut self.zbmath, &other.zbmath),
        ] {
            if mine.is_none() {
                mine.clone_from(theirs);
            }
        }
    }
}

/// One paper's metadata.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paper {
    /// The title as the source gives it (whitespace collapsed).
    pub title: String,
    /// Authors as the source writes them ("Garrett Birkhoff" or "Birkhoff, Garrett").
    pub authors: Vec<String>,
    /// Year of publication (arXiv: of the first version).
    pub year: Option<i32>,
    /// The abstract, when the source has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstract_text: Option<String>,
    /// Identifiers.
    #[serde(default)]
    pub ids: Ids,
    /// Who found or proposed it (several sources after deduplication).
    pub origins: Vec<Origin>,
}

impl Paper {
    /// A paper with a title, authors and year from one origin.
    pub fn new(title: &str, authors: Vec<String>, year: Option<i32>, origin: Origin) -> Paper {
        Paper {
            title: collapse_ws(title),
            authors: authors
                .iter()
                .map(|a| collapse_ws(a))
                .filter(|a| !a.is_empty())
                .collect(),
            year,
            abstract_text: None,
            ids: Ids::default(),
            origins: vec![origin],
        }
    }

    /// Whether `self` and `other` are the same paper by the protocol's rule: same normalized
    /// title, a common author last name, years within one (an unknown year on either side
    /// does not separate them).
    pub fn same_as(&self, other: &Paper) -> bool {
        self.mismatch(other).is_none()
    }

    /// Why `found` (what a lookup returned) is not the paper `self` claims to be, or `None` when
    /// it is. This is the gate's comparison: title after normalization, at least one author last
    /// name, year within one.
    pub fn mismatch(&self, found: &Paper) -> Option<String> {
        if normalize_title(&self.title) != normalize_title(&found.title) {
            return Some(format!(
                "title differs: expected \"{}\", the source has \"{}\"",
                self.title, found.title
            ));
        }
        let mine: Vec<String> = self.authors.iter().map(|a| last_name(a)).collect();
        let theirs: Vec<String> = found.authors.iter().map(|a| last_name(a)).collect();
        if !mine.iter().any(|m| !m.is_empty() && theirs.contains(m)) {
            return Some(format!(
                "no author last name in common: expected {}, the source has {}",
                list_or_none(&self.authors),
                list_or_none(&found.authors)
            ));
        }
        match (self.year, found.year) {
            (Some(a), Some(b)) if (a - b).abs() > 1 => {
                Some(format!("year differs: expected {a}, the source has {b}"))
            }
            _ => None,
        }
    }

    /// Merges a duplicate found elsewhere: identifiers, origins, a missing abstract or year.
    pub fn absorb(&mut self, other: &Paper) {
        self.ids.merge(&other.ids);
        for o in &other.origins {
            if !self.origins.contains(o) {
                self.origins.push(*o);
            }
        }
        if self.abstract_text.is_none() {
            self.abstract_text.clone_from(&other.abstract_text);
        }
        if self.year.is_none() {
            self.year = other.year;
        }
    }

    /// The authors' last names, as the gate compares them.
    pub fn last_names(&self) -> Vec<String> {
        self.authors.iter().map(|a| last_name(a)).collect()
    }
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "no authors".to_string()
    } else {
        v.join(", ")
    }
}

/// Collapses runs of whitespace (sources wrap titles over lines) and trims.
pub fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Folds the accented Latin letters common in author names and titles to ASCII, so that
/// "Gödel" and "Godel" compare equal.
fn fold(c: char) -> Option<char> {
    let folded = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' | 'đ' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' => 'i',
        'ł' | 'ľ' | 'ĺ' => 'l',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ŕ' | 'ř' => 'r',
        'ś' | 'š' | 'ş' | 'ș' => 's',
        'ß' => 's',
        'ť' | 'ţ' | 'ț' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        c if c.is_ascii_alphanumeric() => c,
        c if c.is_alphanumeric() => c,
        _ => return None,
    };
    Some(folded)
}

/// A title reduced to what identifies it: lower case, accents folded, LaTeX markup and
/// punctuation removed, words separated by single spaces. "On the Structure of $n$-Quasigroups."
/// and "On the structure of n-quasigroups" normalize to the same text.
pub fn normalize_title(title: &str) -> String {
    let lower = title.to_lowercase();
    // LaTeX commands such as \mathbb or \emph carry no words of the title.
    let mut cleaned = String::with_capacity(lower.len());
    let mut chars = lower.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            while chars.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                chars.next();
            }
            cleaned.push(' ');
        } else {
            cleaned.push(fold(c).unwrap_or(' '));
        }
    }
    collapse_ws(&cleaned)
}

/// An author's last name, normalized: "Birkhoff, Garrett" and "Garrett Birkhoff" both give
/// "birkhoff"; "G. Birkhoff" too.
pub fn last_name(author: &str) -> String {
    let name = match author.split_once(',') {
        Some((last, _)) => last.trim(),
        None => author.split_whitespace().last().unwrap_or(""),
    };
    name.to_lowercase().chars().filter_map(fold).collect()
}

/// Lower-cases a DOI and strips the resolver prefix the sources sometimes keep.
pub fn normalize_doi(doi: &str) -> String {
    let d = doi.trim();
    let d = d
        .strip_prefix("https://doi.org/")
        .or_else(|| d.strip_prefix("http://dx.doi.org/"))
        .unwrap_or(d);
    d.strip_prefix("doi:").unwrap_or(d).to_lowercase()
}

/// Removes the version suffix of an arXiv identifier (`2301.12345v2` → `2301.12345`).
pub fn strip_arxiv_version(id: &str) -> String {
    let id = id.trim();
    if let Some(pos) = id.rfind('v') {
        let (head, tail) = id.split_at(pos);
        if !head.is_empty() && tail.len() > 1 && tail[1..].chars().all(|c| c.is_ascii_digit()) {
            return head.to_string();
        }
    }
    id.to_string()
}

/// Whether `id` has the form of an arXiv identifier, without its version: `2301.12345` (since
/// 2007: four digits, a dot, four or five digits) or `math/0601001` (before: an archive, an
/// optional subject class, a slash, seven digits). Only such an identifier is sent to `id_list`.
pub fn is_arxiv_id(id: &str) -> bool {
    let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    if let Some((archive, number)) = id.split_once('/') {
        let archive = archive.split_once('.').map_or(archive, |(a, class)| {
            if class.len() == 2 && class.bytes().all(|b| b.is_ascii_uppercase()) {
                a
            } else {
                ""
            }
        });
        return !archive.is_empty()
            && archive.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            && digits(number, 7..=7);
    }
    id.split_once('.')
        .is_some_and(|(yymm, number)| digits(yymm, 4..=4) && digits(number, 4..=5))
}

/// Whether `doi` (normalized by [`normalize_doi`]) has the form of a DOI: `10.`, a registrant
/// code of digits and dots, a slash and a suffix of printable ASCII without spaces, at most 200
/// characters in all.
pub fn is_doi(doi: &str) -> bool {
    let Some((prefix, suffix)) = doi.split_once('/') else {
        return false;
    };
    let registrant = prefix.strip_prefix("10.").unwrap_or("");
    doi.len() <= 200
        && !registrant.is_empty()
        && registrant.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !suffix.is_empty()
        && suffix.bytes().all(|b| b.is_ascii_graphic())
}

/// Whether `id` has the form of a zbMATH Open document id: a number of at most ten digits.
pub fn is_zbmath_id(id: &str) -> bool {
    (1..=10).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_digit())
}

/// Merges papers that are the same by [`Paper::same_as`], keeping the first of each and
/// absorbing the others' identifiers and origins.
pub fn dedup(papers: Vec<Paper>) -> Vec<Paper> {
    let mut out: Vec<Paper> = Vec::new();
    for p in papers {
        match out.iter_mut().find(|q| q.same_as(&p) || shares_id(q, &p)) {
            Some(q) => q.absorb(&p),
            None => out.push(p),
        }
    }
    out
}

fn shares_id(a: &Paper, b: &Paper) -> bool {
    let eq = |x: &Option<String>, y: &Option<String>| x.is_some() && x == y;
    eq(&a.ids.arxiv, &b.ids.arxiv)
        || eq(&a.ids.doi, &b.ids.doi)
        || eq(&a.ids.zbmath, &b.ids.zbmath)
        || eq(&a.ids.s2, &b.ids.s2)
}
