#![no_main]
// The data readers of the other tools: the first byte picks one (profile JSON, NSIM
// TOML config, MPIETE trace, MPIETE compute data JSON). Errors are fine; panics and
// unbounded allocations are findings (libFuzzer's -rss_limit_mb catches the latter).
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&b, rest)) = data.split_first() else { return };
    match b % 4 {
        0 => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(p) = xmpc_prof_report::Profile::from_json(t) {
                    let _ = xmpc_prof_report::text::render(&p, 5);
                }
            }
        }
        1 => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(c) = xmpc_nsim::Config::from_toml(t, "fuzz.toml") {
                    if c.num_nodes() <= 4096 {
                        let _ = xmpc_nsim::topo::Topo::new(&c);
                    }
                }
            }
        }
        2 => {
            if let Ok(mut r) = xmpc_mpiete::trace::TraceReader::new(rest, "fuzz".into()) {
                for _ in 0..100_000 {
                    match r.next_event() {
                        Ok(Some(_)) => {}
                        _ => break,
                    }
                }
            }
        }
        _ => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(b) = serde_json::from_str::<xmpc_mpiete::data::BlockTimes>(t) {
                    if b.blocks.iter().all(|x| x.id <= xmpc_mpiete::data::MAX_BLOCK_ID) {
                        let _ = b.tables(b.ranks.min(64));
                    }
                }
            }
        }
    }
});
