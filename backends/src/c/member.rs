//! Distributed structure members (Omni's `structure/` tests):
//!
//! ```c
//! struct b { int a[10]; };
//! #pragma xmp align b.a[i] with t[i]     // every `struct b` variable's member `a`
//! #pragma xmp shadow b.a[1]
//! struct b c;                            // c.a is a distributed array
//! ```
//!
//! The directive may name the structure type (its tag or a typedef name) or a
//! variable (`align c.a[i] with t[i]` after `struct b c;`). Each file-scope variable
//! of such a type gets one distributed array per aligned member, named `c.a` in the
//! translator's scopes and `c__a` in generated names (`_XMP_ADDR_c__a`,
//! `_XMP_DESC_c__a`). The member itself stays in the structure, unused: every
//! `c.a[i]`, `c.a[l:n]` (gmove, array), `reflect (c.a)` reads the node's part
//! through the separate pointer. What this does not cover is refused with a located
//! diagnostic: the whole structure used as a value (`s = c`, `f(&c)`: its member
//! would not carry the distributed data), a local variable of such a type, a member
//! aligned inside a function, arrays of / pointers to such structures (`p->a`).

use super::{Site, Tr, Var};
use xmpc_ir::directive::{DirectiveKind, Name, ShadowWidth};
use xmpc_ir::{Expr, ExprKind, Pragma, StorageClass, Symbol, Type, TypeId};

/// An `align`/`shadow` directive naming a member of a structure type.
#[derive(Clone)]
pub(super) struct MemberDir<'a> {
    /// The structure's tag or typedef name, as written.
    pub ty: String,
    pub field: String,
    pub p: &'a Pragma,
    pub name: Name,
    /// `None`: align; `Some`: shadow widths.
    pub shadow: Option<Vec<ShadowWidth>>,
}

