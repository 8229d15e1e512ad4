//! The discrete-event engine.
//!
//! # Event model
//! One event per packet per router (`PKT`: the head has arrived and the router
//! delay has passed; the packet now asks for its output link), one per packet
//! delivery to a NIC (`DELIV`), plus link wake-ups (`WAKE`, only when a packet
//! had to wait for a busy link or for a credit), cross-partition credit returns
//! (`CREDIT`), rank wake-ups (`RANK`), deferred NIC hand-offs (`SEND`),
//! intra-node deliveries (`LOCAL`) and statistics samples (`SAMPLE`).
//!
//! Virtual cut-through with whole-packet buffers: a packet may start on a link
//! when the link is idle and one of the `buffer_packets` slots of its virtual
//! channel in the downstream router is free (credit). It then occupies the
//! link for `wire_bytes / bandwidth` (rounded up to a picosecond); its head
//! reaches the next router after the link latency and asks for the next link
//! after the router delay. It cannot finish leaving a router before its tail
//! has arrived. A buffer slot is freed when the tail has left, and the credit
//! reaches the upstream router one link latency later.
//!
//! # Ordering and determinism
//! Events are ordered by `(time, key)`, where the key is built from the event
//! kind and the identity of the thing it concerns (packet id, link id, rank),
//! never from insertion order. Packet ids are `(source node, per-node counter)`.
//! So the order of events is the same whatever the partition into logical
//! processes, and the parallel engine gives the same results as the
//! sequential one.
//!
//! # Parallel scheme
//! Conservative, synchronous windows (YAWNS-style): routers (and their nodes
//! and ranks) are partitioned into logical processes (LPs), one per thread.
//! Every interaction between LPs is a packet head crossing a link or a credit
//! coming back over one, and both happen at least one link latency after the
//! event that causes them. With `T` the earliest pending event over all LPs and
//! `L` the least latency of a link between two LPs, every LP may process all
//! of its events before `T + L` independently; then the LPs exchange their
//! messages and agree on the next `T` (one barrier per window: mailboxes
//! and next-event times are double-buffered by window parity).

use crate::config::Config;
use crate::queue::{Ev, EvQueue};
use crate::report::{LinkStats, Series};
use crate::topo::{LinkKind, RouteState, Topo, NONE};
use crate::Time;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as AO};
use std::sync::Mutex;

