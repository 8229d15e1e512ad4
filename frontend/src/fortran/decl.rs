//! Declarations: types, attributes, COMMON, PARAMETER, DIMENSION, and the symbol
//! table updates they make.

use super::expr::lower_name;
use super::lower::Lower;
use tree_sitter::Node;
use xmpc_ir::implicit;
use xmpc_ir::{Dim, Expr, Span, StorageClass, Symbol, SymbolId, Type, TypeId};

impl<'a> Lower<'a> {
    /// The implicit type of `name`: the `implicit` statements of its unit, then of
    /// its hosts; else the default (i-n integer, else real; also under `implicit
    /// none`, where every name is declared anyway).
    pub(super) fn implicit(&mut self, name: &str) -> TypeId {
        let c = name.bytes().next().unwrap_or(b'a').to_ascii_lowercase();
        for texts in self.implicit_texts.iter().rev() {
            match implicit::rule(texts, c) {
                implicit::Rule::Type(t) => return self.basic(&norm_text(&t)),
                implicit::Rule::None => break,
                implicit::Rule::Unspecified => {}
            }
        }
        self.basic(if (b'i'..=b'n').contains(&c) { "integer" } else { "real" })
    }

    /// The lower-case texts of the `implicit` statements among a unit's children.
    pub(super) fn implicit_statements(&self, nodes: &[Node<'a>]) -> Vec<String> {
        nodes
            .iter()
            .map(|n| self.text(*n).trim_start().to_ascii_lowercase())
            .filter(|t| t.starts_with("implicit") && t[8..].starts_with(|c: char| c.is_whitespace() || c.is_ascii_alphabetic()))
            .collect()
    }

    pub(super) fn type_of(&mut self, t: Node<'a>) -> TypeId {
        let s = norm_text(self.text(t));
        self.basic(&s)
    }

    /// Adds or updates a symbol of the current scope.
    fn declare(&mut self, name: &str, span: Span, info: SymInfo) -> SymbolId {
        let SymInfo { ty, dims, attrs, init, class } = info;
        let idx = self.scope.symbols.iter().position(|s| s.name == name);
        let idx = match idx {
            Some(i) => i,
            None => {
                let t = self.implicit(name);
                self.scope.add(Symbol { name: name.to_string(), ty: t, span, sclass: self.class, attrs: vec![], init: None })
            }
        };
        // Element type and dims: keep what is known, replace what is given.
        let old = self.scope.symbols[idx].ty;
        let (old_elem, old_dims) = match self.types.get(old) {
            Type::Array { elem, dims } => (*elem, Some(dims.clone())),
            _ => (old, None),
        };
        let elem = ty.unwrap_or(old_elem);
        let dims = dims.or(old_dims);
        let new_ty = match dims {
            Some(d) => self.types.intern(Type::Array { elem, dims: d }),
            None => elem,
        };
        let s = &mut self.scope.symbols[idx];
        s.ty = new_ty;
        for a in attrs {
            if !s.attrs.contains(a) {
                s.attrs.push(a.clone());
            }
        }
        if init.is_some() {
            s.init = init;
        }
        if let Some(c) = class {
            if s.sclass != StorageClass::Param {
                s.sclass = c;
            }
        }
        idx
    }

    fn dims(&mut self, list: Node<'a>) -> Vec<Dim> {
        self.named(list).into_iter().map(|d| self.dim(d)).collect()
    }

    fn dim(&mut self, d: Node<'a>) -> Dim {
        match d.kind() {
            "assumed_size" => Dim { lower: None, upper: None, deferred: true },
            "extent_specifier" => {
                let mut lower = None;
                let mut upper = None;
                let mut deferred = false;
                let mut after = false;
                for c in self.kids(d) {
                    if c.kind() == ":" {
                        after = true;
                    } else if c.kind() == "assumed_size" {
                        deferred = true;
                    } else if c.is_named() && c.kind() != "comment" {
                        let e = self.expr(c);
                        if after {
                            upper = Some(e);
                        } else {
                            lower = Some(e);
                        }
                    }
                }
                if upper.is_none() {
                    deferred = true;
                }
                Dim { lower, upper, deferred }
            }
            _ => Dim { lower: None, upper: Some(self.expr(d)), deferred: false },
        }
    }

    /// A declarator: name node, dims node, initial value.
    fn declarator(&mut self, d: Node<'a>) -> Option<(Node<'a>, Option<Node<'a>>, Option<Node<'a>>)> {
        match d.kind() {
            "identifier" => Some((d, None, None)),
            "sized_declarator" => {
                let v = self.named(d);
                let name = v.iter().copied().find(|c| c.kind() == "identifier")?;
                Some((name, v.iter().copied().find(|c| c.kind() == "size"), None))
            }
            "init_declarator" | "pointer_init_declarator" => {
                let v = self.named(d);
                let l = d.child_by_field_id(self.f.left).or_else(|| v.first().copied())?;
                let r = d.child_by_field_id(self.f.right).or_else(|| v.get(1).copied());
                let (n, s, _) = self.declarator(l)?;
                Some((n, s, r))
            }
            _ => None,
        }
    }

    pub(super) fn decl(&mut self, k: Node<'a>) -> Vec<SymbolId> {
        let mut ids = Vec::new();
        match k.kind() {
            "variable_declaration" | "variable_modification" => {
                let mut c = k.walk();
                let ty = k.child_by_field_id(self.f.type_).map(|t| self.type_of(t));
                let quals: Vec<Node> = if k.kind() == "variable_declaration" {
                    k.children_by_field_name("attribute", &mut c).collect()
                } else {
                    self.named(k).into_iter().filter(|n| n.kind() == "type_qualifier").collect()
                };
                let mut attrs = Vec::new();
                let mut attr_dims = None;
                for q in quals {
                    let t = norm_text(self.text(q));
                    if t.starts_with("dimension") {
                        attr_dims = self.named(q).into_iter().find(|n| n.kind() == "argument_list").map(|a| self.dims(a));
                    } else {
                        attrs.push(t);
                    }
                }
                let decls: Vec<Node> = {
                    let mut c = k.walk();
                    k.children_by_field_name("declarator", &mut c).collect()
                };
                for d in decls {
                    let Some((name, size, init)) = self.declarator(d) else { continue };
                    let dims = size.map(|s| self.dims(s)).or_else(|| attr_dims.clone());
                    let init = init.map(|i| self.expr(i));
                    let nm = lower_name(self.text(name));
                    let sp = self.span(name);
                    ids.push(self.declare(&nm, sp, SymInfo { ty, dims, attrs: &attrs, init, class: None }));
                }
            }
            "common_statement" => {
                let mut block = String::new();
                let mut flat = Vec::new();
                for c in self.kids(k) {
                    if c.kind() == "variable_group" {
                        flat.extend(self.kids(c));
                    } else {
                        flat.push(c);
                    }
                }
                for c in flat {
                    match c.kind() {
                        "name" => {
                            block = lower_name(self.text(c));
                            if self.globals.lookup(&block).is_none() {
                                let ty = self.basic("common");
                                let s = Symbol { name: block.clone(), ty, span: self.span(c), sclass: StorageClass::Common, attrs: vec![], init: None };
                                self.globals.add(s);
                            }
                        }
                        "identifier" | "sized_declarator" => {
                            let Some((name, size, _)) = self.declarator(c) else { continue };
                            let dims = size.map(|s| self.dims(s));
                            let nm = lower_name(self.text(name));
                            let sp = self.span(name);
                            let attr = format!("common /{block}/");
                            let info = SymInfo { ty: None, dims, attrs: &[attr], init: None, class: Some(StorageClass::Common) };
                            ids.push(self.declare(&nm, sp, info));
                        }
                        _ => {}
                    }
                }
            }
            "parameter_statement" => {
                for pa in self.named(k).into_iter().filter(|n| n.kind() == "parameter_assignment") {
                    let v = self.named(pa);
                    if v.len() < 2 {
                        continue;
                    }
                    let nm = lower_name(self.text(v[0]));
                    let sp = self.span(v[0]);
                    let init = self.expr(v[1]);
                    let info = SymInfo { ty: None, dims: None, attrs: &["parameter".to_string()], init: Some(init), class: None };
                    ids.push(self.declare(&nm, sp, info));
                }
            }
            _ => {}
        }
        ids
    }
}

/// What a declaration says about one name (`None`: unchanged).
struct SymInfo<'x> {
    ty: Option<TypeId>,
    dims: Option<Vec<Dim>>,
    attrs: &'x [String],
    init: Option<Expr>,
    class: Option<StorageClass>,
}

/// Lower case, runs of blanks collapsed, blanks next to punctuation removed.
pub fn norm_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut blank = false;
    for c in s.chars() {
        if c.is_whitespace() || c == '&' {
            blank = true;
            continue;
        }
        if blank {
            let prev = out.chars().last();
            if prev.is_some_and(|p| p.is_alphanumeric() || p == '_') && (c.is_alphanumeric() || c == '_') {
                out.push(' ');
            }
            blank = false;
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
