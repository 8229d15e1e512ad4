//! The paper's CPU mapping (§4.1, Fig. 4-4): which CPU participant `i` runs on.
//!
//! *Sequential* fills CPUs in order: neighbours share the closest caches, so
//! flag lines travel the shortest way (fastest barrier). *Tree* spreads the
//! participants like a binary tree over the CPUs (bit-reversed order): at 8 of
//! 16 CPUs each participant gets a chip's L2 to itself (more cache per
//! participant, slower barrier). The paper found the barrier 1.6x faster with
//! sequential mapping at 8 CPUs, the applications faster with tree mapping.

/// How participants are placed on CPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapping {
    Sequential,
    Tree,
}

impl Mapping {
    /// `XMPC_FBS_MAP=tree|seq` (default sequential).
    pub fn from_env() -> Mapping {
        match std::env::var("XMPC_FBS_MAP").as_deref().map(str::trim) {
            Ok("tree") => Mapping::Tree,
            _ => Mapping::Sequential,
        }
    }

    /// Index into the CPU list for participant `i` of `n` on `ncpu` CPUs.
    /// Participants beyond `ncpu` wrap around.
    pub fn cpu_index(self, i: usize, n: usize, ncpu: usize) -> usize {
        let ncpu = ncpu.max(1);
        match self {
            Mapping::Sequential => i % ncpu,
            Mapping::Tree => {
                if n >= ncpu {
                    return i % ncpu;
                }
                // bit-reverse i over the smallest power of two >= ncpu, skipping
                // slots >= ncpu: 16 CPUs give 0, 8, 4, 12, 2, 10, ...
                let p = ncpu.next_power_of_two();
                let bits = p.trailing_zeros();
                let rev = |x: usize| if bits == 0 { 0 } else { x.reverse_bits() >> (usize::BITS - bits) };
                (0..p).map(rev).filter(|&c| c < ncpu).nth(i).unwrap_or(i % ncpu)
            }
        }
    }
}

/// Pins the calling thread to the CPU that `mapping` gives participant `i` of
/// `n` among the CPUs this process may use. Returns the CPU id, or None when
/// the affinity could not be set.
pub fn pin(mapping: Mapping, i: usize, n: usize) -> Option<usize> {
    let cpus = core_affinity::get_core_ids()?;
    if cpus.is_empty() {
        return None;
    }
    let c = cpus[mapping.cpu_index(i, n, cpus.len())];
    core_affinity::set_for_current(c).then_some(c.id)
}

#[cfg(test)]
mod tests {
    use super::Mapping;

    #[test]
    fn sequential_fills_in_order() {
        let v: Vec<usize> = (0..6).map(|i| Mapping::Sequential.cpu_index(i, 6, 4)).collect();
        assert_eq!(v, [0, 1, 2, 3, 0, 1]);
    }

    #[test]
    fn tree_spreads_like_the_paper() {
        // 8 participants on 16 CPUs: one per CPU pair (the paper's Fig. 4-4)
        let v: Vec<usize> = (0..8).map(|i| Mapping::Tree.cpu_index(i, 8, 16)).collect();
        assert_eq!(v, [0, 8, 4, 12, 2, 10, 6, 14]);
        // not a power of two: still distinct CPUs
        let mut w: Vec<usize> = (0..6).map(|i| Mapping::Tree.cpu_index(i, 6, 12)).collect();
        assert_eq!(w[0..2], [0, 8]);
        w.sort();
        w.dedup();
        assert_eq!(w.len(), 6);
        // as many participants as CPUs: the same set as sequential
        assert_eq!(Mapping::Tree.cpu_index(3, 4, 4), 3);
    }
}
