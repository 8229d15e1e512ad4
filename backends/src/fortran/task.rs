//! `task on ...` / `end task`: the body runs on the nodes named, between
//! `xmpf_task_begin` and `xmpf_task_end`.

use super::*;

impl Tr<'_> {
    pub(super) fn dir_task(&mut self, p: &Pragma, u: &mut Unit, on: &Ref, nocomm: &bool) {
        let d = &p.dir;
        let loc = self.loc(d.span, "task");
        u.decls.insert("integer :: xmpf_run".into());
        let call = if let Some(n) = self.m.name_nodes(&on.name) {
            let (h, nd) = (self.nh(n), self.m.node(n).rank());
            let sels = match &on.subs {
                Some(_) => on_ref::node_sels(on, n),
                None => vec![on_ref::NodeSel::Whole; nd],
            };
            if sels.len() != nd {
                self.err(
                    "XMP0104",
                    on.span,
                    &format!("{} subscripts for a {nd}-dimensional node set", sels.len()),
                    "one subscript (or `*`) per node dimension",
                );
                return;
            }
            let (lo, hi, st) = self.sel_triplets(&sels);
            for d in lo.iter().chain(&hi).flat_map(|x| names::query_decls(x)) {
                u.decls.insert(d);
            }
            format!("call xmpf_task_begin(xmpf_run, {loc}, {h}, {nd}, {}, {}, {}, {})", self.i8list(&lo), self.i8list(&hi), self.i8list(&st), *nocomm as i32)
        } else if let Some((h, nd, _)) = self.m.name_template(&on.name).map(|t| self.templ_info(t)) {
            let (mut idx, mut star) = (vec![], vec![]);
            for k in 0..nd {
                match on.subs.as_ref().and_then(|v| v.get(k)).map(|s| &s.kind) {
                    Some(SubKind::Expr(e)) => {
                        idx.push(self.ex(e));
                        star.push("0".to_string());
                    }
                    _ => {
                        idx.push("0".into());
                        star.push("1".into());
                    }
                }
            }
            format!("call xmpf_task_begin_t(xmpf_run, {loc}, {h}, {nd}, {}, [integer :: {}], {})", self.i8list(&idx), star.join(", "), *nocomm as i32)
        } else {
            return; // reported by the model
        };
        let mut lines = vec![call, "if (xmpf_run /= 0) then".into()];
        let body_caf = p.body.as_ref().is_some_and(|b| {
            let from = if self.fixed { self.line_start(b.span.start) } else { b.span.start };
            coarray::statement_text_uses_coarrays(&self.src[from..b.span.end.max(from)], self.fixed)
        });
        if self.own_libcaf && body_caf {
            lines.push(self.caf_task_marker(d.span.start));
        }
        self.after_dir(p, &lines);
        if let Some(b) = &p.body {
            self.task_depth += 1;
            self.stmt(b, u);
            self.task_depth -= 1;
        }
        match p.end_span {
            Some(e) => self.before_line(e.start, &["call xmpf_task_end()".into(), "end if".into()]),
            None => self.err("XMP0105", d.span, "task without `end task`", "close it with `!$xmp end task`"),
        }
        return;
    }
}
