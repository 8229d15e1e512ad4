//! Statements and the dispatch of executable directives to their families.

use super::*;

impl<'a> Tr<'a> {
    pub(super) fn stmts(&mut self, body: &[Stmt], u: &mut Unit) {
        for s in body {
            self.stmt(s, u);
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt, u: &mut Unit) {
        if self.task_depth > 0 {
            self.no_coarrays_in_task(s);
        }
        if matches!(s.kind, StmtKind::Verbatim) {
            // constructs the IR keeps as text (select case, block, associate, where...):
            // a directive inside would be silently dropped
            self.no_directives_in(
                s.span,
                "XMP directive inside a construct the Fortran translator does not model (select case, block, associate, where, ...)",
                "move it out of the construct, or use if/do",
            );
        }
        if !u.pending.is_empty()
            && !matches!(s.kind, StmtKind::Pragma(_) | StmtKind::Compound(_) | StmtKind::If { .. } | StmtKind::Do { .. } | StmtKind::While { .. })
        {
            let low = lc(self.text(s.span));
            if let Some(k) = find_word(&low, "allocate", 0).or_else(|| find_word(&low, "deallocate", 0)) {
                let dealloc = low[k..].starts_with("deallocate");
                self.allocate(s, k, dealloc, u);
                return;
            }
        }
        match &s.kind {
            StmtKind::Pragma(p) => self.pragma(p, u),
            StmtKind::Compound(v) => self.stmts(v, u),
            StmtKind::If { then, els, .. } => {
                self.stmt(then, u);
                if let Some(e) = els {
                    self.stmt(e, u);
                }
            }
            StmtKind::Do { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => self.stmt(body, u),
            StmtKind::Stop(code) => {
                // the message of `stop 'text'` may hold the words `error` and `stop`
                let low = lex::mask_strings(&lc(self.text(s.span)));
                let k = find_word(&low, "error", 0).filter(|&e| find_word(&low, "stop", e).is_some()).or_else(|| find_word(&low, "stop", 0));
                let Some(k) = k else { return };
                let is_error = low[k..].starts_with("error");
                let code = match code {
                    Some(e) if !matches!(e.kind, ExprKind::Str(_) | ExprKind::Char(_)) => self.ex(e),
                    _ if is_error => "1".into(),
                    _ => "0".into(),
                };
                let end = s.span.start + self.text(s.span).trim_end().len();
                self.edits.push(Edit { span: Span::new(s.span.start + k, end), text: format!("call xmpf_stop({code})") });
            }
            // it would skip xmpf_task_end, and the collective frees of the procedure's
            // arrays would wait for the nodes outside the task
            StmtKind::Return(_) if self.task_depth > 0 => self.err(
                "XMP0307",
                s.span,
                "`return` out of a `task` body leaves the task without ending it",
                "set a flag in the task and return after `end task`",
            ),
            StmtKind::Return(_) if !u.frees.is_empty() => self.ret(s, u),
            StmtKind::Assign(lhs, _) if !u.pointers.is_empty() => {
                let ExprKind::Ident(n) = &lhs.kind else { return };
                let Some(call) = u.pointers.get(&lc(n)) else { return };
                if self.text(s.span).contains("=>") {
                    let end = self.stmt_end(s.span.start);
                    self.edits.push(Edit { span: Span::new(end, end), text: format!("\n{IND}{call}") });
                }
            }
            StmtKind::Call { name, args } if lc(name) == "exit" => {
                let low = lex::mask_strings(&lc(self.text(s.span)));
                if let Some(k) = find_word(&low, "exit", 0) {
                    let at = s.span.start + k;
                    if args.is_empty() {
                        let end = s.span.start + self.text(s.span).trim_end().len();
                        self.edits.push(Edit { span: Span::new(at, end), text: "xmpf_exit(0)".into() });
                    } else {
                        self.edits.push(Edit { span: Span::new(at, at + 4), text: "xmpf_exit".into() });
                    }
                }
            }
            _ => {}
        }
    }

    /// `return` of a procedure with descriptors to free: the frees before it; a
    /// one-line `if (c) return` becomes an if block.
    pub(super) fn ret(&mut self, s: &Stmt, u: &Unit) {
        let ls = self.line_start(s.span.start);
        let end = self.stmt_end(s.span.start);
        let low = lc(&self.src[ls..end]);
        let Some(k) = find_word(&low, "return", s.span.start - ls) else { return };
        let at = ls + k;
        let before = low[..k].trim();
        let calls: String = u.frees.iter().map(|l| format!("{l}\n{IND}")).collect();
        if before.is_empty() || before.bytes().all(|b| b.is_ascii_digit()) {
            self.edits.push(Edit { span: Span::new(at, at), text: calls });
        } else {
            self.edits.push(Edit { span: Span::new(at, at), text: format!("then\n{IND}{calls}") });
            self.edits.push(Edit { span: Span::new(end, end), text: format!("\n{IND}end if") });
        }
    }

    /// Errors for XMP directive lines inside text the IR does not model.
    pub(super) fn no_directives_in(&mut self, span: Span, msg: &str, label: &str) {
        let mut off = span.start;
        for line in self.text(span).split_inclusive('\n') {
            let t = lc(line.trim_start());
            let fixed_sentinel = self.fixed && (t.starts_with("c$xmp") || t.starts_with("*$xmp"));
            if t.starts_with("!$xmp") || fixed_sentinel {
                let at = off + (line.len() - line.trim_start().len());
                let end = off + line.trim_end().len();
                self.err("XMP0409", Span::new(at, end), msg, label);
            }
            off += line.len();
        }
    }

    /// Inserts `text` (lines) on their own lines before the line holding `off`.
    pub(super) fn before_line(&mut self, off: usize, lines: &[String]) {
        let at = self.line_start(off);
        let text: String = lines.iter().map(|l| format!("{IND}{l}\n")).collect();
        self.edits.push(Edit { span: Span::new(at, at), text });
    }

    /// Inserts lines after the directive (end of its last line).
    pub(super) fn after_dir(&mut self, p: &Pragma, lines: &[String]) {
        let at = self.after_dir_at(p);
        let text: String = lines.iter().map(|l| format!("\n{IND}{l}")).collect();
        self.edits.push(Edit { span: Span::new(at, at), text });
    }

    /// Where `after_dir` inserts: the end of the directive's last line.
    pub(super) fn after_dir_at(&self, p: &Pragma) -> usize {
        let e = self.stmt_end(p.dir.span.start);
        let at = if self.fixed { e } else { self.line_end_any(p.dir.span.end) };
        at.max(e)
    }

    pub(super) fn line_end_any(&self, off: usize) -> usize {
        self.src[off..].find('\n').map_or(self.src.len(), |p| off + p)
    }

    pub(super) fn pragma(&mut self, p: &Pragma, u: &mut Unit) {
        let d = &p.dir;
        if let Some(acc) = d.kind.trailers().and_then(|t| t.acc).filter(|_| !self.acc_inner) {
            self.acc_comm(p, u, acc); // XcalableACC (xacc.rs)
            return;
        }
        match &d.kind {
            DirectiveKind::Nodes { .. }
            | DirectiveKind::Template { .. }
            | DirectiveKind::Distribute { .. }
            | DirectiveKind::Align { .. }
            | DirectiveKind::Shadow { .. }
            | DirectiveKind::SaveDesc { .. }
            | DirectiveKind::LocalAlias { .. }
            | DirectiveKind::Coarray { .. } => {
                self.err("XMP0114", d.span, "declarative XMP directive after the first executable statement", "move it to the specification part");
            }
            DirectiveKind::Tasks { .. } | DirectiveKind::End(_) => {}
            DirectiveKind::Loop(l) => self.dir_loop(p, u, l),
            DirectiveKind::Reduction { reductions, on, trailers } => self.dir_reduction(p, u, reductions, on, trailers),
            DirectiveKind::Bcast { vars, from, on, .. } => self.dir_bcast(p, u, vars, from, on),
            DirectiveKind::Barrier { on, .. } => self.dir_barrier(p, u, on),
            DirectiveKind::WaitAsync { ids, on } => self.dir_wait_async(p, ids, on),
            DirectiveKind::Reflect { vars, widths, trailers } | DirectiveKind::ReduceShadow { vars, widths, trailers } => {
                self.dir_reflect(p, u, vars, widths, trailers)
            }
            DirectiveKind::Task { on, nocomm, .. } => self.dir_task(p, u, on, nocomm),
            DirectiveKind::Image { on } => self.dir_image(p, on), // coarray_dirs.rs
            DirectiveKind::TemplateFix { dists, name, shape } => self.dir_template_fix(p, dists, name, shape),
            DirectiveKind::Gmove { mode, .. } => {
                self.gmove(p, mode.as_ref(), u);
                return;
            }
            DirectiveKind::ReflectInit { .. } | DirectiveKind::ReflectDo { .. } => self.reflect_persistent(p, u),
            DirectiveKind::Array { on, .. } => {
                self.array_dir(p, on, u);
                return;
            }
            // OpenACC: the directive lines stay as they are (comments to a compiler
            // without -fopenacc); the statements under them are translated as usual
            DirectiveKind::Acc { .. } => {}
            other => {
                let _ = other;
                self.err("XMP0401", d.name_span, &format!("the `{}` directive is not supported yet in Fortran", d.name()), "not translated");
            }
        }
        // the statement under the directive (a loop nest, a task body, a gmove or
        // array assignment is printed by its directive)
        if let Some(b) = &p.body {
            if !matches!(d.kind, DirectiveKind::Loop(_) | DirectiveKind::Task { .. } | DirectiveKind::Gmove { .. } | DirectiveKind::Array { .. }) {
                self.stmt(b, u);
            }
        }
    }
}
