//! `mpiexec -n 2 tca-bench [ITERS BLOCKS [COLLECTIVE]]`: latency of the hybrid collectives
//! (TCA emulated over a shared-memory window) against the same schedules with
//! every step over MPI (subclusters of 1) and against MPICH's own collective
//! (whatever MPIR_CVAR_*_INTRA_ALGORITHM selects for this run). Variants are
//! interleaved block by block (ABCABC...), so a load change hits all of them;
//! each block times ITERS back-to-back calls, and the line reports the minimum
//! and the median over BLOCKS of the mean per call, in microseconds, as rank
//! 0 sees it. testsuite/bench/tca/run.sh drives it.

use xmpc_tca::rt::{self, mpi, Hybrid};

fn main() {
    // a closed stdout (`... | head -1`) ends quietly by SIGPIPE, as every tool
    // (docs/diagnostics.md); println! panicked
    xmpc_outfile::quiet_on_closed_pipe();
    // SAFETY: once, before any MPI call.
    unsafe { rt::mpi_init() };
    let w = mpi::world();
    let me = mpi::rank(w);
    let p = mpi::size(w);
    let only = std::env::args().nth(3);
    let a: Vec<usize> = std::env::args().skip(1).take(2).filter_map(|s| s.parse().ok()).collect();
    let iters = a.first().copied().unwrap_or(2000);
    let blocks = a.get(1).copied().unwrap_or(15);
    let mut tca = Hybrid::new(w, p, 64 * 1024);
    let mut ib = Hybrid::new(w, 1, 64 * 1024);
    let (fty, sum) = (mpi::ty(2), mpi::op(0));
    type Op<'a> = Box<dyn FnMut(&mut Hybrid, &mut Hybrid, usize) + 'a>;
    type Case<'a> = (&'static str, usize, Vec<(&'static str, Op<'a>)>);
    // (collective, bytes, variant name, call)
    let mut cases: Vec<Case> = vec![];
    let v4 = vec![0u8; 4];
    {
        let mk = |which: usize| -> Op {
            let mut b = v4.clone();
            Box::new(move |t: &mut Hybrid, i: &mut Hybrid, _| match which {
                0 => {
                    t.allreduce(&mut b, 1, fty, sum);
                }
                1 => {
                    i.allreduce(&mut b, 1, fty, sum);
                }
                _ => {
                    mpi::allreduce(&mut b, 1, fty, sum, mpi::world());
                }
            })
        };
        cases.push(("allreduce", 4, vec![("hybrid", mk(0)), ("schedule-over-MPI", mk(1)), ("MPICH", mk(2))]));
    }
    for bytes in [8usize, 4096] {
        let mk = |which: usize| -> Op {
            let mut b = vec![1u8; bytes];
            Box::new(move |t: &mut Hybrid, i: &mut Hybrid, _| match which {
                0 => t.bcast(&mut b, 0),
                1 => i.bcast(&mut b, 0),
                _ => mpi::bcast(&mut b, 0, mpi::world()),
            })
        };
        cases.push(("bcast", bytes, vec![("hybrid", mk(0)), ("schedule-over-MPI", mk(1)), ("MPICH", mk(2))]));
        let mk = |which: usize| -> Op {
            let s = vec![1u8; bytes];
            let mut r = vec![0u8; bytes * p];
            Box::new(move |t: &mut Hybrid, i: &mut Hybrid, _| match which {
                0 => t.allgather(&s, &mut r),
                1 => i.allgather(&s, &mut r),
                _ => mpi::allgather(&s, &mut r, mpi::world()),
            })
        };
        cases.push(("allgather", bytes, vec![("hybrid", mk(0)), ("schedule-over-MPI", mk(1)), ("MPICH", mk(2))]));
    }
    for (name, bytes, mut vars) in cases {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut t: Vec<Vec<f64>> = vec![vec![]; vars.len()];
        // warm up
        for (_, f) in vars.iter_mut() {
            for i in 0..iters / 10 + 1 {
                f(&mut tca, &mut ib, i);
            }
        }
        for _ in 0..blocks {
            for (v, (_, f)) in vars.iter_mut().enumerate() {
                mpi::barrier(w);
                let t0 = mpi::wtime();
                for i in 0..iters {
                    f(&mut tca, &mut ib, i);
                }
                t[v].push((mpi::wtime() - t0) / iters as f64 * 1e6);
            }
        }
        if me == 0 {
            for (v, (vn, _)) in vars.iter().enumerate() {
                let mut x = t[v].clone();
                x.sort_by(|a, b| a.partial_cmp(b).unwrap());
                println!("{name} {bytes} {vn} {:.3} {:.3}", x[0], x[x.len() / 2]);
            }
        }
    }
    if me == 0 {
        let s = tca.stats;
        println!("stats hybrid chains={} mpi_msgs={} fallbacks={}", s.chains, s.mpi_msgs, s.fallbacks);
        let s = ib.stats;
        println!("stats schedule-over-MPI chains={} mpi_msgs={} fallbacks={}", s.chains, s.mpi_msgs, s.fallbacks);
    }
    tca.free();
    ib.free();
    // SAFETY: last MPI call.
    unsafe { rt::mpi_finalize() };
}
