//! Literal checks at translation time (issue 20): sizes, widths and constant node or
//! template references that are wrong whatever the run, reported where they are written
//! instead of being accepted (and running wrongly) or caught at run time at another line.
//! The same for C and Fortran: every check works on the directive IR.
//!
//! - XMP0110 a `nodes` size, template extent, `block(n)`/`cyclic(n)` width or `shadow`
//!   / `reflect` width out of range (`nodes p(0)`, `p(-2)`, `cyclic(0)`, `shadow a[-1]`,
//!   an empty template `t(1:0)`), or an integer literal too large for 64 bits (it
//!   would wrap)
//! - XMP0111 a constant subscript of a node set or template in an `on`/`from` clause
//!   outside its declared shape (`task on p(5)` with `nodes p(4)`)
//! - XMP0112 `reflect` (or `reduce_shadow`, `reflect_init`) of an array aligned in this
//!   file that has no `shadow` directive; Omni's C translator refuses it the same way
//!   ("the aligned array 'a' has no shadow declaration", XMPshadow.translateReflect).
//!   Fortran `reflect` is accepted, as Omni's Fortran front end does: nothing to exchange

use std::collections::{HashMap, HashSet};

use xmpc_ir::directive::{DirLang, DirectiveKind, DistFormat, Ref, ShadowWidth, Spelling, SubKind, Width};
use xmpc_ir::expr::{BinOp, ExprKind, UnOp};
use xmpc_ir::{Diag, Expr, FileUnit, Span};

/// The largest node-set extent accepted (a node is an MPI process: `int` ranks).
const MAX_NODES: i128 = i32::MAX as i128;

/// A constant's value, or why it has none.
enum Const {
    Value(i128),
    /// An integer literal that does not fit in 64 bits.
    TooBig(Span),
    /// Not a constant expression (a variable, a call...).
    Unknown,
}

fn int_literal(text: &str) -> Option<Result<i128, ()>> {
    let t = text.trim();
    // Fortran kind (`8_8`, `10_ik`), C suffixes (`10UL`).
    let t = t.split('_').next().unwrap_or(t);
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit()) {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    match i128::from_str_radix(digits, radix) {
        Ok(v) if v <= i64::MAX as i128 => Some(Ok(v)),
        _ => Some(Err(())),
    }
}

fn eval(e: &Expr) -> Const {
    match &e.kind {
        ExprKind::Int(s) => match int_literal(s) {
            Some(Ok(v)) => Const::Value(v),
            Some(Err(())) => Const::TooBig(e.span),
            None => Const::Unknown,
        },
        ExprKind::Unary(op @ (UnOp::Neg | UnOp::Plus), x) => match eval(x) {
            Const::Value(v) => Const::Value(if *op == UnOp::Neg { -v } else { v }),
            other => other,
        },
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => match (eval(a), eval(b)) {
            (Const::Value(x), Const::Value(y)) => {
                let v = match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    _ => x.checked_mul(y),
                };
                match v {
                    Some(v) if v.abs() <= i64::MAX as i128 => Const::Value(v),
                    _ => Const::TooBig(e.span),
                }
            }
            (Const::TooBig(s), _) | (_, Const::TooBig(s)) => Const::TooBig(s),
            _ => Const::Unknown,
        },
        _ => Const::Unknown,
    }
}

/// Constant `lower:upper` of a template dimension.
type Bounds = (i128, i128);

struct Lit<'a> {
    file: xmpc_ir::FileId,
    fortran: bool,
    diags: Vec<Diag>,
    /// Node sets: name → per-dimension constant size (None: `*` or not constant).
    nodes: HashMap<String, Option<Vec<Option<i128>>>>,
    /// Templates: name → per-dimension constant bounds.
    templates: HashMap<String, Option<Vec<Option<Bounds>>>>,
    src: &'a str,
}

