//! Communication directives: `reflect`, `reduce_shadow`, `reduction`, `bcast`,
//! `barrier`, `wait_async`.

use super::gmove::dedent;
use super::stmt::*;
use super::*;
use xmpc_ir::directive::{Reduction, Trailers};
use xmpc_passes::xmp_model::comm::BcastFrom;
use xmpc_passes::xmp_model::reduction;

impl<'a> Tr<'a> {
    pub(super) fn dir_reflect(&mut self, p: &'a Pragma, comment: &str, ind: &str, vars: &[Name], widths: &Option<Vec<Width>>, trailers: &Trailers) {
        self.shadow_op(p, comment, ind, (vars, widths, trailers), "xmpc_reflect", false);
    }

    /// `reflect` and `reduce_shadow`: one runtime call per array (`func`), with the
    /// widths as arrays when given; `typed` passes the element type (reduce_shadow's
    /// addition depends on it).
    fn shadow_op(&mut self, p: &'a Pragma, comment: &str, ind: &str, what: (&[Name], &Option<Vec<Width>>, &Trailers), func: &str, typed: bool) {
        let (vars, widths, trailers) = what;
        let loc = self.loc(p);
        let asy = trailers.async_id.as_ref().map_or("-1".into(), c_expr);
        let mut code = comment.to_string();
        for v in vars {
            let Some(a) = self.dist(&v.name) else {
                self.error("XMP0109", format!("`{}` is not aligned with a template", v.name), v.span, "not a distributed array", None);
                continue;
            };
            let (desc, nd) = (self.arrs[a].desc.clone(), self.arrs[a].ndims);
            let ty = if typed {
                self.need_typeof = true;
                format!("_XMP_TYPE_OF(*{}), ", self.arrs[a].storage)
            } else {
                String::new()
            };
            match widths {
                None => {
                    let _ = write!(code, "\n{ind}{func}({loc}, {desc}, NULL, NULL, NULL, {ty}{asy});");
                }
                Some(ws) => {
                    let (lo, hi, per) = widths_c(ws, nd);
                    let _ = write!(
                        code,
                        "\n{ind}{{\n{ind}    const long _XMP_width_lo[] = {{{lo}}}, _XMP_width_hi[] = {{{hi}}};\n{ind}    const int _XMP_periodic[] = {{{per}}};\n{ind}    {func}({loc}, {desc}, _XMP_width_lo, _XMP_width_hi, _XMP_periodic, {ty}{asy});\n{ind}}}"
                    );
                }
            }
        }
        self.edit(p.dir.span, code);
    }

    pub(super) fn dir_wait_async(&mut self, p: &'a Pragma, comment: &str, ind: &str, ids: &[Expr]) {
        let loc = self.loc(p);
        let mut code = comment.to_string();
        for id in ids {
            let _ = write!(code, "\n{ind}xmpc_wait_async({loc}, {});", c_expr(id));
        }
        self.edit(p.dir.span, code);
    }

    pub(super) fn dir_reduction(&mut self, p: &'a Pragma, comment: &str, ind: &str, reductions: &[Reduction], on: &Option<Ref>) {
        let loc = self.loc(p);
        let (pre, nodes) = match on {
            Some(r) => match self.on_nodes(p, r) {
                Some(x) => x,
                None => return,
            },
            None => (String::new(), "NULL".into()),
        };
        let mut body = String::new();
        for r in reductions {
            body.push_str(&self.reduction_calls(r, &loc, &nodes, &format!("{ind}    ")));
        }
        let code = if pre.is_empty() {
            format!("{comment}{}", dedent(&body))
        } else {
            format!("{comment}\n{ind}{{\n{ind}    {}{body}\n{ind}}}", pre.replace("\n", &format!("\n{ind}")))
        };
        self.edit(p.dir.span, code);
    }

