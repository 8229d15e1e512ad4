//! Directive AST (XMP, XMP-dev, XACC, OpenACC), produced by
//! `xmpc_frontend::directive::parse`.
//!
//! # Normalisation (one form for every downstream pass)
//!
//! C accepts two spellings of node/template shapes and references; both map to the
//! same tree and the written one is kept in [`Spelling`]:
//! - **Dimension order** of nodes, templates, `distribute` formats and node/template
//!   references is always the *round* (Fortran-like) order. The square spelling writes
//!   dimensions in the reverse order, so `t[10][20]` is stored as dims `(0:19, 0:9)`.
//!   Array dimensions (`align` source, `shadow` widths, `reflect` widths) index the
//!   host array itself and stay in the order written (C order in C).
//! - **Bounds** are `lower:upper`. Square triplets `start:len` become
//!   `start : start+len-1` (folded when both are literals); a square `[:len]` keeps
//!   `lower = None` and gets `upper = len-1`. A single template extent `e` means
//!   `0:e-1` in C (either spelling, as Omni does) and `1:e` in Fortran.
//! - **Node numbers are not rebased**: a reference keeps its numbers and records its
//!   base via [`Spelling::node_base`] (round and Fortran count from 1, square from 0).
//! - Synthesised bound expressions carry the span of the dimension as written.
//! - Names are kept as written (Fortran names are not case-folded; compare them with
//!   `eq_ignore_ascii_case` there). Fortran keywords are matched case-insensitively.
use crate::{Expr, Span};
use std::fmt;

/// Which host language's directive syntax a directive was written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DirLang {
    C,
    Fortran,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Directive {
    /// The whole directive in the original file as handed to the parser: from the
    /// sentinel word (`xmp`/`acc`) to its last non-blank character, continuation lines
    /// included. A front end that wants `#pragma`/`!$` covered widens `start`.
    pub span: Span,
    pub kind: DirectiveKind,
    pub lang: DirLang,
    /// The directive keyword(s) (`loop`, `device loop`, `parallel loop`, `end task`).
    pub name_span: Span,
}

/// How a shape or reference was written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Spelling {
    /// `p(2,2)`, `t(0:N-1)`: Fortran order, `lower:upper`, nodes from 1.
    Round,
    /// `p[2][2]`, `t[N]`: C order (reversed), `start:len`, nodes from 0.
    Square,
}

impl Spelling {
    /// The number of the first node when this spelling names a node.
    pub fn node_base(self) -> u8 {
        match self {
            Spelling::Round => 1,
            Spelling::Square => 0,
        }
    }
}

/// An identifier as written, with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub name: String,
    pub span: Span,
}

/// One subscript of a node/template reference or `align ... with` target.
#[derive(Clone, Debug, PartialEq)]
pub struct Sub {
    pub span: Span,
    pub kind: SubKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SubKind {
    /// A single index expression (`i`, `i+1`, `3`).
    Expr(Expr),
    /// `lower:upper[:stride]`, normalised (see module docs); `:` alone has all parts None.
    Triplet { lower: Option<Expr>, upper: Option<Expr>, stride: Option<Expr> },
    /// `*`.
    Star,
}

/// `N`, `N(sub, ...)` or `N[sub]...` — a node or template reference (which one is a
/// semantic question). `subs` is in round order; `None` when no subscripts were written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ref {
    pub name: Name,
    pub subs: Option<Vec<Sub>>,
    pub spelling: Spelling,
    pub span: Span,
}

/// One dimension of a `nodes` shape (size) in round order.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDim {
    pub span: Span,
    /// `None` for `*`.
    pub size: Option<Expr>,
}

