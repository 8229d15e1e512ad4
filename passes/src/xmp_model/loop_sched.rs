//! `loop` options: `expand`, `margin` and `peel_and_wait` (XMP 1.4 §4.2.2 as Omni
//! implements it; `docs/omni-compat.md`, "Translator (align/shadow/loop options)").
//!
//! For each work-shared dimension `d` a node owns the iterations `O_d = [lo_d, hi_d]`
//! (from the runtime schedule). A width `w = lower:upper` gives the expanded range
//! `E_d = [lo_d - lower, hi_d + upper]` (negative widths shrink it), clipped to the
//! loop's own bounds unless the width is `/unbound/`; an empty `O_d` stays empty.
//! - `expand(w...)`: the node runs the box `E = E_1 x ... x E_n`;
//! - `margin(w...)`: it runs the points of `O` xor `E`, i.e. the shadow ring a
//!   positive width adds (corners included) or the inner ring a negative one removes;
//! - `peel_and_wait(tag, w...)`: the owned box, after waiting for `async(tag)` (Omni
//!   runs the shrunk box, waits, then the ring: the same iterations, later overlap).

use super::ModelError;
use xmpc_ir::directive::{DistFormat, ExpandWidth, LoopOption};
use xmpc_ir::{Expr, ExprKind, Span, UnOp};

/// Which iterations of the work-shared dimensions a node runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeKind {
    /// The node's own iterations (no option, or `peel_and_wait`).
    Owned,
    /// `expand`: the owned box widened.
    Expand,
    /// `margin`: the widened box minus the owned box (or the reverse).
    Margin,
}

/// A `loop` option resolved against the template it runs on.
#[derive(Clone, Debug)]
pub struct LoopPlan<'a> {
    pub kind: RangeKind,
    /// Per template dimension: its non-zero width (None: width 0).
    pub widths: Vec<Option<&'a ExpandWidth>>,
    /// `peel_and_wait(tag, ...)`: the async id to wait for before the loop.
    pub wait_tag: Option<&'a Expr>,
}

impl LoopPlan<'_> {
    /// True when some dimension's range differs from the owned one.
    pub fn widens(&self) -> bool {
        self.kind != RangeKind::Owned && self.widths.iter().any(Option::is_some)
    }

    /// True when the loop level over template dimension `tdim` may keep the bounds
    /// written in the source: the dimension is not distributed (`*`, known at
    /// translation time), no width changes its range, and a level around it runs over
    /// a distributed dimension (`inside_distributed`). Every node of the template then
    /// runs all of the level's iterations, and on any other process the enclosing level
    /// is empty, so the level runs nothing there either: the iterations are those of
    /// the schedule. The schedule is still asked for (it checks the range against the
    /// template's), but the compiler sees the source's bounds: with literal bounds it
    /// knows the trip count of the (innermost, contiguous) loop, and vectorises it
    /// without a run-time peel (Himeno at 2 processes: 4.6% fewer instructions in
    /// Fortran, 2.6% in C; docs/performance.md).
    pub fn keeps_own_bounds(&self, tdim: usize, fmt: Option<DistFormat>, inside_distributed: bool) -> bool {
        fmt == Some(DistFormat::Dup) && inside_distributed && self.widths.get(tdim).copied().flatten().is_none()
    }
}

/// True for a format that splits its dimension among the nodes (known at translation
/// time): a process outside the template's node set owns none of its indices.
pub fn distributes(fmt: Option<DistFormat>) -> bool {
    matches!(fmt, Some(DistFormat::Block | DistFormat::Cyclic | DistFormat::GBlock))
}

/// True for a format (known at translation time) under which a node's iterations of
/// a loop level are one run with the loop's own step: block, gblock and `*`. Such a
/// level is one loop from the node's first to its last iteration, stepping as the
/// source does (a literal step stays literal, so the compiler knows the trip count);
/// cyclic formats step by the node's stride or run in chunks. (Fortran had a chunk
/// loop of one chunk around a `min()`-bounded loop there; the same instructions to
/// 0.1% in Himeno, but a nest the shape of the source's.)
pub fn own_step(fmt: Option<DistFormat>) -> bool {
    matches!(fmt, Some(DistFormat::Block | DistFormat::GBlock | DistFormat::Dup))
}

/// Resolves `option` for a loop on a `rank`-dimensional template: one width per
/// template dimension, as Omni requires.
pub fn plan<'a>(option: Option<&'a LoopOption>, rank: usize, dir_span: Span) -> Result<LoopPlan<'a>, ModelError> {
    let (kind, ws, wait_tag) = match option {
        None => return Ok(LoopPlan { kind: RangeKind::Owned, widths: vec![None; rank], wait_tag: None }),
        Some(LoopOption::Expand(ws)) => (RangeKind::Expand, ws, None),
        Some(LoopOption::Margin(ws)) => (RangeKind::Margin, ws, None),
        Some(LoopOption::PeelAndWait(tag, ws)) => (RangeKind::Owned, ws, Some(tag)),
    };
    if ws.len() != rank {
        let what = option_name(option.expect("some"));
        return Err(ModelError::new(
            ws.first().map_or(dir_span, |w| w.span),
            format!("`{what}` lists {} width(s) for a {rank}-dimensional template", ws.len()),
            "one width per template dimension",
        ));
    }
    let widths = if kind == RangeKind::Owned { vec![None; rank] } else { ws.iter().map(|w| (!is_zero_width(w)).then_some(w)).collect() };
    Ok(LoopPlan { kind, widths, wait_tag })
}

