//! NSIM as BSIM's network model. With `[network] model = "nsim"` a message's
//! wire time is no longer `l + s/w`: it is injected into one packet-level
//! NSIM network shared by all ranks and completes when NSIM delivers it, so
//! messages that share links or an ejection port slow each other down.
//!
//! Conservative rule (keeps results independent of host scheduling): a
//! message whose injection time is known waits in `pending`; it is injected,
//! in (time, source, key) order, only once no rank can still inject anything
//! earlier, i.e. below the horizon `H` = min(published clocks of live ranks,
//! send times of rendezvous messages not yet matched). NSIM is advanced to
//! `H - 1 ps`. When every live rank is blocked, the kernel instead injects the
//! earliest pending messages and advances NSIM exactly to its next delivery
//! ([`Net::step_blocked`]).

use super::model::{Link, NsimNet, Platform, Segment};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use xmpc_nsim::stepper::Stepper;
use xmpc_nsim::Config;

/// Seconds -> picoseconds (rounded; monotone, so bounds stay bounds).
pub fn to_ps(t: f64) -> u64 {
    if t.is_infinite() {
        u64::MAX
    } else {
        (t.max(0.0) * 1e12).round() as u64
    }
}

pub fn from_ps(t: u64) -> f64 {
    t as f64 / 1e12
}

/// The contention-free `l + s/w` link equivalent to NSIM between nodes `a`
/// and `b`: `l` = injection + ejection latency + routers × router delay + link
/// latencies, `w` = link bandwidth. Exact (to the picosecond rounding of each
/// packet) for messages when packet headers are 0 and the NIC bandwidths equal
/// the link bandwidth; NSIM's `[mpi]` overheads are not used by BSIM.
pub fn equivalent_segment(cfg: &Config, a: u32, b: u32) -> Segment {
    let topo = xmpc_nsim::topo::Topo::new(cfg);
    if a == b {
        return Segment { min_bytes: 0, latency: 0.0, bandwidth: cfg.inj_bw() as f64 };
    }
    let (routers, lat) = topo.routers_on_path(a, b);
    let l = cfg.inj_lat() + routers as u64 * cfg.router.delay + lat + cfg.ej_lat();
    Segment { min_bytes: 0, latency: from_ps(l), bandwidth: cfg.link.bandwidth as f64 }
}

/// `base` with its links replaced by the analytic equivalent of `cfg` between
/// the nodes of ranks `ra` and `rb` (the NSIM model removed).
pub fn equivalent_platform(base: &Platform, cfg: &Config, ra: u32, rb: u32) -> Result<Platform, String> {
    let map = cfg.mapping(ra.max(rb) + 1).map_err(|e| e.to_string())?;
    let seg = equivalent_segment(cfg, map[ra as usize], map[rb as usize]);
    Ok(Platform { inter: Link { segments: vec![seg] }, intra: None, nsim: None, ..base.clone() })
}

/// The sizes of a collective as far as member `me` sends them, from its own
/// arguments only (message sizes come from the sender, so this is all its
/// schedule needs): members run their part without meeting the others.
pub fn local_shape(kind: super::coll::CollKind, me: usize, x: &super::collargs::CollArgs, p: usize) -> super::coll::Shape {
    use super::coll::CollKind as K;
    let all: Vec<&super::collargs::CollArgs> = vec![x; p];
    let mut sh = super::collargs::shape_of(kind, &all);
    let ints = |ptr: usize, i: usize| -> u64 {
        if ptr == 0 || ptr == super::IN_PLACE {
            0
        } else {
            // SAFETY: count arrays of a collective call hold one int per member (MPI rule)
            unsafe { (*(ptr as *const std::ffi::c_int).add(i)).max(0) as u64 }
        }
    };
    match kind {
        K::Allgatherv => sh.block = (0..p).map(|i| ints(x.rcounts, i) * x.rsize).collect(),
        K::Scatterv if me == sh.root => sh.block = (0..p).map(|i| ints(x.scounts, i) * x.ssize).collect(),
        K::Scatter if me == sh.root => sh.block = vec![x.scount.max(0) as u64 * x.ssize; p],
        _ => {}
    }
    sh
}

