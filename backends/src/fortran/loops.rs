//! `loop`: the node's share of each work-shared `do` of the nest, from the model's
//! nest (`xmp_model::loops`): one `do` over the node's run (block, gblock, `*`), or a
//! chunk loop around an element loop (cyclic), schedule calls hoisted out of inner
//! loops where their bounds allow, OpenMP/OpenACC lines kept in place, and the
//! reductions of the directive after the nest.

use super::*;
use std::collections::BTreeMap;
use xmpc_ir::directive::LoopDir;
use xmpc_passes::xmp_model::loops::{Form, Level, LoopNest};

/// The state of one nest's printing.
struct NestCtx<'n, 'a> {
    nest: &'n LoopNest<'a>,
    th: String,
    tfmts: Vec<DistFormat>,
    loc: String,
    /// Levels printed, and the template dimensions widened by an option.
    done: usize,
    widened: BTreeSet<usize>,
    /// Insertions after loop ends, in order, by offset.
    inserts: BTreeMap<usize, String>,
    parent_label: Option<String>,
    /// Schedule calls of inner loops hoisted before the first one (see `hoistable`),
    /// and the index of that first edit.
    hoisted: Vec<String>,
    first_edit: Option<usize>,
    /// `!$omp parallel do` / `!$acc` lines between the directive and the outer `do`:
    /// the calls go before them (see `omp`), after the directive's line `dir_end`.
    dir_end: usize,
    omp_first: bool,
    /// `margin`: per widened level, the tests "in the owned range" and "in the widened
    /// range"; the innermost body runs where they differ.
    margin_owned: Vec<String>,
    margin_wide: Vec<String>,
    /// The outermost `do` of the nest (for `hoistable`).
    outer: Span,
}

impl<'a> Tr<'a> {
    pub(super) fn dir_loop(&mut self, p: &Pragma, u: &mut Unit, l: &LoopDir) {
        let d = &p.dir;
        let Some(body) = &p.body else { return };
        // the nest as the model resolved it (errors were reported there)
        let Some(nest) = self.m.loop_nest(p).cloned() else { return };
        let (th, _, tfmts) = self.templ_info(nest.templ);
        let loc = self.loc(d.span, "loop");
        if let Some(tag) = nest.plan.wait_tag {
            // peel_and_wait: wait for the transfer, then the whole loop
            self.before_line(d.span.start, &[format!("call xmpf_wait_async({loc}, {})", self.ex(tag))]);
        }
        let dir_end = self.line_end_any(d.span.end.max(1) - 1);
        let mut cx = NestCtx {
            nest: &nest,
            th,
            tfmts,
            loc,
            done: 0,
            widened: BTreeSet::new(),
            inserts: BTreeMap::new(),
            parent_label: None,
            hoisted: vec![],
            first_edit: None,
            dir_end,
            omp_first: false,
            margin_owned: vec![],
            margin_wide: vec![],
            outer: body.span,
        };
        // walk the nest
        let mut cur: Option<&Stmt> = Some(body);
        while let Some(st) = cur {
            let st = omp::nest_do(st);
            let StmtKind::Do { end_label, body: inner, .. } = &st.kind else {
                break;
            };
            if let Some(level) = nest.levels.iter().find(|lv| std::ptr::eq(lv.stmt, st)) {
                if self.loop_level(st, level, &mut cx, u).is_err() {
                    return;
                }
                let innermost = nest.levels.last().is_some_and(|l| std::ptr::eq(l.stmt, st));
                if innermost && !cx.margin_owned.is_empty() && self.margin_body(st, &cx).is_err() {
                    return;
                }
            }
            self.stmt_inner_nonloop(inner, u);
            cx.parent_label = end_label.clone();
            cur = Some(inner);
        }
        self.loop_finish(p, l, body, cx);
    }

