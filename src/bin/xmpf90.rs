//! `xmpf90`: drop-in for Omni XcalableMP's `xmpf90` (see `src/omni_cli.rs`).
#[path = "../omni_cli.rs"]
mod omni_cli;

fn main() -> std::process::ExitCode {
    omni_cli::main(omni_cli::Which::Xmpf90)
}
