//! Statements after `gmove` / `array`: C plus array sections `a[start:length[:stride]]`,
//! which tree-sitter-c cannot parse. A small Pratt parser for that subset; anything it
//! does not know (casts, strings, `?:`, commas) makes the caller keep the statement
//! verbatim.
//!
//! Sections become `ExprKind::Triplet(lower, upper, stride)` like the directive IR's
//! square triplets: `s:len` → `s : s+len-1` (folded for literals), `:len` → `: len-1`,
//! `s:` → `s :`, `:` → all parts `None`. Synthesised bounds carry the dimension's span.

use xmpc_ir::{BinOp, Expr, ExprKind, Span, UnOp};

#[derive(Clone, Copy, PartialEq, Debug)]
enum Tok {
    Ident,
    Num,
    Punct,
}

struct P<'a> {
    src: &'a str,
    toks: Vec<(Tok, Span)>,
    pos: usize,
    depth: usize,
}

const OPS3: [&str; 2] = ["<<=", ">>="];
const OPS2: [&str; 19] = ["->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="];

fn lex(src: &str, span: Span) -> Option<Vec<(Tok, Span)>> {
    let b = src.as_bytes();
    let mut i = span.start;
    let mut out = Vec::new();
    while i < span.end {
        let c = b[i];
        if c.is_ascii_whitespace() || (c == b'\\' && matches!(b.get(i + 1), Some(b'\n' | b'\r'))) {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < span.end && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = src[i + 2..].find("*/").map(|e| i + 2 + e + 2)?;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < span.end && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident, Span::new(s, i)));
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let s = i;
            while i < span.end
                && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
            out.push((Tok::Num, Span::new(s, i)));
        } else {
            let rest = &src[i..span.end];
            let n = if OPS3.iter().any(|o| rest.starts_with(o)) {
                3
            } else if OPS2.iter().any(|o| rest.starts_with(o)) {
                2
            } else if c.is_ascii_punctuation() && c != b'"' && c != b'\'' {
                1
            } else {
                return None;
            };
            out.push((Tok::Punct, Span::new(i, i + n)));
            i += n;
        }
    }
    Some(out)
}

/// C binding power of a binary operator (assignment is 2, handled apart).
fn binop(op: &str) -> Option<(u8, BinOp)> {
    use BinOp::*;
    let b = super::expr::binop(op)?;
    let bp = match b {
        Or => 4,
        And => 5,
        BitOr => 6,
        BitXor => 7,
        BitAnd => 8,
        Eq | Ne => 9,
        Lt | Le | Gt | Ge => 10,
        Shl | Shr => 11,
        Add | Sub => 12,
        _ => 13,
    };
    Some((bp, b))
}

/// Parses `span` (an expression statement ending in `;`) into an expression.
pub(super) fn parse_statement(src: &str, span: Span) -> Option<Expr> {
    let mut p = P { src, toks: lex(src, span)?, pos: 0, depth: 0 };
    if p.toks.last().map(|t| p.text(t.1)) != Some(";") {
        return None;
    }
    p.toks.pop();
    let e = p.expr(0)?;
    (p.pos == p.toks.len()).then_some(e)
}