    /// One work-shared `do` of the nest: its schedule call and new header.
    fn loop_level(&mut self, st: &Stmt, level: &Level, cx: &mut NestCtx, u: &mut Unit) -> Result<(), ()> {
        let StmtKind::Do { var, lower, upper, step, end_label, .. } = &st.kind else { return Ok(()) };
        let (th, loc) = (cx.th.clone(), cx.loc.clone());
        let vn = lc(&self.ex(var));
        let k = level.tdim;
        let c = if level.offset.is_zero() { "0".to_string() } else { self.ie(&level.offset) };
        let hs = st.span.start;
        let he = self.stmt_end(hs);
        let stp = step.as_ref().map_or("1".to_string(), |e| self.ex(e));
        let sv = format!("xmpf_s_{vn}");
        let cv = format!("xmpf_c_{vn}");
        let lab = end_label.as_ref().map_or(String::new(), |l| format!("{l} "));
        let vtxt = self.ex(var);
        // a labelled DO on a cyclic dimension takes the two-loop form (needed for
        // cyclic(w)) unless it shares its label with the loop around it (the chunk
        // loop may wrap loops ending on the same label, but not sit between two of them)
        let shared = end_label.is_some() && cx.parent_label == *end_label;
        // the template index is the loop variable plus c
        let (pc, mc) = match level.offset.lit() {
            Some(0) => (String::new(), String::new()),
            Some(v) if v > 0 => (format!(" + {v}"), format!(" - {v}")),
            Some(v) => (format!(" - {}", -v), format!(" + {}", -v)),
            None => (format!(" + ({c})"), format!(" - ({c})")),
        };
        let hoist = cx.first_edit.is_some() && self.hoistable(lower, upper, step.as_ref(), cx.outer);
        let fmt = cx.tfmts.get(k).copied();
        let bounds = format!("int({}, 8){pc}, int({}, 8){pc}, int({stp}, 8)", self.ex(lower), self.ex(upper));
        if level.keeps_bounds {
            // a `*` dimension: the DO as written, after the schedule's range check
            // (see `keeps_own_bounds`); declared as the two-loop form declares it (one
            // nest may keep a `do i`, another split one)
            u.decls.insert(format!("integer(8) :: {sv}(4), {cv}"));
            let call = format!("call xmpf_sched1({sv}, {loc}, {th}, {k}, {bounds})");
            self.place_level(call, String::new(), Span::new(hs, hs), hoist, &mut cx.first_edit, &mut cx.hoisted);
            cx.done += 1;
            return Ok(());
        }
        let cyclic_dim = fmt == Some(DistFormat::Cyclic);
        if cx.first_edit.is_none() {
            cx.omp_first = omp::sentinel_lines_between(self.src, cx.dir_end, hs);
        }
        // under `!$omp parallel do` the one-loop form too: the two-loop form would give
        // OpenMP a one-chunk loop
        let omp_here = cx.omp_first && cx.first_edit.is_none();
        // a step written negative (`do i = n, 1, -1`): the one-loop form, whose schedule
        // counts downwards (the two-loop form's chunks only count upwards)
        let down = level.down;
        // block/gblock/`*`: the node's share is one run with the loop's own step
        let known = level.form == Form::Run;
        if known || ((end_label.is_some() || omp_here || down) && (shared || !cyclic_dim || down)) {
            // one loop over the node's share (also a labelled DO, possibly sharing its
            // label with the loops around it)
            let sv = format!("xmpf_s1_{vn}");
            u.decls.insert(format!("integer(8) :: {sv}(3)"));
            // a literal step (not a variable) lets the compiler vectorise
            let ostep = if known && stp.trim().parse::<i64>().is_ok() { stp.trim().to_string() } else { format!("{sv}(3)") };
            let mut call = format!("call xmpf_sched1({sv}, {loc}, {th}, {k}, {bounds})");
            let margin = cx.nest.plan.kind == RangeKind::Margin && cx.nest.plan.widths.get(k).copied().flatten().is_some();
            if margin {
                // the owned range, kept for the margin test
                u.decls.insert(format!("integer(8) :: xmpf_mo_{vn}(2), xmpf_me_{vn}(2)"));
                call.push_str(&format!("\n{IND}xmpf_mo_{vn}(1:2) = {sv}(1:2)"));
            }
            if let Some(x) = self.expand_lines(&cx.nest.plan, k, &sv, &stp, lower, upper, &pc, fmt, false)? {
                cx.widened.insert(k);
                call.push_str(&x);
            }
            if margin {
                // run the union of the owned and the widened ranges; the innermost body
                // tests which points are in one and not the other
                call.push_str(&format!(
                    "\n{IND}xmpf_me_{vn}(1:2) = {sv}(1:2)\n{IND}if (xmpf_mo_{vn}(1) <= xmpf_mo_{vn}(2)) then\n{IND}  {sv}(1) = min({sv}(1), xmpf_mo_{vn}(1))\n{IND}  {sv}(2) = max({sv}(2), xmpf_mo_{vn}(2))\n{IND}end if"
                ));
                cx.margin_owned.push(format!("(xmpf_mo_{vn}(1){mc} <= {vtxt} .and. {vtxt} <= xmpf_mo_{vn}(2){mc})"));
                cx.margin_wide.push(format!("(xmpf_me_{vn}(1){mc} <= {vtxt} .and. {vtxt} <= xmpf_me_{vn}(2){mc})"));
            }
            let head = format!("do {lab}{vtxt} = {sv}(1){mc}, {sv}(2){mc}, {ostep}");
            self.place_level(call, head, Span::new(hs, he), hoist, &mut cx.first_edit, &mut cx.hoisted);
            cx.done += 1;
            return Ok(());
        }
        if level.form == Form::Chunks && cx.nest.plan.widths.get(k).copied().flatten().is_none() {
            // cyclic(w) (or a format known only at run time): possibly several chunk
            // sets (a start inside a block, a step not dividing nodes * w), as in C
            // (its own names: a unit may have nests of both forms over one variable)
            let (ss, ns, kv, cv) = (format!("xmpf_ss_{vn}"), format!("xmpf_ns_{vn}"), format!("xmpf_k_{vn}"), format!("xmpf_cm_{vn}"));
            u.decls.insert(format!("integer(8) :: {ss}(4, 8), {cv}"));
            u.decls.insert(format!("integer :: {ns}, {kv}"));
            let call = format!("call xmpf_sched_multi({ss}, {ns}, {loc}, {th}, {k}, {bounds})");
            let head = format!(
                "do {kv} = 1, {ns}\n{IND}do {cv} = {ss}(1, {kv}), {ss}(2, {kv}), {ss}(4, {kv})\n{IND}do {lab}{vtxt} = {cv}{mc}, min({cv} + {ss}(3, {kv}) - 1, {ss}(2, {kv})){mc}, {stp}"
            );
            self.place_level(call, head, Span::new(hs, he), hoist, &mut cx.first_edit, &mut cx.hoisted);
            let end = st.span.start + self.text(st.span).trim_end().len();
            cx.inserts.entry(end).or_default().push_str(&format!("\n{IND}end do\n{IND}end do"));
            cx.done += 1;
            return Ok(());
        }
        u.decls.insert(format!("integer(8) :: {sv}(4), {cv}"));
        let mut call = format!("call xmpf_sched({sv}, {loc}, {th}, {k}, {bounds})");
        if let Some(x) = self.expand_lines(&cx.nest.plan, k, &sv, &stp, lower, upper, &pc, fmt, true)? {
            cx.widened.insert(k);
            call.push_str(&x);
        }
        let head = format!("do {cv} = {sv}(1), {sv}(2), {sv}(4)\n{IND}do {lab}{vtxt} = {cv}{mc}, min({cv} + {sv}(3) - 1, {sv}(2)){mc}, {stp}");
        self.place_level(call, head, Span::new(hs, he), hoist, &mut cx.first_edit, &mut cx.hoisted);
        let end = st.span.start + self.text(st.span).trim_end().len();
        cx.inserts.entry(end).or_default().push_str(&format!("\n{IND}end do"));
        cx.done += 1;
        Ok(())
    }

