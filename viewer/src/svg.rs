//! Pictures as inline SVG: a spectrum on a log scale and the derivation graph. Every text in them
//! (labels, titles) goes through [`esc`]; colours come from the site's stylesheet by class.

use crate::escape::esc;
use birkhoff_checker::{
    oeis::{self, Counts},
    sizes_label, Count, Status,
};
use birkhoff_library::SpectrumRow;
use std::fmt::Write;

/// Width of the spectrum plot's coordinate system (it scales to the page).
const PLOT_W: f64 = 480.0;
/// Top of the plotting area.
const PLOT_TOP: f64 = 16.0;
/// Where a count of 1 sits (log 0).
const PLOT_ONE: f64 = 196.0;
/// Where a count of 0 (or an unknown one) sits: a baseline under the scale.
const PLOT_ZERO: f64 = 216.0;
/// Left margin, for the scale's labels.
const PLOT_LEFT: f64 = 52.0;

/// The class of a count: `exact`, `bound` (at least this many) or `unknown`, and `zero` for an
/// exact 0.
fn count_class(c: &Count) -> &'static str {
    match (c.status, c.value) {
        (Status::Exact, 0) => "exact zero",
        (Status::Exact, _) => "exact",
        (Status::AtLeast, _) => "bound",
        (Status::Unknown, _) => "unknown",
    }
}

/// The height of a count: log scale from 1 at [`PLOT_ONE`] to `10^max_log` at [`PLOT_TOP`];
/// zero and unknown counts on the baseline.
fn count_y(c: &Count, max_log: f64) -> f64 {
    if c.value == 0 {
        return PLOT_ZERO;
    }
    PLOT_ONE - (c.value as f64).log10() / max_log * (PLOT_ONE - PLOT_TOP)
}

/// `10^k` as a scale label.
fn power_label(k: u32) -> String {
    if k <= 4 {
        10u64.pow(k).to_string()
    } else {
        format!("1e{k}")
    }
}

/// A spectrum as a figure: one point per size for the counts up to isomorphism (circles) and one
/// for the labeled counts (squares), on a log scale; exact zeros and unknown counts on a baseline
/// below it, lower bounds hollow, and the points an OEIS sequence of the shipped file matches
/// ringed, the sequence linked under the plot. Each point is `class="point iso|labeled ..."`
/// with `data-size`.
pub fn spectrum(rows: &[SpectrumRow]) -> String {
    let matches = oeis::recognise(rows);
    let max = rows
        .iter()
        .flat_map(|r| [r.iso.value, r.labeled.value])
        .max()
        .unwrap_or(1)
        .max(10);
    let max_log = (max as f64).log10().ceil();
    let step = (PLOT_W - PLOT_LEFT - 8.0) / rows.len().max(1) as f64;
    let mut svg = format!("<svg class=\"spectrum\" viewBox=\"0 0 {PLOT_W} 250\" role=\"img\" aria-label=\"spectrum: models per size, log scale\" xmlns=\"http://www.w3.org/2000/svg\">");
    // The scale: a line per power of ten, at most nine labelled.
    let every = (max_log / 8.0).ceil().max(1.0) as u32;
    for k in (0..=max_log as u32).step_by(every as usize) {
        let y = PLOT_ONE - k as f64 / max_log * (PLOT_ONE - PLOT_TOP);
        let _ = write!(svg, "<line class=\"grid\" x1=\"{PLOT_LEFT}\" x2=\"{PLOT_W}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/><text class=\"scale\" x=\"{:.1}\" y=\"{:.1}\">{}</text>", PLOT_LEFT - 4.0, y + 4.0, power_label(k));
    }
    let _ = write!(svg, "<line class=\"baseline\" x1=\"{PLOT_LEFT}\" x2=\"{PLOT_W}\" y1=\"{PLOT_ZERO}\" y2=\"{PLOT_ZERO}\"/><text class=\"scale\" x=\"{:.1}\" y=\"{:.1}\">0 / ?</text>", PLOT_LEFT - 4.0, PLOT_ZERO + 4.0);
    for (i, r) in rows.iter().enumerate() {
        let x = PLOT_LEFT + step * (i as f64 + 0.5);
        let size = sizes_label(&r.sizes);
        let _ = write!(
            svg,
            "<text class=\"size\" x=\"{x:.1}\" y=\"240\">{}</text>",
            esc(&size)
        );
        for (series, count, noun) in [
            ("iso", &r.iso, "up to isomorphism"),
            ("labeled", &r.labeled, "labeled"),
        ] {
            let kind = if series == "iso" {
                Counts::Unlabeled
            } else {
                Counts::Labeled
            };
            let matched: Vec<&str> = matches
                .iter()
                .filter(|m| {
                    m.counts == kind && r.sizes.len() == 1 && m.orders.contains(&r.sizes[0])
                })
                .map(|m| m.id.as_str())
                .collect();
            let class = format!(
                "point {series} {}{}",
                count_class(count),
                if matched.is_empty() { "" } else { " oeis" }
            );
            let title = format!(
                "size {size}: {count} {noun}{}{}",
                if count.status == Status::AtLeast {
                    " (at least: search cut short)"
                } else {
                    ""
                },
                if matched.is_empty() {
                    String::new()
                } else {
                    format!(" — matches {}", matched.join(", "))
                }
            );
            let attrs = format!(
                "class=\"{class}\" data-size=\"{}\" data-count=\"{}\"{}",
                esc(&size),
                esc(&count.to_string()),
                if matched.is_empty() {
                    String::new()
                } else {
                    format!(" data-oeis=\"{}\"", esc(&matched.join(" ")))
                }
            );
            let y = count_y(count, max_log);
            if series == "iso" {
                let _ = write!(svg, "<circle {attrs} cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4.5\"><title>{}</title></circle>", x - 5.0, esc(&title));
            } else {
                let _ = write!(svg, "<rect {attrs} x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\"><title>{}</title></rect>", x + 1.0, y - 4.0, esc(&title));
            }
        }
    }
    svg.push_str("</svg>");
    let mut caption = String::from("<figcaption>● up to isomorphism, ■ labeled, log scale; hollow: at least (search cut short); on the bottom line: none (0) or unknown (?)");
    for m in &matches {
        let _ = write!(
            caption,
            "<br>Ringed: <a class=\"oeis\" href=\"https://oeis.org/{id}\">{id}</a> {}",
            esc(&m.describe()),
            id = esc(&m.id)
        );
    }
    caption.push_str("</figcaption>");
    format!("<figure class=\"plot\">{svg}{caption}</figure>")
}

