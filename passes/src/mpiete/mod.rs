//! MPIETE modelling transform (paper §2.3.1, docs/mpiete.md): blocking
//! point-to-point calls become a start and a wait (`MPI_Send` → `MPI_Isend` and
//! `MPI_Wait`, `MPI_Recv` → `MPI_Irecv` and `MPI_Wait`, `MPI_Sendrecv` →
//! `MPI_Irecv`, `MPI_Isend` and two waits) and collectives become calls of the
//! point-to-point implementations in libxmpc_mpiete (`mpiete_allreduce`, ...), so
//! every message is a communication block and every completion a wait block. The
//! block finder (`crate::blocks`) then runs on the result.
//!
//! Fortran: a request array `mpiete_req(2)` is declared after the declarations
//! of each program unit that needs it. C: each rewritten call becomes a compound
//! statement with its own `MPI_Request`.

use crate::blocks::text::{fortran_place, indent_of, line_start, FortranPlace};
use xmpc_ir::{Diag, Edit, Expr, FileUnit, Function, Item, Lang, Span, Stmt, StmtKind};

/// Collectives rewritten to libxmpc_mpiete's point-to-point versions (same arguments).
const COLLECTIVES: &[&str] =
    &["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall", "gather", "scatter", "gatherv", "scatterv", "allgatherv", "alltoallv"];

/// How one MPI call is rewritten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Send,
    Recv,
    Sendrecv,
    Coll(&'static str),
}

fn kind_of(name: &str) -> Option<Kind> {
    let n = name.to_ascii_lowercase();
    let rest = n.strip_prefix("mpi_")?;
    match rest {
        "send" | "ssend" | "bsend" | "rsend" => Some(Kind::Send),
        "recv" => Some(Kind::Recv),
        "sendrecv" => Some(Kind::Sendrecv),
        _ => COLLECTIVES.iter().find(|c| **c == rest).map(|c| Kind::Coll(c)),
    }
}

/// Number of arguments (Fortran has the trailing `ierr`).
fn arity(k: Kind, fortran: bool) -> usize {
    let base = match k {
        Kind::Send => 6,
        Kind::Recv => 7,
        Kind::Sendrecv => 12,
        Kind::Coll(c) => match c {
            "barrier" => 1,
            "bcast" => 5,
            "reduce" => 7,
            "allreduce" => 6,
            "gather" | "scatter" | "allgatherv" => 8,
            "gatherv" | "scatterv" | "alltoallv" => 9,
            _ => 7,
        },
    };
    base + fortran as usize
}

/// The edits of the modelling transform; errors point at calls it cannot rewrite.
pub fn model(unit: &FileUnit, src: &str) -> Result<Vec<Edit>, Vec<Diag>> {
    let mut cx = Cx { unit, src, edits: Vec::new(), diags: Vec::new(), c_colls: false };
    for item in &unit.items {
        match item {
            Item::Function(f) => cx.function(f),
            Item::Module(m) => {
                for f in &m.contains {
                    cx.function(f);
                }
            }
            _ => {}
        }
    }
    if cx.c_colls {
        cx.edits.push(Edit::insert(0, C_PROTOTYPES));
    }
    if cx.diags.is_empty() {
        Ok(cx.edits)
    } else {
        Err(cx.diags)
    }
}

