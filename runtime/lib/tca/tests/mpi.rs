//! The hybrid collectives under real mpiexec, against MPICH's own results bit
//! for bit (src/bin/tca-check.rs), on 2-8 ranks with power-of-two and other
//! subcluster sizes. TCA emulated over a shared-memory window.

use std::process::Command;

fn run(p: usize, k: &str) -> (bool, String) {
    let out = Command::new("mpiexec")
        .args(["-n", &p.to_string(), env!("CARGO_BIN_EXE_tca-check")])
        .env("XMPC_TCA_SUBCLUSTER", k)
        .env("TCA_CHECK_ROUNDS", "1")
        .output()
        .expect("mpiexec (MPICH) must be installed");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn hybrid_collectives_equal_mpich_on_2_to_8_ranks() {
    // (ranks, subcluster size): one subcluster, two, power-of-two and not,
    // a ragged last subcluster, and every rank alone
    for (p, k) in [(2, 2), (3, 2), (4, 1), (5, 3), (6, 4), (8, 3), (8, 4)] {
        let (ok, text) = run(p, &k.to_string());
        assert!(ok, "p={p} k={k}:\n{text}");
        let line = text.lines().find(|l| l.starts_with("tca-check")).unwrap_or_else(|| panic!("no summary:\n{text}"));
        assert!(line.contains(" OK "), "{line}");
        // both networks in use exactly where the subclusters say
        let chains: u64 = line.split("chains=").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let msgs: u64 = line.split("mpi_msgs=").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert_eq!(chains > 0, k > 1, "{line}");
        assert_eq!(msgs > 0, k < p, "{line}");
    }
}

#[test]
fn bad_subcluster_value_is_refused() {
    let (ok, text) = run(2, "zero");
    assert!(!ok);
    assert!(text.contains("XMPC_TCA_SUBCLUSTER=\"zero\": expected a positive number"), "{text}");
}

/// Standard output already closed when the tool starts writing (a pipe whose
/// reading end was closed first: deterministic, unlike `| head -1`).
#[cfg(unix)]
fn closed_pipe() -> std::process::Stdio {
    use std::os::fd::{FromRawFd, OwnedFd};
    extern "C" {
        fn pipe(fds: *mut i32) -> i32;
        fn close(fd: i32) -> i32;
    }
    let mut fds = [0i32; 2];
    // SAFETY: fds holds two descriptors; the writing end is owned by the Stdio.
    unsafe {
        assert_eq!(pipe(fds.as_mut_ptr()), 0);
        close(fds[0]);
        std::process::Stdio::from(OwnedFd::from_raw_fd(fds[1]))
    }
}

/// `tca-check | head -1` and `tca-bench | head -1` panicked ("failed printing to
/// stdout", exit 101): like every xmpc tool (docs/diagnostics.md), the tca tools
/// end quietly by SIGPIPE (141 in the shell) on a closed stdout. Run as MPI
/// singletons (no mpiexec, whose own stdout would be the pipe).
#[cfg(unix)]
#[test]
fn tools_end_quietly_on_a_closed_stdout() {
    use std::os::unix::process::ExitStatusExt;
    let cases: [(&str, &[&str]); 3] = [
        (env!("CARGO_BIN_EXE_tca-check"), &[]),
        (env!("CARGO_BIN_EXE_tca-bench"), &["10", "1"]),
        (env!("CARGO_BIN_EXE_tca-skel"), &["allreduce", "4", "2", "8"]),
    ];
    for (exe, args) in cases {
        let o = Command::new(exe).args(args).env("TCA_CHECK_ROUNDS", "1").stdout(closed_pipe()).output().unwrap();
        let se = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.signal(), Some(13), "{exe} {args:?}: {:?}\n{se}", o.status);
        assert!(!se.contains("panicked"), "{exe}: {se}");
    }
}
