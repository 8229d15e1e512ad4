//! What a statement does as far as blocks care: the MPI routines and user functions it
//! calls, the variables it reads and may write.

use std::collections::HashSet;
use xmpc_ir::{Expr, ExprKind, Lang, Stmt, StmtKind, UnOp};

/// True for an MPI routine name (C: `MPI_` prefix; Fortran: any case).
pub fn is_mpi(name: &str, lang: Lang) -> bool {
    let mpi = if lang == Lang::C { name.starts_with("MPI_") } else { name.len() > 4 && name.as_bytes()[..4].eq_ignore_ascii_case(b"mpi_") };
    // `mpiete_allreduce` etc. from the MPIETE modelling transform communicate too
    mpi || crate::mpiete::is_p2p_collective(name)
}

/// An MPI routine that communicates. `MPI_Abort` does not count: like `stop` it only
/// ends the run (a failed self-check), so the data it tests are not control and a
/// check that calls it stays inside a compute block.
pub fn communicates(name: &str, lang: Lang) -> bool {
    is_mpi(name, lang) && !name.eq_ignore_ascii_case("mpi_abort")
}

/// Calls into libxmpc_mpiete that mark blocks or the predicted region: neither compute
/// nor communication (they end compute runs and are not blocks).
pub fn is_rt_marker(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    matches!(l.as_str(), "mpiete_region_begin" | "mpiete_region_end" | "mpiete_block_begin" | "mpiete_block_end" | "mpiete_mark" | "mpiete_comm_block")
}

/// `MPI_Wait*` / `MPI_Test*`: completion waits.
pub fn is_wait(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.starts_with("mpi_wait") || l.starts_with("mpi_test")
}

/// Pre-order visit of an expression tree.
pub fn visit_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::SizeOf(a) => visit_expr(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) => {
            visit_expr(a, f);
            visit_expr(b, f);
        }
        ExprKind::Call(c, args) => {
            visit_expr(c, f);
            args.iter().for_each(|a| visit_expr(a, f));
        }
        ExprKind::Triplet(a, b, c) => [a, b, c].into_iter().flatten().for_each(|x| visit_expr(x, f)),
        ExprKind::Member { base, .. } => visit_expr(base, f),
        ExprKind::Cond(a, b, c) => {
            visit_expr(a, f);
            visit_expr(b, f);
            visit_expr(c, f);
        }
        _ => {}
    }
}

/// The expressions a statement holds itself (not those of child statements).
pub fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Expr(e) => vec![e],
        StmtKind::Assign(a, b) => vec![a, b],
        StmtKind::If { cond, .. } | StmtKind::While { cond: Some(cond), .. } | StmtKind::DoWhile { cond, .. } | StmtKind::Switch { cond, .. } => vec![cond],
        StmtKind::For { cond, step, .. } => cond.iter().chain(step.iter()).collect(),
        StmtKind::Do { var, lower, upper, step, .. } => [var, lower, upper].into_iter().chain(step.iter()).collect(),
        StmtKind::Call { args, .. } => args.iter().collect(),
        StmtKind::Return(Some(e)) | StmtKind::Stop(Some(e)) => vec![e],
        _ => vec![],
    }
}

/// A routine called somewhere in a statement: name and argument list.
pub struct CallRef<'a> {
    pub name: &'a str,
    pub args: &'a [Expr],
}

/// Every call in `s` and below, in source order (C calls, Fortran `call` statements and
/// function references; Fortran array references look like calls and are included).
pub fn calls(s: &Stmt) -> Vec<CallRef<'_>> {
    let mut out = Vec::new();
    s.walk(&mut |st| {
        if let StmtKind::Call { name, args } = &st.kind {
            out.push(CallRef { name, args });
        }
        for e in own_exprs(st) {
            visit_expr(e, &mut |x| {
                if let ExprKind::Call(c, args) = &x.kind {
                    if let ExprKind::Ident(n) = &c.kind {
                        out.push(CallRef { name: n, args });
                    }
                }
            });
        }
    });
    out
}

/// Identifier tokens of a piece of source text (for verbatim statements).
pub fn text_idents(t: &str) -> Vec<&str> {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += 1;
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(&t[s..i]);
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Names used anywhere in `s` (lower-cased for Fortran).
pub fn reads(s: &Stmt, src: &str, lang: Lang) -> HashSet<String> {
    let mut out = HashSet::new();
    let norm = |n: &str| if lang == Lang::C { n.to_string() } else { n.to_ascii_lowercase() };
    s.walk(&mut |st| {
        if matches!(st.kind, StmtKind::Verbatim) {
            for w in text_idents(&src[st.span.range()]) {
                out.insert(norm(w));
            }
        }
        for e in own_exprs(st) {
            visit_expr(e, &mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    out.insert(norm(n));
                }
            });
        }
    });
    out
}

