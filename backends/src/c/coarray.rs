//! XMP/C local view: coarray syntax and the local-view directives, lowered to plain C
//! calling `runtime/lib/xmp/include/xmpc_coarray.h` before the C front end sees the file
//! (tree-sitter-c cannot parse `a[i]:[img]`).
//!
//! - `T a[N]:[*];` / `T a:[P][*];` at file scope: the codimensions are blanked (the
//!   storage stays where C puts it) and the file's init registers `&a, sizeof a`;
//!   `#pragma xmp coarray a, b : [*]` does the same for names declared without them
//!   (an `extern` declaration registers nothing: the defining file does).
//! - `x:[img] = rhs;` → a put, `lhs = x:[img];` with a section on either side → a get
//!   of the sections, any other `x:[img]` (no section) → a GNU statement expression
//!   that gets one element. Sections `[start:length:stride]` (parts optional) become
//!   `xmpc_co_sec` descriptors: counts and byte strides from `sizeof` of the object,
//!   so any array or struct-member object works and the C compiler does the layout.
//! - `post/wait/lock/unlock` pragmas and `xmp_atomic_define/ref` calls → runtime calls.
//!
//! Offsets change only inside rewritten constructs and every newline is kept, so later
//! diagnostics keep their line numbers. What is not handled is refused here with a
//! located diagnostic (`XMP07xx`), never passed on to the C compiler.

use xmpc_ir::{Diag, Span};

/// The lowered file, and what the driver adds around the translated text.
pub struct Lowered {
    pub text: String,
    /// Goes before the translated text (`#include "xmpc_coarray.h"`).
    pub prelude: String,
    /// Goes after it (the registration of this file's coarrays).
    pub trailer: String,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum K {
    Ident,
    Num,
    Str,
    P,
}

#[derive(Clone, Debug)]
struct Tok {
    k: K,
    s: usize,
    e: usize,
    /// Brace depth before the token.
    depth: usize,
}

struct Pragma {
    span: Span,
    /// Text after `xmp` with continuations joined.
    body: String,
    body_off: usize,
}

fn err(file: usize, span: Span, msg: impl std::fmt::Display, label: &str, hint: Option<&str>) -> Diag {
    let d = xmpc_ir::diag::error("XMP0701", msg, file, span, label);
    match hint {
        Some(h) => d.with_notes(vec![format!("hint: {h}")]),
        None => d,
    }
}

/// Tokens of C code (comments and non-XMP preprocessor lines skipped) and the
/// `#pragma xmp` lines.
fn lex(src: &str) -> (Vec<Tok>, Vec<Pragma>) {
    let b = src.as_bytes();
    let mut toks = vec![];
    let mut pragmas = vec![];
    let mut i = 0;
    let mut depth = 0usize;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() || (c == b'\\' && b.get(i + 1) == Some(&b'\n')) {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // the logical line
            let mut e = i;
            while e < b.len() && b[e] != b'\n' {
                if b[e] == b'\\' && b.get(e + 1) == Some(&b'\n') {
                    e += 2;
                    continue;
                }
                e += 1;
            }
            let line = &src[i..e];
            let rest = line[1..].trim_start();
            if let Some(r) = rest.strip_prefix("pragma") {
                let r2 = r.trim_start();
                if r2.starts_with("xmp") && r2[3..].starts_with(|ch: char| ch.is_whitespace()) {
                    let off = e - r2.len() + 3;
                    let body = src[off..e].replace("\\\n", "  ");
                    // strip comments
                    let body = strip_comments(&body);
                    pragmas.push(Pragma { span: Span::new(i, e), body, body_off: off });
                }
            }
            i = e;
            continue;
        }
        line_start = false;
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b[i..].starts_with(b"/*") {
            i = src[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            continue;
        }
        let s = i;
        let k = if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            K::Str
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            K::Ident
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
            K::Num
        } else {
            let two = &b[i..(i + 2).min(b.len())];
            let three = &b[i..(i + 3).min(b.len())];
            i += if three == b"<<=" || three == b">>=" || three == b"..." {
                3
            } else if matches!(
                two,
                b"->"
                    | b"++"
                    | b"--"
                    | b"<<"
                    | b">>"
                    | b"<="
                    | b">="
                    | b"=="
                    | b"!="
                    | b"&&"
                    | b"||"
                    | b"+="
                    | b"-="
                    | b"*="
                    | b"/="
                    | b"%="
                    | b"&="
                    | b"|="
                    | b"^="
            ) {
                2
            } else {
                // one byte (a non-ASCII byte: the whole character)
                src[i..].chars().next().map_or(1, char::len_utf8)
            };
            K::P
        };
        let i2 = i.min(b.len());
        if k == K::P && &src[s..i2] == "}" {
            depth = depth.saturating_sub(1);
        }
        toks.push(Tok { k, s, e: i2, depth });
        if k == K::P && &src[s..i2] == "{" {
            depth += 1;
        }
        i = i2;
    }
    (toks, pragmas)
}

