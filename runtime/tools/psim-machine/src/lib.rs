//! PSIM machine descriptions (docs/psim.md): what the processor model needs to know
//! about a processor, read from TOML. No dependency on compiler crates, so runtime
//! tools can read the same files.

use serde::{Deserialize, Serialize};

/// A processor (one core's view plus the memory it shares).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// Free text naming the machine.
    pub name: String,
    /// Core clock in GHz.
    pub clock_ghz: f64,
    /// Cores per node (a rank runs on one).
    pub cores: u32,
    pub core: Core,
    /// Cache levels, closest to the core first (L1, L2, ...).
    #[serde(rename = "cache")]
    pub caches: Vec<Cache>,
    pub memory: Memory,
    /// How the compiled code uses the core (what the native compiler did).
    #[serde(default)]
    pub compiler: Compiler,
    /// Where the numbers come from (probe output, data sheet), free text.
    #[serde(default)]
    pub source: String,
}

/// The in-core pipe table. Latencies and occupancies are in cycles.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Core {
    /// Double-precision lanes of one SIMD instruction (1: scalar).
    pub simd_lanes: u32,
    /// Instructions the core sustains per cycle (front end and retirement).
    #[serde(default = "four")]
    pub issue_width: f64,
    /// Floating-point pipes that can each start one add, multiply or FMA per cycle.
    pub fp_pipes: u32,
    /// Whether a multiply and an add fuse into one FMA.
    pub fma: bool,
    /// Loads the core can start per cycle.
    pub load_pipes: u32,
    /// Stores per cycle.
    pub store_pipes: u32,
    /// Loads are memory operands of the arithmetic instructions they feed (x86's
    /// load-op instructions): the issue bound counts only the loads beyond one per add,
    /// multiply or conversion. `xmpc psim probe` sets it on x86-64.
    #[serde(default)]
    pub fold_loads: bool,
    /// Latency of a dependent floating-point add / multiply / FMA.
    pub add_latency: f64,
    pub mul_latency: f64,
    /// Divide: latency, and cycles a divide occupies its unit.
    pub div_latency: f64,
    pub div_cycles: f64,
    /// Square root: latency and occupancy.
    pub sqrt_latency: f64,
    pub sqrt_cycles: f64,
    /// Float<->int conversion or truncation (`aint`, `(int)x`, `floor`): latency.
    pub convert_latency: f64,
    /// A library call such as `log`, `exp`, `pow`, `sin`: cycles per call.
    pub libm_cycles: f64,
    /// In-core model: `table` (this pipe table) or `llvm-mca` (cycles per iteration of
    /// each innermost loop as the native compiler compiles it, by llvm-mca with
    /// `-mcpu=compiler.march`; the table where llvm-mca cannot time a loop).
    #[serde(default = "table")]
    pub incore: String,
}

fn four() -> f64 {
    4.0
}

fn table() -> String {
    "table".into()
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    pub name: String,
    pub size_kib: f64,
    /// Bytes per cycle this level delivers to the level above it (L1: to registers).
    pub bytes_per_cycle: f64,
    /// Bytes per cycle of write-backs into this level (default: `bytes_per_cycle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_bytes_per_cycle: Option<f64>,
    #[serde(default = "line")]
    pub line_bytes: u32,
}

