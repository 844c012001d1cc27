//! A model's tables as coloured heatmaps, read from the engine's structure JSON
//! (`Structure::to_json`: `sizes`, `functions` and `relations`, each table nested by argument).

use crate::escape::esc;
use serde_json::Value;
use std::fmt::Write;

/// How many colours the stylesheet defines (`c0` … `c11`); larger values reuse them.
pub const COLOURS: u64 = 12;

/// The table of one symbol: constants as `c = 2`, unary tables as one row, binary ones as an
/// n×m heatmap (`table.heatmap`, one `td.cell` per entry, coloured by value, the value as text),
/// and higher arities named only (the JSON record has them).
fn symbol(name: &str, table: &Value, relation: bool) -> String {
    let value_cell = |v: &Value| {
        let n = v.as_u64().unwrap_or(0);
        let text = if relation {
            if n == 1 {
                "✓".to_string()
            } else {
                "·".to_string()
            }
        } else {
            n.to_string()
        };
        format!("<td class=\"cell c{}\">{}</td>", n % COLOURS, esc(&text))
    };
    match table {
        Value::Number(n) => format!(
            "<p class=\"constant\"><code>{} = {}</code></p>",
            esc(name),
            esc(&n.to_string())
        ),
        Value::Array(rows)
            if rows.iter().all(Value::is_array)
                && rows
                    .iter()
                    .flat_map(|r| r.as_array().into_iter().flatten())
                    .all(Value::is_array)
                && !rows.is_empty() =>
        {
            format!("<p class=\"note\"><code>{}</code>: a table of arity 3 or more, in the record's JSON.</p>", esc(name))
        }
        Value::Array(rows) if rows.iter().all(Value::is_array) => {
            let width = rows.first().and_then(Value::as_array).map_or(0, Vec::len);
            let mut out = format!("<div class=\"scroll\"><table class=\"heatmap\" data-symbol=\"{}\" data-rows=\"{}\" data-cols=\"{width}\"><caption><code>{}</code></caption><thead><tr><th scope=\"col\"><code>{}</code></th>", esc(name), rows.len(), esc(name), esc(name));
            for j in 0..width {
                let _ = write!(out, "<th scope=\"col\">{j}</th>");
            }
            out.push_str("</tr></thead><tbody>");
            for (i, row) in rows.iter().enumerate() {
                let _ = write!(out, "<tr><th scope=\"row\">{i}</th>");
                for v in row.as_array().into_iter().flatten() {
                    out += &value_cell(v);
                }
                out.push_str("</tr>");
            }
            out.push_str("</tbody></table></div>");
            out
        }
        Value::Array(row) => {
            let mut out = format!("<div class=\"scroll\"><table class=\"unary\" data-symbol=\"{}\"><caption><code>{}</code></caption><thead><tr><th scope=\"col\">x</th>", esc(name), esc(name));
            for j in 0..row.len() {
                let _ = write!(out, "<th scope=\"col\">{j}</th>");
            }
            let _ = write!(
                out,
                "</tr></thead><tbody><tr><th scope=\"row\"><code>{}(x)</code></th>",
                esc(name)
            );
            for v in row {
                out += &value_cell(v);
            }
            out.push_str("</tr></tbody></table></div>");
            out
        }
        other => format!(
            "<p class=\"note\"><code>{}</code>: {}</p>",
            esc(name),
            esc(&other.to_string())
        ),
    }
}

/// Every table of a structure, functions first, then relations; the sizes as a heading line.
pub fn structure(s: &Value) -> String {
    let sizes: Vec<String> = s
        .get("sizes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(sort, n)| format!("{} = {}", esc(sort), esc(&n.to_string())))
        .collect();
    let mut out = format!(
        "<div class=\"model\"><p class=\"sizes\">Sizes: {}</p>",
        sizes.join(", ")
    );
    for (field, relation) in [("functions", false), ("relations", true)] {
        for (name, table) in s
            .get(field)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            out += &symbol(name, table, relation);
        }
    }
    out.push_str("</div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_binary_table_has_n_by_n_cells_and_names_are_escaped() {
        let html = structure(
            &json!({"sizes": {"S": 3}, "functions": {"<b>": [[0, 1, 2], [1, 2, 0], [2, 0, 1]], "e": 0, "inv": [0, 2, 1]}, "relations": {}}),
        );
        assert_eq!(html.matches("<td class=\"cell").count(), 9 + 3);
        assert!(
            html.contains("&lt;b&gt;") && !html.contains("<b>"),
            "{html}"
        );
        assert!(html.contains("data-rows=\"3\" data-cols=\"3\""), "{html}");
    }
}
