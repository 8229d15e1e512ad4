//! C expressions.

use super::decl::norm;
use super::lower::{Lower, MAX_DEPTH};
use super::tree::{first_named, named, span};
use tree_sitter::Node;
use xmpc_ir::{BinOp, Expr, ExprKind, UnOp};

pub(super) fn binop(op: &str) -> Option<BinOp> {
    use BinOp::*;
    Some(match op {
        "+" => Add,
        "-" => Sub,
        "*" => Mul,
        "/" => Div,
        "%" => Rem,
        "<<" => Shl,
        ">>" => Shr,
        "<" => Lt,
        "<=" => Le,
        ">" => Gt,
        ">=" => Ge,
        "==" => Eq,
        "!=" => Ne,
        "&" => BitAnd,
        "|" => BitOr,
        "^" => BitXor,
        "&&" => And,
        "||" => Or,
        _ => return None,
    })
}

/// Integer or real, from the spelling (`0x1p3` and `1e5` are real, `10UL` is not).
pub(super) fn number(t: &str) -> ExprKind {
    let l = t.to_ascii_lowercase();
    let real = if l.starts_with("0x") { l.contains('p') || l.contains('.') } else { l.contains('.') || l.contains('e') };
    if real {
        ExprKind::Real(t.to_string())
    } else {
        ExprKind::Int(t.to_string())
    }
}

impl Lower<'_> {
    /// The expression inside a control statement's parentheses (their span dropped).
    pub(super) fn cond(&mut self, p: Node) -> Expr {
        match (p.kind(), first_named(p)) {
            ("parenthesized_expression", Some(inner)) => self.expr(inner),
            _ => self.expr(p),
        }
    }

    pub(super) fn expr(&mut self, k: Node) -> Expr {
        if self.depth >= MAX_DEPTH {
            return self.verbatim(k);
        }
        self.depth += 1;
        let e = self.expr_inner(k);
        self.depth -= 1;
        e
    }

    fn verbatim(&self, k: Node) -> Expr {
        Expr::new(span(k), ExprKind::Verbatim(self.text(k).to_string()))
    }

    fn sub(&mut self, k: Node, field: u16) -> Option<Box<Expr>> {
        k.child_by_field_id(field).map(|c| Box::new(self.expr(c)))
    }

    fn op<'t>(&self, k: Node<'t>) -> &'t str {
        k.child_by_field_id(self.f.operator).map_or("", |o| o.kind())
    }

    fn expr_inner(&mut self, k: Node) -> Expr {
        let sp = span(k);
        let kind = match k.kind() {
            "identifier" | "null" => ExprKind::Ident(self.text(k).to_string()),
            "number_literal" => number(self.text(k)),
            "true" => ExprKind::Logical(true),
            "false" => ExprKind::Logical(false),
            "string_literal" if self.text(k).starts_with('"') => ExprKind::Str(self.text(k)[1..].trim_end_matches('"').to_string()),
            "char_literal" if self.text(k).starts_with('\'') => ExprKind::Char(self.text(k)[1..].trim_end_matches('\'').to_string()),
            "parenthesized_expression" => match first_named(k) {
                // Parentheses are dropped; the inner expression keeps their span.
                Some(inner) => return Expr { span: sp, ..self.expr(inner) },
                None => return self.verbatim(k),
            },
            "unary_expression" | "pointer_expression" => {
                let op = match self.op(k) {
                    "-" => UnOp::Neg,
                    "+" => UnOp::Plus,
                    "!" => UnOp::Not,
                    "~" => UnOp::BitNot,
                    "*" => UnOp::Deref,
                    "&" => UnOp::AddrOf,
                    _ => return self.verbatim(k),
                };
                match self.sub(k, self.f.argument) {
                    Some(a) => ExprKind::Unary(op, a),
                    None => return self.verbatim(k),
                }
            }
            "update_expression" => {
                let prefix = k.child(0).is_some_and(|c| !c.is_named());
                let op = match (self.op(k), prefix) {
                    ("++", true) => UnOp::PreInc,
                    ("--", true) => UnOp::PreDec,
                    ("++", false) => UnOp::PostInc,
                    ("--", false) => UnOp::PostDec,
                    _ => return self.verbatim(k),
                };
                match self.sub(k, self.f.argument) {
                    Some(a) => ExprKind::Unary(op, a),
                    None => return self.verbatim(k),
                }
            }
            "binary_expression" => match (binop(self.op(k)), self.sub(k, self.f.left), self.sub(k, self.f.right)) {
                (Some(op), Some(l), Some(r)) => ExprKind::Binary(op, l, r),
                _ => return self.verbatim(k),
            },
            "comma_expression" => match (self.sub(k, self.f.left), self.sub(k, self.f.right)) {
                (Some(l), Some(r)) => ExprKind::Binary(BinOp::Comma, l, r),
                _ => return self.verbatim(k),
            },
            "assignment_expression" => {
                let op = self.op(k);
                let op = if op == "=" {
                    None
                } else {
                    match binop(op.trim_end_matches('=')) {
                        Some(b) => Some(b),
                        None => return self.verbatim(k),
                    }
                };
                match (self.sub(k, self.f.left), self.sub(k, self.f.right)) {
                    (Some(l), Some(r)) => ExprKind::Assign(op, l, r),
                    _ => return self.verbatim(k),
                }
            }
            "call_expression" => match (self.sub(k, self.f.function), k.child_by_field_id(self.f.arguments)) {
                (Some(f), Some(args)) => {
                    let args = named(args).map(|a| self.expr(a)).collect();
                    ExprKind::Call(f, args)
                }
                _ => return self.verbatim(k),
            },
            "subscript_expression" => match (self.sub(k, self.f.argument), self.sub(k, self.f.index)) {
                (Some(a), Some(i)) => ExprKind::Index(a, i),
                _ => return self.verbatim(k),
            },
            "field_expression" => match (self.sub(k, self.f.argument), k.child_by_field_id(self.f.field)) {
                (Some(base), Some(f)) => ExprKind::Member { base, field: self.text(f).to_string(), arrow: self.op(k) == "->" },
                _ => return self.verbatim(k),
            },
            "conditional_expression" => match (self.sub(k, self.f.condition), self.sub(k, self.f.consequence), self.sub(k, self.f.alternative)) {
                (Some(c), Some(a), Some(b)) => ExprKind::Cond(c, a, b),
                _ => return self.verbatim(k), // GNU `a ?: b`
            },
            "cast_expression" => match (k.child_by_field_id(self.f.ty), self.sub(k, self.f.value)) {
                (Some(t), Some(v)) => ExprKind::Cast(norm(self.text(t)), v),
                _ => return self.verbatim(k),
            },
            "sizeof_expression" => {
                if let Some(v) = self.sub(k, self.f.value) {
                    ExprKind::SizeOf(v)
                } else if let Some(t) = k.child_by_field_id(self.f.ty) {
                    ExprKind::SizeOf(Box::new(Expr::new(span(t), ExprKind::Verbatim(norm(self.text(t))))))
                } else {
                    return self.verbatim(k);
                }
            }
            _ => return self.verbatim(k),
        };
        Expr::new(sp, kind)
    }
}
