//! tree-sitter-fortran CST → xmpc IR: program units, symbols, statements, expressions.
//! Directives arrive pre-parsed, keyed by the derived offset of their first `!`
//! (tree-sitter sees them as comments).

use super::expr::lower_name;
use super::fixed::Normalised;
use std::collections::HashMap;
use tree_sitter::Node;
use xmpc_ir::diag::{Diagnostic, Label};
use xmpc_ir::directive::Directive;
use xmpc_ir::{Diag, Expr, FileId, FuncKind, Function, Item, Module, Pragma, Span, Stmt, StmtKind, StorageClass, Symbol, SymbolTable, Type, TypeId, TypeTable};

/// A directive found by the sentinel scan: parsed (or not) and where it is.
pub struct Dir {
    pub span: Span,
    pub dir: Option<Directive>,
    pub used: bool,
}

/// Lowering state for one file.
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
    pub globals: SymbolTable,
    pub diags: Vec<Diag>,
    /// The symbol table being filled and its default storage class.
    pub(super) scope: SymbolTable,
    pub(super) class: StorageClass,
    /// One cursor reused for every child walk (a new one allocates).
    cur: tree_sitter::TreeCursor<'a>,
    pub f: Fields,
    /// The `implicit` statements (lower-case texts) of the units being lowered,
    /// innermost last (a contained procedure inherits its host's).
    pub(super) implicit_texts: Vec<Vec<String>>,
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
            globals: SymbolTable::default(),
            diags: Vec::new(),
            scope: SymbolTable::default(),
            class: StorageClass::Auto,
            cur: root.walk(),
            f: Fields::new(&tree_sitter_fortran::LANGUAGE.into()),
            implicit_texts: vec![],
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
        self.types.intern(Type::Basic(name.to_string()))
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
        let kids = self.kids(root);
        // A main program without a `program` statement starts at its first statement:
        // the directive comments right before it (`!$xmp nodes ...` as the file's first
        // lines, Omni's loop/360_arrayAsign.f90) are its specification part.
        let lead = headerless_leads(&kids, |c| self.dir_at.contains_key(&c.start_byte()));
        for (i, &k) in kids.iter().enumerate() {
            if lead.iter().any(|&(s, e)| (s..e).contains(&i)) {
                continue;
            }
            match k.kind() {
                "program" | "subroutine" | "function" => {
                    let before = lead.iter().find(|&&(_, e)| e == i).map_or(&kids[i..i], |&(s, e)| &kids[s..e]);
                    let f = self.function(k, before);
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

    /// A program unit; `lead`: directive comments before a headerless main program.
    /// `integer function total(...)` with `integer*4 :: total` in its body (FFB-MINI's
    /// `miniapp_util.F`): gfortran refuses the second type, Omni accepts it; a warning
    /// here, and the printer drops the declaration (`Function::result_retyped`).
    fn result_typed_twice(&mut self, f: &Function) {
        for st in f.result_retyped() {
            self.diags.push(
                Diagnostic::warning()
                    .with_code("XMP0204")
                    .with_message(format!("the result of function `{}` is typed twice", f.name))
                    .with_labels(vec![
                        Label::primary(self.file, st.span.range()).with_message("second type declaration"),
                        Label::secondary(self.file, f.name_span.range()).with_message("typed in the FUNCTION statement"),
                    ])
                    .with_notes(vec!["Omni accepts this; xmpc keeps the type of the FUNCTION statement and drops the declaration".into()]),
            );
        }
    }

    fn function(&mut self, node: Node<'a>, lead: &[Node<'a>]) -> Function {
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
        // `implicit` statements come before the declarations: read them first (the
        // parameters are typed by them too).
        let texts = self.implicit_statements(&all);
        self.implicit_texts.push(texts);

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
        let mut body_nodes = lead.to_vec();
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
        self.implicit_texts.pop();
        let symbols = std::mem::replace(&mut self.scope, saved.0);
        self.class = saved.1;
        let span = match lead.first() {
            Some(l) => self.span(*l).to(self.span(node)),
            None => self.span(node),
        };
        let f = Function { name, kind, span, name_span, ret, params, symbols, body, contains };
        self.result_typed_twice(&f);
        f
    }

    fn procedures(&mut self, node: Node<'a>) -> Vec<Function> {
        let mut out = Vec::new();
        for c in self.kids(node) {
            if matches!(c.kind(), "subroutine" | "function") {
                out.push(self.function(c, &[]));
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
        let texts = self.implicit_statements(&all);
        self.implicit_texts.push(texts);
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
        self.implicit_texts.pop();
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
            "select_case_statement" if !k.has_error() && self.has_directives_inside(k) => match self.select_case(k) {
                Some(s) => return out.push(s),
                None => return out.extend(self.verbatim_split(k)),
            },
            "keyword_statement" if !k.has_error() => self.keyword(k),
            "stop_statement" if !k.has_error() => StmtKind::Stop(self.named(k).first().map(|e| self.expr(*e))),
            "variable_declaration" | "variable_modification" | "common_statement" | "parameter_statement" if !k.has_error() => StmtKind::Decl(self.decl(k)),
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
        } else if t == "exit" {
            StmtKind::Break
        } else if t == "cycle" {
            StmtKind::Continue
        } else if t.starts_with("return") {
            StmtKind::Return(parts.first().map(|e| self.expr(*e)))
        } else {
            // `exit outer` / `cycle outer` name a loop the IR cannot point at.
            StmtKind::Verbatim
        }
    }

    pub(super) fn compound(&self, body: Vec<Stmt>, at: usize) -> Stmt {
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

    // ------------------------------------------------------------ expressions

    pub fn args(&mut self, list: Node<'a>) -> Vec<Expr> {
        self.named(list).into_iter().map(|a| self.expr(a)).collect()
    }

    pub fn expr(&mut self, k: Node<'a>) -> Expr {
        super::expr::lower(self, k)
    }
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

/// For each main program without a `program` statement among the file's top-level
/// nodes, the run of directive comments right before it (`is_dir`), as index ranges
/// `start..program`; plain comments and blank lines may sit between the directives.
fn headerless_leads(kids: &[Node], is_dir: impl Fn(&Node) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, k) in kids.iter().enumerate() {
        let mut c = k.walk();
        if k.kind() != "program" || k.children(&mut c).any(|c| c.kind() == "program_statement") {
            continue;
        }
        let mut s = i;
        while s > 0 && kids[s - 1].kind() == "comment" {
            s -= 1;
        }
        // start at the first directive of the run (other comments stay outside)
        while s < i && !is_dir(&kids[s]) {
            s += 1;
        }
        if s < i {
            out.push((s, i));
        }
    }
    out
}
