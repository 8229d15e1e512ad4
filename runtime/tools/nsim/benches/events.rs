//! Micro-benchmark of the engine's event rate (packet-hop events per second).
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xmpc_nsim::{patterns::Pattern, Config, Simulation};

const CFG: &str = r#"
[topology]
kind = "torus"
dims = [8, 8, 8]
[link]
bandwidth = "1 GB/s"
latency = "100ns"
[router]
delay = "100ns"
vcs = 2
buffer_packets = 8
[packet]
size = 1024
"#;

fn run(pat: &Pattern) -> u64 {
    let cfg = Config::from_toml(CFG, "bench.toml").unwrap();
    let mut sim = Simulation::new(&cfg, 512, 1).unwrap();
    sim.set_programs(pat.programs(512));
    sim.run().unwrap().events
}

fn bench(c: &mut Criterion) {
    let pat = Pattern::RandomRing { bytes: 64 << 10, loops: 1, seed: 1 };
    let ev = run(&pat);
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    g.throughput(Throughput::Elements(ev));
    g.bench_function("ring_512_64KiB", |b| b.iter(|| run(&pat)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
