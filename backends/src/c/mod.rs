//! XcalableMP C → C + xmpc runtime calls (`runtime/lib/xmp/include/xmpc_rt.h`).
//!
//! The pass produces edits of the original text; `xmpc_backends::emit` splices them.
//! Scheme (see `docs/diagnostics.md` for the XMP03xx errors):
//! - file-scope `nodes`/`template`/`distribute`/`align`/`shadow` → static descriptors
//!   (`_XMP_NODES_p`, `_XMP_TEMPL_t`, `_XMP_DESC_a`) created by a per-file init function
//!   registered from a constructor; inside functions the same calls at that point;
//! - a distributed array `double a[N][M]` becomes `double *_XMP_ADDR_a` (the node's
//!   part with shadows); every `a[i][j]` becomes
//!   `_XMP_ADDR_a[(i - _XMP_a_off0) * _XMP_a_str0 + (j - _XMP_a_off1)]` with the layout
//!   read once at init into file statics and copied into `const long` locals at the top
//!   of each function that uses it;
//! - `loop` rewrites the `for` headers to the node's share (`xmpc_loop_sched`);
//! - communication directives become one runtime call each;
//! - `main` becomes `xmpc_user_main`, called by a generated `main`.

mod cexpr;
pub mod coarray;

use cexpr::{c_expr, c_string, comment_safe, int_lit, one_line, paren, plus, splice};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
pub use stmt::device::{KERNELS_BEGIN, KERNELS_END};
use xmpc_ir::directive::{AlignSrc, DirectiveKind, DistFormat, GmoveMode, LoopDir, Name, NodesMapping, RedOp, Ref, ShadowWidth, SubKind, TemplateShape, Width};
pub use xmpc_ir::Edit;
use xmpc_ir::{Diag, Expr, ExprKind, FileUnit, Function, Item, Pragma, Span, Stmt, StmtKind, StorageClass, Symbol, SymbolTable, Type, TypeId, UnOp};
use xmpc_passes::xmp_model::iexpr::{self, IExpr, Spell};
use xmpc_passes::xmp_model::on_ref;
use xmpc_passes::xmp_model::symbols::{Entity, NodesId, NodesMap, Site as MSite, TemplId};
use xmpc_passes::xmp_model::Model;

/// Translates one C file. Errors are located diagnostics; on error no edit is returned.
pub fn translate(unit: &FileUnit, src: &str) -> Result<Vec<Edit>, Vec<Diag>> {
    let m = xmpc_passes::xmp_model::resolve(unit, src, &|_| None);
    if m.failed() {
        return Err(m.diags);
    }
    let mut t = Tr::new(unit, src, m);
    t.run();
    if !t.diags.is_empty() {
        return Err(t.diags);
    }
    Ok(t.edits)
}

/// True when the file has XMP directives or calls the XMP library: such a file gets a
/// wrapped `main`. A file that calls `MPI_Init` itself is left to do so.
pub fn needs_runtime(unit: &FileUnit, src: &str) -> bool {
    !unit.pragmas().is_empty() || src.contains("xmp_")
}

// ------------------------------------------------------------------ model

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fmt {
    /// block, gblock, `*`, not aligned: `g - off`.
    Linear,
    /// cyclic: `(g - off) / np`.
    Cyclic,
    /// cyclic(w) or not known when translating: the general formula.
    General,
}

#[derive(Clone)]
struct ArrInfo {
    name: String,
    /// The C lvalue holding the local storage.
    storage: String,
    desc: String,
    /// Layout variable stem: `_XMP_{lay}_off0`.
    lay: String,
    ndims: usize,
    fmts: Vec<Fmt>,
    /// File-scope array (layout in file statics, copied into function locals).
    global: bool,
    /// A pointer aligned array (`double *d`; storage allocated by `xmp_malloc`): its
    /// layout is read from the file statics directly.
    pointer: bool,
    templ: TemplId,
    align_dim: Vec<i64>,
    align_off: Vec<String>,
    extents: Vec<String>,
    shadow: Vec<(String, String, bool)>,
    has_shadow: bool,
    /// Aligned with a template not fixed yet: created by `template_fix`.
    deferred: bool,
    /// A function parameter (param.rs): a view of the caller's local block.
    param: bool,
    /// A file-scope array aligned inside a function (created there): its layout
    /// is read from the file statics directly, as for pointer arrays.
    late: bool,
    /// Referenced with a layout fixed in the translated text (constant dims, or
    /// variables shared with another array): a later `shadow` would contradict it.
    used: bool,
}

/// Where an aligned array is declared.
#[derive(Clone, Copy)]
enum Site {
    /// The array's own declaration (rewritten to the local-part pointer).
    Decl(Span),
    /// A structure member (`s.a`): its pointer is declared at this offset.
    After(usize),
    /// A function parameter (param.rs).
    Param,
}

#[derive(Clone)]
enum Var {
    Plain(TypeId),
    Dist(usize),
    Typedef(TypeId),
}

#[derive(Default, Clone)]
struct Scope {
    vars: HashMap<String, Var>,
}

struct FnCtx {
    /// Layout variables used, per array.
    used: HashMap<usize, BTreeSet<String>>,
    /// Where function-top locals go (after the body's `{`).
    indent: String,
}

struct Tr<'a> {
    unit: &'a FileUnit,
    src: &'a str,
    file: usize,
    diags: Vec<Diag>,
    edits: Vec<Edit>,
    /// What the directives mean (node sets, templates, alignments; names resolved).
    m: Model<'a>,
    /// Template bounds fixed by a `template_fix` met so far (C text).
    tfix: HashMap<TemplId, Vec<(String, String)>>,
    arrs: Vec<ArrInfo>,
    /// Work-shared indices of the enclosing `loop` directives.
    active_loops: Vec<loop_ref::ActiveIndex>,
    scopes: Vec<Scope>,
    /// File-scope declarations, in order.
    statics: Vec<String>,
    /// Statements of the file init function.
    init: Vec<String>,
    locs: HashMap<usize, String>,
    fctx: Option<FnCtx>,
    /// Local-array layouts waiting for the function's uses: (position, array, indent).
    pending_local: Vec<(Span, String, usize, String)>,
    /// Descriptors of the arrays the current function created so far at the top
    /// level of its body: freed at each `return` and at the closing brace.
    fn_frees: Vec<String>,
    need_typeof: bool,
    need_limits: bool,
    uniq: usize,
    cur_fn: Option<&'a Function>,
    /// Offsets where lines start (line numbers by binary search).
    line_starts: Vec<usize>,
    loc_names: std::collections::HashSet<String>,
    /// XMP-dev state (`stmt/device.rs`).
    dev: stmt::device::DevState,
    /// Inside the host lowering of an XcalableACC `acc` directive (xacc.rs).
    acc_inner: bool,
    /// `align`/`shadow` of members of structure types (member.rs).
    member_dirs: Vec<member::MemberDir<'a>>,
    /// File-scope structure variables with distributed members.
    member_owners: std::collections::HashSet<String>,
    /// Those variables and their structure type keys.
    struct_vars: Vec<(String, Vec<String>)>,
    /// End of each file-scope variable's declaration statement.
    decl_ends: HashMap<String, usize>,
    /// Distributed members, created with the file's arrays.
    member_arrays: Vec<(usize, &'a Pragma)>,
    /// Aligned parameters: (function, parameter position) → array (param.rs).
    param_arrays: HashMap<(String, usize), usize>,
    /// Arguments of calls to this file's functions: (argument, distributed array
    /// passed, callee, position), checked against aligned parameters at the end.
    call_args: Vec<(Span, Option<usize>, String, usize)>,
    /// `_XMP_tub` (a template's upper bound at run time) is used.
    need_tbound: bool,
    /// `task` bodies the statement being translated is in.
    task_depth: usize,
}

/// The C spelling of the model's expressions (directive expressions as written).
struct CSpell<'t, 'a> {
    m: &'t Model<'a>,
}

