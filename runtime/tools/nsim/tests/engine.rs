//! Behavioural tests of the NSIM engine.

use xmpc_nsim::engine::analytic_latency;
use xmpc_nsim::network::Network;
use xmpc_nsim::patterns::Pattern;
use xmpc_nsim::{ser_time, Config, SimResult, Simulation, Time};

const NS: Time = 1000;

fn cfg(topo: &str, extra: &str) -> Config {
    let text = format!(
        r#"
{topo}
[link]
bandwidth = "1 GB/s"
latency = "50ns"
[router]
delay = "100ns"
vcs = 2
buffer_packets = 4
[packet]
size = 256
header = 16
[nic]
injection_latency = "10ns"
ejection_latency = "20ns"
[mpi]
send_overhead = "500ns"
recv_overhead = "300ns"
{extra}
"#
    );
    Config::from_toml(&text, "test.toml").unwrap()
}

fn torus(dims: &str) -> String {
    format!("[topology]\nkind = \"torus\"\ndims = {dims}\n")
}

fn run(c: &Config, nranks: u32, threads: usize, pat: &Pattern) -> SimResult {
    let mut sim = Simulation::new(c, nranks, threads).unwrap();
    sim.set_programs(pat.programs(nranks));
    sim.run().unwrap()
}

/// The hand formula: o_s + Σ ser(payload_i + header) + L_inj + R·delay + (R-1)·L + L_ej + o_r.
fn expected(routers: u64, bytes: u64) -> Time {
    let pkts = bytes.div_ceil(256).max(1);
    let mut ser = 0;
    for i in 0..pkts {
        let pl = (bytes - i * 256).clamp(1, 256);
        ser += ser_time(pl + 16, 1_000_000_000);
    }
    500 * NS + ser + 10 * NS + routers * 100 * NS + (routers - 1) * 50 * NS + 20 * NS + 300 * NS
}

fn one_message(c: &Config, src: u32, dst: u32, bytes: u64) -> Time {
    let n = c.num_nodes();
    let r = run(c, n, 1, &Pattern::Message { src, dst, bytes });
    r.finish[dst as usize]
}

const SIZES: [u64; 8] = [1, 100, 256, 257, 1000, 4096, 10_000, 65_536];

#[test]
fn analytic_torus_short_way_round() {
    let c = cfg(&torus("[8, 4, 4]"), "");
    // node id = x + 8*(y + 4*z)
    let id = |x: u32, y: u32, z: u32| x + 8 * (y + 4 * z);
    let cases = [
        (id(0, 0, 0), id(7, 0, 0), 2),             // one hop over the wrap-around link
        (id(0, 0, 0), id(4, 0, 0), 5),             // half way: 4 hops
        (id(1, 1, 1), id(6, 3, 3), 1 + 3 + 2 + 2), // x: -3 via wrap, y: 2 (tie), z: 2 (tie)
        (id(2, 3, 0), id(2, 0, 3), 1 + 1 + 1),     // y and z one hop each over the wrap
        (5, 6, 2),
    ];
    for (s, d, routers) in cases {
        for b in SIZES {
            let t = one_message(&c, s, d, b);
            assert_eq!(t, expected(routers, b), "torus {s}->{d} {b} B");
            let topo = xmpc_nsim::topo::Topo::new(&c);
            assert_eq!(t, analytic_latency(&c, &topo, s, d, b));
        }
    }
}

#[test]
fn analytic_mesh_and_1d_6d() {
    let c = cfg("[topology]\nkind = \"mesh\"\ndims = [5, 3]\n", "");
    // (0,0) -> (4,2): 6 hops, no wrap in a mesh
    for b in SIZES {
        assert_eq!(one_message(&c, 0, 14, b), expected(7, b), "mesh {b}");
        assert_eq!(one_message(&c, 14, 0, b), expected(7, b), "mesh back {b}");
    }
    let c = cfg(&torus("[10]"), "");
    assert_eq!(one_message(&c, 1, 8, 1000), expected(4, 1000)); // 1->0->9->8
    let c = cfg(&torus("[3, 2, 2, 3, 2, 2]"), "");
    // from 0 to the last node: 1+1+1+1+1+1 hops
    assert_eq!(one_message(&c, 0, 143, 5000), expected(7, 5000));
}

