//! `xmpcc`: drop-in for Omni XcalableMP's `xmpcc` (see `src/omni_cli.rs`).
#[path = "../omni_cli.rs"]
mod omni_cli;

fn main() -> std::process::ExitCode {
    omni_cli::main(omni_cli::Which::Xmpcc)
}
