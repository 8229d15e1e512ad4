//! The run-time state behind the C ABI (`include/xmpc_workshare.h`): one per process.
//!
//! A device loop over the node's iterations `lo..=hi` is split by the CPU weight w:
//! the first `w·n` iterations go to the CPU part, cut into `XMP_STARPU_NCPU` small
//! tasks run by the CPU workers; the rest (a whole number of blocks) to the GPU part,
//! cut into `XMP_STARPU_NCUDA` large tasks run by the GPU driver (the calling
//! thread). Each task has its own reduction slots, combined in task order.
use crate::device::{self, Emu, Spec};
use crate::pool::Pool;
use crate::weight::{imbalance, AutoWeight, Obs};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;
use std::time::Instant;

/// `void cpu(long lo, long hi, void *args, void *red)`: iterations lo..=hi.
pub type CpuFn = unsafe extern "C" fn(i64, i64, *mut c_void, *mut c_void);
/// `void gpu(long lo, long hi, void *args, void *red)`: launches the kernel for
/// lo..=hi through [`crate::ffi::xmpc_dev_launch`].
pub type GpuFn = unsafe extern "C" fn(i64, i64, *mut c_void, *mut c_void);

/// Reduction operator and element type codes (`XMPC_DEV_RED_*` in the header).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RedOp {
    Sum,
    Prod,
    Max,
    Min,
}
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RedTy {
    F64,
    F32,
    I32,
    I64,
}

/// One 8-byte reduction slot.
pub fn identity(op: RedOp, ty: RedTy) -> [u8; 8] {
    let mut b = [0u8; 8];
    match ty {
        RedTy::F64 => {
            b = (match op {
                RedOp::Sum => 0.0,
                RedOp::Prod => 1.0,
                RedOp::Max => f64::NEG_INFINITY,
                RedOp::Min => f64::INFINITY,
            })
            .to_ne_bytes()
        }
        RedTy::F32 => b[..4].copy_from_slice(
            &(match op {
                RedOp::Sum => 0.0f32,
                RedOp::Prod => 1.0,
                RedOp::Max => f32::NEG_INFINITY,
                RedOp::Min => f32::INFINITY,
            })
            .to_ne_bytes(),
        ),
        RedTy::I32 => b[..4].copy_from_slice(
            &(match op {
                RedOp::Sum => 0i32,
                RedOp::Prod => 1,
                RedOp::Max => i32::MIN,
                RedOp::Min => i32::MAX,
            })
            .to_ne_bytes(),
        ),
        RedTy::I64 => {
            b = (match op {
                RedOp::Sum => 0i64,
                RedOp::Prod => 1,
                RedOp::Max => i64::MIN,
                RedOp::Min => i64::MAX,
            })
            .to_ne_bytes()
        }
    }
    b
}

/// `acc = acc op x` on one slot.
pub fn combine(op: RedOp, ty: RedTy, acc: &mut [u8; 8], x: &[u8; 8]) {
    macro_rules! go {
        ($t:ty, $n:expr) => {{
            let a = <$t>::from_ne_bytes(acc[..$n].try_into().unwrap());
            let b = <$t>::from_ne_bytes(x[..$n].try_into().unwrap());
            let r = match op {
                RedOp::Sum => a + b,
                RedOp::Prod => a * b,
                RedOp::Max => {
                    if b > a {
                        b
                    } else {
                        a
                    }
                }
                RedOp::Min => {
                    if b < a {
                        b
                    } else {
                        a
                    }
                }
            };
            acc[..$n].copy_from_slice(&r.to_ne_bytes());
        }};
    }
    match ty {
        RedTy::F64 => go!(f64, 8),
        RedTy::F32 => go!(f32, 4),
        RedTy::I32 => go!(i32, 4),
        RedTy::I64 => go!(i64, 8),
    }
}

/// What one device loop asks for.
pub struct LoopReq<'a> {
    pub name: &'a str,
    pub lo: i64,
    pub hi: i64,
    pub cpu: CpuFn,
    pub gpu: Option<GpuFn>,
    pub args: *mut c_void,
    pub reds: &'a [(RedOp, RedTy)],
    /// Bytes each iteration moves between host and device (in + out), for the
    /// emulated device's transfer time and the re-split cost.
    pub bytes_per_iter: f64,
    /// Replicated arrays the loop writes by rows: (replicated copy, global index of
    /// row 0, bytes per row). On a CUDA device the rows each part wrote are copied to
    /// the other side after the loop, so both copies stay whole.
    pub writes: &'a [(usize, i64, i64)],
}

