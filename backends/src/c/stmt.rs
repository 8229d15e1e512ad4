//! Functions, statements, expressions and the directives inside functions.

use super::*;

/// XMP-dev: `device replicate`, `replicate_sync`, `loop`, `reset_weight`.
#[path = "device.rs"]
pub(super) mod device;
use xmpc_passes::xmp_model::loop_sched::RangeKind;
use xmpc_passes::xmp_model::loops::Form;
use xmpc_passes::xmp_model::reduction;

/// One level of a work-shared loop nest.
struct Level<'a> {
    stmt: &'a Stmt,
    body: &'a Stmt,
    var: String,
    /// Text that starts the new init (`i = ` or `int i = `).
    init_prefix: String,
    lo: String,
    /// Inclusive upper bound.
    hi: String,
    step: String,
    step_text: String,
    /// A loop counting downwards (`for (i = hi; i >= lo; i--)`): lo/hi/step are those of
    /// the same iterations counted upwards.
    down: bool,
    tdim: usize,
    off: String,
}

impl<'a> Tr<'a> {
    pub(super) fn function(&mut self, f: &'a Function) {
        self.cur_fn = Some(f);
        let top = body_open(self.src, f.name_span.end).unwrap_or(f.span.start);
        self.fctx = Some(FnCtx { used: HashMap::new(), indent: "    ".into() });
        self.scopes.push(Scope::default());
        self.declare(&f.symbols, &f.params);
        self.fn_frees.clear();
        self.stmts(&f.body);
        self.scopes.pop();
        self.free_at_close(f);
        let ctx = self.fctx.take().expect("function context");
        // Layout locals of file-scope arrays at the top of the function.
        let mut text = String::new();
        let mut used: Vec<(&usize, &BTreeSet<String>)> = ctx.used.iter().collect();
        used.sort();
        for (&a, set) in &used {
            let ar = &self.arrs[a];
            if !ar.global || ar.pointer || ar.deferred || ar.late {
                continue;
            }
            let decls: Vec<String> = set.iter().map(|v| format!("_XMP_{}_{v} = _XMP_G_{}_{v}", ar.lay, ar.lay)).collect();
            let _ = write!(text, "\n{}const long {};", ctx.indent, decls.join(", "));
        }
        if !text.is_empty() {
            self.edit(Span::new(top, top), format!("{text} /* xmpc: layout of distributed arrays */"));
        }
        for (span, prefix, a, ind) in std::mem::take(&mut self.pending_local) {
            let empty = BTreeSet::new();
            let set = ctx.used.get(&a).unwrap_or(&empty);
            let lay = format!("_XMP_{}_", self.arrs[a].lay);
            let body = self.layout_load(a, &ind, &lay, Some(set));
            self.edit(span, format!("{prefix}{}", body.trim_end()));
        }
        self.cur_fn = None;
    }

    /// Frees the function's local arrays before the closing brace of its body
    /// (not in main: its arrays live until xmpc_finalize).
    fn free_at_close(&mut self, f: &Function) {
        let frees = std::mem::take(&mut self.fn_frees);
        if frees.is_empty() || f.name == "main" {
            return;
        }
        let body = &self.src[f.span.start..f.span.end];
        let Some(close) = body.rfind('}') else { return };
        let at = f.span.start + close;
        let text: String = frees.iter().rev().map(|d| format!("    xmpc_array_free(NULL, {d});\n")).collect();
        self.edit(Span::new(at, at), text);
    }

    /// `return [e];` with local arrays to free: `{ T r = e; free...; return r; }`
    /// (the value is computed before the arrays go).
    /// Also ends the `task`s the `return` leaves.
    fn free_at_return(&mut self, s: &Stmt, e: Option<&Expr>) {
        let Some(f) = self.cur_fn else { return };
        let mut frees = "xmpc_task_end(); ".repeat(self.task_depth);
        if !self.fn_frees.is_empty() && f.name != "main" {
            frees.extend(self.fn_frees.iter().rev().map(|d| format!("xmpc_array_free(NULL, {d}); ")));
        }
        if frees.is_empty() {
            return;
        }
        let text = &self.src[s.span.start..s.span.end];
        if !text.starts_with("return") {
            return;
        }
        let end = s.span.start + text.rfind(';').map_or(text.len(), |p| p + 1);
        match e {
            None => {
                self.edit(Span::new(s.span.start, s.span.start), format!("{{ {frees}"));
                self.edit(Span::new(end, end), " }");
            }
            Some(_) => {
                // the declared return type: the text before the name, less storage classes
                let head = &self.src[f.span.start..f.name_span.start];
                let ty: Vec<&str> = head.split_whitespace().filter(|w| !matches!(*w, "static" | "inline" | "extern" | "__inline" | "__inline__")).collect();
                let ty = ty.join(" ");
                self.edit(Span::new(s.span.start, s.span.start + 6), format!("{{ {ty} _XMP_ret ="));
                self.edit(Span::new(end, end), format!(" {frees}return _XMP_ret; }}"));
            }
        }
    }