#[test]
fn analytic_fat_tree() {
    for up in ["deterministic", "random"] {
        let c = cfg(&format!("[topology]\nkind = \"fattree\"\nk = 4\nn = 3\n[routing]\nfattree_up = \"{up}\"\n"), "");
        for b in SIZES {
            assert_eq!(one_message(&c, 0, 3, b), expected(1, b), "same leaf");
            assert_eq!(one_message(&c, 0, 5, b), expected(3, b), "same pod");
            assert_eq!(one_message(&c, 0, 63, b), expected(5, b), "across the top");
            assert_eq!(one_message(&c, 62, 17, b), expected(5, b), "across the top");
        }
    }
}

#[test]
fn analytic_rendezvous() {
    let c = cfg(&torus("[4, 4]"), "eager_threshold = 1024\ncontrol_bytes = 32");
    let routers = 1 + 2 + 2; // (0,0) -> (2,2): ties go the + way
    let ctrl = expected(routers, 32) - 800 * NS; // one control packet without software overheads
    for b in [2000u64, 50_000] {
        let t = one_message(&c, 0, 10, b); // (0,0) -> (2,2)
        assert_eq!(t, expected(routers, b) + 2 * ctrl, "rendezvous {b}");
    }
    // eager below the threshold
    assert_eq!(one_message(&c, 0, 10, 1000), expected(routers, 1000));
}

#[test]
fn intra_node_message() {
    let c = cfg(&torus("[4]"), "");
    // 8 ranks on 4 nodes (linear mapping wraps): rank 0 and 4 share node 0
    let r = run(&c, 8, 1, &Pattern::Message { src: 0, dst: 4, bytes: 1000 });
    assert_eq!(r.finish[4], 500 * NS + ser_time(1000, 1_000_000_000) + 300 * NS);
}

#[test]
fn contention_hot_spot_is_slower_than_spread() {
    let c = cfg(&torus("[4, 4]"), "");
    let hot = run(&c, 16, 1, &Pattern::HotSpot { dst: 0, bytes: 32 << 10 });
    let spread = run(&c, 16, 1, &Pattern::Shift { shift: 1, bytes: 32 << 10 });
    // same number of bytes injected per sender; the hot spot serialises on one ejection link
    assert!(hot.runtime > 8 * spread.runtime, "hot {} spread {}", hot.runtime, spread.runtime);
    // ejection of 15 × 32 KiB at 1 GB/s is a lower bound
    assert!(hot.runtime >= ser_time(15 * (32 << 10), 1_000_000_000));
    // two flows through one link take longer than one alone
    let one = one_message(&c, 0, 2, 64 << 10);
    let mut sim = Simulation::new(&c, 16, 1).unwrap();
    sim.set_programs(|r| -> Box<dyn xmpc_nsim::Program> {
        use xmpc_nsim::patterns::{Script, Step};
        let mut s = Script::default();
        match r {
            0 => s.steps.push(Step { sends: vec![(2, 64 << 10)], recvs: vec![2], ..Default::default() }),
            2 => s.steps.push(Step { sends: vec![(0, 64 << 10)], recvs: vec![0], ..Default::default() }),
            _ => {}
        }
        Box::new(s)
    });
    // 0->2 goes 0->1->2 and 2->0 goes 2->3->0 (ties go the + way): no shared directed link
    let r = sim.run().unwrap();
    assert_eq!(r.finish[2], one);
    assert_eq!(r.finish[0], one);
    let mut sim = Simulation::new(&c, 16, 1).unwrap();
    sim.set_programs(|r| -> Box<dyn xmpc_nsim::Program> {
        use xmpc_nsim::patterns::{Script, Step};
        let mut s = Script::default();
        match r {
            0 => s.steps.push(Step { sends: vec![(2, 64 << 10)], ..Default::default() }),
            1 => s.steps.push(Step { sends: vec![(3, 64 << 10)], ..Default::default() }),
            2 => s.steps.push(Step { recvs: vec![0], ..Default::default() }),
            3 => s.steps.push(Step { recvs: vec![1], ..Default::default() }),
            _ => {}
        }
        Box::new(s)
    });
    // 0->2 and 1->3 both use link 1->2
    let r = sim.run().unwrap();
    assert!(r.runtime > one + one / 2, "shared link {} vs {}", r.runtime, one);
}

