//! XMP-dev (`#pragma xmp device ...`) → calls of the work-sharing runtime
//! (`runtime/lib/workshare`, declared in `runtime/lib/xmp/include/xmpc_dev.h`) and CUDA
//! kernels. The thesis' scheme (seed 002 §4.2.3), one screen per directive:
//! - `device replicate (list) { ... }`: a replicated copy of each listed array (the
//!   node's local array stays the MPI buffer), freed at the end of the block;
//! - `device replicate_sync in|out (list)`: local → replicated (and to the GPU) or back;
//! - `device loop on t(i) [reduction(...)]`: the paper's four parts — a launcher (in
//!   place of the loop), a CPU task body and a GPU task body (file-scope functions
//!   before the enclosing function) and a CUDA kernel, one thread per iteration guarded
//!   by the count. The kernels are collected in a block at the end of the C file
//!   between [`KERNELS_BEGIN`] and [`KERNELS_END`] (inside `#if 0`), which the driver
//!   cuts out into `.cu`, compiles with nvcc and embeds as a fatbin;
//! - `device reset_weight (w | auto)`.
//!
//! What the lowering cannot keep correct is refused with a located XMP0330 error.
use super::*;
use crate::c::loops::for_init;

/// Marks the CUDA source in the translated C (inside `#if 0`).
pub const KERNELS_BEGIN: &str = "#if 0 /* xmpc-device-kernels begin */";
pub const KERNELS_END: &str = "#endif /* xmpc-device-kernels end */";

/// Functions a kernel may call (the CUDA math library has them all).
const DEVICE_CALLS: &[&str] = &[
    "sqrt", "sqrtf", "rsqrt", "rsqrtf", "exp", "expf", "log", "logf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "fabs", "fabsf", "pow", "powf", "floor",
    "floorf", "ceil", "ceilf", "fmin", "fmax", "fminf", "fmaxf", "abs", "labs", "cbrt", "exp2", "log2", "log10", "tanh", "atan", "atan2", "asin", "acos",
    "fma",
];

#[derive(Default)]
pub(crate) struct DevState {
    /// Open `replicate` scopes: array name → the C name of its replicated copy.
    reps: Vec<Vec<(String, String)>>,
    /// Device loops so far (the N in `_XMP_DEV_FUNC_N`).
    count: usize,
    /// Kernels (CUDA source), in order.
    kernels: String,
    /// Atomic combiners the kernels use: (op, type tag, C type).
    atomics: std::collections::BTreeSet<(&'static str, &'static str, String)>,
    pub(crate) used: bool,
}

/// A variable the loop body reads from the enclosing code.
/// A device loop being printed.
struct DevLoop {
    name: String,
    loc: String,
    ind: String,
    var: String,
    var_ty: String,
    body_text: String,
    caps: Vec<Capture>,
    arrs: Vec<RepUse>,
    lay_vars: Vec<String>,
    reds: Vec<(String, String, RedOp)>,
    lo: String,
    hi: String,
}

struct Capture {
    name: String,
    ty: String,
}

/// An array the body uses through its replicated copy.
struct RepUse {
    name: String,
    /// C name of the storage inside the task bodies (`_XMP_ADDR_x` or `x`).
    inner: String,
    /// The replicated copy's variable in the launcher.
    rep: String,
    /// Element type (a basic C type) and, for a plain array, the extents after the first.
    elem: String,
    rest_dims: Vec<String>,
    dist: Option<usize>,
    written: bool,
}

fn basic_c(t: &str) -> bool {
    matches!(
        t,
        "double" | "float" | "int" | "long" | "long int" | "unsigned" | "unsigned int" | "unsigned long" | "short" | "char" | "long long" | "long double"
    )
}

impl<'a> Tr<'a> {
    fn dev_error(&mut self, msg: impl std::fmt::Display, span: Span, label: &str, help: Option<&str>) {
        self.error("XMP0330", msg, span, label, help.map(str::to_string));
    }

    /// Entry from `pragma`: the four XMP-dev directives.
    pub(in crate::c) fn device_dir(&mut self, p: &'a Pragma) {
        self.dev.used = true;
        match &p.dir.kind {
            DirectiveKind::DeviceReplicate { vars } => self.dev_replicate(p, vars),
            DirectiveKind::DeviceReplicateSync { dir, vars } => self.dev_sync(p, *dir, vars),
            DirectiveKind::DeviceLoop(l) => self.dev_loop(p, l),
            DirectiveKind::DeviceResetWeight(e) => {
                let loc = self.loc(p);
                let comment = self.dir_comment(p);
                let call = if e.ident() == Some("auto") {
                    format!("xmpc_dev_reset_weight_auto({loc});")
                } else {
                    format!("xmpc_dev_reset_weight({loc}, (double)({}));", self.render(e))
                };
                self.edit(p.dir.span, format!("{comment} {call}"));
            }
            _ => unreachable!("device_dir on another directive"),
        }
    }

