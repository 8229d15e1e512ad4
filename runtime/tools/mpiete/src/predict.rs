//! The predictor: equations 1–7 of the MPIETE paper over streamed traces.
//!
//! Per rank r, blocks in trace order: T_start = previous T_end (0 first);
//! compute block: T_end = T_start + T_comp(r, id); send/receive start and a
//! wait on a send: T_end = T_start; wait on a receive: T_end = max(T_start,
//! T_send + T_comm(size)) where T_send is the sender's time at its matching
//! send. T = max over ranks.
//!
//! Ranks are replayed with one cursor each; a rank runs until it needs a
//! message whose send has not been replayed yet, then the runnable rank with
//! the smallest clock goes on. Memory holds the messages in flight and the
//! open requests, never the traces.

use crate::data::CommModel;
use crate::trace::{Event, TraceReader};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use rand_distr::Gamma;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Read;

/// FxHash-style hasher: the keys are small integers.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);
impl Hasher for Fx {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
}
type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// Messages are matched per (source, destination, tag, communicator), in order.
#[inline]
fn chan(src: u32, dst: u32, tag: i32, comm: u32) -> u128 {
    (src as u128) | (dst as u128) << 32 | (tag as u32 as u128) << 64 | (comm as u128) << 96
}

#[derive(Clone, Copy)]
enum Open {
    Send,
    /// A receive with a known channel and its order number on it.
    Recv {
        ch: u128,
        seq: u64,
    },
    /// A wildcard receive: the channel is known at the wait.
    RecvAny {
        comm: u32,
    },
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RankResult {
    pub rank: usize,
    /// T_end of the rank's last block.
    pub time_s: f64,
    pub compute_s: f64,
    /// Time waiting for messages (time_s - compute_s).
    pub comm_s: f64,
    pub blocks: u64,
    pub messages: u64,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Prediction {
    pub total_s: f64,
    pub ranks: Vec<RankResult>,
    pub blocks: u64,
    /// Block ids in the traces with no compute data (costed 0).
    pub unknown_blocks: Vec<u32>,
    /// Jittered replays averaged (1: the plain prediction), and their range.
    pub replays: u32,
    pub total_min_s: f64,
    pub total_max_s: f64,
}

impl Prediction {
    /// The rank-by-rank mean of replays of the same traces.
    pub fn mean(runs: &[Prediction]) -> Prediction {
        let k = runs.len() as f64;
        let mut m = runs[0].clone();
        for (i, r) in m.ranks.iter_mut().enumerate() {
            r.time_s = runs.iter().map(|p| p.ranks[i].time_s).sum::<f64>() / k;
            r.compute_s = runs.iter().map(|p| p.ranks[i].compute_s).sum::<f64>() / k;
            r.comm_s = runs.iter().map(|p| p.ranks[i].comm_s).sum::<f64>() / k;
        }
        m.total_s = runs.iter().map(|p| p.total_s).sum::<f64>() / k;
        m.total_min_s = runs.iter().map(|p| p.total_s).fold(f64::INFINITY, f64::min);
        m.total_max_s = runs.iter().map(|p| p.total_s).fold(0.0, f64::max);
        m.replays = runs.len() as u32;
        m
    }
}

struct Cursor<R: Read> {
    rd: TraceReader<R>,
    t: f64,
    compute: f64,
    blocks: u64,
    messages: u64,
    open: FxMap<u32, Open>,
    /// The wait it is stuck on (channel, order number).
    stuck: Option<(Event, u128, u64)>,
    done: bool,
    /// (clock, compute) at the region's start and end markers.
    reg0: Option<(f64, f64)>,
    reg1: Option<(f64, f64)>,
}

pub struct Predictor<'a> {
    tcomp: &'a [Vec<f64>],
    comm: &'a CommModel,
    /// NSIM network instead of T_comm (crate::netsim).
    net: Option<&'a xmpc_nsim::Config>,
    /// Per-execution spread of T_comp (same layout as tcomp) and the seed: each
    /// execution draws its time from a gamma law with that mean and spread.
    jitter: Option<(&'a [Vec<f64>], u64)>,
}

impl<'a> Predictor<'a> {
    /// `tcomp[r][id]`: T_comp of block id on rank r (NaN: unknown, costed 0).
    pub fn new(tcomp: &'a [Vec<f64>], comm: &'a CommModel) -> Self {
        Predictor { tcomp, comm, net: None, jitter: None }
    }

    /// Block times drawn per execution (mean T_comp, standard deviation `sd[r][id]`)
    /// instead of the mean: waits caused by run-to-run jitter between ranks appear.
    /// Each rank has its own random stream, so the result depends only on the seed.
    pub fn with_jitter(mut self, sd: &'a [Vec<f64>], seed: u64) -> Self {
        self.jitter = Some((sd, seed));
        self
    }

    /// Per rank: per block, the gamma law of its time (None: use the mean).
    fn laws(&self, p: usize) -> Vec<Vec<Option<Gamma<f64>>>> {
        let Some((sd, _)) = self.jitter else { return vec![Vec::new(); p] };
        (0..p)
            .map(|r| {
                let (m, s) = (self.tcomp.get(r), sd.get(r));
                let n = m.map_or(0, |m| m.len());
                (0..n)
                    .map(|id| {
                        let mean = m.and_then(|m| m.get(id)).copied().unwrap_or(f64::NAN);
                        let sd = s.and_then(|s| s.get(id)).copied().unwrap_or(0.0);
                        if mean > 0.0 && sd > 0.0 && mean.is_finite() {
                            Gamma::new((mean / sd).powi(2), sd * sd / mean).ok()
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Messages go through this NSIM network instead of `T_comm(size)`.
    pub fn with_network(mut self, cfg: &'a xmpc_nsim::Config) -> Self {
        self.net = Some(cfg);
        self
    }

    pub fn run<R: Read>(&self, readers: Vec<TraceReader<R>>) -> Result<Prediction, String> {
        let p = readers.len();
        for (i, r) in readers.iter().enumerate() {
            if r.header.rank as usize != i || r.header.ranks as usize != p {
                return Err(format!("trace {i}: header says rank {} of {}, expected rank {i} of {p}", r.header.rank, r.header.ranks));
            }
        }
        let mut cur: Vec<Cursor<R>> = readers
            .into_iter()
            .map(|rd| Cursor { rd, t: 0.0, compute: 0.0, blocks: 0, messages: 0, open: FxMap::default(), stuck: None, done: false, reg0: None, reg1: None })
            .collect();
        let laws = self.laws(p);
        let mut rngs: Vec<SmallRng> =
            (0..p).map(|r| SmallRng::seed_from_u64(self.jitter.map_or(0, |j| j.1) ^ (r as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))).collect();
        // sends replayed, not yet received: (channel, order) -> T_send
        // (NSIM: the arrival time, once delivered)
        let mut sent: FxMap<(u128, u64), f64> = FxMap::default();
        let mut net = match self.net {
            Some(cfg) => Some(crate::netsim::NetSim::new(cfg, p as u32)?),
            None => None,
        };
        let mut nsent: FxMap<u128, u64> = FxMap::default();
        let mut nposted: FxMap<u128, u64> = FxMap::default();
        let mut unknown: Vec<u32> = Vec::new();
        const SLICE: usize = 1 << 14;
        let empty: Vec<f64> = Vec::new();

        loop {
            // runnable rank with the smallest clock
            let mut pick = usize::MAX;
            let mut best = f64::INFINITY;
            for (i, c) in cur.iter().enumerate() {
                if c.done {
                    continue;
                }
                let ready = match &c.stuck {
                    None => true,
                    Some((_, ch, seq)) => sent.contains_key(&(*ch, *seq)),
                };
                if ready && (pick == usize::MAX || c.t < best) {
                    pick = i;
                    best = c.t;
                }
            }
            if pick == usize::MAX {
                if cur.iter().all(|c| c.done) {
                    break;
                }
                if let Some(n) = &mut net {
                    let d = n.step();
                    if !d.is_empty() {
                        sent.extend(d);
                        continue;
                    }
                }
                let mut msg = String::from("the traces deadlock: ");
                for (i, c) in cur.iter().enumerate() {
                    if let Some((_, ch, seq)) = &c.stuck {
                        let src = (*ch & 0xffff_ffff) as u32;
                        let tag = (*ch >> 64) as u32 as i32;
                        msg.push_str(&format!("rank {i} waits for message #{} from rank {src} (tag {tag}); ", seq + 1));
                    }
                }
                msg.push_str("no rank sends it (traces from different runs, or a truncated trace?)");
                return Err(msg);
            }
            let r = pick;
            let netp = &mut net;
            let tab = self.tcomp.get(r).unwrap_or(&empty);
            let law = &laws[r];
            let rng = &mut rngs[r];
            let c = &mut cur[r];
            let mut n = 0;
            while n < SLICE {
                n += 1;
                let ev = match c.stuck.take() {
                    Some((ev, _, _)) => ev,
                    None => match c.rd.next_event()? {
                        Some(ev) => ev,
                        None => {
                            c.done = true;
                            break;
                        }
                    },
                };
                c.blocks += 1;
                match ev {
                    Event::Region(end) => {
                        c.blocks -= 1;
                        let mark = Some((c.t, c.compute));
                        if end {
                            c.reg1 = mark;
                        } else {
                            c.reg0 = mark;
                        }
                    }
                    Event::Block(id) => {
                        let mut dt = tab.get(id as usize).copied().unwrap_or(f64::NAN);
                        if let Some(Some(g)) = law.get(id as usize) {
                            dt = rng.sample(g);
                        }
                        if dt.is_nan() {
                            if !unknown.contains(&id) {
                                unknown.push(id);
                            }
                        } else {
                            c.t += dt;
                            c.compute += dt;
                        }
                    }
                    Event::Isend { req, peer, tag, comm, bytes, .. } => {
                        if peer < 0 || peer as usize >= p {
                            return Err(format!("trace {r}: send to rank {peer}, outside 0..{p}"));
                        }
                        let ch = chan(r as u32, peer as u32, tag, comm);
                        let k = nsent.entry(ch).or_insert(0);
                        match netp {
                            Some(n) => n.send(c.t, r as u32, peer as u32, bytes, (ch, *k)),
                            None => {
                                sent.insert((ch, *k), c.t);
                            }
                        }
                        *k += 1;
                        c.open.insert(req, Open::Send);
                    }
                    Event::Irecv { req, peer, tag, comm, .. } => {
                        let o = if peer >= 0 && tag >= 0 {
                            let ch = chan(peer as u32, r as u32, tag, comm);
                            let k = nposted.entry(ch).or_insert(0);
                            let seq = *k;
                            *k += 1;
                            Open::Recv { ch, seq }
                        } else {
                            Open::RecvAny { comm }
                        };
                        c.open.insert(req, o);
                    }
                    Event::Wait { req, src, tag, bytes, .. } => {
                        let Some(o) = c.open.get(&req).copied() else {
                            return Err(format!("trace {r}: wait on request {req} that was never started"));
                        };
                        let (ch, seq) = match o {
                            Open::Send => {
                                c.open.remove(&req);
                                continue;
                            }
                            Open::Recv { ch, seq } => (ch, seq),
                            Open::RecvAny { comm } => {
                                if src < 0 || src as usize >= p {
                                    return Err(format!("trace {r}: wildcard receive completed from rank {src}"));
                                }
                                let ch = chan(src as u32, r as u32, tag, comm);
                                let k = nposted.entry(ch).or_insert(0);
                                let seq = *k;
                                *k += 1;
                                c.open.insert(req, Open::Recv { ch, seq });
                                (ch, seq)
                            }
                        };
                        match sent.remove(&(ch, seq)) {
                            Some(ts) => {
                                c.open.remove(&req);
                                let arrive = if netp.is_some() { ts } else { ts + self.comm.time(bytes) };
                                if arrive > c.t {
                                    c.t = arrive;
                                }
                                c.messages += 1;
                            }
                            None => {
                                c.blocks -= 1;
                                c.stuck = Some((ev, ch, seq));
                                break;
                            }
                        }
                    }
                }
            }
        }
        let ranks: Vec<RankResult> = cur
            .iter()
            .enumerate()
            .map(|(i, c)| {
                // the predicted region when the traces mark one, else the whole run
                let (t0, c0) = c.reg0.unwrap_or((0.0, 0.0));
                let (t1, c1) = c.reg1.unwrap_or((c.t, c.compute));
                RankResult { rank: i, time_s: t1 - t0, compute_s: c1 - c0, comm_s: (t1 - t0) - (c1 - c0), blocks: c.blocks, messages: c.messages }
            })
            .collect();
        unknown.sort();
        let total_s = ranks.iter().map(|r| r.time_s).fold(0.0, f64::max);
        Ok(Prediction {
            total_s,
            replays: 1,
            total_min_s: total_s,
            total_max_s: total_s,
            blocks: ranks.iter().map(|r| r.blocks).sum(),
            ranks,
            unknown_blocks: unknown,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::TraceWriter;

    fn tr(rank: u32, ranks: u32, evs: &[Event]) -> Vec<u8> {
        let mut w = TraceWriter::new(Vec::new(), rank, ranks).unwrap();
        for e in evs {
            w.event(e).unwrap();
        }
        w.finish().unwrap()
    }
    fn isend(req: u32, peer: i32, tag: i32, bytes: u64) -> Event {
        Event::Isend { id: 0, req, peer, tag, comm: 0, bytes }
    }
    fn irecv(req: u32, peer: i32, tag: i32, bytes: u64) -> Event {
        Event::Irecv { id: 0, req, peer, tag, comm: 0, bytes }
    }
    fn wait(req: u32, src: i32, tag: i32, bytes: u64) -> Event {
        Event::Wait { id: 0, req, src, tag, bytes }
    }
    fn run(traces: &[Vec<u8>], tcomp: &[Vec<f64>], comm: &CommModel) -> Result<Prediction, String> {
        let rd = traces.iter().enumerate().map(|(i, t)| TraceReader::new(&t[..], format!("t{i}")).unwrap()).collect();
        Predictor::new(tcomp, comm).run(rd)
    }
    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    }

    // T_comm(s) = 0.5 + s / 1000
    fn lin() -> CommModel {
        CommModel::constant(0.5, 1000.0)
    }

    #[test]
    fn receive_waits_for_the_sender() {
        // rank 0: compute 2, send 1000 B; rank 1: receive it, compute 3.
        let t0 = tr(0, 2, &[Event::Block(1), isend(1, 1, 0, 1000), wait(1, -1, -1, 0)]);
        let t1 = tr(1, 2, &[irecv(1, 0, 0, 1000), wait(1, 0, 0, 1000), Event::Block(2)]);
        let tc = vec![vec![0.0, 2.0, 3.0]; 2];
        let p = run(&[t0, t1], &tc, &lin()).unwrap();
        // eq. 6: max(0, 2 + 0.5 + 1) + 3
        close(p.ranks[1].time_s, 6.5);
        close(p.ranks[1].compute_s, 3.0);
        close(p.ranks[1].comm_s, 3.5);
        close(p.ranks[0].time_s, 2.0);
        close(p.total_s, 6.5);
        assert_eq!(p.blocks, 6);
    }

    /// Two ranks exchange a message after every block (mean m, spread sd, gamma law):
    /// both leave each exchange at max(X0, X1) + latency, so the mean wait over the two
    /// ranks is E|X0 - X1| / 2 per iteration, sd / sqrt(pi) for a near-normal law
    /// (shape (m/sd)^2 = 100 here), and the mean block time stays m.
    #[test]
    fn jitter_predicts_the_waiting_between_ranks() {
        let n = 20_000;
        let (m, sd, lat) = (1e-3, 1e-4, 1e-6);
        let trace = |r: u32| {
            let mut ev = Vec::new();
            for _ in 0..n {
                ev.push(Event::Block(0));
                ev.push(irecv(1, 1 - r as i32, 0, 0));
                ev.push(isend(2, 1 - r as i32, 0, 0));
                ev.push(wait(1, 1 - r as i32, 0, 0));
                ev.push(wait(2, -1, -1, 0));
            }
            tr(r, 2, &ev)
        };
        let ts = [trace(0), trace(1)];
        let tc = vec![vec![m]; 2];
        let sds = vec![vec![sd]; 2];
        let cm = CommModel::constant(lat, 1e12);
        let go = |seed| {
            let rd = ts.iter().enumerate().map(|(i, t)| TraceReader::new(&t[..], format!("t{i}")).unwrap()).collect();
            Predictor::new(&tc, &cm).with_jitter(&sds, seed).run(rd).unwrap()
        };
        let p = go(7);
        let comp = (p.ranks[0].compute_s + p.ranks[1].compute_s) / 2.0 / n as f64;
        assert!((comp / m - 1.0).abs() < 2e-3, "mean block time {comp}");
        let wait = (p.ranks[0].comm_s + p.ranks[1].comm_s) / 2.0 / n as f64 - lat;
        let want = sd / std::f64::consts::PI.sqrt();
        assert!((wait / want - 1.0).abs() < 0.03, "mean wait {wait} vs {want}");
        // the plain prediction sees no wait; the seed alone decides a replay
        let plain = run(&ts, &tc, &cm).unwrap();
        assert!((plain.ranks[0].comm_s - n as f64 * lat).abs() < 1e-9);
        assert_eq!(go(7).total_s, p.total_s);
        assert_ne!(go(8).total_s, p.total_s);
    }

    #[test]
    fn late_receiver_does_not_wait() {
        let t0 = tr(0, 2, &[isend(1, 1, 0, 0), wait(1, -1, -1, 0)]);
        let t1 = tr(1, 2, &[Event::Block(2), irecv(1, 0, 0, 0), wait(1, 0, 0, 0)]);
        let tc = vec![vec![0.0, 0.0, 10.0]; 2];
        let p = run(&[t0, t1], &tc, &lin()).unwrap();
        close(p.ranks[1].time_s, 10.0);
        close(p.ranks[1].comm_s, 0.0);
    }

    #[test]
    fn messages_match_in_order_even_when_waited_out_of_order() {
        // rank 0 sends at t=1 and t=1+4; rank 1 posts two receives, waits the
        // second first: it gets the second message (arrival 5.5), then the first.
        let t0 = tr(0, 2, &[Event::Block(1), isend(1, 1, 7, 0), Event::Block(2), isend(2, 1, 7, 0), wait(1, -1, -1, 0), wait(2, -1, -1, 0)]);
        let t1 = tr(1, 2, &[irecv(1, 0, 7, 0), irecv(2, 0, 7, 0), wait(2, 0, 7, 0), Event::Block(3), wait(1, 0, 7, 0)]);
        let tc = vec![vec![0.0, 1.0, 4.0, 0.25]; 2];
        let p = run(&[t0, t1], &tc, &lin()).unwrap();
        close(p.ranks[1].time_s, 5.5 + 0.25);
        // tags separate channels: a tag-8 receive does not take a tag-7 message
        let t0 = tr(0, 2, &[isend(1, 1, 8, 0), Event::Block(1), isend(2, 1, 7, 0)]);
        let t1 = tr(1, 2, &[irecv(1, 0, 7, 0), wait(1, 0, 7, 0), irecv(2, 0, 8, 0), wait(2, 0, 8, 0)]);
        let p = run(&[t0, t1], &tc, &lin()).unwrap();
        close(p.ranks[1].time_s, 1.5);
    }

    #[test]
    fn wildcard_receive_uses_the_matched_source() {
        let tc = vec![vec![0.0, 1.0, 3.0]; 3];
        let t0 = tr(0, 3, &[Event::Block(1), isend(1, 2, 0, 0)]);
        let t1 = tr(1, 3, &[Event::Block(2), isend(1, 2, 0, 0)]);
        let t2 = tr(2, 3, &[irecv(1, -1, -1, 0), wait(1, 1, 0, 0), irecv(2, -1, -1, 0), wait(2, 0, 0, 0)]);
        let p = run(&[t0, t1, t2], &tc, &lin()).unwrap();
        close(p.ranks[2].time_s, 3.5);
    }

    #[test]
    fn ring_closed_form() {
        // P ranks, S steps: compute c_r, send right, receive from left.
        let (p, s) = (5u32, 3000u32);
        let tc: Vec<Vec<f64>> = (0..p).map(|r| vec![0.0, 1.0 + r as f64]).collect();
        let traces: Vec<Vec<u8>> = (0..p)
            .map(|r| {
                let mut ev = Vec::new();
                for k in 0..s {
                    ev.push(Event::Block(1));
                    ev.push(isend(2 * k, ((r + 1) % p) as i32, 0, 100));
                    ev.push(irecv(2 * k + 1, ((r + p - 1) % p) as i32, 0, 100));
                    ev.push(wait(2 * k + 1, ((r + p - 1) % p) as i32, 0, 100));
                    ev.push(wait(2 * k, -1, -1, 0));
                }
                tr(r, p, &ev)
            })
            .collect();
        let pr = run(&traces, &tc, &lin()).unwrap();
        // The slowest rank (compute 5) paces the ring: its own compute binds,
        // so it sends its k-th message at 5k; rank 0 receives it at 5k + 0.6
        // (T_comm(100) = 0.6), later than its own compute (1) would end.
        close(pr.ranks[4].time_s, s as f64 * 5.0);
        close(pr.ranks[0].time_s, s as f64 * 5.0 + 0.6);
        close(pr.total_s, s as f64 * 5.0 + 0.6);
        for r in &pr.ranks {
            close(r.compute_s, s as f64 * (1.0 + r.rank as f64));
        }
        assert_eq!(pr.blocks, (p * s * 5) as u64);
    }

    #[test]
    fn region_markers_bound_the_prediction() {
        let tc = vec![vec![0.0, 1.0, 2.0]];
        let t0 = tr(0, 1, &[Event::Block(1), Event::Region(false), Event::Block(2), Event::Block(2), Event::Region(true), Event::Block(1)]);
        let p = run(&[t0], &tc, &lin()).unwrap();
        close(p.total_s, 4.0);
        close(p.ranks[0].compute_s, 4.0);
    }

    #[test]
    fn unknown_blocks_cost_nothing_and_are_reported() {
        let tc = vec![vec![0.0, 1.0]];
        let t0 = tr(0, 1, &[Event::Block(1), Event::Block(9), Event::Block(9)]);
        let p = run(&[t0], &tc, &lin()).unwrap();
        close(p.total_s, 1.0);
        assert_eq!(p.unknown_blocks, vec![9]);
    }

    #[test]
    fn bad_traces_are_errors() {
        let tc = vec![vec![0.0]; 2];
        let t0 = tr(0, 2, &[irecv(1, 1, 0, 0), wait(1, 1, 0, 0)]);
        let t1 = tr(1, 2, &[]);
        let e = run(&[t0.clone(), t1.clone()], &tc, &lin()).unwrap_err();
        assert!(e.contains("deadlock") && e.contains("rank 0 waits for message #1 from rank 1"), "{e}");
        let e = run(&[t1.clone(), t0.clone()], &tc, &lin()).unwrap_err();
        assert!(e.contains("header says rank 1 of 2, expected rank 0"), "{e}");
        let t2 = tr(0, 1, &[wait(4, 0, 0, 0)]);
        assert!(run(&[t2], &tc, &lin()).unwrap_err().contains("request 4 that was never started"));
        let t3 = tr(0, 1, &[isend(1, 3, 0, 0)]);
        assert!(run(&[t3], &tc, &lin()).unwrap_err().contains("outside 0..1"));
    }

    fn ring8() -> xmpc_nsim::Config {
        let t = "[topology]\nkind = \"torus\"\ndims = [8]\n[link]\nbandwidth = \"1 GB/s\"\nlatency = \"100ns\"\n[router]\ndelay = \"50ns\"\n";
        xmpc_nsim::Config::from_toml(t, "ring8.toml").unwrap()
    }

    fn run_net(traces: &[Vec<u8>], tcomp: &[Vec<f64>], cfg: &xmpc_nsim::Config) -> Prediction {
        let rd = traces.iter().enumerate().map(|(i, t)| TraceReader::new(&t[..], format!("t{i}")).unwrap()).collect();
        let none = CommModel::constant(0.0, 1.0);
        Predictor::new(tcomp, &none).with_network(cfg).run(rd).unwrap()
    }

    #[test]
    fn nsim_contention_free_ring_equals_l_plus_s_over_w() {
        // 8 ranks on the 8-ring, each step: compute 1 us, send right, receive from left
        let (p, steps, b) = (8u32, 4u32, 10000u64);
        let tc = vec![vec![0.0, 1e-6]; p as usize];
        let traces: Vec<Vec<u8>> = (0..p)
            .map(|r| {
                let mut ev = Vec::new();
                for k in 0..steps {
                    ev.push(Event::Block(1));
                    ev.push(isend(2 * k, ((r + 1) % p) as i32, 0, b));
                    ev.push(irecv(2 * k + 1, ((r + p - 1) % p) as i32, 0, b));
                    ev.push(wait(2 * k + 1, ((r + p - 1) % p) as i32, 0, b));
                    ev.push(wait(2 * k, -1, -1, 0));
                }
                tr(r, p, &ev)
            })
            .collect();
        // neighbours: 2 routers x 50 ns + one 100 ns link; 1 GB/s
        let l = 2.0 * 50e-9 + 100e-9;
        let want = steps as f64 * (1e-6 + l + b as f64 / 1e9);
        let pn = run_net(&traces, &tc, &ring8());
        let pa = run(&traces, &tc, &CommModel::constant(l, 1e9)).unwrap();
        for r in 0..p as usize {
            assert!((pn.ranks[r].time_s - want).abs() < 1e-12, "rank {r}: {} != {want}", pn.ranks[r].time_s);
            assert!((pa.ranks[r].time_s - want).abs() < 1e-12, "rank {r}: {} != {want}", pa.ranks[r].time_s);
        }
    }

    #[test]
    fn nsim_hot_spot_serialises() {
        // ranks 1..7 send 16 KiB to rank 0 at t = 0
        let (p, b) = (8u32, 16384u64);
        let tc = vec![vec![0.0]; p as usize];
        let mut traces = vec![];
        let mut ev0 = vec![];
        for s in 1..p {
            ev0.push(irecv(s, s as i32, 0, b));
        }
        for s in 1..p {
            ev0.push(wait(s, s as i32, 0, b));
        }
        traces.push(tr(0, p, &ev0));
        for r in 1..p {
            traces.push(tr(r, p, &[isend(1, 0, 0, b), wait(1, -1, -1, 0)]));
        }
        let pn = run_net(&traces, &tc, &ring8());
        let pa = run(&traces, &tc, &CommModel::constant(200e-9, 1e9)).unwrap();
        let ser = (p - 1) as f64 * b as f64 / 1e9;
        assert!(pn.ranks[0].time_s >= ser, "{} < {ser}", pn.ranks[0].time_s);
        // the table model has every message arrive in parallel
        assert!(pa.ranks[0].time_s < 3e-5 && pn.ranks[0].time_s > pa.ranks[0].time_s + 5.0 * b as f64 / 1e9);
        let again = run_net(&traces, &tc, &ring8());
        assert_eq!(pn.ranks[0].time_s, again.ranks[0].time_s);
    }
}
