//! Simulation kernel of the threads and contexts back ends: one host thread or
//! user-level context (ctx.rs) per rank, each
//! with its own virtual clock. Point-to-point messages carry the sender's
//! timestamp; a receive completes from the two clocks and the platform model.
//! Host scheduling never changes virtual times: an ANY_SOURCE receive,
//! Waitany or Test decides only once every rank that could still change the
//! answer has published a clock past it, or, when every live rank is blocked,
//! the globally earliest undecided choice is granted. If nothing can be
//! granted, the run is deadlocked and a report of who waits on whom is written.

use crate::coll::{self, CollKind};
use crate::model::Platform;
use crate::output::{EvKind, Event, Stats};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};

pub const ANY_SOURCE: i32 = -1;
pub const ANY_TAG: i32 = -1;
pub const PROC_NULL: i32 = -2;

pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A message in flight (no payload unless payload mode).
pub struct Msg {
    pub src: u32,
    pub ctx: u64,
    pub tag: i32,
    pub bytes: u64,
    pub ts: f64,
    /// Rendezvous id (0: eager, the sender does not wait).
    pub sid: u64,
    /// Network-model key (NSIM mode; 0 otherwise).
    pub nk: u64,
    pub payload: Option<Vec<u8>>,
}

/// One thing a blocked rank waits for: (kind, world peer or u32::MAX for any, tag).
pub const W_RECV: u8 = 0;
pub const W_RDV: u8 = 1;

/// What a blocked rank waits for (for the deadlock report). Kept compact and
/// reused between sleeps: the text is only made if the run deadlocks.
#[derive(Default)]
pub struct WaitDesc {
    pub call: &'static str,
    pub items: Vec<(u8, u32, i32)>,
    /// A collective: the meeting and its members (missing ones found at report time).
    pub meeting: Option<(Arc<Meeting>, Arc<Vec<u32>>, &'static str)>,
}

impl WaitDesc {
    fn text(&self) -> (String, String) {
        let mut peers: Vec<u32> = vec![];
        let mut detail = vec![];
        for &(k, p, tag) in &self.items {
            match (k, p) {
                (W_RECV, u32::MAX) => detail.push(format!("receive from any source, tag {tag}")),
                (W_RECV, p) => {
                    peers.push(p);
                    detail.push(format!("receive from rank {p}, tag {tag}"));
                }
                (_, p) => {
                    peers.push(p);
                    detail.push(format!("rendezvous send to rank {p} not yet received"));
                }
            }
        }
        if let Some((m, members, name)) = &self.meeting {
            let args = lock(&m.args);
            peers.extend((0..members.len()).filter(|&i| args[i].is_none()).map(|i| members[i]));
            detail.push(format!("collective {name} not yet called by these members"));
        }
        peers.sort();
        peers.dedup();
        let on = if peers.is_empty() { "any rank".to_string() } else { peers.iter().map(|p| format!("rank {p}")).collect::<Vec<_>>().join(", ") };
        (on, detail.join("; "))
    }
}

#[derive(Default)]
pub struct Inbox {
    pub msgs: VecDeque<Msg>,
    pub rdv_done: Vec<(u64, f64)>,
    /// NSIM mode: delivery times of messages to this rank, by message key.
    pub net_done: HashMap<u64, f64>,
    pub sleeping: bool,
    pub poked: bool,
    pub granted: bool,
    pub candidate: Option<f64>,
    /// Message deliveries still needed before a re-check is worth waking for.
    pub need: u32,
    pub finished: bool,
    pub wait: WaitDesc,
}

pub struct Shared {
    pub st: Mutex<Inbox>,
    pub cv: Condvar,
    /// Published lower bound on this rank's future send times (f64 bits).
    pub clock: AtomicU64,
}

/// A collective meeting point: members deposit their arrival; the last one
/// computes everybody's exit time (and moves the data in payload mode).
pub struct Meeting {
    pub args: Mutex<Vec<Option<crate::lmpi::CollArgs>>>,
    pub arrived: AtomicUsize,
    pub done: AtomicBool,
    pub exit: Mutex<Vec<f64>>,
    pub split: Mutex<Vec<Option<(u64, Arc<Vec<u32>>)>>>,
    /// NSIM mode, p2p collectives: each member's steps, run as messages.
    pub sched: Mutex<Vec<Vec<coll::Op>>>,
}

/// Unsuccessful polls in a row, with nothing else in between, while every other
/// rank is finished or blocked and no message moves: then the poller is deadlocked.
pub const POLL_LIMIT: u64 = 100_000;

pub struct Sim {
    pub n: u32,
    /// Counts events that can change what a poll answers (a message sent, a
    /// rendezvous or network delivery, a collective completed, a rank finished).
    pub epoch: AtomicU64,
    /// The members of LMPI_COMM_WORLD (0..n), one table shared by every rank.
    pub world: Arc<Vec<u32>>,
    pub plat: Platform,
    pub ranks: Vec<Shared>,
    blocked: AtomicUsize,
    live: AtomicUsize,
    watchers: Mutex<Vec<u32>>,
    nwatch: AtomicUsize,
    resolve_lock: Mutex<()>,
    pub meetings: Mutex<HashMap<(u64, u64), Arc<Meeting>>>,
    pub payload: bool,
    pub timeline: bool,
    pub trace_dir: Option<PathBuf>,
    pub out_dir: Option<PathBuf>,
    pub finished: AtomicUsize,
    warned: Mutex<Vec<String>>,
    /// NSIM network model (None: `l + s/w`).
    pub net: Option<Mutex<crate::netmodel::Net>>,
}

static SIM: OnceLock<Sim> = OnceLock::new();

pub fn sim() -> &'static Sim {
    SIM.get().expect("bsim: LMPI called outside a bsim run")
}

pub fn sim_opt() -> Option<&'static Sim> {
    SIM.get()
}

pub struct SimOpts {
    pub payload: bool,
    pub timeline: bool,
    pub trace_dir: Option<PathBuf>,
    pub out_dir: Option<PathBuf>,
}

