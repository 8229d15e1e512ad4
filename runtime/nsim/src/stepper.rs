//! A [`Network`] that can also say when the next message will be delivered
//! without running past it, for conservative coupling (BSIM, MPIETE).
//!
//! A coupled simulator may inject a message only at or after the network's
//! clock, and a delivery can cause a new injection at the delivery time. So
//! when nothing else bounds the next injection, the caller must advance
//! exactly to the next delivery. [`Stepper::next_delivery`] finds it on a
//! *shadow* network that received the same injections and runs ahead; the
//! main network is then advanced to that time. The shadow stays in use while
//! later injections are not in its past; otherwise it is rebuilt by replaying
//! the injections since the last time the main network was idle (the main
//! network is replaced by a fresh one at such points, so the replay starts
//! from the same state). Results depend only on the injection sequence.

use crate::config::{Config, ConfigError};
use crate::network::Network;
use crate::Time;
use std::collections::BTreeSet;

/// Identifier of a message injected through a [`Stepper`] (0, 1, 2, ...).
pub type MsgId = u64;

pub struct Stepper {
    cfg: Config,
    main: Network,
    shadow: Option<Network>,
    /// Deliveries seen on the shadow and not yet returned by the main network.
    ahead: BTreeSet<(Time, MsgId)>,
    /// Injections since the main network was last made fresh, as (t, src, dst, bytes).
    log: Vec<(Time, u32, u32, u64)>,
    /// Time at which the main network was made fresh.
    base: Time,
    /// Id of the first message in `log` (local ids of the fresh network are offsets).
    first: MsgId,
    inflight: usize,
    /// Deliveries found by the main network while advancing before an injection.
    ready: Vec<(MsgId, Time)>,
    /// How many times the shadow was rebuilt (diagnostics).
    pub rebuilds: u64,
}

impl Stepper {
    pub fn new(cfg: &Config) -> Result<Stepper, ConfigError> {
        Ok(Stepper {
            cfg: cfg.clone(),
            main: Network::new(cfg)?,
            shadow: None,
            ahead: BTreeSet::new(),
            log: Vec::new(),
            base: 0,
            first: 0,
            inflight: 0,
            ready: Vec::new(),
            rebuilds: 0,
        })
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

    fn fresh(&self, t: Time) -> Network {
        let mut n = Network::new(&self.cfg).expect("config was valid when the stepper was built");
        n.advance_until(t);
        n
    }

    /// Inject `bytes` from node `src` to `dst` at `t` (≥ `now()`): the network
    /// first processes everything up to and including `t`.
    pub fn send(&mut self, t: Time, src: u32, dst: u32, bytes: u64) -> MsgId {
        assert!(t >= self.now(), "injection in the past");
        let done = self.main.advance_until(t);
        self.take(done);
        if self.inflight == 0 && self.main.idle() && !self.log.is_empty() {
            // nothing in flight, no credit on the way: restart from a fresh
            // network so that a shadow replay is short
            self.main = self.fresh(t);
            self.first += self.log.len() as MsgId;
            self.log.clear();
            self.base = t;
            self.shadow = None;
            self.ahead.clear();
        }
        let id = self.first + self.log.len() as MsgId;
        let local = self.main.send(t, src, dst, bytes);
        debug_assert_eq!(local, id - self.first);
        self.log.push((t, src, dst, bytes));
        self.inflight += 1;
        if let Some(sh) = &mut self.shadow {
            if t >= sh.now() {
                let first = self.first;
                for c in sh.advance_until(t) {
                    self.ahead.insert((c.delivered, first + c.id));
                }
                sh.send(t, src, dst, bytes);
            } else {
                self.shadow = None;
                self.ahead.clear();
            }
        }
        id
    }

    fn take(&mut self, done: Vec<crate::network::Completion>) {
        self.inflight -= done.len();
        for c in done {
            self.ready.push((self.first + c.id, c.delivered));
        }
    }

    /// Process everything up to and including `t`; return (id, delivery time)
    /// of the messages delivered since the last call, in delivery order.
    pub fn advance_until(&mut self, t: Time) -> Vec<(MsgId, Time)> {
        let done = self.main.advance_until(t);
        self.take(done);
        let mut out = std::mem::take(&mut self.ready);
        out.sort_by_key(|x| (x.1, x.0));
        let now = self.now();
        while let Some(&f) = self.ahead.first() {
            if f.0 > now {
                break;
            }
            self.ahead.pop_first();
        }
        out
    }

    /// Time of the next delivery if nothing else is injected before it
    /// (None when nothing is in flight).
    pub fn next_delivery(&mut self) -> Option<Time> {
        if let Some(&(_, t)) = self.ready.iter().min_by_key(|x| x.1) {
            return Some(t);
        }
        if self.inflight == 0 {
            return None;
        }
        if self.shadow.is_none() {
            self.rebuilds += 1;
            let mut sh = self.fresh(self.base);
            self.ahead.clear();
            for &(t, s, d, b) in &self.log {
                for c in sh.advance_until(t) {
                    self.ahead.insert((c.delivered, self.first + c.id));
                }
                sh.send(t, s, d, b);
            }
            self.shadow = Some(sh);
        }
        let now = self.now();
        let sh = self.shadow.as_mut().unwrap();
        // deliveries the main network has already returned are not "next"
        while let Some(&f) = self.ahead.first() {
            if f.0 > now {
                return Some(f.0);
            }
            self.ahead.pop_first();
        }
        // run ahead in growing steps until something is delivered
        let mut step: Time = 1_000_000; // 1 us
        let mut t = sh.now().max(now);
        for _ in 0..64 {
            t = t.saturating_add(step);
            for c in sh.advance_until(t) {
                if c.delivered > now {
                    self.ahead.insert((c.delivered, self.first + c.id));
                }
            }
            if let Some(&f) = self.ahead.first() {
                return Some(f.0);
            }
            step = step.saturating_mul(2);
        }
        None
    }
}
