//! The `cuda` device through cudarc's driver API, loaded at run time. Every entry is
//! guarded: [`Gpu::open`] checks `is_culib_present()` and the device count first, so
//! a machine without libcuda gets `None` and runs CPU-only (cudarc would panic, and a
//! panic behind the C ABI aborts the program).
#[cfg(feature = "cuda")]
mod imp {
    use cudarc::driver::{result, sys};
    use std::collections::HashMap;
    use std::ffi::{c_void, CString};

    pub struct Gpu {
        _ctx: sys::CUcontext,
        module: Option<sys::CUmodule>,
        funcs: HashMap<String, sys::CUfunction>,
        pub name: String,
    }

    // SAFETY: the handles are plain driver handles; every call re-binds the context
    // to the calling thread (`bind`), and the runtime's mutex serialises the calls.
    unsafe impl Send for Gpu {}

    impl Gpu {
        fn bind(&self) {
            let _ = unsafe { result::ctx::set_current(self._ctx) };
        }

        pub fn open() -> Result<Gpu, String> {
            // SAFETY: only probes for the library.
            if !unsafe { sys::is_culib_present() } {
                return Err("libcuda is not present".into());
            }
            result::init().map_err(|e| format!("cuInit: {e:?}"))?;
            let n = result::device::get_count().map_err(|e| format!("cuDeviceGetCount: {e:?}"))?;
            if n < 1 {
                return Err("no CUDA device".into());
            }
            let dev = result::device::get(0).map_err(|e| format!("cuDeviceGet: {e:?}"))?;
            let name = result::device::get_name(dev).unwrap_or_else(|_| "CUDA device 0".into());
            // SAFETY: dev is a valid device; the primary context lives as long as the process.
            let ctx = unsafe { result::primary_ctx::retain(dev) }.map_err(|e| format!("cuDevicePrimaryCtxRetain: {e:?}"))?;
            unsafe { result::ctx::set_current(ctx) }.map_err(|e| format!("cuCtxSetCurrent: {e:?}"))?;
            Ok(Gpu { _ctx: ctx, module: None, funcs: HashMap::new(), name })
        }

        /// Loads the fatbin embedded by xmpc.
        ///
        /// # Safety
        /// `image` points to a fatbin that stays alive (static data).
        pub unsafe fn load(&mut self, image: *const c_void) -> Result<(), String> {
            self.bind();
            let m = unsafe { result::module::load_data(image) }.map_err(|e| format!("cuModuleLoadData: {e:?}"))?;
            self.module = Some(m);
            Ok(())
        }

        fn func(&mut self, name: &str) -> Result<sys::CUfunction, String> {
            if let Some(f) = self.funcs.get(name) {
                return Ok(*f);
            }
            let m = self.module.ok_or("no kernels were loaded (the program was built without nvcc)")?;
            let c = CString::new(name).map_err(|_| "bad kernel name")?;
            let f = unsafe { result::module::get_function(m, c) }.map_err(|e| format!("cuModuleGetFunction({name}): {e:?}"))?;
            self.funcs.insert(name.to_string(), f);
            Ok(f)
        }

        pub fn alloc(&mut self, bytes: usize) -> Result<u64, String> {
            self.bind();
            unsafe { result::malloc_sync(bytes.max(1)) }.map_err(|e| format!("cuMemAlloc: {e:?}"))
        }
        pub fn free(&mut self, p: u64) {
            let _ = unsafe { result::free_sync(p) };
        }
        pub fn htod(&mut self, dst: u64, src: &[u8]) -> Result<(), String> {
            self.bind();
            unsafe { result::memcpy_htod_sync(dst, src) }.map_err(|e| format!("cuMemcpyHtoD: {e:?}"))
        }
        pub fn dtoh(&mut self, dst: &mut [u8], src: u64) -> Result<(), String> {
            self.bind();
            unsafe { result::memcpy_dtoh_sync(dst, src) }.map_err(|e| format!("cuMemcpyDtoH: {e:?}"))
        }

        /// Launches `kernel` with one thread per iteration (blocks of 128) on a fresh
        /// stream and returns its time from CUDA events (s).
        pub fn launch(&mut self, kernel: &str, n: u64, params: &mut [*mut c_void]) -> Result<f64, String> {
            self.bind();
            let f = self.func(kernel)?;
            let e = |x: result::DriverError| format!("{kernel}: {x:?}");
            unsafe {
                let s = result::stream::create(result::stream::StreamKind::NonBlocking).map_err(e)?;
                let a = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).map_err(e)?;
                let b = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).map_err(e)?;
                result::event::record(a, s).map_err(e)?;
                let grid = n.div_ceil(128).max(1) as u32;
                result::launch_kernel(f, (grid, 1, 1), (128, 1, 1), 0, s, params).map_err(e)?;
                result::event::record(b, s).map_err(e)?;
                result::stream::synchronize(s).map_err(e)?;
                let ms = result::event::elapsed(a, b).map_err(e)?;
                let _ = result::event::destroy(a);
                let _ = result::event::destroy(b);
                let _ = result::stream::destroy(s);
                Ok(ms as f64 * 1e-3)
            }
        }
    }
}

#[cfg(not(feature = "cuda"))]
mod imp {
    use std::ffi::c_void;
    pub struct Gpu {
        pub name: String,
    }
    impl Gpu {
        pub fn open() -> Result<Gpu, String> {
            Err("built without the `cuda` feature".into())
        }
        /// # Safety
        /// Never called: there is no device without the `cuda` feature.
        pub unsafe fn load(&mut self, _: *const c_void) -> Result<(), String> {
            unreachable!()
        }
        pub fn alloc(&mut self, _: usize) -> Result<u64, String> {
            unreachable!()
        }
        pub fn free(&mut self, _: u64) {}
        pub fn htod(&mut self, _: u64, _: &[u8]) -> Result<(), String> {
            unreachable!()
        }
        pub fn dtoh(&mut self, _: &mut [u8], _: u64) -> Result<(), String> {
            unreachable!()
        }
        pub fn launch(&mut self, _: &str, _: u64, _: &mut [*mut c_void]) -> Result<f64, String> {
            unreachable!()
        }
    }
}

pub use imp::Gpu;

#[cfg(test)]
mod tests {
    #[test]
    fn a_machine_without_libcuda_gets_an_error_not_an_abort() {
        // On the CI machines (no GPU) this is an Err; on a GPU machine an Ok. Either
        // way it returns.
        match super::Gpu::open() {
            Ok(g) => eprintln!("GPU: {}", g.name),
            Err(e) => assert!(!e.is_empty()),
        }
    }
}
