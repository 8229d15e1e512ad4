//! Fixed-form → free-form normaliser. tree-sitter-fortran only knows free form, so
//! fixed-form text is rewritten with same-length replacements (`c` → `!` in column 1,
//! column-6 markers → `&`) and a few inserted bytes (`&` at the end of a continued line,
//! `!` at column 73). `Normalised::to_orig` maps every byte back to the original file.
//!
//! Tab form (DEC): a tab in columns 1–6 ends the label field; a digit 1–9 right after
//! the tab marks a continuation line. Tab-form lines get no column-73 cut.
//! Insignificant blanks (`DO10I=1,N`) are not handled.

use xmpc_ir::{OffsetMap, Span};

/// Normalised text and the way back to the original offsets.
pub struct Normalised {
    pub text: String,
    map: Option<OffsetMap>,
    /// Derived offsets of inserted bytes, sorted.
    inserted: Vec<usize>,
}

impl Normalised {
    /// Free-form text taken as is.
    pub fn identity(text: &str) -> Normalised {
        Normalised { text: text.to_string(), map: None, inserted: Vec::new() }
    }

    /// Original offset of derived offset `d` (an inserted byte maps to where it was
    /// inserted).
    pub fn to_orig(&self, d: usize) -> usize {
        match &self.map {
            None => d,
            Some(m) => m.to_orig(d),
        }
    }

    pub fn is_inserted(&self, d: usize) -> bool {
        self.inserted.binary_search(&d).is_ok()
    }

    /// Original span of a derived span. The end is taken after the last byte that was
    /// not inserted, so a span never swallows the newline after an appended `&`.
    pub fn span(&self, start: usize, end: usize) -> Span {
        if self.map.is_none() {
            return Span::new(start, end);
        }
        let s = self.to_orig(start);
        let mut e = end;
        while e > start && self.is_inserted(e - 1) {
            e -= 1;
        }
        let e = if e > start { self.to_orig(e - 1) + 1 } else { s };
        Span::new(s, e.max(s))
    }

    /// The map as an `OffsetMap` (identity for free form).
    pub fn offset_map(&self) -> OffsetMap {
        self.map.clone().unwrap_or_else(|| OffsetMap::identity(0))
    }
}

/// One inserted string: original offset, order among insertions at the same offset.
struct Insert {
    at: usize,
    order: u8,
    text: &'static str,
}

/// Where a line's statement text ends (for appending `&`) and whether it already
/// ends in `&`.
#[derive(Copy, Clone)]
struct LineEnd {
    at: usize,
    has_amp: bool,
}

/// Rewrites fixed-form `src` as free form.
pub fn normalise(src: &str) -> Normalised {
    let mut out: Vec<u8> = src.as_bytes().to_vec();
    let mut ins: Vec<Insert> = Vec::new();
    let mut prev_code: Option<LineEnd> = None;
    let mut prev_dir: Option<LineEnd> = None;
    let mut quote: Option<u8> = None; // open character context at the end of the last code line

    let mut ls = 0;
    while ls < src.len() {
        let nl = src[ls..].find('\n').map_or(src.len(), |i| ls + i);
        let mut le = nl;
        if le > ls && src.as_bytes()[le - 1] == b'\r' {
            le -= 1;
        }
        let line = &src[ls..le];
        line_rewrite(line, ls, &mut out, &mut ins, &mut prev_code, &mut prev_dir, &mut quote);
        ls = nl + 1;
    }

    ins.sort_by_key(|i| (i.at, i.order));
    let mut text = Vec::with_capacity(out.len() + ins.len() * 2);
    let mut map = OffsetMap::new();
    let mut inserted = Vec::new();
    let mut cur = 0;
    map.push_copy(0, 0);
    for i in &ins {
        text.extend_from_slice(&out[cur..i.at]);
        map.push_insert(text.len(), i.at);
        for _ in 0..i.text.len() {
            inserted.push(text.len());
            text.push(i.text.as_bytes()[0]);
        }
        map.push_copy(text.len(), i.at);
        cur = i.at;
    }
    text.extend_from_slice(&out[cur..]);
    // Replacements swap ASCII for ASCII, so the text stays UTF-8.
    let text = String::from_utf8(text).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Normalised { text, map: Some(map), inserted }
}

/// Byte offset (within `line`) of character column `col` (1-based), if the line is
/// that long.
fn col_offset(line: &str, col: usize) -> Option<usize> {
    line.char_indices().nth(col - 1).map(|(i, _)| i)
}

