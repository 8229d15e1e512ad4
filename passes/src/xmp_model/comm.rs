//! Communication directives — `reflect`, `reduce_shadow`, `reflect_init`/`reflect_do`,
//! `reduction`, `bcast`, `barrier`, `wait_async` — resolved for both printers: the
//! arrays and node sets they name (`refs.rs`), their widths checked against the arrays'
//! ranks, and the node a `bcast ... from` names, as 1-based indices per dimension.

use super::diag::Code;
use super::iexpr::IExpr;
use super::resolve::Resolver;
use super::symbols::{Entity, NodesId, TemplId};
use super::{Model, ModelError};
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

/// Where a `bcast` takes its value from.
#[derive(Clone, Debug)]
pub enum BcastFrom<'a> {
    /// No `from`: the first node of the `on` set (or of the executing nodes).
    Default,
    /// `from p(i, j)`: a node of a node set, by 1-based index per dimension (empty for
    /// `from p`: its first node).
    Node(NodesId, Vec<IExpr<'a>>),
    /// `from t(j, :)`: the first of the nodes owning the referenced template elements
    /// (the owner of `t(j, :)` when `:` is on a dimension not distributed, as in Omni's
    /// `bcast6`): the printer builds that node set as for `on t(j, :)`.
    Template(TemplId),
}

/// The `from` clause of a `bcast` (its name resolved by the model: a node set or a
/// template; `Ok(None)`: an error already reported).
pub fn bcast_from<'r>(m: &Model, from: &'r Option<Ref>) -> Result<Option<BcastFrom<'r>>, ModelError> {
    let Some(r) = from else { return Ok(Some(BcastFrom::Default)) };
    match m.name(&r.name) {
        Some(Entity::Nodes(n)) => Ok(Some(BcastFrom::Node(n, from_node(r, n)?))),
        Some(Entity::Template(t)) => Ok(Some(BcastFrom::Template(t))),
        _ => Ok(None),
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
