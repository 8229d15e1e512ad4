//! Aligned arrays: local layout per dimension and allocation.

use crate::dist::{div_ceil, div_floor, BLOCK, CYCLIC, DUP, GBLOCK};
use crate::err::{fatal, guard, XmpcLoc};
use crate::reflect::Plan;
use crate::state;
use crate::template::{xmpc_template, Template};
use std::collections::HashMap;
use std::ffi::{c_int, c_long, c_void};

const HUGE: usize = 2 << 20;

/// Blocks of at least this many bytes get a cache colour (see [`colour`]).
const COLOURED: usize = 16 << 10;

/// Cache colour of the next large block: an offset of 0..63 cache lines. Blocks
/// n = 0..15 start 4 lines (256 bytes) apart within a 4 KiB page, the next 16 one
/// line further, and so on: any 14 consecutive blocks are 256 bytes or more apart
/// (modulo 4 KiB), all 64 colours are used before one repeats.
///
/// Why: large blocks are 2 MiB-aligned (huge pages) and the system allocator puts the
/// others on page boundaries too, so without an offset element [i][j][k] of every
/// array lies at the same address modulo 4 KiB (and modulo the L2 set period). A
/// stencil streaming a dozen such arrays (Himeno: 13 arrays plus 9 rows of p) maps
/// them all to one L1 set of 12 ways and thrashes it, and loads falsely depend on
/// stores 4 KiB apart. Measured with cachegrind (D1 48 KiB 12-way), Himeno 65x65x129:
/// 3.7 L1 misses per point and iteration with aligned blocks, 1.1 with coloured ones,
/// the same as the sequential program's static arrays (which the linker packs
/// back to back, so they are staggered by their sizes).
fn colour() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    ((n % 16) * 4 + (n / 16) % 4) * 64
}

/// Local layout of one array dimension (`xmpc_dim` in C; see the header).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct XmpcDim {
    pub format: c_int,
    pub offset: c_long,
    pub procs: c_long,
    pub width: c_long,
    pub alloc: c_long,
    pub lower: c_long,
    pub upper: c_long,
    pub shadow_lo: c_long,
    pub shadow_hi: c_long,
}

/// An array descriptor (`xmpc_array` in C).
#[allow(non_camel_case_types)]
pub struct xmpc_array {
    pub id: i32,
    pub tmpl: *const xmpc_template,
    pub elem: usize,
    pub extent: Vec<i64>,
    pub align_dim: Vec<i32>,
    pub align_off: Vec<i64>,
    pub shadow_lo: Vec<i64>,
    pub shadow_hi: Vec<i64>,
    pub full: Vec<bool>,
    /// The local block is the whole global array (every node stores every element;
    /// ownership still follows the template): Fortran arrays aligned with a cyclic
    /// dimension. Local index = global index in every dimension.
    pub whole: bool,
    pub dims: Vec<XmpcDim>,
    /// 64-byte aligned, zeroed; `bytes` long (≥ 64 so it is never dangling).
    pub base: *mut u8,
    pub bytes: usize,
    /// (widths lo, widths hi, periodic) → persistent reflect plan.
    pub plans: HashMap<PlanKey, Plan>,
    /// `base` was allocated by the runtime (xmpc_array_alloc) with this alignment,
    /// at this many bytes (its cache colour) before `base`.
    pub own_align: Option<(usize, usize)>,
    /// Views that resolved to this array (xmpc_array_view) and are not freed yet:
    /// xmpc_array_free of such a handle only takes one off.
    pub views: u32,
    /// Element type (XMPC_TYPE_*), -1 until `xmpc_array_set_type` (the library's
    /// arithmetic routines need it: xmp_matmul, xmp_sort_*).
    pub ty: i32,
    /// Checking mode (check.rs): per dimension the range of indices this node may
    /// access, `[lo0, hi0, lo1, hi1, ...]`; made at the first check, reset by a new layout.
    pub check: std::cell::OnceCell<Box<[c_long]>>,
}

pub type Array = xmpc_array;

/// Reflect widths (lower, upper) and periodic flags per array dim.
pub type PlanKey = (Vec<i64>, Vec<i64>, Vec<bool>);

impl Array {
    pub fn ndims(&self) -> usize {
        self.extent.len()
    }

    pub fn template(&self) -> &Template {
        // SAFETY: templates are never freed; checked non-null at creation.
        unsafe { &*self.tmpl }
    }