/// The option's directive-clause name, for messages.
pub fn option_name(o: &LoopOption) -> &'static str {
    match o {
        LoopOption::Expand(_) => "expand",
        LoopOption::Margin(_) => "margin",
        LoopOption::PeelAndWait(..) => "peel_and_wait",
    }
}

/// `0` or `0:0`.
pub fn is_zero_width(w: &ExpandWidth) -> bool {
    int_value(&w.lower) == Some(0) && int_value(&w.upper) == Some(0)
}

/// The value of an integer literal, possibly negated.
pub fn int_value(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(s) => s.parse().ok(),
        ExprKind::Unary(UnOp::Neg, x) => int_value(x).map(|v| -v),
        ExprKind::Unary(UnOp::Plus, x) => int_value(x),
        _ => None,
    }
}

/// Checks that a non-zero width can apply to a loop dimension: the owned iterations
/// must be one contiguous range (block, gblock or a non-distributed dimension), the
/// loop must count upwards with step 1, and the dimension must have a loop variable.
pub fn check_width(w: &ExpandWidth, fmt: Option<DistFormat>, step_is_one: bool, down: bool) -> Result<(), ModelError> {
    if !matches!(fmt, Some(DistFormat::Block | DistFormat::GBlock | DistFormat::Dup)) {
        return Err(ModelError::new(
            w.span,
            "a non-zero `expand`/`margin` width on a dimension that is not block-distributed is not supported",
            "not supported",
        )
        .help("the node's iterations of a cyclic dimension are not one range; use width 0 there"));
    }
    if down || !step_is_one {
        return Err(ModelError::new(w.span, "a non-zero `expand`/`margin` width needs a loop counting upwards with step 1", "not supported"));
    }
    Ok(())
}

/// A non-zero width on a template dimension no loop of the nest runs over.
pub fn width_without_loop(w: &ExpandWidth, tdim: usize) -> ModelError {
    ModelError::new(w.span, format!("a non-zero width on template dimension {} that no loop of the nest runs over", tdim + 1), "no loop variable here")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i64) -> Expr {
        let lit = Expr { span: Span::new(0, 1), kind: ExprKind::Int(v.abs().to_string()) };
        if v < 0 {
            Expr { span: Span::new(0, 2), kind: ExprKind::Unary(UnOp::Neg, Box::new(lit)) }
        } else {
            lit
        }
    }
    fn w(lo: i64, hi: i64) -> ExpandWidth {
        ExpandWidth { span: Span::new(3, 4), unbound: false, lower: int(lo), upper: int(hi) }
    }

    #[test]
    fn no_option_runs_the_owned_box() {
        let p = plan(None, 2, Span::new(0, 1)).unwrap();
        assert_eq!(p.kind, RangeKind::Owned);
        assert!(!p.widens());
        assert_eq!(p.widths.len(), 2);
    }

    #[test]
    fn zero_widths_are_dropped_and_negative_kept() {
        let o = LoopOption::Margin(vec![w(0, 0), w(-1, -1)]);
        let p = plan(Some(&o), 2, Span::new(0, 1)).unwrap();
        assert_eq!(p.kind, RangeKind::Margin);
        assert!(p.widths[0].is_none());
        assert_eq!(p.widths[1].map(|x| int_value(&x.lower)), Some(Some(-1)));
        assert!(p.widens());
    }

    #[test]
    fn peel_and_wait_waits_then_runs_owned() {
        let tag = int(10);
        let o = LoopOption::PeelAndWait(tag, vec![w(-1, -1)]);
        let p = plan(Some(&o), 1, Span::new(0, 1)).unwrap();
        assert_eq!(p.kind, RangeKind::Owned);
        assert!(!p.widens());
        assert_eq!(p.wait_tag.and_then(int_value), Some(10));
    }

    #[test]
    fn width_count_must_match_the_template() {
        let o = LoopOption::Expand(vec![w(1, 1)]);
        let e = plan(Some(&o), 2, Span::new(0, 1)).unwrap_err();
        assert!(e.msg.contains("1 width(s) for a 2-dimensional"), "{}", e.msg);
    }

    #[test]
    fn only_star_levels_inside_distributed_ones_keep_their_bounds() {
        let p = plan(None, 2, Span::new(0, 1)).unwrap();
        assert!(p.keeps_own_bounds(0, Some(DistFormat::Dup), true));
        // the outermost level: a process outside the template's nodes would run it
        assert!(!p.keeps_own_bounds(0, Some(DistFormat::Dup), false));
        assert!(!p.keeps_own_bounds(0, Some(DistFormat::Block), true));
        // a format decided at run time
        assert!(!p.keeps_own_bounds(0, None, true));
        // a width on that dimension changes its range
        let o = LoopOption::Expand(vec![w(1, 1), w(0, 0)]);
        let p = plan(Some(&o), 2, Span::new(0, 1)).unwrap();
        assert!(!p.keeps_own_bounds(0, Some(DistFormat::Dup), true));
        assert!(p.keeps_own_bounds(1, Some(DistFormat::Dup), true));
        assert!(distributes(Some(DistFormat::Cyclic)) && !distributes(Some(DistFormat::Dup)) && !distributes(None));
    }

    #[test]
    fn widths_need_block_dims_and_unit_steps() {
        assert!(check_width(&w(1, 1), Some(DistFormat::Block), true, false).is_ok());
        assert!(check_width(&w(1, 1), Some(DistFormat::Cyclic), true, false).is_err());
        assert!(check_width(&w(1, 1), None, true, false).is_err());
        assert!(check_width(&w(1, 1), Some(DistFormat::Block), false, false).is_err());
        assert!(check_width(&w(1, 1), Some(DistFormat::Block), true, true).is_err());
    }
}
