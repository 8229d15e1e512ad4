//! Lexical forms of Fortran that Omni's front end accepts and the standard (and
//! gfortran's free form) does not, found once for the front end (which hands the
//! parser the standard spelling) and the Fortran printer (which writes it).

use crate::Span;

const DOT_WORDS: [&str; 13] = ["neqv", "eqv", "not", "and", "or", "ne", "eq", "lt", "le", "gt", "ge", "true", "false"];

/// Dot operators and logical literals written with blanks inside the dots (`. ne.`,
/// `.and .`, `. true .`), outside character literals and comments: each span and its
/// spelling without the blanks (`.ne.`), never longer than the span.
pub fn spaced_dot_operators(text: &str) -> Vec<(Span, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == q && b.get(i + 1) == Some(&q) {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            } else if c == b'\n' && !text[..i].trim_end().ends_with('&') {
                quote = None; // unterminated: ends with its line
            }
            i += 1;
            continue;
        }
        match c {
            b'!' => i = b[i..].iter().position(|&x| x == b'\n').map_or(b.len(), |p| i + p),
            b'\'' | b'"' => {
                quote = Some(c);
                i += 1;
            }
            b'.' => match dot_word(b, i) {
                Some((end, w)) => {
                    if end - i != w.len() + 2 {
                        out.push((Span::new(i, end), format!(".{w}.")));
                    }
                    i = end;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    out
}

/// `.` blanks WORD blanks `.` at `i` (blanks: spaces and tabs): its end and the word.
fn dot_word(b: &[u8], i: usize) -> Option<(usize, &'static str)> {
    let blank = |k: usize| k < b.len() && (b[k] == b' ' || b[k] == b'\t');
    let mut k = i + 1;
    while blank(k) {
        k += 1;
    }
    let start = k;
    while k < b.len() && b[k].is_ascii_alphabetic() {
        k += 1;
    }
    let word = std::str::from_utf8(&b[start..k]).ok()?.to_ascii_lowercase();
    let w = DOT_WORDS.iter().find(|w| **w == word)?;
    while blank(k) {
        k += 1;
    }
    (k < b.len() && b[k] == b'.').then_some((k + 1, *w))
}

#[cfg(test)]
mod tests {
    use super::spaced_dot_operators as f;

    #[test]
    fn spaced_operators_found_outside_literals_and_comments() {
        let t = "if (a. ne. b .and . c) x = '. ne.' ! . eq .\ny = .true.\n";
        let got: Vec<_> = f(t).into_iter().map(|(s, w)| (&t[s.start..s.end], w)).collect();
        assert_eq!(got, vec![(". ne.", ".ne.".to_string()), (".and .", ".and.".to_string())]);
        assert!(f("x = 1.e5 + a.ne.b + 2. / 3.\n").is_empty());
    }
}
