//! `xmpc psim predict|sweep` and `--skeletonize --model psim:M.toml` through the driver:
//! results against the model's closed forms, and clear errors on bad input.

use std::process::{Command, Output};

fn xmpc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).output().expect("xmpc runs")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}
fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

const MACHINE: &str = include_str!("../passes/psim/tests/round.toml");

/// A triad in an iteration loop between two allreduces: block "triad" is 8.4 cycles per
/// element from memory on MACHINE (tests of the psim crate derive it), run `iters` times.
const PROG: &str = r#"#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    long n = 1000, i;
    int it, iters = 10, size;
    double *a, *b, *c, s = 3.0, g;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) n = atol(argv[1]);
    a = malloc(n * sizeof(double));
    b = malloc(n * sizeof(double));
    c = malloc(n * sizeof(double));
    for (i = 0; i < n; i++) { b[i] = 1.0; c[i] = 2.0; }
    for (it = 0; it < iters; it++) {
        MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        for (i = 0; i < n / size; i++)
            a[i] = b[i] + s * c[i];
    }
    MPI_Finalize();
    return 0;
}
"#;

fn setup() -> (tempfile::TempDir, String, String) {
    let d = tempfile::tempdir().unwrap();
    let m = d.path().join("m.toml");
    std::fs::write(&m, MACHINE).unwrap();
    let p = d.path().join("triad.c");
    std::fs::write(&p, PROG).unwrap();
    (d, m.display().to_string(), p.display().to_string())
}

fn block_line<'a>(s: &'a str, what: &str) -> &'a str {
    s.lines().find(|l| l.starts_with("block ") && l.contains(what)).unwrap_or_else(|| panic!("no block line with {what} in\n{s}"))
}

#[test]
fn predict_prints_blocks_and_the_total() {
    let (_d, m, p) = setup();
    // n = 2e8 over 2 ranks: 1e8 iterations per execution, from memory: 8.4 cy each at 2 GHz
    let o = xmpc(&["psim", "predict", &p, "--machine", &m, "--np", "2", "--set", "n=200000000"]);
    assert!(o.status.success(), "{}", err(&o));
    let s = out(&o);
    let l = block_line(&s, "count 10");
    let per: f64 = l.split_whitespace().skip_while(|w| *w != "per_exec").nth(1).unwrap().parse().unwrap();
    assert!((per - 1e8 * 8.4 / 2e9).abs() < 1e-6 * per, "{l}");
    let last = s.lines().last().unwrap();
    assert!(last.starts_with("total "), "{s}");
    let total: f64 = last[6..].trim().parse().unwrap();
    // the init block (2e8 elements, 2 stores) runs once too; the total holds 10 triads
    assert!(total > 10.0 * per && total < 10.0 * per + 1.0, "{s}");
    // -v shows the closed form and the nest's terms
    let o = xmpc(&["psim", "predict", &p, "--machine", &m, "--np", "2", "--set", "n=200000000", "-v"]);
    assert!(out(&o).contains("closed form:") && out(&o).contains("T_OL 1.50"), "{}", out(&o));
}

#[test]
fn predict_asks_for_values_it_does_not_know() {
    let (_d, m, p) = setup();
    // n comes from argv: without --set the blocks that need it are not predicted
    let o = xmpc(&["psim", "predict", &p, "--machine", &m, "--np", "2"]);
    assert!(o.status.success());
    assert!(out(&o).contains("needs the value of `n` (--set n=...)"), "{}", out(&o));
}

