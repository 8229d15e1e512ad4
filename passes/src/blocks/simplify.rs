//! `--simplify` for the compute base-data program (seed 003 §3.1.1, "simplification"):
//! the program only has to produce each compute block's mean time, so
//!
//! 1. **loops capped at 2 iterations**: a counted Fortran `DO` inside the predicted
//!    region (`mpiete_region_begin` … `mpiete_region_end` of one procedure) that is
//!    not itself part of a compute block runs at most 2 iterations, when that
//!    changes neither message peers nor which blocks run: its step is a literal
//!    (or absent), its lower bound calls nothing, it holds no kept statement (no
//!    control value is computed inside it), no bsim directive, and its variable is
//!    not read by a communicating call (other than as part of a message buffer),
//!    by the header of a communicating statement inside it, or by a communicating
//!    procedure of the file. The upper bound `u` becomes `min(u, l + s)`
//!    (`max(u, l + s)` for a negative step). Fewer executions of each block, same
//!    mean per execution.
//! 2. **code after the region commented out**: the statements after
//!    `mpiete_region_end` in its statement list, up to the one calling
//!    `MPI_Finalize`, get a `!` on every line (results and self-checks: with capped
//!    loops they would check other numbers). Skipped when one of them is labelled.
//!
//! C (same rules): a counted `for (i = a; i < b; i++)` (also `int i = a`, `<=`, `>`,
//! `>=`, `--`, `+= k`, `-= k` with a literal `k`) gets `&& i <= a + s` (`>= a - |s|`)
//! added to its condition, when `a` calls nothing and no name in `a` is written in the
//! loop (C evaluates the condition every iteration); the code after the region is put
//! between `#if 0` and `#endif` (kept when it declares something, is labelled, or
//! does not start and end on lines of its own).
//!
//! Without region markers nothing is simplified (noted).

use super::{text, walk, BlockKind, BlockMap};
use std::collections::{HashMap, HashSet};
use xmpc_ir::{BinOp, Edit, ExprKind, FileUnit, Function, Lang, Span, Stmt, StmtKind, UnOp};

/// What `simplify` changes.
#[derive(Debug, Default)]
pub struct Simplified {
    pub edits: Vec<Edit>,
    /// Commented-out statement ranges (their blocks are not instrumented).
    pub dropped: Vec<Span>,
    /// Number of statements commented out.
    pub dropped_stmts: usize,
    /// Loops capped at 2 iterations (whole loop spans).
    pub capped: Vec<Span>,
    /// Why something was not simplified.
    pub notes: Vec<String>,
}

pub fn simplify(unit: &FileUnit, src: &str, map: &BlockMap) -> Simplified {
    let mut out = Simplified::default();
    let comm_funcs = super::comm_funcs(unit);
    // Names each communicating procedure reads (host association reaches loop variables)
    // and the procedures it calls.
    let mut comm_reads: HashMap<String, (HashSet<String>, Vec<String>)> = HashMap::new();
    for g in unit.functions() {
        let name = norm(unit.lang, &g.name);
        if comm_funcs.contains(&name) {
            let mut r = HashSet::new();
            let mut c = Vec::new();
            for s in &g.body {
                r.extend(walk::reads(s, src, unit.lang));
                c.extend(walk::calls(s).iter().map(|x| norm(unit.lang, x.name)));
            }
            comm_reads.insert(name, (r, c));
        }
    }
    let ctx = Ctx { src, lang: unit.lang, map, comm_funcs: &comm_funcs, comm_reads: &comm_reads };
    let mut regions = 0;
    for g in unit.functions() {
        let Some((lo, hi, list, end_idx)) = region(g) else { continue };
        regions += 1;
        for s in &g.body {
            ctx.caps(s, lo, hi, &mut out);
        }
        ctx.drop_tail(&list, end_idx, &mut out);
    }
    if regions == 0 {
        out.notes.push("no mpiete_region_begin/mpiete_region_end pair in one procedure: nothing simplified".into());
    }
    out
}

struct Ctx<'a> {
    src: &'a str,
    lang: Lang,
    map: &'a BlockMap,
    comm_funcs: &'a HashSet<String>,
    comm_reads: &'a HashMap<String, (HashSet<String>, Vec<String>)>,
}

fn calls_named(s: &Stmt, name: &str) -> bool {
    walk::calls(s).iter().any(|c| c.name.eq_ignore_ascii_case(name))
}

