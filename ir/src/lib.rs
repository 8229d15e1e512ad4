//! The xmpc IR: one typed tree for C and Fortran, modelled on Omni's XcodeML.
//!
//! program → files → type and symbol tables → global declarations → functions,
//! subroutines and modules → statements → expressions. Directives are statements
//! (`StmtKind::Pragma`) that own the statement they apply to. Anything the IR does not
//! model is a `Verbatim` node that keeps its span, so the back ends can reproduce
//! untouched text byte for byte by splicing.

pub mod codes;
pub mod diag;
pub mod directive;
pub mod edit;
pub mod expr;
pub mod fortran_lex;
pub mod implicit;
pub mod local_view;
pub mod span;
pub mod visit;
pub mod xml;

pub use codes::Code;
pub use diag::{Diag, FileId};
pub use directive::Directive;
pub use edit::Edit;
pub use expr::{BinOp, Expr, ExprKind, UnOp};
pub use span::{OffsetMap, Span};

/// Source language of a file. Fixed and free form differ only before parsing
/// (normalisation) and after (emission).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    C,
    FortranFree,
    FortranFixed,
}

impl Lang {
    pub fn is_fortran(self) -> bool {
        !matches!(self, Lang::C)
    }
    /// Language from a file name's extension, as `xmpcc`/`xmpf90` decide.
    pub fn from_path(path: &str) -> Option<Lang> {
        let ext = path.rsplit_once('.')?.1;
        match ext {
            "c" | "h" => Some(Lang::C),
            "f90" | "F90" | "f95" | "F95" | "f03" | "F03" | "f08" | "F08" => Some(Lang::FortranFree),
            "f" | "F" | "for" | "FOR" | "f77" | "F77" | "ftn" => Some(Lang::FortranFixed),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "C",
            Lang::FortranFree => "Fortran",
            Lang::FortranFixed => "Fortran (fixed form)",
        }
    }
}

pub type TypeId = usize;
pub type SymbolId = usize;

/// The whole compilation: one unit per source file.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub files: Vec<FileUnit>,
}

/// One source file.
#[derive(Clone, Debug)]
pub struct FileUnit {
    pub file: FileId,
    pub name: String,
    pub lang: Lang,
    /// Length of the original text; top-level item spans tile `0..len` with gaps.
    pub len: usize,
    pub types: TypeTable,
    /// File-scope symbols (C globals, Fortran external procedures and COMMON blocks).
    pub globals: SymbolTable,
    pub items: Vec<Item>,
    /// Spans tree-sitter reported as ERROR/MISSING (host-language syntax the front end
    /// could not parse; kept verbatim).
    pub host_errors: Vec<Span>,
}

#[derive(Clone, Debug)]
pub enum Item {
    /// A file-scope declaration (C) — the statement holds the symbols it declares.
    Decl(Stmt),
    Function(Function),
    Module(Module),
    /// A file-scope directive (C `#pragma xmp nodes` outside functions).
    Pragma(Pragma),
    /// Preprocessor lines, typedefs the IR does not model, etc.
    Verbatim(Span),
}

