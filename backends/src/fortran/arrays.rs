//! Aligned arrays: the declaration rewritten to an allocatable (or a pointer onto a
//! dummy's block), the runtime array created and attached to its storage, and
//! `allocate`/`deallocate` of allocatable aligned arrays.

use super::*;
use xmpc_ir::directive::Name;
use xmpc_passes::xmp_model::symbols::AlignDim;

/// What the declaration of an aligned array says.
struct ArrDecl<'s> {
    dims: &'s [xmpc_ir::Dim],
    etxt: String,
    esize: usize,
    alloc: bool,
    param: bool,
    saved: bool,
    /// An explicit-shape dummy, an assumed-shape (`a(:)`) dummy.
    dummy: bool,
    assumed: bool,
    /// A deferred-shape pointer (`integer, pointer :: a(:,:)`).
    pointer: bool,
}

/// How the array dims map onto the template: per array dim the template dim (or -1),
/// the offset of the local block, `(template dim, c)` of `t(i + c)`; cyclic.
pub(super) struct AlignMap {
    pub adim: Vec<String>,
    pub aoff: Vec<String>,
    pub talign: Vec<Option<(usize, String)>>,
    pub cyclic: bool,
}

/// Shadow widths: the directive's span, and (lower, upper, full) per dim.
type ShadowTexts = (Span, Vec<String>, Vec<String>, Vec<String>);

/// An aligned array being printed.
struct Aligned {
    name: String,
    key: String,
    th: String,
    loc: String,
    dspan: Span,
    map: AlignMap,
    widths: Option<ShadowTexts>,
    arr: Arr,
}