    /// `replicate (list) { ... }` → a block that makes and frees the copies.
    fn dev_replicate(&mut self, p: &'a Pragma, vars: &[Name]) {
        let Some(body) = p.body.as_deref().filter(|b| matches!(b.kind, StmtKind::Compound(_))) else {
            self.dev_error("`device replicate` must be followed by a block `{ ... }`", p.dir.name_span, "no block follows", None);
            return;
        };
        let loc = self.loc(p);
        let ind = self.indent_at(p.dir.span.start);
        let mut head = format!("{}\n{ind}{{", self.dir_comment(p));
        let mut tail = String::new();
        let mut scope = vec![];
        for v in vars {
            let Some((local, bytes)) = self.dev_array_storage(&v.name, v.span) else { continue };
            let rep = format!("_XMP_REP_{}", v.name);
            let ptr = if self.dist(&v.name).is_some() { local.clone() } else { format!("&{local}[0]") };
            let _ = write!(head, "\n{ind}    __typeof__({ptr}) {rep};\n{ind}    {{\n{ind}        size_t _XMP_bytes = {bytes};\n{ind}        {rep} = (__typeof__({ptr}))xmpc_dev_replicate({loc}, (void *){local}, _XMP_bytes);\n{ind}    }}");
            let _ = write!(tail, "\n{ind}    xmpc_dev_replicate_end({loc}, (void *){rep});");
            scope.push((v.name.clone(), rep));
        }
        self.edit(Span::new(p.dir.span.start, p.dir.span.end), head);
        self.dev.reps.push(scope);
        self.stmt(body);
        self.dev.reps.pop();
        self.edit(Span::new(body.span.end, body.span.end), format!("{tail}\n{ind}}}"));
    }

    /// The local storage of a replicated array and its size in bytes (C text), or a
    /// diagnostic: file-scope arrays only (distributed with block-like dimensions, or
    /// plain C arrays).
    fn dev_array_storage(&mut self, name: &str, span: Span) -> Option<(String, String)> {
        if let Some(a) = self.dist(name) {
            let ar = &self.arrs[a];
            if !ar.global || ar.pointer || ar.deferred || ar.late {
                self.dev_error(format!("`{name}`: only file-scope distributed arrays can be replicated"), span, "declared in a function or allocated", None);
                return None;
            }
            if ar.fmts.iter().any(|f| *f != Fmt::Linear) {
                self.dev_error(
                    format!("`{name}` is distributed cyclically: its rows are not contiguous, which the work-sharing split needs"),
                    span,
                    "cyclic array",
                    Some("distribute the template by block or gblock"),
                );
                return None;
            }
            let (storage, desc, nd) = (ar.storage.clone(), ar.desc.clone(), ar.ndims);
            let bytes = format!("sizeof(*{storage}) * ({})", (0..nd).map(|d| format!("xmpc_dev_dim_alloc({desc}, {d})")).collect::<Vec<_>>().join(" * "));
            return Some((storage, bytes));
        }
        match self.lookup_var(name) {
            Some(Var::Plain(t)) if matches!(self.unit.types.get(*t), Type::Array { .. }) && self.scopes[0].vars.contains_key(name) => {
                Some((name.to_string(), format!("sizeof({name})")))
            }
            Some(_) => {
                self.dev_error(
                    format!("`{name}` is not a file-scope array"),
                    span,
                    "cannot be replicated",
                    Some("replicate file-scope arrays (distributed or not)"),
                );
                None
            }
            None => {
                self.dev_error(format!("`{name}` is not declared"), span, "unknown array", None);
                None
            }
        }
    }

    fn dev_rep_of(&self, name: &str) -> Option<String> {
        self.dev.reps.iter().rev().find_map(|s| s.iter().find(|(n, _)| n == name).map(|(_, r)| r.clone()))
    }

    /// `replicate_sync in|out (list)`.
    fn dev_sync(&mut self, p: &'a Pragma, dir: xmpc_ir::directive::SyncDir, vars: &[Name]) {
        let loc = self.loc(p);
        let ind = self.indent_at(p.dir.span.start);
        let mut code = self.dir_comment(p);
        let d = if dir == xmpc_ir::directive::SyncDir::In { "XMPC_DEV_SYNC_IN" } else { "XMPC_DEV_SYNC_OUT" };
        for v in vars {
            let Some(rep) = self.dev_rep_of(&v.name) else {
                self.dev_error(format!("`{}` is not replicated here", v.name), v.span, "no enclosing `device replicate` lists it", None);
                continue;
            };
            let _ = write!(code, "\n{ind}xmpc_dev_sync({loc}, (void *){rep}, {d});");
        }
        self.edit(p.dir.span, code);
    }

