//! XcalableMP Fortran → Fortran + xmpc runtime calls (`runtime/lib/xmp/csrc/shim_f.c`,
//! `docs/fortran.md`).
//!
//! The pass produces edits of the original text; `xmpc_backends::emit` splices them
//! (and re-wraps edited fixed-form lines to columns 7–72). Directive lines are left in
//! place (they are comments to the Fortran compiler). Scheme, per program unit:
//! - `nodes`/`template`/`distribute` → `integer(8)` handles (`xmpf_n_p`, `xmpf_t_t`)
//!   created by calls inserted before the first executable statement;
//! - an aligned array `real(8) :: a(n)` becomes `real(8), allocatable, target :: a(:)`
//!   allocated with the bounds of the node's local block (`xmpf_array_layout`) and
//!   handed to the runtime as its storage (`xmpf_array_attach`); an aligned dummy a
//!   pointer (`c_f_pointer`) onto the caller's block. The lower bound of the local
//!   block is the global index of its first element: `a(i)` keeps its global
//!   index, no subscript is rewritten (block, gblock and `*` dims; an array aligned with
//!   a cyclic dim keeps the whole global array on every node);
//! - `loop` rewrites each `do` header to the node's share (block, gblock, `*`: one
//!   loop, `xmpf_sched1`; cyclic: chunk loop + element loop, `xmpf_sched`), reductions
//!   follow the loop nest;
//! - communication directives become one runtime call each; `task` an `if` block;
//! - the main program becomes `subroutine xmpf_main`, called by a generated program
//!   between `xmpf_init` and `xmpf_stop(0)`; `stop n` / `call exit(n)` become
//!   `call xmpf_stop(n)` / `call xmpf_exit(n)`.
//!
//! Errors (XMP04xx) are located diagnostics; on error no edit is returned.

mod array;
mod arrays;
pub mod coarray;
mod coarray_dirs;
mod coarray_forms;
mod comm;
mod decl;
mod gblock;
mod gmove;
mod implicit;
mod lex;
mod library;
mod local_alias;
mod loops;
mod member;
mod modinfo;
mod names;
mod omni_forms;
mod omp;
mod order;
mod save_desc;
mod stmts;
mod task;
mod text;
mod unit;
mod xacc;

use arrays::*;
use std::collections::{BTreeSet, HashMap};
use text::*;
use xmpc_ir::directive::{AlignSrc, DirectiveKind, DistFormat, RedOp, Ref, ShadowWidth, SubKind};
use xmpc_ir::Edit;
use xmpc_ir::{Diag, Expr, ExprKind, FileUnit, FuncKind, Function, Item, Lang, Pragma, Span, Stmt, StmtKind, SymbolTable, Type};

use xmpc_passes::xmp_model::loop_sched::{self, RangeKind};
use xmpc_passes::xmp_model::on_ref;
use xmpc_passes::xmp_model::symbols::{Entity, TemplId};
use xmpc_passes::xmp_model::Model;

/// True when the file uses XMP (directives or library calls) or has a main program.
pub fn needs_runtime(unit: &FileUnit, src: &str) -> bool {
    !unit.pragmas().is_empty() || src.to_ascii_lowercase().contains("xmp_") || unit.functions().iter().any(|f| f.kind == FuncKind::Program)
}

/// Translates one Fortran file.
pub fn translate(unit: &FileUnit, src: &str) -> Result<Vec<Edit>, Vec<Diag>> {
    translate_with_modules(unit, src, &|_| None).map(|(e, _)| e)
}

/// Translates one Fortran file whose units may `use` modules with XMP declarations
/// from other files: `find(name)` gives such a module's description (written when
/// its file was translated, see `modinfo`). Also returns the descriptions of this
/// file's modules that have XMP declarations: (lower-case name, text).
pub fn translate_with_modules(unit: &FileUnit, src: &str, find: &dyn Fn(&str) -> Option<String>) -> Result<Translated, Vec<Diag>> {
    translate_mapped(unit, src, find, &|_| None)
}

/// The edits of a translation and the descriptions of the file's modules with XMP
/// declarations: (lower-case name, text).
pub type Translated = (Vec<Edit>, Vec<(String, String)>);

/// Where a line of the translated text came from, when it is not the file itself (a
/// preprocessed source: the driver's line map): 1-based line → (file name, line).
pub type Origin<'a> = &'a dyn Fn(usize) -> Option<(String, usize)>;

