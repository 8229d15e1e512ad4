//! Aligned arrays: storage, layout variables and element access.

use super::*;
use xmpc_passes::xmp_model::symbols::AlignDim;

impl<'a> Tr<'a> {
    /// `align A[...] with T(...)`: records the array as distributed. Returns its index.
    pub(super) fn align(&mut self, p: &Pragma, n: &Name, file_scope: bool) -> Option<usize> {
        let DirectiveKind::Align { with, .. } = &p.dir.kind else { return None };
        if self.lookup_templ(&with.name).is_none() {
            self.error("XMP0102", format!("template `{}` is not declared", with.name.name), with.name.span, "unknown template", None);
            return None;
        }
        // Find the array's symbol in the innermost scope that has it.
        let (sym, global): (Symbol, bool) = match self.find_symbol(&n.name, file_scope, n.span.start) {
            Some(x) => x,
            None => {
                self.error("XMP0103", format!("array `{}` is not declared", n.name), n.span, "unknown array", None);
                return None;
            }
        };
        let param = sym.sclass == StorageClass::Param && !file_scope;
        if sym.sclass == StorageClass::Extern || (sym.sclass == StorageClass::Param && !param) || (!global && sym.sclass == StorageClass::Static) {
            self.error(
                "XMP0303",
                format!(
                    "aligning `{}` ({}) is not supported",
                    n.name,
                    match sym.sclass {
                        StorageClass::Extern => "an `extern` declaration",
                        StorageClass::Param => "a function parameter",
                        _ => "a `static` local",
                    }
                ),
                n.span,
                "here",
                Some("align the array where it is defined (file scope or an automatic local)".into()),
            );
            return None;
        }
        if sym.init.is_some() {
            self.error(
                "XMP0303",
                format!("distributed array `{}` cannot have an initialiser", n.name),
                sym.span,
                "initialised here",
                Some("initialise it in a `loop` instead".into()),
            );
            return None;
        }
        if param {
            return self.align_param(p, n, sym.ty);
        }
        self.align_ty(p, n, sym.ty, global, Site::Decl(sym.span))
    }