    pub fn member(&self) -> bool {
        self.template().nodes().is_some_and(|n| n.member())
    }

    /// Layout of dim `d` for node coordinate `c` on its template dim.
    pub fn layout_for(&self, d: usize, c: Option<i64>) -> Result<XmpcDim, String> {
        let x = self.layout_stored(d, c)?;
        if self.whole {
            // owned range as computed, storage = the whole dimension
            return Ok(XmpcDim { offset: 0, alloc: self.extent[d], shadow_lo: 0, shadow_hi: 0, ..x });
        }
        Ok(x)
    }

    /// Layout of dim `d` when the node stores only its own part (plus shadows).
    pub(crate) fn layout_stored(&self, d: usize, c: Option<i64>) -> Result<XmpcDim, String> {
        let ext = self.extent[d];
        let (slo, shi) = (self.shadow_lo[d], self.shadow_hi[d]);
        let dup = XmpcDim { format: DUP, offset: -slo, procs: 1, width: 1, alloc: ext + slo + shi, lower: 0, upper: ext - 1, shadow_lo: slo, shadow_hi: shi };
        let td = self.align_dim[d];
        if td < 0 {
            return Ok(dup);
        }
        let t = self.template();
        let dist = &t.dist[td as usize];
        let off = self.align_off[d];
        let Some(c) = c else {
            // not a member: owns nothing
            return Ok(XmpcDim { lower: 0, upper: -1, alloc: 0, offset: 0, shadow_lo: 0, shadow_hi: 0, ..dup });
        };
        if off < dist.lower || ext - 1 + off > dist.upper {
            return Err(format!(
                "array dimension {} (0:{}) aligned with offset {off} falls outside the template's {}:{}",
                d + 1,
                ext - 1,
                dist.lower,
                dist.upper
            ));
        }
        match dist.format {
            BLOCK | GBLOCK | DUP => {
                let (a, b) = dist.range(c);
                let (lower, upper) = ((a - off).max(0), (b - off).min(ext - 1));
                let n = (upper - lower + 1).max(0);
                if self.full[d] {
                    return Ok(XmpcDim {
                        format: dist.format,
                        offset: 0,
                        procs: dist.procs,
                        width: dist.w,
                        alloc: ext,
                        lower,
                        upper,
                        shadow_lo: if n > 0 { lower } else { 0 },
                        shadow_hi: if n > 0 { ext - 1 - upper } else { ext },
                    });
                }
                Ok(XmpcDim {
                    format: dist.format,
                    offset: lower - slo,
                    procs: dist.procs,
                    width: dist.w,
                    alloc: n + slo + shi,
                    lower,
                    upper,
                    shadow_lo: slo,
                    shadow_hi: shi,
                })
            }
            CYCLIC => {
                if slo != 0 || shi != 0 {
                    return Err(format!("shadow on cyclic array dimension {} is not supported", d + 1));
                }
                let (p, w) = (dist.procs, dist.w);
                let base = dist.cyc_start(c, 0);
                // my first block intersecting t in [off, ext-1+off], and my last
                let k0 = div_ceil(off - base - w + 1, p * w).max(0);
                let k1 = div_floor(ext - 1 + off - base, p * w);
                if k1 < k0 {
                    let alloc = if self.full[d] { ext } else { 0 };
                    return Ok(XmpcDim { format: CYCLIC, procs: p, width: w, offset: 0, alloc, lower: 0, upper: -1, ..dup });
                }
                let offset = dist.cyc_start(c, k0) - off;
                let lower = offset.max(0);
                let upper = (dist.cyc_start(c, k1) + w - 1 - off).min(ext - 1);
                let local = |g: i64| ((g - offset) / (w * p)) * w + (g - offset) % w;
                if self.full[d] {
                    // Full shadow (`*`): every node stores the whole dimension, indexed
                    // by the global index; lower..upper spans the owned chunks.
                    return Ok(XmpcDim {
                        format: CYCLIC,
                        offset: 0,
                        procs: p,
                        width: w,
                        alloc: ext,
                        lower,
                        upper,
                        shadow_lo: lower,
                        shadow_hi: ext - 1 - upper,
                    });
                }
                Ok(XmpcDim { format: CYCLIC, offset, procs: p, width: w, alloc: local(upper) + 1, lower, upper, shadow_lo: 0, shadow_hi: 0 })
            }
            f => Err(format!("unknown format {f}")),
        }
    }

