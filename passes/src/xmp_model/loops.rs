//! `loop` nests: which loop of the nest runs over which template dimension, with
//! which schedule form, decided on the IR (never on printed text) for C `for` and
//! Fortran `do` alike.
//!
//! The directive's template subscripts give each index variable its template
//! dimension and offset (`t(i + 1)`: template index = `i + 1`). The nest is walked from
//! the statement the directive applies to: each loop (through OpenACC constructs, and
//! through a block's first loop when other statements sit beside it, as Omni looks for
//! each index through the first statement of every loop body) either runs over one of
//! the directive's indices — a work-shared level — or is skipped (every node runs it
//! whole, and the work-shared loops inside may not depend on its variable).

use super::diag::Code;
use super::iexpr::IExpr;
use super::loop_sched::{self, LoopPlan};
use super::resolve::Resolver;
use super::symbols::TemplId;
use super::ModelError;
use xmpc_ir::directive::{DirectiveKind, DistFormat, LoopDir, SubKind};
use xmpc_ir::{BinOp, Expr, ExprKind, Pragma, Stmt, StmtKind, UnOp};

/// A `loop` directive resolved against its nest.
#[derive(Clone, Debug)]
pub struct LoopNest<'a> {
    pub templ: TemplId,
    /// The work-shared levels, outermost first.
    pub levels: Vec<Level<'a>>,
    /// Loops of the nest the directive does not work-share, outermost first.
    pub skipped: Vec<&'a Stmt>,
    /// `expand` / `margin` / `peel_and_wait`, checked against the levels.
    pub plan: LoopPlan<'a>,
}

/// One work-shared loop of a nest.
#[derive(Clone, Debug)]
pub struct Level<'a> {
    /// The `for` / `do` statement, and its body.
    pub stmt: &'a Stmt,
    pub body: &'a Stmt,
    pub var: String,
    pub tdim: usize,
    /// Template index = loop variable + `offset`.
    pub offset: IExpr<'a>,
    /// The iterations counted upwards: `lo`, `lo + step`, ... up to `hi` (inclusive),
    /// `step` positive; `down`: the loop runs them from the top.
    pub lo: IExpr<'a>,
    pub hi: IExpr<'a>,
    pub step: IExpr<'a>,
    pub down: bool,
    /// How the node's iterations of this level are laid out.
    pub form: Form,
    /// A `*` template dimension inside a distributed level, with no width: the loop
    /// keeps the bounds written in the source (`LoopPlan::keeps_own_bounds`).
    pub keeps_bounds: bool,
}

/// The shape of a node's share of one level (from the template dimension's format).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// block, gblock, `*`: one run with the loop's own step.
    Run,
    /// cyclic: every `nodes`-th index.
    Stride,
    /// cyclic(w), or a format not known when translating: chunks of up to `w` indices
    /// every `nodes * w`, possibly several chunk sets (a step that does not divide it).
    Chunks,
}

/// A loop statement in canonical form.
#[derive(Clone, Debug)]
pub struct Shape<'a> {
    pub var: String,
    pub lo: IExpr<'a>,
    pub hi: IExpr<'a>,
    pub step: IExpr<'a>,
    pub down: bool,
    pub body: &'a Stmt,
}

