//! `on` references (`bcast ... on`, `reduction ... on`, `barrier on`, `task on`,
//! `nodes q = p[...]`): which nodes of a node set, or which template indices, a
//! reference names, as per-dimension triplets the runtime selects with.
//!
//! Expressions stay host-language text (the printer renders them); the arithmetic
//! written here (`+`, `-`, `*`, `/`, parentheses) means the same in C and Fortran.

use xmpc_ir::directive::{Ref, Spelling, Sub, SubKind};
use xmpc_ir::Expr;

/// What a printer supplies: its rendering of expressions and of the two operations
/// whose spelling differs between C and Fortran.
pub trait Host {
    /// A directive expression in the host language.
    fn expr(&self, e: &Expr) -> String;
    /// The size of dimension `d` (round order) of the node set referenced.
    fn dim_size(&self, d: usize) -> String;
    /// The smaller of two integer expressions.
    fn min(&self, a: &str, b: &str) -> String;
}

/// One dimension of a node reference, 1-based (the runtime's numbering).
#[derive(Clone, Debug, PartialEq)]
pub enum NodeSel {
    /// `:` with no bounds: the whole dimension.
    Whole,
    /// `*`: the executing node's own index in this dimension (XMP's node-reference
    /// `*`; Omni: `nodes row[n] = p[0:n][*]` is the row of `p` holding this node).
    Own,
    /// `lo:hi:st`, all three host expressions, 1-based, `hi` inclusive.
    Range { lo: String, hi: String, st: String },
}

/// The per-dimension selection of a node reference `p[...]`/`p(...)`, in the
/// reference's (round) order. `render` prints a host expression; `dim_size(d)` is the
/// host expression of the size of dimension `d` of the node set.
///
/// C square triplets are `start:length:stride` (the parser has turned `length` into
/// `start+length-1`); `length` counts nodes, so with a stride the last node is
/// `start + (length-1)*stride`. As in Omni, positions past the end of the dimension
/// select nothing (Omni's runtime tests membership `lower <= k <= upper`, `k - lower`
/// a multiple of `stride`, with no bound check: `p[0:4:2]` on 4 nodes is `p[0], p[2]`);
/// the upper bound is therefore clipped to the dimension.
pub fn node_sels(r: &Ref, host: &dyn Host) -> Vec<NodeSel> {
    let shift = 1 - r.spelling.node_base() as i64;
    r.subs.iter().flatten().enumerate().map(|(d, s)| node_sel(s, r.spelling, shift, d, host)).collect()
}

