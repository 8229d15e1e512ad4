//! Omni's XMP 1.x coarray collectives, printed as Fortran 2018 ones (docs/local-view.md,
//! "Omni's forms"): Omni's xmpf90 translates coarrays itself and accepts
//! - `call co_sum(source, result [, result_image])` (also `co_max`, `co_min`, keywords
//!   `source=`, `result=`, `result_image=`): `result` gets the reduction of `source`
//!   (on `result_image` only; elsewhere it is left as it was), `source` is unchanged;
//! - `source=` for the one-argument forms (`co_max(source=q, result_image=2)`,
//!   `co_broadcast(source=c, source_image=n)`), gfortran's keyword being `a=`.
//!
//! Without `result_image`: `result = source; call co_sum(result)`. With it, the
//! result image reduces into `result`, the others pass `source`, which the collective
//! leaves unchanged on an image other than the result image (xmpc's libcaf:
//! `MPI_Reduce`, whose send buffer is only read).
//!
//! A two-argument form that is the statement of a logical `if` is refused (XMP0453):
//! its translation is several statements.

use super::*;
use xmpc_ir::visit::{self, Visitor};

const COLL: &[&str] = &["co_sum", "co_max", "co_min", "co_broadcast"];

struct Calls<'a> {
    syms: &'a SymbolTable,
    found: Vec<(Span, String, &'a SymbolTable)>,
}

impl<'a> Visitor<'a> for Calls<'a> {
    fn visit_stmt(&mut self, s: &'a Stmt) {
        if let StmtKind::Call { name, .. } = &s.kind {
            let n = lc(name);
            if COLL.contains(&n.as_str()) {
                self.found.push((s.span, n, self.syms));
            }
        }
        visit::walk_stmt(self, s)
    }
}

/// What the second positional argument of `co_sum(x, y)` is: Some(true) the result
/// (XMP 1.x: an array, a section, or a variable not of integer type), Some(false) a
/// result image (a literal or an expression), None when it cannot be told (an integer
/// scalar variable: either form).
fn second_is_result(tr: &Tr, syms: &SymbolTable, first: &str, second: &str) -> Option<bool> {
    let base: String = second.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let rest = second[base.len()..].trim();
    if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
        return Some(false);
    }
    let ty = |name: &str| syms.lookup(&lc(name)).map(|s| tr.unit.types.get(s.ty));
    let is_int_scalar = |t: &Type| matches!(t, Type::Basic(b) if b.starts_with("integer"));
    if rest.starts_with('(') {
        if rest.contains(':') {
            return Some(true);
        }
        // an element (integer: either form) or a function call (a result image)
        return match ty(&base) {
            Some(Type::Array { elem, .. }) => Some(!is_int_scalar(tr.unit.types.get(*elem))),
            _ => None,
        };
    }
    if !rest.is_empty() {
        return if rest.starts_with('%') { None } else { Some(false) };
    }
    match ty(&base) {
        Some(Type::Array { .. }) => Some(true),
        Some(t) if !is_int_scalar(t) => Some(true),
        // an integer scalar: XMP 1.x only if the source is an integer scalar too
        Some(_) => {
            let fb: String = first.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            match ty(&fb) {
                Some(t) if is_int_scalar(t) && first.trim() == fb => None,
                Some(_) => Some(false),
                None => None,
            }
        }
        None => None,
    }
}

/// Arguments: (keyword, value).
type Args = Vec<(Option<String>, String)>;

