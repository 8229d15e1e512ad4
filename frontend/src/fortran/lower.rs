//! tree-sitter-fortran CST → xmpc IR: program units, symbols, statements, expressions.
//! Directives arrive pre-parsed, keyed by the derived offset of their first `!`
//! (tree-sitter sees them as comments).

use super::expr::lower_name;
use super::fixed::Normalised;
use std::collections::HashMap;
use tree_sitter::Node;
use xmpc_ir::diag::{Diagnostic, Label};
use xmpc_ir::directive::Directive;
use xmpc_ir::{
    Diag, Dim, Expr, FileId, FuncKind, Function, Item, Module, Pragma, Span, StmtKind, StorageClass, Stmt, Symbol,
    SymbolId, SymbolTable, Type, TypeId, TypeTable,
};

/// A directive found by the sentinel scan: parsed (or not) and where it is.
pub struct Dir {
    pub span: Span,
    pub dir: Option<Directive>,
    pub used: bool,
}

pub struct Lower<'a> {
    /// Original text (spans) and derived free-form text (the tree).
    pub orig: &'a str,
    pub src: &'a str,
    pub n: &'a Normalised,
    pub file: FileId,
    pub dirs: Vec<Dir>,
    /// Derived offset of a directive's first `!` → index in `dirs`.
    pub dir_at: HashMap<usize, usize>,
    /// Sorted derived offsets of first lines, for range queries.
    pub dir_starts: Vec<(usize, usize)>,
    pub types: TypeTable,
    pub basic: HashMap<String, TypeId>,
    pub globals: SymbolTable,
    pub diags: Vec<Diag>,
    /// The symbol table being filled and its default storage class.
    scope: SymbolTable,
    class: StorageClass,
    /// One cursor reused for every child walk (a new one allocates).
    cur: tree_sitter::TreeCursor<'a>,
    pub f: Fields,
}

/// Field ids looked up once (by name it is a linear scan each time).
pub struct Fields {
    pub left: u16,
    pub right: u16,
    pub operator: u16,
    pub argument: u16,
    pub name: u16,
    pub parameters: u16,
    pub type_: u16,
    pub do_label: u16,
    pub subroutine: u16,
}

impl Fields {
    fn new(lang: &tree_sitter::Language) -> Fields {
        let f = |n: &str| lang.field_id_for_name(n).map_or(u16::MAX, |x| x.get());
        Fields {
            left: f("left"),
            right: f("right"),
            operator: f("operator"),
            argument: f("argument"),
            name: f("name"),
            parameters: f("parameters"),
            type_: f("type"),
            do_label: f("do_label"),
            subroutine: f("subroutine"),
        }
    }
}

impl<'a> Lower<'a> {
    pub fn new(orig: &'a str, n: &'a Normalised, file: FileId, dirs: Vec<Dir>, dir_at: HashMap<usize, usize>, root: Node<'a>) -> Self {
        let mut dir_starts: Vec<(usize, usize)> = dir_at.iter().map(|(&k, &v)| (k, v)).collect();
        dir_starts.sort();
        Lower {
            orig,
            src: &n.text,
            n,
            file,
            dirs,
            dir_at,
            dir_starts,
            types: TypeTable::default(),
            basic: HashMap::new(),
            globals: SymbolTable::default(),
            diags: Vec::new(),
            scope: SymbolTable::default(),
            class: StorageClass::Auto,
            cur: root.walk(),
            f: Fields::new(&tree_sitter_fortran::LANGUAGE.into()),
        }
    }

