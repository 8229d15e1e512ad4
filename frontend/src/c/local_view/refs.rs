//! Coarray declarations, coindexed references with the statement around them, and
//! atomic calls, found on the token stream (`tokens.rs`). Only the shape is read here;
//! what is translated and what is refused is the lowering's decision
//! (`backends/src/c/coarray.rs`).

use super::tokens::{Tok, K};
use xmpc_ir::local_view::{AccessCtx, AtomicCall, AtomicTarget, CoAccess, CoDecl, LocalView, ObjRef, Snippet, Storage, Sub};
use xmpc_ir::Span;

pub(super) struct Toks<'a> {
    src: &'a str,
    pub toks: &'a [Tok],
    /// The matching bracket of each `(`/`[`/`{` and `)`/`]`/`}`.
    pair: Vec<Option<usize>>,
}

/// A reference and the tokens it covers, `[t0, t1)`.
struct R {
    t0: usize,
    t1: usize,
    obj: ObjRef,
}

impl<'a> Toks<'a> {
    pub fn new(src: &'a str, toks: &'a [Tok]) -> Self {
        let mut pair = vec![None; toks.len()];
        let mut open: [Vec<usize>; 3] = Default::default();
        for (i, t) in toks.iter().enumerate() {
            if t.k != K::P {
                continue;
            }
            let s = &src[t.span.range()];
            if let Some(k) = ["(", "[", "{"].iter().position(|o| *o == s) {
                open[k].push(i);
            } else if let Some(k) = [")", "]", "}"].iter().position(|c| *c == s) {
                if let Some(o) = open[k].pop() {
                    pair[o] = Some(i);
                    pair[i] = Some(o);
                }
            }
        }
        Toks { src, toks, pair }
    }

