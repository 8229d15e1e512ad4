//! Layer conditions (traffic per cache level) and the ECM / roofline combination,
//! as closed forms in the program's variables.

use xmpc_psim_machine::Machine;

use crate::count::{Kernel, Nest};
use crate::sym::{Poly, E};
use std::ops::{Add, Div, Mul, Sub};

/// One group of references: the same array walked with the same loop coefficients.
#[derive(Clone, Debug)]
pub struct Group {
    pub array: String,
    /// Distinct offsets (elements), ascending.
    pub offsets: Vec<Poly>,
    pub stores: bool,
    /// Bytes one access moves per iteration once streaming (element, or a line).
    pub bytes: f64,
    /// Element size.
    pub elem: f64,
    /// Which loops of the nest move this group's addresses (others repeat the same data).
    pub moves: Vec<bool>,
}

/// The per-iteration model of one nest.
#[derive(Clone, Debug)]
pub struct NestModel {
    pub iterations: E,
    pub flops: f64,
    pub loads: usize,
    pub stores: usize,
    pub groups: Vec<Group>,
    /// Vector lanes the kernel was counted with (1: scalar).
    pub lanes: f64,
    /// In-core cycles per iteration: overlapping (arithmetic) and non-overlapping (L1 loads/stores).
    pub t_ol: f64,
    pub t_nol: f64,
    /// The pipe table's in-core cycles per iteration, max(T_OL, T_nOL), whichever model
    /// gave `t_ol` and `t_nol`.
    pub table_incore: f64,
    /// llvm-mca's timing of the nest's innermost loop, when it gave the in-core time.
    pub mca: Option<Mca>,
    /// Bytes per iteration that miss cache level l (moved from level l+1 or memory).
    pub traffic: Vec<E>,
    /// ECM cycles per iteration.
    pub ecm: E,
    /// Roofline cycles per iteration.
    pub roofline: E,
}

/// llvm-mca's timing of a nest's innermost loop as the native compiler compiled it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mca {
    /// Cycles per source iteration (llvm-mca's cycles per pass of the loop / `lanes`).
    pub cycles: f64,
    /// Source iterations one pass of the assembly loop does (its vector width).
    pub lanes: f64,
}

/// Groups of a kernel's references (loop variables of the nest: `vars`, innermost last).
pub fn groups(k: &Kernel, vars: &[String], line: f64) -> Vec<Group> {
    let mut out: Vec<(Vec<Poly>, Group)> = Vec::new();
    let inner = vars.last();
    for r in &k.refs {
        let mut coefs = Vec::new();
        let mut rest = r.index.clone();
        if let Some(p) = &r.index {
            let mut cur = p.clone();
            for v in vars {
                match cur.split(v) {
                    Some((c, re)) => {
                        coefs.push(c);
                        cur = re;
                    }
                    None => {
                        rest = None;
                        break;
                    }
                }
            }
            if rest.is_some() {
                rest = Some(cur);
            }
        }
        let Some(off) = rest else {
            // not affine: its own stream, a whole line per access
            out.push((
                vec![],
                Group {
                    array: r.array.clone(),
                    offsets: vec![Poly::default()],
                    stores: r.store,
                    bytes: line,
                    elem: r.elem_bytes,
                    moves: vec![true; vars.len()],
                },
            ));
            continue;
        };
        let cin = inner.map(|_| coefs.last().cloned().unwrap_or_default()).unwrap_or_default();
        let bytes = match cin.as_const() {
            Some(0.0) if inner.is_some() => 0.0,
            Some(c) => (c.abs() * r.elem_bytes).min(line),
            None => line,
        };
        let bytes = if inner.is_none() { r.elem_bytes } else { bytes };
        match out.iter_mut().find(|(c, g)| g.array == r.array && *c == coefs && !c.is_empty()) {
            Some((_, g)) => {
                if !g.offsets.contains(&off) {
                    g.offsets.push(off);
                }
                g.stores |= r.store;
            }
            None => {
                let moves = coefs.iter().map(|c| !c.is_zero()).collect();
                out.push((coefs, Group { array: r.array.clone(), offsets: vec![off], stores: r.store, bytes, elem: r.elem_bytes, moves }))
            }
        }
    }
    let mut gs: Vec<Group> = out.into_iter().map(|(_, g)| g).collect();
    for g in &mut gs {
        g.offsets.sort_by(|a, b| a.typical().total_cmp(&b.typical()));
    }
    gs
}

