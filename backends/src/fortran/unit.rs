//! Program units: procedures, modules and the main program (wrapped as
//! `xmpf_main`), with the specification part's XMP objects set up before the first
//! executable statement.

use super::*;

/// A unit's specification directives.
struct Spec<'a> {
    shadows: HashMap<String, (Span, Vec<ShadowWidth>)>,
    aligns: Vec<(Name, Span, Vec<AlignSrc>, Ref)>,
    /// `save_desc` and `local_alias`, applied once the arrays are known.
    late: Vec<&'a xmpc_ir::directive::Directive>,
    first_exec: Option<&'a Stmt>,
    /// Coarrays of a `coarray on` directive (lower case; coarray_dirs.rs).
    coarray_on: Vec<String>,
}
use xmpc_ir::directive::Name;

impl<'a> Tr<'a> {
    pub(super) fn func(&mut self, f: &'a Function) {
        self.fns.push(f);
        self.func_body(f);
        self.fns.pop();
    }

    pub(super) fn func_body(&mut self, f: &'a Function) {
        let v = View { body: &f.body, symbols: &f.symbols, name_span: f.name_span, module: None };
        self.header = Some((f.span.start, self.stmt_end(f.name_span.end)));
        if f.kind == FuncKind::Program {
            // first: a headerless program's `subroutine xmpf_main` line goes before the
            // lines `unit_body` inserts at the same place
            self.main_program(f);
        }
        let u = self.unit_body(&v, f.kind == FuncKind::Program);
        if f.kind != FuncKind::Program && !u.frees.is_empty() {
            let at = self.exit_at(f);
            let text: String = u.frees.iter().map(|l| format!("{IND}{l}\n")).collect();
            self.edits.push(Edit { span: Span::new(at, at), text });
        }
        self.hoist_uses(&f.body);
        self.hosts.push(u);
        for c in &f.contains {
            self.func(c);
        }
        self.hosts.pop();
    }

    /// Start of the line of a procedure's `end` statement, or of its `contains`.
    pub(super) fn exit_at(&self, f: &Function) -> usize {
        let stop = f.contains.first().map_or(f.span.end, |c| c.span.start);
        let text = &self.src[f.span.start..stop];
        let trimmed = text.trim_end();
        let mut at = f.span.start + trimmed.rfind('\n').map_or(0, |p| p + 1);
        if !f.contains.is_empty() {
            // the `contains` line: the last line of the part before the first contained
            // procedure that is not blank or a comment
            let mut off = 0;
            for line in text.split_inclusive('\n') {
                let t = lc(line.trim_start());
                if t.starts_with("contains") && (t.len() == 8 || !t.as_bytes()[8].is_ascii_alphanumeric() && t.as_bytes()[8] != b'_') {
                    at = f.span.start + off;
                }
                off += line.len();
            }
        } else if let Some(k) = lex::contains_line(text) {
            // a `contains` whose procedures the parser did not see (`#include`d)
            at = f.span.start + k;
        }
        at
    }

    /// A module's specification part: handles become module variables, the setup a
    /// module procedure `xmpf_modinit_<m>` (run once) called by every unit that uses
    /// the module (and by its own procedures).
    pub(super) fn module(&mut self, m: &'a xmpc_ir::Module) {
        let key = lc(&m.name);
        let v = View { body: &m.decls, symbols: &m.symbols, name_span: m.name_span, module: Some(key.clone()) };
        self.header = None;
        let u = self.unit_body(&v, false);
        self.hoist_uses(&m.decls);
        // the init procedure, before `end module`
        let text = self.text(m.span);
        let trimmed = text.trim_end();
        let last_nl = trimmed.rfind('\n').map_or(0, |p| p + 1);
        let at = m.span.start + last_nl;
        let mut sub = String::new();
        // a module whose default is `private`: the names its users need are public
        if order::default_private(self, &m.decls) {
            let public = format!("{IND}public :: {}\n", order::module_exports(&key, &u, &self.m).join(", "));
            match lex::contains_line(text) {
                Some(k) => self.edits.push(Edit { span: Span::new(m.span.start + k, m.span.start + k), text: public }),
                None => sub.push_str(&public),
            }
        }
        // (a `contains` may be there with no procedure the parser saw: `#include`d)
        if m.contains.is_empty() && lex::contains_line(text).is_none() {
            sub.push_str(&format!("{IND}contains\n"));
        }
        sub.push_str(&format!("{IND}subroutine xmpf_modinit_{key}()\n{IND}logical, save :: xmpf_done = .false.\n"));
        if u.need_cbind {
            for d in TEMPS {
                sub.push_str(&format!("{IND}{d}\n"));
            }
        }
        sub.push_str(&format!("{IND}if (xmpf_done) return\n{IND}xmpf_done = .true.\n"));
        for l in &u.setup {
            sub.push_str(&format!("{IND}{l}\n"));
        }
        sub.push_str(&format!("{IND}end subroutine xmpf_modinit_{key}\n"));
        self.edits.push(Edit { span: Span::new(at, at), text: sub });
        let mut mu = u;
        for sym in &m.symbols.symbols {
            let ty = match self.unit.types.get(sym.ty) {
                Type::Basic(b) => Some((b.clone(), false)),
                Type::Array { elem, .. } => match self.unit.types.get(*elem) {
                    Type::Basic(b) => Some((b.clone(), true)),
                    _ => None,
                },
                _ => None,
            };
            if let Some(t) = ty {
                mu.vars.insert(lc(&sym.name), t);
            }
        }
        mu.setup = vec![format!("call xmpf_modinit_{key}()")];
        mu.decls.clear();
        mu.redecl.clear();
        mu.need_cbind = false;
        self.local_mods.insert(key.clone());
        self.mods.insert(key, mu);
    }

