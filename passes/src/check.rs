//! Semantic checks of XMP directives that need no translation: every name a directive
//! uses is declared and of the right kind, ranks agree, and directives that apply to a
//! loop are followed by one.
//!
//! Codes (the directive parser owns XMP0001–XMP0099; the Fortran front end XMP0105):
//! - XMP0101 nodes (or node/template for `on`) not declared
//! - XMP0102 template not declared
//! - XMP0103 array not declared
//! - XMP0104 rank mismatch (`align`, `shadow`, `loop`/`distribute` subscripts)
//! - XMP0106 `loop` / `device loop` not followed by a loop
//! - XMP0107 `distribute` lists a different number of formats than the template has dimensions
//! - XMP0108 `distribute` distributes a different number of dimensions than the nodes have
//! - XMP0109 `shadow`/`reflect` of an array that is not aligned

use std::collections::HashMap;

use xmpc_ir::diag::{did_you_mean, Label};
use xmpc_ir::directive::{DirLang, DirectiveKind, DistFormat, Name, Ref};
use xmpc_ir::{Diag, FileId, FileUnit, Function, Item, Pragma, Span, Stmt, StmtKind, SymbolTable, Type, TypeTable};

/// Checks every directive of `unit`; returns the problems found.
pub fn check(unit: &FileUnit, src: &str) -> Vec<Diag> {
    let mut c = Checker { file: unit.file, src, types: &unit.types, fortran: unit.lang.is_fortran(), diags: Vec::new() };
    let modules = module_envs(unit, src);
    let mut global = Env::default();
    global.add_ranks(&unit.globals, &unit.types, c.fortran);
    // File-scope directives and declarations (C).
    let file_pragmas: Vec<&Pragma> = unit.items.iter().filter_map(|i| if let Item::Pragma(p) = i { Some(p) } else { None }).collect();
    for p in &file_pragmas {
        global.declare(p, c.fortran);
    }
    for p in &file_pragmas {
        c.pragma(p, &global);
    }
    for it in &unit.items {
        match it {
            Item::Function(f) => c.function(f, &global, &modules),
            Item::Module(m) => {
                let env = &modules[&key(&m.name, true)];
                for s in &m.decls {
                    c.stmt(s, env);
                }
                for f in &m.contains {
                    c.function(f, env, &modules);
                }
            }
            _ => {}
        }
    }
    // Sizes, widths and constant references (passes/src/literals.rs).
    c.diags.extend(crate::literals::check(unit, src));
    c.diags
}

fn key(name: &str, fortran: bool) -> String {
    if fortran {
        name.to_ascii_lowercase()
    } else {
        name.to_string()
    }
}

/// What a scope declares: XMP objects (by kind, with rank and declaration span) and
/// host arrays (with rank, when known). `opaque` scopes import names this file cannot
/// see (a Fortran `use` of another file's module), so "not declared" is not reported.
#[derive(Clone, Default)]
struct Env {
    nodes: HashMap<String, (usize, Span)>,
    templates: HashMap<String, (usize, Span)>,
    aligned: HashMap<String, Span>,
    arrays: HashMap<String, (Option<usize>, Span)>,
    opaque: bool,
}

impl Env {
    /// Ranks of the table's symbols. Names declared twice in one table (a local
    /// shadowed in a nested block) with different ranks get no rank: which one a
    /// directive means depends on where it is, which the translator resolves.
    fn add_ranks(&mut self, t: &SymbolTable, types: &TypeTable, fortran: bool) {
        let mut seen: HashMap<String, Option<usize>> = HashMap::new();
        for s in &t.symbols {
            let rank = match types.types.get(s.ty) {
                Some(Type::Array { dims, .. }) => Some(dims.len()),
                Some(Type::Pointer(_)) => None,
                _ => Some(0),
            };
            let k = key(&s.name, fortran);
            let rank = match seen.get(&k) {
                Some(&r) if r != rank => None,
                _ => rank,
            };
            seen.insert(k.clone(), rank);
            self.arrays.insert(k, (rank, s.span));
        }
    }
    fn declare(&mut self, p: &Pragma, fortran: bool) {
        match &p.dir.kind {
            DirectiveKind::Nodes { names, dims, .. } => {
                for n in names {
                    self.nodes.insert(key(&n.name, fortran), (dims.len(), n.span));
                }
            }
            DirectiveKind::Template { names, shape } => {
                for n in names {
                    self.templates.insert(key(&n.name, fortran), (shape.dims.len(), n.span));
                }
            }
            DirectiveKind::Align { names, .. } => {
                for n in names {
                    self.aligned.insert(key(&n.name, fortran), n.span);
                }
            }
            _ => {}
        }
    }
}