    pub fn layout(&mut self) -> Result<(), String> {
        let mut dims = vec![];
        for d in 0..self.ndims() {
            let td = self.align_dim[d];
            let c = if td < 0 { Some(0) } else { self.template().coord(td as usize) };
            dims.push(self.layout_for(d, c)?);
        }
        self.dims = dims;
        self.check = Default::default();
        Ok(())
    }

    /// Element strides (in elements) of the local C-order block.
    pub fn strides(&self) -> Vec<i64> {
        let mut s = vec![1; self.ndims()];
        for d in (0..self.ndims().saturating_sub(1)).rev() {
            s[d] = s[d + 1] * self.dims[d + 1].alloc;
        }
        s
    }

    /// Local index of global index `g` on dim `d` (valid on its owner).
    pub fn local(&self, d: usize, g: i64) -> i64 {
        let x = &self.dims[d];
        if x.format == CYCLIC && !self.whole && !self.full[d] {
            ((g - x.offset) / (x.width * x.procs)) * x.width + (g - x.offset) % x.width
        } else {
            g - x.offset
        }
    }

    fn allocate(&mut self) -> Result<*mut u8, String> {
        self.layout()?;
        // cached reflect plans point into the old block (re-allocation by xmp_malloc)
        self.plans.clear();
        let n: i64 = self.dims.iter().map(|d| d.alloc.max(0)).product();
        let bytes = (n as usize * self.elem).max(64);
        // large blocks on 2 MiB boundaries so they can be backed by huge pages
        let align = if bytes >= HUGE { HUGE } else { 64 };
        let pad = if bytes >= COLOURED { colour() } else { 0 };
        let lay = std::alloc::Layout::from_size_align(bytes + pad, align).map_err(|e| e.to_string())?;
        // SAFETY: non-zero size, valid layout; the block is owned by this array.
        // Advise huge pages before the first touch (zeroing), or the kernel
        // has already mapped 4 KiB pages.
        let q = unsafe { std::alloc::alloc(lay) };
        if q.is_null() {
            return Err(format!("cannot allocate {bytes} bytes"));
        }
        // SAFETY: `q` owns `pad + bytes` bytes; the array uses the last `bytes`.
        let p = unsafe { q.add(pad) };
        unsafe {
            if bytes >= HUGE {
                crate::ffi::xs_hugepage(q as *mut c_void, (bytes + pad) & !(HUGE - 1));
            }
            std::ptr::write_bytes(p, 0, bytes);
        }
        self.base = p;
        self.bytes = bytes;
        self.own_align = Some((align, pad));
        state::with(|s| s.arrays.insert(p as usize, self as *mut Array as usize));
        Ok(p)
    }
    /// Frees a block allocated by `allocate` and forgets its address.
    fn release_storage(&mut self) {
        let me = self as *mut Array as usize;
        let base = self.base as usize;
        state::with(|s| {
            if s.arrays.get(&base) == Some(&me) {
                s.arrays.remove(&base);
            }
        });
        if let Some((align, pad)) = self.own_align.take() {
            // SAFETY: `base - pad` was allocated by `allocate` with this size and alignment.
            unsafe { std::alloc::dealloc(self.base.sub(pad), std::alloc::Layout::from_size_align_unchecked(self.bytes + pad, align)) };
        }
        self.base = std::ptr::null_mut();
        self.bytes = 0;
    }

    /// Uses `p` (`bytes` bytes, owned by the caller) as the local block, zeroed.
    fn attach(&mut self, p: *mut u8, bytes: usize) -> Result<(), String> {
        self.layout()?;
        self.plans.clear();
        if self.own_align.is_none() && !self.base.is_null() && self.base != p {
            // attached again (a Fortran `save_desc` array gets a new block at each
            // call): the previous block's address no longer names this array
            let (me, old) = (self as *mut Array as usize, self.base as usize);
            state::with(|s| {
                if s.arrays.get(&old) == Some(&me) {
                    s.arrays.remove(&old);
                }
            });
        }
        let n: i64 = self.dims.iter().map(|d| d.alloc.max(0)).product();
        let need = n as usize * self.elem;
        if p.is_null() || bytes < need {
            return Err(format!("the local block needs {need} bytes, {bytes} given"));
        }
        // SAFETY: the caller owns `bytes` bytes at `p`; huge pages are advised on the
        // 2 MiB-aligned interior before the first touch.
        unsafe {
            if need >= 2 * HUGE {
                let lo = (p as usize).next_multiple_of(HUGE);
                let hi = (p as usize + need) & !(HUGE - 1);
                crate::ffi::xs_hugepage(lo as *mut c_void, hi - lo);
            }
            std::ptr::write_bytes(p, 0, need);
        }
        self.base = p;
        self.bytes = need;
        self.own_align = None;
        state::with(|s| s.arrays.insert(p as usize, self as *mut Array as usize));
        Ok(())
    }
}

