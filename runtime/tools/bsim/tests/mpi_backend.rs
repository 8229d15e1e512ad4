//! The mpi back end: skeletons linked with mpicc and libxmpc_bsim_mpi.a run
//! both as contexts (BSIM_BACKEND=contexts, one process; threads for Fortran) and as real MPI
//! processes (`mpiexec -n N`, BSIM_BACKEND=mpi). Both must predict the same
//! times, equal to closed forms computed here from the platform numbers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod common;
use common::*;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn work() -> &'static Path {
    static D: OnceLock<PathBuf> = OnceLock::new();
    D.get_or_init(|| {
        let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bsim-mpi-tests");
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("p.toml"), PLATFORM).unwrap();
        d
    })
}

/// Compile and link a program with the mpi main (`mpi`) or the threads-only main.
fn build(name: &str, mpi: bool) -> PathBuf {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let exe = work().join(format!("{}{}", name.replace('.', "_"), if mpi { "_mpi" } else { "" }));
    if exe.exists() {
        return exe;
    }
    let fortran = name.ends_with(".f90");
    let cc = match (mpi, fortran) {
        (true, true) => "mpif90",
        (true, false) => "mpicc",
        (false, true) => "gfortran",
        (false, false) => "cc",
    };
    let mut c = Command::new(cc);
    c.arg("-O1").arg(format!("-I{}", dir().join("include").display()));
    c.arg(dir().join("tests/programs").join(name)).arg("-o").arg(&exe);
    c.arg(libdir().join(if mpi { "libxmpc_bsim_mpi.a" } else { "libxmpc_bsim_main.a" })).arg(staticlib());
    c.args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"]);
    let out = c.output().unwrap_or_else(|e| panic!("cannot run {cc}: {e}"));
    assert!(out.status.success(), "{c:?}\n{}", String::from_utf8_lossy(&out.stderr));
    exe
}

