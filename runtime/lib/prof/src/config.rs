//! Run-time configuration: a TOML file named by `XMPC_PROF_CONFIG`.
//!
//! ```toml
//! output_dir = "prof"          # where xmpc_prof.json / .txt go (default ".")
//! output_name = "xmpc_prof"    # file stem
//! include = ["MPI_Send", "MPI_Recv", "MPI_All*"]   # default: all functions
//! exclude = ["MPI_Wtime", "MPI_Comm_rank"]
//! peers = true                 # per-peer counts and bytes
//! unreliable_factor = 5.0      # flag functions with mean < factor x overhead
//! calibration_pairs = 2000     # timer pairs measured at MPI_Init (>= 1000)
//! crash_handlers = true        # write per-rank partial files on fatal signals
//! timer = "auto"               # "auto" | "tsc" | "clock_gettime"
//! ```
//!
//! `XMPC_PROF_OUTPUT_DIR` overrides `output_dir`.

use crate::funcs::FUNCS;
use serde::Deserialize;

#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub output_dir: String,
    pub output_name: String,
    pub include: Option<Vec<String>>,
    pub exclude: Vec<String>,
    pub peers: bool,
    pub unreliable_factor: f64,
    pub calibration_pairs: u64,
    pub crash_handlers: bool,
    pub timer: TimerChoice,
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TimerChoice {
    Auto,
    Tsc,
    ClockGettime,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            output_dir: ".".into(),
            output_name: "xmpc_prof".into(),
            include: None,
            exclude: Vec::new(),
            peers: true,
            unreliable_factor: 5.0,
            calibration_pairs: 2000,
            crash_handlers: true,
            timer: TimerChoice::Auto,
        }
    }
}

fn matches(pat: &str, name: &str) -> bool {
    let (p, n) = (pat.to_ascii_lowercase(), name.to_ascii_lowercase());
    match p.strip_suffix('*') {
        Some(prefix) => n.starts_with(prefix),
        None => p == n,
    }
}

impl Config {
    /// Parse and validate TOML text; `origin` (the file name) prefixes errors.
    pub fn parse(text: &str, origin: &str) -> Result<Config, String> {
        let c: Config = toml::from_str(text).map_err(|e| format!("{origin}: {}", e.to_string().trim_end()))?;
        c.validate(origin)?;
        Ok(c)
    }

    /// Load from `$XMPC_PROF_CONFIG` (defaults when unset) and apply
    /// `$XMPC_PROF_OUTPUT_DIR`.
    pub fn from_env() -> Result<Config, String> {
        let mut c = match std::env::var("XMPC_PROF_CONFIG") {
            Ok(path) if !path.is_empty() => {
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: cannot read config (XMPC_PROF_CONFIG): {e}"))?;
                Config::parse(&text, &path)?
            }
            _ => Config::default(),
        };
        if let Ok(d) = std::env::var("XMPC_PROF_OUTPUT_DIR") {
            if !d.is_empty() {
                c.output_dir = d;
            }
        }
        Ok(c)
    }

    fn validate(&self, origin: &str) -> Result<(), String> {
        let lists = [("include", self.include.as_deref().unwrap_or(&[])), ("exclude", &self.exclude[..])];
        for (field, list) in lists {
            for pat in list {
                if !FUNCS.iter().any(|f| matches(pat, f)) {
                    return Err(format!("{origin}: field `{field}`: '{pat}' matches no profiled MPI function (known: {})", FUNCS.join(", ")));
                }
            }
        }
        if !(self.unreliable_factor.is_finite() && self.unreliable_factor >= 0.0) {
            return Err(format!("{origin}: field `unreliable_factor`: must be a finite number >= 0"));
        }
        if self.calibration_pairs < 1000 {
            return Err(format!("{origin}: field `calibration_pairs`: must be >= 1000, got {}", self.calibration_pairs));
        }
        if self.output_name.is_empty() || self.output_name.contains('/') {
            return Err(format!("{origin}: field `output_name`: must be a non-empty file stem without '/'"));
        }
        Ok(())
    }

    /// Whether function `name` is recorded.
    pub fn enabled(&self, name: &str) -> bool {
        let inc = match &self.include {
            Some(l) => l.iter().any(|p| matches(p, name)),
            None => true,
        };
        inc && !self.exclude.iter().any(|p| matches(p, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_filters() {
        let c = Config::parse("include = [\"MPI_Send\", \"MPI_All*\"]\nexclude=[\"MPI_Allgatherv\"]\npeers=false", "t.toml").unwrap();
        assert!(c.enabled("MPI_Send"));
        assert!(c.enabled("MPI_Allreduce"));
        assert!(!c.enabled("MPI_Allgatherv"));
        assert!(!c.enabled("MPI_Recv"));
        assert!(!c.peers);
        assert_eq!(c.output_dir, ".");
    }

    #[test]
    fn errors_name_file_and_field() {
        let e = Config::parse("peers = 3", "my.toml").unwrap_err();
        assert!(e.contains("my.toml") && e.contains("peers"), "{e}");
        let e = Config::parse("bogus = 1", "my.toml").unwrap_err();
        assert!(e.contains("my.toml") && e.contains("bogus"), "{e}");
        let e = Config::parse("include = [\"MPI_Sned\"]", "my.toml").unwrap_err();
        assert!(e.contains("my.toml") && e.contains("include") && e.contains("MPI_Sned"), "{e}");
        let e = Config::parse("calibration_pairs = 10", "my.toml").unwrap_err();
        assert!(e.contains("calibration_pairs"), "{e}");
        let e = Config::parse("timer = \"sundial\"", "my.toml").unwrap_err();
        assert!(e.contains("my.toml") && e.contains("timer"), "{e}");
        let e = Config::parse("[[[", "my.toml").unwrap_err();
        assert!(e.contains("my.toml"), "{e}");
    }
}
