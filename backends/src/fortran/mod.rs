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
pub mod coarray;
mod gblock;
mod implicit;
mod lex;
mod local_alias;
mod member;
mod modinfo;
mod names;
mod omp;
mod order;
mod save_desc;
mod xacc;

use std::collections::{BTreeSet, HashMap};
use xmpc_ir::directive::{AlignSrc, DirectiveKind, DistFormat, NodesMapping, RedOp, Ref, ShadowWidth, SubKind};
use xmpc_ir::Edit;
use xmpc_ir::{Diag, Expr, ExprKind, FileUnit, FuncKind, Function, Item, Lang, Pragma, Span, Stmt, StmtKind, SymbolTable, Type};
use xmpc_passes::xmp_model::iexpr::{self, IExpr, Spell};
use xmpc_passes::xmp_model::loop_sched::{self, RangeKind};
use xmpc_passes::xmp_model::on_ref;
use xmpc_passes::xmp_model::symbols::{Entity, NodesId, NodesMap, TemplId};
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
    translate_for(unit, src, find, origin, true)
}

/// [`translate_mapped`] knowing which coarray library the program may be linked with:
/// `own_libcaf` is false when it can only be OpenCoarrays (or another external libcaf:
/// the driver's `XMPC_CAF=opencoarrays` or `XMPC_CAF_LIBS`). Coarrays inside a `task`
/// (XMP0450) are refused then; with xmpc's libcaf they are translated, and a task body
/// using coarrays calls `xmpf_caf_in_task(MARK)` (docs/local-view.md): the driver
/// refuses to link such an object with another libcaf, naming the location in MARK.
pub fn translate_for(unit: &FileUnit, src: &str, find: &dyn Fn(&str) -> Option<String>, origin: Origin, own_libcaf: bool) -> Result<Translated, Vec<Diag>> {
    // a plain MPI program (no XMP directive, calls MPI_Init itself) is left as it is
    if unit.pragmas().is_empty() && src.to_ascii_lowercase().contains("mpi_init") {
        return Ok((vec![], vec![]));
    }
    let import = |m: &str| find(m).and_then(|t| modinfo::read_import(&t));
    let m = xmpc_passes::xmp_model::resolve(unit, src, &import);
    if m.failed() {
        return Err(m.diags);
    }
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
    };
    if coarray::uses_coarrays(src, t.fixed) {
        for (at, len) in coarray::scalar_complex_coarrays(src, t.fixed) {
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

/// Byte offset of the end of column 72 of the line starting at `ls` (or the line end).
fn col72(src: &str, ls: usize) -> usize {
    let le = src[ls..].find('\n').map_or(src.len(), |p| ls + p);
    let le = if src[..le].ends_with('\r') { le - 1 } else { le };
    src[ls..le].char_indices().nth(72).map_or(le, |(i, _)| ls + i)
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
}

const IND: &str = "      ";

/// The bounds of an aligned array's dimension in its `allocate`, as source text, when
/// they are known at translation time: a dimension not distributed (not aligned, or
/// aligned with a `*` template dimension) holds the whole declared range plus its
/// shadow widths (`w`: lower, upper, full). `dl`/`up`: declared bounds; `tdim`: the
/// template dimension it is aligned with; `tfmt`: the template's formats. None (the
/// runtime's bounds, `xmpf_array_layout`) for an array stored whole (`whole`:
/// aligned with a cyclic dimension) or allocatable, a full shadow, or an array that
/// no dimension distributes (on a process outside the template's nodes the runtime
/// makes every aligned dimension empty; with a distributed dimension the block is
/// empty either way). With the bounds written out (`p(1:mimax, ...)`) gfortran knows
/// the stride of the next dimension: Himeno's p(i, j +- 1, k) rows are constant
/// offsets from p(i, j, k) (docs/performance.md). `xmpf_array_attach` checks the
/// allocated extents against the layout.
fn static_bounds(dl: &str, up: &str, tdim: Option<usize>, tfmt: &[DistFormat], w: Option<(&str, &str, &str)>, whole: bool) -> Option<String> {
    if whole || !tfmt.iter().any(|f| loop_sched::distributes(Some(*f))) {
        return None;
    }
    if let Some(k) = tdim {
        if tfmt.get(k) != Some(&DistFormat::Dup) {
            return None;
        }
    }
    let (lo, hi) = match w {
        None => ("0", "0"),
        Some((_, _, "1")) => return None,
        Some((lo, hi, _)) => (lo.trim(), hi.trim()),
    };
    let p = |s: &str| if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') { s.to_string() } else { format!("({s})") };
    let lb = if lo == "0" { dl.trim().to_string() } else { format!("{} - {}", p(dl.trim()), p(lo)) };
    let ub = if hi == "0" { up.trim().to_string() } else { format!("{} + {}", p(up.trim()), p(hi)) };
    Some(format!("{lb}:{ub}"))
}

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
    /// task's nodes, as in Omni (runtime/lib/xmp/csrc/caf_lib.c), except that a coarray
    /// cannot be allocated there (XMP0452: its window is collective over all images).
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
        } else if coarray::allocates_coarray(text, self.fixed) {
            self.err(
                "XMP0452",
                own,
                "coarray allocation inside a `task` body is not supported",
                "allocating a coarray is collective over all images: allocate it before the task (docs/local-view.md)",
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
                code.ends_with('&') && e < self.src.len()
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

    fn func(&mut self, f: &'a Function) {
        self.fns.push(f);
        self.func_body(f);
        self.fns.pop();
    }

    fn func_body(&mut self, f: &'a Function) {
        let v = View { body: &f.body, symbols: &f.symbols, name_span: f.name_span, module: None };
        self.header = Some((f.span.start, self.stmt_end(f.name_span.end)));
        let u = self.unit_body(&v, f.kind == FuncKind::Program);
        if f.kind == FuncKind::Program {
            self.main_program(f);
        } else if !u.frees.is_empty() {
            let at = self.exit_at(f);
            let text: String = u.frees.iter().map(|l| format!("{IND}{l}\n")).collect();
            self.edits.push(Edit { span: Span::new(at, at), text });
        }
        self.hoist_uses(&f.body);
        self.hosts.push(u);
        for c in &f.contains {
            self.func(c);
        }
        self.hosts.pop();
    }

    /// Start of the line of a procedure's `end` statement, or of its `contains`.
    fn exit_at(&self, f: &Function) -> usize {
        let stop = f.contains.first().map_or(f.span.end, |c| c.span.start);
        let text = &self.src[f.span.start..stop];
        let trimmed = text.trim_end();
        let mut at = f.span.start + trimmed.rfind('\n').map_or(0, |p| p + 1);
        if !f.contains.is_empty() {
            // the `contains` line: the last line of the part before the first contained
            // procedure that is not blank or a comment
            let mut off = 0;
            for line in text.split_inclusive('\n') {
                let t = lc(line.trim_start());
                if t.starts_with("contains") && (t.len() == 8 || !t.as_bytes()[8].is_ascii_alphanumeric() && t.as_bytes()[8] != b'_') {
                    at = f.span.start + off;
                }
                off += line.len();
            }
        } else if let Some(k) = lex::contains_line(text) {
            // a `contains` whose procedures the parser did not see (`#include`d)
            at = f.span.start + k;
        }
        at
    }

    /// A module's specification part: handles become module variables, the setup a
    /// module procedure `xmpf_modinit_<m>` (run once) called by every unit that uses
    /// the module (and by its own procedures).
    fn module(&mut self, m: &'a xmpc_ir::Module) {
        let key = lc(&m.name);
        let v = View { body: &m.decls, symbols: &m.symbols, name_span: m.name_span, module: Some(key.clone()) };
        self.header = None;
        let u = self.unit_body(&v, false);
        self.hoist_uses(&m.decls);
        // the init procedure, before `end module`
        let text = self.text(m.span);
        let trimmed = text.trim_end();
        let last_nl = trimmed.rfind('\n').map_or(0, |p| p + 1);
        let at = m.span.start + last_nl;
        let mut sub = String::new();
        // a module whose default is `private`: the names its users need are public
        if order::default_private(self, &m.decls) {
            let public = format!("{IND}public :: {}\n", order::module_exports(&key, &u, &self.m).join(", "));
            match lex::contains_line(text) {
                Some(k) => self.edits.push(Edit { span: Span::new(m.span.start + k, m.span.start + k), text: public }),
                None => sub.push_str(&public),
            }
        }
        // (a `contains` may be there with no procedure the parser saw: `#include`d)
        if m.contains.is_empty() && lex::contains_line(text).is_none() {
            sub.push_str(&format!("{IND}contains\n"));
        }
        sub.push_str(&format!("{IND}subroutine xmpf_modinit_{key}()\n{IND}logical, save :: xmpf_done = .false.\n"));
        if u.need_cbind {
            for d in TEMPS {
                sub.push_str(&format!("{IND}{d}\n"));
            }
        }
        sub.push_str(&format!("{IND}if (xmpf_done) return\n{IND}xmpf_done = .true.\n"));
        for l in &u.setup {
            sub.push_str(&format!("{IND}{l}\n"));
        }
        sub.push_str(&format!("{IND}end subroutine xmpf_modinit_{key}\n"));
        self.edits.push(Edit { span: Span::new(at, at), text: sub });
        let mut mu = u;
        mu.setup = vec![format!("call xmpf_modinit_{key}()")];
        mu.decls.clear();
        mu.redecl.clear();
        mu.need_cbind = false;
        self.local_mods.insert(key.clone());
        self.mods.insert(key, mu);
    }

    /// Translates the specification part and statements of a unit; returns its XMP
    /// declarations (for contained procedures).
    fn unit_body(&mut self, f: &View<'a>, is_main: bool) -> Unit {
        let mut u = Unit::default();
        // host and module declarations
        let mut inherited: Vec<Unit> = self.hosts.clone();
        for s in f.body {
            if matches!(s.kind, StmtKind::Verbatim) {
                let low = lc(self.text(s.span).trim_start());
                if let Some(rest) = low.strip_prefix("use") {
                    let name: String = rest.trim_start_matches([' ', ',', ':']).chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if !self.mods.contains_key(&name) {
                        // a module of another file
                        if let Some(mut mu) = (self.find)(&name).and_then(|t| modinfo::read(&t)) {
                            self.fill_tids(&name, &mut mu);
                            self.mods.insert(name.clone(), mu);
                        }
                    }
                    if let Some(mu) = self.mods.get(&name) {
                        inherited.push(mu.clone());
                    }
                }
            }
        }
        // a pure or elemental procedure may not call the (impure) module init; it can
        // hold no XMP directive either
        let head = lc(&self.src[self.line_start(f.name_span.start)..f.name_span.start]);
        let pure = head.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| w == "pure" || w == "elemental");
        for h in inherited {
            u.arrays.extend(h.arrays);
            u.pending.extend(h.pending);
            for l in h.setup {
                if l.starts_with("call xmpf_modinit_") && !pure && !u.setup.contains(&l) {
                    u.setup.push(l);
                }
            }
        }
        // ---- specification directives, in order
        let mut shadows: HashMap<String, (Span, Vec<ShadowWidth>)> = HashMap::new();
        let mut aligns: Vec<(String, Span, Vec<AlignSrc>, Ref)> = vec![];
        // `save_desc` and `local_alias`, applied once the arrays are known
        let mut late: Vec<&'a xmpc_ir::directive::Directive> = vec![];
        let mut first_exec: Option<&Stmt> = None;
        for s in f.body {
            let spec = self.is_spec(s);
            if !spec && first_exec.is_none() {
                first_exec = Some(s);
            }
            let StmtKind::Pragma(p) = &s.kind else {
                continue;
            };
            if !spec {
                continue;
            }
            let d = &p.dir;
            if first_exec.is_some() {
                // its setup would run before the statements it follows (which may set
                // the sizes it uses)
                self.err("XMP0114", d.span, "declarative XMP directive after the first executable statement", "move it to the specification part");
                continue;
            }
            let loc = |me: &Self, w: &str| me.loc(d.span, w);
            match &d.kind {
                DirectiveKind::Nodes { .. } => {
                    for e in self.m.declared_by(p).to_vec() {
                        let Entity::Nodes(id) = e else { continue };
                        let line = self.nodes_setup(id, &loc(self, "nodes"));
                        u.decls.insert(format!("integer(8) :: {}", self.nh(id)));
                        u.setup.push(line);
                    }
                }
                DirectiveKind::Template { .. } => {
                    for e in self.m.declared_by(p).to_vec() {
                        let Entity::Template(id) = e else { continue };
                        let h = self.th(id);
                        u.decls.insert(format!("integer(8) :: {h}"));
                        let tt = self.m.templ(id);
                        let lo: Vec<String> = tt.dims.iter().map(|x| x.as_ref().map_or("0".into(), |b| self.ie(&b.0))).collect();
                        let hi: Vec<String> = tt.dims.iter().map(|x| x.as_ref().map_or("0".into(), |b| self.ie(&b.1))).collect();
                        let fixed = tt.fixed() as i32;
                        u.setup.push(format!(
                            "call xmpf_template({h}, {}, {}, {}, {}, {fixed})",
                            loc(self, "template"),
                            lo.len(),
                            self.i8list(&lo),
                            self.i8list(&hi)
                        ));
                    }
                }
                DirectiveKind::Distribute { dists, .. } => {
                    let templs: Vec<TemplId> = self.m.declared_by(p).iter().filter_map(|e| if let Entity::Template(t) = e { Some(*t) } else { None }).collect();
                    if templs.is_empty() {
                        continue;
                    }
                    let Some(da) = self.dist_args(dists, true) else { continue };
                    for t in templs {
                        let Some(nh) = self.tonto(t) else { continue };
                        if !gblock::deferred(dists) {
                            let th = self.th(t);
                            u.setup.push(self.distribute_call(&th, &loc(self, "distribute"), &nh, &da));
                        }
                    }
                }
                DirectiveKind::Align { names, source, with } => {
                    for n in names {
                        aligns.push((n.name.clone(), d.span, source.clone(), with.clone()));
                    }
                }
                DirectiveKind::Shadow { names, widths } => {
                    for n in names {
                        shadows.insert(lc(&n.name), (d.span, widths.clone()));
                    }
                }
                DirectiveKind::SaveDesc { .. } | DirectiveKind::LocalAlias { .. } => late.push(d),
                _ => {}
            }
        }
        // ---- aligned arrays
        for (name, dspan, source, with) in &aligns {
            if name.contains('%') {
                // a component of a derived type (member.rs)
                self.member_array(f.body, f.symbols, &mut u, name, *dspan, source, with, shadows.get(&lc(name)));
                continue;
            }
            self.array(f.body, f.symbols, &mut u, name, *dspan, source, with, shadows.get(&lc(name)));
        }
        self.local_aliases(&late, f, &mut u); // local_alias.rs
        self.save_descs(&late, f, is_main, &mut u); // save_desc.rs
        if is_main || f.module.is_some() {
            // main program and module arrays live for the whole run
            u.frees.clear();
        }
        if is_main && coarray::uses_coarrays(self.src, self.fixed) {
            // the main program's variables are SAVE (coarrays need it) in xmpf_main too
            u.decls.insert("save".into());
        }
        let rd = std::mem::take(&mut u.redecl);
        if !rd.is_empty() {
            self.redeclare(f.body, f.symbols, &rd);
        }
        // ---- executable directives and statements
        for s in f.body {
            if !(matches!(s.kind, StmtKind::Pragma(_)) && self.is_spec(s)) {
                self.stmt(s, &mut u);
            }
        }
        // ---- inserted declarations and setup (a module's setup goes to its init procedure)
        let setup_here: Vec<String> = if f.module.is_some() { vec![] } else { u.setup.clone() };
        if f.module.is_some() {
            // the setup's temporaries are locals of the init procedure, not module
            // variables (a unit using the module may declare its own)
            u.decls.retain(|d| !TEMPS.contains(&d.as_str()));
        }
        if !u.decls.is_empty() || !setup_here.is_empty() {
            let at = match first_exec {
                Some(s) => self.line_start(s.span.start),
                None => match f.body.last() {
                    Some(s) => (self.stmt_end(s.span.end.max(1) - 1) + 1).min(self.src.len()),
                    None => self.stmt_end(f.name_span.end) + 1,
                },
            };
            let mut text = String::new();
            for d in &u.decls {
                text.push_str(&format!("{IND}{d}\n"));
            }
            for s in &setup_here {
                text.push_str(&format!("{IND}{s}\n"));
            }
            self.edits.push(Edit { span: Span::new(at, at), text });
        }
        if u.need_cbind {
            let e = self.stmt_end(f.name_span.end);
            self.edits.push(Edit {
                span: Span::new(e, e),
                text: format!("\n{IND}use, intrinsic :: iso_c_binding, only: xmpf_cptr => c_ptr,\n{IND}&  xmpf_cfp => c_f_pointer")
                    .replace(",\n      &  xmpf_cfp", if self.fixed { ",\n     &  xmpf_cfp" } else { ", &\n      &  xmpf_cfp" }),
            });
        }
        u
    }

    /// (lower, upper, stride) of a node-set subscript; stride 0 = whole dimension.
    fn triplet(&self, sub: Option<&xmpc_ir::directive::Sub>) -> (String, String, String) {
        match sub.map(|s| &s.kind) {
            Some(SubKind::Expr(e)) => (self.ex(e), self.ex(e), "1".into()),
            Some(SubKind::Triplet { lower: Some(l), upper: Some(h), stride }) => (self.ex(l), self.ex(h), stride.as_ref().map_or("1".into(), |s| self.ex(s))),
            _ => ("1".into(), "1".into(), "0".into()),
        }
    }

    fn is_spec(&self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Decl(_) => true,
            StmtKind::Pragma(p) => matches!(
                p.dir.kind,
                DirectiveKind::Nodes { .. }
                    | DirectiveKind::Template { .. }
                    | DirectiveKind::Distribute { .. }
                    | DirectiveKind::Align { .. }
                    | DirectiveKind::Shadow { .. }
                    | DirectiveKind::SaveDesc { .. }
                    | DirectiveKind::LocalAlias { .. }
            ),
            StmtKind::Verbatim => {
                let t = lc(self.text(s.span).trim_start());
                let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
                let w: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
                matches!(
                    w.as_str(),
                    "implicit"
                        | "use"
                        | "include"
                        | "parameter"
                        | "data"
                        | "common"
                        | "dimension"
                        | "save"
                        | "equivalence"
                        | "external"
                        | "intrinsic"
                        | "namelist"
                        | "import"
                        | "type"
                        | "integer"
                        | "real"
                        | "double"
                        | "doubleprecision"
                        | "logical"
                        | "complex"
                        | "character"
                        | "interface"
                        | "format"
                        | "allocatable"
                        | "target"
                        | "pointer"
                        | "private"
                        | "public"
                ) || t.is_empty()
            }
            _ => false,
        }
    }

    /// True when the declaration of `key` in `body` gives it an assumed-size (`*`)
    /// dimension, in its entity (`a(n, *)`) or a `dimension(*)` attribute.
    fn assumed_size(&self, body: &[Stmt], syms: &SymbolTable, key: &str) -> bool {
        let parens = |t: &str| -> Option<String> {
            let t = t.trim_start();
            if !t.starts_with('(') {
                return None;
            }
            let mut depth = 0;
            for (i, c) in t.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(t[1..i].to_string());
                        }
                    }
                    _ => {}
                }
            }
            None
        };
        for s in body {
            let StmtKind::Decl(ids) = &s.kind else { continue };
            if !ids.iter().any(|&i| lc(&syms.get(i).name) == key) {
                continue;
            }
            let low = lc(&self.src[s.span.start..self.stmt_end(s.span.start)]);
            let from = low.find("::").map_or(0, |p| p + 2);
            let Some(at) = find_word(&low, key, from) else { continue };
            let dims = parens(&low[at + key.len()..]).or_else(|| {
                let d = find_word(&low[..from], "dimension", 0)?;
                parens(&low[d + "dimension".len()..])
            });
            if dims.is_some_and(|d| d.contains('*')) {
                return true;
            }
        }
        false
    }

    /// Declared lower bounds and extents (Fortran text) of explicit-shape dims.
    fn decl_bounds(&self, dims: &[xmpc_ir::Dim]) -> (Vec<String>, Vec<String>) {
        let dl: Vec<String> = dims.iter().map(|d| d.lower.as_ref().map_or("1".into(), |e| self.ex(e))).collect();
        let ext = dims
            .iter()
            .zip(&dl)
            .map(|(d, l)| {
                let up = d.upper.as_ref().map_or("1".into(), |e| self.ex(e));
                if l == "1" {
                    up
                } else {
                    format!("({up}) - ({l}) + 1")
                }
            })
            .collect();
        (dl, ext)
    }

    #[allow(clippy::too_many_arguments)]
    fn array(
        &mut self,
        body: &[Stmt],
        syms: &SymbolTable,
        u: &mut Unit,
        name: &str,
        dspan: Span,
        source: &[AlignSrc],
        with: &Ref,
        shadow: Option<&(Span, Vec<ShadowWidth>)>,
    ) {
        let key = lc(name);
        let Some(tid) = self.m.name_template(&with.name) else { return };
        let (th, tnd, tfmt) = self.templ_info(tid);
        let Some(sym) = syms.lookup(&key) else {
            self.err(
                "XMP0404",
                dspan,
                &format!("aligned array '{name}' is not declared in this program unit"),
                "module variables and host-associated arrays are not supported yet",
            );
            return;
        };
        let Type::Array { elem, dims } = self.unit.types.get(sym.ty) else {
            self.err("XMP0404", dspan, &format!("'{name}' is not an array"), "align needs an array");
            return;
        };
        let alloc = sym.attrs.iter().any(|a| a == "allocatable") && dims.iter().all(|d| d.deferred);
        let param = sym.sclass == xmpc_ir::StorageClass::Param;
        let saved = sym.attrs.iter().any(|a| a == "save");
        let dummy = param && !dims.iter().any(|d| d.deferred);
        // `a(:)`, `a(0:, :)`: the IR does not tell `:` from `*`, the declaration does
        let assumed = param && !alloc && dims.iter().all(|d| d.deferred && d.upper.is_none()) && !self.assumed_size(body, syms, &key);
        if sym.attrs.iter().any(|a| a == "pointer") || (dims.iter().any(|d| d.deferred) && !alloc && !assumed) {
            self.err(
                "XMP0405",
                dspan,
                &format!("aligned array '{name}' is an assumed-size dummy or a pointer"),
                "not supported in Fortran: align a local, allocatable, explicit-shape or assumed-shape (`a(:)`) dummy array",
            );
            return;
        }
        if dummy || assumed {
            // the dummy is renamed in the argument list; `name` becomes a pointer onto it
            let Some((hs, he)) = self.header else { return };
            let low = lc(&self.src[hs..he]);
            let after = low.find('(').unwrap_or(low.len());
            let Some(at) = find_word(&low, &key, after) else {
                self.err("XMP0404", dspan, &format!("cannot find dummy argument '{name}' in the procedure statement"), "");
                return;
            };
            self.edits.push(Edit { span: Span::new(hs + at, hs + at + key.len()), text: format!("xmpf_arg_{key}") });
        }
        let etxt = match self.unit.types.get(*elem) {
            Type::Basic(s) => s.clone(),
            _ => {
                self.err("XMP0404", dspan, "aligned array of a derived type", "not supported");
                return;
            }
        };
        let Some(esize) = elem_size(&etxt) else {
            self.err("XMP0404", dspan, &format!("aligned array of type {etxt}"), "element type not supported");
            return;
        };
        let nd = dims.len();
        if source.len() != nd {
            self.err("XMP0104", dspan, &format!("align source has {} subscripts, '{name}' has {nd} dimensions", source.len()), "rank mismatch");
            return;
        }
        let (dl, ext) = if alloc {
            // set from the bounds of the `allocate` statement
            u.decls.insert(format!("integer(8) :: xmpf_dl_{key}({nd}), xmpf_ex_{key}({nd})"));
            ((1..=nd).map(|k| format!("xmpf_dl_{key}({k})")).collect::<Vec<_>>(), (1..=nd).map(|k| format!("xmpf_ex_{key}({k})")).collect::<Vec<_>>())
        } else {
            self.decl_bounds(dims)
        };
        let mut lines: Vec<String> = vec![];
        let mut adim = vec![];
        let mut aoff = vec![];
        let mut talign = vec![];
        let mut cyclic = false;
        let tsubs = with.subs.clone().unwrap_or_default();
        for (d, s) in source.iter().enumerate() {
            let AlignSrc::Index(ix) = s else {
                adim.push("-1".to_string());
                aoff.push("0".to_string());
                talign.push(None);
                continue;
            };
            let mut found = None;
            for (k, ts) in tsubs.iter().enumerate() {
                if let SubKind::Expr(e) = &ts.kind {
                    let t = self.ex(e).replace(' ', "");
                    let lt = lc(&t);
                    let ln = lc(&ix.name);
                    if lt == ln {
                        found = Some((k, "0".to_string()));
                    } else if lt.starts_with(&ln) && matches!(lt.as_bytes()[ln.len()], b'+' | b'-') {
                        found = Some((k, t[ln.len()..].to_string()));
                    }
                }
            }
            match found {
                Some((k, c)) => {
                    if k >= tnd {
                        self.err("XMP0104", with.span, "align target has more subscripts than the template has dimensions", "");
                        return;
                    }
                    if tfmt.get(k) == Some(&DistFormat::Cyclic) {
                        cyclic = true;
                    }
                    adim.push(k.to_string());
                    talign.push(Some((k, c.clone())));
                    aoff.push(if c == "0" { dl[d].clone() } else { format!("({}) + ({c})", dl[d]) });
                }
                None => {
                    self.err("XMP0113", ix.span, &format!("align index '{}' does not appear in the template subscripts", ix.name), "use `t(i)` or `t(i+c)`");
                    return;
                }
            }
        }
        let h = format!("xmpf_d_{key}");
        let loc = self.loc(dspan, "align");
        u.decls.insert(format!("integer(8) :: {h}"));
        u.decls.insert("integer(8) :: xmpf_lb(7), xmpf_ex(7)".into());
        u.decls.insert("type(xmpf_cptr) :: xmpf_cp".into());
        u.need_cbind = true;
        // shadow widths (lo, hi, full) per dim, Fortran text
        let widths = match shadow {
            None => None,
            Some((sspan, ws)) => {
                if ws.len() != nd {
                    self.err("XMP0104", *sspan, &format!("shadow gives {} widths, '{name}' has {nd} dimensions", ws.len()), "rank mismatch");
                    return;
                }
                let (mut lo, mut hi, mut full) = (vec![], vec![], vec![]);
                for w in ws {
                    match w {
                        ShadowWidth::Full(_) => {
                            lo.push("0".to_string());
                            hi.push("0".to_string());
                            full.push("1".to_string());
                        }
                        ShadowWidth::Width(w) => {
                            lo.push(self.ex(&w.lower));
                            hi.push(self.ex(&w.upper));
                            full.push("0".to_string());
                        }
                    }
                }
                Some((*sspan, lo, hi, full))
            }
        };
        let cyc_full = cyclic
            && widths.as_ref().is_some_and(|(_, _, _, full)| {
                talign.iter().zip(full).all(|(ta, f)| !matches!(ta, Some((k, _)) if tfmt.get(*k) == Some(&DistFormat::Cyclic)) || f == "1")
            });
        let arg = format!("xmpf_arg_{key}");
        if assumed && !cyclic {
            // the caller's local block (shadows included) described again with this
            // unit's template, align and shadow; its global extents come from the
            // template (aligned dims) or the actual extents less the shadows (`*` dims)
            let colons = vec![":"; nd].join(",");
            u.decls.insert(format!("{etxt}, contiguous :: {arg}({colons})"));
            u.decls.insert(format!("integer(8) :: xmpf_gx_{key}({nd})"));
            let (lo, hi, full) = match &widths {
                Some((_, l, h, f)) => (l.clone(), h.clone(), f.join(", ")),
                None => (vec!["0".to_string(); nd], vec!["0".to_string(); nd], vec!["0"; nd].join(", ")),
            };
            lines.push(format!("xmpf_ex(1:{nd}) = int(shape({arg}), 8)"));
            lines.push(format!(
                "call xmpf_assumed({h}, {loc}, {th}, {nd}, {esize}, [integer :: {}], {}, {}, {}, {}, [integer :: {full}], {arg}, xmpf_ex, xmpf_gx_{key}, xmpf_lb, xmpf_cp)",
                adim.join(", "),
                self.i8list(&aoff),
                self.i8list(&dl),
                self.i8list(&lo),
                self.i8list(&hi),
            ));
            lines.push(format!("call xmpf_cfp(xmpf_cp, {name}, xmpf_ex(1:{nd}))"));
            let lbs: Vec<String> = (1..=nd).map(|k| format!("xmpf_lb({k}):")).collect();
            lines.push(format!("{name}({}) => {name}", lbs.join(", ")));
            u.setup.extend(lines);
            u.frees.push(format!("call xmpf_array_free({h})"));
            let gx = (1..=nd).map(|k| format!("xmpf_gx_{key}({k})")).collect();
            u.arrays
                .insert(key.clone(), Arr { handle: h, ndims: nd, dl, ext: gx, esize, cyclic, cyc_full, templ: lc(&with.name.name), tid: Some(tid), talign });
            u.redecl.push((name.to_string(), format!("{etxt}, pointer, contiguous"), nd, dspan));
            return;
        }
        if dummy || assumed {
            // the caller's distributed array (found by the address of its local
            // block); an assumed-shape one aligned with a cyclic dim is the whole array
            let ext = if assumed {
                u.decls.insert(format!("{etxt}, contiguous :: {arg}({})", vec![":"; nd].join(",")));
                (1..=nd).map(|k| format!("size({arg}, {k})")).collect()
            } else {
                u.decls.insert(format!("{etxt} :: {arg}(*)"));
                ext
            };
            lines.push(format!("xmpf_ex(1:{nd}) = {}", self.i8list(&ext)));
            lines.push(format!("call xmpf_dummy({h}, {loc}, {arg}, {nd}, {}, xmpf_lb, xmpf_ex, xmpf_cp)", self.i8list(&dl)));
            lines.push(format!("call xmpf_cfp(xmpf_cp, {name}, xmpf_ex(1:{nd}))"));
            let lbs: Vec<String> = (1..=nd).map(|k| format!("xmpf_lb({k}):")).collect();
            lines.push(format!("{name}({}) => {name}", lbs.join(", ")));
            u.setup.extend(lines);
            u.arrays.insert(key.clone(), Arr { handle: h, ndims: nd, dl, ext, esize, cyclic, cyc_full, templ: lc(&with.name.name), tid: Some(tid), talign });
            u.redecl.push((name.to_string(), format!("{etxt}, pointer, contiguous"), nd, dspan));
            return;
        }
        lines.push(format!(
            "call xmpf_array({h}, {loc}, {th}, {nd}, {esize}, {}, [integer :: {}], {})",
            self.i8list(&ext),
            adim.join(", "),
            self.i8list(&aoff)
        ));
        // xmp_matmul and xmp_sort_* compute on the elements: give them the type
        if mentions_typed_library(self.src) {
            if let Some(code) = type_code(&etxt) {
                lines.push(format!("call xmpf_array_type({h}, {code})"));
            }
        }
        if let Some((sspan, lo, hi, full)) = &widths {
            let sl = self.loc(*sspan, "shadow");
            lines.push(format!("call xmpf_array_shadow({h}, {sl}, {nd}, {}, {}, [integer :: {}])", self.i8list(lo), self.i8list(hi), full.join(", ")));
        }
        // an allocatable (not a pointer: gfortran then knows that two arrays do not
        // overlap, and vectorises and turns copies into memcpy as for plain arrays)
        // of the local block's bounds, handed to the runtime as its storage
        lines.push(format!("xmpf_ex(1:{nd}) = {}", self.i8list(&ext)));
        lines.push(format!("call xmpf_array_layout({h}, {loc}, {nd}, {}, xmpf_lb, xmpf_ex)", self.i8list(&dl)));
        let mut known = false;
        let bnds: Vec<String> = (1..=nd)
            .map(|k| {
                let w = widths.as_ref().map(|(_, lo, hi, full)| (lo[k - 1].as_str(), hi[k - 1].as_str(), full[k - 1].as_str()));
                let up = dims[k - 1].upper.as_ref().map_or("1".to_string(), |e| self.ex(e));
                match static_bounds(&dl[k - 1], &up, talign[k - 1].as_ref().map(|a| a.0), &tfmt, w, cyclic || alloc) {
                    Some(b) => {
                        known = true;
                        b
                    }
                    None => format!("xmpf_lb({k}):xmpf_lb({k})+xmpf_ex({k})-1"),
                }
            })
            .collect();
        lines.push(format!("allocate({name}({}))", bnds.join(", ")));
        if known {
            // the extents allocated: the runtime checks them against its layout
            lines.push(format!("xmpf_ex(1:{nd}) = shape({name})"));
        }
        lines.push(format!("call xmpf_array_attach({h}, {loc}, {nd}, xmpf_ex, {name})"));
        u.arrays.insert(
            key.clone(),
            Arr { handle: h.clone(), ndims: nd, dl: dl.clone(), ext: ext.clone(), esize, cyclic, cyc_full, templ: lc(&with.name.name), tid: Some(tid), talign },
        );
        // a `save` array keeps its runtime array, handle and contents across calls:
        // made at the first call only
        let mut lines = lines;
        if saved && !param {
            u.decls.remove(&format!("integer(8) :: {h}"));
            u.decls.insert(format!("integer(8), save :: {h} = 0_8"));
            if !alloc {
                lines.insert(0, format!("if (.not. allocated({name})) then"));
                lines.push("end if".into());
            }
        }
        if alloc {
            u.pending.insert(key.clone(), (nd, lines));
            if !param && !saved {
                u.frees.push(format!("if (allocated({name})) call xmpf_array_free({h})"));
            }
        } else {
            u.setup.extend(lines);
            if !saved {
                u.frees.push(format!("call xmpf_array_free({h})"));
            }
        }
        let save = if saved && !param { ", save" } else { "" };
        u.redecl.push((name.to_string(), format!("{etxt}, allocatable, target{save}"), nd, dspan));
    }

    /// Rewrites the declarations of the aligned arrays `arrs` (name, element type, rank):
    /// the statement keeps its other entities and the arrays are declared as pointers.
    fn redeclare(&mut self, body: &[Stmt], syms: &SymbolTable, arrs: &[(String, String, usize, Span)]) {
        let mut done: BTreeSet<String> = BTreeSet::new();
        for s in body {
            let StmtKind::Decl(ids) = &s.kind else {
                continue;
            };
            let names: Vec<String> = ids.iter().map(|&i| syms.get(i).name.clone()).collect();
            let mine: Vec<&(String, String, usize, Span)> = arrs.iter().filter(|a| names.contains(&lc(&a.0)) && !done.contains(&lc(&a.0))).collect();
            if mine.is_empty() {
                continue;
            }
            let mut end = self.stmt_end(s.span.start);
            if self.fixed {
                end = end.min(col72(self.src, self.line_start(end)));
            }
            if end <= s.span.start {
                // fixed form: the declaration starts past column 72 of its line (found by
                // the fortran_front fuzz target: a line of escaped non-UTF-8 bytes before
                // it), where nothing can be rewritten
                self.err(
                    "XMP0404",
                    mine[0].3,
                    &format!("cannot rewrite the declaration of '{}'", mine[0].0),
                    "in fixed form a statement ends at column 72: declare the aligned array within columns 7 to 72",
                );
                continue;
            }
            // a trailing comment stays where it is
            if let Some(c) = comment_start(&self.src[s.span.start..end]) {
                end = s.span.start + self.src[s.span.start..s.span.start + c].trim_end().len();
            }
            let text = &self.src[s.span.start..end];
            let low = lc(text);
            let dspan = mine[0].3;
            if text.contains('&') || text.contains('\n') || text.contains('!') || low.trim_start().starts_with("dimension") || low.contains(';') {
                self.err(
                    "XMP0404",
                    dspan,
                    &format!("cannot rewrite the declaration of '{}'", mine[0].0),
                    "declare an aligned array on one line as `type :: name(dims)`, without continuation, comment or dimension attribute",
                );
                continue;
            }
            // start of the entity list
            let start = match low.find("::") {
                Some(p) => p + 2,
                None => names.iter().filter_map(|n| find_word(&low, n, 0)).min().unwrap_or(0),
            };
            let prefix = match low.find("::") {
                Some(p) => text[..p].trim_end(),
                None => text[..start].trim_end(),
            };
            // split the entity list at top-level commas
            let mut ents: Vec<String> = vec![];
            let mut depth = 0i32;
            let mut cur = String::new();
            for c in text[start..].chars() {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => depth -= 1,
                    _ => {}
                }
                if c == ',' && depth == 0 {
                    ents.push(cur.trim().to_string());
                    cur.clear();
                } else {
                    cur.push(c);
                }
            }
            ents.push(cur.trim().to_string());
            let ent_name = |e: &str| lc(&e.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>());
            let kept: Vec<&String> = ents.iter().filter(|e| !mine.iter().any(|m| lc(&m.0) == ent_name(e))).collect();
            let mut out = String::new();
            if !kept.is_empty() {
                let sep = if low.contains("::") { " :: " } else { " " };
                out.push_str(&format!("{prefix}{sep}{}", kept.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")));
            }
            for (k, m) in mine.iter().enumerate() {
                let colons = vec![":"; m.2].join(",");
                if k > 0 || !out.is_empty() {
                    out.push('\n');
                    out.push_str(IND);
                }
                out.push_str(&format!("{} :: {}({colons})", m.1, m.0));
                done.insert(lc(&m.0));
            }
            self.edits.push(Edit { span: Span::new(s.span.start, end), text: out });
        }
        for a in arrs {
            if !done.contains(&lc(&a.0)) {
                self.err("XMP0404", a.3, &format!("no declaration of '{}' in this program unit", a.0), "declare it with `type :: name(dims)`");
            }
        }
    }

    fn stmts(&mut self, body: &[Stmt], u: &mut Unit) {
        for s in body {
            self.stmt(s, u);
        }
    }

    fn stmt(&mut self, s: &Stmt, u: &mut Unit) {
        if self.task_depth > 0 {
            self.no_coarrays_in_task(s);
        }
        if matches!(s.kind, StmtKind::Verbatim) {
            // constructs the IR keeps as text (select case, block, associate, where...):
            // a directive inside would be silently dropped
            self.no_directives_in(
                s.span,
                "XMP directive inside a construct the Fortran translator does not model (select case, block, associate, where, ...)",
                "move it out of the construct, or use if/do",
            );
        }
        if !u.pending.is_empty()
            && !matches!(s.kind, StmtKind::Pragma(_) | StmtKind::Compound(_) | StmtKind::If { .. } | StmtKind::Do { .. } | StmtKind::While { .. })
        {
            let low = lc(self.text(s.span));
            if let Some(k) = find_word(&low, "allocate", 0).or_else(|| find_word(&low, "deallocate", 0)) {
                let dealloc = low[k..].starts_with("deallocate");
                self.allocate(s, k, dealloc, u);
                return;
            }
        }
        match &s.kind {
            StmtKind::Pragma(p) => self.pragma(p, u),
            StmtKind::Compound(v) => self.stmts(v, u),
            StmtKind::If { then, els, .. } => {
                self.stmt(then, u);
                if let Some(e) = els {
                    self.stmt(e, u);
                }
            }
            StmtKind::Do { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } | StmtKind::Switch { body, .. } => self.stmt(body, u),
            StmtKind::Stop(code) => {
                // the message of `stop 'text'` may hold the words `error` and `stop`
                let low = lex::mask_strings(&lc(self.text(s.span)));
                let k = find_word(&low, "error", 0).filter(|&e| find_word(&low, "stop", e).is_some()).or_else(|| find_word(&low, "stop", 0));
                let Some(k) = k else { return };
                let is_error = low[k..].starts_with("error");
                let code = match code {
                    Some(e) if !matches!(e.kind, ExprKind::Str(_) | ExprKind::Char(_)) => self.ex(e),
                    _ if is_error => "1".into(),
                    _ => "0".into(),
                };
                let end = s.span.start + self.text(s.span).trim_end().len();
                self.edits.push(Edit { span: Span::new(s.span.start + k, end), text: format!("call xmpf_stop({code})") });
            }
            // it would skip xmpf_task_end, and the collective frees of the procedure's
            // arrays would wait for the nodes outside the task
            StmtKind::Return(_) if self.task_depth > 0 => self.err(
                "XMP0307",
                s.span,
                "`return` out of a `task` body leaves the task without ending it",
                "set a flag in the task and return after `end task`",
            ),
            StmtKind::Return(_) if !u.frees.is_empty() => self.ret(s, u),
            StmtKind::Call { name, args } if lc(name) == "exit" => {
                let low = lex::mask_strings(&lc(self.text(s.span)));
                if let Some(k) = find_word(&low, "exit", 0) {
                    let at = s.span.start + k;
                    if args.is_empty() {
                        let end = s.span.start + self.text(s.span).trim_end().len();
                        self.edits.push(Edit { span: Span::new(at, end), text: "xmpf_exit(0)".into() });
                    } else {
                        self.edits.push(Edit { span: Span::new(at, at + 4), text: "xmpf_exit".into() });
                    }
                }
            }
            _ => {}
        }
    }

    /// `return` of a procedure with descriptors to free: the frees before it; a
    /// one-line `if (c) return` becomes an if block.
    fn ret(&mut self, s: &Stmt, u: &Unit) {
        let ls = self.line_start(s.span.start);
        let end = self.stmt_end(s.span.start);
        let low = lc(&self.src[ls..end]);
        let Some(k) = find_word(&low, "return", s.span.start - ls) else { return };
        let at = ls + k;
        let before = low[..k].trim();
        let calls: String = u.frees.iter().map(|l| format!("{l}\n{IND}")).collect();
        if before.is_empty() || before.bytes().all(|b| b.is_ascii_digit()) {
            self.edits.push(Edit { span: Span::new(at, at), text: calls });
        } else {
            self.edits.push(Edit { span: Span::new(at, at), text: format!("then\n{IND}{calls}") });
            self.edits.push(Edit { span: Span::new(end, end), text: format!("\n{IND}end if") });
        }
    }

    /// Errors for XMP directive lines inside text the IR does not model.
    fn no_directives_in(&mut self, span: Span, msg: &str, label: &str) {
        let mut off = span.start;
        for line in self.text(span).split_inclusive('\n') {
            let t = lc(line.trim_start());
            let fixed_sentinel = self.fixed && (t.starts_with("c$xmp") || t.starts_with("*$xmp"));
            if t.starts_with("!$xmp") || fixed_sentinel {
                let at = off + (line.len() - line.trim_start().len());
                let end = off + line.trim_end().len();
                self.err("XMP0409", Span::new(at, end), msg, label);
            }
            off += line.len();
        }
    }

    /// `allocate(a(l:u, ...), ...)` of allocatable aligned arrays: the runtime creates
    /// and allocates them (their pointers are mapped as for other aligned arrays);
    /// other objects keep an `allocate`. `deallocate(a)` of one → `nullify(a)` (the
    /// runtime's block is not freed).
    fn allocate(&mut self, s: &Stmt, k: usize, dealloc: bool, u: &mut Unit) {
        let end = self.stmt_end(s.span.start);
        // A statement the front end could not delimit (found by fuzzing: its end before
        // its keyword) is refused where it is, not sliced backwards.
        let Some(text) = self.src.get(s.span.start + k..end).map(str::to_string) else {
            self.err("XMP0303", s.span, "this `allocate`/`deallocate` statement could not be read", "not understood");
            return;
        };
        // (a `)` before the `(`, found by fuzzing, is not a statement to slice)
        let (Some(open), Some(close)) = (text.find('('), text.rfind(')')) else { return };
        if close < open {
            return;
        }
        let inner = &text[open + 1..close];
        let objs = split_top(inner);
        let mut kept = vec![];
        let mut lines = vec![];
        let mut any = false;
        for o in &objs {
            let name: String = o.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            let key = lc(&name);
            let Some((nd, plines)) = u.pending.get(&key).cloned() else {
                kept.push(o.clone());
                continue;
            };
            if dealloc {
                // an allocatable: deallocated as usual, its descriptor freed first
                kept.push(o.clone());
                lines.push(format!("call xmpf_array_free(xmpf_d_{key})"));
                any = true;
                continue;
            }
            any = true;
            let Some(bo) = o.find('(') else {
                self.err("XMP0404", s.span, &format!("allocate of '{name}' without bounds"), "");
                return;
            };
            // the bounds' `)` must follow their `(` (fuzzing found `a),m (n`)
            let Some(bc) = o.rfind(')').filter(|&c| c > bo) else {
                self.err("XMP0404", s.span, &format!("allocate of '{name}': its bounds could not be read"), "not understood");
                return;
            };
            let bounds = split_top(&o[bo + 1..bc]);
            if bounds.len() != nd {
                self.err("XMP0104", s.span, &format!("allocate of '{name}': {} bounds for {nd} dimensions", bounds.len()), "");
                return;
            }
            let (mut dl, mut ex) = (vec![], vec![]);
            for b in &bounds {
                match b.split_once(':') {
                    Some((l, h)) => {
                        dl.push(l.trim().to_string());
                        ex.push(format!("({}) - ({}) + 1", h.trim(), l.trim()));
                    }
                    None => {
                        dl.push("1".into());
                        ex.push(b.trim().to_string());
                    }
                }
            }
            for d in TEMPS {
                u.decls.insert(d.into());
            }
            u.need_cbind = true;
            lines.push(format!("xmpf_dl_{key}(1:{nd}) = {}", self.i8list(&dl)));
            lines.push(format!("xmpf_ex_{key}(1:{nd}) = {}", self.i8list(&ex)));
            lines.extend(plines);
        }
        if !any {
            return;
        }
        // the text before the keyword on its line (the statement may be the action
        // of a one-line `if`, whose span starts at the keyword)
        let ls = self.line_start(s.span.start);
        let before = lc(&self.src[ls..s.span.start + k]).trim().to_string();
        let one_line_if = !before.is_empty() && !before.bytes().all(|b| b.is_ascii_digit());
        if one_line_if && !dealloc {
            self.err("XMP0303", s.span, "allocate/deallocate of an aligned array in a one-line `if`", "use an if block");
            return;
        }
        if !dealloc && kept.iter().any(|o| o.contains('=')) {
            self.err("XMP0304", s.span, "allocate/deallocate options (stat=, source=, ...) with aligned arrays", "not supported yet");
            return;
        }
        if !kept.is_empty() {
            lines.push(format!("{}({})", if dealloc { "deallocate" } else { "allocate" }, kept.join(", ")));
        }
        let mut out = lines[0].clone();
        for l in &lines[1..] {
            out.push_str(&format!("\n{IND}{l}"));
        }
        if one_line_if {
            // `if (c) deallocate(a)` → an if block
            out = format!("then\n{IND}{out}\n{IND}end if");
        }
        self.edits.push(Edit { span: Span::new(s.span.start + k, end), text: out });
    }

    /// Inserts `text` (lines) on their own lines before the line holding `off`.
    fn before_line(&mut self, off: usize, lines: &[String]) {
        let at = self.line_start(off);
        let text: String = lines.iter().map(|l| format!("{IND}{l}\n")).collect();
        self.edits.push(Edit { span: Span::new(at, at), text });
    }
    /// Inserts lines after the directive (end of its last line).
    fn after_dir(&mut self, p: &Pragma, lines: &[String]) {
        let at = self.after_dir_at(p);
        let text: String = lines.iter().map(|l| format!("\n{IND}{l}")).collect();
        self.edits.push(Edit { span: Span::new(at, at), text });
    }
    /// Where `after_dir` inserts: the end of the directive's last line.
    fn after_dir_at(&self, p: &Pragma) -> usize {
        let e = self.stmt_end(p.dir.span.start);
        let at = if self.fixed { e } else { self.line_end_any(p.dir.span.end) };
        at.max(e)
    }
    fn line_end_any(&self, off: usize) -> usize {
        self.src[off..].find('\n').map_or(self.src.len(), |p| off + p)
    }

    /// The node-set handle of an `on` clause, with the lines that must run first.
    /// A subset `p(1:2)` is created where the directive runs; with literal bounds the
    /// handle is saved, so the communicator is built once.
    fn nodes_arg(&mut self, u: &mut Unit, r: &Option<Ref>, at: Span) -> Option<(Vec<String>, String)> {
        let Some(r) = r else {
            return Some((vec![], "0_8".into()));
        };
        let pid = match self.m.name(&r.name) {
            Some(Entity::Nodes(id)) => id,
            Some(Entity::Template(t)) => return self.template_on_arg(u, r, t, at),
            _ => return None, // reported by the model
        };
        let (ph, pnd) = (self.nh(pid), self.m.node(pid).rank());
        let Some(subs) = &r.subs else {
            return Some((vec![], ph));
        };
        if subs.len() != pnd {
            self.err("XMP0104", r.span, &format!("{} subscripts for a {pnd}-dimensional node set", subs.len()), "one subscript (or `*`) per node dimension");
            return None;
        }
        // Resolved by the shared model: `p(2:)` and `p(:3)` are ranges, `*` the
        // executing node's own index (as in C and Omni).
        let (lo, hi, st) = self.sel_triplets(&on_ref::node_sels(r, pid));
        let literal = lo.iter().chain(&hi).chain(&st).all(|x| x.bytes().all(|b| b.is_ascii_digit() || b == b'-')) && st.iter().all(|x| x != names::OWN);
        for d in lo.iter().chain(&hi).flat_map(|x| names::query_decls(x)) {
            u.decls.insert(d);
        }
        self.on_count += 1;
        let h = format!("xmpf_on{}", self.on_count);
        let call = format!("call xmpf_nodes_on({h}, {}, {ph}, {pnd}, {}, {}, {})", self.loc(at, "on"), self.i8list(&lo), self.i8list(&hi), self.i8list(&st));
        if literal {
            u.decls.insert(format!("integer(8), save :: {h} = 0_8"));
            Some((vec![format!("if ({h} == 0_8) {call}")], h))
        } else {
            u.decls.insert(format!("integer(8) :: {h}"));
            Some((vec![call], h))
        }
    }

    /// `on t(...)` of a reduction, bcast or barrier: the nodes owning the referenced
    /// template indices (Omni's meaning), built at run time and cached there.
    fn template_on_arg(&mut self, u: &mut Unit, r: &Ref, t: TemplId, at: Span) -> Option<(Vec<String>, String)> {
        let (th, tnd) = (self.th(t), self.m.templ(t).rank());
        let Some(subs) = &r.subs else {
            self.on_count += 1;
            let h = format!("xmpf_on{}", self.on_count);
            u.decls.insert(format!("integer(8) :: {h}"));
            let call = format!("call xmpf_template_nodes_on({h}, {}, {th}, 0, [0_8], [0_8], [0_8])", self.loc(at, "on"));
            return Some((vec![call], h));
        };
        if subs.len() != tnd {
            self.err(
                "XMP0104",
                r.span,
                &format!("{} subscripts for a {tnd}-dimensional template", subs.len()),
                "one subscript (or `:`) per template dimension",
            );
            return None;
        }
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for sel in on_ref::templ_sels(r) {
            match sel {
                on_ref::TemplSel::Whole => {
                    lo.push("0".into());
                    hi.push("0".into());
                    st.push("0".into());
                }
                on_ref::TemplSel::Range { lo: a, hi: b, st: c } => {
                    lo.push(a.map_or_else(|| "-huge(0_8)-1".into(), |a| self.ie(&a)));
                    hi.push(b.map_or_else(|| "huge(0_8)".into(), |b| self.ie(&b)));
                    st.push(self.ie(&c));
                }
            }
        }
        self.on_count += 1;
        let h = format!("xmpf_on{}", self.on_count);
        u.decls.insert(format!("integer(8) :: {h}"));
        let call =
            format!("call xmpf_template_nodes_on({h}, {}, {th}, {tnd}, {}, {}, {})", self.loc(at, "on"), self.i8list(&lo), self.i8list(&hi), self.i8list(&st));
        Some((vec![call], h))
    }

    fn pragma(&mut self, p: &Pragma, u: &mut Unit) {
        let d = &p.dir;
        if let Some(acc) = d.kind.trailers().and_then(|t| t.acc).filter(|_| !self.acc_inner) {
            self.acc_comm(p, u, acc); // XcalableACC (xacc.rs)
            return;
        }
        match &d.kind {
            DirectiveKind::Nodes { .. }
            | DirectiveKind::Template { .. }
            | DirectiveKind::Distribute { .. }
            | DirectiveKind::Align { .. }
            | DirectiveKind::Shadow { .. }
            | DirectiveKind::SaveDesc { .. }
            | DirectiveKind::LocalAlias { .. } => {
                self.err("XMP0114", d.span, "declarative XMP directive after the first executable statement", "move it to the specification part");
            }
            DirectiveKind::Tasks { .. } | DirectiveKind::End(_) => {}
            DirectiveKind::Loop(l) => {
                let Some(body) = &p.body else { return };
                // the nest as the model resolved it (errors were reported there)
                let Some(nest) = self.m.loop_nest(p).cloned() else { return };
                let (th, _, tfmts) = self.templ_info(nest.templ);
                let plan = nest.plan.clone();
                if plan.kind == RangeKind::Margin && plan.widens() {
                    let span = plan.widths.iter().flatten().next().map_or(d.span, |w| w.span);
                    self.err("XMP0304", span, "`loop ... margin(...)` is not supported in Fortran yet", "margin width");
                    return;
                }
                let mut widened: BTreeSet<usize> = BTreeSet::new();
                let loc = self.loc(d.span, "loop");
                if let Some(tag) = plan.wait_tag {
                    // peel_and_wait: wait for the transfer, then the whole loop
                    self.before_line(d.span.start, &[format!("call xmpf_wait_async({loc}, {})", self.ex(tag))]);
                }
                let mut done = 0;
                // insertions after loop ends, in order, by offset
                let mut inserts: std::collections::BTreeMap<usize, String> = std::collections::BTreeMap::new();
                // walk the nest
                let mut cur: Option<&Stmt> = Some(body);
                let mut parent_label: Option<String> = None;
                // schedule calls of inner loops hoisted before the first one (see
                // `hoistable`), and the index of that first edit
                let mut hoisted: Vec<String> = vec![];
                let mut first_edit: Option<usize> = None;
                // `!$omp parallel do` / `!$acc` lines between the directive and the
                // outer `do`: the calls go before them (see `omp`)
                let dir_end = self.line_end_any(d.span.end.max(1) - 1);
                let mut omp_first = false;
                while let Some(st) = cur {
                    let st = omp::nest_do(st);
                    let StmtKind::Do { var, lower, upper, step, end_label, body: inner } = &st.kind else {
                        break;
                    };
                    let vn = lc(&self.ex(var));
                    if let Some(level) = nest.levels.iter().find(|lv| std::ptr::eq(lv.stmt, st)) {
                        let (k, c) = (level.tdim, if level.offset.is_zero() { "0".to_string() } else { self.ie(&level.offset) });
                        let hs = st.span.start;
                        let he = self.stmt_end(hs);
                        let stp = step.as_ref().map_or("1".to_string(), |e| self.ex(e));
                        let sv = format!("xmpf_s_{vn}");
                        let cv = format!("xmpf_c_{vn}");
                        let lab = end_label.as_ref().map_or(String::new(), |l| format!("{l} "));
                        let vtxt = self.ex(var);
                        // a labelled DO on a cyclic dimension takes the two-loop form
                        // (needed for cyclic(w)) unless it shares its label with the
                        // loop around it
                        let first_inner_label = match &inner.kind {
                            StmtKind::Do { end_label, .. } => end_label.clone(),
                            StmtKind::Compound(v) => v
                                .iter()
                                .find_map(|x| match &x.kind {
                                    StmtKind::Do { end_label, .. } => Some(end_label.clone()),
                                    _ => None,
                                })
                                .flatten(),
                            _ => None,
                        };
                        // (the chunk loop may wrap loops ending on the same label, but
                        // not sit between two of them)
                        let _ = first_inner_label;
                        let shared = end_label.is_some() && parent_label == *end_label;
                        // the template index is the loop variable plus c
                        let (pc, mc) = match level.offset.lit() {
                            Some(0) => (String::new(), String::new()),
                            Some(v) if v > 0 => (format!(" + {v}"), format!(" - {v}")),
                            Some(v) => (format!(" - {}", -v), format!(" + {}", -v)),
                            None => (format!(" + ({c})"), format!(" - ({c})")),
                        };
                        let hoist = first_edit.is_some() && self.hoistable(lower, upper, step.as_ref());
                        let fmt = tfmts.get(k).copied();
                        if level.keeps_bounds {
                            // a `*` dimension: the DO as written, after the schedule's
                            // range check (see `keeps_own_bounds`)
                            // (declared as the two-loop form declares it: one nest may
                            // keep a `do i`, another split one)
                            u.decls.insert(format!("integer(8) :: {sv}(4), {cv}"));
                            let call = format!(
                                "call xmpf_sched1({sv}, {loc}, {th}, {k}, int({}, 8){pc}, int({}, 8){pc}, int({stp}, 8))",
                                self.ex(lower),
                                self.ex(upper)
                            );
                            self.place_level(call, String::new(), Span::new(hs, hs), hoist, &mut first_edit, &mut hoisted);
                            done += 1;
                            self.stmt_inner_nonloop(inner, u);
                            parent_label = end_label.clone();
                            cur = Some(inner);
                            continue;
                        }
                        let cyclic_dim = fmt == Some(DistFormat::Cyclic);
                        if first_edit.is_none() {
                            omp_first = omp::sentinel_lines_between(self.src, dir_end, hs);
                        }
                        // under `!$omp parallel do` the one-loop form too: the
                        // two-loop form would give OpenMP a one-chunk loop
                        let omp_here = omp_first && first_edit.is_none();
                        // a step written negative (`do i = n, 1, -1`): the one-loop
                        // form, whose schedule counts downwards (the two-loop form's
                        // chunks only count upwards)
                        let down = stp.replace([' ', '('], "").starts_with('-');
                        // block/gblock/`*`: the node's share is one run with the loop's
                        // own step (`own_step`)
                        let known = loop_sched::own_step(fmt);
                        if known || ((end_label.is_some() || omp_here || down) && (shared || !cyclic_dim || down)) {
                            // one loop over the node's share (also a labelled DO, possibly
                            // sharing its label with the loops around it)
                            let sv = format!("xmpf_s1_{vn}");
                            u.decls.insert(format!("integer(8) :: {sv}(3)"));
                            let vtxt = self.ex(var);
                            // a literal step (not a variable) lets the compiler vectorise
                            let ostep = if known && stp.trim().parse::<i64>().is_ok() { stp.trim().to_string() } else { format!("{sv}(3)") };
                            let mut call = format!(
                                "call xmpf_sched1({sv}, {loc}, {th}, {k}, int({}, 8){pc}, int({}, 8){pc}, int({stp}, 8))",
                                self.ex(lower),
                                self.ex(upper)
                            );
                            match self.expand_lines(&plan, k, &sv, &stp, lower, upper, &pc, tfmts.get(k).copied(), false) {
                                Err(()) => return,
                                Ok(Some(x)) => {
                                    widened.insert(k);
                                    call.push_str(&x);
                                }
                                Ok(None) => {}
                            }
                            let head = format!("do {lab}{vtxt} = {sv}(1){mc}, {sv}(2){mc}, {ostep}");
                            self.place_level(call, head, Span::new(hs, he), hoist, &mut first_edit, &mut hoisted);
                            done += 1;
                            self.stmt_inner_nonloop(inner, u);
                            parent_label = end_label.clone();
                            cur = Some(inner);
                            continue;
                        }
                        u.decls.insert(format!("integer(8) :: {sv}(4), {cv}"));
                        let mut call =
                            format!("call xmpf_sched({sv}, {loc}, {th}, {k}, int({}, 8){pc}, int({}, 8){pc}, int({stp}, 8))", self.ex(lower), self.ex(upper));
                        match self.expand_lines(&plan, k, &sv, &stp, lower, upper, &pc, tfmts.get(k).copied(), true) {
                            Err(()) => return,
                            Ok(Some(x)) => {
                                widened.insert(k);
                                call.push_str(&x);
                            }
                            Ok(None) => {}
                        }
                        let head = format!("do {cv} = {sv}(1), {sv}(2), {sv}(4)\n{IND}do {lab}{vtxt} = {cv}{mc}, min({cv} + {sv}(3) - 1, {sv}(2)){mc}, {stp}");
                        self.place_level(call, head, Span::new(hs, he), hoist, &mut first_edit, &mut hoisted);
                        let end = st.span.start + self.text(st.span).trim_end().len();
                        inserts.entry(end).or_default().push_str(&format!("\n{IND}end do"));
                        done += 1;
                    }
                    self.stmt_inner_nonloop(inner, u);
                    parent_label = end_label.clone();
                    cur = Some(inner);
                }
                if let (Some(i), false) = (first_edit, hoisted.is_empty()) {
                    let calls: String = hoisted.iter().map(|c| format!("{c}\n{IND}")).collect();
                    self.edits[i].text.insert_str(0, &calls);
                }
                if let (Some(i), true) = (first_edit, omp_first) {
                    if let Some((calls, head)) = omp::split_calls(&self.edits[i].text, IND) {
                        self.edits[i].text = head;
                        self.edits.push(Edit { span: Span::new(dir_end, dir_end), text: format!("\n{IND}{calls}") });
                    }
                }
                if done != nest.levels.len() {
                    self.err(
                        "XMP0302",
                        d.span,
                        "loop directive: the loop nest does not have a `do` loop for every loop index",
                        "each index must be the variable of a `do` loop of the nest",
                    );
                    return;
                }
                if let Some((k, w)) = plan.widths.iter().enumerate().find_map(|(k, w)| w.filter(|_| !widened.contains(&k)).map(|w| (k, w))) {
                    let e = loop_sched::width_without_loop(w, k);
                    self.err("XMP0304", e.span, &e.msg, e.label);
                    return;
                }
                // reductions after the loop nest (the statement the directive applies to)
                let bend = body.span.start + self.text(body.span).trim_end().len();
                {
                    let mut tail = String::new();
                    for r in &l.reductions {
                        for v in &r.vars {
                            if let Some(call) = self.red_call(v, r.op, r.op_span, "0_8", &th, &loc, None) {
                                tail.push_str(&format!("\n{IND}{call}"));
                            }
                        }
                    }
                    // after the nest's `!$omp end parallel do`, if any
                    inserts.entry(omp::past_end_directives(self.src, bend)).or_default().push_str(&tail);
                }
                for (at, text) in inserts {
                    if !text.is_empty() {
                        self.edits.push(Edit { span: Span::new(at, at), text });
                    }
                }
            }
            DirectiveKind::Reduction { reductions, on, trailers } => {
                // async: started here, final after `wait_async` (location
                // reductions are done at once)
                let asy = trailers.async_id.as_ref().map(|e| self.ex(e));
                let Some((mut lines, onh)) = self.nodes_arg(u, on, d.span) else {
                    return;
                };
                let loc = self.loc(d.span, "reduction");
                for r in reductions {
                    for v in &r.vars {
                        if let Some(c) = self.red_call(v, r.op, r.op_span, &onh, "0_8", &loc, asy.as_deref()) {
                            lines.push(c);
                        }
                    }
                }
                self.after_dir(p, &lines);
            }
            DirectiveKind::Bcast { vars, from, on, .. } => {
                if let Some(v) = vars.iter().find(|v| v.subs.is_some()) {
                    self.err("XMP0304", v.span, "bcast of an array section is not translated in Fortran", "broadcast the whole array");
                    return;
                }
                let Some((pre, onh)) = self.nodes_arg(u, on, d.span) else {
                    return;
                };
                let (fh, nf, fi) = match from {
                    None => ("0_8".to_string(), 0, "[integer(8) :: 0]".to_string()),
                    Some(r) => match self.m.name_nodes(&r.name).map(|n| self.nh(n)) {
                        Some(h) => {
                            let subs = r.subs.clone().unwrap_or_default();
                            let mut idx = vec![];
                            for s in &subs {
                                match &s.kind {
                                    SubKind::Expr(e) => idx.push(self.ex(e)),
                                    _ => self.err("XMP0303", s.span, "bcast from: one node number per dimension", ""),
                                }
                            }
                            if idx.is_empty() {
                                (h, 0, "[integer(8) :: 0]".into())
                            } else {
                                (h, idx.len(), self.i8list(&idx))
                            }
                        }
                        None => {
                            self.err("XMP0303", r.span, "`bcast ... from` must name a node set", "not a node set");
                            return;
                        }
                    },
                };
                let loc = self.loc(d.span, "bcast");
                let lines: Vec<String> = pre
                    .into_iter()
                    .chain(vars.iter().map(|v| {
                        format!("call xmpf_bcast({n}, {loc}, int(storage_size({n}) / 8, 8) * int(size([{n}]), 8), {fh}, {nf}, {fi}, {onh})", n = v.name.name)
                    }))
                    .collect();
                self.after_dir(p, &lines);
            }
            DirectiveKind::Barrier { on, .. } => {
                let Some((mut lines, onh)) = self.nodes_arg(u, on, d.span) else {
                    return;
                };
                lines.push(format!("call xmpf_barrier({}, {onh})", self.loc(d.span, "barrier")));
                self.after_dir(p, &lines);
            }
            DirectiveKind::WaitAsync { ids, on } => {
                // `on p`/`on t`: the executing nodes. The wait is local (each node
                // completes its own requests of that id, a no-op without any), so it
                // needs no node set here: the reference is only checked (as in C)
                if on.as_ref().is_some_and(|r| self.m.name(&r.name).is_none()) {
                    return; // reported by the model
                }
                let loc = self.loc(d.span, "wait_async");
                let lines: Vec<String> = ids.iter().map(|e| format!("call xmpf_wait_async({loc}, {})", self.ex(e))).collect();
                self.after_dir(p, &lines);
            }
            DirectiveKind::Reflect { vars, widths, trailers } | DirectiveKind::ReduceShadow { vars, widths, trailers } => {
                let rs = matches!(d.kind, DirectiveKind::ReduceShadow { .. });
                let what = if rs { "reduce_shadow" } else { "reflect" };
                let loc = self.loc(d.span, what);
                let asy = trailers.async_id.as_ref().map_or("-1".into(), |e| self.ex(e));
                let mut lines = vec![];
                for v in vars {
                    let Some(a) = u.arrays.get(&lc(&v.name)) else {
                        self.err("XMP0109", v.span, &format!("{what} of '{}', not an aligned array of this unit", v.name), "");
                        continue;
                    };
                    if a.cyclic && (rs || !a.cyc_full) {
                        self.err(
                            "XMP0303",
                            v.span,
                            &format!("{what} of an array aligned with a cyclic dimension (without a full shadow `*` there)"),
                            "not supported",
                        );
                        continue;
                    }
                    let a = a.clone();
                    // reduce_shadow adds: the element type's code
                    let tc = if rs {
                        let t = self.cur_type(&lc(&v.name)).and_then(|(t, _)| if lc(&t).starts_with("logical") { None } else { type_code(&t) });
                        let Some(tc) = t else {
                            self.err("XMP0404", v.span, &format!("reduce_shadow of '{}': element type not supported", v.name), "integer, real or complex");
                            continue;
                        };
                        tc
                    } else {
                        0
                    };
                    let nd = a.ndims;
                    let (hw, lo, hi, per) = match widths {
                        Some(ws) if ws.len() == nd => (
                            1,
                            ws.iter().map(|w| self.ex(&w.lower)).collect::<Vec<_>>(),
                            ws.iter().map(|w| self.ex(&w.upper)).collect::<Vec<_>>(),
                            ws.iter().map(|w| (w.periodic as i32).to_string()).collect::<Vec<_>>(),
                        ),
                        Some(_) => {
                            self.err("XMP0104", d.span, &format!("{what} width: one width per array dimension"), "");
                            continue;
                        }
                        None => (0, vec!["0".into(); nd], vec!["0".into(); nd], vec!["0".into(); nd]),
                    };
                    let (call, tyarg) = if rs { ("xmpf_reduce_shadow", format!("{tc}, ")) } else { ("xmpf_reflect", String::new()) };
                    lines.push(format!(
                        "call {call}({}, {loc}, {nd}, {hw}, {}, {}, [integer :: {}], {tyarg}{asy})",
                        a.handle,
                        self.i8list(&lo),
                        self.i8list(&hi),
                        per.join(", ")
                    ));
                }
                self.after_dir(p, &lines);
            }
            DirectiveKind::Task { on, nocomm, .. } => {
                let loc = self.loc(d.span, "task");
                u.decls.insert("integer :: xmpf_run".into());
                let call = if let Some(n) = self.m.name_nodes(&on.name) {
                    let (h, nd) = (self.nh(n), self.m.node(n).rank());
                    let sels = match &on.subs {
                        Some(_) => on_ref::node_sels(on, n),
                        None => vec![on_ref::NodeSel::Whole; nd],
                    };
                    if sels.len() != nd {
                        self.err(
                            "XMP0104",
                            on.span,
                            &format!("{} subscripts for a {nd}-dimensional node set", sels.len()),
                            "one subscript (or `*`) per node dimension",
                        );
                        return;
                    }
                    let (lo, hi, st) = self.sel_triplets(&sels);
                    for d in lo.iter().chain(&hi).flat_map(|x| names::query_decls(x)) {
                        u.decls.insert(d);
                    }
                    format!(
                        "call xmpf_task_begin(xmpf_run, {loc}, {h}, {nd}, {}, {}, {}, {})",
                        self.i8list(&lo),
                        self.i8list(&hi),
                        self.i8list(&st),
                        *nocomm as i32
                    )
                } else if let Some((h, nd, _)) = self.m.name_template(&on.name).map(|t| self.templ_info(t)) {
                    let (mut idx, mut star) = (vec![], vec![]);
                    for k in 0..nd {
                        match on.subs.as_ref().and_then(|v| v.get(k)).map(|s| &s.kind) {
                            Some(SubKind::Expr(e)) => {
                                idx.push(self.ex(e));
                                star.push("0".to_string());
                            }
                            _ => {
                                idx.push("0".into());
                                star.push("1".into());
                            }
                        }
                    }
                    format!("call xmpf_task_begin_t(xmpf_run, {loc}, {h}, {nd}, {}, [integer :: {}], {})", self.i8list(&idx), star.join(", "), *nocomm as i32)
                } else {
                    return; // reported by the model
                };
                let mut lines = vec![call, "if (xmpf_run /= 0) then".into()];
                let body_caf = p.body.as_ref().is_some_and(|b| {
                    let from = if self.fixed { self.line_start(b.span.start) } else { b.span.start };
                    coarray::statement_text_uses_coarrays(&self.src[from..b.span.end.max(from)], self.fixed)
                });
                if self.own_libcaf && body_caf {
                    lines.push(self.caf_task_marker(d.span.start));
                }
                self.after_dir(p, &lines);
                if let Some(b) = &p.body {
                    self.task_depth += 1;
                    self.stmt(b, u);
                    self.task_depth -= 1;
                }
                match p.end_span {
                    Some(e) => self.before_line(e.start, &["call xmpf_task_end()".into(), "end if".into()]),
                    None => self.err("XMP0105", d.span, "task without `end task`", "close it with `!$xmp end task`"),
                }
                return;
            }
            DirectiveKind::TemplateFix { dists, name, shape } => {
                let Some(tid) = self.m.name_template(name) else { return };
                let (th, tnd) = (self.th(tid), self.m.templ(tid).rank());
                let loc = self.loc(d.span, "template_fix");
                let mut lines = vec![];
                let mut fix_dist = None;
                if let Some(ds) = dists {
                    if self.tonto(tid).is_none() {
                        self.err("XMP0303", d.span, "template_fix with a distribution: distribute the template onto a node set first", "not supported yet");
                        return;
                    }
                    let Some(call) = self.template_fix_dist(d.span, tid, ds) else { return };
                    fix_dist = Some(call);
                }
                match shape {
                    Some(sh) if sh.dims.len() == tnd && sh.dims.iter().all(|x| x.bounds.is_some()) => {
                        let lo: Vec<String> = sh.dims.iter().map(|x| self.ex(&x.bounds.as_ref().unwrap().0)).collect();
                        let hi: Vec<String> = sh.dims.iter().map(|x| self.ex(&x.bounds.as_ref().unwrap().1)).collect();
                        lines.push(format!("call xmpf_template_fix({th}, {loc}, {tnd}, {}, {}, 1)", self.i8list(&lo), self.i8list(&hi)));
                    }
                    Some(_) => {
                        self.err("XMP0104", d.span, "template_fix: one bound per template dimension", "");
                        return;
                    }
                    None => {
                        let z = vec!["0".to_string(); tnd];
                        lines.push(format!("call xmpf_template_fix({th}, {loc}, {tnd}, {}, {}, 0)", self.i8list(&z), self.i8list(&z)));
                    }
                }
                lines.extend(fix_dist);
                self.after_dir(p, &lines);
            }
            DirectiveKind::Gmove { mode, .. } => {
                self.gmove(p, mode.as_ref(), u);
                return;
            }
            DirectiveKind::ReflectInit { .. } | DirectiveKind::ReflectDo { .. } => self.reflect_persistent(p, u),
            DirectiveKind::Array { on, .. } => {
                self.array_dir(p, on, u);
                return;
            }
            // OpenACC: the directive lines stay as they are (comments to a compiler
            // without -fopenacc); the statements under them are translated as usual
            DirectiveKind::Acc { .. } => {}
            other => {
                let _ = other;
                self.err("XMP0401", d.name_span, &format!("the `{}` directive is not supported yet in Fortran", d.name()), "not translated");
            }
        }
        if let Some(b) = &p.body {
            if !matches!(d.kind, DirectiveKind::Loop(_)) {
                self.stmt(b, u);
            }
        }
    }

    /// Inside a loop nest: statements other than the nest's own `do` headers.
    fn stmt_inner_nonloop(&mut self, inner: &Stmt, u: &mut Unit) {
        match &inner.kind {
            StmtKind::Compound(v) => {
                for s in v {
                    if !matches!(s.kind, StmtKind::Do { .. }) {
                        self.stmt(s, u);
                    }
                }
            }
            StmtKind::Do { .. } => {}
            _ => self.stmt(inner, u),
        }
    }

    #[allow(clippy::too_many_arguments)]
    /// The lines widening a loop's schedule `sv` (set by `xmpf_sched`/`xmpf_sched1`) by
    /// an `expand` width of template dimension `k` (see `xmp_model::loop_sched`):
    /// `Ok(None)` when the dimension keeps its owned range, `Err` after reporting a
    /// width that cannot apply. `chunks`: the two-loop form, whose chunk width and
    /// stride (`sv(3)`, `sv(4)`) become the widened range.
    #[allow(clippy::too_many_arguments)]
    fn expand_lines(
        &mut self,
        plan: &loop_sched::LoopPlan,
        k: usize,
        sv: &str,
        stp: &str,
        lower: &Expr,
        upper: &Expr,
        pc: &str,
        fmt: Option<DistFormat>,
        chunks: bool,
    ) -> Result<Option<String>, ()> {
        let Some(w) = plan.widths.get(k).copied().flatten() else { return Ok(None) };
        if let Err(e) = loop_sched::check_width(w, fmt, stp.trim() == "1", false) {
            self.err("XMP0304", e.span, &e.msg, e.label);
            return Err(());
        }
        let (wl, wu) = (self.ex(&w.lower), self.ex(&w.upper));
        let (lo, hi) = if w.unbound {
            (format!("{sv}(1) - int({wl}, 8)"), format!("{sv}(2) + int({wu}, 8)"))
        } else {
            (format!("max({sv}(1) - int({wl}, 8), int({}, 8){pc})", self.ex(lower)), format!("min({sv}(2) + int({wu}, 8), int({}, 8){pc})", self.ex(upper)))
        };
        let mut t = format!("\n{IND}if ({sv}(1) <= {sv}(2)) then\n{IND}  {sv}(1) = {lo}\n{IND}  {sv}(2) = {hi}");
        if chunks {
            t.push_str(&format!("\n{IND}  {sv}(3) = max({sv}(2) - {sv}(1) + 1, 1_8)\n{IND}  {sv}(4) = {sv}(3)"));
        }
        t.push_str(&format!("\n{IND}end if"));
        Ok(Some(t))
    }

    fn red_call(&mut self, v: &xmpc_ir::directive::RedVar, op: RedOp, op_span: Span, onh: &str, th: &str, loc: &str, asy: Option<&str>) -> Option<String> {
        if !v.locs.is_empty() && !matches!(op, RedOp::Max | RedOp::Min | RedOp::FirstMax | RedOp::FirstMin | RedOp::LastMax | RedOp::LastMin) {
            self.err("XMP0303", v.name.span, "location variables are allowed with max, min, firstmax, firstmin, lastmax and lastmin", "");
            return None;
        }
        if v.locs.len() > 3 {
            self.err("XMP0304", v.name.span, "more than 3 location variables are not supported yet in Fortran", "");
            return None;
        }
        if let Some(r) = v.loc_sections.first() {
            self.err("XMP0304", r.span, "array sections as location variables are not supported yet in Fortran", "");
            return None;
        }
        let opc = match op {
            RedOp::Sum | RedOp::Sub => 0,
            RedOp::Prod => 1,
            RedOp::BitAnd => 2,
            RedOp::BitOr => 3,
            RedOp::BitXor => 4,
            RedOp::LogAnd => 5,
            RedOp::LogOr => 6,
            RedOp::Max => 7,
            RedOp::Min => 8,
            RedOp::FirstMax => 9,
            RedOp::FirstMin => 10,
            RedOp::LastMax => 11,
            RedOp::LastMin => 12,
            RedOp::Eqv => 100,
            RedOp::Neqv => 101,
        };
        let _ = op_span;
        let key = lc(&v.name.name);
        let ty = self.cur_type(&key);
        let Some((tyname, is_arr)) = ty else {
            self.err(
                "XMP0404",
                v.name.span,
                &format!("cannot find the declaration of '{}'", v.name.name),
                "reduction variables must be declared in this program unit",
            );
            return None;
        };
        let Some(tc) = type_code(&tyname) else {
            self.err("XMP0404", v.name.span, &format!("reduction of type {tyname} is not supported"), "");
            return None;
        };
        let n = &v.name.name;
        let cnt = if is_arr { format!("int(size({n}), 8)") } else { "1_8".into() };
        if !v.locs.is_empty() {
            if is_arr {
                self.err("XMP0303", v.name.span, "location variables with an array reduction variable", "not supported");
                return None;
            }
            let mut args = vec![];
            for l in &v.locs {
                let lt = self.cur_type(&lc(&l.name)).and_then(|(t, arr)| if arr { None } else { type_code(&t) });
                let Some(lt) = lt else {
                    self.err("XMP0404", l.span, &format!("location variable '{}' must be a declared scalar of an integer or real type", l.name), "");
                    return None;
                };
                args.push(format!("{}, {lt}", l.name));
            }
            return Some(format!("call xmpf_reduction_loc{}({n}, {loc}, {tc}, {opc}, {onh}, {th}, {})", v.locs.len(), args.join(", ")));
        }
        Some(match asy {
            None => format!("call xmpf_reduction({n}, {loc}, {cnt}, {tc}, {opc}, {onh}, {th})"),
            Some(id) => format!("call xmpf_reduction_async({n}, {loc}, {cnt}, {tc}, {opc}, {onh}, {th}, {id})"),
        })
    }

    /// `gmove [in|out]` + `lhs = rhs`: the assignment becomes one `xmpf_gmove` call.
    fn gmove(&mut self, p: &Pragma, mode: Option<&xmpc_ir::directive::GmoveMode>, u: &Unit) {
        let d = &p.dir;
        let Some(StmtKind::Assign(lhs, rhs)) = p.body.as_ref().map(|b| &b.kind) else {
            self.err("XMP0306", d.span, "gmove must be followed by an assignment", "");
            return;
        };
        let body = p.body.as_ref().unwrap();
        let (Some(dst), Some(src)) = (self.gmove_side(lhs, u), self.gmove_side(rhs, u)) else {
            return;
        };
        let m = match mode {
            None => 0,
            Some(xmpc_ir::directive::GmoveMode::In) => 1,
            Some(xmpc_ir::directive::GmoveMode::Out) => 2,
        };
        let loc = self.loc(d.span, "gmove");
        let end = self.stmt_end(body.span.start);
        self.edits.push(Edit { span: Span::new(body.span.start, end), text: format!("call xmpf_gmove({loc}, {m}, {dst}, {src})") });
    }

    /// One side of a gmove: `handle, base, ndims, elem size, [extent], [lower bound],
    /// [lo], [hi], [st]` (Fortran order and indices).
    fn gmove_side(&mut self, e: &Expr, u: &Unit) -> Option<String> {
        let (name, args) = match &e.kind {
            ExprKind::Ident(n) => (n.clone(), None),
            ExprKind::Member { .. } => (self.member_ref(e)?, None),
            ExprKind::Call(f, a) => match &f.kind {
                ExprKind::Ident(n) => (n.clone(), Some(a.clone())),
                _ => (self.member_ref(f)?, Some(a.clone())),
            },
            _ => {
                self.err("XMP0303", e.span, "gmove operand must be an array, an array section or an element", "");
                return None;
            }
        };
        let key = lc(&name);
        let (handle, nd, dl, ext, esize) = if let Some(a) = u.arrays.get(&key) {
            // (an array aligned with a cyclic dimension is stored whole; the runtime
            // knows it and reads/writes only the owners' copies)
            (a.handle.clone(), a.ndims, a.dl.clone(), a.ext.clone(), a.esize)
        } else {
            let Some((ty, is_arr)) = self.cur_type(&key) else {
                self.err("XMP0404", e.span, &format!("cannot find the declaration of '{name}'"), "");
                return None;
            };
            let Some(es) = elem_size(&ty) else {
                self.err("XMP0404", e.span, &format!("gmove of type {ty} is not supported"), "");
                return None;
            };
            if is_arr {
                let nd = args.as_ref().map_or_else(|| self.rank_of(&key).unwrap_or(1), |a| a.len());
                let dl = (1..=nd).map(|k| format!("lbound({name}, {k})")).collect();
                let ext = (1..=nd).map(|k| format!("size({name}, {k})")).collect();
                ("0_8".to_string(), nd, dl, ext, es)
            } else {
                if args.is_some() {
                    self.err("XMP0303", e.span, "gmove operand: not an array", "");
                    return None;
                }
                ("0_8".to_string(), 1, vec!["1".into()], vec!["1".into()], es)
            }
        };
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for k in 0..nd {
            let full = (dl[k].clone(), format!("({}) + ({}) - 1", dl[k], ext[k]), "1".to_string());
            let (l, h, s) = match args.as_ref().map(|a| a.get(k)) {
                None => full,
                Some(None) => {
                    self.err("XMP0104", e.span, &format!("'{name}' has {nd} dimensions"), "one subscript per dimension");
                    return None;
                }
                Some(Some(x)) => match &x.kind {
                    ExprKind::Triplet(a, b, c) => (
                        a.as_ref().map_or(full.0.clone(), |v| self.ex(v)),
                        b.as_ref().map_or(full.1.clone(), |v| self.ex(v)),
                        c.as_ref().map_or("1".into(), |v| self.ex(v)),
                    ),
                    _ => (self.ex(x), self.ex(x), "1".into()),
                },
            };
            lo.push(l);
            hi.push(h);
            st.push(s);
        }
        if args.as_ref().is_some_and(|a| a.len() != nd) {
            self.err("XMP0104", e.span, &format!("'{name}' has {nd} dimensions"), "one subscript per dimension");
            return None;
        }
        Some(format!(
            "{handle}, {name}, {nd}, {esize}, {}, {}, {}, {}, {}",
            self.i8list(&ext),
            self.i8list(&dl),
            self.i8list(&lo),
            self.i8list(&hi),
            self.i8list(&st)
        ))
    }

    /// True when the bounds of an inner loop of a `loop` nest are made of literals
    /// and named constants only: its schedule is then the same at every iteration of
    /// the outer loops and is computed once, before the nest (not one runtime call
    /// per outer iteration).
    /// Replaces a `loop` level's DO statement (`span`) by `head`, its schedule `call`
    /// in front, or with the nest's hoisted calls (`hoist`: see `hoistable`);
    /// `first_edit` is the index of the nest's first edit, where those go.
    fn place_level(&mut self, call: String, head: String, span: Span, hoist: bool, first_edit: &mut Option<usize>, hoisted: &mut Vec<String>) {
        let text = if hoist {
            hoisted.push(call);
            head
        } else {
            format!("{call}\n{IND}{head}")
        };
        if text.is_empty() && span.start == span.end {
            return; // nothing to change here
        }
        first_edit.get_or_insert(self.edits.len());
        self.edits.push(Edit { span, text });
    }

    fn hoistable(&self, lower: &Expr, upper: &Expr, step: Option<&Expr>) -> bool {
        let mut texts = vec![self.ex(lower), self.ex(upper)];
        texts.extend(step.map(|e| self.ex(e)));
        texts.iter().all(|t| {
            let b = t.as_bytes();
            let mut i = 0;
            while i < b.len() {
                let c = b[i];
                if c.is_ascii_digit() {
                    // a literal with its kind or exponent (`2_8`, `1d0`)
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                } else if c.is_ascii_alphabetic() {
                    let st = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    let rest = t[i..].trim_start();
                    if rest.starts_with('(') || !self.is_constant(&lc(&t[st..i])) {
                        return false;
                    }
                } else if c == b'.' || c == b'%' {
                    return false; // operators such as .and., components
                } else {
                    i += 1;
                }
            }
            true
        })
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
        None
    }

    fn main_program(&mut self, f: &Function) {
        let text = self.text(f.span);
        let low = lc(text);
        let pname = f.name.clone();
        if low.trim_start().starts_with("program") {
            let k = low.find("program").unwrap();
            self.edits.push(Edit { span: Span::new(f.span.start + k, f.name_span.end), text: "subroutine xmpf_main".into() });
        } else {
            // no `program` statement: a line of its own before the unit's first line
            // (the unit starts at its first token: in fixed form, column 7)
            let at = self.line_start(f.span.start);
            self.edits.push(Edit { span: Span::new(at, at), text: format!("{IND}subroutine xmpf_main\n") });
        }
        // the end statement: the last line of the unit
        let trimmed = text.trim_end();
        let last_nl = trimmed.rfind('\n').map_or(0, |p| p + 1);
        let last = lc(&trimmed[last_nl..]);
        let lt = last.trim_start();
        if let Some(rest) = lt.strip_prefix("end") {
            let r = rest.trim_start();
            if r.starts_with("program") {
                let off = f.span.start + last_nl + (last.len() - lt.len());
                self.edits.push(Edit { span: Span::new(off, f.span.start + trimmed.len()), text: "end subroutine xmpf_main".into() });
            }
        }
        let end = f.span.start + trimmed.len();
        let wrapper = format!("\n{IND}program {pname}\n{IND}call xmpf_init()\n{IND}call xmpf_main()\n{IND}call xmpf_stop(0)\n{IND}end program {pname}");
        self.edits.push(Edit { span: Span::new(end, end), text: wrapper });
    }
}