/// A node of a drawn graph.
pub struct Node {
    /// The label in the box (shortened to fit; the whole of it is the node's tooltip).
    pub label: String,
    /// The page it links to, if any (a relative URL).
    pub href: Option<String>,
    /// Its row, from 0 at the top.
    pub layer: usize,
}

/// Width of a node's box, at least: boxes widen to their longest label, which is never cut.
const NODE_W: f64 = 170.0;
/// Width of a label's character, generously (11px system-ui; capitals are the widest).
const CHAR_W: f64 = 7.5;
/// Height of a node's box.
const NODE_H: f64 = 28.0;
/// Horizontal space between boxes.
const GAP_X: f64 = 16.0;
/// Vertical space between layers.
const GAP_Y: f64 = 56.0;

/// A layered drawing named `what` for screen readers: each layer a row of boxes, centred, edges
/// `(from, to, label)` as arrows from a box's bottom to another's top. Nodes are `class="node"`
/// groups, linked when they have an `href`.
pub fn layered(what: &str, nodes: &[Node], edges: &[(usize, usize, String)]) -> String {
    // Every box as wide as the longest label needs (issue 55: labels were cut to 22 characters,
    // so that most read "SemigroupWithUnipoten…").
    let node_w = nodes
        .iter()
        .map(|n| n.label.chars().count() as f64 * CHAR_W + 16.0)
        .fold(NODE_W, f64::max)
        .ceil();
    let layers = nodes.iter().map(|n| n.layer + 1).max().unwrap_or(0);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for (i, n) in nodes.iter().enumerate() {
        rows[n.layer].push(i);
    }
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0) as f64;
    let width = (widest * (node_w + GAP_X) + GAP_X).max(node_w + 2.0 * GAP_X);
    let height = layers as f64 * (NODE_H + GAP_Y) + GAP_X;
    let mut at = vec![(0.0, 0.0); nodes.len()];
    for (l, row) in rows.iter().enumerate() {
        let left = (width - row.len() as f64 * (node_w + GAP_X) + GAP_X) / 2.0;
        for (k, &i) in row.iter().enumerate() {
            at[i] = (
                left + k as f64 * (node_w + GAP_X),
                GAP_X + l as f64 * (NODE_H + GAP_Y),
            );
        }
    }
    let mut svg = format!("<svg class=\"graph\" viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" role=\"img\" aria-label=\"{}\" xmlns=\"http://www.w3.org/2000/svg\"><defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>", esc(what));
    for (from, to, label) in edges {
        let ((x1, y1), (x2, y2)) = (at[*from], at[*to]);
        let _ = write!(svg, "<line class=\"edge\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{y2:.1}\" marker-end=\"url(#arrow)\"><title>{}</title></line>", x1 + node_w / 2.0, y1 + NODE_H, x2 + node_w / 2.0, esc(label));
    }
    for (n, (x, y)) in nodes.iter().zip(&at) {
        let body = format!("<title>{}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{node_w}\" height=\"{NODE_H}\" rx=\"4\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>", esc(&n.label), x + node_w / 2.0, y + NODE_H / 2.0 + 4.0, esc(&n.label));
        match &n.href {
            Some(href) => {
                let _ = write!(
                    svg,
                    "<a class=\"node linked\" href=\"{}\">{body}</a>",
                    esc(href)
                );
            }
            None => {
                let _ = write!(svg, "<g class=\"node\">{body}</g>");
            }
        }
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: u32, iso: Count, labeled: Count) -> SpectrumRow {
        SpectrumRow {
            sizes: vec![n],
            iso,
            labeled,
        }
    }

    fn exact(value: u128) -> Count {
        Count {
            value,
            status: Status::Exact,
        }
    }

    #[test]
    fn one_point_per_size_and_series_with_bounds_zeros_and_oeis_matches_marked() {
        // Magmas: every binary operation, labeled n^(n²) (A002489); the size-6 iso count cut short.
        let iso = [1, 10, 3330, 178_981_952, 2_483_527_537_094_825];
        let mut rows: Vec<SpectrumRow> = (1..=5u32)
            .map(|n| row(n, exact(iso[n as usize - 1]), exact((n as u128).pow(n * n))))
            .collect();
        rows.push(row(
            6,
            Count {
                value: 1000,
                status: Status::AtLeast,
            },
            exact(6u128.pow(36)),
        ));
        let svg = spectrum(&rows);
        assert_eq!(svg.matches("<circle class=\"point iso").count(), 6);
        assert_eq!(svg.matches("<rect class=\"point labeled").count(), 6);
        assert_eq!(svg.matches("class=\"point iso bound\"").count(), 1, "{svg}");
        assert_eq!(svg.matches("data-oeis=\"A002489\"").count(), 6, "{svg}");
        assert!(svg.contains("href=\"https://oeis.org/A002489\""), "{svg}");
        // Log scale: 10^28 at the top, 1 at the bottom of the scale, a point per decade between.
        assert!(
            svg.contains(">1e28</text>") || svg.contains(">1e27</text>"),
            "{svg}"
        );
        let small = spectrum(&[
            row(1, exact(0), exact(0)),
            row(2, exact(1), exact(2)),
            row(
                3,
                Count {
                    value: 0,
                    status: Status::Unknown,
                },
                Count {
                    value: 0,
                    status: Status::Unknown,
                },
            ),
        ]);
        assert_eq!(
            small.matches(&format!("cy=\"{PLOT_ZERO:.1}\"")).count(),
            2,
            "zero and unknown on the baseline: {small}"
        );
        assert_eq!(small.matches("class=\"point iso exact zero\"").count(), 1);
        assert_eq!(small.matches("class=\"point labeled unknown\"").count(), 1);
    }

    #[test]
    fn graph_labels_and_links_are_escaped() {
        let nodes = [
            Node {
                label: "<script>x</script>".into(),
                href: Some("a\".html".into()),
                layer: 0,
            },
            Node {
                label: "child".into(),
                href: None,
                layer: 1,
            },
        ];
        let svg = layered("test", &nodes, &[(0, 1, "<b>".into())]);
        assert!(
            !svg.contains("<script>")
                && !svg.contains("<b>")
                && svg.contains("href=\"a&quot;.html\""),
            "{svg}"
        );
        assert_eq!(svg.matches("class=\"node").count(), 2);
    }

    #[test]
    fn graph_labels_are_whole_and_their_boxes_fit_them() {
        let long = "SemigroupWithUnipotentWithXyxWithoutUnipotent";
        let nodes = [
            Node {
                label: long.into(),
                href: None,
                layer: 0,
            },
            Node {
                label: "Semigroup".into(),
                href: None,
                layer: 1,
            },
        ];
        let svg = layered("test", &nodes, &[]);
        assert!(
            svg.contains(&format!(">{long}</text>")) && !svg.contains('…'),
            "{svg}"
        );
        let width: f64 = svg
            .split("<rect ")
            .nth(1)
            .unwrap()
            .split("width=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            width >= long.len() as f64 * CHAR_W,
            "a box of {width} for {} characters",
            long.len()
        );
    }
}
