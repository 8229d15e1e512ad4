//! Text helpers of the Fortran printer (comments, top-level splits, words).

/// Offset of a `!` comment outside character literals.
pub(super) fn comment_start(s: &str) -> Option<usize> {
    let mut q: Option<char> = None;
    for (i, c) in s.char_indices() {
        match (q, c) {
            (None, '\'' | '"') => q = Some(c),
            (Some(x), _) if x == c => q = None,
            (None, '!') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits at top-level commas (outside parentheses and brackets), trimmed.
pub(super) fn split_top(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Offset of `w` as a whole word in `s` (lower case) at or after `from`.
pub(super) fn find_word(s: &str, w: &str, from: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = from;
    while let Some(p) = s[i..].find(w) {
        let at = i + p;
        let e = at + w.len();
        let ok_l = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let ok_r = e >= b.len() || !(b[e].is_ascii_alphanumeric() || b[e] == b'_');
        if ok_l && ok_r {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// Byte offset of the end of column 72 of the line starting at `ls` (or the line end).
pub(super) fn col72(src: &str, ls: usize) -> usize {
    let le = src[ls..].find('\n').map_or(src.len(), |p| ls + p);
    let le = if src[..le].ends_with('\r') { le - 1 } else { le };
    src[ls..le].char_indices().nth(72).map_or(le, |(i, _)| ls + i)
}
