//! The resolver: one walk over a file (C or Fortran) with its scopes, which builds the
//! XMP objects from their declarative directives (`decl.rs`) and records what every
//! name means — the names written in directives and the distributed arrays named in
//! host code. The checks that need only names and ranks are made here, once, for both
//! languages (XMP0101–XMP0109).

use super::diag::Code;
use super::scope::{Scope, Scopes};
use super::symbols::{ArrayId, Entity, NodesId, Site, SymTable, TemplId};
use super::{Import, Model};
use xmpc_ir::diag::{did_you_mean, Label};
use xmpc_ir::directive::{DirectiveKind, Name, Ref};
use xmpc_ir::visit::{self, Visitor};
use xmpc_ir::{Expr, ExprKind, FileUnit, FuncKind, Function, Item, Module, Pragma, Stmt, StmtKind, SymbolTable};

/// Resolves `unit` (parsed from `src`). `import(m)` describes a Fortran module of
/// another file that a unit `use`s (`None`: not known; names it may declare are then not
/// reported as undeclared).
pub fn resolve<'a>(unit: &'a FileUnit, src: &'a str, import: &dyn Fn(&str) -> Option<Import>) -> Model<'a> {
    let fortran = unit.lang.is_fortran();
    let mut r = Resolver {
        m: Model::new(unit, src),
        scopes: Scopes::new(fortran),
        modules: Vec::new(),
        import,
        table: SymTable::Globals,
        fn_depth: 0,
        implicit_none: vec![],
        c_headers: false,
    };
    r.bind_table(&unit.globals, SymTable::Globals);
    // a header of the program's own may declare the variables its clauses name
    r.c_headers = !fortran && quoted_include(unit, src);
    visit::walk_file(&mut r, unit);
    r.m
}

pub(super) struct Resolver<'a, 'i> {
    pub m: Model<'a>,
    pub scopes: Scopes,
    /// Fortran modules seen so far in this file (a unit may `use` those defined before it).
    modules: Vec<(String, Scope)>,
    import: &'i dyn Fn(&str) -> Option<Import>,
    /// The symbol table of the scope being walked.
    pub table: SymTable,
    fn_depth: usize,
    /// Fortran: `implicit none` in each unit being walked, innermost last (a contained
    /// procedure inherits its host's).
    implicit_none: Vec<bool>,
    /// A C file that includes headers of its own (their variables are not known here).
    pub c_headers: bool,
}