/// One template dimension in round order: `lower:upper`, or `:` (fixed later).
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateDim {
    pub span: Span,
    /// `None` for `:`.
    pub bounds: Option<(Expr, Expr)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TemplateShape {
    pub dims: Vec<TemplateDim>,
    pub spelling: Spelling,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DistFormat {
    /// `*`: not distributed.
    Dup,
    Block,
    Cyclic,
    GBlock,
}

/// One distribution format; `arg` is the parenthesised argument (`ExprKind::Star` for `(*)`).
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    pub span: Span,
    pub format: DistFormat,
    pub arg: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DistList {
    pub dists: Vec<Dist>,
    pub spelling: Spelling,
}

/// Source subscript of `align`: an index variable, `*` (collapsed) or `:`.
#[derive(Clone, Debug, PartialEq)]
pub enum AlignSrc {
    Index(Name),
    Star(Span),
    Colon(Span),
}

/// A width `[/periodic/] lower[:upper]` (`upper` = `lower` when one value is written).
#[derive(Clone, Debug, PartialEq)]
pub struct Width {
    pub span: Span,
    pub periodic: bool,
    pub lower: Expr,
    pub upper: Expr,
}

/// A shadow width: `*` (full) or lower:upper.
#[derive(Clone, Debug, PartialEq)]
pub enum ShadowWidth {
    Full(Span),
    Width(Width),
}

/// Loop-option width `[/unbound/] lower[:upper]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpandWidth {
    pub span: Span,
    pub unbound: bool,
    pub lower: Expr,
    pub upper: Expr,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RedOp {
    Sum,
    Prod,
    Sub,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
    Eqv,
    Neqv,
    Max,
    Min,
    FirstMax,
    FirstMin,
    LastMax,
    LastMin,
}

impl RedOp {
    pub fn as_str(self) -> &'static str {
        use RedOp::*;
        match self {
            Sum => "+",
            Prod => "*",
            Sub => "-",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            LogAnd => "&&",
            LogOr => "||",
            Eqv => ".eqv.",
            Neqv => ".neqv.",
            Max => "max",
            Min => "min",
            FirstMax => "firstmax",
            FirstMin => "firstmin",
            LastMax => "lastmax",
            LastMin => "lastmin",
        }
    }
}

/// A reduction variable with its optional location variables (`m/i,j/`: maxloc/minloc).
#[derive(Clone, Debug, PartialEq)]
pub struct RedVar {
    pub name: Name,
    pub locs: Vec<Name>,
    /// Location variables written as array sections (`max:m/n,k[1][:]/`, XMP 2.0 and
    /// Omni's `reduction/max_loc` test): every node gets the winning node's section.
    pub loc_sections: Vec<Ref>,
}

/// One `op : vars` group; `reduction(+:a, max:m)` gives two.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduction {
    pub op: RedOp,
    pub op_span: Span,
    pub vars: Vec<RedVar>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopOption {
    Expand(Vec<ExpandWidth>),
    Margin(Vec<ExpandWidth>),
    PeelAndWait(Expr, Vec<ExpandWidth>),
}

/// `async(e)`, `acc`, `host`, `profile`, in any order, each at most once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trailers {
    pub async_id: Option<Expr>,
    pub acc: Option<Span>,
    pub host: Option<Span>,
    pub profile: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LoopDir {
    /// `(i, j)` as written; empty when omitted.
    pub indices: Vec<Name>,
    pub on: Ref,
    pub reductions: Vec<Reduction>,
    pub option: Option<LoopOption>,
    pub trailers: Trailers,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SyncDir {
    In,
    Out,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GmoveMode {
    In,
    Out,
}

/// `nodes p(4) = *` / `= q(1:2)`.
#[derive(Clone, Debug, PartialEq)]
pub enum NodesMapping {
    Star(Span),
    Ref(Ref),
}

#[derive(Clone, Debug, PartialEq)]
pub enum DirectiveKind {
    Nodes {
        names: Vec<Name>,
        dims: Vec<NodeDim>,
        spelling: Spelling,
        mapping: Option<NodesMapping>,
    },
    Template {
        names: Vec<Name>,
        shape: TemplateShape,
    },
    Distribute {
        names: Vec<Name>,
        dists: DistList,
        onto: Ref,
    },
    Align {
        names: Vec<Name>,
        source: Vec<AlignSrc>,
        with: Ref,
    },
    Shadow {
        names: Vec<Name>,
        widths: Vec<ShadowWidth>,
    },
    TemplateFix {
        dists: Option<DistList>,
        name: Name,
        shape: Option<TemplateShape>,
    },
    Loop(LoopDir),
    Reflect {
        vars: Vec<Name>,
        widths: Option<Vec<Width>>,
        trailers: Trailers,
    },
    ReduceShadow {
        vars: Vec<Name>,
        widths: Option<Vec<Width>>,
        trailers: Trailers,
    },
    Reduction {
        reductions: Vec<Reduction>,
        on: Option<Ref>,
        trailers: Trailers,
    },
    /// Each variable is a name or an array section (`a[2:5]`, `a(1:n)`).
    Bcast {
        vars: Vec<Ref>,
        from: Option<Ref>,
        on: Option<Ref>,
        trailers: Trailers,
    },
    Barrier {
        on: Option<Ref>,
        trailers: Trailers,
    },
    Task {
        on: Ref,
        nocomm: bool,
        trailers: Trailers,
    },
    Tasks {
        nowait: bool,
    },
    Gmove {
        mode: Option<GmoveMode>,
        trailers: Trailers,
    },
    Array {
        on: Ref,
        trailers: Trailers,
    },
    WaitAsync {
        ids: Vec<Expr>,
        on: Option<Ref>,
    },
    StaticDesc {
        names: Vec<Name>,
    },
    /// Fortran `save_desc :: p, t, a`: the descriptors of these nodes, templates and
    /// aligned arrays survive the procedure's return (built at its first call only).
    SaveDesc {
        names: Vec<Name>,
    },
    /// Fortran `local_alias la => ga`: `la` names the local section of the aligned
    /// array `ga` (shadows included, Omni's bounds).
    LocalAlias {
        local: Name,
        global: Name,
    },
    /// Omni's Fortran `coarray on p :: a, b`: the image indices of these coarrays (a
    /// coindex, `this_image(a)`) number the nodes of `p`, whatever task runs.
    Coarray {
        on: Ref,
        names: Vec<Name>,
    },
    /// Omni's Fortran `image(p)`: the next statement (`sync all`, `sync images`, a
    /// collective call) runs with the images of node set `p`.
    Image {
        on: Ref,
    },
    /// Fortran `end task`, `end tasks`, `end device replicate`: the block name closed.
    End(String),
    DeviceReplicate {
        vars: Vec<Name>,
    },
    DeviceReplicateSync {
        dir: SyncDir,
        vars: Vec<Name>,
    },
    DeviceLoop(LoopDir),
    DeviceResetWeight(Expr),
    ReflectInit {
        vars: Vec<Name>,
        widths: Option<Vec<Width>>,
        trailers: Trailers,
    },
    ReflectDo {
        vars: Vec<Name>,
        trailers: Trailers,
    },
    /// OpenACC, kept verbatim. `construct` is the canonical construct (`parallel loop`,
    /// `enter data`, `end parallel`; lower case); `text` is everything after the `acc`
    /// sentinel exactly as written (construct and clauses).
    Acc {
        construct: String,
        text: String,
    },
}

impl DirectiveKind {
    /// The trailing clauses (`async`, `acc`, ...) of a directive that can carry them.
    pub fn trailers(&self) -> Option<&Trailers> {
        match self {
            DirectiveKind::Loop(l) => Some(&l.trailers),
            DirectiveKind::Reflect { trailers, .. }
            | DirectiveKind::ReflectInit { trailers, .. }
            | DirectiveKind::ReflectDo { trailers, .. }
            | DirectiveKind::ReduceShadow { trailers, .. }
            | DirectiveKind::Reduction { trailers, .. }
            | DirectiveKind::Bcast { trailers, .. }
            | DirectiveKind::Barrier { trailers, .. }
            | DirectiveKind::Task { trailers, .. }
            | DirectiveKind::Gmove { trailers, .. }
            | DirectiveKind::Array { trailers, .. } => Some(trailers),
            _ => None,
        }
    }
}

/// How an OpenACC construct relates to the code after it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AccShape {
    /// Takes the next statement/loop (C); in Fortran a block closed by `end <name>`.
    Block,
    /// Takes the next statement or DO loop; in Fortran an `end <name>` may follow it.
    NextOptEnd,
    /// Takes the next loop/statement; no end directive.
    Next,
    /// Stands alone.
    Standalone,
    /// Fortran `end <name>`.
    End,
}

/// Every OpenACC construct recognised: (construct, message name, shape).
pub const ACC_CONSTRUCTS: &[(&str, &str, AccShape)] = &[
    ("parallel loop", "acc parallel loop", AccShape::NextOptEnd),
    ("kernels loop", "acc kernels loop", AccShape::NextOptEnd),
    ("serial loop", "acc serial loop", AccShape::NextOptEnd),
    ("parallel", "acc parallel", AccShape::Block),
    ("kernels", "acc kernels", AccShape::Block),
    ("serial", "acc serial", AccShape::Block),
    ("data", "acc data", AccShape::Block),
    ("host_data", "acc host_data", AccShape::Block),
    ("loop", "acc loop", AccShape::Next),
    ("atomic", "acc atomic", AccShape::NextOptEnd),
    ("enter data", "acc enter data", AccShape::Standalone),
    ("exit data", "acc exit data", AccShape::Standalone),
    ("update", "acc update", AccShape::Standalone),
    ("wait", "acc wait", AccShape::Standalone),
    ("cache", "acc cache", AccShape::Standalone),
    ("declare", "acc declare", AccShape::Standalone),
    ("routine", "acc routine", AccShape::Standalone),
    ("init", "acc init", AccShape::Standalone),
    ("shutdown", "acc shutdown", AccShape::Standalone),
    ("set", "acc set", AccShape::Standalone),
    ("end parallel loop", "acc end parallel loop", AccShape::End),
    ("end kernels loop", "acc end kernels loop", AccShape::End),
    ("end serial loop", "acc end serial loop", AccShape::End),
    ("end parallel", "acc end parallel", AccShape::End),
    ("end kernels", "acc end kernels", AccShape::End),
    ("end serial", "acc end serial", AccShape::End),
    ("end data", "acc end data", AccShape::End),
    ("end host_data", "acc end host_data", AccShape::End),
    ("end atomic", "acc end atomic", AccShape::End),
];

fn acc_entry(construct: &str) -> Option<&'static (&'static str, &'static str, AccShape)> {
    ACC_CONSTRUCTS.iter().find(|e| e.0 == construct)
}

impl Directive {
    /// True for directives that apply to the statement that follows them. C: `loop`,
    /// `task`, `tasks`, `gmove`, `array`, `device loop`, `device replicate` and OpenACC
    /// constructs that take a statement or block. Fortran: only those that take the next
    /// statement without an `end` line (`loop`, `gmove`, `array`, `image`, `device loop`,
    /// `acc loop`, `acc parallel loop`, `acc atomic`); block directives use [`Self::opens_block`].
    pub fn attaches_to_next(&self) -> bool {
        use DirectiveKind::*;
        let fortran = self.lang == DirLang::Fortran;
        match &self.kind {
            Loop(_) | Gmove { .. } | Array { .. } | DeviceLoop(_) | Image { .. } => true,
            Task { .. } | Tasks { .. } | DeviceReplicate { .. } => !fortran,
            Acc { construct, .. } => match acc_entry(construct).map(|e| e.2) {
                Some(AccShape::Block) => !fortran,
                Some(AccShape::Next | AccShape::NextOptEnd) => true,
                _ => false,
            },
            _ => false,
        }
    }
    /// Fortran: the block name this directive opens, to be closed by an `end <name>`
    /// directive (`task`, `tasks`, `device replicate`, OpenACC `parallel`, `data`, ...).
    /// `acc parallel loop`/`kernels loop`/`atomic` open no block: they take the next DO
    /// loop (statement) and the front end accepts an optional `end <name>` right after it.
    pub fn opens_block(&self) -> Option<&str> {
        if self.lang != DirLang::Fortran {
            return None;
        }
        match &self.kind {
            DirectiveKind::Task { .. } => Some("task"),
            DirectiveKind::Tasks { .. } => Some("tasks"),
            DirectiveKind::DeviceReplicate { .. } => Some("device replicate"),
            DirectiveKind::Acc { construct, .. } => match acc_entry(construct) {
                Some((c, _, AccShape::Block)) => Some(c),
                _ => None,
            },
            _ => None,
        }
    }
    /// Fortran: the block name this `end ...` directive closes (`task`, `acc` `parallel
    /// loop`, ...). Compare with [`Self::opens_block`] or with the construct of an
    /// `AccShape::NextOptEnd` directive.
    pub fn closes_block(&self) -> Option<&str> {
        match &self.kind {
            DirectiveKind::End(what) => Some(what),
            DirectiveKind::Acc { construct, .. } => construct.strip_prefix("end "),
            _ => None,
        }
    }
    /// Name for messages: `loop`, `device loop`, `acc parallel loop`, `end task`.
    pub fn name(&self) -> &'static str {
        use DirectiveKind::*;
        match &self.kind {
            Nodes { .. } => "nodes",
            Template { .. } => "template",
            Distribute { .. } => "distribute",
            Align { .. } => "align",
            Shadow { .. } => "shadow",
            TemplateFix { .. } => "template_fix",
            Loop(_) => "loop",
            Reflect { .. } => "reflect",
            ReduceShadow { .. } => "reduce_shadow",
            Reduction { .. } => "reduction",
            Bcast { .. } => "bcast",
            Barrier { .. } => "barrier",
            Task { .. } => "task",
            Tasks { .. } => "tasks",
            Gmove { .. } => "gmove",
            Array { .. } => "array",
            WaitAsync { .. } => "wait_async",
            StaticDesc { .. } => "static_desc",
            SaveDesc { .. } => "save_desc",
            LocalAlias { .. } => "local_alias",
            Coarray { .. } => "coarray",
            Image { .. } => "image",
            End(w) => match w.as_str() {
                "task" => "end task",
                "tasks" => "end tasks",
                "device replicate" => "end device replicate",
                _ => "end",
            },
            DeviceReplicate { .. } => "device replicate",
            DeviceReplicateSync { .. } => "device replicate_sync",
            DeviceLoop(_) => "device loop",
            DeviceResetWeight(_) => "device reset_weight",
            ReflectInit { .. } => "reflect_init",
            ReflectDo { .. } => "reflect_do",
            Acc { construct, .. } => acc_entry(construct).map_or("acc", |e| e.1),
        }
    }
}