    /// `device loop on t(i)`: the launcher in place, the task bodies before the
    /// function, the kernel into the kernel block.
    fn dev_loop(&mut self, p: &'a Pragma, l: &LoopDir) {
        let Some(stmt) = p.body.as_deref() else {
            self.dev_error("`device loop` is not followed by a loop", p.dir.name_span, "expects a `for` next", None);
            return;
        };
        let f = self.cur_fn.expect("in a function");
        let Some(ti) = self.lookup_templ(&l.on.name) else {
            self.error("XMP0102", format!("template `{}` is not declared", l.on.name.name), l.on.name.span, "unknown template", None);
            return;
        };
        let Some(lv) = self.parse_for(stmt, f) else { return };
        let subs = l.on.subs.as_deref().unwrap_or(&[]);
        let sub_ok = subs.len() == 1 && matches!(&subs[0].kind, SubKind::Expr(e) if e.ident() == Some(lv.var.as_str()));
        if !sub_ok || l.indices.len() > 1 {
            self.dev_error(
                "a device loop works on one template dimension: `on t(i)` with the loop variable itself",
                l.on.span,
                "not supported",
                Some("write `device loop on t(i)` over a 1-D template, the loop `for (i = lo; i < hi; i++)`"),
            );
            return;
        }
        if lv.down || lv.step != "1" {
            self.dev_error("a device loop must count upwards by 1", stmt.span.start_span(), "this loop", None);
            return;
        }
        if let Some(d) = self.tdists(ti).as_ref().and_then(|d| d.first().copied()) {
            if !matches!(d.0, DistFormat::Block | DistFormat::GBlock | DistFormat::Dup) {
                self.dev_error("a device loop over a cyclic template is not supported", l.on.span, "cyclic", None);
                return;
            }
        }
        let k = self.dev.count;
        self.dev.count += 1;
        let loc = self.loc(p);
        let ind = self.indent_at(stmt.span.start);
        // Analyse the body: captures, arrays, writes, calls.
        let Some((caps, mut arrs)) = self.dev_analyse(lv.body, &lv.var, l, f) else { return };
        // Translate the body (distributed references) and take its text out.
        let saved_used = self.fctx.as_mut().map(|c| std::mem::take(&mut c.used));
        let n_before = self.edits.len();
        self.scopes.push(Scope::default());
        if let Some(StmtKind::Decl(ids)) = for_init(stmt).map(|s| &s.kind) {
            self.declare(&f.symbols, ids);
        }
        self.stmt(lv.body);
        self.scopes.pop();
        let body_edits: Vec<Edit> = self.edits.drain(n_before..).collect();
        let used = match (self.fctx.as_mut(), saved_used) {
            (Some(c), Some(s)) => {
                let u = std::mem::replace(&mut c.used, s);
                for (a, set) in &u {
                    c.used.entry(*a).or_default().extend(set.iter().cloned());
                }
                u
            }
            _ => HashMap::new(),
        };
        let body_text = splice(self.src, lv.body.span, &body_edits);
        // Layout variables of the distributed arrays the body indexes.
        let mut lay_vars: Vec<String> = vec![];
        for r in &arrs {
            if let Some(a) = r.dist {
                if let Some(set) = used.get(&a) {
                    lay_vars.extend(set.iter().map(|v| format!("_XMP_{}_{v}", self.arrs[a].lay)));
                }
            }
        }
        let var_ty = self.dev_var_type(stmt, &lv.var, f);
        let reds = self.dev_reductions(l);
        let Some(reds) = reds else { return };
        for r in &mut arrs {
            r.rep = self.dev_rep_of(&r.name).unwrap_or_default();
        }
        let name = format!("_XMP_DEV_FUNC_{k}");
        let d = DevLoop { name, loc, ind, var: lv.var.clone(), var_ty, body_text, caps, arrs, lay_vars, reds, lo: lv.lo.clone(), hi: lv.hi.clone() };
        let pre = self.dev_task_bodies(p, &d);
        self.edit(Span::new(f.span.start, f.span.start), pre);
        self.dev_kernel(&d);
        let code = self.dev_launcher(p, l, ti, &d);
        self.edit(Span::new(p.dir.span.start, stmt.span.end), code);
    }

