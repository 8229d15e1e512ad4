//! The `mpi` back end: every simulated rank is a real MPI process (started by
//! `mpiexec`, entry `bsim_start_mpi` called by csrc/bsim_mpi_main.c). A
//! message is only a header (sender's timestamp, size, rendezvous id) sent over
//! real MPI on the real communicator that mirrors the LMPI one, so real MPI
//! does the matching. The receiver computes the completion time with the same
//! rules as the threads engine; a rendezvous receiver sends that time back.
//! A collective allgathers (arrival, size) and runs the same `coll::times` as
//! the threads back end, so both back ends predict the same times.
//! MPI is reached only through the function table of the C main, so this crate
//! has no MPI symbol (the threads link line needs no MPI library).

use super::coll::{self, CollKind, Shape};
use super::collargs::{self, CollArgs};
use super::engine;
use super::rank::{Rank, St, PROC_NULL};
use super::UNDEFINED;
use crate::output::{EvKind, Event, RankResult, Stats};
use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

/// The MPI operations, filled by the C main (struct bsim_mpi_ops).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MpiOps {
    pub marker: *const c_char,
    pub rank: c_int,
    pub size: c_int,
    pub tag_ub: c_int,
    pub isend: unsafe extern "C" fn(*const c_void, c_int, c_int, c_int, c_int) -> c_int,
    pub irecv: unsafe extern "C" fn(*mut c_void, c_int, c_int, c_int, c_int) -> c_int,
    pub test: unsafe extern "C" fn(c_int, *mut c_int, *mut c_int) -> c_int,
    pub waitany: unsafe extern "C" fn(c_int, *const c_int),
    pub wait: unsafe extern "C" fn(c_int),
    pub allgather: unsafe extern "C" fn(*const c_void, c_int, *mut c_void, c_int),
    pub gather: unsafe extern "C" fn(*const c_void, c_int, *mut c_void, c_int),
    pub gatherv: unsafe extern "C" fn(*const c_void, c_int, *mut c_void, *const c_int, *const c_int, c_int),
    pub split: unsafe extern "C" fn(c_int, c_int, c_int) -> c_int,
    pub abort: unsafe extern "C" fn(c_int),
}

// communicators of the C side
const WORLD: c_int = 0;
const ACK: c_int = 1;
const SELF: c_int = 2;

static ON: AtomicBool = AtomicBool::new(false);

/// True in a process of the mpi back end.
pub fn on() -> bool {
    ON.load(Relaxed)
}

/// What travels for a message (and, `ts` only, for a rendezvous reply).
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Hdr {
    ts: f64,
    bytes: u64,
    sid: u64,
}
const HDR: c_int = std::mem::size_of::<Hdr>() as c_int;

struct Matched {
    tc: f64,
    start: f64,
    src: i32,
    tag: i32,
    bytes: u64,
}

enum Req {
    /// `ack`: the pending receive of the rendezvous reply (-1: eager).
    Send {
        ts: f64,
        done: Option<f64>,
        ack: c_int,
        ackbuf: Box<Hdr>,
    },
    Recv {
        comm: i32,
        cap: u64,
        post: f64,
        members: Arc<Vec<u32>>,
        mreq: c_int,
        hdr: Box<Hdr>,
        matched: Option<Matched>,
    },
    Null,
}

impl Req {
    fn done(&self) -> Option<f64> {
        match self {
            Req::Send { done, .. } => *done,
            Req::Recv { matched, .. } => matched.as_ref().map(|m| m.tc),
            Req::Null => Some(0.0),
        }
    }
}

