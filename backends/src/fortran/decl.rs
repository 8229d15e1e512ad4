//! Declarative directives: `nodes`, `template` and `distribute` in a specification
//! part (the model's objects, set up before the first executable statement), and
//! `template_fix` in the executable part.

use super::*;
use xmpc_ir::directive::{DistList, Name, TemplateShape};

impl Tr<'_> {
    /// `nodes`, `template`, `distribute` of a specification part: the handles and
    /// the setup calls of the objects the model says it declares.
    pub(super) fn spec_directive(&mut self, p: &Pragma, u: &mut Unit) {
        let d = &p.dir;
        let loc = |me: &Self, w: &str| me.loc(d.span, w);
        match &d.kind {
            DirectiveKind::Nodes { .. } => {
                for e in self.m.declared_by(p).to_vec() {
                    let Entity::Nodes(id) = e else { continue };
                    let line = self.nodes_setup(id, &loc(self, "nodes"));
                    u.decls.insert(format!("integer(8) :: {}", self.nh(id)));
                    u.setup.push(line);
                }
            }
            DirectiveKind::Template { .. } => {
                for e in self.m.declared_by(p).to_vec() {
                    let Entity::Template(id) = e else { continue };
                    let h = self.th(id);
                    u.decls.insert(format!("integer(8) :: {h}"));
                    let tt = self.m.templ(id);
                    let lo: Vec<String> = tt.dims.iter().map(|x| x.as_ref().map_or("0".into(), |b| self.ie(&b.0))).collect();
                    let hi: Vec<String> = tt.dims.iter().map(|x| x.as_ref().map_or("0".into(), |b| self.ie(&b.1))).collect();
                    let fixed = tt.fixed() as i32;
                    u.setup.push(format!(
                        "call xmpf_template({h}, {}, {}, {}, {}, {fixed})",
                        loc(self, "template"),
                        lo.len(),
                        self.i8list(&lo),
                        self.i8list(&hi)
                    ));
                }
            }
            DirectiveKind::Distribute { dists, .. } => {
                let templs: Vec<TemplId> = self.m.declared_by(p).iter().filter_map(|e| if let Entity::Template(t) = e { Some(*t) } else { None }).collect();
                if templs.is_empty() {
                    return;
                }
                let Some(da) = self.dist_args(dists, true) else { return };
                for t in templs {
                    let Some(nh) = self.tonto(t) else { continue };
                    if !gblock::deferred(dists) {
                        let th = self.th(t);
                        u.setup.push(self.distribute_call(&th, &loc(self, "distribute"), &nh, &da));
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn dir_template_fix(&mut self, p: &Pragma, dists: &Option<DistList>, name: &Name, shape: &Option<TemplateShape>) {
        let d = &p.dir;
        let Some(tid) = self.m.name_template(name) else { return };
        let (th, tnd) = (self.th(tid), self.m.templ(tid).rank());
        let loc = self.loc(d.span, "template_fix");
        let mut lines = vec![];
        let mut fix_dist = None;
        if let Some(ds) = dists {
            if self.tonto(tid).is_none() {
                self.err("XMP0303", d.span, "template_fix with a distribution: distribute the template onto a node set first", "not supported yet");
                return;
            }
            let Some(call) = self.template_fix_dist(d.span, tid, ds) else { return };
            fix_dist = Some(call);
        }
        match shape {
            Some(sh) if sh.dims.len() == tnd && sh.dims.iter().all(|x| x.bounds.is_some()) => {
                let lo: Vec<String> = sh.dims.iter().map(|x| self.ex(&x.bounds.as_ref().unwrap().0)).collect();
                let hi: Vec<String> = sh.dims.iter().map(|x| self.ex(&x.bounds.as_ref().unwrap().1)).collect();
                lines.push(format!("call xmpf_template_fix({th}, {loc}, {tnd}, {}, {}, 1)", self.i8list(&lo), self.i8list(&hi)));
            }
            Some(_) => {
                self.err("XMP0104", d.span, "template_fix: one bound per template dimension", "");
                return;
            }
            None => {
                let z = vec!["0".to_string(); tnd];
                lines.push(format!("call xmpf_template_fix({th}, {loc}, {tnd}, {}, {}, 0)", self.i8list(&z), self.i8list(&z)));
            }
        }
        lines.extend(fix_dist);
        self.after_dir(p, &lines);
    }
}
