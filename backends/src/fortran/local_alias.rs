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
//! A coarray alias (`integer :: la(0:, 0:)[*]`, Omni's `align/F/local_alias*`) is
//! redeclared `allocatable, codimension[:]` and allocated over `ga`'s local block
//! (`xmpf_caf_adopt` before its `allocate`: xmpc's libcaf makes the coarray's window on
//! that memory), so `la(i, j)[k]` reads and writes node k's block of `ga`.
//! Refused (XMP0402/XMP0404/XMP0406/XMP0403, located): an unknown or non-aligned
//! `ga`, an `la` not declared, aligned, not assumed-shape, of another type
//! or rank, and a `ga` aligned with a cyclic dimension (xmpc stores such an array
//! whole on every node: there is no compact local section to name).

use super::{find_word, lc, norm_ty, split_top, Tr, Unit, View};
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
        let coarray = self.declared_as_coarray(f, &lkey);
        if coarray && !self.own_libcaf {
            self.err(
                "XMP0450",
                local.span,
                &format!("local alias '{}' is a coarray, with OpenCoarrays (XMPC_CAF=opencoarrays or XMPC_CAF_LIBS)", local.name),
                "a coarray over an aligned array's block needs xmpc's libcaf (unset XMPC_CAF)",
            );
            return;
        }
        if coarray {
            return self.coarray_alias(local, global, f, u, &arr);
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
        let lbs = self.alias_lower_bounds(&arr, &global.name);
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

    /// Omni's lower bounds of a local alias of `arr` (`g`): `0:` in distributed
    /// dimensions, `lbound(g, k):` elsewhere.
    fn alias_lower_bounds(&self, arr: &super::Arr, g: &str) -> Vec<String> {
        let tfmt = arr.tid.map(|t| self.tfmts(t)).unwrap_or_default();
        arr.talign
            .iter()
            .enumerate()
            .map(|(k, ta)| match ta {
                Some((td, _)) if tfmt.get(*td).is_some_and(|f| *f != DistFormat::Dup) => "0:".to_string(),
                _ => format!("lbound({g}, {}):", k + 1),
            })
            .collect()
    }

    /// A coarray alias (`integer :: la(0:, 0:)[*]`): Omni gives it `ga`'s element type
    /// and rank (the declared ones are not checked, as Omni replaces them). Its
    /// declaration statement (which must declare only it) becomes `type, allocatable,
    /// codimension[:] :: la(:, ...)`, and it is allocated over `ga`'s local block (the
    /// runtime's libcaf makes its window there, `xmpf_caf_adopt`), collectively as
    /// any coarray, where `ga` is set up.
    fn coarray_alias(&mut self, local: &Name, global: &Name, f: &View<'a>, u: &mut Unit, arr: &super::Arr) {
        let g = &global.name;
        let Some(decl) = self.coarray_decl(f, &lc(&local.name)) else { return };
        let Some(etxt) = f.symbols.lookup(&lc(g)).and_then(|s| match self.unit.types.get(s.ty) {
            Type::Array { elem, .. } => match self.unit.types.get(*elem) {
                Type::Basic(b) => Some(b.clone()),
                _ => None,
            },
            _ => None,
        }) else {
            self.err("XMP0404", local.span, &format!("local alias '{}': element type of '{g}' not supported", local.name), "");
            return;
        };
        let end = self.stmt_end(decl.start);
        let text = lc(&self.src[decl.start..end]);
        let ents = text.split_once("::").map_or("", |x| x.1);
        if split_top(ents).len() != 1 {
            self.err(
                "XMP0404",
                decl,
                &format!("cannot rewrite the declaration of the coarray local alias '{}'", local.name),
                "declare the alias alone in its statement: `integer :: la(0:, 0:)[*]`",
            );
            return;
        }
        let colons = vec![":"; arr.ndims].join(",");
        self.edits.push(xmpc_ir::Edit {
            span: xmpc_ir::Span::new(decl.start, end),
            text: format!("{etxt}, allocatable, codimension[:] :: {}({colons})", local.name),
        });
        let bounds: Vec<String> = self
            .alias_lower_bounds(arr, g)
            .iter()
            .enumerate()
            .map(|(k, l)| if l == "0:" { format!("0:size({g}, {})-1", k + 1) } else { format!("lbound({g}, {0}):ubound({g}, {0})", k + 1) })
            .collect();
        let lines = [
            format!("call xmpf_caf_adopt({g}, int(storage_size({g}) / 8, 8) * int(size({g}), 8))"),
            format!("allocate({}({})[*])", local.name, bounds.join(", ")),
        ];
        match u.pending.get_mut(&lc(g)) {
            Some((_, l)) => l.extend(lines),
            None => u.setup.extend(lines),
        }
    }

    /// `key` is declared with a codimension (`x(:)[*]`, `codimension`): a
    /// declaration statement naming it, followed by `[` after its dimensions.
    fn declared_as_coarray(&self, f: &View<'a>, key: &str) -> bool {
        self.coarray_decl(f, key).is_some()
    }

    /// The statement declaring `key` with a codimension.
    fn coarray_decl(&self, f: &View<'a>, key: &str) -> Option<xmpc_ir::Span> {
        f.body
            .iter()
            .find(|s| {
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
            .map(|s| s.span)
    }
}
