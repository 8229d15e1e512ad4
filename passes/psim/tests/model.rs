//! The model on known loops: counts from the IR (C and Fortran), layer conditions,
//! the ECM / roofline combination against hand-computed cycles, closed forms, and the
//! roofline knee of a bandwidth sweep.

use xmpc_ir::FileUnit;
use xmpc_psim::{model, sym::Env, BlockModel, Machine};

fn parse(name: &str, src: &str) -> FileUnit {
    let lang = xmpc_ir::Lang::from_path(name).unwrap();
    let p = xmpc_frontend::parse_source(0, name, src, lang);
    assert!(p.diags.iter().all(|d| d.severity < xmpc_ir::diag::Severity::Error), "{:?}", p.diags);
    p.unit
}

/// The models of the compute blocks of a program.
fn models(name: &str, src: &str, m: &Machine) -> Vec<BlockModel> {
    let unit = parse(name, src);
    let blocks = xmpc_passes::blocks::find(&unit, src).unwrap();
    xmpc_psim::model_blocks(&unit, src, &blocks, m)
}

/// The round-number machine of `round.toml` (shared with the CLI tests) with an overlap rule.
fn machine(overlap: &str) -> Machine {
    Machine::parse(&format!("{}[compiler]\noverlap = \"{overlap}\"\n", include_str!("round.toml"))).unwrap()
}

const STENCIL_C: &str = r#"#include <mpi.h>
int main(int argc, char **argv) {
    int n = 100, i, j;
    double *a, *b;
    MPI_Init(&argc, &argv);
    for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
            b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
    MPI_Finalize();
    return 0;
}
"#;