impl<'a> Tr<'a> {
    /// True when the declaration of `key` in `body` gives it an assumed-size (`*`)
    /// dimension, in its entity (`a(n, *)`) or a `dimension(*)` attribute.
    pub(super) fn assumed_size(&self, body: &[Stmt], syms: &SymbolTable, key: &str) -> bool {
        let parens = |t: &str| -> Option<String> {
            let t = t.trim_start();
            if !t.starts_with('(') {
                return None;
            }
            let mut depth = 0;
            for (i, c) in t.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(t[1..i].to_string());
                        }
                    }
                    _ => {}
                }
            }
            None
        };
        for s in body {
            let StmtKind::Decl(ids) = &s.kind else { continue };
            if !ids.iter().any(|&i| lc(&syms.get(i).name) == key) {
                continue;
            }
            let low = lc(&self.src[s.span.start..self.stmt_end(s.span.start)]);
            let from = low.find("::").map_or(0, |p| p + 2);
            let Some(at) = find_word(&low, key, from) else { continue };
            let dims = parens(&low[at + key.len()..]).or_else(|| {
                let d = find_word(&low[..from], "dimension", 0)?;
                parens(&low[d + "dimension".len()..])
            });
            if dims.is_some_and(|d| d.contains('*')) {
                return true;
            }
        }
        false
    }

    /// Declared lower bounds and extents (Fortran text) of explicit-shape dims.
    pub(super) fn decl_bounds(&self, dims: &[xmpc_ir::Dim]) -> (Vec<String>, Vec<String>) {
        let dl: Vec<String> = dims.iter().map(|d| d.lower.as_ref().map_or("1".into(), |e| self.ex(e))).collect();
        let ext = dims
            .iter()
            .zip(&dl)
            .map(|(d, l)| {
                let up = d.upper.as_ref().map_or("1".into(), |e| self.ex(e));
                if l == "1" {
                    up
                } else {
                    format!("({up}) - ({l}) + 1")
                }
            })
            .collect();
        (dl, ext)
    }

    /// `align a(...) with t(...)` of an array declared in this unit: the model's
    /// alignment (`xmp_model::symbols::ArrayDecl`) printed as the runtime array, its
    /// storage, and the rewritten declaration.
    pub(super) fn array(&mut self, body: &[Stmt], syms: &SymbolTable, u: &mut Unit, n: &Name, dspan: Span, shadow: Option<&(Span, Vec<ShadowWidth>)>) {
        let Some(id) = self.m.name_array(n) else { return }; // reported by the model
        let tid = self.m.array(id).templ;
        let (th, _, tfmt) = self.templ_info(tid);
        let Some(ad) = self.array_decl(body, syms, u, &n.name, dspan) else { return };
        let key = lc(&n.name);
        let nd = ad.dims.len();
        let (dl, ext) = if ad.alloc {
            // set from the bounds of the `allocate` statement
            u.decls.insert(format!("integer(8) :: xmpf_dl_{key}({nd}), xmpf_ex_{key}({nd})"));
            ((1..=nd).map(|k| format!("xmpf_dl_{key}({k})")).collect::<Vec<_>>(), (1..=nd).map(|k| format!("xmpf_ex_{key}({k})")).collect::<Vec<_>>())
        } else {
            self.decl_bounds(ad.dims)
        };
        let align = self.m.array(id).align.clone();
        let map = self.align_texts(&align, &dl, &tfmt);
        let Some(widths) = self.shadow_texts(shadow, &n.name, nd) else { return };
        let cyc_full = map.cyclic
            && widths.as_ref().is_some_and(|(_, _, _, full)| {
                map.talign.iter().zip(full).all(|(ta, f)| !matches!(ta, Some((k, _)) if tfmt.get(*k) == Some(&DistFormat::Cyclic)) || f == "1")
            });
        let h = format!("xmpf_d_{key}");
        u.decls.insert(format!("integer(8) :: {h}"));
        u.decls.insert("integer(8) :: xmpf_lb(7), xmpf_ex(7)".into());
        u.decls.insert("type(xmpf_cptr) :: xmpf_cp".into());
        u.need_cbind = true;
        let arr = Arr {
            handle: h,
            ndims: nd,
            dl,
            ext,
            esize: ad.esize,
            cyclic: map.cyclic,
            cyc_full,
            templ: lc(&self.m.templ(tid).name),
            tid: Some(tid),
            talign: map.talign.clone(),
        };
        let a = Aligned { name: n.name.clone(), key, th, loc: self.loc(dspan, "align"), dspan, map, widths, arr };
        if ad.pointer {
            self.pointer_array(u, a);
        } else if ad.assumed && !a.map.cyclic {
            self.assumed_array(u, &ad, a);
        } else if ad.dummy || ad.assumed {
            self.dummy_array(u, &ad, a);
        } else {
            self.local_array(u, &ad, &tfmt, a);
        }
    }

    /// The declaration of an aligned array, checked (XMP0404, XMP0405); a dummy is
    /// renamed in the procedure statement (`name` becomes a pointer onto it).
    fn array_decl<'s>(&mut self, body: &[Stmt], syms: &'s SymbolTable, _u: &mut Unit, name: &str, dspan: Span) -> Option<ArrDecl<'s>>
    where
        'a: 's,
    {
        let key = lc(name);
        let Some(sym) = syms.lookup(&key) else {
            self.err(
                "XMP0404",
                dspan,
                &format!("aligned array '{name}' is not declared in this program unit"),
                "module variables and host-associated arrays are not supported yet",
            );
            return None;
        };
        let Type::Array { elem, dims } = self.unit.types.get(sym.ty) else {
            self.err("XMP0404", dspan, &format!("'{name}' is not an array"), "align needs an array");
            return None;
        };
        let alloc = sym.attrs.iter().any(|a| a == "allocatable") && dims.iter().all(|d| d.deferred);
        let param = sym.sclass == xmpc_ir::StorageClass::Param;
        let saved = sym.attrs.iter().any(|a| a == "save");
        let dummy = param && !dims.iter().any(|d| d.deferred);
        // `a(:)`, `a(0:, :)`: the IR does not tell `:` from `*`, the declaration does
        let assumed = param && !alloc && dims.iter().all(|d| d.deferred && d.upper.is_none()) && !self.assumed_size(body, syms, &key);
        let pointer = !param && sym.attrs.iter().any(|a| a == "pointer") && dims.iter().all(|d| d.deferred && d.upper.is_none());
        if !pointer && (sym.attrs.iter().any(|a| a == "pointer") || (dims.iter().any(|d| d.deferred) && !alloc && !assumed)) {
            self.err(
                "XMP0405",
                dspan,
                &format!("aligned array '{name}' is an assumed-size dummy or a pointer"),
                "not supported in Fortran: align a local, allocatable, pointer, explicit-shape or assumed-shape (`a(:)`) dummy array",
            );
            return None;
        }
        if dummy || assumed {
            let (hs, he) = self.header?;
            let low = lc(&self.src[hs..he]);
            let after = low.find('(').unwrap_or(low.len());
            let Some(at) = find_word(&low, &key, after) else {
                self.err("XMP0404", dspan, &format!("cannot find dummy argument '{name}' in the procedure statement"), "");
                return None;
            };
            self.edits.push(Edit { span: Span::new(hs + at, hs + at + key.len()), text: format!("xmpf_arg_{key}") });
        }
        let etxt = match self.unit.types.get(*elem) {
            Type::Basic(s) => s.clone(),
            _ => {
                self.err("XMP0404", dspan, "aligned array of a derived type", "not supported");
                return None;
            }
        };
        let Some(esize) = elem_size(&etxt) else {
            self.err("XMP0404", dspan, &format!("aligned array of type {etxt}"), "element type not supported");
            return None;
        };
        Some(ArrDecl { dims, etxt, esize, alloc, param, saved, dummy, assumed, pointer })
    }

    /// Per array dim: the template dim (or -1), the offset of the local block, and
    /// `(template dim, c)` of `t(i + c)`, Fortran text; whether a dim is cyclic.
    pub(super) fn align_texts(&self, align: &[AlignDim], dl: &[String], tfmt: &[DistFormat]) -> AlignMap {
        let mut m = AlignMap { adim: vec![], aoff: vec![], talign: vec![], cyclic: false };
        for (d, a) in align.iter().enumerate() {
            let AlignDim::Aligned { tdim: k, offset } = a else {
                m.adim.push("-1".into());
                m.aoff.push("0".into());
                m.talign.push(None);
                continue;
            };
            let c = if offset.is_zero() { "0".to_string() } else { self.ie(offset) };
            m.cyclic |= tfmt.get(*k) == Some(&DistFormat::Cyclic);
            m.adim.push(k.to_string());
            m.aoff.push(if c == "0" { dl[d].clone() } else { format!("({}) + ({c})", dl[d]) });
            m.talign.push(Some((*k, c)));
        }
        m
    }

    /// Shadow widths (span, lower, upper, full) per dim, Fortran text; `None` after an
    /// error, `Some(None)` without a shadow.
    #[allow(clippy::type_complexity)]
    fn shadow_texts(&mut self, shadow: Option<&(Span, Vec<ShadowWidth>)>, name: &str, nd: usize) -> Option<Option<ShadowTexts>> {
        let Some((sspan, ws)) = shadow else { return Some(None) };
        if ws.len() != nd {
            self.err("XMP0104", *sspan, &format!("shadow gives {} widths, '{name}' has {nd} dimensions", ws.len()), "rank mismatch");
            return None;
        }
        let (mut lo, mut hi, mut full) = (vec![], vec![], vec![]);
        for w in ws {
            match w {
                ShadowWidth::Full(_) => {
                    lo.push("0".to_string());
                    hi.push("0".to_string());
                    full.push("1".to_string());
                }
                ShadowWidth::Width(w) => {
                    lo.push(self.ex(&w.lower));
                    hi.push(self.ex(&w.upper));
                    full.push("0".to_string());
                }
            }
        }
        Some(Some((*sspan, lo, hi, full)))
    }

    /// An assumed-shape dummy: the caller's local block (shadows included) described
    /// again with this unit's template, align and shadow; its global extents come from
    /// the template (aligned dims) or the actual extents less the shadows (`*` dims).
    fn assumed_array(&mut self, u: &mut Unit, ad: &ArrDecl, a: Aligned) {
        let (name, key, h, loc, th) = (&a.name, &a.key, &a.arr.handle, &a.loc, &a.th);
        let (nd, etxt, esize) = (a.arr.ndims, &ad.etxt, ad.esize);
        let arg = format!("xmpf_arg_{key}");
        let colons = vec![":"; nd].join(",");
        u.decls.insert(format!("{etxt}, contiguous :: {arg}({colons})"));
        u.decls.insert(format!("integer(8) :: xmpf_gx_{key}({nd})"));
        let (lo, hi, full) = match &a.widths {
            Some((_, l, h, f)) => (l.clone(), h.clone(), f.join(", ")),
            None => (vec!["0".to_string(); nd], vec!["0".to_string(); nd], vec!["0"; nd].join(", ")),
        };
        let mut lines = vec![format!("xmpf_ex(1:{nd}) = int(shape({arg}), 8)")];
        lines.push(format!(
            "call xmpf_assumed({h}, {loc}, {th}, {nd}, {esize}, [integer :: {}], {}, {}, {}, {}, [integer :: {full}], {arg}, xmpf_ex, xmpf_gx_{key}, xmpf_lb, xmpf_cp)",
            a.map.adim.join(", "),
            self.i8list(&a.map.aoff),
            self.i8list(&a.arr.dl),
            self.i8list(&lo),
            self.i8list(&hi),
        ));
        lines.push(format!("call xmpf_cfp(xmpf_cp, {name}, xmpf_ex(1:{nd}))"));
        let lbs: Vec<String> = (1..=nd).map(|k| format!("xmpf_lb({k}):")).collect();
        lines.push(format!("{name}({}) => {name}", lbs.join(", ")));
        u.setup.extend(lines);
        u.frees.push(format!("call xmpf_array_free({h})"));
        let gx = (1..=nd).map(|k| format!("xmpf_gx_{key}({k})")).collect();
        u.redecl.push((name.to_string(), format!("{etxt}, pointer, contiguous"), nd, a.dspan));
        u.arrays.insert(key.clone(), Arr { ext: gx, ..a.arr });
    }

    /// An aligned pointer array (`integer, pointer :: a(:,:)`, Omni's `pointer/F`): no
    /// storage of its own; after each `a => b` it takes the runtime array of the
    /// distributed array whose local block `a` now points to (its handle, declared
    /// lower bounds and global extents), so directives on `a` act on the target.
    fn pointer_array(&mut self, u: &mut Unit, a: Aligned) {
        let (key, h, nd) = (&a.key, &a.arr.handle, a.arr.ndims);
        u.decls.insert(format!("integer(8) :: xmpf_gl_{key}({nd}), xmpf_gx_{key}({nd})"));
        u.setup.push(format!("{h} = 0_8"));
        let call = format!("call xmpf_pointer_desc({h}, {}, {nd}, {}, xmpf_gl_{key}, xmpf_gx_{key})", self.loc(a.dspan, "align"), a.name);
        u.pointers.insert(key.clone(), call);
        let dl = (1..=nd).map(|k| format!("xmpf_gl_{key}({k})")).collect();
        let ext = (1..=nd).map(|k| format!("xmpf_gx_{key}({k})")).collect();
        u.arrays.insert(key.clone(), Arr { dl, ext, ..a.arr });
    }

    /// An explicit-shape dummy (or an assumed-shape one aligned with a cyclic dim, the
    /// whole array): the caller's distributed array, found by the address of its block.
    fn dummy_array(&mut self, u: &mut Unit, ad: &ArrDecl, a: Aligned) {
        let (name, key, h, loc) = (&a.name, &a.key, &a.arr.handle, &a.loc);
        let (nd, etxt) = (a.arr.ndims, &ad.etxt);
        let arg = format!("xmpf_arg_{key}");
        let ext = if ad.assumed {
            u.decls.insert(format!("{etxt}, contiguous :: {arg}({})", vec![":"; nd].join(",")));
            (1..=nd).map(|k| format!("size({arg}, {k})")).collect()
        } else {
            u.decls.insert(format!("{etxt} :: {arg}(*)"));
            a.arr.ext.clone()
        };
        let mut lines = vec![format!("xmpf_ex(1:{nd}) = {}", self.i8list(&ext))];
        if ad.assumed {
            lines.push(format!("call xmpf_dummy({h}, {loc}, {arg}, {nd}, {}, xmpf_lb, xmpf_ex, xmpf_cp)", self.i8list(&a.arr.dl)));
        } else {
            // the declared extents: the runtime checks the actual argument is mapped as the dummy
            lines.push(format!(
                "call xmpf_dummy_mapped({h}, {loc}, {}, [integer :: {}], {}, {arg}, {nd}, {}, xmpf_lb, xmpf_ex, xmpf_cp)",
                a.th,
                a.map.adim.join(", "),
                self.i8list(&a.map.aoff),
                self.i8list(&a.arr.dl)
            ));
            // a dummy remapped at entry is copied back at return
            u.frees.push(format!("call xmpf_dummy_release({h})"));
        }
        lines.push(format!("call xmpf_cfp(xmpf_cp, {name}, xmpf_ex(1:{nd}))"));
        let lbs: Vec<String> = (1..=nd).map(|k| format!("xmpf_lb({k}):")).collect();
        lines.push(format!("{name}({}) => {name}", lbs.join(", ")));
        u.setup.extend(lines);
        u.redecl.push((name.to_string(), format!("{etxt}, pointer, contiguous"), nd, a.dspan));
        u.arrays.insert(key.clone(), Arr { ext, ..a.arr });
    }

    /// A local, module or allocatable array: an allocatable of the local block's bounds
    /// (not a pointer: gfortran then knows that two arrays do not overlap, and
    /// vectorises and turns copies into memcpy as for plain arrays), handed to the
    /// runtime as its storage; made at its `allocate` for an allocatable one.
    fn local_array(&mut self, u: &mut Unit, ad: &ArrDecl, tfmt: &[DistFormat], a: Aligned) {
        let (name, key, h, loc, th) = (a.name.clone(), a.key.clone(), a.arr.handle.clone(), a.loc.clone(), a.th.clone());
        let (nd, etxt, esize) = (a.arr.ndims, &ad.etxt, ad.esize);
        let (dl, ext) = (&a.arr.dl, &a.arr.ext);
        let mut lines = vec![format!(
            "call xmpf_array({h}, {loc}, {th}, {nd}, {esize}, {}, [integer :: {}], {})",
            self.i8list(ext),
            a.map.adim.join(", "),
            self.i8list(&a.map.aoff)
        )];
        // xmp_matmul and xmp_sort_* compute on the elements: give them the type
        if mentions_typed_library(self.src) {
            if let Some(code) = type_code(etxt) {
                lines.push(format!("call xmpf_array_type({h}, {code})"));
            }
        }
        if let Some((sspan, lo, hi, full)) = &a.widths {
            let sl = self.loc(*sspan, "shadow");
            lines.push(format!("call xmpf_array_shadow({h}, {sl}, {nd}, {}, {}, [integer :: {}])", self.i8list(lo), self.i8list(hi), full.join(", ")));
        }
        lines.push(format!("xmpf_ex(1:{nd}) = {}", self.i8list(ext)));
        lines.push(format!("call xmpf_array_layout({h}, {loc}, {nd}, {}, xmpf_lb, xmpf_ex)", self.i8list(dl)));
        let mut known = false;
        let bnds: Vec<String> = (1..=nd)
            .map(|k| {
                let w = a.widths.as_ref().map(|(_, lo, hi, full)| (lo[k - 1].as_str(), hi[k - 1].as_str(), full[k - 1].as_str()));
                let up = ad.dims[k - 1].upper.as_ref().map_or("1".to_string(), |e| self.ex(e));
                match static_bounds(&dl[k - 1], &up, a.map.talign[k - 1].as_ref().map(|t| t.0), tfmt, w, a.map.cyclic || ad.alloc) {
                    Some(b) => {
                        known = true;
                        b
                    }
                    None => format!("xmpf_lb({k}):xmpf_lb({k})+xmpf_ex({k})-1"),
                }
            })
            .collect();
        lines.push(format!("allocate({name}({}))", bnds.join(", ")));
        if known {
            // the extents allocated: the runtime checks them against its layout
            lines.push(format!("xmpf_ex(1:{nd}) = shape({name})"));
        }
        lines.push(format!("call xmpf_array_attach({h}, {loc}, {nd}, xmpf_ex, {name})"));
        u.arrays.insert(key.clone(), a.arr);
        // a `save` array keeps its runtime array, handle and contents across calls:
        // made at the first call only
        let own_save = ad.saved && !ad.param;
        if own_save {
            u.decls.remove(&format!("integer(8) :: {h}"));
            u.decls.insert(format!("integer(8), save :: {h} = 0_8"));
            if !ad.alloc {
                lines.insert(0, format!("if (.not. allocated({name})) then"));
                lines.push("end if".into());
            }
        }
        if ad.alloc {
            u.pending.insert(key.clone(), (nd, lines));
            if !ad.param && !ad.saved {
                u.frees.push(format!("if (allocated({name})) call xmpf_array_free({h})"));
            }
        } else {
            u.setup.extend(lines);
            if !ad.saved {
                u.frees.push(format!("call xmpf_array_free({h})"));
            }
        }
        let save = if own_save { ", save" } else { "" };
        u.redecl.push((name, format!("{etxt}, allocatable, target{save}"), nd, a.dspan));
    }

    /// Rewrites the declarations of the aligned arrays `arrs` (name, element type, rank):
    /// the statement keeps its other entities and the arrays are declared as pointers.
    pub(super) fn redeclare(&mut self, body: &[Stmt], syms: &SymbolTable, arrs: &[(String, String, usize, Span)]) {
        let mut done: BTreeSet<String> = BTreeSet::new();
        for s in body {
            let StmtKind::Decl(ids) = &s.kind else {
                continue;
            };
            let names: Vec<String> = ids.iter().map(|&i| syms.get(i).name.clone()).collect();
            let mine: Vec<&(String, String, usize, Span)> = arrs.iter().filter(|a| names.contains(&lc(&a.0)) && !done.contains(&lc(&a.0))).collect();
            if mine.is_empty() {
                continue;
            }
            let mut end = self.stmt_end(s.span.start);
            if self.fixed {
                end = end.min(col72(self.src, self.line_start(end)));
            }
            if end <= s.span.start {
                // fixed form: the declaration starts past column 72 of its line (found by
                // the fortran_front fuzz target: a line of escaped non-UTF-8 bytes before
                // it), where nothing can be rewritten
                self.err(
                    "XMP0404",
                    mine[0].3,
                    &format!("cannot rewrite the declaration of '{}'", mine[0].0),
                    "in fixed form a statement ends at column 72: declare the aligned array within columns 7 to 72",
                );
                continue;
            }
            // the statement as one logical line: continuation lines joined, comments
            // dropped (the rewritten declaration replaces the whole statement); a
            // trailing comment of a one-line declaration stays where it is
            let raw = &self.src[s.span.start..end];
            let one_line = !raw.contains('\n');
            if one_line {
                if let Some(c) = comment_start(raw) {
                    end = s.span.start + raw[..c].trim_end().len();
                }
            }
            let joined = join_continued(&self.src[s.span.start..end], self.fixed);
            let text = joined.as_str();
            let low = lc(text);
            let dspan = mine[0].3;
            if low.trim_start().starts_with("dimension") || low.contains(';') {
                self.err(
                    "XMP0404",
                    dspan,
                    &format!("cannot rewrite the declaration of '{}'", mine[0].0),
                    "declare an aligned array with its type (`type :: name(dims)`), one statement a line",
                );
                continue;
            }
            // start of the entity list
            let start = match low.find("::") {
                Some(p) => p + 2,
                None => names.iter().filter_map(|n| find_word(&low, n, 0)).min().unwrap_or(0),
            };
            let prefix = match low.find("::") {
                Some(p) => text[..p].trim_end(),
                None => text[..start].trim_end(),
            };
            // split the entity list at top-level commas
            let mut ents: Vec<String> = vec![];
            let mut depth = 0i32;
            let text = &joined;
            let mut cur = String::new();
            for c in text[start..].chars() {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    _ => {}
                }
                if c == ',' && depth == 0 {
                    ents.push(cur.trim().to_string());
                    cur.clear();
                } else {
                    cur.push(c);
                }
            }
            ents.push(cur.trim().to_string());
            let ent_name = |e: &str| lc(&e.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>());
            let kept: Vec<&String> = ents.iter().filter(|e| !mine.iter().any(|m| lc(&m.0) == ent_name(e))).collect();
            let mut out = String::new();
            if !kept.is_empty() {
                let sep = if low.contains("::") { " :: " } else { " " };
                out.push_str(&format!("{prefix}{sep}{}", kept.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")));
            }
            for (k, m) in mine.iter().enumerate() {
                let colons = vec![":"; m.2].join(",");
                if k > 0 || !out.is_empty() {
                    out.push('\n');
                    out.push_str(IND);
                }
                out.push_str(&format!("{} :: {}({colons})", m.1, m.0));
                done.insert(lc(&m.0));
            }
            self.edits.push(Edit { span: Span::new(s.span.start, end), text: out });
        }
        for a in arrs {
            if !done.contains(&lc(&a.0)) {
                self.err("XMP0404", a.3, &format!("no declaration of '{}' in this program unit", a.0), "declare it with `type :: name(dims)`");
            }
        }
    }

    /// `allocate(a(l:u, ...), ...)` of allocatable aligned arrays: the runtime creates
    /// and allocates them (their pointers are mapped as for other aligned arrays);
    /// other objects keep an `allocate`. `deallocate(a)` of one → `nullify(a)` (the
    /// runtime's block is not freed).
    pub(super) fn allocate(&mut self, s: &Stmt, k: usize, dealloc: bool, u: &mut Unit) {
        let end = self.stmt_end(s.span.start);
        // A statement the front end could not delimit (found by fuzzing: its end before
        // its keyword) is refused where it is, not sliced backwards.
        let Some(text) = self.src.get(s.span.start + k..end).map(str::to_string) else {
            self.err("XMP0303", s.span, "this `allocate`/`deallocate` statement could not be read", "not understood");
            return;
        };
        // (a `)` before the `(`, found by fuzzing, is not a statement to slice)
        let (Some(open), Some(close)) = (text.find('('), text.rfind(')')) else { return };
        if close < open {
            return;
        }
        let inner = &text[open + 1..close];
        let objs = split_top(inner);
        let mut kept = vec![];
        let mut lines = vec![];
        let mut any = false;
        for o in &objs {
            let name: String = o.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let key = lc(&name);
            let Some((nd, plines)) = u.pending.get(&key).cloned() else {
                kept.push(o.clone());
                continue;
            };
            if dealloc {
                // an allocatable: deallocated as usual, its descriptor freed first
                kept.push(o.clone());
                lines.push(format!("call xmpf_array_free(xmpf_d_{key})"));
                any = true;
                continue;
            }
            any = true;
            let Some(bo) = o.find('(') else {
                self.err("XMP0404", s.span, &format!("allocate of '{name}' without bounds"), "");
                return;
            };
            // the bounds' `)` must follow their `(` (fuzzing found `a),m (n`)
            let Some(bc) = o.rfind(')').filter(|&c| c > bo) else {
                self.err("XMP0404", s.span, &format!("allocate of '{name}': its bounds could not be read"), "not understood");
                return;
            };
            let bounds = split_top(&o[bo + 1..bc]);
            if bounds.len() != nd {
                self.err("XMP0104", s.span, &format!("allocate of '{name}': {} bounds for {nd} dimensions", bounds.len()), "");
                return;
            }
            let (mut dl, mut ex) = (vec![], vec![]);
            for b in &bounds {
                match b.split_once(':') {
                    Some((l, h)) => {
                        dl.push(l.trim().to_string());
                        ex.push(format!("({}) - ({}) + 1", h.trim(), l.trim()));
                    }
                    None => {
                        dl.push("1".into());
                        ex.push(b.trim().to_string());
                    }
                }
            }
            for d in TEMPS {
                u.decls.insert(d.into());
            }
            u.need_cbind = true;
            lines.push(format!("xmpf_dl_{key}(1:{nd}) = {}", self.i8list(&dl)));
            lines.push(format!("xmpf_ex_{key}(1:{nd}) = {}", self.i8list(&ex)));
            lines.extend(plines);
        }
        if !any {
            return;
        }
        // the text before the keyword on its line (the statement may be the action
        // of a one-line `if`, whose span starts at the keyword)
        let ls = self.line_start(s.span.start);
        let before = lc(&self.src[ls..s.span.start + k]).trim().to_string();
        let one_line_if = !before.is_empty() && !before.bytes().all(|b| b.is_ascii_digit());
        if one_line_if && !dealloc {
            self.err("XMP0303", s.span, "allocate/deallocate of an aligned array in a one-line `if`", "use an if block");
            return;
        }
        if !dealloc && kept.iter().any(|o| o.contains('=')) {
            self.err("XMP0304", s.span, "allocate/deallocate options (stat=, source=, ...) with aligned arrays", "not supported yet");
            return;
        }
        if !kept.is_empty() {
            lines.push(format!("{}({})", if dealloc { "deallocate" } else { "allocate" }, kept.join(", ")));
        }
        let mut out = lines[0].clone();
        for l in &lines[1..] {
            out.push_str(&format!("\n{IND}{l}"));
        }
        if one_line_if {
            // `if (c) deallocate(a)` → an if block
            out = format!("then\n{IND}{out}\n{IND}end if");
        }
        self.edits.push(Edit { span: Span::new(s.span.start + k, end), text: out });
    }
}

