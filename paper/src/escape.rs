//! LaTeX escaping: the one way any text that came from a user, a language model or the library
//! reaches the paper. pdflatex must never fail on such text, so every character has a safe
//! rendering: the ten characters special to TeX are escaped, the symbols Birkhoff prints
//! (operators, connectives, Greek letters) become math commands, accented Latin letters pass
//! through to `inputenc`/T1 (which define them), and anything else is shown as its code point.

/// Text for running prose (LaTeX text mode): every special escaped, every character safe. A
/// Markdown code span (`` `x * y` ``, as names and notes from the agent quote symbols and laws)
/// is set as mathematics without its backticks; a backtick without a partner is shown as one.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while let Some(open) = rest.find('`') {
        for c in rest[..open].chars() {
            push_text_char(&mut out, c);
        }
        let after = &rest[open + 1..];
        match after
            .find('`')
            .filter(|&close| !after[..close].trim().is_empty())
        {
            Some(close) => {
                let quoted = crate::math::Symbols::without_theory().math(after[..close].trim());
                out.push_str("\\ensuremath{");
                out.push_str(&quoted);
                out.push('}');
                rest = &after[close + 1..];
            }
            None => {
                push_text_char(&mut out, '`');
                rest = after;
            }
        }
    }
    for c in rest.chars() {
        push_text_char(&mut out, c);
    }
    out
}

/// One character in text mode.
fn push_text_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\textbackslash{}"),
        '{' => out.push_str("\\{"),
        '}' => out.push_str("\\}"),
        '$' => out.push_str("\\$"),
        '&' => out.push_str("\\&"),
        '#' => out.push_str("\\#"),
        '^' => out.push_str("\\textasciicircum{}"),
        '_' => out.push_str("\\_"),
        '%' => out.push_str("\\%"),
        '~' => out.push_str("\\textasciitilde{}"),
        // T1 has these glyphs, but `<`, `>` and `|` are safer spelled out in any encoding, and a
        // bare `"` or `` ` `` would start a ligature.
        '<' => out.push_str("\\textless{}"),
        '>' => out.push_str("\\textgreater{}"),
        '|' => out.push_str("\\textbar{}"),
        '"' => out.push_str("\\textquotedbl{}"),
        '`' => out.push_str("\\textasciigrave{}"),
        // Line breaks and tabs in a name would end a paragraph or a table row: a space instead.
        '\n' | '\r' | '\t' => out.push(' '),
        c if c.is_ascii_graphic() || c == ' ' => out.push(c),
        c => match math_symbol(c) {
            Some(m) => {
                out.push_str("\\ensuremath{");
                out.push_str(m);
                out.push('}');
            }
            None if is_t1_letter(c) => out.push(c),
            None => fallback(out, c),
        },
    }
}

/// A character that neither T1 nor the symbol table knows: shown as its code point, so that it
/// is visible in the PDF (and a reader can look it up) without breaking the compile.
fn fallback(out: &mut String, c: char) {
    if c.is_control() {
        return;
    }
    out.push_str(&format!("\\textsf{{[U+{:04X}]}}", c as u32));
}

/// Letters of Latin-1 and Latin Extended-A that `inputenc`'s utf8 defines for the T1 font
/// encoding (`ü`, `é`, `ß`, `ł`, ...; the list of `t1enc.dfu`). T1 lacks `Ħ ħ ĸ Ŀ ŀ ŉ Ŧ ŧ ſ`,
/// and pdflatex stops at an undefined one, so those take the fallback. `×` and `÷` are
/// symbols, handled by [`math_symbol`] first.
fn is_t1_letter(c: char) -> bool {
    matches!(c, '\u{C0}'..='\u{17E}')
        && !matches!(
            c,
            '\u{D7}'
                | '\u{F7}'
                | '\u{126}'
                | '\u{127}'
                | '\u{138}'
                | '\u{13F}'
                | '\u{140}'
                | '\u{149}'
                | '\u{166}'
                | '\u{167}'
        )
}

