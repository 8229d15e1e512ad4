//! The XMP library called from Fortran, as Omni's `xmpf90` gives it (docs/fortran.md,
//! "The XMP library"):
//! - `xmp_desc_of(x)` becomes the descriptor of the node set, template or aligned array
//!   `x` names (its `integer(8)` handle, which the library routines take where Omni's
//!   take its descriptor); anything else is refused (XMP0116), and so is an
//!   `xmp_desc_of` in a statement kept as text (XMP0305): the routines would get a
//!   pointer that is no descriptor;
//! - `call xmp_transpose(b, a, opt)` takes the arrays themselves (Omni rewrites them to
//!   their descriptors too);
//! - the library's functions are typed without a declaration, as Omni's front end knows
//!   them (`xmp_node_num()` under `implicit none`, `xmp_wtime()` double precision
//!   where implicit typing would make it real): a reference the unit does not declare
//!   calls `xmpf_lib_<name>`, declared here with the library's type (a name of xmpc's
//!   own, so a declaration of the user's, `include 'xmp_lib.h'` in a module the unit
//!   uses, or a host's, can never conflict with it);
//! - a main program that calls `MPI_Init` itself and has no XMP directive is a plain
//!   MPI program and is left as it is; every other main program is wrapped, so MPI is
//!   initialised before it as in Omni ([`plain_mpi_program`]).

use super::{comment_start, lc, lex, Tr, Unit};
use xmpc_ir::visit::{self, Visitor};
use xmpc_ir::{Edit, Expr, ExprKind, FileUnit, Span, Stmt, StmtKind, Type};
use xmpc_passes::xmp_model::symbols::Entity;

/// The library's functions and their result types (Omni's front end: `xmp_desc_of`
/// aside, every function of the XMP library; plus xmpc's `xmp_nodes_rank`,
/// `xmp_nodes_attr`, `xmp_test_async`).
const TYPED: &[(&str, &str)] = &[
    ("xmp_get_mpi_comm", "integer(4)"),
    ("xmp_num_nodes", "integer(4)"),
    ("xmp_node_num", "integer(4)"),
    ("xmp_all_num_nodes", "integer(4)"),
    ("xmp_all_node_num", "integer(4)"),
    ("xmp_wtime", "real(8)"),
    ("xmp_wtick", "real(8)"),
    ("xmp_array_ndims", "integer(4)"),
    ("xmp_array_lbound", "integer(4)"),
    ("xmp_array_ubound", "integer(4)"),
    ("xmp_array_lsize", "integer(4)"),
    ("xmp_array_ushadow", "integer(4)"),
    ("xmp_array_lshadow", "integer(4)"),
    ("xmp_array_lead_dim", "integer(4)"),
    ("xmp_array_gtol", "integer(4)"),
    ("xmp_align_axis", "integer(4)"),
    ("xmp_align_offset", "integer(4)"),
    ("xmp_align_replicated", "integer(4)"),
    ("xmp_align_template", "integer(4)"),
    ("xmp_template_fixed", "integer(4)"),
    ("xmp_template_ndims", "integer(4)"),
    ("xmp_template_lbound", "integer(4)"),
    ("xmp_template_ubound", "integer(4)"),
    ("xmp_dist_format", "integer(4)"),
    ("xmp_dist_blocksize", "integer(4)"),
    ("xmp_dist_gblockmap", "integer(4)"),
    ("xmp_dist_nodes", "integer(4)"),
    ("xmp_dist_axis", "integer(4)"),
    ("xmp_nodes_ndims", "integer(4)"),
    ("xmp_nodes_index", "integer(4)"),
    ("xmp_nodes_size", "integer(4)"),
    ("xmp_nodes_equiv", "integer(4)"),
    ("xmp_nodes_rank", "integer(4)"),
    ("xmp_nodes_attr", "integer(4)"),
    ("xmp_test_async", "integer(4)"),
    // Omni's coarray helpers (its front end types them; implicit typing would make
    // them real and read an integer result as a float: a wrong answer)
    ("xmpf_coarray_allocated_bytes", "integer(4)"),
    ("xmpf_coarray_garbage_bytes", "integer(4)"),
    ("xmpf_coarray_malloc_bytes", "integer(4)"),
    ("xmpf_coarray_uses_fjrdma", "logical(4)"),
    ("xmpf_coarray_uses_gasnet", "logical(4)"),
    ("xmpf_coarray_uses_mpi3_onesided", "logical(4)"),
];

