//! `xmpc-nsim` as a careless user meets it (issue 20): out-of-range ranks and sizes are
//! refused with exit 2 before anything is allocated, outputs follow the output policy.

use std::process::{Command, Output};

fn nsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc-nsim")).args(args).output().expect("xmpc-nsim runs")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const CFG: &str = "[topology]\nkind = \"torus\"\ndims = [2, 2]\n[link]\nbandwidth = \"1 GB/s\"\nlatency = \"0ns\"\n[router]\ndelay = \"10ns\"\nvcs = 2\nbuffer_packets = 4\n[packet]\nsize = 240\nheader = 16\n";

fn cfg(d: &tempfile::TempDir) -> String {
    let p = d.path().join("m.toml");
    std::fs::write(&p, CFG).unwrap();
    p.display().to_string()
}

/// `latency --dst 4` on a 4-node machine indexed past the rank table (panic).
#[test]
fn latency_rank_out_of_range_is_a_usage_error() {
    let d = tempfile::tempdir().unwrap();
    let c = cfg(&d);
    let o = nsim(&["latency", "-c", &c, "--dst", "4"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("--dst 4") && !err(&o).contains("panicked"), "{}", err(&o));
    let o = nsim(&["latency", "-c", &c, "--dst", "3"]);
    assert!(o.status.success(), "{}", err(&o));
}

/// `-n 100000000` aborted on a 23 GB allocation, `-n 0` was accepted; bad pattern
/// values exited 1.
#[test]
fn rank_counts_and_pattern_values_are_bounded() {
    let d = tempfile::tempdir().unwrap();
    let c = cfg(&d);
    for n in ["0", "100000000"] {
        let o = nsim(&["run", "-c", &c, "-q", "-n", n, "-p", "ring"]);
        assert_eq!(o.status.code(), Some(2), "-n {n}: {}", err(&o));
        assert!(err(&o).contains(&format!("-n {n}")), "{}", err(&o));
    }
    for p in ["ring:bytes=-1", "ring:bytes=99999999999G", "message:dst=9", "ring:loops=5000000000"] {
        let o = nsim(&["run", "-c", &c, "-q", "-p", p]);
        assert_eq!(o.status.code(), Some(2), "{p}: {}", err(&o));
        assert!(!err(&o).contains("panicked"), "{}", err(&o));
    }
    let o = nsim(&["run", "-c", &c, "-q", "-n", "4", "-p", "ring:bytes=1K,loops=1", "--brief"]);
    assert!(o.status.success(), "{}", err(&o));
}

/// A JSON output through a symlink or over the config is refused; nothing is written.
#[cfg(unix)]
#[test]
fn outputs_follow_the_policy() {
    let d = tempfile::tempdir().unwrap();
    let c = cfg(&d);
    let link = d.path().join("r.json");
    std::os::unix::fs::symlink(&c, &link).unwrap();
    let o = nsim(&["run", "-c", &c, "-q", "-p", "ring:bytes=1K,loops=1", "--brief", "--json", link.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&c).unwrap(), CFG);
    let o = nsim(&["run", "-c", &c, "-q", "-p", "ring:bytes=1K,loops=1", "--brief", "--json", &c]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&c).unwrap(), CFG);
}

/// The plots (`--svg`, `--png`) were not checked before the run (a link there was
/// refused only after the simulation, exit 1), nor was any output's directory; a
/// pattern argument the pattern does not take was ignored (`halo3d:loops=9` ran the
/// default 10 iterations without a word).
#[cfg(unix)]
#[test]
fn plots_and_pattern_arguments_are_checked_first() {
    let d = tempfile::tempdir().unwrap();
    let c = cfg(&d);
    std::os::unix::fs::symlink(&c, d.path().join("p.vc.svg")).unwrap();
    let prefix = d.path().join("p").display().to_string();
    let o = nsim(&["run", "-c", &c, "-q", "-p", "ring:bytes=1K,loops=1", "--brief", "--svg", &prefix]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("p.vc.svg") && o.stdout.is_empty(), "{}", err(&o));
    for out in [["--json", "/nonexistent/r.json"], ["--png", "/nonexistent/p"]] {
        let o = nsim(&["run", "-c", &c, "-q", "-p", "ring:bytes=1K,loops=1", "--brief", out[0], out[1]]);
        assert_eq!(o.status.code(), Some(2), "{out:?}: {}", err(&o));
        assert!(err(&o).contains("does not exist") && o.stdout.is_empty(), "{}", err(&o));
    }
    let o = nsim(&["run", "-c", &c, "-q", "-p", "halo3d:bytes=1K,loops=9", "--brief"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("`halo3d` takes no argument `loops`"), "{}", err(&o));
}

/// `run -t 100000` (host threads) partitioned the network into 100,000 logical
/// processes and was still at it after 30 s; `sim.threads` in a config likewise. Both
/// are bounded (1024): the option exits 2, the config field is an error naming it.
#[test]
fn host_threads_are_bounded() {
    let d = tempfile::tempdir().unwrap();
    let c = cfg(&d);
    let t0 = std::time::Instant::now();
    let o = nsim(&["run", "-c", &c, "-p", "ring", "-q", "-t", "100000"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let big = d.path().join("t.toml");
    std::fs::write(&big, format!("{CFG}[sim]\nthreads = 100000\n")).unwrap();
    let o = nsim(&["run", "-c", big.to_str().unwrap(), "-p", "ring", "-q"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("sim.threads"), "{}", err(&o));
    assert!(t0.elapsed().as_secs() < 20, "{:?}", t0.elapsed());
    let o = nsim(&["run", "-c", &c, "-p", "ring", "-q", "-t", "2"]);
    assert!(o.status.success(), "{}", err(&o));
}
