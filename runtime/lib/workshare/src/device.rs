//! The device that takes the GPU share of a device loop.
//!
//! `XMPC_DEVICE`: `none` (w forced to 1: everything on the CPU workers), `emu:speed=20,
//! launch_us=5,gbps=25[,iter_ns=X]` (an emulated GPU: it runs the CPU body for
//! correctness and reports modelled times, named "emulated GPU" in every report
//! line), `cuda` (the CUDA driver via cudarc, loaded at run time). Unset: `cuda` when
//! libcuda and a device are there, else `none`.

/// Parameters of the emulated GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Emu {
    /// How many times faster than one CPU core running the same body.
    pub speed: f64,
    /// Fixed cost of one kernel launch (µs).
    pub launch_us: f64,
    /// Host-device bandwidth (GB/s) for the task's data in and out.
    pub gbps: f64,
    /// When set, CPU times are modelled too (iterations x iter_ns), which makes a
    /// run deterministic on a loaded machine; otherwise they are measured.
    pub iter_ns: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    None,
    Emu(Emu),
    Cuda,
    /// Unset: cuda if present, else none.
    Auto,
}

/// Parses `XMPC_DEVICE`; the error says what is accepted.
pub fn parse(s: &str) -> Result<Spec, String> {
    let s = s.trim();
    match s {
        "" => return Ok(Spec::Auto),
        "none" => return Ok(Spec::None),
        "cuda" => return Ok(Spec::Cuda),
        _ => {}
    }
    let Some(rest) = s.strip_prefix("emu").map(|r| r.strip_prefix(':').unwrap_or(r)) else {
        return Err(format!("XMPC_DEVICE={s}: expected none, cuda or emu:speed=K,launch_us=U,gbps=G[,iter_ns=N]"));
    };
    let mut e = Emu { speed: 20.0, launch_us: 5.0, gbps: 25.0, iter_ns: None };
    for kv in rest.split(',').filter(|x| !x.is_empty()) {
        let (k, v) = kv.split_once('=').ok_or_else(|| format!("XMPC_DEVICE: `{kv}` is not key=value"))?;
        let v: f64 = v.parse().map_err(|_| format!("XMPC_DEVICE: `{v}` is not a number"))?;
        if !(v.is_finite() && v >= 0.0) {
            return Err(format!("XMPC_DEVICE: {k}={v} must be a non-negative number"));
        }
        match k {
            "speed" | "k" if v > 0.0 => e.speed = v,
            "launch_us" => e.launch_us = v,
            "gbps" if v > 0.0 => e.gbps = v,
            "iter_ns" => e.iter_ns = Some(v),
            _ => return Err(format!("XMPC_DEVICE: unknown or zero emu parameter `{k}` (speed, launch_us, gbps, iter_ns)")),
        }
    }
    Ok(Spec::Emu(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses_the_three_devices() {
        assert_eq!(parse("none"), Ok(Spec::None));
        assert_eq!(parse(""), Ok(Spec::Auto));
        assert_eq!(parse("emu:speed=20,launch_us=5,gbps=25"), Ok(Spec::Emu(Emu { speed: 20.0, launch_us: 5.0, gbps: 25.0, iter_ns: None })));
        assert!(matches!(parse("emu:speed=4,iter_ns=100"), Ok(Spec::Emu(Emu { speed: 4.0, iter_ns: Some(100.0), .. }))));
        assert!(parse("emu:speed=0").is_err());
        assert!(parse("emu:spd=3").unwrap_err().contains("unknown"));
        assert!(parse("opencl").is_err());
    }
}