/// The result type of a library function (lower-case name).
fn typed(name: &str) -> Option<&'static str> {
    TYPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The name a reference to library function `name` calls (`xmpf_lib_node_num`: the
/// runtime's alias of `xmp_node_num`; `xmpf_lib_coarray_allocated_bytes` for Omni's
/// `xmpf_coarray_allocated_bytes`, in `caf_f.c`).
fn renamed(name: &str) -> String {
    format!("xmpf_lib_{}", name.strip_prefix("xmp_").or_else(|| name.strip_prefix("xmpf_")).unwrap_or(name))
}

/// True for a file that is a plain MPI program: no XMP directive, and a `call
/// MPI_Init` / `MPI_Init_thread` statement (not a comment that mentions one: FFB's
/// main has `!call MPI_Init(ierr)` and relies on the runtime to start MPI). Such a file
/// is left as it is: its `MPI_Init` would fail after the runtime's.
pub fn plain_mpi_program(unit: &FileUnit) -> bool {
    struct Finder(bool);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if let StmtKind::Call { name, .. } = &s.kind {
                if matches!(lc(name).as_str(), "mpi_init" | "mpi_init_thread") {
                    self.0 = true;
                }
            }
            visit::walk_stmt(self, s)
        }
    }
    if !unit.pragmas().is_empty() {
        return false;
    }
    let mut f = Finder(false);
    visit::walk_file(&mut f, unit);
    f.0
}

/// What a unit's statements hold of the library.
#[derive(Default)]
struct Found<'a> {
    /// `xmp_desc_of(x)` calls: the call, its argument and, for `d = xmp_desc_of(x)`,
    /// the variable assigned.
    desc_of: Vec<(&'a Expr, &'a Expr, Option<&'a Expr>)>,
    /// `xmp_desc_of` written wrongly (`xmp_desc_of()`, two arguments): the call.
    desc_of_bad: Vec<&'a Expr>,
    /// `call xmp_transpose(b, a, opt)`: the statement and its arguments.
    transpose: Vec<(Span, &'a [Expr])>,
    /// References to library functions: (name span, lower-case name).
    typed: Vec<(Span, String)>,
    /// Statements and expressions kept as text.
    text: Vec<Span>,
}

impl<'a> Visitor<'a> for Found<'a> {
    fn visit_stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Verbatim => self.text.push(s.span),
            StmtKind::Assign(l, r) => {
                if let Some(x) = desc_of_arg(r) {
                    self.desc_of.push((r, x, Some(l)));
                    return self.visit_expr(l);
                }
            }
            StmtKind::Call { name, args } if lc(name) == "xmp_transpose" => self.transpose.push((s.span, args)),
            _ => {}
        }
        visit::walk_stmt(self, s)
    }
    fn visit_expr(&mut self, e: &'a Expr) {
        match &e.kind {
            ExprKind::Verbatim(_) => self.text.push(e.span),
            ExprKind::Call(f, args) => {
                if let ExprKind::Ident(n) = &f.kind {
                    let n = lc(n);
                    if n == "xmp_desc_of" {
                        match args.as_slice() {
                            [a] => self.desc_of.push((e, a, None)),
                            _ => self.desc_of_bad.push(e),
                        }
                        return;
                    }
                    if typed(&n).is_some() {
                        self.typed.push((f.span, n));
                    }
                }
            }
            _ => {}
        }
        visit::walk_expr(self, e)
    }
}

impl<'a> Tr<'a> {
    /// The library calls of a procedure's or main program's statements (`body`),
    /// translated; declarations go to `u.decls`.
    pub(super) fn library_calls(&mut self, body: &'a [Stmt], u: &mut Unit) {
        let mut f = Found::default();
        for s in body {
            if matches!(s.kind, StmtKind::Decl(_)) || (matches!(s.kind, StmtKind::Pragma(_)) && self.is_spec(s)) {
                continue;
            }
            f.visit_stmt(s);
        }
        for (call, arg, lhs) in f.desc_of {
            if let Some(h) = self.descriptor(arg, u) {
                // `d = xmp_desc_of(a)` with `type(xmp_desc) :: d` (xmp_lib.h): the
                // handle in the sequence type; elsewhere (an argument of a library
                // routine, an `integer(8)` variable as in Omni) the handle itself
                let text = if lhs.is_some_and(|l| self.derived_type_var(l)) { format!("xmp_desc({h})") } else { h };
                self.edits.push(Edit { span: call.span, text });
            }
        }
        for call in f.desc_of_bad {
            self.err("XMP0116", call.span, "`xmp_desc_of` takes one argument", "the node set, template or aligned array whose descriptor is wanted");
        }
        for (span, args) in f.transpose {
            self.transpose_args(span, args, u);
        }
        for (span, name) in f.typed {
            self.typed_reference(span, &name, u);
        }
        for span in f.text {
            self.library_in_text(span, u);
        }
    }