/// Bytes per iteration missing in a cache of `capacity` bytes (layer conditions):
/// the gaps between consecutive offsets of a group are reuse distances; for each
/// candidate threshold d (gaps in ascending order) the cache must hold
/// Σ_{g ≤ d} g·s + (#gaps > d + #groups)·d·s bytes; the largest d that fits makes the
/// gaps ≤ d hits, and every other gap plus each group's leading reference a stream.
/// Stores add an eviction stream. `write_allocate` off: a group only stored reads nothing.
pub fn layer_traffic(gs: &[Group], capacity: E, write_allocate: bool) -> E {
    // (gap, bytes per access of its group, element size)
    let mut gaps: Vec<(Poly, f64, f64)> = Vec::new();
    let mut base = 0.0; // leading read streams + eviction streams, in bytes
    for g in gs {
        if g.bytes == 0.0 {
            continue;
        }
        let read_lead = if !g.stores || write_allocate { 1.0 } else { 0.0 };
        base += (read_lead + if g.stores { 1.0 } else { 0.0 }) * g.bytes;
        for w in g.offsets.windows(2) {
            gaps.push((w[1].sub(&w[0]), g.bytes, g.elem));
        }
    }
    gaps.sort_by(|a, b| a.0.typical().total_cmp(&b.0.typical()));
    // candidate thresholds: each gap (ascending); t hits = gaps[..t]
    let n = gaps.len();
    let lead_groups = gs.iter().filter(|g| g.bytes > 0.0).count() as f64;
    let misses = |t: usize| -> E { E::num(base + gaps[t..].iter().map(|g| g.1).sum::<f64>()) };
    let mut expr = misses(0);
    for t in 1..=n {
        // equal gaps hit or miss together: only the last of a run is a threshold
        if t < n && gaps[t].0 == gaps[t - 1].0 {
            continue;
        }
        let d = &gaps[t - 1].0;
        let mut req = Poly::default();
        for g in &gaps[..t] {
            req = req.add(&g.0.scale(g.2));
        }
        let outside = (n - t) as f64 + lead_groups;
        req = req.add(&d.scale(outside * gaps[t - 1].2));
        expr = E::if_le(req.to_e(), capacity.clone(), misses(t), expr);
    }
    expr
}

/// Bytes per iteration written back from a cache level (one eviction stream per
/// stored group, when the data do not stay in the cache).
pub fn write_traffic(gs: &[Group]) -> f64 {
    gs.iter().filter(|g| g.stores && g.bytes > 0.0).map(|g| g.bytes).sum()
}

/// Bytes one execution of the nest touches (its working set): per group, the
/// iterations of the loops that move its addresses, plus the span of its offsets.
pub fn working_set(gs: &[Group], loops: &[(String, E)]) -> E {
    let mut w = E::num(0.0);
    for g in gs {
        let iterations =
            loops.iter().zip(g.moves.iter().chain(std::iter::repeat(&true))).filter(|(_, m)| **m).fold(E::num(1.0), |a, ((_, t), _)| E::mul(a, t.clone()));
        let span = match (g.offsets.first(), g.offsets.last()) {
            (Some(a), Some(b)) => b.sub(a).scale(g.elem).to_e(),
            _ => E::num(0.0),
        };
        let per = if g.bytes == 0.0 { g.elem } else { g.bytes };
        w = E::add(w, E::add(E::mul(iterations, E::num(per)), span));
    }
    w
}