// ------------------------------------------------------------------ Display
//
// A compact S-expression tree used by golden tests: one clause per line, names and
// dimensions with `@start..end` original spans, expressions infix with every nested
// binary operation parenthesised so precedence is visible.

struct E<'a>(&'a Expr);

impl fmt::Display for E<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self.0, true)
    }
}

fn write_expr(f: &mut fmt::Formatter<'_>, e: &Expr, top: bool) -> fmt::Result {
    use crate::ExprKind::*;
    match &e.kind {
        Ident(s) | Int(s) | Real(s) | Verbatim(s) => write!(f, "{s}"),
        Str(s) => write!(f, "{s:?}"),
        Char(s) => write!(f, "'{s}'"),
        Logical(b) => write!(f, "{}", if *b { ".true." } else { ".false." }),
        Unary(op, a) => {
            let s = match op {
                crate::UnOp::Neg => "-",
                crate::UnOp::Plus => "+",
                crate::UnOp::Not => "!",
                crate::UnOp::BitNot => "~",
                crate::UnOp::Deref => "*",
                crate::UnOp::AddrOf => "&",
                crate::UnOp::PreInc => "++",
                crate::UnOp::PreDec => "--",
                crate::UnOp::PostInc | crate::UnOp::PostDec => "",
            };
            write!(f, "{s}")?;
            write_expr(f, a, false)?;
            match op {
                crate::UnOp::PostInc => write!(f, "++"),
                crate::UnOp::PostDec => write!(f, "--"),
                _ => Ok(()),
            }
        }
        Binary(op, a, b) => {
            if !top {
                write!(f, "(")?;
            }
            write_expr(f, a, false)?;
            write!(f, " {} ", binop_str(*op))?;
            write_expr(f, b, false)?;
            if !top {
                write!(f, ")")?;
            }
            Ok(())
        }
        Assign(op, a, b) => {
            write_expr(f, a, false)?;
            write!(f, " {}= ", op.map_or("", binop_str))?;
            write_expr(f, b, false)
        }
        Call(callee, args) => {
            write_expr(f, callee, false)?;
            write!(f, "(")?;
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write_expr(f, a, true)?;
            }
            write!(f, ")")
        }
        Index(a, i) => {
            write_expr(f, a, false)?;
            write!(f, "[")?;
            write_expr(f, i, true)?;
            write!(f, "]")
        }
        Triplet(l, u, s) => {
            if let Some(l) = l {
                write_expr(f, l, true)?;
            }
            write!(f, ":")?;
            if let Some(u) = u {
                write_expr(f, u, true)?;
            }
            if let Some(s) = s {
                write!(f, ":")?;
                write_expr(f, s, true)?;
            }
            Ok(())
        }
        Member { base, field, arrow } => {
            write_expr(f, base, false)?;
            write!(f, "{}{field}", if *arrow { "->" } else { "." })
        }
        Cond(c, a, b) => {
            write!(f, "(")?;
            write_expr(f, c, false)?;
            write!(f, " ? ")?;
            write_expr(f, a, false)?;
            write!(f, " : ")?;
            write_expr(f, b, false)?;
            write!(f, ")")
        }
        Cast(t, a) => {
            write!(f, "(({t}) ")?;
            write_expr(f, a, false)?;
            write!(f, ")")
        }
        SizeOf(a) => {
            write!(f, "sizeof(")?;
            write_expr(f, a, true)?;
            write!(f, ")")
        }
        Star => write!(f, "*"),
    }
}