const C_PROTOTYPES: &str = "#include <mpi.h>
/* MPIETE modelling transform: collectives as point-to-point (libxmpc_mpiete) */
int mpiete_barrier(MPI_Comm);
int mpiete_bcast(void *, int, MPI_Datatype, int, MPI_Comm);
int mpiete_reduce(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
int mpiete_allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int mpiete_allgather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
int mpiete_alltoall(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
int mpiete_gather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
int mpiete_scatter(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
int mpiete_gatherv(const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, int, MPI_Comm);
int mpiete_scatterv(const void *, const int *, const int *, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
int mpiete_allgatherv(const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, MPI_Comm);
int mpiete_alltoallv(const void *, const int *, const int *, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, MPI_Comm);
";

struct Cx<'a> {
    unit: &'a FileUnit,
    src: &'a str,
    edits: Vec<Edit>,
    diags: Vec<Diag>,
    c_colls: bool,
}

impl<'a> Cx<'a> {
    fn lang(&self) -> Lang {
        self.unit.lang
    }

    fn text(&self, e: &Expr) -> &'a str {
        self.src[e.span.range()].trim()
    }

    fn error(&mut self, code: &str, span: Span, msg: String, label: &str) {
        self.diags.push(xmpc_ir::diag::error(code, msg, self.unit.file, span, label));
    }

    fn function(&mut self, f: &Function) {
        let before = self.edits.len();
        let mut needs_req = false;
        for s in &f.body {
            s.walk(&mut |st| {
                if let Some(n) = self.stmt(st) {
                    needs_req |= n;
                }
            });
        }
        if needs_req && self.lang().is_fortran() && self.edits.len() > before {
            self.declare_req(f);
        }
        for c in &f.contains {
            self.function(c);
        }
    }

    /// Rewrites one statement when it is an MPI call to model; `Some(true)` when
    /// the rewrite uses the request variable.
    fn stmt(&mut self, st: &Stmt) -> Option<bool> {
        let (name, args): (&str, &[Expr]) = match &st.kind {
            StmtKind::Call { name, args } if self.lang().is_fortran() => (name, args),
            StmtKind::Expr(e) if self.lang() == Lang::C => match &e.kind {
                xmpc_ir::ExprKind::Call(c, args) => match &c.kind {
                    xmpc_ir::ExprKind::Ident(n) => (n.as_str(), args.as_slice()),
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        let k = kind_of(name)?;
        let fortran = self.lang().is_fortran();
        if args.len() != arity(k, fortran) {
            self.error(
                "XMP0601",
                st.span,
                format!("{name} takes {} arguments{}, found {}", arity(k, fortran), if fortran { " (with ierr)" } else { "" }, args.len()),
                "the modelling transform cannot rewrite this call",
            );
            return None;
        }
        let a: Vec<&str> = args.iter().map(|e| self.text(e)).collect();
        if fortran {
            self.fortran_call(st, name, k, &a)
        } else {
            self.c_call(st, name, k, &a);
            Some(false)
        }
    }

    fn fortran_call(&mut self, st: &Stmt, name: &str, k: Kind, a: &[&str]) -> Option<bool> {
        let ierr = a[a.len() - 1];
        let calls: Vec<(String, Vec<String>)> = match k {
            Kind::Send => {
                let mut s: Vec<String> = a[..6].iter().map(|x| x.to_string()).collect();
                s.extend(["mpiete_req(1)".to_string(), ierr.to_string()]);
                vec![("MPI_Isend".into(), s), ("MPI_Wait".into(), vec!["mpiete_req(1)".into(), "MPI_STATUS_IGNORE".into(), ierr.into()])]
            }
            Kind::Recv => {
                let mut s: Vec<String> = a[..6].iter().map(|x| x.to_string()).collect();
                s.extend(["mpiete_req(1)".to_string(), ierr.to_string()]);
                vec![("MPI_Irecv".into(), s), ("MPI_Wait".into(), vec!["mpiete_req(1)".into(), a[6].into(), ierr.into()])]
            }
            Kind::Sendrecv => {
                // sbuf scount stype dest stag rbuf rcount rtype src rtag comm status ierr
                let recv = [a[5], a[6], a[7], a[8], a[9], a[10], "mpiete_req(2)", ierr];
                let send = [a[0], a[1], a[2], a[3], a[4], a[10], "mpiete_req(1)", ierr];
                vec![
                    ("MPI_Irecv".into(), recv.iter().map(|s| s.to_string()).collect()),
                    ("MPI_Isend".into(), send.iter().map(|s| s.to_string()).collect()),
                    ("MPI_Wait".into(), vec!["mpiete_req(2)".into(), a[11].into(), ierr.into()]),
                    ("MPI_Wait".into(), vec!["mpiete_req(1)".into(), "MPI_STATUS_IGNORE".into(), ierr.into()]),
                ]
            }
            Kind::Coll(c) => vec![(format!("mpiete_{c}"), a.iter().map(|s| s.to_string()).collect())],
        };
        let uses_req = !matches!(k, Kind::Coll(_));
        // the statement's own text, without a label in front of it
        let span = self.call_span(st);
        let fixed = self.lang() == Lang::FortranFixed;
        let before = &self.src[line_start(self.src, span.start)..span.start];
        let place = if !before.trim().is_empty() && before.trim().chars().all(|c| c.is_ascii_digit()) {
            // a labelled statement: the label stays in front of the first call
            match fortran_place(self.src, self.lang(), Span::new(span.start - before.len() + before.len() - before.trim_start().len(), span.end)) {
                FortranPlace::Shared => FortranPlace::Shared,
                _ => FortranPlace::Lines { start: 0, end: 0, indent: " ".repeat(before.len()) },
            }
        } else {
            fortran_place(self.src, self.lang(), span)
        };
        match place {
            FortranPlace::Lines { indent, .. } => {
                let mut out = String::new();
                for (i, (n, args)) in calls.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                        out.push_str(&indent);
                    }
                    out.push_str(&fcall(n, args, indent.len(), fixed));
                }
                self.edits.push(Edit::replace(span, out));
            }
            FortranPlace::LogicalIf { indent } if calls.len() > 1 => {
                // `if (c) call MPI_Send(...)` → block if
                let inner = format!("{indent}  ");
                let mut out = String::from("then");
                for (n, args) in &calls {
                    out.push('\n');
                    out.push_str(&inner);
                    out.push_str(&fcall(n, args, inner.len(), fixed));
                }
                out.push('\n');
                out.push_str(&indent);
                out.push_str("end if");
                self.edits.push(Edit::replace(span, out));
            }
            FortranPlace::LogicalIf { .. } | FortranPlace::Shared if calls.len() == 1 => {
                let ind = self.src[line_start(self.src, span.start)..span.start].len();
                self.edits.push(Edit::replace(span, fcall(&calls[0].0, &calls[0].1, ind, fixed)));
            }
            _ => {
                self.error(
                    "XMP0602",
                    st.span,
                    format!("{name} shares its line with another statement"),
                    "put it on a line of its own for the modelling transform",
                );
                return None;
            }
        }
        Some(uses_req)
    }

    /// The span of a Fortran `call` statement from the `call` keyword.
    fn call_span(&self, st: &Stmt) -> Span {
        let t = &self.src[st.span.range()];
        let low = t.to_ascii_lowercase();
        match low.find("call") {
            Some(p) if st.label.is_some() || p > 0 => Span::new(st.span.start + p, st.span.end),
            _ => st.span,
        }
    }

    fn declare_req(&mut self, f: &Function) {
        let fixed = self.lang() == Lang::FortranFixed;
        // after the last declaration (or use/implicit/include line) of the unit
        let mut at = None;
        for s in &f.body {
            let t = self.src[s.span.range()].trim_start().to_ascii_lowercase();
            let spec = matches!(s.kind, StmtKind::Decl(_))
                || (matches!(s.kind, StmtKind::Verbatim)
                    && (t.starts_with("use")
                        || t.starts_with("implicit")
                        || t.starts_with("include")
                        || t.starts_with("parameter")
                        || t.starts_with("common")
                        || t.starts_with("save")
                        || t.starts_with("data")
                        || t.starts_with("#")));
            if spec {
                at = Some(s.span.end);
            } else if at.is_some() || !matches!(s.kind, StmtKind::Verbatim) {
                break;
            }
        }
        let (pos, indent) = match at {
            Some(end) => (crate::blocks::text::next_line(self.src, end.saturating_sub(1)), indent_of(self.src, end.saturating_sub(1))),
            None => match f.body.first() {
                Some(s) => (line_start(self.src, s.span.start), indent_of(self.src, s.span.start)),
                None => return,
            },
        };
        let indent = if fixed && indent.len() < 6 { "      ".to_string() } else { indent };
        let decl = if fixed { "integer mpiete_req(2)" } else { "integer :: mpiete_req(2)" };
        let text = if pos > 0 && !self.src[..pos].ends_with('\n') { format!("\n{indent}{decl}\n") } else { format!("{indent}{decl}\n") };
        self.edits.push(Edit::insert(pos, text));
    }

    fn c_call(&mut self, st: &Stmt, _name: &str, k: Kind, a: &[&str]) {
        let j = |v: &[&str]| v.join(", ");
        let text = match k {
            Kind::Send => format!("{{ MPI_Request mpiete_req_; MPI_Isend({}, &mpiete_req_); MPI_Wait(&mpiete_req_, MPI_STATUS_IGNORE); }}", j(&a[..6])),
            Kind::Recv => format!("{{ MPI_Request mpiete_req_; MPI_Irecv({}, &mpiete_req_); MPI_Wait(&mpiete_req_, {}); }}", j(&a[..6]), a[6]),
            Kind::Sendrecv => format!(
                "{{ MPI_Request mpiete_rr_, mpiete_rs_; MPI_Irecv({}, {}, {}, {}, {}, {}, &mpiete_rr_); MPI_Isend({}, {}, {}, {}, {}, {}, &mpiete_rs_); MPI_Wait(&mpiete_rr_, {}); MPI_Wait(&mpiete_rs_, MPI_STATUS_IGNORE); }}",
                a[5], a[6], a[7], a[8], a[9], a[10], a[0], a[1], a[2], a[3], a[4], a[10], a[11]
            ),
            Kind::Coll(c) => {
                self.c_colls = true;
                format!("mpiete_{c}({});", j(a))
            }
        };
        // the statement span may or may not include the `;`
        let mut span = st.span;
        let rest = &self.src[span.end..];
        if !self.src[span.range()].trim_end().ends_with(';') {
            if let Some(p) = rest.find(';') {
                if rest[..p].trim().is_empty() {
                    span = Span::new(span.start, span.end + p + 1);
                }
            }
        }
        self.edits.push(Edit::replace(span, text));
    }
}

/// `call name(args)` wrapped to the line length of the form (free: 100 columns
/// with `&`; fixed: 72 with `&` in column 6), continuing `ind` columns in.
fn fcall(name: &str, args: &[String], ind: usize, fixed: bool) -> String {
    let limit = if fixed { 72 } else { 100 };
    let mut out = format!("call {name}(");
    let mut col = ind + out.len();
    for (i, a) in args.iter().enumerate() {
        let piece = if i + 1 < args.len() { format!("{a}, ") } else { format!("{a})") };
        if col + piece.trim_end().len() > limit && i > 0 {
            if fixed {
                out = out.trim_end().to_string();
                out.push_str("\n     &");
                out.push_str(&" ".repeat(ind.saturating_sub(6) + 4));
                col = 6 + ind.saturating_sub(6) + 4;
            } else {
                out = out.trim_end().to_string();
                out.push_str(" &\n");
                out.push_str(&" ".repeat(ind + 4));
                col = ind + 4;
            }
        }
        col += piece.len();
        out.push_str(&piece);
    }
    out
}

/// `mpiete_<collective>`: a call the transform made (any case).
pub fn is_p2p_collective(name: &str) -> bool {
    // bytes, not `str` slices: a name may hold a multi-byte character
    let b = name.as_bytes();
    b.len() > 7 && b[..7].eq_ignore_ascii_case(b"mpiete_") && COLLECTIVES.iter().any(|c| b[7..].eq_ignore_ascii_case(c.as_bytes()))
}

/// Names of the MPI routines the transform rewrites (for documentation and tests).
pub fn rewritten_routines() -> Vec<String> {
    let mut v: Vec<String> = ["send", "ssend", "bsend", "rsend", "recv", "sendrecv"].iter().map(|s| format!("MPI_{s}")).collect();
    v.extend(COLLECTIVES.iter().map(|c| format!("MPI_{c}")));
    v
}
