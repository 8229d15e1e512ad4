//! Token cursor and the pieces shared by several directives: lists, shapes,
//! node/template references, widths, reductions and clause lists.

use super::lexer::{lex, Tok, TokKind};
use super::PErr;
use xmpc_ir::diag::did_you_mean;
use xmpc_ir::directive::*;
use xmpc_ir::{BinOp, Expr, ExprKind, OffsetMap, Span};

pub(crate) type PResult<T> = Result<T, PErr>;

pub(crate) struct P<'a> {
    toks: Vec<Tok>,
    pos: usize,
    pub lang: DirLang,
    map: &'a OffsetMap,
    /// End of the last consumed token (directive-text offset).
    last_end: usize,
}

/// Parses a whole directive (see `super::parse`).
pub(crate) fn parse(text: &str, lang: DirLang, map: &OffsetMap) -> PResult<Directive> {
    let start = text.len() - text.trim_start().len();
    let end = text.trim_end().len().max(start);
    let span = map.span_to_orig(Span::new(start, end));
    let wlen = text[start..].bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    let word = &text[start..start + wlen];
    let wspan = Span::new(start, start + wlen);
    let is = |w: &str| if lang == DirLang::Fortran { word.eq_ignore_ascii_case(w) } else { word == w };
    if is("acc") {
        let (construct, name_span) = super::acc::construct(text, wspan.end, lang)?;
        let text = text[wspan.end..].trim().to_string();
        return Ok(Directive { span, kind: DirectiveKind::Acc { construct, text }, lang, name_span: map.span_to_orig(name_span) });
    }
    if !is("xmp") {
        let at = if wlen == 0 {
            let n = text[start..].chars().next().map_or(0, char::len_utf8);
            Span::new(start, start + n)
        } else {
            wspan
        };
        let msg = if wlen == 0 { "expected 'xmp' or 'acc' at the start of the directive".to_string() } else { format!("unknown directive sentinel '{word}'") };
        let mut e = PErr::new("XMP0003", msg, at, "expected 'xmp' or 'acc'");
        // `omp` is one edit from `xmp` but is OpenMP, not a typo.
        if let Some(s) = did_you_mean(word, ["xmp", "acc"]).filter(|_| wlen > 0 && !word.eq_ignore_ascii_case("omp")) {
            e = e.help(format!("did you mean '{s}'?"));
        }
        return Err(e);
    }
    let toks = lex(text, lang)?;
    let mut p = P { toks, pos: 1, lang, map, last_end: wspan.end };
    let (kind, name_span) = super::xmp::directive(&mut p)?;
    Ok(Directive { span, kind, lang, name_span: map.span_to_orig(name_span) })
}

/// One expression filling the whole text.
pub(crate) fn parse_expr(text: &str, lang: DirLang, map: &OffsetMap) -> PResult<Expr> {
    let toks = lex(text, lang)?;
    let mut p = P { toks, pos: 0, lang, map, last_end: 0 };
    let e = p.expr()?;
    if !p.at_eof() {
        let t = p.peek();
        return Err(PErr::new("XMP0010", format!("unexpected {} after the expression", t.describe()), t.span, "expected end of expression"));
    }
    Ok(e)
}

impl<'a> P<'a> {
    // ---------------------------------------------------------------- cursor