    /// The part of `align` that follows the array's type: `n` names the array (a
    /// variable, or a member `s.a` whose storage pointer is declared at `site`).
    pub(super) fn align_ty(&mut self, p: &Pragma, n: &Name, ty: TypeId, global: bool, site: Site) -> Option<usize> {
        let DirectiveKind::Align { source, with, .. } = &p.dir.kind else { return None };
        let ti = self.lookup_templ(&with.name)?;
        // A member `s.a` is spelled `s__a` in generated names.
        let cname = n.name.replace('.', "__");
        // A pointer array: `T *a` (1-D) or `T (*a)[M]...` (the rows' extents declared).
        let mut row_extents: Vec<String> = vec![];
        let mut first_extent = None;
        let (pointer, extents): (bool, Vec<String>) = match self.unit_type(ty) {
            // A parameter `T b[N][M]` is a pointer to the caller's block.
            Type::Array { dims, .. } if matches!(site, Site::Param) => {
                let ext: Vec<String> = dims.iter().map(|d| d.upper.as_ref().map_or(String::new(), c_expr)).collect();
                first_extent = ext.first().filter(|e| !e.is_empty()).cloned();
                row_extents = ext.into_iter().skip(1).collect();
                (true, vec![])
            }
            Type::Array { dims, .. } => (false, dims.iter().map(|d| d.upper.as_ref().map_or(String::new(), c_expr)).collect()),
            Type::Pointer(to) => {
                if let Type::Array { dims, .. } = self.unit_type(to) {
                    row_extents = dims.iter().map(|d| d.upper.as_ref().map_or(String::new(), c_expr)).collect();
                }
                (true, vec![])
            }
            _ => {
                self.error("XMP0303", format!("`{}` is not an array or pointer", n.name), n.span, "cannot be aligned", None);
                return None;
            }
        };
        let ndims = if pointer { 1 + row_extents.len() } else { extents.len() };
        if extents.iter().chain(&row_extents).any(|e| e.is_empty()) || ndims != source.len() {
            self.error(
                "XMP0303",
                format!("`{}`: the align source must list one subscript per array dimension with known extents", n.name),
                n.span,
                "here",
                None,
            );
            return None;
        }
        // align_dim / offsets, as the model decides them
        let dims = xmpc_passes::xmp_model::decl::align_dims(source, with, false).unwrap_or_default();
        let align_dim: Vec<i64> = dims.iter().map(|a| if let AlignDim::Aligned { tdim, .. } = a { *tdim as i64 } else { -1 }).collect();
        let align_off: Vec<String> = dims.iter().map(|a| if let AlignDim::Aligned { offset, .. } = a { self.ie(offset) } else { "0".into() }).collect();
        let dists = self.tdists(ti);
        let fmts: Vec<Fmt> = align_dim
            .iter()
            .map(|&k| {
                if k < 0 {
                    return Fmt::Linear;
                }
                match dists.as_ref().and_then(|d| d.get(k as usize)) {
                    Some((DistFormat::Cyclic, false)) => Fmt::Cyclic,
                    Some((DistFormat::Cyclic, true)) | None => Fmt::General,
                    Some(_) => Fmt::Linear,
                }
            })
            .collect();
        let extents = if pointer {
            // The extent follows the template: upper - offset + 1.
            match &self.tbounds(ti) {
                // a parameter declared `T b[N]...`
                _ if first_extent.is_some() => vec![first_extent.clone().unwrap_or_default()],
                Some(b) if align_dim[0] >= 0 && (align_dim[0] as usize) < b.len() => {
                    vec![format!("{} + 1", paren(&plus_str(&b[align_dim[0] as usize].1, &align_off[0], true)))]
                }
                // a parameter: the template was fixed by the caller
                _ if matches!(site, Site::Param) && align_dim[0] >= 0 => {
                    self.need_tbound = true;
                    let t = &self.tname(ti);
                    vec![format!("{} + 1", paren(&plus_str(&format!("_XMP_tub({t}, {})", align_dim[0] + 1), &align_off[0], true)))]
                }
                _ => vec![String::new()],
            }
            .into_iter()
            .chain(row_extents)
            .collect()
        } else {
            extents
        };
        let lay = if global { cname.clone() } else { format!("{}_{}", cname, self.line_of(p.dir.span.start)) };
        // a multi-dimensional pointer array is addressed through a flat element pointer
        let storage = match (pointer, ndims) {
            (true, 1) => n.name.clone(),
            (true, _) => format!("((__typeof__(&{}{}))({}))", n.name, "[0]".repeat(ndims), n.name),
            (false, _) => format!("_XMP_ADDR_{}", cname),
        };
        let desc = format!("_XMP_DESC_{}", cname);
        let idx = self.arrs.len();
        self.arrs.push(ArrInfo {
            name: n.name.clone(),
            storage,
            desc: desc.clone(),
            lay: lay.clone(),
            ndims,
            fmts,
            global,
            pointer,
            templ: ti,
            align_dim,
            align_off,
            extents,
            shadow: vec![("0".into(), "0".into(), false); ndims],
            has_shadow: false,
            deferred: self.tbounds(ti).is_none() && !matches!(site, Site::Param),
            param: matches!(site, Site::Param),
            late: false,
            used: false,
        });
        self.rewrite_aligned_decl(n, &cname, site, global, pointer, ndims);
        if global {
            self.statics.push(format!("static xmpc_array *{desc};"));
        }
        if global || pointer || self.arrs[idx].deferred {
            self.layout_statics(idx);
        }
        // The array is distributed from now on in its scope.
        let scope = if global { 0 } else { self.scopes.len() - 1 };
        let target = (0..=scope).rev().find(|&k| self.scopes[k].vars.contains_key(&n.name)).unwrap_or(scope);
        self.scopes[target].vars.insert(n.name.clone(), Var::Dist(idx));
        Some(idx)
    }

