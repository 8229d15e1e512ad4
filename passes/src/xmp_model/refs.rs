//! Names in the directives that use XMP objects (`loop on t`, `reflect (a)`, `task on
//! p(1:2)`, `bcast ... from p(1)`): each resolved once in its scope and recorded for the
//! printers, with the checks that need nothing else (XMP0101–XMP0109).

use super::diag::Code;
use super::resolve::Resolver;
use xmpc_ir::diag::Label;
use xmpc_ir::directive::{DirectiveKind, Name, NodesMapping, Reduction, Ref, SubKind};
use xmpc_ir::{Expr, ExprKind, Pragma, Stmt, StmtKind};

impl<'a> Resolver<'a, '_> {
    /// Resolves the names of a directive that is not declarative.
    pub fn directive(&mut self, p: &'a Pragma) {
        match &p.dir.kind {
            DirectiveKind::Loop(l) => {
                self.clause_vars(&l.reductions, &[]);
                let t = self.template(&l.on.name);
                self.followed_by_loop(p);
                if let Some(t) = t {
                    self.loop_nest(p, l, t);
                }
            }
            DirectiveKind::DeviceLoop(l) => {
                self.template(&l.on.name);
                self.followed_by_loop(p);
            }
            DirectiveKind::Reflect { vars, widths, .. }
            | DirectiveKind::ReduceShadow { vars, widths, .. }
            | DirectiveKind::ReflectInit { vars, widths, .. } => {
                for n in vars {
                    self.aligned(n);
                }
                self.comm_widths(p.dir.name(), vars, widths);
            }
            DirectiveKind::ReflectDo { vars, .. } => {
                for n in vars {
                    self.aligned(n);
                }
            }
            DirectiveKind::TemplateFix { name, dists, .. } => {
                let Some(t) = self.template(name) else { return };
                // `template_fix (gblock(m)) t(...)`: the formats of the template's
                // `distribute`, with the mapping arrays `gblock(*)` left for later
                let Some(d) = dists else { return };
                let Some(dist) = self.m.templates[t.0].dist.as_ref() else { return };
                let same = dist.dims.len() == d.dists.len() && dist.dims.iter().zip(&d.dists).all(|(a, b)| a.format == b.format);
                if !same {
                    let e = Code::DistributeFormats
                        .error(
                            self.m.unit.file,
                            "`template_fix`: the distribution formats differ from the template's `distribute`",
                            d.dists.first().map_or(p.dir.span, |x| x.span),
                            "these formats",
                        )
                        .with_labels(vec![Label::secondary(self.m.unit.file, dist.dir.range()).with_message("distributed here")])
                        .with_notes(vec!["help: give one format per template dimension, as in its `distribute` directive".into()]);
                    self.m.diags.push(e);
                    return;
                }
                let onto = dist.onto;
                let dims = super::decl::dist_dims(d);
                self.m.templates[t.0].dist = Some(super::symbols::Distribution { dir: p.dir.span, onto, dims });
            }
            DirectiveKind::Array { on, .. } => {
                self.template(&on.name);
            }
            DirectiveKind::Task { on, .. } => {
                self.on_ref(on, true);
                self.ref_vars(on);
            }
            // Omni's Fortran `coarray on p :: a` and `image(p)`: a node set's numbering
            DirectiveKind::Coarray { on, .. } | DirectiveKind::Image { on } => {
                self.on_ref(on, false);
            }
            DirectiveKind::Reduction { reductions, on, .. } => {
                self.clause_vars(reductions, &[]);
                if let Some(r) = on {
                    self.on_ref(r, true);
                    self.ref_vars(r);
                }
            }
            DirectiveKind::Barrier { on: Some(r), .. } => {
                self.on_ref(r, true);
                self.ref_vars(r);
            }
            DirectiveKind::WaitAsync { ids, on } => {
                if let Some(r) = on {
                    self.on_ref(r, true);
                    self.ref_vars(r);
                }
                self.expr_vars(ids.iter());
            }
            DirectiveKind::Bcast { vars, from, on, .. } => {
                let names: Vec<&Name> = vars.iter().map(|v| &v.name).collect();
                self.clause_vars(&[], &names);
                for r in from.iter().chain(on.iter()) {
                    self.on_ref(r, true);
                    self.ref_vars(r);
                }
            }
            DirectiveKind::Gmove { .. } => {
                if let Some(StmtKind::Assign(l, r)) = p.body.as_ref().map(|b| &b.kind) {
                    self.gmove_operand(l);
                    self.gmove_operand(r);
                }
            }
            DirectiveKind::SaveDesc { names } | DirectiveKind::StaticDesc { names } => {
                for n in names {
                    if let Some(e) = self.scopes.lookup(&n.name).filter(|e| !matches!(e, super::symbols::Entity::Host)) {
                        self.note(n, e);
                    }
                }
            }
            // `nodes q = p(...)` inside a Fortran executable part is reported by the
            // printer (a declarative directive after the first executable statement)
            DirectiveKind::Nodes { mapping: Some(NodesMapping::Ref(_)), .. } => {}
            _ => {}
        }
    }

    /// A `gmove` operand naming a host variable (`x`, `x(1:n)`): its declaration.
    fn gmove_operand(&mut self, e: &'a Expr) {
        let id = match &e.kind {
            ExprKind::Call(f, _) => f,
            _ => e,
        };
        if let ExprKind::Ident(n) = &id.kind {
            if let Some(v) = self.scopes.var(n) {
                self.m.vars.insert(id.span.start, v);
            }
        }
    }

    /// The variables a `reduction` (directive or `loop` clause, with its location
    /// variables) or `bcast` names must be declared (XMP0115): a typo would otherwise
    /// reach the C or Fortran compiler on a generated line. A Fortran unit without
    /// `implicit none` declares them implicitly.
    fn clause_vars(&mut self, reductions: &[Reduction], others: &[&Name]) {
        if self.fortran() && !self.implicit_none() {
            return;
        }
        let mut names: Vec<&Name> = others.to_vec();
        for r in reductions {
            for v in &r.vars {
                names.push(&v.name);
                names.extend(v.locs.iter());
            }
        }
        for n in names {
            if n.name.contains(['.', '%', '[', '(', '-']) || self.scopes.lookup(&n.name).is_some() || self.scopes.opaque() || self.c_headers {
                continue;
            }
            let file = self.m.unit.file;
            let mut d = Code::ClauseUndeclared.error(file, format!("`{}` is not declared", n.name), n.span, "not declared here");
            let cands = self.scopes.visible(&|e| matches!(e, super::symbols::Entity::Host | super::symbols::Entity::Array(_)));
            if let Some(best) = xmpc_ir::diag::did_you_mean(&n.name, cands.iter().map(|c| c.0.as_str())) {
                d = d.with_notes(vec![format!("help: did you mean `{best}`?")]);
            } else {
                d = d.with_notes(vec!["help: declare the variable before the directive that names it".into()]);
            }
            self.m.diags.push(d);
        }
    }

    /// The variables in the subscripts of an `on` node or template reference
    /// (`task on p[k]`): declared, as [`Self::clause_vars`].
    fn ref_vars(&mut self, r: &Ref) {
        let Some(subs) = &r.subs else { return };
        let exprs = subs.iter().flat_map(|s| match &s.kind {
            SubKind::Expr(e) => vec![e],
            SubKind::Triplet { lower, upper, stride } => [lower, upper, stride].into_iter().flatten().collect(),
            SubKind::Star => vec![],
        });
        self.expr_vars(exprs);
    }

    /// The variables of directive expressions (`wait_async (id)`, `on p[k]`) must be
    /// declared (XMP0115), else the C or Fortran compiler reports them on a generated
    /// line. Called names (functions, Fortran intrinsics and arrays), C macros (names
    /// `#define`d in the file, or in capitals) are left alone.
    fn expr_vars<'e>(&mut self, exprs: impl Iterator<Item = &'e Expr>) {
        struct Idents<'e>(Vec<(&'e str, xmpc_ir::Span)>);
        impl<'e> xmpc_ir::visit::Visitor<'e> for Idents<'e> {
            fn visit_expr(&mut self, e: &'e Expr) {
                match &e.kind {
                    ExprKind::Ident(n) => self.0.push((n, e.span)),
                    ExprKind::Call(_, args) => args.iter().for_each(|a| self.visit_expr(a)),
                    ExprKind::Member { .. } => {}
                    _ => xmpc_ir::visit::walk_expr(self, e),
                }
            }
        }
        let mut v = Idents(vec![]);
        for e in exprs {
            xmpc_ir::visit::Visitor::visit_expr(&mut v, e);
        }
        let names: Vec<Name> =
            v.0.into_iter()
                .filter(|(n, _)| self.fortran() || !(n.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_') || self.c_macro(n)))
                .map(|(n, span)| Name { name: n.to_string(), span })
                .collect();
        let refs: Vec<&Name> = names.iter().collect();
        self.clause_vars(&[], &refs);
    }

    /// `name` is `#define`d in this C file.
    fn c_macro(&self, name: &str) -> bool {
        self.m.src.lines().any(|l| {
            let l = l.trim_start();
            let Some(rest) = l.strip_prefix('#') else { return false };
            let Some(rest) = rest.trim_start().strip_prefix("define") else { return false };
            let rest = rest.trim_start();
            rest.strip_prefix(name).is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        })
    }

    /// `loop` / `device loop` must apply to a loop (an OpenACC construct may sit between).
    fn followed_by_loop(&mut self, p: &Pragma) {
        let is_loop = |s: &Stmt| matches!(s.kind, StmtKind::For { .. } | StmtKind::Do { .. } | StmtKind::While { .. });
        let mut body = p.body.as_deref();
        while let Some(Stmt { kind: StmtKind::Pragma(inner), .. }) = body {
            if !matches!(inner.dir.kind, DirectiveKind::Acc { .. }) {
                break;
            }
            body = inner.body.as_deref();
        }
        match body {
            Some(s) if is_loop(s) => {}
            other => {
                let file = self.m.unit.file;
                let mut d = Code::LoopNotFollowed.error(
                    file,
                    format!("`{}` directive is not followed by a loop", p.dir.name()),
                    p.dir.name_span,
                    "expects a loop next",
                );
                if let Some(s) = other {
                    d = d.with_labels(vec![Label::secondary(file, s.span.range()).with_message("this is not a loop")]);
                }
                let hint =
                    if self.fortran() { "help: put the `do` loop right after the directive" } else { "help: put the `for` loop right after the directive" };
                self.m.diags.push(d.with_notes(vec![hint.into()]));
            }
        }
    }
}