impl Spell for CSpell<'_, '_> {
    fn src(&self, e: &Expr) -> String {
        c_expr(e)
    }
    fn min(&self, a: &str, b: &str) -> String {
        format!("({} < {} ? {} : {})", paren(a), paren(b), paren(a), paren(b))
    }
    fn nodes_dim_size(&self, n: NodesId, d: usize) -> String {
        format!("xmpc_nodes_dim_size({}, {d})", nodes_name(self.m, n))
    }
    fn nodes_coord(&self, n: NodesId, d: usize) -> String {
        format!("xmpc_nodes_coord({}, {d})", nodes_name(self.m, n))
    }
}

/// The C object of a node set.
fn nodes_name(m: &Model, n: NodesId) -> String {
    format!("_XMP_NODES_{}", m.node(n).name)
}

/// The C object of a template.
fn templ_name(m: &Model, t: TemplId) -> String {
    format!("_XMP_TEMPL_{}", m.templ(t).name)
}

fn err(code: &str, msg: impl std::fmt::Display, file: usize, span: Span, label: &str) -> Diag {
    xmpc_ir::diag::error(code, msg, file, span, label)
}

impl<'a> Tr<'a> {
    fn new(unit: &'a FileUnit, src: &'a str, m: Model<'a>) -> Self {
        Tr {
            unit,
            src,
            file: unit.file,
            diags: vec![],
            edits: vec![],
            m,
            tfix: HashMap::new(),
            arrs: vec![],
            active_loops: vec![],
            scopes: vec![Scope::default()],
            statics: vec![],
            init: vec![],
            locs: HashMap::new(),
            fctx: None,
            pending_local: vec![],
            fn_frees: vec![],
            need_typeof: false,
            need_limits: false,
            uniq: 0,
            cur_fn: None,
            line_starts: std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect(),
            loc_names: Default::default(),
            dev: Default::default(),
            acc_inner: false,
            member_dirs: vec![],
            member_owners: Default::default(),
            struct_vars: vec![],
            decl_ends: HashMap::new(),
            member_arrays: vec![],
            param_arrays: HashMap::new(),
            call_args: vec![],
            need_tbound: false,
            task_depth: 0,
        }
    }

    fn error(&mut self, code: &str, msg: impl std::fmt::Display, span: Span, label: &str, help: Option<String>) {
        let mut d = err(code, msg, self.file, span, label);
        if let Some(h) = help {
            d = d.with_notes(vec![format!("help: {h}")]);
        }
        self.diags.push(d);
    }

    fn edit(&mut self, span: Span, text: impl Into<String>) {
        self.edits.push(Edit { span, text: text.into() });
    }