#[test]
fn bad_input_is_an_error_with_its_reason() {
    let (d, m, p) = setup();
    let bad = d.path().join("bad.toml");
    std::fs::write(&bad, MACHINE.replace("clock_ghz = 2.0", "clock_ghz = 0")).unwrap();
    let o = xmpc(&["psim", "predict", &p, "--machine", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("clock_ghz"), "{}", err(&o));
    // bad command-line values: exit 2 (docs/diagnostics.md), before any work
    // an in-core model that does not exist is named
    std::fs::write(&bad, MACHINE.replace("libm_cycles = 50", "libm_cycles = 50\nincore = \"osaca\"")).unwrap();
    let o = xmpc(&["psim", "predict", &p, "--machine", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("`core.incore` is `osaca`"), "{}", err(&o));
    let o = xmpc(&["psim", "predict", &p, "--machine", &m, "--set", "n"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("NAME=VALUE"), "{}", err(&o));
    let o = xmpc(&["psim", "sweep", &p, "--machine", &m, "--param", "colour", "--values", "1,2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("unknown parameter"), "{}", err(&o));
    let o = xmpc(&[&p, "--skeletonize", "--model", "bsim:m.toml", "-o", d.path().join("s.c").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("psim:MACHINE.toml"), "{}", err(&o));
    assert!(!d.path().join("s.c").exists());
}

#[test]
fn sweep_of_bandwidth_moves_the_memory_bound_block() {
    let (_d, m, p) = setup();
    let o = xmpc(&["psim", "sweep", &p, "--machine", &m, "--np", "2", "--set", "n=200000000", "--param", "bandwidth", "--values", "5,10,20,1000"]);
    assert!(o.status.success(), "{}", err(&o));
    let s = out(&o);
    let rows: Vec<Vec<f64>> = s
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim_start().starts_with("bandwidth"))
        .map(|l| l.split_whitespace().filter_map(|w| w.parse().ok()).collect())
        .collect();
    assert_eq!(rows.len(), 4, "{s}");
    let total: Vec<f64> = rows.iter().map(|r| *r.last().unwrap()).collect();
    assert!(total[0] > total[1] && total[1] > total[2] && total[2] > total[3], "{s}");
}

#[test]
fn skeleton_gets_the_closed_form() {
    let (d, m, p) = setup();
    let sk = d.path().join("skel.c");
    let o = xmpc(&[&p, "--skeletonize", "--model", &format!("psim:{m}"), "-o", sk.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let t = std::fs::read_to_string(&sk).unwrap();
    // the triad's time is a closed form in n and size, which the skeleton keeps
    let call = t.lines().find(|l| l.contains("BSIM_Add_time(") && l.contains("(double)(n)") && l.contains("(double)(size)")).unwrap_or_else(|| panic!("{t}"));
    assert!(call.contains("<="), "layer conditions as conditionals: {call}");
    assert!(t.contains("if (argc > 1) n = atol(argv[1]);"), "n is kept: {t}");
    // it compiles against LMPI
    let inc = concat!(env!("CARGO_MANIFEST_DIR"), "/runtime/tools/bsim/include");
    let c = Command::new("cc").args(["-fsyntax-only", "-I", inc]).arg(&sk).output().unwrap();
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
}

#[test]
fn blocktimes_table_has_every_rank_and_feeds_the_skeletonizer() {
    let (d, m, p) = setup();
    let bt = d.path().join("bt.json");
    let o = xmpc(&["psim", "predict", &p, "--machine", &m, "--np", "2", "--set", "n=200000000", "--blocktimes", bt.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&bt).unwrap()).unwrap();
    assert_eq!(v["format"], "xmpc-blocktimes/1");
    assert_eq!(v["ranks"], 2);
    let s = out(&o);
    let l = block_line(&s, "count 10");
    let id: u64 = l.split_whitespace().nth(1).unwrap().parse().unwrap();
    let per: f64 = l.split_whitespace().skip_while(|w| *w != "per_exec").nth(1).unwrap().parse().unwrap();
    let b = v["blocks"].as_array().unwrap().iter().find(|b| b["id"] == id).unwrap();
    assert_eq!(b["count"], 20, "10 executions on each of 2 ranks");
    let pr = b["per_rank"].as_array().unwrap();
    assert_eq!(pr.len(), 2);
    assert!((pr[1]["mean_s"].as_f64().unwrap() - per).abs() < 1e-9 * per);
    // the skeletonizer reads it as a measured table
    let sk = d.path().join("skel.c");
    let o = xmpc(&[&p, "--skeletonize", "--times", bt.to_str().unwrap(), "-o", sk.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    // 1e8 iterations x 8.4 cy at 2 GHz = 0.42 s per execution
    assert!(std::fs::read_to_string(&sk).unwrap().contains("BSIM_Add_time(4.200000e-1)"), "{}", std::fs::read_to_string(&sk).unwrap());
}

/// `-v` puts llvm-mca's cycles per iteration next to the pipe table's for the triad's
/// loop (compiled by mpicc -O2 -S); without llvm-mca it says so once. The comparison
/// runs only where llvm-mca is installed (Debian package `llvm-14`, or XMPC_LLVM_MCA).
#[test]
fn verbose_prints_llvm_mca_next_to_the_pipe_table() {
    let (_d, m, p) = setup();
    let o = xmpc(&["psim", "predict", &p, "--machine", &m, "--np", "2", "--set", "n=200000000", "-v"]);
    assert!(o.status.success(), "{}", err(&o));
    let s = out(&o);
    if xmpc_psim::mca::find().is_none() {
        assert!(std::env::var_os("XMPC_REQUIRE_LLVM_MCA").is_none(), "XMPC_REQUIRE_LLVM_MCA is set (CI installs llvm-14) but llvm-mca was not found");
        eprintln!("verbose_prints_llvm_mca_next_to_the_pipe_table: llvm-mca is not installed (Debian package llvm-14): only the message is checked");
        assert_eq!(s.matches("# llvm-mca not found").count(), 1, "{s}");
        return;
    }
    // the triad's nest (line 17, a[i] = b[i] + s * c[i]): one comparison line after it
    let lines: Vec<&str> = s.lines().collect();
    let at = lines.iter().position(|l| l.contains("nest [i:") && l.contains("loads 2 stores 1")).unwrap_or_else(|| panic!("{s}"));
    let cmp = lines.iter().skip(at + 1).find(|l| l.contains("llvm-mca:")).unwrap_or_else(|| panic!("{s}"));
    assert!(cmp.contains("psim in-core 1.50 cy/it"), "{cmp}");
    let cy: f64 = cmp.split_whitespace().nth(1).unwrap().parse().unwrap_or_else(|_| panic!("{cmp}"));
    // 2 loads, a multiply, an add, a store, the loop's increment, compare and branch:
    // between 1 and 4 cycles on any x86 core llvm-mca knows
    assert!((1.0..=4.0).contains(&cy), "{cmp}");
}

/// A divide in L1 (n = 1000 over 2 ranks: 3 arrays of 500 doubles, 12 KB), run 10 times:
/// in-core bound. The pipe table charges a divide 10 cycles (round.toml's `div_cycles`);
/// llvm-mca's x86 models a divide's throughput at well under that.
const DIV: &str = r#"#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    long n = 1000, i;
    int it, iters = 10, size;
    double *a, *b, *c;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) n = atol(argv[1]);
    a = malloc(n * sizeof(double));
    b = malloc(n * sizeof(double));
    c = malloc(n * sizeof(double));
    for (i = 0; i < n; i++) { b[i] = 1.0; c[i] = 2.0; }
    for (it = 0; it < iters; it++) {
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < n / size; i++)
            a[i] = b[i] / c[i];
    }
    MPI_Finalize();
    return 0;
}
"#;

fn per_exec(s: &str) -> f64 {
    let l = block_line(s, "count 10");
    l.split_whitespace().skip_while(|w| *w != "per_exec").nth(1).unwrap().parse().unwrap()
}

fn xmpc_env(args: &[&str], llvm_mca: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).env("XMPC_LLVM_MCA", llvm_mca).output().expect("xmpc runs")
}

/// `incore = "llvm-mca"`: the divide loop's in-core time is llvm-mca's cycles per
/// iteration (as `-v` prints them) times the iterations over the clock, not the pipe
/// table's; the skeleton's closed form holds the same figure. Where llvm-mca cannot run
/// (`XMPC_LLVM_MCA=/nonexistent`) each block with a loop says so once on stderr and keeps
/// the table's time.
#[test]
fn incore_llvm_mca_is_the_in_core_time_and_falls_back_with_a_message() {
    let (d, m, _) = setup();
    let p = d.path().join("div.c").display().to_string();
    std::fs::write(&p, DIV).unwrap();
    let mm = d.path().join("mca.toml").display().to_string();
    std::fs::write(&mm, MACHINE.replace("libm_cycles = 50", "libm_cycles = 50\nincore = \"llvm-mca\"")).unwrap();
    let predict = |machine: &str, mca: Option<&str>, v: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_xmpc"));
        c.args(["psim", "predict", &p, "--machine", machine, "--np", "2", "--set", "n=1000"]);
        if v {
            c.arg("-v");
        }
        if let Some(x) = mca {
            c.env("XMPC_LLVM_MCA", x);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", err(&o));
        o
    };
    let table = per_exec(&out(&predict(&m, None, false)));
    // 500 iterations of a divide at 10 cycles (2 GHz)
    assert!((table - 500.0 * 10.0 / 2e9).abs() < 1e-6 * table, "{table}");
    // no llvm-mca: the table's time, and why, once per block with a loop
    let o = predict(&mm, Some("/nonexistent"), false);
    assert_eq!(per_exec(&out(&o)), table);
    let e = err(&o);
    let said: Vec<&str> = e.lines().filter(|l| l.contains("llvm-mca cannot time")).collect();
    assert!(said.iter().any(|l| l.contains("XMPC_LLVM_MCA=/nonexistent") && l.contains("in-core time from the pipe table")), "{e}");
    let ids: Vec<&str> = said.iter().map(|l| l.split("block ").nth(1).unwrap().split(':').next().unwrap()).collect();
    let mut uniq = ids.clone();
    uniq.dedup();
    assert_eq!(ids, uniq, "once per block: {e}");
    assert_eq!(ids.len(), 2, "the init loop's block and the divide's: {e}");
    // --blocktimes models every rank again, a sweep every value: still once per block
    let bt = d.path().join("bt.json");
    let o = xmpc_env(&["psim", "predict", &p, "--machine", &mm, "--np", "2", "--set", "n=1000", "--blocktimes", bt.to_str().unwrap()], "/nonexistent");
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(err(&o).matches("llvm-mca cannot time").count(), 2, "{}", err(&o));
    let o = xmpc_env(&["psim", "sweep", &p, "--machine", &mm, "--np", "2", "--set", "n=1000", "--param", "lanes", "--values", "1,2,4"], "/nonexistent");
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(err(&o).matches("llvm-mca cannot time").count(), 2, "{}", err(&o));
    // a skeleton too: the message, and the table's closed form
    let sk = d.path().join("skel.c");
    let skel = |machine: &str, mca: Option<&str>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_xmpc"));
        c.args([p.as_str(), "--skeletonize", "--model", &format!("psim:{machine}"), "-o", sk.to_str().unwrap()]);
        if let Some(x) = mca {
            c.env("XMPC_LLVM_MCA", x);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", err(&o));
        (std::fs::read_to_string(&sk).unwrap(), err(&o))
    };
    let (sk_table, _) = skel(&m, None);
    let (sk_none, e) = skel(&mm, Some("/nonexistent"));
    assert_eq!(sk_none, sk_table);
    assert!(e.contains("llvm-mca cannot time"), "{e}");
    if xmpc_psim::mca::find().is_none() {
        assert!(std::env::var_os("XMPC_REQUIRE_LLVM_MCA").is_none(), "XMPC_REQUIRE_LLVM_MCA is set (CI installs llvm-14) but llvm-mca was not found");
        eprintln!("incore_llvm_mca...: llvm-mca is not installed (Debian package llvm-14): only the fallback is checked");
        return;
    }
    let o = predict(&mm, None, true);
    let s = out(&o);
    assert!(s.contains("# in-core: llvm-mca"), "{s}");
    assert!(!err(&o).contains("llvm-mca cannot time"), "{}", err(&o));
    // llvm-mca's figure for the divide's nest: "llvm-mca: X cy/it (P per pass, L lanes, ..."
    let lines: Vec<&str> = s.lines().collect();
    let at = lines.iter().position(|l| l.contains("nest [i:") && l.contains("loads 2 stores 1")).unwrap_or_else(|| panic!("{s}"));
    assert!(lines[at].contains("(in-core: llvm-mca)"), "{}", lines[at]);
    let cmp = lines.iter().skip(at + 1).find(|l| l.contains("llvm-mca:")).unwrap_or_else(|| panic!("{s}"));
    let w: Vec<&str> = cmp.split_whitespace().collect();
    let (per_pass, lanes): (f64, f64) =
        (w[3].trim_start_matches('(').parse().unwrap_or_else(|_| panic!("{cmp}")), w[6].parse().unwrap_or_else(|_| panic!("{cmp}")));
    let cy = per_pass / lanes;
    assert!(cmp.contains("psim in-core 10.00 cy/it"), "the table's figure next to it: {cmp}");
    let mca = per_exec(&s);
    assert!((mca - 500.0 * cy / 2e9).abs() < 1e-3 * mca, "{mca} s against llvm-mca's {cy} cy/it: {cmp}");
    assert!((mca / table - 1.0).abs() > 0.2, "llvm-mca's {mca} s against the table's {table} s");
    // a sweep of lanes says that llvm-mca's loops do not move
    let o = xmpc(&["psim", "sweep", &p, "--machine", &mm, "--np", "2", "--set", "n=1000", "--param", "lanes", "--values", "1,8"]);
    assert!(o.status.success() && out(&o).starts_with("# note: in-core from llvm-mca"), "{}", out(&o));
    // without -v the same time (no comparison lines)
    assert_eq!(per_exec(&out(&predict(&mm, None, false))), mca);
    // the skeleton's closed form carries llvm-mca's cycles
    let (sk_mca, e) = skel(&mm, None);
    assert!(!e.contains("llvm-mca cannot time"), "{e}");
    let has_cy = |t: &str| {
        let call = t.lines().find(|l| l.contains("BSIM_Add_time(") && l.contains("(double)(size)")).unwrap_or_else(|| panic!("{t}"));
        call.split(|c: char| !(c.is_ascii_digit() || ".e".contains(c))).filter_map(|w| w.parse::<f64>().ok()).any(|x| (x - cy).abs() < 1e-9 * cy)
    };
    assert!(has_cy(&sk_mca), "{cy} in {sk_mca}");
    assert!(!has_cy(&sk_table), "{sk_table}");
}

/// `memory.socket_bandwidth_gbs`: the ranks of a node share it. With the socket's
/// bandwidth equal to one core's, k ranks (at most `cores`) each stream at 1/k of it, so
/// the memory-bound triad at `--ranks-per-node 2` costs what it costs alone at half the
/// bandwidth, and 8 ranks on a 4-core node what it costs at a quarter; without the field,
/// no sharing. The default is min(np, cores).
#[test]
fn ranks_of_a_node_share_its_memory_bandwidth() {
    let (d, _m, p) = setup();
    let mach = |name: &str, text: String| {
        let f = d.path().join(name);
        std::fs::write(&f, text).unwrap();
        f.display().to_string()
    };
    let shared = mach("shared.toml", MACHINE.replace("cores = 1", "cores = 4").replace("bandwidth_gbs = 10", "bandwidth_gbs = 10\nsocket_bandwidth_gbs = 10"));
    let slow =
        |bw: &str| mach(&format!("bw{bw}.toml"), MACHINE.replace("cores = 1", "cores = 4").replace("bandwidth_gbs = 10", &format!("bandwidth_gbs = {bw}")));
    let plain = mach("plain.toml", MACHINE.replace("cores = 1", "cores = 4"));
    let triad = |m: &str, extra: &[&str]| -> (f64, String) {
        let mut a = vec!["psim", "predict", &p, "--machine", m, "--np", "2", "--set", "n=200000000"];
        a.extend(extra);
        let o = xmpc(&a);
        assert!(o.status.success(), "{}", err(&o));
        let s = out(&o);
        let l = block_line(&s, "count 10").to_string();
        (l.split_whitespace().skip_while(|w| *w != "per_exec").nth(1).unwrap().parse().unwrap(), s)
    };
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
    let (alone, s1) = triad(&shared, &["--ranks-per-node", "1"]);
    let (plain_alone, _) = triad(&plain, &[]);
    assert!(close(alone, plain_alone), "one rank alone: the socket field changes nothing ({alone} vs {plain_alone})\n{s1}");
    assert!(s1.contains("# memory: 1 rank(s) of a node share 10 GB/s: transfers from memory x1.000"), "{s1}");
    let (two, s2) = triad(&shared, &[]); // default: min(np = 2, cores = 4)
    assert!(s2.contains("# memory: 2 rank(s)") && s2.contains("x2.000"), "{s2}");
    assert!(close(two, triad(&slow("5"), &[]).0), "2 ranks share 10 GB/s: as 5 GB/s alone ({two})");
    assert!(two > 1.5 * alone, "{two} vs {alone}");
    let (eight, _) = triad(&shared, &["--ranks-per-node", "8"]);
    assert!(close(eight, triad(&slow("2.5"), &[]).0), "8 ranks on 4 cores: 4 stream at once ({eight})");
    let (unshared, _) = triad(&plain, &["--ranks-per-node", "8"]);
    assert!(close(unshared, alone), "no socket_bandwidth_gbs: no sharing");
    // a bad value is refused with the field's name
    let bad = mach("bad.toml", MACHINE.replace("bandwidth_gbs = 10", "bandwidth_gbs = 10\nsocket_bandwidth_gbs = 0"));
    let o = xmpc(&["psim", "predict", &p, "--machine", &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("memory.socket_bandwidth_gbs"), "{}", err(&o));
    let o = xmpc(&["psim", "predict", &p, "--machine", &shared, "--ranks-per-node", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

/// The skeleton's closed form asks BSIM how many ranks share the node
/// (`BSIM_Node_ranks()`, the platform's `[nodes]`): the same skeleton predicts the triad
/// twice as long with both ranks on one node as with a node each, and exactly the
/// closed form of `predict --ranks-per-node`.
#[test]
fn skeleton_shares_memory_with_the_platforms_node() {
    let (d, _m, p) = setup();
    let shared = d.path().join("shared.toml");
    std::fs::write(&shared, MACHINE.replace("cores = 1", "cores = 4").replace("bandwidth_gbs = 10", "bandwidth_gbs = 10\nsocket_bandwidth_gbs = 10")).unwrap();
    let m = shared.to_str().unwrap();
    let sk = d.path().join("skel.c");
    let o = xmpc(&[&p, "--skeletonize", "--model", &format!("psim:{m}"), "-o", sk.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(std::fs::read_to_string(&sk).unwrap().contains("(double)BSIM_Node_ranks()"));
    let exe = d.path().join("skel");
    let o = xmpc(&[&p, "--skeletonize", "--model", &format!("psim:{m}"), "-o", exe.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let plat = |k: u32| {
        let f = d.path().join(format!("p{k}.toml"));
        std::fs::write(&f, format!("name = \"t\"\n[network]\nlatency = 1e-6\nbandwidth = 1e9\n[nodes]\nranks_per_node = {k}\n")).unwrap();
        f.display().to_string()
    };
    let compute = |k: u32| -> f64 {
        let o = Command::new(env!("CARGO_BIN_EXE_xmpc"))
            .args(["bsim", "run", exe.to_str().unwrap(), "-np", "2", "--host-time", "off", "--platform", &plat(k), "--", "200000000"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}{}", out(&o), err(&o));
        let s = out(&o);
        let l = s.lines().find(|l| l.trim_start().starts_with("compute")).unwrap_or_else(|| panic!("{s}"));
        l.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    let (one, two) = (compute(1), compute(2));
    let predict = |k: &str| -> f64 {
        let o = xmpc(&["psim", "predict", &p, "--machine", m, "--np", "2", "--set", "n=200000000", "--ranks-per-node", k]);
        let s = out(&o);
        s.lines().last().unwrap()[6..].trim().parse().unwrap()
    };
    let (p1, p2) = (predict("1"), predict("2"));
    assert!((one - p1).abs() <= 1e-6 * p1 && (two - p2).abs() <= 1e-6 * p2, "bsim {one} / {two} against predict {p1} / {p2}");
    assert!(two > 1.5 * one, "{one} {two}");
}

/// The same in Fortran: the skeleton declares `bsim_node_ranks` (implicit none) and runs.
#[test]
fn fortran_skeleton_declares_and_asks_the_node() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("triad.f90");
    std::fs::write(
        &src,
        "program triad\n  implicit none\n  include 'mpif.h'\n  integer, parameter :: n = 4000000\n  double precision, allocatable :: a(:), b(:), c(:)\n  integer :: i, it, ierr\n  call MPI_Init(ierr)\n  allocate(a(n), b(n), c(n))\n  b = 1.0d0\n  c = 2.0d0\n  do it = 1, 10\n    call MPI_Barrier(MPI_COMM_WORLD, ierr)\n    do i = 1, n\n      a(i) = b(i) + 3.0d0 * c(i)\n    end do\n  end do\n  print *, a(1)\n  call MPI_Finalize(ierr)\nend program triad\n",
    )
    .unwrap();
    let m = d.path().join("shared.toml");
    std::fs::write(&m, MACHINE.replace("cores = 1", "cores = 4").replace("bandwidth_gbs = 10", "bandwidth_gbs = 10\nsocket_bandwidth_gbs = 10")).unwrap();
    let model = format!("psim:{}", m.display());
    let f = d.path().join("skel.f90");
    let o = xmpc(&[src.to_str().unwrap(), "--skeletonize", "--model", &model, "-o", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let t = std::fs::read_to_string(&f).unwrap();
    assert!(t.contains("integer, external :: bsim_node_ranks") && t.contains("dble(bsim_node_ranks())"), "{t}");
    let exe = d.path().join("skel");
    let o = xmpc(&[src.to_str().unwrap(), "--skeletonize", "--model", &model, "-o", exe.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let run = |k: u32| -> f64 {
        let p = d.path().join(format!("p{k}.toml"));
        std::fs::write(&p, format!("name = \"t\"\n[network]\nlatency = 1e-6\nbandwidth = 1e9\n[nodes]\nranks_per_node = {k}\n")).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_xmpc"))
            .args(["bsim", "run", exe.to_str().unwrap(), "-np", "2", "--host-time", "off", "--platform", p.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}{}", out(&o), err(&o));
        let s = out(&o);
        let l = s.lines().find(|l| l.trim_start().starts_with("compute")).unwrap_or_else(|| panic!("{s}"));
        l.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert!(two > 1.5 * one, "memory-bound loop: 2 ranks on a node share its bandwidth ({one} vs {two})");
}

/// `xmpc psim probe` describes this host in a file the model reads back: a node-wide
/// memory bandwidth where there is more than one CPU (each process of that run gets at
/// most what one streams alone, give or take the host's noise), x86's folded loads, and
/// which stream each level's bandwidth came from.
#[test]
fn probe_writes_a_machine_file_the_model_reads() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("here.toml");
    let o = xmpc(&["psim", "probe", "--quick", "-o", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    let t = std::fs::read_to_string(&f).unwrap();
    let m = xmpc_psim_machine::Machine::load(&f).unwrap();
    let (cores, bw) = (m.cores, m.memory.bandwidth_gbs);
    match m.memory.socket_bandwidth_gbs {
        Some(s) => assert!(cores > 1 && s > 0.5 * bw && s < 1.5 * cores as f64 * bw, "socket {s} GB/s, one core {bw} GB/s, {cores} cores"),
        None => assert_eq!(cores, 1, "{t}"),
    }
    assert_eq!(m.core.fold_loads, cfg!(target_arch = "x86_64"), "{t}");
    assert!(m.core.fp_pipes >= 1);
    assert!(t.contains("(scalar)") && t.contains("(AVX2:"), "{t}");
    // the lagged-read probe ran (three cache levels or more on the hosts this runs on) and
    // says how much an L2 hit costs beside a memory stream: a share of a read from
    // memory, not hundreds of them
    if m.caches.len() >= 2 {
        let r = m.memory.reuse_cost.unwrap_or_else(|| panic!("no memory.reuse_cost:\n{t}"));
        assert!((0.0..5.0).contains(&r), "reuse_cost {r}\n{t}");
        assert!(t.contains("reuse: b[i] = 0.5 * (u[i] + u[i - d])"), "{t}");
    }
    // the model reads it: a prediction with it works
    let (_d2, _m, p) = setup();
    let o = xmpc(&["psim", "predict", &p, "--machine", f.to_str().unwrap(), "--np", "2", "--set", "n=1000"]);
    assert!(o.status.success() && out(&o).lines().last().unwrap().starts_with("total "), "{}{}", out(&o), err(&o));
}
