//! The XMP model: what every XMP directive of a file means, decided once for C and
//! Fortran before a printer (`xmpc_backends::c`, `xmpc_backends::fortran`) writes it in
//! its host language.
//!
//! [`resolve`] walks the file's IR once with its scopes (`scope.rs`) and builds
//! - the symbol table of XMP objects (`symbols.rs`): node sets, templates with their
//!   distributions, aligned arrays with their alignment and shadows, from the
//!   declarative directives (`decl.rs`);
//! - what each name written in a directive refers to, and which identifiers of the host
//!   code name a distributed array (`refs.rs`);
//! - the diagnostics of the checks that need only names and ranks (one code per error,
//!   `xmpc_ir::codes`).
//!
//! The directive families then answer the printers' questions, one module each:
//! loop nests (`loops.rs`, `loop_sched.rs`, `loop_ref.rs`), communication (`comm.rs`),
//! `on` references (`on_ref.rs`), reductions (`reduction.rs`), array sections
//! (`section.rs`). Their
//! expressions are language-neutral trees (`iexpr.rs`) that each printer spells.

pub mod comm;
pub mod decl;
pub mod diag;
pub mod iexpr;
pub mod loop_ref;
pub mod loop_sched;
pub mod loops;
pub mod on_ref;
pub mod reduction;
mod refs;
pub mod resolve;
pub mod scope;
pub mod section;
pub mod symbols;

pub use resolve::resolve;

use std::collections::HashMap;
use symbols::{ArrayDecl, ArrayId, Entity, NodesDecl, NodesId, TemplId, TemplateDecl};
use xmpc_ir::directive::{DistFormat, Name};
use xmpc_ir::{Diag, Expr, FileUnit, Pragma, Span};

/// A directive the model cannot give a meaning to (or that xmpc does not implement):
/// the printer reports it at `span`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelError {
    pub span: Span,
    pub msg: String,
    pub label: &'static str,
    pub help: Option<String>,
}

impl ModelError {
    pub fn new(span: Span, msg: impl Into<String>, label: &'static str) -> Self {
        ModelError { span, msg: msg.into(), label, help: None }
    }
    pub fn help(mut self, h: impl Into<String>) -> Self {
        self.help = Some(h.into());
        self
    }
    /// The located diagnostic, with `code`.
    pub fn to_diag(&self, code: xmpc_ir::Code, file: usize) -> Diag {
        let d = code.error(file, &self.msg, self.span, self.label);
        match &self.help {
            Some(h) => d.with_notes(vec![format!("help: {h}")]),
            None => d,
        }
    }
}

/// The XMP meaning of one file.
#[derive(Debug)]
pub struct Model<'a> {
    pub unit: &'a FileUnit,
    pub src: &'a str,
    pub nodes: Vec<NodesDecl<'a>>,
    pub templates: Vec<TemplateDecl<'a>>,
    pub arrays: Vec<ArrayDecl<'a>>,
    /// What each name written in a directive refers to, by the name's offset.
    names: HashMap<usize, Entity>,
    /// Identifiers of host code that name an XMP object (a distributed array, or a
    /// template or node set in `xmp_desc_of(t)`), by offset.
    refs: HashMap<usize, Entity>,
    /// The objects each declarative directive declares or changes, by its offset.
    decls: HashMap<usize, Vec<Entity>>,
    /// Each `loop` directive's nest, by its offset.
    loops: HashMap<usize, loops::LoopNest<'a>>,
    /// Host variables named by a `gmove` operand: the table declaring each and its
    /// index there, by the identifier's offset.
    vars: HashMap<usize, (symbols::SymTable, usize)>,
    /// This file's Fortran modules: (lower-case name, their XMP objects).
    pub exports: Vec<(String, scope::Scope)>,
    /// Other files' Fortran modules used here: (lower-case name, their XMP objects).
    pub imports: Vec<(String, scope::Scope)>,
    pub diags: Vec<Diag>,
    /// Names not found in a unit that imports what this file cannot see (a module of
    /// another file with no description, an `include`): errors when translating,
    /// not when checking a file alone.
    pub deferred: Vec<Diag>,
}

