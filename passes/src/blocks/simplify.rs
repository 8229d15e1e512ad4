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
//! Anything not covered (C sources, no region markers) is left as it is and noted.

use super::{text, walk, BlockKind, BlockMap};
use std::collections::{HashMap, HashSet};
use xmpc_ir::{Edit, ExprKind, FileUnit, Function, Lang, Span, Stmt, StmtKind, UnOp};

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
    if unit.lang == Lang::C {
        out.notes.push("--simplify handles Fortran only; the C program is instrumented unchanged".into());
        return out;
    }
    let comm_funcs = super::comm_funcs(unit);
    // Names each communicating procedure reads (host association reaches loop variables)
    // and the procedures it calls.
    let mut comm_reads: HashMap<String, (HashSet<String>, Vec<String>)> = HashMap::new();
    for g in unit.functions() {
        let name = g.name.to_ascii_lowercase();
        if comm_funcs.contains(&name) {
            let mut r = HashSet::new();
            let mut c = Vec::new();
            for s in &g.body {
                r.extend(walk::reads(s, src, unit.lang));
                c.extend(walk::calls(s).iter().map(|x| x.name.to_ascii_lowercase()));
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

/// The region of `g`: end of the begin call, start of the end call, the statement list
/// holding the end call and its index there.
fn region(g: &Function) -> Option<(usize, usize, Vec<&Stmt>, usize)> {
    let mut begin = None;
    let mut end: Option<(Vec<&Stmt>, usize)> = None;
    fn visit<'s>(list: Vec<&'s Stmt>, begin: &mut Option<usize>, end: &mut Option<(Vec<&'s Stmt>, usize)>) {
        for (i, s) in list.iter().enumerate() {
            if matches!(s.kind, StmtKind::Call { .. }) && calls_named(s, "mpiete_region_begin") && begin.is_none() {
                *begin = Some(s.span.end);
            } else if matches!(s.kind, StmtKind::Call { .. }) && calls_named(s, "mpiete_region_end") && end.is_none() {
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
        if let StmtKind::Do { var, lower, upper, step, .. } = &s.kind {
            if s.span.start >= lo && s.span.end <= hi {
                if let Some(e) = self.cap(s, var, lower, upper, step.as_ref()) {
                    out.edits.push(e);
                    out.capped.push(s.span);
                }
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
        if calls || self.map.kept.iter().any(|k| inside(*k, s.span)) || self.map.directives.iter().any(|d| inside(*d, s.span)) {
            return None;
        }
        if self.callee_reads(s).contains(&v) || self.sensitive(s).contains(&v) {
            return None;
        }
        let l = &self.src[lower.span.range()];
        let u = &self.src[upper.span.range()];
        let f = if step_val > 0 { "min" } else { "max" };
        let new = if step_val > 0 { format!("{f}({u}, {l} + {step_val})") } else { format!("{f}({u}, {l} - {})", -step_val) };
        Some(Edit::replace(upper.span, self.fit(upper.span, &new)))
    }

    /// Names read by the communicating procedures `s` calls, transitively.
    fn callee_reads(&self, s: &Stmt) -> HashSet<String> {
        let mut todo: Vec<String> = walk::calls(s).iter().map(|c| c.name.to_ascii_lowercase()).collect();
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
                    out.insert(n.to_ascii_lowercase());
                }
            })
        };
        for c in walk::calls(s) {
            let user = self.comm_funcs.contains(&c.name.to_ascii_lowercase());
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
                let comm = walk::calls(st).iter().any(|c| walk::communicates(c.name, self.lang) || self.comm_funcs.contains(&c.name.to_ascii_lowercase()));
                if comm && !matches!(st.kind, StmtKind::Call { .. }) {
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

/// An integer literal, possibly negated.
fn literal(e: &xmpc_ir::Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(t) => t.split('_').next()?.parse().ok(),
        ExprKind::Unary(UnOp::Neg, a) => literal(a).map(|v| -v),
        _ => None,
    }
}