    /// The arguments structure and the CPU and GPU task bodies (host C, placed before
    /// the enclosing function).
    fn dev_task_bodies(&mut self, p: &Pragma, d: &DevLoop) -> String {
        let DevLoop { name, loc, ind, var, var_ty, body_text, caps, arrs, lay_vars, reds, .. } = d;
        let lv_var = var;
        // ---- args struct, CPU body, GPU body (host C, before the function)
        let mut pre = String::new();
        let _ = writeln!(
            pre,
            "/* xmpc: {} ({}:{}) */",
            comment_safe(&one_line(&self.src[p.dir.span.range()], false)),
            comment_safe(&self.unit.name),
            self.line_of(p.dir.span.start)
        );
        let _ = writeln!(pre, "struct {name}_ARGS {{");
        for r in arrs.iter() {
            let _ = writeln!(pre, "    __typeof__({}) {};", r.rep_decl_host(), r.name);
        }
        for c in caps.iter() {
            let _ = writeln!(pre, "    {} {};", c.ty, c.name);
        }
        let _ = writeln!(pre, "    char _XMP_unused;\n}};");
        let head = |pre: &mut String, gpu: bool| {
            let _ = writeln!(pre, "    struct {name}_ARGS *const _XMP_args = (struct {name}_ARGS *)_XMP_a;");
            if !gpu {
                for r in arrs.iter() {
                    let _ = writeln!(pre, "    __typeof__(_XMP_args->{0}) const {1} = _XMP_args->{0};", r.name, r.inner);
                }
                for v in lay_vars.iter() {
                    let _ = writeln!(pre, "    const long {v} = {};", v.replacen("_XMP_", "_XMP_G_", 1));
                }
                for c in caps.iter() {
                    let _ = writeln!(pre, "    const {} {} = _XMP_args->{};", c.ty, c.name, c.name);
                }
            }
        };
        // CPU task body
        let _ = writeln!(pre, "/* CPU task body: iterations _XMP_lo..=_XMP_hi of the replicated arrays */\nstatic void {name}_CPU(long _XMP_lo, long _XMP_hi, void *_XMP_a, void *_XMP_red)\n{{");
        head(&mut pre, false);
        for (j, (v, ty, _)) in reds.iter().enumerate() {
            let _ = writeln!(pre, "    {ty} {v};\n    __builtin_memcpy(&{v}, (char *)_XMP_red + {}, sizeof({v}));", 8 * j);
        }
        let bind = if body_text.starts_with('{') { "    " } else { "        " };
        let _ = writeln!(pre, "    {var_ty} {};\n    for ({0} = _XMP_lo; {0} <= _XMP_hi; {0}++)\n{bind}{1}", lv_var, reindent(&body_text, &ind, bind));
        for (j, (v, _, _)) in reds.iter().enumerate() {
            let _ = writeln!(pre, "    __builtin_memcpy((char *)_XMP_red + {}, &{v}, sizeof({v}));", 8 * j);
        }
        let _ = writeln!(pre, "    (void)_XMP_args;\n    (void)_XMP_red;\n}}");
        // GPU task body (host side): device pointers, kernel parameters, launch
        let _ = writeln!(pre, "/* GPU task body: launches {name}_DEVICE, one thread per iteration */\nstatic void {name}_GPU(long _XMP_lo, long _XMP_hi, void *_XMP_a, void *_XMP_red)\n{{");
        head(&mut pre, true);
        let _ = writeln!(pre, "    long _XMP_n = _XMP_hi - _XMP_lo + 1;");
        let mut params = vec!["&_XMP_lo".to_string(), "&_XMP_n".to_string()];
        for r in arrs.iter() {
            let _ = writeln!(pre, "    unsigned long long _XMP_d_{} = xmpc_dev_ptr({loc}, (void *)_XMP_args->{});", r.name, r.name);
            params.push(format!("&_XMP_d_{}", r.name));
        }
        for v in lay_vars.iter() {
            let _ = writeln!(pre, "    long {v} = {};", v.replacen("_XMP_", "_XMP_G_", 1));
            params.push(format!("&{v}"));
        }
        for c in caps.iter() {
            params.push(format!("&_XMP_args->{}", c.name));
        }
        if !reds.is_empty() {
            let _ = writeln!(pre, "    unsigned long long _XMP_dred = xmpc_dev_red_begin({loc}, _XMP_red, {});", reds.len());
            params.push("&_XMP_dred".into());
        }
        let _ = writeln!(pre, "    void *_XMP_p[] = {{{}}};", params.join(", "));
        let _ = writeln!(pre, "    xmpc_dev_launch({loc}, \"{name}_DEVICE\", _XMP_n, _XMP_p, {});", params.len());
        if reds.is_empty() {
            let _ = writeln!(pre, "    (void)_XMP_red;");
        } else {
            let _ = writeln!(pre, "    xmpc_dev_red_end({loc}, _XMP_red, {}, _XMP_dred);", reds.len());
        }
        let _ = writeln!(pre, "}}\n");
        pre
    }

    /// The CUDA kernel, one thread per iteration, into the kernel block.
    fn dev_kernel(&mut self, d: &DevLoop) {
        let DevLoop { name, ind, var, var_ty, body_text, caps, arrs, lay_vars, reds, .. } = d;
        let lv_var = var;
        // ---- the kernel
        let mut kp = vec!["long _XMP_lo".to_string(), "long _XMP_n".to_string()];
        for r in arrs.iter() {
            kp.push(r.kernel_param());
        }
        for v in lay_vars.iter() {
            kp.push(format!("long {v}"));
        }
        for c in caps.iter() {
            kp.push(format!("{} {}", c.ty, c.name));
        }
        if !reds.is_empty() {
            kp.push("unsigned long long *_XMP_dred".into());
        }
        let mut kern = format!("extern \"C\" __global__ void {name}_DEVICE({})\n{{\n    const long _XMP_t = (long)blockIdx.x * blockDim.x + threadIdx.x;\n    if (_XMP_t >= _XMP_n)\n        return;\n", kp.join(", "));
        for (v, ty, op) in reds.iter() {
            let _ = writeln!(kern, "    {ty} {v} = {};", red_identity(*op, ty));
        }
        let _ = writeln!(kern, "    {var_ty} {} = _XMP_lo + _XMP_t;\n    {}", lv_var, reindent(&body_text, &ind, "    "));
        for (j, (v, ty, op)) in reds.iter().enumerate() {
            let _ = writeln!(kern, "    _XMP_atomic_{}_{}(&_XMP_dred[{j}], {v});", red_name(*op), ty_tag(ty));
            self.dev.atomics.insert((red_name(*op), ty_tag(ty), ty.clone()));
        }
        kern.push_str("}\n\n");
        self.dev.kernels.push_str(&kern);
    }