    pub fn t(&self, i: usize) -> &'a str {
        self.toks.get(i).map_or("", |t| &self.src[t.span.range()])
    }
    fn is_ident(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| t.k == K::Ident)
    }
    /// `:` followed by `[`: a coindex (or a codimension) starts at `i`.
    pub fn coindex_at(&self, i: usize) -> bool {
        self.t(i) == ":" && self.t(i + 1) == "["
    }
    /// The token closing the bracket opened at `i`.
    pub fn close(&self, i: usize) -> Option<usize> {
        self.pair.get(i).copied().flatten().filter(|&j| j > i)
    }
    fn open(&self, j: usize) -> Option<usize> {
        self.pair.get(j).copied().flatten().filter(|&i| i < j)
    }
    /// Tokens `[a, b)` as written, comments dropped and each gap one space.
    pub fn code(&self, a: usize, b: usize) -> Snippet {
        let mut text = String::new();
        for k in a..b {
            if k > a && self.toks[k].span.start > self.toks[k - 1].span.end {
                text.push(' ');
            }
            text.push_str(self.t(k));
        }
        Snippet { span: self.span(a, b), text }
    }
    /// The span of tokens `[a, b)` (empty at token `a` when `a >= b`).
    pub fn span(&self, a: usize, b: usize) -> Span {
        let at = |i: usize| self.toks.get(i).map_or(self.src.len(), |t| t.span.start);
        if a >= b {
            return Span::new(at(a), at(a));
        }
        Span::new(self.toks[a].span.start, self.toks[b - 1].span.end)
    }
    /// Splits tokens `[a, b)` at top-level `sep`; a `?` at top level when splitting at
    /// `:` means the `:` is a conditional's: no split.
    fn split(&self, a: usize, b: usize, sep: &str) -> Vec<(usize, usize)> {
        let mut out = vec![];
        let mut d = 0i32;
        let mut s = a;
        for i in a..b {
            match self.t(i) {
                "(" | "[" | "{" => d += 1,
                ")" | "]" | "}" => d -= 1,
                x if x == sep && d == 0 => {
                    out.push((s, i));
                    s = i + 1;
                }
                "?" if sep == ":" && d == 0 => return vec![(a, b)],
                _ => {}
            }
        }
        out.push((s, b));
        out
    }
    fn opt(&self, r: (usize, usize)) -> Option<Snippet> {
        (r.0 < r.1).then(|| self.code(r.0, r.1))
    }
    fn sub(&self, o: usize, c: usize) -> Sub {
        let parts = self.split(o + 1, c, ":");
        match parts.len() {
            1 => Sub::Index(self.code(o + 1, c)),
            _ => Sub::Section { start: self.opt(parts[0]), len: parts.get(1).and_then(|&p| self.opt(p)), stride: parts.get(2).and_then(|&p| self.opt(p)) },
        }
    }

    /// The reference whose coindex `:` is token `colon` (object `ident(.ident)*`, its
    /// `[..]` groups, then the cosubscript groups), or None when no object precedes.
    fn coindexed(&self, colon: usize) -> Option<R> {
        let mut j = colon;
        let mut groups = vec![];
        while j > 0 && self.t(j - 1) == "]" {
            let o = self.open(j - 1)?;
            groups.push((o, j - 1));
            j = o;
        }
        groups.reverse();
        if j == 0 || !self.is_ident(j - 1) {
            return None;
        }
        let mut b0 = j - 1;
        while b0 >= 2 && self.t(b0 - 1) == "." && self.is_ident(b0 - 2) {
            b0 -= 2;
        }
        let subs = groups.iter().map(|&(o, c)| self.sub(o, c)).collect();
        let mut co = vec![];
        let mut k = colon + 1;
        while self.t(k) == "[" {
            let c = self.close(k)?;
            co.push(self.code(k + 1, c));
            k = c + 1;
        }
        let obj = ObjRef { span: self.span(b0, k), base: self.code(b0, j), subs, co };
        Some(R { t0: b0, t1: k, obj })
    }

    /// A plain reference `obj[subs]` (no coindex) covering exactly tokens `[a, b)`.
    fn plain(&self, a: usize, b: usize) -> Option<ObjRef> {
        if a >= b || !self.is_ident(a) {
            return None;
        }
        let mut j = a + 1;
        while j + 1 < b && self.t(j) == "." && self.is_ident(j + 1) {
            j += 2;
        }
        let base = self.code(a, j);
        let mut subs = vec![];
        while j < b {
            if self.t(j) != "[" {
                return None;
            }
            let c = self.close(j).filter(|&c| c < b)?;
            subs.push(self.sub(j, c));
            j = c + 1;
        }
        Some(ObjRef { span: self.span(a, b), base, subs, co: vec![] })
    }

    /// True when a statement may start at token `i`.
    fn stmt_start_ok(&self, i: usize) -> bool {
        i == 0 || matches!(self.t(i - 1), ";" | "{" | "}" | ")" | ":" | "else" | "do")
    }

    /// First token of the file-scope statement (or declaration) holding token `i`.
    pub fn stmt_start(&self, i: usize) -> usize {
        let mut st = i;
        while st > 0 && !(self.toks[st - 1].depth == 0 && matches!(self.t(st - 1), ";" | "}")) {
            st -= 1;
        }
        st
    }

    /// Index of the `;` ending the statement that continues at `i`.
    fn stmt_end(&self, i: usize) -> Option<usize> {
        let mut d = 0i32;
        for j in i..self.toks.len() {
            match self.t(j) {
                "(" | "[" | "{" => d += 1,
                ")" | "]" | "}" => {
                    d -= 1;
                    if d < 0 {
                        return None;
                    }
                }
                ";" if d == 0 => return Some(j),
                _ => {}
            }
        }
        None
    }
}

