//! Templates and their distribution onto node sets.

use crate::dist::{Dist, DUP};
use crate::err::{fatal, guard, XmpcLoc};
use crate::nodes::{xmpc_nodes, Nodes};
use std::ffi::{c_int, c_long};

/// A template (`xmpc_template` in C).
#[allow(non_camel_case_types)]
pub struct xmpc_template {
    pub lower: Vec<i64>,
    pub upper: Vec<i64>,
    pub fixed: bool,
    /// Requested formats and arguments (kept until the template is fixed).
    pub formats: Vec<i32>,
    pub args: Vec<i64>,
    pub maps: Vec<Option<Vec<i64>>>,
    pub onto: *const xmpc_nodes,
    /// Per template dim, once fixed and distributed.
    pub dist: Vec<Dist>,
    /// Per template dim: node dim, or -1 (not distributed).
    pub node_dim: Vec<i32>,
}

pub type Template = xmpc_template;

impl Template {
    pub fn ndims(&self) -> usize {
        self.lower.len()
    }

    pub fn nodes(&self) -> Option<&Nodes> {
        // SAFETY: nodes handles are never freed.
        unsafe { self.onto.as_ref() }
    }

    pub fn ready(&self) -> bool {
        self.fixed && !self.dist.is_empty()
    }

    /// This process's coordinate on the node dim of template dim `d`
    /// (0 for undistributed dims, None when not a member).
    pub fn coord(&self, d: usize) -> Option<i64> {
        let n = self.nodes()?;
        if !n.member() {
            return None;
        }
        match self.node_dim[d] {
            nd if nd >= 0 => Some(n.coords[nd as usize]),
            _ => Some(0),
        }
    }

    fn build(&mut self) -> Result<(), String> {
        if !self.fixed || self.formats.is_empty() {
            return Ok(());
        }
        let n = self.nodes().ok_or("distributed onto no node set")?;
        let ndist = self.formats.iter().filter(|&&f| f != DUP).count();
        if ndist > n.dims.len() {
            return Err(format!("{ndist} distributed template dimensions onto a {}-dimensional node set", n.dims.len()));
        }
        let (mut dist, mut nd, mut k) = (vec![], vec![], 0usize);
        for d in 0..self.ndims() {
            let f = self.formats[d];
            let p = if f == DUP { 1 } else { n.dims[k] };
            dist.push(Dist::new(f, self.lower[d], self.upper[d], p, self.args[d], self.maps[d].as_deref())?);
            nd.push(if f == DUP { -1 } else { k as i32 });
            if f != DUP {
                k += 1;
            }
        }
        self.dist = dist;
        self.node_dim = nd;
        Ok(())
    }
}

unsafe fn vec_of(p: *const c_long, n: usize) -> Vec<i64> {
    if p.is_null() {
        vec![0; n]
    } else {
        std::slice::from_raw_parts(p, n).to_vec()
    }
}
/// `template t(lower:upper, ...)`; `fixed` = 0 for `template t(:)` (sizes given later by xmpc_template_fix; lower/upper may then be NULL).
#[no_mangle]
pub unsafe extern "C" fn xmpc_template_new(loc: *const XmpcLoc, ndims: c_int, lower: *const c_long, upper: *const c_long, fixed: c_int) -> *mut xmpc_template {
    let n = ndims.max(0) as usize;
    let (lower, upper) = (vec_of(lower, n), vec_of(upper, n));
    guard(loc, || {
        if fixed != 0 {
            if let Some(d) = (0..n).find(|&d| lower[d] > upper[d]) {
                fatal(loc, &format!("template dimension {} is empty ({}:{})", d + 1, lower[d], upper[d]));
            }
        }
        Box::into_raw(Box::new(Template {
            lower,
            upper,
            fixed: fixed != 0,
            formats: vec![],
            args: vec![],
            maps: vec![],
            onto: std::ptr::null(),
            dist: vec![],
            node_dim: vec![-1; n],
        }))
    })
}
/// `template_fix`: sets the bounds (NULL keeps them) and computes the distribution. xmpc_distribute may come before or after.
#[no_mangle]
pub unsafe extern "C" fn xmpc_template_fix(loc: *const XmpcLoc, t: *mut xmpc_template, lower: *const c_long, upper: *const c_long) {
    let t = t.as_mut().unwrap_or_else(|| fatal(loc, "no template"));
    let n = t.ndims();
    if !lower.is_null() {
        t.lower = vec_of(lower, n);
    }
    if !upper.is_null() {
        t.upper = vec_of(upper, n);
    }
    guard(loc, || {
        t.fixed = true;
        t.build().unwrap_or_else(|e| fatal(loc, &e));
    })
}
/// Per template dim: a format and its argument: block(n) → n (0 = default, ceil(N/P)),
/// cyclic(w) → w (1 for plain cyclic), gblock → ignored; gblock_maps[d] points to the
/// P sizes of gblock(m) (NULL for other dims or when gblock_maps is NULL; copied). The
/// k-th distributed (non-DUP) template dim is mapped onto node dim k. Errors: block(n)
/// too small, gblock sizes not summing to the template size.
#[no_mangle]
pub unsafe extern "C" fn xmpc_distribute(
    loc: *const XmpcLoc,
    t: *mut xmpc_template,
    onto: *const xmpc_nodes,
    formats: *const c_int,
    args: *const c_long,
    gblock_maps: *const *const c_long,
) {
    let t = t.as_mut().unwrap_or_else(|| fatal(loc, "no template"));
    let Some(nodes) = onto.as_ref() else { fatal(loc, "distribute onto no node set") };
    let n = t.ndims();
    t.formats = std::slice::from_raw_parts(formats, n).to_vec();
    t.args = vec_of(args, n);
    t.maps = vec![None; n];
    let mut k = 0;
    for d in 0..n {
        if t.formats[d] == crate::dist::DUP {
            continue;
        }
        if !gblock_maps.is_null() {
            let m = *gblock_maps.add(d);
            if !m.is_null() && k < nodes.dims.len() {
                t.maps[d] = Some(std::slice::from_raw_parts(m, nodes.dims[k] as usize).to_vec());
            }
        }
        k += 1;
    }
    t.onto = onto;
    guard(loc, || t.build().unwrap_or_else(|e| fatal(loc, &e)))
}
/// The nodes a template is distributed onto (loop reductions, `on t(...)`).
#[no_mangle]
pub extern "C" fn xmpc_template_nodes(t: *const xmpc_template) -> *const xmpc_nodes {
    // SAFETY: template handles are never freed.
    unsafe { t.as_ref() }.map_or(std::ptr::null(), |t| t.onto)
}

