//! `gmove`: an assignment between (sections of) distributed arrays, one runtime call.

use super::*;

impl<'a> Tr<'a> {
    /// `gmove [in|out]` + `lhs = rhs`: the assignment becomes one `xmpf_gmove` call.
    pub(super) fn gmove(&mut self, p: &Pragma, mode: Option<&xmpc_ir::directive::GmoveMode>, u: &Unit) {
        let d = &p.dir;
        let Some(StmtKind::Assign(lhs, rhs)) = p.body.as_ref().map(|b| &b.kind) else {
            self.err("XMP0306", d.span, "gmove must be followed by an assignment", "");
            return;
        };
        let body = p.body.as_ref().unwrap();
        let (Some(dst), Some(src)) = (self.gmove_side(lhs, u), self.gmove_side(rhs, u)) else {
            return;
        };
        let m = match mode {
            None => 0,
            Some(xmpc_ir::directive::GmoveMode::In) => 1,
            Some(xmpc_ir::directive::GmoveMode::Out) => 2,
        };
        let loc = self.loc(d.span, "gmove");
        let end = self.stmt_end(body.span.start);
        self.edits.push(Edit { span: Span::new(body.span.start, end), text: format!("call xmpf_gmove({loc}, {m}, {dst}, {src})") });
    }

    /// One side of a gmove: `handle, base, ndims, elem size, [extent], [lower bound],
    /// [lo], [hi], [st]` (Fortran order and indices).
    pub(super) fn gmove_side(&mut self, e: &Expr, u: &Unit) -> Option<String> {
        let (name, args, id) = match &e.kind {
            ExprKind::Ident(n) => (n.clone(), None, Some(e)),
            ExprKind::Member { .. } => (self.member_ref(e)?, None, None),
            ExprKind::Call(f, a) => match &f.kind {
                ExprKind::Ident(n) => (n.clone(), Some(a.clone()), Some(&**f)),
                _ => (self.member_ref(f)?, Some(a.clone()), None),
            },
            _ => {
                self.err("XMP0303", e.span, "gmove operand must be an array, an array section or an element", "");
                return None;
            }
        };
        let key = lc(&name);
        let (handle, nd, dl, ext, esize) = if let Some(a) = u.arrays.get(&key) {
            // (an array aligned with a cyclic dimension is stored whole; the runtime
            // knows it and reads/writes only the owners' copies)
            (a.handle.clone(), a.ndims, a.dl.clone(), a.ext.clone(), a.esize)
        } else {
            // the declaration the model resolved (a module's variable hides the
            // implicit type of the name), else the printer's look-up
            let declared = id.and_then(|i| self.m.host_var(i)).and_then(|s| self.symbol_type(s));
            let Some((ty, is_arr)) = declared.or_else(|| self.cur_type(&key)) else {
                self.err("XMP0404", e.span, &format!("cannot find the declaration of '{name}'"), "");
                return None;
            };
            let Some(es) = elem_size(&ty) else {
                self.err("XMP0404", e.span, &format!("gmove of type {ty} is not supported"), "");
                return None;
            };
            if is_arr {
                let rank = id.and_then(|i| self.m.host_var(i)).and_then(|s| self.symbol_rank(s)).or_else(|| self.rank_of(&key));
                let nd = args.as_ref().map_or_else(|| rank.unwrap_or(1), |a| a.len());
                let dl = (1..=nd).map(|k| format!("lbound({name}, {k})")).collect();
                let ext = (1..=nd).map(|k| format!("size({name}, {k})")).collect();
                ("0_8".to_string(), nd, dl, ext, es)
            } else {
                if args.is_some() {
                    self.err("XMP0303", e.span, "gmove operand: not an array", "");
                    return None;
                }
                ("0_8".to_string(), 1, vec!["1".into()], vec!["1".into()], es)
            }
        };
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for k in 0..nd {
            let full = (dl[k].clone(), format!("({}) + ({}) - 1", dl[k], ext[k]), "1".to_string());
            let (l, h, s) = match args.as_ref().map(|a| a.get(k)) {
                None => full,
                Some(None) => {
                    self.err("XMP0104", e.span, &format!("'{name}' has {nd} dimensions"), "one subscript per dimension");
                    return None;
                }
                Some(Some(x)) => match &x.kind {
                    ExprKind::Triplet(a, b, c) => (
                        a.as_ref().map_or(full.0.clone(), |v| self.ex(v)),
                        b.as_ref().map_or(full.1.clone(), |v| self.ex(v)),
                        c.as_ref().map_or("1".into(), |v| self.ex(v)),
                    ),
                    _ => (self.ex(x), self.ex(x), "1".into()),
                },
            };
            lo.push(l);
            hi.push(h);
            st.push(s);
        }
        if args.as_ref().is_some_and(|a| a.len() != nd) {
            self.err("XMP0104", e.span, &format!("'{name}' has {nd} dimensions"), "one subscript per dimension");
            return None;
        }
        Some(format!(
            "{handle}, {name}, {nd}, {esize}, {}, {}, {}, {}, {}",
            self.i8list(&ext),
            self.i8list(&dl),
            self.i8list(&lo),
            self.i8list(&hi),
            self.i8list(&st)
        ))
    }
}
