//! `xmpc bsim`: running a skeleton through the driver, platform checks and the
//! SimGrid export.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xmpc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).output().expect("xmpc runs")
}

/// libxmpc_bsim.a and libxmpc_bsim_main.a of this build.
fn libs() -> (PathBuf, PathBuf) {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_xmpc"));
    let dir = exe.parent().unwrap().to_path_buf();
    let main = dir.join("libxmpc_bsim_main.a");
    let mut lib = dir.join("libxmpc_bsim.a");
    if !lib.exists() {
        let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
        for e in std::fs::read_dir(dir.join("deps")).unwrap().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with("libxmpc_bsim-") && n.ends_with(".a") {
                let t = e.metadata().unwrap().modified().unwrap();
                if best.as_ref().is_none_or(|b| t > b.0) {
                    best = Some((t, e.path()));
                }
            }
        }
        lib = best.expect("libxmpc_bsim.a not built (cargo build -p xmpc-bsim)").1;
    }
    (lib, main)
}

const SKEL: &str = r#"#include <lmpi.h>
#include <stdio.h>
int bsim_main(int argc, char **argv) {
    int r, n; char b[1];
    LMPI_Init(&argc, &argv);
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Comm_size(LMPI_COMM_WORLD, &n);
    BSIM_Add_time(1e-3 * r);
    if (r > 0) LMPI_Send(b, 1000, LMPI_BYTE, 0, 0, LMPI_COMM_WORLD);
    else for (int i = 1; i < n; i++) LMPI_Recv(b, 1000, LMPI_BYTE, i, 0, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
    LMPI_Finalize();
    return 0;
}
"#;

const PLATFORM: &str = "[compute]\nhost = false\n[network]\nlatency = 5e-6\nbandwidth = 1e8\n[[network.segment]]\nmin_bytes = 65536\nlatency = 1e-5\nbandwidth = 2e8\n[nodes]\nranks_per_node = 2\n[intranode]\nlatency = 1e-7\nbandwidth = 1e10\n";

#[test]
fn run_a_skeleton_through_the_driver() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("skel.c");
    std::fs::write(&src, SKEL).unwrap();
    let plat = d.path().join("p.toml");
    std::fs::write(&plat, PLATFORM).unwrap();
    let exe = d.path().join("skel");
    let (lib, main) = libs();
    let inc = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime/tools/bsim/include");
    let st = Command::new("cc")
        .arg(format!("-I{}", inc.display()))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg(main)
        .arg(lib)
        .args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"])
        .status()
        .unwrap();
    assert!(st.success());
    let out = d.path().join("out");
    let o = xmpc(&["bsim", "run", exe.to_str().unwrap(), "-np", "4", "--platform", plat.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rep = std::fs::read_to_string(out.join("report.json")).unwrap();
    let field = |k: &str| -> f64 {
        let i = rep.find(&format!("\"{k}\": ")).unwrap_or_else(|| panic!("no {k} in {rep}")) + k.len() + 4;
        rep[i..].split([',', '\n']).next().unwrap().trim().parse().unwrap()
    };
    // rank 0 receives in rank order: rank 1 is on its node (intranode link),
    // ranks 2 and 3 are not; the last message arrives at 3 ms + 5 us + 1000 B / 1e8 B/s
    let want = 3e-3 + 5e-6 + 1000.0 / 1e8;
    let got = field("predicted_time");
    assert!((got - want).abs() < 1e-15, "{got} != {want}");
    assert_eq!(field("np"), 4.0);
    assert!(String::from_utf8_lossy(&o.stdout).contains("predicted time: 3.015000000e-3 s (rank 0)"), "{}", String::from_utf8_lossy(&o.stdout));
    // without --out nothing is written (the summary goes to stdout)
    let o = Command::new(env!("CARGO_BIN_EXE_xmpc")).args(["bsim", "run", exe.to_str().unwrap(), "-np", "4"]).current_dir(d.path()).output().unwrap();
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("predicted time:"), "{}", String::from_utf8_lossy(&o.stderr));
    let entries: Vec<String> = std::fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(!entries.iter().any(|e| e == "bsim-out"), "{entries:?}");
    assert!(!String::from_utf8_lossy(&o.stderr).contains("report in"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Compiles SKEL into `dir/skel` with the BSIM runtime.
fn build_skel(dir: &Path) -> PathBuf {
    let src = dir.join("skel.c");
    std::fs::write(&src, SKEL).unwrap();
    build_skel_src(dir, &src, "skel")
}

fn build_skel_src(dir: &Path, src: &Path, name: &str) -> PathBuf {
    let exe = dir.join(name);
    let (lib, main) = libs();
    let inc = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime/tools/bsim/include");
    let st = Command::new("cc")
        .arg(format!("-I{}", inc.display()))
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .arg(main)
        .arg(lib)
        .args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"])
        .status()
        .unwrap();
    assert!(st.success());
    exe
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// `bsim run --trace DIR` (issue 20, output policy): each rank created `DIR/rank<N>.txt`
/// with `File::create`, writing through a symbolic link (or into a FIFO or device)
/// found there, and a file it could not create panicked the rank thread ("a rank
/// thread panicked", nothing naming the file). Now the rank files already in DIR are
/// checked before the run (exit 2), the skeleton refuses them too (`BSIM_TRACE` set
/// directly: exit 1, the rank and the file named, no trace file left: all or none),
/// and a good run puts every file in place under the umask with nothing beside it.
#[test]
fn trace_files_follow_the_output_policy() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let exe = build_skel(d.path());
    let tr = d.path().join("tr");
    std::fs::create_dir(&tr).unwrap();
    let victim = d.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, tr.join("rank1.txt")).unwrap();
    let o = xmpc(&["bsim", "run", exe.to_str().unwrap(), "-np", "3", "--trace", tr.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("rank1.txt") && e.contains("symbolic link") && !String::from_utf8_lossy(&o.stdout).contains("predicted"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    // the skeleton run directly (BSIM_TRACE): refused by the rank, reported, nothing left
    let o = Command::new(&exe).env("BSIM_NP", "3").env("BSIM_TRACE", &tr).output().unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("rank 1") && e.contains("rank1.txt") && !e.contains("panicked"), "{e}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert_eq!(names(&tr), ["rank1.txt"]);
    // a trace directory that is a file: a bad command line
    let o = xmpc(&["bsim", "run", exe.to_str().unwrap(), "-np", "2", "--trace", victim.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    // a good run: every rank's file, mode 0666 less the umask, no temporary left
    std::fs::remove_file(tr.join("rank1.txt")).unwrap();
    std::fs::write(tr.join("rank0.txt"), "stale").unwrap();
    let o = xmpc(&["bsim", "run", exe.to_str().unwrap(), "-np", "3", "--trace", tr.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(names(&tr), ["rank0.txt", "rank1.txt", "rank2.txt"]);
    let r0 = std::fs::read_to_string(tr.join("rank0.txt")).unwrap();
    assert!(r0.contains("recv") && !r0.contains("stale"), "{r0}");
    let old = unsafe { libc_umask(0o022) };
    unsafe { libc_umask(old) };
    let mode = std::fs::metadata(tr.join("rank2.txt")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o666 & !old, "mode {mode:o}, umask {old:o}");
    // a run that ends by exit (here the deadlock report) leaves no trace file, whole or
    // partial, and no temporary (the old code left each rank's partial file)
    let dl = d.path().join("dl.c");
    std::fs::write(&dl, DEADLOCK).unwrap();
    let dexe = build_skel_src(d.path(), &dl, "dl");
    let tr2 = d.path().join("tr2");
    let o = xmpc(&["bsim", "run", dexe.to_str().unwrap(), "-np", "2", "--trace", tr2.to_str().unwrap()]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("deadlock"), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(names(&tr2), Vec::<String>::new());
}

const DEADLOCK: &str = r#"#include <lmpi.h>
int bsim_main(int argc, char **argv) {
    int r; char b[1];
    LMPI_Init(&argc, &argv);
    LMPI_Comm_rank(LMPI_COMM_WORLD, &r);
    LMPI_Send(b, 1, LMPI_BYTE, 1 - r, 0, LMPI_COMM_WORLD);
    LMPI_Recv(b, 1 << 20, LMPI_BYTE, 1 - r, 0, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
    LMPI_Recv(b, 1, LMPI_BYTE, 1 - r, 1, LMPI_COMM_WORLD, LMPI_STATUS_IGNORE);
    LMPI_Finalize();
    return 0;
}
"#;

extern "C" {
    #[link_name = "umask"]
    fn libc_umask(mask: u32) -> u32;
}

#[test]
fn platform_check_and_simgrid_export() {
    let d = tempfile::tempdir().unwrap();
    let plat = d.path().join("p.toml");
    std::fs::write(&plat, PLATFORM).unwrap();
    let xml = d.path().join("p.xml");
    let hf = d.path().join("hosts");
    let o = xmpc(&["bsim", "platform", plat.to_str().unwrap(), "--export-simgrid", xml.to_str().unwrap(), "-np", "6", "--hostfile", hf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let x = std::fs::read_to_string(&xml).unwrap();
    // 6 ranks, 2 per node -> 3 nodes; latency and bandwidth on a FATPIPE backbone
    assert!(x.contains("radical=\"0-2\"") && x.contains("bb_lat=\"5e-6s\"") && x.contains("bb_bw=\"1e8Bps\""), "{x}");
    assert!(x.contains("bb_sharing_policy=\"FATPIPE\"") && x.contains("loopback_lat=\"1e-7s\""), "{x}");
    // each of a node's 2 ranks computes on a core of its own, as in BSIM
    assert!(x.contains("speed=\"1Gf\" core=\"2\""), "{x}");
    assert_eq!(std::fs::read_to_string(&hf).unwrap(), "node-0\nnode-0\nnode-1\nnode-1\nnode-2\nnode-2\n");
    let cfg = String::from_utf8_lossy(&o.stdout);
    assert!(cfg.contains("--cfg=network/model:CM02"), "{cfg}");
    assert!(cfg.contains("--cfg=network/latency-factor:1\n"), "{cfg}");
    // the collective algorithms of BSIM's p2p decomposition
    for c in ["--cfg=smpi/barrier:ompi_bruck\n", "--cfg=smpi/allreduce:rdb\n", "--cfg=smpi/alltoall:ring\n"] {
        assert!(cfg.contains(c), "{c} in {cfg}");
    }
    assert!(String::from_utf8_lossy(&o.stderr).contains("only the first segment"), "{}", String::from_utf8_lossy(&o.stderr));

    let bad = d.path().join("bad.toml");
    std::fs::write(&bad, "[network]\nlatency = 1e-6\nbandwidth = 0\n").unwrap();
    let o = xmpc(&["bsim", "platform", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("bad.toml: [network]: bandwidth must be a finite number > 0"), "{e}");
    let o = xmpc(&["bsim", "run", "/nonexistent/skel", "-np", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such executable"));
}

#[test]
fn run_with_the_mpi_back_end() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("skel.c");
    std::fs::write(&src, SKEL).unwrap();
    let plat = d.path().join("p.toml");
    std::fs::write(&plat, PLATFORM).unwrap();
    let (lib, main) = libs();
    let mpimain = main.with_file_name("libxmpc_bsim_mpi.a");
    let inc = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime/tools/bsim/include");
    let exe = d.path().join("skel");
    let st = Command::new("mpicc")
        .arg(format!("-I{}", inc.display()))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg(&mpimain)
        .arg(&lib)
        .args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"])
        .status()
        .unwrap();
    assert!(st.success());
    let out = d.path().join("out");
    let o = xmpc(&["bsim", "run", exe.to_str().unwrap(), "-np", "4", "--backend", "mpi", "--platform", plat.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    // same closed form as the threads run above
    assert!(stdout.contains("bsim: 4 ranks, platform p, mpi back end"), "{stdout}");
    assert!(stdout.contains("predicted time: 3.015000000e-3 s (rank 0)"), "{stdout}");
    let rep = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(rep.contains("\"backend\": \"mpi\""), "{rep}");
    // a threads-only executable is refused before mpiexec starts
    let texe = d.path().join("skel_threads");
    let st = Command::new("cc")
        .arg(format!("-I{}", inc.display()))
        .arg(&src)
        .arg("-o")
        .arg(&texe)
        .arg(main)
        .arg(lib)
        .args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"])
        .status()
        .unwrap();
    assert!(st.success());
    let o = xmpc(&["bsim", "run", texe.to_str().unwrap(), "-np", "2", "--backend", "mpi"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not linked with libxmpc_bsim_mpi.a"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Latest `time T` line of a run's stdout (every rank of the ring and the
/// all-to-all prints its end time; the prediction is the latest).
fn latest_time(out: &str) -> f64 {
    out.lines().filter_map(|l| l.strip_prefix("time ")).map(|t| t.trim().parse::<f64>().unwrap()).fold(f64::NAN, f64::max)
}

/// BSIM and SMPI on the same programs with the exported platform and flags: the
/// same predicted time to every printed digit. The programs are a barrier +
/// allreduce, and the benchmark's ping-pong (eager and rendezvous sizes, across the
/// platform's segment boundary), random ring and all-to-all
/// (testsuite/bench/bsim/*.c, the BSIM side renamed as the skeletonizer does).
/// Runs where `smpirun`/`smpicc` are installed (Debian's `libsimgrid-dev`); with
/// XMPC_REQUIRE_SMPI=1 (CI installs it) their absence is a failure, else a skip that
/// says why.
#[test]
fn simgrid_export_makes_smpi_compute_what_bsim_computes() {
    let have = |c: &str| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success() || !o.stdout.is_empty() || !o.stderr.is_empty());
    if !(have("smpirun") && have("smpicc")) {
        assert!(
            std::env::var_os("XMPC_REQUIRE_SMPI").is_none(),
            "XMPC_REQUIRE_SMPI is set but smpirun/smpicc are not installed (Debian package libsimgrid-dev)"
        );
        eprintln!("skipped: smpirun/smpicc not installed (Debian package libsimgrid-dev); testsuite/bench/bsim/run.sh compares where SMPI exists");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/bench/bsim");
    let barrier = "#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n  int r; char b[4096];\n  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &r);\n  MPI_Barrier(MPI_COMM_WORLD);\n  MPI_Allreduce(b, b + 8, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);\n  MPI_Barrier(MPI_COMM_WORLD);\n  if (r == 0) printf(\"time %.9e\\n\", MPI_Wtime());\n  MPI_Finalize();\n  return 0;\n}\n".to_string();
    let read = |n: &str| std::fs::read_to_string(bench.join(n)).unwrap();
    let progs = [("barrier", barrier), ("pingpong", read("pingpong.c")), ("ring", read("ring.c")), ("alltoall", read("alltoall.c"))];
    let (lib, main) = libs();
    let inc = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime/tools/bsim/include");
    for (name, src) in &progs {
        std::fs::write(d.path().join(format!("{name}.c")), src).unwrap();
        let st = Command::new("smpicc")
            .args(["-O1", "-DBUF_BYTES(n)=((n)>0?(n):1)", "-DBUF_OFF(x)=(x)", "-DADD_TIME(t)=smpi_execute_flops((t) * 1e9)"])
            .arg(format!("{name}.c"))
            .args(["-o", &format!("{name}.smpi")])
            .current_dir(d.path())
            .status()
            .unwrap();
        assert!(st.success(), "smpicc {name}.c");
        let skel = src.replace("MPI_", "LMPI_").replace("<mpi.h>", "<lmpi.h>").replace("int main(", "int bsim_main(");
        std::fs::write(d.path().join(format!("{name}.skel.c")), skel).unwrap();
        let st = Command::new("cc")
            .arg(format!("-I{}", inc.display()))
            .args(["-O1", "-DBUF_BYTES(n)=1", "-DBUF_OFF(x)=0", "-DADD_TIME(t)=BSIM_Add_time(t)"])
            .arg(d.path().join(format!("{name}.skel.c")))
            .arg("-o")
            .arg(d.path().join(format!("{name}.bsim")))
            .arg(&main)
            .arg(&lib)
            .args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"])
            .status()
            .unwrap();
        assert!(st.success(), "cc {name}.skel.c");
    }
    // 2 ranks per node (intranode traffic on SimGrid's loopback link), which the
    // benchmark's flat platform does not have; no size segments (not exportable)
    let plat = d.path().join("p.toml");
    std::fs::write(&plat, "[compute]\nhost = false\n[network]\nlatency = 2e-6\nbandwidth = 1e9\n[nodes]\nranks_per_node = 2\n[intranode]\nlatency = 2e-7\nbandwidth = 1e10\n[protocol]\nheader_bytes = 16\n").unwrap();
    let xml = d.path().join("p.xml");
    let hf = d.path().join("hosts");
    let o = xmpc(&["bsim", "platform", plat.to_str().unwrap(), "--export-simgrid", xml.to_str().unwrap(), "-np", "64", "--hostfile", hf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cfg: Vec<String> = String::from_utf8_lossy(&o.stdout).lines().map(String::from).collect();
    let cases: &[(&str, &str, &[&str])] = &[
        ("barrier", "6", &[]),
        ("pingpong", "2", &["1", "10"]),
        ("pingpong", "2", &["65535", "4"]),
        ("pingpong", "2", &["1048576", "4"]),
        ("ring", "64", &["8", "3"]),
        ("ring", "64", &["1048576", "2"]),
        ("alltoall", "16", &["8", "2"]),
        ("alltoall", "16", &["65536", "2"]),
    ];
    for (name, np, args) in cases {
        let o = Command::new("smpirun")
            .args(["-np", np, "-platform", "p.xml", "-hostfile", "hosts"])
            .args(&cfg)
            .arg("--log=root.thres:critical")
            .arg(format!("./{name}.smpi"))
            .args(*args)
            .current_dir(d.path())
            .output()
            .unwrap();
        let smpi = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{name} {args:?}: {smpi}{}", String::from_utf8_lossy(&o.stderr));
        let exe = d.path().join(format!("{name}.bsim"));
        let mut a = vec!["bsim", "run", exe.to_str().unwrap(), "-np", np, "--platform", plat.to_str().unwrap(), "--"];
        a.extend(args.iter());
        let o = xmpc(&a);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{name} {args:?}: {out}{}", String::from_utf8_lossy(&o.stderr));
        let (ts, tb) = (latest_time(&smpi), latest_time(&out));
        assert!(ts > 0.0, "{name} {args:?}: no time from SMPI: {smpi}");
        assert_eq!(format!("{ts:.9e}"), format!("{tb:.9e}"), "{name} -np {np} {args:?}: SMPI vs BSIM");
    }
}

/// A skeleton that overflows a rank's stack: the rank says so and `xmpc bsim
/// run` reports the signal and exits non-zero (it printed nothing and exited 1).
/// The same platform given as SMPI's XML and hostfile (`-platform`, `-hostfile`)
/// predicts what its TOML predicts.
#[test]
fn stack_overflow_is_reported_and_smpi_platforms_are_read() {
    let d = tempfile::tempdir().unwrap();
    let (lib, main) = libs();
    let inc = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime/tools/bsim/include");
    let build = |name: &str, text: &str| {
        let src = d.path().join(format!("{name}.c"));
        std::fs::write(&src, text).unwrap();
        let exe = d.path().join(name);
        let st = Command::new("cc")
            .arg(format!("-I{}", inc.display()))
            .args(["-O0"])
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .arg(&main)
            .arg(&lib)
            .args(["-Wl,--gc-sections", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"])
            .status()
            .unwrap();
        assert!(st.success());
        exe
    };
    let deep = build(
        "deep",
        "#include <lmpi.h>\nstatic int down(volatile char *p, int n) { volatile char b[4096]; b[0] = p[0]; return n ? down(b, n - 1) + b[0] : 0; }\nint bsim_main(int argc, char **argv) { char c = 0; LMPI_Init(&argc, &argv); int r = down(&c, 1 << 20); LMPI_Finalize(); return r; }\n",
    );
    let o = xmpc(&["bsim", "run", deep.to_str().unwrap(), "-np", "2", "--stack-kb", "64"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{e}");
    assert!(e.contains("bsim: rank ") && e.contains("stack overflow (each rank has 64 KiB of stack"), "{e}");
    assert!(e.contains("was killed by signal 11"), "{e}");
    // SMPI's platform description of PLATFORM's first segment and node map
    let exe = build("skel", SKEL);
    let toml = d.path().join("p.toml");
    std::fs::write(&toml, "[compute]\nhost = false\n[network]\nlatency = 5e-6\nbandwidth = 1e8\n[nodes]\nranks_per_node = 2\n[intranode]\nlatency = 1e-7\nbandwidth = 1e10\n[protocol]\nasync_threshold = 0\nheader_bytes = 16\n[overheads]\ntest = 1e-4\n").unwrap();
    let xml = d.path().join("p.xml");
    let hf = d.path().join("hosts");
    let o = xmpc(&["bsim", "platform", toml.to_str().unwrap(), "--export-simgrid", xml.to_str().unwrap(), "-np", "4", "--hostfile", hf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let time = |args: &[&str]| {
        let mut a = vec!["bsim", "run", exe.to_str().unwrap(), "-np", "4", "--host-time", "off"];
        a.extend(args);
        let o = xmpc(&a);
        let s = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success(), "{s}{}", String::from_utf8_lossy(&o.stderr));
        s.lines().find_map(|l| l.strip_prefix("predicted time: ")).unwrap().split_whitespace().next().unwrap().to_string()
    };
    let t = time(&["--platform", toml.to_str().unwrap()]);
    assert_eq!(time(&["-platform", xml.to_str().unwrap(), "-hostfile", hf.to_str().unwrap()]), t);
}

/// `xmpc bsim run` of a plain MPI program (not a skeleton) ran it as one process,
/// printed no prediction and exited 0; it is refused with what to do (issue 39).
#[test]
fn a_plain_mpi_program_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("plain.c");
    std::fs::write(&src, "#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n  MPI_Init(&argc, &argv);\n  puts(\"RAN\");\n  MPI_Finalize();\n  return 0;\n}\n").unwrap();
    let exe = d.path().join("plain");
    let st = Command::new("mpicc").arg(&src).arg("-o").arg(&exe).status().unwrap();
    assert!(st.success());
    let o = xmpc(&["bsim", "run", exe.to_str().unwrap(), "-np", "4"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("not a BSIM skeleton") && err.contains("--skeletonize"), "{err}");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("RAN"));
}
