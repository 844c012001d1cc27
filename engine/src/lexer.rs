//! Tokens of the theory language. The lexer runs on demand from the parser, because which runs of
//! operator characters form one token depends on the symbols declared so far (`**`, `<=`, `\`).

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name: letters, digits, `_` and `'`, starting with a letter or `_`; also `$T`, `$F`.
    Ident(String),
    /// A run of digits.
    Number(String),
    /// A string literal, unescaped.
    Str(String),
    /// An operator or punctuation: `(`, `)`, `,`, `:`, `.`, or a run of operator characters.
    Op(String),
    /// End of input.
    Eof,
}

/// A token with its byte span in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

impl Token {
    /// Width in characters, for carets.
    pub fn width(&self, src: &str) -> usize {
        src[self.start..self.end].chars().count().max(1)
    }
}

/// Operators every theory knows, longest first so that greedy matching works.
pub const BUILTIN_OPS: &[&str] = &[
    "<->", "->", "!=", "=", "&", "|", "~", "-", "¬", "∧", "∨", "→", "↔", "≠", "∀", "∃",
];

/// Characters that end an operator run: punctuation with a meaning of its own.
fn is_punct(c: char) -> bool {
    matches!(
        c,
        '(' | ')' | ',' | ':' | '.' | '"' | '#' | '%' | '[' | ']' | '{' | '}' | ';'
    )
}

/// Whether `c` may appear in an operator symbol.
pub fn is_op_char(c: char) -> bool {
    !c.is_alphanumeric() && !c.is_whitespace() && !is_punct(c) && c != '_' && c != '\'' && c != '$'
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

/// A cursor over source text that yields one token at a time.
pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// Whether `#` starts a comment (Birkhoff's format) or is a token (LADR's `# label(...)`).
    pub hash_comments: bool,
    /// Whether `'` is a token of its own, LADR's postfix operator (`x'`), rather than a character
    /// of names (Birkhoff's variables `z'`).
    pub postfix_prime: bool,
}

/// A lexical error: byte offset and message.
pub type LexError = (usize, String);

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src,
            pos: 0,
            hash_comments: true,
            postfix_prime: false,
        }
    }

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves to byte offset `pos` (a value returned by [`Lexer::pos`]).
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos
    }

    fn peek_char(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn skip_trivia(&mut self) {
        loop {
            let rest = &self.src[self.pos..];
            let Some(c) = rest.chars().next() else { return };
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else if c == '%' || (c == '#' && self.hash_comments) {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else {
                return;
            }
        }
    }

    /// The next token. `ops` lists the multi-character operator symbols to match greedily,
    /// besides [`BUILTIN_OPS`]; an unknown run of operator characters becomes one token per character.
    pub fn next(&mut self, ops: &[&str]) -> Result<Token, LexError> {
        self.skip_trivia();
        let start = self.pos;
        let rest = &self.src[start..];
        let Some(c) = rest.chars().next() else {
            return Ok(Token {
                tok: Tok::Eof,
                start,
                end: start,
            });
        };
        let tok = if c == '\'' && self.postfix_prime {
            Tok::Op("'".into())
        } else if is_ident_start(c) {
            let len = rest
                .find(|ch: char| !is_ident_char(ch) || (ch == '\'' && self.postfix_prime))
                .unwrap_or(rest.len());
            Tok::Ident(rest[..len].to_string())
        } else if c == '$' {
            let len = 1 + rest[1..]
                .find(|ch: char| !is_ident_char(ch))
                .unwrap_or(rest.len() - 1);
            if len == 1 {
                return Err((
                    start,
                    "`$` must be followed by a name, as in `$T` or `$F`".into(),
                ));
            }
            Tok::Ident(rest[..len].to_string())
        } else if c.is_ascii_digit() {
            let len = rest
                .find(|ch: char| !ch.is_ascii_digit())
                .unwrap_or(rest.len());
            Tok::Number(rest[..len].to_string())
        } else if c == '"' {
            return self.string(start);
        } else if is_punct(c) {
            Tok::Op(c.to_string())
        } else if is_op_char(c) {
            // Only a prefix as long as the longest operator can match; a run may be very long.
            let longest = ops
                .iter()
                .chain(BUILTIN_OPS.iter())
                .map(|op| op.len())
                .max()
                .unwrap_or(0);
            let run_len = rest
                .char_indices()
                .find(|&(i, ch)| i >= longest || !is_op_char(ch))
                .map_or(rest.len(), |(i, _)| i);
            let run = &rest[..run_len];
            let best = ops
                .iter()
                .chain(BUILTIN_OPS.iter())
                .filter(|op| !op.is_empty() && run.starts_with(**op))
                .max_by_key(|op| op.len());
            Tok::Op(best.map_or_else(|| c.to_string(), |op| op.to_string()))
        } else {
            return Err((start, format!("unexpected character `{c}`")));
        };
        let len = match &tok {
            Tok::Ident(s) | Tok::Number(s) | Tok::Op(s) => s.len(),
            _ => unreachable!("strings return early"),
        };
        self.pos = start + len;
        Ok(Token {
            tok,
            start,
            end: self.pos,
        })
    }

    /// Reads the maximal run of operator characters, or an identifier: a symbol being declared.
    pub fn next_declared_name(&mut self) -> Result<Token, LexError> {
        self.skip_trivia();
        let start = self.pos;
        let rest = &self.src[start..];
        match self.peek_char() {
            Some(c) if is_op_char(c) => {
                let len = rest.find(|ch: char| !is_op_char(ch)).unwrap_or(rest.len());
                self.pos += len;
                Ok(Token {
                    tok: Tok::Op(rest[..len].to_string()),
                    start,
                    end: self.pos,
                })
            }
            _ => self.next(&[]),
        }
    }

    fn string(&mut self, start: usize) -> Result<Token, LexError> {
        let rest = &self.src[start..];
        let (open, body_start) = if rest.starts_with("\"\"\"") {
            ("\"\"\"", 3)
        } else {
            ("\"", 1)
        };
        let body = &rest[body_start..];
        let Some(end) = body.find(open) else {
            return Err((start, "unterminated string".into()));
        };
        if open == "\"" && body[..end].contains('\n') {
            return Err((
                start,
                "unterminated string (use \"\"\"...\"\"\" for text over several lines)".into(),
            ));
        }
        let text = body[..end].trim().to_string();
        self.pos = start + body_start + end + open.len();
        Ok(Token {
            tok: Tok::Str(text),
            start,
            end: self.pos,
        })
    }
}
