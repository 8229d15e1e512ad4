//! Integration tests: C programs in tests/c call the ABI directly, are built
//! with mpicc against the staticlib cargo built for this test run, and run
//! with mpiexec at several process counts. Each prints PASS from node 1.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock};

mod common;
use common::staticlib;

/// MPI jobs busy-poll; run one at a time on small machines.
static SERIAL: Mutex<()> = Mutex::new(());

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn outdir() -> &'static PathBuf {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        // inside target/tmp (Cargo's folder for integration tests), not the system /tmp,
        // where every run left its programs behind (about 600 MB)
        let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("xmpc-rt-tests-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    })
}

/// mpicc NAME.c libxmpc_rt.a <native libs> (the documented link line).
fn build(name: &str) -> PathBuf {
    let exe = outdir().join(name);
    let mpicc = std::env::var("MPICC").unwrap_or_else(|_| "mpicc".into());
    let out = Command::new(mpicc)
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(root().join("tests/c").join(format!("{name}.c")))
        .arg("-I")
        .arg(root().join("include"))
        .arg(staticlib())
        .args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"])
        .output()
        .expect("mpicc");
    assert!(out.status.success(), "mpicc {name}: {}", String::from_utf8_lossy(&out.stderr));
    exe
}

fn mpiexec(n: usize, exe: &Path, env: &[(&str, &str)]) -> Output {
    mpiexec_args(n, exe, env, &[])
}

fn mpiexec_args(n: usize, exe: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut c = Command::new("mpiexec");
    c.arg("-n").arg(n.to_string());
    c.env("UCX_ERROR_SIGNALS", "");
    for (k, v) in env {
        c.env(k, v);
    }
    c.arg(exe).args(args).output().expect("mpiexec")
}

