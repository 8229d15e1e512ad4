//! Declarative directives — `nodes`, `template`, `distribute`, `align`, `shadow` —
//! turned into the objects of the symbol table (`symbols.rs`), with their checks
//! (XMP0101–XMP0110): the same meaning for C and Fortran.

use super::diag::Code;
use super::iexpr::IExpr;
use super::on_ref;
use super::resolve::Resolver;
use super::symbols::*;
use xmpc_ir::diag::Label;
use xmpc_ir::directive::{AlignSrc, DirectiveKind, DistFormat, DistList, Name, NodesMapping, Ref, ShadowWidth, SubKind, TemplateShape};
use xmpc_ir::{Expr, ExprKind, Pragma, Span, Type};

impl<'a> Resolver<'a, '_> {
    /// Builds the objects a declarative directive declares (others: nothing).
    pub fn declare(&mut self, p: &'a Pragma) {
        let d = &p.dir;
        match &d.kind {
            DirectiveKind::Nodes { names, dims, mapping, .. } => {
                let sizes: Vec<Option<IExpr<'a>>> = dims.iter().map(|x| x.size.as_ref().map(IExpr::src)).collect();
                let map = match mapping {
                    Some(NodesMapping::Ref(r)) => match self.nodes(&r.name) {
                        Some(parent) => self.node_subset(parent, r),
                        None => return,
                    },
                    _ => NodesMap::Executing,
                };
                for n in names {
                    let id = NodesId(self.m.nodes.len());
                    let site = self.site();
                    self.m.nodes.push(NodesDecl { name: n.name.clone(), span: n.span, dir: d.span, site, sizes: sizes.clone(), map: map.clone() });
                    self.declared(p, n, Entity::Nodes(id));
                }
            }
            DirectiveKind::Template { names, shape } => {
                for n in names {
                    let id = TemplId(self.m.templates.len());
                    let dims = template_dims(shape);
                    let site = self.site();
                    self.m.templates.push(TemplateDecl { name: n.name.clone(), span: n.span, dir: d.span, site, dims, dist: None });
                    self.declared(p, n, Entity::Template(id));
                }
            }
            DirectiveKind::Distribute { names, dists, onto } => self.distribute(p, names, dists, onto),
            DirectiveKind::Align { names, source, with } => {
                let Some(t) = self.template(&with.name) else { return };
                let trank = self.m.templates[t.0].rank();
                if let Some(subs) = &with.subs {
                    // `*` subscripts past the template's rank name no dimension: Omni
                    // accepts them (intrinsic/F `align b(i,*) with ty(i,*)`, `ty` 1-D)
                    let extra_stars = subs.len() > trank && subs[trank..].iter().all(|x| matches!(x.kind, SubKind::Star));
                    if subs.len() != trank && !extra_stars {
                        let msg = format!("`align` subscripts the {trank}-dimensional template `{}` with {} subscript(s)", with.name.name, subs.len());
                        self.rank_error(with.span, msg, Some(self.m.templates[t.0].span));
                        return;
                    }
                }
                for n in names {
                    self.align(p, n, source, with, t);
                }
            }
            DirectiveKind::Shadow { names, widths } => {
                for n in names {
                    let Some(a) = self.aligned(n) else { continue };
                    let rank = self.m.arrays[a.0].rank();
                    if rank != widths.len() {
                        let msg = format!("`{}` has {rank} dimension(s) but `shadow` gives {} width(s)", n.name, widths.len());
                        let decl = self.host_decl_span(&n.name);
                        self.rank_error(n.span, msg, decl);
                        continue;
                    }
                    let widths = widths
                        .iter()
                        .map(|w| match w {
                            ShadowWidth::Full(_) => ShadowW::Full,
                            ShadowWidth::Width(w) => ShadowW::Width { lower: IExpr::src(&w.lower), upper: IExpr::src(&w.upper) },
                        })
                        .collect();
                    self.m.arrays[a.0].shadow = Some(Shadow { dir: d.span, widths });
                    self.m.decls.entry(d.span.start).or_default().push(Entity::Array(a));
                }
            }
            _ => {}
        }
    }

    /// Binds a declared object's name here and records it for the directive.
    fn declared(&mut self, p: &Pragma, n: &Name, e: Entity) {
        self.scopes.bind(&n.name, e);
        self.note(n, e);
        self.m.decls.entry(p.dir.span.start).or_default().push(e);
    }

    /// `nodes q(...) = p(...)` (or `= p`: all of p).
    fn node_subset(&mut self, parent: NodesId, r: &'a Ref) -> NodesMap<'a> {
        let rank = self.m.nodes[parent.0].rank();
        let sels = match &r.subs {
            Some(_) => on_ref::node_sels(r, parent),
            None => vec![on_ref::NodeSel::Whole; rank],
        };
        NodesMap::Sub { parent, sels }
    }

    fn distribute(&mut self, p: &'a Pragma, names: &[Name], dists: &'a DistList, onto: &'a Ref) {
        let Some(nodes) = self.nodes(&onto.name) else { return };
        if onto.subs.is_some() {
            let d = Code::Unsupported
                .error(self.m.unit.file, "`distribute ... onto` a node subset is not supported", onto.span, "a subset")
                .with_notes(vec!["help: declare the subset with `nodes q(..) = p(..)` and distribute onto q".into()]);
            self.m.diags.push(d);
            return;
        }
        let dims = dist_dims(dists);
        let distributed = dims.iter().filter(|d| d.node_dim.is_some()).count();
        let nrank = self.m.nodes[nodes.0].rank();
        for n in names {
            let Some(t) = self.template(n) else { continue };
            let rank = self.m.templates[t.0].rank();
            let decl = self.m.templates[t.0].span;
            if dims.len() != rank {
                let d = Code::DistributeFormats
                    .error(
                        self.m.unit.file,
                        format!("`distribute` gives {} format(s) for the {rank}-dimensional template `{}`", dims.len(), n.name),
                        n.span,
                        format!("template with {rank} dimension(s)"),
                    )
                    .with_labels(vec![Label::secondary(self.m.unit.file, decl.range()).with_message("declared here")])
                    .with_notes(vec![format!("help: give one format (block, cyclic, gblock or *) per template dimension, {rank} in all")]);
                self.m.diags.push(d);
                continue;
            }
            if distributed != nrank {
                let ndecl = self.m.nodes[nodes.0].span;
                let d = Code::DistributeNodes
                    .error(
                        self.m.unit.file,
                        format!("`distribute` distributes {distributed} dimension(s) onto the {nrank}-dimensional nodes `{}`", onto.name.name),
                        onto.name.span,
                        "here",
                    )
                    .with_labels(vec![Label::secondary(self.m.unit.file, ndecl.range()).with_message("declared here")])
                    .with_notes(vec!["help: the number of formats other than `*` must equal the number of node dimensions".into()]);
                self.m.diags.push(d);
                continue;
            }
            self.m.templates[t.0].dist = Some(Distribution { dir: p.dir.span, onto: Some(nodes), dims: dims.clone() });
            self.m.decls.entry(p.dir.span.start).or_default().push(Entity::Template(t));
        }
    }

    fn align(&mut self, p: &'a Pragma, n: &Name, source: &[AlignSrc], with: &'a Ref, t: TemplId) {
        if n.name.contains(['.', '%']) {
            return; // a structure member: its printer resolves it
        }
        let Some((table, index, sym)) = self.host_symbol(&n.name) else {
            self.undeclared(Code::ArrayUndeclared, "array", n, &|e| matches!(e, Entity::Array(_) | Entity::Host));
            return;
        };
        let rank = match self.m.unit.types.types.get(sym.ty) {
            Some(Type::Array { dims, .. }) => Some(dims.len()),
            Some(Type::Pointer(_)) => None,
            _ => Some(0),
        };
        if let Some(r) = rank.filter(|&r| r != source.len()) {
            self.rank_error(n.span, format!("`{}` has {r} dimension(s) but the `align` source lists {}", n.name, source.len()), Some(sym.span));
            return;
        }
        let align = match align_dims(source, with, self.fortran()) {
            Ok(a) => a,
            Err(e) => {
                let d = e.to_diag(Code::AlignIndex, self.m.unit.file);
                self.m.diags.push(d);
                return;
            }
        };
        let id = ArrayId(self.m.arrays.len());
        let symbol = Some((table, index));
        let site = self.site();
        self.m.arrays.push(ArrayDecl { name: n.name.clone(), span: n.span, dir: p.dir.span, site, symbol, templ: t, align, shadow: None });
        self.scopes.rebind(&n.name, Entity::Array(id));
        self.note(n, Entity::Array(id));
        self.m.decls.entry(p.dir.span.start).or_default().push(Entity::Array(id));
    }

    pub fn rank_error(&mut self, at: Span, msg: String, decl: Option<Span>) {
        let mut d = Code::RankMismatch.error(self.m.unit.file, msg, at, "rank mismatch");
        if let Some(s) = decl {
            d = d.with_labels(vec![Label::secondary(self.m.unit.file, s.range()).with_message("declared here")]);
        }
        self.m.diags.push(d);
    }
}

