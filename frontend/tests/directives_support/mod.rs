//! Shared by the directive tests: the valid cases and a directive extractor that
//! builds a `DirectiveText` (with a real offset map) from a whole source file.
#![allow(dead_code)]

use xmpc_frontend::directive::{DirLang, DirectiveText};
use xmpc_ir::OffsetMap;

pub const C: DirLang = DirLang::C;
pub const F: DirLang = DirLang::Fortran;

/// A directive text starting at the sentinel, at offset 0.
pub fn dt(text: &str) -> DirectiveText {
    DirectiveText { text: text.to_string(), map: OffsetMap::identity(0) }
}

/// The first directive of `src` as a front end would hand it over: C from after
/// `#pragma` (backslash continuations kept), Fortran from after `!$` with continuation
/// lines joined (a space inserted at each join) and a non-identity map.
pub fn extract(src: &str, lang: DirLang) -> DirectiveText {
    scan(src, lang, false, true).into_iter().next().expect("test source has a directive")
}

/// As [`extract`], but the last directive of the source.
pub fn extract_last(src: &str, lang: DirLang) -> DirectiveText {
    scan(src, lang, false, true).pop().expect("test source has a directive")
}

fn lines(src: &str) -> Vec<(usize, &str)> {
    let mut v = Vec::new();
    let mut off = 0;
    for l in src.split_inclusive('\n') {
        v.push((off, l.trim_end_matches('\n').trim_end_matches('\r')));
        off += l.len();
    }
    v
}

/// Every XMP/ACC directive of a source file. `fixed`: Fortran fixed form, where
/// columns 73+ are ignored.
pub fn all_directives(src: &str, lang: DirLang, fixed: bool) -> Vec<DirectiveText> {
    scan(src, lang, fixed, false)
}

/// `any_pragma`: every C `#pragma` counts (error tests use bad sentinels).
fn scan(src: &str, lang: DirLang, fixed: bool, any_pragma: bool) -> Vec<DirectiveText> {
    let ls = lines(src);
    let mut out = Vec::new();
    let mut k = 0;
    while k < ls.len() {
        let (lo, l) = ls[k];
        match lang {
            DirLang::C => {
                let t = l.trim_start();
                let Some(rest) = t.strip_prefix('#') else {
                    k += 1;
                    continue;
                };
                let rest = rest.trim_start();
                let Some(after) = rest.strip_prefix("pragma") else {
                    k += 1;
                    continue;
                };
                let word = after.trim_start();
                if !(any_pragma || word.starts_with("xmp") || word.starts_with("acc")) {
                    k += 1;
                    continue;
                }
                let s = lo + (l.len() - word.len());
                while k < ls.len() && ls[k].1.ends_with('\\') {
                    k += 1;
                }
                let e = ls.get(k).map_or(src.len(), |(o, l)| o + l.len());
                out.push(DirectiveText { text: src[s..e].to_string(), map: OffsetMap::identity(s) });
                k += 1;
            }
            DirLang::Fortran => {
                if sentinel_end(l).is_none() {
                    k += 1;
                    continue;
                }
                let (d, next) = fortran_at(src, &ls, k, fixed);
                out.push(d);
                k = next;
            }
        }
    }
    out
}

/// The Fortran directive starting on line `first`; returns it and the next line index.
fn fortran_at(src: &str, ls: &[(usize, &str)], first: usize, fixed: bool) -> (DirectiveText, usize) {
    let mut text = String::new();
    let mut map = OffsetMap::new();
    let (lo, l) = ls[first];
    // Text starts after "!$" (at "xmp").
    let mut content = lo + l.find('$').expect("sentinel") + 1;
    let mut k = first;
    loop {
        let (lo, l) = ls[k];
        let end = if fixed { lo + l.len().min(72) } else { lo + l.len() };
        let body = src[content.min(end)..end].trim_end();
        let cont = body.ends_with('&');
        let body = body.strip_suffix('&').unwrap_or(body);
        map.push_copy(text.len(), content);
        text.push_str(body);
        let Some(&(no, nl)) = ls.get(k + 1) else { break };
        let Some(se) = sentinel_end(nl) else { break };
        let mark = nl.as_bytes().get(se).copied();
        let fixed_cont = matches!(mark, Some(b) if b != b' ' && b != b'0');
        if !cont && !fixed_cont {
            break;
        }
        map.push_insert(text.len(), no + se);
        text.push(' ');
        content = no + se + usize::from(mark == Some(b'&') || fixed_cont);
        k += 1;
    }
    (DirectiveText { text, map }, k + 1)
}