fn binop_str(op: crate::BinOp) -> &'static str {
    use crate::BinOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        Rem => "%",
        Pow => "**",
        Shl => "<<",
        Shr => ">>",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Eq => "==",
        Ne => "!=",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        And => "&&",
        Or => "||",
        Eqv => ".eqv.",
        Neqv => ".neqv.",
        Concat => "//",
        Comma => ",",
    }
}

fn sp(s: Span) -> String {
    format!("@{}..{}", s.start, s.end)
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.name, sp(self.span))
    }
}

fn names(v: &[Name]) -> String {
    v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
}

fn opt(e: &Option<Expr>) -> String {
    e.as_ref().map_or(String::new(), |e| E(e).to_string())
}

/// Spelling with the node base, for shapes and references that may name nodes.
fn based(s: Spelling) -> &'static str {
    match s {
        Spelling::Round => "round base=1",
        Spelling::Square => "square base=0",
    }
}

fn spelling(s: Spelling) -> &'static str {
    match s {
        Spelling::Round => "round",
        Spelling::Square => "square",
    }
}

/// An expression as the golden trees print it (nested binaries parenthesised).
pub fn show_expr(e: &Expr) -> String {
    E(e).to_string()
}

impl fmt::Display for Sub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SubKind::Expr(e) => write!(f, "[{}", E(e))?,
            SubKind::Star => write!(f, "[*")?,
            SubKind::Triplet { lower, upper, stride } => {
                write!(f, "[{}:{}", opt(lower), opt(upper))?;
                if let Some(s) = stride {
                    write!(f, ":{}", E(s))?;
                }
            }
        }
        write!(f, "]{}", sp(self.span))
    }
}

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        match &self.subs {
            None => Ok(()),
            Some(subs) => {
                write!(f, " {}", based(self.spelling))?;
                for s in subs {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Width {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = if self.periodic { "periodic " } else { "" };
        write!(f, "[{p}{}:{}]{}", E(&self.lower), E(&self.upper), sp(self.span))
    }
}

impl fmt::Display for ExpandWidth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = if self.unbound { "unbound " } else { "" };
        write!(f, "[{p}{}:{}]{}", E(&self.lower), E(&self.upper), sp(self.span))
    }
}

