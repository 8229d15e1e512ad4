//! Run under mpiexec (tests/mpi.rs): every hybrid collective against MPICH's own
//! on the same data, compared bit for bit; many rounds in a row, so a buffer
//! reused too early shows. Subcluster size from `XMPC_TCA_SUBCLUSTER` (default
//! 2). Exit status 1 and a line per mismatch on failure.
//! TCA emulated over a shared-memory window.

use xmpc_tca::chain::{parity_order, Chain, GridDim};
use xmpc_tca::rt::{self, mpi, Hybrid};

/// A halo exchange on a ring of the subcluster's ranks through Memcpy2D
/// descriptors (block-stride: 2 columns of a 5 x 7 block of u32), chained in
/// parity order; the receiver only waits. Returns the number of wrong values.
fn halo_ring(h: &mut Hybrid, me: usize, round: usize) -> usize {
    const R: usize = 5;
    const C: usize = 7;
    let g = h.groups().clone();
    let members: Vec<usize> = (0..g.size()).filter(|&r| g.of[r] == g.of[me]).collect();
    let n = members.len();
    let val = |rank: usize, r: usize, c: usize| (rank * 1000 + r * 10 + c + round * 100_000) as u32;
    let a: Vec<u32> = (0..R * C).map(|i| val(me, i / C, i % C)).collect();
    let mut chain = Chain::new();
    let i = members.iter().position(|&r| r == me).unwrap();
    let (lo, hi) = (members[(i + n - 1) % n], members[(i + 1) % n]);
    if n > 1 {
        for peer in parity_order(&[GridDim { index: i, lo: Some(lo), hi: Some(hi) }]).into_iter().flatten() {
            // to the lower neighbour: my first 2 columns land in its "from
            // above" area; to the upper one: my last 2 columns, "from below"
            let (col, at) = if peer == lo && (peer != hi || chain.descs().is_empty()) { (0, R * 8) } else { (C - 2, 0) };
            chain.memcpy2d(peer, at, 8, col * 4, C * 4, 8, R).unwrap();
        }
    }
    let incoming = if n > 2 { 2 } else { (n - 1) as u64 };
    // SAFETY: every source extent lies in `a`.
    let w = unsafe { h.exchange(&chain, a.as_ptr() as *const u8, incoming) }.expect("destinations in the subcluster");
    if n < 2 {
        return 0;
    }
    // The last member reads its halos late: the others meanwhile run on into the
    // broadcasts after the last ring, where an inner node needs nothing from it, and
    // must still not write into the buffer it reads (rt.rs, `done`). Without the
    // delay that overlap happened in about 1 run of 20.
    if i == n - 1 {
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    let got = |off: usize| u32::from_le_bytes(w[off..off + 4].try_into().unwrap());
    let mut bad = 0;
    for r in 0..R {
        for j in 0..2 {
            bad += (got(r * 8 + j * 4) != val(lo, r, C - 2 + j)) as usize;
            bad += (got(R * 8 + r * 8 + j * 4) != val(hi, r, j)) as usize;
        }
    }
    bad
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn main() {
    // a closed stdout (`... | head -1`) ends quietly by SIGPIPE, as every tool
    // (docs/diagnostics.md); println! panicked
    xmpc_outfile::quiet_on_closed_pipe();
    // SAFETY: once, before any MPI call.
    unsafe { rt::mpi_init() };
    let world = mpi::world();
    let (me, p) = (mpi::rank(world), mpi::size(world));
    let k = match rt::subcluster_from_env() {
        Ok(k) => k.unwrap_or(2),
        Err(e) => {
            // every rank reads the same environment: one prints, all finalize and exit
            // (an MPI_Abort right after the print could kill the job before the
            // launcher forwarded the text)
            if me == 0 {
                eprintln!("tca-check: {e}");
            }
            // SAFETY: last MPI call, made by every rank.
            unsafe { rt::mpi_finalize() };
            std::process::exit(2)
        }
    };
    let rounds: usize = std::env::var("TCA_CHECK_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let mut h = Hybrid::new(world, k, 16 * 1024);
    let mut bad = 0;
    let mut rng = Rng(0x2545F4914F6CDD1D ^ (me as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15));
    for round in 0..rounds {
        for sub in 0..3 {
            let b = halo_ring(&mut h, me, round * 3 + sub);
            if b > 0 {
                eprintln!("[{me}] Memcpy2D halo ring round {round}: {b} wrong values");
                bad += 1;
            }
        }
        // broadcast: three roots, odd sizes, one larger than the window (MPI)
        let mut roots = vec![0, p / 2, p - 1];
        roots.dedup();
        for &n in &[1usize, 3, 4099, 20_000] {
            for &root in &roots {
                let mut a = rng.bytes(n);
                let mut b = a.clone();
                h.bcast(&mut a, root);
                mpi::bcast(&mut b, root, world);
                if a != b {
                    eprintln!("[{me}] bcast n={n} root={root} round {round}: differs from MPI_Bcast");
                    bad += 1;
                }
            }
        }
        for &n in &[1usize, 3, 8, 1001] {
            let s = rng.bytes(n);
            let (mut a, mut b) = (vec![0; n * p], vec![0; n * p]);
            h.allgather(&s, &mut a);
            mpi::allgather(&s, &mut b, world);
            if a != b {
                eprintln!("[{me}] allgather block={n} round {round}: differs from MPI_Allgather");
                bad += 1;
            }
        }
        // allreduce: (type, size, ops)
        let cases: [(i32, usize, &[i32]); 5] =
            [(3, 8, &[0, 1, 2, 3]), (2, 4, &[0, 2, 3]), (0, 4, &[0, 1, 2, 3, 4, 5, 6, 7, 8]), (1, 8, &[0, 4, 6]), (4, 1, &[2, 5])];
        for (t, es, ops) in cases {
            for &op in ops {
                for &count in &[1usize, 7, 1001] {
                    let mut a = match t {
                        // floats: values of many magnitudes, so the order of the sums shows
                        3 => (0..count).flat_map(|_| (((rng.next() >> 11) as f64 - 4.5e15) * 10f64.powi((rng.next() % 9) as i32 - 4)).to_le_bytes()).collect(),
                        2 => (0..count).flat_map(|_| (((rng.next() >> 40) as f32 - 8.0e6) * 1.7f32.powi((rng.next() % 9) as i32)).to_le_bytes()).collect(),
                        // products: small factors, so integers do not wrap to 0
                        _ if op == 1 => (0..count).flat_map(|_| ((rng.next() % 5) as i64 + 1).to_le_bytes()[..es].to_vec()).collect::<Vec<u8>>(),
                        _ => rng.bytes(count * es),
                    };
                    let mut b = a.clone();
                    let (ty, o) = (mpi::ty(t), mpi::op(op));
                    let ra = h.allreduce(&mut a, count, ty, o);
                    let rb = mpi::allreduce(&mut b, count, ty, o, world);
                    if ra != 0 || rb != 0 || a != b {
                        let diff = a.chunks(es).zip(b.chunks(es)).position(|(x, y)| x != y);
                        eprintln!("[{me}] allreduce type {t} op {op} count {count} round {round}: rc {ra}/{rb}, first differing element {diff:?}");
                        bad += 1;
                    }
                }
            }
        }
    }
    let s = h.stats;
    // the layer must have used both networks where the subclusters allow it
    let groups = h.groups().clone();
    let mine = groups.of.iter().filter(|&&g| g == groups.of[me]).count();
    let distinct = {
        let mut g = groups.of.clone();
        g.sort();
        g.dedup();
        g.len()
    };
    if mine > 1 && s.chains == 0 {
        eprintln!("[{me}] no TCA chain ran although {mine} ranks share the subcluster");
        bad += 1;
    }
    if distinct > 1 && s.mpi_msgs == 0 && p > 1 {
        eprintln!("[{me}] no MPI message although there are {distinct} subclusters");
        bad += 1;
    }
    let mut all = [bad as u8];
    let mut sum = all.to_vec();
    mpi::allreduce(&mut sum, 1, mpi::ty(4), mpi::op(5), world);
    if me == 0 {
        println!(
            "tca-check (TCA emulated over a shared-memory window): p={p} k={k} subclusters={distinct} {} chains={} descs={} tca_bytes={} mpi_msgs={} fallbacks={}",
            if sum[0] == 0 { "OK" } else { "FAILED" },
            s.chains,
            s.descs,
            s.tca_bytes,
            s.mpi_msgs,
            s.fallbacks
        );
    }
    all[0] = sum[0];
    h.free();
    // SAFETY: last MPI call.
    unsafe { rt::mpi_finalize() };
    std::process::exit(if all[0] == 0 { 0 } else { 1 });
}