impl Item {
    pub fn span(&self) -> Span {
        match self {
            Item::Decl(s) => s.span,
            Item::Function(f) => f.span,
            Item::Module(m) => m.span,
            Item::Pragma(p) => p.span(),
            Item::Verbatim(s) => *s,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FuncKind {
    /// A C function definition.
    CFunction,
    /// Fortran main program.
    Program,
    Subroutine,
    Function,
}

/// A C function, or a Fortran program unit / subroutine / function.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub kind: FuncKind,
    pub span: Span,
    pub name_span: Span,
    /// Return type (C; Fortran functions with a declared type).
    pub ret: Option<TypeId>,
    /// Parameters, in order, as symbols of `symbols`.
    pub params: Vec<SymbolId>,
    /// Local symbols (parameters included).
    pub symbols: SymbolTable,
    /// Declarations, directives and executable statements in source order.
    pub body: Vec<Stmt>,
    /// Fortran `contains` procedures.
    pub contains: Vec<Function>,
}

impl Function {
    /// The declarations in the body of a typed Fortran function that type its result a
    /// second time (`integer function total(...)` with `integer*4 :: total`, FFB-MINI's
    /// `miniapp_util.F`). gfortran refuses them, Omni accepts them: the front end warns
    /// (XMP0204) and the Fortran printer drops them. One rule, read by both.
    pub fn result_retyped(&self) -> impl Iterator<Item = &Stmt> {
        let typed = self.kind == FuncKind::Function && self.ret.is_some();
        self.body.iter().filter(move |st| typed && matches!(&st.kind, StmtKind::Decl(ids) if ids.len() == 1 && self.symbols.get(ids[0]).name == self.name))
    }
}

/// A Fortran module.
#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    pub span: Span,
    pub name_span: Span,
    pub symbols: SymbolTable,
    /// Specification part: declarations and directives.
    pub decls: Vec<Stmt>,
    pub contains: Vec<Function>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub span: Span,
    /// Fortran statement label or C label (`L1:`).
    pub label: Option<String>,
    pub kind: StmtKind,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `{ ... }` (C) or a block of statements (Fortran `then` part, `do` body).
    Compound(Vec<Stmt>),
    /// A declaration statement; the symbols it declares (in the enclosing scope's table).
    Decl(Vec<SymbolId>),
    /// C expression statement (calls and assignments included).
    Expr(Expr),
    /// Fortran assignment `lhs = rhs` (also `=>`).
    Assign(Expr, Expr),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    /// C `for`.
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// Fortran counted `do` (`do i = l, u[, s]`, also `do 10 i = ...`).
    Do {
        var: Expr,
        lower: Expr,
        upper: Expr,
        step: Option<Expr>,
        end_label: Option<String>,
        body: Box<Stmt>,
    },
    /// C `while`, Fortran `do while`, Fortran bare `do` (cond = None).
    While {
        cond: Option<Expr>,
        body: Box<Stmt>,
    },
    /// C `do ... while`.
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// Fortran `call name(args)`.
    Call {
        name: String,
        args: Vec<Expr>,
    },
    Return(Option<Expr>),
    Goto(String),
    /// Fortran `stop [code]` / `error stop`.
    Stop(Option<Expr>),
    /// C `break`, Fortran `exit`.
    Break,
    /// C `continue`, Fortran `cycle`.
    Continue,
    /// Fortran `continue` (a no-op, usually a label target).
    Nop,
    /// An XMP/XACC/OpenACC directive and, for directives that apply to the next
    /// statement (`loop`, `task`, `gmove`, ...), that statement.
    Pragma(Pragma),
    /// Text the IR does not model.
    Verbatim,
}

/// A directive in its place in the program (XcodeML `XMPPragma` / `ACCPragma`).
#[derive(Clone, Debug)]
pub struct Pragma {
    pub dir: Directive,
    /// The statement (or, for Fortran `task ... end task`, the block) it applies to.
    pub body: Option<Box<Stmt>>,
    /// Fortran `end task` / `end device replicate` line, when there is one.
    pub end_span: Option<Span>,
}

impl Pragma {
    pub fn span(&self) -> Span {
        let mut s = self.dir.span;
        if let Some(b) = &self.body {
            s = s.to(b.span);
        }
        if let Some(e) = self.end_span {
            s = s.to(e);
        }
        s
    }
}

// ---------------------------------------------------------------- types and symbols

#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    pub types: Vec<Type>,
    /// Basic, pointer and function types by value, so `intern` is O(1).
    index: std::collections::HashMap<TypeKey, TypeId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum TypeKey {
    Basic(String),
    Pointer(TypeId),
    Function(TypeId, Vec<TypeId>),
}

impl TypeTable {
    /// Adds a type, reusing an equal basic, pointer or function type. Arrays and
    /// structs are always new entries: their bound expressions carry source spans, so two
    /// declarations are never equal anyway, and comparing them would make lowering
    /// quadratic in the number of declarations.
    pub fn intern(&mut self, t: Type) -> TypeId {
        let key = match &t {
            Type::Basic(n) => Some(TypeKey::Basic(n.clone())),
            Type::Pointer(r) => Some(TypeKey::Pointer(*r)),
            Type::Function { ret, params } => Some(TypeKey::Function(*ret, params.clone())),
            Type::Array { .. } | Type::Struct { .. } => None,
        };
        if let Some(&id) = key.as_ref().and_then(|k| self.index.get(k)) {
            if self.types.get(id) == Some(&t) {
                return id;
            }
        }
        self.types.push(t);
        let id = self.types.len() - 1;
        if let Some(k) = key {
            self.index.insert(k, id);
        }
        id
    }
    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id]
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `int`, `double`, `unsigned long`, `real(8)`, `integer`, `character(len=10)`,
    /// C typedef names, etc., normalised to single spaces.
    Basic(String),
    Pointer(TypeId),
    /// Array of `elem` with one entry per dimension, in source order
    /// (C: outermost first; Fortran: column-major order as declared).
    Array {
        elem: TypeId,
        dims: Vec<Dim>,
    },
    /// C struct/union, Fortran derived type.
    Struct {
        tag: Option<String>,
        fields: Vec<(String, TypeId)>,
    },
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
    },
}