/// An imported array dimension: the template dimension it is aligned with and the
/// offset (host-language text); `None` when it is collapsed.
pub type ImportedAlign = Option<(usize, String)>;

/// The XMP objects of a Fortran module of another file (from its description), as far
/// as the model needs them: names, ranks, formats and alignment.
#[derive(Clone, Debug, Default)]
pub struct Import {
    pub nodes: Vec<(String, usize)>,
    /// (template, rank, formats, the node set it is distributed onto, by name)
    pub templates: Vec<(String, usize, Vec<DistFormat>, Option<String>)>,
    /// (array, template, per dimension: aligned template dimension and offset text)
    pub arrays: Vec<(String, String, Vec<ImportedAlign>)>,
}

impl<'a> Model<'a> {
    fn new(unit: &'a FileUnit, src: &'a str) -> Self {
        Model {
            unit,
            src,
            nodes: vec![],
            templates: vec![],
            arrays: vec![],
            names: HashMap::new(),
            refs: HashMap::new(),
            decls: HashMap::new(),
            loops: HashMap::new(),
            vars: HashMap::new(),
            exports: vec![],
            imports: vec![],
            diags: vec![],
            deferred: vec![],
        }
    }

    pub fn fortran(&self) -> bool {
        self.unit.lang.is_fortran()
    }

    /// What a name written in a directive refers to (`None`: not resolved — a member
    /// name, or an error already reported).
    pub fn name(&self, n: &Name) -> Option<Entity> {
        self.names.get(&n.span.start).copied()
    }

    pub fn name_nodes(&self, n: &Name) -> Option<NodesId> {
        match self.name(n) {
            Some(Entity::Nodes(id)) => Some(id),
            _ => None,
        }
    }

    pub fn name_template(&self, n: &Name) -> Option<TemplId> {
        match self.name(n) {
            Some(Entity::Template(id)) => Some(id),
            _ => None,
        }
    }

    pub fn name_array(&self, n: &Name) -> Option<ArrayId> {
        match self.name(n) {
            Some(Entity::Array(id)) => Some(id),
            _ => None,
        }
    }

    /// The distributed array an identifier of host code names (`a` in `a[i][j]`,
    /// `a(i, j)`, `f(a)`).
    pub fn array_ref(&self, e: &Expr) -> Option<ArrayId> {
        match self.refs.get(&e.span.start) {
            Some(Entity::Array(a)) => Some(*a),
            _ => None,
        }
    }

    /// The XMP object an identifier of host code names, if any.
    pub fn entity_ref(&self, e: &Expr) -> Option<Entity> {
        self.refs.get(&e.span.start).copied()
    }

