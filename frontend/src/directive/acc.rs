//! OpenACC: only the construct name is recognised (for attachment); the clauses are
//! passed through verbatim, so they are not lexed (any OpenACC clause syntax survives).

use super::parser::PResult;
use super::PErr;
use xmpc_ir::diag::did_you_mean;
use xmpc_ir::directive::{DirLang, ACC_CONSTRUCTS};
use xmpc_ir::Span;

/// Reads the construct after the `acc` sentinel (which ends at `from`). Returns the
/// canonical construct and the directive-text span of its words.
pub(crate) fn construct(text: &str, from: usize, lang: DirLang) -> PResult<(String, Span)> {
    let words = leading_words(text, from, 3);
    let norm = |w: &str| if lang == DirLang::Fortran { w.to_ascii_lowercase() } else { w.to_string() };
    for k in (1..=words.len()).rev() {
        let cand = words[..k].iter().map(|(w, _)| norm(w)).collect::<Vec<_>>().join(" ");
        if ACC_CONSTRUCTS.iter().any(|e| e.0 == cand) {
            return Ok((cand, words[0].1.to(words[k - 1].1)));
        }
    }
    let firsts: Vec<&str> = {
        let mut v: Vec<&str> = ACC_CONSTRUCTS.iter().map(|e| e.0.split(' ').next().unwrap_or(e.0)).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let Some((w, span)) = words.first() else {
        // Label the first thing after `acc` (a whole character), or `acc` itself.
        let rest = &text[from..];
        let at = match rest.char_indices().find(|(_, c)| !c.is_whitespace()) {
            Some((k, c)) => Span::new(from + k, from + k + c.len_utf8()),
            None => Span::new(from.saturating_sub(3), from),
        };
        return Err(PErr::new("XMP0006", "expected an OpenACC construct after 'acc'", at, "expected a construct name")
            .help(format!("constructs: {}", firsts.join(", "))));
    };
    let mut e = PErr::new("XMP0006", format!("unknown OpenACC construct '{w}'"), *span, "unknown construct");
    let first = norm(w);
    if first == "enter" || first == "exit" {
        e = e.help(format!("did you mean '{first} data'?"));
    } else if let Some(s) = did_you_mean(w, firsts.iter().copied()) {
        e = e.help(format!("did you mean '{s}'?"));
    }
    Err(e.help(format!("constructs: {}", firsts.join(", "))))
}

/// Up to `n` identifier words from `from`, separated only by blanks (a `(` or anything
/// else ends the run).
fn leading_words(text: &str, from: usize, n: usize) -> Vec<(&str, Span)> {
    let b = text.as_bytes();
    let mut i = from;
    let mut out = Vec::new();
    while out.len() < n {
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n' | b'\\' | b'&') {
            i += 1;
        }
        let s = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if s == i || !b[s].is_ascii_alphabetic() {
            break;
        }
        out.push((&text[s..i], Span::new(s, i)));
    }
    out
}
