//! The token stream of a C file as tree-sitter-c reads it: the leaves of its tree, in
//! order. String and character literals are one opaque token each, comments (and the
//! masked `#pragma xmp|acc` lines) and preprocessor lines are no tokens at all, so
//! nothing inside them can look like coarray syntax. Code tree-sitter-c cannot parse
//! (`a[i]:[j]`) is still tokenised: its leaves sit under `ERROR` nodes.

use tree_sitter::{Node, TreeCursor};
use xmpc_ir::Span;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum K {
    /// Identifiers and keywords.
    Ident,
    Num,
    /// A string or character literal.
    Str,
    /// Punctuation and operators (also text tree-sitter skipped).
    P,
}

#[derive(Clone, Debug)]
pub(super) struct Tok {
    pub k: K,
    pub span: Span,
    /// Brace depth before the token.
    pub depth: usize,
}

pub(super) struct Stream {
    pub toks: Vec<Tok>,
    /// Quotes that are leaves of their own: tree-sitter's error recovery did not read a
    /// string or character literal as one (an unterminated `'x`, or prose with an
    /// apostrophe under `#if 0`); the tokens after them on their line cannot be trusted.
    pub stray_quotes: Vec<Span>,
}

/// Preprocessor lines whose every byte is skipped.
const PREPROC_LINES: &[&str] = &["preproc_include", "preproc_def", "preproc_function_def", "preproc_call", "preproc_arg", "preproc_directive"];
/// Conditional groups: the directive line is skipped, the lines inside are code.
const PREPROC_GROUPS: &[&str] = &["preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef", "preproc_else"];
/// One token each, never looked into.
const LITERALS: &[&str] = &["string_literal", "char_literal", "system_lib_string", "raw_string_literal"];

struct Walker<'a, 't> {
    text: &'a str,
    out: Vec<Tok>,
    /// Everything before this offset is a token, a comment or skipped.
    covered: usize,
    depth: usize,
    stray_quotes: Vec<Span>,
    /// Kinds of the nodes on the cursor's path (index: cursor depth).
    path: Vec<&'t str>,
}

/// The tokens of `text`, parsed by tree-sitter-c into the tree under `root`.
pub(super) fn stream<'t>(root: Node<'t>, text: &str) -> Stream {
    let mut w = Walker { text, out: Vec::new(), covered: 0, depth: 0, stray_quotes: Vec::new(), path: Vec::new() };
    let mut c = root.walk();
    loop {
        let descend = w.visit(&c);
        if descend && c.goto_first_child() {
            continue;
        }
        // next sibling, or the next sibling of the nearest ancestor that has one
        loop {
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                w.gap(text.len());
                return Stream { toks: w.out, stray_quotes: w.stray_quotes };
            }
        }
    }
}

impl<'t> Walker<'_, 't> {
    /// Handles the cursor's node; true when its children are to be visited.
    fn visit(&mut self, c: &TreeCursor<'t>) -> bool {
        let n = c.node();
        let d = c.depth() as usize;
        self.path.truncate(d);
        let parent = self.path.last().copied().unwrap_or("");
        self.path.push(n.kind());
        let span = Span::new(n.start_byte(), n.end_byte());
        if span.is_empty() {
            return false; // MISSING tokens tree-sitter made up
        }
        let kind = n.kind();
        let line_part = PREPROC_GROUPS.contains(&parent) && (matches!(c.field_name(), Some("condition" | "name")) || kind.starts_with('#'));
        if kind == "comment" || PREPROC_LINES.contains(&kind) || line_part || (!n.is_named() && kind.starts_with('#')) {
            self.skip(span);
            return false;
        }
        if LITERALS.contains(&kind) {
            self.push(K::Str, span);
            return false;
        }
        if n.child_count() > 0 {
            return true;
        }
        let text = &self.text[span.range()];
        if text.trim().is_empty() {
            self.skip(span); // the newline ending a preprocessor line
        } else if !n.is_named() && (kind.ends_with('"') || kind.ends_with('\'')) {
            self.stray_quotes.push(span);
            self.push(K::P, span);
        } else if kind == "number_literal" {
            self.push(K::Num, span);
        } else if text.starts_with(|ch: char| ch.is_ascii_alphabetic() || ch == '_') {
            self.push(K::Ident, span);
        } else {
            self.push(K::P, span);
        }
        false
    }

    fn skip(&mut self, span: Span) {
        self.gap(span.start);
        self.covered = self.covered.max(span.end);
    }

    fn push(&mut self, k: K, span: Span) {
        self.gap(span.start);
        if span.start < self.covered {
            return; // inside something already taken (never in a well-formed tree)
        }
        let text = &self.text[span.range()];
        if text == "}" {
            self.depth = self.depth.saturating_sub(1);
        }
        self.out.push(Tok { k, span, depth: self.depth });
        if text == "{" {
            self.depth += 1;
        }
        self.covered = span.end;
    }

    /// Text between the last token and `at` that is not blank (tree-sitter skipped it
    /// while recovering from an error) becomes one token, so nothing is lost.
    fn gap(&mut self, at: usize) {
        if at <= self.covered {
            return;
        }
        let g = &self.text[self.covered..at];
        let blank = |b: &u8| b.is_ascii_whitespace() || *b == b'\\';
        if let (Some(s), Some(e)) = (g.bytes().position(|b| !blank(&b)), g.bytes().rposition(|b| !blank(&b))) {
            let span = Span::new(self.covered + s, self.covered + e + 1);
            self.out.push(Tok { k: K::P, span, depth: self.depth });
        }
        self.covered = at;
    }
}