/// The bounds of an aligned array's dimension in its `allocate`, as source text, when
/// they are known at translation time: a dimension not distributed (not aligned, or
/// aligned with a `*` template dimension) holds the whole declared range plus its
/// shadow widths (`w`: lower, upper, full). `dl`/`up`: declared bounds; `tdim`: the
/// template dimension it is aligned with; `tfmt`: the template's formats. None (the
/// runtime's bounds, `xmpf_array_layout`) for an array stored whole (`whole`:
/// aligned with a cyclic dimension) or allocatable, a full shadow, or an array that
/// no dimension distributes (on a process outside the template's nodes the runtime
/// makes every aligned dimension empty; with a distributed dimension the block is
/// empty either way). With the bounds written out (`p(1:mimax, ...)`) gfortran knows
/// the stride of the next dimension: Himeno's p(i, j +- 1, k) rows are constant
/// offsets from p(i, j, k) (docs/performance.md). `xmpf_array_attach` checks the
/// allocated extents against the layout.
pub(super) fn static_bounds(dl: &str, up: &str, tdim: Option<usize>, tfmt: &[DistFormat], w: Option<(&str, &str, &str)>, whole: bool) -> Option<String> {
    if whole || !tfmt.iter().any(|f| loop_sched::distributes(Some(*f))) {
        return None;
    }
    if let Some(k) = tdim {
        if tfmt.get(k) != Some(&DistFormat::Dup) {
            return None;
        }
    }
    let (lo, hi) = match w {
        None => ("0", "0"),
        Some((_, _, "1")) => return None,
        Some((lo, hi, _)) => (lo.trim(), hi.trim()),
    };
    let p = |s: &str| if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') { s.to_string() } else { format!("({s})") };
    let lb = if lo == "0" { dl.trim().to_string() } else { format!("{} - {}", p(dl.trim()), p(lo)) };
    let ub = if hi == "0" { up.trim().to_string() } else { format!("{} + {}", p(up.trim()), p(hi)) };
    Some(format!("{lb}:{ub}"))
}

