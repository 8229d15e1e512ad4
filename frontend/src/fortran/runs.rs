//! Keeps tree-sitter-fortran linear in the line length.
//!
//! Its external scanner looks for the kind prefix of a character literal
//! (`kind_'text'`) by reading every identifier character ahead of the position it
//! lexes. Inside a run of identifier characters that the grammar cannot take (the
//! text of an unterminated literal `'aaaa...`, a digit glued to a name `1aaaa...`),
//! error recovery lexes again at each position of the run, and each try reads to
//! the run's end: quadratic (a 40 KB line took 8 s, a 100 KB one 44 s).
//!
//! No Fortran token is that long (a name has at most 63 characters), so the parser
//! is given the text with every [`MAX_RUN`]th character of such a run outside
//! comments and terminated literals turned into a blank (same length: offsets do not
//! move; the code there is in error and is kept as written in the output anyway).

/// Longest run of identifier characters the parser sees in one piece.
pub const MAX_RUN: usize = 256;

/// Splits overlong identifier runs of derived free-form `text` in place; returns how
/// many bytes were blanked.
pub fn split_long_runs(text: &mut String) -> usize {
    // only ASCII bytes are replaced by ASCII blanks: the text stays UTF-8
    let mut b = std::mem::take(text).into_bytes();
    let mut n = 0;
    let mut quote: Option<u8> = None; // a literal continued from the previous line
    let mut start = 0;
    while start < b.len() {
        let end = b[start..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| start + p);
        quote = line(&mut b[start..end], quote, &mut n);
        start = end + 1;
    }
    *text = String::from_utf8(b).expect("ASCII replacements keep UTF-8");
    n
}

/// One line; `quote`: inside a literal continued from the line before. Returns the
/// literal still open at the end of the line (continued with `&`).
fn line(l: &mut [u8], mut quote: Option<u8>, n: &mut usize) -> Option<u8> {
    let mut i = 0;
    if quote.is_some() {
        // the continuation line of a literal may start with `&`
        while i < l.len() && (l[i] == b' ' || l[i] == b'\t') {
            i += 1;
        }
        if i < l.len() && l[i] == b'&' {
            i += 1;
        }
    }
    let mut open_at = quote.map(|_| i);
    let mut run = 0;
    while i < l.len() {
        let c = l[i];
        if let Some(q) = quote {
            if c == q && l.get(i + 1) == Some(&q) {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
                open_at = None;
            } else if c == b'&' && l[i + 1..].iter().all(|x| x.is_ascii_whitespace()) {
                return quote; // continued on the next line
            }
            i += 1;
            continue;
        }
        match c {
            b'!' => return None, // a comment (directives included) is one token
            b'\'' | b'"' => {
                quote = Some(c);
                open_at = Some(i + 1);
                run = 0;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                run += 1;
                if run == MAX_RUN {
                    l[i] = b' ';
                    *n += 1;
                    run = 0;
                }
            }
            _ => run = 0,
        }
        i += 1;
    }
    // a literal not terminated on its line is not one: its text is code to the parser
    if let (Some(_), Some(from)) = (quote, open_at) {
        let mut run = 0;
        for c in &mut l[from..] {
            if c.is_ascii_alphanumeric() || *c == b'_' {
                run += 1;
                if run == MAX_RUN {
                    *c = b' ';
                    *n += 1;
                    run = 0;
                }
            } else {
                run = 0;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_runs_and_literals_unchanged() {
        let long = "a".repeat(1000);
        for src in [
            "x = abc + 1\n".to_string(),
            format!("x = '{long}'\n"),
            format!("x = \"{long}\" // 'b'\n"),
            format!("x = 1 ! {long}\n"),
            format!("x = 'ab&\n  &{long}'\n"),
            format!("x = 'it''s {long}'\n"),
        ] {
            let mut t = src.clone();
            assert_eq!(split_long_runs(&mut t), 0, "{src}");
            assert_eq!(t, src);
        }
    }

    #[test]
    fn long_runs_split_every_max_run() {
        let mut t = format!("x = 1{}\n", "a".repeat(3 * MAX_RUN));
        let len = t.len();
        assert_eq!(split_long_runs(&mut t), 3);
        assert_eq!(t.len(), len);
        assert!(t.split(|c: char| !c.is_ascii_alphanumeric()).all(|w| w.len() < MAX_RUN));
        // an unterminated literal: its text is split too, the quote stays
        let mut t = format!("x = '{}\ny = 2\n", "b".repeat(2 * MAX_RUN));
        assert_eq!(split_long_runs(&mut t), 2);
        assert!(t.starts_with("x = 'b") && t.ends_with("\ny = 2\n"));
    }
}
