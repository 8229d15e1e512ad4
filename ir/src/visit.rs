//! One walker for the whole IR (rustc's `intravisit` pattern): a [`Visitor`] overrides
//! the `visit_*` methods it cares about and calls the matching `walk_*` function to go
//! on into the children. Every pass that walks statements or expressions uses this
//! instead of its own recursion, so a new IR node is walked everywhere at once.

use crate::{Expr, ExprKind, FileUnit, Function, Item, Module, Pragma, Stmt, StmtKind};

/// Visits the IR in source order. The defaults walk everything.
pub trait Visitor<'a>: Sized {
    fn visit_item(&mut self, it: &'a Item) {
        walk_item(self, it)
    }
    fn visit_function(&mut self, f: &'a Function) {
        walk_function(self, f)
    }
    fn visit_module(&mut self, m: &'a Module) {
        walk_module(self, m)
    }
    fn visit_stmt(&mut self, s: &'a Stmt) {
        walk_stmt(self, s)
    }
    fn visit_pragma(&mut self, p: &'a Pragma) {
        walk_pragma(self, p)
    }
    fn visit_expr(&mut self, e: &'a Expr) {
        walk_expr(self, e)
    }
}

pub fn walk_file<'a, V: Visitor<'a>>(v: &mut V, unit: &'a FileUnit) {
    for it in &unit.items {
        v.visit_item(it);
    }
}

pub fn walk_item<'a, V: Visitor<'a>>(v: &mut V, it: &'a Item) {
    match it {
        Item::Decl(s) => v.visit_stmt(s),
        Item::Function(f) => v.visit_function(f),
        Item::Module(m) => v.visit_module(m),
        Item::Pragma(p) => v.visit_pragma(p),
        Item::Verbatim(_) => {}
    }
}

/// The body, then the `contains` procedures. Parameter and local initialisers are
/// reached through the declaration statements (`StmtKind::Decl`) that declare them.
pub fn walk_function<'a, V: Visitor<'a>>(v: &mut V, f: &'a Function) {
    for s in &f.body {
        v.visit_stmt(s);
    }
    for c in &f.contains {
        v.visit_function(c);
    }
}

pub fn walk_module<'a, V: Visitor<'a>>(v: &mut V, m: &'a Module) {
    for s in &m.decls {
        v.visit_stmt(s);
    }
    for c in &m.contains {
        v.visit_function(c);
    }
}

/// A statement's expressions and child statements, in source order.
pub fn walk_stmt<'a, V: Visitor<'a>>(v: &mut V, s: &'a Stmt) {
    match &s.kind {
        StmtKind::Compound(list) => list.iter().for_each(|x| v.visit_stmt(x)),
        StmtKind::Decl(_) | StmtKind::Verbatim | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Nop => {}
        StmtKind::Expr(e) => v.visit_expr(e),
        StmtKind::Assign(a, b) => {
            v.visit_expr(a);
            v.visit_expr(b);
        }
        StmtKind::If { cond, then, els } => {
            v.visit_expr(cond);
            v.visit_stmt(then);
            if let Some(e) = els {
                v.visit_stmt(e);
            }
        }
        StmtKind::For { init, cond, step, body } => {
            if let Some(i) = init {
                v.visit_stmt(i);
            }
            if let Some(c) = cond {
                v.visit_expr(c);
            }
            if let Some(st) = step {
                v.visit_expr(st);
            }
            v.visit_stmt(body);
        }
        StmtKind::Do { var, lower, upper, step, body, .. } => {
            v.visit_expr(var);
            v.visit_expr(lower);
            v.visit_expr(upper);
            if let Some(st) = step {
                v.visit_expr(st);
            }
            v.visit_stmt(body);
        }
        StmtKind::While { cond, body } => {
            if let Some(c) = cond {
                v.visit_expr(c);
            }
            v.visit_stmt(body);
        }
        StmtKind::DoWhile { body, cond } => {
            v.visit_stmt(body);
            v.visit_expr(cond);
        }
        StmtKind::Switch { cond, body } => {
            v.visit_expr(cond);
            v.visit_stmt(body);
        }
        StmtKind::Call { args, .. } => args.iter().for_each(|a| v.visit_expr(a)),
        StmtKind::Return(e) | StmtKind::Stop(e) => {
            if let Some(e) = e {
                v.visit_expr(e);
            }
        }
        StmtKind::Pragma(p) => v.visit_pragma(p),
    }
}

/// The statement a directive applies to (its own clauses are not host expressions).
pub fn walk_pragma<'a, V: Visitor<'a>>(v: &mut V, p: &'a Pragma) {
    if let Some(b) = &p.body {
        v.visit_stmt(b);
    }
}

pub fn walk_expr<'a, V: Visitor<'a>>(v: &mut V, e: &'a Expr) {
    for c in e.children() {
        v.visit_expr(c);
    }
}

impl Expr {
    /// Direct sub-expressions, in source order.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::Str(_)
            | ExprKind::Char(_)
            | ExprKind::Logical(_)
            | ExprKind::Star
            | ExprKind::Verbatim(_) => vec![],
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::SizeOf(a) => vec![a],
            ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => vec![a, b],
            ExprKind::Call(f, args) => std::iter::once(&**f).chain(args.iter()).collect(),
            ExprKind::Triplet(a, b, c) => [a, b, c].into_iter().flatten().map(|x| &**x).collect(),
            ExprKind::Member { base, .. } => vec![base],
            ExprKind::Cond(a, b, c) => vec![a, b, c],
        }
    }

    /// Calls `f` on this expression and every expression below it, pre-order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        for c in self.children() {
            c.walk(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BinOp, Span};

    fn id(n: &str, at: usize) -> Expr {
        Expr { span: Span::new(at, at + n.len()), kind: ExprKind::Ident(n.into()) }
    }

    struct Names(Vec<String>);
    impl<'a> Visitor<'a> for Names {
        fn visit_expr(&mut self, e: &'a Expr) {
            if let ExprKind::Ident(n) = &e.kind {
                self.0.push(n.clone());
            }
            walk_expr(self, e)
        }
    }

    #[test]
    fn expressions_of_nested_statements_in_source_order() {
        let sum = Expr { span: Span::new(4, 9), kind: ExprKind::Binary(BinOp::Add, Box::new(id("b", 4)), Box::new(id("c", 8))) };
        let assign = Stmt { span: Span::new(0, 10), label: None, kind: StmtKind::Assign(id("a", 0), sum) };
        let body = Stmt { span: Span::new(0, 10), label: None, kind: StmtKind::Compound(vec![assign]) };
        let lp = Stmt {
            span: Span::new(0, 20),
            label: None,
            kind: StmtKind::Do { var: id("i", 0), lower: id("lo", 0), upper: id("hi", 0), step: None, end_label: None, body: Box::new(body) },
        };
        let mut v = Names(vec![]);
        v.visit_stmt(&lp);
        assert_eq!(v.0, ["i", "lo", "hi", "a", "b", "c"]);
    }
}
