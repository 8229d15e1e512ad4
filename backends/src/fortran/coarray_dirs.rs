//! Omni's Fortran `coarray on p :: a, b` and `image(p)` directives (docs/local-view.md,
//! "Coarrays inside a `task`"; Omni's docs/STATUS-CAF.md 1.2). Both are xmpc libcaf
//! features (`runtime/lib/xmp/csrc/caf_lib.c`); with another libcaf they are refused
//! (XMP0450).
//! - `coarray on p :: a`: `call xmpf_coarray_on(a, h_p)` in the unit's setup binds the
//!   coarray (its registered memory, by address: `loc`, so that coarrays of any rank go
//!   to one external without an argument mismatch) to node set p: a coindex of `a` is then p's k-th
//!   node whatever task runs, and `this_image(a[, dim])` is rewritten to
//!   `xmpf_coarray_cosub_on`, this node's cosubscript in p (0 on a node outside p).
//! - `image(p)`: the next statement (`sync all`, `sync images`, a `co_*` collective call)
//!   runs between `xmpf_image_push(h_p)` and `xmpf_image_pop()`: its images are p's nodes.

use super::*;

/// The statements an `image` directive may precede (Omni: image control statements and
/// the collectives).
const IMAGE_STMTS: &[&str] = &["sync all", "sync images", "call co_sum", "call co_max", "call co_min", "call co_broadcast", "call co_reduce"];

impl Tr<'_> {
    /// The node set of a `coarray` or `image` directive, or an error.
    fn dir_nodes_handle(&mut self, d: &xmpc_ir::directive::Directive, on: &Ref) -> Option<String> {
        let n = self.m.name_nodes(&on.name)?; // not a node set: reported by the model
        if on.subs.is_some() {
            self.err("XMP0005", on.span, &format!("a node subset in the `{}` directive is not supported", d.name()), "name a node set");
            return None;
        }
        if !self.own_libcaf {
            self.err(
                "XMP0450",
                d.span,
                &format!("the `{}` directive needs xmpc's libcaf (the program is built for another libcaf, whose images are the whole program's)", d.name()),
                "not with XMPC_CAF=opencoarrays",
            );
            return None;
        }
        Some(self.nh(n))
    }

    /// `coarray on p :: a, b` in a specification part: the setup binds each coarray to
    /// p; returns the (lower-case) names bound.
    pub(super) fn coarray_dir(&mut self, p: &Pragma, on: &Ref, names: &[xmpc_ir::directive::Name], u: &mut Unit) -> Vec<String> {
        let Some(h) = self.dir_nodes_handle(&p.dir, on) else { return vec![] };
        let mark = self.caf_task_marker(p.dir.span.start);
        if !u.setup.contains(&mark) {
            u.setup.push(mark);
        }
        names
            .iter()
            .map(|n| {
                u.setup.push(format!("call xmpf_coarray_on(loc({}), {h})", n.name));
                lc(&n.name)
            })
            .collect()
    }

    /// `this_image(a)` and `this_image(a, dim)` of a coarray bound by `coarray on`, in the
    /// executable text `span`: this node's cosubscripts in the coarray's node set.
    pub(super) fn coarray_on_this_image(&mut self, span: Span, bound: &[String], u: &mut Unit) {
        if bound.is_empty() || span.end <= span.start {
            return;
        }
        let text = self.text(span);
        let mut new = vec![];
        let mut off = 0;
        for line in text.split_inclusive('\n') {
            let fixed_comment = self.fixed && line.starts_with(['c', 'C', '*', '!']);
            let code = if fixed_comment { "" } else { comment_start(line).map_or(line, |k| &line[..k]) };
            let code = lc(&lex::mask_strings(code));
            let code = code.as_str();
            let mut from = 0;
            while let Some(k) = find_word(code, "this_image", from) {
                from = k + "this_image".len();
                let Some((open, close, args)) = coarray_forms::split_args(&code[k..]) else {
                    // continued on the next line: refused rather than left in the task's numbering
                    let rest = code[from..].trim_start().strip_prefix('(').unwrap_or("").trim_start();
                    let first: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if bound.contains(&first) {
                        let at = span.start + off + k;
                        self.err(
                            "XMP0005",
                            Span::new(at, at + "this_image".len()),
                            "`this_image` of a coarray of a `coarray` directive continued over lines",
                            "write it on one line",
                        );
                    }
                    continue;
                };
                if code[k + "this_image".len()..k + open].trim() != "" {
                    continue;
                }
                let Some((None, first)) = args.first() else { continue };
                if !bound.contains(first) || args.len() > 2 || args.iter().skip(1).any(|a| a.0.as_deref().is_some_and(|k| k != "dim")) {
                    continue;
                }
                let at = span.start + off + k;
                let orig = &text[off + k..off + k + close];
                let Some((_, _, oargs)) = coarray_forms::split_args(orig) else { continue };
                let x = oargs[0].1.clone();
                let call = |dim: &str| format!("xmpf_coarray_cosub_on(loc({x}), {dim}, size(lcobound({x})), lcobound({x}), ucobound({x}))");
                let rep = match oargs.get(1) {
                    Some((_, dim)) => call(dim),
                    None => {
                        u.decls.insert("integer :: xmpf_cok".into());
                        format!("[({}, xmpf_cok = 1, size(lcobound({x})))]", call("xmpf_cok"))
                    }
                };
                new.push((Span::new(at, at + close), rep));
            }
            off += line.len();
        }
        if !new.is_empty() {
            u.decls.insert("integer, external :: xmpf_coarray_cosub_on".into());
        }
        for (s, text) in new {
            if self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, s)) {
                self.err("XMP0005", s, "`this_image` of a coarray of a `coarray` directive in a statement xmpc also rewrites", "not translated");
                continue;
            }
            self.edits.push(Edit { span: s, text });
        }
    }

    /// `image(p)` before a statement: its images are p's nodes.
    pub(super) fn dir_image(&mut self, p: &Pragma, on: &Ref) {
        let d = &p.dir;
        let Some(b) = &p.body else {
            self.err("XMP0005", d.span, "the `image` directive is not followed by a statement", "nothing to apply it to");
            return;
        };
        let low = lc(&lex::mask_strings(self.text(b.span)));
        let norm: String = low.split_whitespace().collect::<Vec<_>>().join(" ");
        let norm = norm.replace("sync all(", "sync all (").replace("sync images(", "sync images (");
        if !IMAGE_STMTS.iter().any(|w| norm.starts_with(w) && norm[w.len()..].starts_with([' ', '(']) || norm == *w) {
            self.err("XMP0005", b.span, "the `image` directive applies to a `sync all`, `sync images` or `co_*` collective call (Omni)", "not one of them");
            return;
        }
        let Some(h) = self.dir_nodes_handle(d, on) else { return };
        let mark = self.caf_task_marker(d.span.start);
        self.after_dir(p, &[mark, format!("call xmpf_image_push({h})")]);
        let end = self.stmt_end(b.span.start);
        self.edits.push(Edit { span: Span::new(end, end), text: format!("\n{IND}call xmpf_image_pop()") });
    }
}