/// Run under one back end; `mpi`: `mpiexec -n np` with BSIM_BACKEND=mpi.
fn run_env(name: &str, backend: &str, np: u32, args: &[&str], env: &[(&str, &str)]) -> Output {
    let exe = build(name, true);
    let mut c = if backend == "mpi" {
        let mut c = Command::new("mpiexec");
        c.arg("-n").arg(np.to_string()).arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    c.args(args)
        .env("BSIM_BACKEND", backend)
        .env("BSIM_NP", np.to_string())
        .env("BSIM_PLATFORM", work().join("p.toml"))
        .env("BSIM_QUIET", "1")
        .env("BSIM_HOST_TIME", "0")
        .env("BSIM_PROGRESS", "0")
        .env_remove("BSIM_OUT")
        .env_remove("BSIM_PAYLOAD")
        .env_remove("BSIM_TRACE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn run(name: &str, backend: &str, np: u32, args: &[&str]) -> String {
    let out = run_env(name, backend, np, args, &[]);
    assert!(out.status.success(), "{name} {backend} -np {np} {args:?}: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// "rank R ... T" lines (T last) -> times by rank.
fn rank_times(s: &str) -> Vec<f64> {
    let mut v: Vec<(usize, f64)> = s
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 3 && f[0] == "rank").then(|| (f[1].parse().unwrap(), f[f.len() - 1].parse().unwrap()))
        })
        .collect();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

/// Both back ends: per-rank times, checked equal (to 1e-12 relative) and returned.
fn both(name: &str, np: u32, args: &[&str]) -> Vec<f64> {
    let t = rank_times(&run(name, "contexts", np, args));
    let m = rank_times(&run(name, "mpi", np, args));
    assert_eq!(t.len(), np as usize, "{name} {args:?}");
    assert_eq!(m.len(), np as usize, "{name} {args:?}");
    for (a, b) in t.iter().zip(&m) {
        assert!(close(*b, *a), "{name} -np {np} {args:?}: contexts {t:?} mpi {m:?}");
    }
    m
}

fn time_line(s: &str) -> f64 {
    s.lines().find_map(|l| l.strip_prefix("time ")).unwrap_or_else(|| panic!("no time in {s}")).split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn pingpong_eager_and_rendezvous() {
    // 65536 and 1 MiB are at/above the eager threshold: rendezvous
    for np in [2u32, 4] {
        for bytes in [1u64, 1000, 65536, 1 << 20] {
            let a = [bytes.to_string(), "5".into()];
            let a: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
            let t = time_line(&run("pingpong.c", "contexts", np, &a));
            let m = time_line(&run("pingpong.c", "mpi", np, &a));
            let want = 10.0 * msg(bytes);
            assert!(close(t, want) && close(m, want), "{bytes} B np {np}: contexts {t} mpi {m} want {want}");
        }
    }
}

#[test]
fn pipeline_waits_and_report() {
    for np in [2u32, 4] {
        let (t0, c, b) = (1e-3, 5e-5, 4096u64);
        let t = both("pipeline.c", np, &["1e-3", "5e-5", "4096"]);
        for (i, ti) in t.iter().enumerate() {
            let want = if i == 0 { t0 } else { t0 + i as f64 * (msg(b) + c) };
            assert!(close(*ti, want), "rank {i}: {ti} != {want}");
        }
    }
    // the reports of both back ends agree on every per-rank figure
    let mut reps = vec![];
    for be in ["contexts", "mpi"] {
        let d = work().join(format!("rep-{be}"));
        let out = run_env("pipeline.c", be, 4, &["1e-3", "5e-5", "100"], &[("BSIM_OUT", d.to_str().unwrap())]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join("report.json")).unwrap()).unwrap();
        assert_eq!(v["backend"], be);
        assert!(std::fs::read_to_string(d.join("report.txt")).unwrap().contains("predicted"));
        reps.push(v);
    }
    let want = 1e-3 + 3.0 * (msg(100) + 5e-5);
    assert!(close(reps[1]["predicted_time"].as_f64().unwrap(), want), "{}", reps[1]);
    assert_eq!(reps[1]["slowest_rank"], 3);
    assert!(close(reps[1]["ranks"][3]["wait"].as_f64().unwrap(), 1e-3 + 2.0 * (msg(100) + 5e-5)), "{}", reps[1]);
    assert_eq!(reps[1]["ranks"].as_array().unwrap().len(), 4);
    for (r, (a, b)) in reps[0]["ranks"].as_array().unwrap().iter().zip(reps[1]["ranks"].as_array().unwrap()).enumerate() {
        for k in ["end", "compute", "comm", "wait"] {
            assert!(close(b[k].as_f64().unwrap(), a[k].as_f64().unwrap()) || a[k] == b[k], "rank {r} {k}: {a} vs {b}");
        }
        for k in ["calls", "sends", "recvs", "colls", "bytes_sent"] {
            assert_eq!(a[k], b[k], "rank {r} {k}");
        }
    }
}

#[test]
fn halo_isend_irecv_waitall() {
    // 8192 B eager, 100000 B rendezvous; np 2 exchanges with itself along y
    for np in [2u32, 4] {
        for b in [8192u64, 100_000] {
            let t = both("halo.c", np, &["10", "1e-4", &b.to_string(), "all"]);
            let want = 10.0 * (1e-4 + msg(b)) + (np as f64).log2() * msg(8);
            for x in &t {
                assert!(close(*x, want), "np {np} {b} B: {x} != {want}");
            }
        }
    }
}

#[test]
fn collectives_p2p_mode() {
    let (late, b) = (1e-3, 1000u64);
    let m = msg(b);
    // np 4, rank 3 late by 1 ms. Binomial bcast 0->2, 0->1, 2->3.
    let t = both("colltime.c", 4, &["bcast", "1000", "1e-3"]);
    assert!(close(t[0], 0.0) && close(t[1], m) && close(t[2], m) && close(t[3], late), "{t:?}");
    // recursive doubling: (0,1)(2,3) then (0,2)(1,3)
    let t = both("colltime.c", 4, &["allreduce", "1000", "1e-3"]);
    assert!(close(t[0], late + 2.0 * m) && close(t[1], late + m) && close(t[2], late + m) && close(t[3], late), "{t:?}");
    for np in [2u32, 4] {
        let rounds = (np as f64).log2();
        for x in both("colltime.c", np, &["barrier", "0", "0"]) {
            assert!(close(x, rounds * msg(0)), "barrier np {np}: {x}");
        }
        for op in ["allgather", "alltoall"] {
            for x in both("colltime.c", np, &[op, "1000", "0"]) {
                assert!(close(x, (np - 1) as f64 * m), "{op} np {np}: {x}");
            }
        }
    }
    let t = both("colltime.c", 2, &["bcast", "1000", "0"]);
    assert!(close(t[0], 0.0) && close(t[1], m), "{t:?}");
}

#[test]
fn collectives_table_mode() {
    let d = work().join("table");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("coll.csv"), "op,procs,bytes,seconds\nallreduce,2,8,1e-5\nallreduce,4,8,3e-5\nbcast,2,8,4e-5\nbcast,4,8,5e-5\n").unwrap();
    std::fs::write(d.join("t.toml"), format!("{PLATFORM}[collectives]\nmode = \"table\"\ntable = \"coll.csv\"\n")).unwrap();
    let p = d.join("t.toml");
    let env = [("BSIM_PLATFORM", p.to_str().unwrap())];
    for (np, op, secs) in [(2u32, "allreduce", 1e-5), (4, "allreduce", 3e-5), (2, "bcast", 4e-5), (4, "bcast", 5e-5)] {
        // everybody leaves at the latest arrival (rank 3: 1 ms late) + the table time
        let start = if np == 4 { 1e-3 } else { 0.0 };
        let mut res = vec![];
        for be in ["contexts", "mpi"] {
            let out = run_env("colltime.c", be, np, &[op, "8", "1e-3"], &env);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            res.push(rank_times(&String::from_utf8_lossy(&out.stdout)));
        }
        assert_eq!(res[0].len(), np as usize);
        assert_eq!(res[0], res[1], "{op} np {np}");
        for x in &res[1] {
            assert!(close(*x, start + secs), "{op} np {np}: {x}");
        }
    }
}

#[test]
fn comm_split_and_dup() {
    // Communicator creation as SMPI 3.32 does it (issue 38, FT's two splits cost
    // p-1 latencies each as a ring allgather): split = linear gather of
    // (color, key) on rank 0 (8 B), rank 0 sends each member of each group the
    // group (8 B), each new communicator broadcasts its id (4 B, binomial from
    // its rank 0); dup = that broadcast alone. Halves of 2 then: allreduce 8 B
    // (one round), dup, barrier (one empty message), Sendrecv 100 B. Eager
    // messages leave before their receive is posted on this platform, so the
    // new ranks 0 (world 2, 3) finish one 100 B message after the others' send.
    let (m4, m8) = (msg(4), msg(8));
    let out = run("commsplit.c", "mpi", 4, &[]);
    for (r, want_sub) in [(0, 1), (1, 1), (2, 0), (3, 0)] {
        assert!(out.contains(&format!("rank {r} sub {want_sub} ")), "key order: {out}");
    }
    let t = both("commsplit.c", 4, &[]);
    for r in 0..4 {
        let want = if r < 2 { 3.0 * m8 + 2.0 * m4 + msg(0) + msg(100) } else { 3.0 * m8 + 2.0 * m4 + msg(100) };
        assert!(close(t[r], want), "np 4 rank {r}: {t:?}");
    }
    // halves of one rank: the gather, rank 0's message to rank 1, the message to itself
    let t = both("commsplit.c", 2, &[]);
    assert!(close(t[0], m8 + msg(100)), "np 2 rank 0: {t:?}");
    assert!(close(t[1], 2.0 * m8 + msg(100)), "np 2 rank 1: {t:?}");
}

#[test]
fn nodes_and_intranode_links() {
    // 2 ranks per node: the halo mixes intranode and network messages
    let d = work().join("nodes");
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("n.toml");
    std::fs::write(&p, format!("{PLATFORM}[nodes]\nranks_per_node = 2\n[intranode]\nlatency = 1e-7\nbandwidth = 1e10\n")).unwrap();
    let env = [("BSIM_PLATFORM", p.to_str().unwrap())];
    let mut res = vec![];
    for be in ["contexts", "mpi"] {
        let out = run_env("halo.c", be, 4, &["3", "1e-4", "20000", "all"], &env);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        res.push(rank_times(&String::from_utf8_lossy(&out.stdout)));
    }
    assert_eq!(res[0], res[1]);
    // 2x2 grid: x neighbours share a node, y neighbours do not; the Waitall
    // ends with the slower (network) message
    let net = msg(20000);
    let allreduce = (1e-7 + 8.0 / 1e10) + msg(8); // round 1 within a node, round 2 across
    for x in &res[1] {
        assert!(close(*x, 3.0 * (1e-4 + net) + allreduce), "{x}");
    }
}

#[test]
fn fortran_skeleton() {
    let t = time_line(&run("pingpong.f90", "threads", 2, &[]));
    let m = time_line(&run("pingpong.f90", "mpi", 2, &[]));
    let want = 8.0 * msg(1000) + 4.0 * 1e-3;
    assert!(close(t, want) && close(m, want), "threads {t} mpi {m} want {want}");
}

#[test]
fn diagnostics() {
    // a threads-only executable asked for the mpi back end
    let exe = build("pingpong.c", false);
    let out =
        Command::new(&exe).args(["1", "1"]).env("BSIM_BACKEND", "mpi").env("BSIM_HOST_TIME", "0").env("BSIM_PLATFORM", work().join("p.toml")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("libxmpc_bsim_mpi.a"), "{}", String::from_utf8_lossy(&out.stderr));
    // BSIM_NP disagrees with the number of processes
    let out = run_env("pingpong.c", "mpi", 2, &["1", "1"], &[("BSIM_NP", "3")]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("BSIM_NP=3 but mpiexec started 2 processes"), "{}", String::from_utf8_lossy(&out.stderr));
    // payload mode is threads-only
    let out = run_env("pingpong.c", "mpi", 2, &["1", "1"], &[("BSIM_PAYLOAD", "1")]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("payload mode"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
}

#[test]
fn persistent_requests_and_waitsome_in_both_back_ends() {
    for (np, b) in [(2u32, 1000u64), (4, 100_000)] {
        let t = both("persist.c", np, &["10", &b.to_string()]);
        for x in &t {
            assert!(close(*x, 10.0 * msg(b)), "np {np} {b} B: {x}");
        }
    }
    // one sender: Waitsome returns it alone in both back ends
    let want = 1e-3 + msg(4);
    for be in ["contexts", "mpi"] {
        let s = run("someany.c", be, 2, &["waitsome"]);
        let f: Vec<&str> = s.split_whitespace().collect();
        assert_eq!((f[0], f[1], f[4]), ("some", "1", "1"), "{be}: {s}");
        assert!(close(f[3].trim_end_matches(':').parse().unwrap(), want), "{be}: {s}");
    }
}

#[test]
fn mpi_back_end_refuses_probe_and_nonblocking_collectives() {
    for (prog, args, call) in [("probe.c", vec!["spread"], "LMPI_Probe"), ("icoll.c", vec!["iallreduce", "8", "0"], "LMPI_Iallreduce")] {
        let out = run_env(prog, "mpi", 2, &args, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{prog}: {err}");
        assert!(err.contains(call) && err.contains("not supported by the mpi back end"), "{prog}: {err}");
    }
}

/// The mpi-linked main hands section bsim_rank to the contexts back end too:
/// every rank keeps its own BSIM_RANK_VAR variables (payload mode, one process).
#[test]
fn rank_variables_with_the_mpi_main() {
    let out = run_env("rankvars.c", "contexts", 6, &[], &[("BSIM_PAYLOAD", "1")]);
    let o = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{o}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(o.matches(" ok counter").count(), 6, "{o}");
}
