#![no_main]
// One directive text (after the sentinel word), C or Fortran by the first byte.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&b, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let lang = if b & 1 == 0 { xmpc_frontend::directive::DirLang::C } else { xmpc_frontend::directive::DirLang::Fortran };
    let src = xmpc_frontend::directive::DirectiveText { text: text.to_string(), map: xmpc_ir::OffsetMap::identity(0) };
    if let Err(d) = xmpc_frontend::directive::parse(&src, lang, 0) {
        xmpc_fuzz::assert_located(&d, text.len(), "directive");
    }
});