/// Fills `lv`'s declarations, atomic calls and accesses, in that order of claim: a
/// token a declaration or an atomic call takes is no access.
pub(super) fn recognise(x: &Toks, lv: &mut LocalView) {
    // tokens a declaration or an atomic call took
    let mut taken = vec![false; x.toks.len()];
    for i in 0..x.toks.len() {
        if !x.coindex_at(i) {
            continue;
        }
        let Some(r) = x.coindexed(i) else { continue };
        if r.obj.co.last().map(|c| c.text.as_str()) != Some("*") {
            continue;
        }
        let st = x.stmt_start(i);
        let storage = match x.t(st) {
            "extern" => Storage::Extern,
            "typedef" => Storage::Typedef,
            _ => Storage::Definition,
        };
        let codims = Span::new(x.toks[i].span.start, r.obj.span.end);
        taken[r.t0..r.t1].fill(true);
        lv.decls.push(CoDecl { obj: r.obj, codims, stmt_start: x.toks[st].span.start, storage, file_scope: x.toks[i].depth == 0 });
    }
    for i in 0..x.toks.len() {
        let define = match x.t(i) {
            "xmp_atomic_define" => true,
            "xmp_atomic_ref" => false,
            _ => continue,
        };
        if x.t(i + 1) != "(" {
            continue;
        }
        if let Some(c) = x.close(i + 1) {
            lv.atomics.push(atomic(x, i, c, define));
            taken[i..=c].fill(true);
        }
    }
    let mut i = 0;
    while i < x.toks.len() {
        if !x.coindex_at(i) || taken[i] {
            i += 1;
            continue;
        }
        let Some(r) = x.coindexed(i) else {
            i += 1;
            continue;
        };
        let (ctx, next) = context(x, &r);
        lv.accesses.push(CoAccess { obj: r.obj, ctx });
        i = next.max(i + 1);
    }
}

/// The statement around a coindexed reference, and the token after what it takes.
fn context(x: &Toks, r: &R) -> (AccessCtx, usize) {
    let after = x.t(r.t1);
    if matches!(after, "." | "->" | "[") {
        return (AccessCtx::Followed(x.span(r.t1, r.t1 + 1)), r.t1);
    }
    if after == "=" && x.stmt_start_ok(r.t0) {
        let Some(semi) = x.stmt_end(r.t1 + 1) else { return (AccessCtx::PutUnterminated, r.t1) };
        let rhs = x.code(r.t1 + 1, semi);
        let rhs_obj = x.plain(r.t1 + 1, semi);
        let rhs_coindexed = (r.t1 + 1..semi).find(|&k| x.coindex_at(k)).map(|k| x.span(k, k + 2));
        let stmt = Span::new(r.obj.span.start, x.toks[semi].span.end);
        return (AccessCtx::Put { stmt, rhs, rhs_obj, rhs_coindexed }, semi + 1);
    }
    if after == ";" && r.t0 > 0 && x.t(r.t0 - 1) == "=" {
        let eq = r.t0 - 1;
        let mut a = eq;
        while a > 0 {
            let p = x.t(a - 1);
            if p == "]" {
                match x.open(a - 1) {
                    Some(o) => a = o,
                    None => break,
                }
            } else if x.is_ident(a - 1) && !matches!(p, "return" | "else" | "do") || p == "." {
                a -= 1;
            } else {
                break;
            }
        }
        if let Some(lhs) = x.stmt_start_ok(a).then(|| x.plain(a, eq)).flatten() {
            let stmt = Span::new(x.toks[a].span.start, x.toks[r.t1].span.end);
            return (AccessCtx::Get { stmt, lhs }, r.t1 + 1);
        }
    }
    (AccessCtx::Expr, r.t1)
}

/// `xmp_atomic_define(` at `f`, its `)` at `close`.
fn atomic(x: &Toks, f: usize, close: usize, define: bool) -> AtomicCall {
    let parts = x.split(f + 2, close, ",");
    let args: Vec<Snippet> = parts.iter().map(|&(a, b)| x.code(a, b)).collect();
    let mut call = AtomicCall { define, span: x.span(f, close + 1), args, target: None, coindexed_value: None };
    if parts.len() != 2 {
        return call;
    }
    let (target, value) = if define { (parts[0], parts[1]) } else { (parts[1], parts[0]) };
    call.coindexed_value = (value.0..value.1).find(|&k| x.coindex_at(k)).map(|k| x.span(k, k + 2));
    let colon = (target.0..target.1).find(|&k| x.coindex_at(k));
    call.target = Some(match colon {
        None => AtomicTarget::Local(x.code(target.0, target.1)),
        Some(c) => match x.coindexed(c) {
            Some(r) if r.t0 == target.0 && r.t1 == target.1 && !r.obj.has_section() => AtomicTarget::Coindexed(r.obj),
            _ => AtomicTarget::Malformed(x.span(target.0, target.1)),
        },
    });
    call
}
