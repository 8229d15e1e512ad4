//! One function per XMP / XMP-dev / XACC directive (the text after `xmp`).

use super::lexer::TokKind;
use super::parser::{PResult, P};
use super::PErr;
use xmpc_ir::diag::did_you_mean;
use xmpc_ir::directive::*;
use xmpc_ir::Span;

const DIRECTIVES: &[&str] = &[
    "nodes",
    "template",
    "distribute",
    "align",
    "shadow",
    "template_fix",
    "loop",
    "reflect",
    "reduce_shadow",
    "reduction",
    "bcast",
    "barrier",
    "task",
    "tasks",
    "gmove",
    "array",
    "wait_async",
    "static_desc",
    "device",
    "reflect_init",
    "reflect_do",
    "save_desc",
    "local_alias",
    "coarray",
    "image",
    "end",
];
/// Fortran-only directives (Omni's Fortran front end; C has `static_desc`).
const FORTRAN_ONLY: &[&str] = &["save_desc", "local_alias", "coarray", "image"];
/// XMP directives xmpc recognises but does not implement (local view, coarrays, ...).
const UNSUPPORTED: &[&str] = &["post", "wait", "lock", "unlock", "sync_memory", "sync_images", "sync_all", "critical"];
const DEVICE: &[&str] = &["replicate", "replicate_sync", "loop", "reset_weight"];
const TRAILERS: [&str; 4] = ["async", "acc", "host", "profile"];