    /// `margin`: the innermost loop's body runs only at the points in the owned box or
    /// the widened one but not both (`if (...) then` after its header, `end if` before
    /// its `end do`).
    fn margin_body(&mut self, st: &Stmt, cx: &NestCtx) -> Result<(), ()> {
        let StmtKind::Do { end_label, .. } = &st.kind else { return Ok(()) };
        let text = self.text(st.span);
        let last_ls = text.trim_end().rfind('\n').map_or(st.span.start, |k| st.span.start + k + 1);
        let last = lc(self.text(Span::new(last_ls, st.span.end)).trim());
        if end_label.is_some() && !last.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ').starts_with("continue") && !last.starts_with("end") {
            self.err(
                "XMP0304",
                st.span.start_span(),
                "a `margin` loop whose DO ends on a statement other than `continue` or `end do` is not translated",
                "end the loop with `end do`",
            );
            return Err(());
        }
        let he = self.stmt_end(st.span.start);
        let cond = format!("({}) .neqv. ({})", cx.margin_owned.join(" .and. "), cx.margin_wide.join(" .and. "));
        self.edits.push(Edit { span: Span::new(he, he), text: format!("\n{IND}if ({cond}) then") });
        self.edits.push(Edit { span: Span::new(last_ls, last_ls), text: format!("{IND}end if\n") });
        Ok(())
    }

    /// After the nest: the hoisted calls, the calls moved before OpenMP lines, the
    /// checks that every level was printed, the reductions.
    fn loop_finish(&mut self, p: &Pragma, l: &LoopDir, body: &Stmt, mut cx: NestCtx) {
        let d = &p.dir;
        if let (Some(i), false) = (cx.first_edit, cx.hoisted.is_empty()) {
            let calls: String = cx.hoisted.iter().map(|c| format!("{c}\n{IND}")).collect();
            self.edits[i].text.insert_str(0, &calls);
        }
        if let (Some(i), true) = (cx.first_edit, cx.omp_first) {
            if let Some((calls, head)) = omp::split_calls(&self.edits[i].text, IND) {
                self.edits[i].text = head;
                self.edits.push(Edit { span: Span::new(cx.dir_end, cx.dir_end), text: format!("\n{IND}{calls}") });
            }
        }
        if cx.done != cx.nest.levels.len() {
            self.err(
                "XMP0302",
                d.span,
                "loop directive: the loop nest does not have a `do` loop for every loop index",
                "each index must be the variable of a `do` loop of the nest",
            );
            return;
        }
        if let Some((k, w)) = cx.nest.plan.widths.iter().enumerate().find_map(|(k, w)| w.filter(|_| !cx.widened.contains(&k)).map(|w| (k, w))) {
            let e = loop_sched::width_without_loop(w, k);
            self.err("XMP0304", e.span, &e.msg, e.label);
            return;
        }
        // reductions after the loop nest (the statement the directive applies to),
        // after the nest's `!$omp end parallel do`, if any
        let bend = body.span.start + self.text(body.span).trim_end().len();
        let mut tail = String::new();
        for r in &l.reductions {
            for v in &r.vars {
                if let Some(call) = self.red_call(v, r.op, r.op_span, "0_8", &cx.th, &cx.loc, None) {
                    tail.push_str(&format!("\n{IND}{call}"));
                }
            }
        }
        cx.inserts.entry(omp::past_end_directives(self.src, bend)).or_default().push_str(&tail);
        for (at, text) in std::mem::take(&mut cx.inserts) {
            if !text.is_empty() {
                self.edits.push(Edit { span: Span::new(at, at), text });
            }
        }
    }

    /// Inside a loop nest: statements other than the nest's own `do` headers.
    pub(super) fn stmt_inner_nonloop(&mut self, inner: &Stmt, u: &mut Unit) {
        match &inner.kind {
            StmtKind::Compound(v) => {
                for s in v {
                    if !matches!(s.kind, StmtKind::Do { .. }) {
                        self.stmt(s, u);
                    }
                }
            }
            StmtKind::Do { .. } => {}
            _ => self.stmt(inner, u),
        }
    }

    #[allow(clippy::too_many_arguments)]
    /// The lines widening a loop's schedule `sv` (set by `xmpf_sched`/`xmpf_sched1`) by
    /// an `expand` width of template dimension `k` (see `xmp_model::loop_sched`):
    /// `Ok(None)` when the dimension keeps its owned range, `Err` after reporting a
    /// width that cannot apply. `chunks`: the two-loop form, whose chunk width and
    /// stride (`sv(3)`, `sv(4)`) become the widened range.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn expand_lines(
        &mut self,
        plan: &loop_sched::LoopPlan,
        k: usize,
        sv: &str,
        stp: &str,
        lower: &Expr,
        upper: &Expr,
        pc: &str,
        fmt: Option<DistFormat>,
        chunks: bool,
    ) -> Result<Option<String>, ()> {
        let Some(w) = plan.widths.get(k).copied().flatten() else { return Ok(None) };
        if let Err(e) = loop_sched::check_width(w, fmt, stp.trim() == "1", false) {
            self.err("XMP0304", e.span, &e.msg, e.label);
            return Err(());
        }
        let (wl, wu) = (self.ex(&w.lower), self.ex(&w.upper));
        let (lo, hi) = if w.unbound {
            (format!("{sv}(1) - int({wl}, 8)"), format!("{sv}(2) + int({wu}, 8)"))
        } else {
            (format!("max({sv}(1) - int({wl}, 8), int({}, 8){pc})", self.ex(lower)), format!("min({sv}(2) + int({wu}, 8), int({}, 8){pc})", self.ex(upper)))
        };
        let mut t = format!("\n{IND}if ({sv}(1) <= {sv}(2)) then\n{IND}  {sv}(1) = {lo}\n{IND}  {sv}(2) = {hi}");
        if chunks {
            t.push_str(&format!("\n{IND}  {sv}(3) = max({sv}(2) - {sv}(1) + 1, 1_8)\n{IND}  {sv}(4) = {sv}(3)"));
        }
        t.push_str(&format!("\n{IND}end if"));
        Ok(Some(t))
    }

    /// Replaces a `loop` level's DO statement (`span`) by `head`, its schedule `call`
    /// in front, or with the nest's hoisted calls (`hoist`: see `hoistable`);
    /// `first_edit` is the index of the nest's first edit, where those go.
    pub(super) fn place_level(&mut self, call: String, head: String, span: Span, hoist: bool, first_edit: &mut Option<usize>, hoisted: &mut Vec<String>) {
        let text = if hoist {
            hoisted.push(call);
            head
        } else {
            format!("{call}\n{IND}{head}")
        };
        if text.is_empty() && span.start == span.end {
            return; // nothing to change here
        }
        first_edit.get_or_insert(self.edits.len());
        self.edits.push(Edit { span, text });
    }

    /// True when the scalar variable `key` keeps its value through the nest `nest`: a
    /// local or dummy of the unit itself (not a module's, common, host's; not a
    /// pointer, target or volatile) named nowhere in the nest but in the bounds of its
    /// `do` statements, in a nest without calls and a unit without internal procedures
    /// (which could change it by host association).
    fn invariant_in(&self, key: &str, nest: Span) -> bool {
        let Some(f) = self.fns.last() else { return false };
        let Some(s) = f.symbols.lookup(key) else { return false };
        if !matches!(s.sclass, xmpc_ir::StorageClass::Auto | xmpc_ir::StorageClass::Param | xmpc_ir::StorageClass::Static)
            || matches!(self.unit.types.get(s.ty), Type::Array { .. })
            || s.attrs.iter().any(|a| a.starts_with("common") || ["pointer", "target", "volatile", "asynchronous", "allocatable"].contains(&a.as_str()))
        {
            return false;
        }
        let text = lc(&lex::mask_strings(self.text(nest)));
        let word = |t: &str, w: &str| t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|x| x == w);
        let unit_text = lc(&lex::mask_strings(self.text(f.span)));
        if unit_text.lines().any(|l| l.split('!').next().unwrap_or("").trim() == "contains") {
            return false;
        }
        text.lines().all(|l| {
            let code = l.split('!').next().unwrap_or("").trim();
            let sq: String = code.chars().filter(|c| !c.is_whitespace()).collect();
            if sq.starts_with("call") || sq.contains("read(") {
                return false;
            }
            // `do [label] v = lo, hi[, st]`: the bounds may name it
            let is_do = code.starts_with("do ") && code.contains('=');
            let do_var = code.split('=').next().unwrap_or("").split_whitespace().last().unwrap_or("");
            (is_do && do_var != key) || !word(code, key)
        })
    }

    /// True when the bounds of an inner loop of a `loop` nest are made of literals
    /// and named constants only: its schedule is then the same at every iteration of
    /// the outer loops and is computed once, before the nest (not one runtime call
    /// per outer iteration).
    /// Also a variable that is invariant in the nest (`invariant_in`): CloverLeaf's
    /// kernels' `do j = x_min, x_max+1` inside `do k`, one call per row before.
    pub(super) fn hoistable(&self, lower: &Expr, upper: &Expr, step: Option<&Expr>, nest: Span) -> bool {
        let mut texts = vec![self.ex(lower), self.ex(upper)];
        texts.extend(step.map(|e| self.ex(e)));
        texts.iter().all(|t| {
            let b = t.as_bytes();
            let mut i = 0;
            while i < b.len() {
                let c = b[i];
                if c.is_ascii_digit() {
                    // a literal with its kind or exponent (`2_8`, `1d0`)
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                } else if c.is_ascii_alphabetic() {
                    let st = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    let rest = t[i..].trim_start();
                    if rest.starts_with('(') || !(self.is_constant(&lc(&t[st..i])) || self.invariant_in(&lc(&t[st..i]), nest)) {
                        return false;
                    }
                } else if c == b'.' || c == b'%' {
                    return false; // operators such as .and., components
                } else {
                    i += 1;
                }
            }
            true
        })
    }
}
