//! `#line` markers in the translated C that is compiled (not in `--emit=source`), so
//! the C compiler's errors and warnings, gdb and perf name the user's file and line
//! instead of a temporary file that is gone (issue 39, docs/driver.md).
//!
//! The translation is the user's text with edits spliced in (`xmpc_backends::emit`).
//! Wherever an edit changes the number of lines, a marker is added at the next line
//! start of the original text that is outside comments, strings, continued lines and
//! other edits: `#line N "file"` with N that line's number in the user's file. Code
//! that xmpc appends after the user's last line (the generated `main`, file
//! initialisers) is marked `"<xmpc generated code>"`.

use xmpc_ir::{Edit, Span};

/// The file name in a `#line` directive (a C string literal).
fn quoted(name: &str) -> String {
    let mut s = String::from("\"");
    for c in name.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' => s.push_str("\\n"),
            _ => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Byte offsets of the line starts of `src` where a directive may go: not in a block
/// comment, string or character literal, not after a line ending in a backslash.
fn safe_line_starts(src: &str) -> Vec<usize> {
    #[derive(PartialEq)]
    enum St {
        Code,
        Block,
        Line,
        Str(u8),
    }
    let b = src.as_bytes();
    let mut out = vec![0];
    let mut st = St::Code;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match st {
            St::Code => match c {
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    st = St::Block;
                    i += 1;
                }
                b'/' if b.get(i + 1) == Some(&b'/') => st = St::Line,
                b'"' | b'\'' => st = St::Str(c),
                _ => {}
            },
            St::Block if c == b'*' && b.get(i + 1) == Some(&b'/') => {
                st = St::Code;
                i += 1;
            }
            St::Str(_) if c == b'\\' => i += 1,
            St::Str(q) if c == q || c == b'\n' => st = St::Code,
            St::Line if c == b'\n' && (i == 0 || b[i - 1] != b'\\') => st = St::Code,
            _ => {}
        }
        if c == b'\n' && st == St::Code && !(i > 0 && b[i - 1] == b'\\') && i + 1 < b.len() {
            out.push(i + 1);
        }
        i += 1;
    }
    out
}

/// Line starts of free-form Fortran where a directive may go: not after a line that
/// continues (`&` at its end, before a `!` comment outside strings).
fn safe_fortran_line_starts(src: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut continues = false;
    for line in src.split_inclusive('\n') {
        if !continues {
            out.push(pos);
        }
        pos += line.len();
        let code = fortran_code(line);
        if !code.trim().is_empty() {
            continues = code.trim_end().ends_with('&');
        }
    }
    out.retain(|&p| p < src.len());
    out
}

/// Line starts of fixed-form Fortran where a directive may go: not before a
/// continuation line (a character other than blank or `0` in column 6), nor before
/// comment lines that a continuation line follows.
fn safe_fixed_line_starts(src: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut pos = 0;
    for line in src.split_inclusive('\n') {
        lines.push((pos, fixed_kind(line.trim_end_matches(['\n', '\r']))));
        pos += line.len();
    }
    let mut out = Vec::new();
    // whether the next non-comment line (from the end backwards) continues
    let mut next_continues = false;
    for &(p, kind) in lines.iter().rev() {
        match kind {
            Fixed::Continuation => next_continues = true,
            Fixed::Statement => next_continues = false,
            Fixed::Comment => {}
        }
        if !next_continues && p < src.len() {
            out.push(p);
        }
    }
    out.reverse();
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Fixed {
    Comment,
    Continuation,
    Statement,
}

/// What a fixed-form line is (the tab form: a tab in the label field, then a digit
/// 1-9 continues).
fn fixed_kind(line: &str) -> Fixed {
    let b = line.as_bytes();
    let lead = line.len() - line.trim_start_matches(' ').len();
    if line.trim().is_empty() || matches!(b[0], b'c' | b'C' | b'*' | b'!' | b'#') || (b[lead] == b'!' && lead != 5) {
        return Fixed::Comment;
    }
    let label = |n: usize| b[..n].iter().all(|c| *c == b' ' || c.is_ascii_digit());
    if let Some(t) = b.iter().position(|&c| c == b'\t').filter(|&t| t < 6 && label(t)) {
        return if matches!(b.get(t + 1), Some(b'1'..=b'9')) { Fixed::Continuation } else { Fixed::Statement };
    }
    match b.get(5) {
        Some(c) if *c != b' ' && *c != b'0' && label(5) => Fixed::Continuation,
        _ => Fixed::Statement,
    }
}

/// A Fortran line without its `!` comment (outside strings).
fn fortran_code(line: &str) -> &str {
    let mut q: Option<char> = None;
    for (i, c) in line.char_indices() {
        match (q, c) {
            (None, '!') => return &line[..i],
            (None, '\'' | '"') => q = Some(c),
            (Some(x), _) if x == c => q = None,
            _ => {}
        }
    }
    line
}

/// The kind of text markers go in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Form {
    C,
    /// Free-form Fortran.
    Free,
    /// Fixed-form Fortran.
    Fixed,
}

