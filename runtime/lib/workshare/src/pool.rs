//! CPU workers: a small persistent pool, one job at a time, tasks claimed from an
//! atomic index. Not rayon (its global pool would fight the MPI ranks sharing a node
//! and the tasks are few and coarse) and not a thread per loop (a spawn costs more
//! than the 5 µs per task budget). Workers spin briefly for the next job, then park.
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

type TaskFn = dyn Fn(usize) + Sync;

struct Job {
    /// Lifetime erased; valid until `done == ntasks` (run() waits for that).
    f: *const TaskFn,
    ntasks: usize,
    next: AtomicUsize,
    done: AtomicUsize,
}
// SAFETY: `f` is Sync and outlives every use (run() blocks until all tasks are done).
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

impl Job {
    /// Claims and runs tasks until none is left; true when this call ran the last one.
    fn work(&self) -> bool {
        let mut last = false;
        loop {
            let k = self.next.fetch_add(1, Ordering::AcqRel);
            if k >= self.ntasks {
                return last;
            }
            // SAFETY: see `Job::f`.
            unsafe { (*self.f)(k) };
            last = self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.ntasks;
        }
    }
}

struct Inner {
    gen: AtomicU64,
    job: Mutex<Option<Arc<Job>>>,
    wake: Condvar,
    done: Mutex<()>,
    done_cv: Condvar,
    stop: std::sync::atomic::AtomicBool,
}

pub struct Pool {
    inner: Arc<Inner>,
    threads: Vec<JoinHandle<()>>,
}

const SPIN: Duration = Duration::from_micros(200);

impl Pool {
    /// `workers` threads (0 is allowed: the caller then runs every task itself).
    pub fn new(workers: usize) -> Pool {
        let inner = Arc::new(Inner {
            gen: AtomicU64::new(0),
            job: Mutex::new(None),
            wake: Condvar::new(),
            done: Mutex::new(()),
            done_cv: Condvar::new(),
            stop: false.into(),
        });
        let threads = (0..workers)
            .map(|i| {
                let inner = inner.clone();
                std::thread::Builder::new().name(format!("xmpc-ws-cpu{i}")).spawn(move || worker(&inner)).expect("spawn a CPU worker")
            })
            .collect();
        Pool { inner, threads }
    }

    pub fn workers(&self) -> usize {
        self.threads.len()
    }

    /// Runs `f(0..ntasks)` on the workers; the caller joins in when `help` (or when
    /// there are no workers), otherwise `while_waiting` runs on the caller meanwhile
    /// (the GPU driver's work). Returns when every task has finished.
    pub fn run<'f>(&self, ntasks: usize, f: &'f (dyn Fn(usize) + Sync + 'f), help: bool, while_waiting: &mut dyn FnMut()) {
        if ntasks == 0 {
            while_waiting();
            return;
        }
        // SAFETY: the lifetime is erased only for the duration of this call.
        let f: *const TaskFn = unsafe { std::mem::transmute::<&'f (dyn Fn(usize) + Sync + 'f), &'static TaskFn>(f) };
        let job = Arc::new(Job { f, ntasks, next: 0.into(), done: 0.into() });
        *self.inner.job.lock().unwrap() = Some(job.clone());
        self.inner.gen.fetch_add(1, Ordering::AcqRel);
        self.inner.wake.notify_all();
        while_waiting();
        if help || self.threads.is_empty() {
            job.work();
        }
        let t0 = Instant::now();
        while job.done.load(Ordering::Acquire) < ntasks {
            if t0.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            let g = self.inner.done.lock().unwrap();
            if job.done.load(Ordering::Acquire) < ntasks {
                let _ = self.inner.done_cv.wait_timeout(g, Duration::from_millis(1)).unwrap();
            }
        }
        *self.inner.job.lock().unwrap() = None;
    }
}

fn worker(inner: &Inner) {
    let mut seen = 0u64;
    loop {
        let t0 = Instant::now();
        let mut g = inner.gen.load(Ordering::Acquire);
        while g == seen && t0.elapsed() < SPIN {
            std::hint::spin_loop();
            g = inner.gen.load(Ordering::Acquire);
        }
        if g == seen {
            let mut lock = inner.job.lock().unwrap();
            loop {
                if inner.stop.load(Ordering::Acquire) {
                    return;
                }
                g = inner.gen.load(Ordering::Acquire);
                if g != seen {
                    break;
                }
                lock = inner.wake.wait(lock).unwrap();
            }
        }
        if inner.stop.load(Ordering::Acquire) {
            return;
        }
        seen = g;
        let job = inner.job.lock().unwrap().clone();
        if let Some(job) = job {
            if job.work() {
                let _g = inner.done.lock().unwrap();
                inner.done_cv.notify_all();
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.inner.stop.store(true, Ordering::Release);
        {
            let _l = self.inner.job.lock().unwrap();
            self.inner.wake.notify_all();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_runs_once() {
        let p = Pool::new(2);
        for round in 0..200 {
            let n = 1 + round % 17;
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            p.run(
                n,
                &|k| {
                    hits[k].fetch_add(1, Ordering::Relaxed);
                },
                round % 2 == 0,
                &mut || {},
            );
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "round {round}");
        }
    }

    #[test]
    fn no_workers_runs_on_the_caller() {
        let p = Pool::new(0);
        let c = AtomicUsize::new(0);
        p.run(
            5,
            &|_| {
                c.fetch_add(1, Ordering::Relaxed);
            },
            false,
            &mut || {},
        );
        assert_eq!(c.load(Ordering::Relaxed), 5);
    }
}