    /// The declaration of an aligned array rewritten: `double a[N][M]` becomes
    /// `double *_XMP_ADDR_a`, a member's node part a separate pointer after the variable.
    fn rewrite_aligned_decl(&mut self, n: &Name, cname: &str, site: Site, global: bool, pointer: bool, ndims: usize) {
        match site {
            // Rewrite the declaration: `double a[N][M]` → `double *_XMP_ADDR_a`.
            Site::Decl(span) if !pointer => {
                let end = declarator_end(self.src, span.end);
                // `restrict` on the file-scope pointer: distinct distributed arrays never
                // overlap, and GCC then vectorises / turns row copies into memcpy at -O2
                // exactly as it does for plain C arrays (a local copy is ignored by GCC).
                let text = if global { format!("*restrict _XMP_ADDR_{}", n.name) } else { format!("*_XMP_ADDR_{}", n.name) };
                self.edit(Span::new(span.start, end), text);
            }
            Site::Decl(_) | Site::Param => {}
            // A structure member: the member stays in the structure (unused); the
            // node's part is a separate pointer declared after the variable.
            Site::After(at) => {
                let (var, field) = n.name.split_once('.').unwrap_or((&n.name, ""));
                let text = format!(
                    " static __typeof__({var}.{field}{}) *restrict _XMP_ADDR_{cname}; /* xmpc: the node's part of `{}` */",
                    "[0]".repeat(ndims),
                    n.name
                );
                self.edit(Span::new(at, at), text);
            }
        }
    }

    /// File-scope arrays, and arrays whose layout is read where they are created (a
    /// pointer array, or one whose template `template_fix` fixes later): the layout
    /// lives in file statics (`_XMP_G_...`, unique per array).
    fn layout_statics(&mut self, idx: usize) {
        let (lay, ndims) = (self.arrs[idx].lay.clone(), self.arrs[idx].ndims);
        let mut vars = vec![];
        for d in 0..ndims {
            vars.push(format!("_XMP_G_{lay}_off{d}"));
            if d + 1 < ndims {
                vars.push(format!("_XMP_G_{lay}_str{d}"));
            }
            match self.arrs[idx].fmts[d] {
                Fmt::Linear => {}
                Fmt::Cyclic => vars.push(format!("_XMP_G_{lay}_np{d}")),
                Fmt::General => {
                    vars.push(format!("_XMP_G_{lay}_w{d}"));
                    vars.push(format!("_XMP_G_{lay}_wp{d}"));
                }
            }
        }
        self.statics.push(format!("static long {};", vars.join(", ")));
    }

    pub(super) fn unit_type(&self, t: TypeId) -> Type {
        self.unit.types.get(t).clone()
    }

    /// The symbol `name` means at offset `at`: inside a function, the local declared
    /// (before `at`, with the type bound in the open scopes) that is visible there, not
    /// a later one of the same name in a nested block; else the file-scope one.
    pub(super) fn find_symbol(&self, name: &str, file_scope: bool, at: usize) -> Option<(Symbol, bool)> {
        if !file_scope {
            if let Some(f) = self.cur_fn {
                let bound = self.scopes.iter().skip(1).rev().find_map(|s| s.vars.get(name));
                let visible = |s: &&Symbol| s.name == name && s.span.start <= at;
                let found = match bound {
                    Some(Var::Plain(ty)) => f.symbols.symbols.iter().rev().find(|s| visible(s) && s.ty == *ty),
                    // not declared in an open scope of the function: the file-scope one
                    None => None,
                    Some(_) => f.symbols.symbols.iter().rev().find(visible),
                };
                if let Some(s) = found {
                    return Some((s.clone(), false));
                }
            }
        }
        self.unit.globals.symbols.iter().rev().find(|s| s.name == name).map(|s| (s.clone(), true))
    }

    pub(super) fn shadow(&mut self, n: &Name, widths: &[ShadowWidth]) {
        let Some(a) = self.dist(&n.name) else {
            self.error("XMP0109", format!("`{}` is not aligned with a template", n.name), n.span, "not a distributed array", None);
            return;
        };
        let mut sh = vec![];
        for w in widths {
            match w {
                ShadowWidth::Full(_) => sh.push(("0".into(), "0".into(), true)),
                ShadowWidth::Width(w) => sh.push((c_expr(&w.lower), c_expr(&w.upper), false)),
            }
        }
        if sh.len() == self.arrs[a].ndims {
            if self.arrs[a].used && sh != self.arrs[a].shadow {
                self.error(
                    "XMP0303",
                    format!("`shadow` of `{}` after the array is used", n.name),
                    n.span,
                    "the references before it were translated without this shadow",
                    Some("put the `shadow` directive right after the `align` directive".into()),
                );
                return;
            }
            // A full shadow on a cyclic dimension: every node stores the whole
            // dimension, indexed by the global index (the runtime's layout: offset 0).
            for (d, s) in sh.iter().enumerate() {
                if s.2 {
                    self.arrs[a].fmts[d] = Fmt::Linear;
                }
            }
            self.arrs[a].shadow = sh;
            self.arrs[a].has_shadow = true;
        }
    }