/// A message known to the network model.
#[derive(Clone, Copy, Debug)]
pub struct Inj {
    pub src: u32,
    pub dst: u32,
    pub bytes: u64,
    /// Message key (unique): the receiver finds its completion by it.
    pub nk: u64,
    /// Rendezvous id of the sender's request (0: eager, nobody to notify).
    pub sid: u64,
}

/// A delivered message: notify `inj.dst` (and `inj.src` when `sid != 0`) at `t` seconds.
pub type Delivery = (Inj, f64);

pub struct Net {
    st: Stepper,
    /// rank -> NSIM node
    node: Vec<u32>,
    /// Known injection time (ps), not yet injected: (t, src, nk) -> message.
    pending: BTreeMap<(u64, u32, u64), Inj>,
    /// Rendezvous messages sent and not matched: (send time ps, src, nk).
    unmatched: BTreeSet<(u64, u32, u64)>,
    inflight: HashMap<u64, Inj>,
    /// Injections that came after NSIM had passed their time (count, worst lag ps).
    pub late: (u64, u64),
}

impl Net {
    pub fn new(n: &NsimNet, nranks: u32) -> Result<Net, String> {
        let st = Stepper::new(&n.cfg).map_err(|e| e.to_string())?;
        let node = n.cfg.mapping(nranks).map_err(|e| e.to_string())?;
        Ok(Net { st, node, pending: BTreeMap::new(), unmatched: BTreeSet::new(), inflight: HashMap::new(), late: (0, 0) })
    }

    /// A message whose injection time `t` is known.
    pub fn add_pending(&mut self, t: f64, m: Inj) {
        self.pending.insert((to_ps(t), m.src, m.nk), m);
    }

    /// A rendezvous message sent at `ts`, injected when matched.
    pub fn add_unmatched(&mut self, ts: f64, src: u32, nk: u64) {
        self.unmatched.insert((to_ps(ts), src, nk));
    }

    /// The rendezvous message was matched: it goes in at `start` (≥ ts).
    pub fn matched(&mut self, ts: f64, start: f64, m: Inj) {
        self.unmatched.remove(&(to_ps(ts), m.src, m.nk));
        self.add_pending(start, m);
    }

    fn inject_first(&mut self) {
        let ((t, _, _), m) = self.pending.pop_first().unwrap();
        let now = self.st.now();
        let t = if t < now {
            self.late.0 += 1;
            self.late.1 = self.late.1.max(now - t);
            now
        } else {
            t
        };
        let id = self.st.send(t, self.node[m.src as usize], self.node[m.dst as usize], m.bytes);
        self.inflight.insert(id, m);
    }

    fn collect(&mut self, done: Vec<(u64, u64)>, out: &mut Vec<Delivery>) {
        for (id, t) in done {
            let m = self.inflight.remove(&id).expect("delivered message is known");
            out.push((m, from_ps(t)));
        }
    }

    /// Ordinary progress: `clocks_min` is the least published clock of the
    /// live ranks. Injects and advances below the horizon.
    pub fn pump(&mut self, clocks_min: f64) -> Vec<Delivery> {
        let mut h = to_ps(clocks_min);
        if let Some(&(t, _, _)) = self.unmatched.first() {
            h = h.min(t);
        }
        let mut out = vec![];
        if h == 0 {
            return out;
        }
        while self.pending.first_key_value().is_some_and(|(k, _)| k.0 < h) {
            self.inject_first();
        }
        if h - 1 > self.st.now() && h != u64::MAX {
            let done = self.st.advance_until(h - 1);
            self.collect(done, &mut out);
        }
        out
    }