    pub fn peek(&self) -> &Tok {
        self.nth(0)
    }
    pub fn nth(&self, k: usize) -> &Tok {
        let i = (self.pos + k).min(self.toks.len() - 1);
        &self.toks[i]
    }
    pub fn at_eof(&self) -> bool {
        self.peek().kind == TokKind::Eof
    }
    pub fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if t.kind != TokKind::Eof {
            self.pos += 1;
            self.last_end = t.span.end;
        }
        t
    }
    /// Maps a directive-text span to the original file.
    pub fn m(&self, s: Span) -> Span {
        self.map.span_to_orig(s)
    }
    /// Original span from directive-text offset `start` to the end of the last token.
    pub fn since(&self, start: usize) -> Span {
        self.m(Span::new(start, self.last_end.max(start)))
    }
    /// Directive-text span from `start` to the end of the last token.
    pub fn derived_since(&self, start: usize) -> Span {
        Span::new(start, self.last_end.max(start))
    }
    pub fn pos_start(&self) -> usize {
        self.peek().span.start
    }
    pub fn is_p(&self, p: &str) -> bool {
        self.nth_is_p(0, p)
    }
    pub fn nth_is_p(&self, k: usize, p: &str) -> bool {
        matches!(&self.nth(k).kind, TokKind::Punct(q) if *q == p)
    }
    pub fn eat_p(&mut self, p: &str) -> Option<Span> {
        if self.is_p(p) {
            Some(self.bump().span)
        } else {
            None
        }
    }
    pub fn kw_eq(&self, a: &str, b: &str) -> bool {
        match self.lang {
            DirLang::C => a == b,
            DirLang::Fortran => a.eq_ignore_ascii_case(b),
        }
    }
    /// The keyword form of an identifier: lower case in Fortran, as written in C.
    pub fn kw(&self, s: &str) -> String {
        match self.lang {
            DirLang::C => s.to_string(),
            DirLang::Fortran => s.to_ascii_lowercase(),
        }
    }
    pub fn is_kw(&self, w: &str) -> bool {
        matches!(&self.peek().kind, TokKind::Ident(s) if self.kw_eq(s, w))
    }
    pub fn eat_kw(&mut self, w: &str) -> Option<Span> {
        if self.is_kw(w) {
            Some(self.bump().span)
        } else {
            None
        }
    }

    // ---------------------------------------------------------------- errors

    /// "expected X": at the end of the directive (XMP0011) or at an unexpected token.
    pub fn expected(&self, what: &str) -> PErr {
        let t = self.peek();
        if t.kind == TokKind::Eof {
            let at = if self.pos > 0 { self.toks[self.pos - 1].span } else { t.span };
            PErr::new("XMP0011", format!("unexpected end of directive: expected {what}"), at, format!("expected {what} after this"))
        } else {
            PErr::new("XMP0010", format!("expected {what}, found {}", t.describe()), t.span, format!("expected {what}"))
        }
    }
    pub fn expect_p(&mut self, p: &str, what: &str) -> PResult<Span> {
        self.eat_p(p).ok_or_else(|| self.expected(what))
    }
    pub fn expect_kw(&mut self, w: &str, what: &str) -> PResult<Span> {
        self.eat_kw(w).ok_or_else(|| self.expected(what))
    }
    /// Closing bracket matching `open`; names the opener when it is missing.
    pub fn close(&mut self, close: &str, open: Span, what: &str) -> PResult<Span> {
        if let Some(s) = self.eat_p(close) {
            return Ok(s);
        }
        let opener = if close == ")" { "(" } else { "[" };
        if self.at_eof() {
            return Err(PErr::new("XMP0015", format!("unclosed '{opener}'"), open, format!("this '{opener}' is never closed"))
                .help(format!("add '{close}' to close it")));
        }
        Err(self.expected(what).also(open, format!("to match this '{opener}'")))
    }

    // ---------------------------------------------------------------- names and lists

    pub fn ident(&mut self, what: &str) -> PResult<Name> {
        if let TokKind::Ident(s) = &self.peek().kind {
            let name = s.clone();
            let span = self.bump().span;
            return Ok(Name { name, span: self.m(span) });
        }
        Err(self.expected(what))
    }
    pub fn is_ident(&self) -> bool {
        matches!(self.peek().kind, TokKind::Ident(_))
    }
    /// `a, b, c` (at least one).
    pub fn name_list(&mut self, what: &str) -> PResult<Vec<Name>> {
        let mut v = vec![self.ident(what)?];
        while self.eat_p(",").is_some() {
            v.push(self.ident(what)?);
        }
        Ok(v)
    }
    /// `( item {, item} )`; an empty list is an error naming `what`.
    pub fn paren_list<T>(&mut self, what: &str, mut f: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        let open = self.expect_p("(", &format!("'(' and {what}"))?;
        if let Some(c) = self.eat_p(")") {
            return Err(PErr::new("XMP0024", format!("empty list: expected {what}"), open.to(c), format!("expected {what} here")));
        }
        let mut v = vec![f(self)?];
        while self.eat_p(",").is_some() {
            v.push(f(self)?);
        }
        self.close(")", open, "',' or ')'")?;
        Ok(v)
    }
    /// `(name, ...)`: a variable list (a name may be a structure member, C `s.a`, Fortran
    /// `s%a`).
    pub fn var_list(&mut self) -> PResult<Vec<Name>> {
        self.paren_list("a variable name", |p| p.member_name("a variable name"))
    }
    /// A name, or a member of a structure variable or type (one level), C `s.a` or
    /// Fortran `s%a`: one `Name` spelled `"s.a"` / `"s%a"`, its span covering both
    /// words.
    pub fn member_name(&mut self, what: &str) -> PResult<Name> {
        let n = self.ident(what)?;
        let sep = if self.lang == DirLang::C { "." } else { "%" };
        if !self.is_p(sep) {
            return Ok(n);
        }
        self.bump();
        let m = self.ident("a structure component name")?;
        Ok(Name { name: format!("{}{sep}{}", n.name, m.name), span: n.span.to(m.span) })
    }
    /// One or more `[item]`.
    pub fn square_seq<T>(&mut self, what: &str, mut f: impl FnMut(&mut Self) -> PResult<T>) -> PResult<Vec<T>> {
        let mut v = Vec::new();
        while let Some(open) = self.eat_p("[") {
            if let Some(c) = self.eat_p("]") {
                return Err(PErr::new("XMP0024", format!("empty brackets: expected {what}"), open.to(c), format!("expected {what} here")));
            }
            v.push(f(self)?);
            self.close("]", open, "']'")?;
        }
        Ok(v)
    }

    /// The spelling a shape would have if one starts here.
    pub fn shape_opens(&self) -> Option<Spelling> {
        if self.is_p("(") {
            Some(Spelling::Round)
        } else if self.is_p("[") {
            Some(Spelling::Square)
        } else {
            None
        }
    }
    /// A round `(a, b)` or square `[b][a]` list. With `normalise`, square lists are
    /// reversed into round order. Fortran rejects the square form.
    pub fn shaped<T>(&mut self, what: &str, normalise: bool, mut f: impl FnMut(&mut Self, Spelling) -> PResult<T>) -> PResult<(Vec<T>, Spelling)> {
        let start = self.pos_start();
        let sp = match self.shape_opens() {
            Some(s) => s,
            None => return Err(self.expected(&format!("'(' or '[' and {what}"))),
        };
        if sp == Spelling::Square && self.lang == DirLang::Fortran {
            return Err(PErr::new("XMP0022", "square brackets in a Fortran directive", self.peek().span, "expected '('")
                .help("Fortran directives use round parentheses: write t(i, j)"));
        }
        let v = match sp {
            Spelling::Round => self.paren_list(what, |p| f(p, sp))?,
            Spelling::Square => {
                let mut v = self.square_seq(what, |p| f(p, sp))?;
                if normalise {
                    v.reverse();
                }
                v
            }
        };
        if let Some(other) = self.shape_opens() {
            if other != sp {
                return Err(PErr::new("XMP0023", "round and square spellings mixed", self.peek().span, "this continues a shape written in the other spelling")
                    .also(Span::new(start, self.last_end), "first part")
                    .help("write either p(2,3) (round, Fortran order) or p[3][2] (square, C order)"));
            }
        }
        Ok((v, sp))
    }

    // ---------------------------------------------------------------- shapes

    fn closer(sp: Spelling) -> &'static str {
        match sp {
            Spelling::Round => ")",
            Spelling::Square => "]",
        }
    }
    fn at_item_end(&self, sp: Spelling) -> bool {
        self.is_p(",") || self.is_p(Self::closer(sp))
    }
    /// `*` standing alone as a list item.
    pub fn eat_lone_star(&mut self, sp: Spelling) -> Option<Span> {
        if self.is_p("*") && (self.nth_is_p(1, ",") || self.nth_is_p(1, Self::closer(sp))) {
            Some(self.bump().span)
        } else {
            None
        }
    }

    pub fn node_dim(&mut self, sp: Spelling) -> PResult<NodeDim> {
        let start = self.pos_start();
        if self.eat_lone_star(sp).is_some() {
            return Ok(NodeDim { span: self.since(start), size: None });
        }
        let e = self.expr()?;
        Ok(NodeDim { span: self.since(start), size: Some(e) })
    }

    pub fn template_dim(&mut self, sp: Spelling) -> PResult<TemplateDim> {
        let start = self.pos_start();
        if self.is_p(":") && (self.nth_is_p(1, ",") || self.nth_is_p(1, Self::closer(sp))) {
            self.bump();
            return Ok(TemplateDim { span: self.since(start), bounds: None });
        }
        let first = self.expr()?;
        let second = if self.eat_p(":").is_some() { Some(self.expr()?) } else { None };
        let span = self.since(start);
        let bounds = match (second, sp, self.lang) {
            (Some(hi), Spelling::Round, _) => (first, hi),
            (Some(len), Spelling::Square, _) => {
                let hi = start_len_upper(Some(&first), len, span);
                (first, hi)
            }
            (None, _, DirLang::C) => (int(0, span), minus_one(first, span)),
            (None, _, DirLang::Fortran) => (int(1, span), first),
        };
        Ok(TemplateDim { span, bounds: Some(bounds) })
    }

    pub fn template_shape(&mut self) -> PResult<TemplateShape> {
        let (dims, spelling) = self.shaped("a template extent", true, |p, sp| p.template_dim(sp))?;
        Ok(TemplateShape { dims, spelling })
    }

    /// One subscript of a reference; square triplets are converted to lower:upper.
    pub fn sub(&mut self, sp: Spelling) -> PResult<Sub> {
        let start = self.pos_start();
        if self.eat_lone_star(sp).is_some() {
            return Ok(Sub { span: self.since(start), kind: SubKind::Star });
        }
        let lower = if self.is_p(":") { None } else { Some(self.expr()?) };
        let lower = match (lower, self.eat_p(":")) {
            (Some(e), None) => return Ok(Sub { span: self.since(start), kind: SubKind::Expr(e) }),
            (l, _) => l,
        };
        let upper = if self.at_item_end(sp) || self.is_p(":") { None } else { Some(self.expr()?) };
        let stride = if self.eat_p(":").is_some() { Some(self.expr()?) } else { None };
        let span = self.since(start);
        let upper = match sp {
            Spelling::Round => upper,
            Spelling::Square => upper.map(|len| start_len_upper(lower.as_ref(), len, span)),
        };
        Ok(Sub { span, kind: SubKind::Triplet { lower, upper, stride } })
    }

    /// `N`, `N(subs)`, `N[sub]...` (subscripts normalised to round order).
    pub fn reference(&mut self, what: &str) -> PResult<Ref> {
        let start = self.pos_start();
        let name = self.ident(what)?;
        if self.shape_opens().is_none() {
            return Ok(Ref { span: name.span, name, subs: None, spelling: Spelling::Round });
        }
        let (subs, spelling) = self.shaped("a subscript", true, |p, sp| p.sub(sp))?;
        let span = self.since(start);
        Ok(Ref { name, subs: Some(subs), spelling, span })
    }

    pub fn dist(&mut self) -> PResult<Dist> {
        let start = self.pos_start();
        const FORMATS: [&str; 3] = ["block", "cyclic", "gblock"];
        if self.eat_p("*").is_some() {
            return Ok(Dist { span: self.since(start), format: DistFormat::Dup, arg: None });
        }
        let TokKind::Ident(w) = &self.peek().kind else {
            return Err(self.expected("a distribution format (block, cyclic, gblock or *)"));
        };
        let format = match self.kw(w).as_str() {
            "block" => DistFormat::Block,
            "cyclic" => DistFormat::Cyclic,
            "gblock" => DistFormat::GBlock,
            _ => {
                let mut e = PErr::new("XMP0020", format!("unknown distribution format '{w}'"), self.peek().span, "unknown format");
                e = match did_you_mean(w, FORMATS) {
                    Some(s) => e.help(format!("did you mean '{s}'? (expected block, cyclic, gblock or *)")),
                    None => e.help("expected block, cyclic, gblock or *"),
                };
                return Err(e);
            }
        };
        self.bump();
        let mut arg = None;
        if let Some(open) = self.eat_p("(") {
            arg = Some(match self.eat_p("*") {
                Some(s) if self.is_p(")") => Expr::new(self.m(s), ExprKind::Star),
                Some(_) => return Err(self.expected("')' after '*'")),
                None => self.expr()?,
            });
            self.close(")", open, "')'")?;
        }
        Ok(Dist { span: self.since(start), format, arg })
    }

    pub fn dist_list(&mut self) -> PResult<DistList> {
        let (dists, spelling) = self.shaped("a distribution format", true, |p, _| p.dist())?;
        Ok(DistList { dists, spelling })
    }
}