impl fmt::Display for TemplateShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(shape {}", spelling(self.spelling))?;
        for d in &self.dims {
            match &d.bounds {
                Some((l, u)) => write!(f, " [{}:{}]{}", E(l), E(u), sp(d.span))?,
                None => write!(f, " [:]{}", sp(d.span))?,
            }
        }
        write!(f, ")")
    }
}

impl fmt::Display for DistList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(dist {}", spelling(self.spelling))?;
        for d in &self.dists {
            let n = match d.format {
                DistFormat::Dup => "*",
                DistFormat::Block => "block",
                DistFormat::Cyclic => "cyclic",
                DistFormat::GBlock => "gblock",
            };
            match &d.arg {
                Some(a) => write!(f, " [{n}({})]{}", E(a), sp(d.span))?,
                None => write!(f, " [{n}]{}", sp(d.span))?,
            }
        }
        write!(f, ")")
    }
}

fn write_reductions(f: &mut fmt::Formatter<'_>, rs: &[Reduction]) -> fmt::Result {
    for r in rs {
        write!(f, "\n  (reduction {}{}", r.op.as_str(), sp(r.op_span))?;
        for v in &r.vars {
            write!(f, " {}", v.name)?;
            if !v.locs.is_empty() {
                write!(f, "/loc {}/", names(&v.locs))?;
            }
            for r in &v.loc_sections {
                write!(f, "/loc-section {}{}/", r.name, sp(r.span))?;
            }
        }
        write!(f, ")")?;
    }
    Ok(())
}