    /// Every live rank is blocked. `cand`: the earliest undecided choice a
    /// rank could be granted. Moves the network to its next event (injections
    /// first, then the next delivery), unless the choice comes strictly
    /// earlier. Returns the deliveries; empty when the choice should be
    /// granted or the network has nothing left to do.
    pub fn step_blocked(&mut self, cand: Option<f64>) -> Vec<Delivery> {
        let c = cand.map_or(u64::MAX, to_ps);
        let mut out = vec![];
        loop {
            let p = self.pending.first_key_value().map(|(k, _)| k.0);
            // deliveries before the next injection, and at the choice's time
            let d = self.st.next_delivery(p.unwrap_or(u64::MAX).min(c.saturating_add(1)));
            let e = match (p, d) {
                (None, None) => return out,
                (Some(a), Some(b)) => a.min(b),
                (a, b) => a.or(b).unwrap(),
            };
            if c < e {
                return out;
            }
            if p == Some(e) {
                while self.pending.first_key_value().is_some_and(|(k, _)| k.0 == e) {
                    self.inject_first();
                }
                continue;
            }
            let done = self.st.advance_until(e);
            self.collect(done, &mut out);
            if !out.is_empty() {
                return out;
            }
        }
    }

    /// Nothing pending, unmatched or in flight.
    pub fn quiet(&self) -> bool {
        self.pending.is_empty() && self.inflight.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::model::{parse_network_arg, parse_platform};
    use std::path::Path;

    const RING: &str = "[topology]\nkind = \"torus\"\ndims = [8]\n[link]\nbandwidth = \"1 GB/s\"\nlatency = \"100ns\"\n[router]\ndelay = \"50ns\"\n";

    fn inline(extra: &str) -> String {
        let t = RING.replace("[topology]", "[network.nsim.topology]").replace("[link]", "[network.nsim.link]").replace("[router]", "[network.nsim.router]");
        format!("[network]\nmodel = \"nsim\"\n{extra}{t}")
    }

    #[test]
    fn equivalent_link_counts_routers_and_links() {
        let p = parse_platform(Path::new("p.toml"), &inline("")).unwrap();
        let cfg = &p.nsim.as_ref().unwrap().cfg;
        // h hops: h + 1 routers of 50 ns, h links of 100 ns
        for (b, h) in [(1u32, 1.0), (2, 2.0), (4, 4.0), (7, 1.0)] {
            let s = equivalent_segment(cfg, 0, b);
            assert!((s.latency - ((h + 1.0) * 50e-9 + h * 100e-9)).abs() < 1e-18, "0->{b}: {s:?}");
            assert_eq!(s.bandwidth, 1e9);
        }
        let q = equivalent_platform(&p, cfg, 3, 4).unwrap();
        assert!(q.nsim.is_none());
        assert!((q.transfer(0, 1, 1000) - (200e-9 + 1e-6)).abs() < 1e-18);
    }

    #[test]
    fn platform_diagnostics() {
        let e = |t: &str| parse_platform(Path::new("x.toml"), t).unwrap_err();
        assert!(e("[network]\nmodel = \"fancy\"\n").contains("model must be"));
        assert!(e("[network]\nlatency = 1e-6\nbandwidth = 1e9\nconfig = \"n.toml\"\n").contains("need model = \"nsim\""));
        assert!(e("[network]\nmodel = \"nsim\"\n").contains("needs config"));
        let m = e("[network]\nmodel = \"nsim\"\nconfig = \"/nonexistent/n.toml\"\n");
        assert!(m.starts_with("x.toml: NSIM config: /nonexistent/n.toml"), "{m}");
        let m = e(&inline("").replace("delay = \"50ns\"", "delay = \"soon\""));
        assert!(m.contains("router.delay"), "{m}");
        assert!(e("[network]\nbandwidth = 1e9\n").contains("latency"));
        assert!(parse_network_arg("tcp").is_err());
        assert!(parse_network_arg("analytic").unwrap().is_none());
    }

    #[test]
    fn picoseconds_round_monotonically() {
        assert_eq!(to_ps(2e-7), 200_000);
        assert_eq!(to_ps(1.0e-6 + 2e-7), 1_200_000);
        assert_eq!(to_ps(f64::INFINITY), u64::MAX);
        let mut last = 0;
        for i in 0..1000 {
            let t = i as f64 * 3.3e-9;
            assert!(to_ps(t) >= last);
            last = to_ps(t);
        }
    }
}