    /// Translates the specification part and statements of a unit; returns its XMP
    /// declarations (for contained procedures).
    pub(super) fn unit_body(&mut self, f: &View<'a>, is_main: bool) -> Unit {
        let mut u = self.inherited(f);
        let spec = self.spec_part(f, &mut u);
        // ---- aligned arrays
        for (n, dspan, source, with) in &spec.aligns {
            let name = &n.name;
            if name.contains('%') {
                // a component of a derived type (member.rs)
                self.member_array(f.body, f.symbols, &mut u, name, *dspan, source, with, spec.shadows.get(&lc(name)));
                continue;
            }
            self.array(f.body, f.symbols, &mut u, n, *dspan, spec.shadows.get(&lc(name)));
        }
        self.local_aliases(&spec.late, f, &mut u); // local_alias.rs
        self.save_descs(&spec.late, f, is_main, &mut u); // save_desc.rs
        if is_main || f.module.is_some() {
            // main program and module arrays live for the whole run
            u.frees.clear();
        }
        if is_main && coarray::uses_coarrays(self.src, self.fixed) {
            // the main program's variables are SAVE (coarrays need it) in xmpf_main too
            u.decls.insert("save".into());
        }
        let rd = std::mem::take(&mut u.redecl);
        if !rd.is_empty() {
            self.redeclare(f.body, f.symbols, &rd);
        }
        // ---- executable directives and statements
        for s in f.body {
            if !(matches!(s.kind, StmtKind::Pragma(_)) && self.is_spec(s)) {
                self.stmt(s, &mut u);
            }
        }
        if let (Some(first), Some(last)) = (spec.first_exec, f.body.last()) {
            self.coarray_on_this_image(Span::new(first.span.start, last.span.end), &spec.coarray_on, &mut u);
            // coarray_dirs.rs
        }
        if f.module.is_none() {
            self.library_calls(f.body, &mut u); // library.rs
        }
        self.unit_setup(f, &mut u, spec.first_exec);
        u
    }