    pub(super) fn dir_bcast(&mut self, p: &'a Pragma, comment: &str, ind: &str, vars: &[Ref], from: &Option<Ref>, on: &Option<Ref>) {
        let loc = self.loc(p);
        let (pre, on_c) = match on {
            Some(r) => match self.on_nodes(p, r) {
                Some(x) => x,
                None => return,
            },
            None => (String::new(), "NULL".into()),
        };
        let mut pre = pre;
        let (from_n, from_i) = match xmpc_passes::xmp_model::comm::bcast_from(&self.m, from) {
            Ok(None) => return, // reported by the model
            Ok(Some(BcastFrom::Default)) => ("NULL".to_string(), "NULL".to_string()),
            Ok(Some(BcastFrom::Node(ni, idx))) => {
                let n = self.nname(ni);
                if idx.is_empty() {
                    (n, "NULL".into())
                } else {
                    (n, format!("(const long[]){{{}}}", idx.iter().map(|e| self.ie(e)).collect::<Vec<_>>().join(", ")))
                }
            }
            Ok(Some(BcastFrom::Template(_))) => {
                // the first node owning `t[j][:]`: the node set of `on t[j][:]`
                let Some(r) = from else { return };
                let Some((fpre, n)) = self.on_nodes(p, r) else { return };
                // (its bounds arrays renamed: the `on` clause may declare its own)
                let fpre = fpre.replace("_XMP_lo", "_XMP_from_lo").replace("_XMP_hi", "_XMP_from_hi").replace("_XMP_st", "_XMP_from_st");
                pre = if pre.is_empty() { fpre } else { format!("{pre}\n    {fpre}") };
                (n, "NULL".into())
            }
            Err(e) => {
                self.diags.push(e.to_diag(xmpc_ir::Code::Unsupported, self.file));
                return;
            }
        };
        let mut body = String::new();
        for v in vars {
            if self.dist(&v.name.name).is_some() {
                self.error(
                    "XMP0303",
                    format!("`bcast` of the distributed array `{}`", v.name.name),
                    v.span,
                    "not supported",
                    Some("use `gmove` to copy distributed data".into()),
                );
                continue;
            }
            let tail = format!("{from_n}, {from_i}, {on_c});");
            match v.subs {
                None => {
                    let _ = write!(body, "\n{ind}    xmpc_bcast({loc}, &{0}, sizeof({0}), {tail}", v.name.name);
                }
                Some(_) => {
                    if let Some(code) = self.bcast_section(v, &loc, &tail, &format!("{ind}    ")) {
                        body.push_str(&code);
                    }
                }
            }
        }
        let code = if pre.is_empty() {
            format!("{comment}{}", dedent(&body))
        } else {
            format!("{comment}\n{ind}{{\n{ind}    {}{body}\n{ind}}}", pre.replace("\n", &format!("\n{ind}")))
        };
        self.edit(p.dir.span, code);
    }

    pub(super) fn dir_barrier(&mut self, p: &'a Pragma, comment: &str, ind: &str, on: &Option<Ref>) {
        let loc = self.loc(p);
        let code = match on {
            None => format!("{comment}\n{ind}xmpc_barrier({loc}, NULL);"),
            Some(r) => match self.on_nodes(p, r) {
                Some((pre, n)) if pre.is_empty() => format!("{comment}\n{ind}xmpc_barrier({loc}, {n});"),
                Some((pre, n)) => {
                    format!("{comment}\n{ind}{{\n{ind}    {}\n{ind}    xmpc_barrier({loc}, {n});\n{ind}}}", pre.replace("\n", &format!("\n{ind}")))
                }
                None => return,
            },
        };
        self.edit(p.dir.span, code);
    }

    pub(super) fn dir_reduce_shadow(&mut self, p: &'a Pragma, comment: &str, ind: &str, vars: &[Name], widths: &Option<Vec<Width>>, trailers: &Trailers) {
        // adds (`+`) each shadow into its owner; the element type picks the addition
        self.shadow_op(p, comment, ind, (vars, widths, trailers), "xmpc_reduce_shadow", true);
    }