impl<'a> Resolver<'a, '_> {
    pub fn fortran(&self) -> bool {
        self.scopes.fortran
    }

    pub fn site(&self) -> Site {
        if self.fn_depth == 0 {
            Site::File
        } else {
            Site::Local
        }
    }

    /// Every symbol of a table (`at`) as a host variable.
    fn bind_table(&mut self, t: &SymbolTable, at: SymTable) {
        for (k, s) in t.symbols.iter().enumerate() {
            self.scopes.bind_var(&s.name, at, k);
        }
    }

    /// A name written in a directive: its entity, recorded for the printers.
    pub fn note(&mut self, n: &Name, e: Entity) {
        self.m.names.insert(n.span.start, e);
    }

    /// A Fortran unit's `use` and `include` lines (the IR keeps them as text).
    fn imports(&mut self, body: &'a [Stmt]) {
        for s in body.iter().filter(|s| matches!(s.kind, StmtKind::Verbatim)) {
            let text = self.m.src.get(s.span.range()).unwrap_or("");
            for line in text.lines() {
                let t = line.trim_start().to_ascii_lowercase();
                if t.starts_with("include") {
                    self.scopes.set_opaque();
                }
                if let Some(name) = use_target(&t) {
                    self.use_module(&name);
                }
            }
        }
    }

    fn use_module(&mut self, name: &str) {
        if let Some(s) = self.modules.iter().find(|m| m.0 == name).map(|m| m.1.clone()) {
            self.scopes.import(&s);
            return;
        }
        match (self.import)(name) {
            Some(imp) => {
                let s = self.m.add_import(name, &imp);
                self.modules.push((name.to_string(), s.clone()));
                self.scopes.import(&s);
            }
            None => self.scopes.set_opaque(),
        }
    }

    /// A Fortran program unit or procedure: its symbols, imports, then its directives
    /// (the declarative ones first, in source order, as a specification part is one
    /// whole) and statements.
    fn fortran_unit(&mut self, f: &'a Function) {
        self.scopes.push();
        self.bind_table(&f.symbols, SymTable::Function(f.name_span.start));
        self.imports(&f.body);
        let none = self.implicit_none() || self.says_implicit_none(&f.body);
        self.implicit_none.push(none);
        let prev = std::mem::replace(&mut self.table, SymTable::Function(f.name_span.start));
        self.fn_depth += 1;
        self.declarations(&f.body);
        for s in &f.body {
            self.visit_stmt(s);
        }
        for c in &f.contains {
            self.visit_function(c);
        }
        self.implicit_none.pop();
        self.fn_depth -= 1;
        self.table = prev;
        self.scopes.pop();
    }

    /// True when the Fortran unit being walked has `implicit none` (itself or its host).
    pub fn implicit_none(&self) -> bool {
        self.implicit_none.last().copied().unwrap_or(false)
    }

    fn says_implicit_none(&self, body: &[Stmt]) -> bool {
        body.iter().filter(|s| matches!(s.kind, StmtKind::Verbatim)).any(|s| {
            let t = self.m.src.get(s.span.range()).unwrap_or("").to_ascii_lowercase();
            t.lines().any(|l| l.split('!').next().unwrap_or("").split_whitespace().collect::<Vec<_>>() == ["implicit", "none"])
        })
    }

    /// The declarative directives of a Fortran specification part, before its
    /// executable statements are walked: nodes, templates and distributions in order,
    /// then aligned arrays, then shadows.
    fn declarations(&mut self, body: &'a [Stmt]) {
        let spec: Vec<&'a Pragma> = body
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Pragma(p) if is_declarative(&p.dir.kind) => Some(p),
                _ => None,
            })
            .collect();
        for phase in 0..3 {
            for p in &spec {
                let k = &p.dir.kind;
                let now = match phase {
                    0 => !matches!(k, DirectiveKind::Align { .. } | DirectiveKind::Shadow { .. }),
                    1 => matches!(k, DirectiveKind::Align { .. }),
                    _ => matches!(k, DirectiveKind::Shadow { .. }),
                };
                if now {
                    self.declare(p);
                }
            }
        }
    }

    /// Looks a directive name up as a node set.
    pub fn nodes(&mut self, n: &Name) -> Option<NodesId> {
        match self.scopes.lookup(&n.name) {
            Some(Entity::Nodes(id)) => {
                self.note(n, Entity::Nodes(id));
                Some(id)
            }
            _ => {
                self.undeclared(Code::NodesUndeclared, "node set", n, &|e| matches!(e, Entity::Nodes(_)));
                None
            }
        }
    }

    pub fn template(&mut self, n: &Name) -> Option<TemplId> {
        match self.scopes.lookup(&n.name) {
            Some(Entity::Template(id)) => {
                self.note(n, Entity::Template(id));
                Some(id)
            }
            _ => {
                self.undeclared(Code::TemplateUndeclared, "template", n, &|e| matches!(e, Entity::Template(_)));
                None
            }
        }
    }

    /// An `on`/`from` reference: a node set, or (`template_ok`) a template.
    pub fn on_ref(&mut self, r: &Ref, template_ok: bool) -> Option<Entity> {
        match self.scopes.lookup(&r.name.name) {
            Some(e @ Entity::Nodes(_)) => {
                self.note(&r.name, e);
                Some(e)
            }
            Some(e @ Entity::Template(_)) if template_ok => {
                self.note(&r.name, e);
                Some(e)
            }
            _ => {
                let what = if template_ok { "node set or template" } else { "node set" };
                self.undeclared(Code::NodesUndeclared, what, &r.name, &|e| matches!(e, Entity::Nodes(_)) || (template_ok && matches!(e, Entity::Template(_))));
                None
            }
        }
    }

    /// An aligned array named in a directive (`reflect (a)`, `shadow a`).
    pub fn aligned(&mut self, n: &Name) -> Option<ArrayId> {
        if n.name.contains(['.', '%']) {
            return None; // a structure member: its printer resolves it
        }
        match self.scopes.lookup(&n.name) {
            Some(Entity::Array(id)) => {
                self.note(n, Entity::Array(id));
                Some(id)
            }
            Some(Entity::Host) => {
                let decl = self.host_decl_span(&n.name);
                let hint = if self.fortran() {
                    format!("help: add `!$xmp align {}(i) with t(i)` before using it here", n.name)
                } else {
                    format!("help: add `#pragma xmp align {}[i] with t(i)` before using it here", n.name)
                };
                let mut d = Code::NotAligned.error(self.m.unit.file, format!("`{}` is not aligned with a template", n.name), n.span, "not a distributed array");
                if let Some(s) = decl {
                    d = d.with_labels(vec![Label::secondary(self.m.unit.file, s.range()).with_message("declared here")]);
                }
                self.m.diags.push(d.with_notes(vec![hint]));
                None
            }
            _ => {
                self.undeclared(Code::ArrayUndeclared, "array", n, &|e| matches!(e, Entity::Array(_) | Entity::Host));
                None
            }
        }
    }

    /// The declaration of a host variable visible here, for labels.
    pub fn host_decl_span(&self, name: &str) -> Option<xmpc_ir::Span> {
        self.host_symbol(name).map(|s| s.2.span)
    }

    /// The host symbol `name` in the tables in scope (innermost first): its table, its
    /// index there and the symbol.
    pub fn host_symbol(&self, name: &str) -> Option<(SymTable, usize, &'a xmpc_ir::Symbol)> {
        let unit = self.m.unit;
        let find = |t: &'a SymbolTable| {
            t.symbols.iter().position(|s| if self.fortran() { s.name.eq_ignore_ascii_case(name) } else { s.name == name }).map(|k| (k, &t.symbols[k]))
        };
        let local = match self.table {
            SymTable::Function(at) => unit.functions().into_iter().find(|f| f.name_span.start == at).and_then(|f| find(&f.symbols)),
            SymTable::Module(at) => modules(unit).find(|m| m.name_span.start == at).and_then(|m| find(&m.symbols)),
            SymTable::Globals => None,
        };
        match local {
            Some((k, s)) => Some((self.table, k, s)),
            None => find(&unit.globals).map(|(k, s)| (SymTable::Globals, k, s)),
        }
    }

    pub fn undeclared(&mut self, code: Code, what: &str, n: &Name, keep: &dyn Fn(Entity) -> bool) {
        let file = self.m.unit.file;
        if self.scopes.opaque() {
            // it may come from a module this file cannot see: an error only when
            // translating (`Model::deferred`), where every module description is asked for
            let d = code.error(file, format!("{what} `{}` is not declared in this file", n.name), n.span, format!("unknown {what}")).with_notes(vec![
                "help: if a module this unit uses declares it, compile that module's file first (or in the same command): its XMP declarations are read from `<module>.xmpmod`".into(),
            ]);
            self.m.deferred.push(d);
            return;
        }
        let mut d = code.error(file, format!("{what} `{}` is not declared", n.name), n.span, format!("unknown {what}"));
        let cands = self.scopes.visible(keep);
        if let Some(best) = did_you_mean(&n.name, cands.iter().map(|c| c.0.as_str())) {
            let e = cands.iter().find(|c| c.0 == best).map(|c| c.1);
            if let Some(span) = e.and_then(|e| self.m.decl_span(e)).or_else(|| self.host_decl_span(best)) {
                d = d.with_labels(vec![Label::secondary(file, span.range()).with_message(format!("did you mean `{best}`? declared here"))]);
            }
        } else {
            let help = match what {
                "template" => "help: declare it first with a `template` directive".to_string(),
                "array" => format!("help: declare `{}` in the program before the directive that distributes it", n.name),
                _ => "help: declare it first with a `nodes` directive".to_string(),
            };
            d = d.with_notes(vec![help]);
        }
        self.m.diags.push(d);
    }
}

