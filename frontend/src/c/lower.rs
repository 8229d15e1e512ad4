//! tree-sitter-c CST → IR: items, statements and directive attachment.

use super::tree::{first_named, kids, named, span, Fields};
use std::collections::HashMap;
use tree_sitter::Node;
use xmpc_ir::{Diag, Directive, FileId, FuncKind, Function, Item, Pragma, Span, Stmt, StmtKind, SymbolTable, TypeId, TypeTable};

/// Deeper statements or expressions are kept verbatim (keeps recursion off the stack
/// limit on generated code).
pub(super) const MAX_DEPTH: usize = 128;

/// A masked directive; `dir` is `None` when it did not parse (the error is reported).
pub(super) struct Dir {
    pub span: Span,
    pub dir: Option<Directive>,
    pub used: bool,
}

pub(super) struct Lower<'a> {
    pub f: Fields,
    pub src: &'a str,
    pub file: FileId,
    /// Sorted by start (they come from a left-to-right scan).
    pub dirs: Vec<Dir>,
    pub types: TypeTable,
    pub basic: HashMap<String, TypeId>,
    pub pointers: HashMap<TypeId, TypeId>,
    pub funcs: HashMap<(TypeId, Vec<TypeId>), TypeId>,
    /// Struct/union tag → type, so that later uses see the fields.
    pub tags: HashMap<String, TypeId>,
    pub diags: Vec<Diag>,
    pub depth: usize,
    /// Masked gmove/array statements (sorted), parsed by `section`.
    pub sections: Vec<Span>,
}

/// A child of a statement list after flattening preprocessor conditionals and `case`
/// labels.
enum Piece<'t> {
    Node(Node<'t>),
    Verbatim(Span),
    Dir(usize),
}

// Short-lived, one per statement of a list; boxing would cost an allocation each.
#[allow(clippy::large_enum_variant)]
enum Entry {
    Stmt(Stmt),
    Dir(usize),
}

fn stmt(span: Span, kind: StmtKind) -> Stmt {
    Stmt { span, label: None, kind }
}

impl<'a> Lower<'a> {
    pub fn new(src: &'a str, file: FileId, dirs: Vec<Dir>, lang: &tree_sitter::Language) -> Self {
        Lower {
            f: Fields::new(lang),
            src,
            file,
            dirs,
            types: TypeTable::default(),
            basic: HashMap::new(),
            pointers: HashMap::new(),
            funcs: HashMap::new(),
            tags: HashMap::new(),
            diags: Vec::new(),
            depth: 0,
            sections: Vec::new(),
        }
    }

    pub fn text(&self, n: Node) -> &'a str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    /// Drops trailing whitespace (the newline that ends a preprocessor line).
    fn trim(&self, s: Span) -> Span {
        let b = self.src.as_bytes();
        let mut e = s.end.min(b.len());
        while e > s.start && b[e - 1].is_ascii_whitespace() {
            e -= 1;
        }
        Span::new(s.start, e)
    }

    fn dir_at(&self, start: usize) -> Option<usize> {
        let i = self.dirs.partition_point(|d| d.span.start < start);
        (i < self.dirs.len() && self.dirs[i].span.start == start).then_some(i)
    }

    /// Marks directive `i` used and hands it out (`None` if it failed to parse).
    fn take_dir(&mut self, i: usize) -> Option<Directive> {
        self.dirs[i].used = true;
        self.dirs[i].dir.take()
    }

    // ------------------------------------------------------------ flattening