    /// Creation of an array: new (+ shadow) (+ alloc unless a pointer array) + layout.
    pub(super) fn create_array(&mut self, a: usize, p: &Pragma, ind: &str) -> String {
        let loc = self.loc(p);
        let ar = self.arrs[a].clone();
        let t = self.tname(ar.templ);
        let elem = format!("sizeof(*{})", ar.storage);
        let mut out = String::new();
        let decl = if ar.global { String::new() } else { "xmpc_array *".to_string() };
        let _ = writeln!(
            out,
            "{ind}{decl}{} = xmpc_array_new({loc}, {t}, {}, {elem}, (const long[]){{{}}}, (const int[]){{{}}}, (const long[]){{{}}});",
            ar.desc,
            ar.ndims,
            ar.extents.join(", "),
            ar.align_dim.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "),
            ar.align_off.join(", ")
        );
        if ar.has_shadow {
            let lo: Vec<&str> = ar.shadow.iter().map(|s| s.0.as_str()).collect();
            let hi: Vec<&str> = ar.shadow.iter().map(|s| s.1.as_str()).collect();
            let full: Vec<&str> = ar.shadow.iter().map(|s| if s.2 { "1" } else { "0" }).collect();
            let _ = writeln!(
                out,
                "{ind}xmpc_array_shadow({loc}, {}, (const long[]){{{}}}, (const long[]){{{}}}, (const int[]){{{}}});",
                ar.desc,
                lo.join(", "),
                hi.join(", "),
                full.join(", ")
            );
        }
        if ar.param {
            out.push_str(&param::view(&ar, &loc, ind));
        } else if !ar.pointer {
            let _ = writeln!(out, "{ind}{} = xmpc_array_alloc({loc}, {});", ar.storage, ar.desc);
        }
        if ar.global || ar.pointer || ar.deferred {
            out.push_str(&self.layout_load(a, ind, &format!("_XMP_G_{}_", ar.lay), None));
        }
        out
    }

    /// Reads the layout of array `a` into variables `{prefix}off0`...; `only` limits
    /// it to the variables a function uses (local arrays declare them `const long`).
    pub(super) fn layout_load(&self, a: usize, ind: &str, prefix: &str, only: Option<&BTreeSet<String>>) -> String {
        let ar = &self.arrs[a];
        let n = ar.ndims;
        let mut out = String::new();
        let dv = format!("_XMP_{}_dim", ar.lay);
        let want = |v: &str| only.is_none_or(|s| s.contains(v));
        let decl = if only.is_some() { "const long " } else { "" };
        let mut body = String::new();
        for d in 0..n {
            let v = format!("off{d}");
            if want(&v) {
                let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {dv}[{d}].offset;");
            }
            if d + 1 < n {
                let v = format!("str{d}");
                if want(&v) {
                    let prod: Vec<String> = (d + 1..n).map(|k| format!("{dv}[{k}].alloc")).collect();
                    let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {};", prod.join(" * "));
                }
            }
            match ar.fmts[d] {
                Fmt::Linear => {}
                Fmt::Cyclic => {
                    let v = format!("np{d}");
                    if want(&v) {
                        let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {dv}[{d}].procs;");
                    }
                }
                Fmt::General => {
                    for (v, e) in [(format!("w{d}"), format!("{dv}[{d}].width")), (format!("wp{d}"), format!("{dv}[{d}].width * {dv}[{d}].procs"))] {
                        if want(&v) {
                            let _ = writeln!(body, "{ind}{decl}{prefix}{v} = {e};");
                        }
                    }
                }
            }
        }
        if body.is_empty() {
            return out;
        }
        if only.is_none() {
            let _ = writeln!(out, "{ind}{{");
            let _ = writeln!(out, "{ind}    xmpc_dim {dv}[{n}];");
            for d in 0..n {
                let _ = writeln!(out, "{ind}    xmpc_array_dim({}, {d}, &{dv}[{d}]);", ar.desc);
            }
            for l in body.lines() {
                let _ = writeln!(out, "    {l}");
            }
            let _ = writeln!(out, "{ind}}}");
        } else {
            let _ = writeln!(out, "{ind}xmpc_dim {dv}[{n}];");
            for d in 0..n {
                let _ = writeln!(out, "{ind}xmpc_array_dim({}, {d}, &{dv}[{d}]);", ar.desc);
            }
            out.push_str(&body);
        }
        out
    }