/// The model of one nest on a machine, in-core time from the pipe table.
pub fn nest(n: &Nest, m: &Machine) -> NestModel {
    nest_with(n, m, None)
}

/// The model of one nest; with `mca`, the in-core time is llvm-mca's: T_OL = its cycles
/// per iteration (they include the loads and stores it issues), T_nOL = the loads and
/// stores over the load/store pipes at the assembly's vector width, at most T_OL, so that
/// max(T_OL, T_nOL) is llvm-mca's figure and T_nOL still adds to the transfers in ECM.
pub fn nest_with(n: &Nest, m: &Machine, mca: Option<Mca>) -> NestModel {
    let k = &n.kernel;
    let c = &m.core;
    let vars: Vec<String> = n.loops.iter().map(|(v, _)| v.clone()).collect();
    let line = m.caches[0].line_bytes as f64;
    let gs = groups(k, &vars, line);
    let loads = k.refs.iter().filter(|r| !r.store).count();
    let stores = k.refs.iter().filter(|r| r.store).count();
    // vectorised: innermost loop, machine's compiler vectorises, no calls or branches,
    // every reference contiguous or invariant, recurrences only reductions it may reassociate
    let contiguous = gs.iter().all(|g| g.bytes == 0.0 || g.bytes == g.elem);
    let rec_ok = k.recurrence == 0.0 || (k.reduction_only && m.compiler.vectorize_reductions);
    // a pure copy or fill (one store, at most one load, both contiguous, no arithmetic):
    // gcc -O2 (-ftree-loop-distribute-patterns) and gfortran's array assignments call
    // memcpy/memset (or emit `rep movs`), which move vectors whatever the trip count
    let o = &k.ops;
    let copy = stores == 1 && loads <= 1 && o.flops() + o.convert + o.libm == 0.0 && k.recurrence == 0.0;
    let compiler_vectorises = m.compiler.vectorize || (m.compiler.vectorize_constant_trips && n.const_trip) || copy;
    let lanes = if !n.loops.is_empty() && compiler_vectorises && !k.calls && !k.branches && contiguous && rec_ok { c.simd_lanes as f64 } else { 1.0 };
    let fused = if c.fma { o.add.min(o.mul) } else { 0.0 };
    let fp = (o.add + o.mul - fused + o.convert) / c.fp_pipes as f64;
    let divsqrt = o.div * c.div_cycles + o.sqrt * c.sqrt_cycles;
    // library calls (log, exp...) are not overlapped with other work: they add
    let t_ol = (fp.max(divsqrt) / lanes).max(k.recurrence / if rec_ok { lanes } else { 1.0 }) + o.libm * c.libm_cycles;
    let t_nol = (loads as f64 / c.load_pipes as f64).max(stores as f64 / c.store_pipes as f64) / lanes;
    // instructions: operations, loads, stores, a branch per `if`, loop increment and branch
    let arith = o.add + o.mul - fused + o.div + o.sqrt + o.convert;
    let load_instr = if c.fold_loads { (loads as f64 - arith).max(0.0) } else { loads as f64 };
    let instr = arith + load_instr + stores as f64 + k.branch_count + if n.loops.is_empty() { 0.0 } else { 2.0 };
    let t_ol = t_ol.max(instr / lanes / c.issue_width);
    let table_incore = t_ol.max(t_nol);
    let (t_ol, t_nol) = match mca {
        Some(x) => (x.cycles, ((loads as f64 / c.load_pipes as f64).max(stores as f64 / c.store_pipes as f64) / x.lanes.max(1.0)).min(x.cycles)),
        None => (t_ol, t_nol),
    };
    let iterations = n.iterations();
    let ws = working_set(&gs, &n.loops);
    let mut traffic = Vec::new();
    let mut transfers = Vec::new();
    let mut l1_misses = E::num(0.0);
    for (l, cache) in m.caches.iter().enumerate() {
        let cap = E::num(cache.size_kib * 1024.0 * m.compiler.cache_safety);
        let lc = layer_traffic(&gs, cap.clone(), m.compiler.write_allocate);
        if l == 0 {
            l1_misses = lc.clone();
        }
        let wb = write_traffic(&gs);
        // the whole working set stays in this level between executions
        let t = E::if_le(ws.clone(), cap, E::num(0.0), lc.clone());
        let (bw, wbw) = match m.caches.get(l + 1) {
            Some(next) => (next.bytes_per_cycle, next.write_bytes_per_cycle.unwrap_or(next.bytes_per_cycle)),
            None => (m.mem_bytes_per_cycle(), m.memory.write_bandwidth_gbs.map(|w| w / m.clock_ghz).unwrap_or(m.mem_bytes_per_cycle())),
        };
        // evictions cost their own bandwidth: reads at bw, writes at wbw
        let cost = E::add(E::div(E::sub(t.clone(), E::num(wb)), E::num(bw)), E::num(wb / wbw));
        // from memory: shared with the other ranks of the node, and in series with the
        // hits of L1's misses in the levels between (`memory.reuse_cost`)
        let cost = if l + 1 == m.caches.len() { memory_term(m, cost, E::sub(l1_misses.clone(), lc.clone())) } else { cost };
        transfers.push(E::if_le(ws.clone(), E::num(cache.size_kib * 1024.0 * m.compiler.cache_safety), E::num(0.0), cost));
        traffic.push(t);
    }
    let core = E::num(t_ol.max(t_nol));
    let (ecm, roofline) = {
        let sum = transfers.iter().cloned().fold(E::num(t_nol), E::add);
        let maxt = transfers.iter().cloned().fold(E::num(t_nol), E::max);
        let ecm = if m.compiler.overlap == "full" { E::max(E::num(t_ol), maxt.clone()) } else { E::max(E::num(t_ol), sum) };
        (ecm, E::max(core, maxt))
    };
    let lanes = mca.map_or(lanes, |x| x.lanes);
    NestModel { iterations, flops: k.ops.flops(), loads, stores, groups: gs, lanes, t_ol, t_nol, table_incore, mca, traffic, ecm, roofline }
}

