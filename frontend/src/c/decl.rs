//! Declarations: specifiers, declarators, the type table and symbols.

use super::lower::{Lower, MAX_DEPTH};
use super::tree::{kids, named, span};
use tree_sitter::Node;
use xmpc_ir::{Dim, Expr, StorageClass, Symbol, SymbolId, SymbolTable, Type, TypeId};

/// What the declaration specifiers say.
pub(super) struct Spec {
    pub base: TypeId,
    /// As written (`None`: no storage class).
    pub sclass: Option<StorageClass>,
    /// Qualifiers and other specifiers as written (`const`, `volatile`, `inline`).
    pub attrs: Vec<String>,
    /// Enumerators declared by an `enum {...}` in the specifiers.
    pub enumerators: Vec<SymbolId>,
}

/// Type spelling with single spaces.
pub(super) fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Lower<'_> {
    pub fn basic(&mut self, name: &str) -> TypeId {
        if let Some(&t) = self.basic.get(name) {
            return t;
        }
        let t = self.types.intern(Type::Basic(name.to_string()));
        self.basic.insert(name.to_string(), t);
        t
    }

    /// `t` with the `_Complex` written right after (or before) the type node `k`: the
    /// mask blanks the keyword, which tree-sitter-c does not know.
    fn with_complex(&self, k: Node, t: String) -> String {
        let b = self.src.as_bytes();
        let after = k.end_byte() + b[k.end_byte().min(b.len())..].iter().take_while(|c| c.is_ascii_whitespace()).count();
        if after < b.len() && super::mask::is_word_at(b, after, b"_Complex") {
            return format!("{t} _Complex");
        }
        let before = self.src[..k.start_byte()].trim_end();
        if before.len() >= 8 && super::mask::is_word_at(b, before.len() - 8, b"_Complex") {
            return format!("{t} _Complex");
        }
        t
    }

    pub fn pointer(&mut self, to: TypeId) -> TypeId {
        if let Some(&t) = self.pointers.get(&to) {
            return t;
        }
        let t = self.types.intern(Type::Pointer(to));
        self.pointers.insert(to, t);
        t
    }

    /// Storage class, qualifiers and base type of a declaration-like node.
    pub(super) fn spec(&mut self, n: Node, syms: &mut SymbolTable) -> Spec {
        let mut spec = Spec { base: usize::MAX, sclass: None, attrs: vec![], enumerators: vec![] };
        for (field, k) in kids(n) {
            match (field, k.kind()) {
                (Some("type"), _) => spec.base = self.type_spec(k, syms, &mut spec.enumerators),
                (_, "storage_class_specifier") => match self.text(k) {
                    "static" => spec.sclass = Some(StorageClass::Static),
                    "extern" => spec.sclass = Some(StorageClass::Extern),
                    "auto" => spec.sclass = Some(StorageClass::Auto),
                    "register" => spec.sclass = Some(StorageClass::Register),
                    other => spec.attrs.push(other.to_string()),
                },
                (_, "type_qualifier") => spec.attrs.push(norm(self.text(k))),
                (_, "typedef") => spec.sclass = Some(StorageClass::Typedef),
                _ => {}
            }
        }
        if spec.base == usize::MAX {
            spec.base = self.basic("int"); // implicit int
        }
        spec
    }

    pub(super) fn type_spec(&mut self, k: Node, syms: &mut SymbolTable, enums: &mut Vec<SymbolId>) -> TypeId {
        match k.kind() {
            "struct_specifier" | "union_specifier" => self.struct_type(k, syms),
            "enum_specifier" => {
                if let Some(list) = k.child_by_field_id(self.f.body) {
                    let int = self.basic("int");
                    for e in named(list).filter(|e| e.kind() == "enumerator") {
                        let Some(name) = e.child_by_field_id(self.f.name) else { continue };
                        let init = e.child_by_field_id(self.f.value).map(|v| self.expr(v));
                        enums.push(syms.add(Symbol {
                            name: self.text(name).to_string(),
                            ty: int,
                            span: span(name),
                            sclass: StorageClass::Auto,
                            attrs: vec!["enumerator".into()],
                            init,
                        }));
                    }
                }
                let name = k.child_by_field_id(self.f.name).map_or(String::new(), |n| format!(" {}", self.text(n)));
                self.basic(&format!("enum{name}"))
            }
            "sized_type_specifier" => {
                let words: Vec<&str> =
                    kids(k).into_iter().filter(|(_, c)| c.kind() != "type_qualifier" && c.kind() != "comment").map(|(_, c)| self.text(c)).collect();
                let t = self.with_complex(k, norm(&words.join(" ")));
                self.basic(&t)
            }
            _ => {
                let t = self.with_complex(k, norm(self.text(k)));
                self.basic(&t)
            }
        }
    }

    /// A struct or union. A tag's type id is reserved before the fields are read, so
    /// `struct node { struct node *next; }` points at itself. (The IR does not tell
    /// unions from structs yet.)
    fn struct_type(&mut self, k: Node, syms: &mut SymbolTable) -> TypeId {
        let tag = k.child_by_field_id(self.f.name).map(|n| self.text(n).to_string());
        let body = k.child_by_field_id(self.f.body);
        let known = tag.as_ref().and_then(|t| self.tags.get(t).copied());
        let Some(body) = body else {
            if let Some(id) = known {
                return id;
            }
            let id = self.push_type(Type::Struct { tag: tag.clone(), fields: vec![] });
            if let Some(t) = tag {
                self.tags.insert(t, id);
            }
            return id;
        };
        // A definition: reuse an incomplete entry for the tag, else a new one.
        let id = match known {
            Some(id) if matches!(self.types.get(id), Type::Struct { fields, .. } if fields.is_empty()) => id,
            _ => self.push_type(Type::Struct { tag: tag.clone(), fields: vec![] }),
        };
        if let Some(t) = &tag {
            self.tags.insert(t.clone(), id);
        }
        let mut fields = Vec::new();
        self.fields(body, syms, &mut fields);
        self.types.types[id] = Type::Struct { tag, fields };
        id
    }

    fn fields(&mut self, list: Node, syms: &mut SymbolTable, out: &mut Vec<(String, TypeId)>) {
        for k in named(list) {
            match k.kind() {
                "field_declaration" => {
                    let spec = self.spec(k, syms);
                    let decls: Vec<Node> = kids(k).into_iter().filter(|(f, _)| *f == Some("declarator")).map(|x| x.1).collect();
                    if decls.is_empty() {
                        out.push((String::new(), spec.base)); // anonymous struct/union member
                    }
                    for d in decls {
                        let (name, ty) = self.declarator(d, spec.base);
                        out.push((name.map_or(String::new(), |n| self.text(n).to_string()), ty));
                    }
                }
                // `#ifdef` inside a struct: take the fields of every branch.
                kind if kind.starts_with("preproc_if") || kind == "preproc_else" || kind.starts_with("preproc_elif") => self.fields(k, syms, out),
                _ => {}
            }
        }
    }

    /// Types with expressions (arrays) carry spans, so they never equal another entry.
    fn push_type(&mut self, t: Type) -> TypeId {
        self.types.types.push(t);
        self.types.types.len() - 1
    }

    /// Applies a declarator to `base`; returns the declared name node and its type.
    pub(super) fn declarator<'t>(&mut self, d: Node<'t>, base: TypeId) -> (Option<Node<'t>>, TypeId) {
        if self.depth >= MAX_DEPTH {
            return (None, base);
        }
        self.depth += 1;
        let r = self.declarator_inner(d, base);
        self.depth -= 1;
        r
    }

    fn declarator_inner<'t>(&mut self, d: Node<'t>, base: TypeId) -> (Option<Node<'t>>, TypeId) {
        match d.kind() {
            "identifier" | "field_identifier" | "type_identifier" | "primitive_type" => (Some(d), base),
            "pointer_declarator" | "abstract_pointer_declarator" => {
                let t = self.pointer(base);
                match d.child_by_field_id(self.f.declarator) {
                    Some(inner) => self.declarator(inner, t),
                    None => (None, t),
                }
            }
            "array_declarator" | "abstract_array_declarator" => {
                // `a[N][M]` nests as ((a[N])[M]): gather the run of array declarators
                // so the type is one array with dims [N, M].
                let mut dims = Vec::new();
                let mut cur = d;
                let inner = loop {
                    dims.push(self.dim(cur));
                    match cur.child_by_field_id(self.f.declarator) {
                        Some(n) if n.kind() == cur.kind() => cur = n,
                        other => break other,
                    }
                };
                dims.reverse();
                let t = self.push_type(Type::Array { elem: base, dims });
                match inner {
                    Some(n) => self.declarator(n, t),
                    None => (None, t),
                }
            }
            "function_declarator" | "abstract_function_declarator" => {
                let params = match d.child_by_field_id(self.f.parameters) {
                    Some(pl) => self.param_types(pl),
                    None => vec![],
                };
                // Cached: `TypeTable::intern` scans the whole table.
                let t = match self.funcs.get(&(base, params.clone())) {
                    Some(&t) => t,
                    None => {
                        let t = self.types.intern(Type::Function { ret: base, params: params.clone() });
                        self.funcs.insert((base, params), t);
                        t
                    }
                };
                match d.child_by_field_id(self.f.declarator) {
                    Some(inner) => self.declarator(inner, t),
                    None => (None, t),
                }
            }
            "init_declarator" => match d.child_by_field_id(self.f.declarator) {
                Some(inner) => self.declarator(inner, base),
                None => (None, base),
            },
            "parenthesized_declarator" | "abstract_parenthesized_declarator" | "attributed_declarator" => {
                match named(d).find(|n| n.kind() != "attribute_declaration" && n.kind() != "ms_call_modifier") {
                    Some(inner) => self.declarator(inner, base),
                    None => (None, base),
                }
            }
            _ => (None, base),
        }
    }

    fn dim(&mut self, a: Node) -> Dim {
        match a.child_by_field_id(self.f.size) {
            Some(s) if s.is_named() => Dim { lower: None, upper: Some(self.expr(s)), deferred: false },
            _ => Dim { lower: None, upper: None, deferred: true }, // `[]` or `[*]`
        }
    }

    fn param_types(&mut self, pl: Node) -> Vec<TypeId> {
        let mut scratch = SymbolTable::default();
        let mut out = Vec::new();
        for p in named(pl).filter(|p| p.kind() == "parameter_declaration") {
            let spec = self.spec(p, &mut scratch);
            let ty = match p.child_by_field_id(self.f.declarator) {
                Some(d) => self.declarator(d, spec.base).1,
                None => spec.base,
            };
            out.push(ty);
        }
        // `(void)` declares no parameters.
        if out.len() == 1 && matches!(self.types.get(out[0]), Type::Basic(b) if b == "void") {
            out.clear();
        }
        out
    }

    /// Parameters of a function definition as `Param` symbols.
    pub(super) fn params(&mut self, pl: Node, syms: &mut SymbolTable) -> Vec<SymbolId> {
        let mut ids = Vec::new();
        for p in named(pl).filter(|p| p.kind() == "parameter_declaration") {
            let spec = self.spec(p, syms);
            let (name, ty) = match p.child_by_field_id(self.f.declarator) {
                Some(d) => self.declarator(d, spec.base),
                None => (None, spec.base),
            };
            if name.is_none() && matches!(self.types.get(ty), Type::Basic(b) if b == "void") {
                continue;
            }
            let mut s = self.symbol_opt(name, span(p), ty, &spec, None);
            s.sclass = StorageClass::Param;
            ids.push(syms.add(s));
        }
        ids
    }

    /// A declaration or typedef: adds its symbols (enumerators first) to `syms`.
    pub(super) fn decl(&mut self, n: Node, syms: &mut SymbolTable) -> Vec<SymbolId> {
        let mut spec = self.spec(n, syms);
        if n.kind() == "type_definition" {
            spec.sclass = Some(StorageClass::Typedef);
        }
        let mut ids = std::mem::take(&mut spec.enumerators);
        for (field, d) in kids(n) {
            if field != Some("declarator") {
                continue;
            }
            let (name, ty) = self.declarator(d, spec.base);
            let Some(name) = name else { continue };
            let init = match (d.kind(), d.child_by_field_id(self.f.value)) {
                ("init_declarator", Some(v)) => Some(self.expr(v)),
                _ => None,
            };
            let s = self.symbol(name, ty, &spec, init);
            ids.push(syms.add(s));
        }
        ids
    }

    pub(super) fn symbol(&mut self, name: Node, ty: TypeId, spec: &Spec, init: Option<Expr>) -> Symbol {
        self.symbol_opt(Some(name), span(name), ty, spec, init)
    }

    fn symbol_opt(&mut self, name: Option<Node>, fallback: xmpc_ir::Span, ty: TypeId, spec: &Spec, init: Option<Expr>) -> Symbol {
        let is_fn = matches!(self.types.get(ty), Type::Function { .. });
        let sclass = spec.sclass.unwrap_or(if is_fn { StorageClass::Func } else { StorageClass::Auto });
        Symbol {
            name: name.map_or(String::new(), |n| self.text(n).to_string()),
            ty,
            span: name.map_or(fallback, span),
            sclass,
            attrs: spec.attrs.clone(),
            init,
        }
    }
}
