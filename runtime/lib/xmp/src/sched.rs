//! `loop on t(i)`: this process's iterations on one template dimension.

use crate::dist::{Chunks, EMPTY};
use crate::err::{fatal, guard, XmpcLoc};
use crate::template::xmpc_template;
use std::ffi::{c_int, c_long};

/// `xmpc_sched` in C: chunks `for (c = first; c <= last; c += stride)
/// for (i = c; i <= min(c + width - 1, last); i += step)`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct XmpcSched {
    pub first: c_long,
    pub last: c_long,
    pub width: c_long,
    pub stride: c_long,
}

impl From<Chunks> for XmpcSched {
    fn from(c: Chunks) -> Self {
        XmpcSched { first: c.first as c_long, last: c.last as c_long, width: c.width as c_long, stride: c.stride as c_long }
    }
}

fn compute(loc: *const XmpcLoc, t: *const xmpc_template, dim: c_int, lo: i64, hi: i64, step: i64) -> Vec<Chunks> {
    // SAFETY: template handles are never freed.
    let Some(t) = (unsafe { t.as_ref() }) else { fatal(loc, "loop on no template") };
    let d = dim as usize;
    if d >= t.ndims() {
        fatal(loc, &format!("loop on template dimension {} of a {}-dimensional template", d + 1, t.ndims()));
    }
    if !t.ready() {
        fatal(loc, "loop on a template that is not fixed and distributed");
    }
    if step <= 0 {
        fatal(loc, &format!("loop step {step} must be positive"));
    }
    // iterations outside the template belong to no node: the range is clipped to it,
    // as Omni does (its schedule intersects the loop range with each node's share of
    // the template; Omni's async/F gmove_async loops 1:18 on t(1:8))
    let (tl, tu) = (t.lower[d], t.upper[d]);
    let lo = if lo < tl { lo + (tl - lo + step - 1) / step * step } else { lo };
    let hi = hi.min(tu);
    if lo > hi {
        return vec![];
    }
    match t.coord(d) {
        Some(c) => t.dist[d].sched(c, lo, hi, step),
        None => vec![],
    }
}
/// The iterations of `for (i = lo; i <= hi; i += step)` (step > 0) that this process
/// owns on template dim `dim`, as chunks:
///     for (c = s.first; c <= s.last; c += s.stride)
///       for (i = c; i <= min(c + s.width - 1, s.last); i += step)
/// Block/gblock/dup give one chunk (stride > last - first); cyclic gives width 1 and
/// stride (P/gcd(P,step))*step; cyclic(w) chunks of up to w. Every chunk start is
/// aligned to lo + k*step. Empty: first > last. Iterations outside the template are
/// nobody's (the range is clipped to the template, as in Omni).
/// For cyclic(w) (w > 1) one chunk set cannot always describe the iterations (lo inside
/// a block, or step not dividing P*w): this function then fails with an error, use
/// xmpc_loop_sched_multi.
#[no_mangle]
pub unsafe extern "C" fn xmpc_loop_sched(loc: *const XmpcLoc, t: *const xmpc_template, dim: c_int, lo: c_long, hi: c_long, step: c_long, s: *mut XmpcSched) {
    let v = guard(loc, || compute(loc, t, dim, lo, hi, step));
    if v.len() > 1 {
        fatal(
            loc,
            "this cyclic(w) loop needs several chunk sets (start inside a block or step not dividing nodes*w); \
             the translator must use xmpc_loop_sched_multi",
        );
    }
    *s = v.first().copied().unwrap_or(EMPTY).into();
}
/// Added: the general form of xmpc_loop_sched. Writes up to `max` disjoint chunk sets
/// whose union is this process's iterations and returns how many there are (0 = none;
/// at most step + 1; if more than `max`, only `max` were written). Walk each set as in
/// xmpc_loop_sched. Block/gblock/dup/cyclic always give at most 1.
#[no_mangle]
pub unsafe extern "C" fn xmpc_loop_sched_multi(
    loc: *const XmpcLoc,
    t: *const xmpc_template,
    dim: c_int,
    lo: c_long,
    hi: c_long,
    step: c_long,
    s: *mut XmpcSched,
    max: c_int,
) -> c_int {
    let v = guard(loc, || compute(loc, t, dim, lo, hi, step));
    for (i, c) in v.iter().take(max.max(0) as usize).enumerate() {
        *s.add(i) = (*c).into();
    }
    v.len() as c_int
}
