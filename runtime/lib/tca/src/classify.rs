//! Halo classification per dimension (seed 002 §5.3, §6.1.2; Omni's
//! `xmp_reflect_hybrid.c`): the halo of one dimension of an array is `count`
//! blocks of `blocklength` bytes, `stride` bytes apart. Omni's thresholds:
//!
//! | shape | route |
//! |---|---|
//! | count = 1 (contiguous), ≤ 256 KB | TCA `Memcpy` (one descriptor) |
//! | count = 1, > 256 KB | MPI persistent point to point |
//! | count > 1, block ≤ 8 B | stride: pack, TCA `Memcpy`, unpack |
//! | count > 1, block > 8 B | block-stride: TCA `Memcpy2D`, no packing |
//!
//! A halo whose blocks touch (blocklength = stride) is contiguous: count 1.

/// Omni's `_XMP_TCA_USE_PACK_SIZE`: blocks of at most this many bytes are packed.
pub const PACK_BYTES: usize = 8;
/// Omni's `_XMP_TCA_USE_GPUDIRECT_SIZE`: contiguous halos above this go over MPI.
pub const MPI_BYTES: usize = 256 * 1024;

/// Memory order of the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Last index contiguous.
    C,
    /// First index contiguous.
    Fortran,
}

/// The three halo shapes of the thesis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Block,
    BlockStride,
    Stride,
}

/// How a halo travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// One TCA `Memcpy` descriptor.
    TcaMemcpy,
    /// One TCA `Memcpy2D` descriptor (count rows of blocklength, pitch = stride).
    TcaMemcpy2D,
    /// Pack into a buffer, one `Memcpy`, unpack.
    PackTca,
    /// MPI persistent send/recv (InfiniBand).
    Mpi,
}

/// The shape of one halo: `count` blocks of `blocklength` bytes, `stride` apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub count: usize,
    pub blocklength: usize,
    pub stride: usize,
}

impl Shape {
    pub fn bytes(&self) -> usize {
        self.count * self.blocklength
    }
}

/// Shape of the halo of dimension `dim` (width `width`) of an array whose
/// allocated extents (shadows included) are `extents` (in index order, as
/// declared), elements of `elem` bytes. The halo spans the whole allocated
/// extent of every other dimension (so corners travel with the later
/// dimensions). `None` when `dim` is out of range or `width` exceeds the extent.
pub fn halo_shape(order: Order, extents: &[usize], dim: usize, width: usize, elem: usize) -> Option<Shape> {
    if dim >= extents.len() || width == 0 || width > extents[dim] || elem == 0 {
        return None;
    }
    // dimensions from the slowest to the fastest in memory
    let (outer, inner): (&[usize], &[usize]) = match order {
        Order::C => (&extents[..dim], &extents[dim + 1..]),
        Order::Fortran => (&extents[dim + 1..], &extents[..dim]),
    };
    let inner_bytes: usize = inner.iter().product::<usize>() * elem;
    let count: usize = outer.iter().product();
    let blocklength = width * inner_bytes;
    let stride = extents[dim] * inner_bytes;
    Some(normalise(Shape { count, blocklength, stride }))
}

/// Merges touching blocks into one (count 1).
pub fn normalise(s: Shape) -> Shape {
    if s.count <= 1 || s.blocklength == s.stride {
        Shape { count: 1, blocklength: s.count.max(1) * s.blocklength, stride: s.count.max(1) * s.blocklength }
    } else {
        s
    }
}

