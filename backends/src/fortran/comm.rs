//! Communication directives: `reduction`, `bcast`, `barrier`, `wait_async`,
//! `reflect` / `reduce_shadow`, and the node sets of their `on` clauses.

use super::*;
use xmpc_ir::directive::{Name, Reduction, Trailers, Width};
use xmpc_passes::xmp_model::comm;

impl Tr<'_> {
    pub(super) fn dir_reduction(&mut self, p: &Pragma, u: &mut Unit, reductions: &[Reduction], on: &Option<Ref>, trailers: &Trailers) {
        let d = &p.dir;
        // async: started here, final after `wait_async` (location
        // reductions are done at once)
        let asy = trailers.async_id.as_ref().map(|e| self.ex(e));
        let Some((mut lines, onh)) = self.nodes_arg(u, on, d.span) else {
            return;
        };
        let loc = self.loc(d.span, "reduction");
        for r in reductions {
            for v in &r.vars {
                if let Some(c) = self.red_call(v, r.op, r.op_span, &onh, "0_8", &loc, asy.as_deref()) {
                    lines.push(c);
                }
            }
        }
        self.after_dir(p, &lines);
    }

    pub(super) fn dir_bcast(&mut self, p: &Pragma, u: &mut Unit, vars: &[Ref], from: &Option<Ref>, on: &Option<Ref>) {
        let d = &p.dir;
        if let Some(v) = vars.iter().find(|v| v.subs.is_some()) {
            self.err("XMP0304", v.span, "bcast of an array section is not translated in Fortran", "broadcast the whole array");
            return;
        }
        let Some((pre, onh)) = self.nodes_arg(u, on, d.span) else {
            return;
        };
        let (mut pre, onh) = (pre, onh);
        let (fh, nf, fi) = match comm::bcast_from(&self.m, from) {
            Ok(None) => return, // reported by the model
            Ok(Some(comm::BcastFrom::Default)) => ("0_8".to_string(), 0, "[integer(8) :: 0]".to_string()),
            Ok(Some(comm::BcastFrom::Node(n, idx))) => {
                let h = self.nh(n);
                if idx.is_empty() {
                    (h, 0, "[integer(8) :: 0]".into())
                } else {
                    let idx: Vec<String> = idx.iter().map(|e| self.ie(e)).collect();
                    (h, idx.len(), self.i8list(&idx))
                }
            }
            Ok(Some(comm::BcastFrom::Template(t))) => {
                let Some(r) = from else { return };
                let Some((lines, h)) = self.template_on_arg(u, r, t, d.span) else { return };
                pre.extend(lines);
                (h, 0, "[integer(8) :: 0]".into())
            }
            Err(e) => {
                self.diags.push(e.to_diag(xmpc_ir::Code::Unsupported, self.unit.file));
                return;
            }
        };
        let loc = self.loc(d.span, "bcast");
        let lines: Vec<String> =
            pre.into_iter()
                .chain(vars.iter().map(|v| {
                    format!("call xmpf_bcast({n}, {loc}, int(storage_size({n}) / 8, 8) * int(size([{n}]), 8), {fh}, {nf}, {fi}, {onh})", n = v.name.name)
                }))
                .collect();
        self.after_dir(p, &lines);
    }

    pub(super) fn dir_barrier(&mut self, p: &Pragma, u: &mut Unit, on: &Option<Ref>) {
        let d = &p.dir;
        let Some((mut lines, onh)) = self.nodes_arg(u, on, d.span) else {
            return;
        };
        lines.push(format!("call xmpf_barrier({}, {onh})", self.loc(d.span, "barrier")));
        self.after_dir(p, &lines);
    }

    pub(super) fn dir_wait_async(&mut self, p: &Pragma, ids: &[Expr], on: &Option<Ref>) {
        let d = &p.dir;
        // `on p`/`on t`: the executing nodes. The wait is local (each node
        // completes its own requests of that id, a no-op without any), so it
        // needs no node set here: the reference is only checked (as in C)
        if on.as_ref().is_some_and(|r| self.m.name(&r.name).is_none()) {
            return; // reported by the model
        }
        let loc = self.loc(d.span, "wait_async");
        let lines: Vec<String> = ids.iter().map(|e| format!("call xmpf_wait_async({loc}, {})", self.ex(e))).collect();
        self.after_dir(p, &lines);
    }

    pub(super) fn dir_reflect(&mut self, p: &Pragma, u: &mut Unit, vars: &[Name], widths: &Option<Vec<Width>>, trailers: &Trailers) {
        let d = &p.dir;
        let rs = matches!(d.kind, DirectiveKind::ReduceShadow { .. });
        let what = if rs { "reduce_shadow" } else { "reflect" };
        let loc = self.loc(d.span, what);
        let asy = trailers.async_id.as_ref().map_or("-1".into(), |e| self.ex(e));
        let mut lines = vec![];
        for v in vars {
            let Some(a) = u.arrays.get(&lc(&v.name)) else {
                self.err("XMP0109", v.span, &format!("{what} of '{}', not an aligned array of this unit", v.name), "");
                continue;
            };
            if a.cyclic && (rs || !a.cyc_full) {
                self.err("XMP0303", v.span, &format!("{what} of an array aligned with a cyclic dimension (without a full shadow `*` there)"), "not supported");
                continue;
            }
            let a = a.clone();
            // reduce_shadow adds: the element type's code
            let tc = if rs {
                let t = self.cur_type(&lc(&v.name)).and_then(|(t, _)| if lc(&t).starts_with("logical") { None } else { type_code(&t) });
                let Some(tc) = t else {
                    self.err("XMP0404", v.span, &format!("reduce_shadow of '{}': element type not supported", v.name), "integer, real or complex");
                    continue;
                };
                tc
            } else {
                0
            };
            let nd = a.ndims;
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
            let (call, tyarg) = if rs { ("xmpf_reduce_shadow", format!("{tc}, ")) } else { ("xmpf_reflect", String::new()) };
            lines.push(format!(
                "call {call}({}, {loc}, {nd}, {hw}, {}, {}, [integer :: {}], {tyarg}{asy})",
                a.handle,
                self.i8list(&lo),
                self.i8list(&hi),
                per.join(", ")
            ));
        }
        self.after_dir(p, &lines);
    }

    /// The node-set handle of an `on` clause, with the lines that must run first.
    /// A subset `p(1:2)` is created where the directive runs; with literal bounds the
    /// handle is saved, so the communicator is built once.
    pub(super) fn nodes_arg(&mut self, u: &mut Unit, r: &Option<Ref>, at: Span) -> Option<(Vec<String>, String)> {
        let Some(r) = r else {
            return Some((vec![], "0_8".into()));
        };
        let pid = match self.m.name(&r.name) {
            Some(Entity::Nodes(id)) => id,
            Some(Entity::Template(t)) => return self.template_on_arg(u, r, t, at),
            _ => return None, // reported by the model
        };
        let (ph, pnd) = (self.nh(pid), self.m.node(pid).rank());
        let Some(subs) = &r.subs else {
            return Some((vec![], ph));
        };
        if subs.len() != pnd {
            self.err("XMP0104", r.span, &format!("{} subscripts for a {pnd}-dimensional node set", subs.len()), "one subscript (or `*`) per node dimension");
            return None;
        }
        // Resolved by the shared model: `p(2:)` and `p(:3)` are ranges, `*` the
        // executing node's own index (as in C and Omni).
        let (lo, hi, st) = self.sel_triplets(&on_ref::node_sels(r, pid));
        let literal = lo.iter().chain(&hi).chain(&st).all(|x| x.bytes().all(|b| b.is_ascii_digit() || b == b'-')) && st.iter().all(|x| x != names::OWN);
        for d in lo.iter().chain(&hi).flat_map(|x| names::query_decls(x)) {
            u.decls.insert(d);
        }
        self.on_count += 1;
        let h = format!("xmpf_on{}", self.on_count);
        let call = format!("call xmpf_nodes_on({h}, {}, {ph}, {pnd}, {}, {}, {})", self.loc(at, "on"), self.i8list(&lo), self.i8list(&hi), self.i8list(&st));
        if literal {
            u.decls.insert(format!("integer(8), save :: {h} = 0_8"));
            Some((vec![format!("if ({h} == 0_8) {call}")], h))
        } else {
            u.decls.insert(format!("integer(8) :: {h}"));
            Some((vec![call], h))
        }
    }

    /// `on t(...)` of a reduction, bcast or barrier: the nodes owning the referenced
    /// template indices (Omni's meaning), built at run time and cached there.
    pub(super) fn template_on_arg(&mut self, u: &mut Unit, r: &Ref, t: TemplId, at: Span) -> Option<(Vec<String>, String)> {
        let (th, tnd) = (self.th(t), self.m.templ(t).rank());
        let Some(subs) = &r.subs else {
            self.on_count += 1;
            let h = format!("xmpf_on{}", self.on_count);
            u.decls.insert(format!("integer(8) :: {h}"));
            let call = format!("call xmpf_template_nodes_on({h}, {}, {th}, 0, [0_8], [0_8], [0_8])", self.loc(at, "on"));
            return Some((vec![call], h));
        };
        if subs.len() != tnd {
            self.err(
                "XMP0104",
                r.span,
                &format!("{} subscripts for a {tnd}-dimensional template", subs.len()),
                "one subscript (or `:`) per template dimension",
            );
            return None;
        }
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for sel in on_ref::templ_sels(r) {
            match sel {
                on_ref::TemplSel::Whole => {
                    lo.push("0".into());
                    hi.push("0".into());
                    st.push("0".into());
                }
                on_ref::TemplSel::Range { lo: a, hi: b, st: c } => {
                    lo.push(a.map_or_else(|| "-huge(0_8)-1".into(), |a| self.ie(&a)));
                    hi.push(b.map_or_else(|| "huge(0_8)".into(), |b| self.ie(&b)));
                    st.push(self.ie(&c));
                }
            }
        }
        self.on_count += 1;
        let h = format!("xmpf_on{}", self.on_count);
        u.decls.insert(format!("integer(8) :: {h}"));
        let call =
            format!("call xmpf_template_nodes_on({h}, {}, {th}, {tnd}, {}, {}, {})", self.loc(at, "on"), self.i8list(&lo), self.i8list(&hi), self.i8list(&st));
        Some((vec![call], h))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn red_call(
        &mut self,
        v: &xmpc_ir::directive::RedVar,
        op: RedOp,
        op_span: Span,
        onh: &str,
        th: &str,
        loc: &str,
        asy: Option<&str>,
    ) -> Option<String> {
        if !v.locs.is_empty() && !matches!(op, RedOp::Max | RedOp::Min | RedOp::FirstMax | RedOp::FirstMin | RedOp::LastMax | RedOp::LastMin) {
            self.err("XMP0303", v.name.span, "location variables are allowed with max, min, firstmax, firstmin, lastmax and lastmin", "");
            return None;
        }
        if v.locs.len() > 3 {
            self.err("XMP0304", v.name.span, "more than 3 location variables are not supported yet in Fortran", "");
            return None;
        }
        if let Some(r) = v.loc_sections.first() {
            self.err("XMP0304", r.span, "array sections as location variables are not supported yet in Fortran", "");
            return None;
        }
        let opc = match op {
            RedOp::Sum | RedOp::Sub => 0,
            RedOp::Prod => 1,
            RedOp::BitAnd => 2,
            RedOp::BitOr => 3,
            RedOp::BitXor => 4,
            RedOp::LogAnd => 5,
            RedOp::LogOr => 6,
            RedOp::Max => 7,
            RedOp::Min => 8,
            RedOp::FirstMax => 9,
            RedOp::FirstMin => 10,
            RedOp::LastMax => 11,
            RedOp::LastMin => 12,
            RedOp::Eqv => 100,
            RedOp::Neqv => 101,
        };
        let _ = op_span;
        let key = lc(&v.name.name);
        let ty = self.cur_type(&key);
        let Some((tyname, is_arr)) = ty else {
            self.err(
                "XMP0404",
                v.name.span,
                &format!("cannot find the declaration of '{}'", v.name.name),
                "reduction variables must be declared in this program unit",
            );
            return None;
        };
        let Some(tc) = type_code(&tyname) else {
            self.err("XMP0404", v.name.span, &format!("reduction of type {tyname} is not supported"), "");
            return None;
        };
        let n = &v.name.name;
        let cnt = if is_arr { format!("int(size({n}), 8)") } else { "1_8".into() };
        if !v.locs.is_empty() {
            if is_arr {
                self.err("XMP0303", v.name.span, "location variables with an array reduction variable", "not supported");
                return None;
            }
            let mut args = vec![];
            for l in &v.locs {
                let lt = self.cur_type(&lc(&l.name)).and_then(|(t, arr)| if arr { None } else { type_code(&t) });
                let Some(lt) = lt else {
                    self.err("XMP0404", l.span, &format!("location variable '{}' must be a declared scalar of an integer or real type", l.name), "");
                    return None;
                };
                args.push(format!("{}, {lt}", l.name));
            }
            return Some(format!("call xmpf_reduction_loc{}({n}, {loc}, {tc}, {opc}, {onh}, {th}, {})", v.locs.len(), args.join(", ")));
        }
        Some(match asy {
            None => format!("call xmpf_reduction({n}, {loc}, {cnt}, {tc}, {opc}, {onh}, {th})"),
            Some(id) => format!("call xmpf_reduction_async({n}, {loc}, {cnt}, {tc}, {opc}, {onh}, {th}, {id})"),
        })
    }
}
