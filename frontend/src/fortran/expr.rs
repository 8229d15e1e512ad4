//! Fortran expressions → `xmpc_ir::Expr`.

use super::lower::Lower;
use tree_sitter::Node;
use xmpc_ir::{BinOp, Expr, ExprKind, Span, UnOp};

/// Fortran names are case-insensitive; the IR keeps them in lower case.
pub fn lower_name(s: &str) -> String {
    s.trim().to_ascii_lowercase()
}

fn binop(op: &str) -> Option<BinOp> {
    Some(match op.to_ascii_lowercase().as_str() {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "**" => BinOp::Pow,
        "<" | ".lt." => BinOp::Lt,
        "<=" | ".le." => BinOp::Le,
        ">" | ".gt." => BinOp::Gt,
        ">=" | ".ge." => BinOp::Ge,
        "==" | ".eq." => BinOp::Eq,
        "/=" | ".ne." => BinOp::Ne,
        ".and." => BinOp::And,
        ".or." => BinOp::Or,
        ".eqv." => BinOp::Eqv,
        ".neqv." => BinOp::Neqv,
        "//" => BinOp::Concat,
        _ => return None,
    })
}

/// `10`, `8_8` are integers; anything with a point or an exponent is real.
fn number(t: &str) -> ExprKind {
    let body = t.split('_').next().unwrap_or(t);
    if body.bytes().any(|c| matches!(c, b'.' | b'e' | b'E' | b'd' | b'D' | b'q' | b'Q')) {
        ExprKind::Real(t.to_string())
    } else {
        ExprKind::Int(t.to_string())
    }
}

pub fn lower<'a>(l: &mut Lower<'a>, k: Node<'a>) -> Expr {
    let span = l.span(k);
    let text = l.text(k);
    let kind = match k.kind() {
        "identifier" | "type_member" => ExprKind::Ident(lower_name(text)),
        "number_literal" => number(text.trim()),
        "boolean_literal" => ExprKind::Logical(text.trim().to_ascii_lowercase().starts_with(".t")),
        "string_literal" => ExprKind::Str(text.to_string()),
        "assumed_size" => ExprKind::Star,
        "parenthesized_expression" => match l.named(k).first() {
            Some(&e) if !k.has_error() => {
                let mut e = lower(l, e);
                e.span = span;
                return e;
            }
            _ => ExprKind::Verbatim(text.to_string()),
        },
        "unary_expression" | "logical_expression" | "math_expression" | "relational_expression" | "concatenation_expression" if !k.has_error() => {
            operator(l, k).unwrap_or_else(|| ExprKind::Verbatim(text.to_string()))
        }
        "call_expression" if !k.has_error() => {
            let v = l.named(k);
            match v.split_first() {
                Some((f, rest)) => {
                    let mut e = lower(l, *f);
                    // `a(1)(2:3)`: one call per argument list.
                    for a in rest {
                        let args = l.args(*a);
                        let sp = Span::new(e.span.start, l.span(*a).end);
                        e = Expr::new(sp, ExprKind::Call(Box::new(e), args));
                    }
                    e.span = span;
                    return e;
                }
                None => ExprKind::Verbatim(text.to_string()),
            }
        }
        "derived_type_member_expression" if !k.has_error() => {
            let v = l.named(k);
            match (v.first(), v.last()) {
                (Some(b), Some(f)) if v.len() == 2 => {
                    let base = lower(l, *b);
                    ExprKind::Member { base: Box::new(base), field: lower_name(l.text(*f)), arrow: false }
                }
                _ => ExprKind::Verbatim(text.to_string()),
            }
        }
        "extent_specifier" if !k.has_error() => {
            let mut parts: [Option<Box<Expr>>; 3] = [None, None, None];
            let mut i = 0;
            for c in l.kids(k) {
                if c.kind() == ":" {
                    i = (i + 1).min(2);
                } else if c.is_named() && c.kind() != "comment" {
                    parts[i] = Some(Box::new(lower(l, c)));
                }
            }
            let [a, b, c] = parts;
            ExprKind::Triplet(a, b, c)
        }
        _ => ExprKind::Verbatim(text.to_string()),
    };
    Expr::new(span, kind)
}

fn operator<'a>(l: &mut Lower<'a>, k: Node<'a>) -> Option<ExprKind> {
    let op = k.child_by_field_id(l.f.operator)?;
    let ot = l.text(op);
    if let Some(a) = k.child_by_field_id(l.f.argument) {
        let u = match ot.to_ascii_lowercase().as_str() {
            "-" => UnOp::Neg,
            "+" => UnOp::Plus,
            ".not." => UnOp::Not,
            _ => return None,
        };
        return Some(ExprKind::Unary(u, Box::new(lower(l, a))));
    }
    let b = binop(ot)?;
    let left = lower(l, k.child_by_field_id(l.f.left)?);
    let right = lower(l, k.child_by_field_id(l.f.right)?);
    Some(ExprKind::Binary(b, Box::new(left), Box::new(right)))
}
