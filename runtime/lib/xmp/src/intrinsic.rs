//! XMP 1.4 intrinsic library procedures on distributed arrays (C binding; array
//! arguments are descriptors from `xmp_desc_of`, indices 0-based, row-major
//! element order): xmp_gather, xmp_scatter, xmp_pack, xmp_unpack,
//! xmp_transpose, xmp_matmul, xmp_sort_up, xmp_sort_down. Collective over the
//! executing nodes; every node of every argument's node set must execute.
//! The results are stored into the (distributed) result argument on all of its
//! owners, so a replicated result is complete everywhere.
//!
//! Communication goes through `dmap` (fetch/store, volume proportional to the
//! elements moved). Variadic entry points (gather/scatter) are in csrc/shim.c.

use crate::dmap::{allgather, exchange, exec_comm, DArray, Pod};
use crate::err::{fatal, guard, XmpcLoc};
use crate::state::Exec;
use crate::xmp::XmpDesc;
use crate::*;
use std::ffi::{c_int, c_long, CStr};

/// Runs a library routine; its errors are located as `<xmp library>:0: NAME: what`.
fn run(name: &'static CStr, f: impl FnOnce() -> Result<(), String>) {
    let loc = XmpcLoc { file: c"<xmp library>".as_ptr(), line: 0, text: name.as_ptr() };
    guard(&loc, || {
        if let Err(m) = f() {
            fatal(&loc, &m)
        }
    })
}

/// Integer values of an index or mask array (element sizes 1, 2, 4, 8).
fn ints(bytes: &[u8], elem: usize) -> Result<Vec<i64>, String> {
    let v = match elem {
        1 => bytes.iter().map(|&b| b as i8 as i64).collect(),
        2 => bytes.chunks_exact(2).map(|c| i16::from_ne_bytes([c[0], c[1]]) as i64).collect(),
        4 => bytes.chunks_exact(4).map(|c| i32::from_ne_bytes(c.try_into().unwrap()) as i64).collect(),
        8 => bytes.chunks_exact(8).map(|c| i64::from_ne_bytes(c.try_into().unwrap())).collect(),
        n => return Err(format!("index/mask elements of {n} bytes are not integers")),
    };
    Ok(v)
}

fn local_values(x: &DArray, lins: &[i64]) -> Vec<u8> {
    let elem = x.elem();
    let mut out = vec![0u8; lins.len() * elem];
    for (k, &l) in lins.iter().enumerate() {
        x.read(l, &mut out[k * elem..(k + 1) * elem]);
    }
    out
}

fn same_shape(a: &DArray, b: &DArray, an: &str, bn: &str) -> Result<(), String> {
    if a.extent() != b.extent() {
        return Err(format!("{an} has shape {:?} but {bn} has {:?}", a.extent(), b.extent()));
    }
    Ok(())
}

/// Per index array, the value that names element 0 (NULL: all 0).
fn bases(base: *const c_long, n: c_int) -> Vec<i64> {
    if base.is_null() || n <= 0 {
        return vec![0; n.max(0) as usize];
    }
    // SAFETY: the shim passes `n` values.
    unsafe { std::slice::from_raw_parts(base, n as usize) }.to_vec()
}

fn descs(idx: *const XmpDesc, n: c_int) -> Vec<XmpDesc> {
    if idx.is_null() || n <= 0 {
        return vec![];
    }
    // SAFETY: the shim passes `n` descriptors.
    unsafe { std::slice::from_raw_parts(idx, n as usize) }.to_vec()
}

/// Index values idx_k[i] of the elements `lins` (shape of idx_1), one row per k,
/// checked against `ext` (the indexed array's extents).
fn index_rows(e: &Exec, idx: &[DArray], base: &[i64], lins: &[i64], ext: &[i64]) -> Result<Vec<Vec<i64>>, String> {
    let mut rows = vec![];
    for (k, ix) in idx.iter().enumerate() {
        let v: Vec<i64> = ints(&ix.fetch(e, lins), ix.elem())?.into_iter().map(|g| g - base[k]).collect();
        if let Some(&bad) = v.iter().find(|&&g| g < 0 || g >= ext[k]) {
            return Err(format!("index {bad} is outside 0:{} of dimension {}", ext[k] - 1, k + 1));
        }
        rows.push(v);
    }
    Ok(rows)
}

fn ravel_rows(rows: &[Vec<i64>], ext: &[i64], k: usize) -> i64 {
    rows.iter().zip(ext).fold(0, |l, (r, &e)| l * e + r[k])
}