    fn stmts(&mut self, list: &'a [Stmt]) {
        // Local arrays are created at the last align/shadow directive naming them.
        let mut last: HashMap<String, usize> = HashMap::new();
        for (k, s) in list.iter().enumerate() {
            if let StmtKind::Pragma(p) = &s.kind {
                match &p.dir.kind {
                    DirectiveKind::Align { names, .. } | DirectiveKind::Shadow { names, .. } => {
                        for n in names {
                            last.insert(n.name.clone(), k);
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut created: Vec<(usize, usize)> = vec![]; // (array, creating statement)
        for (k, s) in list.iter().enumerate() {
            if let StmtKind::Pragma(p) = &s.kind {
                if matches!(p.dir.kind, DirectiveKind::Align { .. } | DirectiveKind::Shadow { .. }) {
                    self.local_layout_directive(p, k, &last, &mut created);
                    continue;
                }
            }
            self.stmt(s);
        }
    }

    /// align/shadow inside a function.
    fn local_layout_directive(&mut self, p: &'a Pragma, k: usize, last: &HashMap<String, usize>, _created: &mut Vec<(usize, usize)>) {
        let comment = self.dir_comment(p);
        let ind = self.indent_at(p.dir.span.start);
        let mut code = String::new();
        let mut pending = None;
        match &p.dir.kind {
            DirectiveKind::Align { names, .. } => {
                for n in names {
                    if n.name.contains('.') {
                        self.refuse_local_member(p, n);
                        continue;
                    }
                    if let Some(a) = self.align(p, n, false) {
                        if self.arrs[a].global && !self.align_late(a, n) {
                            continue;
                        }
                        if last.get(&n.name) == Some(&k) {
                            pending = Some(a);
                        }
                    }
                }
            }
            DirectiveKind::Shadow { names, widths } => {
                for n in names {
                    if n.name.contains('.') {
                        self.refuse_local_member(p, n);
                        continue;
                    }
                    self.shadow(n, widths);
                    if let Some(a) = self.dist(&n.name) {
                        if (!self.arrs[a].global || self.arrs[a].late) && last.get(&n.name) == Some(&k) {
                            pending = Some(a);
                        }
                    }
                }
            }
            _ => {}
        }
        // An array aligned with a template not fixed yet is created by `template_fix`.
        if let Some(a) = pending.filter(|&a| !self.arrs[a].deferred) {
            code = self.create_array(a, p, &ind);
            let ar = &self.arrs[a];
            // the body's own list (file scope + function scope); nested blocks: not freed
            let top = self.cur_fn.is_some() && self.scopes.len() == 2;
            if top && !ar.global && (ar.param || (!ar.pointer && !ar.deferred)) {
                self.fn_frees.push(ar.desc.clone());
            }
            let prefix = format!("{comment}\n{code}");
            self.pending_local.push((p.dir.span, prefix, a, ind));
        } else {
            let _ = &code;
            self.edit(p.dir.span, comment);
        }
    }

    fn stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Compound(v) => {
                self.scopes.push(Scope::default());
                self.stmts(v);
                self.scopes.pop();
            }
            StmtKind::Decl(ids) => {
                let f = self.cur_fn.expect("in a function");
                for &id in ids {
                    if let Some(init) = &f.symbols.get(id).init {
                        self.expr(init);
                    }
                }
                self.declare(&f.symbols, ids);
                self.check_local_struct(ids);
            }
            StmtKind::Expr(e) => {
                if !self.section_assign(s, e) {
                    self.expr(e)
                }
            }
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(e) = els {
                    self.stmt(e);
                }
            }
            StmtKind::For { init, cond, step, body } => {
                self.scopes.push(Scope::default());
                if let Some(i) = init {
                    self.stmt(i);
                }
                for e in [cond, step].into_iter().flatten() {
                    self.expr(e);
                }
                self.stmt(body);
                self.scopes.pop();
            }
            StmtKind::While { cond, body } => {
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.stmt(body);
            }
            StmtKind::DoWhile { body, cond } => {
                self.stmt(body);
                self.expr(cond);
            }
            StmtKind::Switch { cond, body } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
                self.free_at_return(s, e.as_ref());
            }
            StmtKind::Pragma(p) => self.pragma(p),
            StmtKind::Verbatim => self.verbatim_check(s.span),
            _ => {}
        }
    }

    /// Rewrites the distributed-array references of an expression (as edits).
    pub(super) fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Index(..) => {
                let (base, subs) = index_chain(e);
                if let Some(n) = self.base_key(base) {
                    if let Some(a) = self.dist(&n) {
                        let nd = self.arrs[a].ndims;
                        if subs.len() != nd {
                            self.error(
                                "XMP0301",
                                format!("distributed array `{n}` has {nd} dimension(s) but is subscripted with {}", subs.len()),
                                e.span,
                                "partial subscript",
                                Some("only whole elements of a distributed array can be used".into()),
                            );
                            return;
                        }
                        if !self.check_loop_subscripts(a, &subs) {
                            return;
                        }
                        let idx: Vec<String> = subs.iter().map(|s| self.render(s)).collect();
                        let text = self.access(a, &idx);
                        self.edit(e.span, text);
                        return;
                    }
                }
                if let ExprKind::Index(a, i) = &e.kind {
                    self.expr(a);
                    self.expr(i);
                }
            }
            ExprKind::Member { base, arrow: false, .. } if base.ident().is_some_and(|v| self.has_dist_members(v)) => {
                // `c.a` of a distributed member without subscripts; other members: as is.
                if let Some(a) = self.base_key(e).and_then(|k| self.dist(&k)) {
                    let n = self.arrs[a].name.clone();
                    self.error(
                        "XMP0301",
                        format!("distributed array `{n}` is used without subscripts"),
                        e.span,
                        "each node holds only its part of this array",
                        Some("use single elements (`c.a[i]`), or `gmove` to copy a section into a local array".into()),
                    );
                }
            }
            ExprKind::Ident(n) if self.has_dist_members(n) => {
                self.error(
                    "XMP0301",
                    format!("the structure `{n}` has distributed members: it cannot be used as a whole"),
                    e.span,
                    "each node holds only its part of its distributed members",
                    Some("use its members one at a time (`c.a[i]`)".into()),
                );
            }
            ExprKind::Ident(n) => {
                if let Some(a) = self.dist(n) {
                    if !self.arrs[a].pointer {
                        self.error(
                            "XMP0301",
                            format!("distributed array `{n}` is used without subscripts"),
                            e.span,
                            "each node holds only its part of this array",
                            Some("pass or use single elements (`a[i]`), or use `gmove` to copy a section into a local array".into()),
                        );
                    }
                }
            }
            ExprKind::Call(f, args) => {
                let callee = f.ident();
                if callee == Some("xmp_desc_of") && args.len() == 1 {
                    if let Some(a) = self.base_key(&args[0]).and_then(|n| self.dist(&n)) {
                        // the descriptor, with the element type the library's
                        // arithmetic routines (xmp_matmul, xmp_sort_*) need
                        let (d, s) = (&self.arrs[a].desc, &self.arrs[a].storage);
                        let t = format!("xmpc_array_typed({d}, XMPC_TYPE_OF(*{s}))");
                        self.edit(e.span, t);
                        return;
                    }
                    // A template or node set (not shadowed by a C variable).
                    if let Some(n) = args[0].ident().filter(|n| self.lookup_var(n).is_none()) {
                        let _ = n;
                        let obj = match self.m.entity_ref(&args[0]) {
                            Some(Entity::Template(t)) => Some(self.tname(t)),
                            Some(Entity::Nodes(q)) => Some(self.nname(q)),
                            _ => None,
                        };
                        if let Some(o) = obj {
                            self.edit(e.span, format!("(xmp_desc_t){o}"));
                            return;
                        }
                    }
                }
                for (k, a) in args.iter().enumerate() {
                    if let Some(c) = callee.filter(|c| self.defined_here(c)) {
                        // an argument for a parameter that may be aligned (param.rs)
                        let ai = a.ident().and_then(|n| self.dist(n));
                        self.call_args.push((a.span, ai, c.to_string(), k));
                        if let Some(ai) = ai {
                            if !self.arrs[ai].pointer {
                                // the local block (a flat element pointer: cast for `T b[N][M]`)
                                let s = &self.arrs[ai].storage;
                                let s = if self.arrs[ai].ndims > 1 { format!("(void *){s}") } else { s.clone() };
                                self.edit(a.span, s);
                            }
                            continue;
                        }
                    }
                    if let Some(n) = a.ident() {
                        if let Some(ai) = self.dist(n) {
                            if !self.arrs[ai].pointer {
                                let fname = callee.unwrap_or("a function").to_string();
                                self.error(
                                    "XMP0301",
                                    format!("distributed array `{n}` is passed to `{fname}`"),
                                    a.span,
                                    "each node holds only its part of this array",
                                    Some("pass single elements, or copy a section into a local array with `gmove` first".into()),
                                );
                                continue;
                            }
                        }
                    }
                    self.expr(a);
                }
                self.expr(f);
            }
            ExprKind::Verbatim(_) => self.verbatim_check(e.span),
            _ => {
                let mut kids: Vec<&Expr> = vec![];
                match &e.kind {
                    ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::SizeOf(a) => kids.push(a),
                    ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
                        kids.push(a);
                        kids.push(b);
                    }
                    ExprKind::Member { base, .. } => kids.push(base),
                    ExprKind::Cond(a, b, c) => {
                        kids.push(a);
                        kids.push(b);
                        kids.push(c);
                    }
                    _ => {}
                }
                for k in kids {
                    self.expr(k);
                }
            }
        }
    }

    /// The text of an expression with its distributed references rewritten.
    pub(super) fn render(&mut self, e: &Expr) -> String {
        let mark = self.edits.len();
        self.expr(e);
        let inner: Vec<Edit> = self.edits.drain(mark..).collect();
        splice(self.src, e.span, &inner)
    }

    // -------------------------------------------------------------- directives

    pub(super) fn pragma(&mut self, p: &'a Pragma) {
        let comment = self.dir_comment(p);
        let ind = self.indent_at(p.dir.span.start);
        if let Some(acc) = p.dir.kind.trailers().and_then(|t| t.acc).filter(|_| !self.acc_inner) {
            self.acc_comm(p, acc); // XcalableACC (xacc.rs)
            return;
        }
        match &p.dir.kind {
            DirectiveKind::Nodes { .. } | DirectiveKind::Template { .. } | DirectiveKind::Distribute { .. } => {
                if let Some(code) = self.decl_directive(p, false) {
                    self.edit(p.dir.span, format!("{comment}\n{}", code.trim_end()));
                }
            }
            DirectiveKind::Loop(l) => self.loop_dir(p, l),
            DirectiveKind::ReflectInit { vars, widths, .. } => self.reflect_init(p, vars, widths.as_deref()),
            DirectiveKind::ReflectDo { vars, trailers } => self.reflect_do(p, vars, trailers),
            DirectiveKind::Reflect { vars, widths, trailers } => {
                let loc = self.loc(p);
                let asy = trailers.async_id.as_ref().map_or("-1".into(), c_expr);
                let mut code = comment.clone();
                for v in vars {
                    let Some(a) = self.dist(&v.name) else {
                        self.error("XMP0109", format!("`{}` is not aligned with a template", v.name), v.span, "not a distributed array", None);
                        continue;
                    };
                    let desc = self.arrs[a].desc.clone();
                    match widths {
                        None => {
                            let _ = write!(code, "\n{ind}xmpc_reflect({loc}, {desc}, NULL, NULL, NULL, {asy});");
                        }
                        Some(ws) => {
                            let nd = self.arrs[a].ndims;
                            let (lo, hi, per) = widths_c(ws, nd);
                            let _ = write!(
                                code,
                                "\n{ind}{{\n{ind}    const long _XMP_width_lo[] = {{{lo}}}, _XMP_width_hi[] = {{{hi}}};\n{ind}    const int _XMP_periodic[] = {{{per}}};\n{ind}    xmpc_reflect({loc}, {desc}, _XMP_width_lo, _XMP_width_hi, _XMP_periodic, {asy});\n{ind}}}"
                            );
                        }
                    }
                }
                self.edit(p.dir.span, code);
            }
            DirectiveKind::WaitAsync { ids, .. } => {
                let loc = self.loc(p);
                let mut code = comment.clone();
                for id in ids {
                    let _ = write!(code, "\n{ind}xmpc_wait_async({loc}, {});", c_expr(id));
                }
                self.edit(p.dir.span, code);
            }
            DirectiveKind::Reduction { reductions, on, .. } => {
                let loc = self.loc(p);
                let (pre, nodes) = match on {
                    Some(r) => match self.on_nodes(p, r) {
                        Some(x) => x,
                        None => return,
                    },
                    None => (String::new(), "NULL".into()),
                };
                let mut body = String::new();
                for r in reductions {
                    body.push_str(&self.reduction_calls(r, &loc, &nodes, &format!("{ind}    ")));
                }
                let code = if pre.is_empty() {
                    format!("{comment}{}", dedent(&body))
                } else {
                    format!("{comment}\n{ind}{{\n{ind}    {}{body}\n{ind}}}", pre.replace("\n", &format!("\n{ind}")))
                };
                self.edit(p.dir.span, code);
            }
            DirectiveKind::Bcast { vars, from, on, .. } => {
                let loc = self.loc(p);
                let (pre, on_c) = match on {
                    Some(r) => match self.on_nodes(p, r) {
                        Some(x) => x,
                        None => return,
                    },
                    None => (String::new(), "NULL".into()),
                };
                let (from_n, from_i) = match from {
                    None => ("NULL".to_string(), "NULL".to_string()),
                    Some(r) => {
                        let Some(ni) = self.lookup_nodes(&r.name) else {
                            self.error("XMP0303", "`bcast ... from` must name a node set", r.span, "not a node set", None);
                            return;
                        };
                        let n = self.nname(ni);
                        match &r.subs {
                            None => (n, "NULL".into()),
                            Some(subs) => {
                                let shift = 1 - r.spelling.node_base() as i64;
                                let mut idx = vec![];
                                for s in subs {
                                    match &s.kind {
                                        SubKind::Expr(e) => idx.push(plus(&c_expr(e), shift)),
                                        _ => {
                                            self.error("XMP0303", "`bcast ... from` must name a single node", s.span, "a range", None);
                                            return;
                                        }
                                    }
                                }
                                (n, format!("(const long[]){{{}}}", idx.join(", ")))
                            }
                        }
                    }
                };
                let mut body = String::new();
                for v in vars {
                    if self.dist(&v.name.name).is_some() {
                        self.error(
                            "XMP0303",
                            format!("`bcast` of the distributed array `{}`", v.name.name),
                            v.span,
                            "not supported",
                            Some("use `gmove` to copy distributed data".into()),
                        );
                        continue;
                    }
                    let tail = format!("{from_n}, {from_i}, {on_c});");
                    match v.subs {
                        None => {
                            let _ = write!(body, "\n{ind}    xmpc_bcast({loc}, &{0}, sizeof({0}), {tail}", v.name.name);
                        }
                        Some(_) => {
                            if let Some(code) = self.bcast_section(v, &loc, &tail, &format!("{ind}    ")) {
                                body.push_str(&code);
                            }
                        }
                    }
                }
                let code = if pre.is_empty() {
                    format!("{comment}{}", dedent(&body))
                } else {
                    format!("{comment}\n{ind}{{\n{ind}    {}{body}\n{ind}}}", pre.replace("\n", &format!("\n{ind}")))
                };
                self.edit(p.dir.span, code);
            }
            DirectiveKind::Barrier { on, .. } => {
                let loc = self.loc(p);
                let code = match on {
                    None => format!("{comment}\n{ind}xmpc_barrier({loc}, NULL);"),
                    Some(r) => match self.on_nodes(p, r) {
                        Some((pre, n)) if pre.is_empty() => format!("{comment}\n{ind}xmpc_barrier({loc}, {n});"),
                        Some((pre, n)) => {
                            format!("{comment}\n{ind}{{\n{ind}    {}\n{ind}    xmpc_barrier({loc}, {n});\n{ind}}}", pre.replace("\n", &format!("\n{ind}")))
                        }
                        None => return,
                    },
                };
                self.edit(p.dir.span, code);
            }
            DirectiveKind::Task { on, nocomm, .. } => self.task(p, on, *nocomm),
            DirectiveKind::Tasks { .. } => {
                self.edit(p.dir.span, comment);
                if let Some(b) = &p.body {
                    self.stmt(b);
                }
            }
            DirectiveKind::TemplateFix { dists, name, shape } => {
                let loc = self.loc(p);
                let Some(ti) = self.lookup_templ(&name) else {
                    self.error("XMP0102", format!("template `{}` is not declared", name.name), name.span, "unknown template", None);
                    return;
                };
                let t = self.tname(ti);
                let mut code = comment.clone();
                if let Some(shape) = shape {
                    let (bounds, lo, hi) = shape_bounds(shape);
                    let _ = write!(code, "\n{ind}xmpc_template_fix({loc}, {t}, (const long[]){{{}}}, (const long[]){{{}}});", lo.join(", "), hi.join(", "));
                    if let Some(b) = bounds {
                        self.tfix.insert(ti, b);
                    }
                } else {
                    self.error("XMP0303", "`template_fix` without a shape is not supported", p.dir.name_span, "give the bounds", None);
                    return;
                }
                if let Some(d) = dists {
                    let Some(onto) = self.tonto(ti) else {
                        self.error("XMP0303", "`template_fix` with formats needs a `distribute` of the template first", p.dir.name_span, "here", None);
                        return;
                    };
                    let dcode = self.distribute_code(p, ti, d, &onto, &ind);
                    let _ = write!(code, "\n{}", dcode.trim_end());
                }
                // Arrays aligned with this template: create them now.
                let bounds = self.tbounds(ti).unwrap_or_default();
                for a in 0..self.arrs.len() {
                    if self.arrs[a].templ != ti || !self.arrs[a].deferred {
                        continue;
                    }
                    let ad = self.arrs[a].align_dim.clone();
                    let off = self.arrs[a].align_off.clone();
                    let mut ext = vec![];
                    for (d, &k) in ad.iter().enumerate() {
                        if k < 0 || k as usize >= bounds.len() {
                            self.error(
                                "XMP0303",
                                format!("the extent of `{}` cannot be derived from the template", self.arrs[a].name),
                                p.dir.span,
                                "here",
                                None,
                            );
                            return;
                        }
                        ext.push(format!("{} + 1", paren(&plus_str(&bounds[k as usize].1, &off[d], true))));
                    }
                    self.arrs[a].extents = ext;
                    let c = self.create_array(a, p, &ind);
                    let _ = write!(code, "\n{}", c.trim_end());
                }
                self.edit(p.dir.span, code);
            }
            DirectiveKind::StaticDesc { .. } => self.edit(p.dir.span, comment),
            DirectiveKind::Gmove { mode, trailers } => self.gmove(p, *mode, trailers.async_id.as_ref()),
            DirectiveKind::Array { on, .. } => self.array_dir(p, on),
            DirectiveKind::Acc { .. } => {
                self.acc_directive(p);
                if let Some(b) = &p.body {
                    self.stmt(b);
                }
            }
            DirectiveKind::DeviceReplicate { .. }
            | DirectiveKind::DeviceReplicateSync { .. }
            | DirectiveKind::DeviceLoop(_)
            | DirectiveKind::DeviceResetWeight(_) => self.device_dir(p),
            DirectiveKind::ReduceShadow { vars, widths, trailers } => {
                // adds (`+`) each shadow into its owner; the element type picks the addition
                let loc = self.loc(p);
                let asy = trailers.async_id.as_ref().map_or("-1".into(), c_expr);
                let mut code = comment.clone();
                for v in vars {
                    let Some(a) = self.dist(&v.name) else {
                        self.error("XMP0109", format!("`{}` is not aligned with a template", v.name), v.span, "not a distributed array", None);
                        continue;
                    };
                    let (desc, nd) = (self.arrs[a].desc.clone(), self.arrs[a].ndims);
                    self.need_typeof = true;
                    let ty = format!("_XMP_TYPE_OF(*{})", self.arrs[a].storage);
                    match widths {
                        None => {
                            let _ = write!(code, "\n{ind}xmpc_reduce_shadow({loc}, {desc}, NULL, NULL, NULL, {ty}, {asy});");
                        }
                        Some(ws) => {
                            let (lo, hi, per) = widths_c(ws, nd);
                            let _ = write!(
                                code,
                                "\n{ind}{{\n{ind}    const long _XMP_width_lo[] = {{{lo}}}, _XMP_width_hi[] = {{{hi}}};\n{ind}    const int _XMP_periodic[] = {{{per}}};\n{ind}    xmpc_reduce_shadow({loc}, {desc}, _XMP_width_lo, _XMP_width_hi, _XMP_periodic, {ty}, {asy});\n{ind}}}"
                            );
                        }
                    }
                }
                self.edit(p.dir.span, code);
            }
            _ => {
                self.error("XMP0304", format!("`{}` is not translated yet", p.dir.name()), p.dir.name_span, "not supported by the C translator", None);
            }
        }
    }

    /// `bcast (a[s:len][:])`: one xmpc_bcast per contiguous block of the section
    /// ([`xmpc_passes::xmp_model::section::walk`]), in loops over the other dimensions.
    fn bcast_section(&mut self, v: &Ref, loc: &str, tail: &str, ind: &str) -> Option<String> {
        use xmpc_passes::xmp_model::section::{walk, SecDim};
        let name = &v.name.name;
        let rank = self.array_rank(name);
        let mut subs: Vec<&xmpc_ir::directive::Sub> = v.subs.iter().flatten().collect();
        if v.spelling == xmpc_ir::directive::Spelling::Square {
            subs.reverse(); // the parser keeps subscripts in round (Fortran) order
        }
        if v.spelling != xmpc_ir::directive::Spelling::Square || subs.len() != rank {
            self.error(
                "XMP0303",
                format!("`bcast` section of `{name}`: {} subscript(s) for an array of rank {rank}", subs.len()),
                v.span,
                "one `[...]` per dimension",
                None,
            );
            return None;
        }
        // Per dim (C order): kind, first index, last index (inclusive), stride.
        let mut dims = vec![];
        let mut kinds = vec![];
        for (d, s) in subs.iter().enumerate() {
            let ext = format!("(long)(sizeof({name}{0}) / sizeof({name}{0}[0]))", "[0]".repeat(d));
            let (k, lo, hi, st) = match &s.kind {
                SubKind::Star | SubKind::Triplet { lower: None, upper: None, stride: None } => (SecDim::Full, "0".into(), format!("{ext} - 1"), "1".into()),
                SubKind::Expr(e) => (SecDim::Index, c_expr(e), c_expr(e), "1".into()),
                SubKind::Triplet { lower, upper, stride } => {
                    let st = stride.as_ref().map_or("1".to_string(), c_expr);
                    let lo = lower.as_ref().map_or("0".to_string(), c_expr);
                    // `start:length:stride` (the parser made length into start+length-1).
                    let hi = upper.as_ref().map_or(format!("{ext} - 1"), |u| {
                        let h = c_expr(u);
                        if st == "1" {
                            h
                        } else {
                            format!("{} + ({} - {}) * {}", paren(&lo), paren(&h), paren(&lo), paren(&st))
                        }
                    });
                    (SecDim::Range { unit_stride: st == "1" }, lo, hi, st)
                }
            };
            kinds.push(k);
            dims.push((lo, hi, st));
        }
        let w = walk(&kinds);
        let mut out = format!("\n{ind}{{");
        let mut idx = String::new();
        let mut depth = String::new();
        for (d, (lo, hi, st)) in dims.iter().enumerate().take(w.looped) {
            if kinds[d] == SecDim::Index {
                let _ = write!(idx, "[{lo}]");
                continue;
            }
            let _ = write!(out, "\n{ind}    {depth}for (long _XMP_s{d} = {lo}; _XMP_s{d} <= {hi}; _XMP_s{d} += {st})");
            let _ = write!(idx, "[_XMP_s{d}]");
            depth.push_str("    ");
        }
        let call = if w.run_dim {
            let (lo, hi, _) = &dims[w.looped];
            let block = format!("{name}{idx}[{lo}]");
            format!("xmpc_bcast({loc}, &{block}, (size_t)(({hi}) - ({lo}) + 1) * sizeof({block}), {tail}")
        } else {
            let block = format!("{name}{idx}");
            format!("xmpc_bcast({loc}, &{block}, sizeof({block}), {tail}")
        };
        let _ = write!(out, "\n{ind}    {depth}{call}\n{ind}}}");
        Some(out)
    }

    /// The number of array dimensions of a (non-distributed) variable.
    fn array_rank(&self, name: &str) -> usize {
        let mut cur = match self.lookup_var(name) {
            Some(Var::Plain(t)) => *t,
            _ => return 0,
        };
        let mut rank = 0;
        while let Type::Array { elem, dims } = self.unit.types.get(cur) {
            rank += dims.len();
            cur = *elem;
        }
        rank
    }

    fn reduction_calls(&mut self, r: &xmpc_ir::directive::Reduction, loc: &str, nodes: &str, ind: &str) -> String {
        let op = match r.op {
            RedOp::Sum | RedOp::Sub => "XMPC_OP_SUM",
            RedOp::Prod => "XMPC_OP_PROD",
            RedOp::BitAnd => "XMPC_OP_BAND",
            RedOp::BitOr => "XMPC_OP_BOR",
            RedOp::BitXor => "XMPC_OP_BXOR",
            RedOp::LogAnd => "XMPC_OP_LAND",
            RedOp::LogOr => "XMPC_OP_LOR",
            RedOp::Max => "XMPC_OP_MAX",
            RedOp::Min => "XMPC_OP_MIN",
            RedOp::FirstMax => "XMPC_OP_FIRSTMAX",
            RedOp::FirstMin => "XMPC_OP_FIRSTMIN",
            RedOp::LastMax => "XMPC_OP_LASTMAX",
            RedOp::LastMin => "XMPC_OP_LASTMIN",
            RedOp::Eqv | RedOp::Neqv => {
                self.error("XMP0303", format!("reduction operator `{}` is Fortran only", r.op.as_str()), r.op_span, "not a C operator", None);
                return String::new();
            }
        };
        let mut out = String::new();
        for v in &r.vars {
            if self.dist(&v.name.name).is_some() {
                self.error("XMP0303", format!("reduction of the distributed array `{}`", v.name.name), v.name.span, "not supported", None);
                continue;
            }
            let (ty, array) = self.c_type_of(&v.name.name);
            if v.locs.is_empty() && v.loc_sections.is_empty() {
                let shape = self.red_shape(&v.name.name, array);
                let Ok(count) = reduction::element_count(&shape) else {
                    self.error(
                        "XMP0303",
                        format!("reduction of the array parameter `{}` of unknown length", v.name.name),
                        v.name.span,
                        "declared without an extent",
                        Some("declare the parameter with its length (`int a[N]`)".into()),
                    );
                    continue;
                };
                let addr = if array { v.name.name.clone() } else { format!("&{}", v.name.name) };
                // Every element of a multi-dimensional array (`sizeof(a[0])` is a row).
                let elem = format!("{}{}", v.name.name, "[0]".repeat(self.array_rank(&v.name.name).max(1)));
                let count = count.unwrap_or_else(|| format!("sizeof({}) / sizeof({elem})", v.name.name));
                let _ = write!(out, "\n{ind}xmpc_reduction({loc}, {addr}, {count}, {ty}, {op}, {nodes});");
            } else {
                if !matches!(r.op, RedOp::Max | RedOp::Min | RedOp::FirstMax | RedOp::FirstMin | RedOp::LastMax | RedOp::LastMin) {
                    self.error("XMP0303", "location variables are only allowed with max/min/firstmax/firstmin/lastmax/lastmin", r.op_span, "here", None);
                    continue;
                }
                if !v.loc_sections.is_empty() {
                    if let Some(code) = self.reduction_loc_sections(v, &ty, op, loc, nodes, ind) {
                        out.push_str(&code);
                    }
                    continue;
                }
                let locs: Vec<String> = v.locs.iter().map(|l| format!("&{}", l.name)).collect();
                let tys: Vec<String> = v.locs.iter().map(|l| self.c_type_of(&l.name).0).collect();
                let n = v.locs.len();
                let _ = write!(
                    out,
                    "\n{ind}{{\n{ind}    void *const _XMP_locs[] = {{{}}};\n{ind}    const int _XMP_loc_types[] = {{{}}};\n{ind}    xmpc_reduction_loc({loc}, &{}, {ty}, {op}, {nodes}, {n}, _XMP_locs, _XMP_loc_types);\n{ind}}}",
                    locs.join(", "),
                    tys.join(", "),
                    v.name.name
                );
            }
        }
        out
    }

    /// `reduction(max:m/i,k[1][:]/)`: the scalar locations and this node's number go
    /// through `xmpc_reduction_loc` (ties: the smallest scalar locations, then the
    /// first node); each section is then broadcast from the winning node.
    fn reduction_loc_sections(&mut self, v: &xmpc_ir::directive::RedVar, ty: &str, op: &str, loc: &str, nodes: &str, ind: &str) -> Option<String> {
        if nodes != "NULL" {
            let span = v.loc_sections[0].span;
            self.error("XMP0303", "array sections as location variables of a reduction over other than the executing nodes", span, "not supported", None);
            return None;
        }
        let mut locs: Vec<String> = v.locs.iter().map(|l| format!("&{}", l.name)).collect();
        let mut tys: Vec<String> = v.locs.iter().map(|l| self.c_type_of(&l.name).0).collect();
        locs.push("&_XMP_who".into());
        tys.push("XMPC_TYPE_LONG".into());
        let n = locs.len();
        let mut out = format!(
            "\n{ind}{{\n{ind}    long _XMP_who = xmpc_node_num() + 1;\n{ind}    void *const _XMP_locs[] = {{{}}};\n{ind}    const int _XMP_loc_types[] = {{{}}};\n{ind}    xmpc_reduction_loc({loc}, &{}, {ty}, {op}, NULL, {n}, _XMP_locs, _XMP_loc_types);",
            locs.join(", "),
            tys.join(", "),
            v.name.name
        );
        for r in &v.loc_sections {
            out.push_str(&self.bcast_section(r, loc, "NULL, &_XMP_who, NULL);", &format!("{ind}    "))?);
        }
        let _ = write!(out, "\n{ind}}}");
        Some(out)
    }

    /// Before a `loop ... reduction` nest: Omni's restart of the variable on every
    /// executing node but the first (`xmp_model::reduction::loop_restart`).
    /// `nodes`: the node set the reduction runs over; its first node keeps the value
    /// (Omni: rank 0 of the executing nodes, the same set in Omni's tests); nodes
    /// outside it neither restart nor take part.
    fn reduction_restart(&mut self, r: &xmpc_ir::directive::Reduction, nodes: &str, ind: &str) -> String {
        let Some(restart) = reduction::loop_restart(r.op) else { return String::new() };
        let mut out = String::new();
        for v in &r.vars {
            let name = &v.name.name;
            if !v.locs.is_empty() || self.dist(name).is_some() {
                continue; // refused by reduction_calls
            }
            let (_, array) = self.c_type_of(name);
            if !array {
                let _ =
                    write!(out, "\n{ind}if (xmpc_nodes_rank({nodes}) > 0) {name} = {}; /* Omni: restart on all but the first node */", restart.c_value(name));
                continue;
            }
            let Ok(count) = reduction::element_count(&self.red_shape(name, true)) else { continue };
            let elem = format!("{name}{}", "[0]".repeat(self.array_rank(name).max(1)));
            let count = count.unwrap_or_else(|| format!("sizeof({name}) / sizeof({elem})"));
            let _ = write!(
                out,
                "\n{ind}if (xmpc_nodes_rank({nodes}) > 0) {{ /* Omni: restart on all but the first node */\n{ind}    __typeof__({elem}) *const _XMP_rp = (__typeof__({elem}) *){name};\n{ind}    for (long _XMP_r = 0; _XMP_r < (long)({count}); _XMP_r++) _XMP_rp[_XMP_r] = {};\n{ind}}}",
                restart.c_value("_XMP_rp[_XMP_r]")
            );
        }
        out
    }

    /// How a reduction variable is declared: a parameter declared as an array is a
    /// pointer in C, so its count comes from the declared extents, not `sizeof`.
    fn red_shape(&self, name: &str, array: bool) -> reduction::RedShape {
        if !array {
            return reduction::RedShape::Scalar;
        }
        let param = self.cur_fn.and_then(|f| f.params.iter().map(|&id| f.symbols.get(id)).find(|s| s.name == name));
        let Some(sym) = param.filter(|_| matches!(self.lookup_var(name), Some(Var::Plain(_)))) else {
            return reduction::RedShape::Array;
        };
        let mut dims = vec![];
        let mut cur = sym.ty;
        while let Type::Array { elem, dims: ds } = self.unit.types.get(cur) {
            dims.extend(ds.iter().map(|d| d.upper.as_ref().filter(|_| !d.deferred).map(c_expr)));
            cur = *elem;
        }
        reduction::RedShape::ArrayParam(dims)
    }

    /// The XMPC_TYPE_* of a variable (or of its elements), and whether it is an array.
    fn c_type_of(&mut self, name: &str) -> (String, bool) {
        let ty = match self.lookup_var(name) {
            Some(Var::Plain(t)) => Some(*t),
            _ => None,
        };
        let mut array = false;
        let mut cur = ty;
        for _ in 0..16 {
            let Some(t) = cur else { break };
            match self.unit.types.get(t) {
                Type::Array { elem, .. } => {
                    array = true;
                    cur = Some(*elem);
                }
                Type::Basic(b) => {
                    if let Some(c) = basic_type(b) {
                        return (c.into(), array);
                    }
                    match self.lookup_var(b) {
                        Some(Var::Typedef(t2)) => cur = Some(*t2),
                        _ => break,
                    }
                }
                _ => break,
            }
        }
        self.need_typeof = true;
        (if array { format!("_XMP_TYPE_OF({name}[0])") } else { format!("_XMP_TYPE_OF({name})") }, array)
    }

    // -------------------------------------------------------------- loop

    fn loop_dir(&mut self, p: &'a Pragma, l: &LoopDir) {
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
        // `margin`: the points of the owned box xor the widened one (tested in the
        // innermost header).
        let mut margin_in_owned: Vec<String> = vec![];
        let mut margin_in_wide: Vec<String> = vec![];
        let n_levels = levels.len();
        for (li, lv) in levels.iter().enumerate() {
            let v = &lv.var;
            let keeps_bounds = nest.levels[li].keeps_bounds;
            let (lo_t, hi_t) =
                if lv.off == "0" { (lv.lo.clone(), lv.hi.clone()) } else { (plus_str(&lv.lo, &lv.off, false), plus_str(&lv.hi, &lv.off, false)) };
            let kind = match nest.levels[li].form {
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
                return;
            }
            if kind == 2 {
                // cyclic(w) (or a format decided at run time): up to step + 1 chunk sets.
                let _ = write!(
                    head,
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
                continue;
            }
            let _ = write!(
                head,
                "\n{ind}    xmpc_sched _XMP_sched_{v};\n{ind}    xmpc_loop_sched({loc}, {t}, {}, {lo_t}, {hi_t}, {}, &_XMP_sched_{v});",
                lv.tdim, lv.step
            );
            let first = shift(&format!("_XMP_sched_{v}.first"));
            let last = shift(&format!("_XMP_sched_{v}.last"));
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
                    head,
                    "\n{ind}    const long _XMP_olo_{v} = {first}, _XMP_ohi_{v} = {last};\n{ind}    const long _XMP_elo_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} ? {elo} : _XMP_olo_{v};\n{ind}    const long _XMP_ehi_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} ? {ehi} : _XMP_ohi_{v};"
                );
                if plan.kind == RangeKind::Margin {
                    let _ = write!(
                        head,
                        "\n{ind}    const long _XMP_lo_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} && _XMP_elo_{v} < _XMP_olo_{v} ? _XMP_elo_{v} : _XMP_olo_{v};\n{ind}    const long _XMP_hi_{v} = _XMP_olo_{v} <= _XMP_ohi_{v} && _XMP_ehi_{v} > _XMP_ohi_{v} ? _XMP_ehi_{v} : _XMP_ohi_{v};"
                    );
                    margin_in_owned.push(format!("_XMP_olo_{v} <= {v} && {v} <= _XMP_ohi_{v}"));
                    margin_in_wide.push(format!("_XMP_elo_{v} <= {v} && {v} <= _XMP_ehi_{v}"));
                } else {
                    let _ = write!(head, "\n{ind}    const long _XMP_lo_{v} = _XMP_elo_{v}, _XMP_hi_{v} = _XMP_ehi_{v}; /* expand */");
                }
            } else if keeps_bounds {
                let _ = write!(head, "\n{ind}    const long _XMP_lo_{v} = {}, _XMP_hi_{v} = {}; /* a `*` dimension: its own bounds */", lv.lo, lv.hi);
            } else {
                let _ = write!(head, "\n{ind}    const long _XMP_lo_{v} = {first}, _XMP_hi_{v} = {last};");
            }
            if kind >= 1 {
                let _ = write!(head, "\n{ind}    const long _XMP_st_{v} = _XMP_sched_{v}.stride;");
            }
            if kind == 2 {
                let _ = write!(head, "\n{ind}    const long _XMP_w_{v} = _XMP_sched_{v}.width;");
            }
            let header = if lv.down {
                let s_ = if kind == 0 { lv.step.clone() } else { format!("_XMP_st_{v}") };
                let _ = write!(
                    head,
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
            let header = if li + 1 == n_levels && !margin_in_owned.is_empty() {
                format!("{header}\n{ind}    if (({}) != ({})) /* margin */", margin_in_owned.join(" && "), margin_in_wide.join(" && "))
            } else {
                header
            };
            let hend = self.src[..lv.body.span.start].rfind(')').map_or(lv.body.span.start, |p| p + 1).max(lv.stmt.span.start);
            self.edit(Span::new(lv.stmt.span.start, hend), header);
        }
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
        self.stmt(body);
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

    /// The C texts a rewritten `for` header keeps: the start of its initialisation
    /// (`i = ` or `int i = `) and its step as written.
    fn for_texts(&mut self, s: &Stmt, var: &str) -> Option<(String, String)> {
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
    fn parse_for(&mut self, s: &'a Stmt, f: &'a Function) -> Option<Level<'a>> {
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

    // -------------------------------------------------------------- task

    fn task(&mut self, p: &'a Pragma, on: &Ref, nocomm: bool) {
        let comment = self.dir_comment(p);
        let Some(body) = p.body.as_deref() else {
            self.error("XMP0303", "`task` is not followed by a statement", p.dir.name_span, "here", None);
            return;
        };
        let loc = self.loc(p);
        let ind = self.indent_at(p.dir.span.start);
        let nc = nocomm as i32;
        let mut head = format!("{comment}\n{ind}{{");
        let cond;
        if let Some(ni) = self.lookup_nodes(&on.name) {
            let n = self.nname(ni);
            let nd = self.m.node(ni).rank();
            let (lo, hi, st) = match &on.subs {
                Some(_) => match self.triplets(on, ni) {
                    Some(x) => x,
                    None => return,
                },
                None => (
                    (0..nd).map(|_| "1".to_string()).collect(),
                    (0..nd).map(|d| format!("xmpc_nodes_dim_size({n}, {d})")).collect(),
                    (0..nd).map(|_| "0".to_string()).collect(),
                ),
            };
            let _ =
                write!(head, "\n{ind}    const long _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};", lo.join(", "), hi.join(", "), st.join(", "));
            cond = format!("xmpc_task_begin({loc}, {n}, _XMP_lo, _XMP_hi, _XMP_st, {nc})");
        } else if let Some(ti) = self.lookup_templ(&on.name) {
            let t = self.tname(ti);
            let mut idx = vec![];
            for s in on.subs.iter().flatten() {
                match &s.kind {
                    SubKind::Expr(e) => idx.push(c_expr(e)),
                    SubKind::Star => {
                        self.need_limits = true;
                        idx.push("LONG_MIN".into())
                    }
                    SubKind::Triplet { .. } => {
                        self.error("XMP0303", "`task on` a template range is not supported", s.span, "use a single index", None);
                        return;
                    }
                }
            }
            if idx.is_empty() {
                self.error("XMP0303", "`task on` a whole template is not supported", on.span, "here", None);
                return;
            }
            let _ = write!(head, "\n{ind}    const long _XMP_idx[] = {{{}}};", idx.join(", "));
            cond = format!("xmpc_task_begin_template({loc}, {t}, _XMP_idx, {nc})");
        } else {
            self.error("XMP0101", format!("node set or template `{}` is not declared", on.name.name), on.name.span, "unknown", None);
            return;
        }
        let _ = write!(head, "\n{ind}    if ({cond}) {{");
        // goto would skip xmpc_task_end (a `return` ends the tasks it leaves).
        body.walk(&mut |s| {
            if matches!(s.kind, StmtKind::Goto(_)) {
                self.diags.push(
                    err("XMP0307", "`goto` out of a `task` body", self.file, s.span, "leaves the task without ending it")
                        .with_notes(vec!["help: set a flag and leave the task body normally".into()]),
                );
            }
        });
        self.edit(p.dir.span, head);
        self.task_depth += 1;
        self.stmt(body);
        self.task_depth -= 1;
        self.edit(Span::new(body.span.end, body.span.end), format!("\n{ind}        xmpc_task_end();\n{ind}    }}\n{ind}}}"));
    }

    // -------------------------------------------------------------- gmove / array

    fn section_side(&mut self, e: &Expr, tag: &str, ind: &str, out: &mut String) -> Option<String> {
        let (base, subs) = index_chain(e);
        let Some(key) = self.base_key(base) else {
            self.error("XMP0306", "a `gmove` side must be an array section or a variable", e.span, "here", None);
            return None;
        };
        let name = key.as_str();
        let var = format!("_XMP_{tag}");
        if let Some(a) = self.dist(name) {
            let ar = self.arrs[a].clone();
            if subs.len() != ar.ndims {
                self.error("XMP0306", format!("`{name}` has {} dimension(s)", ar.ndims), e.span, "subscript count", None);
                return None;
            }
            let (lo, hi, st) = self.section_bounds(&subs, &ar.extents);
            let _ = write!(
                out,
                "\n{ind}    const long {var}_lo[] = {{{}}}, {var}_hi[] = {{{}}}, {var}_st[] = {{{}}};\n{ind}    const xmpc_section {var} = {{{}, NULL, {}, sizeof(*{}), NULL, {var}_lo, {var}_hi, {var}_st}};",
                lo.join(", "),
                hi.join(", "),
                st.join(", "),
                ar.desc,
                ar.ndims,
                ar.storage
            );
            return Some(var);
        }
        // A local array or scalar.
        let ty = match self.lookup_var(name) {
            Some(Var::Plain(t)) => Some(*t),
            _ => None,
        };
        let dims: Vec<String> = match ty.map(|t| self.unit.types.get(t)) {
            Some(Type::Array { dims, .. }) => dims.iter().map(|d| d.upper.as_ref().map_or("0".into(), c_expr)).collect(),
            _ => vec![],
        };
        if dims.is_empty() {
            // A pointer (`int *p = malloc(...)`, Omni's gmove/141_gmove): the section
            // gives the extent, `p[start:length]` or `p[k]`.
            let pointee = match ty.map(|t| self.unit.types.get(t)) {
                Some(Type::Pointer(el)) => Some(*el),
                _ => None,
            };
            let open_end = matches!(subs.first().map(|x| &x.kind), Some(ExprKind::Triplet(_, None, _)));
            if let (Some(el), [_], false) = (pointee, subs.as_slice(), open_end) {
                if !matches!(self.unit.types.get(el), Type::Array { .. } | Type::Function { .. }) {
                    let (lo, hi, st) = self.section_bounds(&subs, &[]);
                    let _ = write!(
                        out,
                        "\n{ind}    const long {var}_ext[] = {{({}) + 1}}, {var}_lo[] = {{{}}}, {var}_hi[] = {{{}}}, {var}_st[] = {{{}}};\n{ind}    const xmpc_section {var} = {{NULL, {name}, 1, sizeof({name}[0]), {var}_ext, {var}_lo, {var}_hi, {var}_st}};",
                        hi[0], lo[0], hi[0], st[0]
                    );
                    return Some(var);
                }
            }
            if !subs.is_empty() {
                let help = pointee.map(|_| "a pointer side needs one subscript with its length: `p[start:length]`".to_string());
                self.error("XMP0306", format!("`{name}` is not an array xmpc knows the shape of"), e.span, "here", help);
                return None;
            }
            let _ = write!(
                out,
                "\n{ind}    const long {var}_ext[] = {{1}}, {var}_lo[] = {{0}}, {var}_hi[] = {{0}}, {var}_st[] = {{1}};\n{ind}    const xmpc_section {var} = {{NULL, &{name}, 1, sizeof({name}), {var}_ext, {var}_lo, {var}_hi, {var}_st}};"
            );
            return Some(var);
        }
        if subs.len() != dims.len() {
            self.error("XMP0306", format!("`{name}` has {} dimension(s)", dims.len()), e.span, "subscript count", None);
            return None;
        }
        let (lo, hi, st) = self.section_bounds(&subs, &dims);
        let _ = write!(
            out,
            "\n{ind}    const long {var}_ext[] = {{{}}}, {var}_lo[] = {{{}}}, {var}_hi[] = {{{}}}, {var}_st[] = {{{}}};\n{ind}    const xmpc_section {var} = {{NULL, {name}, {}, sizeof({name}[0]{}), {var}_ext, {var}_lo, {var}_hi, {var}_st}};",
            dims.join(", "),
            lo.join(", "),
            hi.join(", "),
            st.join(", "),
            dims.len(),
            "[0]".repeat(dims.len() - 1)
        );
        Some(var)
    }

    fn section_bounds(&mut self, subs: &[&Expr], ext: &[String]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for (d, s) in subs.iter().enumerate() {
            match &s.kind {
                ExprKind::Triplet(l, u, stv) => {
                    let l = l.as_ref().map_or("0".into(), |e| c_expr(e));
                    let step = stv.as_ref().map_or("1".into(), |e| c_expr(e));
                    // The front end normalises `start:len[:st]` to `start : start+len-1`;
                    // with a stride the last element is start + (len-1)*st.
                    let h = match u {
                        Some(e) if step != "1" => format!("{} + ({} - {}) * {}", paren(&l), paren(&c_expr(e)), paren(&l), paren(&step)),
                        Some(e) => c_expr(e),
                        None => plus(ext.get(d).map_or("0", |s| s.as_str()), -1),
                    };
                    lo.push(l);
                    hi.push(h);
                    st.push(step);
                }
                _ => {
                    let v = c_expr(s);
                    lo.push(v.clone());
                    hi.push(v);
                    st.push("1".into());
                }
            }
        }
        (lo, hi, st)
    }

    fn gmove(&mut self, p: &'a Pragma, mode: Option<GmoveMode>, async_id: Option<&Expr>) {
        let comment = self.dir_comment(p);
        let Some(body) = p.body.as_deref() else {
            self.error("XMP0306", "`gmove` is not followed by an assignment", p.dir.name_span, "here", None);
            return;
        };
        let StmtKind::Expr(Expr { kind: ExprKind::Assign(None, lhs, rhs), .. }) = &body.kind else {
            self.error("XMP0306", "`gmove` must be followed by an assignment between array sections", body.span, "not understood", None);
            return;
        };
        let loc = self.loc(p);
        let ind = self.indent_at(body.span.start);
        let mut code = format!("{comment}\n{ind}{{");
        let Some(dst) = self.section_side(lhs, "dst", &ind, &mut code) else { return };
        let Some(src) = self.section_side(rhs, "src", &ind, &mut code) else { return };
        let m = match mode {
            None => "XMPC_GMOVE_NORMAL",
            Some(GmoveMode::In) => "XMPC_GMOVE_IN",
            Some(GmoveMode::Out) => "XMPC_GMOVE_OUT",
        };
        let asy = async_id.map_or("-1".into(), c_expr);
        let _ = write!(code, "\n{ind}    xmpc_gmove({loc}, &{dst}, &{src}, {m}, {asy});\n{ind}}}");
        self.edit(p.dir.span, code);
        self.edit(body.span, format!("/* {} */", comment_safe(&one_line(&self.src[body.span.range()], false))));
    }

    /// `array on t(...)` + `a[lo:len] = expr-of-sections;`: a loop over the local part.
    fn array_dir(&mut self, p: &'a Pragma, on: &Ref) {
        let comment = self.dir_comment(p);
        let Some(body) = p.body.as_deref() else {
            self.error("XMP0306", "`array` is not followed by an assignment", p.dir.name_span, "here", None);
            return;
        };
        let StmtKind::Expr(stmt_e @ Expr { kind: ExprKind::Assign(_, lhs, _), .. }) = &body.kind else {
            self.error("XMP0306", "`array` must be followed by an array assignment", body.span, "not understood", None);
            return;
        };
        let (base, subs) = index_chain(lhs);
        let Some(a) = self.base_key(base).and_then(|n| self.dist(&n)) else {
            self.error("XMP0306", "the left side of an `array` assignment must be a distributed array", lhs.span, "here", None);
            return;
        };
        let ar = self.arrs[a].clone();
        let Some(ti) = self.lookup_templ(&on.name) else {
            self.error("XMP0102", format!("template `{}` is not declared", on.name.name), on.name.span, "unknown template", None);
            return;
        };
        if ti != ar.templ || subs.len() != ar.ndims {
            self.error("XMP0306", "`array on t` must name the template the left-hand array is aligned with", on.span, "here", None);
            return;
        }
        let loc = self.loc(p);
        let t = self.tname(ti);
        let ind = self.indent_at(body.span.start);
        let mut head = format!("{comment}\n{ind}{{");
        // One loop per sectioned dim of the left side.
        let mut vars: Vec<(usize, String, String)> = vec![]; // (dim, var, lower)
        let (lo, hi, st) = self.section_bounds(&subs, &ar.extents);
        let mut loops = String::new();
        let mut depth = 1;
        for (d, s) in subs.iter().enumerate() {
            if !matches!(s.kind, ExprKind::Triplet(..)) {
                continue;
            }
            let v = format!("_XMP_i{d}");
            let pad = "    ".repeat(depth);
            if ar.align_dim[d] >= 0 && ar.fmts[d] == Fmt::Linear {
                let tdim = ar.align_dim[d];
                let off = &ar.align_off[d];
                let _ = write!(
                    head,
                    "\n{ind}    xmpc_sched _XMP_sched{d};\n{ind}    xmpc_loop_sched({loc}, {t}, {tdim}, {}, {}, {}, &_XMP_sched{d});",
                    plus_str(&lo[d], off, false),
                    plus_str(&hi[d], off, false),
                    st[d]
                );
                let _ = write!(
                    loops,
                    "\n{ind}{pad}for (long {v} = {}; {v} <= {}; {v} += {})",
                    plus_str(&format!("_XMP_sched{d}.first"), off, true),
                    plus_str(&format!("_XMP_sched{d}.last"), off, true),
                    st[d]
                );
            } else if ar.align_dim[d] < 0 {
                let _ = write!(loops, "\n{ind}{pad}for (long {v} = {}; {v} <= {}; {v} += {})", lo[d], hi[d], st[d]);
            } else {
                // cyclic / cyclic(w): chunk sets, chunks, then the elements of a chunk.
                let tdim = ar.align_dim[d];
                let off = &ar.align_off[d];
                let _ = write!(
                    head,
                    "\n{ind}    xmpc_sched _XMP_scheds{d}[8];\n{ind}    const int _XMP_nsched{d} = xmpc_loop_sched_multi({loc}, {t}, {tdim}, {}, {}, {}, _XMP_scheds{d}, 8);\n{ind}    if (_XMP_nsched{d} > 8)\n{ind}        xmpc_fatal({loc}, \"array: step too large for a cyclic(w) distribution\");",
                    plus_str(&lo[d], off, false),
                    plus_str(&hi[d], off, false),
                    st[d]
                );
                let sd = format!("_XMP_scheds{d}[_XMP_k{d}]");
                let _ = write!(
                    loops,
                    "\n{ind}{pad}for (int _XMP_k{d} = 0; _XMP_k{d} < _XMP_nsched{d}; _XMP_k{d}++)\n{ind}{pad}for (long _XMP_c{d} = {sd}.first; _XMP_c{d} <= {sd}.last; _XMP_c{d} += {sd}.stride)\n{ind}{pad}for (long {v} = {}; {v} <= {}; {v} += {})",
                    plus_str(&format!("_XMP_c{d}"), off, true),
                    plus_str(&format!("(_XMP_c{d} + {sd}.width - 1 < {sd}.last ? _XMP_c{d} + {sd}.width - 1 : {sd}.last)"), off, true),
                    st[d]
                );
            }
            vars.push((d, v, lo[d].clone()));
            depth += 1;
        }
        // The statement with each section replaced by the element of this iteration.
        let text = self.elementwise(stmt_e, &vars);
        let Some(text) = text else { return };
        let pad = "    ".repeat(depth);
        let _ = write!(head, "{loops}\n{ind}{pad}{text};\n{ind}}}");
        self.edit(p.dir.span, head);
        self.edit(body.span, format!("/* {} */", comment_safe(&one_line(&self.src[body.span.range()], false))));
    }

    /// A C array-section assignment outside any directive (`y[i][:] = 0;`, XMP C's
    /// array assignment on a local array): a loop nest over the left side's sections
    /// with each section of the statement replaced by its element. False when `e` is
    /// not such an assignment.
    fn section_assign(&mut self, s: &Stmt, e: &Expr) -> bool {
        let mut has_triplet = false;
        walk_expr(e, &mut |x| has_triplet |= matches!(x.kind, ExprKind::Triplet(..)));
        if !has_triplet {
            return false;
        }
        let refuse = |t: &mut Self| {
            t.error(
                "XMP0306",
                "array sections outside an `array` or `gmove` statement are only supported as `x[l:n]... = expr-of-sections;`",
                e.span,
                "array section here",
                None,
            );
            true
        };
        let ExprKind::Assign(_, lhs, _) = &e.kind else { return refuse(self) };
        let (base, subs) = index_chain(lhs);
        if !subs.iter().any(|x| matches!(x.kind, ExprKind::Triplet(..))) {
            return refuse(self);
        }
        let Some(key) = self.base_key(base) else { return refuse(self) };
        let name = key.as_str();
        if self.dist(name).is_some() {
            self.error(
                "XMP0306",
                format!("an assignment to a section of the distributed array `{name}` needs an `array` directive"),
                lhs.span,
                "section of a distributed array",
                Some("write `#pragma xmp array on t[...]` before it".into()),
            );
            return true;
        }
        let dims: Vec<String> = match self.lookup_var(name) {
            Some(Var::Plain(t)) => match self.unit.types.get(*t) {
                Type::Array { dims, .. } => dims.iter().map(|d| d.upper.as_ref().map_or("0".into(), c_expr)).collect(),
                _ => vec![],
            },
            _ => vec![],
        };
        if dims.len() != subs.len() {
            self.error("XMP0306", format!("`{name}` is not an array xmpc knows the shape of"), lhs.span, "array section of it", None);
            return true;
        }
        let (lo, hi, st) = self.section_bounds(&subs, &dims);
        let ind = self.indent_at(s.span.start);
        let mut loops = String::from("{");
        let mut vars = vec![];
        for (d, sub) in subs.iter().enumerate() {
            if matches!(sub.kind, ExprKind::Triplet(..)) {
                let v = format!("_XMP_s{d}");
                let _ = write!(loops, "\n{ind}{}for (long {v} = {}; {v} <= {}; {v} += {})", "    ".repeat(vars.len() + 1), lo[d], hi[d], st[d]);
                vars.push((d, v, lo[d].clone()));
            }
        }
        let Some(text) = self.elementwise(e, &vars) else {
            self.error("XMP0306", "cannot translate this array-section assignment", e.span, "sections of different shapes?", None);
            return true;
        };
        let _ = write!(loops, "\n{ind}{}{text};\n{ind}}}", "    ".repeat(vars.len() + 1));
        self.edit(s.span, loops);
        true
    }

    /// Prints `e` with every section `x[l:u]` in dim k replaced by `x[l + (i_k - L_k)]`.
    fn elementwise(&mut self, e: &Expr, vars: &[(usize, String, String)]) -> Option<String> {
        match &e.kind {
            ExprKind::Index(..) => {
                let (base, subs) = index_chain(e);
                let key = self.base_key(base)?;
                let mut idx = vec![];
                let mut k = 0;
                for s in &subs {
                    match &s.kind {
                        ExprKind::Triplet(l, _, stv) => {
                            let (_, v, lo) = vars.get(k)?;
                            k += 1;
                            let l = l.as_ref().map_or("0".into(), |e| c_expr(e));
                            let rel = if *lo == "0" { v.clone() } else { format!("({v} - {})", paren(lo)) };
                            let rel = match stv {
                                Some(_) => rel, // strides are equal on both sides
                                None => rel,
                            };
                            idx.push(if l == "0" { rel } else { format!("{} + {rel}", paren(&l)) });
                        }
                        _ => idx.push(c_expr(s)),
                    }
                }
                match self.dist(&key) {
                    Some(a) => Some(self.access(a, &idx)),
                    None => Some(format!("{}{}", c_expr(base), idx.iter().map(|i| format!("[{i}]")).collect::<String>())),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.elementwise(a, vars)?, self.elementwise(b, vars)?);
                let mut tmp = Expr::new(
                    e.span,
                    ExprKind::Binary(
                        *op,
                        Box::new(Expr::new(a.span, ExprKind::Verbatim(format!("({x})")))),
                        Box::new(Expr::new(b.span, ExprKind::Verbatim(format!("({y})")))),
                    ),
                );
                tmp.span = e.span;
                Some(c_expr(&tmp))
            }
            ExprKind::Assign(op, a, b) => {
                let (x, y) = (self.elementwise(a, vars)?, self.elementwise(b, vars)?);
                Some(c_expr(&Expr::new(
                    e.span,
                    ExprKind::Assign(*op, Box::new(Expr::new(a.span, ExprKind::Verbatim(x))), Box::new(Expr::new(b.span, ExprKind::Verbatim(y)))),
                )))
            }
            ExprKind::Unary(op, a) => {
                let x = self.elementwise(a, vars)?;
                Some(c_expr(&Expr::new(e.span, ExprKind::Unary(*op, Box::new(Expr::new(a.span, ExprKind::Verbatim(format!("({x})"))))))))
            }
            ExprKind::Call(f, args) => {
                let mut v = vec![];
                for a in args {
                    v.push(self.elementwise(a, vars)?);
                }
                Some(format!("{}({})", c_expr(f), v.join(", ")))
            }
            _ => Some(c_expr(e)),
        }
    }
}

fn dedent(body: &str) -> String {
    // Calls built at `ind + 4` for a block, used without one: drop 4 spaces.
    body.replace("\n    ", "\n")
}

pub(super) fn widths_c(ws: &[Width], nd: usize) -> (String, String, String) {
    let mut lo = vec![];
    let mut hi = vec![];
    let mut per = vec![];
    for d in 0..nd {
        match ws.get(d) {
            Some(w) => {
                lo.push(c_expr(&w.lower));
                hi.push(c_expr(&w.upper));
                per.push(if w.periodic { "1" } else { "0" }.to_string());
            }
            None => {
                lo.push("0".into());
                hi.push("0".into());
                per.push("0".into());
            }
        }
    }
    (lo.join(", "), hi.join(", "), per.join(", "))
}

fn basic_type(b: &str) -> Option<&'static str> {
    Some(match b {
        "char" | "signed char" => "XMPC_TYPE_CHAR",
        "unsigned char" => "XMPC_TYPE_UCHAR",
        "short" | "short int" | "signed short" | "signed short int" => "XMPC_TYPE_SHORT",
        "unsigned short" | "unsigned short int" => "XMPC_TYPE_USHORT",
        "int" | "signed" | "signed int" => "XMPC_TYPE_INT",
        "unsigned" | "unsigned int" => "XMPC_TYPE_UINT",
        "long" | "long int" | "signed long" | "signed long int" => "XMPC_TYPE_LONG",
        "unsigned long" | "unsigned long int" => "XMPC_TYPE_ULONG",
        "long long" | "long long int" | "signed long long" => "XMPC_TYPE_LONGLONG",
        "unsigned long long" | "unsigned long long int" => "XMPC_TYPE_ULONGLONG",
        "float" => "XMPC_TYPE_FLOAT",
        "double" => "XMPC_TYPE_DOUBLE",
        "long double" => "XMPC_TYPE_LONGDOUBLE",
        "_Bool" | "bool" => "XMPC_TYPE_BOOL",
        "float _Complex" | "_Complex float" | "float complex" => "XMPC_TYPE_FLOAT_COMPLEX",
        "double _Complex" | "_Complex double" | "double complex" => "XMPC_TYPE_DOUBLE_COMPLEX",
        _ => return None,
    })
}

/// `a[i][j]` → (`a`, [i, j]).
fn index_chain(e: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut subs = vec![];
    let mut cur = e;
    while let ExprKind::Index(a, i) = &cur.kind {
        subs.push(&**i);
        cur = a;
    }
    subs.reverse();
    (cur, subs)
}

fn for_init(s: &Stmt) -> Option<&Stmt> {
    match &s.kind {
        StmtKind::For { init, .. } => init.as_deref(),
        _ => None,
    }
}

/// Whether `text` contains `word` as a whole C identifier.
fn mentions_word(text: &str, word: &str) -> bool {
    let id = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| !text[..i].chars().next_back().is_some_and(id) && !text[i + word.len()..].chars().next().is_some_and(id))
}

/// The loop directly nested in a loop body (`for` or `{ for }`), OpenACC directives
/// (`#pragma acc loop`) between them skipped.
fn inner_for(s: &Stmt) -> Option<&Stmt> {
    match &s.kind {
        StmtKind::For { .. } => Some(s),
        StmtKind::Pragma(q) if matches!(q.dir.kind, DirectiveKind::Acc { .. }) => q.body.as_deref().and_then(inner_for),
        StmtKind::Compound(v) => {
            let real: Vec<&Stmt> = v.iter().filter(|x| !matches!(x.kind, StmtKind::Verbatim)).collect();
            match real.as_slice() {
                [one] => inner_for(one),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Offset just after the `{` that opens a function body (parameters skipped).
fn body_open(src: &str, from: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut i = from;
    let mut depth = 0i32;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'{' if depth == 0 => return Some(i + 1),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = src[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 1);
            }
            _ => {}
        }
        i += 1;
    }
    None
}
