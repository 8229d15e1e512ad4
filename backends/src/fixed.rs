//! Fixed-form Fortran output: statements live in columns 7–72. A splice that makes a
//! line longer is re-wrapped with column-6 continuation lines; lines no edit touched
//! are left alone (they may legally carry sequence numbers in columns 73–80).

use crate::Edit;

const LAST_COL: usize = 72;

/// Re-wraps every line of `out` that contains edited text and is now too long.
pub(crate) fn rewrap_edited_lines(out: &str, src: &str, edits: &[Edit]) -> String {
    // Output offsets of the edited text: shift each edit by the growth before it.
    // `whole`: the edit ends with a newline where an original line starts (inserted
    // lines, such as the driver's `#line` markers): the line after it is untouched.
    let mut touched = Vec::with_capacity(edits.len());
    let mut delta: isize = 0;
    for e in edits {
        let start = (e.span.start as isize + delta) as usize;
        let whole = e.text.ends_with('\n') && (e.span.end == 0 || src.as_bytes().get(e.span.end - 1) == Some(&b'\n'));
        touched.push((start, start + e.text.len(), whole));
        delta += e.text.len() as isize - e.span.len() as isize;
    }
    let mut res = String::with_capacity(out.len() + 64);
    let mut line_start = 0;
    for line in out.split_inclusive('\n') {
        let line_end = line_start + line.len();
        let edited = touched.iter().any(|&(s, e, whole)| s < line_end && (e > line_start || (e == line_start && !whole)));
        if edited {
            res.push_str(&rewrap_fixed_line(line));
        } else {
            res.push_str(line);
        }
        line_start = line_end;
    }
    res
}

/// Splits one fixed-form line (with its line ending, if any) into an initial line and
/// continuation lines no wider than 72 columns. Code continues with `     &` (column 6);
/// a directive line (`!$xmp`, `c$xmp`, `!$acc`...) continues with its sentinel and `&`
/// in column 6. Breaks fall outside string literals, after a comma, space or operator
/// where one exists. Comment lines are returned unchanged.
pub fn rewrap_fixed_line(line: &str) -> String {
    let (body, eol) = split_eol(line);
    if body.chars().count() <= LAST_COL {
        return line.to_string();
    }
    let first = body.as_bytes()[0];
    let sentinel = directive_sentinel(body);
    let is_comment = matches!(first, b'c' | b'C' | b'*' | b'!') && sentinel.is_none();
    if is_comment {
        return line.to_string();
    }
    let cont_prefix = match sentinel {
        Some(s) => format!("{s}&"),
        None => "     &".to_string(),
    };
    let mut out = String::new();
    let mut cur = body.to_string();
    // The first line's columns 1-6 are label and continuation field: never break there.
    let mut min = 6;
    while cur.chars().count() > LAST_COL {
        let cut = break_point(&cur, min);
        out.push_str(&cur[..cut]);
        out.push_str(if eol.is_empty() { "\n" } else { eol });
        cur = format!("{cont_prefix}{}", &cur[cut..]);
        min = cont_prefix.len();
    }
    out.push_str(&cur);
    out.push_str(eol);
    out
}

fn split_eol(line: &str) -> (&str, &str) {
    if let Some(b) = line.strip_suffix("\r\n") {
        (b, "\r\n")
    } else if let Some(b) = line.strip_suffix('\n') {
        (b, "\n")
    } else {
        (line, "")
    }
}

/// `!$xmp`, `c$xmp`, `*$acc`, ... → the 5-byte sentinel as written.
fn directive_sentinel(body: &str) -> Option<&str> {
    let b = body.as_bytes();
    // bytes, not a str slice: byte 5 may fall inside a multi-byte character (found by
    // fuzzing: `!$xm` followed by non-ASCII); when the three bytes are ASCII `xmp` or
    // `acc`, byte 5 is a character boundary
    if b.len() >= 5 && matches!(b[0], b'!' | b'c' | b'C' | b'*') && b[1] == b'$' {
        let w = &b[2..5];
        if w.eq_ignore_ascii_case(b"xmp") || w.eq_ignore_ascii_case(b"acc") {
            return Some(&body[..5]);
        }
    }
    None
}

/// Byte offset at which to break `s` so the first part fits in 72 columns: the last
/// comma/space/operator outside a string at or before column 72, after `min` bytes;
/// else column 72 itself (moved back to a char boundary).
fn break_point(s: &str, min: usize) -> usize {
    let limit = s.char_indices().nth(LAST_COL).map(|(i, _)| i).unwrap_or(s.len());
    let mut best = None;
    let mut quote: Option<u8> = None;
    for (i, &c) in s.as_bytes()[..limit].iter().enumerate() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => {
                if c == b'\'' || c == b'"' {
                    quote = Some(c);
                } else if i + 1 > min && matches!(c, b',' | b' ' | b'+' | b'-' | b'*' | b'/' | b'(' | b')') {
                    best = Some(i + 1);
                }
            }
        }
    }
    match best {
        // Breaking inside a string literal is legal in fixed form (the continuation
        // resumes the literal at column 7), so the column-72 fallback stays correct.
        Some(b) if b > min => b,
        _ => limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols_ok(s: &str) {
        for l in s.lines() {
            assert!(l.chars().count() <= 72, "line too long: {l:?}");
        }
    }

    #[test]
    fn short_lines_unchanged() {
        assert_eq!(rewrap_fixed_line("      x = 1\n"), "      x = 1\n");
    }

    #[test]
    fn long_code_line_gets_column6_continuations() {
        let l = format!("      call LMPI_Allreduce({}, ierr)\n", (0..30).map(|i| format!("a{i}")).collect::<Vec<_>>().join(", "));
        let w = rewrap_fixed_line(&l);
        cols_ok(&w);
        let lines: Vec<&str> = w.lines().collect();
        assert!(lines.len() >= 3);
        for c in &lines[1..] {
            assert_eq!(&c[..6], "     &");
        }
        // Joining the continuations gives back the statement.
        let joined: String = lines.iter().enumerate().map(|(i, l)| if i == 0 { *l } else { &l[6..] }).collect();
        assert_eq!(joined, l.trim_end_matches('\n'));
    }

    #[test]
    fn directive_lines_continue_with_sentinel() {
        let l = format!("c$xmp reflect (a, b, c, d, e, f, g, h) width({}) async(1)\r\n", ["1:1"; 12].join(","));
        let w = rewrap_fixed_line(&l);
        cols_ok(&w);
        assert!(w.ends_with("\r\n"));
        for c in w.lines().skip(1) {
            assert_eq!(&c[..6], "c$xmp&");
        }
    }

    #[test]
    fn comments_untouched() {
        let l = format!("c {}\n", "x".repeat(100));
        assert_eq!(rewrap_fixed_line(&l), l);
    }

    #[test]
    fn a_line_after_inserted_lines_keeps_its_sequence_numbers() {
        let seq = "      IMPLICIT NONE                                                     CG000100\n";
        let src = format!("c x\n{seq}");
        let at = src.find("      IMPLICIT").unwrap();
        let e = vec![Edit { span: crate::Span::new(at, at), text: "#line 2 \"a.f\"\n".into() }];
        let out = format!("c x\n#line 2 \"a.f\"\n{seq}");
        assert_eq!(rewrap_edited_lines(&out, &src, &e), out);
    }
}