impl<'a> Resolver<'a, '_> {
    /// Resolves a `loop` directive; the nest is recorded for the printers. Errors are
    /// reported (XMP0104, XMP0302, XMP0304) and nothing is recorded then.
    pub fn loop_nest(&mut self, p: &'a Pragma, l: &'a LoopDir, t: TemplId) {
        if p.body.as_deref().and_then(loop_stmt).is_none() {
            return; // not followed by a loop: XMP0106, reported by the resolver
        }
        match self.nest(p, l, t) {
            Ok(n) => {
                self.m.loops.insert(p.dir.span.start, n);
            }
            Err((code, e)) => {
                let d = e.to_diag(code, self.m.unit.file);
                self.m.diags.push(d);
            }
        }
    }

    fn nest(&mut self, p: &'a Pragma, l: &'a LoopDir, t: TemplId) -> Result<LoopNest<'a>, (Code, ModelError)> {
        let nest_err = |e: ModelError| (Code::LoopNest, e);
        let rank = self.m.templates[t.0].rank();
        let subs = l.on.subs.as_deref().unwrap_or(&[]);
        if l.on.subs.is_some() && subs.len() != rank {
            let e = ModelError::new(
                l.on.span,
                format!("`loop on` gives {} subscript(s) for the {rank}-dimensional template `{}`", subs.len(), l.on.name.name),
                "rank mismatch",
            );
            return Err((Code::RankMismatch, e));
        }
        if l.on.subs.is_none() {
            return Err(nest_err(ModelError::new(l.on.span, "`loop on` needs template subscripts", "e.g. `on t(i)`")));
        }
        let map = self.index_map(subs);
        let indices: Vec<String> =
            if l.indices.is_empty() { map.iter().map(|m| m.0.clone()).collect() } else { l.indices.iter().map(|n| self.scopes.key(&n.name)).collect() };
        if indices.is_empty() {
            return Err(nest_err(ModelError::new(l.on.span, "`loop` names no loop variable", "e.g. `on t(i)`")));
        }
        let (levels, skipped) = self.levels(p, l, &indices, &map)?;
        let plan = loop_sched::plan(l.option.as_ref(), rank, p.dir.span).map_err(|e| (Code::NotTranslated, e))?;
        let mut levels = levels;
        self.forms(t, &plan, &mut levels);
        for (d, w) in plan.widths.iter().enumerate() {
            let Some(w) = w else { continue };
            let Some(lv) = levels.iter().find(|lv| lv.tdim == d) else { return Err((Code::NotTranslated, loop_sched::width_without_loop(w, d))) };
            let tt = &self.m.templates[t.0];
            let fmt = tt.format(d).filter(|_| !tt.wide_cyclic(d));
            loop_sched::check_width(w, fmt, lv.step.lit() == Some(1), lv.down).map_err(|e| (Code::NotTranslated, e))?;
        }
        Ok(LoopNest { templ: t, levels, skipped, plan })
    }

    /// Each index variable of the template subscripts: (variable, template dim, offset).
    fn index_map(&self, subs: &'a [xmpc_ir::directive::Sub]) -> Vec<(String, usize, IExpr<'a>)> {
        let mut map = vec![];
        let fortran = self.fortran();
        for (k, s) in subs.iter().enumerate() {
            let SubKind::Expr(e) = &s.kind else { continue };
            let mut names = vec![];
            e.walk(&mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    names.push(n.clone());
                }
            });
            for n in names {
                if let Some(off) = super::decl::index_offset(e, &n, fortran) {
                    map.push((self.scopes.key(&n), k, off));
                }
            }
        }
        map
    }

    /// Walks the nest: work-shared levels and skipped loops.
    #[allow(clippy::type_complexity)]
    fn levels(
        &mut self,
        p: &'a Pragma,
        l: &LoopDir,
        indices: &[String],
        map: &[(String, usize, IExpr<'a>)],
    ) -> Result<(Vec<Level<'a>>, Vec<&'a Stmt>), (Code, ModelError)> {
        let nest_err = |e: ModelError| (Code::LoopNest, e);
        let mut remaining: Vec<String> = indices.to_vec();
        let Some(mut cur) = p.body.as_deref().and_then(loop_stmt) else {
            return Err((Code::LoopNotFollowed, ModelError::new(p.dir.name_span, "`loop` directive is not followed by a loop", "expects a loop next")));
        };
        let (mut levels, mut skipped): (Vec<Level<'a>>, Vec<Shape<'a>>) = (vec![], vec![]);
        let mut skipped_stmts = vec![];
        loop {
            let shape = self.shape(cur).map_err(nest_err)?;
            let Some(pos) = remaining.iter().position(|v| *v == shape.var) else {
                if !l.indices.is_empty() || levels.iter().any(|x| x.var == shape.var) {
                    let e =
                        ModelError::new(cur.span.start_span(), format!("loop variable `{}` is not an index of the `loop` directive", shape.var), "this loop")
                            .help(format!("the directive work-shares {}; nest those loops directly below it", indices.join(", ")));
                    return Err(nest_err(e));
                }
                let Some(inner) = loop_stmt(shape.body) else {
                    let e = ModelError::new(
                        shape.body.span.start_span(),
                        format!("the `loop` directive work-shares {}, but no loop over it is nested here", remaining.join(", ")),
                        "no nested loop here",
                    );
                    return Err(nest_err(e));
                };
                skipped_stmts.push(cur);
                skipped.push(shape);
                cur = inner;
                continue;
            };
            if let Some(sk) = skipped.iter().find(|sk| [&shape.lo, &shape.hi, &shape.step].iter().any(|x| mentions(x, &sk.var, self.fortran()))) {
                let e = ModelError::new(
                    cur.span.start_span(),
                    format!("the bounds of the work-shared loop over `{}` depend on `{}`, a loop the directive does not work-share", shape.var, sk.var),
                    "this loop",
                )
                .help("work-share the enclosing loop too, or make the bounds independent of it");
                return Err(nest_err(e));
            }
            remaining.remove(pos);
            let Some(m) = map.iter().find(|m| m.0 == shape.var) else {
                let e = ModelError::new(l.on.span, format!("`{}` does not appear as a subscript of `{}`", shape.var, l.on.name.name), "here");
                return Err(nest_err(e));
            };
            let body = shape.body;
            levels.push(Level {
                stmt: cur,
                body,
                var: shape.var,
                tdim: m.1,
                offset: m.2.clone(),
                lo: shape.lo,
                hi: shape.hi,
                step: shape.step,
                down: shape.down,
                form: Form::Run,
                keeps_bounds: false,
            });
            if remaining.is_empty() {
                break;
            }
            let Some(inner) = loop_stmt(body) else {
                let e = ModelError::new(
                    body.span.start_span(),
                    format!("`loop ({})` needs nested loops over {}", indices.join(", "), remaining.join(", ")),
                    "no nested loop here",
                );
                return Err(nest_err(e));
            };
            cur = inner;
        }
        Ok((levels, skipped_stmts))
    }

    /// Each level's schedule form and whether it keeps its own bounds.
    fn forms(&self, t: TemplId, plan: &LoopPlan, levels: &mut [Level<'a>]) {
        let tt = &self.m.templates[t.0];
        let mut inside_distributed = false;
        for lv in levels.iter_mut() {
            let fmt = tt.format(lv.tdim);
            lv.keeps_bounds = plan.keeps_own_bounds(lv.tdim, fmt, inside_distributed);
            inside_distributed |= loop_sched::distributes(fmt);
            lv.form = match fmt {
                _ if loop_sched::own_step(fmt) => Form::Run,
                Some(DistFormat::Cyclic) if !tt.wide_cyclic(lv.tdim) => Form::Stride,
                _ => Form::Chunks,
            };
        }
    }

    /// A `for` (C) or `do` (Fortran) statement in canonical form.
    pub fn shape(&self, s: &'a Stmt) -> Result<Shape<'a>, ModelError> {
        match &s.kind {
            StmtKind::Do { var, lower, upper, step, body, .. } => {
                let Some(v) = var.ident() else { return Err(bad(s, "the loop variable is not a plain variable")) };
                let st = step.as_ref().map_or(IExpr::Lit(1), IExpr::src);
                let down = step.as_ref().is_some_and(is_negative);
                let (lo, hi) = if down { (IExpr::src(upper), IExpr::src(lower)) } else { (IExpr::src(lower), IExpr::src(upper)) };
                let step = if down { -st } else { st };
                Ok(Shape { var: self.scopes.key(v), lo, hi, step, down, body })
            }
            StmtKind::For { init, cond, step, body } => self.c_for(s, init.as_deref(), cond.as_ref(), step.as_ref(), body),
            _ => Err(bad(s, "not a `for` loop")),
        }
    }

    fn c_for(&self, s: &'a Stmt, init: Option<&'a Stmt>, cond: Option<&'a Expr>, step: Option<&'a Expr>, body: &'a Stmt) -> Result<Shape<'a>, ModelError> {
        let Some(init) = init else { return Err(bad(s, "no initialisation")) };
        let (var, lo) = match &init.kind {
            StmtKind::Expr(Expr { kind: ExprKind::Assign(None, v, lo), .. }) if v.ident().is_some() => (v.ident().unwrap_or_default().to_string(), lo.as_ref()),
            StmtKind::Decl(ids) if ids.len() == 1 => {
                let sym = self.decl_symbol(ids[0]).ok_or_else(|| bad(s, "the initialisation is not `int i = lower`"))?;
                let Some(lo) = &sym.init else { return Err(bad(s, "no initial value")) };
                (sym.name.clone(), lo)
            }
            _ => return Err(bad(s, "the initialisation is not `i = lower`")),
        };
        let Some(cond) = cond else { return Err(bad(s, "no condition")) };
        let cmp = "the condition must compare the loop variable with `<`, `<=`, `>` or `>=`";
        // (inclusive bound, counting down)
        let (bound, down) = match &cond.kind {
            ExprKind::Binary(op, a, b) if a.ident() == Some(&var) => match op {
                BinOp::Lt | BinOp::Ne => (IExpr::src(b).plus(-1), false),
                BinOp::Le => (IExpr::src(b), false),
                BinOp::Gt => (IExpr::src(b).plus(1), true),
                BinOp::Ge => (IExpr::src(b), true),
                _ => return Err(bad(s, cmp)),
            },
            ExprKind::Binary(op, a, b) if b.ident() == Some(&var) => match op {
                BinOp::Gt => (IExpr::src(a).plus(-1), false),
                BinOp::Ge => (IExpr::src(a), false),
                BinOp::Lt => (IExpr::src(a).plus(1), true),
                BinOp::Le => (IExpr::src(a), true),
                _ => return Err(bad(s, cmp)),
            },
            _ => return Err(bad(s, "the condition is not a comparison of the loop variable")),
        };
        let Some(step) = step else { return Err(bad(s, "no increment")) };
        let st = c_step(step, &var, down).ok_or_else(|| {
            bad(
                s,
                match (&step.kind, down) {
                    (ExprKind::Assign(None, ..), false) => "the increment is not `i++` or `i += step`",
                    (ExprKind::Assign(None, ..), true) => "the decrement is not `i--` or `i -= step`",
                    _ => "the step does not move the loop variable towards the bound (`i++`, `i += s`, `i--`, `i -= s`)",
                },
            )
        })?;
        let lo = IExpr::src(lo);
        let (lo, hi) = if !down {
            (lo, bound)
        } else if st.lit() == Some(1) {
            (bound, lo)
        } else {
            // The lowest iteration of `lo, lo - st, ...` that is >= bound.
            (lo.clone() - (lo.clone() - bound) / st.clone() * st.clone(), lo)
        };
        Ok(Shape { var, lo, hi, step: st, down, body })
    }
}

/// The step of a C `for` (`i++`, `i += s`, `i = i + s`; downwards `i--`, `i -= s`).
fn c_step<'a>(step: &'a Expr, var: &str, down: bool) -> Option<IExpr<'a>> {
    let is = |e: &Expr| e.ident() == Some(var);
    Some(match (&step.kind, down) {
        (ExprKind::Unary(UnOp::PostInc | UnOp::PreInc, v), false) if is(v) => IExpr::Lit(1),
        (ExprKind::Unary(UnOp::PostDec | UnOp::PreDec, v), true) if is(v) => IExpr::Lit(1),
        (ExprKind::Assign(Some(BinOp::Add), v, c), false) if is(v) => IExpr::src(c),
        (ExprKind::Assign(Some(BinOp::Sub), v, c), true) if is(v) => IExpr::src(c),
        (ExprKind::Assign(None, v, rhs), false) if is(v) => match &rhs.kind {
            ExprKind::Binary(BinOp::Add, a, c) if is(a) => IExpr::src(c),
            ExprKind::Binary(BinOp::Add, c, a) if is(a) => IExpr::src(c),
            _ => return None,
        },
        (ExprKind::Assign(None, v, rhs), true) if is(v) => match &rhs.kind {
            ExprKind::Binary(BinOp::Sub, a, c) if is(a) => IExpr::src(c),
            _ => return None,
        },
        _ => return None,
    })
}

fn bad(s: &Stmt, what: &str) -> ModelError {
    ModelError::new(s.span.start_span(), format!("cannot work-share this loop: {what}"), "loop of a `loop` directive")
        .help("write it as `for (i = lower; i < upper; i++)` (also `<=`, `i += step`) in C, `do i = lower, upper[, step]` in Fortran")
}

/// A Fortran step written negative (`-1`, `-k`).
fn is_negative(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Unary(UnOp::Neg, _)) || super::iexpr::int_value(e).is_some_and(|v| v < 0)
}

/// The loop statement a nest continues with: `s` itself, the statement under an
/// OpenACC construct, or a block's first loop (other statements beside it run at
/// this level on every iteration).
pub fn loop_stmt(s: &Stmt) -> Option<&Stmt> {
    match &s.kind {
        StmtKind::For { .. } | StmtKind::Do { .. } => Some(s),
        StmtKind::Pragma(q) if matches!(q.dir.kind, DirectiveKind::Acc { .. }) => q.body.as_deref().and_then(loop_stmt),
        StmtKind::Compound(v) => v.iter().find_map(|x| match &x.kind {
            StmtKind::For { .. } | StmtKind::Do { .. } | StmtKind::Pragma(_) | StmtKind::Compound(_) => loop_stmt(x),
            _ => None,
        }),
        _ => None,
    }
}

/// True when `e` names the variable `var`.
fn mentions(e: &IExpr, var: &str, fortran: bool) -> bool {
    match e {
        IExpr::Src(x) => {
            let mut found = false;
            x.walk(&mut |y| {
                if let ExprKind::Ident(n) = &y.kind {
                    found |= if fortran { n.eq_ignore_ascii_case(var) } else { n == var };
                }
            });
            found
        }
        IExpr::Add(a, b) | IExpr::Sub(a, b) | IExpr::Mul(a, b) | IExpr::Div(a, b) | IExpr::Min(a, b) => mentions(a, var, fortran) || mentions(b, var, fortran),
        IExpr::Neg(a) => mentions(a, var, fortran),
        _ => false,
    }
}
