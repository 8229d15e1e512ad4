//! Host-language expressions (C and Fortran share one tree).

use crate::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub span: Span,
    pub kind: ExprKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Ident(String),
    /// Integer literal as written (`10`, `0x1F`, `8_8`).
    Int(String),
    /// Real literal as written (`1.0e-3`, `1.0d0`, `2.f`).
    Real(String),
    Str(String),
    Char(String),
    Logical(bool),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` or a compound `lhs op= rhs` (C only).
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// C call, or Fortran call / array reference (the grammar cannot tell them apart
    /// without symbols; `Program::symbols` can).
    Call(Box<Expr>, Vec<Expr>),
    /// C subscript `a[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// Fortran / directive triplet `lower:upper[:stride]`, each part optional.
    Triplet(Option<Box<Expr>>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `s.f`, `s->f` (arrow), Fortran `s%f`.
    Member {
        base: Box<Expr>,
        field: String,
        arrow: bool,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(String, Box<Expr>),
    SizeOf(Box<Expr>),
    /// `*` as a subscript or argument (Fortran assumed size, XMP "not distributed").
    Star,
    /// Anything the IR does not model, kept as its source text.
    Verbatim(String),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
    Eqv,
    Neqv,
    Concat,
    Comma,
}

impl BinOp {
    /// XcodeML element name for the operator.
    pub fn xcodeml(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "plusExpr",
            Sub => "minusExpr",
            Mul => "mulExpr",
            Div => "divExpr",
            Rem => "modExpr",
            Pow => "FpowerExpr",
            Shl => "LshiftExpr",
            Shr => "RshiftExpr",
            Lt => "logLTExpr",
            Le => "logLEExpr",
            Gt => "logGTExpr",
            Ge => "logGEExpr",
            Eq => "logEQExpr",
            Ne => "logNEQExpr",
            BitAnd => "bitAndExpr",
            BitOr => "bitOrExpr",
            BitXor => "bitXorExpr",
            And => "logAndExpr",
            Or => "logOrExpr",
            Eqv => "logEQVExpr",
            Neqv => "logNEQVExpr",
            Concat => "FconcatExpr",
            Comma => "commaExpr",
        }
    }
}

impl UnOp {
    pub fn xcodeml(self) -> &'static str {
        use UnOp::*;
        match self {
            Neg => "unaryMinusExpr",
            Plus => "unaryPlusExpr",
            Not => "logNotExpr",
            BitNot => "bitNotExpr",
            Deref => "pointerRef",
            AddrOf => "varAddr",
            PreInc => "preIncrExpr",
            PreDec => "preDecrExpr",
            PostInc => "postIncrExpr",
            PostDec => "postDecrExpr",
        }
    }
}

impl Expr {
    pub fn new(span: Span, kind: ExprKind) -> Self {
        Expr { span, kind }
    }
    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Ident(s) => Some(s),
            _ => None,
        }
    }
}
