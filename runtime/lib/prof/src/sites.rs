//! Call sites (as mpiP): the return address of each profiled MPI call, resolved at
//! `MPI_Finalize` to `file:line` and the calling function through the DWARF line
//! tables of the profiled program (compile it with `-g`), in the process itself, so
//! address-space randomisation and shared libraries need no care.

use crate::acc::{site_of, SiteMap};
use crate::funcs::FUNCS;
use std::collections::HashMap;
use xmpc_prof_report::CallSite;

/// Where a return address points: (file, line, calling function).
fn locate(ra: usize) -> (String, u32, String) {
    let (mut file, mut line, mut func) = (String::new(), 0, String::new());
    // the return address is the instruction after the call: step back into the call
    backtrace::resolve((ra - 1) as *mut std::ffi::c_void, |sym| {
        // the first symbol is the innermost (inlined) frame: the line of the call itself
        if file.is_empty() {
            if let Some(f) = sym.filename() {
                file = f.display().to_string();
                line = sym.lineno().unwrap_or(0);
            }
        }
        if func.is_empty() {
            if let Some(n) = sym.name() {
                func = n.to_string();
            }
        }
    });
    (file, line, func)
}

/// The call sites of this process, ticks converted to ns; sites that resolve to the
/// same file, line and function (one source line, several call instructions) merge.
pub fn resolve(sites: &SiteMap, ticks_per_ns: f64) -> Vec<CallSite> {
    let mut cache: HashMap<usize, (String, u32, String)> = HashMap::new();
    let mut by: HashMap<(String, u32, String, String, String), CallSite> = HashMap::new();
    for (&key, acc) in sites {
        let (ra, fid) = site_of(key);
        let Some(name) = FUNCS.get(fid) else { continue };
        let (file, line, caller) = cache.entry(ra).or_insert_with(|| locate(ra)).clone();
        // without line information the address stays the only clue (as addr2line's ??:0)
        let address = if file.is_empty() { format!("{ra:#x}") } else { String::new() };
        let e = by.entry((name.to_string(), line, file.clone(), caller.clone(), address.clone())).or_insert_with(|| CallSite {
            function: name.to_string(),
            file,
            line,
            caller,
            address,
            ..Default::default()
        });
        e.calls += acc.calls;
        e.time_total_ns += acc.t_sum as f64 / ticks_per_ns;
        e.time_max_ns = e.time_max_ns.max(acc.t_max as f64 / ticks_per_ns);
        e.bytes += acc.bytes;
    }
    let mut out: Vec<CallSite> = by.into_values().collect();
    out.sort_by(|a, b| b.time_total_ns.total_cmp(&a.time_total_ns).then_with(|| (&a.file, a.line, &a.function).cmp(&(&b.file, b.line, &b.function))));
    out
}
