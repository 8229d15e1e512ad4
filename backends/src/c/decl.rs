//! Declarative directives: `nodes`, `template`, `distribute` (the model's objects
//! created at file scope or where they are declared), `template_fix`, and the node
//! sets of `on` clauses.

use super::*;
use xmpc_ir::directive::DistList;

impl<'a> Tr<'a> {
    pub(super) fn dir_template_fix(&mut self, p: &'a Pragma, comment: &str, ind: &str, dists: &Option<DistList>, name: &Name, shape: &Option<TemplateShape>) {
        let loc = self.loc(p);
        let Some(ti) = self.lookup_templ(&name) else {
            self.error("XMP0102", format!("template `{}` is not declared", name.name), name.span, "unknown template", None);
            return;
        };
        let t = self.tname(ti);
        let mut code = comment.to_string();
        if let Some(shape) = shape {
            let (bounds, lo, hi) = shape_bounds(shape);
            let _ = write!(code, "\n{ind}xmpc_template_fix({loc}, {t}, (const long[]){{{}}}, (const long[]){{{}}});", lo.join(", "), hi.join(", "));
            if let Some(b) = bounds {
                self.tfix.insert(ti, b);
            }
        } else {
            self.error("XMP0303", "`template_fix` without a shape is not supported", p.dir.name_span, "give the bounds", None);
            return;
        }
        if let Some(d) = dists {
            let Some(onto) = self.tonto(ti) else {
                self.error("XMP0303", "`template_fix` with formats needs a `distribute` of the template first", p.dir.name_span, "here", None);
                return;
            };
            let dcode = self.distribute_code(p, ti, d, &onto, &ind);
            let _ = write!(code, "\n{}", dcode.trim_end());
        }
        // Arrays aligned with this template: create them now.
        let bounds = self.tbounds(ti).unwrap_or_default();
        for a in 0..self.arrs.len() {
            if self.arrs[a].templ != ti || !self.arrs[a].deferred {
                continue;
            }
            let ad = self.arrs[a].align_dim.clone();
            let off = self.arrs[a].align_off.clone();
            let mut ext = vec![];
            for (d, &k) in ad.iter().enumerate() {
                if k < 0 || k as usize >= bounds.len() {
                    self.error("XMP0303", format!("the extent of `{}` cannot be derived from the template", self.arrs[a].name), p.dir.span, "here", None);
                    return;
                }
                ext.push(format!("{} + 1", paren(&plus_str(&bounds[k as usize].1, &off[d], true))));
            }
            self.arrs[a].extents = ext;
            let c = self.create_array(a, p, &ind);
            let _ = write!(code, "\n{}", c.trim_end());
        }
        self.edit(p.dir.span, code);
    }

    /// nodes/template/distribute: creates the object, returns the init code (file
    /// scope: assignment to the static; function: a declaration).
    pub(super) fn decl_directive(&mut self, p: &Pragma, file_scope: bool) -> Option<String> {
        let loc = self.loc(p);
        let ind = "    ";
        let mut out = String::new();
        let declared: Vec<Entity> = self.m.declared_by(p).to_vec();
        match &p.dir.kind {
            DirectiveKind::Nodes { .. } => {
                for e in declared {
                    let Entity::Nodes(id) = e else { continue };
                    out.push_str(&self.nodes_code(id, &loc, file_scope, ind));
                }
            }
            DirectiveKind::Template { .. } => {
                for e in declared {
                    let Entity::Template(id) = e else { continue };
                    let cname = self.tname(id);
                    let tt = self.m.templ(id);
                    let fixed = tt.fixed() as i32;
                    let lo: Vec<String> = tt.dims.iter().map(|d| d.as_ref().map_or("0".into(), |b| self.ie(&b.0))).collect();
                    let hi: Vec<String> = tt.dims.iter().map(|d| d.as_ref().map_or("-1".into(), |b| self.ie(&b.1))).collect();
                    let lhs = if file_scope {
                        self.statics.push(format!("static xmpc_template *{cname};"));
                        cname.clone()
                    } else {
                        format!("xmpc_template *{cname}")
                    };
                    let _ = writeln!(
                        out,
                        "{ind}{lhs} = xmpc_template_new({loc}, {}, (const long[]){{{}}}, (const long[]){{{}}}, {fixed});",
                        lo.len(),
                        lo.join(", "),
                        hi.join(", ")
                    );
                }
            }
            DirectiveKind::Distribute { dists, .. } => {
                for e in declared {
                    let Entity::Template(ti) = e else { continue };
                    let Some(nodes) = self.tonto(ti) else { continue };
                    let code = self.distribute_code(p, ti, dists, &nodes, ind);
                    out.push_str(&code);
                }
            }
            _ => {}
        }
        Some(out)
    }

