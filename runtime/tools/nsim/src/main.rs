//! `xmpc-nsim`: thin CLI over the NSIM library (the commands are `xmpc_nsim::cli`,
//! shared with `xmpc nsim`).

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "xmpc-nsim", about = "NSIM packet-level interconnect simulator", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    cmd: xmpc_nsim::cli::Cmd,
}

fn main() -> ExitCode {
    xmpc_outfile::quiet_on_closed_pipe();
    xmpc_nsim::cli::run(Cli::parse().cmd)
}
