//! XcalableACC in C (`docs/xacc.md`): OpenACC directives whose data clauses name
//! aligned arrays, the `acc` forms of the XMP communication directives, and the
//! persistent halo directives `reflect_init` / `reflect_do`.
//!
//! - A data clause naming an aligned array `a` gets its local block with shadows,
//!   `_XMP_ADDR_a[0:_XMP_acc_elems(_XMP_DESC_a, rank)]` (as Omni's `_ACC_size_a`).
//! - `reflect (a) acc`, `reflect_do (a) acc`, `reduction (op: v) acc`, `bcast (v) acc`,
//!   `gmove acc`, `reduce_shadow (a) acc` run the host lowering between
//!   `acc update self(..) if_present` and `acc update device(..) if_present` of what
//!   they read and write. Under `gcc -fopenacc` without offload the device data are
//!   the host storage and both updates do nothing; with offload (`--acc=nvptx`) they
//!   stage the data through the host, since the system MPI is not CUDA-aware.
//! - `reflect_init` records the widths in the runtime (`xmpc_reflect_init`) and
//!   `reflect_do` runs them (`xmpc_reflect_do`), host and `acc` forms alike.

use super::*;

/// Element count of an array's local block with shadows, for OpenACC array sections.
const ACC_ELEMS: &str = "static inline long _XMP_acc_elems(const xmpc_array *a, int nd)\n{\n    long n = 1;\n    for (int d = 0; d < nd; d++) {\n        xmpc_dim x;\n        xmpc_array_dim(a, d, &x);\n        n *= x.alloc;\n    }\n    return n;\n}";

/// OpenACC clauses whose operands are variables or array sections (data movement,
/// presence, privatisation, `host_data use_device`, `update self/host/device`).
const DATA_CLAUSES: &[&str] = &[
    "copy",
    "copyin",
    "copyout",
    "create",
    "no_create",
    "present",
    "delete",
    "attach",
    "detach",
    "pcopy",
    "pcopyin",
    "pcopyout",
    "pcreate",
    "present_or_copy",
    "present_or_copyin",
    "present_or_copyout",
    "present_or_create",
    "self",
    "host",
    "device",
    "use_device",
    "deviceptr",
    "device_resident",
    "link",
    "private",
    "firstprivate",
    "cache",
];

/// Clauses that need the data itself (an aligned array's local block); the others
/// (`private`, `firstprivate`, `deviceptr`, ...) cannot take a distributed array.
const BLOCK_CLAUSES: &[&str] = &[
    "copy",
    "copyin",
    "copyout",
    "create",
    "no_create",
    "present",
    "delete",
    "pcopy",
    "pcopyin",
    "pcopyout",
    "pcreate",
    "present_or_copy",
    "present_or_copyin",
    "present_or_copyout",
    "present_or_create",
    "self",
    "host",
    "device",
    "use_device",
];

impl<'a> Tr<'a> {
    /// The local block of aligned array `a` as an OpenACC array section: `_XMP_ADDR_a[0:n]`,
    /// and for a pointer array (`int (*p)[M]` from `xmp_malloc`, or a parameter
    /// `double b[N][M]`) `p[0:1][0:n]`: the node's block is flat, shorter rows than the
    /// declared ones, and the clause must name the pointer variable itself.
    fn acc_block(&mut self, a: usize) -> String {
        let ar = &self.arrs[a];
        let elems = format!("_XMP_acc_elems({}, {})", ar.desc, ar.ndims);
        let text = if ar.pointer { format!("{}{}[0:{elems}]", ar.name, "[0:1]".repeat(ar.ndims - 1)) } else { format!("{}[0:{elems}]", ar.storage) };
        if !self.statics.iter().any(|s| s.starts_with("static inline long _XMP_acc_elems")) {
            self.statics.push(ACC_ELEMS.to_string());
        }
        text
    }

    /// An OpenACC directive: its clauses naming aligned arrays rewritten (the text is
    /// kept as written when nothing changes).
    pub(super) fn acc_directive(&mut self, p: &Pragma) {
        let DirectiveKind::Acc { text, .. } = &p.dir.kind else { return };
        let src = &self.src[p.dir.span.range()];
        // the text's offset in the source, for located diagnostics
        let base = p.dir.span.start + src.find(text.as_str()).unwrap_or(0);
        let Some(new) = self.acc_rewrite(text, base) else { return };
        if new != *text {
            self.edit(p.dir.span, format!("#pragma acc {new}"));
        }
    }

