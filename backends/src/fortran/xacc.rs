//! XcalableACC in Fortran (`docs/xacc.md`): `reflect_init` / `reflect_do` (host and
//! `acc` forms) and the `acc` clause of the communication directives.
//!
//! OpenACC lines stay as written: an aligned array keeps its name (a pointer with the
//! global lower bounds over the node's block with shadows), so `!$acc data copy(a)`
//! already moves that block. With `acc`, `reflect`, `reflect_do`, `reduce_shadow`,
//! `reduction`, `bcast` and `gmove` run their host lowering between
//! `!$acc update host(..) if_present` and `!$acc update device(..) if_present` (no-ops
//! in gfortran's host fallback; a staging copy with offload). The lines are written
//! in column 1 so they are directives in fixed form too.

use super::*;

impl<'a> Tr<'a> {
    /// An XMP directive with `acc`: the host lowering between the updates.
    pub(super) fn acc_comm(&mut self, p: &Pragma, u: &mut Unit, acc: Span) {
        let mut reads: Vec<String> = vec![];
        let mut writes: Vec<String> = vec![];
        let mut body_end = None;
        match &p.dir.kind {
            DirectiveKind::Reflect { vars, .. } | DirectiveKind::ReflectDo { vars, .. } | DirectiveKind::ReduceShadow { vars, .. } => {
                for v in vars {
                    if u.arrays.contains_key(&lc(&v.name)) {
                        reads.push(v.name.clone());
                        writes.push(v.name.clone());
                    }
                }
            }
            DirectiveKind::ReflectInit { .. } | DirectiveKind::Barrier { .. } => {}
            DirectiveKind::Reduction { reductions, .. } => {
                for r in reductions {
                    for v in &r.vars {
                        for n in std::iter::once(&v.name).chain(v.locs.iter()) {
                            reads.push(n.name.clone());
                            writes.push(n.name.clone());
                        }
                    }
                }
            }
            DirectiveKind::Bcast { vars, .. } => {
                for v in vars {
                    reads.push(v.name.name.clone());
                    writes.push(v.name.name.clone());
                }
            }
            DirectiveKind::Gmove { .. } => {
                if let Some(b) = p.body.as_ref() {
                    if let StmtKind::Assign(lhs, rhs) = &b.kind {
                        for (side, is_lhs) in [(lhs, true), (rhs, false)] {
                            let name = match &side.kind {
                                ExprKind::Ident(n) => Some(n.clone()),
                                ExprKind::Call(f, _) => match &f.kind {
                                    ExprKind::Ident(n) => Some(n.clone()),
                                    _ => None,
                                },
                                _ => None,
                            };
                            if let Some(n) = name {
                                if !reads.contains(&n) {
                                    reads.push(n.clone());
                                }
                                if is_lhs {
                                    writes.push(n);
                                }
                            }
                        }
                    }
                    body_end = Some(self.stmt_end(b.span.start));
                }
            }
            _ => {
                self.err(
                    "XMP0401",
                    acc,
                    &format!("`{}` with the `acc` clause is not translated", p.dir.name()),
                    "XcalableACC: acc is translated on reflect, reflect_init, reflect_do, reduce_shadow, reduction, bcast, barrier and gmove",
                );
                return;
            }
        }
        let (n, nd) = (self.edits.len(), self.diags.len());
        self.acc_inner = true;
        self.pragma(p, u);
        self.acc_inner = false;
        if self.diags.len() > nd {
            return;
        }
        let pre = if reads.is_empty() { String::new() } else { format!("\n!$acc update host({}) if_present", reads.join(", ")) };
        let post = if writes.is_empty() { String::new() } else { format!("\n!$acc update device({}) if_present", writes.join(", ")) };
        let at = self.after_dir_at(p);
        match body_end {
            // gmove: the call replaces the assignment below the directive
            Some(end) => {
                self.edits.push(Edit { span: Span::new(at, at), text: pre });
                self.edits.push(Edit { span: Span::new(end, end), text: post });
            }
            None => match self.edits[n..].iter_mut().find(|e| e.span == Span::new(at, at)) {
                Some(e) => e.text = format!("{pre}{}{post}", e.text),
                None => self.edits.push(Edit { span: Span::new(at, at), text: format!("{pre}{post}") }),
            },
        }
    }

    /// `reflect_init (a, ...) [width(...)]` and `reflect_do (a, ...) [async(id)]`.
    pub(super) fn reflect_persistent(&mut self, p: &Pragma, u: &Unit) {
        let d = &p.dir;
        let (vars, widths, asy, what) = match &d.kind {
            DirectiveKind::ReflectInit { vars, widths, .. } => (vars, widths.as_ref(), None, "reflect_init"),
            DirectiveKind::ReflectDo { vars, trailers } => (vars, None, Some(trailers.async_id.as_ref().map_or("-1".into(), |e| self.ex(e))), "reflect_do"),
            _ => return,
        };
        let loc = self.loc(d.span, what);
        let mut lines = vec![];
        for v in vars {
            let Some(a) = u.arrays.get(&lc(&v.name)) else {
                self.err("XMP0109", v.span, &format!("{what} of '{}', not an aligned array of this unit", v.name), "");
                continue;
            };
            if a.cyclic {
                self.err("XMP0303", v.span, &format!("{what} of an array aligned with a cyclic dimension"), "not supported");
                continue;
            }
            let (h, nd) = (a.handle.clone(), a.ndims);
            if let Some(asy) = &asy {
                lines.push(format!("call xmpf_reflect_do({h}, {loc}, {asy})"));
                continue;
            }
            let (hw, lo, hi, per) = match widths {
                Some(ws) if ws.len() <= nd => (
                    1,
                    // missing trailing widths are 0 (the model checked there are not too many)
                    (0..nd).map(|k| ws.get(k).map_or("0".into(), |w| self.ex(&w.lower))).collect::<Vec<_>>(),
                    (0..nd).map(|k| ws.get(k).map_or("0".into(), |w| self.ex(&w.upper))).collect::<Vec<_>>(),
                    (0..nd).map(|k| ws.get(k).map_or("0".into(), |w| (w.periodic as i32).to_string())).collect::<Vec<_>>(),
                ),
                Some(_) => {
                    self.err("XMP0104", d.span, &format!("{what} width: one width per array dimension"), "");
                    continue;
                }
                None => (0, vec!["0".into(); nd], vec!["0".into(); nd], vec!["0".into(); nd]),
            };
            lines.push(format!("call xmpf_reflect_init({h}, {loc}, {nd}, {hw}, {}, {}, [integer :: {}])", self.i8list(&lo), self.i8list(&hi), per.join(", ")));
        }
        self.after_dir(p, &lines);
    }
}