pub(super) fn elem_size(t: &str) -> Option<usize> {
    Some(match norm_ty(t).as_str() {
        "integer" | "integer(4)" | "integer*4" | "real" | "real(4)" | "real*4" | "logical" | "logical(4)" => 4,
        "integer(8)" | "integer*8" | "real(8)" | "real*8" | "doubleprecision" | "complex" | "complex(4)" | "complex*8" => 8,
        "complex(8)" | "complex*16" | "doublecomplex" => 16,
        "integer(2)" | "integer*2" => 2,
        "integer(1)" | "integer*1" | "logical(1)" => 1,
        _ => return None,
    })
}

pub(super) fn norm_ty(t: &str) -> String {
    lc(t).replace(' ', "").replace("kind=", "")
}

pub(super) fn type_code(t: &str) -> Option<i32> {
    Some(match norm_ty(t).as_str() {
        "integer" | "integer(4)" | "integer*4" | "logical" | "logical(4)" => 4,
        "integer(8)" | "integer*8" => 6,
        "integer(2)" | "integer*2" => 2,
        "integer(1)" | "integer*1" => 0,
        "real" | "real(4)" | "real*4" => 10,
        "real(8)" | "real*8" | "doubleprecision" => 11,
        "complex" | "complex(4)" | "complex*8" => 13,
        "complex(8)" | "complex*16" | "doublecomplex" => 14,
        _ => return None,
    })
}

