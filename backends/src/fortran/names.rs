//! The Fortran spelling of the model's objects and expressions: one `integer(8)`
//! handle per node set (`xmpf_n_p`), template (`xmpf_t_t`) and aligned array
//! (`xmpf_d_a`), named after the object; model expressions ([`IExpr`]) in Fortran.

use super::{lc, Tr, Unit};
use xmpc_ir::directive::DistFormat;
use xmpc_ir::Expr;
use xmpc_passes::xmp_model::iexpr::{self, IExpr, Spell};
use xmpc_passes::xmp_model::on_ref::NodeSel;
use xmpc_passes::xmp_model::symbols::{Entity, NodesId, NodesMap, TemplId};
use xmpc_passes::xmp_model::Model;

/// Node-set stride that stands for `*` (the executing node's own index) in the
/// runtime's Fortran entry points (`xmpf_nodes_sub`, `xmpf_nodes_on`).
pub(super) const OWN: &str = "-1";

/// The Fortran spelling of model expressions.
pub(super) struct FSpell<'t, 'a> {
    pub t: &'t Tr<'a>,
}

impl Spell for FSpell<'_, '_> {
    fn src(&self, e: &Expr) -> String {
        self.t.ex(e)
    }
    fn min(&self, a: &str, b: &str) -> String {
        format!("min({a}, {b})")
    }
    fn nodes_dim_size(&self, n: NodesId, d: usize) -> String {
        format!("xmpf_nodes_size({}, {d})", nodes_handle(&self.t.m, n))
    }
    fn nodes_coord(&self, n: NodesId, d: usize) -> String {
        format!("xmpf_nodes_coord({}, {d})", nodes_handle(&self.t.m, n))
    }
}

pub(super) fn nodes_handle(m: &Model, n: NodesId) -> String {
    format!("xmpf_n_{}", lc(&m.node(n).name))
}

pub(super) fn templ_handle(m: &Model, t: TemplId) -> String {
    format!("xmpf_t_{}", lc(&m.templ(t).name))
}

impl<'a> Tr<'a> {
    pub(super) fn nh(&self, n: NodesId) -> String {
        nodes_handle(&self.m, n)
    }
    pub(super) fn th(&self, t: TemplId) -> String {
        templ_handle(&self.m, t)
    }
    /// A model expression in Fortran.
    pub(super) fn ie(&self, e: &IExpr) -> String {
        iexpr::print(e, &FSpell { t: self })
    }
    /// The handle of the node set template `t` is distributed onto.
    pub(super) fn tonto(&self, t: TemplId) -> Option<String> {
        self.m.templ(t).dist.as_ref().and_then(|d| d.onto).map(|n| self.nh(n))
    }
    /// The template's formats (empty when it is not distributed here).
    pub(super) fn tfmts(&self, t: TemplId) -> Vec<DistFormat> {
        self.m.templ(t).dist.as_ref().map(|d| d.dims.iter().map(|x| x.format).collect()).unwrap_or_default()
    }
    /// (handle, rank, formats) of a template.
    pub(super) fn templ_info(&self, t: TemplId) -> (String, usize, Vec<DistFormat>) {
        (self.th(t), self.m.templ(t).rank(), self.tfmts(t))
    }

    /// The call that creates node set `id`.
    pub(super) fn nodes_setup(&self, id: NodesId, loc: &str) -> String {
        let nd = self.m.node(id);
        let h = self.nh(id);
        let sizes: Vec<String> = nd.sizes.iter().map(|x| x.as_ref().map_or("0".into(), |e| self.ie(e))).collect();
        match &nd.map {
            NodesMap::Executing => format!("call xmpf_nodes({h}, {loc}, {}, {})", sizes.len(), self.i8list(&sizes)),
            NodesMap::Sub { parent, sels } => {
                let (lo, hi, st) = self.sel_triplets(sels);
                let ph = self.nh(*parent);
                let pnd = sels.len();
                format!(
                    "call xmpf_nodes_sub({h}, {loc}, {}, {}, {ph}, {pnd}, {}, {}, {})",
                    sizes.len(),
                    self.i8list(&sizes),
                    self.i8list(&lo),
                    self.i8list(&hi),
                    self.i8list(&st)
                )
            }
        }
    }

    /// Node selections as the runtime's (lo, hi, st) lists: st 0 for a whole dimension,
    /// [`OWN`] for the executing node's own index.
    pub(super) fn sel_triplets(&self, sels: &[NodeSel]) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut lo, mut hi, mut st) = (vec![], vec![], vec![]);
        for s in sels {
            let (a, b, c) = match s {
                NodeSel::Whole => ("1".into(), "1".into(), "0".into()),
                NodeSel::Own => ("1".into(), "1".into(), OWN.into()),
                NodeSel::Range { lo, hi, st } => (self.ie(lo), self.ie(hi), self.ie(st)),
            };
            lo.push(a);
            hi.push(b);
            st.push(c);
        }
        (lo, hi, st)
    }

    /// The templates of a module's arrays read from its description, from the model.
    pub(super) fn fill_tids(&self, module: &str, u: &mut Unit) {
        let Some(scope) = self.m.module(module) else { return };
        for (k, a) in u.arrays.iter_mut() {
            if let Some(Entity::Array(id)) = scope.names.get(k) {
                a.tid = Some(self.m.array(*id).templ);
            }
        }
    }
}

/// `xmpf_nodes_size` / `xmpf_nodes_coord` used in `text`: their declarations.
pub(super) fn query_decls(text: &str) -> Vec<String> {
    ["xmpf_nodes_size", "xmpf_nodes_coord"].iter().filter(|f| text.contains(&format!("{f}("))).map(|f| format!("integer(8), external :: {f}")).collect()
}
