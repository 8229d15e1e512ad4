//! `reduction` (directive and `loop` clause): how many elements a reduction variable
//! holds, and how a `loop` clause restarts the variable before the loop.

use xmpc_ir::directive::RedOp;

/// How a reduction variable is declared, as far as its element count goes.
#[derive(Clone, Debug, PartialEq)]
pub enum RedShape {
    /// A scalar: one element.
    Scalar,
    /// An array object: the whole object (`sizeof(a)/sizeof(a[0])` in C).
    Array,
    /// A function parameter declared as an array (`int a[N][M]`): C passes a pointer,
    /// so the count comes from the declared extents; `None` for an unknown extent
    /// (`int a[]`).
    ArrayParam(Vec<Option<String>>),
}

/// A reduction variable whose element count cannot be known (an array parameter of
/// unknown extent, `int a[]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownCount;

impl std::fmt::Display for UnknownCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the number of elements of this reduction variable is not known")
    }
}

impl std::error::Error for UnknownCount {}

/// The element count of a reduction variable: `Ok(None)` when the printer's own
/// whole-object count applies.
pub fn element_count(shape: &RedShape) -> Result<Option<String>, UnknownCount> {
    match shape {
        RedShape::Scalar => Ok(Some("1".into())),
        RedShape::Array => Ok(None),
        RedShape::ArrayParam(dims) => {
            let mut parts = Vec::with_capacity(dims.len());
            for d in dims {
                parts.push(d.clone().ok_or(UnknownCount)?);
            }
            Ok(Some(parts.iter().map(|p| format!("({p})")).collect::<Vec<_>>().join(" * ")))
        }
    }
}

/// What Omni's C translator stores into a `loop ... reduction(op:v)` variable before
/// the loop, on every executing node except the first (rank 0 of the executing node
/// set; xmpc: of the node set the reduction runs over, the same set in Omni's tests),
/// so that the first node's value enters the result once: `+`/`-` restart at
/// 0, `*` at 1, and `^` at `~v` — not the identity 0: with an odd number of other
/// nodes the result is the complement of the sequential one (Omni's
/// `loop/reduction_raise` tests expect exactly that, `docs/omni-compat.md`). The
/// operators whose identity is idempotent (`&`, `|`, `&&`, `||`, max/min and their
/// first/last forms) keep the value. Omni's Fortran translator restarts nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LoopRestart {
    Zero,
    One,
    /// `v = ~v`
    Complement,
}

pub fn loop_restart(op: RedOp) -> Option<LoopRestart> {
    match op {
        RedOp::Sum | RedOp::Sub => Some(LoopRestart::Zero),
        RedOp::Prod => Some(LoopRestart::One),
        RedOp::BitXor => Some(LoopRestart::Complement),
        _ => None,
    }
}

impl LoopRestart {
    /// The C (or Fortran) value to store, given the element expression `v`.
    pub fn c_value(self, v: &str) -> String {
        match self {
            LoopRestart::Zero => "0".into(),
            LoopRestart::One => "1".into(),
            LoopRestart::Complement => format!("~{v}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_restart_follows_omni_c() {
        assert_eq!(loop_restart(RedOp::Sum), Some(LoopRestart::Zero));
        assert_eq!(loop_restart(RedOp::Sub), Some(LoopRestart::Zero));
        assert_eq!(loop_restart(RedOp::Prod), Some(LoopRestart::One));
        assert_eq!(loop_restart(RedOp::BitXor), Some(LoopRestart::Complement));
        assert_eq!(LoopRestart::Complement.c_value("s"), "~s");
        for op in [RedOp::BitAnd, RedOp::BitOr, RedOp::LogAnd, RedOp::LogOr, RedOp::Max, RedOp::Min, RedOp::FirstMax, RedOp::LastMin] {
            assert_eq!(loop_restart(op), None, "{op:?}");
        }
    }

    #[test]
    fn array_parameters_count_their_declared_extents() {
        assert_eq!(element_count(&RedShape::Scalar), Ok(Some("1".into())));
        assert_eq!(element_count(&RedShape::Array), Ok(None));
        assert_eq!(element_count(&RedShape::ArrayParam(vec![Some("N".into()), Some("4".into())])), Ok(Some("(N) * (4)".into())));
        assert_eq!(element_count(&RedShape::ArrayParam(vec![None])), Err(UnknownCount));
    }
}
