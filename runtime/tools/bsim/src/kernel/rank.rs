//! One rank's state: its clock, communicators, requests, statistics and
//! timeline, and the bookkeeping around each call (`enter`/`leave`).

use super::engine::{lock, sim, WaitDesc, POLL_LIMIT};
use super::sched;
use crate::output::{EvKind, Event, Stats};
use std::collections::VecDeque;
use std::sync::atomic::Ordering::SeqCst;
use std::sync::Arc;

pub use super::engine::{ANY_SOURCE, ANY_TAG, PROC_NULL};

#[derive(Clone)]
pub struct Comm {
    pub ctx: u64,
    pub members: Arc<Vec<u32>>,
    pub me: i32,
    pub coll_seq: u64,
    pub child_seq: u64,
}

pub struct Matched {
    /// Completion time (valid unless `pending`).
    pub tc: f64,
    /// NSIM mode: waiting for the network to deliver message `nk`.
    pub pending: bool,
    pub nk: u64,
    pub start: f64,
    pub src_comm: i32,
    pub tag: i32,
    pub bytes: u64,
    /// World rank of the sender and the send time (the timeline's message arrows).
    pub src_world: u32,
    pub ts: f64,
}

pub enum Req {
    Send {
        sid: u64,
        done: Option<f64>,
        dest: u32,
        ts: f64,
        entry: f64,
    },
    Recv {
        src: i32,
        comm: i32,
        ctx: u64,
        tag: i32,
        members: Arc<Vec<u32>>,
        buf: usize,
        cap: u64,
        post: f64,
        matched: Option<Matched>,
    },
    /// Completed at creation (PROC_NULL).
    Null,
}

impl Req {
    /// Completion time if known.
    pub(crate) fn done(&self) -> Option<f64> {
        match self {
            Req::Send { done, .. } => *done,
            Req::Recv { matched, .. } => matched.as_ref().filter(|m| !m.pending).map(|m| m.tc),
            Req::Null => Some(0.0),
        }
    }
}

/// Status of a completed receive (comm rank, tag, bytes).
#[derive(Clone, Copy, Default, Debug)]
pub struct St {
    pub source: i32,
    pub tag: i32,
    pub bytes: u64,
    /// Communicator handle of the receive.
    pub comm: i32,
}

impl St {
    /// The status of a null request or of a receive from `PROC_NULL`.
    pub fn null(comm: i32) -> St {
        St { source: PROC_NULL, tag: ANY_TAG, bytes: 0, comm }
    }
}

pub struct Rank {
    pub id: u32,
    pub clock: f64,
    pub comms: Vec<Option<Comm>>,
    pub reqs: Vec<Option<Req>>,
    pub(crate) free_reqs: Vec<usize>,
    /// Unmatched receive requests, in posting order.
    pub(crate) posted: VecDeque<usize>,
    pub(crate) next_sid: u64,
    pub(crate) next_nk: u64,
    /// NSIM mode: rendezvous messages matched by `progress`, to hand to the
    /// network once the inbox lock is released: (send time, start, message).
    pub(crate) net_inj: Vec<(f64, f64, super::netmodel::Inj)>,
    pub stats: Stats,
    pub events: Vec<Event>,
    /// Messages received (timeline outputs only): arrows in the Chrome trace, links in
    /// Paje, MpiSend/MpiRecv in OTF2.
    pub msgs: Vec<crate::output::MsgRec>,
    /// `BSIM_TRACE`: this rank's trace file, or why it could not be created (reported
    /// when the run ends: crate::tracefile).
    pub trace: Option<Result<crate::tracefile::TraceFile, String>>,
    pub initialized: bool,
    pub finalized: bool,
    pub entry: f64,
    /// Part of the current call spent waiting for peers.
    pub idle: f64,
    /// The LMPI call in progress (for the deadlock report).
    pub call: &'static str,
    /// Compute blocks running in the skeleton (`BSIM_Block_begin`), innermost last.
    pub blocks: Vec<i32>,
    /// Thread CPU time at the end of the last BSIM call (NaN: host time is not
    /// being charged: before Init, after Finalize, or `[compute] host = false`).
    pub host_mark: f64,
    /// Host time measured since the last MPI call but not yet charged (a burst
    /// that compute-block boundaries cut: SMPI's bursts end only at MPI calls).
    pub host_acc: f64,
    /// `BSIM_Carry` flags for the next call (1: my send buffer holds data to
    /// move, 2: my receive buffer takes data), cleared by the call.
    pub carry: u8,
    /// Unsuccessful polls in a row with nothing else in between, and the
    /// simulation epoch they saw (deadlock detection of polling loops).
    poll_run: u64,
    poll_epoch: u64,
    /// The current call was an unsuccessful poll.
    polled: bool,
}