impl P<'_> {
    fn text(&self, s: Span) -> &str {
        &self.src[s.range()]
    }
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|t| &self.src[t.1.range()])
    }
    fn eat(&mut self, p: &str) -> Option<Span> {
        let t = *self.toks.get(self.pos)?;
        (t.0 == Tok::Punct && self.text(t.1) == p).then(|| {
            self.pos += 1;
            t.1
        })
    }

    fn expr(&mut self, min: u8) -> Option<Expr> {
        self.depth += 1;
        if self.depth > 200 {
            return None;
        }
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek() {
            if op == "=" || (op.len() >= 2 && op.ends_with('=') && binop(&op[..op.len() - 1]).is_some() && !matches!(op, "==" | "<=" | ">=" | "!=")) {
                if min > 2 {
                    break;
                }
                let kind = (op != "=").then(|| binop(&op[..op.len() - 1]).map(|b| b.1)).flatten();
                self.pos += 1;
                let rhs = self.expr(2)?; // right associative
                lhs = Expr::new(lhs.span.to(rhs.span), ExprKind::Assign(kind, Box::new(lhs), Box::new(rhs)));
                continue;
            }
            let Some((bp, b)) = binop(op) else { break };
            if bp < min.max(3) {
                break;
            }
            self.pos += 1;
            let rhs = self.expr(bp + 1)?;
            lhs = Expr::new(lhs.span.to(rhs.span), ExprKind::Binary(b, Box::new(lhs), Box::new(rhs)));
        }
        self.depth -= 1;
        Some(lhs)
    }

    fn unary(&mut self) -> Option<Expr> {
        let (tok, sp) = *self.toks.get(self.pos)?;
        let op = match (tok, self.text(sp)) {
            (Tok::Punct, "-") => Some(UnOp::Neg),
            (Tok::Punct, "+") => Some(UnOp::Plus),
            (Tok::Punct, "!") => Some(UnOp::Not),
            (Tok::Punct, "~") => Some(UnOp::BitNot),
            (Tok::Punct, "*") => Some(UnOp::Deref),
            (Tok::Punct, "&") => Some(UnOp::AddrOf),
            (Tok::Punct, "++") => Some(UnOp::PreInc),
            (Tok::Punct, "--") => Some(UnOp::PreDec),
            _ => None,
        };
        if let Some(op) = op {
            self.pos += 1;
            let a = self.unary()?;
            return Some(Expr::new(sp.to(a.span), ExprKind::Unary(op, Box::new(a))));
        }
        let e = self.primary()?;
        self.postfix(e)
    }

    fn primary(&mut self) -> Option<Expr> {
        let (tok, sp) = *self.toks.get(self.pos)?;
        self.pos += 1;
        let text = self.text(sp).to_string();
        match tok {
            Tok::Ident => Some(Expr::new(sp, ExprKind::Ident(text))),
            Tok::Num => Some(Expr::new(sp, super::expr::number(&text))),
            Tok::Punct if text == "(" => {
                let e = self.expr(0)?;
                let close = self.eat(")")?;
                Some(Expr { span: sp.to(close), ..e })
            }
            Tok::Punct => None,
        }
    }

    fn postfix(&mut self, mut e: Expr) -> Option<Expr> {
        loop {
            if self.eat("(").is_some() {
                let mut args = Vec::new();
                if self.eat(")").is_none() {
                    loop {
                        args.push(self.expr(3)?);
                        if self.eat(",").is_none() {
                            break;
                        }
                    }
                    self.eat(")")?;
                }
                let end = self.toks[self.pos - 1].1;
                e = Expr::new(e.span.to(end), ExprKind::Call(Box::new(e), args));
            } else if let Some(open) = self.eat("[") {
                let i = self.subscript(open)?;
                let close = self.eat("]")?;
                e = Expr::new(e.span.to(close), ExprKind::Index(Box::new(e), Box::new(i)));
            } else if self.peek() == Some(".") || self.peek() == Some("->") {
                let arrow = self.peek() == Some("->");
                self.pos += 1;
                let (tok, f) = *self.toks.get(self.pos)?;
                if tok != Tok::Ident {
                    return None;
                }
                self.pos += 1;
                e = Expr::new(e.span.to(f), ExprKind::Member { base: Box::new(e), field: self.text(f).to_string(), arrow });
            } else if self.peek() == Some("++") || self.peek() == Some("--") {
                let op = if self.peek() == Some("++") { UnOp::PostInc } else { UnOp::PostDec };
                let s = self.toks[self.pos].1;
                self.pos += 1;
                e = Expr::new(e.span.to(s), ExprKind::Unary(op, Box::new(e)));
            } else {
                return Some(e);
            }
        }
    }

    /// `e`, or a section `[start]:[length][:stride]`, normalised to lower:upper.
    fn subscript(&mut self, open: Span) -> Option<Expr> {
        let start = if self.peek() == Some(":") { None } else { Some(self.expr(3)?) };
        if self.eat(":").is_none() {
            return start;
        }
        let len = if matches!(self.peek(), Some("]" | ":")) { None } else { Some(self.expr(3)?) };
        let stride = if self.eat(":").is_some() { Some(self.expr(3)?) } else { None };
        let end = self.toks.get(self.pos).map_or(open.end, |t| t.1.start);
        let dim = Span::new(open.end, end);
        let upper = len.map(|l| last_index(start.as_ref(), l, dim));
        Some(Expr::new(dim, ExprKind::Triplet(start.map(Box::new), upper.map(Box::new), stride.map(Box::new))))
    }
}

/// `start + len - 1` (`len - 1` without a start), folded when both are literals.
fn last_index(start: Option<&Expr>, len: Expr, dim: Span) -> Expr {
    let lit = |e: &Expr| match &e.kind {
        ExprKind::Int(s) => s.parse::<i64>().ok(),
        _ => None,
    };
    let s = start.map_or(Some(0), lit);
    if let (Some(s), Some(l)) = (s, lit(&len)) {
        return Expr::new(dim, ExprKind::Int((s + l - 1).to_string()));
    }
    let one = Expr::new(dim, ExprKind::Int("1".into()));
    let sum = match start {
        Some(s) => Expr::new(dim, ExprKind::Binary(BinOp::Add, Box::new(s.clone()), Box::new(len))),
        None => len,
    };
    Expr::new(dim, ExprKind::Binary(BinOp::Sub, Box::new(sum), Box::new(one)))
}
