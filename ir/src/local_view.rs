//! The XMP/C local view as the C front end recognises it (`frontend/src/c/local_view`):
//! a located list of the constructs tree-sitter-c cannot parse (`a[s:l]:[img]`,
//! `int a[N]:[*];`) or that are runtime calls rather than C (`#pragma xmp post`,
//! `xmp_atomic_define`). The local-view lowering (`backends/src/c/coarray.rs`) turns
//! it into plain C. Every span is a byte range of the file's text. Expressions are
//! [`Snippet`]: their span and their tokens' text (comments dropped, each gap one space).

use crate::Span;

/// Everything local-view in one C file, each list in source order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalView {
    /// Declarations with codimensions (`int a[10]:[*];`, `extern T c:[P][*];`).
    pub decls: Vec<CoDecl>,
    /// Coindexed references outside declarations and atomic calls, each with the
    /// statement around it.
    pub accesses: Vec<CoAccess>,
    /// `xmp_atomic_define(...)` / `xmp_atomic_ref(...)` calls.
    pub atomics: Vec<AtomicCall>,
    /// `#pragma xmp coarray|post|wait|lock|unlock`.
    pub directives: Vec<LvDirective>,
}

impl LocalView {
    /// True when the file has no local-view construct at all.
    pub fn is_empty(&self) -> bool {
        self.decls.is_empty() && self.accesses.is_empty() && self.atomics.is_empty() && self.directives.is_empty()
    }
}

/// An expression as written: where it is and its tokens' text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snippet {
    pub span: Span,
    pub text: String,
}

/// `obj[subs]...:[co]...`: an object (`a`, `s.x`), its subscripts and its cosubscripts.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjRef {
    /// The object through its last subscript or cosubscript bracket.
    pub span: Span,
    /// The object without subscripts (`a`, `s.x`).
    pub base: Snippet,
    pub subs: Vec<Sub>,
    /// One per cosubscript bracket, inside the brackets; empty: not coindexed.
    pub co: Vec<Snippet>,
}

impl ObjRef {
    pub fn has_section(&self) -> bool {
        self.subs.iter().any(|s| matches!(s, Sub::Section { .. }))
    }
}

/// One `[...]` of an object: an index, or an XMP section `[start:length:stride]`
/// (each part optional).
#[derive(Clone, Debug, PartialEq)]
pub enum Sub {
    Index(Snippet),
    Section { start: Option<Snippet>, len: Option<Snippet>, stride: Option<Snippet> },
}

/// A declarator with codimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct CoDecl {
    /// The declarator; `co` holds the codimensions, the last one `*`.
    pub obj: ObjRef,
    /// From the `:` through the last codimension bracket.
    pub codims: Span,
    /// Where the declaration statement starts.
    pub stmt_start: usize,
    pub storage: Storage,
    /// Outside every function body.
    pub file_scope: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    Definition,
    Extern,
    Typedef,
}

/// A coindexed reference and the statement around it.
#[derive(Clone, Debug, PartialEq)]
pub struct CoAccess {
    pub obj: ObjRef,
    pub ctx: AccessCtx,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AccessCtx {
    /// `obj:[img] = rhs;` starting a statement. `stmt` runs through the `;` (`rhs` is
    /// empty at the `;` when there is none); `rhs_obj` is the right-hand side when it is
    /// exactly a plain object; `rhs_coindexed` is a coindex inside the right-hand side.
    Put { stmt: Span, rhs: Snippet, rhs_obj: Option<ObjRef>, rhs_coindexed: Option<Span> },
    /// `obj:[img] = ...` with no `;` ending the statement.
    PutUnterminated,
    /// `lhs = obj:[img];` with a plain object `lhs` starting the statement; `stmt` runs
    /// from `lhs` through the `;`.
    Get { stmt: Span, lhs: ObjRef },
    /// A member or subscript after the coindex (`s:[1].x`): the `.`/`->`/`[`.
    Followed(Span),
    /// Anywhere else (inside an expression).
    Expr,
}

/// `xmp_atomic_define(target, value)` / `xmp_atomic_ref(&value, target)`.
#[derive(Clone, Debug, PartialEq)]
pub struct AtomicCall {
    pub define: bool,
    /// The function name through the `)`.
    pub span: Span,
    pub args: Vec<Snippet>,
    /// The atomic variable when there are two arguments.
    pub target: Option<AtomicTarget>,
    /// A coindexed reference inside the other argument.
    pub coindexed_value: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AtomicTarget {
    /// No coindex: the local variable.
    Local(Snippet),
    /// Exactly one coindexed object.
    Coindexed(ObjRef),
    /// A coindex, but not one object covering the argument (or a section).
    Malformed(Span),
}

/// A local-view directive (`#pragma xmp ...`). Its expressions are texts: the
/// directive's continuation lines are joined and its comments blanked.
#[derive(Clone, Debug, PartialEq)]
pub struct LvDirective {
    /// `#` through the end of the directive's last line.
    pub span: Span,
    pub kind: LvKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LvKind {
    /// `coarray a, b : [P][*]`.
    Coarray { names: Vec<CoName>, codims: Vec<String> },
    /// `post (p[k], tag)`.
    Post { node: NodeRef, tag: String },
    /// `wait`, `wait (p[k])`, `wait (p[k], tag)`.
    Wait { node: Option<NodeRef>, tag: Option<String> },
    /// `lock (l:[img])` / `unlock (l:[img])`.
    Lock { unlock: bool, obj: String, image: String },
}

/// A name in `#pragma xmp coarray`.
#[derive(Clone, Debug, PartialEq)]
pub struct CoName {
    pub name: String,
    pub span: Span,
    /// A file-scope `extern` declaration names it.
    pub is_extern: bool,
    /// Where the last file-scope definition of the name before the directive starts.
    pub definition: Option<usize>,
}

/// `p[k]` (0-based) or `p(k)` (1-based): one node of a node set.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeRef {
    pub nodes: String,
    pub index: String,
    pub one_based: bool,
}
