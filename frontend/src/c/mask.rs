//! Masks `#pragma xmp|acc` lines as same-length block comments before tree-sitter-c
//! sees the text: the grammar mis-nests a pragma between a control header and an
//! unbraced body, but handles a comment there fine. Offsets and line structure are
//! unchanged, so every tree-sitter span is an original span.

use crate::directive::DirectiveText;
use xmpc_ir::{OffsetMap, Span};

/// One masked directive line.
#[derive(Clone, Debug)]
pub struct RawDirective {
    /// `#` to the end of the last (continued) line, line terminator excluded.
    pub span: Span,
    /// From the sentinel word on, continuations joined, comments blanked.
    pub text: DirectiveText,
}

pub struct Masked {
    /// Same length and same newlines as the input.
    pub text: String,
    /// In source order.
    pub directives: Vec<RawDirective>,
    /// Statements after `gmove`/`array` (`b[:] = a[0:N];`): array sections are not C
    /// and tree-sitter's recovery can swallow the statements after them, so each is
    /// masked as a blank `{ }` block of the same length and kept verbatim.
    pub sections: Vec<Span>,
}

#[derive(Copy, Clone, PartialEq)]
enum State {
    Code,
    LineComment,
    BlockComment,
    Str(u8),
}

/// Finds and masks every `#pragma xmp` / `#pragma acc` line (not inside comments or
/// strings). Other pragmas are left alone.
pub fn mask(src: &str) -> Masked {
    mask_with(src, true)
}

/// Masks the `#pragma xmp|acc` lines only: array sections and `_Complex` stay (the
/// local view's token stream, `local_view`, needs every token of the code).
pub fn mask_directives(src: &str) -> Masked {
    mask_with(src, false)
}

/// `full`: also masks array-section statements and `_Complex`.
fn mask_with(src: &str, full: bool) -> Masked {
    let b = src.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut directives = Vec::new();
    let mut sections = Vec::new();
    let mut state = State::Code;
    let mut line_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match state {
            State::Code => {
                if line_start {
                    if c == b' ' || c == b'\t' || c == b'\x0c' {
                        i += 1;
                        continue;
                    }
                    line_start = false;
                    // XMP C array assignment outside a directive (`y[i][:] = 0;`).
                    if full && (c.is_ascii_alphabetic() || c == b'_') && subscripted_name(b, i) && after_statement(b, i) {
                        if let Some(st) = section_statement(b, i).filter(|st| has_section(&b[st.range()])) {
                            blank_section(out.get_or_insert_with(|| b.to_vec()), st);
                            sections.push(st);
                            i = st.end;
                            continue;
                        }
                    }
                    if c == b'#' {
                        if let Some(sent) = pragma_sentinel(b, i) {
                            let end = logical_line_end(b, sent);
                            let text = directive_text(src, sent, end);
                            let word = text.text.split_whitespace().nth(1).unwrap_or("");
                            let takes_section = text.text.starts_with("xmp") && (word == "gmove" || word == "array");
                            directives.push(RawDirective { span: Span::new(i, end), text });
                            let out = out.get_or_insert_with(|| b.to_vec());
                            mask_range(out, i, end);
                            i = end;
                            if let Some(st) = (full && takes_section).then(|| section_statement(b, end)).flatten() {
                                blank_section(out, st);
                                sections.push(st);
                                i = st.end;
                            }
                            continue;
                        }
                    }
                }
                match c {
                    b'\n' => line_start = true,
                    b'\\' => i += continuation_len(b, i).saturating_sub(1),
                    b'/' if b.get(i + 1) == Some(&b'/') => {
                        state = State::LineComment;
                        i += 1;
                    }
                    b'/' if b.get(i + 1) == Some(&b'*') => {
                        state = State::BlockComment;
                        i += 1;
                    }
                    b'"' | b'\'' => state = State::Str(c),
                    // `_Complex` is not in tree-sitter-c's grammar: blanked here, the
                    // lowering reads it back from the source (`double _Complex`).
                    b'_' if full && is_word_at(b, i, b"_Complex") => {
                        let out = out.get_or_insert_with(|| b.to_vec());
                        out[i..i + 8].fill(b' ');
                        i += 7;
                    }
                    _ => {}
                }
            }
            State::LineComment => match c {
                b'\\' => i += continuation_len(b, i).saturating_sub(1),
                b'\n' => {
                    state = State::Code;
                    line_start = true;
                }
                _ => {}
            },
            State::BlockComment => {
                if c == b'*' && b.get(i + 1) == Some(&b'/') {
                    state = State::Code;
                    i += 1;
                }
            }
            State::Str(q) => match c {
                b'\\' => i += 1,
                // An unterminated literal (an apostrophe in `#error` text or `#if 0`
                // prose) ends at the line end rather than running on.
                b'\n' => {
                    state = State::Code;
                    line_start = true;
                }
                _ if c == q => state = State::Code,
                _ => {}
            },
        }
        i += 1;
    }
    let text = match out {
        // Only ASCII bytes were written over whole ASCII-delimited ranges, so this holds.
        Some(v) => String::from_utf8(v).unwrap_or_else(|_| src.to_string()),
        None => src.to_string(),
    };
    Masked { text, directives, sections }
}