    /// The descriptor `xmp_desc_of(x)` stands for: the handle of the XMP object `x`
    /// names (the model's meaning of the name), or an error.
    fn descriptor(&mut self, x: &Expr, u: &Unit) -> Option<String> {
        let h = match (self.m.entity_ref(x), &x.kind) {
            (Some(Entity::Nodes(n)), _) => Some(self.nh(n)),
            (Some(Entity::Template(t)), _) => Some(self.th(t)),
            (Some(Entity::Array(a)), _) => {
                let key = lc(&self.m.array(a).name);
                Some(u.arrays.get(&key).map_or_else(|| format!("xmpf_d_{key}"), |r| r.handle.clone()))
            }
            // an aligned component of a derived-type variable (`c%a`, member.rs)
            (_, ExprKind::Member { .. }) => {
                let key: String = lc(self.text(x.span)).chars().filter(|c| !c.is_whitespace()).collect();
                u.arrays.get(&key).map(|r| r.handle.clone())
            }
            _ => None,
        };
        if h.is_none() {
            let d = xmpc_ir::codes::Code::LibraryArg
                .error(self.unit.file, "`xmp_desc_of` of something that is not a node set, template or aligned array", x.span, "not an XMP object here")
                .with_notes(vec![
                    "help: pass the name of a node set, a template or an array aligned with a template (declared in this unit, a host or a module)".into(),
                ]);
            self.diags.push(d);
        }
        h
    }

    /// `call xmp_transpose(b, a, opt)`: the two arrays become their descriptors.
    fn transpose_args(&mut self, span: Span, args: &'a [Expr], u: &Unit) {
        if args.len() != 3 {
            let d = xmpc_ir::codes::Code::LibraryArg.error(self.unit.file, "`xmp_transpose` takes three arguments", span, "call xmp_transpose(dst, src, opt)");
            self.diags.push(d);
            return;
        }
        for a in &args[..2] {
            let is_desc = matches!(&a.kind, ExprKind::Call(f, _) if matches!(&f.kind, ExprKind::Ident(n) if lc(n) == "xmp_desc_of"));
            if is_desc {
                continue; // translated as any `xmp_desc_of`
            }
            match self.m.array_ref(a).filter(|_| matches!(a.kind, ExprKind::Ident(_))) {
                Some(id) => {
                    let key = lc(&self.m.array(id).name);
                    let h = u.arrays.get(&key).map_or_else(|| format!("xmpf_d_{key}"), |r| r.handle.clone());
                    self.edits.push(Edit { span: a.span, text: h });
                }
                None => {
                    let d = xmpc_ir::codes::Code::LibraryArg
                        .error(self.unit.file, "`xmp_transpose` of something that is not an aligned array", a.span, "not an aligned array here")
                        .with_notes(vec!["help: `call xmp_transpose(b, a, opt)` takes two whole arrays aligned with templates".into()]);
                    self.diags.push(d);
                }
            }
        }
    }

    /// True when `e` is a variable (or an element or component of one) whose declared
    /// type is a derived type.
    fn derived_type_var(&self, e: &Expr) -> bool {
        let mut base = e;
        loop {
            match &base.kind {
                ExprKind::Call(f, _) => base = f,
                ExprKind::Ident(_) => break,
                _ => return false,
            }
        }
        let ExprKind::Ident(n) = &base.kind else { return false };
        let n = lc(n);
        let Some(sym) = self.fns.iter().rev().find_map(|f| f.symbols.lookup(&n)) else { return false };
        let ty = match self.unit.types.get(sym.ty) {
            Type::Array { elem, .. } => self.unit.types.get(*elem),
            t => t,
        };
        matches!(ty, Type::Basic(b) if lc(b).replace(' ', "").starts_with("type("))
    }

