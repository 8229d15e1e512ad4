//! `loop`: each work-shared `for` of the model's nest (`xmp_model::loops`) rewritten
//! to the node's share, the reductions of the directive after the nest.

use super::*;
use xmpc_passes::xmp_model::loop_sched::LoopPlan;
use xmpc_passes::xmp_model::loop_sched::RangeKind;
use xmpc_passes::xmp_model::loops::{Form, Level as ModelLevel};

/// The block a rewritten nest opens: its schedule calls, and the tests of `margin`
/// (the points of the owned box xor the widened one, in the innermost header).
struct Head {
    head: String,
    loc: String,
    t: String,
    ind: String,
    margin_in_owned: Vec<String>,
    margin_in_wide: Vec<String>,
}

/// One level of a work-shared loop nest.
pub(super) struct Level<'a> {
    pub stmt: &'a Stmt,
    pub body: &'a Stmt,
    pub var: String,
    /// Text that starts the new init (`i = ` or `int i = `).
    pub init_prefix: String,
    pub lo: String,
    /// Inclusive upper bound.
    pub hi: String,
    pub step: String,
    pub step_text: String,
    /// A loop counting downwards (`for (i = hi; i >= lo; i--)`): lo/hi/step are those of
    /// the same iterations counted upwards.
    pub down: bool,
    pub tdim: usize,
    pub off: String,
}

impl<'a> Tr<'a> {
    pub(super) fn loop_dir(&mut self, p: &'a Pragma, l: &LoopDir) {
        // the nest as the model resolved it (errors were reported there)
        let Some(nest) = self.m.loop_nest(p).cloned() else { return };
        let ti = nest.templ;
        // the statement the directive applies to (past OpenACC constructs)
        let Some(mut first_stmt) = p.body.as_deref() else { return };
        while let StmtKind::Pragma(inner) = &first_stmt.kind {
            match inner.body.as_deref() {
                Some(b) if matches!(inner.dir.kind, DirectiveKind::Acc { .. }) => first_stmt = b,
                _ => break,
            }
        }
        let mut levels: Vec<Level<'a>> = vec![];
        for lv in &nest.levels {
            let Some((init_prefix, step_text)) = self.for_texts(lv.stmt, &lv.var) else { return };
            let (lo, hi, step, off) = (self.ie_render(&lv.lo), self.ie_render(&lv.hi), self.ie_render(&lv.step), self.ie(&lv.offset));
            levels.push(Level { stmt: lv.stmt, body: lv.body, var: lv.var.clone(), init_prefix, lo, hi, step, step_text, down: lv.down, tdim: lv.tdim, off });
        }
        let skipped: Vec<&'a Stmt> = nest.skipped.clone();
        let f = self.cur_fn.expect("in a function");
        if let Some(b) = p.body.as_deref() {
            let stmts: Vec<&'a Stmt> = levels.iter().map(|l| l.stmt).collect();
            self.acc_in_nest(b, &stmts);
        }
        let loc = self.loc(p);
        let t = self.tname(ti);
        let outer = first_stmt;
        let ind = self.indent_at(outer.span.start);
        let comment = self.dir_comment(p);
        let mut head = format!("{comment}\n{ind}{{");
        let plan = &nest.plan;
        for r in &l.reductions {
            head.push_str(&self.reduction_restart(r, &format!("xmpc_template_nodes({t})"), &format!("{ind}    ")));
        }
        if let Some(tag) = plan.wait_tag {
            let _ = write!(head, "\n{ind}    xmpc_wait_async({loc}, {}); /* peel_and_wait: wait, then the whole loop */", c_expr(tag));
        }
        let mut hc = Head { head, loc: loc.clone(), t: t.clone(), ind: ind.clone(), margin_in_owned: vec![], margin_in_wide: vec![] };
        for (li, lv) in levels.iter().enumerate() {
            let last = li + 1 == levels.len();
            if self.level_header(lv, &nest.levels[li], plan, last, &mut hc).is_none() {
                return;
            }
        }
        let head = hc.head;
        self.edit(p.dir.span, head);
        // The innermost body.
        self.scopes.push(Scope::default());
        for st in skipped.iter().copied().chain(levels.iter().map(|lv| lv.stmt)) {
            if let Some(StmtKind::Decl(ids)) = for_init(st).map(|s| &s.kind) {
                self.declare(&f.symbols, ids);
            }
        }
        let body = levels.last().expect("one level").body;
        let n_active = self.active_loops.len();
        for lv in &levels {
            self.active_loops.push(super::loop_ref::ActiveIndex { var: lv.var.clone(), templ: ti, tdim: lv.tdim });
        }
        self.jump_body(body, false);
        self.active_loops.truncate(n_active);
        self.scopes.pop();
        let mut tail = String::new();
        let nodes = format!("xmpc_template_nodes({t})");
        for r in &l.reductions {
            // In the for's column: `-Wmisleading-indentation` after an unbraced body.
            tail.push_str(&self.reduction_calls(r, &loc, &nodes, &ind));
        }
        let _ = write!(tail, "\n{ind}}}");
        self.edit(Span::new(outer.span.end, outer.span.end), tail);
    }