impl<'a> Visitor<'a> for Resolver<'a, '_> {
    fn visit_item(&mut self, it: &'a Item) {
        match it {
            Item::Pragma(p) => {
                self.declare(p);
                self.directive(p);
                visit::walk_pragma(self, p);
            }
            _ => visit::walk_item(self, it),
        }
    }

    fn visit_module(&mut self, m: &'a Module) {
        self.scopes.push();
        self.bind_table(&m.symbols, SymTable::Module(m.name_span.start));
        self.imports(&m.decls);
        let prev = std::mem::replace(&mut self.table, SymTable::Module(m.name_span.start));
        self.declarations(&m.decls);
        for s in &m.decls {
            self.visit_stmt(s);
        }
        // what a unit that uses the module sees: its XMP objects
        let here = self.scopes.pop();
        // (and, for the units of this file, its variables)
        let exports = Scope {
            names: here.names.iter().filter(|(_, e)| !matches!(e, Entity::Host)).map(|(k, v)| (k.clone(), *v)).collect(),
            vars: here.vars.iter().filter(|(k, _)| matches!(here.names.get(*k), Some(Entity::Host))).map(|(k, v)| (k.clone(), *v)).collect(),
            opaque: here.opaque,
        };
        self.modules.push((m.name.to_ascii_lowercase(), exports.clone()));
        self.m.exports.push((m.name.to_ascii_lowercase(), exports));
        self.scopes.push();
        self.scopes.import(&here);
        let none = self.says_implicit_none(&m.decls);
        self.implicit_none.push(none);
        for c in &m.contains {
            self.visit_function(c);
        }
        self.implicit_none.pop();
        self.scopes.pop();
        self.table = prev;
    }