    fn line_of(&self, off: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= off)
    }

    /// Indentation of the line holding `off`; for a directive written in column 0,
    /// the indentation of the next non-blank line (the code it sits in).
    fn indent_at(&self, off: usize) -> String {
        let ls = self.src[..off].rfind('\n').map_or(0, |p| p + 1);
        let own: String = self.src[ls..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        if !own.is_empty() || !self.src[off..].starts_with('#') {
            return own;
        }
        let mut rest = &self.src[off..];
        // Skip this (possibly continued) directive line.
        loop {
            let Some(nl) = rest.find('\n') else { return own };
            let line = &rest[..nl];
            rest = &rest[nl + 1..];
            if !line.trim_end().ends_with('\\') {
                break;
            }
        }
        for line in rest.lines() {
            let t = line.trim_start();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            if t.starts_with('}') {
                return line[..line.len() - t.len()].to_string() + "    ";
            }
            return line[..line.len() - t.len()].to_string();
        }
        own
    }

    /// The `xmpc_loc` constant of a directive.
    fn loc(&mut self, p: &Pragma) -> String {
        let off = p.dir.span.start;
        if let Some(n) = self.locs.get(&off) {
            return format!("&{n}");
        }
        let line = self.line_of(off);
        let mut name = format!("_XMP_LOC_{line}");
        if self.loc_names.contains(&name) {
            name = format!("_XMP_LOC_{line}_{}", self.locs.len());
        }
        self.loc_names.insert(name.clone());
        let text = one_line(&self.src[p.dir.span.range()], true);
        self.statics.push(format!("static const xmpc_loc {name} = {{\"{}\", {line}, \"{}\"}};", c_string(&self.unit.name), c_string(&text)));
        self.locs.insert(off, name.clone());
        format!("&{name}")
    }

    fn dir_comment(&self, p: &Pragma) -> String {
        format!("/* {} */", comment_safe(&one_line(&self.src[p.dir.span.range()], false)))
    }

    // -------------------------------------------------------------- scopes

    fn lookup_var(&self, name: &str) -> Option<&Var> {
        self.scopes.iter().rev().find_map(|s| s.vars.get(name))
    }
    /// The node set a directive names (resolved by the model).
    fn lookup_nodes(&self, n: &Name) -> Option<NodesId> {
        self.m.name_nodes(n)
    }
    fn lookup_templ(&self, n: &Name) -> Option<TemplId> {
        self.m.name_template(n)
    }
    fn nname(&self, n: NodesId) -> String {
        nodes_name(&self.m, n)
    }
    fn tname(&self, t: TemplId) -> String {
        templ_name(&self.m, t)
    }
    /// A model expression in C (directive expressions as written).
    fn ie(&self, e: &IExpr) -> String {
        iexpr::print(e, &CSpell { m: &self.m })
    }
    /// A model expression in C whose program expressions are rewritten (`a[i]` of a
    /// distributed array in a loop bound becomes its local element).
    fn ie_render(&mut self, e: &IExpr) -> String {
        let mut srcs = vec![];
        iexpr::sources(e, &mut srcs);
        let texts: HashMap<usize, String> = srcs.into_iter().map(|x| (x.span.start, self.render(x))).collect();
        struct Rendered<'t, 'm, 'a> {
            texts: &'t HashMap<usize, String>,
            c: CSpell<'m, 'a>,
        }
        impl Spell for Rendered<'_, '_, '_> {
            fn src(&self, e: &Expr) -> String {
                self.texts.get(&e.span.start).cloned().unwrap_or_else(|| c_expr(e))
            }
            fn min(&self, a: &str, b: &str) -> String {
                self.c.min(a, b)
            }
            fn nodes_dim_size(&self, n: NodesId, d: usize) -> String {
                self.c.nodes_dim_size(n, d)
            }
            fn nodes_coord(&self, n: NodesId, d: usize) -> String {
                self.c.nodes_coord(n, d)
            }
        }
        iexpr::print(e, &Rendered { texts: &texts, c: CSpell { m: &self.m } })
    }
    /// Per template dimension: the format and whether it is `cyclic(w)` with w ≠ 1.
    fn tdists(&self, t: TemplId) -> Option<Vec<(DistFormat, bool)>> {
        let tt = self.m.templ(t);
        tt.dist.as_ref().map(|d| (0..d.dims.len()).map(|k| (d.dims[k].format, tt.wide_cyclic(k))).collect())
    }
    /// The template's bounds when known here: declared, or fixed by a `template_fix`
    /// met so far (C text).
    fn tbounds(&self, t: TemplId) -> Option<Vec<(String, String)>> {
        if let Some(b) = self.tfix.get(&t) {
            return Some(b.clone());
        }
        let dims = &self.m.templ(t).dims;
        dims.iter().map(|d| d.as_ref().map(|(l, h)| (self.ie(l), self.ie(h)))).collect()
    }
    /// The node set a template is distributed onto (C object).
    fn tonto(&self, t: TemplId) -> Option<String> {
        self.m.templ(t).dist.as_ref().and_then(|d| d.onto).map(|n| self.nname(n))
    }
    fn dist(&self, name: &str) -> Option<usize> {
        match self.lookup_var(name) {
            Some(Var::Dist(a)) => Some(*a),
            _ => None,
        }
    }
    fn declare(&mut self, syms: &SymbolTable, ids: &[usize]) {
        for &id in ids {
            let s = syms.get(id);
            let v = if s.sclass == StorageClass::Typedef { Var::Typedef(s.ty) } else { Var::Plain(s.ty) };
            self.scopes.last_mut().expect("a scope").vars.insert(s.name.clone(), v);
        }
    }

    // -------------------------------------------------------------- driver

    fn run(&mut self) {
        let unit = self.unit;
        let mut file_arrays: Vec<(usize, &Pragma)> = vec![];
        for it in &unit.items {
            match it {
                Item::Decl(s) => {
                    if let StmtKind::Decl(ids) = &s.kind {
                        self.declare(&unit.globals, ids);
                        self.member_vars(ids, s.span.end);
                    }
                }
                Item::Pragma(p) => self.file_pragma(p, &mut file_arrays),
                Item::Function(f) => self.function(f),
                Item::Verbatim(s) => self.verbatim_check(*s),
                Item::Module(_) => {}
            }
        }
        // Arrays aligned at file scope: create, shadow, allocate, read the layout.
        file_arrays.extend(std::mem::take(&mut self.member_arrays));
        for (a, p) in file_arrays {
            if self.arrs[a].deferred {
                continue; // created by template_fix
            }
            let code = self.create_array(a, p, "    ");
            self.init.push(code);
        }
        self.check_param_calls();
        self.finish();
    }

    fn finish(&mut self) {
        let unit = self.unit;
        let mut pre = String::new();
        let base = if self.src.starts_with('\u{feff}') { 3 } else { 0 };
        let _ = writeln!(pre, "/* Translated by xmpc from {}: XcalableMP directives became xmpc runtime calls. */", comment_safe(&unit.name));
        pre.push_str("#include \"xmpc_rt.h\"\n");
        if self.dev.used || self.src.contains("xmp_cpu_wtime") || self.src.contains("xmp_gpu_wtime") {
            pre.push_str("#include \"xmpc_dev.h\"\n");
        }
        if self.need_limits {
            pre.push_str("#include <limits.h>\n");
        }
        if self.need_typeof {
            pre.push_str(TYPEOF_MACRO);
        }
        if self.need_tbound {
            pre.push_str(param::TBOUND_MACRO);
        }
        for s in &self.statics {
            pre.push_str(s);
            pre.push('\n');
        }
        self.edits.push(Edit { span: Span::new(base, base), text: pre });

        let mut post = String::new();
        let end = self.src.len();
        if !self.src.ends_with('\n') {
            post.push('\n');
        }
        if !self.init.is_empty() {
            post.push_str("\n/* xmpc: this file's global nodes, templates and distributed arrays */\nstatic void _XMP_init_file(void)\n{\n");
            for s in &self.init {
                post.push_str(s);
                if !s.ends_with('\n') {
                    post.push('\n');
                }
            }
            post.push_str("}\n\n__attribute__((constructor)) static void _XMP_register_file(void)\n{\n    xmpc_register_file_init(_XMP_init_file);\n}\n");
        }
        // main → xmpc_user_main + a generated main.
        if let Some(f) = unit.functions().into_iter().find(|f| f.name == "main") {
            if !self.src.contains("MPI_Init") {
                self.edits.push(Edit { span: f.name_span, text: "xmpc_user_main".into() });
                let void_ret = matches!(f.ret.map(|t| unit.types.get(t)), Some(Type::Basic(b)) if b == "void");
                let args = match f.params.len() {
                    0 => "",
                    2 => "argc, argv",
                    _ => "argc, argv, envp",
                };
                let sig = if f.params.len() >= 3 { "int argc, char **argv, char **envp" } else { "int argc, char **argv" };
                post.push_str(&format!(
                    "\n/* xmpc: MPI start-up and shut-down around the program's main */\nint main({sig})\n{{\n    xmpc_init(&argc, &argv);\n"
                ));
                if f.params.is_empty() {
                    post.push_str("    (void)argc;\n    (void)argv;\n");
                }
                if void_ret {
                    post.push_str(&format!("    xmpc_user_main({args});\n    return xmpc_finalize(0);\n}}\n"));
                } else {
                    // C gives `main` an implicit `return 0` at its end; the renamed
                    // function would return garbage (the program's exit status).
                    let returns = matches!(f.body.last(), Some(Stmt { kind: StmtKind::Return(_), .. }));
                    let close = f.span.end.saturating_sub(1);
                    if !returns && self.src.as_bytes().get(close) == Some(&b'}') {
                        self.edits.push(Edit { span: Span::new(close, close), text: "  return 0; /* xmpc: main's implicit return */\n".into() });
                    }
                    post.push_str(&format!("    return xmpc_finalize(xmpc_user_main({args}));\n}}\n"));
                }
            }
        }
        if let Some(k) = self.device_kernels() {
            post.push_str(&k);
        }
        if !post.is_empty() {
            // `#line` directives would make the appended code point at the user's file.
            self.edits.push(Edit { span: Span::new(end, end), text: post });
        }
        self.edits.sort_by_key(|e| (e.span.start, e.span.end));
        // Two inserts at the same point (e.g. a for's end and a pragma's end) keep order.
    }

    fn verbatim_check(&mut self, s: Span) {
        let text = &self.src[s.range()];
        // Preprocessor lines other than `#define` cannot refer to an array; in a
        // `#define`, the macro's name and its own parameters are not references
        // (`#define CHECK(c) ...` beside a distributed `c`).
        let mut skip: Vec<std::ops::Range<usize>> = vec![];
        let mut own: Vec<(std::ops::Range<usize>, Vec<&str>)> = vec![];
        let mut pos = 0;
        let mut lines = text.split_inclusive('\n');
        while let Some(first) = lines.next() {
            let start = pos;
            pos += first.len();
            let t = first.trim_start();
            let Some(rest) = t.strip_prefix('#') else { continue };
            // The logical line: backslash-continued physical lines.
            let mut last = first;
            while last.trim_end_matches(['\n', '\r']).ends_with('\\') {
                let Some(next) = lines.next() else { break };
                pos += next.len();
                last = next;
            }
            let rest = rest.trim_start();
            let Some(def) = rest.strip_prefix("define").filter(|d| d.starts_with([' ', '\t'])) else {
                skip.push(start..pos);
                continue;
            };
            let def = def.trim_start();
            let name_len = def.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(def.len());
            let mut names = vec![&def[..name_len]];
            if let Some(params) = def[name_len..].strip_prefix('(') {
                if let Some(close) = params.find(')') {
                    names.extend(params[..close].split(',').map(str::trim).filter(|p| !p.is_empty()));
                }
            }
            own.push((start..pos, names));
        }
        // Struct/union/enum definitions and typedefs declare names; they use none.
        let head = text.trim_start();
        if ["struct", "union", "enum", "typedef"].iter().any(|k| head.starts_with(k)) {
            return;
        }
        for (off, w) in words(text) {
            if skip.iter().any(|r| r.contains(&off)) || own.iter().any(|(r, names)| r.contains(&off) && names.contains(&w)) {
                continue;
            }
            // A member name (`s.a`, `p->a`) is not the array.
            let before = text[..off].trim_end();
            if before.ends_with('.') || before.ends_with("->") {
                continue;
            }
            if let Some(a) = self.dist(w) {
                if self.arrs[a].pointer {
                    continue;
                }
                let sp = Span::new(s.start + off, s.start + off + w.len());
                self.error(
                    "XMP0305",
                    format!("distributed array `{w}` is used in code xmpc cannot translate"),
                    sp,
                    "inside a macro, an initialiser or a construct the C front end keeps as text",
                    Some("write the reference in plain C code (not in a macro body) so xmpc can map it to the local part".into()),
                );
                return;
            }
        }
    }

    // -------------------------------------------------------------- file-scope directives

    fn file_pragma(&mut self, p: &'a Pragma, arrays: &mut Vec<(usize, &'a Pragma)>) {
        let comment = self.dir_comment(p);
        match &p.dir.kind {
            DirectiveKind::Nodes { .. } | DirectiveKind::Template { .. } | DirectiveKind::Distribute { .. } => {
                if let Some(code) = self.decl_directive(p, true) {
                    self.init.push(format!("    {comment}\n{code}"));
                }
                self.edit(p.dir.span, comment);
            }
            DirectiveKind::Align { names, .. } => {
                for n in names {
                    let a = if n.name.contains('.') { self.member_directive(p, n, None) } else { self.align(p, n, true) };
                    if let Some(a) = a {
                        arrays.push((a, p));
                    }
                }
                self.edit(p.dir.span, comment);
            }
            DirectiveKind::Shadow { names, widths } => {
                for n in names {
                    if n.name.contains('.') {
                        self.member_directive(p, n, Some(widths));
                    } else {
                        self.shadow(n, widths);
                    }
                }
                self.edit(p.dir.span, comment);
            }
            DirectiveKind::StaticDesc { .. } => self.edit(p.dir.span, comment),
            DirectiveKind::Acc { .. } => {}
            _ => {
                let name = p.dir.name();
                self.error("XMP0303", format!("`{name}` cannot appear outside a function"), p.dir.name_span, "at file scope", None);
            }
        }
    }

    /// nodes/template/distribute: creates the object, returns the init code (file
    /// scope: assignment to the static; function: a declaration).
    fn decl_directive(&mut self, p: &Pragma, file_scope: bool) -> Option<String> {
        let loc = self.loc(p);
        let ind = "    ";
        let mut out = String::new();
        let declared: Vec<Entity> = self.m.declared_by(p).to_vec();
        match &p.dir.kind {
            DirectiveKind::Nodes { .. } => {
                for e in declared {
                    let Entity::Nodes(id) = e else { continue };
                    out.push_str(&self.nodes_code(id, &loc, file_scope, ind));
                }
            }
            DirectiveKind::Template { .. } => {
                for e in declared {
                    let Entity::Template(id) = e else { continue };
                    let cname = self.tname(id);
                    let tt = self.m.templ(id);
                    let fixed = tt.fixed() as i32;
                    let lo: Vec<String> = tt.dims.iter().map(|d| d.as_ref().map_or("0".into(), |b| self.ie(&b.0))).collect();
                    let hi: Vec<String> = tt.dims.iter().map(|d| d.as_ref().map_or("-1".into(), |b| self.ie(&b.1))).collect();
                    let lhs = if file_scope {
                        self.statics.push(format!("static xmpc_template *{cname};"));
                        cname.clone()
                    } else {
                        format!("xmpc_template *{cname}")
                    };
                    let _ = writeln!(
                        out,
                        "{ind}{lhs} = xmpc_template_new({loc}, {}, (const long[]){{{}}}, (const long[]){{{}}}, {fixed});",
                        lo.len(),
                        lo.join(", "),
                        hi.join(", ")
                    );
                }
            }
            DirectiveKind::Distribute { dists, .. } => {
                for e in declared {
                    let Entity::Template(ti) = e else { continue };
                    let Some(nodes) = self.tonto(ti) else { continue };
                    let code = self.distribute_code(p, ti, dists, &nodes, ind);
                    out.push_str(&code);
                }
            }
            _ => {}
        }
        Some(out)
    }

    /// `nodes p(...)` / `nodes q(...) = p(...)`: the node set's creation.
    fn nodes_code(&mut self, id: NodesId, loc: &str, file_scope: bool, ind: &str) -> String {
        let cname = self.nname(id);
        let nd = self.m.node(id);
        let sizes: Vec<String> = nd.sizes.iter().map(|x| x.as_ref().map_or("0".into(), |e| self.ie(e))).collect();
        let sz = format!("{{{}}}", sizes.join(", "));
        let mut out = String::new();
        let lhs = if file_scope {
            self.statics.push(format!("static xmpc_nodes *{cname};"));
            cname.clone()
        } else {
            format!("xmpc_nodes *{cname}")
        };
        match nd.map.clone() {
            NodesMap::Sub { parent, sels } => {
                let parent_c = self.nname(parent);
                let (lo, hi, st) = self.sel_triplets(parent, &sels);
                let _ = writeln!(
                    out,
                    "{ind}{{\n{ind}    const long _XMP_sizes[{n}] = {sz}, _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n{ind}    {cname} = xmpc_nodes_new_sub({loc}, {n}, _XMP_sizes, {parent_c}, _XMP_lo, _XMP_hi, _XMP_st);\n{ind}}}",
                    lo.join(", "),
                    hi.join(", "),
                    st.join(", "),
                    n = sizes.len(),
                );
                // `*` = this node's own coordinate: mark those parent dims (gmove
                // treats the family of sets as replicas)
                for (d, s) in sels.iter().enumerate() {
                    if *s == on_ref::NodeSel::Own {
                        let _ = writeln!(out, "{ind}xmpc_nodes_mark_per_node({cname}, {d});");
                    }
                }
                if !file_scope {
                    out = format!("{ind}xmpc_nodes *{cname};\n{out}");
                }
            }
            NodesMap::Executing => {
                let _ = writeln!(out, "{ind}{lhs} = xmpc_nodes_new({loc}, {}, (const long[]){sz});", sizes.len());
            }
        }
        out
    }

    fn distribute_code(&mut self, p: &Pragma, ti: TemplId, dists: &xmpc_ir::directive::DistList, nodes: &str, ind: &str) -> String {
        let loc = self.loc(p);
        let mut formats = vec![];
        let mut args = vec![];
        let mut gb = vec![];
        let mut node_dim = 0;
        for d in &dists.dists {
            let (f, a) = match d.format {
                DistFormat::Dup => ("XMPC_DIST_DUP", "0".to_string()),
                DistFormat::Block => ("XMPC_DIST_BLOCK", d.arg.as_ref().map_or("0".into(), c_expr)),
                DistFormat::Cyclic => ("XMPC_DIST_CYCLIC", d.arg.as_ref().map_or("1".into(), c_expr)),
                DistFormat::GBlock => ("XMPC_DIST_GBLOCK", "0".into()),
            };
            formats.push(f);
            args.push(a);
            if d.format == DistFormat::GBlock {
                match &d.arg {
                    Some(e) if !matches!(e.kind, ExprKind::Star) => gb.push(Some((node_dim, c_expr(e)))),
                    _ => gb.push(None),
                }
            } else {
                gb.push(None);
            }
            if d.format != DistFormat::Dup {
                node_dim += 1;
            }
        }
        if dists.dists.iter().any(|d| d.format == DistFormat::GBlock && d.arg.as_ref().is_none_or(|a| matches!(a.kind, ExprKind::Star))) {
            return format!("{ind}/* gblock(*): distributed by template_fix with its mapping array */\n");
        }
        let t = self.tname(ti);
        let mut out =
            format!("{ind}{{\n{ind}    const int _XMP_formats[] = {{{}}};\n{ind}    const long _XMP_args[] = {{{}}};\n", formats.join(", "), args.join(", "));
        if gb.iter().any(|g| g.is_some()) {
            let mut maps = vec![];
            for (k, g) in gb.iter().enumerate() {
                match g {
                    Some((nd, m)) => {
                        // gblock(m): the runtime takes `long` sizes; the user's array may be int.
                        let _ = writeln!(
                            out,
                            "{ind}    long _XMP_gblock{k}[xmpc_nodes_dim_size({nodes}, {nd})];\n{ind}    for (int _XMP_q = 0; _XMP_q < xmpc_nodes_dim_size({nodes}, {nd}); _XMP_q++)\n{ind}        _XMP_gblock{k}[_XMP_q] = {m}[_XMP_q];"
                        );
                        maps.push(format!("_XMP_gblock{k}"));
                    }
                    None => maps.push("NULL".into()),
                }
            }
            let _ = writeln!(out, "{ind}    const long *const _XMP_maps[] = {{{}}};", maps.join(", "));
            let _ = writeln!(out, "{ind}    xmpc_distribute({loc}, {t}, {nodes}, _XMP_formats, _XMP_args, _XMP_maps);\n{ind}}}");
        } else {
            let _ = writeln!(out, "{ind}    xmpc_distribute({loc}, {t}, {nodes}, _XMP_formats, _XMP_args, NULL);\n{ind}}}");
        }
        out
    }

    /// Node reference subscripts → 1-based lo/hi/st (st 0 = the whole dimension),
    /// resolved by [`on_ref::node_sels`].
    fn triplets(&mut self, r: &Ref, parent: NodesId) -> Option<(Vec<String>, Vec<String>, Vec<String>)> {
        let sels = on_ref::node_sels(r, parent);
        Some(self.sel_triplets(parent, &sels))
    }

    fn sel_triplets(&self, parent: NodesId, sels: &[on_ref::NodeSel]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        let pc = self.nname(parent);
        for (d, s) in sels.iter().enumerate() {
            match s {
                on_ref::NodeSel::Whole => {
                    lo.push("1".into());
                    hi.push(format!("xmpc_nodes_dim_size({pc}, {d})"));
                    st.push("0".into());
                }
                on_ref::NodeSel::Own => {
                    let me = format!("xmpc_nodes_coord({pc}, {d}) + 1");
                    lo.push(me.clone());
                    hi.push(me);
                    st.push("1".into());
                }
                on_ref::NodeSel::Range { lo: l, hi: h, st: t } => {
                    lo.push(self.ie(l));
                    hi.push(self.ie(h));
                    st.push(self.ie(t));
                }
            }
        }
        (lo, hi, st)
    }

    /// `on`/`from` clause naming a node set: the C expression of the nodes object
    /// (a subset is created once and cached when its bounds are constant).
    fn on_nodes(&mut self, p: &Pragma, r: &Ref) -> Option<(String, String)> {
        let Some(ni) = self.lookup_nodes(&r.name) else {
            if let Some(ti) = self.lookup_templ(&r.name) {
                let t = self.tname(ti);
                if r.subs.is_none() {
                    return Some((String::new(), format!("xmpc_template_nodes({t})")));
                }
                return Some(self.on_template(p, r, &t));
            }
            self.error("XMP0101", format!("node set or template `{}` is not declared", r.name.name), r.name.span, "unknown", None);
            return None;
        };
        let parent = self.nname(ni);
        if r.subs.is_none() {
            return Some((String::new(), parent));
        }
        let (lo, hi, st) = self.triplets(r, ni)?;
        let loc = self.loc(p);
        let nd = lo.len();
        let sizes: Vec<String> = (0..nd)
            .map(|d| {
                if st[d] == "0" {
                    format!("xmpc_nodes_dim_size({parent}, {d})")
                } else {
                    format!("({} - {}) / {} + 1", paren(&hi[d]), paren(&lo[d]), paren(&st[d]))
                }
            })
            .collect();
        let constant = r.subs.iter().flatten().all(|s| !self.mentions_vars(s)) && self.m.node(ni).site == MSite::File;
        let line = self.line_of(p.dir.span.start);
        self.uniq += 1;
        let name = format!("_XMP_ON_{line}_{}", self.uniq);
        let mut pre = String::new();
        if constant {
            self.statics.push(format!("static xmpc_nodes *{name};"));
            let _ = write!(
                pre,
                "if (!{name}) {{\n        const long _XMP_sizes[] = {{{}}}, _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n        {name} = xmpc_nodes_new_sub({loc}, {nd}, _XMP_sizes, {parent}, _XMP_lo, _XMP_hi, _XMP_st);\n    }}",
                sizes.join(", "),
                lo.join(", "),
                hi.join(", "),
                st.join(", ")
            );
        } else {
            let _ = write!(
                pre,
                "const long _XMP_sizes[] = {{{}}}, _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n    xmpc_nodes *const {name} = xmpc_nodes_new_sub({loc}, {nd}, _XMP_sizes, {parent}, _XMP_lo, _XMP_hi, _XMP_st);",
                sizes.join(", "),
                lo.join(", "),
                hi.join(", "),
                st.join(", ")
            );
        }
        Some((pre, name))
    }

    /// `on t[...]` (bcast, reduction, barrier): the nodes owning the referenced
    /// template indices ([`on_ref::templ_sels`]); the runtime caches the node set per
    /// selection, so the call is made each time the directive runs.
    fn on_template(&mut self, p: &Pragma, r: &Ref, t: &str) -> (String, String) {
        let loc = self.loc(p);
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for s in on_ref::templ_sels(r) {
            match s {
                on_ref::TemplSel::Whole => {
                    lo.push("0".into());
                    hi.push("0".into());
                    st.push("0".into());
                }
                on_ref::TemplSel::Range { lo: l, hi: h, st: k } => {
                    if l.is_none() || h.is_none() {
                        self.need_limits = true;
                    }
                    lo.push(l.map_or_else(|| "LONG_MIN".into(), |l| self.ie(&l)));
                    hi.push(h.map_or_else(|| "LONG_MAX".into(), |h| self.ie(&h)));
                    st.push(self.ie(&k));
                }
            }
        }
        let line = self.line_of(p.dir.span.start);
        self.uniq += 1;
        let name = format!("_XMP_ON_{line}_{}", self.uniq);
        let pre = format!(
            "const long _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n    const xmpc_nodes *const {name} = xmpc_template_nodes_sub({loc}, {t}, _XMP_lo, _XMP_hi, _XMP_st);",
            lo.join(", "),
            hi.join(", "),
            st.join(", ")
        );
        (pre, name)
    }

    fn mentions_vars(&self, s: &xmpc_ir::directive::Sub) -> bool {
        let mut found = false;
        let mut f = |e: &Expr| {
            walk_expr(e, &mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    if self.lookup_var(n).is_some() {
                        found = true;
                    }
                }
            })
        };
        match &s.kind {
            SubKind::Expr(e) => f(e),
            SubKind::Triplet { lower, upper, stride } => {
                for e in [lower, upper, stride].into_iter().flatten() {
                    f(e);
                }
            }
            SubKind::Star => {}
        }
        found
    }

    // -------------------------------------------------------------- arrays

    /// `align A[...] with T(...)`: records the array as distributed. Returns its index.
    fn align(&mut self, p: &Pragma, n: &Name, file_scope: bool) -> Option<usize> {
        let DirectiveKind::Align { with, .. } = &p.dir.kind else { return None };
        if self.lookup_templ(&with.name).is_none() {
            self.error("XMP0102", format!("template `{}` is not declared", with.name.name), with.name.span, "unknown template", None);
            return None;
        }
        // Find the array's symbol in the innermost scope that has it.
        let (sym, global): (Symbol, bool) = match self.find_symbol(&n.name, file_scope, n.span.start) {
            Some(x) => x,
            None => {
                self.error("XMP0103", format!("array `{}` is not declared", n.name), n.span, "unknown array", None);
                return None;
            }
        };
        let param = sym.sclass == StorageClass::Param && !file_scope;
        if sym.sclass == StorageClass::Extern || (sym.sclass == StorageClass::Param && !param) || (!global && sym.sclass == StorageClass::Static) {
            self.error(
                "XMP0303",
                format!(
                    "aligning `{}` ({}) is not supported",
                    n.name,
                    match sym.sclass {
                        StorageClass::Extern => "an `extern` declaration",
                        StorageClass::Param => "a function parameter",
                        _ => "a `static` local",
                    }
                ),
                n.span,
                "here",
                Some("align the array where it is defined (file scope or an automatic local)".into()),
            );
            return None;
        }
        if sym.init.is_some() {
            self.error(
                "XMP0303",
                format!("distributed array `{}` cannot have an initialiser", n.name),
                sym.span,
                "initialised here",
                Some("initialise it in a `loop` instead".into()),
            );
            return None;
        }
        if param {
            return self.align_param(p, n, sym.ty);
        }
        self.align_ty(p, n, sym.ty, global, Site::Decl(sym.span))
    }

    /// The part of `align` that follows the array's type: `n` names the array (a
    /// variable, or a member `s.a` whose storage pointer is declared at `site`).
    fn align_ty(&mut self, p: &Pragma, n: &Name, ty: TypeId, global: bool, site: Site) -> Option<usize> {
        let DirectiveKind::Align { source, with, .. } = &p.dir.kind else { return None };
        let ti = self.lookup_templ(&with.name)?;
        // A member `s.a` is spelled `s__a` in generated names.
        let cname = n.name.replace('.', "__");
        // A pointer array: `T *a` (1-D) or `T (*a)[M]...` (the rows' extents declared).
        let mut row_extents: Vec<String> = vec![];
        let mut first_extent = None;
        let (pointer, extents): (bool, Vec<String>) = match self.unit_type(ty) {
            // A parameter `T b[N][M]` is a pointer to the caller's block.
            Type::Array { dims, .. } if matches!(site, Site::Param) => {
                let ext: Vec<String> = dims.iter().map(|d| d.upper.as_ref().map_or(String::new(), c_expr)).collect();
                first_extent = ext.first().filter(|e| !e.is_empty()).cloned();
                row_extents = ext.into_iter().skip(1).collect();
                (true, vec![])
            }
            Type::Array { dims, .. } => (false, dims.iter().map(|d| d.upper.as_ref().map_or(String::new(), c_expr)).collect()),
            Type::Pointer(to) => {
                if let Type::Array { dims, .. } = self.unit_type(to) {
                    row_extents = dims.iter().map(|d| d.upper.as_ref().map_or(String::new(), c_expr)).collect();
                }
                (true, vec![])
            }
            _ => {
                self.error("XMP0303", format!("`{}` is not an array or pointer", n.name), n.span, "cannot be aligned", None);
                return None;
            }
        };
        let ndims = if pointer { 1 + row_extents.len() } else { extents.len() };
        if extents.iter().chain(&row_extents).any(|e| e.is_empty()) || ndims != source.len() {
            self.error(
                "XMP0303",
                format!("`{}`: the align source must list one subscript per array dimension with known extents", n.name),
                n.span,
                "here",
                None,
            );
            return None;
        }
        // align_dim / offsets.
        let subs = with.subs.clone().unwrap_or_default();
        let mut align_dim = vec![];
        let mut align_off = vec![];
        let mut colon_k = 0;
        for s in source {
            match s {
                AlignSrc::Index(v) => {
                    let mut found = None;
                    for (k, sub) in subs.iter().enumerate() {
                        if let SubKind::Expr(e) = &sub.kind {
                            if let Some(off) = index_offset(e, &v.name) {
                                found = Some((k, off));
                            }
                        }
                    }
                    match found {
                        Some((k, off)) => {
                            align_dim.push(k as i64);
                            align_off.push(off);
                        }
                        None => {
                            align_dim.push(-1);
                            align_off.push("0".into());
                        }
                    }
                }
                AlignSrc::Star(_) => {
                    align_dim.push(-1);
                    align_off.push("0".into());
                }
                AlignSrc::Colon(_) => {
                    let mut seen = 0;
                    let mut found = -1;
                    for (k, sub) in subs.iter().enumerate() {
                        if matches!(&sub.kind, SubKind::Triplet { lower: None, upper: None, .. }) {
                            if seen == colon_k {
                                found = k as i64;
                            }
                            seen += 1;
                        }
                    }
                    colon_k += 1;
                    align_dim.push(found);
                    align_off.push("0".into());
                }
            }
        }
        let dists = self.tdists(ti);
        let fmts: Vec<Fmt> = align_dim
            .iter()
            .map(|&k| {
                if k < 0 {
                    return Fmt::Linear;
                }
                match dists.as_ref().and_then(|d| d.get(k as usize)) {
                    Some((DistFormat::Cyclic, false)) => Fmt::Cyclic,
                    Some((DistFormat::Cyclic, true)) | None => Fmt::General,
                    Some(_) => Fmt::Linear,
                }
            })
            .collect();
        let extents = if pointer {
            // The extent follows the template: upper - offset + 1.
            match &self.tbounds(ti) {
                // a parameter declared `T b[N]...`
                _ if first_extent.is_some() => vec![first_extent.clone().unwrap_or_default()],
                Some(b) if align_dim[0] >= 0 && (align_dim[0] as usize) < b.len() => {
                    vec![format!("{} + 1", paren(&plus_str(&b[align_dim[0] as usize].1, &align_off[0], true)))]
                }
                // a parameter: the template was fixed by the caller
                _ if matches!(site, Site::Param) && align_dim[0] >= 0 => {
                    self.need_tbound = true;
                    let t = &self.tname(ti);
                    vec![format!("{} + 1", paren(&plus_str(&format!("_XMP_tub({t}, {})", align_dim[0] + 1), &align_off[0], true)))]
                }
                _ => vec![String::new()],
            }
            .into_iter()
            .chain(row_extents)
            .collect()
        } else {
            extents
        };
        let lay = if global { cname.clone() } else { format!("{}_{}", cname, self.line_of(p.dir.span.start)) };
        // a multi-dimensional pointer array is addressed through a flat element pointer
        let storage = match (pointer, ndims) {
            (true, 1) => n.name.clone(),
            (true, _) => format!("((__typeof__(&{}{}))({}))", n.name, "[0]".repeat(ndims), n.name),
            (false, _) => format!("_XMP_ADDR_{}", cname),
        };
        let desc = format!("_XMP_DESC_{}", cname);
        let idx = self.arrs.len();
        self.arrs.push(ArrInfo {
            name: n.name.clone(),
            storage,
            desc: desc.clone(),
            lay: lay.clone(),
            ndims,
            fmts,
            global,
            pointer,
            templ: ti,
            align_dim,
            align_off,
            extents,
            shadow: vec![("0".into(), "0".into(), false); ndims],
            has_shadow: false,
            deferred: self.tbounds(ti).is_none() && !matches!(site, Site::Param),
            param: matches!(site, Site::Param),
            late: false,
            used: false,
        });
        match site {
            // Rewrite the declaration: `double a[N][M]` → `double *_XMP_ADDR_a`.
            Site::Decl(span) if !pointer => {
                let end = declarator_end(self.src, span.end);
                // `restrict` on the file-scope pointer: distinct distributed arrays never
                // overlap, and GCC then vectorises / turns row copies into memcpy at -O2
                // exactly as it does for plain C arrays (a local copy is ignored by GCC).
                let text = if global { format!("*restrict _XMP_ADDR_{}", n.name) } else { format!("*_XMP_ADDR_{}", n.name) };
                self.edit(Span::new(span.start, end), text);
            }
            Site::Decl(_) | Site::Param => {}
            // A structure member: the member stays in the structure (unused); the
            // node's part is a separate pointer declared after the variable.
            Site::After(at) => {
                let (var, field) = n.name.split_once('.').unwrap_or((&n.name, ""));
                let text = format!(
                    " static __typeof__({var}.{field}{}) *restrict _XMP_ADDR_{cname}; /* xmpc: the node's part of `{}` */",
                    "[0]".repeat(ndims),
                    n.name
                );
                self.edit(Span::new(at, at), text);
            }
        }
        if global {
            self.statics.push(format!("static xmpc_array *{desc};"));
        }
        // File-scope arrays, and arrays whose layout is read where they are created (a
        // pointer array, or one whose template `template_fix` fixes later): the layout
        // lives in file statics (`_XMP_G_...`, unique per array).
        if global || pointer || self.arrs[idx].deferred {
            let mut vars = vec![];
            for d in 0..ndims {
                vars.push(format!("_XMP_G_{lay}_off{d}"));
                if d + 1 < ndims {
                    vars.push(format!("_XMP_G_{lay}_str{d}"));
                }
                match self.arrs[idx].fmts[d] {
                    Fmt::Linear => {}
                    Fmt::Cyclic => vars.push(format!("_XMP_G_{lay}_np{d}")),
                    Fmt::General => {
                        vars.push(format!("_XMP_G_{lay}_w{d}"));
                        vars.push(format!("_XMP_G_{lay}_wp{d}"));
                    }
                }
            }
            self.statics.push(format!("static long {};", vars.join(", ")));
        }
        // The array is distributed from now on in its scope.
        let scope = if global { 0 } else { self.scopes.len() - 1 };
        let target = (0..=scope).rev().find(|&k| self.scopes[k].vars.contains_key(&n.name)).unwrap_or(scope);
        self.scopes[target].vars.insert(n.name.clone(), Var::Dist(idx));
        Some(idx)
    }

    fn unit_type(&self, t: TypeId) -> Type {
        self.unit.types.get(t).clone()
    }

    /// The symbol `name` means at offset `at`: inside a function, the local declared
    /// (before `at`, with the type bound in the open scopes) that is visible there, not
    /// a later one of the same name in a nested block; else the file-scope one.
    fn find_symbol(&self, name: &str, file_scope: bool, at: usize) -> Option<(Symbol, bool)> {
        if !file_scope {
            if let Some(f) = self.cur_fn {
                let bound = self.scopes.iter().skip(1).rev().find_map(|s| s.vars.get(name));
                let visible = |s: &&Symbol| s.name == name && s.span.start <= at;
                let found = match bound {
                    Some(Var::Plain(ty)) => f.symbols.symbols.iter().rev().find(|s| visible(s) && s.ty == *ty),
                    // not declared in an open scope of the function: the file-scope one
                    None => None,
                    Some(_) => f.symbols.symbols.iter().rev().find(visible),
                };
                if let Some(s) = found {
                    return Some((s.clone(), false));
                }
            }
        }
        self.unit.globals.symbols.iter().rev().find(|s| s.name == name).map(|s| (s.clone(), true))
    }

    fn shadow(&mut self, n: &Name, widths: &[ShadowWidth]) {
        let Some(a) = self.dist(&n.name) else {
            self.error("XMP0109", format!("`{}` is not aligned with a template", n.name), n.span, "not a distributed array", None);
            return;
        };
        let mut sh = vec![];
        for w in widths {
            match w {
                ShadowWidth::Full(_) => sh.push(("0".into(), "0".into(), true)),
                ShadowWidth::Width(w) => sh.push((c_expr(&w.lower), c_expr(&w.upper), false)),
            }
        }
        if sh.len() == self.arrs[a].ndims {
            if self.arrs[a].used && sh != self.arrs[a].shadow {
                self.error(
                    "XMP0303",
                    format!("`shadow` of `{}` after the array is used", n.name),
                    n.span,
                    "the references before it were translated without this shadow",
                    Some("put the `shadow` directive right after the `align` directive".into()),
                );
                return;
            }
            // A full shadow on a cyclic dimension: every node stores the whole
            // dimension, indexed by the global index (the runtime's layout: offset 0).
            for (d, s) in sh.iter().enumerate() {
                if s.2 {
                    self.arrs[a].fmts[d] = Fmt::Linear;
                }
            }
            self.arrs[a].shadow = sh;
            self.arrs[a].has_shadow = true;
        }
    }

    /// Creation of an array: new (+ shadow) (+ alloc unless a pointer array) + layout.
    fn create_array(&mut self, a: usize, p: &Pragma, ind: &str) -> String {
        let loc = self.loc(p);
        let ar = self.arrs[a].clone();
        let t = self.tname(ar.templ);
        let elem = format!("sizeof(*{})", ar.storage);
        let mut out = String::new();
        let decl = if ar.global { String::new() } else { "xmpc_array *".to_string() };
        let _ = writeln!(
            out,
            "{ind}{decl}{} = xmpc_array_new({loc}, {t}, {}, {elem}, (const long[]){{{}}}, (const int[]){{{}}}, (const long[]){{{}}});",
            ar.desc,
            ar.ndims,
            ar.extents.join(", "),
            ar.align_dim.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "),
            ar.align_off.join(", ")
        );
        if ar.has_shadow {
            let lo: Vec<&str> = ar.shadow.iter().map(|s| s.0.as_str()).collect();
            let hi: Vec<&str> = ar.shadow.iter().map(|s| s.1.as_str()).collect();
            let full: Vec<&str> = ar.shadow.iter().map(|s| if s.2 { "1" } else { "0" }).collect();
            let _ = writeln!(
                out,
                "{ind}xmpc_array_shadow({loc}, {}, (const long[]){{{}}}, (const long[]){{{}}}, (const int[]){{{}}});",
                ar.desc,
                lo.join(", "),
                hi.join(", "),
                full.join(", ")
            );
        }
        if ar.param {
            out.push_str(&param::view(&ar, &loc, ind));
        } else if !ar.pointer {
            let _ = writeln!(out, "{ind}{} = xmpc_array_alloc({loc}, {});", ar.storage, ar.desc);
        }
        if ar.global || ar.pointer || ar.deferred {
            out.push_str(&self.layout_load(a, ind, &format!("_XMP_G_{}_", ar.lay), None));
        }
        out
    }

    /// Reads the layout of array `a` into variables `{prefix}off0`...; `only` limits
    /// it to the variables a function uses (local arrays declare them `const long`).
    fn layout_load(&self, a: usize, ind: &str, prefix: &str, only: Option<&BTreeSet<String>>) -> String {
        let ar = &self.arrs[a];
        let n = ar.ndims;
        let mut out = String::new();
        let dv = format!("_XMP_{}_dim", ar.lay);
        let want = |v: &str| only.is_none_or(|s| s.contains(v));
        let decl = if only.is_some() { "const long " } else { "" };
        let mut body = String::new();
        for d in 0..n {
            let v = format!("off{d}");
            if want(&v) {
                let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {dv}[{d}].offset;");
            }
            if d + 1 < n {
                let v = format!("str{d}");
                if want(&v) {
                    let prod: Vec<String> = (d + 1..n).map(|k| format!("{dv}[{k}].alloc")).collect();
                    let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {};", prod.join(" * "));
                }
            }
            match ar.fmts[d] {
                Fmt::Linear => {}
                Fmt::Cyclic => {
                    let v = format!("np{d}");
                    if want(&v) {
                        let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {dv}[{d}].procs;");
                    }
                }
                Fmt::General => {
                    for (v, e) in [(format!("w{d}"), format!("{dv}[{d}].width")), (format!("wp{d}"), format!("{dv}[{d}].width * {dv}[{d}].procs"))] {
                        if want(&v) {
                            let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {e};");
                        }
                    }
                }
            }
        }
        if body.is_empty() {
            return out;
        }
        if only.is_none() {
            let _ = writeln!(out, "{ind}{{");
            let _ = writeln!(out, "{ind}    xmpc_dim {dv}[{n}];");
            for d in 0..n {
                let _ = writeln!(out, "{ind}    xmpc_array_dim({}, {d}, &{dv}[{d}]);", ar.desc);
            }
            for l in body.lines() {
                let _ = writeln!(out, "    {l}");
            }
            let _ = writeln!(out, "{ind}}}");
        } else {
            let _ = writeln!(out, "{ind}xmpc_dim {dv}[{n}];");
            for d in 0..n {
                let _ = writeln!(out, "{ind}xmpc_array_dim({}, {d}, &{dv}[{d}]);", ar.desc);
            }
            out.push_str(&body);
        }
        out
    }

    /// True when a text names no C variable in scope (literals, macros, enumerators):
    /// a value fixed when the program is compiled.
    fn const_text(&self, t: &str) -> bool {
        words(t).iter().all(|(_, w)| self.lookup_var(w).is_none())
    }

    /// An array dim that is not distributed (aligned with `*`, or with a template dim
    /// distributed `*`) and whose extent and shadow widths are compile-time constants:
    /// its layout is then known to the translator (the runtime's DUP layout: offset
    /// `-shadow_lo`, alloc `extent + shadow_lo + shadow_hi`). Returns (shadow_lo, alloc).
    fn static_dim(&self, a: usize, d: usize) -> Option<(String, String)> {
        let ar = &self.arrs[a];
        if ar.pointer || ar.deferred || ar.late || ar.fmts[d] != Fmt::Linear {
            return None;
        }
        let (lo, hi, full) = &ar.shadow[d];
        if *full {
            return None;
        }
        let k = ar.align_dim[d];
        if k >= 0 {
            let dup = self.tdists(ar.templ).as_ref().and_then(|v| v.get(k as usize)).is_some_and(|x| x.0 == DistFormat::Dup);
            if !dup {
                return None;
            }
        }
        let ext = ar.extents.get(d)?;
        if ext.is_empty() || ![ext, lo, hi].iter().all(|t| self.const_text(t)) {
            return None;
        }
        // A macro may expand to `N + 1`: parenthesise everything but a literal.
        let lit = |t: &str| if t.trim().bytes().all(|b| b.is_ascii_digit()) { t.trim().to_string() } else { format!("({})", t.trim()) };
        let alloc = if lo == "0" && hi == "0" { lit(ext) } else { format!("({} + {} + {})", lit(ext), lit(lo), lit(hi)) };
        let lo = if lo == "0" { lo.clone() } else { lit(lo) };
        Some((lo, alloc))
    }

    /// The array whose layout variables `a` uses: the first file-scope array with the
    /// same mapping (template, alignment, extents, shadows), so arrays distributed
    /// alike share one set of offsets/strides (fewer live values in a loop nest).
    fn layout_rep(&self, a: usize) -> usize {
        let ar = &self.arrs[a];
        if !ar.global || ar.pointer || ar.deferred || ar.late {
            return a;
        }
        let same = |b: &ArrInfo| {
            b.global
                && !b.pointer
                && !b.deferred
                && !b.late
                && b.templ == ar.templ
                && b.ndims == ar.ndims
                && b.fmts == ar.fmts
                && b.align_dim == ar.align_dim
                && b.align_off == ar.align_off
                && b.extents == ar.extents
                && b.shadow == ar.shadow
        };
        (0..a).find(|&b| same(&self.arrs[b])).unwrap_or(a)
    }

    /// A local access `storage[linear]` for global index texts `idx`.
    fn access(&mut self, a: usize, idx: &[String]) -> String {
        let ar = self.arrs[a].clone();
        let direct = ar.pointer || ar.deferred || ar.late;
        let rep = self.layout_rep(a);
        let lay = self.arrs[rep].lay.clone();
        let stat: Vec<Option<(String, String)>> = (0..ar.ndims).map(|d| self.static_dim(a, d)).collect();
        if rep != a || stat.iter().any(Option::is_some) {
            // The text now depends on the shadows known here.
            self.arrs[a].used = true;
            self.arrs[rep].used = true;
        }
        let mut used = vec![];
        let mut var = |v: String| -> String {
            used.push(v.clone());
            if direct {
                format!("_XMP_G_{lay}_{v}")
            } else {
                format!("_XMP_{lay}_{v}")
            }
        };
        let mut terms = vec![];
        for (d, g) in idx.iter().enumerate() {
            let g = paren(g);
            let l = match (&stat[d], ar.fmts[d]) {
                (Some((slo, _)), _) if slo == "0" => g.clone(),
                (Some((slo, _)), _) => format!("{g} + {slo}"),
                (None, Fmt::Linear) => format!("{g} - {}", var(format!("off{d}"))),
                (None, Fmt::Cyclic) => {
                    let off = var(format!("off{d}"));
                    format!("({g} - {off}) / {}", var(format!("np{d}")))
                }
                (None, Fmt::General) => {
                    let off = var(format!("off{d}"));
                    let w = var(format!("w{d}"));
                    let wp = var(format!("wp{d}"));
                    format!("({g} - {off}) / {wp} * {w} + ({g} - {off}) % {w}")
                }
            };
            if d + 1 < ar.ndims {
                // The stride is a constant when every later dim's layout is.
                let str_d = match stat[d + 1..].iter().map(|s| s.as_ref().map(|x| x.1.clone())).collect::<Option<Vec<String>>>() {
                    // `long`: the index of a large array may not fit an int.
                    Some(allocs) => format!("(long){}", allocs.join(" * ")),
                    None => var(format!("str{d}")),
                };
                terms.push(format!("({l}) * {str_d}"));
            } else {
                terms.push(l);
            }
        }
        if !direct {
            if let Some(f) = &mut self.fctx {
                let set = f.used.entry(rep).or_default();
                set.extend(used);
            }
        }
        format!("{}[{}]", ar.storage, terms.join(" + "))
    }
}