    /// The launcher, in place of the loop: the node's iterations, the arguments, the
    /// work-sharing runtime call and the reductions.
    fn dev_launcher(&mut self, p: &Pragma, l: &LoopDir, ti: TemplId, d: &DevLoop) -> String {
        let DevLoop { name, loc, ind, caps, arrs, reds, .. } = d;
        let lv_lo = d.lo.clone();
        let lv_hi = d.hi.clone();
        // ---- the launcher, in place of the loop
        let t = self.tname(ti);
        let (lo_t, hi_t) = (lv_lo, lv_hi);
        let mut code = format!(
            "{}\n{ind}{{\n{ind}    xmpc_sched _XMP_sched;\n{ind}    xmpc_loop_sched({loc}, {t}, 0, {lo_t}, {hi_t}, 1, &_XMP_sched);",
            self.dir_comment(p)
        );
        let inits: Vec<String> = arrs.iter().map(|r| r.rep.clone()).chain(caps.iter().map(|c| c.name.clone())).chain(std::iter::once("0".into())).collect();
        let _ = write!(code, "\n{ind}    struct {name}_ARGS _XMP_args = {{{}}};", inits.join(", "));
        let written: Vec<&RepUse> = arrs.iter().filter(|r| r.written).collect();
        let bpi: Vec<String> = arrs.iter().map(|r| format!("(double){}", r.row_bytes(self))).collect();
        let _ = write!(code, "\n{ind}    long long _XMP_red[{}];", reds.len().max(1));
        if !written.is_empty() {
            let reps: Vec<String> = written.iter().map(|r| format!("(void *){}", r.rep)).collect();
            let offs: Vec<String> = written.iter().map(|r| r.row_base(self)).collect();
            let rows: Vec<String> = written.iter().map(|r| format!("(long){}", r.row_bytes(self))).collect();
            let _ = write!(
                code,
                "\n{ind}    void *const _XMP_wrep[] = {{{}}};\n{ind}    const long _XMP_woff[] = {{{}}}, _XMP_wrow[] = {{{}}};",
                reps.join(", "),
                offs.join(", "),
                rows.join(", ")
            );
        }
        let (ops, tys): (Vec<String>, Vec<String>) = reds.iter().map(|(_, ty, op)| (red_code(*op).to_string(), ty_code(ty).to_string())).unzip();
        let _ = write!(
            code,
            "\n{ind}    static const int _XMP_red_ops[] = {{{}}}, _XMP_red_types[] = {{{}}};",
            if ops.is_empty() { "0".into() } else { ops.join(", ") },
            if tys.is_empty() { "0".into() } else { tys.join(", ") }
        );
        let _ = write!(
            code,
            "\n{ind}    xmpc_dev_loop_desc _XMP_d = {{\"{}:{}\", _XMP_sched.first, _XMP_sched.last, {name}_CPU, {name}_GPU, &_XMP_args, {}, _XMP_red_ops, _XMP_red_types, _XMP_red, {}, {}, {}, {}, {}}};",
            comment_safe(&self.unit.name),
            self.line_of(p.dir.span.start),
            reds.len(),
            if bpi.is_empty() { "0.0".into() } else { bpi.join(" + ") },
            written.len(),
            if written.is_empty() { "NULL" } else { "_XMP_wrep" },
            if written.is_empty() { "NULL" } else { "_XMP_woff" },
            if written.is_empty() { "NULL" } else { "_XMP_wrow" },
        );
        let _ = write!(code, "\n{ind}    xmpc_dev_loop({loc}, &_XMP_d);");
        for (j, (v, ty, op)) in reds.iter().enumerate() {
            let _ = write!(code, "\n{ind}    {{\n{ind}        {ty} _XMP_r;\n{ind}        __builtin_memcpy(&_XMP_r, &_XMP_red[{j}], sizeof(_XMP_r));\n{ind}        {}\n{ind}    }}", red_combine(*op, v));
        }
        let nodes = format!("xmpc_template_nodes({t})");
        for r in &l.reductions {
            code.push_str(&self.reduction_calls(r, &loc, &nodes, &format!("{ind}    ")));
        }
        let _ = write!(code, "\n{ind}}}");
        code
    }