struct State {
    ops: MpiOps,
    me: u32,
    /// LMPI communicator handle -> communicator of the C side.
    real: Vec<c_int>,
    reqs: Vec<Option<Req>>,
    free: Vec<usize>,
    /// Requests freed by the program but still progressed (rendezvous replies).
    orphans: Vec<usize>,
    /// Header and reply sends in flight (buffers kept until MPI is done with them).
    outgoing: Vec<(c_int, Box<Hdr>)>,
    next_sid: u64,
    /// Real communicator made by the last Comm_split/dup, bound by `bind_comm`.
    pending_comm: c_int,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
}

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with(|s| f(s.borrow_mut().as_mut().expect("bsim: mpi back end not started")))
}

impl State {
    fn new_req(&mut self, r: Req) -> i32 {
        if let Some(i) = self.free.pop() {
            self.reqs[i] = Some(r);
            i as i32
        } else {
            self.reqs.push(Some(r));
            (self.reqs.len() - 1) as i32
        }
    }

    fn take(&mut self, h: usize) -> Option<Req> {
        let r = self.reqs.get_mut(h)?.take();
        if r.is_some() {
            self.free.push(h);
        }
        r
    }

    fn ack_tag(&self, sid: u64) -> c_int {
        (sid % self.ops.tag_ub.max(1) as u64) as c_int
    }

    fn send_hdr(&mut self, h: Hdr, dest: c_int, tag: c_int, comm: c_int) {
        let b = Box::new(h);
        // SAFETY: the boxed header stays in `outgoing` until the send completes.
        let q = unsafe { (self.ops.isend)(&*b as *const Hdr as *const c_void, HDR, dest, tag, comm) };
        self.outgoing.push((q, b));
        if self.outgoing.len() > 64 {
            let test = self.ops.test;
            // SAFETY: handles from isend, each tested until complete once.
            self.outgoing.retain(|(q, _)| unsafe { test(*q, std::ptr::null_mut(), std::ptr::null_mut()) } == 0);
        }
    }

    /// Collect completed header receives (sending rendezvous replies) and replies.
    fn progress(&mut self) {
        let plat = &engine::sim().plat;
        let test = self.ops.test;
        let me = self.me;
        let mut acks = vec![];
        for q in self.reqs.iter_mut().flatten() {
            match q {
                Req::Recv { mreq, hdr, matched: m @ None, post, cap, members, .. } => {
                    let (mut src, mut tag) = (0, 0);
                    // SAFETY: a live request handle of the C side.
                    if unsafe { test(*mreq, &mut src, &mut tag) } == 0 {
                        continue;
                    }
                    let h = **hdr;
                    let sw = members[src as usize];
                    if h.bytes > *cap {
                        eprintln!("bsim: rank {me}: message truncated: {} bytes from rank {sw} (tag {tag}) into a {cap}-byte receive", h.bytes);
                        std::process::exit(4);
                    }
                    let rdv = h.sid != 0;
                    let start = if !rdv && h.bytes < plat.async_threshold { h.ts } else { h.ts.max(*post) };
                    let tc = start + plat.transfer(sw, me, h.bytes);
                    if rdv {
                        acks.push((sw, h.sid, tc));
                    }
                    *m = Some(Matched { tc: tc.max(*post), start, src, tag, bytes: h.bytes });
                }
                // SAFETY: as above.
                Req::Send { done: d @ None, ack, ackbuf, .. } if unsafe { test(*ack, std::ptr::null_mut(), std::ptr::null_mut()) } != 0 => {
                    *d = Some(ackbuf.ts);
                }
                _ => {}
            }
        }
        for (sw, sid, tc) in acks {
            let tag = self.ack_tag(sid);
            self.send_hdr(Hdr { ts: tc, bytes: 0, sid }, sw as c_int, tag, ACK);
        }
        if !self.orphans.is_empty() {
            let done: Vec<usize> = self.orphans.iter().copied().filter(|&h| self.reqs[h].as_ref().is_none_or(|r| r.done().is_some())).collect();
            self.orphans.retain(|h| !done.contains(h));
            for h in done {
                self.take(h);
            }
        }
    }

