#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| xmpc_fuzz::compile(data, xmpc_ir::Lang::C));
