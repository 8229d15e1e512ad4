//! Datatypes and reduction operators (the numbering is the ABI of lmpi.h,
//! lmpif.h and lmpi.f90).

use std::sync::Mutex;

/// Element kinds that reductions know how to combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// (value, int) pairs for MAXLOC/MINLOC: value kind, pair size in bytes.
    PairF64I32,
    PairF32I32,
    PairI32I32,
    PairI64I32,
    PairF64F64,
    PairF32F32,
    C32,
    C64,
    /// Opaque bytes (derived types): copy only.
    Bytes,
}

/// (code, size in bytes, element kind)
pub const BUILTIN: &[(i32, u64, Elem)] = &[
    (1, 1, Elem::I8),           // LMPI_CHAR
    (2, 1, Elem::U8),           // LMPI_BYTE
    (3, 4, Elem::I32),          // LMPI_INT
    (4, 8, Elem::I64),          // LMPI_LONG
    (5, 8, Elem::I64),          // LMPI_LONG_LONG (and LMPI_LONG_LONG_INT)
    (6, 4, Elem::U32),          // LMPI_UNSIGNED
    (7, 4, Elem::F32),          // LMPI_FLOAT
    (8, 8, Elem::F64),          // LMPI_DOUBLE
    (9, 16, Elem::PairF64I32),  // LMPI_DOUBLE_INT
    (10, 8, Elem::PairF32I32),  // LMPI_FLOAT_INT
    (11, 8, Elem::PairI32I32),  // LMPI_2INT
    (12, 16, Elem::PairI64I32), // LMPI_LONG_INT
    (13, 2, Elem::I16),         // LMPI_SHORT
    (14, 1, Elem::U8),          // LMPI_UNSIGNED_CHAR
    (15, 8, Elem::U64),         // LMPI_UNSIGNED_LONG
    (16, 8, Elem::U64),         // LMPI_UNSIGNED_LONG_LONG
    (17, 1, Elem::U8),          // LMPI_PACKED
    (18, 16, Elem::Bytes),      // LMPI_LONG_DOUBLE
    (19, 1, Elem::I8),          // LMPI_SIGNED_CHAR
    (20, 2, Elem::U16),         // LMPI_UNSIGNED_SHORT
    (21, 4, Elem::I32),         // LMPI_INT32_T
    (22, 8, Elem::I64),         // LMPI_INT64_T
    (23, 8, Elem::U64),         // LMPI_UINT64_T
    (24, 1, Elem::U8),          // LMPI_C_BOOL
    // Fortran
    (40, 4, Elem::I32),         // LMPI_INTEGER
    (41, 4, Elem::F32),         // LMPI_REAL
    (42, 8, Elem::F64),         // LMPI_DOUBLE_PRECISION
    (43, 8, Elem::C32),         // LMPI_COMPLEX
    (44, 16, Elem::C64),        // LMPI_DOUBLE_COMPLEX
    (45, 4, Elem::I32),         // LMPI_LOGICAL
    (46, 1, Elem::U8),          // LMPI_CHARACTER
    (47, 16, Elem::PairF64F64), // LMPI_2DOUBLE_PRECISION
    (48, 8, Elem::PairI32I32),  // LMPI_2INTEGER
    (49, 8, Elem::F64),         // LMPI_REAL8
    (50, 8, Elem::I64),         // LMPI_INTEGER8
    (51, 4, Elem::F32),         // LMPI_REAL4
    (52, 4, Elem::I32),         // LMPI_INTEGER4
    (53, 8, Elem::PairF32F32),  // LMPI_2REAL
];

/// First code of user-defined (derived) datatypes.
pub const DERIVED_BASE: i32 = 1000;

static DERIVED: Mutex<Vec<(u64, Elem)>> = Mutex::new(Vec::new());

/// Size and element kind of a datatype handle.
pub fn info(t: i32) -> Option<(u64, Elem)> {
    if t >= DERIVED_BASE {
        return DERIVED.lock().unwrap_or_else(|e| e.into_inner()).get((t - DERIVED_BASE) as usize).copied();
    }
    BUILTIN.iter().find(|b| b.0 == t).map(|b| (b.1, b.2))
}

pub fn size(t: i32) -> Option<u64> {
    info(t).map(|i| i.0)
}

/// A derived type of `bytes` bytes made of `base` elements (contiguous, or
/// vector: the extent's holes are not modelled).
pub fn derive(bytes: u64, base: i32) -> Option<i32> {
    let (_, e) = info(base)?;
    let mut d = DERIVED.lock().unwrap_or_else(|e| e.into_inner());
    d.push((bytes, e));
    Some(DERIVED_BASE + d.len() as i32 - 1)
}