    /// Block on the host until some header or reply arrives.
    fn wait_some(&mut self) {
        let hs: Vec<c_int> = self
            .reqs
            .iter()
            .flatten()
            .filter_map(|q| match q {
                Req::Recv { mreq, matched: None, .. } => Some(*mreq),
                Req::Send { ack, done: None, .. } => Some(*ack),
                _ => None,
            })
            .collect();
        if hs.is_empty() {
            eprintln!("bsim: rank {}: internal error: waiting with nothing pending", self.me);
            // SAFETY: ends the whole MPI job.
            unsafe { (self.ops.abort)(1) };
        }
        // SAFETY: live handles of the C side.
        unsafe { (self.ops.waitany)(hs.len() as c_int, hs.as_ptr()) };
    }

    fn known(&self, h: usize) -> Option<f64> {
        self.reqs[h].as_ref().and_then(|r| r.done())
    }

    /// Finish request `h` on rank `r`: the same clock rules as the threads engine.
    fn complete(&mut self, r: &mut Rank, h: usize, st: Option<&mut St>) {
        let Some(q) = self.take(h) else { return };
        match q {
            Req::Send { done, ts, .. } => r.finish_send(ts, done.unwrap()),
            Req::Recv { matched, post, comm, .. } => {
                let m = matched.unwrap();
                r.finish_recv(m.tc, m.start, post);
                if let Some(st) = st {
                    *st = St { source: m.src, tag: m.tag, bytes: m.bytes, comm };
                }
            }
            Req::Null => {
                if let Some(st) = st {
                    *st = St::null(0);
                }
            }
        }
    }
}

// ---------------- the transport calls of lmpi.rs ----------------

pub fn isend(r: &mut Rank, comm: i32, dest: i32, tag: i32, bytes: u64, blocking: bool, sync: bool) -> i32 {
    with(|s| {
        if dest == PROC_NULL {
            return s.new_req(Req::Null);
        }
        let plat = &engine::sim().plat;
        let dw = r.comm(comm).expect("valid comm").members[dest as usize];
        r.clock += if blocking { plat.o_send } else { plat.o_isend };
        let ts = r.clock;
        let rdv = sync || bytes >= plat.eager_threshold;
        let sid = if rdv {
            s.next_sid += 1;
            s.next_sid
        } else {
            0
        };
        r.stats.sends += 1;
        r.stats.bytes_sent += bytes;
        let real = s.real[comm as usize];
        s.send_hdr(Hdr { ts, bytes, sid }, dest, tag, real);
        let mut ackbuf = Box::new(Hdr::default());
        let ack = if rdv {
            let t = s.ack_tag(sid);
            // SAFETY: the reply buffer lives in the request until the reply arrives.
            unsafe { (s.ops.irecv)(&mut *ackbuf as *mut Hdr as *mut c_void, HDR, dw as c_int, t, ACK) }
        } else {
            -1
        };
        s.new_req(Req::Send { ts, done: if rdv { None } else { Some(ts) }, ack, ackbuf })
    })
}

pub fn irecv(r: &mut Rank, comm: i32, src: i32, tag: i32, cap: u64) -> i32 {
    with(|s| {
        if src == PROC_NULL {
            return s.new_req(Req::Null);
        }
        let members = r.comm(comm).expect("valid comm").members.clone();
        let mut hdr = Box::new(Hdr::default());
        // SAFETY: the header buffer lives in the request until the receive completes.
        let mreq = unsafe { (s.ops.irecv)(&mut *hdr as *mut Hdr as *mut c_void, HDR, src, tag, s.real[comm as usize]) };
        s.new_req(Req::Recv { comm, cap, post: r.clock, members, mreq, hdr, matched: None })
    })
}

pub fn valid_req(h: i32) -> bool {
    with(|s| h > 0 && s.reqs.get(h as usize).is_some_and(|r| r.is_some()))
}

pub fn is_recv(h: i32) -> bool {
    with(|s| h > 0 && matches!(s.reqs.get(h as usize), Some(Some(Req::Recv { .. }))))
}