/// `xmp_gather(x, a, idx_1, ..., idx_n)`: x[i] = a[idx_1[i], ..., idx_n[i]] for every
/// element i of x (x and the idx arrays have one shape; n = rank of a). `base[k]`
/// (NULL: 0) is the index value of a's first element in dim k (Fortran: the lower bound).
#[no_mangle]
pub unsafe extern "C" fn xmpc_rt_gather(x: XmpDesc, a: XmpDesc, n: c_int, idx: *const XmpDesc, base: *const c_long) {
    run(c"xmp_gather", || {
        let e = exec_comm()?;
        let (x, a) = (DArray::new(x, "the result", &e)?, DArray::new(a, "the source array", &e)?);
        let idx: Vec<DArray> = descs(idx, n).into_iter().map(|d| DArray::new(d, "an index array", &e)).collect::<Result<_, _>>()?;
        if idx.len() != a.ndims() {
            return Err(format!("{} index arrays for a source array of rank {}", idx.len(), a.ndims()));
        }
        for ix in &idx {
            same_shape(&x, ix, "the result", "an index array")?;
        }
        let mine = idx[0].canonical_elems();
        let rows = index_rows(&e, &idx, &bases(base, n), &mine, a.extent())?;
        let src: Vec<i64> = (0..mine.len()).map(|k| ravel_rows(&rows, a.extent(), k)).collect();
        let vals = a.fetch(&e, &src);
        if x.elem() != a.elem() {
            return Err(format!("element sizes differ ({} and {})", x.elem(), a.elem()));
        }
        x.store(&e, &mine, &vals);
        Ok(())
    })
}

/// `xmp_scatter(x, a, idx_1, ..., idx_n)`: x[idx_1[i], ..., idx_n[i]] = a[i] for every
/// element i of a (a and the idx arrays have one shape; n = rank of x); `base` as
/// for gather, for x's dims.
#[no_mangle]
pub unsafe extern "C" fn xmpc_rt_scatter(x: XmpDesc, a: XmpDesc, n: c_int, idx: *const XmpDesc, base: *const c_long) {
    run(c"xmp_scatter", || {
        let e = exec_comm()?;
        let (x, a) = (DArray::new(x, "the result", &e)?, DArray::new(a, "the source array", &e)?);
        let idx: Vec<DArray> = descs(idx, n).into_iter().map(|d| DArray::new(d, "an index array", &e)).collect::<Result<_, _>>()?;
        if idx.len() != x.ndims() {
            return Err(format!("{} index arrays for a result of rank {}", idx.len(), x.ndims()));
        }
        for ix in &idx {
            same_shape(&a, ix, "the source array", "an index array")?;
        }
        if x.elem() != a.elem() {
            return Err(format!("element sizes differ ({} and {})", x.elem(), a.elem()));
        }
        let mine = idx[0].canonical_elems();
        let rows = index_rows(&e, &idx, &bases(base, n), &mine, x.extent())?;
        let dst: Vec<i64> = (0..mine.len()).map(|k| ravel_rows(&rows, x.extent(), k)).collect();
        let vals = a.fetch(&e, &mine);
        x.store(&e, &dst, &vals);
        Ok(())
    })
}

/// Global ranks (0-based, in ascending position order over all nodes) of the
/// sorted, disjoint positions `mine` out of 0..total. Positions are binned to
/// nodes by value, ranked there and the ranks sent back.
fn rank_positions(e: &Exec, total: i64, mine: &[i64]) -> Vec<i64> {
    let np = e.world.len() as i64;
    let bin = |j: i64| ((j as i128 * np as i128) / total.max(1) as i128) as usize;
    let mut send: Vec<Vec<i64>> = vec![vec![]; np as usize];
    for &j in mine {
        send[bin(j)].push(j);
    }
    let got = exchange(e, &send);
    let mut all: Vec<i64> = got.iter().flatten().copied().collect();
    all.sort_unstable();
    let counts = allgather(e, all.len() as i64);
    let base: i64 = counts[..e.rank as usize].iter().sum();
    let reply: Vec<Vec<i64>> = got.iter().map(|l| l.iter().map(|j| base + all.binary_search(j).unwrap() as i64).collect()).collect();
    let back = exchange(e, &reply);
    // answers per bin come back in the order sent
    let mut next = vec![0usize; np as usize];
    mine.iter()
        .map(|&j| {
            let b = bin(j);
            next[b] += 1;
            back[b][next[b] - 1]
        })
        .collect()
}