/// End of a `!$xmp`/`c$xmp`/`*$acc` sentinel at the start of a line.
fn sentinel_end(l: &str) -> Option<usize> {
    let t = l.trim_start();
    let lead = l.len() - t.len();
    let b = t.as_bytes();
    if b.len() >= 5 && (b[0] == b'!' || (lead == 0 && matches!(b[0], b'c' | b'C' | b'*'))) && b[1] == b'$' {
        let w = t[2..5].to_ascii_lowercase();
        if w == "xmp" || w == "acc" {
            return Some(lead + 5);
        }
    }
    None
}

/// Valid directive texts: (snapshot name, language, text).
pub const VALID: &[(&str, DirLang, &str)] = &[
    // ---- C, round spelling
    ("c_nodes_1d", C, "xmp nodes p(4)"),
    ("c_nodes_2d", C, "xmp nodes p(2,2)"),
    ("c_nodes_star", C, "xmp nodes p(*)"),
    ("c_nodes_2d_star", C, "xmp nodes q(4,*)"),
    ("c_nodes_eq_star", C, "xmp nodes p(4) = *"),
    ("c_nodes_eq_ref", C, "xmp nodes r(8) = p(3:10)"),
    ("c_nodes_spec_first", C, "xmp nodes (2,2) :: p, q"),
    ("c_template_bounds", C, "xmp template t(0:N-1, 0:M-1)"),
    ("c_template_extent", C, "xmp template t(N)"),
    ("c_template_unfixed", C, "xmp template t(:)"),
    ("c_template_spec_first", C, "xmp template (0:99) :: t1, t2"),
    ("c_distribute_block", C, "xmp distribute t(block) onto p"),
    ("c_distribute_mixed", C, "xmp distribute t(block, cyclic(4), gblock(m), *) onto p"),
    ("c_distribute_spec_first", C, "xmp distribute (cyclic, block(n/2)) onto p :: t1, t2"),
    ("c_distribute_gblock_star", C, "xmp distribute t(gblock(*)) onto p"),
    ("c_align_1d", C, "xmp align a[i] with t(i)"),
    ("c_align_2d_round_target", C, "xmp align a[i][j] with t(j, i)"),
    ("c_align_star_offset", C, "xmp align a[i][*] with t(i+1)"),
    ("c_align_colon", C, "xmp align b[:][j] with t(*, j-1)"),
    ("c_align_spec_first", C, "xmp align [i] with t(i) :: a, b, c"),
    ("c_shadow_1", C, "xmp shadow a[1]"),
    ("c_shadow_lower_upper", C, "xmp shadow a[1:2][0]"),
    ("c_shadow_full", C, "xmp shadow a[*]"),
    ("c_shadow_spec_first", C, "xmp shadow [1][1] :: u, v"),
    ("c_template_fix_dist", C, "xmp template_fix (gblock(m)) t(0:N-1)"),
    ("c_template_fix_plain", C, "xmp template_fix t(0:n-1)"),
    ("c_loop_simple", C, "xmp loop on t(i)"),
    ("c_loop_index", C, "xmp loop (i, j) on t(i, j)"),
    ("c_loop_reduction", C, "xmp loop (i) on t(i) reduction(+:sum)"),
    ("c_loop_multi_reduction", C, "xmp loop (i) on t(i) reduction(+:s) reduction(max:m/k/) reduction(firstmin:v/i,j/)"),
    ("c_loop_trailers_any_order", C, "xmp loop on t(i) acc async(tag+1) reduction(*:p) profile"),
    ("c_loop_expand", C, "xmp loop (i) on t(i) expand(1:1)"),
    ("c_loop_margin_unbound", C, "xmp loop (i,j) on t(i,j) margin(/unbound/1, 0:1)"),
    ("c_loop_peel_and_wait", C, "xmp loop (i) on t(i) peel_and_wait(tag, 1:1)"),
    ("c_loop_all_ops", C, "xmp loop (i) on t(i) reduction(&:a, |:b, ^:c, &&:d, ||:e, -:f, min:g, lastmax:h/k/)"),
    ("c_reflect_plain", C, "xmp reflect (a)"),
    ("c_reflect_width", C, "xmp reflect (a, b) width(1:1, /periodic/2) async(3)"),
    ("c_reduce_shadow", C, "xmp reduce_shadow (a) width(1:0)"),
    ("c_reduction_plain", C, "xmp reduction(+:s)"),
    ("c_reduction_on", C, "xmp reduction(max:err) on p(1:2) async(1)"),
    ("c_reduction_repeated", C, "xmp reduction(&&:all_pos) reduction(||:any_big) on p"),
    ("c_reduction_loc", C, "xmp reduction(max:v/i,j/, min:w/k/) on t(*)"),
    ("c_bcast", C, "xmp bcast (a, b)"),
    ("c_bcast_from_on", C, "xmp bcast (x) from p(1) on p(1:4)"),
    ("c_barrier", C, "xmp barrier"),
    ("c_barrier_on", C, "xmp barrier on p(2:3)"),
    ("c_task", C, "xmp task on p(1)"),
    ("c_task_nocomm", C, "xmp task on t(1:N/2) nocomm async(2)"),
    ("c_tasks", C, "xmp tasks"),
    ("c_tasks_nowait", C, "xmp tasks nowait"),
    ("c_gmove", C, "xmp gmove"),
    ("c_gmove_in_async", C, "xmp gmove in async(7)"),
    ("c_gmove_out_acc", C, "xmp gmove out acc"),
    ("c_array", C, "xmp array on t(0:N-1)"),
    ("c_wait_async", C, "xmp wait_async (1, tag+2) on p"),
    ("c_static_desc", C, "xmp static_desc :: t, a"),
    ("c_static_desc_name", C, "xmp static_desc t"),
    ("c_comment_and_tabs", C, "xmp\tshadow a[1][1]  /* halo */ // trailing"),
    ("c_backslash_continuation", C, "xmp loop (i) on t[i] \\\n    reduction(+:s)"),
    // ---- C, square spelling (reversed dimensions, start:len, 0-based nodes)
    ("s_nodes_1d", C, "xmp nodes p[4]"),
    ("s_nodes_2d", C, "xmp nodes p[4][2]"),
    ("s_nodes_star_first", C, "xmp nodes q[*][4]"),
    ("s_nodes_eq", C, "xmp nodes r[8] = p[3:8]"),
    ("s_nodes_eq_2d", C, "xmp nodes z[3][2] = p[0:6]"),
    ("s_template_10_20", C, "xmp template t[10][20]"),
    ("s_template_symbolic", C, "xmp template t[N][M]"),
    ("s_template_start_len", C, "xmp template t[1:N][2:10]"),
    ("s_template_unfixed", C, "xmp template t[:]"),
    ("s_distribute", C, "xmp distribute t[cyclic(2)][block] onto p"),
    ("s_align", C, "xmp align a[i][j] with t[i][j]"),
    ("s_align_offset_star", C, "xmp align a[i][j] with t[i-1][*]"),
    ("s_loop", C, "xmp loop (i,j) on t[i][j]"),
    ("s_loop_offset", C, "xmp loop (i) on t[i-1]"),
    ("s_task_node", C, "xmp task on p[0]"),
    ("s_task_template_range", C, "xmp task on t[0:n][0:m]"),
    ("s_task_stride", C, "xmp task on p[1:4:2]"),
    ("s_task_no_start", C, "xmp task on p[:2]"),
    ("s_array", C, "xmp array on t[0:n]"),
    ("s_bcast_from", C, "xmp bcast (x) from p[0]"),
    ("s_reduction_on", C, "xmp reduction(+:s) on p[1:2]"),
    ("s_template_fix", C, "xmp template_fix t[n]"),
    ("s_template_fix_dist", C, "xmp template_fix [gblock(m)][block] t[n][n]"),
    // ---- Fortran, free form, any case
    ("f_nodes", F, "xmp nodes p(4)"),
    ("f_nodes_upper", F, "XMP NODES P(2,*)"),
    ("f_nodes_spec_first", F, "xmp nodes (2,2) :: p, q"),
    ("f_nodes_eq", F, "xmp nodes q(2) = p(1:2)"),
    ("f_template_extent", F, "xmp template t(N)"),
    ("f_template_bounds_mixed_case", F, "Xmp Template T(0:n-1, 1:m)"),
    ("f_template_spec_first", F, "xmp template (100) :: t, u"),
    ("f_distribute_upper", F, "XMP DISTRIBUTE T(BLOCK, CYCLIC(3)) ONTO P"),
    ("f_distribute_spec_first", F, "xmp distribute (gblock(*), *) onto p :: t"),
    ("f_align", F, "xmp align a(i, j) with t(i, j)"),
    ("f_align_spec_first", F, "xmp align (i, *) with t(i) :: a, b"),
    ("f_shadow", F, "xmp shadow a(1:1, 0, *)"),
    ("f_shadow_spec_first", F, "xmp shadow (2) :: a, b"),
    ("f_template_fix", F, "xmp template_fix (gblock(map)) t(n)"),
    ("f_loop", F, "xmp loop (i) on t(i)"),
    ("f_loop_reduction_ops", F, "xmp loop (i) on t(i) reduction(.and.:l, .OR.:o, .eqv.:e, .neqv.:n, iand:a, IOR:b, ieor:c)"),
    ("f_loop_upper_maxloc", F, "XMP LOOP (I,J) ON T(I,J) REDUCTION(MAX:ERR/I,J/) ASYNC(1)"),
    ("f_loop_expand_unbound", F, "xmp loop (i) on t(i) expand(/UNBOUND/1:2)"),
    ("f_reflect", F, "xmp reflect (a) width(/periodic/1:1) async(10) acc"),
    ("f_reduce_shadow", F, "xmp reduce_shadow (a) width(1)"),
    ("f_reduction", F, "xmp reduction (+:s) on p(1:2) async(1) acc"),
    ("f_bcast", F, "xmp bcast (a) from p(k) on p"),
    ("f_barrier", F, "xmp barrier on p(1:2)"),
    ("f_task", F, "xmp task on p(1) nocomm"),
    ("f_end_task", F, "xmp end task"),
    ("f_tasks", F, "xmp tasks"),
    ("f_end_tasks_upper", F, "XMP END TASKS"),
    ("f_gmove", F, "xmp gmove in async(1) acc"),
    ("f_array", F, "xmp array on t(1:n)"),
    ("f_wait_async", F, "xmp wait_async (1, 2) on p(1)"),
    ("f_static_desc", F, "xmp static_desc :: t"),
    ("f_save_desc", F, "xmp save_desc :: p, t, a"),
    ("f_save_desc_name", F, "xmp save_desc t"),
    ("f_local_alias", F, "xmp local_alias la => a"),
    ("f_inline_comment", F, "xmp reflect (a) ! refresh the halo"),
    // ---- Fortran, continuation still in the text (the lexer skips it)
    ("fc_loop_raw_free", F, "xmp loop (i) on t(i) &\n!$xmp& reduction(+:s)"),
    ("fc_distribute_raw_indented", F, "xmp distribute t(block, &   ! first dim\n   !$XMP   &  cyclic) onto p"),
    ("fc_fixed_raw", F, "XMP LOOP (I) ON T(I)\nC$XMP&REDUCTION(MAX:S)"),
    ("fc_fixed_raw_digit_mark", F, "XMP ALIGN B(*, J)\nC$XMP1   WITH TT(J)"),
    ("fc_fixed_raw_mixed_sentinels", F, "xmp distribute t(block, block)\n!$xmp&   onto p"),
    ("fc_end_device_replicate", F, "xmp end device replicate"),
    // ---- XMP-dev
    ("dev_replicate", C, "xmp device replicate (a, b)"),
    ("dev_replicate_sync_in", C, "xmp device replicate_sync in (a)"),
    ("dev_replicate_sync_out", C, "xmp device replicate_sync out (a, b)"),
    ("dev_loop", C, "xmp device loop (i) on t(i)"),
    ("dev_loop_square_reduction", C, "xmp device loop on t[i] reduction(+:s)"),
    ("dev_reset_weight", C, "xmp device reset_weight (w*0.5)"),
    ("dev_f_replicate", F, "XMP DEVICE REPLICATE (x)"),
    ("dev_f_replicate_sync", F, "xmp device replicate_sync OUT (x)"),
    ("dev_f_loop", F, "xmp device loop (i) on t(i)"),
    ("dev_f_reset_weight", F, "xmp device reset_weight(min(1.0d0, w + 0.01d0))"),
    // ---- XACC
    ("xacc_reflect_init", C, "xmp reflect_init (u) width(1:1) acc"),
    ("xacc_reflect_do", C, "xmp reflect_do (u) acc"),
    ("xacc_reflect_do_host", C, "xmp reflect_do (u, v) host"),
    ("xacc_reduction_acc", C, "xmp reduction (+:gosa) acc"),
    ("xacc_bcast_acc", C, "xmp bcast (a) acc"),
    ("xacc_reflect_acc", C, "xmp reflect (p) width(/periodic/1:1, 0) acc async(1)"),
    ("xacc_f_reflect_init", F, "xmp reflect_init (p) width(/periodic/1:1, 1) acc"),
    ("xacc_f_reflect_do", F, "XMP REFLECT_DO (P) ACC"),
    // ---- OpenACC (verbatim, construct recognised)
    ("acc_parallel_loop", C, "acc parallel loop gang vector_length(128) present(a[0:n])"),
    ("acc_parallel", C, "acc parallel num_gangs(4)"),
    ("acc_kernels", C, "acc kernels"),
    ("acc_kernels_loop", C, "acc kernels loop independent"),
    ("acc_serial", C, "acc serial"),
    ("acc_data", C, "acc data copy(u[0:n*m]) create(tmp)"),
    ("acc_host_data", C, "acc host_data use_device(a)"),
    ("acc_loop", C, "acc loop independent collapse(2)"),
    ("acc_update", C, "acc update host(a[0:n]) async(1)"),
    ("acc_wait", C, "acc wait(1)"),
    ("acc_enter_data", C, "acc enter data copyin(a)"),
    ("acc_exit_data", C, "acc exit data delete(a)"),
    ("acc_atomic", C, "acc atomic update"),
    ("acc_routine", C, "acc routine seq"),
    ("acc_declare", C, "acc declare create(x)"),
    ("acc_f_parallel_loop", F, "ACC PARALLEL LOOP PRESENT(A) REDUCTION(+:S)"),
    ("acc_f_end_parallel_loop", F, "acc end parallel loop"),
    ("acc_f_data", F, "acc data copy(a)"),
    ("acc_f_end_data", F, "acc end data"),
    ("acc_f_kernels", F, "Acc Kernels"),
    ("acc_f_end_kernels", F, "acc end kernels"),
    ("acc_f_loop", F, "acc loop gang"),
    ("acc_f_update", F, "acc update device(a)"),
    // ---- expressions inside directives
    ("expr_c_precedence", C, "xmp task on p(a+b*c-d/e%f)"),
    ("expr_c_misc", C, "xmp wait_async (x ? y : z, -a[i]->b, (int)w, sizeof(a)/sizeof(a[0]), f(1, 2), s.m << 2 | 1)"),
    ("expr_f_ops", F, "xmp wait_async (a .and. .not. b .or. c, x**y**z, -a**2, s%f(1:n), .true., 1.5e3_8 /= 2)"),
];

/// Valid directives taken from whole sources (non-identity offset maps).
pub const VALID_SOURCES: &[(&str, DirLang, &str)] = &[
    ("src_c_pragma_offset", C, "int a[N];\n#pragma xmp align a[i] with t(i)\n"),
    ("src_c_backslash", C, "#pragma xmp reflect (a) \\\n    width(1:1) async(2)\nint x;\n"),
    ("src_f_free_continued", F, "program p\n!$xmp loop (i) on t(i) &\n!$xmp& reduction(+:s) &\n!$xmp&   async(1)\ndo i = 1, n\n"),
    ("src_f_fixed_continued", F, "      PROGRAM T\nC$XMP DISTRIBUTE T(BLOCK,\nC$XMP&CYCLIC) ONTO P\n      END\n"),
    ("src_f_acc_continued", F, "!$acc parallel loop &\n!$acc& present(a)\n"),
];