fn strip_comments(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    loop {
        let a = rest.find("/*");
        let l = rest.find("//");
        match (a, l) {
            (Some(a), l) if l.is_none_or(|l| a < l) => {
                out.push_str(&rest[..a]);
                out.push_str("  ");
                match rest[a + 2..].find("*/") {
                    Some(e) => rest = &rest[a + 2 + e + 2..],
                    None => return out,
                }
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                return out;
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// One `[...]` group: an index or a section `start:length:stride`.
#[derive(Clone, Debug)]
enum Sub {
    Index(String),
    Sec { start: Option<String>, len: Option<String>, stride: Option<String> },
}

/// `obj[subs]...:[co]...` found in the token stream.
#[derive(Clone, Debug)]
struct Ref {
    /// Token range of the whole reference (object through the last coindex bracket).
    t0: usize,
    t1: usize,
    /// The object without subscripts (`a`, `s.x`).
    base: String,
    subs: Vec<Sub>,
    /// Coindex expressions (empty: not coindexed).
    co: Vec<String>,
    span: Span,
}

impl Ref {
    fn has_sec(&self) -> bool {
        self.subs.iter().any(|s| matches!(s, Sub::Sec { .. }))
    }
    /// `base[0]...[0]` with `n` zeros.
    fn zeros(&self, n: usize) -> String {
        format!("{}{}", self.base, "[0]".repeat(n))
    }
    /// The first element (`base[s0][s1]...`).
    fn first(&self) -> String {
        let mut s = self.base.clone();
        for d in &self.subs {
            match d {
                Sub::Index(e) => s.push_str(&format!("[{e}]")),
                Sub::Sec { start, .. } => s.push_str(&format!("[{}]", start.as_deref().unwrap_or("0"))),
            }
        }
        s
    }
    /// `_Static_assert`s that make an open-ended section (`[:]`, `[s:]`) of a pointer a
    /// compile-time error: its extent comes from `sizeof`, which a pointer does not give.
    fn asserts(&self) -> String {
        let mut out = String::new();
        for (d, sub) in self.subs.iter().enumerate() {
            if let Sub::Sec { len: None, .. } = sub {
                let z = self.zeros(d);
                out.push_str(&format!(
                    "_Static_assert(!__builtin_types_compatible_p(__typeof__({z}), __typeof__(&({z})[0])), \"xmpc: an open-ended section ([:] or [s:]) needs an array, not a pointer: give the length\"); "
                ));
            }
        }
        out
    }
    /// A `xmpc_co_sec` initializer.
    fn sec(&self) -> String {
        let mut cnt = vec![];
        let mut strd = vec![];
        for (d, sub) in self.subs.iter().enumerate() {
            if let Sub::Sec { start, len, stride } = sub {
                let ext = format!("(long)(sizeof({}) / sizeof({}))", self.zeros(d), self.zeros(d + 1));
                let len = match len {
                    Some(l) => format!("(long)({l})"),
                    None => format!("({ext} - (long)({}))", start.as_deref().unwrap_or("0")),
                };
                cnt.push(len);
                let st = stride.as_deref().map_or(String::new(), |s| format!(" * (long)({s})"));
                strd.push(format!("(long)sizeof({}){st}", self.zeros(d + 1)));
            }
        }
        let (c, s) = if cnt.is_empty() { ("0".to_string(), "0".to_string()) } else { (cnt.join(", "), strd.join(", ")) };
        format!("{{{}, sizeof({}), {{{c}}}, {{{s}}}}}", cnt.len(), self.first())
    }
}

struct Lx<'a> {
    src: &'a str,
    name: String,
    file: usize,
    toks: Vec<Tok>,
    diags: Vec<Diag>,
    edits: Vec<(usize, usize, String)>,
    /// name → codimension sizes (text; the last is `*`).
    coarrays: Vec<(String, Vec<String>)>,
    register: Vec<String>,
    line_starts: Vec<usize>,
    uniq: usize,
}

fn join_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl<'a> Lx<'a> {
    fn t(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| &self.src[t.s..t.e])
    }
    fn line(&self, off: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= off)
    }
    fn text(&self, a: usize, b: usize) -> String {
        // token range [a, b) as text
        if a >= b {
            return String::new();
        }
        join_ws(&self.src[self.toks[a].s..self.toks[b - 1].e])
    }
    fn span(&self, a: usize, b: usize) -> Span {
        Span::new(self.toks[a].s, self.toks[b.max(a + 1) - 1].e)
    }
    /// Index of the token closing the bracket opened at `i`.
    fn close(&self, i: usize) -> Option<usize> {
        let (o, c) = match self.t(i) {
            "[" => ("[", "]"),
            "(" => ("(", ")"),
            "{" => ("{", "}"),
            _ => return None,
        };
        let mut d = 0i32;
        for j in i..self.toks.len() {
            let s = self.t(j);
            if s == o {
                d += 1;
            } else if s == c {
                d -= 1;
                if d == 0 {
                    return Some(j);
                }
            }
        }
        None
    }
    /// Index of the token opening the bracket closed at `j`.
    fn open(&self, j: usize) -> Option<usize> {
        let (o, c) = match self.t(j) {
            "]" => ("[", "]"),
            ")" => ("(", ")"),
            _ => return None,
        };
        let mut d = 0i32;
        for i in (0..=j).rev() {
            let s = self.t(i);
            if s == c {
                d += 1;
            } else if s == o {
                d -= 1;
                if d == 0 {
                    return Some(i);
                }
            }
        }
        None
    }
    /// Splits token range [a, b) at top-level occurrences of `sep`.
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
                "?" if sep == ":" && d == 0 => return vec![(a, b)], // a ?: inside: not a section
                _ => {}
            }
        }
        out.push((s, b));
        out
    }
    fn opt(&self, r: (usize, usize)) -> Option<String> {
        (r.0 < r.1).then(|| self.text(r.0, r.1))
    }

    /// The reference whose coindex `:` is token `colon`, or None when the token
    /// before is not a subscripted name.
    fn parse_ref(&self, colon: usize) -> Option<Ref> {
        // object: walk back over [..] groups, then ident (. ident)*
        let mut j = colon;
        let mut groups = vec![];
        while j > 0 && self.t(j - 1) == "]" {
            let o = self.open(j - 1)?;
            groups.push((o, j - 1));
            j = o;
        }
        groups.reverse();
        if j == 0 || self.toks[j - 1].k != K::Ident {
            return None;
        }
        let mut b0 = j - 1;
        while b0 >= 2 && self.t(b0 - 1) == "." && self.toks[b0 - 2].k == K::Ident {
            b0 -= 2;
        }
        let base = self.text(b0, j);
        let subs = groups
            .iter()
            .map(|&(o, c)| {
                let parts = self.split(o + 1, c, ":");
                match parts.len() {
                    1 => Sub::Index(self.text(o + 1, c)),
                    _ => Sub::Sec { start: self.opt(parts[0]), len: parts.get(1).and_then(|&p| self.opt(p)), stride: parts.get(2).and_then(|&p| self.opt(p)) },
                }
            })
            .collect();
        // coindex groups
        let mut co = vec![];
        let mut k = colon + 1;
        while self.t(k) == "[" {
            let c = self.close(k)?;
            co.push(self.text(k + 1, c));
            k = c + 1;
        }
        let span = self.span(b0, k);
        Some(Ref { t0: b0, t1: k, base, subs, co, span })
    }

    /// A plain reference `obj[subs]` (no coindex) spanning exactly tokens [a, b).
    fn plain_ref(&self, a: usize, b: usize) -> Option<Ref> {
        if a >= b || self.toks[a].k != K::Ident {
            return None;
        }
        let mut j = a + 1;
        while j + 1 < b && self.t(j) == "." && self.toks[j + 1].k == K::Ident {
            j += 2;
        }
        let base = self.text(a, j);
        let mut subs = vec![];
        while j < b {
            if self.t(j) != "[" {
                return None;
            }
            let c = self.close(j)?;
            if c >= b {
                return None;
            }
            let parts = self.split(j + 1, c, ":");
            subs.push(match parts.len() {
                1 => Sub::Index(self.text(j + 1, c)),
                _ => Sub::Sec { start: self.opt(parts[0]), len: parts.get(1).and_then(|&p| self.opt(p)), stride: parts.get(2).and_then(|&p| self.opt(p)) },
            });
            j = c + 1;
        }
        Some(Ref { t0: a, t1: b, base, subs, co: vec![], span: self.span(a, b) })
    }

    fn image(&mut self, r: &Ref) -> String {
        let line = self.line(r.span.start);
        if r.co.len() == 1 {
            return format!("({})", r.co[0]);
        }
        let name = r.base.split('.').next().unwrap_or("").trim().to_string();
        match self.coarrays.iter().find(|(n, _)| *n == name).map(|(_, c)| c.clone()) {
            Some(c) if c.len() == r.co.len() => format!(
                "xmpc_co_image({}, {line}, {}, (long[]){{{}}}, (long[]){{{}}})",
                c_str(&self.name),
                c.len(),
                c[..c.len() - 1].iter().map(|s| format!("(long)({s})")).chain(std::iter::once("0".into())).collect::<Vec<_>>().join(", "),
                r.co.iter().map(|s| format!("(long)({s})")).collect::<Vec<_>>().join(", ")
            ),
            Some(c) => {
                self.diags.push(err(self.file, r.span, format!("`{name}` has {} codimensions; the reference gives {}", c.len(), r.co.len()), "coindex", None));
                "0".into()
            }
            None => {
                self.diags.push(err(
                    self.file,
                    r.span,
                    format!("the codimensions of `{name}` are not declared in this file"),
                    "several cosubscripts",
                    Some("declare it here with its codimensions (`extern T a[N]:[P][*];`)"),
                ));
                "0".into()
            }
        }
    }

    fn stmt_start_ok(&self, i: usize) -> bool {
        i == 0 || matches!(self.t(i - 1), ";" | "{" | "}" | ")" | ":" | "else" | "do")
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

    fn newlines(&self, a: usize, b: usize) -> String {
        "\n".repeat(self.src[a..b].matches('\n').count())
    }

    fn edit(&mut self, s: usize, e: usize, text: String) {
        let nl = self.newlines(s, e);
        self.edits.push((s, e, format!("{text}{nl}")));
    }

    fn u(&mut self) -> usize {
        self.uniq += 1;
        self.uniq
    }

    fn run(&mut self, pragmas: Vec<Pragma>) {
        // file-scope statements starting with `extern`: names declared there.
        let mut externs: Vec<String> = vec![];
        {
            let mut st = 0;
            for i in 0..self.toks.len() {
                if self.toks[i].depth == 0 && matches!(self.t(i), ";" | "}") {
                    if self.t(st) == "extern" {
                        for j in st..i {
                            if self.toks[j].k == K::Ident {
                                externs.push(self.t(j).to_string());
                            }
                        }
                    }
                    st = i + 1;
                }
            }
        }
        let mut consumed: Vec<(usize, usize)> = vec![];
        // 1. declarations `name[..]:[..][*]`
        for i in 0..self.toks.len() {
            if self.t(i) != ":" || self.t(i + 1) != "[" {
                continue;
            }
            let Some(r) = self.parse_ref(i) else { continue };
            if r.co.last().map(String::as_str) != Some("*") {
                continue;
            }
            let name = r.base.clone();
            if self.toks[i].depth != 0 {
                self.diags.push(err(
                    self.file,
                    r.span,
                    format!("coarray `{name}` is declared inside a function: not implemented"),
                    "local coarray",
                    Some("declare the coarray at file scope"),
                ));
                continue;
            }
            let colon_s = self.toks[i].s;
            let end = self.toks[r.t1 - 1].e;
            consumed.push((r.t0, r.t1));
            let co_sizes: Vec<String> = r.co.clone();
            self.coarrays.push((name.clone(), co_sizes));
            // statement start
            let mut st = i;
            while st > 0 && !(self.toks[st - 1].depth == 0 && matches!(self.t(st - 1), ";" | "}")) {
                st -= 1;
            }
            if self.t(st) != "extern" && self.t(st) != "typedef" {
                self.register.push(name);
                let at = self.toks[st].s;
                if !self.edits.iter().any(|e| e.0 == at && e.1 == at) {
                    self.edits.push((at, at, SECTION_ATTR.to_string()));
                }
            }
            self.edit(colon_s, end, String::new());
        }
        // 2. pragmas
        for p in &pragmas {
            self.pragma(p, &externs);
        }
        // 3. atomics
        for i in 0..self.toks.len() {
            let f = self.t(i).to_string();
            if (f == "xmp_atomic_define" || f == "xmp_atomic_ref") && self.t(i + 1) == "(" {
                if let Some(c) = self.close(i + 1) {
                    self.atomic(i, c, &f);
                    consumed.push((i, c + 1));
                }
            }
        }
        // 4. coindexed references
        let mut i = 0;
        while i < self.toks.len() {
            if self.t(i) != ":" || self.t(i + 1) != "[" || consumed.iter().any(|&(a, b)| a <= i && i < b) {
                i += 1;
                continue;
            }
            let Some(r) = self.parse_ref(i) else {
                i += 1;
                continue;
            };
            let next = self.access(&r);
            consumed.push((r.t0, next));
            i = next.max(i + 1);
        }
    }

    /// Lowers one coindexed reference; returns the token index after what it consumed.
    fn access(&mut self, r: &Ref) -> usize {
        let file = c_str(&self.name);
        let line = self.line(r.span.start);
        let after = self.t(r.t1).to_string();
        if after == "." || after == "->" || after == "[" {
            self.diags.push(err(
                self.file,
                r.span,
                "a coindexed object followed by a member or subscript is not implemented",
                "coindexed",
                Some("write the member or subscript before the coindex (`s.x:[1]`)"),
            ));
            return r.t1;
        }
        // put: `r = rhs;` at a statement start
        if after == "=" && self.stmt_start_ok(r.t0) {
            let Some(semi) = self.stmt_end(r.t1 + 1) else {
                self.diags.push(err(self.file, r.span, "cannot find the end of this assignment", "coindexed", None));
                return r.t1;
            };
            let rhs = self.plain_ref(r.t1 + 1, semi);
            if (r.t1 + 1..semi).any(|k| self.t(k) == ":" && self.t(k + 1) == "[") {
                self.diags.push(err(
                    self.file,
                    self.span(r.t0, semi),
                    "both sides of the assignment are coindexed: not implemented",
                    "coindexed put of a coindexed value",
                    Some("get into a local variable first"),
                ));
                return semi + 1;
            }
            let img = self.image(r);
            let n = self.u();
            let code = match rhs.filter(Ref::has_sec) {
                Some(rs) => format!(
                    "{{ {asr}_Static_assert(__builtin_types_compatible_p(__typeof__({d0}), __typeof__({s0})), \"coarray put: element types differ\"); xmpc_co_sec _xmpc_d{n} = {ds}, _xmpc_s{n} = {ss}; xmpc_co_put({file}, {line}, {img}, (void *)&{d0}, &_xmpc_d{n}, (const void *)&{s0}, &_xmpc_s{n}); }}",
                    d0 = r.first(),
                    s0 = rs.first(),
                    ds = r.sec(),
                    ss = rs.sec(),
                    asr = r.asserts() + &rs.asserts()
                ),
                None => {
                    let val = self.text(r.t1 + 1, semi);
                    if val.is_empty() {
                        self.diags.push(err(self.file, r.span, "missing right-hand side", "coindexed", None));
                    }
                    format!(
                        "{{ {asr}__typeof__({d0}) _xmpc_v{n} = ({val}); xmpc_co_sec _xmpc_d{n} = {ds}, _xmpc_s{n} = {{0, sizeof(_xmpc_v{n}), {{0}}, {{0}}}}; xmpc_co_put({file}, {line}, {img}, (void *)&{d0}, &_xmpc_d{n}, (const void *)&_xmpc_v{n}, &_xmpc_s{n}); }}",
                        d0 = r.first(),
                        ds = r.sec(),
                        asr = r.asserts()
                    )
                }
            };
            let (s, e) = (self.toks[r.t0].s, self.toks[semi].e);
            self.edit(s, e, code);
            return semi + 1;
        }
        // get into a section: `lhs = r;` with a section on either side
        if after == ";" && r.t0 > 0 && self.t(r.t0 - 1) == "=" {
            let eq = r.t0 - 1;
            let mut a = eq;
            while a > 0 {
                let p = self.t(a - 1);
                if p == "]" {
                    match self.open(a - 1) {
                        Some(o) => a = o,
                        None => break,
                    }
                } else if self.toks[a - 1].k == K::Ident && !matches!(p, "return" | "else" | "do") || p == "." {
                    a -= 1;
                } else {
                    break;
                }
            }
            let lhs = if self.stmt_start_ok(a) { self.plain_ref(a, eq) } else { None };
            if let Some(l) = lhs.filter(|l| l.has_sec() || r.has_sec()) {
                let img = self.image(r);
                let n = self.u();
                let code = format!(
                    "{{ {asr}_Static_assert(__builtin_types_compatible_p(__typeof__({d0}), __typeof__({s0})), \"coarray get: element types differ\"); xmpc_co_sec _xmpc_d{n} = {ds}, _xmpc_s{n} = {ss}; xmpc_co_get({file}, {line}, {img}, (void *)&{d0}, &_xmpc_d{n}, (const void *)&{s0}, &_xmpc_s{n}); }}",
                    d0 = l.first(),
                    s0 = r.first(),
                    ds = l.sec(),
                    ss = r.sec(),
                    asr = l.asserts() + &r.asserts()
                );
                let (s, e) = (self.toks[a].s, self.toks[r.t1].e);
                self.edit(s, e, code);
                return r.t1 + 1;
            }
        }
        if r.has_sec() {
            self.diags.push(err(
                self.file,
                r.span,
                "a coindexed array section is only implemented as a whole side of an assignment statement",
                "coindexed section",
                Some("write `local[...] = a[s:l]:[img];` or `a[s:l]:[img] = local[...];`"),
            ));
            return r.t1;
        }
        // one element, in an expression
        let img = self.image(r);
        let n = self.u();
        let code = format!(
            "({{ __typeof__({s0}) _xmpc_v{n}; xmpc_co_sec _xmpc_d{n} = {{0, sizeof(_xmpc_v{n}), {{0}}, {{0}}}}, _xmpc_s{n} = {ss}; xmpc_co_get({file}, {line}, {img}, (void *)&_xmpc_v{n}, &_xmpc_d{n}, (const void *)&{s0}, &_xmpc_s{n}); _xmpc_v{n}; }})",
            s0 = r.first(),
            ss = r.sec()
        );
        let (s, e) = (self.toks[r.t0].s, self.toks[r.t1 - 1].e);
        self.edit(s, e, code);
        r.t1
    }

    fn atomic(&mut self, f: usize, close: usize, name: &str) {
        let file = c_str(&self.name);
        let line = self.line(self.toks[f].s);
        let args = self.split(f + 2, close, ",");
        let span = self.span(f, close + 1);
        if args.len() != 2 {
            self.diags.push(err(self.file, span, format!("{name} takes two arguments"), "call", None));
            return;
        }
        let target = if name == "xmp_atomic_define" { args[0] } else { args[1] };
        let other = self.text(if name == "xmp_atomic_define" { args[1].0 } else { args[0].0 }, if name == "xmp_atomic_define" { args[1].1 } else { args[0].1 });
        // coindexed?
        let colon = (target.0..target.1).find(|&k| self.t(k) == ":" && self.t(k + 1) == "[");
        let (obj, img) = match colon {
            Some(c) => match self.parse_ref(c) {
                Some(r) if r.t0 == target.0 && r.t1 == target.1 && !r.has_sec() => {
                    let img = self.image(&r);
                    (r.first(), img)
                }
                _ => {
                    self.diags.push(err(
                        self.file,
                        self.span(target.0, target.1),
                        "the atomic variable must be one element of an int coarray",
                        "atomic argument",
                        None,
                    ));
                    return;
                }
            },
            None => (self.text(target.0, target.1), "-1".to_string()),
        };
        let code = if name == "xmp_atomic_define" {
            format!("xmpc_co_atomic_define({file}, {line}, &({obj}), {img}, ({other}))")
        } else {
            format!("xmpc_co_atomic_ref({file}, {line}, ({other}), &({obj}), {img})")
        };
        let (s, e) = (self.toks[f].s, self.toks[close].e);
        self.edit(s, e, code);
    }

    /// Offset just after the declarator of the file-scope definition of `name` (name and
    /// its array dimensions) before offset `before`.
    fn definition(&self, name: &str, before: usize) -> Option<usize> {
        let mut found = None;
        for i in 0..self.toks.len() {
            if self.toks[i].s >= before {
                break;
            }
            if self.toks[i].depth != 0 || self.toks[i].k != K::Ident || self.t(i) != name {
                continue;
            }
            let mut j = i + 1;
            while self.t(j) == "[" {
                j = self.close(j)? + 1;
            }
            if matches!(self.t(j), "," | ";" | "=") && i > 0 && self.t(i - 1) != "." {
                let mut st = i;
                while st > 0 && !(self.toks[st - 1].depth == 0 && matches!(self.t(st - 1), ";" | "}")) {
                    st -= 1;
                }
                found = Some(self.toks[st].s);
            }
        }
        found
    }

    fn pragma(&mut self, p: &Pragma, externs: &[String]) {
        let body = p.body.trim();
        let word: String = body.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let rest = body[word.len()..].trim();
        let file = c_str(&self.name);
        let line = self.line(p.span.start);
        let wspan = Span::new(p.body_off + (p.body.len() - p.body.trim_start().len()), p.body_off + (p.body.len() - p.body.trim_start().len()) + word.len());
        let code = match word.as_str() {
            "coarray" => {
                // names : [codims]
                let Some((names, co)) = rest.split_once(':') else {
                    self.diags.push(err(self.file, p.span, "coarray: expected `names : [codimensions]`", "directive", None));
                    return;
                };
                let co: Vec<String> = co.trim().trim_start_matches('[').trim_end_matches(']').split("][").map(|s| s.trim().to_string()).collect();
                if co.last().map(String::as_str) != Some("*") {
                    self.diags.push(err(self.file, p.span, "coarray: the last codimension must be `*`", "directive", None));
                    return;
                }
                for n in names.split(',').map(str::trim) {
                    if n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        self.diags.push(err(self.file, p.span, format!("coarray: `{n}` is not a name"), "directive", None));
                        return;
                    }
                    self.coarrays.push((n.to_string(), co.clone()));
                    if !externs.iter().any(|e| e == n) {
                        // the definition gets the coarray section attribute
                        match self.definition(n, p.span.start) {
                            Some(at) => {
                                if !self.edits.iter().any(|e| e.0 == at && e.1 == at) {
                                    self.edits.push((at, at, SECTION_ATTR.to_string()));
                                }
                                self.register.push(n.to_string());
                            }
                            None => {
                                self.diags.push(err(
                                    self.file,
                                    p.span,
                                    format!("coarray: `{n}` is not defined at file scope before this directive"),
                                    "directive",
                                    Some("define the variable (or declare it `extern`) before `#pragma xmp coarray`"),
                                ));
                                return;
                            }
                        }
                    }
                }
                String::new()
            }
            "post" | "wait" => {
                let args: Vec<String> = if rest.is_empty() {
                    vec![]
                } else if rest.starts_with('(') && rest.ends_with(')') {
                    split_top(&rest[1..rest.len() - 1])
                } else {
                    self.diags.push(err(
                        self.file,
                        wspan,
                        format!("{word}: expected `({word}(node-ref{}))`", if word == "post" { ", tag" } else { "[, tag]" }),
                        "directive",
                        None,
                    ));
                    return;
                };
                if word == "post" && args.len() != 2 || args.len() > 2 {
                    self.diags.push(err(
                        self.file,
                        p.span,
                        format!("{word}: wrong number of arguments"),
                        "directive",
                        Some("post(p[k], tag), wait, wait(p[k]) or wait(p[k], tag)"),
                    ));
                    return;
                }
                let node = match args.first() {
                    None => "-1".to_string(),
                    Some(nr) => match node_ref(nr) {
                        Some((n, k)) => format!("xmpc_nodes_world_rank(_XMP_NODES_{n}, {k})"),
                        None => {
                            self.diags.push(err(
                                self.file,
                                p.span,
                                format!("{word}: `{nr}` is not a reference to one node of a one-dimensional node set"),
                                "node reference",
                                Some("write p[k] (0-based) or p(k) (1-based)"),
                            ));
                            return;
                        }
                    },
                };
                if word == "post" {
                    format!("xmpc_co_post({file}, {line}, {node}, ({}));", args[1])
                } else {
                    match args.get(1) {
                        Some(t) => format!("xmpc_co_wait({file}, {line}, {node}, 1, ({t}));"),
                        None => format!("xmpc_co_wait({file}, {line}, {node}, 0, 0);"),
                    }
                }
            }
            "lock" | "unlock" => {
                let inner = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')).map(str::trim);
                let parsed = inner.and_then(|s| {
                    let (obj, co) = s.split_once(":[")?;
                    let co = co.strip_suffix(']')?;
                    (!co.contains("][")).then(|| (obj.trim().to_string(), co.trim().to_string()))
                });
                let Some((obj, img)) = parsed else {
                    self.diags.push(err(self.file, p.span, format!("{word}: expected `{word}(lock-variable:[image])`"), "directive", None));
                    return;
                };
                format!("xmpc_co_{word}({file}, {line}, &({obj}), ({img}));")
            }
            _ => return, // the C front end reports what it does not know
        };
        self.edit(p.span.start, p.span.end, code);
    }
}