    /// `text` with every aligned array in a data clause replaced by its local block;
    /// `None` after a diagnostic.
    fn acc_rewrite(&mut self, text: &str, base: usize) -> Option<String> {
        let b = text.as_bytes();
        let mut out = String::new();
        let mut i = 0;
        let mut ok = true;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_alphabetic() || c == b'_' {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &text[s..i];
                out.push_str(word);
                let mut j = i;
                while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                    j += 1;
                }
                if j < b.len() && b[j] == b'(' && DATA_CLAUSES.contains(&word.to_ascii_lowercase().as_str()) {
                    let Some(close) = matching_paren(b, j) else { break };
                    out.push_str(&text[i..j + 1]);
                    match self.acc_list(&word.to_ascii_lowercase(), &text[j + 1..close], base + j + 1) {
                        Some(l) => out.push_str(&l),
                        None => ok = false,
                    }
                    out.push(')');
                    i = close + 1;
                } else if j < b.len() && b[j] == b'(' {
                    // any other clause: copied as written
                    let Some(close) = matching_paren(b, j) else { break };
                    out.push_str(&text[i..close + 1]);
                    i = close + 1;
                }
                continue;
            }
            out.push(c as char);
            i += 1;
        }
        if i < b.len() {
            out.push_str(&text[i..]);
        }
        ok.then_some(out)
    }

    /// One clause's list: each item naming an aligned array becomes its local block.
    fn acc_list(&mut self, clause: &str, list: &str, base: usize) -> Option<String> {
        let mut items = vec![];
        let mut ok = true;
        let (mut depth, mut start) = (0i32, 0usize);
        let lb = list.as_bytes();
        let mut cuts = vec![];
        for (k, &c) in lb.iter().enumerate() {
            match c {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b',' if depth == 0 => {
                    cuts.push((start, k));
                    start = k + 1;
                }
                _ => {}
            }
        }
        cuts.push((start, lb.len()));
        for (s, e) in cuts {
            let raw = &list[s..e];
            // `copyin(readonly: a)`: the modifier stays
            let (modifier, item) = match raw.find(':') {
                Some(k) if !raw[..k].contains('[') && raw[..k].trim().chars().all(|c| c.is_ascii_alphabetic()) => (&raw[..k + 1], &raw[k + 1..]),
                _ => ("", raw),
            };
            let name_end = item.trim_start().find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(item.trim_start().len());
            let lead = item.len() - item.trim_start().len();
            let name = &item.trim_start()[..name_end];
            let rest = item.trim_start()[name_end..].trim();
            let span = Span::new(base + s + modifier.len() + lead, base + s + modifier.len() + lead + name.len().max(1));
            match self.dist(name) {
                Some(_) if !rest.is_empty() => {
                    self.error(
                        "XMP0304",
                        format!("a section of the aligned array `{name}` in an OpenACC `{clause}` clause is not translated"),
                        span,
                        "array section",
                        Some(format!("name the whole array: `{clause}({name})` moves the node's block with its shadows")),
                    );
                    ok = false;
                    items.push(raw.to_string());
                }
                Some(_) if !BLOCK_CLAUSES.contains(&clause) => {
                    self.error(
                        "XMP0304",
                        format!("the aligned array `{name}` in an OpenACC `{clause}` clause is not supported"),
                        span,
                        "distributed array",
                        Some("distributed arrays may appear in data clauses (copy, create, present, update, use_device ...)".into()),
                    );
                    ok = false;
                    items.push(raw.to_string());
                }
                // `host_data use_device` takes the pointer variable: inside, the local
                // storage names the device copy of the block
                Some(a) if clause == "use_device" && !self.arrs[a].pointer => items.push(format!("{}{}", &item[..lead], self.arrs[a].storage)),
                // a pointer array's variable is that pointer already
                Some(a) if clause == "use_device" => items.push(format!("{}{}", &item[..lead], self.arrs[a].name)),
                Some(a) => items.push(format!("{modifier}{}{}", &item[..lead], self.acc_block(a))),
                None => items.push(raw.to_string()),
            }
        }
        ok.then(|| items.join(","))
    }

    /// OpenACC directives among the headers of a work-shared nest (`loop (i, j)` with
    /// `#pragma acc loop` between the loops): rewritten here, as the nest's own
    /// statements are not visited. `levels` are the nest's `for` statements; the walk
    /// stops at the innermost one (its body is translated as usual).
    pub(super) fn acc_in_nest(&mut self, s: &'a Stmt, levels: &[&'a Stmt]) {
        match &s.kind {
            StmtKind::Pragma(q) if matches!(q.dir.kind, DirectiveKind::Acc { .. }) => {
                self.acc_directive(q);
                if let Some(b) = q.body.as_deref() {
                    self.acc_in_nest(b, levels);
                }
            }
            StmtKind::For { body, .. } => {
                if let Some(k) = levels.iter().position(|l| std::ptr::eq(*l, s)) {
                    if k + 1 < levels.len() {
                        self.acc_in_nest(body, levels);
                    }
                }
            }
            StmtKind::Compound(v) => {
                for x in v {
                    self.acc_in_nest(x, levels);
                }
            }
            _ => {}
        }
    }

    /// An XMP directive with the `acc` clause: the host lowering between the updates
    /// of the data it reads (to the host) and writes (to the device).
    pub(super) fn acc_comm(&mut self, p: &'a Pragma, acc: Span) {
        let ind = self.indent_at(p.dir.span.start);
        let mut reads: Vec<String> = vec![];
        let mut writes: Vec<String> = vec![];
        match &p.dir.kind {
            DirectiveKind::Reflect { vars, .. } | DirectiveKind::ReflectDo { vars, .. } | DirectiveKind::ReduceShadow { vars, .. } => {
                for v in vars {
                    // not an aligned array: diagnosed by the host lowering
                    if let Some(a) = self.dist(&v.name) {
                        let b = self.acc_block(a);
                        reads.push(b.clone());
                        writes.push(b);
                    }
                }
            }
            DirectiveKind::ReflectInit { .. } | DirectiveKind::Barrier { .. } => {}
            DirectiveKind::Reduction { reductions, .. } => {
                for r in reductions {
                    for v in &r.vars {
                        let mut names = vec![v.name.name.clone()];
                        names.extend(v.locs.iter().map(|l| l.name.clone()));
                        for n in names {
                            if self.dist(&n).is_some() {
                                continue; // refused by the host lowering
                            }
                            reads.push(n.clone());
                            writes.push(n);
                        }
                    }
                }
            }
            DirectiveKind::Bcast { vars, .. } => {
                for v in vars {
                    if self.dist(&v.name.name).is_none() {
                        reads.push(v.name.name.clone());
                        writes.push(v.name.name.clone());
                    }
                }
            }
            DirectiveKind::Gmove { .. } => {
                if let Some(StmtKind::Expr(Expr { kind: ExprKind::Assign(None, lhs, rhs), .. })) = p.body.as_deref().map(|b| &b.kind) {
                    let mut names: Vec<(String, bool)> = vec![];
                    for (side, is_lhs) in [(lhs, true), (rhs, false)] {
                        side.walk(&mut |x| {
                            if let ExprKind::Ident(n) = &x.kind {
                                names.push((n.clone(), is_lhs));
                            }
                        });
                    }
                    for (n, is_lhs) in names {
                        let Some(a) = self.dist(&n) else {
                            // a plain array of the section: staged whole when present
                            if matches!(self.lookup_var(&n), Some(Var::Plain(_))) && !reads.contains(&n) {
                                reads.push(n.clone());
                                if is_lhs {
                                    writes.push(n);
                                }
                            }
                            continue;
                        };
                        let b = self.acc_block(a);
                        if !reads.contains(&b) {
                            reads.push(b.clone());
                        }
                        if is_lhs && !writes.contains(&b) {
                            writes.push(b);
                        }
                    }
                }
            }
            _ => {
                self.error(
                    "XMP0304",
                    format!("`{}` with the `acc` clause is not translated", p.dir.name()),
                    acc,
                    "device memory",
                    Some("XcalableACC's `acc` is translated on reflect, reflect_init, reflect_do, reduce_shadow, reduction, bcast, barrier and gmove".into()),
                );
                return;
            }
        }
        let n = self.edits.len();
        let ndiag = self.diags.len();
        self.acc_inner = true;
        self.pragma(p);
        self.acc_inner = false;
        if self.diags.len() > ndiag {
            return;
        }
        let comment = self.dir_comment(p);
        let pre = if reads.is_empty() { String::new() } else { format!("\n{ind}#pragma acc update self({}) if_present", reads.join(", ")) };
        let post = if writes.is_empty() { String::new() } else { format!("\n{ind}#pragma acc update device({}) if_present", writes.join(", ")) };
        // one compound statement: the directive may be the body of an `if`, a `for` or
        // an `acc data` construct, and `acc update` must be inside a compound statement
        if pre.is_empty() && post.is_empty() {
            return;
        }
        if let Some(e) = self.edits[n..].iter_mut().find(|e| e.span == p.dir.span) {
            let rest = e.text.strip_prefix(comment.as_str()).unwrap_or(&e.text).to_string();
            let inner = format!("{pre}{rest}{post}").replace('\n', "\n    ");
            e.text = format!("{comment}\n{ind}{{{inner}\n{ind}}}");
        }
    }

    /// `reflect_init (a, ...) [width(...)]`: the widths recorded in the runtime.
    pub(super) fn reflect_init(&mut self, p: &Pragma, vars: &[Name], widths: Option<&[Width]>) {
        let comment = self.dir_comment(p);
        let ind = self.indent_at(p.dir.span.start);
        let loc = self.loc(p);
        let mut code = comment;
        for v in vars {
            let Some(a) = self.dist(&v.name) else {
                self.error("XMP0109", format!("`{}` is not aligned with a template", v.name), v.span, "not a distributed array", None);
                continue;
            };
            let desc = self.arrs[a].desc.clone();
            match widths {
                None => {
                    let _ = write!(code, "\n{ind}xmpc_reflect_init({loc}, {desc}, NULL, NULL, NULL);");
                }
                Some(ws) => {
                    let nd = self.arrs[a].ndims;
                    if ws.len() != nd {
                        self.error(
                            "XMP0303",
                            format!("`reflect_init` gives {} width(s) for `{}` of rank {nd}", ws.len(), v.name),
                            p.dir.span,
                            "one width per dimension",
                            None,
                        );
                        continue;
                    }
                    let (lo, hi, per) = super::comm::widths_c(ws, nd);
                    let _ = write!(
                        code,
                        "\n{ind}{{\n{ind}    const long _XMP_width_lo[] = {{{lo}}}, _XMP_width_hi[] = {{{hi}}};\n{ind}    const int _XMP_periodic[] = {{{per}}};\n{ind}    xmpc_reflect_init({loc}, {desc}, _XMP_width_lo, _XMP_width_hi, _XMP_periodic);\n{ind}}}"
                    );
                }
            }
        }
        self.edit(p.dir.span, code);
    }

    /// `reflect_do (a, ...) [async(id)]`: the exchange `reflect_init` set up.
    pub(super) fn reflect_do(&mut self, p: &Pragma, vars: &[Name], trailers: &xmpc_ir::directive::Trailers) {
        let comment = self.dir_comment(p);
        let ind = self.indent_at(p.dir.span.start);
        let loc = self.loc(p);
        let asy = trailers.async_id.as_ref().map_or("-1".into(), c_expr);
        let mut code = comment;
        for v in vars {
            let Some(a) = self.dist(&v.name) else {
                self.error("XMP0109", format!("`{}` is not aligned with a template", v.name), v.span, "not a distributed array", None);
                continue;
            };
            let desc = self.arrs[a].desc.clone();
            let _ = write!(code, "\n{ind}xmpc_reflect_do({loc}, {desc}, {asy});");
        }
        self.edit(p.dir.span, code);
    }
}

/// The `)` matching the `(` at `open`.
fn matching_paren(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}
