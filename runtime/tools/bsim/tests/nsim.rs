//! NSIM as BSIM's network model: a skeleton run with `[network] model = "nsim"`
//! against the same skeleton on the equivalent `l + s/w` platform. Expected
//! times are computed here from the NSIM configuration numbers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod common;
use common::{libdir, staticlib};

// 1-D torus of 8 nodes; neighbours are 2 routers and 1 link apart
const NSIM: &str = "[topology]\nkind = \"torus\"\ndims = [8]\n[link]\nbandwidth = \"1 GB/s\"\nlatency = \"100ns\"\n[router]\ndelay = \"50ns\"\n";
// 3x3x3 torus for the many-rank determinism check
const NSIM3D: &str = "[topology]\nkind = \"torus\"\ndims = [3, 3, 3]\n[link]\nbandwidth = \"1 GB/s\"\nlatency = \"100ns\"\n[router]\ndelay = \"50ns\"\n";
const COMMON: &str = "[overheads]\ntest = 1e-6\n[protocol]\neager_threshold = 65536\n[collectives]\nmode = \"p2p\"\n";
const W: f64 = 1e9;
/// Contention-free latency between torus neighbours: 2 routers x 50 ns + one 100 ns link.
const L_NEIGHBOUR: f64 = 2.0 * 50e-9 + 100e-9;

fn work() -> &'static Path {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bsim-nsim-tests");
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("ring8.toml"), NSIM).unwrap();
        std::fs::write(d.join("torus333.toml"), NSIM3D).unwrap();
        std::fs::write(d.join("nsim.toml"), format!("name = \"n\"\n[network]\nmodel = \"nsim\"\nconfig = \"ring8.toml\"\n{COMMON}")).unwrap();
        std::fs::write(d.join("nsim3d.toml"), format!("name = \"n3\"\n[network]\nmodel = \"nsim\"\nconfig = \"torus333.toml\"\n{COMMON}")).unwrap();
        // the same network, inline
        let inline =
            NSIM.replace("[topology]", "[network.nsim.topology]").replace("[link]", "[network.nsim.link]").replace("[router]", "[network.nsim.router]");
        std::fs::write(d.join("inline.toml"), format!("[network]\nmodel = \"nsim\"\n{inline}{COMMON}")).unwrap();
        std::fs::write(d.join("analytic.toml"), format!("name = \"a\"\n[network]\nlatency = {L_NEIGHBOUR:e}\nbandwidth = {W:e}\n{COMMON}")).unwrap();
        d
    })
}

fn exe(name: &str) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    let exe = work().join(name.replace('.', "_"));
    if built.iter().any(|b| b == name) {
        return exe;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name);
    let inc = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let mut c = Command::new("cc");
    c.arg("-O1").arg(format!("-I{}", inc.display())).arg(src).arg("-o").arg(&exe);
    c.arg(libdir().join("libxmpc_bsim_main.a")).arg(staticlib());
    c.args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"]);
    let out = c.output().expect("cannot run cc");
    assert!(out.status.success(), "{c:?}\n{}", String::from_utf8_lossy(&out.stderr));
    built.push(name.to_string());
    exe
}