pub const OP_SUM: i32 = 1;
pub const OP_MAX: i32 = 2;
pub const OP_MIN: i32 = 3;
pub const OP_PROD: i32 = 4;
pub const OP_LAND: i32 = 5;
pub const OP_LOR: i32 = 6;
pub const OP_BAND: i32 = 7;
pub const OP_BOR: i32 = 8;
pub const OP_MAXLOC: i32 = 9;
pub const OP_MINLOC: i32 = 10;
pub const OP_LXOR: i32 = 11;
pub const OP_BXOR: i32 = 12;

pub fn valid_op(op: i32) -> bool {
    (1..=12).contains(&op)
}

macro_rules! arith {
    ($t:ty, $op:expr, $a:expr, $b:expr) => {{
        let n = $a.len() / std::mem::size_of::<$t>();
        for i in 0..n {
            let o = i * std::mem::size_of::<$t>();
            let x = <$t>::from_ne_bytes($a[o..o + std::mem::size_of::<$t>()].try_into().unwrap());
            let y = <$t>::from_ne_bytes($b[o..o + std::mem::size_of::<$t>()].try_into().unwrap());
            let z: $t = combine_num($op, x, y);
            $a[o..o + std::mem::size_of::<$t>()].copy_from_slice(&z.to_ne_bytes());
        }
    }};
}

trait Num: Copy + PartialOrd {
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn truth(self) -> bool;
    fn from_bool(b: bool) -> Self;
    fn bits(self, o: Self, op: i32) -> Self;
}

macro_rules! int_num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            fn truth(self) -> bool { self != 0 }
            fn from_bool(b: bool) -> Self { b as Self }
            fn bits(self, o: Self, op: i32) -> Self {
                match op { OP_BAND => self & o, OP_BOR => self | o, _ => self ^ o }
            }
        }
    )*};
}
int_num!(i8, u8, i16, u16, i32, u32, i64, u64);

macro_rules! float_num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn add(self, o: Self) -> Self { self + o }
            fn mul(self, o: Self) -> Self { self * o }
            fn truth(self) -> bool { self != 0.0 }
            fn from_bool(b: bool) -> Self { if b { 1.0 } else { 0.0 } }
            fn bits(self, _o: Self, _op: i32) -> Self { self }
        }
    )*};
}
float_num!(f32, f64);

fn combine_num<T: Num>(op: i32, x: T, y: T) -> T {
    match op {
        OP_SUM => x.add(y),
        OP_PROD => x.mul(y),
        OP_MAX => {
            if y > x {
                y
            } else {
                x
            }
        }
        OP_MIN => {
            if y < x {
                y
            } else {
                x
            }
        }
        OP_LAND => T::from_bool(x.truth() && y.truth()),
        OP_LOR => T::from_bool(x.truth() || y.truth()),
        OP_LXOR => T::from_bool(x.truth() != y.truth()),
        _ => x.bits(y, op),
    }
}

fn pairs<V: Num + Copy, const VS: usize, const STRIDE: usize, const IOFF: usize, const IS: usize>(
    op: i32,
    a: &mut [u8],
    b: &[u8],
    rd: fn(&[u8]) -> V,
    wr: fn(V, &mut [u8]),
    rdi: fn(&[u8]) -> i64,
    wri: fn(i64, &mut [u8]),
) {
    for k in 0..a.len() / STRIDE {
        let o = k * STRIDE;
        let (x, y) = (rd(&a[o..o + VS]), rd(&b[o..o + VS]));
        let (i, j) = (rdi(&a[o + IOFF..o + IOFF + IS]), rdi(&b[o + IOFF..o + IOFF + IS]));
        let take_b = match op {
            OP_MAXLOC => y > x || (y == x && j < i),
            OP_MINLOC => y < x || (y == x && j < i),
            _ => false,
        };
        if take_b {
            wr(y, &mut a[o..o + VS]);
            wri(j, &mut a[o + IOFF..o + IOFF + IS]);
        }
    }
}

