//! The one symbol table of XMP objects: node sets, templates and aligned arrays, each
//! decided once from its directives (`decl.rs`) and named by an id. Printers keep
//! their own spelling of each object (a C static, a Fortran handle) keyed by the id.

use super::iexpr::IExpr;
use super::on_ref::NodeSel;
use xmpc_ir::directive::DistFormat;
use xmpc_ir::{Expr, Span, SymbolId};

/// A node set (`nodes p(4, *)`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodesId(pub usize);
/// A template (`template t(0:N-1)`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TemplId(pub usize);
/// An aligned (distributed) array (`align a(i) with t(i)`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayId(pub usize);

/// What a name means in a scope.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Entity {
    Nodes(NodesId),
    Template(TemplId),
    Array(ArrayId),
    /// A host-language variable (or an array not aligned): it hides an XMP object of
    /// the same name in an enclosing scope.
    Host,
}

/// Where an object is declared.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// C file scope, a Fortran module's specification part.
    File,
    /// Inside a function or program unit.
    Local,
    /// Declared in another file (a Fortran module used here): only its description.
    Imported,
}

#[derive(Clone, Debug)]
pub struct NodesDecl<'a> {
    pub name: String,
    /// The name as written in its `nodes` directive.
    pub span: Span,
    /// The whole directive.
    pub dir: Span,
    pub site: Site,
    /// Per dimension (round order): the size, `None` for `*`.
    pub sizes: Vec<Option<IExpr<'a>>>,
    pub map: NodesMap<'a>,
}

#[derive(Clone, Debug)]
pub enum NodesMap<'a> {
    /// `nodes p(4)` or `= *`: the executing nodes.
    Executing,
    /// `nodes q(2) = p(1:2)`: a subset of another node set, per dimension of the parent.
    Sub { parent: NodesId, sels: Vec<NodeSel<'a>> },
}

impl NodesDecl<'_> {
    pub fn rank(&self) -> usize {
        self.sizes.len()
    }
}

#[derive(Clone, Debug)]
pub struct TemplateDecl<'a> {
    pub name: String,
    pub span: Span,
    pub dir: Span,
    pub site: Site,
    /// Per dimension (round order): `lower:upper`, or `None` for `:` (fixed later by
    /// `template_fix`).
    pub dims: Vec<Option<(IExpr<'a>, IExpr<'a>)>>,
    pub dist: Option<Distribution<'a>>,
}

impl TemplateDecl<'_> {
    pub fn rank(&self) -> usize {
        self.dims.len()
    }
    /// True when every dimension has its bounds.
    pub fn fixed(&self) -> bool {
        self.dims.iter().all(Option::is_some)
    }
    /// The format of template dimension `d`, when the template is distributed here.
    pub fn format(&self, d: usize) -> Option<DistFormat> {
        self.dist.as_ref().and_then(|x| x.dims.get(d)).map(|x| x.format)
    }
    /// `cyclic(w)` with `w` not the literal 1 (or not known): chunks of several indices.
    pub fn wide_cyclic(&self, d: usize) -> bool {
        self.dist.as_ref().and_then(|x| x.dims.get(d)).is_some_and(|x| x.format == DistFormat::Cyclic && x.arg.as_ref().is_some_and(|a| a.lit() != Some(1)))
    }
}

/// A `distribute` directive applied to a template.
#[derive(Clone, Debug)]
pub struct Distribution<'a> {
    pub dir: Span,
    /// The node set (`None` for a template of another file's module).
    pub onto: Option<NodesId>,
    /// Per template dimension (round order).
    pub dims: Vec<DistDim<'a>>,
}

impl Distribution<'_> {
    /// `gblock(*)` somewhere: the mapping comes with `template_fix`.
    pub fn deferred(&self) -> bool {
        self.dims.iter().any(|d| d.format == DistFormat::GBlock && d.gblock.is_none())
    }
}

#[derive(Clone, Debug)]
pub struct DistDim<'a> {
    pub format: DistFormat,
    /// `block(n)` / `cyclic(w)`: the argument (`None`: none written).
    pub arg: Option<IExpr<'a>>,
    /// `gblock(m)`: the mapping array (`None` for `gblock(*)` or another format).
    pub gblock: Option<&'a Expr>,
    /// The node-set dimension this template dimension is distributed over (`None` for `*`).
    pub node_dim: Option<usize>,
}

/// An aligned array.
#[derive(Clone, Debug)]
pub struct ArrayDecl<'a> {
    pub name: String,
    /// The name in its `align` directive, and the whole directive.
    pub span: Span,
    pub dir: Span,
    pub site: Site,
    /// The host symbol (in the table of the scope that declares it), when in this file.
    pub symbol: Option<(SymTable, SymbolId)>,
    pub templ: TemplId,
    /// Per array dimension, in the order written (C: outermost first).
    pub align: Vec<AlignDim<'a>>,
    /// `shadow`: per array dimension; `None` when the array has no `shadow` directive.
    pub shadow: Option<Shadow<'a>>,
}

impl ArrayDecl<'_> {
    pub fn rank(&self) -> usize {
        self.align.len()
    }
    /// The template dimension array dimension `d` is aligned with.
    pub fn tdim(&self, d: usize) -> Option<usize> {
        match self.align.get(d) {
            Some(AlignDim::Aligned { tdim, .. }) => Some(*tdim),
            _ => None,
        }
    }
}

/// Which symbol table holds an array's declaration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SymTable {
    /// The file's globals.
    Globals,
    /// A function's (by the function's name span start, unique in a file).
    Function(usize),
    /// A Fortran module's (by its name span start).
    Module(usize),
}

#[derive(Clone, Debug)]
pub enum AlignDim<'a> {
    /// `*` or `:` in the align source: the dimension is not distributed.
    Collapsed,
    /// `a(i)` with `t(i + c)`: template index = array index + `offset`.
    Aligned { tdim: usize, offset: IExpr<'a> },
}

#[derive(Clone, Debug)]
pub struct Shadow<'a> {
    pub dir: Span,
    pub widths: Vec<ShadowW<'a>>,
}

#[derive(Clone, Debug)]
pub enum ShadowW<'a> {
    /// `*`: the whole array on every node.
    Full,
    Width {
        lower: IExpr<'a>,
        upper: IExpr<'a>,
    },
}

impl ShadowW<'_> {
    pub fn is_zero(&self) -> bool {
        matches!(self, ShadowW::Width { lower, upper } if lower.is_zero() && upper.is_zero())
    }
}
