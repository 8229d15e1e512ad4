//! XcodeML-like XML dump of the IR (`xmpc --emit=xcodeml`). Element names follow
//! Omni's XcodeML where a concept maps (C: `forStatement`, Fortran: `FdoStatement`, ...);
//! the schema is documented in `docs/xcodeml.md`.

use crate::*;
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

/// Dumps a whole program.
pub fn dump(program: &Program, sources: &[&str]) -> String {
    let mut x = Xml { w: Writer::new_with_indent(Vec::new(), b' ', 2), lines: Vec::new(), fortran: false };
    for (unit, src) in program.files.iter().zip(sources) {
        x.unit(unit, src);
    }
    let mut s = String::from_utf8(x.w.into_inner()).expect("quick-xml writes UTF-8");
    s.push('\n');
    s
}

struct Xml {
    w: Writer<Vec<u8>>,
    /// Byte offset of each line start, for `lineno` attributes.
    lines: Vec<usize>,
    fortran: bool,
}

// Writing into a Vec cannot fail; quick-xml still returns io::Result.
const MEM: &str = "writing XML into memory cannot fail";

impl Xml {
    fn open(&mut self, name: &str, attrs: &[(&str, &str)]) {
        let e = BytesStart::new(name).with_attributes(attrs.iter().copied());
        self.w.write_event(Event::Start(e)).expect(MEM);
    }
    fn close(&mut self, name: &str) {
        self.w.write_event(Event::End(BytesEnd::new(name))).expect(MEM);
    }
    fn leaf(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.open(name, attrs);
        self.w.write_event(Event::Text(BytesText::new(text))).expect(MEM);
        self.close(name);
    }
    fn empty(&mut self, name: &str, attrs: &[(&str, &str)]) {
        let e = BytesStart::new(name).with_attributes(attrs.iter().copied());
        self.w.write_event(Event::Empty(e)).expect(MEM);
    }
    fn lineno(&self, span: Span) -> String {
        (self.lines.partition_point(|&l| l <= span.start)).to_string()
    }

    fn unit(&mut self, u: &FileUnit, src: &str) {
        self.fortran = u.lang.is_fortran();
        self.lines = std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let lang = if self.fortran { "Fortran" } else { "C" };
        let form = match u.lang {
            Lang::FortranFixed => "fixed",
            Lang::FortranFree => "free",
            Lang::C => "",
        };
        let mut attrs = vec![("source", u.name.as_str()), ("language", lang), ("compiler-info", "xmpc"), ("version", "1.0")];
        if !form.is_empty() {
            attrs.push(("form", form));
        }
        self.open("XcodeProgram", &attrs);
        self.types(&u.types);
        self.open("globalSymbols", &[]);
        self.symbols(&u.globals);
        self.close("globalSymbols");
        self.open("globalDeclarations", &[]);
        for it in &u.items {
            self.item(it, u, src);
        }
        self.close("globalDeclarations");
        if !u.host_errors.is_empty() {
            self.open("hostErrors", &[]);
            for e in &u.host_errors {
                let ln = self.lineno(*e);
                self.empty("error", &[("lineno", &ln), ("range", &format!("{}..{}", e.start, e.end))]);
            }
            self.close("hostErrors");
        }
        self.close("XcodeProgram");
    }

    fn types(&mut self, t: &TypeTable) {
        self.open("typeTable", &[]);
        for (i, ty) in t.types.iter().enumerate() {
            let id = type_name(i);
            match ty {
                Type::Basic(n) => self.empty("basicType", &[("type", &id), ("name", n)]),
                Type::Pointer(r) => self.empty("pointerType", &[("type", &id), ("ref", &type_name(*r))]),
                Type::Array { elem, dims } => {
                    self.open("arrayType", &[("type", &id), ("element_type", &type_name(*elem)), ("rank", &dims.len().to_string())]);
                    for d in dims {
                        self.dim(d);
                    }
                    self.close("arrayType");
                }
                Type::Struct { tag, fields } => {
                    let el = if self.fortran { "FstructType" } else { "structType" };
                    let mut attrs = vec![("type", id.as_str())];
                    if let Some(t) = tag {
                        attrs.push(("tag", t));
                    }
                    self.open(el, &attrs);
                    self.open("symbols", &[]);
                    for (n, ft) in fields {
                        self.open("id", &[("type", &type_name(*ft))]);
                        self.leaf("name", &[], n);
                        self.close("id");
                    }
                    self.close("symbols");
                    self.close(el);
                }
                Type::Function { ret, params } => {
                    self.open("functionType", &[("type", &id), ("return_type", &type_name(*ret))]);
                    self.open("params", &[]);
                    for p in params {
                        self.empty("param", &[("type", &type_name(*p))]);
                    }
                    self.close("params");
                    self.close("functionType");
                }
            }
        }
        self.close("typeTable");
    }

