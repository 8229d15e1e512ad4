//! Names in the directives that use XMP objects (`loop on t`, `reflect (a)`, `task on
//! p(1:2)`, `bcast ... from p(1)`): each resolved once in its scope and recorded for the
//! printers, with the checks that need nothing else (XMP0101–XMP0109).

use super::diag::Code;
use super::resolve::Resolver;
use xmpc_ir::diag::Label;
use xmpc_ir::directive::{DirectiveKind, NodesMapping};
use xmpc_ir::{Pragma, Stmt, StmtKind};

impl<'a> Resolver<'a, '_> {
    /// Resolves the names of a directive that is not declarative.
    pub fn directive(&mut self, p: &'a Pragma) {
        match &p.dir.kind {
            DirectiveKind::Loop(l) => {
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
            DirectiveKind::Reflect { vars, .. }
            | DirectiveKind::ReduceShadow { vars, .. }
            | DirectiveKind::ReflectInit { vars, .. }
            | DirectiveKind::ReflectDo { vars, .. } => {
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
            }
            DirectiveKind::Barrier { on: Some(r), .. } | DirectiveKind::Reduction { on: Some(r), .. } | DirectiveKind::WaitAsync { on: Some(r), .. } => {
                self.on_ref(r, true);
            }
            DirectiveKind::Bcast { from, on, .. } => {
                for r in from.iter().chain(on.iter()) {
                    self.on_ref(r, true);
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