/// The memory transfer of one iteration: `single` (one rank alone) with the reuse
/// penalty, `reuse_cost * max(0, reused) / bandwidth` for the bytes L1 misses that a
/// cache level below serves, added: `single + penalty`; the node's ranks share the
/// socket's bandwidth: at least `single * mem_share` (the penalty is the core's own time,
/// not the memory's, so the two bounds meet in a max).
pub fn memory_term(m: &Machine, single: E, reused: E) -> E {
    let shared = E::mul(single.clone(), mem_share(m));
    match m.memory.reuse_cost {
        Some(r) if r > 0.0 => {
            let penalty = E::mul(E::num(r / m.mem_bytes_per_cycle()), E::max(E::num(0.0), reused));
            E::max(E::add(single, penalty), shared)
        }
        _ => shared,
    }
}

/// The factor memory transfers take longer by when the node's ranks
/// ([`crate::sym::NODE_RANKS`], at most `cores`) share `memory.socket_bandwidth_gbs`:
/// `max(1, min(k, cores) * bandwidth_gbs / socket_bandwidth_gbs)`; 1 without it.
pub fn mem_share(m: &Machine) -> E {
    let Some(sock) = m.memory.socket_bandwidth_gbs else { return E::num(1.0) };
    let k = E::var(crate::sym::NODE_RANKS);
    let c = E::num(m.cores as f64);
    let kc = E::IfLe(Box::new(k.clone()), Box::new(c.clone()), Box::new(k), Box::new(c));
    E::max(E::num(1.0), E::mul(kc, E::num(m.memory.bandwidth_gbs / sock)))
}