impl<'a> Tr<'a> {
    /// The array key of a reference base: `a` → "a", `c.a` → "c.a" (when `c` is the
    /// file-scope variable there: a local of the same name hides it).
    pub(super) fn base_key(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Ident(n) => Some(n.clone()),
            ExprKind::Member { base, field, arrow: false } => {
                let v = base.ident()?;
                let inner = self.scopes.iter().rposition(|s| s.vars.contains_key(v))?;
                (inner == 0).then(|| format!("{v}.{field}"))
            }
            _ => None,
        }
    }

    /// True when `name` is the file-scope structure variable with distributed members
    /// visible here.
    pub(super) fn has_dist_members(&self, name: &str) -> bool {
        self.member_owners.contains(name) && self.scopes.iter().rposition(|s| s.vars.contains_key(name)) == Some(0)
    }

    /// The structure type keys of a type: its tag and the typedef names on the way.
    fn struct_keys(&self, mut ty: TypeId) -> (Vec<String>, Option<TypeId>) {
        let mut keys = vec![];
        for _ in 0..16 {
            match self.unit.types.get(ty) {
                Type::Struct { tag, .. } => {
                    keys.extend(tag.clone());
                    return (keys, Some(ty));
                }
                Type::Basic(b) => {
                    let b = b.strip_prefix("const ").unwrap_or(b).to_string();
                    match self.scopes[0].vars.get(&b) {
                        Some(Var::Typedef(t)) => {
                            keys.push(b);
                            ty = *t;
                        }
                        _ => return (keys, None),
                    }
                }
                _ => return (keys, None),
            }
        }
        (keys, None)
    }

    fn field_type(&self, st: TypeId, field: &str) -> Option<TypeId> {
        match self.unit.types.get(st) {
            Type::Struct { fields, .. } => fields.iter().find(|(n, _)| n == field).map(|(_, t)| *t),
            _ => None,
        }
    }

    /// True when `name` is a structure tag or a typedef of a structure type.
    fn is_struct_type(&self, name: &str) -> bool {
        if self.unit.types.types.iter().any(|t| matches!(t, Type::Struct { tag: Some(g), .. } if g == name)) {
            return true;
        }
        matches!(self.scopes[0].vars.get(name), Some(Var::Typedef(t)) if self.struct_keys(*t).1.is_some())
    }

    /// `align s.a[...] with t[...]` / `shadow s.a[...]` at file scope. An aligned
    /// member of a variable returns its array (created with the file's arrays).
    pub(super) fn member_directive(&mut self, p: &'a Pragma, n: &Name, shadow: Option<&[ShadowWidth]>) -> Option<usize> {
        let (base, field) = n.name.split_once('.')?;
        let (base, field) = (base.to_string(), field.to_string());
        match self.scopes[0].vars.get(&base) {
            Some(Var::Plain(_)) | Some(Var::Dist(_)) => {
                if let Some(w) = shadow {
                    self.shadow(n, w);
                    return None;
                }
                let sym = self.unit.globals.symbols.iter().rev().find(|s| s.name == base && s.sclass != StorageClass::Typedef).cloned()?;
                let at = self.decl_ends.get(&base).copied();
                self.align_member_of(p, n, &sym, &field, at)
            }
            _ if self.is_struct_type(&base) => {
                let dir = MemberDir { ty: base.clone(), field, p, name: n.clone(), shadow: shadow.map(<[_]>::to_vec) };
                // A `shadow` after variables of the type were declared applies to them.
                if let Some(w) = shadow {
                    let vars: Vec<String> = self.struct_vars.iter().filter(|(_, keys)| keys.contains(&base)).map(|(v, _)| v.clone()).collect();
                    for v in vars {
                        let key = Name { name: format!("{v}.{}", dir.field), span: n.span };
                        if self.dist(&key.name).is_some() {
                            self.shadow(&key, w);
                        }
                    }
                }
                self.member_dirs.push(dir);
                None
            }
            _ => {
                self.error(
                    "XMP0103",
                    format!("`{base}` is neither a structure type nor a file-scope structure variable"),
                    n.span,
                    "unknown structure",
                    Some("name the structure's tag or typedef (`align b.a[i] with t[i]`) or a variable declared before".into()),
                );
                None
            }
        }
    }

    /// Aligns the member `field` of the file-scope structure variable `sym`.
    fn align_member_of(&mut self, p: &'a Pragma, n: &Name, sym: &Symbol, field: &str, at: Option<usize>) -> Option<usize> {
        let (var, ty, sclass) = (sym.name.as_str(), sym.ty, sym.sclass);
        let (_, st) = self.struct_keys(ty);
        let fty = st.and_then(|st| self.field_type(st, field));
        let Some(fty) = fty else {
            self.error(
                "XMP0303",
                format!("`{var}` has no member `{field}` (or is not a structure)"),
                n.span,
                "here",
                Some("arrays of structures and pointers to them are not supported".into()),
            );
            return None;
        };
        let Some(at) = at.filter(|_| sclass != StorageClass::Extern) else {
            self.error(
                "XMP0303",
                format!("aligning a member of `{var}` is not supported here"),
                n.span,
                "an `extern` declaration, or one xmpc cannot place",
                Some("define the structure variable in this file".into()),
            );
            return None;
        };
        if !matches!(self.unit.types.get(fty), Type::Array { .. }) {
            self.error("XMP0303", format!("member `{var}.{field}` is not an array"), n.span, "cannot be aligned", None);
            return None;
        }
        let key = Name { name: format!("{var}.{field}"), span: n.span };
        let a = self.align_ty(p, &key, fty, true, Site::After(at))?;
        self.member_owners.insert(var.to_string());
        Some(a)
    }

    /// After a file-scope declaration: each variable of a structure type with
    /// aligned members gets its arrays (and the shadows recorded for the type).
    pub(super) fn member_vars(&mut self, ids: &[usize], end: usize) {
        for &id in ids {
            let s = self.unit.globals.get(id).clone();
            if s.sclass == StorageClass::Typedef {
                continue;
            }
            self.decl_ends.insert(s.name.clone(), end);
            let (keys, st) = self.struct_keys(s.ty);
            if st.is_none() {
                // an array of / pointer to such a structure
                if self.member_dirs.iter().any(|d| self.type_mentions(s.ty, &d.ty)) {
                    self.error(
                        "XMP0303",
                        format!("`{}`: arrays of, or pointers to, structures with distributed members are not supported", s.name),
                        s.span,
                        "here",
                        Some("declare single structure variables".into()),
                    );
                }
                continue;
            }
            let dirs: Vec<MemberDir<'a>> = self.member_dirs.iter().filter(|d| keys.contains(&d.ty)).cloned().collect();
            if dirs.is_empty() {
                continue;
            }
            self.struct_vars.push((s.name.clone(), keys));
            for d in dirs {
                let key = Name { name: format!("{}.{}", s.name, d.field), span: d.name.span };
                match &d.shadow {
                    None => {
                        if let Some(a) = self.align_member_of(d.p, &d.name, &s, &d.field, Some(end)) {
                            self.member_arrays.push((a, d.p));
                        }
                    }
                    Some(w) => {
                        if self.dist(&key.name).is_some() {
                            self.shadow(&key, w);
                        }
                    }
                }
            }
        }
    }

    /// A local declaration of a structure type with aligned members: refused.
    pub(super) fn check_local_struct(&mut self, ids: &[usize]) {
        let Some(f) = self.cur_fn else { return };
        for &id in ids {
            let s = f.symbols.get(id);
            if s.sclass == StorageClass::Typedef {
                continue;
            }
            if let Some(d) = self.member_dirs.iter().find(|d| self.type_mentions(s.ty, &d.ty)) {
                let msg = format!("a local variable of the structure type `{}`, whose member `{}` is distributed, is not supported", d.ty, d.field);
                self.error("XMP0303", msg, s.span, "declared in a function", Some("declare it at file scope".into()));
            }
        }
    }

    /// True when type `ty` is, contains as element, or points to the structure `key`.
    fn type_mentions(&self, mut ty: TypeId, key: &str) -> bool {
        for _ in 0..16 {
            match self.unit.types.get(ty) {
                Type::Array { elem, .. } => ty = *elem,
                Type::Pointer(t) => ty = *t,
                _ => return self.struct_keys(ty).0.iter().any(|k| k == key),
            }
        }
        false
    }

    /// `align`/`shadow` of a member inside a function: refused.
    pub(super) fn refuse_local_member(&mut self, p: &Pragma, n: &Name) {
        let what = if matches!(p.dir.kind, DirectiveKind::Shadow { .. }) { "shadow" } else { "align" };
        self.error(
            "XMP0303",
            format!("`{what}` of the structure member `{}` inside a function is not supported", n.name),
            n.span,
            "inside a function",
            Some("align the member at file scope (`#pragma xmp align b.a[i] with t[i]` after the structure's definition)".into()),
        );
    }
}
