//! Name scopes of the resolver: C file/function/block scopes, Fortran program units
//! (with host association for `contains` procedures) and modules. Fortran names are
//! compared case-insensitively: keys are lower-cased there.

use super::symbols::{Entity, SymTable};
use std::collections::HashMap;

#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub names: HashMap<String, Entity>,
    /// The host variables declared here (or imported from a module of this file): the
    /// symbol table that declares each and its index there.
    pub vars: HashMap<String, (SymTable, usize)>,
    /// Imports names this file cannot see (a Fortran `use` of another file's module
    /// that has no description, an `include`): "not declared" is not reported.
    pub opaque: bool,
}

#[derive(Debug)]
pub struct Scopes {
    stack: Vec<Scope>,
    pub fortran: bool,
}

impl Scopes {
    pub fn new(fortran: bool) -> Self {
        Scopes { stack: vec![Scope::default()], fortran }
    }

    pub fn key(&self, name: &str) -> String {
        if self.fortran {
            name.to_ascii_lowercase()
        } else {
            name.to_string()
        }
    }

    pub fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    pub fn pop(&mut self) -> Scope {
        debug_assert!(self.stack.len() > 1, "the file scope is never popped");
        self.stack.pop().unwrap_or_default()
    }

    /// Binds `name` in the innermost scope.
    pub fn bind(&mut self, name: &str, e: Entity) {
        let k = self.key(name);
        self.top().names.insert(k, e);
    }

    /// Binds `name` in the scope where it is visible now (the innermost that binds it),
    /// or the innermost scope: `align` of an outer array makes that array distributed
    /// where it is declared.
    pub fn rebind(&mut self, name: &str, e: Entity) {
        let k = self.key(name);
        match self.stack.iter_mut().rev().find(|s| s.names.contains_key(&k)) {
            Some(s) => {
                s.names.insert(k, e);
            }
            None => {
                self.top().names.insert(k, e);
            }
        }
    }

    /// Binds a host variable declared in `table` at index `k`.
    pub fn bind_var(&mut self, name: &str, table: SymTable, k: usize) {
        let key = self.key(name);
        let top = self.top();
        top.names.insert(key.clone(), Entity::Host);
        top.vars.insert(key, (table, k));
    }

    /// The declaration of the host variable `name` visible here (`None`: an XMP object,
    /// or not declared in this file).
    pub fn var(&self, name: &str) -> Option<(SymTable, usize)> {
        let k = self.key(name);
        let s = self.stack.iter().rev().find(|s| s.names.contains_key(&k) || s.vars.contains_key(&k))?;
        match s.names.get(&k) {
            Some(Entity::Host) | None => s.vars.get(&k).copied(),
            Some(_) => None,
        }
    }

    pub fn lookup(&self, name: &str) -> Option<Entity> {
        let k = self.key(name);
        self.stack.iter().rev().find_map(|s| s.names.get(&k).copied())
    }

    /// True when a name not found may come from an import this file cannot see.
    pub fn opaque(&self) -> bool {
        self.stack.iter().any(|s| s.opaque)
    }

    pub fn set_opaque(&mut self) {
        self.top().opaque = true;
    }

    /// Adds the bindings of `s` (a used module) to the innermost scope.
    pub fn import(&mut self, s: &Scope) {
        let top = self.top();
        top.names.extend(s.names.iter().map(|(k, v)| (k.clone(), *v)));
        top.vars.extend(s.vars.iter().map(|(k, v)| (k.clone(), *v)));
        top.opaque |= s.opaque;
    }

    /// Every visible name bound to an entity `keep` accepts (for "did you mean").
    pub fn visible(&self, keep: &dyn Fn(Entity) -> bool) -> Vec<(String, Entity)> {
        let mut seen: HashMap<&str, Entity> = HashMap::new();
        for s in self.stack.iter().rev() {
            for (k, v) in &s.names {
                seen.entry(k).or_insert(*v);
            }
        }
        let mut v: Vec<(String, Entity)> = seen.into_iter().filter(|(_, e)| keep(*e)).map(|(k, e)| (k.to_string(), e)).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    fn top(&mut self) -> &mut Scope {
        self.stack.last_mut().expect("the file scope")
    }
}
