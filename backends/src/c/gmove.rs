//! `gmove` and `array`: assignments between sections of distributed arrays.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn section_side(&mut self, e: &Expr, tag: &str, ind: &str, out: &mut String) -> Option<String> {
        let (base, subs) = index_chain(e);
        let Some(key) = self.base_key(base) else {
            self.error("XMP0306", "a `gmove` side must be an array section or a variable", e.span, "here", None);
            return None;
        };
        let name = key.as_str();
        let var = format!("_XMP_{tag}");
        if let Some(a) = self.dist(name) {
            let ar = self.arrs[a].clone();
            if subs.len() != ar.ndims {
                self.error("XMP0306", format!("`{name}` has {} dimension(s)", ar.ndims), e.span, "subscript count", None);
                return None;
            }
            let (lo, hi, st) = self.section_bounds(&subs, &ar.extents);
            let _ = write!(
                out,
                "\n{ind}    const long {var}_lo[] = {{{}}}, {var}_hi[] = {{{}}}, {var}_st[] = {{{}}};\n{ind}    const xmpc_section {var} = {{{}, NULL, {}, sizeof(*{}), NULL, {var}_lo, {var}_hi, {var}_st}};",
                lo.join(", "),
                hi.join(", "),
                st.join(", "),
                ar.desc,
                ar.ndims,
                ar.storage
            );
            return Some(var);
        }
        // A local array or scalar.
        let ty = match self.lookup_var(name) {
            Some(Var::Plain(t)) => Some(*t),
            _ => None,
        };
        let dims: Vec<String> = match ty.map(|t| self.unit.types.get(t)) {
            Some(Type::Array { dims, .. }) => dims.iter().map(|d| d.upper.as_ref().map_or("0".into(), c_expr)).collect(),
            _ => vec![],
        };
        if dims.is_empty() {
            // A pointer (`int *p = malloc(...)`, Omni's gmove/141_gmove): the section
            // gives the extent, `p[start:length]` or `p[k]`.
            let pointee = match ty.map(|t| self.unit.types.get(t)) {
                Some(Type::Pointer(el)) => Some(*el),
                _ => None,
            };
            let open_end = matches!(subs.first().map(|x| &x.kind), Some(ExprKind::Triplet(_, None, _)));
            if let (Some(el), [_], false) = (pointee, subs.as_slice(), open_end) {
                if !matches!(self.unit.types.get(el), Type::Array { .. } | Type::Function { .. }) {
                    let (lo, hi, st) = self.section_bounds(&subs, &[]);
                    let _ = write!(
                        out,
                        "\n{ind}    const long {var}_ext[] = {{({}) + 1}}, {var}_lo[] = {{{}}}, {var}_hi[] = {{{}}}, {var}_st[] = {{{}}};\n{ind}    const xmpc_section {var} = {{NULL, {name}, 1, sizeof({name}[0]), {var}_ext, {var}_lo, {var}_hi, {var}_st}};",
                        hi[0], lo[0], hi[0], st[0]
                    );
                    return Some(var);
                }
            }
            if !subs.is_empty() {
                let help = pointee.map(|_| "a pointer side needs one subscript with its length: `p[start:length]`".to_string());
                self.error("XMP0306", format!("`{name}` is not an array xmpc knows the shape of"), e.span, "here", help);
                return None;
            }
            let _ = write!(
                out,
                "\n{ind}    const long {var}_ext[] = {{1}}, {var}_lo[] = {{0}}, {var}_hi[] = {{0}}, {var}_st[] = {{1}};\n{ind}    const xmpc_section {var} = {{NULL, &{name}, 1, sizeof({name}), {var}_ext, {var}_lo, {var}_hi, {var}_st}};"
            );
            return Some(var);
        }
        if subs.len() != dims.len() {
            self.error("XMP0306", format!("`{name}` has {} dimension(s)", dims.len()), e.span, "subscript count", None);
            return None;
        }
        let (lo, hi, st) = self.section_bounds(&subs, &dims);
        let _ = write!(
            out,
            "\n{ind}    const long {var}_ext[] = {{{}}}, {var}_lo[] = {{{}}}, {var}_hi[] = {{{}}}, {var}_st[] = {{{}}};\n{ind}    const xmpc_section {var} = {{NULL, {name}, {}, sizeof({name}[0]{}), {var}_ext, {var}_lo, {var}_hi, {var}_st}};",
            dims.join(", "),
            lo.join(", "),
            hi.join(", "),
            st.join(", "),
            dims.len(),
            "[0]".repeat(dims.len() - 1)
        );
        Some(var)
    }

    pub(super) fn section_bounds(&mut self, subs: &[&Expr], ext: &[String]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for (d, s) in subs.iter().enumerate() {
            match &s.kind {
                ExprKind::Triplet(l, u, stv) => {
                    let l = l.as_ref().map_or("0".into(), |e| c_expr(e));
                    let step = stv.as_ref().map_or("1".into(), |e| c_expr(e));
                    // The front end normalises `start:len[:st]` to `start : start+len-1`;
                    // with a stride the last element is start + (len-1)*st.
                    let h = match u {
                        Some(e) if step != "1" => format!("{} + ({} - {}) * {}", paren(&l), paren(&c_expr(e)), paren(&l), paren(&step)),
                        Some(e) => c_expr(e),
                        None => plus(ext.get(d).map_or("0", |s| s.as_str()), -1),
                    };
                    lo.push(l);
                    hi.push(h);
                    st.push(step);
                }
                _ => {
                    let v = c_expr(s);
                    lo.push(v.clone());
                    hi.push(v);
                    st.push("1".into());
                }
            }
        }
        (lo, hi, st)
    }

    pub(super) fn gmove(&mut self, p: &'a Pragma, mode: Option<GmoveMode>, async_id: Option<&Expr>) {
        let comment = self.dir_comment(p);
        let Some(body) = p.body.as_deref() else {
            self.error("XMP0306", "`gmove` is not followed by an assignment", p.dir.name_span, "here", None);
            return;
        };
        let StmtKind::Expr(Expr { kind: ExprKind::Assign(None, lhs, rhs), .. }) = &body.kind else {
            self.error("XMP0306", "`gmove` must be followed by an assignment between array sections", body.span, "not understood", None);
            return;
        };
        let loc = self.loc(p);
        let ind = self.indent_at(body.span.start);
        let mut code = format!("{comment}\n{ind}{{");
        let Some(dst) = self.section_side(lhs, "dst", &ind, &mut code) else { return };
        let Some(src) = self.section_side(rhs, "src", &ind, &mut code) else { return };
        let m = match mode {
            None => "XMPC_GMOVE_NORMAL",
            Some(GmoveMode::In) => "XMPC_GMOVE_IN",
            Some(GmoveMode::Out) => "XMPC_GMOVE_OUT",
        };
        let asy = async_id.map_or("-1".into(), c_expr);
        let _ = write!(code, "\n{ind}    xmpc_gmove({loc}, &{dst}, &{src}, {m}, {asy});\n{ind}}}");
        self.edit(p.dir.span, code);
        self.edit(body.span, format!("/* {} */", comment_safe(&one_line(&self.src[body.span.range()], false))));
    }

    /// `array on t(...)` + `a[lo:len] = expr-of-sections;`: a loop over the local part.
    pub(super) fn array_dir(&mut self, p: &'a Pragma, on: &Ref) {
        let comment = self.dir_comment(p);
        let Some(body) = p.body.as_deref() else {
            self.error("XMP0306", "`array` is not followed by an assignment", p.dir.name_span, "here", None);
            return;
        };
        let StmtKind::Expr(stmt_e @ Expr { kind: ExprKind::Assign(_, lhs, _), .. }) = &body.kind else {
            self.error("XMP0306", "`array` must be followed by an array assignment", body.span, "not understood", None);
            return;
        };
        let (base, subs) = index_chain(lhs);
        let Some(a) = self.base_key(base).and_then(|n| self.dist(&n)) else {
            self.error("XMP0306", "the left side of an `array` assignment must be a distributed array", lhs.span, "here", None);
            return;
        };
        let ar = self.arrs[a].clone();
        let Some(ti) = self.lookup_templ(&on.name) else {
            self.error("XMP0102", format!("template `{}` is not declared", on.name.name), on.name.span, "unknown template", None);
            return;
        };
        if ti != ar.templ || subs.len() != ar.ndims {
            self.error("XMP0306", "`array on t` must name the template the left-hand array is aligned with", on.span, "here", None);
            return;
        }
        let loc = self.loc(p);
        let t = self.tname(ti);
        let ind = self.indent_at(body.span.start);
        let mut head = format!("{comment}\n{ind}{{");
        // One loop per sectioned dim of the left side.
        let mut vars: Vec<(usize, String, String)> = vec![]; // (dim, var, lower)
        let (lo, hi, st) = self.section_bounds(&subs, &ar.extents);
        let mut loops = String::new();
        let mut depth = 1;
        for (d, s) in subs.iter().enumerate() {
            if !matches!(s.kind, ExprKind::Triplet(..)) {
                continue;
            }
            let v = format!("_XMP_i{d}");
            let pad = "    ".repeat(depth);
            if ar.align_dim[d] >= 0 && ar.fmts[d] == Fmt::Linear {
                let tdim = ar.align_dim[d];
                let off = &ar.align_off[d];
                let _ = write!(
                    head,
                    "\n{ind}    xmpc_sched _XMP_sched{d};\n{ind}    xmpc_loop_sched({loc}, {t}, {tdim}, {}, {}, {}, &_XMP_sched{d});",
                    plus_str(&lo[d], off, false),
                    plus_str(&hi[d], off, false),
                    st[d]
                );
                let _ = write!(
                    loops,
                    "\n{ind}{pad}for (long {v} = {}; {v} <= {}; {v} += {})",
                    plus_str(&format!("_XMP_sched{d}.first"), off, true),
                    plus_str(&format!("_XMP_sched{d}.last"), off, true),
                    st[d]
                );
            } else if ar.align_dim[d] < 0 {
                let _ = write!(loops, "\n{ind}{pad}for (long {v} = {}; {v} <= {}; {v} += {})", lo[d], hi[d], st[d]);
            } else {
                // cyclic / cyclic(w): chunk sets, chunks, then the elements of a chunk.
                let tdim = ar.align_dim[d];
                let off = &ar.align_off[d];
                let _ = write!(
                    head,
                    "\n{ind}    xmpc_sched _XMP_scheds{d}[8];\n{ind}    const int _XMP_nsched{d} = xmpc_loop_sched_multi({loc}, {t}, {tdim}, {}, {}, {}, _XMP_scheds{d}, 8);\n{ind}    if (_XMP_nsched{d} > 8)\n{ind}        xmpc_fatal({loc}, \"array: step too large for a cyclic(w) distribution\");",
                    plus_str(&lo[d], off, false),
                    plus_str(&hi[d], off, false),
                    st[d]
                );
                let sd = format!("_XMP_scheds{d}[_XMP_k{d}]");
                let _ = write!(
                    loops,
                    "\n{ind}{pad}for (int _XMP_k{d} = 0; _XMP_k{d} < _XMP_nsched{d}; _XMP_k{d}++)\n{ind}{pad}for (long _XMP_c{d} = {sd}.first; _XMP_c{d} <= {sd}.last; _XMP_c{d} += {sd}.stride)\n{ind}{pad}for (long {v} = {}; {v} <= {}; {v} += {})",
                    plus_str(&format!("_XMP_c{d}"), off, true),
                    plus_str(&format!("(_XMP_c{d} + {sd}.width - 1 < {sd}.last ? _XMP_c{d} + {sd}.width - 1 : {sd}.last)"), off, true),
                    st[d]
                );
            }
            vars.push((d, v, lo[d].clone()));
            depth += 1;
        }
        // The statement with each section replaced by the element of this iteration.
        let text = self.elementwise(stmt_e, &vars);
        let Some(text) = text else { return };
        let pad = "    ".repeat(depth);
        let _ = write!(head, "{loops}\n{ind}{pad}{text};\n{ind}}}");
        self.edit(p.dir.span, head);
        self.edit(body.span, format!("/* {} */", comment_safe(&one_line(&self.src[body.span.range()], false))));
    }

    /// A C array-section assignment outside any directive (`y[i][:] = 0;`, XMP C's
    /// array assignment on a local array): a loop nest over the left side's sections
    /// with each section of the statement replaced by its element. False when `e` is
    /// not such an assignment.
    pub(super) fn section_assign(&mut self, s: &Stmt, e: &Expr) -> bool {
        let mut has_triplet = false;
        e.walk(&mut |x| has_triplet |= matches!(x.kind, ExprKind::Triplet(..)));
        if !has_triplet {
            return false;
        }
        let refuse = |t: &mut Self| {
            t.error(
                "XMP0306",
                "array sections outside an `array` or `gmove` statement are only supported as `x[l:n]... = expr-of-sections;`",
                e.span,
                "array section here",
                None,
            );
            true
        };
        let ExprKind::Assign(_, lhs, _) = &e.kind else { return refuse(self) };
        let (base, subs) = index_chain(lhs);
        if !subs.iter().any(|x| matches!(x.kind, ExprKind::Triplet(..))) {
            return refuse(self);
        }
        let Some(key) = self.base_key(base) else { return refuse(self) };
        let name = key.as_str();
        if self.dist(name).is_some() {
            self.error(
                "XMP0306",
                format!("an assignment to a section of the distributed array `{name}` needs an `array` directive"),
                lhs.span,
                "section of a distributed array",
                Some("write `#pragma xmp array on t[...]` before it".into()),
            );
            return true;
        }
        let dims: Vec<String> = match self.lookup_var(name) {
            Some(Var::Plain(t)) => match self.unit.types.get(*t) {
                Type::Array { dims, .. } => dims.iter().map(|d| d.upper.as_ref().map_or("0".into(), c_expr)).collect(),
                _ => vec![],
            },
            _ => vec![],
        };
        if dims.len() != subs.len() {
            self.error("XMP0306", format!("`{name}` is not an array xmpc knows the shape of"), lhs.span, "array section of it", None);
            return true;
        }
        let (lo, hi, st) = self.section_bounds(&subs, &dims);
        let ind = self.indent_at(s.span.start);
        let mut loops = String::from("{");
        let mut vars = vec![];
        for (d, sub) in subs.iter().enumerate() {
            if matches!(sub.kind, ExprKind::Triplet(..)) {
                let v = format!("_XMP_s{d}");
                let _ = write!(loops, "\n{ind}{}for (long {v} = {}; {v} <= {}; {v} += {})", "    ".repeat(vars.len() + 1), lo[d], hi[d], st[d]);
                vars.push((d, v, lo[d].clone()));
            }
        }
        let Some(text) = self.elementwise(e, &vars) else {
            self.error("XMP0306", "cannot translate this array-section assignment", e.span, "sections of different shapes?", None);
            return true;
        };
        let _ = write!(loops, "\n{ind}{}{text};\n{ind}}}", "    ".repeat(vars.len() + 1));
        self.edit(s.span, loops);
        true
    }

    /// Prints `e` with every section `x[l:u]` in dim k replaced by `x[l + (i_k - L_k)]`.
    pub(super) fn elementwise(&mut self, e: &Expr, vars: &[(usize, String, String)]) -> Option<String> {
        match &e.kind {
            ExprKind::Index(..) => {
                let (base, subs) = index_chain(e);
                let key = self.base_key(base)?;
                let mut idx = vec![];
                let mut k = 0;
                for s in &subs {
                    match &s.kind {
                        ExprKind::Triplet(l, _, stv) => {
                            let (_, v, lo) = vars.get(k)?;
                            k += 1;
                            let l = l.as_ref().map_or("0".into(), |e| c_expr(e));
                            let rel = if *lo == "0" { v.clone() } else { format!("({v} - {})", paren(lo)) };
                            let rel = match stv {
                                Some(_) => rel, // strides are equal on both sides
                                None => rel,
                            };
                            idx.push(if l == "0" { rel } else { format!("{} + {rel}", paren(&l)) });
                        }
                        _ => idx.push(c_expr(s)),
                    }
                }
                match self.dist(&key) {
                    Some(a) => Some(self.access(a, &idx)),
                    None => Some(format!("{}{}", c_expr(base), idx.iter().map(|i| format!("[{i}]")).collect::<String>())),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.elementwise(a, vars)?, self.elementwise(b, vars)?);
                let mut tmp = Expr::new(
                    e.span,
                    ExprKind::Binary(
                        *op,
                        Box::new(Expr::new(a.span, ExprKind::Verbatim(format!("({x})")))),
                        Box::new(Expr::new(b.span, ExprKind::Verbatim(format!("({y})")))),
                    ),
                );
                tmp.span = e.span;
                Some(c_expr(&tmp))
            }
            ExprKind::Assign(op, a, b) => {
                let (x, y) = (self.elementwise(a, vars)?, self.elementwise(b, vars)?);
                Some(c_expr(&Expr::new(
                    e.span,
                    ExprKind::Assign(*op, Box::new(Expr::new(a.span, ExprKind::Verbatim(x))), Box::new(Expr::new(b.span, ExprKind::Verbatim(y)))),
                )))
            }
            ExprKind::Unary(op, a) => {
                let x = self.elementwise(a, vars)?;
                Some(c_expr(&Expr::new(e.span, ExprKind::Unary(*op, Box::new(Expr::new(a.span, ExprKind::Verbatim(format!("({x})"))))))))
            }
            ExprKind::Call(f, args) => {
                let mut v = vec![];
                for a in args {
                    v.push(self.elementwise(a, vars)?);
                }
                Some(format!("{}({})", c_expr(f), v.join(", ")))
            }
            _ => Some(c_expr(e)),
        }
    }
}

pub(super) fn dedent(body: &str) -> String {
    // Calls built at `ind + 4` for a block, used without one: drop 4 spaces.
    body.replace("\n    ", "\n")
}

/// `a[i][j]` → (`a`, [i, j]).
pub(super) fn index_chain(e: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut subs = vec![];
    let mut cur = e;
    while let ExprKind::Index(a, i) = &cur.kind {
        subs.push(&**i);
        cur = a;
    }
    subs.reverse();
    (cur, subs)
}
