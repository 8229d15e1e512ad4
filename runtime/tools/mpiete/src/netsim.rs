//! NSIM instead of `T_comm(size)`: every send is injected into one
//! packet-level NSIM network at its send time, and a receive's message
//! arrives when NSIM delivers it, so messages sharing links slow each other.
//!
//! Conservative: the predictor replays ranks until every one that is not
//! done waits for a message still in the network. Then no rank can send
//! before the next delivery (its clock becomes at least that), so the sends
//! known so far that come no later are injected, in (time, rank, order)
//! order, and the network advances exactly to that delivery ([`NetSim::step`]).
//! Software overheads come from the NSIM config's `[mpi]` section:
//! injection at `T_send + send_overhead`, arrival at delivery + `recv_overhead`.

use std::collections::{BTreeMap, HashMap};
use xmpc_nsim::stepper::Stepper;
use xmpc_nsim::Config;

/// What a delivery answers: the message's (channel, order) key.
pub type Key = (u128, u64);

pub struct NetSim {
    st: Stepper,
    node: Vec<u32>,
    o_send: u64,
    o_recv: u64,
    /// (injection time ps, source rank, order) -> (dst rank, bytes, key)
    pending: BTreeMap<(u64, u32, u64), (u32, u64, Key)>,
    inflight: HashMap<u64, Key>,
    order: u64,
}

fn to_ps(t: f64) -> u64 {
    (t.max(0.0) * 1e12).round() as u64
}

impl NetSim {
    pub fn new(cfg: &Config, ranks: u32) -> Result<NetSim, String> {
        let st = Stepper::new(cfg).map_err(|e| e.to_string())?;
        let node = cfg.mapping(ranks).map_err(|e| e.to_string())?;
        Ok(NetSim { st, node, o_send: cfg.mpi.send_overhead, o_recv: cfg.mpi.recv_overhead, pending: BTreeMap::new(), inflight: HashMap::new(), order: 0 })
    }

    /// Rank `src` sends `bytes` to `dst` at `t` seconds.
    pub fn send(&mut self, t: f64, src: u32, dst: u32, bytes: u64, key: Key) {
        self.order += 1;
        self.pending.insert((to_ps(t) + self.o_send, src, self.order), (dst, bytes, key));
    }

    /// Every rank waits for the network: inject what comes no later than the
    /// next delivery and advance to it. Returns the delivered messages with
    /// their arrival times (seconds); empty when nothing is left to deliver.
    pub fn step(&mut self) -> Vec<(Key, f64)> {
        loop {
            let p = self.pending.first_key_value().map(|(k, _)| k.0);
            let d = self.st.next_delivery(p.unwrap_or(u64::MAX));
            let e = match (p, d) {
                (None, None) => return vec![],
                (Some(a), Some(b)) => a.min(b),
                (a, b) => a.or(b).unwrap(),
            };
            if p == Some(e) {
                while self.pending.first_key_value().is_some_and(|(k, _)| k.0 == e) {
                    let ((t, src, _), (dst, bytes, key)) = self.pending.pop_first().unwrap();
                    let t = t.max(self.st.now());
                    let id = self.st.send(t, self.node[src as usize], self.node[dst as usize], bytes);
                    self.inflight.insert(id, key);
                }
                continue;
            }
            let done = self.st.advance_until(e);
            if !done.is_empty() {
                return done.into_iter().map(|(id, t)| (self.inflight.remove(&id).expect("known message"), (t + self.o_recv) as f64 / 1e12)).collect();
            }
        }
    }
}
