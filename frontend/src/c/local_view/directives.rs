//! The local-view directives `#pragma xmp coarray|post|wait|lock|unlock`, read from
//! the masked directive lines (`mask.rs`) with the directive lexer. Their syntax errors
//! are located here (XMP0701, a label and a hint); the lowering prints the calls.

use super::refs::Toks;
use super::tokens::K;
use crate::c::mask::RawDirective;
use crate::directive::{lex_c, Tok, TokKind};
use xmpc_ir::local_view::{CoName, LvDirective, LvKind, NodeRef};
use xmpc_ir::{Code as DiagCode, Diag, FileId, Span};

/// The directive words read here.
pub(super) const WORDS: &[&str] = &["coarray", "post", "wait", "lock", "unlock"];

pub(super) fn err(file: FileId, span: Span, msg: impl std::fmt::Display, label: &str, hint: &str) -> Diag {
    DiagCode::LocalView.error(file, msg, span, label).with_notes(vec![format!("hint: {hint}")])
}

/// One directive line: None when it is not a local-view directive.
pub(super) fn directive(raw: &RawDirective, x: &Toks, file: FileId) -> Option<Result<LvDirective, Diag>> {
    let mut words = raw.text.text.split_whitespace();
    let first = words.next()?;
    let word: String = words.next().unwrap_or("").chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if first != "xmp" || !WORDS.contains(&word.as_str()) {
        return None;
    }
    let toks = match lex_c(&raw.text, file) {
        Ok(t) => t,
        Err(d) => return Some(Err(d)),
    };
    let d = D { raw, toks, file };
    let kind = match word.as_str() {
        "coarray" => d.coarray(x),
        "post" | "wait" => d.post_wait(&word),
        _ => d.lock(&word),
    };
    Some(kind.map(|kind| LvDirective { span: raw.span, kind }))
}

struct D<'a> {
    raw: &'a RawDirective,
    /// `xmp`, the word, the rest, `Eof`.
    toks: Vec<Tok>,
    file: FileId,
}