fn rd64(b: &[u8]) -> f64 {
    f64::from_ne_bytes(b.try_into().unwrap())
}
fn wr64(v: f64, b: &mut [u8]) {
    b.copy_from_slice(&v.to_ne_bytes())
}
fn rd32(b: &[u8]) -> f32 {
    f32::from_ne_bytes(b.try_into().unwrap())
}
fn wr32(v: f32, b: &mut [u8]) {
    b.copy_from_slice(&v.to_ne_bytes())
}
fn rdi32(b: &[u8]) -> i32 {
    i32::from_ne_bytes(b.try_into().unwrap())
}
fn wri32(v: i32, b: &mut [u8]) {
    b.copy_from_slice(&v.to_ne_bytes())
}
fn rdi64(b: &[u8]) -> i64 {
    i64::from_ne_bytes(b.try_into().unwrap())
}
fn wri64(v: i64, b: &mut [u8]) {
    b.copy_from_slice(&v.to_ne_bytes())
}
fn rdi32w(b: &[u8]) -> i64 {
    rdi32(b) as i64
}
fn wri32w(v: i64, b: &mut [u8]) {
    wri32(v as i32, b)
}
fn rdf64w(b: &[u8]) -> i64 {
    rd64(b) as i64
}
fn wrf64w(v: i64, b: &mut [u8]) {
    wr64(v as f64, b)
}
fn rdf32w(b: &[u8]) -> i64 {
    rd32(b) as i64
}
fn wrf32w(v: i64, b: &mut [u8]) {
    wr32(v as f32, b)
}

/// a = a (op) b, elementwise. Returns false if the op does not apply to the type.
pub fn combine(op: i32, e: Elem, a: &mut [u8], b: &[u8]) -> bool {
    let loc = op == OP_MAXLOC || op == OP_MINLOC;
    match e {
        Elem::PairF64I32 if loc => pairs::<f64, 8, 16, 8, 4>(op, a, b, rd64, wr64, rdi32w, wri32w),
        Elem::PairF32I32 if loc => pairs::<f32, 4, 8, 4, 4>(op, a, b, rd32, wr32, rdi32w, wri32w),
        Elem::PairI32I32 if loc => pairs::<i32, 4, 8, 4, 4>(op, a, b, rdi32, wri32, rdi32w, wri32w),
        Elem::PairI64I32 if loc => pairs::<i64, 8, 16, 8, 4>(op, a, b, rdi64, wri64, rdi32w, wri32w),
        Elem::PairF64F64 if loc => pairs::<f64, 8, 16, 8, 8>(op, a, b, rd64, wr64, rdf64w, wrf64w),
        Elem::PairF32F32 if loc => pairs::<f32, 4, 8, 4, 4>(op, a, b, rd32, wr32, rdf32w, wrf32w),
        _ if loc => return false,
        Elem::I8 => arith!(i8, op, a, b),
        Elem::U8 => arith!(u8, op, a, b),
        Elem::I16 => arith!(i16, op, a, b),
        Elem::U16 => arith!(u16, op, a, b),
        Elem::I32 => arith!(i32, op, a, b),
        Elem::U32 => arith!(u32, op, a, b),
        Elem::I64 => arith!(i64, op, a, b),
        Elem::U64 => arith!(u64, op, a, b),
        Elem::F32 | Elem::C32 if op == OP_SUM || e == Elem::F32 => arith!(f32, op, a, b),
        Elem::F64 | Elem::C64 if op == OP_SUM || e == Elem::F64 => arith!(f64, op, a, b),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_and_maxloc() {
        let mut a: Vec<u8> = [1i32, 2, 3].iter().flat_map(|x| x.to_ne_bytes()).collect();
        let b: Vec<u8> = [10i32, 20, 30].iter().flat_map(|x| x.to_ne_bytes()).collect();
        assert!(combine(OP_SUM, Elem::I32, &mut a, &b));
        let v: Vec<i32> = a.chunks(4).map(|c| i32::from_ne_bytes(c.try_into().unwrap())).collect();
        assert_eq!(v, [11, 22, 33]);
        let mut p = [0u8; 16];
        p[..8].copy_from_slice(&1.5f64.to_ne_bytes());
        p[8..12].copy_from_slice(&3i32.to_ne_bytes());
        let mut q = [0u8; 16];
        q[..8].copy_from_slice(&2.5f64.to_ne_bytes());
        q[8..12].copy_from_slice(&7i32.to_ne_bytes());
        assert!(combine(OP_MAXLOC, Elem::PairF64I32, &mut p, &q));
        assert_eq!(f64::from_ne_bytes(p[..8].try_into().unwrap()), 2.5);
        assert_eq!(i32::from_ne_bytes(p[8..12].try_into().unwrap()), 7);
    }
}