    /// `bcast (a[s:len][:])`: one xmpc_bcast per contiguous block of the section
    /// ([`xmpc_passes::xmp_model::section::walk`]), in loops over the other dimensions.
    pub(super) fn bcast_section(&mut self, v: &Ref, loc: &str, tail: &str, ind: &str) -> Option<String> {
        use xmpc_passes::xmp_model::section::{walk, SecDim};
        let name = &v.name.name;
        let rank = self.array_rank(name);
        let mut subs: Vec<&xmpc_ir::directive::Sub> = v.subs.iter().flatten().collect();
        if v.spelling == xmpc_ir::directive::Spelling::Square {
            subs.reverse(); // the parser keeps subscripts in round (Fortran) order
        }
        if v.spelling != xmpc_ir::directive::Spelling::Square || subs.len() != rank {
            self.error(
                "XMP0303",
                format!("`bcast` section of `{name}`: {} subscript(s) for an array of rank {rank}", subs.len()),
                v.span,
                "one `[...]` per dimension",
                None,
            );
            return None;
        }
        // Per dim (C order): kind, first index, last index (inclusive), stride.
        let mut dims = vec![];
        let mut kinds = vec![];
        for (d, s) in subs.iter().enumerate() {
            let ext = format!("(long)(sizeof({name}{0}) / sizeof({name}{0}[0]))", "[0]".repeat(d));
            let (k, lo, hi, st) = match &s.kind {
                SubKind::Star | SubKind::Triplet { lower: None, upper: None, stride: None } => (SecDim::Full, "0".into(), format!("{ext} - 1"), "1".into()),
                SubKind::Expr(e) => (SecDim::Index, c_expr(e), c_expr(e), "1".into()),
                SubKind::Triplet { lower, upper, stride } => {
                    let st = stride.as_ref().map_or("1".to_string(), c_expr);
                    let lo = lower.as_ref().map_or("0".to_string(), c_expr);
                    // `start:length:stride` (the parser made length into start+length-1).
                    let hi = upper.as_ref().map_or(format!("{ext} - 1"), |u| {
                        let h = c_expr(u);
                        if st == "1" {
                            h
                        } else {
                            format!("{} + ({} - {}) * {}", paren(&lo), paren(&h), paren(&lo), paren(&st))
                        }
                    });
                    (SecDim::Range { unit_stride: st == "1" }, lo, hi, st)
                }
            };
            kinds.push(k);
            dims.push((lo, hi, st));
        }
        let w = walk(&kinds);
        let mut out = format!("\n{ind}{{");
        let mut idx = String::new();
        let mut depth = String::new();
        for (d, (lo, hi, st)) in dims.iter().enumerate().take(w.looped) {
            if kinds[d] == SecDim::Index {
                let _ = write!(idx, "[{lo}]");
                continue;
            }
            let _ = write!(out, "\n{ind}    {depth}for (long _XMP_s{d} = {lo}; _XMP_s{d} <= {hi}; _XMP_s{d} += {st})");
            let _ = write!(idx, "[_XMP_s{d}]");
            depth.push_str("    ");
        }
        let call = if w.run_dim {
            let (lo, hi, _) = &dims[w.looped];
            let block = format!("{name}{idx}[{lo}]");
            format!("xmpc_bcast({loc}, &{block}, (size_t)(({hi}) - ({lo}) + 1) * sizeof({block}), {tail}")
        } else {
            let block = format!("{name}{idx}");
            format!("xmpc_bcast({loc}, &{block}, sizeof({block}), {tail}")
        };
        let _ = write!(out, "\n{ind}    {depth}{call}\n{ind}}}");
        Some(out)
    }

    /// The number of array dimensions of a (non-distributed) variable.
    pub(super) fn array_rank(&self, name: &str) -> usize {
        let mut cur = match self.lookup_var(name) {
            Some(Var::Plain(t)) => *t,
            _ => return 0,
        };
        let mut rank = 0;
        while let Type::Array { elem, dims } = self.unit.types.get(cur) {
            rank += dims.len();
            cur = *elem;
        }
        rank
    }

