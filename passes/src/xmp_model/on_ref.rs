//! `on` references (`bcast ... on`, `reduction ... on`, `barrier on`, `task on`,
//! `nodes q = p[...]`): which nodes of a node set, or which template indices, a
//! reference names, as per-dimension triplets the runtime selects with. The bounds are
//! language-neutral expressions ([`IExpr`]) each printer spells.

use super::iexpr::IExpr;
use super::symbols::NodesId;
use xmpc_ir::directive::{Ref, Spelling, Sub, SubKind};

/// One dimension of a node reference, 1-based (the runtime's numbering).
#[derive(Clone, Debug, PartialEq)]
pub enum NodeSel<'a> {
    /// `:` with no bounds: the whole dimension.
    Whole,
    /// `*`: the executing node's own index in this dimension (XMP's node-reference
    /// `*`; Omni: `nodes row[n] = p[0:n][*]` is the row of `p` holding this node).
    Own,
    /// `lo:hi:st`, 1-based, `hi` inclusive.
    Range { lo: IExpr<'a>, hi: IExpr<'a>, st: IExpr<'a> },
}

/// The per-dimension selection of a node reference `p[...]`/`p(...)` of the node set
/// `parent`, in the reference's (round) order.
///
/// C square triplets are `start:length:stride` (the parser has turned `length` into
/// `start+length-1`); `length` counts nodes, so with a stride the last node is
/// `start + (length-1)*stride`. As in Omni, positions past the end of the dimension
/// select nothing (Omni's runtime tests membership `lower <= k <= upper`, `k - lower`
/// a multiple of `stride`, with no bound check: `p[0:4:2]` on 4 nodes is `p[0], p[2]`);
/// the upper bound is therefore clipped to the dimension.
pub fn node_sels(r: &Ref, parent: NodesId) -> Vec<NodeSel<'_>> {
    let shift = 1 - r.spelling.node_base() as i64;
    r.subs.iter().flatten().enumerate().map(|(d, s)| node_sel(s, r.spelling, shift, d, parent)).collect()
}

fn node_sel(s: &Sub, sp: Spelling, shift: i64, d: usize, parent: NodesId) -> NodeSel<'_> {
    match &s.kind {
        SubKind::Star => NodeSel::Own,
        SubKind::Expr(e) => {
            let v = IExpr::src(e).plus(shift);
            NodeSel::Range { lo: v.clone(), hi: v, st: IExpr::Lit(1) }
        }
        SubKind::Triplet { lower: None, upper: None, stride: None } => NodeSel::Whole,
        SubKind::Triplet { lower, upper, stride } => {
            let lo = lower.as_ref().map_or(IExpr::Lit(1), |e| IExpr::src(e).plus(shift));
            let st = stride.as_ref().map_or(IExpr::Lit(1), IExpr::src);
            let size = IExpr::NodesDimSize(parent, d);
            let hi = match upper {
                None => size,
                Some(e) => {
                    let h = IExpr::src(e).plus(shift);
                    if sp == Spelling::Square && st.lit() != Some(1) {
                        // start + (length-1)*stride, clipped to the dimension (Omni).
                        (lo.clone() + (h - lo.clone()) * st.clone()).min(size)
                    } else {
                        h
                    }
                }
            };
            NodeSel::Range { lo, hi, st }
        }
    }
}

/// One dimension of a template reference `t[...]`/`t(...)`, in template indices as
/// declared (no shift: a template's index space is its own).
#[derive(Clone, Debug, PartialEq)]
pub enum TemplSel<'a> {
    /// `*`, or `:` with no bounds: every index (the nodes of that dimension are all taken).
    Whole,
    /// `lo:hi:st` (a single index is `i:i:1`); missing bounds are the template's.
    Range { lo: Option<IExpr<'a>>, hi: Option<IExpr<'a>>, st: IExpr<'a> },
}