    /// Children (all, or named ones without comments).
    fn walk_children(&mut self, n: Node<'a>, only_named: bool) -> Vec<Node<'a>> {
        let c = &mut self.cur;
        c.reset(n);
        let mut v = Vec::new();
        if c.goto_first_child() {
            loop {
                let k = c.node();
                if !only_named || (k.is_named() && k.kind() != "comment") {
                    v.push(k);
                }
                if !c.goto_next_sibling() {
                    break;
                }
            }
        }
        v
    }

    pub fn named(&mut self, n: Node<'a>) -> Vec<Node<'a>> {
        self.walk_children(n, true)
    }

    pub fn kids(&mut self, n: Node<'a>) -> Vec<Node<'a>> {
        self.walk_children(n, false)
    }

    pub fn text(&self, n: Node) -> &'a str {
        &self.src[n.byte_range()]
    }

    /// Original span of a node, trailing whitespace dropped.
    pub fn span(&self, n: Node) -> Span {
        self.dspan(n.start_byte(), n.end_byte())
    }

    pub fn dspan(&self, s: usize, e: usize) -> Span {
        let t = self.src[s..e].trim_end();
        self.n.span(s, s + t.len())
    }

    pub fn basic(&mut self, name: &str) -> TypeId {
        if let Some(&t) = self.basic.get(name) {
            return t;
        }
        self.types.types.push(Type::Basic(name.to_string()));
        let id = self.types.types.len() - 1;
        self.basic.insert(name.to_string(), id);
        id
    }

    // ------------------------------------------------------------ items

    pub fn items(&mut self, root: Node<'a>) -> Vec<Item> {
        let mut out = Vec::new();
        if root.is_error() {
            // Nothing recognisable at file level (error recovery may even drop
            // tokens from the children): keep it all, minus the directives.
            for s in self.verbatim_split(root) {
                out.push(match s.kind {
                    StmtKind::Pragma(p) => Item::Pragma(p),
                    _ => Item::Verbatim(s.span),
                });
            }
            return out;
        }
        for k in self.kids(root) {
            match k.kind() {
                "program" | "subroutine" | "function" => {
                    let f = self.function(k);
                    let ty = match f.kind {
                        FuncKind::Function => f.ret.unwrap_or_else(|| self.basic("function")),
                        FuncKind::Program => self.basic("program"),
                        _ => self.basic("subroutine"),
                    };
                    if self.globals.lookup(&f.name).is_none() {
                        let s = Symbol { name: f.name.clone(), ty, span: f.name_span, sclass: StorageClass::Func, attrs: vec![], init: None };
                        self.globals.add(s);
                    }
                    out.push(Item::Function(f));
                }
                "module" => out.push(Item::Module(self.module(k))),
                "comment" => {
                    if let Some(&i) = self.dir_at.get(&k.start_byte()) {
                        self.dirs[i].used = true;
                        match self.dirs[i].dir.clone() {
                            Some(d) => out.push(Item::Pragma(Pragma { dir: d, body: None, end_span: None })),
                            None => out.push(Item::Verbatim(self.dirs[i].span)),
                        }
                    }
                }
                _ => {
                    for s in self.verbatim_split(k) {
                        out.push(match s.kind {
                            StmtKind::Pragma(p) => Item::Pragma(p),
                            _ => Item::Verbatim(s.span),
                        });
                    }
                }
            }
        }
        out
    }

    fn unit_name(&mut self, header: Option<Node<'a>>, at: usize) -> (String, Span) {
        let name = match header {
            Some(h) => match h.child_by_field_id(self.f.name) {
                Some(n) => Some(n),
                None => self.named(h).into_iter().find(|c| c.kind() == "name"),
            },
            None => None,
        };
        match name {
            Some(n) => (lower_name(self.text(n)), self.span(n)),
            None => ("main".to_string(), self.n.span(at, at)),
        }
    }

    fn function(&mut self, node: Node<'a>) -> Function {
        let kind = match node.kind() {
            "program" => FuncKind::Program,
            "subroutine" => FuncKind::Subroutine,
            _ => FuncKind::Function,
        };
        let all = self.kids(node);
        let header = all.iter().copied().find(|c| matches!(c.kind(), "program_statement" | "subroutine_statement" | "function_statement"));
        let (name, name_span) = self.unit_name(header, node.start_byte());
        let saved = (std::mem::take(&mut self.scope), self.class);
        self.class = StorageClass::Auto;

        let mut params = Vec::new();
        let mut ret = None;
        if let Some(h) = header {
            if let Some(ps) = h.child_by_field_id(self.f.parameters) {
                for p in self.named(ps) {
                    let pname = lower_name(self.text(p));
                    let ty = self.implicit(&pname);
                    let s = Symbol { name: pname, ty, span: self.span(p), sclass: StorageClass::Param, attrs: vec![], init: None };
                    params.push(self.scope.add(s));
                }
            }
            if let Some(t) = h.child_by_field_id(self.f.type_) {
                ret = Some(self.type_of(t));
            }
        }
        let mut body_nodes = Vec::new();
        let mut contains = Vec::new();
        for c in &all {
            match c.kind() {
                "program_statement" | "subroutine_statement" | "function_statement" => {}
                k if k.starts_with("end_") && k.ends_with("_statement") => {}
                "internal_procedures" => contains = self.procedures(*c),
                _ => body_nodes.push(*c),
            }
        }
        let body = self.stmts(&body_nodes);
        let symbols = std::mem::replace(&mut self.scope, saved.0);
        self.class = saved.1;
        Function { name, kind, span: self.span(node), name_span, ret, params, symbols, body, contains }
    }

    fn procedures(&mut self, node: Node<'a>) -> Vec<Function> {
        let mut out = Vec::new();
        for c in self.kids(node) {
            if matches!(c.kind(), "subroutine" | "function") {
                out.push(self.function(c));
            }
        }
        out
    }

    fn module(&mut self, node: Node<'a>) -> Module {
        let all = self.kids(node);
        let header = all.iter().copied().find(|c| c.kind() == "module_statement");
        let (name, name_span) = self.unit_name(header, node.start_byte());
        let saved = (std::mem::take(&mut self.scope), self.class);
        self.class = StorageClass::ModuleVar;
        let mut decl_nodes = Vec::new();
        let mut contains = Vec::new();
        for c in &all {
            match c.kind() {
                "module_statement" | "end_module_statement" => {}
                "internal_procedures" => contains = self.procedures(*c),
                _ => decl_nodes.push(*c),
            }
        }
        let decls = self.stmts(&decl_nodes);
        let symbols = std::mem::replace(&mut self.scope, saved.0);
        self.class = saved.1;
        Module { name, span: self.span(node), name_span, symbols, decls, contains }
    }

    // ------------------------------------------------------------ statement lists

    /// Lowers a run of sibling nodes: labels go to the next statement, directive
    /// comments become pragmas, then blocks are folded and pragmas attached.
    pub fn stmts(&mut self, nodes: &[Node<'a>]) -> Vec<Stmt> {
        let mut out = Vec::new();
        let mut label: Option<(String, Span)> = None;
        for &k in nodes {
            if k.start_byte() == k.end_byte() {
                continue; // MISSING tokens: reported as host errors
            }
            match k.kind() {
                "comment" => {
                    if let Some(&i) = self.dir_at.get(&k.start_byte()) {
                        // A label with no statement before a directive stays text.
                        if let Some((l, sp)) = label.take() {
                            out.push(Stmt { span: sp, label: Some(l), kind: StmtKind::Verbatim });
                        }
                        out.push(self.pragma_stmt(i));
                    }
                }
                "statement_label" => {
                    let t = self.text(k).trim();
                    if !t.is_empty() {
                        label = Some((t.to_string(), self.span(k)));
                    }
                }
                _ => {
                    let first = out.len();
                    self.stmt(k, &mut out);
                    if let Some((l, sp)) = label.take() {
                        if let Some(s) = out.get_mut(first) {
                            s.label = Some(l);
                            s.span = sp.to(s.span);
                        }
                    }
                }
            }
        }
        if let Some((l, sp)) = label {
            out.push(Stmt { span: sp, label: Some(l), kind: StmtKind::Verbatim });
        }
        self.fold_blocks(out)
    }

    fn pragma_stmt(&mut self, i: usize) -> Stmt {
        let d = &mut self.dirs[i];
        d.used = true;
        let kind = match d.dir.clone() {
            Some(dir) => StmtKind::Pragma(Pragma { dir, body: None, end_span: None }),
            None => StmtKind::Verbatim,
        };
        Stmt { span: d.span, label: None, kind }
    }

    /// A node kept as text. Directives swallowed by an ERROR node are cut out of it so
    /// they still reach the IR; inside a well-formed construct the IR does not model they
    /// are reported and left in the text.
    pub fn verbatim_split(&mut self, k: Node<'a>) -> Vec<Stmt> {
        let (s, e) = (k.start_byte(), k.end_byte());
        let lo = self.dir_starts.partition_point(|d| d.0 < s);
        let hi = self.dir_starts.partition_point(|d| d.0 < e);
        let inside: Vec<usize> = self.dir_starts[lo..hi].iter().map(|d| d.1).collect();
        let whole = Stmt { span: self.span(k), label: None, kind: StmtKind::Verbatim };
        if inside.is_empty() {
            return vec![whole];
        }
        if !k.has_error() {
            for i in inside {
                self.dirs[i].used = true;
                let sp = self.dirs[i].span;
                self.diags.push(
                    Diagnostic::warning()
                        .with_code("XMP0203")
                        .with_message(format!("directive inside `{}` is not translated", k.kind().replace('_', " ")))
                        .with_labels(vec![Label::primary(self.file, sp.range()).with_message("kept as a comment")]),
                );
            }
            return vec![whole];
        }
        let mut out = Vec::new();
        let mut cur = whole.span.start;
        for i in inside {
            let d = self.dirs[i].span;
            if d.start > cur {
                out.push(Stmt { span: Span::new(cur, d.start), label: None, kind: StmtKind::Verbatim });
            }
            let stmt = self.pragma_stmt(i);
            cur = stmt.span.end;
            out.push(stmt);
        }
        if cur < whole.span.end {
            out.push(Stmt { span: Span::new(cur, whole.span.end), label: None, kind: StmtKind::Verbatim });
        }
        // Trim the verbatim pieces to their text.
        for s in &mut out {
            if matches!(s.kind, StmtKind::Verbatim) {
                s.span = self.trim_orig(s.span);
            }
        }
        out.retain(|s| !s.span.is_empty() || !matches!(s.kind, StmtKind::Verbatim));
        out
    }

    /// Original span shrunk to its non-blank text.
    fn trim_orig(&self, s: Span) -> Span {
        let Some(t) = self.orig.get(s.start..s.end) else { return s };
        let a = t.len() - t.trim_start().len();
        let b = t.trim_end().len();
        if b <= a {
            return Span::new(s.start, s.start);
        }
        Span::new(s.start + a, s.start + b)
    }

    // ------------------------------------------------------------ statements

    fn stmt(&mut self, k: Node<'a>, out: &mut Vec<Stmt>) {
        let span = self.span(k);
        let kind = match k.kind() {
            "assignment_statement" if !k.has_error() => {
                let (l, r) = (k.child_by_field_id(self.f.left), k.child_by_field_id(self.f.right));
                match (l, r) {
                    (Some(l), Some(r)) => StmtKind::Assign(self.expr(l), self.expr(r)),
                    _ => StmtKind::Verbatim,
                }
            }
            "pointer_association_statement" if !k.has_error() => {
                let v = self.named(k);
                if v.len() == 2 {
                    StmtKind::Assign(self.expr(v[0]), self.expr(v[1]))
                } else {
                    StmtKind::Verbatim
                }
            }
            "subroutine_call" if !k.has_error() => {
                let name = k.child_by_field_id(self.f.subroutine).map(|n| lower_name(self.text(n))).unwrap_or_default();
                let args = self.named(k).into_iter().filter(|c| c.kind() == "argument_list").flat_map(|a| self.args(a)).collect();
                StmtKind::Call { name, args }
            }
            "do_loop" => match self.do_loop(k) {
                Some(s) => s,
                None => return out.extend(self.verbatim_split(k)),
            },
            "if_statement" => match self.if_stmt(k) {
                Some(s) => s,
                None => return out.extend(self.verbatim_split(k)),
            },
            "keyword_statement" if !k.has_error() => self.keyword(k),
            "stop_statement" if !k.has_error() => StmtKind::Stop(self.named(k).first().map(|e| self.expr(*e))),
            "variable_declaration" | "variable_modification" | "common_statement" | "parameter_statement" if !k.has_error() => {
                StmtKind::Decl(self.decl(k))
            }
            _ => return out.extend(self.verbatim_split(k)),
        };
        out.push(Stmt { span, label: None, kind });
    }

    fn keyword(&mut self, k: Node<'a>) -> StmtKind {
        let t: String = self.text(k).chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        let parts = self.named(k);
        if t.starts_with("goto") {
            if parts.len() == 1 && parts[0].kind() == "statement_label_reference" {
                return StmtKind::Goto(self.text(parts[0]).trim().to_string());
            }
            return StmtKind::Verbatim;
        }
        if t == "continue" {
            StmtKind::Nop
        } else if t.starts_with("exit") {
            StmtKind::Break
        } else if t.starts_with("cycle") {
            StmtKind::Continue
        } else if t.starts_with("return") {
            StmtKind::Return(parts.first().map(|e| self.expr(*e)))
        } else {
            StmtKind::Verbatim
        }
    }

    fn compound(&self, body: Vec<Stmt>, at: usize) -> Stmt {
        let span = match (body.first(), body.last()) {
            (Some(a), Some(b)) => a.span.to(b.span),
            _ => Span::new(at, at),
        };
        Stmt { span, label: None, kind: StmtKind::Compound(body) }
    }

    fn do_loop(&mut self, k: Node<'a>) -> Option<StmtKind> {
        let all = self.kids(k);
        // `name: do ...` puts the construct name first.
        let at = all.iter().position(|c| c.kind() == "do_statement")?;
        let ds = all[at];
        if ds.has_error() {
            return None;
        }
        let end_label = ds.child_by_field_id(self.f.do_label).map(|l| self.text(l).trim().to_string());
        let mut body_nodes = Vec::new();
        let mut terminal = Vec::new();
        for c in &all[at + 1..] {
            match c.kind() {
                "end_do_loop_statement" => {}
                "end_do_label_loop_statement" => {
                    let real: Vec<Node> = self.named(*c).into_iter().filter(|n| !matches!(n.kind(), "statement_label" | "do_label_virtual")).collect();
                    terminal = real;
                }
                _ => body_nodes.push(*c),
            }
        }
        let mut body = self.stmts(&body_nodes);
        for t in terminal {
            let mut v = Vec::new();
            self.stmt(t, &mut v);
            for mut s in v {
                if let Some(l) = &end_label {
                    s.label = Some(l.clone());
                }
                push_terminal(&mut body, end_label.as_deref(), s);
            }
        }
        let at = self.n.to_orig(ds.end_byte());
        let body = Box::new(self.compound(body, at));
        let parts = self.named(ds);
        if let Some(lc) = parts.iter().find(|p| p.kind() == "loop_control_expression") {
            let v = self.named(*lc);
            if v.len() < 3 {
                return None;
            }
            let step = v.get(3).map(|e| self.expr(*e));
            return Some(StmtKind::Do { var: self.expr(v[0]), lower: self.expr(v[1]), upper: self.expr(v[2]), step, end_label, body });
        }
        if let Some(w) = parts.iter().find(|p| p.kind() == "while_statement") {
            let cond = self.named(*w).first().map(|e| self.expr(*e));
            return Some(StmtKind::While { cond, body });
        }
        if parts.iter().any(|p| p.kind().contains("concurrent")) {
            return None;
        }
        Some(StmtKind::While { cond: None, body })
    }

    fn if_stmt(&mut self, k: Node<'a>) -> Option<StmtKind> {
        let all = self.kids(k);
        let cond_node = all.iter().copied().find(|c| c.kind() == "parenthesized_expression")?;
        if cond_node.has_error() {
            return None;
        }
        let cond = self.expr(cond_node);
        let block = all.iter().any(|c| c.kind() == "then");
        if !block {
            // Logical IF: one statement after the condition.
            let rest: Vec<Node> = all.iter().copied().filter(|c| c.is_named() && c.start_byte() >= cond_node.end_byte()).collect();
            let mut v = Vec::new();
            for r in rest {
                if r.kind() == "comment" {
                    continue;
                }
                self.stmt(r, &mut v);
            }
            let then = if v.len() == 1 { v.remove(0) } else { self.compound(v, self.n.to_orig(cond_node.end_byte())) };
            return Some(StmtKind::If { cond, then: Box::new(then), els: None });
        }
        let mut then_nodes = Vec::new();
        // Each clause with the nodes tree-sitter left after it in the IF itself (a
        // comment after a bare `else` lands there).
        let mut clauses: Vec<(Node<'a>, Vec<Node<'a>>)> = Vec::new();
        let mut seen_then = false;
        for c in &all {
            match c.kind() {
                "then" => seen_then = true,
                "elseif_clause" | "else_clause" => clauses.push((*c, Vec::new())),
                "end_if_statement" => {}
                _ if seen_then => match clauses.last_mut() {
                    Some(cl) => cl.1.push(*c),
                    None => then_nodes.push(*c),
                },
                _ => {}
            }
        }
        let then_at = self.n.to_orig(cond_node.end_byte());
        let then_body = self.stmts(&then_nodes);
        let then = Box::new(self.compound(then_body, then_at));
        let mut els: Option<Box<Stmt>> = None;
        for (c, extra) in clauses.into_iter().rev() {
            let ck = self.kids(c);
            let start = if c.kind() == "else_clause" { "else" } else { "then" };
            let pos = ck.iter().position(|x| x.kind() == start).map_or(ck.len(), |p| p + 1);
            let mut nodes: Vec<Node> = ck[pos..].to_vec();
            nodes.extend(extra);
            let body = self.stmts(&nodes);
            let at = ck.get(pos.saturating_sub(1)).map_or(c.end_byte(), |n| n.end_byte());
            let body = self.compound(body, self.n.to_orig(at));
            let span = self.span(c).to(body.span);
            if c.kind() == "else_clause" {
                els = Some(Box::new(Stmt { span, label: None, kind: body.kind }));
            } else {
                let cn = ck.iter().copied().find(|x| x.kind() == "parenthesized_expression");
                let Some(cn) = cn else { continue };
                let cond = self.expr(cn);
                let span = els.as_ref().map_or(span, |e| span.to(e.span));
                els = Some(Box::new(Stmt { span, label: None, kind: StmtKind::If { cond, then: Box::new(body), els: els.take() } }));
            }
        }
        Some(StmtKind::If { cond, then, els })
    }

    // ------------------------------------------------------------ declarations

    fn implicit(&mut self, name: &str) -> TypeId {
        let c = name.bytes().next().unwrap_or(b'a');
        self.basic(if (b'i'..=b'n').contains(&c) { "integer" } else { "real" })
    }

    fn type_of(&mut self, t: Node<'a>) -> TypeId {
        let s = norm_text(self.text(t));
        self.basic(&s)
    }

    /// Adds or updates a symbol of the current scope.
    fn declare(&mut self, name: &str, span: Span, info: SymInfo) -> SymbolId {
        let SymInfo { ty, dims, attrs, init, class } = info;
        let idx = self.scope.symbols.iter().position(|s| s.name == name);
        let idx = match idx {
            Some(i) => i,
            None => {
                let t = self.implicit(name);
                self.scope.add(Symbol { name: name.to_string(), ty: t, span, sclass: self.class, attrs: vec![], init: None })
            }
        };
        // Element type and dims: keep what is known, replace what is given.
        let old = self.scope.symbols[idx].ty;
        let (old_elem, old_dims) = match self.types.get(old) {
            Type::Array { elem, dims } => (*elem, Some(dims.clone())),
            _ => (old, None),
        };
        let elem = ty.unwrap_or(old_elem);
        let dims = dims.or(old_dims);
        let new_ty = match dims {
            Some(d) => {
                self.types.types.push(Type::Array { elem, dims: d });
                self.types.types.len() - 1
            }
            None => elem,
        };
        let s = &mut self.scope.symbols[idx];
        s.ty = new_ty;
        for a in attrs {
            if !s.attrs.contains(a) {
                s.attrs.push(a.clone());
            }
        }
        if init.is_some() {
            s.init = init;
        }
        if let Some(c) = class {
            if s.sclass != StorageClass::Param {
                s.sclass = c;
            }
        }
        idx
    }

    fn dims(&mut self, list: Node<'a>) -> Vec<Dim> {
        self.named(list).into_iter().map(|d| self.dim(d)).collect()
    }

    fn dim(&mut self, d: Node<'a>) -> Dim {
        match d.kind() {
            "assumed_size" => Dim { lower: None, upper: None, deferred: true },
            "extent_specifier" => {
                let mut lower = None;
                let mut upper = None;
                let mut deferred = false;
                let mut after = false;
                for c in self.kids(d) {
                    if c.kind() == ":" {
                        after = true;
                    } else if c.kind() == "assumed_size" {
                        deferred = true;
                    } else if c.is_named() && c.kind() != "comment" {
                        let e = self.expr(c);
                        if after {
                            upper = Some(e);
                        } else {
                            lower = Some(e);
                        }
                    }
                }
                if upper.is_none() {
                    deferred = true;
                }
                Dim { lower, upper, deferred }
            }
            _ => Dim { lower: None, upper: Some(self.expr(d)), deferred: false },
        }
    }

    /// A declarator: name node, dims node, initial value.
    fn declarator(&mut self, d: Node<'a>) -> Option<(Node<'a>, Option<Node<'a>>, Option<Node<'a>>)> {
        match d.kind() {
            "identifier" => Some((d, None, None)),
            "sized_declarator" => {
                let v = self.named(d);
                let name = v.iter().copied().find(|c| c.kind() == "identifier")?;
                Some((name, v.iter().copied().find(|c| c.kind() == "size"), None))
            }
            "init_declarator" | "pointer_init_declarator" => {
                let v = self.named(d);
                let l = d.child_by_field_id(self.f.left).or_else(|| v.first().copied())?;
                let r = d.child_by_field_id(self.f.right).or_else(|| v.get(1).copied());
                let (n, s, _) = self.declarator(l)?;
                Some((n, s, r))
            }
            _ => None,
        }
    }

    fn decl(&mut self, k: Node<'a>) -> Vec<SymbolId> {
        let mut ids = Vec::new();
        match k.kind() {
            "variable_declaration" | "variable_modification" => {
                let mut c = k.walk();
                let ty = k.child_by_field_id(self.f.type_).map(|t| self.type_of(t));
                let quals: Vec<Node> = if k.kind() == "variable_declaration" {
                    k.children_by_field_name("attribute", &mut c).collect()
                } else {
                    self.named(k).into_iter().filter(|n| n.kind() == "type_qualifier").collect()
                };
                let mut attrs = Vec::new();
                let mut attr_dims = None;
                for q in quals {
                    let t = norm_text(self.text(q));
                    if t.starts_with("dimension") {
                        attr_dims = self.named(q).into_iter().find(|n| n.kind() == "argument_list").map(|a| self.dims(a));
                    } else {
                        attrs.push(t);
                    }
                }
                let decls: Vec<Node> = {
                    let mut c = k.walk();
                    k.children_by_field_name("declarator", &mut c).collect()
                };
                for d in decls {
                    let Some((name, size, init)) = self.declarator(d) else { continue };
                    let dims = size.map(|s| self.dims(s)).or_else(|| attr_dims.clone());
                    let init = init.map(|i| self.expr(i));
                    let nm = lower_name(self.text(name));
                    let sp = self.span(name);
                    ids.push(self.declare(&nm, sp, SymInfo { ty, dims, attrs: &attrs, init, class: None }));
                }
            }
            "common_statement" => {
                let mut block = String::new();
                let mut flat = Vec::new();
                for c in self.kids(k) {
                    if c.kind() == "variable_group" {
                        flat.extend(self.kids(c));
                    } else {
                        flat.push(c);
                    }
                }
                for c in flat {
                    match c.kind() {
                        "name" => {
                            block = lower_name(self.text(c));
                            if self.globals.lookup(&block).is_none() {
                                let ty = self.basic("common");
                                let s = Symbol { name: block.clone(), ty, span: self.span(c), sclass: StorageClass::Common, attrs: vec![], init: None };
                                self.globals.add(s);
                            }
                        }
                        "identifier" | "sized_declarator" => {
                            let Some((name, size, _)) = self.declarator(c) else { continue };
                            let dims = size.map(|s| self.dims(s));
                            let nm = lower_name(self.text(name));
                            let sp = self.span(name);
                            let attr = format!("common /{block}/");
                            let info = SymInfo { ty: None, dims, attrs: &[attr], init: None, class: Some(StorageClass::Common) };
                            ids.push(self.declare(&nm, sp, info));
                        }
                        _ => {}
                    }
                }
            }
            "parameter_statement" => {
                for pa in self.named(k).into_iter().filter(|n| n.kind() == "parameter_assignment") {
                    let v = self.named(pa);
                    if v.len() < 2 {
                        continue;
                    }
                    let nm = lower_name(self.text(v[0]));
                    let sp = self.span(v[0]);
                    let init = self.expr(v[1]);
                    let info = SymInfo { ty: None, dims: None, attrs: &["parameter".to_string()], init: Some(init), class: None };
                    ids.push(self.declare(&nm, sp, info));
                }
            }
            _ => {}
        }
        ids
    }

    // ------------------------------------------------------------ expressions

    pub fn args(&mut self, list: Node<'a>) -> Vec<Expr> {
        self.named(list).into_iter().map(|a| self.expr(a)).collect()
    }

    pub fn expr(&mut self, k: Node<'a>) -> Expr {
        super::expr::lower(self, k)
    }

    // ------------------------------------------------------------ directive blocks

    fn err(&mut self, msg: String, at: Span, label: &str, other: Option<(Span, String)>) {
        let mut d = xmpc_ir::diag::error("XMP0105", msg, self.file, at, label);
        if let Some((s, m)) = other {
            d = d.with_labels(vec![Label::secondary(self.file, s.range()).with_message(m)]);
        }
        self.diags.push(d);
    }

    /// Folds `task ... end task`-style blocks, then attaches directives to the
    /// statement after them.
    fn fold_blocks(&mut self, items: Vec<Stmt>) -> Vec<Stmt> {
        if !items.iter().any(|s| matches!(s.kind, StmtKind::Pragma(_))) {
            return items;
        }
        struct Frame {
            opener: Stmt,
            name: String,
            body: Vec<Stmt>,
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut top: Vec<Stmt> = Vec::new();
        for s in items {
            match role(&s) {
                Role::Open(name) => stack.push(Frame { opener: s, name, body: Vec::new() }),
                Role::Close(name) => {
                    if let Some(pos) = stack.iter().rposition(|f| f.name == name) {
                        while stack.len() > pos + 1 {
                            let f = stack.pop().unwrap_or_else(|| unreachable!());
                            let m = format!("`{}` has no matching `end {}`", f.name, f.name);
                            self.err(m, f.opener.span, "opened here", Some((s.span, format!("`end {name}` closes an outer block here"))));
                            let level = stack.last_mut().map_or(&mut top, |f| &mut f.body);
                            level.push(f.opener);
                            level.extend(f.body);
                        }
                        let f = stack.pop().unwrap_or_else(|| unreachable!());
                        let body = self.attach(f.body);
                        let body = self.compound(body, f.opener.span.end);
                        let mut p = f.opener;
                        if let StmtKind::Pragma(pr) = &mut p.kind {
                            pr.body = Some(Box::new(body));
                            pr.end_span = Some(s.span);
                            p.span = pr.span();
                        }
                        stack.last_mut().map_or(&mut top, |f| &mut f.body).push(p);
                    } else {
                        let level = stack.last_mut().map_or(&mut top, |f| &mut f.body);
                        if !optional_end(level, &name) {
                            let other = stack.last().map(|f| (f.opener.span, format!("the open block is `{}`", f.name)));
                            self.err(format!("`end {name}` without a matching `{name}`"), s.span, "no open block to close", other);
                        }
                        stack.last_mut().map_or(&mut top, |f| &mut f.body).push(s);
                    }
                }
                Role::None => stack.last_mut().map_or(&mut top, |f| &mut f.body).push(s),
            }
        }
        while let Some(f) = stack.pop() {
            let m = format!("`{}` has no matching `end {}`", f.name, f.name);
            self.err(m, f.opener.span, "opened here", None);
            let level = stack.last_mut().map_or(&mut top, |f| &mut f.body);
            level.push(f.opener);
            level.extend(f.body);
        }
        self.attach(top)
    }

    /// Gives each directive that applies to the next statement that statement, and an
    /// optional `end <construct>` right after it.
    fn attach(&mut self, items: Vec<Stmt>) -> Vec<Stmt> {
        let mut rev: Vec<Stmt> = Vec::with_capacity(items.len());
        for mut s in items.into_iter().rev() {
            if let StmtKind::Pragma(p) = &mut s.kind {
                if p.body.is_none() && p.end_span.is_none() && p.dir.attaches_to_next() {
                    let next_ok = rev.last().is_some_and(|n| !is_bare_pragma(n));
                    if next_ok {
                        let b = rev.pop().unwrap_or_else(|| unreachable!());
                        p.body = Some(Box::new(b));
                        if let (Some(c), Some(n)) = (construct(&p.dir), rev.last()) {
                            if bare_closes(n).is_some_and(|x| x == c) {
                                p.end_span = Some(n.span);
                                rev.pop();
                            }
                        }
                        s.span = p.span();
                    }
                }
            }
            rev.push(s);
        }
        rev.reverse();
        rev
    }
}

/// What a declaration says about one name (`None`: unchanged).
struct SymInfo<'x> {
    ty: Option<TypeId>,
    dims: Option<Vec<Dim>>,
    attrs: &'x [String],
    init: Option<Expr>,
    class: Option<StorageClass>,
}

enum Role {
    Open(String),
    Close(String),
    None,
}

fn bare_dir(s: &Stmt) -> Option<&Directive> {
    match &s.kind {
        StmtKind::Pragma(p) if p.body.is_none() && p.end_span.is_none() => Some(&p.dir),
        _ => None,
    }
}

fn is_bare_pragma(s: &Stmt) -> bool {
    bare_dir(s).is_some()
}

fn bare_closes(s: &Stmt) -> Option<&str> {
    bare_dir(s).and_then(|d| d.closes_block())
}

fn role(s: &Stmt) -> Role {
    match bare_dir(s) {
        Some(d) => {
            if let Some(n) = d.opens_block() {
                Role::Open(n.to_string())
            } else if let Some(n) = d.closes_block() {
                Role::Close(n.to_string())
            } else {
                Role::None
            }
        }
        None => Role::None,
    }
}

/// The OpenACC construct of a directive that may take an optional `end` line.
fn construct(d: &Directive) -> Option<&str> {
    match &d.kind {
        xmpc_ir::directive::DirectiveKind::Acc { construct, .. } => Some(construct),
        _ => None,
    }
}

/// An `end <name>` that closes a directive taking the statement before it
/// (`!$acc parallel loop` / DO loop / `!$acc end parallel loop`).
fn optional_end(level: &[Stmt], name: &str) -> bool {
    let n = level.len();
    n >= 2 && bare_dir(&level[n - 2]).is_some_and(|d| d.attaches_to_next() && construct(d) == Some(name))
}

/// Puts a labelled DO's terminal statement into the innermost loop that shares the
/// label (`do 10 i / do 10 j / 10 continue`), widening spans on the way.
fn push_terminal(body: &mut Vec<Stmt>, label: Option<&str>, s: Stmt) {
    let s = match body.last_mut() {
        Some(last) => match absorb(last, label, s) {
            Ok(()) => return,
            Err(s) => *s,
        },
        None => s,
    };
    body.push(s);
}

fn absorb(st: &mut Stmt, label: Option<&str>, s: Stmt) -> Result<(), Box<Stmt>> {
    let sp = s.span;
    let r = match &mut st.kind {
        // See through a directive that owns the loop.
        StmtKind::Pragma(p) if p.end_span.is_none() => match p.body.as_deref_mut() {
            Some(b) => absorb(b, label, s),
            None => Err(Box::new(s)),
        },
        StmtKind::Do { end_label, body, .. } if end_label.is_some() && end_label.as_deref() == label => match &mut body.kind {
            StmtKind::Compound(v) => {
                let empty = v.is_empty();
                push_terminal(v, label, s);
                body.span = if empty { sp } else { body.span.to(sp) };
                Ok(())
            }
            _ => Err(Box::new(s)),
        },
        _ => Err(Box::new(s)),
    };
    if r.is_ok() {
        st.span = st.span.to(sp);
    }
    r
}

/// Lower case, runs of blanks collapsed, blanks next to punctuation removed.
pub fn norm_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut blank = false;
    for c in s.chars() {
        if c.is_whitespace() || c == '&' {
            blank = true;
            continue;
        }
        if blank {
            let prev = out.chars().last();
            if prev.is_some_and(|p| p.is_alphanumeric() || p == '_') && (c.is_alphanumeric() || c == '_') {
                out.push(' ');
            }
            blank = false;
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