/// Where the user's lines come from: `origin(line of the text)` is `(file, line)`
/// (the Fortran preprocessor's map), else the text's own line in `name`.
pub type Origin<'a> = &'a dyn Fn(usize) -> Option<(String, usize)>;

/// The edits plus the `#line` markers that keep the compiled text's lines those of
/// the user's files, in the order to splice them (a marker due to an edit comes after
/// it). Fortran is compiled through the preprocessor (`.F90`, `.F`).
pub fn with_markers(src: &str, edits: &[Edit], name: &str, origin: Origin, form: Form) -> Vec<Edit> {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let starts = match form {
        Form::C => safe_line_starts(src),
        Form::Free => safe_fortran_line_starts(src),
        Form::Fixed => safe_fixed_line_starts(src),
    };
    let inside = |p: usize| edits.iter().any(|e| e.span.start < p && p < e.span.end);
    let line_of = |p: usize| src[..p].bytes().filter(|&c| c == b'\n').count() + 1;
    let orig = |l: usize| origin(l).unwrap_or_else(|| (name.to_string(), l));
    // the first safe line start in from..=to
    let resync = |from: usize, to: usize| {
        starts.iter().copied().find(|&p| p >= from && p <= to && !inside(p)).map(|p| {
            let (f, l) = orig(line_of(p));
            Edit { span: Span::new(p, p), text: format!("#line {l} {}\n", quoted(&f)) }
        })
    };
    // lines whose origin does not follow the line before (another file, lines the
    // preprocessor dropped): a marker is due there
    let jumps: Vec<usize> = if origin(1).is_some() {
        let mut lines = src.match_indices('\n').map(|(i, _)| i + 1).filter(|&p| p < src.len()).map(|p| (p, line_of(p)));
        let mut v = Vec::new();
        let mut prev = orig(1);
        for (p, l) in lines.by_ref() {
            let o = orig(l);
            if o.0 != prev.0 || o.1 != prev.1 + 1 {
                v.push(p);
            }
            prev = o;
        }
        v
    } else {
        Vec::new()
    };
    let generated_at = |p: usize, nl: &str| Edit { span: Span::new(p, p), text: format!("{nl}#line 1 \"<xmpc generated code>\"\n") };
    let mut out = Vec::new();
    // lines drift from this offset on (the first: after a prelude at the very start)
    let mut need = Some(0);
    let mut generated = false;
    let mut j = 0;
    for e in edits.iter() {
        // a prelude inserted before the user's first line: marked as generated, and
        // the user's file starts after it
        if e.span.start == 0 && e.span.end == 0 {
            if !e.text.is_empty() && out.is_empty() {
                out.push(generated_at(0, ""));
            }
            out.push(e.clone());
            continue;
        }
        while j < jumps.len() && jumps[j] <= e.span.start {
            if let Some(m) = need.and_then(|f| resync(f, jumps[j])) {
                if m.span.start < jumps[j] {
                    out.push(m);
                }
            }
            need = Some(jumps[j]);
            j += 1;
        }
        if let Some(m) = need.and_then(|f| resync(f, e.span.start)) {
            out.push(m);
            need = None;
        }
        if e.span.start == src.len() && !e.text.is_empty() && !generated {
            let nl = if src.ends_with('\n') || src.is_empty() { "" } else { "\n" };
            out.push(generated_at(src.len(), nl));
            generated = true;
            need = None;
        }
        let old = src[e.span.start..e.span.end].matches('\n').count();
        if e.text.matches('\n').count() != old && !generated {
            need = Some(e.span.end);
        }
        out.push(e.clone());
    }
    if !generated {
        for &p in &jumps[j..] {
            if let Some(m) = need.and_then(|f| resync(f, p)) {
                if m.span.start < p {
                    out.push(m);
                }
            }
            need = Some(p);
        }
        if let Some(m) = need.and_then(|f| resync(f, src.len())) {
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(src: &str, edits: &[Edit]) -> String {
        let mut out = String::new();
        let mut pos = 0;
        for e in edits {
            out.push_str(&src[pos..e.span.start]);
            out.push_str(&e.text);
            pos = e.span.end;
        }
        out + &src[pos..]
    }

    #[test]
    fn markers_resync_after_edits_that_add_lines() {
        let src = "int a;\n#pragma x\nint b; /* c\nd */\nint c;\n";
        let p = src.find("#pragma").unwrap();
        let e = vec![
            Edit { span: Span::new(0, 0), text: "#include \"rt.h\"\nint rt;\n".into() },
            Edit { span: Span::new(p, p + 10), text: "one();\ntwo();\nthree();\n".into() },
            Edit { span: Span::new(src.len(), src.len()), text: "int main(void) { return 0; }\n".into() },
        ];
        let out = apply(src, &with_markers(src, &e, "a\"b.c", &|_| None, Form::C));
        assert_eq!(
            out,
            "#line 1 \"<xmpc generated code>\"\n#include \"rt.h\"\nint rt;\n#line 1 \"a\\\"b.c\"\nint a;\none();\ntwo();\nthree();\n#line 3 \"a\\\"b.c\"\nint b; /* c\nd */\nint c;\n#line 1 \"<xmpc generated code>\"\nint main(void) { return 0; }\n"
        );
        // no marker inside a comment or after a continued line
        assert_eq!(safe_line_starts("a\n/* x\ny */ b\n#define M \\\n 1\nc\n"), vec![0, 2, 14, 29]);
    }

    #[test]
    fn fortran_continuations_and_preprocessed_origins() {
        // no marker between continued lines ('&' before a comment, not in a string)
        let src = "a = 1 + &  ! c\n  2\nb = '&'\nc = 3\n";
        assert_eq!(safe_fortran_line_starts(src), vec![0, 19, 27]);
        // text lines 1-2 from inc.h 5-6, 3-4 from p.F90 2-3
        let origin = |l: usize| Some(if l <= 2 { ("inc.h".to_string(), l + 4) } else { ("p.F90".to_string(), l - 1) });
        let src = "x\ny\nz\nw\n";
        let out = apply(src, &with_markers(src, &[], "p.F90", &origin, Form::Free));
        assert_eq!(out, "#line 5 \"inc.h\"\nx\ny\n#line 2 \"p.F90\"\nz\nw\n");
    }

    #[test]
    fn fixed_form_continuations() {
        // line 2 continues line 1 (column 6), across a comment line; line 5 in the tab form
        let src = "      x = 1 +\nc note\n     &    2\n      y = 3\n\tz = 4 +\n\t1 5\n";
        let starts = safe_fixed_line_starts(src);
        let line = |n: usize| src.split_inclusive('\n').take(n - 1).map(str::len).sum::<usize>();
        assert_eq!(starts, vec![line(1), line(4), line(5)]);
        let p = src.find("y = 3").unwrap();
        let e = vec![Edit { span: Span::new(p, p + 5), text: "call f()\n      y = 3".into() }];
        let out = apply(src, &with_markers(src, &e, "p.f", &|_| None, Form::Fixed));
        assert!(out.contains("call f()\n      y = 3\n#line 5 \"p.f\"\n\tz = 4 +\n"), "{out}");
    }
}