const TYPEOF_MACRO: &str = "#define _XMP_TYPE_OF(x) _Generic((x), char: XMPC_TYPE_CHAR, signed char: XMPC_TYPE_CHAR, unsigned char: XMPC_TYPE_UCHAR, \\
    short: XMPC_TYPE_SHORT, unsigned short: XMPC_TYPE_USHORT, int: XMPC_TYPE_INT, unsigned int: XMPC_TYPE_UINT, \\
    long: XMPC_TYPE_LONG, unsigned long: XMPC_TYPE_ULONG, long long: XMPC_TYPE_LONGLONG, unsigned long long: XMPC_TYPE_ULONGLONG, \\
    float: XMPC_TYPE_FLOAT, double: XMPC_TYPE_DOUBLE, long double: XMPC_TYPE_LONGDOUBLE, _Bool: XMPC_TYPE_BOOL, \\
    float _Complex: XMPC_TYPE_FLOAT_COMPLEX, double _Complex: XMPC_TYPE_DOUBLE_COMPLEX)\n";

/// Template shape → (bounds when fixed, lower texts, upper texts).
#[allow(clippy::type_complexity)]
fn shape_bounds(shape: &TemplateShape) -> (Option<Vec<(String, String)>>, Vec<String>, Vec<String>) {
    let mut b = vec![];
    let mut lo = vec![];
    let mut hi = vec![];
    let mut fixed = true;
    for d in &shape.dims {
        match &d.bounds {
            Some((l, u)) => {
                let (l, u) = (c_expr(l), c_expr(u));
                lo.push(l.clone());
                hi.push(u.clone());
                b.push((l, u));
            }
            None => {
                fixed = false;
                lo.push("0".into());
                hi.push("-1".into());
            }
        }
    }
    (fixed.then_some(b), lo, hi)
}

