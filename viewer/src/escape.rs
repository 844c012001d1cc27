//! The one escape function: every text that goes into a page, as element text, as an attribute
//! value or as SVG text, passes through [`esc`]. Together with the pages' Content-Security-Policy
//! (scripts only from the site's own file, none inline) a name such as
//! `<script>alert(1)</script>` reads as text and runs nothing.

/// `s` with `& < > " '` replaced by character references, and control characters other than
/// line breaks and tabs dropped: safe as element text and inside a double- or single-quoted
/// attribute value.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn markup_and_quotes_become_text() {
        assert_eq!(
            esc("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(
            esc("\"><img src=x onerror='a'>"),
            "&quot;&gt;&lt;img src=x onerror=&#39;a&#39;&gt;"
        );
        assert_eq!(esc("a & b\u{7}\n"), "a &amp; b\n");
    }
}