fn run_pass(name: &str, nps: &[usize]) {
    let exe = build(name);
    for &n in nps {
        let out = mpiexec(n, &exe, &[]);
        let so = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && so.matches("PASS").count() == 1, "{name} -n {n}: {}\n{so}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn reflect_1d_block_periodic_async() {
    run_pass("reflect1d", &[1, 2, 3, 4]);
}

#[test]
fn array_free_releases_plans_and_views() {
    run_pass("array_free", &[1, 2]);
}

#[test]
fn reflect_2d_rows_columns_corners() {
    run_pass("reflect2d", &[1, 2, 4]);
}

#[test]
fn reductions_all_ops_and_locations() {
    run_pass("reduce", &[1, 2, 3, 4]);
}

#[test]
fn bcast_from_node_on_subset() {
    run_pass("bcast", &[1, 3, 4]);
}

#[test]
fn tasks_on_subsets() {
    run_pass("task", &[1, 2, 3, 4]);
}

#[test]
fn gmove_block_cyclic_gblock_local() {
    run_pass("gmove", &[1, 2, 3, 4]);
}

#[test]
fn loop_sched_covers_every_iteration_once() {
    run_pass("sched", &[1, 2, 3, 4]);
}

#[test]
fn nodes_size_mismatch_is_a_located_error() {
    let exe = build("nodes_err");
    let out = mpiexec(2, &exe, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "must fail: {err}");
    assert!(err.contains("xmpc runtime error: prog.c:7: nodes p(3): nodes size 3 does not match the number of executing nodes 2"), "{err}");
    assert!(err.contains("[rank 0]") || err.contains("[rank 1]"), "{err}");
    let ok = mpiexec(3, &exe, &[]);
    assert!(ok.status.success());
}

/// The same checked program through shared memory, through MPI only
/// (XMPC_SHM_HALO=0), and mixed (XMPC_SHM_GROUP=2: pairs of processes pretend to
/// be nodes). The count of on-node halos tells which path ran. Shared-memory slots
/// live in the node arena made at start-up (no window per plan), in a window per
/// plan without it (XMPC_SHM_ARENA=0), and in both when the arena is too small for
/// some plans (XMPC_SHM_ARENA=4096): the same halos, every cell checked each time.
#[test]
fn reflect_shm_and_mpi_paths_agree() {
    let exe = build("reflect_shm");
    let count = |n: usize, env: &[(&str, &str)]| -> (i64, i64) {
        let out = mpiexec(n, &exe, env);
        let so = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && so.contains("PASS"), "reflect_shm -n {n} {env:?}: {}\n{so}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
        let get = |key: &str| -> i64 {
            let line = so.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_else(|| panic!("no '{key}' line"));
            line.trim().parse().unwrap()
        };
        (get("shm halos "), get("shm windows "))
    };
    assert_eq!(count(1, &[]), (0, 0), "one process has no neighbour to share with");
    for n in [2, 4] {
        assert_eq!(count(n, &[("XMPC_SHM_HALO", "0")]), (0, 0));
        let (all, wins) = count(n, &[]);
        assert!(all > 0, "-n {n}: no halo went through shared memory");
        assert_eq!(wins, 0, "-n {n}: a plan made its own window although the arena had room");
        let (own, wins_own) = count(n, &[("XMPC_SHM_ARENA", "0")]);
        assert_eq!(own, all, "-n {n}: halos differ without the arena");
        assert!(wins_own > 0, "-n {n}: XMPC_SHM_ARENA=0 and no plan window");
        let (part, wins_part) = count(n, &[("XMPC_SHM_ARENA", "4096")]);
        assert_eq!(part, all, "-n {n}: halos differ with a small arena");
        assert!(wins_part > 0 && wins_part < wins_own, "-n {n}: 4 KiB arena: {wins_part} plan windows of {wins_own}");
        let (mixed, _) = count(n, &[("XMPC_SHM_GROUP", "2")]);
        if n == 4 {
            // p(2,2): the pairs {1,2}, {3,4} share memory, so only the halos
            // between neighbours along node dim 1 stay messages
            assert!(mixed > 0 && mixed < all, "-n 4: mixed {mixed}, all {all}");
            // contiguous halos (rows) above XMPC_SHM_HALO_MAX bytes go as MPI
            // messages, the strided ones (columns) stay in the slots
            let (limited, _) = count(n, &[("XMPC_SHM_HALO_MAX", "8")]);
            assert!(limited > 0 && limited < all, "-n 4: limited {limited}, all {all}");
        } else {
            assert_eq!(mixed, all);
        }
    }
}

/// Large array blocks start on different cache colours (issue 22).
#[test]
fn array_blocks_get_distinct_cache_colours() {
    run_pass("colour", &[1, 2]);
}

/// The barrier's policy counts the CPUs of the whole team: with each of 2
/// processes bound to its own core (one CPU in each own mask), the team has 2
/// (on a machine with 2 or more CPUs; MPICH binds ranks to distinct cores), and
/// such a team is pinned (its shared-memory reflect waiters do not yield).
#[test]
fn team_cpus_counts_the_union_of_bound_masks() {
    let exe = build("team_cpus");
    let online = std::thread::available_parallelism().map_or(1, |c| c.get());
    for bind in ["core", "none"] {
        let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let out = Command::new("mpiexec").args(["-bind-to", bind, "-n", "2"]).arg(&exe).output().expect("mpiexec");
        let so = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && so.contains("PASS"), "team_cpus -bind-to {bind}: {so}\n{}", String::from_utf8_lossy(&out.stderr));
        let line = so.lines().find(|l| l.starts_with("own ")).expect("no own/team line");
        let v: Vec<usize> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        if bind == "core" && online >= 2 {
            assert_eq!((v[0], v[1], v[2]), (1, 2, 1), "-bind-to core: {line}");
        } else if bind == "none" {
            assert_eq!(v[0], v[1], "unbound, every mask is the team's: {line}");
            assert_eq!(v[2], (v[0] == 1 && v[1] == 2) as usize, "unbound: pinned only if each mask is one CPU: {line}");
        }
    }
}

/// xmp barrier through FBS flags (one node; and XMPC_SHM_GROUP=2: pairs of
/// processes pretend to be nodes, so node leaders meet in MPI_Barrier) and
/// with XMPC_FBS=0 (MPI_Barrier only): per-point counters in a shared window
/// prove no process passes early, over many points with random delays.
#[test]
fn barrier_fbs_orders_every_point() {
    let exe = build("barrier");
    let points = |n: usize, env: &[(&str, &str)]| -> i64 {
        let out = mpiexec(n, &exe, env);
        let so = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && so.contains("PASS"), "barrier -n {n} {env:?}: {}\n{so}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
        so.lines().find_map(|l| l.strip_prefix("fbs points ")).expect("no point count").trim().parse().unwrap()
    };
    for n in [1, 2, 3, 4] {
        assert!(points(n, &[]) > 5000, "-n {n}: the barriers did not go through FBS");
    }
    for n in [3, 4] {
        assert!(points(n, &[("XMPC_SHM_GROUP", "2")]) > 5000);
    }
    // MPI_Barrier is slow when processes outnumber cores: fewer points
    assert_eq!(points(2, &[("XMPC_FBS", "0"), ("XMPC_TEST_ITERS", "2000")]), 0);
    assert_eq!(points(4, &[("XMPC_FBS", "0"), ("XMPC_SHM_GROUP", "2"), ("XMPC_TEST_ITERS", "1000")]), 0);
}