fn write_trailers(f: &mut fmt::Formatter<'_>, t: &Trailers) -> fmt::Result {
    if let Some(a) = &t.async_id {
        write!(f, "\n  (async {})", E(a))?;
    }
    for (n, s) in [("acc", t.acc), ("host", t.host), ("profile", t.profile)] {
        if let Some(s) = s {
            write!(f, "\n  ({n}{})", sp(s))?;
        }
    }
    Ok(())
}

fn write_widths(f: &mut fmt::Formatter<'_>, w: &Option<Vec<Width>>) -> fmt::Result {
    if let Some(w) = w {
        write!(f, "\n  (width")?;
        for x in w {
            write!(f, " {x}")?;
        }
        write!(f, ")")?;
    }
    Ok(())
}

fn write_on(f: &mut fmt::Formatter<'_>, kw: &str, r: &Option<Ref>) -> fmt::Result {
    match r {
        Some(r) => write!(f, "\n  ({kw} {r})"),
        None => Ok(()),
    }
}

fn write_loop(f: &mut fmt::Formatter<'_>, l: &LoopDir) -> fmt::Result {
    if !l.indices.is_empty() {
        write!(f, "\n  (index {})", names(&l.indices))?;
    }
    write!(f, "\n  (on {})", l.on)?;
    write_reductions(f, &l.reductions)?;
    if let Some(o) = &l.option {
        let (n, w) = match o {
            LoopOption::Expand(w) => ("expand".to_string(), w),
            LoopOption::Margin(w) => ("margin".to_string(), w),
            LoopOption::PeelAndWait(tag, w) => (format!("peel_and_wait {}", E(tag)), w),
        };
        write!(f, "\n  ({n}")?;
        for x in w {
            write!(f, " {x}")?;
        }
        write!(f, ")")?;
    }
    write_trailers(f, &l.trailers)
}