/// How each dimension of an `align` source maps onto the template of `with`: `a(i)`
/// with `t(i + c)` is template dimension k (where `i` is a subscript) at offset `c`;
/// `*`, or an index no subscript uses, is collapsed; in C `align a[:] with t[:]` pairs
/// the k-th `:` of each. Used for
/// arrays (the symbol table) and for the structure components the printers align.
pub fn align_dims<'a>(source: &[AlignSrc], with: &'a Ref, fortran: bool) -> Result<Vec<AlignDim<'a>>, super::ModelError> {
    let subs: &'a [xmpc_ir::directive::Sub] = with.subs.as_deref().unwrap_or(&[]);
    let mut align = Vec::with_capacity(source.len());
    let mut colons = 0;
    for s in source {
        let ix = match s {
            AlignSrc::Index(ix) => ix,
            AlignSrc::Star(_) => {
                align.push(AlignDim::Collapsed);
                continue;
            }
            AlignSrc::Colon(_) => {
                let k =
                    subs.iter().enumerate().filter(|(_, x)| matches!(x.kind, SubKind::Triplet { lower: None, upper: None, .. })).nth(colons).map(|(k, _)| k);
                colons += 1;
                align.push(k.map_or(AlignDim::Collapsed, |tdim| AlignDim::Aligned { tdim, offset: IExpr::Lit(0) }));
                continue;
            }
        };
        let found = subs.iter().enumerate().find_map(|(k, ts)| match &ts.kind {
            SubKind::Expr(e) => index_offset(e, &ix.name, fortran).map(|off| (k, off)),
            _ => None,
        });
        // an index that no template subscript uses: the dimension is collapsed (not
        // distributed), as in the XMP specification and Omni (`align a(i, j) with t(i)`)
        align.push(found.map_or(AlignDim::Collapsed, |(tdim, offset)| AlignDim::Aligned { tdim, offset }));
    }
    Ok(align)
}