    /// True when `name` (lower case) is declared by the unit or a host procedure, or
    /// is a procedure of this file (then the user's declaration or procedure is used).
    fn user_declared(&self, name: &str) -> bool {
        self.fns.iter().any(|f| f.symbols.lookup(name).is_some()) || self.unit.functions().iter().any(|f| lc(&f.name) == name)
    }

    /// A reference to a library function: typed by a declaration of xmpc's own unless
    /// the unit declares it.
    fn typed_reference(&mut self, span: Span, name: &str, u: &mut Unit) {
        if self.user_declared(name) {
            return;
        }
        let Some(ty) = typed(name) else { return };
        let to = renamed(name);
        u.decls.insert(format!("{ty}, external :: {to}"));
        self.edits.push(Edit { span, text: to });
    }

    /// Library references in a statement or expression kept as text (`print`, `write`,
    /// `select case`, `where`...): the functions are typed as in [`Self::typed_reference`];
    /// an `xmp_desc_of` cannot be given its meaning there and is refused.
    fn library_in_text(&mut self, span: Span, u: &mut Unit) {
        let text = self.text(span);
        let masked = lex::mask_strings(&lc(text));
        let mut off = 0;
        for line in masked.split_inclusive('\n') {
            let fixed_comment = self.fixed && line.starts_with(['c', '*', '!']) && self.line_start(span.start + off) == span.start + off;
            let code = if fixed_comment { "" } else { comment_start(line).map_or(line, |k| &line[..k]) };
            for (k, w) in words(code) {
                let at = span.start + off + k;
                let after = code[k + w.len()..].trim_start();
                if !after.starts_with('(') {
                    continue;
                }
                if w == "xmp_desc_of" {
                    let d = xmpc_ir::codes::Code::ArrayInText
                        .error(
                            self.unit.file,
                            "`xmp_desc_of` in a statement the Fortran translator keeps as text",
                            Span::new(at, at + w.len()),
                            "its argument cannot be resolved here",
                        )
                        .with_notes(vec![
                            "help: call the library routine with `xmp_desc_of(...)` in a `call` statement or an assignment of its own, outside the construct"
                                .into(),
                        ]);
                    self.diags.push(d);
                } else if typed(w).is_some() {
                    self.typed_reference(Span::new(at, at + w.len()), w, u);
                }
            }
            off += line.len();
        }
    }
}

/// The argument of `xmp_desc_of(x)`.
fn desc_of_arg(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Call(f, args) if args.len() == 1 && matches!(&f.kind, ExprKind::Ident(n) if lc(n) == "xmp_desc_of") => args.first(),
        _ => None,
    }
}

/// The words of a line of code that start with `xmp_`: (offset, word).
fn words(code: &str) -> Vec<(usize, &str)> {
    let b = code.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if is_id(b[i]) && (i == 0 || !is_id(b[i - 1])) {
            let s = i;
            while i < b.len() && is_id(b[i]) {
                i += 1;
            }
            if code[s..i].starts_with("xmp_") || code[s..i].starts_with("xmpf_coarray_") {
                out.push((s, &code[s..i]));
            }
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_code() {
        assert_eq!(words("x = xmp_node_num() + axmp_b(1) + xmp_wtime ()"), vec![(4, "xmp_node_num"), (33, "xmp_wtime")]);
        assert_eq!(renamed("xmp_node_num"), "xmpf_lib_node_num");
        assert_eq!(typed("xmp_wtime"), Some("real(8)"));
        assert_eq!(typed("xmp_desc_of"), None);
    }

    #[test]
    fn every_renamed_function_is_in_the_runtime() {
        let shim = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../runtime/lib/xmp/csrc/shim_f.c")).unwrap();
        let caf = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../runtime/lib/xmp/csrc/caf_f.c")).unwrap();
        for (n, _) in TYPED {
            if n.starts_with("xmpf_") {
                assert!(caf.contains(&format!("{}_(void)", renamed(n))), "caf_f.c has no {}", renamed(n));
                continue;
            }
            let alias = format!("FLIB({})", n.strip_prefix("xmp_").unwrap());
            assert!(shim.contains(&alias), "shim_f.c has no {alias} for {}", renamed(n));
        }
    }
}