unsafe fn vec_of<T: Copy>(p: *const T, n: usize, dflt: T) -> Vec<T> {
    if p.is_null() {
        vec![dflt; n]
    } else {
        std::slice::from_raw_parts(p, n).to_vec()
    }
}
/// `align a[i][j] with t(j, i)`: extent per array dim (C order, global index
/// 0..extent-1); align_dim[d] = template dim (round order) or -1 for `*`;
/// align_offset[d] = c for `t(i + c)` (NULL = all 0). The template must be fixed and
/// distributed.
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_new(
    loc: *const XmpcLoc,
    t: *const xmpc_template,
    ndims: c_int,
    elem_size: usize,
    extent: *const c_long,
    align_dim: *const c_int,
    align_offset: *const c_long,
) -> *mut xmpc_array {
    let n = ndims.max(0) as usize;
    let extent: Vec<i64> = vec_of(extent, n, 0).into_iter().collect();
    let align_dim = vec_of(align_dim, n, -1);
    let align_off: Vec<i64> = vec_of(align_offset, n, 0).into_iter().collect();
    guard(loc, || {
        let Some(tt) = (unsafe { t.as_ref() }) else { fatal(loc, "align with no template") };
        if !tt.ready() {
            fatal(loc, "align with a template that is not fixed and distributed");
        }
        if let Some(&bad) = align_dim.iter().find(|&&a| a >= tt.ndims() as i32) {
            fatal(loc, &format!("align with template dimension {} of {}", bad + 1, tt.ndims()));
        }
        let id = state::with(|s| {
            s.next_array_id += 1;
            s.next_array_id
        });
        let a = Box::into_raw(Box::new(Array {
            id,
            tmpl: t,
            elem: elem_size,
            extent,
            align_dim,
            align_off,
            shadow_lo: vec![0; n],
            shadow_hi: vec![0; n],
            full: vec![false; n],
            whole: false,
            dims: vec![],
            base: std::ptr::null_mut(),
            bytes: 0,
            plans: HashMap::new(),
            own_align: None,
            views: 0,
            check: Default::default(),
            ty: -1,
        }));
        state::with(|s| s.all_arrays.push(a as usize));
        a
    })
}
/// The element type of `a` (XMPC_TYPE_*; the translator writes
/// `XMPC_TYPE_OF(element)`, -1 for a type the runtime has no code for).
#[no_mangle]
pub extern "C" fn xmpc_array_set_type(a: *mut xmpc_array, ty: c_int) {
    // SAFETY: a live descriptor or NULL.
    if let Some(a) = unsafe { a.as_mut() } {
        a.ty = ty;
    }
}
/// `xmp_desc_of(a)` for a distributed array: records the element type (as
/// `xmpc_array_set_type`) and returns `a` as an `xmp_desc_t`.
#[no_mangle]
pub extern "C" fn xmpc_array_typed(a: *mut xmpc_array, ty: c_int) -> *mut c_void {
    xmpc_array_set_type(a, ty);
    a as *mut c_void
}
/// `shadow a[lo:hi]...` per array dim (NULL = 0); full[d] != 0 for `*` (the whole array; NULL = none). Width shadows on cyclic dims are an error; a full one stores the whole dimension (global indices).
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_shadow(loc: *const XmpcLoc, a: *mut xmpc_array, lo: *const c_long, hi: *const c_long, full: *const c_int) {
    let a = a.as_mut().unwrap_or_else(|| fatal(loc, "shadow of no array"));
    let n = a.ndims();
    a.shadow_lo = vec_of(lo, n, 0).into_iter().collect();
    a.shadow_hi = vec_of(hi, n, 0).into_iter().collect();
    a.full = vec_of(full, n, 0).into_iter().map(|x| x != 0).collect();
    if let Some(d) = (0..n).find(|&d| a.shadow_lo[d] < 0 || a.shadow_hi[d] < 0) {
        fatal(loc, &format!("negative shadow width on dimension {}", d + 1));
    }
    guard(loc, || a.layout().unwrap_or_else(|e| fatal(loc, &e)));
}
/// Allocates the local part with its shadows (zeroed, 64-byte aligned; blocks ≥ 2 MiB are 2 MiB aligned and advised to use huge pages); returns it.
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_alloc(loc: *const XmpcLoc, a: *mut xmpc_array) -> *mut c_void {
    let a = a.as_mut().unwrap_or_else(|| fatal(loc, "allocation of no array"));
    guard(loc, || a.allocate().unwrap_or_else(|e| fatal(loc, &e)) as *mut c_void)
}
/// Local layout of array dim d. A global index g is stored at local index
///   block, gblock, dup:  g - offset
///   cyclic:              (g - offset) / procs
///   cyclic(w):           ((g - offset) / (w * procs)) * w + (g - offset) % w
/// `alloc` is the allocated extent (shadows included); lower..upper the owned global
/// range (for cyclic: first and last owned index). Full shadow: offset 0, alloc =
/// extent, shadow_lo/hi = the rest of the array.
/// An array attached with xmpc_array_attach_whole: offset 0, alloc = extent and local
/// index = global index whatever the format (lower..upper still the owned range).
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_dim(a: *const xmpc_array, dim: c_int, out: *mut XmpcDim) {
    let Some(a) = a.as_ref() else { return };
    let d = dim as usize;
    let v = match a.dims.get(d) {
        Some(x) => *x,
        None if d < a.ndims() => {
            let td = a.align_dim[d];
            let c = if td < 0 { Some(0) } else { a.template().coord(td as usize) };
            a.layout_for(d, c).unwrap_or_else(|e| fatal(std::ptr::null(), &e))
        }
        None => XmpcDim::default(),
    };
    *out = v;
}
/// Added: the local block returned by xmpc_array_alloc (NULL before).
#[no_mangle]
pub extern "C" fn xmpc_array_base(a: *const xmpc_array) -> *mut c_void {
    // SAFETY: a live handle (see xmpc_array_free).
    unsafe { a.as_ref() }.map_or(std::ptr::null_mut(), |a| a.base as *mut c_void)
}