    /// The loop variable's declared type (a basic type), else `long`.
    fn dev_var_type(&self, stmt: &Stmt, var: &str, f: &Function) -> String {
        if let Some(StmtKind::Decl(ids)) = for_init(stmt).map(|s| &s.kind) {
            if let Some(&id) = ids.first() {
                if let Type::Basic(b) = self.unit.types.get(f.symbols.get(id).ty) {
                    return b.clone();
                }
            }
        }
        match self.lookup_var(var) {
            Some(Var::Plain(t)) => match self.unit.types.get(*t) {
                Type::Basic(b) if basic_c(b) => b.clone(),
                _ => "long".into(),
            },
            _ => "long".into(),
        }
    }

    /// (variable, C type, op) per reduction variable; `None` after a diagnostic.
    fn dev_reductions(&mut self, l: &LoopDir) -> Option<Vec<(String, String, RedOp)>> {
        let mut out = vec![];
        for r in &l.reductions {
            let op = match r.op {
                RedOp::Sum | RedOp::Prod | RedOp::Max | RedOp::Min => r.op,
                _ => {
                    self.dev_error(format!("reduction `{}` in a device loop is not supported", r.op.as_str()), r.op_span, "use +, *, max or min", None);
                    return None;
                }
            };
            for v in &r.vars {
                let ty = match self.lookup_var(&v.name.name) {
                    Some(Var::Plain(t)) => match self.unit.types.get(*t) {
                        Type::Basic(b) if matches!(b.as_str(), "double" | "float" | "int" | "long" | "long int") => b.clone(),
                        _ => String::new(),
                    },
                    _ => String::new(),
                };
                if ty.is_empty() || !v.locs.is_empty() {
                    self.dev_error(
                        format!("reduction variable `{}` must be a scalar double, float, int or long", v.name.name),
                        v.name.span,
                        "not supported in a device loop",
                        None,
                    );
                    return None;
                }
                out.push((v.name.name.clone(), ty, op));
            }
        }
        Some(out)
    }

