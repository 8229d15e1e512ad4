//! Bookkeeping alone, no MPI: the cost of one record on the hot path
//! (thread-local table, count/min/max/sum, log2 class, peer counter, call site).
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use xmpc_prof::bench::{setup, xp_rec, xp_rec_b, xp_rec_p};

fn bench(c: &mut Criterion) {
    setup(1, 64);
    let mut i: u64 = 0;
    c.bench_function("record_p2p_send", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            xp_rec_p(
                black_box(0),
                black_box(100 + (i & 63)),
                black_box((i & 0xffff) as i64),
                black_box((i & 63) as i32),
                -1,
                -2,
                black_box(1),
                black_box(0x401000 + (i & 3) as usize * 16),
            );
        })
    });
    c.bench_function("record_collective", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            xp_rec_b(black_box(25), black_box(100 + (i & 63)), black_box((i & 0xffff) as i64), black_box((i & 0xffff) as i64), black_box(0x402000));
        })
    });
    c.bench_function("record_time_only", |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            xp_rec(black_box(12), black_box(100 + (i & 63)), black_box(0x403000));
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