    pub(super) fn reduction_calls(&mut self, r: &xmpc_ir::directive::Reduction, loc: &str, nodes: &str, ind: &str) -> String {
        let op = match r.op {
            RedOp::Sum | RedOp::Sub => "XMPC_OP_SUM",
            RedOp::Prod => "XMPC_OP_PROD",
            RedOp::BitAnd => "XMPC_OP_BAND",
            RedOp::BitOr => "XMPC_OP_BOR",
            RedOp::BitXor => "XMPC_OP_BXOR",
            RedOp::LogAnd => "XMPC_OP_LAND",
            RedOp::LogOr => "XMPC_OP_LOR",
            RedOp::Max => "XMPC_OP_MAX",
            RedOp::Min => "XMPC_OP_MIN",
            RedOp::FirstMax => "XMPC_OP_FIRSTMAX",
            RedOp::FirstMin => "XMPC_OP_FIRSTMIN",
            RedOp::LastMax => "XMPC_OP_LASTMAX",
            RedOp::LastMin => "XMPC_OP_LASTMIN",
            RedOp::Eqv | RedOp::Neqv => {
                self.error("XMP0303", format!("reduction operator `{}` is Fortran only", r.op.as_str()), r.op_span, "not a C operator", None);
                return String::new();
            }
        };
        let mut out = String::new();
        for v in &r.vars {
            if self.dist(&v.name.name).is_some() {
                self.error("XMP0303", format!("reduction of the distributed array `{}`", v.name.name), v.name.span, "not supported", None);
                continue;
            }
            let (ty, array) = self.c_type_of(&v.name.name);
            if v.locs.is_empty() && v.loc_sections.is_empty() {
                let shape = self.red_shape(&v.name.name, array);
                let Ok(count) = reduction::element_count(&shape) else {
                    self.error(
                        "XMP0303",
                        format!("reduction of the array parameter `{}` of unknown length", v.name.name),
                        v.name.span,
                        "declared without an extent",
                        Some("declare the parameter with its length (`int a[N]`)".into()),
                    );
                    continue;
                };
                let addr = if array { v.name.name.clone() } else { format!("&{}", v.name.name) };
                // Every element of a multi-dimensional array (`sizeof(a[0])` is a row).
                let elem = format!("{}{}", v.name.name, "[0]".repeat(self.array_rank(&v.name.name).max(1)));
                let count = count.unwrap_or_else(|| format!("sizeof({}) / sizeof({elem})", v.name.name));
                let _ = write!(out, "\n{ind}xmpc_reduction({loc}, {addr}, {count}, {ty}, {op}, {nodes});");
            } else {
                if !matches!(r.op, RedOp::Max | RedOp::Min | RedOp::FirstMax | RedOp::FirstMin | RedOp::LastMax | RedOp::LastMin) {
                    self.error("XMP0303", "location variables are only allowed with max/min/firstmax/firstmin/lastmax/lastmin", r.op_span, "here", None);
                    continue;
                }
                if !v.loc_sections.is_empty() {
                    if let Some(code) = self.reduction_loc_sections(v, &ty, op, loc, nodes, ind) {
                        out.push_str(&code);
                    }
                    continue;
                }
                let locs: Vec<String> = v.locs.iter().map(|l| format!("&{}", l.name)).collect();
                let tys: Vec<String> = v.locs.iter().map(|l| self.c_type_of(&l.name).0).collect();
                let n = v.locs.len();
                let _ = write!(
                    out,
                    "\n{ind}{{\n{ind}    void *const _XMP_locs[] = {{{}}};\n{ind}    const int _XMP_loc_types[] = {{{}}};\n{ind}    xmpc_reduction_loc({loc}, &{}, {ty}, {op}, {nodes}, {n}, _XMP_locs, _XMP_loc_types);\n{ind}}}",
                    locs.join(", "),
                    tys.join(", "),
                    v.name.name
                );
            }
        }
        out
    }

    /// `reduction(max:m/i,k[1][:]/)`: the scalar locations and this node's number go
    /// through `xmpc_reduction_loc` (ties: the smallest scalar locations, then the
    /// first node); each section is then broadcast from the winning node.
    pub(super) fn reduction_loc_sections(&mut self, v: &xmpc_ir::directive::RedVar, ty: &str, op: &str, loc: &str, nodes: &str, ind: &str) -> Option<String> {
        if nodes != "NULL" {
            let span = v.loc_sections[0].span;
            self.error("XMP0303", "array sections as location variables of a reduction over other than the executing nodes", span, "not supported", None);
            return None;
        }
        let mut locs: Vec<String> = v.locs.iter().map(|l| format!("&{}", l.name)).collect();
        let mut tys: Vec<String> = v.locs.iter().map(|l| self.c_type_of(&l.name).0).collect();
        locs.push("&_XMP_who".into());
        tys.push("XMPC_TYPE_LONG".into());
        let n = locs.len();
        let mut out = format!(
            "\n{ind}{{\n{ind}    long _XMP_who = xmpc_node_num() + 1;\n{ind}    void *const _XMP_locs[] = {{{}}};\n{ind}    const int _XMP_loc_types[] = {{{}}};\n{ind}    xmpc_reduction_loc({loc}, &{}, {ty}, {op}, NULL, {n}, _XMP_locs, _XMP_loc_types);",
            locs.join(", "),
            tys.join(", "),
            v.name.name
        );
        for r in &v.loc_sections {
            out.push_str(&self.bcast_section(r, loc, "NULL, &_XMP_who, NULL);", &format!("{ind}    "))?);
        }
        let _ = write!(out, "\n{ind}}}");
        Some(out)
    }