/// Every coarray defined in a translated file lives in one linker section, registered
/// as one window (`__start_xmpc_coarrays` .. `__stop_xmpc_coarrays`). The section is
/// initialised data, not `.bss`: MPICH 4.0.2 over UCX read zeros through a window
/// created on a small object at the end of `.bss` (docs/local-view.md).
/// It goes before the declaration (tree-sitter-c takes no attribute after an array
/// declarator), so the declaration's other variables share the section: harmless.
const SECTION_ATTR: &str = "__attribute__((section(\"xmpc_coarrays\"), aligned(16))) ";

/// `p[k]` → ("p", "(k)"), `p(k)` → ("p", "((k) - 1)").
fn node_ref(s: &str) -> Option<(String, String)> {
    let s = s.trim();
    let n: String = s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if n.is_empty() {
        return None;
    }
    let r = s[n.len()..].trim();
    if let Some(k) = r.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        if k.contains("][") || k.contains(':') {
            return None;
        }
        return Some((n, format!("({})", k.trim())));
    }
    if let Some(k) = r.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        if split_top(k).len() != 1 || k.contains(':') {
            return None;
        }
        return Some((n, format!("(({}) - 1)", k.trim())));
    }
    None
}

fn split_top(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut d = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => d += 1,
            ')' | ']' | '}' => d -= 1,
            ',' if d == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

fn c_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                o.push('\\');
                o.push(c);
            }
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => o.push('?'),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// True when the file uses the local view (coarray syntax or its directives/calls).
pub fn uses_local_view(src: &str) -> bool {
    src.contains(":[") || src.contains(": [") || src.contains("xmp_atomic_") || {
        let (_, pr) = lex(src);
        pr.iter().any(|p| {
            matches!(p.body.split_whitespace().next().map(|w| w.split('(').next().unwrap_or(w)), Some("coarray" | "post" | "wait" | "lock" | "unlock"))
        })
    }
}

