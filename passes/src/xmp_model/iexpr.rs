//! Integer expressions of the plan: bounds, offsets, node numbers and widths the model
//! computes from the program's own expressions. They are language-neutral trees; each
//! printer spells them (`C`: `(a < b ? a : b)`, Fortran: `min(a, b)`). The smart
//! constructors fold literals, so `i + 0` and `1 + 1` never reach a printer.

use xmpc_ir::{Expr, ExprKind, UnOp};

/// A node set the expression asks the runtime about (by the model's id).
pub type NodesRef = super::symbols::NodesId;

#[derive(Clone, Debug, PartialEq)]
pub enum IExpr<'a> {
    Lit(i64),
    /// An expression of the program, printed by the printer (which may rewrite the
    /// distributed arrays it names).
    Src(&'a Expr),
    /// Host-language text from outside this file (a Fortran module description):
    /// printed as it is.
    Foreign(String),
    Add(Box<IExpr<'a>>, Box<IExpr<'a>>),
    Sub(Box<IExpr<'a>>, Box<IExpr<'a>>),
    Mul(Box<IExpr<'a>>, Box<IExpr<'a>>),
    /// Integer division of non-negative values (C `/`, Fortran `/`).
    Div(Box<IExpr<'a>>, Box<IExpr<'a>>),
    Neg(Box<IExpr<'a>>),
    Min(Box<IExpr<'a>>, Box<IExpr<'a>>),
    /// The size of a dimension (0-based, round order) of a node set, at run time.
    NodesDimSize(NodesRef, usize),
    /// The executing node's 0-based coordinate in a dimension of a node set.
    NodesCoord(NodesRef, usize),
}

use IExpr::*;

impl<'a> IExpr<'a> {
    /// The program's expression, as a literal when it is one (`-3`, `+2` included).
    pub fn src(e: &'a Expr) -> IExpr<'a> {
        match int_value(e) {
            Some(v) => Lit(v),
            None => Src(e),
        }
    }

    pub fn lit(&self) -> Option<i64> {
        match self {
            Lit(v) => Some(*v),
            _ => None,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.lit() == Some(0)
    }

    /// `self + k` for a literal `k` (folded, and `(x + 2) + 1` is `x + 3`).
    pub fn plus(self, k: i64) -> IExpr<'a> {
        self.add_(Lit(k))
    }

    fn add_(self, b: IExpr<'a>) -> IExpr<'a> {
        match (self, b) {
            (Lit(x), Lit(y)) => x.checked_add(y).map_or_else(|| Add(Box::new(Lit(x)), Box::new(Lit(y))), Lit),
            (a, Lit(0)) | (Lit(0), a) => a,
            (Add(a, k), Lit(y)) if k.lit().is_some_and(|x| x.checked_add(y).is_some()) => a.add_(Lit(k.lit().unwrap_or(0) + y)),
            (Sub(a, k), Lit(y)) if k.lit().is_some_and(|x| y.checked_sub(x).is_some()) => a.add_(Lit(y - k.lit().unwrap_or(0))),
            (a, Lit(y)) if y < 0 && y != i64::MIN => Sub(Box::new(a), Box::new(Lit(-y))),
            (a, Neg(b)) => a.sub_(*b),
            (a, b) => Add(Box::new(a), Box::new(b)),
        }
    }

    fn sub_(self, b: IExpr<'a>) -> IExpr<'a> {
        match (self, b) {
            (Lit(x), Lit(y)) => x.checked_sub(y).map_or_else(|| Sub(Box::new(Lit(x)), Box::new(Lit(y))), Lit),
            (a, Lit(0)) => a,
            (a, Lit(y)) if y < 0 && y != i64::MIN => a.add_(Lit(-y)),
            (a, Lit(y)) => a.add_(Lit(-y)),
            (a, b) if a == b => Lit(0),
            (Lit(0), b) => b.neg_(),
            (a, b) => Sub(Box::new(a), Box::new(b)),
        }
    }

    fn neg_(self) -> IExpr<'a> {
        match self {
            Lit(v) => v.checked_neg().map_or_else(|| Neg(Box::new(Lit(v))), Lit),
            Neg(a) => *a,
            a => Neg(Box::new(a)),
        }
    }

    fn mul_(self, b: IExpr<'a>) -> IExpr<'a> {
        match (self, b) {
            (Lit(x), Lit(y)) => x.checked_mul(y).map_or_else(|| Mul(Box::new(Lit(x)), Box::new(Lit(y))), Lit),
            (a, Lit(1)) | (Lit(1), a) => a,
            (a, b) => Mul(Box::new(a), Box::new(b)),
        }
    }

    /// Integer division (of non-negative values).
    fn div_(self, b: IExpr<'a>) -> IExpr<'a> {
        match (self, b) {
            (Lit(x), Lit(y)) if y > 0 && x >= 0 => Lit(x / y),
            (a, Lit(1)) => a,
            (a, b) => Div(Box::new(a), Box::new(b)),
        }
    }

    pub fn min(self, b: IExpr<'a>) -> IExpr<'a> {
        match (self, b) {
            (Lit(x), Lit(y)) => Lit(x.min(y)),
            (a, b) if a == b => a,
            (a, b) => Min(Box::new(a), Box::new(b)),
        }
    }

    /// Operator precedence for printing: 4 atoms, 3 unary, 2 `*`/`/`, 1 `+`/`-`.
    pub fn precedence(&self) -> u8 {
        match self {
            Lit(v) if *v < 0 => 3,
            Lit(_) | NodesDimSize(..) | NodesCoord(..) | Min(..) => 4,
            Src(e) => expr_precedence(e),
            Foreign(t) => {
                if is_atom_text(t) {
                    4
                } else {
                    0
                }
            }
            Neg(_) => 3,
            Mul(..) | Div(..) => 2,
            Add(..) | Sub(..) => 1,
        }
    }
}

/// How tightly a program expression binds when printed as written (0: wrap it).
fn expr_precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Call(..) | ExprKind::Index(..) | ExprKind::Member { .. } => 4,
        _ => 0,
    }
}

fn is_atom_text(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '%')
}

macro_rules! op {
    ($tr:ident, $f:ident, $imp:ident) => {
        impl<'a> std::ops::$tr for IExpr<'a> {
            type Output = IExpr<'a>;
            fn $f(self, b: IExpr<'a>) -> IExpr<'a> {
                self.$imp(b)
            }
        }
    };
}
op!(Add, add, add_);
op!(Sub, sub, sub_);
op!(Mul, mul, mul_);
op!(Div, div, div_);

impl<'a> std::ops::Neg for IExpr<'a> {
    type Output = IExpr<'a>;
    fn neg(self) -> IExpr<'a> {
        self.neg_()
    }
}

/// The value of an integer literal, possibly signed (`3`, `-3`, `+3`; `8_8` is not).
pub fn int_value(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(s) => s.parse().ok(),
        ExprKind::Unary(UnOp::Neg, x) => int_value(x).and_then(|v| v.checked_neg()),
        ExprKind::Unary(UnOp::Plus, x) => int_value(x),
        _ => None,
    }
}

/// The program expressions an expression is built from, in order.
pub fn sources<'a>(e: &IExpr<'a>, out: &mut Vec<&'a Expr>) {
    match e {
        Src(x) => out.push(x),
        Add(a, b) | Sub(a, b) | Mul(a, b) | Div(a, b) | Min(a, b) => {
            sources(a, out);
            sources(b, out);
        }
        Neg(a) => sources(a, out),
        Lit(_) | Foreign(_) | NodesDimSize(..) | NodesCoord(..) => {}
    }
}

/// How a printer spells the parts of an [`IExpr`] that differ between languages.
pub trait Spell {
    /// A program expression as the printer prints it (rewritten if need be).
    fn src(&self, e: &Expr) -> String;
    /// `min(a, b)` of two printed operands.
    fn min(&self, a: &str, b: &str) -> String;
    fn nodes_dim_size(&self, n: NodesRef, d: usize) -> String;
    fn nodes_coord(&self, n: NodesRef, d: usize) -> String;
}

/// Prints `e` with the operators C and Fortran share (`+ - * /`, parentheses).
pub fn print(e: &IExpr, sp: &dyn Spell) -> String {
    // an operand that starts with `-` is wrapped (Fortran has no `a * -b`)
    let signed = |x: &IExpr| matches!(x, Neg(_)) || x.lit().is_some_and(|v| v < 0);
    let operand = |x: &IExpr, at: u8| {
        let t = print(x, sp);
        if x.precedence() < at || signed(x) {
            format!("({t})")
        } else {
            t
        }
    };
    match e {
        Lit(v) => v.to_string(),
        Src(x) => sp.src(x),
        Foreign(t) => t.trim().to_string(),
        // a - (b + c): the right operand of `-` and `/` binds tighter
        Add(a, b) => format!("{} + {}", operand(a, 1), operand(b, 2)),
        Sub(a, b) => format!("{} - {}", operand(a, 1), operand(b, 2)),
        Mul(a, b) => format!("{} * {}", operand(a, 2), operand(b, 3)),
        Div(a, b) => format!("{} / {}", operand(a, 2), operand(b, 3)),
        Neg(a) => format!("-{}", operand(a, 4)),
        Min(a, b) => sp.min(&print(a, sp), &print(b, sp)),
        NodesDimSize(n, d) => sp.nodes_dim_size(*n, *d),
        NodesCoord(n, d) => sp.nodes_coord(*n, *d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xmpc_ir::Span;

    struct T;
    impl Spell for T {
        fn src(&self, e: &Expr) -> String {
            match &e.kind {
                ExprKind::Ident(n) => n.clone(),
                _ => "?".into(),
            }
        }
        fn min(&self, a: &str, b: &str) -> String {
            format!("min({a}, {b})")
        }
        fn nodes_dim_size(&self, _: NodesRef, d: usize) -> String {
            format!("size{d}")
        }
        fn nodes_coord(&self, _: NodesRef, d: usize) -> String {
            format!("me{d}")
        }
    }

    fn id(n: &str) -> Expr {
        Expr { span: Span::new(0, 0), kind: ExprKind::Ident(n.into()) }
    }

    #[test]
    fn literals_fold_and_offsets_merge() {
        let n = id("n");
        assert_eq!(print(&IExpr::src(&n).plus(0), &T), "n");
        assert_eq!(print(&IExpr::src(&n).plus(2).plus(-1), &T), "n + 1");
        assert_eq!(print(&IExpr::src(&n).plus(-1), &T), "n - 1");
        assert_eq!(print(&IExpr::src(&n).plus(-1).plus(1), &T), "n");
        assert_eq!(print(&Lit(3).add_(Lit(4)).mul_(Lit(2)), &T), "14");
        assert_eq!(print(&IExpr::src(&n).sub_(IExpr::src(&n)), &T), "0");
    }

    #[test]
    fn parentheses_follow_precedence() {
        let (a, b, c) = (id("a"), id("b"), id("c"));
        let s = IExpr::src(&a).sub_(IExpr::src(&b).add_(IExpr::src(&c)));
        assert_eq!(print(&s, &T), "a - (b + c)");
        let m = IExpr::src(&a).add_(IExpr::src(&b)).mul_(IExpr::src(&c));
        assert_eq!(print(&m, &T), "(a + b) * c");
        let mn = IExpr::src(&a).plus(1).min(NodesDimSize(super::super::symbols::NodesId(0), 1));
        assert_eq!(print(&mn, &T), "min(a + 1, size1)");
        assert_eq!(print(&Lit(-2).mul_(IExpr::src(&a)), &T), "(-2) * a");
        assert_eq!(print(&IExpr::src(&a).mul_(Lit(-2)), &T), "a * (-2)");
        assert_eq!(print(&IExpr::src(&a).sub_(Neg(Box::new(IExpr::src(&b)))), &T), "a - (-b)");
    }
}
