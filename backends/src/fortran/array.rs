//! `!$xmp array on t(...)` + an array assignment: each node assigns the elements of
//! the left-hand array it owns.
//!
//! The left side's distributed dimensions are cut to the node's share of the
//! section (`xmpf_sched1`, block distributions), and every array section on the
//! right is shifted by the same number of elements, so the statement stays one
//! array assignment that gfortran vectorises. Distributed arrays are pointers whose
//! bounds are global indices, so no subscript is translated otherwise.
//!
//! A cyclic or cyclic(w) dimension (its arrays are stored whole on every node) gets
//! the list of the node's indices (`xmpf_owned`) and is subscripted with it (a
//! vector subscript, mapped onto the right side's sections the same way): still one
//! array assignment, so the right side is evaluated before anything is stored, as
//! Fortran requires, even when it overlaps the left side.

use super::{lc, Tr, Unit, IND};
use xmpc_ir::directive::{DistFormat, Ref};
use xmpc_ir::{Edit, Expr, ExprKind, Pragma, Span, StmtKind};

/// One sectioned dimension of the left side after the cut.
struct Cut {
    /// Original lower bound and stride (Fortran text).
    lo: String,
    st: String,
    /// The node's first and last index in this dimension (Fortran text).
    first: String,
    last: String,
    /// Cyclic dimensions: the node's indices, a vector subscript (Fortran text).
    owned: Option<String>,
}

impl<'a> Tr<'a> {
    pub(super) fn array_dir(&mut self, p: &Pragma, on: &Ref, u: &mut Unit) {
        let d = &p.dir;
        let Some(body) = p.body.as_deref() else {
            self.err("XMP0306", d.span, "`array` must be followed by an array assignment", "nothing follows");
            return;
        };
        let StmtKind::Assign(lhs, rhs) = &body.kind else {
            self.err("XMP0306", body.span, "`array` must be followed by an array assignment", "not an assignment");
            return;
        };
        let (name, subs) = match &lhs.kind {
            ExprKind::Ident(n) => (n.clone(), None),
            ExprKind::Call(f, a) => match &f.kind {
                ExprKind::Ident(n) => (n.clone(), Some(a.as_slice())),
                _ => (String::new(), None),
            },
            _ => (String::new(), None),
        };
        let Some(arr) = u.arrays.get(&lc(&name)).cloned() else {
            self.err("XMP0109", lhs.span, "the left side of an `array` assignment must be an aligned array", "not aligned with a template");
            return;
        };
        if arr.templ != lc(&on.name.name) {
            self.err(
                "XMP0306",
                on.name.span,
                &format!("`array on {}`: '{name}' is aligned with template '{}'", on.name.name, arr.templ),
                "name the template of the left-hand array",
            );
            return;
        }
        let Some((th, _, fmts)) = arr.tid.map(|t| self.templ_info(t)) else {
            self.err("XMP0102", on.name.span, "unknown template", "not declared by a template directive in this unit");
            return;
        };
        if let Some(s) = subs {
            if s.len() != arr.ndims {
                self.err("XMP0104", lhs.span, &format!("{} subscripts for a {}-dimensional array", s.len(), arr.ndims), "rank mismatch");
                return;
            }
        }
        let loc = self.loc(d.span, "array");
        self.uniq_array += 1;
        let tag = self.uniq_array;
        let mut pre: Vec<String> = vec![];
        let mut guards: Vec<String> = vec![];
        let mut new_subs: Vec<String> = vec![];
        let mut post: Vec<String> = vec![];
        let mut cuts: Vec<Option<Cut>> = vec![]; // per sectioned dim of the left side, in order
        for k in 0..arr.ndims {
            let sub = subs.map(|s| &s[k]);
            let whole_lo = arr.dl[k].clone();
            let whole_hi = format!("{} + {} - 1", paren(&arr.dl[k]), paren(&arr.ext[k]));
            // (lo, hi, st, is a section)
            let (lo, hi, st, section) = match sub.map(|e| &e.kind) {
                None => (whole_lo, whole_hi, "1".to_string(), true),
                Some(ExprKind::Triplet(l, h, s)) => (
                    l.as_ref().map_or(whole_lo, |e| self.ex(e)),
                    h.as_ref().map_or(whole_hi, |e| self.ex(e)),
                    s.as_ref().map_or("1".into(), |e| self.ex(e)),
                    true,
                ),
                Some(_) => {
                    let e = self.ex(sub.unwrap());
                    (e.clone(), e, "1".into(), false)
                }
            };
            let Some((tdim, c)) = arr.talign[k].clone() else {
                // not distributed: as written
                new_subs.push(sub.map_or(":".into(), |e| self.ex(e)));
                if section {
                    cuts.push(None);
                }
                continue;
            };
            if fmts.get(tdim) == Some(&DistFormat::Cyclic) {
                // the node's indices of the section, as a vector subscript
                let iv = format!("xmpf_ar{tag}_{k}");
                let nv = format!("xmpf_arn{tag}_{k}");
                u.decls.insert(format!("integer(8), allocatable :: {iv}(:)"));
                u.decls.insert(format!("integer(8) :: {nv}"));
                let off = if c == "0" { "0_8".to_string() } else { format!("int({c}, 8)") };
                let (l8, h8, s8) = (format!("int({lo}, 8)"), format!("int({hi}, 8)"), format!("int({st}, 8)"));
                pre.push(format!("allocate({iv}(max(0_8, ({h8} - {l8}) / {s8} + 1)))"));
                pre.push(format!("call xmpf_owned({iv}, size({iv}, kind=8), {nv}, {loc}, {th}, {tdim}, {off}, {l8}, {h8}, {s8})"));
                post.push(format!("deallocate({iv})"));
                guards.push(format!("{nv} > 0"));
                if section {
                    let v = format!("{iv}(1:{nv})");
                    new_subs.push(v.clone());
                    cuts.push(Some(Cut { lo, st, first: String::new(), last: String::new(), owned: Some(v) }));
                } else {
                    // an element: only its owner assigns
                    new_subs.push(lo);
                }
                continue;
            }
            let sv = format!("xmpf_ar{tag}_{k}");
            u.decls.insert(format!("integer(8) :: {sv}(3)"));
            let (pc, mc) = if c == "0" { (String::new(), String::new()) } else { (format!(" + ({c})"), format!(" - ({c})")) };
            pre.push(format!("call xmpf_sched1({sv}, {loc}, {th}, {tdim}, int({lo}, 8){pc}, int({hi}, 8){pc}, int({st}, 8))"));
            let first = format!("{sv}(1){mc}");
            let last = format!("{sv}(2){mc}");
            // a node without elements skips the statement
            guards.push(format!("{sv}(1) <= {sv}(2)"));
            if section {
                new_subs.push(if st == "1" { format!("{first}:{last}") } else { format!("{first}:{last}:{st}") });
                cuts.push(Some(Cut { lo, st, first, last, owned: None }));
            } else {
                // an element: only its owner assigns
                new_subs.push(lo);
            }
        }
        let new_lhs = format!("{name}({})", new_subs.join(", "));
        let Some(new_rhs) = self.shift_rhs(rhs, &cuts, u) else { return };
        let mut text = pre.join(&format!("\n{IND}"));
        let assign = format!("{new_lhs} = {new_rhs}");
        if guards.is_empty() {
            text.push_str(&format!("\n{IND}{assign}"));
        } else {
            text.push_str(&format!("\n{IND}if ({}) then\n{IND}  {assign}\n{IND}end if", guards.join(" .and. ")));
        }
        for x in post {
            text.push_str(&format!("\n{IND}{x}"));
        }
        let end = self.stmt_end(body.span.start);
        self.edits.push(Edit { span: Span::new(body.span.start, end), text });
    }