/// True positions of `mask` this node canonically owns, ascending.
fn mask_positions(m: &DArray) -> Result<Vec<i64>, String> {
    let mine = m.canonical_elems();
    let v = ints(&local_values(m, &mine), m.elem())?;
    Ok(mine.into_iter().zip(v).filter(|&(_, b)| b != 0).map(|(j, _)| j).collect())
}

/// `xmp_pack(v, a, mask)`: v[k] = the k-th element of a (row-major order) whose mask
/// element is non-zero; v's other elements are left as they are.
#[no_mangle]
pub extern "C" fn xmp_pack(v: XmpDesc, a: XmpDesc, mask: XmpDesc) {
    run(c"xmp_pack", || {
        let e = exec_comm()?;
        let (v, a, m) = (DArray::new(v, "the result vector", &e)?, DArray::new(a, "the source array", &e)?, DArray::new(mask, "the mask", &e)?);
        same_shape(&a, &m, "the source array", "the mask")?;
        if v.ndims() != 1 || v.elem() != a.elem() {
            return Err("the result must be a rank-1 array of the source's element type".into());
        }
        let pos = mask_positions(&m)?;
        let k = rank_positions(&e, a.count(), &pos);
        if let Some(&bad) = k.iter().find(|&&k| k >= v.count()) {
            return Err(format!("{} elements are selected but the result has {}", bad + 1, v.count()));
        }
        let vals = a.fetch(&e, &pos);
        v.store(&e, &k, &vals);
        Ok(())
    })
}

/// `xmp_unpack(a, v, mask)`: the k-th element of a (row-major order) whose mask
/// element is non-zero becomes v[k]; a's other elements are left as they are.
#[no_mangle]
pub extern "C" fn xmp_unpack(a: XmpDesc, v: XmpDesc, mask: XmpDesc) {
    run(c"xmp_unpack", || {
        let e = exec_comm()?;
        let (a, v, m) = (DArray::new(a, "the result array", &e)?, DArray::new(v, "the source vector", &e)?, DArray::new(mask, "the mask", &e)?);
        same_shape(&a, &m, "the result array", "the mask")?;
        if v.ndims() != 1 || v.elem() != a.elem() {
            return Err("the source must be a rank-1 array of the result's element type".into());
        }
        let pos = mask_positions(&m)?;
        let k = rank_positions(&e, a.count(), &pos);
        if let Some(&bad) = k.iter().find(|&&k| k >= v.count()) {
            return Err(format!("{} elements are selected but the source vector has {}", bad + 1, v.count()));
        }
        let vals = v.fetch(&e, &k);
        a.store(&e, &pos, &vals);
        Ok(())
    })
}

/// `xmp_transpose(b, a, opt)`: b[i][j] = a[j][i] (rank 2). `opt` (Omni: whether a may
/// be overwritten) does not change the result.
#[no_mangle]
pub extern "C" fn xmp_transpose(b: XmpDesc, a: XmpDesc, opt: c_int) {
    let _ = opt;
    run(c"xmp_transpose", || {
        let e = exec_comm()?;
        let (b, a) = (DArray::new(b, "the result", &e)?, DArray::new(a, "the source array", &e)?);
        if a.ndims() != 2 || b.ndims() != 2 || a.extent()[0] != b.extent()[1] || a.extent()[1] != b.extent()[0] || a.elem() != b.elem() {
            return Err(format!("the result ({:?}) is not the transposed shape of the source ({:?}) of one element type", b.extent(), a.extent()));
        }
        let mine = a.canonical_elems();
        let (n, m) = (a.extent()[0], a.extent()[1]);
        let dst: Vec<i64> = mine.iter().map(|&l| (l % m) * n + l / m).collect();
        b.store(&e, &dst, &local_values(&a, &mine));
        Ok(())
    })
}

/// Element types the arithmetic routines know.
pub trait Num: Pod {
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
}
macro_rules! num_int {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
        }
    )*};
}
num_int!(i8, u8, i16, u16, i32, u32, i64, u64);
macro_rules! num_float {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn add(self, o: Self) -> Self { self + o }
            fn mul(self, o: Self) -> Self { self * o }
        }
    )*};
}
num_float!(f32, f64);

