//! The stepper finds the next delivery exactly, and splitting the advance
//! calls differently does not change any delivery time.

use xmpc_nsim::network::Network;
use xmpc_nsim::stepper::Stepper;
use xmpc_nsim::{Config, SplitMix};

fn cfg() -> Config {
    Config::from_toml("[topology]\nkind = \"torus\"\ndims = [8]\n[link]\nbandwidth = \"1 GB/s\"\nlatency = \"100ns\"\n[router]\ndelay = \"50ns\"\n", "t.toml")
        .unwrap()
}

/// (t, src, dst, bytes) injections, in time order, with bursts at equal times.
fn traffic(n: usize, seed: u64) -> Vec<(u64, u32, u32, u64)> {
    let mut rng = SplitMix(seed);
    let mut t = 0;
    (0..n)
        .map(|_| {
            if rng.next().is_multiple_of(3) {
                t += rng.next() % 20_000_000;
            }
            let s = (rng.next() % 8) as u32;
            let d = ((s as u64 + 1 + rng.next() % 7) % 8) as u32;
            (t, s, d, 1 + rng.next() % 20000)
        })
        .collect()
}

fn reference(tr: &[(u64, u32, u32, u64)]) -> Vec<(u64, u64)> {
    let mut net = Network::new(&cfg()).unwrap();
    let mut out = vec![];
    for &(t, s, d, b) in tr {
        out.extend(net.advance_until(t).into_iter().map(|c| (c.id, c.delivered)));
        net.send(t, s, d, b);
    }
    out.extend(net.drain().into_iter().map(|c| (c.id, c.delivered)));
    out.sort_by_key(|x| x.0);
    out
}

#[test]
fn advance_splitting_does_not_change_deliveries() {
    let tr = traffic(300, 7);
    let want = reference(&tr);
    let mut net = Network::new(&cfg()).unwrap();
    let mut out = vec![];
    let mut rng = SplitMix(3);
    for &(t, s, d, b) in &tr {
        let mut x = net.now();
        while x + 1 < t && rng.next().is_multiple_of(2) {
            x += 1 + rng.next() % (t - x);
            x = x.min(t);
            out.extend(net.advance_until(x).into_iter().map(|c| (c.id, c.delivered)));
        }
        out.extend(net.advance_until(t).into_iter().map(|c| (c.id, c.delivered)));
        net.send(t, s, d, b);
    }
    out.extend(net.drain().into_iter().map(|c| (c.id, c.delivered)));
    out.sort_by_key(|x| x.0);
    assert_eq!(out, want);
}

#[test]
fn next_delivery_is_exact() {
    let tr = traffic(300, 11);
    let mut st = Stepper::new(&cfg()).unwrap();
    let mut got = vec![];
    let mut i = 0;
    while i < tr.len() || st.in_flight() > 0 {
        let p = tr.get(i).map(|x| x.0);
        let d = st.next_delivery(p.unwrap_or(u64::MAX));
        match (d, p) {
            (Some(d), p) if p.is_none_or(|p| d < p) => {
                let done = st.advance_until(d);
                assert!(!done.is_empty(), "a delivery at {d} was announced");
                assert!(done.iter().all(|x| x.1 == d), "{done:?} at {d}");
                got.extend(done);
            }
            (_, Some(p)) => {
                let (t, s, dd, b) = tr[i];
                st.send(p.max(t), s, dd, b);
                i += 1;
            }
            _ => panic!("messages in flight but no delivery"),
        }
    }
    got.sort_by_key(|x| x.0);
    let want = reference(&tr);
    assert_eq!(got, want);
}