/// The expression statement after `from`: skips blanks and comments, then runs to the
/// `;` outside brackets. `None` for anything else (a block, another directive).
fn section_statement(b: &[u8], from: usize) -> Option<Span> {
    let mut j = from;
    loop {
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if b[j..].starts_with(b"//") {
            j = find(b, j, b"\n")?;
        } else if b[j..].starts_with(b"/*") {
            j = find(b, j + 2, b"*/")? + 2;
        } else {
            break;
        }
    }
    let start = j;
    let mut depth = 0i32;
    while j < b.len() {
        match b[j] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth == 0 => return (j > start).then(|| Span::new(start, j + 1)),
            b'{' | b'}' | b'#' | b'"' | b'\'' => return None,
            _ => {}
        }
        j += 1;
    }
    None
}

/// True when the keyword `w` is at `i` as a whole word.
pub(crate) fn is_word_at(b: &[u8], i: usize, w: &[u8]) -> bool {
    let ident = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    b[i..].starts_with(w) && (i == 0 || !ident(&b[i - 1])) && !b.get(i + w.len()).is_some_and(ident)
}

/// True when an identifier starts at `i` and a `[` follows it (`y[...`): a statement
/// that may assign an array section (not `for (...`, `if (...`, `return ...`).
fn subscripted_name(b: &[u8], i: usize) -> bool {
    let end = i + b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
    b.get(skip_blanks(b, end)) == Some(&b'[')
}

/// True when the last non-blank byte before `i` ends a statement or a loop/if header
/// (`;`, `{`, `}`, `)`) or there is none: `i` may start a statement.
fn after_statement(b: &[u8], i: usize) -> bool {
    b[..i].iter().rev().find(|c| !c.is_ascii_whitespace()).is_none_or(|c| matches!(c, b';' | b'{' | b'}' | b')'))
}

/// True when a statement's text has an array section: a `:` inside `[...]` that is
/// not the `:` of a `?:` there (C itself never has one).
fn has_section(t: &[u8]) -> bool {
    // per open `[`: whether a `?` was seen since it
    let mut open: Vec<u32> = vec![];
    for &c in t {
        match c {
            b'[' => open.push(0),
            b']' => {
                open.pop();
            }
            b'?' => {
                if let Some(q) = open.last_mut() {
                    *q += 1;
                }
            }
            b':' => match open.last_mut() {
                Some(0) => return true,
                Some(q) => *q -= 1,
                None => {}
            },
            _ => {}
        }
    }
    false
}

/// If `#` at `i` starts `# pragma xmp|acc`, the offset of the sentinel word.
fn pragma_sentinel(b: &[u8], i: usize) -> Option<usize> {
    let mut j = skip_blanks(b, i + 1);
    if !b[j..].starts_with(b"pragma") {
        return None;
    }
    j += 6;
    let k = skip_blanks(b, j);
    if k == j {
        return None;
    }
    let word = b.get(k..k + 3)?;
    if word != b"xmp" && word != b"acc" {
        return None;
    }
    match b.get(k + 3) {
        Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => None,
        _ => Some(k),
    }
}

fn skip_blanks(b: &[u8], mut j: usize) -> usize {
    while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
        j += 1;
    }
    j
}

