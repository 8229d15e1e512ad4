//! Standalone `xmpc-prof-report profile.json` (same as `xmpc prof report`).
use clap::Parser;

#[derive(Parser)]
#[command(name = "xmpc-prof-report", version, about = "Re-render an xmpc-prof profile and draw charts")]
struct Cli {
    #[command(flatten)]
    args: xmpc_prof_report::ReportArgs,
}

fn main() {
    xmpc_outfile::quiet_on_closed_pipe();
    let cli = Cli::parse();
    if let Err(e) = xmpc_prof_report::check_args(&cli.args) {
        eprintln!("xmpc-prof-report: error: {e}");
        std::process::exit(2);
    }
    match xmpc_prof_report::run_report(&cli.args) {
        Ok(paths) => {
            for p in paths {
                eprintln!("wrote {}", p.display());
            }
        }
        Err(e) => {
            eprintln!("xmpc-prof-report: error: {e}");
            std::process::exit(1);
        }
    }
}
