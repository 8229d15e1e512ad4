//! Incremental network model for other simulators (BSIM, MPIETE).
//!
//! ```no_run
//! use xmpc_nsim::{network::Network, Config};
//! let cfg = Config::from_file("torus.toml".as_ref()).unwrap();
//! let mut net = Network::new(&cfg).unwrap();
//! let a = net.send(0, 0, 5, 4096);          // at t = 0 ps, node 0 -> node 5, 4 KiB
//! let done = net.advance_until(10_000_000);  // process everything up to 10 us
//! for c in done { println!("message {} delivered at {} ps", c.id, c.delivered); }
//! # let _ = a;
//! ```
//!
//! Messages are injected at a node's NIC at the given time (no MPI matching,
//! no software overheads: the caller adds its own), split into packets and
//! simulated with contention against every other message in flight. The
//! caller must inject in non-decreasing time order relative to the time it
//! has advanced to (a send at `t` requires `t >= now()`).

use crate::config::{Config, ConfigError, MapKind};
use crate::engine::Simulation;
use crate::Time;

/// Identifier of an injected message.
pub type MsgId = u64;

/// A delivered message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    pub id: MsgId,
    /// time the last byte reached the destination NIC (ps).
    pub delivered: Time,
}

/// A network that can be driven step by step.
pub struct Network {
    sim: Simulation,
    next_id: MsgId,
}

impl Network {
    pub fn new(cfg: &Config) -> Result<Network, ConfigError> {
        let mut c = cfg.clone();
        c.mapping.kind = MapKind::Linear;
        let n = c.num_nodes();
        let sim = Simulation::new(&c, n, 1)?;
        Ok(Network { sim, next_id: 0 })
    }
    pub fn num_nodes(&self) -> u32 {
        self.sim.topo().nnodes
    }
    /// Current simulated time (everything before it has been processed).
    pub fn now(&self) -> Time {
        self.sim.raw_now()
    }
    /// Inject `bytes` from node `src` to node `dst` at time `t` (≥ `now()`).
    pub fn send(&mut self, t: Time, src: u32, dst: u32, bytes: u64) -> MsgId {
        assert!(src < self.num_nodes() && dst < self.num_nodes(), "node out of range");
        let id = self.next_id;
        self.next_id += 1;
        self.sim.raw_send(t, src, dst, bytes, id);
        id
    }
    /// Process all events up to and including time `t`; return the messages delivered meanwhile.
    pub fn advance_until(&mut self, t: Time) -> Vec<Completion> {
        self.sim.raw_advance(t).into_iter().map(|(id, d)| Completion { id, delivered: d }).collect()
    }
    /// Process events one at a time up to the first delivery strictly before
    /// `before` (and the rest of that instant); its time, or None when no
    /// message is delivered before `before`. The completions come out of the
    /// next [`Network::advance_until`].
    pub fn advance_to_delivery(&mut self, before: Time) -> Option<Time> {
        self.sim.raw_advance_to_delivery(before)
    }
    /// Nothing left to process (no packet, no credit on the way).
    pub fn idle(&self) -> bool {
        self.sim.raw_idle()
    }
    /// Run until every injected message is delivered.
    pub fn drain(&mut self) -> Vec<Completion> {
        let mut all = Vec::new();
        while !self.sim.raw_idle() {
            let t = self.now().saturating_add(1_000_000_000);
            all.extend(self.advance_until(t));
        }
        all
    }
}