impl fmt::Display for Directive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DirectiveKind::*;
        let lang = match self.lang {
            DirLang::C => "c",
            DirLang::Fortran => "fortran",
        };
        write!(f, "({} {} name{} {lang}", self.name(), sp(self.span), sp(self.name_span))?;
        match &self.kind {
            Nodes { names: n, dims, spelling: s, mapping } => {
                write!(f, "\n  (names {})\n  (shape {}", names(n), based(*s))?;
                for d in dims {
                    let s = d.size.as_ref().map_or("*".to_string(), |e| E(e).to_string());
                    write!(f, " [{s}]{}", sp(d.span))?;
                }
                write!(f, ")")?;
                match mapping {
                    Some(NodesMapping::Star(s)) => write!(f, "\n  (= *{})", sp(*s))?,
                    Some(NodesMapping::Ref(r)) => write!(f, "\n  (= {r})")?,
                    None => {}
                }
            }
            Template { names: n, shape } => write!(f, "\n  (names {})\n  {shape}", names(n))?,
            Distribute { names: n, dists, onto } => write!(f, "\n  (names {})\n  {dists}\n  (onto {onto})", names(n))?,
            Align { names: n, source, with } => {
                write!(f, "\n  (names {})\n  (source", names(n))?;
                for s in source {
                    match s {
                        AlignSrc::Index(n) => write!(f, " {n}")?,
                        AlignSrc::Star(s) => write!(f, " *{}", sp(*s))?,
                        AlignSrc::Colon(s) => write!(f, " :{}", sp(*s))?,
                    }
                }
                write!(f, ")\n  (with {with})")?;
            }
            Shadow { names: n, widths } => {
                write!(f, "\n  (names {})\n  (widths", names(n))?;
                for w in widths {
                    match w {
                        ShadowWidth::Full(s) => write!(f, " [*]{}", sp(*s))?,
                        ShadowWidth::Width(w) => write!(f, " {w}")?,
                    }
                }
                write!(f, ")")?;
            }
            TemplateFix { dists, name, shape } => {
                if let Some(d) = dists {
                    write!(f, "\n  {d}")?;
                }
                write!(f, "\n  (names {name})")?;
                if let Some(s) = shape {
                    write!(f, "\n  {s}")?;
                }
            }
            Loop(l) | DeviceLoop(l) => write_loop(f, l)?,
            Reflect { vars, widths, trailers } | ReduceShadow { vars, widths, trailers } | ReflectInit { vars, widths, trailers } => {
                write!(f, "\n  (vars {})", names(vars))?;
                write_widths(f, widths)?;
                write_trailers(f, trailers)?;
            }
            ReflectDo { vars, trailers } => {
                write!(f, "\n  (vars {})", names(vars))?;
                write_trailers(f, trailers)?;
            }
            Reduction { reductions, on, trailers } => {
                write_reductions(f, reductions)?;
                write_on(f, "on", on)?;
                write_trailers(f, trailers)?;
            }
            Bcast { vars, from, on, trailers } => {
                write!(f, "\n  (vars {})", vars.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" "))?;
                write_on(f, "from", from)?;
                write_on(f, "on", on)?;
                write_trailers(f, trailers)?;
            }
            Barrier { on, trailers } => {
                write_on(f, "on", on)?;
                write_trailers(f, trailers)?;
            }
            Task { on, nocomm, trailers } => {
                write!(f, "\n  (on {on})")?;
                if *nocomm {
                    write!(f, "\n  (nocomm)")?;
                }
                write_trailers(f, trailers)?;
            }
            Tasks { nowait } => {
                if *nowait {
                    write!(f, "\n  (nowait)")?;
                }
            }
            Gmove { mode, trailers } => {
                match mode {
                    Some(GmoveMode::In) => write!(f, "\n  (in)")?,
                    Some(GmoveMode::Out) => write!(f, "\n  (out)")?,
                    None => {}
                }
                write_trailers(f, trailers)?;
            }
            Array { on, trailers } => {
                write!(f, "\n  (on {on})")?;
                write_trailers(f, trailers)?;
            }
            WaitAsync { ids, on } => {
                write!(f, "\n  (ids")?;
                for e in ids {
                    write!(f, " [{}]", E(e))?;
                }
                write!(f, ")")?;
                write_on(f, "on", on)?;
            }
            StaticDesc { names: n } => write!(f, "\n  (names {})", names(n))?,
            SaveDesc { names: n } => write!(f, "\n  (names {})", names(n))?,
            LocalAlias { local, global } => write!(f, "\n  (local {local})\n  (global {global})")?,
            Coarray { on, names: n } => write!(f, "\n  (on {on})\n  (names {})", names(n))?,
            Image { on } => write!(f, "\n  (on {on})")?,
            End(w) => write!(f, "\n  (closes {w:?})")?,
            DeviceReplicate { vars } => write!(f, "\n  (vars {})", names(vars))?,
            DeviceReplicateSync { dir, vars } => {
                let d = if *dir == SyncDir::In { "in" } else { "out" };
                write!(f, "\n  ({d})\n  (vars {})", names(vars))?;
            }
            DeviceResetWeight(e) => write!(f, "\n  (weight {})", E(e))?,
            Acc { construct, text } => write!(f, "\n  (construct {construct:?})\n  (text {text:?})")?,
        }
        write!(f, ")")
    }
}
