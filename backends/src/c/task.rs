//! `task on ...`: the body runs on the nodes named, between `xmpc_task_begin` and
//! `xmpc_task_end`.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn task(&mut self, p: &'a Pragma, on: &Ref, nocomm: bool) {
        let comment = self.dir_comment(p);
        let Some(body) = p.body.as_deref() else {
            self.error("XMP0303", "`task` is not followed by a statement", p.dir.name_span, "here", None);
            return;
        };
        let loc = self.loc(p);
        let ind = self.indent_at(p.dir.span.start);
        let nc = nocomm as i32;
        let mut head = format!("{comment}\n{ind}{{");
        let cond;
        if let Some(ni) = self.lookup_nodes(&on.name) {
            let n = self.nname(ni);
            let nd = self.m.node(ni).rank();
            let (lo, hi, st) = match &on.subs {
                Some(_) => match self.triplets(on, ni) {
                    Some(x) => x,
                    None => return,
                },
                None => (
                    (0..nd).map(|_| "1".to_string()).collect(),
                    (0..nd).map(|d| format!("xmpc_nodes_dim_size({n}, {d})")).collect(),
                    (0..nd).map(|_| "0".to_string()).collect(),
                ),
            };
            let _ =
                write!(head, "\n{ind}    const long _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};", lo.join(", "), hi.join(", "), st.join(", "));
            cond = format!("xmpc_task_begin({loc}, {n}, _XMP_lo, _XMP_hi, _XMP_st, {nc})");
        } else if let Some(ti) = self.lookup_templ(&on.name) {
            let t = self.tname(ti);
            let mut idx = vec![];
            for s in on.subs.iter().flatten() {
                match &s.kind {
                    SubKind::Expr(e) => idx.push(c_expr(e)),
                    SubKind::Star => {
                        self.need_limits = true;
                        idx.push("LONG_MIN".into())
                    }
                    SubKind::Triplet { .. } => {
                        self.error("XMP0303", "`task on` a template range is not supported", s.span, "use a single index", None);
                        return;
                    }
                }
            }
            if idx.is_empty() {
                self.error("XMP0303", "`task on` a whole template is not supported", on.span, "here", None);
                return;
            }
            let _ = write!(head, "\n{ind}    const long _XMP_idx[] = {{{}}};", idx.join(", "));
            cond = format!("xmpc_task_begin_template({loc}, {t}, _XMP_idx, {nc})");
        } else {
            self.error("XMP0101", format!("node set or template `{}` is not declared", on.name.name), on.name.span, "unknown", None);
            return;
        }
        let _ = write!(head, "\n{ind}    if ({cond}) {{");
        // goto would skip xmpc_task_end (a `return` ends the tasks it leaves).
        body.walk(&mut |s| {
            if matches!(s.kind, StmtKind::Goto(_)) {
                self.diags.push(
                    err("XMP0307", "`goto` out of a `task` body", self.file, s.span, "leaves the task without ending it")
                        .with_notes(vec!["help: set a flag and leave the task body normally".into()]),
                );
            }
        });
        self.edit(p.dir.span, head);
        self.task_depth += 1;
        self.stmt(body);
        self.task_depth -= 1;
        self.edit(Span::new(body.span.end, body.span.end), format!("\n{ind}        xmpc_task_end();\n{ind}    }}\n{ind}}}"));
    }
}