/// C's `float _Complex` / `double _Complex` (real, imaginary), for xmp_matmul.
#[derive(Clone, Copy, Default, PartialEq, PartialOrd)]
#[repr(C)]
pub struct Complex<T>([T; 2]);
impl Pod for Complex<f32> {}
impl Pod for Complex<f64> {}
macro_rules! num_complex {
    ($($t:ty),*) => {$(
        impl Num for Complex<$t> {
            fn add(self, o: Self) -> Self { Complex([self.0[0] + o.0[0], self.0[1] + o.0[1]]) }
            fn mul(self, o: Self) -> Self {
                Complex([self.0[0] * o.0[0] - self.0[1] * o.0[1], self.0[0] * o.0[1] + self.0[1] * o.0[0]])
            }
        }
    )*};
}
num_complex!(f32, f64);

fn from_bytes<T: Pod>(b: &[u8]) -> Vec<T> {
    let n = b.len() / std::mem::size_of::<T>();
    let mut v = vec![T::default(); n];
    // SAFETY: v holds exactly b.len() bytes of plain data.
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), v.as_mut_ptr() as *mut u8, n * std::mem::size_of::<T>()) };
    v
}

fn to_bytes<T: Pod>(v: &[T]) -> Vec<u8> {
    // SAFETY: plain data.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }.to_vec()
}

/// Calls `$f::<T>($args)` for the Rust type of XMPC_TYPE code `$ty`.
macro_rules! by_type {
    ($ty:expr, $size:expr, $f:ident ($($arg:expr),*)) => {
        match $ty {
            XMPC_TYPE_CHAR => $f::<i8>($($arg),*),
            XMPC_TYPE_UCHAR | XMPC_TYPE_BOOL => $f::<u8>($($arg),*),
            XMPC_TYPE_SHORT => $f::<i16>($($arg),*),
            XMPC_TYPE_USHORT => $f::<u16>($($arg),*),
            XMPC_TYPE_INT => $f::<i32>($($arg),*),
            XMPC_TYPE_UINT => $f::<u32>($($arg),*),
            XMPC_TYPE_LONG | XMPC_TYPE_LONGLONG if $size == 8 => $f::<i64>($($arg),*),
            XMPC_TYPE_ULONG | XMPC_TYPE_ULONGLONG if $size == 8 => $f::<u64>($($arg),*),
            XMPC_TYPE_FLOAT => $f::<f32>($($arg),*),
            XMPC_TYPE_DOUBLE => $f::<f64>($($arg),*),
            XMPC_TYPE_FLOAT_COMPLEX => $f::<Complex<f32>>($($arg),*),
            XMPC_TYPE_DOUBLE_COMPLEX => $f::<Complex<f64>>($($arg),*),
            -1 => Err("the element type of the array is not known to the runtime (an array declared in Fortran or by a pointer without a type)".to_string()),
            t => Err(format!("element type code {t} is not supported (integer and real types are)")),
        }
    };
}

fn matmul_t<T: Num>(e: &Exec, x: &DArray, a: &DArray, b: &DArray) -> Result<(), String> {
    let (n, k, m) = (a.extent()[0], a.extent()[1], b.extent()[1]);
    // my result block is rows I x columns J
    let dims = if x.is_canonical() { x.owned_dims() } else { vec![vec![], vec![]] };
    let (rows, cols) = (&dims[0], &dims[1]);
    let (rows, cols): (&[i64], &[i64]) = if rows.is_empty() || cols.is_empty() { (&[], &[]) } else { (rows, cols) };
    let alin: Vec<i64> = rows.iter().flat_map(|&i| (0..k).map(move |kk| i * k + kk)).collect();
    let blin: Vec<i64> = (0..k).flat_map(|kk| cols.iter().map(move |&j| kk * m + j)).collect();
    let av: Vec<T> = from_bytes(&a.fetch(e, &alin));
    let bv: Vec<T> = from_bytes(&b.fetch(e, &blin));
    let (nr, nc) = (rows.len(), cols.len());
    let mut c = vec![T::default(); nr * nc];
    for r in 0..nr {
        for kk in 0..k as usize {
            let s = av[r * k as usize + kk];
            for q in 0..nc {
                c[r * nc + q] = c[r * nc + q].add(s.mul(bv[kk * nc + q]));
            }
        }
    }
    let xlin: Vec<i64> = rows.iter().flat_map(|&i| cols.iter().map(move |&j| i * m + j)).collect();
    let _ = n;
    x.store(e, &xlin, &to_bytes(&c));
    Ok(())
}