/// The variable an lvalue names (`a[i].f` → `a`, `*p` → `p`, `u(i,j)` → `u`).
pub fn base_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) | ExprKind::Member { base: b, .. } | ExprKind::Call(b, _) | ExprKind::Unary(UnOp::Deref | UnOp::AddrOf, b) => base_name(b),
        ExprKind::Cast(_, b) => base_name(b),
        ExprKind::Binary(_, a, _) => base_name(a),
        _ => None,
    }
}

/// What a procedure does to one of its arguments (Fortran passes by reference).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArgUse {
    /// A procedure of the file that may write the dummy (directly or through calls).
    Written,
    /// `intent(in)`/`value`, or a procedure of the file that never writes it.
    ReadOnly,
    /// Not a procedure of the file (external routine, intrinsic, array reference).
    Unknown,
}

/// Names `s` may write: assignment targets, `++`/`--`, `&x`, Fortran `call` arguments
/// (by reference, unless `arg(callee, index)` says the dummy is read-only), arguments
/// of Fortran function references that `arg` says are written, loop variables; every
/// name of a verbatim statement except output statements (conservative: `read`,
/// `allocate` ... write).
pub fn writes(s: &Stmt, src: &str, lang: Lang, is_array: &dyn Fn(&str) -> bool, arg: &dyn Fn(&str, usize) -> ArgUse) -> HashSet<String> {
    let mut out = HashSet::new();
    let norm = |n: &str| if lang == Lang::C { n.to_string() } else { n.to_ascii_lowercase() };
    s.walk(&mut |st| {
        match &st.kind {
            StmtKind::Verbatim => {
                for w in verbatim_writes(&src[st.span.range()]) {
                    out.insert(norm(w));
                }
            }
            StmtKind::Assign(l, _) => {
                if let Some(n) = base_name(l) {
                    out.insert(norm(n));
                }
            }
            StmtKind::Do { var, .. } => {
                if let Some(n) = base_name(var) {
                    out.insert(norm(n));
                }
            }
            // `MPI_Abort` does not return: it writes nothing the program reads.
            StmtKind::Call { name, .. } if name.eq_ignore_ascii_case("mpi_abort") => {}
            StmtKind::Call { name, args } => {
                for (i, a) in args.iter().enumerate() {
                    if arg(name, i) == ArgUse::ReadOnly {
                        continue;
                    }
                    if let Some(n) = base_name(a) {
                        out.insert(norm(n));
                    }
                }
            }
            _ => {}
        }
        for e in own_exprs(st) {
            visit_expr(e, &mut |x| match &x.kind {
                ExprKind::Assign(_, l, _) | ExprKind::Unary(UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec, l) => {
                    if let Some(n) = base_name(l) {
                        out.insert(norm(n));
                    }
                }
                // Fortran function reference to a procedure of the file that writes
                // an argument (`x = randlc(seed, a)` advances `seed`).
                ExprKind::Call(c, args) if lang != Lang::C => {
                    if let ExprKind::Ident(f) = &c.kind {
                        for (i, a) in args.iter().enumerate() {
                            if arg(f, i) == ArgUse::Written {
                                if let Some(n) = base_name(a) {
                                    out.insert(norm(n));
                                }
                            }
                        }
                    }
                }
                ExprKind::Call(_, args) if lang == Lang::C => {
                    for a in args {
                        match &a.kind {
                            ExprKind::Unary(UnOp::AddrOf, b) => {
                                if let Some(n) = base_name(b) {
                                    out.insert(norm(n));
                                }
                            }
                            ExprKind::Ident(n) if is_array(n) => {
                                out.insert(norm(n));
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            });
        }
    });
    out
}

/// Argument positions of MPI routines that are message buffers (their contents are
/// payload, not control); 0-based.
/// The collectives of the MPIETE modelling transform (`mpiete_allreduce`...) take the
/// arguments of the MPI routine they replace.
pub fn buffer_args(name: &str) -> &'static [usize] {
    let l = name.to_ascii_lowercase();
    let l = match l.strip_prefix("mpiete_") {
        Some(rest) if crate::mpiete::is_p2p_collective(name) => format!("mpi_{rest}"),
        _ => l,
    };
    match l.as_str() {
        "mpi_send"
        | "mpi_isend"
        | "mpi_ssend"
        | "mpi_issend"
        | "mpi_rsend"
        | "mpi_irsend"
        | "mpi_bsend"
        | "mpi_ibsend"
        | "mpi_recv"
        | "mpi_irecv"
        | "mpi_send_init"
        | "mpi_recv_init"
        | "mpi_bcast"
        | "mpi_ibcast"
        | "mpi_sendrecv_replace" => &[0],
        "mpi_sendrecv" => &[0, 5],
        "mpi_reduce" | "mpi_allreduce" | "mpi_iallreduce" | "mpi_ireduce" | "mpi_scan" | "mpi_exscan" | "mpi_reduce_scatter" | "mpi_reduce_scatter_block" => {
            &[0, 1]
        }
        "mpi_gather" | "mpi_scatter" | "mpi_allgather" | "mpi_alltoall" | "mpi_gatherv" | "mpi_allgatherv" | "mpi_igather" | "mpi_iallgather"
        | "mpi_ialltoall" => &[0, 3],
        "mpi_scatterv" => &[0, 4],
        "mpi_alltoallv" => &[0, 4],
        _ => &[],
    }
}

/// Kind of escape a statement contains that leaves it (return, goto, stop, or a
/// break/continue not inside one of its own loops).
pub fn escapes(s: &Stmt) -> bool {
    fn go(s: &Stmt, in_loop: bool, in_switch: bool) -> bool {
        match &s.kind {
            StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Stop(_) => true,
            StmtKind::Break => !(in_loop || in_switch),
            StmtKind::Continue => !in_loop,
            StmtKind::For { .. } | StmtKind::Do { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                s.children().iter().any(|c| go(c, true, in_switch))
            }
            StmtKind::Switch { .. } => s.children().iter().any(|c| go(c, in_loop, true)),
            _ => s.children().iter().any(|c| go(c, in_loop, in_switch)),
        }
    }
    go(s, false, false)
}

pub fn is_loop(s: &Stmt) -> bool {
    matches!(s.kind, StmtKind::For { .. } | StmtKind::Do { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. })
}

/// Names a statement the IR keeps as text may write: the arrays of `allocate` and
/// `deallocate`, the input list of `read`, nothing for output statements, else every
/// name in it.
pub fn verbatim_writes<'a>(t: &'a str) -> Vec<&'a str> {
    let lead = t.len() - t.trim_start_matches(|c: char| c.is_whitespace() || c.is_ascii_digit()).len();
    let body = &t[lead..];
    let lower = body.to_ascii_lowercase();
    let word: String = lower.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    // The text after the parenthesised list that follows the keyword.
    let after_list = |b: &str| -> Option<(usize, usize)> {
        let open = b.find('(')?;
        let mut depth = 0;
        for (i, c) in b[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some((open, open + i));
                    }
                }
                _ => {}
            }
        }
        None
    };
    // `iostat=v`, `exist=v`... of an I/O statement's list write v
    let specifiers = |b: &'a str| -> Vec<&'a str> {
        let Some((o, c)) = after_list(b) else { return vec![] };
        let mut out = vec![];
        for part in b[o + 1..c].split(',') {
            if let Some((k, v)) = part.split_once('=') {
                let k = k.trim().to_ascii_lowercase();
                if matches!(k.as_str(), "iostat" | "iomsg" | "exist" | "opened" | "number" | "named" | "name" | "size" | "nextrec" | "pos" | "newunit") {
                    out.extend(text_idents(v).first().copied());
                }
            }
        }
        out
    };
    match word.as_str() {
        "print" | "format" | "rewind" | "flush" => vec![],
        "write" | "close" | "open" | "inquire" => specifiers(body),
        "allocate" | "deallocate" | "nullify" => {
            let Some((o, c)) = after_list(body) else { return text_idents(body) };
            let inner = &body[o + 1..c];
            let mut out = Vec::new();
            let mut depth = 0;
            let mut start = 0;
            for (i, ch) in inner.char_indices().chain(std::iter::once((inner.len(), ','))) {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        let arg = &inner[start..i];
                        let arg = arg.split_once('=').map_or(arg, |(_, v)| v);
                        if let Some(w) = text_idents(arg).first() {
                            out.push(*w);
                        }
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            out
        }
        "read" => match after_list(body) {
            Some((_, c)) => {
                let mut v = text_idents(&body[c + 1..]);
                v.extend(specifiers(body));
                v
            }
            None => text_idents(body),
        },
        _ if body.starts_with('#') => vec![],
        // declarations and other specification statements write nothing
        "data" => text_idents(body),
        _ if super::spec_stmt(body) => vec![],
        _ => text_idents(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbatim_statement_writes() {
        assert_eq!(verbatim_writes("allocate (u(0:n+1, 0:m), v(n), stat=ie)"), vec!["u", "v", "ie"]);
        assert_eq!(verbatim_writes("read (arg, *) n, m"), vec!["n", "m"]);
        assert!(verbatim_writes("print *, n").is_empty());
        assert_eq!(verbatim_writes("open(unit=3, file='x', status='old', iostat=fstatus)"), vec!["fstatus"]);
        assert_eq!(verbatim_writes("read (3, *, iostat=ios) a"), vec!["a", "ios"]);
        assert!(verbatim_writes("write (*, 1000) n").is_empty());
        assert!(verbatim_writes("implicit none").is_empty());
        assert_eq!(verbatim_writes("10 deallocate(a)"), vec!["a"]);
    }
}