    /// Children of a list container (translation unit, compound statement), with
    /// `#if`/`#ifdef` groups and `case` labels flattened: their own lines become
    /// verbatim pieces, their contents are pieces of this list.
    fn pieces<'t>(&self, n: Node<'t>, out: &mut Vec<Piece<'t>>) {
        let mut pending: Option<Span> = None;
        let braces = n.kind() == "compound_statement";
        for (field, k) in kids(n) {
            let kind = k.kind();
            if kind == "comment" {
                if let Some(d) = self.dir_at(k.start_byte()) {
                    self.flush(&mut pending, out);
                    out.push(Piece::Dir(d));
                }
                continue;
            }
            if k.start_byte() == k.end_byte() {
                continue; // MISSING tokens
            }
            if !k.is_named() || matches!(field, Some("condition" | "name" | "value")) {
                if braces && (kind == "{" || kind == "}") {
                    continue;
                }
                pending = Some(pending.map_or(span(k), |p| p.to(span(k))));
                continue;
            }
            self.flush(&mut pending, out);
            let group = matches!(kind, "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" | "preproc_elifdef" | "case_statement");
            if group || field == Some("alternative") {
                self.pieces(k, out);
            } else if kind.starts_with("preproc_") && self.split_preproc_line(k, out) {
                // `#include <x.h>   ` + directive: the masked directive became part of
                // the include line (tree-sitter takes the comment before the newline).
            } else {
                out.push(Piece::Node(k));
            }
        }
        self.flush(&mut pending, out);
    }

    /// A preprocessor line (`#include`, `#define` ...) whose node swallowed the masked
    /// directives after it (trailing blanks before the newline let tree-sitter take the
    /// following comment as part of the line): the line up to the first directive is
    /// verbatim, each directive a piece of its own. False when it holds none.
    fn split_preproc_line(&self, k: Node, out: &mut Vec<Piece>) -> bool {
        let mut c = k.walk();
        let inner: Vec<usize> = k.children(&mut c).filter(|n| n.kind() == "comment").filter_map(|n| self.dir_at(n.start_byte())).collect();
        let Some(&first) = inner.first() else { return false };
        out.push(Piece::Verbatim(self.trim(Span::new(k.start_byte(), self.dirs[first].span.start))));
        out.extend(inner.into_iter().map(Piece::Dir));
        true
    }

    fn flush(&self, pending: &mut Option<Span>, out: &mut Vec<Piece>) {
        if let Some(s) = pending.take() {
            out.push(Piece::Verbatim(self.trim(s)));
        }
    }

    // ------------------------------------------------------------ items

    pub fn items(&mut self, root: Node, globals: &mut SymbolTable) -> Vec<Item> {
        let mut ps = Vec::new();
        self.pieces(root, &mut ps);
        let mut items = Vec::with_capacity(ps.len() + 1);
        if self.src.starts_with('\u{feff}') {
            // tree-sitter skips a byte-order mark; keep it as an item so items tile.
            items.push(Item::Verbatim(Span::new(0, 3)));
        }
        let mut after_spec = false;
        for p in ps {
            // `struct s {...};` at file scope is a specifier node and a `;` token:
            // one item.
            let spec_end = std::mem::take(&mut after_spec);
            match p {
                Piece::Verbatim(s) if spec_end && self.src.get(s.range()) == Some(";") => match items.last_mut() {
                    Some(Item::Verbatim(v)) => *v = v.to(s),
                    Some(Item::Decl(d)) => d.span = d.span.to(s),
                    _ => items.push(Item::Verbatim(s)),
                },
                Piece::Verbatim(s) => items.push(Item::Verbatim(s)),
                // File-scope directives (nodes, template, distribute ...) take nothing.
                Piece::Dir(i) => items.push(match self.take_dir(i) {
                    Some(dir) => Item::Pragma(Pragma { dir, body: None, end_span: None }),
                    None => Item::Verbatim(self.dirs[i].span),
                }),
                Piece::Node(k) => {
                    after_spec = matches!(k.kind(), "struct_specifier" | "union_specifier" | "enum_specifier");
                    items.push(self.item(k, globals));
                }
            }
        }
        items
    }

    fn item(&mut self, k: Node, globals: &mut SymbolTable) -> Item {
        match k.kind() {
            "function_definition" => match self.function(k, globals) {
                Some(f) => Item::Function(f),
                None => Item::Verbatim(span(k)),
            },
            "declaration" | "type_definition" => {
                let ids = self.decl(k, globals);
                if ids.is_empty() {
                    Item::Verbatim(span(k))
                } else {
                    Item::Decl(stmt(span(k), StmtKind::Decl(ids)))
                }
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                let mut enumerators = Vec::new();
                self.type_spec(k, globals, &mut enumerators);
                if enumerators.is_empty() {
                    Item::Verbatim(span(k))
                } else {
                    Item::Decl(stmt(span(k), StmtKind::Decl(enumerators)))
                }
            }
            _ => Item::Verbatim(self.trim(span(k))),
        }
    }

    fn function(&mut self, k: Node, globals: &mut SymbolTable) -> Option<Function> {
        let spec = self.spec(k, globals);
        let d = k.child_by_field_id(self.f.declarator)?;
        let (name, fty) = self.declarator(d, spec.base);
        let name = name?;
        let ret = match self.types.get(fty) {
            xmpc_ir::Type::Function { ret, .. } => Some(*ret),
            _ => None,
        };
        let mut syms = SymbolTable::default();
        let params = match own_function_declarator(&self.f, d).and_then(|fd| fd.child_by_field_id(self.f.parameters)) {
            Some(pl) => self.params(pl, &mut syms),
            None => vec![],
        };
        globals.add(self.symbol(name, fty, &spec, None));
        let body = match k.child_by_field_id(self.f.body) {
            Some(b) => self.block(b, &mut syms),
            None => vec![],
        };
        Some(Function {
            name: self.text(name).to_string(),
            kind: FuncKind::CFunction,
            span: span(k),
            name_span: span(name),
            ret,
            params,
            symbols: syms,
            body,
            contains: vec![],
        })
    }

    // ------------------------------------------------------------ statements

    /// The statements of a list container, directives attached.
    /// All locals of a function share one table, so an inner-block variable that
    /// shadows an outer one is a second symbol of the same name.
    pub fn block(&mut self, n: Node, syms: &mut SymbolTable) -> Vec<Stmt> {
        let mut ps = Vec::new();
        self.pieces(n, &mut ps);
        let mut entries = Vec::with_capacity(ps.len());
        for p in ps {
            entries.push(match p {
                Piece::Verbatim(s) => Entry::Stmt(stmt(s, StmtKind::Verbatim)),
                Piece::Dir(i) => Entry::Dir(i),
                Piece::Node(k) => Entry::Stmt(self.stmt(k, syms)),
            });
        }
        let mut it = entries.into_iter();
        let mut out = Vec::new();
        while let Some(e) = it.next() {
            out.push(self.attach(e, &mut it));
        }
        out
    }

    /// A directive that applies to the next statement takes it (and a chain of such
    /// directives nests).
    fn attach(&mut self, e: Entry, rest: &mut std::vec::IntoIter<Entry>) -> Stmt {
        let i = match e {
            Entry::Stmt(s) => return s,
            Entry::Dir(i) => i,
        };
        let span = self.dirs[i].span;
        let Some(dir) = self.take_dir(i) else {
            return stmt(span, StmtKind::Verbatim);
        };
        let body = if dir.attaches_to_next() { rest.next().map(|n| Box::new(self.attach(n, rest))) } else { None };
        let p = Pragma { dir, body, end_span: None };
        stmt(p.span(), StmtKind::Pragma(p))
    }

    /// The body of a control statement. Directives masked between the header and an
    /// unbraced body are comments inside `parent`; they wrap the body whatever they
    /// are, since only one statement fits there.
    fn body(&mut self, parent: Node, body: Node, syms: &mut SymbolTable) -> Stmt {
        let mut before = Vec::new();
        let first = self.dirs.partition_point(|d| d.span.start < parent.start_byte());
        let any = self.dirs.get(first).is_some_and(|d| d.span.start < body.start_byte());
        for (_, k) in if any { kids(parent) } else { Vec::new() } {
            if k.id() == body.id() {
                break;
            }
            if k.kind() == "comment" {
                if let Some(d) = self.dir_at(k.start_byte()) {
                    before.push(d);
                }
            } else {
                before.clear();
            }
        }
        let mut s = self.stmt(body, syms);
        for i in before.into_iter().rev() {
            if let Some(dir) = self.take_dir(i) {
                let p = Pragma { dir, body: Some(Box::new(s)), end_span: None };
                s = stmt(p.span(), StmtKind::Pragma(p));
            }
        }
        s
    }

    pub fn stmt(&mut self, k: Node, syms: &mut SymbolTable) -> Stmt {
        if self.depth >= MAX_DEPTH {
            return stmt(span(k), StmtKind::Verbatim);
        }
        self.depth += 1;
        let s = self.stmt_inner(k, syms);
        self.depth -= 1;
        s
    }

    fn stmt_inner(&mut self, k: Node, syms: &mut SymbolTable) -> Stmt {
        let sp = span(k);
        let kind = match k.kind() {
            // A masked gmove/array statement (see `mask::Masked::sections`).
            "compound_statement" if self.sections.binary_search(&sp).is_ok() => match super::section::parse_statement(self.src, sp) {
                Some(e) => StmtKind::Expr(e),
                None => StmtKind::Verbatim,
            },
            "compound_statement" => StmtKind::Compound(self.block(k, syms)),
            "declaration" | "type_definition" => StmtKind::Decl(self.decl(k, syms)),
            "expression_statement" => match first_named(k) {
                Some(e) => StmtKind::Expr(self.expr(e)),
                None => StmtKind::Verbatim,
            },
            "if_statement" => match (k.child_by_field_id(self.f.condition), k.child_by_field_id(self.f.consequence)) {
                (Some(c), Some(t)) => {
                    let cond = self.cond(c);
                    let then = Box::new(self.body(k, t, syms));
                    let els =
                        k.child_by_field_id(self.f.alternative).and_then(|e| first_named(e).map(|b| (e, b))).map(|(e, b)| Box::new(self.body(e, b, syms)));
                    StmtKind::If { cond, then, els }
                }
                _ => StmtKind::Verbatim,
            },
            "for_statement" => match k.child_by_field_id(self.f.body) {
                Some(b) => {
                    let init = k.child_by_field_id(self.f.initializer).map(|i| {
                        Box::new(if i.kind() == "declaration" {
                            stmt(span(i), StmtKind::Decl(self.decl(i, syms)))
                        } else {
                            stmt(span(i), StmtKind::Expr(self.expr(i)))
                        })
                    });
                    let cond = k.child_by_field_id(self.f.condition).map(|c| self.expr(c));
                    let step = k.child_by_field_id(self.f.update).map(|c| self.expr(c));
                    let body = Box::new(self.body(k, b, syms));
                    StmtKind::For { init, cond, step, body }
                }
                None => StmtKind::Verbatim,
            },
            "while_statement" => match (k.child_by_field_id(self.f.condition), k.child_by_field_id(self.f.body)) {
                (Some(c), Some(b)) => StmtKind::While { cond: Some(self.cond(c)), body: Box::new(self.body(k, b, syms)) },
                _ => StmtKind::Verbatim,
            },
            "do_statement" => match (k.child_by_field_id(self.f.condition), k.child_by_field_id(self.f.body)) {
                (Some(c), Some(b)) => {
                    let body = Box::new(self.body(k, b, syms));
                    StmtKind::DoWhile { body, cond: self.cond(c) }
                }
                _ => StmtKind::Verbatim,
            },
            "switch_statement" => match (k.child_by_field_id(self.f.condition), k.child_by_field_id(self.f.body)) {
                (Some(c), Some(b)) => StmtKind::Switch { cond: self.cond(c), body: Box::new(self.body(k, b, syms)) },
                _ => StmtKind::Verbatim,
            },
            "return_statement" => StmtKind::Return(first_named(k).map(|e| self.expr(e))),
            "goto_statement" => match k.child_by_field_id(self.f.label) {
                Some(l) => StmtKind::Goto(self.text(l).to_string()),
                None => StmtKind::Verbatim,
            },
            "break_statement" => StmtKind::Break,
            "continue_statement" => StmtKind::Continue,
            "labeled_statement" => {
                let label = k.child_by_field_id(self.f.label).map(|l| self.text(l).to_string());
                let inner = kids(k).into_iter().find(|(f, n)| *f != Some("label") && n.is_named() && n.kind() != "comment");
                return match (label, inner) {
                    (Some(label), Some((_, b))) => {
                        let mut s = self.body(k, b, syms);
                        if s.label.is_some() {
                            // `a: b: x;` — the IR has one label per statement.
                            s = stmt(s.span, StmtKind::Compound(vec![s]));
                        }
                        Stmt { span: sp, label: Some(label), kind: s.kind }
                    }
                    _ => stmt(sp, StmtKind::Verbatim),
                };
            }
            kind if kind.starts_with("preproc_") => return stmt(self.trim(sp), StmtKind::Verbatim),
            _ => StmtKind::Verbatim,
        };
        stmt(sp, kind)
    }
}

/// The function declarator whose declarator is the name: `f` in `int (*f(void))(int)`.
fn own_function_declarator<'t>(f: &Fields, d: Node<'t>) -> Option<Node<'t>> {
    let mut cur = d;
    let mut last = None;
    loop {
        let next = match cur.kind() {
            "function_declarator" => {
                last = Some(cur);
                cur.child_by_field_id(f.declarator)
            }
            "pointer_declarator" => cur.child_by_field_id(f.declarator),
            "parenthesized_declarator" | "attributed_declarator" => named(cur).next(),
            _ => None,
        };
        match next {
            Some(n) => cur = n,
            None => return last,
        }
    }
}