fn node_sel(s: &Sub, sp: Spelling, shift: i64, d: usize, host: &dyn Host) -> NodeSel {
    let render = |e: &Expr| host.expr(e);
    match &s.kind {
        SubKind::Star => NodeSel::Own,
        SubKind::Expr(e) => {
            let v = plus(&render(e), shift);
            NodeSel::Range { lo: v.clone(), hi: v, st: "1".into() }
        }
        SubKind::Triplet { lower: None, upper: None, stride: None } => NodeSel::Whole,
        SubKind::Triplet { lower, upper, stride } => {
            let lo = lower.as_ref().map_or("1".into(), |e| plus(&render(e), shift));
            let st = stride.as_ref().map_or("1".into(), render);
            let hi = match upper {
                None => host.dim_size(d),
                Some(e) => {
                    let h = plus(&render(e), shift);
                    if sp == Spelling::Square && st != "1" {
                        // start + (length-1)*stride, clipped to the dimension (Omni).
                        let last = format!("{} + ({} - {}) * {}", paren(&lo), paren(&h), paren(&lo), paren(&st));
                        match (last_lit(&lo, &h, &st), host.dim_size(d).trim().parse::<i64>()) {
                            (Some(l), Ok(n)) => l.min(n).to_string(),
                            _ => host.min(&last, &host.dim_size(d)),
                        }
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
pub enum TemplSel {
    /// `*`, or `:` with no bounds: every index (the nodes of that dimension are all taken).
    Whole,
    /// `lo:hi:st` (a single index is `i:i:1`); missing bounds are the template's.
    Range { lo: Option<String>, hi: Option<String>, st: String },
}

/// The per-dimension selection of a template reference (round order). The nodes
/// named are those owning at least one selected index in every distributed dimension
/// (Omni's `on t(...)`).
pub fn templ_sels(r: &Ref, host: &dyn Host) -> Vec<TemplSel> {
    let render = |e: &Expr| host.expr(e);
    r.subs
        .iter()
        .flatten()
        .map(|s| match &s.kind {
            SubKind::Star | SubKind::Triplet { lower: None, upper: None, stride: None } => TemplSel::Whole,
            SubKind::Expr(e) => {
                let v = render(e);
                TemplSel::Range { lo: Some(v.clone()), hi: Some(v), st: "1".into() }
            }
            SubKind::Triplet { lower, upper, stride } => {
                let lo = lower.as_ref().map(render);
                let st = stride.as_ref().map_or("1".into(), render);
                let hi = upper.as_ref().map(|e| {
                    let h = host.expr(e);
                    match (&lo, r.spelling == Spelling::Square && st != "1") {
                        (Some(l), true) => format!("{} + ({} - {}) * {}", paren(l), paren(&h), paren(l), paren(&st)),
                        _ => h,
                    }
                });
                TemplSel::Range { lo, hi, st }
            }
        })
        .collect()
}

/// `a + k`, folded for literals.
pub fn plus(a: &str, k: i64) -> String {
    if k == 0 {
        return a.to_string();
    }
    if let Ok(v) = a.trim().parse::<i64>() {
        return (v + k).to_string();
    }
    if k > 0 {
        format!("{} + {k}", paren(a))
    } else {
        format!("{} - {}", paren(a), -k)
    }
}

fn paren(t: &str) -> String {
    let t = t.trim();
    if !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
        t.to_string()
    } else {
        format!("({t})")
    }
}

/// `lo + (hi - lo) * st` when all three are literals.
fn last_lit(lo: &str, hi: &str, st: &str) -> Option<i64> {
    let (l, h, s) = (lo.trim().parse::<i64>().ok()?, hi.trim().parse::<i64>().ok()?, st.trim().parse::<i64>().ok()?);
    Some(l + (h - l) * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xmpc_ir::directive::Name;
    use xmpc_ir::{ExprKind, Span};

    fn e(t: &str) -> Expr {
        Expr { span: Span::new(0, 0), kind: ExprKind::Ident(t.into()) }
    }
    fn r(sp: Spelling, subs: Vec<SubKind>) -> Ref {
        let z = Span::new(0, 0);
        Ref { name: Name { name: "p".into(), span: z }, subs: Some(subs.into_iter().map(|kind| Sub { span: z, kind }).collect()), spelling: sp, span: z }
    }
    struct H(&'static str);
    impl Host for H {
        fn expr(&self, x: &Expr) -> String {
            match &x.kind {
                ExprKind::Ident(n) => n.clone(),
                _ => "?".into(),
            }
        }
        fn dim_size(&self, _d: usize) -> String {
            self.0.into()
        }
        fn min(&self, a: &str, b: &str) -> String {
            format!("min({a}, {b})")
        }
    }

    #[test]
    fn square_indices_are_zero_based_and_round_one_based() {
        let sq = node_sels(&r(Spelling::Square, vec![SubKind::Expr(e("0"))]), &H("N"));
        assert_eq!(sq, vec![NodeSel::Range { lo: "1".into(), hi: "1".into(), st: "1".into() }]);
        let rd = node_sels(&r(Spelling::Round, vec![SubKind::Expr(e("k"))]), &H("N"));
        assert_eq!(rd, vec![NodeSel::Range { lo: "k".into(), hi: "k".into(), st: "1".into() }]);
    }

    #[test]
    fn strided_square_triplet_counts_nodes_and_is_clipped() {
        // p[0:4:2] (start 0, 4 nodes, stride 2): the parser gave upper = 0+4-1 = 3.
        let t = SubKind::Triplet { lower: Some(e("0")), upper: Some(e("3")), stride: Some(e("2")) };
        let s = node_sels(&r(Spelling::Square, vec![t.clone()]), &H("4"));
        assert_eq!(s, vec![NodeSel::Range { lo: "1".into(), hi: "4".into(), st: "2".into() }]);
        // Round triplets are lower:upper:stride, not clipped.
        let s = node_sels(&r(Spelling::Round, vec![t]), &H("4"));
        assert_eq!(s, vec![NodeSel::Range { lo: "0".into(), hi: "3".into(), st: "2".into() }]);
        // p[k:n:2] with a run-time size: start + (n-1)*2 clipped with the host's min.
        let t = SubKind::Triplet { lower: Some(e("k")), upper: Some(e("m")), stride: Some(e("2")) };
        let s = node_sels(&r(Spelling::Square, vec![t]), &H("N"));
        assert_eq!(s, vec![NodeSel::Range { lo: "k + 1".into(), hi: "min((k + 1) + ((m + 1) - (k + 1)) * 2, N)".into(), st: "2".into() }]);
    }

    #[test]
    fn star_is_the_own_index_and_bare_colon_the_whole_dimension() {
        let s = node_sels(&r(Spelling::Square, vec![SubKind::Star, SubKind::Triplet { lower: None, upper: None, stride: None }]), &H("N"));
        assert_eq!(s, vec![NodeSel::Own, NodeSel::Whole]);
        let t = templ_sels(&r(Spelling::Square, vec![SubKind::Triplet { lower: None, upper: None, stride: None }, SubKind::Expr(e("j"))]), &H("N"));
        assert_eq!(t, vec![TemplSel::Whole, TemplSel::Range { lo: Some("j".into()), hi: Some("j".into()), st: "1".into() }]);
    }
}