/// A call statement (Fortran `call`, C expression statement that is a call).
fn is_call_stmt(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Call { .. } => true,
        StmtKind::Expr(e) => matches!(e.kind, ExprKind::Call(..)),
        _ => false,
    }
}

/// Names as the block finder keys them: C is case-sensitive, Fortran is not.
fn norm(lang: Lang, n: &str) -> String {
    if lang == Lang::C {
        n.to_string()
    } else {
        n.to_ascii_lowercase()
    }
}

/// The region of `g`: end of the begin call, start of the end call, the statement list
/// holding the end call and its index there.
fn region(g: &Function) -> Option<(usize, usize, Vec<&Stmt>, usize)> {
    let mut begin = None;
    let mut end: Option<(Vec<&Stmt>, usize)> = None;
    fn visit<'s>(list: Vec<&'s Stmt>, begin: &mut Option<usize>, end: &mut Option<(Vec<&'s Stmt>, usize)>) {
        for (i, s) in list.iter().enumerate() {
            if is_call_stmt(s) && calls_named(s, "mpiete_region_begin") && begin.is_none() {
                *begin = Some(s.span.end);
            } else if is_call_stmt(s) && calls_named(s, "mpiete_region_end") && end.is_none() {
                *end = Some((list.clone(), i));
            } else {
                for (kids, _, _) in super::child_seqs(s) {
                    visit(kids, begin, end);
                }
            }
        }
    }
    visit(g.body.iter().collect(), &mut begin, &mut end);
    let (list, i) = end?;
    let b = begin?;
    let e = list[i].span.start;
    (b < e).then_some((b, e, list, i))
}

fn inside(a: Span, b: Span) -> bool {
    a.start >= b.start && a.end <= b.end
}