pub fn init_sim(n: u32, plat: Platform, o: SimOpts) -> Result<&'static Sim, String> {
    let net = match &plat.nsim {
        Some(cfg) => Some(Mutex::new(crate::netmodel::Net::new(cfg, n)?)),
        None => None,
    };
    let ranks = (0..n).map(|_| Shared { st: Mutex::new(Inbox::default()), cv: Condvar::new(), clock: AtomicU64::new(0f64.to_bits()) }).collect();
    let s = Sim {
        n,
        world: Arc::new((0..n).collect()),
        epoch: AtomicU64::new(0),
        plat,
        ranks,
        blocked: AtomicUsize::new(0),
        live: AtomicUsize::new(n as usize),
        watchers: Mutex::new(vec![]),
        nwatch: AtomicUsize::new(0),
        resolve_lock: Mutex::new(()),
        meetings: Mutex::new(HashMap::new()),
        payload: o.payload,
        timeline: o.timeline,
        trace_dir: o.trace_dir,
        out_dir: o.out_dir,
        finished: AtomicUsize::new(0),
        warned: Mutex::new(vec![]),
        net,
    };
    if SIM.set(s).is_err() {
        panic!("bsim: the simulation was started twice");
    }
    Ok(sim())
}

impl Sim {
    pub fn warn_once(&self, key: &str, msg: String) {
        let mut w = lock(&self.warned);
        if !w.iter().any(|k| k == key) {
            w.push(key.to_string());
            eprintln!("bsim: warning: {msg}");
        }
    }

    pub fn published(&self, r: u32) -> f64 {
        f64::from_bits(self.ranks[r as usize].clock.load(SeqCst))
    }

    /// Publish `me`'s clock; wake ranks waiting on clocks to decide.
    pub fn publish(&self, me: u32, t: f64) {
        self.ranks[me as usize].clock.store(t.to_bits(), SeqCst);
        self.net_pump();
        if self.nwatch.load(SeqCst) > 0 {
            let list = {
                let mut w = lock(&self.watchers);
                self.nwatch.store(0, SeqCst);
                std::mem::take(&mut *w)
            };
            for r in list {
                if r != me {
                    self.wake(r);
                }
            }
        }
    }

    /// Wake `r` if it sleeps; otherwise make its next sleep attempt re-check.
    pub fn wake(&self, r: u32) {
        let sh = &self.ranks[r as usize];
        let mut g = lock(&sh.st);
        self.wake_locked(&mut g, sh);
    }

    fn wake_locked(&self, g: &mut Inbox, sh: &Shared) {
        if g.sleeping {
            g.sleeping = false;
            self.blocked.fetch_sub(1, SeqCst);
            if crate::ctx::active() {
                crate::ctx::ready(self, self.rank_of(sh));
            } else {
                sh.cv.notify_one();
            }
        } else {
            g.poked = true;
        }
    }

    fn rank_of(&self, sh: &Shared) -> u32 {
        let off = (sh as *const Shared as usize) - (self.ranks.as_ptr() as usize);
        (off / std::mem::size_of::<Shared>()) as u32
    }

    /// Wake for a delivery: a rank waiting for k messages sleeps on until the k-th.
    fn wake_soft(&self, g: &mut Inbox, sh: &Shared) {
        if g.sleeping && g.need > 1 && self.net.is_none() {
            g.need -= 1;
        } else {
            self.wake_locked(g, sh);
        }
    }

    pub fn deliver(&self, dst: u32, m: Msg) {
        self.epoch.fetch_add(1, SeqCst);
        let sh = &self.ranks[dst as usize];
        let mut g = lock(&sh.st);
        g.msgs.push_back(m);
        self.wake_soft(&mut g, sh);
    }

    /// NSIM mode: inject what is safe and advance the network below the horizon.
    pub fn net_pump(&self) {
        let Some(net) = &self.net else { return };
        let min = (0..self.n).map(|r| self.published(r)).fold(f64::INFINITY, f64::min);
        let d = lock(net).pump(min);
        self.net_deliver(d);
    }

    fn net_deliver(&self, d: Vec<crate::netmodel::Delivery>) {
        self.epoch.fetch_add(1, SeqCst);
        for (m, t) in d {
            if m.sid != 0 {
                self.rdv_done(m.src, m.sid, t);
            }
            let sh = &self.ranks[m.dst as usize];
            let mut g = lock(&sh.st);
            g.net_done.insert(m.nk, t);
            self.wake_locked(&mut g, sh);
        }
    }

    pub fn rdv_done(&self, sender: u32, sid: u64, t: f64) {
        self.epoch.fetch_add(1, SeqCst);
        let sh = &self.ranks[sender as usize];
        let mut g = lock(&sh.st);
        g.rdv_done.push((sid, t));
        self.wake_soft(&mut g, sh);
    }

    /// Put `me` to sleep (its inbox guard held by the caller) until woken.
    /// `candidate`: the key of an undecided choice (ANY_SOURCE, Waitany, Test):
    /// the rank is woken on every clock publication to re-check it.
    /// `need`: deliveries (messages, rendezvous completions) before waking.
    pub fn sleep<'a>(&'a self, me: u32, mut g: MutexGuard<'a, Inbox>, candidate: Option<f64>, need: u32) -> MutexGuard<'a, Inbox> {
        let sh = &self.ranks[me as usize];
        if g.poked {
            g.poked = false;
            return g;
        }
        if candidate.is_some() {
            lock(&self.watchers).push(me);
            self.nwatch.fetch_add(1, SeqCst);
        }
        g.candidate = candidate;
        g.need = if candidate.is_some() { 1 } else { need.max(1) };
        g.sleeping = true;
        let b = self.blocked.fetch_add(1, SeqCst) + 1;
        if b == self.live.load(SeqCst) {
            drop(g);
            self.resolve();
            g = lock(&sh.st);
        }
        while g.sleeping {
            if crate::ctx::active() {
                // a context gives the thread back to BSIM's loop instead
                drop(g);
                crate::ctx::suspend();
                g = lock(&sh.st);
            } else {
                g = sh.cv.wait(g).unwrap_or_else(|e| e.into_inner());
            }
        }
        g.poked = false;
        g.candidate = None;
        g
    }

