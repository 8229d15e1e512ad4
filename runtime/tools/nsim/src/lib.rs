//! NSIM: a packet-level, parallel discrete-event interconnect simulator.
//!
//! * [`config`]: the interconnect configuration (TOML).
//! * [`topo`]: mesh / torus (1–6-D) and k-ary n-tree fat-tree, routing.
//! * [`engine`]: the event engine (sequential and conservative-parallel).
//! * [`patterns`]: built-in communication patterns (random ring, all-to-all, ...).
//! * [`mgen`]: the C API (`mgen.h`) that runs MGEN programs on the simulator.
//! * [`network`]: an incremental "inject a message, tell me when it arrives"
//!   API for other simulators (BSIM).
//! * [`stepper`]: [`network::Network`] plus "when is the next delivery",
//!   for conservative coupling.
//! * [`report`]: statistics, JSON/CSV and SVG plots.
//!
//! Time is an integer number of picoseconds ([`Time`]); see `docs/nsim.md`.

pub mod cli;
pub mod config;
pub mod engine;
pub mod mgen;
pub mod network;
pub mod patterns;
pub mod plot;
mod queue;
pub mod report;
pub mod stepper;
pub mod topo;

/// Simulated time in integer picoseconds.
pub type Time = u64;

/// Picoseconds in one second.
pub const PS_PER_S: u128 = 1_000_000_000_000;

/// Serialisation time of `bytes` on a link of `bw` bytes/s, rounded up to a picosecond.
#[inline]
pub fn ser_time(bytes: u64, bw: u64) -> Time {
    ((bytes as u128 * PS_PER_S).div_ceil(bw as u128)) as Time
}

/// A tiny deterministic PRNG / hash (SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);
impl SplitMix {
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix64(self.0)
    }
}
/// SplitMix64 finaliser: a good 64-bit hash.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub use config::Config;
pub use engine::{Block, Cx, Program, SimResult, Simulation};
