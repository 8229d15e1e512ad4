//! A [`Network`] for conservative coupling (BSIM, MPIETE) that can also say
//! when the next message will be delivered without running past it.
//!
//! A coupled simulator may inject a message only at or after the network's
//! clock, and a delivery can cause a new injection at the delivery time. So
//! when nothing else bounds the next injection, the caller must advance
//! exactly to the next delivery: [`Stepper::next_delivery`] processes the
//! network's events one at a time, never past the caller's bound, and stops
//! at the first delivery.

use crate::config::{Config, ConfigError};
use crate::network::Network;
use crate::Time;

/// Identifier of a message injected through a [`Stepper`] (0, 1, 2, ...).
pub type MsgId = u64;

pub struct Stepper {
    main: Network,
    inflight: usize,
    /// Deliveries found while advancing before an injection, not yet returned.
    ready: Vec<(MsgId, Time)>,
}

impl Stepper {
    pub fn new(cfg: &Config) -> Result<Stepper, ConfigError> {
        Ok(Stepper { main: Network::new(cfg)?, inflight: 0, ready: Vec::new() })
    }

    pub fn num_nodes(&self) -> u32 {
        self.main.num_nodes()
    }

    /// Everything up to and including `now()` has been processed.
    pub fn now(&self) -> Time {
        self.main.now()
    }

    /// Messages injected and not yet delivered.
    pub fn in_flight(&self) -> usize {
        self.inflight
    }

    /// Inject `bytes` from node `src` to `dst` at `t` (≥ `now()`): the network
    /// first processes everything up to and including `t`.
    pub fn send(&mut self, t: Time, src: u32, dst: u32, bytes: u64) -> MsgId {
        assert!(t >= self.now(), "injection in the past");
        let done = self.main.advance_until(t);
        self.take(done);
        self.inflight += 1;
        self.main.send(t, src, dst, bytes)
    }

    fn take(&mut self, done: Vec<crate::network::Completion>) {
        self.inflight -= done.len();
        self.ready.extend(done.into_iter().map(|c| (c.id, c.delivered)));
    }

    /// Process everything up to and including `t`; return (id, delivery time)
    /// of the messages delivered since the last call, in delivery order.
    pub fn advance_until(&mut self, t: Time) -> Vec<(MsgId, Time)> {
        let done = self.main.advance_until(t);
        self.take(done);
        let mut out = std::mem::take(&mut self.ready);
        out.sort_by_key(|x| (x.1, x.0));
        out
    }

    /// Time of the next delivery if it comes strictly before `before` and
    /// nothing is injected before it (None otherwise, or when nothing is in
    /// flight). The network is advanced up to that delivery, or to just
    /// before `before`, so the caller may then inject at `before` or later.
    pub fn next_delivery(&mut self, before: Time) -> Option<Time> {
        if let Some(&(_, t)) = self.ready.iter().min_by_key(|x| x.1) {
            return Some(t);
        }
        if self.inflight == 0 {
            return None;
        }
        self.main.advance_to_delivery(before)
    }
}
