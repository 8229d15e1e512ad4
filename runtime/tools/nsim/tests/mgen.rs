//! An MGEN C program, compiled with `cc` and linked against the staticlib,
//! runs a ring and prints the expected simulated time.

use std::path::PathBuf;
use std::process::Command;

fn have_cc() -> bool {
    Command::new("cc").arg("--version").output().map(|o| o.status.success()).unwrap_or(false)
}

/// target/<profile> of this test binary (target/<profile>/deps/mgen-xxxx).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

#[test]
fn mgen_c_ring_prints_expected_time() {
    if !have_cc() {
        eprintln!("skipped: no C compiler");
        return;
    }
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let prof = profile_dir();
    let target = prof.parent().unwrap();
    // cargo test builds the library as an rlib only: build the staticlib too.
    let release = prof.file_name().unwrap() == "release";
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "--quiet", "--lib", "-p", "xmpc-nsim", "--target-dir"]).arg(target);
    if release {
        cmd.arg("--release");
    }
    let st = cmd.current_dir(&crate_dir).status().unwrap();
    assert!(st.success(), "building the staticlib failed");
    let lib = prof.join("libxmpc_nsim.a");
    assert!(lib.exists(), "{} missing", lib.display());

    let dir = std::env::temp_dir().join(format!("nsim-mgen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("ring");
    let st = Command::new("cc")
        .arg(crate_dir.join("tests/c/ring.c"))
        .arg(crate_dir.join("c/mgen_main.c"))
        .arg("-I")
        .arg(crate_dir.join("c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .status()
        .unwrap();
    assert!(st.success(), "cc failed");
    let cfg_path = dir.join("ring.toml");
    let cfg_text = r#"
[topology]
kind = "torus"
dims = [16]
[link]
bandwidth = "1 GB/s"
latency = "50ns"
[router]
delay = "100ns"
[packet]
size = 256
[mpi]
send_overhead = "500ns"
recv_overhead = "300ns"
"#;
    std::fs::write(&cfg_path, cfg_text).unwrap();
    let out = Command::new(&exe).arg(format!("--nsim-config={}", cfg_path.display())).arg("--nsim-quiet").args(["10", "1024"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    // each of the 10 steps costs one contention-free neighbour message:
    // o_s + 4 × 256 B at 1 GB/s + 2 routers × 100 ns + 1 link × 50 ns + o_r
    let cfg = xmpc_nsim::Config::from_toml(cfg_text, "ring.toml").unwrap();
    let topo = xmpc_nsim::topo::Topo::new(&cfg);
    let step = xmpc_nsim::engine::analytic_latency(&cfg, &topo, 0, 1, 1024);
    assert_eq!(step, 500_000 + 1_024_000 + 200_000 + 50_000 + 300_000);
    assert!(stdout.contains(&format!("ring time {} ps", 10 * step)), "{stdout}");
    assert!(stdout.contains("any-source from 15 tag 42"), "{stdout}");
    assert!(stdout.contains("done 16"), "{stdout}");
    assert!(stdout.contains("MGEN run time:"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
