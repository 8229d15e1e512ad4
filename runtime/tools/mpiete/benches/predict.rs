//! Predictor replay speed on a synthetic trace (SPEC §6 target: >= 10 M
//! blocks/s on one core). 4 ranks in a ring: per step each rank runs 8
//! compute blocks, then isend to the right, irecv from the left, 2 waits.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xmpc_mpiete::data::CommModel;
use xmpc_mpiete::predict::Predictor;
use xmpc_mpiete::trace::{Event, TraceReader, TraceWriter};

const P: u32 = 4;
const STEPS: u32 = 50_000;

fn traces() -> (Vec<Vec<u8>>, u64) {
    let mut out = Vec::new();
    let mut blocks = 0;
    for r in 0..P {
        let mut w = TraceWriter::new(Vec::new(), r, P).unwrap();
        let mut req = 0;
        for _ in 0..STEPS {
            for b in 0..8 {
                w.event(&Event::Block(b)).unwrap();
            }
            req += 2;
            w.event(&Event::Isend { id: 9, req, peer: ((r + 1) % P) as i32, tag: 1, comm: 0, bytes: 1024 }).unwrap();
            w.event(&Event::Irecv { id: 10, req: req + 1, peer: ((r + P - 1) % P) as i32, tag: 1, comm: 0, bytes: 1024 }).unwrap();
            w.event(&Event::Wait { id: 11, req: req + 1, src: ((r + P - 1) % P) as i32, tag: 1, bytes: 1024 }).unwrap();
            w.event(&Event::Wait { id: 11, req, src: -1, tag: -1, bytes: 0 }).unwrap();
            blocks += 12;
        }
        out.push(w.finish().unwrap());
    }
    (out, blocks)
}

fn bench(c: &mut Criterion) {
    let (tr, blocks) = traces();
    let tcomp: Vec<Vec<f64>> = (0..P).map(|_| (0..12).map(|i| 1e-6 * i as f64).collect()).collect();
    let model = CommModel::constant(2e-6, 5e9);
    let mut g = c.benchmark_group("predict");
    g.throughput(Throughput::Elements(blocks));
    g.sample_size(20);
    g.bench_function("ring_4ranks_2.4Mblocks", |b| {
        b.iter(|| {
            let readers = tr.iter().enumerate().map(|(i, t)| TraceReader::new(&t[..], format!("t{i}")).unwrap()).collect();
            Predictor::new(&tcomp, &model).run(readers).unwrap()
        })
    });
    // --jitter: every compute block's time drawn from a gamma law (spread 10%)
    let sd: Vec<Vec<f64>> = tcomp.iter().map(|t| t.iter().map(|m| 0.1 * m).collect()).collect();
    g.bench_function("ring_4ranks_2.4Mblocks_jitter", |b| {
        b.iter(|| {
            let readers = tr.iter().enumerate().map(|(i, t)| TraceReader::new(&t[..], format!("t{i}")).unwrap()).collect();
            Predictor::new(&tcomp, &model).with_jitter(&sd, 1).run(readers).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
