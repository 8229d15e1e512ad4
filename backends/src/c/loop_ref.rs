//! Inside a `loop`: a subscript of an aligned array that is a work-shared index of
//! another template dimension (`xmp_model::loop_ref`) is refused.

use super::{index_offset, Tr};
use xmpc_ir::directive::DistFormat;
use xmpc_ir::Expr;
use xmpc_passes::xmp_model::loop_ref;
use xmpc_passes::xmp_model::symbols::TemplId;

/// A work-shared index of an enclosing `loop`: (variable, template, template dim).
#[derive(Clone)]
pub(super) struct ActiveIndex {
    pub var: String,
    pub templ: TemplId,
    pub tdim: usize,
}

impl<'a> Tr<'a> {
    /// Checks the subscripts `subs` of the distributed array `a` against the indices
    /// of the enclosing `loop` directives; false (after a diagnostic) when one names
    /// an element of another node.
    pub(super) fn check_loop_subscripts(&mut self, a: usize, subs: &[&Expr]) -> bool {
        if self.active_loops.is_empty() {
            return true;
        }
        let ar = &self.arrs[a];
        for (d, s) in subs.iter().enumerate() {
            let Some(ix) = self.active_loops.iter().rev().find(|ix| index_offset(s, &ix.var).is_some()).cloned() else { continue };
            let align = ar.align_dim.get(d).copied().filter(|&k| k >= 0).map(|k| k as usize);
            let fmt_of = |t: TemplId, k: usize| self.tdists(t).as_ref().and_then(|ds| ds.get(k)).copied();
            let distributed = align.and_then(|k| fmt_of(ar.templ, k)).map(|(f, _)| f != DistFormat::Dup).unwrap_or(true);
            if ix.templ != ar.templ {
                // Another template: refused when the two dimensions are known to be
                // distributed differently (the loop's index and the array's owner differ).
                let (Some(k), true) = (align, distributed) else { continue };
                let (Some(lf), Some(af)) = (fmt_of(ix.templ, ix.tdim), fmt_of(ar.templ, k)) else { continue };
                if lf == af || lf.0 == DistFormat::GBlock || af.0 == DistFormat::GBlock {
                    continue;
                }
                let name = ar.name.clone();
                self.error(
                    "XMP0302",
                    format!("subscript {} of `{name}` is the `loop` index `{}`, work-shared over a template distributed otherwise than the one `{name}` is aligned with", d + 1, ix.var),
                    s.span,
                    "names an element of another node",
                    Some(format!("loop on the template `{name}` is aligned with")),
                );
                return false;
            }
            if loop_ref::inconsistent(ix.tdim, align, distributed) {
                let name = ar.name.clone();
                self.error(
                    "XMP0302",
                    format!(
                        "subscript {} of `{name}` is the `loop` index `{}`, which runs over another dimension of the template than the one this dimension of `{name}` is aligned with",
                        d + 1,
                        ix.var
                    ),
                    s.span,
                    "names an element of another node",
                    Some(format!("write the `loop on` subscripts in the order of `{name}`'s alignment (Omni: \"array ref is not consistent with array alignment\")")),
                );
                return false;
            }
        }
        true
    }
}
