#![no_main]
// The first byte picks free or fixed form; the rest is the source.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some((&b, rest)) = data.split_first() {
        let lang = if b & 1 == 0 { xmpc_ir::Lang::FortranFree } else { xmpc_ir::Lang::FortranFixed };
        xmpc_fuzz::compile(rest, lang);
    }
});