impl D<'_> {
    fn p(&self, i: usize) -> &str {
        match &self.toks.get(i).map(|t| &t.kind) {
            Some(TokKind::Punct(p)) => p,
            _ => "",
        }
    }
    fn eof(&self, i: usize) -> bool {
        self.toks.get(i).is_none_or(|t| t.kind == TokKind::Eof)
    }
    /// The file span of tokens `[a, b)` (the word when empty).
    fn span(&self, a: usize, b: usize) -> Span {
        let s = if a < b { self.toks[a].span.to(self.toks[b - 1].span) } else { self.toks[1].span };
        self.raw.text.map.span_to_orig(s)
    }
    fn all(&self) -> Span {
        self.span(1, self.toks.len() - 1)
    }
    /// Tokens `[a, b)` as text, each gap one space.
    fn text(&self, a: usize, b: usize) -> String {
        let t = &self.raw.text.text;
        let mut s = String::new();
        for k in a..b {
            if k > a && self.toks[k].span.start > self.toks[k - 1].span.end {
                s.push(' ');
            }
            s.push_str(&t[self.toks[k].span.range()]);
        }
        s
    }
    /// The token closing the bracket opened at `i`.
    fn close(&self, i: usize) -> Option<usize> {
        let (o, c) = match self.p(i) {
            "(" => ("(", ")"),
            "[" => ("[", "]"),
            _ => return None,
        };
        let mut d = 0;
        for j in i..self.toks.len() {
            if self.p(j) == o {
                d += 1;
            } else if self.p(j) == c {
                d -= 1;
                if d == 0 {
                    return Some(j);
                }
            }
        }
        None
    }
    /// Top-level `,`-separated parts of `[a, b)`.
    fn split(&self, a: usize, b: usize) -> Vec<(usize, usize)> {
        let mut out = vec![];
        let (mut d, mut s) = (0, a);
        for i in a..b {
            match self.p(i) {
                "(" | "[" | "{" => d += 1,
                ")" | "]" | "}" => d -= 1,
                "," if d == 0 => {
                    out.push((s, i));
                    s = i + 1;
                }
                _ => {}
            }
        }
        out.push((s, b));
        out
    }

    /// `coarray a, b : [P][*]`.
    fn coarray(&self, x: &Toks) -> Result<LvKind, Diag> {
        let usage = "write `#pragma xmp coarray a, b : [*]` (the last codimension `*`)";
        let mut names = vec![];
        let mut i = 2;
        loop {
            match &self.toks[i].kind {
                TokKind::Ident(n) => names.push(self.name(n, self.span(i, i + 1), x)),
                _ => return Err(err(self.file, self.span(i, i + 1), "coarray: expected a variable name", "not a name", usage)),
            }
            i += 1;
            match self.p(i) {
                "," => i += 1,
                ":" => break,
                _ => return Err(err(self.file, self.span(i, i + 1), "coarray: expected `names : [codimensions]`", "expected `,` or `:`", usage)),
            }
        }
        let colon = i;
        i += 1;
        let mut codims = vec![];
        while self.p(i) == "[" {
            let Some(c) = self.close(i).filter(|&c| c > i + 1) else {
                return Err(err(self.file, self.span(i, i + 1), "coarray: a codimension is empty or not closed", "codimension", usage));
            };
            codims.push(self.text(i + 1, c));
            i = c + 1;
        }
        if !self.eof(i) || codims.is_empty() {
            return Err(err(self.file, self.span(colon, self.toks.len() - 1), "coarray: expected the codimensions `[...]...[*]`", "codimensions", usage));
        }
        if codims.last().map(String::as_str) != Some("*") {
            return Err(err(self.file, self.span(colon + 1, i), "coarray: the last codimension must be `*`", "codimensions", usage));
        }
        Ok(LvKind::Coarray { names, codims })
    }

    fn name(&self, n: &str, span: Span, x: &Toks) -> CoName {
        CoName { name: n.to_string(), span, is_extern: is_extern(x, n), definition: definition(x, n, self.raw.span.start) }
    }

    /// `post (p[k], tag)`, `wait`, `wait (p[k])`, `wait (p[k], tag)`.
    fn post_wait(&self, word: &str) -> Result<LvKind, Diag> {
        let post = word == "post";
        let usage = "post(p[k], tag), wait, wait(p[k]) or wait(p[k], tag); p(k) is 1-based";
        let args = if self.eof(2) && !post {
            vec![]
        } else {
            match self.close(2) {
                Some(c) if self.eof(c + 1) => self.split(3, c),
                _ => {
                    let want = if post { "(node-ref, tag)" } else { "(node-ref[, tag])" };
                    return Err(err(self.file, self.all(), format!("{word}: expected `{word} {want}`"), "directive", usage));
                }
            }
        };
        if post && args.len() != 2 || args.len() > 2 {
            return Err(err(self.file, self.all(), format!("{word}: wrong number of arguments"), "directive", usage));
        }
        let node = match args.first() {
            None => None,
            Some(&(a, b)) => Some(self.node_ref(a, b).ok_or_else(|| {
                err(
                    self.file,
                    self.span(a, b),
                    format!("{word}: `{}` is not a reference to one node of a one-dimensional node set", self.text(a, b)),
                    "node reference",
                    "write p[k] (0-based) or p(k) (1-based)",
                )
            })?),
        };
        let tag = args.get(1).map(|&(a, b)| self.text(a, b));
        match (post, node, tag) {
            (true, Some(node), Some(tag)) => Ok(LvKind::Post { node, tag }),
            (_, node, tag) => Ok(LvKind::Wait { node, tag }),
        }
    }

    /// `p[k]` or `p(k)` covering `[a, b)`.
    fn node_ref(&self, a: usize, b: usize) -> Option<NodeRef> {
        let TokKind::Ident(n) = &self.toks[a].kind else { return None };
        let c = self.close(a + 1).filter(|&c| c + 1 == b && c > a + 2)?;
        if (a + 2..c).any(|k| self.p(k) == ":") || self.split(a + 2, c).len() != 1 {
            return None;
        }
        Some(NodeRef { nodes: n.clone(), index: self.text(a + 2, c), one_based: self.p(a + 1) == "(" })
    }

    /// `lock (l:[img])` / `unlock (l:[img])`.
    fn lock(&self, word: &str) -> Result<LvKind, Diag> {
        let bad = || {
            err(
                self.file,
                self.all(),
                format!("{word}: expected `{word}(lock-variable:[image])`"),
                "directive",
                "the lock variable is an `xmp_lock_t` coarray: `lock(lk:[1])`",
            )
        };
        let c = self.close(2).filter(|&c| self.eof(c + 1)).ok_or_else(bad)?;
        let colon = (3..c).find(|&k| self.p(k) == ":" && self.p(k + 1) == "[").filter(|&k| k > 3).ok_or_else(bad)?;
        let img_close = self.close(colon + 1).filter(|&e| e + 1 == c && e > colon + 2).ok_or_else(bad)?;
        Ok(LvKind::Lock { unlock: word == "unlock", obj: self.text(3, colon), image: self.text(colon + 2, img_close) })
    }
}

/// True when a file-scope statement starting with `extern` names `name`.
fn is_extern(x: &Toks, name: &str) -> bool {
    let mut st = 0;
    for i in 0..x.toks.len() {
        if x.toks[i].depth == 0 && matches!(x.t(i), ";" | "}") {
            if x.t(st) == "extern" && (st..i).any(|j| x.toks[j].k == K::Ident && x.t(j) == name) {
                return true;
            }
            st = i + 1;
        }
    }
    false
}

/// Where the last file-scope definition of `name` before offset `before` starts: a
/// declarator `name[...]` followed by `,`, `;` or `=`.
fn definition(x: &Toks, name: &str, before: usize) -> Option<usize> {
    let mut found = None;
    for i in 0..x.toks.len() {
        if x.toks[i].span.start >= before {
            break;
        }
        if x.toks[i].depth != 0 || x.toks[i].k != K::Ident || x.t(i) != name || i == 0 || x.t(i - 1) == "." {
            continue;
        }
        let mut j = i + 1;
        while x.t(j) == "[" {
            j = x.close(j)? + 1;
        }
        if matches!(x.t(j), "," | ";" | "=") {
            found = Some(x.toks[x.stmt_start(i)].span.start);
        }
    }
    found
}