// -------------------------------------------------------------------- bounds

fn int(v: i64, span: Span) -> Expr {
    Expr::new(span, ExprKind::Int(v.to_string()))
}

fn lit(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(s) => s.parse().ok(),
        _ => None,
    }
}

/// `e - 1`, folded for literals.
fn minus_one(e: Expr, span: Span) -> Expr {
    match lit(&e).and_then(|v| v.checked_sub(1)) {
        Some(v) => int(v, span),
        None => Expr::new(span, ExprKind::Binary(BinOp::Sub, Box::new(e), Box::new(int(1, span)))),
    }
}

/// Upper bound of the square triplet `start:len`: `start + len - 1` (start 0 if omitted).
fn start_len_upper(start: Option<&Expr>, len: Expr, span: Span) -> Expr {
    let Some(s) = start else { return minus_one(len, span) };
    let add = |a: Expr, b: Expr| Expr::new(span, ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)));
    match (lit(s), lit(&len)) {
        (Some(0), _) => minus_one(len, span),
        (Some(1), _) => len,
        (Some(a), Some(b)) => match a.checked_add(b).and_then(|v| v.checked_sub(1)) {
            Some(v) => int(v, span),
            None => minus_one(add(s.clone(), len), span),
        },
        // `s + (len-1)` reads better than `(s + len) - 1` when len-1 folds.
        (_, Some(b)) if b > 1 => add(s.clone(), int(b - 1, span)),
        (_, Some(1)) => s.clone(),
        _ => minus_one(add(s.clone(), len), span),
    }
}