/// The math-mode command for a symbol Birkhoff (or a user) may write: operators, connectives,
/// relations, arrows, Greek letters.
pub fn math_symbol(c: char) -> Option<&'static str> {
    Some(match c {
        '·' | '⋅' => "\\cdot",
        '∗' => "\\ast",
        '∘' => "\\circ",
        '×' => "\\times",
        '÷' => "\\div",
        '⊕' => "\\oplus",
        '⊗' => "\\otimes",
        '⊙' => "\\odot",
        '⋆' | '★' => "\\star",
        '•' => "\\bullet",
        '⁻' => "^{-}",
        '¹' => "^{1}",
        '²' => "^{2}",
        '³' => "^{3}",
        '→' => "\\rightarrow",
        '←' => "\\leftarrow",
        '↔' => "\\leftrightarrow",
        '↦' => "\\mapsto",
        '↑' => "\\uparrow",
        '↓' => "\\downarrow",
        '⇒' => "\\Rightarrow",
        '⇔' => "\\Leftrightarrow",
        '∧' => "\\land",
        '∨' => "\\lor",
        '¬' => "\\lnot",
        '∀' => "\\forall",
        '∃' => "\\exists",
        '≤' => "\\le",
        '≥' => "\\ge",
        '≠' => "\\neq",
        '≡' => "\\equiv",
        '≈' => "\\approx",
        '∈' => "\\in",
        '⊆' => "\\subseteq",
        '⊂' => "\\subset",
        '∩' => "\\cap",
        '∪' => "\\cup",
        '⊤' => "\\top",
        '⊥' => "\\bot",
        '∅' => "\\emptyset",
        '∞' => "\\infty",
        '∣' => "\\mid",
        '⋀' => "\\bigwedge",
        '⋁' => "\\bigvee",
        '⊢' => "\\vdash",
        '⊨' => "\\models",
        '…' => "\\ldots",
        '′' => "'",
        'α' => "\\alpha",
        'β' => "\\beta",
        'γ' => "\\gamma",
        'δ' => "\\delta",
        'ε' | 'ϵ' => "\\epsilon",
        'ζ' => "\\zeta",
        'η' => "\\eta",
        'θ' => "\\theta",
        'ι' => "\\iota",
        'κ' => "\\kappa",
        'λ' => "\\lambda",
        'μ' => "\\mu",
        'ν' => "\\nu",
        'ξ' => "\\xi",
        'ο' => "o",
        'π' => "\\pi",
        'ρ' => "\\rho",
        'σ' | 'ς' => "\\sigma",
        'τ' => "\\tau",
        'υ' => "\\upsilon",
        'φ' | 'ϕ' => "\\phi",
        'χ' => "\\chi",
        'ψ' => "\\psi",
        'ω' => "\\omega",
        'Α' => "A",
        'Β' => "B",
        'Γ' => "\\Gamma",
        'Δ' => "\\Delta",
        'Ε' => "E",
        'Ζ' => "Z",
        'Η' => "H",
        'Θ' => "\\Theta",
        'Ι' => "I",
        'Κ' => "K",
        'Λ' => "\\Lambda",
        'Μ' => "M",
        'Ν' => "N",
        'Ξ' => "\\Xi",
        'Ο' => "O",
        'Π' => "\\Pi",
        'Ρ' => "P",
        'Σ' => "\\Sigma",
        'Τ' => "T",
        'Υ' => "\\Upsilon",
        'Φ' => "\\Phi",
        'Χ' => "X",
        'Ψ' => "\\Psi",
        'Ω' => "\\Omega",
        _ => return None,
    })
}

/// A name inside math mode (a symbol, a variable, a sort): letters and digits as they are,
/// anything else through [`text`] inside `\textnormal`, which is valid in math mode.
/// `upright` sets names of several letters upright (function symbols, `\mathrm`); variables are
/// italic (`\mathit`).
pub fn math_name(name: &str, upright: bool) -> String {
    let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric());
    if plain && name.chars().count() == 1 {
        return name.to_string();
    }
    if plain {
        return format!("\\{}{{{name}}}", if upright { "mathrm" } else { "mathit" });
    }
    // A prime at the end (`z'`) is a prime in mathematics too.
    if let Some(stem) = name
        .strip_suffix('\'')
        .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric()))
    {
        return format!("{}'", math_name(stem, upright));
    }
    format!(
        "\\textnormal{{{}{}}}",
        if upright { "" } else { "\\itshape " },
        text(name)
    )
}

/// An operator symbol in math mode (`*`, `\`, `<=`, `∘`, or any run of operator characters a
/// theory declares), as a binary operator or relation: the common ones as their mathematical
/// symbols, anything else character by character, escaped.
pub fn math_operator(op: &str) -> String {
    if let Some(k) = known_operator(op) {
        return k.to_string();
    }
    let mut out = String::new();
    for c in op.chars() {
        match math_symbol(c) {
            Some(m) => {
                out.push_str(m);
                out.push(' ');
            }
            None => {
                out.push_str("\\textnormal{");
                push_text_char(&mut out, c);
                out.push('}');
            }
        }
    }
    format!("\\mathbin{{{}}}", out.trim_end())
}

/// The mathematical symbol of an operator Birkhoff's theories commonly declare (`v` and `^` are
/// the lattices' join and meet).
pub fn known_operator(op: &str) -> Option<&'static str> {
    match op {
        "*" => Some("\\cdot"),
        "\\" => Some("\\mathbin{\\backslash}"),
        "/" => Some("\\mathbin{/}"),
        "+" => Some("+"),
        "-" => Some("-"),
        "=" => Some("="),
        "!=" => Some("\\neq"),
        "<=" => Some("\\le"),
        ">=" => Some("\\ge"),
        "<" => Some("<"),
        ">" => Some(">"),
        "&" => Some("\\land"),
        "|" => Some("\\lor"),
        "~" => Some("\\lnot"),
        "->" => Some("\\rightarrow"),
        "<->" => Some("\\leftrightarrow"),
        "**" => Some("\\ast"),
        "^" => Some("\\wedge"),
        "v" => Some("\\vee"),
        "⁻¹" => Some("^{-1}"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specials_are_escaped() {
        assert_eq!(
            text(r"a_b & 50% #1 $x$ \ {y} ^ ~"),
            r"a\_b \& 50\% \#1 \$x\$ \textbackslash{} \{y\} \textasciicircum{} \textasciitilde{}"
        );
    }

    #[test]
    fn a_code_span_is_mathematics_without_its_backticks() {
        assert_eq!(
            text("Semigroup with `*` unipotent"),
            "Semigroup with \\ensuremath{\\cdot} unipotent"
        );
        assert_eq!(
            text("adds `x * y = y * x`, keeps `inv`"),
            "adds \\ensuremath{x \\cdot y = y \\cdot x}, keeps \\ensuremath{\\mathit{inv}}"
        );
        // A lone backtick, or an empty pair, is no code span: shown, never dropped.
        assert_eq!(text("it`s"), "it\\textasciigrave{}s");
        assert_eq!(text("a `` b"), "a \\textasciigrave{}\\textasciigrave{} b");
    }

    #[test]
    fn unicode_is_kept_or_made_safe() {
        assert_eq!(text("ü∘α"), "ü\\ensuremath{\\circ}\\ensuremath{\\alpha}");
        assert_eq!(text("😀"), "\\textsf{[U+1F600]}");
    }
}