pub fn waitall(r: &mut Rank, hs: &[i32], sts: &mut [St]) {
    with(|s| {
        let live: Vec<usize> = hs.iter().filter(|&&h| h > 0).map(|&h| h as usize).collect();
        loop {
            s.progress();
            if live.iter().all(|&h| s.known(h).is_some()) {
                break;
            }
            s.wait_some();
        }
        for (i, &h) in hs.iter().enumerate() {
            if h > 0 {
                s.complete(r, h as usize, sts.get_mut(i));
            }
        }
    })
}

pub fn wait(r: &mut Rank, h: i32, st: &mut St) {
    waitall(r, &[h], std::slice::from_mut(st))
}

/// Among the requests already complete on the host, the first in virtual time
/// (lowest index on ties); blocks until one is. Host-dependent when several
/// could still complete (docs/bsim.md).
pub fn waitany(r: &mut Rank, hs: &[i32], st: &mut St) -> Option<usize> {
    with(|s| {
        let live: Vec<(usize, usize)> = hs.iter().enumerate().filter(|(_, &h)| h > 0).map(|(i, &h)| (i, h as usize)).collect();
        if live.is_empty() {
            return None;
        }
        loop {
            s.progress();
            let best = live.iter().filter_map(|&(i, h)| s.known(h).map(|t| (t.max(r.clock), i))).min_by(|a, b| a.partial_cmp(b).unwrap());
            if let Some((_, i)) = best {
                s.complete(r, hs[i] as usize, Some(st));
                return Some(i);
            }
            s.wait_some();
        }
    })
}

/// Complete iff every request is known (on the host) to be complete by now.
pub fn testall(r: &mut Rank, hs: &[i32], sts: &mut [St]) -> bool {
    with(|s| {
        s.progress();
        let now = r.clock;
        let done = hs.iter().filter(|&&h| h > 0).all(|&h| s.known(h as usize).is_some_and(|t| t <= now));
        if done {
            for (i, &h) in hs.iter().enumerate() {
                if h > 0 {
                    s.complete(r, h as usize, sts.get_mut(i));
                }
            }
        } else {
            r.clock += engine::sim().plat.o_test;
        }
        done
    })
}

pub fn request_free(h: i32) {
    with(|s| {
        if h > 0 && s.reqs.get(h as usize).is_some_and(|r| r.is_some()) {
            s.orphans.push(h as usize);
            s.progress();
        }
    })
}

/// What each member contributes to a collective, exchanged with one allgather.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Contrib {
    arrive: f64,
    block: u64,
    color: i64,
    key: i64,
}

