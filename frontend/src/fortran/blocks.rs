//! Directive blocks: `task ... end task` folding and attaching directives to the
//! statement that follows them.

use super::lower::Lower;
use xmpc_ir::diag::Label;
use xmpc_ir::directive::Directive;
use xmpc_ir::{Span, Stmt, StmtKind};

impl Lower<'_> {
    /// An XMP0105 block-matching error, with an optional secondary label.
    fn err(&mut self, msg: String, at: Span, label: &str, other: Option<(Span, String)>) {
        let mut d = xmpc_ir::diag::error("XMP0105", msg, self.file, at, label);
        if let Some((s, m)) = other {
            d = d.with_labels(vec![Label::secondary(self.file, s.range()).with_message(m)]);
        }
        self.diags.push(d);
    }

    /// Folds `task ... end task`-style blocks, then attaches directives to the
    /// statement after them.
    pub(super) fn fold_blocks(&mut self, items: Vec<Stmt>) -> Vec<Stmt> {
        if !items.iter().any(|s| matches!(s.kind, StmtKind::Pragma(_))) {
            return items;
        }
        struct Frame {
            opener: Stmt,
            name: String,
            body: Vec<Stmt>,
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut top: Vec<Stmt> = Vec::new();
        for s in items {
            match role(&s) {
                Role::Open(name) => stack.push(Frame { opener: s, name, body: Vec::new() }),
                Role::Close(name) => {
                    if let Some(pos) = stack.iter().rposition(|f| f.name == name) {
                        while stack.len() > pos + 1 {
                            let f = stack.pop().unwrap_or_else(|| unreachable!());
                            let m = format!("`{}` has no matching `end {}`", f.name, f.name);
                            self.err(m, f.opener.span, "opened here", Some((s.span, format!("`end {name}` closes an outer block here"))));
                            let level = stack.last_mut().map_or(&mut top, |f| &mut f.body);
                            level.push(f.opener);
                            level.extend(f.body);
                        }
                        let f = stack.pop().unwrap_or_else(|| unreachable!());
                        let body = self.attach(f.body);
                        let body = self.compound(body, f.opener.span.end);
                        let mut p = f.opener;
                        if let StmtKind::Pragma(pr) = &mut p.kind {
                            pr.body = Some(Box::new(body));
                            pr.end_span = Some(s.span);
                            p.span = pr.span();
                        }
                        stack.last_mut().map_or(&mut top, |f| &mut f.body).push(p);
                    } else {
                        let level = stack.last_mut().map_or(&mut top, |f| &mut f.body);
                        if !optional_end(level, &name) {
                            let other = stack.last().map(|f| (f.opener.span, format!("the open block is `{}`", f.name)));
                            self.err(format!("`end {name}` without a matching `{name}`"), s.span, "no open block to close", other);
                        }
                        stack.last_mut().map_or(&mut top, |f| &mut f.body).push(s);
                    }
                }
                Role::None => stack.last_mut().map_or(&mut top, |f| &mut f.body).push(s),
            }
        }
        while let Some(f) = stack.pop() {
            let m = format!("`{}` has no matching `end {}`", f.name, f.name);
            self.err(m, f.opener.span, "opened here", None);
            let level = stack.last_mut().map_or(&mut top, |f| &mut f.body);
            level.push(f.opener);
            level.extend(f.body);
        }
        self.attach(top)
    }

    /// Gives each directive that applies to the next statement that statement, and an
    /// optional `end <construct>` right after it.
    pub(super) fn attach(&mut self, items: Vec<Stmt>) -> Vec<Stmt> {
        let mut rev: Vec<Stmt> = Vec::with_capacity(items.len());
        for mut s in items.into_iter().rev() {
            if let StmtKind::Pragma(p) = &mut s.kind {
                if p.body.is_none() && p.end_span.is_none() && p.dir.attaches_to_next() {
                    let next_ok = rev.last().is_some_and(|n| !is_bare_pragma(n));
                    if next_ok {
                        let b = rev.pop().unwrap_or_else(|| unreachable!());
                        p.body = Some(Box::new(b));
                        if let (Some(c), Some(n)) = (construct(&p.dir), rev.last()) {
                            if bare_closes(n).is_some_and(|x| x == c) {
                                p.end_span = Some(n.span);
                                rev.pop();
                            }
                        }
                        s.span = p.span();
                    }
                }
            }
            rev.push(s);
        }
        rev.reverse();
        rev
    }
}

enum Role {
    Open(String),
    Close(String),
    None,
}

fn bare_dir(s: &Stmt) -> Option<&Directive> {
    match &s.kind {
        StmtKind::Pragma(p) if p.body.is_none() && p.end_span.is_none() => Some(&p.dir),
        _ => None,
    }
}

fn is_bare_pragma(s: &Stmt) -> bool {
    bare_dir(s).is_some()
}

fn bare_closes(s: &Stmt) -> Option<&str> {
    bare_dir(s).and_then(|d| d.closes_block())
}

fn role(s: &Stmt) -> Role {
    match bare_dir(s) {
        Some(d) => {
            if let Some(n) = d.opens_block() {
                Role::Open(n.to_string())
            } else if let Some(n) = d.closes_block() {
                Role::Close(n.to_string())
            } else {
                Role::None
            }
        }
        None => Role::None,
    }
}

/// The OpenACC construct of a directive that may take an optional `end` line.
fn construct(d: &Directive) -> Option<&str> {
    match &d.kind {
        xmpc_ir::directive::DirectiveKind::Acc { construct, .. } => Some(construct),
        _ => None,
    }
}

/// An `end <name>` that closes a directive taking the statement before it
/// (`!$acc parallel loop` / DO loop / `!$acc end parallel loop`).
fn optional_end(level: &[Stmt], name: &str) -> bool {
    let n = level.len();
    n >= 2 && bare_dir(&level[n - 2]).is_some_and(|d| d.attaches_to_next() && construct(d) == Some(name))
}