/// The top-level arguments of `text` (`name(a, b=c)`): (keyword, value) trimmed; the
/// span of the parenthesised list (offsets in `text`).
pub(super) fn split_args(text: &str) -> Option<(usize, usize, Args)> {
    let masked = lex::mask_strings(text);
    let open = masked.find('(')?;
    let mut depth = 0;
    let mut args = vec![];
    let mut from = open + 1;
    for (i, c) in masked[open..].char_indices().map(|(i, c)| (open + i, c)) {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    args.push(&text[from..i]);
                    let parsed = args.iter().filter(|a| !a.trim().is_empty()).map(|a| keyword(a)).collect();
                    return Some((open, i + 1, parsed));
                }
            }
            ',' if depth == 1 => {
                args.push(&text[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// `kw = value` (not `==`) or a positional value.
fn keyword(a: &str) -> (Option<String>, String) {
    let t = a.trim();
    let id_len = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len());
    if id_len > 0 {
        let rest = t[id_len..].trim_start();
        if rest.starts_with('=') && !rest.starts_with("==") {
            return (Some(lc(&t[..id_len])), rest[1..].trim().to_string());
        }
    }
    (None, t.to_string())
}

impl<'a> Tr<'a> {
    /// A coindexed whole array without a section (`b = a[2]`, Omni accepts it; gfortran
    /// wants `a(:)[2]`): the section `(:,...)` of the array's rank is inserted after
    /// the name. Arrays of the unit itself and of its host procedures; a name declared
    /// elsewhere (a module's) is left to gfortran, which refuses it.
    fn whole_coindexed(&mut self) {
        let mut new = vec![];
        for f in self.unit.functions() {
            let hosts: Vec<&Function> = self.unit.functions().into_iter().filter(|h| h.contains.iter().any(|c| std::ptr::eq(c, f))).collect();
            // the front end gives no symbol for a declaration with a codimension: its text
            let rank = |name: &str| {
                std::iter::once(f)
                    .chain(hosts.iter().copied())
                    .find_map(|u| {
                        u.symbols
                            .lookup(name)
                            .and_then(|s| match self.unit.types.get(s.ty) {
                                Type::Array { dims, .. } => Some(Some(dims.len())),
                                _ => None,
                            })
                            .or_else(|| {
                                u.body
                                    .iter()
                                    .filter(|st| !matches!(st.kind, StmtKind::Pragma(_)))
                                    .find_map(|st| declared_rank(&lc(&lex::mask_strings(self.text(st.span))), name))
                            })
                    })
                    .or_else(|| {
                        // a module of this file (used by the unit or its host)
                        self.unit.items.iter().find_map(|it| match it {
                            Item::Module(m) => m.decls.iter().find_map(|st| declared_rank(&lc(&lex::mask_strings(self.text(st.span))), name)),
                            _ => None,
                        })
                    })
                    .flatten()
            };
            for st in &f.body {
                if matches!(st.kind, StmtKind::Decl(_) | StmtKind::Pragma(_)) {
                    continue;
                }
                let text = self.text(st.span);
                let low = lc(text.trim_start());
                if ["codimension", "dimension", "integer", "real", "double", "complex", "logical", "character", "type ", "type(", "class"]
                    .iter()
                    .any(|k| low.starts_with(k))
                {
                    continue;
                }
                let masked = lex::mask_strings(text);
                let mut off = 0;
                for line in masked.split_inclusive('\n') {
                    let code = comment_start(line).map_or(line, |k| &line[..k]);
                    let fixed_comment = self.fixed && line.starts_with(['c', 'C', '*', '!']);
                    if !fixed_comment {
                        for (k, name) in coindexed_names(code) {
                            if let Some(r) = rank(&lc(name)) {
                                let at = st.span.start + off + k + name.len();
                                new.push((at, format!("({})", vec![":"; r].join(","))));
                            }
                        }
                    }
                    off += line.len();
                }
            }
        }
        for (at, text) in new {
            let span = Span::new(at, at);
            if !self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, span) || o.span == span) {
                self.edits.push(Edit { span, text });
            }
        }
    }

    /// A coarray of a procedure that is neither SAVE, allocatable nor a dummy (Omni
    /// accepts it; gfortran wants SAVE): `save :: name` is inserted on a line after its
    /// declaration. It lives for the whole run, as Omni's static coarrays do (a value
    /// kept from one call to the next is never read by a conforming program). Every
    /// static coarray of a procedure or main program is also referred to, so that it
    /// is registered when unused, as in Omni.
    fn implicit_save(&mut self) {
        let mut new = vec![];
        for f in self.unit.functions() {
            let main = f.kind == FuncKind::Program; // its variables are SAVE (unit.rs)
                                                    // the dummy list, which may go on over continuation lines (FFB-MINI's
                                                    // `SUBROUTINE DDCOMX(..., &` / `BUFSND, BUFRCV, MAXBUF)`)
            let rest = &self.src[f.name_span.end..];
            let head_end = match rest.trim_start().starts_with('(') {
                true => rest.find(')').unwrap_or(rest.len()),
                false => rest.find('\n').unwrap_or(rest.len()),
            };
            let head = lc(&rest[..head_end]);
            let dummies: Vec<String> = head.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map(String::from).collect();
            let mut saves = vec![];
            let mut blanket = false;
            let mut rank_shadowed = false;
            for st in &f.body {
                if matches!(st.kind, StmtKind::Pragma(_)) {
                    continue;
                }
                let text = lc(&lex::mask_strings(self.text(st.span)));
                let code = comment_start(&text).map_or(text.as_str(), |k| &text[..k]).trim().to_string();
                let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
                if squeezed == "save" {
                    blanket = true;
                } else if let Some(rest) = squeezed.strip_prefix("save") {
                    saves.extend(rest.trim_start_matches("::").split(',').map(String::from));
                }
                rank_shadowed |= is_declaration(&code) && code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == "rank");
            }
            for st in &f.body {
                if matches!(st.kind, StmtKind::Pragma(_)) {
                    continue;
                }
                let text = lc(&lex::mask_strings(self.text(st.span)));
                let code = comment_start(&text).map_or(text.as_str(), |k| &text[..k]);
                if !is_declaration(code) {
                    continue;
                }
                let dc = code.find("::").unwrap_or(0);
                let attrs = &code[..dc];
                if attrs.contains("allocatable") || attrs.contains("parameter") || attrs.contains("pointer") {
                    continue;
                }
                let names: Vec<String> = coindexed_decl_names(&code[dc..]).into_iter().filter(|n| !dummies.contains(n)).collect();
                if names.is_empty() || declared_rank(code, &names[0]).is_none() {
                    continue;
                }
                let indent = if self.fixed { "      ".to_string() } else { "  ".to_string() };
                let mut add = String::new();
                let unsaved: Vec<&String> = names.iter().filter(|n| !saves.contains(n)).collect();
                if !main && !blanket && !attrs.contains("save") && !unsaved.is_empty() {
                    add.push_str(&format!("\n{indent}save :: {}", unsaved.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")));
                }
                // gfortran registers (allocates) a static coarray only when the unit
                // refers to it; Omni allocates every one (xmpf_coarray_allocated_bytes
                // counts them): a reference in a constant expression makes it registered
                if !rank_shadowed {
                    for n in &names {
                        add.push_str(&format!("\n{indent}logical, parameter :: xmpf_keep_{n} = rank({n}) >= 0"));
                    }
                }
                if add.is_empty() {
                    continue;
                }
                let line_end = self.src[st.span.end.saturating_sub(1)..].find('\n').map_or(self.src.len(), |k| st.span.end.saturating_sub(1) + k);
                new.push((line_end, add));
            }
        }
        for (at, text) in new {
            let span = Span::new(at, at);
            if !self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, span)) {
                self.edits.push(Edit { span, text });
            }
        }
    }

    /// A coindexed component (`x[1]%n(2)`, `y(2)[3]%n`) of a coarray whose derived type
    /// has a pointer or allocatable component: gfortran calls `_gfortran_caf_get_by_ref`
    /// / `_send_by_ref`, which xmpc's libcaf lacks and OpenCoarrays 2.10.1 gets wrong
    /// (Omni's `lev1`: "extent out of range"; `issue033-2`: a segmentation fault):
    /// refused (XMP0454), never run.
    fn by_ref_components(&mut self) {
        let masked = lc(&lex::mask_strings(self.src));
        let code_lines: Vec<(usize, &str)> = {
            let mut v = vec![];
            let mut off = 0;
            for line in masked.split_inclusive('\n') {
                let fixed_comment = self.fixed && line.starts_with(['c', '*', '!']);
                let code = if fixed_comment { "" } else { comment_start(line).map_or(line, |k| &line[..k]) };
                v.push((off, code));
                off += line.len();
            }
            v
        };
        // derived types with a pointer or allocatable component
        let mut types = vec![];
        let mut cur: Option<(String, bool)> = None;
        for (_, code) in &code_lines {
            let t = code.trim();
            let sq: String = t.chars().filter(|c| !c.is_whitespace()).collect();
            if sq.starts_with("endtype") {
                if let Some((n, true)) = cur.take() {
                    types.push(n);
                }
                cur = None;
            } else if let Some(rest) = t.strip_prefix("type").filter(|r| r.starts_with([' ', ',', ':']) && !r.trim_start().starts_with('(')) {
                let name = rest.rsplit("::").next().unwrap_or(rest).trim().to_string();
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    cur = Some((name, false));
                }
            } else if let Some((_, has)) = cur.as_mut() {
                let attrs = t.split("::").next().unwrap_or("");
                if t.contains("::") && (attrs.contains("pointer") || attrs.contains("allocatable")) {
                    *has = true;
                }
            }
        }
        if types.is_empty() {
            return;
        }
        // coarrays of those types
        let mut coarrays = vec![];
        for (_, code) in &code_lines {
            let sq: String = code.chars().filter(|c| !c.is_whitespace()).collect();
            if types.iter().any(|t| sq.starts_with(&format!("type({t})"))) {
                let list = code.find("::").map_or(*code, |k| &code[k + 2..]);
                coarrays.extend(coindexed_decl_names(list));
            }
        }
        for (off, code) in &code_lines {
            if is_declaration(code) {
                continue;
            }
            for (k, len) in coindexed_components(code, &coarrays) {
                let span = Span::new(off + k, off + k + len);
                self.err(
                    "XMP0454",
                    span,
                    "coindexed component of a coarray whose derived type has a pointer or allocatable component",
                    "gfortran's *_by_ref calls, not supported",
                );
                self.diags.last_mut().unwrap().notes.push(
                    "help: xmpc's libcaf does not provide _gfortran_caf_get_by_ref/_send_by_ref, and OpenCoarrays 2.10.1 gets them wrong; keep the data in a coarray of a type without pointer or allocatable components".into(),
                );
            }
        }
    }

    /// An external procedure of this file with a coarray dummy needs an explicit
    /// interface where it is called (gfortran; Omni does not): each other unit of the
    /// file that names it gets an interface block made of the procedure's header, its
    /// `use` and `implicit` statements and the declarations of its dummies (and result),
    /// after the caller's own `use`/`implicit` statements.
    fn coarray_dummy_interfaces(&mut self) {
        let mut ifaces: Vec<(String, String)> = vec![];
        for it in &self.unit.items {
            let Item::Function(f) = it else { continue };
            if f.kind == FuncKind::Program {
                continue;
            }
            let hs = self.line_start(f.name_span.start);
            let he = self.src[f.name_span.end..].find('\n').map_or(self.src.len(), |k| f.name_span.end + k);
            let head = &self.src[hs..he];
            if head.trim_end().ends_with('&') || self.fixed {
                continue;
            }
            let name = lc(&f.name);
            let hl = lc(head);
            let mut dummies: Vec<String> = match (hl.find('('), hl.rfind(')')) {
                (Some(a), Some(b)) if a < b => hl[a + 1..b].split(',').map(|d| d.trim().to_string()).filter(|d| !d.is_empty()).collect(),
                _ => vec![],
            };
            if let Some(r) = hl.split("result").nth(1) {
                dummies.push(r.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace()).to_string());
            }
            dummies.push(name.clone());
            let mut body = vec![];
            let mut coarray_dummy = false;
            for st in &f.body {
                if matches!(st.kind, StmtKind::Pragma(_)) {
                    continue;
                }
                let text = self.text(st.span);
                let low = lc(&lex::mask_strings(text));
                let code = comment_start(&low).map_or(low.as_str(), |k| &low[..k]).trim().to_string();
                if code.starts_with("use ") || code.starts_with("use,") || code.starts_with("implicit") {
                    body.push(text.trim_end().to_string());
                } else if is_declaration(&code) {
                    let list = code.find("::").map_or(code.as_str(), |k| &code[k + 2..]);
                    // the entities declared (`got(n)` declares got, not the dummy n)
                    let entities = outside_parens(list);
                    let words: Vec<&str> = entities.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
                    if dummies.iter().any(|d| words.contains(&d.as_str())) {
                        if coindexed_decl_names(list).iter().any(|n| dummies.contains(n)) {
                            coarray_dummy = true;
                        }
                        body.push(text.trim_end().to_string());
                    }
                }
            }
            if !coarray_dummy {
                continue;
            }
            let kind = if f.kind == FuncKind::Function { "function" } else { "subroutine" };
            ifaces.push((name.clone(), format!("\ninterface\n{}\n{}\nend {kind} {name}\nend interface", head.trim(), body.join("\n"))));
        }
        if ifaces.is_empty() {
            return;
        }
        let mut new = vec![];
        for g in self.unit.functions() {
            let mut after = self.src[g.name_span.end..].find('\n').map_or(self.src.len(), |k| g.name_span.end + k);
            let mut declared = String::new();
            let mut code_text = String::new();
            for st in &g.body {
                if matches!(st.kind, StmtKind::Pragma(_)) {
                    continue;
                }
                let low = lc(&lex::mask_strings(self.text(st.span)));
                let code = comment_start(&low).map_or(low.as_str(), |k| &low[..k]).trim().to_string();
                if code.starts_with("use ") || code.starts_with("use,") || code.starts_with("implicit") {
                    after = self.src[st.span.end.saturating_sub(1)..].find('\n').map_or(self.src.len(), |k| st.span.end.saturating_sub(1) + k);
                } else if is_declaration(&code) || code.starts_with("external") {
                    declared.push_str(&code);
                    declared.push(' ');
                } else {
                    code_text.push_str(&low);
                    code_text.push(' ');
                }
            }
            let has = |t: &str, n: &str| t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == n);
            // an interface block of its own for the procedure (`subroutine name(`)
            let own_iface = |n: &str| {
                let sq: String = code_text.chars().filter(|c| !c.is_whitespace()).collect();
                sq.contains(&format!("subroutine{n}(")) || sq.contains(&format!("function{n}("))
            };
            for (name, text) in &ifaces {
                if lc(&g.name) != *name && has(&code_text, name) && !has(&declared, name) && !own_iface(name) {
                    new.push((after, text.clone()));
                }
            }
        }
        for (at, text) in new {
            let span = Span::new(at, at);
            if !self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, span)) {
                self.edits.push(Edit { span, text });
            }
        }
    }

    /// A scalar complex coarray (`complex*16 v[4,*]`, which gfortran 12 miscompiles,
    /// XMP0451) declared in a procedure or main program without contained procedures
    /// becomes an array of one element: `v(1)[4,*]` in its declaration and `v(1)` for
    /// every reference in the unit's statements (`v = ...`, `v[1,1] = vv`, `abs(v)`).
    /// False (and no edit) where that cannot be done: the caller refuses it then.
    pub(super) fn complex_as_array(&mut self, at: usize, len: usize) -> bool {
        let name = lc(&self.src[at..at + len]);
        let Some(f) = self.unit.functions().into_iter().find(|f| f.span.start <= at && at < f.span.end) else { return false };
        if !f.contains.is_empty() || self.fixed {
            return false;
        }
        let mut new = vec![Span::new(at + len, at + len)];
        for st in &f.body {
            if matches!(st.kind, StmtKind::Pragma(_) | StmtKind::Decl(_)) {
                continue;
            }
            let masked = lc(&lex::mask_strings(self.text(st.span)));
            if is_declaration(masked.trim_start()) {
                if masked.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == name) && !(st.span.start <= at && at < st.span.end) {
                    return false; // declared again (dimension, save...): left refused
                }
                continue;
            }
            let mut off = 0;
            for line in masked.split_inclusive('\n') {
                let code = comment_start(line).map_or(line, |k| &line[..k]);
                let b = code.as_bytes();
                let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
                let mut i = 0;
                while let Some(p) = code[i..].find(name.as_str()) {
                    let s0 = i + p;
                    let e = s0 + name.len();
                    i = e;
                    if (s0 > 0 && (is_id(b[s0 - 1]) || b[s0 - 1] == b'%')) || (e < b.len() && is_id(b[e])) {
                        continue;
                    }
                    let next = code[e..].trim_start();
                    if next.starts_with('(') || (next.starts_with('=') && !next.starts_with("==") && code[..s0].trim_end().ends_with([',', '('])) {
                        return false; // a substring, a call or a keyword: left refused
                    }
                    new.push(Span::new(st.span.start + off + e, st.span.start + off + e));
                }
                off += line.len();
            }
        }
        if new.iter().any(|sp| self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, *sp))) {
            return false;
        }
        for span in new {
            self.edits.push(Edit { span, text: "(1)".into() });
        }
        true
    }

    /// A codimension in a DIMENSION statement (`DIMENSION BUFSND(MAXBUF)[*]`, FFB-MINI;
    /// Omni accepts it, gfortran does not): the statement keeps the dimensions and a
    /// `codimension :: BUFSND[*]` statement follows it.
    fn dimension_codims(&mut self) {
        let mut stmts: Vec<Span> = vec![];
        for f in self.unit.functions() {
            stmts.extend(f.body.iter().filter(|s| !matches!(s.kind, StmtKind::Pragma(_))).map(|s| s.span));
        }
        for it in &self.unit.items {
            if let Item::Module(m) = it {
                stmts.extend(m.decls.iter().filter(|s| !matches!(s.kind, StmtKind::Pragma(_))).map(|s| s.span));
            }
        }
        let mut new = vec![];
        for span in stmts {
            let text = self.text(span);
            let masked = lc(&lex::mask_strings(text));
            let code_end = comment_start(&masked).unwrap_or(masked.len());
            let t = masked[..code_end].trim_start();
            let sq: String = t.chars().filter(|c| !c.is_whitespace()).collect();
            if !sq.starts_with("dimension") || sq.starts_with("dimension(") || !sq.contains('[') {
                continue;
            }
            let b = masked.as_bytes();
            let (mut kept, mut codims) = (String::new(), vec![]);
            let (mut depth, mut i, mut from) = (0, 0, 0);
            while i < code_end {
                match b[i] {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    b'[' if depth == 0 => {
                        let close = masked[i..code_end].find(']').map_or(code_end, |k| i + k);
                        // the entity: the name before its `(...)`
                        let before = text[from..i].trim_end();
                        let head = match before.ends_with(')') {
                            true => {
                                let mut d = 0;
                                let mut k = before.len();
                                for (j, c) in before.char_indices().rev() {
                                    match c {
                                        ')' => d += 1,
                                        '(' => {
                                            d -= 1;
                                            if d == 0 {
                                                k = j;
                                                break;
                                            }
                                        }
                                        _ => {}
                                    }
                                }
                                &before[..k]
                            }
                            false => before,
                        };
                        let name: String =
                            head.trim_end().chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>().chars().rev().collect();
                        codims.push(format!("{name}{}", &text[i..(close + 1).min(code_end)]));
                        kept.push_str(&text[from..i]);
                        i = close + 1;
                        from = i;
                        continue;
                    }
                    _ => {}
                }
                i += 1;
            }
            kept.push_str(&text[from..]);
            let indent = if self.fixed { "      " } else { "  " };
            new.push((span, format!("{}\n{indent}codimension :: {}", kept.trim_end(), codims.join(", "))));
        }
        for (span, text) in new {
            if !self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, span)) {
                self.edits.push(Edit { span, text });
            }
        }
    }

    /// INCLUDE lines before the unit's IMPLICIT statements (FFB-MINI: `INCLUDE 'mpif.h'`,
    /// `INCLUDE 'xmp_coarray.h'`, then `IMPLICIT REAL*4(A-H,O-Z)`): Omni's front end reads
    /// the included files itself and prints every declaration explicitly, so it accepts
    /// them; gfortran refuses IMPLICIT after the EXTERNAL statements of MPICH's mpif.h
    /// or of xmpc's xmp_coarray.h. The includes move, in order, to the line after the
    /// last IMPLICIT statement of the unit (their declarations then win over the
    /// implicit typing, as in Omni).
    fn include_after_implicit(&mut self) {
        let mut new = vec![];
        for f in self.unit.functions() {
            let (mut includes, mut last_implicit) = (vec![], None);
            for st in f.body.iter().filter(|s| !matches!(s.kind, StmtKind::Pragma(_))) {
                let text = lc(self.text(st.span));
                let t = text.trim_start();
                if t.starts_with("include") && t[7..].trim_start().starts_with(['\'', '"']) && last_implicit.is_none() {
                    includes.push(st.span);
                } else if !includes.is_empty() && t.starts_with("implicit") {
                    last_implicit = Some(st.span);
                }
            }
            let Some(imp) = last_implicit else { continue };
            let line_end = self.src[imp.end.saturating_sub(1)..].find('\n').map_or(self.src.len(), |k| imp.end.saturating_sub(1) + k);
            let indent = if self.fixed { "      " } else { "  " };
            let moved: String = includes.iter().map(|inc| format!("\n{indent}{}", self.text(*inc).trim())).collect();
            new.extend(includes.iter().map(|inc| (*inc, String::new())));
            new.push((Span::new(line_end, line_end), moved));
        }
        for (span, text) in new {
            if !self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, span)) {
                self.edits.push(Edit { span, text });
            }
        }
    }

    /// The edits of the module doc for the whole file.
    pub(super) fn coarray_forms(&mut self) {
        self.include_after_implicit();
        self.dimension_codims();
        self.coarray_dummy_interfaces();
        self.by_ref_components();
        if !self.diags.is_empty() {
            return;
        }
        self.implicit_save();
        self.whole_coindexed();
        let mut found = vec![];
        for f in self.unit.functions() {
            let mut c = Calls { syms: &f.symbols, found: vec![] };
            for s in &f.body {
                c.visit_stmt(s);
            }
            found.extend(c.found);
        }
        for (span, name, syms) in found {
            if self.edits.iter().any(|o| super::omni_forms::overlaps(o.span, span)) {
                continue;
            }
            let text = self.text(span);
            let Some((open, close, args)) = split_args(text) else { continue };
            if let Some(t) = self.collective(span, &name, &args, syms) {
                let new = format!("{}({}){}", &text[..open].trim_end_matches(|c: char| c.is_whitespace()), t.0, &text[close..]);
                let new = match t.1 {
                    None => new,
                    Some(pre) => pre.replace("{CALL}", &new),
                };
                self.edits.push(Edit { span, text: new });
            }
        }
    }

    /// The argument list of the gfortran call and, for the two-argument forms, the
    /// statements around it (`{CALL}` stands for the call); None: left as written.
    fn collective(&mut self, span: Span, name: &str, args: &[(Option<String>, String)], syms: &SymbolTable) -> Option<(String, Option<String>)> {
        let kw = |k: &str| args.iter().find(|(n, _)| n.as_deref() == Some(k)).map(|(_, v)| v.clone());
        let has_source_kw = kw("source").is_some();
        // the one-argument forms and co_broadcast: `source=` becomes `a=`, the rest as written
        let renamed = || args.iter().map(|(k, v)| if k.as_deref() == Some("source") { format!("a={v}") } else { arg(k, v) }).collect::<Vec<_>>().join(", ");
        if name == "co_broadcast" {
            if !has_source_kw {
                return None;
            }
            return Some((renamed(), None));
        }
        let pos: Vec<&String> = args.iter().filter(|(k, _)| k.is_none()).map(|(_, v)| v).collect();
        // XMP 1.x: (source, result [, result_image]); F2018: (a [, result_image, stat, errmsg])
        let second_is_result = if pos.len() >= 2 && kw("a").is_none() && !has_source_kw && kw("result").is_none() {
            match second_is_result(self, syms, pos[0], pos[1]) {
                Some(b) => b,
                None => {
                    self.err(
                        "XMP0453",
                        span,
                        &format!("`{name}` with two positional arguments: the second may be Omni's XMP 1.x result or Fortran 2018's result_image"),
                        "cannot tell which",
                    );
                    self.diags.last_mut().unwrap().notes.push("help: name it, `result=` (XMP 1.x) or `result_image=` (Fortran 2018)".into());
                    return None;
                }
            }
        } else {
            false
        };
        let result = kw("result").or_else(|| second_is_result.then(|| pos[1].clone()));
        let Some(result) = result else {
            if !has_source_kw {
                return None;
            }
            return Some((renamed(), None));
        };
        let source = kw("source").or_else(|| pos.first().map(|s| s.to_string()))?;
        let image = kw("result_image").or_else(|| if second_is_result { pos.get(2).map(|s| s.to_string()) } else { pos.get(1).map(|s| s.to_string()) });
        let others: Vec<String> = args.iter().filter(|(k, _)| matches!(k.as_deref(), Some("stat") | Some("errmsg"))).map(|(k, v)| arg(k, v)).collect();
        if self.in_logical_if(span) {
            self.err(
                "XMP0453",
                span,
                &format!("Omni's two-argument `{name}(source, result)` as the statement of a logical IF"),
                "its translation is several statements",
            );
            self.diags.last_mut().unwrap().notes.push("help: write it in an IF block (`if (...) then` ... `end if`)".into());
            return None;
        }
        let tail = |a: &str| {
            let mut v = vec![a.to_string()];
            v.extend(others.iter().cloned());
            v
        };
        match image {
            None => Some((tail(&result).join(", "), Some(format!("{result} = {source}; {{CALL}}")))),
            Some(img) => {
                let mut on_root = tail(&result);
                on_root.insert(1, format!("result_image={img}"));
                let mut elsewhere = tail(&source);
                elsewhere.insert(1, format!("result_image={img}"));
                let head = format!("call {name}");
                let pre = format!("if (this_image() == ({img})) then; {result} = {source}; {head}({}); else; {{CALL}}; end if", on_root.join(", "));
                Some((elsewhere.join(", "), Some(pre)))
            }
        }
    }

    /// True when the statement at `span` follows `if (...)` on its line.
    fn in_logical_if(&self, span: Span) -> bool {
        let ls = self.line_start(span.start);
        let before = lc(&self.src[ls..span.start]);
        let before = before.trim_start().trim_start_matches(|c: char| c.is_ascii_digit()).trim();
        before.starts_with("if") && before.ends_with(')')
    }
}