    fn dim(&mut self, d: &Dim) {
        if d.deferred {
            self.empty("indexRange", &[("is_assumed_shape", "true")]);
            return;
        }
        self.open("indexRange", &[]);
        if let Some(l) = &d.lower {
            self.open("lowerBound", &[]);
            self.expr(l);
            self.close("lowerBound");
        }
        if let Some(u) = &d.upper {
            let el = if self.fortran || d.lower.is_some() { "upperBound" } else { "arraySize" };
            self.open(el, &[]);
            self.expr(u);
            self.close(el);
        }
        self.close("indexRange");
    }

    fn symbols(&mut self, t: &SymbolTable) {
        for s in &t.symbols {
            let ty = type_name(s.ty);
            let sc = sclass_name(s.sclass);
            let attrs = s.attrs.join(" ");
            let mut a = vec![("type", ty.as_str()), ("sclass", sc)];
            if !attrs.is_empty() {
                a.push(("attributes", &attrs));
            }
            self.open("id", &a);
            self.leaf("name", &[], &s.name);
            if let Some(init) = &s.init {
                self.open("value", &[]);
                self.expr(init);
                self.close("value");
            }
            self.close("id");
        }
    }

    fn item(&mut self, it: &Item, u: &FileUnit, src: &str) {
        match it {
            Item::Decl(s) => self.stmt(s, Some(&u.globals), src),
            Item::Function(f) => self.function(f, src),
            Item::Module(m) => {
                let ln = self.lineno(m.span);
                self.open("FmoduleDefinition", &[("name", &m.name), ("lineno", &ln)]);
                self.open("symbols", &[]);
                self.symbols(&m.symbols);
                self.close("symbols");
                self.open("declarations", &[]);
                for s in &m.decls {
                    self.stmt(s, Some(&m.symbols), src);
                }
                self.close("declarations");
                self.contains(&m.contains, src);
                self.close("FmoduleDefinition");
            }
            Item::Pragma(p) => self.pragma(p, None, src),
            Item::Verbatim(s) => self.text(*s, src),
        }
    }

    fn contains(&mut self, fs: &[Function], src: &str) {
        if fs.is_empty() {
            return;
        }
        self.open("FcontainsStatement", &[]);
        for f in fs {
            self.function(f, src);
        }
        self.close("FcontainsStatement");
    }

    fn function(&mut self, f: &Function, src: &str) {
        let el = if self.fortran { "FfunctionDefinition" } else { "functionDefinition" };
        let kind = match f.kind {
            FuncKind::CFunction => "function",
            FuncKind::Program => "program",
            FuncKind::Subroutine => "subroutine",
            FuncKind::Function => "function",
        };
        let ln = self.lineno(f.span);
        self.open(el, &[("kind", kind), ("lineno", &ln)]);
        self.leaf("name", &[], &f.name);
        self.open("symbols", &[]);
        self.symbols(&f.symbols);
        self.close("symbols");
        self.open("params", &[]);
        for &p in &f.params {
            let s = f.symbols.get(p);
            self.leaf("name", &[("type", &type_name(s.ty))], &s.name);
        }
        self.close("params");
        self.open("body", &[]);
        for s in &f.body {
            self.stmt(s, Some(&f.symbols), src);
        }
        self.close("body");
        self.contains(&f.contains, src);
        self.close(el);
    }

    fn text(&mut self, s: Span, src: &str) {
        let ln = self.lineno(s);
        self.leaf("text", &[("lineno", &ln)], src.get(s.range()).unwrap_or(""));
    }

    fn pragma(&mut self, p: &Pragma, scope: Option<&SymbolTable>, src: &str) {
        let el = if matches!(p.dir.kind, directive::DirectiveKind::Acc { .. }) { "ACCPragma" } else { "XMPPragma" };
        let ln = self.lineno(p.dir.span);
        self.open(el, &[("lineno", &ln)]);
        self.leaf("string", &[], src.get(p.dir.span.range()).unwrap_or("").trim_end());
        self.leaf("directive", &[("name", p.dir.name())], &p.dir.to_string());
        if let Some(b) = &p.body {
            self.open("body", &[]);
            self.stmt(b, scope, src);
            self.close("body");
        }
        self.close(el);
    }