fn env(kv: &[(&str, f64)]) -> Env {
    kv.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn counts_a_c_stencil() {
    let m = machine("none");
    let ms = models("s.c", STENCIL_C, &m);
    let b = ms.iter().find(|b| !b.nests.iter().all(|(n, _)| n.loops.is_empty())).expect("the loop block");
    assert!(b.problems.is_empty(), "{:?}", b.problems);
    let (n, nm) = b.nests.iter().find(|(n, _)| n.loops.len() == 2).unwrap();
    assert_eq!(n.loops[0].0, "i");
    assert_eq!(n.loops[1].0, "j");
    assert_eq!(n.iterations().eval(&env(&[("n", 100.0)])).unwrap(), 98.0 * 98.0);
    assert_eq!(n.kernel.ops.add, 3.0);
    assert_eq!(n.kernel.ops.mul, 1.0);
    assert_eq!((nm.loads, nm.stores), (4, 1));
    // groups: a with offsets -n, -1, +1, +n; b with 0
    let a = nm.groups.iter().find(|g| g.array == "a").unwrap();
    let at = |p: &xmpc_psim::sym::Poly| p.to_e().eval(&env(&[("n", 100.0)])).unwrap();
    assert_eq!(a.offsets.iter().map(at).collect::<Vec<_>>(), vec![-100.0, -1.0, 1.0, 100.0]);
    assert!(nm.groups.iter().any(|g| g.array == "b" && g.stores && g.offsets.len() == 1));
    assert_eq!(n.kernel.recurrence, 0.0);
}

#[test]
fn layer_conditions_by_hand() {
    // gaps of a: 2, n-1, n-1; groups a, b (stored). Streams: a lead + b allocate + b
    // evict = 24 B always; the 2-gap hits when 2*8 + 4*2*8 = 80 B fit; the row gaps when
    // (2 + 2(n-1))*8 + 2(n-1)*8 = 32n - 16 B fit.
    let m = machine("none");
    let ms = models("s.c", STENCIL_C, &m);
    let nm = &ms.iter().flat_map(|b| b.nests.iter()).find(|(n, _)| n.loops.len() == 2).unwrap().1;
    let n100 = env(&[("n", 100.0)]);
    let lc = |cap: f64| model::layer_traffic(&nm.groups, xmpc_psim::sym::E::num(cap), true).eval(&n100).unwrap();
    assert_eq!(lc(3184.0), 24.0);
    assert_eq!(lc(3183.0), 40.0);
    assert_eq!(lc(80.0), 40.0);
    assert_eq!(lc(79.0), 48.0);
    // without write-allocate the stored b reads nothing
    assert_eq!(model::layer_traffic(&nm.groups, xmpc_psim::sym::E::num(1e9), false).eval(&n100).unwrap(), 16.0);
}

const TRIAD_C: &str = r#"#include <mpi.h>
int main(int argc, char **argv) {
    long n = 100000000, i;
    double *a, *b, *c, s = 3.0;
    MPI_Init(&argc, &argv);
    for (i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn ecm_and_roofline_by_hand() {
    // triad out of every cache: 32 B per iteration at each level (b, c, a allocate,
    // a evict). In-core: 1 add + 1 mul fused = 1 FMA on 2 pipes = 0.5 cy; instructions
    // 1 + 2 loads + 1 store + 2 (loop) = 6 / 4 = 1.5 cy; T_nOL = max(2/2, 1/1) = 1 cy.
    // Transfers: L2->L1 32/32 = 1 cy, memory->L2 32/5 = 6.4 cy.
    // ECM (no overlap): max(1.5, 1 + 1 + 6.4) = 8.4 cy; roofline max(1.5, 1, 6.4) = 6.4.
    let e = env(&[("n", 1e8)]);
    let m = machine("none");
    let b = models("t.c", TRIAD_C, &m).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap();
    let nm = &b.nests.iter().find(|(n, _)| !n.loops.is_empty()).unwrap().1;
    assert_eq!(nm.t_ol, 1.5);
    assert_eq!(nm.t_nol, 1.0);
    assert!((nm.ecm.eval(&e).unwrap() - 8.4).abs() < 1e-9, "{}", nm.ecm);
    assert!((nm.roofline.eval(&e).unwrap() - 6.4).abs() < 1e-9, "{}", nm.roofline);
    // seconds = iterations * cycles / clock
    let secs = b.seconds.eval(&e).unwrap();
    assert!((secs - 1e8 * 8.4 / 2e9).abs() < 1e-9 * secs);
    // full overlap: the slowest term
    let b = models("t.c", TRIAD_C, &machine("full")).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap();
    assert!((b.seconds.eval(&e).unwrap() - 1e8 * 6.4 / 2e9).abs() < 1e-6);
    // in L1 (n = 1000: 24 KB of data, not more than half of 32 KiB... 3*8000 = 24000 > 16384)
    // and in L2 (n = 1000 fits 512 KiB): only the L2->L1 transfer, 1 cy: ECM max(1.5, 2) = 2
    let e2 = env(&[("n", 1000.0)]);
    let nm = &models("t.c", TRIAD_C, &machine("none")).into_iter().flat_map(|b| b.nests).find(|(n, _)| !n.loops.is_empty()).unwrap().1;
    assert!((nm.ecm.eval(&e2).unwrap() - 2.0).abs() < 1e-9, "{}", nm.ecm);
}

#[test]
fn closed_form_prints_as_c_and_fortran() {
    let b = models("t.c", TRIAD_C, &machine("none")).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap();
    assert_eq!(b.vars(), vec!["n".to_string()]);
    let c = b.seconds.to_c();
    assert!(c.contains("(double)(n)") && !c.contains("dble"), "{c}");
    let f = b.seconds.to_fortran();
    assert!(f.contains("dble(n)") && f.contains("merge(") && f.contains("max("), "{f}");
}

#[test]
fn reductions_recurrences_and_invariants() {
    let src = r#"#include <mpi.h>
int main(int argc, char **argv) {
    int m = 1000, i;
    double *p, *r, s = 0.0, rho = 1.0, rho_old = 2.0;
    MPI_Init(&argc, &argv);
    for (i = 0; i < m; i++)
        s += p[i] * r[i];
    for (i = 0; i < m; i++)
        p[i] = r[i] + rho / rho_old * p[i];
    MPI_Finalize();
    return 0;
}
"#;
    let m = machine("none");
    let b = models("r.c", src, &m).into_iter().find(|b| b.nests.iter().filter(|(n, _)| !n.loops.is_empty()).count() == 2).unwrap();
    let loops: Vec<_> = b.nests.iter().filter(|(n, _)| !n.loops.is_empty()).collect();
    // s += p*r: a chain of one add per iteration, a reduction
    assert_eq!(loops[0].0.kernel.recurrence, 4.0);
    assert!(loops[0].0.kernel.reduction_only);
    assert_eq!(loops[0].0.kernel.ops.add, 1.0);
    // rho / rho_old is loop-invariant: hoisted, no divide per iteration
    assert_eq!(loops[1].0.kernel.ops.div, 0.0);
    assert_eq!(loops[1].0.kernel.ops.mul, 1.0);
    assert_eq!(loops[1].0.kernel.recurrence, 0.0);
}

const STENCIL_F: &str = "program t
  use mpi
  integer :: n, i, j, ierr
  double precision, allocatable :: u(:,:), v(:,:)
  call MPI_Init(ierr)
  n = 50
  allocate(u(0:n+1, 0:n+1), v(0:n+1, 0:n+1))
  do j = 1, n
    do i = 1, n
      v(i, j) = (u(i-1, j) + u(i+1, j)) * 0.5d0 + u(i, j-1) * u(i, j+1)
    end do
  end do
  v = u
  call MPI_Finalize(ierr)
end program
";

#[test]
fn counts_a_fortran_stencil_and_array_syntax() {
    let m = machine("none");
    let ms = models("t.f90", STENCIL_F, &m);
    let b = ms.iter().find(|b| b.nests.iter().any(|(n, _)| n.loops.len() == 2)).unwrap();
    assert!(b.problems.is_empty(), "{:?}", b.problems);
    let (n, nm) = b.nests.iter().find(|(n, _)| n.loops.len() == 2 && n.loops[0].0 == "j").unwrap();
    assert_eq!(n.loops[1].0, "i", "the first dimension is innermost");
    assert_eq!((n.kernel.ops.add, n.kernel.ops.mul), (2.0, 2.0));
    assert_eq!((nm.loads, nm.stores), (4, 1));
    // u's second dimension has stride n+2 (from the allocate statement)
    let u = nm.groups.iter().find(|g| g.array == "u").unwrap();
    let e = env(&[("n", 50.0)]);
    assert_eq!(u.offsets.iter().map(|p| p.to_e().eval(&e).unwrap()).collect::<Vec<_>>(), vec![-52.0, -1.0, 1.0, 52.0]);
    // `v = u`: a nest over the whole (n+2)^2 array, one load and one store stream
    let (cn, cm) = b.nests.iter().find(|(n, _)| n.loops.len() == 2 && n.loops[0].0.contains("__s")).expect("the array assignment's nest");
    assert_eq!(cn.iterations().eval(&e).unwrap(), 52.0 * 52.0);
    assert_eq!((cm.loads, cm.stores), (1, 1));
    // with 4 lanes, the copy is a memcpy (vectors) though this machine's compiler
    // vectorises no loop; the stencil stays scalar
    let mut m4 = m.clone();
    m4.set("lanes", 4.0).unwrap();
    let ms = models("t.f90", STENCIL_F, &m4);
    let b = ms.iter().find(|b| b.nests.iter().any(|(n, _)| n.loops.len() == 2)).unwrap();
    let lanes = |copy: bool| b.nests.iter().find(|(n, _)| n.loops.len() == 2 && n.loops[0].0.contains("__s") == copy).unwrap().1.lanes;
    assert_eq!((lanes(true), lanes(false)), (4.0, 1.0));
}

#[test]
fn what_the_model_cannot_read_is_a_located_problem() {
    let src = r#"#include <mpi.h>
int main(int argc, char **argv) {
    int i = 0;
    double *a, s = 0.0;
    MPI_Init(&argc, &argv);
    while (s < 10.0) {
        s += a[i];
        i++;
    }
    MPI_Finalize();
    return 0;
}
"#;
    let ms = models("w.c", src, &machine("none"));
    let b = ms.iter().find(|b| !b.problems.is_empty()).expect("a problem");
    let (sp, msg) = &b.problems[0];
    assert!(msg.contains("while"), "{msg}");
    assert_eq!(&src[sp.start..sp.start + 5], "while");
    let d = b.diags(0);
    assert_eq!(d[0].code.as_deref(), Some("XMP0850"));
}

#[test]
fn bandwidth_sweep_has_its_roofline_knee_where_the_physics_puts_it() {
    // triad from memory with full overlap: T = max(T_core, 32 B / bw) per iteration, so
    // the time is flat above bw* = 32 B * clock / T_core and grows as 1/bw below it.
    // T_core = 1.5 cy (issue), clock 2 GHz: bw* = 32 * 2 / 1.5 = 42.67 GB/s.
    let e = env(&[("n", 1e8)]);
    let t = |bw: f64| {
        let mut m = machine("full");
        m.set("bandwidth", bw).unwrap();
        models("t.c", TRIAD_C, &m).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap().seconds.eval(&e).unwrap()
    };
    // L2 (32 B/cy at 32 B per iteration: 1 cy) is below the core's 1.5, so memory is the
    // only level that can bound
    let knee = 32.0 * 2.0 / 1.5;
    let flat = t(knee);
    assert!((t(2.0 * knee) - flat).abs() < 1e-12 * flat, "flat above the knee");
    assert!((t(4.0 * knee) - flat).abs() < 1e-12 * flat);
    assert!((t(knee / 2.0) / flat - 2.0).abs() < 1e-9, "1/bw below the knee");
    assert!((t(knee / 4.0) / flat - 4.0).abs() < 1e-9);
    assert!(t(0.99 * knee) > flat && (t(1.01 * knee) - flat).abs() < 1e-12 * flat);
    // more lanes do not help a memory-bound loop, and do help a compute-bound one
    let mut m = machine("full");
    m.compiler.vectorize = true;
    let s1 = models("t.c", TRIAD_C, &m).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap().seconds.eval(&e).unwrap();
    m.set("lanes", 8.0).unwrap();
    let s8 = models("t.c", TRIAD_C, &m).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap().seconds.eval(&e).unwrap();
    assert_eq!(s1, s8, "memory-bound");
    let small = env(&[("n", 1000.0)]);
    let c1 = {
        let mut m = machine("full");
        m.compiler.vectorize = true;
        models("t.c", TRIAD_C, &m).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap().seconds.eval(&small).unwrap()
    };
    let c8 = models("t.c", TRIAD_C, &m).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap().seconds.eval(&small).unwrap();
    assert!(c8 < c1, "in cache, 8 lanes are faster: {c8} vs {c1}");
}

/// An in-core source that times line 7 (the triad's statement) at 3.25 cycles per pass
/// of a 2-lane loop, and cannot time any other line.
struct Fake;
impl xmpc_psim::InCore for Fake {
    fn time(&self, line: u32) -> Result<model::Mca, String> {
        if line == 7 {
            Ok(model::Mca { cycles: 3.25 / 2.0, lanes: 2.0 })
        } else {
            Err(format!("no loop at line {line}"))
        }
    }
}

#[test]
fn incore_from_llvm_mca_replaces_the_pipe_table() {
    let src = TRIAD_C;
    let unit = parse("t.c", src);
    let blocks = xmpc_passes::blocks::find(&unit, src).unwrap();
    let loop_block = |m: &Machine, i: Option<&dyn xmpc_psim::InCore>| {
        xmpc_psim::model_blocks_with(&unit, src, &blocks, m, i).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap()
    };
    let mut m = machine("none");
    // `table`: the provider is not asked
    let b = loop_block(&m, Some(&Fake));
    let nm = &b.nests[0].1;
    assert_eq!((nm.t_ol, nm.t_nol, nm.mca), (1.5, 1.0, None));
    m.core.incore = "llvm-mca".into();
    let b = loop_block(&m, Some(&Fake));
    let nm = &b.nests[0].1;
    // T_OL = llvm-mca's 1.625 cy/it; T_nOL = max(2 loads / 2, 1 store / 1) / 2 lanes = 0.5;
    // the table's figure is kept for comparison
    assert_eq!((nm.t_ol, nm.t_nol, nm.table_incore, nm.lanes), (1.625, 0.5, 1.5, 2.0));
    assert!(b.fallbacks.is_empty(), "{:?}", b.fallbacks);
    // in cache (n = 1000, L2): ECM max(1.625, 0.5 + 1 (L2->L1)) = 1.625, the in-core time
    let e = env(&[("n", 1000.0)]);
    assert!((b.seconds.eval(&e).unwrap() - 1000.0 * 1.625 / 2e9).abs() < 1e-15, "{}", b.seconds);
    // from memory: max(1.625, 0.5 + 1 + 6.4) = 7.9 (T_nOL at the assembly's lanes)
    let e = env(&[("n", 1e8)]);
    assert!((b.seconds.eval(&e).unwrap() - 1e8 * 7.9 / 2e9).abs() < 1e-9, "{}", b.seconds);
    // no provider, or one that cannot time the loop: the table's time, and the reason
    for (i, why) in [(None, "llvm-mca was not run"), (Some(&Fake as &dyn xmpc_psim::InCore), "")] {
        let src2 = src.replace("    for (i = 0;", "\n    for (i = 0;");
        let unit2 = parse("t.c", &src2);
        let blocks2 = xmpc_passes::blocks::find(&unit2, &src2).unwrap();
        let b = xmpc_psim::model_blocks_with(&unit2, &src2, &blocks2, &m, i).into_iter().find(|b| b.nests.iter().any(|(n, _)| !n.loops.is_empty())).unwrap();
        let nm = &b.nests[0].1;
        assert_eq!((nm.t_ol, nm.t_nol, nm.mca), (1.5, 1.0, None));
        let want = if why.is_empty() { "line 8: no loop at line 8".to_string() } else { format!("line 8: {why}") };
        assert_eq!(b.fallbacks, vec![want]);
    }
}

/// `memory.reuse_cost`: while a loop streams from memory, the bytes L1 misses that L2
/// serves (the stencil's previous rows) are paid at the memory bandwidth, in series with
/// the memory transfer; the node's shared bandwidth stays a bound of its own.
#[test]
fn reuse_cost_adds_the_cache_hits_of_a_stencil_streaming_from_memory() {
    // n = 10000: rows of 80 KB. L1 (16 KiB counted): the 2-gap hits, the row gaps miss:
    // 40 B per iteration; L2 (512 KiB counted): 32n - 16 B fit, 24 B; reused 16 B.
    // In-core: T_OL = max(1.5 flops, 10 instructions / 4) = 2.5, T_nOL = 2. Transfers:
    // L2 -> L1 40/32 = 1.25 cy, memory 24/5 = 4.8 cy. Full overlap: 4.8 cy.
    let at = |n: f64| env(&[("n", n), (xmpc_psim::sym::NODE_RANKS, 2.0)]);
    // (T_OL, T_nOL, ECM cycles out of cache, ECM cycles in cache) with `memory` lines added
    let ecm = |memory: &str, cores: u32| {
        let src =
            include_str!("round.toml").replace("latency_ns = 80", &format!("latency_ns = 80\n{memory}")).replace("cores = 1", &format!("cores = {cores}"));
        let m = Machine::parse(&format!("{src}[compiler]\noverlap = \"full\"\n")).unwrap();
        let nm = models("s.c", STENCIL_C, &m).into_iter().flat_map(|b| b.nests).find(|(n, _)| n.loops.len() == 2).unwrap().1;
        (nm.t_ol, nm.t_nol, nm.ecm.eval(&at(10000.0)).unwrap(), nm.ecm.eval(&at(100.0)).unwrap())
    };
    let (t_ol, t_nol, plain, in_cache) = ecm("", 1);
    assert_eq!((t_ol, t_nol), (2.5, 2.0));
    assert!((plain - 4.8).abs() < 1e-9, "{plain}");
    // + 1.0 * 16 B / 5 B/cy = 3.2 cy; half the cost, half the penalty
    assert!((ecm("reuse_cost = 1.0", 1).2 - 8.0).abs() < 1e-9);
    assert!((ecm("reuse_cost = 0.5", 1).2 - 6.4).abs() < 1e-9);
    assert_eq!(ecm("reuse_cost = 0.0", 1).2, plain);
    // in cache (n = 100) nothing streams from memory: no penalty
    assert_eq!(ecm("reuse_cost = 1.0", 1).3, in_cache);
    // two ranks on a 2-core node sharing 10 GB/s: the memory's own bound, 4.8 * 2 = 9.6
    // cy, is above the core's 8.0; sharing 15 GB/s (4.8 * 4/3 = 6.4) it is below
    let shared = |sock: f64| ecm(&format!("reuse_cost = 1.0\nsocket_bandwidth_gbs = {sock}"), 2).2;
    assert!((shared(10.0) - 9.6).abs() < 1e-9, "{}", shared(10.0));
    assert!((shared(15.0) - 8.0).abs() < 1e-9, "{}", shared(15.0));
    // without the penalty the share multiplies the transfer, as before
    assert!((ecm("socket_bandwidth_gbs = 15", 2).2 - 6.4).abs() < 1e-9);
}
