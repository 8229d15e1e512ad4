//! A rank that dies of a memory fault says so: which rank, in which call,
//! and whether it overflowed its stack (the fault is on the guard page below
//! it), with the size it had and how to raise it. The process then dies of the
//! same signal (the default action), so `xmpc bsim run` reports it too.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The contexts' stack region: base, bytes per stack, ranks (0: none).
static REGION: [AtomicUsize; 3] = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)];
/// Stack bytes per rank (for the message).
static STACK: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Threads back end: the lowest address of this rank thread's stack.
    static LOW: Cell<usize> = const { Cell::new(0) };
}

/// The contexts back end's stacks: `n` stacks of `stack` bytes from `base`.
pub fn set_region(base: usize, stack: usize, n: usize) {
    REGION[0].store(base, Relaxed);
    REGION[1].store(stack, Relaxed);
    REGION[2].store(n, Relaxed);
}

/// Install the handler (once per process) and an alternate signal stack for the
/// calling thread (each rank thread of the threads back end, the contexts' thread).
pub fn install(stack_bytes: usize) {
    STACK.store(stack_bytes, Relaxed);
    // SAFETY: plain libc calls with valid arguments; the alternate stack is leaked
    // on purpose (it must outlive the thread's last signal).
    unsafe {
        let alt = 64 * 1024;
        let p = libc::mmap(std::ptr::null_mut(), alt, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE, -1, 0);
        if p != libc::MAP_FAILED {
            let ss = libc::stack_t { ss_sp: p, ss_flags: 0, ss_size: alt };
            libc::sigaltstack(&ss, std::ptr::null_mut());
        }
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) == 0 {
            let mut addr = std::ptr::null_mut();
            let mut size = 0;
            libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
            LOW.with(|l| l.set(addr as usize));
            libc::pthread_attr_destroy(&mut attr);
        }
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = handler as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESETHAND;
        libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut());
        libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
    }
}

/// A small formatter that does not allocate (the handler may not).
struct Buf {
    b: [u8; 512],
    n: usize,
}

impl Buf {
    fn s(&mut self, t: &str) -> &mut Self {
        for &c in t.as_bytes() {
            if self.n < self.b.len() {
                self.b[self.n] = c;
                self.n += 1;
            }
        }
        self
    }
    fn u(&mut self, mut v: usize) -> &mut Self {
        let mut d = [0u8; 20];
        let mut k = 0;
        loop {
            d[k] = b'0' + (v % 10) as u8;
            k += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        while k > 0 {
            k -= 1;
            let c = [d[k]];
            self.s(std::str::from_utf8(&c).unwrap_or("?"));
        }
        self
    }
}

extern "C" fn handler(sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    let r = super::current::get();
    let mut b = Buf { b: [0; 512], n: 0 };
    b.s("bsim: ");
    let (rank, call) = if r.is_null() {
        (None, "")
    } else {
        // SAFETY: the current rank of this thread; only read.
        unsafe { (Some((*r).id as usize), (*r).call) }
    };
    match rank {
        Some(id) => b.s("rank ").u(id).s(": "),
        None => b.s("the process: "),
    };
    let page = 4096;
    let (base, size, n) = (REGION[0].load(Relaxed), REGION[1].load(Relaxed), REGION[2].load(Relaxed));
    let in_ctx_guard = size > 0 && addr >= base && addr < base + size * n && (addr - base) % size < page;
    let low = LOW.with(|l| l.get());
    let in_thread_guard = low > 0 && addr < low + page && addr + 16 * page >= low;
    if in_ctx_guard || in_thread_guard {
        b.s("stack overflow (each rank has ").u(STACK.load(Relaxed) / 1024).s(" KiB of stack: give more with `xmpc bsim run --stack-kb N` or BSIM_STACK_KB)");
    } else {
        b.s(if sig == libc::SIGBUS { "bus error" } else { "segmentation fault" }).s(" at address ").u(addr);
        if !call.is_empty() {
            b.s(" (last call ").s(call).s(")");
        }
    }
    b.s("\n");
    // SAFETY: write(2) and raise(3) are async-signal-safe; SA_RESETHAND restored
    // the default action, so the raise ends the process with this signal.
    unsafe {
        libc::write(2, b.b.as_ptr() as *const libc::c_void, b.n);
        libc::raise(sig);
    }
}