    /// The XMP declarations a unit inherits from its host and the modules it uses.
    fn inherited(&mut self, f: &View<'a>) -> Unit {
        let mut u = Unit::default();
        let mut inherited: Vec<Unit> = self.hosts.clone();
        for s in f.body {
            if matches!(s.kind, StmtKind::Verbatim) {
                let low = lc(self.text(s.span).trim_start());
                if let Some(rest) = low.strip_prefix("use") {
                    let name: String = rest.trim_start_matches([' ', ',', ':']).chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if !self.mods.contains_key(&name) {
                        // a module of another file
                        if let Some(mut mu) = (self.find)(&name).and_then(|t| modinfo::read(&t)) {
                            self.fill_tids(&name, &mut mu);
                            self.mods.insert(name.clone(), mu);
                        }
                    }
                    if let Some(mu) = self.mods.get(&name) {
                        inherited.push(mu.clone());
                    }
                }
            }
        }
        // a pure or elemental procedure may not call the (impure) module init; it can
        // hold no XMP directive either
        let head = lc(&self.src[self.line_start(f.name_span.start)..f.name_span.start]);
        let pure = head.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| w == "pure" || w == "elemental");
        for h in inherited {
            u.arrays.extend(h.arrays);
            u.pending.extend(h.pending);
            for l in h.setup {
                if l.starts_with("call xmpf_modinit_") && !pure && !u.setup.contains(&l) {
                    u.setup.push(l);
                }
            }
        }
        u
    }

    /// The specification directives, in order: node sets, templates and distributions
    /// set up (`decl.rs`); aligns, shadows, `save_desc` and `local_alias` collected.
    fn spec_part(&mut self, f: &View<'a>, u: &mut Unit) -> Spec<'a> {
        let mut spec = Spec { shadows: HashMap::new(), aligns: vec![], late: vec![], first_exec: None, coarray_on: vec![] };
        for s in f.body {
            let is_spec = self.is_spec(s) || (spec.first_exec.is_none() && self.is_stmt_function(s, f.symbols));
            if !is_spec && spec.first_exec.is_none() {
                spec.first_exec = Some(s);
            }
            let StmtKind::Pragma(p) = &s.kind else {
                continue;
            };
            if !is_spec {
                continue;
            }
            let d = &p.dir;
            if spec.first_exec.is_some() {
                // its setup would run before the statements it follows (which may set
                // the sizes it uses)
                self.err("XMP0114", d.span, "declarative XMP directive after the first executable statement", "move it to the specification part");
                continue;
            }
            match &d.kind {
                DirectiveKind::Nodes { .. } | DirectiveKind::Template { .. } | DirectiveKind::Distribute { .. } => self.spec_directive(p, u),
                DirectiveKind::Align { names, source, with } => {
                    for n in names {
                        spec.aligns.push((n.clone(), d.span, source.clone(), with.clone()));
                    }
                }
                DirectiveKind::Shadow { names, widths } => {
                    for n in names {
                        spec.shadows.insert(lc(&n.name), (d.span, widths.clone()));
                    }
                }
                DirectiveKind::SaveDesc { .. } | DirectiveKind::LocalAlias { .. } => spec.late.push(d),
                DirectiveKind::Coarray { on, names } => {
                    let bound = self.coarray_dir(p, on, names, u);
                    spec.coarray_on.extend(bound);
                }
                _ => {}
            }
        }
        spec
    }

    /// The inserted declarations and setup calls, before the first executable statement
    /// (a module's setup goes to its init procedure), and the `iso_c_binding` import.
    fn unit_setup(&mut self, f: &View<'a>, u: &mut Unit, first_exec: Option<&Stmt>) {
        let setup_here: Vec<String> = if f.module.is_some() { vec![] } else { u.setup.clone() };
        if f.module.is_some() {
            // the setup's temporaries are locals of the init procedure, not module
            // variables (a unit using the module may declare its own)
            u.decls.retain(|d| !TEMPS.contains(&d.as_str()));
        }
        if !u.decls.is_empty() || !setup_here.is_empty() {
            let at = match first_exec {
                Some(s) => self.before_sentinels(self.line_start(s.span.start)),
                None => match f.body.last() {
                    Some(s) => (self.stmt_end(s.span.end.max(1) - 1) + 1).min(self.src.len()),
                    None => self.stmt_end(f.name_span.end) + 1,
                },
            };
            let mut text = String::new();
            for d in &u.decls {
                text.push_str(&format!("{IND}{d}\n"));
            }
            for s in &setup_here {
                text.push_str(&format!("{IND}{s}\n"));
            }
            self.edits.push(Edit { span: Span::new(at, at), text });
        }
        if u.need_cbind && f.module.is_none() && f.name_span.start == f.name_span.end {
            // a main program without a `program` statement: first in the unit (after
            // the `subroutine xmpf_main` that `main_program` put there)
            let at = self.line_start(f.body.first().map_or(f.name_span.start, |s| s.span.start));
            let sep = if self.fixed { "\n     &" } else { " &\n      &" };
            self.edits.push(Edit {
                span: Span::new(at, at),
                text: format!("{IND}use, intrinsic :: iso_c_binding, only: xmpf_cptr => c_ptr,{sep}  xmpf_cfp => c_f_pointer\n"),
            });
        } else if u.need_cbind {
            let e = self.stmt_end(f.name_span.end);
            self.edits.push(Edit {
                span: Span::new(e, e),
                text: format!("\n{IND}use, intrinsic :: iso_c_binding, only: xmpf_cptr => c_ptr,\n{IND}&  xmpf_cfp => c_f_pointer")
                    .replace(",\n      &  xmpf_cfp", if self.fixed { ",\n     &  xmpf_cfp" } else { ", &\n      &  xmpf_cfp" }),
            });
        }
    }

    /// A statement-function definition `f(x, y) = expr` (part of the specification:
    /// the setup goes after it): an assignment to `name(args)` whose arguments are plain
    /// names and whose `name` is no array.
    fn is_stmt_function(&self, s: &Stmt, syms: &xmpc_ir::SymbolTable) -> bool {
        let lhs = match &s.kind {
            StmtKind::Assign(l, _) => l,
            StmtKind::Expr(e) => match &e.kind {
                xmpc_ir::ExprKind::Assign(None, l, _) => &**l,
                _ => return false,
            },
            _ => return false,
        };
        let xmpc_ir::ExprKind::Call(callee, args) = &lhs.kind else { return false };
        let xmpc_ir::ExprKind::Ident(name) = &callee.kind else { return false };
        if args.is_empty() || !args.iter().all(|a| matches!(a.kind, xmpc_ir::ExprKind::Ident(_))) {
            return false;
        }
        match syms.lookup(&lc(name)) {
            Some(sym) => !matches!(self.unit.types.get(sym.ty), Type::Array { .. }),
            None => true,
        }
    }

    /// `at` (a line start) moved up over the OpenMP/OpenACC sentinel lines right before
    /// it (`!$omp parallel do` belongs to the statement after it: nothing may come
    /// between them).
    fn before_sentinels(&self, mut at: usize) -> usize {
        while at > 0 {
            let prev = self.line_start(at - 1);
            let t = self.src[prev..at].trim_start().to_ascii_lowercase();
            let fixed_sentinel = self.fixed && (t.starts_with("c$") || t.starts_with("*$"));
            if (t.starts_with("!$") && !t.starts_with("!$xmp")) || (fixed_sentinel && !t[2..].starts_with("xmp")) {
                at = prev;
            } else {
                break;
            }
        }
        at
    }

    pub(super) fn is_spec(&self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Decl(_) => true,
            StmtKind::Pragma(p) => matches!(
                p.dir.kind,
                DirectiveKind::Nodes { .. }
                    | DirectiveKind::Template { .. }
                    | DirectiveKind::Distribute { .. }
                    | DirectiveKind::Align { .. }
                    | DirectiveKind::Shadow { .. }
                    | DirectiveKind::SaveDesc { .. }
                    | DirectiveKind::LocalAlias { .. }
                    | DirectiveKind::Coarray { .. }
            ),
            StmtKind::Verbatim => {
                let t = lc(self.text(s.span).trim_start());
                let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
                let w: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
                matches!(
                    w.as_str(),
                    "implicit"
                        | "use"
                        | "include"
                        | "parameter"
                        | "data"
                        | "common"
                        | "dimension"
                        | "save"
                        | "equivalence"
                        | "external"
                        | "intrinsic"
                        | "namelist"
                        | "import"
                        | "type"
                        | "integer"
                        | "real"
                        | "double"
                        | "doubleprecision"
                        | "logical"
                        | "complex"
                        | "character"
                        | "interface"
                        | "format"
                        | "allocatable"
                        | "target"
                        | "pointer"
                        | "private"
                        | "public"
                ) || t.is_empty()
            }
            _ => false,
        }
    }

    pub(super) fn main_program(&mut self, f: &Function) {
        let text = self.text(f.span);
        let low = lc(text);
        let pname = f.name.clone();
        if low.trim_start().starts_with("program") {
            let k = low.find("program").unwrap();
            self.edits.push(Edit { span: Span::new(f.span.start + k, f.name_span.end), text: "subroutine xmpf_main".into() });
        } else {
            // no `program` statement: a line of its own before the unit's first line
            // (the unit starts at its first token: in fixed form, column 7)
            let at = self.line_start(f.span.start);
            self.edits.push(Edit { span: Span::new(at, at), text: format!("{IND}subroutine xmpf_main\n") });
        }
        // the end statement: the last line of the unit
        let trimmed = text.trim_end();
        let last_nl = trimmed.rfind('\n').map_or(0, |p| p + 1);
        let last = lc(&trimmed[last_nl..]);
        let lt = last.trim_start();
        if let Some(rest) = lt.strip_prefix("end") {
            let r = rest.trim_start();
            if r.starts_with("program") {
                let off = f.span.start + last_nl + (last.len() - lt.len());
                self.edits.push(Edit { span: Span::new(off, f.span.start + trimmed.len()), text: "end subroutine xmpf_main".into() });
            }
        }
        let end = f.span.start + trimmed.len();
        let check = if self.check { format!("\n{IND}call xmpf_check_on()") } else { String::new() };
        let wrapper = format!("\n{IND}program {pname}\n{IND}call xmpf_init(){check}\n{IND}call xmpf_main()\n{IND}call xmpf_stop(0)\n{IND}end program {pname}");
        self.edits.push(Edit { span: Span::new(end, end), text: wrapper });
    }
}