    fn stmt(&mut self, s: &Stmt, scope: Option<&SymbolTable>, src: &str) {
        let ln = self.lineno(s.span);
        let mut attrs = vec![("lineno", ln.as_str())];
        if let Some(l) = &s.label {
            attrs.push(("label", l));
        }
        let f = self.fortran;
        match &s.kind {
            StmtKind::Compound(v) => {
                self.open("compoundStatement", &attrs);
                for c in v {
                    self.stmt(c, scope, src);
                }
                self.close("compoundStatement");
            }
            StmtKind::Decl(ids) => {
                self.open("declarations", &attrs);
                for &id in ids {
                    if let Some(sym) = scope.and_then(|t| t.symbols.get(id)) {
                        let el = if f {
                            "varDecl"
                        } else if sym.sclass == StorageClass::Func {
                            "functionDecl"
                        } else {
                            "varDecl"
                        };
                        self.open(el, &[]);
                        self.leaf("name", &[("type", &type_name(sym.ty))], &sym.name);
                        if let Some(v) = &sym.init {
                            self.open("value", &[]);
                            self.expr(v);
                            self.close("value");
                        }
                        self.close(el);
                    }
                }
                self.close("declarations");
            }
            StmtKind::Expr(e) => {
                self.open("exprStatement", &attrs);
                self.expr(e);
                self.close("exprStatement");
            }
            StmtKind::Assign(l, r) => {
                self.open("FassignStatement", &attrs);
                self.expr(l);
                self.expr(r);
                self.close("FassignStatement");
            }
            StmtKind::If { cond, then, els } => {
                let el = if f { "FifStatement" } else { "ifStatement" };
                self.open(el, &attrs);
                self.wrap("condition", |x| x.expr(cond));
                self.wrap("then", |x| x.stmt(then, scope, src));
                if let Some(e) = els {
                    self.wrap("else", |x| x.stmt(e, scope, src));
                }
                self.close(el);
            }
            StmtKind::For { init, cond, step, body } => {
                self.open("forStatement", &attrs);
                self.wrap("init", |x| {
                    if let Some(i) = init {
                        x.stmt(i, scope, src)
                    }
                });
                self.wrap("condition", |x| {
                    if let Some(c) = cond {
                        x.expr(c)
                    }
                });
                self.wrap("iter", |x| {
                    if let Some(c) = step {
                        x.expr(c)
                    }
                });
                self.wrap("body", |x| x.stmt(body, scope, src));
                self.close("forStatement");
            }
            StmtKind::Do { var, lower, upper, step, end_label, body } => {
                let mut a = attrs.clone();
                if let Some(l) = end_label {
                    a.push(("construct_name", l));
                }
                self.open("FdoStatement", &a);
                self.expr(var);
                self.open("indexRange", &[]);
                self.wrap("lowerBound", |x| x.expr(lower));
                self.wrap("upperBound", |x| x.expr(upper));
                if let Some(st) = step {
                    self.wrap("step", |x| x.expr(st));
                }
                self.close("indexRange");
                self.wrap("body", |x| x.stmt(body, scope, src));
                self.close("FdoStatement");
            }
            StmtKind::While { cond, body } => {
                let el = if f { "FdoWhileStatement" } else { "whileStatement" };
                self.open(el, &attrs);
                if let Some(c) = cond {
                    self.wrap("condition", |x| x.expr(c));
                }
                self.wrap("body", |x| x.stmt(body, scope, src));
                self.close(el);
            }
            StmtKind::DoWhile { body, cond } => {
                self.open("doStatement", &attrs);
                self.wrap("body", |x| x.stmt(body, scope, src));
                self.wrap("condition", |x| x.expr(cond));
                self.close("doStatement");
            }
            StmtKind::Switch { cond, body } => {
                self.open("switchStatement", &attrs);
                self.wrap("value", |x| x.expr(cond));
                self.wrap("body", |x| x.stmt(body, scope, src));
                self.close("switchStatement");
            }
            StmtKind::Call { name, args } => {
                self.open("exprStatement", &attrs);
                self.open("functionCall", &[("is_intrinsic", "false")]);
                self.wrap("name", |x| x.w.write_event(Event::Text(BytesText::new(name))).expect(MEM));
                self.wrap("arguments", |x| args.iter().for_each(|a| x.expr(a)));
                self.close("functionCall");
                self.close("exprStatement");
            }
            StmtKind::Return(e) => {
                let el = if f { "FreturnStatement" } else { "returnStatement" };
                self.open(el, &attrs);
                if let Some(e) = e {
                    self.expr(e);
                }
                self.close(el);
            }
            StmtKind::Goto(l) => self.leaf("gotoStatement", &attrs, l),
            StmtKind::Stop(e) => {
                self.open("FstopStatement", &attrs);
                if let Some(e) = e {
                    self.expr(e);
                }
                self.close("FstopStatement");
            }
            StmtKind::Break => self.empty(if f { "FexitStatement" } else { "breakStatement" }, &attrs),
            StmtKind::Continue => self.empty(if f { "FcycleStatement" } else { "continueStatement" }, &attrs),
            StmtKind::Nop => self.empty("continueStatement", &attrs),
            StmtKind::Pragma(p) => self.pragma(p, scope, src),
            StmtKind::Verbatim => self.text(s.span, src),
        }
    }

