//! The XMP/C local view, recognised by the C front end: coarray declarations
//! (`int a[10]:[*];`), coindexed references (`a[i]:[img]`, sections `a[s:l:st]:[img]`)
//! with the statement around them, `xmp_atomic_*` calls and the directives
//! `#pragma xmp coarray|post|wait|lock|unlock`, as a located
//! [`LocalView`](xmpc_ir::local_view::LocalView) the local-view lowering
//! (`xmpc_backends::c::coarray`) prints as plain C.
//!
//! tree-sitter-c cannot parse `a[i]:[j]`, but its error recovery keeps every token: the
//! file (its `#pragma xmp|acc` lines masked as comments, `mask.rs`) is parsed and the
//! leaves of the tree are the token stream (`tokens.rs`). String and character
//! literals, comments and preprocessor lines are never looked into, so a `"[a]:[b]"`
//! is no coindex. The constructs are found on that stream (`refs.rs`), the directives
//! on the masked directive lines with the directive lexer (`directives.rs`).

mod directives;
mod refs;
mod tokens;

use super::mask;
use xmpc_ir::local_view::LocalView;
use xmpc_ir::{Diag, FileId, Span};

/// The local view of the C file `text` (file id `file`): `None` when it has none (the
/// file passes through untouched), its syntax errors (XMP0701, located) otherwise.
pub fn scan(file: FileId, text: &str) -> Result<Option<LocalView>, Vec<Diag>> {
    if !may_have_local_view(text) {
        return Ok(None);
    }
    let masked = mask::mask_directives(text);
    let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
    let mut parser = tree_sitter::Parser::new();
    let tree = parser.set_language(&lang).ok().and_then(|()| parser.parse(&masked.text, None));
    let Some(tree) = tree else {
        let d = directives::err(file, Span::new(0, 0), "the C parser failed: the local view cannot be read", "here", "please report this");
        return Err(vec![d]);
    };
    let stream = tokens::stream(tree.root_node(), &masked.text);
    let toks = refs::Toks::new(text, &stream.toks);
    let mut lv = LocalView::default();
    refs::recognise(&toks, &mut lv);
    let mut diags = vec![];
    for raw in &masked.directives {
        match directives::directive(raw, &toks, file) {
            Some(Ok(d)) => lv.directives.push(d),
            Some(Err(e)) => diags.push(e),
            None => {}
        }
    }
    diags.extend(unpaired_quotes(file, text, &stream.stray_quotes, &lv));
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok((!lv.is_empty()).then_some(lv))
}

/// A construct on the line of a quote tree-sitter could not pair may be text of an
/// unterminated literal: refused, located at the quote.
fn unpaired_quotes(file: FileId, text: &str, quotes: &[Span], lv: &LocalView) -> Vec<Diag> {
    let spans: Vec<Span> = lv.decls.iter().map(|d| d.obj.span).chain(lv.accesses.iter().map(|a| a.obj.span)).chain(lv.atomics.iter().map(|a| a.span)).collect();
    let mut out = vec![];
    for q in quotes {
        let start = text[..q.start].rfind('\n').map_or(0, |i| i + 1);
        let end = text[q.end..].find('\n').map_or(text.len(), |i| q.end + i);
        if let Some(c) = spans.iter().find(|s| s.start < end && s.end > start) {
            let hint = "terminate the string or character literal; xmpc reads coarray syntax only where every literal is paired";
            let d = directives::err(file, *q, "a quote the C parser could not pair, on a line with coarray syntax", "unpaired quote", hint);
            out.push(d.with_labels(vec![xmpc_ir::diag::Label::secondary(file, c.range()).with_message("coarray syntax")]));
        }
    }
    out
}

/// False when `text` certainly has no local view (no `:` followed by `[`, no
/// `xmp_atomic_` and no local-view directive word after `pragma xmp`): such a file is
/// not parsed a second time.
pub fn may_have_local_view(text: &str) -> bool {
    let b = text.as_bytes();
    let colon_bracket = b.iter().enumerate().any(|(i, &c)| c == b':' && b[i + 1..].iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'['));
    let blank = |c: char| c.is_whitespace() || c == '\\';
    let directive = text.match_indices("pragma").any(|(i, _)| {
        let rest = text[i + 6..].trim_start_matches(blank);
        rest.strip_prefix("xmp").is_some_and(|r| directives::WORDS.iter().any(|w| r.trim_start_matches(blank).starts_with(w)))
    });
    colon_bracket || directive || text.contains("xmp_atomic_")
}

#[cfg(test)]
mod tests;
