//! References to aligned arrays inside a `loop`: whether a subscript that is a
//! work-shared loop index names the element this node owns.

/// A subscript `v` (or `v ± c`) of array dimension `d`, where `v` is the index that
/// the enclosing `loop` work-shares over template dimension `loop_dim`, and the array
/// dimension is aligned with template dimension `align_dim` (`None`: collapsed `*`) of
/// the same template. The element is owned by the executing node only when the two
/// dimensions are the same, or the array's one is not distributed. Omni's C translator
/// refuses the other case ("array ref is not consistent with array alignment"): it
/// turns the loop index into a local one and would address another dimension's block.
pub fn inconsistent(loop_dim: usize, align_dim: Option<usize>, align_dim_distributed: bool) -> bool {
    match align_dim {
        Some(k) => k != loop_dim && align_dim_distributed,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_another_distributed_dimension_is_inconsistent() {
        assert!(!inconsistent(1, Some(1), true));
        assert!(inconsistent(1, Some(0), true));
        assert!(!inconsistent(1, Some(0), false));
        assert!(!inconsistent(0, None, true));
    }
}
