//! `tca-skel OP P K BYTES [STAGE_IN STAGE_OUT REDUCE]` prints the BSIM skeleton
//! (C) of a hybrid collective: OP = allreduce | bcast | allgather (bytes: the
//! message; for allgather the block), P ranks, subclusters of K, charges in
//! seconds. testsuite/bench/tca/run.sh replays them.

use xmpc_tca::sched::{allgather, allreduce, bcast, Groups};
use xmpc_tca::skel::{skeleton_c, Charges};

fn main() {
    // a closed stdout (`tca-skel ... | head -1`) ends quietly by SIGPIPE (docs/diagnostics.md)
    xmpc_outfile::quiet_on_closed_pipe();
    let a: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: tca-skel allreduce|bcast|allgather P K BYTES [STAGE_IN STAGE_OUT REDUCE]";
    if a.len() != 4 && a.len() != 7 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let num = |i: usize| -> usize {
        a[i].parse().ok().filter(|&n| n > 0).unwrap_or_else(|| {
            eprintln!("tca-skel: argument {} ({:?}) must be a positive integer\n{usage}", i + 1, a[i]);
            std::process::exit(2)
        })
    };
    let sec = |i: usize| -> f64 {
        a.get(i).map_or(0.0, |s| {
            s.parse().ok().filter(|&x: &f64| x >= 0.0).unwrap_or_else(|| {
                eprintln!("tca-skel: argument {} ({s:?}) must be seconds >= 0\n{usage}", i + 1);
                std::process::exit(2)
            })
        })
    };
    let (p, k, bytes) = (num(1), num(2), num(3));
    let g = Groups::blocks(p, k);
    let plans = match a[0].as_str() {
        "allreduce" => allreduce(&g, bytes),
        "bcast" => bcast(&g, 0, bytes),
        "allgather" => allgather(&g, bytes),
        o => {
            eprintln!("tca-skel: unknown collective {o:?}\n{usage}");
            std::process::exit(2)
        }
    };
    print!("{}", skeleton_c(&plans, Charges { stage_in: sec(4), stage_out: sec(5), reduce: sec(6) }, 1));
}
