//! A distributed array component of a derived type, as Omni's Fortran translator and
//! its `structure/F` tests have it:
//!
//! ```fortran
//!   type b
//!      real(8) :: a(10)
//!   end type b
//! !$xmp align b%a(i) with t(i)
//! !$xmp shadow b%a(1)
//!   type(b) :: c
//! ```
//!
//! `b` is the type: the component `a` of every variable of type `b` of the program
//! unit is distributed. The component becomes `real(8), allocatable :: a(:)`, each
//! variable `c` gets `target` and a runtime array `xmpf_d_c__a` whose local block is
//! allocated as `c%a` with global bounds (so `c%a(i)` keeps its global index, as a
//! plain aligned array), and `c%a` names it in `reflect`, `gmove` and the other
//! directives. Refused with a located error: a type defined elsewhere (a module), a
//! component declared with attributes or beside other entities, a variable of the type
//! that is a dummy, an array, a pointer or allocatable, the type used in another
//! program unit, and the structure used as a whole (`d = c`, `call f(c)`).

use super::arrays::AlignMap;
use super::{elem_size, lc, mentions_typed_library, norm_ty, type_code, Arr, Tr, Unit};
use xmpc_ir::directive::{AlignSrc, DistFormat, Ref, ShadowWidth};
use xmpc_ir::{Edit, Expr, ExprKind, Span, Stmt, StmtKind, SymbolTable, Type};

/// The aligned component's declaration inside its type definition.
struct Comp {
    /// Byte range of the declaration (first non-blank to end, comment excluded).
    at: (usize, usize),
    etxt: String,
    /// Per dimension: lower bound and extent, Fortran text.
    dl: Vec<String>,
    ext: Vec<String>,
}