/// A collective: exchange arrivals and sizes, then the same exit-time
/// computation as the threads back end.
pub fn collective(r: &mut Rank, comm: i32, kind: CollKind, args: CollArgs) -> Option<(u64, Arc<Vec<u32>>)> {
    with(|s| {
        let c = r.comms[comm as usize].as_mut().expect("valid comm");
        c.coll_seq += 1;
        let (members, me, p) = (c.members.clone(), c.me as usize, c.members.len());
        r.stats.colls += 1;
        let real = s.real[comm as usize];
        // my own row of the shape (shape_of reads member i's sizes from args[i])
        let local = collargs::shape_of(kind, &vec![&args; p]);
        let mine = Contrib { arrive: args.arrive, block: local.block[me], color: args.color, key: args.key };
        let mut all = vec![Contrib::default(); p];
        let mut matrix = local.matrix.map(|m| m[me].clone());
        if p > 1 {
            // SAFETY: buffers of p records of the sizes given.
            unsafe {
                let sz = std::mem::size_of::<Contrib>() as c_int;
                (s.ops.allgather)(&mine as *const Contrib as *const c_void, sz, all.as_mut_ptr() as *mut c_void, real);
                if let Some(row) = &matrix {
                    let mut m = vec![0u64; p * p];
                    (s.ops.allgather)(row.as_ptr() as *const c_void, (p * 8) as c_int, m.as_mut_ptr() as *mut c_void, real);
                    matrix = Some(m);
                }
            }
        } else {
            all[0] = mine;
        }
        let shape = Shape {
            kind,
            root: local.root,
            block: all.iter().map(|x| x.block).collect(),
            matrix: matrix.map(|m| if p > 1 { m.chunks(p).map(|c| c.to_vec()).collect() } else { vec![m] }),
            split: if kind == CollKind::CommSplit { all.iter().map(|x| (x.color, x.key)).collect() } else { vec![] },
        };
        let arrive: Vec<f64> = all.iter().map(|x| x.arrive).collect();
        let sim = engine::sim();
        let first = s.me == 0;
        let exit = coll::times(&sim.plat, &shape, &arrive, &members, &mut |op, msg| {
            if first {
                sim.warn_once(&format!("{op}:{msg}"), msg)
            }
        });
        let mut res = None;
        if kind == CollKind::CommSplit || kind == CollKind::CommDup {
            let color = if args.color == UNDEFINED as i64 { -1 } else { args.color as c_int };
            // SAFETY: collective over the members of `real`, all in this call.
            s.pending_comm = unsafe { (s.ops.split)(real, color, args.key as c_int) };
            if args.color != UNDEFINED as i64 {
                let mut v: Vec<(i64, usize)> = (0..p).filter(|&i| all[i].color == args.color).map(|i| (all[i].key, i)).collect();
                v.sort();
                res = Some((args.newctx, Arc::new(v.iter().map(|&(_, i)| members[i]).collect::<Vec<u32>>())));
            }
        }
        let last = arrive.iter().cloned().fold(args.arrive, f64::max);
        r.idle += (last - args.arrive).max(0.0).min(exit[me] - args.arrive);
        r.clock = r.clock.max(exit[me]);
        res
    })
}

/// Bind the communicator made by the last split/dup to LMPI handle `h`.
pub fn bind_comm(h: i32) {
    with(|s| {
        let h = h as usize;
        if s.real.len() <= h {
            s.real.resize(h + 1, -1);
        }
        s.real[h] = s.pending_comm;
    })
}

pub fn abort(code: c_int) -> ! {
    let ops = with(|s| s.ops);
    // SAFETY: ends the whole MPI job.
    unsafe { (ops.abort)(code) };
    std::process::exit(code)
}

// ---------------- process ----------------

/// Make this process the mpi back end's rank `id` (after MPI_Init).
pub fn start(ops: MpiOps, id: u32) {
    STATE.with(|s| {
        *s.borrow_mut() = Some(State {
            ops,
            me: id,
            real: vec![-1, WORLD, SELF],
            reqs: vec![None],
            free: vec![],
            orphans: vec![],
            outgoing: vec![],
            next_sid: 0,
            pending_comm: -1,
        })
    });
    ON.store(true, Relaxed);
}

/// Wait until the last headers and replies have left.
pub fn flush_outgoing() {
    with(|s| {
        let ops = s.ops;
        for (q, _) in s.outgoing.drain(..) {
            // SAFETY: a request of the C side still pending
            unsafe { (ops.wait)(q) };
        }
    });
}

