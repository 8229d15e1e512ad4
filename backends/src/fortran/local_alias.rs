//! `!$xmp local_alias la => ga` (Omni's Fortran translator): `la`, declared as an
//! assumed-shape array of `ga`'s type and rank (`integer :: la(0:, 0:)`), names the
//! local section of the aligned array `ga` — the same storage, shadows included.
//!
//! Bounds are Omni's (its local array `0:alloc_size-1` per distributed dimension,
//! `alloc_size` counting both shadows; the declared bounds in the other dimensions):
//! with `shadow a(1)` over a block of 16 elements, `la(0)` and `la(17)` are the
//! shadow elements and `la(1:16)` the node's own. The lower bounds written in `la`'s
//! declaration are ignored, as Omni ignores them.
//!
//! Translation: `la` is redeclared `type, pointer, contiguous :: la(:, ...)` and
//! associated with `ga`'s local block (`la(0:, ...) => ga`) after `ga` is set up: at
//! the end of the unit's setup, or after `ga`'s `allocate` for an allocatable `ga`.
//! Refused (XMP0402/XMP0404/XMP0406/XMP0403, located): an unknown or non-aligned
//! `ga`, an `la` not declared, aligned, not assumed-shape, a coarray, of another type
//! or rank, and a `ga` aligned with a cyclic dimension (xmpc stores such an array
//! whole on every node: there is no compact local section to name).

use super::{find_word, lc, norm_ty, Tr, Unit, View};
use xmpc_ir::directive::{DirectiveKind, DistFormat, Name};
use xmpc_ir::{Directive, StmtKind, Type};

impl<'a> Tr<'a> {
    /// Applies the `local_alias` directives among `late` (the unit's `save_desc` and
    /// `local_alias` directives), once the unit's aligned arrays are set up.
    pub(super) fn local_aliases(&mut self, late: &[&Directive], f: &View<'a>, u: &mut Unit) {
        for d in late {
            if let DirectiveKind::LocalAlias { local, global } = &d.kind {
                self.local_alias(d, local, global, f, u);
            }
        }
    }

    fn local_alias(&mut self, d: &Directive, local: &Name, global: &Name, f: &View<'a>, u: &mut Unit) {
        let (lkey, gkey) = (lc(&local.name), lc(&global.name));
        let Some(arr) = u.arrays.get(&gkey).cloned() else {
            let (code, msg) = if f.symbols.lookup(&gkey).is_some() {
                ("XMP0109", format!("global array '{}' of local_alias is not aligned", global.name))
            } else {
                ("XMP0103", format!("global array '{}' of local_alias is not declared", global.name))
            };
            self.err(code, global.span, &msg, "local_alias needs an array aligned by an align directive of this unit");
            return;
        };
        if arr.cyclic {
            self.err(
                "XMP0303",
                global.span,
                &format!("local_alias of '{}', aligned with a cyclic template dimension", global.name),
                "not supported: xmpc keeps such an array whole on every node",
            );
            return;
        }
        if u.arrays.contains_key(&lkey) {
            self.err("XMP0404", local.span, &format!("local alias '{}' is aligned", local.name), "the local alias must be a plain array");
            return;
        }
        if self.declared_as_coarray(f, &lkey) {
            self.err("XMP0303", local.span, &format!("local alias '{}' is a coarray", local.name), "not supported");
            return;
        }
        let Some(sym) = f.symbols.lookup(&lkey) else {
            self.err(
                "XMP0103",
                local.span,
                &format!("local alias '{}' is not declared", local.name),
                "declare it as an assumed-shape array, e.g. `real(8) :: la(0:)`",
            );
            return;
        };
        let Type::Array { elem, dims } = self.unit.types.get(sym.ty) else {
            self.err(
                "XMP0404",
                local.span,
                &format!("local alias '{}' is not an array", local.name),
                "declare it as an assumed-shape array, e.g. `real(8) :: la(0:)`",
            );
            return;
        };
        let plain =
            !sym.attrs.iter().any(|a| matches!(a.as_str(), "allocatable" | "pointer" | "save" | "target")) && sym.sclass != xmpc_ir::StorageClass::Param;
        if !plain || !dims.iter().all(|x| x.deferred && x.upper.is_none()) {
            self.err(
                "XMP0404",
                local.span,
                &format!("local alias '{}' must be declared as an assumed-shape array", local.name),
                "declare it `type :: la(:)` or `type :: la(0:)`, without allocatable, pointer, save or target, not a dummy",
            );
            return;
        }
        if dims.len() != arr.ndims {
            self.err(
                "XMP0104",
                d.span,
                &format!("local alias '{}' has rank {}, '{}' has rank {}", local.name, dims.len(), global.name, arr.ndims),
                "rank mismatch",
            );
            return;
        }
        let ety = |me: &Self, t| match me.unit.types.get(t) {
            Type::Basic(s) => Some(norm_ty(s)),
            _ => None,
        };
        let gsym = f.symbols.lookup(&gkey);
        let gty = gsym.and_then(|g| match self.unit.types.get(g.ty) {
            Type::Array { elem, .. } => ety(self, *elem),
            _ => None,
        });
        let lty = ety(self, *elem);
        let (Some(lty), Some(gty)) = (lty, gty) else {
            self.err("XMP0404", local.span, &format!("local alias '{}': element type not supported", local.name), "");
            return;
        };
        if lty != gty {
            self.err(
                "XMP0404",
                d.span,
                &format!("element type of local alias '{}' ({lty}) differs from '{}' ({gty})", local.name, global.name),
                "type mismatch",
            );
            return;
        }
        // Omni's lower bounds: 0 in distributed dims, the declared ones elsewhere
        let tfmt = arr.tid.map(|t| self.tfmts(t)).unwrap_or_default();
        let lbs: Vec<String> = arr
            .talign
            .iter()
            .enumerate()
            .map(|(k, ta)| match ta {
                Some((td, _)) if tfmt.get(*td).is_some_and(|f| *f != DistFormat::Dup) => "0:".to_string(),
                _ => format!("lbound({}, {}):", global.name, k + 1),
            })
            .collect();
        let assoc = format!("{}({}) => {}", local.name, lbs.join(", "), global.name);
        match u.pending.get_mut(&gkey) {
            // an allocatable: associated at its `allocate`
            Some((_, lines)) => lines.push(assoc),
            None => u.setup.push(assoc),
        }
        let etxt = match self.unit.types.get(*elem) {
            Type::Basic(s) => s.clone(),
            _ => unreachable!("checked above"),
        };
        u.redecl.push((local.name.clone(), format!("{etxt}, pointer, contiguous"), dims.len(), local.span));
    }

    /// `key` is declared with a codimension (`x(:)[*]`, `codimension`): a
    /// declaration statement naming it, followed by `[` after its dimensions.
    fn declared_as_coarray(&self, f: &View<'a>, key: &str) -> bool {
        f.body.iter().any(|s| {
            if !matches!(s.kind, StmtKind::Decl(_) | StmtKind::Verbatim) {
                return false;
            }
            let t = lc(self.text(s.span));
            let Some(dc) = t.find("::") else { return false };
            let Some(at) = find_word(&t, key, dc) else {
                return false;
            };
            let rest = t[at + key.len()..].trim_start();
            let rest = match rest.strip_prefix('(') {
                Some(r) => r.split_once(')').map_or("", |x| x.1).trim_start(),
                None => rest,
            };
            rest.starts_with('[') || t[..dc].contains("codimension")
        })
    }
}