    /// `nodes p(...)` / `nodes q(...) = p(...)`: the node set's creation.
    pub(super) fn nodes_code(&mut self, id: NodesId, loc: &str, file_scope: bool, ind: &str) -> String {
        let cname = self.nname(id);
        let nd = self.m.node(id);
        let sizes: Vec<String> = nd.sizes.iter().map(|x| x.as_ref().map_or("0".into(), |e| self.ie(e))).collect();
        let sz = format!("{{{}}}", sizes.join(", "));
        let mut out = String::new();
        let lhs = if file_scope {
            self.statics.push(format!("static xmpc_nodes *{cname};"));
            cname.clone()
        } else {
            format!("xmpc_nodes *{cname}")
        };
        match nd.map.clone() {
            NodesMap::Sub { parent, sels } => {
                let parent_c = self.nname(parent);
                let (lo, hi, st) = self.sel_triplets(parent, &sels);
                let _ = writeln!(
                    out,
                    "{ind}{{\n{ind}    const long _XMP_sizes[{n}] = {sz}, _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n{ind}    {cname} = xmpc_nodes_new_sub({loc}, {n}, _XMP_sizes, {parent_c}, _XMP_lo, _XMP_hi, _XMP_st);\n{ind}}}",
                    lo.join(", "),
                    hi.join(", "),
                    st.join(", "),
                    n = sizes.len(),
                );
                // `*` = this node's own coordinate: mark those parent dims (gmove
                // treats the family of sets as replicas)
                for (d, s) in sels.iter().enumerate() {
                    if *s == on_ref::NodeSel::Own {
                        let _ = writeln!(out, "{ind}xmpc_nodes_mark_per_node({cname}, {d});");
                    }
                }
                if !file_scope {
                    out = format!("{ind}xmpc_nodes *{cname};\n{out}");
                }
            }
            NodesMap::Executing => {
                let _ = writeln!(out, "{ind}{lhs} = xmpc_nodes_new({loc}, {}, (const long[]){sz});", sizes.len());
            }
        }
        out
    }