/// `xmp_matmul(x, a, b)`: x = a·b for rank-2 arrays (x[i][j] = Σ_k a[i][k]·b[k][j]).
/// Each result block's owner fetches the rows of a and columns of b it needs.
#[no_mangle]
pub extern "C" fn xmp_matmul(x: XmpDesc, a: XmpDesc, b: XmpDesc) {
    run(c"xmp_matmul", || {
        let e = exec_comm()?;
        let (x, a, b) = (DArray::new(x, "the result", &e)?, DArray::new(a, "the first operand", &e)?, DArray::new(b, "the second operand", &e)?);
        if x.ndims() != 2 || a.ndims() != 2 || b.ndims() != 2 {
            return Err("the arguments must be rank-2 arrays".into());
        }
        let (xe, ae, be) = (x.extent(), a.extent(), b.extent());
        if ae[1] != be[0] || xe[0] != ae[0] || xe[1] != be[1] {
            return Err(format!("shapes {xe:?} = {ae:?} x {be:?} do not conform"));
        }
        let ty = x.a.ty;
        if a.a.ty != ty || b.a.ty != ty || a.elem() != x.elem() || b.elem() != x.elem() {
            return Err("the three arrays must have one element type".into());
        }
        by_type!(ty, x.elem(), matmul_t(&e, &x, &a, &b))
    })
}

fn sort_t<T: Num + PartialOrd>(e: &Exec, src: &DArray, dst: &DArray, up: bool) -> Result<(), String> {
    let np = e.world.len();
    let mine = src.canonical_elems();
    let mut v: Vec<T> = from_bytes(&local_values(src, &mine));
    let cmp = |x: &T, y: &T| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal);
    v.sort_unstable_by(cmp);
    // regular samples of every node, to every node; splitters from them
    let nsamp = (np - 1).min(v.len());
    let samples: Vec<T> = (0..nsamp).map(|s| v[(s + 1) * v.len() / (nsamp + 1)]).collect();
    let all = exchange(e, &vec![samples; np]);
    let mut pool: Vec<T> = all.into_iter().flatten().collect();
    pool.sort_unstable_by(cmp);
    let split: Vec<T> = if pool.is_empty() { vec![] } else { (1..np).map(|s| pool[(s * pool.len() / np).min(pool.len() - 1)]).collect() };
    let mut buckets: Vec<Vec<T>> = vec![vec![]; np];
    for x in v {
        let b = split.partition_point(|s| cmp(s, &x) != std::cmp::Ordering::Greater);
        buckets[b.min(np - 1)].push(x);
    }
    let mut piece: Vec<T> = exchange(e, &buckets).into_iter().flatten().collect();
    piece.sort_unstable_by(cmp);
    let counts = allgather(e, piece.len() as i64);
    let n = dst.count();
    let total: i64 = counts.iter().sum();
    if total != n {
        return Err(format!("the source has {total} elements but the result has {n}"));
    }
    let base: i64 = counts[..e.rank as usize].iter().sum();
    let pos: Vec<i64> = (0..piece.len() as i64).map(|k| if up { base + k } else { n - 1 - (base + k) }).collect();
    dst.store(e, &pos, &to_bytes(&piece));
    Ok(())
}

fn sort(name: &'static CStr, src: XmpDesc, dst: XmpDesc, up: bool) {
    run(name, || {
        let e = exec_comm()?;
        let (s, d) = (DArray::new(src, "the source array", &e)?, DArray::new(dst, "the result", &e)?);
        if s.ndims() != 1 || d.ndims() != 1 {
            return Err("the arguments must be rank-1 arrays".into());
        }
        if s.a.ty != d.a.ty || s.elem() != d.elem() {
            return Err("the source and the result must have one element type".into());
        }
        if s.a.ty == XMPC_TYPE_FLOAT_COMPLEX || s.a.ty == XMPC_TYPE_DOUBLE_COMPLEX {
            return Err("complex values have no order".into());
        }
        by_type!(s.a.ty, s.elem(), sort_t(&e, &s, &d, up))
    })
}

/// `xmp_sort_up(a, b)`: b = the elements of a in ascending order (rank 1, one size),
/// by sample sort (buckets by splitters drawn from every node's regular samples).
#[no_mangle]
pub extern "C" fn xmp_sort_up(a: XmpDesc, b: XmpDesc) {
    sort(c"xmp_sort_up", a, b, true)
}

/// `xmp_sort_down(a, b)`: b = the elements of a in descending order.
#[no_mangle]
pub extern "C" fn xmp_sort_down(a: XmpDesc, b: XmpDesc) {
    sort(c"xmp_sort_down", a, b, false)
}