/// Added: uses `bytes` bytes at `p`, owned by the caller (a Fortran allocatable),
/// as the local block with its shadows (zeroed; blocks ≥ 4 MiB advised to use huge pages).
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_attach(loc: *const XmpcLoc, a: *mut xmpc_array, p: *mut c_void, bytes: usize) {
    let a = a.as_mut().unwrap_or_else(|| fatal(loc, "attach of no array"));
    guard(loc, || a.attach(p as *mut u8, bytes).unwrap_or_else(|e| fatal(loc, &e)))
}

/// Added: like xmpc_array_attach, but `p` holds the whole global array on every
/// node (`bytes` ≥ all extents × element size): local index = global index, while
/// ownership (gmove, loops) still follows the template. For Fortran arrays aligned
/// with a cyclic dimension; reflect of such an array is an error.
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_attach_whole(loc: *const XmpcLoc, a: *mut xmpc_array, p: *mut c_void, bytes: usize) {
    let a = a.as_mut().unwrap_or_else(|| fatal(loc, "attach of no array"));
    a.whole = true;
    guard(loc, || a.attach(p as *mut u8, bytes).unwrap_or_else(|e| fatal(loc, &e)))
}

/// Same element size, shape, alignment, shadows and local layout, on templates
/// distributed alike onto the same nodes: one array described twice.
fn same_mapping(a: &Array, o: &Array) -> bool {
    let (t, u) = (a.template(), o.template());
    let same_nodes = match (t.nodes(), u.nodes()) {
        (Some(n), Some(m)) => std::ptr::eq(n, m) || (n.dims == m.dims && n.world == m.world),
        _ => false,
    };
    a.elem == o.elem
        && a.extent == o.extent
        && a.align_dim == o.align_dim
        && a.align_off == o.align_off
        && a.shadow_lo == o.shadow_lo
        && a.shadow_hi == o.shadow_hi
        && a.full == o.full
        && a.whole == o.whole
        && a.dims == o.dims
        && t.lower == u.lower
        && t.upper == u.upper
        && t.dist == u.dist
        && t.node_dim == u.node_dim
        && same_nodes
}

