//! `xmpc-nsim`: thin CLI over the NSIM library.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use xmpc_nsim::patterns::Pattern;
use xmpc_nsim::report::Report;
use xmpc_nsim::{Config, Simulation};

#[derive(Parser)]
#[command(
    name = "xmpc-nsim",
    about = "NSIM packet-level interconnect simulator",
    version
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
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
        /// host threads (0 = config's sim.threads)
        #[arg(short, long, default_value_t = 0)]
        threads: usize,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match real_main(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xmpc-nsim: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn real_main(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Run {
            config,
            ranks,
            pattern,
            threads,
            json,
            csv,
            svg,
            png,
            brief,
            quiet,
        } => {
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            let pat = Pattern::parse(&pattern)?;
            let n = ranks.unwrap_or_else(|| cfg.num_nodes());
            let mut sim = Simulation::new(&cfg, n, threads).map_err(|e| e.to_string())?;
            sim.progress = !quiet;
            sim.set_programs(pat.programs(n));
            let topo = sim.topo().clone();
            let r = sim.run()?;
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
            if let Some(p) = json {
                std::fs::write(&p, rep.to_json()).map_err(|e| format!("{}: {e}", p.display()))?;
            }
            if let Some(p) = csv {
                let s = format!("{}.series.csv", p.display());
                std::fs::write(&s, rep.series_csv()).map_err(|e| format!("{s}: {e}"))?;
                let s = format!("{}.nodes.csv", p.display());
                std::fs::write(&s, rep.nodes_csv()).map_err(|e| format!("{s}: {e}"))?;
            }
            if let Some(p) = svg {
                xmpc_nsim::plot::figure11(&rep, &p, xmpc_nsim::plot::Format::Svg)?;
            }
            if let Some(p) = png {
                xmpc_nsim::plot::figure11(&rep, &p, xmpc_nsim::plot::Format::Png)?;
            }
            Ok(())
        }
        Cmd::Check { config } => {
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            let t = xmpc_nsim::topo::Topo::new(&cfg);
            println!(
                "{}: {:?} {} nodes, {} routers, {} links (incl. NIC links)",
                config.display(),
                cfg.topology.kind,
                t.nnodes,
                t.nrouters,
                t.links.len()
            );
            Ok(())
        }
        Cmd::Latency {
            config,
            src,
            dst,
            bytes,
        } => {
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            let b = xmpc_nsim::patterns::parse_size(&bytes).ok_or("bad --bytes")?;
            let n = cfg.num_nodes();
            let mut sim = Simulation::new(&cfg, n, 1).map_err(|e| e.to_string())?;
            let topo = sim.topo().clone();
            let (s, d) = (sim.rank_node(src), sim.rank_node(dst));
            let pat = Pattern::Message { src, dst, bytes: b };
            sim.set_programs(pat.programs(n));
            let r = sim.run()?;
            let a = xmpc_nsim::engine::analytic_latency(&cfg, &topo, s, d, b);
            println!(
                "simulated {} ps, analytic {} ps, routers on path {}",
                r.finish[dst as usize],
                a,
                topo.routers_on_path(s, d).0
            );
            Ok(())
        }
        Cmd::SimgridPlatform { config } => {
            let cfg = Config::from_file(&config).map_err(|e| e.to_string())?;
            print!("{}", xmpc_nsim::report::simgrid_platform(&cfg)?);
            Ok(())
        }
    }
}