/// One array dimension. C `a[N]`: `lower = None, upper = Some(N)` meaning extent N.
/// Fortran `a(0:n-1)`: both bounds; `a(n)`: lower None (= 1); `a(:)`/`a(*)`: `deferred`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dim {
    pub lower: Option<Expr>,
    pub upper: Option<Expr>,
    /// `:` (deferred/assumed shape) or `*` (assumed size) or C `[]`.
    pub deferred: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StorageClass {
    Auto,
    Static,
    Extern,
    Register,
    Param,
    Typedef,
    /// Fortran COMMON block member (block name; "" for blank common).
    Common,
    /// Declared in a Fortran module's specification part.
    ModuleVar,
    Func,
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub ty: TypeId,
    pub span: Span,
    pub sclass: StorageClass,
    /// Fortran attributes and C qualifiers as written, lower case
    /// (`allocatable`, `intent(in)`, `parameter`, `const`, `save`, `common /blk/`...).
    pub attrs: Vec<String>,
    /// Initialiser, if any.
    pub init: Option<Expr>,
}

#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    pub symbols: Vec<Symbol>,
}

impl SymbolTable {
    pub fn add(&mut self, s: Symbol) -> SymbolId {
        self.symbols.push(s);
        self.symbols.len() - 1
    }
    /// Looks a name up (Fortran callers pass lower-cased names; symbol names of Fortran
    /// units are stored lower-cased).
    pub fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.symbols.iter().find(|s| s.name == name)
    }
    pub fn get(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id]
    }
}

// ---------------------------------------------------------------- walking

impl Stmt {
    /// Direct child statements, in source order.
    pub fn children(&self) -> Vec<&Stmt> {
        match &self.kind {
            StmtKind::Compound(v) => v.iter().collect(),
            StmtKind::If { then, els, .. } => {
                let mut v = vec![&**then];
                if let Some(e) = els {
                    v.push(e);
                }
                v
            }
            StmtKind::For { init, body, .. } => init.iter().map(|b| &**b).chain(std::iter::once(&**body)).collect(),
            StmtKind::Do { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => {
                vec![&**body]
            }
            StmtKind::Pragma(p) => p.body.iter().map(|b| &**b).collect(),
            _ => vec![],
        }
    }

    /// Calls `f` on this statement and every statement below it, pre-order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Stmt)) {
        f(self);
        for c in self.children() {
            c.walk(f);
        }
    }
}

impl FileUnit {
    /// Every function in the file, `contains` and module procedures included.
    pub fn functions(&self) -> Vec<&Function> {
        fn add<'a>(f: &'a Function, out: &mut Vec<&'a Function>) {
            out.push(f);
            for c in &f.contains {
                add(c, out);
            }
        }
        let mut out = Vec::new();
        for it in &self.items {
            match it {
                Item::Function(f) => add(f, &mut out),
                Item::Module(m) => m.contains.iter().for_each(|f| add(f, &mut out)),
                _ => {}
            }
        }
        out
    }

    /// Every directive in the file in source order.
    pub fn pragmas(&self) -> Vec<&Pragma> {
        fn stmt<'a>(s: &'a Stmt, out: &mut Vec<&'a Pragma>) {
            if let StmtKind::Pragma(p) = &s.kind {
                out.push(p);
            }
            for c in s.children() {
                stmt(c, out);
            }
        }
        fn func<'a>(f: &'a Function, out: &mut Vec<&'a Pragma>) {
            f.body.iter().for_each(|s| stmt(s, out));
            f.contains.iter().for_each(|c| func(c, out));
        }
        let mut out = Vec::new();
        for it in &self.items {
            match it {
                Item::Pragma(p) => {
                    out.push(p);
                    if let Some(b) = &p.body {
                        stmt(b, &mut out);
                    }
                }
                Item::Decl(s) => stmt(s, &mut out),
                Item::Function(f) => func(f, &mut out),
                Item::Module(m) => {
                    m.decls.iter().for_each(|s| stmt(s, &mut out));
                    m.contains.iter().for_each(|f| func(f, &mut out));
                }
                Item::Verbatim(_) => {}
            }
        }
        out.sort_by_key(|p| p.dir.span.start);
        out
    }
}