pub(crate) fn mix(a: u64, b: u64) -> u64 {
    // splitmix64 of a combination: context ids agreed without communication
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rank {
    pub fn new(id: u32, n: u32) -> Rank {
        let s = sim();
        debug_assert_eq!(s.world.len(), n as usize);
        let world = Comm { ctx: 1, members: s.world.clone(), me: id as i32, coll_seq: 0, child_seq: 0 };
        let selfc = Comm { ctx: mix(2, id as u64), members: Arc::new(vec![id]), me: 0, coll_seq: 0, child_seq: 0 };
        let trace = s.trace_dir.as_ref().map(|d| crate::tracefile::TraceFile::create(d, id));
        Rank {
            id,
            clock: 0.0,
            comms: vec![None, Some(world), Some(selfc)],
            reqs: vec![None],
            free_reqs: vec![],
            posted: VecDeque::new(),
            next_sid: 1,
            next_nk: 0,
            net_inj: vec![],
            stats: Stats::default(),
            events: vec![],
            msgs: vec![],
            trace,
            initialized: false,
            finalized: false,
            entry: 0.0,
            idle: 0.0,
            call: "",
            blocks: Vec::new(),
            host_mark: f64::NAN,
            host_acc: 0.0,
            carry: 0,
            poll_run: 0,
            poll_epoch: 0,
            polled: false,
        }
    }

    pub fn add_time(&mut self, t: f64) {
        // also refuses NaN
        if t.is_nan() || t <= 0.0 {
            return;
        }
        if sim().timeline {
            match self.events.last_mut() {
                Some(e) if e.kind == EvKind::Compute && e.t1 == self.clock => e.t1 += t,
                _ => self.events.push(Event { kind: EvKind::Compute, name: "compute", t0: self.clock, t1: self.clock + t, wait_end: self.clock }),
            }
        }
        self.clock += t;
        self.stats.compute += t;
        self.poll_run = 0;
    }

    /// An unsuccessful poll (Test*, Iprobe). `desc` describes what it polls for
    /// (only called for the report). When the rank does nothing but poll while
    /// every other rank is finished or blocked and nothing moves, it is deadlocked.
    pub fn poll_no(&mut self, desc: impl FnOnce(&Rank, &mut WaitDesc)) {
        let s = sim();
        self.polled = true;
        if sched::active() {
            // one thread: let the ranks that can change the answer run
            sched::yield_now(s.published(self.id), self.id);
        }
        let e = s.epoch.load(SeqCst);
        let stuck = s.blocked.load(SeqCst) + 1 == s.live.load(SeqCst);
        if !stuck || e != self.poll_epoch {
            self.poll_epoch = e;
            self.poll_run = 0;
            return;
        }
        self.poll_run += 1;
        if self.poll_run >= POLL_LIMIT {
            let _r = lock(&s.resolve_lock);
            let mut g = lock(&s.ranks[self.id as usize].st);
            let mut wd = std::mem::take(&mut g.wait);
            desc(self, &mut wd);
            g.wait = wd;
            drop(g);
            let call = if self.call.is_empty() { "a poll" } else { self.call };
            s.deadlock(Some((self.id, call)));
        }
    }

    /// Start of an LMPI call: charge the host time since the last call, publish the clock.
    pub fn enter(&mut self) {
        self.charge_host();
        self.entry = self.clock;
        self.idle = 0.0;
        sim().publish(self.id, self.clock);
    }

    /// End of an LMPI call: account its time.
    pub fn leave(&mut self, name: &'static str) {
        if !std::mem::take(&mut self.polled) {
            self.poll_run = 0;
        }
        let d = self.clock - self.entry;
        self.stats.comm += d;
        let idle = self.idle.min(d).max(0.0);
        self.stats.wait += idle;
        self.stats.calls += 1;
        sim().ranks[self.id as usize].calls.store(self.stats.calls, std::sync::atomic::Ordering::Relaxed);
        if sim().timeline && d > 0.0 {
            self.events.push(Event { kind: EvKind::Comm, name, t0: self.entry, t1: self.clock, wait_end: self.entry + idle });
        }
        self.host_resume();
    }

    pub fn user_event(&mut self, name: &str) {
        if sim().timeline {
            let n: &'static str = Box::leak(name.to_string().into_boxed_str());
            self.events.push(Event { kind: EvKind::User, name: n, t0: self.clock, t1: self.clock, wait_end: self.clock });
        }
    }

    pub fn trace_line(&mut self, f: impl FnOnce() -> String) {
        if let Some(Ok(t)) = &mut self.trace {
            t.line(&f());
        }
    }

    /// Ends this rank's trace: the finished file to put in place, or the error.
    pub fn finish_trace(&mut self) -> Option<Result<xmpc_outfile::Pending, String>> {
        self.trace.take().map(|t| t.and_then(crate::tracefile::TraceFile::finish))
    }

    pub fn comm(&self, h: i32) -> Option<&Comm> {
        self.comms.get(h as usize).and_then(|c| c.as_ref())
    }

    pub fn add_comm(&mut self, c: Comm) -> i32 {
        self.comms.push(Some(c));
        (self.comms.len() - 1) as i32
    }

    pub(crate) fn new_req(&mut self, r: Req) -> i32 {
        if let Some(i) = self.free_reqs.pop() {
            self.reqs[i] = Some(r);
            i as i32
        } else {
            self.reqs.push(Some(r));
            (self.reqs.len() - 1) as i32
        }
    }

    pub(crate) fn free_req(&mut self, h: usize) -> Option<Req> {
        let r = self.reqs.get_mut(h)?.take();
        if r.is_some() {
            self.free_reqs.push(h);
        }
        r
    }
}