impl Ctx<'_> {
    fn in_compute_block(&self, sp: Span) -> bool {
        self.map.blocks.iter().any(|b| b.kind == BlockKind::Compute && inside(sp, b.span))
    }

    fn caps(&self, s: &Stmt, lo: usize, hi: usize, out: &mut Simplified) {
        if self.in_compute_block(s.span) || s.span.end <= lo || s.span.start >= hi {
            return;
        }
        if s.span.start >= lo && s.span.end <= hi {
            let e = match &s.kind {
                StmtKind::Do { var, lower, upper, step, .. } => self.cap(s, var, lower, upper, step.as_ref()),
                StmtKind::For { init, cond, step, .. } => self.c_cap(s, init.as_deref(), cond.as_ref(), step.as_ref()),
                _ => None,
            };
            if let Some(e) = e {
                out.edits.push(e);
                out.capped.push(s.span);
            }
        }
        for (kids, _, _) in super::child_seqs(s) {
            for k in kids {
                self.caps(k, lo, hi, out);
            }
        }
    }

    /// The edit capping loop `s`, or None when the rule does not allow it.
    fn cap(&self, s: &Stmt, var: &xmpc_ir::Expr, lower: &xmpc_ir::Expr, upper: &xmpc_ir::Expr, step: Option<&xmpc_ir::Expr>) -> Option<Edit> {
        let v = walk::base_name(var)?.to_ascii_lowercase();
        let step_val: i64 = match step {
            None => 1,
            Some(e) => literal(e)?,
        };
        if step_val == 0 {
            return None;
        }
        let mut calls = false;
        walk::visit_expr(lower, &mut |x| calls |= matches!(x.kind, ExprKind::Call(..)));
        if calls || !self.free(s, &v) {
            return None;
        }
        let l = &self.src[lower.span.range()];
        let u = &self.src[upper.span.range()];
        let f = if step_val > 0 { "min" } else { "max" };
        let new = if step_val > 0 { format!("{f}({u}, {l} + {step_val})") } else { format!("{f}({u}, {l} - {})", -step_val) };
        Some(Edit::replace(upper.span, self.fit(upper.span, &new)))
    }

    /// The conditions shared by both languages: no kept statement or directive in the
    /// loop, and its variable `v` steers no communication.
    fn free(&self, s: &Stmt, v: &str) -> bool {
        !(self.map.kept.iter().any(|k| inside(*k, s.span))
            || self.map.directives.iter().any(|d| inside(*d, s.span))
            || self.callee_reads(s).contains(v)
            || self.sensitive(s).contains(v))
    }

    /// The edit capping a C counted `for` (module doc), or None.
    fn c_cap(&self, s: &Stmt, init: Option<&Stmt>, cond: Option<&xmpc_ir::Expr>, step: Option<&xmpc_ir::Expr>) -> Option<Edit> {
        let (init, cond, step) = (init?, cond?, step?);
        let (v, sv) = c_step(step)?;
        let ExprKind::Binary(op, lhs, _) = &cond.kind else { return None };
        if !matches!(&lhs.kind, ExprKind::Ident(n) if n == v) {
            return None;
        }
        let up = match op {
            BinOp::Lt | BinOp::Le => true,
            BinOp::Gt | BinOp::Ge => false,
            _ => return None,
        };
        if up != (sv > 0) {
            return None;
        }
        let a = c_start(init, v, self.src)?;
        // the start value must be the same when the condition reads it again
        let written = walk::writes(s, self.src, self.lang, &|_| false, &|_, _| walk::ArgUse::Unknown);
        if a.contains('(') || walk::text_idents(a).iter().any(|n| written.contains(*n)) || !self.free(s, v) {
            return None;
        }
        let a = if walk::text_idents(a).len() <= 1 && !a.contains(|c: char| " +-*/%?:<>=&|!".contains(c)) { a.to_string() } else { format!("({a})") };
        let c = &self.src[cond.span.range()];
        let new = if sv > 0 { format!("{c} && {v} <= {a} + {sv}") } else { format!("{c} && {v} >= {a} - {}", -sv) };
        Some(Edit::replace(cond.span, new))
    }

    /// Names read by the communicating procedures `s` calls, transitively.
    fn callee_reads(&self, s: &Stmt) -> HashSet<String> {
        let mut todo: Vec<String> = walk::calls(s).iter().map(|c| norm(self.lang, c.name)).collect();
        let mut seen = HashSet::new();
        let mut out = HashSet::new();
        while let Some(f) = todo.pop() {
            if let Some((r, c)) = self.comm_reads.get(&f) {
                if seen.insert(f) {
                    out.extend(r.iter().cloned());
                    todo.extend(c.iter().cloned());
                }
            }
        }
        out
    }

    /// Names that steer communication inside `s`: non-buffer arguments of communicating
    /// calls and the headers of communicating statements below it.
    fn sensitive(&self, s: &Stmt) -> HashSet<String> {
        let mut out = HashSet::new();
        let add = |e: &xmpc_ir::Expr, out: &mut HashSet<String>| {
            walk::visit_expr(e, &mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    out.insert(norm(self.lang, n));
                }
            })
        };
        for c in walk::calls(s) {
            let user = self.comm_funcs.contains(&norm(self.lang, c.name));
            if !(walk::communicates(c.name, self.lang) || user) {
                continue;
            }
            let bufs = if user { &[][..] } else { walk::buffer_args(c.name) };
            for (i, a) in c.args.iter().enumerate() {
                if !bufs.contains(&i) {
                    add(a, &mut out);
                }
            }
        }
        for k in s.children() {
            k.walk(&mut |st| {
                let comm = walk::calls(st).iter().any(|c| walk::communicates(c.name, self.lang) || self.comm_funcs.contains(&norm(self.lang, c.name)));
                if comm && !is_call_stmt(st) {
                    for e in walk::own_exprs(st) {
                        add(e, &mut out);
                    }
                }
            });
        }
        // the loop's own header is not a use of its variable
        out
    }

    /// `new` in place of `span`, broken onto a continuation line when the line would
    /// pass the source form's limit (72 columns fixed form, 132 free form).
    fn fit(&self, span: Span, new: &str) -> String {
        let ls = text::line_start(self.src, span.start);
        let le = self.src[span.end..].find('\n').map_or(self.src.len(), |p| span.end + p);
        let len = (span.start - ls) + new.len() + (le - span.end);
        match self.lang {
            Lang::FortranFixed if len > 72 => format!("\n     &  {new}"),
            Lang::FortranFree if len > 132 => format!("&\n      & {new}"),
            _ => new.to_string(),
        }
    }

    /// Comments out the statements after `list[end]` up to the one calling MPI_Finalize.
    fn drop_tail(&self, list: &[&Stmt], end: usize, out: &mut Simplified) {
        let rest: Vec<&Stmt> = list[end + 1..].iter().copied().take_while(|s| !calls_named(s, "mpi_finalize")).collect();
        let rest: Vec<&Stmt> = rest.into_iter().filter(|s| !matches!(s.kind, StmtKind::Nop)).collect();
        if rest.is_empty() {
            return;
        }
        let mut labelled = false;
        for s in &rest {
            s.walk(&mut |st| labelled |= st.label.is_some());
        }
        if labelled {
            out.notes.push("a statement after mpiete_region_end is labelled: the code after the region is kept".into());
            return;
        }
        if self.lang == Lang::C {
            return self.drop_tail_c(&rest, out);
        }
        for s in &rest {
            let mut p = text::line_start(self.src, s.span.start);
            let last = text::next_line(self.src, s.span.end.saturating_sub(1).max(s.span.start));
            while p < last {
                out.edits.push(Edit::insert(p, "!"));
                p = text::next_line(self.src, p);
            }
        }
        out.dropped_stmts += rest.len();
        out.dropped.push(rest[0].span.to(rest[rest.len() - 1].span));
    }
}