impl Lit<'_> {
    fn key(&self, n: &str) -> String {
        if self.fortran {
            n.to_ascii_lowercase()
        } else {
            n.to_string()
        }
    }

    fn error(&mut self, code: &str, msg: String, at: Span, label: &str, help: &str) {
        self.diags.push(xmpc_ir::diag::error(code, msg, self.file, at, label).with_notes(vec![format!("help: {help}")]));
    }

    /// The value of `e`, reporting a literal that would wrap.
    fn value(&mut self, e: &Expr) -> Option<i128> {
        match eval(e) {
            Const::Value(v) => Some(v),
            Const::TooBig(s) => {
                self.error(
                    "XMP0110",
                    "integer literal too large (it does not fit in 64 bits and would wrap)".into(),
                    s,
                    "too large",
                    "sizes, bounds and widths must fit in 64-bit integers",
                );
                None
            }
            Const::Unknown => None,
        }
    }

    fn text(&self, s: Span) -> &str {
        self.src.get(s.range()).unwrap_or("")
    }

    fn width(&mut self, w: &Width, what: &str) {
        let same = w.lower.span == w.upper.span;
        for e in [&w.lower, &w.upper].into_iter().take(if same { 1 } else { 2 }) {
            if let Some(v) = self.value(e) {
                if v < 0 {
                    let t = self.text(e.span).to_string();
                    self.error(
                        "XMP0110",
                        format!("negative {what} width `{t}`"),
                        e.span,
                        "must be 0 or more",
                        &format!("a {what} width is the number of elements beside each node's block: 0 or more"),
                    );
                }
            }
        }
    }

    /// Constant bounds of a template shape; an empty dimension is reported.
    fn shape(&mut self, shape: &xmpc_ir::directive::TemplateShape) -> Vec<Option<(i128, i128)>> {
        let mut bounds = Vec::new();
        for d in &shape.dims {
            let Some((lo, hi)) = &d.bounds else {
                bounds.push(None);
                continue;
            };
            match (self.value(lo), self.value(hi)) {
                (Some(l), Some(h)) if h < l => {
                    let t = self.text(d.span).to_string();
                    self.error(
                        "XMP0110",
                        format!("template dimension `{t}` is empty (upper bound {h} below lower bound {l})"),
                        d.span,
                        "empty",
                        "a template dimension needs at least one index",
                    );
                    bounds.push(None);
                }
                (Some(l), Some(h)) => bounds.push(Some((l, h))),
                _ => bounds.push(None),
            }
        }
        bounds
    }

    fn declare(&mut self, kind: &DirectiveKind) {
        match kind {
            DirectiveKind::Nodes { names, dims, .. } => {
                let mut sizes = Vec::new();
                for d in dims {
                    let Some(e) = &d.size else {
                        sizes.push(None);
                        continue;
                    };
                    let v = self.value(e);
                    if let Some(v) = v {
                        if !(1..=MAX_NODES).contains(&v) {
                            let t = self.text(e.span).to_string();
                            self.error(
                                "XMP0110",
                                format!("node set size `{t}` is out of range"),
                                e.span,
                                "not a number of nodes",
                                &format!("a node-set dimension holds 1 to {MAX_NODES} nodes (`*` takes what is left)"),
                            );
                        }
                    }
                    sizes.push(v);
                }
                for n in names {
                    let k = self.key(&n.name);
                    let e = self.nodes.entry(k).or_insert_with(|| Some(sizes.clone()));
                    if e.as_ref() != Some(&sizes) {
                        *e = None; // declared twice differently: not checked
                    }
                }
            }
            DirectiveKind::Template { names, shape } => {
                let bounds = self.shape(shape);
                for n in names {
                    let k = self.key(&n.name);
                    let e = self.templates.entry(k).or_insert_with(|| Some(bounds.clone()));
                    if e.as_ref() != Some(&bounds) {
                        *e = None;
                    }
                }
            }
            DirectiveKind::TemplateFix { shape: Some(shape), name, .. } => {
                self.shape(shape);
                // fixed at run time: its extents are those of this directive, where it runs
                let k = self.key(&name.name);
                self.templates.insert(k, None);
            }
            _ => {}
        }
    }
}

