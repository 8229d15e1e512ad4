//! `xmpc mpiete ...` subcommands (the driver holds only the `Mpiete` variant).

use crate::commdata;
use crate::data::{BlockTimes, CommData, CommModel};
use crate::predict::{Prediction, Predictor};
use crate::size::parse_bytes;
use crate::trace::{trace_files, Event, TraceReader};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(clap::Subcommand, Debug)]
pub enum MpieteCmd {
    /// Predict the run time from compute, communication and program base data.
    Predict(PredictArgs),
    /// Generate (and by default build and run) the ping-pong program that
    /// measures the communication base data.
    Commdata(CommdataArgs),
    /// Print a program trace (trace.<rank>.bin) as text, one record a line.
    Dump(DumpArgs),
    /// Combine the compute data of repeated runs: per rank and block, the median.
    Merge(MergeArgs),
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// blocktimes.json of runs of the same program with the same arguments.
    #[arg(required = true, num_args = 2..)]
    pub inputs: Vec<PathBuf>,
    /// Output JSON.
    #[arg(short, long)]
    pub output: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct PredictArgs {
    /// Compute base data (blocktimes.json from MPIETE_MODE=token or compute).
    #[arg(long, value_name = "FILE")]
    pub compute: PathBuf,
    /// Communication base data (commdata.json from `xmpc mpiete commdata`).
    #[arg(long, value_name = "FILE", required_unless_present = "network")]
    pub comm: Option<PathBuf>,
    /// NSIM network config (TOML): messages go through the packet-level
    /// network (with contention) instead of the T_comm table.
    #[arg(long, value_name = "NSIM.toml")]
    pub network: Option<PathBuf>,
    /// Directory with the program base data (trace.<rank>.bin, MPIETE_MODE=trace).
    #[arg(long, value_name = "DIR")]
    pub program: PathBuf,
    /// Also write the prediction as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Print every rank (default: the first 16).
    #[arg(long)]
    pub all_ranks: bool,
    /// Draw each block execution's time from a gamma law with the measured mean and
    /// spread (`sd_s` in the compute data) instead of using the mean, and average
    /// REPLAYS such replays: predicts the waiting that jitter between ranks causes.
    #[arg(long, value_name = "REPLAYS", num_args = 0..=1, default_missing_value = "16", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub jitter: Option<u32>,
    /// Seed of the first jittered replay (replay k uses seed + k).
    #[arg(long, default_value_t = 1, requires = "jitter")]
    pub seed: u64,
}

#[derive(clap::Args, Debug)]
pub struct CommdataArgs {
    /// Largest message size (e.g. 4MiB; at most 1GiB: the program allocates it).
    #[arg(long, value_parser = parse_max)]
    pub max: u64,
    /// Size step (e.g. 64KiB), or `x2` for 0, 1, 2, 4, ... max.
    #[arg(long, default_value = "x2")]
    pub step: String,
    /// Output JSON.
    #[arg(short, long, default_value = "commdata.json")]
    pub output: PathBuf,
    /// Only write the generated Fortran program to this file (no build, no run).
    #[arg(long, value_name = "FILE")]
    pub emit_source: Option<PathBuf>,
    /// MPI Fortran compiler.
    #[arg(long, default_value = "mpif90")]
    pub fc: String,
    /// MPI launcher.
    #[arg(long, default_value = "mpiexec")]
    pub mpiexec: String,
}

#[derive(clap::Args, Debug)]
pub struct DumpArgs {
    /// A trace file.
    pub trace: PathBuf,
    /// Stop after this many records.
    #[arg(long)]
    pub limit: Option<u64>,
}

/// The largest `commdata --max`: the ping-pong program allocates a buffer of that
/// size, and counts bytes in default (32-bit) Fortran integers.
pub const MAX_COMMDATA_BYTES: u64 = 1 << 30;

fn parse_max(s: &str) -> Result<u64, String> {
    let v = parse_bytes(s)?;
    if v > MAX_COMMDATA_BYTES {
        return Err(format!("'{s}' is larger than 1GiB"));
    }
    Ok(v)
}

/// The output policy's checks before any work (docs/diagnostics.md): every output
/// file's directory exists, it is not a link/FIFO/device/directory and not an input;
/// and `commdata`'s sizes (`--step`). An error here is a bad command line (exit
/// status 2).
pub fn check_outputs(cmd: &MpieteCmd) -> Result<(), String> {
    let (outs, inputs): (Vec<&Path>, Vec<&Path>) = match cmd {
        MpieteCmd::Predict(a) => {
            let mut i = vec![a.compute.as_path(), a.program.as_path()];
            i.extend(a.comm.as_deref());
            i.extend(a.network.as_deref());
            (a.json.iter().map(PathBuf::as_path).collect(), i)
        }
        MpieteCmd::Commdata(a) => (a.emit_source.as_deref().into_iter().chain([a.output.as_path()]).collect(), vec![]),
        MpieteCmd::Merge(a) => (vec![a.output.as_path()], a.inputs.iter().map(PathBuf::as_path).collect()),
        MpieteCmd::Dump(_) => (vec![], vec![]),
    };
    if let MpieteCmd::Commdata(a) = cmd {
        // `--step 0` or `--step bogus` exited 1 like an input error
        commdata_sizes(a)?;
    }
    outs.into_iter().try_for_each(|o| xmpc_outfile::check_output(o, &inputs))
}

/// The message sizes `commdata` measures (`--max`, `--step`).
fn commdata_sizes(a: &CommdataArgs) -> Result<Vec<u64>, String> {
    if a.step == "x2" {
        commdata::sizes(a.max, 0, true)
    } else {
        commdata::sizes(a.max, parse_bytes(&a.step)?, false)
    }
}

/// Runs a subcommand; the error is the message to print.
pub fn run(cmd: &MpieteCmd) -> Result<(), String> {
    match cmd {
        MpieteCmd::Predict(a) => predict(a),
        MpieteCmd::Commdata(a) => commdata_cmd(a),
        MpieteCmd::Dump(a) => dump(a),
        MpieteCmd::Merge(a) => {
            let runs = a.inputs.iter().map(|p| BlockTimes::load(p)).collect::<Result<Vec<_>, _>>()?;
            let m = BlockTimes::median(&runs)?;
            let text = serde_json::to_string_pretty(&m).map_err(|e| e.to_string())?;
            xmpc_outfile::write(&a.output, text.as_bytes())?;
            eprintln!("xmpc: median of {} runs, {} blocks, written to {}", runs.len(), m.blocks.len(), a.output.display());
            Ok(())
        }
    }
}

/// Prediction from files (also used by tests and the bench script).
pub fn predict_files(compute: &Path, comm: &Path, program: &Path) -> Result<Prediction, String> {
    let files = trace_files(program)?;
    let readers = files.iter().map(|f| TraceReader::open(f)).collect::<Result<Vec<_>, _>>()?;
    let bt = BlockTimes::load(compute)?;
    let cm = CommData::load(comm)?.model();
    let tables = bt.tables(readers.len());
    Predictor::new(&tables, &cm).run(readers)
}

/// Jittered prediction: `replays` replays with block times drawn per execution
/// (seeds seed, seed + 1, ...), averaged rank by rank. `network`: NSIM instead of `comm`.
pub fn predict_jittered(
    compute: &Path,
    comm: &CommModel,
    network: Option<&xmpc_nsim::Config>,
    program: &Path,
    replays: u32,
    seed: u64,
) -> Result<Prediction, String> {
    if replays == 0 {
        return Err("--jitter: the number of replays must be at least 1".into());
    }
    let files = trace_files(program)?;
    let bt = BlockTimes::load(compute)?;
    let tables = bt.tables(files.len());
    let sds = bt.spreads(files.len());
    if sds.iter().flatten().all(|&s| s == 0.0) {
        eprintln!("warning: {}: no block has a spread (sd_s); the jittered prediction is the plain one", compute.display());
    }
    let mut runs = Vec::new();
    for k in 0..replays {
        let readers = files.iter().map(|f| TraceReader::open(f)).collect::<Result<Vec<_>, _>>()?;
        let mut pr = Predictor::new(&tables, comm).with_jitter(&sds, seed.wrapping_add(k as u64));
        if let Some(n) = network {
            pr = pr.with_network(n);
        }
        runs.push(pr.run(readers)?);
    }
    Ok(Prediction::mean(&runs))
}

/// The same with an NSIM network instead of the T_comm table.
pub fn predict_with_network(compute: &Path, network: &xmpc_nsim::Config, program: &Path) -> Result<Prediction, String> {
    let files = trace_files(program)?;
    let readers = files.iter().map(|f| TraceReader::open(f)).collect::<Result<Vec<_>, _>>()?;
    let tables = BlockTimes::load(compute)?.tables(readers.len());
    let none = CommModel::constant(0.0, 1.0);
    Predictor::new(&tables, &none).with_network(network).run(readers)
}

/// The same with a fixed latency/bandwidth model instead of measured data.
pub fn predict_with_model(compute: &Path, model: &CommModel, program: &Path) -> Result<Prediction, String> {
    let files = trace_files(program)?;
    let readers = files.iter().map(|f| TraceReader::open(f)).collect::<Result<Vec<_>, _>>()?;
    let tables = BlockTimes::load(compute)?.tables(readers.len());
    Predictor::new(&tables, model).run(readers)
}

pub fn render(p: &Prediction, all: bool) -> String {
    let mut s = String::new();
    s.push_str(&format!("predicted time: {:.6} s  ({} blocks, {} ranks)\n", p.total_s, p.blocks, p.ranks.len()));
    if p.replays > 1 {
        s.push_str(&format!("mean of {} jittered replays (total {:.6} .. {:.6} s)\n", p.replays, p.total_min_s, p.total_max_s));
    }
    s.push_str("rank      time_s   compute_s      comm_s     blocks   messages\n");
    for r in p.ranks.iter().take(if all { usize::MAX } else { 16 }) {
        s.push_str(&format!("{:>4} {:>11.6} {:>11.6} {:>11.6} {:>10} {:>10}\n", r.rank, r.time_s, r.compute_s, r.comm_s, r.blocks, r.messages));
    }
    if !all && p.ranks.len() > 16 {
        s.push_str(&format!("... {} more ranks (--all-ranks)\n", p.ranks.len() - 16));
    }
    if !p.unknown_blocks.is_empty() {
        s.push_str(&format!("warning: blocks without compute data (costed 0): {:?}\n", p.unknown_blocks));
    }
    s
}

fn predict(a: &PredictArgs) -> Result<(), String> {
    // --network takes precedence over --comm
    let net = match &a.network {
        Some(n) => Some(xmpc_nsim::Config::from_file(n).map_err(|e| format!("NSIM config: {e}"))?),
        None => None,
    };
    let p = match (&net, &a.comm, a.jitter) {
        (None, None, _) => return Err("give --comm FILE or --network NSIM.toml".into()),
        (Some(cfg), _, None) => predict_with_network(&a.compute, cfg, &a.program)?,
        (None, Some(c), None) => predict_files(&a.compute, c, &a.program)?,
        (_, comm, Some(k)) => {
            let cm = match (&net, comm) {
                (None, Some(c)) => CommData::load(c)?.model(),
                _ => CommModel::constant(0.0, 1.0),
            };
            predict_jittered(&a.compute, &cm, net.as_ref(), &a.program, k, a.seed)?
        }
    };
    print!("{}", render(&p, a.all_ranks));
    if let Some(j) = &a.json {
        let text = serde_json::to_string_pretty(&p).map_err(|e| e.to_string())?;
        xmpc_outfile::write(j, text.as_bytes())?;
    }
    Ok(())
}

fn commdata_cmd(a: &CommdataArgs) -> Result<(), String> {
    let sizes = commdata_sizes(a)?;
    let src = commdata::program(&sizes);
    if let Some(p) = &a.emit_source {
        return xmpc_outfile::write(p, src.as_bytes());
    }
    let tmp = tempfile::Builder::new().prefix("mpiete-commdata-").tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let f90 = tmp.path().join("commdata.f90");
    let exe = tmp.path().join("commdata");
    std::fs::write(&f90, &src).map_err(|e| format!("cannot write '{}': {e}", f90.display()))?;
    let st = crate::progress::step("mpiete commdata", &format!("compiling the ping-pong program with {}", a.fc), || {
        Command::new(&a.fc).arg("-O2").arg(&f90).arg("-o").arg(&exe).status()
    })
    .map_err(|e| format!("cannot run '{}': {e} (set XMPC_FC or --fc)", a.fc))?;
    if !st.success() {
        return Err(format!("'{}' failed to build the ping-pong program ({st})", a.fc));
    }
    // The program writes into the temporary directory; the result is checked, then
    // put in place under the output policy (never written through a link, FIFO or
    // device; nothing left behind on an error).
    let json = tmp.path().join("commdata.json");
    eprintln!("measuring {} sizes from 0 to {} bytes with {} -n 2 ...", sizes.len(), a.max, a.mpiexec);
    let what = format!("measuring the ping-pong times of {} message sizes (0 to {} bytes) with {} -n 2", sizes.len(), a.max, a.mpiexec);
    let st = crate::progress::step("mpiete commdata", &what, || Command::new(&a.mpiexec).args(["-n", "2"]).arg(&exe).arg(&json).status())
        .map_err(|e| format!("cannot run '{}': {e}", a.mpiexec))?;
    if !st.success() {
        return Err(format!("the ping-pong program failed ({st})"));
    }
    CommData::load(&json)?;
    xmpc_outfile::install(&json, &a.output)?;
    eprintln!("wrote {}", a.output.display());
    Ok(())
}

fn dump(a: &DumpArgs) -> Result<(), String> {
    let mut r = TraceReader::open(&a.trace)?;
    let so = std::io::stdout();
    let mut o = std::io::BufWriter::new(so.lock());
    let w = |e: std::io::Error| format!("cannot write to standard output: {e}");
    writeln!(o, "# rank {} of {}", r.header.rank, r.header.ranks).map_err(w)?;
    let mut n = 0u64;
    while let Some(ev) = r.next_event()? {
        if a.limit.is_some_and(|l| n >= l) {
            break;
        }
        n += 1;
        let line = match ev {
            Event::Block(id) => format!("block {id}"),
            Event::Region(end) => format!("region {}", if end { "end" } else { "begin" }),
            Event::Isend { id, req, peer, tag, comm, bytes } => format!("isend block={id} req={req} peer={peer} tag={tag} comm={comm} bytes={bytes}"),
            Event::Irecv { id, req, peer, tag, comm, bytes } => format!("irecv block={id} req={req} peer={peer} tag={tag} comm={comm} bytes={bytes}"),
            Event::Wait { id, req, src, tag, bytes } => format!("wait block={id} req={req} src={src} tag={tag} bytes={bytes}"),
        };
        writeln!(o, "{line}").map_err(w)?;
    }
    Ok(())
}