/// XMPC_TCA_SUBCLUSTER=2: XMP reductions and broadcasts go through the
/// TCA/InfiniBand hybrid layer (TCA emulated over a shared-memory window) and
/// give the same answers; reflect keeps working with subcluster grouping.
/// XMPC_TCA_REPORT=1 proves the layer ran; a bad value is a located error.
#[test]
fn tca_hybrid_bcast_reduction_reflect() {
    let env = [("XMPC_TCA_SUBCLUSTER", "2"), ("XMPC_TCA_REPORT", "1")];
    for (name, nps) in [("reduce", &[2, 3, 4][..]), ("bcast", &[3, 4]), ("reflect2d", &[4])] {
        let exe = build(name);
        for &n in nps {
            let out = mpiexec(n, &exe, &env);
            let (so, se) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert!(out.status.success() && so.matches("PASS").count() == 1, "{name} -n {n}: {}\n{so}\n{se}", out.status);
            let calls: Vec<u64> = se
                .lines()
                .filter_map(|l| l.strip_prefix("xmpc tca (TCA emulated over a shared-memory window): "))
                .map(|l| l.split(' ').next().unwrap().parse().unwrap())
                .collect();
            assert_eq!(calls.len(), n, "{name} -n {n}: one report per process\n{se}");
            if name != "reflect2d" {
                assert!(calls.iter().all(|&c| c > 0), "{name} -n {n}: no hybrid collective\n{se}");
            }
        }
    }
    let out = mpiexec(2, &build("reduce"), &[("XMPC_TCA_SUBCLUSTER", "two")]);
    let se = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{se}");
    assert!(se.contains("xmpc runtime error: ") && se.contains("XMPC_TCA_SUBCLUSTER=\"two\": expected a positive number"), "{se}");
}

/// Reflect with XMPC_TCA_SUBCLUSTER=2 (tests/c/reflect_tca.c: 1-3-D, every
/// orientation of the node grid, widths 1-2, periodic, async): the answers are
/// right, and XMPC_TCA_REPORT=1's reflect line shows the routes. At 2 processes
/// (one subcluster) every halo of the small cases runs on TCA chains, with all
/// three descriptor kinds (Memcpy, Memcpy2D, pack + Memcpy) and no MPI message;
/// the 320 KB contiguous halo goes over MPI. At 4 processes (two subclusters)
/// both routes run on every process. Without the variable no chain runs.
#[test]
fn reflect_through_tca_chains() {
    let exe = build("reflect_tca");
    // per process: [chains, Memcpy, Memcpy2D, packed, bytes, halos over MPI]
    let run = |n: usize, env: &[(&str, &str)], args: &[&str]| -> Vec<Vec<u64>> {
        let out = mpiexec_args(n, &exe, env, args);
        let (so, se) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && so.matches("PASS").count() == 1, "reflect_tca -n {n} {env:?} {args:?}: {}\n{so}\n{se}", out.status);
        let r: Vec<Vec<u64>> =
            se.lines().filter_map(|l| l.strip_prefix("xmpc tca reflect: ")).map(|l| l.split(' ').filter_map(|w| w.parse().ok()).collect()).collect();
        assert!(r.len() == n && r.iter().all(|x| x.len() == 6), "-n {n} {env:?}: one reflect report per process\n{se}");
        r
    };
    let tca = [("XMPC_TCA_SUBCLUSTER", "2"), ("XMPC_TCA_REPORT", "1")];
    for r in run(2, &tca, &["small"]) {
        assert!(r[0] > 0 && r[1] > 0 && r[2] > 0 && r[3] > 0 && r[4] > 0, "-n 2: a route did not run on TCA: {r:?}");
        assert_eq!(r[5], 0, "-n 2, one subcluster: a halo went over MPI: {r:?}");
    }
    for r in run(2, &tca, &[]) {
        assert!(r[0] > 0 && r[5] > 0, "-n 2: the 320 KB halo did not go over MPI: {r:?}");
    }
    for r in run(4, &tca, &["small"]) {
        assert!(r[0] > 0 && r[5] > 0, "-n 4, two subclusters: not both routes: {r:?}");
    }
    for r in run(4, &[("XMPC_TCA_REPORT", "1")], &[]) {
        assert_eq!(r[..5], [0; 5], "-n 4 without a subcluster: a TCA chain ran: {r:?}");
    }
}