    /// The declaration of the host variable an identifier of a `gmove` operand names
    /// (its own unit's, a host's, or a module's of this file, as the scopes see it).
    pub fn host_var(&self, e: &Expr) -> Option<&'a xmpc_ir::Symbol> {
        let (t, k) = *self.vars.get(&e.span.start)?;
        self.table(t)?.symbols.get(k)
    }

    /// The symbol table `t` names.
    pub fn table(&self, t: symbols::SymTable) -> Option<&'a xmpc_ir::SymbolTable> {
        let unit = self.unit;
        match t {
            symbols::SymTable::Globals => Some(&unit.globals),
            symbols::SymTable::Function(at) => unit.functions().into_iter().find(|f| f.name_span.start == at).map(|f| &f.symbols),
            symbols::SymTable::Module(at) => {
                unit.items.iter().find_map(|i| if let xmpc_ir::Item::Module(m) = i { (m.name_span.start == at).then_some(&m.symbols) } else { None })
            }
        }
    }

    /// The objects a declarative directive declares (or distributes, or gives a shadow).
    pub fn declared_by(&self, p: &Pragma) -> &[Entity] {
        self.decls.get(&p.dir.span.start).map_or(&[], Vec::as_slice)
    }

    /// The nest of a `loop` directive (`None`: an error was reported).
    pub fn loop_nest(&self, p: &Pragma) -> Option<&loops::LoopNest<'a>> {
        self.loops.get(&p.dir.span.start)
    }

    pub fn node(&self, id: NodesId) -> &NodesDecl<'a> {
        &self.nodes[id.0]
    }
    pub fn templ(&self, id: TemplId) -> &TemplateDecl<'a> {
        &self.templates[id.0]
    }
    pub fn array(&self, id: ArrayId) -> &ArrayDecl<'a> {
        &self.arrays[id.0]
    }

    /// Where an object is declared (for labels).
    pub fn decl_span(&self, e: Entity) -> Option<Span> {
        match e {
            Entity::Nodes(id) => Some(self.nodes[id.0].span),
            Entity::Template(id) => Some(self.templates[id.0].span),
            Entity::Array(id) => Some(self.arrays[id.0].span),
            Entity::Host => None,
        }
    }

    /// The XMP objects of a Fortran module (this file's or another's), by lower-case name.
    pub fn module(&self, name: &str) -> Option<&scope::Scope> {
        self.exports.iter().chain(&self.imports).find(|m| m.0 == name).map(|m| &m.1)
    }

    /// True when errors were found.
    pub fn failed(&self) -> bool {
        self.diags.iter().any(|d| d.severity >= xmpc_ir::diag::Severity::Error)
    }

    /// The model a printer may print: every name resolved (deferred misses are errors
    /// now), or every diagnostic.
    pub fn for_printing(self) -> Result<Self, Vec<Diag>> {
        if self.failed() || !self.deferred.is_empty() {
            let mut d = self.diags;
            d.extend(self.deferred);
            return Err(d);
        }
        Ok(self)
    }

    /// The objects of another file's module, as this file's (imported) objects.
    fn add_import(&mut self, module: &str, imp: &Import) -> scope::Scope {
        use symbols::*;
        let mut s = scope::Scope::default();
        let none = Span::new(0, 0);
        for (n, rank) in &imp.nodes {
            let id = NodesId(self.nodes.len());
            self.nodes.push(NodesDecl { name: n.clone(), span: none, dir: none, site: Site::Imported, sizes: vec![None; *rank], map: NodesMap::Executing });
            s.names.insert(n.to_ascii_lowercase(), Entity::Nodes(id));
        }
        for (n, rank, formats, onto) in &imp.templates {
            let id = TemplId(self.templates.len());
            let onto = onto.as_ref().and_then(|o| match s.names.get(&o.to_ascii_lowercase()) {
                Some(Entity::Nodes(nid)) => Some(*nid),
                _ => None,
            });
            let dist = (!formats.is_empty()).then(|| Distribution {
                dir: none,
                onto,
                dims: formats.iter().map(|f| DistDim { format: *f, arg: None, gblock: None, node_dim: None }).collect(),
            });
            self.templates.push(TemplateDecl { name: n.clone(), span: none, dir: none, site: Site::Imported, dims: vec![None; *rank], dist });
            s.names.insert(n.to_ascii_lowercase(), Entity::Template(id));
        }
        for (n, t, align) in &imp.arrays {
            let Some(Entity::Template(templ)) = s.names.get(&t.to_ascii_lowercase()).copied() else { continue };
            let id = ArrayId(self.arrays.len());
            let align = align
                .iter()
                .map(|a| match a {
                    Some((tdim, off)) => AlignDim::Aligned { tdim: *tdim, offset: iexpr::IExpr::Foreign(off.clone()) },
                    None => AlignDim::Collapsed,
                })
                .collect();
            self.arrays.push(ArrayDecl { name: n.clone(), span: none, dir: none, site: Site::Imported, symbol: None, templ, align, shadow: None });
            s.names.insert(n.to_ascii_lowercase(), Entity::Array(id));
        }
        self.imports.push((module.to_string(), s.clone()));
        s
    }
}