/// Offset of a `!` comment outside character literals.
fn comment_start(s: &str) -> Option<usize> {
    let mut q: Option<char> = None;
    for (i, c) in s.char_indices() {
        match (q, c) {
            (None, '\'' | '"') => q = Some(c),
            (Some(x), _) if x == c => q = None,
            (None, '!') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits at top-level commas (outside parentheses and brackets), trimmed.
fn split_top(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Offset of `w` as a whole word in `s` (lower case) at or after `from`.
fn find_word(s: &str, w: &str, from: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = from;
    while let Some(p) = s[i..].find(w) {
        let at = i + p;
        let e = at + w.len();
        let ok_l = at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_');
        let ok_r = e >= b.len() || !(b[e].is_ascii_alphanumeric() || b[e] == b'_');
        if ok_l && ok_r {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

fn norm_ty(t: &str) -> String {
    lc(t).replace(' ', "").replace("kind=", "")
}

fn elem_size(t: &str) -> Option<usize> {
    Some(match norm_ty(t).as_str() {
        "integer" | "integer(4)" | "integer*4" | "real" | "real(4)" | "real*4" | "logical" | "logical(4)" => 4,
        "integer(8)" | "integer*8" | "real(8)" | "real*8" | "doubleprecision" | "complex" | "complex(4)" | "complex*8" => 8,
        "complex(8)" | "complex*16" | "doublecomplex" => 16,
        "integer(2)" | "integer*2" => 2,
        "integer(1)" | "integer*1" | "logical(1)" => 1,
        _ => return None,
    })
}

/// The file calls a library routine that needs element types (xmp_matmul, xmp_sort_*).
fn mentions_typed_library(src: &str) -> bool {
    let b = src.as_bytes();
    [&b"xmp_matmul"[..], &b"xmp_sort_"[..]].iter().any(|k| b.windows(k.len()).any(|w| w.eq_ignore_ascii_case(k)))
}

fn type_code(t: &str) -> Option<i32> {
    Some(match norm_ty(t).as_str() {
        "integer" | "integer(4)" | "integer*4" | "logical" | "logical(4)" => 4,
        "integer(8)" | "integer*8" => 6,
        "real" | "real(4)" | "real*4" => 10,
        "real(8)" | "real*8" | "doubleprecision" => 11,
        "complex" | "complex(4)" | "complex*8" => 13,
        "complex(8)" | "complex*16" | "doublecomplex" => 14,
        _ => return None,
    })
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