#[test]
fn credit_flow_control_never_overflows() {
    for depth in [1u32, 2, 3] {
        let mut c = cfg(&torus("[4, 4, 2]"), "");
        c.router.buffer_packets = depth;
        c.sim.check_invariants = true;
        let r = run(&c, 32, 1, &Pattern::RandomRing { bytes: 16 << 10, loops: 2, seed: 3 });
        assert!(r.max_buffer_occupancy >= 1 && r.max_buffer_occupancy <= depth, "depth {depth}: {}", r.max_buffer_occupancy);
        let r = run(&c, 32, 1, &Pattern::HotSpot { dst: 5, bytes: 8 << 10 });
        assert!(r.max_buffer_occupancy == depth, "hot spot fills buffers: {}", r.max_buffer_occupancy);
    }
    // shallow buffers slow a long message down (credit round trip not covered)
    let mut c = cfg(&torus("[8]"), "");
    c.router.buffer_packets = 1;
    let slow = one_message(&c, 0, 3, 64 << 10);
    c.router.buffer_packets = 4;
    let fast = one_message(&c, 0, 3, 64 << 10);
    assert!(slow > fast);
}

fn same(a: &SimResult, b: &SimResult) {
    assert_eq!(a.runtime, b.runtime);
    assert_eq!(a.finish, b.finish);
    assert_eq!(a.packet_hops, b.packet_hops);
    assert_eq!(a.node_pkts, b.node_pkts);
    assert_eq!(a.links, b.links);
}

#[test]
fn deterministic_for_a_seed() {
    let mut c = cfg(&torus("[4, 4, 4]"), "");
    c.mapping.kind = xmpc_nsim::config::MapKind::Random;
    c.mapping.seed = 7;
    let p = Pattern::RandomRing { bytes: 8 << 10, loops: 2, seed: 11 };
    let a = run(&c, 64, 1, &p);
    let b = run(&c, 64, 1, &p);
    same(&a, &b);
    let p2 = Pattern::RandomRing { bytes: 8 << 10, loops: 2, seed: 12 };
    let d = run(&c, 64, 1, &p2);
    assert_ne!(a.finish, d.finish, "another seed gives another ring");
}

#[test]
fn parallel_equals_sequential() {
    let c = cfg(&torus("[8, 4, 2]"), "");
    for p in [
        Pattern::RandomRing { bytes: 16 << 10, loops: 2, seed: 1 },
        Pattern::AlltoallPairwise { bytes: 4 },
        Pattern::AlltoallBruck { bytes: 600 },
        Pattern::HotSpot { dst: 3, bytes: 4096 },
        Pattern::Halo3d { bytes: 3000, iters: 2, compute: 2000 * NS },
    ] {
        let s = run(&c, 64, 1, &p);
        for th in [2, 3, 4] {
            let q = run(&c, 64, th, &p);
            assert_eq!(q.threads, th.min(8));
            same(&s, &q);
        }
    }
    let mut c = cfg("[topology]\nkind = \"fattree\"\nk = 4\nn = 3\n[routing]\nfattree_up = \"random\"\n", "");
    c.sim.seed = 5;
    let p = Pattern::RandomRing { bytes: 8 << 10, loops: 2, seed: 2 };
    let s = run(&c, 64, 1, &p);
    let q = run(&c, 64, 4, &p);
    same(&s, &q);
}

#[test]
fn collectives_complete() {
    let c = cfg(&torus("[4, 3]"), "");
    for n in [12u32, 7, 5] {
        for p in [
            Pattern::BcastBinomial { bytes: 1000 },
            Pattern::AllreduceRd { bytes: 64 },
            Pattern::AlltoallBruck { bytes: 16 },
            Pattern::AlltoallPairwise { bytes: 16 },
            Pattern::Halo3d { bytes: 100, iters: 2, compute: 0 },
        ] {
            let r = run(&c, n, 1, &p);
            assert!(r.runtime > 0, "{p:?} {n}");
        }
    }
}

#[test]
fn network_api_incremental() {
    let c = cfg(&torus("[8, 8]"), "");
    let topo = xmpc_nsim::topo::Topo::new(&c);
    let mut net = Network::new(&c).unwrap();
    let o = 800 * NS; // the API charges no software overheads
    let a = net.send(1000, 0, 3, 5000);
    let done = net.advance_until(1000);
    assert!(done.is_empty());
    let done = net.drain();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].id, a);
    assert_eq!(done[0].delivered, 1000 + analytic_latency(&c, &topo, 0, 3, 5000) - o);
    // congested: 7 nodes send to node 9 at once; each alone would take l + s/w
    let t0 = net.now() + 1000;
    let mut ids = Vec::new();
    for s in [0u32, 1, 2, 8, 10, 16, 17] {
        ids.push((net.send(t0, s, 9, 16 << 10), s));
    }
    let done = net.drain();
    assert_eq!(done.len(), 7);
    let mut later = 0;
    for d in &done {
        let s = ids.iter().find(|x| x.0 == d.id).unwrap().1;
        let alone = t0 + analytic_latency(&c, &topo, s, 9, 16 << 10) - o;
        assert!(d.delivered >= alone);
        if d.delivered > alone {
            later += 1;
        }
    }
    assert!(later >= 6, "contention delays the hot spot: {later}");
}