struct Checker<'a> {
    file: FileId,
    src: &'a str,
    types: &'a TypeTable,
    fortran: bool,
    diags: Vec<Diag>,
}

/// Environments of the modules defined in this file, by lower-cased name. A module
/// sees what the modules it `use`s declare (those of this file, defined before it;
/// another file's module makes it opaque).
fn module_envs(unit: &FileUnit, src: &str) -> HashMap<String, Env> {
    let mut out: HashMap<String, Env> = HashMap::new();
    for it in &unit.items {
        if let Item::Module(m) = it {
            let mut env = Env::default();
            let (mods, include) = imports(&m.decls, src);
            for u in mods {
                match out.get(&u) {
                    Some(menv) => merge(&mut env, menv),
                    None => env.opaque = true,
                }
            }
            env.opaque |= include;
            env.add_ranks(&m.symbols, &unit.types, true);
            for s in &m.decls {
                collect_decls(s, &mut env, true);
            }
            out.insert(key(&m.name, true), env);
        }
    }
    out
}

fn collect_decls(s: &Stmt, env: &mut Env, fortran: bool) {
    s.walk(&mut |x| {
        if let StmtKind::Pragma(p) = &x.kind {
            env.declare(p, fortran);
        }
    });
}

/// Names of the modules a Fortran unit `use`s, and whether it `include`s a file
/// (the IR keeps both as verbatim statements).
fn imports(body: &[Stmt], src: &str) -> (Vec<String>, bool) {
    let mut mods = Vec::new();
    let mut include = false;
    for s in body.iter().filter(|s| matches!(s.kind, StmtKind::Verbatim)) {
        let text = src.get(s.span.range()).unwrap_or("");
        for line in text.lines() {
            let t = line.trim_start().to_ascii_lowercase();
            if t.starts_with("include") {
                include = true;
            }
            let Some(rest) = t.strip_prefix("use") else { continue };
            if !rest.starts_with([' ', ',', ':']) {
                continue;
            }
            let rest = rest.trim_start_matches([' ', ',']);
            let rest = rest.strip_prefix("intrinsic").unwrap_or(rest).trim_start_matches([' ', ':']);
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                mods.push(name);
            }
        }
    }
    (mods, include)
}