    /// What the body refers to outside itself. Refuses what the lowering cannot keep
    /// correct: writes to captured scalars, arrays not replicated, rows written other
    /// than the iteration's own, calls a kernel cannot make, nested directives.
    fn dev_analyse(&mut self, body: &'a Stmt, var: &str, l: &LoopDir, f: &'a Function) -> Option<(Vec<Capture>, Vec<RepUse>)> {
        let mut local: std::collections::HashSet<String> = Default::default();
        let mut exprs: Vec<&Expr> = vec![];
        let mut bad: Option<(Span, String)> = None;
        body.walk(&mut |s| match &s.kind {
            StmtKind::Decl(ids) => {
                for &id in ids {
                    let sym = f.symbols.get(id);
                    local.insert(sym.name.clone());
                    if let Some(e) = &sym.init {
                        exprs.push(e);
                    }
                }
            }
            StmtKind::Pragma(_) | StmtKind::Goto(_) | StmtKind::Return(_) | StmtKind::Verbatim => {
                bad.get_or_insert((s.span.start_span(), "directives, `return`, `goto` and unparsed code cannot go into a device loop's task bodies".into()));
            }
            _ => exprs.extend(own_exprs(s)),
        });
        if let Some((sp, m)) = bad {
            self.dev_error(m, sp, "inside the device loop", None);
            return None;
        }
        let reds: Vec<&str> = l.reductions.iter().flat_map(|r| r.vars.iter().map(|v| v.name.name.as_str())).collect();
        let mut caps: Vec<Capture> = vec![];
        let mut arrs: Vec<RepUse> = vec![];
        let mut errs: Vec<(Span, String, Option<&'static str>)> = vec![];
        let mut callees: Vec<(String, Span)> = vec![];
        let mut writes: Vec<Expr> = vec![];
        for e in &exprs {
            e.walk(&mut |x| match &x.kind {
                ExprKind::Call(c, _) => {
                    if let Some(n) = c.ident() {
                        callees.push((n.to_string(), c.span));
                    }
                }
                ExprKind::Assign(_, lhs, _) => writes.push((**lhs).clone()),
                ExprKind::Unary(UnOp::PreInc | UnOp::PostInc | UnOp::PreDec | UnOp::PostDec, a) => writes.push((**a).clone()),
                ExprKind::Unary(UnOp::AddrOf, a) => errs.push((a.span, "taking an address inside a device loop is not supported".into(), None)),
                _ => {}
            });
        }
        let mut names: Vec<(String, Span)> = vec![];
        for e in &exprs {
            e.walk(&mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    names.push((n.clone(), x.span));
                }
            });
        }
        for (n, sp) in &callees {
            if !DEVICE_CALLS.contains(&n.as_str()) {
                errs.push((
                    *sp,
                    format!("the device loop calls `{n}`, which a GPU kernel cannot call"),
                    Some("only the math functions (sqrt, exp, fabs, pow, ...) can be called in a device loop"),
                ));
            }
        }
        for (n, sp) in names {
            if n == var || local.contains(&n) || callees.iter().any(|c| c.0 == n) || reds.contains(&n.as_str()) {
                continue;
            }
            if caps.iter().any(|c| c.name == n) || arrs.iter().any(|a| a.name == n) {
                continue;
            }
            if let Some(a) = self.dist(&n) {
                let elem = self.dev_elem_type(&n).unwrap_or_default();
                if self.dev_rep_of(&n).is_none() {
                    errs.push((
                        sp,
                        format!("`{n}` is used in a device loop but is not in an enclosing `device replicate` list"),
                        Some("list it in `#pragma xmp device replicate (...)` around the loop"),
                    ));
                    continue;
                }
                arrs.push(RepUse { inner: self.arrs[a].storage.clone(), name: n, rep: String::new(), elem, rest_dims: vec![], dist: Some(a), written: false });
                continue;
            }
            let Some(Var::Plain(t)) = self.lookup_var(&n).cloned() else { continue }; // a macro or enum constant
            match self.unit.types.get(t).clone() {
                Type::Array { dims, .. } => {
                    if self.dev_rep_of(&n).is_none() {
                        errs.push((
                            sp,
                            format!("`{n}` is used in a device loop but is not in an enclosing `device replicate` list"),
                            Some("list it in `#pragma xmp device replicate (...)` around the loop"),
                        ));
                        continue;
                    }
                    let elem = self.dev_elem_type(&n).unwrap_or_default();
                    let rest: Vec<String> = dims.iter().skip(1).map(|d| d.upper.as_ref().map(c_expr).unwrap_or_default()).collect();
                    if elem.is_empty() || rest.iter().any(String::is_empty) {
                        errs.push((sp, format!("`{n}`: only arrays of a basic type with constant extents can be used in a device loop"), None));
                        continue;
                    }
                    arrs.push(RepUse { inner: n.clone(), name: n, rep: String::new(), elem, rest_dims: rest, dist: None, written: false });
                }
                Type::Basic(b) if basic_c(&b) => caps.push(Capture { name: n, ty: b }),
                _ => errs.push((sp, format!("`{n}` (not a scalar of a basic type) cannot be passed to a device loop"), None)),
            }
        }
        for w in &writes {
            let (base, first) = index_base(w);
            let Some(b) = base.ident() else { continue };
            if let Some(r) = arrs.iter_mut().find(|r| r.name == b) {
                if first.and_then(|e| e.ident()) != Some(var) {
                    errs.push((
                        w.span,
                        format!(
                            "`{b}` is written at a row other than the iteration's own (`{b}[{var}]...`): the CPU and GPU parts would lose each other's rows"
                        ),
                        None,
                    ));
                }
                r.written = true;
            } else if caps.iter().any(|c| c.name == b) {
                errs.push((
                    w.span,
                    format!("the device loop assigns `{b}`, a variable of the enclosing code: each task would have its own copy"),
                    Some("use a reduction clause, or declare the variable inside the loop body"),
                ));
            }
        }
        if errs.is_empty() {
            return Some((caps, arrs));
        }
        for (sp, m, h) in errs {
            self.dev_error(m, sp, "in a device loop", h);
        }
        None
    }

    /// The element type of an array variable (a basic C type).
    fn dev_elem_type(&self, name: &str) -> Option<String> {
        let t = match self.lookup_var(name) {
            Some(Var::Plain(t)) => *t,
            Some(Var::Dist(_)) => {
                // the declaration's type is in the file's globals
                self.unit.globals.symbols.iter().find(|s| s.name == name).map(|s| s.ty)?
            }
            _ => return None,
        };
        let mut cur = t;
        loop {
            match self.unit.types.get(cur) {
                Type::Array { elem, .. } => cur = *elem,
                Type::Basic(b) if basic_c(b) => return Some(b.clone()),
                _ => return None,
            }
        }
    }

    /// Text for the end of the file: the kernel block, when there are kernels.
    pub(in crate::c) fn device_kernels(&self) -> Option<String> {
        if self.dev.kernels.is_empty() {
            return None;
        }
        let mut s = format!("\n{KERNELS_BEGIN}\n/* CUDA kernels of the device loops: cut out into .cu by xmpc */\n");
        // the file's macros and system headers, which the loop bodies may use
        for it in &self.unit.items {
            if let Item::Verbatim(sp) = it {
                for line in self.src[sp.range()].lines() {
                    let t = line.trim_start();
                    if t.starts_with("#define") || t.starts_with("#include <math.h>") {
                        s.push_str(line);
                        s.push('\n');
                    }
                }
            }
        }
        s.push_str(KERNEL_PRELUDE);
        for (op, tag, ty) in &self.dev.atomics {
            let e = match *op {
                "sum" => "a + v",
                "prod" => "a * v",
                "max" => "v > a ? v : a",
                _ => "v < a ? v : a",
            };
            let _ = writeln!(s, "_XMP_DEV_ATOMIC(_XMP_atomic_{op}_{tag}, {ty}, {e})");
        }
        s.push('\n');
        s.push_str(&self.dev.kernels);
        s.push_str(KERNELS_END);
        s.push('\n');
        Some(s)
    }
}