fn line() -> u32 {
    64
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Bandwidth one core reaches from memory (GB/s = 1e9 bytes/s).
    pub bandwidth_gbs: f64,
    /// Write-back bandwidth (default: `bandwidth_gbs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_bandwidth_gbs: Option<f64>,
    /// Bandwidth of the node's memory when all `cores` stream at once (GB/s). Ranks of one
    /// node share it: each gets `min(bandwidth_gbs, socket_bandwidth_gbs / k)` with `k`
    /// its node's ranks (at most `cores`). Absent: no sharing (each rank gets
    /// `bandwidth_gbs` whatever the number of ranks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub socket_bandwidth_gbs: Option<f64>,
    /// While a loop streams from memory, the bytes per iteration that L1 misses but a
    /// lower cache level serves (the reuse of the layer conditions: a stencil's previous
    /// rows) take `reuse_cost` times their time at `bandwidth_gbs`, in series with the
    /// memory transfer. Absent or 0: such hits hide behind the memory stream (classic
    /// layer conditions). `xmpc psim probe` measures it with a lagged read stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reuse_cost: Option<f64>,
    pub latency_ns: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Compiler {
    /// Innermost loops without recurrences are vectorised with `simd_lanes`.
    #[serde(default)]
    pub vectorize: bool,
    /// Only loops whose trip count is a compile-time constant are vectorised (gcc -O2's
    /// very-cheap cost model), when `vectorize` is false.
    #[serde(default)]
    pub vectorize_constant_trips: bool,
    /// Reductions (`s += ...`) are vectorised too (needs reassociation: -ffast-math, or
    /// a compiler for the machine that does it, as PSIM's did).
    #[serde(default)]
    pub vectorize_reductions: bool,
    /// Stores first read the line (write-allocate caches).
    #[serde(default = "yes")]
    pub write_allocate: bool,
    /// Share of a cache the layer conditions may count on (Kerncraft uses 1/2).
    #[serde(default = "half")]
    pub cache_safety: f64,
    /// ECM overlap: `none` (Intel-like: transfers add up) or `full` (roofline-like:
    /// the slowest transfer bounds).
    #[serde(default = "none")]
    pub overlap: String,
    /// The CPU the native compiler targets (`-march=`) and llvm-mca models (`-mcpu=`)
    /// with `core.incore = "llvm-mca"` and in `xmpc psim predict -v`'s side-by-side view:
    /// a name both know (`znver3`, `sapphirerapids`...). Absent: the compiler's default target and llvm-mca's host CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub march: Option<String>,
}

fn yes() -> bool {
    true
}
fn half() -> f64 {
    0.5
}
fn none() -> String {
    "none".into()
}

impl Default for Compiler {
    fn default() -> Self {
        Compiler {
            vectorize: false,
            vectorize_constant_trips: false,
            vectorize_reductions: false,
            write_allocate: true,
            cache_safety: 0.5,
            overlap: "none".into(),
            march: None,
        }
    }
}

impl Machine {
    /// Parses and checks a machine file; the error names the field.
    pub fn parse(text: &str) -> Result<Machine, String> {
        let m: Machine = toml::from_str(text).map_err(|e| e.to_string())?;
        m.check()?;
        Ok(m)
    }

    pub fn load(path: &std::path::Path) -> Result<Machine, String> {
        // a machine file is a page of TOML: a larger or endless one is refused unread
        let b = xmpc_outfile::read_bounded(path, 1 << 20)?;
        let t = String::from_utf8(b).map_err(|e| format!("{}: not UTF-8 (byte {})", path.display(), e.utf8_error().valid_up_to()))?;
        Machine::parse(&t).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("a machine serialises")
    }

    /// Every number positive and finite, caches growing, overlap known.
    pub fn check(&self) -> Result<(), String> {
        let pos = |what: &str, x: f64| if x.is_finite() && x > 0.0 { Ok(()) } else { Err(format!("`{what}` must be a positive number (got {x})")) };
        pos("clock_ghz", self.clock_ghz)?;
        pos("cores", self.cores as f64)?;
        let c = &self.core;
        pos("core.simd_lanes", c.simd_lanes as f64)?;
        pos("core.issue_width", c.issue_width)?;
        pos("core.fp_pipes", c.fp_pipes as f64)?;
        pos("core.load_pipes", c.load_pipes as f64)?;
        pos("core.store_pipes", c.store_pipes as f64)?;
        for (n, x) in [
            ("add_latency", c.add_latency),
            ("mul_latency", c.mul_latency),
            ("div_latency", c.div_latency),
            ("div_cycles", c.div_cycles),
            ("sqrt_latency", c.sqrt_latency),
            ("sqrt_cycles", c.sqrt_cycles),
            ("convert_latency", c.convert_latency),
            ("libm_cycles", c.libm_cycles),
        ] {
            pos(&format!("core.{n}"), x)?;
        }
        if let Some(a) = &self.compiler.march {
            if a.is_empty() || !a.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
                return Err(format!("`compiler.march` is `{a}`: a CPU name such as `znver3` (letters, digits, `-`, `_`, `.`)"));
            }
        }
        if c.incore != "table" && c.incore != "llvm-mca" {
            return Err(format!("`core.incore` is `{}`: use `table` (the pipe table) or `llvm-mca` (its CPU: `compiler.march`)", c.incore));
        }
        if self.caches.is_empty() {
            return Err("at least one `[[cache]]` level is needed".into());
        }
        let mut last = 0.0;
        for k in &self.caches {
            pos(&format!("cache {}: size_kib", k.name), k.size_kib)?;
            pos(&format!("cache {}: bytes_per_cycle", k.name), k.bytes_per_cycle)?;
            if k.size_kib <= last {
                return Err(format!("cache {} is not larger than the level before it", k.name));
            }
            last = k.size_kib;
        }
        pos("memory.bandwidth_gbs", self.memory.bandwidth_gbs)?;
        pos("memory.latency_ns", self.memory.latency_ns)?;
        if let Some(s) = self.memory.socket_bandwidth_gbs {
            pos("memory.socket_bandwidth_gbs", s)?;
        }
        if let Some(w) = self.memory.write_bandwidth_gbs {
            pos("memory.write_bandwidth_gbs", w)?;
        }
        if let Some(r) = self.memory.reuse_cost {
            if !(r.is_finite() && r >= 0.0) {
                return Err(format!("`memory.reuse_cost` is {r}: it must be 0 or more"));
            }
        }
        if !(self.compiler.cache_safety > 0.0 && self.compiler.cache_safety <= 1.0) {
            return Err("`compiler.cache_safety` must be in (0, 1]".into());
        }
        if self.compiler.overlap != "none" && self.compiler.overlap != "full" {
            return Err(format!("`compiler.overlap` is `{}`: use `none` (ECM) or `full` (roofline)", self.compiler.overlap));
        }
        Ok(())
    }

    /// Whether the in-core time comes from llvm-mca (`core.incore = "llvm-mca"`).
    pub fn incore_llvm_mca(&self) -> bool {
        self.core.incore == "llvm-mca"
    }

    /// Memory bandwidth in bytes per core cycle.
    pub fn mem_bytes_per_cycle(&self) -> f64 {
        self.memory.bandwidth_gbs / self.clock_ghz
    }

    /// How much longer a memory transfer takes when `k` ranks of one node stream at once
    /// (`k` capped at `cores`): `max(1, k * bandwidth_gbs / socket_bandwidth_gbs)`; 1 without
    /// `socket_bandwidth_gbs`.
    pub fn mem_share(&self, k: f64) -> f64 {
        match self.memory.socket_bandwidth_gbs {
            Some(s) => (k.min(self.cores as f64).max(1.0) * self.memory.bandwidth_gbs / s).max(1.0),
            None => 1.0,
        }
    }

    /// Peak double-precision flops per cycle (FMA counts 2).
    pub fn peak_flops_per_cycle(&self) -> f64 {
        self.core.fp_pipes as f64 * self.core.simd_lanes as f64 * if self.core.fma { 2.0 } else { 1.0 }
    }

    /// Sets one parameter by name (for sweeps): `lanes`, `bandwidth` (GB/s), `clock` (GHz),
    /// `fp_pipes`.
    pub fn set(&mut self, param: &str, v: f64) -> Result<(), String> {
        match param {
            "lanes" | "simd_lanes" => self.core.simd_lanes = v.round().max(1.0) as u32,
            "bandwidth" | "memory_bandwidth" => self.memory.bandwidth_gbs = v,
            "socket_bandwidth" => self.memory.socket_bandwidth_gbs = Some(v),
            "clock" | "clock_ghz" => self.clock_ghz = v,
            "fp_pipes" => self.core.fp_pipes = v.round().max(1.0) as u32,
            _ => return Err(format!("unknown parameter `{param}` (lanes, bandwidth, socket_bandwidth, clock, fp_pipes)")),
        }
        self.check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = r#"
name = "t"
clock_ghz = 2.0
cores = 4
[core]
simd_lanes = 4
fp_pipes = 2
fma = true
load_pipes = 2
store_pipes = 1
add_latency = 4
mul_latency = 4
div_latency = 13
div_cycles = 4
sqrt_latency = 18
sqrt_cycles = 6
convert_latency = 6
libm_cycles = 40
[[cache]]
name = "L1"
size_kib = 32
bytes_per_cycle = 64
[[cache]]
name = "L2"
size_kib = 1024
bytes_per_cycle = 32
[memory]
bandwidth_gbs = 20
latency_ns = 90
"#;

    #[test]
    fn parse_and_derived_numbers() {
        let m = Machine::parse(M).unwrap();
        assert_eq!(m.caches.len(), 2);
        assert_eq!(m.caches[0].line_bytes, 64);
        assert_eq!(m.peak_flops_per_cycle(), 16.0);
        assert_eq!(m.mem_bytes_per_cycle(), 10.0);
        assert_eq!(m.compiler.overlap, "none");
        // round trip
        assert_eq!(Machine::parse(&m.to_toml()).unwrap(), m);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let e = Machine::parse(&M.replace("clock_ghz = 2.0", "clock_ghz = -1.0")).unwrap_err();
        assert!(e.contains("clock_ghz"), "{e}");
        let e = Machine::parse(&M.replace("size_kib = 1024", "size_kib = 16")).unwrap_err();
        assert!(e.contains("L2"), "{e}");
        // incore: `table` or `llvm-mca`, kept through a round trip; anything else is named
        let m = Machine::parse(&M.replace("libm_cycles = 40", "libm_cycles = 40\nincore = \"llvm-mca\"")).unwrap();
        assert!(m.incore_llvm_mca());
        assert_eq!(Machine::parse(&m.to_toml()).unwrap(), m);
        assert!(!Machine::parse(M).unwrap().incore_llvm_mca());
        for bad in ["llvm-mca:-mcpu=znver3", "osaca", ""] {
            let e = Machine::parse(&M.replace("libm_cycles = 40", &format!("libm_cycles = 40\nincore = \"{bad}\""))).unwrap_err();
            assert!(e.contains("core.incore") && e.contains(&format!("`{bad}`")), "{e}");
        }
        // compiler.march: a CPU name, kept through a round trip; anything else is named
        let with = |v: &str| format!("{M}[compiler]\nmarch = \"{v}\"\n");
        let m = Machine::parse(&with("znver3")).unwrap();
        assert_eq!(m.compiler.march.as_deref(), Some("znver3"));
        assert_eq!(Machine::parse(&m.to_toml()).unwrap(), m);
        let e = Machine::parse(&with("znver3 -O0")).unwrap_err();
        assert!(e.contains("compiler.march"), "{e}");
        let e = Machine::parse(&M.replace("libm_cycles = 40", "libm_cycles = 40\nbogus = 1")).unwrap_err();
        assert!(e.contains("bogus"), "{e}");
        // memory.reuse_cost: 0 or more, kept through a round trip
        let m = Machine::parse(&M.replace("latency_ns = 90", "latency_ns = 90\nreuse_cost = 1.2")).unwrap();
        assert_eq!(m.memory.reuse_cost, Some(1.2));
        assert_eq!(Machine::parse(&m.to_toml()).unwrap(), m);
        let e = Machine::parse(&M.replace("latency_ns = 90", "latency_ns = 90\nreuse_cost = -0.5")).unwrap_err();
        assert!(e.contains("memory.reuse_cost"), "{e}");
        let mut m = Machine::parse(M).unwrap();
        m.set("lanes", 16.0).unwrap();
        assert_eq!(m.core.simd_lanes, 16);
        assert!(m.set("colour", 1.0).is_err());
    }
}
