//! `xmpc --skeletonize`: an MPI program → a BSIM skeleton (seed 000 §3.2).
//!
//! Each compute block (`blocks::find`) is commented out and replaced by
//! `BSIM_Add_time(t)`, `t` from the block's `time(...)` clause or from a block time
//! table; every `MPI_` identifier becomes `LMPI_`, the MPI header/module LMPI's;
//! arrays the skeleton no longer uses are deleted, those used only as message buffers
//! shrink to one element; `main`/`program` and static data are made ready for BSIM's
//! threads back end.

mod carry;
pub mod include;
mod memory;
pub mod rename;
mod threads;
pub mod times;

use crate::blocks::{self, text, Block, BlockKind};
use xmpc_ir::{diag, Diag, Edit, FileUnit, Lang, Span};

pub use times::{BlockTime, TimeTable};

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub times: Option<TimeTable>,
    /// Time expressions from a model (PSIM), by block span (start, end): used before the
    /// table, after a `time(...)` mark. Already in the file's language.
    pub model_times: std::collections::HashMap<(usize, usize), String>,
    /// Variables the model expressions read: kept in the skeleton.
    pub model_vars: Vec<String>,
    /// Name of the time table file, for messages.
    pub times_name: Option<String>,
    /// Every compute block without a `time(...)` is commented out with time 0
    /// (compute removed: only communication and kept code remain).
    pub zero_times: bool,
    /// Refuse a compute block without a time (XMP0812) instead of running it in the
    /// skeleton and charging its measured host time.
    pub strict_times: bool,
}

pub struct Skeleton {
    pub edits: Vec<Edit>,
    pub blocks: Vec<Block>,
    /// What the memory cut did, one line each.
    pub report: Vec<String>,
    /// Compute blocks without a time that run in the skeleton (charged their host
    /// time), one note each.
    pub notes: Vec<String>,
}

/// Only the renaming and threads transforms (what `--check` runs the original program
/// with, under LMPI's payload mode).
pub fn rename_only(unit: &FileUnit, src: &str) -> Vec<Edit> {
    let mut e = rename::rename(src, unit.lang, &[]);
    e.extend(threads::edits(unit, src));
    e
}

