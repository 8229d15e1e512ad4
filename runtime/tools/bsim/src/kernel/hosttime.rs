//! Host CPU time as compute: code of the skeleton that runs (kept statements,
//! compute blocks without a time, whole programs) costs what its thread spends
//! on the host CPU between two BSIM calls, as SMPI charges it
//! (`smpi/simulate-computation`): measured from a rank's `LMPI_Init` to its
//! `LMPI_Finalize`, bursts below the platform's `[compute] threshold` dropped,
//! scaled by `[compute] factor`. Time spent inside BSIM itself is never charged.

use super::engine::sim;
use super::rank::Rank;

/// CPU time of the calling thread (a rank's host time: wall time would count the
/// time the rank's thread waits for a core among thousands).
pub fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid timespec pointer; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

impl Rank {
    /// Charge the host time of the burst that ends here, at an MPI call (when
    /// measuring): what was measured since the last mark plus what block
    /// boundaries set aside ([`Rank::accrue_host`]), dropped below the
    /// threshold as one burst; then mark now.
    pub fn charge_host(&mut self) {
        if self.host_mark.is_nan() {
            return;
        }
        let now = thread_cpu_seconds();
        let c = sim().plat.compute;
        let dt = now - self.host_mark + std::mem::take(&mut self.host_acc);
        if dt >= c.threshold && dt > 0.0 {
            let t = dt * c.factor;
            self.add_time(t);
        }
        self.host_mark = now;
    }

    /// Set the host time since the last mark aside for the burst's charge at
    /// the next MPI call, then mark now: a compute block's begin and end, and a
    /// timed block's `BSIM_Add_time`, are not MPI calls, so they do not end
    /// SMPI's burst (cutting it there dropped the parts below the threshold:
    /// LU class S on 16 ranks, whose bursts between messages are about 1 us,
    /// was charged a third less than SMPI charges).
    pub fn accrue_host(&mut self) {
        if self.host_mark.is_nan() {
            return;
        }
        let now = thread_cpu_seconds();
        self.host_acc += now - self.host_mark;
        self.host_mark = now;
    }

    /// Start measuring (`LMPI_Init`), if the platform charges host time.
    pub fn host_start(&mut self) {
        if sim().plat.compute.host {
            self.host_mark = thread_cpu_seconds();
        }
    }

    /// Charge what is left and stop measuring (`LMPI_Finalize`).
    pub fn host_stop(&mut self) {
        self.charge_host();
        self.host_mark = f64::NAN;
    }

    /// Mark now without charging (the end of a BSIM call).
    pub fn host_resume(&mut self) {
        if !self.host_mark.is_nan() {
            self.host_mark = thread_cpu_seconds();
        }
    }

    /// `BSIM_Block_begin`: a compute block without a time runs in the skeleton
    /// (its time is the host time charged around it). Blocks nest: one may call
    /// a function, of this file or another, that has blocks of its own.
    pub fn block_begin(&mut self, id: i32) {
        self.accrue_host();
        self.blocks.push(id);
    }

    /// `BSIM_Block_end`: the innermost running block must be `id`.
    pub fn block_end(&mut self, id: i32) -> Result<(), String> {
        self.accrue_host();
        match self.blocks.pop() {
            Some(b) if b == id => Ok(()),
            Some(b) => Err(format!("block {id} ends but block {b} is the innermost one running (a jump out of a timed block?)")),
            None => Err(format!("block {id} ends but no block is running (a jump into a timed block?)")),
        }
    }
}