impl Tr<'_> {
    /// `align b%a(...) with t(...)`: see the module comment.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn member_array(
        &mut self,
        body: &[Stmt],
        syms: &SymbolTable,
        u: &mut Unit,
        name: &str,
        dspan: Span,
        source: &[AlignSrc],
        with: &Ref,
        shadow: Option<&(Span, Vec<ShadowWidth>)>,
    ) {
        let low = lc(name);
        let (tname, comp) = low.split_once('%').unwrap_or((&low, ""));
        let Some(tid) = self.m.name_template(&with.name) else { return };
        let (th, tnd, tfmt) = self.templ_info(tid);
        if syms.lookup(tname).is_some() {
            self.err(
                "XMP0404",
                dspan,
                &format!("`{tname}` is a variable: align the component of its type (`align typename%{comp}(...)`)"),
                "a structure variable",
            );
            return;
        }
        let Some(c) = self.find_component(body, tname, comp, dspan) else {
            return;
        };
        let nd = c.dl.len();
        if source.len() != nd {
            self.err("XMP0104", dspan, &format!("align source has {} subscripts, '{name}' has {nd} dimensions", source.len()), "rank mismatch");
            return;
        }
        let Some(esize) = elem_size(&c.etxt) else {
            self.err("XMP0404", dspan, &format!("aligned component of type {}", c.etxt), "element type not supported");
            return;
        };
        let Some(map) = self.align_map(source, with, tnd, &tfmt, &c.dl) else {
            return;
        };
        let widths = match shadow {
            None => None,
            Some((sspan, ws)) if ws.len() == nd => Some((*sspan, self.shadow_widths(ws))),
            Some((sspan, ws)) => {
                let msg = format!("shadow gives {} widths, '{name}' has {nd} dimensions", ws.len());
                self.err("XMP0104", *sspan, &msg, "rank mismatch");
                return;
            }
        };
        let ty = format!("type({tname})");
        let vars: Vec<&xmpc_ir::Symbol> = syms
            .symbols
            .iter()
            .filter(|s| match self.unit.types.get(s.ty) {
                Type::Basic(t) => norm_ty(t) == ty,
                Type::Array { elem, .. } => {
                    matches!(self.unit.types.get(*elem), Type::Basic(t) if norm_ty(t) == ty)
                }
                _ => false,
            })
            .collect();
        if !self.member_uses_ok(body, &ty, &vars, dspan) {
            return;
        }
        // the component: allocatable, of the local block's bounds
        let colons = vec![":"; nd].join(",");
        self.edits.push(Edit { span: Span::new(c.at.0, c.at.1), text: format!("{}, allocatable :: {comp}({colons})", c.etxt) });
        for v in vars {
            let var = lc(&v.name);
            self.add_target(v.span, &ty);
            let key = format!("{var}%{comp}");
            let h = format!("xmpf_d_{var}__{comp}");
            let loc = self.loc(dspan, "align");
            u.decls.insert(format!("integer(8) :: {h}"));
            u.decls.insert("integer(8) :: xmpf_lb(7), xmpf_ex(7)".into());
            u.decls.insert("type(xmpf_cptr) :: xmpf_cp".into());
            u.need_cbind = true;
            let mut lines = vec![format!(
                "call xmpf_array({h}, {loc}, {th}, {nd}, {esize}, {}, [integer :: {}], {})",
                self.i8list(&c.ext),
                map.adim.join(", "),
                self.i8list(&map.aoff)
            )];
            if mentions_typed_library(self.src) {
                if let Some(code) = type_code(&c.etxt) {
                    lines.push(format!("call xmpf_array_type({h}, {code})"));
                }
            }
            if let Some((sspan, (lo, hi, full))) = &widths {
                let sl = self.loc(*sspan, "shadow");
                lines.push(format!("call xmpf_array_shadow({h}, {sl}, {nd}, {}, {}, [integer :: {}])", self.i8list(lo), self.i8list(hi), full.join(", ")));
            }
            lines.push(format!("xmpf_ex(1:{nd}) = {}", self.i8list(&c.ext)));
            lines.push(format!("call xmpf_array_layout({h}, {loc}, {nd}, {}, xmpf_lb, xmpf_ex)", self.i8list(&c.dl)));
            let bnds: Vec<String> = (1..=nd).map(|k| format!("xmpf_lb({k}):xmpf_lb({k})+xmpf_ex({k})-1")).collect();
            lines.push(format!("allocate({key}({}))", bnds.join(", ")));
            lines.push(format!("call xmpf_array_attach({h}, {loc}, {nd}, xmpf_ex, {key})"));
            u.setup.extend(lines);
            u.frees.push(format!("call xmpf_array_free({h})"));
            let cyc_full = map.cyclic
                && widths.as_ref().is_some_and(|(_, (_, _, full))| {
                    map.talign.iter().zip(full).all(|(ta, f)| !matches!(ta, Some((k, _)) if tfmt.get(*k) == Some(&DistFormat::Cyclic)) || f == "1")
                });
            let arr = Arr {
                handle: h,
                ndims: nd,
                dl: c.dl.clone(),
                ext: c.ext.clone(),
                esize,
                cyclic: map.cyclic,
                cyc_full,
                templ: lc(&with.name.name),
                tid: Some(tid),
                talign: map.talign.clone(),
            };
            u.arrays.insert(key, arr);
        }
    }

    /// The declaration of component `comp` in the definition of type `tname` in `body`.
    fn find_component(&mut self, body: &[Stmt], tname: &str, comp: &str, dspan: Span) -> Option<Comp> {
        let def = body.iter().find(|s| matches!(s.kind, StmtKind::Verbatim) && type_def_name(self.text(s.span)).as_deref() == Some(tname));
        let Some(def) = def else {
            self.err(
                "XMP0404",
                dspan,
                &format!("type `{tname}` of the aligned component is not defined in this program unit"),
                "define the type in the unit that aligns its component (a type of a module is not supported)",
            );
            return None;
        };
        let text = self.text(def.span);
        let mut off = def.span.start;
        for line in text.split_inclusive('\n') {
            let start = off;
            off += line.len();
            let code = line.split('!').next().unwrap_or("").trim_end();
            let lead = code.len() - code.trim_start().len();
            let code_l = lc(code.trim_start());
            let (spec, ents) = match code_l.split_once("::") {
                Some((s, e)) => (s.trim().to_string(), e.trim().to_string()),
                None => match code_l.split_once(' ') {
                    Some((s, e)) if !s.starts_with("type") && !s.starts_with("end") => (s.trim().to_string(), e.trim().to_string()),
                    _ => continue,
                },
            };
            let ents_list = split_top(&ents);
            let Some(ent) = ents_list.iter().find(|e| entity_name(e) == comp) else {
                continue;
            };
            if ents_list.len() != 1 || split_top(&spec).len() != 1 {
                self.err(
                    "XMP0404",
                    dspan,
                    &format!("the aligned component `{comp}` is declared with attributes or beside other components"),
                    "declare it alone, e.g. `real(8) :: a(10)`",
                );
                return None;
            }
            let dims = ent[comp.len()..].trim();
            let inner = dims.strip_prefix('(').and_then(|d| d.strip_suffix(')'));
            let mut dl = vec![];
            let mut ext = vec![];
            for d in inner.map(split_top).unwrap_or_default() {
                let (l, h) = match d.split_once(':') {
                    Some((l, h)) => (l.trim().to_string(), h.trim().to_string()),
                    None => ("1".to_string(), d.trim().to_string()),
                };
                if l.is_empty() || h.is_empty() || h == "*" {
                    dl.clear();
                    break;
                }
                ext.push(if l == "1" { h } else { format!("({h}) - ({l}) + 1") });
                dl.push(l);
            }
            if dl.is_empty() {
                self.err(
                    "XMP0404",
                    dspan,
                    &format!("the aligned component `{comp}` is not an explicit-shape array"),
                    "give its bounds in the type, e.g. `real(8) :: a(10)`",
                );
                return None;
            }
            let s = start + lead;
            let etxt = code.trim_start()[..spec.len()].trim().to_string();
            return Some(Comp { at: (s, start + code.len()), etxt, dl, ext });
        }
        self.err("XMP0404", dspan, &format!("type `{tname}` has no component `{comp}`"), "not a component of the type");
        None
    }

    /// Per array dim, the template dim of its align index (`t(i)`, `t(i + c)`), as
    /// the model decides it for arrays (`xmp_model::decl::align_dims`).
    fn align_map(&mut self, source: &[AlignSrc], with: &Ref, tnd: usize, tfmt: &[DistFormat], dl: &[String]) -> Option<AlignMap> {
        let dims = match xmpc_passes::xmp_model::decl::align_dims(source, with, true) {
            Ok(d) => d,
            Err(e) => {
                let d = e.to_diag(xmpc_ir::Code::AlignIndex, self.unit.file);
                self.diags.push(d);
                return None;
            }
        };
        if dims.iter().any(|a| matches!(a, xmpc_passes::xmp_model::symbols::AlignDim::Aligned { tdim, .. } if *tdim >= tnd)) {
            self.err("XMP0104", with.span, "align target has more subscripts than the template has dimensions", "");
            return None;
        }
        Some(self.align_texts(&dims, dl, tfmt))
    }

    /// Shadow widths: (lower, upper, full) per dim, Fortran text.
    fn shadow_widths(&self, ws: &[ShadowWidth]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut lo, mut hi, mut full) = (vec![], vec![], vec![]);
        for w in ws {
            match w {
                ShadowWidth::Full(_) => {
                    lo.push("0".into());
                    hi.push("0".into());
                    full.push("1".into());
                }
                ShadowWidth::Width(w) => {
                    lo.push(self.ex(&w.lower));
                    hi.push(self.ex(&w.upper));
                    full.push("0".into());
                }
            }
        }
        (lo, hi, full)
    }

    /// Refuses what the translation cannot follow: variables of the type that are
    /// dummies, arrays, pointers or allocatable; the type named outside this unit's
    /// body; a variable used other than through a component (`c%x`).
    fn member_uses_ok(&mut self, body: &[Stmt], ty: &str, vars: &[&xmpc_ir::Symbol], dspan: Span) -> bool {
        for v in vars {
            let bad = match self.unit.types.get(v.ty) {
                Type::Array { .. } => Some("an array"),
                _ if v.sclass == xmpc_ir::StorageClass::Param => Some("a dummy argument"),
                _ if v.attrs.iter().any(|a| a == "pointer" || a == "allocatable") => Some("a pointer or allocatable"),
                _ => None,
            };
            if let Some(what) = bad {
                let msg = format!("`{}` of a type with a distributed component is {what}", v.name);
                self.err("XMP0405", v.span, &msg, "not supported: declare plain scalar variables of the type");
                return false;
            }
        }
        let (Some(first), Some(last)) = (body.first(), body.last()) else {
            return true;
        };
        let (lo, hi) = (first.span.start, last.span.end);
        // the type named in another program unit (a contained procedure, another file unit)
        let src_l = lc(self.src);
        let mut pos = 0;
        while let Some(p) = find_type_ref(&src_l[pos..], ty) {
            let at = pos + p;
            if at < lo || at > hi {
                self.err(
                    "XMP0405",
                    dspan,
                    &format!("{ty} with a distributed component is also used outside this program unit"),
                    "not supported: keep the type and its variables in one program unit",
                );
                return false;
            }
            pos = at + 1;
        }
        // each variable only through its components
        for s in body {
            // a directive's statement (the `do` of a `loop`) is looked at, not the directive
            let span = match &s.kind {
                StmtKind::Pragma(p) => match &p.body {
                    Some(b) => b.span,
                    None => continue,
                },
                _ => s.span,
            };
            let text = lc(self.text(span));
            if text.contains(ty) {
                continue; // a declaration of the type's variables
            }
            let mut off = span.start;
            for line in text.split_inclusive('\n') {
                let start = off;
                off += line.len();
                // comment and directive lines (fixed form: c, *, ! in column 1)
                let fixed_comment = self.fixed && line.starts_with(['c', '*', '!']);
                if fixed_comment || line.trim_start().starts_with('!') {
                    continue;
                }
                for v in vars {
                    if let Some(p) = whole_use(line, &lc(&v.name)) {
                        let at = start + p;
                        let msg = format!("the structure `{}` with a distributed component is used as a whole", v.name);
                        self.err("XMP0405", Span::new(at, at + v.name.len()), &msg, "only its components (`c%a(i)`) may be used");
                        return false;
                    }
                }
            }
        }
        true
    }

    /// `c%a` (a gmove operand) as the name its runtime array is known by; anything
    /// else is refused (located).
    pub(super) fn member_ref(&mut self, e: &Expr) -> Option<String> {
        if let ExprKind::Member { base, field, .. } = &e.kind {
            if let ExprKind::Ident(b) = &base.kind {
                return Some(format!("{b}%{field}"));
            }
        }
        self.err("XMP0303", e.span, "gmove operand must be an array, an array section or an element", "");
        None
    }

    /// `type(b) :: c` → `type(b), target :: c`, `type(b) c` → `type(b), target :: c`
    /// (the runtime keeps the address of `c%a`).
    fn add_target(&mut self, var: Span, ty: &str) {
        let ls = self.line_start(var.start);
        let line = lc(&self.src[ls..var.start]);
        let squeezed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if squeezed.contains("target") {
            return;
        }
        // end of `type ( b )` on the declaration line
        let Some(p) = line.find("type") else { return };
        let Some(close) = line[p..].find(')') else {
            return;
        };
        if !squeezed.starts_with(ty) && !squeezed.contains(ty) {
            return;
        }
        let at = ls + p + close + 1;
        // attributes need `::` (`type(b) c` in fixed form)
        let text = if squeezed.contains("::") { ", target" } else { ", target ::" };
        if self.edits.iter().any(|e| e.span.start == at && e.text == text) {
            return;
        }
        self.edits.push(Edit { span: Span::new(at, at), text: text.into() });
    }
}

