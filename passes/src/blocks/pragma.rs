//! `#pragma bsim ...` (C) and `!$bsim ...` (Fortran) lines: user-marked compute
//! regions with an optional `time(expr)` and statements to `keep`.
//!
//! The C front end keeps unknown pragmas as verbatim text and the Fortran front end
//! drops comments, so both are found here by a line scan of the original text.

use xmpc_ir::{diag, Diag, FileId, Lang, Span};

#[derive(Clone, Debug, PartialEq)]
pub enum BsimDir {
    /// `compute [time(expr)]`: the next statement, or up to `end compute`.
    Compute {
        time: Option<String>,
    },
    EndCompute,
    /// `keep`: the next statement, or up to `end keep`, stays in the skeleton.
    Keep,
    EndKeep,
}

#[derive(Clone, Debug)]
pub struct BsimLine {
    /// The whole directive line (sentinel to line end, newline excluded).
    pub span: Span,
    pub dir: BsimDir,
}

/// Every bsim directive line of `src`, in order; malformed lines are diagnostics.
pub fn scan(src: &str, lang: Lang, file: FileId) -> (Vec<BsimLine>, Vec<Diag>) {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut pos = 0;
    for line in src.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let Some(rest_at) = sentinel(body, lang) else { continue };
        let span = Span::new(start + (body.len() - body.trim_start().len()), start + body.trim_end().len());
        let rest = &body[rest_at..];
        match parse(rest) {
            Ok(dir) => out.push(BsimLine { span, dir }),
            Err((off, msg)) => {
                let at = start + rest_at + off.min(rest.len());
                let end = (at + 1).min(span.end.max(at));
                diags.push(
                    diag::error("XMP0800", format!("malformed bsim directive: {msg}"), file, Span::new(at, end.max(at)), msg)
                        .with_notes(vec!["forms: `compute [time(EXPR)]`, `end compute`, `keep`, `end keep`".into()]),
                );
            }
        }
    }
    (out, diags)
}

/// Offset in `line` just after the `bsim` sentinel word, if the line is a directive.
fn sentinel(line: &str, lang: Lang) -> Option<usize> {
    let lead = line.len() - line.trim_start().len();
    let t = &line[lead..];
    let after = match lang {
        Lang::C => {
            let t2 = t.strip_prefix('#')?;
            let t3 = t2.trim_start();
            let t4 = t3.strip_prefix("pragma")?;
            if !t4.starts_with([' ', '\t']) {
                return None;
            }
            let t5 = t4.trim_start();
            let w = t5.get(..4)?;
            if w != "bsim" {
                return None;
            }
            line.len() - t5.len() + 4
        }
        _ => {
            let fixed_col1 = lang == Lang::FortranFixed && lead == 0 && matches!(t.as_bytes().first(), Some(b'c' | b'C' | b'*'));
            if !(t.starts_with('!') || fixed_col1) {
                return None;
            }
            let w = t.get(1..6)?;
            if !w.eq_ignore_ascii_case("$bsim") {
                return None;
            }
            lead + 6
        }
    };
    match line[after..].chars().next() {
        None | Some(' ' | '\t') => Some(after),
        _ => None,
    }
}

/// Parses what follows the sentinel. Errors carry an offset into `rest`.
fn parse(rest: &str) -> Result<BsimDir, (usize, String)> {
    let words = |s: &str| -> (usize, String) {
        let lead = s.len() - s.trim_start().len();
        let w: String = s[lead..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        (lead, w.to_ascii_lowercase())
    };
    let (l0, w0) = words(rest);
    let after0 = l0 + w0.len();
    match w0.as_str() {
        "compute" => {
            let tail = &rest[after0..];
            let (l1, w1) = words(tail);
            if w1.is_empty() {
                if tail.trim().is_empty() {
                    return Ok(BsimDir::Compute { time: None });
                }
                return Err((after0 + l1, format!("unexpected `{}` after `compute`", tail.trim())));
            }
            if w1 != "time" {
                return Err((after0 + l1, format!("unknown clause `{w1}` (expected `time(EXPR)`)")));
            }
            let p = after0 + l1 + 4;
            let t = &rest[p..];
            let lp = t.len() - t.trim_start().len();
            if !t[lp..].starts_with('(') {
                return Err((p + lp, "`time` needs a parenthesised expression: `time(EXPR)`".into()));
            }
            let open = p + lp;
            let mut depth = 0;
            let mut close = None;
            for (i, c) in rest[open..].char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            close = Some(open + i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(close) = close else { return Err((open, "unbalanced parenthesis in `time(...)`".into())) };
            let expr = rest[open + 1..close].trim();
            if expr.is_empty() {
                return Err((open, "empty `time()` expression".into()));
            }
            let tail = rest[close + 1..].trim();
            if !tail.is_empty() {
                return Err((close + 1 + (rest[close + 1..].len() - rest[close + 1..].trim_start().len()), format!("unexpected `{tail}` after `time(...)`")));
            }
            Ok(BsimDir::Compute { time: Some(expr.to_string()) })
        }
        "keep" if rest[after0..].trim().is_empty() => Ok(BsimDir::Keep),
        "end" => {
            let (l1, w1) = words(&rest[after0..]);
            let tail = rest[after0 + l1 + w1.len()..].trim();
            match w1.as_str() {
                "compute" if tail.is_empty() => Ok(BsimDir::EndCompute),
                "keep" if tail.is_empty() => Ok(BsimDir::EndKeep),
                _ => Err((after0 + l1, "expected `end compute` or `end keep`".into())),
            }
        }
        "" => Err((l0, "missing directive name (`compute`, `keep`, `end compute`, `end keep`)".into())),
        w => Err((l0, format!("unknown bsim directive `{w}`"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_and_fortran_lines() {
        let (d, e) = scan("int x;\n  #pragma bsim compute time(n*1.0e-9)\n#pragma omp parallel\n", Lang::C, 0);
        assert!(e.is_empty());
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].dir, BsimDir::Compute { time: Some("n*1.0e-9".into()) });
        assert_eq!(&"int x;\n  #pragma bsim compute time(n*1.0e-9)\n"[d[0].span.range()], "#pragma bsim compute time(n*1.0e-9)");
        let (d, e) = scan("  !$BSIM end compute\nc$bsim keep\n  x = 1 ! $bsim\n", Lang::FortranFixed, 0);
        assert!(e.is_empty());
        assert_eq!(d.iter().map(|l| l.dir.clone()).collect::<Vec<_>>(), vec![BsimDir::EndCompute, BsimDir::Keep]);
    }

    #[test]
    fn malformed() {
        for bad in ["#pragma bsim compte", "#pragma bsim compute time(", "#pragma bsim compute speed(3)", "#pragma bsim", "#pragma bsim end"] {
            let (d, e) = scan(bad, Lang::C, 0);
            assert!(d.is_empty() && e.len() == 1, "{bad}");
        }
    }
}