/// A fast hasher for integer keys (message ids): one multiply, no SipHash.
#[derive(Default, Clone, Copy)]
struct BuildFast;
#[derive(Default)]
struct FastHasher(u64);
impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0.rotate_left(5) ^ x as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = crate::mix64(v);
    }
}
impl std::hash::BuildHasher for BuildFast {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

const K_CREDIT: u64 = 0;
const K_WAKE: u64 = 1;
const K_PKT: u64 = 2;
const K_DELIV: u64 = 3;
const K_LOCAL: u64 = 4;
const K_SEND: u64 = 5;
const K_RANK: u64 = 6;
const K_SAMPLE: u64 = 7;
const KSHIFT: u32 = 60;
const INF: Time = Time::MAX;
/// number of buckets kept in a time series before the interval is doubled.
pub const MAX_BUCKETS: usize = 512;

/// Message kinds.
const M_DATA: u8 = 0;
const M_RTS: u8 = 1;
const M_CTS: u8 = 2;
const M_RDV: u8 = 3;
const M_RAW: u8 = 4;

/// The part of a packet every hop touches: one cache line.
#[derive(Clone, Debug)]
#[repr(align(64))]
pub(crate) struct Packet {
    uid: u64,
    tail_in: Time,
    dst_node: u32,
    payload: u32,
    wire: u32,
    /// next packet in the same output queue
    next: u32,
    at: u32,
    in_link: u32,
    /// the link it leaves `at` by (routed one hop ahead, so the router's
    /// tables can be fetched before the packet gets there).
    out: u32,
    rs: RouteState,
    /// VC of the buffer the packet occupies now (on `in_link`).
    vc: u8,
    /// VC it asks for on its next link.
    next_vc: u8,
    slot: u8,
}

/// What only the delivery needs (the message the packet belongs to), kept
/// apart so that the hot pool stays small.
#[derive(Clone, Debug)]
pub(crate) struct PacketMsg {
    msg_uid: u64,
    msg_bytes: u64,
    /// message kind specific: for RTS the sender's request, for CTS/RDV the
    /// receiver's request, for RAW the caller's message id.
    aux: u64,
    aux2: u64,
    src_rank: u32,
    dst_rank: u32,
    tag: i32,
    npkts: u32,
    kind: u8,
}

#[derive(Clone, Debug)]
struct Msg {
    uid: u64,
    src_rank: u32,
    dst_rank: u32,
    dst_node: u32,
    tag: i32,
    bytes: u64,
    aux: u64,
    aux2: u64,
    kind: u8,
    sent: u64,
    npkts: u32,
    /// sender request completed when the last packet has left the NIC.
    req: u32,
}

#[derive(Default, Clone, Debug)]
struct LinkState {
    busy_until: Time,
    wake_at: Time,
    /// waiting packets, one FIFO per virtual channel (so VCs do not block each other).
    nq: u32,
    rr: u8,
    st: LinkStats,
}

enum Cross {
    Pkt(Time, Box<(Packet, PacketMsg)>),
    Credit(Time, u32, u8, u8),
}

impl Cross {
    fn time(&self) -> Time {
        match self {
            Cross::Pkt(t, _) | Cross::Credit(t, ..) => *t,
        }
    }
}

/// A barrier for one-window-per-step synchronisation: windows are a few
/// microseconds of work, and a futex sleep/wake per window (std's Barrier)
/// cost as much as the work. It spins briefly (only when every LP can have a
/// core), then yields, then sleeps on a condition variable, so an
/// oversubscribed or loaded machine does not burn the cores it shares.
struct SpinBarrier {
    n: usize,
    spin: u32,
    count: AtomicUsize,
    gen: AtomicUsize,
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    cv: std::sync::Condvar,
}

impl SpinBarrier {
    fn new(n: usize) -> SpinBarrier {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        SpinBarrier {
            n,
            spin: if n <= cores { 4000 } else { 0 },
            count: AtomicUsize::new(0),
            gen: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            cv: std::sync::Condvar::new(),
        }
    }
    fn wait(&self) {
        let g = self.gen.load(AO::SeqCst);
        if self.count.fetch_add(1, AO::AcqRel) + 1 == self.n {
            self.count.store(0, AO::Relaxed);
            self.gen.store(g.wrapping_add(1), AO::SeqCst);
            if self.sleepers.load(AO::SeqCst) > 0 {
                let _l = self.lock.lock().unwrap();
                self.cv.notify_all();
            }
            return;
        }
        for i in 0..self.spin + 64 {
            if self.gen.load(AO::Acquire) != g {
                return;
            }
            if i < self.spin {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        let mut l = self.lock.lock().unwrap();
        self.sleepers.fetch_add(1, AO::SeqCst);
        while self.gen.load(AO::SeqCst) == g {
            l = self.cv.wait(l).unwrap();
        }
        self.sleepers.fetch_sub(1, AO::SeqCst);
    }
}

// ---------------------------------------------------------------------------
// Programs (the simulated ranks)

/// What a rank does next, returned by [`Program::step`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    /// wait for the requests registered with [`Cx::wait`] (all outstanding ones if none).
    Wait,
    /// advance the rank's clock by this much (computation), then step again.
    Sleep(Time),
    /// the rank has finished.
    Done,
}

/// A simulated rank's behaviour: called whenever the rank can run.
pub trait Program: Send {
    fn step(&mut self, cx: &mut Cx) -> Block;
}

/// Request handle.
pub type Req = u32;

#[derive(Clone, Copy, Debug, Default)]
struct ReqState {
    live: bool,
    done: bool,
    waited: bool,
    done_at: Time,
    /// for receives: the matched source and tag
    src: u32,
    tag: i32,
}

/// Tags at or above this are reserved (collectives); a receive with any tag does not match them.
pub const RESERVED_TAG: i32 = 1 << 30;

#[inline]
fn tag_match(posted: i64, tag: i32) -> bool {
    if posted < 0 {
        tag < RESERVED_TAG
    } else {
        posted == tag as i64
    }
}

#[derive(Clone, Copy, Debug)]
struct Posted {
    src: i64,
    tag: i64,
    req: Req,
}

#[derive(Clone, Copy, Debug)]
struct Unexp {
    src: u32,
    tag: i32,
    kind: u8,
    aux: u64,
    at: Time,
}

struct RankState {
    prog: Option<Box<dyn Program>>,
    reqs: Vec<ReqState>,
    free: Vec<Req>,
    posted: VecDeque<Posted>,
    unexp: VecDeque<Unexp>,
    waitlist: Vec<Req>,
    wait_left: u32,
    wait_max: Time,
    clock: Time,
    done: bool,
    finish: Time,
    /// rendezvous sends waiting for CTS: request → (dst, tag, bytes)
    rdv: HashMap<u32, (u32, i32, u64)>,
}

/// The view a [`Program`] has of the simulator while it runs.
pub struct Cx<'a> {
    lp: &'a mut Lp,
    sh: &'a Shared,
    rank: u32,
    now: Time,
}

impl Cx<'_> {
    pub fn rank(&self) -> u32 {
        self.rank
    }
    pub fn size(&self) -> u32 {
        self.sh.nranks
    }
    /// The rank's clock (virtual time).
    pub fn now(&self) -> Time {
        self.now
    }
    /// Start a send; charges the send overhead to the rank's clock.
    pub fn isend(&mut self, dst: u32, tag: i32, bytes: u64) -> Req {
        assert!(dst < self.sh.nranks, "send to rank {dst} out of range");
        self.now += self.sh.o_s;
        let req = self.lp.new_req(self.rank);
        let kind = if bytes > self.sh.eager { M_RTS } else { M_DATA };
        if kind == M_RTS {
            self.lp.rank_mut(self.rank).rdv.insert(req, (dst, tag, bytes));
            let ctrl = self.sh.ctrl as u64;
            self.lp.start_msg(self.sh, self.now, self.rank, dst, tag, ctrl, M_RTS, req as u64, 0, NONE);
        } else {
            self.lp.start_msg(self.sh, self.now, self.rank, dst, tag, bytes, M_DATA, 0, 0, req);
        }
        req
    }
    /// Post a receive (`src`/`tag` `None` = any).
    pub fn irecv(&mut self, src: Option<u32>, tag: Option<i32>, _bytes: u64) -> Req {
        let req = self.lp.new_req(self.rank);
        let p = Posted { src: src.map_or(-1, |s| s as i64), tag: tag.map_or(-1, |t| t as i64), req };
        let now = self.now;
        self.lp.post_recv(self.sh, self.rank, p, now);
        req
    }
    /// Register a request to wait for with [`Block::Wait`].
    pub fn wait(&mut self, r: Req) {
        self.lp.rank_mut(self.rank).waitlist.push(r);
    }
    /// Source and tag of a completed receive (valid right after its wait).
    pub fn status(&self, r: Req) -> (u32, i32) {
        let rs = &self.lp.rank(self.rank).reqs[r as usize];
        (rs.src, rs.tag)
    }
    /// Advance the rank's clock without blocking (e.g. a modelled overhead).
    pub fn advance(&mut self, dt: Time) {
        self.now += dt;
    }
    /// Is the request complete (by the rank's clock)?
    pub fn test(&self, r: Req) -> bool {
        let rs = &self.lp.rank(self.rank).reqs[r as usize];
        rs.done && rs.done_at <= self.now
    }
}

// ---------------------------------------------------------------------------

pub(crate) struct Shared {
    pub topo: Topo,
    pub nranks: u32,
    pub rank_node: Vec<u32>,
    pub node_lp: Vec<u16>,
    pub router_lp: Vec<u16>,
    pub link_lp: Vec<u16>,
    pub o_s: Time,
    pub o_r: Time,
    pub eager: u64,
    pub ctrl: u32,
    pub pkt: u32,
    pub header: u32,
    pub vcs: u32,
    pub depth: u32,
    pub delay: Time,
    pub check: bool,
    pub interval: Time,
    pub inj_bw: u64,
}

pub(crate) struct Lp {
    pub id: usize,
    heap: EvQueue,
    pub now: Time,
    pkts: Vec<Packet>,
    pmsg: Vec<PacketMsg>,
    free_pkts: Vec<u32>,
    msgs: Vec<Msg>,
    free_msgs: Vec<u32>,
    links: Vec<LinkState>,
    /// per (link, VC) FIFO of waiting packets, linked through `Packet::next`
    qh: Vec<u32>,
    qt: Vec<u32>,
    /// credit slots of the downstream buffer of each owned link: free time (INF = occupied).
    slots: Vec<Time>,
    /// downstream occupancy per (link, vc) for statistics (owned by the link's dst LP).
    occ: Vec<u8>,
    in_links: Vec<u32>,
    nic_q: Vec<VecDeque<u32>>,
    node_ctr: Vec<u32>,
    reasm: HashMap<u64, u32, BuildFast>,
    ranks: Vec<Option<RankState>>,
    pub events: u64,
    pub hops: u64,
    pub node_pkts: Vec<u64>,
    pub series: Series,
    out: Vec<Vec<Cross>>,
    pub raw_done: Vec<(u64, Time)>,
    pub max_occ_seen: u32,
    sampling: bool,
}