    fn visit_function(&mut self, f: &'a Function) {
        if self.fortran() {
            return self.fortran_unit(f);
        }
        self.scopes.push();
        for &p in &f.params {
            self.scopes.bind(&f.symbols.get(p).name, Entity::Host);
        }
        let prev = std::mem::replace(&mut self.table, SymTable::Function(f.name_span.start));
        self.fn_depth += 1;
        visit::walk_function(self, f);
        self.fn_depth -= 1;
        self.table = prev;
        self.scopes.pop();
    }

    fn visit_stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Compound(_) | StmtKind::For { .. } if !self.fortran() => {
                self.scopes.push();
                visit::walk_stmt(self, s);
                self.scopes.pop();
            }
            StmtKind::Decl(ids) if !self.fortran() => {
                let table = self.current_table();
                for &id in ids {
                    if let Some(sym) = table.and_then(|t| t.symbols.get(id)) {
                        self.scopes.bind(&sym.name, Entity::Host);
                        if let Some(init) = &sym.init {
                            self.visit_expr(init);
                        }
                    }
                }
            }
            StmtKind::Pragma(p) => {
                if !self.fortran() {
                    self.declare(p);
                }
                self.directive(p);
                visit::walk_pragma(self, p);
            }
            _ => visit::walk_stmt(self, s),
        }
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        if let ExprKind::Ident(n) = &e.kind {
            match self.scopes.lookup(n) {
                Some(Entity::Host) | None => {}
                Some(x) => {
                    self.m.refs.insert(e.span.start, x);
                }
            }
        }
        visit::walk_expr(self, e)
    }
}

impl<'a> Resolver<'a, '_> {
    /// A symbol of the current table by its index (C `for (int i = ...)`).
    pub fn decl_symbol(&self, id: usize) -> Option<&'a xmpc_ir::Symbol> {
        self.current_table().and_then(|t| t.symbols.get(id))
    }

    /// The symbol table the current C declaration statements index.
    fn current_table(&self) -> Option<&'a SymbolTable> {
        let unit = self.m.unit;
        match self.table {
            SymTable::Globals => Some(&unit.globals),
            SymTable::Function(at) => unit.functions().into_iter().find(|f| f.name_span.start == at).map(|f| &f.symbols),
            SymTable::Module(at) => modules(unit).find(|m| m.name_span.start == at).map(|m| &m.symbols),
        }
    }
}

fn modules(unit: &FileUnit) -> impl Iterator<Item = &Module> {
    unit.items.iter().filter_map(|i| if let Item::Module(m) = i { Some(m) } else { None })
}

/// True when a C file includes a header of its own (`#include "..."`).
fn quoted_include(unit: &FileUnit, src: &str) -> bool {
    unit.items.iter().filter_map(|i| if let Item::Verbatim(sp) = i { src.get(sp.range()) } else { None }).any(|t| {
        t.lines().any(|l| {
            let l = l.trim_start();
            l.strip_prefix('#').is_some_and(|r| r.trim_start().strip_prefix("include").is_some_and(|r| r.trim_start().starts_with('"')))
        })
    })
}

/// Directives that declare XMP objects (or attach to them), in a Fortran
/// specification part: resolved before the unit's statements.
pub(super) fn is_declarative(k: &DirectiveKind) -> bool {
    matches!(
        k,
        DirectiveKind::Nodes { .. }
            | DirectiveKind::Template { .. }
            | DirectiveKind::Distribute { .. }
            | DirectiveKind::Align { .. }
            | DirectiveKind::Shadow { .. }
    )
}

/// `use m`, `use, intrinsic :: m`, `use :: m, only: x` (lower case): `m`.
pub fn use_target(t: &str) -> Option<String> {
    let rest = t.strip_prefix("use")?;
    if !rest.starts_with([' ', ',', ':']) {
        return None;
    }
    let rest = rest.trim_start_matches([' ', ',']);
    let rest = rest.strip_prefix("intrinsic").unwrap_or(rest).trim_start_matches([' ', ':', ',']);
    let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

/// The kind of program unit, for messages.
pub fn unit_kind(f: &Function) -> &'static str {
    match f.kind {
        FuncKind::Program => "main program",
        FuncKind::Subroutine => "subroutine",
        FuncKind::Function | FuncKind::CFunction => "function",
    }
}