/// Gather every rank's result to rank 0 (None on the other ranks).
pub unsafe fn gather(ops: &MpiOps, r: &Rank, code: c_int, timeline: bool) -> Option<Vec<(c_int, RankResult)>> {
    let n = ops.size as usize;
    let st = &r.stats;
    let rec: [f64; 10] = [
        r.clock,
        st.compute,
        st.comm,
        st.wait,
        f64::from_bits(st.calls),
        f64::from_bits(st.sends),
        f64::from_bits(st.recvs),
        f64::from_bits(st.colls),
        f64::from_bits(st.bytes_sent),
        f64::from_bits(code as i64 as u64),
    ];
    let mut all = vec![0f64; if ops.rank == 0 { 10 * n } else { 1 }];
    (ops.gather)(rec.as_ptr() as *const c_void, 80, all.as_mut_ptr() as *mut c_void, WORLD);
    let mut events: Vec<Vec<Event>> = vec![vec![]; n];
    if timeline {
        // events as (kind, t0, t1, wait_end) + name bytes, concatenated per rank
        let mut buf: Vec<u8> = vec![];
        for e in &r.events {
            buf.push(e.kind as u8);
            for x in [e.t0, e.t1, e.wait_end] {
                buf.extend_from_slice(&x.to_le_bytes());
            }
            buf.extend_from_slice(&(e.name.len() as u32).to_le_bytes());
            buf.extend_from_slice(e.name.as_bytes());
        }
        let len = buf.len() as c_int;
        let mut lens = vec![0 as c_int; n];
        (ops.gather)(&len as *const c_int as *const c_void, 4, lens.as_mut_ptr() as *mut c_void, WORLD);
        let displs: Vec<c_int> = lens
            .iter()
            .scan(0, |a, &l| {
                let d = *a;
                *a += l;
                Some(d)
            })
            .collect();
        let total: usize = lens.iter().map(|&l| l as usize).sum();
        let mut rb = vec![0u8; total.max(1)];
        (ops.gatherv)(buf.as_ptr() as *const c_void, len, rb.as_mut_ptr() as *mut c_void, lens.as_ptr(), displs.as_ptr(), WORLD);
        if ops.rank == 0 {
            for i in 0..n {
                events[i] = decode_events(&rb[displs[i] as usize..(displs[i] + lens[i]) as usize]);
            }
        }
    }
    if ops.rank != 0 {
        return None;
    }
    Some(
        (0..n)
            .map(|i| {
                let x = &all[10 * i..10 * i + 10];
                let b = |k: usize| x[k].to_bits();
                let stats = Stats { compute: x[1], comm: x[2], wait: x[3], calls: b(4), sends: b(5), recvs: b(6), colls: b(7), bytes_sent: b(8) };
                (b(9) as i64 as c_int, RankResult { rank: i as u32, end: x[0], stats, events: std::mem::take(&mut events[i]), msgs: vec![] })
            })
            .collect(),
    )
}

fn decode_events(mut b: &[u8]) -> Vec<Event> {
    let mut v = vec![];
    let f = |b: &[u8]| f64::from_le_bytes(b[..8].try_into().unwrap());
    while b.len() >= 29 {
        let kind = match b[0] {
            0 => EvKind::Compute,
            1 => EvKind::Comm,
            _ => EvKind::User,
        };
        let (t0, t1, wait_end) = (f(&b[1..]), f(&b[9..]), f(&b[17..]));
        let l = u32::from_le_bytes(b[25..29].try_into().unwrap()) as usize;
        let name: &'static str = Box::leak(String::from_utf8_lossy(&b[29..29 + l]).into_owned().into_boxed_str());
        v.push(Event { kind, name, t0, t1, wait_end });
        b = &b[29 + l..];
    }
    v
}

/// Testsome/Testany (`any`: the lowest index only): the requests known on the
/// host to be complete by now.
pub fn testsome(r: &mut Rank, hs: &[i32], any: bool) -> Vec<(usize, St)> {
    with(|s| {
        s.progress();
        let now = r.clock;
        let mut set: Vec<usize> = hs.iter().enumerate().filter(|(_, &h)| h > 0 && s.known(h as usize).is_some_and(|t| t <= now)).map(|(i, _)| i).collect();
        if any {
            set.truncate(1);
        }
        if set.is_empty() {
            r.clock += engine::sim().plat.o_test;
        }
        set.into_iter()
            .map(|i| {
                let mut st = St::default();
                s.complete(r, hs[i] as usize, Some(&mut st));
                (i, st)
            })
            .collect()
    })
}