    fn wrap(&mut self, name: &str, f: impl FnOnce(&mut Self)) {
        self.open(name, &[]);
        f(self);
        self.close(name);
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Ident(n) => self.leaf("Var", &[], n),
            ExprKind::Int(v) => self.leaf(if self.fortran { "FintConstant" } else { "intConstant" }, &[], v),
            ExprKind::Real(v) => self.leaf(if self.fortran { "FrealConstant" } else { "floatConstant" }, &[], v),
            ExprKind::Str(v) => self.leaf(if self.fortran { "FcharacterConstant" } else { "stringConstant" }, &[], v),
            ExprKind::Char(v) => self.leaf("intConstant", &[("kind", "char")], v),
            ExprKind::Logical(b) => self.leaf("FlogicalConstant", &[], if *b { ".TRUE." } else { ".FALSE." }),
            ExprKind::Unary(op, a) => self.wrap(op.xcodeml(), |x| x.expr(a)),
            ExprKind::Binary(op, a, b) => self.wrap(op.xcodeml(), |x| {
                x.expr(a);
                x.expr(b)
            }),
            ExprKind::Assign(op, a, b) => {
                let el = match op {
                    None => "assignExpr".to_string(),
                    Some(op) => format!("asg{}", capitalise(op.xcodeml())),
                };
                self.wrap(&el, |x| {
                    x.expr(a);
                    x.expr(b)
                })
            }
            ExprKind::Call(f, args) => self.wrap("functionCall", |x| {
                x.wrap("function", |x| x.expr(f));
                x.wrap("arguments", |x| args.iter().for_each(|a| x.expr(a)));
            }),
            ExprKind::Index(a, i) => self.wrap("arrayRef", |x| {
                x.expr(a);
                x.expr(i)
            }),
            ExprKind::Triplet(l, u, s) => self.wrap("indexRange", |x| {
                for (n, v) in [("lowerBound", l), ("upperBound", u), ("step", s)] {
                    if let Some(v) = v {
                        x.wrap(n, |x| x.expr(v));
                    }
                }
            }),
            ExprKind::Member { base, field, arrow } => {
                let el = if *arrow {
                    "memberRef"
                } else if self.fortran {
                    "FmemberRef"
                } else {
                    "memberRef"
                };
                let kind = if *arrow { "arrow" } else { "dot" };
                self.open(el, &[("member", field), ("access", kind)]);
                self.expr(base);
                self.close(el);
            }
            ExprKind::Cond(c, a, b) => self.wrap("condExpr", |x| {
                x.expr(c);
                x.expr(a);
                x.expr(b)
            }),
            ExprKind::Cast(t, a) => {
                self.open("castExpr", &[("type", t)]);
                self.expr(a);
                self.close("castExpr");
            }
            ExprKind::SizeOf(a) => self.wrap("sizeOfExpr", |x| x.expr(a)),
            ExprKind::Star => self.empty("star", &[]),
            ExprKind::Verbatim(t) => self.leaf("text", &[], t),
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

fn type_name(id: TypeId) -> String {
    format!("T{id}")
}

fn sclass_name(s: StorageClass) -> &'static str {
    match s {
        StorageClass::Auto => "auto",
        StorageClass::Static => "static",
        StorageClass::Extern => "extern",
        StorageClass::Register => "register",
        StorageClass::Param => "param",
        StorageClass::Typedef => "typedef_name",
        StorageClass::Common => "fcommon",
        StorageClass::ModuleVar => "fmodule_var",
        StorageClass::Func => "extern_def",
    }
}
