//! Exact accounting under real MPI (MPICH in CI): C and Fortran programs in
//! tests/programs send known messages; the profile must match exactly,
//! with no call counted twice. Needs mpicc, mpif90 and mpiexec.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use xmpc_prof_report::{FuncStats, PeerStats, Profile, RankProfile, SizeStats};

/// MPI jobs busy-poll; run one at a time on small machines.
static SERIAL: Mutex<()> = Mutex::new(());

fn lib_dir() -> PathBuf {
    // `cargo test` builds the cdylib into target/<profile>/deps (next to
    // this test binary) and only `cargo build` copies it one level up.
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    for dir in [deps.clone(), deps.parent().unwrap().to_path_buf()] {
        if dir.join("libxmpc_prof.so").exists() {
            return dir;
        }
    }
    panic!("libxmpc_prof.so not found next to {} or one level up", exe.display());
}

fn programs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

fn run(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    out
}

fn check(cmd: &mut Command) {
    let out = run(cmd);
    assert!(out.status.success(), "{cmd:?} failed: {}\n{}\n{}", out.status, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

fn mpiexec(n: usize, dir: &Path, exe: &Path, preload: bool, config: Option<&Path>) -> std::process::Output {
    mpiexec_args(n, dir, exe, preload, config, &[])
}

fn mpiexec_args(n: usize, dir: &Path, exe: &Path, preload: bool, config: Option<&Path>, args: &[&str]) -> std::process::Output {
    let mut c = Command::new("mpiexec");
    c.arg("-n").arg(n.to_string());
    // UCX (MPICH ch4:ucx) keeps SIGSEGV/SIGBUS/SIGILL/SIGFPE to itself
    // unless told not to; see docs/mpiprof.md.
    c.env("UCX_ERROR_SIGNALS", "");
    if preload {
        c.arg("env").arg(format!("LD_PRELOAD={}", lib_dir().join("libxmpc_prof.so").display()));
    }
    // cargo's LD_LIBRARY_PATH names target/<profile> before the rpath (a RUNPATH) is
    // looked at, and the library there is only as new as the last `cargo build`
    let ld = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    c.env("LD_LIBRARY_PATH", format!("{}:{ld}", lib_dir().display()));
    c.arg(exe).args(args).current_dir(dir).env("XMPC_PROF_OUTPUT_DIR", dir).env_remove("XMPC_PROF_CONFIG");
    if let Some(cfg) = config {
        c.env("XMPC_PROF_CONFIG", cfg).env_remove("XMPC_PROF_OUTPUT_DIR");
    }
    run(&mut c)
}

fn build_c(src: &str, dir: &Path) -> PathBuf {
    let exe = dir.join(src.trim_end_matches(".c"));
    let lib = lib_dir();
    // relink mode: -lxmpc_prof before MPI
    check(
        Command::new("mpicc")
            .arg("-O1")
            .arg("-w")
            .arg(programs().join(src))
            .arg("-o")
            .arg(&exe)
            .arg(format!("-L{}", lib.display()))
            .arg("-lxmpc_prof")
            .arg(format!("-Wl,-rpath,{}", lib.display())),
    );
    exe
}

fn load(path: &Path) -> Profile {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Profile::from_json(&text).unwrap()
}

fn sizes(list: &[u64]) -> SizeStats {
    let mut s = SizeStats::default();
    for &b in list {
        s.add(b);
    }
    s
}

/// Expected per-function: calls, send sizes, recv sizes.
type Exp = BTreeMap<&'static str, (u64, Vec<u64>, Vec<u64>)>;

fn check_rank(r: &RankProfile, exp: &Exp, peers: &[(i64, u64, u64, u64, u64)]) {
    let got: BTreeMap<&str, &FuncStats> = r.functions.iter().map(|f| (f.name.as_str(), f)).collect();
    let got_names: Vec<&str> = got.keys().cloned().collect();
    let exp_names: Vec<&str> = exp.keys().cloned().collect();
    assert_eq!(got_names, exp_names, "rank {}: set of recorded functions", r.rank);
    for (name, (calls, s, rv)) in exp {
        let f = got[name];
        assert_eq!(f.calls, *calls, "rank {} {name}: calls", r.rank);
        assert_eq!(f.send, sizes(s), "rank {} {name}: send sizes", r.rank);
        assert_eq!(f.recv, sizes(rv), "rank {} {name}: recv sizes", r.rank);
        assert!(f.time_min_ns <= f.time_max_ns && f.time_total_ns >= f.time_max_ns, "rank {} {name}: times", r.rank);
    }
    let mut want: Vec<PeerStats> =
        peers.iter().map(|&(peer, sc, sb, rc, rb)| PeerStats { peer, send_count: sc, send_bytes: sb, recv_count: rc, recv_bytes: rb }).collect();
    let mut got_p = r.peers.clone();
    want.sort_by_key(|p| p.peer);
    got_p.sort_by_key(|p| p.peer);
    assert_eq!(got_p, want, "rank {}: peers", r.rank);
}

fn e(list: &[(&'static str, u64, &[u64], &[u64])]) -> Exp {
    list.iter().map(|(n, c, s, r)| (*n, (*c, s.to_vec(), r.to_vec()))).collect()
}

const S: [u64; 9] = [0, 1, 2, 3, 1024, 1 << 20, (8 << 20) - 1, 8 << 20, 16 << 20];

#[test]
fn exact_c_four_ranks_relinked() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let exe = build_c("exact.c", tmp.path());
    let out = mpiexec(4, tmp.path(), &exe, false, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let p = load(&tmp.path().join("xmpc_prof.json"));
    assert_eq!(p.world_size, 4);
    assert_eq!(p.ranks.len(), 4);
    assert!(p.mpi_library.contains("MPICH") || p.mpi_library.contains("Open MPI"));

    let s_all: Vec<u64> = S.iter().cloned().chain([8192]).collect();
    let s_sum: u64 = s_all.iter().sum();
    for r in &p.ranks {
        let k = r.rank as u64;
        let mut exp = e(&[
            ("MPI_Comm_rank", 1001, &[], &[]),
            ("MPI_Comm_size", 1, &[], &[]),
            ("MPI_Sendrecv", 1, &[64], &[64]),
            ("MPI_Comm_split", 1, &[], &[]),
            ("MPI_Comm_free", 1, &[], &[]),
            ("MPI_Barrier", 2, &[], &[]),
            ("MPI_Allreduce", 3, &[4, 4, 4], &[4, 4, 4]),
            ("MPI_Allgather", 1, &[16], &[64]),
            ("MPI_Alltoall", 1, &[64], &[64]),
            ("MPI_Wtime", 5, &[], &[]),
        ]);
        let bc: (u64, Vec<u64>, Vec<u64>) = if k == 0 { (1, vec![1000], vec![]) } else { (1, vec![], vec![1000]) };
        exp.insert("MPI_Bcast", bc);
        exp.insert("MPI_Reduce", (1, vec![80], if k == 1 { vec![80] } else { vec![] }));
        exp.insert("MPI_Gather", (1, vec![8], if k == 0 { vec![32] } else { vec![] }));
        exp.insert("MPI_Allgatherv", (1, vec![k + 1], vec![10]));
        exp.insert("MPI_Alltoallv", (1, vec![40], vec![16 * (k + 1)]));
        exp.insert("MPI_Scatter", (1, if k == 2 { vec![128] } else { vec![] }, vec![32]));
        let peers: Vec<(i64, u64, u64, u64, u64)> = match k {
            0 => {
                exp.insert("MPI_Send", (10, s_all.clone(), vec![]));
                exp.insert("MPI_Recv", (1, vec![], vec![256]));
                // to 1: 10 sends + sendrecv; from 3: sendrecv; from 2: split send
                vec![(1, 11, s_sum + 64, 0, 0), (3, 0, 0, 1, 64), (2, 0, 0, 1, 256)]
            }
            1 => {
                let mut rv = s_all.clone();
                rv.push(256);
                exp.insert("MPI_Recv", (11, vec![], rv));
                vec![(0, 0, 0, 11, s_sum + 64), (3, 0, 0, 1, 256), (2, 1, 64, 0, 0)]
            }
            2 => {
                exp.insert("MPI_Isend", (3, vec![400; 3], vec![]));
                exp.insert("MPI_Waitall", (1, vec![], vec![]));
                exp.insert("MPI_Send", (1, vec![256], vec![]));
                vec![(3, 4, 1264, 0, 0), (0, 1, 256, 0, 0), (1, 0, 0, 1, 64)]
            }
            _ => {
                exp.insert("MPI_Irecv", (3, vec![], vec![400; 3]));
                exp.insert("MPI_Waitall", (1, vec![], vec![]));
                exp.insert("MPI_Send", (1, vec![256], vec![]));
                // Irecv posted from 2 (x2) and ANY_SOURCE (peer -1); sendrecv from 2
                vec![(2, 0, 0, 3, 864), (-1, 0, 0, 1, 400), (1, 1, 256, 0, 0), (0, 1, 64, 0, 0)]
            }
        };
        check_rank(r, &exp, &peers);
    }
    // literal histogram of rank 0's sends: classes 0,1,1,10,13,20,22,23,23 + one zero
    let send0 = &p.ranks[0].functions.iter().find(|f| f.name == "MPI_Send").unwrap().send;
    let mut h = [0u64; 24];
    for c in [0, 1, 1, 10, 13, 20, 22, 23, 23] {
        h[c] += 1;
    }
    assert_eq!(send0.hist, h);
    assert_eq!(send0.zero, 1);
    assert_eq!((send0.min, send0.max, send0.total), (0, 16 << 20, s_sum));
    // peer matrix: what was sent is what was received (all sources known)
    let m = p.send_matrix();
    assert_eq!(m[0][1], (11, s_sum + 64));
    assert_eq!(m[2][0], (1, 256));
    assert_eq!(m[3][1], (1, 256));
    // text report exists and flags Comm_rank
    let txt = std::fs::read_to_string(tmp.path().join("xmpc_prof.txt")).unwrap();
    assert!(txt.contains("!MPI_Comm_rank"), "{txt}");
    assert!(txt.contains("peer matrix"));
}

#[test]
fn exact_fortran_two_ranks_preloaded() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("exact_f");
    check(Command::new("mpif90").arg("-w").arg("-fallow-argument-mismatch").arg(programs().join("exact.f90")).arg("-o").arg(&exe).current_dir(tmp.path()));
    let out = mpiexec(2, tmp.path(), &exe, true, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let p = load(&tmp.path().join("xmpc_prof.json"));
    assert_eq!(p.ranks.len(), 2);
    let big: [u64; 5] = [0, 1, 4096, 16 << 20, 80];
    let bsum: u64 = big.iter().sum();
    for r in &p.ranks {
        let k = r.rank as u64;
        let mut exp = e(&[
            ("MPI_Comm_rank", 1, &[], &[]),
            ("MPI_Comm_size", 1, &[], &[]),
            ("MPI_Allreduce", 2, &[8, 8], &[8, 8]),
            ("MPI_Barrier", 1, &[], &[]),
            ("MPI_Alltoall", 1, &[16], &[16]),
            ("MPI_Sendrecv", 1, &[8], &[8]),
            ("MPI_Wtime", 3, &[], &[]),
            ("MPI_Waitall", 1, &[], &[]),
        ]);
        exp.insert("MPI_Bcast", if k == 1 { (1, vec![400], vec![]) } else { (1, vec![], vec![400]) });
        exp.insert("MPI_Gather", (1, vec![4], if k == 0 { vec![8] } else { vec![] }));
        let peers = if k == 0 {
            exp.insert("MPI_Send", (5, big.to_vec(), vec![]));
            exp.insert("MPI_Isend", (2, vec![40, 40], vec![]));
            vec![(1, 8, bsum + 80 + 8, 1, 8)]
        } else {
            exp.insert("MPI_Recv", (5, vec![], big.to_vec()));
            exp.insert("MPI_Irecv", (2, vec![], vec![40, 40]));
            vec![(0, 1, 8, 7, bsum + 40 + 8), (-1, 0, 0, 1, 40)]
        };
        check_rank(r, &exp, &peers);
    }
}

#[test]
fn unreliable_flag_and_config() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let exe = build_c("unreliable.c", tmp.path());
    let outdir = tmp.path().join("out");
    let cfg = tmp.path().join("prof.toml");
    std::fs::write(&cfg, format!("output_dir = \"{}\"\noutput_name = \"unrel\"\nexclude = [\"MPI_Wtime\"]\n", outdir.display())).unwrap();
    let out = mpiexec(2, tmp.path(), &exe, false, Some(&cfg));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let p = load(&outdir.join("unrel.json"));
    assert!(p.func("MPI_Wtime").is_none(), "excluded function recorded");
    assert!(p.timer.calibration_pairs >= 1000);
    assert!(p.timer.overhead_ns > 0.0);
    let cr = p.func("MPI_Comm_rank").unwrap();
    assert_eq!(cr.calls, 4000);
    assert!(cr.unreliable, "MPI_Comm_rank must be flagged: {cr:?} overhead {:?}", p.timer);
    let send = p.func("MPI_Send").unwrap();
    assert_eq!((send.calls, send.send.total), (20, 20 << 20));
    assert!(!send.unreliable, "1 MiB MPI_Send must not be flagged: {send:?}");
    assert!(!p.func("MPI_Recv").unwrap().unreliable);

    // bad config: clear message naming file and field, run unaffected
    std::fs::write(&cfg, "exclude = [\"MPI_Sned\"]\n").unwrap();
    let out = mpiexec(2, tmp.path(), &exe, false, Some(&cfg));
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("prof.toml") && err.contains("exclude") && err.contains("MPI_Sned"), "{err}");
}

#[test]
fn crash_leaves_partial_profiles() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let exe = build_c("crash.c", tmp.path());
    for how in ["segv", "abort"] {
        let dir = tmp.path().join(how);
        std::fs::create_dir_all(&dir).unwrap();
        crash_case(&dir, &exe, how);
    }
}

fn crash_case(dir: &Path, exe: &Path, how: &str) {
    let out = mpiexec_args(2, dir, exe, false, None, &[how]);
    assert!(!out.status.success());
    let mut found = 0;
    for rank in 0..2 {
        let path = dir.join(format!("xmpc_prof.rank{rank}.partial.json"));
        if !path.exists() {
            continue; // the launcher may kill the other rank first
        }
        found += 1;
        let p = load(&path);
        let r = &p.ranks[0];
        assert!(r.partial);
        assert_eq!(r.rank, rank);
        let name = if rank == 0 { "MPI_Send" } else { "MPI_Recv" };
        assert_eq!(r.functions.iter().find(|f| f.name == name).unwrap().calls, 3);
        assert_eq!(r.functions.iter().find(|f| f.name == "MPI_Barrier").unwrap().calls, 1);
    }
    assert!(found >= 1, "{how}: no partial profile written: {}", String::from_utf8_lossy(&out.stderr));
}

/// The profile written at MPI_Finalize follows the output policy of every xmpc tool
/// (issue 20, docs/diagnostics.md): `std::fs::write` wrote through a symbolic link
/// named like the profile (here to a file of the user's) and, when the text report
/// could not be written, left the JSON behind. Now a target that is not a regular file
/// is refused with a message naming the rank and the file, nothing is written (JSON and
/// text: both or neither, no temporary left), and the program's own exit status stays
/// 0: a profile that cannot be written never crashes the program it measures.
#[test]
fn profile_write_follows_the_output_policy() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let exe = build_c("unreliable.c", tmp.path());
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    };
    // the JSON's name is a symbolic link to a file of the user's
    let dir = tmp.path().join("link");
    std::fs::create_dir(&dir).unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("xmpc_prof.json")).unwrap();
    let out = mpiexec(2, &dir, &exe, false, None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("rank 0") && err.contains("xmpc_prof.json") && err.contains("symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert!(std::fs::symlink_metadata(dir.join("xmpc_prof.json")).unwrap().file_type().is_symlink());
    assert_eq!(names(&dir), ["xmpc_prof.json"]);
    // the text report's name is a directory: the JSON is not left alone either
    let dir = tmp.path().join("txtdir");
    std::fs::create_dir_all(dir.join("xmpc_prof.txt")).unwrap();
    let out = mpiexec(2, &dir, &exe, false, None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("rank 0") && err.contains("xmpc_prof.txt"), "{err}");
    assert_eq!(names(&dir), ["xmpc_prof.txt"]);
    // and a good run puts both in place, nothing beside them
    let dir = tmp.path().join("good");
    std::fs::create_dir(&dir).unwrap();
    let out = mpiexec(2, &dir, &exe, false, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(names(&dir), ["xmpc_prof.json", "xmpc_prof.txt"]);
    load(&dir.join("xmpc_prof.json"));
}

/// The source line of the first line of `src` containing `mark` (1-based).
fn line_of(src: &str, mark: &str) -> u32 {
    let text = std::fs::read_to_string(programs().join(src)).unwrap();
    text.lines().position(|l| l.contains(mark)).map(|i| i as u32 + 1).unwrap_or_else(|| panic!("{mark} not in {src}"))
}

/// Call sites as mpiP: two MPI_Send calls on two lines of a program compiled with -g
/// (and -O1, which inlines both helpers into main: the inlined frame's line is kept).
#[test]
fn callsites_name_both_send_lines() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let lib = lib_dir();
    let exe = dir.path().join("callsites");
    check(
        Command::new("mpicc")
            .args(["-g", "-O1", "-w"])
            .arg(programs().join("callsites.c"))
            .arg("-o")
            .arg(&exe)
            .arg(format!("-L{}", lib.display()))
            .arg("-lxmpc_prof")
            .arg(format!("-Wl,-rpath,{}", lib.display())),
    );
    let out = mpiexec(2, dir.path(), &exe, false, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (a, b) = (line_of("callsites.c", "LINE_A"), line_of("callsites.c", "LINE_B"));
    let p = load(&dir.path().join("xmpc_prof.json"));
    let r0 = &p.ranks[0];
    let sends: Vec<_> = r0.callsites.iter().filter(|c| c.function == "MPI_Send").collect();
    assert_eq!(sends.len(), 2, "two MPI_Send sites: {sends:?}");
    let at = |line: u32| sends.iter().find(|c| c.line == line).unwrap_or_else(|| panic!("no MPI_Send site at line {line}: {sends:?}"));
    assert_eq!((at(a).calls, at(a).bytes), (3, 3 * 16));
    assert_eq!((at(b).calls, at(b).bytes), (5, 5 * 64));
    assert!(at(a).file.ends_with("callsites.c"), "{:?}", at(a));
    // rank 1's receives: one site, 8 calls
    let recv: Vec<_> = p.ranks[1].callsites.iter().filter(|c| c.function == "MPI_Recv").collect();
    assert_eq!(recv.len(), 1, "{recv:?}");
    assert_eq!(recv[0].calls, 8);
    // the text report (mpiP's call-site table) names both lines
    let txt = std::fs::read_to_string(dir.path().join("xmpc_prof.txt")).unwrap();
    assert!(txt.contains("Call sites by total time"), "{txt}");
    for line in [a, b] {
        assert!(txt.contains(&format!("callsites.c:{line} ")), "callsites.c:{line} missing:\n{txt}");
    }
}