    /// A rank has returned from its main.
    ///
    /// One step for the other ranks (under the resolve lock): a rank polling for this
    /// one's messages sees its infinite clock (nothing more can come) only once it no
    /// longer counts as live, and nobody resolves in between. Published first, a
    /// poller was told "no message" while it still counted this rank as live, so it
    /// polled on at host speed and the deadlock report's virtual time depended on the
    /// host's scheduling (`polling_forever_is_a_deadlock`: 2 runs in 12 under load).
    pub fn finish(&self, me: u32) {
        let live = {
            let _r = lock(&self.resolve_lock);
            {
                let mut g = lock(&self.ranks[me as usize].st);
                g.finished = true;
            }
            self.finished.fetch_add(1, SeqCst);
            let live = self.live.fetch_sub(1, SeqCst) - 1;
            self.epoch.fetch_add(1, SeqCst);
            self.publish(me, f64::INFINITY);
            live
        };
        if live > 0 && self.blocked.load(SeqCst) == live {
            self.resolve();
        }
    }

    /// Every live rank is blocked: grant the earliest undecided choice, or
    /// report a deadlock.
    fn resolve(&self) {
        let _r = lock(&self.resolve_lock);
        if self.blocked.load(SeqCst) != self.live.load(SeqCst) || self.live.load(SeqCst) == 0 {
            return;
        }
        let mut best: Option<(f64, u32)> = None;
        for (r, sh) in self.ranks.iter().enumerate() {
            let g = lock(&sh.st);
            if g.sleeping && !g.poked {
                if let Some(c) = g.candidate {
                    if best.is_none_or(|b| c < b.0) {
                        best = Some((c, r as u32));
                    }
                }
            }
        }
        if let Some(net) = &self.net {
            // the network's next event first, unless a choice comes strictly earlier
            let d = lock(net).step_blocked(best.map(|b| b.0));
            if !d.is_empty() {
                self.net_deliver(d);
                return;
            }
        }
        if let Some((_, r)) = best {
            let sh = &self.ranks[r as usize];
            let mut g = lock(&sh.st);
            g.granted = true;
            self.wake_locked(&mut g, sh);
            return;
        }
        self.deadlock(None);
    }

    /// Report a deadlock and exit 3; `poller`: a rank that only polls while every
    /// other one is finished or blocked (its own state is not "blocked").
    pub(crate) fn deadlock(&self, poller: Option<(u32, &str)>) -> ! {
        let mut rep = match poller {
            None => String::from(
                "bsim: deadlock: every live rank is blocked and none can make progress\n",
            ),
            Some((r, call)) => format!(
                "bsim: deadlock: rank {r} polls in {call} ({POLL_LIMIT} unsuccessful polls in a row, nothing else in between) while every other rank is finished or blocked: nothing can complete what it polls for\n"
            ),
        };
        let mut blocked = 0;
        for (r, sh) in self.ranks.iter().enumerate() {
            let g = lock(&sh.st);
            if g.finished {
                continue;
            }
            blocked += 1;
            let w = &g.wait;
            let (on, detail) = w.text();
            let t = f64::from_bits(sh.clock.load(SeqCst));
            rep.push_str(&format!(
                "  rank {r} (t = {t:.9e} s) in {} waits on {on}{}\n",
                w.call,
                if detail.is_empty() { String::new() } else { format!(" ({detail})") }
            ));
        }
        rep.push_str(&format!("{blocked} rank(s) blocked, {} finished\n", self.n as usize - blocked));
        eprint!("{rep}");
        if let Some(d) = &self.out_dir {
            let _ = std::fs::create_dir_all(d);
            let _ = xmpc_outfile::write(&d.join("deadlock.txt"), rep.as_bytes());
        }
        let _ = std::io::stderr().flush();
        std::process::exit(3);
    }
}

// ---------------- per-rank state ----------------

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
    fn done(&self) -> Option<f64> {
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
    free_reqs: Vec<usize>,
    /// Unmatched receive requests, in posting order.
    posted: VecDeque<usize>,
    next_sid: u64,
    next_nk: u64,
    /// NSIM mode: rendezvous messages matched by `progress`, to hand to the
    /// network once the inbox lock is released: (send time, start, message).
    net_inj: Vec<(f64, f64, crate::netmodel::Inj)>,
    pub stats: Stats,
    pub events: Vec<Event>,
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
    /// A compute block run in the skeleton (`BSIM_Block_begin`): its id and the
    /// thread CPU time at its start.
    pub block: Option<(i32, f64)>,
    /// Unsuccessful polls in a row with nothing else in between, and the
    /// simulation epoch they saw (deadlock detection of polling loops).
    poll_run: u64,
    poll_epoch: u64,
    /// The current call was an unsuccessful poll.
    polled: bool,
}

