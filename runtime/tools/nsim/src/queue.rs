//! The pending-event set: a calendar queue.
//!
//! Buckets of a fixed width `W` (a power of two in picoseconds) cover a
//! rolling horizon of `N·W`; events beyond it wait in an overflow heap. The
//! bucket being processed is kept sorted, so a pop is a `Vec::pop`. Events
//! come out in exactly `(time, key)` order, as from a heap, so results do not
//! depend on the queue; but a push is O(1) and only one small bucket is
//! touched at a time, where a heap of 10⁵ events missed the cache on every
//! level of every pop.

use crate::Time;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Ev {
    pub t: Time,
    pub key: u64,
    pub a: u32,
    /// a second argument (for packet events: the output link), a prefetch hint.
    pub b: u32,
}

impl Ev {
    #[inline]
    fn ord(&self) -> u128 {
        (self.t as u128) << 64 | self.key as u128
    }
}

/// A binary min-heap by `(t, key)`, for the far-future overflow.
#[derive(Default)]
struct Heap {
    v: std::collections::BinaryHeap<std::cmp::Reverse<(u128, u64)>>,
}
impl Heap {
    fn push(&mut self, e: &Ev) {
        self.v.push(std::cmp::Reverse((e.ord(), e.a as u64 | (e.b as u64) << 32)));
    }
    fn peek_t(&self) -> Option<Time> {
        self.v.peek().map(|r| (r.0 .0 >> 64) as Time)
    }
    fn pop(&mut self) -> Option<Ev> {
        self.v.pop().map(|r| {
            let (o, ab) = r.0;
            Ev { t: (o >> 64) as Time, key: o as u64, a: ab as u32, b: (ab >> 32) as u32 }
        })
    }
    fn iter(&self) -> impl Iterator<Item = Ev> + '_ {
        self.v.iter().map(|r| Ev { t: (r.0 .0 >> 64) as Time, key: r.0 .0 as u64, a: r.0 .1 as u32, b: (r.0 .1 >> 32) as u32 })
    }
}

pub(crate) struct EvQueue {
    shift: u32,
    mask: u64,
    /// `cur` holds every event with `t < cur_end`, sorted by decreasing order.
    cur_end: Time,
    cur: Vec<Ev>,
    buckets: Vec<Vec<Ev>>,
    in_buckets: usize,
    overflow: Heap,
    len: usize,
}

impl EvQueue {
    /// `width`: about the smallest gap between an event and the ones it
    /// causes (it is rounded down to a power of two); `n`: buckets (power of two).
    pub fn new(width: Time, n: usize) -> EvQueue {
        let shift = 63 - width.max(1).leading_zeros();
        let n = n.next_power_of_two().max(2);
        EvQueue {
            shift,
            mask: n as u64 - 1,
            cur_end: 0,
            cur: Vec::new(),
            buckets: (0..n).map(|_| Vec::new()).collect(),
            in_buckets: 0,
            overflow: Heap::default(),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn push(&mut self, e: Ev) {
        self.len += 1;
        if e.t < self.cur_end {
            // rare: an event inside the bucket being processed
            let o = e.ord();
            let i = self.cur.partition_point(|x| x.ord() > o);
            self.cur.insert(i, e);
        } else if (e.t - self.cur_end) >> self.shift <= self.mask {
            self.buckets[((e.t >> self.shift) & self.mask) as usize].push(e);
            self.in_buckets += 1;
        } else {
            self.overflow.push(&e);
        }
    }

    /// The earliest event, without removing it.
    #[inline]
    pub fn peek(&mut self) -> Option<Ev> {
        if self.cur.is_empty() && !self.refill() {
            return None;
        }
        self.cur.last().copied()
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Ev> {
        if self.cur.is_empty() && !self.refill() {
            return None;
        }
        self.len -= 1;
        self.cur.pop()
    }

    /// Move to the next non-empty bucket; false when the queue is empty.
    #[cold]
    fn refill(&mut self) -> bool {
        if self.len == 0 {
            return false;
        }
        let w = 1 << self.shift;
        loop {
            if self.in_buckets == 0 {
                // nothing within the horizon: jump to the overflow's first event
                let t = self.overflow.peek_t().expect("queue length out of step");
                self.cur_end = t.max(self.cur_end) >> self.shift << self.shift;
            }
            let start = self.cur_end;
            self.cur_end = start + w;
            let b = ((start >> self.shift) & self.mask) as usize;
            std::mem::swap(&mut self.cur, &mut self.buckets[b]);
            self.in_buckets -= self.cur.len();
            while self.overflow.peek_t().is_some_and(|t| t < self.cur_end) {
                let e = self.overflow.pop().unwrap();
                self.cur.push(e);
            }
            if !self.cur.is_empty() {
                self.cur.sort_unstable_by_key(|e| std::cmp::Reverse(e.ord()));
                return true;
            }
        }
    }

    /// The next event if it is already in the current bucket (no refill):
    /// a hint for prefetching.
    #[inline]
    pub fn next_hint(&self) -> Option<&Ev> {
        self.cur.last()
    }

    /// The event after that one, same conditions.
    #[inline]
    pub fn next_hint2(&self) -> Option<&Ev> {
        self.cur.len().checked_sub(2).map(|i| &self.cur[i])
    }

    /// Every pending event, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = Ev> + '_ {
        self.cur.iter().copied().chain(self.buckets.iter().flatten().copied()).chain(self.overflow.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pops in (t, key) order for a random mix of near, far and immediate events.
    #[test]
    fn pops_in_time_key_order() {
        let mut q = EvQueue::new(1000, 16);
        let mut reference = std::collections::BinaryHeap::new();
        let mut x: u64 = 12345;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut now = 0;
        let mut out = vec![];
        let mut expect = vec![];
        for step in 0..20000 {
            let n = (rnd() % 3) as usize;
            for _ in 0..n {
                let dt = match rnd() % 4 {
                    0 => 0,
                    1 => rnd() % 500,
                    2 => rnd() % 20000,
                    _ => rnd() % 10_000_000,
                };
                let e = Ev { t: now + dt, key: rnd() % 64, a: step, b: 0 };
                q.push(e);
                reference.push(std::cmp::Reverse((e.t, e.key)));
            }
            if step % 2 == 0 {
                if let Some(e) = q.pop() {
                    now = e.t;
                    out.push((e.t, e.key));
                    expect.push(reference.pop().unwrap().0);
                }
            }
        }
        while let Some(e) = q.pop() {
            out.push((e.t, e.key));
            expect.push(reference.pop().unwrap().0);
        }
        assert!(reference.is_empty() && q.is_empty());
        assert_eq!(out, expect);
    }
}
