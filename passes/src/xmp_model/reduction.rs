//! `reduction` (directive and `loop` clause): how many elements a reduction variable
//! holds.

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

/// The element count of a reduction variable: `Ok(None)` when the printer's own
/// whole-object count applies; `Err(())` when the count cannot be known.
pub fn element_count(shape: &RedShape) -> Result<Option<String>, ()> {
    match shape {
        RedShape::Scalar => Ok(Some("1".into())),
        RedShape::Array => Ok(None),
        RedShape::ArrayParam(dims) => {
            let mut parts = Vec::with_capacity(dims.len());
            for d in dims {
                parts.push(d.clone().ok_or(())?);
            }
            Ok(Some(parts.iter().map(|p| format!("({p})")).collect::<Vec<_>>().join(" * ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_parameters_count_their_declared_extents() {
        assert_eq!(element_count(&RedShape::Scalar), Ok(Some("1".into())));
        assert_eq!(element_count(&RedShape::Array), Ok(None));
        assert_eq!(element_count(&RedShape::ArrayParam(vec![Some("N".into()), Some("4".into())])), Ok(Some("(N) * (4)".into())));
        assert_eq!(element_count(&RedShape::ArrayParam(vec![None])), Err(()));
    }
}