pub fn skeletonize(unit: &FileUnit, src: &str, opts: &Options) -> Result<Skeleton, Vec<Diag>> {
    let map = blocks::analyse_with(unit, src, &opts.model_vars)?;
    let fortran = unit.lang.is_fortran();
    let mut diags = Vec::new();
    let mut edits = Vec::new();
    let mut replaced: Vec<Span> = Vec::new();
    let mut rank_funcs: [Vec<String>; 2] = [Vec::new(), Vec::new()]; // units calling bsim_rank(), bsim_node_ranks()
    let mut notes = Vec::new();
    for b in map.blocks.iter().filter(|b| b.kind == BlockKind::Compute) {
        let t = match time_expr(b, opts, fortran) {
            Ok(t) => t,
            Err(d) if opts.strict_times => {
                diags.push(d(unit.file));
                continue;
            }
            Err(_) => {
                // SMPI's default: run the block and charge the host time it takes
                let (before, after) = if fortran {
                    (format!("call BSIM_Block_begin({})", b.id), format!("call BSIM_Block_end({})", b.id))
                } else {
                    (format!("BSIM_Block_begin({}); ", b.id), format!(" BSIM_Block_end({});", b.id))
                };
                match text::wrap(src, unit.lang, b.span, &before, &after) {
                    Ok(e) => edits.extend(e),
                    Err(msg) => {
                        diags.push(diag::error("XMP0811", format!("cannot skeletonize block {}: it {msg}", b.id), unit.file, b.span, format!("block {}", b.id)))
                    }
                }
                let (l, c) = blocks::line_col(src, b.span.start);
                let why = match &opts.times_name {
                    Some(n) => format!("the time table {n} has no entry for it"),
                    None => "no time(...) and no time table".to_string(),
                };
                notes.push(format!(
                    "{l}:{c}: compute block {} has no time ({why}): it runs in the skeleton and is charged its measured host time (--strict-times refuses)",
                    b.id
                ));
                continue;
            }
        };
        for (k, f) in ["bsim_rank", "bsim_node_ranks"].into_iter().enumerate() {
            if fortran && t.contains(&format!("{f}()")) && !rank_funcs[k].contains(&b.func) {
                rank_funcs[k].push(b.func.clone());
            }
        }
        match comment_out(src, unit.lang, b, &t) {
            Ok((span, text)) => {
                replaced.push(span);
                edits.push(Edit::replace(span, text));
            }
            Err(msg) => {
                diags.push(diag::error("XMP0811", format!("cannot skeletonize block {}: it {msg}", b.id), unit.file, b.span, format!("block {}", b.id)))
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    edits.extend(rank_decls(unit, src, &rank_funcs[0], "bsim_rank"));
    edits.extend(rank_decls(unit, src, &rank_funcs[1], "bsim_node_ranks"));
    let mut renames = rename::rename(src, unit.lang, &replaced);
    let memory::Cut { edits: mem, report, arrays } = memory::cut(unit, src, &map.blocks, &replaced);
    let carried = carry::edits(unit, src, &map.blocks, &replaced, &arrays, &mut renames);
    edits.extend(renames);
    edits.extend(threads::edits(unit, src).into_iter().filter(|e| !replaced.iter().any(|r| r.start <= e.span.start && e.span.start < r.end)));
    edits.extend(carried);
    // Insertions (renames, `BSIM_RANK_VAR`) inside or at the start of a declaration the
    // memory cut comments out would land in or before the comment: drop them.
    edits.retain(|e| !(e.span.is_empty() && mem.iter().any(|m| !m.span.is_empty() && m.span.start <= e.span.start && e.span.start < m.span.end)));
    edits.extend(mem);
    // An insertion strictly inside a text another edit replaces whole (a rename inside
    // the `end program` line that becomes `end subroutine bsim_main_f`) is dropped.
    let whole: Vec<Span> = edits.iter().filter(|e| !e.span.is_empty()).map(|e| e.span).collect();
    edits.retain(|e| !(e.span.is_empty() && whole.iter().any(|w| w.start < e.span.start && e.span.start < w.end)));
    Ok(Skeleton { edits, blocks: map.blocks, report, notes })
}

type DiagFn = Box<dyn Fn(usize) -> Diag>;

/// `integer, external :: NAME` (`bsim_rank`, `bsim_node_ranks`) in the specification part
/// of each Fortran unit whose block times call it (after its last declaration).
fn rank_decls(unit: &FileUnit, src: &str, funcs: &[String], name: &str) -> Vec<Edit> {
    let mut out = Vec::new();
    for f in unit.functions().into_iter().filter(|f| funcs.contains(&f.name)) {
        let spec_end = f
            .body
            .iter()
            .filter(|s| {
                matches!(s.kind, xmpc_ir::StmtKind::Decl(_)) || (matches!(s.kind, xmpc_ir::StmtKind::Verbatim) && blocks::spec_stmt(&src[s.span.range()]))
            })
            .map(|s| s.span.end)
            .max();
        let at = match spec_end {
            Some(e) => text::next_line(src, e.saturating_sub(1)),
            None => text::next_line(src, f.span.start),
        };
        let nl = if src[..at].ends_with('\n') { "" } else { "\n" };
        let decl =
            if unit.lang == Lang::FortranFixed { format!("      integer {name}\n      external {name}\n") } else { format!("  integer, external :: {name}\n") };
        out.push(Edit::insert(at, format!("{nl}{decl}")));
    }
    out
}

/// The time expression of a compute block: its `time(...)`, the table, or an error.
fn time_expr(b: &Block, opts: &Options, fortran: bool) -> Result<String, DiagFn> {
    if let Some(t) = &b.time {
        return Ok(if fortran { format!("dble({t})") } else { format!("(double)({t})") });
    }
    if let Some(t) = opts.model_times.get(&(b.span.start, b.span.end)) {
        return Ok(t.clone());
    }
    if opts.zero_times {
        return Ok(times::literal(0.0, fortran));
    }
    let entry = opts.times.as_ref().and_then(|t| t.blocks.get(&b.id));
    let Some(e) = entry else {
        let id = b.id;
        let span = b.span;
        let why = match &opts.times_name {
            Some(n) => format!("the time table {n} has no entry for block {id}"),
            None if !opts.model_times.is_empty() => "the model gave it no time".to_string(),
            None => "no time table was given".to_string(),
        };
        return Err(Box::new(move |file| {
            diag::error("XMP0812", format!("compute block {id} has no time"), file, span, format!("block {id}: {why}")).with_notes(vec![format!(
                "help: measure block times with `--measure`, give a table with `--times FILE`, or mark the block `compute time(EXPR)`"
            )])
        }));
    };
    let mean = times::literal(e.mean_s, fortran);
    let r = &e.per_rank;
    let spread = r.iter().cloned().fold(0.0f64, f64::max) - r.iter().cloned().fold(f64::INFINITY, f64::min);
    // Per-rank times when ranks differ by more than 5% of the mean (C: a compound-
    // literal table indexed by the rank; Fortran: nested `merge`s on `bsim_rank()`;
    // ranks beyond the table get the mean).
    if r.len() > 1 && e.mean_s > 0.0 && spread > 0.05 * e.mean_s {
        if fortran {
            let mut x = mean;
            for (k, v) in r.iter().enumerate().rev() {
                x = format!("merge({}, {x}, bsim_rank() == {k})", times::literal(*v, true));
            }
            return Ok(x);
        }
        let vals: Vec<String> = r.iter().map(|x| times::literal(*x, false)).collect();
        return Ok(format!("(BSIM_Rank() < {} ? ((const double[]){{{}}})[BSIM_Rank()] : {mean})", r.len(), vals.join(", ")));
    }
    Ok(mean)
}

/// Whether line `l` is (part of) a FORMAT statement: a labelled `format(`, or a
/// continuation line of one. `prev`: the line before was part of one (fixed form)
/// or was part of one and ended with `&` (free form); returns the same for `l`.
fn format_line(l: &str, lang: Lang, prev: bool) -> bool {
    let body = l.trim_end_matches(['\n', '\r']);
    let fixed = lang == Lang::FortranFixed;
    if fixed && matches!(body.as_bytes().first(), Some(b'c' | b'C' | b'*' | b'!')) {
        return false;
    }
    let part = if fixed && body.len() > 5 && !matches!(body.as_bytes()[5], b' ' | b'0') && !body[..5].contains('\t') {
        prev
    } else if !fixed && prev {
        true
    } else {
        let t = body.trim_start();
        let label_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let rest = t[label_end..].trim_start().to_ascii_lowercase();
        label_end > 0 && rest.starts_with("format") && rest[6..].trim_start().starts_with('(')
    };
    if fixed {
        part
    } else {
        part && body.split('!').next().unwrap_or("").trim_end().ends_with('&')
    }
}

/// Escapes what would end a C comment early.
fn c_comment_body(t: &str) -> String {
    // `/*` inside would only draw -Wcomment warnings; escape both.
    t.replace("*/", "*\\/").replace("/*", "/\\*")
}

/// The range replaced and its new text: the block as a comment, then the time call.
fn comment_out(src: &str, lang: Lang, b: &Block, t: &str) -> Result<(Span, String), &'static str> {
    if lang == Lang::C {
        let ind = text::indent_of(src, b.span.start);
        let body = c_comment_body(&src[b.span.range()]);
        return Ok((b.span, format!("/* [bsim block {}] {body} */\n{ind}BSIM_Add_time({t});", b.id)));
    }
    let call = format!("call BSIM_Add_time({t})");
    match text::fortran_place(src, lang, b.span) {
        text::FortranPlace::Lines { start, end, indent } => {
            let lines = &src[start..end];
            let mut s = format!("{}! [bsim block {}]\n", if lang == Lang::FortranFixed { "!".to_string() } else { indent.clone() }, b.id);
            // FORMAT statements stay: kept `write`s elsewhere may use their labels
            let mut in_format = false;
            for l in lines.split_inclusive('\n') {
                let before = in_format;
                in_format = format_line(l, lang, before);
                // free form: the last line of a FORMAT does not continue but is one
                let keep = in_format || (lang != Lang::FortranFixed && (before || format_line(&format!("{}&", l.trim_end()), lang, false)));
                if !keep {
                    s.push('!');
                }
                s.push_str(l);
            }
            if !s.ends_with('\n') {
                s.push('\n');
            }
            s.push_str(&format!("{indent}{call}\n"));
            Ok((Span::new(start, end), s))
        }
        text::FortranPlace::LogicalIf { indent } => {
            let inner = format!("{indent}  ");
            let body: String = src[b.span.range()].lines().map(|l| format!("!{l}\n")).collect();
            Ok((b.span, format!("then\n! [bsim block {}]\n{body}{inner}{call}\n{indent}end if", b.id)))
        }
        text::FortranPlace::Shared => Err("shares its line with another statement; put it on a line of its own"),
    }
}

#[cfg(test)]
mod tests {
    use super::format_line;
    use xmpc_ir::Lang;

    #[test]
    fn format_statements_are_found() {
        let f = Lang::FortranFixed;
        assert!(format_line(" 1000 format(//,' NPB', /)\n", f, false));
        assert!(format_line("     >        'x')\n", f, true));
        assert!(!format_line("     >        'x')\n", f, false));
        assert!(!format_line("         write (*, 1000)\n", f, false));
        assert!(!format_line("c1000 format(x)\n", f, false));
        let g = Lang::FortranFree;
        assert!(format_line("10 format (a, &\n", g, false));
        // free form: says whether the FORMAT continues past this line
        assert!(!format_line("  i4)\n", g, true));
    }
}
