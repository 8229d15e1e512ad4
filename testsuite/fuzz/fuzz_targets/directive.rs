#![no_main]
// The body is xmpc_fuzz::directive (src/lib.rs), shared with the cargo-test replay.
libfuzzer_sys::fuzz_target!(|data: &[u8]| xmpc_fuzz::directive(data));