/// Kind and route of a halo (Omni's thresholds).
pub fn classify(s: Shape) -> (Kind, Route) {
    let s = normalise(s);
    if s.count == 1 {
        (Kind::Block, if s.blocklength > MPI_BYTES { Route::Mpi } else { Route::TcaMemcpy })
    } else if s.blocklength <= PACK_BYTES {
        (Kind::Stride, Route::PackTca)
    } else {
        (Kind::BlockStride, Route::TcaMemcpy2D)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Byte offsets of the lower halo of `dim`, by walking every element.
    fn brute(order: Order, ext: &[usize], dim: usize, width: usize, elem: usize) -> BTreeSet<usize> {
        let n: usize = ext.iter().product();
        let mut out = BTreeSet::new();
        for lin in 0..n {
            // index vector from a linear count in C order over `ext`
            let mut idx = vec![0; ext.len()];
            let mut r = lin;
            for d in (0..ext.len()).rev() {
                idx[d] = r % ext[d];
                r /= ext[d];
            }
            if idx[dim] >= width {
                continue;
            }
            let off = match order {
                Order::C => idx.iter().zip(ext).fold(0, |a, (&i, &e)| a * e + i),
                Order::Fortran => idx.iter().zip(ext).rev().fold(0, |a, (&i, &e)| a * e + i),
            };
            for b in 0..elem {
                out.insert(off * elem + b);
            }
        }
        out
    }

    fn covered(s: Shape) -> BTreeSet<usize> {
        (0..s.count).flat_map(|c| (0..s.blocklength).map(move |b| c * s.stride + b)).collect()
    }

    fn shapes(nd: usize) -> Vec<Vec<usize>> {
        let mut v = vec![vec![]];
        for _ in 0..nd {
            let top = if nd == 4 { 3 } else { 4 };
            v = v.into_iter().flat_map(|p| (1..=top).map(move |e| [p.clone(), vec![e]].concat())).collect();
        }
        v
    }

    /// Every 1-4-D array with extents 1..4 (1..3 in 4-D; + 2 shadows of each
    /// width), every dimension, width and element size: the shape covers exactly
    /// the halo's bytes (enumerated element by element), C and Fortran agree with each other reversed, and the route
    /// follows Omni's thresholds.
    #[test]
    fn exhaustive_over_orders_ranks_widths() {
        let mut kinds = BTreeSet::new();
        let mut n = 0;
        for nd in 1..=4 {
            for base in shapes(nd) {
                for width in 1..=2 {
                    let ext: Vec<usize> = base.iter().map(|e| e + 2 * width).collect();
                    for elem in [1, 2, 4, 8, 16] {
                        for dim in 0..nd {
                            for order in [Order::C, Order::Fortran] {
                                let s = halo_shape(order, &ext, dim, width, elem).unwrap();
                                if elem == 1 {
                                    assert_eq!(covered(s), brute(order, &ext, dim, width, elem), "{order:?} {ext:?} dim {dim} w {width}");
                                } else {
                                    // a wider element scales every byte count
                                    let one = halo_shape(order, &ext, dim, width, 1).unwrap();
                                    assert_eq!((s.count, s.blocklength, s.stride), (one.count, one.blocklength * elem, one.stride * elem));
                                }
                                let rev: Vec<usize> = ext.iter().rev().copied().collect();
                                let other = if order == Order::C { Order::Fortran } else { Order::C };
                                assert_eq!(halo_shape(other, &rev, nd - 1 - dim, width, elem), Some(s));
                                let (k, r) = classify(s);
                                let want = if s.count == 1 {
                                    (Kind::Block, if s.bytes() > MPI_BYTES { Route::Mpi } else { Route::TcaMemcpy })
                                } else if s.blocklength <= PACK_BYTES {
                                    (Kind::Stride, Route::PackTca)
                                } else {
                                    (Kind::BlockStride, Route::TcaMemcpy2D)
                                };
                                assert_eq!((k, r), want);
                                // the slowest dimension is always one block
                                let slowest = if order == Order::C { 0 } else { nd - 1 };
                                if dim == slowest {
                                    assert_eq!(k, Kind::Block);
                                }
                                kinds.insert(format!("{k:?}"));
                                n += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(kinds.len(), 3, "all three kinds occur: {kinds:?}");
        assert!(n > 10_000, "{n} cases");
    }

    /// The thesis' 3-D example (§5.3, fig. 5.5): N³ doubles in C order, width 1:
    /// jk-plane block, ik-plane block-stride, ij-plane stride.
    #[test]
    fn thesis_three_planes() {
        let n = 64;
        let ext = [n + 2, n + 2, n + 2];
        assert_eq!(classify(halo_shape(Order::C, &ext, 0, 1, 8).unwrap()).0, Kind::Block);
        assert_eq!(classify(halo_shape(Order::C, &ext, 1, 1, 8).unwrap()).0, Kind::BlockStride);
        assert_eq!(classify(halo_shape(Order::C, &ext, 2, 1, 8).unwrap()), (Kind::Stride, Route::PackTca));
        // Fortran: the first index is contiguous, so the roles swap
        assert_eq!(classify(halo_shape(Order::Fortran, &ext, 0, 1, 8).unwrap()).0, Kind::Stride);
        assert_eq!(classify(halo_shape(Order::Fortran, &ext, 2, 1, 8).unwrap()).0, Kind::Block);
    }

    #[test]
    fn thresholds_at_their_edges() {
        let s = |count, blocklength, stride| Shape { count, blocklength, stride };
        assert_eq!(classify(s(1, MPI_BYTES, MPI_BYTES)).1, Route::TcaMemcpy);
        assert_eq!(classify(s(1, MPI_BYTES + 1, MPI_BYTES + 1)).1, Route::Mpi);
        assert_eq!(classify(s(4, 8, 64)).1, Route::PackTca);
        assert_eq!(classify(s(4, 9, 64)).1, Route::TcaMemcpy2D);
        // touching blocks are one contiguous block, routed by total size
        assert_eq!(classify(s(4, 8, 8)), (Kind::Block, Route::TcaMemcpy));
        assert_eq!(classify(s(2, MPI_BYTES, MPI_BYTES)), (Kind::Block, Route::Mpi));
        assert_eq!(halo_shape(Order::C, &[4, 4], 2, 1, 8), None);
        assert_eq!(halo_shape(Order::C, &[4, 4], 0, 5, 8), None);
    }
}