/// Added: `p` (`bytes` bytes: another array's local block, shadows included)
/// becomes the local block of `a` as it is (not zeroed): a Fortran assumed-shape
/// dummy argument described again by the callee. The caller checks that the
/// layouts agree. Returns the array to use: the block's first array when `a`
/// maps it the same way (its cached reflect plans are reused: a procedure called
/// in a loop does not build them at every call; `a` is then freed and must not
/// be used), else `a`. xmp_desc_of(p) keeps giving the block's first array.
/// Either way the returned handle is given back with xmpc_array_free.
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_view(loc: *const XmpcLoc, a: *mut xmpc_array, p: *mut c_void, bytes: usize) -> *mut xmpc_array {
    let me = a;
    let a = a.as_mut().unwrap_or_else(|| fatal(loc, "view of no array"));
    guard(loc, || {
        a.layout().unwrap_or_else(|e| fatal(loc, &e));
        a.plans.clear();
        let n: i64 = a.dims.iter().map(|d| d.alloc.max(0)).product();
        let need = n as usize * a.elem;
        if p.is_null() || bytes < need {
            fatal(loc, &format!("the local block needs {need} bytes, {bytes} given"));
        }
        a.base = p as *mut u8;
        a.bytes = need;
        a.own_align = None;
        let first = state::with(|s| *s.arrays.entry(p as usize).or_insert(me as usize)) as *mut xmpc_array;
        // SAFETY: registered descriptors are live until xmpc_array_free unregisters them.
        match unsafe { first.as_mut() } {
            Some(o) if first != me && o.base == a.base && same_mapping(a, o) => {
                // `a` is not registered and has no plans: dropped now; the free
                // of this view's handle takes the count off again
                o.views += 1;
                // SAFETY: `me` came from xmpc_array_new and the caller no longer uses it.
                unsafe { drop_descriptor(me) };
                first
            }
            _ => me,
        }
    })
}

/// Removes `a` from the runtime's tables and frees it (not its plans' windows).
unsafe fn drop_descriptor(a: *mut xmpc_array) {
    let k = a as usize;
    state::with(|s| s.all_arrays.retain(|&x| x != k));
    let mut b = Box::from_raw(a);
    b.release_storage();
}

/// Added: frees an array descriptor at the end of its scope (a procedure's local
/// or dummy array, a deallocated allocatable). Collective over the array's nodes
/// (its cached reflect plans' shared-memory windows are freed with MPI_Win_free).
/// Storage from xmpc_array_alloc is freed; storage given by the caller
/// (attach, view) is not. A handle returned by xmpc_array_view for another
/// array only undoes that view. NULL: nothing. The handle must not be used after.
#[no_mangle]
pub unsafe extern "C" fn xmpc_array_free(loc: *const XmpcLoc, a: *mut xmpc_array) {
    let Some(x) = a.as_mut() else { return };
    if x.views > 0 {
        x.views -= 1;
        return;
    }
    crate::xacc::forget(a);
    guard(loc, || {
        // in-flight async reflects of this array would unpack into freed memory
        let inside = |b: *mut u8| (b as usize) >= x.base as usize && (b as usize) < x.base as usize + x.bytes.max(1);
        let busy = state::with(|s| s.pending.values().any(|p| p.1.iter().any(|u| inside(u.base)) || p.3.iter().any(|t| inside(t.base()))));
        if busy {
            fatal(loc, "array freed while an asynchronous reflect of it is pending (wait_async first)");
        }
        // the same order on every node: MPI_Win_free is collective
        let mut keys: Vec<PlanKey> = x.plans.keys().cloned().collect();
        keys.sort();
        for key in keys {
            if let Some(mut p) = x.plans.remove(&key) {
                if let Some(w) = p.win.take() {
                    w.free();
                }
                if let Some(l) = p.lease.take() {
                    // kept for the next plan of the same shape (no collective), or
                    // given back after a barrier when the pool is full
                    let slots = p.take_slots();
                    crate::shm::retire(std::mem::take(&mut p.pool_key), l, slots);
                }
                if let Some(t) = p.tca.take() {
                    t.free();
                }
            }
        }
        drop_descriptor(a);
    })
}

/// Used by xmp_malloc: sets the extents, then allocates.
pub fn malloc_dims(a: &mut Array, sizes: &[i64]) -> *mut c_void {
    for (d, &s) in sizes.iter().enumerate().take(a.ndims()) {
        a.extent[d] = s;
    }
    a.allocate().unwrap_or_else(|e| fatal(std::ptr::null(), &e)) as *mut c_void
}