    /// Before a `loop ... reduction` nest: Omni's restart of the variable on every
    /// executing node but the first (`xmp_model::reduction::loop_restart`).
    /// `nodes`: the node set the reduction runs over; its first node keeps the value
    /// (Omni: rank 0 of the executing nodes, the same set in Omni's tests); nodes
    /// outside it neither restart nor take part.
    pub(super) fn reduction_restart(&mut self, r: &xmpc_ir::directive::Reduction, nodes: &str, ind: &str) -> String {
        let Some(restart) = reduction::loop_restart(r.op) else { return String::new() };
        let mut out = String::new();
        for v in &r.vars {
            let name = &v.name.name;
            if !v.locs.is_empty() || self.dist(name).is_some() {
                continue; // refused by reduction_calls
            }
            let (_, array) = self.c_type_of(name);
            if !array {
                let _ =
                    write!(out, "\n{ind}if (xmpc_nodes_rank({nodes}) > 0) {name} = {}; /* Omni: restart on all but the first node */", restart.c_value(name));
                continue;
            }
            let Ok(count) = reduction::element_count(&self.red_shape(name, true)) else { continue };
            let elem = format!("{name}{}", "[0]".repeat(self.array_rank(name).max(1)));
            let count = count.unwrap_or_else(|| format!("sizeof({name}) / sizeof({elem})"));
            let _ = write!(
                out,
                "\n{ind}if (xmpc_nodes_rank({nodes}) > 0) {{ /* Omni: restart on all but the first node */\n{ind}    __typeof__({elem}) *const _XMP_rp = (__typeof__({elem}) *){name};\n{ind}    for (long _XMP_r = 0; _XMP_r < (long)({count}); _XMP_r++) _XMP_rp[_XMP_r] = {};\n{ind}}}",
                restart.c_value("_XMP_rp[_XMP_r]")
            );
        }
        out
    }

    /// How a reduction variable is declared: a parameter declared as an array is a
    /// pointer in C, so its count comes from the declared extents, not `sizeof`.
    pub(super) fn red_shape(&self, name: &str, array: bool) -> reduction::RedShape {
        if !array {
            return reduction::RedShape::Scalar;
        }
        let param = self.cur_fn.and_then(|f| f.params.iter().map(|&id| f.symbols.get(id)).find(|s| s.name == name));
        let Some(sym) = param.filter(|_| matches!(self.lookup_var(name), Some(Var::Plain(_)))) else {
            return reduction::RedShape::Array;
        };
        let mut dims = vec![];
        let mut cur = sym.ty;
        while let Type::Array { elem, dims: ds } = self.unit.types.get(cur) {
            dims.extend(ds.iter().map(|d| d.upper.as_ref().filter(|_| !d.deferred).map(c_expr)));
            cur = *elem;
        }
        reduction::RedShape::ArrayParam(dims)
    }

    /// The XMPC_TYPE_* of a variable (or of its elements), and whether it is an array.
    pub(super) fn c_type_of(&mut self, name: &str) -> (String, bool) {
        let ty = match self.lookup_var(name) {
            Some(Var::Plain(t)) => Some(*t),
            _ => None,
        };
        let mut array = false;
        let mut cur = ty;
        for _ in 0..16 {
            let Some(t) = cur else { break };
            match self.unit.types.get(t) {
                Type::Array { elem, .. } => {
                    array = true;
                    cur = Some(*elem);
                }
                Type::Basic(b) => {
                    if let Some(c) = basic_type(b) {
                        return (c.into(), array);
                    }
                    match self.lookup_var(b) {
                        Some(Var::Typedef(t2)) => cur = Some(*t2),
                        _ => break,
                    }
                }
                _ => break,
            }
        }
        self.need_typeof = true;
        (if array { format!("_XMP_TYPE_OF({name}[0])") } else { format!("_XMP_TYPE_OF({name})") }, array)
    }
}

pub(super) fn widths_c(ws: &[Width], nd: usize) -> (String, String, String) {
    let mut lo = vec![];
    let mut hi = vec![];
    let mut per = vec![];
    for d in 0..nd {
        match ws.get(d) {
            Some(w) => {
                lo.push(c_expr(&w.lower));
                hi.push(c_expr(&w.upper));
                per.push(if w.periodic { "1" } else { "0" }.to_string());
            }
            None => {
                lo.push("0".into());
                hi.push("0".into());
                per.push("0".into());
            }
        }
    }
    (lo.join(", "), hi.join(", "), per.join(", "))
}