    /// True when a text names no C variable in scope (literals, macros, enumerators):
    /// a value fixed when the program is compiled.
    pub(super) fn const_text(&self, t: &str) -> bool {
        words(t).iter().all(|(_, w)| self.lookup_var(w).is_none())
    }

    /// An array dim that is not distributed (aligned with `*`, or with a template dim
    /// distributed `*`) and whose extent and shadow widths are compile-time constants:
    /// its layout is then known to the translator (the runtime's DUP layout: offset
    /// `-shadow_lo`, alloc `extent + shadow_lo + shadow_hi`). Returns (shadow_lo, alloc).
    pub(super) fn static_dim(&self, a: usize, d: usize) -> Option<(String, String)> {
        let ar = &self.arrs[a];
        if ar.pointer || ar.deferred || ar.late || ar.fmts[d] != Fmt::Linear {
            return None;
        }
        let (lo, hi, full) = &ar.shadow[d];
        if *full {
            return None;
        }
        let k = ar.align_dim[d];
        if k >= 0 {
            let dup = self.tdists(ar.templ).as_ref().and_then(|v| v.get(k as usize)).is_some_and(|x| x.0 == DistFormat::Dup);
            if !dup {
                return None;
            }
        }
        let ext = ar.extents.get(d)?;
        if ext.is_empty() || ![ext, lo, hi].iter().all(|t| self.const_text(t)) {
            return None;
        }
        // A macro may expand to `N + 1`: parenthesise everything but a literal.
        let lit = |t: &str| if t.trim().bytes().all(|b| b.is_ascii_digit()) { t.trim().to_string() } else { format!("({})", t.trim()) };
        let alloc = if lo == "0" && hi == "0" { lit(ext) } else { format!("({} + {} + {})", lit(ext), lit(lo), lit(hi)) };
        let lo = if lo == "0" { lo.clone() } else { lit(lo) };
        Some((lo, alloc))
    }

    /// The array whose layout variables `a` uses: the first file-scope array with the
    /// same mapping (template, alignment, extents, shadows), so arrays distributed
    /// alike share one set of offsets/strides (fewer live values in a loop nest).
    pub(super) fn layout_rep(&self, a: usize) -> usize {
        let ar = &self.arrs[a];
        if !ar.global || ar.pointer || ar.deferred || ar.late {
            return a;
        }
        let same = |b: &ArrInfo| {
            b.global
                && !b.pointer
                && !b.deferred
                && !b.late
                && b.templ == ar.templ
                && b.ndims == ar.ndims
                && b.fmts == ar.fmts
                && b.align_dim == ar.align_dim
                && b.align_off == ar.align_off
                && b.extents == ar.extents
                && b.shadow == ar.shadow
        };
        (0..a).find(|&b| same(&self.arrs[b])).unwrap_or(a)
    }