impl Lp {
    fn rank_mut(&mut self, r: u32) -> &mut RankState {
        self.ranks[r as usize].as_mut().expect("rank not on this LP")
    }
    fn rank(&self, r: u32) -> &RankState {
        self.ranks[r as usize].as_ref().expect("rank not on this LP")
    }

    #[inline]
    fn push(&mut self, t: Time, kind: u64, id: u64, a: u32) {
        self.push_b(t, kind, id, a, 0);
    }

    #[inline]
    fn push_b(&mut self, t: Time, kind: u64, id: u64, a: u32, b: u32) {
        debug_assert!(t >= self.now);
        self.heap.push(Ev { t, key: (kind << KSHIFT) | id, a, b });
    }

    fn new_req(&mut self, r: u32) -> Req {
        let rs = self.rank_mut(r);
        let st = ReqState { live: true, ..Default::default() };
        if let Some(q) = rs.free.pop() {
            rs.reqs[q as usize] = st;
            q
        } else {
            rs.reqs.push(st);
            (rs.reqs.len() - 1) as Req
        }
    }

    fn complete_req(&mut self, r: u32, q: Req, t: Time) {
        let rs = self.rank_mut(r);
        let st = &mut rs.reqs[q as usize];
        debug_assert!(st.live && !st.done);
        st.done = true;
        st.done_at = t;
        if st.waited {
            rs.wait_max = rs.wait_max.max(t);
            rs.wait_left -= 1;
            if rs.wait_left == 0 {
                let at = rs.wait_max;
                self.push(at, K_RANK, r as u64, r);
            }
        }
    }

    /// Hand a message to the source NIC at time `t` (≥ now), or deliver locally.
    #[allow(clippy::too_many_arguments)]
    fn start_msg(&mut self, sh: &Shared, t: Time, src: u32, dst: u32, tag: i32, bytes: u64, kind: u8, aux: u64, aux2: u64, req: u32) {
        let sn = sh.rank_node[src as usize];
        let dn = sh.rank_node[dst as usize];
        let c = self.node_ctr[sn as usize];
        self.node_ctr[sn as usize] += 1;
        let uid = ((sn as u64) << 32) | c as u64;
        let npkts = bytes.div_ceil(sh.pkt as u64).max(1) as u32;
        let m = Msg { uid, src_rank: src, dst_rank: dst, dst_node: dn, tag, bytes, aux, aux2, kind, sent: 0, npkts, req };
        let idx = if let Some(i) = self.free_msgs.pop() {
            self.msgs[i as usize] = m;
            i
        } else {
            self.msgs.push(m);
            (self.msgs.len() - 1) as u32
        };
        if sn == dn {
            // intra-node: a memory copy at injection bandwidth
            let at = t + crate::ser_time(bytes, sh.inj_bw);
            self.push(at, K_LOCAL, uid, idx);
        } else if t > self.now {
            self.push(t, K_SEND, uid, idx);
        } else {
            self.nic_enqueue(sh, sn, idx);
        }
    }

    fn nic_enqueue(&mut self, sh: &Shared, node: u32, m: u32) {
        self.nic_q[node as usize].push_back(m);
        if self.nic_q[node as usize].len() == 1 {
            let l = sh.topo.inj[node as usize];
            self.try_link(sh, l);
        }
    }

