//! The commands of `xmpc-nsim` and `xmpc nsim` (one definition for both).

use crate::patterns::Pattern;
use crate::report::Report;
use crate::{Config, Simulation};
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand, Debug, Clone)]
pub enum Cmd {
    /// Run a built-in pattern and print the report.
    Run {
        /// interconnect configuration (TOML)
        #[arg(short, long)]
        config: PathBuf,
        /// number of simulated ranks (default: one per node)
        #[arg(short = 'n', long)]
        ranks: Option<u32>,
        /// pattern: ring, alltoall, bruck, bcast, allreduce, halo3d, message, hotspot, shift,
        /// with arguments, e.g. `ring:bytes=1M,loops=5`
        #[arg(short, long)]
        pattern: String,
        /// host threads (0 = config's sim.threads; at most 1024)
        #[arg(short, long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=crate::config::MAX_THREADS as i64))]
        threads: u32,
        /// write the full report as JSON
        #[arg(long)]
        json: Option<PathBuf>,
        /// write CSV files PREFIX.series.csv and PREFIX.nodes.csv
        #[arg(long)]
        csv: Option<PathBuf>,
        /// write the Figure-11-style plots as SVG (PREFIX.vc.svg, PREFIX.links.svg)
        #[arg(long)]
        svg: Option<PathBuf>,
        /// the same plots as PNG (PREFIX.vc.png, PREFIX.links.png)
        #[arg(long)]
        png: Option<PathBuf>,
        /// print one machine-readable line instead of the summary
        #[arg(long)]
        brief: bool,
        /// no progress bar
        #[arg(short, long)]
        quiet: bool,
    },
    /// Check a configuration file and print the topology.
    Check { config: PathBuf },
    /// Compare one message's simulated latency with the analytic formula.
    Latency {
        #[arg(short, long)]
        config: PathBuf,
        #[arg(long, default_value_t = 0)]
        src: u32,
        #[arg(long, default_value_t = 1)]
        dst: u32,
        #[arg(long, default_value = "1K")]
        bytes: String,
    },
    /// Emit a SimGrid platform XML for the same mesh/torus (for SMPI side-by-side runs).
    SimgridPlatform { config: PathBuf },
}

/// The most ranks `run -n` simulates (2^20; every rank has its own state).
const MAX_RANKS: u32 = 1 << 20;

/// Why a command failed: a bad command-line value (exit 2) or bad input/run (exit 1).
enum Fail {
    Usage(String),
    Input(String),
}

impl From<String> for Fail {
    fn from(e: String) -> Fail {
        Fail::Input(e)
    }
}

