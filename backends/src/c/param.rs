//! `align` of a function parameter (Omni's align/scope.c, template_fix/arg.c):
//!
//! ```c
//! void mult(int b[N], int f) {
//! #pragma xmp align b[i] with t[i]
//! ...
//! mult(a, 3);          // a: a distributed array aligned the same way
//! ```
//!
//! The caller passes the node's local block of its array (`_XMP_ADDR_a`, or the
//! pointer of a pointer array); the callee describes the parameter again (a new
//! descriptor on the same template) and makes it a view of that block
//! (`xmpc_array_view`, as the Fortran translator does for dummy arguments), so loops,
//! reflect and gmove on the parameter use the caller's data. The descriptor is freed
//! when the function returns. Every call of the function in this file is checked
//! at the end: the argument must be a distributed array with the same template,
//! alignment, extents and shadow, else a located error (never a silent reinterpretation
//! of a plain array as a local block).

use super::{ArrInfo, Site, Tr};
use std::fmt::Write as _;
use xmpc_ir::directive::Name;
use xmpc_ir::{Pragma, TypeId};

/// `_XMP_tub(t, d)`: the upper bound of dimension `d` (1-based, round order) of a
/// template fixed at run time (a parameter aligned with `t[:]` fixed by the caller).
pub(super) const TBOUND_MACRO: &str = "int xmp_template_ubound(void *, int, int *);\n#define _XMP_tub(t, d) ({ int _XMP_u = 0; xmp_template_ubound((void *)(t), (d), &_XMP_u); (long)_XMP_u; })\n";

/// The lines making parameter array `ar` a view of the caller's block.
pub(super) fn view(ar: &ArrInfo, loc: &str, ind: &str) -> String {
    let mut out = String::new();
    let n = ar.ndims;
    let _ = writeln!(out, "{ind}{{");
    let _ = writeln!(out, "{ind}    xmpc_dim _XMP_vd;");
    let _ = writeln!(out, "{ind}    size_t _XMP_vb = sizeof(*{});", ar.storage);
    for d in 0..n {
        let _ = writeln!(out, "{ind}    xmpc_array_dim({}, {d}, &_XMP_vd);", ar.desc);
        let _ = writeln!(out, "{ind}    _XMP_vb *= (size_t)_XMP_vd.alloc;");
    }
    let _ = writeln!(out, "{ind}    {} = xmpc_array_view({loc}, {}, (void *){}, _XMP_vb);", ar.desc, ar.desc, ar.name);
    let _ = writeln!(out, "{ind}}}");
    out
}

impl<'a> Tr<'a> {
    /// A file-scope array aligned inside a function (Omni's array/516.c): created
    /// where the directive is, its layout read from the file statics. Refused when
    /// another function, or this one before the directive, names it (they would
    /// see it before it exists).
    pub(super) fn align_late(&mut self, a: usize, n: &Name) -> bool {
        let Some(f) = self.cur_fn else { return false };
        let mentions = |text: &str| super::words(text).iter().any(|(_, w)| *w == n.name);
        let other = self.unit.functions().into_iter().find(|g| g.span != f.span && mentions(&self.src[g.span.range()]));
        let before = mentions(&self.src[f.span.start..n.span.start.min(f.span.end)]);
        if other.is_some() || before {
            let why = match other {
                Some(g) => format!("`{}` also uses it", g.name),
                None => "it is used before the directive".into(),
            };
            self.error(
                "XMP0303",
                format!("the file-scope array `{}` is aligned inside `{}`, but {why}", n.name, f.name),
                n.span,
                "aligned inside a function",
                Some("align it at file scope".into()),
            );
            return false;
        }
        self.arrs[a].late = true;
        true
    }

    /// `align` of parameter `n` (of type `ty`) of the current function.
    pub(super) fn align_param(&mut self, p: &Pragma, n: &Name, ty: TypeId) -> Option<usize> {
        let f = self.cur_fn?;
        let k = f.params.iter().position(|&id| f.symbols.get(id).name == n.name)?;
        let a = self.align_ty(p, n, ty, false, Site::Param)?;
        self.param_arrays.insert((f.name.clone(), k), a);
        Some(a)
    }

    /// True when `name` is a function defined in this file.
    pub(super) fn defined_here(&self, name: &str) -> bool {
        self.unit.functions().iter().any(|f| f.name == name)
    }

    /// Every argument of a call to this file's functions, against the parameters
    /// aligned in them.
    pub(super) fn check_param_calls(&mut self) {
        for (span, ai, callee, k) in std::mem::take(&mut self.call_args) {
            let pa = self.param_arrays.get(&(callee.clone(), k)).copied();
            match (ai, pa) {
                (Some(ai), None) if !self.arrs[ai].pointer => {
                    let n = self.arrs[ai].name.clone();
                    self.error(
                        "XMP0301",
                        format!("distributed array `{n}` is passed to `{callee}`"),
                        span,
                        "each node holds only its part of this array",
                        Some("align the parameter in the function with the same template (`#pragma xmp align b[i] with t[i]`), pass single elements, or copy a section into a local array with `gmove` first".into()),
                    );
                }
                (Some(_), None) => {}
                (None, None) => {}
                (None, Some(pa)) => {
                    let pn = self.arrs[pa].name.clone();
                    self.error(
                        "XMP0303",
                        format!("parameter `{pn}` of `{callee}` is aligned: the argument must be a distributed array"),
                        span,
                        "not a distributed array",
                        Some("pass an array aligned with the same template in the same way".into()),
                    );
                }
                (Some(ai), Some(pa)) => {
                    if let Some(why) = self.layout_mismatch(ai, pa) {
                        let (an, pn) = (self.arrs[ai].name.clone(), self.arrs[pa].name.clone());
                        self.error(
                            "XMP0303",
                            format!("`{an}` is passed for the aligned parameter `{pn}` of `{callee}`, which is mapped differently ({why})"),
                            span,
                            "layout differs",
                            Some("align the parameter exactly as the argument (same template, subscripts, extents and shadow)".into()),
                        );
                    }
                }
            }
        }
    }

    /// Why array `a` (an argument) and parameter `p` do not share a local layout.
    fn layout_mismatch(&self, a: usize, p: usize) -> Option<&'static str> {
        let (x, y) = (&self.arrs[a], &self.arrs[p]);
        if x.templ != y.templ {
            return Some("another template");
        }
        if x.ndims != y.ndims {
            return Some("another rank");
        }
        if x.align_dim != y.align_dim || x.align_off != y.align_off || x.fmts != y.fmts {
            return Some("another alignment");
        }
        if x.shadow != y.shadow {
            return Some("another shadow");
        }
        // Extents that follow the template (pointer arrays) are not compared.
        let from_template = |e: &str| e.is_empty() || e.contains("_XMP_tub");
        for (d, (ex, ey)) in x.extents.iter().zip(&y.extents).enumerate() {
            if (d > 0 || !x.pointer) && !from_template(ex) && !from_template(ey) && ex != ey {
                return Some("other extents");
            }
        }
        None
    }
}