fn mix(a: u64, b: u64) -> u64 {
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
            trace,
            initialized: false,
            finalized: false,
            entry: 0.0,
            idle: 0.0,
            call: "",
            block: None,
            poll_run: 0,
            poll_epoch: 0,
            polled: false,
        }
    }

    pub fn add_time(&mut self, t: f64) {
        if !(t > 0.0) {
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
        if crate::ctx::active() {
            // one thread: let the ranks that can change the answer run
            crate::ctx::yield_now(s, self.id);
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

    /// Start of an LMPI call: publish the clock.
    pub fn enter(&mut self) {
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
        if sim().timeline && d > 0.0 {
            self.events.push(Event { kind: EvKind::Comm, name, t0: self.entry, t1: self.clock, wait_end: self.entry + idle });
        }
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

    fn new_req(&mut self, r: Req) -> i32 {
        if let Some(i) = self.free_reqs.pop() {
            self.reqs[i] = Some(r);
            i as i32
        } else {
            self.reqs.push(Some(r));
            (self.reqs.len() - 1) as i32
        }
    }

    fn free_req(&mut self, h: usize) -> Option<Req> {
        let r = self.reqs.get_mut(h)?.take();
        if r.is_some() {
            self.free_reqs.push(h);
        }
        r
    }

    /// Post a send. Returns the request handle (completion known at once for eager sends).
    pub fn isend(&mut self, comm: i32, dest: i32, tag: i32, bytes: u64, data: Option<&[u8]>, blocking: bool, sync: bool) -> i32 {
        if dest == PROC_NULL {
            return self.new_req(Req::Null);
        }
        let c = self.comm(comm).expect("valid comm");
        let (ctx, dw) = (c.ctx, c.members[dest as usize]);
        self.isend_to(ctx, dw, tag, bytes, data, blocking, sync)
    }

    /// Post a send to world rank `dw` on context `ctx`.
    fn isend_to(&mut self, ctx: u64, dw: u32, tag: i32, bytes: u64, data: Option<&[u8]>, blocking: bool, sync: bool) -> i32 {
        let s = sim();
        let o = if blocking { s.plat.o_send } else { s.plat.o_isend };
        let entry = self.clock;
        self.clock += o;
        let ts = self.clock;
        let rdv = sync || bytes >= s.plat.eager_threshold;
        let sid = if rdv {
            self.next_sid += 1;
            self.next_sid
        } else {
            0
        };
        self.stats.sends += 1;
        self.stats.bytes_sent += bytes;
        let payload = if s.payload { data.map(|d| d.to_vec()) } else { None };
        let mut nk = 0;
        if let Some(net) = &s.net {
            self.next_nk += 1;
            nk = (self.id as u64) << 40 | self.next_nk;
            if !rdv && bytes < s.plat.async_threshold {
                let m = crate::netmodel::Inj { src: self.id, dst: dw, bytes: bytes + s.plat.header_bytes, nk, sid };
                lock(net).add_pending(ts, m);
            } else {
                lock(net).add_unmatched(ts, self.id, nk);
            }
        }
        s.deliver(dw, Msg { src: self.id, ctx, tag, bytes, ts, sid, nk, payload });
        self.new_req(Req::Send { sid, done: if rdv { None } else { Some(ts) }, dest: dw, ts, entry })
    }

    pub fn irecv(&mut self, comm: i32, src: i32, tag: i32, buf: usize, cap: u64) -> i32 {
        if src == PROC_NULL {
            return self.new_req(Req::Null);
        }
        let c = self.comm(comm).expect("valid comm");
        let r = Req::Recv { src, comm, ctx: c.ctx, tag, members: c.members.clone(), buf, cap, post: self.clock, matched: None };
        let h = self.new_req(r);
        self.posted.push_back(h as usize);
        h
    }

    /// Match posted receives against the inbox, in posting order, as far as
    /// the choice is decided. Returns rendezvous notifications to send after
    /// the lock is released, and the key of an undecided ANY_SOURCE match.
    fn progress(&mut self, g: &mut Inbox, granted: &mut bool) -> (Vec<(u32, u64, f64)>, Option<f64>) {
        let s = sim();
        let mut notes = vec![];
        // rendezvous completions of my sends
        if !g.rdv_done.is_empty() {
            for (sid, t) in g.rdv_done.drain(..) {
                for r in self.reqs.iter_mut().flatten() {
                    if let Req::Send { sid: x, done, .. } = r {
                        if *x == sid {
                            *done = Some(t);
                        }
                    }
                }
            }
        }
        if !g.net_done.is_empty() {
            for r in self.reqs.iter_mut().flatten() {
                if let Req::Recv { matched: Some(m), post, .. } = r {
                    if m.pending {
                        if let Some(t) = g.net_done.remove(&m.nk) {
                            m.tc = t.max(*post);
                            m.pending = false;
                        }
                    }
                }
            }
        }
        let mut undecided = None;
        // Posted receives in order. One with no matching message cannot be
        // overtaken wrongly (no queued message matches it), so later ones may
        // match; an undecided ANY_SOURCE choice stops the scan.
        let mut k = 0;
        while k < self.posted.len() {
            let h = self.posted[k];
            let Some(Req::Recv { src, ctx, tag, members, post, .. }) = &self.reqs[h] else {
                self.posted.remove(k);
                continue;
            };
            let (src, ctx, tag, post) = (*src, *ctx, *tag, *post);
            let ok = |m: &Msg| m.ctx == ctx && (tag == ANY_TAG || m.tag == tag);
            let pick = if src != ANY_SOURCE {
                let w = members[src as usize];
                g.msgs.iter().position(|m| m.src == w && ok(m))
            } else {
                // earliest send among the first matching message of each source
                let mut best: Option<(f64, u32, usize)> = None;
                let mut seen: Vec<u32> = vec![];
                for (i, m) in g.msgs.iter().enumerate() {
                    if !ok(m) || seen.contains(&m.src) {
                        continue;
                    }
                    seen.push(m.src);
                    if best.is_none_or(|b| (m.ts, m.src) < (b.0, b.1)) {
                        best = Some((m.ts, m.src, i));
                    }
                }
                match best {
                    None => None,
                    Some((ts, bsrc, i)) => {
                        // decided when no other member can still send something earlier
                        let decided = *granted
                            || members.iter().all(|&r| {
                                if seen.contains(&r) {
                                    return true;
                                }
                                let c = s.published(r);
                                c > ts || (c == ts && r > bsrc)
                            });
                        if decided {
                            *granted = false;
                            Some(i)
                        } else {
                            undecided = Some(ts);
                            break;
                        }
                    }
                }
            };
            let Some(i) = pick else {
                k += 1;
                continue;
            };
            let m = g.msgs.remove(i).unwrap();
            self.posted.remove(k);
            let rdv = m.sid != 0;
            let early = !rdv && m.bytes < s.plat.async_threshold;
            let start = if early { m.ts } else { m.ts.max(post) };
            let (tc, pending) = if s.net.is_some() {
                // the network says when; the sender hears from it too
                if !early {
                    let inj = crate::netmodel::Inj { src: m.src, dst: self.id, bytes: m.bytes + s.plat.header_bytes, nk: m.nk, sid: m.sid };
                    self.net_inj.push((m.ts, start, inj));
                }
                match g.net_done.remove(&m.nk) {
                    Some(t) => (t, false),
                    None => (f64::NAN, true),
                }
            } else {
                let tc = start + s.plat.transfer(m.src, self.id, m.bytes);
                if rdv {
                    notes.push((m.src, m.sid, tc));
                }
                (tc, false)
            };
            let Some(Req::Recv { members, buf, cap, matched, .. }) = &mut self.reqs[h] else { unreachable!() };
            // the receive named its source; else the world-like identity, else search
            // (a linear search per message made 16K-rank rings quadratic)
            let src_comm = if src != ANY_SOURCE {
                src
            } else if members.get(m.src as usize) == Some(&m.src) {
                m.src as i32
            } else {
                members.iter().position(|&x| x == m.src).unwrap_or(0) as i32
            };
            if m.bytes > *cap {
                eprintln!("bsim: rank {}: message truncated: {} bytes from rank {} (tag {}) into a {}-byte receive", self.id, m.bytes, m.src, m.tag, cap);
                std::process::exit(4);
            }
            if let Some(p) = &m.payload {
                if *buf != 0 && !p.is_empty() {
                    // SAFETY: the receive buffer of a posted request stays valid until it completes (MPI rule).
                    unsafe { std::ptr::copy_nonoverlapping(p.as_ptr(), *buf as *mut u8, p.len()) };
                }
            }
            *matched = Some(Matched { tc: tc.max(post), pending, nk: m.nk, start, src_comm, tag: m.tag, bytes: m.bytes });
        }
        (notes, undecided)
    }

    /// Record what `hs` wait for in `w` (reusing its buffer); returns how many
    /// deliveries they still need.
    fn wait_desc(&self, call: &'static str, hs: &[usize], w: &mut WaitDesc) -> u32 {
        w.call = if self.call.is_empty() { call } else { self.call };
        w.items.clear();
        w.meeting = None;
        for &h in hs {
            match &self.reqs[h] {
                Some(Req::Recv { src, tag, members, matched: None, .. }) => {
                    let p = if *src == ANY_SOURCE { u32::MAX } else { members[*src as usize] };
                    w.items.push((W_RECV, p, *tag));
                }
                Some(Req::Send { dest, done: None, .. }) => w.items.push((W_RDV, *dest, 0)),
                _ => {}
            }
        }
        w.items.len() as u32
    }

    /// Lower bound on the completion time of an unmatched request.
    fn lower_bound(&self, h: usize) -> f64 {
        let s = sim();
        match &self.reqs[h] {
            Some(Req::Recv { src, members, post, matched: None, .. }) => {
                let lb = if *src == ANY_SOURCE {
                    members.iter().map(|&r| s.published(r)).fold(f64::INFINITY, f64::min)
                } else {
                    s.published(members[*src as usize])
                };
                lb.max(*post)
            }
            Some(Req::Send { ts, dest, done: None, .. }) => s.published(*dest).max(*ts),
            Some(Req::Recv { matched: Some(m), post, .. }) if m.pending => m.start.max(*post),
            Some(r) => r.done().unwrap_or(0.0),
            None => 0.0,
        }
    }

    /// Block until `pred` holds over the request table (re-matching as messages come).
    /// `choice`: for Waitany/Test, returns Some(decision) or the undecided key.
    /// `all`: the wait needs every request (Waitall); otherwise any one may do.
    fn block<T>(&mut self, call: &'static str, hs: &[usize], all: bool, mut decide: impl FnMut(&mut Rank, bool) -> Result<T, Option<f64>>) -> T {
        let s = sim();
        let mut granted = false;
        loop {
            let (mut g, undecided_match) = self.settled(&mut granted);
            let key = match decide(self, granted) {
                Ok(v) => return v,
                Err(k) => k,
            };
            granted = false;
            let cand = match (undecided_match, key) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let mut wd = std::mem::take(&mut g.wait);
            let need = self.wait_desc(call, hs, &mut wd);
            g.wait = wd;
            // receives posted before these (ANY_SOURCE order) may take messages first
            let need = if !all || s.net.is_some() || self.posted.len() as u32 > need { 1 } else { need };
            let g = s.sleep(self.id, g, cand, need);
            drop(g);
        }
    }

    /// Lock this rank's inbox once everything decidable is matched: a grant
    /// is taken, rendezvous notifications found on the way are sent (with the
    /// lock released) and NSIM injections flushed, until none is left.
    /// Returns the guard and the key of an undecided ANY_SOURCE match.
    fn settled(&mut self, granted: &mut bool) -> (MutexGuard<'static, Inbox>, Option<f64>) {
        let s = sim();
        let sh = &s.ranks[self.id as usize];
        loop {
            let mut g = lock(&sh.st);
            if g.granted {
                g.granted = false;
                *granted = true;
            }
            let (notes, undecided_match) = self.progress(&mut g, granted);
            if notes.is_empty() && self.net_inj.is_empty() {
                return (g, undecided_match);
            }
            drop(g);
            for (r, sid, t) in notes {
                s.rdv_done(r, sid, t);
            }
            self.flush_net_inj();
        }
    }

    /// NSIM mode: matched rendezvous messages get their injection time.
    fn flush_net_inj(&mut self) {
        let s = sim();
        if let Some(net) = &s.net {
            if !self.net_inj.is_empty() {
                let mut n = lock(net);
                for (ts, start, m) in self.net_inj.drain(..) {
                    n.matched(ts, start, m);
                }
                drop(n);
                // the horizon may have moved
                s.net_pump();
            }
        }
    }

    fn complete(&mut self, h: usize, st: Option<&mut St>) {
        let Some(r) = self.free_req(h) else { return };
        match r {
            Req::Send { done, ts, .. } => self.finish_send(ts, done.unwrap()),
            Req::Recv { matched, post, comm, .. } => {
                let m = matched.unwrap();
                self.finish_recv(m.tc, m.start, post);
                if let Some(st) = st {
                    *st = St { source: m.src_comm, tag: m.tag, bytes: m.bytes, comm };
                }
            }
            Req::Null => {
                if let Some(st) = st {
                    *st = St::null(0);
                }
            }
        }
    }

    /// Completion of a send started at `ts` that ends at `done` (rendezvous:
    /// when the receiver took the message); both back ends use these rules.
    pub(crate) fn finish_send(&mut self, ts: f64, done: f64) {
        self.idle += (done - self.clock.max(ts)).max(0.0);
        self.clock = self.clock.max(done);
    }

    /// Completion of a receive posted at `post` whose message was complete at
    /// `tc` after its transfer started at `start`.
    pub(crate) fn finish_recv(&mut self, tc: f64, start: f64, post: f64) {
        let before = self.clock;
        self.clock = self.clock.max(tc) + sim().plat.o_recv;
        self.idle += (start - before.max(post)).max(0.0);
        self.stats.recvs += 1;
    }

    pub fn valid_req(&self, h: i32) -> bool {
        h > 0 && self.reqs.get(h as usize).is_some_and(|r| r.is_some())
    }

    /// MPI_Waitall over handles (0 = REQUEST_NULL entries are skipped).
    pub fn waitall(&mut self, hs: &[i32], sts: &mut [St]) {
        let live: Vec<usize> = hs.iter().filter(|&&h| h > 0).map(|&h| h as usize).collect();
        self.block(
            "Waitall",
            &live,
            true,
            |me, _| {
                if live.iter().all(|&h| me.reqs[h].as_ref().is_some_and(|r| r.done().is_some())) {
                    Ok(())
                } else {
                    Err(None)
                }
            },
        );
        for (i, &h) in hs.iter().enumerate() {
            if h > 0 {
                let st = sts.get_mut(i);
                self.complete(h as usize, st);
            }
        }
    }

    pub fn wait(&mut self, h: i32, st: &mut St) {
        self.waitall(&[h], std::slice::from_mut(st));
    }

    /// MPI_Waitany: the request that completes first in virtual time (lowest
    /// index on ties). Returns its index or None if all are REQUEST_NULL.
    pub fn waitany(&mut self, hs: &[i32], st: &mut St) -> Option<usize> {
        let live: Vec<(usize, usize)> = hs.iter().enumerate().filter(|(_, &h)| h > 0).map(|(i, &h)| (i, h as usize)).collect();
        if live.is_empty() {
            return None;
        }
        let lh: Vec<usize> = live.iter().map(|x| x.1).collect();
        let idx = self.block("Waitany", &lh, false, |me, granted| {
            let clock = me.clock;
            let mut best: Option<(f64, usize)> = None;
            let mut lb_min = (f64::INFINITY, usize::MAX);
            for &(i, h) in &live {
                match me.reqs[h].as_ref().and_then(|r| r.done()) {
                    Some(t) => {
                        let e = t.max(clock);
                        if best.is_none_or(|b| (e, i) < b) {
                            best = Some((e, i));
                        }
                    }
                    None => {
                        let e = me.lower_bound(h).max(clock);
                        if (e, i) < lb_min {
                            lb_min = (e, i);
                        }
                    }
                }
            }
            match best {
                Some(b) if granted || b < lb_min => Ok(b.1),
                Some(b) => Err(Some(b.0)),
                None => Err(None),
            }
        });
        self.complete(hs[idx] as usize, Some(st));
        Some(idx)
    }

    /// MPI_Test: complete iff it completed by now (decided deterministically).
    pub fn testall(&mut self, hs: &[i32], sts: &mut [St]) -> bool {
        let live: Vec<usize> = hs.iter().filter(|&&h| h > 0).map(|&h| h as usize).collect();
        let done = self.block("Test", &live, false, |me, granted| {
            let now = me.clock;
            let mut all = true;
            for &h in &live {
                match me.reqs[h].as_ref().and_then(|r| r.done()) {
                    Some(t) if t <= now => {}
                    Some(_) => return Ok(false),
                    None => {
                        if me.lower_bound(h) > now || granted {
                            return Ok(false);
                        }
                        all = false;
                    }
                }
            }
            if all {
                Ok(true)
            } else {
                Err(Some(now))
            }
        });
        if done {
            for (i, &h) in hs.iter().enumerate() {
                if h > 0 {
                    self.complete(h as usize, sts.get_mut(i));
                }
            }
        } else {
            self.clock += sim().plat.o_test;
            self.poll_no(|me, w| {
                me.wait_desc("Test", &live, w);
            });
        }
        done
    }

    /// Drop a request handle without waiting (MPI_Request_free).
    pub fn request_free(&mut self, h: i32) {
        if h > 0 {
            self.posted.retain(|&x| x != h as usize);
            self.free_req(h as usize);
        }
    }

    /// A request already complete at virtual time `t` (nonblocking
    /// collectives: the exit time computed at the call; `start` is the call).
    pub fn done_req(&mut self, start: f64, t: f64) -> i32 {
        self.new_req(Req::Send { sid: 0, done: Some(t), dest: self.id, ts: start, entry: start })
    }

    /// MPI_Probe (`blocking`) / MPI_Iprobe: the status of the message a
    /// receive would match, decided like an ANY_SOURCE receive. A message is
    /// seen once its envelope arrived (send time + transfer of 0 bytes).
    /// Iprobe answers "no" only when no rank that could still send an
    /// envelope arriving by now can change the answer.
    pub fn probe(&mut self, comm: i32, src: i32, tag: i32, blocking: bool) -> Option<St> {
        let s = sim();
        if src == PROC_NULL {
            return Some(St::null(comm));
        }
        let c = self.comm(comm).expect("valid comm");
        let (ctx, members) = (c.ctx, c.members.clone());
        let want = if src == ANY_SOURCE { None } else { Some(members[src as usize]) };
        let call = if blocking { "Probe" } else { "Iprobe" };
        let mut granted = false;
        loop {
            let (mut g, undecided_match) = self.settled(&mut granted);
            // earliest send among the first matching message of each source
            let mut best: Option<(f64, u32, u32, i32, u64)> = None;
            let mut seen: Vec<u32> = vec![];
            for m in g.msgs.iter() {
                let ok = m.ctx == ctx && (tag == ANY_TAG || m.tag == tag) && want.is_none_or(|w| m.src == w);
                if !ok || seen.contains(&m.src) {
                    continue;
                }
                seen.push(m.src);
                if best.is_none_or(|b| (m.ts, m.src) < (b.0, b.1)) {
                    best = Some((m.ts, m.src, m.src, m.tag, m.bytes));
                }
            }
            let now = self.clock;
            let arrive = |b: &(f64, u32, u32, i32, u64)| b.0 + s.plat.transfer(b.1, self.id, 0);
            // could a source not seen yet still send before `t`?
            // (a hit from a given source is final: messages from one source keep order)
            let others_past = |t: f64, bsrc: u32| {
                (want.is_some() && bsrc != u32::MAX)
                    || members.iter().all(|&r| {
                        if want.is_some_and(|w| w != r) {
                            return true;
                        }
                        if seen.contains(&r) {
                            return true;
                        }
                        let c = s.published(r);
                        c > t || (c == t && r > bsrc)
                    })
            };
            let status = |b: &(f64, u32, u32, i32, u64)| St { source: members.iter().position(|&x| x == b.2).unwrap_or(0) as i32, tag: b.3, bytes: b.4, comm };
            let key: Option<f64> = if blocking {
                match best {
                    Some(b) if granted || others_past(b.0, b.1) => {
                        let a = arrive(&b);
                        self.idle += (a - self.clock).max(0.0);
                        self.clock = self.clock.max(a);
                        return Some(status(&b));
                    }
                    Some(b) => Some(b.0),
                    None => undecided_match,
                }
            } else {
                let hit = best.filter(|b| arrive(b) <= now);
                match hit {
                    Some(b) if granted || others_past(b.0, b.1) => return Some(status(&b)),
                    Some(_) => Some(now),
                    None if granted || others_past(now, u32::MAX) => {
                        drop(g);
                        self.clock += s.plat.o_test;
                        self.poll_no(|me, w| {
                            w.call = if me.call.is_empty() { call } else { me.call };
                            w.items.clear();
                            w.meeting = None;
                            w.items.push((W_RECV, want.unwrap_or(u32::MAX), tag));
                        });
                        return None;
                    }
                    None => Some(now),
                }
            };
            granted = false;
            let cand = match (undecided_match, key) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let mut wd = std::mem::take(&mut g.wait);
            wd.call = if self.call.is_empty() { call } else { self.call };
            wd.items.clear();
            wd.meeting = None;
            wd.items.push((W_RECV, want.unwrap_or(u32::MAX), tag));
            g.wait = wd;
            drop(s.sleep(self.id, g, cand, 1));
        }
    }

    /// MPI_Waitsome: Waitany's choice plus every other request already
    /// complete by that time (Waitany ensures no undecided one can be earlier).
    pub fn waitsome(&mut self, hs: &[i32]) -> Vec<(usize, St)> {
        let mut st = St::default();
        let Some(first) = self.waitany(hs, &mut st) else {
            return vec![];
        };
        let t = self.clock;
        let mut out = vec![(first, st)];
        for (i, &h) in hs.iter().enumerate() {
            if i != first && h > 0 && self.reqs[h as usize].as_ref().and_then(|r| r.done()).is_some_and(|d| d <= t) {
                let mut st = St::default();
                self.complete(h as usize, Some(&mut st));
                out.push((i, st));
            }
        }
        out.sort_by_key(|x| x.0);
        out
    }

    /// MPI_Testsome (`any`: MPI_Testany, the lowest index only): the requests
    /// complete by now, decided once no unmatched one can still complete by now.
    pub fn testsome(&mut self, hs: &[i32], any: bool) -> Vec<(usize, St)> {
        let live: Vec<(usize, usize)> = hs.iter().enumerate().filter(|(_, &h)| h > 0).map(|(i, &h)| (i, h as usize)).collect();
        let lh: Vec<usize> = live.iter().map(|x| x.1).collect();
        let call = if any { "Testany" } else { "Testsome" };
        let set = self.block(call, &lh, false, |me, granted| {
            let now = me.clock;
            let mut set = vec![];
            for &(i, h) in &live {
                match me.reqs[h].as_ref().and_then(|r| r.done()) {
                    Some(t) if t <= now => set.push(i),
                    Some(_) => {}
                    None => {
                        if !(me.lower_bound(h) > now || granted) {
                            return Err(Some(now));
                        }
                    }
                }
            }
            Ok(set)
        });
        let set: Vec<usize> = if any { set.into_iter().take(1).collect() } else { set };
        if set.is_empty() {
            self.clock += sim().plat.o_test;
            self.poll_no(|me, w| {
                me.wait_desc(call, &lh, w);
            });
        }
        set.into_iter()
            .map(|i| {
                let mut st = St::default();
                self.complete(hs[i] as usize, Some(&mut st));
                (i, st)
            })
            .collect()
    }

    /// A collective: meet the other members, get my exit time.
    pub fn collective(&mut self, comm: i32, kind: CollKind, args: crate::lmpi::CollArgs) -> Option<(u64, Arc<Vec<u32>>)> {
        let s = sim();
        let c = self.comms[comm as usize].as_mut().expect("valid comm");
        c.coll_seq += 1;
        let key = (c.ctx, c.coll_seq);
        let p = c.members.len();
        let me = c.me as usize;
        let members = c.members.clone();
        self.stats.colls += 1;
        if s.net.is_some() && !s.payload && kind != CollKind::CommSplit && kind != CollKind::CommDup && p > 1 {
            let op = kind.name();
            let table = s.plat.coll_mode == crate::model::CollMode::Table;
            if !table || !s.plat.coll.ops.contains_key(op) {
                // NSIM mode: the decomposed algorithm as real messages, no meeting
                // (a member waiting for the others on the host would inject late)
                if table {
                    s.warn_once(op, format!("collective table has no `{op}` entries; using the point-to-point decomposition"));
                }
                let shape = crate::netmodel::local_shape(kind, me, &args, p);
                let ops = coll::schedule_for(&shape, me);
                self.run_schedule(mix(key.0 ^ 0xc011, key.1), &members, ops);
                return None;
            }
        }
        if p == 1 {
            let mut one = vec![Some(args)];
            let (exit, split, _) = finish_meeting(s, kind, &members, &mut one, key.0);
            self.clock = self.clock.max(exit[0]);
            return split.into_iter().next().flatten();
        }
        let m = {
            let mut ms = lock(&s.meetings);
            ms.entry(key)
                .or_insert_with(|| {
                    Arc::new(Meeting {
                        args: Mutex::new((0..p).map(|_| None).collect()),
                        arrived: AtomicUsize::new(0),
                        done: AtomicBool::new(false),
                        exit: Mutex::new(vec![]),
                        split: Mutex::new(vec![]),
                        sched: Mutex::new(vec![]),
                    })
                })
                .clone()
        };
        let arrive = self.clock;
        lock(&m.args)[me] = Some(args);
        if m.arrived.fetch_add(1, SeqCst) + 1 == p {
            let mut a = lock(&m.args);
            if let Err(e) = crate::lmpi::check_coll(kind, &a, &members) {
                drop(a);
                crate::lmpi::fail(self, self.call, e);
            }
            let (exit, split, sched) = finish_meeting(s, kind, &members, &mut a, key.0);
            *lock(&m.exit) = exit;
            *lock(&m.split) = split;
            *lock(&m.sched) = sched;
            drop(a);
            lock(&s.meetings).remove(&key);
            m.done.store(true, SeqCst);
            s.epoch.fetch_add(1, SeqCst);
            for (i, &w) in members.iter().enumerate() {
                if i != me {
                    s.wake(w);
                }
            }
        } else {
            let name = kind.name();
            let sh = &s.ranks[self.id as usize];
            loop {
                let mut g = lock(&sh.st);
                if m.done.load(SeqCst) {
                    break;
                }
                g.wait.call = if self.call.is_empty() { name } else { self.call };
                g.wait.items.clear();
                g.wait.meeting = Some((m.clone(), members.clone(), name));
                // Keep matching my posted receives, as MPI progresses inside a
                // collective: a rendezvous sender waits for my answer (and under NSIM
                // the message must reach the network).
                let mut granted = false;
                let (notes, _) = self.progress(&mut g, &mut granted);
                if !notes.is_empty() || !self.net_inj.is_empty() {
                    drop(g);
                    for (r, sid, t) in notes {
                        s.rdv_done(r, sid, t);
                    }
                    self.flush_net_inj();
                    continue;
                }
                // a delivery wakes me while a receive is posted; else only the last
                // member's wake ends this wait
                let need = if s.net.is_some() || !self.posted.is_empty() { 1 } else { u32::MAX };
                drop(s.sleep(self.id, g, None, need));
            }
            lock(&sh.st).wait.meeting = None;
        }
        let exit = lock(&m.exit)[me];
        let last = lock(&m.args).iter().flatten().map(|a| a.arrive).fold(arrive, f64::max);
        self.idle += (last - arrive).max(0.0).min(exit - arrive);
        self.clock = self.clock.max(exit);
        let ops = lock(&m.sched).get_mut(me).map(std::mem::take).unwrap_or_default();
        if !ops.is_empty() {
            self.run_schedule(mix(key.0 ^ 0xc011, key.1), &members, ops);
        }
        let r = lock(&m.split).get(me).cloned().flatten();
        r
    }

    /// Run a decomposed collective as real messages on a private context
    /// (NSIM mode): per step, post the receives, then the sends, wait for all.
    fn run_schedule(&mut self, ctx: u64, members: &Arc<Vec<u32>>, ops: Vec<coll::Op>) {
        let saved = (self.stats.sends, self.stats.bytes_sent, self.stats.recvs);
        for op in ops {
            let mut hs = Vec::with_capacity(op.sends.len() + op.recvs.len());
            for &(src, _, q) in &op.recvs {
                let r = Req::Recv {
                    src: src as i32,
                    comm: 0,
                    ctx,
                    tag: q as i32,
                    members: members.clone(),
                    buf: 0,
                    cap: u64::MAX,
                    post: self.clock,
                    matched: None,
                };
                let h = self.new_req(r);
                self.posted.push_back(h as usize);
                hs.push(h);
            }
            for &(d, bytes, q) in &op.sends {
                hs.push(self.isend_to(ctx, members[d], q as i32, bytes, None, false, false));
            }
            let mut sts = vec![St::default(); hs.len()];
            self.waitall(&hs, &mut sts);
        }
        (self.stats.sends, self.stats.bytes_sent, self.stats.recvs) = saved;
    }

    pub fn derive_ctx(&mut self, comm: i32, color: i64) -> u64 {
        let c = self.comms[comm as usize].as_mut().unwrap();
        c.child_seq += 1;
        mix(mix(c.ctx, c.child_seq), color as u64 ^ 0x5bd1_e995)
    }
}

type Split = Vec<Option<(u64, Arc<Vec<u32>>)>>;

/// The last member of a meeting: exit times of all members and the data moves.
/// NSIM + payload mode without a table: exit = arrival and each member's steps, to run.
fn finish_meeting(s: &Sim, kind: CollKind, members: &[u32], args: &mut [Option<crate::lmpi::CollArgs>], ctx: u64) -> (Vec<f64>, Split, Vec<Vec<coll::Op>>) {
    let a: Vec<&crate::lmpi::CollArgs> = args.iter().map(|x| x.as_ref().unwrap()).collect();
    let arrive: Vec<f64> = a.iter().map(|x| x.arrive).collect();
    let shape = crate::lmpi::shape_of(kind, &a);
    let mut warn = |op: &str, msg: String| s.warn_once(&format!("{op}:{msg}"), msg);
    let mut sched = vec![];
    // NSIM mode: payload collectives meet (to move the data) and then run
    // their schedule; communicator creation keeps l + s/w
    let exit = if s.net.is_some() && s.payload && kind != CollKind::CommSplit && kind != CollKind::CommDup {
        coll::table_times(&s.plat, &shape, &arrive, &mut warn).unwrap_or_else(|| {
            sched = coll::schedule(&shape);
            arrive.clone()
        })
    } else {
        coll::times(&s.plat, &shape, &arrive, members, &mut warn)
    };
    if s.payload {
        crate::lmpi::move_data(kind, &a);
    }
    let mut split = vec![];
    if kind == CollKind::CommSplit || kind == CollKind::CommDup {
        // groups by color, ordered by (key, old rank); ctx agreed from the parent's
        let mut colors: Vec<i64> = a.iter().map(|x| x.color).collect();
        colors.sort();
        colors.dedup();
        let mut by_color: HashMap<i64, Arc<Vec<u32>>> = HashMap::new();
        for &col in &colors {
            if col == crate::lmpi::UNDEFINED as i64 {
                continue;
            }
            let mut v: Vec<(i64, usize)> = (0..a.len()).filter(|&i| a[i].color == col).map(|i| (a[i].key, i)).collect();
            v.sort();
            by_color.insert(col, Arc::new(v.iter().map(|&(_, i)| members[i]).collect()));
        }
        for x in &a {
            split.push(by_color.get(&x.color).map(|m| (mix(x.newctx, ctx), m.clone())));
        }
    }
    (exit, split, sched)
}