/// The file calls a library routine that needs element types (xmp_matmul, xmp_sort_*).
pub(super) fn mentions_typed_library(src: &str) -> bool {
    let b = src.as_bytes();
    [&b"xmp_matmul"[..], &b"xmp_sort_"[..]].iter().any(|k| b.windows(k.len()).any(|w| w.eq_ignore_ascii_case(k)))
}

/// A (possibly continued) Fortran statement as one line: comments dropped (outside
/// strings), free-form `&` continuation marks and fixed-form column-6 marks removed.
pub(super) fn join_continued(stmt: &str, fixed: bool) -> String {
    let mut out = String::new();
    for (k, line) in stmt.split('\n').enumerate() {
        let line = line.trim_end_matches('\r');
        let mut code: &str = if fixed && k > 0 { line.get(6..).unwrap_or("") } else { line };
        if fixed && k > 0 && matches!(line.bytes().next(), Some(b'c' | b'C' | b'*')) {
            continue;
        }
        if let Some(c) = comment_start(code) {
            code = &code[..c];
        }
        let mut code = code.trim();
        if !fixed {
            code = code.strip_suffix('&').unwrap_or(code).trim_end();
            if k > 0 {
                code = code.strip_prefix('&').unwrap_or(code).trim_start();
            }
        }
        if code.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(code);
    }
    out
}