/// The per-dimension selection of a template reference (round order). The nodes
/// named are those owning at least one selected index in every distributed dimension
/// (Omni's `on t(...)`).
pub fn templ_sels(r: &Ref) -> Vec<TemplSel<'_>> {
    r.subs
        .iter()
        .flatten()
        .map(|s| match &s.kind {
            SubKind::Star | SubKind::Triplet { lower: None, upper: None, stride: None } => TemplSel::Whole,
            SubKind::Expr(e) => {
                let v = IExpr::src(e);
                TemplSel::Range { lo: Some(v.clone()), hi: Some(v), st: IExpr::Lit(1) }
            }
            SubKind::Triplet { lower, upper, stride } => {
                let lo = lower.as_ref().map(IExpr::src);
                let st = stride.as_ref().map_or(IExpr::Lit(1), IExpr::src);
                let hi = upper.as_ref().map(|e| {
                    let h = IExpr::src(e);
                    match (&lo, r.spelling == Spelling::Square && st.lit() != Some(1)) {
                        (Some(l), true) => l.clone() + (h - l.clone()) * st.clone(),
                        _ => h,
                    }
                });
                TemplSel::Range { lo, hi, st }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::iexpr::{print, Spell};
    use super::*;
    use xmpc_ir::directive::Name;
    use xmpc_ir::{Expr, ExprKind, Span};

    fn e(t: &str) -> Expr {
        let kind = match t.parse::<i64>() {
            Ok(_) => ExprKind::Int(t.into()),
            Err(_) => ExprKind::Ident(t.into()),
        };
        Expr { span: Span::new(0, 0), kind }
    }
    fn r(sp: Spelling, subs: Vec<SubKind>) -> Ref {
        let z = Span::new(0, 0);
        Ref { name: Name { name: "p".into(), span: z }, subs: Some(subs.into_iter().map(|kind| Sub { span: z, kind }).collect()), spelling: sp, span: z }
    }
    struct H;
    impl Spell for H {
        fn src(&self, x: &Expr) -> String {
            match &x.kind {
                ExprKind::Ident(n) | ExprKind::Int(n) => n.clone(),
                _ => "?".into(),
            }
        }
        fn min(&self, a: &str, b: &str) -> String {
            format!("min({a}, {b})")
        }
        fn nodes_dim_size(&self, _: NodesId, _: usize) -> String {
            "N".into()
        }
        fn nodes_coord(&self, _: NodesId, _: usize) -> String {
            "me".into()
        }
    }
    fn text(s: &NodeSel) -> (String, String, String) {
        match s {
            NodeSel::Range { lo, hi, st } => (print(lo, &H), print(hi, &H), print(st, &H)),
            NodeSel::Whole => ("whole".into(), String::new(), String::new()),
            NodeSel::Own => ("own".into(), String::new(), String::new()),
        }
    }
    const P: NodesId = NodesId(0);

    #[test]
    fn square_indices_are_zero_based_and_round_one_based() {
        let sq = r(Spelling::Square, vec![SubKind::Expr(e("0"))]);
        assert_eq!(text(&node_sels(&sq, P)[0]), ("1".into(), "1".into(), "1".into()));
        let rd = r(Spelling::Round, vec![SubKind::Expr(e("k"))]);
        assert_eq!(text(&node_sels(&rd, P)[0]), ("k".into(), "k".into(), "1".into()));
    }

    #[test]
    fn strided_square_triplet_counts_nodes_and_is_clipped() {
        // p[0:4:2] (start 0, 4 nodes, stride 2): the parser gave upper = 0+4-1 = 3.
        let t = SubKind::Triplet { lower: Some(e("0")), upper: Some(e("3")), stride: Some(e("2")) };
        let s = r(Spelling::Square, vec![t.clone()]);
        assert_eq!(text(&node_sels(&s, P)[0]), ("1".into(), "min(7, N)".into(), "2".into()));
        // Round triplets are lower:upper:stride, not clipped.
        let s = r(Spelling::Round, vec![t]);
        assert_eq!(text(&node_sels(&s, P)[0]), ("0".into(), "3".into(), "2".into()));
        // p[k:n:2] with a run-time size: start + (n-1)*2 clipped to the dimension.
        let t = SubKind::Triplet { lower: Some(e("k")), upper: Some(e("m")), stride: Some(e("2")) };
        let s = r(Spelling::Square, vec![t]);
        assert_eq!(text(&node_sels(&s, P)[0]), ("k + 1".into(), "min(k + 1 + (m + 1 - (k + 1)) * 2, N)".into(), "2".into()));
    }

    #[test]
    fn star_is_the_own_index_and_bare_colon_the_whole_dimension() {
        let s = r(Spelling::Square, vec![SubKind::Star, SubKind::Triplet { lower: None, upper: None, stride: None }]);
        assert_eq!(node_sels(&s, P), vec![NodeSel::Own, NodeSel::Whole]);
        let s = r(Spelling::Square, vec![SubKind::Triplet { lower: None, upper: None, stride: None }, SubKind::Expr(e("j"))]);
        let t = templ_sels(&s);
        assert_eq!(t[0], TemplSel::Whole);
        assert!(matches!(&t[1], TemplSel::Range { lo: Some(l), hi: Some(h), .. } if print(l, &H) == "j" && print(h, &H) == "j"));
    }
}