/// [`translate_with_modules`] of a preprocessed source: the file and line passed to
/// the runtime for its messages are the original ones (`origin`).
pub fn translate_mapped(unit: &FileUnit, src: &str, find: &dyn Fn(&str) -> Option<String>, origin: Origin) -> Result<Translated, Vec<Diag>> {
    translate_for(unit, src, find, origin, true, false)
}

/// [`translate_mapped`] knowing which coarray library the program may be linked with:
/// `own_libcaf` is false when it can only be OpenCoarrays (or another external libcaf:
/// the driver's `XMPC_CAF=opencoarrays` or `XMPC_CAF_LIBS`). Coarrays inside a `task`
/// (XMP0450) are refused then; with xmpc's libcaf they are translated, and a task body
/// using coarrays calls `xmpf_caf_in_task(MARK)` (docs/local-view.md): the driver
/// refuses to link such an object with another libcaf, naming the location in MARK.
/// `check`: the checking mode (`-fcheck=xmp`, docs/checking.md): the main program
/// calls `xmpf_check_on` (the driver compiles with `-fcheck=bounds`).
pub fn translate_for(
    unit: &FileUnit,
    src: &str,
    find: &dyn Fn(&str) -> Option<String>,
    origin: Origin,
    own_libcaf: bool,
    check: bool,
) -> Result<Translated, Vec<Diag>> {
    // a plain MPI program (no XMP directive, calls MPI_Init itself) is left as it is
    if library::plain_mpi_program(unit) {
        return Ok((vec![], vec![]));
    }
    let import = |m: &str| find(m).and_then(|t| modinfo::read_import(&t));
    let m = xmpc_passes::xmp_model::resolve(unit, src, &import).for_printing()?;
    let mut t = Tr {
        unit,
        src,
        m,
        edits: vec![],
        diags: vec![],
        fixed: unit.lang == Lang::FortranFixed,
        fns: vec![],
        mods: HashMap::new(),
        hosts: vec![],
        header: None,
        on_count: 0,
        uniq_array: 0,
        find,
        local_mods: BTreeSet::new(),
        task_depth: 0,
        acc_inner: false,
        origin,
        own_libcaf,
        check,
    };
    if coarray::uses_coarrays(src, t.fixed) {
        for (at, len) in coarray::scalar_complex_coarrays(src, t.fixed) {
            if t.complex_as_array(at, len) {
                continue; // coarray_forms.rs: `z` becomes `z(1)`
            }
            t.err(
                "XMP0451",
                Span::new(at, at + len),
                "scalar complex coarray: gfortran 12 (-fcoarray=lib) miscompiles it (an assignment writes a copy, a coindexed access sends the copy's address), with any coarray library",
                "declare it as an array of one element, z(1)[*], or keep the real and imaginary parts in a real coarray",
            );
        }
    }
    for it in &unit.items {
        match it {
            Item::Function(f) => t.func(f),
            Item::Module(m) => {
                t.module(m);
                let mu = t.mods.get(&lc(&m.name)).cloned().unwrap_or_default();
                t.hosts.push(mu);
                for f in &m.contains {
                    t.func(f);
                }
                t.hosts.pop();
            }
            Item::Verbatim(sp) => {
                t.no_directives_in(*sp, "XMP directive in Fortran the front end could not parse", "see the XMP0200 warning; the directive would be dropped")
            }
            Item::Pragma(p) => t.err("XMP0401", p.dir.span, "XMP directive outside a program unit", "not supported"),
            _ => {}
        }
    }
    if !t.diags.is_empty() {
        return Err(t.diags);
    }
    t.coarray_forms(); // coarray_forms.rs: Omni's XMP 1.x collectives
    if !t.diags.is_empty() {
        return Err(t.diags);
    }
    t.omni_forms(); // omni_forms.rs: Omni-only spellings in standard Fortran
    if t.fixed {
        t.drop_sequence_fields();
    }
    let infos = t
        .local_mods
        .iter()
        .filter_map(|m| t.mods.get(m).filter(|u| modinfo::has_objects(&t.m, m, u)).map(|u| (m.clone(), modinfo::write(m, u, &t.m))))
        .collect();
    Ok((t.edits, infos))
}