/// Replaces the ASCII character at byte `i` of the line starting at `ls` with `b`.
fn replace_char(out: &mut [u8], line: &str, ls: usize, i: usize, b: u8) {
    debug_assert!(line.as_bytes()[i].is_ascii());
    out[ls + i] = b;
}

/// Scans statement text from byte `from` to `to` of `line` for an inline `!` comment
/// outside character constants. Returns the comment's offset (or `to`) and the quote
/// still open at the end.
fn scan_code(line: &str, from: usize, to: usize, mut quote: Option<u8>) -> (usize, Option<u8>) {
    let b = line.as_bytes();
    let mut i = from;
    while i < to {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'!' => return (i, None),
            None => {}
        }
        i += 1;
    }
    (to, quote)
}

fn line_end(line: &str, ls: usize, at: usize) -> LineEnd {
    let has_amp = line[..at].trim_end().ends_with('&');
    LineEnd { at: ls + at, has_amp }
}

#[allow(clippy::too_many_arguments)]
fn line_rewrite(
    line: &str,
    ls: usize,
    out: &mut [u8],
    ins: &mut Vec<Insert>,
    prev_code: &mut Option<LineEnd>,
    prev_dir: &mut Option<LineEnd>,
    quote: &mut Option<u8>,
) {
    let b = line.as_bytes();
    if line.trim().is_empty() {
        return;
    }
    let first = b[0];
    // Comment lines: `c`, `C`, `*`, `d`/`D` (debug lines) or `!` in column 1, or `!` as
    // the first non-blank in columns 1-5.
    let lead = line.len() - line.trim_start_matches([' ']).len();
    let bang_lead = b[lead] == b'!' && lead != 5;
    if matches!(first, b'c' | b'C' | b'*' | b'd' | b'D' | b'!') || bang_lead {
        let sentinel = first != b' ' && line.len() >= 5 && (b[1..5].eq_ignore_ascii_case(b"$xmp") || b[1..5].eq_ignore_ascii_case(b"$acc"));
        if first != b' ' {
            out[ls] = b'!';
        }
        if !sentinel {
            return;
        }
        // A directive line: column 6 blank or `0` starts a directive, anything else
        // continues the previous one.
        let c6 = line[5..].chars().next();
        let body = match c6 {
            Some(c) if c != ' ' && c != '0' && c != '\t' && c.is_ascii() => {
                replace_char(out, line, ls, 5, b'&');
                if let Some(p) = *prev_dir {
                    if !p.has_amp {
                        ins.push(Insert { at: p.at, order: 0, text: "&" });
                    }
                }
                5 + c.len_utf8()
            }
            Some(c) => 5 + c.len_utf8(),
            None => 5,
        };
        let end = cut_73(line, ls, body, ins);
        let (at, _) = scan_code(line, body.min(end), end, None);
        *prev_dir = Some(line_end(line, ls, at));
        return;
    }

    // Tab form: label digits and blanks, then a tab within columns 1-6.
    if let Some(t) = line.as_bytes()[..line.len().min(6)].iter().position(|&c| c == b'\t') {
        if line[..t].bytes().all(|c| c.is_ascii_digit() || c == b' ') {
            let mut start = t + 1;
            let cont = matches!(b.get(t + 1), Some(b'1'..=b'9'));
            if cont {
                out[ls + t + 1] = b'&';
                start += 1;
                continue_prev(prev_code, ins);
            } else {
                *quote = None;
            }
            let (at, q) = scan_code(line, start, line.len(), *quote);
            *quote = q;
            *prev_code = Some(line_end(line, ls, at));
            *prev_dir = None;
            return;
        }
    }

    let end = cut_73(line, ls, 0, ins);
    let c6 = col_offset(line, 6).filter(|&i| i < end);
    let mut start = c6.map_or(end, |i| i + line[i..].chars().next().map_or(1, |c| c.len_utf8()));
    let cont = match c6 {
        Some(i) => {
            let c = line[i..].chars().next().unwrap_or(' ');
            // A non-ASCII character in column 6 is not taken as a marker, so every
            // replacement stays one byte for one byte.
            c != ' ' && c != '0' && c.is_ascii() && line[..i].trim().is_empty()
        }
        None => false,
    };
    if cont {
        let i = c6.unwrap_or(0);
        replace_char(out, line, ls, i, b'&');
        start = i + 1;
        continue_prev(prev_code, ins);
    } else {
        *quote = None;
    }
    let (at, q) = scan_code(line, start.min(end), end, *quote);
    *quote = q;
    *prev_code = Some(line_end(line, ls, at));
    *prev_dir = None;
}

/// Appends `&` to the previous statement line.
fn continue_prev(prev: &Option<LineEnd>, ins: &mut Vec<Insert>) {
    if let Some(p) = prev {
        if !p.has_amp {
            ins.push(Insert { at: p.at, order: 0, text: "&" });
        }
    }
}

