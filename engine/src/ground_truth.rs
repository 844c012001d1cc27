//! The ground-truth table shipped with Birkhoff (tests/data/ground_truth.tsv): known numbers of
//! finite models of classical theories, per size, with each theory's symbols and axioms in LADR
//! form ([`crate::parse::theory_from_ladr_row`] reads them). The one reader of the table: the
//! scorer's reference spectra and the tests of every crate read it through [`rows`].

/// The table, compiled in: `#` lines are comments, the first other line names the columns.
const TABLE: &str = include_str!("../../tests/data/ground_truth.tsv");

/// One row of the table: one theory at one size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The theory's name in the table (several rows, one per size, share it).
    pub theory: String,
    /// The size.
    pub n: u32,
    /// Models up to isomorphism, when known.
    pub iso: Option<u128>,
    /// Labeled models (all tables on `{0..n-1}`), when known.
    pub labeled: Option<u128>,
    /// The OEIS sequence of the iso counts, as the table names it (may be empty).
    pub oeis_iso: String,
    /// The function symbols, `name/arity` separated by `; `.
    pub functions: String,
    /// The relation symbols, in the same form.
    pub relations: String,
    /// The axioms: LADR formulas, each ending with a period.
    pub axioms: String,
}

/// Every row of the table, in file order.
///
/// ```
/// let rows = birkhoff_engine::ground_truth::rows();
/// let groups = rows.iter().find(|r| r.theory == "group" && r.n == 4).unwrap();
/// assert_eq!(groups.iso, Some(2));
/// ```
pub fn rows() -> Vec<Row> {
    let mut lines = TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let header: Vec<&str> = lines
        .next()
        .expect("the table has a header")
        .split('\t')
        .collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|c| *c == name)
            .unwrap_or_else(|| panic!("the ground-truth table has no column `{name}`"))
    };
    let [theory, n, iso, labeled, oeis_iso, functions, relations, axioms] = [
        "theory",
        "n",
        "iso",
        "labeled",
        "oeis_iso",
        "functions",
        "relations",
        "axioms",
    ]
    .map(column);
    lines
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let col = |i: usize| cols.get(i).copied().unwrap_or("").trim();
            let count = |i: usize| {
                Some(col(i)).filter(|s| !s.is_empty()).map(|s| {
                    s.parse::<u128>()
                        .unwrap_or_else(|e| panic!("bad number `{s}` in `{line}`: {e}"))
                })
            };
            Row {
                theory: col(theory).to_string(),
                n: col(n)
                    .parse()
                    .unwrap_or_else(|e| panic!("bad size in `{line}`: {e}")),
                iso: count(iso),
                labeled: count(labeled),
                oeis_iso: col(oeis_iso).to_string(),
                functions: col(functions).to_string(),
                relations: col(relations).to_string(),
                axioms: col(axioms).to_string(),
            }
        })
        .collect()
}
