//! Compute / communication / wait blocks of an MPI program, shared by the skeletonizer
//! (`skel`), the instrumentation (`instrument`) and MPIETE.
//!
//! A **compute block** is a maximal run of statements of one statement list with no
//! MPI call in it, lifted to whole loops and `if`s that contain none; it stops at
//! declarations, labels, `return`/`goto`/`stop`, statements calling a function of the
//! file that communicates, and statements that compute what communication or control
//! flow depends on (peers, counts, tags, loop bounds of communicating loops: these are
//! *kept*, so a skeleton still sends the same messages). A statement list inside a
//! loop or `if` that communicates is searched the same way. A **comm block** is a
//! statement calling an MPI routine, a **wait block** one calling `MPI_Wait*`/`MPI_Test*`.
//! Calls of procedures of the file without MPI are compute; what they write is decided
//! over the file (`procs`). `MPI_Abort` (a failed check) is not communication, and the
//! libxmpc_mpiete marker calls end runs without being blocks.
//! Users override with `#pragma bsim compute [time(expr)]` / `keep` (C) or
//! `!$bsim compute [time(expr)]` ... `!$bsim end compute` / `keep` (Fortran).
//!
//! Block IDs count from 1 in source order and depend only on the source text.

mod flow;
mod instrument;
pub mod pragma;
pub mod procs;
pub mod simplify;
pub mod text;
pub mod walk;

pub use instrument::{instrument, instrument_except, Instrument};
pub use simplify::{simplify, Simplified};

use std::collections::HashSet;
use xmpc_ir::{diag, Diag, FileUnit, FuncKind, Function, Item, Lang, Span, Stmt, StmtKind, Type};

use pragma::{BsimDir, BsimLine};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Compute,
    Comm,
    Wait,
}