/// Runs a subcommand (`xmpc-nsim CMD`, `xmpc nsim CMD`): exit status 0, 1 (bad
/// input or run) or 2 (bad command line), with the message printed.
pub fn run(cmd: Cmd) -> ExitCode {
    match real_main(cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail::Usage(e)) => {
            eprintln!("xmpc-nsim: error: {e}");
            ExitCode::from(2)
        }
        Err(Fail::Input(e)) => {
            eprintln!("xmpc-nsim: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main(cmd: Cmd) -> Result<(), Fail> {
    match cmd {
        Cmd::Run { config, ranks, pattern, threads, json, csv, svg, png, brief, quiet } => {
            let pat = Pattern::parse(&pattern).map_err(|e| Fail::Usage(format!("--pattern: {e}")))?;
            if let Some(n) = ranks {
                if n == 0 || n > MAX_RANKS {
                    return Err(Fail::Usage(format!("-n {n}: the number of ranks must be in 1..={MAX_RANKS}")));
                }
            }
            // Every output (the plots too) is checked before the run: its directory
            // exists, it is not a link/FIFO/device/directory, not the config.
            let outs: Vec<PathBuf> = json
                .iter()
                .cloned()
                .chain(csv.iter().flat_map(|p| [suffixed(p, "series.csv"), suffixed(p, "nodes.csv")]))
                .chain(svg.iter().flat_map(|p| [suffixed(p, "vc.svg"), suffixed(p, "links.svg")]))
                .chain(png.iter().flat_map(|p| [suffixed(p, "vc.png"), suffixed(p, "links.png")]))
                .collect();
            for o in &outs {
                xmpc_outfile::check_output(o, &[&config]).map_err(Fail::Usage)?;
            }
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            let n = ranks.unwrap_or_else(|| cfg.num_nodes());
            pat.check(n).map_err(|e| Fail::Usage(format!("--pattern: {e}")))?;
            let mut sim = Simulation::new(&cfg, n, threads as usize).map_err(|e| e.to_string())?;
            sim.progress = !quiet;
            sim.set_programs(pat.programs(n));
            let topo = sim.topo().clone();
            let r = sim.run().map_err(Fail::Input)?;
            let rep = Report::new(&r, &topo);
            if brief {
                println!(
                    "sim_ms={:.6} wall_s={:.3} events={} hops={} ev_per_s={:.0} threads={}",
                    rep.runtime_s * 1e3,
                    rep.wall_s,
                    rep.events,
                    rep.packet_hops,
                    rep.events_per_s,
                    rep.threads
                );
            } else {
                print!("{}", rep.summary());
            }
            let mut files = Vec::new();
            if let Some(p) = json {
                files.push((p, rep.to_json().into_bytes()));
            }
            if let Some(p) = csv {
                files.push((suffixed(&p, "series.csv"), rep.series_csv().into_bytes()));
                files.push((suffixed(&p, "nodes.csv"), rep.nodes_csv().into_bytes()));
            }
            xmpc_outfile::write_all(&files)?;
            if let Some(p) = svg {
                crate::plot::figure11(&rep, &p, crate::plot::Format::Svg).map_err(Fail::Input)?;
            }
            if let Some(p) = png {
                crate::plot::figure11(&rep, &p, crate::plot::Format::Png).map_err(Fail::Input)?;
            }
            Ok(())
        }
        Cmd::Check { config } => {
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            let t = crate::topo::Topo::new(&cfg);
            println!("{}: {:?} {} nodes, {} routers, {} links (incl. NIC links)", config.display(), cfg.topology.kind, t.nnodes, t.nrouters, t.links.len());
            Ok(())
        }
        Cmd::Latency { config, src, dst, bytes } => {
            let b = crate::patterns::parse_size(&bytes)
                .filter(|&b| b <= crate::patterns::MAX_BYTES)
                .ok_or_else(|| Fail::Usage(format!("--bytes {bytes}: expected a size up to 1T such as 1024, 64K, 1M")))?;
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            let n = cfg.num_nodes();
            for (k, r) in [("--src", src), ("--dst", dst)] {
                if r >= n {
                    return Err(Fail::Usage(format!("{k} {r}: not a rank of this {n}-node machine (0..{n})")));
                }
            }
            let mut sim = Simulation::new(&cfg, n, 1).map_err(|e| e.to_string())?;
            let topo = sim.topo().clone();
            let (s, d) = (sim.rank_node(src), sim.rank_node(dst));
            let pat = Pattern::Message { src, dst, bytes: b };
            sim.set_programs(pat.programs(n));
            let r = sim.run().map_err(Fail::Input)?;
            let a = crate::engine::analytic_latency(&cfg, &topo, s, d, b);
            println!("simulated {} ps, analytic {} ps, routers on path {}", r.finish[dst as usize], a, topo.routers_on_path(s, d).0);
            Ok(())
        }
        Cmd::SimgridPlatform { config } => {
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            print!("{}", crate::report::simgrid_platform(&cfg).map_err(Fail::Input)?);
            Ok(())
        }
    }
}

/// `PREFIX.suffix` (the CSV outputs of `--csv PREFIX`).
fn suffixed(p: &std::path::Path, suffix: &str) -> PathBuf {
    PathBuf::from(format!("{}.{suffix}", p.display()))
}
