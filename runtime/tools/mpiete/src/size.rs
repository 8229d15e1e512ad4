//! Byte sizes on the command line: `4MiB`, `64KiB`, `1000`, `2KB`.

/// Parses a byte count with an optional unit (B, KB/KiB, MB/MiB, GB/GiB; the
/// K/M/G forms are powers of 1024 as well, as MPI users mean them).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: u64 = num.parse().map_err(|_| format!("'{s}' is not a byte size (e.g. 4096, 64KiB, 4MiB)"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        u => return Err(format!("'{s}': unknown unit '{u}' (use B, KiB, MiB or GiB)")),
    };
    n.checked_mul(mult).ok_or_else(|| format!("'{s}' is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn units() {
        assert_eq!(parse_bytes("4MiB").unwrap(), 4 << 20);
        assert_eq!(parse_bytes("64KiB").unwrap(), 65536);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("4XB").is_err());
        assert!(parse_bytes("MiB").is_err());
    }
}