fn with_trailers(extra: &[&'static str]) -> Vec<&'static str> {
    extra.iter().copied().chain(TRAILERS).collect()
}

/// The directive names of a language (the Fortran-only ones are not offered in C).
fn known(lang: DirLang) -> Vec<&'static str> {
    DIRECTIVES.iter().copied().filter(|d| lang == DirLang::Fortran || !FORTRAN_ONLY.contains(d)).collect()
}

/// A Fortran-only directive written in C.
fn fortran_only_in_c(w: &str, word: &str, span: Span) -> PErr {
    if word == "coarray" || word == "image" {
        // C's `coarray` is the local view's (frontend/src/c/local_view), read before this parser
        return PErr::new("XMP0005", format!("the '{w}' directive is not supported by xmpc"), span, "not supported")
            .help("xmpc implements the global-view directives, XMP-dev and XACC");
    }
    let instead = if word == "save_desc" { "'static_desc' keeps descriptors" } else { "xmp_array_laddr gives the local block" };
    PErr::new("XMP0005", format!("the '{w}' directive is not supported by xmpc in C"), span, "Fortran only")
        .help(format!("Omni has it in Fortran only; in C, {instead}"))
}

/// Omni's Fortran `coarray on p :: a, b` and `image(p)` (the word already read).
fn omni_coarray(p: &mut P, word: &str) -> PResult<DirectiveKind> {
    if word == "coarray" {
        p.expect_kw("on", "'on' and a node set name")?;
        let on = p.reference("a node set name after 'on'")?;
        p.expect_p("::", "'::' and the coarray names")?;
        let names = p.name_list("coarray name")?;
        p.clauses("coarray", &[])?;
        return Ok(DirectiveKind::Coarray { on, names });
    }
    p.expect_p("(", "'(' and a node set name")?;
    let on = p.reference("a node set name")?;
    p.expect_p(")", "')'")?;
    p.clauses("image", &[])?;
    Ok(DirectiveKind::Image { on })
}

/// The directive after `xmp`; returns its kind and the span of its name word(s).
pub(crate) fn directive(p: &mut P) -> PResult<(DirectiveKind, Span)> {
    let t = p.peek().clone();
    let TokKind::Ident(w) = &t.kind else {
        return Err(p.expected("a directive name").help(format!("directives: {}", known(p.lang).join(", "))));
    };
    let word = p.kw(w);
    let mut name_span = t.span;
    if !DIRECTIVES.contains(&word.as_str()) {
        if UNSUPPORTED.iter().any(|u| *u == word) {
            return Err(PErr::new("XMP0005", format!("the '{w}' directive is not supported by xmpc"), t.span, "not supported")
                .help("xmpc implements the global-view directives, XMP-dev and XACC"));
        }
        let mut e = PErr::new("XMP0004", format!("unknown XMP directive '{w}'"), t.span, "unknown directive");
        if let Some(s) = did_you_mean(w, known(p.lang)) {
            e = e.help(format!("did you mean '{s}'?"));
        }
        return Err(e.help(format!("expected one of: {}", known(p.lang).join(", "))));
    }
    if p.lang == DirLang::C && FORTRAN_ONLY.contains(&word.as_str()) {
        return Err(fortran_only_in_c(w, &word, t.span));
    }
    p.bump();
    let kind = match word.as_str() {
        "nodes" => nodes(p)?,
        "template" => {
            let (names, shape) = decl(p, "template", "template name", |p| p.template_shape())?;
            p.clauses("template", &[])?;
            DirectiveKind::Template { names, shape }
        }
        "distribute" => {
            let (names, (dists, onto)) = decl(p, "distribute", "template name", |p| {
                let d = p.dist_list()?;
                p.expect_kw("onto", "'onto' and a node set name")?;
                Ok((d, p.reference("a node set name after 'onto'")?))
            })?;
            p.clauses("distribute", &[])?;
            DirectiveKind::Distribute { names, dists, onto }
        }
        "align" => {
            let (names, (source, with)) = decl(p, "align", "array name", |p| {
                let src = array_dims(p, "an index variable, '*' or ':'", |p, _| align_src(p))?;
                p.expect_kw("with", "'with' and a template reference")?;
                Ok((src, p.reference("a template name after 'with'")?))
            })?;
            p.clauses("align", &[])?;
            DirectiveKind::Align { names, source, with }
        }
        "shadow" => {
            let (names, widths) = decl(p, "shadow", "array name", |p| array_dims(p, "a shadow width", shadow_width))?;
            p.clauses("shadow", &[])?;
            DirectiveKind::Shadow { names, widths }
        }
        "template_fix" => {
            let dists = if p.shape_opens().is_some() { Some(p.dist_list()?) } else { None };
            let name = p.ident("a template name")?;
            let shape = if p.shape_opens().is_some() { Some(p.template_shape()?) } else { None };
            p.clauses("template_fix", &[])?;
            DirectiveKind::TemplateFix { dists, name, shape }
        }
        "loop" => DirectiveKind::Loop(loop_dir(p, "loop", &with_trailers(&["reduction", "expand", "margin", "peel_and_wait"]))?),
        "reflect" | "reduce_shadow" | "reflect_init" => {
            let vars = p.var_list()?;
            let allowed = if word == "reflect_init" { vec!["width", "acc", "host"] } else { with_trailers(&["width"]) };
            let c = p.clauses(&word, &allowed)?;
            match word.as_str() {
                "reflect" => DirectiveKind::Reflect { vars, widths: c.width, trailers: c.trailers },
                "reduce_shadow" => DirectiveKind::ReduceShadow { vars, widths: c.width, trailers: c.trailers },
                _ => DirectiveKind::ReflectInit { vars, widths: c.width, trailers: c.trailers },
            }
        }
        "reflect_do" => {
            let vars = p.var_list()?;
            let c = p.clauses("reflect_do", &["acc", "host"])?;
            DirectiveKind::ReflectDo { vars, trailers: c.trailers }
        }
        "reduction" => {
            // Further `reduction(...)` groups accumulate, as on `loop`.
            let mut reductions = p.reduction_paren()?;
            let c = p.clauses("reduction", &with_trailers(&["on", "reduction"]))?;
            reductions.extend(c.reductions);
            DirectiveKind::Reduction { reductions, on: c.on, trailers: c.trailers }
        }
        "bcast" => {
            // Variables or array sections (`a[2:5]`, Omni accepts them).
            let vars = p.paren_list("a variable or array section", |p| p.reference("a variable name"))?;
            let c = p.clauses("bcast", &with_trailers(&["from", "on"]))?;
            DirectiveKind::Bcast { vars, from: c.from, on: c.on, trailers: c.trailers }
        }
        "barrier" => {
            let c = p.clauses("barrier", &with_trailers(&["on"]))?;
            DirectiveKind::Barrier { on: c.on, trailers: c.trailers }
        }
        "task" => {
            p.expect_kw("on", "'on' and a node or template reference")?;
            let on = p.reference("a node or template name after 'on'")?;
            let c = p.clauses("task", &with_trailers(&["nocomm"]))?;
            DirectiveKind::Task { on, nocomm: c.nocomm, trailers: c.trailers }
        }
        "tasks" => DirectiveKind::Tasks { nowait: p.clauses("tasks", &["nowait"])?.nowait },
        "gmove" => {
            let c = p.clauses("gmove", &with_trailers(&["in", "out"]))?;
            DirectiveKind::Gmove { mode: c.mode, trailers: c.trailers }
        }
        "array" => {
            p.expect_kw("on", "'on' and a template reference")?;
            let on = p.reference("a template name after 'on'")?;
            let c = p.clauses("array", &[])?;
            DirectiveKind::Array { on, trailers: c.trailers }
        }
        "wait_async" => {
            let ids = p.paren_list("an async id", |p| p.expr())?;
            let c = p.clauses("wait_async", &["on"])?;
            DirectiveKind::WaitAsync { ids, on: c.on }
        }
        "static_desc" => {
            p.eat_p("::");
            let names = p.name_list("a template or array name")?;
            p.clauses("static_desc", &[])?;
            DirectiveKind::StaticDesc { names }
        }
        "save_desc" => {
            // Omni: a single name, or `:: name-list`
            p.eat_p("::");
            let names = p.name_list("a node set, template or aligned array name")?;
            p.clauses("save_desc", &[])?;
            DirectiveKind::SaveDesc { names }
        }
        "local_alias" => {
            let local = p.ident("the local alias name")?;
            p.expect_p("=>", "'=>' and the global array name")?;
            let global = p.ident("the global (aligned) array name")?;
            p.clauses("local_alias", &[])?;
            DirectiveKind::LocalAlias { local, global }
        }
        "coarray" | "image" => omni_coarray(p, &word)?,
        "device" => {
            let (k, s) = device(p)?;
            name_span = name_span.to(s);
            k
        }
        _ => {
            let (what, s) = end(p, t.span)?;
            name_span = name_span.to(s);
            DirectiveKind::End(what)
        }
    };
    Ok((kind, name_span))
}

/// Name-first (`nodes p(4)`) or spec-first (`nodes (4) :: p, q`) declaration.
fn decl<T>(p: &mut P, dir: &str, what: &str, mut spec: impl FnMut(&mut P) -> PResult<T>) -> PResult<(Vec<Name>, T)> {
    if p.is_ident() {
        // `align s.a[i] ...`, `shadow s.a[1]`, Fortran `align s%a(i)`: a structure member.
        let n = if matches!(dir, "align" | "shadow") { p.member_name(what)? } else { p.ident(what)? };
        let t = spec(p)?;
        return Ok((vec![n], t));
    }
    if p.shape_opens().is_none() {
        return Err(p.expected(&format!("a {what}, or a spec followed by ':: name-list'")));
    }
    let start = p.pos_start();
    let t = spec(p)?;
    if p.eat_p("::").is_none() {
        if p.at_eof() {
            return Err(PErr::new(
                "XMP0025",
                format!("'{dir}' names nothing"),
                p.derived_since(start),
                format!("this spec is not followed by ':: {what}-list'"),
            )
            .help(format!("put the name first ({dir} x...) or add ':: x, y' after the spec")));
        }
        return Err(p.expected("'::' and a name list"));
    }
    Ok((p.name_list(what)?, t))
}

fn nodes(p: &mut P) -> PResult<DirectiveKind> {
    let (names, (dims, spelling, mapping)) = decl(p, "nodes", "node set name", |p| {
        let (dims, spelling) = p.shaped("a node count or '*'", true, |p, sp| p.node_dim(sp))?;
        let mapping = match p.eat_p("=") {
            None => None,
            Some(_) => match p.eat_p("*") {
                Some(s) => Some(NodesMapping::Star(p.m(s))),
                None => Some(NodesMapping::Ref(p.reference("'*' or a node set after '='")?)),
            },
        };
        Ok((dims, spelling, mapping))
    })?;
    p.clauses("nodes", &[])?;
    Ok(DirectiveKind::Nodes { names, dims, spelling, mapping })
}

/// Array dimensions: `[..][..]` in C, `(.., ..)` in Fortran, in the array's own order.
fn array_dims<T>(p: &mut P, what: &str, f: impl FnMut(&mut P, Spelling) -> PResult<T>) -> PResult<Vec<T>> {
    if p.is_p(".") || p.is_p("%") {
        return Err(PErr::new(
            "XMP0005",
            "a component of a structure component (`s%t%a`, `s.t.a`) as a distributed array is not supported",
            p.peek().span,
            "nested member",
        )
        .help("align a component of the outer type (`align b%a(i) ...`), or a separate array"));
    }
    if p.lang == DirLang::C && p.is_p("(") {
        return Err(
            PErr::new("XMP0022", "C arrays take square brackets", p.peek().span, "expected '['").help("write a[i][j], one bracket per dimension in C order")
        );
    }
    Ok(p.shaped(what, false, f)?.0)
}

fn align_src(p: &mut P) -> PResult<AlignSrc> {
    if let Some(s) = p.eat_p("*") {
        return Ok(AlignSrc::Star(p.m(s)));
    }
    if let Some(s) = p.eat_p(":") {
        return Ok(AlignSrc::Colon(p.m(s)));
    }
    Ok(AlignSrc::Index(p.ident("an index variable, '*' or ':'")?))
}

fn shadow_width(p: &mut P, sp: Spelling) -> PResult<ShadowWidth> {
    if let Some(s) = p.eat_lone_star(sp) {
        return Ok(ShadowWidth::Full(p.m(s)));
    }
    Ok(ShadowWidth::Width(p.width()?))
}

fn loop_dir(p: &mut P, dir: &str, allowed: &[&'static str]) -> PResult<LoopDir> {
    let indices = if p.is_p("(") {
        p.paren_list("a loop index variable", |p| p.ident("a loop index variable"))?
    } else if p.is_p("[") {
        // Omni's C "square" form `loop [i][j] on t[i][j]`: the order of round `(j, i)`
        let mut v = Vec::new();
        while p.is_p("[") {
            let open = p.expect_p("[", "'['")?;
            v.push(p.ident("a loop index variable")?);
            p.close("]", open, "']'")?;
        }
        v.reverse();
        v
    } else {
        Vec::new()
    };
    p.expect_kw("on", "'on' and a template reference")?;
    let on = p.reference("a template name after 'on'")?;
    let c = p.clauses(dir, allowed)?;
    Ok(LoopDir { indices, on, reductions: c.reductions, option: c.option, trailers: c.trailers })
}

fn device(p: &mut P) -> PResult<(DirectiveKind, Span)> {
    let t = p.peek().clone();
    let TokKind::Ident(w) = &t.kind else {
        return Err(p.expected("a device directive (replicate, replicate_sync, loop or reset_weight)"));
    };
    let word = p.kw(w);
    if !DEVICE.contains(&word.as_str()) {
        let mut e = PErr::new("XMP0029", format!("unknown device directive '{w}'"), t.span, "unknown device directive");
        if let Some(s) = did_you_mean(w, DEVICE.iter().copied()) {
            e = e.help(format!("did you mean '{s}'?"));
        }
        return Err(e.help("expected replicate, replicate_sync, loop or reset_weight"));
    }
    p.bump();
    let kind = match word.as_str() {
        "replicate" => {
            let vars = p.var_list()?;
            p.clauses("device replicate", &[])?;
            DirectiveKind::DeviceReplicate { vars }
        }
        "replicate_sync" => {
            let dir = if p.eat_kw("in").is_some() {
                SyncDir::In
            } else if p.eat_kw("out").is_some() {
                SyncDir::Out
            } else {
                return Err(p.expected("'in' or 'out'"));
            };
            let vars = p.var_list()?;
            p.clauses("device replicate_sync", &[])?;
            DirectiveKind::DeviceReplicateSync { dir, vars }
        }
        "loop" => DirectiveKind::DeviceLoop(loop_dir(p, "device loop", &["reduction"])?),
        _ => {
            let open = p.expect_p("(", "'(' and the CPU weight")?;
            let e = p.expr()?;
            p.close(")", open, "')'")?;
            p.clauses("device reset_weight", &[])?;
            DirectiveKind::DeviceResetWeight(e)
        }
    };
    Ok((kind, t.span))
}

/// Fortran `end task`, `end tasks`, `end device replicate`.
fn end(p: &mut P, end_span: Span) -> PResult<(String, Span)> {
    if p.lang == DirLang::C {
        return Err(PErr::new("XMP0028", "'end' directives exist only in Fortran", end_span, "not a C directive")
            .help("in C a task or replicate directive applies to the following statement or { block }"));
    }
    let t = p.peek().clone();
    let word = match &t.kind {
        TokKind::Ident(w) => p.kw(w),
        _ => return Err(p.expected("'task', 'tasks' or 'device replicate' after 'end'")),
    };
    let what = match word.as_str() {
        "task" | "tasks" => {
            p.bump();
            word
        }
        "device" => {
            p.bump();
            p.expect_kw("replicate", "'replicate' after 'end device'")?;
            "device replicate".to_string()
        }
        _ => {
            return Err(PErr::new("XMP0028", format!("'end {word}' closes no XMP block"), t.span, "unknown block name")
                .help("expected 'end task', 'end tasks' or 'end device replicate'"))
        }
    };
    let s = Span::new(t.span.start, p.derived_since(t.span.start).end);
    p.clauses(&format!("end {what}"), &[])?;
    Ok((what, s))
}