/// A replicated array: the host copy the tasks see (64-byte aligned), the node's
/// local array it syncs with, and its device copy.
pub struct Rep {
    pub local: usize,
    pub bytes: usize,
    pub dev: Option<u64>,
    layout: std::alloc::Layout,
}

/// Times of the last device loop.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoopTimes {
    pub w: f64,
    pub n_cpu: u64,
    pub n_gpu: u64,
    pub t_cpu: f64,
    pub t_gpu: f64,
    /// Slowest single task of each part.
    pub task_cpu: f64,
    pub task_gpu: f64,
}

pub enum Dev {
    None,
    Emu(Emu),
    Cuda(crate::cuda::Gpu),
}

impl Dev {
    pub fn label(&self) -> String {
        match self {
            Dev::None => "none (CPU only)".into(),
            Dev::Emu(e) => format!(
                "emulated GPU (speed={}, launch_us={}, gbps={}{})",
                e.speed,
                e.launch_us,
                e.gbps,
                e.iter_ns.map_or(String::new(), |n| format!(", iter_ns={n}: CPU times modelled too"))
            ),
            Dev::Cuda(g) => format!("cuda ({})", g.name),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WeightMode {
    Fixed(f64),
    Auto,
}

struct LoopState {
    auto: Option<AutoWeight>,
    step: u64,
    /// The weight the next run uses, and the one the last run used.
    w: f64,
    last_w: Option<f64>,
}

pub struct Runtime {
    pub dev: Dev,
    pub pool: Pool,
    pub ncpu: usize,
    pub ncuda: usize,
    pub block: u64,
    pub mode: WeightMode,
    /// A weight set by reset_weight that the next loops start from.
    pub weight: f64,
    pub last: LoopTimes,
    /// Cost of the last re-split (s) and the sum of all.
    pub resplit_last: f64,
    pub resplit_total: f64,
    pub log: bool,
    loops: HashMap<String, LoopState>,
    alpha_cpu: Option<f64>,
    pub reps: HashMap<usize, Rep>,
    /// A CUDA device whose kernels were loaded (else the GPU part is not used).
    pub kernels_loaded: bool,
    pub warned_no_kernels: bool,
}

fn env_usize(k: &str) -> Option<usize> {
    std::env::var(k).ok().and_then(|v| v.trim().parse().ok())
}

impl Runtime {
    /// Reads the environment; errors are messages for the user (bad XMPC_DEVICE etc.).
    pub fn from_env() -> Result<Runtime, String> {
        let spec = device::parse(&std::env::var("XMPC_DEVICE").unwrap_or_default())?;
        let dev = match spec {
            Spec::None => Dev::None,
            Spec::Emu(e) => Dev::Emu(e),
            Spec::Cuda => Dev::Cuda(crate::cuda::Gpu::open().map_err(|e| format!("XMPC_DEVICE=cuda: {e}"))?),
            Spec::Auto => crate::cuda::Gpu::open().map(Dev::Cuda).unwrap_or(Dev::None),
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // One core drives the GPU (the calling thread); the rest are CPU workers.
        let default_workers = match dev {
            Dev::None => cores.saturating_sub(1),
            _ => cores.saturating_sub(1).max(1),
        };
        let workers = env_usize("XMPC_CPU_WORKERS").unwrap_or(default_workers);
        let ncpu = env_usize("XMP_STARPU_NCPU").unwrap_or(workers.max(1)).max(1);
        let ncuda = env_usize("XMP_STARPU_NCUDA").unwrap_or(1).max(1);
        let block = env_usize("XMPC_DEV_BLOCK").unwrap_or(128).max(1) as u64;
        let mode = match std::env::var("XMPC_WEIGHT").ok().as_deref().map(str::trim) {
            None | Some("") => WeightMode::Fixed(if matches!(dev, Dev::None) { 1.0 } else { 0.5 }),
            Some("auto") => WeightMode::Auto,
            Some(v) => WeightMode::Fixed(
                v.parse::<f64>().ok().filter(|w| (0.0..=1.0).contains(w)).ok_or_else(|| format!("XMPC_WEIGHT={v}: expected auto or a number in [0, 1]"))?,
            ),
        };
        let weight = match mode {
            WeightMode::Fixed(w) => w,
            WeightMode::Auto => 0.5,
        };
        let log = std::env::var_os("XMPC_DEV_LOG").is_some_and(|v| v != "0");
        Ok(Runtime::new(dev, workers, ncpu, ncuda, block, mode, weight, log))
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new(dev: Dev, workers: usize, ncpu: usize, ncuda: usize, block: u64, mode: WeightMode, weight: f64, log: bool) -> Runtime {
        Runtime {
            dev,
            pool: Pool::new(workers),
            ncpu,
            ncuda,
            block,
            mode,
            weight,
            last: LoopTimes::default(),
            resplit_last: 0.0,
            resplit_total: 0.0,
            log,
            loops: HashMap::new(),
            alpha_cpu: None,
            reps: HashMap::new(),
            kernels_loaded: false,
            warned_no_kernels: false,
        }
    }

    /// `reset_weight(w)`: later loops use w (forced to 1 without a device).
    pub fn reset_weight(&mut self, w: f64) {
        self.mode = WeightMode::Fixed(w.clamp(0.0, 1.0));
        self.weight = w.clamp(0.0, 1.0);
        for s in self.loops.values_mut() {
            s.w = self.weight;
        }
    }

    pub fn reset_weight_auto(&mut self) {
        self.mode = WeightMode::Auto;
    }

    /// Fixed cost of one CPU part: empty tasks through the pool, best of 20.
    fn alpha_cpu(&mut self) -> f64 {
        if let Some(a) = self.alpha_cpu {
            return a;
        }
        let mut best = f64::INFINITY;
        for _ in 0..20 {
            let t = Instant::now();
            self.pool.run(self.ncpu, &|_| {}, matches!(self.dev, Dev::None), &mut || {});
            best = best.min(t.elapsed().as_secs_f64());
        }
        self.alpha_cpu = Some(best);
        best
    }

    fn alpha_gpu(&self) -> f64 {
        match &self.dev {
            Dev::None => 0.0,
            Dev::Emu(e) => self.ncuda as f64 * e.launch_us * 1e-6,
            // launch + event overhead of one kernel, a conservative constant until measured
            Dev::Cuda(_) => self.ncuda as f64 * 10e-6,
        }
    }

    /// Runs one device loop; the combined reduction slots go to `red_out`.
    pub fn run_loop(&mut self, r: &LoopReq, red_out: &mut [[u8; 8]]) -> Result<LoopTimes, String> {
        let n = if r.hi >= r.lo { (r.hi - r.lo + 1) as u64 } else { 0 };
        let has_gpu = match self.dev {
            Dev::None => false,
            Dev::Emu(_) => true,
            Dev::Cuda(_) => r.gpu.is_some() && self.kernels_loaded,
        };
        let w_init = if has_gpu { self.weight } else { 1.0 };
        let alpha_c = if has_gpu && self.mode == WeightMode::Auto { self.alpha_cpu() } else { 0.0 };
        let alpha_g = self.alpha_gpu();
        let block = self.block;
        let st = self.loops.entry(r.name.to_string()).or_insert_with(|| LoopState { auto: None, step: 0, w: w_init, last_w: None });
        if !has_gpu {
            st.w = 1.0;
        }
        let w = crate::weight::round_weight(st.w, n, block);
        // A weight changed since the last run (reset_weight or auto): the re-split,
        // costed apart from the loop.
        let moved = st.last_w.filter(|&lw| lw != w);
        st.last_w = Some(w);
        if let Some(from) = moved {
            self.resplit(r, n, from, w);
        }
        let n_cpu = ((w * n as f64).round() as u64).min(n);
        let n_gpu = n - n_cpu;
        // tasks: CPU part then GPU part, each cut evenly
        let cut = |lo: i64, cnt: u64, k: usize| -> Vec<(i64, i64)> {
            let k = (k as u64).min(cnt).max(if cnt > 0 { 1 } else { 0 });
            (0..k).map(|i| (lo + (cnt * i / k) as i64, lo + (cnt * (i + 1) / k) as i64 - 1)).collect()
        };
        let cpu_tasks = cut(r.lo, n_cpu, self.ncpu);
        let gpu_tasks = cut(r.lo + n_cpu as i64, n_gpu, self.ncuda);
        let nt = cpu_tasks.len() + gpu_tasks.len();
        let mut slots: Vec<Vec<[u8; 8]>> = (0..nt).map(|_| r.reds.iter().map(|&(op, ty)| identity(op, ty)).collect()).collect();
        let cpu_times: Vec<Mutex<f64>> = cpu_tasks.iter().map(|_| Mutex::new(0.0)).collect();
        let (cpu_slots, gpu_slots) = slots.split_at_mut(cpu_tasks.len());
        let cpu_slot_ptrs: Vec<usize> = cpu_slots.iter_mut().map(|s| s.as_mut_ptr() as usize).collect();
        let args = r.args as usize;
        let cpu_fn = r.cpu;
        let start = Instant::now();
        let mut gpu_times: Vec<f64> = vec![];
        let mut gpu_err: Option<String> = None;
        let dev_ptrs: HashMap<usize, u64> = self.reps.iter().filter_map(|(k, r)| r.dev.map(|d| (*k, d))).collect();
        let dev = &mut self.dev;
        let help = !has_gpu;
        {
            let task = |k: usize| {
                let (lo, hi) = cpu_tasks[k];
                let t = Instant::now();
                // SAFETY: the generated body reads/writes iterations lo..=hi of the
                // loop and its own reduction slots.
                unsafe { cpu_fn(lo, hi, args as *mut c_void, cpu_slot_ptrs[k] as *mut c_void) };
                *cpu_times[k].lock().unwrap() = t.elapsed().as_secs_f64();
            };
            let mut drive_gpu = || {
                for (k, &(lo, hi)) in gpu_tasks.iter().enumerate() {
                    let red = gpu_slots[k].as_mut_ptr() as *mut c_void;
                    let iters = (hi - lo + 1) as f64;
                    match dev {
                        Dev::Emu(e) => {
                            let t = Instant::now();
                            unsafe { cpu_fn(lo, hi, r.args, red) };
                            let body = match e.iter_ns {
                                Some(ns) => iters * ns * 1e-9,
                                None => t.elapsed().as_secs_f64(),
                            };
                            gpu_times.push(e.launch_us * 1e-6 + r.bytes_per_iter * iters / (e.gbps * 1e9) + body / e.speed);
                        }
                        Dev::Cuda(gpu) => {
                            let t = Instant::now();
                            let g = r.gpu.expect("has_gpu");
                            CURRENT_KERNEL_TIME.with(|c| c.set(None));
                            GPU.with(|c| c.set(gpu as *mut crate::cuda::Gpu));
                            DEV_PTRS.with(|c| *c.borrow_mut() = dev_ptrs.clone());
                            unsafe { g(lo, hi, r.args, red) };
                            GPU.with(|c| c.set(std::ptr::null_mut()));
                            let kt = CURRENT_KERNEL_TIME.with(|c| c.take());
                            match kt {
                                Some(Ok(s)) => gpu_times.push(s.max(0.0)),
                                Some(Err(e)) => gpu_err = Some(e),
                                None => gpu_times.push(t.elapsed().as_secs_f64()),
                            }
                        }
                        Dev::None => unreachable!(),
                    }
                }
            };
            self.pool.run(cpu_tasks.len(), &task, help, &mut drive_gpu);
        }
        let wall = start.elapsed().as_secs_f64();
        if let Some(e) = gpu_err {
            return Err(e);
        }
        let ct: Vec<f64> = cpu_times.iter().map(|m| *m.lock().unwrap()).collect();
        let workers = self.pool.workers().max(1) + usize::from(help);
        let t_cpu = match &self.dev {
            Dev::Emu(Emu { iter_ns: Some(ns), .. }) => {
                // modelled: the tasks spread over the workers
                let per: Vec<f64> = cpu_tasks.iter().map(|&(a, b)| (b - a + 1) as f64 * ns * 1e-9).collect();
                let mut lanes = vec![0.0f64; workers.min(per.len()).max(1)];
                for p in per {
                    let i = (0..lanes.len()).min_by(|&a, &b| lanes[a].total_cmp(&lanes[b])).unwrap();
                    lanes[i] += p;
                }
                if n_cpu == 0 {
                    0.0
                } else {
                    alpha_c + lanes.iter().cloned().fold(0.0, f64::max)
                }
            }
            _ if n_cpu == 0 => 0.0,
            _ if !has_gpu => wall,
            _ => ct.iter().sum::<f64>() / workers.min(ct.len()).max(1) as f64 + alpha_c,
        };
        let t_gpu: f64 = gpu_times.iter().fold(0.0, |a, b| a + b);
        if let Dev::Cuda(g) = &mut self.dev {
            if has_gpu {
                let cpu_rows = (r.lo, r.lo + n_cpu as i64 - 1);
                let gpu_rows = (r.lo + n_cpu as i64, r.hi);
                for &(rep, off, row) in r.writes {
                    let Some(rp) = self.reps.get(&rep) else { return Err("a device loop writes an array that is not replicated".into()) };
                    let Some(d) = rp.dev else { continue };
                    let range = |(a, b): (i64, i64)| -> Option<(usize, usize)> {
                        (b >= a).then(|| (((a - off) * row) as usize, ((b - a + 1) * row) as usize)).filter(|(s, l)| s + l <= rp.bytes)
                    };
                    // SAFETY: the rep block is rp.bytes long; the ranges are checked.
                    if let Some((s0, l)) = range(gpu_rows) {
                        let host = unsafe { std::slice::from_raw_parts_mut((rep + s0) as *mut u8, l) };
                        g.dtoh(host, d + s0 as u64)?;
                    }
                    if let Some((s0, l)) = range(cpu_rows) {
                        let host = unsafe { std::slice::from_raw_parts((rep + s0) as *const u8, l) };
                        g.htod(d + s0 as u64, host)?;
                    }
                }
            }
        }
        for (k, s) in slots.iter().enumerate() {
            for (j, &(op, ty)) in r.reds.iter().enumerate() {
                if k == 0 {
                    red_out[j] = identity(op, ty);
                }
                combine(op, ty, &mut red_out[j], &s[j]);
            }
        }
        let times = LoopTimes {
            w,
            n_cpu,
            n_gpu,
            t_cpu,
            t_gpu,
            task_cpu: ct.iter().cloned().fold(0.0, f64::max),
            task_gpu: gpu_times.iter().cloned().fold(0.0, f64::max),
        };
        self.last = times;
        // next weight
        let st = self.loops.get_mut(r.name).expect("inserted");
        st.step += 1;
        let mut next = st.w;
        let mut note = String::new();
        if has_gpu && self.mode == WeightMode::Auto && n > 0 {
            let a = st.auto.get_or_insert_with(|| AutoWeight::new(alpha_c, alpha_g, block));
            a.resplit_cost = self.resplit_last;
            let d = a.observe(Obs { w, n, t_cpu, t_gpu });
            next = d.w;
            if !d.resplit && d.proposed != w {
                note = format!(" (re-split to {:.4} skipped: predicted gain {:.3e} s/step)", d.proposed, d.gain);
            }
        }
        let step = st.step;
        st.w = next;
        if self.log {
            let dev = self.dev.label();
            // One write per line (eprintln! writes the pieces separately: lines of
            // processes sharing mpiexec's stderr would interleave).
            let line = format!(
                "xmpc-dev: loop {} step {step}: device {dev}: w={w:.4} cpu {n_cpu} it {t_cpu:.6} s, gpu {n_gpu} it {t_gpu:.6} s{}, imbalance {:.3}, next w={next:.4}{note}, re-split cost {:.3e} s\n",
                r.name,
                if matches!(self.dev, Dev::Emu(_)) { " (emulated GPU, modelled)" } else { "" },
                imbalance(t_cpu, t_gpu),
                self.resplit_last,
            );
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        }
        Ok(times)
    }

    /// Re-partitions: the device data of the iterations that change sides come back
    /// (or go) over the bus. The cost is measured (cuda), or modelled from the
    /// emulated bandwidth, and kept apart from the loop times.
    fn resplit(&mut self, r: &LoopReq, n: u64, from: f64, to: f64) {
        let moved = ((from - to).abs() * n as f64).round();
        let cost = match &self.dev {
            Dev::Emu(e) => e.launch_us * 1e-6 + moved * r.bytes_per_iter / (e.gbps * 1e9),
            // the CUDA part keeps whole replicated arrays on the device (see docs):
            // a re-split is a host<->device sync of the moved rows done by the next
            // loop's transfers, so its cost shows there; count the bookkeeping here
            _ => 0.0,
        };
        self.resplit_last = cost;
        self.resplit_total += cost;
    }
}

thread_local! {
    /// Set by `xmpc_dev_launch` inside a GPU task body: the kernel's event time.
    pub static CURRENT_KERNEL_TIME: std::cell::Cell<Option<Result<f64, String>>> = const { std::cell::Cell::new(None) };
}

thread_local! {
    static DEV_PTRS: std::cell::RefCell<HashMap<usize, u64>> = std::cell::RefCell::new(HashMap::new());
    static GPU: std::cell::Cell<*mut crate::cuda::Gpu> = const { std::cell::Cell::new(std::ptr::null_mut()) };
}

/// The CUDA device of the device loop running on this thread (inside its GPU part).
pub fn with_gpu<T>(f: impl FnOnce(&mut crate::cuda::Gpu) -> T) -> Option<T> {
    let p = GPU.with(|c| c.get());
    // SAFETY: set only while run_loop holds &mut to the device on this thread.
    (!p.is_null()).then(|| f(unsafe { &mut *p }))
}

impl Runtime {
    /// `device replicate`: a host copy (and a device copy on CUDA) of `bytes` bytes.
    pub fn replicate(&mut self, local: usize, bytes: usize) -> Result<usize, String> {
        let layout = std::alloc::Layout::from_size_align(bytes.max(1), 64).map_err(|e| e.to_string())?;
        // SAFETY: non-zero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        if p.is_null() {
            return Err(format!("cannot allocate {bytes} bytes for a replicated array"));
        }
        let dev = match &mut self.dev {
            Dev::Cuda(g) => Some(g.alloc(bytes)?),
            _ => None,
        };
        self.reps.insert(p as usize, Rep { local, bytes, dev, layout });
        Ok(p as usize)
    }

    pub fn replicate_end(&mut self, rep: usize) -> Result<(), String> {
        let r = self.reps.remove(&rep).ok_or("replicate end of an array that is not replicated")?;
        if let (Some(d), Dev::Cuda(g)) = (r.dev, &mut self.dev) {
            g.free(d);
        }
        // SAFETY: allocated in `replicate` with this layout.
        unsafe { std::alloc::dealloc(rep as *mut u8, r.layout) };
        Ok(())
    }

    /// `replicate_sync in` (local → replicated → device) or `out` (replicated →
    /// local; the device copy is already merged into the host copy after each loop).
    pub fn sync(&mut self, rep: usize, into_rep: bool) -> Result<(), String> {
        let r = self.reps.get(&rep).ok_or("replicate_sync of an array that is not replicated here")?;
        // SAFETY: both blocks are r.bytes long (the translator sized the copy from the local array).
        unsafe {
            if into_rep {
                std::ptr::copy_nonoverlapping(r.local as *const u8, rep as *mut u8, r.bytes);
            } else {
                std::ptr::copy_nonoverlapping(rep as *const u8, r.local as *mut u8, r.bytes);
            }
        }
        if let (true, Some(d), Dev::Cuda(g)) = (into_rep, r.dev, &mut self.dev) {
            let host = unsafe { std::slice::from_raw_parts(rep as *const u8, r.bytes) };
            g.htod(d, host)?;
        }
        Ok(())
    }
}

/// The device copy of a replicated array, inside a GPU task.
pub fn dev_ptr_of(rep: usize) -> Option<u64> {
    DEV_PTRS.with(|c| c.borrow().get(&rep).copied())
}