/// Comments out columns 73 and beyond; returns the byte offset where statement text
/// ends.
fn cut_73(line: &str, ls: usize, from: usize, ins: &mut Vec<Insert>) -> usize {
    match col_offset(line, 73) {
        Some(i) => {
            // An inline comment that starts earlier already covers the tail.
            let (c, _) = scan_code(line, from.min(i), i, None);
            if c == i {
                ins.push(Insert { at: ls + i, order: 1, text: "!" });
            }
            i
        }
        None => line.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every original byte appears once in the derived text and maps back to itself.
    fn check_map(src: &str) -> Normalised {
        let n = normalise(src);
        let mut seen = vec![false; src.len()];
        for d in 0..n.text.len() {
            if n.is_inserted(d) {
                continue;
            }
            let o = n.to_orig(d);
            assert!(!seen[o], "byte {o} mapped twice");
            seen[o] = true;
        }
        assert!(seen.iter().all(|&s| s), "some original byte has no derived byte");
        assert_eq!(n.text.len(), src.len() + n.inserted.len());
        n
    }

    #[test]
    fn comments_and_directives() {
        let src = "c comment\nC$XMP nodes p(4)\n*$acc kernels\n      x = 1\n";
        let n = check_map(src);
        assert_eq!(n.text, "! comment\n!$XMP nodes p(4)\n!$acc kernels\n      x = 1\n");
    }

    #[test]
    fn code_continuation() {
        let src = "      x = a +\n     &    b ! c\n     $  + d\n";
        let n = check_map(src);
        assert_eq!(n.text, "      x = a +&\n     &    b &! c\n     &  + d\n");
        // The appended `&` maps to the end of the first line.
        assert_eq!(n.to_orig(14), 13);
    }

    #[test]
    fn continuation_across_comment_lines() {
        let src = "      call f(a,\nc note\n     1       b)\n";
        let n = check_map(src);
        assert_eq!(n.text, "      call f(a,&\n! note\n     &       b)\n");
    }

    #[test]
    fn column_73() {
        let code = format!("{:<72}", "      x = 1");
        let src = format!("{code}NAS00010\n{code}\n");
        let n = check_map(&src);
        assert_eq!(n.text, format!("{code}!NAS00010\n{code}\n"));
        let src = format!("{code}SEQ1\n     &+2\n");
        let n = check_map(&src);
        assert_eq!(n.text, format!("{code}&!SEQ1\n     &+2\n"));
    }

    #[test]
    fn directive_continuation() {
        let src = "c$xmp loop on t(i)\nc$xmp+ reduction(+:s)\n!$XMP&  ,x\n";
        let n = check_map(src);
        assert_eq!(n.text, "!$xmp loop on t(i)&\n!$xmp& reduction(+:s)&\n!$XMP&  ,x\n");
        let src = "!$xmp reflect (a) &\n!$xmp& width(1)\n";
        let n = check_map(src);
        assert_eq!(n.text, src);
    }

    #[test]
    fn bang_directive_with_sequence_numbers() {
        let line = format!("{:<72}SEQ1", "!$XMP BCAST (S)");
        let src = format!("{line}\n!$XMP& FROM P(1)\n");
        let n = check_map(&src);
        assert_eq!(n.text, format!("{:<72}&!SEQ1\n!$XMP& FROM P(1)\n", "!$XMP BCAST (S)"));
    }

    #[test]
    fn crlf_and_labels() {
        let src = "   10 CONTINUE\r\n      X = 1 +\r\n     +  2\r\n";
        let n = check_map(src);
        assert_eq!(n.text, "   10 CONTINUE\r\n      X = 1 +&\r\n     &  2\r\n");
    }

    #[test]
    fn tab_form() {
        let src = "10\tx = 1 +\n\t1 2\n";
        let n = check_map(src);
        assert_eq!(n.text, "10\tx = 1 +&\n\t& 2\n");
    }

    #[test]
    fn strings_and_utf8() {
        let src = "c 日本語のコメント\n      s = 'a ! b'\n     &//'c'\n";
        let n = check_map(src);
        assert_eq!(n.text, "! 日本語のコメント\n      s = 'a ! b'&\n     &//'c'\n");
    }

    #[test]
    fn span_excludes_inserted_tail() {
        let src = "      x = a +\n     &    b\n";
        let n = check_map(src);
        // "x = a +&" in derived text ends with the inserted `&`.
        let s = n.span(6, 14);
        assert_eq!(s, Span::new(6, 13));
    }
}