    /// One level's schedule (added to the nest's head block) and its new `for` header.
    fn level_header(&mut self, lv: &Level<'a>, ml: &ModelLevel, plan: &LoopPlan, last: bool, hc: &mut Head) -> Option<()> {
        let (loc, t, ind) = (hc.loc.clone(), hc.t.clone(), hc.ind.clone());
        let v = &lv.var;
        let keeps_bounds = ml.keeps_bounds;
        let (lo_t, hi_t) = if lv.off == "0" { (lv.lo.clone(), lv.hi.clone()) } else { (plus_str(&lv.lo, &lv.off, false), plus_str(&lv.hi, &lv.off, false)) };
        let kind = match ml.form {
            Form::Run => 0,
            Form::Stride => 1,
            Form::Chunks => 2,
        };
        let shift = |x: &str| if lv.off == "0" { x.to_string() } else { plus_str(x, &lv.off, true) };
        if lv.down && kind == 2 {
            self.error(
                "XMP0302",
                "a loop counting downwards over a cyclic(w) dimension is not supported",
                lv.stmt.span.start_span(),
                "count upwards here",
                None,
            );
            return None;
        }
        if kind == 2 {
            // cyclic(w) (or a format decided at run time): up to step + 1 chunk sets.
            let _ = write!(
                hc.head,
                "\n{ind}    xmpc_sched _XMP_scheds_{v}[8];\n{ind}    const int _XMP_nsched_{v} = xmpc_loop_sched_multi({loc}, {t}, {}, {lo_t}, {hi_t}, {}, _XMP_scheds_{v}, 8);\n{ind}    if (_XMP_nsched_{v} > 8)\n{ind}        xmpc_fatal({loc}, \"loop step too large for a cyclic(w) distribution\");",
                lv.tdim, lv.step
            );
            let f = shift(&format!("_XMP_scheds_{v}[_XMP_k_{v}].first"));
            let l = shift(&format!("_XMP_scheds_{v}[_XMP_k_{v}].last"));
            let header = format!(
                "for (int _XMP_k_{v} = 0; _XMP_k_{v} < _XMP_nsched_{v}; _XMP_k_{v}++)\n{ind}for (long _XMP_c_{v} = {f}; _XMP_c_{v} <= {l}; _XMP_c_{v} += _XMP_scheds_{v}[_XMP_k_{v}].stride)\n{ind}    for ({}_XMP_c_{v}; {v} <= (_XMP_c_{v} + _XMP_scheds_{v}[_XMP_k_{v}].width - 1 < {l} ? _XMP_c_{v} + _XMP_scheds_{v}[_XMP_k_{v}].width - 1 : {l}); {})",
                lv.init_prefix, lv.step_text
            );
            let hend = self.src[..lv.body.span.start].rfind(')').map_or(lv.body.span.start, |p| p + 1).max(lv.stmt.span.start);
            self.edit(Span::new(lv.stmt.span.start, hend), header);
            return Some(());
        }
        let _ = write!(
            hc.head,
            "\n{ind}    xmpc_sched _XMP_sched_{v};\n{ind}    xmpc_loop_sched({loc}, {t}, {}, {lo_t}, {hi_t}, {}, &_XMP_sched_{v});",
            lv.tdim, lv.step
        );
        let first = shift(&format!("_XMP_sched_{v}.first"));
        let last_it = shift(&format!("_XMP_sched_{v}.last"));
        if let Some(w) = plan.widths.get(lv.tdim).copied().flatten() {
            // checked by `loop_plan`: a block-like dimension, step 1, upwards
            let (wl, wu) = (paren(&c_expr(&w.lower)), paren(&c_expr(&w.upper)));
            let (lo, hi) = (paren(&lv.lo), paren(&lv.hi));
            let (elo, ehi) = if w.unbound {
                (format!("_XMP_olo_{v} - {wl}"), format!("_XMP_ohi_{v} + {wu}"))
            } else {
                (format!("(_XMP_olo_{v} - {wl} < {lo} ? {lo} : _XMP_olo_{v} - {wl})"), format!("(_XMP_ohi_{v} + {wu} > {hi} ? {hi} : _XMP_ohi_{v} + {wu})"))
            };
            let _ = write!(
                hc.head,
                "\n{ind}    const long _XMP_olo_{v} = {first}, _XMP_ohi_{v} = {last_it};\n{ind}    const long _XMP_elo_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} ? {elo} : _XMP_olo_{v};\n{ind}    const long _XMP_ehi_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} ? {ehi} : _XMP_ohi_{v};"
            );
            if plan.kind == RangeKind::Margin {
                let _ = write!(
                    hc.head,
                    "\n{ind}    const long _XMP_lo_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} && _XMP_elo_{v} < _XMP_olo_{v} ? _XMP_elo_{v} : _XMP_olo_{v};\n{ind}    const long _XMP_hi_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} && _XMP_ehi_{v} > _XMP_ohi_{v} ? _XMP_ehi_{v} : _XMP_ohi_{v};"
                );
                hc.margin_in_owned.push(format!("_XMP_olo_{v} <= {v} && {v} <= _XMP_ohi_{v}"));
                hc.margin_in_wide.push(format!("_XMP_elo_{v} <= {v} && {v} <= _XMP_ehi_{v}"));
            } else {
                let _ = write!(hc.head, "\n{ind}    const long _XMP_lo_{v} = _XMP_elo_{v}, _XMP_hi_{v} = _XMP_ehi_{v}; /* expand */");
            }
        } else if keeps_bounds {
            let _ = write!(hc.head, "\n{ind}    const long _XMP_lo_{v} = {}, _XMP_hi_{v} = {}; /* a `*` dimension: its own bounds */", lv.lo, lv.hi);
        } else {
            let _ = write!(hc.head, "\n{ind}    const long _XMP_lo_{v} = {first}, _XMP_hi_{v} = {last_it};");
        }
        if kind >= 1 {
            let _ = write!(hc.head, "\n{ind}    const long _XMP_st_{v} = _XMP_sched_{v}.stride;");
        }
        if kind == 2 {
            let _ = write!(hc.head, "\n{ind}    const long _XMP_w_{v} = _XMP_sched_{v}.width;");
        }
        let header = if lv.down {
            let s_ = if kind == 0 { lv.step.clone() } else { format!("_XMP_st_{v}") };
            let _ = write!(
                hc.head,
                "\n{ind}    const long _XMP_top_{v} = _XMP_hi_{v} < _XMP_lo_{v} ? _XMP_lo_{v} - 1 : _XMP_lo_{v} + (_XMP_hi_{v} - _XMP_lo_{v}) / {0} * {0};",
                paren(&s_)
            );
            let dec = if kind == 0 { lv.step_text.clone() } else { format!("{v} -= _XMP_st_{v}") };
            format!("for ({}_XMP_top_{v}; {v} >= _XMP_lo_{v}; {dec})", lv.init_prefix)
        } else {
            match kind {
            0 => format!("for ({}_XMP_lo_{v}; {v} <= _XMP_hi_{v}; {})", lv.init_prefix, lv.step_text),
            1 => format!("for ({}_XMP_lo_{v}; {v} <= _XMP_hi_{v}; {v} += _XMP_st_{v})", lv.init_prefix),
            _ => format!(
                "for (long _XMP_c_{v} = _XMP_lo_{v}; _XMP_c_{v} <= _XMP_hi_{v}; _XMP_c_{v} += _XMP_st_{v})\n{ind}    for ({}_XMP_c_{v}; {v} <= (_XMP_c_{v} + _XMP_w_{v} - 1 < _XMP_hi_{v} ? _XMP_c_{v} + _XMP_w_{v} - 1 : _XMP_hi_{v}); {})",
                lv.init_prefix, lv.step_text
            ),
        }
        };
        let header = if last && !hc.margin_in_owned.is_empty() {
            format!("{header}\n{ind}    if (({}) != ({})) /* margin */", hc.margin_in_owned.join(" && "), hc.margin_in_wide.join(" && "))
        } else {
            header
        };
        let hend = self.src[..lv.body.span.start].rfind(')').map_or(lv.body.span.start, |p| p + 1).max(lv.stmt.span.start);
        self.edit(Span::new(lv.stmt.span.start, hend), header);
        Some(())
    }