impl Lit<'_> {
    fn check(&mut self, kind: &DirectiveKind, shadowed: &HashSet<String>, aligned: &HashSet<String>) {
        match kind {
            DirectiveKind::Distribute { dists, .. } => {
                for d in &dists.dists {
                    let Some(e) = &d.arg else { continue };
                    if !matches!(d.format, DistFormat::Block | DistFormat::Cyclic) {
                        continue;
                    }
                    if let Some(v) = self.value(e) {
                        if v < 1 {
                            let t = self.text(e.span).to_string();
                            let f = if d.format == DistFormat::Block { "block" } else { "cyclic" };
                            self.error(
                                "XMP0110",
                                format!("`{f}({t})`: the width must be at least 1"),
                                e.span,
                                "not a width",
                                &format!("`{f}(n)` gives each node n consecutive indices at a time; n must be 1 or more"),
                            );
                        }
                    }
                }
            }
            DirectiveKind::Shadow { widths, .. } => {
                for w in widths {
                    if let ShadowWidth::Width(w) = w {
                        self.width(w, "shadow");
                    }
                }
            }
            DirectiveKind::Reflect { vars, widths, .. }
            | DirectiveKind::ReduceShadow { vars, widths, .. }
            | DirectiveKind::ReflectInit { vars, widths, .. } => {
                for w in widths.iter().flatten() {
                    self.width(w, "reflect");
                }
                // Omni's Fortran front end accepts a `reflect` of an array without `shadow`
                // (XMPanalyzePragma.analyzeReflect: a no-op, no width to exchange; SCOPE
                // bug472G2); its C translator refuses it
                if !(self.fortran && matches!(kind, DirectiveKind::Reflect { .. })) {
                    self.no_shadow(vars, shadowed, aligned, kind);
                }
            }
            DirectiveKind::ReflectDo { vars, .. } => self.no_shadow(vars, shadowed, aligned, kind),
            DirectiveKind::Task { on, .. } | DirectiveKind::Array { on, .. } => self.on_ref(on),
            DirectiveKind::Loop(l) | DirectiveKind::DeviceLoop(l) => self.on_ref(&l.on),
            DirectiveKind::Barrier { on: Some(r), .. } | DirectiveKind::Reduction { on: Some(r), .. } | DirectiveKind::WaitAsync { on: Some(r), .. } => {
                self.on_ref(r)
            }
            DirectiveKind::Bcast { from, on, .. } => {
                for r in from.iter().chain(on.iter()) {
                    self.on_ref(r);
                }
            }
            _ => {}
        }
    }

    fn no_shadow(&mut self, vars: &[xmpc_ir::directive::Name], shadowed: &HashSet<String>, aligned: &HashSet<String>, kind: &DirectiveKind) {
        let what = match kind {
            DirectiveKind::ReduceShadow { .. } => "reduce_shadow",
            DirectiveKind::ReflectInit { .. } => "reflect_init",
            DirectiveKind::ReflectDo { .. } => "reflect_do",
            _ => "reflect",
        };
        for n in vars {
            let k = self.key(&n.name);
            if aligned.contains(&k) && !shadowed.contains(&k) {
                self.error(
                    "XMP0112",
                    format!("`{what}` of `{}`, which has no `shadow` declaration", n.name),
                    n.span,
                    "no shadow",
                    &format!(
                        "declare its shadow (`shadow {}{}1{}`), or remove the `{what}`",
                        n.name,
                        if self.fortran { "(" } else { "[" },
                        if self.fortran { ")" } else { "]" }
                    ),
                );
            }
        }
    }

    /// Constant subscripts of a node set or template reference within its shape.
    fn on_ref(&mut self, r: &Ref) {
        let Some(subs) = &r.subs else { return };
        let k = self.key(&r.name.name);
        // Node references count from 1 in round spelling, from 0 in square (C).
        let node_dims = self.nodes.get(&k).cloned().flatten();
        let tmpl_dims = self.templates.get(&k).cloned().flatten();
        if node_dims.is_none() && tmpl_dims.is_none() {
            return;
        }
        if node_dims.is_some() && tmpl_dims.is_some() {
            return; // a node set and a template of one name (different scopes): not checked
        }
        for (i, sub) in subs.iter().enumerate() {
            let range = match (&node_dims, &tmpl_dims) {
                (Some(n), _) => match n.get(i).copied().flatten() {
                    Some(size) if r.spelling == Spelling::Square => (0, size - 1),
                    Some(size) => (1, size),
                    None => continue,
                },
                (_, Some(t)) => match t.get(i).copied().flatten() {
                    Some(b) => b,
                    None => continue,
                },
                _ => continue,
            };
            let exprs: Vec<&Expr> = match &sub.kind {
                SubKind::Expr(e) => vec![e],
                SubKind::Triplet { lower, upper, .. } => lower.iter().chain(upper.iter()).collect(),
                _ => vec![],
            };
            for e in exprs {
                if let Some(v) = self.value(e) {
                    if v < range.0 || v > range.1 {
                        let t = self.text(e.span).to_string();
                        let what = if node_dims.is_some() { "node set" } else { "template" };
                        self.error(
                            "XMP0111",
                            format!("`{}`: index `{t}` is outside the {what} (dimension {} runs from {} to {})", self.text(r.span), i + 1, range.0, range.1),
                            e.span,
                            "out of range",
                            if node_dims.is_some() && r.spelling == Spelling::Round {
                                "node references in round brackets count from 1; in square brackets (C) from 0"
                            } else {
                                "use an index inside the declared shape"
                            },
                        );
                    }
                }
            }
        }
    }
}

/// Checks the literals of every directive of `unit`.
pub fn check(unit: &FileUnit, src: &str) -> Vec<Diag> {
    let mut l = Lit { file: unit.file, fortran: unit.lang.is_fortran(), diags: Vec::new(), nodes: HashMap::new(), templates: HashMap::new(), src };
    let pragmas = unit.pragmas();
    let mut shadowed = HashSet::new();
    let mut aligned = HashSet::new();
    for p in &pragmas {
        l.fortran = unit.lang.is_fortran() || p.dir.lang == DirLang::Fortran;
        l.declare(&p.dir.kind);
        match &p.dir.kind {
            DirectiveKind::Shadow { names, .. } => shadowed.extend(names.iter().map(|n| l.key(&n.name))),
            DirectiveKind::Align { names, .. } => aligned.extend(names.iter().map(|n| l.key(&n.name))),
            _ => {}
        }
    }
    for p in &pragmas {
        l.check(&p.dir.kind, &shadowed, &aligned);
    }
    l.diags
}
