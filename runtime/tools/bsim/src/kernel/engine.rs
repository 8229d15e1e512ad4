//! Simulation kernel of the threads and contexts back ends: one host thread or
//! user-level context (ctx.rs) per rank, each
//! with its own virtual clock. Point-to-point messages carry the sender's
//! timestamp; a receive completes from the two clocks and the platform model.
//! Host scheduling never changes virtual times: an ANY_SOURCE receive,
//! Waitany or Test decides only once every rank that could still change the
//! answer has published a clock past it, or, when every live rank is blocked,
//! the globally earliest undecided choice is granted. If nothing can be
//! granted, the run is deadlocked and a report of who waits on whom is written.

use super::model::Platform;
use super::sched;
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
/// A collective a rank waits in: the meeting, its members and the call's name.
pub type MeetingWait = (Arc<Meeting>, Arc<Vec<u32>>, &'static str);

/// A new communicator as each member of a split gets it: context and members.
pub type NewComm = Option<(u64, Arc<Vec<u32>>)>;

#[derive(Default)]
pub struct WaitDesc {
    pub call: &'static str,
    pub items: Vec<(u8, u32, i32)>,
    /// A collective: the meeting and its members (missing ones found at report time).
    pub meeting: Option<MeetingWait>,
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
    /// LMPI calls this rank has completed (written by the rank only; read by the
    /// progress display).
    pub calls: AtomicU64,
}

/// A collective meeting point: members deposit their arrival; the last one
/// computes everybody's exit time (and moves the data in payload mode).
pub struct Meeting {
    pub args: Mutex<Vec<Option<super::collargs::CollArgs>>>,
    pub arrived: AtomicUsize,
    pub done: AtomicBool,
    pub exit: Mutex<Vec<f64>>,
    pub split: Mutex<Vec<NewComm>>,
    /// NSIM mode, p2p collectives: each member's steps, run as messages.
    pub sched: Mutex<Vec<Vec<super::coll::Op>>>,
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
    pub(crate) blocked: AtomicUsize,
    pub(crate) live: AtomicUsize,
    watchers: Mutex<Vec<u32>>,
    nwatch: AtomicUsize,
    pub(crate) resolve_lock: Mutex<()>,
    pub meetings: Mutex<HashMap<(u64, u64), Arc<Meeting>>>,
    pub payload: bool,
    pub timeline: bool,
    pub trace_dir: Option<PathBuf>,
    pub out_dir: Option<PathBuf>,
    pub finished: AtomicUsize,
    warned: Mutex<Vec<String>>,
    /// NSIM network model (None: `l + s/w`).
    pub net: Option<Mutex<super::netmodel::Net>>,
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
        Some(cfg) => Some(Mutex::new(super::netmodel::Net::new(cfg, n)?)),
        None => None,
    };
    let ranks = (0..n)
        .map(|_| Shared { st: Mutex::new(Inbox::default()), cv: Condvar::new(), clock: AtomicU64::new(0f64.to_bits()), calls: AtomicU64::new(0) })
        .collect();
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
            if sched::active() {
                let r = self.rank_of(sh);
                sched::ready(self.published(r), r);
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

    fn net_deliver(&self, d: Vec<super::netmodel::Delivery>) {
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
            if sched::active() {
                // a context gives the thread back to BSIM's loop instead
                drop(g);
                sched::suspend();
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