    /// The C texts a rewritten `for` header keeps: the start of its initialisation
    /// (`i = ` or `int i = `) and its step as written.
    pub(super) fn for_texts(&mut self, s: &Stmt, var: &str) -> Option<(String, String)> {
        let StmtKind::For { init: Some(init), step: Some(step), .. } = &s.kind else { return None };
        let prefix = match &init.kind {
            StmtKind::Expr(_) => format!("{var} = "),
            StmtKind::Decl(ids) => {
                let f = self.cur_fn?;
                let lo = f.symbols.get(*ids.first()?).init.as_ref()?;
                self.src.get(init.span.start..lo.span.start)?.to_string()
            }
            _ => return None,
        };
        Some((prefix, self.src[step.span.range()].to_string()))
    }

    /// A canonical `for (i = lo; i < hi; i++)` header.
    pub(super) fn parse_for(&mut self, s: &'a Stmt, f: &'a Function) -> Option<Level<'a>> {
        let bad = |t: &mut Self, what: &str| {
            t.error(
                "XMP0302",
                format!("cannot work-share this loop: {what}"),
                s.span.start_span(),
                "loop of a `loop` directive",
                Some("write it as `for (i = lower; i < upper; i++)` (also `<=`, `i += step`)".into()),
            );
            None
        };
        let StmtKind::For { init, cond, step, body } = &s.kind else {
            return bad(self, "not a `for` loop");
        };
        let Some(init) = init else { return bad(self, "no initialisation") };
        let (var, lo, init_prefix) = match &init.kind {
            StmtKind::Expr(Expr { kind: ExprKind::Assign(None, v, lo), .. }) if v.ident().is_some() => {
                let var = v.ident().expect("checked").to_string();
                let lo_t = self.render(lo);
                (var.clone(), lo_t, format!("{var} = "))
            }
            StmtKind::Decl(ids) if ids.len() == 1 => {
                let sym = f.symbols.get(ids[0]);
                let Some(lo) = &sym.init else { return bad(self, "no initial value") };
                let Some(prefix) = self.src.get(init.span.start..lo.span.start).map(str::to_string) else {
                    return bad(self, "the initialisation is not `int i = lower`");
                };
                let lo_t = self.render(lo);
                (sym.name.clone(), lo_t, prefix)
            }
            _ => return bad(self, "the initialisation is not `i = lower`"),
        };
        let Some(cond) = cond else { return bad(self, "no condition") };
        use xmpc_ir::BinOp::{Ge, Gt, Le, Lt, Ne};
        // (bound, inclusive bound, counting down)
        let (bound, down) = match &cond.kind {
            ExprKind::Binary(op, a, b) if a.ident() == Some(&var) => {
                let h = self.render(b);
                match op {
                    Lt | Ne => (plus(&h, -1), false),
                    Le => (h, false),
                    Gt => (plus(&h, 1), true),
                    Ge => (h, true),
                    _ => return bad(self, "the condition must compare the loop variable with `<`, `<=`, `>` or `>=`"),
                }
            }
            ExprKind::Binary(op, a, b) if b.ident() == Some(&var) => {
                let h = self.render(a);
                match op {
                    Gt => (plus(&h, -1), false),
                    Ge => (h, false),
                    Lt => (plus(&h, 1), true),
                    Le => (h, true),
                    _ => return bad(self, "the condition must compare the loop variable with `<`, `<=`, `>` or `>=`"),
                }
            }
            _ => return bad(self, "the condition is not a comparison of the loop variable"),
        };
        let Some(step) = step else { return bad(self, "no increment") };
        let st = match (&step.kind, down) {
            (ExprKind::Unary(UnOp::PostInc | UnOp::PreInc, v), false) if v.ident() == Some(&var) => "1".to_string(),
            (ExprKind::Unary(UnOp::PostDec | UnOp::PreDec, v), true) if v.ident() == Some(&var) => "1".to_string(),
            (ExprKind::Assign(Some(xmpc_ir::BinOp::Add), v, c), false) if v.ident() == Some(&var) => c_expr(c),
            (ExprKind::Assign(Some(xmpc_ir::BinOp::Sub), v, c), true) if v.ident() == Some(&var) => c_expr(c),
            (ExprKind::Assign(None, v, rhs), false) if v.ident() == Some(&var) => match &rhs.kind {
                ExprKind::Binary(xmpc_ir::BinOp::Add, a, c) if a.ident() == Some(&var) => c_expr(c),
                ExprKind::Binary(xmpc_ir::BinOp::Add, c, a) if a.ident() == Some(&var) => c_expr(c),
                _ => return bad(self, "the increment is not `i++` or `i += step`"),
            },
            (ExprKind::Assign(None, v, rhs), true) if v.ident() == Some(&var) => match &rhs.kind {
                ExprKind::Binary(xmpc_ir::BinOp::Sub, a, c) if a.ident() == Some(&var) => c_expr(c),
                _ => return bad(self, "the decrement is not `i--` or `i -= step`"),
            },
            _ => return bad(self, "the step does not move the loop variable towards the bound (`i++`, `i += s`, `i--`, `i -= s`)"),
        };
        let step_text = self.src[step.span.range()].to_string();
        let (lo, hi) = if !down {
            (lo, bound)
        } else if st == "1" {
            (bound, lo)
        } else {
            // The lowest iteration of `lo, lo - st, ...` that is >= bound.
            let (h, b, s) = (paren(&lo), paren(&bound), paren(&st));
            (format!("{h} - ({h} - {b}) / {s} * {s}"), lo)
        };
        Some(Level { stmt: s, body, var, init_prefix, lo, hi, step: st, step_text, down, tdim: 0, off: "0".into() })
    }
}

pub(super) fn for_init(s: &Stmt) -> Option<&Stmt> {
    match &s.kind {
        StmtKind::For { init, .. } => init.as_deref(),
        _ => None,
    }
}
