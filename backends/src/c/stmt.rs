//! Functions, statements, expressions and the directives inside functions.

use super::*;

/// XMP-dev: `device replicate`, `replicate_sync`, `loop`, `reset_weight`.
#[path = "device.rs"]
pub(super) mod device;
use super::gmove::index_chain;

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

    /// A loop's or switch's body, with the scope depth its `break`/`continue` leave to.
    pub(super) fn jump_body(&mut self, body: &'a Stmt, switch: bool) {
        self.jumps.push((self.scopes.len(), switch));
        self.stmt(body);
        self.jumps.pop();
    }

    /// Frees a nested block's local arrays before its closing brace.
    fn free_at_block_end(&mut self, s: &Stmt, frees: &[String]) {
        if frees.is_empty() {
            return;
        }
        let Some(close) = self.src[s.span.start..s.span.end].rfind('}') else { return };
        let at = s.span.start + close;
        let ind = self.indent_at(s.span.start);
        let text: String = frees.iter().rev().map(|d| format!("    xmpc_array_free(NULL, {d});\n{ind}")).collect();
        self.edit(Span::new(at, at), text);
    }

    /// `break;` / `continue;` leaving blocks with local arrays: `{ free...; break; }`.
    fn free_at_jump(&mut self, s: &Stmt) {
        let brk = matches!(s.kind, StmtKind::Break);
        let Some(&(depth, _)) = self.jumps.iter().rev().find(|(_, sw)| brk || !sw) else { return };
        let frees: String =
            self.scopes.iter().skip(depth).rev().flat_map(|sc| sc.frees.iter().rev()).map(|d| format!("xmpc_array_free(NULL, {d}); ")).collect();
        if frees.is_empty() {
            return;
        }
        self.edit(Span::new(s.span.start, s.span.start), format!("{{ {frees}"));
        self.edit(Span::new(s.span.end, s.span.end), " }");
    }

    /// `return [e];` with local arrays to free: `{ T r = e; free...; return r; }`
    /// (the value is computed before the arrays go).
    /// Also ends the `task`s the `return` leaves.
    fn free_at_return(&mut self, s: &Stmt, e: Option<&Expr>) {
        let Some(f) = self.cur_fn else { return };
        let mut frees = "xmpc_task_end(); ".repeat(self.task_depth);
        // not in main: its arrays live until xmpc_finalize
        if f.name != "main" {
            let nested = self.scopes.iter().skip(2).rev().flat_map(|sc| sc.frees.iter().rev());
            frees.extend(nested.chain(self.fn_frees.iter().rev()).map(|d| format!("xmpc_array_free(NULL, {d}); ")));
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
            // the body's own list (file scope + function scope): freed at its end and
            // returns; a nested block's: at its closing brace and the jumps leaving it
            let top = self.cur_fn.is_some() && self.scopes.len() == 2;
            if !ar.global && (ar.param || (!ar.pointer && !ar.deferred)) {
                let desc = ar.desc.clone();
                if top {
                    self.fn_frees.push(desc);
                } else if self.cur_fn.is_some() && self.scopes.len() > 2 {
                    self.scopes.last_mut().expect("a block").frees.push(desc);
                }
            }
            let prefix = format!("{comment}\n{code}");
            self.pending_local.push((p.dir.span, prefix, a, ind));
        } else {
            let _ = &code;
            self.edit(p.dir.span, comment);
        }
    }

    pub(super) fn stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Compound(v) => {
                self.scopes.push(Scope::default());
                self.stmts(v);
                let sc = self.scopes.pop().expect("the block's scope");
                self.free_at_block_end(s, &sc.frees);
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
            StmtKind::Expr(e) if !self.section_assign(s, e) => self.expr(e),
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
                self.jump_body(body, false);
                self.scopes.pop();
            }
            StmtKind::While { cond, body } => {
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.jump_body(body, false);
            }
            StmtKind::DoWhile { body, cond } => {
                self.jump_body(body, false);
                self.expr(cond);
            }
            StmtKind::Switch { cond, body } => {
                self.expr(cond);
                self.jump_body(body, true);
            }
            StmtKind::Break | StmtKind::Continue => self.free_at_jump(s),
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

    /// A distributed array's name without subscripts: inside `host_data
    /// use_device(a)` the device address of the node's block (Omni: `acc_a = a;`);
    /// elsewhere refused unless it is a pointer array (the pointer itself).
    fn bare_array(&mut self, e: &Expr, n: &str) {
        let Some(a) = self.dist(n) else { return };
        if self.arrs[a].pointer {
            return;
        }
        if self.use_device.iter().any(|v| v == n) {
            let st = self.arrs[a].storage.clone();
            self.edit(e.span, format!("(void *){st}"));
        } else {
            self.error(
                "XMP0301",
                format!("distributed array `{n}` is used without subscripts"),
                e.span,
                "each node holds only its part of this array",
                Some("pass or use single elements (`a[i]`), or use `gmove` to copy a section into a local array".into()),
            );
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
                        let mut idx: Vec<String> = subs.iter().map(|s| self.render(s)).collect();
                        if self.check {
                            idx = self.checked_indices(a, e.span, idx);
                        }
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
            ExprKind::Ident(n) => self.bare_array(e, n),
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
            // checking mode: an address taken (`&a[0]`, XACC's `host_data`) or a size
            // is not an access (docs/checking.md)
            ExprKind::Unary(UnOp::AddrOf, a) | ExprKind::SizeOf(a) if self.check => {
                self.check = false;
                self.expr(a);
                self.check = true;
            }
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
            DirectiveKind::Reflect { vars, widths, trailers } => self.dir_reflect(p, &comment, &ind, vars, widths, trailers),
            DirectiveKind::WaitAsync { ids, .. } => self.dir_wait_async(p, &comment, &ind, ids),
            DirectiveKind::Reduction { reductions, on, .. } => self.dir_reduction(p, &comment, &ind, reductions, on),
            DirectiveKind::Bcast { vars, from, on, .. } => self.dir_bcast(p, &comment, &ind, vars, from, on),
            DirectiveKind::Barrier { on, .. } => self.dir_barrier(p, &comment, &ind, on),
            DirectiveKind::Task { on, nocomm, .. } => self.task(p, on, *nocomm),
            DirectiveKind::Tasks { .. } => {
                self.edit(p.dir.span, comment);
                if let Some(b) = &p.body {
                    self.stmt(b);
                }
            }
            DirectiveKind::TemplateFix { dists, name, shape } => self.dir_template_fix(p, &comment, &ind, dists, name, shape),
            DirectiveKind::StaticDesc { .. } => self.edit(p.dir.span, comment),
            DirectiveKind::Gmove { mode, trailers } => self.gmove(p, *mode, trailers.async_id.as_ref()),
            DirectiveKind::Array { on, .. } => self.array_dir(p, on),
            DirectiveKind::Acc { construct, text } => {
                self.acc_directive(p);
                let n = self.use_device.len();
                if construct == "host_data" {
                    let names: Vec<String> = use_device_names(text).into_iter().filter(|v| self.dist(v).is_some()).collect();
                    self.use_device.extend(names);
                }
                if let Some(b) = &p.body {
                    self.stmt(b);
                }
                self.use_device.truncate(n);
            }
            DirectiveKind::DeviceReplicate { .. }
            | DirectiveKind::DeviceReplicateSync { .. }
            | DirectiveKind::DeviceLoop(_)
            | DirectiveKind::DeviceResetWeight(_) => self.device_dir(p),
            DirectiveKind::ReduceShadow { vars, widths, trailers } => self.dir_reduce_shadow(p, &comment, &ind, vars, widths, trailers),
            _ => {
                self.error("XMP0304", format!("`{}` is not translated yet", p.dir.name()), p.dir.name_span, "not supported by the C translator", None);
            }
        }
    }

    // -------------------------------------------------------------- loop

    // -------------------------------------------------------------- task

    // -------------------------------------------------------------- gmove / array
}

pub(super) fn basic_type(b: &str) -> Option<&'static str> {
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

/// Offset just after the `{` that opens a function body (parameters skipped).
pub(super) fn body_open(src: &str, from: usize) -> Option<usize> {
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

/// The variables of the `use_device(...)` clauses of an OpenACC directive's text.
fn use_device_names(text: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = text;
    while let Some(k) = rest.find("use_device") {
        let after = rest[k + 10..].trim_start();
        rest = &rest[k + 10..];
        let Some(list) = after.strip_prefix('(') else { continue };
        let Some(close) = list.find(')') else { break };
        out.extend(list[..close].split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()));
    }
    out
}