/// Lowers the local view of one C file named `name` (file id `file`).
pub fn lower(src: &str, name: &str, file: usize) -> Result<Lowered, Vec<Diag>> {
    let (toks, pragmas) = lex(src);
    let mut lx = Lx {
        src,
        name: name.to_string(),
        file,
        toks,
        diags: vec![],
        edits: vec![],
        coarrays: vec![],
        register: vec![],
        line_starts: std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect(),
        uniq: 0,
    };
    lx.run(pragmas);
    if !lx.diags.is_empty() {
        return Err(lx.diags);
    }
    let mut edits = lx.edits;
    edits.sort_by_key(|e| (e.0, e.1));
    let mut text = String::with_capacity(src.len() + 1024);
    let mut pos = 0;
    for (s, e, t) in edits {
        if s < pos {
            // overlapping edits: an internal error, reported rather than mis-translated
            return Err(vec![err(file, Span::new(s, e), "xmpc: overlapping local-view rewrites (please report)", "here", None)]);
        }
        text.push_str(&src[pos..s]);
        text.push_str(&t);
        pos = e;
    }
    text.push_str(&src[pos..]);
    let prelude = "#include \"xmpc_coarray.h\"\n".to_string();
    let mut trailer = String::new();
    if !lx.register.is_empty() {
        trailer.push_str(&format!(
            "\n/* xmpc: the program's coarrays ({}, ...) are the section xmpc_coarrays */\nextern char __start_xmpc_coarrays[], __stop_xmpc_coarrays[];\nstatic void _XMP_init_coarrays(void)\n{{\n    xmpc_co_register(__start_xmpc_coarrays, (size_t)(__stop_xmpc_coarrays - __start_xmpc_coarrays));\n}}\n",
            lx.register.join(", ")
        ));
        trailer.push_str("\n__attribute__((constructor)) static void _XMP_register_coarrays(void)\n{\n    xmpc_register_file_init(_XMP_init_coarrays);\n}\n");
    }
    Ok(Lowered { text, prelude, trailer })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn low(s: &str) -> Lowered {
        lower(s, "t.c", 0).unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()))
    }

    #[test]
    fn declarations_lose_their_codimensions_and_are_registered() {
        let l = low("int a[10]:[*], b = 1;\nextern int c:[*];\n");
        assert_eq!(l.text, format!("{SECTION_ATTR}int a[10], b = 1;\nextern int c;\n"));
        assert!(l.trailer.contains("xmpc_co_register(__start_xmpc_coarrays"));
        assert!(l.trailer.contains("coarrays (a, ...)"), "{}", l.trailer);
        let l = low("extern int c:[*];\n");
        assert!(l.trailer.is_empty(), "an extern declaration registers nothing");
        let l = low("int a[10], b;\n#pragma xmp coarray a : [*]\n");
        assert_eq!(l.text, format!("{SECTION_ATTR}int a[10], b;\n\n"));
    }

    #[test]
    fn put_get_and_expression_keep_lines() {
        let src = "int a[4]:[*];\nint f(int i){\n  a[0:2]:[1]\n   = b[1:2];\n  return a[i]:[0] + 1;\n}\n";
        let l = low(src);
        assert_eq!(l.text.matches('\n').count(), src.matches('\n').count());
        assert!(l.text.contains("xmpc_co_put(\"t.c\", 3, (1), (void *)&a[0]"), "{}", l.text);
        assert!(l.text.contains("xmpc_co_get(\"t.c\", 5, (0), (void *)&_xmpc_v"), "{}", l.text);
    }

    #[test]
    fn section_inside_an_expression_is_refused_with_a_location() {
        let d = lower("int a[4]:[*];\nint f(void){ return g(a[0:2]:[1]); }\n", "t.c", 0).err().expect("refused");
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("only implemented as a whole side"), "{}", d[0].message);
        let l = &d[0].labels[0];
        assert_eq!(&"int a[4]:[*];\nint f(void){ return g(a[0:2]:[1]); }\n"[l.range.clone()], "a[0:2]:[1]");
    }

    #[test]
    fn open_ended_sections_assert_an_array() {
        let l = low("int a[4]:[*];\nvoid f(int *q){ q[0:4] = a[:]:[1]; }\n");
        assert!(l.text.contains("_Static_assert(!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))"), "{}", l.text);
        let l = low("int a[4]:[*];\nvoid f(int *q){ q[0:4] = a[0:4]:[1]; }\n");
        assert!(!l.text.contains("needs an array"), "explicit lengths need no assertion: {}", l.text);
    }

    #[test]
    fn local_coarray_is_refused() {
        let d = lower("void f(void){ int x:[*]; }\n", "t.c", 0).err().expect("refused");
        assert!(d[0].message.contains("inside a function"));
    }

    #[test]
    fn post_wait_lock() {
        let l = low("#pragma xmp nodes p[4]\nint l:[*];\nvoid f(int t){\n#pragma xmp post (p(3), t)\n#pragma xmp wait (p[0])\n#pragma xmp wait\n#pragma xmp lock(l:[1])\n}\n");
        assert!(l.text.contains("xmpc_co_post(\"t.c\", 4, xmpc_nodes_world_rank(_XMP_NODES_p, ((3) - 1)), (t));"), "{}", l.text);
        assert!(l.text.contains("xmpc_co_wait(\"t.c\", 5, xmpc_nodes_world_rank(_XMP_NODES_p, (0)), 0, 0);"));
        assert!(l.text.contains("xmpc_co_wait(\"t.c\", 6, -1, 0, 0);"));
        assert!(l.text.contains("xmpc_co_lock(\"t.c\", 7, &(l), (1));"));
        assert!(l.text.starts_with("#pragma xmp nodes p[4]\n"), "other directives stay");
    }

    #[test]
    fn multi_codimension_image() {
        let l = low("int a:[2][*];\nvoid f(void){ a:[1][3] = 5; }\n");
        assert!(l.text.contains("xmpc_co_image(\"t.c\", 2, 2, (long[]){(long)(2), 0}, (long[]){(long)(1), (long)(3)})"), "{}", l.text);
    }
}