impl Checker<'_> {
    fn function(&mut self, f: &Function, outer: &Env, modules: &HashMap<String, Env>) {
        let mut env = outer.clone();
        env.add_ranks(&f.symbols, self.types, self.fortran);
        if self.fortran {
            let (mods, include) = imports(&f.body, self.src);
            for m in mods {
                match modules.get(&m) {
                    Some(menv) => merge(&mut env, menv),
                    // Declared in a file we cannot see: do not guess.
                    None => env.opaque = true,
                }
            }
            env.opaque |= include;
        }
        for s in &f.body {
            collect_decls(s, &mut env, self.fortran);
        }
        for s in &f.body {
            self.stmt(s, &env);
        }
        for c in &f.contains {
            self.function(c, &env, modules);
        }
    }

    fn stmt(&mut self, s: &Stmt, env: &Env) {
        if let StmtKind::Pragma(p) = &s.kind {
            self.pragma(p, env);
        }
        for c in s.children() {
            self.stmt(c, env);
        }
    }

    fn pragma(&mut self, p: &Pragma, env: &Env) {
        let fortran = self.fortran || p.dir.lang == DirLang::Fortran;
        let k = |n: &str| key(n, fortran);
        match &p.dir.kind {
            DirectiveKind::Nodes { mapping: Some(xmpc_ir::directive::NodesMapping::Ref(r)), .. } => self.nodes_ref(r, env, false),
            DirectiveKind::Distribute { names, dists, onto } => {
                self.nodes_ref(onto, env, false);
                for n in names {
                    let Some(&(rank, decl)) = self.template(n, env) else { continue };
                    if dists.dists.len() != rank {
                        self.diags.push(
                            xmpc_ir::diag::error(
                                "XMP0107",
                                format!("`distribute` gives {} format(s) for the {rank}-dimensional template `{}`", dists.dists.len(), n.name),
                                self.file,
                                n.span,
                                format!("template with {rank} dimension(s)"),
                            )
                            .with_labels(vec![Label::secondary(self.file, decl.range()).with_message("declared here")])
                            .with_notes(vec![format!("help: give one format (block, cyclic, gblock or *) per template dimension, {rank} in all")]),
                        );
                    }
                    let distributed = dists.dists.iter().filter(|d| d.format != DistFormat::Dup).count();
                    if let Some(&(nrank, ndecl)) = env.nodes.get(&k(&onto.name.name)) {
                        if onto.subs.is_none() && distributed != nrank && dists.dists.len() == rank {
                            self.diags.push(
                                xmpc_ir::diag::error(
                                    "XMP0108",
                                    format!("`distribute` distributes {distributed} dimension(s) onto the {nrank}-dimensional nodes `{}`", onto.name.name),
                                    self.file,
                                    onto.name.span,
                                    "here",
                                )
                                .with_labels(vec![Label::secondary(self.file, ndecl.range()).with_message("declared here")])
                                .with_notes(vec!["help: the number of formats other than `*` must equal the number of node dimensions".into()]),
                            );
                        }
                    }
                }
            }
            DirectiveKind::Align { names, source, with } => {
                let trank = self.template(&with.name, env).map(|t| t.0);
                if let (Some(trank), Some(subs)) = (trank, &with.subs) {
                    if subs.len() != trank {
                        let decl = env.templates[&k(&with.name.name)].1;
                        self.rank_error(
                            with.span,
                            format!("`align` subscripts the {trank}-dimensional template `{}` with {} subscript(s)", with.name.name, subs.len()),
                            decl,
                        );
                    }
                }
                for n in names {
                    let Some((rank, decl)) = self.array(n, env) else { continue };
                    if let Some(r) = rank {
                        if r != source.len() {
                            self.rank_error(n.span, format!("`{}` has {r} dimension(s) but the `align` source lists {}", n.name, source.len()), decl);
                        }
                    }
                }
            }
            DirectiveKind::Shadow { names, widths } => {
                for n in names {
                    if let Some((Some(r), decl)) = self.aligned_array(n, env) {
                        if r != widths.len() {
                            self.rank_error(n.span, format!("`{}` has {r} dimension(s) but `shadow` gives {} width(s)", n.name, widths.len()), decl);
                        }
                    }
                }
            }
            DirectiveKind::Reflect { vars, .. }
            | DirectiveKind::ReduceShadow { vars, .. }
            | DirectiveKind::ReflectInit { vars, .. }
            | DirectiveKind::ReflectDo { vars, .. } => {
                for n in vars {
                    self.aligned_array(n, env);
                }
            }
            DirectiveKind::TemplateFix { name, .. } => {
                self.template(name, env);
            }
            DirectiveKind::Loop(l) | DirectiveKind::DeviceLoop(l) => {
                self.template(&l.on.name, env);
                self.followed_by_loop(p);
            }
            DirectiveKind::Array { on, .. } => {
                self.template(&on.name, env);
            }
            DirectiveKind::Task { on, .. } => self.nodes_ref(on, env, true),
            DirectiveKind::Barrier { on: Some(r), .. } | DirectiveKind::Reduction { on: Some(r), .. } | DirectiveKind::WaitAsync { on: Some(r), .. } => {
                self.nodes_ref(r, env, true)
            }
            DirectiveKind::Bcast { from, on, .. } => {
                for r in from.iter().chain(on.iter()) {
                    self.nodes_ref(r, env, true);
                }
            }
            _ => {}
        }
    }

    fn rank_error(&mut self, at: Span, msg: String, decl: Span) {
        self.diags.push(
            xmpc_ir::diag::error("XMP0104", msg, self.file, at, "rank mismatch")
                .with_labels(vec![Label::secondary(self.file, decl.range()).with_message("declared here")]),
        );
    }

    fn undeclared(&mut self, code: &str, what: &str, n: &Name, candidates: Vec<(&String, Span)>) {
        let mut d = xmpc_ir::diag::error(code, format!("{what} `{}` is not declared", n.name), self.file, n.span, format!("unknown {what}"));
        if let Some(best) = did_you_mean(&n.name, candidates.iter().map(|c| c.0.as_str())) {
            let decl = candidates.iter().find(|c| c.0 == best).map(|c| c.1).expect("suggestion comes from the candidates");
            d = d.with_labels(vec![Label::secondary(self.file, decl.range()).with_message(format!("did you mean `{best}`? declared here"))]);
        } else {
            let help = match what {
                "template" => "help: declare it first with a `template` directive".to_string(),
                "array" => format!("help: declare `{}` in the program before the directive that distributes it", n.name),
                _ => "help: declare it first with a `nodes` directive".to_string(),
            };
            d = d.with_notes(vec![help]);
        }
        self.diags.push(d);
    }

    fn template<'e>(&mut self, n: &Name, env: &'e Env) -> Option<&'e (usize, Span)> {
        let found = env.templates.get(&key(&n.name, self.fortran));
        if found.is_none() && !env.opaque {
            let cands = env.templates.iter().map(|(k, v)| (k, v.1)).collect();
            self.undeclared("XMP0102", "template", n, cands);
        }
        found
    }

    fn array(&mut self, n: &Name, env: &Env) -> Option<(Option<usize>, Span)> {
        if n.name.contains(['.', '%']) {
            return None; // a structure member (C `s.a`, Fortran `s%a`): the translator resolves it
        }
        let found = env.arrays.get(&key(&n.name, self.fortran)).copied();
        if found.is_none() && !env.opaque {
            let cands = env.arrays.iter().map(|(k, v)| (k, v.1)).collect();
            self.undeclared("XMP0103", "array", n, cands);
        }
        found
    }

    fn aligned_array(&mut self, n: &Name, env: &Env) -> Option<(Option<usize>, Span)> {
        let a = self.array(n, env)?;
        if !env.aligned.contains_key(&key(&n.name, self.fortran)) && !env.opaque {
            self.diags.push(
                xmpc_ir::diag::error("XMP0109", format!("`{}` is not aligned with a template", n.name), self.file, n.span, "not a distributed array")
                    .with_labels(vec![Label::secondary(self.file, a.1.range()).with_message("declared here")])
                    .with_notes(vec![if self.fortran {
                        format!("help: add `!$xmp align {}(i) with t(i)` before using it here", n.name)
                    } else {
                        format!("help: add `#pragma xmp align {}[i] with t(i)` before using it here", n.name)
                    }]),
            );
            return None;
        }
        Some(a)
    }

    /// A node reference (`onto p`, `on p(1:2)`); `on` clauses may also name a template.
    fn nodes_ref(&mut self, r: &Ref, env: &Env, template_ok: bool) {
        let k = key(&r.name.name, self.fortran);
        if env.nodes.contains_key(&k) || (template_ok && env.templates.contains_key(&k)) || env.opaque {
            return;
        }
        let mut cands: Vec<(&String, Span)> = env.nodes.iter().map(|(k, v)| (k, v.1)).collect();
        if template_ok {
            cands.extend(env.templates.iter().map(|(k, v)| (k, v.1)));
        }
        self.undeclared("XMP0101", if template_ok { "node set or template" } else { "node set" }, &r.name, cands);
    }

    fn followed_by_loop(&mut self, p: &Pragma) {
        let is_loop = |s: &Stmt| matches!(s.kind, StmtKind::For { .. } | StmtKind::Do { .. } | StmtKind::While { .. });
        // An OpenACC construct between the XMP loop directive and the loop is fine.
        let mut body = p.body.as_deref();
        while let Some(Stmt { kind: StmtKind::Pragma(inner), .. }) = body {
            if !matches!(inner.dir.kind, DirectiveKind::Acc { .. }) {
                break;
            }
            body = inner.body.as_deref();
        }
        match body {
            Some(s) if is_loop(s) => {}
            other => {
                let mut d = xmpc_ir::diag::error(
                    "XMP0106",
                    format!("`{}` directive is not followed by a loop", p.dir.name()),
                    self.file,
                    p.dir.name_span,
                    "expects a loop next",
                );
                if let Some(s) = other {
                    d = d.with_labels(vec![Label::secondary(self.file, s.span.range()).with_message("this is not a loop")]);
                }
                let hint =
                    if self.fortran { "help: put the `do` loop right after the directive" } else { "help: put the `for` loop right after the directive" };
                self.diags.push(d.with_notes(vec![hint.into()]));
            }
        }
    }
}

fn merge(env: &mut Env, other: &Env) {
    env.nodes.extend(other.nodes.iter().map(|(k, v)| (k.clone(), *v)));
    env.templates.extend(other.templates.iter().map(|(k, v)| (k.clone(), *v)));
    env.aligned.extend(other.aligned.iter().map(|(k, v)| (k.clone(), *v)));
    env.arrays.extend(other.arrays.iter().map(|(k, v)| (k.clone(), *v)));
    env.opaque |= other.opaque;
}
