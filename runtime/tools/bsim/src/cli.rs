//! `xmpc bsim ...`: run a skeleton, export a platform to SimGrid, calibrate a
//! platform from a measured MPI ping-pong.

use crate::kernel::model::{self, MAX_NP};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(clap::Subcommand, Debug)]
pub enum BsimCmd {
    /// Run a skeleton (linked with libxmpc_bsim.a) in virtual time and print the prediction.
    Run(Box<RunArgs>),
    /// Check a platform file; export it as SimGrid XML (+ smpirun flags).
    Platform(PlatformArgs),
    /// Measure an MPI ping-pong with mpicc/mpiexec and write a platform file.
    Calibrate(CalibrateArgs),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// All ranks as user-level contexts on one thread (default for C skeletons).
    Contexts,
    /// All ranks as threads of one process (default for Fortran skeletons).
    Threads,
    /// Each rank a real MPI process exchanging timestamps (`mpiexec -n N`; the
    /// skeleton must be linked with libxmpc_bsim_mpi.a).
    Mpi,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The skeleton executable.
    pub exe: PathBuf,
    /// Number of simulated ranks (`-np N` is accepted too).
    #[arg(long = "np", short = 'n', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_NP))]
    pub np: u32,
    /// Platform file: BSIM's TOML, or SMPI's SimGrid XML (`-platform p.xml` is
    /// accepted too); default: 1 us latency, 10 GB/s.
    #[arg(long)]
    pub platform: Option<PathBuf>,
    /// SMPI hostfile (`-hostfile h`): the host of each rank, with an XML platform.
    #[arg(long)]
    pub hostfile: Option<PathBuf>,
    /// SMPI options `NAME:VALUE` (as smpirun's `--cfg=`), with an XML platform:
    /// smpi/send-is-detached-thresh, smpi/async-small-thresh, smpi/test,
    /// smpi/simulate-computation, smpi/cpu-threshold, smpi/host-speed.
    #[arg(long = "cfg", value_name = "NAME:VALUE")]
    pub cfg: Vec<String>,
    /// Charge the host CPU time a rank spends between its calls (code that runs
    /// in the skeleton) as compute; default: the platform's `[compute] host`.
    #[arg(long = "host-time", value_name = "on|off")]
    pub host_time: Option<OnOff>,
    /// Directory for report.json and report.txt (and deadlock.txt); none: nothing is
    /// written, the summary goes to stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Back end; default: contexts for a C skeleton, threads for a Fortran one.
    #[arg(long, value_enum)]
    pub backend: Option<Backend>,
    /// MPI launcher of the mpi back end (`$LAUNCHER -n N exe args`).
    #[arg(long, default_value = "mpiexec")]
    pub mpiexec: String,
    /// Draw a Gantt chart (ranks x virtual time); .svg or .png.
    #[arg(long)]
    pub gantt: Option<PathBuf>,
    /// Write a Chrome/Perfetto trace (JSON).
    #[arg(long = "trace-json")]
    pub trace_json: Option<PathBuf>,
    /// Write a Paje trace (SimGrid's format: ViTE, PajeNG) of ranks, calls and messages.
    #[arg(long)]
    pub paje: Option<PathBuf>,
    /// Write an OTF2 archive into DIR (DIR/traces.otf2: Vampir, Score-P tools,
    /// otf2-print); needs the OTF2 library (Debian: libotf2-trace-dev).
    #[arg(long, value_name = "DIR")]
    pub otf2: Option<PathBuf>,
    /// Write each rank's communication events as text (one file per rank) into DIR.
    #[arg(long = "trace", value_name = "DIR")]
    pub trace: Option<PathBuf>,
    /// Move message data and compute reductions (run unmodified MPI programs).
    #[arg(long)]
    pub payload: bool,
    /// Stack size of each rank (context or thread) in KiB (16 to 1048576);
    /// default 256 for contexts, 65536 for threads (only touched pages are
    /// committed). A rank that overflows it says so.
    #[arg(long = "stack-kb", value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub stack_kb: Option<u64>,
    /// Network model: `nsim:FILE.toml` (packet-level NSIM network, with
    /// contention) or `analytic` (l + s/w); overrides the platform's [network] model.
    #[arg(long, value_name = "MODEL")]
    pub network: Option<String>,
    /// Arguments passed to the program.
    #[arg(last = true)]
    pub args: Vec<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOff {
    On,
    Off,
}

#[derive(clap::Args, Debug)]
pub struct PlatformArgs {
    /// Platform file (TOML).
    pub platform: PathBuf,
    /// Write the equivalent SimGrid platform XML here; the smpirun --cfg flags are printed.
    #[arg(long = "export-simgrid", value_name = "XML")]
    pub export_simgrid: Option<PathBuf>,
    /// Ranks to declare nodes for (and to list in --hostfile).
    #[arg(long = "np", short = 'n', default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_NP as u64))]
    pub np: u64,
    /// Write an SMPI hostfile mapping ranks to nodes.
    #[arg(long)]
    pub hostfile: Option<PathBuf>,
    /// NSIM platforms: print the contention-free `l + s/w` [network] section
    /// equivalent to the NSIM path between two ranks, e.g. `0:1`.
    #[arg(long, value_name = "A:B")]
    pub equivalent: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// Platform file to write.
    #[arg(short, long, default_value = "calibrated.toml")]
    pub output: PathBuf,
    /// Round trips per size (the median is used).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    pub reps: u32,
    /// Largest message in bytes (at most 1 GiB: the ping-pong allocates it).
    #[arg(long, default_value_t = 4 << 20, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub max_bytes: u64,
    /// Size where the second (rendezvous) segment starts (1 to 1 GiB).
    #[arg(long, default_value_t = 65536, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub split: u64,
}

/// Entry of `xmpc bsim`; returns the process exit code.
pub fn run(cmd: &BsimCmd) -> i32 {
    let r = match cmd {
        BsimCmd::Run(a) => run_exe(a),
        BsimCmd::Platform(a) => match outputs_usable(&[&a.export_simgrid, &a.hostfile], &[&a.platform]) {
            Err(e) => Ok(usage(e)),
            Ok(()) => platform(a),
        },
        BsimCmd::Calibrate(a) => match outputs_usable(&[&Some(a.output.clone())], &[]) {
            Err(e) => Ok(usage(e)),
            Ok(()) => calibrate(a).map(|_| 0),
        },
    };
    match r {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn run_exe(a: &RunArgs) -> Result<i32, String> {
    if a.np == 0 {
        return Err("-np must be at least 1".into());
    }
    let xml = a.platform.as_ref().is_some_and(|p| p.extension().is_some_and(|e| e == "xml"));
    if (a.hostfile.is_some() || !a.cfg.is_empty()) && !xml {
        return Ok(usage("--hostfile and --cfg describe an SMPI platform: give them with `--platform FILE.xml`".into()));
    }
    if let Some(p) = &a.platform {
        if xml {
            let mut pl = crate::kernel::sgplatform::load(p, a.hostfile.as_deref(), a.np as u64)?;
            let speed = 1e9 / pl.compute.factor;
            for c in crate::kernel::sgplatform::apply_cfg(&mut pl, &a.cfg, speed)? {
                eprintln!("bsim: warning: --cfg={c} is not modelled by BSIM; ignored");
            }
        } else {
            model::load_platform(p)?;
        }
    }
    if let Some(n) = a.network.as_deref().filter(|n| *n != "analytic") {
        // a malformed value is a bad command line; an unreadable file is an input error
        if n.strip_prefix("nsim:").is_none_or(|f| f.is_empty()) {
            return Ok(usage(format!("--network {n}: expected nsim:FILE.toml or analytic")));
        }
        model::parse_network_arg(n)?;
    }
    if !a.exe.is_file() {
        return Err(format!("{}: no such executable", a.exe.display()));
    }
    // Output paths are checked before the run (docs/diagnostics.md, output policy).
    let mut inputs = vec![a.exe.as_path()];
    inputs.extend(a.platform.as_deref());
    if let Err(e) = outputs_usable(&[&a.gantt, &a.trace_json, &a.paje], &inputs) {
        return Ok(usage(e));
    }
    if let Err(e) = a.trace.as_deref().map_or(Ok(()), |d| trace_dir_usable(d, a.np, &inputs)) {
        return Ok(usage(e));
    }
    if let Err(e) = a.out.as_deref().map_or(Ok(()), |d| out_dir_usable(d, &inputs)) {
        return Ok(usage(e));
    }
    let exe = if a.exe.components().count() == 1 { Path::new(".").join(&a.exe) } else { a.exe.clone() };
    let mpi = a.backend == Some(Backend::Mpi);
    let image = std::fs::read(&exe).map_err(|e| format!("{}: {e}", exe.display()))?;
    let has = |what: &str| has_marker(&image, what);
    if mpi && !has("mpi-main") {
        return Err(format!("{}: not linked with libxmpc_bsim_mpi.a, so it has no mpi back end (link it with mpicc, see docs/bsim.md)", exe.display()));
    }
    // A plain MPI program ran as one process, printed no prediction and exited 0.
    if !mpi && !has("main") && !has("mpi-main") {
        return Err(format!(
            "{}: not a BSIM skeleton (it is not linked with libxmpc_bsim_main.a, and would run as one process without a prediction): make one with `xmpc --skeletonize prog.c -o skel.c` and `xmpc bsim cc skel.c -o skel`, or build the MPI program with `bsimcc` (docs/bsim.md)",
            exe.display()
        ));
    }
    if a.payload && mpi {
        return Err("--payload needs the contexts or threads back end (the mpi back end moves only timestamps)".into());
    }
    let mut c = if mpi {
        let mut c = Command::new(&a.mpiexec);
        c.arg("-n").arg(a.np.to_string()).arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    c.args(&a.args).env("BSIM_NP", a.np.to_string());
    match a.stack_kb {
        Some(k) => c.env("BSIM_STACK_KB", k.to_string()),
        None => c.env_remove("BSIM_STACK_KB"),
    };
    match a.backend {
        None => c.env_remove("BSIM_BACKEND"),
        Some(Backend::Contexts) => c.env("BSIM_BACKEND", "contexts"),
        Some(Backend::Threads) => c.env("BSIM_BACKEND", "threads"),
        Some(Backend::Mpi) => c.env("BSIM_BACKEND", "mpi"),
    };
    let opt = |c: &mut Command, k: &str, v: &Option<PathBuf>| match v {
        Some(v) => {
            c.env(k, v);
        }
        None => {
            c.env_remove(k);
        }
    };
    opt(&mut c, "BSIM_PLATFORM", &a.platform);
    opt(&mut c, "BSIM_HOSTFILE", &a.hostfile);
    match a.cfg.is_empty() {
        true => c.env_remove("BSIM_CFG"),
        false => c.env("BSIM_CFG", a.cfg.join("\n")),
    };
    match a.host_time {
        None => c.env_remove("BSIM_HOST_TIME"),
        Some(OnOff::On) => c.env("BSIM_HOST_TIME", "1"),
        Some(OnOff::Off) => c.env("BSIM_HOST_TIME", "0"),
    };
    opt(&mut c, "BSIM_OUT", &a.out);
    opt(&mut c, "BSIM_NETWORK", &a.network.as_ref().map(PathBuf::from));
    opt(&mut c, "BSIM_GANTT", &a.gantt);
    opt(&mut c, "BSIM_TRACE_JSON", &a.trace_json);
    opt(&mut c, "BSIM_PAJE", &a.paje);
    opt(&mut c, "BSIM_OTF2", &a.otf2);
    opt(&mut c, "BSIM_TRACE", &a.trace);
    c.env("BSIM_PAYLOAD", if a.payload { "1" } else { "0" });
    let what = if mpi { &a.mpiexec } else { &exe.to_string_lossy().into_owned() };
    let st = c.status().map_err(|e| format!("cannot run {what}: {e}"))?;
    if let (true, Some(out)) = (st.success(), &a.out) {
        eprintln!("bsim: report in {}", out.join("report.json").display());
    }
    Ok(exit_code(&st, what))
}

/// The exit code of the run; a skeleton killed by a signal is said so (exit
/// 128 + signal, as a shell reports it), never a silent 1.
fn exit_code(st: &std::process::ExitStatus, what: &str) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    match (st.code(), st.signal()) {
        (Some(c), _) => c,
        (None, Some(sig)) => {
            // SAFETY: strsignal returns a static or thread-local string for any number.
            let name = unsafe { std::ffi::CStr::from_ptr(libc::strsignal(sig)) }.to_string_lossy().into_owned();
            let core = if st.core_dumped() { " (core dumped)" } else { "" };
            eprintln!("error: {what} was killed by signal {sig} ({name}){core}: the run has no result");
            128 + sig
        }
        _ => 1,
    }
}

/// Whether the executable carries the marker string of csrc/bsim_mpi_main.c.
/// True when the program holds the marker string `xmpc-bsim-{what}` of
/// csrc/bsim_main.c (`main`) or csrc/bsim_mpi_main.c (`mpi-main`).
/// The executable is read once and searched with memchr's substring search (a
/// byte-window scan of a 14 MB NPB skeleton took 0.36 s a marker in a debug
/// build, more than the whole FT class S run).
fn has_marker(image: &[u8], what: &str) -> bool {
    // assembled at run time so that this library (linked into every skeleton) does
    // not contain the marker itself
    let head = std::hint::black_box("xmpc-bsim");
    let m = format!("{head}-{what}\0").into_bytes();
    memchr::memmem::find(image, &m).is_some()
}

/// `--out DIR`: DIR is a directory or will be created; the reports it would replace
/// must be regular files (checked before the run, as every output).
fn out_dir_usable(dir: &Path, inputs: &[&Path]) -> Result<(), String> {
    if !dir_or_absent(dir, "--out")? {
        return Ok(());
    }
    for n in ["report.json", "report.txt", "deadlock.txt"] {
        xmpc_outfile::check_target(&dir.join(n))?;
        xmpc_outfile::check_not_input(&dir.join(n), inputs)?;
    }
    Ok(())
}

/// Whether the output directory `dir` (of option `opt`) exists; an error when it is
/// something else than a directory.
fn dir_or_absent(dir: &Path, opt: &str) -> Result<bool, String> {
    match std::fs::metadata(dir) {
        Err(_) if std::fs::symlink_metadata(dir).is_ok() => Err(format!("{opt} {}: a symbolic link to nothing", dir.display())),
        Err(_) => Ok(false),
        Ok(m) if !m.is_dir() => Err(format!("{opt} {}: not a directory", dir.display())),
        Ok(_) => Ok(true),
    }
}

/// `--trace DIR`: DIR is a directory or will be created; the rank files already in it
/// that this run would replace must be regular files (crate::tracefile), checked
/// before the run.
fn trace_dir_usable(dir: &Path, np: u32, inputs: &[&Path]) -> Result<(), String> {
    if !dir_or_absent(dir, "--trace")? {
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| format!("--trace {}: {e}", dir.display()))?;
    for e in entries.flatten() {
        let name = e.file_name();
        let n = name.to_str().unwrap_or("");
        let rank = n.strip_prefix("rank").and_then(|r| r.strip_suffix(".txt")?.parse::<u32>().ok());
        if rank.is_some_and(|r| r < np && n == format!("rank{r}.txt")) {
            xmpc_outfile::check_target(&e.path())?;
            xmpc_outfile::check_not_input(&e.path(), inputs)?;
        }
    }
    Ok(())
}

/// The output policy's checks before any work (docs/diagnostics.md).
fn outputs_usable(outs: &[&Option<PathBuf>], inputs: &[&Path]) -> Result<(), String> {
    outs.iter().copied().flatten().try_for_each(|p| xmpc_outfile::check_output(p, inputs))
}

fn platform(a: &PlatformArgs) -> Result<i32, String> {
    let p = model::load_platform(&a.platform)?;
    eprintln!("{}: ok ({} segment(s), eager below {} B, collectives {:?})", a.platform.display(), p.inter.segments.len(), p.eager_threshold, p.coll_mode);
    if let Some(n) = &p.nsim {
        eprintln!("network model: nsim ({}), {} nodes", n.origin, n.cfg.num_nodes());
    }
    if let Some(pair) = &a.equivalent {
        let n = p.nsim.as_ref().ok_or_else(|| format!("{}: --equivalent needs [network] model = \"nsim\"", a.platform.display()))?;
        let rank = |r: &str| r.trim().parse::<u32>().ok().filter(|&r| i64::from(r) < MAX_NP);
        let Some((x, y)) = pair.split_once(':').and_then(|(x, y)| Some((rank(x)?, rank(y)?))) else {
            return Ok(usage(format!("--equivalent {pair}: expected two ranks A:B, each 0 to {}", MAX_NP - 1)));
        };
        let q = crate::kernel::netmodel::equivalent_platform(&p, &n.cfg, x, y)?;
        let s = q.inter.segments[0];
        println!("# contention-free equivalent of {} between ranks {x} and {y}", n.origin);
        println!("[network]\nlatency = {:e}\nbandwidth = {:e}", s.latency, s.bandwidth);
    }
    if let Some(x) = &a.export_simgrid {
        let e = crate::simgrid::export(&p, crate::simgrid::nodes_for(&p, a.np));
        for w in &e.warnings {
            eprintln!("warning: {w}");
        }
        xmpc_outfile::write(x, e.xml.as_bytes())?;
        for c in &e.cfg {
            println!("{c}");
        }
        eprintln!("wrote {}", x.display());
    }
    if let Some(h) = &a.hostfile {
        xmpc_outfile::write(h, crate::simgrid::hostfile(&p, a.np).as_bytes())?;
        eprintln!("wrote {}", h.display());
    }
    Ok(0)
}

const PINGPONG_C: &str = r#"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
    long max = atol(argv[1]); int reps = atoi(argv[2]);
    char *b = malloc(max > 0 ? max : 1);
    double *t = malloc(sizeof(double) * reps);
    for (long n = 1; n <= max; n *= 2) {
        for (int k = -3; k < reps; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (r == 0) { MPI_Send(b, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD); MPI_Recv(b, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
            else if (r == 1) { MPI_Recv(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD); }
            if (k >= 0) t[k] = (MPI_Wtime() - t0) / 2;
        }
        qsort(t, reps, sizeof(double), cmp);
        if (r == 0) printf("%ld %.9e\n", n, t[reps / 2]);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// Weighted least squares of t = l + s/w with relative residuals.
pub fn fit(points: &[(u64, f64)]) -> (f64, f64) {
    let (mut sw, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(s, t) in points {
        let w = 1.0 / (t * t).max(1e-30);
        let x = s as f64;
        sw += w;
        sx += w * x;
        sy += w * t;
        sxx += w * x * x;
        sxy += w * x * t;
    }
    let d = sw * sxx - sx * sx;
    let slope = if d.abs() > 0.0 { (sw * sxy - sx * sy) / d } else { 0.0 };
    let lat = (sy - slope * sx) / sw;
    let slope = slope.max(1e-15);
    (lat.max(0.0), 1.0 / slope)
}

fn calibrate(a: &CalibrateArgs) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let src = dir.path().join("pingpong.c");
    std::fs::write(&src, PINGPONG_C).map_err(|e| e.to_string())?;
    let exe = dir.path().join("pingpong");
    let mpicc = std::env::var("MPICC").unwrap_or_else(|_| "mpicc".into());
    let st = Command::new(&mpicc).arg("-O2").arg(&src).arg("-o").arg(&exe).status().map_err(|e| format!("cannot run {mpicc}: {e}"))?;
    if !st.success() {
        return Err(format!("{mpicc} failed to build the ping-pong"));
    }
    let out = Command::new("mpiexec")
        .args(["-n", "2"])
        .arg(&exe)
        .arg(a.max_bytes.to_string())
        .arg(a.reps.max(1).to_string())
        .output()
        .map_err(|e| format!("cannot run mpiexec: {e}"))?;
    if !out.status.success() {
        return Err(format!("mpiexec failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let pts: Vec<(u64, f64)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .collect();
    if pts.len() < 4 {
        return Err("ping-pong gave too few measurements".into());
    }
    let small: Vec<_> = pts.iter().cloned().filter(|p| p.0 < a.split).collect();
    let large: Vec<_> = pts.iter().cloned().filter(|p| p.0 >= a.split).collect();
    let (l0, w0) = fit(&small);
    let mut t = format!(
        "# Measured by `xmpc bsim calibrate` (MPICH ping-pong, one-way time = half the median round trip, {} reps)\nname = \"calibrated\"\n\n[network]\nlatency = {l0:e}\nbandwidth = {w0:e}\n",
        a.reps
    );
    if large.len() >= 2 {
        let (l1, w1) = fit(&large);
        t += &format!("\n[[network.segment]]\nmin_bytes = {}\nlatency = {l1:e}\nbandwidth = {w1:e}\n", a.split);
    }
    t += &format!("\n[protocol]\neager_threshold = {}\n\n# bytes  one-way seconds\n", a.split);
    for (s, v) in &pts {
        t += &format!("# {s} {v:e}\n");
    }
    // checked before it is written: an error leaves no file
    model::parse_platform(&a.output, &t)?;
    xmpc_outfile::write(&a.output, t.as_bytes())?;
    eprintln!("wrote {}: latency {l0:.3e} s, bandwidth {w0:.3e} B/s below {} B", a.output.display(), a.split);
    Ok(())
}

/// A bad command-line value: reported here, exit status 2.
fn usage(msg: String) -> i32 {
    eprintln!("error: {msg}");
    2
}