    /// A local access `storage[linear]` for global index texts `idx`.
    pub(super) fn access(&mut self, a: usize, idx: &[String]) -> String {
        let ar = self.arrs[a].clone();
        let direct = ar.pointer || ar.deferred || ar.late;
        let rep = self.layout_rep(a);
        let lay = self.arrs[rep].lay.clone();
        let stat: Vec<Option<(String, String)>> = (0..ar.ndims).map(|d| self.static_dim(a, d)).collect();
        if rep != a || stat.iter().any(Option::is_some) {
            // The text now depends on the shadows known here.
            self.arrs[a].used = true;
            self.arrs[rep].used = true;
        }
        let mut used = vec![];
        let mut var = |v: String| -> String {
            used.push(v.clone());
            if direct {
                format!("_XMP_G_{lay}_{v}")
            } else {
                format!("_XMP_{lay}_{v}")
            }
        };
        let mut terms = vec![];
        for (d, g) in idx.iter().enumerate() {
            let g = paren(g);
            let l = match (&stat[d], ar.fmts[d]) {
                (Some((slo, _)), _) if slo == "0" => g.clone(),
                (Some((slo, _)), _) => format!("{g} + {slo}"),
                (None, Fmt::Linear) => format!("{g} - {}", var(format!("off{d}"))),
                (None, Fmt::Cyclic) => {
                    let off = var(format!("off{d}"));
                    format!("({g} - {off}) / {}", var(format!("np{d}")))
                }
                (None, Fmt::General) => {
                    let off = var(format!("off{d}"));
                    let w = var(format!("w{d}"));
                    let wp = var(format!("wp{d}"));
                    format!("({g} - {off}) / {wp} * {w} + ({g} - {off}) % {w}")
                }
            };
            if d + 1 < ar.ndims {
                // The stride is a constant when every later dim's layout is.
                let str_d = match stat[d + 1..].iter().map(|s| s.as_ref().map(|x| x.1.clone())).collect::<Option<Vec<String>>>() {
                    // `long`: the index of a large array may not fit an int.
                    Some(allocs) => format!("(long){}", allocs.join(" * ")),
                    None => var(format!("str{d}")),
                };
                terms.push(format!("({l}) * {str_d}"));
            } else {
                terms.push(l);
            }
        }
        if !direct {
            if let Some(f) = &mut self.fctx {
                let set = f.used.entry(rep).or_default();
                set.extend(used);
            }
        }
        format!("{}[{}]", ar.storage, terms.join(" + "))
    }
}

/// Template shape → (bounds when fixed, lower texts, upper texts).
#[allow(clippy::type_complexity)]
pub(super) fn shape_bounds(shape: &TemplateShape) -> (Option<Vec<(String, String)>>, Vec<String>, Vec<String>) {
    let mut b = vec![];
    let mut lo = vec![];
    let mut hi = vec![];
    let mut fixed = true;
    for d in &shape.dims {
        match &d.bounds {
            Some((l, u)) => {
                let (l, u) = (c_expr(l), c_expr(u));
                lo.push(l.clone());
                hi.push(u.clone());
                b.push((l, u));
            }
            None => {
                fixed = false;
                lo.push("0".into());
                hi.push("-1".into());
            }
        }
    }
    (fixed.then_some(b), lo, hi)
}

pub(super) fn plus_str(a: &str, off: &str, minus: bool) -> String {
    if off == "0" {
        return a.to_string();
    }
    format!("{} {} {}", paren(a), if minus { "-" } else { "+" }, paren(off))
}

/// `i`, `i + c`, `i - c`, `c + i` → the offset text.
pub(super) fn index_offset(e: &Expr, var: &str) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) if n == var => Some("0".into()),
        ExprKind::Binary(xmpc_ir::BinOp::Add, a, b) => {
            if a.ident() == Some(var) {
                Some(c_expr(b))
            } else if b.ident() == Some(var) {
                Some(c_expr(a))
            } else {
                None
            }
        }
        ExprKind::Binary(xmpc_ir::BinOp::Sub, a, b) if a.ident() == Some(var) => Some(format!("-{}", paren(&c_expr(b)))),
        _ => None,
    }
}

/// End of a declarator's array part: `a[N][M]` from the name's end.
pub(super) fn declarator_end(src: &str, mut i: usize) -> usize {
    let b = src.as_bytes();
    loop {
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < b.len() && b[j] == b'[' {
            let mut depth = 0;
            while j < b.len() {
                if b[j] == b'[' {
                    depth += 1;
                } else if b[j] == b']' {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            if j >= b.len() {
                // an unclosed `[` (the C parser recovered around it): the declarator
                // ends at the name, never past the end of the file
                return i;
            }
            i = j + 1;
        } else {
            return i;
        }
    }
}
