//! Types of names a unit does not declare: Fortran's implicit typing (`i`–`n`
//! integer, else real; `implicit <type> (a-h, o-z)` statements; `implicit none`), and
//! the result variable of a function (`integer function f()` declares `f`). Used for
//! the variables of directives (`reduction(max:ierr)` with `ierr` implicit).

use super::{lc, Tr};
use xmpc_ir::implicit::{rule, Rule};
use xmpc_ir::{FuncKind, Function, Item, Stmt, StmtKind, Type};

impl<'a> Tr<'a> {
    fn implicit_texts(&self, body: &[Stmt]) -> Vec<String> {
        body.iter().filter(|s| matches!(s.kind, StmtKind::Verbatim)).map(|s| lc(self.text(s.span))).filter(|t| t.trim_start().starts_with("implicit")).collect()
    }

    /// The result type of the function `key` among the units being translated
    /// (innermost first), when it has a declared type.
    pub(super) fn result_type(&self, key: &str) -> Option<String> {
        let f = self.fns.iter().rev().find(|f| f.kind == FuncKind::Function && lc(&f.name) == key)?;
        match self.unit.types.get(f.ret?) {
            Type::Basic(b) => Some(b.clone()),
            _ => None,
        }
    }

    /// The implicit type of `key` in the unit being translated: its own `implicit`
    /// statements, then its hosts' and module's; None under `implicit none`.
    pub(super) fn implicit_type(&self, key: &str) -> Option<String> {
        let letter = key.bytes().next().filter(u8::is_ascii_alphabetic)?;
        let mut bodies: Vec<&[Stmt]> = self.fns.iter().rev().map(|f| f.body.as_slice()).collect();
        if let Some(outer) = self.fns.first() {
            if let Some(m) = self.module_of(outer) {
                bodies.push(m);
            }
        }
        for b in bodies {
            match rule(&self.implicit_texts(b), letter) {
                Rule::None => return None,
                Rule::Type(t) => return Some(t),
                Rule::Unspecified => {}
            }
        }
        Some(if (b'i'..=b'n').contains(&letter) { "integer" } else { "real" }.to_string())
    }

    /// The specification part of the module holding `f`, if any.
    fn module_of(&self, f: &Function) -> Option<&'a [Stmt]> {
        self.unit.items.iter().find_map(|it| match it {
            Item::Module(m) if m.span.start <= f.span.start && f.span.end <= m.span.end => Some(m.decls.as_slice()),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use xmpc_ir::implicit::{rule, Rule};

    fn ty(texts: &[&str], c: u8) -> Option<String> {
        let v: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
        match rule(&v, c) {
            Rule::Type(t) => Some(t),
            Rule::None => Some("none".into()),
            Rule::Unspecified => None,
        }
    }

    #[test]
    fn implicit_statements() {
        assert_eq!(ty(&["implicit none"], b'i'), Some("none".into()));
        assert_eq!(ty(&["implicit real*8 (a-h, o-z)"], b'x'), Some("real*8".into()));
        assert_eq!(ty(&["implicit real*8 (a-h, o-z)"], b'i'), None);
        assert_eq!(ty(&["implicit real(8) (a-h,o-z), integer (i-n)"], b'k'), Some("integer".into()));
        assert_eq!(ty(&["implicit double precision (d)"], b'd'), Some("double precision".into()));
        assert_eq!(ty(&["integer :: i"], b'i'), None);
    }
}
