//! Pratt parser for host-language expressions inside directives (`N-1`, `n/2`,
//! `w*0.5`, `a .and. b`). C operators for C, Fortran operators for Fortran.

use super::lexer::TokKind;
use super::parser::{PResult, P};
use super::PErr;
use xmpc_ir::directive::DirLang;
use xmpc_ir::{BinOp, Expr, ExprKind, UnOp};

/// Deeper nesting is refused rather than risking the stack on hostile input.
const MAX_DEPTH: usize = 64;

const C_PREFIX_BP: u8 = 23;
const F_UNARY_BP: u8 = 14;
const F_NOT_BP: u8 = 7;

const C_TYPES: &[&str] = &["int", "long", "short", "char", "float", "double", "unsigned", "signed", "size_t", "const"];

impl P<'_> {
    pub fn expr(&mut self) -> PResult<Expr> {
        self.expr_bp(0, 0)
    }

    fn infix(&self) -> Option<(BinOp, u8, u8)> {
        use BinOp::*;
        let t = &self.peek().kind;
        match self.lang {
            DirLang::C => {
                let TokKind::Punct(p) = t else { return None };
                Some(match *p {
                    "||" => (Or, 3, 4),
                    "&&" => (And, 5, 6),
                    "|" => (BitOr, 7, 8),
                    "^" => (BitXor, 9, 10),
                    "&" => (BitAnd, 11, 12),
                    "==" => (Eq, 13, 14),
                    "!=" => (Ne, 13, 14),
                    "<" => (Lt, 15, 16),
                    "<=" => (Le, 15, 16),
                    ">" => (Gt, 15, 16),
                    ">=" => (Ge, 15, 16),
                    "<<" => (Shl, 17, 18),
                    ">>" => (Shr, 17, 18),
                    "+" => (Add, 19, 20),
                    "-" => (Sub, 19, 20),
                    "*" => (Mul, 21, 22),
                    "/" => (Div, 21, 22),
                    "%" => (Rem, 21, 22),
                    _ => return None,
                })
            }
            DirLang::Fortran => Some(match t {
                TokKind::DotOp(w) => match w.as_str() {
                    "eqv" => (Eqv, 1, 2),
                    "neqv" => (Neqv, 1, 2),
                    "or" => (Or, 3, 4),
                    "and" => (And, 5, 6),
                    "eq" => (Eq, 9, 10),
                    "ne" => (Ne, 9, 10),
                    "lt" => (Lt, 9, 10),
                    "le" => (Le, 9, 10),
                    "gt" => (Gt, 9, 10),
                    "ge" => (Ge, 9, 10),
                    _ => return None,
                },
                TokKind::Punct(p) => match *p {
                    "==" => (Eq, 9, 10),
                    "/=" => (Ne, 9, 10),
                    "<" => (Lt, 9, 10),
                    "<=" => (Le, 9, 10),
                    ">" => (Gt, 9, 10),
                    ">=" => (Ge, 9, 10),
                    "//" => (Concat, 11, 12),
                    "+" => (Add, 13, 14),
                    "-" => (Sub, 13, 14),
                    "*" => (Mul, 15, 16),
                    "/" => (Div, 15, 16),
                    "**" => (Pow, 18, 17),
                    _ => return None,
                },
                _ => return None,
            }),
        }
    }

    fn expr_bp(&mut self, min: u8, depth: usize) -> PResult<Expr> {
        if depth > MAX_DEPTH {
            return Err(PErr::new("XMP0027", "expression nested too deeply", self.peek().span, "nesting limit reached here"));
        }
        let mut lhs = self.prefix(depth)?;
        loop {
            lhs = self.postfix(lhs, depth)?;
            if self.lang == DirLang::C && min <= 2 && self.is_p("?") {
                self.bump();
                let a = self.expr_bp(0, depth + 1)?;
                self.expect_p(":", "':' of the conditional expression")?;
                let b = self.expr_bp(2, depth + 1)?;
                let span = lhs.span.to(b.span);
                lhs = Expr::new(span, ExprKind::Cond(Box::new(lhs), Box::new(a), Box::new(b)));
                continue;
            }
            let Some((op, l, r)) = self.infix() else { break };
            if l < min {
                break;
            }
            self.bump();
            let rhs = self.expr_bp(r, depth + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr::new(span, ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)));
        }
        Ok(lhs)
    }

    fn unary(&mut self, op: UnOp, bp: u8, depth: usize) -> PResult<Expr> {
        let s = self.bump().span;
        let e = self.expr_bp(bp, depth + 1)?;
        let span = self.m(s).to(e.span);
        Ok(Expr::new(span, ExprKind::Unary(op, Box::new(e))))
    }

    fn prefix(&mut self, depth: usize) -> PResult<Expr> {
        let t = self.peek().clone();
        let c = self.lang == DirLang::C;
        match &t.kind {
            TokKind::Punct(p) => {
                let op = match (*p, c) {
                    ("-", _) => Some(UnOp::Neg),
                    ("+", _) => Some(UnOp::Plus),
                    ("!", true) => Some(UnOp::Not),
                    ("~", true) => Some(UnOp::BitNot),
                    ("*", true) => Some(UnOp::Deref),
                    ("&", true) => Some(UnOp::AddrOf),
                    ("++", true) => Some(UnOp::PreInc),
                    ("--", true) => Some(UnOp::PreDec),
                    _ => None,
                };
                if let Some(op) = op {
                    return self.unary(op, if c { C_PREFIX_BP } else { F_UNARY_BP }, depth);
                }
                if *p == "(" {
                    if c {
                        if let Some(cast) = self.cast(depth)? {
                            return Ok(cast);
                        }
                    }
                    self.bump();
                    let inner = self.expr_bp(0, depth + 1)?;
                    let close = self.close(")", t.span, "')'")?;
                    // Keep the parenthesised span so labels cover what was written.
                    return Ok(Expr { span: self.m(t.span.to(close)), ..inner });
                }
            }
            TokKind::DotOp(w) if !c => match w.as_str() {
                "not" => return self.unary(UnOp::Not, F_NOT_BP, depth),
                "true" | "false" => {
                    self.bump();
                    return Ok(Expr::new(self.m(t.span), ExprKind::Logical(w == "true")));
                }
                _ => {}
            },
            TokKind::Ident(s) if c && s == "sizeof" => {
                self.bump();
                let inner = match self.paren_type()? {
                    Some(ty) => ty,
                    None => self.expr_bp(C_PREFIX_BP, depth + 1)?,
                };
                let span = self.m(t.span).to(inner.span);
                return Ok(Expr::new(span, ExprKind::SizeOf(Box::new(inner))));
            }
            TokKind::Ident(s) => {
                self.bump();
                return Ok(Expr::new(self.m(t.span), ExprKind::Ident(s.clone())));
            }
            TokKind::Int(s) => {
                self.bump();
                return Ok(Expr::new(self.m(t.span), ExprKind::Int(s.clone())));
            }
            TokKind::Real(s) => {
                self.bump();
                return Ok(Expr::new(self.m(t.span), ExprKind::Real(s.clone())));
            }
            TokKind::Str(s) => {
                self.bump();
                return Ok(Expr::new(self.m(t.span), ExprKind::Str(s.clone())));
            }
            TokKind::Char(s) => {
                self.bump();
                return Ok(Expr::new(self.m(t.span), ExprKind::Char(s.clone())));
            }
            _ => {}
        }
        if t.kind == TokKind::Eof {
            return Err(self.expected("an expression"));
        }
        Err(PErr::new("XMP0027", format!("expected an expression, found {}", t.describe()), t.span, "expected an expression"))
    }

    /// C `(type)` when the parenthesis starts with a type keyword: the type as a
    /// `Verbatim` expression spanning the parentheses.
    fn paren_type(&mut self) -> PResult<Option<Expr>> {
        let is_type = self.is_p("(") && matches!(&self.nth(1).kind, TokKind::Ident(s) if C_TYPES.contains(&s.as_str()));
        if !is_type {
            return Ok(None);
        }
        let open = self.bump().span;
        let mut ty = Vec::new();
        loop {
            match &self.peek().kind {
                TokKind::Ident(s) => ty.push(s.clone()),
                TokKind::Punct("*") => ty.push("*".into()),
                _ => break,
            }
            self.bump();
        }
        let close = self.close(")", open, "')' closing the type name")?;
        Ok(Some(Expr::new(self.m(open.to(close)), ExprKind::Verbatim(ty.join(" ")))))
    }

    /// C `(type) e`.
    fn cast(&mut self, depth: usize) -> PResult<Option<Expr>> {
        let Some(ty) = self.paren_type()? else { return Ok(None) };
        let e = self.expr_bp(C_PREFIX_BP, depth + 1)?;
        let span = ty.span.to(e.span);
        let ExprKind::Verbatim(name) = ty.kind else { return Ok(Some(e)) };
        Ok(Some(Expr::new(span, ExprKind::Cast(name, Box::new(e)))))
    }

    fn postfix(&mut self, mut e: Expr, depth: usize) -> PResult<Expr> {
        loop {
            let c = self.lang == DirLang::C;
            if let Some(open) = self.eat_p("(") {
                let mut args = Vec::new();
                if !self.is_p(")") {
                    args.push(self.arg(depth)?);
                    while self.eat_p(",").is_some() {
                        args.push(self.arg(depth)?);
                    }
                }
                let close = self.close(")", open, "',' or ')'")?;
                let span = e.span.to(self.m(close));
                e = Expr::new(span, ExprKind::Call(Box::new(e), args));
            } else if c && self.is_p("[") {
                let open = self.bump().span;
                let i = self.expr_bp(0, depth + 1)?;
                let close = self.close("]", open, "']'")?;
                let span = e.span.to(self.m(close));
                e = Expr::new(span, ExprKind::Index(Box::new(e), Box::new(i)));
            } else if (c && (self.is_p(".") || self.is_p("->"))) || (!c && self.is_p("%")) {
                let arrow = self.is_p("->");
                self.bump();
                let f = self.ident("a member name")?;
                let span = e.span.to(f.span);
                e = Expr::new(span, ExprKind::Member { base: Box::new(e), field: f.name, arrow });
            } else if c && (self.is_p("++") || self.is_p("--")) {
                let op = if self.is_p("++") { UnOp::PostInc } else { UnOp::PostDec };
                let s = self.bump().span;
                let span = e.span.to(self.m(s));
                e = Expr::new(span, ExprKind::Unary(op, Box::new(e)));
            } else {
                return Ok(e);
            }
        }
    }

    /// A call argument; Fortran also allows a section `[lo]:[hi][:st]`.
    fn arg(&mut self, depth: usize) -> PResult<Expr> {
        if self.lang == DirLang::C {
            return self.expr_bp(0, depth + 1);
        }
        let start = self.pos_start();
        let lo = if self.is_p(":") { None } else { Some(self.expr_bp(0, depth + 1)?) };
        if self.eat_p(":").is_none() {
            return lo.ok_or_else(|| self.expected("an expression"));
        }
        let end = |p: &Self| p.is_p(",") || p.is_p(")") || p.is_p(":");
        let hi = if end(self) { None } else { Some(self.expr_bp(0, depth + 1)?) };
        let st = if self.eat_p(":").is_some() { Some(self.expr_bp(0, depth + 1)?) } else { None };
        Ok(Expr::new(self.since(start), ExprKind::Triplet(lo.map(Box::new), hi.map(Box::new), st.map(Box::new))))
    }
}
