//! Array sections of a data directive (`bcast (a[s:len][:])`): which part of the
//! section is one contiguous block of memory, so that a printer emits one runtime call
//! per block and loops over the rest.

/// One dimension of a section, in storage order (outermost first: C's order; a
/// Fortran printer passes its dimensions reversed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SecDim {
    /// `:` with no bounds: the whole dimension.
    Full,
    /// A single index.
    Index,
    /// `lo:hi` (`unit_stride`) or `lo:hi:st`.
    Range { unit_stride: bool },
}

/// How a section is walked: dimensions `0..looped` are looped over (each iteration
/// picks one index in each); dimension `looped` (if `run_dim`) contributes its range
/// to the block, and every dimension after it is whole. The block of one iteration is
/// contiguous.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walk {
    pub looped: usize,
    /// Dimension `looped` is a unit-stride range or an index that starts the block
    /// (false: the block is the whole dimensions after `looped`, or one element).
    pub run_dim: bool,
}

/// The fewest blocks: trailing whole dimensions are one block; the dimension before
/// them joins it when it is an index or a unit-stride range; the rest is looped over.
pub fn walk(dims: &[SecDim]) -> Walk {
    let k = dims.len() - dims.iter().rev().take_while(|d| **d == SecDim::Full).count();
    if k == 0 {
        return Walk { looped: 0, run_dim: false };
    }
    match dims[k - 1] {
        SecDim::Index | SecDim::Range { unit_stride: true } => Walk { looped: k - 1, run_dim: true },
        _ => Walk { looped: k, run_dim: false },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SecDim::*;

    #[test]
    fn blocks_are_as_large_as_contiguity_allows() {
        // a[2:5]: one block from a[2].
        assert_eq!(walk(&[Range { unit_stride: true }]), Walk { looped: 0, run_dim: true });
        // a[s:len][:]: one block of len rows.
        assert_eq!(walk(&[Range { unit_stride: true }, Full]), Walk { looped: 0, run_dim: true });
        // a[:][2:3]: a loop over rows, a block of 3 in each.
        assert_eq!(walk(&[Full, Range { unit_stride: true }]), Walk { looped: 1, run_dim: true });
        // a[0:n:2][:]: a loop over every other row, each row one block.
        assert_eq!(walk(&[Range { unit_stride: false }, Full]), Walk { looped: 1, run_dim: false });
        // a[:][:]: the whole array.
        assert_eq!(walk(&[Full, Full]), Walk { looped: 0, run_dim: false });
        // a[1:4:2]: one element per iteration.
        assert_eq!(walk(&[Range { unit_stride: false }]), Walk { looped: 1, run_dim: false });
    }
}
