//! The C ABI (`include/xmpc_workshare.h`), with the thesis' names as aliases where
//! it had them (`xmp_cpu_wtime`, `xmp_gpu_wtime`). Errors print one located line and
//! exit(1) — never a panic across the ABI.
use crate::rt::{CpuFn, GpuFn, LoopReq, RedOp, RedTy, Runtime, CURRENT_KERNEL_TIME};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::{Mutex, MutexGuard, OnceLock};

static RT: OnceLock<Mutex<Runtime>> = OnceLock::new();

/// A directive's source location, laid out as `xmpc_loc` of xmpc_rt.h.
#[repr(C)]
pub struct Loc {
    pub file: *const c_char,
    pub line: c_int,
    pub text: *const c_char,
}

fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        "?".into()
    } else {
        // SAFETY: NUL-terminated strings from the generated code.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

fn die(loc: *const Loc, msg: &str) -> ! {
    // SAFETY: NULL or a static xmpc_loc.
    let at = match unsafe { loc.as_ref() } {
        Some(l) => format!("{}:{}: {}", cstr(l.file), l.line, cstr(l.text)),
        None => "xmpc-dev".into(),
    };
    eprintln!("xmpc runtime error: {at}: {msg}");
    std::process::exit(1)
}

fn rt(loc: *const Loc) -> MutexGuard<'static, Runtime> {
    let m = RT.get_or_init(|| match Runtime::from_env() {
        Ok(r) => Mutex::new(r),
        Err(e) => die(loc, &e),
    });
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The loop descriptor the generated launcher fills.
#[repr(C)]
pub struct XmpcDevLoop {
    pub name: *const c_char,
    pub lo: i64,
    pub hi: i64,
    pub cpu: Option<CpuFn>,
    pub gpu: Option<GpuFn>,
    pub args: *mut c_void,
    pub nred: c_int,
    /// per reduction: op (0 sum, 1 prod, 2 max, 3 min) and type (0 double, 1 float, 2 int, 3 long)
    pub red_ops: *const c_int,
    pub red_types: *const c_int,
    /// nred slots of 8 bytes: the combined result over all tasks
    pub red_out: *mut c_void,
    pub bytes_per_iter: f64,
    pub nwrite: c_int,
    pub wrep: *const *mut c_void,
    pub woff: *const std::ffi::c_long,
    pub wrow: *const std::ffi::c_long,
}

/// Runs one device loop (see `rt::Runtime::run_loop`).
///
/// # Safety
/// `d` points to a filled descriptor whose functions and pointers are valid.
#[no_mangle]
pub unsafe extern "C" fn xmpc_dev_loop(loc: *const Loc, d: *const XmpcDevLoop) {
    let d = &*d;
    let Some(cpu) = d.cpu else { die(loc, "device loop without a CPU body") };
    let name = if d.name.is_null() { "loop".to_string() } else { CStr::from_ptr(d.name).to_string_lossy().into_owned() };
    let mut reds = vec![];
    for i in 0..d.nred.max(0) as usize {
        let op = match *d.red_ops.add(i) {
            0 => RedOp::Sum,
            1 => RedOp::Prod,
            2 => RedOp::Max,
            3 => RedOp::Min,
            o => die(loc, &format!("unknown reduction operator code {o}")),
        };
        let ty = match *d.red_types.add(i) {
            0 => RedTy::F64,
            1 => RedTy::F32,
            2 => RedTy::I32,
            3 => RedTy::I64,
            t => die(loc, &format!("unknown reduction type code {t}")),
        };
        reds.push((op, ty));
    }
    let writes: Vec<(usize, i64, i64)> = (0..d.nwrite.max(0) as usize).map(|i| (*d.wrep.add(i) as usize, *d.woff.add(i), *d.wrow.add(i))).collect();
    let req = LoopReq { name: &name, lo: d.lo, hi: d.hi, cpu, gpu: d.gpu, args: d.args, reds: &reds, bytes_per_iter: d.bytes_per_iter, writes: &writes };
    let mut out = vec![[0u8; 8]; reds.len()];
    let r = rt(loc).run_loop(&req, &mut out);
    if let Err(e) = r {
        die(loc, &e);
    }
    if !reds.is_empty() {
        std::ptr::copy_nonoverlapping(out.as_ptr() as *const u8, d.red_out as *mut u8, 8 * reds.len());
    }
}

/// `#pragma xmp device reset_weight (w)`.
#[no_mangle]
pub extern "C" fn xmpc_dev_reset_weight(loc: *const Loc, w: f64) {
    if !(0.0..=1.0).contains(&w) {
        die(loc, &format!("reset_weight({w}): the CPU weight must be in [0, 1]"));
    }
    rt(loc).reset_weight(w);
}

/// `#pragma xmp device reset_weight (auto)`.
#[no_mangle]
pub extern "C" fn xmpc_dev_reset_weight_auto(loc: *const Loc) {
    rt(loc).reset_weight_auto();
}

/// Slowest CPU task of the last device loop (s).
#[no_mangle]
pub extern "C" fn xmp_cpu_wtime() -> f64 {
    rt(std::ptr::null()).last.t_cpu
}

/// GPU part of the last device loop (s; modelled on the emulated GPU).
#[no_mangle]
pub extern "C" fn xmp_gpu_wtime() -> f64 {
    rt(std::ptr::null()).last.t_gpu
}

/// The CPU weight the last device loop ran with.
#[no_mangle]
pub extern "C" fn xmpc_dev_weight() -> f64 {
    rt(std::ptr::null()).last.w
}

/// Cost of the last re-split (s), reported apart from the loop times.
#[no_mangle]
pub extern "C" fn xmpc_dev_resplit_cost() -> f64 {
    rt(std::ptr::null()).resplit_last
}

/// Registers the fatbin xmpc embedded; ignored without a CUDA device.
///
/// # Safety
/// `image` points to a fatbin that lives for the whole run.
#[no_mangle]
pub unsafe extern "C" fn xmpc_dev_register_fatbin(loc: *const Loc, image: *const c_void) {
    let mut r = rt(loc);
    if let crate::rt::Dev::Cuda(g) = &mut r.dev {
        if let Err(e) = g.load(image) {
            die(loc, &e);
        }
        r.kernels_loaded = true;
    }
}

/// `device replicate`: returns the replicated copy of `local` (`bytes` bytes).
#[no_mangle]
pub extern "C" fn xmpc_dev_replicate(loc: *const Loc, local: *mut c_void, bytes: usize) -> *mut c_void {
    let mut r = rt(loc);
    if matches!(r.dev, crate::rt::Dev::Cuda(_)) && !r.kernels_loaded && !r.warned_no_kernels {
        r.warned_no_kernels = true;
        eprintln!("xmpc-dev: a CUDA device is present but this program has no kernels (built without nvcc): device loops run on the CPU");
    }
    match r.replicate(local as usize, bytes) {
        Ok(p) => p as *mut c_void,
        Err(e) => die(loc, &e),
    }
}

#[no_mangle]
pub extern "C" fn xmpc_dev_replicate_end(loc: *const Loc, rep: *mut c_void) {
    if let Err(e) = rt(loc).replicate_end(rep as usize) {
        die(loc, &e);
    }
}

/// `replicate_sync in` (dir 600) / `out` (601).
#[no_mangle]
pub extern "C" fn xmpc_dev_sync(loc: *const Loc, rep: *mut c_void, dir: c_int) {
    let into = match dir {
        600 => true,
        601 => false,
        _ => die(loc, &format!("replicate_sync direction {dir}")),
    };
    if let Err(e) = rt(loc).sync(rep as usize, into) {
        die(loc, &e);
    }
}

/// The device copy of a replicated array (inside a GPU task body; the runtime is
/// locked by the running loop, so this reads a table kept for it).
#[no_mangle]
pub extern "C" fn xmpc_dev_ptr(loc: *const Loc, rep: *mut c_void) -> u64 {
    match crate::rt::dev_ptr_of(rep as usize) {
        Some(d) => d,
        None => die(loc, "a GPU task uses an array that has no device copy"),
    }
}

/// Device slots for a GPU task's reductions, initialised from `red`.
///
/// # Safety
/// `red` holds `nred` 8-byte slots.
#[no_mangle]
pub unsafe extern "C" fn xmpc_dev_red_begin(loc: *const Loc, red: *mut c_void, nred: c_int) -> u64 {
    let host = std::slice::from_raw_parts(red as *const u8, 8 * nred.max(0) as usize);
    let r = crate::rt::with_gpu(|g| -> Result<u64, String> {
        let d = g.alloc(host.len())?;
        g.htod(d, host)?;
        Ok(d)
    });
    match r {
        Some(Ok(d)) => d,
        Some(Err(e)) => die(loc, &e),
        None => die(loc, "xmpc_dev_red_begin outside a GPU task"),
    }
}

/// Copies a GPU task's reduction slots back into `red` and frees them.
///
/// # Safety
/// `red` holds `nred` 8-byte slots; `dred` came from `xmpc_dev_red_begin`.
#[no_mangle]
pub unsafe extern "C" fn xmpc_dev_red_end(loc: *const Loc, red: *mut c_void, nred: c_int, dred: u64) {
    let host = std::slice::from_raw_parts_mut(red as *mut u8, 8 * nred.max(0) as usize);
    let r = crate::rt::with_gpu(|g| -> Result<(), String> {
        g.dtoh(host, dred)?;
        g.free(dred);
        Ok(())
    });
    if let Some(Err(e)) = r {
        die(loc, &e);
    }
}

/// Called by a generated GPU task body: launches `kernel` for `n` iterations with
/// `params` (cuLaunchKernel's array of pointers to the arguments).
///
/// # Safety
/// `params` holds `nparams` valid pointers matching the kernel's signature.
#[no_mangle]
pub unsafe extern "C" fn xmpc_dev_launch(loc: *const Loc, kernel: *const c_char, n: i64, params: *mut *mut c_void, nparams: c_int) {
    // The runtime lock is held by xmpc_dev_loop on this thread; the device is reached
    // through a raw pointer kept for the duration of the GPU part.
    let name = CStr::from_ptr(kernel).to_string_lossy().into_owned();
    let ps = std::slice::from_raw_parts_mut(params, nparams.max(0) as usize);
    let r = crate::rt::with_gpu(|g| g.launch(&name, n.max(0) as u64, ps)).unwrap_or_else(|| Err("no CUDA device".into()));
    if let Err(e) = &r {
        die(loc, e);
    }
    CURRENT_KERNEL_TIME.with(|c| c.set(Some(r)));
}