struct Tr<'a> {
    unit: &'a FileUnit,
    src: &'a str,
    /// What the directives mean (node sets, templates, alignments; names resolved).
    m: Model<'a>,
    edits: Vec<Edit>,
    diags: Vec<Diag>,
    fixed: bool,
    /// The program units being translated, innermost last (for symbol look-ups).
    fns: Vec<&'a Function>,
    /// XMP declarations of the modules of this file (by lower-case name), for the
    /// units that `use` them.
    mods: HashMap<String, Unit>,
    /// Declarations of the enclosing units (host association), innermost last.
    hosts: Vec<Unit>,
    /// Span of the procedure statement of the unit being translated (dummy renaming).
    header: Option<(usize, usize)>,
    /// Node subsets of `on` clauses made so far (for unique handle names).
    on_count: usize,
    /// `array` directives translated so far (for unique temporaries).
    uniq_array: usize,
    /// Descriptions of modules of other files, by lower-case name.
    find: &'a dyn Fn(&str) -> Option<String>,
    /// The modules defined in this file.
    local_mods: BTreeSet<String>,
    /// Original file and line of a line of `src` (preprocessed sources).
    origin: Origin<'a>,
    /// Depth of `task` bodies around the statement being translated.
    task_depth: usize,
    /// Inside the host lowering of an XcalableACC `acc` directive (xacc.rs).
    acc_inner: bool,
    /// The program may be linked with xmpc's libcaf (see [`translate_for`]).
    own_libcaf: bool,
    /// Checking mode (`-fcheck=xmp`): the main program calls `xmpf_check_on`.
    check: bool,
}

#[derive(Clone)]
struct Arr {
    handle: String,
    ndims: usize,
    /// Declared (global) lower bounds and extents, Fortran text; element size.
    dl: Vec<String>,
    ext: Vec<String>,
    esize: usize,
    /// The array is aligned with a cyclic template dim (whole array stored).
    cyclic: bool,
    /// Every dimension aligned with a cyclic template dim has a full shadow (`*`):
    /// `reflect` gathers it (the runtime broadcasts each owner's chunks).
    cyc_full: bool,
    /// Template (lower case) and, per array dim, the template dim it is aligned
    /// with and `c` in `t(i + c)`, Fortran text.
    templ: String,
    /// The template in the model (`None`: not known here).
    tid: Option<TemplId>,
    talign: Vec<Option<(usize, String)>>,
}

#[derive(Default, Clone)]
struct Unit {
    arrays: HashMap<String, Arr>,
    decls: BTreeSet<String>,
    setup: Vec<String>,
    need_cbind: bool,
    /// Allocatable aligned arrays: rank and the lines that create them, emitted at
    /// their `allocate` statement.
    pending: HashMap<String, (usize, Vec<String>)>,
    /// Aligned arrays to redeclare: name, element type and attributes, rank, directive.
    redecl: Vec<(String, String, usize, Span)>,
    /// A procedure's lines that free its array descriptors, run at each exit
    /// (`return`, `end`); empty for a main program or module.
    frees: Vec<String>,
    /// A module's variables: basic type (as written, lower case) and whether an array,
    /// for the directives of the units that use it (a `reduction` of a module variable).
    vars: HashMap<String, (String, bool)>,
    /// Aligned pointer arrays: the call that takes the mapping of the target after
    /// each `p => target`.
    pointers: HashMap<String, String>,
}

const IND: &str = "      ";

/// Declarations of the temporaries of the aligned arrays' setup.
const TEMPS: [&str; 2] = ["integer(8) :: xmpf_lb(7), xmpf_ex(7)", "type(xmpf_cptr) :: xmpf_cp"];

/// The parts of a program unit or module the translation reads.
struct View<'a> {
    body: &'a [Stmt],
    symbols: &'a SymbolTable,
    name_span: Span,
    /// Lower-case module name when this is a module's specification part.
    module: Option<String>,
}

fn lc(s: &str) -> String {
    s.to_ascii_lowercase()
}

impl<'a> Tr<'a> {
    /// Fixed form: an edited line whose columns 73+ hold text (sequence numbers) would
    /// have that text re-wrapped into the code; the last edit of such a line is extended
    /// over the rest of the line, keeping columns up to 72 and dropping the rest.
    fn drop_sequence_fields(&mut self) {
        self.edits.sort_by_key(|e| (e.span.start, e.span.end));
        let n = self.edits.len();
        for k in 0..n {
            let e = self.edits[k].span.end;
            let ls = self.line_start(e);
            let c72 = col72(self.src, ls);
            let le = self.src[ls..].find('\n').map_or(self.src.len(), |p| ls + p);
            let le = if self.src[..le].ends_with('\r') { le - 1 } else { le };
            if e > c72 || c72 >= le || self.src[c72..le].trim().is_empty() {
                continue;
            }
            if k + 1 < n && self.edits[k + 1].span.start < le {
                continue; // a later edit on this line takes care of it
            }
            let keep = self.src[e..c72].trim_end().to_string();
            self.edits[k].text.push_str(&keep);
            self.edits[k].span = Span::new(self.edits[k].span.start, le);
        }
    }