impl BlockKind {
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Compute => "compute",
            BlockKind::Comm => "comm",
            BlockKind::Wait => "wait",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Block {
    pub id: u32,
    pub kind: BlockKind,
    /// From the first statement's start to the last statement's end (original text).
    pub span: Span,
    /// The statements of the block, in order (one for comm and wait blocks).
    pub stmts: Vec<Span>,
    /// Enclosing function, subroutine or program.
    pub func: String,
    /// Enclosing loops, outermost first (their whole spans).
    pub loops: Vec<Span>,
    /// The block is one loop statement (instrumentation times the loop as a whole).
    pub whole_loop: bool,
    /// The MPI routine called (comm and wait blocks), as written.
    pub call: Option<String>,
    /// `time(expr)` of a user-marked region, as written.
    pub time: Option<String>,
    /// The block was marked by a `compute` directive (its span).
    pub marked: Option<Span>,
}

/// Blocks and the statements kept in a skeleton because communication depends on them.
#[derive(Clone, Debug, Default)]
pub struct BlockMap {
    pub blocks: Vec<Block>,
    pub kept: Vec<Span>,
    /// Every bsim directive line (they are comments in the skeleton).
    pub directives: Vec<Span>,
}

/// The blocks of one file, numbered 1.. in source order.
pub fn find(unit: &FileUnit, src: &str) -> Result<Vec<Block>, Vec<Diag>> {
    analyse(unit, src).map(|m| m.blocks)
}

/// Blocks, kept statements and directive lines of one file.
pub fn analyse(unit: &FileUnit, src: &str) -> Result<BlockMap, Vec<Diag>> {
    analyse_with(unit, src, &[])
}

/// `analyse` with extra control variables: the variables of time models the caller
/// will put into the skeleton (PSIM's closed forms), whose values it must keep.
pub fn analyse_with(unit: &FileUnit, src: &str, extra_control: &[String]) -> Result<BlockMap, Vec<Diag>> {
    let (lines, mut diags) = pragma::scan(src, unit.lang, unit.file);
    let arrays = arrays(unit);
    let procs = procs::Procs::analyse(unit, src, &arrays);
    let mut f = Finder {
        src,
        lang: unit.lang,
        file: unit.file,
        used: vec![false; lines.len()],
        lines,
        comm_funcs: comm_funcs(unit),
        arrays,
        procs,
        control: extra_control.iter().map(|n| if unit.lang == Lang::C { n.clone() } else { n.to_ascii_lowercase() }).collect(),
        grew: false,
        record: false,
        out: BlockMap::default(),
        diags: vec![],
        func: String::new(),
        loops: vec![],
        inits: vec![],
        flows: vec![],
        cur_flow: 0,
        cur: (0, 0),
        control_defs: HashSet::new(),
        shared: HashSet::new(),
        declared: HashSet::new(),
    };
    let funcs: Vec<&Function> = unit
        .functions()
        .into_iter()
        .filter(|g| g.kind == FuncKind::Program || (unit.lang == Lang::C && g.name == "main") || f.comm_funcs.contains(&f.norm(&g.name)))
        .collect();
    // Grow the set of control variables to a fixed point, then record.
    for _ in 0..20 {
        f.grew = false;
        f.run_all(&funcs);
        if !f.grew {
            break;
        }
    }
    if std::env::var_os("XMPC_DEBUG_BLOCKS").is_some() {
        let mut c: Vec<&String> = f.control.iter().collect();
        c.sort();
        eprintln!("control variables: {c:?}");
    }
    f.record = true;
    f.used.iter_mut().for_each(|u| *u = false);
    f.run_all(&funcs);
    for (i, l) in f.lines.iter().enumerate() {
        if !f.used[i] {
            f.diags.push(diag::error(
                "XMP0801",
                "bsim directive is not before a statement of a function that communicates",
                f.file,
                l.span,
                "not attached to any statement",
            ));
        }
    }
    diags.extend(f.diags);
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut m = f.out;
    m.directives = f.lines.iter().map(|l| l.span).collect();
    m.blocks.sort_by_key(|b| b.span.start);
    for (i, b) in m.blocks.iter_mut().enumerate() {
        b.id = i as u32 + 1;
    }
    Ok(m)
}

/// Fortran intrinsic subroutines (never another file's routine).
const INTRINSIC_SUBS: &[&str] = &[
    "random_number",
    "random_seed",
    "date_and_time",
    "cpu_time",
    "system_clock",
    "mvbits",
    "get_command_argument",
    "get_command",
    "get_environment_variable",
    "execute_command_line",
    "exit",
    "abort",
    "flush",
    "getarg",
    "move_alloc",
    "c_f_pointer",
    "sleep",
    "srand",
    "itime",
    "etime",
    "dtime",
    "fdate",
];

/// Functions of the file that call MPI, directly or through other functions of the file,
/// and (Fortran) the subroutines of other files it calls: one may communicate (NPB's
/// `call ssor(itmax)` in lu.f, `ssor` in ssor.f), so such a call is never part of a
/// compute block (it runs, its scalar arguments are control); it is charged the host
/// time it takes, its own file's blocks inside it.
fn comm_funcs(unit: &FileUnit) -> HashSet<String> {
    let norm = |n: &str| if unit.lang == Lang::C { n.to_string() } else { n.to_ascii_lowercase() };
    let funcs = unit.functions();
    let defined: HashSet<String> = funcs.iter().map(|g| norm(&g.name)).collect();
    let mut external: HashSet<String> = HashSet::new();
    if unit.lang != Lang::C {
        for g in &funcs {
            for s in &g.body {
                s.walk(&mut |st| {
                    if let StmtKind::Call { name, .. } = &st.kind {
                        let n = norm(name);
                        let ours = n.starts_with("bsim_") || walk::is_mpi(&n, unit.lang) || walk::is_rt_marker(&n) || n.starts_with("mpi_");
                        if !defined.contains(&n) && !ours && !INTRINSIC_SUBS.contains(&n.as_str()) {
                            external.insert(n);
                        }
                    }
                });
            }
        }
    }
    let called: Vec<(String, Vec<String>)> = funcs
        .iter()
        .map(|g| {
            let mut names = Vec::new();
            for s in &g.body {
                names.extend(walk::calls(s).into_iter().map(|c| norm(c.name)));
            }
            (norm(&g.name), names)
        })
        .collect();
    let mut set: HashSet<String> = external.clone();
    loop {
        let before = set.len();
        for (name, names) in &called {
            if names.iter().any(|n| walk::communicates(n, unit.lang) || set.contains(n)) {
                set.insert(name.clone());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Names declared with an array or pointer type anywhere in the file.
fn arrays(unit: &FileUnit) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut add = |t: &xmpc_ir::SymbolTable| {
        for s in &t.symbols {
            if matches!(unit.types.get(s.ty), Type::Array { .. } | Type::Pointer(_)) {
                out.insert(if unit.lang == Lang::C { s.name.clone() } else { s.name.to_ascii_lowercase() });
            }
        }
    };
    add(&unit.globals);
    for g in unit.functions() {
        add(&g.symbols);
    }
    for it in &unit.items {
        if let Item::Module(m) = it {
            add(&m.symbols);
        }
    }
    out
}

struct Finder<'a> {
    src: &'a str,
    lang: Lang,
    file: usize,
    lines: Vec<BsimLine>,
    used: Vec<bool>,
    comm_funcs: HashSet<String>,
    arrays: HashSet<String>,
    /// What the procedures of the file write (arguments, host and COMMON variables).
    procs: procs::Procs,
    /// Variables communication or communicating control flow depends on.
    control: HashSet<String>,
    grew: bool,
    /// Final pass: collect blocks (earlier passes only grow `control`).
    record: bool,
    out: BlockMap,
    diags: Vec<Diag>,
    func: String,
    loops: Vec<Span>,
    /// The current function's symbols: name and the names its initial value reads
    /// (by symbol id), so a control variable declared `int peer = (r + px) % np;`
    /// makes `r`, `px` and `np` control.
    inits: Vec<(String, Vec<String>)>,
    /// Reaching definitions of each searched function's locals (`flow`), in
    /// `run_all` order; None where the function jumps where the walk cannot follow.
    flows: Vec<Option<flow::Flow>>,
    cur_flow: usize,
    /// The statement being decided (its start and end).
    cur: (usize, usize),
    /// Definitions (function, id) of followed locals that control depends on.
    control_defs: HashSet<(usize, u32)>,
    /// Fortran: scalars of the current unit that other files see (COMMON and
    /// module scalars, and names it does not declare: an include file's COMMON).
    /// Another file may make them control (NPB LU's `dp_type`, set in init_comm.f
    /// and passed to MPI in bcast_inputs.f), so their assignments stay.
    shared: HashSet<String>,
    declared: HashSet<String>,
}

/// How a statement of a list takes part in blocks.
enum Role {
    /// Part of a compute run.
    Compute,
    /// Ends a run and is searched no further (declarations, labels, escapes...).
    Boundary,
    /// A statement calling an MPI routine: its own block.
    Mpi(String),
    /// Communicates below: its statement lists are searched.
    Descend,
}

impl<'a> Finder<'a> {
    fn norm(&self, n: &str) -> String {
        if self.lang == Lang::C {
            n.to_string()
        } else {
            n.to_ascii_lowercase()
        }
    }

    fn run_all(&mut self, funcs: &[&Function]) {
        for (gi, g) in funcs.iter().enumerate() {
            self.cur_flow = gi;
            self.func = g.name.clone();
            self.loops.clear();
            self.inits = g
                .symbols
                .symbols
                .iter()
                .map(|sym| {
                    let mut r = Vec::new();
                    if let Some(e) = &sym.init {
                        walk::visit_expr(e, &mut |x| {
                            if let xmpc_ir::ExprKind::Ident(n) = &x.kind {
                                r.push(self.norm(n));
                            }
                        });
                    }
                    (self.norm(&sym.name), r)
                })
                .collect();
            self.shared.clear();
            self.declared.clear();
            if self.lang != Lang::C {
                for s in &g.symbols.symbols {
                    let n = self.norm(&s.name);
                    let common =
                        s.attrs.iter().any(|a| a.starts_with("common")) || matches!(s.sclass, xmpc_ir::StorageClass::Common | xmpc_ir::StorageClass::ModuleVar);
                    if common && !self.arrays.contains(&n) {
                        self.shared.insert(n.clone());
                    }
                    self.declared.insert(n);
                }
                self.declared.insert(self.norm(&g.name));
            }
            if self.flows.len() <= gi {
                let fl = self.flow_of(g);
                self.flows.push(fl);
            }
            let stmts: Vec<&Stmt> = g.body.iter().collect();
            self.seq(&stmts, g.span.start, g.span.end);
        }
    }

    /// Names whose values the current statement's control needs: for a followed
    /// local, the definitions of it that reach the statement; else the name.
    fn add_control(&mut self, names: impl IntoIterator<Item = String>) {
        for n in names {
            let reaching = match self.flows.get(self.cur_flow) {
                Some(Some(fl)) => fl.reaching(self.cur, &n),
                _ => None,
            };
            match reaching {
                Some(ids) => {
                    for id in ids {
                        if self.control_defs.insert((self.cur_flow, id)) {
                            self.grew = true;
                        }
                    }
                }
                None => {
                    if self.control.insert(n) {
                        self.grew = true;
                    }
                }
            }
        }
    }

    /// Whether the value statement `k` gives `v` is control.
    fn is_control_at(&self, k: (usize, usize), v: &str) -> bool {
        if self.control.contains(v) {
            return true;
        }
        // Fortran: a scalar other files see (COMMON, module, an include file's)
        if self.lang != Lang::C && (self.shared.contains(v) || (!self.declared.contains(v) && !self.arrays.contains(v) && !self.procs.is_proc(v))) {
            return true;
        }
        match self.flows.get(self.cur_flow) {
            Some(Some(fl)) => fl.def(k, v).is_some_and(|id| self.control_defs.contains(&(self.cur_flow, id))),
            _ => false,
        }
    }

    fn has_comm(&self, s: &Stmt) -> bool {
        // Runtime marker calls (`mpiete_region_begin`...) count here so that they end
        // compute runs without becoming blocks.
        if walk::calls(s).iter().any(|c| walk::communicates(c.name, self.lang) || walk::is_rt_marker(c.name) || self.comm_funcs.contains(&self.norm(c.name))) {
            return true;
        }
        let mut v = false;
        s.walk(&mut |st| {
            if matches!(st.kind, StmtKind::Verbatim) {
                v |= walk::text_idents(&self.src[st.span.range()]).iter().any(|w| walk::communicates(w, self.lang) || self.comm_funcs.contains(&self.norm(w)));
            }
        });
        v
    }

    fn role(&self, s: &Stmt) -> Role {
        if s.label.is_some() && !walk::is_loop(s) {
            return Role::Boundary;
        }
        match &s.kind {
            StmtKind::Decl(_) | StmtKind::Pragma(_) | StmtKind::Nop => return Role::Boundary,
            StmtKind::Verbatim if self.lang == Lang::C || spec_stmt(&self.src[s.span.range()]) => return Role::Boundary,
            _ => {}
        }
        let comm = self.has_comm(s);
        let simple = matches!(s.kind, StmtKind::Expr(_) | StmtKind::Call { .. } | StmtKind::Assign(..) | StmtKind::Return(_) | StmtKind::Verbatim);
        if comm && simple {
            return match walk::calls(s).into_iter().find(|c| walk::communicates(c.name, self.lang)) {
                Some(c) => Role::Mpi(self.call_name(s, c.name)),
                None => Role::Boundary,
            };
        }
        if walk::escapes(s) {
            return if comm || !child_seqs(s).is_empty() { Role::Descend } else { Role::Boundary };
        }
        if comm {
            Role::Descend
        } else {
            Role::Compute
        }
    }

    /// The routine name as written in the source (Fortran names are lower-cased in the IR).
    fn call_name(&self, s: &Stmt, lower: &str) -> String {
        let t = &self.src[s.span.range()];
        let lt = t.to_ascii_lowercase();
        match lt.find(&lower.to_ascii_lowercase()) {
            Some(p) => t[p..p + lower.len()].to_string(),
            None => lower.to_string(),
        }
    }

    /// Directive lines in `lo..hi` not used yet, in order.
    fn dirs_in(&self, lo: usize, hi: usize) -> Vec<usize> {
        (0..self.lines.len()).filter(|&i| !self.used[i] && self.lines[i].span.start >= lo && self.lines[i].span.start < hi).collect()
    }

    /// One statement list; `lo..hi` is where its directives may be.
    /// A statement of a compute run: part of the run, or kept (it computes control).
    fn compute_stmt<'s>(&mut self, s: &'s Stmt, run: &mut Vec<&'s Stmt>) {
        let mut w = walk::writes(s, self.src, self.lang, &|n| self.arrays.contains(n), &|f, i| self.procs.arg(f, i));
        w.extend(self.procs.global_writes(s));
        for v in loop_vars(s, self.lang) {
            w.remove(&v);
        }
        if w.iter().any(|v| self.is_control_at(self.cur, v)) {
            if self.record && std::env::var_os("XMPC_DEBUG_BLOCKS").is_some() {
                let why: Vec<&String> = w.iter().filter(|v| self.is_control_at(self.cur, v)).collect();
                let (l, _) = line_col(self.src, s.span.start);
                eprintln!("kept line {l}: writes {why:?}");
            }
            self.flush(run);
            let mut r = flow::kept_reads(s, self.src, self.lang);
            // what the procedures it calls read from COMMON, module or host
            r.extend(self.procs.global_reads(s));
            self.add_control(r);
            if self.record {
                self.out.kept.push(s.span);
            }
        } else {
            run.push(s);
        }
    }

    /// A statement that ends runs and stays (declarations, labels, escapes, calls of routines that communicate).
    fn boundary_stmt(&mut self, s: &Stmt) {
        // a call of a routine that communicates: what it is given decides
        if self.has_comm(s) {
            self.seed_call(s);
        }
        // A declaration's initial value computes its variable like an
        // assignment (the declaration itself always stays).
        if let StmtKind::Decl(ids) = &s.kind {
            let reads: Vec<String> =
                ids.iter().filter_map(|&i| self.inits.get(i)).filter(|(n, _)| self.is_control_at(self.cur, n)).flat_map(|(_, r)| r.clone()).collect();
            self.add_control(reads);
        }
        // Text the IR does not model (`select case`...) that communicates:
        // everything it reads may steer the communication.
        if walk::escapes(s) || (matches!(s.kind, StmtKind::Verbatim) && self.has_comm(s)) {
            let r = walk::reads(s, self.src, self.lang);
            self.add_control(r);
        }
    }

    /// A loop or `if` that communicates: its own expressions are control, its lists searched.
    fn descend_stmt(&mut self, s: &Stmt) {
        self.seed_call(s);
        let mut names = HashSet::new();
        // A Fortran DO variable is written by its loop, not read: it is
        // control only if communication uses it (so loops can be capped).
        let own: Vec<&xmpc_ir::Expr> = match &s.kind {
            StmtKind::Do { lower, upper, step, .. } => [lower, upper].into_iter().chain(step.iter()).collect(),
            _ => walk::own_exprs(s),
        };
        for e in own {
            walk::visit_expr(e, &mut |x| {
                if let xmpc_ir::ExprKind::Ident(n) = &x.kind {
                    names.insert(n.clone());
                }
            });
        }
        if let StmtKind::For { init: Some(i), .. } = &s.kind {
            names.extend(walk::reads(i, self.src, self.lang));
        }
        let names: Vec<String> = names.iter().map(|n| self.norm(n)).collect();
        self.add_control(names);
        let is_loop = walk::is_loop(s);
        if is_loop {
            self.loops.push(s.span);
        }
        for (body, a, b) in child_seqs(s) {
            self.seq(&body, a, b);
        }
        if is_loop {
            self.loops.pop();
        }
    }

    fn seq(&mut self, stmts: &[&Stmt], lo: usize, hi: usize) {
        // C keeps `#pragma bsim` lines as verbatim statements: they are gaps here.
        let stmts: Vec<&Stmt> = stmts
            .iter()
            .copied()
            .filter(|s| {
                !(matches!(s.kind, StmtKind::Verbatim)
                    && self.lines.iter().any(|l| l.span.start >= s.span.start && l.span.start < s.span.end.max(s.span.start + 1)))
            })
            .collect();
        let n = stmts.len();
        // Directive lines in the gap before statement k (k == n: after the last).
        let mut gaps: Vec<Vec<usize>> = Vec::with_capacity(n + 1);
        for k in 0..=n {
            let a = if k == 0 { lo } else { stmts[k - 1].span.end };
            let b = if k == n { hi } else { stmts[k].span.start };
            let d = self.dirs_in(a, b.max(a));
            for &i in &d {
                self.used[i] = true;
            }
            gaps.push(d);
        }
        let mut run: Vec<&Stmt> = Vec::new();
        let mut k = 0;
        while k < n {
            // A user directive before statement k?
            let mut region: Option<(BsimDir, usize, usize)> = None; // dir, line, last stmt
            for &i in &gaps[k] {
                let d = self.lines[i].dir.clone();
                match d {
                    BsimDir::Compute { .. } | BsimDir::Keep => {
                        let end_kind = if matches!(d, BsimDir::Keep) { BsimDir::EndKeep } else { BsimDir::EndCompute };
                        let end = (k + 1..=n).find(|&j| gaps[j].iter().any(|&e| self.lines[e].dir == end_kind));
                        let last = match end {
                            Some(j) => j - 1,
                            None => k,
                        };
                        region = Some((d, i, last));
                    }
                    BsimDir::EndCompute | BsimDir::EndKeep => {
                        let opened = (0..k).any(|j| {
                            gaps[j].iter().any(|&e| {
                                matches!((&self.lines[e].dir, &d), (BsimDir::Compute { .. }, BsimDir::EndCompute) | (BsimDir::Keep, BsimDir::EndKeep))
                            })
                        });
                        if !opened && self.record {
                            self.diags.push(diag::error(
                                "XMP0802",
                                "`end` without a matching bsim region in the same statement list",
                                self.file,
                                self.lines[i].span,
                                "no `compute`/`keep` opens it",
                            ));
                        }
                    }
                }
            }
            if let Some((d, i, last)) = region {
                self.flush(&mut run);
                let region_stmts = &stmts[k..=last];
                let span = region_stmts[0].span.to(region_stmts[region_stmts.len() - 1].span);
                self.cur = (region_stmts[0].span.start, region_stmts[0].span.end);
                if matches!(d, BsimDir::Keep) {
                    for s in region_stmts {
                        self.cur = (s.span.start, s.span.end);
                        let r = walk::reads(s, self.src, self.lang);
                        self.add_control(r);
                    }
                    if self.record {
                        self.out.kept.push(span);
                    }
                } else if let BsimDir::Compute { time } = d {
                    // The model's variables must have their values in the skeleton.
                    if let Some(t) = &time {
                        let names: Vec<String> = walk::text_idents(t).into_iter().map(|w| self.norm(w)).collect();
                        self.add_control(names);
                    }
                    if let Some(c) = region_stmts.iter().find(|s| self.has_comm(s)) {
                        if self.record {
                            self.diags.push(
                                diag::error("XMP0803", "a bsim compute region must not communicate", self.file, c.span, "this statement calls MPI")
                                    .with_labels(vec![diag::Label::secondary(self.file, self.lines[i].span.range()).with_message("region starts here")]),
                            );
                        }
                    } else if self.record {
                        self.push_block(BlockKind::Compute, region_stmts, None, time, Some(self.lines[i].span));
                    }
                }
                k = last + 1;
                continue;
            }
            let s = stmts[k];
            self.cur = (s.span.start, s.span.end);
            match self.role(s) {
                Role::Compute => self.compute_stmt(s, &mut run),
                Role::Boundary => {
                    self.flush(&mut run);
                    self.boundary_stmt(s);
                }
                Role::Mpi(name) => {
                    self.flush(&mut run);
                    self.seed_call(s);
                    if self.record {
                        let kind = if walk::is_wait(&name) { BlockKind::Wait } else { BlockKind::Comm };
                        self.push_block(kind, &[s], Some(name), None, None);
                    }
                }
                Role::Descend => {
                    self.flush(&mut run);
                    self.descend_stmt(s);
                }
            }
            k += 1;
        }
        self.flush(&mut run);
        if self.record {
            for &i in &gaps[n] {
                if matches!(self.lines[i].dir, BsimDir::Compute { .. } | BsimDir::Keep) {
                    self.diags.push(diag::error(
                        "XMP0804",
                        "bsim directive is not followed by a statement",
                        self.file,
                        self.lines[i].span,
                        "nothing to apply it to",
                    ));
                }
            }
        }
    }

    /// Control variables of the MPI calls directly in `s` (arguments other than message
    /// buffers) and of calls to communicating functions of the file (non-array arguments).
    fn seed_call(&mut self, s: &Stmt) {
        let mut names = Vec::new();
        let direct: Vec<walk::CallRef> = match &s.kind {
            StmtKind::Expr(_) | StmtKind::Call { .. } | StmtKind::Assign(..) | StmtKind::Return(_) => walk::calls(s),
            _ => {
                let mut v = Vec::new();
                if let StmtKind::Call { name, args } = &s.kind {
                    v.push(walk::CallRef { name, args });
                }
                for e in walk::own_exprs(s) {
                    walk::visit_expr(e, &mut |x| {
                        if let xmpc_ir::ExprKind::Call(c, args) = &x.kind {
                            if let xmpc_ir::ExprKind::Ident(n) = &c.kind {
                                v.push(walk::CallRef { name: n, args });
                            }
                        }
                    });
                }
                v
            }
        };
        for c in direct {
            let mpi = walk::communicates(c.name, self.lang);
            let user = self.comm_funcs.contains(&self.norm(c.name));
            if !mpi && !user {
                continue;
            }
            let bufs = if mpi { walk::buffer_args(c.name) } else { &[] };
            for (i, a) in c.args.iter().enumerate() {
                if bufs.contains(&i) {
                    continue;
                }
                walk::visit_expr(a, &mut |x| {
                    if let xmpc_ir::ExprKind::Ident(n) = &x.kind {
                        names.push(n.clone());
                    }
                });
            }
            if user {
                names.retain(|n| !self.arrays.contains(&self.norm(n)));
            }
        }
        let names: Vec<String> = names.iter().map(|n| self.norm(n)).collect();
        self.add_control(names);
    }

    fn flush(&mut self, run: &mut Vec<&Stmt>) {
        if !run.is_empty() && self.record {
            self.push_block(BlockKind::Compute, run, None, None, None);
        }
        run.clear();
    }

    fn push_block(&mut self, kind: BlockKind, stmts: &[&Stmt], call: Option<String>, time: Option<String>, marked: Option<Span>) {
        let span = stmts[0].span.to(stmts[stmts.len() - 1].span);
        self.out.blocks.push(Block {
            id: 0,
            kind,
            span,
            stmts: stmts.iter().map(|s| s.span).collect(),
            func: self.func.clone(),
            loops: self.loops.clone(),
            whole_loop: kind == BlockKind::Compute && stmts.len() == 1 && walk::is_loop(stmts[0]),
            call,
            time,
            marked,
        });
    }
}

/// Loop variables of loops inside `s` (a compute loop leaves them as it likes).
fn loop_vars(s: &Stmt, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    let norm = |n: &str| if lang == Lang::C { n.to_string() } else { n.to_ascii_lowercase() };
    s.walk(&mut |st| match &st.kind {
        StmtKind::Do { var, .. } => out.extend(walk::base_name(var).map(norm)),
        StmtKind::For { init: Some(i), .. } => {
            if let StmtKind::Expr(e) = &i.kind {
                walk::visit_expr(e, &mut |x| {
                    if let xmpc_ir::ExprKind::Assign(_, l, _) = &x.kind {
                        out.extend(walk::base_name(l).map(norm));
                    }
                });
            }
        }
        _ => {}
    });
    out
}

/// The statement lists directly inside `s` with the text range each may hold
/// directives in (a `for` header is not a list).
fn child_seqs(s: &Stmt) -> Vec<(Vec<&Stmt>, usize, usize)> {
    let kids: Vec<&Stmt> = match &s.kind {
        StmtKind::If { then, els, .. } => std::iter::once(&**then).chain(els.as_deref()).collect(),
        StmtKind::For { body, .. }
        | StmtKind::Do { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::Switch { body, .. } => vec![body],
        StmtKind::Pragma(p) => p.body.iter().map(|b| &**b).collect(),
        StmtKind::Compound(v) => return vec![(v.iter().collect(), s.span.start, s.span.end)],
        _ => vec![],
    };
    let mut out = Vec::new();
    for (i, k) in kids.iter().enumerate() {
        let lo = if i == 0 { s.span.start } else { kids[i - 1].span.end };
        let hi = if i + 1 < kids.len() { kids[i + 1].span.start } else { s.span.end };
        match &k.kind {
            StmtKind::Compound(v) => out.push((v.iter().collect(), lo, hi)),
            _ => out.push((vec![*k], lo, hi)),
        }
    }
    out
}

/// Fortran specification statements the IR keeps as text (`use`, `implicit`...).
pub fn spec_stmt(t: &str) -> bool {
    let l = t.trim_start().to_ascii_lowercase();
    let w: String = l.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    matches!(
        w.as_str(),
        "use"
            | "implicit"
            | "include"
            | "common"
            | "dimension"
            | "data"
            | "save"
            | "external"
            | "intrinsic"
            | "equivalence"
            | "parameter"
            | "interface"
            | "type"
            | "integer"
            | "real"
            | "double"
            | "doubleprecision"
            | "logical"
            | "character"
            | "complex"
            | "format"
            | "entry"
            | "namelist"
            | "contains"
            | "end"
            | "private"
            | "public"
            | "procedure"
            | "module"
            | "target"
            | "pointer"
            | "allocatable"
            | "import"
            | "block"
            | "enddo"
            | "endif"
    ) || l.starts_with('#')
}

// ------------------------------------------------------------------ listings

/// `id kind file:line:col-line:col summary`, one block a line.
pub fn listing(name: &str, src: &str, blocks: &[Block]) -> String {
    let mut s = String::new();
    for b in blocks {
        let (l0, c0) = line_col(src, b.span.start);
        let (l1, c1) = line_col(src, b.span.end.saturating_sub(1).max(b.span.start));
        s.push_str(&format!("{} {} {name}:{l0}:{c0}-{l1}:{c1} {}\n", b.id, b.kind.name(), summary(src, b)));
    }
    s
}

/// One-line description: the routine, or what the compute block holds.
pub fn summary(src: &str, b: &Block) -> String {
    let mut parts = vec![format!("in {}", b.func)];
    if let Some(c) = &b.call {
        parts.insert(0, c.clone());
    } else {
        let first = src[b.stmts[0].range()].lines().next().unwrap_or("").trim();
        let first: String = first.chars().take(40).collect();
        parts.insert(0, format!("{} stmt{} `{first}`", b.stmts.len(), if b.stmts.len() == 1 { "" } else { "s" }));
    }
    if !b.loops.is_empty() {
        parts.push(format!("loop depth {}", b.loops.len()));
    }
    if let Some(t) = &b.time {
        parts.push(format!("time({t})"));
    } else if b.marked.is_some() {
        parts.push("marked".into());
    }
    parts.join(", ")
}

/// One block of [`listing_json`] (fields in this order).
#[derive(serde::Serialize)]
struct BlockJson<'a> {
    id: u32,
    kind: &'a str,
    func: &'a str,
    start: [usize; 2],
    end: [usize; 2],
    bytes: [usize; 2],
    stmts: usize,
    loop_depth: usize,
    whole_loop: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    call: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<&'a str>,
}

/// The block list as JSON (`xmpc --emit=blocks-json`): serialised by serde_json (it
/// was assembled with `format!` and a hand-written escape), one block per line.
pub fn listing_json(name: &str, src: &str, blocks: &[Block]) -> String {
    #[derive(serde::Serialize)]
    struct Head<'a> {
        format: &'a str,
        source: &'a str,
    }
    let head = serde_json::to_string(&Head { format: "xmpc-blocks/1", source: name }).unwrap_or_default();
    let mut s = format!("{},\"blocks\":[", head.trim_end_matches('}'));
    for (i, b) in blocks.iter().enumerate() {
        let (l0, c0) = line_col(src, b.span.start);
        let (l1, c1) = line_col(src, b.span.end.saturating_sub(1).max(b.span.start));
        if i > 0 {
            s.push(',');
        }
        let row = BlockJson {
            id: b.id,
            kind: b.kind.name(),
            func: &b.func,
            start: [l0, c0],
            end: [l1, c1],
            bytes: [b.span.start, b.span.end],
            stmts: b.stmts.len(),
            loop_depth: b.loops.len(),
            whole_loop: b.whole_loop,
            call: b.call.as_deref(),
            time: b.time.as_deref(),
        };
        s.push('\n');
        s.push_str(&serde_json::to_string(&row).unwrap_or_default());
    }
    s.push_str("\n]}\n");
    s
}

/// 1-based line and column (in characters) of a byte offset.
/// An offset inside a multi-byte character counts as that character's start.
pub fn line_col(text: &str, off: usize) -> (usize, usize) {
    let before = &text[..floor_char(text, off)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The largest character boundary of `text` at or before `off` (clamped to its length):
/// a byte offset one before a span's end can fall inside a multi-byte character of a
/// comment or string (`str::floor_char_boundary` is not stable yet).
pub fn floor_char(text: &str, off: usize) -> usize {
    let mut o = off.min(text.len());
    while !text.is_char_boundary(o) {
        o -= 1;
    }
    o
}