impl RepUse {
    /// The host type of the args field: a pointer to the replicated rows.
    fn rep_decl_host(&self) -> String {
        match self.dist {
            Some(_) => self.inner.clone(),
            None => format!("&{}[0]", self.inner),
        }
    }
    fn kernel_param(&self) -> String {
        if self.rest_dims.is_empty() {
            format!("{} *__restrict__ {}", self.elem, self.inner)
        } else {
            format!("{} (*__restrict__ {}){}", self.elem, self.inner, self.rest_dims.iter().map(|d| format!("[{d}]")).collect::<String>())
        }
    }
    /// Bytes of one row (one iteration's share) of the replicated array.
    fn row_bytes(&self, t: &Tr) -> String {
        match self.dist {
            Some(a) if t.arrs[a].ndims > 1 => format!("sizeof(*{}) * _XMP_G_{}_str0", self.rep, t.arrs[a].lay),
            Some(_) => format!("sizeof(*{})", self.rep),
            None => format!("sizeof({}[0])", self.inner),
        }
    }
    /// The global index stored in row 0 of the local (and replicated) array.
    fn row_base(&self, t: &Tr) -> String {
        match self.dist {
            Some(a) => format!("_XMP_G_{}_off0", t.arrs[a].lay),
            None => "0".into(),
        }
    }
}

/// `a[i][j]` → (`a`, `i`); `x` → (`x`, None).
fn index_base(e: &Expr) -> (&Expr, Option<&Expr>) {
    let mut cur = e;
    let mut first = None;
    while let ExprKind::Index(b, i) = &cur.kind {
        first = Some(&**i);
        cur = b;
    }
    (cur, first)
}

fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Expr(e) => vec![e],
        StmtKind::If { cond, .. } | StmtKind::While { cond: Some(cond), .. } | StmtKind::DoWhile { cond, .. } | StmtKind::Switch { cond, .. } => vec![cond],
        StmtKind::For { cond, step, .. } => cond.iter().chain(step.iter()).collect(),
        _ => vec![],
    }
}

/// Moves a body written at indentation `from` to `to` (first line kept as is).
fn reindent(body: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    for (i, line) in body.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(to);
            out.push_str(line.strip_prefix(from).unwrap_or(line.trim_start()));
        } else {
            out.push_str(line);
        }
    }
    out
}

fn red_code(op: RedOp) -> i32 {
    match op {
        RedOp::Sum => 0,
        RedOp::Prod => 1,
        RedOp::Max => 2,
        _ => 3,
    }
}
fn red_name(op: RedOp) -> &'static str {
    match op {
        RedOp::Sum => "sum",
        RedOp::Prod => "prod",
        RedOp::Max => "max",
        _ => "min",
    }
}
fn ty_code(ty: &str) -> i32 {
    match ty {
        "double" => 0,
        "float" => 1,
        "int" => 2,
        _ => 3,
    }
}
fn ty_tag(ty: &str) -> &'static str {
    match ty {
        "double" => "f64",
        "float" => "f32",
        "int" => "i32",
        _ => "i64",
    }
}
fn red_identity(op: RedOp, ty: &str) -> &'static str {
    let float = matches!(ty, "double" | "float");
    match (op, float) {
        (RedOp::Sum, _) => "0",
        (RedOp::Prod, _) => "1",
        (RedOp::Max, true) => "-HUGE_VAL",
        (RedOp::Min, true) => "HUGE_VAL",
        (RedOp::Max, false) => {
            if ty == "int" {
                "INT_MIN"
            } else {
                "LONG_MIN"
            }
        }
        _ => {
            if ty == "int" {
                "INT_MAX"
            } else {
                "LONG_MAX"
            }
        }
    }
}
fn red_combine(op: RedOp, v: &str) -> String {
    match op {
        RedOp::Sum => format!("{v} = {v} + _XMP_r;"),
        RedOp::Prod => format!("{v} = {v} * _XMP_r;"),
        RedOp::Max => format!("if (_XMP_r > {v}) {v} = _XMP_r;"),
        _ => format!("if (_XMP_r < {v}) {v} = _XMP_r;"),
    }
}

/// Atomic combiners of the kernels' reductions (compare-and-swap on the 8-byte slot,
/// whatever the type: the slot layout the runtime uses).
const KERNEL_PRELUDE: &str = r#"#include <math.h>
#include <string.h>
#include <limits.h>
#define _XMP_DEV_ATOMIC(NAME, T, EXPR)                                                   \
    __device__ static void NAME(unsigned long long *slot, T v)                          \
    {                                                                                   \
        unsigned long long old = *slot, assumed;                                        \
        do {                                                                            \
            assumed = old;                                                              \
            T a;                                                                        \
            memcpy(&a, &assumed, sizeof(T));                                            \
            T r = (EXPR);                                                               \
            unsigned long long nw = assumed;                                            \
            memcpy(&nw, &r, sizeof(T));                                                 \
            old = atomicCAS(slot, assumed, nw);                                         \
        } while (old != assumed);                                                       \
    }
"#;