    /// The right side with each array section (and whole array) cut like the left
    /// side: its j-th sectioned dimension starts `(first - lo) / st` strides later
    /// and keeps `(last - first) / st + 1` elements.
    fn shift_rhs(&mut self, e: &Expr, cuts: &[Option<Cut>], u: &Unit) -> Option<String> {
        let mut out = String::new();
        let mut at = e.span.start;
        let mut err = false;
        let mut pieces: Vec<(Span, String)> = vec![];
        self.collect_sections(e, cuts, u, &mut pieces, &mut err);
        if err {
            return None;
        }
        pieces.sort_by_key(|p| p.0.start);
        for (sp, t) in pieces {
            out.push_str(&self.src[at..sp.start]);
            out.push_str(&t);
            at = sp.end;
        }
        out.push_str(&self.src[at..e.span.end]);
        Some(out.trim().to_string())
    }

    fn collect_sections(&mut self, e: &Expr, cuts: &[Option<Cut>], u: &Unit, out: &mut Vec<(Span, String)>, err: &mut bool) {
        match &e.kind {
            ExprKind::Ident(n) => {
                if let Some(rank) = self.array_rank(n, u) {
                    // a whole array: every dimension is a section over its bounds
                    let subs: Vec<Option<(String, String, String)>> = (0..rank).map(|k| Some(self.whole_bounds(n, k, u))).collect();
                    if let Some(t) = self.cut_ref(n, &subs, cuts, e.span, err) {
                        out.push((e.span, t));
                    }
                }
            }
            ExprKind::Call(f, args) => {
                let name = match &f.kind {
                    ExprKind::Ident(n) => n.clone(),
                    _ => String::new(),
                };
                let has_triplet = args.iter().any(|a| matches!(a.kind, ExprKind::Triplet(..)));
                if has_triplet && self.array_rank(&name, u).is_some() {
                    let mut subs = vec![];
                    for (k, a) in args.iter().enumerate() {
                        subs.push(match &a.kind {
                            ExprKind::Triplet(l, h, s) => {
                                let (wl, wh, _) = self.whole_bounds(&name, k, u);
                                Some((
                                    l.as_ref().map_or(wl, |x| self.ex(x)),
                                    h.as_ref().map_or(wh, |x| self.ex(x)),
                                    s.as_ref().map_or("1".into(), |x| self.ex(x)),
                                ))
                            }
                            _ => None,
                        });
                    }
                    let scalars: Vec<String> = args.iter().map(|a| self.ex(a)).collect();
                    if let Some(t) = self.cut_ref_with(&name, &subs, &scalars, cuts, e.span, err) {
                        out.push((e.span, t));
                    }
                } else {
                    // a function (elemental or not) or an element: look inside
                    for a in args {
                        self.collect_sections(a, cuts, u, out, err);
                    }
                }
            }
            ExprKind::Unary(_, x) => self.collect_sections(x, cuts, u, out, err),
            ExprKind::Binary(_, a, b) => {
                self.collect_sections(a, cuts, u, out, err);
                self.collect_sections(b, cuts, u, out, err);
            }
            _ => {}
        }
    }