/// Length of a backslash-newline at `i` (`\`, optional blanks, optional CR, LF), or 0.
fn continuation_len(b: &[u8], i: usize) -> usize {
    let mut j = skip_blanks(b, i + 1);
    if b.get(j) == Some(&b'\r') {
        j += 1;
    }
    if b.get(j) == Some(&b'\n') {
        j + 1 - i
    } else {
        0
    }
}

/// End of the logical line starting before `from`: the first LF (CR LF) that is not
/// escaped and not inside a block comment, or the end of the text.
fn logical_line_end(b: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < b.len() {
        match b[j] {
            b'\\' => {
                let n = continuation_len(b, j);
                j += n.max(1);
            }
            b'\n' => return if j > from && b[j - 1] == b'\r' { j - 1 } else { j },
            b'/' if b.get(j + 1) == Some(&b'*') => {
                j = find(b, j + 2, b"*/").map_or(b.len(), |e| e + 2);
            }
            b'"' | b'\'' => {
                let q = b[j];
                j += 1;
                while j < b.len() && b[j] != q && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                if j < b.len() && b[j] == q {
                    j += 1;
                }
            }
            _ => j += 1,
        }
    }
    b.len()
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?.windows(pat.len()).position(|w| w == pat).map(|p| p + from)
}

/// Blanks an array-section statement to `{   ...   }` (same length, CR/LF kept): the
/// translator rewrites it, tree-sitter sees an empty compound statement.
fn blank_section(out: &mut [u8], st: Span) {
    for c in &mut out[st.range()] {
        if *c != b'\n' && *c != b'\r' {
            *c = b' ';
        }
    }
    out[st.start] = b'{';
    out[st.end - 1] = b'}';
}

/// Overwrites `[start, end)` with `/* ... */`, keeping CR/LF bytes. The closing `*/`
/// goes on the last physical line that has room for it; anything after it is blanked.
fn mask_range(out: &mut [u8], start: usize, end: usize) {
    let nl = |c: u8| c == b'\n' || c == b'\r';
    let mut close = end;
    while close >= start + 4 && (nl(out[close - 1]) || nl(out[close - 2])) {
        close -= 1;
    }
    for c in &mut out[start..end] {
        if !nl(*c) && (*c == b'*' || *c == b'/' || *c == b'\\' || !c.is_ascii()) {
            *c = b' ';
        }
    }
    for c in &mut out[close..end] {
        if !nl(*c) {
            *c = b' ';
        }
    }
    out[start] = b'/';
    out[start + 1] = b'*';
    out[close - 2] = b'*';
    out[close - 1] = b'/';
}

/// The directive text from the sentinel to `end`, with backslash-newlines removed and
/// comments replaced by spaces (C drops comments before directives are processed).
fn directive_text(src: &str, sent: usize, end: usize) -> DirectiveText {
    let b = src.as_bytes();
    let mut text = Vec::with_capacity(end - sent);
    let mut map = OffsetMap::new();
    map.push_copy(0, sent);
    let mut j = sent;
    while j < end {
        if b[j] == b'\\' {
            let n = continuation_len(b, j);
            if n > 0 {
                j += n;
                map.push_copy(text.len(), j);
                continue;
            }
        }
        text.push(b[j]);
        j += 1;
    }
    blank_comments(&mut text);
    while text.last().is_some_and(|c| c.is_ascii_whitespace()) {
        text.pop();
    }
    // Blanking only wrote ASCII over whole comments, so the text stays UTF-8.
    let text = String::from_utf8(text).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    DirectiveText { text, map }
}

fn blank_comments(t: &mut [u8]) {
    let mut j = 0;
    while j < t.len() {
        match t[j] {
            b'/' if t.get(j + 1) == Some(&b'*') => {
                // An unterminated comment is left for the directive parser to report
                // (a C preprocessor would swallow the following lines into it).
                let Some(e) = find(t, j + 2, b"*/") else { return };
                t[j..e + 2].fill(b' ');
                j = e + 2;
            }
            b'/' if t.get(j + 1) == Some(&b'/') => {
                t[j..].fill(b' ');
                return;
            }
            b'"' | b'\'' => {
                let q = t[j];
                j += 1;
                while j < t.len() && t[j] != q {
                    j += if t[j] == b'\\' { 2 } else { 1 };
                }
                j += 1;
            }
            _ => j += 1,
        }
    }
}