    pub(super) fn distribute_code(&mut self, p: &Pragma, ti: TemplId, dists: &xmpc_ir::directive::DistList, nodes: &str, ind: &str) -> String {
        let loc = self.loc(p);
        let mut formats = vec![];
        let mut args = vec![];
        let mut gb = vec![];
        let mut node_dim = 0;
        for d in &dists.dists {
            let (f, a) = match d.format {
                DistFormat::Dup => ("XMPC_DIST_DUP", "0".to_string()),
                DistFormat::Block => ("XMPC_DIST_BLOCK", d.arg.as_ref().map_or("0".into(), c_expr)),
                DistFormat::Cyclic => ("XMPC_DIST_CYCLIC", d.arg.as_ref().map_or("1".into(), c_expr)),
                DistFormat::GBlock => ("XMPC_DIST_GBLOCK", "0".into()),
            };
            formats.push(f);
            args.push(a);
            if d.format == DistFormat::GBlock {
                match &d.arg {
                    Some(e) if !matches!(e.kind, ExprKind::Star) => gb.push(Some((node_dim, c_expr(e)))),
                    _ => gb.push(None),
                }
            } else {
                gb.push(None);
            }
            if d.format != DistFormat::Dup {
                node_dim += 1;
            }
        }
        if dists.dists.iter().any(|d| d.format == DistFormat::GBlock && d.arg.as_ref().is_none_or(|a| matches!(a.kind, ExprKind::Star))) {
            return format!("{ind}/* gblock(*): distributed by template_fix with its mapping array */\n");
        }
        let t = self.tname(ti);
        let mut out =
            format!("{ind}{{\n{ind}    const int _XMP_formats[] = {{{}}};\n{ind}    const long _XMP_args[] = {{{}}};\n", formats.join(", "), args.join(", "));
        if gb.iter().any(|g| g.is_some()) {
            let mut maps = vec![];
            for (k, g) in gb.iter().enumerate() {
                match g {
                    Some((nd, m)) => {
                        // gblock(m): the runtime takes `long` sizes; the user's array may be int.
                        let _ = writeln!(
                            out,
                            "{ind}    long _XMP_gblock{k}[xmpc_nodes_dim_size({nodes}, {nd})];\n{ind}    for (int _XMP_q = 0; _XMP_q < xmpc_nodes_dim_size({nodes}, {nd}); _XMP_q++)\n{ind}        _XMP_gblock{k}[_XMP_q] = {m}[_XMP_q];"
                        );
                        maps.push(format!("_XMP_gblock{k}"));
                    }
                    None => maps.push("NULL".into()),
                }
            }
            let _ = writeln!(out, "{ind}    const long *const _XMP_maps[] = {{{}}};", maps.join(", "));
            let _ = writeln!(out, "{ind}    xmpc_distribute({loc}, {t}, {nodes}, _XMP_formats, _XMP_args, _XMP_maps);\n{ind}}}");
        } else {
            let _ = writeln!(out, "{ind}    xmpc_distribute({loc}, {t}, {nodes}, _XMP_formats, _XMP_args, NULL);\n{ind}}}");
        }
        out
    }

    /// Node reference subscripts → 1-based lo/hi/st (st 0 = the whole dimension),
    /// resolved by [`on_ref::node_sels`].
    pub(super) fn triplets(&mut self, r: &Ref, parent: NodesId) -> Option<(Vec<String>, Vec<String>, Vec<String>)> {
        let sels = on_ref::node_sels(r, parent);
        Some(self.sel_triplets(parent, &sels))
    }

    pub(super) fn sel_triplets(&self, parent: NodesId, sels: &[on_ref::NodeSel]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        let pc = self.nname(parent);
        for (d, s) in sels.iter().enumerate() {
            match s {
                on_ref::NodeSel::Whole => {
                    lo.push("1".into());
                    hi.push(format!("xmpc_nodes_dim_size({pc}, {d})"));
                    st.push("0".into());
                }
                on_ref::NodeSel::Own => {
                    let me = format!("xmpc_nodes_coord({pc}, {d}) + 1");
                    lo.push(me.clone());
                    hi.push(me);
                    st.push("1".into());
                }
                on_ref::NodeSel::Range { lo: l, hi: h, st: t } => {
                    lo.push(self.ie(l));
                    hi.push(self.ie(h));
                    st.push(self.ie(t));
                }
            }
        }
        (lo, hi, st)
    }