fn plus_str(a: &str, off: &str, minus: bool) -> String {
    if off == "0" {
        return a.to_string();
    }
    format!("{} {} {}", paren(a), if minus { "-" } else { "+" }, paren(off))
}

/// `i`, `i + c`, `i - c`, `c + i` → the offset text.
fn index_offset(e: &Expr, var: &str) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) if n == var => Some("0".into()),
        ExprKind::Binary(xmpc_ir::BinOp::Add, a, b) => {
            if a.ident() == Some(var) {
                Some(c_expr(b))
            } else if b.ident() == Some(var) {
                Some(c_expr(a))
            } else {
                None
            }
        }
        ExprKind::Binary(xmpc_ir::BinOp::Sub, a, b) if a.ident() == Some(var) => Some(format!("-{}", paren(&c_expr(b)))),
        _ => None,
    }
}

/// End of a declarator's array part: `a[N][M]` from the name's end.
fn declarator_end(src: &str, mut i: usize) -> usize {
    let b = src.as_bytes();
    loop {
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < b.len() && b[j] == b'[' {
            let mut depth = 0;
            while j < b.len() {
                if b[j] == b'[' {
                    depth += 1;
                } else if b[j] == b']' {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            if j >= b.len() {
                // an unclosed `[` (the C parser recovered around it): the declarator
                // ends at the name, never past the end of the file
                return i;
            }
            i = j + 1;
        } else {
            return i;
        }
    }
}

/// Identifier words of a text with their offsets (comments and strings skipped roughly).
fn words(text: &str) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if b[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((s, &text[s..i]));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

pub(crate) fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::SizeOf(a) => walk_expr(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::Call(c, args) => {
            walk_expr(c, f);
            args.iter().for_each(|a| walk_expr(a, f));
        }
        ExprKind::Member { base, .. } => walk_expr(base, f),
        ExprKind::Cond(a, b, c) => {
            walk_expr(a, f);
            walk_expr(b, f);
            walk_expr(c, f);
        }
        ExprKind::Triplet(a, b, c) => {
            for x in [a, b, c].into_iter().flatten() {
                walk_expr(x, f);
            }
        }
        _ => {}
    }
}

mod loop_ref;
mod member;
mod param;
mod stmt;
mod xacc;
