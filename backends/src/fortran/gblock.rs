//! The arguments of `xmpf_distribute` (`runtime/lib/xmp/csrc/shim_f.c`) for a
//! distribution list, gblock included:
//! - `gblock(m)` on any number of template dimensions: the mapping arrays are
//!   concatenated into one `integer(8)` array constructor and each gblock dimension
//!   gets the 1-based start of its map in it (`1`, `1 + size(m1)`, ...);
//! - `gblock(*)` (Omni, XMP 1.4 §4.5.1): the mapping array is given later by
//!   `template_fix(gblock(m)) t(...)`; `distribute` then only records the node set and
//!   the formats, and `template_fix` distributes the template after fixing its shape
//!   (the C translator does the same, `xmp_c::mod` `distribute_code`).

use super::{lc, Tr};
use xmpc_ir::directive::{DistFormat, DistList};
use xmpc_ir::{ExprKind, Span, Type};
use xmpc_passes::xmp_model::symbols::TemplId;

/// `xmpf_distribute`'s per-dimension formats and arguments, the concatenated gblock
/// maps and each dimension's start in them (0: not gblock), Fortran text.
pub(super) struct DistArgs {
    pub formats: Vec<String>,
    pub args: Vec<String>,
    pub maps: String,
    pub offsets: Vec<String>,
}

/// True when a dimension is `gblock(*)` (its mapping array comes with `template_fix`).
pub(super) fn deferred(dists: &DistList) -> bool {
    dists.dists.iter().any(|x| x.format == DistFormat::GBlock && x.arg.as_ref().is_none_or(|e| matches!(e.kind, ExprKind::Star)))
}

impl Tr<'_> {
    /// The arguments of `xmpf_distribute` for `dists`. With `deferred_ok`, `gblock(*)`
    /// dimensions are accepted (the caller emits no call); otherwise (`template_fix`)
    /// each gblock dimension needs its mapping array.
    pub(super) fn dist_args(&mut self, dists: &DistList, deferred_ok: bool) -> Option<DistArgs> {
        let (mut formats, mut args, mut maps, mut offsets) = (vec![], vec![], vec![], vec![]);
        let mut next = "1".to_string();
        let mut ok = true;
        for x in &dists.dists {
            let code = match x.format {
                DistFormat::Dup => 0,
                DistFormat::Block => 1,
                DistFormat::Cyclic => 2,
                DistFormat::GBlock => 3,
            };
            formats.push(code.to_string());
            let arg = x.arg.as_ref().filter(|e| !matches!(e.kind, ExprKind::Star));
            if x.format != DistFormat::GBlock {
                offsets.push("0".into());
                args.push(match (x.format, arg) {
                    (DistFormat::Cyclic, None) => "1".into(),
                    (_, Some(e)) => self.ex(e),
                    _ => "0".into(),
                });
                continue;
            }
            args.push("0".into());
            if let Some(ExprKind::Ident(n)) = arg.map(|e| &e.kind) {
                // a scalar declared here or in a host (a name from a module, declared
                // there, is not guessed at: gfortran checks it)
                let key = lc(n);
                let scalar =
                    self.fns.iter().rev().find_map(|f| f.symbols.lookup(&key)).is_some_and(|s| !matches!(self.unit.types.get(s.ty), Type::Array { .. }));
                if scalar {
                    self.err("XMP0303", x.span, &format!("the gblock mapping `{n}` is not an array"), "give an integer array of one block size per node");
                    ok = false;
                    continue;
                }
            }
            match arg {
                Some(e) => {
                    let m = self.ex(e);
                    offsets.push(next.clone());
                    next = format!("{next} + size({m})");
                    maps.push(m);
                }
                None if deferred_ok => offsets.push("0".into()),
                None => {
                    self.err(
                        "XMP0303",
                        x.span,
                        "template_fix: a gblock dimension needs its mapping array",
                        "write gblock(m) with an integer array of one block size per node",
                    );
                    ok = false;
                }
            }
        }
        let maps = if maps.is_empty() { "[integer(8) :: 0]".to_string() } else { format!("[integer(8) :: {}]", maps.join(", ")) };
        ok.then_some(DistArgs { formats, args, maps, offsets })
    }

    /// The `xmpf_distribute` call of template handle `th` onto node set `nh`.
    pub(super) fn distribute_call(&self, th: &str, loc: &str, nh: &str, a: &DistArgs) -> String {
        format!(
            "call xmpf_distribute({th}, {loc}, {nh}, {}, [integer :: {}], {}, {}, [integer :: {}])",
            a.formats.len(),
            a.formats.join(", "),
            self.i8list(&a.args),
            a.maps,
            a.offsets.join(", ")
        )
    }

    /// `template_fix(dists) t(...)`: the distribution that follows the fix (after the
    /// `xmpf_template_fix` call). The formats must be those of the template's
    /// `distribute`, `gblock(*)` standing for `gblock(m)`.
    pub(super) fn template_fix_dist(&mut self, span: Span, t: TemplId, dists: &DistList) -> Option<String> {
        // (the model checked the formats against the template's `distribute`)
        let th = self.th(t);
        let nh = self.tonto(t)?;
        let a = self.dist_args(dists, false)?;
        let loc = self.loc(span, "template_fix");
        Some(self.distribute_call(&th, &loc, &nh, &a))
    }
}