/// `on t[lo:hi:st, ...]` (bcast, reduction, barrier): the nodes owning at least one
/// selected template index in every distributed dimension (per template dim, template
/// indices; st == 0: the whole dimension; lo LONG_MIN / hi LONG_MAX: the template's
/// bound). Cached per (template, selection), so a
/// directive may call it each time it runs. Called by all executing nodes.
#[no_mangle]
pub unsafe extern "C" fn xmpc_template_nodes_sub(
    loc: *const XmpcLoc,
    t: *const xmpc_template,
    lo: *const c_long,
    hi: *const c_long,
    st: *const c_long,
) -> *const xmpc_nodes {
    let Some(t) = t.as_ref() else { fatal(loc, "on no template") };
    let Some(n) = t.nodes() else { fatal(loc, "`on` a template that is not distributed") };
    let nd = t.ndims();
    let sl = |p: *const c_long| -> Vec<i64> { std::slice::from_raw_parts(p, nd).to_vec() };
    let (lo, hi, st) = (sl(lo), sl(hi), sl(st));
    guard(loc, || {
        let per = owner_coords(t, n, &lo, &hi, &st).unwrap_or_else(|e| fatal(loc, &e));
        let idx = n.select_coords(&per);
        let key = (t as *const _ as usize, idx.clone());
        if let Some(h) = crate::state::with(|s| s.templ_nodes.get(&key).copied()) {
            return h as *const xmpc_nodes;
        }
        let dims: Vec<i64> = per.iter().map(|v| v.len() as i64).collect();
        let h = Box::into_raw(Box::new(n.subset(dims, &idx)));
        crate::state::with(|s| s.templ_nodes.insert(key, h as usize));
        h as *const xmpc_nodes
    })
}

/// Per node dim, the (0-based, ascending) coordinates owning a selected index.
fn owner_coords(t: &Template, n: &Nodes, lo: &[i64], hi: &[i64], st: &[i64]) -> Result<Vec<Vec<i64>>, String> {
    let mut per: Vec<Option<Vec<i64>>> = vec![None; n.dims.len()];
    for d in 0..t.ndims() {
        let k = t.node_dim[d];
        if k < 0 || st[d] == 0 {
            continue;
        }
        let l = if lo[d] == c_long::MIN { t.lower[d] } else { lo[d] };
        let h = if hi[d] == c_long::MAX { t.upper[d] } else { hi[d] };
        if st[d] < 0 || l > h || l < t.lower[d] || h > t.upper[d] {
            return Err(format!("template reference {l}:{h}:{} is outside {}:{}", st[d], t.lower[d], t.upper[d]));
        }
        let nk = n.dims[k as usize];
        let mut seen = vec![false; nk as usize];
        let mut i = l;
        let mut left = nk;
        while i <= h && left > 0 {
            let c = t.dist[d].owner(i);
            if !seen[c as usize] {
                seen[c as usize] = true;
                left -= 1;
            }
            i += st[d];
        }
        per[k as usize] = Some((0..nk).filter(|&c| seen[c as usize]).collect());
    }
    Ok(per.into_iter().enumerate().map(|(k, p)| p.unwrap_or_else(|| (0..n.dims[k]).collect())).collect())
}
