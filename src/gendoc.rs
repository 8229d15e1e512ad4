//! `xmpc --generate-man DIR` and `xmpc --generate-completions DIR`: the man pages
//! (clap_mangen; one per command and subcommand, and xmpcc/xmpf90) and the shell
//! completions (clap_complete: bash, zsh, fish) that `install.sh` installs
//! (docs/install.md). Made from the command-line definitions themselves, so they
//! never disagree with `--help`.

use std::path::Path;

use clap::CommandFactory;

use super::omni_cli::{help, Which};
use super::Cli;

/// Handles the two options (the first argument); `None` when neither is given.
pub fn intercept() -> Option<std::process::ExitCode> {
    let mut args = std::env::args_os().skip(1);
    let what = args.next()?;
    let what = what.to_str()?;
    if what != "--generate-man" && what != "--generate-completions" {
        return None;
    }
    let Some(dir) = args.next() else {
        eprintln!("error: {what} DIR: the folder to write to is missing");
        return Some(std::process::ExitCode::from(2));
    };
    let dir = Path::new(&dir);
    let r = if what == "--generate-man" { man(dir) } else { completions(dir) };
    Some(match r {
        Ok(n) => {
            eprintln!("wrote {n} files to {}", dir.display());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::from(1)
        }
    })
}

fn man(dir: &Path) -> Result<usize, String> {
    let err = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(err)?;
    let mut n = 0;
    // xmpc.1, xmpc-prof.1, xmpc-prof-report.1, xmpc-bsim-run.1, ...
    // (after `build`, a subcommand's display name is `xmpc-bsim-run`)
    fn walk(cmd: &clap::Command, dir: &Path, n: &mut usize) -> Result<(), String> {
        let name = cmd.get_display_name().unwrap_or(cmd.get_name()).to_string();
        let mut buf = Vec::new();
        clap_mangen::Man::new(cmd.clone()).render(&mut buf).map_err(|e| e.to_string())?;
        xmpc_outfile::write(&dir.join(format!("{name}.1")), &buf)?;
        *n += 1;
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
            walk(sub, dir, n)?;
        }
        Ok(())
    }
    let mut cmd = Cli::command();
    cmd.build();
    walk(&cmd, dir, &mut n)?;
    for which in [Which::Xmpcc, Which::Xmpf90] {
        let page = clap::Command::new(which.name())
            .about(format!("xmpc's drop-in for Omni XcalableMP's {}", which.name()))
            .version(env!("CARGO_PKG_VERSION"))
            .after_long_help(help(which));
        let mut buf = Vec::new();
        clap_mangen::Man::new(page).render(&mut buf).map_err(|e| e.to_string())?;
        xmpc_outfile::write(&dir.join(format!("{}.1", which.name())), &buf)?;
        n += 1;
    }
    Ok(n)
}

fn completions(dir: &Path) -> Result<usize, String> {
    use clap_complete::Shell;
    let mut n = 0;
    for (shell, sub, file) in [
        (Shell::Bash, "bash-completion/completions", "xmpc"),
        (Shell::Zsh, "zsh/site-functions", "_xmpc"),
        (Shell::Fish, "fish/vendor_completions.d", "xmpc.fish"),
    ] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "xmpc", &mut buf);
        xmpc_outfile::write(&d.join(file), &buf)?;
        n += 1;
    }
    Ok(n)
}