    fn err(&mut self, code: &str, span: Span, msg: &str, label: &str) {
        self.diags.push(xmpc_ir::diag::error(code, msg, self.unit.file, span, label));
    }
    fn text(&self, s: Span) -> &'a str {
        &self.src[s.start..s.end]
    }
    /// Coarray features in a `task` body. With xmpc's libcaf the images there are the
    /// task's nodes, as in Omni (runtime/lib/xmp/csrc/caf_lib.c); a coarray allocated
    /// there is the task's (its window is over the task's nodes).
    /// With OpenCoarrays they are the whole program's, and an image control statement
    /// would wait for images outside the task (XMP0450).
    fn no_coarrays_in_task(&mut self, s: &Stmt) {
        let own = match &s.kind {
            StmtKind::Compound(_) => return,
            StmtKind::If { then, .. } => Span::new(s.span.start, then.span.start.max(s.span.start)),
            StmtKind::Do { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => {
                Span::new(s.span.start, body.span.start.max(s.span.start))
            }
            _ => s.span,
        };
        // fixed form: the check reads columns 7-72 of whole lines
        let from = if self.fixed { self.line_start(own.start) } else { own.start };
        let text = &self.src[from..own.end];
        if !coarray::statement_text_uses_coarrays(text, self.fixed) {
            return;
        }
        if !self.own_libcaf {
            self.err(
                "XMP0450",
                own,
                "coarray feature inside a `task` body with OpenCoarrays (XMPC_CAF=opencoarrays or XMPC_CAF_LIBS)",
                "OpenCoarrays' images are the whole program's, not the task's nodes (docs/local-view.md): link xmpc's libcaf (unset XMPC_CAF) or move it out of the task",
            );
        }
    }
    /// The marker call of a task body that uses coarrays (see [`translate_for`]):
    /// `xmpc-own-libcaf:XMP0450:FILE:LINE:COL;`, the location of the directive.
    fn caf_task_marker(&self, at: usize) -> String {
        let line = self.line_of(at);
        let col = at - self.line_start(at) + 1;
        let (name, line) = (self.origin)(line).unwrap_or_else(|| (self.unit.name.clone(), line));
        let name: String = name.chars().filter(|&c| c != '\'' && c != ';' && !c.is_control()).collect();
        format!("call xmpf_caf_in_task('xmpc-own-libcaf:XMP0450:{name}:{line}:{col};')")
    }
    fn ex(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(s) | ExprKind::Ident(s) => s.clone(),
            _ => self.text(e.span).trim().to_string(),
        }
    }
    // Byte-wise: `off` may fall inside a multi-byte character (an escaped non-UTF-8
    // byte is three bytes long), which a `str` slice would panic on.
    fn line_of(&self, off: usize) -> usize {
        self.src.as_bytes()[..off.min(self.src.len())].iter().filter(|&&b| b == b'\n').count() + 1
    }
    fn line_start(&self, off: usize) -> usize {
        self.src.as_bytes()[..off.min(self.src.len())].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1)
    }
    /// End of the statement starting at `off` (before its newline), continuation lines
    /// included.
    fn stmt_end(&self, off: usize) -> usize {
        let mut pos = off.min(self.src.len());
        while !self.src.is_char_boundary(pos) {
            pos += 1;
        }
        loop {
            let e = self.src[pos..].find('\n').map_or(self.src.len(), |p| pos + p);
            let line = &self.src[self.line_start(pos)..e];
            let cont = if self.fixed {
                // next line with a non-blank, non-zero column 6 (not a comment)
                let nx = &self.src[(e + 1).min(self.src.len())..];
                let nl = nx.split('\n').next().unwrap_or("");
                let b = nl.as_bytes();
                e < self.src.len()
                    && b.len() > 5
                    && !matches!(b[0], b'c' | b'C' | b'*' | b'!')
                    && b[5] != b' '
                    && b[5] != b'0'
                    && b[..5].iter().all(|c| *c == b' ')
            } else {
                let code = line.split('!').next().unwrap_or("").trim_end();
                // a comment-only or blank line inside a continued statement (NICAM's
                // `use mod_adm, only : &` / `!--- public parameters` / `ADM_w, &`)
                let inside = pos > off && code.trim().is_empty();
                (code.ends_with('&') || inside) && e < self.src.len()
            };
            if !cont {
                return e;
            }
            pos = e + 1;
        }
    }
    fn loc(&self, span: Span, what: &str) -> String {
        let line = self.line_of(span.start);
        let (name, line) = (self.origin)(line).unwrap_or_else(|| (self.unit.name.clone(), line));
        let file = name.rsplit('/').next().unwrap_or("f").replace('\'', "");
        format!("'{}', {}, '{}'", file, line, what)
    }
    fn i8list(&self, v: &[String]) -> String {
        let one = |s: &String| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                format!("{s}_8")
            } else {
                format!("int({s}, 8)")
            }
        };
        format!("[integer(8) :: {}]", v.iter().map(one).collect::<Vec<_>>().join(", "))
    }

    /// A named constant (`parameter`) of the unit being translated or its hosts.
    fn is_constant(&self, key: &str) -> bool {
        for f in self.fns.iter().rev() {
            if let Some(s) = f.symbols.lookup(key) {
                return s.attrs.iter().any(|a| a == "parameter");
            }
        }
        false
    }

    fn rank_of(&self, key: &str) -> Option<usize> {
        let all = self.unit.functions();
        for f in self.fns.iter().rev().copied().chain(all.iter().copied()) {
            if let Some(s) = f.symbols.lookup(key) {
                if let Type::Array { dims, .. } = self.unit.types.get(s.ty) {
                    return Some(dims.len());
                }
                return None;
            }
        }
        None
    }

    /// A host symbol's basic type (as written) and whether it is an array.
    fn symbol_type(&self, s: &xmpc_ir::Symbol) -> Option<(String, bool)> {
        match self.unit.types.get(s.ty) {
            Type::Basic(b) => Some((b.clone(), false)),
            Type::Array { elem, .. } => match self.unit.types.get(*elem) {
                Type::Basic(b) => Some((b.clone(), true)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A host array's rank.
    fn symbol_rank(&self, s: &xmpc_ir::Symbol) -> Option<usize> {
        match self.unit.types.get(s.ty) {
            Type::Array { dims, .. } => Some(dims.len()),
            _ => None,
        }
    }

    fn cur_type(&self, key: &str) -> Option<(String, bool)> {
        // the unit being translated and its hosts; a function's result; the implicit
        // type there; then any unit of the file
        let local = self.fns.iter().rev().find_map(|f| f.symbols.lookup(key).map(|_| *f));
        if local.is_none() {
            if let Some(t) = self.result_type(key).or_else(|| self.implicit_type(key)) {
                return Some((t, false));
            }
        }
        let all = self.unit.functions();
        for f in local.into_iter().chain(all.iter().copied()) {
            if let Some(s) = f.symbols.lookup(key) {
                return match self.unit.types.get(s.ty) {
                    Type::Basic(b) => Some((b.clone(), false)),
                    Type::Array { elem, .. } => match self.unit.types.get(*elem) {
                        Type::Basic(b) => Some((b.clone(), true)),
                        _ => None,
                    },
                    _ => None,
                };
            }
        }
        // a variable of a module this file defines or uses (its description)
        self.mods.values().find_map(|m| m.vars.get(key).cloned())
    }
}

/// The Fortran spelling of what the shared model leaves to the host language.
#[cfg(test)]
mod tests {
    use super::static_bounds;
    use xmpc_ir::directive::DistFormat::{Block, Cyclic, Dup};

    #[test]
    fn static_bounds_only_for_dimensions_no_node_set_splits() {
        let t = [Dup, Block, Block];
        // a `*` template dimension, with and without shadows
        assert_eq!(static_bounds("1", "mimax", Some(0), &t, None, false).as_deref(), Some("1:mimax"));
        assert_eq!(static_bounds("0", "n-1", Some(0), &t, Some(("2", "1", "0")), false).as_deref(), Some("0 - 2:(n-1) + 1"));
        assert_eq!(static_bounds("1", "n", Some(0), &t, Some(("0", "0", "0")), false).as_deref(), Some("1:n"));
        // not aligned
        assert_eq!(static_bounds("1", "3", None, &t, None, false).as_deref(), Some("1:3"));
        // distributed, full shadow, stored whole (cyclic or allocatable)
        assert_eq!(static_bounds("1", "n", Some(1), &t, None, false), None);
        assert_eq!(static_bounds("1", "n", Some(0), &t, Some(("0", "0", "1")), false), None);
        assert_eq!(static_bounds("1", "n", Some(0), &[Dup, Cyclic], None, true), None);
        // no dimension of the template distributes: outside its nodes every aligned
        // dimension is empty, so the runtime's bounds
        assert_eq!(static_bounds("1", "n", Some(0), &[Dup, Dup], None, false), None);
        assert_eq!(static_bounds("1", "n", None, &[], None, false), None);
    }
}
