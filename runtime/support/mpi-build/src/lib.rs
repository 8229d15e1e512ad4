//! For the build scripts of the runtime crates that compile C against the system
//! `mpi.h`: the flags the MPI C compiler wrapper would add, asked with `-show`
//! (MPICH) or `--showme` (Open MPI).

use std::process::Command;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct MpiFlags {
    /// The wrapper asked (the value of the environment variable, else `mpicc`).
    pub mpicc: String,
    /// False when the wrapper could not be run: no MPI, all lists empty.
    pub found: bool,
    pub includes: Vec<String>,
    /// `-L` and `-Wl,-rpath,` directories.
    pub libdirs: Vec<String>,
    pub libs: Vec<String>,
}

/// Asks the wrapper named by `$env_var` (default `mpicc`) for its flags and tells
/// cargo to rerun the build script when that variable changes.
pub fn mpicc_flags(env_var: &str) -> MpiFlags {
    println!("cargo:rerun-if-env-changed={env_var}");
    let mpicc = std::env::var(env_var).ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpicc".into());
    for arg in ["-show", "--showme"] {
        if let Ok(o) = Command::new(&mpicc).arg(arg).output() {
            if o.status.success() {
                let mut f = parse(&String::from_utf8_lossy(&o.stdout));
                f.mpicc = mpicc;
                f.found = true;
                return f;
            }
        }
    }
    MpiFlags { mpicc, ..MpiFlags::default() }
}

/// The `-I`, `-L`, `-Wl,-rpath,` and `-l` words of a wrapper's command line.
pub fn parse(show: &str) -> MpiFlags {
    let mut f = MpiFlags::default();
    for tok in show.split_whitespace() {
        if let Some(p) = tok.strip_prefix("-I") {
            f.includes.push(p.to_string());
        } else if let Some(p) = tok.strip_prefix("-L") {
            f.libdirs.push(p.to_string());
        } else if let Some(p) = tok.strip_prefix("-l") {
            f.libs.push(p.to_string());
        } else if let Some(p) = tok.strip_prefix("-Wl,-rpath,") {
            f.libdirs.push(p.to_string());
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn mpich_and_open_mpi_lines() {
        let f = parse("gcc -I/usr/include/x86_64-linux-gnu/mpich -L/usr/lib/x86_64-linux-gnu -lmpich");
        assert_eq!(f.includes, ["/usr/include/x86_64-linux-gnu/mpich"]);
        assert_eq!(f.libdirs, ["/usr/lib/x86_64-linux-gnu"]);
        assert_eq!(f.libs, ["mpich"]);
        let f = parse("gcc -I/opt/ompi/include -pthread -L/opt/ompi/lib -Wl,-rpath,/opt/ompi/lib -Wl,--enable-new-dtags -lmpi");
        assert_eq!(f.includes, ["/opt/ompi/include"]);
        assert_eq!(f.libdirs, ["/opt/ompi/lib", "/opt/ompi/lib"]);
        assert_eq!(f.libs, ["mpi"]);
    }
}