/// The per-dimension formats of a `distribute` (or `template_fix`) format list.
pub fn dist_dims(dists: &DistList) -> Vec<DistDim<'_>> {
    let mut node_dim = 0;
    dists
        .dists
        .iter()
        .map(|x| {
            let nd = (x.format != DistFormat::Dup).then(|| {
                node_dim += 1;
                node_dim - 1
            });
            let star = x.arg.as_ref().is_some_and(|a| matches!(a.kind, ExprKind::Star));
            let (arg, gblock) = match x.format {
                DistFormat::GBlock => (None, x.arg.as_ref().filter(|_| !star)),
                _ => (x.arg.as_ref().filter(|_| !star).map(IExpr::src), None),
            };
            DistDim { format: x.format, arg, gblock, node_dim: nd }
        })
        .collect()
}

fn template_dims(shape: &TemplateShape) -> Vec<Option<(IExpr<'_>, IExpr<'_>)>> {
    shape.dims.iter().map(|d| d.bounds.as_ref().map(|(l, h)| (IExpr::src(l), IExpr::src(h)))).collect()
}

/// The offset `c` of a template subscript `i`, `i + c`, `c + i` or `i - c` of the
/// align index `var` (Fortran names compare case-insensitively).
pub fn index_offset<'a>(e: &'a Expr, var: &str, fortran: bool) -> Option<IExpr<'a>> {
    let is = |x: &Expr| x.ident().is_some_and(|n| if fortran { n.eq_ignore_ascii_case(var) } else { n == var });
    match &e.kind {
        ExprKind::Ident(_) if is(e) => Some(IExpr::Lit(0)),
        ExprKind::Binary(xmpc_ir::BinOp::Add, a, b) if is(a) => Some(IExpr::src(b)),
        ExprKind::Binary(xmpc_ir::BinOp::Add, a, b) if is(b) => Some(IExpr::src(a)),
        ExprKind::Binary(xmpc_ir::BinOp::Sub, a, b) if is(a) => Some(-IExpr::src(b)),
        _ => None,
    }
}