fn run_prog(name: &str, platform: &str, np: u32, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(exe(name));
    c.args(args)
        .env("BSIM_NP", np.to_string())
        .env("BSIM_PLATFORM", work().join(platform))
        .env("BSIM_QUIET", "1")
        .env("BSIM_HOST_TIME", "0")
        .env("BSIM_PROGRESS", "0")
        .env_remove("BSIM_NETWORK")
        .env_remove("BSIM_PAYLOAD")
        .env_remove("BSIM_OUT");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// Run netpat on `platform` (a file in the work directory); "rank R T" lines -> T by rank.
fn run(platform: &str, np: u32, args: &[&str], env: &[(&str, &str)]) -> (Vec<f64>, String) {
    let out = run_prog("netpat.c", platform, np, args, env);
    let so = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{platform} {args:?}: {}\n{so}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    let mut v: Vec<(usize, f64)> = so
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[0] == "rank").then(|| (f[1].parse().unwrap(), f[2].parse().unwrap()))
        })
        .collect();
    v.sort_by_key(|x| x.0);
    assert_eq!(v.len(), np as usize, "{so}");
    (v.into_iter().map(|x| x.1).collect(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Contention-free latency from node `i` to node 0 on the 8-ring: h hops
/// cross h + 1 routers and h links (a tie at 4 goes either way: 4 hops).
fn l_ring(i: usize) -> f64 {
    let h = i.min(8 - i) as f64;
    (h + 1.0) * 50e-9 + h * 100e-9
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1.5e-12 // NSIM counts integer picoseconds
}

#[test]
fn contention_free_ring_equals_analytic() {
    // eager (both below and above one 2 KiB packet) and rendezvous sizes
    for bytes in [1000u64, 10000, 100000] {
        let iters = 3;
        let args = ["ring", &bytes.to_string(), &iters.to_string()];
        let (nsim, err) = run("nsim.toml", 8, &args, &[]);
        let (ana, _) = run("analytic.toml", 8, &args, &[]);
        let want = iters as f64 * (1e-6 + L_NEIGHBOUR + bytes as f64 / W);
        for r in 0..8 {
            assert!(near(nsim[r], want), "{bytes} B rank {r}: nsim {} != closed form {want}", nsim[r]);
            assert!(near(ana[r], want), "{bytes} B rank {r}: analytic {} != {want}", ana[r]);
        }
        assert!(!err.contains("late"), "{err}");
    }
    // inline [network.nsim] and --network (BSIM_NETWORK) give the same
    let (a, _) = run("inline.toml", 8, &["ring", "10000", "2"], &[]);
    let net = format!("nsim:{}", work().join("ring8.toml").display());
    let (b, _) = run("analytic.toml", 8, &["ring", "10000", "2"], &[("BSIM_NETWORK", &net)]);
    let want = 2.0 * (1e-6 + L_NEIGHBOUR + 10000.0 / W);
    assert!(a.iter().chain(&b).all(|&t| near(t, want)), "{a:?} {b:?} {want}");
}

#[test]
fn contention_free_collective_through_nsim() {
    // allreduce of 8 bytes on 2 neighbours: one recursive-doubling round
    let (nsim, _) = run("nsim.toml", 2, &["allreduce", "8", "4"], &[]);
    let (ana, _) = run("analytic.toml", 2, &["allreduce", "8", "4"], &[]);
    let want = 4.0 * (L_NEIGHBOUR + 8.0 / W);
    for r in 0..2 {
        assert!(near(nsim[r], want) && near(ana[r], want), "rank {r}: nsim {} analytic {} want {want}", nsim[r], ana[r]);
    }
}

/// A rendezvous send whose receiver waits in a barrier: the receiver must answer it
/// from inside the collective's wait, as MPI progresses there (without it both the
/// analytic and the NSIM runs ended in a deadlock report). NSIM agrees with the
/// analytic platform up to the barrier's packets sharing the link with the data.
#[test]
fn rendezvous_answered_from_a_collective_wait() {
    for np in [2, 4] {
        let args = ["rdvbar", "1048576", "1"];
        let (nsim, _) = run("nsim.toml", np, &args, &[]);
        let (ana, _) = run("analytic.toml", np, &args, &[]);
        let data = 1048576.0 / W;
        // the send starts at 10 us (the receive was posted at 0) and ends l + s/w later
        assert!(near(ana[1], 1e-5 + L_NEIGHBOUR + data), "{ana:?}");
        for r in 0..np as usize {
            assert!((nsim[r] / ana[r] - 1.0).abs() < 1e-3, "np {np} rank {r}: nsim {nsim:?} analytic {ana:?}");
        }
    }
}

#[test]
fn hot_spot_is_serialised_at_the_ejection_link() {
    let s = 16384u64;
    let np = 8;
    let (nsim, _) = run("nsim.toml", np, &["hot", &s.to_string(), "1"], &[]);
    let (ana, _) = run("analytic.toml", np, &["hot", &s.to_string(), "1"], &[]);
    // l + s/w: the seven messages arrive in parallel
    assert!(near(ana[0], L_NEIGHBOUR + s as f64 / W), "{}", ana[0]);
    // NSIM: they share node 0's ejection link, so at least 7 s/w
    let ser = (np - 1) as f64 * s as f64 / W;
    assert!(nsim[0] >= ser, "rank 0 ends at {} < {ser}", nsim[0]);
    assert!(nsim[0] > ana[0] + 5.0 * s as f64 / W, "{} vs {}", nsim[0], ana[0]);
    // eager senders leave at once either way
    assert!(nsim[1..].iter().all(|&t| t == 0.0), "{nsim:?}");
}

#[test]
fn congested_alltoall_is_slower_and_deterministic() {
    let args = ["alltoall", "4096", "2"];
    let (ana, _) = run("analytic.toml", 8, &args, &[]);
    let (first, err) = run("nsim.toml", 8, &args, &[]);
    // pairwise exchange: rank r sends to r+s; on a ring the flows share links
    let m = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    assert!(m(&first) > m(&ana) * 1.5, "nsim {} vs analytic {}", m(&first), m(&ana));
    assert!(!err.contains("late"), "{err}");
    for _ in 0..2 {
        let (again, _) = run("nsim.toml", 8, &args, &[]);
        assert_eq!(first, again);
    }
}

#[test]
fn many_ranks_deterministic() {
    // 27 ranks on a 3x3x3 torus (host scheduling varies from run to run);
    // 54 ranks: two per node, sharing the NIC
    let (first, err) = run("nsim3d.toml", 27, &["alltoall", "1024", "2"], &[]);
    assert!(!err.contains("late"), "{err}");
    for _ in 0..2 {
        let (again, _) = run("nsim3d.toml", 27, &["alltoall", "1024", "2"], &[]);
        assert_eq!(first, again);
    }
    let (h1, _) = run("nsim3d.toml", 54, &["hot", "4096", "1"], &[]);
    let (h2, _) = run("nsim3d.toml", 54, &["hot", "4096", "1"], &[]);
    assert_eq!(h1, h2);
    // rank 27 is on node 0 with rank 0: 52 messages cross node 0's ejection link
    assert!(h1[0] >= 52.0 * 4096.0 / W, "{}", h1[0]);
}

#[test]
fn any_source_waitany_test_decide_in_virtual_time() {
    let n = 6;
    let arrive = |i: usize| (n - i) as f64 * 1e-3 + l_ring(i) + 4.0 / W;
    for mode in ["recv", "waitany"] {
        let out = run_prog("anysource.c", "nsim.toml", n as u32, &[mode], &[]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let so = String::from_utf8_lossy(&out.stdout);
        let got: Vec<(usize, f64)> = so
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f[1].parse().unwrap(), f[3].parse().unwrap())
            })
            .collect();
        assert_eq!(got.iter().map(|x| x.0).collect::<Vec<_>>(), (1..n).rev().collect::<Vec<_>>(), "{mode}");
        for (src, t) in got {
            assert!(near(t, arrive(src)), "{mode}: from {src} at {t}, want {}", arrive(src));
        }
    }
    // Test polling: a failed Test costs 1e-6, the program adds 1e-4
    let out = run_prog("anysource.c", "nsim.toml", n as u32, &["test"], &[]);
    let so = String::from_utf8_lossy(&out.stdout);
    let step = 1e-4 + 1e-6;
    let k = (arrive(n - 1) / step).ceil();
    let want = format!("polls {} at ", k + 1.0);
    let t: f64 = so.strip_prefix(&want).unwrap_or_else(|| panic!("{so} vs {want}")).trim().parse().unwrap();
    assert!(near(t, k * step), "{so}");
}

#[test]
fn deadlock_and_payload_under_nsim() {
    let out = run_prog("deadlock.c", "nsim.toml", 3, &[], &[]);
    assert_eq!(out.status.code(), Some(3));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("rank 0 (t = 0.000000000e0 s) in LMPI_Recv waits on rank 1"), "{e}");
    // payload collectives still move data (meeting, then the schedule)
    for np in [2u32, 5] {
        let out = run_prog("payload.c", "nsim.toml", np, &[], &[("BSIM_PAYLOAD", "1")]);
        let so = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && so.contains("OK"), "np {np}: {so}\n{}", String::from_utf8_lossy(&out.stderr));
    }
}
