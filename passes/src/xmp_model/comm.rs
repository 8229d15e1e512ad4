//! Communication directives — `reflect`, `reduce_shadow`, `reflect_init`/`reflect_do`,
//! `reduction`, `bcast`, `barrier`, `wait_async` — resolved for both printers: the
//! arrays and node sets they name (`refs.rs`), their widths checked against the arrays'
//! ranks, and the node a `bcast ... from` names, as 1-based indices per dimension.

use super::diag::Code;
use super::iexpr::IExpr;
use super::resolve::Resolver;
use super::symbols::NodesId;
use super::ModelError;
use xmpc_ir::directive::{Name, Ref, SubKind, Width};

impl<'a> Resolver<'a, '_> {
    /// `reflect (a, b) width(...)`: at most one width per dimension of each array
    /// (XMP0104); missing trailing widths are 0 (xmpc's C has always read them so).
    pub fn comm_widths(&mut self, what: &str, vars: &[Name], widths: &Option<Vec<Width>>) {
        let Some(ws) = widths else { return };
        for n in vars {
            let Some(a) = self.m.name_array(n) else { continue };
            let rank = self.m.arrays[a.0].rank();
            if ws.len() > rank {
                let span = ws.first().map_or(n.span, |w| w.span.to(ws.last().map_or(w.span, |l| l.span)));
                let e = ModelError::new(
                    span,
                    format!("`{what}` gives {} width(s) for the {rank}-dimensional array `{}`", ws.len(), n.name),
                    "one width per array dimension",
                );
                let d = e.to_diag(Code::RankMismatch, self.m.unit.file);
                self.m.diags.push(d);
            }
        }
    }
}

/// The node a `bcast ... from p(i, j)` names: per dimension of `p` its 1-based index
/// (square C references count from 0); `from` must name one node.
pub fn from_node(r: &Ref, _parent: NodesId) -> Result<Vec<IExpr<'_>>, ModelError> {
    let shift = 1 - r.spelling.node_base() as i64;
    let Some(subs) = &r.subs else { return Ok(vec![]) };
    subs.iter()
        .map(|s| match &s.kind {
            SubKind::Expr(e) => Ok(IExpr::src(e).plus(shift)),
            _ => Err(ModelError::new(s.span, "`bcast ... from` must name a single node", "a range").help("give one node number per dimension of the node set")),
        })
        .collect()
}
