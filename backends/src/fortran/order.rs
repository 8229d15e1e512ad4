//! Statement order Omni accepts and gfortran does not: a `use` statement after
//! `implicit none`, `private`, `include` or declarations of the same unit. Omni's
//! front end re-emits the specification part in canonical order; here each such `use`
//! line moves before the unit's first other specification statement.
//!
//! Also the visibility of the names a module's translation adds (its init procedure
//! `xmpf_modinit_<m>`, node set, template and array handles), which the units that
//! use it call and name: public in a module whose default is `private`, and added to
//! the `only:` list of a `use m, only: ...`.

use super::names::{nodes_handle, templ_handle};
use super::{lc, Tr, Unit};
use xmpc_ir::{Edit, Span, Stmt, StmtKind};
use xmpc_passes::xmp_model::symbols::Entity;
use xmpc_passes::xmp_model::Model;

/// The names of a translated module that its users need.
pub(super) fn module_exports(key: &str, u: &Unit, m: &Model) -> Vec<String> {
    let mut v = vec![format!("xmpf_modinit_{key}")];
    let objects = m.module(key).map(|s| s.names.values().copied().collect::<Vec<_>>()).unwrap_or_default();
    let mut h: Vec<String> = objects
        .into_iter()
        .filter_map(|e| match e {
            Entity::Nodes(n) => Some(nodes_handle(m, n)),
            Entity::Template(t) => Some(templ_handle(m, t)),
            _ => None,
        })
        .chain(u.arrays.values().map(|a| a.handle.clone()))
        .filter(|n| n.starts_with("xmpf_") && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    h.sort();
    h.dedup();
    v.extend(h);
    v
}

/// True when a module's specification part makes `private` the default.
pub(super) fn default_private(tr: &Tr, body: &[Stmt]) -> bool {
    body.iter().any(|s| {
        matches!(s.kind, StmtKind::Verbatim) && {
            let t = lc(tr.text(s.span));
            let code = t.split('!').next().unwrap_or("").trim();
            code == "private"
        }
    })
}

/// The module name and whether the statement has an `only:` list.
fn use_target(text: &str) -> (String, bool) {
    let t = lc(text.trim_start());
    let rest = t.strip_prefix("use").unwrap_or("");
    let rest = match rest.find("::") {
        Some(k) => &rest[k + 2..],
        None => rest,
    };
    let name: String = rest.trim_start_matches([' ', '\t', ',']).chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let only = rest.replace([' ', '\t', '&', '\n'], "").contains(",only:");
    (name, only)
}

/// True for a `use` statement (`use m`, `use, intrinsic :: m`, `use :: m`).
fn is_use(text: &str) -> bool {
    let t = lc(text.trim_start());
    t.strip_prefix("use").is_some_and(|r| r.starts_with([' ', '\t', ',', ':']))
}

impl<'a> Tr<'a> {
    /// Moves the `use` statements of `body` (a unit's statements) that follow another
    /// statement before the first such statement. Call after the unit's other edits
    /// at its start (the main program's header) so the moved lines come after them.
    pub(super) fn hoist_uses(&mut self, body: &[Stmt]) {
        let mut first_other: Option<usize> = None;
        let mut moved = String::new();
        for s in body {
            if matches!(s.kind, StmtKind::Pragma(_)) {
                continue;
            }
            let text = self.text(s.span);
            if matches!(s.kind, StmtKind::Verbatim) && is_use(text) {
                let ls = self.line_start(s.span.start);
                let end = self.stmt_end(s.span.start);
                // `use m, only: x`: the names of m's translation too
                let (m, only) = use_target(text);
                let extra: String = match self.mods.get(&m) {
                    Some(mu) if only => module_exports(&m, mu, &self.m).iter().map(|n| format!(", {n}")).collect(),
                    _ => String::new(),
                };
                // before a trailing comment of the last line
                let last = self.line_start(end);
                let code_end = super::comment_start(&self.src[last..end]).map_or(end, |k| last + k);
                let code_end = last + self.src[last..code_end].trim_end().len();
                // only a statement alone on its line(s) moves
                if first_other.is_some() && self.src[ls..s.span.start].trim().is_empty() {
                    moved.push_str(&self.src[ls..code_end]);
                    moved.push_str(&extra);
                    moved.push_str(&self.src[code_end..end]);
                    moved.push('\n');
                    self.edits.push(Edit { span: Span::new(ls, end), text: String::new() });
                } else if !extra.is_empty() {
                    self.edits.push(Edit { span: Span::new(code_end, code_end), text: extra });
                }
            } else if first_other.is_none() {
                first_other = Some(self.line_start(s.span.start));
            }
        }
        if let (Some(at), false) = (first_other, moved.is_empty()) {
            self.edits.push(Edit { span: Span::new(at, at), text: moved });
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn use_statements() {
        assert!(super::is_use("  use mpi"));
        assert!(super::is_use("USE, intrinsic :: iso_c_binding"));
        assert!(super::is_use("use::m"));
        assert!(!super::is_use("user = 1"));
        assert!(!super::is_use("used(1) = 2"));
        assert_eq!(super::use_target("use m1, only: a"), ("m1".into(), true));
        assert_eq!(super::use_target("use, intrinsic :: iso_c_binding"), ("iso_c_binding".into(), false));
        assert_eq!(super::use_target("USE M2 , ONLY : x"), ("m2".into(), true));
    }
}