    /// `on`/`from` clause naming a node set: the C expression of the nodes object
    /// (a subset is created once and cached when its bounds are constant).
    pub(super) fn on_nodes(&mut self, p: &Pragma, r: &Ref) -> Option<(String, String)> {
        let Some(ni) = self.lookup_nodes(&r.name) else {
            if let Some(ti) = self.lookup_templ(&r.name) {
                let t = self.tname(ti);
                if r.subs.is_none() {
                    return Some((String::new(), format!("xmpc_template_nodes({t})")));
                }
                return Some(self.on_template(p, r, &t));
            }
            self.error("XMP0101", format!("node set or template `{}` is not declared", r.name.name), r.name.span, "unknown", None);
            return None;
        };
        let parent = self.nname(ni);
        if r.subs.is_none() {
            return Some((String::new(), parent));
        }
        let (lo, hi, st) = self.triplets(r, ni)?;
        let loc = self.loc(p);
        let nd = lo.len();
        let sizes: Vec<String> = (0..nd)
            .map(|d| {
                if st[d] == "0" {
                    format!("xmpc_nodes_dim_size({parent}, {d})")
                } else {
                    format!("({} - {}) / {} + 1", paren(&hi[d]), paren(&lo[d]), paren(&st[d]))
                }
            })
            .collect();
        let constant = r.subs.iter().flatten().all(|s| !self.mentions_vars(s)) && self.m.node(ni).site == MSite::File;
        let line = self.line_of(p.dir.span.start);
        self.uniq += 1;
        let name = format!("_XMP_ON_{line}_{}", self.uniq);
        let mut pre = String::new();
        if constant {
            self.statics.push(format!("static xmpc_nodes *{name};"));
            let _ = write!(
                pre,
                "if (!{name}) {{\n        const long _XMP_sizes[] = {{{}}}, _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n        {name} = xmpc_nodes_new_sub({loc}, {nd}, _XMP_sizes, {parent}, _XMP_lo, _XMP_hi, _XMP_st);\n    }}",
                sizes.join(", "),
                lo.join(", "),
                hi.join(", "),
                st.join(", ")
            );
        } else {
            let _ = write!(
                pre,
                "const long _XMP_sizes[] = {{{}}}, _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n    xmpc_nodes *const {name} = xmpc_nodes_new_sub({loc}, {nd}, _XMP_sizes, {parent}, _XMP_lo, _XMP_hi, _XMP_st);",
                sizes.join(", "),
                lo.join(", "),
                hi.join(", "),
                st.join(", ")
            );
        }
        Some((pre, name))
    }

    /// `on t[...]` (bcast, reduction, barrier): the nodes owning the referenced
    /// template indices ([`on_ref::templ_sels`]); the runtime caches the node set per
    /// selection, so the call is made each time the directive runs.
    pub(super) fn on_template(&mut self, p: &Pragma, r: &Ref, t: &str) -> (String, String) {
        let loc = self.loc(p);
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for s in on_ref::templ_sels(r) {
            match s {
                on_ref::TemplSel::Whole => {
                    lo.push("0".into());
                    hi.push("0".into());
                    st.push("0".into());
                }
                on_ref::TemplSel::Range { lo: l, hi: h, st: k } => {
                    if l.is_none() || h.is_none() {
                        self.need_limits = true;
                    }
                    lo.push(l.map_or_else(|| "LONG_MIN".into(), |l| self.ie(&l)));
                    hi.push(h.map_or_else(|| "LONG_MAX".into(), |h| self.ie(&h)));
                    st.push(self.ie(&k));
                }
            }
        }
        let line = self.line_of(p.dir.span.start);
        self.uniq += 1;
        let name = format!("_XMP_ON_{line}_{}", self.uniq);
        let pre = format!(
            "const long _XMP_lo[] = {{{}}}, _XMP_hi[] = {{{}}}, _XMP_st[] = {{{}}};\n    const xmpc_nodes *const {name} = xmpc_template_nodes_sub({loc}, {t}, _XMP_lo, _XMP_hi, _XMP_st);",
            lo.join(", "),
            hi.join(", "),
            st.join(", ")
        );
        (pre, name)
    }

    pub(super) fn mentions_vars(&self, s: &xmpc_ir::directive::Sub) -> bool {
        let mut found = false;
        let mut f = |e: &Expr| {
            e.walk(&mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    if self.lookup_var(n).is_some() {
                        found = true;
                    }
                }
            })
        };
        match &s.kind {
            SubKind::Expr(e) => f(e),
            SubKind::Triplet { lower, upper, stride } => {
                for e in [lower, upper, stride].into_iter().flatten() {
                    f(e);
                }
            }
            SubKind::Star => {}
        }
        found
    }
}