#[test]
fn config_errors_name_file_and_field() {
    let e = Config::from_toml("[topology]\nkind = \"torus\"\ndims = [4]\n[link]\nbandwidth = \"fast\"\n[router]\n", "x.toml").unwrap_err();
    assert_eq!(e.file, "x.toml");
    assert!(e.field.contains("bandwidth"), "{e}");
    let e = Config::from_toml("[topology]\nkind = \"torus\"\ndims = [4, 4]\n[link]\nbandwidth = \"1 GB/s\"\n[router]\nvcs = 1\n", "y.toml").unwrap_err();
    assert_eq!(e.field, "router.vcs");
    assert!(e.to_string().starts_with("y.toml: field `router.vcs`"), "{e}");
    let e = Config::from_toml("[topology]\nkind = \"ring\"\n[link]\nbandwidth = 1\n[router]\n", "z.toml").unwrap_err();
    assert!(e.field.contains("kind"), "{e}");
    assert_eq!(xmpc_nsim::config::parse_bandwidth("154 MB/s").unwrap(), 154_000_000);
    assert_eq!(xmpc_nsim::config::parse_time("1.5us").unwrap(), 1_500_000);
}

#[test]
fn report_and_plots() {
    let c = cfg(&torus("[4, 4, 2]"), "");
    let mut sim = Simulation::new(&c, 32, 1).unwrap();
    let topo = sim.topo().clone();
    sim.set_programs(Pattern::RandomRing { bytes: 32 << 10, loops: 2, seed: 1 }.programs(32));
    let r = sim.run().unwrap();
    let rep = xmpc_nsim::report::Report::new(&r, &topo);
    assert_eq!(rep.directions, ["+X", "-X", "+Y", "-Y", "+Z", "-Z", "mean"]);
    assert!(rep.avg_link_efficiency > 0.0 && rep.avg_link_efficiency <= 1.0);
    assert!(rep.avg_link_busy_ratio >= rep.avg_link_efficiency);
    assert_eq!(rep.packets_received_total, r.node_pkts.iter().sum::<u64>());
    assert!(rep.packets_received_min > 0);
    for row in &rep.vc_utilisation_series {
        let s: f64 = row.iter().sum();
        assert!(s == 0.0 || (s - 1.0).abs() < 1e-9);
    }
    for row in &rep.link_efficiency_series {
        assert!(row.iter().all(|&e| (0.0..=1.0 + 1e-9).contains(&e)));
    }
    let dir = std::env::temp_dir().join(format!("nsim-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    use xmpc_nsim::plot::Format;
    xmpc_nsim::plot::figure11(&rep, &dir.join("fig"), Format::Svg).unwrap();
    let svg = std::fs::read_to_string(dir.join("fig.vc.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("VC buffer utilisation"));
    // PNG: 900x500, and the stacked areas and the direction lines put many colours in it
    xmpc_nsim::plot::figure11(&rep, &dir.join("fig"), Format::Png).unwrap();
    for name in ["fig.vc.png", "fig.links.png"] {
        let dec = png::Decoder::new(std::fs::File::open(dir.join(name)).unwrap());
        let mut rd = dec.read_info().unwrap();
        let mut buf = vec![0; rd.output_buffer_size()];
        let info = rd.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (900, 500), "{name}");
        let px = info.color_type.samples();
        let colours: std::collections::HashSet<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
        assert!(colours.len() > 8, "{name}: only {} colours", colours.len());
    }
    // the PNGs have their text (titles, axes): not the picture of the same SVG without
    // text (resvg found no `sans-serif` font and drew none until issue 39)
    for name in ["vc", "links"] {
        let svg = std::fs::read_to_string(dir.join(format!("fig.{name}.svg"))).unwrap();
        assert!(svg.contains("<text"), "{name}: the SVG has no text");
        let png = std::fs::read(dir.join(format!("fig.{name}.png"))).unwrap();
        let bare = xmpc_charts::rasterize(&xmpc_charts::strip_text(&svg)).unwrap();
        assert_ne!(png, bare, "fig.{name}.png: no text drawn");
    }
    assert!(rep.series_csv().lines().count() > 2);
    let _ = std::fs::remove_dir_all(&dir);
}