/// `text` with every parenthesised or bracketed part blanked out.
fn outside_parens(text: &str) -> String {
    let mut depth = 0i32;
    text.chars()
        .map(|c| match c {
            '(' | '[' => {
                depth += 1;
                ' '
            }
            ')' | ']' => {
                depth -= 1;
                ' '
            }
            _ if depth > 0 => ' ',
            _ => c,
        })
        .collect()
}

/// True when a statement's code (lower case) is a type declaration or a
/// `dimension`/`codimension` statement.
fn is_declaration(code: &str) -> bool {
    let t = code.trim_start();
    ["codimension", "dimension", "integer", "real", "double", "complex", "logical", "character", "type(", "type ("].iter().any(|k| t.starts_with(k))
        && !t.contains("function")
}

/// The rank `name` is declared with in a declaration statement's text (lower case,
/// strings masked): Some(None) a scalar, Some(Some(r)) an array, None when the
/// statement does not declare it.
fn declared_rank(stmt: &str, name: &str) -> Option<Option<usize>> {
    let code = comment_start(stmt).map_or(stmt, |k| &stmt[..k]);
    if !is_declaration(code) || name.is_empty() {
        return None;
    }
    let b = code.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let from = code.find("::").map_or(0, |k| k + 2);
    let mut at = None;
    let mut k = from;
    while let Some(p) = code[k..].find(name) {
        let s = k + p;
        let e = s + name.len();
        if (s == 0 || !is_id(b[s - 1])) && (e >= b.len() || !is_id(b[e])) {
            at = Some(e);
            break;
        }
        k = e;
    }
    let e = at?;
    let rank_of = |open: usize| -> usize {
        let mut depth = 0;
        let mut commas = 0;
        for &c in &b[open..] {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b',' if depth == 1 => commas += 1,
                _ => {}
            }
        }
        commas + 1
    };
    let rest = code[e..].trim_start();
    if rest.starts_with('(') {
        return Some(Some(rank_of(code.len() - rest.len())));
    }
    // `dimension(...)` among the attributes
    let head = &code[..from];
    match head.find("dimension") {
        Some(d) => head[d + 9..].find('(').map(|o| Some(Some(rank_of(d + 9 + o)))).unwrap_or(Some(None)),
        None => Some(None),
    }
}

