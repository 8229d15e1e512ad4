//! Point-to-point operations of a rank on the in-process engine: sends,
//! receives and their matching, waits and tests, probes.

use super::engine::{lock, sim, Inbox, Msg, WaitDesc, W_RDV, W_RECV};
use super::rank::{Matched, Rank, Req, St, ANY_SOURCE, ANY_TAG, PROC_NULL};
use std::sync::MutexGuard;

impl Rank {
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
    pub(crate) fn isend_to(&mut self, ctx: u64, dw: u32, tag: i32, bytes: u64, data: Option<&[u8]>, blocking: bool, sync: bool) -> i32 {
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
        let payload = data.map(|d| d.to_vec());
        let mut nk = 0;
        if let Some(net) = &s.net {
            self.next_nk += 1;
            nk = (self.id as u64) << 40 | self.next_nk;
            if !rdv && bytes < s.plat.async_threshold {
                let m = super::netmodel::Inj { src: self.id, dst: dw, bytes: bytes + s.plat.header_bytes, nk, sid };
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
    pub(crate) fn progress(&mut self, g: &mut Inbox, granted: &mut bool) -> (Vec<(u32, u64, f64)>, Option<f64>) {
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
                    let inj = super::netmodel::Inj { src: m.src, dst: self.id, bytes: m.bytes + s.plat.header_bytes, nk: m.nk, sid: m.sid };
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
            *matched = Some(Matched { tc: tc.max(post), pending, nk: m.nk, start, src_comm, tag: m.tag, bytes: m.bytes, src_world: m.src, ts: m.ts });
        }
        (notes, undecided)
    }

    /// Record what `hs` wait for in `w` (reusing its buffer); returns how many
    /// deliveries they still need.
    pub(crate) fn wait_desc(&self, call: &'static str, hs: &[usize], w: &mut WaitDesc) -> u32 {
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
    pub(crate) fn lower_bound(&self, h: usize) -> f64 {
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
    pub(crate) fn block<T>(&mut self, call: &'static str, hs: &[usize], all: bool, mut decide: impl FnMut(&mut Rank, bool) -> Result<T, Option<f64>>) -> T {
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
    pub(crate) fn settled(&mut self, granted: &mut bool) -> (MutexGuard<'static, Inbox>, Option<f64>) {
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
    pub(crate) fn flush_net_inj(&mut self) {
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

    pub(crate) fn complete(&mut self, h: usize, st: Option<&mut St>) {
        let Some(r) = self.free_req(h) else { return };
        match r {
            Req::Send { done, ts, .. } => self.finish_send(ts, done.unwrap()),
            Req::Recv { matched, post, comm, .. } => {
                let m = matched.unwrap();
                self.finish_recv(m.tc, m.start, post);
                if sim().timeline {
                    self.msgs.push(crate::output::MsgRec { src: m.src_world, ts: m.ts, tr: self.clock, bytes: m.bytes, tag: m.tag });
                }
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
}