    /// A message has fully arrived at its destination rank's node at `now`.
    #[allow(clippy::too_many_arguments)]
    fn msg_arrived(&mut self, sh: &Shared, src: u32, dst: u32, tag: i32, kind: u8, aux: u64, aux2: u64, bytes: u64) {
        let now = self.now;
        match kind {
            M_RAW => self.raw_done.push((aux, now)),
            M_CTS => {
                // at the sender: start the data transfer of the parked rendezvous send
                let (d, tg, b) = self.rank_mut(dst).rdv.remove(&(aux2 as u32)).expect("CTS without RTS");
                debug_assert_eq!(d, src);
                self.start_msg(sh, now, dst, d, tg, b, M_RDV, aux, 0, aux2 as u32);
            }
            M_RDV => {
                let _ = bytes;
                self.set_status(dst, aux as u32, src, tag);
                self.complete_req(dst, aux as u32, now + sh.o_r);
            }
            _ => {
                let rs = self.rank_mut(dst);
                let pos = rs.posted.iter().position(|p| (p.src < 0 || p.src == src as i64) && tag_match(p.tag, tag));
                match pos {
                    Some(i) => {
                        let p = rs.posted.remove(i).unwrap();
                        self.matched(sh, dst, src, tag, kind, aux, p.req, now);
                    }
                    None => rs.unexp.push_back(Unexp { src, tag, kind, aux, at: now }),
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn matched(&mut self, sh: &Shared, dst: u32, src: u32, tag: i32, kind: u8, aux: u64, req: Req, t: Time) {
        if kind == M_RTS {
            // receiver answers with a CTS carrying (receiver req, sender req)
            let c = sh.ctrl as u64;
            self.start_msg(sh, t, dst, src, tag, c, M_CTS, req as u64, aux, NONE);
        } else {
            self.set_status(dst, req, src, tag);
            self.complete_req(dst, req, t + sh.o_r);
        }
    }

    fn set_status(&mut self, r: u32, q: Req, src: u32, tag: i32) {
        let st = &mut self.rank_mut(r).reqs[q as usize];
        st.src = src;
        st.tag = tag;
    }

    fn post_recv(&mut self, sh: &Shared, r: u32, p: Posted, now: Time) {
        let rs = self.rank_mut(r);
        let pos = rs.unexp.iter().position(|u| (p.src < 0 || p.src == u.src as i64) && tag_match(p.tag, u.tag));
        match pos {
            Some(i) => {
                let u = rs.unexp.remove(i).unwrap();
                let t = now.max(u.at);
                self.matched(sh, r, u.src, u.tag, u.kind, u.aux, p.req, t);
            }
            None => rs.posted.push_back(p),
        }
    }

    fn alloc_pkt(&mut self, p: Packet, m: PacketMsg) -> u32 {
        if let Some(i) = self.free_pkts.pop() {
            self.pkts[i as usize] = p;
            self.pmsg[i as usize] = m;
            i
        } else {
            self.pkts.push(p);
            self.pmsg.push(m);
            (self.pkts.len() - 1) as u32
        }
    }

    /// Find a free credit slot of (link, vc) at `now`: Ok(slot) or Err(next finite free time).
    #[inline]
    fn find_slot(&self, sh: &Shared, link: u32, vc: u8) -> Result<u8, Time> {
        let d = sh.depth as usize;
        let base = (link as usize * sh.vcs as usize + vc as usize) * d;
        let mut next = INF;
        for (i, &f) in self.slots[base..base + d].iter().enumerate() {
            if f <= self.now {
                return Ok(i as u8);
            }
            next = next.min(f);
        }
        Err(next)
    }

    fn schedule_wake(&mut self, link: u32, t: Time) {
        let ls = &mut self.links[link as usize];
        if ls.wake_at <= t && ls.wake_at >= self.now {
            return;
        }
        ls.wake_at = t;
        self.push(t, K_WAKE, link as u64, link);
    }

    /// Serve waiting packets of `link` as far as possible at `now`: VCs in
    /// round-robin order, FIFO within a VC; a VC without credit does not block the others.
    fn try_link(&mut self, sh: &Shared, link: u32) {
        let lk = &sh.topo.links[link as usize];
        loop {
            let busy = self.links[link as usize].busy_until;
            if lk.kind == LinkKind::Inj {
                let node = lk.src as usize;
                if self.nic_q[node].is_empty() {
                    return;
                }
                if busy > self.now {
                    self.schedule_wake(link, busy);
                    return;
                }
                match self.find_slot(sh, link, 0) {
                    Ok(slot) => {
                        let pi = self.make_packet(sh, lk.src);
                        self.transmit(sh, pi, link, slot);
                    }
                    Err(t) => {
                        if t != INF {
                            self.schedule_wake(link, t);
                        }
                        return;
                    }
                }
                continue;
            }
            if self.links[link as usize].nq == 0 {
                return;
            }
            if busy > self.now {
                self.schedule_wake(link, busy);
                return;
            }
            let nv = sh.vcs as usize;
            let qb = link as usize * nv;
            let rr = self.links[link as usize].rr as usize;
            let mut next = INF;
            let mut chosen = None;
            for i in 0..nv {
                let v = (rr + i) % nv;
                if self.qh[qb + v] == NONE {
                    continue;
                }
                if lk.kind == LinkKind::Ej {
                    chosen = Some((v, 0));
                    break;
                }
                match self.find_slot(sh, link, v as u8) {
                    Ok(slot) => {
                        chosen = Some((v, slot));
                        break;
                    }
                    Err(t) => next = next.min(t),
                }
            }
            match chosen {
                Some((v, slot)) => {
                    let ls = &mut self.links[link as usize];
                    ls.nq -= 1;
                    let pi = self.qh[qb + v];
                    let nx = self.pkts[pi as usize].next;
                    self.qh[qb + v] = nx;
                    if nx == NONE {
                        self.qt[qb + v] = NONE;
                    }
                    ls.rr = ((v + 1) % nv) as u8;
                    self.transmit(sh, pi, link, slot);
                }
                None => {
                    if next != INF {
                        self.schedule_wake(link, next);
                    }
                    return;
                }
            }
        }
    }

    /// Cut the next packet of the head message of a NIC's queue.
    fn make_packet(&mut self, sh: &Shared, node: u32) -> u32 {
        let mi = *self.nic_q[node as usize].front().unwrap();
        let m = &mut self.msgs[mi as usize];
        let seq = (m.sent / sh.pkt as u64) as u32;
        let payload = (m.bytes - m.sent).min(sh.pkt as u64) as u32;
        m.sent += payload as u64;
        let _ = seq;
        let c = self.node_ctr[node as usize];
        self.node_ctr[node as usize] += 1;
        let uid = ((node as u64) << 32) | c as u64;
        let pm = PacketMsg {
            msg_uid: m.uid,
            msg_bytes: m.bytes,
            aux: m.aux,
            aux2: m.aux2,
            src_rank: m.src_rank,
            dst_rank: m.dst_rank,
            tag: m.tag,
            npkts: m.npkts,
            kind: m.kind,
        };
        let p = Packet {
            uid,
            dst_node: m.dst_node,
            payload,
            wire: payload.max(1) + sh.header,
            vc: 0,
            next_vc: 0,
            slot: 0,
            rs: RouteState::default(),
            next: NONE,
            at: NONE,
            in_link: NONE,
            out: NONE,
            tail_in: 0,
        };
        let last = m.sent >= m.bytes;
        if last {
            let req = m.req;
            let src = m.src_rank;
            self.nic_q[node as usize].pop_front();
            self.free_msgs.push(mi);
            if req != NONE {
                // completes when the tail has left the NIC; the link is idle now
                let ser = crate::ser_time(p.wire as u64, sh.topo.links[sh.topo.inj[node as usize] as usize].bw);
                let t = self.now + ser;
                self.complete_req(src, req, t);
            }
        }
        self.alloc_pkt(p, pm)
    }

    /// Put packet `pi` on `link` now, into downstream slot `slot`.
    fn transmit(&mut self, sh: &Shared, pi: u32, link: u32, slot: u8) {
        let lk = &sh.topo.links[link as usize];
        let now = self.now;
        let (wire, tail_in, in_link, in_slot, in_vc) = {
            let p = &self.pkts[pi as usize];
            (p.wire, p.tail_in, p.in_link, p.slot, p.vc)
        };
        let ser = if wire == sh.pkt + sh.header { lk.full_ser } else { crate::ser_time(wire as u64, lk.bw) };
        // the tail cannot leave before it has arrived
        let start = now.max(tail_in.saturating_sub(ser));
        let end = start + ser;
        {
            let ls = &mut self.links[link as usize];
            ls.busy_until = end;
            ls.st.busy += ser;
            ls.st.pkts += 1;
            ls.st.bytes += wire as u64;
            ls.st.payload += self.pkts[pi as usize].payload as u64;
        }
        self.series.add_busy(lk.dir as usize, start, end);
        // release the slot this packet held upstream
        if in_link != NONE {
            let il = &sh.topo.links[in_link as usize];
            let free_at = end + il.lat;
            let occ_i = in_link as usize * sh.vcs as usize + in_vc as usize;
            self.occ[occ_i] -= 1;
            if sh.link_lp[in_link as usize] as usize == self.id {
                self.credit(sh, in_link, in_vc, in_slot, free_at);
            } else {
                let lp = sh.link_lp[in_link as usize] as usize;
                self.out[lp].push(Cross::Credit(free_at, in_link, in_vc, in_slot));
            }
        }
        let head_at = start + lk.lat;
        match lk.kind {
            LinkKind::Ej => {
                let t = head_at + ser;
                let uid = self.pkts[pi as usize].uid;
                self.push(t, K_DELIV, uid, pi);
            }
            _ => {
                let d = sh.depth as usize;
                let vc_new = self.pkts[pi as usize].next_vc;
                if lk.kind == LinkKind::Net || lk.kind == LinkKind::Inj {
                    let base = (link as usize * sh.vcs as usize + vc_new as usize) * d;
                    debug_assert!(self.slots[base + slot as usize] <= now);
                    self.slots[base + slot as usize] = INF;
                }
                let nr = lk.dst;
                let t = head_at + sh.delay;
                let p = &mut self.pkts[pi as usize];
                p.in_link = link;
                p.slot = slot;
                p.vc = vc_new;
                p.at = nr;
                p.tail_in = head_at + ser;
                let mut rs = p.rs;
                let (out, out_vc) = sh.topo.route(nr, p.dst_node, p.uid, &mut rs);
                p.rs = rs;
                p.out = out;
                p.next_vc = out_vc;
                let uid = p.uid;
                let dst_lp = sh.router_lp[nr as usize] as usize;
                if dst_lp == self.id {
                    self.occ_inc(sh, link, vc_new);
                    self.push_b(t, K_PKT, uid, pi, out);
                } else {
                    let p = Box::new((self.pkts[pi as usize].clone(), self.pmsg[pi as usize].clone()));
                    self.free_pkts.push(pi);
                    self.out[dst_lp].push(Cross::Pkt(t, p));
                }
            }
        }
    }

    #[inline]
    fn occ_inc(&mut self, sh: &Shared, link: u32, vc: u8) {
        let o = &mut self.occ[link as usize * sh.vcs as usize + vc as usize];
        *o += 1;
        if sh.check {
            let o = *o as u32;
            assert!(o <= sh.depth, "buffer overflow: link {link} vc {vc} holds {o} > {} packets", sh.depth);
            self.max_occ_seen = self.max_occ_seen.max(o);
        }
    }

    fn credit(&mut self, sh: &Shared, link: u32, vc: u8, slot: u8, free_at: Time) {
        let d = sh.depth as usize;
        let base = (link as usize * sh.vcs as usize + vc as usize) * d;
        self.slots[base + slot as usize] = free_at;
        let lk = &sh.topo.links[link as usize];
        let waiting = if lk.kind == LinkKind::Inj { !self.nic_q[lk.src as usize].is_empty() } else { self.links[link as usize].nq != 0 };
        if waiting {
            let t = free_at.max(self.now);
            self.schedule_wake(link, t);
        }
    }

    /// A packet's head is at router `p.at` and the router delay has passed.
    fn at_router(&mut self, sh: &Shared, pi: u32) {
        self.hops += 1;
        let (link, vc) = {
            let p = &self.pkts[pi as usize];
            (p.out, p.next_vc)
        };
        debug_assert!(link != NONE, "no route");
        let qi = link as usize * sh.vcs as usize + vc as usize;
        self.pkts[pi as usize].next = NONE;
        let t = self.qt[qi];
        if t == NONE {
            self.qh[qi] = pi;
        } else {
            self.pkts[t as usize].next = pi;
        }
        self.qt[qi] = pi;
        let ls = &mut self.links[link as usize];
        ls.nq += 1;
        if ls.nq == 1 || ls.busy_until <= self.now {
            self.try_link(sh, link);
        }
    }

    fn deliver(&mut self, sh: &Shared, pi: u32) {
        let dst_node = self.pkts[pi as usize].dst_node;
        let p = self.pmsg[pi as usize].clone();
        self.free_pkts.push(pi);
        self.node_pkts[dst_node as usize] += 1;
        let complete = if p.npkts == 1 {
            true
        } else {
            let e = self.reasm.entry(p.msg_uid).or_insert(p.npkts);
            *e -= 1;
            if *e == 0 {
                self.reasm.remove(&p.msg_uid);
                true
            } else {
                false
            }
        };
        if complete {
            self.msg_arrived(sh, p.src_rank, p.dst_rank, p.tag, p.kind, p.aux, p.aux2, p.msg_bytes);
        }
    }

    fn run_rank(&mut self, sh: &Shared, r: u32) {
        let mut prog = self.rank_mut(r).prog.take().expect("rank program missing");
        let mut now = self.now.max(self.rank(r).clock);
        // free the requests of the finished wait
        {
            let rs = self.rank_mut(r);
            let wl = std::mem::take(&mut rs.waitlist);
            for q in &wl {
                rs.reqs[*q as usize].live = false;
                rs.free.push(*q);
            }
            let mut wl = wl;
            wl.clear();
            rs.waitlist = wl;
        }
        loop {
            let mut cx = Cx { lp: self, sh, rank: r, now };
            let b = prog.step(&mut cx);
            now = cx.now;
            match b {
                Block::Sleep(dt) => {
                    now += dt;
                    if now > self.now {
                        let rs = self.rank_mut(r);
                        rs.clock = now;
                        self.push(now, K_RANK, r as u64, r);
                        break;
                    }
                }
                Block::Done => {
                    let rs = self.rank_mut(r);
                    rs.done = true;
                    rs.finish = now;
                    rs.clock = now;
                    break;
                }
                Block::Wait => {
                    let lpnow = self.now;
                    let rs = self.ranks[r as usize].as_mut().unwrap();
                    if rs.waitlist.is_empty() {
                        for (i, q) in rs.reqs.iter().enumerate() {
                            if q.live {
                                rs.waitlist.push(i as Req);
                            }
                        }
                    }
                    let mut left = 0;
                    let mut mx = now;
                    for &q in &rs.waitlist {
                        let st = &mut rs.reqs[q as usize];
                        if st.done {
                            mx = mx.max(st.done_at);
                        } else {
                            st.waited = true;
                            left += 1;
                        }
                    }
                    rs.wait_left = left;
                    rs.wait_max = mx;
                    rs.clock = now;
                    if left == 0 {
                        if mx > lpnow {
                            self.push(mx, K_RANK, r as u64, r);
                            break;
                        }
                        // immediate: free and continue
                        let wl = std::mem::take(&mut rs.waitlist);
                        for q in &wl {
                            rs.reqs[*q as usize].live = false;
                            rs.free.push(*q);
                        }
                        let mut wl = wl;
                        wl.clear();
                        rs.waitlist = wl;
                        now = mx;
                        continue;
                    }
                    break;
                }
            }
        }
        self.rank_mut(r).prog = Some(prog);
    }

    fn sample(&mut self, sh: &Shared) {
        let vcs = sh.vcs as usize;
        let depth = sh.depth as f64;
        let mut hist = [0u64; 10];
        for &l in &self.in_links {
            for v in 0..vcs {
                let o = self.occ[l as usize * vcs + v] as f64 / depth;
                let c = ((o * 10.0) as usize).min(9);
                hist[c] += 1;
            }
        }
        self.series.add_hist(self.now, hist);
    }

    /// Start loading what the next event will touch while this one runs:
    /// the packet pool and link tables are larger than the L2 cache, and
    /// these loads were the main stalls.
    #[inline]
    fn prefetch_next(&self, sh: &Shared) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            fn pf<T>(v: &[T], i: usize) {
                if let Some(x) = v.get(i) {
                    unsafe { _mm_prefetch::<_MM_HINT_T0>(x as *const T as *const i8) };
                }
            }
            let nv = sh.vcs as usize;
            // the link an event will serve, if any
            let link_of = |e: &Ev| match e.key >> KSHIFT {
                K_PKT => Some(e.b as usize),
                K_WAKE => Some(e.a as usize),
                _ => None,
            };
            // two events ahead: the link's tables
            if let Some(l) = self.heap.next_hint2().and_then(link_of) {
                pf(&self.links, l);
                pf(&sh.topo.links, l);
                pf(&self.qh, l * nv);
                pf(&self.qt, l * nv);
                let s0 = l * nv * sh.depth as usize;
                pf(&self.slots, s0);
                pf(&self.slots, s0 + 8);
            }
            // next event: its packet, and the packets waiting at the head of its link's queues
            if let Some(n) = self.heap.next_hint() {
                match n.key >> KSHIFT {
                    K_PKT => pf(&self.pkts, n.a as usize),
                    K_DELIV => {
                        pf(&self.pkts, n.a as usize);
                        pf(&self.pmsg, n.a as usize);
                    }
                    _ => {}
                }
                if let Some(l) = link_of(n) {
                    for v in 0..nv {
                        if let Some(&h) = self.qh.get(l * nv + v) {
                            if h != NONE {
                                pf(&self.pkts, h as usize);
                            }
                        }
                    }
                }
            }
        }
    }

    fn handle(&mut self, sh: &Shared, ev: Ev) {
        self.now = ev.t;
        self.events += 1;
        match ev.key >> KSHIFT {
            K_PKT => self.at_router(sh, ev.a),
            K_WAKE => {
                let ls = &mut self.links[ev.a as usize];
                if ls.wake_at == ev.t {
                    ls.wake_at = INF;
                    self.try_link(sh, ev.a);
                }
            }
            K_DELIV => self.deliver(sh, ev.a),
            K_CREDIT => {
                let vc = ((ev.key >> 6) & 0xf) as u8;
                let slot = (ev.key & 63) as u8;
                self.credit(sh, ev.a, vc, slot, ev.t);
            }
            K_SEND => {
                let m = &self.msgs[ev.a as usize];
                let node = sh.rank_node[m.src_rank as usize];
                self.nic_enqueue(sh, node, ev.a);
            }
            K_LOCAL => {
                let m = self.msgs[ev.a as usize].clone();
                self.free_msgs.push(ev.a);
                if m.req != NONE {
                    self.complete_req(m.src_rank, m.req, self.now);
                }
                self.msg_arrived(sh, m.src_rank, m.dst_rank, m.tag, m.kind, m.aux, m.aux2, m.bytes);
            }
            K_RANK => {
                let r = ev.a;
                let rs = self.rank_mut(r);
                if rs.done || rs.wait_left != 0 && rs.waitlist.iter().any(|q| !rs.reqs[*q as usize].done) {
                    return;
                }
                self.run_rank(sh, r);
            }
            K_SAMPLE => {
                self.sample(sh);
                if !self.heap.is_empty() {
                    let nt = self.series.next_sample(self.now);
                    self.push(nt, K_SAMPLE, self.id as u64, 0);
                } else {
                    self.sampling = false;
                }
            }
            _ => unreachable!(),
        }
    }

    fn recv_cross(&mut self, sh: &Shared, c: Cross) {
        match c {
            Cross::Pkt(t, b) => {
                let (p, pm) = *b;
                let link = p.in_link;
                let vc = p.vc;
                let uid = p.uid;
                let out = p.out;
                let pi = self.alloc_pkt(p, pm);
                self.occ_inc(sh, link, vc);
                self.push_b(t, K_PKT, uid, pi, out);
            }
            Cross::Credit(t, link, vc, slot) => {
                let id = ((link as u64) << 10) | ((vc as u64) << 6) | slot as u64;
                self.push(t, K_CREDIT, id, link);
            }
        }
        if !self.sampling {
            self.sampling = true;
            let t = self.series.next_sample(self.now);
            self.push(t, K_SAMPLE, self.id as u64, 0);
        }
    }
}

// ---------------------------------------------------------------------------

/// Results of a simulation.
#[derive(Debug, Clone)]
pub struct SimResult {
    /// run time of the program: the latest rank finish time (ps).
    pub runtime: Time,
    pub finish: Vec<Time>,
    pub events: u64,
    pub packet_hops: u64,
    pub wall_s: f64,
    pub threads: usize,
    pub links: Vec<LinkStats>,
    pub node_pkts: Vec<u64>,
    pub series: Series,
    pub max_buffer_occupancy: u32,
}

/// A configured simulation: topology, mapping and one program per rank.
pub struct Simulation {
    pub(crate) sh: Shared,
    pub(crate) lps: Vec<Lp>,
    pub lookahead: Time,
    pub progress: bool,
}

impl Simulation {
    /// Build a simulation of `nranks` ranks; `threads` = 0 takes the config's `sim.threads`.
    pub fn new(cfg: &Config, nranks: u32, threads: usize) -> Result<Simulation, crate::config::ConfigError> {
        let topo = Topo::new(cfg);
        let rank_node = cfg.mapping(nranks)?;
        let mut nlp = if threads == 0 { cfg.sim.threads as usize } else { threads };
        if nlp == 0 {
            nlp = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        }
        let router_lp = topo.partition(nlp as u32);
        let nlp = router_lp.iter().map(|&x| x as usize + 1).max().unwrap_or(1);
        let node_lp: Vec<u16> = topo.node_router.iter().map(|&r| router_lp[r as usize]).collect();
        let link_lp: Vec<u16> = topo
            .links
            .iter()
            .map(|l| match l.kind {
                LinkKind::Inj => node_lp[l.src as usize],
                _ => router_lp[l.src as usize],
            })
            .collect();
        let mut lookahead = INF;
        for l in &topo.links {
            if l.kind == LinkKind::Net && router_lp[l.src as usize] != router_lp[l.dst as usize] {
                lookahead = lookahead.min(l.lat);
            }
        }
        if nlp > 1 && lookahead == 0 {
            // zero-latency links between partitions: no lookahead, run sequentially
            return Simulation::new(cfg, nranks, 1);
        }
        let sh = Shared {
            nranks,
            rank_node,
            node_lp,
            router_lp,
            link_lp,
            o_s: cfg.mpi.send_overhead,
            o_r: cfg.mpi.recv_overhead,
            eager: cfg.mpi.eager_threshold,
            ctrl: cfg.mpi.control_bytes.max(1),
            pkt: cfg.packet.size,
            header: cfg.packet.header,
            vcs: cfg.router.vcs,
            depth: cfg.router.buffer_packets,
            delay: cfg.router.delay,
            check: cfg.sim.check_invariants,
            interval: cfg.sim.stats_interval,
            inj_bw: cfg.inj_bw(),
            topo,
        };
        // calendar buckets about as wide as the shortest event-to-event gap
        let min_lat = sh.topo.links.iter().map(|l| l.lat).filter(|&l| l > 0).min().unwrap_or(0);
        let bucket = [sh.delay, min_lat].into_iter().filter(|&x| x > 0).min().unwrap_or(1 << 15).clamp(1 << 10, 1 << 24) / 2;
        let nl = sh.topo.links.len();
        let ndirs = sh.topo.dir_names.len();
        let mut lps = Vec::new();
        for id in 0..nlp {
            let in_links: Vec<u32> = (0..nl as u32)
                .filter(|&l| {
                    let lk = &sh.topo.links[l as usize];
                    lk.kind != LinkKind::Ej && sh.router_lp[lk.dst as usize] as usize == id
                })
                .collect();
            lps.push(Lp {
                id,
                heap: EvQueue::new(bucket, NBUCKETS),
                now: 0,
                pkts: Vec::new(),
                pmsg: Vec::new(),
                free_pkts: Vec::new(),
                msgs: Vec::new(),
                free_msgs: Vec::new(),
                links: vec![LinkState { wake_at: INF, ..Default::default() }; nl],
                slots: vec![0; nl * sh.vcs as usize * sh.depth as usize],
                occ: vec![0; nl * sh.vcs as usize],
                qh: vec![NONE; nl * sh.vcs as usize],
                qt: vec![NONE; nl * sh.vcs as usize],
                in_links,
                nic_q: vec![VecDeque::new(); sh.topo.nnodes as usize],
                node_ctr: vec![0; sh.topo.nnodes as usize],
                reasm: HashMap::with_hasher(BuildFast),
                ranks: (0..nranks).map(|_| None).collect(),
                events: 0,
                hops: 0,
                node_pkts: vec![0; sh.topo.nnodes as usize],
                series: Series::new(sh.interval, ndirs),
                out: (0..nlp).map(|_| Vec::new()).collect(),
                raw_done: Vec::new(),
                max_occ_seen: 0,
                sampling: true,
            });
        }
        Ok(Simulation { sh, lps, lookahead, progress: false })
    }

    pub fn nranks(&self) -> u32 {
        self.sh.nranks
    }
    pub fn topo(&self) -> &Topo {
        &self.sh.topo
    }
    pub fn rank_node(&self, r: u32) -> u32 {
        self.sh.rank_node[r as usize]
    }
    pub fn threads(&self) -> usize {
        self.lps.len()
    }

    /// Install programs: `f(rank)` gives rank `rank`'s program.
    pub fn set_programs(&mut self, mut f: impl FnMut(u32) -> Box<dyn Program>) {
        for r in 0..self.sh.nranks {
            let lp = self.sh.node_lp[self.sh.rank_node[r as usize] as usize] as usize;
            self.lps[lp].ranks[r as usize] = Some(RankState {
                prog: Some(f(r)),
                reqs: Vec::new(),
                free: Vec::new(),
                posted: VecDeque::new(),
                unexp: VecDeque::new(),
                waitlist: Vec::new(),
                wait_left: 0,
                wait_max: 0,
                clock: 0,
                done: false,
                finish: 0,
                rdv: HashMap::new(),
            });
            self.lps[lp].push(0, K_RANK, r as u64, r);
        }
        for lp in &mut self.lps {
            let t = lp.series.next_sample(0);
            lp.push(t, K_SAMPLE, lp.id as u64, 0);
        }
    }

    /// Run to completion.
    pub fn run(mut self) -> Result<SimResult, String> {
        let t0 = std::time::Instant::now();
        let pb = if self.progress { Some(crate::report::progress_bar()) } else { None };
        let nlp = self.lps.len();
        if nlp == 1 || self.lookahead == 0 || self.lookahead == INF {
            // sequential (one LP owns everything when nlp == 1)
            if nlp != 1 {
                return Err("parallel run needs a positive link latency between partitions (lookahead)".into());
            }
            let sh = &self.sh;
            let lp = &mut self.lps[0];
            // NSIM_DEBUG_HEAP=1: print the largest queue size and the event mix
            let dbg = std::env::var_os("NSIM_DEBUG_HEAP").is_some();
            let mut maxh = 0;
            let mut kinds = [0u64; 8];
            while let Some(ev) = lp.heap.pop() {
                lp.prefetch_next(sh);
                if dbg {
                    maxh = maxh.max(lp.heap.len());
                    kinds[(ev.key >> KSHIFT) as usize] += 1;
                }
                lp.handle(sh, ev);
                if dbg && lp.heap.is_empty() {
                    eprintln!("nsim: max heap {maxh}; events by kind [credit, wake, pkt, deliv, local, send, rank, sample] = {kinds:?}");
                }
                if let Some(pb) = &pb {
                    if lp.events & 0xfffff == 0 {
                        pb.set_message(format!("t = {:.3} us, {} events", lp.now as f64 / 1e6, lp.events));
                        pb.tick();
                    }
                }
            }
        } else {
            let la = self.lookahead;
            let sh = &self.sh;
            // Mailboxes and next-event times are double-buffered by window
            // parity, so one barrier per window is enough: a fast LP writes
            // the other half while a slow one still reads this half, and it
            // cannot come back to this half before the slow one has passed
            // the next barrier.
            let mail: Vec<Vec<Mutex<Vec<Cross>>>> = (0..2).map(|_| (0..nlp).map(|_| Mutex::new(Vec::new())).collect()).collect();
            let next: Vec<Vec<AtomicU64>> = (0..2).map(|_| (0..nlp).map(|_| AtomicU64::new(INF)).collect()).collect();
            let bar = SpinBarrier::new(nlp);
            let pb = &pb;
            std::thread::scope(|s| {
                for lp in self.lps.iter_mut() {
                    let (mail, next, bar) = (&mail, &next, &bar);
                    s.spawn(move || {
                        let mut par = 0;
                        let mut windows = 0u64;
                        loop {
                            // 1. publish the messages of the last window and the earliest
                            //    time this LP can still cause anything at
                            let mut tmin = lp.heap.peek().map_or(INF, |e| e.t);
                            for (dst, v) in lp.out.iter_mut().enumerate() {
                                if !v.is_empty() {
                                    for c in v.iter() {
                                        tmin = tmin.min(c.time());
                                    }
                                    mail[par][dst].lock().unwrap().append(v);
                                }
                            }
                            next[par][lp.id].store(tmin, AO::Release);
                            bar.wait();
                            // 2. everything before T + lookahead is safe
                            let t = next[par].iter().map(|a| a.load(AO::Acquire)).min().unwrap();
                            if t == INF {
                                break;
                            }
                            {
                                let mut m = mail[par][lp.id].lock().unwrap();
                                for c in m.drain(..) {
                                    lp.recv_cross(sh, c);
                                }
                            }
                            let end = t.saturating_add(la);
                            while let Some(ev) = lp.heap.peek() {
                                if ev.t >= end {
                                    break;
                                }
                                let ev = lp.heap.pop().unwrap();
                                lp.prefetch_next(sh);
                                lp.handle(sh, ev);
                            }
                            par ^= 1;
                            windows += 1;
                            if lp.id == 0 && windows.is_multiple_of(1024) {
                                if let Some(pb) = pb {
                                    pb.set_message(format!("t = {:.3} us, {} events (LP 0)", lp.now as f64 / 1e6, lp.events));
                                    pb.tick();
                                }
                            }
                        }
                    });
                }
            });
        }
        if let Some(pb) = pb {
            pb.finish_and_clear();
        }

        let wall = t0.elapsed().as_secs_f64();
        // collect
        let n = self.sh.nranks as usize;
        let mut finish = vec![0; n];
        let mut blocked = Vec::new();
        for lp in &self.lps {
            for (r, rs) in lp.ranks.iter().enumerate() {
                if let Some(rs) = rs {
                    if !rs.done {
                        blocked.push(r);
                    }
                    finish[r] = rs.finish;
                }
            }
        }
        if !blocked.is_empty() {
            let show: Vec<String> = blocked.iter().take(8).map(|r| r.to_string()).collect();
            return Err(format!("deadlock: {} rank(s) never finished (e.g. ranks {}): unmatched receive or wait", blocked.len(), show.join(", ")));
        }
        let nl = self.sh.topo.links.len();
        let mut links = vec![LinkStats::default(); nl];
        let mut node_pkts = vec![0; self.sh.topo.nnodes as usize];
        let mut series = Series::new(self.sh.interval, self.sh.topo.dir_names.len());
        let (mut events, mut hops, mut mo) = (0, 0, 0);
        for lp in &self.lps {
            for (i, ls) in lp.links.iter().enumerate() {
                links[i].add(&ls.st);
            }
            for (i, c) in lp.node_pkts.iter().enumerate() {
                node_pkts[i] += c;
            }
            series.merge(&lp.series);
            events += lp.events;
            hops += lp.hops;
            mo = mo.max(lp.max_occ_seen);
        }
        Ok(SimResult {
            runtime: finish.iter().copied().max().unwrap_or(0),
            finish,
            events,
            packet_hops: hops,
            wall_s: wall,
            threads: nlp,
            links,
            node_pkts,
            series,
            max_buffer_occupancy: mo,
        })
    }

    // ---- incremental API used by `network` (sequential only) ----

    pub(crate) fn raw_send(&mut self, t: Time, src_node: u32, dst_node: u32, bytes: u64, id: u64) {
        let lp = &mut self.lps[0];
        assert!(t >= lp.now, "cannot inject in the past");
        // raw messages use node numbers as rank numbers (rank_node is the identity there)
        lp.start_msg(&self.sh, t, src_node, dst_node, 0, bytes, M_RAW, id, 0, NONE);
    }

    pub(crate) fn raw_advance(&mut self, t: Time) -> Vec<(u64, Time)> {
        let sh = &self.sh;
        let lp = &mut self.lps[0];
        while let Some(ev) = lp.heap.peek() {
            if ev.t > t {
                break;
            }
            let ev = lp.heap.pop().unwrap();
            lp.handle(sh, ev);
        }
        lp.now = lp.now.max(t);
        std::mem::take(&mut lp.raw_done)
    }

    /// Process the events before `before` one at a time until a message is
    /// delivered, then the rest of that instant; the delivery time, or None
    /// when nothing is delivered before `before`. The completions are
    /// returned by the next `raw_advance`.
    pub(crate) fn raw_advance_to_delivery(&mut self, before: Time) -> Option<Time> {
        let sh = &self.sh;
        let lp = &mut self.lps[0];
        let mut hit: Option<Time> = None;
        while let Some(ev) = lp.heap.peek() {
            if ev.t >= before || hit.is_some_and(|d| ev.t > d) {
                break;
            }
            let ev = lp.heap.pop().unwrap();
            lp.handle(sh, ev);
            if hit.is_none() && !lp.raw_done.is_empty() {
                hit = Some(lp.now);
            }
        }
        hit
    }

    pub(crate) fn raw_now(&self) -> Time {
        self.lps[0].now
    }
    pub(crate) fn raw_idle(&self) -> bool {
        self.lps[0].heap.iter().all(|e| e.key >> KSHIFT == K_SAMPLE)
    }
}

/// Analytic contention-free latency of one message of `bytes` from node `s` to
/// node `d`, from the send call to the completed receive, assuming every link
/// on the path (NIC links included) has the same bandwidth and buffers are deep
/// enough to cover the credit round trip:
///
/// `o_s + Σ_packets ser(wire) + L_inj + R·delay + Σ_links L + L_ej + o_r`
///
/// where `R` is the number of routers traversed and `ser(w) = ⌈w·10¹²/B⌉` ps.
/// Rendezvous messages (larger than the eager threshold) add an RTS and a CTS
/// control packet, each costing the same formula without overheads.
pub fn analytic_latency(cfg: &Config, topo: &Topo, s: u32, d: u32, bytes: u64) -> Time {
    let wire_time = |b: u64, bw: u64| -> Time {
        let pkt = cfg.packet.size as u64;
        let n = b.div_ceil(pkt).max(1);
        let mut t = 0;
        for i in 0..n {
            let pl = (b - i * pkt).min(pkt).max(1);
            t += crate::ser_time(pl + cfg.packet.header as u64, bw);
        }
        t
    };
    let one = |a: u32, b: u32, by: u64| -> Time {
        if a == b {
            return crate::ser_time(by, cfg.inj_bw());
        }
        let (r, lat) = topo.routers_on_path(a, b);
        wire_time(by, cfg.link.bandwidth) + cfg.inj_lat() + r as Time * cfg.router.delay + lat + cfg.ej_lat()
    };
    let mut t = cfg.mpi.send_overhead + cfg.mpi.recv_overhead;
    if bytes > cfg.mpi.eager_threshold {
        let c = cfg.mpi.control_bytes.max(1) as u64;
        t += one(s, d, c) + one(d, s, c);
    }
    t + one(s, d, bytes)
}

const _: () = assert!(std::mem::size_of::<Packet>() == 64);

/// Calendar buckets: 256 half-router-delays cover a packet's serialisation,
/// link and router times; 64–256 measured alike on the 1K ring, 1024+ slower
/// (the bucket vectors no longer fit in the L2 cache).
const NBUCKETS: usize = 256;