/// The entities of a declaration's entity list (after `::`, or the whole statement)
/// that have a codimension: `a(3)[*]`, `b[2,*]`.
fn coindexed_decl_names(list: &str) -> Vec<String> {
    let b = list.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = vec![];
    let mut i = 0;
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' if depth > 0 => depth += 1,
            b')' | b']' => depth -= 1,
            c if depth == 0 && c.is_ascii_alphabetic() && (i == 0 || !is_id(b[i - 1])) => {
                let s = i;
                while i < b.len() && is_id(b[i]) {
                    i += 1;
                }
                let name = &list[s..i];
                let mut j = i;
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                if j < b.len() && b[j] == b'(' {
                    // skip the dimensions
                    let mut d = 0;
                    while j < b.len() {
                        match b[j] {
                            b'(' => d += 1,
                            b')' => {
                                d -= 1;
                                if d == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    j += 1;
                    while j < b.len() && b[j] == b' ' {
                        j += 1;
                    }
                }
                if j < b.len() && b[j] == b'[' {
                    out.push(name.to_string());
                }
                i = j;
                continue;
            }
            b'(' | b'[' => depth += 1,
            _ => {}
        }
        i += 1;
    }
    out
}

/// `name[...]%` or `name(...)[...]%` for a name of `names`: (offset, length through
/// the `%`).
fn coindexed_components(code: &str, names: &[String]) -> Vec<(usize, usize)> {
    let b = code.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let skip_group = |mut j: usize, open: u8, close: u8| -> Option<usize> {
        let mut d = 0;
        while j < b.len() {
            if b[j] == open {
                d += 1;
            } else if b[j] == close {
                d -= 1;
                if d == 0 {
                    return Some(j + 1);
                }
            }
            j += 1;
        }
        None
    };
    let skip_blanks = |mut j: usize| {
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        j
    };
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() && (i == 0 || !(is_id(b[i - 1]) || b[i - 1] == b'%')) {
            let s = i;
            while i < b.len() && is_id(b[i]) {
                i += 1;
            }
            if !names.iter().any(|n| n == &code[s..i]) {
                continue;
            }
            let mut j = skip_blanks(i);
            if j < b.len() && b[j] == b'(' {
                let Some(e) = skip_group(j, b'(', b')') else { continue };
                j = skip_blanks(e);
            }
            if j < b.len() && b[j] == b'[' {
                let Some(e) = skip_group(j, b'[', b']') else { continue };
                let e2 = skip_blanks(e);
                if e2 < b.len() && b[e2] == b'%' {
                    out.push((s, e2 + 1 - s));
                }
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Names directly followed by a coindex (`a[2]`, `a [i, j]`; not `a(1)[2]`, not a
/// component `s%a[1]`): (offset, name).
fn coindexed_names(code: &str) -> Vec<(usize, &str)> {
    let b = code.as_bytes();
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() && (i == 0 || !(is_id(b[i - 1]) || b[i - 1] == b'%')) {
            let s = i;
            while i < b.len() && is_id(b[i]) {
                i += 1;
            }
            let mut j = i;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            if j < b.len() && b[j] == b'[' {
                out.push((s, &code[s..i]));
            }
        } else {
            i += 1;
        }
    }
    out
}

fn arg(k: &Option<String>, v: &str) -> String {
    match k {
        Some(k) => format!("{k}={v}"),
        None => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::split_args;

    #[test]
    fn coarray_entities_of_a_declaration() {
        assert_eq!(super::coindexed_decl_names(" kid(3)[2,*], x, y[*], z(2)"), ["kid", "y"]);
        assert_eq!(super::coindexed_decl_names("integer*8 a(n2:n1,10)[*]"), ["a"]);
    }

    #[test]
    fn coindexed_components_are_found() {
        let n = vec!["x".to_string(), "y".to_string()];
        let v = super::coindexed_components("  x%na(:,1) = x[1]%n(:,3) + y(2)[3] % n(1) + z[1]%n + x[2]", &n);
        assert_eq!(v, [(14, 5), (28, 9)]);
    }

    #[test]
    fn declared_ranks() {
        use super::declared_rank as r;
        assert_eq!(r("  integer*8 a(n2:n1,10)[*]\n", "a"), Some(Some(2)));
        assert_eq!(r("  real, dimension(3,4,5) :: x, a[*]\n", "a"), Some(Some(3)));
        assert_eq!(r("  real :: ab(3), a[*]\n", "a"), Some(None));
        assert_eq!(r("  a = b(1)\n", "a"), None);
        assert_eq!(r("  integer :: b(2)[*]\n", "a"), None);
    }

    #[test]
    fn coindexed_names_are_found() {
        let v: Vec<&str> = super::coindexed_names("  a = b[1] + c(2)[3] + s%d[1] + e [2,1]").into_iter().map(|(_, n)| n).collect();
        assert_eq!(v, ["b", "e"]);
    }

    #[test]
    fn arguments_are_split_at_top_level() {
        let (o, c, a) = split_args("call co_max(q, result_image=2, result=qm(0,:))").unwrap();
        assert_eq!((o, c), (11, 46));
        assert_eq!(a[0], (None, "q".to_string()));
        assert_eq!(a[1], (Some("result_image".to_string()), "2".to_string()));
        assert_eq!(a[2], (Some("result".to_string()), "qm(0,:)".to_string()));
        let (_, _, a) = split_args("call co_sum(a == b, 'x,y')").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].0, None);
    }
}
