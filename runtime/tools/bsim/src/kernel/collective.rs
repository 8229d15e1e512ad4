//! Collective operations of a rank on the in-process engine: the members meet,
//! the last one to arrive computes everybody's exit time (and, with payload,
//! moves the data); communicator creation agrees on contexts.

use super::coll::{self, CollKind};
use super::collargs::{self, CollArgs};
use super::engine::{lock, sim, Meeting, Sim};
use super::rank::{mix, Rank, Req, St};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex};

impl Rank {
    /// A collective: meet the other members, get my exit time.
    pub fn collective(&mut self, comm: i32, kind: CollKind, args: CollArgs) -> Option<(u64, Arc<Vec<u32>>)> {
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
            let table = s.plat.coll_mode == super::model::CollMode::Table;
            if !table || !s.plat.coll.ops.contains_key(op) {
                // NSIM mode: the decomposed algorithm as real messages, no meeting
                // (a member waiting for the others on the host would inject late)
                if table {
                    s.warn_once(op, format!("collective table has no `{op}` entries; using the point-to-point decomposition"));
                }
                let shape = super::netmodel::local_shape(kind, me, &args, p);
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
            if let Err(e) = collargs::check_coll(kind, &a, &members) {
                drop(a);
                super::current::fail(self, self.call, e);
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
fn finish_meeting(s: &Sim, kind: CollKind, members: &[u32], args: &mut [Option<CollArgs>], ctx: u64) -> (Vec<f64>, Split, Vec<Vec<coll::Op>>) {
    // the other members' buffers and counts, where they are now (contexts)
    let own: Vec<CollArgs> = args.iter().zip(members).map(|(x, &w)| x.as_ref().unwrap().located(w)).collect();
    let a: Vec<&CollArgs> = own.iter().collect();
    let arrive: Vec<f64> = a.iter().map(|x| x.arrive).collect();
    let shape = collargs::shape_of(kind, &a);
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
    if s.payload || a.iter().any(|x| x.carry != 0) {
        let root = a[0].root.max(0) as usize;
        let moved: Vec<CollArgs> = a.iter().enumerate().map(|(i, x)| x.carried(kind, i == root, s.payload)).collect();
        let m: Vec<&CollArgs> = moved.iter().collect();
        if let Err(e) = collargs::move_data(kind, &m) {
            s.warn_once("reduce-op", e);
        }
    }
    let mut split = vec![];
    if kind == CollKind::CommSplit || kind == CollKind::CommDup {
        // groups by color, ordered by (key, old rank); ctx agreed from the parent's
        let mut colors: Vec<i64> = a.iter().map(|x| x.color).collect();
        colors.sort();
        colors.dedup();
        let mut by_color: HashMap<i64, Arc<Vec<u32>>> = HashMap::new();
        for &col in &colors {
            if col == super::UNDEFINED as i64 {
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
