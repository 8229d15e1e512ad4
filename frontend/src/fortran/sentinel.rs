//! Collects `!$xmp` / `!$acc` directive lines from free-form (or normalised) text and
//! joins continuation lines into one `DirectiveText` whose map points at the original
//! file.

use super::fixed::Normalised;
use crate::directive::DirectiveText;
use xmpc_ir::{OffsetMap, Span};

/// One directive as found in the text, before parsing.
pub struct RawDirective {
    /// `xmp ...` / `acc ...`, sentinels, `&`s and trailing comments removed.
    pub text: DirectiveText,
    /// Original span from the first `!` to the end of the last line (trailing blanks
    /// excluded).
    pub span: Span,
    /// Derived offsets of the `!` of every line (first line first).
    pub lines: Vec<usize>,
    /// The last line ends in `&` but no continuation line follows.
    pub dangling: Option<Span>,
}

/// A directive line: derived offsets of the `!`, of the body after the sentinel, of
/// the body end (comment and trailing `&` removed), of the line end; the sentinel
/// word in lower case; whether the line is continued.
struct Line {
    bang: usize,
    body: usize,
    body_end: usize,
    end: usize,
    sentinel: [u8; 3],
    continued: bool,
}

fn directive_line(text: &str, ls: usize, le: usize) -> Option<Line> {
    let line = &text[ls..le];
    let lead = line.len() - line.trim_start().len();
    let rest = &line[lead..];
    let b = rest.as_bytes();
    if b.len() < 5 || b[0] != b'!' || b[1] != b'$' {
        return None;
    }
    let word = [b[2].to_ascii_lowercase(), b[3].to_ascii_lowercase(), b[4].to_ascii_lowercase()];
    if &word != b"xmp" && &word != b"acc" {
        return None;
    }
    if let Some(&c) = b.get(5) {
        if !(c == b' ' || c == b'\t' || c == b'&') {
            return None;
        }
    }
    let bang = ls + lead;
    let body = bang + 5;
    // Strip a trailing `!` comment outside character constants.
    let mut q: Option<u8> = None;
    let mut cut = le;
    for (i, &c) in text.as_bytes()[body..le].iter().enumerate() {
        match q {
            Some(x) if c == x => q = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => q = Some(c),
            None if c == b'!' => {
                cut = body + i;
                break;
            }
            None => {}
        }
    }
    let trimmed = text[body..cut].trim_end();
    let continued = trimmed.ends_with('&');
    let body_end = body + trimmed.len() - continued as usize;
    let end = ls + line.trim_end().len();
    Some(Line { bang, body, body_end, end, sentinel: word, continued })
}

/// Adds derived range `a..b` to the directive text, one piece per run of bytes that
/// are contiguous in the original file.
fn push_range(n: &Normalised, src: &str, a: usize, b: usize, out: &mut String, map: &mut OffsetMap) {
    let mut k = a;
    while k < b {
        let o = n.to_orig(k);
        map.push_copy(out.len(), o);
        let mut j = k + 1;
        while j < b && !n.is_inserted(j) && n.to_orig(j) == o + (j - k) {
            j += 1;
        }
        if n.is_inserted(k) {
            j = k + 1;
        }
        out.push_str(&src[k..j]);
        k = j;
    }
}

/// Finds every directive in `n.text`.
pub fn collect(n: &Normalised) -> Vec<RawDirective> {
    let text = n.text.as_str();
    let mut lines: Vec<(usize, usize)> = Vec::new();
    let mut ls = 0;
    while ls < text.len() {
        let nl = text[ls..].find('\n').map_or(text.len(), |i| ls + i);
        let le = if nl > ls && text.as_bytes()[nl - 1] == b'\r' { nl - 1 } else { nl };
        lines.push((ls, le));
        ls = nl + 1;
    }

    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (ls, le) = lines[i];
        i += 1;
        // Cheap reject before the full line check.
        if !text[ls..le].trim_start().starts_with("!$") {
            continue;
        }
        let Some(first) = directive_line(text, ls, le) else { continue };
        let mut s = String::new();
        let mut map = OffsetMap::new();
        push_range(n, text, first.bang + 2, first.body_end, &mut s, &mut map);
        let mut starts = vec![first.bang];
        let mut last = first;
        while last.continued && i < lines.len() {
            let (ls, le) = lines[i];
            let Some(next) = directive_line(text, ls, le) else { break };
            if next.sentinel != last.sentinel {
                break;
            }
            i += 1;
            let mut body = next.body;
            let tb = &text[body..next.body_end.max(body)];
            if tb.trim_start().starts_with('&') {
                // `!$xmp&` or `!$xmp &`: the text continues right after the `&`.
                body += tb.len() - tb.trim_start().len() + 1;
            } else {
                map.push_insert(s.len(), n.to_orig(body));
                s.push(' ');
            }
            push_range(n, text, body, next.body_end.max(body), &mut s, &mut map);
            starts.push(next.bang);
            last = next;
        }
        let dangling = last.continued.then(|| n.span(last.bang, last.end));
        // Whole lines, trailing comments and a fixed-form sequence field included, so
        // replacing the span leaves nothing behind.
        let span = n.span(starts[0], last.end);
        out.push(RawDirective { text: DirectiveText { text: s, map }, span, lines: starts, dangling });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str, fixed: bool) -> RawDirective {
        let n = if fixed { super::super::fixed::normalise(src) } else { Normalised::identity(src) };
        let mut v = collect(&n);
        assert_eq!(v.len(), 1);
        v.remove(0)
    }

    #[test]
    fn free_form_join() {
        let src = "  !$xmp reflect (a) & ! halo\n  !$XMP& width(1)\n";
        let d = one(src, false);
        assert_eq!(d.text.text, "xmp reflect (a)  width(1)");
        // `width` maps back to its column on the second line.
        let w = d.text.text.find("width").unwrap();
        assert_eq!(d.text.map.to_orig(w), src.find("width").unwrap());
        assert_eq!(d.span, Span::new(2, src.len() - 1));
        assert_eq!(d.lines.len(), 2);
        let d = one("!$xmp barrier ! sync \n", false);
        assert_eq!(d.span, Span::new(0, 20));
    }

    #[test]
    fn continuation_without_amp_gets_a_blank() {
        let d = one("!$acc parallel loop &\n!$acc gang\n", false);
        assert_eq!(d.text.text, "acc parallel loop   gang");
    }

    #[test]
    fn not_directives() {
        let n = Normalised::identity("!$ x = 1\n! $xmp no\n!$xmpx\n!$omp parallel\n");
        assert!(collect(&n).is_empty());
    }

    #[test]
    fn fixed_form_join() {
        let src = "c$xmp loop on t(i)\nc$xmp+ reduction(+:s)\n      do i = 1, n\n";
        let d = one(src, true);
        assert_eq!(d.text.text, "xmp loop on t(i) reduction(+:s)");
        assert_eq!(d.span.start, 0);
        assert_eq!(d.span.end, src.find("\n      do").unwrap());
        let r = d.text.text.find("reduction").unwrap();
        assert_eq!(d.text.map.to_orig(r), src.find("reduction").unwrap());
    }

    #[test]
    fn dangling() {
        let d = one("!$xmp bcast (a) &\n      x = 1\n", false);
        assert!(d.dangling.is_some());
    }
}