impl Ctx<'_> {
    /// C: the statements after the region between `#if 0` and `#endif`, when they
    /// declare nothing (a later statement may use it) and fill whole lines.
    fn drop_tail_c(&self, rest: &[&Stmt], out: &mut Simplified) {
        let mut decl = false;
        for s in rest {
            s.walk(&mut |st| decl |= matches!(st.kind, StmtKind::Decl(_)));
        }
        let first = rest[0].span.start;
        let ls = text::line_start(self.src, first);
        let mut end = rest[rest.len() - 1].span.end;
        let tail = &self.src[end..self.src[end..].find('\n').map_or(self.src.len(), |p| end + p)];
        let whole = self.src[ls..first].trim().is_empty() && matches!(tail.trim(), "" | ";");
        if decl || !whole {
            let why = if decl { "declares a variable" } else { "shares its lines with other code" };
            out.notes.push(format!("the code after mpiete_region_end {why}: it is kept"));
            return;
        }
        end += tail.len();
        out.edits.push(Edit::insert(ls, "#if 0 /* mpiete --simplify: after the region */\n"));
        out.edits.push(Edit::insert(text::next_line(self.src, end.saturating_sub(1).max(first)), "#endif\n"));
        out.dropped_stmts += rest.len();
        out.dropped.push(rest[0].span.to(rest[rest.len() - 1].span));
    }
}

/// An integer literal, possibly negated.
fn literal(e: &xmpc_ir::Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) => t.split('_').next()?.parse().ok(),
        ExprKind::Unary(UnOp::Neg, a) => literal(a).map(|v| -v),
        _ => None,
    }
}

/// Loop variable and step of a C `for` step expression: `i++`, `++i`, `i--`, `--i`,
/// `i += k`, `i -= k` (literal `k`).
fn c_step(e: &xmpc_ir::Expr) -> Option<(&str, i64)> {
    fn id(x: &xmpc_ir::Expr) -> Option<&str> {
        match &x.kind {
            ExprKind::Ident(n) => Some(n.as_str()),
            _ => None,
        }
    }
    match &e.kind {
        ExprKind::Unary(UnOp::PostInc | UnOp::PreInc, a) => Some((id(a)?, 1)),
        ExprKind::Unary(UnOp::PostDec | UnOp::PreDec, a) => Some((id(a)?, -1)),
        ExprKind::Assign(Some(BinOp::Add), a, k) => Some((id(a)?, literal(k)?)),
        ExprKind::Assign(Some(BinOp::Sub), a, k) => Some((id(a)?, -literal(k)?)),
        _ => None,
    }
    .filter(|(_, s)| *s != 0)
}

/// Source text of the start value of `v` in a C `for` init (`v = a` or `int v = a`).
fn c_start<'s>(init: &Stmt, v: &str, src: &'s str) -> Option<&'s str> {
    match &init.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign(None, l, r) if matches!(&l.kind, ExprKind::Ident(n) if n == v) => Some(src[r.span.range()].trim()),
            _ => None,
        },
        StmtKind::Decl(_) => {
            let t = src[init.span.range()].trim().trim_end_matches(';');
            let (left, right) = t.split_once('=')?;
            (walk::text_idents(left).last() == Some(&v) && !left.contains(',') && !right.contains(',')).then(|| right.trim())
        }
        _ => None,
    }
}
