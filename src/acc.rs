//! XcalableACC build modes (`docs/xacc.md`): which OpenACC flags `mpicc`/`mpif90` get.
//!
//! - `--acc` or `--acc=host`, or a source with `#pragma acc` / `!$acc` and no `--acc`:
//!   `-fopenacc`, GCC's host fallback (the device data are the host storage).
//! - `--acc=nvptx`: `-fopenacc -foffload=nvptx-none` (Debian's gcc-12-offload-nvptx),
//!   with `-foffload-options=nvptx-none=-misa=sm_80` unless `$XMPC_ACC_ISA` names
//!   another PTX ISA; offloaded code runs on an NVIDIA GPU when libcuda is found.
//! - `--acc=none`: no OpenACC flag (the `acc` pragmas are ignored by the compiler).

/// True when a (translated) source holds an OpenACC directive.
pub fn uses_acc(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start();
        if let Some(r) = t.strip_prefix('#') {
            let r = r.trim_start();
            return r
                .strip_prefix("pragma")
                .is_some_and(|x| x.starts_with([' ', '\t']) && x.trim_start().starts_with("acc") && x.trim_start()[3..].starts_with([' ', '\t']));
        }
        let low = t.get(..5).map(|s| s.to_ascii_lowercase());
        let fixed = l.get(..5).map(|s| s.to_ascii_lowercase());
        matches!(low.as_deref(), Some("!$acc")) || matches!(fixed.as_deref(), Some("c$acc" | "*$acc"))
    })
}

/// The compiler flags for `mode` (`--acc[=MODE]`, `None`: not given) and the sources.
pub fn flags<'t>(mode: Option<&str>, mut texts: impl Iterator<Item = &'t str>) -> Result<Vec<String>, String> {
    let open = || vec!["-fopenacc".to_string()];
    match mode {
        None if texts.any(uses_acc) => Ok(open()),
        None | Some("none") => Ok(vec![]),
        Some("host") => Ok(open()),
        Some("nvptx") => {
            let isa = std::env::var("XMPC_ACC_ISA").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "sm_80".into());
            Ok(vec!["-fopenacc".into(), "-foffload=nvptx-none".into(), format!("-foffload-options=nvptx-none=-misa={isa}")])
        }
        Some(m) => Err(format!("unknown OpenACC mode `--acc={m}` (host, nvptx or none)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_openacc_directives() {
        assert!(uses_acc("int a;\n#pragma acc data copy(a)\n"));
        assert!(uses_acc("  #  pragma   acc parallel loop\n"));
        // multi-byte text in the first columns (a Japanese comment) must not be sliced
        assert!(!uses_acc("! 1次元ラプラス方程式\nx = 1\n"));
        assert!(!uses_acc("次元次元\n"));
        assert!(uses_acc("  !$ACC parallel loop\n"));
        assert!(uses_acc("c$acc kernels\n"));
        assert!(!uses_acc("#pragma xmp reflect (a) acc\n"));
        assert!(!uses_acc("#pragma accumulate\n// #pragma acc in a line comment\n"));
        assert!(!uses_acc("#pragma omp parallel\n! $acc\n"));
    }

    #[test]
    fn flags_per_mode() {
        assert_eq!(flags(None, ["#pragma acc kernels\n"].into_iter()).unwrap(), vec!["-fopenacc"]);
        assert!(flags(None, ["int x;\n"].into_iter()).unwrap().is_empty());
        assert!(flags(Some("none"), ["#pragma acc kernels\n"].into_iter()).unwrap().is_empty());
        assert_eq!(flags(Some("host"), std::iter::empty()).unwrap(), vec!["-fopenacc"]);
        let n = flags(Some("nvptx"), std::iter::empty()).unwrap();
        assert_eq!(&n[..2], &["-fopenacc", "-foffload=nvptx-none"]);
        assert!(flags(Some("cuda"), std::iter::empty()).unwrap_err().contains("--acc=cuda"));
    }
}