    fn cut_ref(&mut self, name: &str, subs: &[Option<(String, String, String)>], cuts: &[Option<Cut>], span: Span, err: &mut bool) -> Option<String> {
        self.cut_ref_with(name, subs, &[], cuts, span, err)
    }

    /// `name(...)` with its sectioned dimensions shifted; `scalars` gives the text of
    /// non-section subscripts.
    fn cut_ref_with(
        &mut self,
        name: &str,
        subs: &[Option<(String, String, String)>],
        scalars: &[String],
        cuts: &[Option<Cut>],
        span: Span,
        err: &mut bool,
    ) -> Option<String> {
        let nsec = subs.iter().filter(|s| s.is_some()).count();
        if nsec != cuts.len() {
            self.err("XMP0104", span, &format!("'{name}' has {nsec} section dimensions, the left side {}", cuts.len()), "not conformable");
            *err = true;
            return None;
        }
        let mut j = 0;
        let mut parts = vec![];
        for (k, s) in subs.iter().enumerate() {
            match s {
                None => parts.push(scalars[k].clone()),
                Some((lo, hi, st)) => {
                    match &cuts[j] {
                        None => parts.push(if st == "1" { format!("{lo}:{hi}") } else { format!("{lo}:{hi}:{st}") }),
                        Some(Cut { owned: Some(v), lo: clo, st: cst, .. }) => {
                            // left index i is element (i - clo) / cst of the section
                            parts.push(if cst == "1" && st == "1" {
                                if lo == clo {
                                    v.clone()
                                } else {
                                    format!("{v} + ({} - {})", paren(lo), paren(clo))
                                }
                            } else {
                                format!("{} + ({v} - {}) / {} * {}", paren(lo), paren(clo), paren(cst), paren(st))
                            });
                        }
                        Some(c) => {
                            let (l, h) = if c.st == "1" && st == "1" {
                                let off = format!("{} - {}", c.first, paren(&c.lo));
                                (format!("{} + {off}", paren(lo)), format!("{} + {off} + {} - {}", paren(lo), c.last, c.first))
                            } else {
                                let off = format!("({} - {}) / {}", c.first, paren(&c.lo), paren(&c.st));
                                let cnt = format!("({} - {}) / {}", c.last, c.first, paren(&c.st));
                                (format!("{} + {off} * {}", paren(lo), paren(st)), format!("{} + ({off} + {cnt}) * {}", paren(lo), paren(st)))
                            };
                            parts.push(if st == "1" { format!("{l}:{h}") } else { format!("{l}:{h}:{st}") });
                        }
                    }
                    j += 1;
                }
            }
        }
        Some(format!("{name}({})", parts.join(", ")))
    }

    /// Rank of `name` when it is an array (aligned or not).
    fn array_rank(&self, name: &str, u: &Unit) -> Option<usize> {
        let key = lc(name);
        if let Some(a) = u.arrays.get(&key) {
            return Some(a.ndims);
        }
        self.rank_of(&key)
    }

    /// Bounds of dimension `k` of a whole array: the declared global bounds of an
    /// aligned array, else `lbound`/`ubound`.
    fn whole_bounds(&self, name: &str, k: usize, u: &Unit) -> (String, String, String) {
        match u.arrays.get(&lc(name)) {
            Some(a) => (a.dl[k].clone(), format!("{} + {} - 1", paren(&a.dl[k]), paren(&a.ext[k])), "1".into()),
            None => (format!("lbound({name}, {})", k + 1), format!("ubound({name}, {})", k + 1), "1".into()),
        }
    }
}

fn paren(s: &str) -> String {
    if s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        s.to_string()
    } else {
        format!("({s})")
    }
}
