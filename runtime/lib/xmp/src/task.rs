//! Tasks: the executing-nodes stack. A task's communicator is built with
//! MPI_Comm_create_group by its members only (non-members skip the task
//! without taking part) and cached per (node set, members).

use crate::err::{fatal, guard, XmpcLoc};
use crate::ffi;
use crate::nodes::{group_comm, xmpc_nodes};
use crate::state::{self, Exec};
use crate::template::xmpc_template;
use std::ffi::{c_int, c_long};

fn begin(n: &crate::nodes::Nodes, idx: Vec<usize>, nocomm: bool) -> c_int {
    if n.rank < 0 || !idx.contains(&(n.rank as usize)) {
        return 0;
    }
    let world: Vec<i32> = idx.iter().map(|&i| n.world[i]).collect();
    let rank = idx.iter().position(|&i| i == n.rank as usize).unwrap() as i32;
    let comm = if nocomm {
        ffi::comm_null()
    } else {
        let key = (n as *const _ as usize, idx.clone());
        match state::with(|s| s.task_comms.get(&key).copied()) {
            Some(c) => c,
            None => {
                let c = group_comm(n.comm, &idx);
                state::with(|s| s.task_comms.insert(key, c));
                c
            }
        }
    };
    state::with(|s| s.exec.push(Exec { world, comm, rank }));
    state::exec_changed();
    1
}
/// `task on n(lo:hi:st, ...)` (1-based; st == 0: whole dim): returns 1 when this
/// process runs the body, which must then end with xmpc_task_end(). Inside, the task's
/// nodes are the executing nodes. nocomm: no communicator is created (collectives
/// inside are errors). The task communicator is created by the members only
/// (MPI_Comm_create_group) and cached.
#[no_mangle]
pub unsafe extern "C" fn xmpc_task_begin(
    loc: *const XmpcLoc,
    n: *const xmpc_nodes,
    lo: *const c_long,
    hi: *const c_long,
    st: *const c_long,
    nocomm: c_int,
) -> c_int {
    let Some(n) = n.as_ref() else { fatal(loc, "task on no node set") };
    let nd = n.dims.len();
    let sl = |p: *const c_long| -> Vec<i64> { std::slice::from_raw_parts(p, nd).to_vec() };
    let (lo, hi, st) = (sl(lo), sl(hi), sl(st));
    guard(loc, || {
        let idx = n.select(&lo, &hi, &st).unwrap_or_else(|e| fatal(loc, &e));
        begin(n, idx, nocomm != 0)
    })
}
/// `task on t(i, ...)`: the nodes owning template index idx (one per dim; LONG_MIN: `*`).
#[no_mangle]
pub unsafe extern "C" fn xmpc_task_begin_template(loc: *const XmpcLoc, t: *const xmpc_template, idx: *const c_long, nocomm: c_int) -> c_int {
    let Some(t) = t.as_ref() else { fatal(loc, "task on no template") };
    let Some(n) = t.nodes() else { fatal(loc, "task on a template that is not distributed") };
    let idx = std::slice::from_raw_parts(idx, t.ndims()).to_vec();
    guard(loc, || {
        let nd = n.dims.len();
        let (mut lo, mut hi, mut st) = (vec![1; nd], vec![1; nd], vec![0; nd]);
        for (d, &i) in idx.iter().enumerate() {
            let k = t.node_dim[d];
            if k < 0 || i == c_long::MIN {
                continue;
            }
            if i < t.lower[d] || i > t.upper[d] {
                fatal(loc, &format!("template index {i} is outside {}:{}", t.lower[d], t.upper[d]));
            }
            let c = t.dist[d].owner(i) + 1;
            let k = k as usize;
            (lo[k], hi[k], st[k]) = (c, c, 1);
        }
        let sel = n.select(&lo, &hi, &st).unwrap_or_else(|e| fatal(loc, &e));
        begin(n, sel, nocomm != 0)
    })
}
/// Ends the task begun by the last successful xmpc_task_begin*.
#[no_mangle]
pub extern "C" fn xmpc_task_end() {
    state::with(|s| {
        if s.exec.len() > 1 {
            s.exec.pop();
        }
    });
    state::exec_changed();
}