/// The name of the type a `type b` / `type :: b` / `type, attr :: b` statement defines.
fn type_def_name(text: &str) -> Option<String> {
    let first = lc(text.lines().next()?.trim());
    let rest = first.strip_prefix("type")?;
    if rest.trim_start().starts_with('(') || !rest.starts_with([' ', ',', ':']) {
        return None;
    }
    let name = match rest.split_once("::") {
        Some((_, n)) => n,
        None => rest,
    };
    let n: String = name.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!n.is_empty()).then_some(n)
}

/// Splits at commas outside parentheses.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (vec![], String::new(), 0i32);
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|x| x.trim().to_string()).collect()
}

fn entity_name(e: &str) -> String {
    e.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// Offset of `type(b)` (blanks allowed) in lower-case `s`.
fn find_type_ref(s: &str, ty: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(p) = s[from..].find("type") {
        let at = from + p;
        let ok_l = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let tail: String = s[at..].chars().filter(|c| !c.is_whitespace()).take(ty.len()).collect();
        if ok_l && tail == ty {
            return Some(at);
        }
        from = at + 4;
    }
    None
}

/// Offset of a use of word `v` in lower-case statement text that is not followed by
/// `%` (a component); comments and directive lines (after a `!`) are not looked at.
/// A string does not continue past its line.
fn whole_use(text: &str, v: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut in_str: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let ch = b[i];
        if let Some(q) = in_str {
            if ch == q || ch == b'\n' {
                in_str = None;
            }
            i += 1;
            continue;
        }
        match ch {
            b'\'' | b'"' => in_str = Some(ch),
            b'!' => {
                // a comment (or a directive line): to the end of the line
                i = text[i..].find('\n').map_or(b.len(), |n| i + n);
                continue;
            }
            // bytes: `i` may be inside a multi-byte character (a fixed-form `C`
            // comment line, a name the parser took as one)
            _ if b[i..].starts_with(v.as_bytes()) => {
                let ok_l = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'%');
                let e = i + v.len();
                let ok_r = e >= b.len() || !(b[e].is_ascii_alphanumeric() || b[e] == b'_');
                if ok_l && ok_r && !text[e..].trim_start().starts_with('%') {
                    return Some(i);
                }
                i = e;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}
